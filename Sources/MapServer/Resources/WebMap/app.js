// OpenMapKit's web map: the server's raster tiles on a canvas, with search, reverse geocoding and
// directions from its Apple Maps Server API. No libraries, so it works offline and loads fast.
'use strict';
(() => {
  const TILE = 256;
  const MAX_LAT = 85.0511287798;
  const MIN_ZOOM = 1, MAX_ZOOM = 20;
  // The server renders any zoom from the bundle's tiles; past this the tiles only get blurrier.
  const MAX_TILE_ZOOM = 19;
  const MAX_INFLIGHT = 8;
  const TILE_CACHE = 400;
  const ROUTE_COLOR = '#0a66d8';
  const ALTERNATIVE_COLOR = '#8fb3e3';
  // Until the server says (config.backgrounds), close to the styles' land colours.
  let BACKGROUNDS = { standard: '#f6f3ec', dark: '#23252a', muted: '#f3f3f1' };

  const $ = (id) => document.getElementById(id);
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  const rad = (d) => d * Math.PI / 180;

  // ---- Web Mercator in normalised units: x, y in [0, 1], y down.
  const lonToX = (lon) => (lon + 180) / 360;
  const latToY = (lat) => {
    const s = Math.sin(rad(clamp(lat, -MAX_LAT, MAX_LAT)));
    return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
  };
  const xToLon = (x) => x * 360 - 180;
  const yToLat = (y) => Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180 / Math.PI;
  const project = (c) => ({ x: lonToX(c.longitude), y: latToY(c.latitude) });

  // ---- The view.
  const mapEl = $('map');
  const canvas = $('canvas');
  const ctx = canvas.getContext('2d');
  const view = { x: 0.5, y: 0.5, zoom: 2, bearing: 0 };
  let width = 0, height = 0, dpr = 1;
  let config = { bounds: [-180, -85, 180, 85], minZoom: 0, maxZoom: 14, styles: ['standard', 'dark', 'muted'], regions: [] };
  let style = 'standard';
  try { style = localStorage.getItem('openmapkit.style') || 'standard'; } catch (_) { /* storage may be off */ }

  const worldSize = () => TILE * Math.pow(2, view.zoom);

  function normToScreen(x, y) {
    const s = worldSize();
    const dx = (x - view.x) * s, dy = (y - view.y) * s;
    const a = -rad(view.bearing), c = Math.cos(a), n = Math.sin(a);
    return { x: dx * c - dy * n + width / 2, y: dx * n + dy * c + height / 2 };
  }
  function screenToNorm(px, py) {
    const vx = px - width / 2, vy = py - height / 2;
    const b = rad(view.bearing), c = Math.cos(b), n = Math.sin(b);
    const s = worldSize();
    return { x: view.x + (vx * c - vy * n) / s, y: view.y + (vx * n + vy * c) / s };
  }
  const coordinateAt = (px, py) => {
    const p = screenToNorm(px, py);
    return { latitude: yToLat(p.y), longitude: xToLon(p.x) };
  };
  // Puts the normalised point `anchor` under the screen point (px, py) at the current zoom and bearing.
  function pin(anchor, px, py) {
    const vx = px - width / 2, vy = py - height / 2;
    const b = rad(view.bearing), c = Math.cos(b), n = Math.sin(b);
    const s = worldSize();
    view.x = anchor.x - (vx * c - vy * n) / s;
    view.y = anchor.y - (vx * n + vy * c) / s;
  }
  function constrain() {
    view.zoom = clamp(view.zoom, MIN_ZOOM, MAX_ZOOM);
    view.bearing = ((view.bearing % 360) + 540) % 360 - 180;
    view.x = clamp(view.x, 0, 1);
    view.y = clamp(view.y, 0, 1);
  }
  function panBy(dx, dy) {
    const b = rad(view.bearing), c = Math.cos(b), n = Math.sin(b);
    const s = worldSize();
    view.x -= (dx * c - dy * n) / s;
    view.y -= (dx * n + dy * c) / s;
    changed();
  }
  function zoomAround(px, py, zoom) {
    const anchor = screenToNorm(px, py);
    view.zoom = clamp(zoom, MIN_ZOOM, MAX_ZOOM);
    pin(anchor, px, py);
    changed();
  }
  function rotateTo(bearing) {
    view.bearing = bearing;
    changed();
  }

  // ---- Animation: one at a time; any gesture cancels it.
  let animation = null;
  function stopAnimation() { if (animation) { cancelAnimationFrame(animation.frame); animation = null; } }
  function easeTo(target, duration = 350) {
    stopAnimation();
    const from = { ...view };
    const to = { ...from, ...target };
    let db = ((to.bearing - from.bearing) % 360 + 540) % 360 - 180;
    const start = performance.now();
    const step = (now) => {
      const t = Math.min(1, (now - start) / duration);
      const e = 1 - Math.pow(1 - t, 3);
      view.zoom = from.zoom + (to.zoom - from.zoom) * e;
      view.bearing = from.bearing + db * e;
      // Interpolating the centre linearly while zoom changes looks like a slide, which reads well
      // over the short distances of a city map.
      view.x = from.x + (to.x - from.x) * e;
      view.y = from.y + (to.y - from.y) * e;
      changed();
      if (t < 1) animation.frame = requestAnimationFrame(step); else animation = null;
    };
    animation = { frame: requestAnimationFrame(step), to: { ...to, bearing: from.bearing + db } };
  }
  // Where the view is heading: key presses during an animation add to its target, not to a midpoint.
  const target = () => (animation && animation.to) || view;
  function inertia(vx, vy) {
    stopAnimation();
    let last = performance.now();
    const step = (now) => {
      const dt = Math.min(50, now - last); last = now;
      panBy(vx * dt, vy * dt);
      const decay = Math.pow(0.994, dt);
      vx *= decay; vy *= decay;
      if (Math.hypot(vx, vy) > 0.02) animation.frame = requestAnimationFrame(step); else animation = null;
    };
    animation = { frame: requestAnimationFrame(step) };
  }
  // The view that shows a region (degrees) with a margin, keeping the bearing.
  function fitView(south, west, north, east, padding = 60) {
    const x0 = lonToX(west), x1 = lonToX(east), y0 = latToY(north), y1 = latToY(south);
    const panel = panelInset();
    const w = Math.max(50, width - 2 * padding - panel.left), h = Math.max(50, height - 2 * padding - panel.top);
    const spanX = Math.max(x1 - x0, 1e-9), spanY = Math.max(y1 - y0, 1e-9);
    const zoom = clamp(Math.log2(Math.min(w / (spanX * TILE), h / (spanY * TILE))), MIN_ZOOM, 18);
    const s = TILE * Math.pow(2, zoom);
    // Shift the centre so the region sits in the part of the map the panel does not cover.
    return { x: (x0 + x1) / 2 - panel.left / 2 / s, y: (y0 + y1) / 2 - panel.top / 2 / s, zoom };
  }
  function panelInset() {
    const panel = $('panel').getBoundingClientRect();
    if (width > 640) return { left: Math.min(panel.right, width / 2), top: 0 };
    return { left: 0, top: Math.min(panel.bottom, height / 2) };
  }

  // ---- Tiles.
  const tiles = new Map(); // key → { img, state: 'loading' | 'loaded' | 'failed', used }
  const stats = { requested: 0, loaded: 0, failed: 0, inflight: 0 };
  let frameCounter = 0;
  const tileKey = (z, x, y) => `${style}/${z}/${x}/${y}${dpr >= 1.5 ? '@2x' : ''}`;
  const tileURL = (z, x, y) => `/styles/${encodeURIComponent(style)}/${z}/${x}/${y}${dpr >= 1.5 ? '@2x' : ''}.png`
    + (auth.token ? `?key=${encodeURIComponent(auth.token)}` : '');

  function requestTile(z, x, y) {
    const key = tileKey(z, x, y);
    const entry = { img: new Image(), state: 'loading', used: frameCounter };
    tiles.set(key, entry);
    stats.requested++; stats.inflight++;
    entry.img.decoding = 'async';
    entry.img.onload = () => { entry.state = 'loaded'; stats.loaded++; stats.inflight--; requestRender(); };
    // (A failed tile stays failed until the style changes or it leaves the cache: no retry storm.)
    entry.img.onerror = () => { entry.state = 'failed'; stats.failed++; stats.inflight--; requestRender(); };
    entry.img.src = tileURL(z, x, y);
  }
  function loadedTile(z, x, y) {
    const entry = tiles.get(tileKey(z, x, y));
    if (entry && entry.state === 'loaded') { entry.used = frameCounter; return entry.img; }
    return null;
  }
  function evictTiles() {
    if (tiles.size <= TILE_CACHE) return;
    const old = [...tiles.entries()].filter(([, t]) => t.state !== 'loading').sort((a, b) => a[1].used - b[1].used);
    for (const [key] of old.slice(0, tiles.size - TILE_CACHE)) tiles.delete(key);
  }
  // Tiles away from the regions' data would render as empty background: not worth a request.
  // One tile of margin keeps the edge of the data (a coast, a border) drawn the way the tiles draw it.
  function tileHasData(z, x, y) {
    const n = Math.pow(2, z);
    const [w, s, e, north] = config.bounds;
    return x >= Math.floor(lonToX(w) * n) - 1 && x <= Math.floor(lonToX(e) * n) + 1 &&
      y >= Math.floor(latToY(north) * n) - 1 && y <= Math.floor(latToY(s) * n) + 1;
  }

  function drawTiles() {
    const tz = clamp(Math.round(view.zoom), 0, MAX_TILE_ZOOM);
    const n = Math.pow(2, tz);
    const corners = [[0, 0], [width, 0], [0, height], [width, height]].map(([a, b]) => screenToNorm(a, b));
    const minX = clamp(Math.floor(Math.min(...corners.map((c) => c.x)) * n), 0, n - 1);
    const maxX = clamp(Math.floor(Math.max(...corners.map((c) => c.x)) * n), 0, n - 1);
    const minY = clamp(Math.floor(Math.min(...corners.map((c) => c.y)) * n), 0, n - 1);
    const maxY = clamp(Math.floor(Math.max(...corners.map((c) => c.y)) * n), 0, n - 1);
    const scale = Math.pow(2, view.zoom - tz);
    const size = TILE * scale;
    const originX = -view.x * n * size, originY = -view.y * n * size;
    ctx.save();
    ctx.translate(width / 2, height / 2);
    ctx.rotate(-rad(view.bearing));
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    const wanted = [];
    const pad = view.bearing !== 0 ? 0.75 : 0.25; // cover seams between tiles drawn at fractional sizes
    for (let ty = minY; ty <= maxY; ty++) {
      for (let tx = minX; tx <= maxX; tx++) {
        if (!tileHasData(tz, tx, ty)) continue;
        const left = originX + tx * size, top = originY + ty * size;
        const img = loadedTile(tz, tx, ty);
        if (img) { ctx.drawImage(img, left - pad, top - pad, size + 2 * pad, size + 2 * pad); continue; }
        const entry = tiles.get(tileKey(tz, tx, ty));
        if (!entry) wanted.push({ tx, ty, d: Math.hypot(tx + 0.5 - view.x * n, ty + 0.5 - view.y * n) });
        else entry.used = frameCounter;
        drawFallback(tz, tx, ty, left, top, size, pad);
      }
    }
    ctx.restore();
    // Views an animation passes through are gone before their tiles would arrive: request only
    // where it ends (its last frame renders with no animation running).
    if (animation) wanted.length = 0;
    // Nearest first; the browser would otherwise fetch in reading order and the centre comes last.
    wanted.sort((a, b) => a.d - b.d);
    // A server with keys renders tiles only for a token: none are asked for until the page has one.
    if (config.requiresKey && !auth.token) wanted.length = 0;
    for (const t of wanted) {
      if (stats.inflight >= MAX_INFLIGHT) { pendingTiles = true; break; }
      requestTile(tz, t.tx, t.ty);
    }
    evictTiles();
  }
  let pendingTiles = false;
  // While a tile loads, scale up a loaded ancestor or draw the loaded children in its place.
  function drawFallback(z, x, y, left, top, size, pad) {
    for (let up = 1; up <= 5 && z - up >= 0; up++) {
      const f = Math.pow(2, up);
      const px = Math.floor(x / f), py = Math.floor(y / f);
      const img = loadedTile(z - up, px, py);
      if (!img) continue;
      const sub = img.naturalWidth / f;
      const sx = (x - px * f) * sub, sy = (y - py * f) * sub;
      ctx.drawImage(img, sx, sy, sub, sub, left - pad, top - pad, size + 2 * pad, size + 2 * pad);
      return;
    }
    if (z + 1 <= MAX_TILE_ZOOM) {
      const half = size / 2;
      for (let i = 0; i < 4; i++) {
        const cx = x * 2 + (i & 1), cy = y * 2 + (i >> 1);
        const img = loadedTile(z + 1, cx, cy);
        if (img) ctx.drawImage(img, left + (i & 1) * half - pad, top + (i >> 1) * half - pad, half + 2 * pad, half + 2 * pad);
      }
    }
  }

  // ---- Routes on the canvas: alternatives under the selected one, each with a casing.
  let routes = []; // { points: [{x, y}], ... }
  let selectedRoute = 0;
  function drawRoutes() {
    if (!routes.length) return;
    const order = routes.map((_, i) => i).filter((i) => i !== selectedRoute).concat([selectedRoute]);
    ctx.lineJoin = 'round'; ctx.lineCap = 'round';
    for (const i of order) {
      const pts = routes[i].points.map((p) => normToScreen(p.x, p.y));
      if (pts.length < 2) continue;
      const selected = i === selectedRoute;
      for (const [color, w] of [[selected ? '#ffffff' : '#f7f9fc', selected ? 10 : 8], [selected ? ROUTE_COLOR : ALTERNATIVE_COLOR, selected ? 6 : 5]]) {
        ctx.beginPath();
        ctx.moveTo(pts[0].x, pts[0].y);
        for (const p of pts.slice(1)) ctx.lineTo(p.x, p.y);
        ctx.strokeStyle = color; ctx.lineWidth = w;
        ctx.stroke();
      }
    }
  }
  function distanceToSegment(p, a, b) {
    const dx = b.x - a.x, dy = b.y - a.y;
    const l = dx * dx + dy * dy;
    const t = l ? clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / l, 0, 1) : 0;
    return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
  }
  function routeAt(px, py) {
    let best = -1, bestD = 12;
    routes.forEach((r, i) => {
      const pts = r.points.map((p) => normToScreen(p.x, p.y));
      for (let k = 1; k < pts.length; k++) {
        const d = distanceToSegment({ x: px, y: py }, pts[k - 1], pts[k]);
        if (d < bestD) { bestD = d; best = i; }
      }
    });
    return best;
  }

  // ---- Rendering.
  let renderQueued = false;
  function requestRender() {
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(render);
  }
  function resize() {
    const rect = mapEl.getBoundingClientRect();
    dpr = window.devicePixelRatio || 1;
    width = rect.width; height = rect.height;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    requestRender();
  }
  function render() {
    renderQueued = false;
    frameCounter++;
    pendingTiles = false;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = BACKGROUNDS[style] || BACKGROUNDS.standard;
    ctx.fillRect(0, 0, width, height);
    drawTiles();
    drawRoutes();
    placeMarkers();
    updateScale();
    updateCompass();
    $('loading').hidden = stats.inflight === 0;
    // Tiles that could not be requested yet (too many in flight) get their turn on a later frame.
    if (pendingTiles) setTimeout(requestRender, 50);
  }
  function changed() {
    constrain();
    if (config.requiresKey) accessToken().catch(showKeyForm);
    requestRender();
    scheduleHash();
  }

  // ---- Scale bar and compass.
  function updateScale() {
    const lat = yToLat(view.y);
    const metersPerPixel = 40075016.686 * Math.cos(rad(lat)) / worldSize();
    const maxMeters = metersPerPixel * 110;
    const pow = Math.pow(10, Math.floor(Math.log10(maxMeters)));
    const nice = [5, 2, 1].map((m) => m * pow).find((m) => m <= maxMeters) || pow;
    $('scale-bar').style.width = `${Math.round(nice / metersPerPixel)}px`;
    $('scale-label').textContent = nice >= 1000 ? `${nice / 1000} km` : `${nice} m`;
  }
  function updateCompass() {
    const compass = $('compass');
    compass.querySelector('svg').style.transform = `rotate(${-view.bearing}deg)`;
    const b = Math.round(view.bearing);
    compass.setAttribute('aria-label', b === 0 ? 'North is up' : `Reset to north (map rotated ${b}°)`);
  }

  // ---- URL hash: #zoom/lat/lon/bearing.
  let hashTimer = 0;
  let writingHash = '';
  function scheduleHash() {
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => {
      writingHash = `#${view.zoom.toFixed(2)}/${yToLat(view.y).toFixed(5)}/${xToLon(view.x).toFixed(5)}/${view.bearing.toFixed(1)}`;
      if (location.hash !== writingHash) history.replaceState(null, '', writingHash);
    }, 250);
  }
  function readHash() {
    const parts = location.hash.replace(/^#/, '').split('/').map(Number);
    if (parts.length < 3 || parts.slice(0, 3).some((v) => !Number.isFinite(v))) return false;
    view.zoom = parts[0];
    view.y = latToY(parts[1]);
    view.x = lonToX(parts[2]);
    view.bearing = Number.isFinite(parts[3]) ? parts[3] : 0;
    constrain();
    return true;
  }
  window.addEventListener('hashchange', () => {
    if (location.hash === writingHash) return;
    stopAnimation();
    if (readHash()) requestRender();
  });

  // ---- Gestures: pointers (mouse, touch, pen), wheel, keyboard.
  const pointers = new Map();
  let gesture = null;
  const CLICK_SLOP = 5;
  function localPoint(e) {
    const r = mapEl.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }
  mapEl.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('pointerdown', (e) => {
    stopAnimation();
    mapEl.focus({ preventScroll: true });
    canvas.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, localPoint(e));
    if (pointers.size === 1) {
      const p = localPoint(e);
      const rotate = e.button === 2 || e.shiftKey || e.ctrlKey;
      gesture = { kind: rotate ? 'rotate' : 'pan', start: p, last: p, moved: 0, t0: performance.now(), samples: [{ ...p, t: performance.now() }], bearing: view.bearing };
    } else if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      gesture = { kind: 'pinch', anchor: screenToNorm(mid.x, mid.y), dist: Math.hypot(b.x - a.x, b.y - a.y) || 1,
        angle: Math.atan2(b.y - a.y, b.x - a.x), zoom: view.zoom, bearing: view.bearing, moved: 99 };
    }
    mapEl.classList.add('dragging');
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!pointers.has(e.pointerId) || !gesture) return;
    const p = localPoint(e);
    pointers.set(e.pointerId, p);
    if (gesture.kind === 'pinch' && pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      const dist = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const angle = Math.atan2(b.y - a.y, b.x - a.x);
      view.zoom = clamp(gesture.zoom + Math.log2(dist / gesture.dist), MIN_ZOOM, MAX_ZOOM);
      view.bearing = gesture.bearing - (angle - gesture.angle) * 180 / Math.PI;
      pin(gesture.anchor, mid.x, mid.y);
      changed();
      return;
    }
    const dx = p.x - gesture.last.x, dy = p.y - gesture.last.y;
    gesture.moved = Math.max(gesture.moved, Math.hypot(p.x - gesture.start.x, p.y - gesture.start.y));
    gesture.last = p;
    if (gesture.kind === 'rotate') {
      rotateTo(view.bearing - dx * 0.4);
    } else {
      panBy(dx, dy);
      gesture.samples.push({ ...p, t: performance.now() });
      if (gesture.samples.length > 8) gesture.samples.shift();
    }
  });
  function endPointer(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    if (pointers.size > 0) {
      // Lifting one finger of a pinch continues as a pan with the other.
      const p = [...pointers.values()][0];
      gesture = { kind: 'pan', start: p, last: p, moved: 99, t0: performance.now(), samples: [{ ...p, t: performance.now() }] };
      return;
    }
    mapEl.classList.remove('dragging');
    const g = gesture;
    gesture = null;
    if (!g || e.type === 'pointercancel') return;
    if (g.kind === 'pan' && g.moved < CLICK_SLOP && performance.now() - g.t0 < 600) {
      clickAt(g.start.x, g.start.y);
      return;
    }
    if (g.kind === 'pan') {
      const now = performance.now();
      const recent = g.samples.filter((s) => now - s.t < 120);
      if (recent.length >= 2) {
        const a = recent[0], b = recent[recent.length - 1];
        const dt = Math.max(1, b.t - a.t);
        inertia((b.x - a.x) / dt, (b.y - a.y) / dt);
      }
    }
  }
  canvas.addEventListener('pointerup', endPointer);
  canvas.addEventListener('pointercancel', endPointer);
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    stopAnimation();
    const unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1;
    // A trackpad pinch arrives as a wheel event with ctrlKey and small deltas.
    const rate = e.ctrlKey ? 0.01 : 0.0045;
    const dz = clamp(-e.deltaY * unit * rate, -1, 1);
    const p = localPoint(e);
    zoomAround(p.x, p.y, view.zoom + dz);
  }, { passive: false });
  canvas.addEventListener('dblclick', (e) => {
    const p = localPoint(e);
    const anchor = screenToNorm(p.x, p.y);
    const zoom = clamp(view.zoom + (e.shiftKey ? -1 : 1), MIN_ZOOM, MAX_ZOOM);
    const s = TILE * Math.pow(2, zoom);
    const b = rad(view.bearing), c = Math.cos(b), n = Math.sin(b);
    const vx = p.x - width / 2, vy = p.y - height / 2;
    easeTo({ zoom, x: anchor.x - (vx * c - vy * n) / s, y: anchor.y - (vx * n + vy * c) / s }, 250);
  });
  mapEl.addEventListener('keydown', (e) => {
    if (e.target !== mapEl) return;
    const step = 100;
    let handled = true;
    switch (e.key) {
      case 'ArrowLeft': if (e.shiftKey) easeTo({ bearing: target().bearing - 15 }, 150); else easePan(step, 0); break;
      case 'ArrowRight': if (e.shiftKey) easeTo({ bearing: target().bearing + 15 }, 150); else easePan(-step, 0); break;
      case 'ArrowUp': if (e.shiftKey) easeTo({ bearing: 0 }, 250); else easePan(0, step); break;
      case 'ArrowDown': if (e.shiftKey) easeTo({ bearing: target().bearing + 180 }, 300); else easePan(0, -step); break;
      case '+': case '=': easeTo({ zoom: clamp(target().zoom + 1, MIN_ZOOM, MAX_ZOOM) }, 200); break;
      case '-': case '_': easeTo({ zoom: clamp(target().zoom - 1, MIN_ZOOM, MAX_ZOOM) }, 200); break;
      case 'n': case 'N': easeTo({ bearing: 0 }, 250); break;
      case 'Escape': closeCallout(); break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  });
  function easePan(dx, dy) {
    const t = target();
    const b = rad(t.bearing), c = Math.cos(b), n = Math.sin(b);
    const s = TILE * Math.pow(2, t.zoom);
    easeTo({ x: t.x - (dx * c - dy * n) / s, y: t.y - (dx * n + dy * c) / s }, 150);
  }
  $('zoom-in').addEventListener('click', () => easeTo({ zoom: clamp(Math.round(target().zoom) + 1, MIN_ZOOM, MAX_ZOOM) }, 250));
  $('zoom-out').addEventListener('click', () => easeTo({ zoom: clamp(Math.round(target().zoom) - 1, MIN_ZOOM, MAX_ZOOM) }, 250));
  $('compass').addEventListener('click', () => easeTo({ bearing: 0 }, 300));

  // ---- Style switcher.
  function buildStyles() {
    const group = $('styles');
    group.textContent = '';
    if (!config.styles.includes(style)) style = config.styles[0] || 'standard';
    for (const name of config.styles) {
      const b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('role', 'radio');
      b.dataset.style = name;
      b.textContent = name[0].toUpperCase() + name.slice(1);
      b.setAttribute('aria-checked', String(name === style));
      b.addEventListener('click', () => setStyle(name));
      group.appendChild(b);
    }
  }
  function setStyle(name) {
    style = name;
    try { localStorage.setItem('openmapkit.style', name); } catch (_) { /* ignore */ }
    for (const b of $('styles').children) b.setAttribute('aria-checked', String(b.dataset.style === name));
    document.body.dataset.mapStyle = name;
    requestRender();
  }

  // An answer's JSON body (null when it has none), and what went wrong in Apple's error shape
  // ({"error":{"message":…}}) or, failing that, the status line.
  async function readAnswer(response) {
    let body = null;
    try { body = await response.json(); } catch (_) { body = null; }
    const message = (body && body.error && body.error.message) || `${response.status} ${response.statusText}`;
    return { body, message };
  }

  // ---- API keys. A server run with keys wants one for its API and its raster tiles. The page
  // trades the key for a short-lived access token at /v1/token, as Apple's Maps Server API
  // clients do, and sends the token (never the key) with each call and tile. The key comes from
  // ?key= in the page's address (removed from the address bar at once) or from the key form, and
  // is kept for this tab's session only.
  const auth = { key: null, token: null, expires: 0, pending: null, refresh: 0 };
  try { auth.key = sessionStorage.getItem('openmapkit.key'); } catch (_) { /* storage may be off */ }
  {
    const query = new URLSearchParams(location.search);
    if (query.has('key')) {
      rememberKey(query.get('key'));
      query.delete('key');
      const rest = query.toString();
      history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
    }
  }
  function rememberKey(key) {
    auth.key = key || null;
    auth.token = null;
    try {
      if (auth.key) sessionStorage.setItem('openmapkit.key', auth.key); else sessionStorage.removeItem('openmapkit.key');
    } catch (_) { /* storage may be off */ }
  }
  // No key, or (`rejected`) one the server refused, with its reason.
  class KeyNeeded extends Error {
    constructor(message, rejected = false) { super(message); this.rejected = rejected; }
  }
  // The current access token (null when the server needs no key), fetched when missing, about to
  // expire or `renew`ed; concurrent callers share one exchange.
  function accessToken(renew = false) {
    if (!config.requiresKey) return Promise.resolve(null);
    if (!auth.key) return Promise.reject(new KeyNeeded('Enter an API key to use this map.'));
    if (!renew && auth.token && Date.now() < auth.expires - 60000) return Promise.resolve(auth.token);
    if (auth.pending) return auth.pending;
    auth.pending = (async () => {
      try {
        const response = await fetch('/v1/token', { headers: { Accept: 'application/json', Authorization: `Bearer ${auth.key}` } });
        const { body, message } = await readAnswer(response);
        if (response.status === 401) { rememberKey(null); throw new KeyNeeded(message, true); }
        if (!response.ok || !body || typeof body.accessToken !== 'string') throw new Error(message);
        auth.token = body.accessToken;
        auth.expires = Date.now() + Math.max(120, Number(body.expiresInSeconds) || 1800) * 1000;
        // Renewed ahead of expiry, so tiles never fail on an expired token.
        clearTimeout(auth.refresh);
        auth.refresh = setTimeout(() => accessToken(true).catch(showKeyForm), auth.expires - Date.now() - 90000);
        hideKeyForm();
        requestRender();
        return auth.token;
      } finally {
        auth.pending = null;
      }
    })();
    return auth.pending;
  }
  function showKeyForm(error) {
    if (!(error instanceof KeyNeeded)) { setStatus(`Could not get an access token: ${error.message}`, true); return; }
    $('key-form').hidden = false;
    $('key-message').textContent = error.rejected ? error.message : '';
    $('api-key').focus();
  }
  function hideKeyForm() {
    $('key-form').hidden = true;
    $('key-message').textContent = '';
    $('api-key').value = '';
  }
  $('key-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const key = $('api-key').value.trim();
    if (!key) return;
    rememberKey(key);
    accessToken(true).catch(showKeyForm);
  });

  // ---- The server's API.
  async function api(path, params = {}, retried = false) {
    const url = new URL(path, location.origin);
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, v);
    const headers = { Accept: 'application/json' };
    let token = null;
    if (url.pathname.startsWith('/v1/')) {
      try { token = await accessToken(); } catch (err) { showKeyForm(err); throw err; }
      if (token) headers.Authorization = `Bearer ${token}`;
    }
    const response = await fetch(url, { headers });
    // A token the server no longer takes (it restarted, or the key changed): one fresh exchange.
    if (response.status === 401 && token && !retried) {
      auth.token = null;
      return api(path, params, true);
    }
    const { body, message } = await readAnswer(response);
    if (!response.ok) {
      const error = new Error(message);
      error.status = response.status;
      throw error;
    }
    return body;
  }
  const here = () => `${yToLat(view.y).toFixed(6)},${xToLon(view.x).toFixed(6)}`;
  function visibleRegion() {
    const pts = [[0, 0], [width, 0], [0, height], [width, height]].map(([a, b]) => coordinateAt(a, b));
    const lats = pts.map((p) => p.latitude), lons = pts.map((p) => p.longitude);
    return `${Math.max(...lats).toFixed(6)},${Math.max(...lons).toFixed(6)},${Math.min(...lats).toFixed(6)},${Math.min(...lons).toFixed(6)}`;
  }
  function setStatus(text, isError = false) {
    const s = $('status');
    s.textContent = text || '';
    s.classList.toggle('error', Boolean(isError));
  }
  const formatDistance = (m) => m >= 1000 ? `${(m / 1000).toFixed(m >= 10000 ? 0 : 1)} km` : `${Math.round(m / 10) * 10} m`;
  function formatDuration(s) {
    const minutes = Math.max(1, Math.round(s / 60));
    if (minutes < 60) return `${minutes} min`;
    return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  }
  const placeName = (p) => p.name || (p.formattedAddressLines && p.formattedAddressLines[0]) || 'Dropped pin';
  function placeDetail(p) {
    const lines = (p.formattedAddressLines || []).filter((l) => l !== p.name);
    if (p.poiCategory) lines.unshift(p.poiCategory.replace(/([a-z])([A-Z])/g, '$1 $2'));
    return lines.join(' · ');
  }

  // ---- Markers and the callout.
  let markers = []; // { place, kind, el }
  let calloutMarker = null;
  const PIN_SVG = '<svg viewBox="0 0 30 40" aria-hidden="true"><path class="pin" d="M15 1.5C7.5 1.5 1.5 7.3 1.5 14.6 1.5 24.5 15 38.5 15 38.5S28.5 24.5 28.5 14.6C28.5 7.3 22.5 1.5 15 1.5z"/><circle class="hole" cx="15" cy="14.5" r="5"/></svg>';
  function addMarker(place, kind) {
    const el = document.createElement('button');
    el.type = 'button';
    el.className = `marker ${kind}`;
    el.innerHTML = PIN_SVG;
    el.setAttribute('aria-label', `${placeName(place)}${kind === 'origin' ? ' (start)' : kind === 'destination' ? ' (destination)' : ''}`);
    const marker = { place, kind, el, p: project(place.coordinate) };
    el.addEventListener('click', (e) => { e.stopPropagation(); openCallout(marker); });
    el.addEventListener('pointerdown', (e) => e.stopPropagation());
    $('markers').appendChild(el);
    markers.push(marker);
    requestRender();
    return marker;
  }
  function removeMarkers(kinds) {
    markers = markers.filter((m) => {
      if (!kinds.includes(m.kind)) return true;
      if (calloutMarker === m) closeCallout();
      m.el.remove();
      return false;
    });
  }
  function placeMarkers() {
    for (const m of markers) {
      const s = normToScreen(m.p.x, m.p.y);
      const off = s.x < -50 || s.y < -50 || s.x > width + 50 || s.y > height + 80;
      m.el.hidden = off;
      if (!off) m.el.style.transform = `translate(${s.x.toFixed(1)}px, ${s.y.toFixed(1)}px)`;
    }
    if (calloutMarker) {
      const s = normToScreen(calloutMarker.p.x, calloutMarker.p.y);
      const c = $('callout');
      c.style.transform = `translate(${(s.x - c.offsetWidth / 2).toFixed(1)}px, ${(s.y - 48 - c.offsetHeight).toFixed(1)}px)`;
    }
  }
  function openCallout(marker) {
    calloutMarker = marker;
    for (const m of markers) m.el.classList.toggle('selected', m === marker);
    $('callout-title').textContent = placeName(marker.place);
    const c = marker.place.coordinate;
    $('callout-detail').textContent = placeDetail(marker.place) || `${c.latitude.toFixed(5)}, ${c.longitude.toFixed(5)}`;
    // The place's Look Around picture (rendered from OpenStreetMap by /api/v1/lookaround), asked
    // for only where the server has a scene (at sea or far from streets there is none).
    const look = $('callout-lookaround');
    look.hidden = true;
    look.removeAttribute('src');
    showLookAround(marker, look).catch(() => { look.hidden = true; });
    $('callout').hidden = false;
    placeMarkers();
  }
  async function showLookAround(marker, look) {
    const c = marker.place.coordinate;
    const params = new URLSearchParams({ coordinate: `${c.latitude.toFixed(6)},${c.longitude.toFixed(6)}`, place: 'true' });
    if (auth.key) params.set('key', auth.key);
    const response = await fetch(`/api/v1/lookaround/scene?${params}`, { headers: { Accept: 'application/json' } });
    if (!response.ok) return;
    const { scene } = await response.json();
    if (!scene || calloutMarker !== marker) return;
    params.set('heading', String(Math.round(((scene.heading % 360) + 360) % 360)));
    params.set('size', '270x150');
    if (window.devicePixelRatio > 1.5) params.set('scale', '2');
    look.onload = () => { if (calloutMarker === marker) { look.hidden = false; placeMarkers(); } };
    look.onerror = () => { look.hidden = true; };
    look.src = `/api/v1/lookaround?${params}`;
  }
  function closeCallout() {
    calloutMarker = null;
    $('callout').hidden = true;
    for (const m of markers) m.el.classList.remove('selected');
  }
  $('callout').querySelector('.close').addEventListener('click', closeCallout);
  $('callout').addEventListener('pointerdown', (e) => e.stopPropagation());
  $('callout').addEventListener('click', (e) => {
    const action = e.target.closest('button') && e.target.closest('button').dataset.action;
    if (!action || !calloutMarker) return;
    setEndpoint(action === 'from' ? 'origin' : 'destination', calloutMarker.place);
    showDirections(true);
    closeCallout();
    if (endpoints.origin && endpoints.destination) route();
    else $(action === 'from' ? 'destination' : 'origin').focus();
  });
  function focusPlace(place, zoom) {
    const p = project(place.coordinate);
    easeTo({ x: p.x, y: p.y, zoom: Math.max(view.zoom, zoom || 16) }, 400);
  }

  // ---- Click on the map: pick a route, or ask for the address there.
  let reverseToken = 0;
  async function clickAt(px, py) {
    const r = routeAt(px, py);
    if (r >= 0 && r !== selectedRoute) { selectRoute(r); return; }
    closeCallout();
    const coordinate = coordinateAt(px, py);
    removeMarkers(['dropped']);
    const place = { name: 'Dropped pin', coordinate, formattedAddressLines: ['Looking up the address…'] };
    const marker = addMarker(place, 'dropped');
    openCallout(marker);
    const token = ++reverseToken;
    try {
      const body = await api('/v1/reverseGeocode', { loc: `${coordinate.latitude.toFixed(6)},${coordinate.longitude.toFixed(6)}` });
      if (token !== reverseToken) return;
      const found = body && body.results && body.results[0];
      marker.place = found ? { ...found, coordinate } : { ...place, formattedAddressLines: ['No address here'] };
    } catch (err) {
      if (token !== reverseToken) return;
      marker.place = { ...place, formattedAddressLines: [err.status === 404 ? 'No address here' : `Address lookup failed: ${err.message}`] };
    }
    marker.el.setAttribute('aria-label', placeName(marker.place));
    if (calloutMarker === marker) openCallout(marker);
  }

  // ---- Search with autocomplete.
  const searchInput = $('search');
  const suggestionList = $('suggestions');
  let suggestions = [];
  let activeSuggestion = -1;
  let suggestToken = 0;
  let suggestTimer = 0;
  function closeSuggestions() {
    suggestionList.hidden = true;
    suggestionList.textContent = '';
    suggestions = [];
    activeSuggestion = -1;
    searchInput.setAttribute('aria-expanded', 'false');
    searchInput.removeAttribute('aria-activedescendant');
  }
  function renderSuggestions() {
    suggestionList.textContent = '';
    suggestions.forEach((s, i) => {
      const li = document.createElement('li');
      li.id = `suggestion-${i}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(i === activeSuggestion));
      const lines = s.displayLines || [];
      const a = document.createElement('span'); a.className = 'line1'; a.textContent = lines[0] || '';
      const b = document.createElement('span'); b.className = 'line2'; b.textContent = lines.slice(1).join(', ');
      li.append(a, b);
      li.addEventListener('pointerdown', (e) => e.preventDefault()); // keep focus in the box
      li.addEventListener('click', () => pickSuggestion(i));
      suggestionList.appendChild(li);
    });
    const open = suggestions.length > 0;
    suggestionList.hidden = !open;
    searchInput.setAttribute('aria-expanded', String(open));
    if (activeSuggestion >= 0) searchInput.setAttribute('aria-activedescendant', `suggestion-${activeSuggestion}`);
    else searchInput.removeAttribute('aria-activedescendant');
  }
  searchInput.addEventListener('input', () => {
    clearTimeout(suggestTimer);
    const q = searchInput.value.trim();
    if (q.length < 2) { suggestToken++; closeSuggestions(); return; }
    suggestTimer = setTimeout(async () => {
      const token = ++suggestToken;
      try {
        const body = await api('/v1/searchAutocomplete', { q, searchLocation: here() });
        if (token !== suggestToken) return;
        suggestions = (body && body.results) || [];
        activeSuggestion = -1;
        renderSuggestions();
      } catch (err) {
        if (token === suggestToken) closeSuggestions();
      }
    }, 150);
  });
  searchInput.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!suggestions.length) return;
      e.preventDefault();
      const n = suggestions.length;
      activeSuggestion = e.key === 'ArrowDown' ? (activeSuggestion + 1) % n : (activeSuggestion - 1 + n) % n;
      renderSuggestions();
    } else if (e.key === 'Enter' && activeSuggestion >= 0) {
      e.preventDefault();
      pickSuggestion(activeSuggestion);
    } else if (e.key === 'Escape') {
      closeSuggestions();
    }
  });
  searchInput.addEventListener('blur', () => setTimeout(closeSuggestions, 150));
  $('search-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const q = searchInput.value.trim();
    suggestToken++;
    closeSuggestions();
    if (q) search('/v1/search', { q, searchLocation: here() });
  });
  function pickSuggestion(i) {
    const s = suggestions[i];
    if (!s) return;
    searchInput.value = (s.displayLines || []).join(', ');
    suggestToken++;
    closeSuggestions();
    if (s.completionUrl) search(s.completionUrl, {});
    else search('/v1/search', { q: (s.displayLines || []).join(' '), searchLocation: here() });
  }
  let searchToken = 0;
  let results = [];
  async function search(path, params) {
    const token = ++searchToken;
    setStatus('Searching…');
    try {
      const body = await api(path, params);
      if (token !== searchToken) return;
      showResults((body && body.results) || []);
    } catch (err) {
      if (token !== searchToken) return;
      showResults([], err.status === 404 ? 'Nothing found.' : `Search failed: ${err.message}`);
    }
  }
  function showResults(places, message) {
    removeMarkers(['result']);
    closeCallout();
    results = places.filter((p) => p && p.coordinate && Number.isFinite(p.coordinate.latitude) && Number.isFinite(p.coordinate.longitude));
    const list = $('results');
    list.textContent = '';
    const found = results.length === 1 ? '1 place' : `${results.length} places`;
    setStatus(message || (results.length ? found : 'Nothing found.'), Boolean(message && message !== 'Nothing found.'));
    results.forEach((place, i) => {
      const marker = addMarker(place, 'result');
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
        openCallout(marker);
        focusPlace(place, 17);
      });
      li.appendChild(b);
      list.appendChild(li);
      if (i === 0 && results.length === 1) openCallout(marker);
    });
    if (!results.length) return;
    let s = 90, w = 180, n = -90, e = -180;
    for (const p of results) {
      s = Math.min(s, p.coordinate.latitude); n = Math.max(n, p.coordinate.latitude);
      w = Math.min(w, p.coordinate.longitude); e = Math.max(e, p.coordinate.longitude);
    }
    if (results.length === 1) {
      const p = project(results[0].coordinate);
      easeTo({ ...fitAround(p, 17) }, 500);
    } else {
      easeTo(fitView(s, w, n, e, 70), 500);
    }
  }
  // A view with `p` in the middle of the uncovered part of the map.
  function fitAround(p, zoom) {
    const panel = panelInset();
    const s = TILE * Math.pow(2, zoom);
    return { x: p.x - panel.left / 2 / s, y: p.y - panel.top / 2 / s, zoom };
  }

  // ---- Directions.
  const endpoints = { origin: null, destination: null };
  let transportType = 'Automobile';
  let directions = null;
  function showDirections(open) {
    $('directions').hidden = !open;
    $('directions-toggle').setAttribute('aria-expanded', String(open));
  }
  $('directions-toggle').addEventListener('click', () => {
    const open = $('directions').hidden;
    showDirections(open);
    if (open) $(endpoints.origin ? 'destination' : 'origin').focus();
  });
  function setEndpoint(which, place) {
    endpoints[which] = place;
    $(which).value = place ? placeName(place) : '';
    removeMarkers([which]);
    if (place) addMarker(place, which);
  }
  for (const which of ['origin', 'destination']) {
    $(which).addEventListener('input', () => { endpoints[which] = null; removeMarkers([which]); });
    $(which).addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); route(); } });
  }
  $('swap').addEventListener('click', () => {
    const o = endpoints.origin, d = endpoints.destination, ot = $('origin').value, dt = $('destination').value;
    setEndpoint('origin', d); setEndpoint('destination', o);
    if (!d) $('origin').value = dt;
    if (!o) $('destination').value = ot;
    if ($('origin').value && $('destination').value) route();
  });
  for (const b of $('transport').querySelectorAll('button')) {
    b.addEventListener('click', () => {
      transportType = b.dataset.transport;
      for (const o of $('transport').querySelectorAll('button')) o.setAttribute('aria-checked', String(o === b));
      if ($('origin').value && $('destination').value) route();
    });
  }
  $('route-button').addEventListener('click', () => route());
  const endpointParameter = (which) => {
    const place = endpoints[which];
    if (place) return `${place.coordinate.latitude.toFixed(6)},${place.coordinate.longitude.toFixed(6)}`;
    return $(which).value.trim();
  };
  let routeToken = 0;
  async function route() {
    const origin = endpointParameter('origin'), destination = endpointParameter('destination');
    if (!origin || !destination) {
      setStatus('Choose a start and a destination: search for a place, or click the map.', true);
      return;
    }
    const token = ++routeToken;
    setStatus('Finding routes…');
    try {
      const body = await api('/v1/directions', { origin, destination, transportType, requestsAlternateRoutes: 'true', searchLocation: here() });
      if (token !== routeToken) return;
      showRoutes(body);
    } catch (err) {
      if (token !== routeToken) return;
      clearRoutes();
      setStatus(err.status === 404 ? 'No route found between these places.' : `Directions failed: ${err.message}`, true);
    }
  }
  function clearRoutes() {
    directions = null;
    routes = [];
    $('route-panel').hidden = true;
    $('routes').textContent = '';
    $('steps').textContent = '';
    requestRender();
  }
  function showRoutes(body) {
    directions = body;
    const steps = body.steps || [], paths = body.stepPaths || [];
    routes = (body.routes || []).map((r) => {
      const points = [];
      for (const si of r.stepIndexes || []) {
        const step = steps[si];
        const path = step && paths[step.stepPathIndex];
        for (const c of path || []) {
          if (!Number.isFinite(c.latitude) || !Number.isFinite(c.longitude)) continue;
          const p = project(c);
          const last = points[points.length - 1];
          if (!last || last.x !== p.x || last.y !== p.y) points.push(p);
        }
      }
      return { route: r, points };
    });
    results = [];
    $('results').textContent = '';
    removeMarkers(['result', 'dropped']);
    // The server's answer names the places it resolved: show those, not what was typed.
    if (body.origin && body.origin.coordinate) setEndpoint('origin', { ...body.origin, name: endpoints.origin ? placeName(endpoints.origin) : placeName(body.origin) });
    if (body.destination && body.destination.coordinate) setEndpoint('destination', { ...body.destination, name: endpoints.destination ? placeName(endpoints.destination) : placeName(body.destination) });
    if (!routes.length) { clearRoutes(); setStatus('No route found between these places.', true); return; }
    setStatus('');
    $('route-panel').hidden = false;
    const list = $('routes');
    list.textContent = '';
    routes.forEach((r, i) => {
      const li = document.createElement('li');
      li.setAttribute('role', 'option');
      li.tabIndex = 0;
      li.className = 'route';
      const t = document.createElement('span'); t.className = 'time'; t.textContent = formatDuration(r.route.durationSeconds || 0);
      const m = document.createElement('div'); m.className = 'meta';
      m.textContent = `${formatDistance(r.route.distanceMeters || 0)}${r.route.name ? ` · via ${r.route.name}` : ''}${r.route.hasTolls ? ' · tolls' : ''}`;
      li.append(t, m);
      li.addEventListener('click', () => selectRoute(i));
      li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); selectRoute(i); } });
      list.appendChild(li);
    });
    selectRoute(0, true);
  }
  function selectRoute(i, fit = false) {
    selectedRoute = i;
    const r = routes[i];
    if (!r) return;
    [...$('routes').children].forEach((li, k) => li.setAttribute('aria-selected', String(k === i)));
    const list = $('steps');
    list.textContent = '';
    const steps = (directions && directions.steps) || [];
    const paths = (directions && directions.stepPaths) || [];
    for (const si of r.route.stepIndexes || []) {
      const step = steps[si];
      if (!step) continue;
      const li = document.createElement('li');
      li.className = 'step';
      const position = (r.route.stepIndexes || []).indexOf(si);
      li.textContent = step.instructions || (position === 0 ? 'Start' : step.distanceMeters ? 'Continue' : 'Arrive');
      if (step.distanceMeters) {
        const d = document.createElement('span'); d.className = 'distance'; d.textContent = formatDistance(step.distanceMeters);
        li.appendChild(d);
      }
      li.tabIndex = 0;
      const show = () => {
        const path = paths[step.stepPathIndex] || [];
        if (path.length) fitTo(path.map((c) => ({ latitude: c.latitude, longitude: c.longitude })), 17);
      };
      li.addEventListener('click', show);
      li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); show(); } });
      list.appendChild(li);
    }
    if (fit) {
      const all = r.points.map((p) => ({ latitude: yToLat(p.y), longitude: xToLon(p.x) }));
      if (all.length) fitTo(all, 18, 90);
    }
    requestRender();
  }
  function fitTo(coordinates, maxZoom, padding = 60) {
    let s = 90, w = 180, n = -90, e = -180;
    for (const c of coordinates) {
      s = Math.min(s, c.latitude); n = Math.max(n, c.latitude);
      w = Math.min(w, c.longitude); e = Math.max(e, c.longitude);
    }
    const target = fitView(s, w, n, e, padding);
    if (target.zoom > maxZoom) Object.assign(target, fitAround({ x: (lonToX(w) + lonToX(e)) / 2, y: (latToY(n) + latToY(s)) / 2 }, maxZoom));
    easeTo(target, 500);
  }

  // ---- Start.
  window.addEventListener('resize', resize);
  async function start() {
    try {
      config = { ...config, ...(await api('/webmap/config.json')) };
    } catch (err) {
      setStatus(`Could not read the server's configuration: ${err.message}`, true);
    }
    if (config.backgrounds) BACKGROUNDS = { ...BACKGROUNDS, ...config.backgrounds };
    buildStyles();
    setStyle(style);
    resize();
    if (!readHash()) {
      const [w, s, e, n] = config.bounds;
      Object.assign(view, fitView(s, w, n, e, 20), { bearing: 0 });
      constrain();
    }
    if (config.requiresKey) accessToken().catch(showKeyForm);
    requestRender();
    scheduleHash();
  }

  // A read-only handle for tests and the curious: the view, tile counters and the routes as drawn.
  window.openMapKit = {
    get view() { return { zoom: view.zoom, latitude: yToLat(view.y), longitude: xToLon(view.x), bearing: view.bearing }; },
    get tiles() { return { ...stats, cached: tiles.size, style }; },
    get hasAccessToken() { return Boolean(auth.token); },
    get idle() { return stats.inflight === 0 && !renderQueued && !animation && !pendingTiles; },
    routeScreenPoints(i = selectedRoute) {
      const r = routes[i];
      return r ? r.points.map((p) => normToScreen(p.x, p.y)) : [];
    },
    get routeCount() { return routes.length; },
    get selectedRoute() { return selectedRoute; },
    screenPoint(latitude, longitude) { return normToScreen(lonToX(longitude), latToY(latitude)); },
    markerScreenPoints() { return markers.map((m) => ({ kind: m.kind, name: placeName(m.place), ...normToScreen(m.p.x, m.p.y) })); },
  };
  start();
})();
