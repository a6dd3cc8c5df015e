#!/usr/bin/env python3
"""Benchmark the studio (``cryptocomp serve``, issue 29) against a real uvicorn on 127.0.0.1.

Figures:

* latency p50 / p99 of ``/api/words`` and ``/api/compose`` under 1, 10 and 50 concurrent
  clients (each a thread with its own keep-alive connection, requests back to back);
  targets: words p99 <= 20 ms at 10 clients, compose at 1 client within 10 % of the
  in-process ``compose()`` (the same query, the index loaded in this process);
* a fill job's overhead against the CLI: ``POST /api/fill`` of american15 then polling to
  done, against ``cryptocomp fill american15`` (the same seed), wall clock each, and the
  search's own seconds the result reports;
* the cancellation delay: a fill that runs long, ``DELETE /api/jobs/ID``, until the job
  says cancelled (the delete answers once it is);
* the server's memory: its resident set (RSS) after loading and after the queries, its own
  peak (VmHWM), and the peak of the server and its worker processes together (their RSS
  summed, sampled every 0.1 s while fills run).

Each figure's line ends with the 1-minute load average when it was taken.

    nice python scripts/bench_serve.py                 # en; 200 requests a client count
    nice python scripts/bench_serve.py --requests 50   # quicker
    nice python scripts/bench_serve.py --only words --fresh   # no answer from the cache

The server is started as ``python -m cryptocomp serve --port P`` with this environment
(``CRYPTOCOMP_HOME`` as set: the index is built there on first use).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import httpx
from benchkit import GRID, ROOT

WORDS = ["?oney", "c?t", "s??d", "*tion", "?r??a", "con*", "m?n?y", "??e", "p*t", "b?g"]
COMPOSE = "send+more"
POLL_EVERY = 0.1  # seconds between two looks at a fill job


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _status_mb(pid: int, field: str) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _descendants(pid: int) -> list[int]:
    out = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return out
    for task in tasks:
        try:
            kids = [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
        for kid in kids:
            out += [kid, *_descendants(kid)]
    return out


def _tree_rss_mb(pid: int) -> float:
    """The RSS of the server and every process under it, summed (shared pages counted in
    each: an upper bound of what they hold together)."""
    return sum(_status_mb(p, "VmRSS") for p in [pid, *_descendants(pid)])


class TreePeak:
    """The largest summed RSS of a process tree, sampled in a thread until stopped."""

    def __init__(self, pid: int):
        self.pid, self.peak, self._stop = pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, _tree_rss_mb(self.pid))
            time.sleep(0.1)

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return self.peak


def _load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def start_server(lang: str) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cryptocomp", "serve", "--lang", lang,
                             "--port", str(port)], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 600
    while time.monotonic() < end:
        try:
            if httpx.get(f"{base}/api/info", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def _client_run(base: str, path: str, queries: list[str], n: int, out: list[float],
                barrier: threading.Barrier) -> None:
    # http.client, not httpx: the clients share this process (and its GIL) and the machine's
    # two cores with the server, and the lighter client takes less of both from it
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    conn.request("GET", "/api/info")  # the connection is open before the clock runs
    conn.getresponse().read()
    barrier.wait()
    for k in range(n):
        url = f"{path}?{urlencode({'q': queries[k % len(queries)], 'top': 20})}"
        t = time.perf_counter()
        conn.request("GET", url)
        r = conn.getresponse()
        body = r.read()
        out.append(time.perf_counter() - t)
        assert r.status == 200, body
    conn.close()


async def _raw_client(host: str, port: int, path: str, queries: list[str], n: int,
                      out: list[float], start: asyncio.Event) -> None:
    # raw HTTP/1.1 over one keep-alive socket, read by content-length: the least a client
    # can cost, and no thread waiting for the GIL after its answer arrived
    reader, writer = await asyncio.open_connection(host, port)
    await start.wait()
    for k in range(n):
        url = f"{path}?{urlencode({'q': queries[k % len(queries)], 'top': 20})}"
        t = time.perf_counter()
        writer.write(f"GET {url} HTTP/1.1\r\nhost: {host}\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        await reader.readexactly(length)
        out.append(time.perf_counter() - t)
        assert head.startswith(b"HTTP/1.1 200"), head
    writer.close()


async def _raw_run(base: str, path: str, queries: list[str], clients: int, each: int,
                   times: list[float]) -> float:
    host, port = base.removeprefix("http://").split(":")
    start = asyncio.Event()
    tasks = [asyncio.create_task(_raw_client(host, int(port), path, queries, each, times,
                                             start)) for _ in range(clients)]
    await asyncio.sleep(0.2)  # the connections open before the clock runs
    t = time.perf_counter()
    start.set()
    await asyncio.gather(*tasks)
    return time.perf_counter() - t


def fresh_templates(count: int, seed: int) -> list[str]:
    """``count`` distinct word templates a user might type (letters, ``?``, now and then a
    ``*``), none of them asked before in a run: the server's answer cache never has them."""
    rng = random.Random(seed)
    letters = "etaoinshrdlcumwfgypbvk"
    out: dict[str, None] = {}
    while len(out) < count:
        n = rng.randint(3, 8)
        q = "".join(rng.choice(letters) if rng.random() < 0.45 else "?" for _ in range(n))
        if rng.random() < 0.15:
            q = q[: rng.randint(1, 3)] + "*"
        out.setdefault(q, None)
    return list(out)


def latency(base: str, path: str, queries: list[str], clients: int, total: int,
            client: str = "threads", warm: bool = True) -> tuple[float, float, float]:
    """p50 and p99 (ms) of ``total`` requests spread over ``clients``, and requests/s;
    ``client``: threads (http.client, a thread a client) or raw (asyncio sockets);
    ``warm``: each query asked once before the clock runs (the answers cached)."""
    for q in queries if warm else ():  # the figures are of a warm server
        httpx.get(f"{base}{path}", params={"q": q, "top": 20}, timeout=60)
    if client == "raw":
        raw: list[float] = []
        wall = asyncio.run(_raw_run(base, path, queries, clients, max(1, total // clients),
                                    raw))
        qs = statistics.quantiles(raw, n=100, method="inclusive")
        return qs[49] * 1000, qs[98] * 1000, len(raw) / wall
    times: list[float] = []
    barrier = threading.Barrier(clients + 1)
    each = max(1, total // clients)
    threads = [threading.Thread(target=_client_run,
                                args=(base, path, queries, each, times, barrier))
               for _ in range(clients)]
    for t in threads:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    qs = statistics.quantiles(times, n=100, method="inclusive")
    return qs[49] * 1000, qs[98] * 1000, len(times) / wall


def in_process_compose(lang: str, rounds: int) -> float:
    from cryptocomp.cryptarithm.compose import compose
    from cryptocomp.index.classes import DEFAULTS
    from cryptocomp.index.store import load_index
    from cryptocomp.index.wordfilter import WordFilter

    index = load_index(lang)
    words = WordFilter(classes=DEFAULTS["compose"])
    compose(COMPOSE, index, words)  # warm: the encoded words cached, as in the server
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        compose(COMPOSE, index, words)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def _grid_rows() -> list[str]:
    from cryptocomp.crossword import format_text, read_grid

    return format_text(read_grid(GRID)).splitlines()


def fill_overhead(base: str, lang: str, seed: int, rounds: int) -> dict[str, float]:
    rows = _grid_rows()
    api, api_search, cli, cli_search = [], [], [], []
    for _ in range(rounds):
        t = time.perf_counter()
        job = httpx.post(f"{base}/api/fill", json={"grid": rows, "options": {
            "seed": seed, "time": 120}}).json()["job"]
        with httpx.Client(base_url=base) as poll:
            # one connection, a look every 0.1 s as the page's event stream does: a tighter
            # loop of new connections took CPU from the job's own process on two cores
            while True:
                doc = poll.get(f"/api/jobs/{job}").json()
                if doc["status"] in ("done", "failed", "cancelled"):
                    break
                time.sleep(POLL_EVERY)
        api.append(time.perf_counter() - t)
        api_search.append(doc["result"]["seconds"])
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "cryptocomp", "fill", str(GRID), "--lang",
                              lang, "--seed", str(seed), "--time", "120", "--json"],
                             capture_output=True, text=True, cwd=ROOT)
        cli.append(time.perf_counter() - t)
        cli_search.append(json.loads(out.stdout)["seconds"])
    return {"api_wall": statistics.median(api), "api_search": statistics.median(api_search),
            "cli_wall": statistics.median(cli), "cli_search": statistics.median(cli_search),
            "status": doc["result"]["status"]}


def cancel_delay(base: str, rounds: int) -> list[float]:
    """The seconds from DELETE to a cancelled job, each round."""
    rows = ["......."] * 7  # an open 7x7 (a double word square): the search runs long
    delays = []
    for _ in range(rounds):
        job = httpx.post(f"{base}/api/fill", json={"grid": rows, "options": {
            "time": 120}}).json()["job"]
        time.sleep(2.0)
        t = time.perf_counter()
        doc = httpx.delete(f"{base}/api/jobs/{job}", timeout=30).json()
        while doc["status"] not in ("done", "failed", "cancelled"):
            doc = httpx.get(f"{base}/api/jobs/{job}").json()
        if doc["status"] != "cancelled":
            raise SystemExit(f"the fill to cancel ended {doc['status']} first: {doc}")
        delays.append(time.perf_counter() - t)
    return delays


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lang", default="en")
    p.add_argument("--requests", type=int, default=200, help="requests a client count")
    p.add_argument("--rounds", type=int, default=3, help="rounds of the fill and cancel figures")
    p.add_argument("--only", choices=("words", "compose"), default=None,
                   help="only the latency of one endpoint")
    p.add_argument("--fresh", action="store_true",
                   help="words: every request a template not asked before (no cached answer)")
    args = p.parse_args()
    print(f"{_load()} (1 min)  cores: {os.cpu_count()}")
    proc, base = start_server(args.lang)
    try:
        print(f"server {base}, pid {proc.pid}, RSS after loading {_rss_mb(proc.pid):.0f} MB  "
              f"{_load()}")
        for path, queries in (("/api/words", WORDS), ("/api/compose", [COMPOSE])):
            if args.only and not path.endswith(args.only):
                continue
            for clients in (1, 10, 50):
                total = args.requests if path == "/api/words" else max(clients * 2,
                                                                       args.requests // 4)
                for client in ("threads", "raw"):
                    fresh = args.fresh and path == "/api/words"
                    if fresh:   # a seed a run: no template comes back from an earlier run
                        queries = fresh_templates(total, seed=clients * 2 + (client == "raw"))
                    cpu = time.process_time()
                    p50, p99, rate = latency(base, path, queries, clients, total, client,
                                             warm=not fresh)
                    cpu = (time.process_time() - cpu) / max(1, total) * 1000
                    print(f"{path:13}{' fresh' if fresh else ''} {clients:3} clients "
                          f"({client:7}): p50 {p50:7.1f} ms  "
                          f"p99 {p99:7.1f} ms  {rate:6.0f} req/s  (client CPU {cpu:.2f} ms "
                          f"a request)  {_load()}", flush=True)
        if args.only:
            return 0
        here = in_process_compose(args.lang, 10)
        p50, _, _ = latency(base, "/api/compose", [COMPOSE], 1, 20)
        print(f"compose {COMPOSE}: in-process median {here:.1f} ms, via the server p50 "
              f"{p50:.1f} ms ({(p50 / here - 1) * 100:+.1f} %)  {_load()}", flush=True)
        print(f"RSS after the queries {_rss_mb(proc.pid):.0f} MB  {_load()}")
        peak = TreePeak(proc.pid)
        fill = fill_overhead(base, args.lang, 1, args.rounds)
        print(f"fill american15 --seed 1 ({fill['status']}): API job {fill['api_wall']:.2f} s "
              f"wall (search {fill['api_search']:.2f} s, overhead "
              f"{fill['api_wall'] - fill['api_search']:.2f} s), CLI {fill['cli_wall']:.2f} s "
              f"wall (search {fill['cli_search']:.2f} s, overhead "
              f"{fill['cli_wall'] - fill['cli_search']:.2f} s: a process, the index opened)  "
              f"{_load()}", flush=True)
        delays = cancel_delay(base, args.rounds)
        print(f"cancel: DELETE to cancelled, median {statistics.median(delays) * 1000:.0f} ms, "
              f"max {max(delays) * 1000:.0f} ms of {len(delays)}  {_load()}")
        print(f"memory: server RSS {_rss_mb(proc.pid):.0f} MB, its peak (VmHWM) "
              f"{_status_mb(proc.pid, 'VmHWM'):.0f} MB; server and workers together, peak "
              f"{peak.stop():.0f} MB (RSS summed)  {_load()}")
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"{_load()} (1 min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
