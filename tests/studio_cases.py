"""What the studio's tests share: a small dictionary, the app over it, a client calling the
app in-process (httpx's ASGI transport), and the slow, plain oracles the answers are
checked against (a scan of the word list, every assignment of words to a grid's slots)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping

import httpx

from cryptocomp import Index
from cryptocomp.crossword.grid import Grid
from cryptocomp.studio import Limits, StudioSettings, create_app

WORDS = {"money": 500, "honey": 200, "send": 400, "more": 300, "cat": 90, "cab": 80,
         "car": 70, "ten": 60, "bun": 50, "tar": 40, "cob": 30, "art": 20, "oar": 15,
         "ore": 12, "tea": 11, "eat": 10, "ate": 9, "ab": 8, "ba": 7, "at": 6, "ta": 5,
         "to": 4, "ot": 3, "an": 2, "na": 1, "bob": 1, "con": 2, "cone": 3, "done": 4}
INDEX = Index.from_counts(WORDS, name="studio-test")


def make_app(index: Index = INDEX, **settings: object):
    """The studio over ``index`` (StudioSettings fields as keywords)."""
    return create_app(index, StudioSettings(**settings))  # type: ignore[arg-type]


APP = make_app(limits=Limits(workers=2, queued=4))


def call(app, method: str, url: str, **kwargs) -> httpx.Response:
    """One request to ``app``, in-process."""
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://studio") as c:
            return await c.request(method, url, **kwargs)
    return asyncio.run(go())


def board(app):
    """The job board of a studio app (behind its gate)."""
    return app.app.state.board


def wait_job(app, job: str, seconds: float = 60.0) -> dict:
    """The job's snapshot once it has finished (or after ``seconds``)."""
    end = time.monotonic() + seconds
    while True:
        doc = call(app, "GET", f"/api/jobs/{job}").json()
        if doc["status"] in ("done", "failed", "cancelled") or time.monotonic() > end:
            return doc
        time.sleep(0.05)


def one_line_error(response: httpx.Response) -> str:
    """The error line of a 4xx answer (asserting its shape)."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    doc = response.json()
    assert set(doc) == {"error"}, doc
    line = doc["error"]
    assert isinstance(line, str) and line and "\n" not in line, line
    assert "Traceback" not in line
    return line


# -- oracles -----------------------------------------------------------------------------

def scan_template(words: Mapping[str, int], template: str) -> list[str]:
    """The words fitting a template of letters and '?', most frequent first (ties: the
    index's order, which is the mapping's order for equal counts), by a plain scan."""
    ranked = sorted(words, key=lambda w: (-words[w], list(words).index(w)))
    return [w for w in ranked if len(w) == len(template)
            and all(t in "?." or t == c for t, c in zip(template, w))]


def fills(grid: Grid, words: Mapping[str, int]):
    """Every fill of ``grid`` by plain enumeration: one distinct word a slot, crossings
    agreeing, given letters kept (each a dict cell -> letter); slot by slot, each word of
    the slot's length tried, a word dropped as soon as it clashes with a letter placed."""
    slots = grid.slots

    def place(k: int, letters: dict, used: set):
        if k == len(slots):
            yield dict(letters)
            return
        slot = slots[k]
        for word in words:
            if len(word) != slot.length or word in used:
                continue
            if any(letters.get(c, ch) != ch for c, ch in zip(slot.cells, word)):
                continue
            added = [c for c in slot.cells if c not in letters]
            letters.update((c, ch) for c, ch in zip(slot.cells, word) if c in added)
            yield from place(k + 1, letters, used | {word})
            for c in added:
                del letters[c]

    yield from place(0, dict(grid.given), set())
