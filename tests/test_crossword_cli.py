"""The ``fill`` and ``square`` subcommands: outputs, files written, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from cryptocomp.cli import main
from cryptocomp.crossword import read_grid
from cryptocomp.crossword.check import fill_problems

DATA = Path(__file__).parent / "data"


def _words_file(tmp_path: Path, words: list[str]) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{w} {1000 - i}\n" for i, w in enumerate(words)), encoding="utf-8")
    return path


def test_fill_plain_json_ipuz_svg(tmp_path, capsys):
    words = ["car", "cat", "cob", "ten", "bun", "arc", "tar"]
    grid = tmp_path / "g.txt"
    grid.write_text("...\n.#.\n...\n", encoding="utf-8")
    wf = _words_file(tmp_path, words)
    ipuz, svg = tmp_path / "out.ipuz", tmp_path / "out.svg"
    assert main(["fill", str(grid), "--dict", str(wf), "--ipuz", str(ipuz), "--svg", str(svg),
                 "--svg-solution"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1] == lines[1][0] + "#" + lines[1][2] and lines[-1].startswith("# filled")
    drawn = lines[:3]
    g = read_grid(grid)
    fill_words = ["".join(drawn[r][c] for r, c in s.cells) for s in g.slots]
    assert fill_problems(g, set(words), fill_words) == []
    doc = json.loads(ipuz.read_text(encoding="utf-8"))
    assert doc["solution"][0] == [ch.upper() for ch in drawn[0]]
    assert read_grid(ipuz).slots == g.slots
    assert svg.read_text(encoding="utf-8").count("</text>") == 3 + 8  # numbers + letters
    assert main(["fill", str(grid), "--dict", str(wf), "--json", "--count", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "filled" and len(doc["fills"]) >= 1


def test_fill_exit_codes_for_no_fill_and_budget(tmp_path, capsys):
    wf = _words_file(tmp_path, ["cat", "dog", "cow", "xyz"])
    grid = tmp_path / "g.txt"
    grid.write_text("x..\n.#.\n...\n", encoding="utf-8")
    assert main(["fill", str(grid), "--dict", str(wf)]) == 1
    assert "no fill exists" in capsys.readouterr().out
    assert main(["fill", str(grid), "--dict", str(wf), "--steps", "-1"]) == 2


def test_square_command(tmp_path, capsys):
    words = ["bat", "are", "tea", "art", "ear", "tar", "rat", "eta", "ate"]
    wf = _words_file(tmp_path, words)
    assert main(["square", "3", "--symmetric", "--dict", str(wf), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = doc["fills"][0]["grid"]
    assert all(rows[i][j] == rows[j][i] for i in range(3) for j in range(3))
    assert all(r in words for r in rows)
    assert main(["square", "1", "--dict", str(wf)]) == 2


def test_oversized_grids_and_bad_letters_are_refused_in_one_line(tmp_path, capsys):
    wf = _words_file(tmp_path, ["cat", "dog"])
    cases = {"huge.txt": ("100000 100000\n0 0 3 h\n", "bad grid size 100000x100000"),
             "huge.ipuz": (json.dumps({"kind": ["http://ipuz.org/crossword#1"],
                                       "dimensions": {"width": 5000, "height": 1},
                                       "puzzle": [[0] * 5000]}), "bad grid size 5000x1"),
             "dot.txt": ("İ..\n...\n", "given letter 'İ' at row 1, column 1 is not a single")}
    for name, (text, needle) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert main(["fill", str(path), "--dict", str(wf)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("cryptocomp: error: ") and needle in err and err.count("\n") == 1


def test_unreadable_clue_file_is_one_line(tmp_path, capsys):
    wf = _words_file(tmp_path, ["cat", "dog"])
    grid = tmp_path / "g.txt"
    grid.write_text("...\n", encoding="utf-8")
    latin1 = tmp_path / "clues.tsv"
    latin1.write_bytes("caf\xe9\tcoffee\n".encode("latin-1"))
    for clues, message in [(tmp_path, f"clue file is a directory: {tmp_path}"),
                           (latin1, f"clue file is not UTF-8 text: {latin1} "
                                    "(byte 0xe9 at offset 3)")]:
        assert main(["fill", str(grid), "--dict", str(wf), "--clues", str(clues)]) == 2
        err = capsys.readouterr().err
        assert err == f"cryptocomp: error: {message}\n"


def test_square_improve_reports_the_rarest_word(tmp_path, capsys):
    words = ["ab", "ba", "aa", "bb", "bc", "cb", "cc", "ca", "ac"]
    wf = tmp_path / "words.txt"
    # counts: the first fill the search meets uses "bb"; "cc" ... have higher counts
    wf.write_text("".join(f"{w} {c}\n" for w, c in zip(words, [90, 80, 70, 5, 60, 55, 50,
                                                                   45, 40])), encoding="utf-8")
    assert main(["square", "2", "--dict", str(wf), "--json", "--improve", "5"]) == 0
    doc = json.loads(capsys.readouterr().out)
    imp = doc["improvement"]
    assert imp["optimal"] and not imp["interrupted"]
    assert imp["after"]["count"] >= imp["before"]["count"]
    fill_words = list(doc["fills"][0]["words"].values())
    counts = dict(zip(words, [90, 80, 70, 5, 60, 55, 50, 45, 40]))
    assert min(counts[w] for w in fill_words) == imp["after"]["count"]
    for argv in (["--count", "2"], ["--attempts", "2"], ["--improve", "0"]):
        assert main(["square", "2", "--dict", str(wf), "--improve", "1", *argv]) == 2
        assert "--improve" in capsys.readouterr().err
