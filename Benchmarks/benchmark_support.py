"""What the compare-*.py benchmarks share: paths, command-line options, percentiles, timing a
process (wall, CPU and peak memory from wait4), the CPU time of a running process tree (/proc),
the large extracts made once for scale runs, the routing peers' virtualenv, and starting servers.

Kept free of any one benchmark's logic; each script imports what it needs.
"""
import math
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
BENCH_DATA = os.path.join(ROOT, ".build", "bench-data")
ROUTING_PEER_ROOT = os.environ.get("ROUTEPEER_ROOT", "/tmp/routepeer")


def option(name, default):
    """The value after `name` on the command line, else `default`."""
    if name in sys.argv:
        i = sys.argv.index(name)
        if i + 1 < len(sys.argv):
            return sys.argv[i + 1]
    return default


def percentile(values, q):
    """Nearest-rank percentile (as the routing peers' bench_peers.py computes it)."""
    v = sorted(values)
    if not v:
        return float("nan")
    return v[max(0, min(len(v) - 1, math.ceil(q / 100 * len(v)) - 1))]


def measure(command, output=None, cwd=None, env=None):
    """Wall seconds, CPU seconds and peak MiB of one process; its standard output goes to `output`.

    CPU and peak memory come from wait4(2), which includes the children the process waited for
    (a shell script's tools). A failing command raises with the tail of its standard error.
    """
    start = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdout=output or subprocess.DEVNULL, stderr=errors, cwd=cwd, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        if status != 0:
            errors.seek(0)
            raise RuntimeError(f"{' '.join(command)} failed:\n{errors.read().decode(errors='replace')[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def process_tree(pid):
    """`pid` and its living descendants (from /proc/PID/task/*/children); [] once it is gone."""
    if not os.path.exists(f"/proc/{pid}"):
        return []
    pids, index = [pid], 0
    while index < len(pids):
        try:
            for task in os.listdir(f"/proc/{pids[index]}/task"):
                with open(f"/proc/{pids[index]}/task/{task}/children") as f:
                    pids += [int(child) for child in f.read().split()]
        except OSError:
            pass
        index += 1
    return pids


def tree_cpu_seconds(pid):
    """CPU time so far of `pid`'s process tree: each living process's user and system time with
    its reaped children's (utime + stime + cutime + cstime), so a server's exited workers and a
    database's finished backends still count."""
    total = 0.0
    for process in process_tree(pid):
        try:
            with open(f"/proc/{process}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return total


def size_of(path):
    """Bytes in a file, or in every file under a folder."""
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)
    return os.path.getsize(path)


def large_extract(name, copies, keep_ids=False):
    """The sample `name` tiled `copies` times by ../shared/tools/make-large-extract.py --rename,
    made once and kept in .build/bench-data. `keep_ids` keeps the sample's ids in copy 0 (the search
    suite's expectations name them); otherwise ids are dense, as in a real file that size."""
    os.makedirs(BENCH_DATA, exist_ok=True)
    path = os.path.join(BENCH_DATA, f"{name}-x{copies}{'-keep' if keep_ids else ''}.osm.pbf")
    if not os.path.exists(path):
        print(f"making {os.path.basename(path)} …", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, os.path.join(SHARED, "tools", "make-large-extract.py"),
                        os.path.join(SHARED, "data", "osm", f"{name}.osm.pbf"), path + ".partial",
                        "--copies", str(copies), "--rename", *(["--ids", "keep"] if keep_ids else []), "--quiet"],
                       check=True)
        os.replace(path + ".partial", path)
    return path


def find_python312():
    """A CPython >= 3.12 (the routing peers ship only cp312-abi3 wheels), or None."""
    for c in ("python3.12", "python3.13"):
        p = shutil.which(c)
        if p and subprocess.run([p, "-c", "import sys; sys.exit(0 if sys.version_info >= (3,12) else 1)"]).returncode == 0:
            return p
    base = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    versions = os.path.join(base, "versions")
    for v in sorted(os.listdir(versions)) if os.path.isdir(versions) else []:
        if v.startswith(("3.12", "3.13")):
            return os.path.join(base, "versions", v, "bin", "python")
    return None


def routing_peers(extracts, threads="1"):
    """The routing peers' venv python, after ../shared/peers/routing/build_peers.sh has installed
    OSRM and Valhalla and built car datasets for `extracts` (sample names) when missing; None, with
    the reason printed, when they cannot be installed here."""
    vpy = os.path.join(ROUTING_PEER_ROOT, "venv", "bin", "python")
    have = all(os.path.exists(os.path.join(ROUTING_PEER_ROOT, "osrm", n, f"{n}.osrm.hsgr")) for n in extracts)
    if os.path.exists(vpy) and have:
        return vpy
    py = find_python312()
    if not py:
        print("[peers] no Python >= 3.12 for OSRM and Valhalla: reporting ours only", file=sys.stderr)
        return None
    env = dict(os.environ, ROOT=ROUTING_PEER_ROOT, PYTHON=py, THREADS=threads)
    if os.path.exists(vpy):
        env["SKIP_VENV"] = "1"
    pbfs = [os.path.join(SHARED, "data", "osm", f"{n}.osm.pbf") for n in extracts]
    print(f"[peers] building OSRM and Valhalla in {ROUTING_PEER_ROOT} (build_peers.sh)", flush=True)
    r = subprocess.run(["bash", os.path.join(SHARED, "peers", "routing", "build_peers.sh")] + pbfs,
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        print(f"[peers] build_peers.sh failed, reporting ours only:\n{r.stderr[-1500:]}", file=sys.stderr)
        return None
    return vpy


def osrm_tools(vpy):
    """(folder of the osrm-* executables, folder of the car/foot/bicycle Lua profiles) in the peers' venv."""
    site = subprocess.run([vpy, "-c", "import osrm, os; print(os.path.dirname(osrm.__file__))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(site, "bin"), os.path.join(site, "share", "profiles")


def free_port():
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(url, process, seconds=120):
    """Waits until `url` answers 200; raises if `process` (the server) exits or time runs out."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            tail = process.stderr.read().decode(errors="replace")[-300:] if process.stderr else ""
            raise RuntimeError(f"{url}: the server exited with {process.returncode} {tail}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url}: not answering after {seconds} s")
