"""Class files (:mod:`cryptocomp.index.classfile`) fuzzed: any bytes read to classes or one
DictionaryError line, never a traceback; every bad line is named with its line number and
counted, and nothing else is lost (a plain re-reading of the good lines is the oracle)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.errors import DictionaryError
from cryptocomp.index.alphabet import ALPHABETS, normalize
from cryptocomp.index.classes import SOURCE_CLASSES
from cryptocomp.index.classfile import CLASSFILE_HEADER, parse_classes, read_class_file

SOURCES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EN = ALPHABETS["en"]
words = st.text(alphabet=EN, min_size=1, max_size=12)
class_lists = st.lists(st.sampled_from(SOURCE_CLASSES), min_size=1, max_size=4, unique=True)


@given(st.binary(max_size=400))
def test_any_bytes_read_or_refuse_in_one_line(data):
    try:
        out = parse_classes(data, "fuzz.tsv")
    except DictionaryError as exc:
        assert "\n" not in str(exc) and "version" in str(exc)
        return
    lines = data.split(b"\n")
    assert out.skipped <= len(lines)
    assert len(out.classes) <= len(lines)
    for problem in out.problems:
        assert problem.startswith("fuzz.tsv: line ") and "\n" not in problem


@given(st.lists(st.text(max_size=30), max_size=20))
def test_any_text_lines_read_or_refuse_in_one_line(lines):
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    try:
        out = parse_classes(data, "fuzz.tsv", alphabet=EN)
    except DictionaryError as exc:
        assert "\n" not in str(exc)
        return
    for word, names in out.classes.items():
        assert word and set(word) <= set(EN)
        assert names <= set(SOURCE_CLASSES)


@given(st.dictionaries(words, st.tuples(class_lists, st.none() | words), max_size=30),
       st.booleans(), st.booleans())
def test_written_classes_read_back(entries, header, compressed):
    """Round trip, the oracle being the entries written."""
    lines = [CLASSFILE_HEADER] if header else []
    for word, (names, lemma) in entries.items():
        lines.append(f"{word}\t{','.join(names)}" + (f"\t{lemma}" if lemma else ""))
    data = ("\n".join(lines) + "\n").encode()
    out = parse_classes(gzip.decompress(gzip.compress(data)) if compressed else data, "x",
                        alphabet=EN)
    assert out.skipped == 0
    assert out.classes == {w: frozenset(n) for w, (n, _) in entries.items()}
    assert out.lemmas == {w: lemma for w, (_, lemma) in entries.items() if lemma}


BAD_LINES = ["\tdictionary", "word", "word\tnoclass", "wörd\tname", "word\t", "a b\tname",
             "word\tname\tlem ma\textra", "word\tname\tl3mma"]


@given(st.lists(st.one_of(st.tuples(words, class_lists).map(lambda t: (True, t)),
                          st.sampled_from(BAD_LINES).map(lambda b: (False, b))), max_size=40))
def test_bad_lines_are_named_counted_and_nothing_else_lost(rows):
    lines, expected, bad_numbers = [], {}, []
    for number, (good, row) in enumerate(rows, 1):
        if good:
            word, names = row
            lines.append(f"{word}\t{','.join(names)}")
            expected[word] = expected.get(word, frozenset()) | frozenset(names)
        else:
            lines.append(row)
            bad_numbers.append(number)
    out = parse_classes("\n".join(lines).encode(), "mixed.tsv", alphabet=EN)
    assert out.skipped == len(bad_numbers)
    assert out.classes == expected
    for problem, number in zip(out.problems, bad_numbers):
        assert problem.startswith(f"mixed.tsv: line {number}: ")


@given(st.text(min_size=1, max_size=8))
def test_an_accepted_word_is_in_the_index_spelling(text):
    """The fast path for plain words against the general one: normalize's spelling."""
    out = parse_classes(f"{text}\tname\n".encode("utf-8", "surrogatepass"), "w")
    for word in out.classes:
        assert word == normalize(text.strip())


def test_unknown_alone_clears_and_other_versions_are_refused(tmp_path):
    out = parse_classes(b"kt\tunknown\nkt\tname\nx\tunknown,name\n", "u", alphabet=EN)
    assert out.classes == {"kt": frozenset({"name"})} and out.skipped == 1
    path = tmp_path / "v2.tsv"
    path.write_bytes(b"# cryptocomp classes 2\nkt\tname\n")
    try:
        read_class_file(path)
    except DictionaryError as exc:
        assert "version '2' is not 1" in str(exc)
    else:
        raise AssertionError("version 2 was read")


@settings(max_examples=4, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(min_size=1, max_size=200))  # a process each: a few examples
def test_index_build_with_any_class_file_never_tracebacks(tmp_path_factory, data):
    if data[:1] == b"-":
        data = b" " + data
    folder = tmp_path_factory.mktemp("cf")
    words = folder / "w.txt"
    words.write_text("money 5\nhoney 3\n", encoding="utf-8")
    classes = folder / "c.tsv"
    classes.write_bytes(data)
    env = dict(os.environ, CRYPTOCOMP_HOME=str(folder / "home"), PYTHONPATH=SOURCES)
    done = subprocess.run([sys.executable, "-m", "cryptocomp", "index", "build", str(words),
                           "--classes", str(classes)], capture_output=True, text=True, env=env,
                          timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1, 2), done.stderr

