"""hw/README.md is checked against the data: every pin of hw/wiring.toml (and of the examples) is in
the wiring table with the same BCM number and the right header pin; the display addresses match."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from gameclock.device.wiring import DEFAULT_WIRING, HEADER_PIN, WiringError, load_wiring

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "hw" / "README.md").read_text(encoding="utf-8")
FILES = [DEFAULT_WIRING, *sorted((ROOT / "hw" / "examples").glob("*.toml"))]


def table(heading: str) -> list[list[str]]:
    """The rows (cells stripped) of the first table after `heading`."""
    start = README.index(heading)
    rows = []
    for line in README[start:].splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]  # without the header row


WIRING_ROWS = table("## Wiring table")
ADDRESS_ROWS = table("### The two displays' addresses")


def rows_by_key() -> dict[str, tuple[int, int]]:
    out = {}
    for _function, key, bcm, header, _notes in WIRING_ROWS:
        m = re.fullmatch(r"`([\w.]+)`", key)
        if m:
            out[m.group(1)] = (int(bcm), int(header))
    return out


def test_the_tables_were_found():
    assert len(WIRING_ROWS) >= 12 and len(ADDRESS_ROWS) == 2


def test_every_row_has_the_header_pin_of_its_bcm_number():
    for function, _key, bcm, header, _notes in WIRING_ROWS:
        assert HEADER_PIN[int(bcm)] == int(header), f"{function}: BCM {bcm} is header pin {HEADER_PIN[int(bcm)]}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_pin_of_the_wiring_is_in_the_table(path):
    rows = rows_by_key()
    wiring = load_wiring(path)
    for key, bcm in wiring.used.items():
        assert key in rows, f"{path.name}: {key} is not in hw/README.md's wiring table"
        assert rows[key] == (bcm, HEADER_PIN[bcm]), f"{path.name}: {key} is BCM {bcm}, the table says {rows[key]}"


def test_the_bus_pins_in_the_table():
    by_function = {row[0]: (int(row[2]), int(row[3])) for row in WIRING_ROWS}
    assert by_function["I2C SDA, both displays"] == (2, 3)
    assert by_function["I2C SCL, both displays"] == (3, 5)
    assert by_function["SPI CE0: left display's CS"] == (8, 24)
    assert by_function["SPI CE1: right display's CS"] == (7, 26)


def test_the_addresses_match_the_wiring():
    wiring = load_wiring(DEFAULT_WIRING)
    documented = {key.strip("`"): int(addr, 16) for _display, key, addr in ADDRESS_ROWS}
    assert documented == {"display.i2c.left_address": wiring.display.addresses[0],
                          "display.i2c.right_address": wiring.display.addresses[1]}
    # every hex number on the page is one of the two addresses, or its 8-bit form (the module's label)
    addresses = set(wiring.display.addresses)
    for text in re.findall(r"\b0x([0-9A-Fa-f]{2})\b", README):
        value = int(text, 16)
        assert value in addresses or value // 2 in addresses and value % 2 == 0 \
            or value in (0x03, 0x77), f"0x{text} on hw/README.md is not a display address"
    for path in FILES:
        w = load_wiring(path)
        if w.display.interface == "i2c":
            assert w.display.addresses == wiring.display.addresses, path.name


def test_the_error_example_is_what_the_loader_says(tmp_path):
    example = re.search(r"```\n(hw/wiring\.toml: .*)\n```", README).group(1)
    bad = tmp_path / "wiring.toml"
    bad.write_text(DEFAULT_WIRING.read_text(encoding="utf-8").replace("left = 17", "left = 2"), encoding="utf-8")
    with pytest.raises(WiringError) as exc:
        load_wiring(bad)
    assert example == "hw/wiring.toml: " + str(exc.value).split(": ", 1)[1]


def test_config_txt_lines_and_gesture_are_documented():
    for line in ("dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000", "dtoverlay=dwc2",
                 "modules-load=dwc2,g_serial"):
        assert line in README
    assert "hold the knob pushed for 3 seconds" in README
