"""The terminal side of the prompt: the prompt_toolkit loop (history, completion, toolbar,
progress bars) and the non-terminal mode that reads one query a line."""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..errors import CryptocompError, QueryError
from ..index.alphabet import is_mark, normalize
from ..rendering import (
    JSON_FORMAT,
    ColorSystem,
    Result,
    banner_text,
    error_text,
    help_lines,
    help_table,
    plain_lines,
    render_ansi,
    result_json,
    result_parts,
    summary,
)
from .session import COMMANDS, Line, ProgressFactory, Session, help_rows, languages

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.history import History
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output
    from rich.console import Console, RenderableType

    from ..domain import Progress

__all__ = ["Screen", "respond", "interact", "run_lines", "completer", "open_history",
           "history_path", "delayed_progress"]

log = logging.getLogger(__name__)

Write = Callable[[str], None]  # prints ANSI text (one or more lines, no trailing newline)


def history_path() -> Path:
    """The history file, in the user's state directory."""
    import platformdirs

    return Path(platformdirs.user_state_dir("cryptocomp", appauthor=False)) / "history"


def open_history(path: Path | None, warn: Write) -> History:
    """A file history at ``path``; in memory only, with one warning, when it cannot be written."""
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    class _History(FileHistory):
        """Turns itself off with one warning when a write fails later (disk full, ...)."""

        disabled = False

        def load_history_strings(self) -> Iterable[str]:
            try:
                return list(super().load_history_strings())
            except (OSError, UnicodeError) as exc:
                warn(f"warning: cannot read history {self.filename!s}: {exc}")
                return []

        def store_string(self, string: str) -> None:
            if self.disabled:
                return
            try:
                super().store_string(string)
            except OSError as exc:
                self.disabled = True
                warn(f"warning: history disabled: cannot write {self.filename!s} "
                     f"({exc.strerror or exc})")

    if path is None:
        return InMemoryHistory()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab"):
            pass
    except OSError as exc:
        warn(f"warning: history disabled: cannot write {path} ({exc.strerror or exc})")
        return InMemoryHistory()
    return _History(str(path))


COMPLETIONS = 30  # dictionary words offered for a typed prefix
_WORD_BEFORE = frozenset("+-*/=()× ÷−")  # what may precede a word of an expression


def _typed_word(text: str) -> str:
    """The run of letters just before the cursor, if it starts a word of an expression."""
    i = len(text)
    while i and (text[i - 1].isalpha() or is_mark(text[i - 1])):
        i -= 1
    return text[i:] if (i == 0 or text[i - 1] in _WORD_BEFORE) else ""


def _choices(command: str) -> list[str]:
    """The arguments Tab offers after ``:lang`` (language codes) or ``:base`` (10 and 16
    first)."""
    if command == ":lang":
        return languages()
    return list(dict.fromkeys(["10", "16", *map(str, range(2, 37))]))


def completer(session: Session | None = None) -> Completer:
    """Tab completion: commands after ":", language codes after ":lang", bases after ":base",
    paths after ":dict", and with a ``session``, the dictionary's words (most frequent first,
    within the session's filters) for a typed prefix of a word in an expression or template."""
    from prompt_toolkit.completion import Completer, Completion, PathCompleter
    from prompt_toolkit.document import Document

    class _Completer(Completer):
        """Command names after ':', language codes after ':lang', bases after ':base', paths
        after ':dict', ':save' and ':pdf', dictionary words elsewhere."""

        paths = PathCompleter(expanduser=True)

        def get_completions(self, document: Document, complete_event: CompleteEvent
                            ) -> Iterator[Completion]:
            text = document.text_before_cursor.lstrip()
            if not text.startswith(":"):
                yield from self._words(text)
                return
            if " " not in text:
                for name in COMMANDS:
                    if name.startswith(text.lower()):
                        yield Completion(name, start_position=-len(text),
                                         display_meta=COMMANDS[name].help[:40])
                return
            name, _, arg = text.partition(" ")
            arg = arg.lstrip()
            if name in (":lang", ":base"):
                for choice in _choices(name):
                    if choice.startswith(arg.lower()):
                        yield Completion(choice, start_position=-len(arg))
            elif name in (":dict", ":save", ":pdf"):
                yield from self.paths.get_completions(Document(arg, len(arg)), complete_event)

        def _words(self, text: str) -> Iterator[Completion]:
            typed = _typed_word(text)
            if session is None or not typed:
                return
            index, s = session.index, session.settings
            try:
                found = index.match(typed + "*", s.found(index.total))
            except CryptocompError:  # a letter the dictionary lacks: nothing to offer
                return
            stem = len(normalize(typed))
            for entry in found[:COMPLETIONS]:
                rest = entry.word[stem:]
                if rest:  # the typed letters kept as typed, the rest in the same case
                    word = typed + (rest.upper() if typed.isupper() else rest)
                    yield Completion(word, start_position=-len(typed),
                                     display_meta=f"#{entry.rank:,}")

    return _Completer()


def delayed_progress(delay: float = 0.3, console: Console | None = None) -> ProgressFactory:
    """A rich progress bar (on stderr, or ``console``) that appears only if the work lasts
    longer than ``delay`` seconds: quick queries print nothing."""

    @contextmanager
    def factory(description: str) -> Iterator[Progress]:
        state: dict = {"start": time.monotonic(), "bar": None}

        def update(done: int, total: int) -> None:
            if state["bar"] is None:
                if time.monotonic() - state["start"] < delay:
                    return
                from rich.console import Console
                from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
                from rich.progress import Progress as RichProgress

                bar = RichProgress(TextColumn("{task.description}"), BarColumn(),
                                   TimeElapsedColumn(), TextColumn("Ctrl-C cancels"),
                                   console=console or Console(stderr=True), transient=True)
                bar.start()
                state["bar"], state["task"] = bar, bar.add_task(description, total=None)
            state["bar"].update(state["task"], completed=done, total=total or None)

        try:
            yield update
        finally:
            if state["bar"] is not None:
                state["bar"].stop()

    return factory


class Screen:
    """Where the prompt shows things: rich renderables turned into ANSI text for ``write``."""

    def __init__(self, write: Write, *, width: Callable[[], int] | int = 100,
                 color_system: ColorSystem | None = "standard"):
        self.write = write
        self._width = width
        self.color_system = color_system
        self._writing = False  # a write was cut short (Ctrl-C): its line may be unfinished

    @property
    def width(self) -> int:
        return self._width() if callable(self._width) else self._width

    def show(self, renderable: RenderableType, soft_wrap: bool = False) -> None:
        text = render_ansi(renderable, width=self.width, color_system=self.color_system,
                           soft_wrap=soft_wrap)
        self._writing = True
        self.write(text)
        self._writing = False

    def show_parts(self, parts: Iterable[RenderableType]) -> None:
        """Show renderables one by one, so that Ctrl-C stops a long table between pieces."""
        for part in parts:
            self.show(part)

    def cancelled(self, what: str) -> None:
        """After Ctrl-C: end a line a cut write left open, then say what was cancelled."""
        if self._writing:
            self._writing = False
            self.write("")  # a newline: the next text starts at the left margin
        self.error(f"cancelled{what}")

    def error(self, text: str) -> None:
        """An error line in bold red (plus, for an expression, the caret lines under it)."""
        from rich.text import Text

        first, _, rest = text.partition("\n")
        self.show(Text.assemble((first, "bold red"), "\n" + rest if rest else ""),
                  soft_wrap=True)


def respond(session: Session, line: Line, screen: Screen) -> bool:
    """Run one line at the prompt and show its outcome or its error; False means quit."""
    try:
        outcome = session.execute(line)
    except KeyboardInterrupt:
        screen.cancelled("")
        return True
    except CryptocompError as exc:
        screen.error(error_text(exc, width=screen.width))
        return True
    except Exception as exc:  # a bug must not cost the user the session
        log.debug("internal error on %r", line, exc_info=True)
        screen.error(f"internal error: {type(exc).__name__}: {exc} (please report it)")
        return True
    if outcome.quit:
        return False
    try:  # Ctrl-C while drawing stops the drawing only (a long table takes a while)
        if outcome.result is not None:
            screen.show_parts(result_parts(outcome.result, session.settings.shown))
        if outcome.help:
            screen.show(help_table(help_rows()))
        if outcome.message:
            screen.show(outcome.message, soft_wrap=True)
    except KeyboardInterrupt:
        screen.cancelled(": stopped drawing (:top N shows fewer rows, :save FILE keeps them "
                         "all)" if outcome.result is not None else "")
    return True


def interact(session: Session, *, input: Input | None = None, output: Output | None = None,
             history: Path | None = None,
             write: Write | None = None, width: int | None = None,
             color_system: ColorSystem | None = "standard") -> int:
    """Run the prompt until :quit or Ctrl-D; return the exit status (0).

    ``input``/``output`` are prompt_toolkit ones (tests pass a pipe input and a dummy
    output); ``write`` prints ANSI text (default: prompt_toolkit's printer); ``width``
    defaults to the terminal's.
    """
    from prompt_toolkit import PromptSession
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.formatted_text import ANSI

    if write is None:
        from prompt_toolkit import print_formatted_text

        def write(text: str) -> None:
            print_formatted_text(ANSI(text), output=output)

    screen = Screen(write, width=width or (lambda: _columns(output)), color_system=color_system)
    screen.show(banner_text(session.banner()), soft_wrap=True)
    prompt: PromptSession[str] = PromptSession(history=open_history(history, screen.error),
                           auto_suggest=AutoSuggestFromHistory(), completer=completer(session),
                           complete_while_typing=False, bottom_toolbar=session.toolbar,
                           input=input, output=output)
    while True:
        try:
            line = prompt.prompt(f"{session.short_name}> ")
        except KeyboardInterrupt:
            continue  # Ctrl-C at the prompt clears the line, like a shell
        except EOFError:
            break
        try:
            if not respond(session, line, screen):
                break
        except KeyboardInterrupt:  # a second Ctrl-C while the first was being reported
            continue
    return 0


def _columns(output: Output | None) -> int:
    try:
        return max(40, min(output.get_size().columns, 160)) if output is not None else \
            max(40, min(os.get_terminal_size().columns, 160))
    except (OSError, ValueError, AttributeError):
        return 100


# -- the non-terminal mode ---------------------------------------------------------------

def run_lines(session: Session, lines: Iterable[Line], out: TextIO, err: TextIO, *,
              as_json: bool = False) -> int:
    """Run one query a line; results to ``out``, messages and errors to ``err``.

    Plain output (no header, tab-separated, the first ``:top`` rows, all by default):
    words ``rank word per_million``; compose ``rank word per_million puzzle solution``;
    solve ``puzzle solution``, one line a solution.  With ``as_json`` every query line
    (errors included, as ``{"query": ..., "error": ...}``) prints exactly one JSON object
    on one line (JSON Lines); command lines print nothing to ``out``.
    Return 0, or 2 if some line failed.
    """
    status = 0
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        try:
            if _undecodable(line):
                shown = _readable(line)
                raise QueryError(f"line {number} is not UTF-8 text: {shown}")
            outcome = session.execute(line)
        except CryptocompError as exc:
            line = _readable(line)
            status = 2
            if as_json:
                _json_line(out, {"format": JSON_FORMAT, "query": line, "error": str(exc)})
            else:
                err.write(f"cryptocomp: {error_text(exc)}\n")
            continue
        except Exception as exc:  # a bug must not cost the user the rest of the input
            line = _readable(line)
            log.debug("internal error on %r", line, exc_info=True)
            status = 2
            message = f"internal error: {type(exc).__name__}: {exc} (please report it)"
            if as_json:
                _json_line(out, {"format": JSON_FORMAT, "query": line, "error": message})
            else:
                err.write(f"cryptocomp: {message}\n")
            continue
        if outcome.quit:
            break
        if outcome.result is not None:
            _write_result(outcome.result, session.settings.shown, out, err, as_json)
        if outcome.help:
            for text in help_lines(help_rows()):
                err.write(text + "\n")
        if outcome.message:
            err.write(f"cryptocomp: {outcome.message}\n")
        out.flush()
    return status


def _write_result(result: Result, top: int | None, out: TextIO, err: TextIO,
                  as_json: bool) -> None:
    """Writes a query's result (its first ``top`` rows) to ``out``, its summary to ``err``."""
    if as_json:
        _json_line(out, result_json(result, top))
    else:
        for text in plain_lines(result, top):
            out.write(text + "\n")
        n_shown = len(result.rows[:top]) if top is not None else \
            len(result.rows)
        if result.total == 0:
            err.write(f"cryptocomp: {summary(result)}\n")
        elif result.total > n_shown:
            err.write(f"cryptocomp: {summary(result)}; "
                      f"{result.total - n_shown:,} more not shown\n")


def _undecodable(line: str) -> bool:
    """Whether a line holds bytes that were not UTF-8 (read with errors="surrogateescape")."""
    return any("\ud800" <= ch <= "\udfff" for ch in line)


def _readable(line: str) -> str:
    """A line for an error message: bytes that were not UTF-8 as \\xNN escapes."""
    if not _undecodable(line):
        return line
    try:
        return line.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that no byte stands for
        return line.encode("utf-8", "backslashreplace").decode("utf-8")


def _json_line(out: TextIO, obj: dict) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")
