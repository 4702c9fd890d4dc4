#!/usr/bin/env python3
"""Drives a MapKit JS sample page (mapkitjs-sample.html) against OpenMapKit's /mapkit.js in headless
Chromium, for MapKitJSBrowserTests.

The page is served from another origin than the API, as a real site using a self-hosted MapKit JS
would be: a Python http.server on 127.0.0.1 (a free port) serves it, while the OpenMapKit server
is at --url (http://localhost:PORT/, a different host and port, so a different origin). The test
runs the server with CORS allowing that. The one line changed from the page as written is its
script URL, which points at the server under test.

Input goes through Input.dispatch* (real clicks). Prints one JSON object: what the page reported
(window.results), the screenshots' paths and every console error, exception and failed request.
The Swift test judges it; this script only records.
"""
import argparse
import functools
import http.server
import json
import os
import shutil
import threading
import time

from devtools import problems, session

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = "mapkitjs-sample.html"
WRITTEN_SCRIPT_URL = "http://localhost:8080/mapkit.js"


class SampleHandler(http.server.BaseHTTPRequestHandler):
    """Serves the sample page (and nothing else) with its script URL pointing at the server."""

    def __init__(self, *args, api_url, **kwargs):
        self.api_url = api_url
        super().__init__(*args, **kwargs)

    def do_GET(self):
        if self.path.split("?")[0] != "/" + SAMPLE:
            self.send_error(404)
            return
        with open(os.path.join(HERE, SAMPLE), encoding="utf-8") as f:
            page = f.read()
        assert WRITTEN_SCRIPT_URL in page
        body = page.replace(WRITTEN_SCRIPT_URL, self.api_url + "mapkit.js").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def serve_sample(api_url):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SampleHandler, api_url=api_url))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def wait_map_idle(page, timeout=40):
    # MapKit JS has no "loaded" event; MapLibre's own state says when the tiles are in.
    page.wait_for("window.mapkit && mapkit.maps.length > 0 && mapkit.maps[0]._gl && mapkit.maps[0]._gl.loaded()"
                  " && mapkit.maps[0]._gl.areTilesLoaded() && !mapkit.maps[0]._gl.isMoving()", timeout, "the map to be drawn")
    time.sleep(0.5)


def results(page):
    return page.evaluate("JSON.parse(JSON.stringify(window.results || {}))")


# With keys: a token the server refuses (a 401), then the page's own callback again. The library
# asks the callback once more after the 401, reports "Unauthorized", and works again once the
# callback gives a good token.
REFUSED_TOKEN = r"""(async () => {
  const out = { calls: 0, statuses: [], changes: [] };
  const onError = (event) => out.statuses.push(event.status);
  const onChange = (event) => out.changes.push(event.status);
  mapkit.addEventListener('error', onError);
  mapkit.addEventListener('configuration-change', onChange);
  mapkit.init({ authorizationCallback: (done) => { out.calls += 1; done('omk1.Zm9vLjE.bogus'); } });
  try { await new mapkit.Search().search('Casino'); out.refused = 'answered'; } catch (error) { out.refused = error.message; }
  mapkit.init({ authorizationCallback: (done) => {
    fetch(`${server}/v1/token`, { headers: { Authorization: `Bearer ${apiKey}` } }).then((r) => r.json()).then((b) => done(b.accessToken));
  } });
  const found = await new mapkit.Search().search('Casino');
  out.after = found.places.map((p) => p.name);
  await new Promise((resolve) => setTimeout(resolve, 50));
  mapkit.removeEventListener('error', onError);
  mapkit.removeEventListener('configuration-change', onChange);
  return out;
})()"""


# The browser's position (granted and set by the driver): the map follows it with a dot, and a
# search with getsUserLocation sends it as a hint.
USER_LOCATION = r"""(async () => {
  const out = {};
  const changed = new Promise((resolve) => map.addEventListener('user-location-change', (e) => resolve(e.coordinate)));
  // The user location control's button starts following.
  map.showsUserLocationControl = true;
  document.querySelector('#map .mk-user-location-control button').click();
  const coordinate = await changed;
  out.event = [coordinate.latitude, coordinate.longitude];
  out.shows = map.showsUserLocation;
  await new Promise((resolve) => { const f = () => { map.removeEventListener('region-change-end', f); resolve(); }; map.addEventListener('region-change-end', f); });
  out.center = [map.center.latitude, map.center.longitude];
  const a = map.userLocationAnnotation;
  out.annotation = a ? [a.coordinate.latitude, a.coordinate.longitude] : null;
  out.dot = !!document.querySelector('#map .mk-user-location');
  map.tintColor = 'rgb(255, 45, 85)';
  out.tint = [map.tintColor, getComputedStyle(document.querySelector('#map .mk-user-location')).backgroundColor];
  const found = await new mapkit.Search({ getsUserLocation: true }).search('pharmacy');
  out.searched = found.places.length;
  out.hinted = performance.getEntriesByType('resource').map((e) => e.name)
    .filter((name) => name.includes('/v1/search?') && name.includes('userLocation=43.731%2C7.42')).length;
  map.showsUserLocation = false;
  out.dotAfter = !!document.querySelector('#map .mk-user-location');
  out.tracksAfter = map.tracksUserLocation;
  return out;
})()"""


# Calls a page could make, with what they answered. Async: camera changes are awaited to their
# region-change-end.
API_CHECKS = r"""(async () => {
  const out = {};
  const gl = mapkit.maps[0]._gl;
  const ended = () => new Promise((resolve) => { const f = () => { map.removeEventListener('region-change-end', f); resolve(); }; map.addEventListener('region-change-end', f); });
  const poiVisibility = () => gl.getStyle().layers.filter((l) => l['source-layer'] === 'poi').map((l) => gl.getLayoutProperty(l.id, 'visibility') || 'visible');

  // Satellite needs imagery the server does not have: the standard map, read back as such.
  map.mapType = mapkit.Map.MapTypes.Satellite;
  out.satellite = map.mapType;
  map.mapType = mapkit.Map.MapTypes.MutedStandard;
  out.muted = [map.mapType, mapkit.maps[0]._currentStyle.split('/').pop()];
  map.mapType = mapkit.Map.MapTypes.Standard;
  await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => { const check = () => (mapkit.maps[0]._styleReady ? resolve() : setTimeout(check, 50)); check(); });
  out.standardStyle = mapkit.maps[0]._currentStyle.split('/').pop();

  // The map's own point-of-interest labels: none, then all.
  map.pointOfInterestFilter = mapkit.PointOfInterestFilter.filterExcludingAllCategories;
  out.poiHidden = poiVisibility();
  map.pointOfInterestFilter = mapkit.PointOfInterestFilter.filterIncludingAllCategories;
  out.poiShown = poiVisibility();
  // Narrowed to cafés and restaurants: the labels drawn are of those categories' classes only.
  const idle = () => Promise.race([new Promise((resolve) => gl.once('idle', resolve)), new Promise((resolve) => setTimeout(resolve, 5000))]);
  const poiLayers = gl.getStyle().layers.filter((l) => l['source-layer'] === 'poi').map((l) => l.id);
  const drawn = () => gl.queryRenderedFeatures({ layers: poiLayers }).map((f) => [f.properties.class || '', f.properties.subclass || '']);
  await idle(); // the labels were hidden just before: drawn again first
  out.poiBeforeFilter = drawn();
  map.pointOfInterestFilter = mapkit.PointOfInterestFilter.including([mapkit.PointOfInterestCategory.Cafe, mapkit.PointOfInterestCategory.Restaurant]);
  await idle();
  out.poiCafesAndRestaurants = drawn();
  map.pointOfInterestFilter = mapkit.PointOfInterestFilter.excluding([mapkit.PointOfInterestCategory.Restaurant]);
  await idle();
  out.poiWithoutRestaurants = drawn();
  map.pointOfInterestFilter = null;
  await idle();
  out.poiAfterFilter = drawn().length;
  const cafes = mapkit.PointOfInterestFilter.including([mapkit.PointOfInterestCategory.Cafe]);
  out.filterIncludesCafe = [cafes.includesCategory('Cafe'), cafes.includesCategory('Bank'), cafes.excludesCategory('Bank')];

  // Unsupported members do not pretend.
  map.loadPriority = 'PointsOfInterest';
  out.loadPriority = map.loadPriority === undefined;
  map.showsPointsOfInterest = false;
  out.showsPointsOfInterestFalse = [map.showsPointsOfInterest, ...poiVisibility()];
  map.showsPointsOfInterest = true;

  // Rotation and camera distance read back what was set.
  let done = ended();
  map.setRotationAnimated(30, false);
  await done;
  out.rotation = map.rotation;
  done = ended();
  map.setCameraDistanceAnimated(3000, false);
  await done;
  out.cameraDistance = map.cameraDistance;
  done = ended();
  map.rotation = 0;
  await done;

  // A zoom range: nearer than its minimum distance is refused, and the range reads back.
  map.cameraZoomRange = new mapkit.CameraZoomRange(2000, 20000);
  done = ended();
  map.setCameraDistanceAnimated(500, false);
  await done;
  out.zoomRange = { distance: map.cameraDistance, min: map.cameraZoomRange.minCameraDistance, max: map.cameraZoomRange.maxCameraDistance };
  map.cameraZoomRange = null;
  out.zoomRangeCleared = map.cameraZoomRange.maxCameraDistance === Infinity;

  // showItems frames what it is given (a marker and an overlay), with padding.
  const casino = map.annotations.find((a) => a.data.name === 'casino');
  const rock = map.overlays.find((o) => o.data.name === 'rock');
  done = ended();
  map.showItems([casino, rock], { animate: false, padding: new mapkit.Padding(40, 40, 40, 40) });
  await done;
  const r = map.region;
  const inside = (c) => Math.abs(c.latitude - r.center.latitude) <= r.span.latitudeDelta / 2 && Math.abs(c.longitude - r.center.longitude) <= r.span.longitudeDelta / 2;
  out.showItems = { casino: inside(casino.coordinate), rockCentre: inside(rock.coordinate), latitudeDelta: r.span.latitudeDelta };

  // Changing a style's property redraws the overlay.
  rock.style.lineWidth = 7;
  rock.style.strokeColor = '#123456';
  out.restyled = [gl.getPaintProperty(`${rock._id}-line`, 'line-width'), gl.getPaintProperty(`${rock._id}-line`, 'line-color')];

  // The marker stands on its coordinate: the balloon's point is where the coordinate is drawn.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const point = map.convertCoordinateToPointOnPage(casino.coordinate);
  const box = casino.element.getBoundingClientRect();
  out.markerPoint = { x: point.x, y: point.y, elementCentreX: box.left + box.width / 2 + window.scrollX, elementBottom: box.bottom + window.scrollY };
  const back = map.convertPointOnPageToCoordinate(point);
  out.roundTrip = [back.latitude - casino.coordinate.latitude, back.longitude - casino.coordinate.longitude];

  // Geometry types.
  const region = new mapkit.CoordinateRegion(new mapkit.Coordinate(43.7384, 7.4246), new mapkit.CoordinateSpan(0.02, 0.04));
  const bounding = region.toBoundingRegion();
  const again = bounding.toCoordinateRegion();
  out.bounding = [bounding.northLatitude, bounding.eastLongitude, bounding.southLatitude, bounding.westLongitude,
                  again.center.latitude, again.center.longitude, again.span.latitudeDelta, again.span.longitudeDelta];
  const mapPoint = new mapkit.Coordinate(43.7384, 7.4246).toMapPoint();
  const coordinate = mapPoint.toCoordinate();
  out.mapPoint = [mapPoint.x, mapPoint.y, coordinate.latitude, coordinate.longitude];
  const rect = region.toMapRect().toCoordinateRegion();
  out.mapRect = [rect.center.latitude, rect.center.longitude, rect.span.longitudeDelta];

  // Clustering: three markers 5 m apart sharing a clusteringIdentifier are one marker with their
  // count from afar, and three from close by.
  const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50))));
  const spot = new mapkit.Coordinate(43.7330, 7.4170);
  const kiosks = [0, 1, 2].map((i) => new mapkit.MarkerAnnotation(new mapkit.Coordinate(spot.latitude + i * 0.00005, spot.longitude),
    { clusteringIdentifier: 'kiosks', title: `Kiosk ${i + 1}`, glyphText: 'K' }));
  map.addAnnotations(kiosks);
  const visibleGlyphs = () => [...document.querySelectorAll('#map .mk-marker')].filter((e) => e.style.display !== 'none')
    .map((e) => e.querySelector('.mk-glyph').textContent);
  done = ended();
  map.setRegionAnimated(new mapkit.CoordinateRegion(spot, new mapkit.CoordinateSpan(0.01, 0.01)), false);
  await done;
  await frames();
  out.clusterFar = { glyphs: visibleGlyphs(), members: kiosks.filter((k) => k.element.style.display !== 'none').length };
  done = ended();
  map.setRegionAnimated(new mapkit.CoordinateRegion(spot, new mapkit.CoordinateSpan(0.0003, 0.0003)), false);
  await done;
  await frames();
  out.clusterNear = { glyphs: visibleGlyphs(), members: kiosks.filter((k) => k.element.style.display !== 'none').length };
  map.removeAnnotations(kiosks);

  // Collisions: a low-priority marker under a required one is hidden; without collisions both show.
  const low = new mapkit.MarkerAnnotation(spot, { displayPriority: mapkit.Annotation.DisplayPriority.Low, glyphText: 'L' });
  const high = new mapkit.MarkerAnnotation(spot, { glyphText: 'H' });
  map.addAnnotations([low, high]);
  await frames();
  out.collision = visibleGlyphs().filter((g) => g === 'L' || g === 'H').sort();
  low.collisionMode = mapkit.Annotation.CollisionMode.None;
  done = ended();
  map.setCenterAnimated(spot, false);
  await done;
  await frames();
  out.noCollision = visibleGlyphs().filter((g) => g === 'L' || g === 'H').sort();
  map.removeAnnotations([low, high]);

  // A second map, then destroyed.
  const element = document.createElement('div');
  element.style.cssText = 'position:absolute;left:0;top:0;width:200px;height:150px';
  document.body.appendChild(element);
  const second = new mapkit.Map(element, { center: new mapkit.Coordinate(43.73, 7.42) });
  out.mapsWithSecond = mapkit.maps.length;
  second.destroy();
  out.mapsAfterDestroy = mapkit.maps.length;
  out.secondElementGone = !element.querySelector('.mk-map-view');
  element.remove();
  return out;
})()"""


def steps(args, record, page, shot, sample_url):
    page.call("Page.navigate", {"url": sample_url})
    page.wait_for("document.readyState === 'complete' && window.results && window.results.started === true", 25,
                  "the sample to call initMapKit")
    if args.refused:
        # The server does not allow the page's origin: every service fails, saying how to allow it.
        page.wait_for("results.errors.length >= 7", 30, "the services to fail")
        time.sleep(1)
        record["refused"] = results(page)
        return
    wait_map_idle(page)
    # Every service answers (or fails, which the page records).
    wanted = ["search", "autocomplete", "completionSearch", "placeLookup", "lookup", "reverse", "route", "eta", "pois"]
    needed = " && ".join(f"(results.{name} !== undefined || results.errors.some(e => e.startsWith('{name}')))" for name in wanted)
    page.wait_for(needed, 40, "the services to answer")
    wait_map_idle(page)
    record["initial"] = results(page)
    record["initial"]["pageOrigin"] = page.evaluate("location.origin")
    record["initial"]["scriptSrc"] = page.evaluate("document.querySelector('script[src$=\"mapkit.js\"]').src")
    record["initial"]["attribution"] = page.evaluate(
        "(document.querySelector('#map .maplibregl-ctrl-attrib') || {}).textContent || ''")
    record["initial"]["markers"] = page.evaluate("document.querySelectorAll('#map .mk-marker').length")
    record["initial"]["overlayLayers"] = page.evaluate(
        "mapkit.maps[0]._gl.getStyle().layers.filter(l => l.id.startsWith('mapkit-overlay-')).length")
    record["initial"]["version"] = page.evaluate("mapkit.version")
    record["initial"]["region"] = page.evaluate(
        "(() => { const r = map.region; return {latitude: r.center.latitude, longitude: r.center.longitude,"
        " latitudeDelta: r.span.latitudeDelta, longitudeDelta: r.span.longitudeDelta}; })()")
    record["initial"]["tileRequest"] = page.evaluate(
        "mapkit.maps[0]._transformRequest(new URL('tiles/14/8529/5975.mvt', document.querySelector('script[src$=\"mapkit.js\"]').src).href, 'Tile').url")
    # Where the route is on the page now (CSS pixels; the screenshot is 1 device pixel per CSS pixel).
    record["initial"]["routeOnPage"] = page.evaluate(
        "window.routePolyline ? routePolyline.points.map(c => { const p = map.convertCoordinateToPointOnPage(c);"
        " return {x: p.x, y: p.y}; }) : []")
    shot("mapkitjs-01-map")
    if args.maps_token:
        return
    if args.api_key:
        record["problemsBeforeRefusal"] = problems(page.browser)
        record["refusedToken"] = page.evaluate(REFUSED_TOKEN, timeout=30)
        return

    # Select the casino marker: a real click on its element.
    box = page.evaluate("(() => { const a = map.annotations.find(a => a.data.name === 'casino');"
                        " const r = a.element.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()")
    page.click(box["x"], box["y"])
    page.wait_for("map.selectedAnnotation !== null", 10, "the marker to be selected")
    time.sleep(0.3)
    record["select"] = {
        "selected": page.evaluate("map.selectedAnnotation && map.selectedAnnotation.title"),
        "callout": page.evaluate("(document.querySelector('.mk-callout') || {}).textContent || ''"),
        "events": results(page)["events"],
    }
    shot("mapkitjs-02-selected")

    # A tap on the map away from everything: deselects, and is a single-tap at that point.
    page.click(60, 740)
    page.wait_for("window.results.tap !== undefined", 10, "the single-tap event")
    time.sleep(0.3)
    record["tap"] = {
        "tap": results(page)["tap"],
        "selected": page.evaluate("map.selectedAnnotation === null"),
        "callouts": page.evaluate("document.querySelectorAll('.mk-callout').length"),
        "events": results(page)["events"],
        # What MapLibre says is under the clicked pixel, to compare with the event's coordinate.
        "expected": page.evaluate("(() => { const c = mapkit.maps[0]._gl.unproject([60 - map.element.getBoundingClientRect().left,"
                                  " 740 - map.element.getBoundingClientRect().top]); return {latitude: c.lat, longitude: c.lng}; })()"),
    }

    # Held half a second without moving: a long-press, and then no single-tap.
    page.evaluate("map.addEventListener('long-press', (e) => { results.longPress = map.convertPointOnPageToCoordinate(e.pointOnPage); }), true")
    taps_before = len([e for e in results(page)["events"] if e.startswith("single-tap")])
    page.mouse("mouseMoved", 100, 600, button="none", buttons=0)
    page.mouse("mousePressed", 100, 600, clickCount=1)
    time.sleep(0.8)
    page.mouse("mouseReleased", 100, 600, buttons=0, clickCount=1)
    time.sleep(0.3)
    record["longPress"] = {
        "coordinate": results(page).get("longPress"),
        "singleTaps": len([e for e in results(page)["events"] if e.startswith("single-tap")]) - taps_before,
        "expected": page.evaluate("(() => { const c = mapkit.maps[0]._gl.unproject([100 - map.element.getBoundingClientRect().left,"
                                  " 600 - map.element.getBoundingClientRect().top]); return {latitude: c.lat, longitude: c.lng}; })()"),
    }

    # A button calls setRegionAnimated; the animation ends in region-change-end.
    page.click_selector("#harbour")
    page.wait_for("(window.results.regionChangeEnds || 0) > window.results.regionChangeEndsBefore", 15, "region-change-end")
    wait_map_idle(page)
    record["harbour"] = {
        "region": page.evaluate("(() => { const r = map.region; return {latitude: r.center.latitude, longitude: r.center.longitude,"
                                " latitudeDelta: r.span.latitudeDelta, longitudeDelta: r.span.longitudeDelta}; })()"),
        "events": results(page)["events"],
    }
    shot("mapkitjs-03-harbour")

    # The user's location, with the page allowed to ask for it and the browser's position set.
    page.browser.send("Browser.grantPermissions", {"origin": page.evaluate("location.origin"), "permissions": ["geolocation"]})
    page.call("Emulation.setGeolocationOverride", {"latitude": 43.7310, "longitude": 7.4200, "accuracy": 10})
    record["userLocation"] = page.evaluate(USER_LOCATION, timeout=30)

    # The API's own answers, evaluated in the page: properties read back, geometry, conversions.
    record["api"] = page.evaluate(API_CHECKS, timeout=30)

    # The dark colour scheme: the dark style, overlays still there.
    page.click_selector("#dark")
    page.wait_for("mapkit.maps[0]._currentStyle.endsWith('/styles/dark.json') && mapkit.maps[0]._styleReady", 15, "the dark style")
    wait_map_idle(page)
    record["dark"] = {
        "colorScheme": page.evaluate("map.colorScheme"),
        "overlayLayers": page.evaluate("mapkit.maps[0]._gl.getStyle().layers.filter(l => l.id.startsWith('mapkit-overlay-')).length"),
    }
    shot("mapkitjs-04-dark")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the OpenMapKit server, http://localhost:PORT/")
    parser.add_argument("--out", required=True)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--api-key", help="the server runs with this API key: the page trades it for a token")
    parser.add_argument("--maps-token", help="a Maps token (a JWT signed with a key the server registered): the page gives it to MapKit JS as is")
    parser.add_argument("--refused", action="store_true", help="the server does not allow the page's origin (no CORS)")
    args = parser.parse_args()
    record = {}
    sample = serve_sample(args.url)
    sample_url = f"http://127.0.0.1:{sample.server_address[1]}/{SAMPLE}" + (
        f"?key={args.api_key}" if args.api_key else f"?token={args.maps_token}" if args.maps_token else "")
    try:
        # With a key, the refused token's 401s are expected (problemsBeforeRefusal has the rest).
        session(args, record, lambda page, shot: steps(args, record, page, shot, sample_url),
                expected=(lambda problem: "401" in problem) if args.api_key else (lambda problem: False))
    except Exception as error:  # report what was reached so far; the test prints it
        record["failure"] = f"{type(error).__name__}: {error}"
    finally:
        sample.shutdown()
    print(json.dumps(record))


if __name__ == "__main__":
    main()
