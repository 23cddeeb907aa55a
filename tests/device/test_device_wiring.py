"""hw/wiring.toml and its strict loader: the default file, the override order, and one-line errors
naming the file and the dotted key for each kind of mistake."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from gameclock.device.wiring import (
    DEFAULT_WIRING,
    ENV_WIRING,
    HEADER_PIN,
    DisplayWiring,
    Wiring,
    WiringError,
    load_wiring,
    wiring_path,
)

ROOT = Path(__file__).resolve().parents[2]
BASE = DEFAULT_WIRING.read_text(encoding="utf-8")

LEVER = BASE.replace('input = "buttons"', 'input = "lever"').replace("\nleft = 17", "\nlever_left = 17") \
    .replace("\nright = 27", "\nlever_right = 27")
SPI = BASE.replace('interface = "i2c"', 'interface = "spi"') + """
[display.spi]
port = 0
left_device = 0
right_device = 1
dc = 24
left_reset = 25
right_reset = 23
"""


def write(tmp_path, text, name="wiring.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def error(tmp_path, text) -> str:
    path = write(tmp_path, text)
    with pytest.raises(WiringError) as exc:
        load_wiring(path)
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith(str(path)), msg  # one line, the file first
    return msg[len(str(path)) + 2:]


def test_the_default_file():
    w = load_wiring(DEFAULT_WIRING)
    assert DEFAULT_WIRING == ROOT / "hw" / "wiring.toml"
    assert w.players == "buttons" and not w.lever
    assert dict(w.pins) == {"left": 17, "right": 27, "pause": 22, "knob_a": 5, "knob_b": 6,
                            "knob_push": 13, "back": 26}
    assert w.debounce_ns == 30_000_000 and w.long_press_ns == 800_000_000
    assert (w.buzzer.pin, w.buzzer.type, w.buzzer.frequency_hz) == (18, "passive", 2000)
    d = w.display
    assert isinstance(d, DisplayWiring)
    assert (d.driver, d.interface, d.i2c_bus, d.addresses, d.i2c_speed_hz) == ("ssd1306", "i2c", 1, (0x3C, 0x3D), 400_000)
    assert d.address == {"left": 0x3C, "right": 0x3D}
    assert set(w.used.values()) == {17, 27, 22, 5, 6, 13, 26, 18}
    assert all(bcm in HEADER_PIN for bcm in w.used.values())


def test_which_file(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV_WIRING, raising=False)
    assert wiring_path() == DEFAULT_WIRING
    mine = write(tmp_path, LEVER)
    monkeypatch.setenv(ENV_WIRING, str(mine))
    assert wiring_path() == mine and load_wiring().lever
    other = write(tmp_path, BASE, "other.toml")
    assert wiring_path(other) == other and not load_wiring(other).lever  # --wiring beats the env


def test_lever_wiring(tmp_path):
    w = load_wiring(write(tmp_path, LEVER))
    assert w.lever and w.pins["lever_left"] == 17 and w.pins["lever_right"] == 27
    assert "left" not in w.pins


def test_spi_wiring(tmp_path):
    w = load_wiring(write(tmp_path, SPI))
    d = w.display
    assert (d.interface, d.spi_port, d.spi_devices, d.spi_dc, d.spi_resets) == ("spi", 0, (0, 1), 24, (25, 23))
    assert w.used["display.spi.dc"] == 24


def test_an_unused_spi_table_takes_no_pins(tmp_path):
    text = BASE + "\n[display.spi]\ndc = 24\n"
    w = load_wiring(write(tmp_path, text))
    assert w.display.interface == "i2c" and w.display.spi_dc == 24 and 24 not in w.used.values()
    assert load_wiring(write(tmp_path, text.replace("pause = 22", "pause = 10"))).pins["pause"] == 10
    assert load_wiring(write(tmp_path, text.replace("dc = 24", "dc = 17"))).display.spi_dc == 17
    assert error(tmp_path, text.replace("dc = 24", "dc = 30")).startswith("display.spi.dc: BCM 30 is not")


def test_example_files_load():
    examples = sorted((ROOT / "hw" / "examples").glob("*.toml"))
    assert examples
    for path in examples:
        assert isinstance(load_wiring(path), Wiring)


@pytest.mark.parametrize("change, where, what", [
    (("[knob]", "[knob]\nclick = 4"), "knob.click", "unknown key"),
    (("[knob]", "[knob]\npsuh = 4"), "knob.psuh", "did you mean 'push'"),
    (("[buzzer]", "[buzer]"), "buzer", "unknown table"),
    (("back = 26", ""), "knob.back", "missing (required)"),
    (("pin = 18", 'pin = "18"'), "buzzer.pin", "expected an integer, got string '18'"),
    (("pin = 18", "pin = true"), "buzzer.pin", "expected an integer, got true"),
    (("pin = 18", "pin = 28"), "buzzer.pin", "BCM 28 is not a GPIO of the 40-pin header"),
    (("pin = 18", "pin = -1"), "buzzer.pin", "BCM -1"),
    (("push = 13", "push = 17"), "knob.push", "BCM 17 is already used by players.left"),
    (("left = 17", "left = 2"), "players.left", "BCM 2 is the I2C bus's SDA line"),
    (("b = 6", "b = 3"), "knob.b", "SCL"),
    (('input = "buttons"', 'input = "toggle"'), "players.input", "expected one of buttons, lever"),
    (("\nleft = 17", "\nlever_left = 17"), "players.lever_left", "not used with players.input = 'buttons'"),
    (("debounce_ms = 30", "debounce_ms = 0"), "players.debounce_ms", "must be 1-200"),
    (("long_press_ms = 800", "long_press_ms = 3000"), "knob.long_press_ms", "must be 200-2000"),
    (('type = "passive"', 'type = "active"'), "buzzer.frequency_hz", "not used with buzzer.type = 'active'"),
    (('type = "passive"', 'type = "piezo"'), "buzzer.type", "expected one of active, passive"),
    (("frequency_hz = 2000", "frequency_hz = 20000"), "buzzer.frequency_hz", "must be 100-10000"),
    (('driver = "ssd1306"', 'driver = "ssd1309"'), "display.driver", "did you mean 'ssd1306'"),
    (("rotation = 0", "rotation = 1"), "display.rotation", "must be 0 or 2"),
    (("right_address = 0x3D", "right_address = 0x3C"), "display.i2c.right_address",
     "0x3C is the left display's address too"),
    (("left_address = 0x3C", "left_address = 0x78"), "display.i2c.left_address", "must be 0x03-0x77, got 0x78"),
    (("[display.i2c]", "[display.i2c]\naddress = 0x3C"), "display.i2c.address", "unknown key"),
    (("bus = 1", "bus = 1\n[display.i2c.more]"), "display.i2c.more", "unknown key"),
])
def test_errors(tmp_path, change, where, what):
    old, new = change
    assert old in BASE
    msg = error(tmp_path, BASE.replace(old, new, 1))
    assert msg.startswith(where + ": ") and what in msg, msg


def test_missing_table(tmp_path):
    text = BASE.split("[display]")[0]
    assert error(tmp_path, text) == "display: missing table (add a [display] section)"
    assert error(tmp_path, BASE.split("[display.i2c]")[0]).startswith("display.i2c: missing table")


def test_lever_needs_both_contacts(tmp_path):
    assert error(tmp_path, LEVER.replace("lever_right = 27", "")) == "players.lever_right: missing (required)"
    msg = error(tmp_path, LEVER.replace("lever_right = 27", "lever_right = 27\nright = 4"))
    assert msg.startswith("players.right: not used with players.input = 'lever'")


def test_spi_errors(tmp_path):
    msg = error(tmp_path, SPI.replace("pause = 22", "pause = 11"))
    assert msg.startswith("players.pause: BCM 11 is SPI0 SCLK and the displays use it")
    msg = error(tmp_path, SPI.replace("pause = 22", "pause = 7"))
    assert msg.startswith("players.pause: BCM 7 is SPI0 CE1 (the right display's chip select)")
    msg = error(tmp_path, SPI.replace("dc = 24", "dc = 10"))
    assert msg.startswith("display.spi.dc: BCM 10 is SPI0 MOSI")
    msg = error(tmp_path, SPI.replace("right_reset = 23", "right_reset = 25"))
    assert msg == "display.spi.right_reset: BCM 25 is already used by display.spi.left_reset"
    assert error(tmp_path, SPI.replace("right_device = 1", "right_device = 0")).startswith(
        "display.spi.right_device: 0 is the left display's chip select too")
    assert error(tmp_path, SPI.replace("dc = 24\n", "")) == "display.spi.dc: missing (required)"
    assert error(tmp_path, SPI + "speed_hz = 10000000\n").startswith(
        "display.spi.speed_hz: 10000000 is not an SPI speed luma offers")
    # with the displays on SPI, the I2C pins are free for buttons
    assert load_wiring(write(tmp_path, SPI.replace("pause = 22", "pause = 2"))).pins["pause"] == 2


def test_file_errors(tmp_path):
    assert error(tmp_path, BASE + "\n[players\n").startswith("TOML syntax error")
    with pytest.raises(WiringError, match=r"nope\.toml: cannot read"):
        load_wiring(tmp_path / "nope.toml")
    p = tmp_path / "latin.toml"
    p.write_bytes(b"# caf\xe9\n")
    with pytest.raises(WiringError, match=r"not UTF-8"):
        load_wiring(p)


def test_every_message_names_a_key_that_exists_in_the_format():
    """The dotted keys the loader may name are the documented ones (hw/README.md)."""
    readme = (ROOT / "hw" / "README.md").read_text(encoding="utf-8")
    source = (ROOT / "firmware" / "gameclock" / "device" / "wiring.py").read_text(encoding="utf-8")
    keys = set()
    for table, tuple_name in (("players", "_PLAYERS_KEYS"), ("knob", "_KNOB_KEYS"),
                              ("buzzer", "_BUZZER_KEYS"), ("display", "_DISPLAY_KEYS"),
                              ("display.i2c", "_I2C_KEYS"), ("display.spi", "_SPI_KEYS")):
        body = re.search(tuple_name + r" = \(([^)]*)\)", source).group(1)
        keys |= {f"{table}.{k}" for k in re.findall(r'"(\w+)"', body)}
    for key in sorted(keys):
        if key in ("display.i2c", "display.spi"):
            continue
        assert f"`{key}`" in readme, f"hw/README.md does not document {key}"
