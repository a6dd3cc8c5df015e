"""Arrow-word masks: the incremental penalties against the plain evaluation, the hill
climbing against brute force on tiny grids, and the slots of a mask."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.arrow.mask import ArrowMask, MaskRules, MaskSearch, penalties, search_mask

RULES = MaskRules(max_len=5, long_from=4)


def _mask(width: int, height: int, inner: list[bool]) -> ArrowMask:
    """A mask with clue-cell frame and ``inner`` (True: letter) row by row."""
    it = iter(inner)
    rows = []
    for r in range(height):
        rows.append("".join("#" if r == 0 or c == 0 else ("." if next(it) else "#")
                            for c in range(width)))
    return ArrowMask(tuple(rows))


@st.composite
def masks(draw, lo=2, hi=7):
    w = draw(st.integers(lo, hi))
    h = draw(st.integers(lo, hi))
    inner = draw(st.lists(st.booleans(), min_size=(w - 1) * (h - 1), max_size=(w - 1) * (h - 1)))
    return _mask(w, h, inner)


def test_penalties_by_hand():
    m = ArrowMask(("####",
                   "#..#",
                   "#..#",
                   "####"))
    total, per, hard = penalties(m, RULES)
    # four 2-letter words; dead clue cells: (0,3), (1,3), (2,3), (3,0..3), (0,0) excepted
    dead = 3 + 4
    crowd = 0
    assert hard == 0
    assert total == 4 * RULES.two + dead * RULES.dead + crowd
    assert per[(1, 1)] == 2 * RULES.two
    lone = ArrowMask(("###", "#.#", "###"))
    assert penalties(lone, RULES)[2] == 2  # the letter has neither an across nor a down word


@settings(max_examples=150, deadline=None)
@given(masks(), st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99), st.booleans()),
                         max_size=30), st.integers(0, 2**32 - 1))
def test_incremental_penalty_equals_plain_evaluation(mask, moves, seed):
    search = MaskSearch(mask.width, mask.height, RULES, random.Random(seed))
    search.load(mask)
    total, per, hard = penalties(mask, RULES)
    assert search.total == total and search.hard_violations() == hard
    for a, b, shift in moves:
        r, c = 1 + a % (mask.height - 1), 1 + b % (mask.width - 1)
        cells = [(r, c)]
        if shift and r + 1 < mask.height and c + 1 < mask.width:
            cells.append((r + 1, c + 1))
        before = search.total
        kept = search.try_move(cells)
        now = search.mask()
        total, per, hard = penalties(now, RULES)
        assert search.total == total
        assert search.hard_violations() == hard
        assert (search.total <= before) == kept or not kept
        flat = search.cell_penalties()
        assert {(i // mask.width, i % mask.width): x for i, x in enumerate(flat) if x} == \
            {k: v for k, v in per.items() if v}


def _brute_force_best(width: int, height: int, rules: MaskRules) -> int:
    n = (width - 1) * (height - 1)
    return min(penalties(_mask(width, height, list(bits)), rules)[0]
               for bits in itertools.product((False, True), repeat=n))


def test_hill_climbing_finds_the_brute_force_optimum_on_tiny_grids():
    rules = MaskRules(max_len=4, long_from=4, patience=300)
    for width, height in ((4, 4), (4, 5), (5, 4)):
        best = _brute_force_best(width, height, rules)
        found, masks_found = [], []
        for seed in range(4):
            mask, total, _ = search_mask(width, height, rules, random.Random(seed))
            masks_found.append(mask)
            assert penalties(mask, rules)[0] == total
            assert total >= best
            found.append(total)
        assert min(found) == best, (width, height, found, best)
        # every run ends without a hard violation (the optimum has none here)
        assert all(penalties(m, rules)[2] == 0 for m in masks_found)


@settings(max_examples=80, deadline=None)
@given(masks(3, 8))
def test_slots_of_a_valid_mask_cover_each_letter_once_each_way(mask):
    _total, _per, hard = penalties(mask, RULES)
    slots = mask.slots()
    for s in slots:
        assert mask.is_clue(s.clue_cell)
        dr, dc = (0, 1) if s.direction == "across" else (1, 0)
        assert s.clue_cell == (s.cells[0][0] - dr, s.cells[0][1] - dc)
    if hard == 0:
        for direction in ("across", "down"):
            covered = [c for s in slots if s.direction == direction for c in s.cells]
            assert sorted(covered) == mask.letter_cells()


def test_search_respects_the_frame_and_is_deterministic():
    a = search_mask(9, 7, MaskRules(max_len=6, long_from=5), random.Random(3))
    b = search_mask(9, 7, MaskRules(max_len=6, long_from=5), random.Random(3))
    assert a == b
    mask = a[0]
    assert mask.rows[0] == "#" * 9 and all(row[0] == "#" for row in mask.rows)
    assert penalties(mask, MaskRules(max_len=6, long_from=5))[2] == 0


def test_repair_moves_only_the_region():
    rules = MaskRules(max_len=6, long_from=5)
    mask, _, _ = search_mask(10, 10, rules, random.Random(1))
    region = [(r, c) for r in range(3, 6) for c in range(3, 6)]
    repaired, _, _ = search_mask(10, 10, rules, random.Random(2), start=mask, movable=region)
    for r in range(10):
        for c in range(10):
            if (r, c) not in region:
                assert repaired.rows[r][c] == mask.rows[r][c]
