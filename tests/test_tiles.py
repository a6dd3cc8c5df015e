"""Tile sets: the shipped data, spelling words in tiles (checked against a brute-force
oracle), and parsing racks."""

from __future__ import annotations

import itertools
import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.index.alphabet import script_of
from cryptocomp.tiles.tiles import (
    TileError,
    _parse_sets,
    load_tilesets,
    make_tileset,
    tileset,
    tileset_names,
)


def test_shipped_sets_are_valid_and_sourced():
    sets = load_tilesets()
    assert {"en", "fr", "de", "pl", "ru", "hu", "es"} <= set(sets)
    for code, ts in sets.items():
        ts._check()
        assert ts.source and "Xanado" in ts.source, code
        assert ts.blanks >= 1 and ts.total >= 90, code
        scripts = {script_of(c) for c in ts.letters if c.isalpha()}
        assert len(scripts) == 1, (code, scripts)  # one alphabet a set


def test_english_set_is_the_standard_one():
    en = tileset("en")
    assert en.total == 100 and en.blanks == 2
    assert sum(en.counts[f] * en.values[f] for f in en.counts) == 187
    assert (en.counts["e"], en.values["e"], en.values["q"], en.values["z"]) == (12, 1, 10, 10)


def test_russian_yo_is_cyrillic():
    ru = tileset("ru")
    assert "ё" in ru.counts and "ë" not in ru.counts
    assert unicodedata.name("ё").startswith("CYRILLIC")


def test_hungarian_multi_letter_tiles():
    hu = tileset("hu")
    assert {"cs", "gy", "sz", "zs", "ny", "ly", "ty"} <= set(hu.counts)
    assert hu.multi_letter and not tileset("en").multi_letter
    assert sorted(hu.tilings("szó")) == [("s", "z", "ó"), ("sz", "ó")]
    assert hu.tilings("gyógy") == [("gy", "ó", "gy")]  # no G+Y: Y is no tile of its own
    assert hu.tilings("xyz") == [] and not hu.spellable("xyz")


def test_unknown_set():
    with pytest.raises(TileError, match="unknown tile set 'xx'"):
        tileset("xx")
    assert "en" in tileset_names()


def _tilings_oracle(ts, word):
    """Every composition of len(word) into parts, kept when each part is a face."""
    n = len(word)
    out = []
    for cuts in itertools.product([False, True], repeat=max(0, n - 1)):
        parts, start = [], 0
        for i, cut in enumerate(cuts, 1):
            if cut:
                parts.append(word[start:i])
                start = i
        parts.append(word[start:])
        if all(p in ts.counts for p in parts):
            out.append(tuple(parts))
    return sorted(out)


SMALL = make_tileset({"a": (3, 1), "b": (2, 3), "ab": (1, 5), "ba": (1, 4), "bab": (1, 9),
                      "c": (1, 2)}, 1, name="small")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abc", min_size=1, max_size=9))
def test_tilings_match_oracle(word):
    assert sorted(SMALL.tilings(word)) == _tilings_oracle(SMALL, word)
    assert sorted(tileset("hu").tilings(word)) == _tilings_oracle(tileset("hu"), word)


def test_parse_rack_forms():
    en, hu = tileset("en"), tileset("hu")
    r = en.parse_rack("Retina?S")
    assert dict(r.counts) == {"r": 1, "e": 1, "t": 1, "i": 1, "n": 1, "a": 1, "s": 1}
    assert r.blanks == 1 and r.size == 8
    assert hu.parse_rack("[cs]as?") == hu.parse_rack("cs a s ?") == hu.parse_rack("cs,a,s,?")
    assert dict(hu.parse_rack("csas").counts) == {"c": 1, "s": 2, "a": 1}
    assert en.parse_rack(["q", "u", "?"]).blanks == 1


@pytest.mark.parametrize("rack, message", [
    ("", "empty rack"),
    ("   ", "empty rack"),
    ("ab1", "'1' is not a tile of the en set"),
    ("abé", "'É' is not a tile of the en set"),
    ("???", "3 blanks but the en set has only 2"),
    ("zz", "2 x Z but the en set has only 1"),
    ("[ab", "unclosed ["),
    ("a[]", "empty []"),
])
def test_bad_racks(rack, message):
    with pytest.raises(TileError, match=message.replace("[", r"\[")) as info:
        tileset("en").parse_rack(rack)
    assert "\n" not in str(info.value)


SPELL = {"fold": True, "map": {}, "tile_only": [], "rule": "accents are ignored"}


def _one_set(**entry) -> dict:
    return {"format": 2, "sets": {"x": {"source": "s", "tiles": {"a": [1, 1], "ch": [1, 5],
                                                                "c": [1, 1], "h": [1, 1]},
                                        "spelling": SPELL, **entry}}}


@pytest.mark.parametrize("data, message", [
    ({"format": 1, "sets": {}}, "format 2"),  # format 1 had no spelling rules
    ({"format": 2, "sets": {}}, "no 'sets'"),
    ({"format": 2, "sets": {"x": {"tiles": {"a": [1, 1]}}}}, "names no source"),
    (_one_set(tiles={"a": [-1, 1]}), "bad count"),
    (_one_set(tiles={"A": [1, 1]}), "bad face"),
    (_one_set(spelling=None), "'spelling' must hold"),
    (_one_set(spelling={**SPELL, "extra": 1}), "'spelling' must hold"),
    (_one_set(spelling={**SPELL, "fold": "yes"}), "'fold' must be true or false"),
    (_one_set(spelling={**SPELL, "rule": ""}), "'rule' a text"),
    (_one_set(spelling={**SPELL, "map": {"ß": 5}}), "'map' must map letters"),
    (_one_set(spelling={**SPELL, "map": {"ß": "ss"}}), "bad spelling map 'ß' -> 'ss'"),
    (_one_set(spelling={**SPELL, "map": {"æ": "ae"}}), "bad spelling map"),  # no e tile
    (_one_set(spelling={**SPELL, "tile_only": "ch"}), "'tile_only' must be a list"),
    (_one_set(spelling={**SPELL, "tile_only": ["a"]}), "tile_only 'a' is not a multi-letter"),
    (_one_set(spelling={**SPELL, "tile_only": ["ll"]}), "tile_only 'll' is not a multi-letter"),
])
def test_tiles_file_is_checked(data, message):
    with pytest.raises(TileError, match=message) as info:
        _parse_sets(data, "t.json")
    assert "\n" not in str(info.value)


def test_a_checked_set_reads():
    ts = _parse_sets(_one_set(spelling={**SPELL, "tile_only": ["ch"]}), "t.json")["x"]
    assert ts.tilings("chácha") == [("ch", "a", "ch", "a")] and ts.spelling.fold


def test_data_file_names_its_sources():
    from importlib import resources

    data = json.loads(resources.files("cryptocomp").joinpath("data/tiles.json").read_text("utf-8"))
    assert data["format"] == 2 and "Xanado" in data["note"]
    assert all(entry["source"] for entry in data["sets"].values())
