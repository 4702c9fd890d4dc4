// Shareable addresses: the page reads and writes Apple's unified Maps URLs on its own host, so a
// link names what the page shows — /search?query=…, /place?coordinate=…, /directions?source=…&
// destination=…&mode=…, /frame?center=…&span=…, /look-around?coordinate=… — and the part after
// # keeps the exact camera (#zoom/latitude/longitude/bearing/pitch, MapLibre's zoom).

export const ACTIONS = ['frame', 'search', 'place', 'directions', 'look-around'];

const coordinate = (text) => {
  const parts = (text || '').split(',').map((s) => Number(s.trim()));
  if (parts.length !== 2 || !parts.every(Number.isFinite) || Math.abs(parts[0]) > 90 || Math.abs(parts[1]) > 180) return null;
  return { latitude: parts[0], longitude: parts[1] };
};
const span = (text) => {
  const parts = (text || '').split(',').map((s) => Number(s.trim()));
  return parts.length === 2 && parts.every((v) => Number.isFinite(v) && v > 0) ? { latitudeDelta: parts[0], longitudeDelta: parts[1] } : null;
};

/// What the address asks for: { action, ... } with typed values, or null for the plain page.
export function readMapsURL(url = location) {
  const action = url.pathname.replace(/^\/+|\/+$/g, '');
  if (!ACTIONS.includes(action)) return null;
  const q = new URLSearchParams(url.search);
  switch (action) {
    case 'frame':
      return { action, center: coordinate(q.get('center')), span: span(q.get('span')),
               heading: Number(q.get('heading')) || 0, pitch: Number(q.get('pitch')) || 0 };
    case 'search':
      return { action, query: q.get('query') || '', center: coordinate(q.get('center')), span: span(q.get('span')) };
    case 'place':
    case 'look-around':
      return { action, coordinate: coordinate(q.get('coordinate')), address: q.get('address') || '', placeID: q.get('place-id') || '' };
    case 'directions': {
      // Apple's modes; the page's transport types are Apple Maps Server's.
      const modes = { driving: 'Automobile', walking: 'Walking', cycling: 'Cycling' };
      return { action, source: q.get('source') || '', destination: q.get('destination') || '', transportType: modes[q.get('mode')] || null };
    }
    default:
      return null;
  }
}

/// Replaces the address with the Maps URL for `action` and `parameters` (in order, empty ones
/// left out), keeping the camera after #. `action` null goes back to the plain page.
export function writeMapsURL(action, parameters = {}) {
  let path = '/';
  if (action) {
    const query = Object.entries(parameters).filter(([, v]) => v !== undefined && v !== null && v !== '')
      .map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`).join('&');
    path = `/${action}${query ? `?${query}` : ''}`;
  }
  if (location.pathname + location.search !== path) history.replaceState(null, '', path + location.hash);
}

export const modeOf = (transportType) => ({ Automobile: 'driving', Walking: 'walking', Cycling: 'cycling' })[transportType] || 'driving';

/// The camera in the hash, or null: #zoom/latitude/longitude[/bearing[/pitch]].
export function readCamera() {
  const parts = location.hash.replace(/^#/, '').split('/').map(Number);
  if (parts.length < 3 || parts.slice(0, 3).some((v) => !Number.isFinite(v))) return null;
  return { zoom: parts[0], latitude: parts[1], longitude: parts[2],
           bearing: Number.isFinite(parts[3]) ? parts[3] : 0, pitch: Number.isFinite(parts[4]) ? parts[4] : 0 };
}

let timer = 0;
let written = '';
/// Writes `view` into the hash a moment after the map stops changing.
export function writeCamera(view) {
  clearTimeout(timer);
  timer = setTimeout(() => {
    written = `#${view.zoom.toFixed(2)}/${view.latitude.toFixed(5)}/${view.longitude.toFixed(5)}/${view.bearing.toFixed(1)}/${view.pitch.toFixed(0)}`;
    if (location.hash !== written) history.replaceState(null, '', location.pathname + location.search + written);
  }, 250);
}
/// Whether the hash is the one the page wrote (so a hashchange is not the person's).
export const isOwnHash = () => location.hash === written;
