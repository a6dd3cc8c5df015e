"""``compose --from LIST`` (``--cross N``) and ``compose --doubly-true LO-HI``: every puzzle
of a word list (or of number words) with exactly one solution, thin over
:func:`cryptocomp.cryptarithm.harvest.harvest` and
:func:`~cryptocomp.cryptarithm.harvest.cross_harvest`."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..cryptarithm.crossgen import Crossword
from ..cryptarithm.difficulty import Difficulty
from ..cryptarithm.generation import RIGHT_MODES, Generated, GenerationSpec
from ..cryptarithm.harvest import (
    CrossHarvest,
    Harvest,
    cross_harvest,
    equation_text,
    harvest,
    read_range,
    word_list,
)
from ..cryptarithm.solve import MAX_STEPS
from ..errors import BatchStopped, QueryError
from ..files import read_text, shown
from ..rendering import plural
from ..rendering.generations import (
    cross_json,
    cross_line,
    cross_table,
    harvest_footer,
    harvest_json,
    harvest_line,
    harvest_table,
)
from .options import is_terminal, live_progress, no_result, print_rich, seconds, whole

if TYPE_CHECKING:
    from ..batch.generation import CrossJob, GenerationJob

__all__ = ["add_generation_options", "wants_generation", "run_generation"]

log = logging.getLogger(__name__)
_NOTES_SHOWN = 5     # refused list lines named in the warning
_LIST_BYTES = 16 * 2**20   # a word list beyond 16 MiB is not a list of puzzle words

# compose options that choose dictionary words: they mean nothing for a list of one's own
_DICTIONARY_ONLY = {"batch": "--batch", "limit": "--limit", "min_count": "--min-count",
                    "min_length": "--min-length", "max_length": "--max-length",
                    "contains": "--contains", "excludes": "--excludes", "words": "--words",
                    "min_score": "--min-score", "dict": "--dict", "fold_yo": "--fold-yo",
                    "personal_list": "--list", "pdf": "--pdf", "explain": "--explain"}
# batch options: the search split over workers (its branches), written in its order
_BATCH = {"jobs": "--jobs", "scheduler": "--scheduler", "cluster": "--cluster",
          "output": "--output", "resume": "--resume"}
# options a split search cannot keep as one search does (--top: not into a file, whose
# groups a resume must find whole)
_NOT_BATCH = {"steps": "--steps"}
_NOT_TO_FILE = {"top": "--top"}
_GENERATION_ONLY = {"right": "--right", "min_words": "--min", "max_words": "--max",
                    "time": "--time", "steps": "--steps", "cross": "--cross"}
# --from options that shape a sum: a crossword's rows and columns are sums of N-1 words
_NOT_CROSS = {"right": "--right", "ops": "--ops", "min_words": "--min", "max_words": "--max"}


def add_generation_options(p: argparse.ArgumentParser) -> None:
    """--from, --doubly-true, --right, --min, --max, --time, --steps (``--ops``, ``--top``,
    ``--json``, ``--lang``, ``--base`` and the difficulty options are compose's)."""
    g = p.add_argument_group("generation (every puzzle of a list with exactly one solution)")
    g.add_argument("--from", dest="from_list", default=None, metavar="LIST",
                   help="a word list file (one word a line, '#' comments): every "
                        "'a + b + ... = z' of distinct list words with one solution")
    g.add_argument("--doubly-true", default=None, metavar="LO-HI",
                   help="sums of number words of [LO, HI] true in words and unique as "
                        "cryptarithms (--lang L: their language, default en)")
    g.add_argument("--right", nargs="+", default=None, metavar=("MODE", "WORD"),
                   help="the right side: unique (one list word not on the left, the "
                        "default), free (a sum of list words too) or fixed WORD")
    whole(g, "--min", 3, dest="min_words", default=None, metavar="N",
          help="at least N words a puzzle, the right one included (default 3)")
    whole(g, "--max", 3, dest="max_words", default=None, metavar="N",
          help="at most N words a puzzle, the right one included (default: no limit)")
    whole(g, "--cross", 3, default=None, metavar="N",
          help="with --from: every N×N grid of distinct list words whose rows and "
               "columns are sums (the first N-1 words add up to the last), as one system "
               "with exactly one solution")
    seconds(g, "--time", default=None, metavar="SECONDS",
            help="time budget of the search: the puzzles found by then are printed and "
                 "the list is said to be incomplete")
    whole(g, "--steps", 1, MAX_STEPS, default=None, metavar="N",
          help="step budget of the search, as --time but machine-independent: at most N "
               "candidates counted (--cross: N words placed)")


def wants_generation(args: argparse.Namespace) -> bool:
    """True when the options ask for a generation (``--from`` or ``--doubly-true``)."""
    return args.from_list is not None or args.doubly_true is not None


def check_no_generation(args: argparse.Namespace) -> None:
    """A QueryError naming a generation option given without --from or --doubly-true."""
    given = [flag for name, flag in _GENERATION_ONLY.items() if getattr(args, name) is not None]
    if given:
        if given[0] == "--cross":
            raise QueryError("--cross N goes with --from LIST (the words of the grids)")
        raise QueryError(f"{given[0]} goes with --from LIST or --doubly-true LO-HI")


def _check_options(args: argparse.Namespace) -> None:
    """One line for an option that does not go with a generation."""
    if args.from_list is not None and args.doubly_true is not None:
        raise QueryError("give --from LIST or --doubly-true LO-HI, not both")
    which = "--from" if args.from_list is not None else "--doubly-true"
    if args.expr:
        raise QueryError(f"{which} generates whole puzzles: give it without an EXPR "
                         f"({args.expr!r})")
    given = [flag for name, flag in _DICTIONARY_ONLY.items() if getattr(args, name, None)]
    if given:
        raise QueryError(f"{given[0]} goes with compose EXPR (the dictionary's words), "
                         f"not with {which}")
    if args.from_list is not None and args.lang is not None:
        raise QueryError("--lang goes with --doubly-true (the number words' language); "
                         "--from reads the words of its file")
    if args.doubly_true is not None and args.right is not None:
        raise QueryError("--right goes with --from (a doubly-true sum's right side is the "
                         "number word of its total)")
    if args.right is not None and args.right[0] == "free" and args.ops not in (None, "+"):
        raise QueryError("--right free makes sums on both sides (a + b = c + d): --ops * "
                         "goes with --right unique or fixed")
    if args.doubly_true is not None and args.ops not in (None, "+"):
        raise QueryError("--doubly-true makes sums: --ops goes with --from")
    batch = _batch_flag(args)
    if batch is not None:
        given = [flag for name, flag in _NOT_BATCH.items() if getattr(args, name) is not None]
        if given:
            raise QueryError(f"{given[0]} goes with one search in this process, not with "
                             f"{batch} (the search split over workers): give --time for a "
                             f"budget, or leave out {batch}")
        given = [flag for name, flag in _NOT_TO_FILE.items() if getattr(args, name) is not None]
        if given and args.output is not None:
            raise QueryError(f"{given[0]} goes with the puzzles printed, not with --output "
                             f"FILE (a resumed file holds every branch's puzzles)")
    if args.cross is not None:
        if args.doubly_true is not None:
            raise QueryError("--cross N goes with --from LIST, not with --doubly-true")
        given = [flag for name, flag in _NOT_CROSS.items() if getattr(args, name) is not None]
        if given:
            raise QueryError(f"{given[0]} goes with --from LIST, not with --cross N (each "
                             f"row and column of the grid is a sum of {args.cross - 1} "
                             f"words)")


class _Enough(Exception):
    """``--top`` puzzles are printed: the batch ends (the puzzles come in search order)."""


def _batch_flag(args: argparse.Namespace) -> str | None:
    """The first batch option given (the search then runs split over workers), or None."""
    return next((flag for name, flag in _BATCH.items() if getattr(args, name, None)), None)


def _run_batch(args: argparse.Namespace, job: GenerationJob | CrossJob,
               result: Harvest | CrossHarvest, title: str) -> int:
    """``compose --from/--doubly-true`` (``--cross N``) with ``--jobs``, Dask or ``--output
    FILE``: the search's branches as a batch; printed as one search prints, or into FILE
    as groups that ``--resume`` finishes."""
    from ..batch.generation import GenerationWorkload
    from ..batch.shipment import IndexShipment
    from .batch import run_workload

    start = time.monotonic()
    to_file = args.output is not None
    stream = not to_file and not args.json and not is_terminal()

    def found(puzzle: Generated | Crossword, level: Difficulty | None) -> None:
        result.puzzles.append(puzzle)  # type: ignore[arg-type]
        if result.levels is not None and level is not None:
            result.levels.append(level)
        if stream:
            line = (cross_line(puzzle, args.base, level) if isinstance(puzzle, Crossword)
                    else harvest_line(puzzle, equation_text(puzzle, args.base), level))
            print(line, flush=True)
        if args.top is not None and len(result.puzzles) >= args.top:
            raise _Enough   # the batch stops its workers and ends here

    work = GenerationWorkload(job, json=args.json, on_found=None if to_file else found)
    try:
        run_workload(args, work, shipment=IndexShipment.nothing(), show=to_file)
    except BatchStopped as exc:
        if to_file:
            raise
        result.stop = "interrupted" if exc.interrupted else "time"
    except _Enough:
        result.stop = "top"
    result.candidates, result.seconds = work.candidates, time.monotonic() - start
    if to_file:
        print(f"cryptocomp: {plural(work.puzzles, 'puzzle')} in {shown(args.output)}; the "
              f"search was complete ({plural(work.candidates, 'candidate')} counted in "
              f"{result.seconds:.1f} s)", file=sys.stderr)
        return 0 if work.puzzles else 1
    if isinstance(result, CrossHarvest):
        _print_cross(args, title, result, stream)
    else:
        _print(args, title, result, stream)
    return _status(args, title, result)


def _right(args: argparse.Namespace) -> tuple[str, str | None]:
    """The --right mode and its word."""
    if args.right is None:
        return "unique", None
    mode, *rest = args.right
    if mode not in RIGHT_MODES:
        raise QueryError(f"--right takes unique, free or fixed WORD (got {mode!r})")
    if (mode == "fixed") != bool(rest) or len(rest) > 1:
        raise QueryError("--right fixed takes one WORD (--right fixed omega); unique and "
                         "free take none")
    if not rest:
        return mode, None
    words, notes = word_list(rest[0], name="--right fixed")
    if notes or not words:
        raise QueryError(f"--right fixed {rest[0]!r}: one word of letters and digits")
    return mode, words[0]


def _list_spec(args: argparse.Namespace) -> GenerationSpec:
    """The spec of ``--from LIST`` and its options; refused lines are one warning."""
    mode, fixed = _right(args)
    text = read_text(args.from_list, "word list", QueryError, limit=_LIST_BYTES)
    words, notes = word_list(text, name=shown(args.from_list))
    more = f" (and {len(notes) - _NOTES_SHOWN} more)" if len(notes) > _NOTES_SHOWN else ""
    if len(words) + (fixed is not None and fixed not in words) < 3:
        skipped = f"; {'; '.join(notes[:_NOTES_SHOWN])}{more}" if notes else ""
        raise QueryError(f"word list {shown(args.from_list)} has {len(words)} usable "
                         f"word{'s' if len(words) != 1 else ''}: a puzzle needs at least 3 "
                         f"(two addends and the right word){skipped}")
    spec = GenerationSpec(tuple(words), right=mode, fixed=fixed,
                          min_words=args.min_words or 3, max_words=args.max_words,
                          op=args.ops or "+", base=args.base)
    if notes:   # after every check: an error is the one line
        log.warning("%s%s", "; ".join(notes[:_NOTES_SHOWN]), more)
    return spec


def _doubly_true_spec(args: argparse.Namespace) -> GenerationSpec:
    from ..cryptarithm.numberwords import check_language, doubly_true_spec

    low, high = read_range(args.doubly_true)
    try:
        check_language(args.lang or "en")
    except QueryError as exc:  # the library's line, with the option it came from
        raise QueryError(f"--lang {exc}") from None
    return doubly_true_spec(low, high, args.lang or "en", min_words=args.min_words or 3,
                            max_words=args.max_words, base=args.base)


@contextmanager
def _found_counter(title: str) -> Iterator[Callable[[int], None] | None]:
    """A live "N found" line on a terminal's stderr; None when stderr is not one."""
    if not is_terminal(sys.stderr):
        yield None
        return
    from rich.progress import TextColumn, TimeElapsedColumn

    with live_progress(TextColumn("{task.description}"), TextColumn("{task.completed} found"),
                       TimeElapsedColumn()) as bar:
        task = bar.add_task(title, total=None)
        yield lambda n: bar.update(task, completed=n)


def run_generation(args: argparse.Namespace) -> int:
    """``compose --from`` / ``--doubly-true``: the exit status (0 puzzles printed, 1 none
    exist, 3 the budget ran out before any, 130 Ctrl-C)."""
    _check_options(args)
    if args.cross is not None:
        return _run_cross(args)
    spec = _list_spec(args) if args.from_list is not None else _doubly_true_spec(args)
    title = (shown(args.from_list) if args.from_list is not None
             else f"doubly true {args.doubly_true} ({args.lang or 'en'})")
    if _batch_flag(args) is not None:
        from ..batch.generation import GenerationJob

        rated = args.difficulty or args.max_difficulty is not None
        job = GenerationJob(spec, rated=rated, max_level=args.max_difficulty,
                            deadline=_deadline(args))
        return _run_batch(args, job, Harvest(spec, levels=[] if rated else None), title)
    stream = not args.json and not is_terminal()
    with _found_counter(f"generating from {title}") as counter:
        def found(n: int, g: Generated, level: Difficulty | None) -> None:
            if stream:  # piped lines go out as found (``| head`` sees them at once)
                print(harvest_line(g, equation_text(g, spec.base), level), flush=True)
            if counter is not None:
                counter(n)

        result = harvest(spec, seconds=args.time, steps=args.steps, top=args.top,
                         rated=args.difficulty, max_level=args.max_difficulty,
                         on_found=found)
    _print(args, title, result, stream)
    return _status(args, title, result)


def _cross_words(args: argparse.Namespace) -> list[str]:
    """The words of ``--from LIST`` for ``--cross N``: at least N² of them, or one line."""
    text = read_text(args.from_list, "word list", QueryError, limit=_LIST_BYTES)
    words, notes = word_list(text, name=shown(args.from_list))
    n = args.cross
    if len(words) < n * n:
        raise QueryError(f"--cross {n} fills a {n}×{n} grid with {n * n} distinct words: word "
                         f"list {shown(args.from_list)} has {len(words)} usable")
    if notes:
        more = f" (and {len(notes) - _NOTES_SHOWN} more)" if len(notes) > _NOTES_SHOWN else ""
        log.warning("%s%s", "; ".join(notes[:_NOTES_SHOWN]), more)
    return words


def _run_cross(args: argparse.Namespace) -> int:
    """``compose --from LIST --cross N``: as :func:`run_generation`, grids for sums."""
    words = _cross_words(args)
    title = f"{shown(args.from_list)} --cross {args.cross}"
    if _batch_flag(args) is not None:
        from ..batch.generation import CrossJob

        rated = args.difficulty or args.max_difficulty is not None
        job = CrossJob(tuple(words), args.cross, args.base, rated=rated,
                       max_level=args.max_difficulty, deadline=_deadline(args))
        return _run_batch(args, job, CrossHarvest(args.cross, args.base,
                                                  levels=[] if rated else None), title)
    stream = not args.json and not is_terminal()
    with _found_counter(f"crosswords of {title}") as counter:
        def found(n: int, c: Crossword, level: Difficulty | None) -> None:
            if stream:
                print(cross_line(c, args.base, level), flush=True)
            if counter is not None:
                counter(n)

        result = cross_harvest(words, args.cross, base=args.base, seconds=args.time,
                               steps=args.steps, top=args.top, rated=args.difficulty,
                               max_level=args.max_difficulty, on_found=found)
    _print_cross(args, title, result, stream)
    return _status(args, title, result)


def _deadline(args: argparse.Namespace) -> float | None:
    """``--time`` as a ``time.time()`` instant (the clock every worker shares)."""
    return None if args.time is None else time.time() + args.time


def _print_cross(args: argparse.Namespace, title: str, result: CrossHarvest,
                 streamed: bool) -> None:
    if args.json:
        _print_doc(cross_json(title, result))
    elif not streamed:
        print_rich(cross_table(title, result, budget=args.time, top=args.top,
                               steps=args.steps))


def _print(args: argparse.Namespace, title: str, result: Harvest, streamed: bool) -> None:
    if args.json:
        _print_doc(harvest_json(title, result))
    elif not streamed:
        print_rich(harvest_table(title, result, budget=args.time, top=args.top,
                                 steps=args.steps))


def _print_doc(doc: dict) -> None:
    """The JSON object with its summary on the first line and one result a line (a list of
    593 puzzles stays readable, and ``grep`` finds a puzzle's whole line)."""
    head = {k: v for k, v in doc.items() if k != "results"}
    rows = ",\n".join(json.dumps(r, ensure_ascii=False) for r in doc["results"])
    text = json.dumps(head, ensure_ascii=False)[:-1]
    sys.stdout.write(f"{text}, \"results\": [\n{rows}\n]}}\n" if rows
                     else f"{text}, \"results\": []}}\n")


def _status(args: argparse.Namespace, title: str, result: Harvest | CrossHarvest) -> int:
    """The exit status, with the footer on stderr when stdout may not show it."""
    footer = harvest_footer(result, budget=args.time, top=args.top, steps=args.steps)
    shown_footer = is_terminal() and not args.json   # the table's last line is the footer
    if result.stop == "interrupted":
        print("cryptocomp: interrupted" if shown_footer else f"cryptocomp: {footer}",
              file=sys.stderr)
        return 130
    if not result.puzzles:
        if result.stop in ("time", "steps"):
            print(f"cryptocomp: {title}: {footer}", file=sys.stderr)
            return 3
        filtered = (f" rated at most level {args.max_difficulty}"
                    if args.max_difficulty is not None else "")
        return no_result(f"{title}: no puzzle{filtered} with exactly one solution (the "
                         f"search was complete: {plural(result.candidates, 'candidate')} "
                         f"counted)")
    if not shown_footer and not result.complete:
        print(f"cryptocomp: {footer}", file=sys.stderr)
    return 0
