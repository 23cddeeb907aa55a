"""The one-line errors of the data files (rules/*.toml, hw/wiring.toml) and the pieces their messages share.

`DataError` is the one exception family: the rule files raise its subclass `RuleError`, the wiring file
`WiringError`. str() of each is one line, "<file>: <dotted.key>: <what is wrong>".
"""
from __future__ import annotations

import difflib
import os
import unicodedata
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


# Bidirectional controls: invisible, they reorder what a screen or a terminal shows (U+202E turns
# "gpj.exe" into "exe.jpg"); no name, id or displayed text of ours needs them.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unsafe_char(text: str) -> tuple[int, str] | None:
    """(index, "U+202E RIGHT-TO-LEFT OVERRIDE" or "control character U+001B") of the first character of `text` that no name, id or
    displayed text may hold: C0 and C1 controls, DEL, line and paragraph separators, bidirectional
    controls. None if there is none. Thai letters, vowels and tone marks (combining) are all fine."""
    for i, c in enumerate(text):
        if c in BIDI_CONTROLS or unicodedata.category(c) in ("Cc", "Zl", "Zp", "Cs"):
            name = unicodedata.name(c, "")  # the C0 and C1 controls have none
            return i, f"U+{ord(c):04X} {name}" if name else f"control character U+{ord(c):04X}"
    return None


def printable(text: str) -> str:
    """`text` safe to print on one line of a terminal: every character that is not printable (controls,
    bidi overrides, line breaks; a space stays) written as its escape, as repr() does."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


class DataError(ValueError):
    """A data file is wrong. str() is one line: "<file>: <dotted.key>: <what is wrong>" (no key: the file itself)."""

    def __init__(self, file: str | os.PathLike[str], key: str | None, problem: str):
        self.file = printable(display_path(file))
        self.key = None if key is None else printable(key)  # a TOML key may be any quoted text
        self.problem = printable(" ".join(str(problem).split()))  # always one line
        super().__init__(": ".join([self.file] + ([self.key] if self.key else []) + [self.problem]))
