"""The prompt's puzzle lines: which lines are puzzles, and their compose or solve results.

A line is a puzzle when it holds a sign of the cryptarithm language (an operator, a
comparator, ``;``, ``&&``, a quote or a parenthesis) and is not a word template
(``con*``).  A puzzle with an unknown (``?``, a template such as ``m????``, or no comparator
at all: ``SEND+MORE`` means ``SEND+MORE=?``) is composed over the dictionary, in base 10;
any other puzzle, a system of relations included (``cc+a=cl && on+d=go``), is solved in the
session's base (``:base``).

>>> is_puzzle("a+b<c ; c=d"), is_puzzle("con*"), is_puzzle("хабр*хабр")
(True, False, True)
>>> composes("send+more"), composes("send+?=money"), composes("a+b=c && b<c")
(True, True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import QueryError
from ..rendering import Result, Row, class_column, per_million
from .settings import Settings

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    from ..domain import Progress
    from ..index.index import Index
    from ..index.personal import Overlay

__all__ = ["is_puzzle", "composes", "compose_result", "solve_result"]

_UNKNOWN = frozenset("?.[")  # the unknown of compose and its template (never in a system)


def is_puzzle(text: str) -> bool:
    """Whether a prompt line is a cryptarithm (to compose or solve), not a word template."""
    from ..cryptarithm.expr import looks_like_expression
    from ..cryptarithm.lexer import looks_like_system
    from ..index.wildcards import looks_like_template

    # a template may hold '*' (any run of letters): "con*" is a template, "хабр*хабр" a
    # product (see looks_like_template)
    return (looks_like_expression(text) or looks_like_system(text)) \
        and not looks_like_template(text)


def composes(text: str) -> bool:
    """Whether a puzzle line is for compose: it has an unknown or no comparator."""
    from ..cryptarithm.lexer import has_comparator

    return not _UNKNOWN.isdisjoint(text) or not has_comparator(text)


def compose_result(text: str, title: str, index: Index, overlay: Overlay, settings: Settings,
                   progress: Callable[[str], AbstractContextManager[Progress | None]],
                   dictionary: str) -> Result:
    """Every word of ``index`` (or of its ``overlay``) completing the puzzle ``text`` to a
    one-solution cryptarithm, within the ``settings``; ``progress(description)`` reports it."""
    from ..cryptarithm.compose import compose

    if settings.base != 10:
        raise QueryError(f"compose works in base 10 only (its enumeration over the dictionary "
                         f"is decimal): :base 10 to compose, or give the puzzle whole to solve "
                         f"it in base {settings.base}")
    words = settings.composed(index.total)
    if words.describe():
        title = f"{title} ({words.describe()})"
    with progress(f"composing {title}") as callback:
        if overlay.active:
            found = overlay.compose(
                lambda idx, w, most: compose(text, idx, w, max_results=most,
                                             progress=callback), words)
        else:
            found = compose(text, index, words, progress=callback)
    classes = class_column(index, words.classes)
    rows = [Row(c.rank, c.word, c.count, per_million(c.count, index.total), c.puzzle,
                c.solution, dict(c.assignment),
                None if classes is None else tuple(classes.of(c.rank - 1, c.word)))
            for c in found]
    return Result("compose", text, title, dictionary, rows, len(rows),
                  class_column=classes is not None)


def solve_result(text: str, settings: Settings, dictionary: str, cap: int) -> Result:
    """Every solution of the puzzle or system ``text`` in the settings' base (the first
    ``cap`` of them kept as rows)."""
    from ..cryptarithm.solve import solve

    solved = solve(text, base=settings.base, cap=cap)
    rows = [Row(None, "", 0, 0.0, solved.puzzle, eq, dict(sol))
            for eq, sol in zip(solved.equations, solved.solutions)]
    title = solved.puzzle if solved.base == 10 else f"{solved.puzzle} (base {solved.base})"
    return Result("solve", text, title, dictionary, rows, solved.count,
                  complete=solved.complete)
