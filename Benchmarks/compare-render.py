#!/usr/bin/env python3
"""Render times: OpenMapKit's StyleRenderer against MapLibre Native, in the same run.

Usage: compare-render.py PATH/TO/openmapkit [--rounds N] [--repeat N] [--no-peer]

1. The render conformance suite's real-world cases (../shared/conformance/render/realworld/*:
   style.json + case.json, Mapbox Streets tiles, no labels) are drawn by `openmapkit render
   --repeat` and by MapLibre Native (../shared/peers/maplibre/render_ref.py --repeat, through
   PyPI `mapli`, Mesa llvmpipe software GL), alternating, ROUNDS times each. Each invocation draws
   the view REPEAT + 1 times; the first (cold: tiles read, shaders compiled) is left out. Both
   times include PNG encoding. The table shows, per case, the median warm render of ours, of
   MapLibre's, and the ratio (ours / MapLibre; below 1 means we are faster), with the size of the
   PNG each side wrote: we encode at a low deflate level for speed, so our files are larger, and
   the sizes say how much of the time difference that buys.
2. Monaco (../shared/data/osm/monaco.osm.pbf, imported into a temporary bundle): a 1024 x 1024
   snapshot at 2x with the default style, and raster tiles per second (every 256-px 1x tile of
   zooms 14-15, 2 threads, each with its own renderer), from `OpenMapKitBenchmarks render`
   (built beside openmapkit by `make bench`).

MapLibre Native is installed by ../shared/peers/maplibre/setup.sh into $MAPLIBRE_PEER_DIR
(default /tmp/maplibre-peer) when missing; when that fails (no network, no apt), the reason is
printed and only our times are reported. The machines are shared and noisy: only medians from
the same run are comparable.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from benchmark_support import SHARED
PEER = os.path.join(SHARED, "peers", "maplibre")
CASES = os.path.join(SHARED, "conformance", "render", "realworld")


def peer_python(allow_setup):
    """The MapLibre peer's Python, installing it first if needed; None (with the reason) if unusable."""
    folder = os.environ.get("MAPLIBRE_PEER_DIR", "/tmp/maplibre-peer")
    python = os.path.join(folder, "venv", "bin", "python")
    if not os.path.exists(python) and allow_setup:
        print(f"MapLibre Native peer: installing into {folder} (setup.sh)...", flush=True)
        result = subprocess.run(["bash", os.path.join(PEER, "setup.sh"), folder], capture_output=True, text=True)
        if result.returncode != 0:
            tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
            print("MapLibre Native peer: setup failed, reporting our times only:\n  " + "\n  ".join(tail))
            return None
    if not os.path.exists(python):
        print("MapLibre Native peer: not installed, reporting our times only")
        return None
    check = subprocess.run([python, "-c", "import mapli"], capture_output=True, text=True,
                           env=dict(os.environ, EGL_PLATFORM="surfaceless"))
    if check.returncode != 0:
        print("MapLibre Native peer: `import mapli` fails, reporting our times only:\n  " + check.stderr.strip()[-300:])
        return None
    return python


def ours_once(openmapkit, style, case, repeat):
    lon, lat = case["center"]
    command = [openmapkit, "render", style, "--center", f"{lat},{lon}", "--zoom", str(case["zoom"]),
               "--bearing", str(case.get("bearing", 0)), "--size", f"{case['width']}x{case['height']}",
               "--scale", str(case.get("pixelRatio", 1)), "--repeat", str(repeat + 1), "--json"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {result.stderr.strip()}")
    report = json.loads(result.stdout)
    return statistics.median(report["totalMs"][1:]), report["warnings"], report["pngBytes"]


def peer_once(python, style, case, repeat, out):
    lon, lat = case["center"]
    command = [python, os.path.join(PEER, "render_ref.py"), style, out, "--lon", str(lon), "--lat", str(lat),
               "--zoom", str(case["zoom"]), "--bearing", str(case.get("bearing", 0)), "--width", str(case["width"]),
               "--height", str(case["height"]), "--pixel-ratio", str(case.get("pixelRatio", 1)), "--repeat", str(repeat + 1)]
    result = subprocess.run(command, capture_output=True, text=True)
    match = re.search(r"warm renders x\d+: median ([0-9.]+) ms", result.stdout)
    if result.returncode != 0 or not match:
        raise RuntimeError(f"render_ref.py: {(result.stderr or result.stdout).strip()[-300:]}")
    return float(match.group(1)), os.path.getsize(out)


def render_cases(openmapkit, python, rounds, repeat):
    print(f"\nReal-world cases: median warm render incl. PNG encoding, {rounds} rounds x {repeat} renders, alternating")
    print(f"{'case':<22}{'size':>12}{'ours ms':>10}{'MapLibre ms':>13}{'ratio':>8}{'ours PNG KB':>13}{'MapLibre PNG KB':>17}")
    ratios = []
    if not glob.glob(os.path.join(CASES, "*", "case.json")):
        print(f"no cases in {CASES}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        for folder in sorted(glob.glob(os.path.join(CASES, "*"))):
            name = os.path.basename(folder)
            with open(os.path.join(folder, "case.json")) as f:
                case = json.load(f)
            style = os.path.join(folder, "style.json")
            ours, theirs, warnings = [], [], []
            our_png = their_png = None
            for _ in range(rounds):
                ms, warnings, our_png = ours_once(openmapkit, style, case, repeat)
                ours.append(ms)
                if python:
                    try:
                        ms, their_png = peer_once(python, style, case, repeat, os.path.join(tmp, name + ".png"))
                        theirs.append(ms)
                    except RuntimeError as error:
                        print(f"  {name}: MapLibre failed: {error}")
                        python = None
            mo = statistics.median(ours)
            size = f"{case['width']}x{case['height']}@{case.get('pixelRatio', 1)}"
            if theirs:
                mt = statistics.median(theirs)
                ratios.append(mo / mt)
                print(f"{name:<22}{size:>12}{mo:>10.1f}{mt:>13.1f}{mo / mt:>8.2f}{our_png / 1024:>13.1f}{their_png / 1024:>17.1f}")
            else:
                print(f"{name:<22}{size:>12}{mo:>10.1f}{'-':>13}{'-':>8}{our_png / 1024:>13.1f}{'-':>17}")
            for warning in warnings:
                print(f"  warning: {warning}")
    if ratios:
        geometric = statistics.geometric_mean(ratios)
        print(f"{'geometric mean ratio':<56}{geometric:>8.2f}")


def monaco(openmapkit, threads):
    benchmarks = os.path.join(os.path.dirname(os.path.abspath(openmapkit)), "OpenMapKitBenchmarks")
    if not os.path.exists(benchmarks):
        print(f"\nMonaco: {benchmarks} not built (swift build -c release --product OpenMapKitBenchmarks); skipped")
        return
    with tempfile.TemporaryDirectory() as tmp:
        bundle = os.path.join(tmp, "monaco.omk")
        imported = subprocess.run([openmapkit, "import", os.path.join(SHARED, "data", "osm", "monaco.osm.pbf"), "-o", bundle],
                                  capture_output=True, text=True)
        if imported.returncode != 0:
            print(f"\nMonaco: import failed: {imported.stderr.strip()[-300:]}")
            return
        result = subprocess.run([benchmarks, "render", bundle, "--threads", str(threads), "--json"], capture_output=True, text=True)
        if result.returncode != 0:
            print(f"\nMonaco: OpenMapKitBenchmarks render failed: {result.stderr.strip()}")
            return
        report = json.loads(result.stdout)
    snap, tiles = report["snapshot"], report["tiles"]
    print(f"\nMonaco snapshot 1024x1024 @2x (2048 x 2048 px), default style, zoom 15, PNG included: "
          f"median {snap['medianMs']:.1f} ms (first {snap['coldMs']:.1f} ms, min {snap['minMs']:.1f} ms, {snap['samples']} samples)")
    print(f"Monaco raster tiles z14-15, 256 px @1x, {tiles['threads']} threads (own renderer each), PNG included: "
          f"{tiles['tilesPerSecond']:.1f} tiles/s ({tiles['count']} tiles in {tiles['seconds']:.2f} s, "
          f"{tiles['averagePNGBytes']} bytes each on average)")
    for failure in tiles["failures"][:5]:
        print(f"  failed: {failure}")
    for warning in snap["warnings"]:
        print(f"  snapshot warning: {warning}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("openmapkit")
    parser.add_argument("--rounds", type=int, default=3, help="alternating invocations per case and renderer")
    parser.add_argument("--repeat", type=int, default=10, help="warm renders per invocation")
    parser.add_argument("--threads", type=int, default=2, help="threads for the raster tile figure")
    parser.add_argument("--no-peer", action="store_true", help="time ours only")
    args = parser.parse_args()
    python = None if args.no_peer else peer_python(allow_setup=True)
    render_cases(args.openmapkit, python, max(1, args.rounds), max(1, args.repeat))
    monaco(args.openmapkit, args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
