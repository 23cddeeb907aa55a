"""JSON from outside, with limits: every entry point (dock frames, records, imports, settings,
rule files' JSON-like values) reads through here, so a hostile file or frame can neither nest deep
enough to exhaust the stack later (a record nested 987 deep parsed, then broke the signature check's
`json.dumps`) nor be larger than its purpose needs.

    obj = boundedjson.loads(data, max_bytes=64 * 1024)      # JSONLimitError (a ValueError) if not
    boundedjson.check_depth(obj)                            # for values parsed elsewhere (tomllib)

Also refused, as in strict JSON: NaN, Infinity and numbers too large for a double (they would
become inf, which nothing can sign or store), and integers longer than `MAX_INT_DIGITS` digits.
"""
from __future__ import annotations

import json
import math
from typing import Any, NoReturn

MAX_DEPTH = 32          # containers inside containers: a result record needs 4
MAX_INT_DIGITS = 30     # Python parses a 4,300-digit integer happily; nothing of ours needs > 2**64


class JSONLimitError(ValueError):
    """JSON refused. `reason`: too-large, too-deep, bad-utf8, bad-json."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is out of range")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits")
    return int(text)


def loads(data: str | bytes, *, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of `data` (UTF-8 if bytes), or JSONLimitError naming why not."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise JSONLimitError("too-large", f"{size} bytes, at most {max_bytes}")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONLimitError("bad-utf8", f"byte {exc.start}") from None
    try:
        obj = json.loads(data, parse_constant=_no_constant, parse_float=_finite, parse_int=_bounded_int)
    except RecursionError:
        raise JSONLimitError("too-deep", f"nested deeper than {max_depth}") from None
    except ValueError as exc:
        raise JSONLimitError("bad-json", str(exc)[:80]) from None
    check_depth(obj, max_depth)
    return obj


def depth(obj: object) -> int:
    """How deep containers nest in `obj` (a scalar: 0, `[]`: 1), without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(obj, 0)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list | tuple):
            children = value
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        stack.extend((child, level) for child in children)
    return deepest


def check_depth(obj: object, max_depth: int = MAX_DEPTH) -> None:
    """JSONLimitError("too-deep") if containers nest deeper than `max_depth` in `obj`."""
    d = depth(obj)
    if d > max_depth:
        raise JSONLimitError("too-deep", f"nested {d} deep, at most {max_depth}")
