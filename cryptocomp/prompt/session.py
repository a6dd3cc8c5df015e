"""The interactive prompt: one line in, one result (or one error) out.

A :class:`Session` holds the state a user builds up at the prompt (the
dictionary, the filters, the last results) and turns each line into a
:class:`Reply`:

=====================  ==========================================================
``SEND+MORE``          compose: every dictionary word completing a puzzle with
                       exactly one solution (``SEND+MORE=?``), most frequent first
``SEND+?=MONEY``       compose for the unknown operand
``SEND+MORE=m????``    compose with a template for the word (also ``?o???``,
                       ``[con*]``); ``:contains``, ``:excludes``, ``:length``
                       constrain the composed word too
``SEND+MORE=MONEY``    solve: count the solutions, list some; a system too
                       (``cc+a=cl && on+d=go``, comparators, ``'10'``), in ``:base B``
``?р??а``, ``пере*``   words fitting a template (``?`` or ``.`` is any letter, ``*`` any
                       run of letters)
``:same WORD``         words with the same letter structure as WORD
``:add WORD [SCORE]``  the personal list (:mod:`cryptocomp.index.personal`): add a word
``:remove WORD``       or give it a score, remove one, ``:mine`` list them; results
``:mine``              change at once, the list file is written back after each edit
``:command ...``       see :data:`COMMANDS`
=====================  ==========================================================

:data:`COMMANDS` is the command table: each name with its argument, its help and
the method that runs it.  Rendering is separate from the session
(:mod:`cryptocomp.rendering`: rich tables, tab-separated lines, JSON, CSV), and so
are the terminal loops (:mod:`.app`).

Every user error is a :class:`~cryptocomp.errors.CryptocompError`, shown as one
line (an :class:`~cryptocomp.errors.ExpressionError` adds the expression with
a caret under the faulty column); Ctrl-C cancels the running query only.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..domain import Progress
from ..errors import QueryError
from ..files import shown
from ..rendering import (
    HelpRow,
    Result,
    WordRows,
    class_column,
    plural,
    save_result,
)
from ..version import __version__
from .generating import DOUBLY_TRUE_USAGE, FROM_USAGE, doubly_true_command, from_command
from .personal import PersonalCommands
from .rating import parse_switch, switch_message, with_difficulty
from .reply import Reply
from .settings import (
    Settings,
    fraction_text,
    length_words,
    parse_base,
    parse_classes,
    parse_length,
    parse_letters,
    parse_limit,
    parse_minfreq,
    parse_time,
    parse_top,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..index.index import Entry, Index
    from ..index.personal import Overlay
    from ..index.store import Source

__all__ = ["Session", "Reply", "Command", "COMMANDS", "ALIASES", "QUERY_FORMS", "help_rows",
           "SOLUTIONS_KEPT", "Line", "Spec", "ProgressFactory", "languages"]

log = logging.getLogger(__name__)

Line = str
Spec = str  # a dictionary: "en", "ru", another wordfreq code, or a file path
ProgressFactory = Callable[[str], AbstractContextManager["Progress | None"]]

SOLUTIONS_KEPT = 10_000  # solutions a solve stores for :save (more if :top asks for more)


@contextmanager
def _no_progress(description: str) -> Iterator[None]:
    yield None


class Session(PersonalCommands):
    """The prompt's state and the dispatch of one line; knows nothing about terminals."""

    def __init__(self, index: Index, source: Source | None = None, *,
                 settings: Settings | None = None, progress: ProgressFactory | None = None,
                 list_path: Path | None = None):
        """A session on ``index``; ``source`` (from store.resolve_source) names its files;
        ``list_path``: the personal list's file (default: the index's own, see
        :func:`cryptocomp.index.personal.default_list_path`)."""
        self.index = index
        self.source = source
        self.settings = settings or Settings()
        self.last: Result | None = None
        self.progress: ProgressFactory = progress or _no_progress  # for long queries
        self.list_path = list_path
        self.overlay: Overlay = _overlay(index, list_path, self.fold_yo)

    @classmethod
    def open(cls, spec: Spec, *, fold_yo: bool = False, settings: Settings | None = None,
             progress: ProgressFactory | None = None, list_path: Path | None = None
             ) -> Session:
        """A session on a dictionary, loading (on first use, building) its index."""
        source, index = _load(spec, fold_yo, progress or _no_progress)
        return cls(index, source, settings=settings, progress=progress, list_path=list_path)

    def _check(self) -> None:
        self.settings._check()
        if self.last is not None:
            self.last._check()

    # -- description ----------------------------------------------------------------------

    @property
    def fold_yo(self) -> bool:
        return bool(self.source and self.source.fold_yo)

    @property
    def dictionary(self) -> str:
        """The dictionary as the user named it: a language code or a file path."""
        src = self.source
        if src is None:
            return self.index.name or "(unnamed)"
        return src.lang + ("+yo" if src.fold_yo else "") if src.lang else str(src.path)

    @property
    def short_name(self) -> str:
        """The dictionary in a word: its language code or its file's name."""
        src = self.source
        if src is None or src.lang:
            return self.dictionary
        return src.path.name

    def index_location(self) -> str:
        """Where this dictionary's index file lives (or that it lives in memory only)."""
        if self.source is None:
            return "memory only"
        path = self.source.index_path
        return str(path) if path.exists() else f"memory only ({path} could not be written)"

    def banner(self) -> str:
        return (f"cryptocomp {__version__} · dictionary {self.dictionary}: "
                f"{plural(len(self.index), 'word')} · index {self.index_location()}\n"
                "Type SEND+MORE to compose, SEND+MORE=MONEY to solve, ?р??а for words, "
                ":help for more.")

    def toolbar(self) -> str:
        return (f" {self.short_name} · {plural(len(self.index), 'word')} · "
                f"{self.settings.describe()} · :help ")

    # -- dispatch -------------------------------------------------------------------------

    def execute(self, line: Line) -> Reply:
        """Run one line; raise CryptocompError on bad input, KeyboardInterrupt on Ctrl-C."""
        text = line.strip()
        if not text or text.startswith("#"):
            return Reply()
        if text.startswith(":"):
            return self._command(text)
        from .queries import is_puzzle

        if is_puzzle(text):
            return self._remember(self._puzzle(text))
        return self._remember(self._words(text, self._match(text), text))

    def _remember(self, result: Result) -> Reply:
        self.last = result
        return Reply(result=result)

    def _command(self, text: str) -> Reply:
        name, _, arg = text.partition(" ")
        name = ALIASES.get(name.lower(), name.lower())
        arg = arg.strip()
        command = COMMANDS.get(name)
        if command is None:
            raise QueryError(f"unknown command {name!r} (type :help for the list)")
        return command.run(self, arg)

    def _cmd_help(self, arg: str) -> Reply:
        return Reply(help=True)

    def _cmd_quit(self, arg: str) -> Reply:
        return Reply(quit=True)

    def _cmd_same(self, arg: str) -> Reply:
        if not arg:
            raise QueryError("usage: :same WORD")
        s, idx = self.settings, self.index
        view = self.overlay if self.overlay.active else idx
        matches = view.same_pattern(arg, s.found(idx.total))
        return self._remember(self._words(f":same {arg}", matches, f"same structure as {arg}"))

    def _cmd_lang(self, arg: str) -> Reply:
        codes = languages()
        if not arg:
            return Reply(message=f"dictionary {self.dictionary}; switch with :lang CODE "
                                   f"(one of {', '.join(codes)}) or :dict PATH")
        if arg.lower() not in codes:
            raise QueryError(f"unknown language {arg!r}: use one of {', '.join(codes)} "
                             f"(:dict PATH opens a dictionary file)")
        return self._switch(arg.lower())

    def _cmd_dict(self, arg: str) -> Reply:
        if not arg:
            return Reply(message=f"dictionary {self.dictionary}; usage: :dict PATH")
        path = os.path.expanduser(arg)
        if not os.path.exists(path):
            raise QueryError(f"{arg}: no such dictionary file")
        return self._switch(path)

    def _switch(self, spec: Spec) -> Reply:
        # the old dictionary stays until the new one is fully loaded (errors, Ctrl-C)
        source, index = _load(spec, self.fold_yo, self.progress)
        overlay = _overlay(index, self.list_path, bool(source.fold_yo))
        self.index, self.source, self.last, self.overlay = index, source, None, overlay
        return Reply(message=f"dictionary {self.dictionary}: {plural(len(index), 'word')} · "
                               f"index {self.index_location()}")

    def _change_words(self, **change: Any) -> None:  # fields of WordFilter, of two types
        """Change some fields of the settings' word filter."""
        self.settings = replace(self.settings, words=replace(self.settings.words, **change))

    def _filters(self) -> Reply:
        return Reply(message=f"filters: {self.settings.describe()}")

    def _cmd_top(self, arg: str) -> Reply:
        if not arg:
            return self._filters()
        top = parse_top(arg)
        self.settings = replace(self.settings, shown=top)
        return Reply(message="showing all results" if top is None else
                       f"showing the top {top} result{'' if top == 1 else 's'}")

    def _cmd_base(self, arg: str) -> Reply:
        if not arg:
            return Reply(message=f"puzzles are solved in base {self.settings.base} (:base B, "
                                   f"2 to 36)")
        self.settings = replace(self.settings, base=parse_base(arg))
        return Reply(message=f"puzzles are solved in base {self.settings.base}"
                     + (" (compose works in base 10 only)" if self.settings.base != 10 else ""))

    def _cmd_time(self, arg: str) -> Reply:
        if arg:
            self.settings = replace(self.settings, time=parse_time(arg))
        t = self.settings.time
        return Reply(message="generations run to the end (Ctrl-C stops one; :time SECONDS "
                             "sets a budget)" if t is None else
                     f"generations (:from, :doubly-true) stop after {t:g} s, with what "
                     f"they found")

    def _cmd_difficulty(self, arg: str) -> Reply:
        if arg:
            self.settings = replace(self.settings, difficulty=parse_switch(arg, ":difficulty"))
        return Reply(message=switch_message(self.settings.difficulty))

    def _cmd_minfreq(self, arg: str) -> Reply:
        if not arg:
            return self._filters()
        value = parse_minfreq(arg)
        self.settings = replace(self.settings, minfreq=value)
        if value is None:
            return Reply(message="no frequency threshold")
        count = self.settings.min_count(self.index.total)
        times = "time" if value == 1 else "times"
        return Reply(message=f"only words used at least {fraction_text(value)} {times} per "
                               f"million (count ≥ {count:,} in {self.dictionary})")

    def _cmd_limit(self, arg: str) -> Reply:
        if not arg:
            return self._filters()
        limit = parse_limit(arg)
        self._change_words(top=limit)
        if limit is None:
            return Reply(message="using every word of the dictionary")
        return Reply(message=f"using only the {limit:,} most frequent words")

    def _cmd_contains(self, arg: str) -> Reply:
        if not arg:
            return self._filters()
        letters = parse_letters(arg, ":contains")
        clash = sorted(set(letters) & set(self.settings.words.excludes))
        if clash:
            raise QueryError(f":contains {clash[0]}: the letter is excluded (:excludes off "
                             f"clears that)")
        self._change_words(contains=letters)
        return Reply(message=f"composed words contain {letters}" if letters else
                       "composed words need not contain any letter")

    def _cmd_excludes(self, arg: str) -> Reply:
        if not arg:
            return self._filters()
        letters = parse_letters(arg, ":excludes")
        clash = sorted(set(letters) & set(self.settings.words.contains))
        if clash:
            raise QueryError(f":excludes {clash[0]}: the letter is required (:contains off "
                             f"clears that)")
        self._change_words(excludes=letters)
        return Reply(message=f"composed words contain none of {letters}" if letters else
                       "composed words may contain any letter")

    def _cmd_length(self, arg: str) -> Reply:
        if not arg:
            return self._filters()
        length = parse_length(arg)
        self._change_words(min_length=length[0], max_length=length[1])
        if length == (None, None):
            return Reply(message="composed words of any length")
        return Reply(message=f"composed words of {length_words(length)}")

    def _cmd_words(self, arg: str) -> Reply:
        if not arg:
            return Reply(message=f"word classes: {self._classes_text()} (:words CLASSES or "
                                   f":words default)")
        self.settings = replace(self.settings, classes=parse_classes(arg))
        return Reply(message=f"word classes: {self._classes_text()}")

    def _classes_text(self) -> str:
        """The word classes queries use, in a few words."""
        from ..index.classes import DEFAULTS

        chosen = self.settings.classes
        if chosen is not None:
            text = chosen.describe()
        else:
            text = (f"the defaults (compose {DEFAULTS['compose'].describe()}, templates "
                    f"{DEFAULTS['words'].describe()})")
        if not self.index.classified:
            text += f"; {self.dictionary} is unclassified: every word passes"
        return text

    def _cmd_save(self, arg: str) -> Reply:
        if not arg:
            raise QueryError("usage: :save FILE.csv or :save FILE.json")
        if self.last is None:
            raise QueryError("nothing to save yet: run a query first")
        path = Path(os.path.expanduser(arg))
        save_result(self.last, path)
        n, total, noun = len(self.last.rows), self.last.total, self.last.noun
        if n < total:  # a solve keeps only the first solutions: say so
            return Reply(message=f"saved {n:,} of {total:,} {noun}s to {shown(path)} (a solve "
                                   f"keeps the first {n:,})")
        return Reply(message=f"saved {plural(n, noun)} to {shown(path)}")

    def _cmd_pdf(self, arg: str) -> Reply:
        from .printing import print_sheet

        return Reply(message=print_sheet(self.last, arg, self.settings.shown))

    # -- queries --------------------------------------------------------------------------

    def _match(self, template: str) -> Sequence[Entry]:
        s, idx = self.settings, self.index
        view = self.overlay if self.overlay.active else idx
        return view.match(template, s.found(idx.total))

    def _words(self, query: str, matches: Sequence[Entry], title: str) -> Result:
        total, s = self.index.total, self.settings
        classes = class_column(self.index, s.found(total).classes)
        return Result("words", query, title, self.short_name,
                      WordRows(matches, total, classes), len(matches),
                      class_column=classes is not None)

    def _puzzle(self, text: str) -> Result:
        from ..cryptarithm.expr import parse
        from .queries import compose_result, composes, solve_result

        if composes(text):
            puzzle = parse(text)
            if puzzle.unknown:
                return with_difficulty(
                    compose_result(text, str(puzzle), self.index, self.overlay,
                                   self.settings, self.progress, self.short_name),
                    self.settings)
        # keep more than are shown, so that :save has them (its message says when not all)
        cap = max(SOLUTIONS_KEPT, self.settings.shown or 0)
        return with_difficulty(solve_result(text, self.settings, self.short_name, cap),
                               self.settings)


def _load(spec: Spec, fold_yo: bool, progress: ProgressFactory) -> tuple[Source, Index]:
    """Resolve a dictionary and load its index (building it, with progress, on first use)."""
    from ..index.store import load_index, resolve_source

    source = resolve_source(spec, fold_yo=fold_yo)
    with progress(f"indexing {spec}") as callback:
        return source, load_index(spec, fold_yo=fold_yo, progress=callback)


def _overlay(index: Index, list_path: Path | None, fold_yo: bool) -> Overlay:
    """The index with the user's list laid over it (the list from its file, if any)."""
    from ..index.personal import Overlay, PersonalList, default_list_path

    path = list_path or default_list_path(index.name)
    return Overlay(index, PersonalList.load(path, admits=Overlay.admits_of(index),
                                            fold_yo=fold_yo))


_LANGUAGES: list[str] = []


def languages() -> list[str]:
    """wordfreq's language codes (imported on first use: wordfreq is slow to import)."""
    if not _LANGUAGES:
        from ..index.freqdict import wordfreq_languages

        _LANGUAGES.extend(wordfreq_languages())
    return _LANGUAGES


@dataclass(frozen=True)
class Command:
    """A prompt command: the argument it takes and what it does (for :help and Tab), and
    the Session method that runs it on that argument."""

    arg: str
    help: str
    run: Callable[[Session, str], Reply]


# the command table; its order is the :help order
COMMANDS: dict[str, Command] = {
    ":help": Command("", "this help", Session._cmd_help),
    ":same": Command("WORD", "words with the letter structure of WORD (барабан ~ заказал)",
                     Session._cmd_same),
    ":lang": Command("CODE", "switch to a wordfreq language (en, ru, fr, ...)",
                     Session._cmd_lang),
    ":dict": Command("PATH", "switch to a 'word count' dictionary file (or a word list)",
                     Session._cmd_dict),
    ":top": Command("N|all", "show at most N results (all: no truncation)", Session._cmd_top),
    ":base": Command("B", "solve puzzles in base B, 2 to 36 (digits above 9 print as a-z)",
                     Session._cmd_base),
    ":minfreq": Command("F|off", "only words used at least F times per million",
                        Session._cmd_minfreq),
    ":limit": Command("N|off", "only the N most frequent words of the dictionary",
                      Session._cmd_limit),
    ":contains": Command("LETTERS|off",
                         "composed words contain these letters (ee: two e at least)",
                         Session._cmd_contains),
    ":excludes": Command("LETTERS|off", "composed words contain none of these letters",
                         Session._cmd_excludes),
    ":length": Command("N|LO-HI|off", "composed words of this length (5, 4-6, 5-, -7)",
                       Session._cmd_length),
    ":from": Command(FROM_USAGE, "every puzzle of a word list's words with one solution "
                     "(free: sums on both sides, fixed WORD, * products, N-M words)",
                     from_command),
    ":doubly-true": Command(DOUBLY_TRUE_USAGE, "sums of number words of [LO, HI] true in "
                            "words and unique (LANG: a num2words language, default en)",
                            doubly_true_command),
    ":time": Command("SECONDS|off", "stop :from and :doubly-true after SECONDS (the "
                     "puzzles found by then are shown)", Session._cmd_time),
    ":difficulty": Command("on|off", "rate the puzzles shown: a level 1 (easiest) to 5",
                           Session._cmd_difficulty),
    ":add": Command("WORD [SCORE]", "add WORD to your list, or give it a score (1-100, "
                                    "default 50): results change at once",
                    Session._cmd_add),
    ":remove": Command("WORD", "remove WORD from the results (your list keeps it out)",
                       Session._cmd_remove),
    ":mine": Command("[FROM-TO]", "list your list (a-z; FROM-TO: that range of it)",
                     Session._cmd_mine),
    ":words": Command("CLASSES|default", "word classes queries use: dictionary, name, "
                                         "abbreviation, unknown, lemma, offensive (only when "
                                         "named) or all, separated by commas",
                      Session._cmd_words),
    ":save": Command("FILE", "save the last results, all of them (solutions: the first "
                             "10,000), to FILE.csv or FILE.json", Session._cmd_save),
    ":pdf": Command("FILE [a4|letter]", "print the last puzzles shown (compose or solve) as a "
                                        "PDF sheet with an answer key", Session._cmd_pdf),
    ":quit": Command("", "leave (Ctrl-D does too)", Session._cmd_quit),
}
ALIASES = {":q": ":quit", ":exit": ":quit", ":h": ":help", ":?": ":help"}

# the lines that are not commands, in :help order
QUERY_FORMS: list[HelpRow] = [
    ("SEND+MORE", "compose: words W making SEND+MORE=W a puzzle with exactly one solution"),
    ("SEND+?=MONEY", "compose for the unknown operand"),
    ("SEND+MORE=m????", "compose with a template for the word (? a letter; [con*]: * any run)"),
    ("SEND+MORE=MONEY", "solve: count the solutions, list some"),
    ("a+b=cd && a<b", "solve a system (; or &&, = != < > <= >=, + - * / // % ^, '10'), "
                      "in :base B"),
    ("?р??а", "words fitting a template (? or . is any letter, * any run: con*, *ёж*)"),
]


def help_rows() -> list[HelpRow]:
    """What :help lists: the query forms, then each command with its argument."""
    return QUERY_FORMS + [(f"{name} {c.arg}".rstrip(), c.help) for name, c in COMMANDS.items()]
