#!/usr/bin/env python
"""Where a cold compile of the fill engine spends its seconds: each compiled function's own
time (its callees' taken out) and its time with them, from numba's ``numba:compile``
events, in one process on an empty cache directory, with no helper process.

Every entry point is compiled in turn: the searches (root, run, undo), the choices and the
rows search, then the restarts' nogoods (learn, adopt), so the figures add up to what the
two processes of a first use share between them (``cryptocomp/crossword/warmup.py``).
``--tree`` prints the calls as numba compiled them, nested, with their times.

    python scripts/profile_compile.py [--tree] [--top 30]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Span:
    """One function's compile: its name, when it started, and its callees' compiles."""

    name: str
    start: float
    end: float = 0.0
    calls: list[Span] = field(default_factory=list)

    def seconds(self) -> float:
        """Its compile's seconds, callees included."""
        return self.end - self.start

    def own(self) -> float:
        """Its compile's seconds, callees left out."""
        return self.seconds() - sum(c.seconds() for c in self.calls)


def record(compile_all: Callable[[], None]) -> list[Span]:
    """The compiles ``compile_all()`` makes, as trees of spans."""
    from numba.core import event

    roots: list[Span] = []
    stack: list[Span] = []

    class Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            span = Span(ev.data["dispatcher"].py_func.__qualname__, time.perf_counter())
            (stack[-1].calls if stack else roots).append(span)
            stack.append(span)

        def on_end(self, ev: Any) -> None:
            stack.pop().end = time.perf_counter()

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        compile_all()
    finally:
        event.unregister("numba:compile", listener)
    return roots


def walk(spans: list[Span], depth: int = 0) -> Iterator[tuple[int, Span]]:
    """Each span with its depth, callers before their callees."""
    for span in spans:
        yield depth, span
        yield from walk(span.calls, depth + 1)


def main() -> None:
    """Compile the engine on an empty cache directory and print where the time went."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="store_true", help="print the nested compiles too")
    ap.add_argument("--top", type=int, default=30, help="functions listed (default 30)")
    args = ap.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="profile-compile-")

    from cryptocomp.crossword import warmup

    prob = warmup.tiny_problem()

    def compile_all() -> None:
        warmup.compile_searches(prob)
        warmup.compile_side(prob)
        warmup.compile_nogoods(prob)

    start = time.perf_counter()
    roots = record(compile_all)
    total = time.perf_counter() - start
    own: dict[str, float] = {}
    whole: dict[str, float] = {}
    for _, span in walk(roots):
        own[span.name] = own.get(span.name, 0.0) + span.own()
        whole[span.name] = whole.get(span.name, 0.0) + span.seconds()
    if args.tree:
        for depth, span in walk(roots):
            print(f"{'  ' * depth}{span.name} {span.seconds():.2f} s")
        print()
    print(f"{'own s':>7} {'with callees':>12}  function")
    for name, seconds in sorted(own.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{seconds:7.2f} {whole[name]:12.2f}  {name}")
    print(f"{len(own)} functions, {total:.2f} s in all (entry points: "
          + ", ".join(f"{s.name} {s.seconds():.2f}" for s in roots) + ")")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
