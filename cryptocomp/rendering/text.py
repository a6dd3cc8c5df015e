"""Small pieces of text every result shows: counts with their noun, frequencies per million,
the word classes of a word."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..domain import Word, WordId
    from ..index.classes import WordClasses
    from ..index.index import Index

__all__ = ["per_million", "per_million_text", "plural", "ClassColumn", "class_column"]


class ClassColumn:
    """The word classes of the words of a result, for its class column (and JSON field)."""

    def __init__(self, index: Index):
        self.index = index

    def of(self, i: WordId, word: Word) -> list[str]:
        """The classes of ``word``, whose id is ``i`` in the index (a word laid over it by
        the user's list has another id or none: it is looked up, and one the index lacks
        is the user's dictionary word)."""
        if not (0 <= i < len(self.index)) or self.index.word(i) != word:
            j = self.index.id_of(word)
            if j is None:
                return ["dictionary"]
            i = j
        return list(self.index.classes_of(i))

    def text(self, i: WordId, word: Word) -> str:
        """The classes of ``word`` (id ``i``) joined by commas."""
        return ",".join(self.of(i, word))

    def of_word(self, word: Word) -> list[str]:
        """The classes of a word of the index (none for a word it lacks)."""
        i = self.index.id_of(word)
        return [] if i is None else list(self.index.classes_of(i))


def class_column(index: Index, classes: WordClasses | None) -> ClassColumn | None:
    """The class column of results that ``classes`` admitted from ``index`` (None: every
    word), or None when results need none: the index is unclassified, or only dictionary
    words are admitted."""
    if not index.classified or (classes is not None and classes.only_dictionary):
        return None
    return ClassColumn(index)


def per_million(count: int, total: int) -> float:
    """Uses per million words of a dictionary whose counts add up to ``total``."""
    return count * 1e6 / total if total else 0.0


def per_million_text(x: float) -> str:
    """A frequency per million in a few characters: 461, 12.13, 0.0042."""
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 0.01:
        return f"{x:.2f}"
    return f"{x:.2g}"


def plural(n: int, noun: str) -> str:
    """``n`` and the noun, in the plural unless n is 1: "1 tile", "2 tiles", "1,000 nodes"."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"
