#!/usr/bin/env python3
"""Benchmark batch composition: local pool vs Dask LocalCluster vs a Dask scheduler and
workers started as separate processes, and a resume test.

Figures (issue 11), on the same 30 x 30 Russian word lists with + and - (1,800 queries):

* wall and CPU seconds of each way of running, queries per CPU second;
* Dask overhead over the pool (target <= 10 %), on CPU and on wall time;
* the batch's CPU per query against a single in-process ``compose()`` call (index
  loaded, encoded words warm): target at least 2x cheaper through shared work;
* resume: the batch killed halfway (SIGTERM, a clean stop; SIGKILL of the whole process
  group, a crash), resumed, and compared byte for byte with an uninterrupted run.

    nice python scripts/bench_batch.py             # 3 rounds (medians), then the resume test
    nice python scripts/bench_batch.py --rounds 1 --no-resume
    nice python scripts/bench_batch.py --only swedish   # the arrow-word figure alone
    nice python scripts/bench_batch.py --only today --reference DIR  # this tree vs DIR's:
        # pool, LocalCluster and the worker's job alone in one process, side by side
    nice python scripts/bench_batch.py --only big --slice 400 --way dask  # the whole
        # 400 x 400 x +-* batch on a LocalCluster (some 40 minutes of both cores)

Arrow words (``--only swedish``): ``cryptocomp swedish --count 20 --size 10x10`` (English,
WordNet clues) on the pool (``--jobs 2``) and on ``--cluster local:2``: puzzles per CPU
second of the whole run (start-up included) and at the margin (the CPU of 60 puzzles
minus that of 20, over the 40 more: what each further puzzle costs once the workers
run), Dask overhead on both (target <= 10 %), and the output files compared.

CPU seconds count every process of a run: the client and its pool workers (or
LocalCluster nanny and worker processes) through ``getrusage(RUSAGE_CHILDREN)``, and the
separately started ``dask scheduler`` / ``dask worker`` processes through /proc (started
with the environment README recommends, :func:`cryptocomp.batch.cluster.worker_environment`).
The word lists: the 30 most frequent Cyrillic words of 5 letters and of 4 letters in the
``ru`` index (listed at the top of the output).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cryptocomp.batch.cluster import worker_environment
from cryptocomp.cryptarithm.compose import compose
from cryptocomp.errors import CryptocompError
from cryptocomp.index.alphabet import script_of
from cryptocomp.index.store import load_index

BIN = Path(sys.executable).parent
CLK = os.sysconf("SC_CLK_TCK")


def word_lists(index, n: int = 30) -> tuple[list[str], list[str]]:
    """The n most frequent all-Cyrillic words of 5 and of 4 letters."""
    cyr = [w for w in index.words[:20000]
           if w.isalpha() and all(script_of(c) == "CYRILLIC" for c in w)]
    return [w for w in cyr if len(w) == 5][:n], [w for w in cyr if len(w) == 4][:n]


def _proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a live process and its live descendants."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / CLK
        for task in Path(f"/proc/{pid}/task").iterdir():
            children = (task / "children").read_text().split()
            total += sum(_proc_cpu(int(c)) for c in children)
    except (OSError, IndexError, ValueError):
        pass
    return total


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_cli(args: list[str], extra_pids: tuple[int, ...] = (), tree: str | None = None
            ) -> tuple[float, float, str]:
    """(wall s, CPU s of it and of extra_pids' trees meanwhile, stderr) of a cryptocomp run
    (of the sources in ``tree`` when given: a checkout put first on PYTHONPATH, and the
    working directory, which ``python -m`` puts before PYTHONPATH on sys.path)."""
    env = None if tree is None else {**os.environ, "PYTHONPATH": tree}
    before = _children_cpu() + sum(_proc_cpu(p) for p in extra_pids)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cryptocomp", *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=env, cwd=tree)
    wall = time.perf_counter() - t
    cpu = _children_cpu() + sum(_proc_cpu(p) for p in extra_pids) - before
    if done.returncode:
        sys.exit(f"cryptocomp {' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
    return wall, cpu, done.stderr


class Scheduler:
    """`dask scheduler` and `dask worker --nworkers N` as separate processes on 127.0.0.1."""

    def __init__(self, workers: int):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{self.port}"
        # started as README says: with the Dask settings of cryptocomp's own LocalCluster
        quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True, env={**os.environ, **worker_environment()})
        self.scheduler = subprocess.Popen(
            [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(self.port),
             "--no-dashboard"], **quiet)
        self._wait_port()
        self.worker = subprocess.Popen(
            [str(BIN / "dask"), "worker", self.address, "--nworkers", str(workers),
             "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"], **quiet)
        from distributed import Client

        with Client(self.address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)

    def _wait_port(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError as exc:
                if time.monotonic() > deadline:
                    raise RuntimeError("dask scheduler did not start") from exc
                time.sleep(0.2)

    @property
    def pids(self) -> tuple[int, int]:
        return self.scheduler.pid, self.worker.pid

    def close(self) -> None:
        for p in (self.worker, self.scheduler):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in (self.worker, self.scheduler):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def single_query_cpu(index, queries: list[str], sample: int, seed: int) -> tuple[float, float]:
    """(mean CPU s of one compose() call over a random sample, CPU s of the first, cold)."""
    rng = random.Random(seed)
    picked = rng.sample(queries, sample)
    t = time.process_time()
    with contextlib.suppress(CryptocompError):
        compose(picked[0], index)
    cold = time.process_time() - t
    t = time.process_time()
    for q in picked:
        with contextlib.suppress(CryptocompError):
            compose(q, index)
    return (time.process_time() - t) / len(picked), cold


def resume_test(base: list[str], reference: Path, work: Path, sig: int, fraction: float,
                expected_wall: float) -> str:
    """Kill a pool run after ``fraction`` of the reference wall time, resume, compare."""
    out = work / f"resume-{sig}.txt"
    for p in (out, out.with_name(out.name + ".journal")):
        if p.exists():
            p.unlink()
    args = [str(BIN / "cryptocomp"), *base, "--jobs", "2", "--output", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    time.sleep(expected_wall * fraction)
    if sig == signal.SIGKILL:
        os.killpg(proc.pid, signal.SIGKILL)     # a crash: client and workers at once
    else:
        proc.send_signal(sig)
    _, err = proc.communicate()
    groups = out.read_bytes().count(b"\n# ") if out.exists() else 0
    journal = out.with_name(out.name + ".journal")
    records = re.findall(rb"\n@(\d+) \d+\n", journal.read_bytes()) if journal.exists() else []
    held = len({int(p) for p in records if int(p) >= groups})   # not yet in the file
    last = err.strip().splitlines()[-1] if err.strip() else "(no message)"
    wall, cpu, _err2 = run_cli([*base, "--jobs", "2", "--output", str(out), "--resume"])
    same = out.read_bytes() == reference.read_bytes()
    name = signal.Signals(sig).name
    return (f"{name} at {fraction:.0%} of the run: exit {proc.returncode}, {groups} groups in "
            f"the file + {held} more held in the journal; last line: {last}\n"
            f"  resumed in {wall:.1f} s wall, {cpu:.1f} CPU s; final file "
            f"{'IDENTICAL to' if same else 'DIFFERENT from'} the uninterrupted run "
            f"({reference.stat().st_size} bytes)")


def swedish_figures(rounds: int, work: Path) -> None:
    """Arrow-word puzzles per CPU second, pool against --cluster local:2 (see the top)."""
    base = ["swedish", "--size", "10x10", "--seed", "1"]
    ways = [("pool --jobs 2", ["--jobs", "2"]), ("--cluster local:2", ["--cluster", "local:2"])]
    counts = (20, 60)
    cpu: dict[tuple[str, int], list[float]] = {}
    wall: dict[tuple[str, int], list[float]] = {}
    outputs: dict[tuple[str, int], Path] = {}
    print("arrow words: cryptocomp swedish --size 10x10 --seed 1 --count N (English, WordNet "
          "clues)")
    for r in range(rounds):
        for count in counts:
            for name, extra in ways:
                out = work / f"swedish-{name.split()[0].strip('-')}-{count}-{r}.jsonl"
                w, c, err = run_cli([*base, "--count", str(count), *extra, "--output", str(out)])
                m = re.search(r"(\d+) tasks, ([\d.]+) CPU s in tasks", err)
                cpu.setdefault((name, count), []).append(c)
                wall.setdefault((name, count), []).append(w)
                outputs.setdefault((name, count), out)
                print(f"round {r + 1}: {name:18s} --count {count}: wall {w:5.1f} s  CPU "
                      f"{c:5.1f} s  ({m.group(1) if m else '?'} tasks, "
                      f"{m.group(2) if m else '?'} CPU s in them)", flush=True)
    same = all(outputs[(name, n)].read_bytes() == outputs[(ways[0][0], n)].read_bytes()
               for name, _ in ways for n in counts)
    print(f"\noutput files byte for byte identical, pool and Dask: {same}")
    med = {k: statistics.median(v) for k, v in cpu.items()}
    lo, hi = counts
    pool = ways[0][0]
    print(f"\n{'':18s} {'CPU s, 20':>9s} {'puz/CPU s':>9s} {'over pool':>9s}   "
          f"{'CPU s, 60':>9s} {'marginal puz/CPU s':>18s} {'over pool':>9s}")
    for name, _ in ways:
        marginal = (hi - lo) / (med[(name, hi)] - med[(name, lo)])
        pool_marginal = (hi - lo) / (med[(pool, hi)] - med[(pool, lo)])
        print(f"{name:18s} {med[(name, lo)]:9.2f} {lo / med[(name, lo)]:9.2f} "
              f"{100 * (med[(name, lo)] / med[(pool, lo)] - 1):8.1f}%   "
              f"{med[(name, hi)]:9.2f} {marginal:18.2f} "
              f"{100 * (pool_marginal / marginal - 1):8.1f}%")
    print(f"(medians of {rounds} round(s), CPU of every process; 'over pool': Dask's extra CPU, "
          f"target <= 10 %; marginal: 40 puzzles over the CPU 60 take beyond 20)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the three runs (medians)")
    ap.add_argument("--sample", type=int, default=60, help="single queries timed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-resume", action="store_true", help="skip the resume test")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--only", choices=("compose", "swedish", "today", "limit", "big", "worker"),
                    default=None,
                    help="run one benchmark (default: compose and swedish); today: this tree "
                         "against --reference; limit: the join's physical limit; big: a slice "
                         "of the 400 x 400 x +-* batch; worker: the CPU s of composing the "
                         "1,800 queries' shapes in this process (what --only today runs on "
                         "each tree)")
    ap.add_argument("--reference", default=None, metavar="DIR",
                    help="a checkout of today's code (git worktree add DIR main --detach)")
    ap.add_argument("--slice", type=int, default=8, metavar="N",
                    help="big: the first N of the 400 left words (all 400 right, + - *); "
                         "400 runs the whole batch, measured rather than extrapolated")
    ap.add_argument("--way", choices=("both", "pool", "dask"), default="both",
                    help="big: the local pool (--jobs 2), a LocalCluster (--cluster local:2) "
                         "or both")
    args = ap.parse_args()
    # a SIGTERM ends the benchmark through its finally blocks (the dask processes go too)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        import distributed  # noqa: F401
    except ImportError:
        sys.exit("needs Dask: pip install -e '.[dask]'")
    work = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    try:
        if args.only == "today":
            today_figures(args, work)
        elif args.only == "limit":
            limit_figures()
        elif args.only == "big":
            big_figures(args, work)
        elif args.only == "worker":
            print(f"{worker_seconds():.3f}")
        else:
            if args.only != "swedish":
                compose_figures(args, work)
            if args.only != "compose":
                if args.only is None:
                    print()
                swedish_figures(args.rounds, work)
    finally:
        if args.keep:
            print(f"\nfiles kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def _lists(work: Path, left: list[str], right: list[str], ops: str) -> list[str]:
    """The batch's arguments for these word lists (written into ``work``)."""
    (work / "left.txt").write_text("\n".join(left) + "\n", encoding="utf-8")
    (work / "right.txt").write_text("\n".join(right) + "\n", encoding="utf-8")
    return ["compose", "--batch", str(work / "left.txt"), str(work / "right.txt"),
            "--ops", ops, "--lang", "ru"]


def today_figures(args: argparse.Namespace, work: Path) -> None:
    """The 1,800-query batch on today's code (--reference) and on this tree, side by side,
    pool and LocalCluster, each way run ``--rounds`` times (medians)."""
    if not args.reference:
        sys.exit("--only today needs --reference DIR (a checkout of main)")
    index = load_index("ru")
    left, right = word_lists(index)
    base = _lists(work, left, right, "+-")
    n = len(left) * len(right) * 2
    here = str(Path(__file__).resolve().parent.parent)
    trees = [("today", str(Path(args.reference).resolve())), ("this tree", here)]
    ways = [("pool --jobs 2", ["--jobs", "2"]), ("--cluster local:2", ["--cluster", "local:2"])]
    cpu: dict[tuple[str, str], list[float]] = {}
    outputs: dict[tuple[str, str], Path] = {}
    for _, tree in trees:  # untimed: each tree builds its own index and compiles its code
        run_cli(["compose", "когда+если", "--lang", "ru"], tree=tree)
    print(f"{n} queries (30 x 30 Russian words, + and -); load average before: "
          f"{os.getloadavg()[0]:.1f}")
    for r in range(args.rounds):
        for way, extra in ways:
            for name, tree in trees:
                out = work / f"today-{name.split()[0]}-{extra[0].strip('-')}-{r}.txt"
                wall, c, _err = run_cli([*base, *extra, "--output", str(out)], tree=tree)
                cpu.setdefault((name, way), []).append(c)
                outputs.setdefault((name, way), out)
                print(f"round {r + 1}: {name:9s} {way:18s} wall {wall:6.1f} s  CPU {c:6.1f} s  "
                      f"(load {os.getloadavg()[0]:.1f})", flush=True)
    alone: dict[str, list[float]] = {}
    for r in range(args.rounds):
        for name, tree in trees:
            env = {**os.environ, "PYTHONPATH": tree}
            done = subprocess.run([sys.executable, __file__, "--only", "worker"], env=env,
                                  capture_output=True, text=True, check=True)
            alone.setdefault(name, []).append(float(done.stdout.split()[-1]))
            print(f"round {r + 1}: {name:9s} in one process, warm: CPU {alone[name][-1]:6.2f} s",
                  flush=True)
    # the first line names the batch by a digest that covers each tree's own index file
    same = len({p.read_bytes().split(b"\n", 1)[1] for p in outputs.values()}) == 1
    print(f"\noutput files byte for byte identical below their first line (the batch id), "
          f"today and this tree, pool and Dask: {same}")
    print(f"\n{'':18s} {'today q/CPU s':>13s} {'this tree':>10s} {'ratio':>6s}")
    for way, _ in ways:
        old = n / statistics.median(cpu[("today", way)])
        new = n / statistics.median(cpu[("this tree", way)])
        print(f"{way:18s} {old:13.1f} {new:10.1f} {new / old:5.2f}x")
    old, new = (n / statistics.median(alone[name]) for name, _ in trees)
    print(f"{'in one process':18s} {old:13.1f} {new:10.1f} {new / old:5.2f}x")
    print(f"(medians of {args.rounds} round(s); CPU of every process of the run, start-up "
          f"included; in one process: the worker's job alone, compiled and warm; target: 5x)")


def worker_seconds() -> float:
    """CPU seconds of composing the 1,800-query batch's shapes in this process, each
    shape's queries together as a worker does, after one warm-up shape (compiled code,
    encoded words); the results are counted so that nothing is skipped.  A tree from
    before the batch's own form of a OP b (``batch/pairquery.py``) composes every shape by
    ``compose_alike``, as its workers did."""
    from importlib.util import find_spec

    from cryptocomp.cryptarithm.compose import alike_key, compose_alike
    from cryptocomp.cryptarithm.expr import parse

    if find_spec("cryptocomp.batch.pairquery") is None:
        def compose(members: list) -> list:
            return compose_alike(members, index)
    else:
        from cryptocomp.batch.pairquery import column_form, compose_columns

        def compose(members: list) -> list:
            form = column_form(members[0])
            return (compose_alike(members, index) if form is None
                    else compose_columns(members, form, index))

    index = load_index("ru")
    left, right = word_lists(index)
    groups: dict[object, list] = {}
    for op in "+-":
        for a in left:
            for b in right:
                puzzle = parse(f"{a}{op}{b}")
                groups.setdefault(alike_key(puzzle), []).append(puzzle)
    first = next(iter(groups.values()))
    compose(first)
    t = time.process_time()
    found = sum(len(r) for members in groups.values() for r in compose(members))
    assert found > 0
    return time.process_time() - t


def limit_figures() -> None:
    """The physical limit of one query: its candidates' keys joined, in C, against its
    shape's result keys (as many distinct keys as assignments, the upper bound)."""
    import math

    import numpy as np

    index = load_index("ru")
    rng = np.random.default_rng(1)
    cases = [("когда+если", 5, 6, 9), ("когда-если", 1, 5, 9), ("после+меня", 5, 6, 8)]
    print("the join of one query's candidate keys against its shape's result keys, in C "
          f"terms (load {os.getloadavg()[0]:.1f}):")
    for query, lo, hi, k in cases:
        m = sum(len(index.encoded(n, index.written_in("CYRILLIC"))) for n in range(lo, hi + 1))
        rows = math.perm(10, k)
        result = np.unique(rng.integers(1, 2 ** 62, size=rows, dtype=np.int64))
        probes = rng.integers(1, 2 ** 62, size=m, dtype=np.int64)
        times = []
        for _ in range(5):
            t = time.perf_counter()
            # sorted probes walk the result keys in order, as a merge join in C would
            np.searchsorted(result, np.sort(probes))
            times.append(time.perf_counter() - t)
        join = statistics.median(times)
        t = time.perf_counter()
        np.sort(rng.integers(1, 2 ** 62, size=rows, dtype=np.int64))
        sort = time.perf_counter() - t
        print(f"  {query}: {m:,} candidate keys (every Cyrillic word of {lo}-{hi} letters, "
              f"more than the dictionary's) into {rows:,} result keys: sort + searchsorted "
              f"{join * 1e3:.2f} ms ({join / m * 1e9:.0f} ns a key); sorting the shape's result "
              f"keys, once a shape: {sort * 1e3:.0f} ms ({sort / rows * 1e9:.1f} ns an "
              f"assignment)")
    print("  compare with the batch's CPU a query (--only today: CPU s / 1,800)")


def big_figures(args: argparse.Namespace, work: Path) -> None:
    """A slice of the 400 x 400 x +-* Russian batch end to end, extrapolated to all of it."""
    index = load_index("ru")
    left, right = word_lists(index, 400)
    part = left[:args.slice]
    base = _lists(work, part, right, "+-*")
    n = len(part) * len(right) * 3
    total = len(left) * len(right) * 3
    print(f"the 400 x 400 x +-* batch: {total:,} queries; measured: the first {len(part)} left "
          f"words ({n:,} queries, {100 * n / total:.1f} %), load {os.getloadavg()[0]:.1f}")
    ways = [("pool --jobs 2", ["--jobs", "2"]), ("--cluster local:2", ["--cluster", "local:2"])]
    if args.way != "both":
        ways = ways[:1] if args.way == "pool" else ways[1:]
    scaled = "measured: all" if n == total else "EXTRAPOLATED to all"
    for way, extra in ways:
        out = work / f"big-{extra[0]}.txt"
        wall, cpu, err = run_cli([*base, *extra, "--output", str(out)],
                                 tree=str(Path(__file__).resolve().parent.parent))
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        done = [line for line in err.splitlines() if "queries done" in line]
        print(f"  {way:18s} wall {wall:7.1f} s  CPU {cpu:7.1f} s  {n / cpu:6.1f} q/CPU s "
              f"(per core); {scaled} {total:,}: {total / n * cpu / 3600:5.2f} CPU h, "
              f"{total / n * wall / 3600:5.2f} h wall on these 2 cores (load "
              f"{os.getloadavg()[0]:.1f}; output {out.stat().st_size / 1e9:.2f} GB; largest "
              f"process so far {peak:.0f} MB)"
              + (f"\n    {done[-1].strip()}" if done else ""), flush=True)
        out.unlink()  # the whole batch writes gigabytes


def compose_figures(args: argparse.Namespace, work: Path) -> None:
    """The composition figures (see the top)."""
    index = load_index("ru")
    left, right = word_lists(index)
    queries = [f"{a}{op}{b}" for a in left for op in "+-" for b in right]
    (work / "left.txt").write_text("\n".join(left) + "\n", encoding="utf-8")
    (work / "right.txt").write_text("\n".join(right) + "\n", encoding="utf-8")
    print(f"left ({len(left)}): {' '.join(left)}")
    print(f"right ({len(right)}): {' '.join(right)}")
    print(f"{len(queries)} queries (+ and -), machine: {os.cpu_count()} cores\n")
    base = ["compose", "--batch", str(work / "left.txt"), str(work / "right.txt"),
            "--ops", "+-", "--lang", "ru"]

    single, cold = single_query_cpu(index, queries, args.sample, args.seed)
    print(f"single in-process compose(): {single:.4f} CPU s a query (mean of {args.sample} "
          f"random queries of the batch, index loaded, encoded words warm; the first call "
          f"of a process, cold: {cold:.3f} s)\n")

    runs: dict[str, list[tuple[float, float]]] = {}
    shares: dict[str, list[float]] = {}
    outputs: dict[str, Path] = {}
    scheduler = Scheduler(2)
    try:
        for r in range(args.rounds):
            for name, extra, pids in [
                    ("pool --jobs 2", ["--jobs", "2"], ()),
                    ("--cluster local:2", ["--cluster", "local:2"], ()),
                    ("scheduler + 2 workers", ["--scheduler", scheduler.address],
                     scheduler.pids),
                    ("in-process --jobs 1", ["--jobs", "1"], ())]:
                if name.startswith("in-process") and r:
                    continue  # one round: it takes twice as long and is only for reference
                out = work / f"{name.split()[0].strip('-')}-{r}.txt"
                wall, cpu, err = run_cli([*base, *extra, "--output", str(out)], pids)
                m = re.search(r"(\d+) tasks, ([\d.]+) CPU s in tasks", err)
                tasks, in_tasks = (int(m.group(1)), float(m.group(2))) if m else (0, cpu)
                runs.setdefault(name, []).append((wall, cpu))
                shares.setdefault(name, []).append(in_tasks / cpu)
                outputs.setdefault(name, out)
                print(f"round {r + 1}: {name:24s} wall {wall:6.1f} s  CPU {cpu:6.1f} s  "
                      f"({tasks} tasks, {in_tasks:.1f} CPU s in them)", flush=True)
    finally:
        scheduler.close()

    reference = outputs["pool --jobs 2"]
    same = all(p.read_bytes() == reference.read_bytes() for p in outputs.values())
    print(f"\noutput files byte for byte identical across the ways of running: {same}")
    n = len(queries)
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for k, v in runs.items()}
    pool_wall, pool_cpu = med["pool --jobs 2"]
    print(f"\n{'':24s} {'wall s':>8s} {'CPU s':>8s} {'q/CPU s':>8s} {'CPU/query':>10s} "
          f"{'vs single':>9s} {'CPU over pool':>13s} {'wall over pool':>14s}")
    for name, (wall, cpu) in med.items():
        print(f"{name:24s} {wall:8.1f} {cpu:8.1f} {n / cpu:8.1f} {cpu / n:10.4f} "
              f"{single / (cpu / n):8.2f}x {100 * (cpu / pool_cpu - 1):12.1f}% "
              f"{100 * (wall / pool_wall - 1):13.1f}%")
    print(f"(medians of {args.rounds} round(s); 'vs single': a single in-process query's CPU "
          f"over the batch's CPU per query, target >= 2x; Dask targets: <= 10 % over the pool)")
    print("CPU outside the tasks (start-up, scheduling, Dask's own threads; the pool loads "
          "the index outside them, the others in their first task), share of all CPU: "
          + ", ".join(
              f"{k} {100 * (1 - statistics.median(v)):.1f} %" for k, v in shares.items()))

    if not args.no_resume:
        print("\nresume test (pool --jobs 2):")
        for sig in (signal.SIGTERM, signal.SIGKILL):
            print(resume_test(base, reference, work, sig, 0.5, pool_wall), flush=True)


if __name__ == "__main__":
    sys.exit(main())
