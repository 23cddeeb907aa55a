"""Finding docked clocks among the PC's serial ports (`gameclock receive --port auto`).

A docked clock is a Raspberry Pi in USB gadget mode: the PC sees a CDC ACM serial port
(`/dev/ttyACM*` on Linux, `COMn` on Windows). pyserial's `serial.tools.list_ports.comports()`
lists the ports with the USB descriptor data the OS read from the device; a port is a clock when

- its USB ids are our gadget's: 1d6b:0104, the Linux Foundation's "Multifunction Composite
  Gadget", which `systemd/usb-gadget.sh` sets through configfs (or 0525:a4a7, the kernel's stock
  `g_serial`, for a clock set up the older way, hw/README.md), **and**
- its manufacturer or product string contains "gameclock" (any case). usb-gadget.sh sets
  manufacturer "gameclock" and product "gameclock dock".

Why both. The ids alone are not ours: 1d6b:0104 is the id every libcomposite gadget gets by
default or copies from the kernel docs (other people's Pi Zeros, a phone in USB tethering, an
Arduino-like board with Linux), and 0525:a4a7 is every `g_serial`. Opening such a port and
talking to it could upset a device that is not a clock. The strings alone are not enough either:
they are free text any device can claim, and the ids keep us to ports that really are USB gadget
serial lines. `systemd/90-gameclock-dock.rules` (udev on the PC) matches the same ids and
manufacturer string; a test reads all three files so they cannot drift apart.

The clock's serial (its Pi's serial number, `device.identity.clock_serial`) is the USB iSerial
string, so `FoundPort.serial_number` tells clocks apart before the first message; the clock's
`hello` still says it, and the receiver trusts the hello.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# Our configfs gadget (systemd/usb-gadget.sh): the Linux Foundation's Multifunction Composite Gadget.
GADGET_IDS = (0x1D6B, 0x0104)
# The kernel's stock g_serial module (NetChip's Gadget Serial v2.4), accepted with our strings only.
G_SERIAL_IDS = (0x0525, 0xA4A7)
CLOCK_IDS = (GADGET_IDS, G_SERIAL_IDS)
# What usb-gadget.sh writes into the gadget's strings; MARK is what find_clocks looks for.
MANUFACTURER = "gameclock"
PRODUCT = "gameclock dock"
MARK = "gameclock"


@dataclass(frozen=True)
class FoundPort:
    """A docked clock's serial port."""

    device: str                 # the path to open: /dev/ttyACM0 (COM5 on Windows)
    serial_number: str | None   # the clock's serial, from the USB iSerial string (None if it has none)
    description: str            # the OS's name for the port, e.g. "gameclock dock"
    vid: int
    pid: int


def _comports() -> list[Any]:  # pyserial's ListPortInfo (pyserial has no type information)
    from serial.tools import list_ports  # imported here: this module loads without pyserial
    return list(list_ports.comports())


def _says_gameclock(port: object) -> bool:
    return any(MARK in (text or "").lower()
               for text in (getattr(port, "manufacturer", None), getattr(port, "product", None)))


def why_not(port: object) -> str | None:
    """None when `port` (a pyserial ListPortInfo or alike) is a docked clock; else the reason it is
    not, in a few words (for `receive --port auto` to say what it saw when it finds no clock)."""
    vid, pid = getattr(port, "vid", None), getattr(port, "pid", None)
    if vid is None or pid is None:
        return "not a USB device"
    if (vid, pid) not in CLOCK_IDS:
        return f"USB {vid:04x}:{pid:04x} is not a gameclock gadget id"
    if not _says_gameclock(port):
        return (f"USB {vid:04x}:{pid:04x}, but manufacturer {getattr(port, 'manufacturer', None)!r} "
                f"and product {getattr(port, 'product', None)!r} do not say {MARK}")
    return None


def is_clock(port: object) -> bool:
    return why_not(port) is None


def _natural(device: str) -> list[int | str]:
    # ttyACM2 before ttyACM10 (pyserial's own ordering does the same)
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", device)]


def find_clocks(ports: Iterable[Any] | None = None) -> list[FoundPort]:
    """The docked clocks among `ports` (default: `serial.tools.list_ports.comports()`), ordered by
    device path (ttyACM2 before ttyACM10)."""
    if ports is None:
        ports = _comports()
    found = [FoundPort(device=p.device, serial_number=p.serial_number or None,
                       description=p.description or p.device, vid=p.vid, pid=p.pid)
             for p in ports if is_clock(p)]
    return sorted(found, key=lambda f: _natural(f.device))


def describe(port: FoundPort) -> str:
    """One line for people: `/dev/ttyACM0: gameclock dock, clock 3a1b2c3d (USB 1d6b:0104)`."""
    clock = f"clock {port.serial_number}" if port.serial_number else "clock without a serial number"
    return f"{port.device}: {port.description}, {clock} (USB {port.vid:04x}:{port.pid:04x})"
