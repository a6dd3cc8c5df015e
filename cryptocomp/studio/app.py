"""The studio's ASGI app: the JSON API over one dictionary index, and the page.

:func:`create_app` builds it (FastAPI; OpenAPI at ``/docs``): word queries, composing and
solving are answered in the server's threads; fills, arrow words and candidates run as
jobs in worker processes (:mod:`.jobs`), so a fill never blocks a word query.  Every error
is ``{"error": "one line"}`` with a 4xx status (5xx only for a fault of the studio itself,
still one line); the gate (:mod:`.security`) checks the token and the body size before any
route runs.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import CryptocompError
from ..index.index import Index
from ..version import __version__
from .answercache import AnswerCache
from .bodies import arrow_request, candidates_request, export_request, fill_request
from .exports import FORMATS, export
from .generation import generate_answer, generate_request, generate_work
from .jobs import FAILED, FINISHED, POLL, Job, JobBoard
from .queries import compose_answer, inline_words, solve_answer, words_answer
from .security import Gate, error_body
from .settings import StudioError, StudioSettings
from .workers import arrow_work, candidates_work, fill_work

__all__ = ["create_app", "STATIC", "EVENT_EVERY", "HEARTBEAT", "INLINE_WORDS"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"  # the page (another part builds it)
EVENT_EVERY = 0.1  # seconds between two looks of an event stream at its job
HEARTBEAT = 10.0  # seconds of silence after which an event stream sends a comment line
# cheap word queries (see queries.inline_words) are answered on the event loop: a hop to a
# worker thread and back cost more than the query itself on a busy machine
INLINE_WORDS = True

_FILTER_DOC = ("word filters, as the CLI's: words (classes: dictionary,name,... or all), "
               "minfreq (per million), min_count, min_score (1-100), limit (the N most "
               "frequent words), length (5, 4-6, 5-, -7), contains, excludes")


def encode(answer: dict[str, Any]) -> bytes:
    """A query's answer as JSON bytes, encoded at once: the answers are plain JSON values
    already, and FastAPI's generic encoder walking them took as long as the query itself."""
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()


def _json(answer: dict[str, Any]) -> Response:
    return Response(encode(answer), media_type="application/json")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse(json.loads(error_body(message)), status_code=status)


def _body_doc(example: dict[str, Any]) -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {"application/json": {
        "schema": {"type": "object"}, "example": example}}}}


async def _json_body(request: Request) -> Any:
    raw = await request.body()
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise StudioError("the request body is not JSON") from None


def _add_handlers(app: FastAPI) -> None:
    @app.exception_handler(StudioError)
    async def studio_error(request: Request, exc: StudioError) -> JSONResponse:
        return _error(exc.status, str(exc))

    @app.exception_handler(CryptocompError)
    async def user_error(request: Request, exc: CryptocompError) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return _error(422, f"{where or 'request'}: {first.get('msg', 'invalid')}")

    @app.exception_handler(Exception)
    async def fault(request: Request, exc: Exception) -> JSONResponse:
        log.error("studio fault on %s: %s: %s", request.url.path, type(exc).__name__, exc)
        return _error(500, f"internal error ({type(exc).__name__}); the server log says more")


def _add_queries(app: FastAPI, index: Index, settings: StudioSettings) -> None:
    limits = settings.limits
    # the index is read-only: a words answer never goes stale (see answercache)
    cache = app.state.words_cache = AnswerCache(limits.cached_answers)

    @app.get("/api/info", summary="the dictionary, the limits, the version")
    async def info() -> dict[str, Any]:
        return {"version": __version__, "dictionary": index.name, "words": len(index),
                "classified": index.classified,
                "limits": {"max_query": limits.max_query, "max_top": limits.max_top,
                           "max_side": limits.max_side, "max_cells": limits.max_cells,
                           "max_body": limits.max_body, "workers": limits.workers,
                           "queued": limits.queued, "job_seconds": limits.job_seconds}}

    @app.get("/api/words", summary="words fitting a template, most frequent first",
             description=f"q: a template (? a letter, * any run: ?oney, con*); or same=WORD "
                         f"(the letter structure of WORD); top: rows (default 20); "
                         f"{_FILTER_DOC}.")
    async def words(request: Request, q: str | None = Query(None, examples=["?oney"]),
                    top: str | None = Query(None, examples=["20"])) -> Response:
        params = dict(request.query_params)

        def answer() -> bytes:
            return encode(words_answer(index, params, limits))

        if INLINE_WORDS and inline_words(params):
            body = cache.get(params, answer)
        else:
            body = await run_in_threadpool(cache.get, params, answer)
        return Response(body, media_type="application/json")

    @app.get("/api/compose", summary="puzzles with exactly one solution",
             description=f"q: a puzzle with an unknown (send+more, send+?=money, "
                         f"send+more=m????); top: rows (default 20); difficulty=1: each row "
                         f"rated (level 1 easiest to 5, or null: unrated); max_difficulty=N: "
                         f"only rows rated N or easier; {_FILTER_DOC}.")
    async def compose(request: Request, q: str | None = Query(None, examples=["send+more"]),
                      top: str | None = Query(None, examples=["20"]),
                      difficulty: str | None = Query(None, examples=["1"]),
                      max_difficulty: str | None = Query(None, examples=["3"])
                      ) -> Response:
        return _json(await run_in_threadpool(compose_answer, index,
                                             dict(request.query_params), limits))

    @app.get("/api/solve", summary="the solutions of a complete puzzle",
             description="q: a complete puzzle (send+more=money); top: solutions listed "
                         "(default 20; count is always exact).")
    async def solve(request: Request, q: str | None = Query(None, examples=["send+more=money"]),
                    top: str | None = Query(None, examples=["20"])) -> dict[str, Any]:
        return await run_in_threadpool(solve_answer, dict(request.query_params), limits)


GENERATE_GRACE = 0.5   # seconds a generation may run past its budget before it is stopped


async def _finished(job: Job, seconds: float) -> Job:
    """The job once finished, waited for at most ``seconds``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while job.status not in FINISHED and loop.time() < end:
        await asyncio.sleep(POLL / 2)
    return job


def _add_jobs(app: FastAPI, index: Index, settings: StudioSettings, board: JobBoard) -> None:
    limits = settings.limits

    @app.post("/api/fill", summary="start filling a grid: a job", openapi_extra=_body_doc(
        {"grid": ["#...", "....", "....", "...#"], "options": {"seed": 1, "time": 10}}))
    async def fill(request: Request) -> dict[str, Any]:
        req = fill_request(await _json_body(request), index, limits)
        job = board.submit("fill", list(req.rows), fill_work, (index, req))
        return {"job": job.id}

    @app.post("/api/arrow", summary="start an arrow-word puzzle: a job",
              openapi_extra=_body_doc({"width": 9, "height": 9,
                                       "options": {"seed": 0, "time": 30}}))
    async def arrow(request: Request) -> dict[str, Any]:
        req = arrow_request(await _json_body(request), limits)
        job = board.submit("arrow", [], arrow_work, (index, req))
        return {"job": job.id}

    @app.get("/api/jobs/{job_id}", summary="a job's status, grid and tightest slot")
    async def job_status(job_id: str) -> dict[str, Any]:
        return board.get(job_id).snapshot()

    @app.delete("/api/jobs/{job_id}", summary="cancel a job (its process is stopped)")
    async def job_cancel(job_id: str) -> dict[str, Any]:
        job = board.cancel(job_id)
        await _finished(job, 1.0)
        return job.snapshot()

    @app.get("/api/jobs/{job_id}/events", summary="server-sent events of a job's progress")
    async def job_events(job_id: str, request: Request) -> StreamingResponse:
        job = board.get(job_id)
        return StreamingResponse(_events(job, request), media_type="text/event-stream",
                                 headers={"cache-control": "no-store"})

    @app.get("/api/jobs/{job_id}/{name}", summary="a finished arrow job's svg or pdf")
    async def job_file(job_id: str, name: str) -> Response:
        job = board.get(job_id)
        files = job.files
        if name not in ("svg", "pdf") or name not in files:
            raise StudioError(f"job {job.id} has no file {name[:20]!r} (a finished arrow "
                              f"job has svg and pdf)", 404)
        media = "image/svg+xml" if name == "svg" else "application/pdf"
        return Response(files[name], media_type=media, headers={
            "content-disposition": f'attachment; filename="arrow-{job.id}.{name}"'})

    @app.post("/api/candidates", summary="words fitting a slot, each marked viable or not",
              openapi_extra=_body_doc({"grid": ["#..", "...", "..#"],
                                       "slot": {"row": 1, "col": 0, "dir": "across"},
                                       "top": 50, "time": 2}))
    async def candidates(request: Request) -> dict[str, Any]:
        req = candidates_request(await _json_body(request), index, limits)
        job = board.submit("candidates", list(req.rows), candidates_work, (index, req))
        return await _answer_of(board, job, req.seconds, "the candidates")

    @app.post("/api/generate", summary="cryptarithms from a word list, or doubly-true sums",
              description="Every puzzle a + b + ... = z of distinct list words with exactly "
                          "one solution (Cryptagen's rules), or with doubly_true the sums of "
                          "number words true in words too; found within time seconds (at "
                          "most the candidates' limit), top puzzles at most; complete says "
                          "whether the whole list was searched; difficulty: true rates each.",
              openapi_extra=_body_doc({"words": ["mercury", "venus", "earth", "mars",
                                                 "jupiter", "saturn", "uranus", "neptune"],
                                       "right": "unique", "time": 5, "top": 100,
                                       "difficulty": True}))
    async def generate(request: Request) -> dict[str, Any]:
        req = generate_request(await _json_body(request), limits)
        job = board.submit("generate", [], generate_work, (req,))
        # the search keeps its budget on its own clock, which starts when its process does:
        # a little grace lets it end itself and say so
        await _finished(job, req.seconds + GENERATE_GRACE)
        if job.status not in FINISHED:  # past the budget: what was found is the answer
            board.cancel(job.id)
            await _finished(job, 1.0)
        elif job.status == FAILED:
            raise StudioError(job.error or "the generation could not be run", 400)
        return generate_answer(list(job.rows), job.result, job.elapsed)


async def _answer_of(board: JobBoard, job: Job, seconds: float, what: str) -> dict[str, Any]:
    """The result of a job run for one request: waited for its budget and some grace (a
    queue to wait in, a rating to finish), else cancelled with one line."""
    await _finished(job, seconds + 30.0)
    if job.status not in FINISHED:
        board.cancel(job.id)
        raise StudioError(f"{what} took too long (the server is busy)", 503)
    if job.result is None:
        raise StudioError(job.error or f"{what} could not be computed", 400)
    return job.result


async def _events(job: Job, request: Request) -> AsyncIterator[str]:
    """The job's snapshots as server-sent events, one a change, until it finishes."""
    loop = asyncio.get_running_loop()
    seen, quiet = -1, loop.time()
    while True:
        if job.version != seen:
            seen = job.version
            quiet = loop.time()
            yield f"event: {job.status}\ndata: {json.dumps(job.snapshot())}\n\n"
            if job.status in FINISHED:
                return
        elif loop.time() - quiet > HEARTBEAT:
            quiet = loop.time()
            yield ": still running\n\n"
        if await request.is_disconnected():
            return
        await asyncio.sleep(EVENT_EVERY)


def _add_exports(app: FastAPI, settings: StudioSettings) -> None:
    @app.post("/api/export/{fmt}", summary=f"a grid as a file: {', '.join(FORMATS)}",
              openapi_extra=_body_doc({"grid": ["cat", "a#o", "bun"], "title": "mini",
                                       "clues": {"cat": "pet"}}))
    async def export_file(fmt: str, request: Request) -> Response:
        if fmt not in FORMATS:
            raise StudioError(f"unknown export format {fmt[:20]!r} (one of "
                              f"{', '.join(FORMATS)})", 404)
        req = export_request(await _json_body(request), settings.limits)
        out = await run_in_threadpool(export, fmt, req)
        return Response(out.data, media_type=out.media_type, headers={
            "content-disposition": f'attachment; filename="{out.filename}"'})


def _prepare_engine() -> None:
    """Compile (or load) the kernels the jobs use, once, before the first child is forked:
    each child would otherwise do it again."""
    from ..crossword.csp import load_engine
    from ..cryptarithm.difficulty import rate
    from ..cryptarithm.generation import GenerationSpec, generate

    load_engine()
    list(generate(GenerationSpec(("send", "more", "money"))))
    rate("send+more=money")


def create_app(index: Index, settings: StudioSettings | None = None, *,
               static: Path | None = STATIC) -> Gate:
    """The studio over ``index``: the FastAPI app behind its gate (token, body size)."""
    settings = settings or StudioSettings()
    board = JobBoard(settings.limits, prepare=_prepare_engine)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await run_in_threadpool(board.close)

    app = FastAPI(title="cryptocomp studio", version=__version__, lifespan=lifespan,
                  description="The JSON API over one dictionary index: words, compose, solve, "
                              "fills and arrow words as jobs, candidates, exports. Errors are "
                              '{"error": "one line"}.')
    app.state.board = board
    _add_handlers(app)
    _add_queries(app, index, settings)
    _add_jobs(app, index, settings, board)
    _add_exports(app, settings)
    if static is not None and (static / "index.html").is_file():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=static, html=True), name="page")
    else:
        @app.get("/", include_in_schema=False)
        async def no_page() -> Response:
            return Response("<!doctype html><title>cryptocomp studio</title><p>The studio's "
                            "page is not installed; the API is at <a href=/docs>/docs</a>.",
                            media_type="text/html")
    return Gate(app, token=settings.token, max_body=settings.limits.max_body)
