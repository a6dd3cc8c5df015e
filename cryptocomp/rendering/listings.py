"""The subcommands' results as they print them: a rich table on a terminal, plain
tab-separated lines when piped, and the few text lines of ``solve``, ``bag`` and ``index``.

Each function builds text or rich renderables and prints nothing; a caller prints the
lines, or each renderable with one rich console (a string given to it is rich markup).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .text import ClassColumn, per_million, plural

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ..cryptarithm import Composed, Solved
    from ..cryptarithm.difficulty import Difficulty
    from ..index import Entry
    from ..tiles import BagResult, Play

__all__ = ["compose_lines", "compose_json", "compose_table", "solve_lines", "solve_title",
           "level_text", "words_lines", "words_json", "words_table", "rack_lines", "rack_json",
           "rack_table", "bag_lines", "index_built_line", "index_list_lines", "index_info_lines"]


def _table(title: str, columns: Sequence[tuple[str, dict]], rows: Sequence[Sequence[str]],
           more: str | None) -> list[RenderableType]:
    """A titled rich table of ``rows`` under ``columns`` (name, add_column options), then
    the line ``more`` (the rows not shown) when there is one."""
    from rich.table import Table

    table = Table(title=title)
    for name, options in columns:
        table.add_column(name, **options)
    for row in rows:
        table.add_row(*row)
    return [table] if more is None else [table, more]


def _class_head(classes: ClassColumn | None) -> list[tuple[str, dict]]:
    """The class column's heading, when there is one."""
    return [] if classes is None else [("classes", {"style": "dim"})]


def _class_cell(classes: ClassColumn | None, i: int, word: str) -> tuple[str, ...]:
    """The class cell of ``word`` (id ``i``), when there is a column."""
    return () if classes is None else (classes.text(i, word),)


# -- compose and solve -------------------------------------------------------------------

def level_text(d: Difficulty) -> str:
    """A difficulty's cell: its level 1-5, or ``unrated``."""
    return str(d.level) if d.level is not None else "unrated"


def compose_lines(shown: Sequence[Composed], classes: ClassColumn | None = None,
                  levels: Sequence[Difficulty] | None = None) -> list[str]:
    """``compose`` piped: ``puzzle solution count`` (then the word's ``classes`` and the
    puzzle's difficulty level when given), one line a puzzle."""
    lines = [f"{r.puzzle}\t{r.solution}\t{r.count}" for r in shown]
    if classes is not None:
        lines = [f"{line}\t{classes.text(r.rank - 1, r.word)}" for line, r in zip(lines, shown)]
    if levels is not None:
        lines = [f"{line}\t{level_text(d)}" for line, d in zip(lines, levels)]
    return lines


def compose_json(shown: Sequence[Composed], classes: ClassColumn | None = None,
                 levels: Sequence[Difficulty] | None = None) -> list[dict]:
    """``compose --json``: one object a puzzle (``classes`` and ``difficulty`` fields when
    given)."""
    out = [r.to_json() for r in shown]
    if classes is not None:
        out = [{**o, "classes": classes.of(r.rank - 1, r.word)} for o, r in zip(out, shown)]
    if levels is not None:
        out = [{**o, "difficulty": d.to_json()} for o, d in zip(out, levels)]
    return out


def compose_table(query: str, found: int, shown: Sequence[Composed],
                  total: int, classes: ClassColumn | None = None,
                  levels: Sequence[Difficulty] | None = None) -> list[RenderableType]:
    """``compose`` on a terminal: the ``shown`` of ``found`` puzzles, frequencies per million
    of a dictionary whose counts add up to ``total`` (class and difficulty columns when
    given)."""
    cells: Sequence[tuple[str, ...]] = [(level_text(d),) for d in levels] if levels else \
        [() for _ in shown]
    rows = [(str(r.rank), r.puzzle, r.solution, f"{per_million(r.count, total):.3f}",
             *_class_cell(classes, r.rank - 1, r.word), *cell) for r, cell in zip(shown, cells)]
    columns = [("rank", {"justify": "right"}), ("puzzle", {"style": "bold"}), ("solution", {}),
               ("per million", {"justify": "right"}), *_class_head(classes),
               *([("level", {"justify": "right"})] if levels is not None else [])]
    more = f"… and {found - len(shown)} more (use --top N)" if found > len(shown) else None
    return _table(f"{query}: {plural(found, 'puzzle')} with one solution", columns, rows, more)


def solve_title(solved: Solved) -> str:
    """``send+more=money: 1 solution``; the base when not 10; "at least" when a budget
    stopped the count."""
    base = f" (base {solved.base})" if solved.base != 10 else ""
    if solved.complete:
        return f"{solved.puzzle}{base}: {plural(solved.count, 'solution')}"
    return (f"{solved.puzzle}{base}: at least {plural(solved.count, 'solution')} (the budget "
            f"ran out before the count was complete)")


def solve_lines(solved: Solved, difficulty: Difficulty | None = None,
                explanation: Sequence[str] = ()) -> list[str]:
    """``solve``: the count of solutions, the listed ones, and how many more there are; the
    difficulty and the numbered steps of the explanation when given."""
    lines = [solve_title(solved), *solved.equations]
    if solved.count > len(solved.equations):
        more = "" if solved.complete else "at least "
        lines.append(f"… and {more}{solved.count - len(solved.equations):,} more (use --cap N)")
    if difficulty is not None:
        lines.append(f"difficulty: {difficulty}")
    return [*lines, *explanation]


# -- words ------------------------------------------------------------------------------

def words_lines(shown: Sequence[Entry], classes: ClassColumn | None = None) -> list[str]:
    """``words`` piped: ``word count`` (and its ``classes`` when given), one line a word."""
    if classes is not None:
        return [f"{e.word}\t{e.count}\t{classes.text(e.id, e.word)}" for e in shown]
    return [f"{e.word}\t{e.count}" for e in shown]


def words_json(shown: Sequence[Entry], classes: ClassColumn | None = None) -> list[dict]:
    """``words --json``: one object a word (a ``classes`` field when given)."""
    if classes is not None:
        return [{"word": e.word, "count": e.count, "rank": e.rank,
                 "classes": classes.of(e.id, e.word)} for e in shown]
    return [{"word": e.word, "count": e.count, "rank": e.rank} for e in shown]


def words_table(dictionary: str, found: int, shown: Sequence[Entry],
                total: int, classes: ClassColumn | None = None) -> list[RenderableType]:
    """``words`` on a terminal: the ``shown`` of ``found`` words of ``dictionary``, whose
    counts add up to ``total`` (a class column when given)."""
    rows = [(str(e.rank), e.word, f"{per_million(e.count, total):.3f}",
             *_class_cell(classes, e.id, e.word)) for e in shown]
    columns = [("rank", {"justify": "right"}), ("word", {"style": "bold"}),
               ("per million", {"justify": "right"}), *_class_head(classes)]
    more = f"… and {found - len(shown)} more (use --top N)" if found > len(shown) else None
    return _table(f"{plural(found, 'word')} in {dictionary}", columns, rows, more)


# -- rack and bag -----------------------------------------------------------------------

def rack_lines(shown: Sequence[Play], classes: ClassColumn | None = None) -> list[str]:
    """``rack`` piped: ``score word tiles blanks`` (and the word's ``classes`` when given),
    one line a play."""
    if classes is not None:
        return [f"{p.score}\t{p.word}\t{p.display()}\t{''.join(p.blanks)}\t"
                f"{classes.text(p.id, p.word)}" for p in shown]
    return [f"{p.score}\t{p.word}\t{p.display()}\t{''.join(p.blanks)}" for p in shown]


def rack_json(shown: Sequence[Play], classes: ClassColumn | None = None) -> list[dict]:
    """``rack --json``: one object a play (a ``classes`` field when given)."""
    if classes is None:
        return [p.to_json() for p in shown]
    return [{**p.to_json(), "classes": classes.of(p.id, p.word)} for p in shown]


def rack_table(letters: str, tiles: str, dictionary: str, found: int,
               shown: Sequence[Play], classes: ClassColumn | None = None
               ) -> list[RenderableType]:
    """``rack`` on a terminal: the ``shown`` of ``found`` plays of the rack ``letters`` (a
    class column when given)."""
    rows = [(str(p.score), p.word, p.display(), str(p.rank), *_class_cell(classes, p.id, p.word))
            for p in shown]
    columns = [("score", {"justify": "right"}), ("word", {"style": "bold"}),
               ("tiles (blanks lower case)", {}), ("rank", {"justify": "right"}),
               *_class_head(classes)]
    more = f"… and {found - len(shown):,} more (use --top N)" if found > len(shown) else None
    return _table(f"{plural(found, 'word')} from {letters} ({tiles} tiles, {dictionary})",
                  columns, rows, more)


def bag_lines(result: BagResult, time_limit: float | None) -> list[str]:
    """``bag``: a line a word (tiles, length x value = score), then the total and whether
    it is proved optimal; or, nothing found within ``time_limit``, the proved bound."""
    width = max((len(w.display()) for w in result.words), default=0)
    lines = []
    for w in result.words:
        blanks = f"  (blanks: {', '.join(f.upper() for f in w.blanks)})" if w.blanks else ""
        lines.append(f"{w.display():<{width}}  {len(w.tiles):>2} x {w.value:>3} = "
                     f"{w.score:>4}{blanks}")
    effort = f"({plural(result.nodes, 'node')}, {result.seconds:.1f} s)"
    if not result.found:
        lines.append(f"no solution found in {time_limit:g} s; no solution scores more than "
                     f"{result.upper_bound} {effort}")
        return lines
    verdict = ("proved optimal" if result.proved else
               f"best found in {time_limit:g} s; no solution scores more than "
               f"{result.upper_bound}")
    lines.append(f"total {result.total}: {verdict} {effort}")
    return lines


# -- index files ------------------------------------------------------------------------

def index_built_line(name: str, words: int, seconds: float, where: str) -> str:
    """``index build``: what was indexed, how long it took and where it went."""
    return f"{name}: {plural(words, 'word')} indexed in {seconds:.1f} s -> {where}"


def index_list_lines(rows: Sequence[dict], where: str) -> list[str]:
    """``index list``: a line an index file (the rows of ``index list --json``), or a line
    saying the directory ``where`` has none."""
    if not rows:
        return [f"no index files in {where} (build one with `cryptocomp index build en`)"]
    lines = []
    for r in rows:
        if "error" in r:
            lines.append(f"{r['name']}\tERROR: {r['error']}")
        else:
            lines.append(f"{r['name']}\t{r['words']} words\t{r['size'] / 1e6:.1f} MB\t"
                         f"{r['source']}")
    return lines


def index_info_lines(info: dict) -> list[str]:
    """``index info``: ``key: value`` a line, keys right-aligned (the payload length left out)."""
    return [f"{key:>16}: {value}" for key, value in info.items() if key != "payload_length"]
