"""Arrow-word batches on the batch layer: the same puzzles in this process, on the pool and
on a Dask LocalCluster; resumable output files; a killed worker; time budgets; the CLI.
Oracles: :func:`arrowword` in this process, an uninterrupted run's bytes, and the
independent rule checker on every puzzle."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from cryptocomp import Index, arrowword
from cryptocomp.arrow.check import puzzle_problems
from cryptocomp.arrow.clues import load_clues
from cryptocomp.arrow.generator import ArrowParams, build_workshop
from cryptocomp.arrow.phrases import parse_phrases
from cryptocomp.arrow.workload import ArrowWorkload, ship_words
from cryptocomp.batch import DiscardSink, Journal, ProcessPool, SerialBackend, batch_id, run_batch
from cryptocomp.cli import main
from cryptocomp.errors import BatchStopped, BatchTimedOut

# short phrases of common letters, so that several fit every grid and later puzzles would
# take the phrases of earlier ones if a resumed batch forgot which were used
PHRASES_TEXT = "Rest\nSeat\nTear\nRain\nNear\nLate\nSane\nTile\nEarn\nNeat\nAre\nTea\n"
SIZE = (7, 7)
SEED = 21


@pytest.fixture(scope="module")
def book():
    return load_clues("wordnet")


@pytest.fixture(scope="module")
def english(book) -> Index:
    return Index.from_counts({w: book.senses(w) for w in book if len(w) <= 6}, name="wn6",
                             params={"lang": "en"})


@pytest.fixture(scope="module")
def phrases():
    return parse_phrases(PHRASES_TEXT)


@pytest.fixture(scope="module")
def shop(english, book, phrases):
    return build_workshop(ArrowParams(*SIZE), english, clues=book, phrases=phrases)


@pytest.fixture(scope="module")
def shipment(shop, tmp_path_factory):
    return ship_words(shop, tmp_path_factory.mktemp("words"))


def _work(shop, count=6, **kw) -> ArrowWorkload:
    return ArrowWorkload(ArrowParams(*SIZE), shop, count=count, seed=SEED, **kw)


def _run(work, shipment, backend=None, path=None, *, resume=False, stop_after=None):
    """Run a batch into ``path``; ``stop_after``: Ctrl-C after N progress calls."""
    calls = [0]

    def on_progress(p):
        calls[0] += 1
        if stop_after is not None and calls[0] > stop_after:
            raise KeyboardInterrupt

    sink = Journal(path) if path is not None else DiscardSink()
    return run_batch(work, shipment, backend or SerialBackend(), sink,
                     ident=batch_id(work, shipment.checksum), resume=resume,
                     on_progress=on_progress)


@pytest.fixture(scope="module")
def whole(shop, shipment, tmp_path_factory) -> bytes:
    """An uninterrupted run's output file (the oracle of the stop-and-resume tests)."""
    path = tmp_path_factory.mktemp("whole") / "whole.jsonl"
    _run(_work(shop), shipment, path=path)
    return path.read_bytes()


def _docs(data: bytes) -> list[dict]:
    """The puzzles of an output file (its first line is the batch header)."""
    return [json.loads(line) for line in data.decode("utf-8").splitlines()[1:]]


def _without_seconds(doc: dict) -> dict:
    return doc | {"stats": {k: v for k, v in doc["stats"].items() if k != "seconds"}}


@pytest.mark.slow
def test_batch_file_equals_in_process_puzzles_and_passes_the_checker(whole, english, book,
                                                                       phrases):
    docs = _docs(whole)
    result = arrowword(SIZE, index=english, clues=book, phrases=phrases, count=6, seed=SEED)
    assert result.complete
    assert docs == [_without_seconds(p.to_json()) for p in result.puzzles]
    assert [d["stats"]["puzzle"] for d in docs] == [1, 2, 3, 4, 5, 6]
    hidden = [d["hidden"]["phrase"] for d in docs if d["hidden"]]
    assert len(hidden) >= 4 and len(hidden) == len(set(hidden))   # each phrase once a batch
    for d in docs:
        assert puzzle_problems(d, words=english.__contains__, clued=True) == []
        assert "seconds" not in d["stats"]
    assert all("seconds" in p.stats for p in result.puzzles)    # kept where nothing resumes


@pytest.mark.slow
def test_pool_gives_the_same_file_and_loads_the_words_once_a_worker(shop, shipment, whole,
                                                                      tmp_path):
    out = tmp_path / "pool.jsonl"
    with ProcessPool(2) as pool:
        summary = _run(_work(shop), shipment, pool, path=out)
    assert out.read_bytes() == whole
    assert len(summary.workers) <= 2 and all(not w.endswith(f":{os.getpid()}")
                                             for w in summary.workers)


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_file_and_survives_a_killed_worker(
        shop, shipment, whole, tmp_path):
    pytest.importorskip("distributed")
    from cryptocomp.batch import DaskBackend

    out = tmp_path / "dask.jsonl"
    # the words as bytes, scattered once to each worker (as to workers on other machines)
    with DaskBackend(local=2, ship="bytes") as backend:
        _run(_work(shop), shipment, backend, path=out)
        assert backend.shipped == "bytes"
        assert out.read_bytes() == whole
        # a worker killed after the first finished task: Dask reruns its task elsewhere (or
        # the batch stops); no finished puzzle is lost either way
        pids = list(backend._client.run(os.getpid).values())
        killed: list[int] = []

        def kill_one(progress):
            if progress.done > 0 and not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        again = tmp_path / "again.jsonl"
        work = _work(shop)
        try:
            run_batch(work, shipment, backend, Journal(again),
                      ident=batch_id(work, shipment.checksum), on_progress=kill_one)
        except BatchStopped:
            assert whole.startswith(again.read_bytes())
            _run(_work(shop), shipment, path=again, resume=True)
    assert killed
    assert again.read_bytes() == whole


@pytest.mark.parametrize("stop_after", [0, 2])
def test_resume_after_interrupt_gives_an_identical_file(shop, shipment, whole, tmp_path,
                                                        stop_after):
    out = tmp_path / "out.jsonl"
    with pytest.raises(BatchStopped) as stop:
        _run(_work(shop), shipment, path=out, stop_after=stop_after)
    assert stop.value.interrupted and stop.value.done < 6
    assert whole.startswith(out.read_bytes())
    work = _work(shop)
    summary = _run(work, shipment, path=out, resume=True)
    assert summary.resumed == stop.value.done
    assert out.read_bytes() == whole
    assert not (tmp_path / "out.jsonl.journal").exists()


def test_puzzles_finished_ahead_wait_raw_in_the_journal(shop, shipment, whole, tmp_path):
    class Reversed(SerialBackend):
        def run(self, tasks, job, shipment, **kw):
            tasks = list(tasks)
            for n, task in enumerate(reversed(tasks)):
                if n == len(tasks) // 2:
                    raise KeyboardInterrupt
                yield from super().run(iter([task]), job, shipment)

    out = tmp_path / "out.jsonl"
    with pytest.raises(BatchStopped) as stop:
        _run(_work(shop), shipment, Reversed(), path=out)
    assert stop.value.done > 0
    journal = (tmp_path / "out.jsonl.journal").read_bytes()
    assert b'\n@' in journal and b'"raw": 1' in journal
    summary = _run(_work(shop), shipment, path=out, resume=True)
    assert summary.resumed == stop.value.done
    assert out.read_bytes() == whole


@pytest.mark.slow
def test_killed_pool_worker_loses_no_finished_puzzle(shop, shipment, whole, tmp_path):
    out = tmp_path / "out.jsonl"
    killed = []

    class KillOnce(ProcessPool):
        def run(self, tasks, job, shipment, **kw):
            for item in super().run(tasks, job, shipment, **kw):
                yield item
                # once a puzzle is on file (tasks finish in any order, and the file is
                # written in the order of the input)
                if not killed and out.exists() and _docs(out.read_bytes()):
                    pid = next(iter(self._executor._processes))
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)

    work = _work(shop, count=10)
    with pytest.raises(BatchStopped, match="worker process died"), KillOnce(2) as pool:
        _run(work, shipment, pool, path=out)
    assert killed
    kept = out.read_bytes()
    assert len(_docs(kept)) >= 1
    _run(_work(shop, count=10), shipment, path=out, resume=True)
    full = out.read_bytes()
    assert full.startswith(kept)
    assert _docs(full)[:6] == _docs(whole)


@pytest.mark.slow
def test_time_budget_keeps_what_an_unbudgeted_run_makes(shop, shipment, tmp_path, english,
                                                         book, phrases):
    out = tmp_path / "out.jsonl"
    budget = 1.5
    start = time.time()
    with pytest.raises(BatchTimedOut, match="time budget ran out") as stop:
        _run(_work(shop, count=200, deadline=start + budget), shipment, path=out)
    assert time.time() - start <= budget * 1.1 + 1.0
    assert 0 < stop.value.done < 200
    kept = _docs(out.read_bytes())
    # puzzles finished in the budget are those of an unbudgeted run (an attempt cut short
    # by the deadline is never taken for a failure); puzzle i does not depend on the count
    result = arrowword(SIZE, index=english, clues=book, phrases=phrases, count=len(kept),
                       seed=SEED)
    assert kept == [_without_seconds(p.to_json()) for p in result.puzzles]


@pytest.mark.slow
def test_api_time_budget_and_failed_puzzles(english, book):
    start = time.monotonic()
    result = arrowword(SIZE, index=english, clues=book, phrases="none", count=500,
                       seconds=1.0, workers=2)
    assert time.monotonic() - start <= 1.0 * 1.1 + 1.0 + 0.5   # + building the workshop
    assert not result.complete and "time budget ran out" in result.message
    # a puzzle no attempt can fill is reported and the others still come
    failed = arrowword(SIZE, index=english, clues=book, phrases="none", count=2, top=3,
                       max_attempts=2)
    assert failed.puzzles == [] and "no success in 2 attempts" in failed.message


def _cli_files(tmp_path: Path, book) -> list[str]:
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w} {book.senses(w)}\n" for w in book if len(w) <= 6),
                     encoding="utf-8")
    clue_file = tmp_path / "clues.tsv"
    clue_file.write_text("".join(f"{w}\t{c}\n" for w in book if len(w) <= 6
                                 for c in book.clues(w)[:2]), encoding="utf-8")
    phrase_file = tmp_path / "phrases.txt"
    phrase_file.write_text(PHRASES_TEXT, encoding="utf-8")
    return ["swedish", "--size", "7x7", "--dict", str(words), "--clues", str(clue_file),
            "--phrases", str(phrase_file), "--seed", "3", "--count", "4"]


@pytest.mark.slow
def test_cli_output_resume_failures_and_errors(tmp_path, capsys, book, monkeypatch):
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    args = _cli_files(tmp_path, book)
    full = tmp_path / "full.jsonl"
    assert main(args + ["--jobs", "2", "--output", str(full)]) == 0
    assert capsys.readouterr().out == ""          # the puzzles went to the file
    docs = _docs(full.read_bytes())
    assert len(docs) == 4 and all(puzzle_problems(d) == [] for d in docs)
    assert main(args + ["--workers", "1", "--json"]) == 0     # --workers: same as --jobs
    shown = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [_without_seconds(d) for d in shown] == docs
    # stopped by its time budget, then finished by --resume: the same bytes
    part = tmp_path / "part.jsonl"
    assert main(args + ["--jobs", "1", "--output", str(part), "--time", "0.001"]) == 3
    err = capsys.readouterr().err
    assert "time budget ran out" in err and "--resume" in err
    assert main(args + ["--jobs", "1", "--output", str(part), "--resume"]) == 0
    assert part.read_bytes() == full.read_bytes()
    # refusals are one line
    assert main(args + ["--resume"]) == 2
    assert "--resume needs --output" in capsys.readouterr().err
    assert main(args + ["--output", str(full)]) == 2
    assert "exists" in capsys.readouterr().err
    # a puzzle no attempt could fill: an error line in the file, exit status 3
    failed = tmp_path / "failed.jsonl"
    assert main(args + ["--jobs", "1", "--top", "3", "--attempts", "1",
                        "--output", str(failed)]) == 3
    bad = _docs(failed.read_bytes())
    assert len(bad) == 4 and all("no success in 1 attempts" in d["error"] for d in bad)
    assert [d["stats"]["puzzle"] for d in bad] == [1, 2, 3, 4]


@pytest.mark.slow
def test_cli_cluster_local_equals_the_pool(tmp_path, capsys, book, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    args = _cli_files(tmp_path, book)
    pool, dask = tmp_path / "pool.jsonl", tmp_path / "dask.jsonl"
    assert main(args + ["--jobs", "2", "--output", str(pool)]) == 0
    assert main(args + ["--cluster", "local:2", "--output", str(dask)]) == 0
    assert dask.read_bytes() == pool.read_bytes()


def test_a_stopped_pdf_batch_still_prints_what_it_made(tmp_path, capsys, book, monkeypatch):
    from pdf_reading import page_texts

    import cryptocomp.arrow.workload as workload

    class StopsAfterTwo(ArrowWorkload):
        def __init__(self, *args, **kwargs):
            made = kwargs["on_puzzle"]

            def on_puzzle(i, puzzle):
                made(i, puzzle)
                if self.finished == 2:
                    raise KeyboardInterrupt  # Ctrl-C after the second puzzle

            kwargs["on_puzzle"] = on_puzzle
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(workload, "ArrowWorkload", StopsAfterTwo)
    out = tmp_path / "stopped.pdf"
    assert main(_cli_files(tmp_path, book) + ["--jobs", "1", "--pdf", str(out)]) != 0
    assert "interrupted" in capsys.readouterr().err
    assert len(page_texts(out.read_bytes())) == 4  # two puzzles, then their two solutions
