"""Framing of the dock protocol: one message per line, `BODY*CRC\\n`.

BODY is a JSON object in UTF-8 (`json.dumps` never writes a raw newline), CRC is the standard CRC-32
(`zlib.crc32`) of BODY's bytes as 8 lower-case hex digits. A line that is too long, has no `*CRC`,
a wrong CRC, bytes that are not UTF-8 or a body that is not a JSON object is refused with a
`FrameError` whose `reason` is a short code (the refusal logs and the fuzz test count on them).

`LineSplitter` turns the byte stream into lines: it keeps a partial line across reads, and drops a
line longer than `MAX_LINE` as it streams (so a peer that never sends a newline cannot fill memory).
"""
from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any

from gameclock import boundedjson

MAX_LINE = 256 * 1024  # bytes, newline excluded: a result record is a few kB
MAX_DEPTH = 12         # JSON containers in a frame: a result frame needs 5 (frame, rec, moves, move, ...)
CRC_LEN = 8

# A decoded message: a JSON object, whose values are whatever JSON holds (`messages.check` checks them).
JSONObject = dict[str, Any]


class FrameError(ValueError):
    """A line that is not a frame. `reason`: too-long, no-crc, bad-crc, bad-utf8, bad-json, too-deep,
    too-large (boundedjson's reasons, for a body over MAX_LINE), not-object."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


def dumps(obj: Mapping[str, object]) -> bytes:
    """The compact JSON bytes of `obj` (UTF-8, keys in the order given)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def encode(obj: Mapping[str, object]) -> bytes:
    """One frame: body, '*', CRC-32 hex, newline."""
    body = dumps(obj)
    return body + b"*" + b"%08x" % zlib.crc32(body) + b"\n"


def decode(line: bytes) -> JSONObject:
    """The message of one line (without or with its trailing newline); raises FrameError."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise FrameError("too-long", f"{len(line)} bytes")
    body, star, crc = line.rpartition(b"*")
    if not star or len(crc) != CRC_LEN:
        raise FrameError("no-crc", repr(line[:40]))
    try:
        want = int(crc, 16)
    except ValueError:
        raise FrameError("no-crc", repr(crc)) from None
    if crc != crc.lower() or zlib.crc32(body) != want:
        raise FrameError("bad-crc", repr(line[:40]))
    try:
        obj = boundedjson.loads(body, max_bytes=MAX_LINE, max_depth=MAX_DEPTH)
    except boundedjson.JSONLimitError as exc:
        raise FrameError(exc.reason, exc.detail[:60]) from None
    if not isinstance(obj, dict):
        raise FrameError("not-object", type(obj).__name__)
    return obj


class LineSplitter:
    """Bytes in, whole lines out. A line over `max_line` bytes is dropped and reported once as
    `b""`-less: `feed` returns (lines, dropped_count)."""

    def __init__(self, max_line: int = MAX_LINE):
        self.max_line = max_line
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> tuple[list[bytes], int]:
        lines: list[bytes] = []
        dropped = 0
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                break
            piece = data[start:nl]
            start = nl + 1
            if self._skipping:
                self._skipping = False
                self._buf.clear()
                continue
            if len(self._buf) + len(piece) > self.max_line:
                self._buf.clear()
                dropped += 1
                continue
            self._buf += piece
            lines.append(bytes(self._buf))
            self._buf.clear()
        rest = data[start:]
        if not self._skipping:
            if len(self._buf) + len(rest) > self.max_line:
                self._buf.clear()
                self._skipping = True
                dropped += 1
            else:
                self._buf += rest
        return lines, dropped
