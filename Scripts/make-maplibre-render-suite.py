#!/usr/bin/env python3
"""Builds Tests/MapRenderTests/MapLibreRenderSuite from MapLibre Native's render tests.

    make-maplibre-render-suite.py MAPLIBRE_NATIVE_CHECKOUT [--out DIR] [--peer DIR]
                                  [--undo-rename WORD] [--only GROUP[/CASE]]

Run it with the MapLibre peer's Python (`/tmp/maplibre-peer/venv/bin/python`, see
../shared/peers/maplibre/README.md): the reference images are drawn HERE by MapLibre Native (PyPI
`mapli`), not copied from MapLibre's repository, whose expected.png files come from other builds.

For every chosen case (metrics/integration/render-tests/<group>/<case>/style.json) it
- rewrites `local://X` references to relative paths of `<out>/assets/X` and inlines TileJSON
  sources (`local://tilesets/...`, whose tile URLs point at MapLibre's test server) as `tiles`;
- turns `metadata.test` into our case.json (the format of ../shared/conformance/render):
  camera from the style root, width/height (default 512), pixelRatio (1), and `allowed` as
  allowedDiffFraction when the test gives one, else 0.00025, or 0.005 for cases with text (glyph
  edges differ: FreeType outlines here, SDF glyphs in MapLibre — the shared suite's rule);
- renders expected.png with MapLibre Native, recording every file it reads, and copies exactly
  those files into `<out>/assets` (so the suite carries only the assets it needs);
- drops the case, and says so, when MapLibre Native fails to render it or a file is missing.

The MapLibre test glyphs ("Open Sans Semibold,Arial Unicode MS Bold") are not part of
maplibre-native's tree (its test runner fetches them), so a font stack's glyphs are served from
the peer's Open Sans SDF glyphs (openmaptiles/fonts) for the stack's first font.

`--undo-rename trackasia` reverses a fork's blanket rename of "maplibre" (track-asia/trackasia-native
carries MapLibre's render tests with the source id "maplibre" renamed; see the suite's README).
"""
import argparse
import json
import os
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import unquote

# Whole groups left out, with why. Everything else is taken case by case (see `case_skip`).
SKIPPED_GROUPS = {
    "debug": "debug overlays (tile borders, collision boxes, overdraw) are not part of a map image",
    "feature-state": "feature state is set at run time by operations",
    "remove-feature-state": "feature state is set at run time by operations",
    "runtime-styling": "runtime style mutations (setPaintProperty, addLayer, ...) between frames",
    "custom-layer-js": "custom layers run JavaScript/GL code",
    "video": "video sources",
    "canvas": "canvas sources (gl-js only)",
    "projection": "globe projection",
    "map-mode": "tile/continuous map modes, not a still image",
    "tile-mode": "tile map mode, not a still image",
    "zoom-history": "depends on the zooms of earlier frames (operations)",
    "symbol-cross-fade": "fade animation between frames",
    "raster-loading": "tile loading over time",
    "collator": "locale-dependent collation",
    "is-supported-script": "script support probing of the GL renderer",
    "text-writing-mode": "vertical CJK text: large CJK glyph assets",
    "text-arabic": "RTL shaping test data relies on MapLibre's bidi plug-in",
    "basic-v9": "whole Mapbox styles (mapbox:// resources)",
    "bright-v9": "whole Mapbox styles (mapbox:// resources)",
    "satellite-v9": "whole Mapbox styles (mapbox:// resources)",
    "real-world": "whole Mapbox styles from local://styles (not carried)",
    "regressions": "bug regressions mixing many features; taken from the property groups instead",
    "combinations": "every layer type over every other: 124 cases of mostly the same pairs; "
                    "the property groups cover the layer types",
    "sprites": "sprite sheet variants (arrays of sprites, SDF images) of the image API",
}

# metadata.test keys that ask for something other than a plain still image.
UNSUPPORTED_TEST_KEYS = {
    "collisionDebug": "collision debug boxes",
    "debug": "debug overlay",
    "showOverdrawInspector": "overdraw inspector",
    "showPadding": "padding overlay",
    "axonometric": "axonometric projection",
    "skew": "skewed projection",
    "addFakeCanvas": "canvas source",
    "crossSourceCollisions": "cross-source collisions off",
    "mapMode": "map mode other than static",
}
STILL_OPERATIONS = {"wait", "idle", "sleep"}
TEXT_TOLERANCE = 0.005
DEFAULT_TOLERANCE = 0.00025


def case_skip(style, test):
    """Why a case cannot be a still-image case for us, or None."""
    for key, why in UNSUPPORTED_TEST_KEYS.items():
        if key in test and not (key == "mapMode" and test[key] == "static"):
            return why
    ops = {op[0] if isinstance(op, list) else str(op) for op in test.get("operations", [])}
    if ops - STILL_OPERATIONS:
        return "operations " + ",".join(sorted(ops - STILL_OPERATIONS))
    text = json.dumps(style)
    for marker, why in (("mapbox://", "mapbox:// resources"), ("local://styles", "whole style by URL"),
                        ("local://mapbox-gl-styles", "whole style by URL"), ("local://video", "video"),
                        ("NotoCJK", "CJK glyphs"), ("chinese.geojson", "CJK glyphs"),
                        ("http://", "network URL"), ("https://", "network URL")):
        if marker in text:
            return why
    if "terrain" in style or "projection" in style or "sky" in style:
        return "terrain/projection/sky"
    for src in style.get("sources", {}).values():
        if src.get("type") in ("video", "canvas"):
            return "video/canvas source"
    for layer in style.get("layers", []):
        if layer.get("type") == "custom":
            return "custom layer"
    return None


class Assets:
    """Resolves `<out>/assets/<rel>` to the file it comes from, and remembers what was read."""

    def __init__(self, integration: Path, fonts: Path, out_assets: Path):
        self.integration, self.fonts, self.out_assets = integration, fonts, out_assets
        self.used = {}  # rel -> source path
        self.missing = []
        self.lock = threading.Lock()

    def source_for(self, rel: str):
        parts = rel.split("/")
        if parts[0] == "glyphs" and len(parts) == 3:
            own = self.integration / rel
            if own.is_file():
                return own
            first = parts[1].split(",")[0].strip()
            return self.fonts / first / parts[2]
        return self.integration / rel

    def __call__(self, req):
        path = unquote(req.url[len("refl://"):]).split("?")[0]
        rel = os.path.relpath(path, self.out_assets)
        if rel.startswith(".."):
            with self.lock:
                self.missing.append(path)
            return mapli.Response.error(mapli.ErrorReason.NOT_FOUND, f"outside the assets: {path}")
        src = self.source_for(rel)
        try:
            data = src.read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            if req.kind == "tile":
                # MapLibre asks for parent tiles the tests do not have (its test server answers
                # 404 too) and draws a missing tile empty, as our renderer does.
                return mapli.Response.no_content()
            with self.lock:
                self.missing.append(rel)
            return mapli.Response.error(mapli.ErrorReason.NOT_FOUND, f"missing {rel}")
        with self.lock:
            self.used[rel] = src
        return data


def localize(style, integration: Path, depth: int):
    """local://X -> ../../assets/X (relative to the case folder); TileJSON sources inlined."""
    up = "../" * depth + "assets/"

    def rel(url):
        return up + url[len("local://"):] if isinstance(url, str) and url.startswith("local://") else url

    for src in style.get("sources", {}).values():
        url = src.get("url")
        if isinstance(url, str) and url.startswith("local://tilesets/"):
            tilejson = json.loads((integration / url[len("local://"):]).read_text())
            del src["url"]
            for key, value in tilejson.items():
                src.setdefault(key, value)
            # The TileJSON names MapLibre's test server; the same files are under local://tiles.
            src["tiles"] = ["local://tiles/" + t.split("/tiles/", 1)[1] for t in src["tiles"]]
        if "tiles" in src:
            src["tiles"] = [rel(t) for t in src["tiles"]]
        for key in ("url", "data"):
            if isinstance(src.get(key), str):
                src[key] = rel(src[key])
    for key in ("glyphs", "sprite"):
        if isinstance(style.get(key), str):
            style[key] = rel(style[key])
    if isinstance(style.get("sprite"), list):
        for sprite in style["sprite"]:
            sprite["url"] = rel(sprite["url"])
    return style


def has_text(style):
    return any(layer.get("type") == "symbol" and "text-field" in layer.get("layout", {})
               for layer in style.get("layers", []))


def absolute_for_peer(style, case_dir: Path):
    """Relative references -> refl:///abs/path (served by `Assets`)."""
    def ab(url):
        if isinstance(url, str) and url.startswith("../"):
            return "refl://" + os.path.normpath(str(case_dir / url))
        return url
    s = json.loads(json.dumps(style))
    s.pop("metadata", None)
    for src in s.get("sources", {}).values():
        if "tiles" in src:
            src["tiles"] = [ab(t) for t in src["tiles"]]
        for key in ("url", "data"):
            if isinstance(src.get(key), str):
                src[key] = ab(src[key])
    for key in ("glyphs", "sprite"):
        if isinstance(s.get(key), str):
            s[key] = ab(s[key])
    if isinstance(s.get("sprite"), list):
        for sprite in s["sprite"]:
            sprite["url"] = ab(sprite["url"])
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", type=Path, help="a maplibre-native checkout (or a fork with the same layout)")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "Tests/MapRenderTests/MapLibreRenderSuite")
    ap.add_argument("--peer", type=Path, default=Path("/tmp/maplibre-peer"), help="the peer's install folder (assets/fonts)")
    ap.add_argument("--undo-rename", help="a word a fork put in place of 'maplibre' everywhere")
    ap.add_argument("--only", help="a prefix of GROUP/CASE/")
    # The suite is kept small (repository size, and `make test` time in a debug build): at most
    # this many cases per group, in name order, and none whose reference image is large (big
    # raster and real-street images, which are also the slowest to compare).
    ap.add_argument("--per-group", type=int, default=4)
    ap.add_argument("--max-png-bytes", type=int, default=100_000)
    a = ap.parse_args()

    integration = a.checkout / "metrics/integration"
    tests = integration / "render-tests"
    out, out_assets = a.out.resolve(), a.out.resolve() / "assets"
    out.mkdir(parents=True, exist_ok=True)
    assets = Assets(integration, a.peer / "assets/fonts", out_assets)
    mapli.register_scheme_handler("refl", assets)

    taken, skipped, dropped = [], {}, {}
    for style_path in sorted(tests.glob("**/style.json")):
        case_id = str(style_path.parent.relative_to(tests))
        group = case_id.split("/")[0]
        if a.only and not (case_id + "/").startswith(a.only):
            continue
        if group in SKIPPED_GROUPS:
            skipped.setdefault(f"group {group}: {SKIPPED_GROUPS[group]}", []).append(case_id)
            continue
        text = style_path.read_text()
        if a.undo_rename:
            text = text.replace(a.undo_rename, "maplibre")
        style = json.loads(text)
        test = style.get("metadata", {}).get("test", {})
        why = case_skip(style, test)
        if why:
            skipped.setdefault(why, []).append(case_id)
            continue
        if sum(1 for t in taken if t.split("/")[0] == group) >= a.per_group:
            skipped.setdefault(f"more than {a.per_group} cases in the group", []).append(case_id)
            continue
        case_dir = out / case_id
        style = localize(style, integration, depth=case_id.count("/") + 1)
        allowed = test.get("allowed", TEXT_TOLERANCE if has_text(style) else DEFAULT_TOLERANCE)
        camera = {
            "center": style.get("center", [0, 0]), "zoom": style.get("zoom", 0),
            "bearing": style.get("bearing", 0), "pitch": style.get("pitch", 0),
            "width": test.get("width", 512), "height": test.get("height", 512),
            "pixelRatio": test.get("pixelRatio", 1),
            "notes": f"MapLibre render test {case_id}" + (f": {test['description']}" if "description" in test else ""),
            "allowedDiffFraction": allowed,
        }
        assets.used, assets.missing = {}, []
        name = f"case{len(taken) + sum(map(len, dropped.values()))}"
        try:
            # A fresh pool per case: with one pool for the whole run, a case's image came out
            # different from the same case rendered alone (state carried over between styles).
            pool = mapli.RenderPool(workers=1)
            pool.register_style(name, json=absolute_for_peer(style, case_dir))
            png = pool.render(name, lon=camera["center"][0], lat=camera["center"][1], zoom=camera["zoom"],
                              width=camera["width"], height=camera["height"], bearing=camera["bearing"],
                              pitch=camera["pitch"], pixel_ratio=camera["pixelRatio"])
        except (mapli.MapliError, ValueError) as error:
            dropped.setdefault(f"MapLibre Native fails: {type(error).__name__}", []).append(f"{case_id} ({error})"[:200])
            continue
        if assets.missing:
            dropped.setdefault("missing files", []).append(f"{case_id}: {sorted(set(assets.missing))[:3]}")
            continue
        if len(png) > a.max_png_bytes:
            skipped.setdefault(f"reference image over {a.max_png_bytes} bytes", []).append(case_id)
            continue
        case_dir.mkdir(parents=True, exist_ok=True)
        (case_dir / "style.json").write_text(json.dumps(style, indent=2) + "\n")
        (case_dir / "case.json").write_text(json.dumps(camera) + "\n")
        (case_dir / "expected.png").write_bytes(png)
        for rel, src in assets.used.items():
            dest = out_assets / rel
            if not dest.exists():
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dest)
        taken.append(case_id)
        print("took", case_id, flush=True)

    (out / "selection.json").write_text(json.dumps({"taken": taken, "skipped": skipped, "dropped": dropped}, indent=1) + "\n")
    print(f"\n{len(taken)} cases taken")
    for why, cases in sorted(skipped.items()):
        print(f"skipped ({len(cases)}) {why}: {' '.join(cases[:6])}{' ...' if len(cases) > 6 else ''}")
    for why, cases in sorted(dropped.items()):
        print(f"dropped ({len(cases)}) {why}:", *cases, sep="\n  ")
    return 0


if __name__ == "__main__":
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("EGL_PLATFORM", "surfaceless")  # Mesa software rendering, no X server
    import mapli  # noqa: E402  (after EGL_PLATFORM, which it reads when loaded)
    sys.exit(main())
