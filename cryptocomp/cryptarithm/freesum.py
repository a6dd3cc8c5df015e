"""``--right free``: puzzles whose both sides are sums of list words (``a + b = c + d``).

Each word goes left, right or nowhere, in list order, depth first; a branch is cut when the
words chosen have more symbols than the base has digits, or more words than ``max_words``.
Each equation is found once (the first word chosen is on the left) and printed with the
side of more words on the left (a tie: the side of the earlier word).  The counter gets the
longest word as its right word and the other words with their signs: ``a + b = c + d`` is
``a + b - c = d`` when ``d`` is the longest.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .wordsum import solve_word_sum

if TYPE_CHECKING:
    from .generation import Generated, _Search

__all__ = ["free_sums"]


def free_sums(search: _Search, words: list[str]) -> Iterator[Generated]:
    """Every puzzle of two disjoint sums of list words with exactly one solution."""
    yield from _place(search, words, 0, [], [], 0)


def _place(search: _Search, words: list[str], i: int, left: list[int], right: list[int],
           mask: int) -> Iterator[Generated]:
    """The puzzles with ``left`` and ``right`` so far and words from ``i`` on to place."""
    spec = search.spec
    if left and right and len(left) + len(right) >= spec.min_words:
        found = _check(search, words, left, right)
        if found is not None:
            yield found
    if search.stopped or i == len(words):
        return
    if spec.max_words is not None and len(left) + len(right) >= spec.max_words:
        return
    for j in range(i, len(words)):
        new = mask | search.masks[j]
        if new.bit_count() > spec.base:
            continue
        yield from _place(search, words, j + 1, [*left, j], right, new)
        if left:
            yield from _place(search, words, j + 1, left, [*right, j], new)


def _check(search: _Search, words: list[str], left: list[int],
           right: list[int]) -> Generated | None:
    """The puzzle ``left = right`` when its bounds meet and it has exactly one solution."""
    from .generation import Generated

    low_l, high_l = (sum(search.lows[i] for i in left), sum(search.highs[i] for i in left))
    low_r, high_r = (sum(search.lows[i] for i in right), sum(search.highs[i] for i in right))
    if low_l > high_r or low_r > high_l or search.out_of_time():
        return None
    longest = max(left + right, key=lambda i: len(words[i]))
    same, other = (left, right) if longest in left else (right, left)
    count, fill = solve_word_sum([words[i] for i in other], words[longest], "+",
                                 search.spec.base, minus=[words[i] for i in same
                                                          if i != longest])
    if count != 1:
        return None
    a, b = (left, right) if len(left) >= len(right) else (right, left)
    return Generated(tuple(words[i] for i in a), tuple(words[i] for i in b), "+", fill)
