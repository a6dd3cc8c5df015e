"""What the studio's worker processes run: a fill, an arrow-word puzzle, a slot's candidates.

Each is a job target ``target(send, index, request)`` (see :mod:`.jobs`): it runs in the
child, sends ``("progress", {...})`` as it goes and ``("done", answer)`` at the end, the
answer the JSON the job shows as its ``result``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..crossword import FillResult, Grid, Lexicon, SearchProgress, Slot, fill, format_text
from ..crossword.grid import EMPTY, Cell, Letter
from ..index.index import Index
from .bodies import ArrowRequest, CandidatesRequest, FillRequest

__all__ = ["fill_work", "arrow_work", "candidates_work", "fill_answer", "slot_json",
           "viability", "shown_letters", "PROGRESS_EVERY"]

PROGRESS_EVERY = 0.2  # seconds between two progress messages of a child

Send = Callable[[tuple], None]


def slot_json(slot: Slot, candidates: int | None = None) -> dict[str, Any]:
    """A slot as the API names it: its name, first cell, direction and length."""
    row, col = slot.start
    out: dict[str, Any] = {"name": slot.name, "row": row, "col": col, "dir": slot.direction,
                           "length": slot.length}
    if candidates is not None:
        out["candidates"] = candidates
    return out


def shown_letters(request: FillRequest, words: list[str]) -> tuple[Grid, dict[Cell, Letter]]:
    """The grid the request drew and its letters once ``words`` (one a slot of the grid
    searched, "." where unsettled) are written in: outside a region, only what was sent."""
    letters = request.grid.letters_of(words)
    if request.drawn is None or request.region is None:
        return request.grid, letters
    region, drawn = request.region, request.drawn
    kept = {cell: ch for cell, ch in letters.items() if cell in region}
    return drawn, {**drawn.given, **kept}


def fill_answer(result: FillResult, request: FillRequest | None = None) -> dict[str, Any]:
    """The JSON of a finished fill: its status, its grid (the fill, else the best partial
    fill; for a region, only the region's cells filled), its words by slot (the entries
    the grid shown spells out whole), and the tightest slot when it found none."""
    words = result.fills[0] if result.fills else result.partial
    if request is None:
        grid, letters = result.grid, result.grid.letters_of(words or [])
    else:
        grid, letters = shown_letters(request, list(words or []))
    by_name = {s.name: s for s in grid.slots}
    culprit = by_name.get(result.culprit) if result.culprit else None
    spelt = grid.words_of(letters)
    return {"status": result.status, "message": result.message, "engine": result.engine,
            "steps": result.steps, "seconds": round(result.seconds, 4),
            "grid": format_text(grid, letters).splitlines(),
            "words": {s.name: w for s, w in zip(grid.slots, spelt) if EMPTY not in w}
            if result.fills else {},
            "tightest": None if culprit is None else
            slot_json(culprit, result.culprit_candidates)}


def _throttled(send: Send, request: FillRequest | None = None
               ) -> Callable[[SearchProgress], None]:
    last = [0.0]

    def progress(p: SearchProgress) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            doc: dict[str, Any] = {"steps": p.steps, "settled": p.settled, "slots": p.slots,
                                   "found": p.found}
            if request is not None and p.partial is not None:
                words = p.partial()
                if len(words) == len(request.grid.slots):  # the grid searched, not a part
                    grid, letters = shown_letters(request, words)
                    doc["grid"] = format_text(grid, letters).splitlines()
            send(("progress", doc))
    return progress


def fill_work(send: Send, index: Index, request: FillRequest) -> None:
    """Fill the request's grid and send the answer (the best partial fill as it goes)."""
    result = fill(request.grid, index, request.words, engine=request.engine,
                  steps=request.steps, seconds=request.seconds, seed=request.seed,
                  strategy=request.strategy, rules=request.rules,
                  progress=_throttled(send, request))
    send(("done", fill_answer(result, request)))


def _placed(grid: Grid, slot: Slot, word: str) -> Grid:
    """The grid with ``word`` written into ``slot``."""
    given = dict(grid.given)
    given.update(zip(slot.cells, word))
    return Grid(grid.width, grid.height, grid.slots, given, grid.symmetric)


def viability(grid: Grid, slot: Slot, word: str, lexicon: Lexicon,
              seconds: float) -> bool | str:
    """Whether the rest of ``grid`` can be filled with ``word`` in ``slot``: True, False,
    or "unknown" when ``seconds`` ran out first."""
    result = fill(_placed(grid, slot, word), lexicon, seconds=seconds)
    if result.status == "filled":
        return True
    return False if result.status == "no_fill" else "unknown"


def candidates_work(send: Send, index: Index, request: CandidatesRequest) -> None:
    """The words fitting the slot, most frequent first, each tried in turn with an even
    share of the time left; those not reached are "unknown"."""
    from ..index.classes import DEFAULTS

    grid, slot = request.grid, request.slot
    template = "".join(grid.given.get(cell, "?") for cell in slot.cells)
    matches = index.match(template, request.words)
    shown = list(matches[:request.top])
    lexicon = Lexicon(index, request.words.with_classes(DEFAULTS["fill"]))
    deadline = time.monotonic() + request.seconds
    rows = []
    for k, entry in enumerate(shown):
        left = deadline - time.monotonic()
        viable: bool | str = "unknown"
        if left > 0.001:
            viable = viability(grid, slot, entry.word, lexicon, left / (len(shown) - k))
        rows.append({"word": entry.word, "rank": entry.rank, "count": entry.count,
                     "viable": viable})
        send(("progress", {"tried": k + 1, "of": len(shown)}))
    send(("done", {"total": len(matches), "slot": slot_json(slot), "results": rows}))


def arrow_work(send: Send, index: Index, request: ArrowRequest) -> None:
    """Generate one arrow-word puzzle and send it with its SVG."""
    from ..arrow.api import arrowword
    from ..arrow.svg import arrow_svg

    result = arrowword((request.width, request.height), index=index, seed=request.seed,
                       seconds=request.seconds, workers=1,
                       clues="wordnet" if request.clues == "auto" and
                       index.params.get("lang") == "en" else "none")
    if not result.puzzles:
        send(("done", {"status": "failed", "message": result.message, "grid": []}))
        return
    from ..pages.arrows import arrow_pdf

    puzzle = result.puzzles[0]
    doc = puzzle.to_json()
    svg = arrow_svg(puzzle)
    send(("files", {"svg": svg.encode(), "pdf": arrow_pdf([puzzle])}))
    send(("done", {"status": "done", "message": result.message, "puzzle": doc, "svg": svg,
                   "solution_svg": arrow_svg(puzzle, solution=True),
                   "grid": doc.get("grid", [])}))
