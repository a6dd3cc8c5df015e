"""Bitmap families: many roaring bitmaps under keys, kept as one blob and decoded on first use.

An index has five families (by length, by letter structure, by position and
letter, by letter, by letter and multiplicity).  The pattern family alone holds
about 90,000 bitmaps for Russian: decoding all of them when a file loads would
cost more than a whole compose query, and most processes read a handful.  So a
family keeps its bitmaps as their portable serialisations (pyroaring's
``serialize``) back to back in one ``bytes`` and decodes a bitmap the first time
its key is asked for.

Stored state of a family (plain builtins, so the index file's unpickler needs
no class at all)::

    {"keys": [key, ...],                  # one per bitmap, in blob order
     "cards": bytes,                      # little-endian uint32: each bitmap's cardinality
     "ends": bytes,                       # little-endian uint64: each bitmap's end offset in blob
     "blob": bytes}                       # the serialisations, back to back

:meth:`BitmapFamily.from_state` checks the structure (lengths agree, offsets
ascend inside the blob, keys of the family's type); the cardinalities let the
loader check sums without decoding anything; each bitmap is checked when it is
decoded (pyroaring validates the serialisation, then its cardinality must equal
the stored one and its largest id must be below the word count).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from pyroaring import FrozenBitMap

__all__ = ["BitmapFamily", "Corrupt", "KeyCheck"]

Corrupt = Callable[[str], Exception]  # makes the error for a damaged family ("why" -> exception)
KeyCheck = Callable[[object], bool]  # is this a valid key of the family?

_EAGER_KEYS = 4096  # families with at most this many keys check them on load


def _default_corrupt(why: str) -> Exception:
    return ValueError(why)


class BitmapFamily(Mapping[Hashable, FrozenBitMap]):
    """Bitmaps under keys, decoded on first use (see the module docstring)."""

    __slots__ = ("name", "_keys", "_slot", "_cards", "_ends", "_blob", "_cache", "_limit",
                 "_corrupt", "_key_ok")

    def __init__(self, name: str, keys: Sequence[Hashable], cards: np.ndarray, ends: np.ndarray,
                 blob: bytes, limit: int, corrupt: Corrupt = _default_corrupt,
                 decoded: Mapping[Hashable, FrozenBitMap] | None = None):
        self.name = name
        self._keys = keys
        self._slot: dict[Hashable, int] | None = None
        self._cards = cards
        self._ends = ends
        self._blob = blob
        self._limit = limit  # every id is below it (the word count)
        self._corrupt = corrupt
        self._key_ok: KeyCheck | None = None  # checks the keys when the lookup table is built
        self._cache: dict[Hashable, FrozenBitMap] = dict(decoded or {})

    # -- building and storing --------------------------------------------------------------

    @classmethod
    def from_bitmaps(cls, name: str, bitmaps: Mapping[Hashable, FrozenBitMap],
                     limit: int) -> BitmapFamily:
        """A family of freshly built bitmaps (already decoded: nothing to check; serialised
        only if it is stored)."""
        keys = list(bitmaps)
        cards = np.fromiter((len(bitmaps[k]) for k in keys), dtype=np.uint32, count=len(keys))
        return cls(name, keys, cards, np.zeros(0, dtype=np.uint64), b"", limit,
                   decoded=bitmaps)

    def to_state(self) -> dict:
        """The family as plain builtins (see the module docstring)."""
        if len(self._ends) != len(self._keys):  # built here: serialise now
            blobs = [self[k].serialize() for k in self._keys]
            self._ends = np.cumsum(np.fromiter(map(len, blobs), dtype=np.uint64,
                                               count=len(blobs)), dtype=np.uint64)
            self._blob = b"".join(blobs)
        return {"keys": list(self._keys), "cards": self._cards.astype("<u4").tobytes(),
                "ends": self._ends.astype("<u8").tobytes(), "blob": self._blob}

    @classmethod
    def from_state(cls, name: str, state: object, limit: int, key_ok: KeyCheck,
                   corrupt: Corrupt = _default_corrupt) -> BitmapFamily:
        """A family read from a file, after checking its structure (not its bitmaps)."""
        if not isinstance(state, dict) or set(state) != {"keys", "cards", "ends", "blob"}:
            raise corrupt(f"the {name} family is malformed")
        keys, cards, ends, blob = state["keys"], state["cards"], state["ends"], state["blob"]
        if not (isinstance(keys, list) and isinstance(cards, bytes) and isinstance(ends, bytes)
                and isinstance(blob, bytes)):
            raise corrupt(f"the {name} family is malformed")
        n = len(keys)
        if len(cards) != 4 * n or len(ends) != 8 * n:
            raise corrupt(f"the {name} family's tables disagree with its {n} keys")
        card = np.frombuffer(cards, dtype="<u4")
        end = np.frombuffer(ends, dtype="<u8")
        if n and (end[-1] != len(blob) or (np.diff(end.astype(np.int64), prepend=0) <= 0).any()):
            raise corrupt(f"the {name} family's offsets are out of order or past its data")
        if not n and blob:
            raise corrupt(f"the {name} family has data but no keys")
        if (card == 0).any() or (card > limit).any():
            raise corrupt(f"the {name} family has an empty or oversized bitmap")
        family = cls(name, keys, card, end, blob, limit, corrupt)
        family._key_ok = key_ok
        if n <= _EAGER_KEYS:
            family._table()  # small families: check the keys now; the pattern family's (tens
            # of thousands) are checked when its lookup table is first needed
        return family

    # -- reading ----------------------------------------------------------------------------

    def _table(self) -> dict[Hashable, int]:
        if self._slot is None:
            keys = self._keys
            if self._key_ok is not None and not all(map(self._key_ok, keys)):
                raise self._corrupt(f"the {self.name} family has a key of the wrong type")
            try:
                slot = {k: i for i, k in enumerate(keys)}
            except TypeError:  # an unhashable key (a list) in a crafted file
                raise self._corrupt(f"the {self.name} family has a key of the wrong type") \
                    from None
            if len(slot) != len(keys):
                raise self._corrupt(f"the {self.name} family has a duplicate key")
            self._slot = slot
        return self._slot

    def _decode(self, i: int) -> FrozenBitMap:
        start = int(self._ends[i - 1]) if i else 0
        try:
            bm = FrozenBitMap.deserialize(self._blob[start:int(self._ends[i])])
        except ValueError:
            raise self._corrupt(f"a bitmap of the {self.name} family is damaged") from None
        if len(bm) != int(self._cards[i]) or bm.max() >= self._limit:
            raise self._corrupt(f"a bitmap of the {self.name} family holds an id past the "
                                f"word list or disagrees with its cardinality")
        return bm

    def __getitem__(self, key: Hashable) -> FrozenBitMap:
        bm = self._cache.get(key)
        if bm is None:
            i = self._table().get(key)
            if i is None:
                raise KeyError(key)
            bm = self._cache[key] = self._decode(i)
        return bm

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The bitmap of ``key``, or ``default`` when the family has no such key."""
        bm = self._cache.get(key)
        if bm is not None:
            return bm
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return key in self._cache or key in self._table()

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def cardinality(self, key: Hashable) -> int:
        """How many ids the bitmap of ``key`` holds (0 when absent), without decoding it."""
        i = self._table().get(key)
        return 0 if i is None else int(self._cards[i])

    def total(self) -> int:
        """The sum of the cardinalities of all bitmaps (checked without decoding)."""
        return int(self._cards.sum(dtype=np.uint64))

    def keys_checked(self) -> None:
        """Raise the family's corrupt error unless every key is valid and unique."""
        self._table()
