"""The ``word count`` loader: every rule of the format and every bad-file case."""

from __future__ import annotations

import logging

import pytest

from cryptocomp.errors import DictionaryError
from cryptocomp.index.freqdict import export_wordfreq, load_freqdict, parse_freqdict


def _write(tmp_path, data: bytes, name="d.txt"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_nfc_lowercase_and_merge(tmp_path):
    # "É" decomposed (E + combining acute) and precomposed "é" are one word after NFC
    path = _write(tmp_path, "Cafe\u0301 3\ncafé 2\nHELLO 5\nhello 1\n".encode())
    fd = load_freqdict(path)
    assert fd.counts == {"café": 5, "hello": 6}
    assert fd.report.merged == 2


def test_bom_accepted(tmp_path):
    path = _write(tmp_path, "\ufeffпривет 7\nмир 3\n".encode("utf-8"))
    assert load_freqdict(path).counts == {"привет": 7, "мир": 3}


def test_malformed_lines_skipped_with_one_warning(tmp_path, caplog):
    lines = ["good 5", "nocount", "bad x", "neg -3", "extra 1 2", "", "ok 0", "float 1.5"]
    path = _write(tmp_path, "\n".join(lines).encode())
    with caplog.at_level(logging.WARNING, logger="cryptocomp"):
        fd = load_freqdict(path)
    assert fd.counts == {"good": 5, "ok": 0}
    assert fd.report.malformed == 5
    assert fd.report.malformed_lines == (2, 3, 4, 5, 8)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "5 malformed lines" in warnings[0].getMessage()
    assert "line 2, 3, 4, 5, 8" in warnings[0].getMessage()


def test_many_malformed_lines_named_briefly():
    _counts, report = parse_freqdict(["w 1"] + ["junk 1 1"] * 100)
    assert report.malformed == 100 and len(report.malformed_lines) == 5
    assert report.warning("f").endswith("with a non-negative integer count")
    assert ", ...)" in report.warning("f")


def test_not_utf8_is_one_clear_error(tmp_path):
    path = _write(tmp_path, "привет 1\n".encode("cp1251"))
    with pytest.raises(DictionaryError,
                       match=r"dictionary file is not UTF-8 text: .*d\.txt \(byte 0x"):
        load_freqdict(path)


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(DictionaryError, match=r"dictionary file not found: .*absent.txt"):
        load_freqdict(tmp_path / "absent.txt")
    with pytest.raises(DictionaryError, match="no 'word count' lines"):
        load_freqdict(_write(tmp_path, b"\n\n"))
    with pytest.raises(DictionaryError, match="is a directory"):
        load_freqdict(tmp_path)


def test_plain_word_list(tmp_path):
    fd = load_freqdict(_write(tmp_path, b"aa\nAb\nab\nbad line\n"))
    assert fd.counts == {"aa": 1, "ab": 2}
    assert fd.report.malformed == 1


def test_fold_yo():
    counts, _ = parse_freqdict(["ёлка 3", "елка 2", "всё 1"], fold_yo=True)
    assert counts == {"елка": 5, "все": 1}
    counts, _ = parse_freqdict(["ёлка 3", "елка 2"])
    assert counts == {"ёлка": 3, "елка": 2}


@pytest.mark.slow
@pytest.mark.parametrize("lang,letters", [("ru", set("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")),
                                          ("en", set("abcdefghijklmnopqrstuvwxyz"))])
def test_wordfreq_export_keeps_only_the_alphabet(tmp_path, lang, letters):
    path = tmp_path / f"{lang}.txt"
    n = export_wordfreq(lang, path)
    fd = load_freqdict(path)
    assert len(fd) == n > 200_000
    assert fd.report.malformed == 0
    assert all(set(w) <= letters for w in fd.counts)
    counts = list(fd.counts.values())
    assert counts == sorted(counts, reverse=True)


@pytest.mark.slow
def test_wordfreq_export_other_language(tmp_path):
    from cryptocomp.index.freqdict import wordfreq_text

    path = tmp_path / "fr.txt"
    n = export_wordfreq("fr", path)
    fd = load_freqdict(path)
    assert len(fd) == n and "été" in fd.counts
    data, counts = wordfreq_text("fr")  # what a first use builds from, without re-parsing
    assert data == path.read_bytes() and counts == fd.counts
    assert not any(ch.isdigit() or ch in "'-" for w in fd.counts for ch in w)


def test_unknown_language():
    with pytest.raises(DictionaryError, match="unknown language 'xx'"):
        export_wordfreq("xx", "/nonexistent/xx.txt")


def test_too_large_counts_and_wildcard_words_are_malformed(tmp_path):
    path = _write(tmp_path, f"big {2**63}\nhuge 99999999999999999999999\nok {2**63 - 1}\n"
                            "e.g. 5\nwh? 3\n".encode())
    fd = load_freqdict(path)
    assert fd.counts == {"ok": 2**63 - 1}
    assert fd.report.malformed_lines == (1, 2, 4, 5)


def test_overflowing_merged_count_is_one_clear_error(tmp_path):
    path = _write(tmp_path, f"w {2**63 - 1}\nW 1\n".encode())
    with pytest.raises(DictionaryError, match="summed count of 'w' exceeds"):
        load_freqdict(path)
