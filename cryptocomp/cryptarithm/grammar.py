"""The cryptarithm language: Cryptator's grammar and today's syntax, one parser.

:func:`parse_system` reads a system of relations into a
:class:`~cryptocomp.cryptarithm.system.System`::

    system    := relation (SEP relation)* ';'*        SEP is ';' (one or more) or '&&'
    relation  := expr COMPARATOR expr | '(' relation ')'
    expr      := WORD | CONSTANT | '(' expr ')' | '-' expr | expr OP expr

Operators bind, tightest first: ``%`` and ``^``; then the prefix ``-`` (``-x`` is
``'0' - x``); then ``*``, ``/`` (exact division) and ``//`` (truncating division); then
``+`` and ``-``.  Every binary operator is left-associative (``a^b^c`` is ``(a^b)^c``).
Words, constants and the signs are those of :mod:`cryptocomp.cryptarithm.lexer`: a word is a
run of symbols (letters, digits, any code point from U+0080 up), each code point one symbol,
read in NFC and in lower case.

Limits, each refused in one line naming its column: a base outside 2..36, more distinct
symbols than the base has digits, text longer than :data:`MAX_LENGTH` characters, more than
:data:`~cryptocomp.cryptarithm.expr.MAX_OPERANDS` words and constants,
parentheses and prefix minus nested deeper than :data:`MAX_DEPTH`, and any part of a
relation that could reach :data:`MAX_VALUE_DIGITS` decimal digits under some assignment
(``^`` included: ``ab^cd`` can reach 198 digits and is refused).

>>> s = parse_system("CC + A = CL && on+d=go ; in*'10' < vain2")
>>> s.symbols, len(s.relations), s.base
(('c', 'a', 'l', 'o', 'n', 'd', 'g', 'i', 'v', '2'), 3, 10)
>>> str(s)
"cc+a=cl ; on+d=go ; in*'10'<vain2"
>>> str(parse_system("-a^b*c // d % e != f", base=16))
"('0'-a^b)*c//d%e!=f"
"""

from __future__ import annotations

import unicodedata
from typing import Union

from ..errors import ExpressionError
from .expr import MAX_OPERANDS, BinOp, Operand, fold
from .lexer import Token, tokens
from .system import Constant, Relation, System, SystemNode

__all__ = ["parse_system", "MAX_LENGTH", "MAX_DEPTH", "MAX_VALUE_DIGITS", "MIN_BASE",
           "MAX_BASE"]

MIN_BASE, MAX_BASE = 2, 36      # digits print as 0-9a-z
MAX_LENGTH = 10_000             # characters of text (the longest published puzzle has ~500)
MAX_DEPTH = 50                  # nested parentheses and prefix minus
MAX_VALUE_DIGITS = 80           # decimal digits any part of a relation may reach
_LIMIT = 10 ** MAX_VALUE_DIGITS
# binding strength of the binary operators; the prefix minus binds at _NEG
_BINARY = {"+": 1, "-": 1, "*": 2, "/": 2, "//": 2, "%": 4, "^": 4}
_NEG = 3

Item = Union[SystemNode, Relation]  # noqa: UP007 (a runtime alias)


class _Parser:
    """Recursive descent over the tokens (precedence climbing for the operators)."""

    def __init__(self, text: str, base: int, fold_yo: bool):
        self.text, self.base = text, base
        self.tokens = tokens(text, fold_yo)
        self.i = 0
        self.depth = 0
        self.leaves = 0

    def error(self, message: str, pos: int) -> ExpressionError:
        return ExpressionError(message, pos, self.text)

    def peek(self) -> Token:
        return self.tokens[self.i]

    def take(self) -> Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def system(self) -> System:
        """The whole text: relations joined by separators, trailing ';' allowed."""
        if self.peek().kind == "end":
            raise self.error("empty text: a relation such as send+more=money is expected", 0)
        relations = [self.relation()]
        while self.peek().kind == "sep":
            sep = self.take()
            while sep.value == ";" and self.peek().value == ";" and self.peek().kind == "sep":
                sep = self.take()
            if sep.value == ";" and self.peek().kind == "end":
                break
            if self.peek().kind in ("end", "sep"):
                raise self.error(f"expected a relation after {sep.value!r}", self.peek().pos)
            relations.append(self.relation())
        self.expect_end()
        return System.of(relations, self.base, self.text)

    def expect_end(self) -> None:
        """Refuses what follows a complete relation other than a separator or the end."""
        tok = self.peek()
        if tok.kind == "end":
            return
        if tok.kind == ")":
            raise self.error("unbalanced ')'", tok.pos)
        if tok.kind == "cmp":
            raise self.error(f"a second comparator {tok.value!r} in one relation: join "
                             f"relations with ';' or '&&'", tok.pos)
        # spaces are ignored between tokens but never join symbols: "send more" is most
        # likely a missing operator, which joining would turn into another puzzle
        spaced = ": a space separates words, it never joins symbols into one" \
            if tok.pos and self.text[tok.pos - 1].isspace() else ""
        shown = f"'{tok.value}'" if tok.kind == "const" else repr(tok.value)
        raise self.error(f"expected an operator before {shown}{spaced}", tok.pos)

    def relation(self) -> Relation:
        """One relation (possibly in parentheses)."""
        item = self.comparison()
        if not isinstance(item, Relation):
            tok = self.peek()
            where = "at the end" if tok.kind == "end" else f"before {tok.value!r}"
            if tok.kind not in ("end", "sep"):
                self.expect_end()
            raise self.error(f"a relation needs a comparator (=, !=, <, >, <=, >=): none "
                             f"{where}", tok.pos)
        return item

    def comparison(self) -> Item:
        """An expression, or ``expr COMPARATOR expr`` (a relation)."""
        left = self.expr(0)
        if self.peek().kind != "cmp":
            return left
        cmp = self.take()
        if isinstance(left, Relation):
            raise self.error("a relation cannot be compared: join relations with ';' or '&&'",
                             cmp.pos)
        right = self.expr(0)
        if isinstance(right, Relation):
            raise self.error("a relation cannot be compared: join relations with ';' or '&&'",
                             cmp.pos)
        if self.peek().kind == "cmp":
            self.expect_end()
        return Relation(cmp.value, left, right, cmp.pos)

    def expr(self, min_prec: int) -> Item:
        """Operators binding at least as tightly as ``min_prec``, left-associative."""
        left = self.prefix()
        while self.peek().kind == "op" and _BINARY[self.peek().value] >= min_prec:
            op = self.take()
            right = self.expr(_BINARY[op.value] + 1)
            left = _binop(op.value, self.number(left, op), self.number(right, op), op.pos)
        return left

    def number(self, item: Item, op: Token) -> SystemNode:
        """``item`` as an operand of ``op``: a relation is refused."""
        if isinstance(item, Relation):
            raise self.error(f"a relation cannot be an operand of {op.value!r}", op.pos)
        return item

    def prefix(self) -> Item:
        """A prefix minus (``'0' - x``) or a primary."""
        tok = self.peek()
        if tok.kind == "op" and tok.value == "-":
            self.take()
            self.enter(tok.pos)
            operand = self.number(self.expr(_NEG), tok)
            self.depth -= 1
            return _binop("-", Constant(0, tok.pos), operand, tok.pos)
        return self.primary()

    def enter(self, pos: int) -> None:
        """One level deeper (a parenthesis or a prefix minus), refused beyond MAX_DEPTH."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"parentheses and prefix minus nested deeper than {MAX_DEPTH}",
                             pos)

    def primary(self) -> Item:
        """A word, a constant, or an expression or relation in parentheses."""
        tok = self.take()
        if tok.kind in ("word", "const"):
            self.leaves += 1
            if self.leaves > MAX_OPERANDS:
                raise self.error(f"more than {MAX_OPERANDS} operands", tok.pos)
        if tok.kind == "word":
            return Operand(tok.value, tok.pos)
        if tok.kind == "const":
            return Constant(int(tok.value), tok.pos)
        if tok.kind == "(":
            self.enter(tok.pos)
            inner = self.comparison()
            close = self.take()
            if close.kind != ")":
                raise self.error("expected ')'" if close.kind == "end" else "expected ')' here",
                                 close.pos)
            self.depth -= 1
            return inner
        if tok.kind == "end":
            raise self.error("empty operand at the end", tok.pos)
        raise self.error(f"empty operand before {tok.value!r}", tok.pos)


def _binop(op: str, left: SystemNode, right: SystemNode, pos: int) -> BinOp:
    """``left op right``: expr's BinOp, whose leaves in a system may be Constant too."""
    return BinOp(op, left, right, pos)  # type: ignore[arg-type]


def _check_symbols(system: System) -> None:
    """Refuses more distinct symbols than the base has digits, at the first one too many."""
    if len(system.symbols) <= system.base:
        return
    seen: set[str] = set()
    for w in system.words:
        for k, ch in enumerate(w.word):
            seen.add(ch)
            if len(seen) > system.base:
                shown = "".join(system.symbols[:system.base + 1])
                raise ExpressionError(f"more than {system.base} distinct symbols ({shown}...) "
                                      f"in base {system.base}: each needs a digit of its own",
                                      w.pos + k, system.text)


def _bound(node: SystemNode, base: int, text: str) -> int:
    """The largest magnitude ``node`` can reach, refusing MAX_VALUE_DIGITS digits or more."""
    def too_big(what: str, pos: int) -> ExpressionError:
        return ExpressionError(f"{what}: at most {MAX_VALUE_DIGITS} digits are supported",
                               pos, text)

    def leaf(n: object) -> int:
        if isinstance(n, Constant):
            return n.value
        assert isinstance(n, Operand)
        # base ** len is below the limit only for len <= 266 (base 2): test before computing
        if len(n.word) > 4 * MAX_VALUE_DIGITS or base ** len(n.word) > _LIMIT:
            raise too_big(f"a word of {len(n.word)} symbols in base {base} can reach "
                          f"{len(str(base ** min(len(n.word), 400) - 1))} digits", n.pos)
        return base ** len(n.word) - 1

    def combine(n: BinOp, a: int, b: int) -> int:
        if n.op in "+-":
            value = a + b
        elif n.op == "*":
            value = a * b
        elif n.op in ("/", "//"):
            value = a          # a quotient by a non-zero integer never grows the magnitude
        elif n.op == "%":
            value = b          # 0 <= a % b < b
        elif a <= 1:
            value = 1          # 0^0 = 1, 1^b = 1
        elif b > 4 * MAX_VALUE_DIGITS:
            raise too_big(f"a power here can reach more than {b} digits", n.pos)
        else:
            value = a ** b
        if value >= _LIMIT:
            raise too_big(f"numbers here can reach {len(str(value))} digits", n.pos)
        return value

    return fold(node, leaf, combine)  # type: ignore[arg-type]


def parse_system(text: str, *, base: int = 10, fold_yo: bool = False) -> System:
    """The system of relations ``text`` writes (``send+more=money``, ``cc+a=cl && on+d=go``,
    ``in*'10' <= vain``), its symbols digits of ``base`` (``fold_yo``: ё read as е)."""
    if not isinstance(text, str):
        raise TypeError("parse_system() takes a string")
    if isinstance(base, bool) or not isinstance(base, int) or not MIN_BASE <= base <= MAX_BASE:
        raise ExpressionError(f"the base must be a whole number from {MIN_BASE} to {MAX_BASE}, "
                              f"not {base!r}")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"text of {len(text):,} characters: at most {MAX_LENGTH:,}",
                              MAX_LENGTH, text[:MAX_LENGTH + 1])
    text = unicodedata.normalize("NFC", text)
    if len(text) > MAX_LENGTH:  # NFC can lengthen a text (at most threefold)
        raise ExpressionError(f"text of {len(text):,} characters in NFC: at most "
                              f"{MAX_LENGTH:,}", MAX_LENGTH, text)
    system = _Parser(text, base, fold_yo).system()
    _check_symbols(system)
    for r in system.relations:
        _bound(r.left, base, text)
        _bound(r.right, base, text)
    return system
