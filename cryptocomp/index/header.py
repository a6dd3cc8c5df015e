"""The index file's frame and header: magic, header schema, checks before any section is read.

Index file format 2 (``*.ccidx``)
---------------------------------
::

    magic      17 bytes  b"CRYPTOCOMP-INDEX\0"
    length      4 bytes  big-endian length H of the header (at most 1 MiB)
    header      H bytes  UTF-8 JSON object, see below
    sections   P bytes  the index's sections back to back, P = header["payload_length"];
                         each a pickle (protocol 5) of builtins (see :mod:`.state`)

Header fields (:data:`SCHEMA`; every one required, no other allowed):

====================  ================================================================
``format``            int, the file format (2)
``name``              str, the index name (``en``, ``ru+yo``, ``words-1a2b3c4d``)
``source``            str, the dictionary file it was built from
``source_sha256``     str, SHA-256 of that file's bytes (64 hex digits)
``source_size``       int, that file's size in bytes when the index was built
``source_mtime_ns``   int, its modification time then (equal size and time: unchanged,
                      without hashing it again; else its SHA-256 decides)
``words``             int, the word count, 0 to 2**32 - 1
``params``            object ``{"lang": str | null, "fold_yo": bool}``, and where
                      given ``"scored": bool`` (counts are 1-100 scores),
                      ``"classes": str`` (the description of the source the words
                      were classed by), ``"class_lang": str`` (the language whose
                      source it is), ``"class_file": str`` (a class file's path; see
                      :mod:`.wordsources`) and ``"lists": str`` (the user's lists laid
                      over the dictionary: a line ``sha256 path`` each, :mod:`.store`)
``state_version``     int, the layout of the sections (:mod:`.state`)
``created``           str, ISO 8601 time of writing
``cryptocomp``        str, the version that wrote the file
``payload_length``    int, P: the header and the sections fill the file exactly
``sections``          object ``{name: [offset, length, sha256]}``: where each section
                      lies (offset from the end of the header; the sections are
                      contiguous and in file order) and the SHA-256 of its bytes
====================  ================================================================

A section is read only when the index first needs it (a compose query reads
about a fifth of the file), and only after its length and SHA-256 are checked.
Format 1 (cryptocomp 0.1: one pickle of ``FrozenBitMap`` objects and one
trailing checksum) is rebuilt automatically by
:func:`cryptocomp.index.store.load_index`.  :func:`read_header` checks the magic,
the header's JSON (its nesting before parsing) and the schema (types, ranges, the
sections tiling the rest of the file) before anything else reads the file; every
failure is one :class:`IndexFileError` line naming the file and the command that
rebuilds it.
"""

from __future__ import annotations

import json
import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import IndexFileError
from ..files import open_regular, reason, shown

__all__ = ["MAGIC", "FORMAT", "SUFFIX", "SCHEMA", "Header", "read_header", "header_from", "corrupt",
           "check_header", "encode_header", "DEFAULT_HINT", "REQUIRED_SECTIONS"]

MAGIC = b"CRYPTOCOMP-INDEX\0"
FORMAT = 2
SUFFIX = ".ccidx"
DEFAULT_HINT = "cryptocomp index build SOURCE"
_LEN = struct.Struct(">I")
_MAX_HEADER = 1 << 20
_MAX_DEPTH = 8  # the header nests 3 deep: deeper JSON is refused before parsing
_SHA = re.compile(r"^([0-9a-f]{64})?$")
_SECTION = re.compile(r"^(meta|counts|words|order|by_length|by_pattern|at|having|at_least"
                      r"|classes|lemmas|codes:[1-9][0-9]{0,7})$")
# the sections every state version has: a file of an older version passes the header check
# and is then rebuilt for its version (the newer sections are required when read)
REQUIRED_SECTIONS = ("meta", "counts", "words", "order", "by_length", "by_pattern", "at",
                     "having", "at_least")
# build parameters not every index has
_OPTIONAL_PARAMS = {"scored": bool, "classes": str, "class_lang": str, "class_file": str,
                    "lists": str}
_MAX_SECTIONS = 4096


def _is_int(v: object) -> bool:
    return type(v) is int  # bool is an int subclass: not a count


def _params_ok(v: object) -> bool:
    return (isinstance(v, dict) and {"lang", "fold_yo"} <= set(v)
            and set(v) <= {"lang", "fold_yo", *_OPTIONAL_PARAMS}
            and (v["lang"] is None or isinstance(v["lang"], str))
            and isinstance(v["fold_yo"], bool)
            and all(isinstance(v[k], t) and (t is bool or len(v[k]) <= 65536)
                    for k, t in _OPTIONAL_PARAMS.items() if k in v))


def _sections_ok(v: object) -> bool:
    return (isinstance(v, dict) and len(v) <= _MAX_SECTIONS
            and all(isinstance(k, str) and _SECTION.match(k) and isinstance(e, list) and len(e) == 3
                    and _is_int(e[0]) and _is_int(e[1]) and e[0] >= 0 and e[1] > 0
                    and isinstance(e[2], str) and len(e[2]) == 64 and _SHA.match(e[2])
                    for k, e in v.items())
            and all(k in v for k in REQUIRED_SECTIONS))


SCHEMA = {
    "format": lambda v: _is_int(v) and 1 <= v <= 1000,
    "name": lambda v: isinstance(v, str) and len(v) <= 4096,
    "source": lambda v: isinstance(v, str) and len(v) <= 65536,
    "source_sha256": lambda v: isinstance(v, str) and bool(_SHA.match(v)),
    "words": lambda v: _is_int(v) and 0 <= v < 2**32,
    "params": _params_ok,
    "state_version": lambda v: _is_int(v) and 1 <= v <= 1000,
    "created": lambda v: isinstance(v, str) and len(v) <= 64,
    "cryptocomp": lambda v: isinstance(v, str) and len(v) <= 64,
    "payload_length": lambda v: _is_int(v) and v >= 0,
    "source_size": lambda v: _is_int(v) and v >= 0,
    "source_mtime_ns": lambda v: _is_int(v),
    "sections": _sections_ok,
}
_FORMAT1 = set(SCHEMA) - {"source_size", "source_mtime_ns", "sections"}  # rebuilt, not read


@dataclass(frozen=True)
class Header:
    """The checked header of an index file and where its payload starts."""

    path: Path
    fields: dict
    payload_offset: int

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    @property
    def rebuild_hint(self) -> str:
        """The command that rebuilds this file's index."""
        params = self.fields["params"]
        spec = params["lang"] or self.fields["source"] or "SOURCE"
        adds = "".join(f" --add {line.partition(' ')[2]}"
                       for line in params.get("lists", "").splitlines())
        lang = f" --lang {params['class_lang']}" if params.get("class_lang") and \
            not params["lang"] else ""
        classes = f" --classes {params['class_file']}" if params.get("class_file") else ""
        return f"cryptocomp index build {spec}{' --fold-yo' if params['fold_yo'] else ''}" \
               f"{lang}{classes}{adds}"


def corrupt(path: Path, why: str, hint: str | None = None) -> IndexFileError:
    """The one-line error for a damaged index file."""
    return IndexFileError(f"{shown(path)}: {why}; delete it or rebuild it with "
                          f"`{shown(hint or DEFAULT_HINT)}`")


def _depth(raw: bytes) -> int:
    """The deepest nesting of JSON arrays and objects in ``raw`` (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > _MAX_DEPTH:
                    break
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def check_header(fields: object, path: Path, file_size: int, offset: int,
                 hint: str | None = None) -> dict:
    """The header's fields after checking them against :data:`SCHEMA` and the file size."""
    if not isinstance(fields, dict):
        raise corrupt(path, "corrupt header (not a JSON object)", hint)
    # another format's header is checked only as far as its staleness needs: it is rebuilt
    schema = SCHEMA if fields.get("format") == FORMAT else {k: SCHEMA[k] for k in _FORMAT1}
    missing = [k for k in schema if k not in fields]
    if missing:
        raise corrupt(path, f"corrupt header (no {', '.join(missing)})", hint)
    extra = sorted(k for k in fields if k not in schema)
    if extra and schema is SCHEMA:
        raise corrupt(path, f"corrupt header (unknown field {extra[0]!r})", hint)
    for key, ok in schema.items():
        if not ok(fields[key]):
            raise corrupt(path, f"corrupt header ({key} has a wrong type or value)", hint)
    if fields["format"] != FORMAT:
        return fields
    available = file_size - offset
    if fields["payload_length"] > available:
        raise corrupt(path, f"truncated file or corrupt header (it announces "
                            f"{fields['payload_length']:,} bytes of sections, the file holds "
                            f"{max(0, available):,})", hint)
    if fields["payload_length"] < available:
        raise corrupt(path, "trailing bytes after the last section", hint)
    end = 0
    for name, (start, length, _) in sorted(fields["sections"].items(), key=lambda kv: kv[1][0]):
        if start != end:
            raise corrupt(path, f"corrupt header (section {name} is not where the previous "
                                f"one ends)", hint)
        end = start + length
    if end != fields["payload_length"]:
        raise corrupt(path, "corrupt header (the sections do not fill the file)", hint)
    return fields


def read_header(path: Path, *, hint: str | None = None) -> Header:
    """Read and check an index file's magic and header (not its payload)."""
    path = Path(path)
    try:
        # a FIFO or a device named *.ccidx would block or never end: regular files only
        with open_regular(path, "index file", IndexFileError) as fh:
            return header_from(fh, path, os.fstat(fh.fileno()).st_size, hint)
    except OSError as exc:
        raise IndexFileError(f"{shown(path)}: cannot read ({reason(exc)})") from None


def header_from(fh: BinaryIO, path: Path, size_on_disk: int, hint: str | None = None) -> Header:
    """The checked header of the index file open in ``fh`` (at its start; ``path`` names
    it in errors): a file on disk, or the bytes of one sent to a batch worker."""
    magic = fh.read(len(MAGIC))
    if magic != MAGIC:
        raise corrupt(path, "not a cryptocomp index file (bad magic)", hint)
    raw = fh.read(_LEN.size)
    if len(raw) < _LEN.size:
        raise corrupt(path, "truncated header", hint)
    (size,) = _LEN.unpack(raw)
    if size > _MAX_HEADER:
        raise corrupt(path, "corrupt header length", hint)
    head = fh.read(size)
    if len(head) < size:
        raise corrupt(path, "truncated header", hint)
    if _depth(head) > _MAX_DEPTH:
        raise corrupt(path, "corrupt header (JSON nested too deep)", hint)
    try:
        fields = json.loads(head.decode("utf-8"))
    except (ValueError, RecursionError):
        raise corrupt(path, "corrupt header (not JSON)", hint) from None
    offset = len(MAGIC) + _LEN.size + size
    return Header(path, check_header(fields, path, size_on_disk, offset, hint), offset)


def encode_header(fields: dict) -> bytes:
    """The magic, length and header bytes that start a file."""
    try:
        head = json.dumps(fields, ensure_ascii=False, sort_keys=True).encode("utf-8")
    except UnicodeEncodeError:  # a source path that is not UTF-8: its escapes are JSON's
        head = json.dumps(fields, sort_keys=True).encode("ascii")
    return MAGIC + _LEN.pack(len(head)) + head
