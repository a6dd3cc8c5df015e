"""A check the generation tests share: a printed solution is the puzzle in digits."""

from __future__ import annotations


def holds(puzzle: str, equation: str) -> bool:
    """The equation is the puzzle with one digit a symbol (distinct symbols distinct
    digits), no leading zero, and true."""
    words = puzzle.replace("=", " ").replace("+", " ").replace("*", " ").split()
    numbers = equation.replace("=", " ").replace("+", " ").replace("*", " ").split()
    fill: dict[str, str] = {}
    for w, n in zip(words, numbers, strict=True):
        if len(w) != len(n) or (len(n) > 1 and n[0] == "0"):
            return False
        for ch, d in zip(w, n):
            if fill.setdefault(ch, d) != d:
                return False
    if len(set(fill.values())) != len(fill):
        return False
    left, right = equation.split("=")
    if "*" in left:
        value = 1
        for n in left.split("*"):
            value *= int(n)
    else:
        value = sum(int(n) for n in left.split("+"))
    return value == sum(int(n) for n in right.split("+"))
