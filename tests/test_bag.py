"""The whole-bag optimiser against an exhaustive search on tiny bags and word lists."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp import CryptocompError, Index
from cryptocomp.cli import main
from cryptocomp.tiles import bagsearch as bag_module
from cryptocomp.tiles.bag import best_bag, check_bag
from cryptocomp.tiles.bagsearch import BagSearch, _cuts
from cryptocomp.tiles.tiles import make_tileset


def _best_blank_score(tilings, blank_faces, values):
    """The best score of fixed tilings when the blanks play ``blank_faces``: try every
    choice of which occurrences the blanks take."""
    slots = [(w, i) for w, t in enumerate(tilings) for i, f in enumerate(t)]
    best = None
    for chosen in itertools.combinations(slots, len(blank_faces)):
        if Counter(tilings[w][i] for w, i in chosen) != Counter(blank_faces):
            continue
        blanked = set(chosen)
        score = sum(len(t) * sum(values[f] for i, f in enumerate(t) if (w, i) not in blanked)
                    for w, t in enumerate(tilings))
        best = score if best is None else max(best, score)
    return best


def _oracle(words, tiles, max_length):
    """Every set of tilings with distinct first faces whose faces are the real tiles plus
    what the blanks play; the best total, or None."""
    options = [t for w in words for t in tiles.tilings(w) if len(t) <= max_length]
    real = Counter({f: n for f, n in tiles.counts.items() if n})
    size = sum(real.values()) + tiles.blanks
    best = None
    for k in range(1, len(options) + 1):
        for combo in itertools.combinations(options, k):
            if sum(map(len, combo)) != size or len({t[0] for t in combo}) < k:
                continue
            faces = Counter(f for t in combo for f in t)
            if any(faces[f] < n for f, n in real.items()):
                continue
            extra = list((faces - real).elements())
            score = _best_blank_score(combo, extra, tiles.values)
            if score is not None and (best is None or score > best):
                best = score
    return best


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(alphabet="abcd", min_size=1, max_size=4), min_size=1, max_size=9,
                unique=True),
       st.lists(st.integers(0, 2), min_size=4, max_size=4),
       st.lists(st.integers(1, 5), min_size=4, max_size=4),
       st.integers(0, 2), st.integers(2, 4))
@pytest.mark.slow
def test_bag_matches_exhaustive_search(words, counts, values, blanks, max_length):
    tiles = make_tileset({f: (n, v) for f, n, v in zip("abcd", counts, values)}, blanks)
    if sum(counts) + blanks == 0:
        return
    index = Index.from_counts({w: 1 for w in words})
    want = _oracle(index.words, tiles, max_length)
    got = best_bag(tiles, index, max_length=max_length, time_limit=None)
    if want is None:
        assert got is None
        return
    assert got is not None and got.proved and got.total == want == got.upper_bound
    assert check_bag(got.words, tiles, index, max_length=max_length) == want


_SMALL_BAGS = (
    st.lists(st.text(alphabet="abcde", min_size=1, max_size=4), min_size=1, max_size=10,
             unique=True),
    st.lists(st.integers(0, 2), min_size=5, max_size=5),
    st.lists(st.integers(1, 5), min_size=5, max_size=5),
    st.integers(0, 2), st.integers(2, 4))


def _small_case(words, counts, values, blanks):
    """The tile set and index of a tiny random bag case."""
    tiles = make_tileset({f: (n, v) for f, n, v in zip("abcde", counts, values)}, blanks)
    return tiles, Index.from_counts({w: 1 for w in words})


@settings(max_examples=80, deadline=None)
@given(*_SMALL_BAGS)
def test_screened_children_check_matches_exhaustive_search(words, counts, values, blanks,
                                                           max_length):
    # a screen of one row makes the children check screen on every tiny case
    if sum(counts) + blanks == 0:
        return
    tiles, index = _small_case(words, counts, values, blanks)
    want = _oracle(index.words, tiles, max_length)
    with mock.patch.object(bag_module, "_SCREEN", 1):
        got = best_bag(tiles, index, max_length=max_length, time_limit=None)
    if want is None:
        assert got is None
        return
    assert got is not None and got.proved and got.total == want == got.upper_bound
    assert check_bag(got.words, tiles, index, max_length=max_length) == want


@settings(max_examples=80, deadline=None)
@given(*_SMALL_BAGS)
def test_screen_bound_never_exceeds_the_exact_pairing(words, counts, values, blanks,
                                                      max_length):
    # at every children check, the screened bound of each child (a few rows, the others
    # padded) is at most its bound from pairing with every row, and the exact pairing's
    # fits are the rows that really fit the child
    if sum(counts) + blanks == 0:
        return
    tiles, index = _small_case(words, counts, values, blanks)
    checked = []
    exact_check = BagSearch._children_hopeful

    def compare(self, node):
        P, rows, choices = node.phase, node.rows, node.choices
        remaining, blanks, deficit = node.remaining, node.blanks, node.deficit
        sub = P.counts[rows]
        real = np.minimum(sub, remaining)
        assert (deficit == (sub - real).sum(1)).all()
        assert (node.value == real @ self.values).all()
        picked = np.arange(len(choices))
        fits = np.zeros((len(choices), len(rows)), dtype=bool)
        exact = self._child_bounds(node, picked, None, None, fits)
        for n_top in range(len(rows)):
            top = np.sort(np.argsort(-P.value[rows], kind="stable")[:n_top])
            rest = np.setdiff1d(np.arange(len(rows)), top)
            pad = int(P.value[rows][rest].max())
            screened = self._child_bounds(node, picked, top, pad, fits[:0])
            assert (screened <= exact).all()
        for a, j in enumerate(choices):
            child = remaining - real[j]
            for i in range(len(rows)):
                need = int(np.maximum(sub[i] - child, 0).sum())
                want = (need <= blanks - deficit[j] and P.first[rows[i]] != P.first[rows[j]]
                        and i not in choices[:a + 1])
                assert fits[a, i] == want
        checked.append(len(choices))
        return exact_check(self, node)

    with mock.patch.object(BagSearch, "_children_hopeful", compare):
        got = best_bag(tiles, index, max_length=max_length, time_limit=None)
    want = _oracle(index.words, tiles, max_length)
    assert (got.total if got else None) == want


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="abx", min_size=1, max_size=5), min_size=1, max_size=8,
                unique=True),
       st.lists(st.integers(0, 2), min_size=4, max_size=4), st.integers(0, 1))
def test_bag_multi_letter_tiles(words, counts, blanks):
    tiles = make_tileset({f: (n, v) for f, n, v in zip(["a", "b", "ab", "x"], counts,
                                                        [1, 2, 6, 4])}, blanks)
    if sum(counts) + blanks == 0:
        return
    index = Index.from_counts({w: 1 for w in words})
    want = _oracle(index.words, tiles, 5)
    got = best_bag(tiles, index, max_length=5, time_limit=None)
    assert (got.total if got else None) == want
    if got:
        assert check_bag(got.words, tiles, index, max_length=5) == want


def test_blank_goes_to_the_shorter_word():
    # one real Z (10 points) and a blank: the real Z belongs in BOZO (4 tiles), the blank
    # plays the Z of ZA (2 tiles)
    tiles = make_tileset({"z": (1, 10), "a": (1, 1), "o": (2, 1), "b": (1, 3)}, 1)
    index = Index.from_counts({"za": 1, "bozo": 1})
    got = best_bag(tiles, index, time_limit=None)
    assert got is not None and got.proved and got.total == 4 * (3 + 1 + 10 + 1) + 2 * 1
    (za,) = [w for w in got.words if w.word == "za"]
    assert za.blanks == ("z",) and za.display() == "zA"
    # words must start with different letters: ZA and ZOO cannot both be played
    index = Index.from_counts({"za": 1, "zoo": 1, "bo": 1})
    assert _oracle(index.words, tiles, 15) is None and best_bag(tiles, index) is None


def test_words_of_blanks_alone():
    # the two blanks can only be played as BB, a word longer than the last real one (A)
    tiles = make_tileset({"a": (1, 1), "b": (0, 1)}, 2)
    index = Index.from_counts({"a": 1, "bb": 1})
    assert _oracle(index.words, tiles, 2) == 1
    got = best_bag(tiles, index, max_length=2, time_limit=None)
    assert got is not None and got.proved and got.total == 1
    assert sorted(w.word for w in got.words) == ["a", "bb"]
    # three blanks: AA would take the only first face of a one-tile word, BB leaves it
    tiles = make_tileset({"a": (0, 1), "b": (0, 1)}, 3)
    index = Index.from_counts({"a": 1, "aa": 1, "bb": 1})
    assert _oracle(index.words, tiles, 2) == 0
    got = best_bag(tiles, index, max_length=2, time_limit=None)
    assert got is not None and sorted(w.word for w in got.words) == ["a", "bb"]
    assert check_bag(got.words, tiles, index, max_length=2) == 0


def test_cuts_are_the_undominated_partitions():
    # 10 tiles in words of at most 14 (L = 15): one 10-tile word is best whatever the values
    assert _cuts(15, 14, 10, 2) == ((5,) * 10,)
    for vec in _cuts(15, 14, 25, 2):
        assert len(vec) == 25 and list(vec) == sorted(vec, reverse=True)


def _clock_bag():
    """A bag whose search needs two rounds and about 360 nodes (seed 64 of a random family)."""
    import random

    rng = random.Random(64)
    tiles = make_tileset({f: (rng.randint(1, 3), rng.randint(1, 8)) for f in "abcdefgh"}, 1)
    words = {"".join(rng.choice("abcdefgh") for _ in range(rng.randint(2, 5)))
             for _ in range(800)}
    return tiles, Index.from_counts({w: 1 for w in words})


def _ticking(bagsearch_module):
    """Replace the search's clock by one that advances 1/64 s each time it is read (every
    node), so that a time limit of k seconds stops after about 64 k nodes, reproducibly."""
    import types

    now = [0.0]

    def tick() -> float:
        now[0] += 1 / 64
        return now[0]

    return mock.patch.object(bagsearch_module, "time", types.SimpleNamespace(perf_counter=tick))


def test_time_limit_reports_best_or_the_upper_bound():
    tiles, index = _clock_bag()
    full = best_bag(tiles, index, max_length=5, time_limit=None)
    assert full.proved and full.found and len(full.stats["rounds"]) == 2
    outcomes = set()
    for k in range(1, 8):
        with _ticking(bag_module):
            got = best_bag(tiles, index, max_length=5, time_limit=k)
        got._check(tiles, index)
        assert got.upper_bound >= full.total >= got.total  # the bound is proved, never wrong
        outcomes.add((got.found, got.proved))
        if not got.found:
            assert got.words == [] and got.upper_bound < 5 * sum(
                tiles.counts[f] * tiles.values[f] for f in tiles.counts)
    assert (False, False) in outcomes and (True, True) in outcomes


@pytest.mark.parametrize("limit", [float("nan"), float("inf"), -1.0])
def test_time_limit_must_be_finite(limit):
    with pytest.raises(CryptocompError, match="finite number of seconds"):
        best_bag("en", Index.from_counts({"a": 1}), time_limit=limit)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "-1", "604801", "ten", ""])
def test_cli_time_limit_refuses_non_finite_and_absurd_values(capsys, value):
    assert main(["bag", "--time-limit", value, "--dict", "nowhere.txt"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--time-limit" in err and "Traceback" not in err


def test_cli_bag_out_of_time_prints_the_proved_bound(monkeypatch, capsys):
    import cryptocomp.cli.rack as rack_cli

    tiles, index = _clock_bag()
    monkeypatch.setattr(rack_cli, "_open", lambda args: (tiles, index))
    with _ticking(bag_module):
        assert main(["bag", "--max-length", "5", "--time-limit", "1"]) == 3
    out = capsys.readouterr().out
    bound = best_bag(tiles, index, max_length=5, time_limit=1e-9).upper_bound
    assert out.startswith("no solution found in 1 s; no solution scores more than ")
    assert int(out.split("more than ")[1].split()[0]) >= bound
    with _ticking(bag_module):
        assert main(["bag", "--max-length", "5", "--time-limit", "1", "--json"]) == 3
    value = json.loads(capsys.readouterr().out)
    assert value["found"] is False and value["total"] is None and value["words"] == []
    assert value["upper_bound"] >= 341  # the optimum
    assert main(["bag", "--max-length", "5", "--time-limit", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("total 341: proved optimal")


def test_bad_max_length(capsys):
    with pytest.raises(CryptocompError, match="must be 1 to 31 tiles"):
        best_bag("en", Index.from_counts({"a": 1}), max_length=0)
    assert main(["bag", "--max-length", "40"]) == 2
    assert "--max-length must be between 1 and 31" in capsys.readouterr().err


def test_cli_bag(tmp_path, capsys):
    path = tmp_path / "w.txt"
    path.write_text("za\nbozo\n", encoding="utf-8")
    tiles = make_tileset({"z": (1, 10), "a": (1, 1), "o": (2, 1), "b": (1, 3)}, 1)
    index = Index.from_counts({"za": 1, "bozo": 1})
    want = best_bag(tiles, index, time_limit=None).total
    assert want == 62
    # the CLI runs on shipped sets; on English tiles this tiny list cannot use the bag: a
    # proved "no solution" (exit 1), said in one line
    assert main(["bag", "--dict", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("cryptocomp: no solution: the en bag cannot be used "
                                           "up") and "(at most 15 tiles each)" in err
    assert main(["bag", "--dict", str(path), "--max-length", "1"]) == 1
    assert "(at most 1 tile each)" in capsys.readouterr().err


def test_check_bag_raises_a_real_exception_naming_the_rule():
    """check_bag is a validator: it raises InvalidBag (not an assert, which -O would drop)."""
    from cryptocomp.tiles.bag import BagWord, InvalidBag

    tiles = make_tileset({"a": (1, 1), "b": (1, 3)})
    index = Index.from_counts({"ab": 5, "ba": 4})
    good = [BagWord("ab", ("a", "b"), (), 4, 8)]
    assert check_bag(good, tiles, index, max_length=2) == 8
    for bad, why in [([BagWord("zz", ("z", "z"), (), 0, 0)], "not in the dictionary"),
                     ([BagWord("ab", ("a", "b"), (), 4, 9)], "wrong value or score"),
                     ([], "the tiles used differ"),
                     (good, "longer than 1")]:
        with pytest.raises(InvalidBag, match=why):
            check_bag(bad, tiles, index, max_length=1 if why.startswith("longer") else 2)


@settings(max_examples=60, deadline=None)
@given(*_SMALL_BAGS)
def test_one_call_children_check_matches_the_chunked_one(words, counts, values, blanks,
                                                         max_length):
    # the compiled one-call check (screen then exact pairing) decides as the chunked
    # Python passes do, with a screen of one row so that both screen on tiny cases
    if sum(counts) + blanks == 0:
        return
    tiles, index = _small_case(words, counts, values, blanks)
    original = BagSearch._children_hopeful
    compared = []

    def both(self, node):
        with mock.patch.object(bag_module, "_ONE_CALL", 0):
            slow, slow_fits = original(self, node)
        if slow_fits is None:  # far from the leaves: no check
            return slow, slow_fits
        fast, fast_fits = self._children_check(node)
        assert (fast == slow).all() and (fast_fits[fast] == slow_fits[slow]).all()
        compared.append(len(node.choices))
        return fast, fast_fits

    with mock.patch.object(bag_module, "_SCREEN", 1), \
            mock.patch.object(BagSearch, "_children_hopeful", both):
        got = best_bag(tiles, index, max_length=max_length, time_limit=None)
    want = _oracle(index.words, tiles, max_length)
    assert (got.total if got else None) == want
