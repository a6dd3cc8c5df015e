"""Index files: where they live, saving them, and loading them safely.

The file format (frame, header, sections) is documented in :mod:`.header`, the
sections in :mod:`.state`.  Loading checks the magic and the header against its
schema (types, ranges, the sections tiling the file) and reads the small
``meta`` section; every other section is read when the index first needs it,
after checking its length and SHA-256, through :class:`_IndexUnpickler`, which
admits no class at all (the sections are made of builtins: a crafted file that
asks for ``os.system`` or anything else is refused), and is then checked
against ``meta`` (:func:`.state.read_section`).  :func:`load_index` rebuilds an
index automatically, with a log message, when its dictionary changed or it has
an older format; a truncated, corrupt or crafted file is an
:class:`IndexFileError` naming the file and the command that rebuilds it, when
it is loaded or when the damaged section is first read.  Every file is written
atomically (see :mod:`cryptocomp.files`); the temporaries of interrupted writes
are removed by the next build.

Where files live
----------------
``$CRYPTOCOMP_HOME`` when set; else the source checkout (``indexes/`` and
``freqdicts/`` beside ``pyproject.toml``) when writable; else the user's cache
directory (``~/.cache/cryptocomp`` on Linux).  When the place cannot be written,
the dictionary exported from wordfreq and its index stay in memory, with one
warning.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import io
import logging
import os
import pickle
import re
import weakref
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NoReturn

from ..domain import Progress
from ..errors import CryptocompError, DictionaryError, IndexFileError
from ..files import (
    data_home,
    open_regular,
    reason,
    regular_stat,
    remove_stale_temporaries,
    shown,
    stale_temporaries,
    write_atomic,
)
from ..version import __version__
from .freqdict import (
    FreqDict,
    file_sha256,
    read_freqdict,
    wordfreq_languages,
    wordfreq_text,
)
from .header import FORMAT, MAGIC, SUFFIX, Header, corrupt, encode_header, header_from, read_header
from .index import Index
from .state import STATE_VERSION
from .wordlists import WordList, admitted_letters, load_list, merge_lists
from .wordsources import CLASS_LANGS, check_class_lang, class_params, classifier

__all__ = ["load_index", "build_index", "read_header", "read_index", "read_index_bytes",
           "index_checksum", "save_index", "list_indexes",
           "resolve_source", "stale_reason", "Source", "Header", "data_home", "index_dir",
           "freqdict_dir", "write_atomic", "temporaries", "FORMAT", "MAGIC", "SUFFIX"]

log = logging.getLogger(__name__)


# -- locations ---------------------------------------------------------------------------

def index_dir() -> Path:
    """Where index files are written and looked for."""
    return data_home() / "indexes"


def freqdict_dir() -> Path:
    """Where dictionaries exported from wordfreq are written."""
    return data_home() / "freqdicts"


@dataclass(frozen=True)
class Source:
    """A dictionary to index: its index name, its list file (any format of
    :mod:`.wordlists`), its language, the source of its word classes (:mod:`.wordsources`:
    a class language, a class file), and the user's lists laid over it (``lists``, with
    ``lists_key`` naming each with its SHA-256: a changed list makes the index stale)."""

    name: str
    path: Path
    lang: str | None
    fold_yo: bool = False
    class_lang: str | None = None
    class_file: Path | None = None
    lists: tuple[Path, ...] = ()
    lists_key: str = ""

    @property
    def params(self) -> dict:
        params: dict = {"lang": self.lang, "fold_yo": self.fold_yo,
                        **class_params(self.class_lang, self.class_file)}
        if self.lists:
            params["lists"] = self.lists_key
        return params

    @property
    def index_path(self) -> Path:
        return index_dir() / f"{self.name}{SUFFIX}"

    @property
    def rebuild_hint(self) -> str:
        spec = self.lang or shown(self.path)
        lang = f" --lang {self.class_lang}" if self.class_lang and not self.lang else ""
        classes = f" --classes {shown(self.class_file)}" if self.class_file else ""
        adds = "".join(f" --add {shown(p)}" for p in self.lists)
        return f"cryptocomp index build {spec}{' --fold-yo' if self.fold_yo else ''}" \
               f"{lang}{classes}{adds}"


_LANG_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z]{2,4})?$")


def _lists_key(paths: tuple[Path, ...]) -> str:
    """Each added list's SHA-256 and path, a line each (what the index's params record)."""
    return "".join(f"{file_sha256(p)} {os.fsdecode(p)}\n" for p in paths)


def _lists_of_key(key: str) -> tuple[Path, ...]:
    return tuple(Path(line.partition(" ")[2]) for line in key.splitlines())


def resolve_source(spec: str, *, fold_yo: bool = False, class_lang: str | None = None,
                   class_file: str | os.PathLike | None = None,
                   adds: tuple[str, ...] = ()) -> Source:
    """Turn ``en``, ``ru``, another wordfreq code or a file path into a :class:`Source`;
    ``class_lang``: the language whose source classes a file's words (a language code's
    own, en and ru, is the default), ``class_file``: a class file (:mod:`.classfile`);
    ``adds``: the user's lists laid over it, in order (see :mod:`.wordlists`)."""
    src = _resolve(spec, fold_yo, class_lang, class_file)
    if not adds:
        return src
    paths = []
    for add in adds:
        path = Path(add).expanduser()
        if not os.path.exists(path):
            raise DictionaryError(f"{shown(add)}: no such word list")
        regular_stat(path, "word list", DictionaryError)
        paths.append(path.resolve())
    lists = tuple(paths)
    tag = hashlib.sha256(b"\0".join(os.fsencode(p) for p in lists)).hexdigest()[:8]
    return replace(src, name=f"{src.name}+{tag}", lists=lists, lists_key=_lists_key(lists))


def _resolve(spec: str, fold_yo: bool, class_lang: str | None,
             class_file: str | os.PathLike | None) -> Source:
    """The :class:`Source` of a dictionary without added lists."""
    suffix = "+yo" if fold_yo else ""
    check_class_lang(class_lang)
    classes = _class_file(class_file)
    if _LANG_RE.match(spec) and not os.path.exists(spec):
        # an exported dictionary proves the code valid without importing wordfreq (slow)
        if not (freqdict_dir() / f"{spec}.txt").is_file() and spec not in wordfreq_languages():
            raise DictionaryError(f"unknown language {spec!r}: use one of "
                                  f"{', '.join(wordfreq_languages())} or a dictionary file path")
        own = spec if spec in CLASS_LANGS else None
        if class_lang is not None and class_lang != own:
            raise DictionaryError(f"--lang {class_lang} is for a dictionary file: the {spec!r} "
                                  f"list is classed as {own or 'nothing'}"
                                  f"{'' if own else ' (give --classes FILE)'}")
        return Source(spec + suffix, freqdict_dir() / f"{spec}.txt", spec, fold_yo, own, classes)
    path = Path(spec).expanduser()
    if not os.path.exists(path):
        raise DictionaryError(f"{shown(spec)}: no such dictionary file")
    regular_stat(path, "dictionary file", DictionaryError)  # a directory, /dev/null, a FIFO
    resolved = path.resolve()
    # the name's bytes: a name that is not UTF-8 has no str.encode()
    tag = hashlib.sha256(os.fsencode(resolved)).hexdigest()[:8]
    stem = re.sub(r"[^\w.-]", "_", resolved.stem)[:40] or "dict"
    return Source(f"{stem}-{tag}{suffix}", resolved, None, fold_yo, class_lang, classes)


def _class_file(spec: str | os.PathLike | None) -> Path | None:
    """A class file's absolute path after checking it is a regular file (one line if not)."""
    if spec is None:
        return None
    path = Path(spec).expanduser()
    regular_stat(path, "class file", DictionaryError)
    return path.resolve()


@dataclass
class _Exported:
    """A dictionary just exported from wordfreq: its counts (no need to parse the file
    again), and whether its file could be written (else it lives in memory only)."""

    freqdict: FreqDict
    written: bool


def _ensure_freqdict(src: Source) -> _Exported | None:
    """Export a wordfreq dictionary on first use.  When its file cannot be written the
    dictionary (and its index) stay in memory, with one warning."""
    if src.lang is None or src.path.is_file():
        return None
    log.info("exporting wordfreq's %r list to %s", src.lang, src.path)
    data, counts = wordfreq_text(src.lang)
    if src.fold_yo:  # the file holds the words as written; folding happens on reading
        fd = read_freqdict(data, str(src.path), fold_yo=True)
    else:
        fd = FreqDict(counts, str(src.path), hashlib.sha256(data).hexdigest())
    try:
        write_atomic(src.path, data, create_dirs=True)
    except IndexFileError as exc:
        log.warning("%s; the %r dictionary and its index stay in memory only (set "
                    "CRYPTOCOMP_HOME to a writable directory to keep them)", exc, src.lang)
        return _Exported(fd, False)
    log.info("wrote %d words to %s", len(counts), src.path)
    return _Exported(fd, True)


def save_index(index: Index, path: Path, *, source: str = "", source_sha256: str = "",
               source_stat: os.stat_result | None = None, created: str | None = None) -> dict:
    """Write an index file atomically; return its header.  ``source_stat``: the dictionary
    file's stat when its SHA-256 was taken (lets a later load skip hashing it); ``created``:
    the time of writing to record (default now; a fixed one makes equal indexes equal files)."""
    sections, table, offset = [], {}, 0
    for key, value in index.sections().items():
        data = pickle.dumps(value, protocol=5)
        table[key] = [offset, len(data), hashlib.sha256(data).hexdigest()]
        sections.append(data)
        offset += len(data)
    params = {"lang": index.params.get("lang"), "fold_yo": bool(index.params.get("fold_yo"))}
    params.update((k, index.params[k]) for k in ("scored", "classes", "class_lang", "class_file",
                                                 "lists")
                  if k in index.params)
    header = {
        "format": FORMAT,
        "name": index.name,
        "source": source,
        "source_sha256": source_sha256,
        "source_size": source_stat.st_size if source_stat else 0,
        "source_mtime_ns": source_stat.st_mtime_ns if source_stat else 0,
        "words": len(index),
        "params": params,
        "state_version": STATE_VERSION,
        "created": created or _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "cryptocomp": __version__,
        "payload_length": offset,
        "sections": table,
    }
    # chunks, not one joined copy: the sections are tens of MB
    write_atomic(Path(path), [encode_header(header), *sections], create_dirs=True)
    return header


# -- reading -----------------------------------------------------------------------------

class _IndexUnpickler(pickle.Unpickler):
    """Admits no global at all: an index state is made of builtins only."""

    def find_class(self, module: str, name: str) -> NoReturn:
        raise pickle.UnpicklingError(f"forbidden global {module}.{name}")




class _FileSections:
    """The sections of one index file, each read and checked when first asked for.

    The file stays open (closed with this object), so a file replaced meanwhile by a
    rebuild is still read whole from the version that was loaded.  With ``data`` (the
    file's bytes, as sent to a batch worker) the sections come from memory instead."""

    def __init__(self, path: Path, header: Header, hint: str, data: bytes | None = None):
        self.path, self.header, self.hint, self.data = path, header, hint, data
        if data is not None:
            return
        fh = open_regular(path, "index file", IndexFileError)
        self.fd = fh.fileno()
        weakref.finalize(self, fh.close)

    def _read(self, offset: int, length: int) -> bytes:
        if self.data is not None:
            return self.data[offset:offset + length]
        try:
            return os.pread(self.fd, length, offset)
        except OSError as exc:
            raise IndexFileError(f"{shown(self.path)}: cannot read ({reason(exc)})") from None

    def load(self, key: str) -> object:
        entry = self.header["sections"].get(key)
        if entry is None:
            raise corrupt(self.path, f"no {key} section", self.hint)
        start, length, digest = entry
        data = self._read(self.header.payload_offset + start, length)
        if len(data) < length:
            raise corrupt(self.path, f"truncated file (section {key})", self.hint)
        if hashlib.sha256(data).hexdigest() != digest:
            raise corrupt(self.path, f"checksum mismatch in section {key} (the file is damaged)",
                          self.hint)
        try:
            return _IndexUnpickler(io.BytesIO(data)).load()
        except (pickle.UnpicklingError, ValueError, KeyError, TypeError, AttributeError,
                EOFError, IndexError, OverflowError, MemoryError, RecursionError) as exc:
            raise corrupt(self.path, f"refused section {key} ({type(exc).__name__}: {exc})",
                          self.hint) from None


def read_index(path: Path, header: Header | None = None, *, hint: str | None = None) -> Index:
    """Open an index file after checking its header and its ``meta`` section; the other
    sections are read, checked and decoded when first needed (see the module docstring)."""
    path = Path(path)
    header = header or read_header(path, hint=hint)
    hint = hint or header.rebuild_hint
    return _open(_FileSections(path, header, hint), hint)


def read_index_bytes(data: bytes, *, label: str = "index data", checksum: str | None = None,
                     hint: str | None = None) -> Index:
    """:func:`read_index` for the bytes of an index file (as sent to a batch worker), with
    the same checks, every section's made at once; ``checksum``: the
    :func:`index_checksum` the bytes must have."""
    path = Path(label)
    header = header_from(io.BytesIO(data), path, len(data), hint)
    hint = hint or header.rebuild_hint
    if checksum is not None and _frame_digest(data[:header.payload_offset]) != checksum:
        raise corrupt(path, "not the expected index (checksum differs)", hint)
    # all in memory: every section is checked now, not when first read
    for key, (start, length, digest) in header["sections"].items():
        offset = header.payload_offset + start
        if hashlib.sha256(data[offset:offset + length]).hexdigest() != digest:
            raise corrupt(path, f"checksum mismatch in section {key} (damaged)", hint)
    return _open(_FileSections(path, header, hint, data), hint)


def index_checksum(path: Path) -> str:
    """The identity of an index file's contents (hex): the SHA-256 of its magic and header,
    which lists the SHA-256 of every section, each checked when the section is read."""
    path = Path(path)
    header = read_header(path)
    try:
        with open_regular(path, "index file", IndexFileError) as fh:
            return _frame_digest(fh.read(header.payload_offset))
    except OSError as exc:
        raise IndexFileError(f"{shown(path)}: cannot read ({reason(exc)})") from None


def _frame_digest(frame: bytes) -> str:
    return hashlib.sha256(frame).hexdigest()


def _open(sections: _FileSections, hint: str) -> Index:
    """The index whose sections these are, after the checks every reader makes."""
    path, header = sections.path, sections.header
    if header["format"] != FORMAT or header["state_version"] != STATE_VERSION:
        raise IndexFileError(f"{path}: index format {header['format']} (state "
                             f"{header['state_version']}) is not {FORMAT} (state "
                             f"{STATE_VERSION}): written by another version; rebuild it with "
                             f"`{hint}`")
    index = Index.from_sections(
        sections, corrupt=lambda why: corrupt(path, f"refused payload ({why})", hint))
    if len(index) != header["words"]:
        raise corrupt(path, "word count differs from the header", hint)
    codes = {k for k in header["sections"] if k.startswith("codes:")}
    if codes != {f"codes:{n}" for n in index.lengths()}:
        raise corrupt(path, "the encoded-word sections do not match the word lengths", hint)
    return index


def temporaries() -> list[tuple[Path, int]]:
    """Temporary files left by interrupted writes in the index and dictionary directories,
    with their sizes (the next build removes them)."""
    return stale_temporaries(index_dir()) + stale_temporaries(freqdict_dir())


def stale_reason(header: Header, src: Source | None = None) -> str | None:
    """Why :func:`load_index` would rebuild this index file, or None when it is fresh.

    ``src`` defaults to the source and parameters the header records; a given one keeps
    the class source the header records, as :func:`load_index` does."""
    if src is None:
        params = header["params"]
        lang = params["lang"]
        lists = _lists_of_key(params.get("lists", ""))
        try:
            key = _lists_key(lists)
        except DictionaryError as exc:
            return f"an added list cannot be read ({exc})"
        try:
            src = Source(header["name"], Path(header["source"]), lang, params["fold_yo"],
                         params.get("class_lang") or (lang if lang in CLASS_LANGS else None),
                         _class_file(params.get("class_file")), lists, key)
        except DictionaryError as exc:
            return f"its class source cannot be read ({exc})"
    else:  # as load_index: the class source the index was built with is kept
        src = _adopt(src, header["params"], src.index_path)
    return _stale_reason(header, src)


def _stale_reason(header: Header, src: Source, sha: str | None = None) -> str | None:
    """As :func:`stale_reason`; ``sha`` (the dictionary's SHA-256) is computed only when the
    file's size or modification time differ from the header's."""
    if header["format"] != FORMAT or header["state_version"] != STATE_VERSION:
        return (f"it has index format {header['format']} (state {header['state_version']}), "
                f"this version writes {FORMAT} (state {STATE_VERSION})")
    if sha is None:
        try:  # never opens a FIFO or a device the header names (it would block or not end)
            st = regular_stat(src.path, "dictionary file", DictionaryError)
            if (st.st_size, st.st_mtime_ns) != (header["source_size"],
                                                header["source_mtime_ns"]):
                sha = file_sha256(src.path)
            else:
                sha = header["source_sha256"]
        except DictionaryError as exc:
            return f"its dictionary cannot be read ({exc})"
    if header["source_sha256"] != sha:
        return f"its dictionary {shown(src.path)} changed"
    try:
        params = src.params
    except DictionaryError as exc:
        return f"its class source cannot be read ({exc})"
    built = {k: v for k, v in header["params"].items() if k != "scored"}  # the list's kind
    if built.get("lists", "") != params.get("lists", ""):
        return "an added list changed"
    if built.get("classes") != params.get("classes"):
        return "its word classes come from another source"
    if built != params:
        return "it was built with other parameters"
    return None


def build_index(spec: str, *, fold_yo: bool = False, progress: Progress | None = None,
                save: bool = True, class_lang: str | None = None,
                class_file: str | os.PathLike | None = None,
                adds: tuple[str, ...] = ()) -> tuple[Index, Path | None]:
    """Build the index of a dictionary from scratch and save it; return it and its path
    (``class_lang``, ``class_file``: the source of its word classes, see
    :func:`resolve_source`; ``adds``: the user's lists laid over it)."""
    src = resolve_source(spec, fold_yo=fold_yo, class_lang=class_lang, class_file=class_file,
                         adds=adds)
    return _build(src, progress, save, _ensure_freqdict(src))


def _build(src: Source, progress: Progress | None, save: bool,
           exported: _Exported | None = None) -> tuple[Index, Path | None]:
    written = exported is None or exported.written
    stat = regular_stat(src.path, "dictionary file", DictionaryError) if written else None
    base = _base_list(src, exported)
    sha = base.sha256
    counts = _counts_of(src, base)
    params = dict(src.params, **({"scored": True} if base.scored else {}))
    del base, exported
    classify = classifier(src.class_lang, src.class_file, fold_yo=src.fold_yo)
    index = Index.from_counts(counts, name=src.name, params=params, progress=progress,
                              classify=classify)
    del counts
    if not save or stat is None:  # an index file needs its dictionary file
        return index, None
    for directory in (index_dir(), freqdict_dir()):
        remove_stale_temporaries(directory)
    try:
        save_index(index, src.index_path, source=str(src.path), source_sha256=sha,
                   source_stat=stat)
    except IndexFileError as exc:
        log.warning("%s (the index stays in memory only)", exc)
        return index, None
    log.info("saved index %s (%s word%s)", src.index_path, f"{len(index):,}",
             "" if len(index) == 1 else "s")
    return index, src.index_path


def _base_list(src: Source, exported: _Exported | None) -> WordList:
    """The dictionary's list: just exported from wordfreq, or read in any list format."""
    if exported is None:
        return load_list(src.path, fold_yo=src.fold_yo, what="dictionary file")
    fd = exported.freqdict
    base = WordList(fd.counts, set(), "count", fd.source, fd.sha256)
    fd.counts = {}  # the index copies what it needs: free the rest early
    return base


def _counts_of(src: Source, base: WordList) -> dict:
    """The base list's counts with the source's added lists laid over them."""
    if not src.lists:
        return base.entries
    admits = admitted_letters(set("".join(base.entries)), src.lang)
    overlays = [load_list(p, fold_yo=src.fold_yo, admits=admits, empty_ok=True)
                for p in src.lists]
    return merge_lists(base, overlays)


def load_index(spec: str = "en", *, fold_yo: bool = False, rebuild: bool = False,
               progress: Progress | None = None, adds: tuple[str, ...] = ()) -> Index:
    """The index of a dictionary (``"en"``, ``"ru"``, any wordfreq code or a file path,
    with the user's lists ``adds`` laid over it), loaded from its index file, built on
    first use, rebuilt when stale.

    Scripts use it as ``from cryptocomp import load_index; idx = load_index("ru")``.
    """
    src = resolve_source(spec, fold_yo=fold_yo, adds=adds)
    exported = _ensure_freqdict(src)
    if exported is not None:
        return _build(src, progress, True, exported)[0]
    path = src.index_path
    if not rebuild and path.exists():
        header = read_header(path, hint=src.rebuild_hint)
        src = _adopt(src, header["params"], path)
        if not src.path.exists():
            raise DictionaryError(f"{shown(src.path)}: the dictionary of index {shown(path)} "
                                  f"is gone")
        reason = _stale_reason(header, src)
        if reason is None:
            return read_index(path, header, hint=src.rebuild_hint)
        log.warning("rebuilding index %s: %s", path, reason)
    else:
        src = _as_built(src, path)
    return _build(src, progress, True)[0]


def _as_built(src: Source, path: Path) -> Source:
    """``src`` with the class source its index file was built with (see :func:`_adopt`)."""
    try:
        params = read_header(path)["params"] if path.exists() else {}
    except CryptocompError:
        return src  # a damaged file: rebuilt (or refused) as before
    return _adopt(src, params, path)


def _adopt(src: Source, params: dict, path: Path) -> Source:
    """``src`` with the class source of an index built with ``params`` (``index build FILE
    --lang en``, ``--classes FILE``), which every later use keeps; a class file that is
    gone is dropped with a warning (the index is rebuilt without it)."""
    lang, given = params.get("class_lang"), params.get("class_file")
    if src.lang is None and lang in CLASS_LANGS:
        src = replace(src, class_lang=lang)
    if given:
        try:
            src = replace(src, class_file=_class_file(given))
        except DictionaryError as exc:
            log.warning("%s: the index %s is rebuilt without it", exc, shown(path))
    return src


def list_indexes(directory: Path | None = None) -> list[tuple[Path, Header | CryptocompError]]:
    """Every index file in the index directory, with its header or the error reading it."""
    directory = directory or index_dir()
    found: list[tuple[Path, Header | CryptocompError]] = []
    for path in sorted(Path(directory).glob(f"*{SUFFIX}")):
        try:
            found.append((path, read_header(path)))
        except CryptocompError as exc:
            found.append((path, exc))
    return found
