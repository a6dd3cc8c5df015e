"""A long fill on a terminal shows how far it is (it showed nothing); piped, it stays quiet;
either way the fill is the same, node for node."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from cryptocomp.crossword import fill, read_grid
from cryptocomp.index.index import Index

ENABLE = Path(__file__).resolve().parents[1] / "cryptocomp" / "data" / "enable1.txt"
AMERICAN = Path(__file__).resolve().parents[1] / "cryptocomp" / "data" / "grids" / "american15.txt"


def _counts(top: int) -> dict[str, int]:
    """ENABLE's ``top`` words under made-up, fixed counts: a list over which the American
    grid keeps the CSP searching (its proof that no fill exists takes minutes at 40,000)."""
    words = ENABLE.read_text().split()
    counts = {w: 1 + zlib.crc32(w.encode()) % 1000 for w in words}
    return dict(sorted(counts.items(), key=lambda wc: (-wc[1], wc[0]))[:top])


def test_the_progress_hook_sees_the_search_and_changes_nothing():
    """fill(progress=...) hears the steps grow between slices; the outcome is the one of the
    same fill without it (a proof of no fill over some 1,400 steps, in about a second)."""
    index = Index.from_counts(_counts(20_000), name="enable-crc")
    grid = read_grid(AMERICAN)
    heard = []
    watched = fill(grid, index, engine="csp", progress=heard.append)
    plain = fill(grid, index, engine="csp")
    assert (watched.status, watched.steps, watched.culprit, watched.message) == \
        (plain.status, plain.steps, plain.culprit, plain.message)
    assert heard, "no progress told"
    steps = [p.steps for p in heard]
    assert steps == sorted(steps) and steps[-1] <= watched.steps
    assert all(p.slots == 72 and p.settled is not None and 0 <= p.settled <= 72 and p.found == 0
               for p in heard)


def _cli(args: list[str], tmp_path: Path, *, tty: bool) -> tuple[int, str, str]:
    """``cryptocomp ARGS`` with stderr a terminal (a pty) or a pipe, stdout a pipe: exit
    status, stdout, stderr (the terminal's bytes)."""
    env = {**os.environ, "CRYPTOCOMP_HOME": str(tmp_path / "home"), "COLUMNS": "120",
           "TERM": "xterm"}
    cmd = [sys.executable, "-m", "cryptocomp", *args]
    if not tty:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        return proc.returncode, proc.stdout, proc.stderr
    master, slave = pty.openpty()
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed its end
                break
            if not chunk:
                break
            seen += chunk
        elif child.poll() is not None:
            break
    os.close(master)
    out = child.stdout.read().decode() if child.stdout else ""
    child.wait(timeout=60)
    return child.returncode, out, seen.decode(errors="replace")


@pytest.mark.slow
def test_a_long_fill_shows_a_live_line_on_a_terminal_only(tmp_path):
    """Twice a 2 s fill of the American grid over 40,000 words (its index built once): on
    a terminal the line tells the steps and the best partial fill; piped, stderr holds no
    such line."""
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w} {c}\n" for w, c in _counts(40_000).items()))
    fill_2s = ["fill", "american15", "--dict", str(words), "--engine", "csp", "--time", "2"]
    status, out, err = _cli(fill_2s, tmp_path, tty=False)
    assert status == 3 and "budget exhausted" in out, err
    assert "steps," not in err and "best partial fill" not in err
    status, out, screen = _cli(fill_2s, tmp_path, tty=True)
    assert status == 3 and "budget exhausted" in out, screen
    assert "filling american15" in screen and " steps, best partial fill " in screen
    assert "of 72 slots" in screen


def test_a_batch_writes_its_results_to_stdout_under_its_progress_bar(tmp_path):
    """On a terminal, with stdout redirected, the batch's progress bar took stdout with it:
    ``square 3 --attempts 2 > out`` printed the squares on the terminal and left ``out``
    empty (swedish --count N too)."""
    words = tmp_path / "words.txt"
    words.write_text("cab 9\nare 8\nton 7\ncat 6\naro 5\nben 4\n")
    status, out, screen = _cli(["square", "3", "--dict", str(words), "--attempts", "2",
                                "--jobs", "1"], tmp_path, tty=True)
    assert status == 0, screen
    assert out.count("cab\nare\nton\n") == 2 and "# seed 1: filled" in out
    assert "cab" not in screen
