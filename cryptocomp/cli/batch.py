"""Options and the run loop every batch command shares (compose --batch, square/fill
--attempts, swedish --count): where tasks run, where groups go, progress, and the one line
on a stop."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from ..batch.cluster import SHIP_MODES
from ..errors import BatchError, BatchStopped, QueryError
from ..index.store import load_index, read_header, resolve_source, stale_reason
from ..numbers import NumberError, read_whole
from .options import dict_spec, is_terminal, live_progress, whole

if TYPE_CHECKING:
    from ..batch import DaskBackend, IndexShipment, ProcessPool, SerialBackend, Summary, Workload
    from ..batch.progress import BatchProgress
    from ..batch.runner import Sink

__all__ = ["add_batch_options", "run_workload"]

log = logging.getLogger("cryptocomp.batch")

_LOG_EVERY = 10.0   # seconds between progress lines when stderr is not a terminal


def add_batch_options(parser: argparse.ArgumentParser, unit: str) -> None:
    """--jobs, --scheduler, --cluster, --ship-index, --output, --resume."""
    g = parser.add_argument_group(f"batch (where the {unit} run, where results go)")
    whole(g, "--jobs", 1, default=None, metavar="N",
          help="local worker processes (default: all cores; 1: in this process)")
    g.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on the workers of a running Dask scheduler, e.g. "
                        "tcp://10.0.0.5:8786 (default: $DASK_SCHEDULER_ADDRESS, if set)")
    g.add_argument("--cluster", default=None, metavar="local:N",
                   help="run on a Dask LocalCluster of N worker processes (127.0.0.1)")
    g.add_argument("--ship-index", choices=SHIP_MODES, default="auto",
                   help="Dask workers load the index by path (shared file system) or get "
                        "its bytes once each (default auto: path when every worker sees "
                        "the file)")
    g.add_argument("--output", default=None, metavar="FILE",
                   help="append each finished group to FILE (resumable); default stdout")
    g.add_argument("--resume", action="store_true",
                   help="finish the batch already in --output FILE (same command)")


def _backend(args: argparse.Namespace, items: int
             ) -> SerialBackend | ProcessPool | DaskBackend:
    from ..batch import DaskBackend, ProcessPool, SerialBackend
    from ..batch.address import scheduler_address
    from ..batch.pool import check_local_workers

    if args.jobs is not None:  # at least 1: its parser says so
        check_local_workers(args.jobs, f"--jobs {args.jobs}")
    if args.cluster and args.scheduler:
        raise QueryError("give --scheduler or --cluster, not both")
    if args.cluster:
        kind, _, n = args.cluster.partition(":")
        if kind != "local" or not _workers(n):  # the rule of every number: ASCII digits
            raise QueryError(f"--cluster takes local:N with N >= 1 (got {args.cluster!r})")
        check_local_workers(int(n), f"--cluster {args.cluster}")
        return DaskBackend(local=int(n), ship=args.ship_index)
    address, what = args.scheduler, "--scheduler"
    if address is None and args.jobs is None:
        address, what = os.environ.get("DASK_SCHEDULER_ADDRESS") or None, \
            "$DASK_SCHEDULER_ADDRESS"
    if address:
        return DaskBackend(address=scheduler_address(address, what=what),
                           ship=args.ship_index)
    jobs = min(args.jobs or os.cpu_count() or 1, max(items, 1))
    return SerialBackend() if jobs == 1 else ProcessPool(jobs)


def _workers(n: str) -> int:
    """The N of ``--cluster local:N`` (cryptocomp.numbers' rule), 0 when it is no such number."""
    try:
        return read_whole(n, 1, grouped=False)
    except NumberError:
        return 0


def index_file(args: argparse.Namespace) -> tuple[Path, str]:
    """The index file the dictionary options name, built or rebuilt first if needed."""
    src = resolve_source(dict_spec(args), fold_yo=getattr(args, "fold_yo", False))
    path = src.index_path
    fresh = False
    if path.exists():
        fresh = stale_reason(read_header(path, hint=src.rebuild_hint), src) is None
    if not fresh:
        load_index(dict_spec(args), fold_yo=src.fold_yo, rebuild=path.exists())
        if not path.exists():
            raise BatchError(f"the index of {dict_spec(args)} could not be saved to {path}, "
                             f"and batch workers load it from there: set CRYPTOCOMP_HOME to a "
                             f"writable directory")
    return path, src.name


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM stops a batch like Ctrl-C (finished work kept, resume line printed)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@contextlib.contextmanager
def _progress(workload: Workload, backend_name: str
              ) -> Iterator[Callable[[BatchProgress], None]]:
    """A callback showing done/total, rate and ETA: a bar on a terminal, else a log line
    every few seconds."""
    title = f"{workload.kind}: {workload.total} {workload.unit} {backend_name}"
    if not is_terminal(sys.stderr):
        log.info("%s", title)
        last = [0.0]

        def log_line(p: BatchProgress) -> None:
            if p.elapsed - last[0] >= _LOG_EVERY and p.done < p.total:
                last[0] = p.elapsed
                log.info("%s", p.describe(workload.unit))

        yield log_line
        return
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

    # the time runs on while the first items are computed (a puzzle can take a minute)
    with live_progress(TextColumn("{task.description}"), BarColumn(),
                       TextColumn("{task.fields[info]}"), TimeElapsedColumn()) as bar:
        task = bar.add_task(title, total=workload.total, info="starting")

        def update(p: BatchProgress) -> None:
            bar.update(task, completed=p.done, total=p.total, info=p.describe(workload.unit))

        yield update


def run_workload(args: argparse.Namespace, workload: Workload, *,
                 shipment: IndexShipment | None = None, show: bool = True) -> Summary:
    """Run a batch as the options say; a stop becomes a :class:`BatchStopped` whose one
    line says what is kept and how to finish.  ``shipment``: what the workers load
    (default: the index the dictionary options name); ``show``: without ``--output``,
    print the groups (else the workload's ordered step shows its results itself)."""
    from ..batch import DiscardSink, IndexShipment, Journal, StreamSink, batch_id, run_batch

    if args.resume and not args.output:
        raise QueryError("--resume needs --output FILE")
    # before the index is built: a bad address or worker count is refused at once
    backend = _backend(args, workload.total)
    if shipment is None:
        path, name = index_file(args)
        shipment = IndexShipment.of_file(path, name)
    ident = batch_id(workload, shipment.checksum)
    sink = Journal(args.output) if args.output else StreamSink() if show else DiscardSink()
    try:
        with _sigterm_interrupts(), backend, \
                _progress(workload, backend.describe()) as report:
            summary = run_batch(workload, shipment, backend, sink, ident=ident,
                                resume=args.resume, on_progress=report)
    except BatchStopped as exc:
        raise _stopped(exc, workload, sink) from None
    except KeyboardInterrupt:   # while connecting or starting workers: nothing ran yet
        raise BatchStopped("interrupted before any work started", 0, workload.total,
                           interrupted=True) from None
    rate = summary.computed / summary.wall if summary.wall else 0.0
    log.info("%s: %d %s done in %.1f s (%.1f/s; %d tasks, %.1f CPU s in tasks)%s",
             workload.kind, summary.computed, workload.unit, summary.wall, rate, summary.tasks,
             summary.worker_cpu, f"; {summary.resumed} found done" if summary.resumed else "")
    return summary


def _stopped(exc: BatchStopped, workload: Workload, sink: Sink) -> BatchStopped:
    reason = str(exc)
    if sink.resumable:
        message = (f"batch stopped ({reason}): {exc.done} of {exc.total} {workload.unit} done "
                   f"and kept in {sink.where}; run the same command with --resume to finish")
    else:
        message = (f"batch stopped ({reason}) after {exc.done} of {exc.total} "
                   f"{workload.unit}; give --output FILE to make a batch resumable")
    return BatchStopped(message, exc.done, exc.total, interrupted=exc.interrupted)
