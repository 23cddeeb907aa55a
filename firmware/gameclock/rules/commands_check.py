"""`gameclock check-rules PATH...`: validate rule files (an organiser's own preset, or a whole folder).

Prints "PATH: ok (preset ID)" for each good file and the one-line RuleError to stderr for each bad one;
exits 1 if any file is bad. A folder stands for every `*.toml` in it. A file is read through the data
files' one strict reader (`gameclock.datafile`): what is not a regular file, is over its size limit, nests
too deep, gives a time or a number out of its key's range or holds control characters in a name is a
RuleError like any other mistake, never a traceback or a hang (issue 13).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gameclock.dataerrors import printable
from gameclock.rules.loader import Preset, RuleError, load_preset


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a rule file (.toml) or a folder of them")


def _expand(path_text: str) -> list[str]:
    path = Path(path_text)
    if path.is_dir():
        files = sorted(str(p) for p in path.glob("*.toml") if p.is_file())
        return files or [path_text]
    return [path_text]


def check_file(path_text: str) -> Preset:
    """The preset of one rule file, checked as `check-rules` checks it; RuleError (one line) if bad."""
    return load_preset(path_text)


def run(args: argparse.Namespace) -> int:
    failed = False
    for given in args.paths:
        for path_text in _expand(given):
            if Path(path_text).is_dir():
                print(f"{printable(path_text)}: no .toml files in this folder", file=sys.stderr)
                failed = True
                continue
            try:
                preset = check_file(path_text)
            except RuleError as exc:
                print(exc, file=sys.stderr)
                failed = True
            else:
                print(f"{printable(path_text)}: ok (preset {preset.id})")
    return 1 if failed else 0
