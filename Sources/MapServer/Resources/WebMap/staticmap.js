// The map without WebGL: pictures from the server's Maps Web Snapshots endpoint
// (/api/v1/snapshot), laid edge to edge over the window. It offers the same members as
// `VectorMap`, so search, place cards and directions work unchanged; routes are drawn into the
// pictures by the server (its `overlays`), markers stay the page's own elements. Dragging moves
// the pictures and new ones are asked for where the drag ends; zoom goes by whole levels.
import { $, clamp } from './format.js';
import { ROUTE_COLOR, ALTERNATIVE_COLOR } from './map.js';
import { withToken } from './keys.js';

// The server draws at most 640 points a side (Apple's limit); larger windows get several pictures.
// Each picture carries its attribution in its bottom-right corner: pictures are asked for larger
// than the cell they fill, and the next picture to the right and below covers that corner (the
// page's own footer names OpenStreetMap once).
const MAX_SIDE = 640;
const ATTRIBUTION = { width: 210, height: 24 };
const CELL = { width: MAX_SIDE - ATTRIBUTION.width, height: MAX_SIDE - ATTRIBUTION.height };
// A snapshot's `z` counts 256-point tiles, one more than MapLibre's 512-point zoom.
const SNAPSHOT_ZOOM_OFFSET = 1;
const MIN_ZOOM = 2, MAX_ZOOM = 19;
// Route points per picture: the URL stays short (the server takes 5,000).
const MAX_ROUTE_POINTS = 400;

const MAX_LAT = 85.0511287798;
const lonToX = (lon) => (lon + 180) / 360;
const latToY = (lat) => {
  const s = Math.sin(clamp(lat, -MAX_LAT, MAX_LAT) * Math.PI / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
};
const xToLon = (x) => x * 360 - 180;
const yToLat = (y) => Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180 / Math.PI;

export class StaticMap {
  constructor(container, { style, view, bounds, padding }) {
    this.container = typeof container === 'string' ? $(container) : container;
    this.container.classList.add('static-map');
    this.layer = document.createElement('div');
    this.layer.className = 'static-pictures';
    this.container.prepend(this.layer);
    this.markerLayer = document.createElement('div');
    this.markerLayer.className = 'static-markers';
    this.container.append(this.markerLayer);
    this.style = style;
    this.stats = { requested: 0, loaded: 0, failed: 0 };
    this.pending = 0;
    this.routes = [];
    this.selectedRoute = 0;
    this.markers = new Set();
    this.clickHandlers = [];
    this.moveHandlers = [];
    this.offset = { x: 0, y: 0 };
    this.center = { x: 0.5, y: 0.5 };
    this.zoom = 2;
    this.resize();
    if (view) {
      this.center = { x: lonToX(view.longitude), y: latToY(view.latitude) };
      this.zoom = clamp(Math.round(view.zoom), MIN_ZOOM, MAX_ZOOM);
    } else if (bounds) {
      this.fitBounds({ west: bounds[0], south: bounds[1], east: bounds[2], north: bounds[3] }, { padding, duration: 0 });
    }
    this.wireGestures();
    this.draw();
  }

  get view() { return { zoom: this.zoom, latitude: yToLat(this.center.y), longitude: xToLon(this.center.x), bearing: 0, pitch: 0 }; }
  get idle() { return this.pending === 0 && !this.dragging && !this.frame; }
  get tiles() { return { ...this.stats, style: this.style }; }
  get worldSize() { return 512 * Math.pow(2, this.zoom); }

  jumpTo(view) {
    if (view.latitude !== undefined) this.center = { x: lonToX(view.longitude), y: latToY(view.latitude) };
    if (view.zoom !== undefined) this.zoom = clamp(Math.round(view.zoom), MIN_ZOOM, MAX_ZOOM);
    this.draw();
  }
  easeTo(view) { this.jumpTo(view); }
  fitBounds(box, { padding = 60, maxZoom = 18 } = {}) {
    const x0 = lonToX(box.west), x1 = lonToX(box.east), y0 = latToY(box.north), y1 = latToY(box.south);
    const inset = typeof padding === 'number' ? { top: padding, bottom: padding, left: padding, right: padding } : padding;
    const w = Math.max(50, this.width - inset.left - inset.right), h = Math.max(50, this.height - inset.top - inset.bottom);
    const zoom = Math.floor(Math.log2(Math.min(w / (Math.max(x1 - x0, 1e-9) * 512), h / (Math.max(y1 - y0, 1e-9) * 512))));
    this.zoom = clamp(Math.min(zoom, maxZoom), MIN_ZOOM, MAX_ZOOM);
    const s = this.worldSize;
    // The box's centre in the middle of the part of the window the padding leaves.
    this.center = { x: (x0 + x1) / 2 - (inset.left - inset.right) / 2 / s, y: (y0 + y1) / 2 - (inset.top - inset.bottom) / 2 / s };
    this.draw();
  }
  zoomBy(delta) { this.jumpTo({ zoom: this.zoom + delta }); }
  resetNorth() {}
  togglePitch() {}
  resize() {
    const r = this.container.getBoundingClientRect();
    this.width = r.width; this.height = r.height;
  }
  project(latitude, longitude) {
    const s = this.worldSize;
    return { x: (lonToX(longitude) - this.center.x) * s + this.width / 2 + this.offset.x,
             y: (latToY(latitude) - this.center.y) * s + this.height / 2 + this.offset.y };
  }
  unproject(x, y) {
    const s = this.worldSize;
    return { latitude: yToLat(this.center.y + (y - this.offset.y - this.height / 2) / s),
             longitude: xToLon(this.center.x + (x - this.offset.x - this.width / 2) / s) };
  }
  visibleBounds() {
    const nw = this.unproject(0, 0), se = this.unproject(this.width, this.height);
    return { north: nw.latitude, west: nw.longitude, south: se.latitude, east: se.longitude };
  }
  onClick(f) { this.clickHandlers.push(f); }
  onMove(f) { this.moveHandlers.push(f); }
  setStyle(name) { if (name !== this.style) { this.style = name; this.draw(); } }
  setRoutes(routes, selected) { this.routes = routes; this.selectedRoute = selected; this.draw(); }
  routeAt() { return -1; }
  featureAt() { return null; }
  get canvas() { return this.layer; }

  addMarker(element, coordinate) {
    element.style.position = 'absolute';
    this.markerLayer.append(element);
    const handle = { element, coordinate, remove: () => { element.remove(); this.markers.delete(handle); } };
    this.markers.add(handle);
    this.placeMarkers();
    return handle;
  }
  placeMarkers() {
    for (const m of this.markers) {
      const p = this.project(m.coordinate.latitude, m.coordinate.longitude);
      m.element.style.transform = `translate(${p.x.toFixed(1)}px, ${p.y.toFixed(1)}px) translate(-50%, -100%)`;
    }
    for (const f of this.moveHandlers) f();
  }

  // ---- The pictures: a grid of cells, each its own snapshot, later ones over earlier ones' corners.
  // The view changes at once; the pictures are asked for once per frame, so changes made together
  // (a route set, then framed) cost one set of snapshots, not one per change.
  draw() {
    this.resize();
    this.offset = { x: 0, y: 0 };
    this.layer.style.transform = '';
    this.placeMarkers();
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.requestPictures(); });
  }

  requestPictures() {
    const columns = Math.ceil(this.width / CELL.width), rows = Math.ceil(this.height / CELL.height);
    const cellWidth = Math.ceil(this.width / columns), cellHeight = Math.ceil(this.height / rows);
    const scale = window.devicePixelRatio >= 1.5 ? 2 : 1;
    const s = this.worldSize;
    const overlays = this.overlayParameter();
    const pictures = [];
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        const left = column * cellWidth, top = row * cellHeight;
        const shown = { w: Math.min(cellWidth, Math.ceil(this.width) - left), h: Math.min(cellHeight, Math.ceil(this.height) - top) };
        if (shown.w < 1 || shown.h < 1) continue;
        const w = Math.max(50, shown.w + ATTRIBUTION.width), h = Math.max(50, shown.h + ATTRIBUTION.height);
        const cx = this.center.x + (left + w / 2 - this.width / 2) / s, cy = this.center.y + (top + h / 2 - this.height / 2) / s;
        const query = new URLSearchParams({
          center: `${yToLat(cy).toFixed(6)},${xToLon(cx).toFixed(6)}`, z: String(this.zoom + SNAPSHOT_ZOOM_OFFSET),
          size: `${w}x${h}`, scale: String(scale),
          colorScheme: this.style === 'dark' ? 'dark' : 'light', t: this.style === 'muted' ? 'mutedStandard' : 'standard',
        });
        if (overlays) query.set('overlays', overlays);
        const img = new Image();
        img.className = 'static-picture';
        img.alt = '';
        img.style.left = `${left}px`; img.style.top = `${top}px`;
        img.style.width = `${w}px`; img.style.height = `${h}px`;
        this.stats.requested++; this.pending++;
        img.onload = () => { this.stats.loaded++; this.pending--; };
        img.onerror = () => { this.stats.failed++; this.pending--; };
        img.src = withToken(`/api/v1/snapshot?${query}`);
        pictures.push(img);
      }
    }
    // The old pictures stay until the new ones are in, so the map never flashes empty.
    const old = [...this.layer.children];
    Promise.allSettled(pictures.map((img) => img.decode())).then(() => { for (const o of old) o.remove(); });
    this.layer.append(...pictures);
  }
  // Routes for the server to draw: alternatives first, the selected one last (on top).
  overlayParameter() {
    if (!this.routes.length) return '';
    const order = this.routes.map((_, i) => i).filter((i) => i !== this.selectedRoute).concat([this.selectedRoute]);
    const overlays = order.filter((i) => this.routes[i] && this.routes[i].length >= 2).map((i) => {
      const route = this.routes[i];
      const step = Math.max(1, Math.ceil(route.length / MAX_ROUTE_POINTS));
      const points = route.filter((_, k) => k % step === 0 || k === route.length - 1);
      const selected = i === this.selectedRoute;
      return { points: points.map((c) => `${c.latitude.toFixed(5)},${c.longitude.toFixed(5)}`),
               strokeColor: (selected ? ROUTE_COLOR : ALTERNATIVE_COLOR).slice(1), lineWidth: selected ? 6 : 5 };
    });
    return overlays.length ? JSON.stringify(overlays) : '';
  }

  // ---- Gestures: drag moves the pictures, release asks for the new view; wheel and double-click zoom.
  wireGestures() {
    const el = this.container;
    let start = null;
    el.addEventListener('pointerdown', (e) => {
      if (e.target.closest('.marker, .controls, #callout, .footer')) return;
      start = { x: e.clientX, y: e.clientY, moved: 0 };
      this.dragging = true;
      el.setPointerCapture(e.pointerId);
    });
    el.addEventListener('pointermove', (e) => {
      if (!start) return;
      this.offset = { x: e.clientX - start.x, y: e.clientY - start.y };
      start.moved = Math.max(start.moved, Math.hypot(this.offset.x, this.offset.y));
      this.layer.style.transform = `translate(${this.offset.x}px, ${this.offset.y}px)`;
      this.placeMarkers();
    });
    const end = (e) => {
      if (!start) return;
      const moved = start.moved;
      start = null;
      this.dragging = false;
      const r = el.getBoundingClientRect();
      const point = { x: e.clientX - r.left, y: e.clientY - r.top };
      if (moved < 5) {
        this.offset = { x: 0, y: 0 };
        this.layer.style.transform = '';
        const event = { point, coordinate: this.unproject(point.x, point.y), route: -1, feature: null };
        for (const f of this.clickHandlers) f(event);
        return;
      }
      const s = this.worldSize;
      this.center = { x: this.center.x - this.offset.x / s, y: this.center.y - this.offset.y / s };
      this.draw();
    };
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', end);
    let wheel = 0;
    el.addEventListener('wheel', (e) => {
      e.preventDefault();
      wheel += e.deltaY;
      if (Math.abs(wheel) < 100) return;
      const r = el.getBoundingClientRect();
      const anchor = this.unproject(e.clientX - r.left, e.clientY - r.top);
      const before = { x: lonToX(anchor.longitude), y: latToY(anchor.latitude) };
      const px = e.clientX - r.left - this.width / 2, py = e.clientY - r.top - this.height / 2;
      this.zoom = clamp(this.zoom + (wheel < 0 ? 1 : -1), MIN_ZOOM, MAX_ZOOM);
      wheel = 0;
      // The point under the pointer stays under it.
      this.center = { x: before.x - px / this.worldSize, y: before.y - py / this.worldSize };
      this.draw();
    }, { passive: false });
  }
}
