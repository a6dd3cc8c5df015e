"""What the commands say and return when there is nothing to show, and the small things of
issue 12, item 10: filters that agree between the prompt and the command line, "no result"
said on stderr with exit status 1, non-UTF-8 lines, the caret under a long expression.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from cryptocomp import Index, WordFilter
from cryptocomp.cli import main
from cryptocomp.errors import ExpressionError
from cryptocomp.prompt import Session, Settings, error_text, run_lines

WORDS = {"money": 50, "honey": 20, "send": 40, "more": 30, "tea": 9, "eat": 7, "мама": 3}


@pytest.fixture
def dict_file(tmp_path) -> Path:
    path = tmp_path / "small.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in WORDS.items()), encoding="utf-8")
    return path


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _err_lines(err: str) -> list[str]:
    """stderr without the one-off note of an index being built."""
    return [line for line in err.splitlines() if "saved index" not in line]


# -- the filters agree --------------------------------------------------------------------

@pytest.mark.parametrize("argv", [["words", "????"], ["compose", "send+more"], ["--limit"]])
def test_limit_zero_is_refused_on_the_command_line_as_at_the_prompt(dict_file, capsys, argv):
    if argv == ["--limit"]:
        argv = ["--limit", "0", "--dict", str(dict_file)]
    else:
        argv = argv + ["--limit", "0", "--dict", str(dict_file)]
    status, out, err = _run(capsys, argv)
    assert status == 2 and out == ""
    assert _err_lines(err) == ["cryptocomp: error: --limit wants a positive whole number or "
                               "'off', not '0'"]
    with pytest.raises(Exception, match=":limit wants a positive whole number or 'off'"):
        Session(Index.from_counts(WORDS)).execute(":limit 0")


def test_limit_off_means_every_word_everywhere(dict_file, capsys):
    status, out, _ = _run(capsys, ["words", "????", "--limit", "off", "--dict", str(dict_file)])
    assert status == 0 and out.split() == ["send", "40", "more", "30", "мама", "3"]
    status, out, _ = _run(capsys, ["words", "????", "--limit", "1", "--dict", str(dict_file)])
    assert status == 1 and out == ""  # the most frequent word, money, has five letters
    session = Session(Index.from_counts(WORDS), settings=Settings(words=WordFilter(top=1)))
    assert session.execute(":limit off").message == "using every word of the dictionary"
    assert session.execute("????").result.total == 3


def test_minfreq_zero_is_refused_and_off_turns_it_off(dict_file, capsys):
    status, _, err = _run(capsys, ["--minfreq", "0", "--dict", str(dict_file)])
    assert status == 2 and "--minfreq wants a positive number of uses per million or 'off'" in err
    session = Session(Index.from_counts(WORDS))
    session.execute(":minfreq 5")
    assert session.execute(":minfreq off").message == "no frequency threshold"


def test_same_pattern_of_a_non_word_is_an_error(dict_file, capsys):
    status, out, err = _run(capsys, ["words", "--same-pattern", "123", "--dict", str(dict_file)])
    assert status == 2 and out == ""
    assert _err_lines(err) == ["cryptocomp: error: '123' is not a word: '1' is not a letter (of "
                               "any alphabet, or of dictionary small-" +
                               err.split("dictionary small-")[1].split(")")[0] + ")"]
    # letters that the dictionary lacks still have a structure: дядя ~ мама
    status, out, _ = _run(capsys, ["words", "--same-pattern", "дядя", "--dict", str(dict_file)])
    assert status == 0 and out == "мама\t3\n"


# -- no result: said on stderr, exit status 1 --------------------------------------------

@pytest.mark.parametrize("argv, note", [
    (["words", "e???"], "no word of small-"),
    (["words", "--same-pattern", "abcdefg"], "has the letter structure of abcdefg"),
    (["compose", "a+b"], "a+b=?: 0 puzzles in small-"),
    (["rack", "zqj"], "can be built from zqj (en tiles)"),
])
@pytest.mark.parametrize("json_output", [False, True])
def test_no_result_is_said_on_stderr_with_exit_status_1(dict_file, capsys, argv, note,
                                                        json_output):
    argv = argv + ["--dict", str(dict_file)] + (["--json"] if json_output else [])
    status, out, err = _run(capsys, argv)
    assert status == 1
    assert out == ("[]\n" if json_output else "")  # stdout is not a terminal here
    lines = _err_lines(err)
    assert len(lines) == 1 and lines[0].startswith("cryptocomp: ") and note in lines[0]


def test_results_exit_0(dict_file, capsys):
    for argv in (["words", "?oney"], ["compose", "send+more"], ["rack", "tea"]):
        status, out, err = _run(capsys, argv + ["--dict", str(dict_file)])
        assert status == 0 and out and not _err_lines(err), argv


def test_solve_with_no_solution_exits_1(capsys):
    status, out, _ = _run(capsys, ["solve", "aa+aa=a"])
    assert status == 1 and out.splitlines()[0] == "aa+aa=a: 0 solutions"
    status, out, _ = _run(capsys, ["solve", "aa+aa=a", "--json"])
    assert status == 1 and json.loads(out)["count"] == 0
    status, out, _ = _run(capsys, ["solve", "send+more=money"])
    assert status == 0 and out.splitlines()[:2] == ["send+more=money: 1 solution",
                                                    "9567+1085=10652"]


def test_exit_statuses_through_a_real_subprocess(dict_file):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "cryptocomp", *args], capture_output=True,
                              text=True, timeout=120, env=os.environ.copy())

    nothing = run("words", "e???", "--dict", str(dict_file))
    bad = run("words", "e???", "--dict", str(dict_file), "--limit", "0")
    found = run("words", "?oney", "--dict", str(dict_file))
    assert (nothing.returncode, bad.returncode, found.returncode) == (1, 2, 0)
    assert "Traceback" not in nothing.stderr + bad.stderr + found.stderr


# -- pipe mode ----------------------------------------------------------------------------

def test_pipe_mode_says_zero_results_on_stderr():
    out, err = io.StringIO(), io.StringIO()
    session = Session(Index.from_counts(WORDS, name="t"), settings=Settings(shown=None))
    assert run_lines(session, ["a+b\n", "e???\n"], out, err) == 0
    assert out.getvalue() == ""
    assert err.getvalue().splitlines() == ["cryptocomp: a+b=?: 0 puzzles in t",
                                           "cryptocomp: e???: 0 words in t"]


def test_pipe_mode_names_lines_that_are_not_utf8(dict_file):
    data = b"?oney\nab\xf5c\n\xff\xfe?\n?oney\n"
    proc = subprocess.run([sys.executable, "-m", "cryptocomp", "--dict", str(dict_file)],
                          input=data, capture_output=True, timeout=120, env=os.environ.copy())
    assert proc.returncode == 2
    err = [line for line in proc.stderr.decode("utf-8").splitlines() if "saved index" not in line]
    assert err == ["cryptocomp: error: line 2 is not UTF-8 text: ab\\xf5c",
                   "cryptocomp: error: line 3 is not UTF-8 text: \\xff\\xfe?"]
    assert proc.stdout.decode("utf-8").count("money") == 2  # the other lines ran
    proc = subprocess.run([sys.executable, "-m", "cryptocomp", "--dict", str(dict_file), "--json"],
                          input=b"ab\xf5c\n", capture_output=True, timeout=120,
                          env=os.environ.copy())
    value = json.loads(proc.stdout.decode("utf-8"))  # valid UTF-8 JSON, not the raw byte
    assert value["query"] == "ab\\xf5c" and "line 1 is not UTF-8" in value["error"]


# -- the caret under a long expression -----------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(text=st.text(st.sampled_from("ab+*-/()?я語"), min_size=1, max_size=400),
       data=st.data(), width=st.integers(12, 200))
def test_caret_stays_under_its_column_however_long_the_expression(text, data, width):
    position = data.draw(st.integers(0, len(text)))
    exc = ExpressionError("bad", position, text)
    first, shown, caret = error_text(exc, width=width).split("\n")
    assert first == f"error: bad (at position {position + 1})"
    assert cell_len(shown) <= width - 1 and cell_len(caret) <= width - 1  # no line wraps
    assert caret.strip() == "^" and shown.startswith("  ") and caret.startswith("  ")
    column = len(caret) - 1
    before = ""
    for ch in shown:  # the character the caret's column falls on
        if cell_len(before) >= column:
            break
        before += ch
    at = shown[len(before):len(before) + 1]
    assert cell_len(before) == column  # the caret never points into a wide character
    if position < len(text):
        assert at == text[position]
        inner = shown[2:].removeprefix("…").removesuffix("…")
        assert inner in text  # a window of the expression, not something else
    else:
        assert at == "" or at == "…"
    if cell_len(text) + 1 < width - 3:
        assert shown == "  " + text  # short expressions are shown whole


def test_control_characters_under_an_error_are_escaped_and_the_caret_follows():
    # found by the fuzz suite: a \x1e or \u2028 in a piped line split its caret lines
    text = "a\x1eb\u2028\t*c"
    exc = ExpressionError("bad", text.index("*"), text)
    for width in (None, 12, 80):
        _, shown, caret = error_text(exc, width=width).split("\n")
        assert not any(ord(ch) < 32 or ch in "\u2028\u2029\x85" for ch in shown + caret)
        assert shown[caret.index("^")] == "*"


def test_caret_without_a_width_shows_the_whole_expression():
    text = "+".join(["send"] * 40) + "+*more"
    exc = ExpressionError("empty operand before '*'", text.index("*"), text)
    _, shown, caret = error_text(exc).split("\n")
    assert shown == "  " + text and caret == "  " + " " * text.index("*") + "^"
