"""Word queries answered on the event loop (the cheap ones) against the same in a thread."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from studio_cases import APP, WORDS, call, one_line_error, scan_template

import cryptocomp.studio.app as studio_app
from cryptocomp.studio.queries import DEFAULT_TOP, INLINE_LETTERS, inline_words


def _answer(url: str, params: dict, inline: bool):
    saved = studio_app.INLINE_WORDS
    studio_app.INLINE_WORDS = inline
    try:
        r = call(APP, "GET", url, params=params)
    finally:
        studio_app.INLINE_WORDS = saved
    return r.status_code, r.json()


@settings(max_examples=60, deadline=None)
@given(st.text("ab?*e", min_size=1, max_size=6), st.integers(1, 40))
def test_inline_answers_as_the_thread_does(template, top):
    params = {"q": template, "top": top}
    inline = _answer("/api/words", params, True)
    assert inline == _answer("/api/words", params, False)
    if inline[0] == 200 and "*" not in template:  # the plain scan knows ? only
        assert inline[1]["total"] == len(scan_template(WORDS, template))


def test_only_bounded_queries_go_inline():
    assert inline_words({"q": "?oney"})
    assert inline_words({"q": "c?t", "top": str(DEFAULT_TOP)})
    assert not inline_words({"q": "*tion"})  # any length: the thread
    assert not inline_words({"q": "?" * (INLINE_LETTERS + 1)})
    assert not inline_words({"q": "c?t", "top": str(DEFAULT_TOP + 1)})
    assert not inline_words({"q": "c?t", "top": "x"})
    assert not inline_words({"same": "dad"})
    assert not inline_words({"q": ""})


def test_bad_inline_query_is_one_line():
    r = call(APP, "GET", "/api/words?q=c%3Ft&minfreq=lots")
    assert r.status_code == 400
    assert "minfreq" in one_line_error(r)
