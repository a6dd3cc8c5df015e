"""Tile games: tile sets, the rack solver and the whole-bag optimiser.

>>> from cryptocomp import Index
>>> idx = Index.from_counts({"cat": 9, "act": 5, "tack": 3})
>>> [(p.word, p.score) for p in rack_words("TAC", "en", idx)]
[('cat', 5), ('act', 5)]
"""

from __future__ import annotations

from .bag import BagResult, best_bag
from .rack import Play, rack_words
from .tiles import Rack, TileSet, tileset

__all__ = ["rack_words", "Play", "best_bag", "BagResult", "tileset", "TileSet", "Rack"]
