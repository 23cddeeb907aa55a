"""The clock's serial for result-record ids (CL-5): device tree, /proc/cpuinfo, else the host name."""
from __future__ import annotations

import re

from gameclock.device.identity import clock_serial
from gameclock.record import record_id


def test_serial_from_the_device_tree(tmp_path):
    dt = tmp_path / "sys/firmware/devicetree/base"
    dt.mkdir(parents=True)
    (dt / "serial-number").write_bytes(b"00000000a1b2c3d4\x00")
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/cpuinfo").write_text("Serial\t\t: 1111111111111111\n")
    assert clock_serial(tmp_path) == "a1b2c3d4"
    assert record_id(clock_serial(tmp_path), 17) == "a1b2c3d4-000017"


def test_serial_from_cpuinfo(tmp_path):
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/cpuinfo").write_text("processor\t: 0\nHardware\t: BCM2835\nSerial\t\t: 100000003a1b2c3d\n")
    assert clock_serial(tmp_path) == "100000003a1b2c3d"


def test_elsewhere_the_host_name_made_safe(tmp_path):
    got = clock_serial(tmp_path)  # no device tree, no cpuinfo: the simulator, a PC
    assert re.fullmatch(r"[A-Za-z0-9._-]{1,64}", got)
    assert got == clock_serial(tmp_path / "elsewhere")
