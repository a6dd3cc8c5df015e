"""The compiled engine's data layouts, each defined once here and read by name everywhere.

numba compiles a named tuple's fields as attribute reads of a fixed place (no lookup at
run time), and the integer constants below as literals, so the names cost nothing.  The
compiled code freezes these values when it is compiled: this module is one of the
sources whose change gives the machine code a new directory (:func:`.jitcache.family_key`).

* :class:`Static` (``T``): a problem's arrays shared by every search of it
  (:class:`.tables.Tables`);
* :class:`Dynamic` (``D``): the state of one search (:class:`.tables.State`);
* the columns of the slot table (``slot[s, LEN]`` ...), of the crossings (``cross[x,
  OTHER]`` ...), of the trail and of the decision stack;
* the slots of the int64 control array ``ctl`` and of the float parameter array
  ``params`` of a search, shared by propagation (:mod:`.propagation`) and the search
  (:mod:`.search`);
* :class:`RowArrays` and the slots of its own ``ctl``: the ``rows`` search of word
  rectangles (:mod:`.rectangle`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Static", "Dynamic", "RowArrays"]


class Static(NamedTuple):
    """The arrays of one problem, shared by every search of it (see :mod:`.tables`)."""

    wl: np.ndarray  # (rows, maxlen) uint16: letter codes of each word, grouped by length
    wscore: np.ndarray  # float64 per row: log(1 + count)
    wbonus: np.ndarray  # float64 per row: the score bonus of a preferred word
    slot: np.ndarray  # (S, NSLOT) int64: the slot table (columns below)
    cross: np.ndarray  # (S * maxlen, NCROSS) int64: the crossing at each slot position
    pl: np.ndarray  # int32: words (index in their length group) by (length, position, letter)
    pl_start: np.ndarray  # int64: where each (length, position, letter) key starts in pl
    same: np.ndarray  # int64: the slots grouped by length
    same_start: np.ndarray  # int64: where each length starts in same
    kstart: np.ndarray  # int64 per row + 1: where its conflict keys start in keys
    keys: np.ndarray  # int32: the conflict keys of each word row
    pstart: np.ndarray  # int64 per key + 1: where its words start in klen and kk
    klen: np.ndarray  # int64: the length of each word with a key, grouped by key
    kk: np.ndarray  # int64: its index in its length group
    A: int  # letters of the alphabet
    maxlen: int  # the longest slot


class Dynamic(NamedTuple):
    """The state of one search (see :mod:`.propagation` and :mod:`.search`)."""

    dom: np.ndarray  # int32: the slots' sparse sets of words, alive ones first
    pos: np.ndarray  # int32: each word's place in its slot's sparse set
    size: np.ndarray  # int64 per slot: the alive words
    cnt: np.ndarray  # int32: alive words with letter a at position p, per slot
    trail: np.ndarray  # (cap, NTRAIL) int64: what to undo, in order
    rq: np.ndarray  # int64: the slots queued for revision
    sq: np.ndarray  # int64: the slots queued as singletons
    ctl: np.ndarray  # int64 control scalars (slots below)
    params: np.ndarray  # float64 parameters (slots below)
    used: np.ndarray  # int64 per word row: the slot it settles (-1: none)
    single: np.ndarray  # int64 per slot: its settled word (-1: open)
    weight: np.ndarray  # float64 per crossing: failure weight
    sweight: np.ndarray  # float64 per slot: failure weight of its own
    snap: np.ndarray  # (cap, maxlen * A) int32: letter counts saved by bulk filters
    snap_size: np.ndarray  # int64: the domain size saved with each snapshot
    mask: np.ndarray  # uint8 (maxlen * A): letters a filter keeps, per position
    dec: np.ndarray  # (cap, NDEC) int64: the decision stack
    best: np.ndarray  # int64 per slot: the words of the best partial fill
    inq: np.ndarray  # uint8 per slot: queued for revision
    act: np.ndarray  # int64 (maxlen + 1): the positions a filter looks at, their number last
    ng_s: np.ndarray  # int32: the slot of each nogood literal, nogood after nogood
    ng_k: np.ndarray  # int32: its word (index in the slot's length group)
    ng_start: np.ndarray  # int64 per nogood + 1: where its literals start (two watched first)
    w_head: np.ndarray  # int32 per word place (PBASE + k): its first watching node, -1
    w_next: np.ndarray  # int32 per watching node (2 * nogood + which): the next, -1


# columns of the slot table: length, offsets of the slot's domain (dom), word places
# (pos), letter counts (cnt) and length group (rows of wl), number of candidates
LEN, DBASE, PBASE, CBASE, GROW, M = 0, 1, 2, 3, 4, 5
NSLOT = 6
# columns of cross[s * maxlen + p]: the crossing slot (-1: unchecked cell), its position
# there, the crossing's id (its failure weight's index)
OTHER, AT, XID = 0, 1, 2
NCROSS = 3
# columns of the trail: the slot, and what happened to it (see propagation's tags)
T_SLOT, T_TAG = 0, 1
NTRAIL = 2
# columns of the decision stack: the slot, the word or p * A + letter, the trail mark
# before it, the decision kind (search's PLACE_WORD ...)
D_SLOT, D_VALUE, D_MARK, D_KIND = 0, 1, 2, 3
NDEC = 4

# ctl: propagation's scalars (trail length, work units, next look at the clock, the slot
# that ran empty, settled slots, revision and singleton queue lengths, snapshots), then
# the search's (decisions, nodes, failures and their limit before a restart, the xorshift
# state, the best partial fill's settled slots, its tightest open slot and that slot's
# size, and the last slot: -2 right after a solution), then the nogoods recorded and
# their literals (:mod:`.nogood`)
TRAIL, OPS, NEXT_CHECK, WIPED, NSINGLE, RQN, SQN, SNAPN = 0, 1, 2, 3, 4, 5, 6, 7
DEPTH, NODES, FAILS, FAIL_LIMIT, RNG, BEST, BEST_CULPRIT, BEST_OPEN, LAST_SLOT = (
    8, 9, 10, 11, 12, 13, 14, 15, 16)
NGN, NGL = 17, 18
NCTL = 19
# params: the hard deadline (monotonic seconds, read by propagation and the search), the
# work units at which run() pauses, the weight of frequency in word scores, the noise on
# word scores, look-ahead on (> 0), letter branching (< 0: cells; > 0: above that many
# candidates), the noise on slot ties, the factor ageing failure weights at each failure
DEADLINE, PAUSE_AT, FREQ_WEIGHT, NOISE, LOOKAHEAD, LETTER_BRANCH, SLOT_NOISE, AGE = (
    0, 1, 2, 3, 4, 5, 6, 7)
NPARAMS = 8


class RowArrays(NamedTuple):
    """The arrays of one ``rows`` search (:class:`.rectangle.RowSearch`): the tries of the
    rows (``r*``), of the rows reversed (``x*``) and of the columns (``c*``, :mod:`.trie`),
    and the search's state."""

    rch: np.ndarray
    rmask: np.ndarray
    rahead: np.ndarray
    rorder: np.ndarray
    rleaf: np.ndarray
    xch: np.ndarray
    xmask: np.ndarray
    xahead: np.ndarray
    cch: np.ndarray
    cmask: np.ndarray
    cahead: np.ndarray
    cleaf: np.ndarray
    rbase: int  # the first row of the rows' length group in the word tables
    cbase: int  # the same for the columns
    given: np.ndarray  # uint64 per cell: the letters it may take
    W: int
    H: int
    rn: np.ndarray  # (H, W + 1) int32: row trie node after each cell of a row
    cn: np.ndarray  # (W, H + 1) int32: column trie node after each cell of a column
    pos: np.ndarray  # int64 per cell: the next letter to try (place in the node's order)
    allowed: np.ndarray  # uint64 per cell: the letters it may take now
    rowset: np.ndarray  # (H, W) uint64: the letters each column can take next, per row
    eq: np.ndarray  # uint8 per row: the first column equals the first row so far
    letter: np.ndarray  # int64 per cell: the letters placed
    best: np.ndarray  # int64 per cell: the deepest partial fill's letters
    dead: np.ndarray  # int64 per cell: the times it ran out of letters
    used: np.ndarray  # uint8 per word row: the word is placed
    kstart: np.ndarray  # int64 per word row + 1: where its conflict keys start in keys
    keys: np.ndarray  # int32: the conflict keys of each word row (.rules)
    kused: np.ndarray  # int32 per key: the placed words that have it
    ctl: np.ndarray  # int64 scalars (ROW_* slots below)
    sets: np.ndarray  # uint64 per column: the rows-below check's letter sets of a row
    xsets: np.ndarray  # uint64 per column: the same, the row reversed
    vs: np.ndarray  # int64 (W + 1): the trie nodes of that check's walk
    ms: np.ndarray  # uint64 (W + 1): the letters left to try at each of its depths


# the rows search's ctl: the cell to fill next (-1: exhausted), letters placed, table
# lookups, the deepest partial fill's cells, and whether fills are taken up to transposition
ROW_K, ROW_NODES, ROW_OPS, ROW_BEST, ROW_SYM = 0, 1, 2, 3, 4
NROWCTL = 5
