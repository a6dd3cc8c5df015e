"""The composer against brute-force oracles on small random dictionaries and puzzles.

Two oracles, independent of the library's parser, evaluator and bounds (puzzles are
built here as tuples, rendered to text, and evaluated here):

* ``_solutions_all``: enumerate every assignment of digits to *all* letters of LEFT=W
  (all 10!/(10-n)! rows of ``itertools.permutations``, evaluated as numpy columns of
  exact integers) and keep those satisfying the rules;
* ``_solutions_by_value``: enumerate the assignments of the puzzle's own letters,
  compute the unknown's value directly and check the word spells it (used where the
  first would be too slow: long words).

The generators reach every position of the unknown under every operator: a *shape*
is the path from the root of the unknown's side down to ``?`` (one operator and one
side per level), :data:`SHAPES` holds every shape up to depth 3, the unknown's side
stands left or right of ``=``, and the dictionaries get the words spelling the
unknown's largest values, where a too-small bound would lose them.
"""

from __future__ import annotations

import itertools
import string

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import cryptocomp.cryptarithm.evaluation as evaluation
from cryptocomp import Index, WordFilter
from cryptocomp.cryptarithm.compose import Composed, compose
from cryptocomp.cryptarithm.solve import solve
from cryptocomp.errors import ExpressionError

# -- puzzles as tuples: ("w", letters) | ("?",) | ("n", value) | (op, left, right) -----------


def _text(tree) -> str:
    kind = tree[0]
    if kind == "w":
        return tree[1]
    if kind == "?":
        return "?"
    if kind == "n":
        return str(tree[1])
    return f"({_text(tree[1])}{kind}{_text(tree[2])})"


def _words(tree) -> list[str]:
    kind = tree[0]
    if kind == "w":
        return [tree[1]]
    if kind in "?n":
        return []
    return _words(tree[1]) + _words(tree[2])


def _fill(tree, hole):
    kind = tree[0]
    if kind == "?":
        return hole
    if kind in "wn":
        return tree
    return (kind, _fill(tree[1], hole), _fill(tree[2], hole))


def _value(tree, digits: dict[str, int]):
    """Exact integer value, or None when a division is by zero or leaves a remainder."""
    kind = tree[0]
    if kind == "w":
        return int("".join(str(digits[c]) for c in tree[1]))
    if kind == "n":
        return tree[1]
    a, b = _value(tree[1], digits), _value(tree[2], digits)
    if a is None or b is None:
        return None
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    if b == 0 or a % b:
        return None
    return a // b


def _letters(words) -> list[str]:
    out: list[str] = []
    for w in words:
        for c in w:
            if c not in out:
                out.append(c)
    return out


def _fills(words):
    """Every injective digit assignment of the words' letters with no leading zero."""
    letters = _letters(words)
    for digits in itertools.permutations(range(10), len(letters)):
        fill = dict(zip(letters, digits))
        if not any(len(w) > 1 and fill[w[0]] == 0 for w in words):
            yield fill


def _solutions_all(left, right) -> list[dict[str, int]]:
    """Every assignment of all letters of left=right satisfying the rules (brute force)."""
    words = _words(left) + _words(right)
    letters = _letters(words)
    # int64 where no value can reach 2**62 (forward evaluation), else exact Python ints
    exact = max(_magnitude(left), _magnitude(right)) >= 2 ** 62
    rows = _all_rows(len(letters), object if exact else np.int64)
    cols = {c: rows[:, j] for j, c in enumerate(letters)}
    ok = np.ones(len(rows), dtype=bool)
    for w in words:
        if len(w) > 1:
            ok &= cols[w[0]] != 0
    a, oka = _column_value(left, cols, len(rows))
    b, okb = _column_value(right, cols, len(rows))
    ok &= oka & okb & (a == b)
    return [dict(zip(letters, map(int, rows[i]))) for i in np.flatnonzero(ok)]


def _magnitude(tree) -> int:
    """An upper bound on |every value| met evaluating a complete tree."""
    kind = tree[0]
    if kind == "w":
        return 10 ** len(tree[1])
    if kind == "n":
        return abs(tree[1])
    a, b = _magnitude(tree[1]), _magnitude(tree[2])
    return a * b if kind == "*" else a + b


_ROWS: dict = {}


def _all_rows(n: int, dtype) -> np.ndarray:
    """Every injective assignment of digits to n letters, one row each."""
    if (n, dtype) not in _ROWS:
        _ROWS[n, dtype] = np.array(list(itertools.permutations(range(10), n)),
                                   dtype=dtype).reshape(-1, n)
    return _ROWS[n, dtype]


def _column_value(tree, cols, n: int):
    """(values, defined) of a tree over all rows, in the rows' integer type."""
    dtype = next(iter(cols.values())).dtype if cols else np.int64
    kind = tree[0]
    if kind == "w":
        v = np.zeros(n, dtype=dtype)
        for c in tree[1]:
            v = v * 10 + cols[c]
        return v, np.ones(n, dtype=bool)
    if kind == "n":
        return np.full(n, tree[1], dtype=dtype), np.ones(n, dtype=bool)
    (a, oka), (b, okb) = _column_value(tree[1], cols, n), _column_value(tree[2], cols, n)
    ok = oka & okb
    if kind == "+":
        return a + b, ok
    if kind == "-":
        return a - b, ok
    if kind == "*":
        return a * b, ok
    nonzero = (b != 0).astype(bool)
    safe = np.where(nonzero, b, 1).astype(dtype)
    exact = nonzero & (a % safe == 0).astype(bool)
    return a // safe, ok & exact


def _solutions_by_value(left, right, word) -> list[dict[str, int]]:
    """Same as _solutions_all for ``left=word`` (right must be the hole), found from the
    value of the left side: enumerate the left's letters only, then check that the word
    spells the value (its other letters on free digits, one digit each)."""
    assert right == ("?",)
    out = []
    for fill, v in _left_values(left):
        s = str(v)
        if len(s) != len(word):
            continue
        full = dict(fill)
        if all(full.setdefault(c, int(d)) == int(d) for c, d in zip(word, s)) \
                and len(set(full.values())) == len(full):
            out.append(full)
    return out


_VALUES: dict = {}


def _left_values(left) -> list[tuple[dict[str, int], int]]:
    """(assignment, value) for every valid assignment of the left's letters, value >= 0."""
    if left not in _VALUES:
        out = []
        for fill in _fills(_words(left)):
            v = _value(left, fill)
            if v is not None and v >= 0:
                out.append((fill, v))
        _VALUES.clear()
        _VALUES[left] = out
    return _VALUES[left]


def _script_ok(word: str, query_letters: str) -> bool:
    latin = set(string.ascii_lowercase)
    return all((c in latin) == (query_letters[0] in latin) for c in word)


def _expected(left, right, counts: dict[str, int], query_letters: str, *, by_value=False):
    """[(word, solution)] for every word with exactly one solution, most frequent first."""
    ranked = sorted(counts, key=lambda w: (-counts[w], w))
    out = []
    for w in ranked:
        if not _script_ok(w, query_letters):
            continue
        if by_value:
            sols = _solutions_by_value(left, right, w)
        else:
            sols = _solutions_all(_fill(left, ("w", w)), _fill(right, ("w", w)))
        if len(sols) == 1:
            out.append((w, sols[0]))
    return out


def _undetermined(left, right) -> bool:
    """Some valid assignment of the puzzle's letters leaves '?' free at some level: with
    every known operand defined (and no dividend beside '?' divided by 0), going down
    from '=' every level so far is solvable, and then a factor, or a dividend over '?',
    is 0 where the target is 0 (0*?=0, 0/?=0): the identity does not pin '?' there.
    This is the composer's rule for refusing a puzzle (README, rule 4)."""
    hole_side, known = (left, right) if _has_hole(left) else (right, left)
    for fill in _fills(_words(left) + _words(right)):
        t = _value(known, fill)
        node, levels = hole_side, []
        while node[0] != "?":
            op, a, b = node
            hole_left = _has_hole(a)
            levels.append((op, hole_left, _value(b if hole_left else a, fill)))
            node = a if hole_left else b
        if t is None or any(o is None or (op == "/" and hl and o == 0) for op, hl, o in levels):
            continue
        for op, hole_left, o in levels:
            if o == 0 and t == 0 and (op == "*" or (op == "/" and not hole_left)):
                return True
            t = _step(op, hole_left, o, t)
            if t is None:
                break
    return False


def _check_against_oracle(left, right, counts, **kwargs) -> int | None:
    """Compose the puzzle and compare with the brute force; the number of words found
    (None when the composer refused the puzzle, rightly)."""
    query = _text(left) + ("" if right == ("?",) else "=" + _text(right))
    letters = "".join(_letters(_words(left) + _words(right)))
    index = Index.from_counts(counts, name="t")
    index._check()
    try:
        got = compose(query, index)
    except ExpressionError as exc:
        assert "not determined" in str(exc), exc
        assert _undetermined(left, right), query
        return None
    assert not _undetermined(left, right), query
    want = _expected(left, right, counts, letters, **kwargs)
    assert [r.word for r in got] == [w for w, _ in want], query
    for r, (_w, sol) in zip(got, want):
        _check_composed(r, index)
        assert r.assignment == sol
        # the solution in digits is the puzzle with the assignment applied
        digits = "".join(str(sol[c]) if c in sol else c for c in r.puzzle)
        assert r.solution == digits
    return len(got)


def _check_composed(r: Composed, index: Index) -> None:
    r._check()
    assert r.rank == index.id_of(r.word) + 1 and r.count == index.count(r.word)
    assert len(set(r.assignment.values())) == len(r.assignment)
    assert all(0 <= d <= 9 for d in r.assignment.values())


# -- hypothesis strategies --------------------------------------------------------------------

def _spell(value: int, fill: dict[str, int], extra: str) -> str | None:
    """The template word of a value under an assignment: assigned digits as their
    letters, other digits as letters of ``extra`` (None when it runs out)."""
    if value < 0:
        return None
    letter_of = {d: c for c, d in fill.items()}
    fresh: dict[str, str] = {}
    out = []
    for ch in str(value):
        d = int(ch)
        if d in letter_of:
            out.append(letter_of[d])
        else:
            if ch not in fresh:
                if len(fresh) == len(extra):
                    return None
                fresh[ch] = extra[len(fresh)]
            out.append(fresh[ch])
    return "".join(out)


@st.composite
def _right_cases(draw, letters="abcde", extra="xyz", foreign="жз"):
    """(left, counts) for LEFT=?: a richer puzzle (up to four letters, operands of up to
    three) and a dictionary of random words plus words spelled from the values of random
    assignments (those have at least one solution, and often exactly one)."""
    word = st.text(letters, min_size=1, max_size=3).map(lambda w: ("w", w))
    tree = st.recursive(word, lambda c: st.tuples(st.sampled_from("+-*/"), c, c), max_leaves=2)
    left = draw(st.tuples(st.sampled_from("+-*/"), tree, tree))
    query_letters = _letters(_words(left))
    words = draw(st.lists(st.text(letters * 2 + extra, min_size=1, max_size=4),
                          max_size=5, unique=True))
    words += draw(st.lists(st.text(foreign, min_size=1, max_size=2), max_size=2, unique=True))
    digits = st.permutations(range(10)).map(lambda p: dict(zip(query_letters, p)))
    for fill in draw(st.lists(digits, min_size=1, max_size=8)):
        v = _value(left, fill)
        w = None if v is None else _spell(v, fill, extra)
        if w and len(w) <= 6:
            words.append(w)
    counts = {w: draw(st.integers(1, 50)) for w in dict.fromkeys(words)}
    if not counts:
        counts = {"a": 1}
    return left, counts


# -- shapes: every position of the unknown under every operator ------------------------------

_STEPS = [(op, hole_left) for op in "+-*/" for hole_left in (True, False)]
# the path from the root of the unknown's side down to '?': (operator, '?' in its left
# operand) per level, outermost first; every one of depth 0 to 3
SHAPES = [shape for depth in range(4) for shape in itertools.product(_STEPS, repeat=depth)]


def _side_with_hole(shape, siblings):
    """The unknown's side: '?' under the shape's operators, with the known operands
    ``siblings`` (one per level, outermost first) beside it."""
    node = ("?",)
    for (op, hole_left), sibling in zip(reversed(shape), reversed(siblings)):
        node = (op, node, sibling) if hole_left else (op, sibling, node)
    return node


def _has_hole(tree) -> bool:
    return tree[0] == "?" or (tree[0] in "+-*/" and (_has_hole(tree[1]) or _has_hole(tree[2])))


def _step(op: str, hole_left: bool, o: int, t: int) -> int | None:
    """The target of the operand holding '?' at one level (``o`` is the other operand,
    ``t`` the level's target), in exact integers; None when no value solves it."""
    if op == "+":
        return t - o
    if op == "-":
        return t + o if hole_left else o - t
    if op == "*":
        return None if o == 0 or t % o else t // o
    if hole_left:
        return t * o if o else None
    # o / X = t: X = o / t, exact, and not 0 (a divisor)
    return None if t == 0 or o == 0 or o % t else o // t


def _invert(side, target, fill):
    """The value of '?' making ``side`` equal ``target`` under ``fill``, solved level by
    level; None when there is none (or, at a free level, not one)."""
    t, node = target, side
    while node[0] != "?" and t is not None:
        op, a, b = node
        hole_left = _has_hole(a)
        o = _value(b if hole_left else a, fill)
        if o is None:
            return None
        t = _step(op, hole_left, o, t)
        node = a if hole_left else b
    return t


def _hole_words(hole_side, known, extra: str) -> list[str]:
    """Words spelling a value of '?' that solves the puzzle for some assignment of its
    letters (each value checked forward), longest (largest values) first."""
    words = _words(hole_side) + _words(known)
    out = {}
    for fill in _fills(words):
        t = _value(known, fill)
        h = None if t is None else _invert(hole_side, t, fill)
        if h is None or h < 0 or _value(_fill(hole_side, ("n", h)), fill) != t:
            continue
        w = _spell(h, fill, extra)
        if w:
            out[w] = max(out.get(w, -1), h)
    return sorted(out, key=lambda w: -out[w])


def _shape_case(shape, siblings, known, hole_left, words, planted, extra):
    """(left, right, counts) for a shape: the random ``words`` plus the ``planted``
    indices into the words that spell solutions of '?' (index 0: the largest)."""
    hole_side = _side_with_hole(shape, siblings)
    left, right = (hole_side, known) if hole_left else (known, hole_side)
    spelled = _hole_words(hole_side, known, extra)
    words = list(words) + [spelled[i] for i in planted if i < len(spelled)]
    words = list(dict.fromkeys(w for w in words if w)) or ["a"]
    counts = {w: 1 + (i * 7) % 50 for i, w in enumerate(words)}
    return left, right, counts


@st.composite
def _shape_cases(draw, letters="ab", known_letters="abc", extra="xy", foreign="жз",
                 shapes=SHAPES):
    """(left, right, counts): '?' at a random shape (every operator, either operand,
    depth 0 to 3) on a random side of '=', small known operands, a random dictionary
    plus the words of the unknown's largest and of random solving values."""
    depth = draw(st.integers(min(map(len, shapes)), max(map(len, shapes))))
    shape = draw(st.sampled_from([s for s in shapes if len(s) == depth]))
    word = st.text(letters, min_size=1, max_size=3).map(lambda w: ("w", w))
    pair = st.tuples(st.sampled_from("+-*/"), word, word)
    siblings = [draw(word | pair if len(shape) < 3 else word) for _ in shape]
    known = draw(st.text(known_letters, min_size=1, max_size=2).map(lambda w: ("w", w)) | pair)
    hole_left = draw(st.booleans())
    words = draw(st.lists(st.text(letters * 2 + known_letters + extra, min_size=1,
                                  max_size=4), max_size=4, unique=True))
    words += draw(st.lists(st.text(foreign, min_size=1, max_size=2), max_size=2, unique=True))
    planted = [0, 1, 2] + draw(st.lists(st.integers(3, 40), max_size=3))
    event(f"depth {len(shape)}")
    for level, (op, on_left) in enumerate(shape):
        event(f"'?' {'left' if on_left else 'right'} of {op} at depth {level + 1}")
    event(f"'?' on the {'left' if hole_left else 'right'} of '='")
    return _shape_case(shape, siblings, known, hole_left, words, planted, extra)


_SETTINGS = settings(max_examples=60, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(_right_cases())
def test_compose_matches_oracle(case):
    left, counts = case
    _check_against_oracle(left, ("?",), counts, by_value=True)


@_SETTINGS
@given(_shape_cases())
def test_compose_unknown_operand_matches_brute_force(case):
    found = _check_against_oracle(*case)
    event("refused (not determined)" if found is None else f"{min(found, 2)}+ words found")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_right_cases(letters="абвгд", extra="ежз", foreign="xy"))
def test_compose_matches_oracle_cyrillic(case):
    left, counts = case
    _check_against_oracle(left, ("?",), counts, by_value=True)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_shape_cases(letters="аб", known_letters="абв", extra="гд", foreign="xy"))
def test_compose_unknown_operand_matches_brute_force_cyrillic(case):
    left, right, counts = case
    _check_against_oracle(left, right, counts)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(right=_right_cases(), anywhere=_shape_cases())
def test_compose_big_number_path_matches_oracle(right, anywhere):
    # force the object-dtype (Python int) evaluation used for numbers beyond int64,
    # for these examples only
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(evaluation, "_INT64_LIMIT", 0)
        _check_against_oracle(right[0], ("?",), right[1], by_value=True)
        _check_against_oracle(*anywhere)


def test_shapes_reach_every_position_under_every_operator():
    # the generators draw from SHAPES: every operator, '?' as either operand, at every
    # depth up to 3 (dividend, divisor, minuend, subtrahend, factor, addend, nested)
    from cryptocomp.cryptarithm.expr import BinOp, has_hole, parse

    for depth in range(1, 4):
        for level in range(depth):
            for step in _STEPS:
                assert any(len(s) == depth and s[level] == step for s in SHAPES)
    assert () in SHAPES and len(SHAPES) == 1 + 8 + 64 + 512
    # and the side built for a shape puts '?' exactly there (read back by the parser)
    for shape in SHAPES:
        side = _side_with_hole(shape, [("w", "ab")] * len(shape))
        for text in (_text(side) + "=c", "c=" + _text(side)):
            p = parse(text)
            node = p.left if has_hole(p.left) else p.right
            path = []
            while isinstance(node, BinOp):
                path.append((node.op, has_hole(node.left)))
                node = node.left if has_hole(node.left) else node.right
            assert tuple(path) == shape, text


@pytest.mark.parametrize("hole_left", [True, False], ids=["?-side-left", "?-side-right"])
@pytest.mark.parametrize("shape", [s for s in SHAPES if len(s) <= 2],
                         ids=lambda s: "".join(f"{op}{'L' if hl else 'R'}" for op, hl in s) or "?")
def test_every_shape_matches_brute_force(shape, hole_left):
    # deterministic: each shape of depth <= 2 on each side of '=', long known operands
    # beside '?' and a short other side (the case where a too-small bound loses the
    # unknown's longest words), with the words of its largest values planted
    siblings = [("w", w) for w in ("aba", "ba")[:len(shape)]]
    words = ["ab", "xa", "bxy"]
    _check_against_oracle(*_shape_case(shape, siblings, ("w", "c"), hole_left, words,
                                       [0, 1, 2, 5], "xy"))


# -- fixed cases -------------------------------------------------------------------------------

_EN = {"money": 500, "honey": 300, "mommy": 20, "send": 400, "demon": 90, "nodes": 80,
       "romeo": 70, "monet": 60, "more": 450, "move": 200, "mover": 10, "day": 5, "жена": 3}


def _unique_by_solve(template: str, index: Index) -> list[tuple[str, str]]:
    """(word, solution) for the words w of index whose puzzle template.replace('?', w)
    has exactly one solution according to :func:`cryptocomp.cryptarithm.solve.solve` (tested on its
    own against brute force and the exercism data)."""
    out = []
    for w in index.words:
        if w[0] not in string.ascii_lowercase:
            continue
        try:
            solved = solve(template.replace("?", w))
        except ExpressionError:  # more than ten letters: no solution
            continue
        if solved.count == 1:
            out.append((w, solved.equations[0]))
    return out


@pytest.mark.slow
def test_send_more():
    index = Index.from_counts(_EN)
    got = compose("SEND + MORE", index)
    assert [(r.word, r.solution) for r in got] == _unique_by_solve("send+more=?", index)
    assert got[0].word == "money" and got[0].solution == "9567+1085=10652"
    assert got[0].puzzle == "send+more=money"
    for r in got:
        _check_composed(r, index)
    assert got[0].assignment == dict(zip("sendmory", [9, 5, 6, 7, 1, 0, 8, 2]))


@pytest.mark.slow
def test_unknown_operand_first_and_middle():
    index = Index.from_counts({w: _EN[w] for w in ["more", "move", "money", "day", "жена"]})
    for query in ["?-more=money", "send+?=money", "(send+?)*y=money"]:
        got = compose(query, index)
        assert [(r.word, r.solution) for r in got] == _unique_by_solve(query, index), query
    got = compose("send+?=money", index)
    r = got[[r.word for r in got].index("more")]
    assert r.puzzle == "send+more=money" and r.solution == "9567+1085=10652"


def test_long_results_use_wide_keys():
    # results up to 14 digits: keys span two uint64 words
    counts = {"abxyzabxyzabxy": 5, "bbbbbbbbbbbbbb": 4, "xyzwvutsrqponm": 3, "abab": 2, "ba": 1,
              "bxbxbxbxbxbxb": 6, "xxxxxxxxxxxx": 7}
    index = Index.from_counts(counts)
    left = ("*", ("*", ("*", ("w", "ab"), ("w", "ab")), ("*", ("w", "ab"), ("w", "ab"))),
            ("*", ("*", ("w", "ab"), ("w", "ab")), ("w", "ab")))
    got = compose(_text(left), index)
    want = _expected(left, ("?",), counts, "ab", by_value=True)
    assert [r.word for r in got] == [w for w, _ in want]
    for r, (_w, sol) in zip(got, want):
        assert r.assignment == sol


def test_cyrillic_query_never_yields_latin_words():
    # xyy and жзз have the same letter structure: each completes its own script's ab+b
    index = Index.from_counts({"xyy": 100, "жзз": 5, "ab": 1})
    assert [r.word for r in compose("аб+б", index)] == ["жзз"]
    assert [r.word for r in compose("ab+b", index)] == ["xyy"]


def test_vobly_is_not_unique():
    # the published algorithm called this unique; it has 336 solutions
    index = Index.from_counts({"воблы": 10, "новый": 5})
    assert "воблы" not in [r.word for r in compose("вышли-еще", index)]


def test_filters():
    index = Index.from_counts(_EN)
    full = compose("send+more", index)
    words = [r.word for r in full]
    assert [r.word for r in compose("send+more", index, max_results=2)] == words[:2]
    assert [r.word for r in compose("send+more", index, WordFilter(min_count=75))] == \
        [w for w in words if _EN[w] >= 75]
    ranked = sorted(_EN, key=lambda w: (-_EN[w], w))
    assert [r.word for r in compose("send+more", index, WordFilter(top=5))] == \
        [w for w in words if w in ranked[:5]]
    assert [r.word for r in compose("send+more", index,
                                    WordFilter(min_length=5, max_length=5))] == \
        [w for w in words if len(w) == 5]
    assert compose("send+more", index, WordFilter(max_length=4)) == []
    with pytest.raises(ExpressionError, match="must not be negative"):
        compose("send+more", index, max_results=-1)
    with pytest.raises(ExpressionError, match="top must not be negative"):
        compose("send+more", index, WordFilter(top=-1))


def test_negative_and_inexact_results_yield_nothing():
    index = Index.from_counts({"a": 1, "b": 2, "c": 3, "ab": 4})
    # a-bc is always negative
    assert compose("a-bc", index) == []
    for r in compose("ab/c", index):
        a, b, c = (r.assignment[x] for x in "abc")
        assert (10 * a + b) % c == 0


def test_undetermined_unknown_is_refused():
    index = Index.from_counts({"a": 1, "b": 2})
    with pytest.raises(ExpressionError, match="not determined") as info:
        compose("a*?=a", index)
    assert info.value.position == 2
    with pytest.raises(ExpressionError, match="not determined"):
        compose("b/?=a-a", index)
    # never undetermined: a two-letter factor is never 0
    compose("ab*?=cd", index)
    # refused whatever the dictionary holds, also with no candidate word at all
    for counts in ({"ж": 1}, {"x": 1}):
        with pytest.raises(ExpressionError, match="not determined"):
            compose("b=(b/(?+aa))*a", Index.from_counts(counts))


def test_free_level_below_an_unsolvable_one_is_no_refusal():
    # (?*a)*b=c: a = 0 would leave '?' free, but then c = 0 too, which is a's digit:
    # no assignment with a = 0 solves the upper level, so the puzzle is determined
    tree = ("*", ("*", ("?",), ("w", "a")), ("w", "b"))
    assert not _undetermined(tree, ("w", "c"))
    # composed (not refused), and the brute force agrees on every word
    assert _check_against_oracle(tree, ("w", "c"), {"d": 3, "e": 2, "bd": 1, "x": 1}) == 0


def test_complete_puzzle_is_not_composed():
    with pytest.raises(ExpressionError, match="use solve"):
        compose("send+more=money", Index.from_counts({"a": 1}))


def test_progress_is_reported():
    index = Index.from_counts(_EN)
    seen = []
    compose("send+more", index, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] == 604800


# -- command line ------------------------------------------------------------------------------

@pytest.fixture
def en_file(tmp_path):
    path = tmp_path / "en.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in _EN.items()), encoding="utf-8")
    return path


def test_cli_compose_plain_and_json(en_file, capsys):
    import json

    from cryptocomp.cli import main

    want = compose("send+more", Index.from_counts(_EN))
    assert main(["compose", "send+more", "--dict", str(en_file)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{r.puzzle}\t{r.solution}\t{r.count}" for r in want]
    assert main(["compose", "SEND + MORE", "--dict", str(en_file), "--json", "--top", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc == [{"word": "money", "count": 500, "rank": 1, "puzzle": "send+more=money",
                    "solution": "9567+1085=10652",
                    "assignment": dict(zip("sendmory", [9, 5, 6, 7, 1, 0, 8, 2]))}]


@pytest.mark.parametrize("argv, message", [
    (["compose", "send+"], "empty operand at the end (at position 6)"),
    (["compose", "send+more=money"], "use solve"),
    (["compose"], "give an EXPR or --batch"),
    (["compose", "a+b", "--top", "-1"], "--top must not be negative"),
    (["compose", "--batch", "nowhere.txt", "nowhere.txt"], "word list not found: nowhere.txt"),
])
def test_cli_compose_errors(en_file, capsys, argv, message):
    from cryptocomp.cli import main

    assert main(argv + ["--dict", str(en_file)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cryptocomp: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_cli_batch_groups_results_by_query(en_file, tmp_path, capsys):
    from cryptocomp.cli import main

    left = tmp_path / "left.txt"
    right = tmp_path / "right.txt"
    left.write_text("send\n# a comment\nabcdef\n", encoding="utf-8")
    right.write_text("more\nghijk\n", encoding="utf-8")
    assert main(["compose", "--batch", str(left), str(right), "--ops", "+-",
                 "--dict", str(en_file), "--jobs", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    index = Index.from_counts(_EN)
    want = []
    for q in ["send+more", "send+ghijk", "send-more", "send-ghijk", "abcdef+more",
              "abcdef+ghijk", "abcdef-more", "abcdef-ghijk"]:
        try:
            rs = compose(q, index)
        except ExpressionError as exc:
            want.append(f"# {q}: error: {exc}")
            continue
        want.append(f"# {q}: {len(rs)} puzzle{'s' if len(rs) != 1 else ''}")
        want += [f"{r.puzzle}\t{r.solution}\t{r.count}" for r in rs]
    assert out == want
    assert "# abcdef+ghijk: error: more than 10 distinct letters" in "\n".join(out)


def test_results_beyond_int64_use_python_ints():
    # ab**10 reaches 20 digits: evaluated with Python ints, keys of two uint64 words
    left = ("w", "ab")
    for _ in range(9):
        left = ("*", left, ("w", "ab"))
    words = []
    for a, b in [(9, 8), (8, 9), (9, 7), (7, 6), (5, 4)]:
        fill = {"a": a, "b": b}
        spelled = _spell(_value(left, fill), fill, "cdefghijkl")
        if spelled:
            words.append(spelled)
    assert any(len(w) > 18 for w in words)
    counts = {w: 10 + i for i, w in enumerate(words)}
    index = Index.from_counts(counts)
    got = compose(_text(left), index)
    want = _expected(left, ("?",), counts, "ab", by_value=True)
    assert [r.word for r in got] == [w for w, _ in want] and got
    for r, (_w, sol) in zip(got, want):
        assert r.assignment == sol
        _check_composed(r, index)


# -- regressions: the unknown under a divisor (issue 12, item 1) ------------------------------

def test_unknown_inside_a_divisor_reaches_the_dividends_size():
    # abc/(?/d)=e: ? = abc*d/e has up to four digits, and aaac is the one word of this
    # dictionary with exactly one solution (370/(3330/9)=1)
    index = Index.from_counts({"aaac": 10})
    got = compose("abc/(?/d)=e", index)
    assert [(r.puzzle, r.solution) for r in got] == [("abc/(aaac/d)=e", "370/(3330/9)=1")]
    solved = solve("abc/(aaac/d)=e")
    assert solved.count == 1 and solved.equations == ["370/(3330/9)=1"]


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
    got = compose("two/(?/a)=i", index)
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
@given(_shape_cases())
def test_bounds_hold_on_every_shape(case):
    # every value the composer computes, and every value of the unknown that solves the
    # puzzle, within the static bounds, for '?' anywhere (the shapes of the oracle tests)
    from cryptocomp.cryptarithm.evaluation import hole_bounds, largest, unknown_span
    from cryptocomp.cryptarithm.expr import bound, has_hole, parse

    left, right, _ = case
    p = parse(_text(left) + ("" if right == ("?",) else "=" + _text(right)))
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

    got = span(parse(_text(tree) + "=?").left)
    values = [v for fill in _fills(_words(tree)) if (v := _value(tree, fill)) is not None]
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
    assert [(r.word, r.solution) for r in got] == _unique_by_solve(query, index)
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
        _shape_cases(), _right_cases().map(lambda c: (c[0], ("?",), c[1]))))
    text = _text(left) + ("" if right == ("?",) else "=" + _text(right))
    letters = _letters(_words(left) + _words(right))
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

    index = Index.from_counts(_EN)
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

    index = Index.from_counts(_EN)
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
