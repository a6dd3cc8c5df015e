"""Fuzzing the studio's API: random query strings and JSON bodies, near-valid and not.
Whatever comes in, the answer is a 2xx, or a 4xx whose body is ``{"error": "one line"}``;
never a 5xx, never a traceback.  Example counts scale with the Hypothesis profile."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from studio_cases import board, call, make_app, one_line_error

from cryptocomp.studio import Limits

SCALE = max(1, settings.default.max_examples // 100)
FUZZ = settings(max_examples=60 * SCALE, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

APP = make_app(limits=Limits(workers=1, queued=2, max_body=20_000))

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
NEAR = st.text(alphabet="?.*#+-=()abcdemnorsy0123 é,Ж", max_size=30)
NUMBERS = st.one_of(st.integers(-(2**70), 2**70), st.floats(allow_nan=True),
                    st.sampled_from(["0", "1", "20", "-1", "1e3", "nan", "inf", "1_000", "٣",
                                     "+5", "0x10", "", " 5 ", "4-6", "5-", "-7", "all"]))
PARAM_NAMES = st.sampled_from(["q", "top", "same", "words", "minfreq", "min_count",
                               "min_score", "limit", "length", "contains", "excludes",
                               "token", "bogus", "difficulty", "max_difficulty"])
JSON = st.recursive(st.one_of(st.none(), st.booleans(), NUMBERS, TEXT),
                    lambda inner: st.one_of(st.lists(inner, max_size=4),
                                            st.dictionaries(TEXT, inner, max_size=4)),
                    max_leaves=12)
ROWS = st.lists(st.text(alphabet="#.abcnote?é1 ", min_size=0, max_size=5), max_size=5)
OPTION_NAMES = st.sampled_from(["seed", "time", "steps", "engine", "strategy", "theme",
                                "exclude", "prefer", "max_shared", "same_lemma", "words",
                                "minfreq", "min_count", "min_score", "limit", "length", "clues",
                                "bogus"])
OPTIONS = st.dictionaries(OPTION_NAMES, st.one_of(JSON, st.just(0.2), st.just("csp"),
                                                  st.lists(NEAR, max_size=3)), max_size=5)
SLOT = st.fixed_dictionaries({}, optional={"row": st.one_of(st.integers(-2, 6), JSON),
                                           "col": st.one_of(st.integers(-2, 6), JSON),
                                           "dir": st.sampled_from(["across", "down", "up", 1])})
CELLS = st.lists(st.one_of(st.lists(st.integers(-1, 5), min_size=2, max_size=2), JSON),
                 max_size=6)
WORD_LISTS = st.one_of(st.lists(st.sampled_from(["to", "at", "ta", "oat", "sat", "so", "é",
                                                 "a+b", "", "Ж", "tao"]), max_size=6), JSON)
BODY = st.one_of(
    JSON,
    st.fixed_dictionaries({"grid": ROWS}, optional={"options": OPTIONS, "slot": SLOT,
                                                    "top": NUMBERS, "time": NUMBERS,
                                                    "width": NUMBERS, "height": NUMBERS,
                                                    "title": JSON, "clues": JSON,
                                                    "region": st.one_of(CELLS, JSON)}),
    st.fixed_dictionaries({}, optional={
        "words": WORD_LISTS, "doubly_true": st.one_of(st.fixed_dictionaries({}, optional={
            "low": st.integers(-1, 40), "high": st.integers(-1, 40),
            "lang": st.sampled_from(["en", "fr", "xx", ""])}), JSON),
        "right": st.sampled_from(["unique", "fixed", "free", "x"]), "fixed": NEAR,
        "min_words": NUMBERS, "max_words": NUMBERS, "op": st.sampled_from(["+", "*", "-"]),
        "base": NUMBERS, "time": st.sampled_from([0.2, 0, -1, "x", 10**9]),
        "top": NUMBERS, "difficulty": JSON, "max_difficulty": NUMBERS}))


def _checked(response) -> None:
    if response.status_code < 300:
        response.json() if "json" in response.headers.get("content-type", "") else None
        return
    one_line_error(response)


def _calm() -> None:
    """Cancel whatever jobs the fuzzing started, so that the queue does not stay full."""
    board(APP).cancel_all()


@FUZZ
@given(st.sampled_from(["/api/words", "/api/compose", "/api/solve"]),
       st.lists(st.tuples(PARAM_NAMES, st.one_of(NEAR, TEXT, NUMBERS.map(str))), max_size=4))
def test_random_queries_get_an_answer_or_one_line(path, params):
    if path != "/api/words":  # composing a random puzzle of many letters takes a while
        params = [(k, v[:12]) for k, v in params]
    _checked(call(APP, "GET", path, params=params))


@FUZZ
@given(st.sampled_from(["/api/fill", "/api/candidates", "/api/arrow", "/api/generate",
                        "/api/export/puz",
                        "/api/export/ipuz", "/api/export/jpz", "/api/export/svg",
                        "/api/export/pdf", "/api/export/nope"]), BODY)
def test_random_bodies_get_an_answer_or_one_line(path, body):
    try:
        _checked(call(APP, "POST", path, content=json.dumps(body, allow_nan=True)))
    finally:
        _calm()


@FUZZ
@given(st.binary(max_size=200), st.sampled_from(["/api/fill", "/api/candidates",
                                                  "/api/generate", "/api/export/svg"]))
def test_random_bytes_get_one_line(data, path):
    _checked(call(APP, "POST", path, content=data))


@FUZZ
@given(TEXT, st.sampled_from(["GET", "DELETE"]))
def test_random_job_ids_get_one_line(job, method):
    from urllib.parse import quote

    r = call(APP, method, f"/api/jobs/{quote(job, safe='')}x")
    _checked(r)
