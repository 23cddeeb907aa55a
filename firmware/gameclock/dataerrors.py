"""The one-line errors of the data files (rules/*.toml, hw/wiring.toml) and the pieces their messages share.

`DataError` is the one exception family: the rule files raise its subclass `RuleError`, the wiring file
`WiringError`. str() of each is one line, "<file>: <dotted.key>: <what is wrong>".
"""
from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def display_path(file: str | os.PathLike[str]) -> str:
    """The file as the error shows it: relative to the working directory when it lies below it (not when
    that is / itself: /etc/gameclock/rules/x.toml stays whole, never etc/gameclock/...)."""
    p = Path(file)
    if p.is_absolute():
        cwd = Path.cwd()
        if cwd != Path(cwd.anchor):
            try:
                return str(p.relative_to(cwd))
            except ValueError:
                pass
    return str(p)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the closest of `choices`, or ''."""
    close = difflib.get_close_matches(word, tuple(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


_TYPE_NAMES = ((bool, "boolean"), (int, "integer"), (float, "float"), (str, "string"), (list, "array"), (dict, "table"))


def type_name(value: Any) -> str:
    """The TOML name of a parsed value's type: "integer", "string", "array", "table", ... ("date/time" for the rest)."""
    return next((name for cls, name in _TYPE_NAMES if isinstance(value, cls)), "date/time")


def shown(value: Any) -> str:
    """A value as a message shows what it got: "integer 22", "string 'yes'", "true", "array", "table"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return type_name(value)
    return f"{type_name(value)} {value!r}"


def unknown_value(noun: str, value: str, choices: Iterable[str]) -> str:
    """The problem of a name that is not one of `choices`: "unknown mode 'x' (one of a, b) (did you mean 'a'?)"."""
    choices = tuple(choices)
    return f"unknown {noun} {value!r} (one of {', '.join(choices)})" + did_you_mean(value, choices)


class DataError(ValueError):
    """A data file is wrong. str() is one line: "<file>: <dotted.key>: <what is wrong>" (no key: the file itself)."""

    def __init__(self, file: str | os.PathLike[str], key: str | None, problem: str):
        self.file = display_path(file)
        self.key = key
        self.problem = " ".join(str(problem).split())  # always one line
        super().__init__(": ".join([self.file] + ([key] if key else []) + [self.problem]))
