"""The clock's serial: the prefix of its result records' ids (`SERIAL-000017`, CL-5).

On a Raspberry Pi the SoC's serial number, from the device tree (`/sys/firmware/devicetree/base/
serial-number`) or, on older kernels, the `Serial` line of `/proc/cpuinfo`, e.g. `100000003a1b2c3d`
(leading zeros dropped). Elsewhere (the simulator, a PC): the host name, made safe for an id. The
organiser's PC tells clocks apart by it, so two clocks never share an id.
"""
from __future__ import annotations

import re
import socket
from pathlib import Path

SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _safe(text: str) -> str:
    text = SAFE.sub("-", text.strip().strip("\x00")).strip("-._")
    return text[:64]


def clock_serial(root: str | Path = "/") -> str:
    """The clock's serial (letters, digits, . _ -; never empty)."""
    root = Path(root)
    try:
        raw = (root / "sys/firmware/devicetree/base/serial-number").read_bytes().decode("ascii", "replace")
        serial = _safe(raw).lstrip("0")
        if serial:
            return serial
    except OSError:
        pass
    try:
        for line in (root / "proc/cpuinfo").read_text(encoding="ascii", errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "Serial":
                serial = _safe(value).lstrip("0")
                if serial:
                    return serial
    except OSError:
        pass
    return _safe(socket.gethostname()) or "clock"
