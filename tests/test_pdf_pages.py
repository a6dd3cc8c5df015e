"""The PDF pages (cryptocomp.pages) read back with pypdf: page counts, every clue on the
puzzle page, every answer in the solution grid, Cyrillic text extractable, paper sizes, fonts
embedded; the typography (quotes, hyphenation, wrapping) against its rules."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pdf_reading import embedded_fonts, flat, letter_rows, page_texts, paper, reader

from cryptocomp import Index, arrowword
from cryptocomp.arrow.clues import load_clues
from cryptocomp.arrow.phrases import parse_phrases
from cryptocomp.crossword.grid import Grid
from cryptocomp.crossword.square import square_grid
from cryptocomp.cryptarithm.solve import solve
from cryptocomp.pages import (
    PAPERS,
    PageError,
    SheetEntry,
    arrow_pdf,
    break_points,
    clue_entries,
    crossword_pdf,
    curly,
    language_of,
    quoted,
    sheet_pdf,
    solved_entry,
    wrap,
)
from cryptocomp.pages.document import text_width
from cryptocomp.pages.typography import VOWELS

A4 = (595, 842)
LETTER = (612, 792)

# a 4x4 grid with two blocks and its fill, rows as drawn
ROWS = ["#cat", "oboe", "wore", "lean"]
GRID = Grid.from_rows(["#...", "....", "....", "...."])


def _fill(grid: Grid, rows: list[str]) -> list[str]:
    return ["".join(rows[r][c] for r, c in s.cells) for s in grid.slots]


FILL = _fill(GRID, ROWS)
CLUES = {"cat": 'A "pet" that purrs', "oboe": "Reed instrument", "lean": "Thin",
         "owl": "Night bird", "ore": "Rock with metal"}


def test_crossword_pages_clues_answers_and_paper():
    data = crossword_pdf(GRID, FILL, clues=CLUES, title="Tiny")
    texts = page_texts(data)
    assert len(texts) == 2
    puzzle, solution = texts
    for entry in clue_entries(GRID, FILL, CLUES):
        if entry.clue is None:
            continue
        assert flat(curly(entry.clue, "en")) in flat(puzzle)
    assert "“pet”" in puzzle  # straight quotes turned into English ones
    assert "Tiny: solution" in solution
    assert puzzle.count("[clue needed]") == sum(1 for w in FILL if w not in CLUES)
    assert "Across" in puzzle and "Down" in puzzle
    assert not any(w.upper() in puzzle for w in FILL)  # no answer on the puzzle page
    assert letter_rows(reader(data).pages[1]) == [r.replace("#", "").upper() for r in ROWS]
    assert paper(data) == {A4}
    assert {n.lstrip("/").split("+")[-1] for n in embedded_fonts(data)} == \
        {"DejaVuSans", "DejaVuSans-Bold"}


def test_submission_layout_puts_every_answer_right_of_its_clue():
    data = crossword_pdf(GRID, FILL, clues=CLUES, layout="submission", paper="letter")
    texts = page_texts(data)
    assert len(texts) == 3 and paper(data) == {LETTER}
    for entry in clue_entries(GRID, FILL, CLUES):
        assert entry.answer.upper() in texts[1]
    assert "ACROSS" in texts[1] and "DOWN" in texts[1]
    assert not any(w.upper() in texts[0] for w in FILL)


def test_without_a_fill_only_the_grid_is_printed():
    data = crossword_pdf(GRID, None)
    texts = page_texts(data)
    assert len(texts) == 1 and texts[0].count("[clue needed]") == len(GRID.slots)


def test_a_symmetric_square_is_drawn_whole():
    grid = square_grid(3, symmetric=True)
    rows = ["bat", "are", "tea"]
    words = [rows[i] for i in range(3)]
    data = crossword_pdf(grid, words, clues={"bat": "Club", "are": "Exist", "tea": "Brew"})
    assert letter_rows(reader(data).pages[1]) == [r.upper() for r in rows]
    assert page_texts(data)[0].count("Club") == 2  # 1 across and 1 down


def test_cyrillic_pages_read_back():
    rows = ["#кот", "овод", "сода", "алан"]
    fill = _fill(GRID, rows)
    data = crossword_pdf(GRID, fill, clues={"кот": 'Зверь "мурлыка"'})
    puzzle, solution = page_texts(data)
    assert "По горизонтали" in puzzle and "По вертикали" in puzzle
    assert "«мурлыка»" in puzzle and "[нужно определение]" in puzzle
    assert "Кроссворд: ответы" in solution
    assert letter_rows(reader(data).pages[1]) == [r.replace("#", "").upper() for r in rows]


def test_bad_choices_are_one_line_errors():
    with pytest.raises(PageError, match="unknown paper size 'a5'"):
        crossword_pdf(GRID, FILL, paper="a5")
    with pytest.raises(PageError, match="unknown layout"):
        crossword_pdf(GRID, FILL, layout="poster")
    with pytest.raises(PageError, match="no arrow-word puzzle"):
        arrow_pdf([])
    with pytest.raises(PageError, match="no cryptarithm"):
        sheet_pdf([])


def test_same_puzzle_same_bytes():
    assert crossword_pdf(GRID, FILL, clues=CLUES) == crossword_pdf(GRID, FILL, clues=CLUES)


# -- arrow-word puzzles -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def book():
    return load_clues("wordnet")


@pytest.fixture(scope="module")
def puzzles(book):
    index = Index.from_counts({w: book.senses(w) for w in book if len(w) <= 8}, name="wn8",
                              params={"lang": "en"})
    phrases = parse_phrases("Time is money\nLet it be\nSeize the day\nBe kind\n")
    return arrowword((9, 9), index=index, clues=book, phrases=phrases, seed=3,
                     count=2).puzzles


@pytest.mark.slow  # the WordNet clues and two puzzles: about 10 s
def test_arrow_batch_is_one_pdf_puzzles_then_solutions(puzzles):
    assert any(p.hidden is not None for p in puzzles)
    data = arrow_pdf(puzzles, paper="letter")
    texts = page_texts(data)
    assert len(texts) == 4 and paper(data) == {LETTER}
    pages = reader(data).pages
    for i, puzzle in enumerate(puzzles):
        page = flat(texts[i])
        for word in puzzle.words:
            assert flat(word.clue) in page, word.clue
        assert ("Hiddensolution" in page) == (puzzle.hidden is not None)
        rows = letter_rows(pages[2 + i])
        assert rows == [r.replace("#", "").upper() for r in puzzle.grid if r.replace("#", "")]
        if puzzle.hidden is not None:
            assert quoted(puzzle.hidden.phrase, "en") in texts[2 + i]
        assert f"Arrow-word puzzle {i + 1}" in texts[i]


@pytest.mark.slow  # the WordNet words spelt in Cyrillic: about 6 s
def test_unclued_cyrillic_arrow_puzzle_lists_its_answers(book):
    table = dict(zip("abcdefghijklmnopqrstuvwxyz", "абвгдежзийклмнопрстуфхцчшщ"))
    index = Index.from_counts({"".join(table[ch] for ch in w): book.senses(w)
                               for w in book if len(w) <= 8}, name="cyr")
    puzzle = arrowword((8, 8), index=index, clues="none", phrases="none", seed=6).puzzle
    data = arrow_pdf([puzzle])
    first, solution = page_texts(data)
    assert "Сканворд" in first
    for word in puzzle.words:
        assert word.word.upper() in solution
        assert word.word.upper() not in first


# -- cryptarithm sheets -----------------------------------------------------------------------

def test_sheet_puzzles_boxes_and_answer_key():
    solved = [solve("send+more=money"), solve("сорок+сорок=теперь")]
    entries = [solved_entry(s) for s in solved]
    first = entries[0]
    entries[0] = SheetEntry(first.puzzle, first.solution, first.assignment,
                            notes=['difficulty: "easy"', "step " * 80])
    data = sheet_pdf(entries * 6)
    texts = page_texts(data)
    key = "".join(texts[1:])
    assert "SEND + MORE = MONEY" in texts[0] and "СОРОК + СОРОК = ТЕПЕРЬ" in texts[0]
    assert "9567 + 1085 = 10652" in key and "86365 + 86365 = 172730" in key
    assert "“easy”" in key and key.count("step") == 6 * 80
    assert "Числовые ребусы" in texts[0] and "Ответы" in key


def test_a_puzzle_of_many_solutions_says_so_and_none_is_refused():
    entry = solved_entry(solve("ab+ba=cc"))
    assert entry.notes and "solutions" in entry.notes[0]
    with pytest.raises(PageError, match="no solution"):
        solved_entry(solve("ab+ab=ab"))


# -- typography -------------------------------------------------------------------------------

def test_quotes_and_language():
    assert quoted("Не беда", "ru") == "«Не беда»" and quoted("So be it", "en") == "“So be it”"
    assert curly('a "b" c "d', "en") == 'a “b” c "d'
    assert language_of(["cat", "кот"]) == "ru" and language_of(["cat"]) == "en"
    assert set(PAPERS) == {"a4", "letter"}


def test_break_points_follow_the_syllable_rule():
    assert break_points("камера") == [2, 4]
    assert break_points("карта") == [3]
    assert 3 not in break_points("район")  # never before й
    assert break_points("тельность") == [4]  # after ь
    assert break_points("ab") == []


_WORDS = st.text(alphabet="abcdeiouxyzкамерьйо", min_size=1, max_size=14)


@given(st.lists(_WORDS, min_size=1, max_size=12), st.floats(4, 80), st.booleans())
def test_wrap_keeps_every_letter_and_fits_the_width(words, width, eager):
    text = " ".join(words)

    def measure(s: str) -> float:
        return text_width(s, 6)

    lines = wrap(text, width, measure, eager=eager)
    assert "".join(ln.replace("-", "").replace(" ", "") for ln in lines) == \
        text.replace(" ", "")
    for line in lines:
        assert measure(line) <= width or len(line.rstrip("-").replace(" ", "")) == 1


@given(_WORDS)
def test_every_break_leaves_two_letters_and_a_vowel_each_side(word):
    for i in break_points(word):
        head, tail = word[:i], word[i:]
        assert len(head) >= 2 and len(tail) >= 2
        assert VOWELS & set(head) and VOWELS & set(tail)
        assert tail[0] not in "ьъй"


@given(_WORDS, st.floats(4, 40))
def test_a_forced_cut_leaves_no_soft_sign_to_start_a_line(word, width):
    def measure(s: str) -> float:
        return text_width(s, 6)

    lines = wrap(word, width, measure)
    for before, line in pairwise(lines):
        # unless the cut could go no further back: one letter and its hyphen
        assert line[0] not in "ьъй" or len(before) == 2, lines


def test_a_grid_too_large_to_print_is_refused_in_one_line():
    big = Grid.from_rows(["." * 51] * 2)
    with pytest.raises(PageError, match="51x2 grid is too large to print"):
        crossword_pdf(big, None)


def test_a_broken_shipped_font_is_one_line(tmp_path, monkeypatch):
    from cryptocomp.pages import document

    broken = tmp_path / "fonts"
    broken.mkdir()
    (broken / "DejaVuSans.ttf").write_bytes(b"not a font")
    monkeypatch.setattr(document, "shipped", lambda relative: tmp_path / relative)
    monkeypatch.setattr(document, "REGULAR", "BrokenSans")  # not registered yet
    monkeypatch.setattr(document, "_FILES", {"BrokenSans": "fonts/DejaVuSans.ttf",
                                             "MissingSans": "fonts/none.ttf"})
    document._register_fonts.cache_clear()
    try:
        with pytest.raises(PageError, match=r"shipped font fonts/DejaVuSans\.ttf is unreadable"):
            document._register_fonts()
        (broken / "DejaVuSans.ttf").unlink()
        document._register_fonts.cache_clear()
        with pytest.raises(PageError, match="is missing"):
            document._register_fonts()
    finally:
        document._register_fonts.cache_clear()
