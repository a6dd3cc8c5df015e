"""Fuzzing the fillers' word-option inputs: ``--exclude``/``--prefer`` list files and
theme words.  Whatever the bytes, the reader returns the list's words or raises one
GridError whose message is one line; a list that reads fills a tiny grid under its rules."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp import Index
from cryptocomp.crossword import FillRules, Grid, fill
from cryptocomp.crossword.check import fill_problems
from cryptocomp.crossword.grid import GridError
from cryptocomp.crossword.rules import read_word_list
from cryptocomp.index.alphabet import normalize

SCALE = max(1, settings.default.max_examples // 100)
FUZZ = settings(max_examples=100 * SCALE, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
WORDS = {"car": 9, "cat": 8, "cob": 7, "ten": 6, "bun": 5, "tar": 4, "arc": 3, "nib": 2}
INDEX = Index.from_counts(WORDS, name="fuzz")
GRID = Grid.from_rows(["...", ".#.", "..."])
LINES = st.lists(st.one_of(st.sampled_from(sorted(WORDS) + ["", " ", "x y", "a 1", "é"]),
                           st.text(max_size=8)), max_size=8)


@FUZZ
@given(data=st.one_of(st.binary(max_size=64), LINES.map(lambda ls: "\n".join(ls).encode())))
def test_word_list_files_read_or_refuse_in_one_line(tmp_path, data):
    path = tmp_path / "list.txt"
    path.write_bytes(data)
    try:
        words = read_word_list(path, "--exclude list")
    except GridError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    assert words and all(w and w == w.lower() for w in words)
    result = fill(GRID, INDEX, engine="csp", steps=10_000,
                  rules=FillRules(exclude=frozenset(words)))
    for f in result.fills:
        assert fill_problems(GRID, set(WORDS), f, exclude=words) == []


@FUZZ
@given(theme=st.lists(st.one_of(st.sampled_from(sorted(WORDS) + ["CAR", "Ten"]),
                                st.text(max_size=5)), max_size=3))
def test_theme_words_fill_or_refuse_in_one_line(theme):
    try:
        rules = FillRules(theme=tuple(theme))
        result = fill(GRID, INDEX, engine="csp", steps=10_000, rules=rules)
    except GridError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    for f in result.fills:
        assert fill_problems(GRID, set(WORDS), f, theme=[normalize(t) for t in theme]) == []
