"""The fillers' word options (crossword/rules.py, theme.py): excluded, preferred and theme
words, shared substrings, lemmas, against a brute-force oracle on tiny grids."""

from __future__ import annotations

import itertools
import json
import time

import pytest
from grid_cases import parity_case
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp import Index
from cryptocomp.cli import main
from cryptocomp.crossword import FillRules, Grid, fill
from cryptocomp.crossword.check import fill_problems
from cryptocomp.crossword.grid import GridError
from cryptocomp.crossword.rules import conflict_keys, word_keys
from cryptocomp.crossword.square import square_grid
from cryptocomp.index.classes import given_classes

GRIDS = {
    "square2": square_grid(2),
    "rect2x3": Grid.from_rows(["...", "..."]),
    "ring3": Grid.from_rows(["...", ".#.", "..."]),
    "sym3": square_grid(3, symmetric=True),
}
# (engine, strategy): every engine, and every CSP strategy that fills any grid
ENGINES = [("csp", "auto"), ("csp", "words"), ("csp", "cells"), ("csp", "restarts"),
           ("sat", "auto")]
SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _run(u: str, v: str) -> int:
    """The longest run of letters both words have (a plain scan of every pair of runs)."""
    return max((n for n in range(1, min(len(u), len(v)) + 1)
                if {u[i:i + n] for i in range(len(u) - n + 1)}
                & {v[i:i + n] for i in range(len(v) - n + 1)}), default=0)


def oracle_fills(grid: Grid, words: list[str], *, exclude=(), theme=(), max_shared=None,
                 lemma_of=None):
    """Every fill of ``grid`` from ``words`` under the word rules, by brute force."""
    usable = [w for w in words if w not in exclude]
    for combo in itertools.product(*([w for w in usable if len(w) == s.length]
                                     for s in grid.slots)):
        if len(set(combo)) < len(combo):
            continue
        letters = {}
        if any(letters.setdefault(cell, ch) != ch
               for s, w in zip(grid.slots, combo) for cell, ch in zip(s.cells, w)):
            continue
        if any(letters.get(cell, ch) != ch for cell, ch in grid.given.items()):
            continue
        if any(t not in combo for t in theme):
            continue
        pairs = list(itertools.combinations(combo, 2))
        if max_shared is not None and any(_run(u, v) > max_shared for u, v in pairs):
            continue
        if lemma_of is not None and any(lemma_of[u] == lemma_of[v] for u, v in pairs):
            continue
        yield list(combo)


def _words(draw_lengths=(2, 3)):
    return st.lists(st.text("abc", min_size=min(draw_lengths), max_size=max(draw_lengths)),
                    min_size=3, max_size=14, unique=True)


def _index(words, lemmas=None):
    counts = {w: 1000 - i for i, w in enumerate(words)}
    if lemmas is None:
        return Index.from_counts(counts, name="t")
    return Index.from_counts(counts, name="t", classify=given_classes(
        {w: ["dictionary"] for w in words}, lemmas=lemmas))


def _check(grid, words, idx, rules, oracle_kw, check_kw):
    """Every engine fills ``grid`` iff the oracle has a fill, and every fill passes the
    checker; a slot length the list lacks is refused (no fill either)."""
    exists = next(oracle_fills(grid, words, **oracle_kw), None) is not None
    runs = list(ENGINES)
    if not grid.symmetric and len(grid.slots) == grid.width + grid.height:  # the rows search
        runs.append(("csp", "rows"))
    for engine, strategy in runs:
        try:
            result = fill(grid, idx, engine=engine, strategy=strategy, rules=rules)
        except GridError as exc:
            assert not exists and "letters" in str(exc), exc
            continue
        assert result.status == ("filled" if exists else "no_fill"), (engine, strategy, result)
        for f in result.fills:
            assert fill_problems(grid, set(words), f, **check_kw) == [], (engine, f)


@SETTINGS
@given(words=_words(), grid=st.sampled_from(sorted(GRIDS)), data=st.data())
def test_exclude_matches_the_oracle(words, grid, data):
    exclude = frozenset(data.draw(st.lists(st.sampled_from(words), max_size=4)))
    _check(GRIDS[grid], words, _index(words), FillRules(exclude=exclude),
           {"exclude": exclude}, {"exclude": exclude})


@SETTINGS
@given(words=_words(), grid=st.sampled_from(sorted(GRIDS)), n=st.integers(1, 2))
def test_max_shared_substring_matches_the_oracle(words, grid, n):
    _check(GRIDS[grid], words, _index(words), FillRules(max_shared=n), {"max_shared": n},
           {"max_shared": n})


@SETTINGS
@given(words=_words(), grid=st.sampled_from(sorted(GRIDS)), data=st.data())
def test_same_lemma_matches_the_oracle(words, grid, data):
    bases = data.draw(st.lists(st.sampled_from(["x", "y", "z"] + words), min_size=len(words),
                               max_size=len(words)))
    lemmas = dict(zip(words, bases))
    idx = _index(words, lemmas)
    groups = idx.lemma_groups()
    lemma_of = {w: int(groups[idx.id_of(w)]) for w in words}
    _check(GRIDS[grid], words, idx, FillRules(), {"lemma_of": lemma_of},
           {"lemma_of": lemma_of})
    # allowed: the plain rules
    _check(GRIDS[grid], words, idx, FillRules(same_lemma=True), {}, {})


@SETTINGS
@given(words=_words(), grid=st.sampled_from(sorted(GRIDS)), data=st.data())
def test_theme_matches_the_oracle(words, grid, data):
    g = GRIDS[grid]
    lengths = {s.length for s in g.slots}
    fitting = [w for w in words if len(w) in lengths]
    if not fitting:
        return
    theme = tuple(data.draw(st.lists(st.sampled_from(fitting), min_size=1, max_size=2,
                                     unique=True)))
    _check(g, words, _index(words), FillRules(theme=theme), {"theme": theme},
           {"theme": theme})


@SETTINGS
@given(words=_words(), grid=st.sampled_from(sorted(GRIDS)), data=st.data())
def test_prefer_keeps_exactness(words, grid, data):
    prefer = frozenset(data.draw(st.lists(st.sampled_from(words), max_size=5)))
    _check(GRIDS[grid], words, _index(words), FillRules(prefer=prefer), {}, {})


@SETTINGS
@given(words=st.lists(st.text("abcd", min_size=4, max_size=4), min_size=2, max_size=12,
                      unique=True), data=st.data())
def test_preferred_words_come_first(words, data):
    """A slot alone takes a preferred word when one fits, the commonest of them."""
    prefer = frozenset(data.draw(st.lists(st.sampled_from(words), min_size=1, max_size=3)))
    grid = Grid.from_rows(["....", "####"])
    idx = _index(words)
    first = min(prefer, key=words.index)
    for engine, strategy in ENGINES:
        result = fill(grid, idx, engine=engine, strategy=strategy, rules=FillRules(prefer=prefer),
                      lookahead=False)
        if engine == "csp":  # SAT's phases make preferred words likelier, not first
            assert result.words[0] == first, (strategy, result.words)


def test_preferred_words_lead_the_rows_search():
    """The rows search's letter order follows the preferred words: with a preferred
    square's words the first fill is that square (or its transpose)."""
    common, rare = {"ab", "cd", "ac", "bd"}, {"ef", "gh", "eg", "fh"}
    idx = _index(sorted(common) + sorted(rare))
    for strategy in ("rows", "words", "auto"):
        assert set(fill(square_grid(2), idx, strategy=strategy).words) == common
        result = fill(square_grid(2), idx, strategy=strategy,
                      rules=FillRules(prefer=frozenset(rare)))
        assert set(result.words) == rare, strategy


@SETTINGS
@given(words=st.lists(st.text("abc", min_size=3, max_size=5), min_size=3, max_size=20,
                      unique=True), n=st.integers(1, 5), data=st.data())
def test_conflict_keys_match_the_plain_keys(words, n, data):
    """The engine's key arrays say the same conflicts as the plain word_keys, runs of
    letters and lemma groups alike."""
    from cryptocomp.crossword.lexicon import Lexicon
    from cryptocomp.crossword.problem import Problem

    bases = data.draw(st.lists(st.sampled_from(["x", "y"] + words), min_size=len(words),
                               max_size=len(words)))
    idx = _index(words, dict(zip(words, bases)))
    groups = idx.lemma_groups()
    grid = Grid.from_rows([".....", "#####", "....#", "#####", "...##"])
    try:
        t = Problem(grid, Lexicon(idx), FillRules(max_shared=n)).tables
    except GridError:
        return  # a length without words
    rows = [idx.word(int(i)) for i in t.wid]
    k = t.keys
    keys_of = [set(k.keys[k.kstart[r]:k.kstart[r + 1]].tolist()) for r in range(len(rows))]
    for r, ks in enumerate(keys_of):  # each key's word list names the words with the key
        for key in ks:
            h = range(k.pstart[key], k.pstart[key + 1])
            assert any(t.grow[t.klen[j]] + t.kk[j] == r for j in h)
    for a, b in itertools.combinations(range(len(rows)), 2):
        la, lb = int(groups[idx.id_of(rows[a])]), int(groups[idx.id_of(rows[b])])
        plain = bool(word_keys(rows[a], n, la) & word_keys(rows[b], n, lb))
        assert bool(keys_of[a] & keys_of[b]) == plain, (rows[a], rows[b])
    assert not conflict_keys(t.wl, [3], t.grow, None, None).active


def test_theme_word_that_fits_no_slot_is_one_line():
    idx = _index(["car", "cat", "cob", "ten", "bun", "tar", "ab", "abcd"])
    grid = GRIDS["ring3"]
    for theme, why in ((("abcd",), "no slot has 4 letters"),
                       (("zzz",), "not a word of t")):
        with pytest.raises(GridError, match=why):
            fill(grid, idx, rules=FillRules(theme=theme))
    with pytest.raises(GridError, match="clash"):
        fill(Grid.from_rows(["xx"]), Index.from_counts({"xx": 3, "ab": 2}),
             rules=FillRules(theme=("ab",)))
    with pytest.raises(GridError, match="1 to"):
        FillRules(max_shared=0)
    with pytest.raises(GridError, match="twice"):
        FillRules(theme=("cat", "cat"))


def _words_file(tmp_path, words):
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{w} {1000 - i}\n" for i, w in enumerate(words)), encoding="utf-8")
    return path


def test_cli_options_and_their_bad_values(tmp_path, capsys):
    words = ["car", "cat", "cob", "ten", "bun", "arc", "tar", "cab", "nib", "abcd"]
    wf = _words_file(tmp_path, words)
    grid = tmp_path / "g.txt"
    grid.write_text("...\n.#.\n...\n", encoding="utf-8")
    ex = tmp_path / "ex.txt"
    ex.write_text("cat\n", encoding="utf-8")
    pref = tmp_path / "pref.txt"
    pref.write_text("arc\ntar\n", encoding="utf-8")
    assert main(["fill", str(grid), "--dict", str(wf), "--json", "--exclude", str(ex),
                 "--prefer", str(pref), "--theme", "cob", "--max-shared-substring", "2",
                 "--allow-same-lemma"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    for f in doc["fills"]:
        answers = list(f["words"].values())
        assert "cat" not in answers and "cob" in answers
    bad = tmp_path / "bad.txt"
    bad.write_text("cat\ntwo words here\n", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n", encoding="utf-8")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes(b"caf\xe9\n")
    for args, expected in ((["--exclude", str(bad)], "line 2"),
                           (["--prefer", str(empty)], "has no word"),
                           (["--exclude", str(latin1)], "not UTF-8"),
                           (["--exclude", str(tmp_path / "missing.txt")], "missing.txt"),
                           (["--theme", "cat,,cob"], "comma-separated"),
                           (["--theme", "abcd"], "fits no slot"),
                           (["--theme", "zzz"], "not a word"),
                           (["--max-shared-substring", "0"], "max-shared-substring")):
        assert main(["fill", str(grid), "--dict", str(wf), *args]) == 2, args
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and expected in err[0], (args, err)
        assert "Traceback" not in err[0]
    assert main(["square", "3", "--dict", str(wf), "--max-shared-substring", "1",
                 "--steps", "100"]) in (0, 1, 3)
    capsys.readouterr()


def _parity_case(tmp_path):
    """The shared parity grid and its words, with a list that excludes one row word."""
    grid, wf = parity_case(tmp_path)
    ex = tmp_path / "ex.txt"
    ex.write_text("aaaaaaa\n", encoding="utf-8")
    return grid, wf, ex


@pytest.mark.parametrize("engine", ["csp", "sat", "auto"])
@pytest.mark.slow
def test_time_budget_holds_with_the_word_options(tmp_path, capsys, engine):
    grid, wf, ex = _parity_case(tmp_path)
    main(["fill", str(grid), "--dict", str(wf), "--steps", "1"])  # index built, code loaded
    capsys.readouterr()
    budget = 2.0
    t0 = time.monotonic()
    code = main(["fill", str(grid), "--dict", str(wf), "--engine", engine, "--time",
                 str(budget), "--json", "--exclude", str(ex), "--prefer", str(ex),
                 "--theme", "abbaaaa", "--max-shared-substring", "5"])
    elapsed = time.monotonic() - t0
    out, err = capsys.readouterr()
    assert code in (1, 3), out + err
    assert elapsed <= budget * 1.1 + 1.0
    assert "Traceback" not in out + err


@pytest.mark.slow
def test_step_budget_holds_with_a_theme(tmp_path):
    grid, wf, _ = _parity_case(tmp_path)
    from cryptocomp.crossword import read_grid
    from cryptocomp.index.freqdict import load_freqdict

    idx = Index.from_counts(load_freqdict(wf).counts)
    result = fill(read_grid(grid), idx, engine="csp", steps=500,
                  rules=FillRules(theme=("abbaaaa", "aabbaaa")))
    assert result.status == "budget" and result.steps <= 500


@pytest.mark.slow
def test_arrow_word_attempts_keep_the_word_rules():
    """``swedish``'s fills take the same rules: excluded words, a theme word, shared runs."""
    from cryptocomp.arrow.clues import load_clues
    from cryptocomp.arrow.generator import (
        ArrowError,
        ArrowParams,
        build_workshop,
        check_word_rules,
        fill_attempt,
    )

    book = load_clues("wordnet")
    english = Index.from_counts({w: book.senses(w) for w in book if len(w) <= 8},
                                name="wn8", params={"lang": "en"})
    shop = build_workshop(ArrowParams(7, 7, phrases="none"), english, clues=book)
    exclude = frozenset(shop.index.words[:50])
    rules = FillRules(exclude=exclude, theme=("garden",), max_shared=3)
    params = ArrowParams(7, 7, phrases="none", word_rules=rules)
    check_word_rules(params, shop)
    made = [a for a in (fill_attempt(shop.lexicon, params, seed) for seed in range(12)) if a.ok]
    assert made
    for a in made:
        answers = [w[0] for w in a.words]
        assert "garden" in answers and not exclude & set(answers)
        assert all(_run(u, v) <= 3 for u, v in itertools.combinations(answers, 2))
    for theme in (("qqqzzz",), ("abcdefghijklm",)):
        with pytest.raises(ArrowError, match="theme word"):
            check_word_rules(ArrowParams(7, 7, word_rules=FillRules(theme=theme)), shop)
