"""Across Lite .puz: random puzzles written by cryptocomp read back by puzpy (the independent
reader: checksums, grid, numbering, clues, rebus, circles) and by cryptocomp's own reader;
puzzles puzpy writes read by cryptocomp; the encodings; the CLI's --puz and .puz input."""

from __future__ import annotations

import json

import puz
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_cases import puzzles

from cryptocomp.cli import main
from cryptocomp.crossword import read_grid
from cryptocomp.crossword.grid import Grid
from cryptocomp.crossword.gridfile import read_puzzle
from cryptocomp.crossword.puz import MAX_PUZ_SIDE, checksum, parse_puz, to_puz
from cryptocomp.crossword.puzzle import Puzzle, PuzzleError, capitals, clue_order, puzzle_of


def _cell_index(p: Puzzle) -> list[tuple[int, int]]:
    return [(r, c) for r in range(p.grid.height) for c in range(p.grid.width)]


def _check_with_puzpy(p: Puzzle, data: bytes) -> None:
    """What puzpy reads in ``data`` is ``p``: every field, checked one by one."""
    q = puz.load(data)  # puzpy checks the overall, CIB, masked and section checksums
    assert (q.width, q.height) == (p.grid.width, p.grid.height)
    cells = _cell_index(p)
    open_cells = p.grid.cells
    assert q.solution == "".join(
        "." if cell not in open_cells else capitals(p.solution.get(cell, "-")[:1], "latin-1")
        for cell in cells)
    assert q.fill == "".join("." if cell not in open_cells else
                             capitals(p.grid.given.get(cell, "-"), "latin-1") for cell in cells)
    assert (q.title, q.author, q.copyright, q.notes) == (p.title, p.author, p.copyright,
                                                          p.notes)
    numbering = q.clue_numbering()
    numbers = p.grid.numbers()
    for direction, entries in (("across", numbering.across), ("down", numbering.down)):
        ours = [s for s in p.grid.slots if s.direction == direction]
        assert [(e["num"], (e["row"], e["col"]), e["len"]) for e in entries] == \
            [(numbers[s.start], s.start, s.length) for s in ours]
        assert [e["clue"] for e in entries] == [p.clue(s) for s in ours]
    assert q.clues == [p.clue(s) for s in clue_order(p.grid)]
    rebus = q.rebus()
    assert rebus.has_rebus() == bool(p.rebus)
    if p.rebus:
        assert {cells[i]: rebus.solutions[k - 1] for i, k in enumerate(rebus.table) if k} == \
            {cell: capitals(text, "latin-1") for cell, text in p.rebus.items()}
    markup = q.markup().markup if q.has_markup() else [0] * len(cells)
    assert {cells[i] for i, m in enumerate(markup) if m & 0x80} == p.circles


@settings(max_examples=80)
@given(puzzles())
def test_random_puzzles_round_trip_through_puzpy_and_our_reader(p):
    data = to_puz(p)
    assert data[0x18:0x1C] == b"1.3\0"
    _check_with_puzpy(p, data)
    assert parse_puz(data) == p


@settings(max_examples=40)
@given(puzzles(text=st.text(st.sampled_from("абвгд жзэюя«»—ab"), max_size=20),
               letters="abcxyz"))
def test_text_beyond_latin1_writes_version_2_in_utf8(p):
    data = to_puz(p)
    texts = [p.title, p.author, p.copyright, p.notes, *p.clues.values()]
    latin = all(ord(ch) < 256 for t in texts for ch in t)
    assert data[0x18:0x1C] == (b"1.3\0" if latin else b"2.0\0")
    _check_with_puzpy(p, data)
    assert parse_puz(data) == p


def test_cyrillic_letters_are_refused_in_one_line():
    p = puzzle_of(Grid.from_rows(["да", ".."]), ["да", "..", "д.", "а."])
    with pytest.raises(PuzzleError, match=r"row 1, column 1 has none \(write ipuz or .jpz\)"):
        to_puz(p)


def test_side_limit_is_one_byte():
    wide = Grid.from_rows(["." * MAX_PUZ_SIDE])
    assert parse_puz(to_puz(puzzle_of(wide))).grid == wide
    with pytest.raises(PuzzleError, match="at most 255 cells a side"):
        to_puz(puzzle_of(Grid.from_rows(["." * (MAX_PUZ_SIDE + 1)])))


def test_symmetric_square_is_written_drawn():
    from cryptocomp.crossword.square import square_grid

    g = square_grid(3, symmetric=True)
    q = parse_puz(to_puz(puzzle_of(g, ["bat", "are", "tea"], clues={"bat": "Club"})))
    assert [q.answer(s) for s in q.grid.slots] == ["bat", "are", "tea"] * 2
    assert q.clues == {"1-across": "Club", "1-down": "Club"}


def test_puzzles_puzpy_writes_read_by_us():
    q = puz.Puzzle()
    q.width, q.height = 3, 3
    q.solution, q.fill = "CAT.O.BUN".replace(".O.", "O.E"), "C--.-.---".replace(".-.", "-.-")
    q.title, q.author, q.copyright, q.notes = "Tiny", "Ann", "(c) Ann", "a note"
    q.clues = ["Feline", "Corn centre", "Number", "Roll"]  # 1A 1D 2D 3A
    q.rebus().add_rebus_squares(8, "NX")
    q.rebus().save()
    q.markup().markup = [0x80] + [0] * 8
    q.markup().save()
    p = parse_puz(q.tobytes())
    assert p.grid.given == {(0, 0): "c"} and p.title == "Tiny" and p.notes == "a note"
    assert p.clues == {"1-across": "Feline", "1-down": "Corn centre", "2-down": "Number",
                       "3-across": "Roll"}
    assert p.solution[(2, 2)] == "nx" and p.circles == {(0, 0)}
    assert [p.answer(s) for s in p.grid.slots] == ["cat", "bunx", "cob", "tenx"]


@given(st.binary(max_size=300), st.integers(0, 0xFFFF))
def test_checksum_is_puzpys(data, start):
    assert checksum(data, start) == puz.data_cksum(data, start)
    assert checksum(b"\xff" * 3) == 0x41BE  # 0xff; rotated 0x807f + 0xff; 0x40bf + 0xff


# -- the CLI ------------------------------------------------------------------------------

def _words_file(tmp_path, words):
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{w} {1000 - i}\n" for i, w in enumerate(words)), encoding="utf-8")
    return path


def test_fill_writes_puz_and_jpz_with_clues_and_reads_them_as_grids(tmp_path, capsys):
    words = ["car", "cat", "cob", "ten", "bun", "arc", "tar"]
    grid = tmp_path / "g.txt"
    grid.write_text("...\n.#.\n...\n", encoding="utf-8")
    wf = _words_file(tmp_path, words)
    clues = tmp_path / "clues.tsv"
    clues.write_text("cat\tFeline\ncob\tCorn centre\n", encoding="utf-8")
    out_puz, out_jpz, out_ipuz = tmp_path / "o.puz", tmp_path / "o.jpz", tmp_path / "o.ipuz"
    assert main(["fill", str(grid), "--dict", str(wf), "--clues", str(clues), "--puz",
                 str(out_puz), "--jpz", str(out_jpz), "--ipuz", str(out_ipuz)]) == 0
    capsys.readouterr()
    q = puz.read(str(out_puz))
    doc = json.loads(out_ipuz.read_text(encoding="utf-8"))
    assert q.solution == "".join(ch or "." for row in doc["solution"] for ch in row
                                 ).replace("#", ".")
    assert "Feline" in q.clues and "Corn centre" in q.clues and "(clue)" in q.clues
    g = read_grid(grid)
    for path in (out_puz, out_jpz):
        assert read_grid(path).slots == g.slots
        assert read_puzzle(path) == read_puzzle(out_puz)
    # a .puz in, a .puz out: the grid fills again, its circles kept
    assert main(["fill", str(out_puz), "--dict", str(wf), "--puz", str(out_puz)]) == 0
    assert read_puzzle(out_puz).grid == g


def test_square_writes_puz(tmp_path, capsys):
    wf = _words_file(tmp_path, ["bat", "are", "tea", "art", "ear", "tar", "rat", "eta", "ate"])
    out = tmp_path / "sq.puz"
    assert main(["square", "3", "--symmetric", "--dict", str(wf), "--puz", str(out)]) == 0
    capsys.readouterr()
    q = puz.read(str(out))
    rows = [q.solution[i:i + 3] for i in range(0, 9, 3)]
    assert all(rows[i][j] == rows[j][i] for i in range(3) for j in range(3))
    assert q.title == "3x3 square" and q.clues == ["(clue)"] * 6


def test_cli_refuses_what_puz_cannot_hold_in_one_line(tmp_path, capsys):
    wf = _words_file(tmp_path, ["да", "ад", "дд", "аа"])
    out = tmp_path / "ru.puz"
    assert main(["square", "2", "--symmetric", "--dict", str(wf), "--puz", str(out)]) == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]  # after the index's "saved" line
    assert last.startswith("cryptocomp: error: .puz holds one byte a cell: the letter 'д'")
    assert not out.exists()


def test_circles_of_a_puz_go_on_to_the_ipuz_written(tmp_path, capsys):
    q = puz.Puzzle()
    q.width, q.height = 3, 3
    q.solution, q.fill = "CATO.EBUN", "----.----"
    q.clues = ["Feline", "Corn centre", "Number", "Roll"]
    q.markup().markup = [0x80] + [0] * 7 + [0x80]
    q.markup().save()
    source = tmp_path / "c.puz"
    source.write_bytes(q.tobytes())
    wf = _words_file(tmp_path, ["cat", "cob", "ten", "bun"])
    out = tmp_path / "c.ipuz"
    assert main(["fill", str(source), "--dict", str(wf), "--ipuz", str(out)]) == 0
    capsys.readouterr()
    doc = json.loads(out.read_text(encoding="utf-8"))
    circled = {(r, c) for r, row in enumerate(doc["puzzle"]) for c, cell in enumerate(row)
               if isinstance(cell, dict) and cell.get("style") == {"shapebg": "circle"}}
    assert circled == {(0, 0), (2, 2)}
    assert doc["puzzle"][0][0]["cell"] == 1 and doc["puzzle"][2][2]["cell"] == 0


def test_a_russian_square_is_titled_in_russian(tmp_path, capsys):
    wf = _words_file(tmp_path, ["да", "ад", "дд", "аа"])
    out = tmp_path / "ru.ipuz"
    assert main(["square", "2", "--symmetric", "--dict", str(wf), "--ipuz", str(out)]) == 0
    capsys.readouterr()
    assert json.loads(out.read_text(encoding="utf-8"))["title"] == "Квадрат 2×2"
