"""Theme words: words a fill must contain, placed by a search over their slots.

A placement puts each theme word in a slot of its length whose given letters it keeps,
each in its own slot, agreeing where two of them cross.  :func:`theme_placements`
enumerates them (the word with the fewest slots first); :func:`fill_theme` fills the
grid with each placement's words as given letters in turn, every try within what is left
of the one budget (its deadline, its steps less those already spent), until a fill is
found or every placement is proved to have none: then no fill contains the theme words.
A theme word is a word of the dictionary; the lexicon keeps it whatever the frequency cut
(:meth:`.lexicon.Lexicon.with_words`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from ..domain import Word
from .grid import Cell, Grid, GridError, Letter, Slot
from .problem import Budget
from .result import BUDGET, FILLED, NO_FILL, FillResult

__all__ = ["theme_slots", "theme_placements", "fill_theme"]

log = logging.getLogger(__name__)

# a search of a grid (the theme words' letters given) within a budget
Solver = Callable[[Grid, Budget], FillResult]


def _fits(slot: Slot, word: Word, letters: dict[Cell, Letter]) -> bool:
    return len(word) == slot.length and all(
        letters.get(cell, ch) == ch for cell, ch in zip(slot.cells, word))


def theme_slots(grid: Grid, theme: Sequence[Word]) -> list[list[int]]:
    """For each theme word, the slots it fits alone (its length, the given letters kept);
    GridError naming the first word that fits none."""
    out = []
    for word in theme:
        fits = [s for s, slot in enumerate(grid.slots) if _fits(slot, word, grid.given)]
        if not fits:
            same = sum(slot.length == len(word) for slot in grid.slots)
            why = (f"no slot has {len(word)} letters" if not same else
                   f"the given letters clash with it in all {same} slots of {len(word)} letters")
            raise GridError(f"theme word {word!r} fits no slot of the grid: {why}")
        out.append(fits)
    return out


def theme_placements(grid: Grid, theme: Sequence[Word]) -> Iterator[dict[Cell, Letter]]:
    """The grid's given letters with the theme words written in, one dict per placement
    (each word in its own slot, crossing words agreeing)."""
    fits = theme_slots(grid, theme)
    order = sorted(range(len(theme)), key=lambda i: (len(fits[i]), -len(theme[i])))
    letters = dict(grid.given)
    taken: set[int] = set()

    def place(d: int) -> Iterator[dict[Cell, Letter]]:
        if d == len(order):
            yield dict(letters)
            return
        word = theme[order[d]]
        for s in fits[order[d]]:
            slot = grid.slots[s]
            if s in taken or not _fits(slot, word, letters):
                continue
            new = [cell for cell in slot.cells if cell not in letters]
            letters.update((cell, ch) for cell, ch in zip(slot.cells, word) if cell in new)
            taken.add(s)
            yield from place(d + 1)
            taken.discard(s)
            for cell in new:
                del letters[cell]

    yield from place(0)


def fill_theme(grid: Grid, theme: Sequence[Word], solve: Solver, budget: Budget,
               count: int) -> tuple[FillResult, Grid]:
    """Up to ``count`` fills of ``grid`` that contain every theme word (see the module
    docstring), and the grid of the last placement tried (its theme letters given)."""
    fills: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    tries = steps = 0
    complete = True
    last: FillResult | None = None
    placed = grid
    for given in theme_placements(grid, theme):
        left = None if budget.steps is None else budget.steps - steps
        if (left is not None and left <= 0 and tries) or (budget.out_of_time() and tries):
            complete = False
            break
        placed = replace(grid, given=given)
        result = solve(placed, Budget(steps=left, seconds=budget.seconds, start=budget.start))
        tries += 1
        steps += result.steps
        last = result
        for words in result.fills:
            if tuple(words) not in seen and len(fills) < count:
                seen.add(tuple(words))
                fills.append(words)
        if len(fills) >= count:
            complete = complete and result.complete
            break
        if result.status == BUDGET:
            complete = False
            break
        complete = complete and result.complete
    where = f"{tries} placement{'s' if tries != 1 else ''} of the theme words tried"
    out = FillResult(grid, BUDGET, engine=last.engine if last else "csp")
    out.steps, out.seconds, out.fills = steps, budget.elapsed(), fills
    if fills:
        out.status = FILLED
        out.complete = complete and len(fills) < count
        n = len(fills)
        out.message = f"filled {n} way{'s' if n > 1 else ''} ({where})"
    elif last is None:
        out.status, out.complete = NO_FILL, True
        out.message = "no fill exists: the theme words cannot all be placed (they clash)"
    elif complete:
        out.status, out.complete = NO_FILL, True
        out.message = f"no fill exists with the theme words ({where}, none has a fill)"
        out.culprit = last.culprit
    else:
        assert last is not None
        out.partial, out.culprit = last.partial, last.culprit
        out.culprit_candidates = last.culprit_candidates
        out.message = f"{last.message} ({where})"
    log.debug("theme: %s", where)
    return out, placed
