"""What a query produces, as the tables show it: rows of words, puzzles or solutions.

A :class:`Result` is the prompt's answer to one line (compose, solve or words); its
tables, tab-separated lines, JSON and CSV are drawn by :mod:`.tables`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from .text import ClassColumn, per_million

if TYPE_CHECKING:
    from ..cryptarithm.difficulty import Difficulty
    from ..index.index import Entry

__all__ = ["Row", "Result", "WordRows", "Kind"]

Kind = str  # "compose" | "solve" | "words" | "generate" (puzzles made from a list)


@dataclass(frozen=True)
class Row:
    """One result line: a dictionary word (with its puzzle) or one solution of a puzzle."""

    rank: int | None  # the word's 1-based frequency rank; None for a solution row
    word: str
    count: int
    per_million: float
    puzzle: str = ""  # in letters, e.g. "send+more=money"
    solution: str = ""  # in digits, e.g. "9567+1085=10652"
    assignment: dict[str, int] | None = None
    classes: tuple[str, ...] | None = None  # the word's classes, when results show them
    difficulty: Difficulty | None = None  # the puzzle's, when rated (:difficulty on)

    def to_json(self, kind: Kind) -> dict:
        """The row as a JSON object with the fields its kind has (``classes`` and
        ``difficulty`` when known)."""
        if kind == "solve":
            return {"solution": self.solution, "assignment": self.assignment}
        if kind == "generate":
            return {"puzzle": self.puzzle, "solution": self.solution,
                    "assignment": self.assignment,
                    **({} if self.difficulty is None else
                       {"difficulty": self.difficulty.to_json()})}
        out: dict[str, object] = {"rank": self.rank, "word": self.word, "count": self.count,
                                  "per_million": self.per_million}
        if kind == "compose":
            out.update(puzzle=self.puzzle, solution=self.solution, assignment=self.assignment)
        if self.classes is not None:
            out["classes"] = list(self.classes)
        if self.difficulty is not None:
            out["difficulty"] = self.difficulty.to_json()
        return out


class WordRows(Sequence):
    """The words of a Matches as Rows, converted only when read (templates can match 100k)."""

    def __init__(self, matches: Sequence[Entry], total: int, classes: ClassColumn | None = None):
        self._matches = matches
        self._total = total
        self._classes = classes  # the words' classes, when results show them

    def __len__(self) -> int:
        return len(self._matches)

    @overload
    def __getitem__(self, i: int) -> Row: ...

    @overload
    def __getitem__(self, i: slice) -> list[Row]: ...

    def __getitem__(self, i: int | slice) -> Row | list[Row]:
        if isinstance(i, slice):
            return [self._row(e) for e in self._matches[i]]
        return self._row(self._matches[i])

    def __iter__(self) -> Iterator[Row]:
        return (self._row(e) for e in self._matches)

    def _row(self, e: Entry) -> Row:
        classes = None if self._classes is None else tuple(self._classes.of(e.id, e.word))
        return Row(e.rank, e.word, e.count, per_million(e.count, self._total), classes=classes)


@dataclass(frozen=True)
class Result:
    """The answer to one query line: every row, most frequent first."""

    kind: Kind
    query: str  # the line as typed
    title: str  # e.g. "send+more=?"
    dictionary: str  # its short name: language code or file name
    rows: Sequence[Row]
    total: int  # len(rows) for compose/words; the exact solution count for solve
    # (a solve stores at most max(SOLUTIONS_KEPT, :top) rows: total may exceed len(rows))
    class_column: bool = False  # the rows carry their words' classes: a column shows them
    complete: bool = True  # False: a budget stopped a solve, total is a lower bound
    level_column: bool = False  # the rows shown carry their difficulty: a column shows it
    difficulty: Difficulty | None = None  # a solved puzzle's (:difficulty on)

    def _check(self) -> None:
        assert self.kind in ("compose", "solve", "words", "generate"), self.kind
        assert self.total >= len(self.rows) if self.kind == "solve" else \
            self.total == len(self.rows)

    @property
    def noun(self) -> str:
        return {"compose": "puzzle", "solve": "solution", "words": "word",
                "generate": "puzzle"}[self.kind]
