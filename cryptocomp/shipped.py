"""The data shipped inside the package (``cryptocomp/data/``), found through
:mod:`importlib.resources` so that every reader reaches it the same way, wherever and
however the package is installed.

What is there (each format is documented, versioned and checked by its reader):
``clues/`` (clue files, :mod:`cryptocomp.arrow.clues`), ``phrases/`` (multi-word entries,
:mod:`cryptocomp.arrow.phrases`), ``grids/`` (named crossword grids), ``fonts/`` (the PDF
pages' fonts and their licence, :mod:`cryptocomp.pages.document`), ``tiles.json`` (tile
sets, :mod:`cryptocomp.tiles.tiles`) and ``enable1.txt`` (the ENABLE word list).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["shipped"]


def shipped(relative: str) -> Path:
    """The path of ``relative`` (a ``/``-separated name) under the shipped data folder."""
    # cryptocomp is a regular package installed on disk (pip, editable or not), so its
    # resources are files with paths the readers open like any user file
    root = resources.files("cryptocomp").joinpath("data")
    return Path(str(root.joinpath(*relative.split("/"))))
