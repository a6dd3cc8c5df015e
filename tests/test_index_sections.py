"""The stored sections of an index (cryptocomp.index.sections): which exist, which are loaded,
each loaded on first use and no other, the invariant checked after every build and load."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.index import Index, WordFilter
from cryptocomp.index.state import FAMILIES
from cryptocomp.index.store import read_index, read_index_bytes, save_index

COUNTS = {"мама": 5, "папа": 7, "баран": 9, "сад": 1, "дядя": 3, "ёж": 2, "а": 4}
CREATED = "2000-01-01T00:00:00+00:00"


def _pickled(sections: dict) -> dict[str, bytes]:
    """Each section as an index file stores it."""
    return {key: pickle.dumps(value, protocol=5) for key, value in sections.items()}


def _saved(index: Index, tmp_path) -> Index:
    path = tmp_path / "t.ccidx"
    save_index(index, path, created=CREATED)
    loaded = read_index(path)
    loaded._stored._check()
    return loaded


@pytest.fixture
def built() -> Index:
    index = Index.from_counts(COUNTS, name="t")
    index._stored._check()
    return index


def test_a_built_index_holds_every_section(built):
    stored = built._stored
    assert stored.keys() == ["meta", "counts", *FAMILIES, "classes", "lemmas", "words", "order",
                             "codes:1", "codes:2", "codes:3", "codes:4", "codes:5"]
    assert stored.loaded() == stored.keys()
    assert set(built.sections()) == set(stored.keys())
    built._check()


def test_a_loaded_index_holds_meta_only_until_asked(built, tmp_path):
    loaded = _saved(built, tmp_path)
    assert loaded._stored.loaded() == ["meta"]
    assert loaded._stored.keys() == built._stored.keys()
    assert len(loaded) == 7 and loaded.lengths() == [1, 2, 3, 4, 5]  # meta answers these
    assert loaded._stored.loaded() == ["meta"]


@pytest.mark.parametrize(("use", "reads"), [
    (lambda ix: ix.counts[0], ["counts"]),
    (lambda ix: ix.total, ["counts"]),
    (lambda ix: ix.by_length(4), ["by_length"]),
    (lambda ix: ix.having("а"), ["having"]),
    (lambda ix: ix.at_least("а", 2), ["at_least"]),
    (lambda ix: ix.at(0, "м"), ["at"]),
    (lambda ix: ix.same_pattern("дядя").ids, ["by_pattern"]),
    (lambda ix: ix.sorted_ids(reverse=True), ["order"]),
    (lambda ix: ix.words, ["words"]),
    (lambda ix: "мама" in ix, ["words"]),
    (lambda ix: ix.encoded(4), ["by_length", "codes:4"]),
    (lambda ix: ix.word(2), ["by_length", "codes:4"]),  # spelled from its codes
    (lambda ix: ix.match("?а?а").ids, ["by_length", "at"]),
    (lambda ix: ix.match("?а?а").words(), ["by_length", "at", "words"]),  # a small index
    (lambda ix: ix.match("*а").words(), ["words", "order"]),
])
def test_a_use_loads_its_sections_and_no_other(built, tmp_path, use, reads):
    loaded = _saved(built, tmp_path)
    use(loaded)
    keys = loaded._stored.keys()  # every section of the file, in its order
    assert loaded._stored.loaded() == [k for k in keys if k == "meta" or k in reads]
    loaded._stored._check()


def test_the_word_order_decodes_one_direction_at_a_time(built, tmp_path):
    loaded = _saved(built, tmp_path)
    assert loaded.sorted_ids().tolist() == built.sorted_ids().tolist()
    forward, backward = loaded._stored._values["order"]
    assert not isinstance(forward, bytes) and isinstance(backward, bytes)
    loaded._stored._check()
    assert loaded.sorted_ids(reverse=True).tolist() == built.sorted_ids(reverse=True).tolist()
    loaded._stored._check()


def test_load_all_reads_every_section_and_writes_them_unchanged(built, tmp_path):
    loaded = _saved(built, tmp_path)
    loaded.load_all()
    assert loaded._stored.loaded() == loaded._stored.keys()
    loaded._check()
    assert _pickled(loaded.sections()) == _pickled(built.sections())


def test_pickled_and_shipped_indexes_load_lazily_too(built, tmp_path):
    again = pickle.loads(pickle.dumps(built))
    assert again._stored.loaded() == ["meta"]
    again._stored._check()
    assert len(again.match("?а?а").ids) == 2
    assert again._stored.loaded() == ["meta", "by_length", "at"]
    path = tmp_path / "t.ccidx"
    save_index(built, path, created=CREATED)
    shipped = read_index_bytes(path.read_bytes())
    assert shipped._stored.loaded() == ["meta"]
    shipped._check()


def test_an_empty_index(tmp_path):
    empty = Index.from_counts({})
    empty._stored._check()
    assert empty._stored.keys() == ["meta", "counts", *FAMILIES, "classes", "lemmas", "words",
                                    "order"]
    loaded = _saved(empty, tmp_path)
    assert loaded.words == [] and loaded._stored.loaded() == ["meta", "words"]  # none read
    loaded._check()


_WORDS = st.dictionaries(st.text("абвгдеё", min_size=1, max_size=6),
                         st.integers(0, 50), max_size=25)
_USES = st.lists(st.sampled_from([
    lambda ix: ix.words_of([0]), lambda ix: ix.word(0), lambda ix: ix.words,
    lambda ix: ix.sorted_ids().tolist(), lambda ix: ix.sorted_ids(reverse=True).tolist(),
    lambda ix: ix.encoded(3).codes.tolist(), lambda ix: ix.match("а*").words(),
    lambda ix: ix.match("*в?").words(), lambda ix: ix.match("??").words(),
    lambda ix: ix.same_pattern("аба").words(), lambda ix: list(ix.match("?*", WordFilter(top=3))),
    lambda ix: ix.select(WordFilter(excludes="б", contains="а")), lambda ix: ix.stats(),
    lambda ix: ix.count("а"),
]), max_size=6)


@settings(max_examples=40)
@given(counts=_WORDS, uses=_USES)
def test_a_loaded_index_answers_as_the_built_one_after_any_uses(tmp_path_factory, counts, uses):
    built = Index.from_counts(counts)
    built._stored._check()
    loaded = _saved(built, tmp_path_factory.mktemp("s"))
    ever = {"meta"}
    for use in uses:
        if not len(built):
            break
        assert use(loaded) == use(built)
        now = set(loaded._stored.loaded())
        assert ever <= now  # a section once loaded stays
        ever = now
        loaded._stored._check()
        built._stored._check()
    loaded._check()
    assert _pickled(loaded.sections()) == _pickled(built.sections())
