"""The composer against the brute-force oracles of ``compose_oracle`` on small random
dictionaries and puzzles of every shape, fixed cases, and the command line."""

from __future__ import annotations

import pytest
from compose_oracle import (
    EN_COUNTS,
    SHAPES,
    STEPS,
    check_against_oracle,
    check_composed,
    expected_words,
    is_undetermined,
    puzzle_text,
    right_cases,
    shape_case,
    shape_cases,
    side_with_hole,
    spell_value,
    unique_by_solve,
    value_of,
)
from hypothesis import HealthCheck, event, given, settings

import cryptocomp.cryptarithm.evaluation as evaluation
from cryptocomp import Index, WordFilter
from cryptocomp.cryptarithm.compose import compose
from cryptocomp.errors import ExpressionError

_SETTINGS = settings(max_examples=60, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(right_cases())
@pytest.mark.slow
def test_compose_matches_oracle(case):
    left, counts = case
    check_against_oracle(left, ("?",), counts, by_value=True)


@_SETTINGS
@given(shape_cases())
def test_compose_unknown_operand_matches_brute_force(case):
    found = check_against_oracle(*case)
    event("refused (not determined)" if found is None else f"{min(found, 2)}+ words found")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(right_cases(letters="абвгд", extra="ежз", foreign="xy"))
def test_compose_matches_oracle_cyrillic(case):
    left, counts = case
    check_against_oracle(left, ("?",), counts, by_value=True)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape_cases(letters="аб", known_letters="абв", extra="гд", foreign="xy"))
def test_compose_unknown_operand_matches_brute_force_cyrillic(case):
    left, right, counts = case
    check_against_oracle(left, right, counts)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(right=right_cases(), anywhere=shape_cases())
@pytest.mark.slow
def test_compose_big_number_path_matches_oracle(right, anywhere):
    # force the object-dtype (Python int) evaluation used for numbers beyond int64,
    # for these examples only
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(evaluation, "_INT64_LIMIT", 0)
        check_against_oracle(right[0], ("?",), right[1], by_value=True)
        check_against_oracle(*anywhere)


def test_shapes_reach_every_position_under_every_operator():
    # the generators draw from SHAPES: every operator, '?' as either operand, at every
    # depth up to 3 (dividend, divisor, minuend, subtrahend, factor, addend, nested)
    from cryptocomp.cryptarithm.expr import BinOp, has_hole, parse

    for depth in range(1, 4):
        for level in range(depth):
            for step in STEPS:
                assert any(len(s) == depth and s[level] == step for s in SHAPES)
    assert () in SHAPES and len(SHAPES) == 1 + 8 + 64 + 512
    # and the side built for a shape puts '?' exactly there (read back by the parser)
    for shape in SHAPES:
        side = side_with_hole(shape, [("w", "ab")] * len(shape))
        for text in (puzzle_text(side) + "=c", "c=" + puzzle_text(side)):
            p = parse(text)
            node = p.left if has_hole(p.left) else p.right
            path = []
            while isinstance(node, BinOp):
                path.append((node.op, has_hole(node.left)))
                node = node.left if has_hole(node.left) else node.right
            assert tuple(path) == shape, text


@pytest.mark.parametrize("hole_left", [True, False], ids=["?-side-left", "?-side-right"])
@pytest.mark.parametrize("shape", [s for s in SHAPES if len(s) <= 2],
                         ids=lambda s: "".join(f"{op}{'L' if hl else 'R'}" for op, hl in s) or "?")
def test_every_shape_matches_brute_force(shape, hole_left):
    # deterministic: each shape of depth <= 2 on each side of '=', long known operands
    # beside '?' and a short other side (the case where a too-small bound loses the
    # unknown's longest words), with the words of its largest values planted
    siblings = [("w", w) for w in ("aba", "ba")[:len(shape)]]
    words = ["ab", "xa", "bxy"]
    check_against_oracle(*shape_case(shape, siblings, ("w", "c"), hole_left, words,
                                       [0, 1, 2, 5], "xy"))


# -- fixed cases -------------------------------------------------------------------------------

@pytest.mark.slow
def test_send_more():
    index = Index.from_counts(EN_COUNTS)
    got = compose("SEND + MORE", index)
    assert [(r.word, r.solution) for r in got] == unique_by_solve("send+more=?", index)
    assert got[0].word == "money" and got[0].solution == "9567+1085=10652"
    assert got[0].puzzle == "send+more=money"
    for r in got:
        check_composed(r, index)
    assert got[0].assignment == dict(zip("sendmory", [9, 5, 6, 7, 1, 0, 8, 2]))


@pytest.mark.slow
def test_unknown_operand_first_and_middle():
    index = Index.from_counts({w: EN_COUNTS[w] for w in ["more", "move", "money", "day", "жена"]})
    for query in ["?-more=money", "send+?=money", "(send+?)*y=money"]:
        got = compose(query, index)
        assert [(r.word, r.solution) for r in got] == unique_by_solve(query, index), query
    got = compose("send+?=money", index)
    r = got[[r.word for r in got].index("more")]
    assert r.puzzle == "send+more=money" and r.solution == "9567+1085=10652"


def test_long_results_use_wide_keys():
    # results up to 14 digits: keys span two uint64 words
    counts = {"abxyzabxyzabxy": 5, "bbbbbbbbbbbbbb": 4, "xyzwvutsrqponm": 3, "abab": 2, "ba": 1,
              "bxbxbxbxbxbxb": 6, "xxxxxxxxxxxx": 7}
    index = Index.from_counts(counts)
    left = ("*", ("*", ("*", ("w", "ab"), ("w", "ab")), ("*", ("w", "ab"), ("w", "ab"))),
            ("*", ("*", ("w", "ab"), ("w", "ab")), ("w", "ab")))
    got = compose(puzzle_text(left), index)
    want = expected_words(left, ("?",), counts, "ab", by_value=True)
    assert [r.word for r in got] == [w for w, _ in want]
    for r, (_w, sol) in zip(got, want):
        assert r.assignment == sol


def test_cyrillic_query_never_yields_latin_words():
    # xyy and жзз have the same letter structure: each completes its own script's ab+b
    index = Index.from_counts({"xyy": 100, "жзз": 5, "ab": 1})
    assert [r.word for r in compose("аб+б", index)] == ["жзз"]
    assert [r.word for r in compose("ab+b", index)] == ["xyy"]


def test_vobly_is_not_unique():
    # the published algorithm called this unique; it has 336 solutions
    index = Index.from_counts({"воблы": 10, "новый": 5})
    assert "воблы" not in [r.word for r in compose("вышли-еще", index)]


def test_filters():
    index = Index.from_counts(EN_COUNTS)
    full = compose("send+more", index)
    words = [r.word for r in full]
    assert [r.word for r in compose("send+more", index, max_results=2)] == words[:2]
    assert [r.word for r in compose("send+more", index, WordFilter(min_count=75))] == \
        [w for w in words if EN_COUNTS[w] >= 75]
    ranked = sorted(EN_COUNTS, key=lambda w: (-EN_COUNTS[w], w))
    assert [r.word for r in compose("send+more", index, WordFilter(top=5))] == \
        [w for w in words if w in ranked[:5]]
    assert [r.word for r in compose("send+more", index,
                                    WordFilter(min_length=5, max_length=5))] == \
        [w for w in words if len(w) == 5]
    assert compose("send+more", index, WordFilter(max_length=4)) == []
    with pytest.raises(ExpressionError, match="must not be negative"):
        compose("send+more", index, max_results=-1)
    with pytest.raises(ExpressionError, match="top must not be negative"):
        compose("send+more", index, WordFilter(top=-1))


def test_negative_and_inexact_results_yield_nothing():
    index = Index.from_counts({"a": 1, "b": 2, "c": 3, "ab": 4})
    # a-bc is always negative
    assert compose("a-bc", index) == []
    for r in compose("ab/c", index):
        a, b, c = (r.assignment[x] for x in "abc")
        assert (10 * a + b) % c == 0


def test_undetermined_unknown_is_refused():
    index = Index.from_counts({"a": 1, "b": 2})
    with pytest.raises(ExpressionError, match="not determined") as info:
        compose("a*?=a", index)
    assert info.value.position == 2
    with pytest.raises(ExpressionError, match="not determined"):
        compose("b/?=a-a", index)
    # never undetermined: a two-letter factor is never 0
    compose("ab*?=cd", index)
    # refused whatever the dictionary holds, also with no candidate word at all
    for counts in ({"ж": 1}, {"x": 1}):
        with pytest.raises(ExpressionError, match="not determined"):
            compose("b=(b/(?+aa))*a", Index.from_counts(counts))


def test_free_level_below_an_unsolvable_one_is_no_refusal():
    # (?*a)*b=c: a = 0 would leave '?' free, but then c = 0 too, which is a's digit:
    # no assignment with a = 0 solves the upper level, so the puzzle is determined
    tree = ("*", ("*", ("?",), ("w", "a")), ("w", "b"))
    assert not is_undetermined(tree, ("w", "c"))
    # composed (not refused), and the brute force agrees on every word
    assert check_against_oracle(tree, ("w", "c"), {"d": 3, "e": 2, "bd": 1, "x": 1}) == 0


def test_complete_puzzle_is_not_composed():
    with pytest.raises(ExpressionError, match="use solve"):
        compose("send+more=money", Index.from_counts({"a": 1}))


def test_progress_is_reported():
    index = Index.from_counts(EN_COUNTS)
    seen = []
    compose("send+more", index, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] == 604800


# -- command line ------------------------------------------------------------------------------

@pytest.fixture
def en_file(tmp_path):
    path = tmp_path / "en.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in EN_COUNTS.items()), encoding="utf-8")
    return path


def test_cli_compose_plain_and_json(en_file, capsys):
    import json

    from cryptocomp.cli import main

    want = compose("send+more", Index.from_counts(EN_COUNTS))
    assert main(["compose", "send+more", "--dict", str(en_file)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{r.puzzle}\t{r.solution}\t{r.count}" for r in want]
    assert main(["compose", "SEND + MORE", "--dict", str(en_file), "--json", "--top", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc == [{"word": "money", "count": 500, "rank": 1, "puzzle": "send+more=money",
                    "solution": "9567+1085=10652",
                    "assignment": dict(zip("sendmory", [9, 5, 6, 7, 1, 0, 8, 2]))}]


@pytest.mark.parametrize("argv, message", [
    (["compose", "send+"], "empty operand at the end (at position 6)"),
    (["compose", "send+more=money"], "use solve"),
    (["compose"], "give an EXPR, --batch"),
    (["compose", "a+b", "--top", "-1"], "--top must not be negative"),
    (["compose", "--batch", "nowhere.txt", "nowhere.txt"], "word list not found: nowhere.txt"),
])
def test_cli_compose_errors(en_file, capsys, argv, message):
    from cryptocomp.cli import main

    assert main(argv + ["--dict", str(en_file)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cryptocomp: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_cli_batch_groups_results_by_query(en_file, tmp_path, capsys):
    from cryptocomp.cli import main

    left = tmp_path / "left.txt"
    right = tmp_path / "right.txt"
    left.write_text("send\n# a comment\nabcdef\n", encoding="utf-8")
    right.write_text("more\nghijk\n", encoding="utf-8")
    assert main(["compose", "--batch", str(left), str(right), "--ops", "+-",
                 "--dict", str(en_file), "--jobs", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    index = Index.from_counts(EN_COUNTS)
    want = []
    for q in ["send+more", "send+ghijk", "send-more", "send-ghijk", "abcdef+more",
              "abcdef+ghijk", "abcdef-more", "abcdef-ghijk"]:
        try:
            rs = compose(q, index)
        except ExpressionError as exc:
            want.append(f"# {q}: error: {exc}")
            continue
        want.append(f"# {q}: {len(rs)} puzzle{'s' if len(rs) != 1 else ''}")
        want += [f"{r.puzzle}\t{r.solution}\t{r.count}" for r in rs]
    assert out == want
    assert "# abcdef+ghijk: error: more than 10 distinct letters" in "\n".join(out)


def test_results_beyond_int64_use_python_ints():
    # ab**10 reaches 20 digits: evaluated with Python ints, keys of two uint64 words
    left = ("w", "ab")
    for _ in range(9):
        left = ("*", left, ("w", "ab"))
    words = []
    for a, b in [(9, 8), (8, 9), (9, 7), (7, 6), (5, 4)]:
        fill = {"a": a, "b": b}
        spelled = spell_value(value_of(left, fill), fill, "cdefghijkl")
        if spelled:
            words.append(spelled)
    assert any(len(w) > 18 for w in words)
    counts = {w: 10 + i for i, w in enumerate(words)}
    index = Index.from_counts(counts)
    got = compose(puzzle_text(left), index)
    want = expected_words(left, ("?",), counts, "ab", by_value=True)
    assert [r.word for r in got] == [w for w, _ in want] and got
    for r, (_w, sol) in zip(got, want):
        assert r.assignment == sol
        check_composed(r, index)
