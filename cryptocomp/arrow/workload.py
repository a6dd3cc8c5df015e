"""Arrow-word batches: ``swedish --count N`` and :func:`cryptocomp.arrowword` on the layer.

Puzzle ``i`` of a batch seeded ``S`` is made by one task on one worker: attempts ``k = 0,
1, ...`` (seed :func:`~.generator.attempt_seed` ``(S, i, k)``) until one succeeds, at most
``max_attempts``; so the puzzle is the lowest-numbered successful attempt whatever the
worker count or the backend.  A worker needs only the usable words: the client builds the
:class:`~.generator.Workshop` (dictionary, clues, phrases), writes its word index to a
file (:func:`ship_words`; the same words give the same bytes, hence the same checksum) and
the layer sends that file to each worker once, by path or as bytes; the worker keeps the
index and its fill lexicon for all its tasks.  Clue files and phrase files never leave the
client.

The client's ordered step (:meth:`ArrowWorkload.settle`), in batch order, turns the
winning attempt into the puzzle (clues drawn, the hidden phrase chosen: each phrase at
most once a batch, the independent checker run).  On ``--resume`` the phrases already
used are read back from the output file (:meth:`ArrowWorkload.replay`).

Raw groups (what a worker returns; held in the journal when finished ahead), format 1::

    {"raw": 1, "puzzle": 3, "attempts": 2, "cpu": 0.41, "seed": ..., "grid": [...],
     "words": [[word, row, col, direction, [clue_row, clue_col]], ...], "penalty": ...,
     "hard": ..., "repairs": ..., "fill_steps": ...}
    {"raw": 1, "puzzle": 3, "attempts": 200, "cpu": 51.2, "failed": "fill: ..."}

Written groups (the output file, JSON Lines, one a puzzle): the puzzle's JSON
(:mod:`.puzzle`) with ``stats.puzzle`` its place in the batch and without
``stats.seconds`` (CPU seconds differ from run to run: the file would not be the same
after a resume), or for a puzzle no attempt could make
``{"format": 1, "error": "no success in 200 attempts (...)", "stats": {"puzzle": 3,
"attempts": 200}}``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..batch.shipment import IndexShipment
from ..batch.workload import Task, Unit, json_object, pack
from ..crossword.lexicon import Lexicon
from ..index.index import Index
from ..index.store import save_index
from .generator import (
    ArrowParams,
    MaskFill,
    Workshop,
    arrow_lexicon,
    attempt_seed,
    fill_attempt,
    finish,
)
from .puzzle import PUZZLE_FORMAT, ArrowPuzzle

__all__ = ["ArrowJob", "ArrowWorkload", "ship_words", "RAW_FORMAT", "WORDS_FILE"]

log = logging.getLogger(__name__)

RAW_FORMAT = 1
WORDS_FILE = "arrow-words.ccidx"
# a fixed time of writing: the same words give the same file, so a batch's identity (which
# includes the file's checksum) and the workers' index caches do not change from run to run
_WRITTEN = "1970-01-01T00:00:00+00:00"

OnPuzzle = Callable[[int, ArrowPuzzle], None]


def ship_words(shop: Workshop, directory: Path) -> IndexShipment:
    """Write the workshop's word index into ``directory``; its shipment to the workers."""
    path = Path(directory) / WORDS_FILE
    save_index(shop.index, path, source=shop.source, created=_WRITTEN)
    return IndexShipment.of_file(path, shop.index.name)


@dataclass(frozen=True)
class ArrowJob:
    """Worker side: each item is a puzzle's place in the batch; its attempts run in order
    until one succeeds.  ``deadline`` (a ``time.time()``): puzzles not finished by then
    come back as None (an attempt cut short by it is not a failure)."""

    params: ArrowParams
    seed: int
    max_attempts: int
    deadline: float | None = None

    def __call__(self, index: Index, items: tuple) -> list[bytes | None]:
        lexicon = arrow_lexicon(index, self.params.mask_rules().max_len)
        return [self.make(lexicon, i) for i in items]

    def make(self, lexicon: Lexicon, i: int) -> bytes | None:
        """The raw group of puzzle ``i`` (None when the deadline came first)."""
        cpu = 0.0
        last = ""
        for k in range(self.max_attempts):
            if self.deadline is not None and time.time() >= self.deadline:
                return None
            att = fill_attempt(lexicon, self.params, attempt_seed(self.seed, i, k),
                               self.deadline)
            if self.deadline is not None and time.time() >= self.deadline:
                return None     # it may have been cut short: not a verdict on attempt k
            cpu += att.cpu
            if att.ok:
                return _line({"raw": RAW_FORMAT, "puzzle": i + 1, "attempts": k + 1,
                              "cpu": round(cpu, 4), "seed": att.seed, "grid": list(att.grid),
                              "words": [[w, r, c, d, list(cell)]
                                        for w, r, c, d, cell in att.words],
                              "penalty": att.penalty, "hard": att.hard,
                              "repairs": att.repairs, "fill_steps": att.fill_steps})
            last = att.message
            log.debug("puzzle %d attempt %d: %s", i + 1, k + 1, last)
        return _line({"raw": RAW_FORMAT, "puzzle": i + 1, "attempts": self.max_attempts,
                      "cpu": round(cpu, 4), "failed": last})


def _line(doc: dict) -> bytes:
    return (json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8")


def _attempt(doc: dict) -> MaskFill:
    """The winning attempt of a raw group."""
    return MaskFill(doc["seed"], True, "filled", tuple(doc["grid"]),
                   [(w, r, c, d, (cell[0], cell[1])) for w, r, c, d, cell in doc["words"]],
                   doc["penalty"], doc["hard"], doc["repairs"], doc["fill_steps"], doc["cpu"])


def _estimate(params: ArrowParams) -> float:
    """Estimated CPU seconds of one puzzle (README's figures: 0.2 s at 8x8, 1 s at 18x18)."""
    return 0.05 + 0.003 * params.width * params.height * params.steps / 1000


class ArrowWorkload:
    """``count`` arrow-word puzzles from ``shop``'s words, seeded ``seed``."""

    kind = "swedish"
    unit = "puzzles"
    json = True

    def __init__(self, params: ArrowParams, shop: Workshop, *, count: int, seed: int = 0,
                 max_attempts: int = 200, deadline: float | None = None,
                 on_puzzle: OnPuzzle | None = None):
        self.params = params
        self.shop = shop
        self.total = count
        self.seed = seed
        self.job = ArrowJob(params, seed, max_attempts, deadline)
        self.on_puzzle = on_puzzle
        self.used: set[int] = set()      # phrases given to earlier puzzles of the batch
        self.finished = 0                # puzzles settled in this run
        self.failed = 0                  # places no attempt could fill (this run or before)
        self.attempts = 0                # attempts behind the puzzles settled in this run
        self.cpu = 0.0                   # their CPU seconds

    def key(self, position: int) -> str:
        return f"puzzle {position + 1}"

    def item(self, position: int) -> int:
        return position

    def identity(self) -> dict:
        p = self.params
        rules = p.mask_rules()
        return {"format": RAW_FORMAT, "puzzle_format": PUZZLE_FORMAT, "count": self.total,
                "seed": self.seed, "max_attempts": self.job.max_attempts,
                "size": [p.width, p.height], "steps": p.steps, "repairs": p.repairs,
                "rules": repr(rules), "clues": _clues_digest(self.shop),
                "phrases": _phrases_digest(self.shop)}

    def plan(self, positions: Collection[int], *, workers: int, min_cost: float
             ) -> Iterator[Task]:
        cost = _estimate(self.params)
        # several tasks a worker, so that none idles long at the end; 2 s at most, so that
        # progress moves and a stop loses little
        target = max(min_cost, min(cost * len(positions) / (4 * max(workers, 1)), 2.0))
        return pack((Unit((p,), cost) for p in positions), target=target)

    def settle(self, position: int, group: bytes) -> bytes:
        doc = json.loads(group)
        self.attempts += doc["attempts"]
        self.cpu += doc["cpu"]
        if "failed" in doc:
            self.failed += 1
            message = f"no success in {doc['attempts']} attempts (the last: {doc['failed']})"
            log.warning("puzzle %d: %s", position + 1, message)
            return _line({"format": PUZZLE_FORMAT, "error": message,
                          "stats": {"puzzle": position + 1, "attempts": doc["attempts"]}})
        puzzle = finish(self.params, self.shop, _attempt(doc),
                        seed=attempt_seed(self.seed, position, 10**6),
                        attempts=doc["attempts"], cpu=doc["cpu"], used=self.used,
                        number=position + 1)
        self.finished += 1
        if self.on_puzzle is not None:
            self.on_puzzle(position, puzzle)
        out = puzzle.to_json()
        out["stats"] = {k: v for k, v in out["stats"].items() if k != "seconds"}
        return _line(out)

    def replay(self, position: int, group: bytes) -> None:
        doc = json.loads(group)
        if "error" in doc:
            self.failed += 1
            return
        hidden = doc.get("hidden")
        if hidden and self.shop.phrases is not None:
            # the phrase chosen then: the first of that text not used before it
            book = self.shop.phrases
            i = next((j for j in range(len(book))
                      if j not in self.used and book[j].text == hidden["phrase"]), None)
            if i is not None:
                self.used.add(i)

    def frame(self, line: str, key: str, *, raw: bool = False) -> int | None:
        doc = json_object(line)
        if doc is None:
            return None
        if raw:
            ok = doc.get("raw") == RAW_FORMAT and f"puzzle {doc.get('puzzle')}" == key and \
                ("failed" in doc or "grid" in doc)
        else:
            stats = doc.get("stats")
            ok = doc.get("format") == PUZZLE_FORMAT and isinstance(stats, dict) and \
                f"puzzle {stats.get('puzzle')}" == key and ("grid" in doc or "error" in doc)
        return 0 if ok else None


def _clues_digest(shop: Workshop) -> str | None:
    """A digest of the clues the batch can print (those of its usable words)."""
    if shop.clues is None:
        return None
    h = hashlib.sha256(f"{shop.clues.ranked}\n".encode())
    for word in shop.index.words:
        spelt = shop.clue_word.get(word, word)
        h.update(json.dumps([word, spelt, shop.clues.clues(spelt)],
                            ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()[:16]


def _phrases_digest(shop: Workshop) -> str | None:
    """A digest of the phrases a batch can hide."""
    if shop.phrases is None:
        return None
    h = hashlib.sha256()
    for i in range(len(shop.phrases)):
        p = shop.phrases[i]
        h.update(json.dumps([p.text, p.letters], ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()[:16]
