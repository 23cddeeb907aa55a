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
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from gameclock.dataerrors import did_you_mean as _did_you_mean, display_path as _display_path
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


class WiringError(ValueError):
    """The wiring file is wrong. str() is one line: "<file>: <dotted.key>: <what is wrong>"."""

    def __init__(self, file: str | os.PathLike[str], key: str | None, problem: str):
        self.file = _display_path(file)
        self.key = key
        self.problem = " ".join(str(problem).split())
        super().__init__(": ".join([self.file] + ([key] if key else []) + [self.problem]))


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
    path = wiring_path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise WiringError(path, None, f"cannot read ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise WiringError(path, None, f"not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise WiringError(path, None, f"TOML syntax error: {exc}") from None
    return _Builder(path).build(data)


# --------------------------------------------------------------------------------------------- checks




def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"float {value}"
    if isinstance(value, str):
        return f"string {value!r}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return "a date/time"




class _Builder:
    def __init__(self, path: Path):
        self.path = path
        self.used: dict[str, int] = {}  # dotted key -> BCM, in file order
        self.reserved: dict[int, tuple[str, str]] = {}  # BCM -> (what it is, why it is taken)

    def fail(self, key: str | None, problem: str) -> WiringError:
        return WiringError(self.path, key, problem)

    # ---- typed getters ----

    def table(self, data: dict, key: str, dotted: str, allowed: tuple[str, ...], *,
              required: bool = True) -> dict | None:
        if key not in data:
            if required:
                raise self.fail(dotted, f"missing table (add a [{dotted}] section)")
            return None
        value = data[key]
        if not isinstance(value, dict):
            raise self.fail(dotted, f"expected a table [{dotted}], got {_shown(value)}")
        for k in value:
            if k not in allowed:
                raise self.fail(f"{dotted}.{k}", "unknown key" + _did_you_mean(k, allowed))
        return value

    def integer(self, t: dict, prefix: str, key: str, *, default: int | None = None,
                lo: int | None = None, hi: int | None = None, hexa: bool = False) -> int:
        dotted = f"{prefix}.{key}"
        if key not in t:
            if default is None:
                raise self.fail(dotted, "missing (required)")
            return default
        value = t[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(dotted, f"expected an integer, got {_shown(value)}")
        show = (lambda v: f"0x{v:02X}") if hexa else str
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise self.fail(dotted, f"must be {show(lo)}-{show(hi)}, got {show(value)}")
        return value

    def choice(self, t: dict, prefix: str, key: str, choices: tuple, *, default=None):
        dotted = f"{prefix}.{key}"
        if key not in t:
            if default is None:
                raise self.fail(dotted, f"missing (required: one of {', '.join(map(str, choices))})")
            return default
        value = t[key]
        if not isinstance(value, str) or value not in choices:
            hint = _did_you_mean(value, choices) if isinstance(value, str) else ""
            raise self.fail(dotted, f"expected one of {', '.join(map(str, choices))}, got {_shown(value)}"
                            + hint)
        return value

    def boolean(self, t: dict, prefix: str, key: str, *, default: bool) -> bool:
        if key not in t:
            return default
        value = t[key]
        if not isinstance(value, bool):
            raise self.fail(f"{prefix}.{key}", f"expected true or false, got {_shown(value)}")
        return value

    def pin(self, t: dict, prefix: str, key: str, *, required: bool = True,
            wired: bool = True) -> int | None:
        """A BCM pin number 0-27; wired: not used by another key nor taken by the displays' bus."""
        dotted = f"{prefix}.{key}"
        if key not in t and not required:
            return None
        value = self.integer(t, prefix, key)
        if not BCM_MIN <= value <= BCM_MAX:
            raise self.fail(dotted, f"BCM {value} is not a GPIO of the 40-pin header "
                                    f"(BCM {BCM_MIN}-{BCM_MAX})")
        if not wired:
            return value
        for other, bcm in self.used.items():
            if bcm == value:
                raise self.fail(dotted, f"BCM {value} is already used by {other}")
        if value in self.reserved:
            what, because = self.reserved[value]
            raise self.fail(dotted, f"BCM {value} is {what} and the displays use it ({because})")
        self.used[dotted] = value
        return value

    def not_used_by(self, key: str, mode: str, t: dict, prefix: str, keys: tuple[str, ...]) -> None:
        for k in keys:
            if k in t:
                raise self.fail(f"{prefix}.{k}", f"not used with {key} = {mode!r}")

    # ---- the file ----

    def build(self, data: dict) -> Wiring:
        for k in data:
            if k not in _SECTIONS:
                what = "table" if isinstance(data[k], dict) else "key"
                raise self.fail(k, f"unknown {what} (a wiring file has [players], [knob], [buzzer], "
                                   f"[display])" + _did_you_mean(k, _SECTIONS))
        players = self.table(data, "players", "players", _PLAYERS_KEYS)
        knob = self.table(data, "knob", "knob", _KNOB_KEYS)
        buzzer_t = self.table(data, "buzzer", "buzzer", _BUZZER_KEYS)
        display_t = self.table(data, "display", "display", _DISPLAY_KEYS)

        mode = self.choice(players, "players", "input", PLAYER_INPUTS)
        other = "lever" if mode == "buttons" else "buttons"
        self.not_used_by("players.input", mode, players, "players", _PLAYER_PIN_KEYS[other])
        pins: dict[str, int] = {}
        for key in _PLAYER_PIN_KEYS[mode]:
            pins[key] = self.pin(players, "players", key)
        pins["pause"] = self.pin(players, "players", "pause")
        debounce_ms = self.integer(players, "players", "debounce_ms", default=30, lo=1, hi=200)
        pins["knob_a"] = self.pin(knob, "knob", "a")
        pins["knob_b"] = self.pin(knob, "knob", "b")
        pins["knob_push"] = self.pin(knob, "knob", "push")
        pins["back"] = self.pin(knob, "knob", "back")
        # at most 2 s: shorter than the arbiter's 3 s unlock hold, whose long click comes first
        long_press_ms = self.integer(knob, "knob", "long_press_ms", default=800, lo=200, hi=2000)

        buzzer = self.buzzer(buzzer_t)
        display = self.display(display_t)
        return Wiring(path=self.path, players=mode, pins=pins, debounce_ns=debounce_ms * NS_PER_MS,
                      long_press_ns=long_press_ms * NS_PER_MS, buzzer=buzzer, display=display,
                      used=dict(self.used))

    def buzzer(self, t: dict) -> BuzzerWiring:
        pin = self.pin(t, "buzzer", "pin")
        kind = self.choice(t, "buzzer", "type", BUZZER_TYPES)
        freq = None
        if kind == "passive":
            freq = self.integer(t, "buzzer", "frequency_hz", default=2000, lo=100, hi=10000)
        else:
            self.not_used_by("buzzer.type", kind, t, "buzzer", ("frequency_hz",))
        high = self.boolean(t, "buzzer", "active_high", default=True)
        return BuzzerWiring(pin=pin, type=kind, frequency_hz=freq, active_high=high)

    def display(self, t: dict) -> DisplayWiring:
        driver = self.choice(t, "display", "driver", DRIVERS)
        interface = self.choice(t, "display", "interface", INTERFACES)
        rotation = self.integer(t, "display", "rotation", default=0)
        if rotation not in ROTATIONS:
            raise self.fail("display.rotation", f"must be 0 or 2 (180 degrees), got {rotation} "
                                                "(the screens are drawn 128 wide, 64 high)")
        # Both tables may be present (switching is one word); the unused one is checked, not wired.
        i2c = self.table(t, "i2c", "display.i2c", _I2C_KEYS, required=interface == "i2c")
        spi = self.table(t, "spi", "display.spi", _SPI_KEYS, required=interface == "spi")
        kw: dict[str, Any] = {"driver": driver, "interface": interface, "rotation": rotation}
        if i2c is not None:
            bus = self.integer(i2c, "display.i2c", "bus", default=1, lo=0, hi=31)
            left = self.integer(i2c, "display.i2c", "left_address", lo=0x03, hi=0x77, hexa=True)
            right = self.integer(i2c, "display.i2c", "right_address", lo=0x03, hi=0x77, hexa=True)
            if left == right:
                raise self.fail("display.i2c.right_address",
                                f"0x{right:02X} is the left display's address too: give the second "
                                "display the other address (its address jumper: 0x3C -> 0x3D)")
            speed = self.integer(i2c, "display.i2c", "speed_hz", default=400_000, lo=10_000,
                                 hi=3_400_000)
            kw.update(i2c_bus=bus, addresses=(left, right), i2c_speed_hz=speed)
            if interface == "i2c":
                self.reserve(I2C_PINS.get(bus, {}), f"display.i2c.bus = {bus}")
        if spi is not None:
            kw.update(self.spi(spi, wired=interface == "spi"))
        return DisplayWiring(**kw)

    def spi(self, t: dict, *, wired: bool) -> dict[str, Any]:
        p = "display.spi"
        port = self.integer(t, p, "port", default=0, lo=0, hi=1)
        ces = SPI_CE_PINS[port]
        hi = max(ces)
        left = self.integer(t, p, "left_device", default=0, lo=0, hi=hi)
        right = self.integer(t, p, "right_device", default=1, lo=0, hi=hi)
        if left == right:
            raise self.fail(f"{p}.right_device", f"{right} is the left display's chip select too")
        speed = self.integer(t, p, "speed_hz", default=8_000_000)
        if speed not in SPI_SPEEDS_HZ:
            raise self.fail(f"{p}.speed_hz", f"{speed} is not an SPI speed luma offers (one of "
                                             f"{', '.join(map(str, SPI_SPEEDS_HZ))})")
        if wired:
            # the bus pins first: a button on SCLK is reported at the button's key, by reserve()
            bus = dict(SPI_BUS_PINS[port])
            bus.update({ces[d]: f"SPI{port} CE{d} (the {side} display's chip select)"
                        for d, side in ((left, "left"), (right, "right"))})
            self.reserve(bus, "display.interface = \"spi\"")
        # not wired now: checked for shape only, its pins are free
        dc = self.pin(t, p, "dc", wired=wired)
        resets = (self.pin(t, p, "left_reset", required=False, wired=wired),
                  self.pin(t, p, "right_reset", required=False, wired=wired))
        return {"spi_port": port, "spi_devices": (left, right), "spi_dc": dc, "spi_resets": resets,
                "spi_speed_hz": speed}

    def reserve(self, pins: dict[int, str], because: str) -> None:
        """The bus takes `pins`: a key already on one of them is an error at that key."""
        for key, bcm in self.used.items():
            if bcm in pins:
                raise self.fail(key, f"BCM {bcm} is {pins[bcm]} and the displays use it ({because})")
        for bcm, what in pins.items():
            self.reserved[bcm] = (what, because)
