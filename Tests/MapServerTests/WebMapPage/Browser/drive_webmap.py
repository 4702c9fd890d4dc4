#!/usr/bin/env python3
"""Drives OpenMapKit's web map in headless Chromium, as a person would, for WebMapBrowserTests.

Talks the DevTools protocol over --remote-debugging-pipe (JSON messages ending in NUL; Chromium
reads fd 3 and writes fd 4), so it needs only the standard library and no free port. Input goes
through Input.dispatch* (real pointer, wheel and key events), not by calling the page's functions.
Prints one JSON object: what each step saw (view, DOM text, route pixels), the screenshots' paths
and every console error, exception and failed request. The Swift test judges it; this script only
fails on its own when the browser cannot be driven at all (exit status 2, message on stderr).
"""
import argparse
import json
import math
import os
import shutil
import sys
import time

from devtools import Browser, Page, problems, session


def run(args, record):
    session(args, record, lambda page, shot: steps(args, record, page, shot))


def steps(args, record, page, shot):
    view = lambda: page.evaluate("openMapKit.view")

    # 1. The page opens on the data and draws tiles.
    page.call("Page.navigate", {"url": args.url})
    page.wait_for("document.readyState === 'complete' && window.openMapKit !== undefined", 20, "the page to load")
    page.wait_for("openMapKit.tiles.loaded > 0", 25, "the first tiles")
    page.wait_idle()
    record["initial"] = {"view": view(), "tiles": page.evaluate("openMapKit.tiles"), "kind": page.evaluate("openMapKit.kind"),
                         "title": page.evaluate("document.title"),
                         "attribution": page.evaluate("document.getElementById('attribution').textContent.trim()"),
                         "scale": page.evaluate("document.getElementById('scale-label').textContent"),
                         "styles": page.evaluate("[...document.querySelectorAll('#styles button')].map(b => b.dataset.style)")}
    shot("01-initial")

    # 1b. The data ends at its bounds: dragged far east, the view stops with the data's edge on
    #     the screen and the no-data hatching beyond it; zoomed out as far as the page lets, the
    #     data still fills much of the screen.
    start = view()
    for _ in range(4):
        page.drag((1100, 420), (500, 420), steps=8)
    page.wait_idle()
    config = page.evaluate("fetch('/webmap/config.json').then(r => r.json())")
    west, south, east, north = config["bounds"]
    record["edges"] = {"dragged": view(), "config": config,
                       "viewEast": page.evaluate("openMapKit.map.getBounds().getEast()"),
                       "northWest": page.evaluate(f"openMapKit.screenPoint({north}, {west})"),
                       "southEast": page.evaluate(f"openMapKit.screenPoint({south}, {east})")}
    shot("01b-edges")
    for _ in range(12):
        page.mouse("mouseWheel", 800, 400, button="none", buttons=0, deltaX=0, deltaY=360)
        time.sleep(0.05)
    page.wait_idle()
    record["edges"]["zoomedOut"] = view()
    page.evaluate(f"void openMapKit.map.jumpTo({{center: [{start['longitude']}, {start['latitude']}], zoom: {start['zoom']}}})")
    page.wait_idle()

    # 2. Drag to pan (with a fling at the end: inertia carries it on).
    page.drag((700, 450), (520, 360), steps=10)
    page.wait_idle()
    record["pan"] = {"view": view(), "hash": page.evaluate("location.hash")}
    shot("02-pan")
    # The hash keeps the view: a reload opens where the pan ended.
    page.call("Page.reload")
    time.sleep(0.3)
    page.wait_for("document.readyState === 'complete' && window.openMapKit !== undefined", 20, "the page to reload")
    page.wait_idle()
    record["pan"]["reloaded"] = view()

    # 3. Wheel to zoom in around the pointer, held over the town: around a point out at sea the
    #    zoomed picture is mostly the same blue, and the test could not tell that it changed.
    for _ in range(3):
        page.mouse("mouseWheel", 300, 380, button="none", buttons=0, deltaX=0, deltaY=-120)
        time.sleep(0.05)
    page.wait_idle()
    record["zoom"] = {"view": view(), "scale": page.evaluate("document.getElementById('scale-label').textContent")}
    shot("03-zoom")

    # 4. Keyboard (MapLibre's, on the map's canvas): rotate with Shift+Right, then the compass
    #    resets north; '-' zooms out to the whole level below.
    focus_map = "document.querySelector('#map canvas').focus()"
    page.evaluate(focus_map)
    page.key("ArrowRight", "ArrowRight", 39, modifiers=8)
    page.wait_idle()
    page.key("ArrowRight", "ArrowRight", 39, modifiers=8)
    page.wait_idle()
    rotated = view()
    shot("04-rotated")
    page.click_selector("#compass")
    page.wait_idle()
    north = view()
    page.evaluate(focus_map)
    page.key("-", "Minus", 189, text="-")
    page.wait_idle()
    record["keyboard"] = {"rotated": rotated, "north": north, "zoomedOut": view()}

    # 4b. The 3D button tilts the map over the city's buildings: they stand up (fill-extrusion).
    page.evaluate(f"location.hash = {json.dumps(args.buildings_hash)}")
    page.wait_idle()
    flat_buildings = page.evaluate("openMapKit.renderedFeatures('building-3d')")
    shot("04b-flat")
    page.click_selector("#pitch")
    page.wait_idle()
    record["pitch"] = {"view": view(), "buildings": page.evaluate("openMapKit.renderedFeatures('building-3d')"),
                       "flatBuildings": flat_buildings, "pressed": page.evaluate("document.getElementById('pitch').getAttribute('aria-pressed')")}
    shot("04c-pitched")
    page.click_selector("#compass")
    page.wait_idle()
    record["pitch"]["reset"] = view()

    # 4c. A point of interest drawn on the map: the pointer over it shows its name, a click opens
    #     its place card, filled from /v1/place.
    poi = page.evaluate("""(() => {
        const map = openMapKit.map, canvas = map.getCanvas().getBoundingClientRect();
        const inside = (p) => p.x > 420 && p.x < canvas.width - 80 && p.y > 80 && p.y < canvas.height - 80;
        const points = map.queryRenderedFeatures().filter((f) => f.sourceLayer === 'poi' && f.geometry.type === 'Point' && f.properties.name)
          .map((f) => ({ name: f.properties.name, ...map.project(f.geometry.coordinates) }));
        // One with no other point of interest within 30 pixels, so the click is unambiguous.
        const alone = points.find((p) => inside(p) && points.every((q) => q === p || Math.hypot(q.x - p.x, q.y - p.y) > 30));
        return alone ? { name: alone.name, x: alone.x, y: alone.y } : null; })()""")
    record["feature"] = {"poi": poi}
    if poi:
        page.mouse("mouseMoved", poi["x"], poi["y"], button="none", buttons=0)
        time.sleep(0.4)
        record["feature"]["cursor"] = page.evaluate("openMapKit.map.getCanvas().style.cursor")
        record["feature"]["title"] = page.evaluate("openMapKit.map.getCanvas().title")
        page.click(poi["x"], poi["y"])
        page.wait_for("!document.getElementById('callout').hidden", 10, "the point of interest's card")
        try:
            page.wait_for("performance.getEntriesByType('resource').some(e => e.name.includes('/v1/place/'))", 15, "the /v1/place lookup")
            time.sleep(0.5)
        except TimeoutError as error:
            record["feature"]["error"] = str(error)
        record["feature"]["card"] = page.evaluate("document.getElementById('callout-title').textContent")
        record["feature"]["detail"] = page.evaluate("document.getElementById('callout-detail').textContent")
        record["feature"]["address"] = page.evaluate("location.pathname + location.search")
        shot("04d-feature")
        page.click_selector("#callout .close")

    # 5. Search with autocomplete: type, wait for suggestions, pick the first with the keyboard.
    page.click_selector("#search")
    page.type_text(args.search)
    page.wait_for("document.querySelectorAll('#suggestions li').length > 0 && !document.getElementById('suggestions').hidden",
                  10, "search suggestions")
    suggestions = page.evaluate("[...document.querySelectorAll('#suggestions li')].map(li => li.textContent)")
    page.key("ArrowDown", "ArrowDown", 40)
    page.key("Enter", "Enter", 13, text="\r")
    page.wait_for("document.querySelectorAll('#results li').length > 0 || document.getElementById('status').textContent !== 'Searching…' && document.getElementById('status').textContent !== ''",
                  10, "search results")
    page.wait_idle()
    record["search"] = {
        "suggestions": suggestions,
        "results": page.evaluate("[...document.querySelectorAll('#results .line1')].map(e => e.textContent)"),
        "status": page.evaluate("document.getElementById('status').textContent"),
        "markers": page.evaluate("openMapKit.markerScreenPoints()"),
        "calloutVisible": page.evaluate("!document.getElementById('callout').hidden"),
    }
    record["search"]["address"] = page.evaluate("location.pathname + location.search")
    shot("05-search")

    # 6. Directions: the first result is the destination (through its callout), a click on the
    #    map is the start (reverse geocoded, then "Directions from here").
    page.click_selector("#results li button")
    page.wait_idle()
    # The place card's Look Around picture, drawn by the server from OpenStreetMap (a result in a
    # city has a street in front of it).
    try:
        page.wait_for("(() => { const i = document.getElementById('callout-lookaround'); return !i.hidden && i.complete && i.naturalWidth > 0; })()",
                      30, "the place card's Look Around picture")
        record["lookAround"] = page.evaluate("(() => { const i = document.getElementById('callout-lookaround'); return { width: i.naturalWidth, height: i.naturalHeight, src: i.src }; })()")
    except TimeoutError as error:
        record["lookAround"] = {"error": str(error)}
    shot("05b-place-card")
    page.click_selector("#callout [data-action='to']")
    page.evaluate(f"location.hash = {json.dumps(args.overview_hash)}")
    page.wait_idle()
    origin = page.evaluate(f"(() => {{ const p = openMapKit.screenPoint({args.origin[0]}, {args.origin[1]}); return p; }})()")
    page.click(origin["x"], origin["y"])
    page.wait_for("!document.getElementById('callout').hidden && !document.getElementById('callout-detail').textContent.includes('Looking up')",
                  10, "the reverse-geocoded address")
    record["reverse"] = {"title": page.evaluate("document.getElementById('callout-title').textContent"),
                         "detail": page.evaluate("document.getElementById('callout-detail').textContent")}
    shot("06-reverse")
    page.click_selector("#callout [data-action='from']")
    page.wait_for("openMapKit.routeCount > 0 || document.getElementById('status').classList.contains('error')",
                  20, "directions")
    page.wait_idle()
    route = {
        "status": page.evaluate("document.getElementById('status').textContent"),
        "routes": page.evaluate("[...document.querySelectorAll('#routes li')].map(li => li.textContent)"),
        "steps": page.evaluate("[...document.querySelectorAll('#steps li')].map(li => li.textContent)"),
        "origin": page.evaluate("document.getElementById('origin').value"),
        "destination": page.evaluate("document.getElementById('destination').value"),
        "points": page.evaluate("openMapKit.routeScreenPoints()"),
        "viewport": [page.width, page.height],
    }
    shot("07-directions")
    if len(route["routes"]) > 1:
        page.click_selector("#routes li:nth-child(2)")
        page.wait_idle()
        route["alternative"] = {"selected": page.evaluate("openMapKit.selectedRoute"),
                                "points": page.evaluate("openMapKit.routeScreenPoints()"),
                                "steps": page.evaluate("[...document.querySelectorAll('#steps li')].map(li => li.textContent)")}
        shot("08-alternative")
    route["address"] = page.evaluate("location.pathname + location.search")
    record["directions"] = route

    # 7. The dark style.
    page.click_selector("#styles button[data-style='dark']")
    page.wait_idle()
    record["dark"] = {"tiles": page.evaluate("openMapKit.tiles")}
    shot("09-dark")

    # 8. A phone: narrow, dense screen, the panel across the top.
    page.resize(390, 844, 2, True)
    page.evaluate("window.dispatchEvent(new Event('resize'))")
    page.wait_idle()
    record["phone"] = {"tiles": page.evaluate("openMapKit.tiles"),
                       "panel": page.evaluate("(() => { const r = document.getElementById('panel').getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })()")}
    shot("10-phone")

    # 9. Two fingers: spread them apart while turning by 40°, and the map zooms and rotates with them.
    before = view()
    cx, cy = 195, 600
    for i in range(0, 11):
        spread = 50 + 50 * i / 10          # the fingers' distance doubles: one zoom level
        angle = 0.698 * i / 10             # and they turn by 40°
        points = [{"x": cx + spread * math.cos(angle) * sign, "y": cy + spread * math.sin(angle) * sign, "id": n}
                  for n, sign in ((0, -1), (1, 1))]
        page.call("Input.dispatchTouchEvent", {"type": "touchStart" if i == 0 else "touchMove", "touchPoints": points})
        time.sleep(0.02)
    page.call("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_idle()
    record["pinch"] = {"before": before, "after": view()}
    shot("11-pinch")


def run_links(args, record):
    """Maps URLs on this server open the page on what they name."""
    session(args, record, lambda page, shot: link_steps(args, record, page, shot))


def link_steps(args, record, page, shot):
    base = args.url.rstrip("/")
    # A system in dark appearance gets the dark map; when it turns light, so does the map.
    dark = lambda on: page.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})
    dark(True)
    page.call("Page.navigate", {"url": args.url})
    page.wait_for("window.openMapKit !== undefined && openMapKit.tiles.loaded > 0", 25, "the map in dark appearance")
    record["appearance"] = {"dark": page.evaluate("openMapKit.tiles.style")}
    dark(False)
    page.wait_for("openMapKit.tiles.style === 'standard'", 10, "the map to follow the light appearance")
    record["appearance"]["light"] = page.evaluate("openMapKit.tiles.style")
    page.call("Page.navigate", {"url": f"{base}/search?query={args.search}&center=43.7384,7.4246"})
    page.wait_for("window.openMapKit !== undefined && document.querySelectorAll('#results li').length > 0", 25, "results from /search")
    record["search"] = {"results": page.evaluate("[...document.querySelectorAll('#results .line1')].map(e => e.textContent)")}
    page.call("Page.navigate", {"url": f"{base}/directions?source=43.7276,7.4157&destination={args.search}&mode=walking"})
    page.wait_for("window.openMapKit !== undefined && openMapKit.routeCount > 0", 25, "routes from /directions")
    page.wait_idle()
    record["directions"] = {"routes": page.evaluate("[...document.querySelectorAll('#routes li')].map(li => li.textContent)"),
                            "transport": page.evaluate("document.querySelector('#transport [aria-checked=true]').dataset.transport")}
    shot("links-directions")
    page.call("Page.navigate", {"url": f"{base}/place?coordinate=43.7384,7.4246"})
    page.wait_for("window.openMapKit !== undefined && !document.getElementById('callout').hidden && !document.getElementById('callout-detail').textContent.includes('Looking up')",
                  25, "the place card from /place")
    record["place"] = {"title": page.evaluate("document.getElementById('callout-title').textContent"),
                       "detail": page.evaluate("document.getElementById('callout-detail').textContent"), "view": page.evaluate("openMapKit.view")}


def run_without_webgl(args, record):
    """A browser with no WebGL at all: the page says so and works on the server's pictures."""
    session(args, record, lambda page, shot: static_steps(args, record, page, shot),
            browser_args=("--disable-3d-apis", "--disable-webgl", "--disable-webgl2"))


def static_steps(args, record, page, shot):
    page.call("Page.navigate", {"url": args.url})
    page.wait_for("document.readyState === 'complete' && window.openMapKit !== undefined", 20, "the page to load")
    page.wait_for("openMapKit.tiles.loaded > 0", 25, "the first pictures")
    page.wait_idle()
    record["initial"] = {"kind": page.evaluate("openMapKit.kind"), "tiles": page.evaluate("openMapKit.tiles"),
                         "notice": page.evaluate("!document.getElementById('no-webgl').hidden"),
                         "view": page.evaluate("openMapKit.view")}
    shot("static-01-initial")
    page.drag((700, 450), (520, 360), steps=10)
    page.wait_idle()
    record["pan"] = {"view": page.evaluate("openMapKit.view")}
    page.click_selector("#search")
    page.type_text(args.search)
    page.key("Enter", "Enter", 13, text="\r")
    page.wait_for("document.querySelectorAll('#results li').length > 0 || document.getElementById('status').classList.contains('error')",
                  15, "search results")
    page.wait_idle()
    record["search"] = {"results": page.evaluate("[...document.querySelectorAll('#results .line1')].map(e => e.textContent)"),
                        "markers": page.evaluate("openMapKit.markerScreenPoints()")}
    page.click_selector("#results li button")
    page.wait_for("!document.getElementById('callout').hidden", 10, "the place card")
    record["card"] = page.evaluate("document.getElementById('callout-title').textContent")
    page.click_selector("#callout [data-action='to']")
    page.evaluate("document.getElementById('origin').value = '43.7276,7.4157'")
    page.click_selector("#route-button")
    page.wait_for("openMapKit.routeCount > 0 || document.getElementById('status').classList.contains('error')", 60, "directions")
    page.wait_idle()
    record["directions"] = {"routes": page.evaluate("[...document.querySelectorAll('#routes li')].map(li => li.textContent)"),
                            "points": page.evaluate("openMapKit.routeScreenPoints()"), "tiles": page.evaluate("openMapKit.tiles")}
    shot("static-02-directions")


def run_with_key(args, record):
    """A server run with API keys: the page asks for a key, refuses a wrong one with the server's
    reason, then draws and searches with the right one; a key given as ?key= works too and leaves
    the address bar."""
    # The refused key's exchange is an expected 401; anything else is a problem.
    session(args, record, lambda page, shot: key_steps(args, record, page, shot), expected=lambda problem: "401" in problem)


def key_steps(args, record, page, shot):
    form_shown = "!document.getElementById('key-form').hidden"

    page.call("Page.navigate", {"url": args.url})
    page.wait_for(f"document.readyState === 'complete' && window.openMapKit !== undefined && {form_shown}", 20,
                  "the key form")
    time.sleep(0.5)
    record["asked"] = {"tiles": page.evaluate("openMapKit.tiles"), "token": page.evaluate("openMapKit.hasAccessToken"),
                       "apiCalls": page.evaluate("performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/v1/') && !n.endsWith('/v1/token'))")}
    shot("key-01-asked")

    page.click_selector("#api-key")
    page.type_text("not-the-key")
    page.key("Enter", "Enter", 13, text="\r")
    page.wait_for("document.getElementById('key-message').textContent !== ''", 10, "the refusal")
    record["refused"] = {"message": page.evaluate("document.getElementById('key-message').textContent"),
                         "formShown": page.evaluate(form_shown)}

    page.evaluate("document.getElementById('api-key').value = ''")
    page.click_selector("#api-key")
    page.type_text(args.api_key)
    page.key("Enter", "Enter", 13, text="\r")
    page.wait_for("openMapKit.hasAccessToken && openMapKit.tiles.loaded > 0", 25, "tiles with the key")
    page.wait_idle()
    record["accepted"] = {"tiles": page.evaluate("openMapKit.tiles"), "formShown": page.evaluate(form_shown),
                          "resources": page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")}
    shot("key-02-map")

    page.click_selector("#search")
    page.type_text(args.search)
    page.key("Enter", "Enter", 13, text="\r")
    page.wait_for("document.querySelectorAll('#results li').length > 0 || document.getElementById('status').classList.contains('error')",
                  10, "search results")
    record["search"] = {"results": page.evaluate("[...document.querySelectorAll('#results .line1')].map(e => e.textContent)"),
                        "status": page.evaluate("document.getElementById('status').textContent")}

    # The key is kept for the tab's session: a reload does not ask again.
    page.call("Page.reload")
    time.sleep(0.3)
    page.wait_for("document.readyState === 'complete' && window.openMapKit !== undefined", 20, "the page to reload")
    page.wait_for("openMapKit.hasAccessToken && openMapKit.tiles.loaded > 0", 25, "tiles after the reload")
    record["reloaded"] = {"formShown": page.evaluate(form_shown)}

    # ?key= in the address, in a fresh session.
    page.evaluate("sessionStorage.clear()")
    separator = "&" if "?" in args.url else "?"
    page.call("Page.navigate", {"url": f"{args.url}{separator}key={args.api_key}"})
    time.sleep(0.3)
    page.wait_for("document.readyState === 'complete' && window.openMapKit !== undefined", 20, "the page with ?key=")
    page.wait_for("openMapKit.hasAccessToken && openMapKit.tiles.loaded > 0", 25, "tiles with ?key=")
    page.wait_idle()
    record["inAddress"] = {"search": page.evaluate("location.search"), "formShown": page.evaluate(form_shown),
                           "tiles": page.evaluate("openMapKit.tiles")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--search", default="Casino")
    parser.add_argument("--origin", type=float, nargs=2, default=[43.7276, 7.4157], metavar=("LAT", "LON"))
    parser.add_argument("--overview-hash", default="#14.00/43.73500/7.42000/0.0/0")
    parser.add_argument("--buildings-hash", default="#16.50/43.73950/7.42700/0.0/0")
    parser.add_argument("--mode", choices=["page", "links", "static", "key"], default="page")
    parser.add_argument("--api-key", help="the server runs with this API key: drive the key form instead")
    args = parser.parse_args()
    record = {}
    try:
        if args.api_key:
            run_with_key(args, record)
        elif args.mode == "links":
            run_links(args, record)
        elif args.mode == "static":
            run_without_webgl(args, record)
        else:
            run(args, record)
    except Exception as error:  # report what was reached so far; the test prints it
        record["failure"] = f"{type(error).__name__}: {error}"
    print(json.dumps(record))


if __name__ == "__main__":
    main()
