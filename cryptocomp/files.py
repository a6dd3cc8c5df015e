"""Reading the user's text files with one-line errors, and writing files atomically.

An atomic write goes to a temporary file beside the target, named
``.NAME.PID.RANDOM.tmp`` (PID: the writer's process id), then replaces the
target.  A writer that dies in between leaves its temporary behind;
:func:`stale_temporaries` finds those whose writer is gone (no process with
that id on this machine) or that have not been touched for a day (older names
without a pid, or a pid taken by another process since), and
:func:`remove_stale_temporaries` deletes them.  A live writer's file is never
taken: its pid is running and it is being written.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from .errors import CryptocompError, IndexFileError

__all__ = ["read_bytes", "decode_text", "read_text", "write_atomic", "stale_temporaries",
           "remove_stale_temporaries", "STALE_AGE"]

log = logging.getLogger(__name__)

STALE_AGE = 24 * 3600.0  # seconds after which an untouched temporary is stale whatever its pid
_TEMP = re.compile(r"^\..+\.(?P<pid>\d+)\.[A-Za-z0-9_]+\.tmp$")
_ANY_TEMP = re.compile(r"^\..+\.[A-Za-z0-9_]+\.tmp$")


def read_bytes(path: str | os.PathLike, what: str, error: type[CryptocompError], *,
               limit: int | None = None) -> bytes:
    """The bytes of a file, or ``error`` with one line naming ``what`` the file is; a file
    of more than ``limit`` bytes is refused having read no more than that (a device or
    pipe has no size to check first)."""
    try:
        if limit is None:
            return Path(path).read_bytes()
        with open(path, "rb") as f:
            data = f.read(limit + 1)
        if len(data) > limit:
            raise error(f"{what} {path} is larger than {limit:,} bytes")
        return data
    except FileNotFoundError:
        raise error(f"{what} not found: {path}") from None
    except IsADirectoryError:
        raise error(f"{what} is a directory: {path}") from None
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from None


def decode_text(data: bytes, path: str | os.PathLike, what: str,
                error: type[CryptocompError]) -> str:
    """UTF-8 text (a leading BOM dropped), or ``error`` naming the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{what} is not UTF-8 text: {path} (byte 0x{data[exc.start]:02x} at offset "
                    f"{exc.start})") from None


def read_text(path: str | os.PathLike, what: str, error: type[CryptocompError], *,
              limit: int | None = None) -> str:
    """The UTF-8 text of a file (at most ``limit`` bytes), or ``error`` with one line naming
    the file and the problem."""
    return decode_text(read_bytes(path, what, error, limit=limit), path, what, error)


def write_atomic(path: Path, data: bytes | Iterable[bytes], *, create_dirs: bool = False) -> None:
    """Write ``data`` (bytes, or chunks of bytes) to ``path`` so that readers see the old
    file or the whole new one.

    ``create_dirs`` makes missing parent directories: right for cryptocomp's own
    files, wrong for a user's path, where a typo must be an error."""
    path = Path(path)
    chunks = [data] if isinstance(data, (bytes, bytearray, memoryview)) else data
    try:
        if create_dirs:
            path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp",
                                   dir=path.parent)
    except OSError as exc:
        raise IndexFileError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 would hide the file from other users
        with os.fdopen(fd, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise IndexFileError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0  # someone else's process (or an id we cannot ask about): keep
    return True


def stale_temporaries(directory: str | os.PathLike[str], *, now: float | None = None
                      ) -> list[tuple[Path, int]]:
    """Temporary files of atomic writes in ``directory`` whose writer is gone (see the module
    docstring), with their sizes."""
    now = time.time() if now is None else now
    found = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    for entry in entries:
        name = entry.name
        if not _ANY_TEMP.match(name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        match = _TEMP.match(name)
        dead = match is not None and not _running(int(match["pid"]))
        if dead or now - st.st_mtime > STALE_AGE:
            found.append((Path(entry.path), st.st_size))
    return sorted(found)


def remove_stale_temporaries(directory: str | os.PathLike) -> list[tuple[Path, int]]:
    """Delete the stale temporaries of ``directory``; return those deleted, with sizes."""
    removed = []
    for path, size in stale_temporaries(directory):
        try:
            path.unlink()
        except OSError as exc:
            log.debug("cannot remove %s: %s", path, exc)
            continue
        removed.append((path, size))
    if removed:
        log.info("removed %d stale temporary file%s of interrupted writes in %s (%.1f MB)",
                 len(removed), "s" if len(removed) != 1 else "", directory,
                 sum(s for _, s in removed) / 1e6)
    return removed
