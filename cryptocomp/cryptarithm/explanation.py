"""The answer key an author prints: the model's path to the solution as numbered steps a
person can follow (in Russian for a puzzle in Cyrillic, else in English).

Columns are numbered from the right (column 1 holds the units).  Each step names the
constraint it reads and what it concludes: ``column 1: D + E ends in Y: Y ≠ 0, 1``.  A
guess names the digits tried before it that failed.

>>> print("\\n".join(explain("ab+ab=bcc").lines))
1. No number starts with 0: A, B ≠ 0.
2. Column 3: carry = B: B = 1, the carry into column 3 is 1.
3. B = 1, so no other letter is 1.
4. Column 1: B + B ends in C: C = 2, the carry into column 2 is 0.
5. C = 2, so no other letter is 2.
6. Column 2: A + A + carry ends in C: A = 6.
7. Solution: 61+61=122.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from .deduction import Carry, Column, Columns, Narrowing, Step, Var
from .difficulty import NODES, SECONDS, Difficulty, Path, difficulty_of, solution_path, system_of
from .system import Relation, System, render_node

__all__ = ["Explanation", "explain", "step_lines", "language_of_system", "PHRASES"]

PHRASES = {
    "en": {
        "leading": "No number starts with 0: {symbols} ≠ 0.",
        "single": "{symbol} = {digit}, so no other letter is {digit}.",
        "hidden": "Every digit is used, and only {symbol} can be {digit}: {symbol} = {digit}.",
        "no_holder": "Every digit is used, but no letter can be {digit}: a contradiction.",
        "column": "Column {n}: {equation}: {result}.",
        "columns": "Columns {n} and {m} together ({lower}; {upper}): {result}.",
        "column_of": "{relation}, column {n}: {equation}: {result}.",
        "columns_of": "{relation}, columns {n} and {m} together ({lower}; {upper}): {result}.",
        "units": "The last {k} of both sides of {relation} agree: {result}.",
        "bounds": "The sizes of the numbers in {relation}: {result}.",
        "check": "Trying the cases left in {relation}: {result}.",
        "guess": "Guess {symbol} = {digit}.",
        "guess_after": "Guess {symbol} = {digit} ({tried} {fail}).",
        "fails": "fails", "fail": "fail",
        "solution": "Solution: {solution}.",
        "none": "No solution: {result}.",
        "unfinished": "(The explanation stops here: the puzzle takes too long to rate.)",
        "digit": "digit", "digits": "{k} digits",
        "carry": "carry", "ends": "{left} ends in {right}",
        "carry_is": "the carry into column {n} is {values}",
        "is": "{symbol} is {values}", "or": "or", "empty": "{symbol} has no digit left",
        "no_carry": "no carry into column {n} fits",
    },
    "ru": {
        "leading": "Ни одно число не начинается с 0: {symbols} ≠ 0.",
        "single": "{symbol} = {digit}, значит, никакая другая буква не равна {digit}.",
        "hidden": "Заняты все цифры, и только {symbol} может быть {digit}: {symbol} = {digit}.",
        "no_holder": "Заняты все цифры, но никакая буква не может быть {digit}: противоречие.",
        "column": "Столбец {n}: {equation}: {result}.",
        "columns": "Столбцы {n} и {m} вместе ({lower}; {upper}): {result}.",
        "column_of": "{relation}, столбец {n}: {equation}: {result}.",
        "columns_of": "{relation}, столбцы {n} и {m} вместе ({lower}; {upper}): {result}.",
        "units": "Последние {k} обеих частей {relation} совпадают: {result}.",
        "bounds": "Величины чисел в {relation}: {result}.",
        "check": "Перебор оставшихся вариантов в {relation}: {result}.",
        "guess": "Предположим, {symbol} = {digit}.",
        "guess_after": "Предположим, {symbol} = {digit} ({tried} {fail}).",
        "fails": "не подходит", "fail": "не подходят",
        "solution": "Решение: {solution}.",
        "none": "Решений нет: {result}.",
        "unfinished": "(Объяснение обрывается: головоломка слишком долго оценивается.)",
        "digit": "цифра", "digits": "{k} цифры",
        "carry": "перенос", "ends": "{left} оканчивается на {right}",
        "carry_is": "перенос в столбец {n} равен {values}",
        "is": "{symbol} — {values}", "or": "или", "empty": "для {symbol} не осталось цифр",
        "no_carry": "для переноса в столбец {n} нет значения",
    },
}


@dataclass(frozen=True)
class Explanation:
    """The numbered steps of the answer key and the difficulty they show."""

    lines: tuple[str, ...]
    difficulty: Difficulty


def language_of_system(system: System) -> str:
    """``ru`` when the puzzle's symbols are Cyrillic, else ``en``."""
    cyrillic = sum(unicodedata.name(s, "").startswith("CYRILLIC") for s in system.symbols)
    return "ru" if system.symbols and cyrillic * 2 >= len(system.symbols) else "en"


def explain(puzzle: str | System, *, base: int = 10, seconds: float = SECONDS,
            nodes: int = NODES) -> Explanation:
    """The answer key of a complete puzzle (its text in ``base``, or a system): numbered
    steps and the difficulty."""
    system = system_of(puzzle, base)
    path = solution_path(system, seconds=seconds, nodes=nodes)
    lines = step_lines(path, language_of_system(system))
    return Explanation(tuple(f"{i}. {line}" for i, line in enumerate(lines, 1)),
                       difficulty_of(path))


def step_lines(path: Path, lang: str = "en") -> list[str]:
    """One sentence a step of ``path``, then the solution (or why there is none)."""
    say = PHRASES[lang]
    system = path.model.system
    out = [_sentence(step, system, say) for step in path.steps]
    if not path.complete:
        out.append(say["unfinished"])
    elif path.solution is not None:
        out.append(say["solution"].format(solution=system.render(path.solution)))
    return out


def _upper(symbol: str) -> str:
    """A symbol as the printed puzzle shows it (capitals)."""
    up = symbol.upper()
    return up if len(up) == 1 else symbol


def _values(values: Sequence[int], say: dict[str, str]) -> str:
    """``2, 3 or 5``."""
    shown = [str(v) for v in sorted(values)]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} {say['or']} {shown[-1]}"


def _result(narrowed: Sequence[Narrowing], say: dict[str, str]) -> str:
    """What a step concludes: ``M = 1``, ``E is 2, 3 or 5``, ``N ≠ 0, 2``, carries last."""
    parts = []
    order = sorted(narrowed, key=lambda n: (isinstance(n.var, Carry), _key(n.var)))
    for n in order:
        if isinstance(n.var, Carry):
            parts.append(say["carry_is"].format(n=n.var.column + 1,
                                                values=_values(sorted(n.after), say))
                         if n.after else say["no_carry"].format(n=n.var.column + 1))
            continue
        name = _upper(n.var)
        removed = sorted(n.before - n.after)
        if not n.after:
            parts.append(say["empty"].format(symbol=name))
        elif len(n.after) == 1:
            parts.append(f"{name} = {min(n.after)}")
        elif len(n.after) <= len(removed):
            parts.append(say["is"].format(symbol=name, values=_values(sorted(n.after), say)))
        else:
            parts.append(f"{name} ≠ {', '.join(map(str, removed))}")
    return ", ".join(parts)


def _key(var: Var) -> tuple:
    return (var.relation, var.column) if isinstance(var, Carry) else (0, 0)


def _relation_text(relation: Relation, base: int) -> str:
    """A relation in capitals: ``SEND+MORE=MONEY``."""
    text = f"{render_node(relation.left, None, base)}{relation.op}" \
           f"{render_node(relation.right, None, base)}"
    return "".join(_upper(ch) for ch in text)


def _equation(c: Column, say: dict[str, str]) -> str:
    """A column as a person reads it: ``N + R + carry ends in E``."""
    left = [_upper(s) for s in c.plus]
    if c.const > 0:
        left.append(str(c.const))
    if c.carry_in is not None:
        left.append(say["carry"])
    right = [_upper(s) for s in c.minus]
    if c.const < 0:
        right.append(str(-c.const))
    lhs = " + ".join(left) or "0"
    rhs = " + ".join(right) or "0"
    if c.carry_out is None:
        return f"{lhs} = {rhs}"
    if len(right) == 1:
        return say["ends"].format(left=lhs, right=rhs)
    return f"{lhs} = {rhs} + {c.base} × {say['carry']}"


def _sentence(step: Step, system: System, say: dict[str, str]) -> str:
    """The sentence of one step."""
    kind = step.kind
    symbol = _upper(step.symbol) if step.symbol is not None else ""
    if kind == "leading":
        return say["leading"].format(symbols=", ".join(_upper(str(n.var)) for n in step.narrowed))
    if kind == "single":
        text = say["single"].format(symbol=symbol, digit=step.digit)
        fixed = [f"{_upper(str(n.var))} = {min(n.after)}" for n in step.narrowed
                 if len(n.after) == 1]
        return text[:-1] + ": " + ", ".join(fixed) + "." if fixed else text
    if kind == "hidden":
        key = "hidden" if step.narrowed else "no_holder"
        return say[key].format(symbol=symbol, digit=step.digit)
    if kind == "guess":
        if not step.refuted:
            return say["guess"].format(symbol=symbol, digit=step.digit)
        tried = ", ".join(f"{symbol} = {d}" for d in step.refuted)
        fail = say["fails"] if len(step.refuted) == 1 else say["fail"]
        return say["guess_after"].format(symbol=symbol, digit=step.digit, tried=tried,
                                         fail=fail)
    result = _result(step.narrowed, say)
    c = step.constraint
    assert c is not None
    relation = _relation_text(system.relations[c.lower.relation if isinstance(c, Columns)
                                               else c.relation], system.base)
    # a system's columns say which relation they belong to
    of = "_of" if len(system.relations) > 1 else ""
    if isinstance(c, Column):
        return say["column" + of].format(n=c.index + 1, equation=_equation(c, say),
                                         result=result, relation=relation)
    if isinstance(c, Columns):
        return say["columns" + of].format(n=c.lower.index + 1, m=c.upper.index + 1,
                                          lower=_equation(c.lower, say),
                                          upper=_equation(c.upper, say), result=result,
                                          relation=relation)
    if kind == "units":
        k = say["digit"] if c.digits == 1 else say["digits"].format(k=c.digits)  # type: ignore[union-attr]
        return say["units"].format(k=k, relation=relation, result=result)
    return say[kind].format(relation=relation, result=result)
