"""Shared fixtures: every test runs with its own CRYPTOCOMP_HOME, so no real index is touched."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    home = tmp_path / "cc-home"
    (home / "indexes").mkdir(parents=True)
    (home / "freqdicts").mkdir()
    monkeypatch.setenv("CRYPTOCOMP_HOME", str(home))
    return home


@pytest.fixture
def shallow_stack():
    """``run(fn, *args)``: call with only 300 frames of stack to spare, so that code whose
    recursion grows with its input (a sum of 1000 operands) fails the test."""
    import sys

    def run(fn, *args, **kwargs):
        depth, frame = 0, sys._getframe()
        while frame is not None:
            depth, frame = depth + 1, frame.f_back
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(depth + 300)
        try:
            return fn(*args, **kwargs)
        finally:
            sys.setrecursionlimit(old)

    return run
