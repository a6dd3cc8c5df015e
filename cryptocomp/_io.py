"""Reading the user's text files with one-line errors (writing is :func:`cryptocomp.store.write_atomic`)."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import CryptocompError


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
