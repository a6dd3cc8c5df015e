"""The identities of the shipped and installed class sources, read cheaply.

Every command that opens an ``en`` or ``ru`` index checks that its class source is the one
it was built with (:mod:`.wordsources`), so the descriptions here read only small files:
the first lines of the English data, the offensive lists, the Russian dictionary's
``meta.json`` and pymorphy3's version module; nothing is imported that a command would not
load anyway.  The data folder is found beside this package (``cryptocomp/data/classes``),
the same folder :func:`cryptocomp.shipped.shipped` names, without importing
:mod:`importlib.resources` for it.

The offensive lists' format (``offensive-en.txt``, ``offensive-ru.txt``, version 1): a
first line ``# cryptocomp offensive 1``, then one lower-case lemma a line (``#`` starts a
comment); a line ``-lemma`` takes a lemma a source marks offensive out of the class.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
from functools import cache
from pathlib import Path

from ..errors import DictionaryError

__all__ = ["OFFENSIVE_HEADER", "CLASS_DATA", "read_offensive", "english_source",
           "russian_source", "russian_dictionary"]

OFFENSIVE_HEADER = "# cryptocomp offensive 1"
# cryptocomp is a regular package on disk (see cryptocomp.shipped): its data is this folder
CLASS_DATA = Path(__file__).resolve().parent.parent / "data" / "classes"


def _shipped(name: str) -> Path:
    """A file of the shipped class data."""
    return CLASS_DATA / name


def read_offensive(name: str) -> tuple[frozenset[str], frozenset[str], str]:
    """(the lemmas of a shipped offensive list, the lemmas it takes out of the class, its
    SHA-256's first 8 hex digits)."""
    path = _shipped(name)
    data = path.read_bytes()
    lines = data.decode("utf-8").splitlines()
    if not lines or lines[0].strip() != OFFENSIVE_HEADER:
        raise DictionaryError(f"{path}: not a version 1 offensive list (first line "
                              f"{OFFENSIVE_HEADER!r})")
    words = {w.split("#", 1)[0].strip().lower() for w in lines[1:]} - {"", "-"}
    out = frozenset(w for w in words if not w.startswith("-"))
    return out, frozenset(w[1:] for w in words - out), hashlib.sha256(data).hexdigest()[:8]


def _first_lines(path_name: str, n: int) -> list[str]:
    with gzip.open(_shipped(path_name), "rt", encoding="utf-8") as fh:
        return [fh.readline().rstrip("\n") for _ in range(n)]


def english_source() -> str:
    """The description of the English source (changes when any shipped part does)."""
    data = _first_lines("en-classes.txt.gz", 2)[1].lstrip("# ").removeprefix("en: ")
    _, _, tag = read_offensive("offensive-en.txt")
    return f"ENABLE, {data}, offensive-en {tag}"


def russian_dictionary() -> Path:
    """The folder of pymorphy3's Russian dictionary (one line when it is not installed)."""
    try:
        import pymorphy3_dicts_ru
    except ImportError:
        raise DictionaryError("the Russian word classes need pymorphy3 and its dictionary: "
                              "pip install 'pymorphy3[fast]'") from None
    return Path(pymorphy3_dicts_ru.get_path())


@cache
def russian_source() -> str:
    """The description of the Russian source (changes with pymorphy3, its dictionary or
    the shipped offensive list)."""
    meta = dict(json.loads((russian_dictionary() / "meta.json").read_text(encoding="utf-8")))
    _, _, tag = read_offensive("offensive-ru.txt")
    return (f"pymorphy3 {_pymorphy3_version()}, OpenCorpora "
            f"{meta.get('source_version', '?')} (revision {meta.get('source_revision', '?')}), "
            f"offensive-ru {tag}")


def _pymorphy3_version() -> str:
    """pymorphy3's version, read from its version module without importing the package
    (importing it, or importlib.metadata, costs every command a noticeable start-up)."""
    spec = importlib.util.find_spec("pymorphy3")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        try:
            text = (Path(folder) / "version.py").read_text(encoding="utf-8")
        except OSError:
            continue
        for line in text.splitlines():  # __version__ = "2.0.6"
            if line.startswith("__version__") and "=" in line:
                return line.split("=", 1)[1].strip().strip("\"'") or "?"
    return "?"


