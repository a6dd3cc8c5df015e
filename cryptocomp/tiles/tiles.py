"""Tile sets: the letters of a word game, how many of each, what each is worth.

A tile set maps each *face* to a count and a value, plus a number of blanks
(worth 0).  A face is usually one letter, but some languages have multi-letter
tiles (Hungarian CS, GY, SZ; Welsh CH, LL; Spanish CH, LL, RR ...): such a tile
is one tile that shows several letters.

Spelling rules (each set's own, see :class:`Spelling`)
------------------------------------------------------
A word is first *written in the set's letters*: letters with a face of their
own stay; letters the set maps (German ß as SS, French œ as OE, Greek final ς as
Σ) are replaced; with ``fold`` (the sets without tiles for accented letters, and
the accents a set has no tile for: French été as ETE, Spanish canción as
CANCION, but Spanish Ñ and German Ä stay, having tiles) a letter without a face
is written as its base letter, its marks dropped.  A word with a letter that is
still not in the set is never playable.

The written word is then *tiled*: cut left to right into faces of the set.
``"szasz"`` in Hungarian can be S+Z+A+S+Z, SZ+A+SZ, S+Z+A+SZ or SZ+A+S+Z; but a
face listed as ``tile_only`` (Spanish CH, LL, RR) must be played as that tile
wherever its letters occur, never as single letters.  A word is playable from a
rack when SOME tiling fits the rack (each face used no more often than the rack
has it, the shortfall covered by blanks), and it scores by the best-scoring
such tiling.  A blank plays any one face of the set, a multi-letter face
included.

Data format (``cryptocomp/data/tiles.json``, tiles format 2)
------------------------------------------------------------
A JSON object ``{"format": 2, "note": ..., "sets": {CODE: SET, ...}}`` where
each SET is ``{"language": str, "source": str, "blanks": int,
"tiles": {face: [count, value], ...}, "spelling": SPELLING}`` (faces lower case,
NFC) and may list ``"changes"`` made to the source.  SPELLING is
``{"fold": bool, "map": {letter: letters}, "tile_only": [face, ...], "rule":
str}``: ``rule`` states the set's rule in words (README shows it).  Format 1 had
no ``spelling``.  :func:`load_tilesets` checks all of it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial

from ..errors import TileError
from ..index.alphabet import normalize, spell, strip_marks
from ..shipped import shipped

__all__ = ["TileSet", "Rack", "Spelling", "TileError", "Face", "Tiling", "BLANK", "TILES_FORMAT",
           "EXACT", "load_tilesets", "tileset", "tileset_names", "make_tileset", "show_tiles"]

Face = str  # what a tile shows: "a", or "cs" for a multi-letter tile
Tiling = tuple[Face, ...]  # a word cut into faces: ("cs", "ó", "k")

BLANK = "?"
TILES_FORMAT = 2  # 2: each set states its spelling rules (format 1 had none)
_MAX_TILINGS = 4096  # a word with more tilings than this is refused (none comes close)


@dataclass(frozen=True)
class Spelling:
    """How a set writes words in its tiles (see the module docstring)."""

    fold: bool = False  # a letter without a face is written as its base letter (marks dropped)
    map: Mapping[str, str] = field(default_factory=dict)  # letter -> letters (ß -> ss)
    tile_only: frozenset[Face] = frozenset()  # faces whose letters are never single tiles
    rule: str = "every letter needs a tile of its own"


EXACT = Spelling()  # no folding, no mapping, any tiling


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
    spelling: Spelling = EXACT
    _by_first: Mapping[str, tuple[Face, ...]] = field(init=False, repr=False, compare=False)
    _written: dict[str, str | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_first: dict[str, list[Face]] = {}
        for face in self.counts:
            by_first.setdefault(face[0], []).append(face)
        object.__setattr__(self, "_by_first", {c: tuple(sorted(fs, key=len, reverse=True))
                                               for c, fs in by_first.items()})
        object.__setattr__(self, "_written", {})
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

    def letter(self, ch: str) -> str | None:
        """How one letter is written in the set's letters (``"é"`` -> ``"e"`` when folding,
        ``"ß"`` -> ``"ss"``), or None when it cannot be."""
        known = self._written.get(ch, ...)
        if known is ...:
            known = self._written[ch] = _write_letter(self, ch)
        return known

    def write(self, word: str) -> str | None:
        """``word`` in the set's letters (see :meth:`letter`), or None when some letter cannot
        be written: the string that tilings cut into faces."""
        out = []
        for ch in word:
            written = self.letter(ch)
            if written is None:
                return None
            out.append(written)
        return "".join(out)

    def tilings(self, word: str) -> list[Tiling]:
        """Every way to cut ``word`` (written in the set's letters) into faces of the set, by
        the set's rules (none when it cannot be spelled)."""
        return list(_tilings(self, word))

    def spellable(self, word: str) -> bool:
        """Whether some tiling of ``word`` exists."""
        return bool(_tilings(self, word))

    # -- racks ---------------------------------------------------------------------------

    def parse_rack(self, text: str | Iterable[Face]) -> Rack:
        """A rack from text or from a sequence of faces; a :class:`TileError` names any bad tile.

        In text, ``?`` is a blank and each character is a tile, except that ``[cs]`` is one
        multi-letter tile, and so are letters that are no tile of their own with the rest
        of their face (``l·l``, ``qu`` in Catalan); tiles may also be separated by spaces or
        commas, a token that is a face being one tile (``"cs a s ?"``)."""
        if isinstance(text, str):
            tokens = [t for t in re.split(r"[\s,]+", spell(text.strip())) if t]
            faces = [f for token in tokens for f in
                     ([token] if token in self.counts else _split_rack(token, self.counts))]
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
        sp = self.spelling
        if not isinstance(sp.fold, bool) or not isinstance(sp.rule, str) or not sp.rule:
            raise TileError(f"tile set {self.name}: bad spelling rule")
        letters = self.letters
        for ch, to in sp.map.items():
            if len(ch) != 1 or ch != normalize(ch) or not to or not set(to) <= letters:
                raise TileError(f"tile set {self.name}: bad spelling map {ch!r} -> {to!r}")
        for face in sp.tile_only:
            if face not in self.counts or len(face) < 2:
                raise TileError(f"tile set {self.name}: tile_only {face!r} is not a "
                                f"multi-letter face")


def _write_letter(ts: TileSet, ch: str) -> str | None:
    sp = ts.spelling
    if ch in sp.map:
        return sp.map[ch]
    if ch in ts.letters:
        return ch
    if not sp.fold:
        return None
    # compatibility decomposition, marks dropped: é -> e, ŀ -> l·, ĳ -> ij, ǆ -> dž -> dz
    base = unicodedata.normalize("NFC", strip_marks(ch)).lower()
    if not base or base == ch:
        return None
    parts: list[str] = []
    for c in base:  # a letter that decomposes to itself cannot be written
        w = None if c == ch else _write_letter(ts, c)
        if w is None:
            return None
        parts.append(w)
    return "".join(parts)


@lru_cache(maxsize=4096)
def _tilings_cached(ts: TileSet, word: str) -> tuple[Tiling, ...]:
    by_first = ts._by_first
    n = len(word)
    # forced[i]: the tile-only faces whose letters start at i: a face must start there and
    # be one of them, and no face may run across i
    forced: list[tuple[Face, ...]] = [tuple(f for f in ts.spelling.tile_only
                                            if word.startswith(f, i)) for i in range(n)]
    # tails[i]: the tilings of word[i:]; built right to left
    tails: list[tuple[Tiling, ...]] = [()] * n + [((),)]
    for i in range(n - 1, -1, -1):
        out: list[Tiling] = []
        for face in forced[i] or by_first.get(word[i], ()):
            if word.startswith(face, i) and \
                    not any(forced[j] for j in range(i + 1, i + len(face))):
                out.extend((face,) + t for t in tails[i + len(face)])
        if len(out) > _MAX_TILINGS:
            raise TileError(f"{word!r} has more than {_MAX_TILINGS} tilings in the {ts.name} set")
        tails[i] = tuple(out)
    return tails[0]


def _tilings(ts: TileSet, word: str) -> tuple[Tiling, ...]:
    written = ts.write(word)
    if written is None:
        return ()
    if not ts.multi_letter:  # one tiling at most: the letters themselves
        return (tuple(written),)
    return _tilings_cached(ts, written)


def _split_rack(text: str, counts: Mapping[Face, int]) -> list[Face]:
    """Faces of one rack token: a character a tile, ``[xy]`` one multi-letter tile, and a
    multi-letter face whose letters are not all tiles of their own one tile (Catalan
    ``l·l``, ``qu``, Hungarian ``gy``: there is no ·, Q or Y tile)."""
    whole = sorted((f for f in counts if len(f) > 1 and any(c not in counts for c in f)),
                   key=len, reverse=True)
    faces: list[Face] = []
    i = 0
    while i < len(text):
        face = next((f for f in whole if text.startswith(f, i)), None)
        if face is not None:
            faces.append(face)
            i += len(face)
        elif text[i] == "[":
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
                            values, entry.get("blanks", 0), _parse_spelling(entry, code, bad))
    return out


def _parse_spelling(entry: dict, code: str, bad: Callable[[str], TileError]) -> Spelling:
    sp = entry.get("spelling")
    if not isinstance(sp, dict) or set(sp) != {"fold", "map", "tile_only", "rule"}:
        raise bad(f"set {code!r}: 'spelling' must hold exactly fold, map, tile_only and rule")
    fold, mapping, tile_only, rule = sp["fold"], sp["map"], sp["tile_only"], sp["rule"]
    if not isinstance(fold, bool) or not isinstance(rule, str) or not rule.strip():
        raise bad(f"set {code!r}: spelling 'fold' must be true or false and 'rule' a text")
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                for k, v in mapping.items()):
        raise bad(f"set {code!r}: spelling 'map' must map letters to letters")
    if not isinstance(tile_only, list) or not all(isinstance(f, str) for f in tile_only):
        raise bad(f"set {code!r}: spelling 'tile_only' must be a list of faces")
    nfc = partial(unicodedata.normalize, "NFC")
    return Spelling(fold, {nfc(k): nfc(v) for k, v in mapping.items()},
                    frozenset(map(nfc, tile_only)), rule)


@lru_cache(maxsize=1)
def load_tilesets() -> dict[str, TileSet]:
    """The tile sets shipped in ``cryptocomp/data/tiles.json``, by language code."""
    text = shipped("tiles.json").read_text("utf-8")
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
                 name: str = "custom", spelling: Spelling = EXACT) -> TileSet:
    """A tile set from ``{face: (count, value)}`` (faces normalised), e.g. for tests."""
    counts = {normalize(f): cv[0] for f, cv in tiles.items()}
    values = {normalize(f): cv[1] for f, cv in tiles.items()}
    return TileSet(name, name, "given", counts, values, blanks, spelling)


def show_tiles(tiling: Sequence[Face], blanks: Sequence[Face]) -> str:
    """A tiling for people: real tiles upper case, blank-played ones lower case (on the last
    occurrences of their faces), multi-letter tiles in brackets: ``[SZ]AKá[CS]``."""
    text = "".join(tiling)
    if len(text) == len(tiling):  # one character a face: string methods do it (--json of
        shown = text.upper()      # 20,000 plays called this 20,000 times)
        if len(shown) == len(text):  # (upper case may be longer: ß is SS)
            if not blanks:
                return shown
            chars = list(shown)
            end: dict[Face, int] = {}
            for face in blanks:  # each on the last occurrence of its face not yet taken
                k = text.rfind(face, 0, end.get(face, len(text)))
                if k >= 0:
                    chars[k] = face.lower()
                    end[face] = k
            return "".join(chars)
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
