"""Files the user names (issue 31, items 3, 8, 10, 13, 17): names that are not UTF-8, FIFOs
and devices where an input file should be, gzip bombs, what every output option does with
what is already at its path, and error messages that name the file at fault."""

from __future__ import annotations

import contextlib
import gzip
import os
import signal
import stat
import threading
import time
from pathlib import Path

import pytest

from cryptocomp import files
from cryptocomp.arrow.clues import CLUE_MAGIC, ClueError, load_clues
from cryptocomp.arrow.phrases import PhraseError, read_phrases
from cryptocomp.cli import main
from cryptocomp.errors import BatchError, CryptocompError, DictionaryError, IndexFileError
from cryptocomp.files import write_atomic

BAD = os.fsdecode(b"\xfe\xff")  # a name that is not UTF-8, as Python holds it
WORDS = ["cat", "act", "tac", "ace", "tea", "eat", "ate", "dog", "god", "ode", "toe", "cot"]


@contextlib.contextmanager
def _within(seconds: int):
    """Fail, instead of hanging the suite, when the body blocks (a FIFO opened for reading
    waits for a writer forever)."""
    def expired(signum, frame):
        raise AssertionError(f"blocked for more than {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _dict(path: Path, words=WORDS) -> Path:
    path.write_text("".join(f"{w} {100 - i}\n" for i, w in enumerate(words)), encoding="utf-8")
    return path


def _one_clear_line(err: str, *parts: str) -> None:
    """Stderr ends with one 'cryptocomp: error:' line (after any progress lines), printable
    as strict UTF-8, naming ``parts``."""
    lines = err.splitlines()
    assert lines and lines[-1].startswith("cryptocomp: error: "), err
    assert "Traceback" not in err and sum("error:" in line for line in lines) == 1, err
    err.encode("utf-8")  # a surrogate left in would fail on a UTF-8 terminal
    for part in parts:
        assert part in lines[-1], (part, err)


def _mknod(path: Path, minor: int) -> Path:
    """A character device of the memory driver (3: null, 7: full) at ``path``."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("cannot make device nodes here")
    return path


# -- item 3: names that are not UTF-8 ---------------------------------------------------------

def test_a_dictionary_whose_name_is_not_utf8_works_and_is_shown_with_escapes(tmp_path, capsys):
    path = _dict(tmp_path / f"{BAD}.txt")
    assert main(["words", "c??", "--dict", str(path)]) == 0
    assert capsys.readouterr().out.split()[::2] == ["cat", "cot"]
    assert main(["index", "list"]) == 0  # the header records the name; stdout shows it
    out = capsys.readouterr().out
    out.encode("utf-8")
    assert "\\xfe\\xff.txt" in out
    assert main(["index", "list", "--json"]) == 0
    assert "\\\\xfe\\\\xff.txt" in capsys.readouterr().out  # JSON of the escaped text
    name = next(p.stem for p in Path(os.environ["CRYPTOCOMP_HOME"], "indexes").iterdir())
    assert main(["index", "info", name]) == 0
    out = capsys.readouterr().out
    out.encode("utf-8")
    assert "fresh" in out and "\\xfe\\xff.txt" in out


def test_every_path_option_refuses_a_missing_name_that_is_not_utf8_in_one_line(tmp_path,
                                                                                capsys):
    d = str(_dict(tmp_path / "d.txt"))
    grid = tmp_path / "g.txt"
    grid.write_text("...\n", encoding="utf-8")
    gone = str(tmp_path / f"no{BAD}")
    for argv in (["words", "c??", "--dict", gone],
                 ["fill", gone, "--dict", d],
                 ["fill", str(grid), "--dict", d, "--clues", gone],
                 ["fill", str(grid), "--dict", d, "--svg", f"{gone}/out.svg"],
                 ["fill", str(grid), "--dict", d, "--ipuz", f"{gone}/out.ipuz"],
                 ["swedish", "--size", "5x5", "--dict", d, "--clues", gone],
                 ["swedish", "--size", "5x5", "--dict", d, "--phrases", gone,
                  "--clues", "none"],
                 ["compose", "--batch", gone, gone, "--dict", d],
                 ["index", "info", gone]):
        assert main(argv) == 2, argv
        _one_clear_line(capsys.readouterr().err, "no\\xfe\\xff")


def test_outputs_whose_names_are_not_utf8_are_written(tmp_path, capsys):
    d = str(_dict(tmp_path / "d.txt", ["ab", "cd", "ac", "bd"]))
    grid = tmp_path / f"g{BAD}.txt"
    grid.write_text("..\n..\n", encoding="utf-8")
    svg, ipuz = tmp_path / f"o{BAD}.svg", tmp_path / f"o{BAD}.ipuz"
    assert main(["fill", str(grid), "--dict", d, "--svg", str(svg), "--ipuz", str(ipuz)]) == 0
    assert b"<svg" in svg.read_bytes()
    assert '"title": "g\\\\xfe\\\\xff"' in ipuz.read_text(encoding="utf-8")  # text, not bytes


def test_shown_escapes_what_would_break_the_line():
    assert files.shown("plain/ёж.txt") == "plain/ёж.txt"
    assert files.shown(f"a{BAD}b") == "a\\xfe\\xffb"
    assert files.shown("two\nlines\t.txt") == "two\\nlines\\t.txt"
    assert files.shown(b"by\xfetes") == "by\\xfetes"


# -- item 8: only regular files are read ------------------------------------------------------

def _readers(tmp_path: Path):
    """Every reader of an input file, as (name, call with a path)."""
    from cryptocomp.crossword.gridfile import read_grid
    from cryptocomp.crossword.ipuz import read_clues
    from cryptocomp.index.freqdict import file_sha256, load_freqdict
    from cryptocomp.index.header import read_header
    from cryptocomp.index.store import index_checksum, read_index, resolve_source

    return [("dictionary", load_freqdict), ("dictionary hash", file_sha256),
            ("dictionary source", resolve_source), ("index header", read_header),
            ("index", lambda p: read_index(Path(p))), ("index checksum", index_checksum),
            ("grid", read_grid), ("ipuz clues", read_clues), ("clues", load_clues),
            ("phrases", read_phrases)]


def test_a_fifo_or_a_device_as_any_input_file_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    for name, read in _readers(tmp_path):
        for path, kind in ((fifo, "named pipe (FIFO)"), (Path("/dev/zero"), "character device"),
                           (Path("/dev/null"), "character device"), (tmp_path, "directory")):
            with _within(5), pytest.raises(CryptocompError) as err:
                read(str(path))
            assert kind in str(err.value) and str(path) in str(err.value), (name, err.value)


def test_a_fifo_in_the_index_directory_and_a_header_naming_dev_zero_do_not_block(tmp_path,
                                                                                 capsys):
    from cryptocomp.index.store import index_dir, read_header, stale_reason

    d = tmp_path / "d.txt"
    _dict(d)
    assert main(["index", "build", str(d)]) == 0
    built = next(index_dir().iterdir())
    os.mkfifo(index_dir() / "pipe.ccidx")
    (index_dir() / "zero.ccidx").symlink_to("/dev/zero")
    with _within(10):
        assert main(["index", "list"]) == 0
        out = capsys.readouterr().out
        assert "pipe\tERROR: index file is a named pipe (FIFO)" in out
        assert "zero\tERROR: index file is a character device" in out
        assert main(["index", "info", "pipe"]) == 2
        _one_clear_line(capsys.readouterr().err, "named pipe (FIFO)")
        d.unlink()
        d.symlink_to("/dev/zero")  # the header's source is now endless
        assert "character device" in stale_reason(read_header(built))
        assert main(["index", "info", built.stem]) == 0
        assert "stale: its dictionary cannot be read" in capsys.readouterr().out
        assert main(["words", "c??", "--dict", str(d)]) == 2
        _one_clear_line(capsys.readouterr().err, "character device", str(d))


def test_batch_word_lists_and_the_batch_output_refuse_fifos(tmp_path, capsys):
    d = str(_dict(tmp_path / "d.txt"))
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    words = tmp_path / "w.txt"
    words.write_text("cat\ndog\n", encoding="utf-8")
    with _within(10):
        assert main(["compose", "--batch", str(fifo), str(words), "--dict", d]) == 2
        _one_clear_line(capsys.readouterr().err, "word list is a named pipe (FIFO)")
        for target in (fifo, Path("/dev/null"), tmp_path):
            assert main(["compose", "--batch", str(words), str(words), "--dict", d, "--jobs",
                         "1", "--output", str(target)]) == 2
            _one_clear_line(capsys.readouterr().err, "not a regular file", str(target))
    assert not Path("/dev/null.lock").exists() and not Path("/dev/null.journal").exists()
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_batch_output_behind_a_link_keeps_its_journal_and_lock_beside_the_target(tmp_path,
                                                                                   capsys):
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    d = str(_dict(tmp_path / "d.txt"))
    words = tmp_path / "w.txt"
    words.write_text("cat\ndog\n", encoding="utf-8")
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.txt"
    link = tmp_path / "out.txt"
    link.symlink_to(target)
    argv = ["compose", "--batch", str(words), str(words), "--dict", d, "--jobs", "1"]
    assert main(argv + ["--output", str(link)]) == 0
    assert link.is_symlink() and target.read_text(encoding="utf-8").startswith("# cryptocomp")
    assert main(argv + ["--output", str(target), "--resume"]) == 0  # the same batch file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.txt", "out.txt", "real", "w.txt"]


# -- item 10: compressed input is bounded -----------------------------------------------------

def _members(tmp_path: Path, name: str, block: bytes, total: int) -> Path:
    """A gzip file of ``total`` bytes once decompressed, made of members of ``block``
    (a 1 MB file can hold a gigabyte this way; cheap to make)."""
    member = gzip.compress(block, compresslevel=9)
    path = tmp_path / name
    path.write_bytes(member * (total // len(block)))
    return path


def test_a_gzip_bomb_of_one_long_line_is_refused_quickly(tmp_path):
    bomb = _members(tmp_path, "zeros.tsv.gz", bytes(2**24), 2**28)  # 256 MiB of NULs
    assert bomb.stat().st_size < 2**20
    start = time.process_time()
    with pytest.raises(ClueError, match=r"zeros\.tsv\.gz: a line of more than 1,048,576 bytes"):
        load_clues(bomb)
    assert time.process_time() - start < 1.0


def test_a_gzip_bomb_of_good_lines_is_refused_at_the_size_limit(tmp_path, monkeypatch):
    assert files.MAX_DECOMPRESSED >= 20 * 2_911_901  # the shipped WordNet clues, with room
    monkeypatch.setattr(files, "MAX_DECOMPRESSED", 2**20)  # a small limit: a small bomb
    bomb = _members(tmp_path, "lines.tsv.gz", b"dog\tcanine friend\n" * 2**16, 2**22)
    with pytest.raises(ClueError, match=r"lines\.tsv\.gz: more than 1 MiB once decompressed"):
        load_clues(bomb)
    ok = _members(tmp_path, "ok.tsv.gz", b"dog\tcanine friend\n" * 2**10, 2**19)
    assert load_clues(ok).clues("dog") == ("canine friend",)  # members are all read


def test_corrupt_gzip_is_one_line(tmp_path):
    good = gzip.compress(b"dog\tcanine\n")
    for name, data, why in (("cut.gz", good[:-6], "ends early"),
                            ("junk.gz", good + b"junk", "trailing bytes"),
                            ("bad.gz", good[:3] + b"\xff" * 30, "corrupt gzip data")):
        (tmp_path / name).write_bytes(data)
        with pytest.raises(ClueError, match=why) as err:
            load_clues(tmp_path / name)
        assert "\n" not in str(err.value)
    (tmp_path / "pad.gz").write_bytes(good + bytes(512))  # zero padding, as tar leaves it
    assert load_clues(tmp_path / "pad.gz").clues("dog") == ("canine",)


# -- item 13: what every output does with what is at its path ---------------------------------

def test_a_replaced_file_keeps_its_mode_and_a_new_one_gets_the_umask(tmp_path):
    private = tmp_path / "private.svg"
    private.write_bytes(b"old")
    private.chmod(0o600)
    write_atomic(private, b"new")
    assert private.read_bytes() == b"new" and stat.S_IMODE(private.stat().st_mode) == 0o600
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "fresh.svg", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "fresh.svg").stat().st_mode) == 0o640


def test_a_link_is_followed_and_stays_a_link(tmp_path):
    target = tmp_path / "real.svg"
    target.write_bytes(b"old")
    link = tmp_path / "link.svg"
    link.symlink_to(target.name)
    write_atomic(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    dangling = tmp_path / "dangling.svg"
    dangling.symlink_to("made.svg")
    write_atomic(dangling, b"made")
    assert dangling.is_symlink() and (tmp_path / "made.svg").read_bytes() == b"made"


def test_fifos_and_character_devices_are_written_through(tmp_path):
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    fifo = tmp_path / "pipe.svg"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    with _within(10):
        write_atomic(fifo, [b"<svg>", b"</svg>"])
        reader.join()
    assert got == [b"<svg></svg>"] and stat.S_ISFIFO(fifo.stat().st_mode)
    null = _mknod(tmp_path / "null", 3)
    write_atomic(null, b"gone")
    assert stat.S_ISCHR(null.stat().st_mode)
    full = _mknod(tmp_path / "full", 7)
    with pytest.raises(IndexFileError) as err:
        write_atomic(full, b"x" * 10_000)
    assert str(err.value) == f"cannot write {full}: no space left on device"
    assert stat.S_ISCHR(full.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full", "null", "pipe.svg"]


def test_dev_stdout_is_the_descriptor_where_it_stands(tmp_path):
    out = tmp_path / "redirected.txt"
    with open(out, "wb") as fh:  # as after `> redirected.txt`: the offset moves on
        fh.write(b"before\n")
        fh.flush()
        write_atomic(f"/dev/fd/{fh.fileno()}", b"<svg/>\n")
        fh.write(b"after\n")
    assert out.read_bytes() == b"before\n<svg/>\nafter\n"
    r, w = os.pipe()
    try:
        write_atomic(f"/proc/self/fd/{w}", b"piped")
        assert os.read(r, 100) == b"piped"
    finally:
        os.close(r)
        os.close(w)


def test_directories_and_missing_directories_are_one_line_and_leave_nothing(tmp_path):
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    with pytest.raises(IndexFileError, match=r"^cannot write .*: it is a directory$"):
        write_atomic(tmp_path, b"x")
    with pytest.raises(IndexFileError, match=r"^cannot write .*: no such directory .*nowhere$"):
        write_atomic(tmp_path / "nowhere" / "x.svg", b"x")
    kept = tmp_path / "kept.svg"
    kept.write_bytes(b"old")

    def failing():
        yield b"half"
        raise OSError(28, "No space left on device")

    with pytest.raises(IndexFileError, match="no space left on device"):
        write_atomic(kept, failing())
    assert kept.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["kept.svg"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_file_or_directory_is_refused_as_open_would(tmp_path):
    ro = tmp_path / "ro.svg"
    ro.write_bytes(b"old")
    ro.chmod(0o444)
    with pytest.raises(IndexFileError, match="permission denied"):
        write_atomic(ro, b"new")
    assert ro.read_bytes() == b"old"
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    with pytest.raises(IndexFileError, match="permission denied"):
        files.check_writable(locked / "x.svg")


def test_no_write_permission_is_refused_as_open_would_and_keeps_the_file(tmp_path,
                                                                          monkeypatch):
    """What the kernel says to a user without permission (root is never refused, so the
    permission check is made to say no)."""
    ro = tmp_path / "ro.svg"
    ro.write_bytes(b"old")
    monkeypatch.setattr(files.os, "access", lambda path, mode: False)
    with pytest.raises(IndexFileError, match=r"^cannot write .*ro\.svg: permission denied$"):
        write_atomic(ro, b"new")
    with pytest.raises(IndexFileError, match="permission denied"):
        files.check_writable(tmp_path / "new.svg")
    assert ro.read_bytes() == b"old" and not list(tmp_path.glob(".*"))


def test_fill_outputs_are_checked_before_the_fill_and_written_after_it(tmp_path, capsys,
                                                                      monkeypatch):
    from cryptocomp.cli import fill as fill_cli

    d = str(_dict(tmp_path / "d.txt", ["ab", "cd", "ac", "bd"]))
    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n", encoding="utf-8")
    called = []
    monkeypatch.setattr(fill_cli, "fill", lambda *a, **k: called.append(1))
    for option in ("--svg", "--ipuz"):
        for where, why in ((tmp_path / "none" / "x", "no such directory"),
                           (tmp_path, "it is a directory")):
            assert main(["fill", str(grid), "--dict", d, option, str(where)]) == 2
            _one_clear_line(capsys.readouterr().err, "cannot write", why)
    assert called == []  # refused before any work
    monkeypatch.undo()
    full = _mknod(tmp_path / "full", 7)
    assert main(["fill", str(grid), "--dict", d, "--svg", str(full)]) == 2
    out, err = capsys.readouterr()
    assert "# filled" in out  # the fill is shown, though its SVG could not be written
    _one_clear_line(err, "no space left on device")


def test_swedish_svg_to_a_missing_directory_is_refused_before_work(tmp_path, capsys):
    d = str(_dict(tmp_path / "d.txt"))
    assert main(["swedish", "--size", "5x5", "--dict", d, "--clues", "none", "--svg",
                 str(tmp_path / "none" / "p.svg")]) == 2
    _one_clear_line(capsys.readouterr().err, "no such directory")


def test_prompt_save_writes_through_links_and_refuses_directories(tmp_path):
    from cryptocomp.prompt import Session

    session = Session.open(str(_dict(tmp_path / "d.txt")))
    session.execute("c??")
    (tmp_path / "dir.csv").mkdir()
    with pytest.raises(CryptocompError, match="it is a directory"):
        session.execute(f":save {tmp_path / 'dir.csv'}")
    target = tmp_path / "real.csv"
    (tmp_path / "link.csv").symlink_to(target)
    session.execute(f":save {tmp_path / 'link.csv'}")
    assert (tmp_path / "link.csv").is_symlink() and target.read_text().startswith("rank,")


# -- item 17: messages that point the right way -----------------------------------------------

def test_dictionary_messages_say_what_the_file_is(tmp_path, capsys):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    (tmp_path / "empty.txt").write_bytes(b"")
    for path, message in (("/dev/null", "dictionary file is a character device, not a "
                                        "regular file: /dev/null"),
                          (str(tmp_path), f"dictionary file is a directory: {tmp_path}"),
                          (str(fifo), f"dictionary file is a named pipe (FIFO), not a "
                                      f"regular file: {fifo}"),
                          (str(tmp_path / "empty.txt"), "dictionary file is empty"),
                          (str(tmp_path / "absent.txt"), "absent.txt: no such dictionary")):
        with _within(5):
            assert main(["words", "c??", "--dict", path]) == 2
        _one_clear_line(capsys.readouterr().err, message)


def test_clue_files_whose_every_clue_gives_its_answer_away_say_so(tmp_path):
    plain = tmp_path / "giveaway.tsv"
    plain.write_text("cat\tA cat, say\ndog\tDoggy\n", encoding="utf-8")
    with pytest.raises(ClueError, match=r"giveaway\.tsv: every clue contains its answer "
                                        r"\(2 clues\)"):
        load_clues(plain)
    compact = tmp_path / "giveaway.clues"
    compact.write_text(f"{CLUE_MAGIC}\t1\ttest\ncat\t1\tCatlike\n", encoding="utf-8")
    with pytest.raises(ClueError, match="every clue contains its answer"):
        load_clues(compact)
    (tmp_path / "empty.tsv").write_bytes(b"")
    with pytest.raises(ClueError, match="clue file is empty"):
        load_clues(tmp_path / "empty.tsv")
    (tmp_path / "empty.txt").write_bytes(b"")
    with pytest.raises(PhraseError, match="phrase file is empty"):
        read_phrases(tmp_path / "empty.txt")


def test_a_clue_file_of_one_word_is_blamed_not_the_phrase_file(tmp_path, capsys):
    d = str(_dict(tmp_path / "d.txt"))
    clues = tmp_path / "one.tsv"
    clues.write_text("cat\tFeline\n", encoding="utf-8")
    phrases = tmp_path / "p.txt"
    phrases.write_text("good dog to go\n", encoding="utf-8")
    assert main(["swedish", "--size", "5x5", "--dict", d, "--clues", str(clues), "--phrases",
                 str(phrases)]) == 2
    _one_clear_line(capsys.readouterr().err, f"clued in {clues}", "'act'", str(phrases),
                    "--phrases none")
    # a phrase file that fits no letter of the dictionary is still the phrase file's fault
    phrases.write_text("xyzzy quux\n", encoding="utf-8")
    assert main(["swedish", "--size", "5x5", "--dict", d, "--clues", str(clues), "--phrases",
                 str(phrases)]) == 2
    _one_clear_line(capsys.readouterr().err, f"{phrases}: no usable phrase")


def test_index_file_errors_name_the_kind(tmp_path):
    from cryptocomp.index.header import read_header
    from cryptocomp.index.store import resolve_source

    with pytest.raises(IndexFileError, match="index file not found"):
        read_header(tmp_path / "absent.ccidx")
    with pytest.raises(DictionaryError, match="is a directory"):
        resolve_source(str(tmp_path))
    with pytest.raises(BatchError, match="batch file is a directory"):
        files.read_bytes(tmp_path, "batch file", BatchError)
