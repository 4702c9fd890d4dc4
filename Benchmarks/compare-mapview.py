#!/usr/bin/env python3
"""The map view: frame times along a camera path and annotation clustering, against MapLibre Native.

Usage: compare-mapview.py PATH/TO/openmapkit [--frames N] [--path pan|zoom|both]
                          [--points N,N...] [--runs N] [--bundle DIR] [--save-dir DIR] [--no-peer]

OpenMapKitBenchmarks must be built beside openmapkit (`make bench` builds both).

1. Frames. Monaco (../shared/data/osm/monaco.osm.pbf) is imported into a temporary bundle (or
   --bundle names one). `OpenMapKitBenchmarks mapview BUNDLE --json` drives an MKMapView of
   1280 x 800 points along a scripted camera path over the city: a pan round an ellipse at zoom
   15.5, a continuous zoom 15 -> 17 -> 13 -> 15 in fractional steps, a full turn of the heading
   (N frames shared 40/45/15 %). Each frame is the camera change plus `render()`, wall time, in
   three variants on fresh map views: full resolution (contentScaleFactor 1), moving frames
   (contentScaleFactor 0.5, what `openmapkit view` draws while the map moves), and full
   resolution plus PNG encoding (`fastPNGData`, the server's encoder). It prints every frame's
   camera as the map view showed it (centre, zoom, heading).
   MapLibre Native then renders the SAME cameras (same centre, zoom, bearing = heading, 1280 x 800
   at pixel ratio 1) through the peer's PyPI `mapli` (../shared/peers/maplibre; Mesa llvmpipe
   software GL), with ONE RenderPool(workers=1) kept for the whole path, whose renderer keeps its
   tile cache from frame to frame as a live map does. The style is OUR standard style as MapLibre
   loads it: `openmapkit serve BUNDLE` runs on a free loopback port and MapLibre loads
   http://127.0.0.1:PORT/styles/standard.json, whose tiles, sprites and glyphs come from the same
   server (every request is local; the server's time to answer is inside MapLibre's frame times,
   as tile reading is inside ours). Both use MapLibre's zoom (a 512-point world at zoom 0).
   The first frame of each (tiles read, style and shaders compiled) is reported as cold and left
   out; then median, p90, p99 of the rest, frames/s from the median, per segment too, and the
   ratio ours / MapLibre: like for like is ours with PNG encoding against MapLibre (whose API
   returns PNG bytes); ours without encoding and at half resolution are shown beside it.
   One frame of each is saved to --save-dir (mapview-ours.png, mapview-maplibre.png) and their
   difference is measured on 64 x 40 grey thumbnails (mean absolute difference in 0-255 and the
   correlation) as a check that both drew the same view.
2. Clustering. `OpenMapKitBenchmarks mapview-cluster BUNDLE --points N,N --geojson DIR --json`:
   N MKPointAnnotations (fixed seed) round 40 places inside the 1280 x 800 view of Monaco at zoom
   14, their MKMarkerAnnotationViews sharing one clusteringIdentifier, clustering radius 40 points;
   median of --runs runs on a fresh map view: add + first clustering, adding one more (the
   whole group is re-indexed, as for an app adding annotations one at a time), a frame drawn
   with the clusters, zoom in 14 -> 15 (re-clustering), 15 -> 15.5 (same level), a pan by half
   the width, zoom out to 14, remove all; and the PointClusterIndex build alone for the same points. The
   delegate dequeues its views as apps do (`--views dequeue`). `OpenMapKitBenchmarks cluster`
   gives PointClusterIndex's own figures (supercluster's options, world and towns
   distributions).
   MapLibre Native: a style with a GeoJSON source of the same points (the file the benchmark
   wrote, read by MapLibre from disk) and one circle layer, rendered at the same 1280 x 800 view
   with `cluster: true, clusterRadius: 40, clusterMaxZoom: 16`, and without clustering. MapLibre
   parses the GeoJSON and builds its index (supercluster when clustered, geojson-vt otherwise)
   when the source loads, so the cost shows in the first render of a freshly registered style
   (one pool; --runs times each, alternating; medians). To time the loading without drawing the
   points, these first renders show the same zoom far away from the points: a style with no
   source (the baseline: style load, a blank frame), `cluster: false`, `cluster: true`; and
   `cluster: true` at the points (the first frame, drawing included). Estimates: clustered -
   unclustered (the briefed method; it comes out negative, because the unclustered source runs
   geojson-vt over every point while the clustered one only tiles clusters on demand, so it is
   shown but not used), and clustered - no source (GeoJSON parsing plus supercluster: an upper
   bound of MapLibre's clustering cost; a clusterMaxZoom 0 source, tried as a way to take the
   parsing out, took as long as clusterMaxZoom 16, so it is not a usable lower bound). Then warm
   renders of the clustered style at the same steps as ours: zoom 15, 15.5, the pan, back to 14
   (each includes drawing, where ours are the model's update alone).

3. Faces. `OpenMapKitBenchmarks mapview-faces BUNDLE` draws the same camera path with an MKMapView
   and an MGLMapView (Mapbox's face over the same engine), alternating frame by frame, and prints
   each one's median frame and the ratio: the Mapbox face should cost what the MapKit face does.

MapLibre Native is installed by ../shared/peers/maplibre/setup.sh into $MAPLIBRE_PEER_DIR
(default /tmp/maplibre-peer) when missing; when that fails, or the server does not start, the
reason is printed and only our times are reported. The machine is shared and noisy: only medians
from the same run are comparable.
"""
import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile

from benchmark_support import HERE, SHARED, free_port, percentile, wait_until_up


def load_compare_render():
    """compare-render.py as a module: its peer installation and checks (peer_python)."""
    spec = importlib.util.spec_from_file_location("compare_render", os.path.join(HERE, "compare-render.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Runs in the peer's Python (mapli). Modes: `path` renders a camera path with one pool; `cluster`
# times GeoJSON sources with and without clustering.
PEER = r'''
import json, os, statistics, sys, time
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("EGL_PLATFORM", "surfaceless")
import mapli

job = json.load(open(sys.argv[1]))
out = {}
pool = mapli.RenderPool(workers=1)

def thumb(png_path):
    from PIL import Image
    return list(Image.open(png_path).convert("L").resize((64, 40), Image.BILINEAR).getdata())

if job["mode"] == "path":
    pool.register_style("ours", url=job["style"])
    times, cpu, sizes = [], [], []
    for n, f in enumerate(job["frames"]):
        t, c = time.perf_counter(), time.process_time()
        png = pool.render("ours", lon=f["longitude"], lat=f["latitude"], zoom=f["zoom"], width=job["width"],
                          height=job["height"], bearing=f["heading"], pitch=0, pixel_ratio=1)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        sizes.append(len(png))
        if n == job["save_frame"]:
            open(job["save"], "wb").write(png)
    out = {"ms": times, "cpuMs": cpu, "pngBytes": sizes}
    if job.get("ours") and os.path.exists(job["ours"]):
        a, b = thumb(job["ours"]), thumb(job["save"])
        ma, mb = statistics.mean(a), statistics.mean(b)
        cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
        va, vb = sum((x - ma) ** 2 for x in a), sum((y - mb) ** 2 for y in b)
        out["compare"] = {"meanAbsDiff": statistics.mean(abs(x - y) for x, y in zip(a, b)),
                          "correlation": cov / (va * vb) ** 0.5 if va > 0 and vb > 0 else 0}
else:
    view = job["view"]
    def style(data, kind):
        layers = [{"id": "background", "type": "background", "paint": {"background-color": "#f6f3ec"}}]
        if kind == "empty":
            return {"version": 8, "sources": {}, "layers": layers}
        source = {"type": "geojson", "data": "file://" + data}
        if kind == "cluster":
            source.update({"cluster": True, "clusterRadius": 40, "clusterMaxZoom": 16})
        return {"version": 8, "sources": {"points": source}, "layers": layers + [
            {"id": "points", "type": "circle", "source": "points",
             "paint": {"circle-color": "#d03030", "circle-radius": ["case", ["has", "point_count"], 14, 5]}}]}
    def render(style_id, zoom=view["zoom"], lon=view["longitude"], lat=view["latitude"]):
        t = time.perf_counter()
        pool.render(style_id, lon=lon, lat=lat, zoom=zoom, width=view["width"], height=view["height"])
        return (time.perf_counter() - t) * 1000
    for count, data in job["files"]:
        # Away: the same zoom far from the points, so no point is drawn and the first render is
        # the style's load with the source's (GeoJSON parsed, index built when the source loads).
        cold = {"empty": [], "plain": [], "cluster": [], "clusterHere": []}
        for run in range(job["runs"]):
            for kind in ("empty", "plain", "cluster"):
                style_id = f"{kind}-{count}-{run}"
                pool.register_style(style_id, json=style(data, kind))
                cold[kind].append(render(style_id, lon=view["longitude"] - 40, lat=view["latitude"] - 20))
            style_id = f"here-{count}-{run}"
            pool.register_style(style_id, json=style(data, "cluster"))
            cold["clusterHere"].append(render(style_id))
        # Warm steps on the last clustered style, as ours: zoom in, same level, pan, back out.
        last = f"here-{count}-{job['runs'] - 1}"
        steps = {}
        z = view["zoom"]
        steps["zoom in 14 -> 15"] = render(last, zoom=z + 1)
        steps["zoom 15 -> 15.5"] = render(last, zoom=z + 1.5)
        steps["pan by half the width at 15.5"] = render(last, zoom=z + 1.5, lon=view["panLongitude"])
        steps["zoom out to 14"] = render(last, zoom=z)
        out[str(count)] = {"cold": cold, "warm": steps}
json.dump(out, open(sys.argv[2], "w"))
'''


def stats(values):
    return {"medianMs": percentile(values, 50), "p90Ms": percentile(values, 90), "p99Ms": percentile(values, 99)}


def row(label, cold, s, width=52):
    fps = 1000 / s["medianMs"] if s["medianMs"] > 0 else 0
    cold_text = f"{cold:9.1f}" if cold is not None else f"{'':9}"
    return f"{label:<{width}}{cold_text}{s['medianMs']:9.1f}{s['p90Ms']:9.1f}{s['p99Ms']:9.1f}{fps:8.1f}"


def run_peer(python, job, tmp, timeout):
    job_path, out_path = os.path.join(tmp, f"peer-{job['mode']}.json"), os.path.join(tmp, f"peer-{job['mode']}-out.json")
    script = os.path.join(tmp, "peer_mapview.py")
    with open(script, "w") as f:
        f.write(PEER)
    with open(job_path, "w") as f:
        json.dump(job, f)
    result = subprocess.run([python, script, job_path, out_path], capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError((result.stderr or result.stdout).strip()[-400:])
    with open(out_path) as f:
        return json.load(f)


def ours_path(benchmarks, bundle, args, ours_png, save_frame):
    """One run of our camera path: (frames, summary); raises RuntimeError when it fails."""
    command = [benchmarks, "mapview", bundle, "--frames", str(args.frames), "--path", args.path, "--json",
               "--save", ours_png, "--save-frame", str(save_frame)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        # A crash report is long: its first lines say what happened; the whole of it is kept.
        lines = result.stderr.strip().splitlines()
        cause = [line for line in lines if "Fatal error" in line or "crashed" in line or line.startswith("error")][:3]
        report = os.path.join(args.save_dir, "mapview-failure.txt")
        with open(report, "w") as f:
            f.write(result.stderr)
        raise RuntimeError(f"{' '.join(command)} failed ({result.returncode}): " + "\n  ".join(cause or lines[-5:])
                           + f"\n  (its standard error: {report})")
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return [line for line in lines if "frame" in line], next(line["summary"] for line in lines if "summary" in line)


def frames(benchmarks, openmapkit, bundle, python, args, tmp):
    ours_png = os.path.join(args.save_dir, "mapview-ours.png")
    save_frame = 1
    server = None
    style = None
    if python:
        port = free_port()
        server = subprocess.Popen([openmapkit, "serve", bundle, "--host", "127.0.0.1", "--port", str(port), "--log", "none"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_until_up(f"http://127.0.0.1:{port}/healthz", server)
            style = f"http://127.0.0.1:{port}/styles/standard.json"
        except RuntimeError as error:
            print(f"\nMapLibre Native: `openmapkit serve` did not start, reporting our times only: {error}")
    # Rounds alternate ours and MapLibre's whole path; each round's first frame is cold.
    ours_rounds, their_rounds = [], []
    try:
        for _ in range(args.rounds):
            try:
                ours_rounds.append(ours_path(benchmarks, bundle, args, ours_png, save_frame))
            except RuntimeError as error:
                print(f"\nFrames: {error}")
                return
            if style:
                path = ours_rounds[0][0]
                job = {"mode": "path", "style": style, "width": 1280, "height": 800, "frames": path,
                       "save": os.path.join(args.save_dir, "mapview-maplibre.png"), "save_frame": save_frame, "ours": ours_png}
                try:
                    their_rounds.append(run_peer(python, job, tmp, timeout=60 + 10 * len(path)))
                except (RuntimeError, subprocess.TimeoutExpired) as error:
                    print(f"\nMapLibre Native: the camera path failed, reporting our times only: {error}")
                    style = None
    finally:
        if server:
            server.terminate()
            server.wait()

    path, summary = ours_rounds[0]
    segments = [name for name, _ in summary["segments"]]
    counts = ", ".join(f"{name} {n}" for name, n in summary["segments"])
    print(f"\nMap view {summary['size']} on Monaco, {summary['frames']} frames ({counts}) x {len(ours_rounds)} rounds: "
          f"wall ms per frame, the first (cold) apart; CPU: median process CPU ms per frame")
    print(f"{'':52}{'cold':>9}{'median':>9}{'p90':>9}{'p99':>9}{'fps':>8}{'CPU':>9}")

    def warm(rounds, pick):
        """Every round's frames after the first, as (segment, value)."""
        return [(f["segment"], pick(r, n)) for r in rounds for n, f in enumerate(path) if n > 0]

    def report(label, rounds, pick, pick_cpu):
        values = warm(rounds, pick)
        colds = statistics.median(pick(r, 0) for r in rounds)
        cpu = statistics.median(v for _, v in warm(rounds, pick_cpu))
        print(row(label, colds, stats([v for _, v in values])) + f"{cpu:9.1f}")
        for name in segments:
            part = [v for s, v in values if s == name]
            if part:
                print(row("  " + name, None, stats(part)))
        by_segment = {name: [v for s, v in values if s == name] for name in segments}
        return statistics.median(v for _, v in values), {name: statistics.median(v) for name, v in by_segment.items() if v}

    variants = [("png", "ours, full resolution + PNG encoding"), ("full", "ours, full resolution (render() only)"),
                ("moving", "ours, moving frames at scale 0.5 (render() only)")]
    ours_medians = {}
    for key, label in variants:
        ours_medians[key] = report(label, ours_rounds, lambda r, n, key=key: r[0][n]["ms"][key],
                                   lambda r, n, key=key: r[0][n]["cpuMs"][key])
    encode = [f.get("encodeMs") for r in ours_rounds for f in r[0][1:] if f.get("encodeMs") is not None]
    if encode:
        print(f"  (of which PNG encoding, fastPNGData: median {statistics.median(encode):.1f} ms)")
    if their_rounds:
        theirs = report("MapLibre Native (llvmpipe), PNG bytes", their_rounds, lambda r, n: r["ms"][n], lambda r, n: r["cpuMs"][n])
        print("ratio of medians, ours / MapLibre (below 1: ours faster)")
        for key, label in variants:
            print(f"  {label:<50}{ours_medians[key][0] / theirs[0]:8.2f}")
        for name in segments:
            if name in theirs[1] and name in ours_medians["png"][1]:
                print(f"  {'  ' + name + ' (with PNG)':<50}{ours_medians['png'][1][name] / theirs[1][name]:8.2f}")
        cpu_ours = statistics.median(f["cpuMs"]["png"] for r in ours_rounds for f in r[0][1:])
        cpu_theirs = statistics.median(v for r in their_rounds for v in r["cpuMs"][1:])
        print(f"  {'CPU per frame, ours with PNG / MapLibre':<50}{cpu_ours / cpu_theirs:8.2f}")
        sizes = their_rounds[0]["pngBytes"]
        print(f"average PNG bytes: ours {summary.get('averagePNGBytes', 0)}, MapLibre {sum(sizes) // len(sizes)}")
        if "compare" in their_rounds[0]:
            c = their_rounds[0]["compare"]
            print(f"same view check, frame {save_frame} ({args.save_dir}/mapview-ours.png vs mapview-maplibre.png): "
                  f"64x40 grey thumbnails differ by {c['meanAbsDiff']:.1f}/255 on average, correlation {c['correlation']:.2f}")


def cluster_index(benchmarks, counts, runs):
    result = subprocess.run([benchmarks, "cluster", "--points", counts, "--runs", str(runs)], capture_output=True, text=True)
    if result.returncode != 0:
        print(f"  OpenMapKitBenchmarks cluster failed: {result.stderr.strip()[-300:]}")
        return
    print("PointClusterIndex alone (`OpenMapKitBenchmarks cluster`: radius 40, extent 512, zooms 0-16, median thread CPU):")
    for line in result.stdout.splitlines():
        if " build " in line:
            print("  " + line.strip())


def clustering(benchmarks, bundle, python, args, tmp):
    counts = [int(c) for c in args.points.split(",") if c.strip()]
    command = [benchmarks, "mapview-cluster", bundle, "--points", args.points, "--runs", str(args.runs), "--views", "dequeue",
               "--geojson", tmp, "--json"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"\nClustering: {' '.join(command)} failed: {result.stderr.strip()[-400:]}")
        return
    ours = json.loads(result.stdout)

    theirs = None
    if python:
        # Half the view's width at zoom 15.5, east: the same pan as ours.
        pan_degrees = 640 * 360 / (512 * 2 ** 15.5)
        job = {"mode": "cluster", "runs": args.runs, "files": [[c, os.path.join(tmp, f"points-{c}.geojson")] for c in counts],
               "view": {"latitude": ours["latitude"], "longitude": ours["longitude"], "zoom": ours["zoom"], "width": 1280,
                        "height": 800, "panLongitude": ours["longitude"] + pan_degrees}}
        try:
            theirs = run_peer(python, job, tmp, timeout=600)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            print(f"\nMapLibre Native: the clustering renders failed, reporting our times only: {error}")

    print(f"\nClustering, {ours['size']} view of Monaco at zoom {ours['zoom']:g}, radius {ours['radius']:g} points, "
          f"median of {args.runs} runs, ms (wall; thread CPU for ours in brackets)")
    for entry in ours["counts"]:
        n = entry["points"]
        facts = ", ".join(f"{k} {v}" for k, v in sorted(entry["facts"].items()))
        print(f"{n} annotations ({facts}):")
        print(f"  ours, MKMapView end to end (the delegate dequeues MKMarkerAnnotationViews):")
        for step in entry["steps"]:
            print(f"    {step['step']:<48}{step['wallMs']:9.1f}  ({step['cpuMs']:.1f})")
        if theirs and str(n) in theirs:
            t = theirs[str(n)]
            cold = {kind: statistics.median(values) for kind, values in t["cold"].items()}
            print(f"  MapLibre Native, first render of a newly registered style (background + circle layer):")
            print(f"    {'no source (a view away from the points)':<48}{cold['empty']:9.1f}")
            print(f"    {'GeoJSON, cluster: false (same view away)':<48}{cold['plain']:9.1f}")
            print(f"    {'GeoJSON, cluster: true (same view away)':<48}{cold['cluster']:9.1f}")
            print(f"    {'cluster: true, max zoom 16, at the points':<48}{cold['clusterHere']:9.1f}")
            print(f"    {'clustering estimate, true - false (as briefed)':<48}{cold['cluster'] - cold['plain']:9.1f}")
            print(f"    {'parse + supercluster, true - no source':<48}{cold['cluster'] - cold['empty']:9.1f}")
            print(f"  MapLibre Native, clustered source, warm renders (drawing included):")
            for name, ms in t["warm"].items():
                print(f"    {name:<48}{ms:9.1f}")
    cluster_index(benchmarks, args.points, 7)


def faces(benchmarks, bundle, args):
    """3. The two faces of one engine: MKMapView and MGLMapView along the same path (issue 22)."""
    print()
    result = subprocess.run([benchmarks, "mapview-faces", bundle, "--frames", str(args.frames), "--path", args.path],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"mapview-faces failed: {result.stderr.strip()[-300:]}")
    print(result.stdout.rstrip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("openmapkit")
    parser.add_argument("--frames", type=int, default=240, help="frames along the camera path")
    parser.add_argument("--path", choices=["pan", "zoom", "both"], default="both")
    parser.add_argument("--rounds", type=int, default=2, help="alternating runs of the whole path, ours then MapLibre")
    parser.add_argument("--points", default="10000,100000", help="annotation counts for the clustering figures")
    parser.add_argument("--runs", type=int, default=3, help="runs per clustering figure (the median is shown)")
    parser.add_argument("--bundle", help="an imported bundle instead of importing Monaco")
    parser.add_argument("--save-dir", default=tempfile.gettempdir(), help="where the two compared frames are saved")
    parser.add_argument("--no-peer", action="store_true", help="time ours only")
    args = parser.parse_args()
    args.runs, args.rounds = max(1, args.runs), max(1, args.rounds)
    benchmarks = os.path.join(os.path.dirname(os.path.abspath(args.openmapkit)), "OpenMapKitBenchmarks")
    if not os.path.exists(benchmarks):
        sys.exit(f"{benchmarks} not built (swift build -c release --product OpenMapKitBenchmarks)")
    python = None if args.no_peer else load_compare_render().peer_python(allow_setup=True)
    with tempfile.TemporaryDirectory() as tmp:
        bundle = args.bundle
        if not bundle:
            bundle = os.path.join(tmp, "monaco.omk")
            imported = subprocess.run([args.openmapkit, "import", os.path.join(SHARED, "data", "osm", "monaco.osm.pbf"), "-o", bundle],
                                      capture_output=True, text=True)
            if imported.returncode != 0:
                sys.exit(f"Monaco: import failed: {imported.stderr.strip()[-300:]}")
        frames(benchmarks, args.openmapkit, bundle, python, args, tmp)
        clustering(benchmarks, bundle, python, args, tmp)
        faces(benchmarks, bundle, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
