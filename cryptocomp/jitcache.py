"""Where numba keeps the machine code of cryptocomp's compiled functions: a directory named by
what the code depends on, so a reinstall of the same sources finds it.

numba files a cached function under the path of its source directory, so each fresh install
(a new virtualenv, a CI run, a Dask worker's environment) compiled the fill engine again,
half a minute of a user's first ``square``.  :func:`compiled` gives each function a locator
of its own instead: the directory ``cryptocomp-<family>-<key>`` below the first writable of
``$NUMBA_CACHE_DIR``, ``numba/`` in the user's cache directory, ``__pycache__`` beside the
sources and ``numba/`` in the data home; the key (:func:`family_key`) hashes the sources
of the function's family (the modules whose compiled code calls one another or freezes
their constants, :data:`FAMILIES`) with the versions of Python, numba, llvmlite and numpy.
An edit of any of them, or an upgrade, gives a new directory: no stale code can load.
With no writable place the code is compiled in each process, uncached, and
:func:`compile_note` says so in its one line.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from numba import njit

__all__ = ["compiled", "cache_dir", "is_cached", "compile_note", "family_key", "choose",
           "Place", "place", "prune", "FAMILIES", "ENGINE_MODULES", "COMPILE_SECONDS",
           "KEEP"]

log = logging.getLogger(__name__)

# the time load_engine() takes from no cache, as the line before compiling says it
# (README "First use" has the measurements)
COMPILE_SECONDS = 10
# the modules whose functions load_engine() compiles
ENGINE_MODULES = ("clock", "propagation", "nogood", "search", "rectangle")
# each family: its package below cryptocomp and the sources its machine code depends on
# (its compiled modules, which call one another, and the layouts whose constants the
# compiled code freezes)
FAMILIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "engine": ("crossword", (*ENGINE_MODULES, "layout")),
    "bag": ("tiles", ("bagbound", "bagrows")),
    # the cryptarithm kernels: each module's compiled functions call only their own
    "wordsum": ("cryptarithm", ("wordsum",)),
    "lineform": ("cryptarithm", ("lineform",)),
    "kernel": ("cryptarithm", ("kernel",)),
    "products": ("cryptarithm", ("products",)),
    "pairquery": ("batch", ("pairquery",)),
}
# machine-code directories of one family kept beside the one in use (older keys: other
# versions or edits of the sources)
KEEP = 4

_PACKAGE = Path(__file__).resolve().parent


def family_key(family: str, package: Path | None = None,
               versions: tuple[str, ...] | None = None) -> str:
    """The hash naming ``family``'s machine code: its sources in ``package`` (this one by
    default) and the ``versions`` it was compiled with (default: this Python's, numba's,
    llvmlite's and numpy's)."""
    if versions is None:
        import llvmlite
        import numba
        import numpy

        versions = (sys.version, numba.__version__, llvmlite.__version__, numpy.__version__)
    sub, modules = FAMILIES[family]
    digest = hashlib.sha256("\0".join(versions).encode())
    for name in modules:
        digest.update(name.encode() + b"\0")
        digest.update(((package or _PACKAGE) / sub / f"{name}.py").read_bytes())
    return digest.hexdigest()[:20]


def _writable(path: Path) -> bool:
    """True when a file can be made in ``path`` (made itself if missing): numba's own test,
    and the one that holds for root too, whom permission bits do not stop."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def _roots(sub: str) -> list[Path]:
    """Where a family's directory may go, best first."""
    import platformdirs

    from .files import data_home

    roots = []
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        roots.append(Path(user).expanduser())
    roots.append(Path(platformdirs.user_cache_dir("cryptocomp", appauthor=False)) / "numba")
    roots.append(_PACKAGE / sub / "__pycache__")
    roots.append(data_home() / "numba")
    return roots


@dataclass(frozen=True)
class Place:
    """Where one family's machine code lives: ``path`` None when nowhere can be written;
    ``tried`` the places passed over (and ``path``), in order; ``key`` its sources' hash."""

    family: str
    key: str
    path: Path | None
    tried: tuple[Path, ...]


def choose(family: str, roots: list[Path], key: str) -> Place:
    """The first of ``roots`` where ``family``'s directory for ``key`` can be written."""
    tried: list[Path] = []
    for root in roots:
        tried.append(root / f"cryptocomp-{family}-{key}")
        if _writable(tried[-1]):
            return Place(family, key, tried[-1], tuple(tried))
    return Place(family, key, None, tuple(tried))


_places: dict[str, Place] = {}


def place(family: str) -> Place:
    """``family``'s place, chosen once a process."""
    if family not in _places:
        here = choose(family, _roots(FAMILIES[family][0]), family_key(family))
        if here.path is not None:
            os.utime(here.path)  # in use: prune() keeps the newest
        _places[family] = here
    return _places[family]


def _family_of(fn: Callable) -> str:
    """The family of a function by its module's package (``cryptocomp.tiles.bagrows``: bag)."""
    parts = fn.__module__.split(".")
    for family, (sub, modules) in FAMILIES.items():
        if parts[-2:-1] == [sub] and parts[-1] in modules:
            return family
    raise ValueError(f"{fn.__module__}.{fn.__qualname__} is in no compiled family "
                     f"(jitcache.FAMILIES)")


def _keyed_cache(fn: Callable, where: Path, stamp: str) -> Any:
    """numba's per-function cache for ``fn``, filed in ``where`` and fresh while ``stamp``
    (the family key) is: a locator numba tries first and alone."""
    from numba.core import caching

    class Locator(caching._CacheLocator):
        def __init__(self, py_func: Callable, py_file: str):
            self._lineno = py_func.__code__.co_firstlineno

        def get_cache_path(self) -> str:
            return str(where)

        def get_source_stamp(self) -> str:
            return stamp

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func: Callable, py_file: str) -> Any:
            return cls(py_func, py_file)

    class Impl(caching.CompileResultCacheImpl):
        _locator_classes: list[type[object]] = [Locator]  # noqa: RUF012 (numba reads it)

    class Cache(caching.FunctionCache):
        _impl_class = Impl

    return Cache(fn)


def compiled(*, entry: bool = True, allocates: bool = True,
             **options: Any) -> Callable[[Callable], Any]:
    """``numba.njit(cache=True, **options)`` with the machine code in its family's keyed
    directory (:func:`place`), or uncached where nothing can be written.  ``entry=False``:
    only compiled code calls the function, so numba builds it no Python or C wrapper;
    ``allocates=False``: it makes no array, so it is compiled without numba's reference
    counting (NRT).  Together they take about a third off the fill engine's first compile
    (README "First use"), and a non-entry function cannot be called from Python."""
    if not entry:
        options.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)
    if not allocates:
        options["_nrt"] = False

    def declare(fn: Callable) -> Any:
        dispatcher = njit(cache=False, **options)(fn)
        if not hasattr(dispatcher, "stats"):  # NUMBA_DISABLE_JIT: plain Python
            return dispatcher
        here = place(_family_of(fn))
        if here.path is not None:
            dispatcher._cache = _keyed_cache(fn, here.path, here.key)
        return dispatcher

    return declare


def cache_dir(fn: Any) -> Path | None:
    """The directory numba keeps a compiled function's machine code in (None: uncached, or
    NUMBA_DISABLE_JIT)."""
    stats = getattr(fn, "stats", None)
    path = stats.cache_path if stats is not None else None
    return Path(path) if path else None


def is_cached(cache: Path | None, modules: tuple[str, ...] = ENGINE_MODULES) -> bool:
    """True when ``cache`` holds an index of every one of ``modules``' machine code for this
    Python (numba's files ``<module>.<function>-<line>.py<version>.nbi``): loading it
    compiles nothing."""
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}"
    return cache is not None and all(any(cache.glob(f"{m}.*.{tag}*.nbi")) for m in modules)


def compile_note(family: str = "engine", what: str = "the fill engine",
                 seconds: int = COMPILE_SECONDS) -> str:
    """The line said when ``family``'s code is about to be compiled: where it goes, and
    which better places could not be written."""
    here = place(family)
    if here.path is None:
        return (f"compiling {what} (about {seconds} s): no cache can be written "
                f"({', '.join(str(p.parent) for p in here.tried)}), so every run compiles it "
                f"again; set CRYPTOCOMP_HOME or NUMBA_CACHE_DIR to a writable directory")
    passed = [str(p.parent) for p in here.tried[:-1]]
    unwritable = f"; {', '.join(passed)} cannot be written" if passed else ""
    return (f"compiling {what} (first use only, about {seconds} s; kept in "
            f"{here.path.parent}{unwritable})…")


def prune(where: Path, keep: int = KEEP) -> list[Path]:
    """Remove all but the ``keep`` newest sibling directories of ``where`` of its family
    (other keys: code no install of these sources loads); the ones removed."""
    family = where.name.rsplit("-", 1)[0]
    try:
        others = [p for p in where.parent.glob(f"{family}-*") if p.is_dir() and p != where]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    gone = others[keep:]
    for old in gone:
        shutil.rmtree(old, ignore_errors=True)
    return gone
