"""The interactive prompt: dispatch, filters, rendering, :save, history, completion, pipe mode.

Oracles: the filters (:minfreq, :limit) are checked against brute force over the
dictionary; compose/solve results shown by the prompt against the library calls
they wrap, filtered by brute force.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from cryptocomp import Index, WordFilter, pattern
from cryptocomp.errors import CryptocompError, ExpressionError, QueryError
from cryptocomp.prompt import (
    Result,
    Row,
    Session,
    Settings,
    completer,
    error_text,
    interact,
    open_history,
    plain_lines,
    render_ansi,
    result_json,
    result_table,
    run_lines,
)

# a tiny English dictionary with the words SEND+MORE, SEND+?=MONEY, ... need
EN = {"money": 500, "honey": 200, "mommy": 50, "send": 400, "more": 300, "some": 250,
      "mend": 30, "ore": 20, "daddy": 10, "nosed": 8, "demos": 5, "sore": 3, "rose": 2,
      "demon": 120, "nodes": 60, "romeo": 55, "monet": 12}
RU = {"барабан": 70, "караван": 60, "баран": 50, "заказал": 45, "сад": 40, "вода": 30,
      "сода": 20, "дом": 10}


def _ranked(counts: dict[str, int]) -> list[tuple[int, str, int]]:
    """(rank, word, count), most frequent first: the ranking, by brute force."""
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(r, w, c) for r, (w, c) in enumerate(order, 1)]


def _ranked_top(n: int) -> list[tuple[str, int]]:
    """The n most frequent words of EN with their counts."""
    return [(w, c) for r, w, c in _ranked(EN) if r <= n]


def _fits(template: str, word: str) -> bool:
    return len(template) == len(word) and all(t == "?" or t == ch for t, ch in zip(template, word))


def _template(counts: dict[str, int], template: str) -> list[str]:
    """The words fitting a template, most frequent first, by brute force."""
    return [w for _, w, _ in _ranked(counts) if _fits(template, w)]


Q = "?o??"  # the template the interactive tests type
QW = _template(EN, Q)  # its words
QS = f"{Q}: {len(QW)} words"  # its summary line


def _write_dict(path: Path, counts: dict[str, int]) -> Path:
    path.write_text("".join(f"{w} {c}\n" for w, c in counts.items()), encoding="utf-8")
    return path


@pytest.fixture
def en_path(tmp_path) -> Path:
    return _write_dict(tmp_path / "en_small.txt", EN)


@pytest.fixture
def ru_path(tmp_path) -> Path:
    return _write_dict(tmp_path / "ru_small.txt", RU)


def _session(counts=EN, **settings) -> Session:
    idx = Index.from_counts(counts, name="t")
    idx._check()
    return Session(idx, settings=Settings(**settings))


def _plain(renderable, width: int = 100) -> str:
    """Render rich output without colour into a StringIO console (what a pipe would see)."""
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None, force_terminal=False).print(renderable)
    return buf.getvalue()


def _drive(session: Session, keys: str, *, history: Path | None = None) -> str:
    """Type ``keys`` into the prompt (pipe input, dummy output); return what it printed."""
    printed: list[str] = []
    with create_pipe_input() as inp:
        inp.send_text(keys)
        inp.close()  # end of input: Ctrl-D
        status = interact(session, input=inp, output=DummyOutput(), write=printed.append,
                          history=history, width=100, color_system=None)
    assert status == 0
    session._check()
    return "\n".join(printed)


# -- templates, :same and the filters, against brute force ----------------------------------

counts_st = st.dictionaries(st.text("abc", min_size=1, max_size=4), st.integers(1, 1000),
                            min_size=1, max_size=25)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=counts_st, data=st.data())
def test_filters_match_brute_force(counts, data):
    idx = Index.from_counts(counts, name="t")
    ranked = [(w, c) for _, w, c in _ranked(counts)]
    total = sum(counts.values())
    n = data.draw(st.integers(1, 4))
    template = "".join(data.draw(st.lists(st.sampled_from("ab?"), min_size=n, max_size=n)))
    minfreq = data.draw(st.none() | st.fractions(Fraction(1), Fraction(10**6)).map(
        lambda f: f.limit_denominator(1000)))
    limit = data.draw(st.none() | st.integers(1, 30))
    session = Session(idx)
    session.execute(f":minfreq {minfreq}" if minfreq is not None else ":minfreq off")
    session.execute(f":limit {limit}" if limit is not None else ":limit off")
    session._check()

    def keep(rank: int, word: str, count: int) -> bool:
        return ((minfreq is None or Fraction(count * 10**6, total) >= minfreq)
                and (limit is None or rank <= limit))

    want = [w for r, (w, c) in enumerate(ranked, 1) if keep(r, w, c) and len(w) == n
            and all(t == "?" or t == ch for t, ch in zip(template, w))]
    if set(template) - set("?") - set(idx.alphabet):
        with pytest.raises(QueryError):
            session.execute(template)
    else:
        assert [row.word for row in session.execute(template).result.rows] == want
    word = data.draw(st.text("abc", min_size=1, max_size=4))
    want = [w for r, (w, c) in enumerate(ranked, 1)
            if keep(r, w, c) and pattern(w) == pattern(word)]
    result = session.execute(f":same {word}").result
    result._check()
    assert [row.word for row in result.rows] == want
    assert all(row.rank == r for row in result.rows for r, (w, _) in enumerate(ranked, 1)
               if w == row.word)


def test_minfreq_converts_per_million_to_counts_exactly():
    # total 1000: 1 per million would be a count of 0.001; 250 000 per million is 250
    s = Settings(minfreq=Fraction(250_000))
    assert s.min_count(1000) == 250
    assert Settings(minfreq=Fraction(250_001)).min_count(1000) == 251
    assert Settings(minfreq=Fraction(1)).min_count(1000) == 1
    assert Settings().min_count(1000) is None


@pytest.mark.parametrize("line, message", [
    (":frobnicate", "unknown command ':frobnicate'"),
    (":top 0", ":top wants a positive whole number"),
    (":top many", ":top wants a positive whole number"),
    (":limit -3", ":limit wants a positive whole number"),
    (":minfreq -1", ":minfreq wants a positive number"),
    (":minfreq lots", ":minfreq wants a positive number"),
    (":minfreq 1e999999", "from 1e-30 to 1,000,000 (every word), or off, not '1e999999'"),
    (":minfreq 1000000.5", "from 1e-30 to 1,000,000"),
    (":minfreq 1e-999999999", "from 1e-30 to 1,000,000"),  # refused without computing 10**1e9
    (":minfreq -1e999999999", ":minfreq wants a positive number"),
    (":minfreq 1" + "0" * 5000, "from 1e-30 to 1,000,000 (every word), or off, not '100000"),
    (":minfreq 10000001/10", "from 1e-30 to 1,000,000"),
    (":minfreq nan", ":minfreq wants a positive number"),
    # zero is refused by every filter ("off" turns one off): ":limit 0" meant every word at
    # the prompt but no word on the command line (issue 12, item 10)
    (":limit 0", ":limit wants a positive whole number or 'off', not '0'"),
    (":minfreq 0", ":minfreq wants a positive number of uses per million or 'off', not '0'"),
    (":limit 1" + "0" * 5000, ":limit wants a positive whole number or 'off'"),
    (":limit +5", ":limit wants a positive whole number"),
    (":same 123", "'123' is not a word: '1' is not a letter"),
    (":same ?o??", "'?o??' is not a word: '?' is not a letter"),
    ("()", "empty operand before ')'"),  # an expression (not a template of letter '(')
    (":same", "usage: :same WORD"),
    (":save", "usage: :save"),
    (":save out.csv", "nothing to save yet"),
    (":dict /no/such/file.txt", "no such dictionary file"),
    (":lang xx", "unknown language 'xx'"),
    ("q?x", "does not occur in dictionary"),
])
def test_bad_lines_are_one_line_errors_and_change_nothing(line, message):
    session = _session()
    before = (session.index, session.settings)
    with pytest.raises(CryptocompError) as err:
        session.execute(line)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert (session.index, session.settings) == before


def test_minfreq_bounds_are_inclusive_and_any_value_describes_itself():
    session = _session()
    for arg, value in [("1000000", Fraction(10 ** 6)), ("1e6", Fraction(10 ** 6)),
                       ("1e-30", Fraction(1, 10 ** 30)), ("1/3", Fraction(1, 3)),
                       ("2_500", Fraction(2500))]:
        session.execute(f":minfreq {arg}")
        assert session.settings.minfreq == value
        session._check()
        assert "minfreq" in session.toolbar()
    session.execute(":minfreq 1e6")
    assert session.execute(Q).result.total == 0  # no word is every word of the dictionary
    # Settings built directly are not parsed: describing them must not fail either
    assert "minfreq 1e+5000/M" in Settings(minfreq=Fraction(10 ** 5000)).describe()
    assert "minfreq 2.5e+5000/M" in Settings(minfreq=Fraction(5 * 10 ** 5000, 2)).describe()
    assert "minfreq 1e-5000/M" in Settings(minfreq=Fraction(1, 10 ** 5000)).describe()
    assert "minfreq 1.23457e+17/M" in Settings(minfreq=Fraction(123456789012345678)).describe()
    assert "minfreq 999999999999999/M" in Settings(minfreq=Fraction(10 ** 15 - 1)).describe()


def test_minfreq_option_out_of_range_is_one_line(capsys):
    from cryptocomp.cli import main

    assert main(["--minfreq", "1e999999"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cryptocomp: error: --minfreq is in uses per million") and \
        err.count("\n") == 1


def test_commands_set_the_filters_shown_in_the_toolbar():
    session = _session()
    assert "top 20" in session.toolbar()
    assert session.execute(":top 3").message == "showing the top 3 results"
    session.execute(":minfreq 2.5")
    session.execute(":limit 1_000")
    assert session.settings == Settings(shown=3, minfreq=Fraction(5, 2),
                                        words=WordFilter(top=1000))
    bar = session.toolbar()
    assert "top 3" in bar and "minfreq 2.5/M" in bar and "limit 1,000" in bar
    assert f"{len(EN)} words" in bar
    assert session.execute(":top").message == f"filters: {session.settings.describe()}"
    assert session.execute(":limit").message == session.execute(":minfreq").message
    session.execute(":top all")
    session.execute(":minfreq off")
    session.execute(":limit off")
    assert session.settings == Settings(shown=None)
    assert session.execute(":help").help
    assert session.execute(":quit").quit and session.execute(":q").quit
    assert session.execute("   ").result is None and session.execute("# a comment").result is None


# -- compose and solve through the prompt -------------------------------------------------

def test_compose_shows_what_compose_returns_filtered_like_brute_force():
    from cryptocomp.cryptarithm.compose import compose

    session = _session()
    idx = session.index
    everything = compose("SEND+MORE", idx)
    assert len(everything) >= 3, "the tiny dictionary has too few SEND+MORE puzzles"
    result = session.execute("SEND+MORE").result
    result._check()
    assert result.kind == "compose" and result.title == "send+more=?"
    assert [(r.word, r.rank, r.count, r.puzzle, r.solution) for r in result.rows] == \
        [(c.word, c.rank, c.count, c.puzzle, c.solution) for c in everything]
    # the filters reach the composer as a count threshold and a rank limit
    total = idx.total
    second = everything[1]  # thresholds that keep some answers and drop others
    cut = Fraction(second.count * 10**6, total)
    session.execute(f":minfreq {cut}")
    shown = [r.word for r in session.execute("SEND+MORE").result.rows]
    assert shown == [c.word for c in everything if Fraction(c.count * 10**6, total) >= cut]
    assert 2 <= len(shown) < len(everything)
    session.execute(":minfreq off")
    session.execute(f":limit {second.rank}")
    shown = [r.word for r in session.execute("SEND+MORE").result.rows]
    assert shown == [c.word for c in everything if c.rank <= second.rank]
    assert 2 <= len(shown) < len(everything)


def test_compose_for_the_unknown_operand():
    from cryptocomp.cryptarithm.compose import compose

    session = _session()
    result = session.execute("SEND+?=MONEY").result
    assert result.kind == "compose"
    assert [r.word for r in result.rows] == [c.word for c in compose("SEND+?=MONEY", session.index)]
    assert "more" in [r.word for r in result.rows]
    row = result.rows[[r.word for r in result.rows].index("more")]
    assert row.puzzle == "send+more=money" and row.solution == "9567+1085=10652"


def test_solve_lists_solutions_and_counts_them():
    from cryptocomp.cryptarithm.solve import solve

    session = _session()
    result = session.execute("SEND+MORE=MONEY").result
    result._check()
    assert result.kind == "solve" and result.total == 1
    assert [r.solution for r in result.rows] == ["9567+1085=10652"]
    # a puzzle with many solutions: the count is exact; every one is kept, :top are shown
    session.execute(":top 3")
    result = session.execute("A+B=C").result
    everything = solve("A+B=C", cap=1000)
    assert result.total == everything.count == len(everything.equations) > 3
    assert [r.solution for r in result.rows] == everything.equations
    text = _plain(result_table(result, 3))
    assert f"and {result.total - 3} more" in text and "keeps them all" in text
    assert text.count("a+b=c") == 1 and sum(e in text for e in everything.equations) == 3


def test_bad_expression_error_has_a_caret_under_the_column():
    session = _session()
    with pytest.raises(ExpressionError) as err:
        session.execute("SEND+*MORE")
    lines = error_text(err.value).splitlines()
    assert len(lines) == 3 and lines[0].startswith("error: ")
    expr_line, caret = lines[1], lines[2]
    assert "SEND+*MORE" in expr_line
    assert expr_line[caret.index("^")] == expr_line.strip()[err.value.position] == "*"


def test_more_than_ten_letters_is_an_error():
    with pytest.raises(ExpressionError):
        _session().execute("ABCDEFGHIJ+K")


# -- rendering ----------------------------------------------------------------------------

def _compose_result(n: int) -> Result:
    rows = [Row(i, f"w{i}", 1000 - i, (1000 - i) / 10, f"ab+c=w{i}", f"12+3=4{i}") for i in
            range(1, n + 1)]
    return Result("compose", "AB+C", "ab+c=?", "en", rows, n)


def test_table_shows_rank_word_frequency_equation_and_how_many_more():
    text = _plain(result_table(_compose_result(7), 5))
    assert "ab+c=?: 7 puzzles in en" in text
    header = next(line for line in text.splitlines() if "rank" in line)
    assert header.split() == ["rank", "word", "per", "million", "puzzle", "solution"]
    body = [line.split() for line in text.splitlines() if line.strip()[:1].isdigit()]
    assert body == [[str(i), f"w{i}", f"{(1000 - i) / 10:.2f}", f"ab+c=w{i}", f"12+3=4{i}"]
                    for i in range(1, 6)]
    assert "and 2 more" in text
    assert "more" not in _plain(result_table(_compose_result(5), 5)).split("puzzles in en")[1]


def test_words_table_and_solve_table_have_their_columns():
    session = _session()
    session.execute(":top 2")
    text = _plain(result_table(session.execute(Q).result, 2))
    assert f"{QS} in" in text
    rank = {w: r for r, w, _ in _ranked(EN)}
    assert [line.split()[:2] for line in text.splitlines() if line.strip()[:1].isdigit()] == \
        [[str(rank[w]), w] for w in QW[:2]]
    assert f"and {len(QW) - 2} more" in text
    solved = Result("solve", "A=A", "a=a", "en", [Row(None, "", 0, 0.0, "a=a", "1=1")], 10)
    text = _plain(result_table(solved, 5))
    assert "a=a: 10 solutions" in text and "1=1" in text and "and 9 more" in text


def test_colour_codes_only_decorate_the_text():
    import re

    table = result_table(_compose_result(3), None)
    coloured = render_ansi(table, width=100, color_system="standard")
    plain = render_ansi(table, width=100, color_system=None)
    assert "\x1b[" in coloured and "\x1b[" not in plain
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


# -- :save --------------------------------------------------------------------------------

def test_save_after_solve_writes_every_solution_not_just_top(tmp_path):
    from cryptocomp.cryptarithm.solve import solve

    session = _session(shown=2)
    result = session.execute("AB+C=DE").result
    everything = solve("AB+C=DE", cap=100_000)
    assert 2 < everything.count == len(everything.equations) <= 10_000
    assert session.execute(f":save {tmp_path / 's.csv'}").message == \
        f"saved {everything.count:,} solutions to {tmp_path / 's.csv'}"
    with open(tmp_path / "s.csv", newline="", encoding="utf-8") as fh:
        assert [row["solution"] for row in csv.DictReader(fh)] == everything.equations
    assert plain_lines(result, 2) == [f"ab+c=de\t{e}" for e in everything.equations[:2]]


def test_save_after_solve_with_more_solutions_than_kept_says_so(tmp_path, monkeypatch):
    from cryptocomp.cryptarithm.solve import solve
    from cryptocomp.prompt import session as prompt

    monkeypatch.setattr(prompt, "SOLUTIONS_KEPT", 5)  # the real cap, 10,000, in miniature
    everything = solve("AB+C=DE", cap=100_000)
    session = _session(shown=2)
    result = session.execute("AB+C=DE").result
    result._check()
    assert result.total == everything.count > 5 and \
        [r.solution for r in result.rows] == everything.equations[:5]
    text = _plain(result_table(result, 2))
    assert f"and {everything.count - 2:,} more" in text and "keeps the first 5)" in text
    path = tmp_path / "s.json"
    assert session.execute(f":save {path}").message == \
        f"saved 5 of {everything.count:,} solutions to {path} (a solve keeps the first 5)"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["total"] == everything.count
    assert [r["solution"] for r in data["results"]] == everything.equations[:5]
    session.execute(":top 7")  # a larger :top keeps (and shows) that many
    assert len(session.execute("AB+C=DE").result.rows) == 7


def test_save_csv_and_json_hold_every_row(tmp_path):
    session = _session(shown=1)
    result = session.execute(Q).result
    assert [r.word for r in result.rows] == QW and len(QW) > 1
    assert f"saved {len(QW)} words" in session.execute(f":save {tmp_path / 'w.csv'}").message
    with open(tmp_path / "w.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["rank"], r["word"], r["count"]) for r in rows] == \
        [(str(r.rank), r.word, str(r.count)) for r in result.rows]
    session.execute(f":save {tmp_path / 'w.json'}")
    data = json.loads((tmp_path / "w.json").read_text(encoding="utf-8"))
    assert data["format"] == 1 and data["kind"] == "words" and data["total"] == len(QW)
    assert [r["word"] for r in data["results"]] == QW
    # a solved puzzle saves its listed solutions
    solved = session.execute("SEND+MORE=MONEY").result
    session.execute(f":save {tmp_path / 's.csv'}")
    with open(tmp_path / "s.csv", newline="", encoding="utf-8") as fh:
        assert list(csv.reader(fh)) == [["puzzle", "solution"]] + \
            [[r.puzzle, r.solution] for r in solved.rows] == \
            [["puzzle", "solution"], ["send+more=money", "9567+1085=10652"]]


def test_save_to_an_unwritable_place_loses_nothing(tmp_path):
    session = _session()
    result = session.execute(Q).result
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(CryptocompError) as err:
        session.execute(f":save {blocker / 'out.csv'}")
    assert "cannot write" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(QueryError, match=r"csv or .json"):
        session.execute(f":save {tmp_path / 'out.txt'}")
    assert session.last is result and not (tmp_path / "out.txt").exists()
    session.execute(f":save {tmp_path / 'out.csv'}")  # still there to save
    assert (tmp_path / "out.csv").read_text(encoding="utf-8").count("\n") == 1 + len(QW)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp files


# -- the interactive loop -----------------------------------------------------------------

def test_session_composes_solves_switches_errs_and_quits(en_path, ru_path, tmp_path):
    session = Session.open(str(en_path))
    keys = ("SEND+MORE\n"
            "SEND+MORE=MONEY\n"
            "SEND+*MORE\n"
            ":nope\n"
            f":dict {ru_path}\n"
            "?а?а?\n"
            ":same барабан\n"
            f":save {tmp_path / 'same.json'}\n"
            ":quit\n"
            "SEND+MORE\n")  # after :quit: never read
    out = _drive(session, keys)
    from cryptocomp.index.store import resolve_source

    # the banner: which dictionary, how many words, where its index lives
    index_path = resolve_source(str(en_path)).index_path
    assert f"dictionary {en_path}: {len(EN)} words · index {index_path}" in out
    assert "send+more=?:" in out and "puzzle" in out and "solution" in out
    assert "send+more=money: 1 solution (unique)" in out and "9567+1085=10652" in out
    # the bad expression: one error line, then the expression and a caret
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines)
              if line.startswith("error: ") and "position" in line)
    assert lines[at + 1].strip() == "SEND+*MORE" and lines[at + 2].strip() == "^"
    assert "error: unknown command ':nope'" in out
    assert f"dictionary {ru_path}: {len(RU)} words" in out
    assert "?а?а?: 1 word in ru_small.txt" in out and "баран" in out
    same = [w for w in RU if pattern(w) == pattern("барабан")]
    assert len(same) == 2
    assert f"same structure as барабан: {len(same)} word" in out
    assert json.loads((tmp_path / "same.json").read_text(encoding="utf-8"))["total"] == len(same)
    assert out.count("send+more=?:") == 1  # nothing ran after :quit
    assert session.index.name == Session.open(str(ru_path)).index.name


def test_ctrl_c_cancels_the_query_and_the_prompt_goes_on(monkeypatch):
    # the package exports a function named compose: reach the module itself
    compose_module = importlib.import_module("cryptocomp.cryptarithm.compose")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(compose_module, "compose", interrupted)
    session = _session()
    out = _drive(session, f"SEND+MORE\n{Q}\n")
    assert "cancelled" in out and QS in out


def test_a_bug_in_a_query_does_not_end_the_session(monkeypatch):
    compose_module = importlib.import_module("cryptocomp.cryptarithm.compose")

    def broken(*args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(compose_module, "compose", broken)
    out = _drive(_session(), f"SEND+MORE\n{Q}\n")
    assert "internal error: ValueError: boom" in out and QS in out


def test_a_bug_in_a_piped_query_does_not_end_the_input(monkeypatch):
    compose_module = importlib.import_module("cryptocomp.cryptarithm.compose")

    def broken(*args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(compose_module, "compose", broken)
    out, err = io.StringIO(), io.StringIO()
    assert run_lines(_session(shown=None), ["SEND+MORE\n", f"{Q}\n"], out, err) == 2
    assert err.getvalue() == "cryptocomp: internal error: ValueError: boom (please report it)\n"
    assert [line.split("\t")[1] for line in out.getvalue().splitlines()] == QW
    out = io.StringIO()
    assert run_lines(_session(shown=None), ["SEND+MORE", Q], out, io.StringIO(), as_json=True) == 2
    first, second = [json.loads(line) for line in out.getvalue().splitlines()]
    assert first == {"format": 1, "query": "SEND+MORE",
                     "error": "internal error: ValueError: boom (please report it)"}
    assert [r["word"] for r in second["results"]] == QW


def test_lang_lists_codes_and_refuses_paths(en_path):
    session = _session()
    assert "ru" in session.execute(":lang").message.split("one of ")[1]
    with pytest.raises(QueryError, match=":dict PATH"):
        session.execute(f":lang {en_path}")


def test_history_lives_in_the_user_state_directory(tmp_path, monkeypatch):
    from cryptocomp.prompt import history_path

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(sys, "platform", "linux")
    assert history_path() == tmp_path / "state" / "cryptocomp" / "history"


def test_delayed_progress_shows_a_bar_only_for_long_work():
    from cryptocomp.prompt import delayed_progress

    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=80)
    with delayed_progress(delay=3600, console=console)("quick") as update:
        update(1, 2)
        update(2, 2)
    assert buf.getvalue() == ""
    with delayed_progress(delay=0, console=console)("slow") as update:
        update(1, 2)
        update(2, 2)
    assert "slow" in buf.getvalue()


def test_ctrl_c_while_switching_keeps_the_old_dictionary(ru_path):
    from contextlib import contextmanager

    @contextmanager
    def cancelled(description):
        raise KeyboardInterrupt
        yield

    session = _session()
    session.progress = cancelled
    out = _drive(session, f":dict {ru_path}\n{Q}\n\x04")
    assert "cancelled" in out and QS in out and session.index.name == "t"


def test_ctrl_c_at_the_prompt_clears_the_line_and_ctrl_d_leaves():
    session = _session()
    out = _drive(session, f"?o\x03{Q}\n\x04{Q}\n")
    assert out.count(QS) == 1 and "?o: " not in out


def test_history_persists_across_sessions(tmp_path):
    history = tmp_path / "state" / "history"
    _drive(_session(), f"{Q}\n:same mend\n", history=history)
    assert Q in history.read_text(encoding="utf-8")
    # next session: Up arrow twice recalls Q from the previous session
    out = _drive(_session(), "\x1b[A\x1b[A\n", history=history)
    assert QS in out


def test_unwritable_history_only_disables_history_with_one_warning(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    out = _drive(_session(), f"{Q}\n{Q}\n", history=blocker / "history")
    assert out.count("warning: history disabled") == 1
    assert out.count(QS) == 2


def test_history_write_failing_later_warns_once(tmp_path):
    warnings: list[str] = []
    history = open_history(tmp_path / "h" / "history", warnings.append)
    os.chmod(tmp_path / "h" / "history", 0o400)
    history.filename = str(tmp_path / "h")  # a directory: writing fails, even for root
    history.append_string("one")
    history.append_string("two")
    assert len(warnings) == 1 and "history disabled" in warnings[0]
    assert list(history.get_strings()) == ["one", "two"]  # still kept for this session


def test_completion_of_commands_language_codes_and_paths(tmp_path):
    comp = completer()

    def complete(text: str) -> list[str]:
        doc = Document(text, len(text))
        return [c.text for c in comp.get_completions(doc, CompleteEvent(completion_requested=True))]

    assert complete(":s") == [":same", ":save"]
    assert complete(":q") == [":quit"]
    assert {"ru", "ro"} <= set(complete(":lang r")) and "en" not in complete(":lang r")
    (tmp_path / "words_one.txt").write_text("x 1\n")
    assert complete(f":dict {tmp_path}/words_") == ["one.txt"]
    assert complete("SEND") == []


# -- not a terminal -----------------------------------------------------------------------

def test_run_lines_plain_and_json():
    session = _session(shown=None)
    out, err = io.StringIO(), io.StringIO()
    status = run_lines(session, [f"{Q}\n", ":top 2\n", ":same mend\n", "q?x\n"], out, err)
    assert status == 2
    total = sum(EN.values())
    same = [(r, w, c) for r, w, c in _ranked(EN) if pattern(w) == pattern("mend")][:2]
    want = [(r, w, c) for r, w, c in _ranked(EN) if w in QW] + same
    assert out.getvalue().splitlines() == [f"{r}\t{w}\t{c * 1e6 / total:.6g}" for r, w, c in want]
    assert err.getvalue().count("error:") == 1 and "showing the top 2" in err.getvalue()
    assert "more not shown" in err.getvalue()
    out = io.StringIO()
    status = run_lines(_session(shown=None), [Q, ":top 1", "q?x", "SEND+MORE=MONEY"], out,
                       io.StringIO(), as_json=True)
    values = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 2 and len(values) == 3  # one a query line, none for the command
    assert values[0]["total"] == len(QW) and [v["word"] for v in values[0]["results"]] == QW
    assert "error" in values[1] and values[1]["query"] == "q?x"
    assert values[2]["kind"] == "solve" and values[2]["results"][0]["solution"] == "9567+1085=10652"


def test_plain_lines_and_json_of_compose():
    result = _compose_result(3)
    assert plain_lines(result, 2) == ["1\tw1\t99.9\tab+c=w1\t12+3=41",
                                      "2\tw2\t99.8\tab+c=w2\t12+3=42"]
    assert result_json(result, 1)["results"] == [
        {"rank": 1, "word": "w1", "count": 999, "per_million": 99.9, "puzzle": "ab+c=w1",
         "solution": "12+3=41", "assignment": None}]


def _cryptocomp(args: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cryptocomp", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, env=os.environ.copy())


def test_pipe_mode_end_to_end(en_path):
    proc = _cryptocomp(["--dict", str(en_path)], f"SEND+?=MONEY\nSEND+MORE=MONEY\n{Q}\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any(line.split("\t")[1:2] == ["more"]
               and line.endswith("send+more=money\t9567+1085=10652") for line in lines)
    assert "send+more=money\t9567+1085=10652" in lines
    assert [line.split("\t")[1] for line in lines[-len(QW):]] == QW
    assert "\x1b[" not in proc.stdout  # plain text for pipelines


@pytest.mark.slow
def test_pipe_mode_json_and_errors_end_to_end(en_path):
    proc = _cryptocomp(["--dict", str(en_path), "--json"], "SEND+MORE\nSEND+*MORE\n")
    assert proc.returncode == 2
    first, second = [json.loads(line) for line in proc.stdout.splitlines()]
    assert first["kind"] == "compose" and first["title"] == "send+more=?"
    assert second["query"] == "SEND+*MORE" and "position" in second["error"]
    proc = _cryptocomp(["--dict", str(en_path), "--json", "--top", "1", "--limit", "3"], f"{Q}\n")
    value = json.loads(proc.stdout)
    assert proc.returncode == 0 and value["total"] == len(_template(dict(_ranked_top(3)), Q)) > 0
    assert len(value["results"]) == 1
    proc = _cryptocomp(["--dict", str(en_path), "--top", "0"], "")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
