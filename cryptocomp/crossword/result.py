"""What a fill attempt returns: the outcome, the fills, and why it ended.

Outcomes are distinct:

* ``filled`` -- at least one fill found (``fills`` holds them, best first);
* ``no_fill`` -- proved that no fill exists; ``culprit`` names the slot (or
  ``region``, the slots of an unsatisfiable core) whose candidates ran out;
* ``budget`` -- the step or time budget ran out first; ``partial`` is the
  fill with the most slots settled and ``culprit`` the unsettled slot with the
  fewest candidates there (``culprit_candidates`` of them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..domain import Count, Word
from .grid import Cell, Grid, Letter

__all__ = ["FillResult", "Improvement", "SearchProgress", "FILLED", "NO_FILL", "BUDGET",
           "RESULT_FORMAT"]

FILLED = "filled"
NO_FILL = "no_fill"
BUDGET = "budget"
RESULT_FORMAT = 1  # version of to_json()


@dataclass(frozen=True)
class SearchProgress:
    """How far a CSP search is, told between its slices of work: its steps, the slots its
    best partial fill settles (None: no lane keeps one, the rows search running alone) of
    ``slots``, the fills found, and (``partial()``) that partial fill's words."""

    steps: int
    settled: int | None
    slots: int
    found: int
    # the best partial fill's words by slot ("." where unsettled), worked out only when
    # asked: a watcher that shows it a few times a second does not slow every slice
    partial: Callable[[], list[str]] | None = field(default=None, compare=False, repr=False)


@dataclass
class Improvement:
    """What :func:`improve` did: its tries, and the rarest word before and after."""

    tries: int
    seconds: float
    before: tuple[Word, Count]
    after: tuple[Word, Count]
    optimal: bool = False  # proved: no fill has a commoner rarest word
    interrupted: bool = False

    def describe(self) -> str:
        """One line for the result's message."""
        (w0, c0), (w1, c1) = self.before, self.after
        tries = f"{self.tries} tr{'ies' if self.tries != 1 else 'y'} in {self.seconds:.1f} s"
        if self.after != self.before:
            line = f"improved: rarest word {w1!r} (count {c1:,}), was {w0!r} (count {c0:,})"
            line += ", the best there is (proved)" if self.optimal else ""
        elif self.optimal:
            line = f"no fill has a commoner rarest word than {w0!r} (count {c0:,}) (proved)"
        else:
            line = f"no fill found whose rarest word is commoner than {w0!r} (count {c0:,})"
        return f"{line}; {tries}" + ("; interrupted" if self.interrupted else "")

    def to_json(self) -> dict:
        """A JSON-ready summary (a part of the fill result's JSON)."""
        return {"tries": self.tries, "seconds": round(self.seconds, 3),
                "before": {"word": self.before[0], "count": self.before[1]},
                "after": {"word": self.after[0], "count": self.after[1]},
                "optimal": self.optimal, "interrupted": self.interrupted}


@dataclass
class FillResult:
    """The outcome of :func:`cryptocomp.crossword.fill`."""

    grid: Grid
    status: str
    fills: list[list[str]] = field(default_factory=list)  # one word per slot, slot order
    engine: str = ""
    message: str = ""
    culprit: str | None = None
    culprit_candidates: int | None = None
    region: list[str] = field(default_factory=list)
    partial: list[str] | None = None  # words with '.' where unsettled
    steps: int = 0
    seconds: float = 0.0
    complete: bool = False  # every fill was enumerated (the search space is exhausted)
    improvement: Improvement | None = None  # set by fill(improve=...): see .improvement

    @property
    def filled(self) -> bool:
        return self.status == FILLED

    @property
    def words(self) -> list[str]:
        """The first fill's words in slot order."""
        if not self.fills:
            raise ValueError(f"no fill ({self.status})")
        return self.fills[0]

    def letters(self, k: int = 0) -> dict[Cell, Letter]:
        """The drawn letters of fill ``k`` (or of the partial fill when there is none)."""
        words = self.fills[k] if self.fills else (self.partial or [])
        return self.grid.letters_of(words)

    def to_json(self) -> dict:
        """A JSON-ready summary (format ``RESULT_FORMAT``)."""
        from .grid import format_text

        out = {
            "format": RESULT_FORMAT,
            "status": self.status,
            "engine": self.engine,
            "message": self.message,
            "steps": self.steps,
            "seconds": round(self.seconds, 4),
            "width": self.grid.width,
            "height": self.grid.height,
            "fills": [{"grid": format_text(self.grid, self.grid.letters_of(words)).splitlines(),
                       "words": {s.name: w for s, w in zip(self.grid.slots, words)}}
                      for words in self.fills],
        }
        if self.culprit is not None:
            out["culprit"] = self.culprit
            out["culprit_candidates"] = self.culprit_candidates
        if self.region:
            out["region"] = self.region
        if self.partial is not None:
            out["partial"] = format_text(self.grid, self.grid.letters_of(self.partial)).splitlines()
        if self.improvement is not None:  # an optional key: format 1 still
            out["improvement"] = self.improvement.to_json()
        return out
