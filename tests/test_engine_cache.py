"""Where the fill engine's machine code is cached, and when its compiling is announced: a
read-only install with a read-only home died at import ("cannot cache function 'clock': no
locator available"), and ``cryptocomp --help`` announced a compilation it never made while
the real one was silent.

Being root here, permission bits prove nothing: the read-only places are made unwritable
for anyone, a ``__pycache__`` that is a file and a home below a file (no directory can be
made there, not even by root)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cryptocomp

PACKAGE = Path(cryptocomp.__file__).resolve().parent
# a 3x3 double word square: rows cab, are, ton; columns cat, aro, ben
WORDS = "cab 9\nare 8\nton 7\ncat 6\naro 5\nben 4\n"


def _install(tmp_path: Path, *, read_only: bool) -> Path:
    """A fresh copy of the package (no cached code) to put on PYTHONPATH; ``read_only``:
    no ``__pycache__`` can be made in it (each is a file)."""
    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "cryptocomp", ignore=shutil.ignore_patterns("__pycache__"))
    if read_only:
        for d in [site / "cryptocomp", *(site / "cryptocomp").rglob("*")]:
            if d.is_dir():
                (d / "__pycache__").write_text("not a directory")
    return site


def _env(tmp_path: Path, site: Path, home: Path | None = None) -> dict:
    """The environment of a user whose home cannot be written (it lies below a file)."""
    wall = tmp_path / "a-file"
    wall.write_text("")
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "CRYPTOCOMP_HOME", "NUMBA_DISABLE_JIT")}
    env.update(PYTHONPATH=str(site), HOME=str(wall / "home"), XDG_CACHE_HOME=str(wall / "cache"),
               PYTHONDONTWRITEBYTECODE="1")
    if home is not None:
        env["CRYPTOCOMP_HOME"] = str(home)
    return env


def _run(env: dict, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=900)


_PROBE = ("from cryptocomp.crossword import csp, jitcache\n"
          "print(jitcache.CACHED, jitcache.cache_dir(csp.run))\n")


def test_a_read_only_install_and_home_import_the_engine_uncached(tmp_path):
    """numba chose a cache place at import and, finding none writable, raised there."""
    site = _install(tmp_path, read_only=True)
    proc = _run(_env(tmp_path, site), "-c", _PROBE, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["False", "None"]
    assert proc.stderr == ""


def test_a_read_only_install_caches_in_the_data_home(tmp_path):
    """With CRYPTOCOMP_HOME writable the machine code goes there, not nowhere (numba's own
    fallback is ~/.cache/numba, which is below a file here)."""
    site = _install(tmp_path, read_only=True)
    home = tmp_path / "cc-home"
    # load_engine()'s first step, without the compiling that follows it
    refresh = "jitcache.refresh_cache(cache=jitcache.cache_dir(csp.run))\n"
    proc = _run(_env(tmp_path, site, home), "-c", _PROBE + refresh, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    cached, where = proc.stdout.split()
    assert cached == "True" and Path(where).is_relative_to(home / "numba")
    assert (Path(where) / "compiled.stamp").is_file()  # stale code is dropped there too


def test_an_unwritable_numba_cache_dir_falls_back_to_the_sources(tmp_path):
    """A NUMBA_CACHE_DIR that cannot be written is passed over like numba passes it over."""
    site = _install(tmp_path, read_only=False)
    env = _env(tmp_path, site)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "a-file" / "numba")
    proc = _run(env, "-c", _PROBE, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["True", str(site / "cryptocomp" / "crossword" / "__pycache__")]


def test_help_announces_no_compilation(tmp_path):
    """``cryptocomp --help`` in a fresh install said "compiling the fill engine ... 30 s" and
    compiled nothing."""
    site = _install(tmp_path, read_only=False)
    proc = _run(_env(tmp_path, site), "-m", "cryptocomp", "--help", cwd=tmp_path)
    assert proc.returncode == 0 and "usage" in proc.stdout
    assert proc.stderr == ""


@pytest.mark.slow
def test_square_on_a_read_only_install_and_home_says_one_line(tmp_path):
    """The whole command where nothing can be cached: it fills, with one line on the engine
    (it compiles the engine, some 60 s: the point of the test)."""
    site = _install(tmp_path, read_only=True)
    (tmp_path / "words.txt").write_text(WORDS)
    proc = _run(_env(tmp_path, site), "-m", "cryptocomp", "square", "3", "--dict", "words.txt",
                cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines()[:3] == ["cab", "are", "ton"]
    engine = [line for line in proc.stderr.splitlines() if "fill engine" in line]
    assert len(engine) == 1 and "no cache can be written" in engine[0], proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_the_compilation_is_announced_once_when_it_happens(tmp_path):
    """The first square after installing says it compiles (it did so silently); the next
    one loads the cache (here in CRYPTOCOMP_HOME, the install being read-only) and says
    nothing.  Compiles the engine: some 60 s."""
    site = _install(tmp_path, read_only=True)
    env = _env(tmp_path, site, tmp_path / "cc-home")
    (tmp_path / "words.txt").write_text(WORDS)
    square = ("-m", "cryptocomp", "square", "3", "--dict", "words.txt")
    first = _run(env, *square, cwd=tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    assert [line for line in first.stderr.splitlines() if "fill engine" in line] == [
        "cryptocomp: compiling the fill engine (first use only, about 60 s)…"]
    second = _run(env, *square, cwd=tmp_path)
    # The fills must agree; the closing line carries a wall-clock time, which may not.
    assert second.returncode == 0
    assert second.stdout.splitlines()[:-1] == first.stdout.splitlines()[:-1]
    assert "fill engine" not in second.stderr
