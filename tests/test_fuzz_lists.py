"""Word lists of any bytes (issue 26): the list reader, `index build --add`, `--list` and the
prompt's list file either read them, skipping bad lines with one warning each kind, or
refuse them in one clear line; never a traceback, never a word that cannot be indexed."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.cli import main
from cryptocomp.errors import CryptocompError
from cryptocomp.index import Index
from cryptocomp.index.alphabet import word_problem
from cryptocomp.index.personal import Overlay, PersonalList
from cryptocomp.index.wordlists import FORMATS, admitted_letters, parse_list, read_list

SCALE = max(1, settings.default.max_examples // 100)
FUZZ = settings(max_examples=60 * SCALE, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

_WORD = st.text("abemnorsyé", min_size=0, max_size=6)
_LINE = st.one_of(
    st.builds(lambda w, sep, v: f"{w}{sep}{v}".encode(), _WORD,
              st.sampled_from([";", "\t", ",", " ", "; ", " ;"]),
              st.one_of(st.integers(-5, 200).map(str), st.sampled_from(["", "x", "1.5", "٥",
                                                                         "9" * 30]))),
    st.builds(lambda w: f"-{w}".encode(), _WORD),
    st.sampled_from([b"", b"  ", b"-", b";", b"w;;5", b"a\x00b;5", b"ab\xe2\x80\xaecd;5",
                     b"\xef\xbb\xbfbom;5", b"w?;5", "ж;5".encode(), b"\xff;3", b"a" * 300 + b";9",
                     b"x y;4", b"two words"]),
    st.binary(max_size=10))


@st.composite
def list_bytes(draw) -> bytes:
    return b"\n".join(draw(st.lists(_LINE, max_size=14)))


@FUZZ
@given(data=list_bytes())
def test_any_bytes_read_as_a_list_or_refused_in_one_line(data):
    try:
        got = read_list(data, "fuzz.txt", admits=admitted_letters("abc"))
    except CryptocompError as exc:
        assert "\n" not in str(exc) and "fuzz.txt" in str(exc)
        return
    assert got.format in FORMATS
    for word, value in got.entries.items():
        assert word_problem(word) is None and not set(word) & set("?.")
        assert value >= 0 and (not got.scored or 1 <= value <= 100)
    assert not set(got.entries) & got.removed
    for warning in got.warnings():
        assert "\n" not in warning and warning.startswith("fuzz.txt: skipped")


@FUZZ
@given(lines=st.lists(st.text(max_size=12), max_size=12), fmt=st.sampled_from(FORMATS))
def test_any_text_in_any_format(lines, fmt):
    got = parse_list(lines, fmt=fmt)
    assert got.bad <= len(lines) and len(got.bad_lines) <= min(got.bad, 5)
    assert all(1 <= n <= len(lines) for n, _ in got.bad_lines)


def _run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = saved
    return status, err.getvalue()


@FUZZ
@given(data=list_bytes(), how=st.sampled_from(["build", "words", "compose", "prompt"]))
def test_any_list_through_the_commands(tmp_path, data, how):
    base, mine = tmp_path / "base.txt", tmp_path / "mine.txt"
    base.write_text("money;50\nhoney;40\nsend;30\nmore;20\n", encoding="utf-8")
    mine.write_bytes(data)
    argv = {"build": ["index", "build", str(base), "--add", str(mine)],
            "words": ["words", "??n?y", "--dict", str(base), "--list", str(mine)],
            "compose": ["compose", "send+more", "--dict", str(base), "--list", str(mine)],
            "prompt": ["--dict", str(base), "--list", str(mine)]}[how]
    status, err = _run(argv, stdin=":add zzz 5\n:mine\n?????\n")
    assert status in (0, 1, 2), (argv, status, err)
    assert "Traceback" not in err and "internal error" not in err, err
    assert all(line.startswith("cryptocomp: ") for line in err.splitlines()), err


@FUZZ
@given(edits=st.lists(st.tuples(st.text(max_size=6), st.integers(-3, 120)), max_size=10))
def test_any_edit_is_taken_or_refused_in_one_line(tmp_path, edits):
    from cryptocomp.prompt import Session

    index = Index.from_counts({"money": 50, "honey": 40, "more": 20}, name="f")
    session = Session(index, list_path=tmp_path / "mine.txt")
    for word, score in edits:
        try:
            session.execute(f":add {word} {score}")
        except CryptocompError as exc:
            assert "\n" not in str(exc)
    again = PersonalList.load(tmp_path / "mine.txt", admits=Overlay.admits_of(index))
    assert dict(again.entries) == dict(session.personal.entries)
    session.execute("*")  # queries still answer
