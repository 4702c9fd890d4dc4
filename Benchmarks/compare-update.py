#!/usr/bin/env python3
"""Update benchmark: `openmapkit update` with an osmChange against importing the changed extract again.

Usage: compare-update.py PATH/TO/openmapkit [--runs N] [--scale] [EXTRACT.osm.pbf ...]

Two changes per extract (default: the Andorra and Liechtenstein samples), each made as the next
version of the extract and turned into an osmChange by `osmium derive-changes`:

- "every kind": the update tests' edits (Tests/MapImportTests/Update/edit_extract.py: a road
  renamed, retagged, a node moved, a building and a point of interest deleted, a road added, a
  multipolygon and a turn restriction changed, a boundary's level changed, a café added);
- "hourly": an hourly-sized change of about 3000 objects in the mix of an hour of mapping
  (Benchmarks/hourly_change.py: new buildings, moved nodes, retagged roads and buildings,
  renames, points of interest deleted and added).

--scale adds Andorra ×100 (52 MB) with the hourly change. Then, like for like — the same bundle
contents at the end, which the update tests check byte for byte:

- update: a copy of the bundle imported from the old extract, brought to the new data by
  `openmapkit update BUNDLE CHANGE.osc` (the copy is made before the clock starts);
- re-import: `openmapkit import NEW.osm.pbf`, what keeping a bundle current costs without updates.

Both for a tiles-only bundle (`--no-place-index --no-road-graphs --no-street-scene`: the update
re-cuts only the tiles the change touches) and for the whole bundle (whose place index, road
graphs and street scene the update makes again from the bundle's element store). Update and
re-import alternate, N runs each (default 3); medians and their ratio, the peak memory of each
(the largest of the runs), and how many tiles the update wrote against the bundle's total.

The machines are shared and noisy: compare figures from the same run, not across runs.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from benchmark_support import BENCH_DATA, ROOT, SHARED, large_extract, measure, option

EDIT = os.path.join(ROOT, "Tests", "MapImportTests", "Update", "edit_extract.py")
CONFIGURATIONS = [("tiles only", ["--no-place-index", "--no-road-graphs", "--no-street-scene"]), ("whole bundle", [])]


HOURLY = os.path.join(ROOT, "Benchmarks", "hourly_change.py")
CHANGES = {"every kind": EDIT, "hourly": HOURLY}


def next_version(extract, kind):
    """The next version of `extract` by the `kind` of change, and the osmChange to it, made once."""
    name = os.path.basename(extract).replace(".osm.pbf", "")
    folder = os.path.join(BENCH_DATA, "update")
    os.makedirs(folder, exist_ok=True)
    suffix = "edited" if kind == "every kind" else "hourly"
    new, change = os.path.join(folder, f"{name}-{suffix}.osm.pbf"), os.path.join(folder, f"{name}-{suffix}.osc")
    if not (os.path.exists(new) and os.path.exists(change)):
        subprocess.run([sys.executable, CHANGES[kind], extract, new], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["osmium", "derive-changes", extract, new, "-o", change, "-O"], check=True)
    return new, change


def main():
    binary = os.path.abspath(sys.argv[1])
    runs = int(option("--runs", "3"))
    extracts = [a for a in sys.argv[2:] if a.endswith(".pbf")] or [
        os.path.join(SHARED, "data", "osm", f"{n}.osm.pbf") for n in ("andorra", "liechtenstein")]
    work_list = [(extract, kind) for extract in extracts for kind in CHANGES]
    if "--scale" in sys.argv:
        work_list.append((large_extract("andorra", 100), "hourly"))
    print("| extract | bundle | change | update (median s) | re-import (median s) | update ÷ re-import | peak MiB update / re-import | tiles written by the update |")
    print("|---|---|---|---|---|---|---|---|")
    work = tempfile.mkdtemp(prefix="omk-update-bench-")
    try:
        for extract, kind in work_list:
            new, change = next_version(extract, kind)
            entries = sum(1 for line in open(change, encoding="utf-8") if line.lstrip().startswith(("<node", "<way", "<relation")))
            for label, flags in CONFIGURATIONS:
                base = os.path.join(work, "base.omk")
                subprocess.run([binary, "import", extract, "-o", base, *flags], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                updates, imports, written, peaks = [], [], None, {"update": 0.0, "import": 0.0}
                for _ in range(runs):
                    copy = os.path.join(work, "copy.omk")
                    shutil.rmtree(copy, ignore_errors=True)
                    shutil.copytree(base, copy)
                    with tempfile.TemporaryFile() as out:
                        wall, _, peak = measure([binary, "update", copy, change, "--json"], output=out)
                        out.seek(0)
                        report = json.load(out)[0]
                    updates.append(wall)
                    peaks["update"] = max(peaks["update"], peak)
                    written = report["tiles"]
                    fresh = os.path.join(work, "fresh.omk")
                    wall, _, peak = measure([binary, "import", new, "-o", fresh, *flags])
                    imports.append(wall)
                    peaks["import"] = max(peaks["import"], peak)
                    shutil.rmtree(fresh, ignore_errors=True)
                total = json.load(open(os.path.join(base, "manifest.json")))["report"]["tilesPerZoom"]
                changed = sum(written["tilesWritten"].values()) + sum(written["tilesDeleted"].values())
                u, i = statistics.median(updates), statistics.median(imports)
                print(f"| {os.path.basename(extract)} | {label} | {kind}: {entries} elements | {u:.2f} | {i:.2f} | {u / i:.2f}× | "
                      f"{peaks['update']:.0f} / {peaks['import']:.0f} | "
                      f"{changed} of {sum(total.values())} |", flush=True)
                shutil.rmtree(base, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
