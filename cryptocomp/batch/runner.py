"""Running a batch: plan, dispatch, reorder, write, report, stop cleanly.

:func:`run_batch` is the one loop every batch command uses.  It asks the sink where
to start (a resumed output file has a done prefix and maybe groups finished ahead),
plans the remaining positions into tasks, hands them to the backend, and writes each
finished group as soon as every earlier one is written, through the workload's ordered
step (:meth:`~.workload.Workload.settle`); a group finished ahead of its turn is held
as the job returned it (in memory, and in ``FILE.journal`` for an output file) until
then.  It takes new tasks only while fewer than ``hold_limit`` groups wait, so memory
stays bounded when an early task is slow.

When a job's time budget runs out (an item came back unfinished: None), no new task is
given out, the tasks under way are taken in (they stop at the same deadline), and the
run stops like any other stop.

Whatever ends a run early (Ctrl-C, SIGTERM turned into it by the CLI, a dead worker, a
lost scheduler, a failed task) closes the sink with everything finished in it and
raises :class:`BatchStopped` saying how many items are done; the CLI turns that into
one line saying how to resume.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..errors import BatchStopped, BatchTimedOut
from .progress import BatchProgress, Meter
from .shipment import IndexShipment
from .workload import Job, Outcome, Positions, Task, Workload

__all__ = ["run_batch", "Summary", "Backend", "Sink"]

log = logging.getLogger(__name__)


class Backend(Protocol):
    """Runs tasks somewhere (:class:`~.pool.ProcessPool`, :class:`~.cluster.DaskBackend`)."""

    workers: int            # tasks it can run at once
    min_cost: float         # smallest task (estimated seconds) worth its scheduling cost

    def describe(self) -> str: ...

    def run(self, tasks: Iterator[Task], job: Job, shipment: IndexShipment, *,
            may_submit: Callable[[], bool]) -> Iterator[tuple[Task, Outcome]]: ...


class Sink(Protocol):
    """Where groups go, in order (:class:`~.journal.Journal`, :class:`~.journal.StreamSink`)."""

    resumable: bool
    where: str

    def start(self, workload: Workload, ident: str, *, resume: bool
              ) -> tuple[int, dict[int, bytes]]: ...

    def write(self, group: bytes) -> None: ...

    def hold(self, position: int, group: bytes) -> None: ...

    def finish(self) -> None: ...

    def close(self) -> None: ...


@dataclass
class Summary:
    """What a completed run did."""

    total: int                  # items of the batch
    resumed: int                # items found done (output file and its journal)
    computed: int               # items computed in this run
    tasks: int                  # tasks run
    wall: float                 # seconds of the run
    worker_cpu: float           # CPU seconds the tasks took on the workers
    workers: set[str] = field(default_factory=set)   # host:pid of every worker used


def run_batch(workload: Workload, shipment: IndexShipment, backend: Backend, sink: Sink, *,
              ident: str, resume: bool = False,
              on_progress: Callable[[BatchProgress], None] | None = None,
              hold_limit: int = 8192) -> Summary:
    """Run every item of ``workload`` not already in ``sink`` on ``backend``; write each
    group in order.  Raises :class:`BatchStopped` (sink closed, finished work kept) when
    the run ends early."""
    start = time.perf_counter()
    next_pos, held = sink.start(workload, ident, resume=resume)
    # lazily: a list of the positions left would be 36 bytes an item (36 GB for 10**9)
    todo = Positions(next_pos, workload.total, held)
    meter = Meter(workload.total, skipped=workload.total - len(todo))
    summary = Summary(workload.total, meter.skipped, 0, 0, 0.0, 0.0)
    state = {"next": next_pos}
    out_of_time: list[int] = []     # positions a job's time budget did not reach

    def flush() -> None:
        nxt = state["next"]
        while nxt in held:
            sink.write(workload.settle(nxt, held.pop(nxt)))
            nxt += 1
        state["next"] = nxt

    def with_items(tasks: Iterator[Task]) -> Iterator[Task]:
        for task in tasks:
            if out_of_time:
                return          # the backend takes in what runs, then ends
            yield replace(task, items=tuple(workload.item(p) for p in task.positions))

    plan = workload.plan(todo, workers=backend.workers, min_cost=backend.min_cost)
    runs = backend.run(with_items(plan), workload.job, shipment,
                       may_submit=lambda: len(held) < hold_limit) if len(todo) else iter(())
    try:
        if on_progress is not None:
            on_progress(meter.snapshot())
        flush()
        for task, outcome in runs:
            finished = _place(workload, sink, task, outcome, state, held, out_of_time)
            flush()
            summary.tasks += 1
            summary.computed += finished
            summary.worker_cpu += outcome.cpu
            summary.workers.add(outcome.worker)
            snapshot = meter.advance(finished)
            if on_progress is not None:
                on_progress(snapshot)
        flush()
        if out_of_time:
            raise BatchTimedOut("time budget ran out")
        if state["next"] != workload.total:
            raise RuntimeError(f"batch ended at item {state['next']} of {workload.total}")
    except KeyboardInterrupt:
        _close(runs)
        sink.close()
        raise BatchStopped("interrupted", meter.done, workload.total, interrupted=True) from None
    except BatchStopped as exc:
        _close(runs)
        sink.close()
        raise type(exc)(str(exc), meter.done, workload.total) from None
    except BaseException:
        _close(runs)
        sink.close()
        raise
    sink.finish()
    summary.wall = time.perf_counter() - start
    return summary


def _place(workload: Workload, sink: Sink, task: Task, outcome: Outcome, state: dict,
           held: dict, out_of_time: list[int]) -> int:
    """Writes each group of a task that is next in order, holds the others and notes those
    out of time; how many groups were finished."""
    finished = 0
    # a task's positions come unit by unit: in order, fewer wait for their turn
    for pos, group in sorted(zip(task.positions, outcome.groups), key=lambda pair: pair[0]):
        if group is None:
            out_of_time.append(pos)
            continue
        finished += 1
        if pos == state["next"]:
            sink.write(workload.settle(pos, group))
            state["next"] = pos + 1
        else:
            held[pos] = group
            sink.hold(pos, group)
    return finished


def _close(runs: Iterator[tuple[Task, Outcome]]) -> None:
    """End the backend's run now (its workers stop; their unfinished tasks are dropped)."""
    close = getattr(runs, "close", None)
    if close is not None:
        close()
