"""The interactive prompt: one line in, one result (or one error) out.

:class:`Session` (in :mod:`.session`) holds what a user builds up at the
prompt (the dictionary, the filters, the last results) and turns each line into
a :class:`Reply`, its commands dispatched through the table :data:`COMMANDS`;
:mod:`.settings` parses the filters, :mod:`.app` runs the prompt_toolkit loop or
the non-terminal mode, and :mod:`cryptocomp.rendering` draws the results (rich
tables, tab-separated lines, JSON, CSV), as it does for the subcommands.

>>> from cryptocomp import Index
>>> s = Session(Index.from_counts({"money": 50, "honey": 20, "send": 40}))
>>> s.execute("?oney").result.total
2
"""

from __future__ import annotations

from ..rendering import (
                  JSON_FORMAT,
                  Result,
                  Row,
                  banner_text,
                  error_text,
                  help_table,
                  plain_lines,
                  render_ansi,
                  result_json,
                  result_table,
                  save_result,
)
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
from .session import COMMANDS, SOLUTIONS_KEPT, Command, Reply, Session, help_rows
from .settings import (
                  INTERACTIVE_TOP,
                  MAX_MINFREQ,
                  MIN_MINFREQ,
                  Settings,
                  parse_classes,
                  parse_limit,
                  parse_minfreq,
                  parse_top,
)

__all__ = ["Session", "Settings", "Result", "Row", "Reply", "Command", "COMMANDS", "help_rows",
           "JSON_FORMAT", "INTERACTIVE_TOP", "MAX_MINFREQ", "MIN_MINFREQ", "SOLUTIONS_KEPT",
           "parse_top", "parse_minfreq", "parse_limit", "result_table", "help_table",
           "plain_lines", "result_json", "save_result", "render_ansi", "error_text",
           "banner_text", "Screen", "respond", "interact", "run_lines", "completer",
           "open_history", "history_path", "delayed_progress", "parse_classes"]
