"""The batch layer without Dask: workloads, the ordered resumable output file, the local
pool, the index shipment, and the CLI's batch options.  Oracles: single compose calls
(tested on their own against brute force), and an uninterrupted run's bytes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import zlib
from pathlib import Path

import pytest
from batch_damage import damage
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp import Index, WordFilter
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
from cryptocomp.batch.attempts import fill_attempt
from cryptocomp.batch.composition import quick_shape
from cryptocomp.batch.progress import Meter
from cryptocomp.batch.shipment import worker_index
from cryptocomp.batch.workload import Unit, pack
from cryptocomp.cryptarithm.compose import compose
from cryptocomp.errors import BatchError, BatchStopped, CryptocompError
from cryptocomp.index.store import index_checksum, read_index_bytes, save_index

DATA = Path(__file__).resolve().parent.parent / "cryptocomp" / "data" / "enable1.txt"
# cat+dog and dog+cat share a shape; abcdefghij+anything has more than 10 letters (errors)
LEFT = ["cat", "dog", "send", "abcdefghij"]
RIGHT = ["dog", "cat", "more", "zoo"]
OPS = "+-*"


def _counts() -> dict[str, int]:
    words = [w.strip() for w in DATA.read_text(encoding="utf-8").split() if len(w.strip()) <= 5]
    return {w: 1 + zlib.crc32(w.encode()) % 1000 for w in words}


def make_index_file(directory: Path) -> Path:
    """The small index as a file (what batch workers load)."""
    path = directory / "small.ccidx"
    index = Index.from_counts(_counts(), name="small")
    index._check()
    save_index(index, path)
    return path


def make_lists(tmp_path: Path) -> list[str]:
    """The small dictionary and two word lists as files; the compose --batch argv."""
    dict_file = tmp_path / "small.txt"
    dict_file.write_text("".join(f"{w} {c}\n" for w, c in _counts().items()), encoding="utf-8")
    left, right = tmp_path / "left.txt", tmp_path / "right.txt"
    left.write_text("\n".join(LEFT[:3]) + "\n", encoding="utf-8")
    right.write_text("\n".join(RIGHT[:3]) + "\n", encoding="utf-8")
    return ["compose", "--batch", str(left), str(right), "--ops", "+-",
            "--dict", str(dict_file)]


@pytest.fixture(scope="module")
def index_path(tmp_path_factory) -> Path:
    return make_index_file(tmp_path_factory.mktemp("idx"))


@pytest.fixture(scope="module")
def shipment(index_path) -> IndexShipment:
    return IndexShipment.of_file(index_path, "small")


@pytest.fixture(scope="module")
def whole(shipment, tmp_path_factory) -> bytes:
    """The output file of an uninterrupted run of the standard workload (the oracle of
    every stop-and-resume test)."""
    path = tmp_path_factory.mktemp("whole") / "whole.txt"
    _run(_workload(), shipment, path=path)
    return path.read_bytes()


def _workload(left=LEFT, right=RIGHT, ops=OPS, **job) -> ComposeWorkload:
    return ComposeWorkload(QueryGrid(left, ops, right), ComposeJob(**job))


def _expected(workload: ComposeWorkload, index: Index, json_lines=False) -> bytes:
    """The output file of a batch, built from single compose calls (the oracle)."""
    job = workload.job
    out = []
    for q in workload.queries:
        try:
            results = compose(q, index, job.words)
        except CryptocompError as exc:
            out.append(job.render_error(q, exc))
            continue
        out.append(job.render(q, results))
    return b"".join(out)


def _run(workload, shipment, backend=None, path=None, *, resume=False, stop_after=None):
    """Run a batch into ``path`` (or a string); ``stop_after``: Ctrl-C after N progress calls."""
    calls = [0]

    def on_progress(p):
        calls[0] += 1
        if stop_after is not None and calls[0] > stop_after:
            raise KeyboardInterrupt

    sink = Journal(path) if path is not None else StreamSink(_Buffer())
    summary = run_batch(workload, shipment, backend or SerialBackend(), sink,
                        ident=batch_id(workload, shipment.checksum), resume=resume,
                        on_progress=on_progress)
    return summary, (sink.stream.text if path is None else None)


class _Buffer:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s

    def flush(self):
        pass


def _groups(text: bytes) -> bytes:
    """A file's groups (its first line is the batch header)."""
    return text.split(b"\n", 1)[1]


# -- planning and formats ---------------------------------------------------------------------

def test_query_grid_and_quick_shape():
    grid = QueryGrid(["ab", "cd"], "+-", ["x", "y", "z"])
    assert len(grid) == 12 and list(grid)[:4] == ["ab+x", "ab+y", "ab+z", "ab-x"]
    assert grid[-1] == "cd-z" and grid[2:4] == ["ab+z", "ab-x"]
    with pytest.raises(IndexError):
        grid[12]
    assert quick_shape("ABC + CBA") == quick_shape("xyz+zyx") == "012+210"
    assert quick_shape("abcdefghijk") == "0123456789#"


def test_pack_never_splits_a_unit_and_reaches_the_target():
    units = [Unit((i, i + 100), 0.1 * (i % 3)) for i in range(20)]
    tasks = list(pack(units, target=0.5))
    assert [p for t in tasks for p in t.positions] == [p for u in units for p in u.positions]
    assert all(t.cost >= 0.5 for t in tasks[:-1])
    assert [t.number for t in tasks] == list(range(len(tasks)))


def test_plan_covers_every_position_once_and_groups_shapes(shipment):
    work = _workload(LEFT * 3, RIGHT, OPS)
    positions = list(range(work.total))
    tasks = list(work.plan(positions, workers=2, min_cost=0.0))
    got = sorted(p for t in tasks for p in t.positions)
    assert got == positions
    # the same query (same shape) three times lands in one task
    first = {q: [p for p in positions if work.key(p) == q] for q in set(work.queries)}
    where = {p: t.number for t in tasks for p in t.positions}
    assert all(len({where[p] for p in ps}) == 1 for ps in first.values())


def test_meter():
    meter = Meter(total=100, skipped=10, clock=iter([0.0, 10.0, 20.0]).__next__)
    p = meter.advance(30)
    assert (p.done, p.rate, p.eta) == (40, 3.0, 20.0)
    assert p.describe("queries") == "40/100 queries, 3.0/s, ETA 0:20"
    assert Meter(5).snapshot().eta is None


# -- results: identical to single compose calls -----------------------------------------------

def test_serial_batch_equals_single_compose_calls(shipment, whole, tmp_path):
    index = worker_index(shipment)
    work = _workload()
    summary, _ = _run(work, shipment, path=tmp_path / "out.txt")
    data = (tmp_path / "out.txt").read_bytes()
    assert data == whole
    assert _groups(data) == _expected(work, index)
    assert data.startswith(b"# cryptocomp batch 1: compose, 48 queries, id ")
    assert summary.computed == 48 and summary.resumed == 0
    assert b"# abcdefghij+dog: error: more than 10 distinct letters" in data
    assert not (tmp_path / "out.txt.journal").exists()


def test_word_constraints_reach_every_query(shipment, whole, tmp_path):
    index = worker_index(shipment)
    work = _workload(words=WordFilter(contains="o", excludes="y", max_length=4, top=5000))
    _run(work, shipment, path=tmp_path / "out.txt")
    got = _groups((tmp_path / "out.txt").read_bytes())
    assert got == _expected(work, index) and got != _groups(whole)


def test_json_lines_and_top(shipment, tmp_path):
    index = worker_index(shipment)
    work = _workload(LEFT[1:], RIGHT[1:], json=True, shown=2)
    _run(work, shipment, path=tmp_path / "out.jsonl")
    lines = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["cryptocomp_batch"] == 1 and head["items"] == work.total
    docs = [json.loads(line) for line in lines[1:]]
    assert [d["query"] for d in docs] == list(work.queries)
    for d in docs:
        if "error" in d:
            continue
        want = compose(d["query"], index)
        assert d["count"] == len(want)
        assert d["results"] == [r.to_json() for r in want[:2]]


def test_pool_output_equals_serial_output(shipment, whole, tmp_path):
    work = _workload()
    with ProcessPool(2) as pool:
        summary, _ = _run(work, shipment, pool, path=tmp_path / "pool.txt")
    assert (tmp_path / "pool.txt").read_bytes() == whole
    assert len(summary.workers) >= 1 and summary.tasks >= 2


def test_stream_sink_writes_groups_in_order_without_header(shipment):
    work = _workload(LEFT[:2], RIGHT[:2], "+")
    _, text = _run(work, shipment)
    assert text.encode() == _expected(work, worker_index(shipment))


# -- stopping and resuming --------------------------------------------------------------------

@pytest.mark.parametrize("stop_after", [0, 2])
def test_resume_after_interrupt_gives_the_same_bytes(shipment, whole, tmp_path, stop_after):
    work = _workload()
    out = tmp_path / "out.txt"
    with pytest.raises(BatchStopped) as stop:
        _run(work, shipment, path=out, stop_after=stop_after)
    assert stop.value.interrupted and stop.value.done < work.total
    assert whole.startswith(out.read_bytes())
    summary, _ = _run(work, shipment, path=out, resume=True)
    assert summary.resumed == stop.value.done
    assert summary.resumed + summary.computed == work.total
    assert out.read_bytes() == whole
    assert not (tmp_path / "out.txt.journal").exists()


def test_a_second_run_on_the_same_output_is_refused_while_the_first_writes(shipment, whole,
                                                                          tmp_path):
    """Found by starting --resume while the first run still wrote: the two interleaved
    their groups (121 lines for 80 puzzles), both with exit 0."""
    work = _workload()
    out = tmp_path / "out.txt"
    second: list[str] = []

    def on_progress(p):
        if not second:  # the first run holds the file: another run must not start on it
            with pytest.raises(BatchError, match="being written by another run") as refused:
                _run(_workload(), shipment, path=out, resume=True)
            second.append(str(refused.value))

    run_batch(work, shipment, SerialBackend(), Journal(out),
              ident=batch_id(work, shipment.checksum), on_progress=on_progress)
    assert second and out.read_bytes() == whole
    assert not (tmp_path / "out.txt.lock").exists() and not (tmp_path / "out.txt.journal").exists()
    _run(work, shipment, path=out, resume=True)  # once it is done, the file is free again
    assert out.read_bytes() == whole


def test_groups_finished_ahead_are_kept_in_the_journal(shipment, whole, tmp_path):
    """Tasks that finish out of order: the later groups wait in FILE.journal, and a
    resume takes them instead of computing them again."""
    work = _workload()

    class Reversed(SerialBackend):
        def run(self, tasks, job, shipment, **kw):
            tasks = list(tasks)
            for done, task in enumerate(reversed(tasks)):
                if done == len(tasks) // 2:
                    raise KeyboardInterrupt
                yield from super().run(iter([task]), job, shipment)

    out = tmp_path / "out.txt"
    with pytest.raises(BatchStopped) as stop:
        _run(work, shipment, Reversed(), path=out)
    assert stop.value.done > 0
    assert b"\n@" in (tmp_path / "out.txt.journal").read_bytes()
    summary, _ = _run(work, shipment, path=out, resume=True)
    assert summary.resumed == stop.value.done
    assert out.read_bytes() == whole


def test_torn_last_group_is_dropped_and_written_again(shipment, whole, tmp_path, caplog):
    work = _workload()
    out = tmp_path / "out.txt"
    cut = whole.index(b"# send+more") + 30   # mid-group
    out.write_bytes(whole[:cut])
    _summary, _ = _run(work, shipment, path=out, resume=True)
    assert out.read_bytes() == whole
    assert "incomplete group" in caplog.text


def test_output_file_rules(shipment, tmp_path):
    work = _workload(LEFT[:2], RIGHT[:2], "+")
    out = tmp_path / "out.txt"
    _run(work, shipment, path=out)
    with pytest.raises(BatchError, match="exists: add --resume"):
        _run(work, shipment, path=out)
    other = _workload(LEFT[:2], RIGHT[:2], "-")
    with pytest.raises(BatchError, match="holds another batch"):
        _run(other, shipment, path=out, resume=True)
    (tmp_path / "notes.txt").write_text("my notes\n", encoding="utf-8")
    with pytest.raises(BatchError, match="not a cryptocomp batch output"):
        _run(work, shipment, path=tmp_path / "notes.txt", resume=True)
    edited = out.read_text(encoding="utf-8").replace("# dog+cat", "# dog+dog")
    out.write_text(edited, encoding="utf-8")
    with pytest.raises(BatchError, match="is not the group of 'dog\\+cat'"):
        _run(work, shipment, path=out, resume=True)
    with pytest.raises(BatchError, match="directory"):
        _run(work, shipment, path=tmp_path, resume=True)


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_damaged_output_file_is_refused_or_finished_identically(shipment, tmp_path, data):
    """An interrupted batch's output file, then damaged (cut, bytes changed, spans dropped
    or doubled), and maybe its journal cut too: --resume either refuses it with one line,
    or finishes it into the uninterrupted run's bytes."""
    work = _workload(LEFT[:2], RIGHT[:3], "+-", json=data.draw(st.booleans()))
    whole_path = tmp_path / f"whole{int(work.json)}.txt"
    if not whole_path.exists():
        _run(work, shipment, path=whole_path)
    whole = whole_path.read_bytes()
    out, journal = tmp_path / "out.txt", tmp_path / "out.txt.journal"
    for path in (out, journal):
        if path.exists():
            path.unlink()
    with contextlib.suppress(BatchStopped):
        _run(work, shipment, path=out, stop_after=data.draw(st.integers(0, 4)))
    for path in (out, journal) if journal.exists() else (out,):
        damaged = damage(bytearray(path.read_bytes()), data)
        path.write_bytes(bytes(damaged))
    try:
        _run(work, shipment, path=out, resume=True)
    except BatchError as exc:
        assert "\n" not in str(exc)
        return
    assert out.read_bytes() == whole
    assert not journal.exists()


def test_killed_pool_worker_stops_the_batch_and_loses_nothing(shipment, whole, tmp_path):
    work = _workload()
    out = tmp_path / "out.txt"
    killed = []

    class KillOnce(ProcessPool):
        def run(self, tasks, job, shipment, **kw):
            for i, item in enumerate(super().run(tasks, job, shipment, **kw)):
                yield item
                if i == 1 and not killed:
                    pid = next(iter(self._executor._processes))
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)

    with pytest.raises(BatchStopped, match="worker process died"), KillOnce(2) as pool:
        _run(work, shipment, pool, path=out)
    assert killed
    assert whole.startswith(out.read_bytes())
    _run(work, shipment, path=out, resume=True)
    assert out.read_bytes() == whole


# -- the index shipment -------------------------------------------------------------------------

def test_shipped_bytes_are_checked_on_arrival(index_path, shipment):
    from cryptocomp.index.store import read_header

    data = index_path.read_bytes()
    assert index_checksum(index_path) == shipment.checksum
    index = read_index_bytes(data, checksum=shipment.checksum)
    index._check()
    assert len(index) == len(_counts()) and index.words == worker_index(shipment).words
    with pytest.raises(CryptocompError, match="checksum differs"):
        read_index_bytes(data, checksum="00" * 32)
    # a damaged byte in any section is found on arrival, not when the section is first used
    start = read_header(index_path).payload_offset
    for offset in (start + 10, (start + len(data)) // 2, len(data) - 3):
        damaged = bytearray(data)
        damaged[offset] ^= 1
        with pytest.raises(CryptocompError, match="checksum mismatch in section"):
            read_index_bytes(bytes(damaged), checksum=shipment.checksum)
    damaged = bytearray(data)
    damaged[start - 5] ^= 1   # in the header
    with pytest.raises(CryptocompError):
        read_index_bytes(bytes(damaged), checksum=shipment.checksum)
    with pytest.raises(CryptocompError, match="truncated"):
        read_index_bytes(data[:-10])


def test_worker_loads_the_index_once_and_refuses_strangers(index_path, shipment, tmp_path):
    from cryptocomp.batch import shipment as shipment_module

    first = worker_index(shipment)
    assert worker_index(shipment) is first
    stranger = IndexShipment(str(index_path), "ab" * 32, "small", shipment.version)
    with pytest.raises(BatchError, match="checksum differs"):
        worker_index(stranger)
    with pytest.raises(BatchError, match="checksum differs"):
        worker_index(stranger, index_path.read_bytes())
    old = IndexShipment(str(index_path), "cd" * 32, "small", "0.0.1")
    with pytest.raises(BatchError, match=r"the client 0.0.1"):
        worker_index(old)
    missing = IndexShipment(str(tmp_path / "nowhere.ccidx"), "ef" * 32, "small",
                            shipment.version)
    with pytest.raises(BatchError, match="--ship-index bytes"):
        worker_index(missing)
    assert not missing.visible() and shipment.visible()
    assert shipment_module.loaded_indexes() >= 1


# -- bulk fills -----------------------------------------------------------------------------------

def test_square_attempts_are_reproducible_and_resumable(shipment, tmp_path):
    from cryptocomp.crossword.square import square_grid

    params = {"grid": square_grid(3), "engine": "csp", "steps": 200}
    job = AttemptJob(fill_attempt, params)
    work = AttemptsWorkload("square", job, 6, first_seed=3, identity={"n": 3, "steps": 200})
    _run(work, shipment, path=tmp_path / "a.txt")
    with ProcessPool(2) as pool:
        _run(work, shipment, pool, path=tmp_path / "b.txt")
    a = (tmp_path / "a.txt").read_bytes()
    assert a == (tmp_path / "b.txt").read_bytes()
    text = a.decode()
    assert [line.split(":")[0] for line in text.splitlines() if line.startswith("# seed")] == \
        [f"# seed {s}" for s in range(3, 9)]
    assert "filled" in text
    with pytest.raises(BatchStopped):
        _run(work, shipment, path=tmp_path / "c.txt", stop_after=2)
    _run(work, shipment, path=tmp_path / "c.txt", resume=True)
    assert (tmp_path / "c.txt").read_bytes() == a


# -- the command line -------------------------------------------------------------------------

@pytest.fixture
def lists(tmp_path):
    return make_lists(tmp_path)


def test_cli_output_resume_and_errors(lists, tmp_path, capsys):
    from cryptocomp.cli import main

    out = tmp_path / "out.txt"
    assert main(lists + ["--jobs", "1", "--output", str(out)]) == 0
    first = out.read_bytes()
    assert capsys.readouterr().out == ""
    assert main(lists + ["--jobs", "1", "--output", str(out)]) == 2
    assert "exists: add --resume" in capsys.readouterr().err
    assert main(lists + ["--jobs", "1", "--output", str(out), "--resume"]) == 0
    assert out.read_bytes() == first
    assert "18 found done" in capsys.readouterr().err
    for extra, message in [(["--resume"], "--resume needs --output"),
                           (["--cluster", "remote:2"], "--cluster takes local:N"),
                           (["--cluster", "local:2", "--scheduler", "x"], "not both"),
                           (["--jobs", "0"], "--jobs must be at least 1"),
                           (["--ops", "+%"], "--ops takes operators")]:
        assert main(lists + extra) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err
    assert main(["compose", "send+more", "--output", str(out)]) == 2
    assert "go with --batch" in capsys.readouterr().err


def test_cli_unreachable_scheduler_is_one_line(lists, capsys, monkeypatch):
    pytest.importorskip("distributed")
    import functools

    import cryptocomp.batch as batch_layer  # the CLI takes its backends from the package
    from cryptocomp.cli import main

    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:1")
    # --jobs picks the local pool whatever the environment says
    assert main(lists + ["--jobs", "1"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(batch_layer, "DaskBackend",
                        functools.partial(batch_layer.DaskBackend, connect_timeout=1.0))
    assert main(lists) == 2
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in err
    assert len(err.strip().splitlines()) == 1, err


def test_cli_json_lines(lists, capsys):
    from cryptocomp.cli import main

    assert main(lists + ["--jobs", "1", "--json", "--top", "1"]) == 0
    docs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [d["query"] for d in docs] == [f"{a}{op}{b}" for a in LEFT[:3] for op in "+-"
                                          for b in RIGHT[:3]]
    assert all(len(d["results"]) <= 1 for d in docs)


def test_cli_square_attempts(lists, tmp_path, capsys):
    from cryptocomp.cli import main

    dict_args = lists[-2:]
    argv = ["square", "3", "--attempts", "4", "--seed", "1", "--steps", "300"] + dict_args
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    assert main(argv + ["--jobs", "1", "--output", str(one)]) == 0
    text = one.read_text(encoding="utf-8")
    assert text.startswith("# cryptocomp batch 1: square, 4 attempts, id ")
    assert [line.split(":")[0] for line in text.splitlines() if line.startswith("# seed")] == \
        ["# seed 1", "# seed 2", "# seed 3", "# seed 4"]
    assert main(argv + ["--jobs", "2", "--output", str(two)]) == 0
    assert two.read_bytes() == one.read_bytes()
    assert main(["square", "3", "--attempts", "2", "--svg", "x.svg"] + dict_args) == 2
    assert "--svg" in capsys.readouterr().err
