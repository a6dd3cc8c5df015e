"""Word classes in the index: the filter against a plain scan, storage, checks on read."""

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp import Index
from cryptocomp.errors import ExpressionError
from cryptocomp.index.classes import CLASS_NAMES, SOURCE_CLASSES, WordClasses, given_classes
from cryptocomp.index.scores import score_of
from cryptocomp.index.wordfilter import WordFilter

_WORDS = st.text("abc", min_size=1, max_size=4)


@st.composite
def classified(draw):
    """A small classified index with the facts it was built from."""
    counts = draw(st.dictionaries(_WORDS, st.integers(0, 10**6), min_size=1, max_size=12))
    classes = {w: draw(st.sets(st.sampled_from(SOURCE_CLASSES))) for w in counts}
    lemmas = None
    if draw(st.booleans()):
        lemmas = {w: draw(st.sampled_from([w, w[:1], *counts])) for w in counts}
    idx = Index.from_counts(counts, classify=given_classes(classes, lemmas=lemmas))
    return idx, classes, lemmas


def _admits(names, word_classes):
    kinds = set(word_classes) or {"unknown"}
    if "offensive" in kinds and "offensive" not in names:
        return False
    return bool(kinds & names)


@settings(max_examples=60, deadline=None)
@given(classified(), st.sets(st.sampled_from(CLASS_NAMES), min_size=1), st.integers(1, 100))
def test_the_class_filter_is_a_plain_scan(case, names, min_score):
    idx, classes, lemmas = case
    idx._check()
    wanted = WordClasses(frozenset(names))
    got = idx.words_of(list(idx.select(WordFilter(classes=wanted, min_score=min_score))))
    expect = []
    for i, w in enumerate(idx.words):
        kinds = set(classes[w])
        if "lemma" in names and lemmas is not None and lemmas.get(w, w) == w:
            kinds.add("lemma")
        if _admits(names, kinds) and score_of(idx.counts[i], idx.total, scored=False) >= min_score:
            expect.append(w)
    assert got == expect


@settings(max_examples=30, deadline=None)
@given(classified())
def test_classes_and_lemmas_survive_storage(case):
    idx, _, lemmas = case
    again = Index.from_state(pickle.loads(pickle.dumps(idx.sections())))
    again._check()
    assert again.class_source == "given"
    for i in range(len(idx)):
        assert again.classes_of(i) == idx.classes_of(i)
    groups, back = idx.lemma_groups(), again.lemma_groups()
    assert (groups is None) == (back is None) == (lemmas is None)
    if groups is not None:
        assert groups.tolist() == back.tolist()
        for i, w in enumerate(idx.words):  # equal groups: equal lemmas
            for j, v in enumerate(idx.words):
                same = lemmas.get(w, w) == lemmas.get(v, v)
                assert (groups[i] == groups[j]) == same


def test_an_unclassified_index_admits_every_word():
    idx = Index.from_counts({"ab": 2, "cd": 1})
    idx._check()
    assert not idx.classified and idx.classes_of(0) == ()
    assert idx.words_of(list(idx.select(WordFilter(classes=WordClasses.of("name"))))) == \
        ["ab", "cd"]


def test_class_specs():
    assert WordClasses.parse("dictionary, name").names == {"dictionary", "name"}
    assert WordClasses.parse("all").describe() == "all"
    assert WordClasses.parse("all,offensive").names == frozenset(CLASS_NAMES)
    with pytest.raises(ExpressionError, match="unknown word class 'nme'"):
        WordClasses.parse("nme")
    with pytest.raises(ExpressionError, match="no word class"):
        WordClasses.parse(" , ")


def test_a_crafted_classes_section_is_refused():
    idx = Index.from_counts({"ab": 2}, classify=given_classes({"ab": ["name"]}))
    state = idx.sections()
    state["meta"] = {**state["meta"], "classes": ""}  # unclassified, yet with bitmaps
    with pytest.raises(ValueError, match="unclassified index has class bitmaps"):
        Index.from_state(state).in_class("name")
    state = idx.sections()
    state["lemmas"] = b"\0\0"
    with pytest.raises(ValueError, match="lemma groups do not match"):
        Index.from_state(state).lemma_groups()


def test_an_index_of_the_previous_state_version_is_rebuilt(tmp_path, monkeypatch, caplog):
    import logging

    from cryptocomp.index import store

    monkeypatch.setenv("CRYPTOCOMP_HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "indexes").mkdir(parents=True)
    words = tmp_path / "w.txt"
    words.write_text("ab 3\ncd 2\n", encoding="utf-8")
    with monkeypatch.context() as old:  # a file as the previous version wrote it
        old.setattr(store, "STATE_VERSION", 2)
        store.build_index(str(words))
    path = store.resolve_source(str(words)).index_path
    assert store.read_header(path)["state_version"] == 2
    with caplog.at_level(logging.WARNING, logger="cryptocomp"):
        assert store.load_index(str(words)).words == ["ab", "cd"]
    assert any("(state 2), this version writes 2 (state 3)" in r.getMessage()
               for r in caplog.records)
    assert store.read_header(path)["state_version"] == 3
