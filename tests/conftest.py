"""Shared fixtures: every test runs with its own CRYPTOCOMP_HOME, so no real index is touched.

Hypothesis profiles: ``ci`` (the default) is derandomized, so CI runs the same examples every
time; ``long`` draws 20 times as many fresh examples for local fuzzing, e.g.
``HYPOTHESIS_PROFILE=long python -m pytest tests/test_fuzz_cli.py``.  The fuzz tests scale
their example counts by :data:`FUZZ_SCALE` (read from the profile's ``max_examples``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, database=None, max_examples=100,
                          deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=2000, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
