"""Fuzzing ``compose --from``: random small lists and options give a clean result or one
error line, never a traceback; and the generated puzzles equal a brute-force oracle over
every subset of a tiny list (sums, products, a fixed right word, a free right side)."""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import tempfile
from pathlib import Path

import pytest
from generation_cases import holds
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.cli import main
from cryptocomp.cryptarithm.generation import GenerationSpec
from cryptocomp.cryptarithm.harvest import harvest

# list lines: words, words of another alphabet, comments, blanks, junk a list may hold
_line = st.one_of(st.text("abcde", min_size=1, max_size=4), st.text("абв", min_size=1,
                  max_size=3), st.just("# a comment"), st.just(""),
                  st.text("ab+= '\t-_1é\u0301", min_size=1, max_size=4))
_options = st.fixed_dictionaries({}, optional={
    "--right": st.sampled_from([["unique"], ["free"], ["fixed", "ab"], ["fixed"], ["up"],
                                ["fixed", "a", "b"]]),
    "--min": st.sampled_from(["3", "4", "2", "x"]),
    "--max": st.sampled_from(["3", "5", "0"]),
    "--ops": st.sampled_from(["+", "*", "-", "+*"]),
    "--top": st.sampled_from(["1", "0", "3"]),
    "--time": st.sampled_from(["5", "0", "nan"]),
    "--steps": st.sampled_from(["1", "40", "0", "-3", "x", "1e3", str(2**70)]),
    "--cross": st.sampled_from(["3", "2", "x"]),
    "--jobs": st.sampled_from(["1", "0", "x"]),   # 1: the split search, in this process
    "--base": st.sampled_from(["10", "8", "16", "1"]),
    "--difficulty": st.just(None), "--json": st.just(None)})


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


@settings(max_examples=60, deadline=None)
@given(st.lists(_line, max_size=6), _options)
@pytest.mark.slow
def test_random_lists_and_options_never_trace(lines: list[str], options: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "list.txt"
        path.write_text("\n".join(lines), encoding="utf-8")
        argv = ["compose", "--from", str(path)]
        for flag, value in options.items():
            argv += [flag] if value is None else [flag, *([value] if isinstance(value, str)
                                                         else value)]
        rc, out, err = _run(argv)
    assert "Traceback" not in err and "Traceback" not in out
    assert rc in (0, 1, 2, 3), (argv, rc, err)
    if rc == 2:
        assert out == "" and len(err.strip().splitlines()) == 1, (argv, err)
    elif rc == 0 and "--json" not in options and "--base" not in options:
        for line in out.splitlines():
            puzzle, equation = line.split("\t")[:2]
            assert holds(puzzle, equation), line


def _value(word: str, fill: dict[str, int]) -> int:
    return int("".join(str(fill[ch]) for ch in word))


def _solutions(left: tuple[str, ...], right: tuple[str, ...], op: str) -> int:
    """Solutions of ``left = right`` by trying every assignment (at most 2 counted)."""
    words = (*left, *right)
    symbols = list(dict.fromkeys("".join(words)))
    if len(symbols) > 10:
        return 0
    leading = {w[0] for w in words if len(w) > 1}
    count = 0
    for digits in itertools.permutations(range(10), len(symbols)):
        fill = dict(zip(symbols, digits))
        if any(fill[s] == 0 for s in leading):
            continue
        values = [_value(w, fill) for w in left]
        total = sum(values) if op == "+" else math.prod(values)
        if total == sum(_value(w, fill) for w in right):
            count += 1
            if count > 1:
                break
    return count


def _oracle(words: tuple[str, ...], right: str, fixed: str | None, op: str, low: int,
            high: int) -> set:
    """Every puzzle of the rules by trying every subset, as unordered pairs of sides."""
    out = set()
    n = len(words)
    if right == "free":
        for sides in itertools.product((0, 1, 2), repeat=n):  # nowhere, left, right
            left = tuple(w for w, s in zip(words, sides) if s == 1)
            rhs = tuple(w for w, s in zip(words, sides) if s == 2)
            if left and rhs and low <= len(left) + len(rhs) <= high and \
                    _solutions(left, rhs, "+") == 1:
                out.add(frozenset({frozenset(left), frozenset(rhs)}))
        return out
    pool = [w for w in words if w != fixed]
    for k in range(2, len(pool) + 1):
        if not low <= k + 1 <= high:
            continue
        for left in itertools.combinations(pool, k):
            for r in [fixed] if fixed else pool:
                if r not in left and _solutions(left, (r,), op) == 1:
                    out.add(frozenset({frozenset(left), frozenset({r})}))
    return out


_tiny = st.lists(st.text("abcd", min_size=1, max_size=3), min_size=3, max_size=4,
                 unique=True)


@settings(max_examples=25, deadline=None)
@given(_tiny, st.sampled_from(["unique", "fixed", "free"]), st.sampled_from("+*"),
       st.integers(3, 4), st.sampled_from([None, 3, 4]))
@pytest.mark.slow
def test_generated_puzzles_match_the_subset_oracle(words: list[str], right: str, op: str,
                                                   low: int, high: int | None) -> None:
    if right == "free":
        op = "+"
    if high is not None and high < low:
        high = low
    fixed = words[-1] if right == "fixed" else None
    spec = GenerationSpec(tuple(words), right=right, fixed=fixed, min_words=low,
                          max_words=high, op=op)
    got = harvest(spec)
    assert got.complete
    pairs = [frozenset({frozenset(g.left), frozenset(g.right)}) for g in got.puzzles]
    assert len(pairs) == len(set(pairs))   # each puzzle once
    assert set(pairs) == _oracle(tuple(words), right, fixed, op, low,
                                 high if high is not None else len(words) + 1)
