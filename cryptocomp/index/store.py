"""Index files: where they live, their format, and loading them safely.

Index file format 1 (``*.ccidx``)
---------------------------------
::

    magic      17 bytes  b"CRYPTOCOMP-INDEX\\0"
    length      4 bytes  big-endian length H of the header
    header      H bytes  UTF-8 JSON object, see below
    payload     P bytes  pickle (protocol 5) of the index state, P = header["payload_length"]
    checksum   32 bytes  SHA-256 of the payload

The header holds ``format`` (1), ``name``, ``source`` (the dictionary file),
``source_sha256`` (SHA-256 of that file's bytes), ``words``, ``params`` (the
build parameters: ``fold_yo``, ``lang``), ``state_version``, ``created`` and
``cryptocomp`` (the version that wrote it).

Reading checks the magic, then the header, then the payload's length and
checksum, and only then unpickles it through :class:`_IndexUnpickler`, which
admits no global but ``pyroaring.FrozenBitMap`` (a crafted file that asks for
``os.system`` or anything else is refused).  :func:`load_index` rebuilds an
index automatically, with a log message, when its dictionary changed or it has
an older format; a truncated or corrupt file is an :class:`IndexFileError`
naming the file and the command that rebuilds it.  Every file is written
atomically: to a temporary file in the same directory, then ``os.replace``.

Where files live
----------------
``$CRYPTOCOMP_HOME`` when set; else the source checkout (``indexes/`` and
``freqdicts/`` beside ``pyproject.toml``) when writable; else the user's cache
directory (``~/.cache/cryptocomp`` on Linux).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import io
import json
import logging
import os
import pickle
import re
import struct
from dataclasses import dataclass
from pathlib import Path


from pyroaring import FrozenBitMap

from ..domain import Progress
from ..errors import CryptocompError, DictionaryError, IndexFileError
from ..files import write_atomic
from ..version import __version__
from . import index as _index
from .freqdict import export_wordfreq, file_sha256, load_freqdict, wordfreq_languages
from .index import Index

__all__ = ["load_index", "build_index", "read_header", "read_index", "save_index", "list_indexes",
           "resolve_source", "stale_reason", "Source", "Header", "data_home", "index_dir", "freqdict_dir",
           "write_atomic", "FORMAT", "MAGIC", "SUFFIX"]

log = logging.getLogger(__name__)

MAGIC = b"CRYPTOCOMP-INDEX\0"
FORMAT = 1
SUFFIX = ".ccidx"
_LEN = struct.Struct(">I")
_MAX_HEADER = 1 << 20


# -- locations ---------------------------------------------------------------------------

def data_home() -> Path:
    """The directory holding ``freqdicts/`` and ``indexes/``."""
    env = os.environ.get("CRYPTOCOMP_HOME")
    if env:
        return Path(env).expanduser()
    checkout = Path(__file__).resolve().parents[2]  # cryptocomp/index/store.py -> checkout
    if (checkout / "pyproject.toml").is_file() and (checkout / "indexes").is_dir() \
            and os.access(checkout / "indexes", os.W_OK):
        return checkout
    import platformdirs

    return Path(platformdirs.user_cache_dir("cryptocomp", appauthor=False))


def index_dir() -> Path:
    """Where index files are written and looked for."""
    return data_home() / "indexes"


def freqdict_dir() -> Path:
    """Where dictionaries exported from wordfreq are written."""
    return data_home() / "freqdicts"


@dataclass(frozen=True)
class Source:
    """A dictionary to index: its index name, its ``word count`` file, its language."""

    name: str
    path: Path
    lang: str | None
    fold_yo: bool = False

    @property
    def params(self) -> dict:
        return {"lang": self.lang, "fold_yo": self.fold_yo}

    @property
    def index_path(self) -> Path:
        return index_dir() / f"{self.name}{SUFFIX}"

    @property
    def rebuild_hint(self) -> str:
        spec = self.lang or str(self.path)
        return f"cryptocomp index build {spec}{' --fold-yo' if self.fold_yo else ''}"


_LANG_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z]{2,4})?$")


def resolve_source(spec: str, *, fold_yo: bool = False) -> Source:
    """Turn ``en``, ``ru``, another wordfreq code or a file path into a :class:`Source`."""
    suffix = "+yo" if fold_yo else ""
    if _LANG_RE.match(spec) and not os.path.exists(spec):
        # an exported dictionary proves the code valid without importing wordfreq (slow)
        if not (freqdict_dir() / f"{spec}.txt").is_file() and spec not in wordfreq_languages():
            raise DictionaryError(f"unknown language {spec!r}: use one of "
                                  f"{', '.join(wordfreq_languages())} or a dictionary file path")
        return Source(spec + suffix, freqdict_dir() / f"{spec}.txt", spec, fold_yo)
    path = Path(spec).expanduser()
    if not path.is_file():
        raise DictionaryError(f"{spec}: no such dictionary file")
    resolved = path.resolve()
    tag = hashlib.sha256(str(resolved).encode()).hexdigest()[:8]
    stem = re.sub(r"[^\w.-]", "_", resolved.stem)[:40] or "dict"
    return Source(f"{stem}-{tag}{suffix}", resolved, None, fold_yo)


def _ensure_freqdict(src: Source, progress: Progress | None) -> None:
    if src.lang is None or src.path.is_file():
        return
    log.info("exporting wordfreq's %r list to %s", src.lang, src.path)
    try:
        n = export_wordfreq(src.lang, src.path)
    except IndexFileError as exc:
        raise DictionaryError(f"cannot export the {src.lang!r} dictionary: {exc}") from None
    log.info("wrote %d words to %s", n, src.path)


def save_index(index: Index, path: Path, *, source: str = "", source_sha256: str = "") -> dict:
    """Write an index file atomically; return its header."""
    payload = pickle.dumps(index.__getstate__(), protocol=5)
    header = {
        "format": FORMAT,
        "name": index.name,
        "source": source,
        "source_sha256": source_sha256,
        "words": len(index),
        "params": index.params,
        "state_version": _index.STATE_VERSION,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "cryptocomp": __version__,
        "payload_length": len(payload),
    }
    head = json.dumps(header, ensure_ascii=False, sort_keys=True).encode("utf-8")
    write_atomic(Path(path), b"".join(
        [MAGIC, _LEN.pack(len(head)), head, payload, hashlib.sha256(payload).digest()]),
        create_dirs=True)
    return header


# -- reading -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Header:
    """The parsed header of an index file and where its payload starts."""

    path: Path
    fields: dict
    payload_offset: int

    def __getitem__(self, key: str):
        return self.fields[key]

    def get(self, key: str, default=None):
        return self.fields.get(key, default)


def _corrupt(path: Path, why: str, hint: str | None = None) -> IndexFileError:
    hint = hint or "cryptocomp index build SOURCE"
    return IndexFileError(f"{path}: {why}; delete it or rebuild it with `{hint}`")


def read_header(path: Path, *, hint: str | None = None) -> Header:
    """Read and check an index file's magic and header (not its payload)."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            magic = fh.read(len(MAGIC))
            if magic != MAGIC:
                raise _corrupt(path, "not a cryptocomp index file (bad magic)", hint)
            raw = fh.read(_LEN.size)
            if len(raw) < _LEN.size:
                raise _corrupt(path, "truncated header", hint)
            (size,) = _LEN.unpack(raw)
            if size > _MAX_HEADER:
                raise _corrupt(path, "corrupt header length", hint)
            head = fh.read(size)
    except FileNotFoundError:
        raise IndexFileError(f"{path}: no such index file") from None
    except OSError as exc:
        raise IndexFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(head) < size:
        raise _corrupt(path, "truncated header", hint)
    try:
        fields = json.loads(head.decode("utf-8"))
        if not isinstance(fields, dict) or not isinstance(fields.get("format"), int):
            raise ValueError
    except ValueError:
        raise _corrupt(path, "corrupt header", hint) from None
    return Header(path, fields, len(MAGIC) + _LEN.size + size)


class _IndexUnpickler(pickle.Unpickler):
    """Admits no global but the bitmap class an index state contains."""

    _ALLOWED = {("pyroaring", "FrozenBitMap"): FrozenBitMap}

    def find_class(self, module: str, name: str):
        try:
            return self._ALLOWED[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(f"forbidden global {module}.{name}") from None


def read_index(path: Path, header: Header | None = None, *, hint: str | None = None) -> Index:
    """Load an index file after checking its header, payload length and checksum."""
    path = Path(path)
    header = header or read_header(path, hint=hint)
    if header["format"] != FORMAT or header.get("state_version") != _index.STATE_VERSION:
        raise IndexFileError(f"{path}: index format {header['format']} is not {FORMAT} "
                             f"(written by another version); rebuild it with "
                             f"`{hint or 'cryptocomp index build SOURCE'}`")
    length = header.get("payload_length")
    if not isinstance(length, int) or length < 0:
        raise _corrupt(path, "corrupt header", hint)
    try:
        with open(path, "rb") as fh:
            fh.seek(header.payload_offset)
            payload = fh.read(length)
            digest = fh.read(32)
            extra = fh.read(1)
    except OSError as exc:
        raise IndexFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(payload) < length or len(digest) < 32:
        raise _corrupt(path, "truncated file", hint)
    if extra:
        raise _corrupt(path, "trailing bytes after the checksum", hint)
    if hashlib.sha256(payload).digest() != digest:
        raise _corrupt(path, "checksum mismatch (the file is damaged)", hint)
    try:
        state = _IndexUnpickler(io.BytesIO(payload)).load()
        if not isinstance(state, dict):
            raise ValueError("payload is not an index state")
        index = Index.__new__(Index)
        index.__setstate__(state)
    except (pickle.UnpicklingError, ValueError, KeyError, TypeError, AttributeError,
            EOFError, IndexError) as exc:
        raise _corrupt(path, f"refused payload ({exc})", hint) from None
    if len(index) != header.get("words"):
        raise _corrupt(path, "word count differs from the header", hint)
    return index


def stale_reason(header: Header, src: Source | None = None) -> str | None:
    """Why :func:`load_index` would rebuild this index file, or None when it is fresh.

    ``src`` defaults to the source and parameters the header records."""
    if src is None:
        params = header.get("params") or {}
        src = Source(header.get("name", ""), Path(header.get("source") or ""),
                     params.get("lang"), bool(params.get("fold_yo")))
    try:
        sha = file_sha256(src.path)
    except OSError as exc:
        return f"cannot read its dictionary {src.path} ({exc.strerror or exc})"
    return _stale_reason(header, src, sha)


def _stale_reason(header: Header, src: Source, sha: str) -> str | None:
    if header["format"] != FORMAT or header.get("state_version") != _index.STATE_VERSION:
        return f"it has index format {header['format']}, this version writes {FORMAT}"
    if header.get("source_sha256") != sha:
        return f"its dictionary {src.path} changed"
    if header.get("params") != src.params:
        return "it was built with other parameters"
    return None


def build_index(spec: str, *, fold_yo: bool = False, progress: Progress | None = None,
                save: bool = True) -> tuple[Index, Path | None]:
    """Build the index of a dictionary from scratch and save it; return it and its path."""
    src = resolve_source(spec, fold_yo=fold_yo)
    _ensure_freqdict(src, progress)
    return _build(src, progress, save)


def _build(src: Source, progress: Progress | None, save: bool) -> tuple[Index, Path | None]:
    fd = load_freqdict(src.path, fold_yo=src.fold_yo)
    index = Index.from_counts(fd.counts, name=src.name, params=src.params, progress=progress)
    if not save:
        return index, None
    try:
        save_index(index, src.index_path, source=str(src.path), source_sha256=fd.sha256)
    except IndexFileError as exc:
        log.warning("%s (the index stays in memory only)", exc)
        return index, None
    log.info("saved index %s (%d words)", src.index_path, len(index))
    return index, src.index_path


def load_index(spec: str = "en", *, fold_yo: bool = False, rebuild: bool = False,
               progress: Progress | None = None) -> Index:
    """The index of a dictionary (``"en"``, ``"ru"``, any wordfreq code or a file path),
    loaded from its index file, built on first use, rebuilt when stale.

    Scripts use it as ``from cryptocomp import load_index; idx = load_index("ru")``.
    """
    src = resolve_source(spec, fold_yo=fold_yo)
    _ensure_freqdict(src, progress)
    path = src.index_path
    if not rebuild and path.exists():
        header = read_header(path, hint=src.rebuild_hint)
        try:
            sha = file_sha256(src.path)
        except OSError as exc:
            raise DictionaryError(f"{src.path}: cannot read ({exc.strerror or exc})") from None
        reason = _stale_reason(header, src, sha)
        if reason is None:
            return read_index(path, header, hint=src.rebuild_hint)
        log.warning("rebuilding index %s: %s", path, reason)
    return _build(src, progress, save=True)[0]


def list_indexes(directory: Path | None = None) -> list[tuple[Path, Header | CryptocompError]]:
    """Every index file in the index directory, with its header or the error reading it."""
    directory = directory or index_dir()
    found = []
    for path in sorted(Path(directory).glob(f"*{SUFFIX}")):
        try:
            found.append((path, read_header(path)))
        except CryptocompError as exc:
            found.append((path, exc))
    return found
