"""Count Cryptator's collection with the exact engine (cryptarithm.engine.solve_system).

    python scripts/bench_cryptarithm.py [--sample K] [--repo DIR] [--limit SECONDS]

Reads every ``*.db.txt`` of ``src/main/cryptarithms`` in Cryptator's repository (a bare git
mirror or a checkout; ``--repo``), every K-th puzzle with ``--sample K``, counts each
puzzle's solutions (each must have exactly one), and prints per kind (addition,
multiplication, long multiplication, crossword, doubly-true) the puzzles, median, mean, p99
and largest time, then Cryptator's published figures beside ours.  Every puzzle is base 10
(the numbers in the file names count the addends).  Exits 1 when a count is not 1.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from cryptocomp.cryptarithm.engine import solve_system

MIRROR = Path("/work/.mirror/arnaud-m+cryptator/repo")
FOLDER = "src/main/cryptarithms"
ANCHORS = [  # ICTAI 2025, Table II (35,800 additions; 35,104 in Latin letters for Crypt)
    ("Cryptator Scalar (CP), additions", "0.12", "0.36"),
    ("Cryptator BigNum (CP), additions", "0.13", "1.56"),
    ("Crypt (C), Latin additions", "0.01", "0.03"),
]
LANGS = ("de-", "el-", "en-", "es-", "fr-", "hi-", "id-", "it-", "pt-", "ro-", "ru-", "tr-")


def collection(repo: Path) -> dict[str, list[str]]:
    """File name -> its puzzles, from a bare mirror (git) or a checkout."""
    out: dict[str, list[str]] = {}
    if (repo / FOLDER).is_dir():
        for p in sorted((repo / FOLDER).rglob("*.db.txt")):
            out[str(p.relative_to(repo / FOLDER))] = p.read_text(encoding="utf-8").splitlines()
        return out
    names = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", "HEAD",
                            FOLDER], capture_output=True, text=True, check=True).stdout.split()
    for name in names:
        if name.endswith(".db.txt"):
            text = subprocess.run(["git", "-C", str(repo), "show", f"HEAD:{name}"],
                                  capture_output=True, check=True).stdout.decode("utf-8")
            out[name[len(FOLDER) + 1:]] = text.splitlines()
    return out


def kind_of(name: str, text: str) -> str:
    """The puzzle's kind, from its file and its operators."""
    if name.startswith("crosswords/"):
        return "crossword"
    if name.startswith("long-multiplications/"):
        return "long multiplication"
    if name.startswith("multiplications/"):
        return "multiplication"
    if Path(name).name.startswith(LANGS):
        return "doubly-true"
    return "addition"


def parser():
    """parse_system from cryptocomp (the h27-lang work), else the fallback reader below."""
    try:
        from cryptocomp.cryptarithm.system import parse_system  # type: ignore[attr-defined]
        return parse_system
    except ImportError:
        try:
            from cryptocomp.cryptarithm.language import parse_system  # type: ignore
            return parse_system
        except ImportError:
            from cryptarithm_reader import read_system
            return read_system


def main(argv: list[str] | None = None) -> int:
    """Count the collection (or a sample) and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=1, help="every K-th puzzle (default all)")
    ap.add_argument("--repo", type=Path, default=MIRROR)
    ap.add_argument("--limit", type=float, default=600.0, help="seconds per puzzle at most")
    ap.add_argument("--slowest", type=int, default=5, help="list the N slowest puzzles")
    args = ap.parse_args(argv)
    parse = parser()
    times: dict[str, list[float]] = defaultdict(list)
    wrong: list[str] = []
    slow: list[tuple[float, str]] = []
    k = 0
    started = time.perf_counter()
    for name, lines in collection(args.repo).items():
        for line in lines:
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            k += 1
            if (k - 1) % args.sample:
                continue
            t = time.perf_counter()
            system = parse(text)
            got = solve_system(system, cap=2, deadline=time.monotonic() + args.limit)
            took = time.perf_counter() - t
            times[kind_of(name, text)].append(took)
            slow.append((took, f"{name}: {text[:80]}"))
            if got.count != 1 or not got.complete:
                wrong.append(f"{name}: {text[:80]} -> {got.count} (complete={got.complete})")
    wall = time.perf_counter() - started
    report(times, wall, args.sample)
    for took, what in sorted(slow, reverse=True)[:args.slowest]:
        print(f"  slow: {took * 1000:9.1f} ms  {what}")
    for w in wrong:
        print("  WRONG:", w)
    print(f"every count is 1: {'yes' if not wrong else f'no ({len(wrong)} not)'}")
    return 1 if wrong else 0


def report(times: dict[str, list[float]], wall: float, sample: int) -> None:
    """The per-kind table and the anchors."""
    every = [t for ts in times.values() for t in ts]
    print(f"puzzles: {len(every)} (every {sample}-th of the collection), wall {wall:.1f} s, "
          f"{len(every) / wall:.0f} puzzles/s (parse + count)")
    print(f"{'kind':22s} {'n':>6s} {'median':>9s} {'mean':>9s} {'p99':>9s} {'max':>9s}  (ms)")
    for kind, ts in sorted(times.items()) + [("all", every)]:
        ts = sorted(ts)
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
        print(f"{kind:22s} {len(ts):6d} {statistics.median(ts) * 1000:9.2f} "
              f"{statistics.fmean(ts) * 1000:9.2f} {p99 * 1000:9.2f} {ts[-1] * 1000:9.2f}")
    print("Cryptator's figures (ICTAI 2025, one solution then the proof of uniqueness; s):")
    for what, median, mean in ANCHORS:
        print(f"  {what:36s} median {median:>5s}  mean {mean:>5s}")


if __name__ == "__main__":
    sys.exit(main())
