"""Fuzzing the PDF pages with what users put on them: any clue text (any Unicode a UTF-8
clue file can hold, quotes, long words, characters the font lacks), any title, any
``:pdf`` argument.  A page is always written and read back, or the input is refused in one
line; never a traceback."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdf_reading import page_texts

from cryptocomp import Index
from cryptocomp.crossword.grid import Grid
from cryptocomp.errors import CryptocompError
from cryptocomp.pages import SheetEntry, crossword_pdf, sheet_pdf, wrap
from cryptocomp.pages.arrows import fit_clue
from cryptocomp.prompt import Session


def _letters(text: str) -> str:
    """The text without its spaces and hyphens (which wrapping adds and takes away)."""
    return "".join(text.split()).replace("-", "")


SCALE = max(1, settings.default.max_examples // 100)
PAGES = settings(max_examples=15 * SCALE, deadline=None)  # each example writes a PDF
# every character a UTF-8 file can hold (no lone surrogates)
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
GRID = Grid.from_rows(["...", ".#.", "..."])
FILL = ["abc", "def", "adg", "cfh"]


@PAGES
@given(st.lists(TEXT, min_size=4, max_size=4), TEXT)
def test_any_clue_text_and_title_make_a_page(clues, title):
    data = crossword_pdf(GRID, FILL, clues=dict(zip(FILL, clues)), title=title)
    assert len(page_texts(data)) == 2


@given(TEXT, st.floats(1, 200), st.floats(1, 200))
def test_any_clue_fits_a_cell_or_takes_the_smallest_size(text, width, height):
    size, lines = fit_clue(text, width, height)
    assert 4 <= size <= 8
    assert _letters("".join(lines)) == _letters(text)


@given(TEXT, st.floats(0.5, 300))
def test_wrap_never_loses_a_character(text, width):
    lines = wrap(text, width, len, eager=True)
    assert _letters("".join(lines)) == _letters(text)


@PAGES
@given(st.lists(TEXT, max_size=3))
def test_any_notes_print_in_the_key(notes):
    entry = SheetEntry("send+more=money", "9567+1085=10652",
                       dict(zip("sendmory", [9, 5, 6, 7, 1, 0, 8, 2])), notes)
    assert len(page_texts(sheet_pdf([entry]))) == 2


@settings(PAGES, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(arg=TEXT)
def test_any_pdf_argument_is_a_file_or_one_line(tmp_path_factory, arg):
    session = Session(Index.from_counts({"money": 5, "send": 4, "more": 3}, name="t"))
    session.execute("send+more")
    where = tmp_path_factory.mktemp("pdf")
    try:
        reply = session.execute(f":pdf {where}/{arg}")
    except CryptocompError as exc:
        assert "\n" not in str(exc)
    else:
        assert reply.message.startswith("printed 1 puzzle")


@pytest.mark.parametrize("bad", ["", "   ", "a4", "letter"])
def test_pdf_without_a_file_is_usage(bad):
    session = Session(Index.from_counts({"money": 5, "send": 4, "more": 3}, name="t"))
    session.execute("send+more")
    with pytest.raises(CryptocompError, match="usage"):
        session.execute(f":pdf {bad}")
