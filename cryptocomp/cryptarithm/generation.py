"""Cryptarithms generated from a word list (Cryptagen's job): every ``a + b + ... = z`` of
distinct list words with exactly one solution.

A :class:`GenerationSpec` says what to generate; :func:`generate` yields each
:class:`Generated` puzzle as it is found.  The rules, as Cryptagen has them:

- the left words are distinct list words in list order, at least two of them; a puzzle has
  from ``min_words`` (at least 3) to ``max_words`` words in all, the right one included;
- ``right="unique"`` (the default): the right word is one list word not among the left ones;
  ``right="fixed"``: it is ``fixed`` (the left words are the other list words);
  ``right="free"``: the right side is a sum of one or more list words too, disjoint from
  the left (each equation once, the side with more words on the left);
- ``op="*"``: products instead of sums (the right word at most 18 digits);
- ``values`` (doubly-true puzzles): word ``i`` stands for the number ``values[i]`` and the
  equation must be true in words too.

The search goes through the left words in list order, depth first, and cuts a branch as
soon as it cannot give a puzzle: more distinct symbols than the base has digits, or a left
side whose least value (each word ``base ** (len-1)``) is beyond every right word's largest,
or (doubly true) a sum of values beyond the largest.  A candidate whose lengths cannot add
up (the right word shorter than the longest addend, or longer than the left side can reach)
is never counted; the others are counted up to 2.  Sums of words whose forms fit int64 run
whole in compiled code (:mod:`.exploration`, counted as linear forms by :mod:`.lineform`);
products, free right sides (counted as linear forms when they fit) and longer words go
through the Python search below (else with the column counter :func:`.wordsum.solve_word_sum`).
The search splits into :class:`Branch` es by its first two choices
(:meth:`Generation.branches`, :meth:`Generation.split`): a batch runs them on many workers
and writes their puzzles in the search's order.

>>> spec = GenerationSpec(("mercury", "venus", "earth", "mars", "jupiter", "saturn",
...                        "uranus", "neptune"))
>>> sorted(g.puzzle for g in generate(spec))[:2]
['earth + uranus = saturn', 'mars + saturn + uranus = mercury']
"""

from __future__ import annotations

import copy
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..domain import Symbol
from ..errors import QueryError
from .exploration import Frontier, counted, explore, finished, frontier, restart
from .lineform import (
    WordTable,
    count_linear,
    fits_int64,
    word_table,
)
from .wordsum import MAX_PRODUCT_DIGITS, solve_word_sum

__all__ = ["GenerationSpec", "Generated", "Generation", "Branch", "generate", "RIGHT_MODES",
           "normalised"]

RIGHT_MODES = ("unique", "fixed", "free")
MIN_WORDS = 3      # two addends and the right word: Cryptagen's least
_CHECK_EVERY = 256  # candidates between two looks at the clock


@dataclass(frozen=True)
class GenerationSpec:
    """What to generate (see the module docstring for each field's rule)."""

    words: tuple[str, ...]
    right: str = "unique"
    fixed: str | None = None
    min_words: int = MIN_WORDS
    max_words: int | None = None
    op: str = "+"
    base: int = 10
    values: tuple[int, ...] | None = None   # doubly true: the number each word spells
    least_sum: int = 0                      # doubly true: the right side's least value

    def __post_init__(self) -> None:
        if self.right not in RIGHT_MODES:
            raise QueryError(f"--right takes {', '.join(RIGHT_MODES)} (got {self.right!r})")
        if (self.right == "fixed") != bool(self.fixed):
            raise QueryError("--right fixed goes with its word: --right fixed WORD")
        if self.op not in ("+", "*"):
            raise QueryError(f"--ops takes + or * for generation (got {self.op!r})")
        if self.max_words is not None and self.max_words < max(self.min_words, MIN_WORDS):
            raise QueryError(f"--max {self.max_words} is below --min "
                             f"{max(self.min_words, MIN_WORDS)} (a puzzle has at least "
                             f"{MIN_WORDS} words)")
        if self.values is not None and len(self.values) != len(self.words):
            raise ValueError("one value a word")
        if len(set(self.words)) != len(self.words):
            raise ValueError("the words must be distinct")


@dataclass(frozen=True)
class Branch:
    """One part of a generation's search: the puzzles whose first two left words (indices
    in :attr:`Generation.words`) are ``first`` and ``second``; with ``--right free``,
    ``across`` puts the second on the right side.  The branches of a spec in
    :meth:`Generation.branches` order split its search so that their puzzles, branch after
    branch, are the whole search's in its order."""

    first: int
    second: int
    across: bool = False


@dataclass(frozen=True)
class Generated:
    """One puzzle with exactly one solution."""

    left: tuple[str, ...]
    right: tuple[str, ...]
    op: str
    solution: dict[Symbol, int] = field(compare=False)

    @property
    def puzzle(self) -> str:
        """The puzzle in Cryptator's grammar: ``venus + earth + uranus = saturn``."""
        return f" {self.op} ".join(self.left) + " = " + " + ".join(self.right)

    @property
    def equation(self) -> str:
        """The puzzle in digits."""
        def digits(w: str) -> str:
            return "".join(str(self.solution[ch]) for ch in w)
        return (f" {self.op} ".join(map(digits, self.left)) + " = "
                + " + ".join(map(digits, self.right)))

    def to_json(self) -> dict:
        return {"puzzle": self.puzzle, "left": list(self.left), "right": list(self.right),
                "op": self.op, "solution": self.solution, "equation": self.equation}


def normalised(puzzle: str) -> tuple[frozenset[str], frozenset[str]]:
    """A puzzle as its two sides' word sets, to compare collections puzzle by puzzle
    (``b + a = c`` and ``a + b = c`` are one puzzle; spaces do not matter)."""
    left, _, right = puzzle.replace(" ", "").partition("=")
    sep = "*" if "*" in left else "+"
    return frozenset(left.split(sep)), frozenset(right.split("+"))


@dataclass
class SearchState:
    """The state one :func:`generate` run shares across its branches."""

    spec: GenerationSpec
    deadline: float | None
    steps: int | None         # the most candidates to count (None: no step budget)
    masks: list[int]
    lows: list[int]
    highs: list[int]
    rights: list[int]         # the word indices a right side may be (unique/fixed)
    candidates: int = 0
    stopped: bool = False
    nodes: int = 0            # Python search nodes visited (the clock is looked at by them)
    most: int = 0             # the largest value (product: digit count) of a right word
    most_value: int = 0       # doubly true: the largest number a right word stands for
    by_value: dict[int, list[int]] = field(default_factory=dict)   # doubly true: value -> rights
    table: WordTable | None = None   # sums of words whose forms fit int64: the linear counter

    def __post_init__(self) -> None:
        self.most = max((self.highs[r] for r in self.rights), default=0)
        self.most_value = max(self.spec.values or (0,))
        for r in self.rights:
            if self.spec.values is not None:
                self.by_value.setdefault(self.spec.values[r], []).append(r)

    def past_deadline(self) -> bool:
        """True (and remembered) once the deadline has passed (looked at each call)."""
        if self.deadline is not None and not self.stopped:
            self.stopped = time.monotonic() >= self.deadline
        return self.stopped

    def tick(self) -> bool:
        """True (and remembered) once stopped; one more node, the deadline looked at now
        and then: a search whose nodes count no candidate (their bounds cannot meet) still
        keeps its deadline."""
        if self.deadline is not None and not self.stopped:
            self.nodes += 1
            if self.nodes % _CHECK_EVERY == 0:
                self.stopped = time.monotonic() >= self.deadline
        return self.stopped

    def out_of_time(self) -> bool:
        """True (and remembered) once the step budget is spent (looked at each candidate)
        or the deadline has passed (looked at now and then); else one more candidate."""
        if self.steps is not None and self.candidates >= self.steps:
            self.stopped = True
            return True
        self.candidates += 1
        if self.deadline is not None and self.candidates % _CHECK_EVERY == 0:
            self.stopped = self.stopped or time.monotonic() >= self.deadline
        return self.stopped


def _bounds(word: str, base: int, op: str) -> tuple[int, int]:
    """The least and largest value of ``word`` (a one-symbol word may be 0); for a product
    the bounds of its logarithm's digit count are used the same way (lengths add up)."""
    if op == "*":
        return len(word) - 1, len(word)
    return (base ** (len(word) - 1) if len(word) > 1 else 0), base ** len(word) - 1


def _symbol_masks(words: Sequence[str]) -> list[int]:
    """Each word's symbols as a bit set."""
    bits: dict[str, int] = {}
    return [sum({1 << bits.setdefault(ch, len(bits)) for ch in w}) for w in words]


def _fits(search: SearchState, low: int, high: int, longest: int, right: str) -> bool:
    """True when a left side of value in [low, high] (longest word ``longest``) can equal
    ``right``: the column-and-length test before any counting."""
    spec = search.spec
    r_low, r_high = _bounds(right, spec.base, spec.op)
    if spec.op == "*":
        # digits of a product of k factors: from sum(len) - k + 1 to sum(len).  A zero
        # factor (a word of one symbol) would need the right word to be that same word,
        # which is never among the candidates: no product of a puzzle here is 0
        return len(right) <= MAX_PRODUCT_DIGITS and low + 1 <= len(right) <= high
    return longest <= len(right) and low <= r_high and high >= r_low


class Generation:
    """The puzzles of one spec, yielded as found (iterate once); ``complete`` is False
    when the deadline or the step budget stopped the search, and ``candidates`` says how
    many were counted."""

    def __init__(self, spec: GenerationSpec, deadline: float | None = None,
                 steps: int | None = None, branch: Branch | None = None) -> None:
        words = list(spec.words)
        if spec.right == "fixed":
            assert spec.fixed is not None
            words = [w for w in words if w != spec.fixed] + [spec.fixed]
        bounds = [_bounds(w, spec.base, spec.op) for w in words]
        rights = [len(words) - 1] if spec.right == "fixed" else list(range(len(words)))
        self.words = words
        self.branch = branch
        self._frontier: Frontier | None = None
        self._start: Frontier | None = None    # the compiled search's start, for split()
        # --right free has no cut by the largest right word: each form is below the sum of
        # all its words' largest values
        fits = (fits_int64(words, spec.base) if spec.right != "free"
                else spec.base ** max(map(len, words), default=0) * (len(words) + 1) < 2 ** 62)
        table = word_table(words, spec.base) if spec.op == "+" and fits else None
        self._search = SearchState(spec, deadline, steps, _symbol_masks(words),
                                   [b[0] for b in bounds], [b[1] for b in bounds], rights,
                                   table=table)

    def __iter__(self) -> Iterator[Generated]:
        search, branch = self._search, self.branch
        if search.spec.right == "free":
            return free_sums(search, self.words, branch)
        if search.table is not None:
            return self._explored(search.table)
        if branch is None:
            return _left_sides(search, self.words, Side())
        return _branch_sides(search, self.words, branch)

    def branches(self) -> list[Branch]:
        """Every branch that may hold a puzzle, in the order of the whole search (a branch
        left out fails the search's own cut on its two words)."""
        search, words = self._search, self.words
        if search.spec.right == "free":
            out = []
            for i in range(len(words)):
                for j in range(i + 1, len(words)):
                    if (search.masks[i] | search.masks[j]).bit_count() <= search.spec.base:
                        out += [Branch(i, j), Branch(i, j, True)]
            return out
        last = _last_left(search, words)
        firsts = [(i, s) for i in range(last) if (s := _extended(search, words, Side(), i))]
        return [Branch(i, j) for i, side in firsts for j in range(i + 1, last)
                if _extended(search, words, side, j) is not None]

    def split(self, branch: Branch, *, deadline: float | None = None) -> Generation:
        """The generation of one branch of this spec, sharing this one's tables (what a
        worker does for each branch of its task; unused, this one may split again)."""
        if self._search.table is not None and self._start is None:
            self._start = self._begin(None)
        part = copy.copy(self)
        part.branch = branch
        part._search = replace(self._search, deadline=deadline, steps=None, candidates=0,
                               stopped=False, nodes=0)
        part._frontier = None
        return part

    def _begin(self, branch: Branch | None) -> Frontier:
        """The compiled search's start (of ``branch`` only, when given)."""
        where = None if branch is None else (branch.first, branch.second)
        if self._start is not None:
            return restart(self._start, where)
        search, spec = self._search, self._search.spec
        assert search.table is not None
        return frontier(search.table, search.rights, base=spec.base,
                        min_words=spec.min_words, max_words=spec.max_words,
                        last=len(self.words) - (spec.right == "fixed"), values=spec.values,
                        least_sum=spec.least_sum, branch=where)

    def _explored(self, table: WordTable) -> Iterator[Generated]:
        """The compiled search's puzzles, its clock looked at between slices."""
        search, spec = self._search, self._search.spec
        fr = self._frontier = self._begin(self.branch)
        for found in explore(fr, most=search.steps):
            for f in found:
                fill = {table.symbols[s]: int(d) for s, d in enumerate(f.digits) if d >= 0}
                yield Generated(tuple(self.words[i] for i in f.left), (self.words[f.right],),
                                spec.op, fill)
            if search.past_deadline():
                return
        if search.steps is not None and not finished(fr):   # the step budget ended it
            search.stopped = True

    @property
    def complete(self) -> bool:
        return not self._search.stopped

    @property
    def candidates(self) -> int:
        if self._frontier is not None:
            return counted(self._frontier)
        return self._search.candidates


def generate(spec: GenerationSpec, *, deadline: float | None = None,
             steps: int | None = None, branch: Branch | None = None) -> Generation:
    """Every puzzle of ``spec`` with exactly one solution, as found; stops quietly at
    ``deadline`` (monotonic seconds) or after ``steps`` candidates counted (see
    :func:`.exploration.explore` for the compiled search's margin), and the answer's
    ``complete`` is then False.  ``branch``: only that part of the search."""
    return Generation(spec, deadline, steps, branch)


@dataclass(frozen=True)
class Side:
    """A left side of the Python search: its words, symbols, bounds, longest word and
    (doubly true) its sum of values."""

    chosen: tuple[int, ...] = ()
    mask: int = 0
    low: int = 0
    high: int = 0
    longest: int = 0
    total: int = 0


def _last_left(search: SearchState, words: list[str]) -> int:
    """One past the last word a left side may take (a fixed right word is the last)."""
    return len(words) - 1 if search.spec.right == "fixed" else len(words)


def _extended(search: SearchState, words: list[str], side: Side, i: int) -> Side | None:
    """``side`` with word ``i`` added, or None when the search cuts it there: too many
    symbols, a least value beyond every right word, a sum of values beyond every number."""
    spec = search.spec
    new = side.mask | search.masks[i]
    if new.bit_count() > spec.base:
        return None
    if side.low + search.lows[i] + (spec.op == "*") > search.most:   # least side too large
        return None
    value = spec.values[i] if spec.values is not None else 0
    if spec.values is not None and side.total + value > search.most_value:
        return None
    return Side((*side.chosen, i), new, side.low + search.lows[i], side.high + search.highs[i],
                max(side.longest, len(words[i])), side.total + value)


def _branch_sides(search: SearchState, words: list[str], branch: Branch
                  ) -> Iterator[Generated]:
    """The puzzles of one branch (the Python search's path)."""
    first = _extended(search, words, Side(), branch.first)
    both = None if first is None else _extended(search, words, first, branch.second)
    if both is not None and branch.second < _last_left(search, words):
        yield from _left_sides(search, words, both)


def _left_sides(search: SearchState, words: list[str], side: Side) -> Iterator[Generated]:
    """Every puzzle whose left words are ``side``'s plus later list words (depth first;
    the column counter's path: products, and words too long for int64)."""
    spec = search.spec
    count = len(side.chosen)
    if count >= 2 and count + 1 >= spec.min_words:
        yield from _with_right(search, words, side)
    if spec.max_words is not None and count + 1 >= spec.max_words:
        return
    for i in range(side.chosen[-1] + 1 if side.chosen else 0, _last_left(search, words)):
        if search.tick():
            return
        more = _extended(search, words, side, i)
        if more is not None:
            yield from _left_sides(search, words, more)


def _with_right(search: SearchState, words: list[str], side: Side) -> Iterator[Generated]:
    """The puzzles of left side ``side`` with each right word that can close it."""
    spec = search.spec
    chosen = side.chosen
    left = tuple(words[i] for i in chosen)
    rights = search.rights if spec.values is None else search.by_value.get(side.total, [])
    if spec.values is not None and side.total < spec.least_sum:
        return
    for r in rights:
        if r in chosen or (side.mask | search.masks[r]).bit_count() > spec.base:
            continue
        if not _fits(search, side.low, side.high, side.longest, words[r]) or \
                search.out_of_time():
            continue
        count, fill = solve_word_sum(left, words[r], spec.op, spec.base)
        if count == 1:
            yield Generated(left, (words[r],), spec.op, fill)


# -- --right free: both sides sums of list words (a + b = c + d) ---------------------------
# Each word goes left, right or nowhere, in list order, depth first; a branch is cut when
# its words have more symbols than the base has digits, or more words than max_words.  Each
# equation is found once (the first word chosen is on the left) and printed with the side
# of more words on the left.  The counter gets the longest word as its right word and the
# others with their signs: a + b = c + d is a + b - c = d when d is the longest.

def free_sums(search: SearchState, words: list[str], branch: Branch | None = None
              ) -> Iterator[Generated]:
    """Every puzzle of two disjoint sums of list words with exactly one solution (of
    ``branch`` only, when given)."""
    if branch is None:
        yield from _place(search, words, 0, [], [], 0)
        return
    first, second = branch.first, branch.second
    mask = search.masks[first] | search.masks[second]
    if mask.bit_count() <= search.spec.base:
        yield from _place(search, words, second + 1, [first] + [second] * (not branch.across),
                          [second] * branch.across, mask)


def _place(search: SearchState, words: list[str], i: int, left: list[int], right: list[int],
           mask: int) -> Iterator[Generated]:
    """The puzzles with ``left`` and ``right`` so far and words from ``i`` on to place."""
    spec = search.spec
    if search.tick():   # before the check: its bounds cost a sum over both sides
        return
    if left and right and len(left) + len(right) >= spec.min_words:
        found = _check(search, words, left, right)
        if found is not None:
            yield found
    if i == len(words):
        return
    if spec.max_words is not None and len(left) + len(right) >= spec.max_words:
        return
    for j in range(i, len(words)):
        if search.stopped:  # unwinding: the words left at each depth are not visited
            return
        new = mask | search.masks[j]
        if new.bit_count() > spec.base:
            continue
        yield from _place(search, words, j + 1, [*left, j], right, new)
        if left:
            yield from _place(search, words, j + 1, left, [*right, j], new)


def _check(search: SearchState, words: list[str], left: list[int],
           right: list[int]) -> Generated | None:
    """The puzzle ``left = right`` when its bounds meet and it has exactly one solution."""
    low_l, high_l = (sum(search.lows[i] for i in left), sum(search.highs[i] for i in left))
    low_r, high_r = (sum(search.lows[i] for i in right), sum(search.highs[i] for i in right))
    if low_l > high_r or low_r > high_l or search.out_of_time():
        return None
    if search.table is not None:
        count, fill = _linear_count(search.table, left, right, search.spec.base)
    else:
        longest = max(left + right, key=lambda i: len(words[i]))
        same, other = (left, right) if longest in left else (right, left)
        count, fill = solve_word_sum([words[i] for i in other], words[longest], "+",
                                     search.spec.base, minus=[words[i] for i in same
                                                              if i != longest])
    if count != 1:
        return None
    a, b = (left, right) if len(left) >= len(right) else (right, left)
    return Generated(tuple(words[i] for i in a), tuple(words[i] for i in b), "+", fill)


def _linear_count(table: WordTable, left: list[int], right: list[int],
                  base: int) -> tuple[int, dict[Symbol, int]]:
    """The solutions (up to 2) of ``left = right`` by the linear counter."""
    coef = table.coef[left].sum(axis=0) - table.coef[right].sum(axis=0)
    words = left + right
    present = np.flatnonzero(table.present[words].max(axis=0))
    leading = np.flatnonzero(table.lead[words].max(axis=0))
    return count_linear({table.symbols[s]: int(coef[s]) for s in present},
                        {table.symbols[s] for s in leading}, base)
