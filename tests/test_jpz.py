"""Crossword Compiler .jpz: random puzzles written by cryptocomp checked element by element with
the standard library's ElementTree (an independent reading) and read back by our reader; a
file in Crossword Compiler's own style (prefixes, inline markup, voids); the CLI's --jpz."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_cases import puzzles

from cryptocomp.cli import main
from cryptocomp.crossword.grid import Grid
from cryptocomp.crossword.gridfile import read_puzzle
from cryptocomp.crossword.jpz import parse_jpz, to_jpz
from cryptocomp.crossword.puzzle import Puzzle, capitals, puzzle_of

NS = {"a": "http://crossword.info/xml/crossword-compiler-applet",
      "p": "http://crossword.info/xml/rectangular-puzzle"}


def _check_with_elementtree(p: Puzzle, data: bytes) -> None:
    """What ElementTree reads in ``data`` is ``p``: cells, words, clues, metadata."""
    root = ET.fromstring(data)
    assert root.tag == f"{{{NS['a']}}}crossword-compiler-applet"
    puzzle = root.find("p:rectangular-puzzle", NS)
    meta = puzzle.find("p:metadata", NS)
    assert [meta.find(f"p:{k}", NS).text or "" for k in
            ("title", "creator", "copyright", "description")] == \
        [p.title, p.author, p.copyright, p.notes]
    grid = puzzle.find("p:crossword/p:grid", NS)
    assert (int(grid.get("width")), int(grid.get("height"))) == (p.grid.width, p.grid.height)
    numbers = p.grid.numbers()
    seen = {}
    for cell in grid.findall("p:cell", NS):
        rc = (int(cell.get("y")) - 1, int(cell.get("x")) - 1)
        seen[rc] = cell.get("type") == "block"
        if cell.get("type") == "block":
            assert rc not in p.grid.cells
            continue
        assert cell.get("solution") == (capitals(p.solution[rc]) if rc in p.solution else None)
        assert cell.get("number") == (str(numbers[rc]) if rc in numbers else None)
        assert cell.get("solve-state") == (capitals(p.grid.given[rc])
                                           if rc in p.grid.given else None)
        assert (cell.get("background-shape") == "circle") == (rc in p.circles)
    assert len(seen) == p.grid.width * p.grid.height
    words = {w.get("id"): (w.get("x"), w.get("y"))
             for w in puzzle.findall("p:crossword/p:word", NS)}
    lists = puzzle.findall("p:crossword/p:clues", NS)
    assert ["".join(c.find("p:title", NS).itertext()) for c in lists] == ["Across", "Down"]
    for clues, direction in zip(lists, ("across", "down")):
        ours = [s for s in p.grid.slots if s.direction == direction]
        got = []
        for clue in clues.findall("p:clue", NS):
            x, y = words[clue.get("word")]
            x0, _, x1 = x.partition("-")
            y0, _, y1 = y.partition("-")
            start = (int(y0) - 1, int(x0) - 1)
            end = (int(y1 or y0) - 1, int(x1 or x0) - 1)
            got.append((int(clue.get("number")), start, end, clue.text))
        assert got == [(numbers[s.start], s.start, s.cells[-1], p.clue(s)) for s in ours]


@settings(max_examples=50)
@given(puzzles())
def test_random_puzzles_round_trip_through_elementtree_and_our_reader(p):
    data = to_jpz(p)
    _check_with_elementtree(p, data)
    assert parse_jpz(data) == p


@settings(max_examples=40)
@given(puzzles(text=st.text(st.sampled_from("абвгд жзэюя«»—<>&\"'ab"), max_size=20),
               letters="абвгдеёжзийя"))
def test_cyrillic_letters_and_text_round_trip(p):
    data = to_jpz(p)
    _check_with_elementtree(p, data)
    assert parse_jpz(data) == p


CROSSWORD_COMPILER_STYLE = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<crossword-compiler-applet xmlns="http://crossword.info/xml/crossword-compiler-applet">
<applet-settings width="720" height="600"><completion>Well done!</completion></applet-settings>
<rectangular-puzzle xmlns="http://crossword.info/xml/rectangular-puzzle" alphabet="ABC">
<metadata><title>Tiny &amp; small</title><creator>Ann</creator><copyright/>
<description/></metadata>
<crossword>
<grid width="3" height="3">
<grid-look numbering-scheme="normal" clue-square-divider-width="0.7"/>
<cell x="1" y="1" solution="C" number="1" background-shape="circle"/>
<cell x="2" y="1" solution="A"/><cell x="3" y="1" solution="T" number="2"/>
<cell x="1" y="2" solution="O"/><cell x="2" y="2" type="void"/>
<cell x="3" y="2" solution="E"/>
<cell x="1" y="3" solution="B" number="3"/><cell x="2" y="3" solution="U"/>
<cell x="3" y="3" solution="NX" solve-state="N"/>
</grid>
<word id="11" x="1-3" y="1"/><word id="12" x="1-3" y="3"><cells x="1" y="3"/></word>
<word id="13" x="1" y="1-3"/><word id="14" x="3" y="1-3"/>
<clues ordering="normal"><title><b>Across</b></title>
<clue word="11" number="1" format="3"><i>Felis</i> catus</clue>
<clue word="12" number="3">Roll</clue></clues>
<clues ordering="normal"><title><b>Down</b></title>
<clue word="13" number="1">Corn centre</clue><clue word="14" number="2">(clue)</clue></clues>
</crossword></rectangular-puzzle></crossword-compiler-applet>
"""


def test_a_file_in_crossword_compilers_style():
    p = parse_jpz(CROSSWORD_COMPILER_STYLE)
    assert p.grid == Grid.from_rows(["...", ".#.", "..n"])
    assert p.clues == {"1-across": "Felis catus", "3-across": "Roll", "1-down": "Corn centre"}
    assert p.title == "Tiny & small" and p.circles == {(0, 0)} and p.rebus == {(2, 2): "nx"}
    assert [p.answer(s) for s in p.grid.slots] == ["cat", "bunx", "cob", "tenx"]


def test_fill_writes_jpz_and_reads_it_as_a_grid(tmp_path, capsys):
    words = {"cat": 9, "cob": 8, "ten": 7, "bun": 6}
    wf = tmp_path / "w.txt"
    wf.write_text("".join(f"{w} {n}\n" for w, n in words.items()), encoding="utf-8")
    src = tmp_path / "in.jpz"
    src.write_bytes(to_jpz(puzzle_of(Grid.from_rows(["c..", ".#.", "..."]), circles=[(0, 0)],
                                     title="Mine")))
    out = tmp_path / "out.jpz"
    assert main(["fill", str(src), "--dict", str(wf), "--jpz", str(out)]) == 0
    capsys.readouterr()
    p = read_puzzle(out)
    assert p.title == "Mine" and p.circles == {(0, 0)} and p.grid.given == {(0, 0): "c"}
    assert sorted(p.answer(s) for s in p.grid.slots) == sorted(words)
