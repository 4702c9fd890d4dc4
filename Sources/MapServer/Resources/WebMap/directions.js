// Directions: start and destination (places, addresses or lat,lon), the transport type, routes
// with alternatives from /v1/directions, the selected route's steps, and the routes on the map.
import { $, placeName, formatDistance, formatDuration, coordinateText, boundsOf, setStatus } from './format.js';
import { api } from './keys.js';

export class Directions {
  constructor(map, cards, search, { inset, onChange }) {
    this.map = map;
    this.cards = cards;
    this.search = search;
    this.inset = inset;
    this.onChange = onChange || (() => {});
    this.endpoints = { origin: null, destination: null };
    this.transportType = 'Automobile';
    this.answer = null;
    this.routes = []; // { route, coordinates }
    this.selected = 0;
    this.token = 0;
    this.wire();
  }

  wire() {
    $('directions-toggle').addEventListener('click', () => {
      const open = $('directions').hidden;
      this.showPanel(open);
      if (open) $(this.endpoints.origin ? 'destination' : 'origin').focus();
    });
    for (const which of ['origin', 'destination']) {
      $(which).addEventListener('input', () => { this.endpoints[which] = null; this.cards.remove([which]); });
      $(which).addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); this.route(); } });
    }
    $('swap').addEventListener('click', () => {
      const o = this.endpoints.origin, d = this.endpoints.destination, ot = $('origin').value, dt = $('destination').value;
      this.setEndpoint('origin', d); this.setEndpoint('destination', o);
      if (!d) $('origin').value = dt;
      if (!o) $('destination').value = ot;
      if ($('origin').value && $('destination').value) this.route();
    });
    for (const b of $('transport').querySelectorAll('button')) {
      b.addEventListener('click', () => {
        this.setTransport(b.dataset.transport);
        if ($('origin').value && $('destination').value) this.route();
      });
    }
    $('route-button').addEventListener('click', () => this.route());
  }

  setTransport(type) {
    this.transportType = type;
    for (const o of $('transport').querySelectorAll('button')) o.setAttribute('aria-checked', String(o.dataset.transport === type));
  }

  showPanel(open) {
    $('directions').hidden = !open;
    $('directions-toggle').setAttribute('aria-expanded', String(open));
  }

  /// Sets the start or destination (a place, or null) and, when both are known, finds routes.
  choose(which, place) {
    this.setEndpoint(which, place);
    this.showPanel(true);
    if (this.endpoints.origin && this.endpoints.destination) this.route();
    else $(which === 'origin' ? 'destination' : 'origin').focus();
  }

  setEndpoint(which, place) {
    this.endpoints[which] = place;
    $(which).value = place ? placeName(place) : '';
    this.cards.remove([which]);
    if (place) this.cards.add(place, which);
  }

  parameter(which) {
    const place = this.endpoints[which];
    return place ? coordinateText(place.coordinate) : $(which).value.trim();
  }

  async route() {
    const origin = this.parameter('origin'), destination = this.parameter('destination');
    if (!origin || !destination) {
      setStatus('Choose a start and a destination: search for a place, or click the map.', true);
      return;
    }
    const token = ++this.token;
    setStatus('Finding routes…');
    try {
      const body = await api('/v1/directions', { origin, destination, transportType: this.transportType,
                                                  requestsAlternateRoutes: 'true', searchLocation: coordinateText(this.map.view) });
      if (token !== this.token) return;
      this.show(body);
    } catch (err) {
      if (token !== this.token) return;
      this.clear();
      setStatus(err.status === 404 ? 'No route found between these places.' : `Directions failed: ${err.message}`, true);
    }
  }

  clear() {
    this.answer = null;
    this.routes = [];
    $('route-panel').hidden = true;
    $('routes').textContent = '';
    $('steps').textContent = '';
    this.map.setRoutes([], 0);
    this.onChange();
  }

  show(body) {
    this.answer = body;
    const steps = body.steps || [], paths = body.stepPaths || [];
    this.routes = (body.routes || []).map((route) => {
      const coordinates = [];
      for (const si of route.stepIndexes || []) {
        const step = steps[si];
        for (const c of (step && paths[step.stepPathIndex]) || []) {
          if (!Number.isFinite(c.latitude) || !Number.isFinite(c.longitude)) continue;
          const last = coordinates[coordinates.length - 1];
          if (!last || last.latitude !== c.latitude || last.longitude !== c.longitude) coordinates.push({ latitude: c.latitude, longitude: c.longitude });
        }
      }
      return { route, coordinates };
    });
    this.search.clear();
    this.cards.remove(['dropped']);
    // The server's answer names the places it resolved: show those, not what was typed.
    const named = (which, place) => ({ ...place, name: this.endpoints[which] ? placeName(this.endpoints[which]) : placeName(place) });
    if (body.origin && body.origin.coordinate) this.setEndpoint('origin', named('origin', body.origin));
    if (body.destination && body.destination.coordinate) this.setEndpoint('destination', named('destination', body.destination));
    if (!this.routes.length) { this.clear(); setStatus('No route found between these places.', true); return; }
    setStatus('');
    $('route-panel').hidden = false;
    const list = $('routes');
    list.textContent = '';
    this.routes.forEach((r, i) => {
      const li = document.createElement('li');
      li.setAttribute('role', 'option');
      li.tabIndex = 0;
      li.className = 'route';
      const t = document.createElement('span'); t.className = 'time'; t.textContent = formatDuration(r.route.durationSeconds || 0);
      const m = document.createElement('div'); m.className = 'meta';
      m.textContent = `${formatDistance(r.route.distanceMeters || 0)}${r.route.name ? ` · via ${r.route.name}` : ''}${r.route.hasTolls ? ' · tolls' : ''}`;
      li.append(t, m);
      li.addEventListener('click', () => this.select(i));
      li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); this.select(i); } });
      list.appendChild(li);
    });
    this.select(0, true);
    this.onChange();
  }

  select(i, fit = false) {
    const r = this.routes[i];
    if (!r) return;
    this.selected = i;
    [...$('routes').children].forEach((li, k) => li.setAttribute('aria-selected', String(k === i)));
    const list = $('steps');
    list.textContent = '';
    const steps = (this.answer && this.answer.steps) || [];
    const paths = (this.answer && this.answer.stepPaths) || [];
    (r.route.stepIndexes || []).forEach((si, position) => {
      const step = steps[si];
      if (!step) return;
      const li = document.createElement('li');
      li.className = 'step';
      li.textContent = step.instructions || (position === 0 ? 'Start' : step.distanceMeters ? 'Continue' : 'Arrive');
      if (step.distanceMeters) {
        const d = document.createElement('span'); d.className = 'distance'; d.textContent = formatDistance(step.distanceMeters);
        li.appendChild(d);
      }
      li.tabIndex = 0;
      const show = () => {
        const path = paths[step.stepPathIndex] || [];
        if (path.length) this.map.fitBounds(boundsOf(path), { padding: this.inset(60), maxZoom: 17 });
      };
      li.addEventListener('click', show);
      li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); show(); } });
      list.appendChild(li);
    });
    this.map.setRoutes(this.routes.map((route) => route.coordinates), i);
    if (fit && r.coordinates.length) this.map.fitBounds(boundsOf(r.coordinates), { padding: this.inset(90), maxZoom: 18 });
  }
}
