"""Domain type aliases shared by every system, defined once.

They are plain aliases (no runtime checks): they say what a ``str`` or an
``int`` means where a signature would otherwise be ambiguous.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Symbol", "Word", "WordId", "Count", "Template", "Pattern", "Progress"]

Word = str  # a dictionary word: NFC, lower case
Symbol = str  # one code point of a cryptarithm word: it stands for one digit
WordId = int  # the word's 0-based rank in its index (0 = most frequent)
Count = int  # how often the frequency dictionary counted a word
Template = str  # letters and wildcards, one character a position: "?р??а"
Pattern = tuple[int, ...]  # letter structure: pattern("барабан") == (0, 1, 2, 1, 0, 1, 3)
Progress = Callable[[int, int], None]  # a progress callback: (done, total)
