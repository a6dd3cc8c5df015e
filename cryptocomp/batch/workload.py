"""What a batch runs: items in a fixed order, packed into tasks, each item one output group.

A :class:`Workload` lives on the client: it names its items (``key(i)`` for position
``i``), packs positions into :class:`Task` s and knows how to read its output groups
back (:meth:`Workload.frame`, to check an output file before resuming it).  Its
:attr:`Workload.job` is the worker side: a small picklable callable that turns a task's
items into one encoded group each, given the index.  :func:`execute` is what a pool or
a Dask worker runs for a task.

Groups are UTF-8 text.  In text form a group is a header line ``# KEY: ...`` that says
how many lines follow; in JSON form it is one JSON Lines object.  Both are deterministic
(no timings), so a resumed batch writes the same bytes as an uninterrupted one.

A workload may have an *ordered step* on the client: :meth:`Workload.settle` turns the
group a job returned (*raw*) into the group written, item after item in order, and
:meth:`Workload.replay` rebuilds its state from the groups a resumed output file already
holds (the arrow-word generator's hidden phrases, each used once a batch, are chosen so).
Groups finished ahead of their turn wait raw, in memory and in the output file's journal.
A job with a time budget returns None for the items it did not reach in time; the batch
then stops once the tasks under way are in, with what is finished kept.

>>> units = [Unit((0, 1), 0.4), Unit((2,), 0.1), Unit((3,), 0.1), Unit((4, 5), 2.0)]
>>> [t.positions for t in pack(units, target=0.5)]
[(0, 1, 2), (3, 4, 5)]
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from ..index.index import Index
from .shipment import IndexShipment, worker_index, worker_name

__all__ = ["Task", "Unit", "Outcome", "Job", "Workload", "Unordered", "Positions", "execute",
           "json_object", "pack"]


@dataclass(frozen=True)
class Unit:
    """Positions that must run together (they share work), with an estimated cost (s)."""

    positions: tuple[int, ...]
    cost: float


@dataclass(frozen=True)
class Task:
    """Positions run as one task on one worker, and their items."""

    number: int
    positions: tuple[int, ...]
    items: tuple = ()
    cost: float = 0.0


@dataclass(frozen=True)
class Outcome:
    """A finished task: one encoded group per position, and what it cost the worker."""

    groups: tuple[bytes | None, ...]   # None: not reached in the job's time budget
    cpu: float          # CPU seconds of the worker thread that ran the task
    wall: float         # worker wall seconds of the task
    worker: str         # host:pid


class Job(Protocol):
    """The worker side of a workload (picklable; sent with every task, so keep it small)."""

    def __call__(self, index: Index, items: tuple) -> list[bytes | None]:
        """One encoded group per item, in order (None: the job's time budget ran out
        before the item)."""


class Workload(Protocol):
    """The client side of a batch."""

    kind: str           # "compose", "square", ... (recorded in the output file's header)
    unit: str           # what an item is called in messages: "queries", "attempts"
    total: int          # number of items
    json: bool          # groups are JSON Lines objects, else text

    @property
    def job(self) -> Job:
        """The worker side (read-only, so a workload may hold a more specific job)."""

    def key(self, position: int) -> str:
        """The item's key, as its group names it."""

    def item(self, position: int) -> object:
        """The item the job receives for this position."""

    def identity(self) -> dict:
        """Everything besides the index that decides the output (JSON-able)."""

    def plan(self, positions: Collection[int], *, workers: int, min_cost: float
             ) -> Iterator[Task]:
        """The positions (increasing; iterated once, lazily) packed into tasks of at least
        ``min_cost`` estimated seconds where possible, in the order of their first position."""

    def frame(self, line: str, key: str, *, raw: bool = False) -> int | None:
        """How many lines follow ``line`` in its group if it starts the group of ``key``,
        else None (a resumed output file is checked group by group with it; ``raw``: a
        group as the job returned it, held in the journal)."""

    def settle(self, position: int, group: bytes) -> bytes:
        """The group to write for the item at ``position``, given the job's: called on the
        client in item order (most workloads return ``group`` itself)."""

    def replay(self, position: int, group: bytes) -> None:
        """Take in a group found written in a resumed output file (in item order), so that
        :meth:`settle` goes on from the state an uninterrupted run would have."""


def json_object(line: str) -> dict | None:
    """``line`` read as a JSON object, or None (not JSON, or not an object): what a
    workload's ``frame`` checks a JSON Lines group against."""
    try:
        doc = json.loads(line)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


class Positions(Collection[int]):
    """The positions a run has left, in increasing order: ``start`` up to ``stop`` but those
    in ``ahead`` (finished ahead of their turn by an earlier run); sized and iterable
    without a list, so that a batch of a billion items costs no memory for its plan."""

    def __init__(self, start: int, stop: int, ahead: Iterable[int] = ()):
        self.start, self.stop = start, max(start, stop)
        self.ahead = frozenset(p for p in ahead if start <= p < stop)

    def __len__(self) -> int:
        return self.stop - self.start - len(self.ahead)

    def __iter__(self) -> Iterator[int]:
        ahead = self.ahead
        return (p for p in range(self.start, self.stop) if p not in ahead)

    def __contains__(self, position: object) -> bool:
        return isinstance(position, int) and self.start <= position < self.stop and \
            position not in self.ahead


class Unordered:
    """The ordered step of a workload that has none: groups are written as the workers
    made them, and a resumed file leaves no state to rebuild."""

    def settle(self, position: int, group: bytes) -> bytes:
        return group

    def replay(self, position: int, group: bytes) -> None:
        pass


def execute(job: Job, shipment: IndexShipment, task: Task, data: bytes | None = None) -> Outcome:
    """Run a task on a worker: the index from the process's cache, then the job."""
    # thread time: a Dask worker runs other threads (its event loop, other tasks)
    wall, cpu = time.perf_counter(), time.thread_time()
    index = worker_index(shipment, data)
    groups = job(index, task.items)
    if len(groups) != len(task.positions):
        raise RuntimeError(f"job returned {len(groups)} groups for {len(task.positions)} items")
    return Outcome(tuple(groups), time.thread_time() - cpu, time.perf_counter() - wall,
                   worker_name())


def pack(units: Iterable[Unit], *, target: float, first: int = 0) -> Iterator[Task]:
    """Consecutive units merged into tasks of at least ``target`` estimated seconds
    (the last may be smaller); a unit is never split."""
    number = first
    positions: list[int] = []
    cost = 0.0
    for unit in units:
        positions.extend(unit.positions)
        cost += unit.cost
        if cost >= target:
            yield Task(number, tuple(positions), cost=cost)
            number += 1
            positions, cost = [], 0.0
    if positions:
        yield Task(number, tuple(positions), cost=cost)
