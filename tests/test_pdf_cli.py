"""``--pdf`` on the command line (fill, square, swedish, compose, solve) and ``:pdf`` at the
prompt: the files written read back with pypdf; a path that cannot be written and the
options that do not go together are one line, before any work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pdf_reading import flat, letter_rows, page_texts, paper, reader

from cryptocomp import Index
from cryptocomp.arrow.clues import load_clues
from cryptocomp.cli import main
from cryptocomp.errors import CryptocompError, QueryError
from cryptocomp.prompt import Session

WORDS = ["car", "cat", "cob", "ten", "bun", "arc", "tar"]
LETTER = (612, 792)


def _words_file(tmp_path: Path, words: list[str]) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{w} {1000 - i}\n" for i, w in enumerate(words)), encoding="utf-8")
    return path


def _fill_args(tmp_path: Path) -> list[str]:
    grid = tmp_path / "g.txt"
    grid.write_text("...\n.#.\n...\n", encoding="utf-8")
    clues = tmp_path / "clues.tsv"
    clues.write_text("".join(f"{w}\t{w[::-1]} backwards\n" for w in WORDS), encoding="utf-8")
    return ["fill", str(grid), "--dict", str(_words_file(tmp_path, WORDS)), "--clues",
            str(clues)]


def test_fill_pdf_has_every_clue_and_the_solution(tmp_path, capsys):
    out = tmp_path / "g.pdf"
    assert main(_fill_args(tmp_path) + ["--pdf", str(out)]) == 0
    drawn = capsys.readouterr().out.splitlines()[:3]
    data = out.read_bytes()
    puzzle, solution = page_texts(data)
    assert "g: solution" in solution
    answers = [drawn[0], drawn[2], "".join(r[0] for r in drawn), "".join(r[2] for r in drawn)]
    for word in answers:
        assert f"{word[::-1]} backwards (3)" in puzzle and word.upper() not in puzzle
    assert letter_rows(reader(data).pages[1]) == [r.replace("#", "").upper() for r in drawn]


def test_submission_layout_on_letter(tmp_path, capsys):
    out = tmp_path / "g.pdf"
    assert main(_fill_args(tmp_path) + ["--pdf", str(out), "--layout", "submission",
                                        "--paper", "letter"]) == 0
    drawn = capsys.readouterr().out.splitlines()[:3]
    data = out.read_bytes()
    assert len(page_texts(data)) == 3 and paper(data) == {LETTER}
    assert drawn[0].upper() in page_texts(data)[1]


@pytest.mark.slow  # the shipped WordNet clues load in about 4 s
def test_square_pdf_marks_the_clues_left_to_write(tmp_path, capsys):
    words = ["bat", "are", "tea", "art", "ear", "tar", "rat", "eta", "ate"]
    out = tmp_path / "sq.pdf"
    assert main(["square", "3", "--symmetric", "--dict", str(_words_file(tmp_path, words)),
                 "--pdf", str(out)]) == 0
    puzzle = page_texts(out.read_bytes())[0]
    # the shipped WordNet clues know some of these words, not every one
    assert "(3)" in puzzle and puzzle.count("(3)") == 6


def test_unwritable_pdf_is_one_line_before_the_work(tmp_path, capsys):
    target = str(tmp_path / "no" / "such" / "dir" / "g.pdf")
    assert main(_fill_args(tmp_path) + ["--pdf", target]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing was filled
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "cannot write" in err[0]
    assert main(["solve", "send+more=money", "--pdf", target]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_pdf_does_not_go_with_a_batch(tmp_path, capsys):
    out = str(tmp_path / "x.pdf")
    assert main(_fill_args(tmp_path)[:4] + ["--pdf", out, "--attempts", "2"]) == 2
    assert "--pdf writes one fill" in capsys.readouterr().err
    left = _words_file(tmp_path, ["send"])
    assert main(["compose", "--batch", str(left), str(left), "--pdf", out]) == 2
    assert "--pdf prints the puzzles of one EXPR" in capsys.readouterr().err
    assert main(["swedish", "--size", "7x7", "--pdf", out, "--output", out + ".jsonl",
                 "--resume"]) == 2
    assert "does not go with --resume" in capsys.readouterr().err
    assert not Path(out).exists()


def test_compose_and_solve_sheets(tmp_path, capsys):
    words = _words_file(tmp_path, ["money", "honey", "mommy", "send", "more"])
    out = tmp_path / "c.pdf"
    assert main(["compose", "send+more", "--dict", str(words), "--pdf", str(out)]) == 0
    texts = page_texts(out.read_bytes())
    assert "SEND + MORE = MONEY" in texts[0] and "9567 + 1085 = 10652" in texts[-1]
    assert main(["solve", "ab+ba=cc", "--pdf", str(out), "--paper", "letter"]) == 0
    texts = page_texts(out.read_bytes())
    assert "AB + BA = CC" in texts[0] and "one of 32 solutions" in texts[-1]
    assert paper(out.read_bytes()) == {LETTER}
    out.unlink()
    assert main(["solve", "ab+ab=ab", "--pdf", str(out)]) == 1
    assert not out.exists()  # no solution: no sheet


@pytest.mark.slow  # the WordNet clues and an arrow-word batch: about 10 s
def test_swedish_batch_is_one_pdf(tmp_path, capsys):
    book = load_clues("wordnet")
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w} {book.senses(w)}\n" for w in book if len(w) <= 7),
                     encoding="utf-8")
    out = tmp_path / "a.pdf"
    assert main(["swedish", "--size", "8x8", "--dict", str(words), "--count", "2", "--seed",
                 "7", "--clues", "wordnet", "--workers", "1", "--json", "--pdf", str(out)]) == 0
    docs = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    texts = page_texts(out.read_bytes())
    assert len(texts) == 4
    for i, doc in enumerate(docs):
        for word in doc["words"]:
            assert flat(word["clue"]) in flat(texts[i])
        rows = [r.replace("#", "").upper() for r in doc["grid"] if r.replace("#", "")]
        assert letter_rows(reader(out.read_bytes()).pages[2 + i]) == rows


def test_prompt_pdf_prints_the_last_puzzles(tmp_path):
    idx = Index.from_counts({"money": 50, "honey": 20, "mommy": 5, "send": 40, "more": 30},
                            name="t")
    session = Session(idx)
    with pytest.raises(QueryError, match="compose or solve one first"):
        session.execute(f":pdf {tmp_path / 'x.pdf'}")
    session.execute("send+more")
    target = tmp_path / "with space.pdf"
    reply = session.execute(f":pdf {target} letter")
    assert "printed 1 puzzle" in reply.message and paper(target.read_bytes()) == {LETTER}
    assert "SEND + MORE = MONEY" in page_texts(target.read_bytes())[0]
    session.execute("send+more=money")
    session.execute(f":pdf {target}")
    assert "9567 + 1085 = 10652" in page_texts(target.read_bytes())[-1]
    with pytest.raises(QueryError, match="usage"):
        session.execute(":pdf")
    with pytest.raises(QueryError, match="usage"):
        session.execute(":pdf letter")
    session.execute("?oney")
    with pytest.raises(QueryError, match="prints puzzles"):
        session.execute(f":pdf {target}")
    session.execute("send+more")
    with pytest.raises(CryptocompError, match="cannot write"):
        session.execute(f":pdf {tmp_path / 'no' / 'dir' / 'x.pdf'}")


def test_prompt_pdf_prints_the_puzzles_shown(tmp_path):
    idx = Index.from_counts({"money": 50, "demon": 20, "nodes": 5, "send": 40, "more": 30},
                            name="t")
    session = Session(idx)
    session.execute(":top 2")
    session.execute("send+more")
    target = tmp_path / "two.pdf"
    assert session.execute(f":pdf {target}").message.startswith(
        "printed 2 puzzles (the first of 3)")
    sheet = page_texts(target.read_bytes())[0]
    assert "SEND + MORE = MONEY" in sheet and "SEND + MORE = DEMON" in sheet
    assert "NODES" not in sheet


def test_a_grid_too_large_to_print_fails_before_the_fill(tmp_path, capsys):
    grid = tmp_path / "wide.txt"
    grid.write_text("." * 60 + "\n", encoding="utf-8")
    words = _words_file(tmp_path, ["a" * 60])
    assert main(["fill", str(grid), "--dict", str(words), "--pdf",
                 str(tmp_path / "w.pdf")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "too large to print" in captured.err


def test_pdf_completes_paths_at_the_prompt(tmp_path):
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from cryptocomp.prompt.app import completer

    (tmp_path / "sheet_one.pdf").write_bytes(b"")
    text = f":pdf {tmp_path}/sheet_"
    found = completer().get_completions(Document(text, len(text)),
                                        CompleteEvent(completion_requested=True))
    assert [c.text for c in found] == ["one.pdf"]
