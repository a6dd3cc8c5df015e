"""The arrow-word API: :func:`arrowword` and :func:`generate`, on the batch layer.

A call runs the puzzles as a batch (:mod:`.workload`) in this process
(``workers=1``) or on a local pool of worker processes: puzzle ``i`` is the lowest-numbered
successful attempt of its own seeds, so the puzzles are the same whatever the number of
workers, and the same as ``cryptocomp swedish`` with the same arguments on any backend.
Puzzles reach ``on_puzzle`` and the result in batch order as they are finished.  A time
budget ends the call with the puzzles finished by then; Ctrl-C raises KeyboardInterrupt
(the workers are stopped first).
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from ..batch.journal import DiscardSink, batch_id
from ..batch.pool import ProcessPool, SerialBackend
from ..batch.runner import run_batch
from ..crossword.csp import load_engine
from ..errors import BatchStopped, BatchTimedOut
from ..index.index import Index
from ..index.store import load_index
from .clues import ClueBook
from .generator import (
    ArrowError,
    ArrowParams,
    build_workshop,
    check_params,
    register_workshop,
    workshop,
)
from .phrases import PhraseBook
from .puzzle import ArrowPuzzle, ArrowResult
from .workload import ArrowWorkload, OnPuzzle, ship_words

__all__ = ["arrowword", "generate"]

log = logging.getLogger(__name__)


def generate(params: ArrowParams, *, count: int = 1, seed: int = 0,
             seconds: float | None = None, workers: int | None = None,
             max_attempts: int = 200, on_puzzle: OnPuzzle | None = None) -> ArrowResult:
    """``count`` puzzles; each takes the first successful of at most ``max_attempts``
    attempts; ``seconds`` bounds the whole run (wall clock); ``workers``: processes
    (None: one a core, 1: this process)."""
    check_params(params)
    if count < 1:
        raise ArrowError("count must be at least 1")
    if max_attempts < 1:
        raise ArrowError("max_attempts must be at least 1")
    if seconds is not None and seconds <= 0:
        raise ArrowError("the time budget must be positive")
    wall = time.monotonic()
    shop = workshop(params)
    result = ArrowResult([], count)

    def collect(i: int, puzzle: ArrowPuzzle) -> None:
        result.puzzles.append(puzzle)
        if on_puzzle is not None:
            on_puzzle(i, puzzle)

    jobs = min(workers or os.cpu_count() or 1, count)
    stop = ""
    with tempfile.TemporaryDirectory(prefix="cryptocomp-arrow-") as tmp:
        shipment = ship_words(shop, Path(tmp))
        # compiled here once after installing (workers then load it from numba's cache),
        # before the run's clock starts: compiling is not generating
        load_engine()
        deadline = None if seconds is None else time.time() + seconds
        work = ArrowWorkload(params, shop, count=count, seed=seed, max_attempts=max_attempts,
                             deadline=deadline, on_puzzle=collect)
        backend = SerialBackend() if jobs <= 1 else ProcessPool(jobs)
        try:
            with backend:
                run_batch(work, shipment, backend, DiscardSink(),
                          ident=batch_id(work, shipment.checksum))
        except BatchTimedOut as exc:
            stop = str(exc)
        except BatchStopped as exc:
            if exc.interrupted:
                raise KeyboardInterrupt from None
            raise
    result.attempts, result.cpu_seconds = work.attempts, work.cpu
    result.wall_seconds = time.monotonic() - wall
    made = len(result.puzzles)
    if made == count:
        result.message = f"{count} puzzle{'s' if count > 1 else ''} finished"
    else:
        why = stop or f"no success in {max_attempts} attempts for {work.failed}"
        result.message = f"{made} of {count} puzzles finished ({why})"
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
    ``repairs`` lets the filler steer the mask; ``workers`` > 1 runs the puzzles on a
    pool of worker processes (None: one a core).  The same arguments and seed give the
    same puzzles, whatever ``workers``.
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
        # the workshop is built here; workers get only its words (no objects to send)
        idx = index if index is not None else load_index(source, fold_yo=fold_yo)
        shop_params = replace(params, clues="none" if not isinstance(clues, str) else clues,
                              phrases="none" if not isinstance(phrases, str) else phrases)
        shop = build_workshop(shop_params, idx,
                              clues=None if isinstance(clues, str) else clues,
                              phrases=None if isinstance(phrases, str) else phrases)
        register_workshop(params, shop)
    return generate(params, count=count, seed=seed, seconds=seconds, workers=workers,
                    max_attempts=max_attempts, on_puzzle=on_puzzle)
