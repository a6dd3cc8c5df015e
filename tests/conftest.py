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
