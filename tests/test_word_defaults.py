"""The word-class defaults of every command (--words, :words) on a small classified
dictionary: compose, words and rack never print a non-dictionary word by default, fills
never use an unknown one, offensive words only when named, the class column when more
than dictionary words are admitted; every filter against a plain scan of the word list."""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp import Index
from cryptocomp.cli import main
from cryptocomp.crossword import Lexicon, fill
from cryptocomp.crossword.square import square_grid
from cryptocomp.cryptarithm.compose import compose
from cryptocomp.index.classes import CLASS_NAMES, DEFAULTS, WordClasses, given_classes
from cryptocomp.index.freqdict import file_sha256
from cryptocomp.index.scores import score_of
from cryptocomp.index.store import resolve_source, save_index
from cryptocomp.index.wordfilter import WordFilter
from cryptocomp.prompt import Session, Settings, plain_lines, result_json
from cryptocomp.tiles.rack import rack_words

_KINDS = ["dictionary"] * 5 + ["name", "abbreviation", "offensive", "unknown"]
EVERY = WordClasses.parse("all,offensive")


def _facts(seed: int = 7) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Counts and classes of a random small dictionary in which send+more composes with
    words of several classes (money a dictionary word, monet a name, morey offensive)."""
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    for n in (2, 3, 4, 5):
        for _ in range(150):
            counts["".join(rng.choice("abcdemnorsty") for _ in range(n))] = rng.randint(1, 10**4)
    counts.update({"money": 50_000, "monet": 60_000, "morey": 55_000})
    classes = {}
    for w in counts:
        kind = rng.choice(_KINDS)
        classes[w] = [] if kind == "unknown" else [kind]
    classes.update(money=["dictionary"], monet=["name"], morey=["dictionary", "offensive"])
    for w in ("zq", "wv", "zw", "qv"):  # a 2x2 square of unknown words only
        counts[w], classes[w] = 1, []
    return counts, classes


def _classified(counts, classes, name="") -> Index:
    return Index.from_counts(counts, name=name, classify=given_classes(classes))


@pytest.fixture
def classified(tmp_path):
    """A dictionary file whose index (saved where the CLI looks) is classified: (path,
    index)."""
    counts, classes = _facts()
    path = tmp_path / "small.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in counts.items()), encoding="utf-8")
    src = resolve_source(str(path))
    idx = Index.from_counts(counts, name=src.name, params=src.params,
                            classify=given_classes(classes))
    save_index(idx, src.index_path, source=str(src.path), source_sha256=file_sha256(path),
               source_stat=os.stat(path))
    return path, idx


def _kinds(idx: Index, word: str) -> set[str]:
    i = idx.id_of(word)
    assert i is not None, word
    return set(idx.classes_of(i))


def _run(capsys, *argv) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# -- the command line --------------------------------------------------------------------

def test_compose_prints_only_dictionary_words_by_default(classified, capsys):
    path, idx = classified
    status, out, _ = _run(capsys, "compose", "send+more", "--dict", str(path))
    assert status == 0
    lines = out.splitlines()
    assert lines and all(len(line.split("\t")) == 3 for line in lines)  # no class column
    words = [line.split("\t")[0].split("=")[1] for line in lines]
    assert "money" in words and "monet" not in words and "morey" not in words
    assert all("dictionary" in _kinds(idx, w) and "offensive" not in _kinds(idx, w)
               for w in words)
    status, out, _ = _run(capsys, "compose", "send+more", "--dict", str(path), "--json")
    assert all("classes" not in r for r in json.loads(out))


def test_compose_words_all_shows_the_class_and_offensive_only_when_named(classified, capsys):
    path, _ = classified
    _, out, _ = _run(capsys, "compose", "send+more", "--dict", str(path), "--words", "all")
    rows = [line.split("\t") for line in out.splitlines()]
    assert all(len(r) == 4 for r in rows)
    got = {r[0].split("=")[1]: r[3] for r in rows}
    assert got["monet"] == "name" and "morey" not in got
    _, out, _ = _run(capsys, "compose", "send+more", "--dict", str(path), "--json", "--words",
                     "dictionary,offensive")
    found = {r["word"]: r["classes"] for r in json.loads(out)}
    assert found["morey"] == ["dictionary", "offensive"] and "monet" not in found


def test_words_default_and_all(classified, capsys):
    path, idx = classified
    _, out, _ = _run(capsys, "words", "???", "--dict", str(path))
    words = [line.split("\t")[0] for line in out.splitlines()]
    assert words and all(_kinds(idx, w) == {"dictionary"} or
                         ("dictionary" in _kinds(idx, w) and "offensive" not in _kinds(idx, w))
                         for w in words)
    _, out, _ = _run(capsys, "words", "???", "--dict", str(path), "--words", "all", "--json")
    rows = json.loads(out)
    assert all(r["classes"] == sorted(_kinds(idx, r["word"]), key=CLASS_NAMES.index)
               for r in rows)
    assert {"unknown", "name"} <= {c for r in rows for c in r["classes"]}
    assert not any("offensive" in r["classes"] for r in rows)


def test_rack_prints_only_dictionary_words_by_default(classified, capsys):
    path, idx = classified
    status, out, _ = _run(capsys, "rack", "monet?", "--dict", str(path))
    assert status == 0
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows and all(len(r) == 4 for r in rows)
    assert all("dictionary" in _kinds(idx, r[1]) and "offensive" not in _kinds(idx, r[1])
               for r in rows)
    _, out, _ = _run(capsys, "rack", "monet?", "--dict", str(path), "--words", "all")
    rows = [line.split("\t") for line in out.splitlines()]
    assert all(len(r) == 5 for r in rows) and any(r[4] != "dictionary" for r in rows)


@pytest.mark.parametrize("argv", [["square", "2"], ["square", "3"], ["square", "3", "--symmetric"]])
def test_fills_never_use_an_unknown_word(classified, capsys, argv):
    path, idx = classified
    status, out, _ = _run(capsys, *argv, "--dict", str(path), "--json")
    doc = json.loads(out)
    assert status == 0
    for one in doc["fills"]:
        for slot, word in one["words"].items():
            kinds = _kinds(idx, word)
            assert kinds & {"dictionary", "name"} and not kinds & {"unknown", "offensive"}
            assert one["classes"][slot] == sorted(kinds, key=CLASS_NAMES.index)
    # the plain grid says which answers are no dictionary words
    _, out, _ = _run(capsys, *argv, "--dict", str(path))
    assert "# not dictionary words: " in out or "# every answer is a dictionary word" in out


def test_fill_words_all_may_use_unknown_words(classified, capsys):
    path, idx = classified
    _, out, _ = _run(capsys, "square", "2", "--dict", str(path), "--json", "--words",
                     "unknown")
    fills = json.loads(out)["fills"]
    assert fills and all(_kinds(idx, w) == {"unknown"} and f["classes"][s] == ["unknown"]
                         for f in fills for s, w in f["words"].items())
    _, out, _ = _run(capsys, "square", "2", "--dict", str(path), "--json", "--words",
                     "dictionary", "--min-score", "1")
    doc = json.loads(out)
    assert all(_kinds(idx, w) == {"dictionary"} for f in doc["fills"]
               for w in f["words"].values())


@pytest.mark.parametrize("argv", [
    ["compose", "send+more"], ["words", "???"], ["rack", "abc"], ["square", "2"],
])
def test_a_bad_class_is_one_line(classified, capsys, argv):
    path, _ = classified
    status, out, err = _run(capsys, *argv, "--dict", str(path), "--words", "nouns")
    assert status == 2 and not out
    assert len(err.strip().splitlines()) == 1 and "unknown word class 'nouns'" in err


def test_min_score_is_checked(classified, capsys):
    path, _ = classified
    status, _, err = _run(capsys, "square", "2", "--dict", str(path), "--min-score", "101")
    assert status == 2 and "--min-score" in err


def test_an_unclassified_dictionary_prints_as_before(tmp_path, capsys):
    counts, _ = _facts()
    path = tmp_path / "plain.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in counts.items()), encoding="utf-8")
    for argv in (["compose", "send+more"], ["words", "??"], ["rack", "mone?"]):
        _, default, _ = _run(capsys, *argv, "--dict", str(path))
        _, every, _ = _run(capsys, *argv, "--dict", str(path), "--words", "all")
        assert default == every
        assert "monet" in default or argv[0] != "compose"
        assert all(len(line.split("\t")) <= 4 for line in default.splitlines())
    _, out, _ = _run(capsys, "compose", "send+more", "--dict", str(path))
    assert all(len(line.split("\t")) == 3 for line in out.splitlines())


# -- the prompt ---------------------------------------------------------------------------

def test_the_prompt_defaults_and_words_command():
    counts, classes = _facts()
    session = Session(_classified(counts, classes, "small"), settings=Settings(shown=None))
    got = session.execute("SEND+MORE").result
    assert got is not None and not got.class_column
    assert "money" in [r.word for r in got.rows] and "monet" not in [r.word for r in got.rows]
    assert all(len(line.split("\t")) == 5 for line in plain_lines(got, None))
    reply = session.execute(":words all")
    assert "all" in reply.message and "words all" in session.toolbar()
    got = session.execute("SEND+MORE").result
    assert got is not None and got.class_column
    by_word = {r.word: r.classes for r in got.rows}
    assert by_word["monet"] == ("name",) and "morey" not in by_word
    assert all(len(line.split("\t")) == 6 for line in plain_lines(got, None))
    assert result_json(got)["results"][0]["classes"]
    got = session.execute("???").result
    assert got is not None and got.class_column
    assert any(r.classes == ("unknown",) for r in got.rows)
    session.execute(":words offensive")
    got = session.execute("SEND+MORE").result
    assert got is not None and [r.word for r in got.rows] == ["morey"]
    session.execute(":words default")
    assert session.settings.classes is None
    assert "defaults" in session.execute(":words").message
    with pytest.raises(Exception, match="unknown word class"):
        session.execute(":words nouns")


def test_prompt_words_option(classified, capsys, monkeypatch):
    import io

    path, _ = classified
    monkeypatch.setattr("sys.stdin", io.StringIO("SEND+MORE\n"))
    assert main(["--dict", str(path), "--words", "name"]) == 0
    out = capsys.readouterr().out
    assert out.split("\t")[1] == "monet" and out.strip().endswith("name")


# -- the library entry points and every filter against a plain scan -------------------------

def _admitted(idx: Index, classes: WordClasses, min_score: int | None) -> set[str]:
    """The words ``classes`` and ``min_score`` admit, by a plain scan of the word list."""
    out = set()
    for i, w in enumerate(idx.words):
        kinds = set(idx.classes_of(i))
        if "offensive" in kinds and "offensive" not in classes.names:
            continue
        if min_score is not None and score_of(idx.counts[i], idx.total, scored=False) < min_score:
            continue
        if kinds & classes.names:
            out.add(w)
    return out


_CLASSES = st.sets(st.sampled_from(CLASS_NAMES), min_size=1).map(
    lambda s: WordClasses(frozenset(s)))
_SCORES = st.none() | st.integers(1, 100)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 5), _CLASSES, _SCORES)
@pytest.mark.slow
def test_every_filter_is_a_plain_scan(seed, classes, min_score):
    counts, facts = _facts(seed)
    idx = _classified(counts, facts)
    words = WordFilter(classes=classes, min_score=min_score)
    ok = _admitted(idx, classes, min_score)
    # compose: the results of every class, cut by the scan
    every = compose("send+more", idx, WordFilter(classes=EVERY, min_score=min_score))
    assert [c.word for c in compose("send+more", idx, words)] == \
        [c.word for c in every if c.word in ok]
    # words
    assert [e.word for e in idx.match("???", words)] == \
        [w for w in idx.words if len(w) == 3 and w in ok]
    # rack
    plays = rack_words("mnoe?", "en", idx, words=WordFilter(classes=EVERY, min_score=min_score))
    assert [p.word for p in rack_words("mnoe?", "en", idx, words=words)] == \
        [p.word for p in plays if p.word in ok]
    # a fill's lexicon
    lex = Lexicon(idx, words)
    for n in (2, 3):
        assert set(idx.words_of(list(lex.base(n)))) == {w for w in ok if len(w) == n}
        assert all((w in lex) == (w in ok) for w in idx.words if len(w) == n)


def test_the_library_entry_points_take_the_defaults():
    counts, facts = _facts()
    idx = _classified(counts, facts)
    assert [c.word for c in compose("send+more", idx)] == \
        [c.word for c in compose("send+more", idx, WordFilter(classes=DEFAULTS["compose"]))]
    assert {p.word for p in rack_words("mnoet?", "en", idx)} <= \
        _admitted(idx, DEFAULTS["rack"], None)
    for n in (2, 3):
        result = fill(square_grid(n), idx)
        assert result.filled
        assert set(result.words) <= _admitted(idx, DEFAULTS["fill"], None)


def test_the_arrow_words_take_the_swedish_default():
    from cryptocomp.arrow.generator import ArrowParams, build_workshop

    counts, facts = _facts()
    idx = Index.from_counts(counts, classify=given_classes(facts), params={"lang": "xx"})
    for classes in (None, WordClasses.parse("name,unknown")):
        params = ArrowParams(6, 6, clues="none", phrases="none", classes=classes)
        shop = build_workshop(params, idx)
        ok = _admitted(idx, classes or DEFAULTS["swedish"], None)
        assert len(shop.index) and set(shop.index.words) <= ok


def test_compose_batch_takes_the_default_and_shows_the_class(classified, tmp_path, capsys):
    path, idx = classified
    left, right = tmp_path / "left.txt", tmp_path / "right.txt"
    left.write_text("send\n", encoding="utf-8")
    right.write_text("more\n", encoding="utf-8")
    base = ["compose", "--batch", str(left), str(right), "--ops", "+", "--dict", str(path),
            "--jobs", "1"]
    _, out, _ = _run(capsys, *base)
    rows = [line.split("\t") for line in out.splitlines() if not line.startswith("#")]
    assert rows and all(len(r) == 3 for r in rows)
    assert {r[0].split("=")[1] for r in rows} <= _admitted(idx, DEFAULTS["compose"], None)
    _, out, _ = _run(capsys, *base, "--words", "name", "--json")
    doc = json.loads(out.splitlines()[0])
    got = {r["word"]: r["classes"] for r in doc["results"]}
    assert got["monet"] == ["name"] and all(c == ["name"] for c in got.values())


def test_the_rich_tables_have_the_class_column():
    from rich.console import Console

    from cryptocomp.prompt import result_table
    from cryptocomp.rendering import (
        ClassColumn,
        compose_table,
        fill_parts,
        rack_table,
        words_table,
    )

    counts, facts = _facts()
    idx = _classified(counts, facts, "small")
    every = WordFilter(classes=EVERY)
    names = ClassColumn(idx)
    console = Console(width=200, record=True)
    found = compose("send+more", idx, every)
    plays = list(rack_words("mnoe?", "en", idx, words=every))
    parts = [*compose_table("send+more", len(found), found, idx.total, names),
             *words_table("small", 3, idx.match("???", every)[:3], idx.total, names),
             *rack_table("mnoe?", "en", "small", len(plays), plays, names),
             *fill_parts(fill(square_grid(2), idx, every), names)]
    session = Session(idx, settings=Settings(classes=WordClasses.parse("all")))
    parts.append(result_table(session.execute("SEND+MORE").result, None))
    for part in parts:
        console.print(part)
    text = console.export_text()
    assert text.count("classes") == 4 and "name" in text and "offensive" in text
    assert "not dictionary words:" in text or "every answer is a dictionary word" in text
