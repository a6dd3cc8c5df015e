"""Arrow-word text inputs: phrase files and clue files (parsing, errors, fuzzing), phrase
placement against brute force, and the stem rule of clues."""

from __future__ import annotations

import gzip
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.arrow.clues import (
    CLUE_MAGIC,
    ClueError,
    clue_contains,
    load_clues,
    parse_clue_list,
    parse_compact,
    read_clue_list,
    shares_stem,
)
from cryptocomp.arrow.phrases import (
    PhraseError,
    fits,
    parse_phrases,
    phrase_letters,
    place_evenly,
    read_phrases,
    shipped_phrases,
    spread_cost,
)
from cryptocomp.index.alphabet import ALPHABETS

# -- phrases -------------------------------------------------------------------------------

def _brute_placements(letters: str, reading: str):
    for pos in itertools.combinations(range(len(reading)), len(letters)):
        if all(reading[p] == ch for p, ch in zip(pos, letters)):
            yield list(pos)


@settings(max_examples=300, deadline=None)
@given(st.text("abc", min_size=1, max_size=5), st.text("abc", max_size=11))
def test_fit_and_even_placement_against_brute_force(letters, reading):
    all_ = list(_brute_placements(letters, reading))
    assert fits(letters, reading) == bool(all_)
    got = place_evenly(letters, reading)
    if not all_:
        assert got is None
        return
    assert got is not None and got in all_
    best = min(spread_cost(p, len(reading)) for p in all_)
    assert spread_cost(got, len(reading)) == pytest.approx(best)


def test_even_placement_spreads_letters():
    reading = "a" * 20
    assert place_evenly("aaaa", reading) == [2, 7, 12, 17]
    assert place_evenly("ab", "abab") in ([0, 3], [1, 3], [0, 1])
    assert place_evenly("abc", "ab") is None


def test_phrase_file_parsing(tmp_path):
    text = "# comment\n\nTime is money!\nабв\nёлка на горке\nTIME, IS MONEY\nab\n"
    book = parse_phrases(text)
    assert [p.text for p in book.phrases] == ["Time is money!", "ёлка на горке"]
    assert book[0].letters == "timeismoney"
    folded = parse_phrases(text, fold_yo=True)
    assert folded[1].letters == "елканагорке"
    latin = parse_phrases(text, alphabet="abcdefghijklmnopqrstuvwxyz")
    assert [p.letters for p in latin.phrases] == ["timeismoney"]
    assert latin.fitting("xtxixmxexixsxmxoxnxexyx") == [0]
    path = tmp_path / "p.txt"
    path.write_text("no\nab\n", encoding="utf-8")
    with pytest.raises(PhraseError, match="no usable phrase"):
        read_phrases(path)
    path.write_bytes(b"\xff\xfe bad")
    with pytest.raises(PhraseError, match="not UTF-8"):
        read_phrases(path)
    with pytest.raises(PhraseError, match="not found"):
        read_phrases(tmp_path / "missing.txt")
    with pytest.raises(PhraseError, match="alphabet"):
        parse_phrases("Время деньги\n", alphabet="abc")


def test_shipped_phrase_files():
    en = read_phrases(shipped_phrases("en"), alphabet=ALPHABETS["en"])
    ru = read_phrases(shipped_phrases("ru"), alphabet=ALPHABETS["ru"])
    assert len(en) >= 300 and len(ru) >= 250
    assert shipped_phrases("xx") is None
    assert phrase_letters("Don't stop!") == "dontstop"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.sampled_from([None, "abc", "абвгдеж"]), st.booleans())
def test_fuzz_phrase_files(text, alphabet, fold):
    try:
        book = parse_phrases(text, alphabet=alphabet, fold_yo=fold)
    except PhraseError as exc:
        assert "\n" not in str(exc)
        return
    for p in book.phrases:
        assert 4 <= len(p.letters) <= 60 and p.letters.isalpha()
        assert alphabet is None or set(p.letters) <= set(alphabet)


# -- clues ---------------------------------------------------------------------------------

def test_stems():
    assert shares_stem("run", "running") and shares_stem("running", "run")
    assert shares_stem("happy", "unhappy")
    assert shares_stem("house", "housing")
    assert not shares_stem("car", "cat")
    assert shares_stem("ox", "oxen")
    assert clue_contains("A running race", "run")
    assert clue_contains("Not UNHAPPY", "happy")
    assert clue_contains("elephants", "phant") is True
    assert not clue_contains("Feline", "cat")
    assert not clue_contains("Domestic animal", "dog")


def test_clue_list_parsing(tmp_path, caplog):
    book = parse_clue_list("# c\ncat\tFeline\ncat\tMouser\nCAT\tFeline\ndog\tCanine\n"
                           "run\tRunning fast\n")
    assert book.clues("cat") == ("Feline", "Mouser") and book.senses("cat") == 2
    assert "run" not in book  # its only clue gave the answer away
    assert "giving the answer away" in caplog.text
    assert book.pick("dog") == "Canine"
    book._check()
    for bad, why in (("cat Feline\n", "one TAB"), ("cat\tFeline\tmore\n", "one TAB"),
                     ("\tFeline\n", "not a word"), ("ca t\tFeline\n", "not a word"),
                     ("c4t\tFeline\n", "not a word"), ("cat\t   \n", "empty"),
                     ("cat\t" + "x" * 201 + "\n", "characters long")):
        with pytest.raises(ClueError, match=why) as info:
            parse_clue_list("dog\tCanine\n" + bad, "f.tsv")
        assert "f.tsv, line 2" in str(info.value)
    with pytest.raises(ClueError, match="no usable clue"):
        parse_clue_list("# only a comment\n")
    path = tmp_path / "c.tsv.gz"
    path.write_bytes(gzip.compress("кот\tЗверь\n".encode()))
    assert read_clue_list(path).clues("кот") == ("Зверь",)
    path.write_bytes(b"\x1f\x8b broken")
    with pytest.raises(ClueError, match="corrupt gzip"):
        read_clue_list(path)


def test_compact_format(tmp_path):
    good = f"{CLUE_MAGIC}\t1\ttest\ncat\t3\tFeline\tMouser\n"
    book = parse_compact(good)
    assert book.ranked and book.senses("cat") == 3 and book.pick("cat") == "Feline"
    with pytest.raises(ClueError, match="version"):
        parse_compact(f"{CLUE_MAGIC}\t3\ttest\ncat\t3\tFeline\n")
    with pytest.raises(ClueError, match="header"):
        parse_compact("cat\t3\tFeline\n")
    for bad in ("cat\tx\tFeline", "cat\t0\tFeline", "Cat\t1\tFeline", "cat\t1"):
        with pytest.raises(ClueError, match="line 2"):
            parse_compact(f"{CLUE_MAGIC}\t1\ttest\n{bad}\n")
    path = tmp_path / "compact.tsv"
    path.write_text(good, encoding="utf-8")
    assert load_clues(path).ranked  # recognised by its header
    # a clue giving the answer away is dropped (a word left without clues has none) ...
    assert "cat" not in parse_compact(f"{CLUE_MAGIC}\t1\tt\ncat\t1\tcats\ndog\t1\tCanine\n")
    # ... and never picked, even from a trusted file
    with pytest.raises(KeyError):
        parse_compact(f"{CLUE_MAGIC}\t1\tt\ncat\t1\tcats\n", trusted=True).pick("cat")


@pytest.mark.slow
def test_shipped_wordnet_clues():
    book = load_clues("wordnet")
    assert len(book) > 50_000
    book._check()
    assert book.pick("dog") and book.senses("run") > 10
    assert all(not clue_contains(c, w) for w in ("cat", "house", "run") for c in book.clues(w))


@pytest.mark.slow
def test_shipped_wordnet_clues_leave_out_words_not_fit_to_print():
    import re

    book = load_clues("wordnet")
    # WordNet files these under obscenity or ethnic slur: never an answer, never in a clue
    unfit = {"cunt", "fuck", "kike", "nigger", "shit", "wetback"}
    assert unfit.isdisjoint(book)
    assert all(unfit.isdisjoint(re.findall(r"[a-z]+", c.lower())) for w in book
               for c in book.clues(w))
    # a word with one such sense among common ones keeps its other senses
    assert "boy" in book and "cock" in book


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=8), st.sampled_from(["\t", " ", "\t\t", ""]),
                          st.text(max_size=20)), max_size=8))
def test_fuzz_clue_files(lines):
    text = "\n".join(w + sep + c for w, sep, c in lines)
    for parse in (parse_clue_list, lambda t: parse_compact(f"{CLUE_MAGIC}\t1\tx\n" + t)):
        try:
            book = parse(text)
        except ClueError as exc:
            assert "\n" not in str(exc)
            continue
        book._check()
        for w in book:
            assert w.isalpha()
            try:
                clue = book.pick(w)
            except KeyError:
                continue
            assert not clue_contains(clue, w)


def test_pick_avoids_clues_printed_already():
    book = parse_clue_list("in\tLinear unit\nin\tInside\nlea\tLinear unit\nlea\tMeadow\n")
    assert book.pick("lea", avoid={"Linear unit"}) == "Meadow"
    only = parse_clue_list("lea\tLinear unit\n")
    assert only.pick("lea", avoid={"Linear unit"}) == "Linear unit"  # no other: repeated
