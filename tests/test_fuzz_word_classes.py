"""The fuzz suite for --words CLASSES, --min-score N and :words: any text gives a result or
one clear error line, never a traceback (the checks of test_fuzz_cli)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_cli import FUZZ, JUNK, NUMBERS, WORDS, check, run_cli

from cryptocomp.index.classes import CLASS_NAMES

CLASSES = st.one_of(
    st.lists(st.sampled_from([*CLASS_NAMES, "all", "ALL", " ", "", "nouns", "default"]),
             max_size=4).map(",".join), JUNK)


@pytest.fixture
def dict_path(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in WORDS.items()), encoding="utf-8")
    return path


@FUZZ
@given(data=st.data())
def test_words_option_everywhere(dict_path, data):
    draw = data.draw
    command = draw(st.sampled_from([["compose", "send+more"], ["words", "????"],
                                    ["rack", "money?"], ["square", "2", "--time", "5"]]))
    argv = [*command, "--dict", str(dict_path), "--words", draw(CLASSES)]
    if draw(st.booleans()):
        argv += ["--min-score", draw(NUMBERS)]
    if draw(st.booleans()):
        argv.append("--json")
    check(run_cli(argv))


@FUZZ
@given(data=st.data())
def test_words_command_at_the_prompt(dict_path, data):
    lines = data.draw(st.lists(st.one_of(CLASSES.map(lambda c: f":words {c}"),
                                         st.sampled_from(["SEND+MORE", "????", ":words"])),
                               max_size=5))
    check(run_cli(["--dict", str(dict_path)], stdin="\n".join(lines) + "\n"), pipe=True)
