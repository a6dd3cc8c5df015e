"""The studio: ``cryptocomp serve``, a local web app and JSON API over the dictionary index.

:func:`create_app` (in :mod:`.app`) builds the ASGI app over one loaded index: the word
queries (:mod:`.queries`), fills, arrow words and candidates as jobs in worker processes
(:mod:`.jobs`, :mod:`.workers`), exports (:mod:`.exports`); requests are read by
:mod:`.parameters` and :mod:`.bodies`, bounded by :mod:`.settings`, and gated (token, body
size) by :mod:`.security`.  The page it serves at ``/`` lives in ``static/``.
"""

from __future__ import annotations

from .app import STATIC, create_app
from .jobs import CANCELLED, DONE, FAILED, QUEUED, RUNNING, Job, JobBoard
from .settings import DEFAULT_HOST, DEFAULT_PORT, Limits, StudioError, StudioSettings, is_loopback

__all__ = ["create_app", "STATIC", "StudioSettings", "Limits", "StudioError", "is_loopback",
           "DEFAULT_HOST", "DEFAULT_PORT", "Job", "JobBoard", "QUEUED", "RUNNING", "DONE",
           "FAILED", "CANCELLED"]
