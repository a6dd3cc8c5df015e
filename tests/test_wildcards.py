"""Wildcard templates ('*' any run of letters) against a plain fnmatch scan (the oracle)."""

from __future__ import annotations

import fnmatch
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.errors import ExpressionError, QueryError
from cryptocomp.index import Index, WordFilter, build_index, load_index
from cryptocomp.index.wildcards import looks_like_template, split_template

LETTERS = "abдё"  # two scripts, and ё, whose code point sorts after я
words_st = st.text(alphabet=LETTERS, min_size=1, max_size=7)
dicts_st = st.dictionaries(words_st, st.integers(0, 50), min_size=1, max_size=40)
templates_st = st.lists(st.sampled_from(list(LETTERS) + ["?", ".", "*", "*"]), min_size=1,
                        max_size=8).map("".join)


def _ranked(counts):
    return sorted(counts, key=lambda w: (-counts[w], w))


def _oracle(counts, template, top=None, min_count=None, forbidden=""):
    """The plain definition: fnmatch's '?' and '*' are ours ('.' is '?'), scanned in rank
    order."""
    pattern = template.replace(".", "?")
    ranked = _ranked(counts)[:top] if top is not None else _ranked(counts)
    return [w for w in ranked if fnmatch.fnmatchcase(w, pattern)
            and (min_count is None or counts[w] >= min_count) and not set(w) & set(forbidden)]


@given(dicts_st, templates_st, st.one_of(st.none(), st.integers(0, 30)),
       st.one_of(st.none(), st.integers(0, 40)), st.sampled_from(["", "a", "ё"]))
@settings(max_examples=300, deadline=None)
@pytest.mark.slow
def test_wildcard_match_equals_fnmatch_scan(counts, template, top, min_count, forbidden):
    idx = Index.from_counts(counts)
    if any(ch not in "?.*" and ch not in idx.alphabet for ch in template):
        with pytest.raises(QueryError, match="does not occur"):
            idx.match(template)
        return
    got = idx.match(template, WordFilter(top=top, min_count=min_count, excludes=forbidden)).words()
    assert got == _oracle(counts, template, top, min_count, forbidden)


WORDS = {"ab": 9, "ba": 8, "aab": 7, "abab": 6, "bba": 5, "a": 4, "b": 3, "aaaa": 2, "babba": 1,
         "abba": 1, "bab": 1}


def test_every_placement_of_star_and_question_mark():
    """Every template of up to five characters over {a, b, ?, *}: each placement of the
    wildcards, several stars in a row, stars at both ends, nothing but wildcards."""
    idx = Index.from_counts(WORDS)
    checked = 0
    for size in range(1, 6):
        for chars in itertools.product("ab?*", repeat=size):
            template = "".join(chars)
            assert idx.match(template).words() == _oracle(WORDS, template), template
            checked += 1
    assert checked == 4 + 16 + 64 + 256 + 1024


def test_loaded_index_answers_like_the_built_one(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in WORDS.items()), encoding="utf-8")
    built, _ = build_index(str(path))
    loaded = load_index(str(path))
    for template in ["a*", "*a", "*bb*", "a*b*a", "?*b", "*", "b?*?a", "**ab**"]:
        assert loaded.match(template).words() == built.match(template).words() \
            == _oracle(WORDS, template), template
    loaded._check()


def test_examples_from_the_issue():
    idx = Index.from_counts({"condition": 9, "cons": 8, "nation": 7, "canes": 6, "ёжик": 5,
                             "надёжный": 4, "con": 3, "icons": 2})
    assert idx.match("con*").words() == ["condition", "cons", "con"]
    assert idx.match("*tion").words() == ["condition", "nation"]
    assert idx.match("c?n*s").words() == ["cons", "canes"]
    assert idx.match("*ёж*").words() == ["ёжик", "надёжный"]
    assert idx.match("CON*", WordFilter(min_count=5)).words() == ["condition", "cons"]


def test_split_template():
    assert split_template("c?n*s") == ("c?n", (), "s")
    assert split_template("*ёж*") == ("", ("ёж",), "")
    assert split_template("a**b*c*") == ("a", ("b", "c"), "")


@pytest.mark.parametrize("line,template", [
    ("con*", True), ("*tion", True), ("c?n*s", True), ("*ёж*", True), ("?р??а", True),
    ("хабр**хабр", True), ("send", True),
    ("хабр*хабр", False), ("a*?", False), ("send+more", False), ("?=a", False),
    ("(a)", False), ("a*b=c", False), ("", False), ("12*", False),
])
def test_prompt_lines_template_or_puzzle(line, template):
    assert looks_like_template(line) is template


def test_prompt_template_lines_and_products():
    from cryptocomp.prompt import Session

    session = Session(Index.from_counts({"money": 50, "honey": 20, "send": 40, "more": 30,
                                         "mommy": 5}))
    assert [r.word for r in session.execute("mo*").result.rows] == ["money", "more", "mommy"]
    assert [r.word for r in session.execute("*ey").result.rows] == ["money", "honey"]
    with pytest.raises(ExpressionError, match="empty operand"):
        session.execute("send+m*")  # an operator makes it a puzzle: '*' is a product there
    product = session.execute("send*more")  # a product, as before: composes, not a template
    assert product.result.kind == "compose"


def test_tab_completion_offers_dictionary_words_for_a_typed_prefix():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from cryptocomp.prompt import Session, Settings, completer

    session = Session(Index.from_counts({"money": 50, "monday": 20, "send": 40, "more": 30,
                                         "mo": 60, "море": 3}), settings=Settings())
    comp = completer(session)

    def complete(text: str) -> list[str]:
        doc = Document(text, len(text))
        return [c.text for c in comp.get_completions(doc, CompleteEvent(completion_requested=True))]

    assert complete("SEND+MO") == ["MONEY", "MORE", "MONDAY"]  # most frequent first, same case
    assert complete("send+mo") == ["money", "more", "monday"]  # 'mo' itself needs no completion
    assert complete("se") == ["send"]
    assert complete("SEND+MORE=MОР") == []  # a Cyrillic О after Latin: nothing starts so
    assert complete("мо") == ["море"]
    assert complete("send+") == [] and complete("s?n") == []  # no word being typed
    assert complete(":s") == [":same", ":save"]  # commands as before
    session.execute(":limit 2")
    assert complete("mo") == ["money"]  # the session's filters apply
