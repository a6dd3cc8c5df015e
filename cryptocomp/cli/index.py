"""``cryptocomp index build|list|info``: manage the pickled index files."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from ..errors import CryptocompError, IndexFileError
from ..files import shown
from ..index.classes import CLASS_NAMES
from ..index.store import (
    SUFFIX,
    Header,
    build_index,
    index_dir,
    list_indexes,
    read_header,
    read_index,
    stale_reason,
    temporaries,
)
from ..index.wordsources import CLASS_LANGS
from ..rendering import index_built_line, index_info_lines, index_list_lines
from .options import print_json, print_lines, progress_bar


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("index", help="build, list and inspect index files",
                       description=f"Index files live in {index_dir()}.")
    isub = p.add_subparsers(dest="index_command", metavar="ACTION", required=True)
    b = isub.add_parser("build", help="build (or rebuild) the index of a dictionary")
    b.add_argument("source", help="en, ru, another wordfreq language code, or a dictionary file")
    b.add_argument("--fold-yo", action="store_true", help="fold ё into е (Russian)")
    b.add_argument("--add", action="append", default=[], metavar="LIST",
                   help="a list of your own laid over the dictionary, in order (word;score "
                        "overrides a word's score, score 0 or a line -word removes it); "
                        "repeatable")
    b.add_argument("--lang", choices=CLASS_LANGS, default=None,
                   help="class a dictionary file's words by this language's source (en: "
                        "ENABLE, WordNet, SCOWL; ru: pymorphy3); en and ru lists always are")
    b.add_argument("--classes", metavar="FILE", default=None,
                   help="a class file (word<TAB>class[,class...][<TAB>lemma], README: "
                        "\"Word-class sources\"): adds to and overrides the language's "
                        "classes; the only source for other languages")
    b.set_defaults(run=run_build)
    ls = isub.add_parser("list", help="list the index files")
    ls.add_argument("--json", action="store_true", help="print a JSON array")
    ls.set_defaults(run=run_list)
    info = isub.add_parser("info", help="show an index file's header and statistics (reads "
                                        "and checks every section), and leftover temporary "
                                        "files of interrupted writes")
    info.add_argument("name", help="index name (as `index list` shows it) or file path")
    info.add_argument("--json", action="store_true", help="print a JSON object")
    info.set_defaults(run=run_info)


def run_build(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    with progress_bar(f"indexing {args.source}") as progress:
        index, path = build_index(args.source, fold_yo=args.fold_yo, progress=progress,
                                  adds=tuple(args.add), class_lang=args.lang,
                                  class_file=args.classes)
    where = shown(path) if path else "memory only (could not write the index directory)"
    seconds = time.perf_counter() - start
    print(index_built_line(index.name, len(index), seconds, where))
    return 0 if path else 1


def _row(path: Path, header: Header | CryptocompError) -> dict[str, Any]:
    # names as text: a path that is not UTF-8 is shown with \xNN escapes (stdout is text)
    if isinstance(header, CryptocompError):
        return {"name": shown(path.stem), "path": shown(path), "error": str(header)}
    return {"name": shown(path.stem), "path": shown(path), "words": header.get("words"),
            "format": header.get("format"), "source": shown(header.get("source") or ""),
            "params": header.get("params"), "created": header.get("created"),
            "size": path.stat().st_size}


def run_list(args: argparse.Namespace) -> int:
    rows = [_row(p, h) for p, h in list_indexes()]
    if args.json:
        print_json(rows)
        return 0
    print_lines(index_list_lines(rows, str(index_dir())))
    return 0


def _resolve_name(name: str) -> Path:
    path = Path(name)
    if path.suffix == SUFFIX and path.exists():
        return path
    path = index_dir() / f"{name}{SUFFIX}"
    if not path.exists():
        raise IndexFileError(f"no index named '{shown(name)}' in {shown(index_dir())} "
                             "(see `cryptocomp index list`)")
    return path


def _status(header: Header) -> str:
    """fresh, or why `load_index` would rebuild this file."""
    reason = stale_reason(header)
    return "fresh" if reason is None else f"stale: {reason} (rebuilt on next use)"


def run_info(args: argparse.Namespace) -> int:
    path = _resolve_name(args.name)
    header: Header = read_header(path)
    start = time.perf_counter()
    index = read_index(path, header)
    load_s = time.perf_counter() - start
    index.load_all()  # every section read and checked: a damaged file fails here
    check_s = time.perf_counter() - start - load_s
    info = {k: v for k, v in header.fields.items() if k != "sections"}
    info["source"] = shown(info["source"])
    info["status"] = _status(header)
    info.update({
        "path": shown(path), "size": path.stat().st_size, "load_seconds": round(load_s, 3),
        "sections": len(header["sections"]), "check_seconds": round(check_s, 3),
        "alphabet": index.alphabet, "lengths": f"{min(index.lengths(), default=0)}-"
                                               f"{index.max_length}",
        **{k: v for k, v in index.stats().items() if k not in ("words", "lengths")},
        "top_words": index.matches(index.all_ids()).words(10),
        "class_source": index.class_source or "none (unclassified: every word is admitted)",
        "classes": {name: len(index.in_class(name)) for name in CLASS_NAMES
                    if index.classified},
        "stale_temporaries": [f"{shown(p)} ({size / 1e6:.1f} MB)" for p, size in temporaries()],
    })
    if args.json:
        print_json(info)
        return 0
    info["classes"] = ", ".join(f"{k} {v:,}" for k, v in info["classes"].items()) or "none"
    print_lines(index_info_lines(info))
    return 0
