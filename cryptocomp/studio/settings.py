"""The studio's settings: where it listens, its token, and the limits on every request."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field

from ..crossword.grid import MAX_SIDE
from ..errors import CryptocompError

__all__ = ["Limits", "StudioSettings", "StudioError", "is_loopback", "DEFAULT_HOST",
           "DEFAULT_PORT"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


class StudioError(CryptocompError):
    """A request the studio refuses (bad parameter, too large, no such job): one line,
    answered with ``status``."""

    def __init__(self, message: str, status: int = 400):
        self.status = status
        super().__init__(message)


def _workers() -> int:
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Limits:
    """The bounds of what one request may ask (each refused past it with one line)."""

    max_body: int = 1 << 20         # bytes of a request body
    max_query: int = 200            # characters of a q= query (a template or a puzzle)
    max_top: int = 10_000           # rows of one answer
    max_side: int = MAX_SIDE        # cells a side of a grid: the CLI's bound
    max_cells: int = 250_000        # cells of a grid (a 500x500 one: far beyond any crossword)
    workers: int = field(default_factory=_workers)  # jobs running at once, a process each
    queued: int = 8                 # jobs waiting for a worker; one more is refused (429)
    kept: int = 64                  # finished jobs kept for GET /api/jobs/ID
    job_seconds: float = 600.0      # the longest time budget a job may ask
    default_seconds: float = 60.0   # a fill's budget when it names none
    candidates_seconds: float = 30.0  # the longest budget of one /api/candidates
    cached_answers: int = 1024      # words answers kept (0: none); see studio.answercache

    def __post_init__(self) -> None:
        if min(self.max_body, self.max_query, self.max_top, self.max_side, self.max_cells,
               self.workers, self.kept) < 1 or min(self.queued, self.cached_answers) < 0:
            raise StudioError("every studio limit must be positive")


@dataclass(frozen=True)
class StudioSettings:
    """Where the studio listens and who may ask: a non-loopback host needs a token."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    token: str | None = None
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise StudioError(f"--port must be 0 to 65535, not {self.port}")
        if self.token is not None and (len(self.token) < 8 or not self.token.isprintable()
                                       or " " in self.token):
            raise StudioError("--token must be at least 8 printable characters, no spaces")
        if not is_loopback(self.host) and not self.token:
            raise StudioError(f"--host {self.host} is reachable from other machines: give "
                              f"--token T too (every request must then carry it)")

    @property
    def url(self) -> str:
        """The address a browser on this machine opens."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"


def is_loopback(host: str) -> bool:
    """True for a host only this machine reaches (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
