"""The word-sum counter and the list generator against brute force, and Cryptagen's demo
lists (tests/data/cryptagen, BSD-3) giving at least its puzzles."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.cryptarithm.exploration import counted, explore, frontier
from cryptocomp.cryptarithm.generation import Generation, GenerationSpec, generate, normalised
from cryptocomp.cryptarithm.lineform import count_linear, word_table
from cryptocomp.cryptarithm.numberwords import doubly_true_spec
from cryptocomp.cryptarithm.wordsum import count_word_sum
from cryptocomp.errors import QueryError

DATA = Path(__file__).parent / "data" / "cryptagen"


def _value(word: str, fill: dict[str, int]) -> int:
    return int("".join(str(fill[ch]) for ch in word))


def _brute(left: list[str], right: str, op: str = "+", minus: tuple[str, ...] = ()) -> int:
    """Solutions of ``left op ... - minus = right`` by trying every assignment."""
    symbols = list(dict.fromkeys("".join([*left, *minus, right])))
    if len(symbols) > 10:
        return 0
    leading = {w[0] for w in (*left, *minus, right) if len(w) > 1}
    count = 0
    for digits in itertools.permutations(range(10), len(symbols)):
        fill = dict(zip(symbols, digits))
        if any(fill[s] == 0 for s in leading):
            continue
        values = [_value(w, fill) for w in left]
        total = sum(values) if op == "+" else __import__("math").prod(values)
        count += total - sum(_value(w, fill) for w in minus) == _value(right, fill)
    return count


_word = st.text("abcde", min_size=1, max_size=3)


@settings(max_examples=40, deadline=None)
@given(st.lists(_word, min_size=1, max_size=3), st.lists(_word, max_size=2), _word,
       st.sampled_from("+*"))
def test_counter_matches_brute_force(left: list[str], minus: list[str], right: str,
                                     op: str) -> None:
    minus_t = tuple(minus) if op == "+" else ()
    if op == "+":   # the counter's contract: the right word is the longest
        right = right + "a" * max(0, max(map(len, [*left, *minus_t])) - len(right))
    assert count_word_sum(left, right, op, cap=10**6, minus=minus_t) == _brute(
        left, right, op, minus_t)


def _brute_linear(coef: dict[str, int], leading: set[str], base: int) -> int:
    """Solutions of ``sum(coef * digit) == 0`` by trying every injective assignment."""
    symbols = list(coef)
    return sum(1 for digits in itertools.permutations(range(base), len(symbols))
               if not any(d == 0 and s in leading for s, d in zip(symbols, digits))
               and sum(coef[s] * d for s, d in zip(symbols, digits)) == 0)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from("abcdef"), st.integers(-120, 120), min_size=1,
                       max_size=5), st.sets(st.sampled_from("abcdef")),
       st.integers(2, 10), st.integers(1, 5))
def test_linear_counter_matches_brute_force(coef: dict[str, int], leading: set[str],
                                            base: int, cap: int) -> None:
    leading &= set(coef)
    count, fill = count_linear(coef, leading, base, cap)
    assert count == min(cap, _brute_linear(coef, leading, base))
    if count:
        assert sum(coef[s] * d for s, d in fill.items()) == 0
        assert len(set(fill.values())) == len(fill) and max(fill.values()) < base
        assert all(fill[s] for s in leading)


@settings(max_examples=30, deadline=None)
@given(st.lists(_word, min_size=1, max_size=3), st.lists(_word, max_size=2), _word)
def test_linear_counter_matches_column_counter(left: list[str], minus: list[str],
                                               right: str) -> None:
    right = right + "a" * max(0, max(map(len, [*left, *minus])) - len(right))
    coef: dict[str, int] = {}
    for sign, words in ((1, left), (-1, [*minus, right])):
        for w in words:
            for place, ch in enumerate(reversed(w)):
                coef[ch] = coef.get(ch, 0) + sign * 10 ** place
    leading = {w[0] for w in (*left, *minus, right) if len(w) > 1}
    assert count_linear(coef, leading, 10, 10**6)[0] == count_word_sum(
        left, right, cap=10**6, minus=tuple(minus))


def test_counter_known() -> None:
    assert count_word_sum(["send", "more"], "money", cap=10) == 1
    assert count_word_sum(["a", "b"], "c", cap=100) == 32


def _brute_generation(words: tuple[str, ...]) -> set:
    """Every unique ``a + b + ... = z`` of distinct list words, by trying every subset."""
    out = set()
    for k in range(2, len(words)):
        for left in itertools.combinations(words, k):
            for right in words:
                if right not in left and _brute(list(left), right) == 1:
                    out.add(normalised(" + ".join(left) + " = " + right))
    return out


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.lists(st.text("abcdef", min_size=1, max_size=2), min_size=3, max_size=4,
                unique=True))
def test_generation_matches_brute_force(words: list[str]) -> None:
    got = {normalised(g.puzzle) for g in generate(GenerationSpec(tuple(words)))}
    assert got == _brute_generation(tuple(words))


def _brute_free(words: tuple[str, ...]) -> set:
    """Every unique ``a + ... = c + ...`` of disjoint list word sets, by brute force."""
    out = set()
    for k in range(3, len(words) + 1):
        for chosen in itertools.combinations(words, k):
            for split in range(1, k):
                for left in itertools.combinations(chosen, split):
                    right = tuple(w for w in chosen if w not in left)
                    if len(left) < len(right):
                        continue
                    longest = max(chosen, key=len)
                    same, other = (left, right) if longest in left else (right, left)
                    minus = tuple(w for w in same if w != longest)
                    if _brute(list(other), longest, minus=minus) == 1:
                        out.add(frozenset((frozenset(left), frozenset(right))))
    return out


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.lists(st.text("abcde", min_size=1, max_size=2), min_size=3, max_size=4,
                unique=True))
def test_free_generation_matches_brute_force(words: list[str]) -> None:
    got = {frozenset((frozenset(g.left), frozenset(g.right)))
           for g in generate(GenerationSpec(tuple(words), right="free"))}
    assert got == _brute_free(tuple(words))


def _lines(name: str) -> list[str]:
    return [w.strip() for w in (DATA / name).read_text().splitlines() if w.strip()]


@pytest.mark.parametrize("name", ["planets", "europeans", "rainbow"])
def test_cryptagen_demo_lists(name: str) -> None:
    spec = GenerationSpec(tuple(_lines(f"{name}.txt")))
    got = {normalised(g.puzzle) for g in generate(spec)}
    assert {normalised(p) for p in _lines(f"{name}.db.txt")} <= got


def test_fixed_right_member() -> None:
    spec = GenerationSpec(tuple(_lines("planets.txt")), right="fixed", fixed="planets")
    got = {g.puzzle for g in generate(spec)}
    assert got == {"saturn + uranus = planets", "mars + saturn + uranus + neptune = planets"}


def test_every_solution_holds() -> None:
    for g in generate(GenerationSpec(tuple(_lines("rainbow.txt")))):
        assert sum(_value(w, g.solution) for w in g.left) == _value(g.right[0], g.solution)


def test_doubly_true_french() -> None:
    got = [g.puzzle for g in generate(doubly_true_spec(0, 100, "fr"))]
    assert got == ["zero + un + trois + onze + quinze = trente"]


def test_bad_specs_one_line() -> None:
    for bad in ({"right": "sideways"}, {"right": "fixed"}, {"op": "-"}, {"max_words": 2}):
        with pytest.raises(QueryError):
            GenerationSpec(("a", "b", "c"), **bad)
    with pytest.raises(QueryError, match="spells"):
        doubly_true_spec(0, 10, "xx")


@pytest.mark.slow
def test_greek_letters_exactly_cryptagens() -> None:
    got = {normalised(g.puzzle) for g in generate(GenerationSpec(tuple(_lines("alpha.txt"))))}
    assert got == {normalised(p) for p in _lines("alpha.db.txt")}


@pytest.mark.parametrize(("lang", "size"), [("en", 12), ("it", 13)])
def test_doubly_true_at_least_cryptagens(lang: str, size: int) -> None:
    spec = doubly_true_spec(0, 100, lang)
    values = dict(zip(spec.words, spec.values or ()))
    got = {normalised(g.puzzle) for g in generate(spec)}
    assert len(got) == size
    theirs = {normalised(p) for p in _lines(f"{lang}-1-500.db.txt")}   # [1, 500]: keep [0, 100]
    assert {(a, b) for a, b in theirs if (a | b) <= values.keys()} <= got
    for left, right in got:   # true in numbers
        assert sum(values[w] for w in left) == sum(values[w] for w in right)


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 40), st.integers(1, 3))
def test_search_slices_resume_exactly(budget: int, room: int) -> None:
    """The compiled search stopped every few steps finds what one long run finds."""
    words = tuple(_lines("rainbow.txt"))
    whole = Generation(GenerationSpec(words))
    expected = [g.puzzle for g in whole]
    table = word_table(whole.words)
    fr = frontier(table, range(len(words)), base=10, min_words=3, max_words=None,
                  last=len(words), values=None, least_sum=0)
    got = [" + ".join(whole.words[i] for i in f.left) + " = " + whole.words[f.right]
           for found in explore(fr, budget, room) for f in found]
    assert got == expected and counted(fr) == whole.candidates


def test_deadline_stops_the_search() -> None:
    gen = generate(GenerationSpec(tuple(_lines("colors.txt")), max_words=7), deadline=0.0)
    assert len(list(gen)) < 10 and not gen.complete


def test_word_with_too_many_symbols_is_in_no_puzzle() -> None:
    words = ("abcdefghijkl", "ab", "cd", "ef")   # 12 symbols: no digit for each
    got = {normalised(g.puzzle) for g in generate(GenerationSpec(words))}
    assert got == {normalised(g.puzzle) for g in generate(GenerationSpec(words[1:]))}
    assert got == _brute_generation(words[1:])
    table = word_table(("abcdefghijk", "ab"))   # its symbols counted, its values never used
    assert table.present[0].sum() == 11 and not table.coef[0].any()


def _brute_valued(words: tuple[str, ...], values: tuple[int, ...], least: int) -> set:
    """Every unique sum of distinct words true in their values too, by brute force."""
    value = dict(zip(words, values))
    out = set()
    for k in range(2, len(words)):
        for left in itertools.combinations(words, k):
            total = sum(value[w] for w in left)
            for right in words:
                if (right not in left and value[right] == total >= least
                        and _brute(list(left), right) == 1):
                    out.add(normalised(" + ".join(left) + " = " + right))
    return out


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.lists(st.text("abcdef", min_size=1, max_size=2), min_size=3, max_size=5,
                unique=True), st.data())
def test_valued_generation_matches_brute_force(words: list[str], data: st.DataObject) -> None:
    """Doubly-true generation (words with numbers) and a fixed right word vs brute force."""
    values = tuple(data.draw(st.lists(st.integers(0, 4), min_size=len(words),
                                      max_size=len(words))))
    least = data.draw(st.integers(0, 3))
    spec = GenerationSpec(tuple(words), values=values, least_sum=least)
    got = {normalised(g.puzzle) for g in generate(spec)}
    assert got == _brute_valued(tuple(words), values, least)
    fixed = GenerationSpec(tuple(words), right="fixed", fixed=words[-1])
    expected = {p for p in _brute_generation(tuple(words)) if p[1] == {words[-1]}}
    assert {normalised(g.puzzle) for g in generate(fixed)} == expected


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["rainbow", "planets", "europeans"]), st.integers(1, 400),
       st.sampled_from([("+", "unique"), ("*", "unique"), ("+", "free")]))
def test_step_budget_stops_at_its_candidates(name: str, steps: int,
                                             shape: tuple[str, str]) -> None:
    """``steps`` candidates at most (the compiled search may close the one left side it
    was in: a right word each at most), and what was found is the unbudgeted run's start."""
    op, right = shape
    spec = GenerationSpec(tuple(_lines(f"{name}.txt")), op=op, right=right,
                          max_words=4 if right == "free" else None)
    whole = generate(spec)
    expected = [g.puzzle for g in whole]
    gen = generate(spec, steps=steps)
    got = [g.puzzle for g in gen]
    assert got == expected[:len(got)]
    compiled = op == "+" and right == "unique"
    margin = len(spec.words) if compiled else 0
    if whole.candidates < steps:   # the budget is never reached: the whole run
        assert gen.complete and got == expected and gen.candidates == whole.candidates
    elif whole.candidates > steps:
        assert not gen.complete and steps <= gen.candidates <= steps + margin


def test_deadline_holds_when_no_candidate_is_counted() -> None:
    """A free-sum search whose nodes all fail their bounds counts no candidate: the clock
    is looked at by the nodes, so the budget still holds (it once ran on for minutes)."""
    import random
    import time

    from cryptocomp.cryptarithm.harvest import harvest

    rng = random.Random(5)
    words = sorted({"".join(rng.choice("abcdefghij") for _ in range(rng.randint(3, 6)))
                    for _ in range(300)})
    start = time.monotonic()
    done = harvest(GenerationSpec(tuple(words), right="free"), seconds=0.3)
    assert done.stop == "time" and time.monotonic() - start < 0.3 * 1.1 + 0.1


def test_a_stopped_free_search_unwinds_without_visiting_more_nodes(monkeypatch) -> None:
    """Once the clock has stopped a free-sum search, the words left at each depth are not
    visited: only the calls already on the stack return (they once ran on by a tenth of
    the budget on a busy machine)."""
    import random

    from cryptocomp.cryptarithm.generation import SearchState

    rng = random.Random(5)
    words = sorted({"".join(rng.choice("abcdefghij") for _ in range(rng.randint(3, 6)))
                    for _ in range(300)})
    after = []
    tick = SearchState.tick

    def counting(self: SearchState) -> bool:
        stopped = tick(self)
        if stopped:
            after.append(1)
        elif self.nodes == 5000:    # the clock as read now and then: past the deadline
            self.deadline = 0.0
        return stopped

    monkeypatch.setattr(SearchState, "tick", counting)
    gen = generate(GenerationSpec(tuple(words), right="free"), deadline=float("inf"))
    list(gen)
    assert not gen.complete and 0 < len(after) <= len(words)
