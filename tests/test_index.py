"""Index queries against plain scans of the word list (the oracle), and its invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.errors import QueryError
from cryptocomp.index import Index, WordFilter, pattern

LETTERS = "abcдж"  # mixed scripts on purpose: the index is alphabet-agnostic
words_st = st.text(alphabet=LETTERS, min_size=1, max_size=6)
dicts_st = st.dictionaries(words_st, st.integers(0, 50), min_size=1, max_size=40)


def _ranked(counts):
    return sorted(counts, key=lambda w: (-counts[w], w))


def _oracle(counts, pred, top=None, min_count=None):
    ranked = _ranked(counts)
    if top is not None:
        ranked = ranked[:top]
    return [w for w in ranked if pred(w) and (min_count is None or counts[w] >= min_count)]


@given(dicts_st)
@settings(max_examples=60, deadline=None)
def test_invariants_and_ranking(counts):
    idx = Index.from_counts(counts)
    idx._check()
    assert idx.words == _ranked(counts)
    assert [idx.count(w) for w in idx.words] == [counts[w] for w in idx.words]


@given(dicts_st, st.text(alphabet=LETTERS + "??", min_size=1, max_size=6),
       st.sets(st.sampled_from(LETTERS), max_size=2),
       st.one_of(st.none(), st.integers(0, 30)), st.one_of(st.none(), st.integers(0, 40)))
@settings(max_examples=150, deadline=None)
def test_match_equals_scan(counts, template, forbidden, top, min_count):
    idx = Index.from_counts(counts)
    fixed_ok = all(ch == "?" or ch in idx.alphabet for ch in template)
    if not fixed_ok:
        with pytest.raises(QueryError):
            idx.match(template)
        return

    def fits(w):
        return (len(w) == len(template) and all(t in "?" or t == c for t, c in zip(template, w))
                and not set(w) & forbidden)

    words = WordFilter(excludes="".join(forbidden), top=top, min_count=min_count)
    got = idx.match(template, words).words()
    assert got == _oracle(counts, fits, top, min_count)


@given(dicts_st, words_st)
@settings(max_examples=100, deadline=None)
def test_same_pattern_equals_scan(counts, word):
    idx = Index.from_counts(counts)
    assert idx.same_pattern(word).words() == _oracle(counts, lambda w: pattern(w) == pattern(word))


@given(dicts_st, st.lists(st.one_of(st.sampled_from(LETTERS), st.integers(0, 3)),
                          min_size=1, max_size=6),
       st.sets(st.sampled_from(LETTERS), max_size=2))
@settings(max_examples=150, deadline=None)
def test_structure_equals_scan(counts, template, forbidden):
    """The composer's query: fixed letters, new letters with a structure, forbidden letters."""
    idx = Index.from_counts(counts)
    given_letters = {x for x in template if isinstance(x, str)}

    def fits(w):
        if len(w) != len(template) or set(w) & forbidden:
            return False
        new: dict[int, str] = {}
        for t, c in zip(template, w):
            if isinstance(t, str):
                if c != t:
                    return False
            elif c in given_letters or new.setdefault(t, c) != c:
                return False
        return len(set(new.values())) == len(new)

    got = idx.structure(template, forbidden="".join(forbidden)).words()
    assert got == _oracle(counts, fits)


@given(dicts_st, st.sampled_from(LETTERS), st.integers(0, 4),
       st.one_of(st.none(), st.integers(1, 6)), st.one_of(st.none(), st.integers(1, 6)))
@settings(max_examples=150, deadline=None)
def test_bitmaps_equal_scan(counts, letter, k, lo, hi):
    idx = Index.from_counts(counts)
    ranked = _ranked(counts)

    def ids(pred):
        return [i for i, w in enumerate(ranked) if pred(w)]

    assert list(idx.at_least(letter, k)) == ids(lambda w: w.count(letter) >= k)
    assert list(idx.having(letter)) == ids(lambda w: letter in w)
    assert list(idx.at(1, letter)) == ids(lambda w: len(w) > 1 and w[1] == letter)
    assert list(idx.by_lengths(lo, hi)) == ids(
        lambda w: (lo is None or len(w) >= lo) and (hi is None or len(w) <= hi))
    assert list(idx.select(WordFilter(contains=letter, min_length=lo, max_length=hi))) == ids(
        lambda w: letter in w and (lo is None or len(w) >= lo) and (hi is None or len(w) <= hi))


def test_pattern_example_from_the_seed():
    assert pattern("барабан") == (0, 1, 2, 1, 0, 1, 3)


def test_matches_sequence_behaviour():
    idx = Index.from_counts({"aa": 5, "ab": 9, "ba": 1, "bb": 9})
    m = idx.match("??")
    assert len(m) == 4 and bool(m)
    assert [e.word for e in m] == ["ab", "bb", "aa", "ba"]
    assert m[0].rank == 1 and m[-1].word == "ba"
    assert [e.word for e in m[:2]] == ["ab", "bb"]
    assert [e.word for e in m[1:4:2]] == ["bb", "ba"]
    assert m.top(3).words() == ["ab", "bb", "aa"]
    assert m.words(2) == ["ab", "bb"]
    assert not idx.match("a?a")
    with pytest.raises(IndexError):
        m[4]


def test_template_normalised_and_checked():
    idx = Index.from_counts({"ёж": 2, "еж": 1})
    assert idx.match("?Ж").words() == ["ёж", "еж"]
    assert idx.match("Ё.").words() == ["ёж"]
    with pytest.raises(QueryError, match="letter 'z' at position 2"):
        idx.match("?z")
    with pytest.raises(QueryError, match="empty template"):
        idx.match("  ")


def test_bad_counts_rejected():
    with pytest.raises(ValueError):
        Index.from_counts({"a b": 1})
    with pytest.raises(ValueError):
        Index.from_counts({"a": -1})


def test_empty_index():
    idx = Index.from_counts({})
    idx._check()
    assert len(idx) == 0 and not idx.match("?")


def test_prefix_filters():
    idx = Index.from_counts({"a": 10, "b": 8, "c": 8, "d": 1})
    assert idx.prefix() == 4
    assert idx.prefix(WordFilter(top=2)) == 2
    assert idx.prefix(WordFilter(min_count=8)) == 3
    assert idx.prefix(WordFilter(top=2, min_count=1)) == 2
    assert idx.prefix(WordFilter(min_count=11)) == 0


def test_words_of_more_than_256_distinct_letters():
    wide = "".join(chr(0x4E00 + i) for i in range(300))
    other = "".join(chr(0x4E00 + i) for i in range(299, -1, -1))
    idx = Index.from_counts({wide: 2, other: 1, "ab": 3})
    idx._check()
    assert idx.same_pattern(wide).words() == [wide, other]
    assert idx.same_pattern("ab").words() == ["ab"]
    assert idx.by_pattern([0, 1]) == idx.select(pattern=pattern("ab"))
    assert not idx.by_pattern([-1])


def test_stats():
    idx = Index.from_counts({"aa": 1, "ab": 2})
    assert idx.stats() == {"words": 2, "letters": 2, "lengths": 1, "patterns": 2,
                           "position_bitmaps": 3, "at_least_bitmaps": 1}


@pytest.mark.slow
def test_build_memory_stays_bounded():
    """Issue 12, item 11: the format-1 build took about 1 KB a word (924 MB peak for
    Russian).  150,000 random words now take about 65 MB above the start (format 1: 170 MB),
    measured in a fresh process."""
    import subprocess
    import sys

    code = (
        "import random, resource\n"
        "from cryptocomp.index import Index\n"
        "rng = random.Random(5)\n"
        "alpha = 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя'\n"
        "counts = {''.join(rng.choice(alpha) for _ in range(rng.randint(3, 14))): "
        "rng.randint(1, 10**6) for _ in range(150_000)}\n"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "Index.from_counts(counts)\n"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) // 1024)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert int(done.stdout) < 110, f"{done.stdout.strip()} MB above the dictionary"


@given(st.dictionaries(st.text(alphabet="abcдж", min_size=1, max_size=9), st.integers(0, 9),
                       min_size=1, max_size=60))
@settings(max_examples=30, deadline=None)
def test_vectorised_build_equals_plain_scan_build(counts):
    """Small dictionaries take the plain scan; large ones the vectorised build: the same
    index either way (each also passes _check)."""
    from unittest import mock

    from cryptocomp.index import state

    plain = Index.from_counts(counts)
    with mock.patch.object(state, "SMALL", 0):
        vectorised = Index.from_counts(counts)
    vectorised._check()
    plain._check()
    families = ("by_length", "by_pattern", "at", "having", "at_least")
    a, b = plain.sections(), vectorised.sections()
    for key in a:
        if key in families:
            assert ({k: state.BitmapFamily.from_state(key, a[key], len(plain), lambda k: True)[k]
                     for k in a[key]["keys"]}
                    == {k: state.BitmapFamily.from_state(key, b[key], len(plain),
                                                         lambda k: True)[k]
                        for k in b[key]["keys"]}), key
        else:
            assert a[key] == b[key], key


def test_pickled_index_round_trips():
    """An index sent to a worker process (pickled whole) answers as the original."""
    import pickle

    idx = Index.from_counts({"мама": 5, "папа": 7, "баран": 9, "сад": 1, "барабан": 2})
    again = pickle.loads(pickle.dumps(idx))
    again._check()
    assert again.words == idx.words and again.match("*а*н").words() == ["баран", "барабан"]
    assert [a.tolist() for a in again.encoded(4)] == [a.tolist() for a in idx.encoded(4)]


def test_one_word_filter_for_every_query():
    from cryptocomp.crossword import Lexicon
    from cryptocomp.errors import ExpressionError

    idx = Index.from_counts({"ёж": 9, "еж": 8, "мама": 7, "папа": 6, "сад": 1})
    words = WordFilter(contains="А, а", excludes="П", min_length=4)
    assert (words.contains, words.excludes) == ("аа", "п")  # spelled as typed text is
    assert words.describe() == "contains аа, excludes п, length ≥ 4"
    assert idx.match("*", words).words() == ["мама"] == idx.same_pattern("дядя", words).words()
    assert WordFilter(contains="ё").spelt(fold_yo=True) == WordFilter(contains="е")
    assert idx.prefix(WordFilter(top=3, min_count=7)) == 3 and {words: 1}[words] == 1
    for bad, message in ((dict(top=-1), "top must not be negative"),
                         (dict(contains="e", excludes="E"), "letter 'e' is both required"),
                         (dict(excludes="1"), "excludes takes letters, not '1'")):
        with pytest.raises(ExpressionError, match=message):
            WordFilter(**bad)
    with pytest.raises(ValueError, match="not letters"):
        Lexicon(idx, WordFilter(contains="а"))
