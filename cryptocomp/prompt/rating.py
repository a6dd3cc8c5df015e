"""``:difficulty on|off``: the prompt rates the puzzles it shows (a level column for a
compose, the difficulty in a solve's summary line), lazily: only the rows ``:top`` shows
are rated, each within the rating's time budget (:mod:`cryptocomp.cryptarithm.difficulty`)."""

from __future__ import annotations

from dataclasses import replace

from ..errors import CryptocompError, QueryError
from ..rendering import Result
from .settings import Settings

__all__ = ["parse_switch", "with_difficulty", "switch_message"]

_ON = ("on", "yes", "1")
_OFF = ("off", "no", "0")


def parse_switch(arg: str, name: str) -> bool:
    """``on`` or ``off`` (also yes/no, 1/0) as a bool; one clear line otherwise."""
    word = arg.strip().lower()
    if word in _ON:
        return True
    if word in _OFF:
        return False
    raise QueryError(f"usage: {name} on|off (got {arg.strip()!r})")


def switch_message(on: bool) -> str:
    """What ``:difficulty`` says it now does."""
    return ("puzzles shown are rated: a level 1 (easiest) to 5" if on else
            "puzzles are not rated (:difficulty on rates them)")


def with_difficulty(result: Result, settings: Settings) -> Result:
    """``result`` with the puzzles it shows rated when ``:difficulty`` is on (as given
    otherwise, or for a word listing)."""
    from ..cryptarithm.difficulty import rate

    if not settings.difficulty or result.kind == "words":
        return result
    if result.kind == "solve":
        if result.total != 1:
            return result  # only a unique puzzle is rated
        try:
            return replace(result, difficulty=rate(result.query, base=settings.base))
        except CryptocompError:
            return result
    top = settings.shown if settings.shown is not None else len(result.rows)
    rows = list(result.rows)
    for i, row in enumerate(rows[:top]):
        rows[i] = replace(row, difficulty=rate(row.puzzle))
    return replace(result, rows=rows, level_column=True)
