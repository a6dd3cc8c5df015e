"""Crafted .jpz files: any bytes, XML bombs (billion laughs, quadratic blow-up), external
entities (files, URLs, parameter entities), huge dimensions, bad numbers and bad structure are
read to a puzzle or refused in one PuzzleError line, never a traceback and never with an
entity expanded or fetched; the CLI prints that line, exit 2."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.cli import main
from cryptocomp.crossword.grid import Grid
from cryptocomp.crossword.jpz import parse_jpz, to_jpz
from cryptocomp.crossword.puzzle import Puzzle, PuzzleError, puzzle_of

SCALE = max(1, settings.default.max_examples // 100)
FUZZ = settings(max_examples=60 * SCALE, suppress_health_check=[HealthCheck.too_slow])
SMALL = to_jpz(puzzle_of(Grid.from_rows(["c..", ".#.", "..."]), ["cat", "bun", "cob", "ten"],
                         clues={"cat": "Feline"}, circles=[(0, 2)], title="Tiny"))
PUZZLE = b'<rectangular-puzzle><crossword><grid width="2" height="2">%s</grid></crossword>' \
    b'</rectangular-puzzle>'


def _refused(data: bytes) -> str:
    """The one line parse_jpz refuses ``data`` with (it must refuse it)."""
    with pytest.raises(PuzzleError) as info:
        parse_jpz(data, source="x.jpz")
    line = str(info.value)
    assert "\n" not in line and line.startswith("x.jpz: ")
    return line


def _read_or_refused(data: bytes) -> Puzzle | None:
    try:
        return parse_jpz(data, source="x.jpz")
    except PuzzleError as exc:
        assert "\n" not in str(exc)
        return None


@FUZZ
@given(st.binary(max_size=400))
def test_any_bytes_are_read_or_refused_in_one_line(data):
    _read_or_refused(data)
    _read_or_refused(SMALL[:200] + data)


@FUZZ
@given(st.data())
def test_mutated_files_are_read_or_refused_in_one_line(data):
    raw = bytearray(SMALL)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.sampled_from(b'<>/"=&;#x- 09abAB\xff\x00'))
    _read_or_refused(bytes(raw))


def test_every_truncation_is_refused():
    end = SMALL.rindex(b"</crossword-compiler-applet>")
    for n in range(0, end, 7):
        _refused(SMALL[:n])


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rectangular-puzzle><metadata><title>&lol9;</title></metadata></rectangular-puzzle>
"""


@pytest.mark.parametrize("doc", [
    BILLION_LAUGHS,
    # quadratic blow-up: one big entity used many times
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "' + b"a" * 50_000 + b'">]><x>'
    + b"&a;" * 50_000 + b"</x>",
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "http://example.com/x">]><x>&e;</x>',
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><x/>',
    b'<?xml version="1.0"?><!DOCTYPE x SYSTEM "http://example.com/x.dtd"><x/>',
    b'<?xml version="1.0"?><!DOCTYPE x PUBLIC "-//A//B" "file:///etc/passwd"><x/>',
], ids=["billion-laughs", "quadratic", "file-entity", "url-entity", "parameter-entity",
        "external-dtd", "public-dtd"])
def test_dtds_are_refused_before_anything_is_expanded_or_fetched(doc):
    start = time.monotonic()
    assert "DTDs are refused" in _refused(doc)
    assert time.monotonic() - start < 1


@pytest.mark.parametrize("cells, needle", [
    (b'<cell x="1" y="1"/>', "no slot"),
    (b'<cell x="3" y="1"/>', "outside the 2x2 grid"),
    (b'<cell x="1" y="1"/><cell x="1" y="1"/>', "given twice"),
    (b'<cell x="0" y="1"/>', "bad cell x"),
    (b'<cell x="a" y="1"/>', "bad cell x"),
    (b'<cell x="1-2" y="1"/>', "outside"),
    (b'<cell x="99999999999999999999" y="1"/>', "bad cell x"),
    (b'<cell x="1" y="1" solve-state="7"/><cell x="2" y="1"/>', "is not a single letter"),
    (b'<cell x="1" y="1">&foo;</cell>', "undefined entity"),
])
def test_bad_cells_are_refused(cells, needle):
    assert needle in _refused(PUZZLE % cells)


@pytest.mark.parametrize("doc, needle", [
    (b'<rectangular-puzzle><crossword><grid width="99999999" height="2"/></crossword>'
     b'</rectangular-puzzle>', "is no whole number"),
    (b'<rectangular-puzzle><crossword><grid width="1001" height="2"/></crossword>'
     b'</rectangular-puzzle>', "bad grid size 1001x2"),
    (b'<rectangular-puzzle><crossword><grid width="-1" height="2"/></crossword>'
     b'</rectangular-puzzle>', "is no whole number"),
    (b'<rectangular-puzzle><crossword/></rectangular-puzzle>', "no <grid>"),
    (b'<html/>', "no <rectangular-puzzle>"),
    (b"PK\x03\x04zipped", "zipped .jpz"),
    (b'<?xml version="1.0" encoding="utf-8"?><x>\xff</x>', "not well-formed"),
    (b'<?xml version="1.0" encoding="klingon"?><x/>', "unknown encoding"),
    (SMALL.replace(b'clue word="1"', b'clue word="77"'), "names word '77'"),
])
def test_bad_documents_are_refused(doc, needle):
    assert needle in _refused(doc)


def test_deep_nesting_is_refused_or_read_without_recursion():
    deep = b"<a>" * 100_000 + b"</a>" * 100_000
    assert "no <rectangular-puzzle>" in _refused(deep)


def test_cli_prints_one_line_and_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.jpz"
    bad.write_bytes(BILLION_LAUGHS)
    assert main(["fill", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DTDs are refused" in err
    proc = subprocess.run([sys.executable, "-m", "cryptocomp", "fill", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("cryptocomp: error: ") and "bad.jpz" in proc.stderr
