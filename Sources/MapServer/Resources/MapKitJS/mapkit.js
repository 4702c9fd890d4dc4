/*
 * mapkit.js — MapKit JS, self-hosted by OpenMapKit.
 *
 * Apple's web map API (the `mapkit` namespace: maps, annotations, overlays, search, geocoding,
 * directions) implemented over MapLibre GL JS and this server: its map styles (/styles/*.json,
 * whose vector tiles, sprites and glyphs it serves) and its Apple-Maps-Server-style /v1 API. A
 * page written for MapKit JS works by pointing its <script src> at this file. MapLibre GL JS is
 * loaded from the same origin as this script (/lib/maplibre-gl.js and .css), never from the
 * internet. The names, option shapes, callback shapes and result fields are MapKit JS's.
 *
 * Authorization: `mapkit.init({ authorizationCallback(done) { done(token) } })` as with Apple. The
 * token is a Maps token as Apple's (a JWT the team signed with a Maps key the server registered,
 * traded here at /v1/token for an access token), this server's access token (from /v1/token,
 * traded for an API key) or anything — even
 * an empty string — when the server runs without keys. It is sent as `Authorization: Bearer` on
 * API calls and as `?key=` on tile requests. The callback is asked again shortly before the token
 * expires (the expiry is read from the token) and once more after a 401.
 *
 * What differs from Apple's MapKit JS, and why:
 *   - mapType Hybrid and Satellite need aerial imagery, which this server does not have: the map
 *     shows the Standard map instead and `map.mapType` reads back "standard" (a console warning
 *     says so once).
 *   - map.pointOfInterestFilter narrows the map's own labels through OpenMapKit's table of each
 *     category's OpenMapTiles classes (the tiles carry those, not Apple's categories), the same
 *     table OpenMapKit's native maps use. A feature whose class no category claims is hidden by
 *     an including filter and shown by an excluding one.
 *   - PointsOfInterestSearch.MaxRadius is 2000 m (the server's limit), and it is answered by
 *     /v1/searchPointsOfInterest, an OpenMapKit addition to the Maps Server API.
 *   - Travel times have no traffic (OpenStreetMap has none): staticTravelTime equals
 *     expectedTravelTime, and departureDate/arrivalDate do not change routes.
 *   - Transit directions are refused by the server (no timetables).
 *   - PlaceLookup answers with the place's OpenStreetMap name whatever the language (the server
 *     cannot localise a place looked up by id); searches answer in the asked language.
 *
 *   - map.tintColor tints the user location dot and this library's controls (map type, user
 *     location); MapLibre's zoom and compass buttons keep their icons.
 *   - Style.fillRule: a polygon fills its first ring less the others whichever rule is named
 *     (the same for rings that do not cross).
 *
 * Not supported (reading these members gives MapKit JS's default, and setting them to anything
 * else, or passing that as an option, warns once in the console, rather than storing values
 * nothing uses):
 *   - map.loadPriority, annotation.selectionAccessory, Style.lineGradient,
 *     Style.strokeStart/strokeEnd and Style.lineDashOffset (MapLibre's lines have none).
 *   - Not defined at all: mapkit.LookAround, mapkit.LookAroundPreview, mapkit.MapFeatureAnnotation
 *     and map feature selection (selectableMapFeatures), mapkit.PlaceDetail, mapkit.PlaceSelectionAccessory,
 *     mapkit.TileOverlay.
 */
(function () {
  'use strict';
  if (window.mapkit && window.mapkit.isOpenMapKit) return;

  // ---------------------------------------------------------------------------------------------
  // Where the server is: the folder this script was loaded from. Everything else (MapLibre, the
  // styles, the API) comes from there.
  const thisScript = document.currentScript;
  const serverBase = new URL('.', thisScript && thisScript.src ? thisScript.src : location.href).href;
  const serverOrigin = new URL(serverBase).origin;
  const serverURL = (path) => new URL(path, serverBase).href;

  // ---------------------------------------------------------------------------------------------
  // Events: MapKit JS objects take addEventListener(type, listener, thisObject); a listener is a
  // function or an object with handleEvent.
  class EventSource {
    addEventListener(type, listener, thisObject) {
      if (!listener) return;
      const all = this._listeners || (this._listeners = {});
      (all[type] || (all[type] = [])).push({ listener, thisObject });
    }

    removeEventListener(type, listener, thisObject) {
      const list = this._listeners && this._listeners[type];
      if (!list) return;
      const index = list.findIndex((l) => l.listener === listener && l.thisObject === thisObject);
      if (index >= 0) list.splice(index, 1);
    }

    dispatchEvent(event) {
      if (!event.target) event.target = this;
      const list = ((this._listeners && this._listeners[event.type]) || []).slice();
      for (const { listener, thisObject } of list) {
        try {
          if (typeof listener === 'function') listener.call(thisObject || this, event);
          else if (listener && typeof listener.handleEvent === 'function') listener.handleEvent(event);
        } catch (error) {
          // One listener's error must not stop the others (as with DOM events); report it.
          setTimeout(() => { throw error; });
        }
      }
      return !event.defaultPrevented;
    }
  }

  // Options a constructor does not take: unsupported members warn through their setters (see
  // unsupported() below), unknown names warn here.
  function warnAboutOtherOptions(object, options, handled, what) {
    for (const name of Object.keys(options)) {
      if (handled.includes(name)) continue;
      let proto = Object.getPrototypeOf(object), descriptor;
      while (proto && !(descriptor = Object.getOwnPropertyDescriptor(proto, name))) proto = Object.getPrototypeOf(proto);
      if (descriptor && descriptor.set) object[name] = options[name];
      else if (!descriptor) console.warn(`mapkit.${what}: option ${name} is not supported by this server's MapKit JS (see the top of mapkit.js)`);
    }
  }

  function mapkitEvent(type, fields) {
    return Object.assign({ type, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } }, fields);
  }

  // ---------------------------------------------------------------------------------------------
  // Geometry types

  const EARTH_RADIUS = 6378137;
  const clampLatitude = (lat) => Math.max(-85.05112878, Math.min(85.05112878, lat));
  const wrapLongitude = (lon) => ((((lon + 180) % 360) + 360) % 360) - 180;

  class Coordinate {
    constructor(latitude, longitude) {
      this.latitude = Number(latitude) || 0;
      this.longitude = Number(longitude) || 0;
    }
    copy() { return new Coordinate(this.latitude, this.longitude); }
    equals(other) { return !!other && other.latitude === this.latitude && other.longitude === this.longitude; }
    toMapPoint() { const p = this.toUnwrappedMapPoint(); return new MapPoint(p.x - Math.floor(p.x), p.y); }
    toUnwrappedMapPoint() {
      const sin = Math.sin(clampLatitude(this.latitude) * Math.PI / 180);
      return new MapPoint((this.longitude + 180) / 360, 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI));
    }
    toString() { return `Coordinate(${this.latitude}, ${this.longitude})`; }
  }

  // Anything with latitude/longitude (MapKit JS accepts plain objects where it takes CoordinateData).
  const toCoordinate = (value) => (value instanceof Coordinate ? value : new Coordinate(value.latitude, value.longitude));

  class CoordinateSpan {
    constructor(latitudeDelta, longitudeDelta) {
      this.latitudeDelta = Number(latitudeDelta) || 0;
      this.longitudeDelta = Number(longitudeDelta) || 0;
    }
    copy() { return new CoordinateSpan(this.latitudeDelta, this.longitudeDelta); }
    equals(other) { return !!other && other.latitudeDelta === this.latitudeDelta && other.longitudeDelta === this.longitudeDelta; }
  }

  class CoordinateRegion {
    constructor(center, span) {
      this.center = center ? toCoordinate(center) : new Coordinate(0, 0);
      this.span = span ? new CoordinateSpan(span.latitudeDelta, span.longitudeDelta) : new CoordinateSpan(0, 0);
    }
    copy() { return new CoordinateRegion(this.center.copy(), this.span.copy()); }
    equals(other) { return !!other && this.center.equals(other.center) && this.span.equals(other.span); }
    toBoundingRegion() {
      const c = this.center, s = this.span;
      return new BoundingRegion(Math.min(90, c.latitude + s.latitudeDelta / 2), wrapLongitude(c.longitude + s.longitudeDelta / 2),
        Math.max(-90, c.latitude - s.latitudeDelta / 2), wrapLongitude(c.longitude - s.longitudeDelta / 2));
    }
    toMapRect() {
      const b = this.toBoundingRegion();
      const nw = new Coordinate(b.northLatitude, this.center.longitude - this.span.longitudeDelta / 2).toUnwrappedMapPoint();
      const se = new Coordinate(b.southLatitude, this.center.longitude + this.span.longitudeDelta / 2).toUnwrappedMapPoint();
      return new MapRect(nw.x, nw.y, se.x - nw.x, se.y - nw.y);
    }
    get radius() {
      // Not in MapKit JS; internal use: half the diagonal in metres.
      return distanceBetween(this.center, new Coordinate(this.center.latitude + this.span.latitudeDelta / 2, this.center.longitude + this.span.longitudeDelta / 2));
    }
  }

  class BoundingRegion {
    constructor(northLatitude, eastLongitude, southLatitude, westLongitude) {
      this.northLatitude = northLatitude;
      this.eastLongitude = eastLongitude;
      this.southLatitude = southLatitude;
      this.westLongitude = westLongitude;
    }
    copy() { return new BoundingRegion(this.northLatitude, this.eastLongitude, this.southLatitude, this.westLongitude); }
    toCoordinateRegion() {
      let east = this.eastLongitude;
      if (east < this.westLongitude) east += 360; // across the antimeridian
      return new CoordinateRegion(
        new Coordinate((this.northLatitude + this.southLatitude) / 2, wrapLongitude((east + this.westLongitude) / 2)),
        new CoordinateSpan(this.northLatitude - this.southLatitude, east - this.westLongitude));
    }
  }

  // Map points are Web Mercator with the world as the unit square (x east from -180°, y south
  // from the top), as MapKit JS's.
  class MapPoint {
    constructor(x, y) { this.x = x; this.y = y; }
    copy() { return new MapPoint(this.x, this.y); }
    equals(other) { return !!other && other.x === this.x && other.y === this.y; }
    toCoordinate() {
      const n = Math.PI - 2 * Math.PI * this.y;
      return new Coordinate(180 / Math.PI * Math.atan(0.5 * (Math.exp(n) - Math.exp(-n))), this.x * 360 - 180);
    }
  }

  class MapSize {
    constructor(width, height) { this.width = width; this.height = height; }
    copy() { return new MapSize(this.width, this.height); }
    equals(other) { return !!other && other.width === this.width && other.height === this.height; }
  }

  class MapRect {
    constructor(x, y, width, height) { this.origin = new MapPoint(x, y); this.size = new MapSize(width, height); }
    get minX() { return this.origin.x; }
    get minY() { return this.origin.y; }
    get maxX() { return this.origin.x + this.size.width; }
    get maxY() { return this.origin.y + this.size.height; }
    get midX() { return this.origin.x + this.size.width / 2; }
    get midY() { return this.origin.y + this.size.height / 2; }
    copy() { return new MapRect(this.origin.x, this.origin.y, this.size.width, this.size.height); }
    equals(other) { return !!other && this.origin.equals(other.origin) && this.size.equals(other.size); }
    scale(factor, scaleCenter) {
      const c = scaleCenter || new MapPoint(this.midX, this.midY);
      return new MapRect(c.x + (this.minX - c.x) * factor, c.y + (this.minY - c.y) * factor, this.size.width * factor, this.size.height * factor);
    }
    toCoordinateRegion() {
      const nw = new MapPoint(this.minX, this.minY).toCoordinate(), se = new MapPoint(this.maxX, this.maxY).toCoordinate();
      return new BoundingRegion(nw.latitude, se.longitude, se.latitude, nw.longitude).toCoordinateRegion();
    }
  }

  // The camera distances a map may be seen from, in metres.
  class CameraZoomRange {
    constructor(minCameraDistance, maxCameraDistance) {
      const o = typeof minCameraDistance === 'object' && minCameraDistance !== null ? minCameraDistance : { minCameraDistance, maxCameraDistance };
      this.minCameraDistance = Number(o.minCameraDistance) > 0 ? Number(o.minCameraDistance) : 0;
      this.maxCameraDistance = o.maxCameraDistance == null || !(Number(o.maxCameraDistance) > 0) ? Infinity : Number(o.maxCameraDistance);
    }
    copy() { return new CameraZoomRange(this.minCameraDistance, this.maxCameraDistance); }
  }

  class Padding {
    // new Padding(top, right, bottom, left) or new Padding({ top, right, bottom, left }).
    constructor(top, right, bottom, left) {
      const o = typeof top === 'object' && top !== null ? top : { top, right, bottom, left };
      this.top = Number(o.top) || 0;
      this.right = Number(o.right) || 0;
      this.bottom = Number(o.bottom) || 0;
      this.left = Number(o.left) || 0;
    }
  }

  const toPadding = (value) => (value instanceof Padding ? value : new Padding(value || 0, value && value.right, value && value.bottom, value && value.left));

  function distanceBetween(a, b) {
    const rad = Math.PI / 180, dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad;
    const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
    return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
  }

  // The point `distance` metres from `from` on the initial bearing `degrees` (great circle).
  function destination(from, degrees, distance) {
    const rad = Math.PI / 180, d = distance / EARTH_RADIUS, b = degrees * rad;
    const lat1 = from.latitude * rad, lon1 = from.longitude * rad;
    const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
    const lon2 = lon1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
    return new Coordinate(lat2 / rad, wrapLongitude(lon2 / rad));
  }

  // ---------------------------------------------------------------------------------------------
  // Constants

  const FeatureVisibility = Object.freeze({ Adaptive: 'adaptive', Hidden: 'hidden', Visible: 'visible' });
  const ColorSchemes = Object.freeze({ Light: 'light', Dark: 'dark', Adaptive: 'adaptive' });
  const MapTypes = Object.freeze({ Standard: 'standard', MutedStandard: 'mutedStandard', Hybrid: 'hybrid', Satellite: 'satellite' });
  const Distances = Object.freeze({ Adaptive: 'adaptive', Metric: 'metric', Imperial: 'imperial' });
  const TransportType = Object.freeze({ Automobile: 'AUTOMOBILE', Walking: 'WALKING', Cycling: 'CYCLING' });
  const SearchRegionPriority = Object.freeze({ Default: 'default', Required: 'required' });

  // Apple's point-of-interest categories (the server's /v1 names them the same way).
  const PointOfInterestCategory = Object.freeze(Object.fromEntries([
    'Airport', 'AmusementPark', 'AnimalService', 'Aquarium', 'ATM', 'AutomotiveRepair', 'Bakery', 'Bank', 'Baseball', 'Basketball',
    'Beach', 'Beauty', 'Bowling', 'Brewery', 'Cafe', 'Campground', 'CarRental', 'Castle', 'ConventionCenter', 'Distillery',
    'EVCharger', 'Fairground', 'FireStation', 'Fishing', 'FitnessCenter', 'FoodMarket', 'Fortress', 'GasStation', 'GoKart', 'Golf',
    'Hiking', 'Hospital', 'Hotel', 'Kayaking', 'Landmark', 'Laundry', 'Library', 'Mailbox', 'Marina', 'MiniGolf', 'MovieTheater',
    'Museum', 'MusicVenue', 'NationalMonument', 'NationalPark', 'Nightlife', 'Park', 'Parking', 'Pharmacy', 'Planetarium', 'Police',
    'PostOffice', 'PublicTransport', 'Restaurant', 'Restroom', 'RockClimbing', 'RVPark', 'School', 'Skatepark', 'Skating', 'Skiing',
    'Soccer', 'Spa', 'Stadium', 'Store', 'Surfing', 'Swimming', 'Tennis', 'Theater', 'University', 'Volleyball', 'Winery', 'Zoo',
  ].map((name) => [name, name])));

  // Each category's OpenMapTiles classes and subclasses, filled in by the server from OpenMapKit's
  // table when it serves this file: { "Cafe": [[classes], [subclasses]], … }.
  const categoryClasses = /* OPENMAPKIT_CATEGORY_CLASSES */ {};

  class PointOfInterestFilter {
    constructor(including, categories) {
      this._including = including;
      this._categories = (categories || []).slice();
    }
    static including(categories) { return new PointOfInterestFilter(true, categories); }
    static excluding(categories) { return new PointOfInterestFilter(false, categories); }
    includesCategory(category) { return this._including === this._categories.includes(category); }
    excludesCategory(category) { return !this.includesCategory(category); }
    get _includesAll() { return !this._including && this._categories.length === 0; }
    get _excludesAll() { return this._including && this._categories.length === 0; }
    // A MapLibre filter expression for the tiles' poi features (OpenMapTiles class and subclass)
    // that this filter shows.
    _openMapTilesTest() {
      const classes = new Set(), subclasses = new Set();
      for (const category of this._categories) {
        const [c, sub] = categoryClasses[category] || [[], []];
        c.forEach((x) => classes.add(x));
        sub.forEach((x) => subclasses.add(x));
      }
      const any = ['any', ['in', ['get', 'class'], ['literal', [...classes].sort()]], ['in', ['get', 'subclass'], ['literal', [...subclasses].sort()]]];
      return this._including ? any : ['!', any];
    }
    // The /v1 parameters that say the same.
    _parameters() {
      if (this._includesAll) return {};
      if (this._excludesAll) return { includePoiCategories: '' };
      return { [this._including ? 'includePoiCategories' : 'excludePoiCategories']: this._categories.join(',') };
    }
  }
  PointOfInterestFilter.filterIncludingAllCategories = PointOfInterestFilter.excluding([]);
  PointOfInterestFilter.filterExcludingAllCategories = PointOfInterestFilter.including([]);

  const AddressCategory = Object.freeze({
    Country: 'Country', AdministrativeArea: 'AdministrativeArea', SubAdministrativeArea: 'SubAdministrativeArea',
    Locality: 'Locality', SubLocality: 'SubLocality', PostalCode: 'PostalCode',
  });

  class AddressFilter {
    constructor(including, categories) { this._including = including; this._categories = (categories || []).slice(); }
    static including(categories) { return new AddressFilter(true, categories); }
    static excluding(categories) { return new AddressFilter(false, categories); }
    includesCategory(category) { return this._including === this._categories.includes(category); }
    excludesCategory(category) { return !this.includesCategory(category); }
    _parameters() {
      if (!this._including && this._categories.length === 0) return {};
      return { [this._including ? 'includeAddressCategories' : 'excludeAddressCategories']: this._categories.join(',') };
    }
  }
  AddressFilter.includingAllCategories = AddressFilter.excluding([]);
  AddressFilter.excludingAllCategories = AddressFilter.including([]);

  // ---------------------------------------------------------------------------------------------
  // The mapkit namespace, authorization and the server's API

  const mapkit = new EventSource();
  const maps = [];
  const auth = { callback: null, token: null, pending: null, initialized: false, renewTimer: 0 };
  let language = (navigator.language || 'en');
  let warnedMapType = false;

  class MapKitError extends Error {
    constructor(message, status) { super(message); this.name = 'MapKitError'; this.status = status; }
  }

  // The token's expiry, when it is one of this server's (omk1.<base64url "key.expiry">.<signature>).
  function tokenExpiry(token) {
    const parts = typeof token === 'string' ? token.split('.') : [];
    if (parts.length !== 3 || parts[0] !== 'omk1') return 0;
    try {
      const payload = atob(parts[1].replace(/-/g, '+').replace(/_/g, '/'));
      return Number(payload.split('.').pop()) * 1000 || 0;
    } catch (_) { return 0; }
  }

  // The current token: asked of the authorizationCallback when there is none yet or `renew`.
  function accessToken(renew) {
    if (!auth.callback) return Promise.resolve(auth.token);
    // A token being fetched (after init() or a refusal) replaces the one held: wait for it.
    if (auth.pending) return auth.pending;
    if (!renew && auth.token !== null) return Promise.resolve(auth.token);
    let answered = false;
    let finished = false; // the token is set (a Maps token is first traded at /v1/token)
    let asking = null; // this request's promise (null while the callback runs)
    const callback = auth.callback;
    asking = new Promise((resolve) => {
      const done = (token) => {
        if (answered) return;
        answered = true;
        // A callback replaced by a later init() no longer sets the token.
        if (callback !== auth.callback) { finished = true; resolve(auth.pending || auth.token); return; }
        const text = token == null ? '' : String(token);
        if (isMapsToken(text)) tradeMapsToken(text).then(settle); else settle(text);
      };
      const settle = (token) => {
        finished = true;
        auth.token = token;
        if (asking && auth.pending === asking) auth.pending = null;
        const first = !auth.initialized;
        auth.initialized = true;
        clearTimeout(auth.renewTimer);
        const expiry = tokenExpiry(auth.token);
        // Renewed a minute before it expires, so tiles and calls never carry an expired token.
        if (expiry) auth.renewTimer = setTimeout(() => accessToken(true), Math.max(5000, expiry - Date.now() - 60000));
        // After the current script, so listeners added right after init() hear it.
        setTimeout(() => mapkit.dispatchEvent(mapkitEvent('configuration-change', { status: first ? 'Initialized' : 'Refreshed' })));
        resolve(auth.token);
      };
      try { callback(done); } catch (error) {
        answered = true;
        finished = true;
        if (asking && auth.pending === asking) auth.pending = null;
        mapkit.dispatchEvent(mapkitEvent('error', { status: 'Unauthorized', message: String(error && error.message || error) }));
        resolve(null);
      }
    });
    // A callback that answered at once (done() inside it) has nothing pending any more.
    if (!finished) auth.pending = asking;
    return asking;
  }

  // Whether a token is a Maps token as Apple's MapKit JS takes: a JWT the team signed (ES256)
  // with its Maps key, which this server trades at /v1/token for an access token.
  function isMapsToken(token) {
    const parts = token.split('.');
    if (parts.length !== 3) return false;
    try {
      const header = JSON.parse(atob(parts[0].replace(/-/g, '+').replace(/_/g, '/')));
      return !!header && typeof header === 'object' && header.alg !== undefined;
    } catch (_) { return false; }
  }

  // The access token /v1/token gives for a Maps token; '' (and an error event) when refused.
  async function tradeMapsToken(jwt) {
    try {
      const response = await fetch(serverURL('/v1/token'), { headers: { Authorization: `Bearer ${jwt}`, Accept: 'application/json' } });
      const body = await response.json().catch(() => null);
      if (response.ok && body && typeof body.accessToken === 'string') return body.accessToken;
      mapkit.dispatchEvent(mapkitEvent('error', { status: 'Unauthorized', message: (body && body.error && body.error.message) || `HTTP ${response.status}` }));
    } catch (error) {
      mapkit.dispatchEvent(mapkitEvent('error', { status: 'Unauthorized', message: String(error && error.message || error) }));
    }
    return '';
  }

  async function apiGet(path, parameters, signal) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(parameters || {})) {
      if (value !== undefined && value !== null) query.set(name, value);
    }
    const url = serverURL(path) + (query.toString() ? (path.includes('?') ? '&' : '?') + query : '');
    return apiFetch(url, signal);
  }

  async function apiFetch(url, signal, retried) {
    const token = await accessToken(false);
    const headers = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (language) headers['Accept-Language'] = language;
    let response;
    try {
      response = await fetch(url, { headers, signal });
    } catch (error) {
      if (error && error.name === 'AbortError') throw error;
      // A page on another origin than the server sees a refused CORS request as a network error.
      throw new MapKitError(`${new URL(url).pathname} could not be reached (${error && error.message}); a page on another origin than ` +
        `${serverOrigin} needs the server to allow it: openmapkit serve --cors-origin ${location.origin === 'null' ? "'*'" : location.origin}`, 0);
    }
    if (response.status === 401 && !retried && auth.callback) {
      // The server restarted or the token expired: one fresh token, one retry.
      await accessToken(true);
      return apiFetch(url, signal, true);
    }
    let body = null;
    try { body = await response.json(); } catch (_) { body = null; }
    if (!response.ok) {
      const message = (body && body.error && body.error.message) || `HTTP ${response.status}`;
      if (response.status === 401) mapkit.dispatchEvent(mapkitEvent('error', { status: 'Unauthorized', message }));
      if (response.status === 429) mapkit.dispatchEvent(mapkitEvent('error', { status: 'Too Many Requests', message }));
      throw new MapKitError(message, response.status);
    }
    if (!body) {
      mapkit.dispatchEvent(mapkitEvent('error', { status: 'Malformed Response', message: url }));
      throw new MapKitError('the server sent a response that is not JSON', response.status);
    }
    return body;
  }

  // ---------------------------------------------------------------------------------------------
  // MapLibre GL JS, loaded once from this server

  let maplibrePromise = null;
  function loadMapLibre() {
    if (maplibrePromise) return maplibrePromise;
    // The stylesheet places markers and controls: maps wait for it too.
    const stylesheet = new Promise((resolve) => {
      if (document.querySelector('link[href$="maplibre-gl.css"]')) { resolve(); return; }
      const css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = serverURL('lib/maplibre-gl.css');
      css.onload = () => resolve();
      css.onerror = () => { console.warn(`MapLibre GL JS's stylesheet is not served at ${css.href}`); resolve(); };
      document.head.appendChild(css);
    });
    const library = new Promise((resolve, reject) => {
      if (window.maplibregl) { resolve(window.maplibregl); return; }
      const js = document.createElement('script');
      js.src = serverURL('lib/maplibre-gl.js');
      js.async = true;
      js.onload = () => (window.maplibregl ? resolve(window.maplibregl) : reject(new MapKitError('MapLibre GL JS did not load')));
      js.onerror = () => reject(new MapKitError(`MapLibre GL JS is not served at ${js.src} (the server's \`make deps\` installs it)`));
      document.head.appendChild(js);
    });
    maplibrePromise = Promise.all([library, stylesheet]).then(([maplibregl]) => maplibregl);
    return maplibrePromise;
  }

  // Our own small stylesheet: markers, callouts, the map type control.
  let stylesAdded = false;
  function addStyles() {
    if (stylesAdded) return;
    stylesAdded = true;
    const style = document.createElement('style');
    style.textContent = `
.mk-map-view { position: relative; width: 100%; height: 100%; overflow: hidden; }
.mk-map-view .maplibregl-map { position: absolute; inset: 0; }
.mk-annotation { cursor: pointer; }
.mk-marker { width: 30px; height: 38px; }
.mk-marker.mk-selected { z-index: 2; }
/* MapLibre places the marker with a transform on its element: the selected marker grows inside it. */
.mk-marker-body { position: absolute; inset: 0; transform-origin: 50% 100%; transition: transform 0.15s; }
.mk-marker.mk-selected .mk-marker-body { transform: scale(1.45); }
.mk-marker svg { position: absolute; left: 0; top: 0; filter: drop-shadow(0 1px 1.5px rgba(0,0,0,0.35)); }
.mk-marker .mk-glyph { position: absolute; left: 0; top: 6px; width: 30px; text-align: center; font: 600 13px/15px -apple-system, "Helvetica Neue", Arial, sans-serif; pointer-events: none; }
.mk-marker .mk-glyph img { width: 15px; height: 15px; }
.mk-marker .mk-title { position: absolute; top: 39px; left: 50%; transform: translateX(-50%); white-space: nowrap; font: 600 11px/13px -apple-system, "Helvetica Neue", Arial, sans-serif; color: #222; text-shadow: 0 0 2px #fff, 0 0 2px #fff, 0 0 3px #fff; pointer-events: none; }
.mk-marker.mk-selected .mk-title { font-size: 8px; line-height: 9px; }
.mk-callout .maplibregl-popup-content { padding: 6px 10px; border-radius: 8px; font: 13px/1.3 -apple-system, "Helvetica Neue", Arial, sans-serif; }
.mk-callout-title { font-weight: 600; }
.mk-callout-subtitle { color: #666; font-size: 12px; }
.mk-map-type-control { display: flex; }
.maplibregl-ctrl-group.mk-map-type-control button { width: auto; padding: 0 8px; font: 12px -apple-system, "Helvetica Neue", Arial, sans-serif; }
.maplibregl-ctrl-group.mk-map-type-control button.mk-active { font-weight: 700; color: var(--mk-tint, #0a84ff); }
.maplibregl-ctrl-group.mk-user-location-control button { color: var(--mk-tint, #0a84ff); font-size: 15px; }
.mk-hide-compass .maplibregl-ctrl-compass { display: none !important; }
.mk-user-location { width: 14px; height: 14px; border-radius: 50%; background: var(--mk-tint, #0a84ff); border: 2px solid #fff; box-shadow: 0 0 0 6px rgba(10,132,255,0.25), 0 1px 3px rgba(0,0,0,0.4); }`;
    document.head.appendChild(style);
  }

  // ---------------------------------------------------------------------------------------------
  // Camera arithmetic. MapLibre's camera looks at the centre from 1.5 viewport heights away
  // (its default 36.87° vertical field of view), so MapKit JS's cameraDistance (metres between
  // the camera and the ground) and MapLibre's zoom convert at the centre's latitude.

  const metresPerPixel = (zoom, latitude) => 2 * Math.PI * EARTH_RADIUS * Math.cos(latitude * Math.PI / 180) / (512 * 2 ** zoom);
  const cameraDistanceForZoom = (zoom, latitude, height) => 1.5 * height * metresPerPixel(zoom, latitude);
  const zoomForCameraDistance = (distance, latitude, height) =>
    Math.log2(1.5 * height * 2 * Math.PI * EARTH_RADIUS * Math.cos(latitude * Math.PI / 180) / (512 * Math.max(distance, 1)));

  // The zoom at which `region` just fits a width × height viewport.
  function zoomForRegion(region, width, height) {
    const rect = region.toMapRect();
    const zx = Math.log2(width / (512 * Math.max(rect.size.width, 1e-12)));
    const zy = Math.log2(height / (512 * Math.max(rect.size.height, 1e-12)));
    return Math.max(0, Math.min(22, Math.min(zx, zy)));
  }

  // ---------------------------------------------------------------------------------------------
  // The map

  class MapKitMap extends EventSource {
    constructor(parent, options) {
      super();
      addStyles();
      if (typeof parent === 'string') parent = document.getElementById(parent);
      if (parent && !(parent instanceof Element)) { options = parent; parent = null; }
      this.element = document.createElement('div');
      this.element.className = 'mk-map-view';
      if (parent) parent.appendChild(this.element);
      this._annotations = [];
      this._overlays = [];
      this._selectedAnnotation = null;
      this._selectedOverlay = null;
      // The camera and settings until MapLibre is there (and the source of truth for settings).
      this._view = { latitude: 0, longitude: 0, zoom: 1, bearing: 0 };
      this._settings = {
        colorScheme: ColorSchemes.Light, mapType: MapTypes.Standard, showsCompass: FeatureVisibility.Adaptive,
        showsZoomControl: true, showsMapTypeControl: true, showsScale: FeatureVisibility.Hidden, distances: Distances.Adaptive,
        isRotationEnabled: true, isScrollEnabled: true, isZoomEnabled: true, padding: new Padding(0, 0, 0, 0),
        pointOfInterestFilter: null, cameraBoundary: null,
      };
      this._gl = null;
      this._destroyed = false;
      maps.push(this);
      const o = options || {};
      const handled = ['colorScheme', 'mapType', 'showsCompass', 'showsZoomControl', 'showsMapTypeControl', 'showsScale', 'distances',
        'isRotationEnabled', 'isScrollEnabled', 'isZoomEnabled', 'padding', 'pointOfInterestFilter', 'cameraBoundary', 'cameraZoomRange',
        'center', 'region', 'visibleMapRect', 'cameraDistance', 'rotation', 'annotations', 'overlays', 'selectedAnnotation',
        'showsUserLocation', 'tracksUserLocation', 'showsUserLocationControl', 'showsPointsOfInterest', 'annotationForCluster', 'tintColor'];
      for (const name of handled) {
        if (o[name] !== undefined) this[name] = o[name];
      }
      warnAboutOtherOptions(this, o, handled, 'Map');
      this._start();
    }

    async _start() {
      let maplibregl;
      try {
        maplibregl = await loadMapLibre();
        // With keys, tiles carry the token: wait for the first one (the page has called init).
        if (auth.callback) await accessToken(false);
      } catch (error) {
        mapkit.dispatchEvent(mapkitEvent('error', { status: 'Malformed Response', message: error.message }));
        console.error(error.message);
        return;
      }
      if (this._destroyed) return;
      const container = document.createElement('div');
      this.element.appendChild(container);
      const v = this._view;
      const gl = new maplibregl.Map({
        container, style: this._styleURL(), center: [v.longitude, v.latitude], zoom: v.zoom, bearing: v.bearing,
        attributionControl: { compact: false, customAttribution: '© OpenStreetMap contributors' },
        transformRequest: (url, kind) => this._transformRequest(url, kind),
        maxPitch: 0, dragRotate: this._settings.isRotationEnabled, pitchWithRotate: false,
      });
      this._gl = gl;
      this._maplibregl = maplibregl;
      this._currentStyle = this._styleURL();
      gl.touchPitch && gl.touchPitch.disable();
      gl.setPadding(this._glPadding());
      this._applyInteraction();
      this._applyControls();
      if (this._settings.cameraBoundary) this.cameraBoundary = this._settings.cameraBoundary;
      this._applyZoomRange();
      this._wireEvents();
      // MapLibre's own errors (a style or tile it could not load), said once with what to do.
      gl.on('error', (event) => {
        const message = String(event && event.error && event.error.message || event && event.error || 'unknown');
        if (this._reportedError === message) return;
        this._reportedError = message;
        const hint = /Failed to fetch|NetworkError|CORS/i.test(message) && location.origin !== serverOrigin
          ? ` (a page on another origin than ${serverOrigin} needs the server to allow it: openmapkit serve --cors-origin ${location.origin === 'null' ? "'*'" : location.origin})` : '';
        console.error(`mapkit.Map: ${message}${hint}`);
      });
      // Overlays can be added once the style is there. It is replaced on a colour scheme or map
      // type change, taking the overlays' sources and layers with it: they go back on top.
      gl.on('style.load', () => {
        this._styleReady = true;
        this._applyPointOfInterestFilter();
        for (const overlay of this._overlays) overlay._attach(this);
      });
      for (const annotation of this._annotations) annotation._attach(this);
      if (this._userLocation) this._userLocation._attach(this);
      this._scheduleLayout();
    }

    _transformRequest(url, kind) {
      // Vector tiles (and raster tiles) from this server carry the token as ?key= when there is
      // one: a server with keys checks it on rendered tiles, and a key in a header cannot be
      // attached to every resource MapLibre fetches.
      if (auth.token && url.startsWith(serverOrigin + '/') && (kind === 'Tile' || /\/tiles\/|\.png(\?|$)/.test(url))) {
        const u = new URL(url);
        u.searchParams.set('key', auth.token);
        return { url: u.href };
      }
      return { url };
    }

    _styleName() {
      const s = this._settings;
      let dark = s.colorScheme === ColorSchemes.Dark;
      if (s.colorScheme === ColorSchemes.Adaptive) dark = window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches;
      if (dark) return 'dark';
      return s.mapType === MapTypes.MutedStandard ? 'muted' : 'standard';
    }

    _styleURL() { return serverURL(`styles/${this._styleName()}.json`); }

    _size() {
      const r = this.element.getBoundingClientRect();
      return { width: r.width || 512, height: r.height || 512 };
    }

    _glPadding() { const p = this._settings.padding; return { top: p.top, right: p.right, bottom: p.bottom, left: p.left }; }

    _applyInteraction() {
      const gl = this._gl, s = this._settings;
      if (!gl) return;
      const toggle = (handler, on) => handler && (on ? handler.enable() : handler.disable());
      toggle(gl.dragRotate, s.isRotationEnabled);
      if (gl.touchZoomRotate) {
        toggle(gl.touchZoomRotate, s.isZoomEnabled);
        if (s.isRotationEnabled) gl.touchZoomRotate.enableRotation(); else gl.touchZoomRotate.disableRotation();
      }
      toggle(gl.keyboard, s.isScrollEnabled || s.isZoomEnabled);
      toggle(gl.dragPan, s.isScrollEnabled);
      toggle(gl.scrollZoom, s.isZoomEnabled);
      toggle(gl.doubleClickZoom, s.isZoomEnabled);
      toggle(gl.boxZoom, s.isZoomEnabled);
    }

    _applyControls() {
      const gl = this._gl, s = this._settings, maplibregl = this._maplibregl;
      if (!gl) return;
      for (const control of this._controls || []) gl.removeControl(control);
      this._controls = [];
      const compass = s.showsCompass !== FeatureVisibility.Hidden;
      if (compass || s.showsZoomControl) {
        const nav = new maplibregl.NavigationControl({ showCompass: compass, showZoom: !!s.showsZoomControl, visualizePitch: false });
        gl.addControl(nav, 'top-right');
        this._controls.push(nav);
      }
      if (s.showsScale !== FeatureVisibility.Hidden) {
        const unit = s.distances === Distances.Imperial || (s.distances === Distances.Adaptive && /^en-US|^en-LR|^my/.test(language)) ? 'imperial' : 'metric';
        const scale = new maplibregl.ScaleControl({ unit });
        gl.addControl(scale, 'bottom-left');
        this._controls.push(scale);
        this._scaleControl = scale;
      }
      if (s.showsMapTypeControl) {
        const control = new MapTypeControl(this);
        gl.addControl(control, 'top-right');
        this._controls.push(control);
      }
      if (s.showsUserLocationControl) {
        const control = new UserLocationControl(this);
        gl.addControl(control, 'top-right');
        this._controls.push(control);
      }
      this._updateAdaptiveControls(false);
    }

    // Adaptive compass: only while the map is rotated. Adaptive scale: only while zooming.
    _updateAdaptiveControls(zooming) {
      const s = this._settings;
      this.element.classList.toggle('mk-hide-compass', s.showsCompass === FeatureVisibility.Adaptive && Math.abs(this.rotation % 360) < 0.5);
      const scale = this._scaleControl && this._scaleControl._container;
      if (scale && s.showsScale === FeatureVisibility.Adaptive) scale.style.visibility = zooming ? 'visible' : 'hidden';
    }

    // The map's own point-of-interest labels (the style's layers on the `poi` source layer):
    // hidden when the filter excludes every category, else narrowed to the categories' classes.
    _applyPointOfInterestFilter() {
      const gl = this._gl, filter = this._settings.pointOfInterestFilter;
      if (!gl || !this._styleReady) return;
      const visible = !(filter && filter._excludesAll);
      const test = filter && !filter._excludesAll && !filter._includesAll ? filter._openMapTilesTest() : null;
      this._styleFilters = this._styleFilters || {};
      for (const layer of gl.getStyle().layers) {
        if (layer['source-layer'] !== 'poi') continue;
        // The style's own filter, kept from before any narrowing (per style: it is replaced on a change).
        const key = `${this._currentStyle}|${layer.id}`;
        if (!(key in this._styleFilters)) this._styleFilters[key] = layer.filter === undefined ? null : layer.filter;
        const own = this._styleFilters[key];
        gl.setFilter(layer.id, test ? (own ? ['all', own, test] : test) : own);
        gl.setLayoutProperty(layer.id, 'visibility', visible ? 'visible' : 'none');
      }
    }

    _wireEvents() {
      const gl = this._gl;
      const forward = (from, to) => gl.on(from, () => this.dispatchEvent(mapkitEvent(to, {})));
      forward('movestart', 'region-change-start');
      forward('moveend', 'region-change-end');
      forward('rotatestart', 'rotation-start');
      forward('rotateend', 'rotation-end');
      forward('dragstart', 'scroll-start');
      gl.on('dragstart', () => { this._settings.tracksUserLocation = false; });
      forward('dragend', 'scroll-end');
      gl.on('zoomstart', () => { this._updateAdaptiveControls(true); this.dispatchEvent(mapkitEvent('zoom-start', {})); });
      gl.on('zoomend', () => {
        clearTimeout(this._scaleTimer);
        this._scaleTimer = setTimeout(() => this._updateAdaptiveControls(false), 1200);
        this.dispatchEvent(mapkitEvent('zoom-end', {}));
      });
      gl.on('rotate', () => this._updateAdaptiveControls(true));
      gl.on('click', (e) => { if (this._longPressed) { this._longPressed = false; return; } this._tapped(e); });
      gl.on('moveend', () => { if (this._settings.cameraZoomRange) this._applyZoomRange(); this._scheduleLayout(); });
      // long-press: half a second held without moving (MapLibre has no such event).
      const canvas = gl.getCanvasContainer();
      let press = null;
      const cancel = () => { if (press) clearTimeout(press.timer); press = null; };
      canvas.addEventListener('pointerdown', (e) => {
        cancel();
        if (!e.isPrimary || e.button !== 0 || (e.target.closest && e.target.closest('.mk-annotation'))) return;
        this._longPressed = false;
        press = { x: e.clientX, y: e.clientY, timer: setTimeout(() => {
          this._longPressed = true;
          this.dispatchEvent(mapkitEvent('long-press', {
            pointOnPage: new DOMPoint(press.x + window.scrollX, press.y + window.scrollY), domEvents: [e],
          }));
          press = null;
        }, 500) };
      });
      canvas.addEventListener('pointermove', (e) => { if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 6) cancel(); });
      canvas.addEventListener('pointerup', cancel);
      canvas.addEventListener('pointercancel', cancel);
      gl.on('dblclick', (e) => this.dispatchEvent(mapkitEvent('double-tap', { pointOnPage: this._pointOnPage(e.point), domEvents: [e.originalEvent] })));
    }

    _pointOnPage(point) {
      const r = this.element.getBoundingClientRect();
      return new DOMPoint(point.x + r.left + window.scrollX, point.y + r.top + window.scrollY);
    }

    _tapped(e) {
      // A click on an annotation is the annotation's (it selects it), and one in a callout is the
      // callout's (its accessories): neither is a tap on the map.
      const target = e.originalEvent && e.originalEvent.target;
      if (target && target.closest && target.closest('.mk-annotation, .mk-callout')) return;
      // An overlay under the tap is selected; otherwise the tap deselects and is a single-tap.
      const overlay = this._overlayAt(e.point);
      if (overlay && overlay.enabled) {
        this.selectedOverlay = overlay;
        return;
      }
      this.selectedAnnotation = null;
      this.selectedOverlay = null;
      this.dispatchEvent(mapkitEvent('single-tap', { pointOnPage: this._pointOnPage(e.point), domEvents: [e.originalEvent] }));
    }

    _overlayAt(point) {
      const layers = this._overlays.flatMap((o) => o._layerIDs()).filter((id) => this._gl.getLayer(id));
      if (!layers.length) return null;
      const features = this._gl.queryRenderedFeatures([point.x, point.y], { layers });
      for (const feature of features) {
        const overlay = this._overlays.find((o) => o._id === feature.source);
        if (overlay) return overlay;
      }
      return null;
    }

    // ---- Camera

    get center() {
      if (!this._gl) return new Coordinate(this._view.latitude, this._view.longitude);
      const c = this._gl.getCenter();
      return new Coordinate(c.lat, wrapLongitude(c.lng));
    }
    set center(value) { this.setCenterAnimated(value, false); }
    setCenterAnimated(coordinate, animate = true) {
      const c = toCoordinate(coordinate);
      if (!this._gl) { this._view.latitude = c.latitude; this._view.longitude = c.longitude; }
      else this._gl.easeTo({ center: [c.longitude, c.latitude], duration: animate ? 500 : 0 });
      return this;
    }

    get region() {
      if (!this._gl) {
        const { width, height } = this._size(), mpp = metresPerPixel(this._view.zoom, this._view.latitude);
        const latDelta = height * mpp / 111320, lonDelta = width * mpp / (111320 * Math.max(Math.cos(this._view.latitude * Math.PI / 180), 0.01));
        return new CoordinateRegion(this.center, new CoordinateSpan(latDelta, lonDelta));
      }
      const b = this._gl.getBounds();
      return new BoundingRegion(b.getNorth(), b.getEast(), b.getSouth(), b.getWest()).toCoordinateRegion();
    }
    set region(value) { this.setRegionAnimated(value, false); }
    setRegionAnimated(region, animate = true) {
      const r = new CoordinateRegion(region.center, region.span);
      if (!this._gl) {
        const { width, height } = this._size(), p = this._settings.padding;
        this._view.latitude = r.center.latitude;
        this._view.longitude = r.center.longitude;
        this._view.zoom = zoomForRegion(r, width - p.left - p.right, height - p.top - p.bottom);
        return this;
      }
      const b = r.toBoundingRegion();
      this._gl.fitBounds([[r.center.longitude - r.span.longitudeDelta / 2, b.southLatitude], [r.center.longitude + r.span.longitudeDelta / 2, b.northLatitude]],
        { animate: !!animate, duration: animate ? 600 : 0, bearing: this._gl.getBearing(), padding: 0, linear: true });
      return this;
    }

    get visibleMapRect() { return this.region.toMapRect(); }
    set visibleMapRect(rect) { this.region = rect.toCoordinateRegion(); }
    setVisibleMapRectAnimated(rect, animate = true) { return this.setRegionAnimated(rect.toCoordinateRegion(), animate); }

    get rotation() {
      const bearing = this._gl ? this._gl.getBearing() : this._view.bearing;
      return ((bearing % 360) + 360) % 360;
    }
    set rotation(value) { this.setRotationAnimated(value, false); }
    setRotationAnimated(degrees, animate = true) {
      if (!this._gl) this._view.bearing = Number(degrees) || 0;
      else this._gl.rotateTo(Number(degrees) || 0, { duration: animate ? 500 : 0 });
      return this;
    }

    get cameraDistance() {
      const zoom = this._gl ? this._gl.getZoom() : this._view.zoom;
      return cameraDistanceForZoom(zoom, this.center.latitude, this._size().height);
    }
    set cameraDistance(value) { this.setCameraDistanceAnimated(value, false); }
    setCameraDistanceAnimated(distance, animate = true) {
      const zoom = zoomForCameraDistance(Number(distance), this.center.latitude, this._size().height);
      if (!this._gl) this._view.zoom = zoom;
      else this._gl.easeTo({ zoom, duration: animate ? 500 : 0 });
      return this;
    }

    get cameraBoundary() { return this._settings.cameraBoundary; }
    set cameraBoundary(value) {
      const region = value == null ? null : (value instanceof MapRect ? value.toCoordinateRegion() : new CoordinateRegion(value.center, value.span));
      this._settings.cameraBoundary = region;
      if (!this._gl) return;
      if (!region) { this._gl.setMaxBounds(null); return; }
      const b = region.toBoundingRegion();
      this._gl.setMaxBounds([[b.westLongitude, b.southLatitude], [b.eastLongitude, b.northLatitude]]);
    }
    setCameraBoundaryAnimated(value) { this.cameraBoundary = value; return this; }

    // The nearest and farthest camera distances allowed, as MapLibre's zoom limits. A distance is
    // a zoom only at a latitude, so the limits are worked out again at the end of each move.
    get cameraZoomRange() { return this._settings.cameraZoomRange || new CameraZoomRange(); }
    set cameraZoomRange(value) {
      this._settings.cameraZoomRange = value == null ? null
        : new CameraZoomRange(value.minCameraDistance, value.maxCameraDistance);
      this._applyZoomRange();
    }
    setCameraZoomRangeAnimated(value) { this.cameraZoomRange = value; return this; }

    _applyZoomRange() {
      const gl = this._gl, range = this._settings.cameraZoomRange;
      if (!gl) return;
      if (!range) { gl.setMinZoom(null); gl.setMaxZoom(null); return; }
      const latitude = this.center.latitude, height = this._size().height;
      const maxZoom = range.minCameraDistance > 0 ? zoomForCameraDistance(range.minCameraDistance, latitude, height) : 22;
      const minZoom = isFinite(range.maxCameraDistance) ? zoomForCameraDistance(range.maxCameraDistance, latitude, height) : 0;
      gl.setMaxZoom(Math.max(0, Math.min(24, maxZoom)));
      gl.setMinZoom(Math.max(0, Math.min(gl.getMaxZoom(), minZoom)));
    }

    // Frames the items (annotations and overlays, added to the map if they are not on it).
    showItems(items, options) {
      const list = flattenItems(items);
      const o = options || {};
      const points = [];
      for (const item of list) {
        if (item instanceof Annotation) { if (item.map !== this) this.addAnnotation(item); points.push(item.coordinate); }
        else if (item instanceof Overlay) { if (item.map !== this) this.addOverlay(item); points.push(...item._allCoordinates()); }
      }
      if (!points.length) return list;
      let south = 90, north = -90, west = 180, east = -180;
      for (const c of points) {
        south = Math.min(south, c.latitude); north = Math.max(north, c.latitude);
        west = Math.min(west, c.longitude); east = Math.max(east, c.longitude);
      }
      if (o.minimumSpan) {
        const grow = (min, lo, hi) => { const d = Math.max(0, min - (hi - lo)) / 2; return [lo - d, hi + d]; };
        [south, north] = grow(o.minimumSpan.latitudeDelta, south, north);
        [west, east] = grow(o.minimumSpan.longitudeDelta, west, east);
      }
      const padding = toPadding(o.padding || 0);
      const animate = o.animate !== false && o.animate !== undefined ? true : !!o.animate;
      const region = new BoundingRegion(north, east, south, west).toCoordinateRegion();
      if (!this._gl) {
        const { width, height } = this._size();
        this._view.latitude = region.center.latitude;
        this._view.longitude = region.center.longitude;
        this._view.zoom = Math.min(18, zoomForRegion(region, width - padding.left - padding.right, height - padding.top - padding.bottom));
        return list;
      }
      this._gl.fitBounds([[west, south], [east, north]], {
        padding: { top: padding.top, right: padding.right, bottom: padding.bottom, left: padding.left },
        animate, duration: animate ? 600 : 0, maxZoom: 18, bearing: this._gl.getBearing(),
      });
      return list;
    }

    convertPointOnPageToCoordinate(point) {
      const r = this.element.getBoundingClientRect();
      const x = point.x - r.left - window.scrollX, y = point.y - r.top - window.scrollY;
      if (!this._gl) return this.center;
      const c = this._gl.unproject([x, y]);
      return new Coordinate(c.lat, wrapLongitude(c.lng));
    }

    convertCoordinateToPointOnPage(coordinate) {
      const c = toCoordinate(coordinate);
      if (!this._gl) return new DOMPoint(NaN, NaN);
      return this._pointOnPage(this._gl.project([c.longitude, c.latitude]));
    }

    // ---- Appearance and interaction

    get colorScheme() { return this._settings.colorScheme; }
    set colorScheme(value) {
      this._settings.colorScheme = Object.values(ColorSchemes).includes(value) ? value : ColorSchemes.Light;
      this._restyle();
    }

    get mapType() { return this._settings.mapType; }
    set mapType(value) {
      let type = Object.values(MapTypes).includes(value) ? value : MapTypes.Standard;
      if (type === MapTypes.Hybrid || type === MapTypes.Satellite) {
        // No aerial imagery on this server: the standard map, said once.
        if (!warnedMapType) console.warn(`mapkit.Map: mapType "${type}" needs satellite imagery, which this server does not have; showing the standard map`);
        warnedMapType = true;
        type = MapTypes.Standard;
      }
      const changed = type !== this._settings.mapType;
      this._settings.mapType = type;
      this._restyle();
      if (changed) this.dispatchEvent(mapkitEvent('map-type-change', {}));
    }

    _restyle() {
      if (!this._gl) return;
      const url = this._styleURL();
      if (url !== this._currentStyle) {
        this._currentStyle = url;
        this._styleReady = false;
        // Not diffed: a full reload fires style.load, where the overlays are added again.
        this._gl.setStyle(url, { diff: false });
      }
      if (this._mapTypeControl) this._mapTypeControl.update();
    }

    get showsCompass() { return this._settings.showsCompass; }
    set showsCompass(value) { this._settings.showsCompass = value === true ? FeatureVisibility.Visible : value === false ? FeatureVisibility.Hidden : value; this._applyControls(); }
    get showsZoomControl() { return this._settings.showsZoomControl; }
    set showsZoomControl(value) { this._settings.showsZoomControl = !!value; this._applyControls(); }
    get showsMapTypeControl() { return this._settings.showsMapTypeControl; }
    set showsMapTypeControl(value) { this._settings.showsMapTypeControl = !!value; this._applyControls(); }
    get showsScale() { return this._settings.showsScale; }
    set showsScale(value) { this._settings.showsScale = value === true ? FeatureVisibility.Visible : value === false ? FeatureVisibility.Hidden : value; this._applyControls(); }
    get distances() { return this._settings.distances; }
    set distances(value) { this._settings.distances = value; this._applyControls(); }
    get isRotationEnabled() { return this._settings.isRotationEnabled; }
    set isRotationEnabled(value) { this._settings.isRotationEnabled = !!value; this._applyInteraction(); }
    get isScrollEnabled() { return this._settings.isScrollEnabled; }
    set isScrollEnabled(value) { this._settings.isScrollEnabled = !!value; this._applyInteraction(); }
    get isZoomEnabled() { return this._settings.isZoomEnabled; }
    set isZoomEnabled(value) { this._settings.isZoomEnabled = !!value; this._applyInteraction(); }
    get isRotationAvailable() { return true; }

    get padding() { return this._settings.padding; }
    set padding(value) {
      this._settings.padding = toPadding(value);
      if (this._gl) this._gl.setPadding(this._glPadding());
    }

    get pointOfInterestFilter() { return this._settings.pointOfInterestFilter; }
    set pointOfInterestFilter(value) {
      this._settings.pointOfInterestFilter = value || null;
      this._applyPointOfInterestFilter();
    }
    // MapKit JS's older switch for the same labels: all or none.
    get showsPointsOfInterest() { const f = this._settings.pointOfInterestFilter; return !(f && f._excludesAll); }
    set showsPointsOfInterest(value) {
      this.pointOfInterestFilter = value ? PointOfInterestFilter.filterIncludingAllCategories : PointOfInterestFilter.filterExcludingAllCategories;
    }

    // The tint of the user location dot and of this library's controls (the map type and user
    // location buttons); MapLibre's zoom and compass buttons keep their own icons.
    get tintColor() { return this._settings.tintColor || null; }
    set tintColor(value) {
      this._settings.tintColor = value || null;
      if (value) this.element.style.setProperty('--mk-tint', value); else this.element.style.removeProperty('--mk-tint');
    }

    get showsUserLocationControl() { return !!this._settings.showsUserLocationControl; }
    set showsUserLocationControl(value) { this._settings.showsUserLocationControl = !!value; this._applyControls(); }

    // ---- Annotations

    get annotations() { return this._annotations.slice(); }
    set annotations(list) { this.removeAnnotations(this._annotations.slice()); this.addAnnotations(list || []); }
    addAnnotation(annotation) {
      if (!(annotation instanceof Annotation)) throw new TypeError('addAnnotation takes a mapkit.Annotation');
      if (annotation.map === this) return annotation;
      if (annotation.map) annotation.map.removeAnnotation(annotation);
      this._annotations.push(annotation);
      annotation._map = this;
      if (this._gl) annotation._attach(this);
      this._scheduleLayout();
      if (annotation._selected) this.selectedAnnotation = annotation;
      return annotation;
    }
    addAnnotations(list) { list.forEach((a) => this.addAnnotation(a)); return list; }
    removeAnnotation(annotation) {
      const index = this._annotations.indexOf(annotation);
      if (index < 0) return annotation;
      if (this._selectedAnnotation === annotation) this.selectedAnnotation = null;
      this._annotations.splice(index, 1);
      annotation._detach();
      annotation._setLayoutHidden(false);
      annotation._map = null;
      this._scheduleLayout();
      return annotation;
    }
    removeAnnotations(list) { list.slice().forEach((a) => this.removeAnnotation(a)); return list; }

    get selectedAnnotation() { return this._selectedAnnotation; }
    set selectedAnnotation(annotation) {
      const previous = this._selectedAnnotation;
      if (previous === annotation) return;
      if (annotation && (annotation.map !== this || !annotation.enabled)) return;
      if (previous) {
        this._selectedAnnotation = null;
        previous._setSelected(false);
        previous.dispatchEvent(mapkitEvent('deselect', {}));
        this.dispatchEvent(mapkitEvent('deselect', { annotation: previous }));
      }
      if (annotation) {
        if (this._selectedOverlay) this.selectedOverlay = null;
        this._selectedAnnotation = annotation;
        annotation._setSelected(true);
        annotation.dispatchEvent(mapkitEvent('select', {}));
        this.dispatchEvent(mapkitEvent('select', { annotation }));
      }
    }

    // ---- Overlays

    get overlays() { return this._overlays.slice(); }
    set overlays(list) { this.removeOverlays(this._overlays.slice()); this.addOverlays(list || []); }
    addOverlay(overlay) {
      if (!(overlay instanceof Overlay)) throw new TypeError('addOverlay takes a mapkit.Overlay');
      if (overlay.map === this) return overlay;
      if (overlay.map) overlay.map.removeOverlay(overlay);
      this._overlays.push(overlay);
      overlay._map = this;
      if (this._gl && this._styleReady) overlay._attach(this);
      return overlay;
    }
    addOverlays(list) { list.forEach((o) => this.addOverlay(o)); return list; }
    removeOverlay(overlay) {
      const index = this._overlays.indexOf(overlay);
      if (index < 0) return overlay;
      if (this._selectedOverlay === overlay) this.selectedOverlay = null;
      this._overlays.splice(index, 1);
      overlay._detach();
      overlay._map = null;
      return overlay;
    }
    removeOverlays(list) { list.slice().forEach((o) => this.removeOverlay(o)); return list; }
    get topOverlays() { return this.overlays; }
    topOverlayAtPoint(point) {
      if (!this._gl) return null;
      const r = this.element.getBoundingClientRect();
      return this._overlayAt({ x: point.x - r.left - window.scrollX, y: point.y - r.top - window.scrollY });
    }
    overlaysAtPoint(point) { const top = this.topOverlayAtPoint(point); return top ? [top] : []; }

    get selectedOverlay() { return this._selectedOverlay; }
    set selectedOverlay(overlay) {
      const previous = this._selectedOverlay;
      if (previous === overlay) return;
      if (overlay && overlay.map !== this) return;
      if (previous) {
        this._selectedOverlay = null;
        previous._selected = false;
        previous.dispatchEvent(mapkitEvent('deselect', {}));
        this.dispatchEvent(mapkitEvent('deselect', { overlay: previous }));
      }
      if (overlay) {
        if (this._selectedAnnotation) this.selectedAnnotation = null;
        this._selectedOverlay = overlay;
        overlay._selected = true;
        overlay.dispatchEvent(mapkitEvent('select', {}));
        this.dispatchEvent(mapkitEvent('select', { overlay }));
      }
    }

    // ---- Clustering and collisions, worked out after each move and each change of annotations.
    // Annotations sharing a clusteringIdentifier that lie within a marker's width of one another
    // are shown as one cluster annotation (a marker with their count, or annotationForCluster's);
    // then an annotation below DisplayPriority.Required that overlaps a more important one (by
    // its collisionMode's shape, grown by its padding) is hidden.

    get annotationForCluster() { return this._annotationForCluster || null; }
    set annotationForCluster(value) { this._annotationForCluster = typeof value === 'function' ? value : null; this._clearClusters(); this._scheduleLayout(); }

    _scheduleLayout() {
      if (!this._gl || this._layoutFrame) return;
      this._layoutFrame = requestAnimationFrame(() => { this._layoutFrame = 0; this._layoutAnnotations(); });
    }

    _clearClusters() {
      for (const cluster of (this._clusters || new Map()).values()) {
        if (this._selectedAnnotation === cluster) this.selectedAnnotation = null;
        cluster._detach();
      }
      this._clusters = new Map();
    }

    _layoutAnnotations() {
      const gl = this._gl;
      if (!gl || this._destroyed) return;
      const project = (c) => gl.project([c.longitude, c.latitude]);
      const byPriority = (x, y) => y.displayPriority - x.displayPriority;
      const groups = new Map();
      for (const a of this._annotations) {
        if (a.clusteringIdentifier && a._visible) {
          if (!groups.has(a.clusteringIdentifier)) groups.set(a.clusteringIdentifier, []);
          groups.get(a.clusteringIdentifier).push(a);
        }
      }
      const clustered = new Set(), wanted = [];
      for (const [id, members] of groups) {
        const points = members.map((a) => ({ a, p: project(a.coordinate) })).sort((x, y) => byPriority(x.a, y.a));
        for (const seed of points) {
          if (clustered.has(seed.a)) continue;
          const near = points.filter((o) => !clustered.has(o.a) && Math.hypot(o.p.x - seed.p.x, o.p.y - seed.p.y) < CLUSTER_DISTANCE);
          if (near.length < 2) continue;
          near.forEach((o) => clustered.add(o.a));
          wanted.push({ id, members: near.map((o) => o.a) });
        }
      }
      // The same members keep their cluster annotation (and its selection).
      const previous = this._clusters || new Map(), next = new Map();
      for (const { id, members } of wanted) {
        const key = `${id}|${members.map((a) => a._uid).sort((x, y) => x - y).join(',')}`;
        next.set(key, previous.get(key) || this._makeCluster(id, members));
        previous.delete(key);
      }
      this._clusters = previous;
      this._clearClusters();
      this._clusters = next;
      for (const a of this._annotations) a._setLayoutHidden(clustered.has(a));
      for (const cluster of next.values()) cluster._setLayoutHidden(false);

      const placed = [];
      const shown = this._annotations.filter((a) => !clustered.has(a) && a._visible && a._element).concat([...next.values()]).sort(byPriority);
      for (const a of shown) {
        const r = a._element.getBoundingClientRect(), p = a.padding || new Padding(0, 0, 0, 0);
        const box = { left: r.left - p.left, top: r.top - p.top, right: r.right + p.right, bottom: r.bottom + p.bottom, circle: a.collisionMode === CollisionMode.Circle };
        const hideable = a.displayPriority < DisplayPriority.Required && a.collisionMode !== CollisionMode.None && a !== this._selectedAnnotation;
        if (hideable && placed.some((b) => collides(box, b))) { a._setLayoutHidden(true); continue; }
        if (a.collisionMode !== CollisionMode.None) placed.push(box);
      }
    }

    _makeCluster(id, members) {
      const latitude = members.reduce((sum, a) => sum + a.coordinate.latitude, 0) / members.length;
      const longitude = members.reduce((sum, a) => sum + a.coordinate.longitude, 0) / members.length;
      const first = members[0];
      let cluster = new MarkerAnnotation(new Coordinate(latitude, longitude), {
        glyphText: String(members.length), color: first instanceof MarkerAnnotation ? first.color : undefined,
        title: first.title, subtitle: `+${members.length - 1} more`, clusteringIdentifier: id,
      });
      cluster.memberAnnotations = members;
      if (this._annotationForCluster) {
        const custom = this._annotationForCluster(cluster);
        if (custom instanceof Annotation) { custom.memberAnnotations = members; cluster = custom; }
      }
      cluster._map = this;
      cluster._attach(this);
      return cluster;
    }

    // ---- User location, from the browser's Geolocation API (the page must be allowed to ask).

    get showsUserLocation() { return !!this._settings.showsUserLocation; }
    set showsUserLocation(value) {
      this._settings.showsUserLocation = !!value;
      if (!value) this._settings.tracksUserLocation = false;
      this._watchUserLocation();
    }
    // Following the user's location also shows it; a drag of the map stops following, as MapKit's.
    get tracksUserLocation() { return !!this._settings.tracksUserLocation; }
    set tracksUserLocation(value) {
      this._settings.tracksUserLocation = !!value;
      if (value) this._settings.showsUserLocation = true;
      this._watchUserLocation();
      if (value && this._userLocation) this.setCenterAnimated(this._userLocation.coordinate, true);
    }
    get userLocationAnnotation() { return this._userLocation || null; }

    _watchUserLocation() {
      const wanted = this._settings.showsUserLocation && !this._destroyed;
      if (wanted && this._geolocationWatch === undefined) {
        if (!navigator.geolocation) {
          this.dispatchEvent(mapkitEvent('user-location-error', { code: 2, message: 'this browser has no Geolocation API' }));
          return;
        }
        this._geolocationWatch = navigator.geolocation.watchPosition((position) => {
          const coordinate = new Coordinate(position.coords.latitude, position.coords.longitude);
          if (!this._userLocation) {
            this._userLocation = new Annotation(coordinate, () => {
              const dot = document.createElement('div');
              dot.className = 'mk-user-location';
              return dot;
            }, { title: 'My Location', anchorOffset: new DOMPoint(0, 9), calloutEnabled: false });
            this._userLocation._map = this;
            if (this._gl) this._userLocation._attach(this);
          } else {
            this._userLocation.coordinate = coordinate;
          }
          this.dispatchEvent(mapkitEvent('user-location-change', { coordinate, timestamp: new Date(position.timestamp) }));
          if (this._settings.tracksUserLocation) this.setCenterAnimated(coordinate, true);
        }, (error) => {
          this.dispatchEvent(mapkitEvent('user-location-error', { code: error.code, message: error.message }));
        }, { enableHighAccuracy: true });
      } else if (!wanted && this._geolocationWatch !== undefined) {
        navigator.geolocation.clearWatch(this._geolocationWatch);
        this._geolocationWatch = undefined;
        if (this._userLocation) this._userLocation._detach();
        this._userLocation = null;
      }
    }

    // Annotations, overlays, arrays of them and item collections (from importGeoJSON).
    addItems(items) { const list = flattenItems(items); list.forEach((i) => (i instanceof Overlay ? this.addOverlay(i) : this.addAnnotation(i))); return list; }
    removeItems(items) { const list = flattenItems(items); list.forEach((i) => (i instanceof Overlay ? this.removeOverlay(i) : this.removeAnnotation(i))); return list; }

    destroy() {
      if (this._destroyed) return;
      this._destroyed = true;
      this._watchUserLocation();
      this._clearClusters();
      for (const a of this._annotations) a._detach();
      if (this._gl) this._gl.remove();
      this._gl = null;
      this.element.remove();
      const index = maps.indexOf(this);
      if (index >= 0) maps.splice(index, 1);
    }
  }
  MapKitMap.ColorSchemes = ColorSchemes;
  MapKitMap.MapTypes = MapTypes;
  MapKitMap.Distances = Distances;

  // The user location control: a button that shows and follows the user's location.
  class UserLocationControl {
    constructor(map) { this.map = map; }
    onAdd() {
      this.container = document.createElement('div');
      this.container.className = 'maplibregl-ctrl maplibregl-ctrl-group mk-user-location-control';
      const button = document.createElement('button');
      button.type = 'button';
      button.title = 'Show my location';
      button.setAttribute('aria-label', 'Show my location');
      button.textContent = '➤';
      button.addEventListener('click', () => { this.map.tracksUserLocation = true; });
      this.container.appendChild(button);
      return this.container;
    }
    onRemove() { this.container.remove(); }
  }

  // The map type control: the map types this server can draw.
  class MapTypeControl {
    constructor(map) { this.map = map; }
    onAdd() {
      this.container = document.createElement('div');
      this.container.className = 'maplibregl-ctrl maplibregl-ctrl-group mk-map-type-control';
      for (const [label, type] of [['Map', MapTypes.Standard], ['Muted', MapTypes.MutedStandard]]) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = label;
        button.dataset.mapType = type;
        button.addEventListener('click', () => { this.map.mapType = type; });
        this.container.appendChild(button);
      }
      this.map._mapTypeControl = this;
      this.update();
      return this.container;
    }
    update() {
      for (const b of this.container.querySelectorAll('button')) b.classList.toggle('mk-active', b.dataset.mapType === this.map.mapType);
    }
    onRemove() { this.container.remove(); if (this.map._mapTypeControl === this) this.map._mapTypeControl = null; }
  }

  // ---------------------------------------------------------------------------------------------
  // Annotations: DOM elements placed with MapLibre markers, anchored at their bottom centre.

  const DisplayPriority = Object.freeze({ Low: 250, High: 750, Required: 1000 });
  const CollisionMode = Object.freeze({ Rectangle: 'rectangle', Circle: 'circle', None: 'none' });

  let annotationCounter = 0;
  // How close (CSS pixels) annotations of one clusteringIdentifier must be to form a cluster.
  const CLUSTER_DISTANCE = 36;

  // Whether two collision frames overlap: rectangles, or the circles inside them.
  function collides(a, b) {
    if (a.circle && b.circle) {
      const ra = Math.min(a.right - a.left, a.bottom - a.top) / 2, rb = Math.min(b.right - b.left, b.bottom - b.top) / 2;
      return Math.hypot((a.left + a.right - b.left - b.right) / 2, (a.top + a.bottom - b.top - b.bottom) / 2) < ra + rb;
    }
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }

  class Annotation extends EventSource {
    constructor(coordinate, factory, options) {
      super();
      const o = options || {};
      this._coordinate = toCoordinate(coordinate);
      this._map = null;
      this._selected = !!o.selected;
      this.data = o.data !== undefined ? o.data : {};
      this._title = o.title || '';
      this._subtitle = o.subtitle || '';
      this.enabled = o.enabled !== undefined ? !!o.enabled : true;
      this._visible = o.visible !== undefined ? !!o.visible : true;
      this._draggable = !!o.draggable;
      this.calloutEnabled = o.calloutEnabled !== undefined ? !!o.calloutEnabled : true;
      this.callout = o.callout || null;
      this.animates = o.animates !== undefined ? !!o.animates : true;
      this.appearanceAnimation = o.appearanceAnimation || '';
      this._anchorOffset = o.anchorOffset || new DOMPoint(0, 0);
      this.calloutOffset = o.calloutOffset || new DOMPoint(0, 0);
      this.accessibilityLabel = o.accessibilityLabel || null;
      this._size = o.size || null;
      // Clustering and collisions (see the map's _layoutAnnotations).
      this.clusteringIdentifier = o.clusteringIdentifier || null;
      this.displayPriority = o.displayPriority !== undefined ? Number(o.displayPriority) : DisplayPriority.Required;
      this.collisionMode = o.collisionMode || CollisionMode.Rectangle;
      this.padding = o.padding ? toPadding(o.padding) : new Padding(0, 0, 0, 0);
      this._uid = ++annotationCounter;
      this._element = factory ? factory(this._coordinate, o) : null;
      if (factory && !(this._element instanceof Element)) throw new TypeError('mapkit.Annotation: the factory must return a DOM element');
    }

    get coordinate() { return this._coordinate; }
    set coordinate(value) {
      this._coordinate = toCoordinate(value);
      if (this._marker) this._marker.setLngLat([this._coordinate.longitude, this._coordinate.latitude]);
    }
    get map() { return this._map; }
    get element() { return this._element; }
    get title() { return this._title; }
    set title(value) { this._title = value || ''; this._refresh(); }
    get subtitle() { return this._subtitle; }
    set subtitle(value) { this._subtitle = value || ''; this._refresh(); }
    get visible() { return this._visible; }
    set visible(value) { this._visible = !!value; if (this._element) this._element.style.visibility = this._visible ? '' : 'hidden'; }
    get draggable() { return this._draggable; }
    set draggable(value) { this._draggable = !!value; if (this._marker) this._marker.setDraggable(this._draggable); }
    get anchorOffset() { return this._anchorOffset; }
    set anchorOffset(value) { this._anchorOffset = value; if (this._marker) this._marker.setOffset([value.x, value.y]); }
    get size() { return this._size; }
    set size(value) { this._size = value; this._applySize(); }
    get selected() { return this._selected; }
    set selected(value) {
      if (this._map) this._map.selectedAnnotation = value ? this : (this._map.selectedAnnotation === this ? null : this._map.selectedAnnotation);
      else this._selected = !!value;
    }

    _applySize() {
      if (this._element && this._size) {
        this._element.style.width = `${this._size.width}px`;
        this._element.style.height = `${this._size.height}px`;
      }
    }

    _refresh() { if (this._popup) this._showCallout(); }

    _attach(map) {
      if (this._marker || !map._gl) return;
      const element = this._element || (this._element = document.createElement('div'));
      element.classList.add('mk-annotation');
      if (this.accessibilityLabel || this._title) element.setAttribute('aria-label', this.accessibilityLabel || this._title);
      this._applySize();
      if (!this._visible) element.style.visibility = 'hidden';
      // A click selects the annotation (the map's tap handler leaves clicks on annotations alone).
      if (!this._clickWired) {
        this._clickWired = true;
        element.addEventListener('click', () => {
          if (this._map && this.enabled) this._map.selectedAnnotation = this;
        });
      }
      this._marker = new map._maplibregl.Marker({ element, anchor: 'bottom', offset: [this._anchorOffset.x, this._anchorOffset.y], draggable: this._draggable })
        .setLngLat([this._coordinate.longitude, this._coordinate.latitude]).addTo(map._gl);
      this._marker.on('dragstart', () => this.dispatchEvent(mapkitEvent('drag-start', { coordinate: this._markerCoordinate() })));
      this._marker.on('drag', () => {
        this._coordinate = this._markerCoordinate();
        this.dispatchEvent(mapkitEvent('dragging', { coordinate: this._coordinate }));
      });
      this._marker.on('dragend', () => {
        this._coordinate = this._markerCoordinate();
        this.dispatchEvent(mapkitEvent('drag-end', {}));
      });
      if (this.appearanceAnimation && this.animates) element.style.animation = this.appearanceAnimation;
      if (this._selected) this._setSelected(true);
    }

    _markerCoordinate() { const c = this._marker.getLngLat(); return new Coordinate(c.lat, c.lng); }

    // Hidden by the map's layout (in a cluster, or under a more important annotation), apart from
    // the page's own `visible`.
    _setLayoutHidden(hidden) {
      if (this._layoutHidden === hidden || !this._element) return;
      this._layoutHidden = hidden;
      this._element.style.display = hidden ? 'none' : '';
      if (hidden) this._hideCallout(); else if (this._selected) this._showCallout();
    }

    _detach() {
      this._hideCallout();
      if (this._marker) this._marker.remove();
      this._marker = null;
    }

    _setSelected(selected) {
      this._selected = selected;
      if (this._element) this._element.classList.toggle('mk-selected', selected);
      if (selected) this._showCallout(); else this._hideCallout();
    }

    // The callout: the delegate's element or content when given, else the title and subtitle.
    _showCallout() {
      this._hideCallout();
      const map = this._map, delegate = this.callout || {};
      if (!map || !map._gl || !this.calloutEnabled || !this._selected) return;
      if (delegate.calloutShouldAppearForAnnotation && !delegate.calloutShouldAppearForAnnotation(this)) return;
      let content = delegate.calloutElementForAnnotation ? delegate.calloutElementForAnnotation(this) : null;
      if (!content) {
        const custom = delegate.calloutContentForAnnotation ? delegate.calloutContentForAnnotation(this) : null;
        if (!custom && !this._title && !this._subtitle) return;
        content = document.createElement('div');
        content.className = 'mk-callout-content';
        const left = delegate.calloutLeftAccessoryForAnnotation && delegate.calloutLeftAccessoryForAnnotation(this);
        const right = delegate.calloutRightAccessoryForAnnotation && delegate.calloutRightAccessoryForAnnotation(this);
        if (left) { content.appendChild(left); content.style.display = 'flex'; }
        const text = document.createElement('div');
        if (custom) text.appendChild(custom);
        else {
          const title = document.createElement('div');
          title.className = 'mk-callout-title';
          title.textContent = this._title;
          text.appendChild(title);
          if (this._subtitle) {
            const subtitle = document.createElement('div');
            subtitle.className = 'mk-callout-subtitle';
            subtitle.textContent = this._subtitle;
            text.appendChild(subtitle);
          }
        }
        content.appendChild(text);
        if (right) { content.appendChild(right); content.style.display = 'flex'; }
      }
      const height = this._calloutHeight();
      const anchor = delegate.calloutAnchorOffsetForAnnotation ? delegate.calloutAnchorOffsetForAnnotation(this, { width: 0, height }) : null;
      const offset = anchor ? [anchor.x, anchor.y] : [this._anchorOffset.x + this.calloutOffset.x, this._anchorOffset.y + this.calloutOffset.y - height];
      this._popup = new map._maplibregl.Popup({ closeButton: false, closeOnClick: false, anchor: 'bottom', offset, className: 'mk-callout' })
        .setLngLat([this._coordinate.longitude, this._coordinate.latitude]).setDOMContent(content).addTo(map._gl);
    }

    _hideCallout() { if (this._popup) this._popup.remove(); this._popup = null; }

    // How far above the coordinate the callout points: the element's height.
    _calloutHeight() { return this._element ? this._element.getBoundingClientRect().height : 0; }
  }
  Annotation.DisplayPriority = DisplayPriority;
  Annotation.CollisionMode = CollisionMode;

  // A balloon with a glyph, as MapKit's marker: coloured, white glyph text or image, its title
  // under it.
  class MarkerAnnotation extends Annotation {
    constructor(coordinate, options) {
      const o = options || {};
      super(coordinate, null, o);
      this._color = o.color || '#ff5b40';
      this._glyphColor = o.glyphColor || '#ffffff';
      this._glyphText = o.glyphText || '';
      this._glyphImage = o.glyphImage || null;
      this._selectedGlyphImage = o.selectedGlyphImage || null;
      this._titleVisibility = o.titleVisibility || FeatureVisibility.Adaptive;
      this._subtitleVisibility = o.subtitleVisibility || FeatureVisibility.Adaptive;
      this._element = document.createElement('div');
      this._element.className = 'mk-marker';
      this._draw();
    }

    _draw() {
      this._element.textContent = '';
      const e = document.createElement('div');
      e.className = 'mk-marker-body';
      this._element.appendChild(e);
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('width', '30');
      svg.setAttribute('height', '38');
      svg.setAttribute('viewBox', '0 0 30 38');
      const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
      path.setAttribute('d', 'M15 37C15 37 3 24.5 3 15a12 12 0 0 1 24 0c0 9.5-12 22-12 22z');
      path.setAttribute('fill', this._color);
      path.setAttribute('stroke', 'rgba(0,0,0,0.15)');
      svg.appendChild(path);
      e.appendChild(svg);
      const glyph = document.createElement('div');
      glyph.className = 'mk-glyph';
      glyph.style.color = this._glyphColor;
      const image = this._selected && this._selectedGlyphImage ? this._selectedGlyphImage : this._glyphImage;
      if (this._glyphText) glyph.textContent = this._glyphText;
      else if (image) {
        const img = document.createElement('img');
        img.src = image[1] || image['1'] || Object.values(image)[0];
        if (image[2]) img.srcset = `${image[1]} 1x, ${image[2]} 2x${image[3] ? `, ${image[3]} 3x` : ''}`;
        img.alt = '';
        glyph.appendChild(img);
      } else {
        // MapKit's default glyph is a pin; a white dot says the same here.
        const dot = document.createElement('span');
        dot.style.cssText = `display:inline-block;width:7px;height:7px;margin-top:4px;border-radius:50%;background:${this._glyphColor}`;
        glyph.appendChild(dot);
      }
      e.appendChild(glyph);
      const lines = [];
      if (this._titleVisibility !== FeatureVisibility.Hidden && this._title) lines.push(this._title);
      if (this._subtitleVisibility === FeatureVisibility.Visible && this._subtitle) lines.push(this._subtitle);
      if (lines.length) {
        const title = document.createElement('div');
        title.className = 'mk-title';
        title.textContent = lines.join(' · ');
        e.appendChild(title);
      }
    }

    _refresh() { this._draw(); super._refresh(); }
    // The selected balloon is drawn 1.45 times its size (.mk-marker-body).
    _calloutHeight() { return 38 * (this._selected ? 1.45 : 1); }
    _setSelected(selected) { super._setSelected(selected); if (this._selectedGlyphImage) this._draw(); }

    get color() { return this._color; }
    set color(value) { this._color = value; this._draw(); }
    get glyphColor() { return this._glyphColor; }
    set glyphColor(value) { this._glyphColor = value; this._draw(); }
    get glyphText() { return this._glyphText; }
    set glyphText(value) { this._glyphText = value || ''; this._draw(); }
    get glyphImage() { return this._glyphImage; }
    set glyphImage(value) { this._glyphImage = value; this._draw(); }
    get selectedGlyphImage() { return this._selectedGlyphImage; }
    set selectedGlyphImage(value) { this._selectedGlyphImage = value; this._draw(); }
    get titleVisibility() { return this._titleVisibility; }
    set titleVisibility(value) { this._titleVisibility = value; this._draw(); }
    get subtitleVisibility() { return this._subtitleVisibility; }
    set subtitleVisibility(value) { this._subtitleVisibility = value; this._draw(); }
  }

  // An image, by device pixel ratio: url: { 1: "pin.png", 2: "pin@2x.png" }.
  class ImageAnnotation extends Annotation {
    constructor(coordinate, options) {
      const o = options || {};
      super(coordinate, null, o);
      this._element = document.createElement('img');
      this._element.alt = o.title || '';
      this.url = o.url || {};
    }
    get url() { return this._url; }
    set url(value) {
      this._url = value || {};
      const ratios = Object.keys(this._url).map(Number).filter((n) => n > 0).sort((a, b) => a - b);
      if (!ratios.length) return;
      this._element.src = this._url[ratios[0]];
      this._element.srcset = ratios.map((r) => `${this._url[r]} ${r}x`).join(', ');
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Overlays: each a MapLibre GeoJSON source with a fill and a line layer, above the map.

  // A style's drawn properties redraw the overlays that use it when they change, so a page can
  // change (or animate) `overlay.style.lineWidth` directly, as with MapKit JS.
  class Style {
    constructor(options) {
      const o = options || {};
      Object.defineProperty(this, '_overlays', { value: new Set(), enumerable: false });
      Object.defineProperty(this, '_values', { value: {}, enumerable: false });
      this.strokeColor = o.strokeColor !== undefined ? o.strokeColor : 'rgb(0, 122, 255)';
      this.strokeOpacity = o.strokeOpacity !== undefined ? o.strokeOpacity : 1;
      this.lineWidth = o.lineWidth !== undefined ? o.lineWidth : 1;
      this.lineDash = o.lineDash || [];
      if (o.lineDashOffset !== undefined) this.lineDashOffset = o.lineDashOffset;
      this.lineCap = o.lineCap || 'round';
      this.lineJoin = o.lineJoin || 'round';
      this.fillColor = o.fillColor !== undefined ? o.fillColor : 'rgb(0, 122, 255)';
      this.fillOpacity = o.fillOpacity !== undefined ? o.fillOpacity : 0.1;
      this.fillRule = o.fillRule || 'nonzero';
      for (const name of ['lineGradient', 'strokeStart', 'strokeEnd']) if (o[name] !== undefined) this[name] = o[name];
      // (fillRule is kept for reading back: MapLibre fills a polygon's first ring less the others
      // whichever rule is named, which is what both rules draw for rings that do not cross.)
    }
  }

  for (const name of ['strokeColor', 'strokeOpacity', 'lineWidth', 'lineDash', 'lineCap', 'lineJoin', 'fillColor', 'fillOpacity', 'fillRule']) {
    Object.defineProperty(Style.prototype, name, {
      get() { return this._values[name]; },
      set(value) { this._values[name] = value; for (const overlay of this._overlays) overlay._paint(); },
      enumerable: true, configurable: true,
    });
  }

  let overlayCounter = 0;

  class Overlay extends EventSource {
    constructor(options) {
      super();
      const o = options || {};
      this._id = `mapkit-overlay-${++overlayCounter}`;
      this.style = o.style;
      this.data = o.data !== undefined ? o.data : {};
      this._visible = o.visible !== undefined ? !!o.visible : true;
      this.enabled = o.enabled !== undefined ? !!o.enabled : true;
      this._selected = !!o.selected;
      this._map = null;
    }
    get map() { return this._map; }
    get style() { return this._style; }
    set style(value) {
      if (this._style) this._style._overlays.delete(this);
      this._style = value instanceof Style ? value : new Style(value);
      this._style._overlays.add(this);
      this._paint();
    }
    get visible() { return this._visible; }
    set visible(value) { this._visible = !!value; this._paint(); }
    get selected() { return this._selected; }
    set selected(value) { if (this._map) this._map.selectedOverlay = value ? this : null; else this._selected = !!value; }

    _layerIDs() { return [`${this._id}-fill`, `${this._id}-line`]; }
    _filled() { return true; }

    _attach(map) {
      const gl = map._gl;
      if (!gl || !map._styleReady) return;
      this._gl = gl;
      if (gl.getSource(this._id)) { this._update(); this._paint(); return; }
      gl.addSource(this._id, { type: 'geojson', data: this._geoJSON() });
      if (this._filled()) gl.addLayer({ id: `${this._id}-fill`, type: 'fill', source: this._id, paint: {} });
      gl.addLayer({ id: `${this._id}-line`, type: 'line', source: this._id, layout: {}, paint: {} });
      this._paint();
    }

    _detach() {
      const gl = this._gl;
      this._gl = null;
      if (!gl || !gl.getStyle()) return;
      for (const id of this._layerIDs()) if (gl.getLayer(id)) gl.removeLayer(id);
      if (gl.getSource(this._id)) gl.removeSource(this._id);
    }

    _update() { const source = this._gl && this._gl.getSource(this._id); if (source) source.setData(this._geoJSON()); }

    _paint() {
      const gl = this._gl;
      if (!gl || !gl.getLayer(`${this._id}-line`)) return;
      const s = this._style, visibility = this._visible ? 'visible' : 'none';
      const width = Number(s.lineWidth) || 0;
      gl.setLayoutProperty(`${this._id}-line`, 'visibility', width > 0 && s.strokeColor ? visibility : 'none');
      gl.setLayoutProperty(`${this._id}-line`, 'line-cap', ['butt', 'round', 'square'].includes(s.lineCap) ? s.lineCap : 'round');
      gl.setLayoutProperty(`${this._id}-line`, 'line-join', ['bevel', 'round', 'miter'].includes(s.lineJoin) ? s.lineJoin : 'round');
      if (s.strokeColor) gl.setPaintProperty(`${this._id}-line`, 'line-color', s.strokeColor);
      gl.setPaintProperty(`${this._id}-line`, 'line-opacity', Number(s.strokeOpacity));
      gl.setPaintProperty(`${this._id}-line`, 'line-width', Math.max(width, 0));
      // MapKit JS dashes are in CSS pixels, MapLibre's in line widths.
      const dash = (s.lineDash || []).map((d) => Number(d) / Math.max(width, 1));
      gl.setPaintProperty(`${this._id}-line`, 'line-dasharray', dash.length ? dash : undefined);
      if (this._filled() && gl.getLayer(`${this._id}-fill`)) {
        gl.setLayoutProperty(`${this._id}-fill`, 'visibility', s.fillColor ? visibility : 'none');
        if (s.fillColor) gl.setPaintProperty(`${this._id}-fill`, 'fill-color', s.fillColor);
        gl.setPaintProperty(`${this._id}-fill`, 'fill-opacity', Number(s.fillOpacity));
      }
    }
  }

  const lngLat = (c) => [c.longitude, c.latitude];

  class PolylineOverlay extends Overlay {
    constructor(points, options) {
      super(options);
      this._points = (points || []).map(toCoordinate);
    }
    get points() { return this._points; }
    set points(value) { this._points = (value || []).map(toCoordinate); this._update(); }
    _filled() { return false; }
    _layerIDs() { return [`${this._id}-line`]; }
    _allCoordinates() { return this._points; }
    _geoJSON() { return { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: this._points.map(lngLat) } }; }
  }

  class PolygonOverlay extends Overlay {
    // points: [Coordinate] for one ring, or [[Coordinate]] for a polygon with holes.
    constructor(points, options) {
      super(options);
      this.points = points;
    }
    get points() { return this._points; }
    set points(value) {
      const list = value || [];
      this._points = Array.isArray(list[0]) ? list.map((ring) => ring.map(toCoordinate)) : list.map(toCoordinate);
      this._update();
    }
    _rings() { return this._points.length && Array.isArray(this._points[0]) ? this._points : [this._points]; }
    _allCoordinates() { return this._rings().flat(); }
    _geoJSON() {
      const rings = this._rings().filter((r) => r.length >= 3).map((ring) => {
        const coords = ring.map(lngLat);
        coords.push(coords[0]);
        return coords;
      });
      return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: rings } };
    }
  }

  class CircleOverlay extends Overlay {
    constructor(coordinate, radius, options) {
      super(options);
      this._coordinate = toCoordinate(coordinate);
      this._radius = Number(radius) || 0;
    }
    get coordinate() { return this._coordinate; }
    set coordinate(value) { this._coordinate = toCoordinate(value); this._update(); }
    get radius() { return this._radius; }
    set radius(value) { this._radius = Number(value) || 0; this._update(); }
    _ring() {
      const ring = [];
      for (let i = 0; i < 96; i++) ring.push(destination(this._coordinate, i * 360 / 96, this._radius));
      return ring;
    }
    _allCoordinates() { return this._ring(); }
    _geoJSON() {
      const coords = this._ring().map(lngLat);
      coords.push(coords[0]);
      return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [coords] } };
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Services: Search, Geocoder, Directions, PointsOfInterestSearch over the server's /v1 API.
  //
  // Each call takes a callback (error, data) or a delegate object, and returns a Promise of the
  // same data, as MapKit JS does since 5.78. `cancel()` takes that promise (or the request id the
  // promise carries as `id`, for code written for older MapKit JS) and the callback then gets no
  // answer.

  const pending = new Map();
  let requestCounter = 0;

  // The browser's position once, for services' getsUserLocation; null when it is refused or slow.
  function currentPosition() {
    if (!navigator.geolocation) return Promise.resolve(null);
    return new Promise((resolve) => {
      navigator.geolocation.getCurrentPosition((p) => resolve(new Coordinate(p.coords.latitude, p.coords.longitude)), () => resolve(null),
        { timeout: 5000, maximumAge: 60000 });
    });
  }

  class Service {
    constructor(options) {
      const o = options || {};
      this.language = o.language || null;
      // Whether searches and geocoding send the browser's position as a hint (userLocation).
      this.getsUserLocation = !!o.getsUserLocation;
    }

    async _userLocationParameter(options) {
      const asks = options && options.getsUserLocation !== undefined ? options.getsUserLocation : this.getsUserLocation;
      if (!asks) return {};
      const position = await currentPosition();
      return position ? { userLocation: coordinateParameter(position) } : {};
    }

    _language(options) { return (options && options.language) || this.language || language; }

    _request(work, callback, delegateMethods, options) {
      const controller = new AbortController();
      const id = ++requestCounter;
      const external = options && options.signal;
      if (external) external.addEventListener('abort', () => controller.abort(), { once: true });
      const promise = (async () => work(controller.signal))();
      const entry = { controller, promise };
      pending.set(id, entry);
      const finished = (error, data) => {
        if (!pending.has(id)) return; // cancelled: no answer
        pending.delete(id);
        if (typeof callback === 'function') callback(error, data);
        else if (callback && typeof callback === 'object') {
          const [complete, fail] = delegateMethods;
          if (error && typeof callback[fail] === 'function') callback[fail](error);
          if (!error && typeof callback[complete] === 'function') callback[complete](data);
        }
      };
      promise.then((data) => finished(null, data), (error) => finished(error, null));
      // With a callback the promise's rejection is already reported there: not also as an
      // unhandled rejection.
      if (callback) promise.catch(() => {});
      promise.id = id;
      return promise;
    }

    cancel(request) {
      const id = typeof request === 'number' ? request : request && request.id;
      const entry = pending.get(id);
      if (!entry) return false;
      pending.delete(id);
      entry.controller.abort();
      return true;
    }
  }

  function regionParameter(region) {
    const b = new CoordinateRegion(region.center, region.span).toBoundingRegion();
    return `${b.northLatitude},${b.eastLongitude},${b.southLatitude},${b.westLongitude}`;
  }

  const coordinateParameter = (c) => `${toCoordinate(c).latitude},${toCoordinate(c).longitude}`;

  // A place from the API's Place JSON, with MapKit JS's field names. Fields the data does not
  // have are left out, as Apple's are.
  class Place {
    constructor(json) {
      const a = json.structuredAddress || {};
      const set = (name, value) => { if (value !== undefined && value !== null && value !== '') this[name] = value; };
      set('id', json.id);
      set('alternateIds', json.alternateIds);
      this.name = json.name || (json.formattedAddressLines || [])[0] || '';
      this.coordinate = new Coordinate(json.coordinate.latitude, json.coordinate.longitude);
      set('formattedAddress', (json.formattedAddressLines || []).join(', '));
      if (json.displayMapRegion) {
        const r = json.displayMapRegion;
        this.region = new BoundingRegion(r.northLatitude, r.eastLongitude, r.southLatitude, r.westLongitude).toCoordinateRegion();
      }
      set('country', json.country);
      set('countryCode', json.countryCode);
      for (const name of ['administrativeArea', 'administrativeAreaCode', 'subAdministrativeArea', 'locality', 'subLocality', 'postCode',
        'thoroughfare', 'subThoroughfare', 'fullThoroughfare', 'areasOfInterest', 'dependentLocalities']) set(name, a[name]);
      set('pointOfInterestCategory', json.poiCategory);
    }
  }

  class SearchAutocompleteResult {
    constructor(json) {
      this.displayLines = json.displayLines || [];
      if (json.location) this.coordinate = new Coordinate(json.location.latitude, json.location.longitude);
      // Where the server answers this completion (its place first); opaque to the page.
      Object.defineProperty(this, '_completionUrl', { value: json.completionUrl, enumerable: false });
    }
  }

  class Search extends Service {
    constructor(options) {
      super(options);
      const o = options || {};
      this.coordinate = o.coordinate || null;
      this.region = o.region || null;
      this.includeAddresses = o.includeAddresses !== undefined ? !!o.includeAddresses : true;
      this.includePointsOfInterest = o.includePointsOfInterest !== undefined ? !!o.includePointsOfInterest : true;
      this.includePhysicalFeatures = o.includePhysicalFeatures !== undefined ? !!o.includePhysicalFeatures : true;
      this.includeQueries = o.includeQueries !== undefined ? !!o.includeQueries : true;
      this.pointOfInterestFilter = o.pointOfInterestFilter || null;
      this.addressFilter = o.addressFilter || null;
      this.regionPriority = o.regionPriority || SearchRegionPriority.Default;
      this.limitToCountries = o.limitToCountries || null;
    }

    _parameters(options, forAutocomplete) {
      const o = Object.assign({}, this, options || {});
      const p = { lang: this._language(options) };
      const region = (options && (options.region || options.coordinate)) ? options.region : this.region;
      const coordinate = (options && (options.region || options.coordinate)) ? options.coordinate : this.coordinate;
      if (region) p.searchRegion = regionParameter(region);
      else if (coordinate) p.searchLocation = coordinateParameter(coordinate);
      if (o.regionPriority === SearchRegionPriority.Required && (region || coordinate)) p.searchRegionPriority = 'required';
      if (o.limitToCountries) p.limitToCountries = Array.isArray(o.limitToCountries) ? o.limitToCountries.join(',') : o.limitToCountries;
      const types = [];
      if (o.includeAddresses) types.push('Address');
      if (o.includePointsOfInterest) types.push('PointOfInterest');
      if (o.includePhysicalFeatures) types.push('PhysicalFeature');
      if (forAutocomplete && o.includeQueries) types.push('Query');
      if (types.length < (forAutocomplete ? 4 : 3)) p.resultTypeFilter = types.join(',');
      if (o.pointOfInterestFilter) Object.assign(p, o.pointOfInterestFilter._parameters());
      if (o.addressFilter) Object.assign(p, o.addressFilter._parameters());
      return p;
    }

    search(query, callback, options) {
      if (callback && typeof callback === 'object' && typeof callback.searchDidComplete !== 'function' && typeof callback.searchDidError !== 'function' && options === undefined) {
        options = callback; callback = null; // search(query, options)
      }
      return this._request(async (signal) => {
        let body;
        if (query instanceof SearchAutocompleteResult && query._completionUrl) {
          body = await apiFetch(serverURL(query._completionUrl.replace(/^\//, '')) + `&lang=${encodeURIComponent(this._language(options))}`, signal);
        } else {
          const text = query instanceof SearchAutocompleteResult ? query.displayLines.join(', ') : String(query);
          body = await apiGet('v1/search', Object.assign({ q: text }, this._parameters(options, false), await this._userLocationParameter(options)), signal);
        }
        const places = (body.results || []).map((p) => new Place(p));
        const data = { query: typeof query === 'string' ? query : (query.displayLines || []).join(', '), places };
        const r = body.displayMapRegion;
        if (r) data.boundingRegion = new BoundingRegion(r.northLatitude, r.eastLongitude, r.southLatitude, r.westLongitude).toCoordinateRegion();
        return data;
      }, callback, ['searchDidComplete', 'searchDidError'], options);
    }

    autocomplete(query, callback, options) {
      if (callback && typeof callback === 'object' && typeof callback.autocompleteDidComplete !== 'function' && typeof callback.autocompleteDidError !== 'function' && options === undefined) {
        options = callback; callback = null;
      }
      return this._request(async (signal) => {
        const body = await apiGet('v1/searchAutocomplete', Object.assign({ q: String(query) }, this._parameters(options, true), await this._userLocationParameter(options)), signal);
        return { query: String(query), results: (body.results || []).map((r) => new SearchAutocompleteResult(r)) };
      }, callback, ['autocompleteDidComplete', 'autocompleteDidError'], options);
    }
  }
  Search.RegionPriority = SearchRegionPriority;

  class Geocoder extends Service {
    lookup(place, callback, options) {
      if (callback && typeof callback === 'object' && options === undefined) { options = callback; callback = null; }
      const o = options || {};
      return this._request(async (signal) => {
        const p = Object.assign({ q: String(place), lang: this._language(o) }, await this._userLocationParameter(o));
        if (o.region) p.searchRegion = regionParameter(o.region);
        else if (o.coordinate) p.searchLocation = coordinateParameter(o.coordinate);
        if (o.limitToCountries) p.limitToCountries = Array.isArray(o.limitToCountries) ? o.limitToCountries.join(',') : o.limitToCountries;
        const body = await apiGet('v1/geocode', p, signal);
        return { results: (body.results || []).map((r) => new Place(r)) };
      }, callback, [], o);
    }

    reverseLookup(coordinate, callback, options) {
      if (callback && typeof callback === 'object' && options === undefined) { options = callback; callback = null; }
      const o = options || {};
      return this._request(async (signal) => {
        const body = await apiGet('v1/reverseGeocode', { loc: coordinateParameter(coordinate), lang: this._language(o) }, signal);
        return { results: (body.results || []).map((r) => new Place(r)) };
      }, callback, [], o);
    }
  }

  const apiTransport = (type) => ({ AUTOMOBILE: 'Automobile', WALKING: 'Walking', CYCLING: 'Cycling', TRANSIT: 'Transit' }[type || 'AUTOMOBILE'] || 'Automobile');
  const mapkitTransport = (type) => ({ Automobile: 'AUTOMOBILE', Walking: 'WALKING', Cycling: 'CYCLING', Transit: 'TRANSIT' }[type] || 'AUTOMOBILE');

  // A directions end point: a Coordinate (or CoordinateData), a Place, or an address.
  function endpointParameter(value) {
    if (value instanceof Place) return coordinateParameter(value.coordinate);
    if (value && typeof value === 'object' && 'latitude' in value) return coordinateParameter(value);
    return String(value);
  }

  class Directions extends Service {
    route(request, callback) {
      const r = request || {};
      return this._request(async (signal) => {
        const p = {
          origin: endpointParameter(r.origin), destination: endpointParameter(r.destination), transportType: apiTransport(r.transportType),
          lang: this._language(r),
        };
        if (r.requestsAlternateRoutes) p.requestsAlternateRoutes = 'true';
        if (r.departureDate) p.departureDate = new Date(r.departureDate).toISOString();
        if (r.arrivalDate) p.arrivalDate = new Date(r.arrivalDate).toISOString();
        if (r.avoidTolls) p.avoid = 'Tolls';
        const body = await apiGet('v1/directions', p, signal);
        const paths = (body.stepPaths || []).map((path) => path.map((c) => new Coordinate(c.latitude, c.longitude)));
        const routes = (body.routes || []).map((route) => {
          const steps = route.stepIndexes.map((i) => body.steps[i]).map((step) => ({
            path: paths[step.stepPathIndex] || [],
            instructions: step.instructions || '',
            distance: step.distanceMeters,
            transportType: mapkitTransport(step.transportType || route.transportType),
          }));
          const path = steps.map((s) => s.path);
          const points = [];
          for (const part of path) for (const c of part) if (!points.length || !points[points.length - 1].equals(c)) points.push(c);
          return {
            name: route.name, distance: route.distanceMeters, expectedTravelTime: route.durationSeconds,
            transportType: mapkitTransport(route.transportType), hasTolls: !!route.hasTolls, steps, path,
            polyline: new PolylineOverlay(points, { style: new Style({ strokeColor: 'rgb(0, 122, 255)', lineWidth: 5, strokeOpacity: 0.85 }) }),
          };
        });
        return { request: r, origin: new Place(body.origin), destination: new Place(body.destination), routes };
      }, callback, [], r);
    }

    eta(request, callback) {
      const r = request || {};
      return this._request(async (signal) => {
        const p = {
          origin: coordinateParameter(r.origin instanceof Place ? r.origin.coordinate : r.origin),
          destinations: (r.destinations || []).map((d) => coordinateParameter(d instanceof Place ? d.coordinate : d)).join('|'),
          transportType: apiTransport(r.transportType),
        };
        if (r.departureDate) p.departureDate = new Date(r.departureDate).toISOString();
        if (r.arrivalDate) p.arrivalDate = new Date(r.arrivalDate).toISOString();
        const body = await apiGet('v1/etas', p, signal);
        return {
          request: r,
          etas: (body.etas || []).map((e) => ({
            destination: new Coordinate(e.destination.latitude, e.destination.longitude), distance: e.distanceMeters,
            expectedTravelTime: e.expectedTravelTimeSeconds, staticTravelTime: e.staticTravelTimeSeconds,
            transportType: mapkitTransport(e.transportType),
          })),
        };
      }, callback, [], r);
    }
  }
  Directions.Transport = TransportType;

  class PointsOfInterestSearch extends Service {
    constructor(options) {
      super(options);
      const o = options || {};
      this.center = o.center ? toCoordinate(o.center) : null;
      this.radius = o.radius !== undefined ? o.radius : null;
      this.region = o.region || null;
      this.pointOfInterestFilter = o.pointOfInterestFilter || null;
    }

    search(callback, options) {
      if (callback && typeof callback === 'object' && typeof callback.searchDidComplete !== 'function' && typeof callback.searchDidError !== 'function' && options === undefined) {
        options = callback; callback = null;
      }
      const o = Object.assign({ center: this.center, radius: this.radius, region: this.region, pointOfInterestFilter: this.pointOfInterestFilter }, options || {});
      return this._request(async (signal) => {
        const p = { lang: this._language(o) };
        if (o.center) {
          p.center = coordinateParameter(o.center);
          if (o.radius != null) p.radius = Math.min(Number(o.radius), PointsOfInterestSearch.MaxRadius);
        } else if (o.region) p.searchRegion = regionParameter(o.region);
        if (o.pointOfInterestFilter) Object.assign(p, o.pointOfInterestFilter._parameters());
        const body = await apiGet('v1/searchPointsOfInterest', p, signal);
        return { places: (body.results || []).map((r) => new Place(r)) };
      }, callback, ['searchDidComplete', 'searchDidError'], o);
    }
  }
  PointsOfInterestSearch.MaxRadius = 2000;

  // A place by its id (`Place.id`, from any of the services): /v1/place/{id}.
  class PlaceLookup extends Service {
    getPlace(id, callback, options) {
      if (callback && typeof callback === 'object' && options === undefined) { options = callback; callback = null; }
      const o = options || {};
      return this._request(async (signal) => {
        const body = await apiGet(`v1/place/${encodeURIComponent(String(id))}`, { lang: this._language(o) }, signal);
        return new Place(body);
      }, callback, [], o);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // GeoJSON: importGeoJSON turns GeoJSON into annotations and overlays in an ItemCollection, with
  // the delegate's overrides, as MapKit JS's importer.

  class ItemCollection {
    constructor(items, data) { this._items = items || []; this.data = data === undefined ? null : data; }
    get items() { return this._items; }
    set items(value) { this._items = value == null ? [] : (Array.isArray(value) ? value : [value]); }
    getFlattenedItemList() { return flattenItems(this._items); }
  }

  function flattenItems(items) {
    const out = [];
    const visit = (item) => {
      if (!item) return;
      if (Array.isArray(item)) item.forEach(visit);
      else if (item instanceof ItemCollection) item.items.forEach(visit);
      else out.push(item);
    };
    visit(items);
    return out;
  }

  class GeoJSONImportError extends Error {
    constructor(message, code) { super(message); this.name = 'GeoJSONImportError'; this.code = code || 'Invalid GeoJSON'; }
  }

  function importGeoJSONObject(root, delegate) {
    const d = delegate && typeof delegate === 'object' ? delegate : {};
    const coordinate = (position) => {
      if (!Array.isArray(position) || position.length < 2 || !position.every((n) => typeof n === 'number' && isFinite(n))) {
        throw new GeoJSONImportError(`a position must be [longitude, latitude], got ${JSON.stringify(position)}`);
      }
      return new Coordinate(position[1], position[0]);
    };
    const styled = (overlay, geoJSON) => {
      if (overlay instanceof Overlay && typeof d.styleForOverlay === 'function') {
        const style = d.styleForOverlay(overlay, geoJSON);
        if (style) overlay.style = style;
      }
      return overlay;
    };
    // The delegate's override when it has one (null drops the item), else the item made here.
    const override = (name, item, geoJSON) => (typeof d[name] === 'function' ? d[name](item, geoJSON) : item);
    const geometry = (g, source) => {
      if (!g || typeof g !== 'object') throw new GeoJSONImportError('a geometry is missing its type');
      switch (g.type) {
        case 'Point': {
          const c = coordinate(g.coordinates);
          return typeof d.itemForPoint === 'function' ? d.itemForPoint(c, source) : new MarkerAnnotation(c);
        }
        case 'MultiPoint':
          return override('itemForMultiPoint', new ItemCollection(g.coordinates.map((p) => geometry({ type: 'Point', coordinates: p }, source)).filter(Boolean), source), source);
        case 'LineString':
          return override('itemForLineString', styled(new PolylineOverlay(g.coordinates.map(coordinate)), source), source);
        case 'MultiLineString':
          return override('itemForMultiLineString', new ItemCollection(g.coordinates.map((l) => geometry({ type: 'LineString', coordinates: l }, source)).filter(Boolean), source), source);
        case 'Polygon': {
          // GeoJSON rings repeat their first position at the end; PolygonOverlay closes rings itself.
          const open = (ring) => (ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1] ? ring.slice(0, -1) : ring);
          const overlay = styled(new PolygonOverlay(g.coordinates.map((ring) => open(ring).map(coordinate))), source);
          return override('itemForPolygon', overlay, source);
        }
        case 'MultiPolygon':
          return override('itemForMultiPolygon', new ItemCollection(g.coordinates.map((p) => geometry({ type: 'Polygon', coordinates: p }, source)).filter(Boolean), source), source);
        case 'GeometryCollection':
          return override('itemForGeometryCollection', new ItemCollection(g.geometries.map((x) => geometry(x, source)).filter(Boolean), source), source);
        default:
          throw new GeoJSONImportError(`unknown GeoJSON geometry type ${JSON.stringify(g.type)}`);
      }
    };
    const feature = (f) => {
      let item = f.geometry ? geometry(f.geometry, f) : null;
      // A feature's properties become its items' data.
      for (const each of flattenItems(item)) if (f.properties) each.data = f.properties;
      return override('itemForFeature', item, f);
    };
    if (!root || typeof root !== 'object') throw new GeoJSONImportError('GeoJSON must be an object');
    let items;
    if (root.type === 'FeatureCollection') {
      if (!Array.isArray(root.features)) throw new GeoJSONImportError('a FeatureCollection needs features');
      const collection = new ItemCollection(root.features.map(feature).filter(Boolean), root);
      const result = override('itemForFeatureCollection', collection, root);
      items = result instanceof ItemCollection ? result : new ItemCollection(result, root);
    } else if (root.type === 'Feature') {
      items = new ItemCollection([feature(root)].filter(Boolean), root);
    } else {
      items = new ItemCollection([geometry(root, root)].filter(Boolean), root);
    }
    return items;
  }

  // importGeoJSON(object or URL, callback or delegate): with an object, returns the collection
  // (and tells the callback); with a URL, fetches it and tells the callback.
  function importGeoJSON(data, callback) {
    const complete = (error, result, source) => {
      if (typeof callback === 'function') callback(error, error ? source : result);
      else if (callback && typeof callback === 'object') {
        if (error && typeof callback.geoJSONDidError === 'function') callback.geoJSONDidError(error, source);
        if (!error && typeof callback.geoJSONDidComplete === 'function') callback.geoJSONDidComplete(result, source);
      }
    };
    if (typeof data === 'string') {
      if (!callback) throw new TypeError('importGeoJSON with a URL needs a callback or delegate');
      fetch(new URL(data, location.href).href).then((response) => {
        if (!response.ok) throw new GeoJSONImportError(`${data}: HTTP ${response.status}`, 'Network Error');
        return response.json();
      }).then((json) => {
        let result;
        try { result = importGeoJSONObject(json, callback); } catch (error) { complete(error, null, json); return; }
        complete(null, result, json);
      }, (error) => complete(error instanceof GeoJSONImportError ? error : new GeoJSONImportError(String(error && error.message || error), 'Network Error'), null, undefined));
      return undefined;
    }
    let result;
    try { result = importGeoJSONObject(data, callback); } catch (error) {
      if (!callback) throw error;
      complete(error, null, data);
      return undefined;
    }
    if (callback) complete(null, result, data);
    return result;
  }

  // ---------------------------------------------------------------------------------------------
  // MapKit JS members this server cannot honour (listed at the top of this file): reading them
  // gives undefined and setting them warns once, rather than storing a value nothing uses.

  const warnedUnsupported = new Set();
  // `defaults`: each member's MapKit JS default, which reading gives and setting may repeat
  // without a warning (undefined when it has none).
  function unsupported(type, defaults) {
    for (const [name, fallback] of Object.entries(defaults)) {
      if (Object.getOwnPropertyDescriptor(type.prototype, name)) throw new Error(`mapkit.js: ${name} is implemented; do not list it as unsupported`);
      Object.defineProperty(type.prototype, name, {
        get() { return fallback; },
        set(value) {
          const what = `${type.name === 'MapKitMap' ? 'Map' : type.name}.${name}`;
          if (value !== undefined && value !== null && value !== false && value !== fallback && !warnedUnsupported.has(what)) {
            warnedUnsupported.add(what);
            console.warn(`mapkit.${what} is not supported by this server's MapKit JS (see the top of mapkit.js)`);
          }
        },
        configurable: true,
      });
    }
  }
  unsupported(MapKitMap, { loadPriority: undefined, selectableMapFeatures: undefined,
    selectableMapFeatureSelectionAccessory: undefined, annotationForMapFeature: undefined });
  unsupported(Annotation, { selectionAccessory: undefined });
  // MapLibre's lines have no dash offset, gradient or partial stroke.
  unsupported(Style, { lineGradient: undefined, strokeStart: 0, strokeEnd: 1, lineDashOffset: 0 });

  // ---------------------------------------------------------------------------------------------
  // The namespace

  Object.assign(mapkit, {
    isOpenMapKit: true,
    version: '5.78.1-openmapkit',
    build: 'openmapkit',
    Coordinate, CoordinateSpan, CoordinateRegion, BoundingRegion, MapPoint, MapSize, MapRect, Padding, Style, CameraZoomRange,
    Map: MapKitMap, Annotation, MarkerAnnotation, ImageAnnotation,
    Overlay, PolylineOverlay, PolygonOverlay, CircleOverlay,
    Search, SearchAutocompleteResult, Geocoder, Directions, PointsOfInterestSearch, Place, PlaceLookup,
    ItemCollection, GeoJSONImportError, importGeoJSON,
    PointOfInterestCategory, PointOfInterestFilter, AddressCategory, AddressFilter,
    FeatureVisibility, TransportType, MapKitError,

    // mapkit.init({ authorizationCallback, language }): the token is asked for at once.
    init(options) {
      const o = options || {};
      if (typeof o.authorizationCallback !== 'function') throw new TypeError('mapkit.init needs an authorizationCallback');
      if (o.language) language = o.language;
      const again = auth.callback !== null;
      auth.callback = o.authorizationCallback;
      auth.pending = null; // a token still being asked of the previous callback is not waited for
      accessToken(again);
    },

    // Everything is in this one file; load() and importLibrary() resolve once MapLibre is there.
    load() { return loadMapLibre().then(() => mapkit.loadedLibraries); },
    importLibrary() { return loadMapLibre().then(() => mapkit); },
  });

  // Accessors (Object.assign would copy their values once).
  Object.defineProperties(mapkit, {
    maps: { get() { return maps.slice(); }, enumerable: true },
    language: { get() { return language; }, set(value) { language = value || navigator.language || 'en'; }, enumerable: true },
    loadedLibraries: { get() { return ['map', 'annotations', 'overlays', 'services', 'geojson']; }, enumerable: true },
  });

  window.mapkit = mapkit;

  // <script src=".../mapkit.js" data-callback="initMapKit" data-initial-token="..."> as Apple's.
  if (thisScript && thisScript.dataset) {
    const initialToken = thisScript.dataset.initialToken;
    if (initialToken !== undefined) mapkit.init({ authorizationCallback: (done) => done(initialToken) });
    const callbackName = thisScript.dataset.callback;
    if (callbackName) {
      loadMapLibre().then(() => {
        if (typeof window[callbackName] === 'function') window[callbackName]();
      }, (error) => console.error(error.message));
    }
  }
})();
