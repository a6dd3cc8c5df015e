"""What the studio's browser tests share besides their fixtures: a small dictionary with
words for 3x3 and long 8x8 fills, the real app on uvicorn on 127.0.0.1, opening the page,
its helpers (rows, new grid, a click, a screenshot), scripts that delay or hold the page's
requests, the keys the fuzz test presses, and the plain oracles (a replay of grid edits,
the 3x3 fills by brute force)."""

from __future__ import annotations

import itertools
import os
import random
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from compose_oracle import EN_COUNTS
from hypothesis import strategies as st

from cryptocomp.index import Index

if TYPE_CHECKING:
    from playwright.sync_api import Page

# sap/ore/wet across, sow/are/pet down: the one open 3x3 fill with six different words
THREE = ["bat", "are", "tea", "cat", "art", "tar", "eat", "ate", "rat", "ear", "era", "zzz",
         "sap", "ore", "wet", "sow", "pet"]
WAIT = 30_000  # ms: the longest any step may take on a loaded 2-core machine


def _long_words() -> list[str]:
    """8-letter words over six letters: an open 8x8 grid of them runs to its time budget."""
    rng = random.Random(8)
    return sorted({"".join(rng.choice("abcdef") for _ in range(8)) for _ in range(500)})


def _counts() -> dict[str, int]:
    counts = dict(EN_COUNTS)
    for k, w in enumerate(THREE):
        counts.setdefault(w, 60 - k)
    for w in _long_words():
        counts.setdefault(w, 1)
    return counts

@contextmanager
def _serving(index: Index, settings=None):
    """The studio over ``index`` on a free port of 127.0.0.1, in a real uvicorn in a thread:
    its address."""
    import uvicorn

    from cryptocomp.studio.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(index, settings), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "the studio did not start"
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()

def _open(browser, url: str) -> tuple[Page, list[str]]:
    context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 820})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function("window.studio !== undefined")
    return page, errors

def _shot(page: Page, name: str) -> None:
    where = os.environ.get("CRYPTOCOMP_SCREENSHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


def _rows(page: Page) -> list[str]:
    return page.evaluate("studio.editor.model.rows()")


def _new_grid(page: Page, width: int, height: int, symmetry: str = "none") -> None:
    page.keyboard.press("Alt+2")
    page.select_option("#symmetry", symmetry)
    page.fill("#grid-width", str(width))
    page.fill("#grid-height", str(height))
    page.click("#grid-new")
    page.focus("#grid")


def _click_cell(page: Page, r: int, c: int, **kw) -> None:
    page.click(f"#cell-{r}-{c}", **kw)

MODEL = "import('./gridmodel.js').then(m => { const g = m.GridModel.fromRows(rows); return %s; })"


def _js(page: Page, expr: str, rows: list[str]):
    return page.evaluate(f"rows => {MODEL % expr}", rows)


@st.composite
def _drawn(draw) -> list[str]:
    height = draw(st.integers(1, 7))
    width = draw(st.integers(1, 7))
    density = draw(st.sampled_from([0.0, 0.2, 0.4, 0.7, 1.0]))
    cells = draw(st.lists(st.floats(0, 1), min_size=width * height, max_size=width * height))
    return ["".join("#" if cells[r * width + c] < density else "." for c in range(width))
            for r in range(height)]

def _partners(r: int, c: int, h: int, w: int, symmetry: str) -> set[tuple[int, int]]:
    other = {"none": (r, c), "rotational": (h - 1 - r, w - 1 - c),
             "mirror": (r, w - 1 - c)}[symmetry]
    return {(r, c), other}


def _replay(h: int, w: int, symmetry: str, ops: list) -> list[list[str]]:
    """The rows after each edit, by the plain rules: a toggle turns the cell and its
    partners into blocks (or all back to empty), a letter goes in its cell; undo and redo
    walk a list of states."""
    states = [["." * w for _ in range(h)]]
    at = 0
    shown = []
    for op in ops:
        if op[0] == "undo":
            at = max(0, at - 1)
        elif op[0] == "redo":
            at = min(len(states) - 1, at + 1)
        else:
            grid = [list(row) for row in states[at]]
            if op[0] == "block":
                _, r, c = op
                fill = "." if grid[r][c] == "#" else "#"
                for rr, cc in _partners(r, c, h, w, symmetry):
                    grid[rr][cc] = fill
            else:
                _, r, c, ch = op
                grid[r][c] = ch
            rows = ["".join(row) for row in grid]
            if rows != states[at]:
                states = states[:at + 1] + [rows]
                at += 1
        shown.append(states[at])
    return shown


@st.composite
def _edits(draw):
    h, w = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    cell = st.tuples(st.integers(0, h - 1), st.integers(0, w - 1))
    op = st.one_of(cell.map(lambda rc: ("block", *rc)),
                   st.tuples(cell, st.sampled_from("abé")).map(lambda x: ("letter", *x[0], x[1])),
                   st.just(("undo",)), st.just(("redo",)))
    return h, w, draw(st.sampled_from(["none", "rotational", "mirror"])), \
        draw(st.lists(op, max_size=25))

STALE = """
  const real = window.fetch;
  window.fetch = (url, init) => real(url, init).then(r =>
    String(url).includes('q=SEND%2BMOR&') ? new Promise(ok => setTimeout(() => ok(r), 1500)) : r);
"""

def _square_fills(words: list[str], first: str) -> bool:
    """Whether an open 3x3 grid has a fill with ``first`` as 1-across (brute force)."""
    for second, third in itertools.product(words, repeat=2):
        rows = [first, second, third]
        cols = ["".join(r[c] for r in rows) for c in range(3)]
        if all(w in words for w in cols) and len(set(rows + cols)) == 6:
            return True
    return False

HELD_CANDIDATES = """
  const real = window.fetch;
  let release;
  window.held = new Promise(ok => { release = ok; });
  window.release = () => release();
  window.fetch = (url, init) => real(url, init).then(r =>
    String(url).includes('candidates') && init.body.includes('"....."')
      ? window.held.then(() => r) : r);
"""

KEYS = ["a", "b", "é", "Ж", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Tab", "Space",
        "Period", "#", "Backspace", "Delete", "Escape", "Shift+ArrowRight", "Shift+ArrowDown",
        "Control+z", "Control+y", "Control+Shift+z", "Control+l", "Alt+ArrowDown", "1", "?",
        "F2", "Home"]
