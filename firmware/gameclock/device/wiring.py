"""The clock's wiring as data: load and strictly validate `hw/wiring.toml` (or the user's own file).

Which file: `--wiring FILE` (the caller passes it as `path`), else `$GAMECLOCK_WIRING`, else the site
folder's `/etc/gameclock/wiring.toml` when there is one (gameclock.sitedir), else the shipped default:
package data `gameclock/hw/wiring.toml` read with `importlib.resources` (in a checkout the link
firmware/gameclock/hw leads to the repository's `hw/`, so that is `hw/wiring.toml`). The format is documented in `hw/README.md`, key by key. Every
problem is a `WiringError` whose message is one line naming the file and the dotted key:

    hw/wiring.toml: players.left: BCM 2 is the I2C bus's SDA line and the displays are on I2C

What `load_wiring` returns (`Wiring`) is plain data: the input pins by role (`pins`, the names the
adapters use: left right | lever_left lever_right, pause, knob_a knob_b knob_push back), the
debounce and long-press times, the buzzer (`BuzzerWiring`) and the displays (`DisplayWiring`, what
`gameclock.device.display` builds its luma devices from). Only the standard library is used
(`tomllib`): the simulator and the Pi load the same file; only the pin factory and the display sink
differ.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from gameclock import datafile
from gameclock.dataerrors import DataError
from gameclock.datafile import REQUIRED, Section
from gameclock.sitedir import site_dir

ENV_WIRING = "GAMECLOCK_WIRING"
SITE_WIRING = "wiring.toml"  # the clock's own wiring: site_dir() / "wiring.toml" (/etc/gameclock/wiring.toml)


def _shipped_wiring() -> Path:
    """The shipped default (package data gameclock/hw/wiring.toml) as a resolved path on disk."""
    shipped = resources.files("gameclock") / "hw" / "wiring.toml"
    return Path(str(shipped)).resolve()


DEFAULT_WIRING: Path = _shipped_wiring()

BCM_MIN, BCM_MAX = 0, 27  # the GPIOs on the 40-pin header

# BCM number -> physical pin of the 40-pin header (every Pi since the B+; the Zero 2 W too).
HEADER_PIN: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31, 13: 33,
    19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 1: 28, 12: 32,
    16: 36, 20: 38, 21: 40,
}

# Pins a bus takes while the displays use it: bus/port -> {BCM: what it is}.
I2C_PINS: dict[int, dict[int, str]] = {
    1: {2: "the I2C bus's SDA line", 3: "the I2C bus's SCL line"},
    0: {0: "I2C bus 0's SDA line (ID_SD)", 1: "I2C bus 0's SCL line (ID_SC)"},
}
SPI_BUS_PINS: dict[int, dict[int, str]] = {
    0: {9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"},
    1: {19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK"},
}
SPI_CE_PINS: dict[int, dict[int, int]] = {0: {0: 8, 1: 7}, 1: {0: 18, 1: 17, 2: 16}}  # port -> device -> BCM

# luma.core's spi() accepts these bus speeds only (0.5 MHz to 32 MHz here; SSD1306 is rated 10 MHz)
SPI_SPEEDS_HZ = tuple(int(mhz * 1_000_000) for mhz in (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32))

PLAYER_INPUTS = ("buttons", "lever")
BUZZER_TYPES = ("active", "passive")
DRIVERS = ("ssd1306", "sh1106")
INTERFACES = ("i2c", "spi")
ROTATIONS = (0, 2)  # luma's rotate: 0 or 2 (180 degrees); 1 and 3 would make the 128x64 screen 64x128

_SECTIONS = ("players", "knob", "buzzer", "display")
_PLAYER_PIN_KEYS = {"buttons": ("left", "right"), "lever": ("lever_left", "lever_right")}
_PLAYERS_KEYS = ("input", "left", "right", "lever_left", "lever_right", "pause", "debounce_ms")
_KNOB_KEYS = ("a", "b", "push", "back", "long_press_ms")
_BUZZER_KEYS = ("pin", "type", "frequency_hz", "active_high")
_DISPLAY_KEYS = ("driver", "interface", "rotation", "i2c", "spi")
_I2C_KEYS = ("bus", "left_address", "right_address", "speed_hz")
_SPI_KEYS = ("port", "left_device", "right_device", "dc", "left_reset", "right_reset", "speed_hz")

NS_PER_MS = 1_000_000


class WiringError(DataError):
    """The wiring file is wrong. str() is one line: "<file>: <dotted.key>: <what is wrong>"."""


@dataclass(frozen=True)
class BuzzerWiring:
    """type "active": a buzzer with its own oscillator, switched on and off (DigitalOutputDevice).
    type "passive": a bare piezo driven with a square wave of `frequency_hz` (PWMOutputDevice)."""
    pin: int
    type: str
    frequency_hz: int | None = None  # passive only
    active_high: bool = True


@dataclass(frozen=True)
class DisplayWiring:
    """The two OLEDs (left and right player). I2C: one bus, two addresses. SPI: one port, a chip
    select (device) each, a shared DC pin, optional reset pins."""
    driver: str = "ssd1306"
    interface: str = "i2c"
    rotation: int = 0
    i2c_bus: int = 1
    addresses: tuple[int, int] = (0x3C, 0x3D)  # left, right
    i2c_speed_hz: int = 400_000  # what config.txt sets (i2c_arm_baudrate); the firmware cannot set it
    spi_port: int = 0
    spi_devices: tuple[int, int] = (0, 1)  # left, right: CE0, CE1
    spi_dc: int | None = None
    spi_resets: tuple[int | None, int | None] = (None, None)
    spi_speed_hz: int = 8_000_000

    @property
    def address(self) -> dict[str, int]:
        return {"left": self.addresses[0], "right": self.addresses[1]}


@dataclass(frozen=True)
class Wiring:
    path: Path
    players: str                       # "buttons" or "lever"
    pins: Mapping[str, int]            # input role -> BCM (the names PlayerButtons / Knob use)
    debounce_ns: int
    long_press_ns: int
    buzzer: BuzzerWiring
    display: DisplayWiring
    used: Mapping[str, int] = field(default_factory=dict)  # dotted key -> BCM, every pin in use

    @property
    def lever(self) -> bool:
        return self.players == "lever"


def wiring_path(path: str | os.PathLike[str] | None = None) -> Path:
    """`path` if given (--wiring), else $GAMECLOCK_WIRING (read at call time), else the site folder's
    wiring.toml if it exists, else DEFAULT_WIRING (the shipped hw/wiring.toml)."""
    if path is not None:
        return Path(path)
    env = os.environ.get(ENV_WIRING)
    if env:
        return Path(env)
    site = site_dir() / SITE_WIRING
    return site if site.is_file() else DEFAULT_WIRING


def load_wiring(path: str | os.PathLike[str] | None = None) -> Wiring:
    """Load and validate the wiring file (see `wiring_path`). Raises WiringError."""
    return _Builder(datafile.load(wiring_path(path), error=WiringError)).build()


# --------------------------------------------------------------------------------------------- checks


class _Builder:
    """Turns the top-level Section of the wiring file into a Wiring, or raises the first WiringError."""

    def __init__(self, root: Section):
        self.root = root
        self.used: dict[str, int] = {}  # dotted key -> BCM, in file order
        self.reserved: dict[int, tuple[str, str]] = {}  # BCM -> (what it is, why it is taken)

    def pin(self, t: Section, key: str, *, wired: bool = True) -> int:
        """A BCM pin number 0-27; wired: not used by another key nor taken by the displays' bus."""
        value = t.get_int(key)
        dotted = str(t.key(key))
        if not BCM_MIN <= value <= BCM_MAX:
            raise t.error(key, f"BCM {value} is not a GPIO of the 40-pin header (BCM {BCM_MIN}-{BCM_MAX})")
        if not wired:
            return value
        for other, bcm in self.used.items():
            if bcm == value:
                raise t.error(key, f"BCM {value} is already used by {other}")
        if value in self.reserved:
            what, because = self.reserved[value]
            raise t.error(key, f"BCM {value} is {what} and the displays use it ({because})")
        self.used[dotted] = value
        return value

    # ---- the file ----

    def build(self) -> Wiring:
        root = self.root
        root.check_keys(_SECTIONS, note="a wiring file has [players], [knob], [buzzer], [display]")
        players = root.section("players", allowed=_PLAYERS_KEYS)
        knob = root.section("knob", allowed=_KNOB_KEYS)
        buzzer_t = root.section("buzzer", allowed=_BUZZER_KEYS)
        display_t = root.section("display", allowed=_DISPLAY_KEYS)

        mode = players.get_choice("input", PLAYER_INPUTS, noun=None)
        other = "lever" if mode == "buttons" else "buttons"
        players.refuse(_PLAYER_PIN_KEYS[other], f"with players.input = {mode!r}")
        pins: dict[str, int] = {}
        for key in _PLAYER_PIN_KEYS[mode]:
            pins[key] = self.pin(players, key)
        pins["pause"] = self.pin(players, "pause")
        debounce_ms = players.get_int("debounce_ms", 30, between=(1, 200))
        pins["knob_a"] = self.pin(knob, "a")
        pins["knob_b"] = self.pin(knob, "b")
        pins["knob_push"] = self.pin(knob, "push")
        pins["back"] = self.pin(knob, "back")
        # at most 2 s: shorter than the arbiter's 3 s unlock hold, whose long click comes first
        long_press_ms = knob.get_int("long_press_ms", 800, between=(200, 2000))

        buzzer = self.buzzer(buzzer_t)
        display = self.display(display_t)
        root.check_unused()
        return Wiring(path=root.file, players=mode, pins=pins, debounce_ns=debounce_ms * NS_PER_MS,
                      long_press_ns=long_press_ms * NS_PER_MS, buzzer=buzzer, display=display,
                      used=dict(self.used))

    def buzzer(self, t: Section) -> BuzzerWiring:
        pin = self.pin(t, "pin")
        kind = t.get_choice("type", BUZZER_TYPES, noun=None)
        freq = None
        if kind == "passive":
            freq = t.get_int("frequency_hz", 2000, between=(100, 10000))
        else:
            t.refuse(("frequency_hz",), f"with buzzer.type = {kind!r}")
        high = t.get_bool("active_high", True)
        return BuzzerWiring(pin=pin, type=kind, frequency_hz=freq, active_high=high)

    def display(self, t: Section) -> DisplayWiring:
        driver = t.get_choice("driver", DRIVERS, noun=None)
        interface = t.get_choice("interface", INTERFACES, noun=None)
        rotation = t.get_int("rotation", 0)
        if rotation not in ROTATIONS:
            raise t.error("rotation", f"must be 0 or 2 (180 degrees), got {rotation} "
                                      "(the screens are drawn 128 wide, 64 high)")
        # Both tables may be present (switching is one word); the unused one is checked, not wired.
        i2c = t.section("i2c", REQUIRED if interface == "i2c" else None, allowed=_I2C_KEYS)
        spi = t.section("spi", REQUIRED if interface == "spi" else None, allowed=_SPI_KEYS)
        kw: dict[str, Any] = {"driver": driver, "interface": interface, "rotation": rotation}
        if i2c is not None:
            bus = i2c.get_int("bus", 1, between=(0, 31))
            left = i2c.get_int("left_address", between=(0x03, 0x77), hexadecimal=True)
            right = i2c.get_int("right_address", between=(0x03, 0x77), hexadecimal=True)
            if left == right:
                raise i2c.error("right_address", f"0x{right:02X} is the left display's address too: give the second "
                                                 "display the other address (its address jumper: 0x3C -> 0x3D)")
            speed = i2c.get_int("speed_hz", 400_000, between=(10_000, 3_400_000))
            kw.update(i2c_bus=bus, addresses=(left, right), i2c_speed_hz=speed)
            if interface == "i2c":
                self.reserve(I2C_PINS.get(bus, {}), f"display.i2c.bus = {bus}")
        if spi is not None:
            kw.update(self.spi(spi, wired=interface == "spi"))
        return DisplayWiring(**kw)

    def spi(self, t: Section, *, wired: bool) -> dict[str, Any]:
        port = t.get_int("port", 0, between=(0, 1))
        ces = SPI_CE_PINS[port]
        hi = max(ces)
        left = t.get_int("left_device", 0, between=(0, hi))
        right = t.get_int("right_device", 1, between=(0, hi))
        if left == right:
            raise t.error("right_device", f"{right} is the left display's chip select too")
        speed = t.get_int("speed_hz", 8_000_000)
        if speed not in SPI_SPEEDS_HZ:
            raise t.error("speed_hz", f"{speed} is not an SPI speed luma offers (one of "
                                      f"{', '.join(map(str, SPI_SPEEDS_HZ))})")
        if wired:
            # the bus pins first: a button on SCLK is reported at the button's key, by reserve()
            bus = dict(SPI_BUS_PINS[port])
            bus.update({ces[d]: f"SPI{port} CE{d} (the {side} display's chip select)"
                        for d, side in ((left, "left"), (right, "right"))})
            self.reserve(bus, "display.interface = \"spi\"")
        # not wired now: checked for shape only, its pins are free
        dc = self.pin(t, "dc", wired=wired)
        resets = tuple(self.pin(t, k, wired=wired) if k in t else None for k in ("left_reset", "right_reset"))
        return {"spi_port": port, "spi_devices": (left, right), "spi_dc": dc, "spi_resets": resets,
                "spi_speed_hz": speed}

    def reserve(self, pins: dict[int, str], because: str) -> None:
        """The bus takes `pins`: a key already on one of them is an error at that key."""
        for key, bcm in self.used.items():
            if bcm in pins:
                raise self.root.error(key, f"BCM {bcm} is {pins[bcm]} and the displays use it ({because})")
        for bcm, what in pins.items():
            self.reserved[bcm] = (what, because)
