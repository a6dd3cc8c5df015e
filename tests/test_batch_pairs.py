"""The batch's compiled path for ``a OP b`` queries (cryptocomp.batch.pairquery) against the
composer it stands in for: compose_puzzle on each query alone."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp import Index, WordFilter
from cryptocomp.batch.pairquery import column_form, compose_columns
from cryptocomp.cryptarithm.compose import alike_key, compose_puzzle
from cryptocomp.cryptarithm.expr import parse

DATA = Path(__file__).resolve().parent.parent / "cryptocomp" / "data" / "enable1.txt"


@pytest.fixture(scope="module")
def small() -> Index:
    words = [w.strip() for w in DATA.read_text(encoding="utf-8").split() if len(w.strip()) <= 5]
    return Index.from_counts({w: 1 + zlib.crc32(w.encode()) % 1000 for w in words},
                             name="small")


WORD = st.text(alphabet="abcdeghilmnorst", min_size=1, max_size=4)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lefts=st.lists(WORD, min_size=1, max_size=3), rights=st.lists(WORD, min_size=1,
                                                                      max_size=3),
       op=st.sampled_from("+-*"), top=st.sampled_from([None, 3000]))
@pytest.mark.slow
def test_pairs_equal_single_queries(small, lefts, rights, op, top):
    words = WordFilter(top=top)
    groups: dict[str, list] = {}
    for a in lefts:
        for b in rights:
            puzzle = parse(f"{a}{op}{b}")
            if len(puzzle.letters) <= 10:
                groups.setdefault(alike_key(puzzle), []).append(puzzle)
    for members in groups.values():
        form = column_form(members[0])
        assert form is not None
        found = compose_columns(members, form, small, words)
        assert found == [compose_puzzle(p, small, words) for p in members]
        assert found == compose_columns(members, form, small, words, max_results=None)


def test_pairs_known_answer_and_max_results(small):
    puzzle = parse("send+more")
    [found] = compose_columns([puzzle], column_form(puzzle), small)
    assert "money" in [r.word for r in found]
    assert found == compose_puzzle(puzzle, small)
    [two] = compose_columns([puzzle], column_form(puzzle), small, max_results=2)
    assert two == found[:2]


@pytest.mark.parametrize("text", ["send/more", "send+more=m????", "send+more+zoo", "a*(b+c)",
                                  "?+more=money", "abcdefghi*jabcdefgh"])
def test_other_forms_are_left_to_the_composer(text):
    assert column_form(parse(text)) is None


def test_the_batch_form_is_taken():
    assert column_form(parse("send+more")) == column_form(parse("send+more=?"))
    assert column_form(parse("send-more")) is not None
