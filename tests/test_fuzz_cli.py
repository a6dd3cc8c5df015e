"""Fuzzing the command line, in process (``cryptocomp.cli.main`` with captured output) and in a
few real subprocesses: random and crafted arguments, expressions, dictionaries, grids, racks,
piped queries and broken index files.

Every case holds the documented contract (README, "Errors"): the exit status is 0, 1, 2 or 3;
no traceback and no "internal error" anywhere; every line on stderr is one of cryptocomp's
own ("cryptocomp: ..."); a failure (status 2) says so in exactly one error line; each run
ends within its time bound; memory stays bounded (the process's peak resident size, checked
after every run, and an address-space limit on the subprocesses).

Example counts scale with the Hypothesis profile (tests/conftest.py): derandomized in CI,
``HYPOTHESIS_PROFILE=long`` for 20 times as many fresh examples.  Index-file corruption at
the store level is fuzzed in test_store/test_fuzz_index; here it is the commands that load a
broken index.
"""

from __future__ import annotations

import io
import json
import os
import re
import resource
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from cryptocomp.cli import main

SCALE = max(1, settings.default.max_examples // 100)
FUZZ = settings(max_examples=50 * SCALE, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
SECONDS = 20  # per run: far more than any case needs, far less than a hang
MAX_RSS_MB = 3000  # the test process's peak, however many cases ran

WORDS = {"money": 500, "honey": 200, "send": 400, "more": 300, "some": 250, "tea": 90,
         "eat": 70, "ate": 60, "retains": 40, "nastier": 30, "quiz": 20, "été": 10,
         "мама": 5, "папа": 4, "ab": 3, "ba": 2, "aa": 1}


@dataclass
class Run:
    argv: list[str]
    status: int
    out: str
    err: str
    seconds: float


def run_cli(argv: list[str], stdin: str = "") -> Run:
    """``cryptocomp ARGV`` in process, stdin a pipe holding ``stdin``."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    started = time.monotonic()
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = saved
    return Run(argv, status, out.getvalue(), err.getvalue(), time.monotonic() - started)


def check(run: Run, *, statuses=(0, 1, 2, 3), pipe: bool = False, helped: bool = False) -> Run:
    """The contract every run holds (module docstring); ``helped``: :help was asked for in
    pipe mode, whose table goes to stderr too."""
    what = f"{run.argv!r}: status {run.status}\nstdout {run.out[-800:]!r}\nstderr {run.err!r}"
    try:  # pytest --hypothesis-show-statistics shows the spread of outcomes
        first = next((line for line in run.err.splitlines() if "error:" in line), "")
        event(f"status {run.status} {re.sub(r'[0-9]+', 'N', first[19:50])}")
    except InvalidArgument:  # not inside a Hypothesis test
        pass
    assert run.status in statuses, what
    assert "Traceback" not in run.out + run.err, what
    assert "internal error" not in run.out + run.err, what
    # stderr is read line by line: nothing else may break or overwrite a line
    assert not re.search("[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]", run.err), what
    lines = run.err.split("\n")[:-1] if run.err.endswith("\n") else run.err.split("\n")
    lines = [line for line in lines if line or run.err]
    errors = [line for line in lines if line.startswith("cryptocomp: error:")]
    if pipe:  # one error line per failed query line (an expression's caret lines follow it)
        assert helped or all(line.startswith("cryptocomp: ") or line.startswith("  ")
                             for line in lines), what
    else:
        assert all(line.startswith("cryptocomp: ") for line in lines), what
        if run.status == 2:
            assert len(errors) == 1 and lines[-1] == errors[0], what
        else:
            assert not errors, what
    assert run.seconds < SECONDS, what
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert rss_mb < MAX_RSS_MB, f"{what}\npeak RSS {rss_mb:.0f} MB"
    return run


@pytest.fixture
def dict_path(tmp_path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in WORDS.items()), encoding="utf-8")
    return path


# -- strategies ---------------------------------------------------------------------------

JUNK = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
LETTERS = st.sampled_from(list("abcdemnorsty") + ["é", "м", "а", "п", "ß", "ﬁ", "İ"])
GOOD_NUMBERS = st.integers(1, 40).map(str)
NUMBERS = st.one_of(GOOD_NUMBERS, GOOD_NUMBERS, GOOD_NUMBERS, st.integers(-5, 60).map(str),
                    st.sampled_from(["0", "-1", "1e3", "nan", "inf", "-inf", "1e308", "9" * 30,
                                     "1_000", "1,000", "0x10", " 3", "", "off", "all", "none",
                                     "٣", "+2"]), JUNK)


def _word(draw) -> str:
    return "".join(draw(st.lists(LETTERS, min_size=1, max_size=6)))


@st.composite
def expressions(draw, depth: int = 0) -> str:
    """Expressions of every shape: words, '?', numbers (some huge), every operator, nested
    parentheses (some deep), '=' (sometimes more than one), junk characters anywhere."""
    kind = draw(st.integers(0, 9 if depth < 4 else 3))
    if kind <= 1:
        return _word(draw)
    if kind == 2:
        return "?"
    if kind == 3:
        return draw(st.sampled_from(["", "0", "12", "9" * 40, "٣", "½", " ", "(", ")", "=",
                                     "??", "?a", "a?"]))
    if kind == 4:
        inner = draw(expressions(depth + 1))
        deep = draw(st.sampled_from([1, 1, 2, 49, 50, 51, 300]))
        return "(" * deep + inner + ")" * deep
    if kind == 5:
        return draw(expressions(depth + 1)) + "=" + draw(expressions(depth + 1))
    if kind == 6:
        return draw(JUNK) + draw(expressions(depth + 1))
    op = draw(st.sampled_from(["+", "-", "*", "/", "+", "*"]))
    left, right = draw(expressions(depth + 1)), draw(expressions(depth + 1))
    space = draw(st.sampled_from(["", "", " ", "\t"]))
    return f"{left}{space}{op}{space}{right}"


@st.composite
def operand_chains(draw) -> str:
    """Long sums and products: hundreds of operands (the parser's limits)."""
    n = draw(st.sampled_from([2, 10, 100, 500, 999, 1000, 1001]))
    op = draw(st.sampled_from("+-*/"))
    return op.join(["a"] * n) + draw(st.sampled_from(["", "=?", "=b", "+?"]))


@st.composite
def puzzles(draw) -> str:
    """Well-formed puzzles: words of the test dictionary joined by operators, '?' somewhere."""
    words = draw(st.lists(st.sampled_from(["send", "more", "money", "tea", "eat", "ab", "ba",
                                           "?", "мама"]), min_size=2, max_size=4))
    ops = draw(st.lists(st.sampled_from("+-*/"), min_size=len(words) - 1,
                        max_size=len(words) - 1))
    left = words[0] + "".join(op + w for op, w in zip(ops, words[1:]))
    return left + draw(st.sampled_from(["", "=?", "=money", "=ba", "=?", ""]))


EXPRESSIONS = st.one_of(puzzles(), puzzles(), expressions(), operand_chains())


def _options(draw, names: list[str]) -> list[str]:
    """Up to two of the options, mostly with sensible values (else most runs stop at the
    first bad option and the commands behind them go untried)."""
    argv: list[str] = []
    for name in draw(st.lists(st.sampled_from(names), max_size=2, unique=True)):
        argv += [name, draw(NUMBERS) if draw(st.integers(0, 3)) == 0 else draw(GOOD_NUMBERS)]
    return argv


# -- the commands -------------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_words(dict_path, data):
    draw = data.draw
    target = draw(st.one_of(st.sampled_from(["?oney", "????", "s??d", "мама", "tea", "?"]),
                            st.text("abemnorsty?é", min_size=1, max_size=8), JUNK))
    argv = ["words"] + (["--same-pattern", target] if draw(st.booleans()) else ["--", target])
    argv[1:1] = _options(draw, ["--top", "--limit", "--min-count"])
    if draw(st.booleans()):
        argv.insert(1, "--json")
    argv[1:1] = ["--dict", str(dict_path)]
    run = check(run_cli(argv))
    if run.status == 0 and "--json" in argv:
        assert isinstance(json.loads(run.out), list)


@FUZZ
@given(data=st.data())
@pytest.mark.slow
def test_compose_and_solve(dict_path, data):
    draw = data.draw
    expr = draw(EXPRESSIONS)
    if draw(st.booleans()):
        argv = ["compose", "--dict", str(dict_path)] + _options(
            draw, ["--top", "--limit", "--min-count", "--min-length", "--max-length"])
    else:
        argv = ["solve"] + _options(draw, ["--cap"])
    if draw(st.booleans()):
        argv.append("--json")
    run = check(run_cli(argv + ["--", expr]))
    if run.status in (0, 1) and "--json" in argv:
        json.loads(run.out)


@FUZZ
@given(data=st.data())
def test_rack_and_bag(dict_path, data):
    draw = data.draw
    tiles = draw(st.sampled_from(["en", "fr", "es", "hu", "ca", "pl", "en", "fr", "ru", "xx", "",
                                  "EN"]))
    if draw(st.integers(0, 3)):
        rack = draw(st.one_of(
            st.text("aeinrst?[]zqxé ,", min_size=0, max_size=16),
            st.lists(st.sampled_from(["cs", "sz", "ch", "ll", "qu", "l·l", "a", "e", "?", "[",
                                      "]", "[]", "[x]"]), max_size=8).map(" ".join),
            JUNK))
        argv = ["rack", "--tiles", tiles, "--dict", str(dict_path)] + \
            _options(draw, ["--top"]) + (["--json"] if draw(st.booleans()) else []) + ["--", rack]
    else:
        argv = ["bag", "--tiles", tiles, "--dict", str(dict_path), "--time-limit",
                draw(st.sampled_from(["0.1", "0", "nan", "-1", "inf", "1e308", "x"]))] + \
            _options(draw, ["--max-length"]) + (["--json"] if draw(st.booleans()) else [])
    check(run_cli(argv))


GRID_ROWS = st.one_of(
    st.integers(2, 6).flatmap(lambda w: st.lists(st.text("....#ae", min_size=w, max_size=w),
                                                 min_size=2, max_size=6)),
    st.lists(st.text("..#abc;é?x ", min_size=0, max_size=7), min_size=0, max_size=7))


@st.composite
def grids(draw) -> tuple[str, bytes]:
    """A grid file: text rows, a slot list, an ipuz (JSON, crafted), or junk bytes."""
    kind = draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4]))
    if kind == 0:
        return "grid.txt", "\n".join(draw(GRID_ROWS)).encode()
    if kind == 1:
        w, h = draw(st.integers(-1, 9)), draw(st.integers(-1, 9))
        slots = draw(st.lists(st.tuples(st.integers(-1, 9), st.integers(-1, 9),
                                        st.integers(-1, 9), st.sampled_from("hvx")),
                              max_size=5))
        text = f"{w} {h}\n" + "".join(f"{x} {y} {n} {d}\n" for x, y, n, d in slots)
        return "slots.txt", text.encode()
    if kind == 2:
        w, h = draw(st.integers(-1, 6)), draw(st.integers(-1, 6))
        puzzle = draw(st.lists(st.lists(st.one_of(st.integers(-1, 3), st.sampled_from(
            ["#", ".", "a", None, "", {"cell": 1}, ["x"]])), max_size=6), max_size=6))
        value = {"kind": draw(st.sampled_from([["http://ipuz.org/crossword#1"], ["x"], "y"])),
                 "dimensions": draw(st.sampled_from([{"width": w, "height": h}, {},
                                                     {"width": "5" * 50, "height": 1}, []])),
                 "puzzle": puzzle}
        return "grid.ipuz", json.dumps(value).encode()
    if kind == 3:
        return "deep.ipuz", draw(st.sampled_from([b"[" * 40, b"{" * 40, b"",
                                                  b"\xff\xfe", b'{"kind": 1}']))
    return draw(st.sampled_from(["grid.txt", "grid.ipuz", "x.slots"])), draw(st.binary(
        max_size=64))


@FUZZ
@given(data=st.data())
def test_fill_and_square(dict_path, tmp_path, data):
    draw = data.draw
    if draw(st.integers(0, 3)):
        name, content = draw(grids())
        grid = tmp_path / name
        grid.write_bytes(content)
        argv = ["fill", str(grid)]
    else:
        argv = ["square", draw(NUMBERS)] + draw(st.sampled_from([[], ["--symmetric"],
                                                                ["--double"]]))
    argv += ["--dict", str(dict_path), "--steps", "300"]
    if not draw(st.integers(0, 3)):
        argv += draw(st.sampled_from([["--time", "2"], ["--time", "0"], ["--time", "-1"],
                                      ["--time", "nan"], ["--time", "inf"], ["--steps", "0"],
                                      ["--steps", "-1"], ["--steps", "x"]]))
    argv += draw(st.sampled_from([[], ["--json"], ["--engine", "csp"], ["--engine", "sat"],
                                  ["--count", "2"], ["--svg", str(tmp_path / "g.svg")],
                                  ["--ipuz", str(tmp_path / "o.ipuz")],
                                  ["--svg", str(tmp_path / "no" / "dir" / "g.svg")]]))
    # the search options of the compiled engine, good and bad
    argv += draw(st.sampled_from([[], ["--strategy", "restarts"], ["--strategy", "cells"],
                                  ["--strategy", "words"], ["--strategy", "rows"],
                                  ["--strategy", "bogus"],
                                  ["--engine", "auto", "--strategy", "auto"],
                                  ["--order", "frequency"]]))
    argv += draw(st.sampled_from([[], [], ["--improve", "0.3"], ["--improve", "0"],
                                  ["--improve", "-1"], ["--improve", "nan"],
                                  ["--improve", "inf"], ["--improve", "x"]]))
    argv += _options(draw, ["--top", "--min-length", "--max-length", "--seed",
                            "--letter-branch"])
    check(run_cli(argv))


@FUZZ
@given(data=st.data())
def test_prompt_pipe_mode(dict_path, data):
    draw = data.draw
    lines = draw(st.lists(st.one_of(
        EXPRESSIONS, st.text("abemnorsty?é", min_size=0, max_size=6), JUNK,
        st.sampled_from([":top", ":top 0", ":top all", ":limit 0", ":limit off", ":limit 3",
                         ":minfreq 0", ":minfreq 1e-40", ":minfreq 5", ":same 123", ":same мама",
                         ":save", ":save /nonexistent/dir/x.csv", ":lang xx", ":dict /nope",
                         ":help", ":frob", "#comment", ":q"])), max_size=6))
    argv = ["--dict", str(dict_path)] + _options(draw, ["--top", "--limit", "--minfreq"])
    if draw(st.booleans()):
        argv.append("--json")
    helped = any(re.match(r"\s*:(help|h|\?)(\s|$)", line, re.I) for line in lines)
    run = check(run_cli(argv, stdin="\n".join(lines) + "\n"), pipe=True, helped=helped)
    if "--json" in argv:  # JSON Lines: one object a line ("\n"; a string may hold \x85)
        for line in run.out.split("\n")[:-1]:
            assert isinstance(json.loads(line), dict)


# -- dictionaries and broken index files, through the commands that read them -------------

@st.composite
def dictionary_bytes(draw) -> bytes:
    """A dictionary file: good lines, malformed ones, other encodings, junk."""
    lines = draw(st.lists(st.one_of(
        st.builds(lambda w, c: f"{w} {c}".encode(), st.text("abemnorsty", min_size=1,
                                                             max_size=6),
                  st.integers(-3, 10 ** 25)),
        st.sampled_from([b"", b"   ", b"word", b"two words 5", b"w -1", b"w 1.5", b"w \xff",
                         "é 3".encode("latin-1"), "ш 4".encode("cp1251"), b"\xef\xbb\xbfbom 2",
                         b"a\tb 3", b"?? 2", b"w 9" + b"9" * 30, b"\x00 1", b"a" * 300 + b" 1"]),
        st.binary(max_size=12)), max_size=12))
    return b"\n".join(lines)


@FUZZ
@given(content=dictionary_bytes(), command=st.sampled_from(
    [["words", "??"], ["compose", "ab+ba"], ["rack", "ab?"], ["index", "build"], []]))
def test_any_dictionary_file(tmp_path, content, command):
    path = tmp_path / "fuzz.txt"
    path.write_bytes(content)
    if command == ["index", "build"]:
        argv = command + [str(path)]
    elif command:
        argv = command[:1] + ["--dict", str(path), "--", command[1]]
    else:
        argv = ["--dict", str(path)]
    check(run_cli(argv, stdin="??\n"), pipe=not command)


_GOOD: dict[str, bytes] = {}  # a valid index file's bytes, by path


def _index_file(dict_path: Path) -> Path:
    from cryptocomp.index.store import resolve_source

    return resolve_source(str(dict_path)).index_path


@FUZZ
@given(data=st.data())
def test_broken_index_files(dict_path, data):
    """A valid index file is truncated, bit-flipped or given a crafted header, then the
    commands that load it run: each fails in one line (or rebuilds), never a traceback."""
    draw = data.draw
    path = _index_file(dict_path)
    if str(path) not in _GOOD:  # built once per test, corrupted afresh for each case
        assert run_cli(["index", "build", str(dict_path)]).status == 0
        _GOOD[str(path)] = path.read_bytes()
    good = _GOOD[str(path)]
    how = draw(st.sampled_from(["truncate", "flip", "header", "junk"]))
    if how == "truncate":
        bad = good[:draw(st.integers(0, len(good) - 1))]
    elif how == "flip":
        at = draw(st.integers(0, len(good) - 1))
        bad = good[:at] + bytes([good[at] ^ (1 << draw(st.integers(0, 7)))]) + good[at + 1:]
    elif how == "header":
        magic = b"CRYPTOCOMP-INDEX\0"
        header = draw(st.sampled_from([
            b"{}", b"[]", b'{"format": 1}', b"[" * 60 + b"]" * 60, b"[" * 30_000, b"\xff",
            json.dumps({"format": 1, "payload_length": 10 ** 30}).encode(),
            json.dumps({"format": 1, "payload_length": 2 ** 62, "source": 5,
                        "params": []}).encode(),
            json.dumps({"format": 99}).encode()]))
        length = draw(st.sampled_from([len(header), 0, 2 ** 31, len(header) + 7]))
        bad = magic + min(length, 2 ** 32 - 1).to_bytes(4, "big") + header + good[-40:]
    else:
        bad = draw(st.binary(max_size=64))
    path.write_bytes(bad)
    argv = draw(st.sampled_from([["words", "??", "--dict", str(dict_path)],
                                 ["index", "info", str(path)], ["index", "list"],
                                 ["index", "info", str(path), "--json"],
                                 ["rack", "ab?", "--dict", str(dict_path)]]))
    check(run_cli(argv))


# -- a few real subprocesses --------------------------------------------------------------

def _limited() -> None:
    """In the child: 2 GB of address space, so a runaway allocation fails instead of
    swapping the machine."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


@pytest.mark.slow
@settings(max_examples=6 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_real_subprocesses(dict_path, data):
    draw = data.draw
    argv, stdin = draw(st.sampled_from([
        (["compose", "--dict", str(dict_path), "--", draw(EXPRESSIONS)], ""),
        (["--dict", str(dict_path), "--json"], draw(EXPRESSIONS) + "\n??\n"),
        (["rack", "--dict", str(dict_path), "--tiles", "hu", "--", draw(JUNK)], ""),
        (["words", "--dict", str(dict_path), "--top", draw(NUMBERS), "--", "?" * 3], ""),
        (["bag", "--dict", str(dict_path), "--time-limit", draw(NUMBERS)], ""),
    ]))
    proc = subprocess.run([sys.executable, "-m", "cryptocomp", *argv], input=stdin.encode(),
                          capture_output=True, timeout=120, env=os.environ.copy(),
                          preexec_fn=_limited)
    err = proc.stderr.decode("utf-8", "replace")
    out = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode in (0, 1, 2, 3), (argv, err)
    assert "Traceback" not in out + err and "MemoryError" not in err, (argv, err)
    lines = err.splitlines()
    assert all(re.match(r"cryptocomp: |  ", line) for line in lines), (argv, err)
    if proc.returncode == 2 and argv[0] != "--dict":
        assert sum(line.startswith("cryptocomp: error:") for line in lines) == 1, (argv, err)


# -- known limits, pinned -------------------------------------------------------------------

@pytest.mark.parametrize("operands", [995, 1000, 1001])
@pytest.mark.slow
def test_operand_limit_is_one_error_line(operands):
    """Issue 12 item 5 (fixed on the crypt branch): 991-1000 operands raised RecursionError."""
    check(run_cli(["solve", "+".join(["a"] * operands) + "=b"]), statuses=(0, 1, 2))
    check(run_cli(["compose", "+".join(["a"] * operands) + "=?"]), statuses=(0, 1, 2))


def test_deeply_nested_index_header_is_one_error_line(dict_path):
    """Issue 12 item 6 (fixed on the index branch): the commands that read such a file."""
    assert run_cli(["index", "build", str(dict_path)]).status == 0
    path = _index_file(dict_path)
    header = b"[" * 100_000 + b"]" * 100_000
    path.write_bytes(b"CRYPTOCOMP-INDEX\0" + len(header).to_bytes(4, "big") + header)
    for argv in (["words", "??", "--dict", str(dict_path)], ["index", "list"],
                 ["index", "info", str(path)]):
        check(run_cli(argv))


@pytest.mark.parametrize("content", [
    b"[" * 100_000,
    b'{"kind": ["http://ipuz.org/crossword#1"], "dimensions": {"width": ' + b"5" * 5000 +
    b', "height": 1}, "puzzle": [[0]]}'])
def test_crafted_ipuz_is_one_error_line(tmp_path, dict_path, content):
    grid = tmp_path / "crafted.ipuz"
    grid.write_bytes(content)
    check(run_cli(["fill", str(grid), "--dict", str(dict_path)]), statuses=(2,))


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "0", "-0", "604801"])
def test_fill_time_budget_must_be_finite(dict_path, tmp_path, value):
    """Found by this suite: fill --time nan (and inf) meant no budget at all."""
    grid = tmp_path / "g.txt"
    grid.write_text("....\n....\n", encoding="utf-8")
    run = check(run_cli(["fill", str(grid), "--dict", str(dict_path), f"--time={value}"]),
                statuses=(2,))
    assert "--time must be a positive number of seconds" in run.err


def test_check_catches_what_it_should():
    """The checker itself: a traceback, two error lines, a stray line fail it."""
    bad = [Run([], 2, "", "cryptocomp: error: a\ncryptocomp: error: b\n", 0.1),
           Run([], 2, "", "Traceback (most recent call last):\n", 0.1),
           Run([], 0, "", "oops\n", 0.1), Run([], 130, "", "", 0.1),
           Run([], 0, "", "", SECONDS + 1)]
    for run in bad:
        with pytest.raises(AssertionError):
            check(run)
    check(Run([], 2, "", "cryptocomp: saved index x\ncryptocomp: error: bad\n", 0.1))
