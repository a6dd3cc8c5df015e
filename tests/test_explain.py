"""The answer key (cryptarithm.explanation): numbered steps a person can follow, in the
puzzle's language, each naming what it concludes, ending at the solution; and the CLI and
prompt surfaces of the difficulty (solve, compose, :difficulty, PDF keys)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from system_cases import systems

from cryptocomp import Index
from cryptocomp.cli import main
from cryptocomp.cryptarithm.difficulty import solution_path, system_of
from cryptocomp.cryptarithm.explanation import (
    PHRASES,
    explain,
    language_of_system,
    step_lines,
)
from cryptocomp.cryptarithm.system import brute_solutions
from cryptocomp.prompt import Session, Settings

NUMBERED = re.compile(r"^(\d+)\. \S")


def test_send_more_money_reads_as_an_answer_key():
    e = explain("send+more=money")
    lines = e.lines
    assert [int(NUMBERED.match(line).group(1)) for line in lines] == \
        list(range(1, len(lines) + 1))
    assert lines[0] == "1. No number starts with 0: S, M ≠ 0."
    assert lines[1] == "2. Column 5: carry = M: M = 1, the carry into column 5 is 1."
    assert any("S + M + carry ends in O" in line for line in lines)
    assert any("Columns 2 and 3 together" in line for line in lines)
    assert lines[-1] == f"{len(lines)}. Solution: 9567+1085=10652."
    assert e.difficulty.guesses == 0 and not any("Guess" in line for line in lines)


def test_a_guess_names_the_digits_that_failed():
    lines = explain("two+two=four").lines
    guesses = [line for line in lines if "Guess" in line]
    assert guesses and all(re.search(r"Guess [A-Z] = \d", line) for line in guesses)
    assert any(re.search(r"\([A-Z] = \d(, [A-Z] = \d)* fails?\)", line) for line in guesses)


def test_cyrillic_puzzles_are_explained_in_russian():
    e = explain("год+год=мост")
    assert e.lines[0] == "1. Ни одно число не начинается с 0: Г, М ≠ 0."
    assert any("оканчивается на" in line for line in e.lines)
    assert e.lines[-1].endswith("Решение: 627+627=1254.")
    assert not any(word in " ".join(e.lines) for word in ("Column", "carry", "Guess"))


def test_both_languages_have_every_phrase():
    assert set(PHRASES["en"]) == set(PHRASES["ru"])


def test_a_product_is_explained_by_its_last_digits():
    lines = explain("ab*c=dab", seconds=5).lines
    assert any("last digit" in line for line in lines) or lines[-1].startswith(
        f"{len(lines)}. Solution")


@given(systems())
@pytest.mark.slow
def test_every_explanation_ends_at_a_true_solution(system):
    """Steps numbered 1..n; the last names the path's solution, which solves the system;
    a system without solution ends without one."""
    solutions = list(brute_solutions(system))
    path = solution_path(system, seconds=30, nodes=10**6)
    lines = step_lines(path, language_of_system(system))
    assert len(lines) == len(path.steps) + (1 if path.solution is not None else 0)
    assert all(line and "\n" not in line for line in lines)
    if solutions:
        assert lines[-1] == f"Solution: {system.render(path.solution)}."
    else:
        assert not any(line.startswith("Solution") for line in lines)


def test_an_unfinished_explanation_says_so():
    e = explain("azure+green+peru+purple=orange", seconds=0.02)
    assert not e.difficulty.rated
    assert e.lines[-1].endswith("(The explanation stops here: the puzzle takes too long to "
                                "rate.)")


# -- the command line ----------------------------------------------------------------------

def test_solve_prints_the_difficulty_and_the_steps(capsys):
    assert main(["solve", "send+more=money", "--explain"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["send+more=money: 1 solution", "9567+1085=10652"]
    assert re.fullmatch(r"difficulty: level [1-5] \(score \d+: \d+ steps, no guess\)", out[2])
    assert out[3] == "1. No number starts with 0: S, M ≠ 0."
    assert out[-1].endswith("Solution: 9567+1085=10652.")


def test_solve_json_has_the_difficulty(capsys):
    assert main(["solve", "send+more=money", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["difficulty"]["guesses"] == 0 and 1 <= doc["difficulty"]["level"] <= 5
    assert "explanation" not in doc
    assert main(["solve", "send+more=money", "--json", "--explain"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["explanation"][-1].endswith("Solution: 9567+1085=10652.")
    assert main(["solve", "aa+aa=a", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["difficulty"] is None


@pytest.fixture
def words_file(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("money 500\ndad 90\ngag 40\nnodes 30\nmorel 20\n", encoding="utf-8")
    return path


def test_compose_difficulty_column_and_filter(words_file, capsys):
    assert main(["compose", "send+more", "--dict", str(words_file), "--difficulty"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert [r[0] for r in rows] == ["send+more=money", "send+more=nodes", "send+more=morel"]
    assert all(r[-1] in "12345" for r in rows)
    levels = {r[0]: int(r[-1]) for r in rows}
    assert main(["compose", "send+more", "--dict", str(words_file), "--max-difficulty",
                 str(min(levels.values())), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {o["puzzle"] for o in doc} == {p for p, lv in levels.items()
                                          if lv == min(levels.values())}
    assert all(o["difficulty"]["level"] <= min(levels.values()) for o in doc)


def test_compose_max_difficulty_keeping_nothing_says_so(words_file, capsys):
    assert main(["compose", "ab+ba", "--dict", str(words_file), "--max-difficulty", "1"]) == 0
    assert capsys.readouterr().out.startswith("ab+ba=dad\t29+92=121\t90\t1")
    assert main(["compose", "send+more", "--dict", str(words_file), "--max-difficulty",
                 "1"]) == 1
    assert "none of the 3 puzzles is rated at most level 1" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["compose", "send+more", "--max-difficulty", "6"], "--max-difficulty"),
    (["compose", "send+more", "--max-difficulty", "0"], "--max-difficulty"),
    (["compose", "--batch", "a.txt", "b.txt", "--difficulty"], "go with one EXPR"),
])
def test_bad_difficulty_options_are_one_line(argv, message, capsys, words_file):
    assert main(argv + ["--dict", str(words_file)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "Traceback" not in err[0]


def test_pdf_keys_carry_the_level_and_the_steps(words_file, tmp_path, capsys):
    from pdf_reading import page_texts

    target = tmp_path / "sheet.pdf"
    assert main(["compose", "send+more", "--dict", str(words_file), "--top", "1",
                 "--explain", "--pdf", str(target)]) == 0
    key = " ".join(page_texts(target.read_bytes())[1:])
    assert "Difficulty: level" in key and "1. No number starts with 0" in key
    target = tmp_path / "one.pdf"
    assert main(["solve", "удар+удар=драка", "--pdf", str(target)]) == 0  # unique: rated
    key = " ".join(page_texts(target.read_bytes())[1:])
    assert "Сложность:" in key and "из 5" in key


# -- the prompt ------------------------------------------------------------------------------

def _session() -> Session:
    idx = Index.from_counts({"money": 50, "nodes": 20, "dad": 9}, name="t")
    return Session(idx, settings=Settings(shown=1))


def test_prompt_difficulty_setting():
    s = _session()
    assert s.execute(":difficulty").message.startswith("puzzles are not rated")
    assert s.execute("send+more").result.level_column is False
    assert s.execute(":difficulty on").message.startswith("puzzles shown are rated")
    assert "difficulty" in s.settings.describe()
    result = s.execute("send+more").result
    assert result.level_column
    assert result.rows[0].difficulty is not None and result.rows[1].difficulty is None
    solved = s.execute("send+more=money").result
    assert solved.difficulty is not None and solved.difficulty.guesses == 0
    s.execute(":difficulty off")
    assert s.execute("send+more=money").result.difficulty is None


def test_prompt_rates_systems_and_other_bases():
    s = _session()
    s.execute(":difficulty on")
    assert s.execute("cc+a=cl && on+d=go && ni+e=ne && cc+on=ni && a+d=e && cl+go=ne"
                     ).result.difficulty.rated
    s.execute(":base 16")
    solved = s.execute("to+go=out").result
    assert solved.total == 1 and solved.difficulty is not None and solved.difficulty.rated
    assert s.execute("two+two=four").result.difficulty is None    # 53 solutions: unrated


def test_a_system_names_the_relation_of_each_column():
    lines = explain("ab+ba=cc ; a<b ; b-a='7' ; c<'10'", base=16).lines
    columns = [line for line in lines if "olumn" in line]
    assert columns and all(re.match(r"\d+\. (AB\+BA=CC|B-A='7'), columns? \d", line)
                           for line in columns), lines
    assert lines[-1] == f"{len(lines)}. Solution: 18+81=99 ; 1<8 ; 8-1='7' ; 9<'10'."
    single = explain("send+more=money").lines
    assert any(re.match(r"\d+\. Column \d", line) for line in single)


def test_prompt_difficulty_in_lines_and_json():
    from cryptocomp.prompt import plain_lines, result_json

    s = _session()
    s.execute(":difficulty on")
    result = s.execute("send+more").result
    assert plain_lines(result, 1)[0].split("\t")[-1] in "12345"
    assert "difficulty" in result_json(result, 1)["results"][0]
    assert "difficulty" in result_json(s.execute("send+more=money").result)


def test_prompt_bad_switch_is_one_line():
    from cryptocomp.errors import QueryError

    s = _session()
    with pytest.raises(QueryError, match=r"usage: :difficulty on\|off"):
        s.execute(":difficulty sometimes")


def test_system_of_texts():
    assert system_of("SEND + MORE = MONEY").symbols == tuple("sendmory")
