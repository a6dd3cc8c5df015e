"""Where a batch's groups go: a stream (stdout), or an output file that can be resumed.

Batch output file, format 1
---------------------------
The first line names the batch::

    # cryptocomp batch 1: compose, 1800 queries, id 3f2a9c1e0b7d4a55
    {"cryptocomp_batch": 1, "kind": "compose", "items": 1800, "id": "3f2a9c1e0b7d4a55"}

(the second form when the groups are JSON Lines).  The id is a digest of everything
that decides the output: the workload's items and options, and the index's checksum.
Then come the groups, one an item, in the items' order, each appended with a single
``write`` (a reader never sees half a group but after a crash of the machine, and a
resume drops such a torn last group).

While the batch is unfinished, ``FILE.journal`` sits beside it: the same first line,
then one record a group, ``=POSITION LENGTH DIGEST\n`` for a group written to FILE
(DIGEST: the first 16 hex digits of its SHA-256), or ``@POSITION LENGTH\n`` and the
group's LENGTH bytes for a group finished ahead of its turn (a later task done before an
earlier one), as the job returned it (before the workload's ordered step).  So nothing
finished is lost when a run stops, by Ctrl-C or otherwise, and ``--resume`` can check
FILE group by group: the right item's group, complete, and with the digest it was
written with (a different batch, or a file edited or damaged, is refused with one line);
it hands each group found to the workload (the state of its ordered step:
:meth:`~.workload.Workload.replay`), takes the groups finished ahead, runs only what is
left, and when the batch completes deletes the journal: FILE is then byte for byte what
one uninterrupted run writes.  While a run writes FILE it holds an advisory lock on
``FILE.lock`` (removed when it stops), so a second run on the same FILE is refused in one
line instead of interleaving its groups.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import mmap
import os
import re
import stat
import sys
import time
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import numpy as np

from ..errors import BatchError, CryptocompError
from ..files import file_kind, open_regular, reason, shown, write_atomic
from .workload import Workload

__all__ = ["Journal", "StreamSink", "DiscardSink", "batch_id", "FORMAT", "JOURNAL_SUFFIX"]

log = logging.getLogger(__name__)

FORMAT = 1
JOURNAL_SUFFIX = ".journal"
LOCK_SUFFIX = ".lock"  # held (flock) by the run writing FILE, removed when it stops
_FSYNC_EVERY = 1.0           # seconds between fsyncs of the output file
_RECORD = re.compile(rb"([@=])(\d+) (\d+)(?: ([0-9a-f]{16}))?\n")
_TEXT_HEADER = re.compile(r"# cryptocomp batch (\d+): ([\w-]+), (\d+) \w+, id ([0-9a-f]+)")


def batch_id(workload: Workload, index_checksum: str) -> str:
    """The digest naming a batch: its kind, items, options and index."""
    doc = {"kind": workload.kind, "identity": workload.identity(), "index": index_checksum}
    raw = json.dumps(doc, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()[:16]


def _header_line(workload: Workload, ident: str) -> bytes:
    if workload.json:
        doc = {"cryptocomp_batch": FORMAT, "kind": workload.kind, "items": workload.total,
               "id": ident}
        return (json.dumps(doc) + "\n").encode("utf-8")
    return (f"# cryptocomp batch {FORMAT}: {workload.kind}, {workload.total} "
            f"{workload.unit}, id {ident}\n").encode()


def _header_id(line: bytes) -> str | None:
    """The id a batch file's first line names, or None if it is not such a line."""
    text = line.decode("utf-8", "replace").rstrip("\n")
    m = _TEXT_HEADER.fullmatch(text)
    if m:
        return m.group(4)
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    if isinstance(doc, dict) and "cryptocomp_batch" in doc and isinstance(doc.get("id"), str):
        return doc["id"]
    return None


class StreamSink:
    """Groups written in order to a text stream (stdout); nothing to resume from."""

    resumable = False

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream
        self.where = "standard output"

    def start(self, workload: Workload, ident: str, *, resume: bool
              ) -> tuple[int, dict[int, bytes]]:
        if resume:
            raise BatchError("--resume needs --output FILE (a batch printed to the terminal "
                             "cannot be resumed)")
        return 0, {}

    def write(self, group: bytes) -> None:
        stream = self.stream or sys.stdout
        stream.write(group.decode("utf-8"))
        stream.flush()

    def hold(self, position: int, group: bytes) -> None:
        pass  # kept in memory by the runner until its turn

    def finish(self) -> None:
        pass

    def close(self) -> None:
        pass


class DiscardSink(StreamSink):
    """Groups dropped: the workload's ordered step hands the results on itself (the
    arrow-word generator shows puzzles as text or SVG); nothing to resume from."""

    def __init__(self) -> None:
        super().__init__()
        self.where = "nowhere"

    def write(self, group: bytes) -> None:
        pass


class Journal:
    """The output file of a batch and its journal (see the module's docstring)."""

    resumable = True

    def __init__(self, path: str | os.PathLike):
        # a link is followed: its target's lock and journal are those of every name of it
        self.path = Path(os.path.realpath(path) if os.path.islink(path) else path)
        self.journal_path = self.path.with_name(self.path.name + JOURNAL_SUFFIX)
        self.where = shown(path)
        self.lock_path = self.path.with_name(self.path.name + LOCK_SUFFIX)
        self._fd: int | None = None
        self._journal_fd: int | None = None
        self._lock_fd: int | None = None
        self._header = b""
        self._next = 0
        self._synced = time.monotonic()

    # -- starting and resuming --------------------------------------------------------------

    def start(self, workload: Workload, ident: str, *, resume: bool
              ) -> tuple[int, dict[int, bytes]]:
        """Open the files; return the next position to write and the groups finished ahead."""
        self._lock()
        try:
            return self._start(workload, ident, resume=resume)
        except BaseException:
            self.close()
            raise

    def _lock(self) -> None:
        """Hold ``FILE.lock`` while this run writes: a second run on the same output (the
        same command started twice, or --resume while the first still runs) would
        interleave its groups with this one's."""
        try:
            import fcntl
        except ImportError:  # no advisory locks here (Windows): one run at a time is on you
            return
        busy = BatchError(f"{shown(self.path)} is being written by another run; let it finish (or "
                          f"stop it) before running this one, or give another --output")
        try:
            # non-blocking: a FIFO in its place must not hang the run
            fd = os.open(self.lock_path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK, 0o666)
        except OSError as exc:
            raise BatchError(f"cannot write {shown(self.lock_path)}: {reason(exc)}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # the lock file of a run that just ended may have been unlinked after we opened it
            if os.fstat(fd).st_ino != os.stat(self.lock_path).st_ino:
                raise BlockingIOError
        except OSError:
            os.close(fd)
            raise busy from None
        self._lock_fd = fd

    def _start(self, workload: Workload, ident: str, *, resume: bool
               ) -> tuple[int, dict[int, bytes]]:
        self._header = _header_line(workload, ident)
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise BatchError(f"cannot write {shown(self.path)}: {reason(exc)}") from None
        if st is not None and not stat.S_ISREG(st.st_mode):
            # the file is read back, locked and truncated on --resume: a device, a FIFO or
            # a directory cannot be (without --output the batch prints to standard output)
            raise BatchError(f"--output {shown(self.path)} is {file_kind(st.st_mode)}, not a "
                             f"regular file: a batch writes to a file it can resume (without "
                             f"--output, to standard output)")
        exists = st is not None and st.st_size > 0
        if not resume and (exists or self.journal_path.exists()):
            raise BatchError(f"{shown(self.path)} exists: add --resume to finish that batch, or "
                             f"remove it to start again")
        digests, ahead, journal_end = (self._read_journal(workload, ident) if resume
                                       else (_Digests(), {}, 0))
        if resume and self.journal_path.exists() and \
                journal_end < self.journal_path.stat().st_size:
            os.truncate(self.journal_path, journal_end)   # a torn last record goes
        done, end = self._scan(workload, ident, digests) if exists else (0, 0)
        ahead = {p: g for p, g in ahead.items() if p >= done}
        if exists and end < self.path.stat().st_size:
            log.warning("%s: dropped an incomplete group at its end (a crash while writing "
                        "it); it will be written again", shown(self.path))
            os.truncate(self.path, end)
        if not exists:
            try:
                write_atomic(self.path, self._header)
            except CryptocompError as exc:
                raise BatchError(str(exc)) from None
        self._fd = self._open(self.path, create=False)
        self._journal_fd = self._open(self.journal_path, create=True)
        if os.fstat(self._journal_fd).st_size == 0:
            _write_all(self._journal_fd, self._header, self.journal_path)
        self._next = done
        if ahead:
            log.info("%s: %d finished groups waiting for their turn", shown(self.journal_path),
                     len(ahead))
        return done, ahead

    def _open(self, path: Path, *, create: bool) -> int:
        flags = os.O_WRONLY | os.O_APPEND | (os.O_CREAT if create else 0)
        try:
            return os.open(path, flags, 0o666)
        except OSError as exc:
            raise BatchError(f"cannot write {shown(path)}: {reason(exc)}") from None

    @contextlib.contextmanager
    def _mapped(self, path: Path) -> Iterator[bytes | mmap.mmap]:
        """The file's bytes, mapped rather than read: a resumed batch's output may be far
        larger than memory (only the groups being checked are copied)."""
        try:
            with open_regular(path, "batch file", BatchError) as f:
                if os.fstat(f.fileno()).st_size == 0:
                    yield b""
                    return
                with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                    yield data
        except OSError as exc:
            raise BatchError(f"cannot read {path}: {exc.strerror or exc}") from None

    def _check_header(self, path: Path, data: bytes | mmap.mmap, ident: str) -> int:
        """Where the groups start, after a first line naming this very batch."""
        nl = data.find(b"\n")
        first = data[:nl + 1] if nl >= 0 else data[:len(self._header) + 1]
        if first == self._header:
            return len(first)
        found = _header_id(first) if nl >= 0 else None
        if found is None:
            raise BatchError(f"{shown(path)} is not a cryptocomp batch output file; give another "
                             f"--output")
        if found == ident:
            # this batch's id on a line that is not this batch's: the line was edited
            expected = self._header.decode("utf-8").rstrip("\n")
            raise BatchError(f"{shown(path)}: its first line was edited (this batch's reads "
                             f"{expected!r}); restore it, or give another --output")
        raise BatchError(f"{shown(path)} holds another batch (other items, options or dictionary: "
                         f"id {found}, this one is {ident}); give another --output")

    def _scan(self, workload: Workload, ident: str, digests: _Digests) -> tuple[int, int]:
        """(groups of the file that are complete and right, byte offset where they end)."""
        with self._mapped(self.path) as data:
            offset = self._check_header(self.path, data, ident)
            position = 0
            line = 2    # of the group at offset (counted as we go: a recount is quadratic)
            while offset < len(data) and position < workload.total:
                key = workload.key(position)
                end = _group_end(data, offset, workload, key)
                if end is None:
                    if _is_tail(data, offset, workload, key):
                        break
                    raise BatchError(f"{shown(self.path)}: line {line} is not the group of {key!r} "
                                     f"(the file was changed?); give another --output")
                group = data[offset:end]
                want = digests.get(position)
                if want is not None and int(_digest(group), 16) != want:
                    raise BatchError(f"{shown(self.path)}: the group of {key!r} (line {line}) is "
                                     f"not what was written (the file was changed?); give another "
                                     f"--output")
                workload.replay(position, group)
                position += 1
                offset = end
                line += group.count(b"\n")
            if offset < len(data) and position >= workload.total:
                raise BatchError(f"{shown(self.path)}: text after the last group; give another "
                                 f"--output")
        return position, offset

    def _read_journal(self, workload: Workload, ident: str
                      ) -> tuple[_Digests, dict[int, bytes], int]:
        """(digest of each group written to FILE, groups finished ahead, where the last
        whole record ends), all checked."""
        if not self.journal_path.exists():
            if self.path.exists():
                log.warning("%s is missing: the groups in %s are checked for their form "
                            "only", shown(self.journal_path), shown(self.path))
            return _Digests(), {}, 0
        with self._mapped(self.journal_path) as data:
            return self._records(workload, ident, data)

    def _records(self, workload: Workload, ident: str, data: bytes | mmap.mmap
                 ) -> tuple[_Digests, dict[int, bytes], int]:
        """The journal's records read from its bytes (see :meth:`_read_journal`)."""
        offset = self._check_header(self.journal_path, data, ident)
        digests = _Digests()
        ahead: dict[int, bytes] = {}
        while offset < len(data):
            m = _RECORD.match(data, offset)
            if not m:
                if data.find(b"\n", offset) >= 0:   # not the start of a record cut short
                    raise BatchError(f"{shown(self.journal_path)} is damaged; remove the output "
                                     f"file and its journal to start again")
                break  # a torn last record
            kind, position, length = m.group(1), int(m.group(2)), int(m.group(3))
            if position >= workload.total or (kind == b"=") != (m.group(4) is not None):
                raise BatchError(f"{shown(self.journal_path)}: a record does not fit this batch; "
                                 f"remove the output file and its journal to start again")
            if kind == b"=":
                digests.add(position, int(m.group(4), 16))
                offset = m.end()
                continue
            group = data[m.end():m.end() + length]
            if len(group) < length:
                break
            offset = m.end()
            if _group_end(group, 0, workload, workload.key(position), raw=True) != len(group):
                raise BatchError(f"{shown(self.journal_path)}: a held group does not match its "
                                 f"item; remove the output file and its journal to start again")
            ahead[position] = group
            offset += length
        digests.seal()
        return digests, ahead, offset

    # -- writing ----------------------------------------------------------------------------

    def write(self, group: bytes) -> None:
        """Append the next group in order (one write), then its digest to the journal."""
        _write_all(self._fd, group, self.path)
        record = b"=%d %d %s\n" % (self._next, len(group), _digest(group).encode())
        _write_all(self._journal_fd, record, self.journal_path)
        self._next += 1
        now = time.monotonic()
        if now - self._synced >= _FSYNC_EVERY:
            assert self._fd is not None and self._journal_fd is not None  # open() ran
            os.fsync(self._fd)
            os.fsync(self._journal_fd)
            self._synced = now

    def hold(self, position: int, group: bytes) -> None:
        """Keep a group finished ahead of its turn in the journal."""
        _write_all(self._journal_fd, b"@%d %d\n" % (position, len(group)) + group,
                   self.journal_path)

    def finish(self) -> None:
        """The batch is complete: FILE is whole, its journal goes."""
        self.close()
        with contextlib.suppress(FileNotFoundError):
            self.journal_path.unlink()

    def close(self) -> None:
        """Flush both files to disk and close them (everything written is kept); let go of
        the lock."""
        try:
            for name in ("_fd", "_journal_fd"):
                fd = getattr(self, name)
                if fd is not None:
                    try:
                        os.fsync(fd)
                    finally:
                        os.close(fd)
                        setattr(self, name, None)
        finally:
            if self._lock_fd is not None:
                # unlinked before it is let go, so a run waiting on this file's inode sees it
                # is stale (see _lock)
                with contextlib.suppress(OSError):
                    os.unlink(self.lock_path)
                os.close(self._lock_fd)
                self._lock_fd = None


class _Digests:
    """The digest the journal recorded for each group written to FILE, by position: 16
    bytes a group in two arrays (a dict took 140 bytes, 140 MB a million groups); a
    position recorded twice (written again after a crash) keeps its last digest."""

    def __init__(self) -> None:
        self._positions = array("q")
        self._values = array("Q")
        self._sorted: tuple[np.ndarray, np.ndarray] | None = None

    def add(self, position: int, digest: int) -> None:
        self._positions.append(position)
        self._values.append(digest)

    def seal(self) -> None:
        """Index what was added (by position, the last of each kept)."""
        positions = np.frombuffer(self._positions, dtype=np.int64)
        values = np.frombuffer(self._values, dtype=np.uint64)
        order = np.argsort(positions, kind="stable")
        positions, values = positions[order], values[order]
        last = np.append(positions[1:] != positions[:-1], True)[:len(positions)]
        self._sorted = positions[last], values[last]
        self._positions, self._values = array("q"), array("Q")

    def get(self, position: int) -> int | None:
        """The digest recorded for the group at ``position`` (as an int), or None."""
        if self._sorted is None:
            self.seal()
        assert self._sorted is not None
        positions, values = self._sorted
        i = int(np.searchsorted(positions, position))
        return int(values[i]) if i < len(positions) and positions[i] == position else None


def _digest(group: bytes) -> str:
    return hashlib.sha256(group).hexdigest()[:16]


def _write_all(fd: int | None, data: bytes, path: Path) -> None:
    assert fd is not None, "journal not started"
    view = memoryview(data)
    try:
        while view:
            n = os.write(fd, view)
            view = view[n:]
    except OSError as exc:
        raise BatchError(f"cannot write {shown(path)}: {reason(exc)}") from None


def _group_end(data: bytes | mmap.mmap, offset: int, workload: Workload, key: str, *,
               raw: bool = False) -> int | None:
    """Where the group of ``key`` starting at ``offset`` ends; None if it is not whole."""
    nl = data.find(b"\n", offset)
    if nl < 0:
        return None
    try:
        first = data[offset:nl].decode("utf-8")
    except UnicodeDecodeError:
        return None
    following = workload.frame(first, key, raw=raw)
    if following is None:
        return None
    end = nl + 1
    for _ in range(following):
        nl = data.find(b"\n", end)
        if nl < 0:
            return None
        end = nl + 1
    return end


def _is_tail(data: bytes | mmap.mmap, offset: int, workload: Workload, key: str) -> bool:
    """True when what is left from ``offset`` is the start of the group of ``key``, cut
    short (a torn last write), rather than something else."""
    nl = data.find(b"\n", offset)
    if nl < 0:
        return True  # not even a whole first line
    try:
        return workload.frame(data[offset:nl].decode("utf-8"), key) is not None
    except UnicodeDecodeError:
        return False
