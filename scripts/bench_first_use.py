#!/usr/bin/env python
"""The first ``fill``, ``square``, ``swedish`` and ``bag`` and a fresh Dask worker's first
task after an install, wall and CPU: cold (fresh virtualenv, empty caches), warm (the same
virtualenv again) and reinstall (another fresh virtualenv, the user's cache kept).

Issue 30's target: each first use at most 10 s of wall time, compiling included.  Each
case installs a checkout's ``cryptocomp/`` into a new virtualenv (what pip copies there;
the dependencies come from this interpreter's site-packages through a ``.pth`` file), with
its own empty user cache directory (``XDG_CACHE_HOME``) and no ``NUMBA_CACHE_DIR``.  The
dictionary is ENABLE (``--dict``), its index built beforehand in a shared data home, so
the figures are the compiling and loading, not the index build (``--fresh-home``: each
case builds it, as a new user's first run does).  ``--baseline`` measures
another checkout (today's main) in the same run, side by side.

    nice python scripts/bench_first_use.py [--baseline /work/main] [--runs 1]
                                            [--only fill,square,swedish,bag,dask]
                                            [--baseline-only square,bag] [--fresh-home]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchkit import ROOT

TARGET = 10.0  # seconds of wall time, issue 30
ENABLE = ROOT.parent.parent / "shared" / "data" / "enable1.txt"
if not ENABLE.is_file():
    ENABLE = Path("/work/shared/data/enable1.txt")

# the task a fresh Dask worker runs first: a 5x5 square, the client having compiled nothing
_DASK = """
import sys, time
from distributed import Client, LocalCluster

def task(words):
    from cryptocomp.crossword import fill
    from cryptocomp.crossword.square import square_grid
    from cryptocomp.index.index import Index
    return fill(square_grid(5), Index.from_counts(words, name="w")).status

words = {w: 1 for w in open(sys.argv[1]).read().split() if len(w) == 5}
with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                  dashboard_address=None) as cluster, Client(cluster) as client:
    client.submit(len, [1]).result()  # the worker is up
    start = time.perf_counter()
    status = client.submit(task, words).result()
    print(f"first task {time.perf_counter() - start:.2f} s: {status}", file=sys.stderr)
"""

COMMANDS = {
    "fill": ["-m", "cryptocomp", "fill", "american15", "--dict", str(ENABLE), "--time", "60"],
    "square": ["-m", "cryptocomp", "square", "5", "--dict", str(ENABLE), "--time", "60"],
    "swedish": ["-m", "cryptocomp", "swedish", "--size", "9x9", "--dict", str(ENABLE),
                "--clues", "none", "--time", "60"],
    # the bag's own limit: 3 s of search; what is beyond it is loading and compiling
    "bag": ["-m", "cryptocomp", "bag", "--dict", str(ENABLE), "--time-limit", "3"],
    "dask": ["-c", _DASK, str(ENABLE)],
}


@dataclass
class Timing:
    """One run of one command: its wall and CPU seconds, exit code and last stderr line."""

    wall: float
    cpu: float
    code: int
    said: str


def install(checkout: Path, venv: Path) -> Path:
    """A fresh virtualenv at ``venv`` holding a copy of ``checkout``'s package; its python."""
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    shutil.copytree(checkout / "cryptocomp", site / "cryptocomp",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return python


def run(python: Path, argv: list[str], env: dict[str, str], cwd: Path) -> Timing:
    """Run ``python argv`` to its end: wall, CPU (it and its waited-for children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([str(python), *argv], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=1800)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    said = next((line for key in ("first task", "compiling") for line in lines if key in line),
                lines[-1] if lines else "")
    return Timing(wall, cpu, proc.returncode, said[:150])


def environment(work: Path, cache: Path, home: Path) -> dict[str, str]:
    """A user with an empty cache directory ``cache`` and the shared data home ``home``."""
    # bytecode is written, as pip's install compiles it (any value of the variable stops it)
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH", "NUMBA_DISABLE_JIT", "VIRTUAL_ENV",
                        "PYTHONDONTWRITEBYTECODE")}
    env.update(XDG_CACHE_HOME=str(cache), CRYPTOCOMP_HOME=str(home), HOME=str(work / "user"))
    return env


def measure(checkout: Path, command: str, work: Path, home: Path | None) -> dict[str, Timing]:
    """Cold, warm and reinstall timings of ``command`` from ``checkout`` (``home`` None: an
    empty data home of its own, the index built in the cold case)."""
    case = Path(tempfile.mkdtemp(prefix=f"{command}-", dir=work))
    if home is None:
        home = case / "home"
        (home / "indexes").mkdir(parents=True)
    env = environment(case, case / "cache", home)
    python = install(checkout, case / "venv1")
    out = {"cold": run(python, COMMANDS[command], env, case)}
    out["warm"] = run(python, COMMANDS[command], env, case)
    again = install(checkout, case / "venv2")
    out["reinstall"] = run(again, COMMANDS[command], env, case)
    shutil.rmtree(case, ignore_errors=True)
    return out


def load() -> str:
    """The load averages, as uptime prints them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkout", type=Path, default=ROOT, help="the sources measured")
    ap.add_argument("--baseline", type=Path, help="another checkout measured beside them")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--only", default=",".join(COMMANDS))
    ap.add_argument("--baseline-only", help="the commands measured on --baseline too "
                    "(default: all of --only; each cold case compiles for minutes)")
    ap.add_argument("--fresh-home", action="store_true", help="each case with an empty "
                    "data home: the cold run builds the index too (the whole first use)")
    args = ap.parse_args()
    commands = [c for c in args.only.split(",") if c]
    both = set(args.baseline_only.split(",")) if args.baseline_only else set(commands)
    sources = {"new": args.checkout} | ({"today": args.baseline} if args.baseline else {})
    with tempfile.TemporaryDirectory(prefix="first-use-") as tmp:
        work = Path(tmp)
        home = work / "home"
        (home / "indexes").mkdir(parents=True)
        # the index of ENABLE, built once: the figures are the compiling, not this
        python = install(args.checkout, work / "index-venv")
        subprocess.run([str(python), "-c", "import sys; from cryptocomp.index.store import "
                        "load_index; load_index(sys.argv[1])", str(ENABLE)],
                       env=environment(work, work / "index-cache", home), check=False,
                       capture_output=True)
        print(f"load before: {load()}", flush=True)
        rows: dict[tuple[str, str, str], list[Timing]] = {}
        for r in range(args.runs):
            for command in commands:
                for label, checkout in sources.items():
                    if label == "today" and command not in both:
                        continue
                    cases = measure(checkout, command, work, None if args.fresh_home else home)
                    for case, t in cases.items():
                        rows.setdefault((command, label, case), []).append(t)
                        print(f"run {r + 1} {command:8} {label:6} {case:9} wall {t.wall:6.1f} s"
                              f"  cpu {t.cpu:6.1f} s  exit {t.code}  load {load()}  | "
                              f"{t.said}", flush=True)
        print(f"\nmedians of {args.runs} run(s), load after: {load()}; target: first use "
              f"<= {TARGET:.0f} s wall")
        print(f"{'command':8} {'case':9} " + "  ".join(f"{lab + ' wall/cpu':>18}"
                                                   for lab in sources))
        for command in commands:
            for case in ("cold", "warm", "reinstall"):
                cells = []
                for label in sources:
                    ts = rows.get((command, label, case), [])
                    if not ts:
                        cells.append("-")
                        continue
                    cells.append(f"{statistics.median(t.wall for t in ts):8.1f}/"
                                 f"{statistics.median(t.cpu for t in ts):<6.1f} s")
                print(f"{command:8} {case:9} " + "  ".join(f"{c:>18}" for c in cells))


if __name__ == "__main__":
    main()
