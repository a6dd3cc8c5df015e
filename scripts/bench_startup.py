#!/usr/bin/env python
"""Time from launching ``cryptocomp`` to its first prompt, with the index already built.

Issue 4's figure: prompt ready on the Russian index in at most 1.5 s.  Each run
spawns the real command in a pseudo-terminal (stdlib ``pty``, 120x40), waits
until the prompt text (``ru>``) appears on the screen, then sends Ctrl-D.  The
history goes to a temporary state directory so the user's history is untouched.
Prints every run, the median, the median CPU time of a run (steadier than wall
time when other work shares the machine) and the load average.

    python scripts/bench_startup.py [--lang ru] [--runs 7]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

TARGET = 1.5  # seconds, from issue 4


def time_to_prompt(argv: list[str], marker: bytes, env: dict,
                   timeout: float = 30.0) -> tuple[float, float]:
    """Seconds from spawning ``argv`` on a pty until ``marker`` appears in its output, and
    the CPU seconds (user + system) the whole run took, prompt to exit included."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                            close_fds=True, start_new_session=True)
    os.close(slave)
    seen = b""
    elapsed = None
    try:
        while time.perf_counter() - start < timeout:
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            seen += chunk
            if b"\x1b[6n" in chunk:  # prompt_toolkit asks where the cursor is: answer it
                os.write(master, b"\x1b[1;1R")
            if marker in seen:
                elapsed = time.perf_counter() - start
                break
        if elapsed is None:
            raise RuntimeError(f"no prompt {marker!r} within {timeout} s; output:\n"
                               + seen.decode("utf-8", "replace")[-2000:])
        os.write(master, b"\x04")  # Ctrl-D: leave
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return elapsed, usage.ru_utime + usage.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", default="ru")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as state:
        env = dict(os.environ, XDG_STATE_HOME=state, TERM="xterm-256color", COLUMNS="120",
                   LINES="40")
        argv = [sys.executable, "-m", "cryptocomp", "--lang", args.lang]
        marker = f"{args.lang}>".encode()  # the space after it is a cursor move, not a character
        time_to_prompt(argv, marker, env)  # warm-up: page cache, index built if missing
        runs = [time_to_prompt(argv, marker, env) for _ in range(args.runs)]
    times, cpu = [t for t, _ in runs], [c for _, c in runs]
    med = statistics.median(times)
    print(f"command: {' '.join(argv)}")
    print("launch-to-prompt runs (s): " + " ".join(f"{t:.3f}" for t in times))
    print(f"median launch-to-prompt: {med:.3f} s (target <= {TARGET} s: "
          f"{'met' if med <= TARGET else 'NOT met'})")
    # CPU time varies less than wall time on a shared machine: a steadier comparison
    print(f"median CPU of a whole run (user+sys, to the prompt and out): "
          f"{statistics.median(cpu):.3f} s; load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
