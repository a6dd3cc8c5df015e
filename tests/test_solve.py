"""The solver against brute force, the exercism alphametics data, and the seed's facts."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.cli import main
from cryptocomp.cryptarithm import permutations as perms
from cryptocomp.cryptarithm.solve import solve
from cryptocomp.errors import ExpressionError

DATA = Path(__file__).parent / "data" / "alphametics_exercism.json"


def _exercism_cases() -> list[dict]:
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    assert doc["format"] == 1
    return doc["cases"]


@pytest.mark.parametrize("case", _exercism_cases(), ids=lambda c: c["description"])
def test_exercism_alphametics(case):
    solved = solve(case["puzzle"])
    expected = case["expected"]
    if expected is None:
        assert solved.count == 0 and solved.solutions == []
    else:
        assert solved.count == 1
        assert solved.solutions == [{k.lower(): v for k, v in expected.items()}]


def _brute_force(words_left: list[str], ops: list[str], right: str) -> list[dict[str, int]]:
    """Every assignment of all letters making ``w0 op1 w1 ... = right`` true (left to right
    within precedence, exact division), by itertools.permutations and Python ints."""
    letters = list(dict.fromkeys("".join(words_left) + right))
    out = []
    for digits in itertools.permutations(range(10), len(letters)):
        fill = dict(zip(letters, digits))
        if any(len(w) > 1 and fill[w[0]] == 0 for w in words_left + [right]):
            continue
        nums = [int("".join(str(fill[c]) for c in w)) for w in words_left]
        value = _evaluate(nums, ops)
        if value is not None and value == int("".join(str(fill[c]) for c in right)):
            out.append(fill)
    return out


def _evaluate(nums: list[int], ops: list[str]) -> int | None:
    # first * and / left to right, then + and -
    terms, signs = [nums[0]], []
    for op, n in zip(ops, nums[1:]):
        if op == "*":
            terms[-1] *= n
        elif op == "/":
            if n == 0 or terms[-1] % n:
                return None
            terms[-1] //= n
        else:
            signs.append(op)
            terms.append(n)
    total = terms[0]
    for sign, t in zip(signs, terms[1:]):
        total = total + t if sign == "+" else total - t
    return total


@st.composite
def _puzzles(draw, letters="abcde"):
    n = draw(st.integers(1, 3))
    words = draw(st.lists(st.text(letters, min_size=1, max_size=3), min_size=n, max_size=n))
    ops = draw(st.lists(st.sampled_from("+-*/"), min_size=n - 1, max_size=n - 1))
    right = draw(st.text(letters, min_size=1, max_size=3))
    return words, ops, right


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_puzzles())
@pytest.mark.slow
def test_solve_matches_brute_force(puzzle):
    words, ops, right = puzzle
    text = "".join(w + op for w, op in zip(words, ops)) + words[-1] + "=" + right
    want = _brute_force(words, ops, right)
    got = solve(text, cap=5)
    got._check()
    assert got.count == len(want)
    assert got.solutions == want[:5]  # lexicographic order of the digit tuples
    for sol, eq in zip(got.solutions, got.equations):
        assert eq == "".join(str(sol[c]) if c in sol else c for c in got.puzzle)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_puzzles(letters="абвгд"))
def test_solve_matches_brute_force_cyrillic(puzzle):
    words, ops, right = puzzle
    text = "".join(w + op for w, op in zip(words, ops)) + words[-1] + "=" + right
    assert solve(text).count == len(_brute_force(words, ops, right))


def test_seed_facts():
    # the article's favourite is not unique: the published code enumerated combinations
    assert solve("вышли-еще=воблы").count == 336
    assert solve("хабр*хабр=поэтому").count >= 1
    s = solve("SEND + MORE = MONEY")
    assert (s.puzzle, s.count, s.equations) == ("send+more=money", 1, ["9567+1085=10652"])


def test_cap_limits_the_list_not_the_count():
    s = solve("a+b=c", cap=3)
    s._check()
    assert s.count == 32 and len(s.solutions) == 3 == len(s.equations)
    assert solve("a+b=c", cap=0).solutions == []


def test_expressions_on_both_sides_and_parentheses():
    s = solve("(a+b)*c=ab+c")
    want = [f for f in (dict(zip("abc", d)) for d in itertools.permutations(range(10), 3))
            if f["a"] != 0 and (f["a"] + f["b"]) * f["c"] == 10 * f["a"] + f["b"] + f["c"]]
    assert s.count == len(want) and s.solutions == want[:20]


def test_errors():
    with pytest.raises(ExpressionError, match="a relation needs a comparator"):
        solve("send+more")
    with pytest.raises(ExpressionError, match="complete puzzle"):
        solve("send+?=money")
    with pytest.raises(ExpressionError, match="more than 10 distinct symbols"):
        solve("abcdef+ghijk=a")
    with pytest.raises(ExpressionError, match="cap must not be negative"):
        solve("a=b", cap=-1)


def test_permutation_tables_are_lexicographic():
    for k in (0, 1, 3, 5):
        want = list(itertools.permutations(range(10), k))
        table = perms.table(k)
        assert table.shape == (k, perms.count(k))
        assert [tuple(col) for col in table.T.tolist()] == [tuple(p) for p in want]
    inv = perms.inverse(3).reshape(-1, perms.WIDTH)
    for i in (0, 17, 719):
        row = perms.table(3)[:, i]
        for d in range(10):
            held = [j for j in range(3) if row[j] == d]
            assert inv[i, d] == (held[0] if held else perms.UNSET)
        assert inv[i, 10] == perms.PAD_CODE


def test_cli_solve(capsys):
    assert main(["solve", "send+more=money"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["send+more=money: 1 solution", "9567+1085=10652"]
    assert out[2].startswith("difficulty: level ") and len(out) == 3
    assert main(["solve", "a+b=c", "--json", "--cap", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["count"] == 32 and len(doc["solutions"]) == 2 and doc["equations"][0] == "1+2=3"
    assert main(["solve", "a+=b"]) == 2
    assert "cryptocomp: error: empty operand" in capsys.readouterr().err


@pytest.mark.slow
def test_huge_divisor_is_exact():
    # a/(bcdefghij*bcdefghij) is at most 9, but the divisor needs ~18 digits: no overflow
    from cryptocomp.cryptarithm.evaluation import dtype_for, largest
    from cryptocomp.cryptarithm.expr import parse

    p = parse("a/(bcdefghij*bcdefghij*bc)=a")
    assert dtype_for(largest(p.left)).kind == "O"
    s = solve("a/(bcdefghij*bcdefghij*bc)=a", cap=3)
    s._check()
    # the divisor exceeds every a > 0, so only a = 0 works (0/x = 0), with any other digits
    assert s.count == 362880 and all(sol["a"] == 0 for sol in s.solutions)


def test_a_thousand_operands(shallow_stack):
    # the limit of the parser: 1000 operands, solved without recursion
    s = shallow_stack(solve, "+".join(["a"] * 999) + "=bcca")
    assert s.count == 1 and s.equations[0].endswith("=4995")  # a = 5: 999 * 5 = 4995
    s = shallow_stack(solve, "/".join(["a"] * 999) + "=b", cap=20)
    assert s.count == 0  # a/a/.../a is 1/a/... : 1 only for a = 1, and then b would be a
    s = shallow_stack(solve, "a" + "-a" * 997 + "+bc=bc")
    assert s.count == 72  # a - 997a = 0 only for a = 0, with b (not 0) and c free: 9 * 8
    with pytest.raises(ExpressionError, match="more than 1000 operands"):
        solve("+".join(["a"] * 1000) + "=bcd")
