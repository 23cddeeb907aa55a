"""The clock's serial: the prefix of its result records' ids (`SERIAL-000017`, CL-5).

On a Raspberry Pi the SoC's serial number, from the device tree (`/sys/firmware/devicetree/base/
serial-number`) or, on older kernels, the `Serial` line of `/proc/cpuinfo`, e.g. `100000003a1b2c3d`
(leading zeros dropped). Elsewhere (the simulator, a PC): the host name, made safe for an id. The
organiser's PC tells clocks apart by it, so two clocks never share an id.

Both files are read with limits (boundedfile: a regular file only, opened without blocking, its size
checked first): one that is a FIFO, a device or huge is logged and skipped, never waited for (issue 24
B6), and the serial then comes from the next source.
"""
from __future__ import annotations

import errno
import logging
import re
import socket
from pathlib import Path

from gameclock import boundedfile

SAFE = re.compile(r"[^A-Za-z0-9._-]+")
MAX_SERIAL_FILE = 256             # bytes: the device tree's serial-number, e.g. "100000003a1b2c3d\0"
MAX_CPUINFO = 1024 * 1024         # bytes: /proc/cpuinfo (a Pi's: ~1 kB; a 128-core PC's: ~250 kB)
log = logging.getLogger(__name__)


def _safe(text: str) -> str:
    text = SAFE.sub("-", text.strip().strip("\x00")).strip("-._")
    return text[:64]


def _read(path: Path, max_bytes: int) -> str:
    """The text of a system file ("" if there is none; a file refused is logged)."""
    try:
        return boundedfile.read(path, max_bytes=max_bytes).decode("ascii", "replace")
    except boundedfile.FileLimitError as exc:
        if exc.errno not in (errno.ENOENT, errno.ENOTDIR):  # (off a Pi there is none: nothing to say)
            log.warning("%s: %s: not used for the clock's serial", path, exc)
        return ""


def clock_serial(root: str | Path = "/") -> str:
    """The clock's serial (letters, digits, . _ -; never empty)."""
    root = Path(root)
    serial = _safe(_read(root / "sys/firmware/devicetree/base/serial-number", MAX_SERIAL_FILE)).lstrip("0")
    if serial:
        return serial
    for line in _read(root / "proc/cpuinfo", MAX_CPUINFO).splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "Serial":
            serial = _safe(value).lstrip("0")
            if serial:
                return serial
    return _safe(socket.gethostname()) or "clock"
