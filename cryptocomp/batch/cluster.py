"""The Dask backend: tasks on a running Dask scheduler's workers, or on a LocalCluster.

Needs the optional extra: ``pip install 'cryptocomp[dask]'`` (``dask[distributed]``),
on the client and on every worker (the same cryptocomp version: a worker running another
one refuses the tasks with one line saying so).

* ``DaskBackend(address="tcp://host:8786")`` connects to a scheduler started with
  ``dask scheduler``, whose workers were started with ``dask worker ADDRESS`` (the
  address's form is checked at once, and the peer is checked to be a Dask server before
  ``distributed`` connects: see :mod:`.address`; connecting takes ``connect_timeout``
  seconds at most);
* ``DaskBackend(local=N)`` starts a ``LocalCluster`` of N single-threaded worker
  processes listening on 127.0.0.1 only (N at most
  :data:`~.pool.MAX_WORKERS_PER_CPU` a core), and ends it with the batch.

The index reaches each worker once (see :mod:`.shipment`): by path when every worker
sees the client's index file with the same checksum (one machine, or a shared file
system), else as the file's bytes scattered once to all workers (``broadcast``), which a
worker checks against the checksum before loading them.  With ``ship="path"`` or
``ship="bytes"`` the choice is forced.

Failures: Dask itself reruns the tasks of a worker that died on other workers (a
LocalCluster's nanny also restarts it); a task that kills three workers, a worker that
cannot load the index, or a lost scheduler end the batch with :class:`BatchStopped`,
the finished work kept.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..errors import BatchError, BatchStopped, CryptocompError
from .shipment import IndexShipment
from .workload import Job, Outcome, Task, execute

if TYPE_CHECKING:
    from distributed import Future

__all__ = ["DaskBackend", "dask_available", "SHIP_MODES", "WORKER_CONFIG", "worker_environment"]

log = logging.getLogger(__name__)

SHIP_MODES = ("auto", "path", "bytes")

# Dask settings for CPU-bound batches.  A Dask server's periodic monitors (event-loop tick
# every 20 ms, memory every 100 ms, system every 500 ms, the statistical profiler every
# 10 ms) cost an idle scheduler and two workers 2.5 CPU s a minute on this machine; with
# these, 0.3 s (measured with scripts/bench_batch.py's setup, idle for 30 s).  Workers may
# start processes of their own (a fill's SAT solver in a child): not daemonic.
WORKER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.daemon": False,
}
_QUIET = ("distributed", "tornado", "asyncio")   # loggers that would print tracebacks


def dask_available() -> bool:
    """True when ``dask.distributed`` can be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def worker_environment() -> dict[str, str]:
    """:data:`WORKER_CONFIG` as the environment variables that give it to ``dask scheduler``
    and ``dask worker`` processes started by hand, and ``NUMBA_CACHE_DIR`` naming where this
    process keeps the compiled engines' machine code (:mod:`..jitcache`), so that
    a fresh worker's first task loads it instead of compiling it again."""
    from ..jitcache import FAMILIES, place

    env = {}
    for key, value in WORKER_CONFIG.items():
        name = "DASK_" + "__".join(part.replace("-", "_").upper() for part in key.split("."))
        env[name] = str(value)
    roots = {here.parent for here in (place(f).path for f in FAMILIES) if here is not None}
    if len(roots) == 1:  # one directory holds both (numba takes one)
        env["NUMBA_CACHE_DIR"] = str(roots.pop())
    return env


def _sees(shipment: IndexShipment) -> bool:
    """Run on each worker: does it see the client's index file?"""
    return shipment.visible()


@contextlib.contextmanager
def _children_ignore_sigint() -> Iterator[None]:
    """Processes started inside ignore Ctrl-C (an ignored signal stays ignored across
    exec, and Python then installs no handler): the client alone stops the batch."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


class DaskBackend:
    """Tasks on Dask workers; a context manager that connects (or starts) and closes."""

    min_cost = 0.25         # a task costs the client and scheduler a few milliseconds

    def __init__(self, *, address: str | None = None, local: int | None = None,
                 ship: str = "auto", connect_timeout: float = 10.0,
                 worker_timeout: float = 30.0):
        if (address is None) == (local is None):
            raise ValueError("give a scheduler address or a number of local workers")
        if ship not in SHIP_MODES:
            raise ValueError(f"ship must be one of {SHIP_MODES}")
        if local is not None and local < 1:
            raise BatchError("--cluster local:N needs N >= 1 worker processes")
        # imported here: the CLI imports this module for SHIP_MODES alone
        from .address import scheduler_address
        from .pool import check_local_workers

        if local is not None:
            check_local_workers(local, f"a LocalCluster of {local}")
        self.address = address if address is None else scheduler_address(address)
        self.local = local
        self.ship = ship
        self.connect_timeout = connect_timeout
        self.worker_timeout = worker_timeout
        self.workers = local or 1
        self.shipped = ""           # "path" or "bytes", once run() chose
        self._client: Any = None    # distributed.Client, imported only when used
        self._cluster: Any = None   # distributed.LocalCluster
        self._levels: dict[str, int] = {}

    def describe(self) -> str:
        where = "a LocalCluster on 127.0.0.1" if self.local else f"the scheduler {self.address}"
        return f"on {self.workers} Dask worker thread{'s' if self.workers != 1 else ''} of {where}"

    # -- connecting -------------------------------------------------------------------------

    def __enter__(self) -> DaskBackend:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise BatchError("Dask is not installed: pip install 'cryptocomp[dask]' (or "
                             "run without --scheduler/--cluster for the local pool)") from None
        for name in _QUIET:
            logger = logging.getLogger(name)
            self._levels[name] = logger.level
            logger.setLevel(logging.CRITICAL)
        try:
            if self.local:
                # the scheduler always serves some HTTP routes: on a free port of 127.0.0.1
                # (None would mean :8787, and a warning when another cluster has it)
                with dask.config.set(WORKER_CONFIG), _children_ignore_sigint():
                    self._cluster = LocalCluster(
                        n_workers=self.local, threads_per_worker=1, processes=True,
                        host="127.0.0.1", dashboard_address="127.0.0.1:0",
                        worker_dashboard_address=None, silence_logs=logging.CRITICAL)
                self.address = self._cluster.scheduler_address
                self._client = Client(self._cluster, set_as_default=False)
            else:
                from .address import probe

                assert self.address is not None     # __init__: an address or local
                probe(self.address, self.connect_timeout)
                # a Client gives its timeout to the connection and to each of two requests
                self._client = _within(
                    3 * self.connect_timeout,
                    lambda: Client(self.address, timeout=self.connect_timeout,
                                   set_as_default=False))
        except (OSError, TimeoutError) as exc:
            self.close()
            raise BatchError(f"cannot reach the Dask scheduler at {self.address} ({exc}); "
                             f"start one with `dask scheduler` and workers with "
                             f"`dask worker ADDRESS`") from None
        except CryptocompError:
            self.close()
            raise
        except Exception as exc:
            self.close()
            log.debug("connecting to %s", self.address, exc_info=exc)
            raise BatchError(f"the Dask scheduler at {self.address} answered but could not "
                             f"be used ({type(exc).__name__}: {exc})") from None
        except BaseException:
            self.close()
            raise
        try:
            self._client.wait_for_workers(1, timeout=self.worker_timeout)
        except (OSError, TimeoutError):
            self.close()
            raise BatchError(f"no Dask worker joined the scheduler at {self.address} in "
                             f"{self.worker_timeout:.0f} s; start some with "
                             f"`dask worker {self.address}`") from None
        self.workers = max(1, sum(self._client.nthreads().values()))
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Disconnect; a LocalCluster's processes end too."""
        client, self._client = self._client, None
        cluster, self._cluster = self._cluster, None
        for thing in (client, cluster):
            if thing is None:
                continue
            try:
                thing.close(timeout=5) if thing is client else thing.close()
            except Exception as exc:
                log.debug("closing %s: %s", thing, exc)
        for name, level in self._levels.items():
            logging.getLogger(name).setLevel(level)
        self._levels.clear()

    # -- running ----------------------------------------------------------------------------

    def _ship(self, shipment: IndexShipment) -> Future | None:
        """The future of the index bytes on every worker, or None when they read the path."""
        mode = self.ship
        if mode == "auto":
            seen = self._client.run(_sees, shipment)
            mode = "path" if seen and all(seen.values()) else "bytes"
        self.shipped = mode
        if mode == "path":
            log.debug("workers load the index from %s", shipment.path)
            return None
        data = shipment.read_bytes()
        log.debug("scattering the index (%d bytes) to %d workers", len(data), self.workers)
        return self._client.scatter(data, broadcast=True, hash=False)

    def run(self, tasks: Iterator[Task], job: Job, shipment: IndexShipment, *,
            may_submit: Callable[[], bool] = lambda: True) -> Iterator[tuple[Task, Outcome]]:
        from distributed import as_completed

        client = self._client
        assert client is not None, "DaskBackend used outside its with block"
        token = uuid.uuid4().hex[:8]
        running: dict = {}
        try:
            data = self._ship(shipment)
            pending = as_completed(loop=client.loop)
            exhausted = False
            checked = 0.0
            while True:
                if time.monotonic() - checked > 5.0:   # workers come and go; ask now and then
                    self.workers = max(1, sum(client.nthreads().values()))
                    checked = time.monotonic()
                cap = 2 * self.workers + 1
                while not exhausted and len(running) < cap and (not running or may_submit()):
                    task = next(tasks, None)
                    if task is None:
                        exhausted = True
                        break
                    future = client.submit(execute, job, shipment, task, data, pure=False,
                                           key=f"cryptocomp-{token}-{task.number}")
                    running[future] = task
                    pending.add(future)
                if not running:
                    return
                future = next(pending)
                task = running.pop(future)
                yield task, self._outcome(future)
        except BatchStopped:
            raise
        except CryptocompError as exc:
            raise BatchStopped(str(exc)) from None
        except (OSError, TimeoutError) as exc:
            raise BatchStopped(f"lost the Dask scheduler at {self.address} ({exc})") from None
        except Exception as exc:
            if _is_cancelled(exc):
                raise BatchStopped(f"lost the Dask scheduler at {self.address}") from None
            raise
        finally:
            if running and self._client is not None:
                try:
                    self._client.cancel(list(running), force=True)
                except Exception as exc:
                    log.debug("cancelling: %s", exc)

    def _outcome(self, future: Future) -> Outcome:
        try:
            return future.result()
        except CryptocompError as exc:
            raise BatchStopped(str(exc)) from None
        except Exception as exc:
            name = type(exc).__name__
            if name == "KilledWorker":
                raise BatchStopped("a task was running on three workers that died (killed, "
                                   "or out of memory); the batch stopped") from None
            if _is_cancelled(exc) or isinstance(exc, OSError):
                raise BatchStopped(f"lost the Dask scheduler at {self.address}") from None
            log.debug("task failed", exc_info=exc)
            raise BatchStopped(f"a task failed: {name}: {exc}") from None


_LATE = object()


def _within(seconds: float, start: Callable[[], Any]) -> Any:
    """``start()`` run in a thread, given up after ``seconds`` (TimeoutError): a Client
    reads its handshake with no time limit.  A client that comes up after that is closed."""
    lock = threading.Lock()
    box: list = []      # what start() gave, after _LATE when the wait was given up

    def run() -> None:
        try:
            result: Any = start()
        except BaseException as exc:
            result = exc
        with lock:
            late = bool(box)
            box.append(result)
        if late and not isinstance(result, BaseException):
            with contextlib.suppress(Exception):
                result.close(timeout=1)

    thread = threading.Thread(target=run, name="cryptocomp-dask-connect", daemon=True)
    thread.start()
    try:
        thread.join(seconds)
    finally:    # timed out or interrupted: a client that comes up later is not wanted
        with lock:
            if not box:
                box.append(_LATE)
    result = box[0]
    if result is _LATE:
        raise TimeoutError(f"no answer in {seconds:g} s")
    if isinstance(result, BaseException):
        raise result
    return result


def _is_cancelled(exc: BaseException) -> bool:
    """Dask's ways of saying a future will never finish (scheduler gone, comm closed)."""
    names = {type(e).__name__ for e in (exc, exc.__cause__, exc.__context__) if e is not None}
    return bool(names & {"CancelledError", "FutureCancelledError", "CommClosedError"})
