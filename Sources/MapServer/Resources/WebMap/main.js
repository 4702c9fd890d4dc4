// OpenMapKit's web map: starts the page. Reads the server's configuration, opens the vector map
// (or, without WebGL, the static one), and wires search, place cards, directions, keys and the
// address (Maps URLs) to it. Each concern lives in its own module; this one only connects them.
import { $, coordinateText, setStatus } from './format.js';
import { api, configureKeys, hasAccessToken } from './keys.js';
import { VectorMap, webGLAvailable, wireControls } from './map.js';
import { StaticMap } from './staticmap.js';
import { PlaceCards } from './placecard.js';
import { Search } from './search.js';
import { Directions } from './directions.js';
import { readMapsURL, writeMapsURL, modeOf, readCamera, writeCamera, isOwnHash } from './mapsurl.js';

const dark = window.matchMedia('(prefers-color-scheme: dark)');

// The style: the one chosen on this browser, or the one that follows the system's appearance.
function preferredStyle(styles) {
  let chosen = null;
  try { chosen = localStorage.getItem('openmapkit.style'); } catch (_) { /* storage may be off */ }
  if (chosen && styles.includes(chosen)) return chosen;
  return dark.matches && styles.includes('dark') ? 'dark' : styles[0] || 'standard';
}

// The part of the map the panel leaves uncovered, as padding for fitting and centring.
function inset(padding = 40) {
  const panel = $('panel').getBoundingClientRect();
  const map = $('map').getBoundingClientRect();
  if (map.width > 640) return { left: Math.min(panel.right, map.width / 2) + padding, top: padding, right: padding, bottom: padding };
  return { left: padding, top: Math.min(panel.bottom, map.height / 2) + padding, right: padding, bottom: padding };
}

function buildStyleSwitcher(map, styles) {
  const group = $('styles');
  group.textContent = '';
  const mark = (name) => {
    for (const b of group.children) b.setAttribute('aria-checked', String(b.dataset.style === name));
    document.body.dataset.mapStyle = name;
  };
  for (const name of styles) {
    const b = document.createElement('button');
    b.type = 'button';
    b.setAttribute('role', 'radio');
    b.dataset.style = name;
    b.textContent = name[0].toUpperCase() + name.slice(1);
    b.addEventListener('click', () => {
      try { localStorage.setItem('openmapkit.style', name); } catch (_) { /* ignore */ }
      map.setStyle(name);
      mark(name);
    });
    group.appendChild(b);
  }
  mark(map.style);
  // Following the system: a change of appearance changes the map, unless a style was chosen.
  dark.addEventListener('change', () => {
    const next = preferredStyle(styles);
    map.setStyle(next);
    mark(next);
  });
}

// What the address asked for, done once the map is there.
async function follow(link, { map, cards, search, directions }) {
  if (!link) return;
  switch (link.action) {
    case 'frame':
      if (link.center && link.span) {
        const c = link.center, s = link.span;
        map.fitBounds({ south: c.latitude - s.latitudeDelta / 2, north: c.latitude + s.latitudeDelta / 2,
                        west: c.longitude - s.longitudeDelta / 2, east: c.longitude + s.longitudeDelta / 2 }, { padding: 0, maxZoom: 20 });
      } else if (link.center) {
        map.jumpTo({ ...link.center, bearing: link.heading, pitch: link.pitch });
      }
      break;
    case 'search':
      if (link.query) await search.search(link.query, link.center);
      break;
    case 'place':
    case 'look-around': {
      let place = null;
      if (link.placeID) {
        try { place = await api(`/v1/place/${encodeURIComponent(link.placeID)}`); } catch (_) { place = null; }
      }
      if (!place && link.coordinate) { map.jumpTo({ ...link.coordinate, zoom: Math.max(map.view.zoom, 16) }); await cards.dropPin(link.coordinate); return; }
      if (!place && link.address) {
        try { place = ((await api('/v1/geocode', { q: link.address })).results || [])[0] || null; } catch (_) { place = null; }
      }
      if (place) {
        map.jumpTo({ ...place.coordinate, zoom: Math.max(map.view.zoom, 16) });
        cards.open(cards.add(place, 'result'));
      }
      break;
    }
    case 'directions':
      if (link.transportType) directions.setTransport(link.transportType);
      directions.showPanel(true);
      $('origin').value = link.source;
      $('destination').value = link.destination;
      if (link.source && link.destination) await directions.route();
      break;
    default:
      break;
  }
}

async function start() {
  let config = { bounds: [-180, -85, 180, 85], minZoom: 0, maxZoom: 14, styles: ['standard', 'dark', 'muted'], regions: [], requiresKey: false };
  try {
    config = { ...config, ...(await api('/webmap/config.json')) };
  } catch (err) {
    setStatus(`Could not read the server's configuration: ${err.message}`, true);
  }
  const style = preferredStyle(config.styles);
  const camera = readCamera();
  const options = { style, view: camera, bounds: config.bounds, maxBounds: config.maxBounds, padding: 20,
                    minZoom: config.minZoom, maxZoom: config.maxZoom };
  let map;
  if (webGLAvailable()) {
    try { map = new VectorMap('map', options); } catch (err) { console.warn('the vector map could not start:', err.message); map = null; }
  }
  if (!map) {
    $('no-webgl').hidden = false;
    document.body.classList.add('without-webgl');
    map = new StaticMap('map', options);
  }
  // The static map's pictures are API calls: they need the token when the server wants keys.
  configureKeys(config.requiresKey, () => { if (map instanceof StaticMap) map.draw(); });

  wireControls(map);
  buildStyleSwitcher(map, config.styles);
  const cards = new PlaceCards(map);
  const search = new Search(map, cards, { inset, onResults: (query, near) => writeMapsURL('search', { query, center: near }) });
  const directions = new Directions(map, cards, search, {
    inset,
    onChange: () => {
      if (directions.routes.length) writeMapsURL('directions', { source: directions.parameter('origin'), destination: directions.parameter('destination'), mode: modeOf(directions.transportType) });
    },
  });
  cards.onDirections = (which, place) => directions.choose(which, place);

  // Clicks: a route selects it, a point of interest opens its card, anywhere else drops a pin
  // with the address there.
  map.onClick(({ coordinate, route, feature }) => {
    if (route >= 0 && route !== directions.selected) { directions.select(route); return; }
    if (feature) { cards.openFeature(feature); writeMapsURL('place', { coordinate: coordinateText(feature.coordinate) }); return; }
    cards.dropPin(coordinate);
    writeMapsURL('place', { coordinate: coordinateText(coordinate) });
  });
  map.onMove(() => writeCamera(map.view));
  window.addEventListener('hashchange', () => {
    if (isOwnHash()) return;
    const next = readCamera();
    if (next) map.jumpTo(next);
  });
  window.addEventListener('resize', () => map.resize());
  $('map').addEventListener('keydown', (e) => { if (e.key === 'Escape') cards.close(); });

  // A read-only handle for tests and the curious: the view, tile counters, markers and routes.
  window.openMapKit = {
    get kind() { return map instanceof VectorMap ? 'vector' : 'static'; },
    get view() { return map.view; },
    get tiles() { return map.tiles; },
    get hasAccessToken() { return hasAccessToken(); },
    get idle() { return map.idle; },
    routeScreenPoints(i = directions.selected) {
      const r = directions.routes[i];
      return r ? r.coordinates.map((c) => map.project(c.latitude, c.longitude)) : [];
    },
    get routeCount() { return directions.routes.length; },
    get selectedRoute() { return directions.selected; },
    screenPoint(latitude, longitude) { return map.project(latitude, longitude); },
    markerScreenPoints() { return cards.screenPoints(); },
    renderedFeatures(layer) {
      return map instanceof VectorMap ? map.map.queryRenderedFeatures({ layers: [layer] }).length : 0;
    },
    get map() { return map instanceof VectorMap ? map.map : null; },
  };
  await follow(readMapsURL(), { map, cards, search, directions });
}

start();
