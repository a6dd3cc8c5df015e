"""The exceptions cryptocomp raises for bad input.

Every error a user can cause is a :class:`CryptocompError` whose ``str()`` is one
line that says what is wrong and, where it helps, what to do.  The CLI and the
prompt print that line and carry on; they never show a traceback for these.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "CryptocompError",
    "DictionaryError",
    "IndexFileError",
    "QueryError",
    "ExpressionError",
    "TileError",
    "BatchError",
    "BatchStopped",
    "BatchTimedOut",
]


class CryptocompError(Exception):
    """Base class: bad input or a bad file, reported as one line."""


class DictionaryError(CryptocompError):
    """A frequency dictionary cannot be read (missing, not UTF-8, empty)."""


class IndexFileError(CryptocompError):
    """An index file is missing, truncated, corrupt or cannot be written."""


class QueryError(CryptocompError):
    """A word query is malformed (unknown letter, bad template, bad range)."""


class ExpressionError(CryptocompError):
    """A puzzle expression is malformed; ``position`` is the 0-based column."""

    def __init__(self, message: str, position: int | None = None, text: str | None = None):
        self.position = position
        self.text = text
        if position is not None:
            message = f"{message} (at position {position + 1})"
        super().__init__(message)

    def caret(self) -> str:
        """Two lines: the expression (its line holding the column, when it has several) and a
        caret under the offending column."""
        if self.text is None or self.position is None:
            return ""
        start, shown = 0, ""
        for line in self.text.splitlines(keepends=True):
            shown = line.splitlines()[0] if line.splitlines() else ""
            if self.position <= start + len(shown):
                break
            start += len(line)
        else:  # after a final line break, or no text
            start, shown = len(self.text), ""
        return f"{shown}\n{' ' * _width(shown[:self.position - start])}^"


def _width(text: str) -> int:
    """The columns ``text`` takes in a terminal: a combining or format mark none, a wide
    (East Asian) character two, any other one; so the caret stands under its character."""
    columns = 0
    for ch in text:
        if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        columns += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return columns


class TileError(CryptocompError):
    """A tile set or a rack is malformed (unknown letter, too many blanks, empty)."""


class BatchError(CryptocompError):
    """A batch cannot start or go on: a busy output file, an unreachable scheduler."""


class BatchStopped(BatchError):
    """A batch ended before its last item; what finished is kept (``done`` of ``total``
    items) and, with an output file, the same command with ``--resume`` finishes it."""

    def __init__(self, message: str, done: int = 0, total: int = 0, interrupted: bool = False):
        self.done = done
        self.total = total
        self.interrupted = interrupted
        super().__init__(message)


class BatchTimedOut(BatchStopped):
    """A batch's time budget (``swedish --time``) ran out before its last item."""
