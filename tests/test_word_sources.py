"""The sources of word classes (English shipped data, Russian pymorphy3, class files) against
plain scans of what they read, and their wiring into index builds, the index header and
``index info``."""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cryptocomp.errors import DictionaryError
from cryptocomp.index import Index, build_index, load_index
from cryptocomp.index.english import english_classes, morphy
from cryptocomp.index.store import read_header, resolve_source, stale_reason
from cryptocomp.index.wordsources import classifier
from cryptocomp.shipped import shipped

SOURCES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _shipped_lines(name: str) -> list[str]:
    return gzip.decompress(shipped(f"classes/{name}").read_bytes()).decode().splitlines()


def _index(words: list[str], classify) -> Index:
    idx = Index.from_counts({w: len(words) - i for i, w in enumerate(words)},
                            classify=classify)
    idx._check()
    return idx


def _classes(idx: Index, word: str) -> set[str]:
    i = idx.id_of(word)
    assert i is not None, word
    return set(idx.classes_of(i)) - {"lemma", "unknown"}


# -- English -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def english():
    """(class lines word -> classes, ENABLE, morphy lemmas, exceptions) by plain scans."""
    classes = {}
    lines = _shipped_lines("en-classes.txt.gz")
    assert lines[0] == "# cryptocomp classes 1"
    for line in lines[1:]:
        if not line.startswith("#"):
            word, names = line.split("\t")
            classes[word] = set(names.split(","))
    enable = set(shipped("enable1.txt").read_text().split())
    lemmas, exceptions = {}, {}
    for line in _shipped_lines("en-morphy.txt.gz")[1:]:
        parts = line.split("\t")
        if len(parts) == 2:
            lemmas[parts[0]] = parts[1]
        else:
            exceptions.setdefault(parts[0], []).extend(parts[2].split())
    return classes, enable, lemmas, exceptions


def test_english_classes_match_the_shipped_data_on_a_sample(english):
    classes, enable, lemmas, exceptions = english
    rng = random.Random(26)
    sample = rng.sample(sorted(classes), 1500) + rng.sample(sorted(enable), 1500)
    sample += ["zzqxv", "qwrtpl", "contai"]
    words = sorted(set(sample))
    idx = _index(words, lambda ws: english_classes(ws))
    offensive = {w.strip() for w in shipped("classes/offensive-en.txt").read_text().splitlines()
                 if w.strip() and not w.startswith("#")}
    exempt = {w[1:] for w in offensive if w.startswith("-")}
    for word in words:
        got = _classes(idx, word)
        said = classes.get(word, set())
        # every class the data says is kept (offensive only where the curated list does not
        # take it out); inflections may add a class, never take one away
        expected = said - {"offensive"} if word in exempt else said
        assert expected - {"offensive"} <= got, word
        if "offensive" in said and word not in exempt:
            assert "offensive" in got, word
        if not said and morphy(word, lemmas, exceptions) is None and not word.endswith("s"):
            assert got <= {"offensive"}, word
        if not got:
            assert idx.id_of(word) in idx.in_class("unknown")


def test_english_spot_checks():
    junk = ["morey", "edson", "ansys", "takei", "mlas", "iiie", "atl", "sts", "contai"]
    words = [*junk, "monet", "pcms", "paris", "rose", "kt", "mph", "running", "run", "ran", "fucks",
             "taco", "boy", "the", "dvds", "ufos"]
    idx = _index(words, lambda ws: english_classes(ws))
    for word in junk:
        assert "dictionary" not in _classes(idx, word), word
    assert _classes(idx, "monet") == {"name"}
    assert {"dictionary", "name"} <= _classes(idx, "rose")
    for word in ("kt", "mph", "dvds", "ufos"):
        assert _classes(idx, word) == {"abbreviation"}, word
    assert "offensive" in _classes(idx, "fucks")
    assert "offensive" not in _classes(idx, "taco") | _classes(idx, "boy")
    groups = idx.lemma_groups()
    assert groups[idx.id_of("ran")] == idx.id_of("run")  # a form of run: WordNet's exception
    assert groups[idx.id_of("fucks")] >= len(idx)  # fuck is not in the list


def test_morphy_follows_wordnet_rules(english):
    _, _, lemmas, exceptions = english
    assert morphy("ran", lemmas, exceptions) == "run"          # an exception
    assert morphy("dogs", lemmas, exceptions) == "dog"         # noun -s
    assert morphy("churches", lemmas, exceptions) == "church"  # noun -ches
    assert morphy("walked", lemmas, exceptions) == "walk"      # verb -ed
    assert morphy("dog", lemmas, exceptions) == "dog"          # a lemma is its own base
    assert morphy("dones", lemmas, exceptions) is None         # no "don" + "es"
    assert morphy("qwrtpl", lemmas, exceptions) is None


# -- Russian -------------------------------------------------------------------------------

RU_SPOT = {"саратов": {"name"}, "ростова": {"name"}, "тарасов": {"name"},
           "гандон": {"dictionary", "offensive"}, "шлюха": {"dictionary", "offensive"},
           "сука": {"dictionary", "offensive"}, "мама": {"dictionary"},
           "роза": {"dictionary", "name"}, "сантоса": set(), "ёлка": {"dictionary"},
           "елка": {"dictionary"}}


def test_russian_spot_checks():
    from cryptocomp.index.russian import russian_classes

    idx = _index(sorted(RU_SPOT), lambda ws: russian_classes(ws))
    for word, expected in RU_SPOT.items():
        assert _classes(idx, word) == expected, word
    assert idx.class_source.startswith("pymorphy3 ")


def test_russian_classes_match_pymorphy3_parses_on_a_sample():
    """The dictionary lookups against MorphAnalyzer.parse, the slow plain path."""
    import pymorphy3

    from cryptocomp.index.russian import russian_classes

    m = pymorphy3.MorphAnalyzer(lang="ru")
    words = ["москва", "иван", "петровна", "ооо", "ссср", "дом", "стол", "бежал", "красивая",
             "её", "еще", "ещё", "хуй", "тарасова", "газпром", "ёжик", "ежик", "qwerty",
             "абырвалг", "вася", "нато", "кб"]
    # a sample of the dictionary's own words, and of them spelt with е for ё
    for prefix in ("ма", "пе", "сё", "ко", "ёл"):
        words += random.Random(prefix).sample(m.dictionary.words.keys(prefix), 40)
    words += [w.replace("ё", "е") for w in words if "ё" in w]
    words = sorted(set(w for w in words if w.isalpha()))
    idx = _index(words, lambda ws: russian_classes(ws))
    for word in words:
        parses = [p for p in m.parse(word)
                  if type(p.methods_stack[0][0]).__name__ == "DictionaryAnalyzer"]
        # the spelling as written first; its spellings with ё only when it has none
        parses = [p for p in parses if p.word == word] or parses
        got = _classes(idx, word)
        tags = [set(p.tag.grammemes) for p in parses]
        name = any(t & {"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"} for t in tags)
        abbr = any(t & {"Abbr", "Init"} for t in tags)
        plain = any(not t & {"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init"}
                    for t in tags)
        assert ("name" in got) == name, word
        assert ("abbreviation" in got) == abbr, word
        assert ("dictionary" in got) == plain, word
        if any("Obsc" in t for t in tags):
            assert "offensive" in got, word
        if not parses:
            assert got <= {"offensive"}, word
        else:
            i = idx.id_of(word)
            group = int(idx.lemma_groups()[i])
            normal = {p.normal_form for p in parses}
            lemma = idx.word(group) if group < len(idx) else None
            assert lemma is None or lemma in normal, word


def test_russian_folded_lemmas_are_folded():
    from cryptocomp.index.russian import russian_classes

    idx = _index(["елка", "елки", "еж", "ежа"], lambda ws: russian_classes(ws, fold_yo=True))
    groups = idx.lemma_groups()
    assert groups[idx.id_of("елки")] == idx.id_of("елка")
    assert groups[idx.id_of("ежа")] == idx.id_of("еж")
    assert _classes(idx, "еж") == {"dictionary"}


# -- wiring --------------------------------------------------------------------------------

WORDS = "monet 50\nmoney 40\nhoney 30\nparis 20\nzzqxv 10\nkt 5\n"


@pytest.fixture
def wordlist(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text(WORDS, encoding="utf-8")
    return path


def test_a_file_source_is_unclassified_unless_told(wordlist):
    index, path = build_index(str(wordlist))
    index._check()
    assert not index.classified
    assert "classes" not in read_header(path)["params"]


def test_a_file_source_with_lang_en_is_classified_and_stays_so(wordlist):
    index, path = build_index(str(wordlist), class_lang="en")
    index._check()
    assert index.classified and index.class_source.startswith("ENABLE")
    params = read_header(path)["params"]
    assert params["class_lang"] == "en" and params["classes"] == index.class_source
    assert stale_reason(read_header(path)) is None
    again = load_index(str(wordlist))  # a later use keeps the class source it was built with
    again._check()
    assert again.classified and "unknown" in again.classes_of(again.id_of("zzqxv"))
    assert "--lang en" in read_header(path).rebuild_hint


def test_a_class_file_adds_overrides_and_a_change_rebuilds(wordlist, tmp_path, caplog):
    classes = tmp_path / "mine.tsv"
    classes.write_text("# cryptocomp classes 1\nzzqxv\tdictionary\tzzq\nmonet\tunknown\n"
                       "bad line\nkt\tnoclass\n", encoding="utf-8")
    index, path = build_index(str(wordlist), class_lang="en", class_file=str(classes))
    index._check()
    assert "dictionary" in index.classes_of(index.id_of("zzqxv"))
    assert index.classes_of(index.id_of("monet"))[0] == "unknown"
    assert "abbreviation" in index.classes_of(index.id_of("kt"))  # its bad line was skipped
    assert "line 4" in caplog.text and "line 5" in caplog.text
    header = read_header(path)
    assert header["params"]["class_file"] == str(classes.resolve())
    assert stale_reason(header) is None
    classes.write_text("zzqxv\tname\n", encoding="utf-8")  # no header: version 1
    assert stale_reason(read_header(path)) == "its word classes come from another source"
    again = load_index(str(wordlist))
    again._check()
    assert again.classes_of(again.id_of("zzqxv"))[0] == "name"


def test_a_class_file_alone_classes_any_language(wordlist, tmp_path):
    classes = tmp_path / "mine.tsv"
    classes.write_text("money\tdictionary\nhoney\tdictionary,name\n", encoding="utf-8")
    index, _ = build_index(str(wordlist), class_file=str(classes))
    index._check()
    assert index.classes_of(index.id_of("honey"))[:2] == ("dictionary", "name")
    assert index.classes_of(index.id_of("paris"))[0] == "unknown"


def test_bad_class_options_are_one_line(wordlist, tmp_path):
    with pytest.raises(DictionaryError, match="no word-class source for language 'xx'"):
        resolve_source(str(wordlist), class_lang="xx")
    with pytest.raises(DictionaryError, match="class file"):
        resolve_source(str(wordlist), class_file=str(tmp_path / "missing.tsv"))
    bad = tmp_path / "v9.tsv"
    bad.write_text("# cryptocomp classes 9\nmoney\tdictionary\n", encoding="utf-8")
    with pytest.raises(DictionaryError, match="version '9'"):
        build_index(str(wordlist), class_file=str(bad))


def test_en_and_ru_language_sources_are_classified(_isolated_home):
    (_isolated_home / "freqdicts" / "en.txt").write_text(WORDS, encoding="utf-8")
    (_isolated_home / "freqdicts" / "ru.txt").write_text("мама 5\nсаратов 3\n", encoding="utf-8")
    assert resolve_source("en").class_lang == "en"
    assert resolve_source("ru", fold_yo=True).class_lang == "ru"
    index = load_index("ru", fold_yo=True)
    index._check()
    assert index.classes_of(index.id_of("саратов"))[0] == "name"
    assert classifier(None, None) is None
    with pytest.raises(DictionaryError, match="--lang ru is for a dictionary file"):
        resolve_source("en", class_lang="ru")


def _cli(*args: str, home) -> subprocess.CompletedProcess:
    env = dict(os.environ, CRYPTOCOMP_HOME=str(home), PYTHONPATH=SOURCES)
    return subprocess.run([sys.executable, "-m", "cryptocomp", *args], capture_output=True,
                          text=True, env=env, timeout=300)


def test_cli_index_build_and_info_show_the_classes(wordlist, tmp_path, _isolated_home):
    classes = tmp_path / "mine.tsv"
    classes.write_text("zzqxv\tname\n", encoding="utf-8")
    built = _cli("index", "build", str(wordlist), "--lang", "en", "--classes", str(classes),
                 home=_isolated_home)
    assert built.returncode == 0, built.stderr
    name = resolve_source(str(wordlist)).name
    info = _cli("index", "info", name, home=_isolated_home)
    assert info.returncode == 0, info.stderr
    assert "class_source: ENABLE" in info.stdout and "class file sha256" in info.stdout
    assert "classes: dictionary 2, name 3" in info.stdout, info.stdout
    as_json = json.loads(_cli("index", "info", name, "--json", home=_isolated_home).stdout)
    assert as_json["classes"]["name"] == 3 and as_json["classes"]["unknown"] == 0
    bad = _cli("index", "build", str(wordlist), "--lang", "xx", home=_isolated_home)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr


def test_a_batch_style_freshness_check_keeps_the_class_source(wordlist):
    """stale_reason with a source resolved without class options (as the batch runner does)
    judges the index as load_index would: fresh, not rebuilt every run."""
    _, path = build_index(str(wordlist), class_lang="en")
    src = resolve_source(str(wordlist))
    assert stale_reason(read_header(path), src) is None


def test_russian_obscene_forms_the_dictionary_lacks_are_offensive():
    from cryptocomp.index.russian import russian_classes

    words = ["заебал", "выебоны", "себе", "небо", "хуже", "спасибо", "абырвалг"]
    idx = _index(words, lambda ws: russian_classes(ws))
    assert _classes(idx, "заебал") == {"offensive"} == _classes(idx, "выебоны")
    for word in ("себе", "небо", "хуже", "спасибо"):
        assert "offensive" not in _classes(idx, word), word
    assert _classes(idx, "абырвалг") == set()


def _plain_morphy(word, lemmas, exceptions):
    """WordNet's rules tried one by one in their order (the oracle of the dispatch by last
    letter)."""
    rules = {"n": [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
                   ("shes", "sh"), ("men", "man"), ("ies", "y")],
             "v": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
                   ("ing", "e"), ("ing", "")],
             "a": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")]}
    if word in lemmas:
        return word
    if exceptions.get(word):
        return exceptions[word][0]
    for pos, pairs in rules.items():
        for suffix, ending in pairs:
            if len(word) > len(suffix) + 1 and word.endswith(suffix):
                base = word[:-len(suffix)] + ending
                if suffix == "es" and not ending and \
                        not base.endswith(("s", "x", "z", "ch", "sh", "o")):
                    continue
                if pos in lemmas.get(base, ""):
                    return base
    return None


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet="abcdeghimnorstxyz", min_size=1, max_size=9))
def test_morphy_against_its_rules_one_by_one(english, word):
    _, _, lemmas, exceptions = english
    assert morphy(word, lemmas, exceptions) == _plain_morphy(word, lemmas, exceptions)


def test_morphy_against_its_rules_on_the_enable_words(english):
    _, enable, lemmas, exceptions = english
    for word in sorted(enable)[::37]:
        assert morphy(word, lemmas, exceptions) == _plain_morphy(word, lemmas, exceptions), word
