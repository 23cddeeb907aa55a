"""Pieces of the one-line errors that the data files' loaders share (rules/*.toml, hw/wiring.toml)."""
from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Iterable


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
