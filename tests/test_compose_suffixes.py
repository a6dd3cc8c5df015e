"""The composer's suffix filter against a digit-by-digit reading of the same rule."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.cryptarithm import permutations as perms
from cryptocomp.cryptarithm.suffixes import POSITIONS, SuffixFilter


def _cls(label: int, pad: int) -> str:
    return str(label) if label < 10 else "pad" if label in (pad, perms.PAD_CODE) else "free"


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 12), st.data())
def test_suffix_filter_keeps_exactly_the_rows_some_word_ends_like(width, data):
    pad = (1 << (10 + width).bit_length()) - 1
    label = st.one_of(st.integers(0, 9), st.integers(10, 9 + width), st.just(pad))
    words = data.draw(st.lists(st.lists(label, min_size=width, max_size=width),
                               min_size=1, max_size=6))
    groups = [[np.array([w[p] for w in words], dtype=np.uint8) for p in range(width)]]
    n = data.draw(st.integers(1, 12))
    xs = data.draw(st.lists(st.integers(0, 10 ** width - 1), min_size=n, max_size=n))
    holder = st.sampled_from([*range(10), perms.UNSET])
    inv = np.array([data.draw(st.lists(holder, min_size=10, max_size=10)) + [perms.PAD_CODE]
                    for _ in range(n)], dtype=np.uint8).reshape(-1)
    local = np.arange(n, dtype=np.int64)
    got = SuffixFilter(width, pad, groups).keep(np.array(xs, dtype=np.int64), local, inv)
    tail = min(POSITIONS, width)
    ends = {tuple(_cls(lab, pad) for lab in w[width - tail:]) for w in words}
    want = []
    for r, x in enumerate(xs):
        text = str(x).rjust(width, "a")  # "a": the padding digit 10 left of a short number
        digits = [10 if c == "a" else int(c) for c in text[width - tail:]]
        if tuple(_cls(int(inv[r * perms.WIDTH + d]), pad) for d in digits) in ends:
            want.append(r)
    assert got is not None and got.tolist() == want


def test_suffix_filter_keeps_everything_past_int64():
    f = SuffixFilter(20, 31, [[np.zeros(1, dtype=np.uint8)] * 20])
    x = np.array([10 ** 19], dtype=object)
    assert f.keep(x, np.zeros(1, dtype=np.int64), np.zeros(perms.WIDTH, dtype=np.uint8)) is None
