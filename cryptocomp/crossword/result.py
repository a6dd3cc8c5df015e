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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .grid import Cell, Grid, Letter

if TYPE_CHECKING:
    from .improvement import Improvement

__all__ = ["FillResult", "SearchProgress", "FILLED", "NO_FILL", "BUDGET", "RESULT_FORMAT"]

FILLED = "filled"
NO_FILL = "no_fill"
BUDGET = "budget"
RESULT_FORMAT = 1  # version of to_json()


@dataclass(frozen=True)
class SearchProgress:
    """How far a CSP search is, told between its slices of work: its steps, the slots its
    best partial fill settles (None: no lane keeps one, the rows search running alone) of
    ``slots``, and the fills found."""

    steps: int
    settled: int | None
    slots: int
    found: int


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
