"""Fuzzing the cryptarithm language (grammar.parse_system): whatever the text, a System or one
ExpressionError line whose column lies inside the text; never another exception; and every
system that parses keeps the limits (symbols within the base, values below the bound).

Example counts scale with the Hypothesis profile (tests/conftest.py).
"""

from __future__ import annotations

import random
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.cryptarithm.expr import BinOp
from cryptocomp.cryptarithm.grammar import MAX_VALUE_DIGITS, parse_system
from cryptocomp.cryptarithm.system import System, evaluate
from cryptocomp.errors import ExpressionError

SCALE = max(1, settings.default.max_examples // 100)
FUZZ = settings(max_examples=200 * SCALE, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SECONDS = 5

# the grammar's own characters, weighted toward them, and any other code point
PIECES = st.sampled_from(["a", "b", "Ab", "é", "e\u0301", "क", "ौ", "2", "10", "'", '"', "'7'",
                          "+", "-", "*", "/", "//", "%", "^", "=", "==", "!=", "!", "<", ">",
                          "<=", ">=", "&&", "&", ";", ";;", "(", ")", " ", "\t", "?", "[",
                          "]", "×", "÷", "−", ":", "≠", "\u200d", "\x00", "İ", "Σ", "ς",
                          "\U0001f600", "\u00a0", "ё"])
TEXTS = st.one_of(
    st.lists(PIECES, max_size=30).map("".join),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30),
)


def _parsed_or_refused(text: str, base: int, fold_yo: bool = False) -> System | None:
    """The system, or None after checking the refusal is one line with a column in the text."""
    started = time.monotonic()
    try:
        return parse_system(text, base=base, fold_yo=fold_yo)
    except ExpressionError as exc:
        line = str(exc)
        assert line and "\n" not in line, repr(line)
        assert exc.position is not None and exc.text is not None, line
        assert 0 <= exc.position <= len(exc.text), line
        caret = exc.caret().splitlines()
        assert len(caret) == 2 and caret[1].endswith("^"), line
        return None
    finally:
        assert time.monotonic() - started < SECONDS, text


def _subtrees(node):
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        if isinstance(n, BinOp):
            todo += [n.left, n.right]


def _check_limits(s: System, rnd: random.Random) -> None:
    assert len(s.symbols) <= s.base
    assert set(s.leading) <= set(s.symbols)
    for _ in range(3):
        fill = {ch: rnd.randrange(s.base) for ch in s.symbols}
        for r in s.relations:
            for side in (r.left, r.right):
                for n in _subtrees(side):
                    v = evaluate(n, fill, s.base)
                    assert v is None or abs(v) < 10 ** MAX_VALUE_DIGITS


@FUZZ
@given(TEXTS, st.integers(2, 36), st.booleans(), st.randoms(use_true_random=False))
def test_any_text_is_a_system_or_one_line_with_its_column(text, base, fold_yo, rnd):
    s = _parsed_or_refused(text, base, fold_yo)
    if s is not None:
        _check_limits(s, rnd)
        assert s.text and s.base == base
        again = parse_system(s.render(), base=base)   # its rendering is a text it reads
        assert again.render() == s.render()


@FUZZ
@given(st.lists(st.sampled_from(["ab", "(", ")", "-", "^", "*", "+", "cd", "'99'", "%"]),
                min_size=1, max_size=60).map("".join), st.integers(2, 36),
       st.randoms(use_true_random=False))
def test_deep_or_large_expressions_are_refused_or_bounded(expr, base, rnd):
    s = _parsed_or_refused(f"{expr} = ab", base)
    if s is not None:
        _check_limits(s, rnd)


def test_huge_texts_are_refused_quickly():
    for text in ("a+" * 100_000 + "a=b", "(" * 100_000, "-" * 100_000 + "a=b",
                 "'" + "9" * 100_000 + "'=a", "a^" * 4000 + "a=b", "ab" * 4000 + "=a"):
        assert _parsed_or_refused(text, 10) is None
