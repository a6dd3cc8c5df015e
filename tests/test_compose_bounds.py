"""The composer's bounds and limits against the brute-force oracles of ``compose_oracle``:
the unknown under a divisor, the widths of the values it computes, a thousand operands, and
one enumeration shared by puzzles of one shape (batch composition)."""

from __future__ import annotations

import numpy as np
import pytest
from compose_oracle import (
    EN_COUNTS,
    fills_of,
    letters_in,
    puzzle_text,
    puzzle_words,
    right_cases,
    shape_cases,
    unique_by_solve,
    value_of,
)
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import cryptocomp.cryptarithm.evaluation as evaluation
from cryptocomp import Index, WordFilter
from cryptocomp.cryptarithm.compose import compose
from cryptocomp.cryptarithm.solve import solve
from cryptocomp.errors import ExpressionError
from cryptocomp.index.classes import WordClasses

_SETTINGS = settings(max_examples=60, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])



# -- regressions: the unknown under a divisor (issue 12, item 1) ------------------------------

def test_unknown_inside_a_divisor_reaches_the_dividends_size():
    # abc/(?/d)=e: ? = abc*d/e has up to four digits, and aaac is the one word of this
    # dictionary with exactly one solution (370/(3330/9)=1)
    index = Index.from_counts({"aaac": 10})
    got = compose("abc/(?/d)=e", index)
    assert [(r.puzzle, r.solution) for r in got] == [("abc/(aaac/d)=e", "370/(3330/9)=1")]
    solved = solve("abc/(aaac/d)=e")
    assert solved.count == 1 and solved.equations == ["370/(3330/9)=1"]


@pytest.mark.slow
def test_unknown_inside_a_divisor_gets_exact_integers():
    # ? = jj*abcdefghiabcdefghi/a reaches 20 digits: 64-bit arithmetic would wrap and call
    # this word a unique puzzle, which has no solution at all
    index = Index.from_counts({"jiibahahdcfigcaa": 100})
    assert compose("abcdefghiabcdefghi/(?/jj)=a", index) == []
    assert solve("abcdefghiabcdefghi/(jiibahahdcfigcaa/jj)=a").count == 0


@pytest.mark.parametrize("query", ["abc/(?-de)=f", "abc/(?/d)=e", "two/(?/a)=i",
                                   "abcdefghiabcdefghi/(?/jj)=a"])
def test_hole_bounds_hold_every_value_of_the_unknown(query):
    # brute force over the known letters: the unknown's largest value fits the bound
    from itertools import permutations

    from cryptocomp.cryptarithm.evaluation import hole_bounds
    from cryptocomp.cryptarithm.expr import bound, parse, value

    p = parse(query)
    hole_side, known = p.left, p.right
    letters = p.letters[:6]  # the long query: six letters of ten are enough for a witness
    fixed = dict(zip(p.letters[6:], range(9, 9 - len(p.letters[6:]), -1)))
    bounds = hole_bounds(hole_side, bound(known))
    best = 0
    free = [d for d in range(10) if d not in fixed.values()]
    for digits in permutations(free, len(letters)):
        fill = {**fixed, **dict(zip(letters, digits))}
        t = value(known, fill)
        for h in _candidate_holes(hole_side, fill, t):
            best = max(best, h)
    assert best <= bounds.value
    assert len(str(best)) == len(str(bounds.value)) or query == "abcdefghiabcdefghi/(?/jj)=a"


def _candidate_holes(side, fill, t):
    """Values h >= 0 of the unknown with side(h) == t, found by inverting level by level
    with exact integers (every level here is a division or a subtraction)."""
    from cryptocomp.cryptarithm.expr import BinOp, has_hole, value

    node = side
    while isinstance(node, BinOp):
        hole_left = has_hole(node.left)
        o = value(node.right if hole_left else node.left, fill)
        if o is None:
            return []
        if node.op == "/" and hole_left:
            t = t * o
        elif node.op == "/":
            if t == 0 or o % t:
                return []
            t = o // t
        elif node.op == "-" and hole_left:
            t = t + o
        else:
            raise AssertionError(node.op)
        node = node.left if hole_left else node.right
    return [t] if t >= 0 else []


@pytest.mark.slow
def test_two_over_unknown_over_a_on_english():
    # the exhaustive count of the issue: 1,127 words, 4-letter ones among them
    from cryptocomp import load_index

    index = load_index("en")
    every = WordFilter(classes=WordClasses.parse("all,offensive"))  # the count is of all words
    got = compose("two/(?/a)=i", index, every)
    assert len(got) == 1127
    that = next(r for r in got if r.word == "that")
    assert that.solution == "296/(2072/7)=1"
    assert {len(r.word) for r in got} >= {4}
    for r in got[::97]:  # a sample, each confirmed by the solver
        assert solve(r.puzzle).count == 1


class _Tracked(int):
    """An int that records the largest magnitude of every result computed from it."""

    peak = 0

    @staticmethod
    def _keep(v):
        if isinstance(v, int) and not isinstance(v, bool):
            _Tracked.peak = max(_Tracked.peak, abs(v))
            return _Tracked(v)
        return v


def _tracking(method):
    def op(self, other):
        return _Tracked._keep(method(self, other))
    return op


for _name in ("add", "sub", "mul", "floordiv", "mod"):
    for _side in ("", "r"):
        setattr(_Tracked, f"__{_side}{_name}__", _tracking(getattr(int, f"__{_side}{_name}__")))
_Tracked.__neg__ = lambda self: _Tracked._keep(-int(self))


class _TrackingEvaluator(evaluation.Evaluator):
    """The library's evaluator on exact ints that record every value it computes."""

    def __init__(self, letters):
        super().__init__(letters, object)

    def _table(self, c, c2=None):
        return np.array([_Tracked._keep(int(v)) for v in super()._table(c, c2)], dtype=object)


def _peak_of_compose_evaluation(puzzle) -> int:
    """The largest |value| the composer's evaluation computes over every assignment."""
    return _evaluate_tracked(puzzle)[0]


def _evaluate_tracked(puzzle) -> tuple[int, list[int]]:
    """(largest |value| the composer's evaluation computes, the values >= 0 of the
    unknown where it solves the puzzle) over every assignment of the puzzle's letters."""
    from cryptocomp.cryptarithm import permutations as perms
    from cryptocomp.cryptarithm.expr import has_hole

    left, right = puzzle.sides
    hole_side, known = (left, right) if has_hole(left) else (right, left)
    lead = [puzzle.letters.index(ch) for ch in puzzle.leading()]
    ev = _TrackingEvaluator(puzzle.letters)
    _Tracked.peak = 0
    values: list[int] = []
    with np.errstate(all="ignore"):
        for block in perms.blocks(len(puzzle.letters)):
            target, ok = ev.value(known, block.cols)
            x, feasible, side_ok, _ = ev.solve_hole(hole_side, target, block.cols)
            solved = np.ones(len(x), dtype=bool)
            for j in lead:
                solved &= block.cols[j] != 0
            for mask in (ok, feasible, side_ok):
                if mask is not None:
                    solved &= mask
            values += [int(v) for v in x[solved] if v >= 0]
    return _Tracked.peak, values


@pytest.mark.parametrize("query", ["ab/(?-cd)=e", "ab/(?/d)=e", "a/(?/bc)=d", "ab*?=c",
                                   "?*ab-c=d", "a/?=bc/d", "ab-?*c=d/e", "(a-bc)*?=d",
                                   "a/(b/(?/cd))=e", "?=ab/(cd-e)", "ab/(c-?)=d+e",
                                   "(ab/?)/(c+a)=d"])
def test_width_holds_every_value_the_composer_computes(query):
    from cryptocomp.cryptarithm.evaluation import hole_bounds, largest
    from cryptocomp.cryptarithm.expr import bound, has_hole, parse

    p = parse(query)
    left, right = p.sides
    hole_side, known = (left, right) if has_hole(left) else (right, left)
    bounds = hole_bounds(hole_side, bound(known))
    assert _peak_of_compose_evaluation(p) <= max(bounds.largest, largest(known))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape_cases())
def test_bounds_hold_on_every_shape(case):
    # every value the composer computes, and every value of the unknown that solves the
    # puzzle, within the static bounds, for '?' anywhere (the shapes of the oracle tests)
    from cryptocomp.cryptarithm.evaluation import hole_bounds, largest, unknown_span
    from cryptocomp.cryptarithm.expr import bound, has_hole, parse

    left, right, _ = case
    p = parse(puzzle_text(left) + ("" if right == ("?",) else "=" + puzzle_text(right)))
    hole_side, known = (p.left, p.sides[1]) if has_hole(p.left) else (p.right, p.left)
    bounds = hole_bounds(hole_side, bound(known))
    peak, values = _evaluate_tracked(p)
    assert peak <= max(bounds.largest, largest(known))
    assert all(v <= bounds.value for v in values)
    reach = unknown_span(hole_side, known)
    assert not values or (reach is not None and reach[0] <= min(values)
                          and max(values) <= reach[1])
    event("no solving value" if not values else
          "span tight" if (min(values), max(values)) == reach else "span loose")


@settings(max_examples=150, deadline=None)
@given(st.recursive(st.text("abc", min_size=1, max_size=3).map(lambda w: ("w", w)),
                    lambda c: st.tuples(st.sampled_from("+-*/"), c, c), max_leaves=4))
def test_span_holds_every_defined_value(tree):
    # brute force: the value under every valid assignment, where defined, is in the span
    from cryptocomp.cryptarithm.evaluation import span
    from cryptocomp.cryptarithm.expr import parse

    got = span(parse(puzzle_text(tree) + "=?").left)
    values = [v for fill in fills_of(puzzle_words(tree)) if (v := value_of(tree, fill)) is not None]
    assert got is not None or not values
    if values:
        assert got[0] <= min(values) and max(values) <= got[1]


# -- the operand limit (issue 12, item 5) -----------------------------------------------------

@pytest.mark.parametrize("query, found", [
    ("+".join(["a"] * 999) + "=?", ["baac", "bbb", "bcca"]),  # 999a: 8991, 999, 4995
    ("?" + "+a" * 998 + "=bcd", []),                                 # '?' 998 levels down
    ("bcd=" + "a+" * 998 + "?", []),                                 # and on the right
    ("b" + "/a" * 997 + "/?=b", None),                                # not determined
    ("?" + "/a" * 998 + "=b", []),                                    # ? = b * a**998
    ("(" * 50 + "a" + "+a)" * 50 + "+a" * 948 + "=?", ["baac", "bbb", "bcca"]),
])
def test_a_thousand_operands_compose(shallow_stack, query, found):
    index = Index.from_counts({"baac": 6, "bbb": 5, "bcca": 4, "acb": 3, "b": 2, "ab": 1})
    if found is None:
        with pytest.raises(ExpressionError, match="not determined"):
            shallow_stack(compose, query, index)
        return
    got = shallow_stack(compose, query, index)
    assert [(r.word, r.solution) for r in got] == unique_by_solve(query, index)
    assert [r.word for r in got] == found


def test_a_thousand_operands_in_pipe_mode():
    # one line of 1000 operands: rows, not an internal error; 1001: one error line
    import io

    from cryptocomp.prompt.app import run_lines
    from cryptocomp.prompt.session import Session
    from cryptocomp.prompt.settings import Settings

    session = Session(Index.from_counts({"bbb": 5}), settings=Settings(shown=None))
    out, err = io.StringIO(), io.StringIO()
    lines = ["+".join(["a"] * 999) + "=?\n", "+".join(["a"] * 1000) + "=?\n"]
    assert run_lines(session, lines, out, err) == 2
    assert out.getvalue().splitlines()[0].split("\t")[1] == "bbb"
    assert "more than 1000 operands" in err.getvalue().splitlines()[0]
    assert "internal error" not in err.getvalue()


# -- one enumeration shared by puzzles of one shape (batch composition) ----------------------

def _renamed(text: str, mapping: dict[str, str]) -> str:
    return "".join(mapping.get(ch, ch) for ch in text)


@st.composite
def _alike_cases(draw):
    """(texts, counts): a small puzzle with the unknown anywhere, and 2-4 renamings of its
    letters into a pool that the dictionary's words share (so that results differ)."""
    left, right, counts = draw(st.one_of(
        shape_cases(), right_cases().map(lambda c: (c[0], ("?",), c[1]))))
    text = puzzle_text(left) + ("" if right == ("?",) else "=" + puzzle_text(right))
    letters = letters_in(puzzle_words(left) + puzzle_words(right))
    pool = "abcdexyz"
    texts = [text]
    for _ in range(draw(st.integers(1, 3))):
        image = draw(st.permutations(pool))[:len(letters)]
        texts.append(_renamed(text, dict(zip(letters, image))))
    return texts, counts


@_SETTINGS
@given(_alike_cases())
def test_compose_alike_equals_composing_each(case):
    from cryptocomp.cryptarithm.compose import alike_key, compose_alike, compose_puzzle
    from cryptocomp.cryptarithm.expr import parse

    texts, counts = case
    index = Index.from_counts(counts, name="t")
    puzzles = [parse(t) for t in texts]
    assert len({alike_key(p) for p in puzzles}) == 1
    try:
        each = [compose_puzzle(p, index) for p in puzzles]
    except ExpressionError:
        with pytest.raises(ExpressionError):
            compose_alike(puzzles, index)
        return
    assert compose_alike(puzzles, index) == each
    assert compose_alike(puzzles, index, max_results=1) == [rs[:1] for rs in each]


def test_compose_alike_refuses_other_shapes():
    from cryptocomp.cryptarithm.compose import alike_key, compose_alike
    from cryptocomp.cryptarithm.expr import parse

    index = Index.from_counts(EN_COUNTS)
    assert alike_key(parse("send+more")) == alike_key(parse("SEND + MORE")) == \
        "0123+4561=? LATIN"
    assert alike_key(parse("send+more")) != alike_key(parse("send-more"))
    assert alike_key(parse("ab+cd")) != alike_key(parse("аб+вг"))
    with pytest.raises(ValueError):
        compose_alike([parse("send+more"), parse("send-more")], index)
    assert compose_alike([], index) == []


def test_compose_alike_with_templates_and_constraints():
    """Puzzles of one key whose unknowns have different templates: each gets its own
    candidate words, the enumeration is still shared."""
    from cryptocomp.cryptarithm.compose import alike_key, compose_alike, compose_puzzle
    from cryptocomp.cryptarithm.expr import parse

    index = Index.from_counts(EN_COUNTS)
    texts = ["send+more=m????", "send+more", "send+more=?o???", "dens+more=[*y]"]
    puzzles = [parse(t) for t in texts]
    assert len({alike_key(p) for p in puzzles}) == 1
    for options in ({}, {"contains": "o"}, {"excludes": "q", "max_length": 5}):
        words = WordFilter(**options)
        each = [compose_puzzle(p, index, words) for p in puzzles]
        assert compose_alike(puzzles, index, words) == each
    assert any(compose_puzzle(p, index) for p in puzzles)
    # one puzzle's own error (its template's letter is excluded) is raised for the group
    with pytest.raises(ExpressionError, match="letter 'y' of the template is excluded"):
        compose_alike(puzzles, index, WordFilter(excludes="y"))
