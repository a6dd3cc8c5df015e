"""The studio's dictionary queries: words fitting a template, composed puzzles, solutions.

Each takes the request's parameters (a mapping of names to values, as a query string gives
them) and returns the JSON answer; a bad parameter is a :class:`StudioError` (one line).
They are quick enough to answer in the server's own process (a thread), unlike fills.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from ..errors import CryptocompError
from ..index.classes import DEFAULTS
from ..index.index import Index
from ..rendering import per_million
from .parameters import Raw, text, whole, word_filter
from .settings import Limits, StudioError

__all__ = ["words_answer", "compose_answer", "solve_answer", "DEFAULT_TOP", "row_classes",
           "warm", "inline_words", "INLINE_LETTERS"]

DEFAULT_TOP = 20  # rows of an answer that names no top
_NAMES = {"q", "same", "top", "token"}  # besides the word filters
INLINE_LETTERS = 12  # the longest template without * answered on the event loop


def warm(index: Index) -> None:
    """Load what the first queries would (the index's families, the wildcard tables, the
    classes): measured on en, the first ``?oney`` took 86 ms and the first ``*tion`` 400 ms,
    then under 2 ms each."""
    for template in ("?", "???", "*e", "a*"):
        with suppress(StudioError):  # an alphabet without "e" or "a": the others still warm
            words_answer(index, {"q": template}, Limits())


def inline_words(params: Mapping[str, Raw]) -> bool:
    """Whether a words query is bounded enough to answer on the server's event loop: a
    template of at most INLINE_LETTERS letters and no ``*`` (one length, a few letter
    bitmaps intersected), with at most the default rows; any other goes to a thread."""
    q, top = params.get("q"), params.get("top", str(DEFAULT_TOP))
    return (isinstance(q, str) and "same" not in params and "*" not in q
            and 0 < len(q) <= INLINE_LETTERS and isinstance(top, str) and top.isdigit()
            and int(top) <= DEFAULT_TOP)


def row_classes(index: Index, i: int) -> list[str]:
    """The classes of word id ``i`` (none on an unclassified index)."""
    return list(index.classes_of(i)) if index.classified else []


def _query(params: Mapping[str, Raw], limits: Limits, name: str = "q") -> str:
    if name not in params:
        raise StudioError(f"give the query: ?{name}=...")
    q = text(name, params[name], limits.max_query).strip()
    if not q:
        raise StudioError(f"{name} is empty")
    return q


def _top(params: Mapping[str, Raw], limits: Limits) -> int:
    return whole("top", params["top"], 1, limits.max_top) if "top" in params else DEFAULT_TOP


def _check_names(params: Mapping[str, Raw], known: set[str]) -> None:
    from .parameters import FILTER_NAMES

    unknown = sorted(set(params) - known - set(FILTER_NAMES))
    if unknown:
        raise StudioError(f"unknown parameter {unknown[0]!r} (known: "
                          f"{', '.join(sorted(known - {'token'}) + list(FILTER_NAMES))})")


def words_answer(index: Index, params: Mapping[str, Raw], limits: Limits) -> dict[str, Any]:
    """``GET /api/words``: the words fitting ``q`` (a template: ``?`` a letter, ``*`` any
    run) or with the letter structure of ``same``, most frequent first."""
    _check_names(params, _NAMES)
    top = _top(params, limits)
    words = word_filter(params, index.total).word_filter(DEFAULTS["words"])
    try:
        if "same" in params and "q" not in params:
            matches = index.same_pattern(_query(params, limits, "same"), words)
        else:
            matches = index.match(_query(params, limits), words)
    except CryptocompError as exc:
        raise StudioError(str(exc)) from None
    rows = [{"word": e.word, "rank": e.rank, "count": e.count,
             "per_million": per_million(e.count, index.total),
             "classes": row_classes(index, e.id)} for e in matches[:top]]
    return {"total": len(matches), "results": rows}


def compose_answer(index: Index, params: Mapping[str, Raw], limits: Limits) -> dict[str, Any]:
    """``GET /api/compose``: the words completing ``q`` (``send+more``, ``send+?=money``,
    ``send+more=m????``) to a puzzle with exactly one solution, most frequent first; with
    ``difficulty`` (or ``max_difficulty`` N: only levels up to N) each row is rated."""
    from ..cryptarithm.compose import compose
    from ..cryptarithm.difficulty import LEVELS, rate_rows

    _check_names(params, (_NAMES - {"same"}) | {"difficulty", "max_difficulty"})
    query, top = _query(params, limits), _top(params, limits)
    words = word_filter(params, index.total).word_filter(DEFAULTS["compose"])
    most = whole("max_difficulty", params["max_difficulty"], 1, LEVELS) \
        if "max_difficulty" in params else None
    rated = most is not None or _flag(params, "difficulty")
    try:
        found = compose(query, index, words)
    except CryptocompError as exc:
        raise StudioError(str(exc)) from None
    chosen = found[:top]
    levels: list[dict[str, Any] | None] = [None] * len(chosen)
    if rated:  # as the CLI's --difficulty: rated lazily until top rows pass max_difficulty
        picks = rate_rows((c.puzzle for c in found), top=top, max_level=most)
        chosen = [found[r.index] for r in picks]
        levels = [r.difficulty.to_json() for r in picks]
    rows = [{**c.to_json(), "per_million": per_million(c.count, index.total),
             "classes": row_classes(index, c.rank - 1),
             **({"difficulty": level} if rated else {})} for c, level in zip(chosen, levels)]
    return {"total": len(found), "results": rows}


def _flag(params: Mapping[str, Raw], name: str) -> bool:
    """A true/false parameter (``1``, ``true``, ``yes``; ``0``, ``false``, ``no``)."""
    value = params.get(name, False)
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off", ""):
        return False
    raise StudioError(f"{name} wants true or false, not {word[:20]!r}")


def solve_answer(params: Mapping[str, Raw], limits: Limits) -> dict[str, Any]:
    """``GET /api/solve``: the exact count of solutions of ``q`` (``send+more=money``) and
    the first ``top`` of them."""
    from ..cryptarithm.solve import solve

    _check_names(params, {"q", "top", "token"})
    query, top = _query(params, limits), _top(params, limits)
    try:
        solved = solve(query, cap=top)
    except CryptocompError as exc:
        raise StudioError(str(exc)) from None
    return {"puzzle": solved.puzzle, "count": solved.count, "solutions": solved.solutions,
            "equations": solved.equations}
