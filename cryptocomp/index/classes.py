"""Word classes: what kind of word each dictionary word is, and which kinds a query admits.

A frequency dictionary lists everything that occurs in text.  A *classified* index also
knows, for each word, which classes it belongs to (a word may belong to several: "rose"
is a dictionary word and a name):

================  =================================================================
``dictionary``    a common word a dictionary lists, in any inflected form the source
                  knows
``name``          a proper name: people, places, brands, titles, organisations
``abbreviation``  an abbreviation or acronym
``offensive``     obscene, a slur or disparaging (never used unless named explicitly)
``unknown``       in no source: tokens, fragments, typos (computed: in none of the
                  four classes above)
``lemma``         a base form (only where the source knows base forms)
================  =================================================================

Where the source knows base forms, the index also keeps each word's *lemma group*: words
with the same group number are forms of one lemma (the crossword fillers never use two
of them in one fill).  The group number of a word is the id of its lemma when the lemma
is itself in the dictionary, else a number past the last id shared by the forms.

Stored state (sections of an index file, state version 3; see :mod:`.state`)
-----------------------------------------------------------------------------
``classes``   a bitmap family (:mod:`.family`) keyed by class name; empty when the index
              is unclassified.  ``meta["classes"]`` names the source of the classes ('' =
              unclassified).
``lemmas``    bytes: little-endian uint32 lemma group by id, or ``b""`` when the source
              knows no base forms.

A query's :class:`WordClasses` says which classes it admits: a word passes when it is in
any admitted class, and an ``offensive`` word only when ``offensive`` is admitted.  On an
unclassified index every word passes (it cannot tell).

>>> WordClasses.parse("dictionary,name").describe()
'dictionary, name'
>>> "offensive" in WordClasses.parse("all").names
False
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from pyroaring import BitMap, FrozenBitMap

from ..domain import Word
from ..errors import ExpressionError
from .family import BitmapFamily, Corrupt

__all__ = ["CLASS_NAMES", "SOURCE_CLASSES", "WordClasses", "Classification", "DEFAULTS",
           "classification_of", "given_classes", "read_classes", "read_lemmas", "check_classes",
           "lemmas_state"]

# the classes a source says; "unknown" is what no source says, "lemma" is a base form
SOURCE_CLASSES = ("dictionary", "name", "abbreviation", "offensive")
CLASS_NAMES = (*SOURCE_CLASSES, "unknown", "lemma")
_ALL = frozenset(CLASS_NAMES) - {"offensive"}  # what "all" admits: offensive only by name
_MAX_GROUP = 2**32 - 1


@dataclass(frozen=True)
class WordClasses:
    """Which word classes a query admits (see the module docstring)."""

    names: frozenset[str]

    def __post_init__(self) -> None:
        unknown = sorted(self.names - set(CLASS_NAMES))
        if unknown:
            raise ExpressionError(f"unknown word class {unknown[0]!r}: use "
                                  f"{', '.join(CLASS_NAMES)} or all")
        if not self.names:
            raise ExpressionError("no word class given: use "
                                  f"{', '.join(CLASS_NAMES)} or all")

    @classmethod
    def parse(cls, spec: str) -> WordClasses:
        """Classes from a user's text: names separated by commas (``all``: every class but
        ``offensive``; ``all,offensive``: every class)."""
        names: set[str] = set()
        for part in spec.replace(" ", ",").split(","):
            part = part.strip().lower()
            if part == "all":
                names |= _ALL
            elif part:
                names.add(part)
        return cls(frozenset(names))

    @classmethod
    def of(cls, *names: str) -> WordClasses:
        """Classes named in code."""
        return cls(frozenset(names))

    def describe(self) -> str:
        """The classes in the order of :data:`CLASS_NAMES`, joined by commas (``all`` for
        every class but offensive)."""
        if self.names == _ALL:
            return "all"
        if self.names == frozenset(CLASS_NAMES):
            return "all,offensive"
        return ", ".join(n for n in CLASS_NAMES if n in self.names)

    @property
    def only_dictionary(self) -> bool:
        """Whether only dictionary words are admitted (results need no class column)."""
        return self.names == {"dictionary"}


# what each command admits when the user says nothing (README: "Word classes")
DEFAULTS: Mapping[str, WordClasses] = {
    "compose": WordClasses.of("dictionary"),
    "words": WordClasses.of("dictionary"),
    "rack": WordClasses.of("dictionary"),
    "fill": WordClasses.of("dictionary", "name"),
    "square": WordClasses.of("dictionary", "name"),
    "swedish": WordClasses.of("dictionary"),
}


@dataclass
class Classification:
    """The classes of a ranked word list, as a source found them (ids are positions in the
    list): built with the index and stored in it."""

    source: str                                   # what classified the words ('' = nothing)
    members: dict[Hashable, FrozenBitMap] = field(default_factory=dict)  # class name -> ids
    lemmas: np.ndarray | None = None              # lemma group by id (uint32), None: unknown


def classification_of(words: Sequence[Word], classes: Mapping[Word, Iterable[str]], *,
                      source: str, lemmas: Mapping[Word, Word] | None = None) -> Classification:
    """The classification of ranked ``words`` from word-level facts: ``classes`` (word ->
    its source classes, :data:`SOURCE_CLASSES`; a word not given is unknown) and
    ``lemmas`` (word -> its base form, where known; a word not given is its own lemma)."""
    members: dict[str, BitMap] = {name: BitMap() for name in CLASS_NAMES}
    for i, word in enumerate(words):
        named = classes.get(word, ())
        for name in named:
            if name not in SOURCE_CLASSES:
                raise ValueError(f"{name!r} is not a class a source can say")
            members[name].add(i)
    known = BitMap.union(*(members[n] for n in SOURCE_CLASSES))
    members["unknown"] = BitMap(range(len(words))) - known
    groups = None
    if lemmas is not None:
        groups, own = _lemma_groups(words, lemmas)
        members["lemma"] = own
    else:
        del members["lemma"]
    # a family holds no empty bitmap: a class without words has no key
    return Classification(source, {k: FrozenBitMap(v) for k, v in members.items() if v},
                          groups)


def given_classes(classes: Mapping[Word, Iterable[str]], *, source: str = "given",
                  lemmas: Mapping[Word, Word] | None = None
                  ) -> Callable[[Sequence[Word]], Classification]:
    """What classifies ranked words by given word-level facts (see
    :func:`classification_of`): for ``Index.from_counts(..., classify=...)``."""
    return lambda words: classification_of(words, classes, source=source, lemmas=lemmas)


def _lemma_groups(words: Sequence[Word], lemmas: Mapping[Word, Word]
                  ) -> tuple[np.ndarray, BitMap]:
    """(lemma group by id, ids of the words that are their own lemma)."""
    ids = {w: i for i, w in enumerate(words)}
    groups = np.empty(len(words), dtype=np.uint32)
    extra: dict[Word, int] = {}  # lemmas not in the list: numbered past the last id
    own = BitMap()
    for i, word in enumerate(words):
        lemma = lemmas.get(word, word)
        if lemma == word:
            own.add(i)
        j = ids.get(lemma)
        # a lemma in the list that is not its own lemma (a chain a class file may give) is
        # named like a lemma outside the list: its forms form a group of their own
        if j is None or lemmas.get(lemma, lemma) != lemma:
            j = extra.setdefault(lemma, len(words) + len(extra))
        groups[i] = j
    return groups, own


# -- stored state ------------------------------------------------------------------------

def lemmas_state(groups: np.ndarray | None) -> bytes:
    """The ``lemmas`` section of lemma groups (``b""`` when none are known)."""
    return b"" if groups is None else np.asarray(groups).astype("<u4").tobytes()


def read_classes(obj: object, n: int, source: str, corrupt: Corrupt) -> BitmapFamily:
    """The ``classes`` section after checking it: a family of class bitmaps over ``n``
    words (none when ``source`` is '': the index is unclassified)."""
    family = BitmapFamily.from_state("class", obj, n, lambda k: k in CLASS_NAMES, corrupt)
    if not source and len(family):
        raise corrupt("an unclassified index has class bitmaps")
    return family


def read_lemmas(obj: object, n: int, corrupt: Corrupt) -> np.ndarray | None:
    """The ``lemmas`` section after checking it: lemma groups by id, or None."""
    if not isinstance(obj, bytes) or len(obj) not in (0, 4 * n):
        raise corrupt("the lemma groups do not match the word count")
    if not obj:
        return None
    return np.frombuffer(obj, dtype="<u4").astype(np.uint32)


def check_classes(words: Sequence[Word], family: Mapping[Hashable, FrozenBitMap],
                  groups: np.ndarray | None) -> None:
    """Verify the class invariants by plain scans: ids in range, ``unknown`` exactly the
    words in no source class, the lemma groups of the right size, ``lemma`` exactly the
    words whose group is their own id, and every group an id only when it is a lemma's."""
    n = len(words)
    if not family:
        assert groups is None or n == 0, "lemma groups without classes"
        return
    for name, bm in family.items():
        assert name in CLASS_NAMES, f"unknown class {name!r}"
        assert bm and bm.max() < n, f"class {name} is empty or holds an id past the words"
    members = {c: set(family.get(c, ())) for c in CLASS_NAMES}
    known = set().union(*(members[c] for c in SOURCE_CLASSES))
    assert members["unknown"] == set(range(n)) - known, "unknown is not 'in no class'"
    if groups is None:
        assert not members["lemma"], "a lemma class without lemma groups"
        return
    assert len(groups) == n, "lemma groups and words differ in length"
    own = {i for i in range(n) if int(groups[i]) == i}
    assert members["lemma"] == own, "lemma is not 'its own group'"
    for i in range(n):
        g = int(groups[i])
        assert g >= n or g in own, f"{words[i]!r} is in the group of a word that is no lemma"
