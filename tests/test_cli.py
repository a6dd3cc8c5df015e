"""The words and index subcommands, in process and through a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cryptocomp.cli import main


@pytest.fixture
def dict_file(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text("money 50\nhoney 20\nmommy 5\nsend 40\nmore 30\nмама 3\nпапа 4\n",
                    encoding="utf-8")
    return path


def test_words_json(dict_file, capsys):
    assert main(["words", "?oney", "--dict", str(dict_file), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(r["word"], r["count"], r["rank"]) for r in out] == [("money", 50, 1), ("honey", 20, 4)]


def test_words_same_pattern_plain(dict_file, capsys):
    assert main(["words", "--same-pattern", "дядя", "--dict", str(dict_file)]) == 0
    assert capsys.readouterr().out == "папа\t4\nмама\t3\n"


def test_words_filters(dict_file, capsys):
    assert main(["words", "????", "--dict", str(dict_file), "--min-count", "35"]) == 0
    assert capsys.readouterr().out == "send\t40\n"
    assert main(["words", "????", "--dict", str(dict_file), "--limit", "3", "--top", "1"]) == 0
    assert capsys.readouterr().out == "send\t40\n"


@pytest.mark.parametrize("argv,message", [
    (["words", "?z?"], "letter 'z' at position 2"),
    (["words"], "give a TEMPLATE or --same-pattern"),
    (["words", "??", "--top", "-1"], "must not be negative"),
    (["words", "??", "--dict", "/nonexistent/d.txt"], "no such dictionary file"),
    (["index", "info", "nosuch"], "no index named 'nosuch'"),
    (["words", "??", "--lang", "en", "--dict", "x.txt"], "give --lang or --dict, not both"),
])
def test_errors_are_one_line(dict_file, capsys, argv, message):
    if "--dict" not in argv and "--lang" not in argv and argv[0] == "words":
        argv = argv + ["--dict", str(dict_file)]
    assert main(argv) == 2
    errors = [line for line in capsys.readouterr().err.splitlines()
              if line.startswith("cryptocomp: error:")]
    assert len(errors) == 1 and message in errors[0]


def test_index_build_list_info(dict_file, capsys):
    assert main(["index", "build", str(dict_file)]) == 0
    out = capsys.readouterr().out
    assert "7 words indexed" in out
    assert main(["index", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 1 and rows[0]["words"] == 7
    assert main(["index", "info", rows[0]["name"], "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["status"] == "fresh" and info["words"] == 7 and info["patterns"] == 4
    assert info["top_words"][0] == "money"
    dict_file.write_text("other 1\n", encoding="utf-8")
    assert main(["index", "info", rows[0]["name"], "--json"]) == 0
    assert "changed" in json.loads(capsys.readouterr().out)["status"]


def test_corrupt_index_through_the_real_command(dict_file, tmp_path):
    env = dict(os.environ)
    run = [sys.executable, "-m", "cryptocomp", "words", "?oney", "--dict", str(dict_file)]
    first = subprocess.run(run, capture_output=True, text=True, env=env)
    assert first.returncode == 0 and first.stdout.splitlines() == ["money\t50", "honey\t20"]
    index_file = next((tmp_path / "cc-home" / "indexes").glob("*.ccidx"))
    index_file.write_bytes(index_file.read_bytes()[:-100])
    second = subprocess.run(run, capture_output=True, text=True, env=env)
    assert second.returncode == 2
    assert "Traceback" not in second.stderr
    assert str(index_file) in second.stderr and "cryptocomp index build" in second.stderr
