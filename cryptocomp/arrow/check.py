"""An independent checker of finished arrow-word puzzles.

It reads a puzzle as printed (its JSON: the grid rows, the word list, the hidden
solution), shares no code with the generator, and tests every hard rule
(README, "Swedish arrow-word puzzles") from scratch:

1. the grid is ``height`` rows of ``width`` cells, each ``#`` (a clue cell) or a letter;
2. the first row and the first column are clue cells;
3. every letter lies in an across and a down run of at least 2 letters (a word);
4. the word list is exactly those runs: each run once, with its letters, its first
   cell, its direction and the clue cell right before it;
5. the letter cells form one connected region;
6. every word is in the word source, no word appears twice, every word has a clue
   (unless the puzzle was made for the author's own clues) and no clue gives its answer
   away (no word of the clue starts with the answer, the answer does not start with a
   clue word of 3+ letters, and an answer of 4+ letters is not written inside the clue);
7. the hidden solution, when there is one, sits in letter cells in reading order
   and spells the phrase's letters.

:func:`puzzle_quality` counts the soft faults: 2-letter words, clue cells
defining nothing (the top-left corner excepted), long words, 2 x 2 blocks of
clue cells, and islands (letter regions beyond the first).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Mapping
from typing import Any

__all__ = ["puzzle_problems", "puzzle_quality"]


def _letters(text: str, fold_yo: bool) -> str:
    out = "".join(ch for ch in unicodedata.normalize("NFC", text).lower() if ch.isalpha())
    return out.replace("ё", "е") if fold_yo else out


_RUN = re.compile(r"[^#]+")  # a maximal run of letter cells in a row or column


def _runs(rows: list[str]) -> list[tuple[str, int, int, str]]:
    """(direction, row, col, letters) of every maximal letter run, length 1 included."""
    columns = ["".join(col) for col in zip(*rows)]
    return ([("across", r, m.start(), m.group()) for r, row in enumerate(rows)
             for m in _RUN.finditer(row)]
            + [("down", m.start(), c, m.group()) for c, col in enumerate(columns)
               for m in _RUN.finditer(col)])


def _regions(rows: list[str]) -> int:
    """How many connected regions the letter cells form."""
    cells = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"}
    regions = 0
    while cells:
        regions += 1
        stack = [cells.pop()]
        while stack:
            r, c = stack.pop()
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nb in cells:
                    cells.remove(nb)
                    stack.append(nb)
    return regions


def _grid_problems(rows: list[str], width: int, height: int) -> list[str]:
    """The problems of the grid's shape and cells (rules 1 and 2), in reading order."""
    if len(rows) != height or any(not isinstance(x, str) or len(x) != width for x in rows):
        return [f"the grid is not {height} rows of {width} cells"]
    problems: list[str] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != "#" and not ch.isalpha():
                problems.append(f"cell ({r}, {c}) is {ch!r}: neither a clue cell nor a letter")
            if (r == 0 or c == 0) and ch != "#":
                problems.append(f"cell ({r}, {c}) in the first row or column is not a clue cell")
    return problems


def _grid_words(rows: list[str], problems: list[str]) -> dict[tuple[str, int, int], str]:
    """The grid's words by (direction, row, col); appends the problems of rules 3 and 5."""
    expected = {}
    for direction, r, c, letters in _runs(rows):
        if len(letters) == 1:
            problems.append(f"letter at ({r}, {c}) has no {direction} word")
        else:
            expected[(direction, r, c)] = letters
    if not expected:
        problems.append("the grid has no word")
    if _regions(rows) > 1:
        problems.append(f"the letters form {_regions(rows)} separate regions")
    return expected


def _entry_fields(e: Any) -> tuple | None:
    """(word, direction, row, col, clue cell, clue) of a word entry; None when malformed."""
    try:
        word, direction, r, c = e["word"], e["direction"], int(e["row"]), int(e["col"])
        clue_cell = tuple(e["clue_cell"])
        clue = e.get("clue")
    except (KeyError, TypeError, ValueError):
        return None
    return word, direction, r, c, clue_cell, clue


def _gives_away(clue: str, word: str) -> bool:
    """Whether the clue gives its answer away (rule 6)."""
    tokens = "".join(ch if ch.isalpha() else " " for ch in clue.lower()).split()
    return any(t.startswith(word) or (word.startswith(t) and len(t) >= 3) for t in tokens) \
        or (len(word) >= 4 and word in "".join(tokens))


def _word_problems(word: str, clue: object, contains: Callable[[str], bool] | None,
                   clued: bool) -> list[str]:
    """The problems of one listed word's source and clue (rule 6, repeats aside)."""
    problems = []
    if contains is not None and not contains(word):
        problems.append(f"{word!r} is not in the word source")
    if clued and (not isinstance(clue, str) or not clue.strip()):
        problems.append(f"{word!r} has no clue")
    if isinstance(clue, str) and word and _gives_away(clue, word):
        problems.append(f"the clue {clue!r} gives away {word!r}")
    return problems


def _entries_problems(entries: list, expected: dict[tuple[str, int, int], str], rows: list[str],
                      contains: Callable[[str], bool] | None, clued: bool) -> list[str]:
    """The problems of the word list against the grid's words (rules 4 and 6)."""
    problems: list[str] = []
    seen_words: dict[str, tuple] = {}
    listed = set()
    for e in entries:
        fields = _entry_fields(e)
        if fields is None:
            problems.append(f"malformed word entry {e!r}")
            continue
        word, direction, r, c, clue_cell, clue = fields
        key = (direction, r, c)
        if key not in expected:
            problems.append(f"{word!r} ({direction} at ({r}, {c})) is not a word of the grid")
            continue
        if key in listed:
            problems.append(f"the {direction} word at ({r}, {c}) is listed twice")
        listed.add(key)
        if expected[key] != word:
            problems.append(f"{direction} at ({r}, {c}) reads {expected[key]!r}, listed as "
                            f"{word!r}")
        before = (r, c - 1) if direction == "across" else (r - 1, c)
        if clue_cell != before or rows[before[0]][before[1]] != "#":
            problems.append(f"{word!r}: clue cell {list(clue_cell)} is not the clue cell "
                            f"right before it {list(before)}")
        if word in seen_words:
            problems.append(f"{word!r} appears twice")
        seen_words[word] = key
        problems += _word_problems(word, clue, contains, clued)
    for key in expected.keys() - listed:
        problems.append(f"the {key[0]} word at ({key[1]}, {key[2]}) is not listed")
    return problems


def _hidden_problems(hidden: Any, rows: list[str], width: int, height: int,
                     fold_yo: bool) -> list[str]:
    """The problems of the hidden solution (rule 7)."""
    try:
        phrase, cells = hidden["phrase"], [tuple(x) for x in hidden["cells"]]
    except (KeyError, TypeError):
        return ["malformed hidden solution"]
    problems = []
    order = [(r, c) for r, c in cells]
    if order != sorted(order) or len(set(order)) != len(order):
        problems.append("hidden cells are not in reading order")
    spelt = ""
    for r, c in cells:
        if not (0 <= r < height and 0 <= c < width) or rows[r][c] == "#":
            problems.append(f"hidden cell ({r}, {c}) is not a letter cell")
            continue
        spelt += rows[r][c]
    if spelt != _letters(phrase, fold_yo):
        problems.append(f"hidden cells spell {spelt!r}, not the phrase {phrase!r}")
    return problems


def puzzle_problems(doc: Mapping, *, words: Collection[str] | Callable[[str], bool] | None = None,
                    clued: bool = True, fold_yo: bool = False) -> list[str]:
    """Every hard rule the puzzle breaks (empty when it is valid).

    ``words``: the word source (a collection or a predicate; None: not checked);
    ``clued``: every word must have a clue; ``fold_yo``: the phrase's ё is spelt е."""
    try:
        width, height, rows = int(doc["width"]), int(doc["height"]), list(doc["grid"])
        entries = list(doc["words"])
    except (KeyError, TypeError, ValueError):
        return ["missing width, height, grid or words"]
    problems = _grid_problems(rows, width, height)
    if problems:
        return problems
    expected = _grid_words(rows, problems)
    contains = words if callable(words) else (words.__contains__ if words is not None else None)
    problems += _entries_problems(entries, expected, rows, contains, clued)
    hidden = doc.get("hidden")
    if hidden is not None:
        problems += _hidden_problems(hidden, rows, width, height, fold_yo)
    return problems


def puzzle_quality(doc: Mapping, *, long_from: int = 8) -> dict[str, int]:
    """Soft faults: two_letter, dead_clue_cells, long_words, crowded, islands."""
    rows = list(doc["grid"])
    h, w = len(rows), len(rows[0])
    words = [x for x in _runs(rows) if len(x[3]) >= 2]
    dead = 0
    for r in range(h):
        for c in range(w):
            if rows[r][c] != "#" or (r, c) == (0, 0):
                continue
            right = c + 1 < w and rows[r][c + 1] != "#"
            down = r + 1 < h and rows[r + 1][c] != "#"
            dead += not (right or down)
    crowded = sum(1 for r in range(h - 1) for c in range(w - 1)
                  if rows[r][c] == rows[r][c + 1] == rows[r + 1][c] == rows[r + 1][c + 1] == "#")
    return {
        "words": len(words),
        "two_letter": sum(1 for x in words if len(x[3]) == 2),
        "dead_clue_cells": dead,
        "long_words": sum(1 for x in words if len(x[3]) >= long_from),
        "crowded": crowded,
        "islands": max(0, _regions(rows) - 1),
    }
