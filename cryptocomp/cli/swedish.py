"""``cryptocomp swedish``: arrow-word (Swedish) puzzles with a hidden solution.

``--count N`` runs on the batch layer (:mod:`cryptocomp.arrow.workload`): local worker
processes, or Dask (``--scheduler``/``--cluster``); ``--output FILE`` writes JSON Lines that
``--resume`` finishes.  Exit status: 0 every puzzle finished, 3 fewer (time or attempts ran
out, or the batch stopped: resume it), 2 bad input, 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..arrow.generator import MAX_REPAIRS, MAX_SIDE, MIN_SIDE, ArrowError, ArrowParams
from ..arrow.puzzle import ArrowPuzzle, ambiguity_summary
from ..crossword.problem import MAX_STEPS
from ..files import check_writable, shown, write_atomic
from .batch import add_batch_options, run_workload
from .fill import add_fill_rule_options, word_rules
from .options import (
    MAX_BATCH,
    MAX_SEED,
    MIN_SEED,
    add_dict_options,
    add_word_options,
    dict_spec,
    print_json,
    seconds,
    whole,
)
from .pdf import add_pdf_options, check_pdf

if TYPE_CHECKING:
    from ..batch import IndexShipment, Workload

log = logging.getLogger("cryptocomp")

# ASCII digits, as every number (cryptocomp.numbers): re's \d would take "٣"
_SIZE = re.compile(r"^\s*([0-9]{1,40})\s*(?:[xX×*]\s*([0-9]{1,40}))?\s*$")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "swedish", help="arrow-word (Swedish) puzzles with a hidden solution",
        description="Generate arrow-word puzzles: clue cells with arrows instead of black "
                    "cells, every letter in an across and a down word, a hidden phrase "
                    "spelt by marked cells. English clues come from WordNet 3.0.")
    p.add_argument("--size", required=True, metavar="WxH",
                   help=f"grid size in cells, e.g. 12x12 ({MIN_SIDE} to {MAX_SIDE} a side)")
    p.add_argument("--clues", default="auto", metavar="wordnet|FILE|none",
                   help="clue source: wordnet (English), a word<TAB>clue file, or none "
                        "(numbered clue cells and an answer list); default wordnet for "
                        "English, none otherwise")
    p.add_argument("--phrases", default="auto", metavar="FILE|none",
                   help="hidden-solution phrases, one a line (default: the shipped "
                        "proverbs for en and ru)")
    whole(p, "--count", 1, MAX_BATCH, default=1, metavar="N",
          help="puzzles to make (JSON Lines with --json)")
    whole(p, "--seed", MIN_SEED, MAX_SEED, default=0,
          help="random seed (same seed, same puzzles)")
    seconds(p, "--time", default=None, metavar="S",
            help="wall-clock budget of the whole run, seconds")
    whole(p, "--top", 1, default=None, metavar="N",
          help="use only the N best-ranked usable words (default: every clued word; 30000 "
               "with --clues none)")
    add_word_options(p, "swedish")
    whole(p, "--steps", 1, MAX_STEPS, default=1000, metavar="N",
          help="fill step budget of one attempt (default 1000)")
    whole(p, "--repairs", 0, MAX_REPAIRS, default=2, metavar="N",
          help="mask repairs the filler may ask for within one attempt (default 2; 0: a new "
               "mask after every failed fill)")
    whole(p, "--attempts", 1, MAX_BATCH, default=200, metavar="N",
          help="attempts a puzzle at most (default 200)")
    whole(p, "--workers", 1, default=None, metavar="N", dest="jobs",
          help="same as --jobs")
    p.add_argument("--json", action="store_true", help="print JSON (one object a puzzle)")
    p.add_argument("--svg", metavar="FILE", help="write the puzzle as SVG (FILE-2.svg ... "
                                                 "for further puzzles)")
    p.add_argument("--svg-solution", metavar="FILE", help="write the solution as SVG")
    add_dict_options(p)
    add_batch_options(p, "puzzles")
    add_fill_rule_options(p)
    add_pdf_options(p, "the puzzles (one a page, then their solutions)")
    p.set_defaults(run=run)


def parse_size(text: str) -> tuple[int, int]:
    """``12x12`` (or ``12``) as (width, height)."""
    m = _SIZE.match(text)
    if not m:
        raise ArrowError(f"--size {text!r}: expected WxH, like 12x12")
    w = int(m.group(1))
    h = int(m.group(2)) if m.group(2) else w
    return w, h


def _numbered(path: str, i: int) -> Path:
    """FILE for the first puzzle, FILE-2.svg, FILE-3.svg ... for the next ones."""
    p = Path(path)
    return p if i == 0 else p.with_name(f"{p.stem}-{i + 1}{p.suffix or '.svg'}")


def run(args: argparse.Namespace) -> int:
    import tempfile
    import time

    from ..arrow.generator import check_params, check_word_rules, workshop
    from ..arrow.workload import ArrowWorkload, ship_words
    from ..crossword.csp import load_engine, load_engine_soon

    width, height = parse_size(args.size)  # the other numbers are checked as parsed
    for path in (args.svg, args.svg_solution):
        if path:  # fail before any work (the numbered files share its directory)
            check_writable(path)
    _check_pdf(args)
    params = ArrowParams(width, height, source=dict_spec(args), fold_yo=args.fold_yo,
                         clues=args.clues, phrases=args.phrases, top=args.top,
                         steps=args.steps, repairs=args.repairs, classes=args.words,
                         min_score=args.min_score,
                         word_rules=word_rules(args, fold_yo=args.fold_yo))
    check_params(params)
    load_engine_soon()  # compiled (on first use) while the dictionary and clues load
    shop = workshop(params)  # loads dictionary, clues and phrases: errors surface before work
    check_word_rules(params, shop)
    log.info("words: %d usable (%s), clues: %s, phrases: %s", len(shop.index),
             shop.source, shop.clues.source if shop.clues else "none (numbered cells)",
             f"{len(shop.phrases)} from {shop.phrases.source}" if shop.phrases else "none")

    ambiguities: list[int] = []  # every clue printed in this run (summary line)
    printed: dict[int, ArrowPuzzle] = {}  # the puzzles for --pdf, by place in the batch

    def emit(i: int, puzzle: ArrowPuzzle) -> None:
        ambiguities.extend(puzzle.ambiguities())
        show(i, puzzle)  # first: a write that fails (a full disk) does not cost the puzzle
        if args.pdf:
            printed[i] = puzzle
        if args.svg or args.svg_solution:
            from ..arrow.svg import arrow_svg

            if args.svg:
                write_atomic(_numbered(args.svg, i), arrow_svg(puzzle).encode())
            if args.svg_solution:
                write_atomic(_numbered(args.svg_solution, i),
                             arrow_svg(puzzle, solution=True).encode())

    def show(i: int, puzzle: ArrowPuzzle) -> None:
        if args.output:
            return  # the puzzles go to the output file
        if args.json:
            if args.count > 1:
                sys.stdout.write(json.dumps(puzzle.to_json(), ensure_ascii=False) + "\n")
                sys.stdout.flush()
            else:
                print_json(puzzle.to_json())
        else:
            if i:
                print()
            print(f"# puzzle {i + 1}: {puzzle.width}x{puzzle.height}, "
                  f"{len(puzzle.words)} words, attempt {puzzle.stats['attempts']}, "
                  f"{puzzle.stats['seconds']:.2f} s CPU")
            print(puzzle.text(), end="", flush=True)

    with tempfile.TemporaryDirectory(prefix="cryptocomp-arrow-") as tmp:
        shipment = ship_words(shop, Path(tmp))
        load_engine()  # compiled once after installing; the workers load it from the cache
        # the budget counts from here: the dictionary, clues, phrases and engine are loaded
        deadline = None if args.time is None else time.time() + args.time
        work = ArrowWorkload(params, shop, count=args.count, seed=args.seed,
                             max_attempts=args.attempts, deadline=deadline, on_puzzle=emit)
        _run_and_print(args, work, shipment, printed)
    log.info("%d of %d puzzles made in this run (%d attempt%s, %.1f s CPU)%s", work.finished,
             args.count, work.attempts, "s" if work.attempts != 1 else "", work.cpu,
             f"; {work.failed} found no fill" if work.failed else "")
    spread = ambiguity_summary(ambiguities)
    if spread is not None:
        log.info("clue ambiguity (other clued words of the same length with the same clue): "
                 "median %g, 90th percentile %g over %d clues", spread["median"],
                 spread["p90"], len(ambiguities))
    return 0 if not work.failed else 3


def _run_and_print(args: argparse.Namespace, work: Workload, shipment: IndexShipment,
                   printed: dict[int, ArrowPuzzle]) -> None:
    """Run the batch; with --pdf, print the puzzles made, also when Ctrl-C or the time
    budget stopped it (the stop is raised after the PDF is written)."""
    try:
        run_workload(args, work, shipment=shipment, show=False)
    finally:
        if printed:
            _write_pdf(args, [printed[i] for i in sorted(printed)])


def _check_pdf(args: argparse.Namespace) -> None:
    """--pdf: writable, and not with --resume (a resumed batch replays no puzzle to print)."""
    check_pdf(args)
    if args.pdf and args.resume:
        raise ArrowError("--pdf prints the puzzles of one run: it does not go with --resume "
                         "(run the batch with --pdf in one go)")


def _write_pdf(args: argparse.Namespace, puzzles: list[ArrowPuzzle]) -> None:
    """One PDF of the puzzles made, a page each, then their solutions."""
    from ..pages import arrow_pdf

    write_atomic(args.pdf, arrow_pdf(puzzles, paper=args.paper))
    log.info("wrote %d puzzle%s to %s", len(puzzles), "s" if len(puzzles) != 1 else "",
             shown(args.pdf))
