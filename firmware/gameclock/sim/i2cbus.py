"""A simulated I2C bus for the displays: `gameclock run --sim-pins --display oled --sim-bus KHZ`.

An smbus2-like bus on which every address answers and every transfer takes as long as on a real
bus at `khz` (the Pi's config.txt: 400 kHz): (address + register/control + payload bytes) x 9
bits, slept (no CPU), one transfer at a time for both displays. It lets the daemon run the whole
display path off a Pi -- luma's i2c interface, the diffing drivers, the sink's worker -- so the
start-up bench (bench/startup.py) measures the time to the clock on the bus. luma's i2c on a bus
it did not open sends a frame's data in 32-byte blocks (on the Pi, where it opens /dev/i2c-N, in
one i2c_rdwr transfer), so this costs 2 bytes more per 32: a few % slower than the Pi's bus.
Start/stop bits, the kernel's per-transfer overhead and clock stretching are not simulated.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sized
from typing import Any


class SimulatedI2CBus:
    """Accepts everything and takes a real bus's time to do it; counts transfers and bytes."""

    def __init__(self, khz: float):
        if not khz > 0:
            raise ValueError(f"a simulated bus needs a clock above 0 kHz, not {khz}")
        self.khz = khz
        self.transfers = 0
        self.bytes = 0
        self._lock = threading.Lock()

    def write_i2c_block_data(self, address: int, register: int, data: Sized) -> None:
        self._carry(2 + len(data))

    def i2c_rdwr(self, *messages: Sized) -> None:
        for m in messages:
            self._carry(1 + len(m))

    def _carry(self, n_bytes: int) -> None:
        with self._lock:
            time.sleep(n_bytes * 9 / (self.khz * 1000))
            self.transfers += 1
            self.bytes += n_bytes

    def close(self) -> None:
        pass


def sim_buses(addresses: Iterable[int], khz: float | None) -> dict[int, Any] | None:
    """{address: one shared SimulatedI2CBus} for `build_sink(smbus=...)`; None when `khz` is None
    (the real /dev/i2c-N)."""
    if khz is None:
        return None
    bus = SimulatedI2CBus(khz)
    return {a: bus for a in addresses}
