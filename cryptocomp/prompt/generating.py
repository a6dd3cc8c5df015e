"""``:from FILE ...`` and ``:doubly-true LO-HI ...``: the prompt's generation commands, thin
over :func:`cryptocomp.cryptarithm.harvest.harvest` (what ``compose --from`` and
``compose --doubly-true`` call).

``:from FILE [free | fixed WORD] [*] [N-M]``: every puzzle of the list's words with one
solution (``free``: sums on both sides; ``fixed WORD``: that right word; ``*``: products;
``N-M``: words a puzzle, the right one included).  ``:from FILE cross N``: the N×N crossword
systems of the list (``compose --from FILE --cross N``).  ``:doubly-true LO-HI [LANG] [N-M]``: the
doubly-true sums of [LO, HI] in LANG (default en).  Ctrl-C, or the ``:time SECONDS`` budget,
stops the search and shows what was found; ``:top`` and ``:difficulty`` apply to the table as
to a compose.
"""

from __future__ import annotations

import shlex
from typing import Protocol

from ..cryptarithm.crossgen import MIN_SIZE
from ..cryptarithm.generation import GenerationSpec
from ..cryptarithm.harvest import (
    CrossHarvest,
    Harvest,
    cross_harvest,
    cross_rating,
    harvest,
    rating,
    read_range,
    word_list,
)
from ..errors import QueryError
from ..files import read_text, shown
from ..rendering import Result, Row
from .reply import Reply
from .settings import Settings

__all__ = ["from_command", "doubly_true_command", "FROM_USAGE", "DOUBLY_TRUE_USAGE"]

FROM_USAGE = "FILE [free|fixed WORD] [*] [N-M] | FILE cross N"
DOUBLY_TRUE_USAGE = "LO-HI [LANG] [N-M]"


class Session(Protocol):
    """What the generation commands use of the prompt's session (its settings, the name
    of its dictionary, and the last result, which they replace)."""

    settings: Settings
    last: Result | None

    @property
    def short_name(self) -> str: ...
_LIST_BYTES = 16 * 2**20   # as compose --from: a larger file is no list of puzzle words


def _words_range(token: str, command: str) -> tuple[int, int | None]:
    """``N-M`` (or ``N-``): the least and most words of a puzzle."""
    if token.endswith("-"):
        return read_range(token + str(10**6), command)[0], None
    return read_range(token, command)


def _split(arg: str, command: str, usage: str) -> list[str]:
    try:
        tokens = shlex.split(arg)
    except ValueError as exc:
        raise QueryError(f"{command}: {exc} (usage: {command} {usage})") from None
    if not tokens:
        raise QueryError(f"usage: {command} {usage}")
    return tokens


def from_command(session: Session, arg: str) -> Reply:
    """``:from FILE ...``: the puzzles of a word list."""
    tokens = _split(arg, ":from", FROM_USAGE)
    path, rest = tokens[0], tokens[1:]
    if rest[:1] == ["cross"]:
        return _cross(session, arg, path, rest[1:])
    right, fixed, op, low, high = "unique", None, "+", 3, None
    while rest:
        token = rest.pop(0)
        if token == "free":
            right = "free"
        elif token == "fixed" and rest:
            right, fixed = "fixed", rest.pop(0).lower()
        elif token in ("*", "+"):
            op = token
        elif token == "cross":
            raise QueryError(":from FILE cross N takes nothing else (the grid's rows and "
                             "columns are sums of N-1 words)")
        elif token[:1].isdigit():
            low, high = _words_range(token, ":from")
        else:
            raise QueryError(f":from: {token!r} is none of free, fixed WORD, *, N-M "
                             f"(usage: :from {FROM_USAGE})")
    words, notes = word_list(read_text(path, "word list", QueryError, limit=_LIST_BYTES),
                             name=shown(path))
    if len(words) < 3:
        raise QueryError(f"word list {shown(path)} has {len(words)} usable words: a puzzle "
                         f"needs at least 3")
    spec = GenerationSpec(tuple(words), right=right, fixed=fixed, min_words=low,
                          max_words=high, op=op, base=session.settings.base)
    reply = _reply(session, f":from {arg}", shown(path), spec)
    if notes:
        message = "; ".join(filter(None, [f"{len(notes)} lines skipped: {notes[0]}",
                                          reply.message]))
        return Reply(result=reply.result, message=message)
    return reply


def _cross(session: Session, arg: str, path: str, rest: list[str]) -> Reply:
    """``:from FILE cross N``: the list's N×N crossword systems with one solution."""
    if len(rest) != 1 or not rest[0].isdigit():
        raise QueryError(f"usage: :from FILE cross N (a grid size from {MIN_SIZE})")
    n = int(rest[0])
    if n < MIN_SIZE:
        raise QueryError(f":from FILE cross N takes a grid size N from {MIN_SIZE} (got {n})")
    words, notes = word_list(read_text(path, "word list", QueryError, limit=_LIST_BYTES),
                             name=shown(path))
    if len(words) < n * n:
        raise QueryError(f":from {shown(path)} cross {n} fills a {n}×{n} grid with {n * n} "
                         f"distinct words: the list has {len(words)} usable")
    found = cross_harvest(words, n, base=session.settings.base, seconds=session.settings.time)
    result = _cross_result(session, f":from {arg}", f"{shown(path)} cross {n}", found)
    session.last = result
    message = _stop_note(session, found.stop)
    if notes:
        message = "; ".join(filter(None, [f"{len(notes)} lines skipped: {notes[0]}", message]))
    return Reply(result=result, message=message)


def doubly_true_command(session: Session, arg: str) -> Reply:
    """``:doubly-true LO-HI [LANG] [N-M]``: the doubly-true sums of a range."""
    from ..cryptarithm.numberwords import doubly_true_spec

    tokens = _split(arg, ":doubly-true", DOUBLY_TRUE_USAGE)
    lo, hi = read_range(tokens[0], ":doubly-true")
    lang, low, high = "en", 3, None
    for token in tokens[1:]:
        if token[:1].isdigit():
            low, high = _words_range(token, ":doubly-true")
        else:
            lang = token
    spec = doubly_true_spec(lo, hi, lang, min_words=low, max_words=high,
                            base=session.settings.base)
    return _reply(session, f":doubly-true {arg}", f"doubly true {lo}-{hi} ({lang})", spec)


def _reply(session: Session, query: str, title: str, spec: GenerationSpec) -> Reply:
    """Run the search (Ctrl-C keeps what was found) and make its result."""
    found = harvest(spec, seconds=session.settings.time)
    result = _result(session, query, title, found)
    session.last = result
    return Reply(result=result, message=_stop_note(session, found.stop))


def _stop_note(session: Session, stop: str) -> str:
    """The line saying the time budget cut the search short (empty otherwise)."""
    if stop != "time":
        return ""
    return (f"the time budget ran out (:time {session.settings.time:g}): the puzzles found "
            f"so far; the list is incomplete")


def _result(session: Session, query: str, title: str, found: Harvest) -> Result:
    """The harvest as a prompt result; with ``:difficulty on`` the rows shown are rated."""
    top = session.settings.shown
    rate = session.settings.difficulty
    rows = []
    for n, (g, equation) in enumerate(zip(found.puzzles, found.equations())):
        level = rating(g, found.spec.base) if rate and (top is None or n < top) else None
        rows.append(Row(None, "", 0, 0.0, puzzle=g.puzzle, solution=equation,
                        assignment=dict(g.solution), difficulty=level))
    return Result("generate", query, title, session.short_name, rows, len(rows),
                  complete=found.complete, level_column=rate)



def _cross_result(session: Session, query: str, title: str, found: CrossHarvest) -> Result:
    """The crosswords as a prompt result (puzzle: the system; solution: it in digits)."""
    top = session.settings.shown
    rate = session.settings.difficulty
    rows = []
    for n, (c, equation) in enumerate(zip(found.puzzles, found.equations())):
        level = cross_rating(c, found.base) if rate and (top is None or n < top) else None
        rows.append(Row(None, "", 0, 0.0, puzzle=c.text, solution=equation,
                        assignment=dict(c.solution), difficulty=level))
    return Result("generate", query, title, session.short_name, rows, len(rows),
                  complete=found.complete, level_column=rate)
