"""Index files: round trip, staleness, corruption, the refused pickle, atomic and concurrent
writes."""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import multiprocessing
import os
import pickle
import struct
import subprocess
import sys
import time

import pytest

from cryptocomp import load_index
from cryptocomp.errors import DictionaryError, IndexFileError
from cryptocomp.files import write_atomic
from cryptocomp.index.store import (
    FORMAT,
    MAGIC,
    build_index,
    list_indexes,
    read_header,
    read_index,
    resolve_source,
    save_index,
)

WORDS = "money 50\nhoney 20\nmommy 5\nsend 40\nmore 30\nбарабан 3\n"


@pytest.fixture
def dict_file(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text(WORDS, encoding="utf-8")
    return path


def test_round_trip(dict_file):
    built, path = build_index(str(dict_file))
    assert path.exists() and path.parent.name == "indexes"
    loaded = load_index(str(dict_file))
    loaded._check()
    assert loaded.words == built.words == ["money", "send", "more", "honey", "mommy", "барабан"]
    assert list(loaded.counts) == [50, 40, 30, 20, 5, 3]
    assert loaded.match("?oney").words() == ["money", "honey"]
    header = read_header(path)
    assert header["format"] == FORMAT and header["words"] == 6
    assert header["source_sha256"] == hashlib.sha256(dict_file.read_bytes()).hexdigest()
    assert header["params"] == {"lang": None, "fold_yo": False}


def test_stale_source_is_rebuilt_with_a_message(dict_file, caplog):
    load_index(str(dict_file))
    dict_file.write_text(WORDS + "fresh 100\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="cryptocomp"):
        idx = load_index(str(dict_file))
    assert idx.words[0] == "fresh"
    assert any("changed" in r.getMessage() and "rebuilding" in r.getMessage()
               for r in caplog.records)
    assert read_index(resolve_source(str(dict_file)).index_path).words[0] == "fresh"


def _rewrite_header(path, **changes):
    data = path.read_bytes()
    size = struct.unpack(">I", data[len(MAGIC):len(MAGIC) + 4])[0]
    start = len(MAGIC) + 4
    header = json.loads(data[start:start + size])
    header.update(changes)
    head = json.dumps(header).encode()
    path.write_bytes(MAGIC + struct.pack(">I", len(head)) + head + data[start + size:])


def _format1_file(path, src_path):
    """An index file as cryptocomp 0.1 wrote it (format 1: one pickle, one checksum)."""
    payload = pickle.dumps({"state_version": 1}, protocol=5)
    header = {"format": 1, "name": path.stem, "source": str(src_path),
              "source_sha256": hashlib.sha256(src_path.read_bytes()).hexdigest(), "words": 6,
              "params": {"lang": None, "fold_yo": False}, "state_version": 1,
              "created": "2026-01-01T00:00:00+00:00", "cryptocomp": "0.1.0",
              "payload_length": len(payload)}
    head = json.dumps(header).encode()
    path.write_bytes(MAGIC + struct.pack(">I", len(head)) + head + payload
                     + hashlib.sha256(payload).digest())


def test_older_format_is_rebuilt(dict_file, caplog):
    path = resolve_source(str(dict_file)).index_path
    _format1_file(path, dict_file)
    with pytest.raises(IndexFileError, match=r"index format 1 .* is not 2 .*rebuild it with"):
        read_index(path)
    with caplog.at_level(logging.WARNING, logger="cryptocomp"):
        assert len(load_index(str(dict_file))) == 6
    assert any("index format 1" in r.getMessage() and "rebuilding" in r.getMessage()
               for r in caplog.records)
    assert read_header(path)["format"] == FORMAT == 2


@pytest.mark.parametrize("damage,message", [
    (lambda b: b[:len(b) // 2], "truncated"),
    (lambda b: b[:10], "truncated header|bad magic"),
    (lambda b: b"XX" + b[2:], "bad magic"),
    (lambda b: b[:-40] + bytes([b[-40] ^ 1]) + b[-39:], "checksum mismatch"),
    (lambda b: b + b"junk", "trailing bytes"),
    (lambda b: b"", "bad magic"),
])
def test_corrupt_file_is_a_clear_error(dict_file, damage, message):
    load_index(str(dict_file))
    path = resolve_source(str(dict_file)).index_path
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(IndexFileError, match=message) as err:
        load_index(str(dict_file)).load_all()  # a damaged section is found when it is read
    text = str(err.value)
    assert str(path) in text and "cryptocomp index build" in text and "\n" not in text


def _write_sections(path, header, sections):
    """An index file with a valid header (offsets, checksums) around any sections' bytes."""
    table, offset = {}, 0
    for key, data in sections.items():
        table[key] = [offset, len(data), hashlib.sha256(data).hexdigest()]
        offset += len(data)
    header = dict(header, sections=table, payload_length=offset)
    head = json.dumps(header).encode()
    path.write_bytes(MAGIC + struct.pack(">I", len(head)) + head + b"".join(sections.values()))


def _pickled(index):
    return {k: pickle.dumps(v, protocol=5) for k, v in index.sections().items()}


class _Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned > /tmp/cryptocomp-pwned",))


@pytest.mark.parametrize("section", ["meta", "counts", "at"])
def test_malicious_pickle_is_refused(dict_file, section):
    """A file with a valid header and checksums whose section imports os.system is refused."""
    idx, path = build_index(str(dict_file))
    sections = _pickled(idx)
    sections[section] = pickle.dumps({"state_version": 2, "x": _Evil()}, protocol=5)
    _write_sections(path, read_header(path).fields, sections)
    marker = "/tmp/cryptocomp-pwned"
    if os.path.exists(marker):
        os.unlink(marker)
    with pytest.raises(IndexFileError, match=r"forbidden global (posix|os)\.system"):
        load_index(str(dict_file)).load_all()
    assert not os.path.exists(marker)


def test_payload_of_wrong_shape_is_refused(dict_file):
    idx, path = build_index(str(dict_file))
    sections = _pickled(idx)
    sections["meta"] = pickle.dumps(["not", "a", "state"], protocol=5)
    _write_sections(path, read_header(path).fields, sections)
    with pytest.raises(IndexFileError, match="refused payload"):
        read_index(path)


def test_crash_during_write_leaves_old_file(tmp_path, monkeypatch):
    (tmp_path / "w").mkdir()
    target = tmp_path / "w" / "out.bin"
    target.write_bytes(b"old")

    def crash(src, dst):
        raise KeyboardInterrupt  # as if the process died between write and rename

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new" * 1000)
    assert target.read_bytes() == b"old"
    assert [p.name for p in target.parent.iterdir()] == ["out.bin"]


def test_unwritable_directory_keeps_index_in_memory(dict_file, tmp_path, monkeypatch, caplog):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where a directory should be")
    monkeypatch.setenv("CRYPTOCOMP_HOME", str(blocked))
    with caplog.at_level(logging.WARNING, logger="cryptocomp"):
        idx = load_index(str(dict_file))
    assert len(idx) == 6
    assert any("cannot write" in r.getMessage() and "memory only" in r.getMessage()
               for r in caplog.records)
    with pytest.raises(IndexFileError, match="cannot write"):
        write_atomic(blocked / "x" / "y.bin", b"data", create_dirs=True)


def _build_in_child(args):
    home, path = args
    os.environ["CRYPTOCOMP_HOME"] = home
    idx, out = build_index(path)
    return str(out), len(idx)


def test_concurrent_builds_both_end_with_a_valid_file(dict_file, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("".join(f"w{i:05d}x {i % 97} \n".replace(" \n", "\n") for i in range(20000)),
                   encoding="utf-8")
    home = os.environ["CRYPTOCOMP_HOME"]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        results = pool.map(_build_in_child, [(home, str(big))] * 4)
    paths = {p for p, _ in results}
    assert len(paths) == 1 and all(n == 20000 for _, n in results)
    idx = read_index(next(iter(paths)))
    assert len(idx) == 20000
    leftovers = [p.name for p in (tmp_path / "cc-home" / "indexes").iterdir()]
    assert leftovers == [os.path.basename(next(iter(paths)))]


def test_list_indexes_reports_good_and_bad(dict_file):
    build_index(str(dict_file))
    bad = resolve_source(str(dict_file)).index_path.with_name("broken.ccidx")
    bad.write_bytes(b"nonsense")
    found = {p.name: h for p, h in list_indexes()}
    assert isinstance(found["broken.ccidx"], IndexFileError)
    good = [h for h in found.values() if not isinstance(h, Exception)]
    assert good and good[0]["words"] == 6


def test_resolve_source_errors(tmp_path):
    with pytest.raises(DictionaryError, match="unknown language 'qq'"):
        resolve_source("qq")
    with pytest.raises(DictionaryError, match="no such dictionary file"):
        resolve_source(str(tmp_path / "missing.txt"))
    assert resolve_source("ru", fold_yo=True).name == "ru+yo"


def test_save_then_read_header_only(dict_file, tmp_path):
    idx, _ = build_index(str(dict_file), save=False)
    out = tmp_path / "x.ccidx"
    header = save_index(idx, out, source="s", source_sha256="0" * 64)
    assert read_header(out).fields == header
    assert read_index(out).words == idx.words


def test_bitmap_ids_past_the_word_list_are_refused(dict_file):
    from pyroaring import FrozenBitMap

    idx, path = build_index(str(dict_file))
    state = idx.sections()
    family = state["at"]
    i = family["keys"].index((0, "m"))
    blobs, start = [], 0
    ends = list(memoryview(family["ends"]).cast("Q"))
    for j, end in enumerate(ends):
        blob = family["blob"][start:end]
        if j == i:  # the same cardinality, an id past the six words
            ids = list(FrozenBitMap.deserialize(blob))
            blob = FrozenBitMap(ids[:-1] + [999]).serialize()
        blobs.append(blob)
        start = end
    family["blob"] = b"".join(blobs)
    family["ends"] = struct.pack(f"<{len(ends)}Q", *itertools.accumulate(map(len, blobs)))
    _write_sections(path, read_header(path).fields,
                    {k: pickle.dumps(v, protocol=5) for k, v in state.items()})
    with pytest.raises(IndexFileError, match="id past the word list") as err:
        read_index(path).at(0, "m")
    assert str(path) in str(err.value) and "cryptocomp index build" in str(err.value)


def test_user_paths_are_not_created(tmp_path):
    with pytest.raises(IndexFileError, match="cannot write"):
        write_atomic(tmp_path / "typo" / "out.csv", b"x")
    assert not (tmp_path / "typo").exists()
    write_atomic(tmp_path / "made" / "out.bin", b"x", create_dirs=True)
    assert (tmp_path / "made" / "out.bin").read_bytes() == b"x"


def _small_wordfreq(lang):
    """A stand-in for wordfreq's export (the real one takes seconds)."""
    return b"money 50\nhoney 20\nsend 40\n", {"money": 50, "honey": 20, "send": 40}


def test_unwritable_home_keeps_the_exported_dictionary_in_memory(tmp_path, monkeypatch, caplog):
    """An installed package (no writable checkout), no CRYPTOCOMP_HOME, a HOME that cannot be
    written: the dictionary and its index stay in memory, with one warning (issue 12, 8)."""
    from cryptocomp.index import store

    blocked = tmp_path / "home-is-a-file"
    blocked.write_text("")
    monkeypatch.delenv("CRYPTOCOMP_HOME")
    monkeypatch.setenv("HOME", str(blocked))
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked / ".cache"))
    real_access = os.access
    monkeypatch.setattr(store.os, "access", lambda p, mode: False if str(p).endswith("indexes")
                        else real_access(p, mode))
    monkeypatch.setattr(store, "wordfreq_text", _small_wordfreq)
    assert str(store.data_home()).startswith(str(blocked))
    with caplog.at_level(logging.WARNING, logger="cryptocomp"):
        idx = load_index("en")
        again = load_index("en")
    assert idx.words == again.words == ["money", "send", "honey"]
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 2  # one per load, one line each
    assert all("memory only" in w and "\n" not in w for w in warnings)
    assert blocked.is_file()  # nothing was created under it


def test_unwritable_home_through_the_cli(tmp_path, monkeypatch, capsys):
    from cryptocomp.cli import main
    from cryptocomp.index import store

    blocked = tmp_path / "blocked"
    blocked.write_text("")
    monkeypatch.setenv("CRYPTOCOMP_HOME", str(blocked / "home"))
    monkeypatch.setattr(store, "wordfreq_text", _small_wordfreq)
    assert main(["words", "*ey", "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    assert out.split() == ["money", "50", "honey", "20"]
    assert len(err.strip().splitlines()) == 2  # exporting..., then the one warning
    assert "memory only" in err and "Traceback" not in err


def _dead_pid() -> int:
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    return int(child.stdout)


def test_stale_temporaries_of_dead_writers_are_removed_by_the_next_build(dict_file):
    from cryptocomp.files import STALE_AGE
    from cryptocomp.index.store import index_dir, temporaries

    directory = index_dir()
    dead = directory / f".small.ccidx.{_dead_pid()}.abcd1234.tmp"
    live = directory / f".small.ccidx.{os.getpid()}.efgh5678.tmp"
    old_legacy = directory / ".small.ccidx.q1w2e3r4.tmp"  # cryptocomp 0.1: no pid
    new_legacy = directory / ".small.ccidx.t5y6u7i8.tmp"
    for p in (dead, live, old_legacy, new_legacy):
        p.write_bytes(b"x" * 1000)
    long_ago = time.time() - STALE_AGE - 60
    os.utime(old_legacy, (long_ago, long_ago))
    assert sorted(p.name for p, _ in temporaries()) == sorted([dead.name, old_legacy.name])
    build_index(str(dict_file))
    assert not dead.exists() and not old_legacy.exists()
    assert live.exists() and new_legacy.exists()  # a running writer's file is never taken
    assert temporaries() == []


def _crash_while_saving(home, src):
    """Build and save an index, dying (like a kill -9) between the write and the rename."""
    os.environ["CRYPTOCOMP_HOME"] = home
    os.replace = lambda a, b: os._exit(3)
    build_index(src)


def test_a_writer_killed_mid_write_leaves_a_temporary_that_the_next_build_removes(dict_file):
    from cryptocomp.index.store import index_dir, temporaries

    _, path = build_index(str(dict_file))
    ctx = multiprocessing.get_context("spawn")
    child = ctx.Process(target=_crash_while_saving,
                        args=(os.environ["CRYPTOCOMP_HOME"], str(dict_file)))
    child.start()
    child.join(60)
    assert child.exitcode == 3
    left = [p for p in index_dir().iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1 and f".{child.pid}." in left[0].name
    assert [p for p, _ in temporaries()] == left
    done = subprocess.run([sys.executable, "-m", "cryptocomp", "index", "info", path.stem],
                          capture_output=True, text=True)
    assert done.returncode == 0 and left[0].name in done.stdout  # shown to the user
    assert read_index(path).words[0] == "money"  # the old file is whole
    build_index(str(dict_file))
    assert [p.name for p in index_dir().iterdir() if p.name.endswith(".tmp")] == []
