"""Arrow-word masks: where the clue cells go, found by hill climbing (seed 001, step 1).

A mask is a ``width`` x ``height`` grid of clue cells (``#``) and letter cells
(``.``); there are no black cells.  A clue cell defines the word starting in
the cell to its right (arrow right) and/or the word starting below it (arrow
down).  The words are the maximal runs of letter cells across and down.

Penalties (weights in :class:`MaskRules`; a penalty is attributed to cells so
that half of the moves can go where it hurts most):

=========================  =========================  ======================================
rule                       kind                       charged to
=========================  =========================  ======================================
letter in no across word   hard (``hard``)            the letter (its across run has 1 letter)
letter in no down word     hard (``hard``)            the letter (its down run has 1 letter)
word over ``max_len``      hard, per extra letter     the word's letters
letter in the frame        hard (``hard``)            the letter (it has no clue cell before)
letter off the main area   hard (``hard``)            each letter outside the largest region
two-letter word            soft (``two``)             its letters
long word                  soft, ``long_weight`` a    its letters
                           letter from ``long_from``
clue cell defining none    soft (``dead``)            the clue cell (not the top-left corner)
crowded clue cells         soft (``crowd``)           each 2 x 2 block of clue cells
=========================  =========================  ======================================

The first row and column are clue cells (a word needs a clue cell before it)
and never change.  Search: start with ``density`` of the inner cells as clue
cells; repeat a move (flip a cell, or shift a clue cell one step diagonally),
keeping it unless the penalty grows; half of the moves target the most
penalised cells; after ``patience`` moves without improvement shake ``shake``
random cells of the best mask; stop after ``shakes`` shakes in a row without
improvement once the best mask has no hard violation (or at ``max_steps``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ..crossword.grid import Cell, Grid

__all__ = ["ArrowMask", "ArrowSlot", "MaskRules", "MaskSearch", "search_mask", "penalties",
           "CLUE", "LETTER"]

CLUE = "#"
LETTER = "."


@dataclass(frozen=True)
class MaskRules:
    """Penalty weights and search settings (defaults as measured in scripts/bench_swedish.py)."""

    hard: int = 1000
    dead: int = 300
    two: int = 60
    crowd: int = 100
    long_from: int = 8
    long_weight: int = 60
    max_len: int = 12
    density: float = 0.22
    patience: int = 2000
    shakes: int = 3
    shake: int = 5
    max_steps: int = 60_000


@dataclass(frozen=True)
class ArrowSlot:
    """One word place: direction, its letter cells and the clue cell defining it."""

    direction: str  # "across" | "down"
    cells: tuple[Cell, ...]
    clue_cell: Cell

    @property
    def length(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class ArrowMask:
    """Clue cells (``#``) and letter cells (``.``), one string a row."""

    rows: tuple[str, ...]

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def is_clue(self, cell: Cell) -> bool:
        r, c = cell
        return self.rows[r][c] == CLUE

    def letter_cells(self) -> list[Cell]:
        """Letter cells in reading order (row by row)."""
        return [(r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row)
                if ch == LETTER]

    def slots(self) -> list[ArrowSlot]:
        """Every maximal run of 2+ letter cells, across (reading order) then down."""
        out = []
        for direction, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
            for r in range(self.height):
                for c in range(self.width):
                    if self.rows[r][c] != LETTER:
                        continue
                    pr, pc = r - dr, c - dc
                    if pr >= 0 and pc >= 0 and self.rows[pr][pc] == LETTER:
                        continue
                    cells = []
                    rr, cc = r, c
                    while rr < self.height and cc < self.width and self.rows[rr][cc] == LETTER:
                        cells.append((rr, cc))
                        rr, cc = rr + dr, cc + dc
                    if len(cells) >= 2 and pr >= 0 and pc >= 0:
                        out.append(ArrowSlot(direction, tuple(cells), (pr, pc)))
        return out

    def grid(self) -> Grid:
        """The crossword grid of the letter cells (the fill engine's slots are :meth:`slots`)."""
        return Grid.from_cells(self.width, self.height, self.letter_cells())

    def text(self) -> str:
        return "\n".join(self.rows) + "\n"


# -- penalties: the plain, obviously correct evaluation (tests compare the search's) --------

def _runs(mask: ArrowMask) -> Iterator[list[Cell]]:
    """Every maximal run of letter cells (length 1 included), across then down."""
    for direction in ((0, 1), (1, 0)):
        dr, dc = direction
        for r in range(mask.height):
            for c in range(mask.width):
                if mask.rows[r][c] != LETTER:
                    continue
                if r - dr >= 0 and c - dc >= 0 and mask.rows[r - dr][c - dc] == LETTER:
                    continue
                run = []
                rr, cc = r, c
                while rr < mask.height and cc < mask.width and mask.rows[rr][cc] == LETTER:
                    run.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                yield run


def _run_cost(n: int, rules: MaskRules) -> int:
    """The penalty of one run of ``n`` letters (charged to each of its letters equally)."""
    cost = 0
    if n == 1:
        cost += rules.hard
    if n == 2:
        cost += rules.two
    if n > rules.max_len:
        cost += rules.hard * (n - rules.max_len)
    if n >= rules.long_from:
        cost += rules.long_weight * (n - rules.long_from + 1)
    return cost


def penalties(mask: ArrowMask, rules: MaskRules = MaskRules()) -> tuple[int, dict[Cell, int], int]:
    """(total penalty, penalty per cell, hard violations) of a mask, computed from scratch.

    Frame rule: a letter in the first row or column is a hard violation (its word
    would have no clue cell before it)."""
    per: dict[Cell, int] = {}
    hard = 0
    total = 0

    def charge(cell: Cell, amount: int) -> None:
        per[cell] = per.get(cell, 0) + amount

    for run in _runs(mask):
        cost = _run_cost(len(run), rules)
        total += cost
        hard += (len(run) == 1) + max(0, len(run) - rules.max_len)
        for cell in run:
            charge(cell, cost)
    for r in range(mask.height):
        for c in range(mask.width):
            if mask.rows[r][c] == LETTER and (r == 0 or c == 0):
                # once for each frame line it sits in (the corner is in two)
                k = (r == 0) + (c == 0)
                total += rules.hard * k
                hard += k
                charge((r, c), rules.hard * k)
            if mask.rows[r][c] == CLUE and (r, c) != (0, 0):
                right = c + 1 < mask.width and mask.rows[r][c + 1] == LETTER
                down = r + 1 < mask.height and mask.rows[r + 1][c] == LETTER
                if not right and not down:
                    total += rules.dead
                    charge((r, c), rules.dead)
            if r + 1 < mask.height and c + 1 < mask.width and all(
                    mask.rows[r + i][c + j] == CLUE for i in (0, 1) for j in (0, 1)):
                total += rules.crowd
                for i in (0, 1):
                    for j in (0, 1):
                        charge((r + i, c + j), rules.crowd)
    island_total, island_hard = _charge_islands(mask, rules, charge)
    return total + island_total, per, hard + island_hard


def _charge_islands(mask: ArrowMask, rules: MaskRules,
                    charge: Callable[[Cell, int], None]) -> tuple[int, int]:
    """Charges the letters outside the largest region; (their penalty, hard violations)."""
    total = hard = 0
    letters = mask.letter_cells()
    if letters:
        comps = _components(set(letters))
        main = max(comps, key=len)
        for comp in comps:
            if comp is not main:
                total += rules.hard * len(comp)
                hard += len(comp)
                for cell in comp:
                    charge(cell, rules.hard)
    return total, hard


def _components(cells: set[Cell]) -> list[list[Cell]]:
    seen: set[Cell] = set()
    out = []
    for start in sorted(cells):
        if start in seen:
            continue
        comp, stack = [], [start]
        seen.add(start)
        while stack:
            r, c = stack.pop()
            comp.append((r, c))
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        out.append(comp)
    return out


# -- the search ------------------------------------------------------------------------------

@dataclass
class MaskSearch:
    """Hill climbing over one mask; ``movable`` limits the moves to some cells (repairs)."""

    width: int
    height: int
    rules: MaskRules
    rng: random.Random
    movable: list[Cell] = field(default_factory=list)
    steps: int = 0
    shakes_done: int = 0

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        self.letter = [False] * (w * h)  # flat, r * w + c
        self._line_cost: dict[tuple[int, int], tuple[int, int, tuple[int, ...]]] = {}
        if not self.movable:
            self.movable = [(r, c) for r in range(1, h) for c in range(1, w)]
        self._movable_set = set(self.movable)
        self.row_bits = [0] * h
        self.col_bits = [0] * w
        self.total = 0
        self.island_cost = 0

    # state ------------------------------------------------------------------------------
    def load(self, mask: ArrowMask) -> None:
        """Start from ``mask``."""
        for r, row in enumerate(mask.rows):
            for c, ch in enumerate(row):
                self.letter[r * self.width + c] = ch == LETTER
        self._recount()

    def randomize(self, cells: Iterable[Cell] | None = None) -> None:
        """Make ``cells`` (default: every inner cell) clue cells with probability ``density``."""
        w = self.width
        if cells is None:
            for i in range(w * self.height):
                self.letter[i] = False
            cells = [(r, c) for r in range(1, self.height) for c in range(1, w)]
        for r, c in cells:
            self.letter[r * w + c] = self.rng.random() >= self.rules.density
        self._recount()

    def mask(self) -> ArrowMask:
        w = self.width
        return ArrowMask(tuple("".join(LETTER if self.letter[r * w + c] else CLUE
                                       for c in range(w)) for r in range(self.height)))

    def _recount(self) -> None:
        w, h = self.width, self.height
        self.row_bits = [sum(1 << c for c in range(w) if self.letter[r * w + c]) for r in range(h)]
        self.col_bits = [sum(1 << r for r in range(h) if self.letter[r * w + c]) for c in range(w)]
        local = (sum(self._line(w, b) for b in self.row_bits)
                 + sum(self._line(h, b) for b in self.col_bits))
        local += sum(self._dead(r, c) for r in range(h) for c in range(w))
        local += sum(self._crowd(r, c) for r in range(h - 1) for c in range(w - 1))
        self.island_cost = self._islands()
        self.total = local + self.island_cost

    # penalty parts ----------------------------------------------------------------------
    def _line(self, n: int, bits: int) -> int:
        """Penalty of one row or column (its runs, and a letter in the frame)."""
        key = (n, bits)
        got = self._line_cost.get(key)
        if got is None:
            got = self._line_cost[key] = self._line_parts(n, bits)
        return got[0]

    def _line_parts(self, n: int, bits: int) -> tuple[int, int, tuple[int, ...]]:
        """(penalty, hard violations, penalty charged to each position) of a line."""
        rules = self.rules
        per = [0] * n
        cost = hard = 0
        start = None
        for i in range(n + 1):
            if i < n and bits >> i & 1:
                if start is None:
                    start = i
                continue
            if start is not None:
                length = i - start
                rc = _run_cost(length, rules)
                cost += rc
                hard += (length == 1) + max(0, length - rules.max_len)
                for j in range(start, i):
                    per[j] += rc
                start = None
        if bits & 1:
            cost += rules.hard  # a letter in the frame
            hard += 1
            per[0] += rules.hard
        return cost, hard, tuple(per)

    def _parts(self, n: int, bits: int) -> tuple[int, int, tuple[int, ...]]:
        key = (n, bits)
        got = self._line_cost.get(key)
        if got is None:
            got = self._line_cost[key] = self._line_parts(n, bits)
        return got

    def _dead(self, r: int, c: int) -> int:
        w = self.width
        if r < 0 or c < 0 or self.letter[r * w + c] or (r == 0 and c == 0):
            return 0
        if c + 1 < w and self.letter[r * w + c + 1]:
            return 0
        if r + 1 < self.height and self.letter[(r + 1) * w + c]:
            return 0
        return self.rules.dead

    def _crowd(self, r: int, c: int) -> int:
        if r < 0 or c < 0 or r + 1 >= self.height or c + 1 >= self.width:
            return 0
        w, let = self.width, self.letter
        i = r * w + c
        if let[i] or let[i + 1] or let[i + w] or let[i + w + 1]:
            return 0
        return self.rules.crowd

    def _components(self) -> list[list[int]]:
        """The connected regions of letter cells, as flat cell numbers."""
        w, h, let = self.width, self.height, self.letter
        seen = [False] * (w * h)
        comps = []
        for start in range(w * h):
            if not let[start] or seen[start]:
                continue
            seen[start] = True
            stack, comp = [start], []
            while stack:
                i = stack.pop()
                comp.append(i)
                c = i % w
                for j in (i - w if i >= w else -1, i + w if i + w < w * h else -1,
                          i - 1 if c else -1, i + 1 if c + 1 < w else -1):
                    if j >= 0 and let[j] and not seen[j]:
                        seen[j] = True
                        stack.append(j)
            comps.append(comp)
        return comps

    def _islands(self) -> int:
        """hard x the letters outside the largest connected region."""
        sizes = [len(c) for c in self._components()]
        if len(sizes) <= 1:
            return 0
        return self.rules.hard * (sum(sizes) - max(sizes))

    def hard_violations(self) -> int:
        """Hard-rule violations of the current mask."""
        w, h = self.width, self.height
        n = sum(self._parts(w, b)[1] for b in self.row_bits)
        n += sum(self._parts(h, b)[1] for b in self.col_bits)
        return n + self.island_cost // self.rules.hard

    def cell_penalties(self) -> list[int]:
        """The current penalty charged to each cell (flat, r * width + c)."""
        w, h = self.width, self.height
        per = [0] * (w * h)
        for r, b in enumerate(self.row_bits):
            for c, x in enumerate(self._parts(w, b)[2]):
                if x:
                    per[r * w + c] += x
        for c, b in enumerate(self.col_bits):
            for r, x in enumerate(self._parts(h, b)[2]):
                if x:
                    per[r * w + c] += x
        for r in range(h):
            for c in range(w):
                d = self._dead(r, c)
                if d:
                    per[r * w + c] += d
                k = self._crowd(r, c)
                if k:
                    i = r * w + c
                    for j in (i, i + 1, i + w, i + w + 1):
                        per[j] += k
        if self.island_cost:
            self._charge_islands(per)
        return per

    def _charge_islands(self, per: list[int]) -> None:
        """Adds hard to ``per`` of each letter outside the largest region."""
        comps = self._components()
        main = max(comps, key=len)
        for comp in comps:
            if comp is not main:
                for i in comp:
                    per[i] += self.rules.hard

    def _flip_local(self, r: int, c: int) -> int:
        """Flip cell (r, c); return the change of every penalty but the islands'."""
        w, h = self.width, self.height
        before = (self._line(w, self.row_bits[r]) + self._line(h, self.col_bits[c])
                  + self._dead(r, c) + self._dead(r, c - 1) + self._dead(r - 1, c)
                  + self._crowd(r - 1, c - 1) + self._crowd(r - 1, c) + self._crowd(r, c - 1)
                  + self._crowd(r, c))
        i = r * w + c
        self.letter[i] = not self.letter[i]
        self.row_bits[r] ^= 1 << c
        self.col_bits[c] ^= 1 << r
        after = (self._line(w, self.row_bits[r]) + self._line(h, self.col_bits[c])
                 + self._dead(r, c) + self._dead(r, c - 1) + self._dead(r - 1, c)
                 + self._crowd(r - 1, c - 1) + self._crowd(r - 1, c) + self._crowd(r, c - 1)
                 + self._crowd(r, c))
        return after - before

    def try_move(self, cells: list[Cell]) -> bool:
        """Flip ``cells``; keep the change unless the penalty grows (True when kept)."""
        delta = 0
        for r, c in cells:
            delta += self._flip_local(r, c)
        islands = self.island_cost
        # islands only ever add penalty: with none now, a local loss cannot be made up
        if not (islands == 0 and delta > 0):
            islands = self._islands()
            delta += islands - self.island_cost
        if delta <= 0:
            self.total += delta
            self.island_cost = islands
            return True
        for r, c in reversed(cells):
            self._flip_local(r, c)
        return False

    # moves ------------------------------------------------------------------------------
    def _move_at(self, cell: Cell) -> list[Cell]:
        """A flip of ``cell`` or of a neighbour, or a diagonal shift of a clue cell there."""
        rng, w = self.rng, self.width
        r, c = cell
        if rng.random() < 0.5:
            cands = [(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
            cands = [x for x in cands if x in self._movable_set]
            return [rng.choice(cands)] if cands else []
        # shift: a clue cell and a diagonal letter neighbour swap places
        if self.letter[r * w + c]:
            return []
        dr, dc = rng.choice(((1, 1), (1, -1), (-1, 1), (-1, -1)))
        other = (r + dr, c + dc)
        if cell in self._movable_set and other in self._movable_set \
                and self.letter[other[0] * w + other[1]]:
            return [cell, other]
        return []

    def run(self, *, max_steps: int | None = None,
            deadline: float | None = None) -> tuple[ArrowMask, int]:
        """Hill-climb from the current mask (until ``deadline``, a ``time.time()``, at the
        latest); return the best mask and its penalty."""
        rules, rng = self.rules, self.rng
        limit = rules.max_steps if max_steps is None else max_steps
        best_total, best = self.total, list(self.letter)
        best_hard = self.hard_violations()
        since_best = 0
        shakes_without = 0
        targets: list[Cell] = []
        targets_age = 10**9
        while self.steps < limit:
            self.steps += 1
            if deadline is not None and not self.steps & 255 and time.time() > deadline:
                break
            since_best += 1
            if rng.random() < 0.5:
                if targets_age > 20:
                    per, w = self.cell_penalties(), self.width
                    top = max((per[r * w + c] for r, c in self.movable), default=0)
                    targets = ([x for x in self.movable if per[x[0] * w + x[1]] == top]
                               if top else [])
                    targets_age = 0
                targets_age += 1
                cells = self._move_at(rng.choice(targets)) if targets else []
            else:
                cells = self._move_at(rng.choice(self.movable))
            if cells and self.try_move(cells):
                targets_age += 5
                if self.total < best_total:
                    best_total, best = self.total, list(self.letter)
                    best_hard = self.hard_violations()
                    since_best = 0
                    shakes_without = 0
            if since_best >= rules.patience:
                if shakes_without >= rules.shakes and best_hard == 0:
                    break
                shakes_without += 1
                self.shakes_done += 1
                self.letter[:] = best
                for r, c in rng.sample(self.movable, min(rules.shake, len(self.movable))):
                    self.letter[r * self.width + c] = not self.letter[r * self.width + c]
                self._recount()
                since_best = 0
                targets_age = 10**9
        self.letter[:] = best
        self._recount()
        return self.mask(), self.total


def search_mask(width: int, height: int, rules: MaskRules = MaskRules(),
                rng: random.Random | None = None, *, start: ArrowMask | None = None,
                movable: list[Cell] | None = None,
                deadline: float | None = None) -> tuple[ArrowMask, int, int]:
    """A mask by hill climbing: (mask, its penalty, steps).  With ``start`` and ``movable``,
    only those cells are re-drawn and moved (a repair of part of a mask)."""
    rng = rng or random.Random(0)
    search = MaskSearch(width, height, rules, rng, movable=list(movable or []))
    if start is None:
        search.randomize()
    else:
        search.load(start)
        if movable:
            search.randomize(movable)
    mask, total = search.run(deadline=deadline)
    return mask, total, search.steps

