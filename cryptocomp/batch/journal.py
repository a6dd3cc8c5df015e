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

Groups that finish ahead of their turn (a later task done before an earlier one) go at
once to ``FILE.pending``: the same first line, then records ``@POSITION LENGTH\\n``
followed by LENGTH bytes of the group.  Nothing finished is lost when a run stops, by
Ctrl-C or otherwise; ``--resume`` checks FILE group by group against the items (a
different batch, or a file edited by hand, is refused), takes the groups of
``FILE.pending`` that are not in FILE yet, and runs only what is left.  When the batch
completes, ``FILE.pending`` is deleted and FILE is byte for byte what one uninterrupted
run writes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sys
import time
from pathlib import Path
from typing import TextIO

from ..errors import BatchError
from ..files import write_atomic
from .workload import Workload

__all__ = ["Journal", "StreamSink", "batch_id", "FORMAT", "PENDING_SUFFIX"]

log = logging.getLogger(__name__)

FORMAT = 1
PENDING_SUFFIX = ".pending"
_FSYNC_EVERY = 1.0           # seconds between fsyncs of the output file
_RECORD = re.compile(rb"@(\d+) (\d+)\n")
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
            f"{workload.unit}, id {ident}\n").encode("utf-8")


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

    def start(self, workload: Workload, ident: str, *, resume: bool) -> tuple[int, dict[int, bytes]]:
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


class Journal:
    """The output file of a batch (see the module's docstring for its format)."""

    resumable = True

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.pending_path = self.path.with_name(self.path.name + PENDING_SUFFIX)
        self.where = str(path)
        self._fd: int | None = None
        self._pending_fd: int | None = None
        self._header = b""
        self._synced = time.monotonic()

    # -- starting and resuming --------------------------------------------------------------

    def start(self, workload: Workload, ident: str, *, resume: bool) -> tuple[int, dict[int, bytes]]:
        """Open the file; return the next position to write and the groups finished ahead."""
        self._header = _header_line(workload, ident)
        exists = self.path.exists() and self.path.stat().st_size > 0
        if not resume and (exists or self.pending_path.exists()):
            raise BatchError(f"{self.path} exists: add --resume to finish that batch, or "
                             f"remove it to start again")
        if self.path.is_dir():
            raise BatchError(f"{self.path} is a directory")
        done, end = (self._scan(workload, ident) if exists else (0, 0))
        ahead = self._scan_pending(workload, ident, done) if resume else {}
        if exists:
            if end < self.path.stat().st_size:
                log.warning("%s: dropped an incomplete group at its end (a crash while "
                            "writing it); it will be written again", self.path)
                os.truncate(self.path, end)
        else:
            try:
                write_atomic(self.path, self._header)
            except Exception as exc:  # IndexFileError from write_atomic: say it for a batch
                raise BatchError(str(exc)) from None
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise BatchError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        return done, ahead

    def _read(self, path: Path) -> bytes:
        try:
            return path.read_bytes()
        except OSError as exc:
            raise BatchError(f"cannot read {path}: {exc.strerror or exc}") from None

    def _check_header(self, path: Path, data: bytes, ident: str) -> int:
        """Where the groups start, after a first line naming this very batch."""
        first = data.split(b"\n", 1)[0] + b"\n"
        if first == self._header:
            return len(first)
        found = _header_id(first) if first.endswith(b"\n") else None
        if found is None:
            raise BatchError(f"{path} is not a cryptocomp batch output file; give another "
                             f"--output")
        raise BatchError(f"{path} holds another batch (other items, options or dictionary: "
                         f"id {found}, this one is {ident}); give another --output")

    def _scan(self, workload: Workload, ident: str) -> tuple[int, int]:
        """(groups of the file that are complete and right, byte offset where they end)."""
        data = self._read(self.path)
        offset = self._check_header(self.path, data, ident)
        position = 0
        while offset < len(data) and position < workload.total:
            end = _group_end(data, offset, workload, workload.key(position))
            if end is None:
                if _is_tail(data, offset, workload, workload.key(position)):
                    break
                line = data[:offset].count(b"\n") + 1
                raise BatchError(f"{self.path}: line {line} is not the group of "
                                 f"{workload.key(position)!r} (the file was changed?); "
                                 f"give another --output")
            position += 1
            offset = end
        if offset < len(data) and position >= workload.total:
            raise BatchError(f"{self.path}: text after the last group; give another --output")
        return position, offset

    def _scan_pending(self, workload: Workload, ident: str, done: int) -> dict[int, bytes]:
        """Groups of FILE.pending not yet in FILE, each checked against its item."""
        if not self.pending_path.exists():
            return {}
        data = self._read(self.pending_path)
        offset = self._check_header(self.pending_path, data, ident)
        ahead: dict[int, bytes] = {}
        while offset < len(data):
            m = _RECORD.match(data, offset)
            if not m:
                break  # a torn last record
            position, length = int(m.group(1)), int(m.group(2))
            start = m.end()
            group = data[start:start + length]
            if len(group) < length:
                break
            if position >= workload.total or \
                    _group_end(group, 0, workload, workload.key(position)) != len(group):
                raise BatchError(f"{self.pending_path}: a record does not match its item; "
                                 f"remove the file (its groups will be computed again)")
            if position >= done:
                ahead[position] = group
            offset = start + length
        if ahead:
            log.info("%s: %d finished groups waiting for their turn", self.pending_path,
                     len(ahead))
        return ahead

    # -- writing ----------------------------------------------------------------------------

    def write(self, group: bytes) -> None:
        """Append the next group in order (one write)."""
        _write_all(self._fd, group, self.path)
        now = time.monotonic()
        if now - self._synced >= _FSYNC_EVERY:
            os.fsync(self._fd)
            self._synced = now

    def hold(self, position: int, group: bytes) -> None:
        """Keep a group finished ahead of its turn in FILE.pending."""
        if self._pending_fd is None:
            try:
                fresh = not self.pending_path.exists()
                self._pending_fd = os.open(self.pending_path,
                                           os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
                if fresh or self.pending_path.stat().st_size == 0:
                    _write_all(self._pending_fd, self._header, self.pending_path)
            except OSError as exc:
                raise BatchError(f"cannot write {self.pending_path}: "
                                 f"{exc.strerror or exc}") from None
        _write_all(self._pending_fd, b"@%d %d\n" % (position, len(group)) + group,
                   self.pending_path)

    def finish(self) -> None:
        """The batch is complete: FILE is whole, FILE.pending goes."""
        self.close()
        try:
            self.pending_path.unlink()
        except FileNotFoundError:
            pass

    def close(self) -> None:
        """Flush both files to disk and close them (everything written is kept)."""
        for name in ("_fd", "_pending_fd"):
            fd = getattr(self, name)
            if fd is not None:
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
                    setattr(self, name, None)


def _write_all(fd: int | None, data: bytes, path: Path) -> None:
    assert fd is not None, "journal not started"
    view = memoryview(data)
    try:
        while view:
            n = os.write(fd, view)
            view = view[n:]
    except OSError as exc:
        raise BatchError(f"cannot write {path}: {exc.strerror or exc}") from None


def _group_end(data: bytes, offset: int, workload: Workload, key: str) -> int | None:
    """Where the group of ``key`` starting at ``offset`` ends; None if it is not whole."""
    nl = data.find(b"\n", offset)
    if nl < 0:
        return None
    try:
        first = data[offset:nl].decode("utf-8")
    except UnicodeDecodeError:
        return None
    following = workload.frame(first, key)
    if following is None:
        return None
    end = nl + 1
    for _ in range(following):
        nl = data.find(b"\n", end)
        if nl < 0:
            return None
        end = nl + 1
    return end


def _is_tail(data: bytes, offset: int, workload: Workload, key: str) -> bool:
    """True when what is left from ``offset`` is the start of the group of ``key``, cut
    short (a torn last write), rather than something else."""
    rest = data[offset:]
    nl = rest.find(b"\n")
    if nl < 0:
        return True  # not even a whole first line
    try:
        return workload.frame(rest[:nl].decode("utf-8"), key) is not None
    except UnicodeDecodeError:
        return False
