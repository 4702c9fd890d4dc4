#!/usr/bin/env python3
"""Import benchmark: `openmapkit import` against tilemaker (OpenMapTiles profile), side by side.

Usage: compare-import.py PATH/TO/openmapkit [--scale] [EXTRACT.osm.pbf ...]

For each extract (default: the Monaco, Andorra and Liechtenstein samples) it runs our importer
and ../shared/peers/tiles/tilemaker.sh alternately, RUNS times each, and prints the median wall
time, CPU time and peak memory of each with the ratios (ours / tilemaker; below 1 is better for
us), plus the output sizes. With --scale it also imports Andorra ×100 (52 MB, 7 M nodes) once per
importer, and Andorra ×1000 (525 MB, 70 M nodes, a mid-sized country) with ours alone, printing
our time, peak memory and disk per import phase for both. The large extracts are made once with
../shared/tools/make-large-extract.py (needs `pip install osmium`) and kept in .build/bench-data. Peak memory and CPU come from wait4(2), which includes the
children a process waited for (tilemaker.sh runs tilemaker as its child).
"""
import json
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


def measure(command, output=None):
    """Wall seconds, CPU seconds and peak MiB of a command; its standard output goes to `output`."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdout=output or subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        if status != 0:
            errors.seek(0)
            raise RuntimeError(f"{' '.join(command)} failed:\n{errors.read().decode(errors='replace')[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0  # seconds, seconds, MiB


def import_ours(openmapkit, extract, out):
    """Runs our import with --json: the measurement and the import report."""
    with tempfile.TemporaryFile() as report:
        measured = measure([openmapkit, "import", extract, "-o", out, "--json"], output=report)
        report.seek(0)
        return measured, json.load(report)


def print_phases(name, report):
    print(f"  {name}: our import phase by phase")
    print(f"    {'phase':<30}{'seconds':>9}{'peak MiB':>10}{'disk MiB':>10}")
    for phase in report["phases"]:
        memory = phase.get("peakMemoryBytes")
        memory = f"{memory / 2**20:>10.0f}" if memory is not None else f"{'–':>10}"
        print(f"    {phase['phase']:<30}{phase['seconds']:>9.2f}{memory}{phase['diskBytes'] / 2**20:>10.1f}")


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
        compare(openmapkit, [large_extract("andorra", 100)], phases=True)
        country = large_extract("andorra", 1000)
        print(f"{'extract':<22}{'':>6}{'wall s':>10}{'cpu s':>10}{'peak MiB':>10}{'output MiB':>12}")
        with tempfile.TemporaryDirectory(dir=os.path.dirname(country)) as work:
            out = os.path.join(work, "ours.omk")
            (wall, cpu, peak), report = import_ours(openmapkit, country, out)
            name = os.path.basename(country)
            print(f"{name:<22}{'ours':>6}{wall:>10.2f}{cpu:>10.2f}{peak:>10.0f}{size_of(out) / 2**20:>12.2f}   (tilemaker is compared at ×100)")
            print_phases(name, report)


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


def compare(openmapkit, extracts, phases=False):
    tilemaker = os.path.join(SHARED, "peers", "tiles", "tilemaker.sh")
    print(f"{'extract':<22}{'':>6}{'wall s':>10}{'cpu s':>10}{'peak MiB':>10}{'output MiB':>12}")
    for extract in extracts:
        name = os.path.basename(extract)
        with tempfile.TemporaryDirectory() as work:
            ours_out, peer_out = os.path.join(work, "ours.omk"), os.path.join(work, "peer.mbtiles")
            ours, peer = [], []
            for _ in range(RUNS):
                measured, report = import_ours(openmapkit, extract, ours_out)
                ours.append(measured)
                peer.append(measure(["bash", tilemaker, extract, peer_out]))
            rows = []
            for label, runs, out in (("ours", ours, ours_out), ("peer", peer, peer_out)):
                medians = [statistics.median(r[i] for r in runs) for i in range(3)]
                rows.append(medians)
                print(f"{name:<22}{label:>6}{medians[0]:>10.2f}{medians[1]:>10.2f}{medians[2]:>10.0f}{size_of(out) / 2**20:>12.2f}")
            ratio = [rows[0][i] / rows[1][i] if rows[1][i] else float("nan") for i in range(3)]
            print(f"{name:<22}{'ratio':>6}{ratio[0]:>10.2f}{ratio[1]:>10.2f}{ratio[2]:>10.2f}   (ours / tilemaker)")
            if phases:
                print_phases(name, report)


if __name__ == "__main__":
    if not shutil.which("tilemaker"):
        print("tilemaker is not installed; tilemaker.sh will install it (apt-get)", file=sys.stderr)
    main()
