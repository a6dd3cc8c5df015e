"""The composer's suffix filter: assignments whose last digits end no candidate word's key.

The composer's keys (:mod:`.compose`) label each digit position of the unknown's value X:
the letter of the puzzle holding that digit, ``10 + p`` for a digit no letter holds (p: its
first position) or the padding left of a short number.  Its prefix filters test the first
positions, but there the labels hardly differ: in ``отправь+срочно`` X has seven or eight
digits and nearly always starts with 1, so the first two positions drop 2 % of the
assignments.  The last positions vary the most.  Their labels, with every ``10 + p`` read
as one class *free* (the first position of a free digit depends on the digits before it),
are a necessary condition of key equality: an assignment whose last positions' classes
end no candidate word's key has no word, and goes before its key is built.
"""

from __future__ import annotations

import numpy as np

from . import permutations as perms

__all__ = ["SuffixFilter", "POSITIONS"]

POSITIONS = 3  # the last positions tested: 12**3 classes in a table that stays in cache
_FREE, _PAD, _RADIX = 10, 11, 12
# an assignment's label (from the inverse table) -> its class
_CLASS = np.full(256, _FREE, dtype=np.uint8)
_CLASS[:10] = np.arange(10)
_CLASS[perms.PAD_CODE] = _PAD
_SPAN = 10 ** POSITIONS
# _DIGITS[j, v]: digit j (from the right) of v = x mod _SPAN when x >= 10**(POSITIONS - 1),
# and at v + _SPAN, of v = x below that, with the padding digit 10 left of its first digit
_DIGITS = np.zeros((POSITIONS, 2 * _SPAN), dtype=np.uint8)
for _j in range(POSITIONS):
    _v = np.arange(_SPAN)
    _DIGITS[_j, :_SPAN] = _v // 10 ** _j % 10
    _DIGITS[_j, _SPAN:] = np.where((_j > 0) & (_v < 10 ** _j), 10, _v // 10 ** _j % 10)

class SuffixFilter:
    """The classes of the last :attr:`positions` labels of the candidate words' keys (of
    ``width`` positions), as a table of the codes some word's key ends with."""

    def __init__(self, width: int, pad: int, word_labels: list[list[np.ndarray]]):
        self.width = width
        self.positions = min(POSITIONS, width)
        self.table = np.zeros(_RADIX ** self.positions, dtype=bool)
        for labels in word_labels:  # per length: ``width`` label columns of its words
            code = np.zeros(len(labels[0]), dtype=np.int64)
            for lab in labels[width - self.positions:]:
                cls = np.where(lab < 10, lab, np.where(lab == pad, _PAD, _FREE))
                code = code * _RADIX + cls
            self.table[code] = True

    def keep(self, x: np.ndarray, local: np.ndarray, inv: np.ndarray) -> np.ndarray | None:
        """The indices of the values ``x`` (non-negative, of assignment rows ``local`` of a
        block with the flat inverse table ``inv``) whose last labels end some word's key;
        None (keep all) for values past int64."""
        if x.dtype == object:
            return None
        # uint32 floor division is numpy's fast one (its % is not)
        v = x.astype(np.uint32) if self.width <= 9 else x
        span = v.dtype.type(_SPAN)
        at = v - (v // span) * span
        at = np.where(v < 10 ** (POSITIONS - 1), at + span, at)  # padding may stand there
        base = local * perms.WIDTH
        code = np.zeros(len(x), dtype=np.int16)  # below 12**3
        for j in range(self.positions - 1, -1, -1):  # left to right
            cls = np.take(_CLASS, np.take(inv, base + np.take(_DIGITS[j], at)))
            code = code * np.int16(_RADIX) + cls
        return np.flatnonzero(np.take(self.table, code))
