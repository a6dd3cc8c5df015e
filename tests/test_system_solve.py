"""solve() on systems in any base against the brute-force oracle, its budgets, and the CLI,
the prompt and pipe mode reading the cryptarithm language."""

from __future__ import annotations

import io
import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp import Index
from cryptocomp.cli import main
from cryptocomp.cryptarithm.grammar import parse_system
from cryptocomp.cryptarithm.solve import solve
from cryptocomp.cryptarithm.system import brute_solutions
from cryptocomp.errors import ExpressionError, QueryError
from cryptocomp.prompt import Session, Settings, completer, result_json, run_lines

# --- solve against brute force ----------------------------------------------------------------

SYMBOLS = "abcé2ΣौD"  # Latin, an accent, a digit, Greek (folded to σ), a vowel sign, upper case


@st.composite
def expressions(draw, depth=2):
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        if draw(st.integers(0, 5)) == 0:
            return f"'{draw(st.integers(0, 20))}'"
        return draw(st.text(SYMBOLS, min_size=1, max_size=2))
    kind = draw(st.sampled_from(["bin", "bin", "bin", "neg", "paren"]))
    if kind == "neg":
        return "-" + draw(expressions(depth - 1))
    if kind == "paren":
        return "(" + draw(expressions(depth - 1)) + ")"
    op = draw(st.sampled_from(["+", "-", "*", "/", "//", "%", "^", "×", "÷"]))
    return draw(expressions(depth - 1)) + f" {op} " + draw(expressions(depth - 1))


@st.composite
def systems(draw):
    """Small systems: 1-3 relations, every comparator, joined by ; or &&."""
    n = draw(st.integers(1, 3))
    rels = [f"{draw(expressions())} {draw(st.sampled_from(['=', '!=', '<', '>', '<=', '>=']))} "
            f"{draw(expressions())}" for _ in range(n)]
    seps = [draw(st.sampled_from([" ; ", " && ", ";"])) for _ in range(n - 1)]
    text = rels[0] + "".join(s + r for s, r in zip(seps, rels[1:]))
    return text + draw(st.sampled_from(["", ";", " ;;"]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(systems(), st.integers(2, 16))
def test_solve_counts_what_brute_force_counts(text, base):
    try:
        system = parse_system(text, base=base)
    except ExpressionError as exc:  # more symbols than digits, or a value beyond the bound
        assert "distinct symbols" in str(exc) or "digits are supported" in str(exc)
        return
    if base ** len(system.symbols) > 20_000:  # keep the oracle quick
        return
    want = list(brute_solutions(system))
    got = solve(text, base=base, cap=3)
    got._check()
    assert got.complete and got.base == base
    assert got.count == len(want)
    # the engine lists solutions in its own search order: the first three it met, distinct
    keys = [tuple(sorted(f.items())) for f in got.solutions]
    assert len(keys) == len(set(keys)) == min(3, len(want))
    assert set(keys) <= {tuple(sorted(f.items())) for f in want}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text("abcde", min_size=1, max_size=3), min_size=2, max_size=3),
       st.sampled_from("+-*/"))
def test_the_numpy_path_and_the_engine_agree(words, op):
    # a base-10 equation of today's shape takes the numpy path; with a step budget far above
    # its size the same puzzle goes to the engine
    text = op.join(words[:-1]) + "=" + words[-1]
    fast, engine = solve(text, cap=10**6), solve(text, cap=10**6, steps=10**7)
    # the same solutions, each path in its own order
    def key(s):
        return sorted(tuple(sorted(f.items())) for f in s.solutions)

    assert (fast.count, key(fast), fast.complete) == (engine.count, key(engine), engine.complete)


@pytest.mark.slow  # a minute while the engine tries every assignment
def test_published_shapes_solve():
    s = solve("cc + a = cl && on + d = go && ni + e = ne && cc + on = ni && a + d = e && "
              "cl + go = ne", cap=2)
    assert s.count == 1 and s.equations == [
        "44+3=47 ; 16+5=21 ; 60+8=68 ; 44+16=60 ; 3+5=8 ; 47+21=68"]
    s = solve("fall + out = falls2", base=10)   # a digit in a word is a symbol
    s._check()
    assert all(len(set(sol.values())) == len(sol) for sol in s.solutions)


def test_bases_print_their_digits_and_take_their_symbols():
    s = solve("ab + ba = cc ; a < b", base=16, cap=200)
    s._check()
    assert s.count == 49 and s.base == 16 and "5a+a5=ff ; 5<a" in s.equations
    assert solve("a + a = b", base=2).count == 0   # 1+1 = 10 in base 2: b cannot hold it
    with pytest.raises(ExpressionError, match="more than 2 distinct symbols"):
        solve("a + a = bc", base=2)


# Cryptator's base-16 puzzle (its BigNum model: 2,969 s): no engine counts it in 0.3 s
BIG = ("lets+also+remember+the+golden+age+of+old+films+as+the+fantastic+bogart+and+the+"
       "fantastic+bergman+and+that+dear+old+sam+starred+in+one+of+the+most+memorable+action+"
       "films+called=casablanca")


def test_a_budget_stops_the_count_and_says_so():
    big = BIG
    started = time.monotonic()
    s = solve(big, base=16, time=0.3, cap=1)
    elapsed = time.monotonic() - started
    assert not s.complete and elapsed < 0.3 * 1.1 + 0.1, elapsed
    s = solve(big, base=16, steps=5000)
    assert not s.complete and s.count >= 0
    s = solve("a+b=c", base=16, steps=10**6)
    assert s.complete and s.count == solve("a+b=c", base=16).count
    for bad in ({"time": 0}, {"time": -1}, {"time": float("nan")}, {"steps": 0},
                {"steps": 1.5}, {"cap": -1}):
        with pytest.raises(ExpressionError):
            solve("a=b", **bad)


# --- the command line -------------------------------------------------------------------------

def test_cli_solve_in_a_base_with_budgets(capsys):
    assert main(["solve", "ab+ba=cc;a<b", "--base", "16", "--cap", "1"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "ab+ba=cc ; a<b (base 16): 49 solutions", "12+21=33 ; 1<2",
        "… and 48 more (use --cap N)"]
    assert main(["solve", "cc+a=cl && on+d=go", "--json", "--cap", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["base"], doc["count"], doc["complete"]) == (10, 56, True)
    assert main(["solve", BIG, "--base", "16", "--steps", "100"]) == 1
    out = capsys.readouterr().out
    assert "at least 0 solutions (the budget ran out" in out


@pytest.mark.parametrize("argv", [["solve", "a=b", "--base", "1"],
                                  ["solve", "a=b", "--base", "37"],
                                  ["solve", "a=b", "--base", "x"],
                                  ["solve", "a=b", "--time", "0"],
                                  ["solve", "a=b", "--steps", "0"],
                                  ["compose", "send+more", "--base", "16"],
                                  ["solve", "a && b"]])
def test_cli_bad_options_and_text_are_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and err[0].startswith("cryptocomp: error: ")
    assert not any("Traceback" in line for line in err)


# --- the prompt and pipe mode -----------------------------------------------------------------

def _session(**kw) -> Session:
    return Session(Index.from_counts({"money": 50, "honey": 20, "send": 40}, name="t"),
                   settings=Settings(**kw))


def test_the_prompt_solves_systems_in_its_base_and_composes_unknowns():
    s = _session()
    r = s.execute("cc + a = cl && on + d = go").result
    assert r.kind == "solve" and r.total == 56 and r.title == "cc+a=cl ; on+d=go"
    assert s.execute("send+more").result.kind == "compose"
    assert s.execute("send+?=money").result.kind == "compose"
    assert s.execute("a < b").result.total == 45
    assert "base 16" in s.execute(":base 16").message and "base 16" in s.settings.describe()
    r = s.execute("ab+ba=cc ; a<b").result
    r._check()
    assert r.title == "ab+ba=cc ; a<b (base 16)" and r.total == 49
    assert result_json(r)["complete"] is True
    with pytest.raises(QueryError, match="compose works in base 10 only"):
        s.execute("send+more")
    for bad in ("1", "37", "ten", ""):
        if bad:
            with pytest.raises(QueryError, match=":base wants a whole number from 2 to 36"):
                s.execute(f":base {bad}")
    assert "base 16" in s.execute(":base").message
    s._check()


def test_tab_completes_the_base_command_and_its_argument():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    c = completer()
    assert [x.text for x in c.get_completions(Document(":bas"), CompleteEvent())] == [":base"]
    assert [x.text for x in c.get_completions(Document(":base 1"), CompleteEvent())][:2] == \
        ["10", "16"]


def test_pipe_mode_reads_systems_and_base_lines():
    out, err = io.StringIO(), io.StringIO()
    lines = ["cc + a = cl && on + d = go\n", ":base 16\n", "ab+ba=cc;a<b\n", "a+b=c &\n",
             ":base 99\n"]
    assert run_lines(_session(shown=1), lines, out, err) == 2
    assert out.getvalue().splitlines() == ["cc+a=cl ; on+d=go\t11+2=13 ; 46+8=54",
                                           "ab+ba=cc ; a<b\t12+21=33 ; 1<2"]
    text = err.getvalue()
    assert "'&' alone: relations are joined by '&&' or ';' (at position 7)" in text
    assert "(base 16): 49 solutions; 48 more not shown" in text
    assert ":base wants a whole number from 2 to 36" in text
    out = io.StringIO()
    assert run_lines(_session(), ["a+b=c ; a>'7'"], out, io.StringIO(), as_json=True) == 0
    doc = json.loads(out.getvalue())
    assert doc["kind"] == "solve" and doc["complete"] is True and doc["total"] == 1
