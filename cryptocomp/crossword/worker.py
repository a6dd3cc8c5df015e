"""Run an uninterruptible computation in a child process that can be stopped.

python-sat's solvers cannot be interrupted reliably from Python, and encoding a
large grid can take gigabytes.  :func:`run_in_child` forks a child that runs
``target(send, *args)``; the child reports through ``send(message)`` (each
message a picklable tuple ``(kind, value)``), so whatever it found before being
stopped is kept.  The parent waits until the child ends, the budget's deadline
passes (the child is killed), or Ctrl-C (the child is killed, the interrupt goes
on).  The child's address space is capped (``RLIMIT_AS``): past the cap its
allocations fail and it reports ``("error", "out of memory ...")`` instead of
swapping the machine to a halt.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .problem import Budget

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["run_in_child", "ChildOutcome", "default_memory_limit"]

log = logging.getLogger(__name__)

_POLL = 0.05  # seconds between looks at the deadline while waiting
_GRACE = 5.0  # seconds a child that closed its pipe gets to exit before it is killed
_DEATHS = (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS)


@dataclass
class ChildOutcome:
    """What a child sent, and why it stopped when it did not finish (``why``)."""

    messages: list[tuple] = field(default_factory=list)
    finished: bool = False
    why: str = ""
    peak_rss_mb: float = 0.0


def default_memory_limit() -> int:
    """Bytes a child may add to its address space: half the machine's memory, at most 8 GiB."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = 8 << 30
    return int(min(total // 2, 8 << 30))


def _child(conn: Connection, target: Callable, args: tuple, memory_limit: int) -> None:
    """Child entry point: cap memory, run the target, report errors as messages."""
    try:
        import resource

        with open("/proc/self/statm") as fh:
            vm_now = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        cap = vm_now + memory_limit
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (OSError, ValueError, ImportError):
        pass  # no /proc or no limits here: the deadline still holds
    _quiet_stderr()
    try:
        target(conn.send, *args)
    except MemoryError:
        conn.send(("error", f"out of memory (the child may use {memory_limit >> 20} MiB)"))
    except Exception as exc:
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()
    # leave at once: a forked child inherits the parent's exit handlers and the locks its
    # other threads held (a Dask client's, say), and running them can hang until the
    # parent's grace period kills it (measured: 5 s per SAT call after a LocalCluster ran)
    os._exit(0)


def _quiet_stderr() -> None:
    """Send the child's fd 2 to /dev/null: a solver aborting past the memory cap would
    otherwise print libstdc++'s or faulthandler's dump on the user's terminal, while the
    parent already reports the death in one line."""
    try:
        import faulthandler

        faulthandler.disable()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)
    except OSError:
        pass


def run_in_child(target: Callable, args: tuple, *, budget: Budget,
                 memory_limit: int | None = None) -> ChildOutcome:
    """Run ``target(send, *args)`` in a child process within ``budget``'s time."""
    ctx: Any = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    limit = default_memory_limit() if memory_limit is None else memory_limit
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, target, args, limit), daemon=True)
    outcome = ChildOutcome()
    proc.start()
    send.close()
    deadline = budget.deadline()
    killed = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                outcome.why = "time limit"
                break
            if recv.poll(min(_POLL, left)):
                try:
                    msg = recv.recv()
                except EOFError:
                    break
                if msg[0] == "error":
                    outcome.why = msg[1]
                else:
                    outcome.messages.append(msg)
            elif not proc.is_alive() and not recv.poll(0):
                break
    finally:
        if not outcome.why and time.monotonic() < deadline:
            proc.join(min(_GRACE, max(0.0, deadline - time.monotonic())))  # it is ending
        if proc.is_alive():
            killed = True
            proc.kill()
        proc.join()
        recv.close()
    outcome.finished = not killed and proc.exitcode == 0 and not outcome.why
    if not killed and proc.exitcode != 0 and not outcome.why:
        code = proc.exitcode
        if code is not None and code < 0 and -code in _DEATHS:
            # a C++ allocation past the address-space cap aborts the process
            outcome.why = (f"out of memory (the child may use {limit >> 20} MiB more; it died "
                           f"of signal {-code})")
        else:
            outcome.why = f"the solver's process ended with status {code}"
    try:
        import resource

        outcome.peak_rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    except ImportError:
        pass
    return outcome
