"""The cryptarithm language (grammar.parse_system): every published shape, precedence against
an independent shunting-yard evaluator, the render/parse round trip, and its limits."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.cryptarithm.expr import BinOp, Operand
from cryptocomp.cryptarithm.grammar import MAX_DEPTH, MAX_LENGTH, parse_system
from cryptocomp.cryptarithm.system import Constant, Relation, evaluate
from cryptocomp.errors import ExpressionError


def shape(node):
    """The tree without positions: nested tuples."""
    if isinstance(node, Relation):
        return (node.op, shape(node.left), shape(node.right))
    if isinstance(node, BinOp):
        return (node.op, shape(node.left), shape(node.right))
    if isinstance(node, Constant):
        return ("const", node.value)
    assert isinstance(node, Operand)
    return node.word


def shapes(text, **kw):
    return [shape(r) for r in parse_system(text, **kw).relations]


# --- every shape of the issue and of Cryptator's collection ---------------------------------

def test_crossword_systems_join_relations_with_and_or_semicolons():
    text = "cc + a = cl && on + d = go && ni + e = ne && cc + on = ni && a + d = e && cl + go = ne"
    s = parse_system(text)
    assert len(s.relations) == 6 and s.symbols == tuple("calondgie")
    assert shapes("a=b ; c=d;") == shapes("a=b && c=d") == shapes("(a=b);;c=d;;") \
        == [("=", "a", "b"), ("=", "c", "d")]


def test_long_multiplication_with_quoted_constants():
    s = parse_system("in * gag = vain && in * '1' + km * '10' + in * \"100\" = vain")
    assert shape(s.relations[1].left) == (
        "+", ("+", ("*", "in", ("const", 1)), ("*", "km", ("const", 10))),
        ("*", "in", ("const", 100)))
    assert "'" not in "".join(s.symbols)


def test_each_code_point_is_a_symbol_vowel_signs_and_digits_included():
    s = parse_system("एक + नौ = तीनसौएक")
    assert s.symbols == ("ए", "क", "न", "ौ", "त", "ी", "स")  # ौ and ी: vowel signs
    assert parse_system("fallout + outrun + portal = portal2").symbols[-1] == "2"
    assert parse_system("a + b = 12").symbols == ("a", "b", "1", "2")  # a bare number is a word
    assert parse_system("ενα + επτα = οκτω").leading == ("ε", "ο")


def test_case_is_folded_one_code_point_for_one_and_nfc_applied():
    assert parse_system("SEND+More=money").symbols == tuple("sendmory")
    assert parse_system("ΣΑΣ = σας").symbols == ("σ", "α", "ς")  # Σ is σ even at the end
    # e + U+0301 is é in NFC: one symbol; a mark NFC cannot join stays a symbol
    assert parse_system("cafe\u0301 = café").symbols == tuple("café")
    assert parse_system("ё + е = ёж", fold_yo=True).symbols == ("е", "ж")


def test_todays_syntax_keeps_working():
    assert shapes("SEND+MORE==MONEY") == shapes("send + more = money")
    assert shapes("a × b · c ÷ d : e − f = g") == shapes("a*b*c/d/e-f=g")
    assert shapes("a ≠ b ; c ≤ d ; e ≥ f") == shapes("a != b ; c <= d ; e >= f")


def test_all_comparators_and_operators():
    for cmp in ("=", "!=", "<", ">", "<=", ">="):
        assert parse_system(f"a {cmp} b").relations[0].op == cmp
    for op in ("+", "-", "*", "/", "//", "%", "^"):
        assert shape(parse_system(f"a {op} b = c").relations[0].left) == (op, "a", "b")


def test_precedence_as_cryptator_states_it():
    neg = lambda x: ("-", ("const", 0), x)  # noqa: E731
    cases = {
        "a+b*c=d": ("+", "a", ("*", "b", "c")),
        "a*b%c=d": ("*", "a", ("%", "b", "c")),
        "a^b^c=d": ("^", ("^", "a", "b"), "c"),        # left-associative, as every operator
        "a-b-c=d": ("-", ("-", "a", "b"), "c"),
        "a//b/c=d": ("/", ("//", "a", "b"), "c"),
        "-a^b=d": neg(("^", "a", "b")),                # prefix minus below % and ^
        "-a*b=d": ("*", neg("a"), "b"),                # ... and above * / //
        "a*-b=d": ("*", "a", neg("b")),
        "a^-b^c=d": ("^", "a", neg(("^", "b", "c"))),
        "a--b=d": ("-", "a", neg("b")),
        "(a+b)*c=d": ("*", ("+", "a", "b"), "c"),
    }
    for text, tree in cases.items():  # base 4: (3^3)^3 is small, (9^9)^9 is refused
        assert shape(parse_system(text, base=4).relations[0].left) == tree, text
    with pytest.raises(ExpressionError, match="can reach 851 digits: at most 80"):
        parse_system("a^b^cd=e")


def test_a_relation_in_parentheses_and_an_expression_in_parentheses():
    assert shapes("((a+b)=(c))") == [("=", ("+", "a", "b"), "c")]
    assert shapes("(a)+(b)=c && ((c=d))") == [("=", ("+", "a", "b"), "c"), ("=", "c", "d")]


# --- errors: one line, the column, a caret ---------------------------------------------------

ERRORS = [
    ("", "empty text", 0),
    ("a+b", "needs a comparator", 3),
    ("a+b; c=d", "needs a comparator", 3),
    ("a = b &&", "expected a relation after '&&'", 8),
    ("a = b && ; c = d", "expected a relation after '&&'", 9),
    ("; a = b", "empty operand before ';'", 0),
    ("a & b = c", "'&' alone", 2),
    ("a ! b", "'!' alone", 2),
    ("a<b<c", "a second comparator '<'", 3),
    ("(a=b)+c=d", "cannot be an operand of '+'", 5),
    ("(a=b)=c", "cannot be compared", 5),
    ("-(a=b)=c", "cannot be an operand of '-'", 0),
    ("send more = money", "a space separates words", 5),
    ("(a+b=c", "expected ')'", 6),
    ("a+b)=c", "unbalanced ')'", 3),
    ("a + = b", "empty operand before '='", 4),
    ("a = b +", "empty operand at the end", 7),
    ("a = '1", "expected ' to close the constant", 6),
    ("a = 'x'", "a constant is a decimal number in quotes", 5),
    ("a = ''", "a constant is a decimal number in quotes", 5),
    ("a = '1\"", "a constant is a decimal number in quotes", 6),
    ("send + ? = money", "unknown for compose", 7),
    ("a = [b?]", "template for compose", 4),
    ("a $ b", "unexpected character '$'", 2),
    ("a\u200db = c", "invisible format character U+200D", 1),
    ("a = b\x00", "unexpected character", 5),
    ("İi = ab", "not one symbol in lower case", 0),
    ("abcdefghijk = a", "more than 10 distinct symbols", 10),
    ("ab^cd = e", "can reach 198 digits", 2),
    ("a^bcd = e", "more than", 1),
    ("a = '" + "9" * 81 + "'", "constant of 81 digits", 4),
    ("a = " + "b" * 81, "a word of 81 symbols", 4),
]


@pytest.mark.parametrize(("text", "message", "column"), ERRORS)
def test_bad_text_is_one_line_with_its_column(text, message, column):
    with pytest.raises(ExpressionError) as err:
        parse_system(text)
    line = str(err.value)
    assert message in line and "\n" not in line
    assert err.value.position == column, line
    assert err.value.caret().splitlines()[1] == " " * column + "^"


def test_limits_on_the_base_depth_and_length():
    for bad in (1, 37, 0, -2, True, 2.0, "10"):
        with pytest.raises(ExpressionError, match="base must be a whole number from 2 to 36"):
            parse_system("a=b", base=bad)
    with pytest.raises(ExpressionError, match="more than 2 distinct symbols"):
        parse_system("ab = ba + c", base=2)
    assert parse_system("ab+cd=efg" * 1, base=16).base == 16
    deep = "(" * MAX_DEPTH + "a" + ")" * MAX_DEPTH + "=b"
    assert shapes(deep) == [("=", "a", "b")]
    with pytest.raises(ExpressionError, match="nested deeper than 50") as err:
        parse_system("(" + deep)
    assert err.value.position == MAX_DEPTH
    with pytest.raises(ExpressionError, match="nested deeper than 50"):
        parse_system("-" * (MAX_DEPTH + 1) + "a=b")
    long = "a = b" + " " * (MAX_LENGTH - 5)
    assert len(parse_system(long).relations) == 1
    with pytest.raises(ExpressionError, match="at most 10,000"):
        parse_system(long + " ")
    with pytest.raises(ExpressionError, match="more than 1000 operands") as err:
        parse_system("+".join(["a"] * 1000) + "=b")
    assert err.value.position == 2000
    # a long sum is a deep tree: every walk over it is iterative
    assert parse_system("+".join(["a"] * 999) + "=b") == parse_system("+".join(["a"] * 999)
                                                                      + "=b")


def test_a_base_takes_as_many_symbols_as_it_has_digits():
    s = parse_system("abcdef+ghijkl=mnop", base=16)
    assert len(s.symbols) == 16
    with pytest.raises(ExpressionError, match="more than 15 distinct symbols") as err:
        parse_system("abcdef+ghijkl=mnop", base=15)
    assert err.value.position == 17  # 'p', the 16th symbol


# --- precedence against an independent evaluator (shunting-yard over the text) ---------------

_TOKEN = re.compile(r"\s*(//|<=|>=|!=|==|&&|'\d+'|[-+*/%^()=<>;]|[a-z0-9\u0080-\U0010ffff]+)")
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "//": 2, "neg": 3, "%": 4, "^": 4}


def _op(op, a, b):
    if a is None or b is None:
        return None
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a // b if b and a % b == 0 else None
    if op == "//":
        return None if b == 0 else int(abs(a) // abs(b)) * (1 if (a < 0) == (b < 0) else -1)
    if op == "%":
        return a % b if b > 0 else None
    return a ** b if b >= 0 else None


def _shunting_yard(text, fill, base):
    """The value of an expression (lower-case text, no comparator), by Dijkstra's algorithm."""
    out, ops, expect_operand = [], [], True

    def reduce():
        op = ops.pop()
        if op == "neg":
            out.append(_op("-", 0, out.pop()))
        else:
            b, a = out.pop(), out.pop()
            out.append(_op(op, a, b))

    for tok in _TOKEN.findall(text):
        if tok == "(":
            ops.append(tok)
        elif tok == ")":
            while ops[-1] != "(":
                reduce()
            ops.pop()
            expect_operand = False
        elif tok in _PREC and expect_operand:
            assert tok == "-"
            ops.append("neg")
        elif tok in _PREC:
            while ops and ops[-1] != "(" and _PREC[ops[-1]] >= _PREC[tok]:
                reduce()
            ops.append(tok)
            expect_operand = True
        else:
            if tok.startswith("'"):
                out.append(int(tok[1:-1]))
            else:
                v = 0
                for ch in tok:
                    v = v * base + fill[ch]
                out.append(v)
            expect_operand = False
    while ops:
        reduce()
    return out[0]


SYMBOLS = "abcé2क"


@st.composite
def expressions(draw, depth=3):
    """Expression text: words, constants, every operator, prefix minus, parentheses, spaces."""
    if depth == 0 or draw(st.booleans()):
        if draw(st.integers(0, 4)) == 0:
            return f"'{draw(st.integers(0, 12))}'"
        return draw(st.text(SYMBOLS, min_size=1, max_size=2))
    kind = draw(st.sampled_from(["bin", "bin", "neg", "paren"]))
    if kind == "neg":
        return "-" + draw(expressions(depth - 1))
    if kind == "paren":
        return "(" + draw(expressions(depth - 1)) + ")"
    op = draw(st.sampled_from(["+", "-", "*", "/", "//", "%", "^"]))
    space = draw(st.sampled_from(["", " ", "  "]))
    return draw(expressions(depth - 1)) + space + op + space + draw(expressions(depth - 1))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions(), st.integers(2, 16), st.randoms(use_true_random=False))
def test_precedence_matches_a_shunting_yard_evaluator(text, base, rnd):
    try:
        s = parse_system(f"{text} = zz", base=max(base, 7))
    except ExpressionError as exc:
        assert "digits are supported" in str(exc)  # only the value bound can refuse these
        return
    for _ in range(3):
        fill = {ch: rnd.randrange(s.base) for ch in s.symbols}
        assert evaluate(s.relations[0].left, fill, s.base) == \
            _shunting_yard(text, fill, s.base), (text, fill)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(expressions(2), st.sampled_from(["=", "!=", "<", ">", "<=", ">="]),
                          expressions(2)), min_size=1, max_size=3),
       st.sampled_from([" ; ", " && ", ";", "&&"]), st.integers(7, 36))
def test_render_then_parse_gives_the_same_tree(relations, sep, base):
    text = sep.join(f"{a} {c} {b}" for a, c, b in relations)
    try:
        s = parse_system(text, base=base)
    except ExpressionError as exc:
        assert "digits are supported" in str(exc)
        return
    again = parse_system(s.render(), base=base)
    assert [shape(r) for r in again.relations] == [shape(r) for r in s.relations]
    assert again.symbols == s.symbols and again.leading == s.leading
    assert again.render() == s.render()


def test_values_stay_below_the_bound_under_every_assignment():
    s = parse_system("(ab - '0' * c) ^ d + a % b // c = d", base=5)
    worst = 0
    for digits in itertools.product(range(5), repeat=len(s.symbols)):
        v = evaluate(s.relations[0].left, dict(zip(s.symbols, digits)), 5)
        worst = max(worst, abs(v)) if v is not None else worst
    assert 0 < worst < 10 ** 80


def test_the_caret_shows_the_line_of_the_column_in_a_text_of_several():
    with pytest.raises(ExpressionError) as err:
        parse_system("a+b=c;\nd+e=f $")
    assert err.value.position == 13
    assert err.value.caret() == "d+e=f $\n      ^"
