"""Every number of every command follows one rule (cryptocomp.numbers, cli.options): ASCII
digits, bounds named in --help and in the one error line, values that fit the engines
(issue 31: items 1, 2, 9, 14, 16, 17)."""

from __future__ import annotations

import argparse
import io
import re
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp import Index, WordFilter
from cryptocomp.cli import build_parser, main
from cryptocomp.cli.options import MAX_SEED, MIN_SEED, Seconds, Whole, limit
from cryptocomp.crossword import MAX_FILLS, MAX_STEPS, Grid, GridError, fill
from cryptocomp.errors import CryptocompError
from cryptocomp.numbers import MAX_WHOLE, NumberError, read_real, read_whole
from cryptocomp.prompt.settings import parse_limit, parse_minfreq, parse_top

WORDS = {"money": 500, "honey": 200, "send": 400, "more": 300, "some": 250, "tea": 90,
         "eat": 70, "ate": 60, "ab": 3, "ba": 2, "aa": 1}


@pytest.fixture
def dict_path(tmp_path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in WORDS.items()), encoding="utf-8")
    return path


@pytest.fixture
def row(tmp_path) -> Path:
    path = tmp_path / "row.txt"
    path.write_text("....\n", encoding="utf-8")
    return path


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved, sys.stdin = sys.stdin, io.StringIO("")
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def refused(argv: list[str]) -> str:
    """The one error line of a command that must fail with status 2."""
    status, _, err = run(argv)
    lines = [line for line in err.splitlines() if "saved index" not in line]
    assert status == 2 and len(lines) == 1 and lines[0].startswith("cryptocomp: error: "), err
    return lines[0]


# -- the rule ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [("0", 0), ("42", 42), (" 7 ", 7), ("1_000", 1000),
                                         ("400,000", 400_000), ("-5", -5),
                                         (str(MAX_WHOLE), MAX_WHOLE)])
def test_whole_numbers_read(text, value):
    assert read_whole(text, -10) == value


@pytest.mark.parametrize("text", ["", " ", "+5", "٣", "５", "1e3", "1.0", "0x10", "1__0", "_1",
                                  "1_", "1 000", "−1", "nan", "inf", "- 5", "1,,0"])
def test_not_whole_numbers(text):
    with pytest.raises(NumberError) as exc:
        read_whole(text)
    assert exc.value.reason == "syntax"


def test_huge_whole_numbers_are_out_of_range_without_converting():
    for text in ["9" * 5000, "1" + "0" * 4299, str(MAX_WHOLE + 1)]:  # int() refuses 4,300 digits
        with pytest.raises(NumberError) as exc:
            read_whole(text)
        assert exc.value.reason == "high"
    with pytest.raises(NumberError) as exc:
        read_whole("-" + "9" * 5000, -10)
    assert exc.value.reason == "low"
    assert not any(ch in str(exc.value) for ch in "\n\r") and len(str(exc.value)) < 80


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "infinity", "1e309", "٣", "0x1p3", "+1",
                                  "", "1,5"])
def test_real_numbers_are_finite_ascii_decimals(text):
    with pytest.raises(NumberError):
        read_real(text, 0.0, 1e300)


def test_real_numbers_read():
    assert [read_real(t, 0.0, 1e6) for t in ["2", "0.5", ".5", "1e3", "1_000.5", "3."]] == \
        [2.0, 0.5, 0.5, 1000.0, 1000.5, 3.0]
    with pytest.raises(NumberError):
        read_real("0", 0.0, 1.0, above=True)


def test_the_prompt_takes_the_same_rule():
    assert parse_top("1,000") == 1000 and parse_limit("400_000") == 400_000
    for text in ["٣", "+5", "1e3", "_5", "9" * 30]:
        with pytest.raises(CryptocompError, match="wants a positive whole number"):
            parse_limit(text)
    assert parse_minfreq("0.5") == parse_minfreq("1/2")
    for text in ["٣", "١/٢", "+1", "1/0", "nan"]:
        with pytest.raises(CryptocompError, match="wants a positive number"):
            parse_minfreq(text)
    with pytest.raises(CryptocompError, match="from 1e-30 to 1,000,000"):
        parse_minfreq("1" * 5000 + "/3")  # int() would refuse the digits with a traceback


# -- every number option ------------------------------------------------------------------------

def _parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """(command, parser) of every subcommand."""
    top = build_parser()
    out = []
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, parser in action.choices.items():
                nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
                for sub in nested:
                    out += [(f"{name} {n}", p) for n, p in sub.choices.items()]
                out.append((name, parser))
    return out


def _number_actions():
    """(command, option or positional, its type) of every number a command takes."""
    return [(cmd, (a.option_strings or [a.dest])[0], a.type) for cmd, parser in _parsers()
            for a in parser._actions
            # serve is left out: a valid port would start a server (test_studio_api has it)
            if (isinstance(a.type, (Whole, Seconds)) or a.type is limit) and cmd != "serve"]


def test_no_option_takes_int_or_float():
    """int() takes '٣' and '1_000' but not '1,000', float() takes nan and inf: every number
    goes through the one rule (issue 31, item 14)."""
    loose = [(cmd, a.option_strings or a.dest) for cmd, parser in _parsers()
             for a in parser._actions if a.type in (int, float)]
    assert loose == []
    assert len(_number_actions()) >= 30


def test_every_number_option_names_its_bounds_in_its_help():
    for cmd, parser in _parsers():
        for action in parser._actions:
            if isinstance(action.type, (Whole, Seconds)):
                assert action.help and action.help.endswith(action.type.bounds), (cmd, action)


# each command, cheap to run once its options parse (a missing dictionary stops it)
TAILS = {"words": ["??"], "compose": ["send+more"], "solve": ["a+b=c"], "fill": ["g.txt"],
         "square": ["5"], "swedish": ["--size", "6x6"], "rack": ["abc"], "bag": []}
NUMBER_TEXT = st.one_of(
    st.integers(-10**25, 10**25).map(str),
    st.integers(-3, 70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.text(st.characters(categories=["Nd"]), min_size=1, max_size=4),
    st.sampled_from(["", " ", "0", "-0", "1_000", "1,000", "1__0", "_1", "0x10", "+5", "1e3",
                     "1e309", "nan", "inf", "-inf", ".5", "5.", "−1", "1 0", "9" * 5000,
                     "1" + "0" * 30, str(MAX_WHOLE), str(MAX_WHOLE + 1), str(MAX_STEPS),
                     str(MAX_STEPS + 1), str(MIN_SEED), str(MIN_SEED - 1), "off", "all"]))


@pytest.mark.slow
@settings(max_examples=2 * settings.default.max_examples, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_number_option_of_every_command(data, tmp_path):
    """Random numbers to every number option of every subcommand: parsed within its bounds,
    or refused in one line naming the option with status 2; never a traceback.  Slow (some
    10 s): 200 commands run in process, for the 30-odd options and the kinds of text."""
    cmd, option, kind = data.draw(st.sampled_from(_number_actions()), label="option")
    text = data.draw(NUMBER_TEXT, label="value")
    name = cmd.split()[0]
    try:
        value = kind(text)
    except CryptocompError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200
        assert (getattr(kind, "name", None) or option) in str(exc)
        value = None
    else:
        if isinstance(kind, Whole):
            assert kind.low <= value <= kind.high and text.isascii()
        elif isinstance(kind, Seconds):
            assert 0 <= value <= 7 * 24 * 3600 and text.isascii()
    if isinstance(kind, Whole) and re.fullmatch(r"-?[0-9]{1,30}", text) and \
            kind.low <= int(text) <= kind.high:
        assert value == int(text)
    # the whole command: status 2 and one line, or on to the (missing) dictionary
    # square's N is its one positional number
    argv = [name, *TAILS[name], f"{option}={text}"] if option.startswith("-") else [name, text]
    if name != "solve":
        argv += ["--dict", str(tmp_path / "nowhere.txt")]
    status, out, err = run(argv)
    assert status in (0, 1, 2, 3), (argv, err)
    assert "Traceback" not in out + err
    if status == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("cryptocomp: error: "), (argv, err)


@pytest.mark.parametrize("option", ["--top", "--minfreq", "--limit"])
@pytest.mark.parametrize("text", ["٣", "1e309", "nan", "9" * 5000, "-1", "+5"])
def test_the_prompt_options(option, text, dict_path):
    line = refused([f"{option}={text}", "--dict", str(dict_path)])
    assert option in line


# -- the quoted cases ----------------------------------------------------------------------------

def test_huge_step_budgets_are_refused_not_overflowed(dict_path, row):
    """`fill --steps 99999999999999999999999` raised OverflowError in lane.py (item 2)."""
    for argv in (["fill", str(row)], ["swedish", "--size", "6x6", "--clues", "none"]):
        line = refused(argv + ["--dict", str(dict_path), "--steps", "9" * 23])
        assert "--steps must be between" in line and "4,611,686,018,427,387,904" in line
    with pytest.raises(GridError, match="the step budget must be 0 to"):
        fill(Grid.from_rows(["...."]), Index.from_counts(WORDS), steps=10 ** 23)


def test_the_largest_numbers_allowed_fit_the_engines(dict_path, row):
    """Every bound is one the engines hold: a fill at all of them at once runs."""
    status, out, err = run(["fill", str(row), "--dict", str(dict_path), "--steps",
                            str(MAX_STEPS), "--seed", str(MAX_SEED), "--letter-branch",
                            str(MAX_WHOLE), "--top", str(MAX_WHOLE), "--count", str(MAX_FILLS),
                            "--min-count", "0", "--time", "604800", "--engine", "csp"])
    assert status == 0 and "filled 3 ways (all fills)" in out, err
    # CaDiCaL cut a conflict budget to 32 bits: 2**32 and 2**62 conflicts were none at all
    for steps in (2**32, MAX_STEPS):
        status, out, err = run(["fill", str(row), "--dict", str(dict_path), "--seed",
                                str(MIN_SEED), "--steps", str(steps), "--engine", "sat"])
        assert status == 0 and "filled 1 way" in out, (steps, out, err)


def test_counts_of_fills_are_bounded(dict_path, row):
    """--count K kept K fills in memory however large (item 9): at most MAX_FILLS."""
    line = refused(["fill", str(row), "--dict", str(dict_path), "--count", "9" * 23])
    assert f"--count must be between 1 and {MAX_FILLS:,}" in line
    with pytest.raises(GridError, match="count must be 1 to 10,000"):
        fill(Grid.from_rows(["...."]), Index.from_counts(WORDS), count=MAX_FILLS + 1)
    for argv in (["fill", str(row), "--attempts"], ["swedish", "--size", "6x6", "--count"],
                 ["swedish", "--size", "6x6", "--attempts"]):
        line = refused(argv + ["9" * 23, "--dict", str(dict_path)])
        assert "must be between 1 and 1,000,000,000" in line


@pytest.mark.parametrize("value", ["nan", "inf", "1e309", "-1", "0"])
def test_swedish_time_is_a_real_budget(dict_path, value):
    """`swedish --time nan|inf|1e309` was accepted, unlike fill and bag (item 14)."""
    line = refused(["swedish", "--size", "6x6", "--dict", str(dict_path), f"--time={value}"])
    assert "--time must be a positive number of seconds, at most 604,800 (a week)" in line


def test_lengths_agree(dict_path, row):
    """`fill --min-length -1` was accepted while --max-length -1 was refused (item 14)."""
    for option in ("--min-length", "--max-length"):
        assert "must not be negative" in refused(["fill", str(row), "--dict", str(dict_path),
                                                  f"{option}=-1"])
        assert "must be at least 1" in refused(["fill", str(row), "--dict", str(dict_path),
                                                option, "0"])


@pytest.mark.parametrize("argv", [["fill", "ROW", "--top"], ["fill", "ROW", "--min-count"],
                                  ["fill", "ROW", "--steps"], ["fill", "ROW", "--seed"],
                                  ["square", "٣"], ["words", "??", "--top"],
                                  ["compose", "send+more", "--min-length"],
                                  ["solve", "a+b=c", "--cap"], ["bag", "--max-length"],
                                  ["swedish", "--size", "6x6", "--repairs"],
                                  ["fill", "ROW", "--jobs"], ["rack", "abc", "--top"]])
def test_unicode_digits_are_no_number_anywhere(argv, dict_path, row):
    """int() takes Arabic-Indic digits: some options took them, others not (item 14)."""
    argv = [str(row) if a == "ROW" else a for a in argv]
    if argv[-1].startswith("-"):
        argv.append("٣")
    line = refused(argv + ["--dict", str(dict_path)])
    assert "'٣'" in line and "(digits 0-9)" in line


def test_swedish_size_and_cluster_take_ascii_digits(dict_path, row):
    assert "expected WxH" in refused(["swedish", "--size", "٦x٦", "--dict", str(dict_path)])
    line = refused(["fill", str(row), "--attempts", "2", "--cluster", "local:٣",
                    "--dict", str(dict_path)])
    assert "--cluster takes local:N with N >= 1" in line


@pytest.mark.parametrize("argv", [["compose", "send+more"], ["words", "????"], ["rack", "abc"],
                                  ["fill", "ROW"]])
def test_top_zero_is_refused_everywhere(argv, dict_path, row):
    """`--top 0` printed nothing with status 0 in compose, words and rack (item 16)."""
    argv = [str(row) if a == "ROW" else a for a in argv]
    assert "--top must be at least 1, not '0'" in refused(argv + ["--top", "0", "--dict",
                                                                  str(dict_path)])


def test_a_min_count_above_every_word_says_so(dict_path, row):
    """`fill --min-count 1e23` said 'longer than any word of the list (at most 0)' (item 17)."""
    line = refused(["fill", str(row), "--dict", str(dict_path), "--min-count", "600"])
    assert "the word list is empty: no word of" in line
    assert "has a count of at least 600 (the commonest, 'money', has 500)" in line
    assert "longer than any word" not in line
    assert "wants a whole number" in refused(["fill", str(row), "--dict", str(dict_path),
                                              "--min-count", "1e23"])
    line = refused(["fill", str(row), "--dict", str(dict_path), "--min-count", "1" + "0" * 23])
    assert "--min-count must be between 0 and 9,223,372,036,854,775,807" in line
    with pytest.raises(GridError, match="no word of the dictionary has 9 letters or more"):
        fill(Grid.from_rows(["...."]), Index.from_counts(WORDS), WordFilter(min_length=9))
