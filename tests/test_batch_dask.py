"""The batch layer on a real Dask cluster: LocalClusters of worker processes on 127.0.0.1,
and a scheduler and a worker started as separate processes.  Oracles: single compose
calls and the local pool's output file, byte for byte."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from test_batch import LEFT, RIGHT, _expected, _groups, _run, _workload, make_index_file, make_lists  # noqa: E402

from cryptocomp.batch import (  # noqa: E402
    DaskBackend,
    IndexShipment,
    ProcessPool,
)
from cryptocomp.batch.shipment import worker_index  # noqa: E402
from cryptocomp.errors import BatchStopped  # noqa: E402


@pytest.fixture(scope="module")
def shipment(tmp_path_factory) -> IndexShipment:
    return IndexShipment.of_file(make_index_file(tmp_path_factory.mktemp("idx")), "small")


@pytest.fixture
def lists(tmp_path) -> list[str]:
    return make_lists(tmp_path)


def _local_cluster(n: int = 2):
    import dask

    with dask.config.set({"distributed.worker.daemon": False}):
        return distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                        host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                        silence_logs=logging.CRITICAL)


@pytest.fixture(scope="module")
def cluster():
    cluster = _local_cluster()
    yield cluster
    cluster.close()


@pytest.mark.slow
def test_local_cluster_output_equals_pool_and_single_calls(cluster, shipment, tmp_path):
    work = _workload()
    with DaskBackend(address=cluster.scheduler_address) as dask_backend:
        summary, _ = _run(work, shipment, dask_backend, path=tmp_path / "dask.txt")
        assert dask_backend.shipped == "path"   # one machine: workers read the file
    data = (tmp_path / "dask.txt").read_bytes()
    assert _groups(data) == _expected(work, worker_index(shipment))
    # a bad query is reported in the output and the batch completes
    assert b"# abcdefghij+dog: error: more than 10 distinct letters" in data
    assert summary.computed == work.total
    assert all(not w.endswith(f":{os.getpid()}") for w in summary.workers)
    with ProcessPool(2) as pool:
        _run(work, shipment, pool, path=tmp_path / "pool.txt")
    assert (tmp_path / "pool.txt").read_bytes() == data


def test_index_bytes_are_scattered_once_and_checked(cluster, shipment, tmp_path):
    from cryptocomp.batch import Journal, batch_id, run_batch
    from cryptocomp.batch.shipment import loaded_indexes

    work = _workload(json=True)
    seen = []
    with DaskBackend(address=cluster.scheduler_address, ship="bytes") as backend:
        client = backend._client

        def look(progress):
            if progress.done and not seen:
                # every worker holds the bytes once, whatever the number of tasks
                seen.append(client.run(lambda dask_worker: sum(
                    1 for k in dask_worker.data if str(k).startswith("bytes-"))))
                seen.append(client.run(loaded_indexes))

        run_batch(work, shipment, backend, Journal(tmp_path / "bytes.jsonl"),
                  ident=batch_id(work, shipment.checksum), on_progress=look)
        assert backend.shipped == "bytes"
    held, loaded = seen
    assert len(held) == 2 and set(held.values()) == {1}
    assert set(loaded.values()) <= {0, 1} and 1 in loaded.values()
    _run(work, shipment, path=tmp_path / "serial.jsonl")
    assert (tmp_path / "bytes.jsonl").read_bytes() == (tmp_path / "serial.jsonl").read_bytes()


def test_resume_after_interruption_gives_an_identical_file(cluster, shipment, tmp_path):
    work = _workload()
    _run(work, shipment, path=tmp_path / "whole.txt")
    out = tmp_path / "out.txt"
    with DaskBackend(address=cluster.scheduler_address) as backend:
        with pytest.raises(BatchStopped) as stop:
            _run(work, shipment, backend, path=out, stop_after=1)
        assert stop.value.interrupted and 0 < stop.value.done < work.total
        summary, _ = _run(work, shipment, backend, path=out, resume=True)
    assert summary.resumed == stop.value.done
    assert out.read_bytes() == (tmp_path / "whole.txt").read_bytes()


@pytest.mark.slow
def test_killed_worker_loses_no_finished_result(shipment, tmp_path):
    work = _workload(LEFT * 2, RIGHT, "+-*")
    _run(work, shipment, path=tmp_path / "whole.txt")
    out = tmp_path / "out.txt"
    cluster = _local_cluster()
    killed: list[int] = []
    try:
        with DaskBackend(address=cluster.scheduler_address) as backend:
            pids = list(backend._client.run(os.getpid).values())

            def kill_one(progress):
                if progress.done > 0 and not killed:
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(pids[0])

            from cryptocomp.batch import Journal, batch_id, run_batch

            # stopping is allowed; losing finished groups is not
            with contextlib.suppress(BatchStopped):
                run_batch(work, shipment, backend, Journal(out),
                          ident=batch_id(work, shipment.checksum), on_progress=kill_one)
    finally:
        cluster.close()
    assert killed
    whole = (tmp_path / "whole.txt").read_bytes()
    assert whole.startswith(out.read_bytes())
    _run(work, shipment, path=out, resume=True)
    assert out.read_bytes() == whole


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dask(*args) -> subprocess.Popen:
    """A `dask ...` command of this environment, in a session of its own."""
    exe = Path(sys.executable).with_name("dask")
    return subprocess.Popen([str(exe), *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


@pytest.mark.slow
def test_lost_scheduler_stops_the_batch_with_a_resume_line(lists, tmp_path, capsys):
    from cryptocomp.cli import main

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _dask("scheduler", "--host", "127.0.0.1", "--port", str(port),
                      "--no-dashboard")
    worker = _dask("worker", address, "--nthreads", "1", "--nworkers", "1", "--host",
                   "127.0.0.1", "--no-dashboard")
    out = tmp_path / "out.txt"
    try:
        deadline = time.monotonic() + 60
        while True:   # wait for the scheduler to listen
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "dask scheduler did not start"
                time.sleep(0.2)
        import cryptocomp.batch as batch_layer  # the CLI takes run_batch from the package

        real = batch_layer.run_batch

        def run_and_lose_the_scheduler(*args, on_progress=None, **kw):
            def progress(p):
                on_progress(p)
                if p.done > p.skipped and scheduler.poll() is None:
                    scheduler.kill()
                    scheduler.wait()
            return real(*args, on_progress=progress, **kw)

        batch_layer.run_batch = run_and_lose_the_scheduler
        try:
            status = main(lists + ["--scheduler", address, "--output", str(out)])
        finally:
            batch_layer.run_batch = real
        err = capsys.readouterr().err.strip().splitlines()
        assert status == 3
        assert f"lost the Dask scheduler at {address}" in err[-1], err
        assert "run the same command with --resume" in err[-1]
    finally:
        for p in (worker, scheduler):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
    assert main(lists + ["--jobs", "1", "--output", str(out), "--resume"]) == 0
    whole = tmp_path / "whole.txt"
    assert main(lists + ["--jobs", "1", "--output", str(whole)]) == 0
    assert out.read_bytes() == whole.read_bytes()


@pytest.mark.slow
def test_cli_cluster_local_equals_the_pool(lists, tmp_path):
    from cryptocomp.cli import main

    a, b = tmp_path / "cluster.txt", tmp_path / "pool.txt"
    assert main(lists + ["--cluster", "local:2", "--output", str(a)]) == 0
    assert main(lists + ["--jobs", "2", "--output", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
