"""The studio's JSON API, called in-process with httpx: every endpoint against a plain
oracle (a scan of the word list, every assignment of words to a grid, the library's own
solve), bad input (one line, a 4xx), the limits, the token, cancellation within 1 s."""

from __future__ import annotations

import asyncio
import io
import json
import random
import threading
import time
import xml.etree.ElementTree as ET

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from studio_cases import (
    APP,
    INDEX,
    WORDS,
    call,
    fills,
    make_app,
    one_line_error,
    scan_template,
    wait_job,
)

from cryptocomp import Index, solve
from cryptocomp.crossword.grid import Grid
from cryptocomp.studio import JobBoard, Limits, StudioError, StudioSettings, is_loopback
from cryptocomp.studio.security import COOKIE, cookie_value

# -- words, compose, solve ---------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(WORDS)), st.lists(st.booleans(), min_size=5, max_size=5),
       st.integers(1, 30))
def test_words_match_a_plain_scan(word, holes, top):
    template = "".join("?" if h else ch for ch, h in zip(word, holes + [True] * len(word)))
    r = call(APP, "GET", "/api/words", params={"q": template, "top": top})
    assert r.status_code == 200, r.text
    doc = r.json()
    expected = scan_template(WORDS, template)
    assert doc["total"] == len(expected)
    rows = doc["results"]
    assert len(rows) == min(top, len(expected))
    assert {row["word"] for row in rows} <= set(expected)
    counts = [row["count"] for row in rows]
    assert counts == sorted(counts, reverse=True)
    # the shown rows are the most frequent: none left out is commoner than one shown
    if rows:
        assert all(WORDS[w] <= counts[-1] for w in set(expected) - {r["word"] for r in rows})
    for row in rows:
        assert row["count"] == WORDS[row["word"]]
        assert row["rank"] == INDEX.id_of(row["word"]) + 1
        assert row["per_million"] == pytest.approx(row["count"] * 1e6 / INDEX.total)
        assert row["classes"] == []


def test_words_filters_and_same_pattern():
    r = call(APP, "GET", "/api/words?q=*&min_count=100&length=4-5&top=100")
    assert {w["word"] for w in r.json()["results"]} == \
        {w for w, c in WORDS.items() if c >= 100 and 4 <= len(w) <= 5}
    r = call(APP, "GET", "/api/words?q=???&contains=a&excludes=t")
    assert {w["word"] for w in r.json()["results"]} == \
        {w for w in WORDS if len(w) == 3 and "a" in w and "t" not in w}
    r = call(APP, "GET", "/api/words?same=papa")  # the structure abab
    assert r.json()["total"] == 0
    r = call(APP, "GET", "/api/words?same=dad&top=100")
    assert {w["word"] for w in r.json()["results"]} == \
        {w for w in WORDS if len(w) == 3 and w[0] == w[2] != w[1]}
    r = call(APP, "GET", "/api/words?q=*&limit=3&top=100")
    assert [w["rank"] for w in r.json()["results"]] == [1, 2, 3]


def test_minfreq_is_per_million():
    total = INDEX.total
    r = call(APP, "GET", "/api/words", params={"q": "*", "top": 100,
                                                "minfreq": 300 * 1e6 / total})
    assert {w["word"] for w in r.json()["results"]} == {w for w, c in WORDS.items() if c >= 300}


def test_compose_matches_solve():
    r = call(APP, "GET", "/api/compose", params={"q": "send+more", "top": 50})
    assert r.status_code == 200, r.text
    doc = r.json()
    found = {row["word"] for row in doc["results"]}
    # the oracle: every dictionary word W for which SEND+MORE=W has exactly one solution
    expected = {w for w in WORDS if solve(f"send+more={w}").count == 1}
    assert found == expected and doc["total"] == len(expected)
    money = doc["results"][0]
    assert money["word"] == "money" and money["solution"] == "9567+1085=10652"
    assert money["puzzle"] == "send+more=money" and money["rank"] == 1


def test_solve_counts_and_lists():
    doc = call(APP, "GET", "/api/solve", params={"q": "send+more=money"}).json()
    assert doc["count"] == 1 and doc["equations"] == ["9567+1085=10652"]
    assert doc["solutions"] == [{"s": 9, "e": 5, "n": 6, "d": 7, "m": 1, "o": 0, "r": 8,
                                 "y": 2}]
    doc = call(APP, "GET", "/api/solve", params={"q": "a+b=c", "top": 3}).json()
    assert doc["count"] == solve("a+b=c").count and len(doc["solutions"]) == 3


@pytest.mark.parametrize("url", [
    "/api/words", "/api/words?q=", "/api/words?q=?oney&top=0", "/api/words?q=?oney&top=x",
    "/api/words?q=?oney&top=99999999", "/api/words?q=?oney&bogus=1",
    "/api/words?q=?oney&words=verbs", "/api/words?q=?oney&length=6-2",
    "/api/words?q=?oney&minfreq=nan", "/api/words?q=?oney&contains=1",
    "/api/words?q=1+2", "/api/compose?q=send%2Bmore%3Dmoney", "/api/compose?q=%2B%2B",
    "/api/solve?q=send%2Bmore", "/api/solve?q=)", "/api/nothing", "/api/export/doc",
    "/api/jobs/nosuchjob"])
def test_bad_queries_get_one_line(url):
    one_line_error(call(APP, "GET" if "export" not in url else "POST", url))


def test_query_length_is_bounded():
    line = one_line_error(call(APP, "GET", "/api/words", params={"q": "?" * 201}))
    assert "at most 200" in line


# -- fills --------------------------------------------------------------------------------

SMALL_GRIDS = [["c..", ".#.", "..."], ["...", "...", "..."], ["#..", "...", "..#"],
               ["..", ".."], ["a.", ".."], ["b.b", "...", "b.b"]]


@pytest.mark.parametrize("rows", SMALL_GRIDS)
def test_fill_job_agrees_with_enumeration(rows):
    r = call(APP, "POST", "/api/fill", json={"grid": rows, "options": {"seed": 3, "time": 20}})
    assert r.status_code == 200, r.text
    doc = wait_job(APP, r.json()["job"])
    assert doc["status"] == "done", doc
    grid = Grid.from_rows(rows)
    some = next(fills(grid, WORDS), None)
    result = doc["result"]
    if some is None:
        assert result["status"] == "no_fill"
        return
    assert result["status"] == "filled"
    drawn = Grid.from_rows(doc["grid"])
    letters = drawn.given
    assert letters in list(fills(grid, WORDS))  # a fill the enumeration finds too
    assert set(result["words"].values()) <= set(WORDS)
    assert doc["tightest"] is None and doc["elapsed"] > 0


@st.composite
def _regions(draw):
    rows = draw(st.sampled_from(SMALL_GRIDS + [["cat", "...", "..."], ["c.b", "...", "t.."]]))
    grid = Grid.from_rows(rows)
    cells = sorted(grid.cells - set(grid.given))
    region = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=len(cells),
                           unique=True))
    return rows, region


@settings(max_examples=25, deadline=None)
@given(_regions())
@pytest.mark.slow
def test_a_region_fill_fills_only_the_region_as_enumeration_allows(case):
    rows, region = case
    r = call(APP, "POST", "/api/fill", json={"grid": rows, "region": [list(c) for c in region],
                                             "options": {"seed": 1, "time": 20}})
    assert r.status_code == 200, r.text
    doc = wait_job(APP, r.json()["job"])
    assert doc["status"] == "done", doc
    grid = Grid.from_rows(rows)
    # the oracle: the entries through the region, their letters kept, filled by enumeration
    slots = tuple(s for s in grid.slots if set(region) & set(s.cells))
    inside = {c for s in slots for c in s.cells}
    sub = Grid(grid.width, grid.height, slots,
               {c: ch for c, ch in grid.given.items() if c in inside})
    possible = [{c: f[c] for c in region} for f in fills(sub, WORDS)]
    shown = doc["result"]["grid"]
    assert len(shown) == len(rows)
    for r_, (sent, got) in enumerate(zip(rows, shown)):
        for c_, (a, b) in enumerate(zip(sent, got)):
            if (r_, c_) not in region:
                assert a == b, (rows, region, shown)  # outside the region: as sent
    if not possible:
        assert doc["result"]["status"] == "no_fill"
        return
    assert doc["result"]["status"] == "filled"
    assert {c: shown[c[0]][c[1]] for c in region} in possible


def test_a_region_crossing_no_entry_or_a_block_gets_one_line():
    for region in ([[0, 0]], [[1, 1], [9, 9]], "all", [], [[0]], [[0, True]]):
        one_line_error(call(APP, "POST", "/api/fill", json={"grid": ["#..", ".#.", "..."],
                                                          "region": region}))


def _long_index() -> Index:
    """8-letter words over six letters: an open 8x8 grid of them runs to its time budget."""
    rng = random.Random(8)
    return Index.from_counts({"".join(rng.choice("abcdef") for _ in range(8)): 1
                              for _ in range(500)}, name="long")


@pytest.mark.slow
def test_a_running_fill_shows_its_best_partial_fill_as_it_goes():
    long = _long_index()
    app = make_app(long, limits=Limits(workers=1, queued=1))
    rows = ["." * 8] * 8
    r = call(app, "POST", "/api/fill", json={"grid": rows, "options": {"time": 6, "engine": "csp"}})
    stream = call(app, "GET", f"/api/jobs/{r.json()['job']}/events")
    seen = []
    for block in stream.text.split("\n\n"):
        if block.startswith("event: running"):
            seen.append(json.loads(block.splitlines()[1][len("data: "):])["grid"])
    partial = [g for g in seen if g != rows]
    assert partial, seen  # the partial fill is shown before the end
    words = set(long.words)
    for g in partial:  # every entry it settles is a word, crossings agreeing
        drawn = Grid.from_rows(g)
        for word in drawn.words_of(drawn.given):
            assert "." in word or word in words, (g, word)


def test_fill_job_without_a_fill_names_its_tightest_slot():
    r = call(APP, "POST", "/api/fill", json={"grid": ["ct", ".."]})
    doc = wait_job(APP, r.json()["job"])
    assert doc["status"] == "done" and doc["result"]["status"] == "no_fill"
    assert doc["tightest"] == {"name": "1-across", "row": 0, "col": 0, "dir": "across",
                               "length": 2, "candidates": 0}


def test_a_fill_the_engine_refuses_fails_with_one_line():
    r = call(APP, "POST", "/api/fill", json={"grid": ["zq", ".."]})
    doc = wait_job(APP, r.json()["job"])
    assert doc["status"] == "failed" and "'z'" in doc["error"] and "\n" not in doc["error"]


@pytest.mark.parametrize("body", [
    None, [], {"grid": []}, {"grid": "c.."}, {"grid": [".."], "x": 1},
    {"grid": ["..", "."]}, {"grid": ["a!"]}, {"grid": [".."], "options": []},
    {"grid": [".."], "options": {"seed": "x"}}, {"grid": [".."], "options": {"time": -1}},
    {"grid": [".."], "options": {"time": 10**6}}, {"grid": [".."], "options": {"engine": "z"}},
    {"grid": [".."], "options": {"theme": ["nosuchword"]}},
    {"grid": [".."], "options": {"theme": "cat"}}, {"grid": [".."], "options": {"bogus": 1}},
    {"grid": [".."], "options": {"seed": 2**64}}, {"grid": [".."], "options": {"seed": True}},
    {"grid": ["." * 1001]}, {"grid": ["." * 600] * 600}])
def test_bad_fill_requests_get_one_line(body):
    one_line_error(call(APP, "POST", "/api/fill", content=json.dumps(body)))


def test_bad_json_gets_one_line():
    assert "not JSON" in one_line_error(call(APP, "POST", "/api/fill", content=b"{oops"))
    assert "not JSON" in one_line_error(call(APP, "POST", "/api/fill", content=b"\xff\xfe"))


def test_body_size_is_bounded():
    app = make_app(limits=Limits(max_body=1000))
    r = call(app, "POST", "/api/fill", content=json.dumps({"grid": ["." * 2000]}))
    assert r.status_code == 413 and "1,000 bytes" in one_line_error(r)

    async def chunks():  # no Content-Length: counted as it comes
        for _ in range(10):
            yield b" " * 500
    r = call(app, "POST", "/api/fill", content=chunks())
    assert r.status_code == 413


def test_events_stream_until_the_job_ends():
    r = call(APP, "POST", "/api/fill", json={"grid": ["...", "...", "..."]})
    job = r.json()["job"]
    stream = call(APP, "GET", f"/api/jobs/{job}/events")
    assert stream.headers["content-type"].startswith("text/event-stream")
    events = [block for block in stream.text.split("\n\n") if block.startswith("event:")]
    last = events[-1].splitlines()
    assert last[0] == "event: done"
    assert json.loads(last[1][len("data: "):])["status"] == "done"


# -- cancellation and the queue ----------------------------------------------------------

def _sleeper(send, seconds):
    send(("progress", {"sleeping": seconds}))
    time.sleep(seconds)
    send(("done", {"grid": ["slept"]}))


def test_board_cancels_a_running_job_within_a_second():
    jobs = JobBoard(Limits(workers=1, queued=1))
    job = jobs.submit("sleep", [], _sleeper, (60,))
    while job.status != "running":
        time.sleep(0.01)
    start = time.monotonic()
    jobs.cancel(job.id)
    while job.status == "running":
        time.sleep(0.01)
    assert job.status == "cancelled" and time.monotonic() - start <= 1.0
    done = jobs.submit("sleep", [], _sleeper, (0.01,))
    while done.status not in ("done", "failed"):
        time.sleep(0.01)
    assert done.status == "done" and done.grid == ["slept"]


def test_board_queue_is_bounded():
    jobs = JobBoard(Limits(workers=1, queued=1))
    first = jobs.submit("sleep", [], _sleeper, (60,))
    second = jobs.submit("sleep", [], _sleeper, (60,))
    with pytest.raises(StudioError) as err:
        jobs.submit("sleep", [], _sleeper, (60,))
    assert err.value.status == 429
    assert second.status == "queued"
    jobs.cancel(second.id)
    while second.status == "queued":
        time.sleep(0.01)
    assert second.status == "cancelled" and second.elapsed == 0.0
    jobs.close()
    assert first.status == "cancelled"


def _hard_words(n: int = 3000, length: int = 7) -> Index:
    """Random words over eight letters: a 7x7 open grid of them takes the engine longer
    than any test waits (measured: its 8 s budget ran out after 2,764 steps)."""
    rng = random.Random(5)
    words = {"".join(rng.choice("abcdefgh") for _ in range(length)): rng.randint(1, 999)
             for _ in range(n)}
    return Index.from_counts(words, name="hard")


def test_delete_cancels_a_fill_within_a_second_and_the_queue_says_429():
    app = make_app(_hard_words(), limits=Limits(workers=1, queued=1))
    body = {"grid": ["......."] * 7, "options": {"time": 120}}
    first = call(app, "POST", "/api/fill", json=body).json()["job"]
    second = call(app, "POST", "/api/fill", json=body).json()["job"]
    assert "too many jobs" in one_line_error(call(app, "POST", "/api/fill", json=body))
    assert call(app, "POST", "/api/fill", json=body).status_code == 429
    while call(app, "GET", f"/api/jobs/{first}").json()["status"] != "running":
        time.sleep(0.05)
    time.sleep(1.0)  # the search is under way
    assert call(app, "GET", f"/api/jobs/{first}").json()["status"] == "running"
    start = time.monotonic()
    doc = call(app, "DELETE", f"/api/jobs/{first}").json()
    assert doc["status"] == "cancelled" and time.monotonic() - start <= 1.0
    assert call(app, "DELETE", f"/api/jobs/{second}").json()["status"] == "cancelled"


def test_a_word_query_is_answered_while_fills_run():
    app = make_app(_hard_words(), limits=Limits(workers=1, queued=1))
    job = call(app, "POST", "/api/fill", json={"grid": ["......."] * 7}).json()["job"]
    start = time.monotonic()
    assert call(app, "GET", "/api/words?q=a??????").status_code == 200
    assert time.monotonic() - start < 1.0
    call(app, "DELETE", f"/api/jobs/{job}")


# -- candidates ---------------------------------------------------------------------------

CANDIDATE_CASES = [(["c..", ".#.", "..."], (0, 0, "across")),
                   (["...", "...", "..."], (1, 0, "across")),
                   (["...", "...", "..."], (0, 2, "down")),
                   (["#..", "...", "..#"], (1, 1, "down")),
                   (["a.", ".."], (1, 1, "across")),
                   (["c.n", "...", "..."], (0, 1, "across"))]


@pytest.mark.parametrize(("rows", "slot"), CANDIDATE_CASES)
def test_candidates_agree_with_enumeration(rows, slot):
    row, col, direction = slot
    r = call(APP, "POST", "/api/candidates", json={
        "grid": rows, "slot": {"row": row, "col": col, "dir": direction}, "top": 50,
        "time": 20})
    assert r.status_code == 200, r.text
    doc = r.json()
    grid = Grid.from_rows(rows)
    the_slot = next(s for s in grid.slots if s.direction == direction and (row, col) in s.cells)
    template = "".join(grid.given.get(c, "?") for c in the_slot.cells)
    assert [x["word"] for x in doc["results"]] == \
        [w for w in sorted(scan_template(WORDS, template), key=lambda w: INDEX.id_of(w))]
    viable = {"".join(f[c] for c in the_slot.cells) for f in fills(grid, WORDS)}
    for row_doc in doc["results"]:
        assert row_doc["viable"] == (row_doc["word"] in viable), row_doc


def test_candidates_out_of_time_are_unknown():
    index = _hard_words(3000, 7)
    app = make_app(index)
    r = call(app, "POST", "/api/candidates", json={
        "grid": ["......."] * 7, "slot": {"row": 0, "col": 0, "dir": "across"}, "top": 40,
        "time": 0.5})
    assert r.status_code == 200, r.text
    doc = r.json()
    assert len(doc["results"]) == 40
    assert "unknown" in {x["viable"] for x in doc["results"]}
    assert len(doc["results"]) == 40


@pytest.mark.parametrize("body", [
    {"grid": ["..."]}, {"grid": ["..."], "slot": {"row": 5, "col": 0}},
    {"grid": ["#.#"], "slot": {"row": 0, "col": 1, "dir": "across"}},
    {"grid": ["..."], "slot": {"row": 0, "col": 0, "dir": "up"}},
    {"grid": ["..."], "slot": {"row": 0, "col": 0}, "time": 99},
    {"grid": ["..."], "slot": {"row": 0, "col": 0}, "top": 0}])
def test_bad_candidate_requests_get_one_line(body):
    one_line_error(call(APP, "POST", "/api/candidates", json=body))


# -- exports ------------------------------------------------------------------------------

FILLED = ["cab", "a#o", "ten"]


def test_export_puz_reads_back():
    import puz

    r = call(APP, "POST", "/api/export/puz", json={"grid": FILLED, "title": "Mini one",
                                                    "clues": {"cab": "taxi", "1-down": "pet"}})
    assert r.status_code == 200 and r.headers["content-type"] == "application/x-crossword"
    assert r.headers["content-disposition"] == 'attachment; filename="Mini-one.puz"'
    p = puz.load(r.content)
    assert p.solution == "CABA.OTEN" and p.title == "Mini one"
    assert "taxi" in p.clues and "pet" in p.clues


@pytest.mark.slow
def test_export_ipuz_jpz_svg_pdf():
    from pypdf import PdfReader

    body = {"grid": FILLED, "title": "mini"}
    ipuz = call(APP, "POST", "/api/export/ipuz", json=body)
    assert ipuz.headers["content-type"] == "application/json"
    assert ipuz.json()["solution"][0] == ["C", "A", "B"]
    jpz = call(APP, "POST", "/api/export/jpz", json=body)
    assert jpz.headers["content-type"] == "application/xml"
    ET.fromstring(jpz.content)
    svg = call(APP, "POST", "/api/export/svg", json=body)
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert ET.fromstring(svg.content).tag.endswith("svg")
    pdf = call(APP, "POST", "/api/export/pdf", json=body)
    assert pdf.headers["content-type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(pdf.content)).pages) >= 1
    empty = call(APP, "POST", "/api/export/puz", json={"grid": ["...", ".#.", "..."]})
    assert empty.status_code == 200  # an unfilled grid exports as a blank puzzle


@pytest.mark.parametrize("body", [{"grid": ["." * 300] * 2}, {"grid": FILLED, "clues": []},
                                  {"grid": FILLED, "title": 5}, {"grid": FILLED, "x": 0}])
def test_bad_exports_get_one_line(body):
    one_line_error(call(APP, "POST", "/api/export/puz", json=body))


# -- arrow words ------------------------------------------------------------------------

def test_arrow_job_has_svg_and_pdf():
    from cryptocomp.shipped import shipped

    # the shipped ENABLE list's short words, with made-up counts: clues "none" needs no clue
    words = [w for w in shipped("enable1.txt").read_text().split() if 2 <= len(w) <= 6]
    app = make_app(Index.from_counts({w: 1000 - i % 997 for i, w in enumerate(words[:40000])},
                                     name="enable-short"))
    r = call(app, "POST", "/api/arrow", json={"width": 6, "height": 6, "options": {
        "seed": 1, "time": 60, "clues": "none"}})
    doc = wait_job(app, r.json()["job"], 120)
    assert doc["status"] == "done", doc
    assert doc["result"]["svg"].startswith("<svg") and doc["grid"]
    pdf = call(app, "GET", f"/api/jobs/{doc['job']}/pdf")
    assert pdf.content.startswith(b"%PDF") and pdf.headers["content-type"] == "application/pdf"
    assert call(app, "GET", f"/api/jobs/{doc['job']}/svg").content.startswith(b"<svg")


@pytest.mark.parametrize("body", [{"width": 2}, {"width": 99}, {"options": {"clues": "x"}},
                                  {"options": {"seed": -1}}, {"size": 9}])
def test_bad_arrow_requests_get_one_line(body):
    one_line_error(call(APP, "POST", "/api/arrow", json=body))


# -- security -----------------------------------------------------------------------------

def test_other_hosts_need_a_token():
    with pytest.raises(StudioError, match="--token"):
        StudioSettings(host="0.0.0.0")
    with pytest.raises(StudioError):
        StudioSettings(host="0.0.0.0", token="short")
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
    assert StudioSettings().host == "127.0.0.1"


@pytest.mark.parametrize("url", ["/api/words?q=?oney", "/docs", "/openapi.json", "/",
                                 "/api/jobs/x", "/main.js", "/style.css"])
def test_the_token_gates_every_request(url):
    app = make_app(host="0.0.0.0", token="s3cret-token")
    assert call(app, "GET", url).status_code == 401
    assert "token" in one_line_error(call(app, "GET", url))
    assert call(app, "GET", url, headers={"Authorization": "Bearer wrong-token"}).status_code \
        == 401
    ok = call(app, "GET", url, headers={"Authorization": "Bearer s3cret-token"})
    assert ok.status_code in (200, 404), ok.text
    joined = "&" if "?" in url else "?"
    by_query = call(app, "GET", f"{url}{joined}token=s3cret-token")
    if url.startswith("/api/"):
        assert by_query.status_code in (200, 404)
    else:  # a page visit: redirected to itself without the token, with the cookie
        assert by_query.status_code == 303
        assert "token" not in by_query.headers["location"]
    assert call(app, "GET", url, headers={"Cookie": f"{COOKIE}=s3cret-token"}).status_code \
        == 401  # the cookie holds the token's digest, not the token
    digest = cookie_value("s3cret-token")
    with_cookie = call(app, "GET", url, headers={"Cookie": f"{COOKIE}={digest}"})
    assert with_cookie.status_code in (200, 404), with_cookie.text


def test_a_page_opened_with_its_token_gets_a_strict_httponly_cookie_that_admits_the_rest():
    app = make_app(host="0.0.0.0", token="s3cret-token")

    async def go() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://studio") as c:
            first = await c.get("/?token=s3cret-token&x=1")
            page = await c.get(first.headers["location"])
            asked = [await c.get(p) for p in ("/main.js", "/style.css", "/api/info",
                                              "/api/words?q=?oney")]
            posted = await c.post("/api/export/svg", json={"grid": ["ab", "cd"]})
            return [first, page, *asked, posted]

    first, page, *rest = asyncio.run(go())
    assert first.status_code == 303 and first.headers["location"] == "/?x=1"
    cookie = first.headers["set-cookie"]
    assert f"{COOKIE}={cookie_value('s3cret-token')}" in cookie
    assert "s3cret-token" not in cookie
    assert {"HttpOnly", "SameSite=Strict", "Path=/"} <= {p.strip() for p in cookie.split(";")}
    assert page.status_code == 200 and "<!doctype html>" in page.text.lower()
    assert [r.status_code for r in rest] == [200] * 5
    # a bad token in the query is refused, even with no cookie to fall back on
    assert call(app, "GET", "/?token=wrong-token-x").status_code == 401


def test_no_cors_and_docs_served():
    r = call(APP, "GET", "/api/words?q=?oney", headers={"Origin": "http://evil.example"})
    assert "access-control-allow-origin" not in r.headers
    pre = call(APP, "OPTIONS", "/api/words", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "GET"})
    assert "access-control-allow-origin" not in pre.headers
    spec = call(APP, "GET", "/openapi.json").json()
    for path in ("/api/words", "/api/compose", "/api/solve", "/api/fill", "/api/jobs/{job_id}",
                 "/api/jobs/{job_id}/events", "/api/candidates", "/api/arrow",
                 "/api/export/{fmt}", "/api/generate"):
        assert path in spec["paths"], path
    assert call(APP, "GET", "/docs").status_code == 200


def test_many_word_queries_at_once_all_answer():
    out: list[int] = []

    def ask() -> None:
        out.append(call(APP, "GET", "/api/words?q=?a?").status_code)
    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [200] * 8
