#!/usr/bin/env python3
"""Import benchmark: `openmapkit import` against tilemaker (OpenMapTiles profile), side by side.

Usage: compare-import.py PATH/TO/openmapkit [--scale] [EXTRACT.osm.pbf ...]

For each extract (default: the Monaco, Andorra and Liechtenstein samples) it runs our importer
and ../shared/peers/tiles/tilemaker.sh alternately, RUNS times each, and prints the median wall
time, CPU time and peak memory of each with the ratios (ours / tilemaker; below 1 is better for
us), plus the output sizes. With --scale it also imports Andorra ×100 (52 MB, 7 M nodes), made once
with ../shared/tools/make-large-extract.py (needs `pip install osmium`) and kept in
.build/bench-data, once per importer (a run takes tens of seconds). Peak memory and CPU come from wait4(2), which includes the
children a process waited for (tilemaker.sh runs tilemaker as its child).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 3
HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "shared"))


def measure(command):
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if status != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{stderr[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0  # seconds, seconds, MiB


def size_of(path):
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)
    return os.path.getsize(path)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    global RUNS
    openmapkit = sys.argv[1]
    arguments = sys.argv[2:]
    scale = "--scale" in arguments
    arguments = [a for a in arguments if a != "--scale"]
    extracts = arguments or [os.path.join(SHARED, "data", "osm", f"{n}.osm.pbf") for n in ("monaco", "andorra", "liechtenstein")]
    compare(openmapkit, extracts)
    if scale:
        RUNS = 1
        compare(openmapkit, [large_extract("andorra", 100)])


def large_extract(name, copies):
    """The sample `name` tiled `copies` times, made once and cached."""
    folder = os.path.join(HERE, "..", ".build", "bench-data")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{name}-x{copies}.osm.pbf")
    if not os.path.exists(path):
        print(f"making {os.path.basename(path)} …", file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(SHARED, "tools", "make-large-extract.py"),
                        os.path.join(SHARED, "data", "osm", f"{name}.osm.pbf"), path + ".partial",
                        "--copies", str(copies), "--rename"], check=True)
        os.replace(path + ".partial", path)
    return path


def compare(openmapkit, extracts):
    tilemaker = os.path.join(SHARED, "peers", "tiles", "tilemaker.sh")
    print(f"{'extract':<22}{'':>6}{'wall s':>10}{'cpu s':>10}{'peak MiB':>10}{'output MiB':>12}")
    for extract in extracts:
        name = os.path.basename(extract)
        with tempfile.TemporaryDirectory() as work:
            ours_out, peer_out = os.path.join(work, "ours.omk"), os.path.join(work, "peer.mbtiles")
            ours, peer = [], []
            for _ in range(RUNS):
                ours.append(measure([openmapkit, "import", extract, "-o", ours_out]))
                peer.append(measure(["bash", tilemaker, extract, peer_out]))
            rows = []
            for label, runs, out in (("ours", ours, ours_out), ("peer", peer, peer_out)):
                medians = [statistics.median(r[i] for r in runs) for i in range(3)]
                rows.append(medians)
                print(f"{name:<22}{label:>6}{medians[0]:>10.2f}{medians[1]:>10.2f}{medians[2]:>10.0f}{size_of(out) / 2**20:>12.2f}")
            ratio = [rows[0][i] / rows[1][i] if rows[1][i] else float("nan") for i in range(3)]
            print(f"{name:<22}{'ratio':>6}{ratio[0]:>10.2f}{ratio[1]:>10.2f}{ratio[2]:>10.2f}   (ours / tilemaker)")


if __name__ == "__main__":
    if not shutil.which("tilemaker"):
        print("tilemaker is not installed; tilemaker.sh will install it (apt-get)", file=sys.stderr)
    main()
