#!/usr/bin/env python3
"""Routing figures: our road graph beside OSRM (CH) and Valhalla, and the graph build at scale.

Usage: compare-routing.py PATH/TO/OpenMapKitBenchmarks [--pairs N] [--rounds N] [--no-peer] [--no-scale]
                          [--scale-copies 10,100] [--extracts andorra,liechtenstein]
                          [--engines osrm-ch,valhalla] [--out FILE.json]

--extracts and --engines narrow a run (e.g. `--extracts liechtenstein --engines osrm-ch --no-scale`
for a quick query-time check against OSRM CH alone).

1. Peers (../shared/peers/routing): OSRM (osrm-bindings, car.lua, CH) and Valhalla (pyvalhalla,
   auto) are installed and their car datasets built by build_peers.sh into $ROUTEPEER_ROOT
   (default /tmp/routepeer) when missing, with one preprocessing thread (as ours); datasets
   already there are reused as they were built (the logs in $ROUTEPEER_ROOT/logs give the
   thread count). Their build time and peak memory come from its /usr/bin/time logs.
2. Pairs: bench_peers.py draws 1000 random pairs (seed 42) from the nodes of car-drivable ways,
   kept only when every peer routes them with both ends snapped within 5 m; Liechtenstein's
   PBF also holds part of Alabama, so its pairs are drawn inside Liechtenstein's box. The same
   PAIRS file is then timed in process by bench_peers.py (peers) and by
   `OpenMapKitBenchmarks routepairs` (ours): one query at a time on one CPU after a warm-up pass,
   in --rounds (default 3) rounds that alternate the peers and ours; each figure is the median
   over rounds. Two variants, each the same work on both sides:
   "full": the route with its steps, the whole line and each step's line encoded as polyline6
   (OSRM steps=true overview=full geometries=polyline6, its answer converted to Python objects;
   Valhalla with instructions, a JSON string; ours "encoded", the MKRoute as MKDirections builds it
   encoded as JSON text with polyline6 lines);
   "bare": distance and time (OSRM overview=false; Valhalla returns its shape regardless).
   Ours without the encoding (MKRoute objects) is printed too, but not set beside a peer.
3. Ours: `OpenMapKitBenchmarks routebuild` reads the PBF as the import does and builds the
   automobile graph; its build time counts reading the PBF (OSRM: extract + contract).
4. Agreement: share of pairs both route, relative distance difference |ours - peer| / peer
   (median, p95), and the pairs that differ by more than 5% (written to the JSON for a look).
5. Scale: Andorra x1, x10, x100 (made once with ../shared/tools/make-large-extract.py, kept in
   .build/bench-data), all three modes' graphs: build time and peak memory must grow about
   linearly with the input.

The machines are shared and noisy: compare figures from the same run, not across runs.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchmark_support import BENCH_DATA, ROUTING_PEER_ROOT as PEER_ROOT, SHARED, large_extract, option, routing_peers
from benchmark_support import percentile as pct

PEERS = os.path.join(SHARED, "peers", "routing")
# Liechtenstein's own box (its PBF also carries part of Alabama).
BBOX = {"liechtenstein": "47.04,9.47,47.28,9.64"}
EXTRACTS = ("andorra", "liechtenstein")
ROUNDS = int(option("--rounds", "3"))


def peer_preprocessing(name):
    """(engine → (wall s, peak MB)) from build_peers.sh's timings: OSRM CH = extract + contract."""
    path = os.path.join(PEER_ROOT, "preprocess-timings.json")
    if not os.path.exists(path):
        return {}
    rows = [r for r in json.load(open(path)) if r["extract"] == name]
    def pick(engine, steps):
        sel = [r for r in rows if r["engine"] == engine and r["step"] in steps]
        if len(sel) != len(steps):
            return None
        return sum(r["runs"][-1]["wall_s"] for r in sel), max(r["maxrss_mb_max"] for r in sel)
    return {"osrm-ch": pick("osrm", ["extract", "contract"]), "valhalla": pick("valhalla", ["admins", "tiles", "tar"])}


def pin(cpu=0):
    def fn():
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError:
            pass
    return fn


def run_json(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=pin())
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {r.stderr.strip()[-800:]}")
    return r.stdout


def build_ours(benchmarks, pbf, folder, modes):
    out = run_json([benchmarks, "routebuild", pbf, folder, "--modes", ",".join(modes)])
    return json.loads(out.strip().splitlines()[-1])


def agreement(ours, peer, pairs):
    both, diffs, big = 0, [], []
    for i, (a, b) in enumerate(zip(ours, peer)):
        if a and "distance" in a and b:
            both += 1
            if b["distance"] > 0:
                d = abs(a["distance"] - b["distance"]) / b["distance"]
                diffs.append(d)
                if d > 0.05:
                    big.append({"pair": i, "from": pairs[i]["from"], "to": pairs[i]["to"], "ours_m": round(a["distance"], 1),
                                "peer_m": round(b["distance"], 1), "ours_s": round(a["duration"], 1), "peer_s": round(b["duration"], 1)})
    n = len(pairs)
    return {"both_routed": both / n if n else float("nan"), "distance_diff_median": statistics.median(diffs) if diffs else float("nan"),
            "distance_diff_p95": pct(diffs, 95), "within_5pct": sum(d <= 0.05 for d in diffs) / len(diffs) if diffs else float("nan"),
            "over_5pct": big}


def round_figures(rounds):
    """The median over rounds of each round's median and p99, per variant."""
    return {variant: {"median_ms": statistics.median(r[variant]["median_ms"] for r in rounds),
                      "p99_ms": statistics.median(r[variant]["p99_ms"] for r in rounds),
                      "rounds": [round(r[variant]["median_ms"], 4) for r in rounds]}
            for variant in rounds[0]}


def compare_extract(benchmarks, vpy, name, n_pairs, work, engines="osrm-ch,valhalla"):
    pbf = os.path.join(SHARED, "data", "osm", f"{name}.osm.pbf")
    result = {"extract": name}
    pairs_file = os.path.join(PEER_ROOT, f"pairs-{name}.json")
    print(f"[routing] {name}: our graph (routebuild)", flush=True)
    folder = os.path.join(work, name)
    built = build_ours(benchmarks, pbf, folder, ["automobile"])
    result["ours_build"] = {"seconds": built["total_s"], "graph_seconds": built["modes"]["automobile"]["build_s"],
                            "peak_mb": built["peak_rss_mb"], "shortcuts": built["modes"]["automobile"]["shortcuts"]}
    # Rounds alternate the peers and ours over the same pairs; each round warms up first.
    peer_rounds, our_rounds, peers, ours = {}, [], None, None
    for round_index in range(ROUNDS):
        if vpy:
            cmd = [vpy, os.path.join(PEERS, "bench_peers.py"), pbf, pairs_file, "--n", str(n_pairs), "--seed", "42",
                   "--engines", engines, "--data-root", PEER_ROOT, "--out", os.path.join(work, f"peers-{name}.json"),
                   "--ref-out", os.path.join(work, f"reference-{name}.json")]
            if name in BBOX:
                cmd += ["--bbox", BBOX[name]]
            print(f"[routing] {name}: round {round_index + 1}/{ROUNDS}, peers (bench_peers.py)", flush=True)
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"[routing] bench_peers.py failed: {r.stderr[-1500:]}", file=sys.stderr)
                vpy = None
            else:
                peers = json.load(open(os.path.join(work, f"peers-{name}.json")))
                for engine in engines.split(","):
                    if f"{engine}/full" in peers["latency"]:
                        peer_rounds.setdefault(engine, []).append({"bare": peers["latency"][f"{engine}/bare"],
                                                                   "full": peers["latency"][f"{engine}/full"]})
        if not os.path.exists(pairs_file):
            print(f"[routing] {name}: no pairs file (needs the peers' bench_peers.py)", file=sys.stderr)
            return result
        print(f"[routing] {name}: round {round_index + 1}/{ROUNDS}, ours (routepairs)", flush=True)
        ours_file = os.path.join(work, f"ours-{name}.json")
        run_json([benchmarks, "routepairs", os.path.join(folder, "automobile.graph"), pairs_file, "--out", ours_file])
        ours = json.load(open(ours_file))
        our_rounds.append(ours["latency"])
    pairs = json.load(open(pairs_file))["pairs"]
    result["n_pairs"] = len(pairs)
    result["rounds"] = ROUNDS
    result["latency"] = {"ours": round_figures(our_rounds)}
    result["ours_failures"] = [{"pair": i, "from": pairs[i]["from"], "to": pairs[i]["to"], "error": p["error"]}
                               for i, p in enumerate(ours["per_pair"]) if "error" in p]
    if peers:
        result["peer_preprocessing"] = peer_preprocessing(name)
        result["peer_load"] = peers["load"]
        for engine, rounds in peer_rounds.items():
            result["latency"][engine] = round_figures(rounds)
            result[f"agreement_{engine}"] = agreement(ours["per_pair"], peers["per_pair"][engine], pairs)
    return result


def scale(benchmarks, copies, work):
    rows = []
    for n in [1] + copies:
        pbf = os.path.join(SHARED, "data", "osm", "andorra.osm.pbf") if n == 1 else large_extract("andorra", n)
        print(f"[routing] scale: andorra x{n}", flush=True)
        folder = os.path.join(work, f"scale-{n}")
        built = build_ours(benchmarks, pbf, folder, ["automobile", "walking", "cycling"])
        shutil.rmtree(folder, ignore_errors=True)
        rows.append({"copies": n, "pbf_mb": os.path.getsize(pbf) / 1e6, "ways": built["ways"], "read_s": built["read_s"],
                     "total_s": built["total_s"], "peak_mb": built["peak_rss_mb"],
                     "modes": {m: {"build_s": v["build_s"], "shortcuts": v["shortcuts"], "graph_nodes": v["graph_nodes"],
                                   "mb": v["bytes"] / 1e6} for m, v in built["modes"].items()}})
    return rows


def fmt(x, digits=3):
    return "—" if x is None or x != x else f"{x:.{digits}f}"


def report(results, scale_rows):
    print(f"\n## Routing: ours vs OSRM (CH) and Valhalla, car, in process, one CPU, {ROUNDS} alternating rounds\n")
    print("Like for like first: ours \"encoded\" (the route with its steps, the whole line and each step's line as")
    print("polyline6, JSON text) beside OSRM steps=true overview=full geometries=polyline6 (converted to Python")
    print("objects) and Valhalla with instructions (JSON text). Then bare: distance and time only (OSRM")
    print("overview=false; Valhalla still returns its shape). Latency: the median over rounds of each round's")
    print("median and p99 over the same pairs.\n")
    print("| extract | engine | both route | dist diff median | dist diff p95 | within 5% | full median ms | full p99 ms | "
          "bare median ms | bare p99 ms | build s | build peak MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        if "latency" not in r:
            continue
        pre = r.get("peer_preprocessing", {})
        for engine in ("ours", "osrm-ch", "valhalla"):
            lat = r["latency"].get(engine)
            if not lat:
                continue
            if engine == "ours":
                agree = "—", "—", "—", "—"
                build = (r["ours_build"]["seconds"], r["ours_build"]["peak_mb"])
                full = lat["encoded"]
            else:
                a = r.get(f"agreement_{engine}", {})
                agree = (f"{100 * a.get('both_routed', float('nan')):.1f}%", f"{100 * a.get('distance_diff_median', float('nan')):.2f}%",
                         f"{100 * a.get('distance_diff_p95', float('nan')):.2f}%", f"{100 * a.get('within_5pct', float('nan')):.1f}%")
                build = pre.get(engine) or (None, None)
                full = lat["full"]
            print(f"| {r['extract']} | {engine} | {agree[0]} | {agree[1]} | {agree[2]} | {agree[3]} | "
                  f"{fmt(full['median_ms'])} | {fmt(full['p99_ms'])} | {fmt(lat['bare']['median_ms'])} | "
                  f"{fmt(lat['bare']['p99_ms'])} | {fmt(build[0], 2)} | {fmt(build[1], 1)} |")
        o = r["latency"]["ours"]
        for engine in ("osrm-ch", "valhalla"):
            p = r["latency"].get(engine)
            if p:
                print(f"|  | ours/{engine} ratio | | | | | {fmt(o['encoded']['median_ms'] / p['full']['median_ms'], 2)} | "
                      f"{fmt(o['encoded']['p99_ms'] / p['full']['p99_ms'], 2)} | {fmt(o['bare']['median_ms'] / p['bare']['median_ms'], 2)} | "
                      f"{fmt(o['bare']['p99_ms'] / p['bare']['p99_ms'], 2)} | | |")
        print(f"|  | ours, MKRoute objects, not encoded | | | | | {fmt(o['full']['median_ms'])} | {fmt(o['full']['p99_ms'])} | | | | |")
    for r in results:
        for engine in ("osrm-ch", "valhalla"):
            a = r.get(f"agreement_{engine}")
            if a:
                print(f"{r['extract']}: {len(a['over_5pct'])} pairs differ from {engine} by more than 5%")
        if r.get("ours_failures"):
            print(f"{r['extract']}: {len(r['ours_failures'])} pairs we did not route, e.g. {r['ours_failures'][:3]}")
    if scale_rows:
        print("\n## Road graph build at scale (Andorra copies, all three modes, reading the PBF included)\n")
        print("| copies | PBF MB | ways | read s | build s (car/walk/cycle) | total s | s per copy | peak MB | MB per copy |")
        print("|---|---|---|---|---|---|---|---|---|")
        for row in scale_rows:
            m = row["modes"]
            print(f"| {row['copies']} | {row['pbf_mb']:.1f} | {row['ways']} | {row['read_s']:.2f} | "
                  f"{m['automobile']['build_s']:.2f} / {m['walking']['build_s']:.2f} / {m['cycling']['build_s']:.2f} | "
                  f"{row['total_s']:.2f} | {row['total_s'] / row['copies']:.3f} | {row['peak_mb']:.0f} | {row['peak_mb'] / row['copies']:.1f} |")


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        print(__doc__)
        sys.exit(2)
    benchmarks = os.path.abspath(sys.argv[1])
    n_pairs = int(option("--pairs", "1000"))
    copies = [int(c) for c in option("--scale-copies", "10,100").split(",") if c]
    out = option("--out", os.path.join(BENCH_DATA, "compare-routing.json"))
    vpy = None if "--no-peer" in sys.argv else routing_peers(EXTRACTS)
    work = tempfile.mkdtemp(prefix="compare-routing-")
    try:
        extracts = [e for e in option("--extracts", ",".join(EXTRACTS)).split(",") if e]
        engines = option("--engines", "osrm-ch,valhalla")
        results = [compare_extract(benchmarks, vpy, name, n_pairs, work, engines) for name in extracts]
        scale_rows = [] if "--no-scale" in sys.argv else scale(benchmarks, copies, work)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        json.dump({"extracts": results, "scale": scale_rows, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
                  open(out, "w"), indent=1)
        report(results, scale_rows)
        print(f"\n[routing] details (pairs that differ by more than 5%, failures) in {out}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
