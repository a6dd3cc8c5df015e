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


_PROBE = ("from cryptocomp import jitcache\nfrom cryptocomp.crossword import csp\n"
          "print(jitcache.place('engine').path is not None, jitcache.cache_dir(csp.run))\n")


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
    proc = _run(_env(tmp_path, site, home), "-c", _PROBE, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    cached, where = proc.stdout.split()
    assert cached == "True" and Path(where).parent == home / "numba"
    assert Path(where).name.startswith("cryptocomp-engine-")


def test_an_unwritable_numba_cache_dir_falls_back_to_the_sources(tmp_path):
    """A NUMBA_CACHE_DIR that cannot be written is passed over like numba passes it over."""
    site = _install(tmp_path, read_only=False)
    env = _env(tmp_path, site)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "a-file" / "numba")
    proc = _run(env, "-c", _PROBE, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    cached, where = proc.stdout.split()
    assert cached == "True"
    assert Path(where).parent == site / "cryptocomp" / "crossword" / "__pycache__"


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
    engine = [line for line in first.stderr.splitlines() if "fill engine" in line]
    assert len(engine) == 1, first.stderr
    assert engine[0].startswith("cryptocomp: compiling the fill engine (first use only, about ")
    assert str(tmp_path / "cc-home" / "numba") in engine[0]
    second = _run(env, *square, cwd=tmp_path)
    # The fills must agree; the closing line carries a wall-clock time, which may not.
    assert second.returncode == 0
    assert second.stdout.splitlines()[:-1] == first.stdout.splitlines()[:-1]
    assert "fill engine" not in second.stderr


# -- the keyed directories: a reinstall of the same sources finds their machine code ------

def _sources(tmp_path: Path) -> Path:
    """A package tree holding a copy of every family's sources."""
    from cryptocomp.jitcache import FAMILIES

    root = tmp_path / "pkg"
    for sub, modules in FAMILIES.values():
        (root / sub).mkdir(parents=True, exist_ok=True)
        for name in modules:
            shutil.copy(PACKAGE / sub / f"{name}.py", root / sub / f"{name}.py")
    return root


def test_the_key_is_the_sources_and_versions_not_the_install_path(tmp_path):
    """Two installs of the same sources share a key (the point: numba filed the code under
    the path of its directory); an edit of any source of a family, or another version of
    numba, llvmlite, numpy or Python, gives that family a new key, and only that family."""
    from cryptocomp.jitcache import FAMILIES, family_key

    versions = ("3.11.7", "0.68.1", "0.50.0", "2.1.0")
    one, two = _sources(tmp_path / "a"), _sources(tmp_path / "b")
    for family in FAMILIES:
        assert family_key(family, one, versions) == family_key(family, two, versions)
        assert family_key(family, one) == family_key(family, PACKAGE)
        for i in range(len(versions)):
            other = (*versions[:i], versions[i] + ".1", *versions[i + 1:])
            assert family_key(family, one, other) != family_key(family, one, versions)
    keys = {f: family_key(f, one, versions) for f in FAMILIES}
    for family, (sub, modules) in FAMILIES.items():
        for name in modules:
            path = two / sub / f"{name}.py"
            before = path.read_text()
            path.write_text(before + "\n# edited\n")
            assert family_key(family, two, versions) != keys[family], name
            for unrelated in set(FAMILIES) - {family}:
                assert family_key(unrelated, two, versions) == keys[unrelated]
            path.write_text(before)
    assert {f: family_key(f, two, versions) for f in FAMILIES} == keys


def test_unwritable_places_are_passed_over_and_named_in_the_one_note(tmp_path, monkeypatch):
    """The first writable root wins; those before it are named in the note said before
    compiling; with none writable the note says every run compiles again."""
    from cryptocomp import jitcache

    wall = tmp_path / "a-file"
    wall.write_text("")
    blocked, free = wall / "numba", tmp_path / "cache"
    here = jitcache.choose("bag", [blocked, free], "k1")
    assert here.path == free / "cryptocomp-bag-k1" and here.path.is_dir()
    assert here.tried == (blocked / "cryptocomp-bag-k1", here.path)
    monkeypatch.setitem(jitcache._places, "bag", here)
    note = jitcache.compile_note("bag", "the whole-bag search", 8)
    assert "\n" not in note and "first use only" in note
    assert f"kept in {free}; {blocked} cannot be written" in note
    nowhere = jitcache.choose("bag", [blocked, wall / "other"], "k1")
    assert nowhere.path is None and len(nowhere.tried) == 2
    monkeypatch.setitem(jitcache._places, "bag", nowhere)
    note = jitcache.compile_note("bag", "the whole-bag search", 8)
    assert "no cache can be written" in note and str(blocked) in note and "\n" not in note


def test_prune_keeps_the_newest_other_keys_of_the_family_only(tmp_path):
    """Old keys (other versions, edits) are removed beyond KEEP; the one in use, other
    families' directories and anything not ours stay."""
    from cryptocomp.jitcache import prune

    tmp_path = tmp_path / "numba"
    tmp_path.mkdir()
    made = []
    for i in range(7):
        d = tmp_path / f"cryptocomp-engine-old{i}"
        d.mkdir()
        os.utime(d, (1000 + i, 1000 + i))
        made.append(d)
    current = tmp_path / "cryptocomp-engine-new"
    current.mkdir()
    os.utime(current, (10, 10))  # oldest of all, but in use
    (tmp_path / "cryptocomp-bag-x").mkdir()
    (tmp_path / "engine-foreign").mkdir()
    gone = prune(current, keep=2)
    assert sorted(gone) == sorted(made[:5])
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["cryptocomp-bag-x", "cryptocomp-engine-new", "cryptocomp-engine-old5",
                    "cryptocomp-engine-old6", "engine-foreign"]


_BAG = ("import logging, sys\n"
        "logging.basicConfig(level=logging.INFO, format='%(message)s', stream=sys.stderr)\n"
        "from cryptocomp.tiles import bagsearch\n"
        "from cryptocomp.jitcache import cache_dir\n"
        "bagsearch.load_kernels()\n"
        "print(cache_dir(bagsearch.node_bound))\n")


@pytest.mark.slow
def test_a_reinstall_loads_the_machine_code_of_the_first_install(tmp_path):
    """A second install of the same sources elsewhere (a fresh virtualenv, a CI run, a Dask
    worker's environment) compiles nothing: the bag's kernels, compiled by the first, load
    from the user's cache directory (the engine's family is keyed the same way)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "CRYPTOCOMP_HOME", "NUMBA_DISABLE_JIT")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONDONTWRITEBYTECODE="1")
    runs = []
    for name in ("one", "two"):
        site = _install(tmp_path / name, read_only=False)
        runs.append(_run({**env, "PYTHONPATH": str(site)}, "-c", _BAG, cwd=tmp_path))
        assert runs[-1].returncode == 0, runs[-1].stderr[-2000:]
    first, second = runs
    assert "compiling the whole-bag search (first use only" in first.stderr
    assert "compiling" not in second.stderr, second.stderr
    where = Path(first.stdout.strip())
    assert where.parent == tmp_path / "cache" / "cryptocomp" / "numba"
    assert second.stdout.strip() == str(where)
    assert any(where.glob("bagbound.*.nbi")) and any(where.glob("bagrows.*.nbi"))


def test_workers_started_by_hand_are_pointed_at_the_same_machine_code(tmp_path, monkeypatch):
    """worker_environment() names the directory this process keeps the compiled code in."""
    from cryptocomp import jitcache
    from cryptocomp.batch.cluster import worker_environment

    for family in jitcache.FAMILIES:
        monkeypatch.setitem(jitcache._places, family,
                            jitcache.choose(family, [tmp_path / "root"], "k"))
    env = worker_environment()
    assert env["NUMBA_CACHE_DIR"] == str(tmp_path / "root")
    assert all(name.startswith("DASK_") for name in env if name != "NUMBA_CACHE_DIR")


def test_importing_the_engines_writes_no_machine_code(tmp_path):
    """Importing the engines' modules only picks their directories: nothing is compiled
    or written there before load_engine() or load_kernels()."""
    tmp_path = tmp_path / "numba"
    code = ("import cryptocomp.crossword.csp, cryptocomp.tiles.bag, pathlib, sys; "
            "print(sorted(p.name for p in pathlib.Path(sys.argv[1]).rglob('*.nb?')))")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                         text=True, env=env, check=True).stdout
    assert out.strip() == "[]"
    assert sorted(p.name.rsplit("-", 1)[0] for p in tmp_path.iterdir()) == [
        "cryptocomp-bag", "cryptocomp-engine"]


def test_the_engine_loaded_early_is_waited_for_not_loaded_twice(monkeypatch):
    """load_engine_soon() compiles in a thread while the index loads; the fill's own
    load_engine() waits for that thread instead of compiling beside it."""
    import threading
    import time

    from cryptocomp.crossword import csp

    csp.load_engine()
    calls: list[str] = []
    real = csp.RowSearch.compile

    def slow(self):
        calls.append(threading.current_thread().name)
        time.sleep(0.3)
        real(self)

    monkeypatch.setattr(csp.RowSearch, "compile", slow)
    monkeypatch.setattr(csp, "_loaded", False)
    monkeypatch.setattr(csp, "is_cached", lambda cache, *modules: False)
    monkeypatch.setattr(csp, "prune", lambda cache: [])
    csp.load_engine_soon()
    for _ in range(3000):  # until the thread is inside, holding the loader's lock
        if calls:
            break
        time.sleep(0.01)
    csp.load_engine()
    assert calls == ["load-engine"] and csp._loaded
    csp.load_engine_soon()  # loaded: nothing more
    assert calls == ["load-engine"]


# -- the compile helper: half of the engine compiled in a second process ------------------

def _fake_helper(code: str = "import time; time.sleep(60)"):
    """A Helper over a process running ``code`` (its pipes as the real helper's)."""
    from cryptocomp.crossword import warmup

    return warmup.Helper(subprocess.Popen([sys.executable, "-c", code], text=True,
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE))


def test_a_stage_is_waited_for_a_while_and_the_helper_stopped(monkeypatch):
    """wait() gives a silent helper the time asked and says it did not come; stop() ends the
    helper; no helper can start when processes cannot (then this one compiles it all)."""
    import time

    from cryptocomp.crossword import warmup

    helper = _fake_helper()
    start = time.monotonic()
    assert not helper.wait("watch", 0.2)
    assert 0.2 <= time.monotonic() - start < 5 and helper.proc.poll() is None
    helper.tell(warmup.PROPAGATION)
    helper.stop()
    assert helper.proc.poll() is not None
    helper.tell(warmup.PROPAGATION)  # gone: nothing to tell, and no error
    assert helper.wait("rows", 5.0)  # nothing more will come: no wait

    def refuse(*args, **kwargs):
        raise OSError("no more processes")

    monkeypatch.setattr(warmup.subprocess, "Popen", refuse)
    assert warmup.start_helper(Path("/nowhere/cryptocomp-engine-k")) is None


def test_the_stages_reported_are_the_ones_waited_for():
    """A stage the helper reports ends the wait for it at once, and only for it."""
    helper = _fake_helper("import sys, time\nprint('revise', flush=True)\n"
                          "print('nonsense', flush=True)\ntime.sleep(60)")
    try:
        assert helper.wait("revise", 30.0)
        assert not helper.wait("watch", 0.1)
    finally:
        helper.stop()


def test_a_first_restart_waits_for_the_nogoods_within_its_deadline(monkeypatch):
    """await_nogoods() waits at most HELPER_WAIT, then stops a late helper (the nogoods are
    compiled here); a deadline that comes first ends the wait with False, the helper left
    at its work; with no helper left it returns at once."""
    import time

    from cryptocomp.crossword import warmup

    monkeypatch.setattr(warmup, "HELPER_WAIT", 0.3)
    slow = _fake_helper()
    warmup.keep_finishing(slow)
    start = time.monotonic()
    assert warmup.await_nogoods()
    assert 0.3 <= time.monotonic() - start < 5 and slow.proc.poll() is not None
    late = _fake_helper()
    warmup.keep_finishing(late)
    start = time.monotonic()
    assert not warmup.await_nogoods(start - 1)  # past its deadline: no wait at all
    assert not warmup.await_nogoods(start + 0.1)
    assert 0.1 <= time.monotonic() - start < 0.3 + 5 and late.proc.poll() is None
    assert warmup.await_nogoods()  # no deadline: waits its while, then stops it
    assert late.proc.poll() is not None
    done = _fake_helper("print('nogoods', flush=True)")
    warmup.keep_finishing(done)
    assert warmup.await_nogoods(time.monotonic() + 60)
    assert done.proc.poll() is not None
    start = time.monotonic()
    assert warmup.await_nogoods(start - 1)
    assert time.monotonic() - start < 0.1


def _restart_at_once(seconds) -> None:
    """In a forked child: a first restart's wait, timed into ``seconds``."""
    import time

    from cryptocomp.crossword import warmup

    start = time.monotonic()
    warmup.await_nogoods()
    seconds.value = time.monotonic() - start


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_child_neither_waits_for_nor_stops_its_parents_helper(monkeypatch):
    """A child forked while the parent's helper compiles (a studio job, a solver child)
    hears nothing from that helper: its first restart goes on at once, and the helper
    stays the parent's."""
    import multiprocessing as mp

    from cryptocomp.crossword import warmup

    monkeypatch.setattr(warmup, "HELPER_WAIT", 30.0)
    helper = _fake_helper()
    warmup.keep_finishing(helper)
    try:
        ctx = mp.get_context("fork")
        seconds = ctx.Value("d", -1.0)
        child = ctx.Process(target=_restart_at_once, args=(seconds,))
        child.start()
        child.join(60)
        assert child.exitcode == 0 and 0 <= seconds.value < 5
        assert helper.proc.poll() is None
    finally:
        monkeypatch.setattr(warmup, "HELPER_WAIT", 0.1)
        warmup.await_nogoods()
    assert helper.proc.poll() is not None


def test_an_interrupted_compile_stops_its_helper(monkeypatch):
    """Ctrl-C while the engine compiles leaves no helper process behind."""
    from cryptocomp.crossword import csp, warmup

    helper = _fake_helper()

    def interrupted(prob, helper):
        raise KeyboardInterrupt

    monkeypatch.setattr(csp, "_loaded", False)
    monkeypatch.setattr(csp, "is_cached", lambda cache, *modules: False)
    monkeypatch.setattr(csp, "prune", lambda cache: [])
    monkeypatch.setattr(warmup, "start_helper", lambda cache: helper)
    monkeypatch.setattr(warmup, "compile_searches", interrupted)
    with pytest.raises(KeyboardInterrupt):
        csp.load_engine()
    assert helper.proc.poll() is not None and not csp._loaded


def _engine_files(cache_root: Path) -> set[str]:
    """The functions with machine code in the engine's directory below ``cache_root``."""
    return {p.name.rsplit("-", 1)[0] for p in cache_root.glob("cryptocomp-engine-*/*.nbi")}


@pytest.mark.slow
def test_a_helper_left_alone_compiles_its_first_half_only(tmp_path):
    """A helper that is never told of the propagation (its main process gone) writes its
    half of the propagation and undo, then ends without compiling on that propagation."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "cryptocomp.crossword.warmup"], env=env,
                          input="", capture_output=True, text=True, check=True, timeout=600)
    assert done.stdout.split() == ["revise"]
    files = _engine_files(tmp_path)
    assert {"propagation._revise", "propagation.undo"} <= files
    assert not files & {"search.run", "search.root", "propagation.propagate", "nogood.watch"}


_LOAD = ("from cryptocomp.crossword import csp, warmup\n"
         "warmup.HELPER_WAIT = 600.0  # a busy machine: the helper is waited for, not raced\n"
         "started = []\n"
         "real = warmup.start_helper\n"
         "warmup.start_helper = lambda cache: started.append(real(cache)) or started[-1]\n"
         "csp.load_engine()\n"
         "warmup.await_nogoods()\n"
         "print(len(started), all(h.proc.poll() is not None for h in started))\n")


@pytest.mark.slow
def test_the_two_processes_compile_the_whole_engine_between_them(tmp_path):
    """A first use's two processes leave machine code for every part of the engine, the
    nogoods included, and no helper behind once a first restart has waited for it."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _LOAD], env=env, capture_output=True,
                          text=True, check=True, timeout=900)
    assert done.stdout.split() == ["1", "True"]
    files = _engine_files(tmp_path)
    assert {"propagation._revise", "propagation._settle", "propagation.propagate",
            "propagation.undo", "nogood.watch", "nogood.learn", "nogood.adopt", "search.run",
            "search.root", "search._choose_slot", "rectangle._search"} <= files
    assert not list(tmp_path.glob("cryptocomp-engine-*/*.tmp"))


_SQUARE = ("from cryptocomp.crossword import fill\n"
           "from cryptocomp.crossword.square import square_grid\n"
           "from cryptocomp.index.index import Index\n"
           "words = {w: int(c) for w, c in (l.split() for l in open('words.txt'))}\n"
           "print(fill(square_grid(3), Index.from_counts(words, name='w')).words)\n")


@pytest.mark.slow
def test_a_helper_stopped_midway_leaves_machine_code_the_engine_loads(tmp_path):
    """A helper killed while it compiles (Ctrl-C, a lost worker) leaves whole cache files
    or none: the next first use compiles the rest and fills as a warm run does."""
    import time

    from cryptocomp.crossword import warmup

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    helper = warmup.Helper(subprocess.Popen(
        [sys.executable, "-m", "cryptocomp.crossword.warmup"], env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE))
    time.sleep(2.0)
    helper.stop()
    (tmp_path / "words.txt").write_text(WORDS)
    proc = subprocess.run([sys.executable, "-c", _SQUARE], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == str(["cab", "are", "ton", "cat", "aro", "ben"])
    assert {"search.run", "rectangle._search"} <= _engine_files(tmp_path / "numba")
