"""Letter tries of one word length, as flat arrays for the compiled rectangle search.

Built from the engine's letter codes (:class:`~.tables.Tables`), in memory only
(no file format).  Node 0 is the root; a node at depth ``d`` stands for a
prefix of ``d`` letters shared by at least one word.

* ``child[v, a]``: the node after letter ``a`` (-1: no word continues so);
* ``mask[v]``: bit ``a`` set when ``child[v, a] >= 0`` (alphabets of at most 64
  letters, hence :data:`MAX_LETTERS`);
* ``ahead[v, p]``: the letters that stand at position ``p`` in some word below
  ``v`` (for ``p`` at or past ``v``'s depth), the rectangle search's look-ahead;
* ``order[v]``: ``v``'s letters, the one leading to the most frequent word
  first (or the first in a given order of trial), then -1;
* ``leaf[v]``: the word's row in the length group (its frequency rank) at
  depth ``n``, else -1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Trie", "build_trie", "MAX_LETTERS"]

MAX_LETTERS = 64  # letter sets are one 64-bit mask


@dataclass(frozen=True)
class Trie:
    """The arrays of one trie (see the module docstring)."""

    n: int
    child: np.ndarray
    mask: np.ndarray
    ahead: np.ndarray
    order: np.ndarray
    leaf: np.ndarray

    def _check(self, codes: np.ndarray) -> None:
        """Invariants against a plain walk of every word (``codes[k]``: word ``k``'s letters)."""
        nodes = len(self.child)
        assert self.child.max(initial=-1) < nodes
        seen = {0}
        for k, word in enumerate(codes.tolist()):
            v = 0
            for p, a in enumerate(word):
                assert self.mask[v] >> np.uint64(a) & np.uint64(1)
                for q in range(p, self.n):
                    assert self.ahead[v, q] >> np.uint64(word[q]) & np.uint64(1)
                v = int(self.child[v, a])
                assert v > 0
                seen.add(v)
            assert self.leaf[v] == k
        assert len(seen) == nodes  # no node without a word below it
        for v in range(nodes):
            kids = [a for a in self.order[v].tolist() if a >= 0]
            bits = sum(1 << a for a in kids)
            assert bits == int(self.mask[v]) and len(kids) == len(set(kids))
            assert bits == sum(1 << a for a in range(self.child.shape[1]) if self.child[v, a] >= 0)


def build_trie(codes: np.ndarray, letters: int, prio: np.ndarray | None = None) -> Trie:
    """The trie of ``codes`` (one row of letter codes per word, rows in frequency order);
    ``prio``: each row's place in the order of trial, when it is not the rows' order."""
    m, n = codes.shape
    if letters > MAX_LETTERS:
        raise ValueError(f"a trie holds at most {MAX_LETTERS} letters, not {letters}")
    codes = codes.astype(np.int64)
    srt = np.lexsort(codes.T[::-1])  # lexicographic: the rows below a node are contiguous
    c = codes[srt]
    rank = srt.astype(np.int64)
    trial = rank if prio is None else np.asarray(prio, dtype=np.int64)[srt]
    # new[d][r]: row r starts a new node at depth d + 1 (its first d + 1 letters differ
    # from the previous row's)
    differs = np.ones((n, m), dtype=bool)
    if m > 1:
        step = c[1:] != c[:-1]
        differs[:, 1:] = np.logical_or.accumulate(step, axis=1).T
    node_of = np.zeros((n + 1, m), dtype=np.int64)
    starts: list[np.ndarray] = [np.zeros(1, dtype=np.int64)]
    base = 1
    for d in range(n):
        cum = np.cumsum(differs[d]) - 1
        node_of[d + 1] = base + cum
        starts.append(np.flatnonzero(differs[d]))
        base += int(cum[-1]) + 1 if m else 0
    nodes = base
    child = np.full((nodes, letters), -1, dtype=np.int32)
    ahead = np.zeros((nodes, n), dtype=np.uint64)
    best = np.zeros(nodes, dtype=np.int64)
    bits = np.left_shift(np.uint64(1), c.astype(np.uint64)) if m else np.zeros((0, n), np.uint64)
    for d in range(n + 1):
        first = starts[d]
        if m == 0:
            break
        ids = node_of[d, first]
        ahead[ids] = np.bitwise_or.reduceat(bits, first, axis=0)
        best[ids] = np.minimum.reduceat(trial, first)
        if d < n:
            nxt = starts[d + 1]
            child[node_of[d, nxt], c[nxt, d]] = node_of[d + 1, nxt]
    mask = np.zeros(nodes, dtype=np.uint64)
    for d in range(n):
        ids = node_of[d, starts[d]]
        mask[ids] = ahead[ids, d]
    leaf = np.full(nodes, -1, dtype=np.int64)
    if m:
        leaf[node_of[n]] = rank
    # each node's letters by the best word below (smallest rank first)
    order = np.full((nodes, letters + 1), -1, dtype=np.int32)
    parent = np.repeat(np.arange(nodes, dtype=np.int64), letters)
    letter = np.tile(np.arange(letters, dtype=np.int64), nodes)
    kid = child.ravel().astype(np.int64)
    keep = kid >= 0
    parent, letter, kid = parent[keep], letter[keep], kid[keep]
    srt2 = np.lexsort((best[kid], parent))
    parent, letter = parent[srt2], letter[srt2]
    first_of = np.searchsorted(parent, parent, side="left")
    order[parent, np.arange(len(parent)) - first_of] = letter
    return Trie(n, child, mask, ahead, order, leaf)
