"""The dictionary indexing service: frequency dictionaries, roaring-bitmap indexes, index files.

:mod:`.alphabet` says which words belong to a language, :mod:`.freqdict` reads
``word count`` files (and exports wordfreq's lists), :mod:`.wordlists` reads and writes
scored lists (``word;score``) and lays the user's lists over a dictionary, :mod:`.personal`
keeps the user's own list live over an index, :mod:`.index` holds the
bitmaps and the encoded words and answers queries (:mod:`.family` keeps the
bitmaps, :mod:`.encoding` the letter-code matrices, :mod:`.matches` the results,
:mod:`.wildcards` plans ``*`` templates, :mod:`.wordfilter` says which words a query
may use), :mod:`.sections` holds an index's stored sections and loads each on first use,
:mod:`.state` builds, stores and checks an index's state, :mod:`.header` frames an index
file, :mod:`.store` saves and loads index files.

>>> idx = Index.from_counts({"мама": 5, "папа": 7, "баран": 9})
>>> idx.match("?а?а").words()
['папа', 'мама']
"""

from __future__ import annotations

from .encoding import Encoded
from .freqdict import FreqDict, load_freqdict
from .index import Entry, Index, Matches, pattern
from .store import build_index, load_index
from .wordfilter import WordFilter

__all__ = ["Index", "Matches", "Entry", "Encoded", "pattern", "WordFilter", "FreqDict",
           "load_freqdict", "build_index", "load_index"]
