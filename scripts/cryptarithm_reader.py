"""A throw-away reader of Cryptator's grammar for scripts/bench_cryptarithm.py, used only
while cryptocomp has no ``parse_system`` (the h27-lang work replaces it): relations joined
by ``&&`` or ``;``, comparators, ``+ - * / // % ^``, parentheses, quoted constants; every
other character that is not a space is a symbol.  No error reporting: benchmark input."""

from __future__ import annotations

import re

from cryptocomp.cryptarithm.expr import BinOp, Operand
from cryptocomp.cryptarithm.system import Constant, Relation, System

_TOKEN = re.compile(r"\s*(//|<=|>=|!=|==|&&|'[0-9]+'|[-+*/%^()=<>;]|[^\s\-+*/%^()=<>;&!']+)")
_LEVELS = (("+", "-"), ("*", "/", "//"), ("%", "^"))


def read_system(text: str, base: int = 10) -> System:
    """The system ``text`` states (benchmark input: assumed well formed)."""
    tokens = [(m.group(1), m.start(1)) for m in _TOKEN.finditer(text)]
    pos = 0

    def peek() -> str:
        return tokens[pos][0] if pos < len(tokens) else ""

    def expr(level: int = 0):
        nonlocal pos
        if level == len(_LEVELS):
            return atom()
        left = expr(level + 1)
        while peek() in _LEVELS[level]:
            op, at = tokens[pos]
            pos += 1
            left = BinOp(op, left, expr(level + 1), at)
        return left

    def atom():
        nonlocal pos
        tok, at = tokens[pos]
        pos += 1
        if tok == "(":
            inner = expr()
            pos += 1
            return inner
        if tok == "-":
            return BinOp("-", Constant(0, at), atom(), at)
        if tok.startswith("'"):
            return Constant(int(tok[1:-1]), at)
        return Operand(tok, at)

    relations = []
    while pos < len(tokens):
        left = expr()
        op, at = tokens[pos]
        pos += 1
        relations.append(Relation("=" if op == "==" else op, left, expr(), at))
        if peek() in ("&&", ";"):
            pos += 1
    return System.of(relations, base, text)
