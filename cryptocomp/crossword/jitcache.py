"""Where numba keeps the fill engine's machine code, chosen before its functions are declared.

numba picks a cached function's directory when the function is decorated, and when it finds
none it can write it raises "cannot cache function ...: no locator available" right there,
at import: on a read-only install with a read-only home, ``fill``, ``square`` and ``swedish``
could not start.  :func:`compiled` declares the engine's functions with the first writable
of ``$NUMBA_CACHE_DIR`` (when set), ``__pycache__`` beside the sources and ``numba/`` in the
data home (``$CRYPTOCOMP_HOME``, else the user's cache directory); with none, the engine is
compiled in each process, uncached, and :func:`compile_note` says so in its one line.

numba keys a cached function on its own file only, and the engine's functions call one
another across files: :func:`refresh_cache`, run by :func:`.csp.load_engine` before any
compiled code loads, drops the machine code of every engine module when any of them changed.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from numba import config, njit

from ..errors import CryptocompError
from ..files import write_atomic

__all__ = ["compiled", "cache_dir", "is_cached", "compile_note", "refresh_cache", "CACHED",
           "COMPILE_SECONDS"]

# the time load_engine() takes from no cache, as the line before compiling says it
# (scripts/LOG.md has the measurements)
COMPILE_SECONDS = 60
# the modules whose functions load_engine() compiles
ENGINE_MODULES = ("clock", "propagation", "search", "rectangle")
# the sources their machine code depends on: their own, and the layouts whose constants
# the compiled code freezes (numba keys a cached function on its own file only)
STAMPED = (*ENGINE_MODULES, "layout")

_HERE = Path(__file__).resolve().parent
_CONFIG: Any = config  # numba makes its settings at run time: the type checker sees none


def _writable(path: Path) -> bool:
    """True when a file can be made in ``path`` (made itself if missing): numba's own test,
    and the one that holds for root too, whom permission bits do not stop."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def _choose() -> tuple[str | None, list[Path]]:
    """numba's CACHE_DIR for the engine ("": ``__pycache__`` beside the sources; None: no
    cache anywhere) and the places tried, in order."""
    tried: list[Path] = []
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        tried.append(Path(user).expanduser())
        if _writable(tried[-1]):
            return user, tried
    tried.append(_HERE / "__pycache__")
    if _writable(tried[-1]):
        return "", tried
    from ..index.store import data_home

    # one directory a package location: the stamp of refresh_cache is per sources
    where = hashlib.sha1(str(_HERE).encode()).hexdigest()[:16]
    tried.append(data_home() / "numba" / where)
    if _writable(tried[-1]):
        return str(tried[-1]), tried
    return None, tried


_CACHE_DIR, _TRIED = _choose()
CACHED = _CACHE_DIR is not None


def compiled(**options: Any) -> Callable[[Callable], Any]:
    """``numba.njit(cache=True, **options)`` with the cache directory chosen above (numba's
    setting is the engine's only while its functions are declared: other numba code in the
    process keeps its own), or uncached where nothing can be written."""
    def declare(fn: Callable) -> Any:
        if _CACHE_DIR is None:
            return njit(cache=False, **options)(fn)
        previous = _CONFIG.CACHE_DIR
        _CONFIG.CACHE_DIR = _CACHE_DIR
        try:
            return njit(cache=True, **options)(fn)
        finally:
            _CONFIG.CACHE_DIR = previous

    return declare


def cache_dir(fn: Any) -> Path | None:
    """The directory numba keeps a compiled function's machine code in (None: uncached, or
    NUMBA_DISABLE_JIT)."""
    stats = getattr(fn, "stats", None)
    path = stats.cache_path if stats is not None else None
    return Path(path) if path else None


def is_cached(cache: Path | None) -> bool:
    """True when ``cache`` holds an index of every engine module's machine code for this
    Python (numba's files ``<module>.<function>-<line>.py<version>.nbi``): loading it
    compiles nothing."""
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}"
    return cache is not None and all(any(cache.glob(f"{m}.*.{tag}*.nbi"))
                                     for m in ENGINE_MODULES)


def compile_note() -> str:
    """The line said when the engine is about to be compiled."""
    if CACHED:
        return f"compiling the fill engine (first use only, about {COMPILE_SECONDS} s)…"
    return (f"compiling the fill engine (about {COMPILE_SECONDS} s): no cache can be written "
            f"({', '.join(map(str, _TRIED))}), so every run compiles it again; set "
            f"CRYPTOCOMP_HOME or NUMBA_CACHE_DIR to a writable directory")


def refresh_cache(here: Path | None = None, cache: Path | None = None) -> bool:
    """Drop numba's cached machine code of the engine modules of the package in ``here``
    (this one by default), kept in ``cache`` (default: ``__pycache__`` there), when one of
    the :data:`STAMPED` sources changed; True when it did.

    After an edit of :mod:`.propagation`, :mod:`.clock` or :mod:`.layout`,
    :func:`.search.run` (which calls into them, or froze their constants) would otherwise
    load stale code.  A stamp of the sources and numba's version next to the cache decides.
    It compiles nothing: :func:`.csp.load_engine` says when compiling starts."""
    import numba

    here = here or _HERE
    digest = hashlib.sha256(numba.__version__.encode())  # numba's upgrades recompile too
    for name in STAMPED:
        digest.update((here / f"{name}.py").read_bytes())
    cache = cache or here / "__pycache__"
    stamp = cache / "compiled.stamp"
    want = digest.hexdigest()
    try:
        if stamp.read_text() == want:
            return False
    except OSError:
        pass
    try:
        cache.mkdir(parents=True, exist_ok=True)
        for name in STAMPED:
            for f in cache.glob(f"{name}.*.nb[ci]"):
                f.unlink()
        write_atomic(stamp, want.encode())  # a run killed mid-write leaves no torn stamp
    except (OSError, CryptocompError):
        return False  # numba could not write there either: it caches nothing there
    return True
