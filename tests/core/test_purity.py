"""The core is pure (DESIGN §1-2): no clock reads, threads, I/O, randomness or hardware libraries.

Every module under firmware/gameclock/core is parsed with `ast` (never imported, so a bad import cannot
hide behind a try/except or a lazy function body) and each import is checked against an allow-list of
pure standard-library modules. Anything not on the allow-list fails, so a new dependency is a
deliberate decision taken here, in review, and not an accident.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "firmware" / "gameclock" / "core"

# Pure parts of the standard library the core may use (top-level module names).
ALLOWED = frozenset({
    "__future__", "abc", "bisect", "collections", "copy", "dataclasses", "decimal", "enum", "fractions",
    "functools", "heapq", "itertools", "json", "math", "numbers", "operator", "re", "string", "types",
    "typing",
})

# Named explicitly so the failure message says why (they are also simply not on the allow-list).
FORBIDDEN = frozenset({
    "time", "datetime", "threading", "_thread", "asyncio", "multiprocessing", "concurrent", "queue", "socket",
    "select", "selectors", "signal", "os", "sys", "io", "pathlib", "shutil", "tempfile", "subprocess", "random",
    "secrets", "uuid", "importlib", "ctypes", "sched", "logging",
    "gpiozero", "lgpio", "RPi", "pigpio", "luma", "serial", "PIL", "smbus", "smbus2", "spidev",
})

# Builtins that reach outside the process or load code by name: a pure fold has no use for them.
FORBIDDEN_CALLS = frozenset({"__import__", "open", "input", "print", "exec", "eval", "compile", "breakpoint"})


def violations(source: str, filename: str = "<src>") -> list[str]:
    """Every impure import or call in `source`, as 'file:line: why' strings (empty: the module is pure)."""
    tree = ast.parse(source, filename)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 1:
                continue  # `from .x import y`: a sibling inside core (checked as its own file)
            if node.level > 1:
                out.append(f"{filename}:{node.lineno}: relative import leaves the core package "
                           f"({'.' * node.level}{node.module or ''})")
                continue
            names = [node.module or ""]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            out.append(f"{filename}:{node.lineno}: call to {node.func.id}()")
            continue
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top in FORBIDDEN:
                out.append(f"{filename}:{node.lineno}: imports {name} (forbidden in the pure core)")
            elif top not in ALLOWED:
                out.append(f"{filename}:{node.lineno}: imports {name} (not on the core's allow-list)")
    return out


def core_files() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


def test_the_core_modules_are_found():
    names = {p.name for p in core_files()}
    # The checker must not pass vacuously: the modules the clock is made of are all seen.
    assert {"__init__.py", "clock.py", "control.py", "display.py", "events.py", "log.py"} <= names


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_is_pure(path: Path):
    assert violations(path.read_text(encoding="utf-8"), str(path.relative_to(CORE.parent))) == []


def test_allow_list_and_forbidden_list_do_not_overlap():
    assert ALLOWED & FORBIDDEN == set()


# The checker itself: each of these must be caught, each of the good ones must pass.
BAD = [
    "import time",
    "import os.path",
    "from datetime import datetime",
    "import threading, json",
    "from queue import Queue",
    "import socket",
    "import select",
    "import sys",
    "import subprocess",
    "from random import Random",
    "import asyncio",
    "import multiprocessing",
    "from gpiozero import Button",
    "import lgpio",
    "import RPi.GPIO as GPIO",
    "from luma.oled.device import ssd1306",
    "import serial",
    "from PIL import Image",
    "import gameclock.loop",          # absolute import of the rest of the package
    "from gameclock.ui import screens",
    "from .. import loop",            # relative import reaching out of core/
    "from ..device import buttons",
    "import numpy",                   # not on the allow-list
    "def f():\n    import time\n    return time.monotonic_ns()",   # hidden in a function body
    "try:\n    import serial\nexcept ImportError:\n    serial = None",
    "mod = __import__('time')",
    "with open('x') as f:\n    pass",
    "print('hello')",
]

GOOD = [
    "from __future__ import annotations",
    "from dataclasses import dataclass, field, replace",
    "import re",
    "from typing import Iterable",
    "import enum, functools, itertools, math, json",
    "from collections.abc import Sequence",
    "from .control import Control",
    "from . import events",
    "x = 1  # no imports at all",
]


@pytest.mark.parametrize("source", BAD)
def test_checker_catches_impure_source(source: str):
    assert violations(source) != []


@pytest.mark.parametrize("source", GOOD)
def test_checker_accepts_pure_source(source: str):
    assert violations(source) == []
