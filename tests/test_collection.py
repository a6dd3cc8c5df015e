"""Cryptator's published collection (tests/data/cryptator: a stratified sample of every
file and kind, a larger sample, the base-15 and base-16 puzzles) counted by the exact engine:
one solution each, but for the multiplications that have two (both listed and checked)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cryptocomp.cryptarithm.engine import solve_system
from cryptocomp.cryptarithm.grammar import parse_system
from cryptocomp.cryptarithm.system import holds_system

DATA = Path(__file__).parent / "data" / "cryptator"
# Cryptator lists them as unique; each has a second solution, which holds_system confirms
TWO_SOLUTIONS = {"tau * chi * psi = iota * xi * pi", "lelantos = ceos * leto",
                 "eta * tau * chi = beta * nu * phi"}
# the base-15 and base-16 puzzles are not unique under the rules: single-letter words
# (a, i) may be 0, and other solutions exist too
OTHER_BASE_COUNTS = [5, 4, 1]


def _read(name: str) -> list[tuple[str, str]]:
    """(first field, puzzle) of every line of a sample file."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("\t", 1)) for line in lines if line and not line.startswith("#")]  # type: ignore[misc]


def _check(puzzles: list[tuple[str, str]]) -> None:
    wrong = []
    for name, text in puzzles:
        s = parse_system(text)
        got = solve_system(s, cap=3)
        want = 2 if text.strip() in TWO_SOLUTIONS else 1
        if not got.complete or got.count != want:
            wrong.append((name, text, got.count))
        assert all(holds_system(s, f) for f in got.solutions), text
    assert not wrong


def test_the_sample_holds_every_kind():
    sample = _read("sample.txt")
    names = {n for n, _ in sample}
    assert len(sample) >= 300
    assert {n.split("/")[0] for n in names} >= {"crosswords", "long-multiplications",
                                                 "multiplications", "samples"}
    assert any(n.startswith("hi-") for n in names)               # Devanagari, vowel signs
    assert any(any(c.isdigit() for c in t) for _, t in sample)   # words with digits
    assert any("'" in t for _, t in sample)                      # quoted constants


def test_every_sample_puzzle_has_one_solution():
    _check(_read("sample.txt"))


@pytest.mark.slow
def test_every_puzzle_of_the_larger_sample_has_one_solution():
    _check(_read("larger.txt"))


@pytest.mark.slow
@pytest.mark.parametrize("i", range(3))
def test_base_15_and_16_within_a_minute(i):
    base, text = _read("other-bases.txt")[i]
    s = parse_system(text, base=int(base))
    t = time.perf_counter()
    got = solve_system(s, cap=10)
    assert time.perf_counter() - t <= 60
    assert got.complete and got.count == OTHER_BASE_COUNTS[i] == len(got.solutions)
    assert all(holds_system(s, f) for f in got.solutions)
    assert len({tuple(sorted(f.items())) for f in got.solutions}) == got.count
