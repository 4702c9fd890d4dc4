// The search box: suggestions while typing (/v1/searchAutocomplete), results with pins
// (/v1/search), each opening its place card.
import { $, placeName, placeDetail, coordinateText, isCoordinate, boundsOf, setStatus } from './format.js';
import { api } from './keys.js';

export class Search {
  constructor(map, cards, { inset, onResults }) {
    this.map = map;
    this.cards = cards;
    this.inset = inset; // () => padding for the part of the map the panel leaves
    this.onResults = onResults || (() => {}); // (query, near) after results are shown
    this.input = $('search');
    this.list = $('suggestions');
    this.suggestions = [];
    this.active = -1;
    this.suggestToken = 0;
    this.searchToken = 0;
    this.timer = 0;
    this.results = [];
    this.wire();
  }

  near() { const v = this.map.view; return coordinateText(v); }

  wire() {
    const input = this.input;
    input.addEventListener('input', () => {
      clearTimeout(this.timer);
      const q = input.value.trim();
      if (q.length < 2) { this.suggestToken++; this.closeSuggestions(); return; }
      this.timer = setTimeout(async () => {
        const token = ++this.suggestToken;
        try {
          const body = await api('/v1/searchAutocomplete', { q, searchLocation: this.near() });
          if (token !== this.suggestToken) return;
          this.suggestions = (body && body.results) || [];
          this.active = -1;
          this.renderSuggestions();
        } catch (_) {
          if (token === this.suggestToken) this.closeSuggestions();
        }
      }, 150);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        if (!this.suggestions.length) return;
        e.preventDefault();
        const n = this.suggestions.length;
        this.active = e.key === 'ArrowDown' ? (this.active + 1) % n : (this.active - 1 + n) % n;
        this.renderSuggestions();
      } else if (e.key === 'Enter' && this.active >= 0) {
        e.preventDefault();
        this.pick(this.active);
      } else if (e.key === 'Escape') {
        this.closeSuggestions();
      }
    });
    input.addEventListener('blur', () => setTimeout(() => this.closeSuggestions(), 150));
    $('search-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const q = input.value.trim();
      this.suggestToken++;
      this.closeSuggestions();
      if (q) this.search(q);
    });
  }

  closeSuggestions() {
    this.list.hidden = true;
    this.list.textContent = '';
    this.suggestions = [];
    this.active = -1;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  renderSuggestions() {
    this.list.textContent = '';
    this.suggestions.forEach((s, i) => {
      const li = document.createElement('li');
      li.id = `suggestion-${i}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(i === this.active));
      const lines = s.displayLines || [];
      const a = document.createElement('span'); a.className = 'line1'; a.textContent = lines[0] || '';
      const b = document.createElement('span'); b.className = 'line2'; b.textContent = lines.slice(1).join(', ');
      li.append(a, b);
      li.addEventListener('pointerdown', (e) => e.preventDefault()); // keep focus in the box
      li.addEventListener('click', () => this.pick(i));
      this.list.appendChild(li);
    });
    const open = this.suggestions.length > 0;
    this.list.hidden = !open;
    this.input.setAttribute('aria-expanded', String(open));
    if (this.active >= 0) this.input.setAttribute('aria-activedescendant', `suggestion-${this.active}`);
    else this.input.removeAttribute('aria-activedescendant');
  }

  pick(i) {
    const s = this.suggestions[i];
    if (!s) return;
    this.input.value = (s.displayLines || []).join(', ');
    this.suggestToken++;
    this.closeSuggestions();
    if (s.completionUrl) this.run(s.completionUrl, {});
    else this.search((s.displayLines || []).join(' '));
  }

  /// Searches for `q` near the middle of the map (a Maps URL's ?q= lands here too).
  search(q, near) {
    this.input.value = q;
    return this.run('/v1/search', { q, searchLocation: near ? coordinateText(near) : this.near() });
  }

  async run(path, params) {
    const token = ++this.searchToken;
    setStatus('Searching…');
    try {
      const body = await api(path, params);
      if (token !== this.searchToken) return;
      this.show((body && body.results) || []);
      this.onResults(params.q || this.input.value.trim(), this.near());
    } catch (err) {
      if (token !== this.searchToken) return;
      this.show([], err.status === 404 ? 'Nothing found.' : `Search failed: ${err.message}`);
    }
  }

  clear() {
    this.results = [];
    $('results').textContent = '';
    this.cards.remove(['result']);
  }

  show(places, message) {
    this.cards.remove(['result']);
    this.cards.close();
    this.results = places.filter((p) => p && isCoordinate(p.coordinate));
    const list = $('results');
    list.textContent = '';
    const found = this.results.length === 1 ? '1 place' : `${this.results.length} places`;
    setStatus(message || (this.results.length ? found : 'Nothing found.'), Boolean(message && message !== 'Nothing found.'));
    this.results.forEach((place) => {
      const marker = this.cards.add(place, 'result');
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'result';
      const a = document.createElement('span'); a.className = 'line1'; a.textContent = placeName(place);
      const d = document.createElement('span'); d.className = 'line2'; d.textContent = placeDetail(place);
      b.append(a, d);
      b.addEventListener('click', () => {
        for (const other of list.querySelectorAll('button')) other.removeAttribute('aria-current');
        b.setAttribute('aria-current', 'true');
        this.cards.open(marker);
        this.map.easeTo({ latitude: place.coordinate.latitude, longitude: place.coordinate.longitude,
                          zoom: Math.max(this.map.view.zoom, 16), padding: this.inset() }, 400);
      });
      li.appendChild(b);
      list.appendChild(li);
    });
    if (!this.results.length) return;
    if (this.results.length === 1) {
      const c = this.results[0].coordinate;
      this.map.easeTo({ latitude: c.latitude, longitude: c.longitude, zoom: 16, padding: this.inset() }, 500);
      this.cards.open(this.cards.markers[this.cards.markers.length - 1]);
    } else {
      this.map.fitBounds(boundsOf(this.results.map((p) => p.coordinate)), { padding: this.inset(70), maxZoom: 17 });
    }
  }
}
