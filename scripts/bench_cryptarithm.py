"""Count Cryptator's collection with cryptocomp's exact engine, in-process and in pipe mode.

    python scripts/bench_cryptarithm.py [--sample N] [--repo DIR] [--no-pipe] [--no-bases]

Reads every ``*.db.txt`` of ``src/main/cryptarithms`` in Cryptator's repository (a bare git
mirror or a checkout; ``--repo``), or ``N`` puzzles spread evenly over it with ``--sample
N``; parses each with ``parse_system`` and counts its solutions with ``solve_system``, and
prints per kind (addition, multiplication, long multiplication, crossword, doubly-true) the
puzzles, median, mean, p99 and largest time (wall and CPU), every puzzle whose count is not
1 (with its solutions in digits), puzzles/s, the same puzzles through the prompt's pipe mode
(``python -m cryptocomp`` reading them on stdin: parsing, solving and printing), the base-15
and base-16 puzzles of ``src/main/benchmarks/other-bases``, Cryptator's published figures
beside ours with the ratios, and the load average.  The numbers in the collection's file
names count addends: every puzzle there is base 10.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from cryptocomp.cryptarithm.engine import solve_system
from cryptocomp.cryptarithm.grammar import parse_system
from cryptocomp.errors import CryptocompError

MIRROR = Path("/work/.mirror/arnaud-m+cryptator/repo")
FOLDER = "src/main/cryptarithms"
BASES = "src/main/benchmarks/other-bases"
# ICTAI 2025: (what, median s, mean s) on the 35,800 additions (35,104 Latin ones for Crypt)
ANCHORS = [("Cryptator Scalar (CP)", 0.12, 0.36), ("Crypt (C, Latin letters)", 0.01, 0.03)]
BIGNUM = [2186.0, 11717.0, 2969.0]   # the paper's BigNum model on the base-15/16 puzzles (s)
LANGS = ("de-", "el-", "en-", "es-", "fr-", "hi-", "id-", "it-", "pt-", "ro-", "ru-", "tr-")


@dataclass(frozen=True)
class Timing:
    """One puzzle's outcome."""

    kind: str
    wall: float
    cpu: float
    count: int


def read_tree(repo: Path, folder: str) -> dict[str, list[str]]:
    """File name (under ``folder``) -> its puzzles, from a bare mirror (git) or a checkout."""
    out: dict[str, list[str]] = {}
    if (repo / folder).is_dir():
        for p in sorted((repo / folder).rglob("*.db.txt")):
            out[str(p.relative_to(repo / folder))] = puzzles(p.read_text(encoding="utf-8"))
        return out
    git = ["git", f"--git-dir={repo}"]
    names = subprocess.run([*git, "ls-tree", "-r", "--name-only", "HEAD", folder],
                           capture_output=True, text=True, check=True).stdout.split()
    for name in names:
        if name.endswith(".db.txt"):
            text = subprocess.run([*git, "show", f"HEAD:{name}"], capture_output=True,
                                  check=True).stdout.decode("utf-8")
            out[name[len(folder) + 1:]] = puzzles(text)
    return out


def puzzles(text: str) -> list[str]:
    """The puzzles of a ``.db.txt`` file: its lines but blank ones and comments."""
    return [s.strip() for s in text.splitlines() if s.strip() and not s.startswith("#")]


def kind_of(name: str) -> str:
    """The puzzle's kind, from its file."""
    if name.startswith("crosswords/"):
        return "crossword"
    if name.startswith("long-multiplications/"):
        return "long multiplication"
    if name.startswith("multiplications/"):
        return "multiplication"
    if Path(name).name.startswith(LANGS):
        return "doubly-true"
    return "addition"


def in_process(chosen: list[tuple[str, str]]) -> tuple[list[Timing], list[str], float]:
    """Parse and count every puzzle: the timings, the notes on counts other than 1, wall."""
    solve_system(parse_system("send+more=money"))   # the compiled search loads first
    timings: list[Timing] = []
    notes: list[str] = []
    started = time.perf_counter()
    for name, text in chosen:
        w, c = time.perf_counter(), time.process_time()
        try:
            system = parse_system(text)
        except CryptocompError as e:
            notes.append(f"REFUSED {name}: {text[:70]!r}: {e}")
            continue
        got = solve_system(system, cap=3)
        timings.append(Timing(kind_of(name), time.perf_counter() - w, time.process_time() - c,
                              got.count))
        if got.count != 1 or not got.complete:
            shown = " | ".join(system.render(f) for f in got.solutions)
            notes.append(f"COUNT {got.count} (complete={got.complete}) {name}: {text[:70]}"
                         f" -> {shown}")
    return timings, notes, time.perf_counter() - started


def pipe_mode(chosen: list[tuple[str, str]]) -> tuple[float, float, int]:
    """Seconds for the puzzles through ``python -m cryptocomp`` on stdin, seconds for one
    puzzle alone (the start-up), and the solution rows printed."""
    env = dict(os.environ, CRYPTOCOMP_HOME=os.environ.get("CRYPTOCOMP_HOME",
                                                          tempfile.gettempdir() + "/cchome-bench"))

    def run(lines: list[str]) -> tuple[float, int]:
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "cryptocomp"], input="\n".join(lines) + "\n",
                             capture_output=True, text=True, env=env).stdout
        return time.perf_counter() - t, sum(1 for row in out.splitlines() if "\t" in row)

    run(["send+more=money"])      # builds the default index once, if it is missing
    alone = statistics.median(run(["send+more=money"])[0] for _ in range(3))
    took, rows = run([text for _name, text in chosen])
    return took, alone, rows


def other_bases(repo: Path) -> list[tuple[int, int, float, float]]:
    """(base, count, wall, cpu) for each base-15/16 puzzle."""
    out = []
    for name, lines in sorted(read_tree(repo, BASES).items()):
        base = int(name.rsplit("-", 1)[1].split(".")[0])
        for text in lines:
            w, c = time.perf_counter(), time.process_time()
            got = solve_system(parse_system(text, base=base), cap=10)
            out.append((base, got.count, time.perf_counter() - w, time.process_time() - c))
    return out


def table(timings: list[Timing]) -> None:
    """Per kind: n, median, mean, p99, max (ms, wall), and mean CPU."""
    print(f"{'kind':20s} {'n':>6s} {'median':>8s} {'mean':>8s} {'p99':>8s} {'max':>9s}"
          f" {'cpu mean':>9s}  (ms)")
    by: dict[str, list[Timing]] = defaultdict(list)
    for t in timings:
        by[t.kind].append(t)
    for kind, ts in [*sorted(by.items()), ("all", timings)]:
        w = sorted(t.wall for t in ts)
        p99 = w[min(len(w) - 1, int(0.99 * len(w)))]
        print(f"{kind:20s} {len(w):6d} {statistics.median(w) * 1e3:8.2f} "
              f"{statistics.fmean(w) * 1e3:8.2f} {p99 * 1e3:8.2f} {w[-1] * 1e3:9.1f} "
              f"{statistics.fmean(t.cpu for t in ts) * 1e3:9.2f}")


def anchors(timings: list[Timing]) -> None:
    """Cryptator's figures on its additions beside ours (wall), with the ratios."""
    adds = [t.wall for t in timings if t.kind in ("addition", "doubly-true")]
    if not adds:
        return
    med, mean = statistics.median(adds), statistics.fmean(adds)
    print(f"additions (incl. doubly-true), ours: median {med:.5f} s, mean {mean:.5f} s")
    for what, m, a in ANCHORS:
        print(f"  {what:26s} median {m:.2f} s ({m / med:5.0f}x ours)  "
              f"mean {a:.2f} s ({a / mean:5.0f}x ours)")


def main(argv: list[str] | None = None) -> int:
    """Count the collection (or a sample), print the figures; 1 when a puzzle is refused."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--sample", type=int, default=0, help="N puzzles spread evenly (0: all)")
    ap.add_argument("--repo", type=Path, default=MIRROR)
    ap.add_argument("--no-pipe", action="store_true", help="skip the pipe-mode run")
    ap.add_argument("--no-bases", action="store_true", help="skip the base-15/16 puzzles")
    args = ap.parse_args(argv)
    print(f"load average at start: {os.getloadavg()}")
    every = [(name, text) for name, lines in read_tree(args.repo, FOLDER).items()
             for text in lines]
    chosen = every
    if 0 < args.sample < len(every):
        chosen = [every[i * len(every) // args.sample] for i in range(args.sample)]
    timings, notes, wall = in_process(chosen)
    ones = sum(t.count == 1 for t in timings)
    print(f"puzzles: {len(chosen)} of {len(every)}; counted {len(timings)}, exactly one "
          f"solution: {ones}; in-process {wall:.1f} s, {len(chosen) / wall:.0f} puzzles/s "
          f"(parse + count)")
    table(timings)
    for note in notes:
        print(" ", note)
    anchors(timings)
    if not args.no_pipe:
        took, alone, rows = pipe_mode(chosen)
        print(f"pipe mode: {len(chosen)} puzzles in {took:.1f} s ({len(chosen) / took:.0f}/s; "
              f"{len(chosen) / max(took - alone, 1e-9):.0f}/s without the {alone:.2f} s "
              f"start-up), {rows} solution rows")
    if not args.no_bases:
        for (base, count, w, c), paper in zip(other_bases(args.repo), BIGNUM):
            print(f"base {base}: {count} solutions in {w:.2f} s (cpu {c:.2f} s); Cryptator "
                  f"BigNum {paper:,.0f} s ({paper / w:,.0f}x)")
    print(f"load average at end: {os.getloadavg()}")
    return 1 if any(n.startswith("REFUSED") for n in notes) else 0


if __name__ == "__main__":
    sys.exit(main())
