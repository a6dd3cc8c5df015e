"""Compiling the fill engine on first use, on two cores: the searches here, the rest in a
helper process.

numba compiles one function at a time under a lock, and most of the time goes to its own
Python, so a second thread gains nothing; a second process does.  When no machine code
is cached, :func:`start_helper` runs ``python -m cryptocomp.crossword.warmup`` (this
module's :func:`main`), which compiles the parts of the engine that the propagating
searches' compile does not reach early (:func:`compile_side`: the search's choices and
the ``rows`` search of word rectangles) into the same cache directory, while this
process compiles the searches themselves (:func:`compile_searches`).  numba writes its
cache files atomically and a process compiles what it finds no file for, so the two
never wait for each other: the helper only takes work off the critical path, and this
process loads what the helper wrote.  The signatures come from a 2x2 square
(:func:`tiny_problem`); nothing runs.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import numba

from ..index.index import Index
from .lexicon import Lexicon
from .problem import Problem
from .propagation import undo
from .rectangle import RowSearch
from .search import choices, root, run
from .square import square_grid
from .tables import State

__all__ = ["tiny_problem", "compile_searches", "compile_side", "start_helper", "wait_for",
           "stop"]

log = logging.getLogger(__name__)

# how long the searches' compile waits for the helper at the end, seconds: the helper's
# part is the shorter one, so a helper still busy by then is starved of a core, and
# compiling what it has not written here costs less than waiting on
HELPER_WAIT = 5.0


def tiny_problem() -> Problem:
    """A 2x2 square over four words: the engine's argument types, cheaply."""
    words = {"ab": 4, "ba": 3, "aa": 2, "bb": 1}
    return Problem(square_grid(2), Lexicon(Index.from_counts(words, name="engine")))


def _sig(*args: object) -> tuple:
    return tuple(numba.typeof(a) for a in args)


def compile_searches(prob: Problem) -> None:
    """Load or compile the propagating searches' entry points (root, run, undo).  The
    restarts' nogoods (:func:`.nogood.learn`) compile at a search's first restart, reusing
    the propagation compiled here: most fills never restart, and the compile, about two
    seconds once per install, stays off their first use; in the helper it would compile the
    propagation a second time."""
    state = State(prob.tables)
    T, D = state.T, state.D
    for fn, sig in ((root, _sig(T, D)), (run, _sig(T, D, 1)), (undo, _sig(T, D, 0))):
        fn.compile(sig)


def compile_side(prob: Problem) -> None:
    """Load or compile the search's choices and the rows search."""
    state = State(prob.tables)
    for fn, extra in choices():
        fn.compile(_sig(state.T, state.D, *([0] * extra)))
    RowSearch(prob).compile()


def start_helper(cache: Path) -> subprocess.Popen | None:
    """The helper process compiling :func:`compile_side` into ``cache`` (a family
    directory), or None when it cannot start (then this process compiles it all)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache.parent))
    try:
        return subprocess.Popen([sys.executable, "-m", __name__], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    except OSError as exc:
        log.debug("no helper to compile beside: %s", exc)
        return None


def wait_for(helper: subprocess.Popen | None) -> None:
    """Wait a while for the helper to end (what it did not write is compiled here)."""
    if helper is None:
        return
    try:
        helper.wait(HELPER_WAIT)
    except subprocess.TimeoutExpired:
        log.debug("the compile helper took over %s s; compiling its part here", HELPER_WAIT)


def stop(helper: subprocess.Popen | None) -> None:
    """End the helper if it still runs (its cache files are whole or absent)."""
    if helper is not None and helper.poll() is None:
        helper.kill()
        helper.wait()


def main() -> None:
    """The helper's work."""
    compile_side(tiny_problem())


if __name__ == "__main__":
    main()
