"""The interactive prompt: one line in, one result (or one error) out.

:class:`Session` (in :mod:`.session`) holds what a user builds up at the
prompt (the dictionary, the filters, the last results) and turns each line into
an :class:`Outcome`; :mod:`.settings` parses the filters, :mod:`.render` draws
results (rich tables, tab-separated lines, JSON, CSV), and :mod:`.app` runs the
prompt_toolkit loop or the non-terminal mode.

>>> from cryptocomp import Index
>>> s = Session(Index.from_counts({"money": 50, "honey": 20, "send": 40}))
>>> s.execute("?oney").result.total
2
"""

from __future__ import annotations

from .app import (
                  Screen,
                  completer,
                  delayed_progress,
                  history_path,
                  interact,
                  open_history,
                  respond,
                  run_lines,
)
from .commands import COMMANDS
from .render import (
                  JSON_FORMAT,
                  banner_text,
                  error_text,
                  help_table,
                  plain_lines,
                  render_ansi,
                  result_json,
                  result_table,
                  save_result,
)
from .result import Outcome, Result, Row
from .session import SOLUTIONS_KEPT, Session
from .settings import (
                  INTERACTIVE_TOP,
                  MAX_MINFREQ,
                  MIN_MINFREQ,
                  Settings,
                  parse_limit,
                  parse_minfreq,
                  parse_top,
)

__all__ = ["Session", "Settings", "Result", "Row", "Outcome", "COMMANDS", "JSON_FORMAT",
           "INTERACTIVE_TOP", "MAX_MINFREQ", "MIN_MINFREQ", "SOLUTIONS_KEPT",
           "parse_top", "parse_minfreq", "parse_limit", "result_table", "help_table",
           "plain_lines", "result_json", "save_result", "render_ansi", "error_text",
           "banner_text", "Screen", "respond", "interact", "run_lines", "completer",
           "open_history", "history_path", "delayed_progress"]
