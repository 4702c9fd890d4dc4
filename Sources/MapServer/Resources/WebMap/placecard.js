// Markers and the place card: pins for results, endpoints and dropped pins; the card over the
// selected one with its address, its Look Around picture and the directions buttons; the card of a
// point of interest clicked on the map (looked up through /v1/search, then /v1/place/{id}).
import { $, placeName, placeDetail, coordinateText } from './format.js';
import { api, withToken } from './keys.js';
import { writeMapsURL } from './mapsurl.js';

const PIN_SVG = '<svg viewBox="0 0 30 40" aria-hidden="true"><path class="pin" d="M15 1.5C7.5 1.5 1.5 7.3 1.5 14.6 1.5 24.5 15 38.5 15 38.5S28.5 24.5 28.5 14.6C28.5 7.3 22.5 1.5 15 1.5z"/><circle class="hole" cx="15" cy="14.5" r="5"/></svg>';
// How far (metres) a search result may be from a clicked point of interest to be taken for it.
const SAME_PLACE_METERS = 60;

export class PlaceCards {
  constructor(map) {
    this.map = map;
    this.markers = []; // { place, kind, handle }
    this.selected = null;
    this.onDirections = null; // (which: 'origin' | 'destination', place) => void
    map.onMove(() => this.placeCallout());
    const callout = $('callout');
    callout.querySelector('.close').addEventListener('click', () => this.close());
    for (const type of ['pointerdown', 'mousedown', 'touchstart', 'dblclick', 'wheel']) {
      callout.addEventListener(type, (e) => e.stopPropagation());
    }
    callout.addEventListener('click', (e) => {
      e.stopPropagation();
      const button = e.target.closest('button');
      const action = button && button.dataset.action;
      if (!action || !this.selected) return;
      if (action === 'share') { this.share(this.selected); return; }
      const place = this.selected.place;
      this.close();
      if (this.onDirections) this.onDirections(action === 'from' ? 'origin' : 'destination', place);
    });
  }

  add(place, kind) {
    const el = document.createElement('button');
    el.type = 'button';
    el.className = `marker ${kind}`;
    el.innerHTML = PIN_SVG;
    el.setAttribute('aria-label', `${placeName(place)}${kind === 'origin' ? ' (start)' : kind === 'destination' ? ' (destination)' : ''}`);
    const marker = { place, kind, handle: null };
    // A pin's own click opens its card; the map must not take it for a click on the map.
    el.addEventListener('click', (e) => { e.stopPropagation(); this.open(marker); });
    for (const type of ['pointerdown', 'mousedown', 'touchstart', 'dblclick']) el.addEventListener(type, (e) => e.stopPropagation());
    marker.handle = this.map.addMarker(el, place.coordinate);
    this.markers.push(marker);
    return marker;
  }

  remove(kinds) {
    this.markers = this.markers.filter((m) => {
      if (!kinds.includes(m.kind)) return true;
      if (this.selected === m) this.close();
      m.handle.remove();
      return false;
    });
  }

  screenPoints() {
    return this.markers.map((m) => ({ kind: m.kind, name: placeName(m.place), ...this.map.project(m.place.coordinate.latitude, m.place.coordinate.longitude) }));
  }

  open(marker) {
    this.selected = marker;
    for (const m of this.markers) m.handle.element.classList.toggle('selected', m === marker);
    this.fill(marker.place);
    // The place's Look Around picture (rendered from OpenStreetMap by /api/v1/lookaround), asked
    // for only where the server has a scene (at sea or far from streets there is none).
    const look = $('callout-lookaround');
    look.hidden = true;
    look.removeAttribute('src');
    this.showLookAround(marker, look).catch(() => { look.hidden = true; });
    $('callout').hidden = false;
    this.placeCallout();
  }

  // Writes a place's name and address into the open card (after a lookup finished, too).
  fill(place) {
    $('callout-title').textContent = placeName(place);
    const c = place.coordinate;
    $('callout-detail').textContent = placeDetail(place) || `${c.latitude.toFixed(5)}, ${c.longitude.toFixed(5)}`;
    if (this.selected) this.selected.handle.element.setAttribute('aria-label', placeName(place));
    this.placeCallout();
  }

  async showLookAround(marker, look) {
    const c = marker.place.coordinate;
    const params = new URLSearchParams({ coordinate: coordinateText(c), place: 'true' });
    const scene = await api('/api/v1/lookaround/scene', Object.fromEntries(params));
    if (!scene || !scene.scene || this.selected !== marker) return;
    params.set('heading', String(Math.round(((scene.scene.heading % 360) + 360) % 360)));
    params.set('size', '270x150');
    if (window.devicePixelRatio > 1.5) params.set('scale', '2');
    // The scene query above went through api(), which got the token the picture's URL carries.
    look.onload = () => { if (this.selected === marker) { look.hidden = false; this.placeCallout(); } };
    look.onerror = () => { look.hidden = true; };
    look.src = withToken(`/api/v1/lookaround?${params}`);
  }

  close() {
    this.selected = null;
    $('callout').hidden = true;
    for (const m of this.markers) m.handle.element.classList.remove('selected');
  }

  placeCallout() {
    if (!this.selected) return;
    const c = this.selected.place.coordinate;
    const s = this.map.project(c.latitude, c.longitude);
    const card = $('callout');
    card.style.transform = `translate(${(s.x - card.offsetWidth / 2).toFixed(1)}px, ${(s.y - 48 - card.offsetHeight).toFixed(1)}px)`;
  }

  // A link to this place (its Maps URL on this server), copied for sharing.
  share(marker) {
    const place = marker.place;
    const parameters = { coordinate: coordinateText(place.coordinate), 'place-id': place.id || marker.placeID || '' };
    writeMapsURL('place', parameters);
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
    const button = $('callout-share');
    button.textContent = 'Link copied';
    setTimeout(() => { button.textContent = 'Share'; }, 1500);
  }

  /// A dropped pin at `coordinate` with its address from /v1/reverseGeocode.
  async dropPin(coordinate) {
    this.close();
    this.remove(['dropped']);
    const place = { name: 'Dropped pin', coordinate, formattedAddressLines: ['Looking up the address…'] };
    const marker = this.add(place, 'dropped');
    this.open(marker);
    const token = this.lookup = (this.lookup || 0) + 1;
    try {
      const body = await api('/v1/reverseGeocode', { loc: coordinateText(coordinate) });
      if (token !== this.lookup) return;
      const found = body && body.results && body.results[0];
      marker.place = found ? { ...found, coordinate } : { ...place, formattedAddressLines: ['No address here'] };
    } catch (err) {
      if (token !== this.lookup) return;
      marker.place = { ...place, formattedAddressLines: [err.status === 404 ? 'No address here' : `Address lookup failed: ${err.message}`] };
    }
    if (this.selected === marker) this.fill(marker.place);
  }

  /// The card of a point of interest drawn on the map (`feature`: name and coordinate from the
  /// vector tile). The tiles carry no place id, so the place is found by its name near the
  /// point (/v1/search), then read whole from /v1/place/{id}.
  async openFeature(feature) {
    this.close();
    this.remove(['dropped']);
    const place = { name: feature.name, coordinate: feature.coordinate,
                    formattedAddressLines: [feature.subclass ? feature.subclass.replace(/_/g, ' ') : 'Point of interest'] };
    const marker = this.add(place, 'dropped');
    this.open(marker);
    const token = this.lookup = (this.lookup || 0) + 1;
    try {
      const found = await api('/v1/search', { q: feature.name, searchLocation: coordinateText(feature.coordinate) });
      const near = ((found && found.results) || []).filter((p) => p.id && distance(p.coordinate, feature.coordinate) < SAME_PLACE_METERS)
        .sort((a, b) => distance(a.coordinate, feature.coordinate) - distance(b.coordinate, feature.coordinate))[0];
      if (!near || token !== this.lookup) return;
      const full = await api(`/v1/place/${encodeURIComponent(near.id)}`);
      if (token !== this.lookup) return;
      marker.place = { ...full, coordinate: feature.coordinate };
      marker.placeID = near.id;
      if (this.selected === marker) this.fill(marker.place);
    } catch (_) {
      // The card keeps the tile's name and kind.
    }
  }
}

// Metres between two coordinates (haversine; plenty for "is this the same place").
function distance(a, b) {
  const r = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * r, dLon = (b.longitude - a.longitude) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * r) * Math.cos(b.latitude * r) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}
