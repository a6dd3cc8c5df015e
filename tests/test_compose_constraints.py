"""The author's constraints on the composed word: templates, letters, lengths, frequency.

The oracle is the template idea taken literally: for every assignment of digits to the
puzzle's letters, the unknown's value becomes a template (letters of the puzzle where
they hold its digits, numbered new letters elsewhere), the index answers it with its
bitmap families (``Index.structure``: ``by_pattern``, ``at``, minus ``having``), and a
word is composed when exactly one assignment's template takes it and it passes the
constraints, checked here by a plain scan of the word list.
"""

from __future__ import annotations

import fnmatch
import itertools
import json
import string
from collections import Counter

import pytest
from compose_oracle import value_of
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from cryptocomp import Index, WordFilter
from cryptocomp.cryptarithm.candidates import candidate_ids
from cryptocomp.cryptarithm.compose import compose
from cryptocomp.cryptarithm.expr import parse
from cryptocomp.cryptarithm.solve import solve
from cryptocomp.errors import CryptocompError, ExpressionError

# -- puzzles as tuples: ("w", letters) | ("?",) | (op, left, right) ---------------------------


def _text(tree) -> str:
    if tree[0] == "w":
        return tree[1]
    if tree[0] == "?":
        return "?"
    return f"({_text(tree[1])}{tree[0]}{_text(tree[2])})"


def _words_of(tree) -> list[str]:
    if tree[0] == "w":
        return [tree[1]]
    if tree[0] == "?":
        return []
    return _words_of(tree[1]) + _words_of(tree[2])


def _unknown_values(known, op, hole_left, other):
    """(assignment, value of '?') for every valid assignment of the puzzle's letters, for
    the puzzle ``known = other op ?`` (or ``? op other``; ``known = ?`` when op is None)."""
    words = _words_of(known) + ([] if other is None else _words_of(other))
    letters = list(dict.fromkeys("".join(words)))
    for digits in itertools.permutations(range(10), len(letters)):
        fill = dict(zip(letters, digits))
        if any(len(w) > 1 and fill[w[0]] == 0 for w in words):
            continue
        t = value_of(known, fill)
        if t is None:
            continue
        if op is None:
            yield fill, t
            continue
        o = value_of(other, fill)
        if o is None:
            continue
        if op == "+":
            x = t - o
        elif op == "-":
            x = t + o if hole_left else o - t
        elif op == "*":
            x = None if o == 0 or t % o else t // o
        elif hole_left:
            x = t * o if o else None
        else:
            x = None if t == 0 or o == 0 or o % t else o // t
        if x is not None:
            yield fill, x


def _template_of(x: int, fill: dict[str, int]) -> tuple[list, str]:
    """The unknown's template under one assignment (letters of the puzzle where they hold
    the digit, else the position where that digit is first seen), and the puzzle's letters
    the template does not place (no new letter may be one of them)."""
    letter_of = {d: c for c, d in fill.items()}
    first: dict[str, int] = {}
    template: list = []
    for p, ch in enumerate(str(x)):
        if int(ch) in letter_of:
            template.append(letter_of[int(ch)])
        else:
            template.append(first.setdefault(ch, p))
    unplaced = "".join(c for c in fill if c not in template)
    return template, unplaced


def _fits(word: str, template: str | None) -> bool:
    if template is None:
        return True
    return fnmatch.fnmatchcase(word, template)  # '?' one letter, '*' any run


def _passes(word: str, rank: int, count: int, c: WordFilter, template,
            latin: bool | None) -> bool:
    """The constraints, by a plain look at one word (``latin``: its script, if asked)."""
    if latin is not None and latin != all(ch in string.ascii_lowercase for ch in word):
        return False
    if not _fits(word, template):
        return False
    have = Counter(word)
    if any(have[ch] < k for ch, k in Counter(c.contains).items()):
        return False
    if any(ch in word for ch in c.excludes):
        return False
    if c.min_length is not None and len(word) < c.min_length:
        return False
    if c.max_length is not None and len(word) > c.max_length:
        return False
    if c.top is not None and rank >= c.top:
        return False
    return c.min_count is None or count >= c.min_count


def _by_templates(index: Index, values, c: WordFilter, template, latin=True) -> list[str]:
    """The composer's answer by the literal route: one bitmap query per assignment."""
    hits: Counter[int] = Counter()
    for fill, x in values:
        if x < 0:
            continue
        t, unplaced = _template_of(x, fill)
        for i in index.structure(t, forbidden=unplaced).ids:
            hits[i] += 1
    return [index.words[i] for i in sorted(hits) if hits[i] == 1
            and _passes(index.words[i], i, index.counts[i], c, template, latin)]


# -- the oracle test --------------------------------------------------------------------------

_LETTERS, _EXTRA = "abc", "xyz"


@st.composite
def _cases(draw):
    """(puzzle text, known, op, hole_left, other, counts, constraints, template)."""
    word = st.text(_LETTERS, min_size=1, max_size=3).map(lambda w: ("w", w))
    pair = st.tuples(st.sampled_from("+-*/"), word, word)
    # mostly an operation: 'abc=?' has one template for all assignments, never unique
    known = draw(pair if draw(st.integers(0, 3)) else word)
    op = draw(st.sampled_from([None, "+", "-", "*", "/"]))
    hole_left = draw(st.booleans())
    other = None if op is None else draw(word)
    hole_side = ("?",) if op is None else (op, ("?",), other) if hole_left else (op, other, ("?",))
    values = list(_unknown_values(known, op, hole_left, other))
    # the dictionary: words spelling values of the unknown (those of templates that one
    # assignment alone gives are composed, unless a constraint drops them), random words,
    # words of another script
    templates = Counter(tuple(_template_of(x, fill)[0]) for fill, x in values if x >= 0)
    once = sorted((t for t, n in templates.items() if n == 1), key=str)
    picked = draw(st.lists(st.sampled_from(once), min_size=1, max_size=4)) if once else []
    picked += draw(st.lists(st.sampled_from(sorted(templates, key=str)), max_size=3)) \
        if templates else []
    words = []
    for t in picked:
        new: dict[int, str] = {}
        fresh = iter(_EXTRA)
        words.append("".join(ch if isinstance(ch, str) else new.setdefault(ch, next(fresh, "x"))
                             for ch in t))
    words += draw(st.lists(st.text(_LETTERS + _EXTRA, min_size=1, max_size=4), max_size=5))
    words += draw(st.lists(st.text("жз", min_size=1, max_size=3), max_size=2))
    words = list(dict.fromkeys(w for w in words if w)) or ["a"]
    counts = {w: draw(st.integers(1, 40)) for w in words}
    # a template shaped on one of the words, or none
    template = None
    if draw(st.booleans()):
        base = draw(st.sampled_from(words))
        if all(ch in _LETTERS + _EXTRA for ch in base):
            keep = draw(st.lists(st.booleans(), min_size=len(base), max_size=len(base)))
            template = "".join(ch if k else "?" for ch, k in zip(base, keep))
            if "?" not in template:
                template = template[:-1] + "?"
            # sometimes a run becomes '*': a prefix, a suffix or a middle of the word
            cut = draw(st.integers(0, len(base)))
            star = draw(st.sampled_from([None, "prefix", "suffix", "middle"]))
            if star == "prefix":
                template = template[:cut] + "*"
            elif star == "suffix":
                template = "*" + template[cut:]
            elif star == "middle":
                template = "*" + template[cut:cut + 1] + "*"
    alphabet = sorted(set("".join(words)) & set(_LETTERS + _EXTRA)) or ["a"]
    # each constraint present in about one case of five, so that some words stay
    letters = st.lists(st.sampled_from(alphabet), max_size=2).map("".join)
    sometimes = st.integers(0, 4).map(lambda k: k == 0)
    contains = draw(letters) if draw(sometimes) else ""
    excludes = draw(letters) if draw(sometimes) else ""
    excludes = "".join(ch for ch in excludes if ch not in contains + (template or ""))
    lo = draw(st.integers(1, 4)) if draw(sometimes) else None
    hi = draw(st.integers(lo or 1, 5)) if draw(sometimes) else None
    c = WordFilter(contains=contains, excludes=excludes, min_length=lo, max_length=hi,
                   top=draw(st.integers(1, 12)) if draw(sometimes) else None,
                   min_count=draw(st.integers(1, 30)) if draw(sometimes) else None)
    # a lone '?' is the unknown of any length: a one-letter template is written [?]
    unknown = "?" if template is None else \
        f"[{template}]" if template == "?" or "*" in template else template
    text = f"{_text(known)}={_text(hole_side).replace('?', unknown)}"
    event("no template" if template is None else "* template" if "*" in template
          else "template")
    event(f"unknown under {op}" if op else "unknown alone")
    return text, values, counts, c, template


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_cases())
@pytest.mark.slow
def test_composer_equals_one_bitmap_query_per_assignment(case):
    text, values, counts, c, template = case
    index = Index.from_counts(counts)
    index._check()
    try:
        got = compose(text, index, c)
    except ExpressionError as exc:
        assert "not determined" in str(exc)
        assume(False)
    want = _by_templates(index, values, c, template)
    assert [r.word for r in got] == want, text
    event(f"{min(len(want), 2)}+ words")
    event(f"constrained: {c.describe() != '' or template is not None}")
    for r in got:
        r._check()
        assert solve(r.puzzle).count == 1


@settings(max_examples=60, deadline=None)
@given(_cases())
def test_candidates_are_the_constraints_by_plain_scan(case):
    text, _, counts, c, template = case
    index = Index.from_counts(counts)
    ids = candidate_ids(index, parse(text), c)
    want = [i for i, w in enumerate(index.words)
            if _passes(w, i, index.counts[i], c, template, latin=None)]
    assert sorted(ids) == want


# -- fixed cases ------------------------------------------------------------------------------

_EN = {"money": 500, "honey": 300, "mommy": 20, "demon": 90, "nodes": 80, "romeo": 70,
       "monet": 60, "mondo": 50, "morey": 40, "sorey": 30, "more": 450, "жена": 3}


def test_template_send_more_examples():
    index = Index.from_counts(_EN)
    every = [r.word for r in compose("SEND+MORE", index)]
    assert [r.word for r in compose("SEND+MORE=?O???", index)] == \
        [w for w in every if w[1] == "o"]
    assert [r.word for r in compose("SEND+MORE=m????", index)] == \
        [w for w in every if w[0] == "m"]
    assert [r.word for r in compose("send+more=m.n??", index)] == ["money", "monet", "mondo"]
    assert [r.word for r in compose("send+more=????", index)] == []
    assert [r.word for r in compose("send+more", index, WordFilter(contains="ey"))] == \
        [w for w in every if "e" in w and "y" in w]
    assert [r.word for r in compose("send+more", index, WordFilter(excludes="d"))] == \
        [w for w in every if "d" not in w]
    assert [r.word for r in compose("send+more", index, WordFilter(contains="oo"))] == \
        [w for w in every if w.count("o") >= 2]
    r = compose("send+more=m????", index, WordFilter(excludes="t"))[0]
    assert (r.puzzle, r.solution) == ("send+more=money", "9567+1085=10652")


def test_unknown_operand_with_a_template():
    index = Index.from_counts(_EN)
    assert [r.word for r in compose("send+m???=money", index)] == \
        [r.word for r in compose("send+?=money", index) if r.word.startswith("m")
         and len(r.word) == 4]


def test_star_templates_match_fnmatch():
    index = Index.from_counts(_EN)
    every = [r.word for r in compose("SEND+MORE", index)]
    for template in ["mon*", "*y", "m*y", "*o*", "*"]:
        got = [r.word for r in compose(f"SEND+MORE=[{template}]", index)]
        assert got == [w for w in every if fnmatch.fnmatchcase(w, template)], template


@pytest.mark.parametrize("text, kwargs, fragment, position", [
    ("send+more=m????", {"excludes": "m"}, "letter 'm' of the template is excluded", 10),
    ("send+more=q????", {}, "letter 'q' of the template does not occur", 10),
    ("send+more", {"contains": "e1"}, "contains takes letters, not '1'", None),
    ("send+more", {"contains": "y", "excludes": "y"}, "both required and excluded", None),
    ("send+more", {"max_length": -1}, "max_length must not be negative", None),
])
def test_constraint_errors_are_one_line(text, kwargs, fragment, position):
    with pytest.raises(CryptocompError) as info:
        compose(text, Index.from_counts(_EN), WordFilter(**kwargs))
    assert fragment in str(info.value) and "\n" not in str(info.value)
    assert getattr(info.value, "position", None) == position


def test_constraints_never_change_what_counts_as_a_solution():
    # a constraint removes words; it never makes a non-unique word unique
    index = Index.from_counts(_EN)
    every = {r.word: r.solution for r in compose("send+more", index)}
    for kwargs in ({"contains": "m"}, {"excludes": "y"}, {"min_length": 5, "max_length": 5},
                   {"top": 3}, {"min_count": 60}):
        for r in compose("send+more", index, WordFilter(**kwargs)):
            assert every[r.word] == r.solution


# -- command line and prompt --------------------------------------------------------------------

@pytest.fixture
def en_file(tmp_path):
    path = tmp_path / "en.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in _EN.items()), encoding="utf-8")
    return path


def test_cli_template_contains_excludes(en_file, capsys):
    from cryptocomp.cli import main

    assert main(["compose", "SEND+MORE=m????", "--dict", str(en_file), "--excludes", "t",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [d["word"] for d in doc] == ["money", "mondo", "morey"]
    assert main(["compose", "send+more", "--dict", str(en_file), "--contains", "e,y"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines] == ["send+more=money", "send+more=morey",
                                                      "send+more=sorey"]


@pytest.mark.parametrize("argv, message", [
    (["compose", "send+more", "--contains", "1"], "--contains takes letters, not '1'"),
    (["compose", "send+more=m????", "--excludes", "m"],
     "letter 'm' of the template is excluded (at position 11)"),
    (["compose", "send+more=[mon"], "expected ']' to close the template (at position 15)"),
    (["compose", "send+more=ж???"], "is Cyrillic but the puzzle is Latin"),
])
def test_cli_constraint_errors(en_file, capsys, argv, message):
    from cryptocomp.cli import main

    assert main(argv + ["--dict", str(en_file)]) == 2
    # the first use of the dictionary builds its index (one line saying so), then one error
    lines = [line for line in capsys.readouterr().err.splitlines()
             if not line.startswith("cryptocomp: saved index")]
    assert len(lines) == 1 and lines[0].startswith("cryptocomp: error: ") and message in lines[0]


def test_prompt_constraints():
    from cryptocomp.prompt.session import Session

    session = Session(Index.from_counts(_EN))
    every = [row.word for row in session.execute("SEND+MORE").result.rows]
    result = session.execute("SEND+MORE=m????").result
    assert [row.word for row in result.rows] == [w for w in every if w[0] == "m"]
    assert result.title == "send+more=m????"
    assert "contain ey" in session.execute(":contains ey").message
    assert "contains ey" in session.toolbar()
    result = session.execute("send+more").result
    assert [row.word for row in result.rows] == ["money", "morey", "sorey"]
    assert result.title == "send+more=? (contains ey)"
    with pytest.raises(CryptocompError, match="the letter is required"):
        session.execute(":excludes y")
    session.execute(":excludes m")
    session.execute(":length 5")
    assert [row.word for row in session.execute("send+more").result.rows] == ["sorey"]
    assert "length 5" in session.toolbar()
    for command in (":length off", ":contains off", ":excludes off"):
        session.execute(command)
    assert [row.word for row in session.execute("send+more").result.rows] == every
    assert session.settings.length == (None, None) and not session.settings.words.contains
    session._check()


@pytest.mark.parametrize("arg, length", [("5", (5, 5)), ("4-6", (4, 6)), ("5-", (5, None)),
                                         ("-7", (None, 7)), ("off", (None, None))])
def test_prompt_length_forms(arg, length):
    from cryptocomp.prompt.settings import parse_length

    assert parse_length(arg) == length


@pytest.mark.parametrize("command", [":length 6-4", ":length x", ":length 0", ":contains 1",
                                     ":excludes ,"])
def test_prompt_constraint_errors(command):
    from cryptocomp.prompt.session import Session

    with pytest.raises(CryptocompError) as info:
        Session(Index.from_counts(_EN)).execute(command)
    assert "\n" not in str(info.value)


def test_help_shows_templates_as_typed():
    from cryptocomp.prompt import help_rows, help_table, render_ansi

    text = render_ansi(help_table(help_rows()), color_system=None, width=120)
    assert "SEND+MORE=m????" in text and "[con*]" in text
    assert ":contains LETTERS|off" in text and ":length N|LO-HI|off" in text
