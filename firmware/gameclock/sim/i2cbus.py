"""A simulated I2C bus for the displays: `gameclock run --sim-pins --display oled --sim-bus KHZ`.

An smbus2-like bus on which every address answers and every transfer takes as long as on a real
bus at `khz` (the Pi's config.txt: 400 kHz): (address + register/control + payload bytes) x 9
bits, plus, with `per_transfer_us`, the start and stop conditions (2 bit times) and that many
microseconds of per-transfer overhead (the kernel's ioctl and the bcm2835 driver setting up a
transfer, ~50 us on a Pi), one transfer at a time for both displays. It lets the daemon run the
whole display path off a Pi -- luma's i2c interface, the diffing drivers, the sink's worker -- so
the start-up and device benches (bench/startup.py, bench/device.py) measure the time to the clock
on the bus. luma's i2c sends a frame's data in 32-byte SMBus blocks on a bus handed to it, and in
one i2c_rdwr transfer per window on a bus it opened itself (the Pi's /dev/i2c-N). This bus says
`as_opened`, so the drivers make luma take the Pi's path (gameclock.device.display `_as_opened`):
the benches time the Pi's transfers, not 2 bytes and one sleep more per 32 bytes.

The time is slept (no CPU) against the bus's own timeline: a transfer called within `CONTINUE_NS`
of the previous one's wake-up starts as much earlier as that sleep overshot (it would have been
called that much earlier on a real bus), so the tens of microseconds each sleep overshoots are not
added up over a frame's transfers. Clock stretching is not simulated.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sized
from typing import Any

START_STOP_BITS = 2
CONTINUE_NS = 1_000_000


class SimulatedI2CBus:
    """Accepts everything and takes a real bus's time to do it; counts transfers and bytes."""

    as_opened = True  # luma sends as on a bus it opened itself (module docstring)

    def __init__(self, khz: float, per_transfer_us: float = 0.0):
        if not khz > 0:
            raise ValueError(f"a simulated bus needs a clock above 0 kHz, not {khz}")
        if not per_transfer_us >= 0:
            raise ValueError(f"per-transfer overhead must be >= 0 us, not {per_transfer_us}")
        self.khz = khz
        self.per_transfer_us = per_transfer_us
        self.transfers = 0
        self.bytes = 0
        self.busy_ns = 0  # simulated time the bus was busy
        self._woke_ns = 0  # monotonic ns the last transfer's sleep returned
        self._late_ns = 0  # by how much that sleep overshot the transfer's end
        self._lock = threading.Lock()

    def write_i2c_block_data(self, address: int, register: int, data: Sized) -> None:
        self._carry(2 + len(data))

    def i2c_rdwr(self, *messages: Sized) -> None:
        for m in messages:
            self._carry(1 + len(m))

    @staticmethod
    def msg_write(address: int, data: Iterable[int]) -> bytes:
        """A write message for `i2c_rdwr`, as smbus2's `i2c_msg.write(address, data)`: its bytes."""
        return bytes(data)

    def transfer_ns(self, n_bytes: int) -> int:
        """How long one transfer of `n_bytes` (address included) keeps the bus."""
        bits = n_bytes * 9 + (START_STOP_BITS if self.per_transfer_us else 0)
        return int(bits * 1e9 / (self.khz * 1000) + self.per_transfer_us * 1000)

    def _carry(self, n_bytes: int) -> None:
        with self._lock:
            took = self.transfer_ns(n_bytes)
            now = time.monotonic_ns()
            start = now - self._late_ns if now - self._woke_ns < CONTINUE_NS else now
            end = start + took
            if end > now:
                time.sleep((end - now) / 1e9)
            self._woke_ns = time.monotonic_ns()
            self._late_ns = max(0, self._woke_ns - end)
            self.transfers += 1
            self.bytes += n_bytes
            self.busy_ns += took

    def close(self) -> None:
        pass


def sim_buses(addresses: Iterable[int], khz: float | None,
              per_transfer_us: float = 0.0) -> dict[int, Any] | None:
    """{address: one shared SimulatedI2CBus} for `build_sink(smbus=...)`; None when `khz` is None
    (the real /dev/i2c-N)."""
    if khz is None:
        return None
    bus = SimulatedI2CBus(khz, per_transfer_us)
    return {a: bus for a in addresses}
