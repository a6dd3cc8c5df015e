"""Bulk puzzle generation: many seeded attempts of one generator against one index.

A generator is a plain module-level function ``(index, params, seed) -> Attempt``:
word squares and crossword fills (:func:`fill_attempt`, behind ``square``/``fill
--attempts N``); any generator of independent seeded attempts fits the same way.  Attempt
``i`` of a batch runs with seed ``first_seed + i``, so a batch is reproducible when the
generator is (budgets in steps, not seconds: a time budget makes an attempt's outcome
depend on the machine's speed and load).

Output groups (attempts batch format 1), in seed order.  Text::

    # seed 7: filled, 1 fill [csp, 412 steps] (5 lines)
    <the 5 lines: the puzzle as text>

JSON Lines: ``{"seed": 7, "status": ..., "summary": ..., "lines": [...], ...}`` plus the
generator's own fields.  Neither holds timings, so that a resumed batch writes the bytes
an uninterrupted one does.

>>> from cryptocomp import Index
>>> from cryptocomp.crossword.square import square_grid
>>> job = AttemptJob(fill_attempt, {"grid": square_grid(2), "engine": "csp"})
>>> print(job(Index.from_counts({"at": 5, "no": 4, "an": 3, "to": 2}), (1,))[0].decode(), end="")
# seed 1: filled, 1 fill [csp, 0 steps] (2 lines)
an
to
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field

from ..index.classes import DEFAULTS, WordClasses
from ..index.index import Index
from ..index.wordfilter import WordFilter
from .workload import Task, Unit, Unordered, json_object, pack

__all__ = ["Attempt", "AttemptJob", "AttemptsWorkload", "fill_attempt", "FORMAT"]

FORMAT = 1
_TAIL = re.compile(r" \((\d+) lines?\)")


@dataclass(frozen=True)
class Attempt:
    """One attempt's outcome: a status word, a one-line summary, the puzzle as text
    lines, and JSON-able details (all deterministic for a given seed)."""

    status: str
    summary: str
    lines: tuple[str, ...] = ()
    data: dict = field(default_factory=dict)


Generator = Callable[[Index, dict, int], Attempt]


@dataclass(frozen=True)
class AttemptJob:
    """Worker side: run a generator once a seed (the function travels by name)."""

    generator: Generator
    params: dict = field(default_factory=dict)
    json: bool = False

    def __call__(self, index: Index, items: tuple) -> list[bytes | None]:
        return [self.render(seed, self.generator(index, self.params, seed)) for seed in items]

    def render(self, seed: int, attempt: Attempt) -> bytes:
        """One attempt's group."""
        if self.json:
            doc = {"seed": seed, "status": attempt.status, "summary": attempt.summary,
                   "lines": list(attempt.lines)}
            doc.update({k: v for k, v in attempt.data.items() if k not in doc})
            return (json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8")
        n = len(attempt.lines)
        lines = [f"# seed {seed}: {attempt.summary} ({n} line{'s' if n != 1 else ''})",
                 *attempt.lines]
        return ("\n".join(lines) + "\n").encode("utf-8")


class AttemptsWorkload(Unordered):
    """``count`` attempts with seeds ``first_seed``, ``first_seed + 1``, ..."""

    unit = "attempts"

    def __init__(self, kind: str, job: AttemptJob, count: int, *, first_seed: int = 0,
                 identity: dict | None = None, seconds: float | None = None):
        self.kind = kind
        self.job = job
        self.json = job.json
        self.total = count
        self.first_seed = first_seed
        self._identity = identity or {}
        self._cost = seconds if seconds is not None else 1.0

    def key(self, position: int) -> str:
        return f"seed {self.first_seed + position}"

    def item(self, position: int) -> int:
        return self.first_seed + position

    def identity(self) -> dict:
        return {"format": FORMAT, "attempts": self.total, "first_seed": self.first_seed,
                "json": self.json, "params": self._identity}

    def plan(self, positions: Collection[int], *, workers: int, min_cost: float
             ) -> Iterator[Task]:
        # attempts of unknown length count as a second each: one a task unless tiny
        return pack((Unit((p,), self._cost) for p in positions), target=min_cost)

    def frame(self, line: str, key: str, *, raw: bool = False) -> int | None:
        if self.json:
            doc = json_object(line)
            return 0 if doc is not None and f"seed {doc.get('seed')}" == key else None
        prefix = f"# {key}: "
        m = _TAIL.search(line)
        if not line.startswith(prefix) or not m or m.end() != len(line):
            return None
        return int(m.group(1))


# -- crossword fills and word squares -------------------------------------------------------

def fill_attempt(index: Index, params: dict, seed: int) -> Attempt:
    """One fill of ``params["grid"]`` with ``seed`` (the other params are
    :func:`cryptocomp.crossword.fill`'s options and its :class:`WordFilter`'s ``top``,
    ``min_count``, ``min_length``, ``max_length``, ``min_score``, ``classes``); the worker
    keeps the word lists between attempts."""
    from ..crossword import fill
    from ..crossword.grid import format_text
    from ..crossword.lexicon import Lexicon

    classes = params.get("classes")  # text (WordClasses.parse), None: the fill default
    words = WordFilter(top=params.get("top"), min_count=params.get("min_count"),
                       min_length=params.get("min_length", 1),
                       max_length=params.get("max_length"), min_score=params.get("min_score"),
                       classes=WordClasses.parse(classes) if classes else DEFAULTS["fill"])
    # kept with the index (a worker's cached index lives for the batch), not by id()
    lex = index.derived(("fill-lexicon", words), lambda: Lexicon(index, words))
    options = {k: params[k] for k in ("engine", "count", "steps", "seconds", "lookahead",
                                      "letter_branch", "strategy", "rules")
               if params.get(k) is not None}
    # a batch's workers have the cores already: the lanes take turns in this one
    result = fill(params["grid"], lex, seed=seed, parallel=False, **options)
    lines: list[str] = []
    for k in range(len(result.fills)):
        if k:
            lines.append("")
        lines += format_text(result.grid, result.letters(k)).splitlines()
    n = len(result.fills)
    summary = f"{result.status}, {n} fill{'s' if n != 1 else ''} [{result.engine}, " \
              f"{result.steps} step{'s' if result.steps != 1 else ''}]"
    data = result.to_json()
    data.pop("seconds", None)
    return Attempt(result.status, summary, tuple(lines), data)
