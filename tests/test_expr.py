"""The puzzle parser: structure, normal form, and one clear error per kind of bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cryptocomp.cryptarithm.expr import (
    BinOp,
    Hole,
    Operand,
    bound,
    looks_like_expression,
    operands,
    parse,
    render,
)
from cryptocomp.errors import ExpressionError


def test_precedence_and_left_associativity():
    p = parse("a+b*c-d/e")
    assert isinstance(p.left, BinOp) and p.left.op == "-"
    plus = p.left.left
    assert plus.op == "+" and plus.right.op == "*"
    assert p.left.right.op == "/"
    assert p.right is None and p.unknown


def test_parentheses_kept_in_normal_form():
    for text in ["(a+b)*c=abc", "a-(b-c)=?", "a-(b+c)=d", "a*(b/c)=d",
                 "a/(b*c)=d", "a+b*c=?"]:
        assert str(parse(text)) == text
    assert str(parse("((a))+(b)")) == "a+b=?"
    assert str(parse("(a+b)+c")) == "a+b+c=?"
    assert str(parse("(a/b)/c=d")) == "a/b/c=d"


def test_spaces_case_and_synonyms_ignored():
    p = parse("  SEND +  More ")
    assert str(p) == "send+more=?"
    assert p.letters == ("s", "e", "n", "d", "m", "o", "r")
    assert str(parse("I + BB == ILL")) == "i+bb=ill"
    assert str(parse("a × b ÷ c")) == "a*b/c=?"


def test_unknown_anywhere():
    p = parse("SEND+?=MONEY")
    assert p.unknown and isinstance(p.left.right, Hole)
    assert parse("?-more=money").unknown
    assert not parse("send+more=money").unknown
    assert parse("send+more=?").unknown
    assert str(parse("send*(?+a)=money")) == "send*(?+a)=money"


def test_templates_for_the_unknown():
    for text, template, normal in [
        ("SEND+MORE=?O???", "?o???", "send+more=?o???"),
        ("send+more=m????", "m????", "send+more=m????"),
        ("send+more=m.??y", "m???y", "send+more=m???y"),
        ("send+more=[ m * ]", "m*", "send+more=[m*]"),
        ("send+more=[*]", "*", "send+more=[*]"),
        ("send+more=[?o?]", "?o?", "send+more=?o?"),
        ("a+[?]=b", "?", "a+[?]=b"),
        ("a+??=bc", "??", "a+??=bc"),
        ("send+(m?r?*a)=money", "m?r?", "send+m?r?*a=money"),
        ("SEND+MORE=?", None, "send+more=?"),
        ("SEND+MORE", None, "send+more=?"),
    ]:
        p = parse(text)
        assert p.template == template and str(p) == normal, text
        assert parse(str(p)).template == template  # the normal form reads back
    hole = parse("send+more=[m?y*]").hole
    assert hole.where == (11, 12, 13, 14) and hole.pos == 10
    # template letters are not puzzle letters
    assert parse("a+b=c?d").letters == ("a", "b")


def test_leading_letters_and_operands():
    p = parse("a+bc=def")
    assert p.leading() == ("b", "d")
    assert [o.word for o in p.operands()] == ["a", "bc", "def"]
    assert [type(o) for o in operands(parse("a+?=b").left)] == [Operand, Hole]


def test_cyrillic():
    p = parse("ХАБР*хабр")
    assert str(p) == "хабр*хабр=?" and p.script == "CYRILLIC"
    assert p.letters == ("х", "а", "б", "р")


def test_render_with_digits():
    p = parse("send+more=money")
    fill = dict(zip("sendmory", [9, 5, 6, 7, 1, 0, 8, 2]))
    assert p.render(fill) == "9567+1085=10652"
    assert render(parse("a+?=b").left, {"a": 3}, hole="12") == "3+12"


def test_bound():
    assert bound(parse("ab*cd").left) == 99 * 99
    assert bound(parse("ab-cd").left) == 99 + 99
    assert bound(parse("abc/d").left) == 999


def test_looks_like_expression():
    assert looks_like_expression("send+more")
    assert looks_like_expression("a=b")
    assert not looks_like_expression("?р??а")
    assert not looks_like_expression("барабан")
    # parentheses alone mark an expression too, so the parser reports what is wrong with them
    for text in ["()", "(send)", "(", "send)", "a×b", "a÷b"]:
        assert looks_like_expression(text), text
    with pytest.raises(ExpressionError, match=r"empty operand before '\)'") as info:
        parse("()")
    assert info.value.caret().splitlines()[1] == " ^"


@pytest.mark.parametrize("text, fragment, position", [
    ("", "empty expression", 0),
    ("   ", "empty expression", 0),
    ("send+", "empty operand at the end", 5),
    ("send++more", "empty operand before '+'", 5),
    ("+send", "empty operand before '+'", 0),
    ("-send+more", "unary minus", 0),
    ("send*-more", "unary minus", 5),
    ("send+()", "empty operand before ')'", 6),
    ("(send+more", "expected ')'", 10),
    ("send+more)", "unbalanced ')'", 9),
    ("send+m0re", "digit '0'", 6),
    ("send+mo_re", "unexpected character '_'", 7),
    ("send%more", "unexpected character '%'", 4),
    ("a=b=c", "more than one '='", 3),
    ("a+?=?", "only one unknown", 4),
    ("?+?=a", "only one unknown", 2),
    ("a+?", "needs a right side", 3),
    ("abcdefghij+k", "more than 10 distinct letters", 11),
    ("abcde+fghijk", "more than 10 distinct letters", 11),
    ("send+мore", "use one alphabet", 5),
    ("send more", "expected an operator", 5),
    ("se?d+a", "needs a right side", 6),  # se?d is a template for the unknown
    ("send+more=[money]", "a template needs a wildcard", 10),
    ("send+more=[]", "empty template", 10),
    ("send+more=[m??", "expected ']'", 14),
    ("send+more=m??]", "unbalanced ']'", 13),
    ("send+more=[m-?]", "unexpected character '-' in a template", 12),
    ("send+more=mo?ж", "letter 'ж' of the template is Cyrillic", 13),
    ("send+?=m???", "only one unknown", 7),
    ("a+b?=c*[*d]", "only one unknown", 7),
    ("?", "needs a right side", 1),
    ("?=?", "only one unknown", 2),
])
def test_errors_name_the_position(text, fragment, position):
    with pytest.raises(ExpressionError) as info:
        parse(text)
    err = info.value
    assert fragment in str(err)
    assert err.position == position
    assert str(err).endswith(f"(at position {position + 1})")
    assert "\n" not in str(err)
    assert err.caret().splitlines()[1] == " " * position + "^"


def test_absurdly_large_numbers_refused_quickly():
    with pytest.raises(ExpressionError, match="at most 36"):
        parse("abcdefghij*abcdefghij*abcdefghij*abcdefghij=?")
    with pytest.raises(ExpressionError, match="operand of 40 letters"):
        parse("a" * 40 + "+b")
    with pytest.raises(ExpressionError, match="nested deeper"):
        parse("(" * 60 + "a" + ")" * 60)
    with pytest.raises(ExpressionError, match="more than 1000 operands"):
        parse("+".join(["a"] * 1001))


def test_value_and_holds():
    from cryptocomp.cryptarithm.expr import holds, value

    p = parse("send+more=money")
    fill = dict(zip("sendmory", [9, 5, 6, 7, 1, 0, 8, 2]))
    assert value(p.left, fill) == 10652 == value(p.right, fill)
    assert holds(p, fill)
    assert not holds(p, {**fill, "y": 3})
    assert not holds(parse("a+b=ab"), {"a": 0, "b": 0})  # not injective
    assert not holds(parse("ab=ab"), {"a": 0, "b": 1})   # leading zero
    assert value(parse("a/b").left, {"a": 7, "b": 2}) is None
    assert value(parse("a/b").left, {"a": 8, "b": 0}) is None
    assert value(parse("a/?=b").left, {"a": 8, "b": 4}, hole=2) == 4


@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
def test_a_thousand_operands_at_any_depth(shallow_stack, op):
    # MAX_OPERANDS operands ('?' is one), every walk iterative: no RecursionError
    from cryptocomp.cryptarithm.expr import MAX_OPERANDS, hole_path, value

    assert MAX_OPERANDS == 1000
    # a product of 999 numbers passes 36 digits: products of pairs, added
    terms = ["a*b"] * 499 + ["a"] if op == "*" else ["a"] * 999
    join = "+" if op == "*" else op
    text = join.join(terms) + "=?"
    p = shallow_stack(parse, text)
    assert shallow_stack(str, p) == text
    assert shallow_stack(value, p.left, {"a": 1, "b": 2}) == \
        {"+": 999, "-": -997, "*": 999, "/": 1}[op]
    assert shallow_stack(bound, p.left) == {"+": 8991, "-": 8991, "*": 499 * 81 + 9, "/": 9}[op]
    assert shallow_stack(parse, text) == p and hash(shallow_stack(parse, text)) == hash(p)
    assert text in shallow_stack(repr, p)
    deep = shallow_stack(parse, "?" + f"{op}a" * 998 + "=ab")
    assert len(shallow_stack(hole_path, deep.left)) == 998
    nested = "(" * 50 + "a" + "+a)" * 50 + "+a" * 948 + "=?"  # 1000 operands, 50 deep
    assert shallow_stack(str, shallow_stack(parse, nested)).count("a") == 999
    with pytest.raises(ExpressionError, match="more than 1000 operands") as info:
        parse(op.join(["a"] * 1000) + "=?")
    assert info.value.position == 2000


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab?.*[]()+-*/= жx×÷1_", max_size=24))
def test_any_text_parses_or_fails_with_one_positioned_line(text):
    # fuzz: the grammar with templates; every failure is an ExpressionError naming a
    # column inside the text (or just past it), never another exception
    try:
        p = parse(text)
    except ExpressionError as exc:
        assert "\n" not in str(exc)
        assert exc.position is not None and 0 <= exc.position <= len(text)
        return
    again = parse(str(p))  # the normal form reads back to the same puzzle
    assert str(again) == str(p) and again.template == p.template
    if p.hole is not None and p.hole.template is not None:
        assert len(p.hole.where) == len(p.hole.template)
        assert all(text[col].lower() in (ch, "." if ch == "?" else ch)
                   for ch, col in zip(p.hole.template, p.hole.where))


def test_caret_counts_terminal_columns_not_code_points():
    # a wide character takes two columns, a combining accent none
    assert ExpressionError("bad", 3, "語語+$").caret() == "語語+$\n     ^"
    assert ExpressionError("bad", 3, "e\u0301+$").caret() == "e\u0301+$\n  ^"
