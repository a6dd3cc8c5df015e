"""Batch composition: ``compose --batch``, every ``a OP b`` over two word lists.

Queries are packed so that work is shared: within a window of consecutive queries, those
of one shape (``когда+если`` and ``время+меня``: letters in the same places, see
:func:`cryptocomp.cryptarithm.compose.alike_key`) form one unit that a worker composes with a single
enumeration of digit assignments (:func:`cryptocomp.cryptarithm.compose.compose_alike`); units are
then packed into tasks big enough that scheduling costs little.  The planner's shape is
a quick guess from the text; the worker groups by the exact shape of the parsed puzzles,
so a wrong guess costs sharing, never correctness.

Output groups (compose batch format 1), in the order of the queries.  Text::

    # send+more: 3 puzzles
    send+more=money<TAB>9567+1085=10652<TAB>436516
    ...
    # send+more: 120 puzzles (50 shown)        (with --top 50: 50 rows follow)
    # abcdef+ghijk: error: more than 10 distinct letters ... (no rows)

JSON Lines: one object a query, ``{"query", "count", "results"}`` (results as in
``compose --json``, the first ``shown``) or ``{"query", "error"}``.

>>> queries = QueryGrid(["send", "when"], "+-", ["more"])
>>> list(queries)
['send+more', 'send-more', 'when+more', 'when-more']
>>> quick_shape("send+more"), quick_shape("SEND + MORE"), quick_shape("when+more")
('0123+4561', '0123+4561', '0123+4562')
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from ..cryptarithm.compose import (
    Composed,
    alike_key,
    check_composable,
    compose_alike,
    compose_puzzle,
)
from ..cryptarithm.expr import MAX_LETTERS, Puzzle, parse
from ..errors import ExpressionError, QueryError
from ..index.classes import DEFAULTS
from ..index.index import Index
from ..index.wordfilter import ALL_WORDS, WordFilter
from .pairquery import column_form, compose_columns
from .workload import Task, Unit, Unordered, json_object, pack

__all__ = ["ComposeWorkload", "ComposeJob", "QueryGrid", "quick_shape", "FORMAT"]

FORMAT = 1
_WINDOW = 2048        # queries grouped by shape at a time: bounds the results held for
                      # ordering, and is large enough that most shapes recur in a window
_MAX_ALIKE = 256      # queries a unit holds at most (a unit is never split: bounds a task;
                      # compose_alike bounds the memory of the words they share)
_HEADER = re.compile(r"(\d+) puzzles?(?: \((\d+) shown\))?")
# a query's own fault, reported in its group; anything else (a damaged index section)
# fails the task and stops the batch
_QUERY_ERRORS = (ExpressionError, QueryError)


class QueryGrid(Sequence[str]):
    """Every ``a OP b``: for each left word, each operator, each right word (lazily)."""

    def __init__(self, left: Sequence[str], ops: str, right: Sequence[str]):
        self.left, self.ops, self.right = list(left), ops, list(right)
        self._per_left = len(ops) * len(self.right)

    def __len__(self) -> int:
        return len(self.left) * self._per_left

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        a, rest = divmod(i % len(self), self._per_left)
        op, b = divmod(rest, len(self.right))
        return f"{self.left[a]}{self.ops[op]}{self.right[b]}"


def quick_shape(query: str) -> str:
    """The query with letters numbered by first appearance (a cheap guess of its shape)."""
    seen: dict[str, str] = {}
    out = []
    for ch in query.lower():
        if ch.isspace():
            continue
        if ch.isalpha():
            ch = seen.setdefault(ch, chr(ord("0") + len(seen)) if len(seen) < 10 else "#")
        out.append(ch)
    return "".join(out)


def _estimate(query_shape: str, members: int) -> float:
    """Estimated CPU seconds to compose ``members`` queries of one shape together
    (fitted on scripts/bench_batch.py's batch: ~110 ns an assignment, ~20 ms a query)."""
    k = len({ch for ch in query_shape if ch.isdigit()})
    rows = math.perm(10, k) if k <= MAX_LETTERS and "#" not in query_shape else 0
    return 0.004 + rows * 1.1e-7 + members * 0.02


@dataclass(frozen=True)
class ComposeJob:
    """Worker side: compose a task's queries, sharing work between queries of one shape."""

    words: WordFilter = ALL_WORDS  # which words may fill each query's unknown
    shown: int | None = None       # results shown a query (its count is of every one)
    json: bool = False

    def __call__(self, index: Index, items: tuple) -> list[bytes | None]:
        out: list[bytes | None] = [None] * len(items)
        # the words' classes go with the results when more than dictionary words may come
        classes = self.words.with_classes(DEFAULTS["compose"]).classes
        named = index if index.classified and classes is not None and \
            not classes.only_dictionary else None
        alike: dict[str, list[tuple[int, Puzzle]]] = {}
        for i, query in enumerate(items):
            try:
                puzzle = parse(query, fold_yo=index.fold_yo)
                check_composable(puzzle)
            except _QUERY_ERRORS as exc:
                out[i] = self.render_error(query, exc)
                continue
            alike.setdefault(alike_key(puzzle), []).append((i, puzzle))
        for members in alike.values():
            puzzles = [p for _, p in members]
            form = column_form(puzzles[0])   # the same for every member: one alike_key
            try:
                found = compose_alike(puzzles, index, self.words) if form is None else \
                    compose_columns(puzzles, form, index, self.words)
            except _QUERY_ERRORS:
                # composed alone, each error names its own query's text and column
                for i, puzzle in members:
                    try:
                        out[i] = self.render(items[i], compose_puzzle(puzzle, index, self.words),
                                             named)
                    except _QUERY_ERRORS as exc:
                        out[i] = self.render_error(items[i], exc)
                continue
            for (i, _), results in zip(members, found):
                out[i] = self.render(items[i], results, named)
        return out

    def render(self, query: str, results: list[Composed], named: Index | None = None) -> bytes:
        """One query's group (each word's classes from ``named``, when given)."""
        shown = results if self.shown is None else results[:self.shown]
        if self.json:
            rows = [r.to_json() for r in shown]
            if named is not None:
                for row, r in zip(rows, shown):
                    row["classes"] = list(named.classes_of(r.rank - 1))
            doc = {"query": query, "count": len(results), "results": rows}
            return (json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8")
        n = len(results)
        head = f"# {query}: {n} puzzle{'s' if n != 1 else ''}"
        if len(shown) < n:
            head += f" ({len(shown)} shown)"
        lines = [head] + [f"{r.puzzle}\t{r.solution}\t{r.count}" + (
            "" if named is None else "\t" + ",".join(named.classes_of(r.rank - 1)))
            for r in shown]
        return ("\n".join(lines) + "\n").encode("utf-8")

    def render_error(self, query: str, exc: Exception) -> bytes:
        """The group of a query that failed: its one-line error."""
        message = " ".join(str(exc).split())
        if self.json:
            return (json.dumps({"query": query, "error": message}, ensure_ascii=False)
                    + "\n").encode("utf-8")
        return f"# {query}: error: {message}\n".encode()


def _options(job: ComposeJob) -> dict:
    """A job's options as a batch's identity has always named them (``limit`` the
    dictionary cut, ``top`` the results shown): batches written before resume."""
    words = job.words
    out = {"limit": words.top, "min_count": words.min_count, "min_length": words.min_length,
           "max_length": words.max_length, "contains": words.contains,
           "excludes": words.excludes, "top": job.shown, "json": job.json}
    # named only when not the default, so that the batches of the default resume as before
    classes = words.with_classes(DEFAULTS["compose"]).classes
    if classes != DEFAULTS["compose"]:
        out["classes"] = classes.describe() if classes is not None else None
    if words.min_score is not None:
        out["min_score"] = words.min_score
    return out


class ComposeWorkload(Unordered):
    """``compose`` over a sequence of queries (a :class:`QueryGrid` for ``--batch``)."""

    kind = "compose"
    unit = "queries"

    def __init__(self, queries: Sequence[str], job: ComposeJob):
        self.queries = queries
        self.job = job
        self.json = job.json
        self.total = len(queries)

    def key(self, position: int) -> str:
        return self.queries[position]

    def item(self, position: int) -> str:
        return self.queries[position]

    def identity(self) -> dict:
        digest = hashlib.sha256()
        for q in self.queries:
            digest.update(q.encode("utf-8") + b"\n")
        return {"format": FORMAT, "queries": len(self.queries),
                "queries_sha256": digest.hexdigest(),
                "options": _options(self.job)}

    def plan(self, positions: Collection[int], *, workers: int, min_cost: float
             ) -> Iterator[Task]:
        number = 0
        left = iter(positions)
        while window := list(itertools.islice(left, _WINDOW)):
            by_shape: dict[str, list[int]] = {}
            for pos in window:
                by_shape.setdefault(quick_shape(self.queries[pos]), []).append(pos)
            units = []
            for guess, members in by_shape.items():
                for i in range(0, len(members), _MAX_ALIKE):
                    part = tuple(members[i:i + _MAX_ALIKE])
                    units.append(Unit(part, _estimate(guess, len(part))))
            units.sort(key=lambda u: u.positions[0])
            # several tasks a worker, so that no worker idles long at the end of a window,
            # and a few seconds at most, so that progress moves
            target = max(min_cost, min(sum(u.cost for u in units) / (4 * max(workers, 1)), 2.0))
            for task in pack(units, target=target, first=number):
                yield task
                number += 1

    def frame(self, line: str, key: str, *, raw: bool = False) -> int | None:
        if self.json:
            doc = json_object(line)
            ok = doc is not None and doc.get("query") == key and \
                (isinstance(doc.get("error"), str) or isinstance(doc.get("results"), list))
            return 0 if ok else None
        prefix = f"# {key}: "
        if not line.startswith(prefix):
            return None
        rest = line[len(prefix):]
        if rest.startswith("error: "):
            return 0
        m = _HEADER.fullmatch(rest)
        if not m:
            return None
        return int(m.group(2) if m.group(2) is not None else m.group(1))
