"""Word scores, the constructors' 1-100 scale, for any index.

Crossword constructors rate words from 1 (junk) to 100 (the best) in scored lists
(``word;score``).  An index built from such a list is *scored* (its build parameter
``scored`` is true): a word's count is its score.  Any other index counts occurrences,
and a word's score follows from its frequency on the Zipf scale (log10 of occurrences
per billion words, from 0 to about 8 for "the"), stretched over 1-100:

    score = clamp(round(zipf * 100 / 8), 1, 100)

So a word used once per million words (Zipf 3) scores 38 and one used once per 10,000
words (Zipf 5) scores 62.  The score only grows with the count, so "score at least s" is a
prefix of the word ids, like "count at least m".

A score given for a word of a counted index (a user's ``word;score`` list over wordfreq's
counts) becomes the smallest count with at least that score (:func:`count_for_score`), so
the word ranks first among the words of its score.

>>> score_of(1000, 10**9, scored=False)
38
>>> score_of(70, 10**9, scored=True)
70
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["MIN_SCORE", "MAX_SCORE", "score_of", "first_below_score", "count_for_score"]

MIN_SCORE, MAX_SCORE = 1, 100
_ZIPF_TOP = 8.0  # the Zipf value that scores 100


def score_of(count: int, total: int, *, scored: bool) -> int:
    """The 1-100 score of a word counted ``count`` times among ``total`` (see above)."""
    if scored:
        return max(MIN_SCORE, min(MAX_SCORE, count))
    if count <= 0 or total <= 0:
        return MIN_SCORE
    zipf = math.log10(count * 1e9 / total)
    return max(MIN_SCORE, min(MAX_SCORE, round(zipf * MAX_SCORE / _ZIPF_TOP)))


def first_below_score(counts: Sequence[int], total: int, min_score: int, *,
                      scored: bool) -> int:
    """The first id whose score is below ``min_score`` (counts descend, so every id before
    it scores at least ``min_score``)."""
    lo, hi = 0, len(counts)
    while lo < hi:
        mid = (lo + hi) // 2
        if score_of(counts[mid], total, scored=scored) >= min_score:
            lo = mid + 1
        else:
            hi = mid
    return lo


def count_for_score(score: int, total: int, *, scored: bool) -> int:
    """The count a word of ``score`` (1-100) gets among ``total``: the score itself in a
    scored index, else the smallest count (at least 1) whose score is at least ``score``."""
    score = max(MIN_SCORE, min(MAX_SCORE, score))
    if scored:
        return score
    if total <= 0:
        return 1
    # the formula's inverse, then a step either way for rounding at the boundaries
    rough = total / 1e9 * 10 ** ((score - 0.5) * _ZIPF_TOP / MAX_SCORE)
    count = max(1, math.ceil(rough))
    while count > 1 and score_of(count - 1, total, scored=False) >= score:
        count -= 1
    while score_of(count, total, scored=False) < score:
        count += 1
    return count
