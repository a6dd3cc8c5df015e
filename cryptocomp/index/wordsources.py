"""Which source classes an index's words, and how the index records it.

========================  ===========================================================
``en`` (and a file given  :mod:`.english`: ENABLE, WordNet 3.0, SCOWL (shipped data)
``--lang en``)
``ru``, ``ru+yo`` (and a  :mod:`.russian`: pymorphy3 with its OpenCorpora dictionary
file given ``--lang ru``)
any other language        unclassified, unless a class file is given
``--classes FILE``        a class file (:mod:`.classfile`): on top of ``en``/``ru``, its
                          lines override the source's; alone for any other language
========================  ===========================================================

The index's build parameters (its header's ``params``) record the class language
(``class_lang``), the class file (``class_file``, an absolute path) and the description
of the sources (``classes``: versions, the shipped data's and the class file's digests),
so an index whose class source changed is rebuilt as a stale one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

from ..domain import Word
from ..errors import DictionaryError
from ..files import read_bytes, shown
from .alphabet import ALPHABETS
from .classdata import english_source, russian_source
from .classes import Classification, classification_of
from .classfile import ClassFile, read_class_file

__all__ = ["CLASS_LANGS", "class_params", "classifier", "check_class_lang"]

CLASS_LANGS = ("en", "ru")  # the languages with a source of their own


def check_class_lang(lang: str | None) -> None:
    """Refuse a class language that has no source (one line)."""
    if lang is not None and lang not in CLASS_LANGS:
        raise DictionaryError(f"no word-class source for language {lang[:20]!r} (there are "
                              f"{', '.join(CLASS_LANGS)}): give a class file with --classes")


def _file_digest(path: Path) -> str:
    return hashlib.sha256(read_bytes(path, "class file", DictionaryError,
                                     limit=1 << 30)).hexdigest()


def _lang_source(lang: str) -> str:
    return english_source() if lang == "en" else russian_source()


def _describe(lang: str | None, class_file: Path | None, digest: str | None) -> str:
    parts = [_lang_source(lang)] if lang else []
    if class_file is not None:
        parts.append(f"class file sha256 {(digest or _file_digest(class_file))[:16]}")
    return "; ".join(parts)


def class_params(lang: str | None, class_file: Path | None) -> dict[str, object]:
    """The build parameters that record an index's class source (none when unclassified)."""
    if lang is None and class_file is None:
        return {}
    out: dict[str, object] = {"classes": _describe(lang, class_file, None)}
    if lang is not None:
        out["class_lang"] = lang
    if class_file is not None:
        out["class_file"] = str(class_file)
    return out


def classifier(lang: str | None, class_file: Path | None, *, fold_yo: bool = False
               ) -> Callable[[Sequence[Word]], Classification] | None:
    """What classifies an index's ranked words (None: the index is unclassified); a class
    file is read and checked when the index is built."""
    if lang is None and class_file is None:
        return None
    check_class_lang(lang)

    def classify(words: Sequence[Word]) -> Classification:
        extra = None
        if class_file is not None:
            alphabet = ALPHABETS.get(lang) if lang else None
            extra = read_class_file(class_file, alphabet=alphabet, fold_yo=fold_yo)
        source = _describe(lang, class_file, extra.sha256 if extra else None)
        if lang == "en":
            from .english import english_classes

            result = english_classes(words, extra)
        elif lang == "ru":
            from .russian import russian_classes

            result = russian_classes(words, fold_yo=fold_yo, extra=extra)
        else:
            assert extra is not None
            result = _file_classes(words, extra)
        result.source = source
        return result

    return classify


def _file_classes(words: Sequence[Word], extra: ClassFile) -> Classification:
    """The classes a class file alone gives (a word it does not name is unknown)."""
    return classification_of(words, extra.classes, source=shown(extra.label),
                             lemmas=extra.lemmas or None)
