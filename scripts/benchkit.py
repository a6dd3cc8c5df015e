"""What the benchmark scripts share: where the checkout's data lives, and how a figure is
measured (CPU seconds, peak memory, frequency ranks, the benchmark grids).

The scripts import cryptocomp as installed (README's setup installs the checkout in
editable mode) and this module by name: Python puts a script's own folder first on
``sys.path``, so ``python scripts/bench_x.py`` finds it from any working directory.
"""

from __future__ import annotations

import json
import resource
from pathlib import Path
from typing import Any

__all__ = ["ROOT", "LISTS", "GRID", "cpu_seconds", "peak_mb", "ranks", "grid_of", "layouts"]

ROOT = Path(__file__).resolve().parent.parent  # the checkout: tests/data, freqdicts/, ../shared
LISTS = ROOT / "freqdicts" / "bench"  # the word lists scripts/wordlists.py writes
GRID = ROOT / "cryptocomp" / "data" / "grids" / "american15.txt"

_LAYOUTS: list[list[str]] = []


def cpu_seconds() -> float:
    """CPU seconds of this process and its waited-for children (a SAT child, Qxw)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def peak_mb() -> int:
    """The peak resident memory of this process or its waited-for children, in MB.

    On Linux ru_maxrss survives exec, so a child started by a script reports the script's
    own high-water mark too; a process's own mark is read from /proc where there is one."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        status = Path("/proc/self/status").read_text(encoding="ascii")
        own = next(int(line.split()[1]) for line in status.splitlines()
                   if line.startswith("VmHWM:"))
    except (OSError, StopIteration, ValueError):
        pass  # no /proc: ru_maxrss, an upper bound
    return round(max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024)


def decided_seconds(run: dict, key: str = "cpu") -> float:
    """A fill run's seconds (``run[key]``), infinite when it decided nothing (neither
    filled nor proved that no fill exists): slower than any run that did."""
    return run[key] if run["status"] in ("filled", "no_fill") else float("inf")


def ranks(lex: Any, words: list[str]) -> tuple[float, int]:
    """The mean and largest rank of ``words`` in the list, words of equal count sharing the
    mean of their ranks (the lists order such ties alphabetically, which says nothing of how
    common a word is: most WordNet lemmas share the count of one sense)."""
    import numpy as np

    neg = -np.asarray(lex.index.counts, dtype=np.int64)  # ascending: ids are frequency order
    found = []
    for w in words:
        c = neg[lex.index.id_of(w)]
        first, last = np.searchsorted(neg, c, "left"), np.searchsorted(neg, c, "right")
        found.append((int(first) + int(last) + 1) / 2)
    return round(sum(found) / len(found), 1), round(max(found))


def grid_of(spec: str) -> Any:
    """The grid of a figure: "american15", "sqN" or "seed000-NN"."""
    from cryptocomp.crossword import read_grid
    from cryptocomp.crossword.grid import parse_text
    from cryptocomp.crossword.square import square_grid

    if spec == "american15":
        return read_grid(GRID)
    if spec.startswith("sq"):
        return square_grid(int(spec[2:]))
    k = int(spec.split("-")[1])
    return parse_text("\n".join(layouts()[k - 1]))


def _grids(data: object) -> list[list[str]]:
    """The cached layouts: 15x15 grids of '.' and '#' rows; ValueError for anything else."""
    ok = isinstance(data, list) and data and all(
        isinstance(g, list) and len(g) == 15 and all(
            isinstance(r, str) and len(r) == 15 and set(r) <= {".", "#"} for r in g)
        for g in data)
    if not ok:
        raise ValueError("not a list of 15x15 layouts")
    return data  # type: ignore[return-value]


def layouts() -> list[list[str]]:
    """Seed 000's layouts, reconstructed once and then read from a cache beside the word
    lists, which each figure's child process would otherwise redo (seconds each)."""
    if not _LAYOUTS:
        import seed000_layouts

        cache = LISTS / "seed000-layouts.json"
        script = Path(seed000_layouts.__file__)
        try:
            if cache.stat().st_mtime >= script.stat().st_mtime:
                _LAYOUTS.extend(_grids(json.loads(cache.read_text(encoding="utf-8"))))
        except (OSError, ValueError):  # none yet, or damaged: made again below
            _LAYOUTS.clear()
        if not _LAYOUTS:
            _LAYOUTS.extend(seed000_layouts.layouts())
            from cryptocomp.files import write_atomic

            # atomic: parallel children never read half a file
            write_atomic(cache, json.dumps(_LAYOUTS).encode("utf-8"), create_dirs=True)
    return _LAYOUTS
