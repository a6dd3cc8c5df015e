"""Brute-force oracles for the composer, independent of the library's parser, evaluator and
bounds, and the hypothesis strategies that feed them (shared by test_compose.py and
test_compose_bounds.py).

Puzzles are built here as tuples, rendered to text, and evaluated here:

* ``solutions_all``: enumerate every assignment of digits to *all* letters of LEFT=W
  (all 10!/(10-n)! rows of ``itertools.permutations``, evaluated as numpy columns of
  exact integers) and keep those satisfying the rules;
* ``solutions_by_value``: enumerate the assignments of the puzzle's own letters,
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
from hypothesis import event
from hypothesis import strategies as st

from cryptocomp import Index
from cryptocomp.cryptarithm.compose import Composed, compose
from cryptocomp.cryptarithm.solve import solve
from cryptocomp.errors import ExpressionError

# -- puzzles as tuples: ("w", letters) | ("?",) | ("n", value) | (op, left, right) -----------


def puzzle_text(tree) -> str:
    kind = tree[0]
    if kind == "w":
        return tree[1]
    if kind == "?":
        return "?"
    if kind == "n":
        return str(tree[1])
    return f"({puzzle_text(tree[1])}{kind}{puzzle_text(tree[2])})"


def puzzle_words(tree) -> list[str]:
    kind = tree[0]
    if kind == "w":
        return [tree[1]]
    if kind in "?n":
        return []
    return puzzle_words(tree[1]) + puzzle_words(tree[2])


def _fill(tree, hole):
    kind = tree[0]
    if kind == "?":
        return hole
    if kind in "wn":
        return tree
    return (kind, _fill(tree[1], hole), _fill(tree[2], hole))


def value_of(tree, digits: dict[str, int]):
    """Exact integer value, or None when a division is by zero or leaves a remainder."""
    kind = tree[0]
    if kind == "w":
        return int("".join(str(digits[c]) for c in tree[1]))
    if kind == "n":
        return tree[1]
    a, b = value_of(tree[1], digits), value_of(tree[2], digits)
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


def letters_in(words) -> list[str]:
    out: list[str] = []
    for w in words:
        for c in w:
            if c not in out:
                out.append(c)
    return out


def fills_of(words):
    """Every injective digit assignment of the words' letters with no leading zero."""
    letters = letters_in(words)
    for digits in itertools.permutations(range(10), len(letters)):
        fill = dict(zip(letters, digits))
        if not any(len(w) > 1 and fill[w[0]] == 0 for w in words):
            yield fill


def _solutions_all(left, right) -> list[dict[str, int]]:
    """Every assignment of all letters of left=right satisfying the rules (brute force)."""
    words = puzzle_words(left) + puzzle_words(right)
    letters = letters_in(words)
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
        for fill in fills_of(puzzle_words(left)):
            v = value_of(left, fill)
            if v is not None and v >= 0:
                out.append((fill, v))
        _VALUES.clear()
        _VALUES[left] = out
    return _VALUES[left]


def _script_ok(word: str, query_letters: str) -> bool:
    latin = set(string.ascii_lowercase)
    return all((c in latin) == (query_letters[0] in latin) for c in word)


def expected_words(left, right, counts: dict[str, int], query_letters: str, *, by_value=False):
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


def is_undetermined(left, right) -> bool:
    """Some valid assignment of the puzzle's letters leaves '?' free at some level: with
    every known operand defined (and no dividend beside '?' divided by 0), going down
    from '=' every level so far is solvable, and then a factor, or a dividend over '?',
    is 0 where the target is 0 (0*?=0, 0/?=0): the identity does not pin '?' there.
    This is the composer's rule for refusing a puzzle (README, rule 4)."""
    hole_side, known = (left, right) if _has_hole(left) else (right, left)
    for fill in fills_of(puzzle_words(left) + puzzle_words(right)):
        t = value_of(known, fill)
        node, levels = hole_side, []
        while node[0] != "?":
            op, a, b = node
            hole_left = _has_hole(a)
            levels.append((op, hole_left, value_of(b if hole_left else a, fill)))
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


def check_against_oracle(left, right, counts, **kwargs) -> int | None:
    """Compose the puzzle and compare with the brute force; the number of words found
    (None when the composer refused the puzzle, rightly)."""
    query = puzzle_text(left) + ("" if right == ("?",) else "=" + puzzle_text(right))
    letters = "".join(letters_in(puzzle_words(left) + puzzle_words(right)))
    index = Index.from_counts(counts, name="t")
    index._check()
    try:
        got = compose(query, index)
    except ExpressionError as exc:
        assert "not determined" in str(exc), exc
        assert is_undetermined(left, right), query
        return None
    assert not is_undetermined(left, right), query
    want = expected_words(left, right, counts, letters, **kwargs)
    assert [r.word for r in got] == [w for w, _ in want], query
    for r, (_w, sol) in zip(got, want):
        check_composed(r, index)
        assert r.assignment == sol
        # the solution in digits is the puzzle with the assignment applied
        digits = "".join(str(sol[c]) if c in sol else c for c in r.puzzle)
        assert r.solution == digits
    return len(got)


def check_composed(r: Composed, index: Index) -> None:
    r._check()
    assert r.rank == index.id_of(r.word) + 1 and r.count == index.count(r.word)
    assert len(set(r.assignment.values())) == len(r.assignment)
    assert all(0 <= d <= 9 for d in r.assignment.values())


# -- hypothesis strategies --------------------------------------------------------------------

def spell_value(value: int, fill: dict[str, int], extra: str) -> str | None:
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
def right_cases(draw, letters="abcde", extra="xyz", foreign="жз"):
    """(left, counts) for LEFT=?: a richer puzzle (up to four letters, operands of up to
    three) and a dictionary of random words plus words spelled from the values of random
    assignments (those have at least one solution, and often exactly one)."""
    word = st.text(letters, min_size=1, max_size=3).map(lambda w: ("w", w))
    tree = st.recursive(word, lambda c: st.tuples(st.sampled_from("+-*/"), c, c), max_leaves=2)
    left = draw(st.tuples(st.sampled_from("+-*/"), tree, tree))
    query_letters = letters_in(puzzle_words(left))
    words = draw(st.lists(st.text(letters * 2 + extra, min_size=1, max_size=4),
                          max_size=5, unique=True))
    words += draw(st.lists(st.text(foreign, min_size=1, max_size=2), max_size=2, unique=True))
    digits = st.permutations(range(10)).map(lambda p: dict(zip(query_letters, p)))
    for fill in draw(st.lists(digits, min_size=1, max_size=8)):
        v = value_of(left, fill)
        w = None if v is None else spell_value(v, fill, extra)
        if w and len(w) <= 6:
            words.append(w)
    counts = {w: draw(st.integers(1, 50)) for w in dict.fromkeys(words)}
    if not counts:
        counts = {"a": 1}
    return left, counts


# -- shapes: every position of the unknown under every operator ------------------------------

STEPS = [(op, hole_left) for op in "+-*/" for hole_left in (True, False)]
# the path from the root of the unknown's side down to '?': (operator, '?' in its left
# operand) per level, outermost first; every one of depth 0 to 3
SHAPES = [shape for depth in range(4) for shape in itertools.product(STEPS, repeat=depth)]


def side_with_hole(shape, siblings):
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
        o = value_of(b if hole_left else a, fill)
        if o is None:
            return None
        t = _step(op, hole_left, o, t)
        node = a if hole_left else b
    return t


def _hole_words(hole_side, known, extra: str) -> list[str]:
    """Words spelling a value of '?' that solves the puzzle for some assignment of its
    letters (each value checked forward), longest (largest values) first."""
    words = puzzle_words(hole_side) + puzzle_words(known)
    out = {}
    for fill in fills_of(words):
        t = value_of(known, fill)
        h = None if t is None else _invert(hole_side, t, fill)
        if h is None or h < 0 or value_of(_fill(hole_side, ("n", h)), fill) != t:
            continue
        w = spell_value(h, fill, extra)
        if w:
            out[w] = max(out.get(w, -1), h)
    return sorted(out, key=lambda w: -out[w])


def shape_case(shape, siblings, known, hole_left, words, planted, extra):
    """(left, right, counts) for a shape: the random ``words`` plus the ``planted``
    indices into the words that spell solutions of '?' (index 0: the largest)."""
    hole_side = side_with_hole(shape, siblings)
    left, right = (hole_side, known) if hole_left else (known, hole_side)
    spelled = _hole_words(hole_side, known, extra)
    words = list(words) + [spelled[i] for i in planted if i < len(spelled)]
    words = list(dict.fromkeys(w for w in words if w)) or ["a"]
    counts = {w: 1 + (i * 7) % 50 for i, w in enumerate(words)}
    return left, right, counts


@st.composite
def shape_cases(draw, letters="ab", known_letters="abc", extra="xy", foreign="жз",
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
    return shape_case(shape, siblings, known, hole_left, words, planted, extra)


# -- a fixed dictionary and the solver as a second oracle ------------------------------------

EN_COUNTS = {"money": 500, "honey": 300, "mommy": 20, "send": 400, "demon": 90, "nodes": 80,
             "romeo": 70, "monet": 60, "more": 450, "move": 200, "mover": 10, "day": 5, "жена": 3}


def unique_by_solve(template: str, index: Index) -> list[tuple[str, str]]:
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
