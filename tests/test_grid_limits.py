"""Grid files and the engine's state are bounded before anything is built (issue 31, items 1,
12, 14): numbers of any length, more slots than a grid holds, millions of lines, files of
any size, ipuz dimensions that are no whole numbers, a search state that would not fit."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from cryptocomp import Index
from cryptocomp.crossword import (
    Grid,
    GridError,
    Lexicon,
    gridfile,
    parse_slots,
    parse_text,
    read_grid,
    tables,
)
from cryptocomp.crossword.ipuz import parse_ipuz
from cryptocomp.crossword.problem import Problem


def peak_bytes(fn, *args):
    """The peak of memory allocated while ``fn(*args)`` runs (it must raise GridError)."""
    tracemalloc.start()
    try:
        with pytest.raises(GridError) as exc:
            fn(*args)
        return tracemalloc.get_traced_memory()[1], str(exc.value)
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("text, needle", [
    ("3 " + "5" * 5000 + "\n0 0 3 h", "line 1: the number '555"),  # int() raised ValueError
    ("3 3\n0 0 " + "9" * 5000 + " h", "line 2: the number '999"),
    ("3 3\n0 0 99999999999999999999 h", "line 2: the number '99999999999999999999' is out"),
    ("3 3\n--5 0 3 h", "line 2: expected 'x y length h|v'"),  # "--5" passed as a number
    ("3 3\n٠ 0 3 h", "line 2: expected 'x y length h|v'"),
    ("3 3\n+0 0 3 h", "line 2: expected 'x y length h|v'"),
])
def test_slot_list_numbers_are_bounded_and_named(text, needle):
    with pytest.raises(GridError, match=needle) as exc:
        parse_slots(text)
    assert "\n" not in str(exc.value) and len(str(exc.value)) < 200


def test_a_slot_list_is_refused_as_soon_as_it_holds_more_than_its_grid():
    """Two million slot lines on a 2x1 grid were all split and listed first (some 400 MB)."""
    text = "2 1\n" + "0 0 1 h\n" * 2_000_000
    peak, message = peak_bytes(parse_slots, text)
    assert message.startswith("line 6: more slots than the 2x1 grid holds")
    assert peak < 1 << 20, peak
    # lines that are no slot count too: a million bad lengths cannot pile up either
    assert peak_bytes(parse_slots, "2 1\n" + "0 0 0 h\n" * 1_000_000)[0] < 1 << 20


def test_a_text_grid_of_a_million_rows_is_refused_at_its_1001st():
    """A million rows were all split into lines before the grid's size was checked."""
    peak, message = peak_bytes(parse_text, "..\n" * 1_000_000)
    assert "bad grid size 2x1001 or taller (width and height must be 1 to 1000)" in message
    assert peak < 1 << 20, peak
    with pytest.raises(GridError, match="bad grid size 5000000x2 \\(width"):
        parse_text("." * 5_000_000 + "\n..")  # a wide grid's height is still told


def test_slot_overlaps_name_the_slot_a_cell_by_cell_check_named():
    for text, needle in [("3 1\n0 0 1 h\n2 0 1 h\n1 0 2 h", "slot 3 overlaps slot 2"),
                         ("3 1\n0 0 3 h\n1 0 1 h", "slot 2 overlaps slot 1"),
                         ("3 3\n0 0 3 v\n0 2 1 v", "slot 2 overlaps slot 1"),
                         ("3 3\n0 0 3 v\n1 0 3 v\n0 0 3 h\n1 0 2 h", "slot 4 overlaps slot 3")]:
        with pytest.raises(GridError, match=needle):
            parse_slots(text)
    grid = parse_slots("3 3\n0 0 3 v\n0 0 3 h\n2 0 3 v\n0 2 3 h\n1 1 1 h")
    assert len(grid.slots) == 5


@pytest.mark.slow
def test_the_largest_slot_list_is_built():
    """The grid at both bounds, 2,000,000 cells, is still read (in about a second: the
    checks are on numbers, not on cells one by one)."""
    grid = parse_slots("1000 1000\n" + "".join(f"0 {y} 1000 h\n" for y in range(1000))
                       + "".join(f"{x} 0 1000 v\n" for x in range(1000)))
    assert len(grid.slots) == 2000 and len(grid.cells) == 1_000_000


@pytest.mark.parametrize("width", [3.5, True, "3", None, [3], 3.0])
def test_ipuz_dimensions_are_whole_numbers(width):
    """`"width": 3.5` or `true` was taken (int() made them 3 and 1)."""
    doc = {"kind": ["http://ipuz.org/crossword#1"], "dimensions": {"width": width, "height": 1},
           "puzzle": [[0, 0, 0]]}
    with pytest.raises(GridError, match="'dimensions' width must be a whole number from 1 to "
                                        "1000, not "):
        parse_ipuz(json.dumps(doc))


def test_ipuz_cells_are_no_booleans():
    doc = {"kind": ["http://ipuz.org/crossword#1"], "dimensions": {"width": 2, "height": 1},
           "puzzle": [[0, True]]}
    with pytest.raises(GridError, match="bad cell True at row 1, column 2"):
        parse_ipuz(json.dumps(doc))
    for dims in [None, [], {"width": 2}]:
        with pytest.raises(GridError, match="missing or bad 'dimensions'"):
            parse_ipuz(json.dumps({**doc, "dimensions": dims}))


def test_grid_files_are_read_up_to_a_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(gridfile, "MAX_GRID_BYTES", 100)
    path = tmp_path / "big.txt"
    path.write_text("..\n" * 40, encoding="utf-8")
    with pytest.raises(GridError, match=f"grid file {path} is larger than 100 bytes"):
        read_grid(path)
    # no size to check first: read up to the bound, never on (or refused as no regular file)
    with pytest.raises(GridError, match=r"larger than 100 bytes|not a regular file"):
        read_grid("/dev/zero")
    path.write_text("..\n" * 30, encoding="utf-8")
    assert read_grid(path).height == 30


def test_an_engine_state_too_large_is_refused_before_any_array(monkeypatch):
    """The 1000x1000 slot list of 5-letter slots on the English list made 16 GB of candidate
    lists before its state size (165 GiB) was checked."""
    index = Index.from_counts({w: 100 - i for i, w in enumerate(["ab", "ba", "aa", "bb"])})
    prob = Problem(Grid.from_rows(["..", ".."]), Lexicon(index))
    need = tables.state_bytes(prob.lengths, [len(d) for d in prob.initial],
                              [len(index.by_length(2))] * prob.n, len(index.alphabet))
    monkeypatch.setattr(tables, "MAX_STATE_BYTES", need - 1)

    def allocated(*args):
        raise AssertionError("an array was built before the size check")

    monkeypatch.setattr(tables.Tables, "_build_letter_lists", allocated)
    with pytest.raises(GridError, match="too large for the engine"):
        tables.Tables(prob)
    monkeypatch.setattr(tables, "MAX_STATE_BYTES", need)
    with pytest.raises(AssertionError, match="an array was built"):
        tables.Tables(prob)
