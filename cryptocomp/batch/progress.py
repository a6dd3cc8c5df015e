"""How far a batch is: items done of the total, the rate, and the time left.

The rate counts only the items finished in this run (a resumed batch's earlier items
took no time now), and the time left is the items left at that rate.

>>> meter = Meter(total=10, skipped=4, clock=iter([0.0, 2.0]).__next__)
>>> p = meter.advance(2)
>>> p.done, p.total, p.rate, p.eta
(6, 10, 1.0, 4.0)
>>> p.describe("queries")
'6/10 queries, 1.0/s, ETA 0:04'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["BatchProgress", "Meter", "format_duration"]


@dataclass(frozen=True)
class BatchProgress:
    """A snapshot of a batch: ``done`` of ``total`` items (``skipped`` of them done by
    earlier runs)."""

    done: int
    total: int
    skipped: int
    elapsed: float          # seconds since this run started
    rate: float             # items finished per second in this run
    eta: float | None       # seconds left, None until something finished

    def describe(self, unit: str = "items") -> str:
        """One line: ``812/1800 queries, 21.3/s, ETA 0:46``."""
        text = f"{self.done}/{self.total} {unit}, {self.rate:.1f}/s"
        if self.eta is not None and self.done < self.total:
            text += f", ETA {format_duration(self.eta)}"
        return text


def format_duration(seconds: float) -> str:
    """``H:MM:SS`` or ``M:SS``."""
    s = int(round(max(0.0, seconds)))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Meter:
    """Counts finished items and makes :class:`BatchProgress` snapshots."""

    def __init__(self, total: int, *, skipped: int = 0,
                 clock: Callable[[], float] = time.monotonic):
        self.total = total
        self.skipped = skipped
        self.done = skipped
        self._clock = clock
        self._start = clock()

    def advance(self, items: int) -> BatchProgress:
        """Record ``items`` more finished; a snapshot."""
        self.done += items
        return self.snapshot()

    def snapshot(self) -> BatchProgress:
        elapsed = max(self._clock() - self._start, 1e-9)
        new = self.done - self.skipped
        rate = new / elapsed
        eta = (self.total - self.done) / rate if new else None
        return BatchProgress(self.done, self.total, self.skipped, elapsed, rate, eta)
