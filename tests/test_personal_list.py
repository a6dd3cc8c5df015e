"""The personal list (issue 26): live edits over an index give what an index rebuilt with
the edits gives; the prompt's :add, :remove and :mine; the list file written back."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp import Index, WordFilter
from cryptocomp.cli import main
from cryptocomp.cryptarithm.compose import compose
from cryptocomp.errors import QueryError
from cryptocomp.index.personal import Overlay, PersonalList, default_list_path
from cryptocomp.index.wordlists import WordList, merge_lists
from cryptocomp.prompt import Session

QUICK = settings(max_examples=30, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
WORDS = st.text("demnorsy", min_size=2, max_size=5)
BASE = {"money": 90, "honey": 80, "mommy": 70, "demon": 60, "lemon": 50, "more": 5}  # scores


def rebuilt(base: dict[str, int], mine: PersonalList, *, scored: bool) -> Index:
    """The index built from the base list with the personal list laid over it."""
    b = WordList(dict(base), set(), "semicolon" if scored else "count")
    counts = merge_lists(b, [WordList(mine.added(), set(mine.removed()), "semicolon")])
    return Index.from_counts(counts, params={"scored": scored})


@QUICK
@given(base=st.dictionaries(WORDS, st.integers(1, 100), min_size=1, max_size=25),
       edits=st.lists(st.tuples(WORDS, st.integers(0, 100)), max_size=10),
       scored=st.booleans(), template=st.sampled_from(["??", "???", "????", "?????", "*",
                                                        "m*", "*e*", "d?m*"]),
       top=st.one_of(st.none(), st.integers(0, 30)), min_count=st.one_of(st.none(),
                                                                         st.integers(0, 60)))
@pytest.mark.slow
def test_live_edits_give_what_a_rebuilt_index_gives(base, edits, scored, template, top,
                                                    min_count):
    index = Index.from_counts(base, params={"scored": scored})
    mine = PersonalList()
    for word, score in edits:
        mine.add(word, score) if score else mine.remove(word)
    overlay = Overlay(index, mine)
    again = rebuilt(base, mine, scored=scored)
    # a score threshold is exact on a scored index (a count there is the score itself)
    words = WordFilter(top=top, min_count=min_count,
                       min_score=min_count if scored and min_count else None)
    assert list(overlay.match(template, words)) == list(again.match(template, words))
    merged = overlay.match(template, words)
    assert merged[1:3] == again.match(template, words)[1:3]
    assert [merged[i] for i in range(len(merged) - 1, -1, -1)] == \
        list(again.match(template, words))[::-1]
    assert len(overlay.match(template, words)) == len(again.match(template, words))
    if edits:
        probe = edits[0][0]
        assert list(overlay.same_pattern(probe, words)) == \
            list(again.same_pattern(probe, words))
    for left in ("send+more", "so+so"):
        run = lambda idx, w, most, left=left: compose(left, idx, w, max_results=most)  # noqa: E731
        for most in (None, 2):
            got = [(c.word, c.count, c.rank) for c in overlay.compose(run, words, most)]
            want = [(c.word, c.count, c.rank) for c in compose(left, again, words,
                                                               max_results=most)]
            assert got == want


def test_the_list_is_sorted_and_written_back(tmp_path):
    path = tmp_path / "mine.txt"
    mine = PersonalList(path)
    for word in ("zeta", "alpha", "mu"):
        mine.add(word, 40)
    mine.remove("beta")
    assert list(mine.entries) == ["alpha", "beta", "mu", "zeta"]
    assert mine.irange("b", "n") == [("beta", 0), ("mu", 40)]
    mine.save()
    assert path.read_text(encoding="utf-8") == "alpha;40\nbeta;0\nmu;40\nzeta;40\n"
    again = PersonalList.load(path)
    assert dict(again.entries) == dict(mine.entries)
    plain = tmp_path / "plain.txt"
    plain.write_text("word\n-gone\n", encoding="utf-8")
    assert dict(PersonalList.load(plain).entries) == {"gone": 0, "word": 50}


def _session(tmp_path, name="mine.txt") -> Session:
    index = Index.from_counts(BASE, name="t", params={"scored": True})
    return Session(index, list_path=tmp_path / name)


def _words(session: Session, line: str) -> list[str]:
    return [row.word for row in session.execute(line).result.rows]


def test_prompt_commands_change_results_at_once(tmp_path):
    s = _session(tmp_path)
    assert _words(s, "?????") == ["money", "honey", "mommy", "demon", "lemon"]
    assert "added to the dictionary" in s.execute(":add Zzzzz 60").message
    s.execute(":remove honey")
    s.execute(":add lemon 100")
    assert _words(s, "?????")[:2] == ["lemon", "money"]
    assert "honey" not in _words(s, "?????") and "zzzzz" in _words(s, "?????")
    assert "honey" not in _words(s, ":same money")
    composed = _words(s, "send+more")
    assert "money" in composed
    s.execute(":remove money")
    assert "money" not in _words(s, "send+more")
    listing = s.execute(":mine").message
    assert listing.endswith("2 words scored, 2 removed: -honey, lemon 100, -money, zzzzz 60")
    assert (tmp_path / "mine.txt").read_text(encoding="utf-8").splitlines() == \
        ["honey;0", "lemon;100", "money;0", "zzzzz;60"]
    # a new session on the same file starts with the edits
    assert "honey" not in _words(_session(tmp_path), "?????")


def test_bad_words_and_scores_are_one_line(tmp_path):
    s = _session(tmp_path)
    for line, message in ((":add mon3y", "not a word of this dictionary"),
                          (":add жук", "not written in the dictionary's alphabet"),
                          (":add money 101", "a score is a whole number from 1 to 100"),
                          (":add money x", "a score is a whole number"),
                          (":add", "usage: :add WORD [SCORE]"),
                          (":remove", "usage: :remove WORD")):
        try:
            s.execute(line)
        except QueryError as exc:
            assert message in str(exc) and "\n" not in str(exc)
        else:
            raise AssertionError(f"{line} was accepted")
    assert not s.personal


def test_an_unwritable_list_keeps_the_edit_in_memory(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    s = _session(tmp_path, "file/mine.txt")  # its directory is a file: never writable
    reply = s.execute(":add zzzzz 70")
    assert "in memory only" in reply.message and "\n" not in reply.message
    assert "zzzzz" in _words(s, "?????")


def test_the_default_list_lives_in_the_data_directory(tmp_path):
    index = Index.from_counts(BASE, name="t")
    s = Session(index)
    s.execute(":add zzzzz")
    assert s.personal.path == default_list_path("t") and s.personal.path.is_file()
    assert s.personal.path.parent.name == "lists"


def test_compose_and_words_take_a_list(tmp_path, capsys):
    d, mine = tmp_path / "d.txt", tmp_path / "l.txt"
    d.write_text("".join(f"{w};{c}\n" for w, c in BASE.items()), encoding="utf-8")
    mine.write_text("money;0\nzzzzz;60\n", encoding="utf-8")
    assert main(["words", "?????", "--dict", str(d), "--list", str(mine)]) == 0
    out = capsys.readouterr().out.split()
    assert "money" not in out and "zzzzz" in out
    assert main(["compose", "send+more", "--dict", str(d), "--list", str(mine)]) == 0
    assert capsys.readouterr().out.split()[0] == "send+more=demon"
    assert main(["compose", "send+more", "--dict", str(d)]) == 0
    assert capsys.readouterr().out.split()[0] == "send+more=money"
    assert main(["words", "??", "--dict", str(d), "--list", str(tmp_path / "no")]) == 2
    assert "no such word list" in capsys.readouterr().err
