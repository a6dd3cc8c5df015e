"""What one prompt line produced (:class:`Reply`), the session's answer to the loops."""

from __future__ import annotations

from dataclasses import dataclass

from ..rendering import Result

__all__ = ["Reply"]


@dataclass(frozen=True)
class Reply:
    """What a line produced: a result, a message, a help table, or the wish to quit."""

    result: Result | None = None
    message: str = ""
    help: bool = False
    quit: bool = False
