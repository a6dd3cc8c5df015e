"""Small pieces of text every result shows: counts with their noun, frequencies per million."""

from __future__ import annotations

__all__ = ["per_million", "per_million_text", "plural"]


def per_million(count: int, total: int) -> float:
    """Uses per million words of a dictionary whose counts add up to ``total``."""
    return count * 1e6 / total if total else 0.0


def per_million_text(x: float) -> str:
    """A frequency per million in a few characters: 461, 12.13, 0.0042."""
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 0.01:
        return f"{x:.2f}"
    return f"{x:.2g}"


def plural(n: int, noun: str) -> str:
    """``n`` and the noun, in the plural unless n is 1: "1 tile", "2 tiles", "1,000 nodes"."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"
