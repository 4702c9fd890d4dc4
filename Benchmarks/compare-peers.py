#!/usr/bin/env python3
"""Whole-process comparisons with reference implementations, run side by side.

Usage: compare-peers.py PATH/TO/openmapkit

Each comparison feeds the same input to our command and to the peer, alternating runs, and
prints the median wall time of each, the ratio (ours / peer; below 1 means we are faster), and
the largest disagreement between the two outputs. The machines here are shared and noisy, so
only medians from the same run are quoted.
"""
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 7


def timed(command, stdin_path):
    with open(stdin_path, "rb") as stdin:
        start = time.perf_counter()
        result = subprocess.run(command, stdin=stdin, stdout=subprocess.PIPE, check=True)
        return time.perf_counter() - start, result.stdout


def compare(name, ours, peer, input_path, lines, check):
    ours_times, peer_times = [], []
    ours_out = peer_out = b""
    for _ in range(RUNS):
        t, ours_out = timed(ours, input_path)
        ours_times.append(t)
        t, peer_out = timed(peer, input_path)
        peer_times.append(t)
    mo, mp = statistics.median(ours_times), statistics.median(peer_times)
    print(f"{name}: {lines} lines, median ours {mo:.3f} s ({lines / mo:,.0f}/s), "
          f"peer {mp:.3f} s ({lines / mp:,.0f}/s), ratio ours/peer {mo / mp:.2f}")
    print("  " + check(ours_out.decode().split("\n"), peer_out.decode().split("\n")))


def angle_diff(a, b):
    d = abs(float(a) - float(b)) % 360
    return min(d, 360 - d)


def geodesic_inverse(openmapkit, workdir):
    if not shutil.which("GeodSolve"):
        print("geodesic inverse: GeodSolve not found (apt-get install geographiclib-tools); skipped")
        return
    rng = random.Random(7)
    lines = 200_000
    path = f"{workdir}/inverse.txt"
    with open(path, "w") as f:
        for i in range(lines):
            lat1, lon1 = rng.uniform(-90, 90), rng.uniform(-180, 180)
            if i % 10 == 0:  # nearly antipodal pairs, the hard case
                lat2 = max(-90.0, min(90.0, -lat1 + rng.uniform(-0.5, 0.5)))
                lon2 = lon1 + 180 + rng.uniform(-0.5, 0.5)
            else:
                lat2, lon2 = rng.uniform(-90, 90), rng.uniform(-180, 180)
            f.write(f"{lat1:.9f} {lon1:.9f} {lat2:.9f} {lon2:.9f}\n")

    def check(ours, peer):
        worst_s = worst_a = 0.0
        for a, b in zip(ours, peer):
            if not a or not b:
                continue
            x, y = a.split(), b.split()
            worst_a = max(worst_a, angle_diff(x[0], y[0]), angle_diff(x[1], y[1]))
            worst_s = max(worst_s, abs(float(x[2]) - float(y[2])))
        return f"largest difference: distance {worst_s * 1000:.4f} mm, azimuth {worst_a:.2e} deg"

    compare("geodesic inverse (openmapkit geodesic inverse vs GeodSolve -i)",
            [openmapkit, "geodesic", "inverse"], ["GeodSolve", "-i"], path, lines, check)


def mercator(openmapkit, workdir):
    if not shutil.which("proj"):
        print("map points: proj not found (apt-get install proj-bin); skipped")
        return
    rng = random.Random(11)
    lines = 500_000
    ours_in, peer_in = f"{workdir}/latlon.txt", f"{workdir}/lonlat.txt"
    with open(ours_in, "w") as a, open(peer_in, "w") as b:
        for _ in range(lines):
            lat, lon = rng.uniform(-85, 85), rng.uniform(-180, 180)
            a.write(f"{lat:.9f} {lon:.9f}\n")
            b.write(f"{lon:.9f} {lat:.9f}\n")
    world, half = 2.0 ** 28, math.pi * 6378137

    def check(ours, peer):
        worst = 0.0
        for a, b in zip(ours, peer):
            if not a or not b:
                continue
            x, y = map(float, a.split())
            px, py = map(float, b.split())
            # PROJ gives metres from the centre, y north; map points run from the top-left corner.
            worst = max(worst, abs(x - (px + half) / (2 * half) * world), abs(y - (half - py) / (2 * half) * world))
        return f"largest difference: {worst:.4f} map points"

    # Both read one coordinate per line from a file of their own order and print two numbers.
    ours_times, peer_times = [], []
    for _ in range(RUNS):
        t, ours_out = timed([openmapkit, "mappoint"], ours_in)
        ours_times.append(t)
        t, peer_out = timed(["proj", "+proj=merc", "+a=6378137", "+b=6378137", "-f", "%.4f"], peer_in)
        peer_times.append(t)
    mo, mp = statistics.median(ours_times), statistics.median(peer_times)
    print(f"map points (openmapkit mappoint vs PROJ proj +proj=merc): {lines} lines, median ours {mo:.3f} s "
          f"({lines / mo:,.0f}/s), peer {mp:.3f} s ({lines / mp:,.0f}/s), ratio ours/peer {mo / mp:.2f}")
    print("  " + check(ours_out.decode().split("\n"), peer_out.decode().split("\n")))


def osm_info(openmapkit, workdir):
    """`openmapkit osm info FILE` against `osmium fileinfo -e FILE` on liechtenstein.osm.pbf."""
    if not shutil.which("osmium"):
        print("osm info: osmium not found (apt-get install osmium-tool); skipped")
        return
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data", "osm",
                        "liechtenstein.osm.pbf")
    if not os.path.exists(path):
        print(f"osm info: {path} not found; skipped")
        return
    ours_cmd = [openmapkit, "osm", "info", path, "--json"]
    peer_cmd = ["osmium", "fileinfo", "-e", "-j", path]
    ours_times, peer_times = [], []
    ours_out = peer_out = b""
    for _ in range(RUNS):
        t, ours_out = timed(ours_cmd, os.devnull)
        ours_times.append(t)
        t, peer_out = timed(peer_cmd, os.devnull)
        peer_times.append(t)
    mo, mp = statistics.median(ours_times), statistics.median(peer_times)
    ours, peer = json.loads(ours_out), json.loads(peer_out)
    elements = sum(peer["data"]["count"][k] for k in ("nodes", "ways", "relations"))
    print(f"osm info (openmapkit osm info vs osmium fileinfo -e), liechtenstein.osm.pbf: {elements:,} elements, "
          f"median ours {mo:.3f} s ({elements / mo:,.0f}/s), peer {mp:.3f} s ({elements / mp:,.0f}/s), "
          f"ratio ours/peer {mo / mp:.2f}")
    disagreements = []
    for group in ("count", "minid", "maxid"):
        for kind in ("nodes", "ways", "relations"):
            if ours["data"][group][kind] != peer["data"][group][kind]:
                disagreements.append(f"{group}.{kind}: ours {ours['data'][group][kind]}, osmium {peer['data'][group][kind]}")
    if any(abs(a - b) > 1e-7 for a, b in zip(ours["data"]["bbox"] or [], peer["data"]["bbox"])):
        disagreements.append(f"bbox: ours {ours['data']['bbox']}, osmium {peer['data']['bbox']}")
    print("  " + ("counts, id ranges and bounding box agree" if not disagreements
                  else "DISAGREE: " + "; ".join(disagreements)))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as workdir:
        geodesic_inverse(sys.argv[1], workdir)
        mercator(sys.argv[1], workdir)
        osm_info(sys.argv[1], workdir)


if __name__ == "__main__":
    main()
