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
    record["initial"] = {"view": view(), "tiles": page.evaluate("openMapKit.tiles"),
                         "title": page.evaluate("document.title"),
                         "attribution": page.evaluate("document.getElementById('attribution').textContent.trim()"),
                         "scale": page.evaluate("document.getElementById('scale-label').textContent"),
                         "styles": page.evaluate("[...document.querySelectorAll('#styles button')].map(b => b.dataset.style)")}
    shot("01-initial")

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

    # 3. Wheel to zoom in around the pointer.
    for _ in range(3):
        page.mouse("mouseWheel", 760, 420, button="none", buttons=0, deltaX=0, deltaY=-120)
        time.sleep(0.05)
    page.wait_idle()
    record["zoom"] = {"view": view(), "scale": page.evaluate("document.getElementById('scale-label').textContent")}
    shot("03-zoom")

    # 4. Keyboard: rotate with Shift+Right, then the compass resets north; '-' zooms out.
    page.evaluate("document.getElementById('map').focus()")
    page.key("ArrowRight", "ArrowRight", 39, modifiers=8)
    page.key("ArrowRight", "ArrowRight", 39, modifiers=8)
    page.wait_idle()
    rotated = view()
    shot("04-rotated")
    page.click_selector("#compass")
    page.wait_idle()
    north = view()
    page.evaluate("document.getElementById('map').focus()")
    page.key("-", "Minus", 189, text="-")
    page.wait_idle()
    record["keyboard"] = {"rotated": rotated, "north": north, "zoomedOut": view()}

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
    record["directions"] = route

    # 7. The dark style.
    page.click_selector("#styles button[data-style='dark']")
    page.wait_idle()
    record["dark"] = {"tiles": page.evaluate("openMapKit.tiles")}
    shot("09-dark")

    # 8. A phone: narrow, dense screen (the @2x tiles), the panel across the top.
    page.resize(390, 844, 2, True)
    page.evaluate("window.dispatchEvent(new Event('resize'))")
    page.wait_idle()
    record["phone"] = {"tiles": page.evaluate("openMapKit.tiles"),
                       "panel": page.evaluate("(() => { const r = document.getElementById('panel').getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })()")}
    shot("10-phone")

    # 9. Two fingers: spread them apart while turning, and the map zooms and rotates with them.
    before = view()
    cx, cy = 195, 600
    for i in range(0, 11):
        spread = 50 + 50 * i / 10          # the fingers' distance doubles: one zoom level
        angle = 0.35 * i / 10              # and they turn by 20°
        points = [{"x": cx + spread * math.cos(angle) * sign, "y": cy + spread * math.sin(angle) * sign, "id": n}
                  for n, sign in ((0, -1), (1, 1))]
        page.call("Input.dispatchTouchEvent", {"type": "touchStart" if i == 0 else "touchMove", "touchPoints": points})
        time.sleep(0.02)
    page.call("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_idle()
    record["pinch"] = {"before": before, "after": view()}
    shot("11-pinch")


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
    record["asked"] = {"tiles": page.evaluate("openMapKit.tiles"), "token": page.evaluate("openMapKit.hasAccessToken")}
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
    parser.add_argument("--overview-hash", default="#15.00/43.73500/7.42000/0.0")
    parser.add_argument("--api-key", help="the server runs with this API key: drive the key form instead")
    args = parser.parse_args()
    record = {}
    try:
        if args.api_key:
            run_with_key(args, record)
        else:
            run(args, record)
    except Exception as error:  # report what was reached so far; the test prints it
        record["failure"] = f"{type(error).__name__}: {error}"
    print(json.dumps(record))


if __name__ == "__main__":
    main()
