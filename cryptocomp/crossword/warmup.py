"""Compiling the fill engine on first use, on two cores: this process and a helper.

numba compiles one function at a time under a lock, and most of the time goes to its own
Python, so a second thread gains nothing; a second process does.  Each compiled function
is saved on its own (numba writes each cache file atomically), and a process compiling a
caller loads any callee the other one has already saved.  So when no machine code is
cached, :func:`start_helper` runs ``python -m cryptocomp.crossword.warmup`` (this
module's :func:`main`) into the same cache directory, and the two split the engine along
its calls, each stage told to the other over the helper's pipes:

* the helper compiles the propagation's revision of a slot, then ``undo``, while this
  process compiles its other half, settling a slot, and the search's choices; this process
  then compiles the propagation on both halves (:func:`compile_core`) and tells the helper;
* the helper then compiles the nogoods' watch on that propagation (``watch``), while this
  process compiles the moves that call only the propagation; the search (``run``) comes
  last here, loading all of them (:func:`compile_searches`);
* the helper goes on with ``root``, the rows search of word rectangles
  (:func:`compile_side` loads both here) and last the restarts' nogoods
  (:func:`.nogood.learn`, :func:`.nogood.adopt`), which it compiles while the first fill
  runs: a search's first restart waits for them (:func:`await_nogoods`).

Each wait is bounded (:data:`HELPER_WAIT`): a helper that is late, starved of a core or
gone only leaves this process to compile that part itself.  The signatures come from a
2x2 square (:func:`tiny_problem`); nothing runs.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import numba
import numpy as np

from ..index.index import Index
from .lexicon import Lexicon
from .nogood import adopt, learn, watch
from .problem import Problem
from .propagation import assign, drop_letter, halves, keep_letter, propagate, undo
from .rectangle import RowSearch
from .search import choices, root, run
from .square import square_grid
from .tables import State

__all__ = ["tiny_problem", "compile_core", "compile_searches", "compile_side",
           "compile_nogoods", "start_helper", "Helper", "keep_finishing", "await_nogoods",
           "STAGES"]

log = logging.getLogger(__name__)

# the longest a compile here waits for a stage of the helper, seconds: past it the helper
# is late (starved of a core), and compiling that part here costs less than waiting on
HELPER_WAIT = 5.0
# what the helper reports saved, in its order; this process tells it PROPAGATION
STAGES = ("revise", "watch", "root", "rows", "nogoods")
PROPAGATION = "propagation"


def tiny_problem() -> Problem:
    """A 2x2 square over four words: the engine's argument types, cheaply."""
    words = {"ab": 4, "ba": 3, "aa": 2, "bb": 1}
    return Problem(square_grid(2), Lexicon(Index.from_counts(words, name="engine")))


def _sig(*args: object) -> tuple:
    return tuple(numba.typeof(a) for a in args)


class Helper:
    """The compile helper process and the stages it has reported saved (a stage also counts
    as reported once the helper has ended: there is nothing more to wait for)."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.owner = os.getpid()  # a forked child inherits the object, not the listener
        self._reported = {stage: threading.Event() for stage in STAGES}
        threading.Thread(target=self._listen, name="compile-helper", daemon=True).start()

    def _listen(self) -> None:
        """Note each stage the helper reports, until its output ends."""
        try:
            for line in self.proc.stdout or ():
                event = self._reported.get(line.strip())
                if event is not None:
                    event.set()
        except (OSError, ValueError):  # the pipe closed under us by stop()
            pass
        finally:
            for event in self._reported.values():
                event.set()
            # reap it: a long-lived process (the prompt, a Dask worker) keeps no zombie
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(60)

    def tell(self, stage: str) -> None:
        """Tell the helper that this process has saved ``stage``."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.write(stage + "\n")
                self.proc.stdin.flush()
        except (OSError, ValueError):  # the helper has gone: it needs nothing more
            pass

    def wait(self, stage: str, seconds: float | None = None) -> bool:
        """Wait up to ``seconds`` (default :data:`HELPER_WAIT`) for ``stage``: True when
        reported (or the helper ended)."""
        seconds = HELPER_WAIT if seconds is None else seconds
        if self._reported[stage].wait(max(0.0, seconds)):
            return True
        log.debug("the compile helper has not saved %s within %.1f s", stage, seconds)
        return False

    def stop(self) -> None:
        """End the helper if it still runs (its cache files are whole or absent)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):  # a broken pipe has nothing left to flush
                    pipe.close()


def start_helper(cache: Path) -> Helper | None:
    """The helper process compiling its stages into ``cache`` (a family directory), or
    None when it cannot start (then this process compiles it all)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache.parent))
    try:
        proc = subprocess.Popen([sys.executable, "-m", __name__], env=env, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
    except OSError as exc:
        log.debug("no helper to compile beside: %s", exc)
        return None
    return Helper(proc)


def _compile(fn: Any, state: State, ints: int) -> None:
    """Load or compile ``fn`` for ``(T, D)`` and ``ints`` int arguments."""
    fn.compile(_sig(state.T, state.D, *([0] * ints)))


def compile_core(state: State, helper: Helper) -> None:
    """Compile the propagation beside the helper: its settling half and the search's
    choices here while the helper compiles the revising half (:func:`.halves`), then the
    propagation on both; then tell the helper, which builds on it, and compile the moves
    that call only the propagation while the helper compiles the nogoods' watch."""
    (revise, one), (settle, other) = halves()
    _compile(settle, state, other)
    _compile_choices(state)
    helper.wait("revise")
    _compile(revise, state, one)
    _compile(propagate, state, 0)
    helper.tell(PROPAGATION)
    for fn, ints in ((assign, 2), (keep_letter, 3), (drop_letter, 3)):
        _compile(fn, state, ints)
    helper.wait("watch")


def compile_searches(prob: Problem, helper: Helper | None = None) -> None:
    """Load or compile the propagating searches' entry points (root, run, undo); with a
    helper, the parts they call first, in stages shared with it (:func:`compile_core`).
    Without one the entry points alone: loading cached code then reads only their files,
    which hold all they call."""
    state = State(prob.tables)
    if helper is not None:
        compile_core(state, helper)
    _compile(run, state, 1)
    if helper is not None:
        helper.wait("root")
    _compile(root, state, 0)
    _compile(undo, state, 1)


def compile_side(prob: Problem, helper: Helper | None = None) -> None:
    """Load or compile the search's choices and the rows search (with a helper: once it
    has saved them; the choices are loaded already)."""
    if helper is not None:
        helper.wait("rows")
    _compile_choices(State(prob.tables))
    RowSearch(prob).compile()


def _compile_choices(state: State) -> None:
    for fn, ints in choices():
        _compile(fn, state, ints)


def compile_nogoods(prob: Problem) -> None:
    """Load or compile what a restart runs (:func:`.nogood.learn` and :func:`.nogood.adopt`,
    with the argument types a restart lane passes)."""
    state = State(prob.tables)
    state.record_nogoods()
    _compile(learn, state, 1)
    s, k = state.ng_s[:0].copy(), state.ng_k[:0].copy()
    start = state.ng_start[:1] - state.ng_start[0]
    adopt.compile(_sig(state.T, state.D, s, k, start, 0, 0, 0))


# the helpers still compiling the nogoods after the engine has loaded
_finishing: list[Helper] = []
_finishing_lock = threading.Lock()


def keep_finishing(helper: Helper | None) -> None:
    """Leave ``helper`` compiling the nogoods while the fills run (stopped at exit)."""
    if helper is None:
        return
    with _finishing_lock:
        _finishing.append(helper)


def await_nogoods(deadline: float = np.inf) -> bool:
    """Before a search's first restart: wait for the helper's nogoods, at most
    :data:`HELPER_WAIT` and not past ``deadline`` (``time.monotonic()``).  True when they
    can be loaded (or must be compiled here: no helper, or it is late and is stopped);
    False when the deadline came first, the helper left at its work for a later fill.  A
    forked child forgets its parent's helper: it hears nothing from it."""
    if not _finishing:
        return True
    with _finishing_lock:
        helpers = [h for h in _finishing if h.owner == os.getpid()]
        _finishing[:] = helpers
    for helper in helpers:
        left = deadline - time.monotonic()
        if not helper.wait("nogoods", min(HELPER_WAIT, left)) and left <= HELPER_WAIT:
            return False
    with _finishing_lock:
        for helper in helpers:
            if helper in _finishing:
                _finishing.remove(helper)
                helper.stop()
    return True


@atexit.register
def _stop_finishing() -> None:
    """No helper outlives the process that started it."""
    with _finishing_lock:
        while _finishing:
            helper = _finishing.pop()
            if helper.owner == os.getpid():
                helper.stop()


def _report(stage: str, out: IO[str]) -> None:
    """Tell the main process (reading ``out``) that ``stage`` is saved."""
    out.write(stage + "\n")
    out.flush()


def main() -> None:
    """The helper's work: its stages in order, reported on stdout; it stops early when
    this process's propagation is not announced on stdin (the other process is gone)."""
    prob = tiny_problem()
    state = State(prob.tables)
    (revise, one), _ = halves()
    _compile(revise, state, one)
    _report("revise", sys.stdout)
    _compile(undo, state, 1)
    if sys.stdin is None or sys.stdin.readline().strip() != PROPAGATION:
        return
    _compile(watch, state, 1)
    _report("watch", sys.stdout)
    _compile(root, state, 0)
    _report("root", sys.stdout)
    RowSearch(prob).compile()
    _report("rows", sys.stdout)
    compile_nogoods(prob)
    _report("nogoods", sys.stdout)


if __name__ == "__main__":
    main()
