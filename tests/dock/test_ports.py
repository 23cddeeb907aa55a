"""dock/ports.py: which serial ports are docked clocks. The ports are pyserial's own
`ListPortInfo` objects (what `comports()` returns on every OS), filled in as pyserial's Linux
backend fills them from sysfs for a USB CDC ACM device."""
from __future__ import annotations

import pytest
from serial.tools import list_ports, list_ports_common

from gameclock.organiser import ports
from gameclock.organiser.ports import FoundPort, describe, find_clocks, why_not


def usb_port(device: str, vid: int, pid: int, manufacturer: str | None, product: str | None,
             serial: str | None = None, interface: str | None = "CDC Abstract Control Model (ACM)"):
    p = list_ports_common.ListPortInfo(device, skip_link_detection=True)
    p.vid, p.pid, p.serial_number = vid, pid, serial
    p.manufacturer, p.product, p.interface = manufacturer, product, interface
    p.location = "1-1:1.0"
    p.apply_usb_info()  # description and hwid, as pyserial's sysfs backend does
    return p


def clock(device="/dev/ttyACM0", serial="3a1b2c3d", **kw):
    return usb_port(device, 0x1D6B, 0x0104, kw.pop("manufacturer", "gameclock"),
                    kw.pop("product", "gameclock dock"), serial, **kw)


def serial_console(device="/dev/ttyS0"):
    return list_ports_common.ListPortInfo(device, skip_link_detection=True)  # vid/pid None


def test_a_clock_is_found_with_its_serial_and_description():
    found = find_clocks([serial_console(), clock()])
    assert found == [FoundPort(device="/dev/ttyACM0", serial_number="3a1b2c3d",
                               description="gameclock dock - CDC Abstract Control Model (ACM)",
                               vid=0x1D6B, pid=0x0104)]


def test_other_gadgets_with_the_linux_foundation_ids_are_not_clocks():
    """1d6b:0104 is every libcomposite gadget's id: the strings make it ours."""
    pi = usb_port("/dev/ttyACM0", 0x1D6B, 0x0104, "Raspberry Pi", "Pi Zero gadget", "0001")
    blank = usb_port("/dev/ttyACM1", 0x1D6B, 0x0104, None, None)
    assert find_clocks([pi, blank]) == []
    assert why_not(pi) == ("USB 1d6b:0104, but manufacturer 'Raspberry Pi' and product "
                           "'Pi Zero gadget' do not say gameclock")
    assert "do not say gameclock" in why_not(blank)


def test_strings_on_other_ids_are_not_enough():
    """A USB-UART adapter (or anything) may call itself gameclock: not a gadget, not opened."""
    ftdi = usb_port("/dev/ttyUSB0", 0x0403, 0x6001, "gameclock", "gameclock dock", "A50285BI")
    root_hub_like = usb_port("/dev/ttyACM3", 0x1D6B, 0x0002, "gameclock", "gameclock")
    assert find_clocks([ftdi, root_hub_like]) == []
    assert why_not(ftdi) == "USB 0403:6001 is not a gameclock gadget id"


def test_stock_g_serial_only_with_our_strings():
    stock = usb_port("/dev/ttyACM0", 0x0525, 0xA4A7, "Linux 6.1.21+ with 20980000.usb",
                     "Gadget Serial v2.4", None)
    ours = usb_port("/dev/ttyACM1", 0x0525, 0xA4A7, "gameclock", "gameclock-dock", None)
    product_only = usb_port("/dev/ttyACM2", 0x0525, 0xA4A7, "Linux 6.1.21+ with 20980000.usb",
                            "GameClock", None, interface=None)
    assert [f.device for f in find_clocks([stock, ours, product_only])] == ["/dev/ttyACM1",
                                                                             "/dev/ttyACM2"]
    assert "do not say gameclock" in why_not(stock)
    assert find_clocks([product_only])[0].description == "GameClock"  # no interface string


def test_the_strings_are_matched_in_any_case():
    assert why_not(clock(manufacturer="GAMECLOCK", product="Dock")) is None
    assert why_not(clock(manufacturer="someone", product="My GameClock 2")) is None


def test_a_serial_port_without_usb_data():
    assert why_not(serial_console()) == "not a USB device"


def test_several_clocks_come_in_device_order():
    found = find_clocks([clock("/dev/ttyACM10", "b2"), clock("/dev/ttyACM2", "a1"),
                         clock("/dev/ttyACM1", "c3")])
    assert [(f.device, f.serial_number) for f in found] == [
        ("/dev/ttyACM1", "c3"), ("/dev/ttyACM2", "a1"), ("/dev/ttyACM10", "b2")]


def test_an_empty_serial_string_is_no_serial():
    assert find_clocks([clock(serial="")])[0].serial_number is None
    assert find_clocks([clock(serial=None)])[0].serial_number is None


def test_describe_is_one_line():
    assert describe(find_clocks([clock()])[0]) == (
        "/dev/ttyACM0: gameclock dock - CDC Abstract Control Model (ACM), clock 3a1b2c3d "
        "(USB 1d6b:0104)")
    no_serial = FoundPort("/dev/ttyACM1", None, "gameclock-dock", 0x0525, 0xA4A7)
    assert describe(no_serial) == ("/dev/ttyACM1: gameclock-dock, clock without a serial number "
                                   "(USB 0525:a4a7)")


def test_by_default_it_asks_pyserial(monkeypatch):
    calls = []

    def comports(*args, **kwargs):
        calls.append((args, kwargs))
        return [serial_console(), clock("/dev/ttyACM4")]

    monkeypatch.setattr(list_ports, "comports", comports)
    assert [f.device for f in find_clocks()] == ["/dev/ttyACM4"]
    assert calls == [((), {})]


def test_pyserial_lists_this_machine_without_error():
    """The real comports() on this machine: the call works, and whatever it finds has our ids."""
    for f in find_clocks():
        assert (f.vid, f.pid) in ports.CLOCK_IDS


@pytest.mark.parametrize("ids", [ports.GADGET_IDS, ports.G_SERIAL_IDS])
def test_both_id_pairs_are_accepted(ids):
    assert find_clocks([usb_port("/dev/ttyACM0", *ids, "gameclock", "gameclock dock", "9")])
