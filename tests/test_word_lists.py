"""Word lists in the constructors' formats (issue 26): detection, bad lines, merging, writing,
and `index build BASE --add LIST`, each against a plain reimplementation."""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.cli import main
from cryptocomp.index.scores import count_for_score, score_of
from cryptocomp.index.store import (
    build_index,
    load_index,
    read_header,
    resolve_source,
    stale_reason,
)
from cryptocomp.index.wordlists import (
    DEFAULT_SCORE,
    FORMATS,
    WordList,
    admitted_letters,
    detect_format,
    list_text,
    load_list,
    merge_lists,
    parse_list,
    write_list,
)

QUICK = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
WORDS = st.text("abcdeé", min_size=1, max_size=5)
SEP = {"semicolon": ";", "tab": "\t", "comma": ","}


# -- a plain reimplementation of the module docstring's rules -----------------------------

def plain_detect(lines: list[str]) -> str:
    sample = [t for t in (line.strip() for line in lines)
              if t and not (len(t) > 1 and t[0] == "-" and not any(c.isspace() or c in ";,"
                                                                   for c in t))][:100]
    if not sample:
        return "plain"

    def fits(t: str, fmt: str) -> bool:
        if fmt in SEP:
            head, sep, tail = t.rpartition(SEP[fmt])
            tail = tail.strip()
            return bool(sep and head.strip() and tail.isascii() and tail.isdigit()
                        and (fmt != "tab" or int(tail) <= 100))
        parts = t.split()
        if fmt == "count":
            return len(parts) == 2 and parts[1].isascii() and parts[1].isdigit()
        return len(parts) == 1

    n = {f: sum(fits(t, f) for t in sample) for f in FORMATS}
    for f in FORMATS:
        if 2 * n[f] >= len(sample):
            return f
    if not any(n.values()):
        return "count"
    return max(FORMATS, key=lambda f: (n[f], -FORMATS.index(f)))


def plain_scored(lines: list[str], sep: str) -> tuple[dict[str, int], set[str]]:
    """word -> score (the last line wins) and the removed words, of good scored lines."""
    scores: dict[str, int] = {}
    removed: set[str] = set()
    for line in lines:
        if line.startswith("-"):
            word, score = line[1:], 0
        else:
            word, _, value = line.rpartition(sep)
            score = int(value)
        scores.pop(word, None)
        removed.discard(word)
        if score:
            scores[word] = score
        else:
            removed.add(word)
    return scores, removed


@st.composite
def scored_lines(draw, sep: str) -> list[str]:
    entries = draw(st.lists(st.tuples(WORDS, st.integers(0, 100), st.booleans()), min_size=1,
                            max_size=20))
    return [f"-{w}" if dash else f"{w}{sep}{s}" for w, s, dash in entries]


# -- detection -----------------------------------------------------------------------------

@pytest.mark.parametrize("line, fmt", [
    ("abacus;50", "semicolon"), ("abacus\t50", "tab"), ("abacus,50", "comma"),
    ("abacus 50", "count"), ("abacus\t5000", "count"), ("abacus", "plain"),
    ("a;b;7", "semicolon"), ("two words 5", "count")])
def test_each_format_is_detected_from_a_line(line, fmt):
    assert detect_format([line]) == fmt


@QUICK
@given(lines=st.lists(st.one_of(
    WORDS, st.builds(lambda w, s, sep: f"{w}{sep}{s}", WORDS, st.integers(0, 300),
                     st.sampled_from([";", "\t", ",", " ", "  "])),
    st.builds(lambda w: f"-{w}", WORDS), st.sampled_from(["", " ", "a;x", ";5", "x y z"])),
    max_size=30))
def test_detection_agrees_with_a_plain_reimplementation(lines):
    assert detect_format(lines) == plain_detect(lines)


def test_removal_lines_do_not_vote_and_the_first_hundred_lines_decide():
    assert detect_format(["-gone", "-also", "word;40"]) == "semicolon"
    assert detect_format(["plain"] * 100 + ["w;50"] * 200) == "plain"


# -- parsing -------------------------------------------------------------------------------

@QUICK
@given(data=st.data(), fmt=st.sampled_from(["semicolon", "tab", "comma"]))
def test_scored_lists_parse_as_a_plain_reimplementation(data, fmt):
    lines = data.draw(scored_lines(SEP[fmt]))
    got = parse_list(lines, fmt=fmt)
    scores, removed = plain_scored(lines, SEP[fmt])
    assert got.entries == scores and got.removed == removed and got.bad == 0
    assert list(got.entries) == list(scores)


@QUICK
@given(words=st.lists(WORDS, min_size=1, max_size=20))
def test_a_plain_list_ranks_by_its_order(words):
    got = parse_list(words, fmt="plain")
    first = list(dict.fromkeys(words))
    assert got.entries == {w: len(first) - i for i, w in enumerate(first)}


def test_bad_lines_are_reported_with_their_numbers_and_nothing_else_is_lost(caplog, tmp_path):
    path = tmp_path / "l.txt"
    path.write_text("good;50\nbad;150\nworse;x\n;7\nuntouched;1\nwжw;3\nw?;4\nlast;100\n",
                    encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        got = load_list(path, admits=admitted_letters("abc"))
    assert got.entries == {"good": 50, "untouched": 1, "last": 100}
    [warning] = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warning.startswith(f"{path}: skipped 5 bad lines (line 2: score 150 is not 1-100; "
                              "line 3: bad score 'x'; line 4: empty word; line 6: ")
    assert "'wжw' is not written in the dictionary's alphabet" in warning
    assert warning.endswith("line 7: 'w?' holds a template wildcard)")


def test_count_files_keep_freqdict_format_1_and_its_warnings(caplog):
    got = parse_list(["a 5", "b x", "a 2", "-c", "c 1", "d 3", "-d", "e 1", "-e", "e 4"])
    assert got.format == "count" and got.entries == {"a": 7, "c": 1, "e": 4}
    assert got.removed == {"d"}
    assert got.count_report is not None and got.count_report.malformed == 1
    assert any("malformed line" in w for w in got.warnings("f"))


# -- writing -------------------------------------------------------------------------------

@QUICK
@given(entries=st.dictionaries(WORDS, st.integers(0, 100), min_size=1, max_size=15),
       fmt=st.sampled_from(FORMATS))
def test_written_lists_read_back(tmp_path, entries, fmt):
    path = tmp_path / "w.txt"
    write_list(path, entries, fmt)
    got = load_list(path, empty_ok=True)
    assert got.format == (fmt if any(entries.values()) or fmt not in ("count", "plain")
                          else got.format)
    assert got.removed == {w for w, v in entries.items() if not v}
    kept = {w: v for w, v in entries.items() if v}
    if fmt in SEP or fmt == "count":
        assert got.entries == kept
    else:  # plain: the order of the values survives
        assert sorted(got.entries, key=got.entries.get, reverse=True) == \
            sorted(kept, key=lambda w: (-kept[w], w))
    assert path.read_text(encoding="utf-8") == list_text(entries, fmt)


# -- merging -------------------------------------------------------------------------------

def plain_merge(base: WordList, overlays: list[WordList]) -> dict[str, int]:
    counts = dict(base.entries)
    total = sum(counts.values())
    for ov in overlays:
        for w in ov.removed:
            counts.pop(w, None)
        own = sum(ov.entries.values())
        for w, v in ov.entries.items():
            if ov.format == "count":
                counts[w] = score_of(v, own, scored=False) if base.scored else v
            elif base.scored:
                counts[w] = v if ov.scored else DEFAULT_SCORE
            else:  # the smallest count with at least that score, found by counting up
                s = v if ov.scored else DEFAULT_SCORE
                c = 1
                while score_of(c, total, scored=False) < s:
                    c += 1
                counts[w] = c
    return counts


@QUICK
@given(base=st.dictionaries(WORDS, st.integers(1, 100), min_size=1, max_size=15),
       base_scored=st.booleans(),
       overlays=st.lists(st.tuples(st.dictionaries(WORDS, st.integers(1, 100), max_size=8),
                                   st.sets(WORDS, max_size=4),
                                   st.sampled_from(["semicolon", "plain", "count"])),
                         max_size=3))
def test_merging_agrees_with_a_plain_reimplementation(base, base_scored, overlays):
    b = WordList(base, set(), "semicolon" if base_scored else "count")
    ovs = [WordList({w: v for w, v in e.items() if w not in r}, r, f) for e, r, f in overlays]
    assert merge_lists(b, ovs) == plain_merge(b, ovs)


def test_a_score_on_a_counted_base_is_the_smallest_count_with_that_score():
    for total in (10**6, 10**9, 3 * 10**11):
        for s in (2, 38, 50, 99):
            c = count_for_score(s, total, scored=False)
            assert score_of(c, total, scored=False) >= s > score_of(c - 1, total, scored=False)
    assert count_for_score(70, 12345, scored=True) == 70


# -- index build BASE --add LIST ---------------------------------------------------------

def test_index_build_with_added_lists(tmp_path, capsys):
    base, mine, more = tmp_path / "base.txt", tmp_path / "mine.txt", tmp_path / "more.txt"
    base.write_text("cat;60\ndog;50\nbird;40\nsend;30\n", encoding="utf-8")
    mine.write_text("dog;0\n-bird\nmouse;70\n", encoding="utf-8")
    more.write_text("mouse;10\ncat\n", encoding="utf-8")
    assert main(["index", "build", str(base), "--add", str(mine), "--add", str(more)]) == 0
    src = resolve_source(str(base), adds=(str(mine), str(more)))
    assert src.name != resolve_source(str(base)).name
    header = read_header(src.index_path)
    assert header["params"]["scored"] is True and str(mine) in header["params"]["lists"]
    assert stale_reason(header) is None
    index = load_index(str(base), adds=(str(mine), str(more)))
    assert index.matches(index.all_ids()).words() == ["cat", "send", "mouse"]
    assert list(index.counts) == [60, 30, 10]  # "cat" alone in a scored list: a bad line
    assert "more.txt: skipped 1 bad line (line 2: no ';' and score)" in capsys.readouterr().err
    more.write_text("mouse;90\n", encoding="utf-8")  # a changed list rebuilds the index
    assert stale_reason(read_header(src.index_path)) == "an added list changed"
    index = load_index(str(base), adds=(str(mine), str(more)))
    assert index.matches(index.all_ids()).words()[0] == "mouse"
    assert main(["index", "build", str(base), "--add", str(tmp_path / "none.txt")]) == 2
    assert "none.txt: no such word list" in capsys.readouterr().err


def test_a_counted_base_takes_scores_on_its_scale(tmp_path):
    base, mine = tmp_path / "b.txt", tmp_path / "m.txt"
    base.write_text("the 50000000\nof 20000000\ncat 9000\ndog 100\n", encoding="utf-8")
    mine.write_text("zebra;50\n", encoding="utf-8")
    index, _ = build_index(str(base), adds=(str(mine),))
    total = 50000000 + 20000000 + 9000 + 100
    assert index.count("zebra") == count_for_score(50, total, scored=False)
    assert not index.scored and index.score(index.id_of("zebra")) == 50
