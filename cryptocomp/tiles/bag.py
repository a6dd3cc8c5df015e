"""The whole bag: use every tile in words with distinct first letters, maximising the score.

Rules
-----
Every tile of the bag (blanks included) is used exactly once, in dictionary
words of at most ``max_length`` tiles; no two words start with the same face (a
word's first tile, blank-played or not, names its first letter); a word scores
its length in tiles times the sum of the values of its real tiles (a blank
plays any face and is worth 0).  Maximise the total.  With the English set and
the SOWPODS list the optimum is 2765; lengths and shapes are not restricted.

Search
------
Write ``L = max_length`` and ``V`` for the value of all real tiles: the score is
``L*V - loss`` with ``loss = sum over words of (L - length) * value``, so we
minimise the loss by depth-first branch and bound.

*Canonical order.* Words are chosen longest first (phase ``l = L, L-1, ...``)
and each takes real tiles where it can, blanks only for its shortfall.  This
loses nothing: for a fixed set of words the blanks are best in the shortest
words holding their letters (swapping a blank in a longer word with a real
tile in a shorter one never lowers the score), and that is where real-first
consumption in longest-first order puts them.

*Branching.* In phase ``l``, take the remaining face ``x`` held by the fewest
fitting ``l``-words: either some ``l``-word uses a real ``x`` (one branch per such
word that fits the remaining tiles, with an unused first face and no banned
face), or no further ``l``-word holds a real ``x`` (``x`` is *banned* for the
phase).  A face no fitting ``l``-word holds is banned at once.  When every
remaining face is banned the search moves to the next phase.  The child that
takes the i-th word holding ``x`` may not use the earlier ones, so each set of
words is met once.  Anagrams with the same first face are one candidate.  Phase
starts (phase, remaining tiles, blanks, used first faces) are memoised with the
loss they were refuted below.

*Bound* (a lower bound on the loss still to come, so the search is exact):
every remaining tile lies in a word of at most ``l`` tiles, costing at least
``(L - l) * value``.  On top of that, for every number ``m`` of further
``l``-words, the other ``s = n - m*l`` tiles (all banned ones among them) lie in
shorter words and hold at least the value the ``m`` words cannot: the words
hold at most the sum of the ``m`` best fitting ``l``-words with distinct first
faces (their *caps*), and the short words at least the cheapest ``s`` tiles.
Short words cost ``l - s`` more per point when ``s < l`` (they have at most
``s`` tiles), one more otherwise, and for ``s = n mod l + l`` the best cut of
``s`` tiles into words (cheapest tiles in the shortest) is charged exactly.  The
least over ``m`` is the bound.  Near the leaves (a child holds fewer than four
more ``l``-words) the same bound is computed for all children of a node at once,
pairing every child with every fitting word, and hopeless children are skipped.
That pairing is screened first: each child is paired with the 64 most valuable
words only, every other word counting as one worth the best value left out (a
word's value in a child is at most its value) at a first face of its own, and
only the node's own bans counting as banned.  Those caps are at least the true
ones and the banned faces a subset of the true ones, so the screened bound is at
most the paired one (the bound holds for any subset of truly banned faces, the
rest being charged as free tiles); a child it condemns is hopeless, and only the
few survivors are paired with every word.

*Iterative deepening.* Rounds look for a loss below a budget that grows by a
quarter each round (from the root bound), so early rounds stay shallow; the first
round that finds a solution finishes the proof.

The search is in :mod:`.bagsearch`.  Its candidate words (:mod:`.bagwords`) come from the
index as the rack solver's do (the ``at_least`` and ``having`` families for the whole bag,
see :mod:`.rack`) intersected with ``by_lengths(1, L)``; their tilings come from the encoded
words.  The time limit counts from the call: it covers their preparation too.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..domain import Word
from ..errors import CryptocompError
from ..index.classes import DEFAULTS
from ..index.index import Index
from ..index.wordfilter import ALL_WORDS, WordFilter
from .bagsearch import BagSearch, load_kernels
from .tiles import Face, Rack, TileSet, Tiling, show_tiles, tileset

__all__ = ["BagWord", "BagResult", "InvalidBag", "best_bag", "bag_score", "check_bag", "Word",
           "Score", "MAX_TILES"]

log = logging.getLogger(__name__)

MAX_TILES = 31  # the longest word allowed: past twice a board's width (15), no play is real

Score = int


@dataclass(frozen=True)
class BagWord:
    """One word of a bag solution: its tiling, the faces its blanks play, its score."""

    word: Word
    tiles: Tiling
    blanks: tuple[Face, ...]
    value: int  # sum of the values of its real tiles
    score: Score  # len(tiles) * value
    anagrams: tuple[Word, ...] = ()  # other words with the same tiles and first tile

    def display(self) -> str:
        """The word in tiles (see :func:`cryptocomp.tiles.show_tiles`)."""
        return show_tiles(self.tiles, self.blanks)

    def to_json(self) -> dict:
        """The word as a JSON object."""
        return {"word": self.word, "tiles": list(self.tiles), "blanks": list(self.blanks),
                "shown": self.display(), "value": self.value, "score": self.score,
                "anagrams": list(self.anagrams)}


@dataclass
class BagResult:
    """The best bag found: its words, total, and whether it is proved optimal; or, when the
    time limit ran out before any solution was found (``found`` False, no words, total 0),
    only the proved upper bound."""

    words: list[BagWord]
    total: Score
    proved: bool
    upper_bound: Score  # no solution scores more than this (== total when proved)
    nodes: int
    seconds: float
    tiles: str = ""
    max_length: int = 15
    stats: dict = field(default_factory=dict)
    found: bool = True

    def to_json(self) -> dict:
        """The result as a JSON object (what ``bag --json`` prints); ``total`` is null when
        nothing was found."""
        return {"total": self.total if self.found else None, "proved_optimal": self.proved,
                "found": self.found, "upper_bound": self.upper_bound,
                "seconds": round(self.seconds, 2), "nodes": self.nodes, "tiles": self.tiles,
                "words": [w.to_json() for w in self.words]}

    def _check(self, ts: TileSet, index: Index) -> None:
        """Re-verify the answer from scratch (see :func:`check_bag`)."""
        assert self.upper_bound >= self.total and (self.proved <= self.found)
        if self.found:
            assert check_bag(self.words, ts, index, max_length=self.max_length) == self.total
        else:
            assert not self.words and self.total == 0


def bag_score(words: Sequence[BagWord], tiles: TileSet) -> Score:
    """The total score of ``words``: sum of length * real-tile value."""
    total = 0
    for w in words:
        real = list(w.tiles)
        for f in w.blanks:
            real.remove(f)
        total += len(w.tiles) * sum(tiles.values[f] for f in real)
    return total


class InvalidBag(ValueError):
    """A bag solution breaks a rule of the puzzle; the message names the first one broken."""


def check_bag(words: Sequence[BagWord], tiles: TileSet | str, index: Index, *,
              max_length: int = 15) -> Score:
    """Verify a bag solution against the rules and return its score; raise
    :class:`InvalidBag` naming the first rule it breaks."""
    ts = tileset(tiles)
    used: dict[Face, int] = {}
    blanks = 0
    firsts = set()

    def require(ok: bool, why: str) -> None:
        if not ok:
            raise InvalidBag(why)

    for w in words:
        require(w.word in index, f"{w.word!r} is not in the dictionary")
        require("".join(w.tiles) == ts.write(w.word) and w.tiles in ts.tilings(w.word),
                f"bad tiling {w}")
        require(len(w.tiles) <= max_length, f"{w.word!r} is longer than {max_length}")
        require(w.tiles[0] not in firsts, f"two words start with {w.tiles[0]!r}")
        firsts.add(w.tiles[0])
        real = list(w.tiles)
        for f in w.blanks:
            require(f in real, f"a blank of {w.word!r} plays {f!r}, which the word lacks")
            real.remove(f)
        for f in real:
            used[f] = used.get(f, 0) + 1
        blanks += len(w.blanks)
        require(w.value == sum(ts.values[f] for f in real)
                and w.score == len(w.tiles) * w.value, f"wrong value or score for {w.word!r}")
    require(blanks == ts.blanks, f"{blanks} blanks used, the bag has {ts.blanks}")
    require(used == {f: n for f, n in ts.counts.items() if n}, "the tiles used differ from the bag")
    return bag_score(words, ts)


def _bag_words(search: BagSearch) -> list[BagWord]:
    """The words of the search's best solution, with their blanks and values."""
    out = []
    for cand, short in search.best_path or []:
        blanks: list[Face] = []
        for i, n in enumerate(short.tolist()):
            blanks.extend([search.faces[i]] * n)
        real = list(cand.tiling)
        for f in blanks:
            real.remove(f)
        value = sum(search.ts.values[f] for f in real)
        out.append(BagWord(cand.words[0], cand.tiling, tuple(blanks), value,
                           len(cand.tiling) * value, tuple(cand.words[1:])))
    return out


def best_bag(tiles: TileSet | str, index: Index, *, max_length: int = 15,
             time_limit: float | None = 60.0, bag: Rack | None = None,
             progress: Callable[[str], None] | None = None,
             allowed: WordFilter = ALL_WORDS) -> BagResult | None:
    """The best whole-bag solution (the rules above) in words passing ``allowed`` (a filter
    naming no word classes takes ``DEFAULTS["rack"]``), proved optimal unless the time limit
    (wall-clock seconds; None for none) ran out first; None when the tiles cannot all be used
    (proved).  A limit that runs out before any solution gives ``found`` False and the bound."""
    ts = tileset(tiles)
    if not 1 <= max_length <= MAX_TILES:
        raise CryptocompError(f"the longest word (max_length) must be 1 to {MAX_TILES} tiles, "
                              f"not {max_length}")
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit >= 0):
        # nan compares false with everything: it would silently mean no limit
        raise CryptocompError(f"the time limit must be a finite number of seconds >= 0 "
                              f"(None for none), not {time_limit!r}")
    if bag is not None:  # a smaller bag: the same rules on a sub-multiset of the set
        ts = TileSet(ts.name, ts.language, ts.source, {f: bag.counts.get(f, 0) for f in ts.counts},
                     dict(ts.values), bag.blanks)
    load_kernels()  # before the time limit starts: compiling once is not search
    search = BagSearch(ts, index, max_length, time_limit, progress,
                       allowed.with_classes(DEFAULTS["rack"]))
    search.run()
    seconds = time.perf_counter() - search.started
    ceiling = max_length * search.total_value
    stats = {"candidates": search.n_candidates, "memo": len(search.memo),
             "rounds": search.rounds,
             "nodes_by_depth": {f"{d} words, phase {ell}": n
                                for (d, ell), n in sorted(search.visits.items())}}
    if search.best_path is None:
        if search.timed_out:  # what was refuted still bounds every solution
            return BagResult([], 0, False, int(ceiling - search.refuted), search.nodes,
                             seconds, ts.name, max_length, stats, found=False)
        return None
    words = _bag_words(search)
    total = bag_score(words, ts)
    assert total == ceiling - search.best, "bag scoring disagrees with the search"
    upper = total if not search.timed_out else int(ceiling - search.refuted)
    return BagResult(words, total, not search.timed_out, upper, search.nodes, seconds,
                     ts.name, max_length, stats)
