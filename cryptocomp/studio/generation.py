"""The studio's cryptarithm generation: every puzzle with one solution from a word list, or
the doubly-true sums of a range of number words (``POST /api/generate``).

The request is read here (one line for what is wrong); the search is the library's
(:func:`cryptocomp.cryptarithm.generation.generate`), run in a worker process as a job
with the request's time budget as its deadline, so that a large list never holds a
server thread and a budget that runs out gives the puzzles found so far.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cryptarithm.generation import RIGHT_MODES, GenerationSpec
from ..cryptarithm.grammar import MAX_BASE, MIN_BASE
from ..cryptarithm.numberwords import MAX_NUMBER
from ..errors import CryptocompError
from .parameters import Raw, seconds, text, whole
from .settings import Limits, StudioError

__all__ = ["GenerateRequest", "generate_request", "generate_work", "generate_answer",
           "MAX_LIST", "MAX_WORD"]

MAX_LIST = 1000  # words of one list: the search is exponential in the list, not the words
MAX_WORD = 40    # characters of one word
_FIELDS = {"words", "doubly_true", "right", "fixed", "min_words", "max_words", "op", "base",
           "time", "top", "difficulty", "max_difficulty"}

Send = Callable[[tuple], None]


@dataclass(frozen=True)
class GenerateRequest:
    """A generation to run: its spec, its time budget, the rows kept, whether to rate."""

    spec: GenerationSpec
    seconds: float
    top: int
    difficulty: bool
    max_level: int | None = None  # only puzzles rated this level or easier


def _word(k: int, value: Raw) -> str:
    word = unicodedata.normalize("NFC", text(f"word {k + 1}", value, MAX_WORD)).strip().lower()
    if not word:
        raise StudioError(f"word {k + 1} is empty")
    # as compose --from's lists: letters, marks and digits (a "+", "=" or space would
    # change the printed puzzle), not starting with a mark
    bad = next((i for i, ch in enumerate(word) if unicodedata.category(ch)[0] not in "LMN"
                or (i == 0 and unicodedata.category(ch)[0] == "M")), None)
    if bad is not None:
        raise StudioError(f"word {k + 1} {word!r}: character {bad + 1} ({word[bad]!r}) is "
                          f"not a letter or digit")
    return word


def _words(value: Raw) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) < 3:
        raise StudioError("words wants a list of at least 3 words (a puzzle has two addends "
                          "and a result)")
    if len(value) > MAX_LIST:
        raise StudioError(f"words lists {len(value):,} words: at most {MAX_LIST:,}")
    out: dict[str, None] = {}
    for k, item in enumerate(value):
        out.setdefault(_word(k, item), None)  # a word twice is one word
    return tuple(out)


def _doubly_true(value: Raw, common: dict[str, Any]) -> GenerationSpec:
    from ..cryptarithm.numberwords import doubly_true_spec

    if not isinstance(value, dict):
        raise StudioError('doubly_true wants {"low": 0, "high": 100, "lang": "fr"}')
    unknown = sorted(set(value) - {"low", "high", "lang"})
    if unknown:
        raise StudioError(f"doubly_true: unknown field {unknown[0]!r} (known: high, lang, low)")
    low = whole("doubly_true low", value.get("low", 0), 0, MAX_NUMBER)
    high = whole("doubly_true high", value.get("high", 100), low, MAX_NUMBER)
    lang = text("doubly_true lang", value.get("lang", "en"), 20)
    return doubly_true_spec(low, high, lang, **common)


def generate_request(body: Raw, limits: Limits) -> GenerateRequest:
    """``POST /api/generate``: ``{"words": [...]}`` or ``{"doubly_true": {"low", "high",
    "lang"}}``, with ``right`` (unique, fixed, free), ``fixed``, ``min_words``,
    ``max_words``, ``op`` (+ or *), ``base``, ``time``, ``top`` and ``difficulty``."""
    if not isinstance(body, dict):
        raise StudioError("the generate request wants a JSON object")
    unknown = sorted(set(body) - _FIELDS)
    if unknown:
        raise StudioError(f"the generate request: unknown field {unknown[0]!r} (known: "
                          f"{', '.join(sorted(_FIELDS))})")
    if ("words" in body) == ("doubly_true" in body):
        raise StudioError("give words (a list) or doubly_true (a range of numbers), one of them")
    given = {k: v for k, v in body.items() if v is not None}
    common: dict[str, Any] = {
        "min_words": whole("min_words", given.get("min_words", 3), 3, 12),
        "max_words": whole("max_words", given["max_words"], 3, 12) if "max_words" in given
        else None,
        "base": whole("base", given.get("base", 10), MIN_BASE, MAX_BASE)}
    if common["max_words"] is not None and common["max_words"] < common["min_words"]:
        raise StudioError(f"max_words {common['max_words']} is below min_words "
                          f"{common['min_words']}")
    difficulty = given.get("difficulty", False)
    if not isinstance(difficulty, bool):
        raise StudioError("difficulty wants true or false")
    try:
        if "doubly_true" in given:
            if set(given) & {"right", "fixed", "op"}:
                raise StudioError("doubly_true sums are of the form a + b + ... = z: no "
                                  "right, fixed or op")
            spec = _doubly_true(given["doubly_true"], common)
        else:
            right = given.get("right", "unique")
            if right not in RIGHT_MODES:
                raise StudioError(f"right must be one of {', '.join(RIGHT_MODES)}, not "
                                  f"{str(right)[:20]!r}")
            words = _words(given["words"])
            fixed = _word(len(words), given["fixed"]) if "fixed" in given else None
            if (right == "fixed") != (fixed is not None):
                raise StudioError('right "fixed" goes with fixed: the result word')
            if fixed is not None and fixed not in words:
                raise StudioError(f"fixed {fixed!r} is not one of the words")
            if given.get("op", "+") not in ("+", "*"):
                raise StudioError(f"op must be + or *, not {str(given['op'])[:20]!r}")
            spec = GenerationSpec(words, right=str(right), fixed=fixed,
                                  op=text("op", given.get("op", "+"), 1), **common)
    except StudioError:
        raise
    except (CryptocompError, ValueError) as exc:
        raise StudioError(str(exc).replace("--lang", "lang")) from None
    from ..cryptarithm.difficulty import LEVELS

    return GenerateRequest(
        spec=spec, max_level=whole("max_difficulty", given["max_difficulty"], 1, LEVELS)
        if "max_difficulty" in given else None,
        seconds=seconds("time", given["time"], limits.candidates_seconds) if "time" in given
        else 5.0,
        top=whole("top", given["top"], 1, limits.max_top) if "top" in given else 100,
        difficulty=difficulty)


def generate_work(send: Send, request: GenerateRequest) -> None:
    """Generate as ``compose --from`` does (:func:`~cryptocomp.cryptarithm.harvest.harvest`):
    until the list is done, ``top`` puzzles are kept or the time is up, each puzzle sent as
    found (rated when asked), then whether the search was complete.  The server stops the
    job at the budget too: the puzzles sent by then are its answer."""
    from ..cryptarithm.difficulty import Difficulty
    from ..cryptarithm.generation import Generated
    from ..cryptarithm.harvest import equation_text, harvest

    base = request.spec.base

    def found(_: int, g: Generated, level: Difficulty | None) -> None:
        row = {**g.to_json(), "equation": equation_text(g, base)}
        if level is not None:
            row["difficulty"] = level.to_json()
        send(("row", row))

    done = harvest(request.spec, seconds=request.seconds, top=request.top,
                   rated=request.difficulty, max_level=request.max_level, on_found=found)
    send(("done", {"complete": done.complete, "stop": done.stop,
                   "candidates": done.candidates}))


def generate_answer(rows: list[dict[str, Any]], result: dict[str, Any] | None,
                    seconds: float) -> dict[str, Any]:
    """The answer of ``POST /api/generate``: the puzzles found, whether the search was
    complete and why it stopped (complete, time, top: "time" too when the server stopped it
    at its budget), the candidates counted."""
    done = result or {}
    return {"total": len(rows), "complete": bool(done.get("complete", False)),
            "stop": done.get("stop", "time"),
            "candidates": done.get("candidates"), "seconds": round(seconds, 3),
            "results": rows}
