"""Hidden solutions: phrases spelt by marked cells of a finished arrow-word grid (seed 001, step 3).

The grid is read row by row, left to right, letter cells only (the *reading*).
A phrase fits when its letters are a subsequence of the reading: they occur in
order, not necessarily side by side.  Its cells are then chosen so the letters
are spread as evenly as possible: the k chosen positions ``p_1 < ... < p_k`` of a
reading of n letters minimise ``sum (p_j - t_j)^2`` where ``t_j = (j + 1/2) n / k
- 1/2`` is the centre of the j-th of k equal stretches (ties: the earliest
positions).

Phrase file format (version 1)
------------------------------
UTF-8 text, one phrase a line; blank lines and lines starting with ``#`` are
skipped.  A phrase's letters are its alphabetic characters, NFC lower case
(spaces, punctuation and digits are not part of the solution); ``ё`` becomes
``е`` for a dictionary that folds it.  A phrase is usable when it has
:data:`MIN_LETTERS` to :data:`MAX_LETTERS` letters, every one in the
dictionary's alphabet, and no control, bidi, zero-width or private-use character
(the phrase is printed as written); other lines are skipped (a file with no usable phrase
is an error).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import CryptocompError
from ..files import read_text, shown
from ..index.alphabet import hidden_character, normalize
from ..shipped import shipped

__all__ = ["Phrase", "PhraseBook", "PhraseError", "read_phrases", "parse_phrases",
           "phrase_letters", "fits", "place_evenly", "spread_cost", "shipped_phrases",
           "MIN_LETTERS", "MAX_LETTERS"]

log = logging.getLogger(__name__)

MIN_LETTERS = 4
MAX_LETTERS = 60


class PhraseError(CryptocompError):
    """A phrase file cannot be read or has no usable phrase."""


@dataclass(frozen=True)
class Phrase:
    """A phrase as written and its letters (the hidden solution)."""

    text: str
    letters: str


def phrase_letters(text: str, *, fold_yo: bool = False) -> str:
    """The letters of a phrase: alphabetic characters, NFC lower case."""
    letters = "".join(ch for ch in normalize(text) if ch.isalpha())
    return letters.replace("ё", "е") if fold_yo else letters


class PhraseBook:
    """The usable phrases of a file, in file order."""

    def __init__(self, phrases: Sequence[Phrase], source: str):
        self.phrases = list(phrases)
        self.source = source

    def __len__(self) -> int:
        return len(self.phrases)

    def __getitem__(self, i: int) -> Phrase:
        return self.phrases[i]

    def fitting(self, reading: str) -> list[int]:
        """Indexes of the phrases that fit a reading."""
        return [i for i, p in enumerate(self.phrases) if fits(p.letters, reading)]


def parse_phrases(text: str, *, alphabet: str | None = None, fold_yo: bool = False,
                  source: str = "phrase file") -> PhraseBook:
    """A :class:`PhraseBook` of the usable phrases in ``text`` (see the module docstring)."""
    allowed = frozenset(alphabet) if alphabet else None
    out: list[Phrase] = []
    seen: set[str] = set()
    skipped = 0
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        letters = phrase_letters(line, fold_yo=fold_yo)
        shown = " ".join(line.split())
        if not MIN_LETTERS <= len(letters) <= MAX_LETTERS or (
                allowed is not None and not set(letters) <= allowed) or hidden_character(shown):
            skipped += 1
            continue
        if letters in seen:
            continue
        seen.add(letters)
        out.append(Phrase(shown, letters))
    if not out:
        where = " in the dictionary's alphabet" if allowed is not None else ""
        raise PhraseError(f"{source}: no usable phrase (a phrase needs {MIN_LETTERS} to "
                          f"{MAX_LETTERS} letters{where}; {skipped} line"
                          f"{'s' if skipped != 1 else ''} skipped)")
    if skipped:
        log.info("%s: %d phrase%s skipped (too short, too long, other letters or control, "
                 "bidi or zero-width characters)", source, skipped, "s" if skipped != 1 else "")
    return PhraseBook(out, source)


def read_phrases(path: str | Path, *, alphabet: str | None = None,
                 fold_yo: bool = False) -> PhraseBook:
    """Read a phrase file."""
    text = read_text(path, "phrase file", PhraseError)
    if not text:
        raise PhraseError(f"phrase file is empty: {shown(path)}")
    return parse_phrases(text, alphabet=alphabet, fold_yo=fold_yo, source=shown(path))


def shipped_phrases(lang: str) -> Path | None:
    """The phrase file shipped for a language (en, ru), or None."""
    path = shipped(f"phrases/{lang}.txt")
    return path if path.is_file() else None


def fits(letters: str, reading: str) -> bool:
    """True when ``letters`` is a subsequence of ``reading``."""
    it = iter(reading)
    return all(ch in it for ch in letters)


def spread_cost(positions: Sequence[int], n: int) -> float:
    """How unevenly ``positions`` (sorted) sit in a reading of ``n`` letters (0: perfectly)."""
    k = len(positions)
    return sum((p - ((j + 0.5) * n / k - 0.5)) ** 2 for j, p in enumerate(positions))


def place_evenly(letters: str, reading: str) -> list[int] | None:
    """The positions in ``reading`` spelling ``letters`` spread as evenly as possible (the
    least :func:`spread_cost`, earliest on ties); None when the phrase does not fit.

    Dynamic programming over (phrase letter, reading position): O(k n)."""
    k, n = len(letters), len(reading)
    if k == 0 or k > n or not fits(letters, reading):
        return None
    inf = float("inf")
    # best[j][i]: least cost of letters[:j+1] with letter j at position i
    prev_best: list[float] = []
    back: list[list[int]] = []
    for j, ch in enumerate(letters):
        target = (j + 0.5) * n / k - 0.5
        row = [inf] * n
        arg = [-1] * n
        run_min, run_arg = inf, -1
        for i in range(n):
            # the best previous letter strictly before i
            if j > 0 and i > 0 and prev_best[i - 1] < run_min:
                run_min, run_arg = prev_best[i - 1], i - 1
            if reading[i] != ch:
                continue
            base = 0.0 if j == 0 else run_min
            if base < inf:
                row[i] = base + (i - target) ** 2
                arg[i] = run_arg
        prev_best = row
        back.append(arg)
    end = min(range(n), key=lambda i: (prev_best[i], i))
    if prev_best[end] == inf:
        return None
    positions = [end]
    for j in range(k - 1, 0, -1):
        positions.append(back[j][positions[-1]])
    positions.reverse()
    return positions
