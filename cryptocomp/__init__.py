"""cryptocomp: word-puzzle composition over frequency dictionaries.

A tour on a tiny dictionary (scripts load real ones with ``load_index("en")``):

>>> from cryptocomp import Index, pattern
>>> idx = Index.from_counts({"money": 50, "honey": 20, "mommy": 5, "send": 40})
>>> idx.match("?oney").words()
['money', 'honey']
>>> pattern("mommy")
(0, 1, 0, 0, 2)
>>> idx.same_pattern("daddy").words()
['mommy']
>>> [(e.word, e.count, e.rank) for e in idx.match("s???")]
[('send', 40, 2)]
"""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import CryptocompError, DictionaryError, ExpressionError, IndexFileError, QueryError
from .freqdict import FreqDict, load_freqdict
from .index import Entry, Index, Matches, pattern
from .store import build_index, load_index

__all__ = [
    "__version__",
    "Index", "Matches", "Entry", "pattern",
    "load_index", "build_index", "load_freqdict", "FreqDict",
    "CryptocompError", "DictionaryError", "IndexFileError", "QueryError", "ExpressionError",
]
