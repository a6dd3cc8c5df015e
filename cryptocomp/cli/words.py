"""``cryptocomp words``: words fitting a template, or sharing a word's letter structure."""

from __future__ import annotations

import argparse

from ..errors import QueryError
from ..index.wordfilter import WordFilter
from ..rendering import class_column, words_json, words_lines, words_table
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
    whole,
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("words", help="list dictionary words fitting a template like ?р??а or con*",
                       description="List dictionary words, most frequent first, that fit a "
                                   "template ('?' or '.' is any letter, '*' any run of letters, "
                                   "possibly none) or have the letter structure of a word "
                                   "(--same-pattern).")
    p.add_argument("template", nargs="?",
                   help="letters and wildcards, e.g. s??d, con*, *tion, c?n*s, '*ёж*'")
    p.add_argument("--same-pattern", metavar="WORD",
                   help="words with the same letter structure as WORD (мама ~ папа)")
    whole(p, "--top", 1, default=None, metavar="N",
          help="show at most N words (default: 50 on a terminal, all when piped)")
    p.add_argument("--limit", type=limit, default=None, metavar="N",
                   help="use only the N most frequent words of the dictionary (N >= 1, or "
                        "off: every word, the default)")
    whole(p, "--min-count", 0, default=None, metavar="C",
          help="only words whose count is at least C")
    add_word_options(p, "words")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    add_dict_options(p)
    add_list_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if bool(args.template) == bool(args.same_pattern):
        raise QueryError("give a TEMPLATE or --same-pattern WORD (one of them)")
    # --limit: the dictionary cut
    words = WordFilter(top=args.limit, min_count=args.min_count, min_score=args.min_score,
                       classes=chosen_classes(args, "words"))
    index = open_index(args)
    overlay = personal_overlay(args, index)
    view = overlay if overlay is not None else index
    if args.template:
        matches = view.match(args.template, words)
    else:
        matches = view.same_pattern(args.same_pattern, words)
    top = args.top if args.top is not None else (50 if is_terminal() and not args.json else None)
    shown = matches[:top] if top is not None else list(matches)
    what = f"no word of {index.name} fits {args.template}" if args.template else \
        f"no word of {index.name} has the letter structure of {args.same_pattern}"
    classes = class_column(index, words.classes)
    if args.json:
        print_json(words_json(shown, classes))
        return 0 if matches else no_result(what)
    if not is_terminal():
        print_lines(words_lines(shown, classes))
        return 0 if matches else no_result(what)
    print_rich(words_table(index.name, len(matches), shown, index.total, classes))
    return 0 if matches else 1
