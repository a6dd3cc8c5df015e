"""Crafted, truncated and damaged index files: one clear error line, never a traceback.

Each crafted file of issue 12 (item 6) has a regression test; the hypothesis tests then
fuzz the whole format: truncation anywhere, a flipped bit anywhere, header fields replaced
by random JSON, sections replaced by random pickles of builtins (valid checksums).  Every
case must either load and answer queries or raise one :class:`IndexFileError` line that
names the file and the rebuild command.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import struct
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.errors import IndexFileError
from cryptocomp.index import build_index, load_index
from cryptocomp.index.store import MAGIC, list_indexes, read_header, read_index

WORDS = "money 50\nhoney 20\nmommy 5\nsend 40\nmore 30\nбарабан 3\nёж 2\n"


@pytest.fixture
def index_file(tmp_path):
    """(dictionary file, index file, header fields, pickled sections) of a small index."""
    src = tmp_path / "small.txt"
    src.write_text(WORDS, encoding="utf-8")
    index, path = build_index(str(src))
    sections = {k: pickle.dumps(v, protocol=5) for k, v in index.sections().items()}
    return src, path, read_header(path).fields, sections


def _write(path, header, sections=None, *, fix_table=True):
    """Write an index file: ``header`` as given; with ``fix_table`` its section table and
    payload length made to match ``sections`` (valid offsets and checksums)."""
    sections = sections or {}
    if fix_table and not isinstance(header, bytes):
        table, offset = {}, 0
        for key, data in sections.items():
            table[key] = [offset, len(data), hashlib.sha256(data).hexdigest()]
            offset += len(data)
        header = dict(header, sections=table, payload_length=offset)
    head = header if isinstance(header, bytes) else json.dumps(header).encode()
    path.write_bytes(MAGIC + struct.pack(">I", len(head)) + head + b"".join(sections.values()))


def _use(path):
    """Everything a user can do with an index file: list it, read it whole, query it."""
    list_indexes(path.parent)
    index = read_index(path)
    index.load_all()
    index.match("m?n*").words()
    index.same_pattern("папа").words()
    for n in index.lengths():
        index.encoded(n)
    [index.word(i) for i in range(len(index))]
    return index


def _one_error_line(path, exc):
    text = str(exc)
    assert "\n" not in text and str(path) in text, text
    assert "cryptocomp index build" in text or "no such index file" in text, text


def _refused(path, match):
    with pytest.raises(IndexFileError, match=match) as err:
        _use(path)
    _one_error_line(path, err.value)


# -- the crafted files of issue 12, item 6 --------------------------------------------------

@pytest.mark.parametrize("length", [10**30, 2**40, 2**62, -1, "12", 1.5, True])
def test_payload_length_out_of_range(index_file, length):
    _src, path, header, sections = index_file
    _write(path, dict(header, payload_length=length), sections, fix_table=False)
    _refused(path, "truncated file or corrupt header|payload_length has a wrong type")


def test_section_past_the_end_of_the_file(index_file):
    _src, path, header, sections = index_file
    table = dict(header["sections"])
    start, _length, digest = table["words"]
    table["words"] = [start, 2**62, digest]
    _write(path, dict(header, sections=table), sections, fix_table=False)
    _refused(path, "corrupt header")


def test_header_nested_100k_deep_is_refused_and_listing_survives(index_file):
    _src, path, _header, _sections = index_file
    nested = b'{"format": 2, "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    bad = path.with_name("nested.ccidx")
    _write(bad, nested)
    _refused(bad, "nested too deep")
    listed = {p.name: h for p, h in list_indexes(path.parent)}
    assert isinstance(listed["nested.ccidx"], IndexFileError)
    assert listed[path.name]["words"] == 7  # the good file is still listed
    done = subprocess.run([sys.executable, "-m", "cryptocomp", "index", "list"],
                          capture_output=True, text=True, env=os.environ)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "nested\tERROR" in done.stdout and "small" in done.stdout


@pytest.mark.parametrize("field,value,message", [
    ("source", 5, "source has a wrong type"),
    ("params", [], "params has a wrong type"),
    ("params", {"lang": 5, "fold_yo": False}, "params has a wrong type"),
    ("words", -3, "words has a wrong type"),
    ("name", None, "name has a wrong type"),
    ("source_sha256", "zz", "source_sha256 has a wrong type"),
    ("sections", {"meta": [0, 1, "x"]}, "sections has a wrong type"),
    ("format", "2", "format has a wrong type"),
])
def test_header_field_of_the_wrong_type(index_file, field, value, message):
    src, path, header, sections = index_file
    _write(path, dict(header, **{field: value}), sections, fix_table=field != "sections")
    _refused(path, message)
    with pytest.raises(IndexFileError, match=message) as err:
        load_index(str(src))  # the loader says the same, it does not crash on the field
    _one_error_line(path, err.value)


def test_header_without_state_version(index_file):
    _src, path, header, sections = index_file
    del header["state_version"]
    _write(path, header, sections)
    _refused(path, r"corrupt header \(no state_version\)")


def test_payload_of_the_one_class_format_1_admitted_is_refused(index_file):
    """Format 1 admitted pyroaring.FrozenBitMap; ``FrozenBitMap([-1])`` overflowed. Format 2
    admits no class at all."""
    from pyroaring import FrozenBitMap

    class Crafted:
        def __reduce__(self):
            return (FrozenBitMap, ([-1],))

    _src, path, header, sections = index_file
    sections["having"] = pickle.dumps(Crafted(), protocol=5)
    _write(path, header, sections)
    _refused(path, "forbidden global pyroaring.FrozenBitMap")


@pytest.mark.parametrize("family", ["by_length", "by_pattern", "at", "having", "at_least"])
def test_valid_checksum_with_an_empty_family_is_refused(index_file, family):
    _src, path, header, sections = index_file
    sections[family] = pickle.dumps({"keys": [], "cards": b"", "ends": b"", "blob": b""},
                                    protocol=5)
    _write(path, header, sections)
    if family == "at_least":  # a dictionary may have no repeated letter: empty is valid
        _use(path)
        return
    _refused(path, "do not (match|cover|hold)")


def test_sections_in_other_places_and_sizes(index_file):
    _src, path, header, sections = index_file
    del sections["order"]
    _write(path, header, sections, fix_table=True)
    _refused(path, "sections has a wrong type")  # a required section is missing
    sections_copy = dict(sections, counts=pickle.dumps(b"\0" * 7, protocol=5))
    _write(path, header, dict(sections_copy, order=pickle.dumps([b"", b""], protocol=5)))
    _refused(path, "counts do not match")


def test_counts_out_of_order_are_refused(index_file):
    _src, path, header, sections = index_file
    counts = struct.pack("<7Q", 1, 2, 3, 4, 5, 6, 7)
    sections["counts"] = pickle.dumps(counts, protocol=5)
    _write(path, header, sections)
    _refused(path, "descending")


def test_crafted_file_through_the_cli_is_one_line(index_file):
    src, path, header, sections = index_file
    _write(path, dict(header, params=[]), sections)
    for argv in (["words", "m*", "--dict", str(src)], ["index", "info", str(path)],
                 ["compose", "send+more", "--dict", str(src)]):
        done = subprocess.run([sys.executable, "-m", "cryptocomp", *argv], capture_output=True,
                              text=True, env=os.environ)
        assert done.returncode == 2, (argv, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0] and "Traceback" not in done.stderr


# -- fuzzing ------------------------------------------------------------------------------

FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def _survives(path):
    """The file loads and answers, or fails with one error line; nothing else."""
    try:
        _use(path)
    except IndexFileError as exc:
        _one_error_line(path, exc)


@FUZZ
@given(st.floats(0, 1, exclude_max=True))
def test_truncated_anywhere(index_file, where):
    _src, path, _header, _sections = index_file
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * where)])
    with pytest.raises(IndexFileError) as err:
        _use(path)
    _one_error_line(path, err.value)
    path.write_bytes(data)


@FUZZ
@given(st.integers(0, 10**9), st.integers(0, 7))
def test_bit_flipped_anywhere(index_file, where, bit):
    _src, path, _header, _sections = index_file
    data = bytearray(path.read_bytes())
    data[where % len(data)] ^= 1 << bit
    path.write_bytes(bytes(data))
    _survives(path)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=8)


@FUZZ
@given(st.dictionaries(st.sampled_from(
    ["format", "name", "source", "source_sha256", "source_size", "source_mtime_ns", "words",
     "params", "state_version", "created", "cryptocomp", "payload_length", "sections", "extra"]),
    json_values, min_size=1, max_size=3), st.booleans())
def test_crafted_headers(index_file, changes, fix_table):
    _src, path, header, sections = index_file
    crafted = dict(header, **changes)
    if fix_table and "sections" not in changes and "payload_length" not in changes:
        _write(path, crafted, sections)
    else:
        _write(path, crafted, sections, fix_table=False)
    _survives(path)


builtins_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.binary(max_size=40)
    | st.text(alphabet="mosneyрабё\n", max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.one_of(st.integers(-3, 40), st.text(max_size=4)), inner, max_size=4),
    max_leaves=12)

SECTION_NAMES = ["meta", "counts", "words", "order", "by_length", "by_pattern", "at", "having",
                 "at_least", "codes:4", "codes:5"]


@FUZZ
@given(st.sampled_from(SECTION_NAMES), builtins_values, st.integers(0, 5))
def test_crafted_section_pickles(index_file, name, value, mutate):
    """A section replaced by a random value of builtins, or a real section with one part
    replaced (a valid checksum either way)."""
    _src, path, header, sections = index_file
    real = pickle.loads(sections[name])
    if isinstance(real, dict) and mutate and real:
        key = sorted(real, key=str)[mutate % len(real)]
        real = dict(real, **{key: value}) if isinstance(key, str) else real
        value = real
    _write(path, header, dict(sections, **{name: pickle.dumps(value, protocol=5)}))
    _survives(path)


@FUZZ
@given(st.sampled_from(["by_length", "by_pattern", "at", "having", "at_least"]),
       st.integers(0, 10**6), st.integers(0, 7))
def test_bitmap_blob_bit_flips_with_valid_checksums(index_file, family, where, bit):
    """A damaged bitmap serialisation behind a valid checksum: pyroaring's validation and
    the cardinality and id-range checks refuse it when it is decoded."""
    _src, path, header, sections = index_file
    state = pickle.loads(sections[family])
    if not state["blob"]:
        return
    blob = bytearray(state["blob"])
    blob[where % len(blob)] ^= 1 << bit
    state["blob"] = bytes(blob)
    _write(path, header, dict(sections, **{family: pickle.dumps(state, protocol=5)}))
    _survives(path)
