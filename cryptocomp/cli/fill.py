"""``cryptocomp fill`` and ``cryptocomp square``: fill crossword grids and word squares.

Exit status: 0 filled, 1 no fill exists (proved), 3 budget exhausted, 2 bad input.
With ``--attempts N`` (N attempts with seeds --seed, --seed+1, ... on the batch layer):
0 when the batch completed, 3 when it stopped early, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..batch import AttemptJob, AttemptsWorkload
from ..batch.attempts import fill_attempt
from ..crossword import ENGINES, STRATEGIES, FillResult, SearchProgress, fill, read_grid
from ..crossword.csp import load_engine_soon
from ..crossword.grid import Grid, GridError, format_text
from ..crossword.gridfile import is_puzzle_file, read_puzzle
from ..crossword.problem import MAX_FILLS, MAX_STEPS
from ..crossword.rules import MAX_SHARED, FillRules, read_word_list
from ..crossword.square import MAX_SQUARE, MIN_SQUARE, square_grid
from ..files import check_writable, shown, write_atomic
from ..index.alphabet import normalize
from ..index.classes import DEFAULTS
from ..index.wordfilter import WordFilter
from ..pages.choices import check_printable
from ..pages.typography import language_of, square_title
from ..rendering import class_column, fill_json, fill_parts, fill_text
from ..shipped import shipped
from .batch import add_batch_options, run_workload
from .options import (
    MAX_BATCH,
    MAX_SEED,
    MIN_SEED,
    add_dict_options,
    add_word_options,
    chosen_classes,
    is_terminal,
    live_progress,
    open_index,
    print_json,
    print_rich,
    seconds,
    whole,
)
from .pdf import add_pdf_options, check_pdf

_EXIT = {"filled": 0, "no_fill": 1, "budget": 3}
SHOW_AFTER = 0.5  # seconds of search before the progress line: a quicker fill would flicker


def _add_fill_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="csp, sat, or auto: CSP first, SAT to finish or prove (default)")
    p.add_argument("--strategy", choices=STRATEGIES, default="auto",
                   help="CSP search: restarts (dom/wdeg, words, restarts), words (no restarts), "
                        "cells (a cell's letter at a time), rows (word rectangles only: "
                        "letters in reading order over tries, no propagation), or auto: rows "
                        "and words side by side on word rectangles, two restart searches and "
                        "cells elsewhere (default)")
    whole(p, "--top", 1, default=None, metavar="N", help="use only the N most frequent words")
    whole(p, "--min-count", 0, default=None, metavar="C",
          help="use only words whose count is at least C")
    whole(p, "--min-length", 1, default=1, metavar="L", help="shortest word allowed (default 1)")
    whole(p, "--max-length", 1, default=None, metavar="L", help="longest word allowed")
    p.add_argument("--no-two", action="store_true",
                   help="2-letter words are not allowed (same as --min-length 3)")
    add_word_options(p, "fill")
    whole(p, "--count", 1, MAX_FILLS, default=1, metavar="K",
          help="find K different fills (kept in memory and printed at the end)")
    whole(p, "--steps", 0, MAX_STEPS, default=None, metavar="N",
          help="step budget: CSP search nodes (SAT: conflicts)")
    seconds(p, "--time", default=None, metavar="SECONDS",
            help="time budget of the whole attempt (wall clock; every engine stops within it)")
    whole(p, "--seed", MIN_SEED, MAX_SEED, default=None,
          help="random seed for tie-breaks (reproducible, different fills)")
    seconds(p, "--improve", default=None, metavar="SECONDS",
            help="once filled, spend up to SECONDS more on fills whose rarest word is "
                 "commoner (within --time; one fill, not with --attempts)")
    p.add_argument("--order", choices=("lookahead", "frequency"), default="lookahead",
                   help="CSP value order: look-ahead on crossing support weighed with "
                        "frequency (default), or frequency alone")
    whole(p, "--letter-branch", 0, default=0, metavar="N",
          help="CSP word strategies: branch on a crossed cell's letter while the chosen slot "
               "has more than N candidates (default 0: always on words)")
    whole(p, "--attempts", 1, MAX_BATCH, default=None, metavar="N",
          help="N attempts with seeds --seed (default 0), --seed+1, ..., on all cores or a "
               "Dask cluster; each attempt's outcome and grid in seed order")
    p.add_argument("--json", action="store_true",
                   help="print the result as JSON (--attempts: JSON Lines, one an attempt)")
    p.add_argument("--ipuz", metavar="PATH", help="write the (first) fill as an ipuz file")
    p.add_argument("--svg", metavar="PATH", help="write an SVG of the grid")
    p.add_argument("--svg-solution", action="store_true",
                   help="draw the solution letters in the SVG")
    p.add_argument("--puz", metavar="PATH", help="write the (first) fill as an Across Lite .puz")
    p.add_argument("--jpz", metavar="PATH",
                   help="write the (first) fill as a Crossword Compiler .jpz")
    p.add_argument("--clues", metavar="FILE",
                   help="word<TAB>clue file for the ipuz, .puz, .jpz and PDF clue lists (.puz, "
                        ".jpz and PDF without it: the shipped WordNet clues for English)")
    add_dict_options(p)
    add_batch_options(p, "attempts")
    add_fill_rule_options(p)
    add_pdf_options(p, "the grid and its clues", layout=True)


def add_fill_rule_options(p: argparse.ArgumentParser) -> None:
    """The options on a fill's words (:mod:`cryptocomp.crossword.rules`), one group."""
    g = p.add_argument_group("word options")
    g.add_argument("--exclude", metavar="FILE",
                   help="words the fill must not use (one word a line)")
    g.add_argument("--prefer", metavar="FILE",
                   help="words the search tries before the others (one word a line)")
    g.add_argument("--theme", metavar="WORDS",
                   help="comma-separated words the fill must contain, placed in slots that fit")
    whole(g, "--max-shared-substring", 1, MAX_SHARED, default=None, metavar="N",
          help="no two answers share a run of N+1 letters")
    g.add_argument("--allow-same-lemma", action="store_true",
                   help="allow two forms of one lemma (by default not, where the dictionary "
                        "knows lemmas)")


def word_rules(args: argparse.Namespace, *, fold_yo: bool) -> FillRules:
    """The rules on a fill's words that the options say (their files read)."""
    def listed(path: str | None, what: str) -> frozenset[str]:
        return frozenset(read_word_list(path, what, fold_yo=fold_yo)) if path else frozenset()

    theme: tuple[str, ...] = ()
    if args.theme is not None:
        theme = tuple(normalize(w.strip(), fold_yo=fold_yo) for w in args.theme.split(","))
        if not all(theme):
            raise GridError(f"--theme {args.theme!r}: expected comma-separated words, like "
                            f"'alpha,beta'")
    return FillRules(exclude=listed(args.exclude, "--exclude list"),
                     prefer=listed(args.prefer, "--prefer list"), theme=theme,
                     max_shared=args.max_shared_substring, same_lemma=args.allow_same_lemma)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("fill", help="fill a crossword grid with dictionary words",
                       description="Fill a grid (text: # block, . empty, letters given; a "
                                   "slot list 'W H' + 'x y len h|v'; or .ipuz, .puz, .jpz; "
                                   "at most "
                                   "1000x1000) so every slot holds a different dictionary "
                                   "word, common words first.")
    p.add_argument("grid", help="grid file (.txt text grid, slot list, .ipuz, .puz or .jpz), "
                                "or the name "
                                "of a shipped grid (american15)")
    _add_fill_options(p)
    p.set_defaults(run=run_fill, kind="fill")
    q = sub.add_parser("square", help="an N x N word square (rows and columns are words)",
                       description="Fill an N x N square without blocks: --double (default) "
                                   "wants 2N different words, --symmetric rows equal to "
                                   "columns.")
    whole(q, "n", MIN_SQUARE, MAX_SQUARE, name="the square size N", help="the size N")
    kind = q.add_mutually_exclusive_group()
    kind.add_argument("--double", action="store_true", help="rows and columns all different")
    kind.add_argument("--symmetric", action="store_true", help="row i equals column i")
    _add_fill_options(q)
    q.set_defaults(run=run_square, kind="square")


def _check_args(args: argparse.Namespace) -> None:
    # each number's own bounds are checked as it is parsed (options.whole, options.seconds)
    if args.attempts is None and (args.output or args.resume or args.scheduler or args.cluster
                                  or args.jobs is not None):
        raise GridError("--jobs, --scheduler, --cluster, --output and --resume go with "
                        "--attempts N")
    if args.improve is not None and (args.count != 1 or args.attempts is not None):
        raise GridError("--improve improves one fill: it goes with neither --count nor "
                        "--attempts (whose outcomes must not depend on the clock)")
    if args.attempts is not None:
        for name in ("ipuz", "svg", "clues", "puz", "jpz", "pdf"):
            if getattr(args, name):
                raise GridError(f"--{name} writes one fill: it does not go with --attempts "
                                f"(the batch's output has every attempt's grid)")




def _grid_path(name: str) -> Path:
    """A grid file, or the name of a shipped grid (``american15``)."""
    path = Path(name)
    if not path.exists() and shipped(f"grids/{name}.txt").is_file():
        return shipped(f"grids/{name}.txt")
    return path


def run_fill(args: argparse.Namespace) -> int:
    _check_args(args)
    _check_outputs(args)
    path = _grid_path(args.grid)
    if is_puzzle_file(path):  # its circles and credits go on to a .puz or .jpz written
        args.source_puzzle = read_puzzle(path)
        grid = args.source_puzzle.grid
    else:
        grid = read_grid(path)
    return _run(args, grid, title=shown(Path(args.grid).stem))  # a title is text, not bytes


def run_square(args: argparse.Namespace) -> int:
    _check_args(args)
    _check_outputs(args)
    grid = square_grid(args.n, symmetric=args.symmetric)
    return _run(args, grid, title="")  # named in the dictionary's language once it is open


def _words(args: argparse.Namespace) -> WordFilter:
    """The words a fill may use, as the options say (--no-two: at least 3 letters)."""
    return WordFilter(top=args.top, min_count=args.min_count,
                      min_length=max(args.min_length, 3 if args.no_two else 1),
                      max_length=args.max_length, min_score=args.min_score,
                      classes=chosen_classes(args, args.kind))


def _run_attempts(args: argparse.Namespace, grid: Grid) -> int:
    """N seeded attempts on the batch layer, written in seed order."""
    from ..crossword.csp import load_engine

    load_engine()  # compiled here once (and said so), not in every worker at once
    words = _words(args)
    # the filter's fields by the names batch identities have always had
    params = {"grid": grid, "engine": args.engine, "count": args.count, "top": words.top,
              "min_count": words.min_count, "min_length": words.min_length,
              "max_length": words.max_length, "steps": args.steps, "seconds": args.time,
              "lookahead": args.order == "lookahead",
              "letter_branch": args.letter_branch, "strategy": args.strategy}
    # the word classes and score are named only when not the default, so that the batches
    # of the default resume as before
    if words.classes != DEFAULTS[args.kind]:
        params["classes"] = words.classes.describe() if words.classes else None
    if words.min_score is not None:
        params["min_score"] = words.min_score
    rules = word_rules(args, fold_yo=getattr(args, "fold_yo", False))
    identity = {k: v for k, v in params.items() if k != "grid"}
    identity["grid"] = format_text(grid)
    if rules.restricts:  # the identities of batches without word options stay as they were
        params["rules"] = rules
        identity["rules"] = rules.identity()
    work = AttemptsWorkload(args.kind, AttemptJob(fill_attempt, params, json=args.json),
                            args.attempts, first_seed=args.seed or 0, identity=identity,
                            seconds=args.time)
    run_workload(args, work)
    return 0


def _run(args: argparse.Namespace, grid: Grid, *, title: str) -> int:
    if args.attempts is not None:
        return _run_attempts(args, grid)
    if args.pdf:  # before the fill: a grid too large to print fails at once
        check_printable(grid.width, grid.height)
    clues = None
    if args.clues:
        from ..crossword.ipuz import read_clues

        clues = read_clues(args.clues)
    words = _words(args)
    load_engine_soon()  # compiled (on first use) while the index loads
    index = open_index(args)
    if args.kind == "square":
        lang = index.params.get("lang") or language_of([index.alphabet])  # a --dict file: none
        title = square_title(args.n, str(lang))
    rules = word_rules(args, fold_yo=index.fold_yo)
    with _search_progress(f"filling {title}") as progress:
        result = fill(grid, index, words, engine=args.engine, count=args.count,
                      steps=args.steps, seconds=args.time,
                      seed=args.seed, lookahead=args.order == "lookahead",
                      letter_branch=args.letter_branch, strategy=args.strategy,
                      improve=args.improve, progress=progress, rules=rules)
    classes = class_column(index, words.classes)
    if args.json:
        print_json(fill_json(result, classes))
    elif is_terminal():
        print_rich(fill_parts(result, classes))
    else:
        sys.stdout.write(fill_text(result, classes))
    # after the result is shown: a write that fails (a full disk) does not cost the fill
    _write_files(args, result, clues, title)
    _write_published(args, result, clues, title, index.params.get("lang"))
    return _EXIT[result.status]


def _check_outputs(args: argparse.Namespace) -> None:
    """Fail before the fill when an output file cannot be written (no such directory)."""
    for path in (args.ipuz, args.svg, args.puz, args.jpz):
        if path:
            check_writable(path)
    check_pdf(args)


@contextmanager
def _search_progress(title: str) -> Iterator[Callable[[SearchProgress], None] | None]:
    """A live line on a terminal (stderr) once the search has run SHOW_AFTER seconds: its
    steps, its best partial fill, the time; None, i.e. quiet, when stderr is not one."""
    if not is_terminal(sys.stderr):
        yield None
        return
    from rich.progress import TextColumn, TimeElapsedColumn

    # refreshed by rich's thread (the time runs on while SAT works), four times a second: it
    # takes the interpreter between two slices of the compiled search, never within one
    line = live_progress(TextColumn("{task.description}:"), TextColumn("{task.fields[info]}"),
                         TimeElapsedColumn(), refresh_per_second=4)
    task = line.add_task(title, start=False, info="")
    first: float | None = None  # when the search first told its progress
    shown = False

    def update(p: SearchProgress) -> None:
        nonlocal first, shown
        if first is None:
            first = time.monotonic()
            line.start_task(task)  # the time counts from the search, not from compiling
        elif not shown and time.monotonic() - first >= SHOW_AFTER:
            shown = True
            line.start()
        best = "" if p.settled is None else f", best partial fill {p.settled} of {p.slots} slots"
        found = f", {p.found} found" if p.found else ""
        line.update(task, info=f"{p.steps:,} steps{best}{found}")

    try:
        yield update
    finally:
        if shown:
            line.stop()


def _write_files(args: argparse.Namespace, result: FillResult, clues: dict[str, str] | None,
                 title: str) -> None:
    first = result.fills[0] if result.fills else None
    if args.ipuz:
        from ..crossword.ipuz import to_ipuz

        source = getattr(args, "source_puzzle", None)  # a .puz or .jpz read: its circles
        doc = to_ipuz(result.grid, first, clues=clues, title=title,
                      circles=source.circles if source else ())
        write_atomic(args.ipuz, (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode())
    if args.svg:
        from ..crossword.svg import to_svg

        letters = result.letters() if (args.svg_solution and result.fills) else None
        if letters is None and not result.fills:
            letters = dict(result.grid.given) or None
        write_atomic(args.svg, to_svg(result.grid, letters).encode())
    if args.pdf:
        _write_pdf(args, result, clues, title)


def _write_pdf(args: argparse.Namespace, result: FillResult, clues: dict[str, str] | None,
               title: str) -> None:
    """The fill's PDF; clues from --clues, else the shipped WordNet clues (English)."""
    from ..pages import crossword_pdf, shipped_clues

    first = result.fills[0] if result.fills else None
    if clues is None and first:
        clues = shipped_clues(first)
    write_atomic(args.pdf, crossword_pdf(result.grid, first, clues=clues, title=title,
                                         layout=args.layout, paper=args.paper))



# -- .puz and .jpz ---------------------------------------------------------------------------

def _published_clues(clues: dict[str, str] | None, lang: object) -> Callable[[str], str | None]:
    """A fill's clue source for .puz and .jpz: --clues, else WordNet for English, else none."""
    if clues is not None:
        return clues.get
    if lang != "en":
        return lambda word: None
    from ..arrow.clues import load_clues

    book = load_clues("wordnet")

    def pick(word: str) -> str | None:
        try:
            return book.pick(word)
        except KeyError:
            return None
    return pick


def _write_published(args: argparse.Namespace, result: FillResult,
                     clues: dict[str, str] | None, title: str, lang: object) -> None:
    """Write the --puz and --jpz files of the first fill (else of the grid alone)."""
    if not (args.puz or args.jpz):
        return
    from ..crossword.jpz import to_jpz
    from ..crossword.puz import to_puz
    from ..crossword.puzzle import Puzzle, puzzle_of

    source: Puzzle | None = getattr(args, "source_puzzle", None)
    first = result.fills[0] if result.fills else None
    puzzle = puzzle_of(result.grid, first, clues=_published_clues(clues, lang) if first else None,
                       circles=source.circles if source else (),
                       title=(source.title if source else "") or title,
                       author=source.author if source else "",
                       copyright=source.copyright if source else "")
    # both are made before either is written: a grid one format cannot hold writes neither
    files = [(path, write(puzzle)) for path, write in ((args.puz, to_puz), (args.jpz, to_jpz))
             if path]
    for path, data in files:
        write_atomic(path, data)
