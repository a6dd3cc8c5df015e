"""``compose --from LIST`` and ``compose --doubly-true`` end to end: through main() and, for
Ctrl-C and the terminal table, a subprocess; bad input gets one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from generation_cases import holds

from cryptocomp.cli import main
from cryptocomp.cryptarithm.generation import normalised

DATA = Path(__file__).parent / "data" / "cryptagen"
ROOT = Path(__file__).parent.parent


def _lines(name: str) -> list[str]:
    return [w.strip() for w in (DATA / name).read_text().splitlines() if w.strip()]


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["compose", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_from_list_piped_lines(capsys) -> None:
    rc, out, err = _run(capsys, "--from", str(DATA / "planets.txt"))
    assert rc == 0 and err == ""
    rows = [line.split("\t") for line in out.splitlines()]
    assert {normalised(p) for p, _ in rows} >= {normalised(p) for p in _lines("planets.db.txt")}
    assert all(holds(p, e) for p, e in rows)


def test_from_list_json(capsys) -> None:
    rc, out, _ = _run(capsys, "--from", str(DATA / "rainbow.txt"), "--json")
    doc = json.loads(out)
    assert rc == 0 and doc["complete"] and doc["stop"] == "complete"
    assert doc["count"] == len(doc["results"]) == 4
    assert [r["number"] for r in doc["results"]] == [1, 2, 3, 4]
    assert {normalised(r["puzzle"]) for r in doc["results"]} == \
        {normalised(p) for p in _lines("rainbow.db.txt")}
    for r in doc["results"]:
        assert holds(r["puzzle"], r["equation"])
        assert "difficulty" not in r


def test_difficulty_column_and_filter(capsys) -> None:
    rc, out, _ = _run(capsys, "--from", str(DATA / "rainbow.txt"), "--json", "--difficulty")
    levels = [r["difficulty"]["level"] for r in json.loads(out)["results"]]
    assert rc == 0 and len(levels) == 4
    rated = [lv for lv in levels if lv is not None]
    cut = min(rated)
    rc, out, _ = _run(capsys, "--from", str(DATA / "rainbow.txt"), "--json",
                      "--max-difficulty", str(cut))
    kept = json.loads(out)["results"]
    assert len(kept) == rated.count(cut) and all(r["difficulty"]["level"] <= cut for r in kept)
    rc, out, _ = _run(capsys, "--from", str(DATA / "rainbow.txt"), "--difficulty")
    assert all(len(line.split("\t")) == 3 for line in out.splitlines())


def test_fixed_right_word(capsys) -> None:
    rc, out, _ = _run(capsys, "--from", str(DATA / "planets.txt"), "--right", "fixed",
                      "Planets")
    assert rc == 0
    assert {line.split("\t")[0] for line in out.splitlines()} == {
        "saturn + uranus = planets", "mars + saturn + uranus + neptune = planets"}


def test_free_right_side_and_products(tmp_path: Path, capsys) -> None:
    path = tmp_path / "w.txt"
    path.write_text("# tiny\nab\nba\ncc\nabc\nd\n\ne\n")
    rc, out, _ = _run(capsys, "--from", str(path), "--right", "free", "--json")
    results = json.loads(out)["results"]
    assert any(len(r["right"]) > 1 for r in results) or rc in (0, 1)
    assert all(holds(r["puzzle"], r["equation"]) for r in results)
    rc, out, _ = _run(capsys, "--from", str(path), "--ops", "*", "--json")
    results = json.loads(out)["results"]
    assert all(r["op"] == "*" and holds(r["puzzle"], r["equation"]) for r in results)


def test_min_max_words(capsys) -> None:
    rc, out, _ = _run(capsys, "--from", str(DATA / "planets.txt"), "--min", "4", "--max", "4")
    rows = [line.split("\t")[0] for line in out.splitlines()]
    assert rc == 0 and rows == ["venus + earth + uranus = saturn",
                                "mars + saturn + uranus = mercury"]


def test_top_stops_and_says_incomplete(capsys) -> None:
    rc, out, err = _run(capsys, "--from", str(DATA / "planets.txt"), "--top", "2")
    assert rc == 0 and len(out.splitlines()) == 2
    assert "incomplete" in err and len(err.splitlines()) == 1


def test_time_budget(capsys) -> None:
    start = time.monotonic()
    rc, out, err = _run(capsys, "--from", str(DATA / "colors.txt"), "--right", "free",
                        "--time", "1", "--json")   # minutes of search without a budget
    wall = time.monotonic() - start
    doc = json.loads(out)
    assert rc == 0 and not doc["complete"] and doc["stop"] == "time"
    assert doc["count"] > 0 and "time budget" in err
    assert wall < 2.5   # the search stops near 1 s (figures in README); the rest is start-up
    assert all(holds(r["puzzle"], r["equation"]) for r in doc["results"])


def test_doubly_true_french(capsys) -> None:
    rc, out, _ = _run(capsys, "--doubly-true", "0-100", "--lang", "fr")
    assert rc == 0
    assert out.split("\t")[0] == "zero + un + trois + onze + quinze = trente"


def test_no_puzzle_is_status_1(tmp_path: Path, capsys) -> None:
    path = tmp_path / "w.txt"
    path.write_text("abc\ndef\nghi\n")
    rc, out, err = _run(capsys, "--from", str(path))
    assert rc == 1 and out == "" and "no puzzle" in err and len(err.splitlines()) == 1


def test_refused_words_are_one_warning(tmp_path: Path, capsys) -> None:
    path = tmp_path / "w.txt"
    path.write_text("red\ngreen\nsend+more\nindigo\nRed\nviolet\n")
    rc, out, err = _run(capsys, "--from", str(path))
    assert rc == 0 and "green + violet = indigo" in out
    assert len(err.splitlines()) == 1 and "line 3" in err and "line 5" in err


@pytest.mark.parametrize("argv, message", [
    (["--from", "nowhere.txt"], "word list not found"),
    (["--from", "{planets}", "--right", "fixed"], "--right fixed takes one WORD"),
    (["--from", "{planets}", "--right", "up"], "--right takes unique, free or fixed"),
    (["--from", "{planets}", "--right", "fixed", "a+b"], "one word of letters"),
    (["--from", "{planets}", "--min", "5", "--max", "4"], "--max 4 is below --min 5"),
    (["--from", "{planets}", "--min", "2"], "--min must be at least 3"),
    (["--from", "{planets}", "--ops", "-"], "--ops takes + or *"),
    (["--from", "{planets}", "--time", "0"], "--time must be a positive number"),
    (["--from", "{planets}", "--steps", "0"], "--steps must be at least 1"),
    (["--from", "{planets}", "--steps", "many"], "--steps"),
    (["--from", "{planets}", "--limit", "5"], "--limit goes with compose EXPR"),
    (["--from", "{planets}", "--lang", "fr"], "--lang goes with --doubly-true"),
    (["--from", "{planets}", "send+more"], "without an EXPR"),
    (["--from", "{planets}", "--doubly-true", "0-10"], "not both"),
    (["--doubly-true", "5-1"], "LO is above HI"),
    (["--doubly-true", "ten"], "two whole numbers"),
    (["--doubly-true", "0-10", "--lang", "xx"], "it spells: "),
    (["--doubly-true", "0-10", "--right", "free"], "--right goes with --from"),
    (["--doubly-true", "0-10", "--ops", "*"], "--ops goes with --from"),
    (["--right", "free"], "goes with --from LIST or --doubly-true"),
    (["send+more", "--time", "3"], "goes with --from LIST or --doubly-true"),
    (["send+more", "--steps", "3"], "goes with --from LIST or --doubly-true"),
])
def test_bad_input_one_line(argv: list[str], message: str, capsys) -> None:
    argv = [a.replace("{planets}", str(DATA / "planets.txt")) for a in argv]
    rc, out, err = _run(capsys, *argv)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert "Traceback" not in err


def test_unknown_language_lists_languages(capsys) -> None:
    rc, _, err = _run(capsys, "--doubly-true", "0-10", "--lang", "xx")
    assert rc == 2 and " en " in err and " fr " in err and " it " in err


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.slow
def test_ctrl_c_prints_what_was_found(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "cryptocomp", "compose", "--from",
                             str(DATA / "alpha.txt")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(), cwd=tmp_path,
                            # SIGINT as a terminal's Ctrl-C leaves it: a suite started in
                            # the background ignores it, and so would the child
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    first = proc.stdout.readline()   # piped lines go out as found
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "\t" in first and "interrupted" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "incomplete" in err


def test_harvest_keeps_what_was_found_on_ctrl_c() -> None:
    from cryptocomp.cryptarithm.generation import GenerationSpec
    from cryptocomp.cryptarithm.harvest import harvest

    def stop(n, g, level) -> None:
        if n == 2:
            raise KeyboardInterrupt

    got = harvest(GenerationSpec(tuple(_lines("planets.txt"))), on_found=stop)
    assert got.stop == "interrupted" and not got.complete and len(got.puzzles) == 2


def _session():
    from cryptocomp import Index
    from cryptocomp.prompt import Session

    return Session(Index.from_counts({"money": 5, "send": 4}))


def test_prompt_from_and_doubly_true() -> None:
    from cryptocomp.rendering import plain_lines, result_json

    s = _session()
    reply = s.execute(f":from {DATA / 'planets.txt'} fixed planets")
    assert reply.result is not None and reply.result.kind == "generate"
    assert {r.puzzle for r in reply.result.rows} == {
        "saturn + uranus = planets", "mars + saturn + uranus + neptune = planets"}
    assert all(holds(*line.split("\t")) for line in plain_lines(reply.result, None))
    doc = result_json(reply.result)
    assert doc["complete"] and doc["kind"] == "generate" and doc["total"] == 2
    s.execute(":difficulty on")
    reply = s.execute(f":from {DATA / 'planets.txt'} 3-3")
    assert [r.puzzle for r in reply.result.rows] == ["earth + uranus = saturn",
                                                     "saturn + uranus = jupiter"]
    assert all(r.difficulty is not None for r in reply.result.rows)
    reply = s.execute(":doubly-true 0-100 fr")
    assert [r.puzzle for r in reply.result.rows] == ["zero + un + trois + onze + quinze = trente"]


def test_prompt_time_budget_stops_a_generation() -> None:
    """``:time S`` stops :from within the budget (10 %), keeps what was found and says the
    list is incomplete; ``:time off`` lets the next one run to the end."""
    s = _session()
    assert "run to the end" in s.execute(":time").message
    assert "stop after 0.5 s" in s.execute(":time 0.5").message
    assert "time 0.5 s" in s.settings.describe()
    start = time.monotonic()
    reply = s.execute(f":from {DATA / 'colors.txt'} 3-9")
    took = time.monotonic() - start
    assert reply.result is not None and not reply.result.complete
    assert "the time budget ran out (:time 0.5)" in reply.message and took < 0.5 * 1.1 + 0.3
    s.execute(":time off")
    reply = s.execute(f":from {DATA / 'planets.txt'}")
    assert reply.result is not None and reply.result.complete and not reply.message


@pytest.mark.parametrize("line, message", [
    (":time 0", "seconds above 0"),
    (":time soon", "seconds above 0"),
    (":time 1e9", "at most a week"),
    (":from", "usage: :from FILE"),
    (":from nowhere.txt", "word list not found"),
    (":from {planets} sideways", "none of free, fixed WORD"),
    (":from {planets} 5-4", "LO is above HI"),
    (":doubly-true ten", "two whole numbers"),
    (":doubly-true 0-10 xx", "it spells"),
    (":doubly-true 0-99999999", "a doubly-true range is LO-HI"),
    (":from {planets} cross 2", "cross N takes a grid size N from 3"),
])
def test_prompt_bad_input_one_line(line: str, message: str) -> None:
    from cryptocomp.errors import CryptocompError

    with pytest.raises(CryptocompError, match=message) as info:
        _session().execute(line.replace("{planets}", str(DATA / "planets.txt")))
    assert "\n" not in str(info.value)
    assert "--" not in str(info.value)  # the prompt's own words, not the CLI's options


def test_prompt_saves_and_prints_generated_puzzles(tmp_path: Path) -> None:
    s = _session()
    s.execute(f":from {DATA / 'planets.txt'}")
    s.execute(f":save {tmp_path / 'p.csv'}")
    rows = (tmp_path / "p.csv").read_text().splitlines()
    assert rows[0] == "puzzle,solution" and len(rows) == 6
    assert "printed 5 puzzles" in s.execute(f":pdf {tmp_path / 'p.pdf'}").message
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF")


def test_other_base(capsys) -> None:
    from cryptocomp.cryptarithm.solve import solve

    rc, out, _ = _run(capsys, "--from", str(DATA / "alpha.txt"), "--base", "8", "--max", "3",
                      "--top", "4", "--json")
    results = json.loads(out)["results"]
    assert rc == 0 and len(results) == 4
    for r in results:
        assert solve(r["puzzle"], base=8, cap=2).count == 1
        left, right = r["equation"].split(" = ")
        assert sum(int(n, 8) for n in left.split(" + ")) == int(right, 8)
        assert all(d in "01234567" for d in r["equation"] if d.isalnum())


@pytest.mark.slow
def test_ctrl_c_on_a_terminal_prints_the_table_so_far() -> None:
    import pty
    import re
    import select

    pid, fd = pty.fork()
    if pid == 0:   # the child: the command on a terminal
        os.environ.update(_env(), COLUMNS="100")
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # as a terminal leaves it (see above)
        os.execv(sys.executable, [sys.executable, "-m", "cryptocomp", "compose", "--from",
                                  str(DATA / "colors.txt"), "--right", "free"])  # minutes
    out, start, sent = b"", time.monotonic(), False
    while True:
        if not sent and time.monotonic() - start > 8:
            os.write(fd, b"\x03")
            sent = True
        if time.monotonic() - start > 120:  # Ctrl-C ignored: fail, rather than hang the suite
            os.kill(pid, signal.SIGKILL)
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
    _, status = os.waitpid(pid, 0)
    text = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", out.decode("utf-8", "replace"))
    assert os.waitstatus_to_exitcode(status) == 130
    assert "puzzles with one solution" in text and "interrupted" in text
    assert "the list is incomplete" in text and "Traceback" not in text


def test_greek_letters_with_a_fixed_right_word_give_cryptagens(capsys) -> None:
    rc, out, _ = _run(capsys, "--from", str(DATA / "alpha.txt"), "--right", "fixed", "greeks")
    rows = [line.split("\t") for line in out.splitlines()]
    assert rc == 0 and all(p.endswith("= greeks") and holds(p, e) for p, e in rows)
    assert {normalised(p) for p, _ in rows} >= {normalised(p) for p in (
        "eta + theta + kappa + pi + phi + psi = greeks",
        "gamma + kappa + xi + pi + sigma + psi = greeks",
        "gamma + kappa + pi + sigma + psi + omega = greeks")}   # its demo-generate-output.md


def test_step_budget(capsys) -> None:
    rc, out, err = _run(capsys, "--from", str(DATA / "colors.txt"), "--steps", "3000",
                        "--json")
    doc = json.loads(out)
    assert rc == 0 and not doc["complete"] and doc["stop"] == "steps"
    assert 3000 <= doc["candidates"] <= 3000 * 1.1 and "--steps 3000" in err
    assert all(holds(r["puzzle"], r["equation"]) for r in doc["results"])
    again = json.loads(_run(capsys, "--from", str(DATA / "colors.txt"), "--steps", "3000",
                            "--json")[1])
    assert again["results"] == doc["results"]   # steps, unlike seconds, give the same list
