"""Issue 31, items 7 and 15: the words a dictionary may hold and the spelling user text is
read in.  A very long word is skipped (and the build stays linear in any case); a word of
bare combining marks or with control, bidi, zero-width, surrogate or private-use characters
is skipped, never indexed nor printed; grid letters, templates, expressions, racks and
``--contains`` are read in the dictionary's spelling (NFC, lower case, ё folded when the
dictionary folds it), and ``İ`` is refused naming it where it was typed."""

from __future__ import annotations

import logging
import time
import unicodedata

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cryptocomp import Index, WordFilter
from cryptocomp.arrow.clues import ClueError, parse_clue_list
from cryptocomp.arrow.phrases import parse_phrases
from cryptocomp.cli import main
from cryptocomp.crossword import fill
from cryptocomp.crossword.grid import GridError, parse_text
from cryptocomp.crossword.ipuz import parse_ipuz
from cryptocomp.cryptarithm.compose import compose
from cryptocomp.cryptarithm.expr import parse
from cryptocomp.errors import CryptocompError, ExpressionError, QueryError
from cryptocomp.index.alphabet import MAX_WORD_LENGTH, normalize, word_problem
from cryptocomp.index.encoding import first_positions
from cryptocomp.index.freqdict import load_freqdict, parse_freqdict
from cryptocomp.tiles.rack import rack_words
from cryptocomp.tiles.tiles import tileset

YO = {"ёж": 50, "еж": 10, "ель": 40, "ёлка": 30, "елка": 5, "лак": 3, "кал": 2}


def _folded() -> Index:
    counts, _ = parse_freqdict([f"{w} {c}" for w, c in YO.items()], fold_yo=True)
    return Index.from_counts(counts, name="yo", params={"lang": "ru", "fold_yo": True})


def _first_oracle(row: list[int]) -> list[int]:
    seen: dict[int, int] = {}
    return [seen.setdefault(c, i) for i, c in enumerate(row)]


# -- item 7: long words -------------------------------------------------------------------

def test_first_positions_of_long_rows_are_right_and_quick():
    rng = np.random.default_rng(7)
    for m, n, k in [(40, 33, 3), (25, 300, 7), (2, 70_000, 300)]:
        codes = rng.integers(0, k, size=(m, n)).astype(np.uint16)
        first = first_positions(codes)
        assert [first[r].tolist() for r in range(m)] == \
            [_first_oracle(codes[r].tolist()) for r in range(m)]
    assert first.dtype == np.uint32  # positions past 65,535 (uint16 wrapped them)
    row = rng.integers(0, 26, size=(1, 100_000)).astype(np.uint8)
    started = time.process_time()
    first = first_positions(row)
    # pairwise comparison took 89 s for 10,000 letters and never ended for 100,000
    assert time.process_time() - started < 2.0
    assert first[0].tolist() == _first_oracle(row[0].tolist())


def test_a_word_longer_than_the_limit_is_skipped_naming_its_line():
    # the longest word of any wordfreq list (German, 80 letters) is kept
    longest_real = ("donaudampfschifffahrtselektrizitäten"
                    "hauptbetriebswerkbauunterbeamtengesellschaft")
    lines = ["gut 5", longest_real + " 2", "a" * MAX_WORD_LENGTH + " 1", "b" * 101 + " 1"]
    counts, report = parse_freqdict(lines)
    assert set(counts) == {"gut", longest_real, "a" * MAX_WORD_LENGTH}
    assert report.refused == 1 and report.refused_lines == ((4, "it has 101 letters, more "
                                                              "than 100"),)


def test_a_dictionary_with_a_100000_letter_word_builds_at_once(tmp_path, caplog):
    rng = np.random.default_rng(1)
    huge = "".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), 100_000))
    path = tmp_path / "d.txt"
    path.write_text(f"good 10\nword 5\n{huge} 3\n", encoding="utf-8")
    started = time.process_time()
    with caplog.at_level(logging.WARNING, logger="cryptocomp"):
        index = Index.from_counts(load_freqdict(path).counts)
    assert time.process_time() - started < 5.0  # was: never ended
    assert index.words == ["good", "word"]
    [warning] = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "skipped 1 line" in warning and "line 3: it has 100,000 letters" in warning
    assert huge[:200] not in warning


# -- item 15: words no dictionary holds ----------------------------------------------------

BAD = ["\u0301\u0301", "\u0301a", "a\x00b", "a\x1bb", "a\x9bb", "ab\u202ecd", "ab\u2066cd",
       "x\u200by", "x\u200dy", "x\ufeffy", "q\ue000", "q\U000f0001", "s\ud800t"]


def test_bad_words_are_skipped_with_one_warning_and_never_printed(tmp_path, caplog, capsys):
    lines = ["good 9"] + [f"{w} {i + 1}" for i, w in enumerate(BAD)] + ["ok 1"]
    counts, report = parse_freqdict(lines)
    assert set(counts) == {"good", "ok"}
    assert report.refused == len(BAD) and len(report.refused_lines) == 5
    assert [n for n, _ in report.refused_lines] == [2, 3, 4, 5, 6]
    warning = report.word_warning("d.txt")
    assert warning.startswith(f"d.txt: skipped {len(BAD)} lines whose word cannot be indexed")
    assert "line 2: it starts with the combining mark U+0301" in warning
    assert "line 4: it holds the control character U+0000" in warning
    assert warning.endswith("; ...)") and warning.isprintable()
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines[:-2] + lines[-1:]) + "\n", encoding="utf-8",
                    errors="surrogatepass")
    assert main(["words", "*", "--dict", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.split() == ["good", "9", "ok", "1"]
    assert all(line.replace("\t", " ").isprintable() for line in (out + err).splitlines())


def test_from_counts_refuses_bad_words():
    for word in ["a\x00b", "ab\u202ecd", "\u0301", "x\u200by"]:
        with pytest.raises(ValueError, match="not a word"):
            Index.from_counts({word: 1})


def test_batch_lists_phrases_and_clues_pass_the_same_check(tmp_path, capsys):
    left, right = tmp_path / "l.txt", tmp_path / "r.txt"
    left.write_text("send\nse\u202end\nab\x00\n", encoding="utf-8")
    right.write_text("more\n", encoding="utf-8")
    words = tmp_path / "d.txt"
    words.write_text("money 9\nhoney 3\n", encoding="utf-8")
    argv = ["compose", "--batch", str(left), str(right), "--ops", "+", "--dict", str(words),
            "--jobs", "1"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out.startswith("# send+more: ") and out.count("# ") == 1
    assert "skipped 2 lines whose word cannot be indexed (line 2: it holds the invisible " \
           "format character U+202E; line 3: it holds the control character U+0000)" in err
    book = parse_phrases("Ёлка на горке\nЁлка на\u202e горе\n")
    assert [p.text for p in book.phrases] == ["Ёлка на горке"]
    with pytest.raises(ClueError, match="is not a word"):
        parse_clue_list("a" * 101 + "\tA long one\n")


ALPHABET = st.sampled_from(list("abcéмё") + ["\u0301", "\u0308", "\x00", "\x07", "\x9b",
                                             "\u202e", "\u2067", "\u200b", "\ufeff", "\ue000",
                                             "\ud83d", "·", "'"])


def _oracle_ok(word: str) -> bool:
    """A plain scan of the rule: no bare leading mark, no Cc/Cf/Cs/Co character, at most
    MAX_WORD_LENGTH letters."""
    cats = [unicodedata.category(ch) for ch in word]
    return bool(word) and len(word) <= MAX_WORD_LENGTH and not cats[0].startswith("M") \
        and not any(c in ("Cc", "Cf", "Cs", "Co") for c in cats)


@given(st.lists(st.tuples(st.text(ALPHABET, min_size=1, max_size=6) | st.text("ab", min_size=99,
                                                                              max_size=102),
                          st.integers(0, 50)), max_size=12))
def test_dictionary_build_keeps_exactly_the_words_an_oracle_keeps(entries):
    """Random words of letters, marks, controls, bidi, zero-width, private-use and surrogate
    characters (about 2 s: each example builds and checks an index)."""
    lines = [f"{w} {c}" for w, c in entries]
    counts, report = parse_freqdict(lines)
    want: dict[str, int] = {}
    refused = 0
    for w, c in entries:
        norm = normalize(w)
        if _oracle_ok(norm):
            want[norm] = want.get(norm, 0) + c
        else:
            refused += 1
    assert counts == want and report.refused == refused
    if counts:
        index = Index.from_counts(counts)
        index._check()
        assert all(word_problem(w) is None and w.isprintable() for w in index.words)


# -- item 15: the spelling of user text ------------------------------------------------------

def test_grid_letters_are_read_in_nfc():
    grid = parse_text("cafe\u0301\n....\n")
    assert grid.given[(0, 3)] == "é" and grid.width == 4
    with pytest.raises(GridError, match=r"unknown character '\u0301' at row 1, column 2 \(a "
                                        r"combining mark"):
        parse_text("q\u0301.\n...\n")
    doc = ('{"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/crossword#1"], '
           '"dimensions": {"width": 2, "height": 1}, "puzzle": [[{"cell": 1, "value": '
           '"E\\u0301"}, 0]]}')
    assert parse_ipuz(doc).given == {(0, 0): "é"}


def test_fold_yo_folds_templates_like_the_dictionary():
    index = _folded()
    assert index.match("ё*").words() == ["еж", "ель", "елка"]
    assert index.match("?лка").words() == ["елка"]
    assert index.same_pattern("ёж").words() == index.same_pattern("еж").words()
    plain = Index.from_counts(YO)
    assert plain.match("ё*").words() == ["ёж", "ёлка"]  # a dictionary keeping ё keeps it


def test_fold_yo_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "yo.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in YO.items()), encoding="utf-8")
    assert main(["words", "ё*", "--fold-yo", "--dict", str(path)]) == 0
    assert capsys.readouterr().out.split()[::2] == ["еж", "ель", "елка"]
    assert main(["compose", "ёж*ёж", "--fold-yo", "--dict", str(path)]) == 0
    assert capsys.readouterr().out.startswith("еж*еж=елка\t98*98=9604")
    words = tmp_path / "w.txt"
    words.write_text("ёж\n", encoding="utf-8")
    assert main(["compose", "--batch", str(words), str(words), "--ops", "*", "--fold-yo",
                 "--dict", str(path), "--jobs", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("еж*еж=елка\t98*98=9604")


def test_fold_yo_compose_fill_and_rack():
    index = _folded()
    found = compose("ёж*ёж", index, WordFilter(contains="ё"))
    assert [c.puzzle for c in found] == ["еж*еж=елка"]
    assert WordFilter(contains="ё").spelt(fold_yo=True).contains == "е"
    assert fill(parse_text("ё.\n"), index).fills[0] == ["еж"]
    assert [p.word for p in rack_words("ёлка", "ru", index)][:1] == ["елка"]
    assert [p.word for p in rack_words(["ё", "л", "к", "а"], "ru", index)][:1] == ["елка"]


def test_dotted_capital_i_is_named_where_it_was_typed():
    with pytest.raises(ExpressionError) as err:
        parse("İ+i")
    assert err.value.position == 0 and "'İ' is not one letter in lower case" in str(err.value)
    with pytest.raises(ExpressionError) as err:
        parse("ab+c=[dİ*]")
    assert err.value.position == 7 and "'İ'" in str(err.value)
    index = Index.from_counts({"ie": 2, "ii": 1})
    for query in (lambda: index.match("aİ?"), lambda: index.same_pattern("aİ")):
        with pytest.raises(QueryError, match=r"'İ' is not one letter in lower case: it becomes "
                                             r"'i̇', U\+0069 \+ U\+0307 \(at position 2 of"):
            query()
    with pytest.raises(CryptocompError, match="'İ' is not one letter"):
        rack_words("İe", "en", index)
    with pytest.raises(CryptocompError, match="'İ' is not one letter"):
        tileset("en").parse_rack("eİ")


def test_a_letter_with_a_mark_nfc_cannot_join_is_named():
    with pytest.raises(ExpressionError) as err:
        parse("aq\u0301+b")
    assert err.value.position == 1
    assert str(err.value).startswith("'q\u0301' is not one letter (no character is 'q' with the "
                                     "combining mark U+0301)")
