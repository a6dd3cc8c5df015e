"""Cryptarithms: the expression parser, the composer (unique-solution puzzles from a
dictionary) and the exact solver.

>>> from cryptocomp import Index
>>> idx = Index.from_counts({"money": 50, "honey": 20})
>>> [p.puzzle for p in compose("SEND+MORE", idx)]
['send+more=money']
>>> solve("SEND+MORE=MONEY").count
1
"""

from __future__ import annotations

from .compose import Composed, compose
from .expr import Puzzle, looks_like_expression, parse
from .grammar import parse_system
from .solve import Solved, solve

__all__ = ["compose", "Composed", "solve", "Solved", "parse", "Puzzle", "looks_like_expression",
           "parse_system"]
