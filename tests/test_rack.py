"""The rack solver against a brute-force oracle that tries every sub-multiset of the rack,
plus re-checks of every answer and the error cases."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp import Index
from cryptocomp.cli import main
from cryptocomp.tiles.rack import RackSolver, play_of, rack_words
from cryptocomp.tiles.tiles import TileError, make_tileset, tileset

EN = tileset("en")
MULTI = make_tileset({"a": (3, 1), "b": (2, 3), "c": (2, 2), "ab": (1, 5), "ca": (1, 4)}, 2,
                     name="multi")


def _sub_multisets(counts: dict[str, int]):
    faces = sorted(counts)
    for picks in itertools.product(*(range(counts[f] + 1) for f in faces)):
        yield Counter({f: n for f, n in zip(faces, picks) if n})


def _oracle(words, rack, tiles):
    """word -> best score: some sub-multiset S of the real tiles plus k <= blanks blanks
    spells some tiling exactly (the blanks standing for the rest); score = value of S."""
    subsets = list(_sub_multisets(dict(rack.counts)))
    best = {}
    for word in words:
        for tiling in tiles.tilings(word):
            need = Counter(tiling)
            for s in subsets:
                if all(need[f] >= n for f, n in s.items()) and \
                        sum(need.values()) - sum(s.values()) <= rack.blanks:
                    score = sum(tiles.values[f] * n for f, n in s.items())
                    best[word] = max(best.get(word, -1), score)
    return best


def _recheck(play, rack, tiles, index):
    """A play's own claims, verified from scratch."""
    assert play.word in index and index.words[play.id] == play.word
    assert "".join(play.tiles) == tiles.write(play.word) and play.tiles in tiles.tilings(play.word)
    real = Counter(play.tiles) - Counter(play.blanks)
    assert Counter(play.blanks) <= Counter(play.tiles), play
    assert len(play.blanks) <= rack.blanks
    assert all(rack.counts.get(f, 0) >= n for f, n in real.items()), play
    assert play.score == sum(tiles.values[f] * n for f, n in real.items())


WORDS = st.lists(st.text(alphabet="abcdeq", min_size=1, max_size=7), min_size=1, max_size=40,
                 unique=True)


@settings(max_examples=60, deadline=None)
@given(WORDS, st.text(alphabet="abcdeq", min_size=1, max_size=7), st.integers(0, 2))
def test_rack_matches_oracle_english(words, letters, blanks):
    letters = "".join(c * min(n, EN.counts[c]) for c, n in sorted(Counter(letters).items()))
    index = Index.from_counts({w: i + 1 for i, w in enumerate(words)})
    rack = EN.parse_rack(letters + "?" * blanks)
    plays = rack_words(rack, EN, index)
    got = {p.word: p.score for p in plays}
    assert got == _oracle(index.words, rack, EN)
    for p in plays:
        _recheck(p, rack, EN, index)
    keys = [(-p.score, p.id) for p in plays]
    assert keys == sorted(keys)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcx", min_size=1, max_size=6), min_size=1, max_size=30,
                unique=True),
       st.lists(st.sampled_from(["a", "b", "c", "ab", "ca"]), min_size=1, max_size=5),
       st.integers(0, 2))
def test_rack_matches_oracle_multi_letter(words, faces, blanks):
    counts = Counter(faces)
    faces = [f for f, n in counts.items() for _ in range(min(n, MULTI.counts[f]))]
    index = Index.from_counts({w: i + 1 for i, w in enumerate(words)})
    rack = MULTI.parse_rack(faces + ["?"] * blanks)
    plays = rack_words(rack, MULTI, index)
    assert {p.word: p.score for p in plays} == _oracle(index.words, rack, MULTI)
    for p in plays:
        _recheck(p, rack, MULTI, index)


def test_known_rack():
    index = Index.from_counts({"retains": 9, "nastier": 5, "stainer": 3, "retain": 20,
                               "quiz": 7, "zzz": 1, "tea": 4})
    plays = rack_words("retains", EN, index)
    assert [(p.word, p.score) for p in plays] == [
        ("retains", 7), ("nastier", 7), ("stainer", 7),
        ("retain", 6), ("tea", 3)]
    blank_plays = rack_words("qi?z", EN, index)
    assert [(p.word, p.score, p.blanks, p.display()) for p in blank_plays] == [
        ("quiz", 21, ("u",), "QuIZ")]


def test_hungarian_digraph_scores_best_tiling():
    hu = tileset("hu")
    index = Index.from_counts({"szósz": 1})
    # SZ is worth 3, S and Z 1 + 4: with both available the S+Z tiling scores more
    rack = hu.parse_rack("s z ó sz")
    (play,) = rack_words(rack, hu, index)
    assert play.score == max(play_of("szósz", rack, hu).score, 0)
    assert play.tiles in (("s", "z", "ó", "sz"), ("sz", "ó", "s", "z"))
    assert play.score == 1 + 4 + 2 + 3


def test_plays_sequence_and_top():
    index = Index.from_counts({w: 1 for w in ["at", "ta", "tat", "eat", "tea", "ate", "z"]})
    plays = rack_words("teat", EN, index)
    assert len(plays) == 6 and plays[-1].word in {"at", "ta"}
    assert [p.word for p in rack_words("teat", EN, index, max_results=2)] == \
        [p.word for p in plays[:2]]
    assert len(rack_words("teat", EN, index, max_results=0)) == 0
    assert list(plays) == plays[:]


def test_words_with_letters_outside_the_set_never_play():
    # English ignores accents (café is CAFE); Polish letters are letters of their own, and a
    # word with a letter the Polish set has no tile for is never playable
    index = Index.from_counts({"café": 3, "cafe": 1})
    assert [(p.word, p.display()) for p in rack_words("cafe??", EN, index)] == \
        [("café", "CAFE"), ("cafe", "CAFE")]
    assert [p.word for p in rack_words("cafe??", "pl", index)] == ["cafe"]


def test_candidates_are_exact_for_single_letter_sets():
    index = Index.from_counts({w: 1 for w in ["aa", "aab", "abc", "bbb", "cab", "ccc", "a"]})
    solver = RackSolver(EN, index)
    rack = EN.parse_rack("ab?")
    ids = set(solver.candidates(rack))
    assert {index.words[i] for i in ids} == set(_oracle(index.words, rack, EN))


@pytest.mark.parametrize("rack, message", [
    ("", "empty rack"),
    ("ab1", "not a tile of the en set"),
    ("abc???", "3 blanks but the en set has only 2"),
])
def test_rack_errors(rack, message):
    index = Index.from_counts({"ab": 1})
    with pytest.raises(TileError, match=message):
        rack_words(rack, EN, index)


def test_cli_rack(tmp_path, capsys):
    path = tmp_path / "words.txt"
    path.write_text("retains\nnastier\nquiz\ntea\n", encoding="utf-8")
    assert main(["rack", "retains", "--dict", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    # a plain list ranks by its order (issue 26): retains, its first line, comes first
    assert out[0].split("\t")[:2] == ["7", "retains"] and len(out) == 3
    assert main(["rack", "qi?z", "--dict", str(path), "--json"]) == 0
    assert '"shown": "QuIZ"' in capsys.readouterr().out
    assert main(["rack", "qi???", "--dict", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["cryptocomp: error: the rack has 3 blanks but the en "
                                        "set has only 2"]


def test_cli_rack_shipped_enable(capsys):
    assert main(["rack", "jukebox", "--dict", "enable", "--top", "1"]) == 0
    assert capsys.readouterr().out.split("\t")[:2] == ["27", "jukebox"]


# -- plays built in batches (issue 12, item 13) --------------------------------------------

def _show_tiles_oracle(tiling, blanks):
    """The display rule, face by face: blank-played faces lower case on their last
    occurrences, multi-letter faces in brackets."""
    left = Counter(blanks)
    out = []
    for face in reversed(tiling):
        shown = face.lower() if left[face] else face.upper()
        left[face] -= 1 if left[face] else 0
        out.append(f"[{shown}]" if len(face) > 1 else shown)
    return "".join(reversed(out))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "e", "ß", "'", "cs", "é"]), min_size=1, max_size=8),
       st.data())
def test_show_tiles_matches_the_face_by_face_rule(tiling, data):
    from cryptocomp.tiles.tiles import show_tiles

    blanks = data.draw(st.lists(st.sampled_from(sorted(set(tiling))), max_size=len(tiling)))
    blanks = [f for f in blanks if blanks.count(f) <= tiling.count(f)]
    assert show_tiles(tuple(tiling), tuple(sorted(blanks))) == \
        _show_tiles_oracle(tiling, sorted(blanks))


@settings(max_examples=60, deadline=None)
@given(WORDS, st.text(alphabet="abcdeq", min_size=1, max_size=9), st.integers(0, 2),
       st.sampled_from(["en", "fr", "de"]))
def test_plays_built_in_batches_equal_plays_built_one_by_one(words, letters, blanks, code):
    tiles = tileset(code)
    letters = "".join(c * min(n, tiles.counts[c]) for c, n in sorted(Counter(letters).items()))
    index = Index.from_counts({w: i + 1 for i, w in enumerate(words + ["été", "ßa", "qé"])})
    rack = tiles.parse_rack(letters + "?" * blanks)
    plays = rack_words(rack, tiles, index)
    one_by_one = [play_of(index.words[int(i)], rack, tiles, count=index.counts[int(i)],
                          id=int(i)) for i in plays.ids]
    assert list(plays) == plays[:] == one_by_one
    assert [p.display() for p in plays] == [_show_tiles_oracle(p.tiles, p.blanks) for p in plays]
    if len(plays):
        assert plays[-1] == one_by_one[-1] and plays[1:3] == one_by_one[1:3]
        assert plays[::2] == one_by_one[::2]


def test_blanks_of_many_shortfalls_do_not_overflow():
    # a set with many blanks: the batch's shortfall codes would pass 2**63
    ts = make_tileset({c: (1, 1) for c in "abcdefghijklmnopqrstuvwxyz"}, 20, name="wide")
    index = Index.from_counts({"zyxwvutsrqponmlk": 1, "ab": 2})
    plays = rack_words("a" + "?" * 20, ts, index)
    assert [(p.word, len(p.blanks)) for p in plays] == [("ab", 1), ("zyxwvutsrqponmlk", 16)]
    assert plays[1].blanks == tuple(sorted("zyxwvutsrqponmlk"))


def test_an_alphabet_too_large_for_letter_count_matrices(monkeypatch):
    """Found by hand while fuzzing: a Chinese-sized alphabet made the index refuse its
    letter-count matrix (ValueError, a traceback from `cryptocomp rack`); the solver then
    counts the letters the tiles can write itself, with the same results."""
    from cryptocomp.index import Encoded

    words = {"été": 9, "tea": 8, "eat": 7, "中文": 6, "ab": 5, "straße": 4, "ba": 3}
    index = Index.from_counts(words)
    want = {code: [(p.word, p.score, p.blanks) for p in rack_words("etae??", code, index)]
            for code in ("en", "fr", "de")}

    def refuse(self):
        raise ValueError("alphabet too large for a letter-count matrix")

    monkeypatch.setattr(Encoded, "letter_counts", refuse)
    index = Index.from_counts(words)
    for code, plays in want.items():
        assert [(p.word, p.score, p.blanks) for p in rack_words("etae??", code, index)] == plays
    assert {p.word for p in rack_words("etae??", "fr", index)} >= {"été", "tea"}
