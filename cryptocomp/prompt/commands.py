"""The prompt's commands and query forms, in :help order."""

from __future__ import annotations

__all__ = ["COMMANDS", "ALIASES", "QUERY_FORMS"]

# name -> (argument, what it does); the order is the :help order
COMMANDS: dict[str, tuple[str, str]] = {
    ":help": ("", "this help"),
    ":same": ("WORD", "words with the letter structure of WORD (барабан ~ заказал)"),
    ":lang": ("CODE", "switch to a wordfreq language (en, ru, fr, ...)"),
    ":dict": ("PATH", "switch to a 'word count' dictionary file (or a word list)"),
    ":top": ("N|all", "show at most N results (all: no truncation)"),
    ":minfreq": ("F|off", "only words used at least F times per million"),
    ":limit": ("N|off", "only the N most frequent words of the dictionary"),
    ":contains": ("LETTERS|off", "composed words contain these letters (ee: two e at least)"),
    ":excludes": ("LETTERS|off", "composed words contain none of these letters"),
    ":length": ("N|LO-HI|off", "composed words of this length (5, 4-6, 5-, -7)"),
    ":save": ("FILE", "save the last results, all of them (solutions: the first 10,000), "
                      "to FILE.csv or FILE.json"),
    ":quit": ("", "leave (Ctrl-D does too)"),
}
ALIASES = {":q": ":quit", ":exit": ":quit", ":h": ":help", ":?": ":help"}

QUERY_FORMS = [
    ("SEND+MORE", "compose: words W making SEND+MORE=W a puzzle with exactly one solution"),
    ("SEND+?=MONEY", "compose for the unknown operand"),
    ("SEND+MORE=m????", "compose with a template for the word (? a letter; [con*]: * any run)"),
    ("SEND+MORE=MONEY", "solve: count the solutions, list some"),
    ("?р??а", "words fitting a template (? or . is any letter, * any run: con*, *ёж*)"),
]
