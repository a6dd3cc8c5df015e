"""Grid model and input formats: text, slot list, ipuz; round trips; bad grids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.crossword import (
    Grid,
    GridError,
    fill,
    format_slots,
    format_text,
    parse_slots,
    parse_text,
    read_grid,
)
from cryptocomp.crossword.ipuz import parse_ipuz, read_clues, to_ipuz
from cryptocomp.crossword.square import square_grid
from cryptocomp.crossword.svg import to_svg
from cryptocomp.errors import CryptocompError
from cryptocomp.index import Index

DATA = Path(__file__).parent / "data"
SHIPPED = Path(__file__).parent.parent / "cryptocomp" / "data" / "grids"


def _runs(rows: list[str]) -> list[tuple[str, tuple]]:
    """Slots of a drawn grid recomputed naively: maximal runs of >= 2 open cells."""
    out = []
    h, w = len(rows), len(rows[0])
    for r in range(h):
        c = 0
        while c < w:
            if rows[r][c] == "#":
                c += 1
                continue
            start = c
            while c < w and rows[r][c] != "#":
                c += 1
            if c - start >= 2:
                out.append(("across", tuple((r, k) for k in range(start, c))))
    for c in range(w):
        r = 0
        while r < h:
            if rows[r][c] == "#":
                r += 1
                continue
            start = r
            while r < h and rows[r][c] != "#":
                r += 1
            if r - start >= 2:
                out.append(("down", tuple((k, c) for k in range(start, r))))
    return out


def test_text_grid_slots_numbers_and_given():
    grid = read_grid(DATA / "grid_small.txt")
    grid._check()
    assert (grid.width, grid.height) == (5, 5)
    assert grid.given == {(2, 2): "c"}
    names = [s.name for s in grid.slots]
    assert names == ["1-across", "3-across", "5-across", "7-across", "8-across", "10-across",
                     "11-across", "1-down", "2-down", "3-down", "4-down", "6-down", "8-down",
                     "9-down"]
    rows = format_text(grid).splitlines()
    assert sorted(_runs(rows)) == sorted((s.direction, s.cells) for s in grid.slots)


@st.composite
def _drawn(draw):
    h, w = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    rows = ["".join(draw(st.sampled_from("#..ab")) for _ in range(w)) for _ in range(h)]
    return rows


@settings(max_examples=60, deadline=None)
@given(_drawn())
def test_text_round_trip_and_slots_match_naive(rows):
    if not _runs([r.replace("a", ".").replace("b", ".") for r in rows]):
        with pytest.raises(GridError):
            parse_text("\n".join(rows))
        return
    grid = parse_text("\n".join(rows))
    grid._check()
    text = format_text(grid)
    # lone letters in no slot stay; lone empty cells are open but slot-less, drawn as '.'
    again = parse_text(text)
    assert again.slots == grid.slots and again.given == grid.given
    assert sorted(_runs([r.replace("a", ".").replace("b", ".") for r in rows])) == \
        sorted((s.direction, s.cells) for s in grid.slots)


def test_slot_list_reads_and_round_trips():
    grid = read_grid(DATA / "grid_slots.txt")
    grid._check()
    assert len(grid.slots) == 6 and {s.length for s in grid.slots} == {5}
    assert grid.is_block((1, 1)) and not grid.is_block((1, 0))
    again = parse_slots(format_slots(grid))
    assert again.slots == grid.slots


def test_slot_list_fills_from_a_plain_word_list():
    from cryptocomp import load_index
    from cryptocomp.crossword.check import fill_problems

    grid = parse_slots("3 3\n0 0 3 h\n0 0 3 v\n2 0 3 v\n")
    idx = load_index(str(DATA / "grid_words.txt"))
    words = {"cat", "car", "art", "tar", "act"}
    result = fill(grid, idx, engine="csp", count=10)
    assert result.filled and result.complete
    assert ["act", "art", "tar"] in result.fills
    for fill_ in result.fills:
        assert fill_problems(grid, words, fill_) == []
    frame = parse_slots("3 3\n0 0 3 h\n0 0 3 v\n2 0 3 v\n0 2 3 h\n")
    assert fill(frame, idx, engine="sat").status == "no_fill"


def test_ipuz_round_trip_with_given_letters_and_solution():
    grid = read_grid(DATA / "grid_small.txt")
    doc = to_ipuz(grid)
    again = parse_ipuz(json.dumps(doc))
    assert again.slots == grid.slots and again.given == grid.given
    idx = Index.from_counts({w: 30 - i for i, w in enumerate(
        ["ab", "ba", "abcba", "bacab", "cbcbc", "aa", "bb", "abc", "cab", "bcb", "acb",
         "bca", "cba", "babab", "acaca", "ccc", "cc", "ac", "ca", "bc", "cb"])})
    result = fill(grid, idx, engine="sat")
    if result.filled:
        doc = to_ipuz(grid, result.words, clues={result.words[0]: "first"})
        assert doc["solution"][2][2] == "C"
        assert doc["clues"]["Across"][0] == [1, "first"]
        assert parse_ipuz(json.dumps(doc)).given == grid.given


def test_ipuz_shipped_grid_reads_as_ipuz_file(tmp_path):
    grid = read_grid(SHIPPED / "american15.txt")
    path = tmp_path / "g.ipuz"
    path.write_text(json.dumps(to_ipuz(grid)), encoding="utf-8")
    assert read_grid(path).slots == grid.slots


def test_shipped_grid_is_american_style():
    grid = read_grid(SHIPPED / "american15.txt")
    rows = format_text(grid).splitlines()
    assert len(grid.slots) == 72
    assert min(s.length for s in grid.slots) == 3 and max(s.length for s in grid.slots) == 15
    for r in range(15):  # rotational symmetry
        for c in range(15):
            assert (rows[r][c] == "#") == (rows[14 - r][14 - c] == "#")
    covered = {}
    for s in grid.slots:
        for cell in s.cells:
            covered[cell] = covered.get(cell, 0) + 1
    assert set(covered.values()) == {2}  # every cell checked
    assert len(covered) == 225 - sum(row.count("#") for row in rows)


@pytest.mark.parametrize("text, needle", [
    ("...\n..\n...", "ragged grid: row 2"),
    ("...\n.*.\n...", "unknown character '*' at row 2, column 2"),
    ("#.#\n###", "no slot"),
    ("", "no rows"),
    # 'İ' lower-cases to 'i' + a combining dot: two characters, not one given letter
    ("İ.\n..", "given letter 'İ' at row 1, column 1 is not a single letter"),
    (".ক়\n..", "unknown character"),  # a decomposed letter: the mark is no cell of its own
    ("." * 1001 + "\n" + "." * 1001, "bad grid size 1001x2 (width and height must be 1 to 1000)"),
    ("..\n" * 1001, "bad grid size 2x1001"),
])
def test_bad_text_grids(text, needle):
    with pytest.raises(GridError) as err:
        parse_text(text)
    assert needle in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("text, needle", [
    ("3 x\n0 0 3 h", "expected 'W H'"),
    ("3 3\n0 0 3 d", "expected 'x y length h|v'"),
    ("3 3\n0 0 4 h", "leaves the 3x3 grid"),
    ("3 3\n0 0 3 h\n1 0 2 h", "overlaps slot 1"),
    ("100000 100000\n0 0 3 h", r"bad grid size 100000x100000 \(width and height must be 1 to 1000"),
    ("1001 3\n0 0 3 h", "bad grid size 1001x3"),
    ("0 0\n0 0 3 h", "bad grid size 0x0"),
    ("3 3\n0 0 1000000000000 h", "leaves the 3x3 grid"),  # refused before listing its cells
    ("3 3\n0 -1 2 v", "leaves the 3x3 grid"),
])
def test_bad_slot_lists(text, needle):
    with pytest.raises(GridError, match=needle):
        parse_slots(text)


def test_grid_size_limit_is_inclusive():
    grid = parse_slots("1000 1000\n0 0 1000 h\n999 0 1000 v")
    grid._check()
    assert (grid.width, grid.height) == (1000, 1000) and [s.length for s in grid.slots] == \
        [1000, 1000]
    assert parse_text(("." * 1000 + "\n") * 2).width == 1000


def test_given_letters_are_stored_as_one_lower_case_letter():
    grid = parse_text("Ä.\n.Я")
    grid._check()
    assert grid.given == {(0, 0): "ä", (1, 1): "я"}
    ipuz = json.dumps({"kind": ["http://ipuz.org/crossword#1"],
                       "dimensions": {"width": 2, "height": 2},
                       "puzzle": [[{"cell": 1, "value": "A\u0308"}, 0], [0, 0]]})
    assert parse_ipuz(ipuz).given == {(0, 0): "ä"}  # NFC: one letter
    with pytest.raises(GridError, match="not a single letter"):
        Grid.from_cells(2, 2, [(0, 0), (0, 1)], {(0, 0): "İ"})


def test_bad_ipuz():
    with pytest.raises(GridError, match="not valid JSON"):
        parse_ipuz("{nope")
    with pytest.raises(GridError, match="not an ipuz crossword"):
        parse_ipuz(json.dumps({"kind": ["http://ipuz.org/sudoku#1"]}))
    with pytest.raises(GridError, match="puzzle row 1"):
        parse_ipuz(json.dumps({"kind": ["http://ipuz.org/crossword#1"],
                               "dimensions": {"width": 3, "height": 1}, "puzzle": [[0, 0]]}))
    for width, height in [(100000, 100000), (1001, 1), (0, 2), (2, -1)]:
        with pytest.raises(GridError, match=f"bad grid size {width}x{height} .* 1 to 1000"):
            parse_ipuz(json.dumps({"kind": ["http://ipuz.org/crossword#1"],
                                   "dimensions": {"width": width, "height": height},
                                   "puzzle": [[0] * max(width, 0)] * max(height, 0)
                                   if width * height < 10 else []}))
    for value in ["İ", "ab"]:
        with pytest.raises(GridError, match=f"given letter '{value}' in ipuz at row 1, column 2 "
                                            f"is not a single letter"):
            parse_ipuz(json.dumps({"kind": ["http://ipuz.org/crossword#1"],
                                   "dimensions": {"width": 2, "height": 1},
                                   "puzzle": [[0, {"cell": 0, "value": value}]]}))


def test_unreadable_files(tmp_path):
    with pytest.raises(GridError, match="not found"):
        read_grid(tmp_path / "missing.txt")
    with pytest.raises(GridError, match="directory"):
        read_grid(tmp_path)
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("..é\n...".encode("latin-1"))
    with pytest.raises(GridError, match="not UTF-8"):
        read_grid(bad)
    with pytest.raises(GridError, match="clue file not found"):
        read_clues(str(tmp_path / "nope.tsv"))
    with pytest.raises(GridError, match="clue file is a directory"):
        read_clues(str(tmp_path))
    with pytest.raises(GridError, match=f"^clue file is not UTF-8 text: {bad} \\(byte 0x"):
        read_clues(str(bad))


def test_read_clues_closes_its_file(tmp_path):
    import gc
    import warnings

    path = tmp_path / "clues.tsv"
    path.write_text("# comment\nCat\ta pet\n\ndog\t a friend \n", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clues = read_clues(str(path))
        gc.collect()
    assert clues == {"cat": "a pet", "dog": "a friend"}
    # its own file only: the collection may also find other tests' garbage
    assert [w for w in caught if issubclass(w.category, ResourceWarning)
            and str(path) in str(w.message)] == []


def test_slot_longer_than_any_word_and_unknown_letter():
    idx = Index.from_counts({"ab": 2, "ba": 1})
    with pytest.raises(CryptocompError, match="longer than any word"):
        fill(parse_text("...\n..."), idx)
    with pytest.raises(CryptocompError, match="letter 'z'"):
        fill(parse_text("z.\n.."), idx)
    with pytest.raises(CryptocompError, match="no word of that length"):
        fill(parse_text("..#...\n..#..."), Index.from_counts({"ab": 2, "abcd": 1, "ba": 1}))


def test_symmetric_square_model():
    grid = square_grid(3, symmetric=True)
    grid._check()
    letters = grid.letters_of(["bat", "are", "tea"])
    assert format_text(grid, letters) == "bat\nare\ntea\n"
    with pytest.raises(GridError):
        square_grid(1)


def test_svg_has_numbers_blocks_and_letters():
    grid = read_grid(DATA / "grid_small.txt")
    svg = to_svg(grid, {(2, 2): "c"})
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count('fill="black"/>') == 4
    assert ">8</text>" in svg and ">C</text>" in svg


def test_cli_errors_are_one_line(tmp_path, capsys):
    from cryptocomp.cli import main

    bad = tmp_path / "bad.txt"
    bad.write_text("..\n...\n", encoding="utf-8")
    assert main(["fill", str(bad), "--dict", str(DATA / "grid_words.txt")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cryptocomp: error: ragged grid") and "\n" not in err
    assert main(["fill", str(tmp_path / "none.txt")]) == 2
    assert "not found" in capsys.readouterr().err
