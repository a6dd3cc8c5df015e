"""Ctrl-C at the prompt: while a long table is being drawn it stops the drawing, never the
prompt (issue 12, item 3); the table drawn in pieces looks like the table drawn at once.
"""

from __future__ import annotations

import os
import pty
import random
import re
import select
import signal
import sys
import time
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cryptocomp import Index
from cryptocomp.prompt import Result, Row, Session, Settings, interact, render_ansi, result_table
from cryptocomp.rendering import result_parts


def _words(n: int, length: int, seed: int = 3) -> dict[str, int]:
    rng = random.Random(seed)
    out: dict[str, int] = {}
    while len(out) < n:
        out["".join(rng.choice("abcdefghij") for _ in range(length))] = rng.randint(1, 10 ** 6)
    return out


def _render_pieces(parts, width: int = 100) -> str:
    return "\n".join(render_ansi(p, width=width, color_system=None) for p in parts)


@pytest.mark.parametrize("kind", ["words", "compose", "solve"])
@pytest.mark.parametrize("top", [None, 7])
def test_table_drawn_in_pieces_is_the_table_drawn_at_once(kind, top):
    # ranks of different widths, so that a piece's own widths would differ from the table's
    rows = [Row(r, f"w{'x' * (r % 5)}", 10 ** 6 // r, 1e6 / r ** 2, f"ab+c=w{r}", f"{r}+1={r + 1}")
            for r in (1, 5, 17, 1234, 99, 123456, 8, 42, 7, 1000000, 3, 11, 2)]
    if kind == "solve":
        rows = [Row(None, "", 0, 0.0, "a+b=c", row.solution) for row in rows]
    result = Result(kind, "q", "title", "en", rows, len(rows) + (5 if kind == "solve" else 0))
    whole = render_ansi(result_table(result, top), width=100, color_system=None)
    for chunk in (1, 2, 3, 5, 100):
        assert _render_pieces(result_parts(result, top, chunk=chunk)) == whole


def test_table_pieces_are_small_and_the_first_comes_quickly():
    idx = Index.from_counts(_words(20_000, 6), name="t")
    result = Session(idx, settings=Settings(shown=None)).execute("??????").result
    assert result.total == 20_000
    started = time.process_time()
    parts = result_parts(result, None, chunk=200)
    next(parts), next(parts)  # the summary line, then the first 200 rows
    assert time.process_time() - started < 5  # drawing all 20,000 rows at once takes longer
    pieces = list(parts)
    assert len(pieces) == 100 - 1


class _Interrupting:
    """A screen writer that is interrupted (as by Ctrl-C) on its n-th write."""

    def __init__(self, n: int):
        self.n = n
        self.printed: list[str] = []

    def __call__(self, text: str) -> None:
        if len(self.printed) + 1 == self.n:
            self.n = -1
            raise KeyboardInterrupt
        self.printed.append(text)


@pytest.mark.parametrize("at", [2, 3, 4])
def test_ctrl_c_while_drawing_stops_the_drawing_and_the_prompt_goes_on(monkeypatch, at):
    import cryptocomp.rendering.tables as tables

    monkeypatch.setattr(tables, "TABLE_CHUNK", 5)
    words = _words(40, 3)
    session = Session(Index.from_counts(words, name="t"), settings=Settings(shown=None))
    write = _Interrupting(at)  # 1: the banner, 2: the summary line, 3 on: pieces of 5 rows
    with create_pipe_input() as inp:
        inp.send_text("???\n???\n:quit\n")
        try:
            status = interact(session, input=inp, output=DummyOutput(), write=write,
                              history=None, width=100, color_system=None)
        except KeyboardInterrupt:
            pytest.fail("Ctrl-C while drawing ended the prompt")
    assert status == 0
    out = "\n".join(write.printed)
    assert out.count("cancelled: stopped drawing") == 1
    assert out.count("???: 40 words in t") == 2 - (at == 2)  # the second query drew it all
    rows = [line for line in out.splitlines() if re.match(r"\s+[\d,]+\s+[a-j]{3}\s", line)]
    assert len(rows) == 40 + 5 * max(0, at - 3)


def _read_until(fd: int, pattern: str, timeout: float) -> str:
    """Read the pty until ``pattern`` (a regex) shows up in the text without its escape
    sequences; answer the terminal's cursor position query on the way."""
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if b"\x1b[6n" in data:  # prompt_toolkit asks where the cursor is
            os.write(fd, b"\x1b[1;1R")
        seen += data
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode("utf-8", "replace"))
        if re.search(pattern, text):
            return text
    raise AssertionError(f"{pattern!r} not seen; last output: {seen[-500:]!r}")


@pytest.mark.slow
def test_ctrl_c_while_drawing_in_a_real_terminal(tmp_path: Path):
    """The real prompt on a pseudo-terminal: Ctrl-C during a 60,000-row table, then a query."""
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in _words(60_000, 6).items()),
                    encoding="utf-8")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the real command on the pseudo-terminal
        # as from a shell's prompt: a run started in the background (SIGINT ignored, which
        # the child would inherit) must not turn this into a test of nothing
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.environ.update(TERM="xterm", COLUMNS="100", LINES="40")
        os.execv(sys.executable, [sys.executable, "-m", "cryptocomp", "--dict", str(path),
                                  "--no-history", "--top", "all"])
    try:
        _read_until(fd, r"words\.txt>", 60)
        os.write(fd, b"??????\r")
        _read_until(fd, r"(?s)60,000 words in words\.txt.*\n.*\n.*\d\s+[a-j]{6}\s", 60)
        os.write(fd, b"\x03")
        _read_until(fd, r"cancelled: stopped drawing", 30)
        os.write(fd, b"abcd?f\r")
        _read_until(fd, r"abcd\?f: \d+ words? in words\.txt", 30)
        os.write(fd, b":quit\r")
        _, status = os.waitpid(pid, 0)
        pid = 0
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        if pid:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
