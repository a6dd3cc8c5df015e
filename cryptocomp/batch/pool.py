"""Local backends: in this process (``--jobs 1``), or a pool of worker processes.

A backend runs tasks and yields ``(task, outcome)`` as they finish, in any order; it
pulls tasks from the runner's iterator only while the runner accepts more (``may_submit``)
and keeps a few per worker in flight, so that workers never wait for the client.

The pool's processes are started fresh (``spawn``: no state copied from a client that
may hold threads and locks), each loads the index once in its initializer, and they
ignore Ctrl-C: the client alone handles it, stops the batch cleanly and ends them.  A
worker that dies (killed, out of memory) ends the batch with the finished work kept.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from ..errors import BatchError, BatchStopped, CryptocompError
from .shipment import IndexShipment, worker_index, worker_name
from .workload import Job, Outcome, Task, execute

__all__ = ["SerialBackend", "ProcessPool", "MAX_WORKERS_PER_CPU", "check_local_workers"]

log = logging.getLogger(__name__)

# worker processes one machine may start, a core: the tasks are CPU-bound, so more only
# queue for the cores, and each process holds the index and its derived tables (a
# thousand of them would take the machine's memory); four a core leaves room for SMT
MAX_WORKERS_PER_CPU = 4


def check_local_workers(n: int, what: str = "local worker processes") -> None:
    """Refuse (:class:`BatchError`, one line) ``n`` worker processes on this machine when it
    is below 1 or above :data:`MAX_WORKERS_PER_CPU` times its cores."""
    cores = os.cpu_count() or 1
    limit = MAX_WORKERS_PER_CPU * cores
    if n < 1:
        raise BatchError(f"{what}: {n}; at least 1 worker process is needed")
    if n > limit:
        raise BatchError(f"{what}: {n:,} worker processes asked, at most {limit} on this "
                         f"machine ({MAX_WORKERS_PER_CPU} a core, {cores} "
                         f"core{'s' if cores != 1 else ''}): the tasks use a core each, and "
                         f"each process holds the index")

class SerialBackend:
    """Tasks run one after another in this process."""

    workers = 1
    min_cost = 0.0          # no scheduling at all: any task size is fine

    def describe(self) -> str:
        return "in this process"

    def __enter__(self) -> SerialBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def run(self, tasks: Iterator[Task], job: Job, shipment: IndexShipment, *,
            may_submit: Callable[[], bool] = lambda: True) -> Iterator[tuple[Task, Outcome]]:
        for task in tasks:
            try:
                yield task, execute(job, shipment, task)
            except CryptocompError as exc:
                raise BatchStopped(str(exc)) from None


def _init_worker(shipment: IndexShipment) -> None:
    # Ctrl-C is the client's to handle: a worker dying of it would lose its task noisily
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        worker_index(shipment)
    except CryptocompError as exc:  # the first task reports it as one line
        log.debug("worker %s: %s", worker_name(), exc)


class ProcessPool:
    """A pool of ``jobs`` local worker processes."""

    min_cost = 0.05         # a task round trip costs well under a millisecond

    def __init__(self, jobs: int | None = None):
        self.workers = max(1, jobs or os.cpu_count() or 1)
        check_local_workers(self.workers)
        self._executor: ProcessPoolExecutor | None = None

    def describe(self) -> str:
        return f"on {self.workers} local worker process{'es' if self.workers != 1 else ''}"

    def __enter__(self) -> ProcessPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the workers now (tasks still running are abandoned: their results are not
        finished work)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        processes = list(getattr(executor, "_processes", {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            if p.is_alive():
                p.terminate()
        for p in processes:
            p.join(timeout=5)

    def run(self, tasks: Iterator[Task], job: Job, shipment: IndexShipment, *,
            may_submit: Callable[[], bool] = lambda: True) -> Iterator[tuple[Task, Outcome]]:
        self._executor = ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_worker, initargs=(shipment,))
        running: dict[Future, Task] = {}
        cap = 2 * self.workers + 1
        exhausted = False
        try:
            while True:
                while not exhausted and len(running) < cap and (not running or may_submit()):
                    task = next(tasks, None)
                    if task is None:
                        exhausted = True
                        break
                    running[self._executor.submit(execute, job, shipment, task)] = task
                if not running:
                    return
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in sorted(finished, key=lambda f: running[f].number):
                    task = running.pop(future)
                    yield task, _outcome(future)
        finally:
            self.close()


def _outcome(future: Future) -> Outcome:
    try:
        return future.result()
    except BrokenProcessPool:
        raise BatchStopped("a worker process died (killed, or out of memory)") from None
    except BatchError as exc:
        raise BatchStopped(str(exc)) from None
    except CryptocompError as exc:
        raise BatchStopped(str(exc)) from None
    except Exception as exc:  # a bug in a worker: stop, keep what is finished, say what
        log.debug("task failed", exc_info=exc)
        raise BatchStopped(f"a task failed: {type(exc).__name__}: {exc}") from None
