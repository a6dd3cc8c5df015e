"""The exact counter of a word sum read as one linear form: ``a + b = c`` is
``sum(coef[s] * digit[s]) == 0`` over the symbols, ``coef[s]`` the place values of ``s`` in
the left words minus those in the right ones.

:func:`count_linear` counts the injective assignments of digits (no leading symbol 0) that
make the form 0, up to a ``cap``.  The search fixes the symbols of largest ``|coef|``
first; each symbol's digits are tried only in the window where the rest can still bring the
partial sum back to 0 (the rest lies between ``neg * m`` and ``pos * m``, the remaining
negative and positive coefficients, ``m`` the largest free digit: one division, not a test
a digit), and only when the partial sum is a multiple of the remaining coefficients' gcd;
the last symbol is solved for, not tried.  Large coefficients first
means the first two or three choices already pin the sum to a narrow window, which is why
this beats a column-by-column search on the many-addend sums a word list gives.

:class:`WordTable` holds a list's words as rows over its alphabet, so that a generator can
add left words up once and close the sum with every right word (see :mod:`.exploration`).

>>> count_linear({"s": 1000, "e": 91, "n": -90, "d": 1, "m": -9000, "o": -900, "r": 10,
...               "y": -1}, {"s", "m"})
(1, {'s': 9, 'e': 5, 'n': 6, 'd': 7, 'm': 1, 'o': 0, 'r': 8, 'y': 2})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..domain import Symbol
from ..jitcache import compiled

__all__ = ["count_linear", "count_forms", "count_lines", "WordTable", "word_table",
           "fits_int64", "usable", "search_slice"]

_INT64_ROOM = 2 ** 62



@compiled()
def _max_free(used, base):
    """The largest free digit (0 when none)."""
    m = base - 1
    while m > 0 and used[m] == 1:
        m -= 1
    return m


@compiled()
def _divisible(p, g):
    """True when ``p`` is a multiple of ``g`` (0: only 0 is)."""
    return p == 0 if g == 0 else p % g == 0


@compiled()
def _window(partial, ck, pos, neg, m, base):
    """The digits symbol ``k`` may take by the bounds alone, the largest free digit ``m``
    standing for every later one: (least, largest), clipped to the base."""
    lo_sum = -pos * m - partial   # ck * d must lie in [lo_sum, hi_sum]
    hi_sum = -neg * m - partial
    if ck > 0:
        lo, hi = -((-lo_sum) // ck), hi_sum // ck
    elif ck < 0:
        lo, hi = -((-hi_sum) // ck), lo_sum // ck
    else:
        lo, hi = (0, base - 1) if lo_sum <= 0 <= hi_sum else (base, -1)
    return max(lo, 0), min(hi, base - 1)


@compiled()
def _solve_last(partial, ck, lead, used, base):
    """The digit the last symbol must take (-1: none can)."""
    if partial % ck != 0:
        return -1
    x = -partial // ck
    if x < 0 or x >= base or used[x] == 1 or (x == 0 and lead == 1):
        return -1
    return x


@compiled()
def _search(c, lead, base, cap, first):
    """Solutions of ``sum(c * digit) == 0`` (``c`` in decreasing ``|c|``), up to ``cap``;
    the first one's digits go to ``first``."""
    n = c.shape[0]
    pos = np.zeros(n + 1, np.int64)
    neg = np.zeros(n + 1, np.int64)
    g = np.zeros(n + 1, np.int64)
    for k in range(n - 1, -1, -1):
        pos[k] = pos[k + 1] + max(c[k], 0)
        neg[k] = neg[k + 1] + min(c[k], 0)
        a, b = g[k + 1], abs(c[k])
        while b:
            a, b = b, a % b
        g[k] = a
    used = np.zeros(base, np.int64)
    val = np.full(n, -1, np.int64)
    top = np.zeros(n, np.int64)
    partial = np.zeros(n + 1, np.int64)
    count = 0
    k = 0
    while k >= 0:
        if k == n:
            if count == 0:
                first[:] = val
            count += 1
            if count >= cap:
                return count
            k -= 1
            continue
        if val[k] >= 0:
            used[val[k]] = 0
        if k == n - 1 and c[k] != 0:
            x = -1 if val[k] >= 0 else _solve_last(partial[k], c[k], lead[k], used, base)
        else:
            if val[k] < 0:
                x, top[k] = _window(partial[k], c[k], pos[k + 1], neg[k + 1],
                                    _max_free(used, base), base)
            else:
                x = val[k] + 1
            while x <= top[k] and (used[x] == 1 or (x == 0 and lead[k] == 1)
                                   or not _divisible(partial[k] + c[k] * x, g[k + 1])):
                x += 1
            if x > top[k]:
                x = -1
        if x < 0:
            val[k] = -1
            k -= 1
            continue
        val[k] = x
        used[x] = 1
        partial[k + 1] = partial[k] + c[k] * x
        k += 1
        if k < n:
            val[k] = -1
    return count


@compiled()
def count_sorted(coef, lead, base, cap, first):
    """:func:`_search` over the symbols in decreasing ``|coef|``; ``first`` in input order."""
    order = np.argsort(-np.abs(coef), kind="mergesort")
    found = np.full(coef.shape[0], -1, np.int64)
    count = _search(coef[order], lead[order], base, cap, found)
    for i in range(order.shape[0]):
        first[order[i]] = found[i]
    return count


@compiled()
def _forms_window(partial, c, k, pos, neg, m, base):
    """The digits symbol ``k`` may take by every form's bounds (see :func:`_window`)."""
    lo, hi = 0, base - 1
    for f in range(c.shape[0]):
        a, b = _window(partial[f], c[f, k], pos[f, k + 1], neg[f, k + 1], m, base)
        lo, hi = max(lo, a), min(hi, b)
    return lo, hi


@compiled()
def _next_digit(x, top, partial, c, k, g, used, lead):
    """The least digit from ``x`` to ``top`` that is free, not a leading 0, and leaves
    each form's partial sum a multiple of its remaining coefficients' gcd (``top + 1``:
    none)."""
    while x <= top:
        ok = used[x] == 0 and not (x == 0 and lead == 1)
        f = 0
        while ok and f < c.shape[0]:
            ok = _divisible(partial[f] + c[f, k] * x, g[f, k + 1])
            f += 1
        if ok:
            return x
        x += 1
    return top + 1


@compiled()
def _search_forms(c, lead, base, cap, first):
    """Solutions of every ``sum(c[f] * digit) == 0`` at once (the symbols, columns of
    ``c``, in the order to fix them), up to ``cap``; the first one's digits go to
    ``first``.  Each symbol's digits are tried in the window every form allows (as
    :func:`_search` for one form) and kept only when each form's partial sum is a
    multiple of its remaining coefficients' gcd."""
    # the loop of _search, over several forms; the one-form search stays apart because it
    # is the generator's inner loop, and it solves its last symbol instead of trying it
    forms, n = c.shape
    pos = np.zeros((forms, n + 1), np.int64)
    neg = np.zeros((forms, n + 1), np.int64)
    g = np.zeros((forms, n + 1), np.int64)
    for f in range(forms):
        for k in range(n - 1, -1, -1):
            pos[f, k] = pos[f, k + 1] + max(c[f, k], 0)
            neg[f, k] = neg[f, k + 1] + min(c[f, k], 0)
            a, b = g[f, k + 1], abs(c[f, k])
            while b:
                a, b = b, a % b
            g[f, k] = a
    used = np.zeros(base, np.int64)
    val = np.full(n, -1, np.int64)
    top = np.zeros(n, np.int64)
    partial = np.zeros((n + 1, forms), np.int64)
    count = 0
    k = 0
    while k >= 0:
        if k == n:
            if count == 0:
                first[:] = val
            count += 1
            if count >= cap:
                return count
            k -= 1
            continue
        if val[k] >= 0:
            used[val[k]] = 0
            x = val[k] + 1
        else:
            x, top[k] = _forms_window(partial[k], c, k, pos, neg, _max_free(used, base), base)
        x = _next_digit(x, top[k], partial[k], c, k, g, used, lead[k])
        if x > top[k]:
            val[k] = -1
            k -= 1
            continue
        val[k] = x
        used[x] = 1
        for f in range(forms):
            partial[k + 1, f] = partial[k, f] + c[f, k] * x
        k += 1
        if k < n:
            val[k] = -1
    return count


@compiled()
def count_forms(coef, lead, base, cap, first):
    """:func:`_search_forms` over the symbols in decreasing largest ``|coef|`` of any
    form (the sums pinned soonest); ``first`` in input order."""
    weight = np.zeros(coef.shape[1], np.int64)
    for f in range(coef.shape[0]):
        for s in range(coef.shape[1]):
            weight[s] = max(weight[s], abs(coef[f, s]))
    order = np.argsort(-weight, kind="mergesort")
    found = np.full(coef.shape[1], -1, np.int64)
    count = _search_forms(np.ascontiguousarray(coef[:, order]), lead[order], base, cap,
                          found)
    for i in range(order.shape[0]):
        first[order[i]] = found[i]
    return count


@compiled()
def count_lines(lines, coef, present, lead, cap, base, first):
    """:func:`count_forms` of word sums given as rows of word indices into a
    :class:`WordTable` (``coef``, ``present``, ``lead``): each row's words but the last add
    up to the last.  ``first`` (over the table's alphabet) gets the first solution's
    digits, -1 for the symbols in no line."""
    alphabet = coef.shape[1]
    here = np.zeros(alphabet, np.int64)
    for r in range(lines.shape[0]):
        for j in range(lines.shape[1]):
            here |= present[lines[r, j]]
    symbols = np.flatnonzero(here)
    forms = np.zeros((lines.shape[0], symbols.shape[0]), np.int64)
    leads = np.zeros(symbols.shape[0], np.int64)
    last = lines.shape[1] - 1
    for r in range(lines.shape[0]):
        for i in range(symbols.shape[0]):
            s = symbols[i]
            total = -coef[lines[r, last], s]
            for j in range(last):
                total += coef[lines[r, j], s]
            forms[r, i] = total
            for j in range(last + 1):
                leads[i] |= lead[lines[r, j], s]
    found = np.full(symbols.shape[0], -1, np.int64)
    count = count_forms(forms, leads, base, cap, found)
    first[:] = -1
    for i in range(symbols.shape[0]):
        first[symbols[i]] = found[i]
    return count


def count_linear(coef: Mapping[Symbol, int], leading: set[Symbol] | frozenset[Symbol],
                 base: int = 10, cap: int = 2) -> tuple[int, dict[Symbol, int]]:
    """The solutions (up to ``cap``) of ``sum(coef[s] * digit[s]) == 0`` over injective
    digits, the ``leading`` symbols not 0, and the first one found (empty when none)."""
    symbols = list(coef)
    if len(symbols) > base:
        return 0, {}
    first = np.full(len(symbols), -1, np.int64)
    count = int(count_sorted(np.array([coef[s] for s in symbols], np.int64),
                              np.array([s in leading for s in symbols], np.int64),
                              base, cap, first))
    return count, ({s: int(first[i]) for i, s in enumerate(symbols)} if count else {})


def usable(word: str, base: int) -> bool:
    """True when ``word`` has no more distinct symbols than the base has digits (else it
    is in no puzzle)."""
    return len(set(word)) <= base


def fits_int64(words: Sequence[str], base: int) -> bool:
    """True when every form the generator's search builds from these words fits in int64:
    it keeps a left side's least value below the largest right word's ``base ** L`` and a
    word's largest value is below ``base`` times its least plus ``base``, so every partial
    sum is below ``(base + 1) * base ** L + base * len(words)``."""
    longest = max((len(w) for w in words if usable(w, base)), default=0)
    return (base + 1) * base ** longest + base * len(words) < _INT64_ROOM


@dataclass(frozen=True)
class WordTable:
    """A list's words as rows over its alphabet (``symbols``): place values, presence,
    leading symbol, least and largest value and length of each word."""

    symbols: tuple[Symbol, ...]
    coef: np.ndarray      # (words, symbols) int64: the place values of each symbol
    present: np.ndarray   # (words, symbols) int64: 1 where the word has the symbol
    lead: np.ndarray      # (words, symbols) int64: 1 at the word's first symbol (len > 1)
    low: np.ndarray       # (words,) the least value (a one-symbol word may be 0)
    high: np.ndarray      # (words,) the largest value
    length: np.ndarray    # (words,)


def word_table(words: Sequence[str], base: int = 10) -> WordTable:
    """The table of ``words`` (see :func:`fits_int64` for the words it can hold)."""
    symbols = tuple(dict.fromkeys("".join(words)))
    index = {s: i for i, s in enumerate(symbols)}
    shape = (len(words), len(symbols))
    coef, present, lead = (np.zeros(shape, np.int64) for _ in range(3))
    for w, word in enumerate(words):
        for ch in word:   # every word's symbols, so that the symbol count refuses it
            present[w, index[ch]] = 1
        if not usable(word, base):   # in no puzzle: its place values may not fit in int64
            continue
        for place, ch in enumerate(reversed(word)):
            coef[w, index[ch]] += base ** place
        if len(word) > 1:
            lead[w, index[word[0]]] = 1
    lengths = [len(w) for w in words]
    return WordTable(symbols, coef, present, lead,
                     np.array([base ** (len(w) - 1) if len(w) > 1 and usable(w, base) else 0
                               for w in words], np.int64),
                     np.array([base ** len(w) - 1 if usable(w, base) else 0 for w in words],
                              np.int64),
                     np.array(lengths, np.int64))


# -- the generator's search over left sides (driven by .exploration) ----------------------
# These kernels live beside the counter they call because numba's cache is keyed by the
# file of the cached function only: a kernel in another module would keep running a stale
# copy of the counter after the counter changed.

@compiled()
def _new_symbols(w, symbols, mult):
    """How many of word ``w``'s symbols no left word holds yet."""
    n = 0
    for j in range(symbols.shape[1]):
        s = symbols[w, j]
        if s < 0:
            break
        if mult[s] == 0:
            n += 1
    return n


@compiled()
def _close(r, depth, fr_level, acc, mult, leads, coef, present, lead, low, high, length,
           symbols, base, out_digits, slot):
    """Counts left side = right word ``r`` when the lengths, bounds and symbols allow it:
    -1 when not counted, else the count up to 2 (the first solution in ``out_digits``)."""
    lv = fr_level[depth]
    if lv[3] > length[r] or lv[1] > high[r] or lv[2] < low[r]:
        return -1
    if lv[0] + _new_symbols(r, symbols, mult) > base:
        return -1
    nsym = acc.shape[0]
    idx = np.empty(nsym, np.int64)
    k = 0
    for s in range(nsym):
        if mult[s] > 0 or present[r, s] == 1:
            idx[k] = s
            k += 1
    c = np.empty(k, np.int64)
    ld = np.empty(k, np.int64)
    for j in range(k):
        s = idx[j]
        c[j] = acc[s] - coef[r, s]
        ld[j] = 1 if leads[s] > 0 or lead[r, s] == 1 else 0
    first = np.full(k, -1, np.int64)
    count = count_sorted(c, ld, base, 2, first)
    if count == 1:
        out_digits[slot, :] = -1
        for j in range(k):
            out_digits[slot, idx[j]] = first[j]
    return count


@compiled()
def _push(w, head, chosen, after, level, acc, mult, leads, coef, lead, symbols, low, high,
          length, values):
    """Word ``w`` joins the left side."""
    d = head[0]
    nxt = level[d + 1]
    nxt[0] = level[d, 0] + _new_symbols(w, symbols, mult)
    nxt[1] = level[d, 1] + low[w]
    nxt[2] = level[d, 2] + high[w]
    nxt[3] = max(level[d, 3], length[w])
    nxt[4] = level[d, 4] + values[w]
    for j in range(symbols.shape[1]):
        s = symbols[w, j]
        if s < 0:
            break
        mult[s] += 1
    acc += coef[w]
    leads += lead[w]
    chosen[d] = w
    after[d] = w + 1
    head[0] = d + 1
    after[d + 1] = w + 1
    head[1] = 0


@compiled()
def _pop(head, chosen, acc, mult, leads, coef, lead, symbols):
    """The last left word leaves."""
    d = head[0] - 1
    w = chosen[d]
    for j in range(symbols.shape[1]):
        s = symbols[w, j]
        if s < 0:
            break
        mult[s] -= 1
    acc -= coef[w]
    leads -= lead[w]
    head[0] = d
    head[1] = 1


@compiled()
def search_slice(head, chosen, after, level, acc, mult, leads, limits, coef, present, lead, low,
           high, length, symbols, values, vstart, vlist, taken, budget, room, out_left,
           out_right, out_digits):
    """Runs the search for about ``budget`` steps or until ``room`` puzzles are found;
    ``limits[7:9]`` (when not -1) hold the first two left words to one branch."""
    base, min_words, max_words, last = limits[0], limits[1], limits[2], limits[3]
    most, top, least = limits[4], limits[5], limits[6]
    steps = 0
    while steps < budget and head[3] < room:
        d = head[0]
        if head[1] == 0:   # a new left side: close it with each right word
            head[1] = 1
            total = level[d, 4]
            if d >= 2 and d + 1 >= min_words and least <= total <= top:
                for t in range(vstart[total], vstart[total + 1]):
                    r = vlist[t]
                    steps += 1
                    if taken[r] == 1:
                        continue
                    n = _close(r, d, level, acc, mult, leads, coef, present, lead, low, high,
                               length, symbols, base, out_digits, head[3])
                    if n >= 0:
                        head[2] += 1
                        steps += 10
                    if n == 1:
                        out_left[head[3], :] = -1
                        out_left[head[3], :d] = chosen[:d]
                        out_right[head[3]] = r
                        head[3] += 1
            if max_words > 0 and d + 1 >= max_words:
                after[d] = last
            continue
        i = after[d]
        stop = last
        if d < 2 and limits[7 + d] >= 0:   # one branch: this depth's word is given
            i = max(i, limits[7 + d])
            stop = min(last, limits[7 + d] + 1)
        good = False
        while i < stop and steps < budget and not good:
            steps += 1
            good = (level[d, 0] + _new_symbols(i, symbols, mult) <= base
                    and level[d, 1] + low[i] <= most and level[d, 4] + values[i] <= top)
            i += 0 if good else 1
        after[d] = i
        if good:
            taken[i] = 1
            _push(i, head, chosen, after, level, acc, mult, leads, coef, lead, symbols, low,
                  high, length, values)
        elif i >= stop:
            if d == 0:
                head[4] = 1
                return
            taken[chosen[d - 1]] = 0
            _pop(head, chosen, acc, mult, leads, coef, lead, symbols)
