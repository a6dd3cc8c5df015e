"""Fuzzing the public API: expressions, dictionaries, grids, racks, the prompt's lines and
filters.  Whatever the input, a call returns its documented value or raises one
CryptocompError whose message is one line; never another exception, never a hang.  Where a
cheap cross-check exists it is made too: every puzzle compose returns has exactly one
solution by solve; a dictionary that loads builds an index that passes its _check(); every
rack play re-checks against its rack.

Example counts scale with the Hypothesis profile (tests/conftest.py).
"""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp import CryptocompError, Index, WordFilter, compose, parse, solve
from cryptocomp.crossword.grid import parse_slots, parse_text
from cryptocomp.crossword.ipuz import parse_ipuz
from cryptocomp.index.freqdict import load_freqdict, parse_freqdict
from cryptocomp.prompt import Session, Settings, parse_limit, parse_minfreq, parse_top
from cryptocomp.tiles.rack import rack_words
from cryptocomp.tiles.tiles import tileset

SCALE = max(1, settings.default.max_examples // 100)
FUZZ = settings(max_examples=100 * SCALE, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
SECONDS = 10

WORDS = {"money": 500, "honey": 200, "send": 400, "more": 300, "tea": 90, "eat": 70,
         "ate": 60, "ab": 30, "ba": 20, "aa": 10, "abc": 9, "cab": 8, "été": 5, "мама": 4}
INDEX = Index.from_counts(WORDS, name="fuzz")
JUNK = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=16)


def refused_or(call, *args, **kwargs):
    """``call(*args)``, or None when it raised a one-line CryptocompError; in bounded time."""
    started = time.monotonic()
    try:
        return call(*args, **kwargs)
    except CryptocompError as exc:
        assert str(exc) and "\n" not in str(exc), repr(exc)
        return None
    finally:
        assert time.monotonic() - started < SECONDS, (call, args)


# -- expressions --------------------------------------------------------------------------

LEAVES = st.one_of(st.text("abcdeso", min_size=1, max_size=4), st.just("?"),
                   st.sampled_from(["x" * 40, "9", "0", "٣", "", " ", "é", "мама", "ab cd"]))


def _tree(leaves):
    return st.recursive(leaves, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from("+-*/"), inner).map("".join),
        inner.map(lambda e: f"({e})"),
        inner.map(lambda e: "(" * 60 + e + ")" * 60)), max_leaves=12)


EXPRESSIONS = st.one_of(
    st.tuples(_tree(LEAVES), st.sampled_from(["", "=", "=?", "=abc", "==a"]),
              st.one_of(st.just(""), _tree(LEAVES))).map("".join),
    JUNK)


@FUZZ
@given(EXPRESSIONS)
def test_parse_and_solve_any_expression(text):
    puzzle = refused_or(parse, text)
    if puzzle is None:
        return
    assert str(puzzle)
    if not puzzle.unknown and puzzle.right is not None:
        solved = refused_or(solve, text, cap=5)
        if solved is not None:
            assert solved.count >= len(solved.equations)


# '?' under every operator and on both sides of '=', the words from the test dictionary;
# small enough that every composed puzzle is re-solved (issue 12 item 1: '?' under a divisor)
SMALL = st.text("abcdemnorsty", min_size=1, max_size=3)
HOLE_SHAPES = st.tuples(SMALL, st.sampled_from("+-*/"), SMALL, st.sampled_from("+-*/"),
                        st.integers(0, 4), st.booleans())


def _with_hole(shape) -> str:
    a, op1, b, op2, where, paren = shape
    parts = [a, b, "?"] if where < 3 else ["?", a, b]
    expr = f"{parts[0]}{op1}({parts[1]}{op2}{parts[2]})" if paren else \
        f"{parts[0]}{op1}{parts[1]}{op2}{parts[2]}"
    return expr if where % 2 == 0 else f"{a}{op1}{b}=?" if where == 1 else expr + "=abc"


@settings(FUZZ, max_examples=60 * SCALE)
@given(HOLE_SHAPES)
@pytest.mark.slow
def test_every_composed_puzzle_has_exactly_one_solution(shape):
    text = _with_hole(shape)
    found = refused_or(compose, text, INDEX)
    for p in found or []:
        assert solve(p.puzzle, cap=2).count == 1, (text, p.puzzle)


# -- dictionaries -------------------------------------------------------------------------

LINES = st.lists(st.one_of(
    st.builds(lambda w, c: f"{w} {c}", st.text("abcé мЁ", min_size=1, max_size=6),
              st.integers(-2, 2 ** 64)),
    st.sampled_from(["", "  ", "w", "a b 3", "w -1", "w 1.5", "w ٣", "\ufeffbom 2", "a\tb 3",
                     "?? 2", "w 9" + "9" * 30, "\x00 1", "x" * 300 + " 1", "e\u0301 4", "É 1"]),
    JUNK), max_size=15)


@FUZZ
@given(LINES)
def test_any_dictionary_lines(lines):
    parsed = refused_or(parse_freqdict, lines)
    if parsed is None:
        return
    counts, _report = parsed
    assert all(w and c >= 0 for w, c in counts.items())
    index = refused_or(Index.from_counts, counts, name="t") if counts else None
    if index is not None:
        index._check()
        assert len(index) == len(counts)


@FUZZ
@given(st.binary(max_size=200))
def test_any_dictionary_bytes(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("dict") / "d.txt"
    path.write_bytes(content)
    fd = refused_or(load_freqdict, path)
    if fd is not None:
        assert all(w and c >= 0 for w, c in fd.counts.items())


# -- grids --------------------------------------------------------------------------------

@FUZZ
@given(st.one_of(st.lists(st.text(".#ab;é? \t", max_size=8), max_size=8).map("\n".join), JUNK))
def test_any_text_grid(text):
    grid = refused_or(parse_text, text)
    if grid is not None:
        grid._check()


@FUZZ
@given(st.one_of(st.lists(st.lists(st.one_of(st.integers(-2, 12).map(str),
                                             st.sampled_from(["h", "v", "x", "", "1e3"])),
                                   max_size=5).map(" ".join), max_size=6).map("\n".join),
                 JUNK))
def test_any_slot_list(text):
    grid = refused_or(parse_slots, text)
    if grid is not None:
        grid._check()


IPUZ_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 8), st.sampled_from(
        ["#", ".", "a", "", "http://ipuz.org/crossword#1", "5" * 30])),
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.sampled_from(
                                ["kind", "dimensions", "width", "height", "puzzle", "solution",
                                 "block", "empty", "cell", "value"]), inner, max_size=4)),
    max_leaves=25)


@FUZZ
@given(st.one_of(
    st.builds(lambda w, h, puzzle: {"kind": ["http://ipuz.org/crossword#1"],
                                    "dimensions": {"width": w, "height": h}, "puzzle": puzzle},
              st.integers(-1, 6), st.integers(-1, 6), IPUZ_VALUES),
    IPUZ_VALUES).map(json.dumps) | JUNK)
def test_any_ipuz(text):
    grid = refused_or(parse_ipuz, text)
    if grid is not None:
        grid._check()


# -- racks --------------------------------------------------------------------------------

RACKS = st.one_of(st.text("aeinrstqzé?[] ,·ly", max_size=16), JUNK,
                  st.lists(st.sampled_from(["cs", "sz", "ch", "ll", "rr", "qu", "l·l", "ny", "a",
                                            "?", "[", "]"]), max_size=9).map(" ".join))


@FUZZ
@given(RACKS, st.sampled_from(["en", "fr", "es", "hu", "ca", "de", "pl", "el", "cy"]))
def test_any_rack(rack, code):
    ts = tileset(code)
    plays = refused_or(rack_words, rack, ts, INDEX)
    if plays is None:
        return
    parsed = ts.parse_rack(rack)
    for p in list(plays)[:50]:
        real = Counter(p.tiles) - Counter(p.blanks)
        assert all(parsed.counts.get(f, 0) >= n for f, n in real.items()), p
        assert len(p.blanks) <= parsed.blanks and p.tiles in ts.tilings(p.word)
        assert p.score == sum(ts.values[f] * n for f, n in real.items())


# -- the prompt ---------------------------------------------------------------------------

@FUZZ
@given(st.lists(st.one_of(EXPRESSIONS, JUNK, st.sampled_from(
    [":top 0", ":top all", ":limit 0", ":limit 2", ":limit off", ":minfreq 1e-40",
     ":minfreq 0", ":minfreq 1/3", ":same 123", ":same мама", ":same", ":save x.txt",
     ":lang zz", ":frob", "?", "??", "?" * 40, "#x"])), max_size=6))
def test_any_prompt_lines(lines):
    session = Session(INDEX, settings=Settings(shown=None))
    for line in lines:
        outcome = refused_or(session.execute, line)
        if outcome is not None and outcome.result is not None:
            outcome.result._check()
    session._check()


@FUZZ
@given(st.one_of(JUNK, st.sampled_from(["0", "-0", "00", "1e-30", "1e-31", "1e6", "1000001",
                                        "1/0", "0/1", "nan", "inf", "1" * 200, "1e99999999",
                                        "٣", "+1", " 7 ", "1_0", "1,0", "off", "ALL"])))
def test_any_filter_argument(arg):
    for parser in (parse_top, parse_minfreq, parse_limit):
        value = refused_or(parser, arg)
        settings_kw = {"shown": parse_top, "minfreq": parse_minfreq, "limit": parse_limit}
        name = next(k for k, v in settings_kw.items() if v is parser)
        if value is not None or arg.strip().lower() in ("off", "all", "none"):
            if name == "limit":  # the prefix of the dictionary: the words' top
                Settings(words=WordFilter(top=value))._check()  # type: ignore[arg-type]
            else:
                Settings(**{name: value})._check()
