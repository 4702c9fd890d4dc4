#!/usr/bin/env python3
"""Search figures: the place index over the relevance suite, at 1x and at 100x, beside Nominatim.

Usage: compare-search.py PATH/TO/openmapkit [--runs N] [--copies N] [--no-scale] [--no-peer]

1. Each sample extract (../shared/data/osm/{monaco,andorra,liechtenstein}.osm.pbf) is imported by
   `openmapkit import` into a temporary bundle; the import report gives the place-index phase
   against the whole import, its peak memory, and "added": the import's phases against a second
   import with --no-place-index (the index's whole cost, extraction during the node and way pass
   included; the goal is under 30%). `OpenMapKitBenchmarks search` (built beside openmapkit by `make bench`)
   then runs the relevance suite (Tests/MapSearchTests/Relevance) in process: first-result hit
   rate, and latency per kind (median and p99 over every query run N times), plus the completer
   as it is used while typing (every prefix of every query).
2. Scale: Andorra x100, made once with ../shared/tools/make-large-extract.py --rename --ids keep
   (copy 0 keeps the suite's ids and names; 99 renamed copies, "Encamp 7", compete with it) and
   kept in .build/bench-data, is imported and benchmarked the same way. Latency must stay flat
   as the index grows 100 times; the hit rate shows whether ranking holds among the copies.
3. Peer: Nominatim 5.3.3 (../shared/peers/nominatim), one private PostgreSQL cluster per
   extract under $NOMINATIM_PEER_DIR-EXTRACT (default /tmp/nominatim-EXTRACT), installed by its
   setup.sh when missing and run as root. The suite's search, geocode and reverse cases go
   through its query.py (in-process endpoint code, 5 runs each); the table shows its hit rate on
   the same expectations, how often its top result is the same OSM object as ours, and its
   median latency beside ours, on the cases Nominatim is built for; completion of a prefix and
   typo tolerance, which Nominatim lacks by design (prefix cases are sent to it as plain
   searches), are counted apart. Without root or network, the reason is printed and only ours is reported.

The machines are shared and noisy: compare medians from the same run, not across runs.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from benchmark_support import ROOT, SHARED, large_extract, option

SUITE = os.path.join(ROOT, "Tests", "MapSearchTests", "Relevance")
EXTRACTS = ("monaco", "andorra", "liechtenstein")
PORTS = {"monaco": 5433, "andorra": 5434, "liechtenstein": 5435}


PEAK = {}


def run_import(openmapkit, pbf, out, extra=()):
    """Wall time of `openmapkit import`; the import's peak memory goes to PEAK[out] (bytes)."""
    start = time.monotonic()
    result = subprocess.run([openmapkit, "import", pbf, "-o", out, "--json", *extra], capture_output=True, text=True)
    wall = time.monotonic() - start
    if result.returncode != 0:
        raise RuntimeError(f"import {os.path.basename(pbf)} failed: {result.stderr.strip()[-400:]}")
    try:
        phases = json.loads(result.stdout)["phases"]
        PEAK[out] = max(p.get("peakMemoryBytes", 0) for p in phases)
        SECONDS[out] = sum(p["seconds"] for p in phases)
    except (ValueError, KeyError):
        pass
    return wall


SECONDS = {}
ADDED = {}


def measure_added(openmapkit, pbf, out):
    """The place index's whole cost: the import's phases with the index against the same import
    with --no-place-index (extraction runs inside the node and way pass, so the index's own
    phase alone undercounts it). Stored in ADDED[out] as a fraction."""
    bare = out + "-noindex"
    run_import(openmapkit, pbf, bare, ["--no-place-index"])
    if out in SECONDS and bare in SECONDS and SECONDS[bare] > 0:
        ADDED[out] = SECONDS[out] / SECONDS[bare] - 1
    subprocess.run(["rm", "-rf", bare])


def bench(benchmarks, bundle, runs, suite=None):
    command = [benchmarks, "search", bundle, "--runs", str(runs), "--json"] + (["--suite", suite] if suite else [])
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"OpenMapKitBenchmarks search failed: {result.stderr.strip()[-400:]}")
    return json.loads(result.stdout)[0]


def header():
    print(f"{'extract':<20}{'import s':>9}{'index s':>9}{'+%':>6}{'index MiB':>10}{'peak MiB':>9}{'added':>7}{'hits':>10}"
          f"{'search med/p99 ms':>19}{'geocode med/p99':>17}{'complete med/p99':>18}{'typing med/p99':>16}{'reverse med/p99':>17}")


def row(name, wall, report, bundle=None):
    lat = report["latency"]

    def pair(kind):
        f = lat.get(kind)
        return f"{f['medianMs']:.2f}/{f['p99Ms']:.2f}" if f else "-"

    index_s = report.get("indexPhaseSeconds")
    added = f"{100 * ADDED[bundle]:.0f}%" if bundle in ADDED else "-"
    share = f"{100 * index_s / max(report['importSeconds'] - index_s, 1e-9):.0f}" if index_s is not None else "-"
    print(f"{name:<20}{wall:>9.2f}{(index_s if index_s is not None else float('nan')):>9.2f}{share:>6}"
          f"{report['indexBytes'] / 2**20:>10.2f}{PEAK.get(bundle, 0) / 2**20:>9.0f}{added:>7}{report['hits']:>5}/{report['cases']:<4}"
          f"{pair('search'):>19}{pair('geocode'):>17}{pair('complete'):>18}{pair('complete-typing'):>16}{pair('reverse'):>17}")


# ---------------------------------------------------------------------------------------------- peer

def peer_project(extract, allow_setup):
    """The Nominatim project folder for `extract`, set up if missing; None (reason printed) if unusable."""
    work = os.environ.get("NOMINATIM_PEER_DIR", "/tmp/nominatim") + "-" + extract
    python = os.path.join(work, "venv", "bin", "python")
    ready = os.path.exists(os.path.join(work, "data", "imported.sha256"))
    if not ready and allow_setup:
        if os.geteuid() != 0:
            print(f"Nominatim ({extract}): not installed and setup.sh needs root; reporting ours only")
            return None
        print(f"Nominatim ({extract}): installing into {work} (setup.sh, a few minutes) …", flush=True)
        env = dict(os.environ, PGPORT_NOM=str(PORTS[extract]))
        result = subprocess.run(["bash", os.path.join(SHARED, "peers", "nominatim", "setup.sh"),
                                 os.path.join(SHARED, "data", "osm", f"{extract}.osm.pbf"), work],
                                capture_output=True, text=True, env=env)
        if result.returncode != 0:
            tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
            print(f"Nominatim ({extract}): setup failed, reporting ours only:\n  " + "\n  ".join(tail))
            return None
    if not os.path.exists(python):
        print(f"Nominatim ({extract}): not installed in {work}; reporting ours only")
        return None
    subprocess.run([os.path.join(work, "pgctl.sh"), "start"], capture_output=True, text=True)
    return work


def peer_queries(suite):
    """The suite's cases as query.py input (prefix cases become plain searches)."""
    queries = []
    span = suite["nearSpanDegrees"]
    for case in suite["cases"]:
        if case["kind"] == "reverse":
            lat, lon = case["coordinate"]
            queries.append({"id": case["id"], "kind": "reverse", "lat": lat, "lon": lon, "zoom": 18})
            continue
        q = {"id": case["id"], "kind": "search", "q": case["query"]}
        if "near" in case:
            lat, lon = case["near"]
            h = span / 2
            q["params"] = {"viewbox": f"{lon - h},{lat + h},{lon + h},{lat - h}", "bounded": "0"}
        queries.append(q)
    return queries


def peer_id(top):
    if not top or not top.get("osm_type"):
        return None
    return {"node": "n", "way": "w", "relation": "r", "N": "n", "W": "w", "R": "r"}.get(top["osm_type"], "?") + str(top["osm_id"])


def fold(text):
    import unicodedata
    text = unicodedata.normalize("NFKD", (text or "").replace("ß", "ss"))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join("".join(c if c.isalnum() else " " for c in text).split())


def peer_hit(case, top):
    """The suite's rule (RelevanceSuite.swift) applied to a Nominatim result."""
    if not top:
        return False
    expect = case["expect"]
    if "id" in expect:
        if peer_id(top) in [expect["id"]] + expect.get("accept", []):
            return True
        if case["kind"] not in ("geocode", "reverse") or "street" not in expect or "houseNumber" not in expect:
            return False
    address = top.get("address") or {}
    if "street" in expect and fold(top.get("road")) != fold(expect["street"]):
        return False
    if "houseNumber" in expect and fold(top.get("house_number")) != fold(expect["houseNumber"]):
        return False
    # Nominatim names some levels only in display_name (Liechtenstein's municipalities: "ISO3166-2-lvl8": "LI-04").
    names = list(address.values()) + [top.get("name")] + (top.get("display_name") or "").split(",")
    if "area" in expect and fold(expect["area"]) not in {fold(v) for v in names}:
        return False
    return True


def compare_peer(extract, ours, runs, allow_setup):
    work = peer_project(extract, allow_setup)
    if not work:
        return
    with open(os.path.join(SUITE, f"{extract}.json")) as f:
        suite = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        queries, out = os.path.join(tmp, "queries.json"), os.path.join(tmp, "results.json")
        with open(queries, "w") as f:
            json.dump(peer_queries(suite), f)
        result = subprocess.run([os.path.join(work, "venv", "bin", "python"), os.path.join(SHARED, "peers", "nominatim", "query.py"),
                                 "--project", os.path.join(work, "project"), "--runs", str(runs), "--out", out, queries],
                                capture_output=True, text=True)
        if result.returncode != 0 or not os.path.exists(out):
            print(f"Nominatim ({extract}): query.py failed: {(result.stderr or result.stdout).strip()[-300:]}")
            return
        with open(out) as f:
            records = {r["id"]: r for r in json.load(f)["queries"]}
    ours_by_case = {r["id"]: r for r in ours["caseResults"]}
    # Like for like: the cases Nominatim is built for. Completion of a prefix and typo tolerance are
    # what it lacks by design; they are counted apart, not mixed into its hit rate.
    lacks = {"prefix": "completion of a prefix", "typo": "typo tolerance"}
    kinds, lacking = {}, {}
    differences = []
    for case in suite["cases"]:
        rec = records.get(case["id"])
        if rec is None:
            continue
        top = rec.get("top")
        table = lacking if case["group"] in lacks else kinds
        key = lacks[case["group"]] if case["group"] in lacks else case["kind"]
        k = table.setdefault(key, {"n": 0, "peer": 0, "ours": 0, "same": 0, "lat": []})
        k["n"] += 1
        hit = peer_hit(case, top)
        k["peer"] += hit
        mine = ours_by_case.get(case["id"], {})
        k["ours"] += mine.get("hit", False)
        same = peer_id(top) is not None and peer_id(top) == mine.get("first")
        k["same"] += same
        k["lat"].append(rec["latency_ms"]["median"])
        if hit != mine.get("hit", False) and case["group"] not in lacks:
            differences.append((case, top, mine, hit))
    print(f"\nNominatim 5.3.3 vs ours on the {extract} suite, the cases Nominatim is built for "
          "(same expectations; 'same top' = same OSM object first)")
    print(f"{'kind':<10}{'cases':>6}{'ours hits':>10}{'Nominatim hits':>16}{'same top':>10}{'Nominatim median ms':>21}{'ours median ms':>16}")
    total = {"n": 0, "ours": 0, "peer": 0}
    for kind, k in kinds.items():
        ours_ms = ours["latency"].get(kind, {}).get("medianMs", float("nan"))
        print(f"{kind:<10}{k['n']:>6}{k['ours']:>10}{k['peer']:>16}{k['same']:>10}{statistics.median(k['lat']):>21.2f}{ours_ms:>16.3f}")
        for key in total:
            total[key] += k[key]
    print(f"{'all':<10}{total['n']:>6}{total['ours']:>10}{total['peer']:>16}   "
          f"(ours {100 * total['ours'] / max(total['n'], 1):.0f}%, Nominatim {100 * total['peer'] / max(total['n'], 1):.0f}%)")
    print("What Nominatim lacks by design (prefixes are sent to it as plain searches):")
    for what, k in lacking.items():
        print(f"  {what:<24}{k['n']:>4} cases: ours {k['ours']} hits, Nominatim {k['peer']}")
    for case, top, mine, hit in differences:
        who = "only Nominatim" if hit else "only ours"
        text = case.get("query") or ",".join(str(c) for c in case["coordinate"])
        theirs = f"{peer_id(top)} {top.get('display_name', '')[:60]!r}" if top else "nothing"
        print(f"  {who:<15} {case['id']} [{case['group']}] {text!r}: Nominatim {theirs}; ours {mine.get('first')} {mine.get('firstName')!r}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    openmapkit = sys.argv[1]
    runs = int(option("--runs", "5"))
    copies = int(option("--copies", "100"))
    benchmarks = os.path.join(os.path.dirname(os.path.abspath(openmapkit)), "OpenMapKitBenchmarks")
    if not os.path.exists(benchmarks):
        sys.exit(f"{benchmarks} not built (swift build -c release --product OpenMapKitBenchmarks)")
    print("Search over the relevance suite, in process (ms; med = median, p99 over all runs; "
          f"{runs} runs per query; typing = every prefix of every query)")
    header()
    reports = {}
    with tempfile.TemporaryDirectory() as tmp:
        for extract in EXTRACTS:
            bundle = os.path.join(tmp, f"{extract}.omk")
            wall = run_import(openmapkit, os.path.join(SHARED, "data", "osm", f"{extract}.osm.pbf"), bundle)
            measure_added(openmapkit, os.path.join(SHARED, "data", "osm", f"{extract}.osm.pbf"), bundle)
            reports[extract] = bench(benchmarks, bundle, runs)
            row(extract, wall, reports[extract], bundle)
        if "--no-scale" not in sys.argv:
            large = large_extract("andorra", copies, keep_ids=True)
            bundle = os.path.join(tmp, f"andorra-x{copies}.omk")
            wall = run_import(openmapkit, large, bundle)
            measure_added(openmapkit, large, bundle)
            big = bench(benchmarks, bundle, runs, suite="andorra")
            row(f"andorra x{copies}", wall, big, bundle)
            small = reports["andorra"]["latency"]
            ratios = [f"{kind} p99 x{big['latency'][kind]['p99Ms'] / max(small[kind]['p99Ms'], 1e-9):.2f}"
                      for kind in ("search", "complete", "complete-typing", "reverse") if kind in small and kind in big["latency"]]
            print(f"{'':<20}andorra x{copies} / x1: index x{big['indexBytes'] / max(reports['andorra']['indexBytes'], 1):.0f} in size; "
                  + ", ".join(ratios))
            for miss in big["misses"]:
                print(f"  x{copies} miss: {miss}")
    for extract, report in reports.items():
        for miss in report["misses"]:
            print(f"  {extract} miss: {miss}")
    if "--no-peer" not in sys.argv:
        for extract in EXTRACTS:
            compare_peer(extract, reports[extract], runs, allow_setup=True)


if __name__ == "__main__":
    main()
