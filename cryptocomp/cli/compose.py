"""``cryptocomp compose`` and ``cryptocomp solve``: unique-solution cryptarithms."""

from __future__ import annotations

import argparse
import logging

from ..cryptarithm.compose import check_composable, compose_puzzle
from ..cryptarithm.difficulty import LEVELS, Difficulty, rate, rate_rows
from ..cryptarithm.explanation import explain
from ..cryptarithm.expr import parse
from ..cryptarithm.grammar import MAX_BASE, MIN_BASE
from ..cryptarithm.solve import MAX_STEPS, solve
from ..errors import CryptocompError, QueryError
from ..files import read_text, shown, write_atomic
from ..index.alphabet import normalize, refusal_warning, word_problem
from ..index.wordfilter import WordFilter, letters_of
from ..rendering import class_column, compose_json, compose_lines, compose_table, solve_lines
from .batch import add_batch_options, run_workload
from .generate import add_generation_options, check_no_generation, run_generation, wants_generation
from .options import (
    add_dict_options,
    add_list_option,
    add_word_options,
    chosen_classes,
    is_terminal,
    limit,
    no_result,
    open_index,
    personal_overlay,
    print_json,
    print_lines,
    print_rich,
    progress_bar,
    seconds,
    whole,
)
from .pdf import add_pdf_options, check_pdf

log = logging.getLogger(__name__)
_REPORTED_LINES = 5


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "compose", help="words completing LEFT (e.g. send+more) to a one-solution cryptarithm",
        description="Find every dictionary word W for which LEFT=W (or the puzzle with W in "
                    "place of '?') is a cryptarithm with exactly one solution, most frequent "
                    "first. Operators + - * / (exact division), parentheses; spaces and case "
                    "are ignored. A template in place of '?' constrains the word: "
                    "'send+more=m????', 'send+more=?o???', 'send+more=[con*]'. With --from LIST "
                    "(or --doubly-true LO-HI), every puzzle of a word list (of number words) "
                    "with exactly one solution.")
    p.add_argument("expr", nargs="?", metavar="EXPR",
                   help="e.g. 'send+more', 'send+?=money', '?-more=money', 'send+more=m????'")
    p.add_argument("--batch", nargs=2, metavar=("LEFT.txt", "RIGHT.txt"),
                   help="compose every 'a OP b' over two word lists (one word a line)")
    p.add_argument("--ops", default=None, metavar="OPS",
                   help="operators for --batch (default: +-*); for --from, + (sums, the "
                        "default) or * (products)")
    whole(p, "--top", 1, default=None, metavar="N",
          help="show at most N puzzles per query (default: 50 on a terminal, all when piped)")
    p.add_argument("--limit", type=limit, default=None, metavar="N",
                   help="use only the N most frequent words of the dictionary (N >= 1, or "
                        "off: every word, the default)")
    whole(p, "--min-count", 0, default=None, metavar="C",
          help="only words whose count is at least C")
    whole(p, "--min-length", 1, default=None, metavar="N", help="shortest word")
    whole(p, "--max-length", 1, default=None, metavar="N", help="longest word")
    p.add_argument("--contains", default="", metavar="LETTERS",
                   help="only words containing these letters (a repeated letter counts: "
                        "'ee' means at least two e)")
    p.add_argument("--excludes", default="", metavar="LETTERS",
                   help="only words containing none of these letters")
    add_word_options(p, "compose")
    p.add_argument("--json", action="store_true",
                   help="print a JSON array (--batch: JSON Lines, one object a query)")
    add_difficulty_options(p, compose=True)
    add_dict_options(p)
    add_list_option(p)
    add_batch_options(p, "queries")
    add_pdf_options(p, "a sheet of the puzzles shown (boxes for the digits) and its answer key")
    add_generation_options(p)
    p.set_defaults(run=run_compose)

    whole(p, "--base", MIN_BASE, MAX_BASE, default=10, metavar="B",
          help="the base of the puzzles (compose EXPR works in base 10 only; --from, "
               "--doubly-true and solve take any)")

    s = sub.add_parser("solve", help="solve a complete cryptarithm such as send+more=money",
                       description="Count every solution of a complete cryptarithm or system "
                                   "exactly and list the first ones: relations joined by ';' "
                                   "or '&&' (cc+a=cl && on+d=go), comparators = != < > <= >=, "
                                   "operators + - * / // % ^, prefix minus, constants in "
                                   "quotes ('10'), any alphabet, digits in words.")
    s.add_argument("puzzle", metavar="PUZZLE", help="e.g. 'send+more=money'")
    whole(s, "--base", MIN_BASE, MAX_BASE, default=10, metavar="B",
          help="the base of the digits (default 10; digits above 9 print as a-z)")
    whole(s, "--cap", 0, default=20, metavar="N",
          help="list at most N solutions (the count is exact unless a budget stops it; "
               "default 20)")
    seconds(s, "--time", default=None, metavar="SECONDS",
            help="time budget: stop counting after it (the count is then a lower bound)")
    whole(s, "--steps", 1, MAX_STEPS, default=None, metavar="N",
          help="step budget of the search engine (the count is then a lower bound)")
    s.add_argument("--json", action="store_true", help="print a JSON object")
    add_difficulty_options(s, compose=False)
    add_pdf_options(s, "the puzzle (boxes for the digits) and its answer key")
    s.set_defaults(run=run_solve)


def add_difficulty_options(p: argparse.ArgumentParser, *, compose: bool) -> None:
    """``--explain`` (both), ``--difficulty`` and ``--max-difficulty`` (compose)."""
    if compose:
        p.add_argument("--difficulty", action="store_true",
                       help="rate each puzzle shown: a level column, 1 (easiest) to 5, "
                            "and a 'difficulty' JSON field")
        whole(p, "--max-difficulty", 1, LEVELS, default=None, metavar="N",
              help="show only puzzles rated at most level N (1-5; rated lazily, in order)")
    p.add_argument("--explain", action="store_true",
                   help="the steps a person can follow to the solution (the answer key): "
                        + ("in the PDF's key and the JSON" if compose else
                           "numbered lines after the solution"))


def _check_letters(args: argparse.Namespace) -> None:
    """A QueryError naming the option whose letters are not letters."""
    for name in ("contains", "excludes"):
        try:
            letters_of(getattr(args, name), f"--{name}")
        except CryptocompError as exc:
            raise QueryError(str(exc)) from None


def _words(args: argparse.Namespace) -> WordFilter:
    """The filter the options build (``--limit`` is its ``top``); contradictions fail here,
    before the index loads."""
    return WordFilter(top=args.limit, min_count=args.min_count, min_length=args.min_length,
                      max_length=args.max_length, contains=args.contains,
                      excludes=args.excludes, classes=chosen_classes(args, "compose"),
                      min_score=args.min_score)


def run_compose(args: argparse.Namespace) -> int:
    if wants_generation(args):
        return run_generation(args)
    check_no_generation(args)
    return _run_query(args)


def _run_query(args: argparse.Namespace) -> int:
    """``compose EXPR`` and ``compose --batch``."""
    if bool(args.expr) == bool(args.batch):
        raise QueryError("give an EXPR, --batch LEFT.txt RIGHT.txt, --from LIST or "
                         "--doubly-true LO-HI (one of them)")
    if not args.batch and (args.output or args.resume or args.scheduler or args.cluster
                           or args.jobs is not None):
        raise QueryError("--jobs, --scheduler, --cluster, --output and --resume go with --batch")
    if args.batch and args.personal_list:
        raise QueryError("--list goes with one EXPR, not with --batch")
    if args.batch and args.pdf:
        raise QueryError("--pdf prints the puzzles of one EXPR, not of --batch")
    if args.batch and (args.difficulty or args.explain or args.max_difficulty is not None):
        raise QueryError("--difficulty, --max-difficulty and --explain go with one EXPR, "
                         "not with --batch")
    check_pdf(args)
    _check_letters(args)
    if args.base != 10:
        raise QueryError(f"compose works in base 10 only (its enumeration over the dictionary"
                         f" is decimal): --base {args.base} goes with solve")
    top = args.top if args.top is not None else (50 if is_terminal() and not args.json else None)
    if args.batch:
        return _run_batch(args, top)
    puzzle = parse(args.expr, fold_yo=args.fold_yo)  # bad input fails before the index loads
    check_composable(puzzle)
    words = _words(args)
    index = open_index(args)
    overlay = personal_overlay(args, index)
    with progress_bar(f"composing {puzzle}") as progress:
        if overlay is not None and overlay.active:
            results = overlay.compose(
                lambda idx, w, most: compose_puzzle(puzzle, idx, w, max_results=most,
                                                    progress=progress), words)
        else:
            results = compose_puzzle(puzzle, index, words, progress=progress)
    shown, levels = _shown(args, results, top)
    classes = class_column(index, words.classes)
    if args.json:
        rows = compose_json(shown, classes, levels)
        if args.explain:
            rows = [{**row, "explanation": list(explain(c.puzzle).lines)}
                    for row, c in zip(rows, shown)]
        print_json(rows)
    elif is_terminal():
        print_rich(compose_table(args.expr, len(results), shown, index.total, classes, levels))
    else:
        print_lines(compose_lines(shown, classes, levels))
    if not results:
        return no_result(f"{puzzle}: 0 puzzles in {index.name} (no word completes it to a "
                         f"puzzle with exactly one solution)")
    if not shown:
        return no_result(f"{puzzle}: none of the {len(results):,} puzzles is rated at most "
                         f"level {args.max_difficulty}")
    if args.pdf:
        from ..pages import composed_entries, difficulty_notes, sheet_pdf

        notes = None if levels is None else [
            difficulty_notes(c.puzzle, d, explain(c.puzzle).lines if args.explain else ())
            for c, d in zip(shown, levels)]
        write_atomic(args.pdf, sheet_pdf(composed_entries(shown, notes), paper=args.paper))
    return 0


def _shown(args: argparse.Namespace, results: list, top: int | None) -> tuple[list, list | None]:
    """The rows to show and, when asked for (``--difficulty``, ``--max-difficulty``,
    ``--explain``), their difficulties: only those rows are rated."""
    if not (args.difficulty or args.explain or args.max_difficulty is not None):
        return (results[:top] if top is not None else results), None
    rated = rate_rows((r.puzzle for r in results), top=top, max_level=args.max_difficulty)
    return [results[r.index] for r in rated], [r.difficulty for r in rated]


# -- batch -----------------------------------------------------------------------------------

def _read_words(path: str) -> list[str]:
    """The words of a batch list; lines whose word no dictionary would index (controls,
    bidi or zero-width characters: they would be printed in the output) are skipped, with
    one warning."""
    words, refused = [], []
    for n, line in enumerate(read_text(path, "word list", QueryError).splitlines(), 1):
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        why = word_problem(normalize(word))
        if why is None:
            words.append(word)
        else:
            refused.append((n, why))
    if refused:
        log.warning(refusal_warning(path, len(refused), refused[:_REPORTED_LINES]))
    if not words:
        raise QueryError(f"word list {shown(path)} is empty")
    return words


def _run_batch(args: argparse.Namespace, top: int | None) -> int:
    from ..batch import ComposeJob, ComposeWorkload, QueryGrid

    left, right = (_read_words(p) for p in args.batch)
    ops = "".join(op for op in (args.ops or "+-*") if not op.isspace())
    bad = [op for op in ops if op not in "+-*/"]
    if not ops or bad or len(set(ops)) != len(ops):
        raise QueryError(f"--ops takes operators from +-*/, each once (got {args.ops!r})")
    words = _words(args)
    if args.output and args.top is None:
        top = None  # a file gets every puzzle, whatever the terminal
    job = ComposeJob(words, shown=top, json=args.json)
    run_workload(args, ComposeWorkload(QueryGrid(left, ops, right), job))
    return 0


# -- solve -----------------------------------------------------------------------------------

_SOLVE_RATING = 2.0   # seconds: one puzzle may take longer to rate than a composed row


def run_solve(args: argparse.Namespace) -> int:
    check_pdf(args)
    with progress_bar(f"solving {args.puzzle}") as progress:
        solved = solve(args.puzzle, base=args.base, cap=args.cap, time=args.time,
                       steps=args.steps, progress=progress)
    difficulty: Difficulty | None = None
    steps: tuple[str, ...] = ()
    try:  # a puzzle is rated when unique (a system too, in any base)
        if solved.count == 1 and args.explain:
            explained = explain(solved.puzzle, seconds=_SOLVE_RATING, base=solved.base)
            difficulty, steps = explained.difficulty, explained.lines
        elif solved.count == 1:
            difficulty = rate(solved.puzzle, seconds=_SOLVE_RATING, base=solved.base)
    except CryptocompError:
        difficulty, steps = None, ()
    if args.json:
        doc = solved.to_json()
        doc["difficulty"] = None if difficulty is None else difficulty.to_json()
        if args.explain:
            doc["explanation"] = list(steps)
        print_json(doc)
    else:
        print_lines(solve_lines(solved, difficulty, steps))
    if args.pdf and solved.count:  # a puzzle without a solution is no puzzle to print
        from ..pages import difficulty_notes, sheet_pdf, solved_entry

        notes = () if difficulty is None else difficulty_notes(solved.puzzle, difficulty, steps)
        write_atomic(args.pdf, sheet_pdf([solved_entry(solved, notes)], paper=args.paper))
    return 0 if solved.count else 1
