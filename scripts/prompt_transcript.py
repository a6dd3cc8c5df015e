#!/usr/bin/env python
"""Print a prompt session transcript with real output, for the README.

Runs each line through the same code the interactive prompt uses
(:func:`cryptocomp.prompt.respond`), without colour, echoing ``DICT> line``
before its output, on the real indexes (``en`` to start with).

    python scripts/prompt_transcript.py [--width 92] [LINE ...]
"""

from __future__ import annotations

import argparse
import sys

from cryptocomp.prompt import Screen, Session, banner_text, respond

DEFAULT_LINES = [
    ":top 5",
    "SEND+MORE",
    "SEND+?=MONEY",
    "SEND+MORE=MONEY",
    "SEND+*MORE",
    "?oney",
    ":lang ru",
    "вышли-еще=воблы",
    ":minfreq 1",
    "вышли+еще",
    "?р??а",
    ":same барабан",
    ":save /tmp/same.csv",
    ":quit",
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=92)
    ap.add_argument("--lang", default="en")
    ap.add_argument("lines", nargs="*", default=DEFAULT_LINES)
    args = ap.parse_args()
    screen = Screen(lambda text: print(text.rstrip()), width=args.width, color_system=None)
    session = Session.open(args.lang)
    screen.show(banner_text(session.banner()), soft_wrap=True)
    for line in args.lines:
        print(f"{session.short_name}> {line}")
        if not respond(session, line, screen):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
