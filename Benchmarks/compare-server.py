#!/usr/bin/env python3
"""The map server under load: `openmapkit serve` driven by wrk, against nginx serving the same tiles.

Usage: compare-server.py PATH/TO/openmapkit [--duration S] [--rounds N] [--connections N] [--threads N]
                         [--bundle DIR] [--pbf FILE]

1. The Monaco sample (../shared/data/osm/monaco.osm.pbf) is imported into a temporary bundle
   (or --bundle names one), and `openmapkit serve BUNDLE --log none` starts on a free loopback
   port. A second server over the same bundle runs with --cache-megabytes 0 for the uncached
   raster tiles (every request draws).
2. wrk (Debian's), a separate process on the same machine, drives one scenario at a time for
   --duration seconds with a Lua script that cycles through a fixed list of URLs (each wrk thread
   starts at a different place in the list):
   - vector tiles, cached: every tile in the bundle (`/tiles/{z}/{x}/{y}.mvt`, zooms 0-14), asked
     once before the run;
   - the same tiles from nginx (Debian's), exported as static files (the bundle's gzip bytes,
     sent with Content-Encoding: gzip as our server does) on another port, in the same run;
   - raster tiles, cached: standard-style 256-px PNG tiles over the bundle's zoom-14 tiles and
     their zoom-15 children, each drawn once before the run;
   - raster tiles, uncached: the same URLs on the server without a cache;
   - snapshots: /api/v1/snapshot with distinct centres (600x400, every request draws);
   - search and directions: /v1/search and /v1/directions with a few queries (skipped with a line
     saying so when the server answers 404 to them).
   Cached tiles run first, in --rounds rounds (default 3) that alternate ours, nginx and a third
   server over the same bundle with --cached-tiles-through-router (cached tiles answered by the
   router like every other request, not on the event loop in front of it); each reports the
   median over rounds of requests per second, p50 and p99, and the CPU time of the server's
   processes (/proc, nginx's workers included) per request.
3. Each scenario reports requests per second, latency p50 and p99 (wrk's), the count of non-2xx
   answers and socket errors, and the server's resident memory (VmRSS from /proc, sampled every
   50 ms) before, at its peak and after. The last lines compare our cached vector tiles with
   nginx's (ours / nginx) and check the goals: no errors, memory flat, cached tiles at least half
   of nginx's throughput. Memory flat means: the memory not held by the response cache (resident
   memory less `openmapkit_cache_bytes` from /metrics) within 64 MiB of what it was after the
   warm-up, which also draws a few snapshots and asks a few searches and routes. The cache keeps every distinct snapshot it draws up to its budget (256 MiB by
   default), so the resident total grows with it until the budget is reached, then stays.

The machine is shared and small (wrk, nginx and the server compete for the same cores): only
figures from the same run are comparable.
"""
import argparse
import json
import os
import pwd
import random
import shutil
import statistics
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from benchmark_support import SHARED, free_port, process_tree, tree_cpu_seconds, wait_until_up
MONACO = (43.7384, 7.4246)

LUA = r"""
paths = {%(paths)s}
counter = 0
function setup(thread)
  thread:set("offset", counter)
  counter = counter + 1
end
function init(args)
  -- Each thread starts at its own place in the list so threads do not ask the same URL together.
  index = (offset or 0) * math.floor(#paths / 8)
end
function request()
  index = index %% #paths + 1
  return wrk.format("GET", paths[index], {["Accept-Encoding"] = "gzip"})
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%%d,"duration_us":%%d,"p50_us":%%d,"p99_us":%%d,"non2xx":%%d,"connect":%%d,"read":%%d,"write":%%d,"timeout":%%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status, e.connect, e.read, e.write, e.timeout))
end
"""


def fetch(url, timeout=60):
    """(status, body) of a GET; HTTP errors are answers too."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def rss(pid):
    """Resident memory of `pid` and its child processes (nginx's workers) in bytes (0 when gone)."""
    return sum(own_rss(process) for process in process_tree(pid))


def own_rss(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class MemorySampler:
    """Samples a process's VmRSS every 50 ms while a scenario runs."""

    def __init__(self, pid):
        self.pid, self.peak, self.running = pid, 0, False

    def __enter__(self):
        self.before = rss(self.pid)
        self.peak, self.running = self.before, True
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()
        return self

    def loop(self):
        while self.running:
            self.peak = max(self.peak, rss(self.pid))
            time.sleep(0.05)

    def __exit__(self, *_):
        self.running = False
        self.thread.join()
        self.after = rss(self.pid)
        self.peak = max(self.peak, self.after)


def run_wrk(base, paths, seconds, threads, connections, work):
    """wrk over `paths` at `base`; the Lua done() hook's JSON as a dict."""
    script = os.path.join(work, "cycle.lua")
    with open(script, "w") as f:
        f.write(LUA % {"paths": ",".join(json.dumps(p) for p in paths)})
    result = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--timeout", "10s",
                             "-s", script, base], capture_output=True, text=True)
    for line in result.stdout.splitlines():
        if line.startswith("WRKJSON "):
            return json.loads(line[len("WRKJSON "):])
    raise RuntimeError(f"wrk failed: {(result.stderr or result.stdout).strip()[-400:]}")


def tile_list(bundle, zooms):
    """(z, x, y, gzip bytes) of the bundle's tiles at `zooms` (XYZ rows, not MBTiles' TMS ones)."""
    db = sqlite3.connect(f"file:{os.path.join(bundle, 'tiles.mbtiles')}?mode=ro", uri=True)
    rows = db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles WHERE zoom_level BETWEEN ? AND ? "
                      "ORDER BY zoom_level, tile_column, tile_row", (min(zooms), max(zooms))).fetchall()
    db.close()
    return [(z, x, (1 << z) - 1 - row, data) for z, x, row, data in rows if data]


def start_nginx(root, port, work):
    """nginx serving `root` on `port` with a throwaway configuration, in the foreground."""
    prefix = os.path.join(work, "nginx")
    os.makedirs(os.path.join(prefix, "logs"), exist_ok=True)
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
    config = os.path.join(prefix, "nginx.conf")
    cores = os.cpu_count() or 1
    with open(config, "w") as f:
        f.write(f"""
{user}
worker_processes {cores};
pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    types {{ application/vnd.mapbox-vector-tile mvt; }}
    server {{
        listen 127.0.0.1:{port};
        root {root};
        location /tiles/ {{
            add_header Content-Encoding gzip;
            add_header Cache-Control "public, max-age=86400";
            etag on;
        }}
    }}
}}
""")
    process = subprocess.Popen(["nginx", "-p", prefix, "-c", config, "-g", "daemon off;"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return process


def stop(process):
    if process and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def cache_bytes(base):
    """The response cache's size as the server's /metrics reports it (0 when unreadable)."""
    try:
        _, body = fetch(base + "/metrics", timeout=30)
        for line in body.decode().splitlines():
            if line.startswith("openmapkit_cache_bytes "):
                return float(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def mib(value):
    return f"{value / (1 << 20):.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("openmapkit")
    parser.add_argument("--duration", type=int, default=10, help="seconds per scenario")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the cached-tile comparison (ours, nginx, ours via the router)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections for cheap requests")
    parser.add_argument("--render-connections", type=int, default=4, help="wrk connections for requests that draw")
    parser.add_argument("--bundle", help="an imported bundle to serve instead of importing the PBF")
    parser.add_argument("--pbf", default=os.path.join(SHARED, "data", "osm", "monaco.osm.pbf"))
    args = parser.parse_args()

    for tool in ("wrk", "nginx"):
        if not shutil.which(tool) and not os.path.exists(f"/usr/sbin/{tool}"):
            sys.exit(f"{tool} is missing: apt-get install wrk nginx (make bench-deps installs them)")
    os.environ["PATH"] += os.pathsep + "/usr/sbin"

    work = tempfile.mkdtemp(prefix="omk-server-bench-")
    os.chmod(work, 0o755)  # nginx's workers run as another user when started by root
    processes = []
    try:
        bundle = args.bundle
        if not bundle:
            bundle = os.path.join(work, "monaco.omk")
            print(f"importing {os.path.basename(args.pbf)}...", flush=True)
            result = subprocess.run([args.openmapkit, "import", args.pbf, "-o", bundle], capture_output=True, text=True)
            if result.returncode != 0:
                sys.exit(f"import failed: {result.stderr.strip()[-400:]}")

        port, bare_port, nginx_port = free_port(), free_port(), free_port()
        server = subprocess.Popen([args.openmapkit, "serve", bundle, "--host", "127.0.0.1", "--port", str(port), "--log", "none"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        processes.append(server)
        bare = subprocess.Popen([args.openmapkit, "serve", bundle, "--host", "127.0.0.1", "--port", str(bare_port), "--log", "none",
                                 "--cache-megabytes", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        processes.append(bare)
        # The same server with cached tiles answered through the router like every other request,
        # to show what answering them on the event loop in front of it saves.
        router_port = free_port()
        router = subprocess.Popen([args.openmapkit, "serve", bundle, "--host", "127.0.0.1", "--port", str(router_port), "--log", "none",
                                   "--cached-tiles-through-router"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        processes.append(router)
        base, bare_base, nginx_base = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{bare_port}", f"http://127.0.0.1:{nginx_port}"
        router_base = f"http://127.0.0.1:{router_port}"
        wait_until_up(base + "/healthz", server)
        wait_until_up(bare_base + "/healthz", bare)
        wait_until_up(router_base + "/healthz", router)
        started_rss = rss(server.pid)

        # The tiles, and the same bytes as static files for nginx.
        tiles = tile_list(bundle, range(0, 15))
        static = os.path.join(work, "static")
        for z, x, y, data in tiles:
            folder = os.path.join(static, "tiles", str(z), str(x))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{y}.mvt"), "wb") as f:
                f.write(data)
        for folder, _, _ in os.walk(static):
            os.chmod(folder, 0o755)
        nginx = start_nginx(static, nginx_port, work)
        processes.append(nginx)
        vector_paths = [f"/tiles/{z}/{x}/{y}.mvt" for z, x, y, _ in tiles]
        wait_until_up(nginx_base + vector_paths[0], nginx, seconds=20)

        deepest = max(z for z, _, _, _ in tiles)
        raster_tiles = [(z, x, y) for z, x, y, _ in tiles if z == deepest]
        raster_tiles += [(z + 1, 2 * x + dx, 2 * y + dy) for z, x, y in raster_tiles for dx in (0, 1) for dy in (0, 1)]
        raster_paths = [f"/styles/standard/{z}/{x}/{y}.png" for z, x, y in raster_tiles]
        rng = random.Random(7)
        snapshot_paths = [f"/api/v1/snapshot?center={MONACO[0] + rng.uniform(-0.006, 0.006):.6f},{MONACO[1] + rng.uniform(-0.008, 0.008):.6f}"
                          f"&z={rng.choice([15, 16, 17])}&size=600x400" for _ in range(5000)]
        search_paths = [f"/v1/search?q={q}&searchLocation={MONACO[0]},{MONACO[1]}"
                        for q in ("casino", "hotel", "pharmacie", "boulevard%20des%20moulins", "restaurant", "port", "gare", "musee")]
        directions_paths = [f"/v1/directions?origin={a}&destination={b}" for a, b in (
            ("43.7384,7.4246", "43.7312,7.4197"), ("43.7289,7.4163", "43.7447,7.4302"), ("43.7350,7.4210", "43.7400,7.4280"),
            ("43.7321,7.4138", "43.7397,7.4262"))]

        # Cached tiles: several rounds alternating ours, nginx and ours through the router.
        cached = [
            ("vector tiles, cached", "openmapkit", base, vector_paths, server),
            ("vector tiles, cached", "nginx", nginx_base, vector_paths, nginx),
            ("vector tiles, cached", "openmapkit, via router", router_base, vector_paths, router),
            ("raster tiles, cached", "openmapkit", base, raster_paths, server),
            ("raster tiles, cached", "openmapkit, via router", router_base, raster_paths, router),
        ]
        scenarios = [
            ("raster tiles, uncached", "openmapkit (no cache)", bare_base, raster_paths, args.render_connections, bare),
            ("snapshots 600x400, uncached", "openmapkit", base, snapshot_paths, args.render_connections, server),
            ("search", "openmapkit", base, search_paths, args.connections, server),
            ("directions", "openmapkit", base, directions_paths, args.connections, server),
        ]

        print(f"{len(vector_paths)} vector tiles, {len(raster_paths)} raster tiles (z{deepest}-{deepest + 1}); "
              f"wrk -t{args.threads}, {args.duration} s per scenario, {os.cpu_count()} cores", flush=True)
        # Warm-up: every cached scenario's URLs once, so the runs measure hits.
        for server_base in (base, router_base):
            for path in vector_paths + raster_paths:
                status, _ = fetch(server_base + path, timeout=300)
                if status >= 400:
                    print(f"warm-up: {path} answered {status}")
                    break
        # ...and a few requests of each drawing and API scenario, so the renderers, the search index
        # and the road graphs are in use before the memory is taken as settled: what the runs add
        # after that is what sustained load costs, not what the first use of each part does.
        for path in snapshot_paths[-3:] + search_paths + directions_paths:
            fetch(base + path, timeout=300)
        settled_rss = rss(server.pid)
        settled_cache = cache_bytes(base)

        any_errors = False
        rounds = {}
        print(f"\ncached tiles, {args.rounds} rounds alternating the servers (medians over rounds; CPU = the server's "
              "processes' CPU time per request)")
        for round_index in range(args.rounds):
            for name, label, url, paths, process in cached:
                before = tree_cpu_seconds(process.pid)
                figures = run_wrk(url, paths, args.duration, args.threads, args.connections, work)
                cpu = tree_cpu_seconds(process.pid) - before
                errors = figures["connect"] + figures["read"] + figures["write"] + figures["timeout"]
                any_errors |= figures["non2xx"] > 0 or errors > 0
                seconds = figures["duration_us"] / 1e6
                rounds.setdefault((name, label), []).append({
                    "rate": figures["requests"] / seconds if seconds > 0 else 0, "p50": figures["p50_us"] / 1000,
                    "p99": figures["p99_us"] / 1000, "cpu_us": 1e6 * cpu / max(figures["requests"], 1),
                    "bad": figures["non2xx"] + errors})
        header = f"{'scenario':<30}{'server':<24}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'CPU µs/req':>11}{'non-2xx+err':>12}   req/s per round"
        print(header)
        print("-" * len(header))
        medians = {}
        for (name, label), runs in rounds.items():
            m = {k: statistics.median(r[k] for r in runs) for k in ("rate", "p50", "p99", "cpu_us")}
            medians[(name, label)] = m
            print(f"{name:<30}{label:<24}{m['rate']:>9.0f}{m['p50']:>9.2f}{m['p99']:>9.2f}{m['cpu_us']:>11.1f}"
                  f"{sum(r['bad'] for r in runs):>12}   {', '.join(str(round(r['rate'])) for r in runs)}")
        vector_ours = medians[("vector tiles, cached", "openmapkit")]
        vector_nginx = medians[("vector tiles, cached", "nginx")]
        vector_router = medians[("vector tiles, cached", "openmapkit, via router")]
        raster_ours = medians[("raster tiles, cached", "openmapkit")]
        raster_router = medians[("raster tiles, cached", "openmapkit, via router")]
        per_round = [o["rate"] / n["rate"] for o, n in zip(rounds[("vector tiles, cached", "openmapkit")],
                                                           rounds[("vector tiles, cached", "nginx")]) if n["rate"]]
        print(f"\ncached vector tiles: openmapkit / nginx = {vector_ours['rate'] / vector_nginx['rate']:.2f} "
              f"(per round {', '.join(f'{r:.2f}' for r in per_round)}; goal: at least 0.50); "
              f"CPU per tile {vector_ours['cpu_us']:.1f} µs against nginx's {vector_nginx['cpu_us']:.1f} µs")
        print(f"through the router instead: vector tiles {vector_router['rate']:.0f} req/s, {vector_router['cpu_us']:.1f} µs CPU per tile; "
              f"raster tiles {raster_router['rate']:.0f} req/s against {raster_ours['rate']:.0f} in front of it\n")

        header = f"{'scenario':<30}{'server':<24}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}{'errors':>8}   RSS MiB before/peak/after"
        print(header)
        print("-" * len(header))
        results = {}
        for name, label, url, paths, connections, process in scenarios:
            try:
                status, body = fetch(url + paths[0], timeout=120)
            except OSError as error:
                print(f"{name:<30}{label:<24}skipped: the first request failed ({error})")
                any_errors = True
                continue
            if status == 404 and name in ("search", "directions"):
                print(f"{name:<30}{label:<24}skipped: {paths[0].split('?')[0]} answered 404 (not in this build)")
                continue
            if status >= 400:
                print(f"{name:<30}{label:<24}first request answered {status}: {body[:160]!r}")
            pid = process.pid
            with MemorySampler(pid) as memory:
                figures = run_wrk(url, paths, args.duration, args.threads, connections, work)
            seconds = figures["duration_us"] / 1e6
            rate = figures["requests"] / seconds if seconds > 0 else 0
            errors = figures["connect"] + figures["read"] + figures["write"] + figures["timeout"]
            any_errors |= figures["non2xx"] > 0 or errors > 0
            results[(name, label)] = rate
            print(f"{name:<30}{label:<24}{rate:>9.{0 if rate >= 100 else 1}f}{figures['p50_us'] / 1000:>9.2f}{figures['p99_us'] / 1000:>9.2f}"
                  f"{figures['non2xx']:>9}{errors:>8}   {mib(memory.before)}/{mib(memory.peak)}/{mib(memory.after)}", flush=True)

        ours, theirs = vector_ours["rate"], vector_nginx["rate"]
        ended_rss = rss(server.pid)
        ended_cache = cache_bytes(base)
        print()
        growth = (ended_rss - ended_cache) - (settled_rss - settled_cache)
        print(f"server memory: {mib(started_rss)} MiB at start, {mib(settled_rss)} after the warm-up, {mib(ended_rss)} at the end, "
              f"of which the response cache {mib(settled_cache)} and {mib(ended_cache)} MiB; outside the cache "
              f"{'+' if growth >= 0 else ''}{mib(growth)} MiB (goal: flat, within 64 MiB)")
        goals = [("no errors", not any_errors), ("memory flat", growth < 64 << 20),
                 ("cached tiles at least half nginx's throughput", theirs > 0 and ours / theirs >= 0.5)]
        print("goals: " + ", ".join(f"{name}: {'met' if met else 'NOT met'}" for name, met in goals))
    finally:
        for process in reversed(processes):
            stop(process)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
