"""Crafted .puz files: any bytes, every truncation, flipped bytes under each checksum, huge
dimensions, scrambled solutions, bad encodings and bad sections are read to a puzzle or
refused in one PuzzleError line, never a traceback; the CLI prints that line, exit 2."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from puzzle_cases import puzzles

from cryptocomp.cli import main
from cryptocomp.crossword.grid import Grid
from cryptocomp.crossword.puz import HEADER, Header, checksum, parse_puz, to_puz
from cryptocomp.crossword.puzzle import Puzzle, PuzzleError, puzzle_of

SCALE = max(1, settings.default.max_examples // 100)
FUZZ = settings(max_examples=60 * SCALE, suppress_health_check=[HealthCheck.too_slow])
SMALL = puzzle_of(Grid.from_rows(["c..", ".#.", "..."]), ["cat", "bun", "cob", "ten"],
                  clues={"cat": "Feline"}, circles=[(0, 2)], title="Tiny")
SMALL_REBUS = Puzzle(SMALL.grid, {**SMALL.solution, (2, 2): "nx"}, SMALL.clues, SMALL.circles,
                     "Tiny")


def _refused(data: bytes) -> str:
    """The one line parse_puz refuses ``data`` with (it must refuse it)."""
    with pytest.raises(PuzzleError) as info:
        parse_puz(data, source="x.puz")
    line = str(info.value)
    assert "\n" not in line and line.startswith("x.puz: ")
    return line


def _read_or_refused(data: bytes) -> Puzzle | None:
    try:
        return parse_puz(data, source="x.puz")
    except PuzzleError as exc:
        assert "\n" not in str(exc)
        return None


def _resum(data: bytearray) -> bytes:
    """``data`` with its CIB, overall and masked checksums made right again (a file whose
    checksums hold, so that the check after them is the one tried)."""
    head = Header(*HEADER.unpack_from(data))
    w, h, n = head.width, head.height, head.clues
    cib = checksum(bytes(data[0x2C:0x34]))
    struct.pack_into("<H", data, 0x0E, cib)
    body = bytes(data[HEADER.size:])
    if len(body) < 2 * w * h or body[2 * w * h:].count(b"\0") < 4 + n:
        return bytes(data)  # too short for the rest: the CIB is the checksum tried
    sol, state = body[:w * h], body[w * h:2 * w * h]
    rest = body[2 * w * h:].split(b"\0")
    strings, clues, notes = rest[:3], rest[3:3 + n], rest[3 + n]
    text = 0
    for s in strings:
        text = checksum(s + b"\0", text) if s else text
    for c in clues:
        text = checksum(c, text)
    text = checksum(notes + b"\0", text) if notes else text
    overall = cib
    overall = checksum(state, checksum(sol, overall))
    for s in strings:
        overall = checksum(s + b"\0", overall) if s else overall
    for c in clues:
        overall = checksum(c, overall)
    overall = checksum(notes + b"\0", overall) if notes else overall
    parts = (cib, checksum(sol), checksum(state), text)
    low = bytes(m ^ (p & 0xFF) for m, p in zip(b"ICHE", parts))
    high = bytes(m ^ (p >> 8) for m, p in zip(b"ATED", parts))
    struct.pack_into("<H", data, 0, overall)
    data[0x10:0x18] = low + high
    return bytes(data)


@FUZZ
@given(st.binary(max_size=600))
def test_any_bytes_are_read_or_refused_in_one_line(data):
    _read_or_refused(data)
    _read_or_refused(b"\0\0ACROSS&DOWN\0" + data)  # past the magic, into the header


def test_every_truncation_is_refused():
    data = to_puz(SMALL_REBUS)
    text_end = data.index(b"GRBS")
    for n in range(text_end - 1):  # at text_end - 1 only the empty notes' NUL is missing
        line = _refused(data[:n])
        assert "truncated" in line or "magic" in line or "checksum" in line, line
    for n in range(text_end + 1, len(data)):  # into the sections: a partial one is no section
        _read_or_refused(data[:n])


@FUZZ
@given(st.data())
def test_a_flipped_byte_under_a_checksum_is_refused(data):
    raw = to_puz(SMALL_REBUS)
    # every byte but the header's unused reserved ones and the sections' codes and lengths
    covered = [i for i in range(len(raw)) if not 0x18 <= i < 0x2C]
    i = data.draw(st.sampled_from(covered))
    flipped = bytearray(raw)
    flipped[i] ^= data.draw(st.integers(1, 255))
    result = _read_or_refused(bytes(flipped))
    if result is not None:  # only a section's code or length can change without a checksum
        assert i >= raw.index(b"GRBS"), f"byte {i} changed unnoticed"


@settings(max_examples=30)
@given(puzzles(max_side=6))
def test_written_puzzles_fail_no_checksum(p):
    data = to_puz(p)
    assert parse_puz(data) == p
    assert _resum(bytearray(data)) == data  # the oracle of the tests below recomputes right


def test_huge_dimensions_are_refused_before_any_cell_is_read():
    data = bytearray(to_puz(SMALL))
    data[0x2C:0x2E] = b"\xff\xff"
    line = _refused(_resum(data))
    assert "truncated .puz: the solution grid needs 65025 bytes" in line


def test_header_fields_are_checked():
    def with_header(offset, value):
        data = bytearray(to_puz(SMALL))
        data[offset:offset + len(value)] = value
        return _resum(data)

    assert "unknown .puz version" in _refused(with_header(0x18, b"9.0\0"))
    assert "bad grid size 0x3" in _refused(with_header(0x2C, b"\0"))
    assert "scrambled" in _refused(with_header(0x32, b"\x04\0"))
    assert "header's 3 clues for the grid's 4 slots" in _refused(with_header(0x2E, b"\x03\0"))
    assert "no ACROSS&DOWN magic" in _refused(b"ACROSS&DOWN\0" + bytes(60))
    no_cib = bytearray(to_puz(SMALL))
    no_cib[0x0E:0x10] = b"\0\0"
    assert "bad CIB checksum 0x0000" in _refused(bytes(no_cib))


def test_bad_encodings_are_refused():
    # version 2.0 text is UTF-8: a lone continuation byte in the title is no text
    p = Puzzle(SMALL.grid, SMALL.solution, {"1-across": "кот"}, title="Tiny")
    data = bytearray(to_puz(p))
    assert data[0x18:0x1C] == b"2.0\0"
    at = data.index(b"Tiny")
    data[at] = 0x80
    assert "the title is not utf-8 text (byte 0x80)" in _refused(_resum(data))
    # a 2.0 grid is ASCII
    data = bytearray(to_puz(p))
    data[HEADER.size] = 0xE9
    assert "the solution grid is not ascii text" in _refused(_resum(data))
    # a given letter must be a letter
    data = bytearray(to_puz(SMALL))
    data[HEADER.size + 9] = ord("7")
    assert "is not a single letter" in _refused(_resum(data))


def test_bad_sections_are_refused():
    data = to_puz(SMALL_REBUS)
    at = data.index(b"RTBL") + 8
    bad = bytearray(data)
    bad[at + 1] = ord("x")  # " 0:NX;" -> " x:NX;", checksum made right
    body = bytes(bad[at:bad.index(b"\0", at)])
    struct.pack_into("<H", bad, at - 2, checksum(body))
    assert "bad rebus table entry" in _refused(bytes(bad))
    gext = data.index(b"GEXT")
    bad = bytearray(data)
    bad[gext + 8] ^= 0x80
    assert "bad checksum of section b'GEXT'" in _refused(bytes(bad))
    no_table = data[:data.index(b"RTBL")]
    assert "has key 0, which the rebus table lacks" in _refused(no_table)


def test_cli_prints_one_line_and_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.puz"
    bad.write_bytes(to_puz(SMALL)[:70])
    assert main(["fill", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "truncated .puz" in err and "Traceback" not in err
    proc = subprocess.run([sys.executable, "-m", "cryptocomp", "fill", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("cryptocomp: error: ") and "bad.puz" in proc.stderr


@settings(max_examples=25 * SCALE, suppress_health_check=[HealthCheck.too_slow,
                                                          HealthCheck.function_scoped_fixture])
@given(st.data())
def test_fill_reads_crafted_puzzle_files_and_writes_them_or_says_why(tmp_path, data):
    """The CLI on mutated .puz and .jpz grids, writing .puz/.jpz: exit 0-3, never a traceback,
    a failure in one line."""
    from cryptocomp.crossword.jpz import to_jpz

    words = tmp_path / "w.txt"
    words.write_text("cat 9\ncob 8\nten 7\nbun 6\nда 5\nаа 4\n", encoding="utf-8")
    suffix = data.draw(st.sampled_from([".puz", ".jpz"]))
    raw = bytearray(to_puz(SMALL) if suffix == ".puz" else to_jpz(SMALL))
    for _ in range(data.draw(st.integers(0, 3))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    grid = tmp_path / f"g{suffix}"
    grid.write_bytes(bytes(raw))
    argv = ["fill", str(grid), "--dict", str(words), "--steps", "300"]
    argv += data.draw(st.sampled_from([[], ["--puz", str(tmp_path / "o.puz")],
                                       ["--jpz", str(tmp_path / "o.jpz")],
                                       ["--puz", str(tmp_path / "no" / "o.puz")]]))
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    assert status in (0, 1, 2, 3)
    lines = err.getvalue().splitlines()
    assert all(line.startswith("cryptocomp") for line in lines), lines
    assert "Traceback" not in err.getvalue()
    if status == 2:
        assert sum(line.startswith("cryptocomp: error:") for line in lines) == 1
