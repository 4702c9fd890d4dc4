#!/usr/bin/env python3
"""Import benchmark: `openmapkit import` against the peers doing the same work, side by side.

Usage: compare-import.py PATH/TO/openmapkit [--runs N] [--scale] [--no-bundle] [--bundle-scale]
                         [EXTRACT.osm.pbf ...]

Two comparisons in one run, for each extract (default: the Monaco, Andorra and Liechtenstein
samples), ours and the peer alternating, N runs each (default 3), medians:

1. Tiles only: `openmapkit import --tiles-only` (vector tiles z0–14 into MBTiles, nothing else)
   against ../shared/peers/tiles/tilemaker.sh (OpenMapTiles profile, MBTiles).
2. The whole bundle: `openmapkit import` (tiles, the place index for search and geocoding, and the
   road graphs for car, foot and bicycle, contracted) against the peers that together make the
   same things, each run as its own process one after the other: tilemaker.sh; OSRM's
   osrm-extract + osrm-contract with its car.lua, foot.lua and bicycle.lua profiles (from the
   routing peers' venv, ../shared/peers/routing/build_peers.sh); and a Nominatim import
   (`nominatim import --offline` into a fresh database of the private PostgreSQL cluster that
   ../shared/peers/nominatim/setup.sh installed). The peers' wall and CPU times are summed; their
   peak memory is the largest of any one step; their disk is the MBTiles, the .osrm files and the
   Nominatim database (pg_database_size). Nominatim's work happens mostly inside PostgreSQL's
   server processes, so its CPU counts the server's processes too (/proc, before and after), and
   its peak memory is the sampled proportional set size (PSS) of the importer and the server
   together, every 0.1 s. `--no-bundle` skips this comparison (no Nominatim or OSRM needed).

With --scale, Andorra ×100 (52 MB, 7 M nodes) is compared tiles-only against tilemaker once each,
imported whole by ours with our phase-by-phase time, peak memory and disk, and Andorra ×1000
(525 MB, 70 M nodes, a mid-sized country) is imported by ours alone, phase by phase.
--bundle-scale adds the whole-bundle comparison at ×100 (the Nominatim import takes many minutes).
The large extracts are made once with ../shared/tools/make-large-extract.py (needs
`pip install osmium`) and kept in .build/bench-data.

Ours and tilemaker use every core; OSRM's tools and Nominatim are given --threads = the core count.
The machines are shared and noisy: compare figures from the same run, not across runs.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from benchmark_support import (SHARED, large_extract, measure, option, osrm_tools, process_tree, routing_peers, size_of,
                               tree_cpu_seconds)

RUNS = int(option("--runs", "3"))
THREADS = str(os.cpu_count() or 1)
TILEMAKER = os.path.join(SHARED, "peers", "tiles", "tilemaker.sh")
NOMINATIM_SETUP = os.path.join(SHARED, "peers", "nominatim", "setup.sh")
# The cluster the whole-bundle comparison imports into: the one compare-search.py's setup made
# for Monaco (any of them will do: the benchmark imports into a database of its own).
NOMINATIM_WORK = os.environ.get("NOMINATIM_PEER_DIR", "/tmp/nominatim") + "-monaco"
NOMINATIM_PORT = 5433
BENCH_DATABASE = "nominatim_import_bench"


def import_ours(openmapkit, extract, out, *flags):
    """Runs our import with --json: the measurement and the import report."""
    with tempfile.TemporaryFile() as report:
        measured = measure([openmapkit, "import", extract, "-o", out, "--json", *flags], output=report)
        report.seek(0)
        return measured, json.load(report)


def print_phases(name, report):
    print(f"  {name}: our import phase by phase")
    print(f"    {'phase':<30}{'seconds':>9}{'peak MiB':>10}{'disk MiB':>10}")
    for phase in report["phases"]:
        memory = phase.get("peakMemoryBytes")
        memory = f"{memory / 2**20:>10.0f}" if memory is not None else f"{'–':>10}"
        print(f"    {phase['phase']:<30}{phase['seconds']:>9.2f}{memory}{phase['diskBytes'] / 2**20:>10.1f}")


def header(title):
    print(f"\n{title}")
    print(f"{'extract':<26}{'':>10}{'wall s':>9}{'cpu s':>9}{'peak MiB':>10}{'disk MiB':>10}")


def row(name, label, values):
    wall, cpu, peak, disk = values
    print(f"{name:<26}{label:>10}{wall:>9.2f}{cpu:>9.2f}{peak:>10.0f}{disk / 2**20:>10.2f}")


def ratio_row(name, ours, peer, against):
    ratios = [o / p if p else float("nan") for o, p in zip(ours, peer)]
    print(f"{name:<26}{'ratio':>10}{ratios[0]:>9.2f}{ratios[1]:>9.2f}{ratios[2]:>10.2f}{ratios[3]:>10.2f}   (ours / {against})")


def medians(runs):
    return [statistics.median(r[i] for r in runs) for i in range(len(runs[0]))]


# ------------------------------------------------------------------------------------ tiles only

def compare_tiles(openmapkit, extracts, runs):
    header("Tiles only: `openmapkit import --tiles-only` against tilemaker (OpenMapTiles profile), medians")
    for extract in extracts:
        name = os.path.basename(extract)
        with tempfile.TemporaryDirectory() as work:
            ours_out, peer_out = os.path.join(work, "ours.omk"), os.path.join(work, "peer.mbtiles")
            ours, peer = [], []
            for _ in range(runs):
                measured, _ = import_ours(openmapkit, extract, ours_out, "--tiles-only")
                ours.append((*measured, size_of(ours_out)))
                measured = measure(["bash", TILEMAKER, extract, peer_out])
                peer.append((*measured, size_of(peer_out)))
            o, p = medians(ours), medians(peer)
            row(name, "ours", o)
            row(name, "tilemaker", p)
            ratio_row(name, o, p, "tilemaker")


# ---------------------------------------------------------------------------------- whole bundle

def tree_pss(pid):
    """Proportional set size of `pid`'s process tree, in bytes."""
    total = 0
    for process in process_tree(pid):
        try:
            with open(f"/proc/{process}/smaps_rollup") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("Pss:")) * 1024
        except (OSError, StopIteration):
            pass
    return total


class Nominatim:
    """A fresh Nominatim import into a database of its own on the peer's private cluster."""

    def __init__(self):
        self.venv = os.path.join(NOMINATIM_WORK, "venv")
        self.socket = os.path.join(NOMINATIM_WORK, "run")
        self.project = tempfile.mkdtemp(prefix="nominatim-import-bench-")
        with open(os.path.join(self.project, ".env"), "w") as f:
            f.write(f'NOMINATIM_DATABASE_DSN="pgsql:dbname={BENCH_DATABASE};host={self.socket};port={NOMINATIM_PORT}"\n'
                    'NOMINATIM_DATABASE_WEBUSER="www-data"\n')

    @staticmethod
    def ensure():
        """Sets up the peer (its cluster holding Monaco) when missing; False, with the reason, if it cannot be."""
        if os.path.exists(os.path.join(NOMINATIM_WORK, "data", "imported.sha256")):
            subprocess.run([os.path.join(NOMINATIM_WORK, "pgctl.sh"), "start"], capture_output=True)
            return True
        if os.geteuid() != 0:
            print("Nominatim is not installed and its setup.sh needs root: no whole-bundle comparison", file=sys.stderr)
            return False
        print(f"installing Nominatim into {NOMINATIM_WORK} (setup.sh, a few minutes) …", file=sys.stderr, flush=True)
        env = dict(os.environ, PGPORT_NOM=str(NOMINATIM_PORT))
        result = subprocess.run(["bash", NOMINATIM_SETUP, os.path.join(SHARED, "data", "osm", "monaco.osm.pbf"), NOMINATIM_WORK],
                                capture_output=True, text=True, env=env)
        if result.returncode != 0:
            print(f"Nominatim setup failed: {(result.stderr or result.stdout)[-800:]}", file=sys.stderr)
            return False
        return True

    def psql(self, sql, database="postgres"):
        return subprocess.run(["psql", "-X", "-q", "-tA", "-h", self.socket, "-p", str(NOMINATIM_PORT), "-d", database, "-c", sql],
                              capture_output=True, text=True, check=True).stdout.strip()

    def postmaster(self):
        with open(os.path.join(NOMINATIM_WORK, "pgdata", "postmaster.pid")) as f:
            return int(f.readline())

    def run(self, extract):
        """(wall s, CPU s of importer and server, peak PSS MiB of both, database bytes)."""
        self.psql(f"DROP DATABASE IF EXISTS {BENCH_DATABASE}")
        postmaster = self.postmaster()
        server_cpu = tree_cpu_seconds(postmaster)
        env = dict(os.environ, PATH=os.path.join(self.venv, "bin") + os.pathsep + os.environ["PATH"])
        command = [os.path.join(self.venv, "bin", "nominatim"), "import", "--osm-file", os.path.abspath(extract),
                   "--offline", "--threads", THREADS]
        peak = 0
        start = time.perf_counter()
        with tempfile.TemporaryFile() as errors:
            process = subprocess.Popen(command, cwd=self.project, env=env, stdout=subprocess.DEVNULL, stderr=errors)
            stop = threading.Event()

            def sample():
                nonlocal peak
                while not stop.is_set():
                    peak = max(peak, tree_pss(process.pid) + tree_pss(postmaster))
                    stop.wait(0.1)
            sampler = threading.Thread(target=sample)
            sampler.start()
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - start
            stop.set()
            sampler.join()
            if status != 0:
                errors.seek(0)
                raise RuntimeError(f"nominatim import failed:\n{errors.read().decode(errors='replace')[-2000:]}")
        cpu = usage.ru_utime + usage.ru_stime + tree_cpu_seconds(postmaster) - server_cpu
        disk = int(self.psql(f"SELECT pg_database_size('{BENCH_DATABASE}')"))
        return wall, cpu, peak / 2**20, disk

    def close(self):
        try:
            self.psql(f"DROP DATABASE IF EXISTS {BENCH_DATABASE}")
        finally:
            shutil.rmtree(self.project, ignore_errors=True)


def bundle_peers(extract, work, osrm_bin, profiles, nominatim, steps):
    """Runs every peer step once; (wall, cpu, peak, disk) summed as described, per-step rows into `steps`."""
    total = [0.0, 0.0, 0.0, 0]

    def add(step, wall, cpu, peak, disk=0):
        steps.setdefault(step, []).append((wall, cpu, peak, disk))
        total[0] += wall
        total[1] += cpu
        total[2] = max(total[2], peak)
        total[3] += disk

    mbtiles = os.path.join(work, "peer.mbtiles")
    add("tilemaker", *measure(["bash", TILEMAKER, extract, mbtiles]), size_of(mbtiles))
    for profile in ("car", "foot", "bicycle"):
        folder = os.path.join(work, f"osrm-{profile}")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        os.symlink(os.path.abspath(extract), os.path.join(folder, "region.osm.pbf"))
        add(f"osrm-extract {profile}", *measure([os.path.join(osrm_bin, "osrm-extract"), "-t", THREADS,
                                                 "-p", os.path.join(profiles, f"{profile}.lua"), "region.osm.pbf"], cwd=folder))
        wall, cpu, peak = measure([os.path.join(osrm_bin, "osrm-contract"), "-t", THREADS, "region.osrm"], cwd=folder)
        os.remove(os.path.join(folder, "region.osm.pbf"))
        add(f"osrm-contract {profile}", wall, cpu, peak, size_of(folder))
    add("nominatim import", *nominatim.run(extract))
    return tuple(total)


def compare_bundle(openmapkit, extracts, runs):
    vpy = routing_peers(["monaco"], threads=THREADS)
    if not vpy or not Nominatim.ensure():
        print("\nThe whole bundle: skipped (the peers are not available here; see above)")
        return
    osrm_bin, profiles = osrm_tools(vpy)
    nominatim = Nominatim()
    try:
        header("The whole bundle: `openmapkit import` (tiles, place index, car/foot/bicycle graphs) against\n"
               "tilemaker + OSRM extract/contract ×3 profiles + Nominatim import, each its own process, medians")
        for extract in extracts:
            name = os.path.basename(extract)
            with tempfile.TemporaryDirectory() as work:
                ours_out = os.path.join(work, "ours.omk")
                ours, peer, steps = [], [], {}
                for _ in range(runs):
                    measured, report = import_ours(openmapkit, extract, ours_out)
                    ours.append((*measured, size_of(ours_out)))
                    peer.append(bundle_peers(extract, work, osrm_bin, profiles, nominatim, steps))
                o, p = medians(ours), medians(peer)
                row(name, "ours", o)
                row(name, "peers", p)
                ratio_row(name, o, p, "the peers")
                for step, values in steps.items():
                    wall, cpu, peak, disk = medians(values)
                    print(f"{'':<4}{step:<32}{wall:>9.2f}{cpu:>9.2f}{peak:>10.0f}{disk / 2**20:>10.2f}")
                print(f"{'':<4}ours, phase by phase (last run)")
                for phase in report["phases"]:
                    print(f"{'':<4}{phase['phase']:<32}{phase['seconds']:>9.2f}")
    finally:
        nominatim.close()


# ----------------------------------------------------------------------------------------- scale

def scale(openmapkit, bundle_scale):
    x100 = large_extract("andorra", 100)
    compare_tiles(openmapkit, [x100], 1)
    if bundle_scale:
        compare_bundle(openmapkit, [x100], 1)
    header("Our whole import at scale, phase by phase")
    for extract in (x100, large_extract("andorra", 1000)):
        name = os.path.basename(extract)
        with tempfile.TemporaryDirectory(dir=os.path.dirname(extract)) as work:
            out = os.path.join(work, "ours.omk")
            measured, report = import_ours(openmapkit, extract, out)
            row(name, "ours", (*measured, size_of(out)))
            print_phases(name, report)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    openmapkit = sys.argv[1]
    arguments, skip = [], False
    for a in sys.argv[2:]:
        if skip:
            skip = False
        elif a == "--runs":
            skip = True
        elif not a.startswith("--"):
            arguments.append(a)
    extracts = arguments or [os.path.join(SHARED, "data", "osm", f"{n}.osm.pbf") for n in ("monaco", "andorra", "liechtenstein")]
    print(f"{os.cpu_count()} cores; {RUNS} runs each, ours and the peer alternating")
    compare_tiles(openmapkit, extracts, RUNS)
    if "--no-bundle" not in sys.argv:
        compare_bundle(openmapkit, extracts, RUNS)
    if "--scale" in sys.argv:
        scale(openmapkit, "--bundle-scale" in sys.argv)


if __name__ == "__main__":
    if not shutil.which("tilemaker"):
        print("tilemaker is not installed; tilemaker.sh will install it (apt-get)", file=sys.stderr)
    main()
