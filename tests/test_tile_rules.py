"""Each tile set's own spelling rules (issue 12, item 12): accents folded where the set has no
tile for them (French été is ETE), letters mapped (German ß is SS), digraphs played only as
their tile where the rules say so (Spanish CH, LL, RR). Checked against plain scans: an
independent writer, every cut of a word into faces, every part of the rack.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cryptocomp import Index
from cryptocomp.tiles.bag import best_bag, check_bag
from cryptocomp.tiles.rack import rack_words
from cryptocomp.tiles.tiles import Spelling, load_tilesets, make_tileset, tileset


def _write(ts, word: str) -> str | None:
    """The oracle's writer: mapped letters, letters a face shows, else (folding) the first
    character of the canonical decomposition when every other one is a combining mark."""
    out = ""
    for ch in word:
        if ch in ts.spelling.map:
            out += ts.spelling.map[ch]
        elif any(ch in face for face in ts.counts):
            out += ch
        elif ts.spelling.fold:
            parts = unicodedata.normalize("NFKD", ch)
            base = [c for c in parts if unicodedata.category(c) != "Mn"]
            if not base or not all(any(c in f for f in ts.counts) for c in base):
                return None
            out += "".join(base)
        else:
            return None
    return out


def _cuts(ts, written: str) -> list[tuple[str, ...]]:
    """Every cut of the written word into faces, kept when every occurrence of a tile-only
    face's letters is that face."""
    n = len(written)
    out = []
    for marks in itertools.product([False, True], repeat=max(0, n - 1)):
        parts, start, starts = [], 0, [0]
        for i, cut in enumerate(marks, 1):
            if cut:
                parts.append(written[start:i])
                start = i
                starts.append(i)
        parts.append(written[start:])
        if not all(p in ts.counts for p in parts):
            continue
        at = dict(zip(starts, parts))
        if all(at.get(i) == t for t in ts.spelling.tile_only
               for i in range(n) if written.startswith(t, i)):
            out.append(tuple(parts))
    return sorted(out)


def _best(ts, word: str, counts: Counter, blanks: int) -> int | None:
    """The best score of a word from a rack, by brute force over its cuts."""
    written = _write(ts, word)
    best = None
    for cut in _cuts(ts, written) if written is not None else []:
        need = Counter(cut)
        if sum(max(0, n - counts[f]) for f, n in need.items()) > blanks:
            continue
        score = sum(ts.values[f] * min(n, counts[f]) for f, n in need.items())
        best = score if best is None else max(best, score)
    return best


# -- the shipped rules --------------------------------------------------------------------

def test_every_shipped_set_states_its_rule():
    for code, ts in load_tilesets().items():
        sp = ts.spelling
        assert sp.rule.strip() and sp.rule.endswith("."), code
        assert sp.tile_only <= {f for f in ts.counts if len(f) > 1}, code
    assert tileset("es").spelling.tile_only == {"ch", "ll", "rr"}
    # the issue's rule: every set without accented tiles folds accents
    for code, ts in load_tilesets().items():
        accented = any(unicodedata.normalize("NFD", c) != c for c in ts.letters if c.isalpha())
        if not accented:
            assert ts.spelling.fold, code


@pytest.mark.parametrize("code, word, tiles", [
    ("fr", "été", ("e", "t", "e")),
    ("fr", "garçon", tuple("garcon")),
    ("fr", "cœur", tuple("coeur")),
    ("es", "canción", tuple("cancion")),
    ("es", "niño", ("n", "i", "ñ", "o")),  # Ñ has a tile: not folded
    ("es", "pingüino", tuple("pinguino")),
    ("es", "chorro", ("ch", "o", "rr", "o")),  # never C+H or R+R
    ("es", "calle", ("c", "a", "ll", "e")),
    ("it", "città", tuple("citta")),
    ("pt", "ação", ("a", "ç", "a", "o")),  # Ç has a tile
    ("de", "straße", tuple("strasse")),
    ("de", "über", ("ü", "b", "e", "r")),  # Ü has a tile: not UE
    ("de", "café", tuple("cafe")),
    ("nl", "één", tuple("een")),
    ("ca", "col·lecció", ("c", "o", "l·l", "e", "c", "c", "i", "o")),
    ("ca", "qüestió", ("qu", "e", "s", "t", "i", "o")),
    ("ca", "any", ("a", "ny")),
    ("el", "καλός", ("κ", "α", "λ", "ο", "σ")),  # tonos dropped, final sigma as Σ
    ("ro", "științ", tuple("stiint")),
    ("uk", "пам’ять", ("п", "а", "м", "'", "я", "т", "ь")),
    ("cy", "tŷ", ("t", "y")),
])
def test_shipped_rules_write_words_in_tiles(code, word, tiles):
    ts = tileset(code)
    assert ts.tilings(word) == [tiles]
    assert _cuts(ts, _write(ts, word)) == [tiles]


@pytest.mark.parametrize("code, word", [
    ("pl", "café"),  # Polish has its own letters, é is none of them
    ("ru", "cafe"),  # another alphabet
    ("es", "whisky"),  # no W tile, and accents do not make one
    ("de", "smørrebrød"),  # ø is not o with a mark, it is a letter the set lacks
    ("hu", "xyz"),
    ("sk", "řeka"),
])
def test_words_a_set_cannot_write_never_play(code, word):
    ts = tileset(code)
    assert ts.tilings(word) == []
    written = _write(ts, word)
    assert written is None or _cuts(ts, written) == []
    assert len(rack_words("??", ts, Index.from_counts({word: 1}))) == 0


def test_french_words_with_accents_play():
    index = Index.from_counts({"été": 50, "ete": 2, "thé": 9, "œuf": 7, "ça": 30})
    plays = rack_words("eteh", "fr", index)
    assert [(p.word, p.display(), p.score) for p in plays] == \
        [("thé", "THE", 6), ("été", "ETE", 3), ("ete", "ETE", 3)]
    assert {p.word for p in rack_words("oeuf", "fr", index)} == {"œuf"}
    assert {p.word for p in rack_words("ca", "fr", index)} == {"ça"}


def test_spanish_digraphs_are_played_only_as_their_tiles():
    index = Index.from_counts({"chorro": 5, "calle": 4, "coche": 3})
    es = tileset("es")
    assert not rack_words("choro", es, index)  # c, h, r, r are there, but CH and RR are not
    assert [p.word for p in rack_words(["ch", "o", "rr", "o"], es, index)] == ["chorro"]
    assert [p.display() for p in rack_words(["c", "a", "ll", "e"], es, index)] == ["CA[LL]E"]
    # a blank may be a digraph tile
    assert [p.display() for p in rack_words(["c", "o", "e", "?"], es, index)] == ["CO[ch]E"]


# -- against plain scans, on random words ------------------------------------------------

FOLDING = make_tileset({"a": (3, 1), "e": (3, 1), "c": (2, 3), "h": (2, 4), "s": (2, 1),
                        "ch": (1, 5), "ss": (1, 6), "ñ": (1, 8)}, 2, name="fold",
                       spelling=Spelling(True, {"ß": "ss", "æ": "ae"}, frozenset({"ch"}),
                                         "test rules."))
LETTERS = "aeéèäcçhsßñnæœ"  # with marks to fold, letters to map, letters to refuse (n, œ)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=LETTERS, min_size=1, max_size=7))
def test_tilings_match_the_plain_scan(word):
    written = _write(FOLDING, word)
    assert FOLDING.write(word) == written
    assert sorted(FOLDING.tilings(word)) == (_cuts(FOLDING, written) if written else [])
    for code in ("es", "ca", "cy", "hu", "fr", "de"):
        ts = tileset(code)
        w = _write(ts, word)
        assert sorted(ts.tilings(word)) == (_cuts(ts, w) if w else []), code


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=6), min_size=1, max_size=30,
                unique=True),
       st.lists(st.sampled_from(["a", "e", "c", "h", "s", "ch", "ss", "ñ"]), min_size=1,
                max_size=7),
       st.integers(0, 2))
def test_racks_match_the_plain_scan(words, faces, blanks):
    counts = Counter(faces)
    counts = Counter({f: min(n, FOLDING.counts[f]) for f, n in counts.items()})
    index = Index.from_counts({w: i + 1 for i, w in enumerate(words)})
    rack = FOLDING.parse_rack(list(counts.elements()) + ["?"] * blanks)
    plays = rack_words(rack, FOLDING, index)
    want = {w: s for w in index.words if (s := _best(FOLDING, w, counts, blanks)) is not None}
    assert {p.word: p.score for p in plays} == want
    for p in plays:
        assert p.tiles in _cuts(FOLDING, _write(FOLDING, p.word))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="aeéèäcçhsßn", min_size=1, max_size=6), min_size=1,
                max_size=30, unique=True),
       st.text(alphabet="aecsh", min_size=1, max_size=7), st.integers(0, 2))
def test_single_letter_sets_fold_like_the_plain_scan(words, letters, blanks):
    ts = make_tileset({c: (3, i + 1) for i, c in enumerate("aecsh")}, 2, name="single",
                      spelling=Spelling(True, {"ß": "ss"}, frozenset(), "test rules."))
    index = Index.from_counts({w: i + 1 for i, w in enumerate(words)})
    counts = Counter(letters)
    counts = Counter({c: min(n, 3) for c, n in counts.items()})
    rack = ts.parse_rack("".join(counts.elements()) + "?" * blanks)
    plays = rack_words(rack, ts, index)
    want = {w: s for w in index.words if (s := _best(ts, w, counts, blanks)) is not None}
    assert {p.word: p.score for p in plays} == want
    keys = [(-p.score, p.id) for p in plays]
    assert keys == sorted(keys)


def test_the_bag_folds_too():
    ts = make_tileset({"a": (2, 1), "e": (1, 2), "t": (1, 1), "s": (2, 3)}, 0, name="bag",
                      spelling=Spelling(True, {"ß": "ss"}, frozenset(), "test rules."))
    index = Index.from_counts({"été": 5, "aß": 3, "as": 2, "sa": 1, "tea": 1})
    got = best_bag(ts, index, max_length=3, time_limit=None)
    assert got is not None and got.proved
    got._check(ts, index)
    # the only way to use the bag: Aß written A+S+S (3 x 7) and TEA (3 x 4)
    assert sorted((w.word, w.display()) for w in got.words) == [("aß", "ASS"), ("tea", "TEA")]
    assert check_bag(got.words, ts, index, max_length=3) == got.total == 33


def test_readme_states_every_sets_rule():
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for code, ts in load_tilesets().items():
        assert f"| `{code}` | {ts.language} | {ts.spelling.rule} |" in readme, code


def test_catalan_and_ukrainian_exports_keep_their_in_word_characters():
    from cryptocomp.index.alphabet import word_filter

    sample = [("col·lecció", 1.0), ("any", 1.0), ("és", 1.0)]
    keep = word_filter("ca", sample)
    assert keep("col·lecció") and keep("any")
    assert not keep("·ab") and not keep("ab·") and not keep("a'b") and not keep("a-b")
    keep = word_filter("uk", [("пам'ять", 1.0), ("мама", 1.0)])
    assert keep("пам'ять") and not keep("'мама") and not keep("мама'") and not keep("ab")
    assert not word_filter("fr", [("été", 1.0)])("aujourd'hui")  # French has no such tile


# -- forced tilings: every multi-letter face tile-only, racks scored on face counts --------

FORCED = make_tileset({"a": (3, 1), "e": (2, 1), "c": (2, 3), "h": (1, 4), "l": (2, 1),
                       "y": (1, 4), "ch": (1, 5), "ll": (1, 8), "ny": (1, 7), "ñ": (1, 8),
                       "n": (2, 1)}, 2, name="forced",
                      spelling=Spelling(True, {}, frozenset({"ch", "ll", "ny"}), "test rules."))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="aecçhlñnyéqŀ·", min_size=1, max_size=7), min_size=1,
                max_size=30, unique=True),
       st.lists(st.sampled_from(sorted(FORCED.counts) + ["l·l", "qu"]), min_size=1, max_size=8),
       st.integers(0, 2), st.sampled_from(["forced", "es", "ca"]))
def test_forced_tilings_score_like_the_plain_scan(words, faces, blanks, code):
    from cryptocomp.tiles.rack import RackSolver, play_of

    ts = FORCED if code == "forced" else tileset(code)
    counts = Counter(f for f in faces if f in ts.counts)
    counts = Counter({f: min(n, ts.counts[f]) for f, n in counts.items()})
    index = Index.from_counts({w: i + 1 for i, w in enumerate(words)})
    assume(counts or blanks)
    rack = ts.parse_rack(list(counts.elements()) + ["?"] * blanks)
    solver = RackSolver(ts, index)
    assert solver._forced  # the fast path is what is tested
    plays = solver.solve(rack)
    want = {w: s for w in index.words if (s := _best(ts, w, counts, blanks)) is not None}
    assert {p.word: p.score for p in plays} == want
    one_by_one = [play_of(p.word, rack, ts, count=p.count, id=p.id) for p in plays]
    assert list(plays) == one_by_one
    keys = [(-p.score, p.id) for p in plays]
    assert keys == sorted(keys)


def test_forced_counting_and_word_by_word_tiling_together():
    # Catalan ŀ is written as two characters (l·): its words are tiled word by word, the
    # others counted; one ranking
    from cryptocomp.tiles.rack import RackSolver, play_of

    ca = tileset("ca")
    index = Index.from_counts({"coŀlecció": 9, "col·lecció": 8, "colla": 7, "any": 6})
    rack = ca.parse_rack("co[l·l]ecio??")
    solver = RackSolver(ca, index)
    assert solver._forced and solver._several
    plays = solver.solve(rack)
    keys = [(-p.score, p.id) for p in plays]
    assert keys == sorted(keys) and [p.word for p in plays][:2] == ["coŀlecció", "col·lecció"]
    counts = Counter(f for f, n in rack.counts.items() for _ in range(n))
    assert {p.word: p.score for p in plays} == \
        {w: s for w in index.words if (s := _best(ca, w, counts, 2)) is not None}
    assert list(plays) == [play_of(p.word, rack, ca, count=p.count, id=p.id) for p in plays]
