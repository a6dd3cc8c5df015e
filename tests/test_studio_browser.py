"""Issue 29, part 2: the studio page in a real headless browser (Debian's chromium, driven by
playwright) against the real app on uvicorn on 127.0.0.1.  The page's grid model is checked
against the Python grid (numbering, slots) and against a plain replay of its edits (symmetry,
undo and redo); composing, solving, candidates with their viability, autofill, cancelling a
long fill and the .puz export are checked end to end, each against an oracle of its own.

Set ``CRYPTOCOMP_SCREENSHOTS=DIR`` to have the tests save a screenshot of each view there."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
try:
    from playwright.sync_api import Page, sync_playwright
except ImportError:  # pragma: no cover - the test extra brings it
    pytest.skip("playwright is not installed: the studio browser tests are skipped",
                allow_module_level=True)
if CHROMIUM is None:
    pytest.skip("no chromium on this machine (apt-get install chromium): the studio browser "
                "tests are skipped", allow_module_level=True)

from studio_page import (  # noqa: E402
    HELD_CANDIDATES,
    KEYS,
    STALE,
    WAIT,
    _click_cell,
    _counts,
    _drawn,
    _edits,
    _js,
    _long_words,
    _new_grid,
    _open,
    _partners,
    _replay,
    _rows,
    _serving,
    _shot,
    _square_fills,
)

from cryptocomp.crossword.check import fill_problems  # noqa: E402
from cryptocomp.crossword.grid import Grid, GridError  # noqa: E402
from cryptocomp.crossword.puz import parse_puz  # noqa: E402
from cryptocomp.cryptarithm.compose import compose  # noqa: E402
from cryptocomp.index import Index  # noqa: E402

# -- the server and the browser ---------------------------------------------------------------

@pytest.fixture(scope="module")
def index() -> Index:
    return Index.from_counts(_counts(), name="studio-test")


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """One data home for the module's servers (the function-scoped one comes too late)."""
    from cryptocomp.crossword.csp import load_engine

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CRYPTOCOMP_HOME", str(tmp_path_factory.mktemp("cc-home")))
        load_engine()  # compiled (a minute from no cache) before any step's clock starts
        yield


@pytest.fixture(scope="module")
def base_url(index, home):
    with _serving(index) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, base_url):
    """The page, fresh for each test; a script error fails the test."""
    p, errors = _open(browser, base_url)
    yield p
    p.context.close()
    assert errors == []


@pytest.fixture(scope="module")
def opened(browser, base_url):
    """One page, and the script errors it has had, for the many quick examples of the
    grid-model checks and the fuzz tests."""
    p, errors = _open(browser, base_url)
    yield p, errors
    p.context.close()


@pytest.fixture(scope="module")
def model_page(opened):
    return opened[0]


# -- the grid model against the Python grid -------------------------------------------------

@settings(max_examples=60)
@given(rows=_drawn())
@pytest.mark.slow
def test_numbering_and_slots_are_the_python_grids(model_page, rows):
    got = _js(model_page, "{numbers: [...g.numbers()], slots: g.slots().map(s => "
                          "[`${s.number}-${s.dir}`, s.cells])}", rows)
    try:
        grid = Grid.from_rows(rows)
    except GridError:  # a grid without any slot: the page numbers nothing
        assert got["slots"] == [] and got["numbers"] == []
        return
    numbers = {f"{r},{c}": n for (r, c), n in grid.numbers().items()}
    assert dict(got["numbers"]) == numbers
    assert [(name, [tuple(c) for c in cells]) for name, cells in got["slots"]] == \
        [(s.name, list(s.cells)) for s in grid.slots]


@settings(max_examples=60)
@given(case=_edits())
def test_symmetric_blocks_undo_and_redo_follow_the_plain_rules(model_page, case):
    h, w, symmetry, ops = case
    got = model_page.evaluate("""([h, w, symmetry, ops]) => import('./gridmodel.js').then(m => {
        const g = new m.GridModel(w, h);
        return ops.map(op => {
          if (op[0] === 'undo') g.undo();
          else if (op[0] === 'redo') g.redo();
          else if (op[0] === 'block') g.toggleBlock(op[1], op[2], symmetry);
          else g.setLetter(op[1], op[2], op[3]);
          return g.rows();
        });
      })""", [h, w, symmetry, [list(op) for op in ops]])
    assert got == _replay(h, w, symmetry, ops)
    if symmetry != "none" and all(op[0] != "letter" for op in ops):
        blocks = {(r, c) for r in range(h) for c in range(w) if got and got[-1][r][c] == "#"}
        assert all(_partners(r, c, h, w, symmetry) <= blocks for r, c in blocks)


# -- compose and solve ----------------------------------------------------------------------

@pytest.mark.slow
def test_typing_send_more_ranks_money_first_and_drops_stale_answers(browser, base_url, index):
    page, errors = _open(browser, base_url)
    page.add_init_script(STALE)
    page.reload()
    page.wait_for_function("window.studio !== undefined")
    page.focus("#compose-q")
    page.keyboard.type("SEND+MOR", delay=20)
    page.wait_for_timeout(400)  # past the debounce: the answer to SEND+MOR is on its way
    page.keyboard.type("E")
    first = page.locator("#compose-results tbody tr").first.locator("td.col-word")
    first.wait_for(timeout=WAIT)
    assert first.inner_text().lower() == "money"
    page.wait_for_timeout(1800)  # the slow, stale answer has come and must have been dropped
    words = page.locator("#compose-results td.col-word").all_inner_texts()
    assert [w.lower() for w in words] == [c.word for c in compose("send+more", index)][:20]
    from cryptocomp.cryptarithm.difficulty import rate

    level = page.locator("#compose-results tbody tr").first.locator("td.col-difficulty")
    assert level.inner_text() == f"level {rate('send+more=money').level}"
    _shot(page, "compose")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#solve-output').textContent.length > 0")
    solved = page.inner_text("#solve-output")
    assert solved.startswith("send+more=money: 1 solution") and "9567+1085=10652" in solved
    page.context.close()
    assert errors == []


def test_a_bad_expression_is_one_line_on_the_status_line(page):
    page.fill("#compose-q", "send+(((")
    page.wait_for_selector("#status.problem", timeout=WAIT)
    line = page.inner_text("#status")
    assert line and "\n" not in line and "Traceback" not in line


# -- the grid editor ------------------------------------------------------------------------

def test_keys_type_turn_block_lock_undo_and_redo(page):
    _new_grid(page, 4, 4, "rotational")
    page.keyboard.type("bat")
    assert _rows(page) == ["bat.", "....", "....", "...."]
    page.keyboard.press("Tab")  # down from where the cursor stopped: (0, 3)
    page.keyboard.press("Period")  # a block there and at (3, 0)
    assert _rows(page) == ["bat#", "....", "....", "#..."]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Control+l")  # lock 1-across
    assert page.locator("#cell-0-1.locked").count() == 1
    page.keyboard.type("x")  # a locked cell refuses the letter
    assert page.locator("#status.problem").count() == 1 and _rows(page)[0] == "bat#"
    page.keyboard.press("Control+z")  # undo the lock
    page.keyboard.press("Control+z")  # undo the blocks
    assert _rows(page) == ["bat.", "....", "....", "...."]
    page.keyboard.press("Control+y")
    assert _rows(page) == ["bat#", "....", "....", "#..."]
    _click_cell(page, 2, 2, modifiers=["Control"])  # Ctrl+click: a block and its partner
    assert _rows(page) == ["bat#", ".#..", "..#.", "#..."]
    page.click("#grid-undo")
    assert _rows(page) == ["bat#", "....", "....", "#..."]
    nums = page.locator("#grid .num").all_inner_texts()
    assert nums == [str(n) for n in range(1, len(nums) + 1)] and len(nums) == 7


def test_typing_past_an_entrys_end_goes_on_to_the_next_entry(page):
    _new_grid(page, 3, 3)
    page.keyboard.type("bat")  # the last letter of 1-across: the cursor moves on to 4-across
    assert page.evaluate("studio.editor.cursor") == [1, 0]
    page.keyboard.type("car")
    assert _rows(page) == ["bat", "car", "..."]  # no letter overwrote another
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # down from (0, 0): the last cell of 1-down is (2, 0)
    page.keyboard.type("bcx")
    assert _rows(page) == ["bat", "car", "x.."]
    # past the end of 1-down: 2-down, at its first empty cell (2, 1)
    assert page.evaluate("[studio.editor.cursor, studio.editor.dir]") == [[2, 1], "down"]


def test_candidates_are_marked_as_brute_force_finds(page):
    _new_grid(page, 3, 3)
    page.wait_for_function("/^1 across \\(\\.\\.\\.\\): [1-9]/.test("
                           "document.querySelector('#candidates-heading').textContent)",
                           timeout=WAIT)
    shown = page.eval_on_selector_all(
        "#candidates li", "els => els.map(e => [e.dataset.word, e.className])")
    three = [w for w in _counts() if len(w) == 3]
    assert sorted(w for w, _ in shown) == sorted(three)
    decided = 0
    for word, classes in shown:
        kind = next(k for k in ("viable", "dead", "unknown") if k in classes.split())
        if kind != "unknown":
            decided += 1
            assert (kind == "viable") == _square_fills(three, word), word
    assert decided >= len(shown) // 2  # a 3x3 is decided well within the budget
    assert {"viable", "dead"} <= {c for _, cs in shown for c in cs.split()}
    page.keyboard.press("Alt+ArrowDown")
    page.keyboard.press("Enter")
    assert _rows(page)[0] == shown[1][0]
    _shot(page, "grid-candidates")


def test_a_drawn_grid_is_autofilled_and_exported_as_puz(page, index):
    _new_grid(page, 3, 3, "rotational")
    _click_cell(page, 1, 1, modifiers=["Control"])  # the centre: its own partner
    _click_cell(page, 0, 0)
    page.keyboard.type("t")
    page.keyboard.press("Control+l")  # the theme letter: kept by the fill
    page.click("#fill-all")
    page.wait_for_function("document.querySelector('#fill-progress').textContent"
                           ".startsWith('filled')", timeout=WAIT)
    rows = _rows(page)
    assert rows[0][0] == "t" and rows[1][1] == "#" and "." not in "".join(rows)
    grid = Grid.from_rows(rows)
    words = grid.words_of(grid.given)
    assert fill_problems(Grid.from_rows(["...", ".#.", "..."]), list(_counts()), words) == []
    _shot(page, "grid-filled")
    with page.expect_download() as wait:
        page.click("#export-puz")
    puzzle = parse_puz(Path(wait.value.path()).read_bytes())
    assert [s.cells for s in puzzle.grid.slots] == [s.cells for s in grid.slots]
    assert {cell: ch.lower() for cell, ch in puzzle.solution.items()} == \
        {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"}


@pytest.mark.slow
def test_candidates_of_an_older_grid_never_show(browser, base_url):
    page, errors = _open(browser, base_url)
    page.add_init_script(HELD_CANDIDATES)  # the first 5x5 grid's answer is held back
    page.reload()
    page.wait_for_function("window.studio !== undefined")
    page.keyboard.press("Alt+2")
    page.wait_for_timeout(600)  # the 5x5's request is on its way
    _new_grid(page, 3, 3)
    page.evaluate("window.release()")  # its answer comes before the 3x3's is asked for
    page.wait_for_timeout(100)
    words = page.eval_on_selector_all("#candidates li", "els => els.map(e => e.dataset.word)")
    assert all(len(w) == 3 for w in words), words
    page.wait_for_function("/candidates?$/.test(document.querySelector("
                           "'#candidates-heading').textContent)", timeout=WAIT)
    heading = page.inner_text("#candidates-heading")
    words = page.eval_on_selector_all("#candidates li", "els => els.map(e => e.dataset.word)")
    assert heading.startswith("1 across (...)") and words, heading
    assert all(len(w) == 3 for w in words), words
    page.context.close()
    assert errors == []


def test_a_selected_region_is_filled_and_the_rest_kept(page):
    _new_grid(page, 3, 3)
    page.keyboard.type("sapore")  # 1-across then 4-across (typing moves on)
    _click_cell(page, 2, 0)
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowRight")  # the region: the last row
    assert page.is_enabled("#fill-region")
    page.click("#fill-region")
    page.wait_for_function("document.querySelector('#fill-progress').textContent"
                           ".startsWith('filled')", timeout=WAIT)
    rows = _rows(page)
    assert rows[:2] == ["sap", "ore"]
    three = [w for w in _counts() if len(w) == 3]
    fits = [w for w in three if all("".join(col) in three for col in zip("sap", "ore", w))
            and len({"sap", "ore", w, *("".join(c) for c in zip("sap", "ore", w))}) == 6]
    assert rows[2] in fits, (rows, fits)
    _shot(page, "grid-region-filled")


@pytest.mark.slow
def test_a_long_fill_is_cancelled_at_once(page):
    _new_grid(page, 8, 8)
    page.fill("#fill-time", "120")
    page.click("#fill-all")
    page.wait_for_function("document.querySelector('#fill-progress').textContent"
                           ".startsWith('running')", timeout=WAIT)
    # the search's best partial fill, drawn faint while it runs, each entry it settles a word
    page.wait_for_function("document.querySelectorAll('#grid .cell.ghost').length >= 8",
                           timeout=WAIT)
    ghost = page.evaluate("studio.editor.ghost")
    drawn = Grid.from_rows(ghost)
    assert all("." in w or w in _long_words() for w in drawn.words_of(drawn.given)), ghost
    _shot(page, "grid-mid-fill")
    started = time.monotonic()
    page.click("#fill-cancel")
    page.wait_for_function("document.querySelector('#fill-progress').textContent"
                           ".startsWith('cancelled')", timeout=WAIT)
    assert time.monotonic() - started < 3.0
    assert _rows(page) == ["." * 8] * 8
    assert page.is_enabled("#fill-all") and not page.is_enabled("#fill-cancel")


@pytest.mark.slow
def test_a_studio_with_a_token_opens_with_it_once_and_then_works(browser, index, home):
    from cryptocomp.studio import StudioSettings

    token = "t0ken-for-the-test"
    with _serving(index, StudioSettings(host="0.0.0.0", token=token)) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 820})
        bare = context.new_page()
        refused = bare.goto(url)
        assert refused is not None and refused.status == 401
        page, errors = _open(browser, f"{url}?token={token}")
        assert "token" not in page.url  # the address no longer shows it
        cookie = page.context.cookies()[0]
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert token not in cookie["value"]
        assert page.evaluate("document.cookie") == ""  # no script can read it
        page.fill("#compose-q", "SEND+MORE")
        first = page.locator("#compose-results tbody tr").first.locator("td.col-word")
        first.wait_for(timeout=WAIT)
        assert first.inner_text().lower() == "money"
        _new_grid(page, 3, 3)
        page.click("#fill-all")  # a job, followed by its event stream: the cookie goes too
        page.wait_for_function("document.querySelector('#fill-progress').textContent"
                               ".startsWith('filled')", timeout=WAIT)
        _shot(page, "token-mode")
        page.context.close()
        context.close()
        assert errors == []


def test_generating_from_a_list_shows_the_librarys_puzzles(page):
    from cryptocomp.cryptarithm.generation import GenerationSpec, generate

    words = ["mercury", "venus", "earth", "mars", "jupiter", "saturn", "uranus", "neptune"]
    page.click("#generate-panel summary")
    page.fill("#generate-words", " ".join(words))
    page.click("#generate-list")
    page.wait_for_function("/generated/.test(document.querySelector('#compose-summary')"
                           ".textContent)", timeout=WAIT)
    shown = page.locator("#compose-results td.col-puzzle").all_inner_texts()
    assert sorted(shown) == sorted(g.puzzle for g in generate(GenerationSpec(tuple(words))))
    levels = page.locator("#compose-results td.col-difficulty").all_inner_texts()
    assert len(levels) == len(shown) and all(v.startswith(("level ", "unrated")) for v in levels)
    _shot(page, "compose-generated")
    page.click("#compose-results tbody tr >> nth=0")
    page.click("#solve")
    page.wait_for_function("document.querySelector('#solve-output').textContent"
                           ".includes('1 solution')", timeout=WAIT)


# -- fuzz: any keys, any expression ---------------------------------------------------------

@settings(max_examples=25)
@given(width=st.integers(2, 6), height=st.integers(2, 6),
       symmetry=st.sampled_from(["none", "rotational", "mirror"]),
       keys=st.lists(st.sampled_from(KEYS), max_size=30))
@pytest.mark.slow
def test_fuzz_any_keys_keep_the_grid_whole(opened, width, height, symmetry, keys):
    page, errors = opened
    page.keyboard.press("Alt+2")
    page.select_option("#symmetry", symmetry)
    # a fresh grid and history: Ctrl+Z would otherwise bring back the last example's grid
    page.evaluate(f"studio.editor.newGrid({width}, {height}); "
                  "studio.editor.model.undoStack = []")
    page.focus("#grid")
    for key in keys:
        if len(key) == 1 and not key.isascii():
            page.keyboard.type(key)  # a letter no US key has, typed as text input is
        else:
            page.keyboard.press(key)
    state = page.evaluate("""() => { const m = studio.editor.model;
        return {rows: m.rows(), locked: [...m.locked], nums: [...m.numbers().values()],
                shown: [...document.querySelectorAll('#grid .num')].map(e => +e.textContent),
                status: document.querySelector('#status').textContent}; }""")
    rows = state["rows"]
    assert len(rows) == height and all(len(r) == width for r in rows)
    assert all(ch in "#." or ch.isalpha() for row in rows for ch in row)
    assert all(rows[i // width][i % width] not in "#." for i in state["locked"])
    assert state["shown"] == state["nums"] == list(range(1, len(state["nums"]) + 1))
    assert "\n" not in state["status"]
    assert errors == []


@settings(max_examples=20)
@given(text=st.text(st.sampled_from("send+mor=?*()-/ xyжSEND12é"), max_size=24))
@pytest.mark.slow
def test_fuzz_any_expression_answers_in_one_line(opened, text):
    page, errors = opened
    page.keyboard.press("Alt+1")
    page.fill("#compose-q", text)
    page.wait_for_timeout(250)
    page.wait_for_function("document.querySelector('#compose-summary').textContent"
                           " !== 'composing…'", timeout=WAIT)
    assert "\n" not in page.inner_text("#status")
    assert errors == []


# -- arrow words --------------------------------------------------------------------------

def _arrow_ended(page: Page) -> None:
    page.wait_for_function("!document.querySelector('#arrow-generate').disabled",
                           timeout=120_000)


@pytest.mark.slow
def test_an_arrow_word_the_words_cannot_make_is_one_line_and_a_long_one_cancels(page):
    page.keyboard.press("Alt+3")
    page.fill("#arrow-width", "5")
    page.fill("#arrow-height", "5")
    page.fill("#arrow-time", "1")
    page.click("#arrow-generate")
    _arrow_ended(page)  # the test dictionary is far too small for an arrow word
    line = page.inner_text("#status")
    assert page.locator("#status.problem").count() == 1 and "\n" not in line
    assert page.inner_text("#arrow-progress") == "no puzzle"
    assert page.locator("#arrow-preview img").count() == 0 and not page.is_enabled("#arrow-pdf")
    page.fill("#arrow-time", "120")
    page.click("#arrow-regenerate")
    page.wait_for_function("document.querySelector('#arrow-progress').textContent"
                           ".startsWith('running')", timeout=WAIT)
    started = time.monotonic()
    page.click("#arrow-cancel")
    _arrow_ended(page)
    assert time.monotonic() - started < 3.0
    assert page.inner_text("#arrow-progress") == "cancelled"


@pytest.mark.slow
def test_an_arrow_word_is_shown_regenerated_and_its_pdf_downloads(browser, home):
    from cryptocomp import load_index

    with _serving(load_index("en")) as url:
        page, errors = _open(browser, url)
        page.keyboard.press("Alt+3")
        page.fill("#arrow-width", "7")
        page.fill("#arrow-height", "7")
        page.click("#arrow-generate")
        _arrow_ended(page)
        first = page.get_attribute("#arrow-preview img", "alt")
        assert first == "arrow-word puzzle, seed 1"
        assert page.evaluate("document.querySelector('#arrow-preview img').naturalWidth") > 0
        _shot(page, "arrow")
        with page.expect_download() as wait:
            page.click("#arrow-pdf")
        assert Path(wait.value.path()).read_bytes().startswith(b"%PDF-")
        page.click("#arrow-regenerate")
        _arrow_ended(page)
        assert page.get_attribute("#arrow-preview img", "alt") == "arrow-word puzzle, seed 2"
        page.context.close()
        assert errors == []

