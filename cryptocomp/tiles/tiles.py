"""Tile sets: the letters of a word game, how many of each, what each is worth.

A tile set maps each *face* to a count and a value, plus a number of blanks
(worth 0).  A face is usually one letter, but some languages have multi-letter
tiles (Hungarian CS, GY, SZ; Welsh CH, LL; Spanish CH, LL, RR ...): such a tile
is one tile that shows several letters.

Spelling rule (multi-letter tiles)
----------------------------------
A word is *spelled* by any tiling of its letters, left to right, into faces of
the set: ``"szasz"`` in Hungarian can be S+Z+A+S+Z, SZ+A+SZ, S+Z+A+SZ or
SZ+A+S+Z.  A word is playable from a rack when SOME tiling fits the rack (each
face used no more often than the rack has it, the shortfall covered by blanks),
and it scores by the best-scoring such tiling.  A blank plays any one face of
the set, a multi-letter face included.  Words with a letter that no face can
spell are never playable.

Data format (``cryptocomp/data/tiles.json``, tiles format 1)
------------------------------------------------------------
A JSON object ``{"format": 1, "note": ..., "sets": {CODE: SET, ...}}`` where
each SET is ``{"language": str, "source": str, "blanks": int,
"tiles": {face: [count, value], ...}}`` (faces lower case, NFC) and may list
``"changes"`` made to the source.  :func:`load_tilesets` checks all of it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Iterable, Mapping, Sequence

from ..errors import TileError
from ..index.alphabet import normalize

__all__ = ["TileSet", "Rack", "TileError", "Face", "Tiling", "BLANK", "TILES_FORMAT",
           "load_tilesets", "tileset", "tileset_names", "make_tileset", "show_tiles"]

Face = str  # what a tile shows: "a", or "cs" for a multi-letter tile
Tiling = tuple[Face, ...]  # a word cut into faces: ("cs", "ó", "k")

BLANK = "?"
TILES_FORMAT = 1
_MAX_TILINGS = 4096  # a word with more tilings than this is refused (none comes close)


@dataclass(frozen=True)
class Rack:
    """A multiset of faces plus a number of blanks."""

    counts: Mapping[Face, int]
    blanks: int = 0

    @property
    def size(self) -> int:
        return sum(self.counts.values()) + self.blanks

    def __str__(self) -> str:
        faces = "".join(f if len(f) == 1 else f"[{f}]"
                        for f, n in sorted(self.counts.items()) for _ in range(n))
        return faces + BLANK * self.blanks


@dataclass(frozen=True, eq=False)
class TileSet:
    """A game's tiles: ``counts[face]``, ``values[face]`` and ``blanks``; immutable."""

    name: str
    language: str
    source: str
    counts: Mapping[Face, int]
    values: Mapping[Face, int]
    blanks: int
    _by_first: Mapping[str, tuple[Face, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_first: dict[str, list[Face]] = {}
        for face in self.counts:
            by_first.setdefault(face[0], []).append(face)
        object.__setattr__(self, "_by_first", {c: tuple(sorted(fs, key=len, reverse=True))
                                               for c, fs in by_first.items()})
        self._check()

    # -- facts ---------------------------------------------------------------------------

    @property
    def faces(self) -> list[Face]:
        """The faces, in the set's own order."""
        return list(self.counts)

    @property
    def letters(self) -> frozenset[str]:
        """Every character some face shows."""
        return frozenset("".join(self.counts))

    @property
    def multi_letter(self) -> bool:
        return any(len(f) > 1 for f in self.counts)

    @property
    def total(self) -> int:
        """Tiles in the bag, blanks included."""
        return sum(self.counts.values()) + self.blanks

    def bag(self) -> Rack:
        """The whole bag as a rack."""
        return Rack(dict(self.counts), self.blanks)

    # -- spelling ------------------------------------------------------------------------

    def tilings(self, word: str) -> list[Tiling]:
        """Every way to cut ``word`` into faces of the set (none when it cannot be spelled)."""
        return list(_tilings(self, word))

    def spellable(self, word: str) -> bool:
        """Whether some tiling of ``word`` exists."""
        return bool(_tilings(self, word))

    # -- racks ---------------------------------------------------------------------------

    def parse_rack(self, text: str | Iterable[Face]) -> Rack:
        """A rack from text or from a sequence of faces; a :class:`TileError` names any bad tile.

        In text, ``?`` is a blank and each character is a tile, except that ``[cs]`` is one
        multi-letter tile; tiles may also be separated by spaces or commas, a token that is
        a face being one tile (``"cs a s ?"``)."""
        if isinstance(text, str):
            faces = [f for token in re.split(r"[\s,]+", normalize(text.strip())) if token
                     for f in ([token] if token in self.counts else _split_rack(token))]
        else:
            faces = [normalize(f) for f in text]
        if not faces:
            raise TileError("empty rack: give at least one tile (? is a blank)")
        counts: dict[Face, int] = {}
        blanks = 0
        for face in faces:
            if face == BLANK:
                blanks += 1
            elif face in self.counts:
                counts[face] = counts.get(face, 0) + 1
            else:
                shown = " ".join(f.upper() for f in self.counts)
                raise TileError(f"{face.upper()!r} is not a tile of the {self.name} set "
                                f"(tiles: {shown}, ? for a blank)")
        if blanks > self.blanks:
            has = f"only {self.blanks}" if self.blanks else "none"
            raise TileError(f"the rack has {blanks} blank{'s' if blanks > 1 else ''} but the "
                            f"{self.name} set has {has}")
        for face, n in counts.items():
            if n > self.counts[face]:
                raise TileError(f"the rack has {n} x {face.upper()} but the {self.name} set has "
                                f"only {self.counts[face]}")
        return Rack(counts, blanks)

    # -- invariants ----------------------------------------------------------------------

    def _check(self) -> None:
        """Faces are non-empty NFC lower case without '?' or spaces; counts and values >= 0."""
        if set(self.counts) != set(self.values):
            raise TileError(f"tile set {self.name}: counts and values name different faces")
        if not self.counts:
            raise TileError(f"tile set {self.name}: no tiles")
        for face in self.counts:
            if not face or face != normalize(face) or BLANK in face or re.search(r"\s", face):
                raise TileError(f"tile set {self.name}: bad face {face!r}")
            for what, table in (("count", self.counts), ("value", self.values)):
                v = table[face]
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise TileError(f"tile set {self.name}: bad {what} {v!r} for {face!r}")
        if not isinstance(self.blanks, int) or self.blanks < 0:
            raise TileError(f"tile set {self.name}: bad blank count {self.blanks!r}")


@lru_cache(maxsize=4096)
def _tilings_cached(ts: TileSet, word: str) -> tuple[Tiling, ...]:
    by_first = ts._by_first
    n = len(word)
    # tails[i]: the tilings of word[i:]; built right to left
    tails: list[tuple[Tiling, ...]] = [()] * n + [((),)]
    for i in range(n - 1, -1, -1):
        out: list[Tiling] = []
        for face in by_first.get(word[i], ()):
            if word.startswith(face, i):
                out.extend((face,) + t for t in tails[i + len(face)])
        if len(out) > _MAX_TILINGS:
            raise TileError(f"{word!r} has more than {_MAX_TILINGS} tilings in the {ts.name} set")
        tails[i] = tuple(out)
    return tails[0]


def _tilings(ts: TileSet, word: str) -> tuple[Tiling, ...]:
    if not ts.multi_letter:  # one tiling at most: the letters themselves
        return (tuple(word),) if all(c in ts.counts for c in word) else ()
    return _tilings_cached(ts, word)


def _split_rack(text: str) -> list[Face]:
    """Faces of one rack token: a character a tile, ``[xy]`` one multi-letter tile."""
    faces: list[Face] = []
    i = 0
    while i < len(text):
        if text[i] == "[":
            j = text.find("]", i)
            if j < 0:
                raise TileError(f"unclosed [ in rack {text!r}")
            if j == i + 1:
                raise TileError(f"empty [] in rack {text!r}")
            faces.append(text[i + 1:j])
            i = j + 1
        else:
            faces.append(text[i])
            i += 1
    return faces


# -- the shipped sets ------------------------------------------------------------------------

def _parse_sets(data: object, origin: str) -> dict[str, TileSet]:
    def bad(why: str) -> TileError:
        return TileError(f"{origin}: {why}")

    if not isinstance(data, dict) or data.get("format") != TILES_FORMAT:
        raise bad(f"not a tiles file of format {TILES_FORMAT}")
    sets = data.get("sets")
    if not isinstance(sets, dict) or not sets:
        raise bad("no 'sets'")
    out: dict[str, TileSet] = {}
    for code, entry in sets.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("tiles"), dict):
            raise bad(f"set {code!r} has no 'tiles'")
        if not isinstance(entry.get("source"), str) or not entry["source"]:
            raise bad(f"set {code!r} names no source")
        counts, values = {}, {}
        for face, cv in entry["tiles"].items():
            if not (isinstance(cv, list) and len(cv) == 2):
                raise bad(f"set {code!r}: tile {face!r} is not [count, value]")
            counts[unicodedata.normalize("NFC", face)] = cv[0]
            values[unicodedata.normalize("NFC", face)] = cv[1]
        out[code] = TileSet(code, str(entry.get("language", code)), entry["source"], counts,
                            values, entry.get("blanks", 0))
    return out


@lru_cache(maxsize=1)
def load_tilesets() -> dict[str, TileSet]:
    """The tile sets shipped in ``cryptocomp/data/tiles.json``, by language code."""
    text = resources.files("cryptocomp").joinpath("data/tiles.json").read_text("utf-8")
    return _parse_sets(json.loads(text), "cryptocomp/data/tiles.json")


def tileset_names() -> list[str]:
    """Codes of the shipped tile sets, sorted."""
    return sorted(load_tilesets())


def tileset(name: str | TileSet) -> TileSet:
    """The shipped tile set called ``name`` (``"en"``, ``"hu"`` ...); a TileSet passes through."""
    if isinstance(name, TileSet):
        return name
    sets = load_tilesets()
    key = name.strip().lower()
    if key not in sets:
        raise TileError(f"unknown tile set {name!r}: use one of {', '.join(sorted(sets))}")
    return sets[key]


def make_tileset(tiles: Mapping[Face, tuple[int, int]], blanks: int = 0, *,
                 name: str = "custom") -> TileSet:
    """A tile set from ``{face: (count, value)}`` (faces normalised), e.g. for tests."""
    counts = {normalize(f): cv[0] for f, cv in tiles.items()}
    values = {normalize(f): cv[1] for f, cv in tiles.items()}
    return TileSet(name, name, "given", counts, values, blanks)



def show_tiles(tiling: Sequence[Face], blanks: Sequence[Face]) -> str:
    """A tiling for people: real tiles upper case, blank-played ones lower case (on the last
    occurrences of their faces), multi-letter tiles in brackets: ``[SZ]AKá[CS]``."""
    left: dict[Face, int] = {}
    for face in blanks:
        left[face] = left.get(face, 0) + 1
    out = []
    for face in reversed(tiling):
        if left.get(face):
            left[face] -= 1
            shown = face.lower()
        else:
            shown = face.upper()
        out.append(f"[{shown}]" if len(face) > 1 else shown)
    return "".join(reversed(out))
