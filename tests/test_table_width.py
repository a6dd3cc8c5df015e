"""Result tables fit the console's width: a long cell wraps, none is cut."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console

from cryptocomp.rendering import result_parts
from cryptocomp.rendering.results import Result, Row
from cryptocomp.rendering.tables import fit_widths, summary

_words = st.text(alphabet="abcdefghijя中", min_size=1, max_size=12)


def _drawn(result: Result, width: int) -> list[str]:
    console = Console(width=width, record=True, color_system=None, force_terminal=False)
    for part in result_parts(result, None, chunk=2):
        console.print(part)
    return console.export_text().splitlines()


def _letters(lines: list[str]) -> Counter[str]:
    """Every character drawn but spaces and the header's rule: nothing cut, nothing added."""
    return Counter(c for line in lines for c in line if not c.isspace() and c != "─")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_words, min_size=2, max_size=7), min_size=1, max_size=5),
       st.integers(40, 130))
def test_every_line_fits_and_every_cell_is_whole(rows, width):
    shown = [Row(None, "", 0, 0.0, puzzle=" + ".join(words) + " = " + words[0],
                 solution=" + ".join("9" * len(w) for w in words) + " = 1" + "0" * len(words[0]))
             for words in rows]
    result = Result("generate", "list.txt", "list.txt", "", shown, len(shown))
    lines = _drawn(result, width)
    assert all(cell_len(line) <= width for line in lines)
    assert _letters(lines) == _letters([summary(result), "#", "puzzle", "solution"]
                                       + [str(i) for i in range(1, len(shown) + 1)]
                                       + [r.puzzle + r.solution for r in shown])


def test_wide_rows_fold_instead_of_being_cut_at_80_columns():
    puzzle = "ab + cd + ef + gh = ij ; ac + bd = ef ; " * 3
    result = Result("generate", "cross.txt", "cross.txt", "",
                    [Row(None, "", 0, 0.0, puzzle=puzzle, solution=puzzle.upper())], 1)
    lines = _drawn(result, 80)
    assert all(cell_len(line) <= 80 for line in lines) and len(lines) > 4
    assert _letters(lines) == _letters([summary(result), "#", "puzzle", "solution", "1",
                                        puzzle, puzzle.upper()])


def test_fit_widths_shrinks_the_widest_text_column_only():
    assert fit_widths([3, 50, 50, 5], [False, True, True, False], 200) == [3, 50, 50, 5]
    fitted = fit_widths([3, 50, 30, 5], [False, True, True, False], 80)
    assert fitted[0] == 3 and fitted[3] == 5 and sum(fitted) + 3 * 4 - 1 <= 80
    assert fitted[1] >= fitted[2] - 1
    assert fit_widths([3, 9, 9], [False, True, True], 10) == [3, 8, 8]  # no narrower
