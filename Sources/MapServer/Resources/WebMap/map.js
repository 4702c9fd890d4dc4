// The vector map: MapLibre GL JS drawing the server's styles and vector tiles, with the page's
// markers, routes and feature hover on top. `staticmap.js` offers the same members without WebGL;
// the rest of the page talks only to these members, never to MapLibre.
//
// Zoom levels are MapLibre's (512-point tiles), as in the address's #zoom/lat/lon/bearing/pitch.
import { $, clamp } from './format.js';

export const ROUTE_COLOR = '#0a66d8';
export const ALTERNATIVE_COLOR = '#8fb3e3';
const MAX_PITCH = 70;
// Past this pitch the buildings are seen from the side: the "3D" button toggles it.
const TILTED_PITCH = 60;

export class VectorMap {
  /// Opens the map in `container` on `view` ({ zoom, latitude, longitude, bearing, pitch }) or,
  /// without one, on `bounds` ([west, south, east, north]); `style` names a served style.
  /// `maxBounds` ([west, south, east, north]) keeps the camera around the data.
  constructor(container, { style, view, bounds, maxBounds, padding, minZoom, maxZoom }) {
    this.style = style;
    this.stats = { requested: 0, loaded: 0, failed: 0 };
    this.routes = [];
    this.selectedRoute = 0;
    this.markers = new Set();
    this.clickHandlers = [];
    this.moveHandlers = [];
    this.busy = true;
    const options = {
      container,
      style: VectorMap.styleURL(style),
      minZoom: Math.max(0, (minZoom ?? 0) - 2),
      maxZoom: clamp((maxZoom ?? 14) + 6, 16, 22),
      maxPitch: MAX_PITCH,
      attributionControl: false, // the page's own footer names OpenStreetMap
      // Count what the map asks for; the page's tests and loading bar read it.
      transformRequest: (url, kind) => {
        if (kind === 'Tile') this.stats.requested++;
        return { url };
      },
      fadeDuration: 150,
    };
    if (maxBounds) options.maxBounds = [[maxBounds[0], maxBounds[1]], [maxBounds[2], maxBounds[3]]];
    if (view) Object.assign(options, { center: [view.longitude, view.latitude], zoom: view.zoom, bearing: view.bearing || 0, pitch: view.pitch || 0 });
    else if (bounds) Object.assign(options, { bounds: [[bounds[0], bounds[1]], [bounds[2], bounds[3]]], fitBoundsOptions: { padding } });
    this.map = new maplibregl.Map(options);
    const map = this.map;
    // A tile sends several 'data' events (loaded, re-laid out, shown overscaled): each counts once per style.
    const loaded = new Set();
    map.on('data', (e) => {
      if (e.dataType !== 'source' || !e.tile || e.tile.state !== 'loaded') return;
      const c = e.tile.tileID.canonical;
      const key = `${this.style}/${e.sourceId}/${c.z}/${c.x}/${c.y}`;
      if (!loaded.has(key)) { loaded.add(key); this.stats.loaded++; }
    });
    map.on('error', (e) => {
      if (e.tile) this.stats.failed++;
      else console.warn('map:', e.error && e.error.message);
    });
    map.on('movestart', () => { this.busy = true; });
    map.on('dataloading', () => { this.busy = true; });
    map.on('idle', () => { this.busy = false; });
    map.on('move', () => { for (const f of this.moveHandlers) f(); });
    map.on('style.load', () => this.addPageLayers());
    map.on('click', (e) => this.clicked(e));
    map.on('mousemove', (e) => this.hover(e));
    map.on('mouseout', () => this.hover(null));
  }

  /// The served style document: buildings as extrusions (MapKit's realistic elevation), so a
  /// pitched map shows them standing; seen from above they are their roofs.
  static styleURL(name) { return `/styles/${encodeURIComponent(name)}.json?elevation=realistic`; }

  get view() {
    const c = this.map.getCenter();
    return { zoom: this.map.getZoom(), latitude: c.lat, longitude: c.lng, bearing: this.map.getBearing(), pitch: this.map.getPitch() };
  }
  get idle() { return !this.busy && this.map.loaded() && !this.map.isMoving() && this.map.areTilesLoaded(); }
  get tiles() { return { ...this.stats, style: this.style }; }
  get canvas() { return this.map.getCanvas(); }

  jumpTo(view) { this.map.jumpTo(VectorMap.camera(view)); }
  easeTo(view, duration = 400) { this.map.easeTo({ ...VectorMap.camera(view), duration }); }
  static camera(view) {
    const camera = {};
    if (view.latitude !== undefined) camera.center = [view.longitude, view.latitude];
    for (const key of ['zoom', 'bearing', 'pitch', 'padding']) if (view[key] !== undefined) camera[key] = view[key];
    return camera;
  }
  fitBounds(box, { padding = 60, maxZoom = 18, duration = 500 } = {}) {
    this.map.fitBounds([[box.west, box.south], [box.east, box.north]], { padding, maxZoom, duration, bearing: this.map.getBearing(), pitch: this.map.getPitch() });
  }
  zoomBy(delta) { this.map.easeTo({ zoom: Math.round(this.map.getZoom()) + delta, duration: 250 }); }
  resetNorth() { this.map.easeTo({ bearing: 0, pitch: 0, duration: 300 }); }
  togglePitch() { this.map.easeTo({ pitch: this.map.getPitch() > 5 ? 0 : TILTED_PITCH, duration: 500 }); }
  resize() { this.map.resize(); }
  project(latitude, longitude) { const p = this.map.project([longitude, latitude]); return { x: p.x, y: p.y }; }
  unproject(x, y) { const c = this.map.unproject([x, y]); return { latitude: c.lat, longitude: c.lng }; }
  visibleBounds() {
    const b = this.map.getBounds();
    return { north: b.getNorth(), east: b.getEast(), south: b.getSouth(), west: b.getWest() };
  }
  onClick(f) { this.clickHandlers.push(f); }
  onMove(f) { this.moveHandlers.push(f); }

  setStyle(name) {
    if (name === this.style) return;
    this.style = name;
    // The page's own layers (routes, hover) are added again on 'style.load'.
    this.map.setStyle(VectorMap.styleURL(name));
  }

  // ---- Markers: the page's DOM elements, kept at their coordinate by MapLibre.
  addMarker(element, coordinate) {
    const marker = new maplibregl.Marker({ element, anchor: 'bottom' }).setLngLat([coordinate.longitude, coordinate.latitude]).addTo(this.map);
    const handle = { element, coordinate, remove: () => { marker.remove(); this.markers.delete(handle); } };
    this.markers.add(handle);
    return handle;
  }

  // ---- Routes: a GeoJSON source under the labels; alternatives under the selected one.
  setRoutes(routes, selected) {
    this.routes = routes;
    this.selectedRoute = selected;
    const source = this.map.getSource('openmapkit-routes');
    if (source) source.setData(this.routeData());
  }
  routeData() {
    return {
      type: 'FeatureCollection',
      features: this.routes.map((coordinates, index) => ({
        type: 'Feature',
        properties: { index, selected: index === this.selectedRoute, order: index === this.selectedRoute ? 1 : 0 },
        geometry: { type: 'LineString', coordinates: coordinates.map((c) => [c.longitude, c.latitude]) },
      })),
    };
  }
  addPageLayers() {
    const map = this.map;
    // Below the first label layer, so street names stay readable over a route.
    const labels = map.getStyle().layers.find((l) => l.type === 'symbol');
    const before = labels ? labels.id : undefined;
    map.addSource('openmapkit-routes', { type: 'geojson', data: this.routeData() });
    const selected = ['==', ['get', 'selected'], true];
    map.addLayer({ id: 'openmapkit-route-casing', type: 'line', source: 'openmapkit-routes',
      layout: { 'line-join': 'round', 'line-cap': 'round', 'line-sort-key': ['get', 'order'] },
      paint: { 'line-color': ['case', selected, '#ffffff', '#f7f9fc'], 'line-width': ['case', selected, 10, 8] } }, before);
    map.addLayer({ id: 'openmapkit-route', type: 'line', source: 'openmapkit-routes',
      layout: { 'line-join': 'round', 'line-cap': 'round', 'line-sort-key': ['get', 'order'] },
      paint: { 'line-color': ['case', selected, ROUTE_COLOR, ALTERNATIVE_COLOR], 'line-width': ['case', selected, 6, 5] } }, before);
    // The feature under the pointer: a ring around it.
    map.addSource('openmapkit-hover', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({ id: 'openmapkit-hover', type: 'circle', source: 'openmapkit-hover',
      paint: { 'circle-radius': 14, 'circle-color': 'rgba(10, 102, 216, 0.15)', 'circle-stroke-color': ROUTE_COLOR, 'circle-stroke-width': 2 } });
  }

  // ---- Features under the pointer: routes first, then points of interest.
  routeAt(point) {
    if (!this.map.getLayer('openmapkit-route')) return -1;
    const box = [[point.x - 8, point.y - 8], [point.x + 8, point.y + 8]];
    const hit = this.map.queryRenderedFeatures(box, { layers: ['openmapkit-route'] });
    return hit.length ? hit[0].properties.index : -1;
  }
  /// The point of interest drawn at `point` (a `poi` feature of the vector tiles with a name):
  /// { name, class, subclass, coordinate }, or null.
  featureAt(point) {
    const box = [[point.x - 8, point.y - 8], [point.x + 8, point.y + 8]];
    // Of the named points drawn there, the one nearest the pointer.
    let hit = null, nearest = Infinity;
    for (const f of this.map.queryRenderedFeatures(box)) {
      if (f.sourceLayer !== 'poi' || f.geometry.type !== 'Point' || !f.properties.name) continue;
      const p = this.map.project(f.geometry.coordinates);
      const d = Math.hypot(p.x - point.x, p.y - point.y);
      if (d < nearest) { nearest = d; hit = f; }
    }
    if (!hit) return null;
    const [longitude, latitude] = hit.geometry.coordinates;
    return { name: hit.properties.name, class: hit.properties.class, subclass: hit.properties.subclass, coordinate: { latitude, longitude } };
  }
  hover(e) {
    const source = this.map.getSource('openmapkit-hover');
    const feature = e ? this.featureAt(e.point) : null;
    const route = e && !feature ? this.routeAt(e.point) : -1;
    this.map.getCanvas().style.cursor = feature || route >= 0 ? 'pointer' : '';
    this.map.getCanvas().title = feature ? feature.name : '';
    this.hovered = feature;
    if (source) {
      source.setData({ type: 'FeatureCollection', features: feature ? [{ type: 'Feature', properties: {},
        geometry: { type: 'Point', coordinates: [feature.coordinate.longitude, feature.coordinate.latitude] } }] : [] });
    }
  }
  clicked(e) {
    const point = { x: e.point.x, y: e.point.y };
    const event = { point, coordinate: { latitude: e.lngLat.lat, longitude: e.lngLat.lng }, route: this.routeAt(point), feature: this.featureAt(point) };
    for (const f of this.clickHandlers) f(event);
  }
}

/// Whether this browser can draw the vector map: WebGL (2, or 1) must be there and working.
export function webGLAvailable() {
  if (new URLSearchParams(location.search).get('webgl') === '0') return false;
  try {
    const canvas = document.createElement('canvas');
    return Boolean(window.maplibregl && (canvas.getContext('webgl2') || canvas.getContext('webgl')));
  } catch (_) {
    return false;
  }
}

/// The page's map buttons (compass, zoom, 3D) and scale bar, for either map.
export function wireControls(map) {
  $('zoom-in').addEventListener('click', () => map.zoomBy(1));
  $('zoom-out').addEventListener('click', () => map.zoomBy(-1));
  $('compass').addEventListener('click', () => map.resetNorth());
  $('pitch').addEventListener('click', () => map.togglePitch());
  const update = () => {
    const v = map.view;
    const compass = $('compass');
    compass.querySelector('svg').style.transform = `rotateX(${v.pitch.toFixed(1)}deg) rotate(${-v.bearing}deg)`;
    const b = Math.round(v.bearing);
    compass.setAttribute('aria-label', b === 0 && v.pitch < 1 ? 'North is up' : `Reset to north (map rotated ${b}°)`);
    $('pitch').setAttribute('aria-pressed', String(v.pitch > 5));
    // Metres per CSS pixel at the centre (512-point tiles).
    const metersPerPixel = 40075016.686 * Math.cos(v.latitude * Math.PI / 180) / (512 * Math.pow(2, v.zoom));
    const maxMeters = metersPerPixel * 110;
    const pow = Math.pow(10, Math.floor(Math.log10(maxMeters)));
    const nice = [5, 2, 1].map((m) => m * pow).find((m) => m <= maxMeters) || pow;
    $('scale-bar').style.width = `${Math.round(nice / metersPerPixel)}px`;
    $('scale-label').textContent = nice >= 1000 ? `${nice / 1000} km` : `${nice} m`;
  };
  map.onMove(update);
  update();
}
