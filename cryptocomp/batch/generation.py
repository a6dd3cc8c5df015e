"""Batch generation: ``compose --from LIST`` / ``--doubly-true`` / ``--cross N`` split over
workers.

A generation's search splits into branches (:class:`~cryptocomp.cryptarithm.generation.Branch`:
the puzzles whose first two left words are given; for ``--cross N``, the grids whose first
row starts with the two words); each branch is one item, so a batch
finds every puzzle of the serial search, in the serial order, whatever the workers.  No
index travels (:meth:`~.shipment.IndexShipment.nothing`): the spec goes with the job.  A
worker prepares the spec's tables once and reuses them for every branch of its tasks.

Raw groups (what a worker returns; held in the journal when finished ahead), format 1::

    {"raw": 1, "branch": "alpha + beta", "candidates": 12, "results": [ROW, ...]}

each ROW a puzzle as ``compose --from --json`` writes it (``puzzle``, ``left``, ``right``,
``op``, ``solution``, ``equation``, and ``difficulty`` when rated).  A branch's key is
its two words, ``alpha + beta``, or ``alpha = beta`` when (``--right free``) the second
is on the right.

Written groups (the output file, format 1), in branch order.  Text: a header, then the
branch's puzzles as ``compose --from`` pipes them (``puzzle<TAB>solution[<TAB>level]``)::

    # alpha + beta: 2 puzzles (12 candidates)
    alpha + beta + ... = gamma<TAB>...

JSON Lines: ``{"branch", "count", "candidates", "results"}`` a branch.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import asdict, dataclass, replace
from math import comb
from typing import Any, cast

from ..cryptarithm.crossgen import CrossGeneration, Crossword, cross_generation
from ..cryptarithm.difficulty import Difficulty
from ..cryptarithm.generation import Branch, Generated, Generation, GenerationSpec
from ..cryptarithm.harvest import cross_rating, equation_text, rating, within
from ..index.index import Index
from .workload import Task, Unit, json_object, pack

__all__ = ["GenerationJob", "CrossJob", "GenerationWorkload", "branch_key", "RAW_FORMAT", "FORMAT"]

RAW_FORMAT = 1
FORMAT = 1
_HEADER = re.compile(r"(\d+) puzzles? \((\d+) candidates?\)")
_NODE_SECONDS = 3e-7      # estimated cost of one left side of a branch's subtree
_BRANCH_SECONDS = 2e-4    # and of a branch itself (its start and its group)
_MOST_A_TASK = 32         # branches a task holds at most

OnFound = Callable[[Generated | Crossword, Difficulty | None], None]


def branch_key(words: list[str], branch: Branch) -> str:
    """A branch's name in its group: its two words (``=`` before a right-side one)."""
    return f"{words[branch.first]} {'=' if branch.across else '+'} {words[branch.second]}"


# a worker's whole search of its job, its tables built once in the process (one job at a
# time: a long list's tables are not small)
_PREPARED: dict[_BranchJob, Generation | CrossGeneration] = {}


def _prepared(job: _BranchJob) -> Generation | CrossGeneration:
    """The job's whole search in this process, prepared on its first task."""
    # both jobs are frozen dataclasses; a resumed batch's new deadline: the same tables
    key = replace(cast(Any, job), deadline=None)
    whole = _PREPARED.get(key)
    if whole is None:
        _PREPARED.clear()
        whole = _PREPARED[key] = job.prepare()
    return whole


def _deadline(wall: float | None) -> float | None:
    """A ``time.time()`` deadline as this process's monotonic one (-1: already past)."""
    if wall is None:
        return None
    left = wall - time.time()
    return time.monotonic() + left if left > 0 else -1.0


class _BranchJob:
    """What both jobs do with their branches: the whole search prepared once a process,
    each branch's puzzles as rows, rated when asked and kept up to ``max_level``, and the
    branch's raw group (None when ``deadline``, a ``time.time()``, came first)."""

    rated: bool
    max_level: int | None
    deadline: float | None

    def prepare(self) -> Generation | CrossGeneration:
        """The whole search (its words and branches)."""
        raise NotImplementedError

    def row(self, puzzle: Any) -> dict:
        """A puzzle's result row (its JSON, its solution in the job's base)."""
        raise NotImplementedError

    def rate(self, puzzle: Any) -> Difficulty:
        """A puzzle's difficulty."""
        raise NotImplementedError

    def __call__(self, index: Index, items: tuple) -> list[bytes | None]:
        whole = _prepared(self)
        return [self.run(whole, branch) for branch in items]

    def run(self, whole: Generation | CrossGeneration, branch: Branch) -> bytes | None:
        """The raw group of one branch (None when the deadline came first)."""
        deadline = _deadline(self.deadline)
        if deadline is not None and deadline < 0:
            return None
        part = whole.split(branch, deadline=deadline)
        rating_asked = self.rated or self.max_level is not None
        rows = []
        for puzzle in part:
            row = self.row(puzzle)
            if rating_asked:
                level = self.rate(puzzle)
                if not within(level, self.max_level):
                    continue
                row["difficulty"] = level.to_json()
            rows.append(row)
        if not part.complete:
            return None
        return _line({"raw": RAW_FORMAT, "branch": branch_key(whole.words, branch),
                      "candidates": part.candidates, "results": rows})


@dataclass(frozen=True)
class GenerationJob(_BranchJob):
    """Worker side of a sum generation (each item a branch)."""

    spec: GenerationSpec
    rated: bool = False
    max_level: int | None = None
    deadline: float | None = None

    def prepare(self) -> Generation:
        return Generation(self.spec)

    def row(self, puzzle: Generated) -> dict:
        return {**puzzle.to_json(), "equation": equation_text(puzzle, self.spec.base)}

    def rate(self, puzzle: Generated) -> Difficulty:
        return rating(puzzle, self.spec.base)

    def found(self, row: dict) -> tuple[Generated, Difficulty | None]:
        """A result row back as the puzzle and its difficulty."""
        g = Generated(tuple(row["left"]), tuple(row["right"]), row["op"],
                      dict(row["solution"]))
        return g, _difficulty(row)

    def describe(self) -> dict:
        """What decides the output, besides the branches (JSON-able)."""
        spec = self.spec
        fields = {k: v for k, v in asdict(spec).items() if k not in ("words", "values")}
        return {"spec": fields, "words_sha256": _digest([spec.words, spec.values]),
                "rated": self.rated, "max_level": self.max_level}

    def cost(self, words: list[str], branch: Branch) -> float:
        """Estimated seconds of a branch: the left sides its later words can make."""
        spec = self.spec
        later = len(words) - branch.second - 1
        more = later if spec.max_words is None else max(spec.max_words - 3, 0)
        # a word more brings a symbol more, mostly: the base's digits bound the depth
        room = spec.base - len(set(words[branch.first]) | set(words[branch.second]))
        more = min(more, room + 1, later)
        ways = 2 if spec.right == "free" else 1
        sides = sum(comb(later, k) * ways ** k for k in range(more + 1))
        return _BRANCH_SECONDS + _NODE_SECONDS * sides


@dataclass(frozen=True)
class CrossJob(_BranchJob):
    """Worker side of ``--cross N`` (each item a branch: the first row's first two
    words)."""

    words: tuple[str, ...]
    n: int
    base: int = 10
    rated: bool = False
    max_level: int | None = None
    deadline: float | None = None

    def prepare(self) -> CrossGeneration:
        return cross_generation(self.words, self.n, base=self.base)

    def row(self, puzzle: Crossword) -> dict:
        return {**puzzle.to_json(self.base), "equation": puzzle.equation(self.base)}

    def rate(self, puzzle: Crossword) -> Difficulty:
        return cross_rating(puzzle, self.base)

    def found(self, row: dict) -> tuple[Crossword, Difficulty | None]:
        """A result row back as the crossword and its difficulty."""
        grid = tuple(tuple(r) for r in row["grid"])
        return Crossword(grid, dict(row["solution"])), _difficulty(row)

    def describe(self) -> dict:
        """What decides the output, besides the words' order (JSON-able)."""
        return {"cross": self.n, "base": self.base, "words_sha256": _digest(self.words),
                "rated": self.rated, "max_level": self.max_level}

    def cost(self, words: list[str], branch: Branch) -> float:
        """No cheap guess of a grid's subtree: equal shares, packed by count."""
        return 0.01


def _text_line(row: dict) -> str:
    """A result row in a text group: ``puzzle<TAB>solution``, then its level (or
    ``unrated``) when rated: the line ``compose --from`` pipes."""
    d = row.get("difficulty")
    level = "" if d is None else f"\t{d['level'] if d['level'] is not None else 'unrated'}"
    return f"{row['puzzle']}\t{row['equation']}{level}"


def _difficulty(row: dict) -> Difficulty | None:
    d = row.get("difficulty")
    return None if d is None else Difficulty(**d)


def _digest(doc: object) -> str:
    return hashlib.sha256(json.dumps(doc, ensure_ascii=False).encode("utf-8")).hexdigest()


def _line(doc: dict) -> bytes:
    return (json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8")


class GenerationWorkload:
    """Every branch of a job's search, each an item, in the search's order;
    ``on_found`` is told of each puzzle (and its difficulty) as its branch is written,
    in order."""

    kind = "generate"
    unit = "branches"

    def __init__(self, job: GenerationJob | CrossJob, *, json: bool = False,
                 on_found: OnFound | None = None):
        whole = job.prepare()
        self.words = whole.words
        self.branches = whole.branches()
        self.job = job
        self.json = json
        self.total = len(self.branches)
        self.on_found = on_found
        self.puzzles = 0        # puzzles written (this run and those a resume found)
        # candidates counted for them (the first cell's crossword placements: no branch's)
        self.candidates = whole.first_words() if isinstance(whole, CrossGeneration) else 0

    def key(self, position: int) -> str:
        return branch_key(self.words, self.branches[position])

    def item(self, position: int) -> Branch:
        return self.branches[position]

    def identity(self) -> dict:
        return {"format": FORMAT, "raw_format": RAW_FORMAT, **self.job.describe(),
                "json": self.json}

    def plan(self, positions: Collection[int], *, workers: int, min_cost: float
             ) -> Iterator[Task]:
        costs = [self.job.cost(self.words, self.branches[p]) for p in positions]
        # many tasks a worker (the first branches hold most of the search), each short
        target = max(min_cost, min(sum(costs) / (16 * max(workers, 1)), 1.0))
        # and a few branches a task at most: the guess leaves out the rating and the
        # counting, and one task too big holds the whole batch up
        least = target / _MOST_A_TASK
        return pack((Unit((p,), max(c, least)) for p, c in zip(positions, costs)),
                    target=target)

    def settle(self, position: int, group: bytes) -> bytes:
        doc = json.loads(group)
        rows = doc["results"]
        self.puzzles += len(rows)
        self.candidates += doc["candidates"]
        if self.on_found is not None:
            for row in rows:
                self.on_found(*self.job.found(row))
        key, counted = doc["branch"], doc["candidates"]
        if self.json:
            return _line({"branch": key, "count": len(rows), "candidates": counted,
                          "results": rows})
        lines = [f"# {key}: {len(rows)} puzzle{'s' if len(rows) != 1 else ''} "
                 f"({counted} candidate{'s' if counted != 1 else ''})"]
        lines += [_text_line(row) for row in rows]
        return ("\n".join(lines) + "\n").encode("utf-8")

    def replay(self, position: int, group: bytes) -> None:
        text = group.decode("utf-8")
        if self.json:
            doc = json.loads(text)
            self.puzzles += doc["count"]
            self.candidates += doc["candidates"]
            return
        m = _HEADER.search(text.partition("\n")[0])
        if m:
            self.puzzles += int(m.group(1))
            self.candidates += int(m.group(2))

    def frame(self, line: str, key: str, *, raw: bool = False) -> int | None:
        if raw or self.json:
            doc = json_object(line)
            if doc is None or doc.get("branch") != key or \
                    not isinstance(doc.get("results"), list) or \
                    not isinstance(doc.get("candidates"), int):
                return None
            if raw:
                return 0 if doc.get("raw") == RAW_FORMAT else None
            return 0 if doc.get("count") == len(doc["results"]) else None
        prefix = f"# {key}: "
        if not line.startswith(prefix):
            return None
        m = _HEADER.fullmatch(line[len(prefix):])
        return int(m.group(1)) if m else None
