"""How the index reaches the workers: once per worker process, never per task.

An :class:`IndexShipment` is a few hundred bytes that travel with every task: the index
file's path on the client's machine, its checksum (the SHA-256 of its header, which lists
the SHA-256 of every section: :func:`~cryptocomp.index.store.index_checksum`), its name
and the cryptocomp version of the client.  On a worker,
:func:`worker_index` returns the index from a per-process cache keyed by the checksum;
on the first task it loads it, either

* by **path**, when the worker sees the same file (same machine, or a shared file
  system): the file's checksum must be the shipment's, or the task fails with one line
  saying so; or
* from the **bytes** of the file, sent once to each worker (Dask ``scatter`` with
  ``broadcast``) and checked on arrival like a file read from disk, and more: magic,
  header, its checksum against the shipment's, and every section's SHA-256 at once.

The cached index keeps what the engines derive from it (the composer's encoded words by
length, for instance) from one task to the next.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from ..errors import BatchError, CryptocompError, IndexFileError
from ..files import read_bytes, shown
from ..index.index import Index
from ..index.store import index_checksum, read_index, read_index_bytes

__all__ = ["IndexShipment", "worker_index", "worker_name", "loaded_indexes"]

log = logging.getLogger(__name__)

_CACHE: dict[str, Index] = {}
_NOTHING = "none"   # the checksum of no index: no SHA-256 is four letters
_LOCK = threading.Lock()   # a Dask worker may run tasks in several threads


@dataclass(frozen=True)
class IndexShipment:
    """What a task needs to find its index on any worker (small: sent with every task)."""

    path: str
    checksum: str
    name: str
    version: str

    @classmethod
    def nothing(cls) -> IndexShipment:
        """The shipment of a batch whose jobs read no index (a generation from a word
        list): each worker gets an index of no words, and no file travels."""
        from ..version import __version__

        return cls("", _NOTHING, "no index", __version__)

    @property
    def empty(self) -> bool:
        """True for :meth:`nothing`: no file to read, check or send."""
        return self.checksum == _NOTHING

    @classmethod
    def of_file(cls, path: Path, name: str) -> IndexShipment:
        """The shipment of an index file on this machine."""
        from ..version import __version__

        return cls(str(Path(path).resolve()), index_checksum(Path(path)), name, __version__)

    def read_bytes(self) -> bytes:
        """The file's bytes, to send to workers that cannot see the file."""
        if self.empty:
            return b""
        data = read_bytes(self.path, "index file", BatchError)
        try:
            read_index_bytes(data, label=self.path, checksum=self.checksum)
        except IndexFileError:
            raise BatchError(f"the index file {shown(self.path)} changed during the batch; "
                             f"rerun it") from None
        return data

    def visible(self) -> bool:
        """True when this process sees the very index file the shipment names."""
        if self.empty:
            return True
        try:
            return index_checksum(Path(self.path)) == self.checksum
        except CryptocompError:
            return False


def worker_name() -> str:
    """``host:pid`` of this process, to say where something happened."""
    return f"{socket.gethostname()}:{os.getpid()}"


def worker_index(shipment: IndexShipment, data: bytes | None = None) -> Index:
    """The shipment's index in this process: loaded once (from ``data`` when given, else
    from the path), then served from the cache."""
    index = _CACHE.get(shipment.checksum)
    if index is not None:
        return index
    with _LOCK:
        index = _CACHE.get(shipment.checksum)
        if index is None:
            _restore_malloc_thresholds()
            index = _load(shipment, data)
            _CACHE[shipment.checksum] = index
    return index


def loaded_indexes() -> int:
    """How many indexes this process has loaded (the tests check it stays at one)."""
    return len(_CACHE)


def _restore_malloc_thresholds() -> None:
    """Undo a fixed ``MALLOC_TRIM_THRESHOLD_`` (Dask's nanny sets 64 KiB in its workers).

    Setting it turns off glibc's adaptive mmap threshold, so every numpy array over 128
    KiB is mmapped, page-faulted in and unmapped again: the composer ran 2.6 times slower
    (CPU) in such a process.  Thresholds like the adaptive ones reached (32 MiB) bring the
    speed back; the memory is reused by the next task anyway."""
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ or not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        m_trim_threshold, m_mmap_threshold = -1, -3
        ok = libc.mallopt(m_mmap_threshold, 32 << 20) and \
            libc.mallopt(m_trim_threshold, 64 << 20)
    except (OSError, AttributeError):
        ok = False
    log.debug("malloc thresholds %s", "restored" if ok else "left as they are")


def _load(shipment: IndexShipment, data: bytes | None) -> Index:
    from ..version import __version__

    where = worker_name()
    if shipment.version != __version__:
        raise BatchError(f"worker {where} runs cryptocomp {__version__}, the client "
                         f"{shipment.version}: install the same version everywhere")
    if shipment.empty:
        return Index.from_counts({}, name=shipment.name)
    if data is not None:
        try:
            index = read_index_bytes(data, label=f"{shipment.name} index sent to {where}",
                                     checksum=shipment.checksum)
        except IndexFileError as exc:
            raise BatchError(str(exc)) from None
        log.debug("worker %s: index %s from %d bytes", where, shipment.name, len(data))
        return index
    # by path: the file read lazily, as everywhere (its sections checked when first read);
    # the same checksum before and after opening it says the file opened is the client's
    path = Path(shipment.path)
    try:
        before = index_checksum(path)
        index = read_index(path)
        after = index_checksum(path)
    except IndexFileError as exc:
        raise BatchError(f"worker {where}: {exc} (use --ship-index bytes when workers do not "
                         f"share the file system)") from None
    if not before == after == shipment.checksum:
        raise BatchError(f"worker {where} sees another index file at {shown(path)} (checksum "
                         f"differs); use --ship-index bytes")
    log.debug("worker %s: index %s from %s", where, shipment.name, path)
    return index
