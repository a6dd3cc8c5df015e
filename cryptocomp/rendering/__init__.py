"""How results look: the one presentation layer of the command line and the prompt.

Every result kind is drawn here, and the CLI (:mod:`cryptocomp.cli`) and the prompt
(:mod:`cryptocomp.prompt`) only decide where it goes: :mod:`.text` holds the small pieces
(counts with their noun, frequencies per million); :mod:`.results` the rows of a prompt
query, which :mod:`.tables` draws as rich tables, tab-separated lines, JSON and CSV;
:mod:`.listings` the subcommands' tables and lines (compose, solve, words, rack, bag,
index); :mod:`.grids` a crossword fill; :mod:`.terminal` ANSI text and error lines.
Nothing here prints: the functions return text or rich renderables (rich itself is
imported only when a table is drawn). This layer sits above the systems it shows and
below the prompt and the CLI, which it never imports.
"""

from __future__ import annotations

from .grids import fill_json, fill_parts, fill_text
from .listings import (
    bag_lines,
    compose_json,
    compose_lines,
    compose_table,
    index_built_line,
    index_info_lines,
    index_list_lines,
    rack_json,
    rack_lines,
    rack_table,
    solve_lines,
    words_json,
    words_lines,
    words_table,
)
from .results import Kind, Result, Row, WordRows
from .tables import (
    JSON_FORMAT,
    TABLE_CHUNK,
    HelpRow,
    help_lines,
    help_table,
    plain_lines,
    result_json,
    result_parts,
    result_table,
    save_result,
    summary,
)
from .terminal import ColorSystem, banner_text, error_text, render_ansi
from .text import ClassColumn, class_column, per_million, per_million_text, plural

__all__ = ["Result", "Row", "WordRows", "Kind", "JSON_FORMAT", "TABLE_CHUNK", "HelpRow",
           "summary", "result_table", "result_parts", "plain_lines", "result_json",
           "save_result", "help_table", "help_lines", "ColorSystem", "render_ansi",
           "error_text", "banner_text", "per_million", "per_million_text", "plural",
           "compose_lines", "compose_table", "solve_lines", "words_lines", "words_json",
           "words_table", "rack_lines", "rack_table", "bag_lines", "index_built_line",
           "index_list_lines", "index_info_lines", "fill_text", "fill_parts",
           "compose_json", "rack_json", "fill_json", "ClassColumn", "class_column"]
