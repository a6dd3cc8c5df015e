"""The studio's jobs: CPU-bound work (fills, arrow words, candidates) in worker processes.

A :class:`JobBoard` runs at most ``workers`` jobs at once, each in a child process of its
own (forked: the child shares the loaded index, copy-on-write, and needs no reload), and
keeps at most ``queued`` more waiting; one more is refused (429).  A watcher thread a job
starts the child when a worker is free, reads what the child sends (progress, the result)
into the job, and kills the child when the job is cancelled: the child is never asked, so
a cancel takes effect within the watcher's poll (:data:`POLL`), whatever the engine is
doing.  The server's own threads answer word queries meanwhile.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing as mp
import os
import secrets
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import CryptocompError
from .settings import Limits, StudioError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["Job", "JobBoard", "Target", "QUEUED", "RUNNING", "DONE", "FAILED", "CANCELLED",
           "POLL", "FINISHED"]

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
FINISHED = (DONE, FAILED, CANCELLED)
POLL = 0.05  # seconds between a watcher's looks at its child and at the cancel flag

Send = Callable[[tuple], None]
Target = Callable[..., None]  # target(send, *args): runs in the child, sends (kind, value)


@dataclass
class Job:
    """One job: its state as the API shows it, changed only by its watcher (and cancel)."""

    id: str
    kind: str
    grid: list[str]
    status: str = QUEUED
    tightest: dict | None = None
    progress: dict = field(default_factory=dict)
    result: dict | None = None
    error: str | None = None
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    ended: float | None = None
    files: dict[str, bytes] = field(default_factory=dict)  # an arrow job's svg and pdf
    rows: list[dict] = field(default_factory=list)  # a generation's puzzles, as found
    version: int = 0  # bumped on every change: the event stream sends each new version
    cancel: threading.Event = field(default_factory=threading.Event)

    @property
    def elapsed(self) -> float:
        """Seconds it has run (0 while queued)."""
        if self.started is None:
            return 0.0
        return (self.ended or time.monotonic()) - self.started

    def snapshot(self) -> dict[str, Any]:
        """The job as ``GET /api/jobs/ID`` shows it."""
        out: dict[str, Any] = {"job": self.id, "kind": self.kind, "status": self.status,
                               "grid": self.grid, "tightest": self.tightest,
                               "elapsed": round(self.elapsed, 3), "progress": self.progress}
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out

    def _apply(self, kind: str, value: Any) -> None:
        """Take one message of the child."""
        if kind == "progress":
            if "grid" in value:  # a fill's best partial fill so far: the job's grid
                self.grid = value.pop("grid")
            self.progress = value
        elif kind == "files":
            self.files = value
        elif kind == "row":
            self.rows.append(value)
        elif kind == "done":
            self.result = value
            self.grid = value.get("grid", self.grid)
            self.tightest = value.get("tightest")
        self.version += 1


def _child(conn: Connection, target: Target, args: tuple) -> None:
    """The child: run the target, its errors sent as one line, then leave at once (a forked
    child must not run the server's exit handlers or wait on its threads' locks).  It
    leads a process group of its own: a SAT search it starts is killed with it."""
    with suppress(OSError):
        os.setpgid(0, 0)
    try:
        target(conn.send, *args)
    except CryptocompError as exc:
        conn.send(("error", str(exc)))
    except MemoryError:
        conn.send(("error", "out of memory"))
    except Exception as exc:
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()
    os._exit(0)


def _kill(pid: int | None) -> None:
    """Kill a child and its process group (the SAT child it may have started)."""
    if pid is None:
        return
    with suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
    with suppress(OSError):
        os.kill(pid, signal.SIGKILL)


class JobBoard:
    """The jobs of one studio: submitted, watched, cancelled, forgotten when old."""

    def __init__(self, limits: Limits, prepare: Callable[[], None] | None = None):
        """``prepare``: run once in the server before the first child is forked (compiling
        the engine there once, not in every child)."""
        self.limits = limits
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(limits.workers)
        self._prepare = prepare
        self._prepared = threading.Lock()
        self._numbers = itertools.count(1)
        self._threads: list[threading.Thread] = []
        self._ctx: Any = mp.get_context("fork" if "fork" in mp.get_all_start_methods()
                                        else "spawn")

    def submit(self, kind: str, grid: list[str], target: Target, args: tuple) -> Job:
        """Queue a job; StudioError (429) when ``queued`` jobs already wait."""
        with self._lock:
            active = sum(1 for j in self._jobs.values() if j.status not in FINISHED)
            if active >= self.limits.workers + self.limits.queued:
                raise StudioError(f"too many jobs: {self.limits.workers} running and "
                                  f"{self.limits.queued} waiting; try again later", 429)
            job = Job(f"{next(self._numbers)}-{secrets.token_hex(4)}", kind, list(grid))
            self._jobs[job.id] = job
            self._forget_old()
        thread = threading.Thread(target=self._watch, args=(job, target, args), daemon=True,
                                  name=f"studio-job-{job.id}")
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()
        return job

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if j.status in FINISHED]
        for job in finished[:max(0, len(finished) - self.limits.kept)]:
            del self._jobs[job.id]

    def get(self, job_id: str) -> Job:
        """The job of that id; StudioError (404) when there is none (or it was forgotten)."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise StudioError(f"no job {job_id[:40]!r} (finished jobs are kept only for a "
                              f"while)", 404)
        return job

    def cancel(self, job_id: str) -> Job:
        """Ask the job to stop: its watcher kills its child within :data:`POLL` seconds."""
        job = self.get(job_id)
        job.cancel.set()
        return job

    def cancel_all(self) -> None:
        """Ask every job to stop."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel.set()

    def close(self) -> None:
        """Cancel every job and wait for the watchers (the server is stopping)."""
        self.cancel_all()
        for thread in self._threads:
            thread.join(5.0)

    # -- the watcher ----------------------------------------------------------------------

    def _watch(self, job: Job, target: Target, args: tuple) -> None:
        got_slot = False
        try:
            while not (got_slot := self._slots.acquire(timeout=POLL)):
                if job.cancel.is_set():
                    break
            if not got_slot or job.cancel.is_set():
                self._end(job, CANCELLED, None)
                return
            self._run(job, target, args)
        except Exception as exc:  # a watcher never dies silently: the job says why
            log.exception("studio job %s failed", job.id)
            self._end(job, FAILED, f"{type(exc).__name__}: {exc}")
        finally:
            if got_slot:
                self._slots.release()

    def _run(self, job: Job, target: Target, args: tuple) -> None:
        if self._prepare is not None:
            with self._prepared:
                if self._prepare is not None:
                    self._prepare()
                    self._prepare = None
        recv, send = self._ctx.Pipe(duplex=False)
        # not a daemon: a daemonic process may not start the SAT engine's child
        proc = self._ctx.Process(target=_child, args=(send, target, args), daemon=False)
        job.started = time.monotonic()
        job.status = RUNNING
        job.version += 1
        proc.start()
        send.close()
        error: str | None = None
        try:
            while job.result is None and error is None:
                if job.cancel.is_set():
                    break
                if recv.poll(POLL):
                    try:
                        kind, value = recv.recv()
                    except EOFError:
                        break
                    if kind == "error":
                        error = value
                    else:
                        job._apply(kind, value)
                elif not proc.is_alive() and not recv.poll(0):
                    break
        finally:
            if proc.is_alive() and (job.cancel.is_set() or error or job.result is None):
                _kill(proc.pid)
            proc.join(5.0)
            if proc.is_alive():
                _kill(proc.pid)
                proc.join()
            recv.close()
        if job.result is not None:
            self._end(job, DONE, None)
        elif job.cancel.is_set():
            self._end(job, CANCELLED, None)
        else:
            self._end(job, FAILED, error or f"the worker process ended with status "
                                            f"{proc.exitcode} before it finished")

    def _end(self, job: Job, status: str, error: str | None) -> None:
        job.ended = time.monotonic()
        if job.started is None:
            job.started = job.ended
        job.status, job.error = status, error
        job.version += 1
