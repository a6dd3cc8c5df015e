"""Cryptarithm expressions: a recursive-descent parser into a small tree.

Grammar (spaces ignored, letters lower-cased, ``==`` accepted for ``=``)::

    puzzle   := side ['=' side]
    side     := term  (('+' | '-') term)*
    term     := factor (('*' | '/') factor)*
    factor   := WORD | unknown | '(' side ')'
    unknown  := '?' | TEMPLATE | '[' TEMPLATE-WITH-STARS ']'

A WORD is a run of letters of one script (Latin, Cyrillic, ...); the unknown
operand (at most one) is the word a dictionary fills in.  A lone ``?`` stands for
a word of any length; a run of letters and ``?`` (``.`` is a synonym) with at
least one ``?`` is a *template* for it: ``m????`` (five letters, the first m),
``?o???``, ``??`` (exactly two letters).  In square brackets a template may also
hold ``*``, any run of letters (``[con*]``, ``[*tion]``); ``*`` outside brackets is
multiplication, and ``[?]`` is a one-letter unknown.  Template letters are not
puzzle letters: they constrain which words are tried, not the digits.  A puzzle
without ``=`` means ``LEFT=?``.  There is no unary minus and there are no
digits: every number is spelled in letters.  Division ``/`` is exact division:
an assignment under which a division leaves a remainder, or divides by zero, is
not a solution.

The puzzle rules (enforced by :mod:`cryptocomp.compose` and
:mod:`cryptocomp.solve`): each letter stands for one digit; different letters,
different digits; no number of two or more digits starts with 0; the identity
holds in integers (intermediate values may be negative, but the unknown, being
a word, is a non-negative number).

Bad input raises :class:`~cryptocomp.errors.ExpressionError` naming the column:
an empty operand, an unknown character, unbalanced parentheses or brackets, a
unary minus, two unknowns, more than ten distinct letters, letters of two scripts
(template letters included), an empty template or one without a wildcard in
brackets, or numbers that could exceed :data:`MAX_DIGITS` digits.

>>> p = parse("SEND + MORE")
>>> str(p), p.letters, p.unknown
('send+more=?', ('s', 'e', 'n', 'd', 'm', 'o', 'r'), True)
>>> str(parse("(a+b)*c=abc"))
'(a+b)*c=abc'
>>> p = parse("SEND+MORE=m????")
>>> str(p), p.template
('send+more=m????', 'm????')
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar, Union

from ..domain import Template
from ..errors import ExpressionError
from ..index.alphabet import ONE, WILDCARDS, LetterError, is_mark, script_of, spell

__all__ = ["parse", "looks_like_expression", "value", "holds", "Puzzle", "Operand", "Hole",
           "BinOp", "Node", "fold", "hole_path",
           "MAX_DIGITS", "MAX_LETTERS", "MAX_OPERANDS", "OPERATORS"]

Letter = str
MAX_LETTERS = 10       # there are only ten digits
MAX_DIGITS = 36        # largest number (in digits) any part of a puzzle may reach
MAX_OPERANDS = 1000    # every walk over a tree is iterative (fold): this bounds work, not depth
_MAX_DEPTH = 50        # parentheses nesting
OPERATORS = "+-*/"
_SYNONYMS = {"×": "*", "·": "*", "÷": "/", ":": "/", "−": "-"}
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


@dataclass(frozen=True)
class Operand:
    """A number spelled in letters; ``pos`` is its column in the text."""

    word: str
    pos: int


@dataclass(frozen=True)
class Hole:
    """The unknown operand (a dictionary word fills it): ``?``, or a template for it."""

    pos: int
    template: Template | None = None  # None: a word of any length; else "m????", "con*"
    where: tuple[int, ...] = ()       # the column of each character of the template

    @property
    def text(self) -> str:
        """The unknown as written in normal form: ``?``, ``m????`` or ``[con*]``."""
        if self.template is None:
            return "?"
        t = self.template
        return f"[{t}]" if "*" in t or t == "?" else t


@dataclass(frozen=True, eq=False, repr=False)
class BinOp:
    """``left op right``; ``pos`` is the column of the operator.  Equality, hash and repr
    walk the tree iteratively (a tree can be 1000 levels deep)."""

    op: str
    left: Node
    right: Node
    pos: int

    def _nodes(self) -> tuple:
        """The tree in preorder: ("op", operator, position) triples and ("leaf", leaf) pairs."""
        out: list[tuple] = []
        todo: list[Node] = [self]
        while todo:
            n = todo.pop()
            if isinstance(n, BinOp):
                out.append(("op", n.op, n.pos))
                todo += [n.right, n.left]
            else:
                out.append(("leaf", n))  # a frozen dataclass: Operand, Hole, a Constant
        return tuple(out)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BinOp) and self._nodes() == other._nodes()

    def __hash__(self) -> int:
        return hash(self._nodes())

    def __repr__(self) -> str:
        return f"BinOp({render(self)!r}, pos={self.pos})"


Node = Union[Operand, Hole, BinOp]  # noqa: UP007 (a runtime alias: | needs 3.10 classes)


T = TypeVar("T")


def fold(node: Node, leaf: Callable[[Operand | Hole], T], combine: Callable[[BinOp, T, T], T],
         stop: Callable[[Node], T | None] | None = None) -> T:
    """The tree's value bottom-up: ``leaf`` of each operand and hole, ``combine(op, left,
    right)`` of each operator; where ``stop(node)`` is not None it is taken as the node's
    value without descending.  Iterative: a sum of 1000 operands is 1000 levels deep."""
    out: list = []
    todo: list[tuple[Node, bool]] = [(node, False)]
    while todo:
        n, ready = todo.pop()
        if ready:
            right = out.pop()
            out.append(combine(n, out.pop(), right))  # type: ignore[arg-type]
            continue
        if stop is not None:
            got = stop(n)
            if got is not None:
                out.append(got)
                continue
        if isinstance(n, BinOp):
            todo += [(n, True), (n.right, False), (n.left, False)]
        else:
            out.append(leaf(n))
    return out[0]


def hole_path(side: Node) -> list[tuple[BinOp, bool]]:
    """The operators from the side's root down to ``?``, each with True where ``?`` is in
    its left operand (empty when the side is ``?`` itself or has none)."""
    parent: dict[int, tuple[BinOp, bool]] = {}
    todo = [side]
    while todo:
        n = todo.pop()
        if isinstance(n, Hole):
            path = []
            while id(n) in parent:
                n, on_left = parent[id(n)]
                path.append((n, on_left))
            return path[::-1]
        if isinstance(n, BinOp):
            parent[id(n.left)] = (n, True)
            parent[id(n.right)] = (n, False)
            todo += [n.right, n.left]
    return []


def render(node: Node, fill: dict | None = None, hole: str | None = None) -> str:
    """The node as text with minimal parentheses (keeps the tree: a-(b-c), a*(b/c));
    with ``fill`` (letter -> digit) in digits; ``hole`` in place of the unknown (by
    default the unknown as written)."""
    def leaf(n: Operand | Hole) -> str:
        if isinstance(n, Hole):
            return n.text if hole is None else hole
        if not isinstance(n, Operand):  # a Constant of a relation system
            return f"'{n.value}'"
        return n.word if fill is None else "".join(str(fill[ch]) for ch in n.word)

    def combine(n: BinOp, left: str, right: str) -> str:
        prec = _PRECEDENCE[n.op]
        if isinstance(n.left, BinOp) and _PRECEDENCE[n.left.op] < prec:
            left = f"({left})"
        if isinstance(n.right, BinOp) and _PRECEDENCE[n.right.op] <= prec:
            right = f"({right})"
        return f"{left}{n.op}{right}"

    return fold(node, leaf, combine)


def operands(node: Node) -> Iterator[Operand | Hole]:
    """The leaves of a tree, left to right."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, BinOp):
            stack.append(n.right)
            stack.append(n.left)
        else:
            yield n


def bound(node: Node) -> int:
    """An upper bound on the absolute value of the node under any assignment."""
    def leaf(n: Operand | Hole) -> int:
        if isinstance(n, Hole):
            raise ValueError("the unknown has no bound")
        return 10 ** len(n.word) - 1

    def combine(n: BinOp, a: int, b: int) -> int:
        if n.op in "+-":
            return a + b
        if n.op == "*":
            return a * b
        return a  # exact division by a non-zero integer never grows the magnitude

    return fold(node, leaf, combine)


def value(node: Node, fill: dict[str, int], hole: int | None = None) -> int | None:
    """The exact integer value under ``fill`` (letter -> digit), ``hole`` standing for
    ``?``; None when a division is by zero or leaves a remainder (slow: one assignment)."""
    def leaf(n: Operand | Hole) -> int:
        if isinstance(n, Operand):
            return int("".join(str(fill[ch]) for ch in n.word))
        if hole is None:
            raise ValueError("the unknown has no value")
        return hole

    def combine(n: BinOp, a: int | None, b: int | None) -> int | None:
        if a is None or b is None:
            return None
        if n.op == "+":
            return a + b
        if n.op == "-":
            return a - b
        if n.op == "*":
            return a * b
        if b == 0 or a % b:
            return None
        return a // b

    return fold(node, leaf, combine)


def holds(puzzle: Puzzle, fill: dict[str, int]) -> bool:
    """True when ``fill`` solves the complete puzzle under every rule (one assignment)."""
    if len(set(fill.values())) != len(fill) or any(not 0 <= d <= 9 for d in fill.values()):
        return False
    if set(fill) != set(puzzle.letters):
        return False
    if any(fill[ch] == 0 for ch in puzzle.leading()):
        return False
    left, right = value(puzzle.left, fill), value(puzzle.right, fill) if puzzle.right else None
    return left is not None and right is not None and left == right


def has_hole(node: Node | None) -> bool:
    return node is not None and any(isinstance(n, Hole) for n in operands(node))


@dataclass(frozen=True)
class Puzzle:
    """A parsed identity ``left = right``; ``right`` is None when the text had no ``=``."""

    left: Node
    right: Node | None
    letters: tuple[Letter, ...]   # distinct letters in order of appearance
    script: str                   # Unicode script of the letters ('LATIN', 'CYRILLIC', ...)
    text: str                     # the text as given

    @property
    def unknown(self) -> bool:
        """True when some operand is ``?`` or the right side is missing."""
        return self.right is None or has_hole(self.left) or has_hole(self.right)

    @property
    def hole(self) -> Hole | None:
        """The unknown operand (a made-up ``?`` at the end when the right side is missing),
        None when the puzzle is complete."""
        left, right = self.sides
        return next((n for side in (left, right) for n in operands(side)
                     if isinstance(n, Hole)), None)

    @property
    def template(self) -> Template | None:
        """The unknown's template (``m????``, ``con*``), None for a plain ``?``."""
        hole = self.hole
        return None if hole is None else hole.template

    @cached_property
    def sides(self) -> tuple[Node, Node]:
        """(left, right) with a missing right side made the unknown (the same Hole object
        every time: evaluators cache their work per node)."""
        return self.left, (self.right if self.right is not None else Hole(len(self.text)))

    def operands(self) -> list[Operand]:
        """Every lettered operand of both sides, left to right."""
        return [n for side in self.sides for n in operands(side) if isinstance(n, Operand)]

    def leading(self) -> tuple[Letter, ...]:
        """Letters that may not be 0: the first letters of operands of two or more letters."""
        out: list[Letter] = []
        for op in self.operands():
            if len(op.word) > 1 and op.word[0] not in out:
                out.append(op.word[0])
        return tuple(out)

    def render(self, fill: dict | None = None, hole: str | None = None) -> str:
        """The puzzle as text; with ``fill`` (letter -> digit) in digits, ``hole`` for the
        unknown (by default the unknown as written)."""
        left, right = self.sides
        return f"{render(left, fill, hole)}={render(right, fill, hole)}"

    def __str__(self) -> str:
        return self.render()


_MARKERS = frozenset(OPERATORS + "=()" + "".join(_SYNONYMS))


def looks_like_expression(text: str) -> bool:
    """True when the text has an operator, ``=`` or a parenthesis (else it is a word template)."""
    # a parenthesis never belongs in a template: the parser's caret explains "()" better
    return not _MARKERS.isdisjoint(text)


class _Parser:
    def __init__(self, text: str, fold_yo: bool = False):
        self.text = text
        self.fold_yo = fold_yo
        self.templates: dict[int, tuple[Template, tuple[int, ...]]] = {}
        self.tokens = self._tokenize(text)
        self.i = 0
        self.depth = 0
        self.holes: list[int] = []

    def error(self, message: str, pos: int) -> ExpressionError:
        return ExpressionError(message, pos, self.text)

    def _tokenize(self, text: str) -> list[tuple[str, str, int]]:
        """(kind, value, position) triples; kind is 'word', 'op', '(', ')', '=', '?', 'end'."""
        out: list[tuple[str, str, int]] = []
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch.isspace():
                i += 1
            elif ch.isalpha() or ch in ONE:
                i = self._letter_run(text, i, out)
            elif ch == "[":
                i = self._bracketed(text, i, out)
            elif ch == "]":
                raise self.error("unbalanced ']'", i)
            elif ch in OPERATORS or ch in _SYNONYMS:
                out.append(("op", _SYNONYMS.get(ch, ch), i))
                i += 1
            elif ch == "=":
                out.append(("=", "=", i))
                i += 2 if text.startswith("==", i) else 1
            elif ch in "()":
                out.append((ch, ch, i))
                i += 1
            elif ch.isdigit():
                raise self.error(f"digit {ch!r}: spell every number in letters", i)
            else:
                raise self.error(f"unexpected character {ch!r}", i)
        out.append(("end", "", n))
        return out

    def _letter_run(self, text: str, i: int, out: list[tuple[str, str, int]]) -> int:
        """Appends the token of the letter run at ``i`` (word, ? or template); its end."""
        j, n = i, len(text)
        while j < n and (text[j].isalpha() or text[j] in ONE
                         or is_mark(text[j])):
            j += 1
        run = text[i:j]
        if run == "?":
            out.append(("?", "?", i))
        elif ONE.isdisjoint(run):
            out.append(("word", self._spell(run, range(i, j)), i))
        else:
            out.append(self._template(run, range(i, j), i))
        return j

    def _bracketed(self, text: str, i: int, out: list[tuple[str, str, int]]) -> int:
        """Appends the token of the bracketed template at ``i``; the position after its ']'."""
        j = text.find("]", i)
        if j < 0:
            raise self.error("expected ']' to close the template", len(text))
        kept = [k for k in range(i + 1, j) if not text[k].isspace()]
        for k in kept:
            if not (text[k].isalpha() or text[k] in WILDCARDS
                    or is_mark(text[k])):
                raise self.error(f"unexpected character {text[k]!r} in a template "
                                 f"(letters, ? and * only)", k)
        run = "".join(text[k] for k in kept)
        if not run:
            raise self.error("empty template", i)
        if WILDCARDS.isdisjoint(run):
            raise self.error("a template needs a wildcard ? or * (a fixed word is "
                             "written without brackets)", i)
        out.append(self._template(run, kept, i))
        return j + 1

    def _spell(self, run: str, columns: Iterable[int]) -> str:
        """A run of letters in the dictionary's spelling (its length kept: a character that
        lower-cases to two is refused at its column)."""
        try:
            return spell(run, fold_yo=self.fold_yo)
        except LetterError as exc:
            raise self.error(exc.why, list(columns)[exc.position]) from None

    def _template(self, run: str, columns: Iterable[int], start: int) -> tuple[str, str, int]:
        """The token of a template for the unknown; remembers each character's column."""
        columns = list(columns)
        template = self._spell(run.replace(".", "?"), columns)
        if len(template) != len(columns):  # NFC joined a mark across a removed space: rare
            columns = [start] * len(template)
        self.templates[start] = (template, tuple(columns))
        return ("template", template, start)

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i]

    def take(self) -> tuple[str, str, int]:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def side(self) -> Node:
        node = self.term()
        while self.peek()[0] == "op" and self.peek()[1] in "+-":
            _, op, pos = self.take()
            node = BinOp(op, node, self.term(), pos)
        return node

    def term(self) -> Node:
        node = self.factor()
        while self.peek()[0] == "op" and self.peek()[1] in "*/":
            _, op, pos = self.take()
            node = BinOp(op, node, self.factor(), pos)
        return node

    def factor(self) -> Node:
        kind, value, pos = self.take()
        if kind == "word":
            return Operand(value, pos)
        if kind in ("?", "template"):
            self.holes.append(pos)
            if len(self.holes) > 1:
                raise self.error("only one unknown '?' is allowed", pos)
            if kind == "?":
                return Hole(pos)
            template, where = self.templates[pos]
            return Hole(pos, template, where)
        if kind == "(":
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                raise self.error(f"parentheses nested deeper than {_MAX_DEPTH}", pos)
            node = self.side()
            k, _, p = self.take()
            if k != ")":
                raise self.error("expected ')'" if k == "end" else "expected ')' here", p)
            self.depth -= 1
            return node
        if kind == "op" and value == "-":
            raise self.error("unary minus is not allowed (numbers are non-negative)", pos)
        if kind == "end":
            raise self.error("empty operand at the end", pos)
        if kind == ")":
            raise self.error("empty operand before ')'", pos)
        raise self.error(f"empty operand before {value!r}", pos)

    def puzzle(self) -> Puzzle:
        if self.peek()[0] == "end":
            raise self.error("empty expression", 0)
        left = self.side()
        right = None
        if self.peek()[0] == "=":
            self.take()
            right = self.side()
        kind, value, pos = self.peek()
        if kind == "=":
            raise self.error("more than one '='", pos)
        if kind == ")":
            raise self.error("unbalanced ')'", pos)
        if kind != "end":
            # spaces are ignored between tokens but never join letters: "send more" is most
            # likely a missing operator, which joining would turn into another puzzle
            spaced = ": a space separates words, it never joins letters into one" \
                if pos and self.text[pos - 1].isspace() else ""
            raise self.error(f"expected an operator before {value!r}{spaced}", pos)
        return self._finish(left, right)

    def _finish(self, left: Node, right: Node | None) -> Puzzle:
        """The puzzle of the two sides, refusing what the grammar alone lets through."""
        letters, script = self._letters(left, right)
        if right is None and has_hole(left):
            raise self.error("an unknown '?' on the left needs a right side '=...'",
                             len(self.text))
        if right is not None and has_hole(left) and has_hole(right):
            raise self.error("only one unknown '?' is allowed", self.holes[-1])
        if not letters:
            raise self.error("no letters in the puzzle", 0)
        self._check_template_script(left, right, script)
        for side in (left, right):
            if side is not None:
                _check_size(side, self)
        return Puzzle(left, right, tuple(letters), script, self.text)

    def _letters(self, left: Node, right: Node | None) -> tuple[list[Letter], str]:
        """The puzzle's letters in order of appearance and their one script."""
        letters: list[Letter] = []
        script = ""
        count = 0
        for side in (left, right):
            if side is None:
                continue
            for leaf in operands(side):
                count += 1
                if count > MAX_OPERANDS:
                    raise self.error(f"more than {MAX_OPERANDS} operands", leaf.pos)
                if isinstance(leaf, Hole):
                    continue
                for k, ch in enumerate(leaf.word):
                    s = script_of(ch)
                    if s == "COMBINING":  # a mark NFC could not join to the letter before it
                        raise self.error(f"{leaf.word[k - 1:k + 1]!r} is not one letter (no "
                                         f"character is {leaf.word[k - 1]!r} with the "
                                         f"combining mark U+{ord(ch):04X})",
                                         leaf.pos + max(k - 1, 0))
                    if not script:
                        script = s
                    elif s != script:
                        raise self.error(f"letter {ch!r} is {s.title()} but the puzzle is "
                                         f"{script.title()}: use one alphabet", leaf.pos + k)
                    if ch not in letters:
                        letters.append(ch)
                        if len(letters) > MAX_LETTERS:
                            raise self.error(f"more than {MAX_LETTERS} distinct letters "
                                             f"({''.join(letters)})", leaf.pos + k)
        return letters, script

    def _check_template_script(self, left: Node, right: Node | None, script: str) -> None:
        """Refuses a template letter of another script than the puzzle's."""
        for side in (left, right):
            for leaf in operands(side) if side is not None else ():
                if isinstance(leaf, Hole) and leaf.template is not None:
                    for ch, col in zip(leaf.template, leaf.where):
                        if ch.isalpha() and script_of(ch) != script:
                            raise self.error(f"letter {ch!r} of the template is "
                                             f"{script_of(ch).title()} but the puzzle is "
                                             f"{script.title()}: use one alphabet", col)


def _check_size(node: Node, parser: _Parser) -> int:
    """The node's bound, refusing numbers beyond MAX_DIGITS digits (holes count as 0)."""
    def leaf(n: Operand | Hole) -> int:
        if isinstance(n, Hole):
            return 0
        if len(n.word) > MAX_DIGITS:
            raise parser.error(f"operand of {len(n.word)} letters: at most {MAX_DIGITS}", n.pos)
        return 10 ** len(n.word) - 1

    def combine(n: BinOp, a: int, b: int) -> int:
        value = a + b if n.op in "+-" else a * b if n.op == "*" else a
        if value >= 10 ** MAX_DIGITS:
            raise parser.error(f"numbers here can reach {len(str(value))} digits: "
                               f"at most {MAX_DIGITS} are supported", n.pos)
        return value

    return fold(node, leaf, combine)


def parse(text: str, *, fold_yo: bool = False) -> Puzzle:
    """Parse a puzzle such as ``SEND+MORE``, ``SEND+?=MONEY`` or ``SEND+MORE=MONEY``
    (``fold_yo``: its ё as е, for a dictionary that folds ё)."""
    if not isinstance(text, str):
        raise TypeError("parse() takes a string")
    text = unicodedata.normalize("NFC", text)
    return _Parser(text, fold_yo).puzzle()
