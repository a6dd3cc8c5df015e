"""Dask scheduler addresses (issue 31): a malformed address is refused at once, and a
peer that is not a Dask scheduler (an HTTP server, a server sending a huge frame
length, one that greets and then stalls) is refused within the connect timeout with
one line, all on 127.0.0.1; a real scheduler passes the probe without a word in its log."""

from __future__ import annotations

import http.server
import logging
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from test_batch import make_lists

from cryptocomp.batch import DaskBackend
from cryptocomp.batch.address import probe, scheduler_address
from cryptocomp.cli import main
from cryptocomp.errors import BatchError

# distributed 2026.8's greeting: one frame holding {compression: None, python: (3, 11, 7),
# pickle-protocol: 5} in msgpack
_PAYLOAD = b"\x83\xabcompression\xc0\xa6python\x93\x03\x0b\x07\xafpickle-protocol\x05"
GREETING = struct.pack("Q", 16 + len(_PAYLOAD)) + struct.pack("QQ", 1, len(_PAYLOAD)) + _PAYLOAD


def _bounded(seconds: float, fn: Callable[[], object]) -> object:
    """``fn()``'s result or exception, failing the test if it takes over ``seconds`` (the
    thread is left behind: before the fix, these calls never returned)."""
    box: list = []

    def run() -> None:
        try:
            box.append(("ok", fn()))
        except BaseException as exc:
            box.append(("error", exc))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert box, f"still waiting after {seconds} s"
    kind, value = box[0]
    if kind == "error":
        raise value
    return value


@pytest.fixture
def peer() -> Iterator[Callable[[Callable[[socket.socket, int], None]], str]]:
    """``peer(serve)``: a TCP server on 127.0.0.1 calling ``serve(conn, n)`` for its n-th
    connection (from 0); its address."""
    servers: list[socket.socket] = []
    conns: list[socket.socket] = []

    def start(serve: Callable[[socket.socket, int], None]) -> str:
        server = socket.create_server(("127.0.0.1", 0))
        servers.append(server)

        def accept() -> None:
            n = 0
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:
                    return
                conns.append(conn)
                threading.Thread(target=serve, args=(conn, n), daemon=True).start()
                n += 1

        threading.Thread(target=accept, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield start
    for s in servers + conns:
        s.close()


def _hold(conn: socket.socket) -> None:
    """Read whatever comes and never answer."""
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass


def _connect(address: str, timeout: float = 0.5) -> None:
    with DaskBackend(address=address, connect_timeout=timeout, worker_timeout=0.5):
        pass


# -- the address's form ------------------------------------------------------------------------

@pytest.mark.parametrize("text,normal", [
    ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"), ("10.0.0.5:8786", "tcp://10.0.0.5:8786"),
    ("TCP://sched.example.org:8786", "tcp://sched.example.org:8786"),
    ("[::1]:8786", "tcp://[::1]:8786"), ("tls://dask_sched:8786", "tls://dask_sched:8786"),
    (" host:1\n", "tcp://host:1"),
])
def test_well_formed_addresses_are_taken_as_distributed_writes_them(text, normal):
    assert scheduler_address(text) == normal


@pytest.mark.parametrize("text,why", [
    ("garbage", "has no port"), ("tcp://host", "has no port"), ("host:", "no valid port"),
    ("host:0", "no valid port"), ("host:65536", "no valid port"), ("host:80/x", "valid port"),
    ("::1:8786", "IPv6 host outside brackets"), ("[::1]", "has no port"),
    ("[::1:8786", "does not close"), ("[nope]:8786", "no valid IPv6"),
    ("inproc://10.0.0.5/1/2", "inproc"), ("ucx://host:1", "scheme 'ucx'"),
    ("a b:1", "no valid host"), ("-host:1", "no valid host"), ("", "has no port"),
])
def test_malformed_addresses_are_refused_saying_why(text, why):
    with pytest.raises(BatchError, match=why) as err:
        scheduler_address(text)
    assert "give tcp://HOST:PORT" in str(err.value) and "\n" not in str(err.value)


def test_cli_refuses_a_malformed_scheduler_at_once(tmp_path, capsys, monkeypatch):
    argv = make_lists(tmp_path)
    for extra, env, name in ((["--scheduler", "garbage"], None, "--scheduler"),
                             ([], "garbage", "$DASK_SCHEDULER_ADDRESS")):
        if env:
            monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", env)
        started = time.perf_counter()
        assert main([*argv, *extra]) == 2
        assert time.perf_counter() - started < 2     # was a TimeoutError traceback at 20 s
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"cryptocomp: error: {name} 'garbage' "
                                                   f"has no port"), err


# -- peers that are not Dask schedulers --------------------------------------------------------

def test_an_http_server_is_refused_within_the_timeout():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        started = time.perf_counter()
        with pytest.raises(BatchError, match=r"not a Dask scheduler .nothing came in 0.5 s"):
            _bounded(10, lambda: _connect(f"127.0.0.1:{server.server_port}"))
        assert time.perf_counter() - started < 3
    finally:
        server.shutdown()
        server.server_close()


def test_a_huge_frame_length_is_refused_without_reading_it(peer):
    def serve(conn: socket.socket, n: int) -> None:
        conn.sendall(struct.pack("Q", 2**62))    # 4 exabytes, say
        _hold(conn)

    address = peer(serve)
    with pytest.raises(BatchError, match="claims 4,611,686,018,427,387,904 bytes"):
        _bounded(10, lambda: _connect(address))


def test_a_peer_speaking_http_first_is_named(peer):
    address = peer(lambda conn, n: (conn.sendall(b"HTTP/1.0 400 Bad request\r\n\r\n"),
                                    _hold(conn)))
    with pytest.raises(BatchError, match="speaks HTTP"):
        _bounded(10, lambda: probe(address, 0.5))


@pytest.mark.parametrize("greeting,why", [
    (GREETING[:20], "stopped short: 12 of 58 bytes"),
    (struct.pack("Q", 24) + struct.pack("QQ", 1, 99) + b"x" * 8, "not a Dask handshake"),
    (b"", "nothing came in 0.5 s"),
])
def test_a_broken_greeting_is_refused(peer, greeting, why):
    address = peer(lambda conn, n: (conn.sendall(greeting), _hold(conn)))
    with pytest.raises(BatchError, match=why):
        _bounded(10, lambda: probe(address, 0.5))


def test_a_peer_closing_at_once_and_a_closed_port(peer):
    address = peer(lambda conn, n: conn.close())
    with pytest.raises(BatchError, match="closed the connection without a Dask greeting"):
        _bounded(10, lambda: probe(address, 0.5))
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]
    with pytest.raises(BatchError, match="cannot reach the Dask scheduler"):
        _bounded(10, lambda: _connect(f"127.0.0.1:{port}"))


@pytest.mark.slow
def test_a_peer_that_greets_once_then_stalls_is_given_up(peer):
    pytest.importorskip("distributed")

    def serve(conn: socket.socket, n: int) -> None:
        if n == 0:
            conn.sendall(GREETING)   # the probe's connection
        _hold(conn)                  # distributed's: its handshake never comes

    address = peer(serve)
    started = time.perf_counter()
    with pytest.raises(BatchError, match=r"no answer in 1.5 s"):
        _bounded(15, lambda: _connect(address))
    assert time.perf_counter() - started < 6


def test_a_real_scheduler_passes_the_probe_quietly(caplog):
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp",
                                       host="127.0.0.1",
                                       dashboard_address="127.0.0.1:0")
    try:
        with caplog.at_level(logging.DEBUG, logger="distributed"):
            _bounded(10, lambda: probe(cluster.scheduler_address, 5))
            time.sleep(0.2)     # the scheduler's side of the closed connection
        assert "handshake" not in caplog.text, caplog.text
        with pytest.raises(BatchError, match="no Dask worker joined"):
            _bounded(20, lambda: _connect(cluster.scheduler_address, 5))
    finally:
        cluster.close()
