"""An independent checker of fills: it shares no code with the engines.

It reads the fill as drawn letters, re-derives every slot's word from the
cells and tests each rule of :mod:`.grid` directly against a plain set of words.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .grid import Cell, Grid, Letter

__all__ = ["fill_problems"]


def fill_problems(grid: Grid, words: Collection[str], fill: list[str], *,
                  exclude: Collection[str] = (), theme: Collection[str] = (),
                  max_shared: int | None = None,
                  lemma_of: Mapping[str, int] | None = None) -> list[str]:
    """Every rule a fill breaks (empty when it is valid); ``fill`` has one word per slot.
    The word rules (:mod:`.rules`): no word of ``exclude``, every word of ``theme``, no two
    answers sharing more than ``max_shared`` letters in a row, no two answers with the same
    ``lemma_of`` group."""
    problems = _word_rules(grid, fill, exclude, theme, max_shared, lemma_of)
    if len(fill) != len(grid.slots):
        return [f"{len(fill)} words for {len(grid.slots)} slots"]
    letters: dict[Cell, Letter] = {}
    for slot, word in zip(grid.slots, fill):
        if len(word) != slot.length:
            problems.append(f"{slot.name}: {word!r} has {len(word)} letters, not {slot.length}")
            continue
        for cell, ch in zip(slot.cells, word):
            if letters.setdefault(cell, ch) != ch:
                problems.append(f"{slot.name}: {word!r} clashes at {cell} with {letters[cell]!r}")
        if word not in words:
            problems.append(f"{slot.name}: {word!r} is not a word of the list")
    for cell, ch in grid.given.items():
        if cell in letters and letters[cell] != ch:
            problems.append(f"given letter {ch!r} at {cell} replaced by {letters[cell]!r}")
    seen: dict[str, str] = {}
    for slot, word in zip(grid.slots, fill):
        if word in seen:
            problems.append(f"{word!r} is in both {seen[word]} and {slot.name}")
        seen.setdefault(word, slot.name)
    if grid.symmetric:
        drawn = _mirror(letters)
        for i in range(grid.height):
            row = "".join(drawn.get((i, j), "") for j in range(grid.width))
            col = "".join(drawn.get((j, i), "") for j in range(grid.height))
            if row != col:
                problems.append(f"row {i + 1} {row!r} differs from column {i + 1} {col!r}")
    return problems


def _mirror(letters: Mapping[Cell, Letter]) -> dict[Cell, Letter]:
    out = dict(letters)
    out.update({(c, r): ch for (r, c), ch in letters.items()})
    return out


def _word_rules(grid: Grid, fill: list[str], exclude: Collection[str], theme: Collection[str],
                max_shared: int | None, lemma_of: Mapping[str, int] | None) -> list[str]:
    """The word rules a fill breaks, by plain comparison of every pair of answers."""
    problems = [f"{slot.name}: {word!r} is excluded"
                for slot, word in zip(grid.slots, fill) if word in exclude]
    problems += [f"theme word {word!r} is in no slot" for word in theme if word not in fill]
    named = list(zip(grid.slots, fill))
    for i, (a, u) in enumerate(named):
        for b, v in named[i + 1:]:
            if max_shared is not None:
                run = _longest_common_run(u, v)
                if run > max_shared:
                    problems.append(f"{a.name} {u!r} and {b.name} {v!r} share {run} letters in "
                                    f"a row (at most {max_shared})")
            if lemma_of is not None and u != v and u in lemma_of and v in lemma_of \
                    and lemma_of[u] == lemma_of[v]:
                problems.append(f"{a.name} {u!r} and {b.name} {v!r} are forms of one lemma")
    return problems


def _longest_common_run(u: str, v: str) -> int:
    """The length of the longest substring of both ``u`` and ``v``."""
    best = 0
    for i in range(len(u)):
        for j in range(i + best + 1, len(u) + 1):
            if u[i:j] not in v:
                break
            best = j - i
    return best
