"""A bounded cache of encoded query answers, keyed by the query's parameters.

The index a studio serves is read-only, so an answer never goes stale: no invalidation,
only eviction of the least recently used answer once the cache is full. The page asks the
same templates again and again as the user types and deletes, and a repeated answer then
costs a dictionary look-up instead of a match and a JSON encoding.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping

from .parameters import Raw

__all__ = ["AnswerCache", "query_key", "CACHED_BYTES"]

CACHED_BYTES = 64 * 1024  # a longer answer (a big top) is encoded each time, not kept

Key = tuple[tuple[str, str], ...]


def query_key(params: Mapping[str, Raw]) -> Key:
    """The parameters as a key: sorted, the token left out (it does not change the answer)."""
    return tuple(sorted((k, str(v)) for k, v in params.items() if k != "token"))


class AnswerCache:
    """The last ``size`` encoded answers; safe to share between the event loop and threads."""

    def __init__(self, size: int, most_bytes: int = CACHED_BYTES):
        if size < 0:
            raise ValueError("a cache size is 0 or more")
        self.size, self.most_bytes = size, most_bytes
        self._kept: OrderedDict[Key, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, params: Mapping[str, Raw], answer: Callable[[], bytes]) -> bytes:
        """The answer to ``params``: kept, or ``answer()`` (kept if short enough); an
        exception from ``answer`` (a bad query) propagates and nothing is kept."""
        key = query_key(params)
        with self._lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
                self.hits += 1
                return body
            self.misses += 1
        body = answer()  # outside the lock: two threads may both compute one answer, once
        if self.size and len(body) <= self.most_bytes:
            with self._lock:
                self._kept[key] = body
                self._kept.move_to_end(key)
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        return body
