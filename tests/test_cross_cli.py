"""``compose --from LIST --cross N`` and the prompt's ``:from FILE cross N`` end to end: the
grids printed are exactly the brute-force oracle's (tests/cross_cases.py), every output option
of ``--from`` works, and bad input gets one line."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from cross_cases import oracle_grids, planted

from cryptocomp.cli import main
from cryptocomp.cryptarithm.crossgen import cross_system
from cryptocomp.cryptarithm.system import holds_system

CRYPTATOR = ["cc", "a", "cl", "on", "d", "go", "ni", "e", "ne"]   # its --cross sample's words
SLOW_LIST = CRYPTATOR + ["no", "ce", "la", "di"]   # 13 words: far more than a second to search


def _list(tmp_path: Path, words: list[str], name: str = "words.txt") -> str:
    path = tmp_path / name
    path.write_text("\n".join(words) + "\n")
    return str(path)


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["compose", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def _grid(system: str, n: int = 3) -> tuple[tuple[str, ...], ...]:
    """The grid of a printed system: its first N relations are the rows."""
    rows = system.split(" && ")[:n]
    return tuple(tuple([*left.split(" + "), right])
                 for left, right in (r.split(" = ") for r in rows))


def _holds(system: str, solved: str, base: int) -> bool:
    """Whether ``solved`` is ``system`` with each symbol one digit, and every sum holds."""
    pairs = zip(system.split(" && "), solved.split(" && "), strict=True)
    digit: dict[str, str] = {}
    for relation, numbers in pairs:
        words = relation.replace("=", "+").split(" + ")
        values = numbers.replace("=", "+").split(" + ")
        for w, v in zip(words, values, strict=True):
            if len(w) != len(v) or (len(v) > 1 and v[0] == "0"):
                return False
            for ch, d in zip(w, v):
                if digit.setdefault(ch, d) != d:
                    return False
        *left, right = (int(v, base) for v in values)
        if sum(left) != right:
            return False
    return len(set(digit.values())) == len(digit)


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.slow
def test_piped_lines_are_the_oracles_grids(seed: int, tmp_path: Path, capsys) -> None:
    words, base = planted(seed)
    rc, out, err = _run(capsys, "--from", _list(tmp_path, words), "--cross", "3",
                        "--base", str(base))
    rows = [line.split("\t") for line in out.splitlines()]
    assert rc == 0 and err == ""
    assert {_grid(system) for system, _ in rows} == oracle_grids(words, base)
    assert all(_holds(system, solved, base) for system, solved in rows)


def test_json_results(tmp_path: Path, capsys) -> None:
    words, base = planted(0)
    rc, out, _ = _run(capsys, "--from", _list(tmp_path, words), "--cross", "3", "--base",
                      str(base), "--json")
    doc = json.loads(out)
    assert rc == 0 and doc["complete"] and doc["stop"] == "complete" and doc["size"] == 3
    assert doc["count"] == len(doc["results"]) == len(oracle_grids(words, base))
    for n, r in enumerate(doc["results"], 1):
        grid = tuple(map(tuple, r["grid"]))
        assert r["number"] == n and _grid(r["puzzle"]) == grid
        assert holds_system(cross_system(grid, base), r["solution"])
        assert _holds(r["puzzle"], r["equation"], base)
        assert [[int(v, base) for v in row] for row in r["numbers"]] == \
            [[int("".join(str(r["solution"][ch]) for ch in w), base) for w in row]
             for row in grid]


def test_terminal_table_shows_both_grids(tmp_path: Path) -> None:
    from rich.console import Console

    from cryptocomp.cryptarithm.harvest import cross_harvest
    from cryptocomp.rendering.generations import cross_table

    found = cross_harvest(CRYPTATOR, 3, top=1)
    console = Console(width=120, record=True)
    for part in cross_table("words.txt --cross 3", found, top=1):
        console.print(part)
    text = console.export_text()
    assert "crossword with one solution" in text and "--top reached" in text
    assert "cc  on  ni" in text and "44  16  60" in text   # the words' and numbers' grids
    assert " a   d   e" in text and " 3   5   8" in text


@pytest.mark.slow
def test_top_and_difficulty(tmp_path: Path, capsys) -> None:
    path = _list(tmp_path, CRYPTATOR)
    rc, out, err = _run(capsys, "--from", path, "--cross", "3", "--top", "2")
    assert rc == 0 and len(out.splitlines()) == 2 and "incomplete" in err
    rc, out, _ = _run(capsys, "--from", path, "--cross", "3", "--json", "--difficulty")
    levels = [r["difficulty"]["level"] for r in json.loads(out)["results"]]
    assert rc == 0 and len(levels) == 6 and all(lv is not None for lv in levels)
    cut = min(levels)
    rc, out, _ = _run(capsys, "--from", path, "--cross", "3", "--json", "--max-difficulty",
                      str(cut))
    kept = [r["difficulty"]["level"] for r in json.loads(out)["results"]]
    assert rc == 0 and kept == [lv for lv in levels if lv <= cut]


def test_time_budget_keeps_what_was_found(tmp_path: Path, capsys) -> None:
    start = time.monotonic()
    rc, out, err = _run(capsys, "--from", _list(tmp_path, SLOW_LIST), "--cross", "3",
                        "--time", "1", "--json")
    wall = time.monotonic() - start
    doc = json.loads(out)
    assert not doc["complete"] and doc["stop"] == "time" and "time budget" in err
    assert rc == (0 if doc["count"] else 3)
    assert wall < 1.5   # the budget within 10 % plus the last count under way
    assert all(_holds(r["puzzle"], r["equation"], 10) for r in doc["results"])


def test_ctrl_c_keeps_what_was_found() -> None:
    from cryptocomp.cryptarithm.harvest import cross_harvest

    def stop(n, c, level) -> None:
        if n == 2:
            raise KeyboardInterrupt

    got = cross_harvest(CRYPTATOR, 3, on_found=stop)
    assert got.stop == "interrupted" and not got.complete and len(got.puzzles) == 2


@pytest.mark.slow
def test_no_crossword_is_status_1(tmp_path: Path, capsys) -> None:
    words = ["ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr"]   # 18 symbols: no grid
    rc, out, err = _run(capsys, "--from", _list(tmp_path, words), "--cross", "3")
    assert rc == 1 and out == "" and "no puzzle with exactly one solution" in err


@pytest.mark.parametrize("argv, message", [
    (["--cross", "2"], "--cross must be at least 3"),
    (["--cross", "9"], "fills a 9×9 grid with 81 distinct words"),
    (["--cross", "3", "--right", "free"], "--right goes with --from LIST, not with --cross"),
    (["--cross", "3", "--ops", "*"], "--ops goes with --from LIST, not with --cross"),
    (["--cross", "3", "--min", "4"], "--min goes with --from LIST, not with --cross"),
    (["--cross", "3", "--doubly-true", "0-10"], "not both"),
    (["--cross", "three"], "--cross"),
])
def test_bad_input_one_line(argv: list[str], message: str, tmp_path: Path, capsys) -> None:
    rc, out, err = _run(capsys, "--from", _list(tmp_path, CRYPTATOR), *argv)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert "Traceback" not in err


def test_cross_without_a_list_is_one_line(capsys) -> None:
    rc, _, err = _run(capsys, "--cross", "3")
    assert rc == 2 and "--cross N goes with --from LIST" in err and len(err.splitlines()) == 1
    rc, _, err = _run(capsys, "--doubly-true", "0-10", "--cross", "3")
    assert rc == 2 and "not with --doubly-true" in err and len(err.splitlines()) == 1


def _session():
    from cryptocomp import Index
    from cryptocomp.prompt import Session

    return Session(Index.from_counts({"money": 5, "send": 4}))


def test_prompt_from_cross(tmp_path: Path) -> None:
    from cryptocomp.rendering import plain_lines

    words, base = planted(3)
    s = _session()
    s.execute(f":base {base}")
    reply = s.execute(f":from {_list(tmp_path, words)} cross 3")
    assert reply.result is not None and reply.result.kind == "generate"
    assert {_grid(r.puzzle) for r in reply.result.rows} == oracle_grids(words, base)
    assert all(_holds(*line.split("\t"), base) for line in plain_lines(reply.result, None))


@pytest.mark.parametrize("line, message", [
    (":from {list} cross", "usage: :from FILE cross N"),
    (":from {list} cross 2", "grid size N from 3"),
    (":from {list} cross 4", "fills a 4×4 grid with 16 distinct words"),
    (":from {list} free cross 3", "cross N takes nothing else"),
])
def test_prompt_bad_input_one_line(line: str, message: str, tmp_path: Path) -> None:
    from cryptocomp.errors import CryptocompError

    with pytest.raises(CryptocompError, match=message) as info:
        _session().execute(line.replace("{list}", _list(tmp_path, CRYPTATOR)))
    assert "\n" not in str(info.value)
