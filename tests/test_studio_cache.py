"""The words answers' cache (studio.answercache): a cached studio answers exactly what an
uncached one does, over random queries asked in random order and repeated; eviction keeps
the bound; bad queries stay one-line errors and are not kept."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from studio_cases import INDEX, WORDS, call, make_app, one_line_error

from cryptocomp.studio import Limits
from cryptocomp.studio.answercache import AnswerCache, query_key

CACHED = make_app(INDEX, limits=Limits(workers=1, cached_answers=8))
UNCACHED = make_app(INDEX, limits=Limits(workers=1, cached_answers=0))

_letters = st.sampled_from(sorted(set("".join(WORDS)) | {"?", "*"}))
_params = st.fixed_dictionaries(
    {"q": st.text(_letters, min_size=1, max_size=6)},
    optional={"top": st.integers(1, 30).map(str), "minfreq": st.sampled_from(["0", "10"]),
              "length": st.sampled_from(["3", "2-4", "4-"]),
              "contains": st.sampled_from(["a", "o", "on"]), "token": st.just("x")})


@settings(max_examples=80, deadline=None)
@given(st.lists(_params, min_size=1, max_size=12), st.randoms())
def test_a_cached_answer_is_the_uncached_answer(queries, rnd):
    asked = queries + [rnd.choice(queries) for _ in queries]  # repeats: hits as well as misses
    for params in asked:
        got = call(CACHED, "GET", "/api/words", params=params)
        want = call(UNCACHED, "GET", "/api/words", params=params)
        assert (got.status_code, got.content) == (want.status_code, want.content)
    cache = CACHED.app.state.words_cache
    assert len(cache) <= 8
    assert len(UNCACHED.app.state.words_cache) == 0


def test_repeats_are_hits_and_bad_queries_are_not_kept():
    app = make_app(INDEX, limits=Limits(workers=1, cached_answers=4))
    cache = app.app.state.words_cache
    for _ in range(3):
        assert call(app, "GET", "/api/words", params={"q": "?oney"}).json()["total"] == 2
    assert (cache.hits, cache.misses, len(cache)) == (2, 1, 1)
    for _ in range(2):
        one_line_error(call(app, "GET", "/api/words", params={"q": "?oney", "top": "0"}))
    assert len(cache) == 1


def test_the_least_recently_used_answer_goes_first():
    cache = AnswerCache(size=2)
    made: list[str] = []

    def maker(q: str):
        return lambda: made.append(q) or q.encode()

    for q in ("a", "b", "a", "c", "a", "b"):  # c evicts b (a was used since), then b evicts c
        assert cache.get({"q": q}, maker(q)) == q.encode()
    assert made == ["a", "b", "c", "b"]
    assert len(cache) == 2


def test_the_key_leaves_out_the_token_and_the_order():
    assert query_key({"q": "c?t", "top": "5", "token": "t"}) == query_key({"top": "5", "q": "c?t"})
    assert query_key({"q": "c?t"}) != query_key({"q": "C?t"})


def test_long_answers_are_not_kept():
    cache = AnswerCache(size=4, most_bytes=3)
    assert cache.get({"q": "x"}, lambda: b"abcd") == b"abcd"
    assert len(cache) == 0
