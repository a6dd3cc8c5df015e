"""Time a generation split over workers against the same generation in one process.

    python scripts/bench_generation_batch.py [--runs N] [--jobs N] [--cluster] [--only NAME ...]

For each case (Cryptagen's Greek letters and 143 colour names, 100 words of ENABLE up to 4
words a puzzle, doubly-true English [0, 100], 3×3 crossword systems of 13 words) runs the
command as a user would (``cryptocomp compose --from ...``, start-up included), once in one
process and once with ``--jobs N`` (and, with ``--cluster``, on a Dask LocalCluster of N
workers), checks that every run prints the same bytes, and prints the median wall seconds
of ``--runs`` runs of each, the speed-up, the branches and the load average (the machine is
shared: a ratio is only as good as the load lets it be).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchkit import ROOT

DATA = ROOT / "tests" / "data" / "cryptagen"
ENABLE = ROOT / "cryptocomp" / "data" / "enable1.txt"
CROSS_WORDS = ["cc", "a", "cl", "on", "d", "go", "ni", "e", "ne", "ab", "b", "x", "ox"]


def _enable_words(count: int) -> list[str]:
    """``count`` ENABLE words of 3 to 6 letters, spread evenly over the list (the same
    words on every machine)."""
    words = [w for w in ENABLE.read_text(encoding="utf-8").split() if 3 <= len(w) <= 6]
    step = len(words) // count
    return words[::step][:count]


def cases(tmp: Path) -> dict[str, list[str]]:
    """Each case's compose arguments."""
    enable = tmp / "enable100.txt"
    enable.write_text("\n".join(_enable_words(100)) + "\n", encoding="utf-8")
    cross = tmp / "cross13.txt"
    cross.write_text("\n".join(CROSS_WORDS) + "\n", encoding="utf-8")
    return {
        "greek": ["--from", str(DATA / "alpha.txt"), "--max", "10"],
        "colours": ["--from", str(DATA / "colors.txt"), "--max", "7"],
        "enable100": ["--from", str(enable), "--max", "4"],
        "doubly-true-en": ["--doubly-true", "0-100", "--lang", "en"],
        "cross13": ["--from", str(cross), "--cross", "3"],
    }


def _run(args: list[str]) -> tuple[float, bytes]:
    """Wall seconds and stdout of one ``cryptocomp compose`` run."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cryptocomp", "compose", *args],
                          capture_output=True, check=True)
    return time.perf_counter() - start, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--cluster", action="store_true",
                        help="also run on a Dask LocalCluster of --jobs workers")
    parser.add_argument("--only", nargs="*", default=None)
    opts = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores; "
          f"median of {opts.runs} runs, wall seconds, start-up included")
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in cases(Path(tmp)).items():
            if opts.only and name not in opts.only:
                continue
            ways = {"one process": [], f"--jobs {opts.jobs}": ["--jobs", str(opts.jobs)]}
            if opts.cluster:
                ways[f"--cluster local:{opts.jobs}"] = ["--cluster", f"local:{opts.jobs}"]
            times: dict[str, list[float]] = {w: [] for w in ways}
            outputs = set()
            for _ in range(opts.runs):
                for way, extra in ways.items():
                    seconds, out = _run(args + extra)
                    times[way].append(seconds)
                    outputs.add(out)
            lines = next(iter(outputs)).count(b"\n")
            base = statistics.median(times["one process"])
            row = [f"{name}: {lines} puzzles, "
                   f"{'the same output' if len(outputs) == 1 else 'OUTPUTS DIFFER'}"]
            for way, seconds in times.items():
                med = statistics.median(seconds)
                row.append(f"{way} {med:.2f} s ({base / med:.2f}x)")
            print("; ".join(row), flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
