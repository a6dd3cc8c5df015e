"""A generation split into branches and run as a batch: its puzzles, branch after branch,
are the one search's (the oracle: the unsplit search, itself checked against brute force in
test_generation.py and test_crossgen.py), on any backend, and a stopped batch resumes to
the same file."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from batch_damage import damage
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.batch import Journal, SerialBackend, StreamSink, batch_id, run_batch
from cryptocomp.batch.generation import CrossJob, GenerationJob, GenerationWorkload
from cryptocomp.batch.shipment import IndexShipment, worker_index
from cryptocomp.cryptarithm.crossgen import cross_generation
from cryptocomp.cryptarithm.generation import Generation, GenerationSpec, generate
from cryptocomp.errors import BatchError, BatchStopped

DATA = Path(__file__).parent / "data" / "cryptagen"
NOTHING = IndexShipment.nothing()


@st.composite
def _specs(draw: st.DrawFn) -> GenerationSpec:
    """Small specs of every shape: the three right modes, sums and products, bases, word
    limits, doubly-true values, and words of one symbol."""
    alphabet = draw(st.sampled_from(["abcdefg", "abcdefghijk", "абвгдеж"]))
    words = draw(st.lists(st.text(alphabet, min_size=1, max_size=4), min_size=3,
                          max_size=8, unique=True))
    right = draw(st.sampled_from(["unique", "fixed", "free"]))
    op = "+" if right == "free" else draw(st.sampled_from("++*"))
    max_words = draw(st.none() | st.integers(3, 5))
    values = None
    if right == "unique" and op == "+" and draw(st.booleans()):
        values = tuple(draw(st.lists(st.integers(0, 12), min_size=len(words),
                                     max_size=len(words))))
    return GenerationSpec(tuple(words), right=right, op=op,
                          fixed=words[-1] if right == "fixed" else None,
                          max_words=max_words, base=draw(st.sampled_from([6, 8, 10, 12])),
                          values=values)


def _split(spec: GenerationSpec) -> tuple[list[tuple[str, str]], int]:
    """The puzzles and candidates of every branch, one after the other."""
    whole = Generation(spec)
    found, counted = [], 0
    for branch in whole.branches():
        part = whole.split(branch)
        found += [(g.puzzle, g.equation) for g in part]
        assert part.complete
        counted += part.candidates
    return found, counted


@settings(max_examples=60, deadline=None)
@given(_specs())
def test_branches_split_the_search_exactly(spec: GenerationSpec) -> None:
    serial = generate(spec)
    expected = [(g.puzzle, g.equation) for g in serial]
    assert _split(spec) == (expected, serial.candidates)


def test_branches_of_the_greek_letters_and_colours() -> None:
    for name, most in (("alpha", 10), ("colors", 6)):
        words = tuple(w for w in (DATA / f"{name}.txt").read_text().split())
        spec = GenerationSpec(words, max_words=most)
        serial = generate(spec)
        assert _split(spec) == ([(g.puzzle, g.equation) for g in serial], serial.candidates)


@settings(max_examples=8, deadline=None)
@given(st.lists(st.text("abcdef", min_size=1, max_size=2), min_size=9, max_size=10,
                unique=True), st.sampled_from([8, 10]))
def test_crossword_branches_split_the_search_exactly(words: list[str], base: int) -> None:
    serial = cross_generation(words, 3, base=base)
    expected = [c.text for c in serial]
    whole = cross_generation(words, 3, base=base)
    found, counted = [], whole.first_words()
    for branch in whole.branches():
        part = whole.split(branch)
        found += [c.text for c in part]
        counted += part.candidates
    assert (found, counted) == (expected, serial.candidates)


def _run(work: GenerationWorkload, path: Path | None = None, *, resume: bool = False,
         stop_after: int | None = None) -> str:
    """The batch's output (``path``: into that file); Ctrl-C after ``stop_after``
    progress calls."""
    calls = [0]

    def on_progress(_p: object) -> None:
        calls[0] += 1
        if stop_after is not None and calls[0] > stop_after:
            raise KeyboardInterrupt

    class Buffer:
        text = ""

        def write(self, s: str) -> None:
            self.text += s

        def flush(self) -> None:
            pass

    buffer = Buffer()
    sink = Journal(path) if path is not None else StreamSink(buffer)   # type: ignore[arg-type]
    run_batch(work, NOTHING, SerialBackend(), sink, ident=batch_id(work, NOTHING.checksum),
              resume=resume, on_progress=on_progress)
    return buffer.text


_PLANETS = ("mercury", "venus", "earth", "mars", "jupiter", "saturn", "uranus", "neptune")


def test_the_written_groups_hold_the_serial_lines_in_order() -> None:
    spec = GenerationSpec(_PLANETS, right="free", max_words=4)
    found = []
    work = GenerationWorkload(GenerationJob(spec, rated=True),
                              on_found=lambda g, d: found.append((g.puzzle, d)))
    text = _run(work)
    lines = [line for line in text.splitlines() if not line.startswith("# ")]
    one = generate(spec)
    serial = list(one)
    assert [line.split("\t")[0] for line in lines] == [g.puzzle for g in serial]
    assert [p for p, _ in found] == [g.puzzle for g in serial]
    assert all(d is not None and d.level is not None for _, d in found)
    assert work.candidates == one.candidates
    headers = [line for line in text.splitlines() if line.startswith("# ")]
    assert len(headers) == work.total and headers[0].startswith("# mercury + venus: ")


def test_json_groups_and_the_difficulty_filter() -> None:
    spec = GenerationSpec(_PLANETS)
    work = GenerationWorkload(GenerationJob(spec, max_level=2), json=True)
    docs = [json.loads(line) for line in _run(work).splitlines()]
    assert [d["branch"] for d in docs] == [work.key(p) for p in range(work.total)]
    rows = [r for d in docs for r in d["results"]]
    assert all(r["difficulty"]["level"] <= 2 for r in rows)
    assert sum(d["candidates"] for d in docs) == work.candidates


def test_a_stopped_batch_resumes_to_the_same_file(tmp_path: Path) -> None:
    words = tuple((DATA / "alpha.txt").read_text().split())
    job = GenerationJob(GenerationSpec(words, max_words=6))
    whole = tmp_path / "whole.txt"
    _run(GenerationWorkload(job), whole)
    out = tmp_path / "out.txt"
    with pytest.raises(BatchStopped) as stop:
        _run(GenerationWorkload(job), out, stop_after=3)
    assert 0 < stop.value.done < stop.value.total
    again = GenerationWorkload(job)
    _run(again, out, resume=True)
    assert out.read_bytes() == whole.read_bytes()
    assert again.puzzles == sum(1 for line in whole.read_text().splitlines()[1:]
                                if not line.startswith("# "))


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_damaged_output_file_is_refused_or_finished_identically(
        tmp_path: Path, data: st.DataObject) -> None:
    """A stopped generation batch's file (and journal), then damaged: --resume refuses it
    in one line or finishes it into the uninterrupted run's bytes."""
    as_json = data.draw(st.booleans())
    job = GenerationJob(GenerationSpec(_PLANETS, right="free", max_words=4), rated=True)
    whole = tmp_path / f"whole{int(as_json)}.txt"
    if not whole.exists():
        _run(GenerationWorkload(job, json=as_json), whole)
    out, journal = tmp_path / "out.txt", tmp_path / "out.txt.journal"
    for path in (out, journal):
        path.unlink(missing_ok=True)
    with contextlib.suppress(BatchStopped):
        _run(GenerationWorkload(job, json=as_json), out, stop_after=data.draw(st.integers(0, 3)))
    for path in (out, journal) if journal.exists() else (out,):
        path.write_bytes(bytes(damage(bytearray(path.read_bytes()), data)))
    try:
        _run(GenerationWorkload(job, json=as_json), out, resume=True)
    except BatchError as exc:
        assert "\n" not in str(exc)
        return
    assert out.read_bytes() == whole.read_bytes()
    assert not journal.exists()


def test_a_past_deadline_returns_no_branch() -> None:
    job = GenerationJob(GenerationSpec(_PLANETS), deadline=0.0)
    whole = job.prepare()
    assert job(worker_index(NOTHING), tuple(whole.branches()[:3])) == [None] * 3


def test_crossword_job_lines_are_the_serial_lines() -> None:
    words = ["cc", "a", "cl", "on", "d", "go", "ni", "e", "ne"]
    work = GenerationWorkload(CrossJob(tuple(words), 3))
    lines = [line for line in _run(work).splitlines() if not line.startswith("# ")]
    assert [line.split("\t")[0] for line in lines] == [c.text for c in cross_generation(words, 3)]


def test_no_index_ships_and_workers_get_an_empty_one() -> None:
    assert NOTHING.visible() and NOTHING.read_bytes() == b""
    assert worker_index(NOTHING).words == []


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cryptocomp", "compose", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_cli_jobs_print_what_one_search_prints(tmp_path: Path) -> None:
    greek = str(DATA / "alpha.txt")
    serial = _cli("--from", greek, "--max", "10")
    pooled = _cli("--from", greek, "--max", "10", "--jobs", "2")
    assert pooled.returncode == serial.returncode == 0
    assert pooled.stdout == serial.stdout and len(serial.stdout.splitlines()) == 593
    as_json = _cli("--from", greek, "--max", "5", "--jobs", "2", "--json")
    assert as_json.stdout == _cli("--from", greek, "--max", "5", "--json").stdout
    out = tmp_path / "greek.txt"
    filed = _cli("--from", greek, "--max", "10", "--jobs", "2", "--output", str(out))
    assert filed.returncode == 0 and "593 puzzles in" in filed.stderr
    kept = [line for line in out.read_text().splitlines()[1:] if not line.startswith("# ")]
    assert "\n".join(kept) + "\n" == serial.stdout
    rated = ["--from", greek, "--max", "4", "--difficulty"]
    out.unlink()
    assert _cli(*rated, "--jobs", "2", "--output", str(out)).returncode == 0
    kept = [line for line in out.read_text().splitlines()[1:] if not line.startswith("# ")]
    assert "\n".join(kept) + "\n" == _cli(*rated).stdout
    first = _cli("--from", greek, "--max", "10", "--top", "7", "--jobs", "2")
    assert first.stdout == _cli("--from", greek, "--max", "10", "--top", "7").stdout
    assert len(first.stdout.splitlines()) == 7 and "--top reached (7)" in first.stderr
    crosswords = tmp_path / "cross.txt"
    crosswords.write_text("cc\na\ncl\non\nd\ngo\nni\ne\nne\n")
    cross = ["--from", str(crosswords), "--cross", "3"]
    assert _cli(*cross, "--jobs", "2").stdout == _cli(*cross).stdout


@pytest.mark.parametrize(("extra", "says"), [
    (["--steps", "10", "--jobs", "2"], "--steps goes with one search"),
    (["--top", "3", "--output", "x.txt"], "--top goes with the puzzles printed"),
    (["--resume"], "--resume needs --output FILE"),
    (["--cluster", "local:0"], "--cluster takes local:N"),
    (["--jobs", "0"], "--jobs"),
])
def test_cli_batch_options_that_do_not_go(extra: list[str], says: str) -> None:
    run = _cli("--from", str(DATA / "alpha.txt"), *extra)
    assert run.returncode == 2 and says in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
