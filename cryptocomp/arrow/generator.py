"""Arrow-word generation: one attempt (mask and fill) and the finished puzzle (seed 001).

One *attempt* is a plain function of ``(params, seed)``: :func:`attempt` searches
a mask, fills it with the crossword engine (clued words only, commoner words and
words with more senses first, a step budget per fill) and, when ``repairs`` > 0,
lets the filler steer the mask: the region around the slot where the fill ran
out of candidates is drawn again and the fill retried.  The heavy, read-only
resources (dictionary, clues, phrases) are loaded once per process by
:func:`workshop`.  An attempt needs only the usable words (:func:`fill_attempt` takes
their :func:`arrow_lexicon`), so a batch worker needs neither the clues nor the phrases:
the batch layer sends it the workshop's word index once (:mod:`.workload`).

:func:`finish` turns a successful attempt into a puzzle, on the client and in batch
order: clues drawn, the hidden phrase chosen (each phrase at most once a batch), and the
puzzle re-checked by :mod:`.check`.  The API: :mod:`.api`.

Index families used: the workshop builds its own index of the clued words (so ranks and
ids are the clued list's), asks ``by_lengths`` whether any word fits the mask rules, and
fills through a :class:`~cryptocomp.crossword.lexicon.Lexicon` (``by_length`` and
``at(i, c)``), kept with that index by :meth:`~cryptocomp.index.Index.derived`.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..crossword import fill, with_rules
from ..crossword.grid import GridError
from ..crossword.lexicon import Lexicon
from ..crossword.problem import MAX_STEPS
from ..crossword.rules import DEFAULT_RULES, FillRules
from ..errors import CryptocompError
from ..files import shown
from ..index.classes import DEFAULTS, WordClasses
from ..index.index import Index
from ..index.store import load_index
from ..index.wordfilter import WordFilter, select
from .check import puzzle_problems
from .clues import ClueBook, load_clues
from .mask import ArrowMask, MaskRules, penalties, search_mask
from .phrases import PhraseBook, PhraseError, place_evenly, read_phrases, shipped_phrases
from .puzzle import ArrowPuzzle, ArrowWord, Hidden, ambiguity_summary

__all__ = ["ArrowParams", "ArrowError", "MaskFill", "Workshop", "attempt", "fill_attempt",
           "arrow_lexicon", "workshop", "register_workshop", "build_workshop", "check_params",
           "finish", "attempt_seed", "check_word_rules", "MIN_SIDE", "MAX_SIDE", "MAX_REPAIRS"]

log = logging.getLogger(__name__)

MIN_SIDE = 5
MAX_SIDE = 32
# each repair is one more fill within an attempt: a thousand is far past the measured use
# (2, README) and keeps an attempt's work bounded
MAX_REPAIRS = 1000
_CLUES_NONE_TOP = 30_000  # words used without a clue source: the commonest of the dictionary
# without clues, words of these languages need a vowel: it keeps out abbreviations (сс, вкл);
# words of one repeated letter (ааа) are out in every language
_VOWELS = {"en": frozenset("aeiouy"), "ru": frozenset("аеёиоуыэюя")}


class ArrowError(CryptocompError):
    """Bad arrow-word parameters or a word source that cannot make a puzzle."""


@dataclass(frozen=True)
class ArrowParams:
    """Everything an attempt depends on (small and picklable)."""

    width: int
    height: int
    source: str = "en"  # a wordfreq language code or a dictionary file
    fold_yo: bool = False
    clues: str = "auto"  # wordnet | none | a clue file | auto (wordnet for English, else none)
    phrases: str = "auto"  # a phrase file | none | auto (the shipped one for the language)
    top: int | None = None  # only the N best-ranked usable words
    classes: WordClasses | None = None  # word classes admitted (None: DEFAULTS["swedish"])
    min_score: int | None = None  # only words scoring at least this (1-100)
    steps: int = 1000  # fill step budget (words and letters placed) per fill
    repairs: int = 2  # mask repairs the filler may ask for in one attempt (README: measured)
    rules: MaskRules | None = None  # None: rules_for(width, height)
    key: str = ""  # names resources registered in-process (API calls with objects)
    word_rules: FillRules = DEFAULT_RULES  # excluded, preferred, theme words... (.rules)

    def mask_rules(self) -> MaskRules:
        """The mask rules of this size: words of at most 8 letters (measured: longer
        words made fills fail; see README)."""
        if self.rules is not None:
            return self.rules
        return MaskRules(max_len=min(8, self.width - 1, self.height - 1), long_from=6)

    def resource_key(self) -> tuple:
        return (self.key, self.source, self.fold_yo, self.clues, self.phrases, self.top,
                self.mask_rules().max_len, self.classes, self.min_score)


def check_params(params: ArrowParams) -> None:
    """Raise ArrowError for a size or budget out of range."""
    for side, name in ((params.width, "width"), (params.height, "height")):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise ArrowError(f"arrow-word {name} {side} is out of range ({MIN_SIDE} to "
                             f"{MAX_SIDE} cells)")
    if not 1 <= params.steps <= MAX_STEPS:
        raise ArrowError(f"the fill step budget must be 1 to {MAX_STEPS:,}, not {params.steps}")
    if not 0 <= params.repairs <= MAX_REPAIRS:
        raise ArrowError(f"repairs must be 0 to {MAX_REPAIRS:,}, not {params.repairs}")
    if params.top is not None and params.top < 1:
        raise ArrowError("the word source (top) must keep at least 1 word")
    if params.min_score is not None and not 1 <= params.min_score <= 100:
        raise ArrowError(f"the minimum score must be 1 to 100, not {params.min_score}")


def check_word_rules(params: ArrowParams, shop: Workshop) -> None:
    """Raise ArrowError for theme words no puzzle can have: a word the usable words lack,
    or longer than the mask's words."""
    longest = _within(params.mask_rules(), shop.lexicon.longest()).max_len
    try:
        with_rules(shop.lexicon, params.word_rules)
    except GridError as exc:
        raise ArrowError(f"{exc} (the usable words: clued, of 2 to {longest} letters)") from None
    for word in params.word_rules.theme:
        if not 2 <= len(word) <= longest:
            raise ArrowError(f"theme word {word!r} has {len(word)} letters: the arrow-word "
                             f"slots of {params.width}x{params.height} have 2 to {longest}")


# -- resources -----------------------------------------------------------------------------

@dataclass
class Workshop:
    """The read-only resources of attempts: usable words ranked, clues and phrases."""

    index: Index  # usable words, ranked: commoner words and words with more senses first
    lexicon: Lexicon
    clues: ClueBook | None
    clue_word: dict[str, str]  # dictionary spelling -> clue-book spelling (ё folding)
    phrases: PhraseBook | None
    fold_yo: bool
    source: str
    # words the index classes as abbreviations and not as dictionary words: their clues are
    # printed marked (abbr.) (empty on an unclassified index)
    abbreviations: frozenset[str] = frozenset()


_WORKSHOPS: dict[tuple, Workshop] = {}


def workshop(params: ArrowParams) -> Workshop:
    """The resources of ``params``, loaded once per process."""
    key = params.resource_key()
    got = _WORKSHOPS.get(key)
    if got is None:
        if params.key:
            raise ArrowError("the resources of this call were not registered in this process")
        got = build_workshop(params, load_index(params.source, fold_yo=params.fold_yo))
        _WORKSHOPS[key] = got
    return got


def register_workshop(params: ArrowParams, shop: Workshop) -> None:
    """Make ``shop`` the resources of ``params`` in this process (and in forked workers)."""
    _WORKSHOPS[params.resource_key()] = shop


def build_workshop(params: ArrowParams, index: Index, clues: ClueBook | None = None,
                   phrases: PhraseBook | None = None) -> Workshop:
    """Rank the usable words of ``index`` (of the word classes and minimum score
    ``params`` admit) and load clues and phrases as ``params`` say."""
    lang = index.params.get("lang")
    lang = lang if isinstance(lang, str) else None
    fold = bool(index.params.get("fold_yo")) or params.fold_yo
    spec = params.clues if params.clues != "auto" else ("wordnet" if lang == "en" else "none")
    if clues is None and spec != "none":
        clues = load_clues(spec)
    counts: dict[str, float] = {}
    clue_word: dict[str, str] = {}
    allowed = select(index, WordFilter(min_score=params.min_score,
                                       classes=params.classes or DEFAULTS["swedish"]))
    if clues is not None:
        for w in clues:
            wf = w.replace("ё", "е") if fold else w
            i = index.id_of(wf)
            if i is None or len(wf) < 2 or i not in allowed or not clues.printable(w):
                continue  # a word is placed only with a clue it can print
            # commoner words first, and among equals the words with more senses
            score = (index.counts[i] + 1) * (1 + math.log(clues.senses(w)))
            if score > counts.get(wf, -1):
                counts[wf], clue_word[wf] = score, w
        if not counts:
            raise ArrowError(f"no word of the dictionary {index.name or params.source} has a "
                             f"clue in {clues.source}")
        limit = params.top
    else:
        limit = params.top or _CLUES_NONE_TOP
        vowels = _VOWELS.get(lang or "")
        for i, w in enumerate(index.words):
            if len(counts) >= limit:
                break
            if len(w) >= 2 and w.isalpha() and len(set(w)) > 1 and i in allowed \
                    and (vowels is None or not vowels.isdisjoint(w)):
                counts[w] = index.counts[i] + 1
    usable = {w: c for w, c in counts.items() if w.isalpha()}
    if limit is not None and len(usable) > limit:
        usable = dict(sorted(usable.items(), key=lambda kv: -kv[1])[:limit])
    sub = Index.from_counts({w: max(1, int(round(c))) for w, c in usable.items()},
                            name=f"{index.name}-arrow", params={"fold_yo": fold, "lang": lang})
    rules = params.mask_rules()
    if not sub.by_lengths(2, rules.max_len):
        raise ArrowError(f"the word source has no clued word of 2 to {rules.max_len} letters")
    lexicon = arrow_lexicon(sub, rules.max_len)
    if phrases is None and params.phrases != "none":
        path = shipped_phrases(lang) if params.phrases == "auto" and lang else (
            None if params.phrases == "auto" else params.phrases)
        if path is not None:
            phrases = _phrases_for(path, sub, index, clues, fold)
    if clues is not None:
        clues.warm()
    return Workshop(sub, lexicon, clues, clue_word, phrases, fold, index.name or params.source,
                    _abbreviations(index, usable) if clues is not None else frozenset())


def _abbreviations(index: Index, words: Collection[str]) -> frozenset[str]:
    """The ``words`` that a classified ``index`` holds as abbreviations and not as
    dictionary words (none when it is unclassified)."""
    if not index.classified:
        return frozenset()
    plain = index.in_class("abbreviation") - index.in_class("dictionary")
    ids = {w: index.id_of(w) for w in words}
    return frozenset(w for w, i in ids.items() if i is not None and i in plain)


def _phrases_for(path: str | Path, words: Index, whole: Index, clues: ClueBook | None,
                 fold: bool) -> PhraseBook:
    """The phrases of ``path`` that the usable ``words`` can spell; when the file has phrases
    in the ``whole`` dictionary's letters, the few words kept (clued, or ``--top``) are at
    fault, and the error says so rather than blaming the phrase file."""
    try:
        return read_phrases(path, alphabet=words.alphabet, fold_yo=fold)
    except PhraseError as exc:
        try:
            read_phrases(path, alphabet=whole.alphabet, fold_yo=fold)
        except PhraseError:
            raise exc from None
    origin = f"clued in {clues.source}" if clues is not None else "kept by --top"
    raise ArrowError(f"the usable words ({len(words):,}, {origin}) have only the letters "
                     f"'{words.alphabet}' between them: no phrase of {shown(path)} can be "
                     f"spelt with these; clue more words, or give --phrases none")


def arrow_lexicon(words: Index, max_len: int) -> Lexicon:
    """The fill lexicon of a workshop's word index: words of 2 to ``max_len`` letters (made
    once per index and length, and kept with the index)."""
    return words.derived(("arrow-lexicon", max_len),
                         lambda: Lexicon(words, WordFilter(min_length=2, max_length=max_len)))


# -- one attempt -----------------------------------------------------------------------------

@dataclass
class MaskFill:
    """A mask and its fill, the outcome of one attempt (a batch worker sends it back as a raw
    group of :mod:`.workload`)."""

    seed: int
    ok: bool
    message: str = ""
    grid: tuple[str, ...] = ()
    words: list[tuple[str, int, int, str, tuple[int, int]]] = field(default_factory=list)
    penalty: int = 0
    hard: int = 0
    repairs: int = 0
    fill_steps: int = 0
    cpu: float = 0.0


def attempt_seed(seed: int, puzzle: int, k: int) -> int:
    """The seed of attempt ``k`` of puzzle ``puzzle`` in a batch seeded ``seed``."""
    return random.Random(f"arrowword:{seed}:{puzzle}:{k}").getrandbits(62)


def _region(mask: ArrowMask, cells: tuple, radius: int) -> list[tuple[int, int]]:
    """Inner cells within ``radius`` (Chebyshev) of ``cells``."""
    out = set()
    for r, c in cells:
        for rr in range(max(1, r - radius), min(mask.height, r + radius + 1)):
            for cc in range(max(1, c - radius), min(mask.width, c + radius + 1)):
                out.add((rr, cc))
    return sorted(out)


def attempt(params: ArrowParams, seed: int, deadline: float | None = None) -> MaskFill:
    """One attempt: a mask, its fill (and up to ``params.repairs`` steered repairs), with
    the words of this process's :func:`workshop`."""
    return fill_attempt(workshop(params).lexicon, params, seed, deadline)


def _within(rules: MaskRules, longest: int) -> MaskRules:
    """``rules`` with no word longer than the longest usable one (a mask with a longer
    slot could never be filled: the fill engine refuses it)."""
    return rules if longest >= rules.max_len else replace(rules, max_len=max(2, longest))


def fill_attempt(lexicon: Lexicon, params: ArrowParams, seed: int,
                 deadline: float | None = None) -> MaskFill:
    """One attempt with the words of ``lexicon`` (see :func:`attempt`); ``deadline`` (a
    ``time.time()``) cuts it short."""
    start = time.process_time()
    rng = random.Random(seed)
    rules = _within(params.mask_rules(), lexicon.longest())
    out = MaskFill(seed, False)
    mask, total, _ = search_mask(params.width, params.height, rules, rng, deadline=deadline)
    for round_ in range(params.repairs + 1):
        total, _, hard = penalties(mask, rules)
        out.penalty, out.hard, out.repairs = total, hard, round_
        if hard:
            out.message = f"the mask search left {hard} hard violation(s)"
            break
        remaining = None if deadline is None else max(0.01, deadline - time.time())
        try:
            result = fill(mask.grid(), lexicon, engine="csp", steps=params.steps,
                          seconds=remaining, seed=rng.getrandbits(31), rules=params.word_rules,
                          parallel=False)  # many small fills, often in a batch's workers
        except GridError as exc:  # a slot of a length no usable word has: this mask fails
            out.message = f"fill: {exc}"
            break
        out.fill_steps += result.steps
        if result.filled:
            letters = result.letters()
            out.ok = True
            out.grid = tuple("".join(letters.get((r, c), "#") for c in range(mask.width))
                             for r in range(mask.height))
            out.words = [("".join(letters[x] for x in s.cells), s.cells[0][0], s.cells[0][1],
                          s.direction, s.clue_cell) for s in mask.slots()]
            out.message = "filled"
            break
        out.message = f"fill: {result.message}"
        if deadline is not None and time.time() >= deadline:
            break
        if round_ == params.repairs or result.culprit is None:
            break
        culprit = next((s for s in mask.grid().slots if s.name == result.culprit), None)
        if culprit is None:
            break
        region = _region(mask, culprit.cells, 1)
        repair_rules = replace(rules, patience=max(200, 20 * len(region)))
        mask, _, _ = search_mask(params.width, params.height, repair_rules, rng, start=mask,
                                 movable=region, deadline=deadline)
    out.cpu = time.process_time() - start
    return out


# -- finishing a puzzle ------------------------------------------------------------------------

def _choose_phrase(book: PhraseBook, fitting: list[int], used: set[int],
                   letters: int) -> int | None:
    """The longest unused fitting phrase using at most a third of the letters (file order
    on ties)."""
    best = None
    for i in fitting:
        n = len(book[i].letters)
        if i in used or n > max(letters // 3, 4):
            continue
        if best is None or n > len(book[best].letters):
            best = i
    return best


def finish(params: ArrowParams, shop: Workshop, att: MaskFill, *, seed: int, attempts: int,
           cpu: float, used: set[int], number: int | None = None) -> ArrowPuzzle:
    """The puzzle of a successful attempt: clues drawn, hidden phrase chosen (and marked
    used), the independent checker run; ``number``: its place in the batch (from 1)."""
    rng = random.Random(f"clues:{seed}")
    words = []
    printed: set[str] = set()  # one clue printed twice in a puzzle would confuse
    for word, r, c, direction, clue_cell in att.words:
        clue = ambiguity = None
        if shop.clues is not None:
            clue, ambiguity = shop.clues.choose(shop.clue_word.get(word, word), rng,
                                                avoid=printed,
                                                abbreviation=word in shop.abbreviations)
            printed.add(clue)
        words.append(ArrowWord(word, clue, r, c, direction, (clue_cell[0], clue_cell[1]),
                               ambiguity))
    hidden = None
    reading_cells = [(r, c) for r, row in enumerate(att.grid) for c, ch in enumerate(row)
                     if ch != "#"]
    reading = "".join(att.grid[r][c] for r, c in reading_cells)
    fitting = shop.phrases.fitting(reading) if shop.phrases is not None else []
    if shop.phrases is not None:
        i = _choose_phrase(shop.phrases, fitting, used, len(reading))
        if i is not None:
            phrase = shop.phrases[i]
            positions = place_evenly(phrase.letters, reading)
            assert positions is not None
            hidden = Hidden(phrase.text, tuple(reading_cells[p] for p in positions))
            used.add(i)
    mask = ArrowMask(tuple("".join("#" if ch == "#" else "." for ch in row) for row in att.grid))
    total, _, hard = penalties(mask, _within(params.mask_rules(), shop.lexicon.longest()))
    puzzle = ArrowPuzzle(att.grid, words, hidden)
    quality = puzzle.quality()
    puzzle.stats = {
        "attempts": attempts,
        "seconds": round(cpu, 3),
        "penalties": {"total": total, "hard": hard,
                      **{k: v for k, v in quality.items() if k != "words"}},
        "phrases_fit": len(fitting) if shop.phrases is not None else None,
        "seed": att.seed,
        "repairs": att.repairs,
        "fill_steps": att.fill_steps,
        "words": len(words),
        "clue_ambiguity": ambiguity_summary(puzzle.ambiguities()),
    }
    if number is not None:
        puzzle.stats["puzzle"] = number
    problems = puzzle_problems(puzzle.to_json(), words=shop.index.__contains__,
                               clued=shop.clues is not None, fold_yo=shop.fold_yo)
    if problems:
        raise RuntimeError(f"generated puzzle breaks a rule ({len(problems)} problems): "
                           f"{problems[0]}")
    return puzzle
