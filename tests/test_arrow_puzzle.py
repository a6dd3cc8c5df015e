"""Arrow-word generation: every generated puzzle passes the independent checker; the
checker catches broken puzzles; fixed seeds give identical puzzles; bad input is one
clear error; JSON, text and SVG output."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET

import pytest

from cryptocomp import Index, arrowword
from cryptocomp.arrow.check import puzzle_problems, puzzle_quality
from cryptocomp.arrow.clues import ClueError, load_clues, parse_clue_list
from cryptocomp.arrow.generator import (
    ArrowError,
    ArrowParams,
    attempt,
    build_workshop,
    register_workshop,
)
from cryptocomp.arrow.phrases import PhraseError, parse_phrases
from cryptocomp.arrow.svg import arrow_svg, wrap_clue
from cryptocomp.cli import main

_CYRILLIC = dict(zip("abcdefghijklmnopqrstuvwxyz", "абвгдежзийклмнопрстуфхцчшщ"))


@pytest.fixture(scope="module")
def book():
    return load_clues("wordnet")


@pytest.fixture(scope="module")
def english(book):
    """The WordNet words of 2-8 letters ranked by their number of senses."""
    return Index.from_counts({w: book.senses(w) for w in book if len(w) <= 8}, name="wn8",
                             params={"lang": "en"})


@pytest.fixture(scope="module")
def cyrillic(book):
    """The same words spelt letter for letter in Cyrillic: any alphabet must work."""
    return Index.from_counts({"".join(_CYRILLIC[ch] for ch in w): book.senses(w)
                              for w in book if len(w) <= 8}, name="cyr")


PHRASES = parse_phrases("Time is money\nLet it be\nSeize the day\nAll is well\nBe kind\n"
                        "Go for it\nSo be it\nStay calm\nNo pain no gain\nDream big\n")


def _check(puzzle, index, clued=True):
    doc = puzzle.to_json()
    assert puzzle_problems(doc, words=index.__contains__, clued=clued) == []
    return doc


def test_generated_puzzles_pass_the_independent_checker(english, book):
    seen_phrases = []
    result = arrowword((7, 7), index=english, clues=book, phrases=PHRASES, count=4, seed=11)
    assert result.complete and len(result.puzzles) == 4
    for p in result.puzzles:
        doc = _check(p, english)
        assert doc["format"] == 1 and doc["width"] == doc["height"] == 7
        assert set(doc) >= {"format", "width", "height", "grid", "words", "hidden", "stats"}
        assert set(doc["stats"]) >= {"attempts", "seconds", "penalties"}
        for w in doc["words"]:
            assert set(w) >= {"word", "clue", "row", "col", "direction", "clue_cell"}
            assert w["clue"] in book.printed(w["word"])
        if p.hidden:
            seen_phrases.append(p.hidden.phrase)
    assert len(seen_phrases) == len(set(seen_phrases))  # each phrase at most once a batch


@pytest.mark.parametrize("size", [(5, 5), (6, 8), (9, 6), (10, 10)])
def test_sizes_and_shapes(english, book, size):
    result = arrowword(size, index=english, clues=book, phrases="none", seed=2)
    p = result.puzzle
    assert (p.width, p.height) == size and p.hidden is None
    _check(p, english)


def test_any_alphabet_without_clues(cyrillic):
    result = arrowword((8, 8), index=cyrillic, clues="none", phrases="none", count=2, seed=5)
    for p in result.puzzles:
        doc = _check(p, cyrillic, clued=False)
        assert all(w["clue"] is None and w["number"] >= 1 for w in doc["words"])
        assert all(ch == "#" or "а" <= ch <= "щ" for row in doc["grid"] for ch in row)
        text = p.text()
        assert "→" in text or "↓" in text


@pytest.mark.slow
def test_fixed_seeds_give_identical_puzzles_whatever_the_workers(english, book):
    def run(workers):
        r = arrowword((7, 7), index=english, clues=book, phrases=PHRASES, count=2, seed=42,
                      workers=workers)
        return [{k: v for k, v in p.to_json().items() if k != "stats"} | {
            "attempts": p.stats["attempts"]} for p in r.puzzles]

    one = run(1)
    assert run(1) == one
    assert run(2) == one
    other = arrowword((7, 7), index=english, clues=book, phrases=PHRASES, count=1, seed=43)
    assert other.puzzle.grid != tuple(one[0]["grid"])


def test_attempt_is_a_plain_function_of_params_and_seed(english, book):
    params = ArrowParams(8, 8, clues="object", phrases="none", key="test-attempt")
    register_workshop(params, build_workshop(ArrowParams(8, 8, phrases="none"), english,
                                             clues=book))
    a, b = attempt(params, 1234), attempt(params, 1234)
    assert a.ok and (a.grid, a.words) == (b.grid, b.words)


def test_the_checker_catches_broken_puzzles(english, book):
    doc = arrowword((7, 7), index=english, clues=book, phrases=PHRASES, seed=3).puzzle.to_json()
    assert puzzle_problems(doc, words=english.__contains__) == []

    def broken(change):
        d = copy.deepcopy(doc)
        change(d)
        return puzzle_problems(d, words=english.__contains__)

    first = doc["words"][0]
    r, c = first["row"], first["col"]

    def set_cell(d, r, c, ch):
        d["grid"][r] = d["grid"][r][:c] + ch + d["grid"][r][c + 1:]

    assert broken(lambda d: set_cell(d, r, c, "q" if d["grid"][r][c] != "q" else "z"))
    assert broken(lambda d: set_cell(d, 0, 3, "a"))
    assert broken(lambda d: d["words"].pop())
    assert broken(lambda d: d["words"].append(dict(d["words"][0])))
    assert broken(lambda d: d["words"][0].update(clue=None))
    assert broken(lambda d: d["words"][0].update(clue=f"{first['word']}s"))
    assert broken(lambda d: d["words"][0].update(clue_cell=[r + 5, c + 5]))
    assert broken(lambda d: d.update(grid=d["grid"][:-1]))
    assert any("not in the word source" in x
               for x in puzzle_problems(doc, words=lambda w: w != first["word"]))
    if doc["hidden"]:
        assert broken(lambda d: d["hidden"].update(phrase="zzzz"))
        assert broken(lambda d: d["hidden"]["cells"].reverse())
    # a letter that only one word crosses, and a cut-off island
    assert broken(lambda d: set_cell(d, 1, 1, "#") or set_cell(d, 1, 2, "#"))
    island = {"format": 1, "width": 5, "height": 5, "hidden": None,
              "grid": ["#####", "#ab##", "#cd##", "###ef", "###gh"], "words": []}
    assert any("separate regions" in x for x in puzzle_problems(island))
    assert puzzle_quality(island)["islands"] == 1


def test_bad_input_is_one_line(tmp_path, capsys, english):
    for size in ("4x4", "33x10", "ten", "0x0"):
        assert main(["swedish", "--size", size, "--clues", "none"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "error" in err
    with pytest.raises(ArrowError, match="out of range"):
        arrowword((4, 9), index=english)
    words = tmp_path / "words.txt"
    words.write_text("cat 5\ndog 4\n", encoding="utf-8")
    clues = tmp_path / "clues.tsv"
    clues.write_text("zebra\tStriped horse\n", encoding="utf-8")
    assert main(["swedish", "--size", "8x8", "--dict", str(words), "--clues", str(clues)]) == 2
    assert "no word of the dictionary" in capsys.readouterr().err
    clues.write_text("cat\tFeline\ndog Canine\n", encoding="utf-8")
    assert main(["swedish", "--size", "8x8", "--dict", str(words), "--clues", str(clues)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and err.count("\n") == 1
    phrases = tmp_path / "phrases.txt"
    phrases.write_text("ab\n# nothing\n", encoding="utf-8")
    assert main(["swedish", "--size", "8x8", "--dict", str(words), "--clues", "none",
                 "--phrases", str(phrases)]) == 2
    err = capsys.readouterr().err
    assert "no usable phrase" in err and err.count("\n") == 1
    with pytest.raises(ClueError):
        arrowword((8, 8), index=english, clues=str(tmp_path / "missing.tsv"))
    with pytest.raises(PhraseError):
        arrowword((8, 8), index=english, clues="none", phrases=str(phrases))


def test_cli_json_lines_svg_and_text(tmp_path, capsys, book):
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w} {book.senses(w)}\n" for w in book if len(w) <= 7),
                     encoding="utf-8")
    clue_file = tmp_path / "clues.tsv"
    clue_file.write_text("".join(f"{w}\t{c}\n" for w in book if len(w) <= 7
                                 for c in book.clues(w)[:2]), encoding="utf-8")
    phrases = tmp_path / "phrases.txt"
    phrases.write_text("Time is money\nLet it be\nSeize the day\nBe kind\n", encoding="utf-8")
    svg = tmp_path / "p.svg"
    sol = tmp_path / "s.svg"
    args = ["swedish", "--size", "8x8", "--dict", str(words), "--clues", str(clue_file),
            "--phrases", str(phrases), "--seed", "7", "--workers", "1"]
    assert main(args + ["--count", "2", "--json", "--svg", str(svg), "--svg-solution",
                        str(sol)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    docs = [json.loads(x) for x in lines]
    for d in docs:
        assert puzzle_problems(d) == []
    for path in (svg, sol, tmp_path / "p-2.svg", tmp_path / "s-2.svg"):
        root = ET.fromstring(path.read_text(encoding="utf-8"))
        assert root.tag.endswith("svg")
    assert main(args + ["--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    for d in (again, docs[0]):
        d["stats"].pop("seconds")
    assert again == docs[0]  # same seed, same first puzzle
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("# puzzle 1: 8x8") and "→" in out


def test_svg_marks_hidden_cells_and_wraps_clues(english, book):
    p = arrowword((9, 9), index=english, clues=book, phrases=PHRASES, seed=9).puzzle
    svg = arrow_svg(p)
    ET.fromstring(svg)
    assert "<polygon" in svg  # arrows
    if p.hidden:
        assert svg.count('fill="#ffe08a"') == len(p.hidden.cells)
    solution = arrow_svg(p, solution=True)
    for ch in set(p.reading()):
        assert f">{ch.upper()}</text>" in solution
    size, lines = wrap_clue("Intensely fashionable for a short time", 60, 60)
    assert len(lines) >= 3 and size <= 11
    size, lines = wrap_clue("Supercalifragilisticexpialidocious", 30, 30)
    assert all(len(line) < 34 for line in lines)


def test_budget_stops_the_run(english, book):
    result = arrowword((14, 14), index=english, clues=book, phrases="none", count=50,
                       seconds=1.0, steps=5)
    assert not result.complete and "time budget" in result.message
    assert result.wall_seconds < 1.0 * 1.1 + 1


def test_clue_file_in_another_alphabet(cyrillic, book):
    """A word<TAB>clue file for a Cyrillic word list: every word gets one of its clues."""
    lines = []
    for w in book:
        if len(w) <= 8:
            cyr = "".join(_CYRILLIC[ch] for ch in w)
            lines += [f"{cyr}\t{c}" for c in book.clues(w)[:2]]
    clue_book = parse_clue_list("\n".join(lines))
    p = arrowword((8, 8), index=cyrillic, clues=clue_book, phrases="none", seed=4).puzzle
    doc = _check(p, cyrillic)
    for w in doc["words"]:
        assert w["clue"] in [c[:1].upper() + c[1:] for c in clue_book.clues(w["word"])]


def test_yo_is_folded_for_a_folded_dictionary():
    index = Index.from_counts({"елка": 5, "мед": 3}, params={"lang": "ru", "fold_yo": True})
    clue_book = parse_clue_list("ёлка\tДерево\nмёд\tСладость\nмед\tЛекарство от пчёл\n")
    shop = build_workshop(ArrowParams(8, 8, phrases="none"), index, clues=clue_book)
    assert sorted(shop.index.words) == ["елка", "мед"]
    assert shop.clue_word["елка"] == "ёлка"
    phrases = parse_phrases("Ёлка на горке\n", fold_yo=True)
    assert phrases[0].letters == "елканагорке"


def test_svg_solution_of_an_unclued_puzzle_lists_the_answers(cyrillic):
    p = arrowword((8, 8), index=cyrillic, clues="none", phrases="none", seed=6).puzzle
    svg = arrow_svg(p, solution=True)
    ET.fromstring(svg)
    for w in p.words:
        assert f" {w.word.upper()}</text>" in svg
    assert f" {p.words[0].word.upper()}</text>" not in arrow_svg(p)
