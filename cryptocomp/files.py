"""Reading the user's text files with one-line errors, and writing files atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import CryptocompError, IndexFileError

__all__ = ["read_bytes", "decode_text", "read_text", "write_atomic"]


def read_bytes(path: str | os.PathLike, what: str, error: type[CryptocompError]) -> bytes:
    """The bytes of a file, or ``error`` with one line naming ``what`` the file is."""
    try:
        return Path(path).read_bytes()
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


def read_text(path: str | os.PathLike, what: str, error: type[CryptocompError]) -> str:
    """The UTF-8 text of a file, or ``error`` with one line naming the file and the problem."""
    return decode_text(read_bytes(path, what, error), path, what, error)


def write_atomic(path: Path, data: bytes, *, create_dirs: bool = False) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one.

    ``create_dirs`` makes missing parent directories: right for cryptocomp's own
    files, wrong for a user's path, where a typo must be an error."""
    path = Path(path)
    try:
        if create_dirs:
            path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise IndexFileError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 would hide the file from other users
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
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
