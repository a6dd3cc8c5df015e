"""Arrow-word batches: attempts in this process or on a local process pool, and the API.

Attempt ``k`` of puzzle ``i`` has its own seed (:func:`.arrowgenerator.attempt_seed`);
puzzle ``i`` takes its successful attempt with the lowest ``k``, decided only when
every lower attempt has failed, so the puzzles do not depend on which worker finished
first.  Puzzles are handed to ``accept`` in batch order.  Workers ignore Ctrl-C: the
parent stops them (and keeps what is finished) when interrupted or out of time.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import signal
import time
from dataclasses import dataclass, replace
from typing import Callable

from ..index.index import Index
from ..index.store import load_index
from .arrowgenerator import (ArrowError, ArrowParams, Attempt, attempt, attempt_seed,
                             build_workshop, check_params, finish, register_workshop, workshop)
from .arrowpuzzle import ArrowPuzzle, ArrowResult
from .clues import ClueBook
from .phrases import PhraseBook

__all__ = ["arrowword", "generate", "run_attempts", "PoolStats"]

log = logging.getLogger(__name__)

Accept = Callable[[int, Attempt, int, float], None]  # (puzzle, attempt, attempts, cpu)


@dataclass
class PoolStats:
    """Totals of a run: attempts made, their CPU seconds, and why it stopped early."""

    attempts: int = 0
    cpu: float = 0.0
    stop_reason: str = ""


@dataclass
class _Puzzle:
    next_k: int = 0
    inflight: int = 0
    results: dict | None = None
    done: bool = False

    def decided(self, max_attempts: int) -> Attempt | None | bool:
        """The winning attempt, False when every attempt failed, None when undecided."""
        res = self.results or {}
        k = 0
        while k in res:
            if res[k].ok:
                return res[k]
            k += 1
        return False if k >= max_attempts else None


def _serial(params: ArrowParams, count: int, seed: int, deadline: float | None,
            max_attempts: int, accept: Accept, stats: PoolStats) -> None:
    for i in range(count):
        cpu = 0.0
        for k in range(max_attempts):
            if deadline is not None and time.time() >= deadline:
                stats.stop_reason = "time budget ran out"
                return
            att = attempt(params, attempt_seed(seed, i, k), deadline)
            stats.attempts += 1
            stats.cpu += att.cpu
            cpu += att.cpu
            if att.ok:
                accept(i, att, k + 1, cpu)
                break
            log.debug("puzzle %d attempt %d: %s", i + 1, k + 1, att.message)
        else:
            log.warning("puzzle %d: no success in %d attempts", i + 1, max_attempts)


def _quiet() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _one(params: ArrowParams, i: int, k: int, s: int, deadline: float | None):
    return i, k, attempt(params, s, deadline)


def run_attempts(params: ArrowParams, *, count: int, seed: int, deadline: float | None,
                 workers: int | None, max_attempts: int, accept: Accept) -> PoolStats:
    """Run attempts until ``count`` puzzles are accepted (or out of attempts or time)."""
    stats = PoolStats()
    workers = workers or os.cpu_count() or 1
    methods = multiprocessing.get_all_start_methods()
    if workers <= 1 or (params.key and "fork" not in methods):
        _serial(params, count, seed, deadline, max_attempts, accept, stats)
        return stats
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    done_q: queue.Queue = queue.Queue()
    puzzles = [_Puzzle(results={}) for _ in range(count)]
    emitted = 0
    inflight = 0
    pool = ctx.Pool(workers, initializer=_quiet)
    try:
        while emitted < count:
            # keep every worker busy: the earliest puzzles with the fewest attempts running
            while inflight < workers and (deadline is None or time.time() < deadline):
                window = range(emitted, min(count, emitted + 2 * workers))
                cands = [i for i in window if not puzzles[i].done
                         and puzzles[i].next_k < max_attempts]
                if not cands:
                    break
                i = min(cands, key=lambda j: (puzzles[j].inflight, j))
                p = puzzles[i]
                k = p.next_k
                p.next_k += 1
                p.inflight += 1
                inflight += 1
                pool.apply_async(_one, (params, i, k, attempt_seed(seed, i, k), deadline),
                                 callback=done_q.put, error_callback=done_q.put)
            if inflight == 0:
                break
            try:
                got = done_q.get(timeout=0.05)
            except queue.Empty:
                if deadline is not None and time.time() > deadline + 1.0:
                    stats.stop_reason = "time budget ran out"
                    break
                continue
            if isinstance(got, BaseException):
                raise got
            i, k, att = got
            inflight -= 1
            p = puzzles[i]
            p.inflight -= 1
            stats.attempts += 1
            stats.cpu += att.cpu
            if p.done:
                continue  # a speculative attempt of a puzzle already decided
            p.results[k] = att
            if not att.ok:
                log.debug("puzzle %d attempt %d: %s", i + 1, k + 1, att.message)
            while emitted < count:
                q = puzzles[emitted]
                verdict = q.decided(max_attempts)
                if verdict is None:
                    break
                q.done = True
                if verdict is False:
                    log.warning("puzzle %d: no success in %d attempts", emitted + 1,
                                max_attempts)
                else:
                    # the winner's attempt number and the CPU of the attempts up to it
                    # (speculative later ones are counted in the run's totals only)
                    k = next(j for j, a in sorted(q.results.items()) if a is verdict)
                    accept(emitted, verdict, k + 1,
                           sum(a.cpu for j, a in q.results.items() if j <= k))
                emitted += 1
            if deadline is not None and time.time() > deadline and emitted < count:
                stats.stop_reason = "time budget ran out"
                # attempts in flight stop at the deadline themselves: take what they bring
                if inflight == 0:
                    break
        if emitted < count and not stats.stop_reason:
            stats.stop_reason = "attempts exhausted"
    finally:
        pool.terminate()
        pool.join()
    return stats


# -- batches and the API ----------------------------------------------------------------------

OnPuzzle = Callable[[int, ArrowPuzzle], None]


def generate(params: ArrowParams, *, count: int = 1, seed: int = 0,
             seconds: float | None = None, workers: int | None = None,
             max_attempts: int = 200, on_puzzle: OnPuzzle | None = None) -> ArrowResult:
    """``count`` puzzles; each takes the first successful of at most ``max_attempts``
    attempts; ``seconds`` bounds the whole run (wall clock)."""
    check_params(params)
    if count < 1:
        raise ArrowError("count must be at least 1")
    if seconds is not None and seconds <= 0:
        raise ArrowError("the time budget must be positive")
    wall = time.monotonic()
    deadline = None if seconds is None else time.time() + seconds
    shop = workshop(params)
    result = ArrowResult([], count)
    used: set[int] = set()

    def accept(i: int, att: Attempt, attempts: int, cpu: float) -> None:
        puzzle = finish(params, shop, att, seed=attempt_seed(seed, i, 10**6), attempts=attempts,
                        cpu=cpu, used=used)
        result.puzzles.append(puzzle)
        if on_puzzle is not None:
            on_puzzle(i, puzzle)

    stats = run_attempts(params, count=count, seed=seed, deadline=deadline, workers=workers,
                         max_attempts=max_attempts, accept=accept)
    result.attempts, result.cpu_seconds = stats.attempts, stats.cpu
    result.wall_seconds = time.monotonic() - wall
    if len(result.puzzles) < count:
        why = stats.stop_reason or "attempts exhausted"
        result.message = f"{len(result.puzzles)} of {count} puzzles finished ({why})"
    else:
        result.message = f"{count} puzzle{'s' if count > 1 else ''} finished"
    return result


def arrowword(size: str | tuple[int, int] = (12, 12), *, source: str = "en",
              index: Index | None = None, fold_yo: bool = False,
              clues: str | ClueBook = "auto", phrases: str | PhraseBook = "auto",
              count: int = 1, seed: int = 0, seconds: float | None = None, steps: int = 1000,
              repairs: int = 2, top: int | None = None, workers: int | None = 1,
              max_attempts: int = 200, on_puzzle: OnPuzzle | None = None) -> ArrowResult:
    """Arrow-word puzzles of ``size`` (``"12x12"`` or ``(width, height)``).

    Words come from ``index`` (or the dictionary ``source``: a wordfreq language code
    or a file), clues from ``clues`` (``wordnet``, ``none``, a clue file or a
    :class:`ClueBook`; ``auto``: WordNet for English, else none), hidden phrases from
    ``phrases`` (a file, ``none``, a :class:`PhraseBook`, or ``auto``: the shipped
    file of the language).  ``seconds`` bounds the run, ``steps`` each fill,
    ``repairs`` lets the filler steer the mask; ``workers`` > 1 runs attempts on a
    process pool.  The same arguments and seed give the same puzzles.
    """
    if isinstance(size, str):
        parts = size.lower().replace("×", "x").split("x")
        try:
            width, height = int(parts[0]), int(parts[-1])
        except ValueError:
            raise ArrowError(f"size {size!r}: expected WxH, like 12x12") from None
    else:
        width, height = size
    objects = index is not None or not isinstance(clues, str) or not isinstance(phrases, str)
    params = ArrowParams(width, height, source=source, fold_yo=fold_yo,
                         clues=clues if isinstance(clues, str) else "object",
                         phrases=phrases if isinstance(phrases, str) else "object",
                         top=top, steps=steps, repairs=repairs,
                         key=f"objects:{id(index)}:{id(clues)}:{id(phrases)}" if objects else "")
    check_params(params)
    if objects:
        idx = index if index is not None else load_index(source, fold_yo=fold_yo)
        shop_params = replace(params, clues="none" if not isinstance(clues, str) else clues,
                              phrases="none" if not isinstance(phrases, str) else phrases)
        shop = build_workshop(shop_params, idx,
                              clues=None if isinstance(clues, str) else clues,
                              phrases=None if isinstance(phrases, str) else phrases)
        register_workshop(params, shop)
    return generate(params, count=count, seed=seed, seconds=seconds, workers=workers,
                    max_attempts=max_attempts, on_puzzle=on_puzzle)
