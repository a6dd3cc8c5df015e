"""Reading the user's files with one-line errors, and writing files safely.

Reading
-------
Every input file (dictionaries, index files, grids, clue, phrase and word-list files)
is opened by :func:`open_regular`: only a regular file is read.  It is opened
non-blocking, so a FIFO in its place returns at once instead of waiting for a writer,
then checked with ``fstat``: a directory, FIFO, device or socket is refused in one
line naming what it is (``/dev/zero`` would never end, a FIFO would block).  Names
that are not valid UTF-8 work as Python keeps them (surrogate escapes); messages show
them with :func:`shown` (``\\xfe`` for such a byte, escapes for control characters),
so an error is always one printable line.  Gzip data (:func:`gunzip`) is decompressed
up to :data:`MAX_DECOMPRESSED` bytes, with no line over :data:`MAX_LINE` bytes: a
small "bomb" is refused in milliseconds, before it fills memory.

Writing
-------
:func:`write_atomic` is the one writer of every output file.  What it does depends on
what is at the path:

* nothing, or a regular file: the data goes to a temporary file beside it, named
  ``.NAME.PID.RANDOM.tmp`` (PID: the writer's process id), which then replaces it
  (``os.replace``), so readers see the old file or the whole new one, and a failed
  write leaves the old file as it was and no temporary.  A new file gets the mode
  ``open()`` would give it (0666 less the umask); a replaced one keeps its mode (and,
  when the writer may, its owner).  A file the writer may not write is refused, as
  ``open()`` would refuse it.
* a symbolic link: followed; its target is written as above (the link stays a link).
* a character device or a FIFO (``/dev/null``, a terminal, a named pipe): opened and
  written through, in place (a FIFO waits for its reader); a full device is one line
  (``no space left on device``).
* the name of one of this process's open descriptors (``/dev/stdout``, ``/dev/stderr``,
  ``/dev/fd/N``, ``/proc/self/fd/N``): written to that descriptor, where it stands, as a
  shell does (so ``--svg /dev/stdout > FILE`` puts the SVG in FILE after what was
  printed before it).
* a directory, a block device or a socket: refused in one line.

A writer that dies between writing and replacing leaves its temporary behind;
:func:`stale_temporaries` finds those whose writer is gone (no process with that id on
this machine) or that have not been touched for a day (older names without a pid, or a
pid taken by another process since), and :func:`remove_stale_temporaries` deletes
them.  A live writer's file is never taken: its pid is running and it is being written.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import secrets
import stat
import sys
import time
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from .errors import CryptocompError, IndexFileError

__all__ = ["shown", "reason", "file_kind", "open_regular", "regular_stat", "read_bytes",
           "gunzip", "decode_text", "read_text", "write_atomic", "check_writable",
           "stale_temporaries", "remove_stale_temporaries", "STALE_AGE", "MAX_DECOMPRESSED",
           "MAX_LINE", "data_home"]

log = logging.getLogger(__name__)

STALE_AGE = 24 * 3600.0  # seconds after which an untouched temporary is stale whatever its pid
# 22 times the shipped WordNet clues (2.9 MB), about a million clue lines; a larger list is
# read uncompressed, where its size is on the disk for all to see
MAX_DECOMPRESSED = 64 * 2**20
# bytes: a clue line is at most a few hundred characters; a line of a megabyte is a broken or
# hostile file, found after its first megabyte rather than its last
MAX_LINE = 2**20
_Buffer = bytes | bytearray | memoryview  # what a write takes
_CHUNK = 2**20  # bytes decompressed at a time; at most MAX_LINE (gunzip relies on it)
_TEMP = re.compile(r"^\..+\.(?P<pid>\d+)\.[A-Za-z0-9_]+\.tmp$")
_ANY_TEMP = re.compile(r"^\..+\.[A-Za-z0-9_]+\.tmp$")
_TEMP_STEM = 100  # bytes of the target's name kept in its temporary's (NAME_MAX is 255)
# names of this process's open descriptors: written to the descriptor itself, at its offset
_DESCRIPTOR = re.compile(r"^/(?:dev/(?:(?P<std>stdout|stderr)|fd/(?P<fd>\d+))"
                         r"|proc/(?:self|thread-self)/fd/(?P<proc>\d+))$")
_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a directory"), (stat.S_ISLNK, "a symbolic link"))


# -- names and reasons -------------------------------------------------------------------

def shown(path: str | os.PathLike | bytes) -> str:
    """A file name as one printable line: bytes that are not UTF-8 (Python's surrogate
    escapes) as ``\\xNN``, control and other invisible characters as escapes."""
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "backslashreplace")
    if text.isprintable():
        return text
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate that no file name decodes to
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


def reason(exc: OSError) -> str:
    """An OS error as the end of a message: "no space left on device"."""
    text = exc.strerror or str(exc)
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def file_kind(mode: int) -> str:
    """What a file that is not regular is, for messages: "a named pipe (FIFO)"."""
    return next((name for test, name in _KINDS if test(mode)), "a file of an unknown kind")


def _not_regular(mode: int, path: str | os.PathLike, what: str) -> str:
    if stat.S_ISDIR(mode):
        return f"{what} is a directory: {shown(path)}"
    return f"{what} is {file_kind(mode)}, not a regular file: {shown(path)}"


def _read_error(exc: OSError | ValueError, path: str | os.PathLike, what: str,
                error: type[CryptocompError]) -> CryptocompError:
    if isinstance(exc, (FileNotFoundError, NotADirectoryError, ValueError)):  # ValueError: a NUL
        return error(f"{what} not found: {shown(path)}")
    try:  # a socket cannot be opened (ENXIO): say what it is
        mode = os.stat(path).st_mode
    except OSError:
        mode = stat.S_IFREG
    if not stat.S_ISREG(mode):
        return error(_not_regular(mode, path, what))
    return error(f"cannot read {what} {shown(path)}: {reason(exc)}")


# -- reading -----------------------------------------------------------------------------

def open_regular(path: str | os.PathLike, what: str, error: type[CryptocompError]) -> BinaryIO:
    """``path`` open for reading in binary when it is a regular file, else ``error`` in one
    line naming ``what`` the file was to be and what it is (see the module docstring)."""
    # non-blocking: opening a FIFO would wait for a writer; no controlling terminal taken
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as exc:
        raise _read_error(exc, path, what, error) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise error(_not_regular(mode, path, what))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def regular_stat(path: str | os.PathLike, what: str,
                 error: type[CryptocompError]) -> os.stat_result:
    """The ``stat`` of ``path`` when it is a regular file (links followed), else ``error``
    as :func:`open_regular` raises it; the file is not opened."""
    try:
        st = os.stat(path)
    except (OSError, ValueError) as exc:
        raise _read_error(exc, path, what, error) from None
    if not stat.S_ISREG(st.st_mode):
        raise error(_not_regular(st.st_mode, path, what))
    return st


def read_bytes(path: str | os.PathLike, what: str, error: type[CryptocompError], *,
               limit: int | None = None) -> bytes:
    """The bytes of a regular file, or ``error`` with one line naming ``what`` the file is;
    a file of more than ``limit`` bytes is refused having read no more than that."""
    with open_regular(path, what, error) as fh:
        try:
            data = fh.read() if limit is None else fh.read(limit + 1)
        except OSError as exc:
            raise error(f"cannot read {what} {shown(path)}: {reason(exc)}") from None
    if limit is not None and len(data) > limit:
        raise error(f"{what} {shown(path)} is larger than {limit:,} bytes")
    return data


def gunzip(data: bytes, path: str | os.PathLike, what: str,
           error: type[CryptocompError]) -> bytes:
    """The decompressed bytes of gzip ``data`` (every member), or ``error`` when they are
    corrupt, exceed :data:`MAX_DECOMPRESSED` bytes or hold a line over :data:`MAX_LINE`."""
    out = bytearray()
    line = 0  # bytes of the line under way
    rest = data
    while rest:
        d = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        pending = rest
        while not d.eof:
            try:
                piece = d.decompress(pending, _CHUNK)
            except zlib.error as exc:
                raise error(f"{what} {shown(path)}: corrupt gzip data ({exc})") from None
            pending = d.unconsumed_tail
            if not piece and not pending and not d.eof:
                raise error(f"{what} {shown(path)}: corrupt gzip data (it ends early)")
            # a line longer than MAX_LINE (>= _CHUNK) spans pieces: the run of bytes since
            # the last newline is all there is to watch
            first = piece.find(b"\n")
            longest = line + (len(piece) if first < 0 else first)
            line = longest if first < 0 else len(piece) - piece.rfind(b"\n") - 1
            if longest > MAX_LINE:
                raise error(f"{what} {shown(path)}: a line of more than {MAX_LINE:,} bytes "
                            f"once decompressed (not a text file of lines?)")
            out += piece
            if len(out) > MAX_DECOMPRESSED:
                raise error(f"{what} {shown(path)}: more than {MAX_DECOMPRESSED // 2**20} MiB "
                            f"once decompressed (give a file that large uncompressed)")
        rest = d.unused_data
        if rest and rest[:2] != b"\x1f\x8b":
            if rest.strip(b"\0"):  # zero padding after the last member is allowed, as gzip does
                raise error(f"{what} {shown(path)}: trailing bytes after the gzip data")
            break
    return bytes(out)


def decode_text(data: bytes, path: str | os.PathLike, what: str,
                error: type[CryptocompError]) -> str:
    """UTF-8 text (a leading BOM dropped), or ``error`` naming the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{what} is not UTF-8 text: {shown(path)} (byte 0x{data[exc.start]:02x} "
                    f"at offset {exc.start})") from None


def read_text(path: str | os.PathLike, what: str, error: type[CryptocompError], *,
              limit: int | None = None) -> str:
    """The UTF-8 text of a regular file (at most ``limit`` bytes), or ``error`` with one line naming
    the file and the problem."""
    return decode_text(read_bytes(path, what, error, limit=limit), path, what, error)


# -- writing -----------------------------------------------------------------------------

def write_atomic(path: str | os.PathLike, data: bytes | Iterable[bytes], *,
                 create_dirs: bool = False) -> None:
    """Write ``data`` (bytes, or chunks of bytes) to ``path``: a regular file is replaced
    atomically, keeping its mode; a link is followed; a device or FIFO is written through
    (see the module docstring).  Errors are one :class:`IndexFileError` line.

    ``create_dirs`` makes missing parent directories: right for cryptocomp's own
    files, wrong for a user's path, where a typo must be an error."""
    path = Path(path)
    chunks: Iterable[_Buffer] = [data] if isinstance(data, (bytes, bytearray, memoryview)) \
        else data
    try:
        if create_dirs:
            path.parent.mkdir(parents=True, exist_ok=True)
        fd = _descriptor(path)
        if fd is not None:
            _write_to_descriptor(fd, chunks)
            return
        target = Path(os.path.realpath(path))  # a link's target is what gets replaced
        try:
            st: os.stat_result | None = os.stat(target)
        except FileNotFoundError:
            st = None
        if st is None or stat.S_ISREG(st.st_mode):
            _replace(target, chunks, st)
        elif _written_through(st.st_mode):
            _write_through(target, chunks)
        else:
            raise _in_the_way(path, st.st_mode)
    except FileNotFoundError as exc:
        raise IndexFileError(f"cannot write {shown(path)}: " + (
            f"no such directory {shown(path.parent)}" if not path.parent.is_dir()
            else reason(exc))) from None
    except OSError as exc:
        raise IndexFileError(f"cannot write {shown(path)}: {reason(exc)}") from None


def _written_through(mode: int) -> bool:
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _in_the_way(path: Path, mode: int) -> IndexFileError:
    """The error for a directory, block device or socket where a file is to be written."""
    return IndexFileError(f"cannot write {shown(path)}: it is {file_kind(mode)}"
                          f"{'' if stat.S_ISDIR(mode) else ', not a file'}")


def check_writable(path: str | os.PathLike) -> None:
    """Raise the :class:`IndexFileError` line now when :func:`write_atomic` to ``path`` is
    bound to fail (no such directory, no permission, a directory in the way), so that a
    long job does not end in a write that fails."""
    path = Path(path)
    fd = _descriptor(path)
    if fd is not None:
        try:
            os.fstat(fd)
        except OSError as exc:
            raise IndexFileError(f"cannot write {shown(path)}: {reason(exc)}") from None
        return
    target = Path(os.path.realpath(path))
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise IndexFileError(f"cannot write {shown(path)}: {reason(exc)}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not _written_through(st.st_mode):
            raise _in_the_way(path, st.st_mode)
        ok = os.access(target, os.W_OK)
    elif not target.parent.is_dir():
        raise IndexFileError(f"cannot write {shown(path)}: no such directory "
                             f"{shown(target.parent)}")
    else:  # the temporary is made in the directory
        ok = os.access(target.parent, os.W_OK | os.X_OK) and (
            st is None or os.access(target, os.W_OK))
    if not ok:
        raise IndexFileError(f"cannot write {shown(path)}: permission denied")


def _write_all(fd: int, chunks: Iterable[_Buffer]) -> None:
    for chunk in chunks:
        view = memoryview(chunk)
        while view:
            view = view[os.write(fd, view):]


def _descriptor(path: Path) -> int | None:
    """The descriptor ``/dev/stdout`` and the like name (see the module docstring), else None."""
    named = _DESCRIPTOR.match(os.path.abspath(path))
    if named is None:
        return None
    std = named["std"]
    return (1 if std == "stdout" else 2) if std else int(named["fd"] or named["proc"])


def _write_to_descriptor(fd: int, chunks: Iterable[_Buffer]) -> None:
    """Write to an open descriptor where it stands, as a shell does: reopening
    ``/dev/stdout`` would write at offset 0 of a file it was redirected to."""
    for stream in (sys.stdout, sys.stderr):  # what was printed before comes first
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    _write_all(fd, chunks)


def _write_through(path: Path, chunks: Iterable[_Buffer]) -> None:
    """Write into the device or FIFO at ``path`` (a FIFO waits for its reader)."""
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    try:
        _write_all(fd, chunks)
    finally:
        os.close(fd)


def _replace(target: Path, chunks: Iterable[_Buffer], st: os.stat_result | None) -> None:
    """Write a temporary beside ``target`` (whose ``stat`` is ``st``, None when absent),
    then put it in the target's place."""
    if st is not None and not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))  # as open() would
    stem = os.fsdecode(os.fsencode(target.name)[:_TEMP_STEM])
    while True:
        tmp = target.with_name(f".{stem}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            # a new file gets 0666 less the umask, as open() gives; an old one its own mode
            fh = os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                                   0o600 if st else 0o666), "wb")
            break
        except FileExistsError:
            continue
    try:
        with fh:
            if st is not None:
                if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
                    # only root gives a file away; the mode is kept all the same
                    with contextlib.suppress(PermissionError):
                        os.fchown(fh.fileno(), st.st_uid, st.st_gid)
                os.fchmod(fh.fileno(), stat.S_IMODE(st.st_mode))
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
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


def data_home() -> Path:
    """The directory of cryptocomp's data (``freqdicts/``, ``indexes/``, compiled code):
    ``$CRYPTOCOMP_HOME``, else a writable checkout holding ``indexes/``, else the user's
    cache directory."""
    env = os.environ.get("CRYPTOCOMP_HOME")
    if env:
        return Path(env).expanduser()
    checkout = Path(__file__).resolve().parents[1]  # cryptocomp/files.py -> checkout
    if (checkout / "pyproject.toml").is_file() and (checkout / "indexes").is_dir() \
            and os.access(checkout / "indexes", os.W_OK):
        return checkout
    import platformdirs

    return Path(platformdirs.user_cache_dir("cryptocomp", appauthor=False))
