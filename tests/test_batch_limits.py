"""Limits of the batch layer (issue 31): a huge batch plans lazily, a resume checks its
file in one pass, an edited header is named as such, repeated or many alike compose
queries hold bounded memory, and one machine starts a bounded number of workers.
Oracles: single compose calls, and an uninterrupted run's bytes."""

from __future__ import annotations

import importlib
import io
import os
import time
import tracemalloc
from pathlib import Path

import pytest
from test_batch import make_index_file, make_lists

from cryptocomp.batch import (
    AttemptJob,
    AttemptsWorkload,
    ComposeJob,
    ComposeWorkload,
    IndexShipment,
    Journal,
    ProcessPool,
    QueryGrid,
    SerialBackend,
    StreamSink,
    batch_id,
    run_batch,
)
from cryptocomp.batch.attempts import Attempt
from cryptocomp.batch.pool import MAX_WORKERS_PER_CPU
from cryptocomp.batch.shipment import worker_index
from cryptocomp.batch.workload import Positions
from cryptocomp.cli import main
from cryptocomp.cryptarithm.expr import parse
from cryptocomp.errors import BatchError, BatchStopped

# the module (the package's name `compose` is its function)
composer = importlib.import_module("cryptocomp.cryptarithm.compose")
pairquery = importlib.import_module("cryptocomp.batch.pairquery")


@pytest.fixture(scope="module")
def shipment(tmp_path_factory) -> IndexShipment:
    return IndexShipment.of_file(make_index_file(tmp_path_factory.mktemp("idx")), "small")


def trivial(index, params, seed: int) -> Attempt:
    """A generator that costs nothing (Ctrl-C at seed ``params["stop"]``)."""
    if seed == params.get("stop"):
        raise KeyboardInterrupt
    return Attempt("ok", f"ok {seed}", (f"line {seed}", "x" * params.get("width", 0)))


def _attempts(total: int, stop: int | None = None, width: int = 0) -> AttemptsWorkload:
    return AttemptsWorkload("demo", AttemptJob(trivial, {"stop": stop, "width": width}), total)


def _into(path: Path, work, shipment, *, resume: bool = False) -> None:
    # the id leaves the job's params out: a stopping and a whole run are one batch
    run_batch(work, shipment, SerialBackend(), Journal(path),
              ident=batch_id(work, shipment.checksum), resume=resume)


# -- a huge batch: planned lazily ----------------------------------------------------------------

def test_positions_left_are_a_range_less_those_done_ahead():
    left = Positions(3, 10, {5, 8, 42, 1})
    assert list(left) == [3, 4, 6, 7, 9] and len(left) == 5
    assert 4 in left and 5 not in left and 10 not in left and "4" not in left
    assert len(Positions(7, 3)) == 0 and list(Positions(7, 3)) == []
    assert len(Positions(0, 10**15)) == 10**15     # sized without a list


def test_a_million_attempts_start_in_bounded_memory(shipment):
    worker_index(shipment)      # the index loaded before measuring
    work = _attempts(10**6, stop=3)
    tracemalloc.start()
    try:
        with pytest.raises(BatchStopped) as stop:
            run_batch(work, shipment, SerialBackend(), StreamSink(io.StringIO()),
                      ident=batch_id(work, shipment.checksum))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert stop.value.done == 3 and stop.value.total == 10**6
    # a list of the positions left was 36 MB here
    assert peak < 4 << 20, f"{peak / 2**20:.1f} MB"


def test_resume_of_many_groups_reads_no_copy_and_finishes_identically(shipment, tmp_path):
    whole = tmp_path / "whole.txt"
    _into(whole, _attempts(3000, width=1000), shipment)
    out = tmp_path / "out.txt"
    with pytest.raises(BatchStopped):
        _into(out, _attempts(3000, stop=2900, width=1000), shipment)
    assert out.stat().st_size > 2_800_000
    tracemalloc.start()
    try:
        _into(out, _attempts(3000, width=1000), shipment, resume=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out.read_bytes() == whole.read_bytes()
    # the file is mapped, not read, and no prefix is copied to count its lines: the
    # check held 2 to 3 copies of the file (and took time quadratic in its groups)
    assert peak < 1 << 20, f"{peak / 2**20:.1f} MB"
    # a group changed deep in the file is named by its line (counted as the scan goes)
    with pytest.raises(BatchStopped):
        _into(out := tmp_path / "again.txt", _attempts(3000, stop=1700), shipment)
    text = out.read_text(encoding="utf-8").replace("line 1234\n", "line 1243\n")
    out.write_text(text, encoding="utf-8")
    line = text.splitlines().index("# seed 1234: ok 1234 (2 lines)") + 1
    with pytest.raises(BatchError, match=rf"group of 'seed 1234' \(line {line}\) is not what"):
        _into(out, _attempts(3000), shipment, resume=True)


def test_an_edited_header_naming_this_batch_is_called_edited(shipment, tmp_path):
    out = tmp_path / "out.txt"
    with pytest.raises(BatchStopped):
        _into(out, _attempts(10, stop=4), shipment)
    work = _attempts(10)
    ident = batch_id(work, shipment.checksum)
    text = out.read_text(encoding="utf-8")
    out.write_text(text.replace(", 10 attempts,", ", 11 attempts,", 1), encoding="utf-8")
    with pytest.raises(BatchError) as err:
        _into(out, work, shipment, resume=True)
    message = str(err.value)
    assert "first line was edited" in message and f"id {ident}" in message
    assert "holds another batch" not in message and "this one is" not in message
    # the journal's first line is checked the same way
    out.write_text(text, encoding="utf-8")
    journal = out.with_name(out.name + ".journal")
    journal.write_bytes(journal.read_bytes().replace(b"demo,", b"dem0,", 1))
    with pytest.raises(BatchError, match=r"out\.txt\.journal: its first line was edited"):
        _into(out, work, shipment, resume=True)


# -- compose: repeated and alike queries -----------------------------------------------------

def _alone(query: str, index) -> list:
    return composer.compose_puzzle(parse(query), index)


def test_a_repeated_query_is_composed_once_with_the_same_groups(shipment, monkeypatch):
    index = worker_index(shipment)
    calls = []
    for module in (composer, pairquery):   # a sum of two words goes the pair path
        real = module._candidates
        monkeypatch.setattr(module, "_candidates",
                            lambda *a, real=real, **k: calls.append(a[1]) or real(*a, **k))
    items = ("cat+dog", "cat+dog", "dog+cat", "cat+dog", "CAT + DOG")
    job = ComposeJob()
    groups = job(index, items)
    # cat+dog (three spellings) and dog+cat at most once each (the pair path builds one
    # candidate set for the two: they ask for the same words)
    assert 1 <= len(calls) <= 2 and len({repr(p.left) for p in calls}) == len(calls)
    assert groups == [job.render(q, _alone(q, index)) for q in items]
    assert groups[0] == groups[1] == groups[3] and groups[4].startswith(b"# CAT + DOG: ")


def test_alike_puzzles_share_their_candidates_by_bounded_chunks(shipment, monkeypatch):
    index = worker_index(shipment)
    queries = ["cat+dog", "dog+cat", "bat+cow", "pig+hen"]
    puzzles = [parse(q) for q in queries]
    assert len({composer.alike_key(p) for p in puzzles}) == 1
    enumerations = []
    real = composer._enumerate
    monkeypatch.setattr(composer, "_enumerate",
                        lambda *a, **k: enumerations.append(a[0]) or real(*a, **k))
    assert composer.compose_alike(puzzles, index) == [_alone(q, index) for q in queries]
    assert len(enumerations) - 4 == 1      # one shared (4 were the oracle's own)
    enumerations.clear()
    monkeypatch.setattr(composer, "_SHARED_WORDS", 1)   # each puzzle's words over it
    assert composer.compose_alike(puzzles, index) == [_alone(q, index) for q in queries]
    assert len(enumerations) - 4 == 4


def test_cli_batch_of_repeated_words_prints_every_group(tmp_path):
    argv = make_lists(tmp_path)
    left, right = Path(argv[2]), Path(argv[3])
    words_l = [w for w in left.read_text().split() for _ in range(6)]
    words_r = [w for w in right.read_text().split() for _ in range(6)]
    left.write_text("\n".join(words_l) + "\n")
    right.write_text("\n".join(words_r) + "\n")
    out = tmp_path / "out.txt"
    started = time.perf_counter()
    assert main([*argv, "--jobs", "1", "--output", str(out)]) == 0
    assert time.perf_counter() - started < 10     # 36 copies of each query
    work = ComposeWorkload(QueryGrid(words_l, "+-", words_r), ComposeJob())
    assert work.total == 3 * 3 * 2 * 36
    loaded = worker_index(IndexShipment.of_file(*_index_of(argv)))
    once = {q: work.job.render(q, _alone(q, loaded)) for q in set(work.queries)}
    expected = b"".join(once[work.key(p)] for p in range(work.total))
    assert out.read_bytes().split(b"\n", 1)[1] == expected


def _index_of(argv: list[str]) -> tuple[Path, str]:
    """The index file the CLI built for the dictionary of ``argv``."""
    home = Path(os.environ["CRYPTOCOMP_HOME"]) / "indexes"
    (path,) = home.glob("small-*.ccidx")
    return path, "small"


# -- workers one machine may start -------------------------------------------------------------

def test_worker_counts_over_the_machine_cap_are_refused_at_once(tmp_path, capsys):
    argv = make_lists(tmp_path)
    cap = MAX_WORKERS_PER_CPU * (os.cpu_count() or 1)
    for option in (["--jobs", str(cap + 1)], ["--cluster", "local:1000"]):
        started = time.perf_counter()
        assert main([*argv, *option]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"at most {cap} on this machine" in err[0], err
        assert time.perf_counter() - started < 2
    with pytest.raises(BatchError, match="at most"):
        ProcessPool(cap + 1)
    assert ProcessPool(cap).workers == cap     # the cap itself is allowed
