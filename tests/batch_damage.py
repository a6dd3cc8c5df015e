"""Damage done to a batch output file or journal in the fuzz tests: cut, bytes changed,
spans dropped or doubled."""

from __future__ import annotations

from hypothesis import strategies as st


def damage(text: bytearray, data: st.DataObject) -> bytearray:
    """``text`` cut at a drawn length, then up to three drawn changes."""
    text = text[:data.draw(st.integers(0, len(text)))]
    for _ in range(data.draw(st.integers(0, 3))):
        if not text:
            break
        i = data.draw(st.integers(0, len(text) - 1))
        kind = data.draw(st.sampled_from(["byte", "drop", "dup"]))
        if kind == "byte":
            text[i] = data.draw(st.integers(0, 255))
        elif kind == "drop":
            del text[i:i + data.draw(st.integers(1, 40))]
        else:
            text[i:i] = text[i:i + data.draw(st.integers(1, 40))]
    return text
