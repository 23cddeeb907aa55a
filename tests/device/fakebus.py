"""Fake buses for luma's real serial interfaces, with controller models (ssd_model.py) behind them.

`FakeBus` stands in for an smbus2 `SMBus` on `luma.core.interface.serial.i2c(bus=FakeBus(), ...)`.
luma calls, on a bus it did not open itself, `write_i2c_block_data(address, control, bytes)` for
commands (control 0x00) and for data in 32-byte blocks (control 0x40); on a bus it opened itself
(smbus2, the Pi), `i2c_rdwr(i2c_msg)` for data with the control byte first. Both are served. A
transfer to an address where no model is attached raises OSError(EREMOTEIO), as Linux reports an
address that does not acknowledge.

Every transfer is recorded (`transfers`: monotonic ns after it ended, address, control byte, payload
length) and counted per address. With `khz`, each transfer takes the time a real I2C bus at that
clock would: (1 address byte + control byte + payload) x 9 bits / khz (start/stop bits aside),
slept (not spun, so it costs no CPU), one transfer at a time (the bus is shared). With `gate` (a
threading.Event), each transfer first waits until the gate is open: a bus that stays busy for as
long as the test wants, with no time spent sleeping (bounded by `gate_timeout_s`).

`FaultyBus` adds faults: addresses that are missing, and addresses that fail after some transfers
(a display unplugged in the middle of a frame); `heal()` plugs a display back, power-cycled (its
controller forgets its settings and its RAM holds garbage, as a real one does).

`FakeSpiDev` stands in for py-spidev's `SpiDev` on `luma.core.interface.serial.spi(spi=..., gpio=...)`:
`writebytes` goes to the model as commands or data by the DC pin's level at that moment.
"""
from __future__ import annotations

import errno
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Transfer:
    done_ns: int   # time.monotonic_ns() when the transfer ended
    address: int
    control: int
    length: int    # payload bytes after the control byte


class FakeBus:
    def __init__(self, khz: float | None = None, keep: bool = True, gate: threading.Event | None = None,
                 gate_timeout_s: float = 5.0):
        self.devices: dict[int, object] = {}
        self.khz = khz
        self.gate, self.gate_timeout_s = gate, gate_timeout_s
        self.keep = keep
        self.transfers: list[Transfer] = []
        self.bytes_by_address: dict[int, dict[str, int]] = {}
        self.last_done_ns = 0
        self._lock = threading.Lock()

    def attach(self, address: int, model) -> None:
        self.devices[address] = model

    # --- the smbus2 calls luma makes ---------------------------------------------------------
    def write_i2c_block_data(self, address: int, register: int, data) -> None:
        data = list(data)
        if len(data) > 32:  # SMBus block writes carry at most 32 bytes, as smbus2 enforces
            raise ValueError("Data length cannot exceed 32 bytes")
        self._transfer(address, [register] + data)

    def i2c_rdwr(self, *messages) -> None:
        for msg in messages:
            self._transfer(msg.addr, list(msg))

    def close(self) -> None:
        pass

    # --- the wire ----------------------------------------------------------------------------
    def check(self, address: int) -> None:
        """Raise as the bus would when `address` does not answer (FaultyBus overrides)."""
        if address not in self.devices:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def _transfer(self, address: int, payload: list[int]) -> None:
        with self._lock:
            self.check(address)
            if self.gate is not None:
                self.gate.wait(self.gate_timeout_s)
            if self.khz:
                time.sleep((1 + len(payload)) * 9 / (self.khz * 1000))
            control, rest = payload[0], payload[1:]
            self.devices[address].write(control, rest)
            done = time.monotonic_ns()
            self.last_done_ns = done
            counts = self.bytes_by_address.setdefault(address, {"command": 0, "data": 0, "transfers": 0})
            counts["data" if control & 0x40 else "command"] += len(rest)
            counts["transfers"] += 1
            if self.keep:
                self.transfers.append(Transfer(done, address, control, len(rest)))

    def data_bytes(self, address: int | None = None) -> int:
        return sum(c["data"] for a, c in self.bytes_by_address.items() if address in (None, a))

    def command_bytes(self, address: int | None = None) -> int:
        return sum(c["command"] for a, c in self.bytes_by_address.items() if address in (None, a))

    def mark(self) -> tuple[int, int]:
        """(data bytes, command bytes) so far, over all addresses: take two and subtract."""
        return self.data_bytes(), self.command_bytes()


class FaultyBus(FakeBus):
    """A FakeBus whose displays can be missing or fail. `missing`: address -> errno raised."""

    def __init__(self, khz: float | None = None, keep: bool = True, **kw):
        super().__init__(khz, keep, **kw)
        self.missing: dict[int, int] = {}
        self._fail_after: dict[int, tuple[int, int]] = {}
        self.refused = 0

    def unplug(self, address: int, code: int = errno.EREMOTEIO) -> None:
        self.missing[address] = code

    def fail_after(self, address: int, transfers: int, code: int = errno.EREMOTEIO) -> None:
        """Let `transfers` more transfers to `address` through, then fail (unplugged mid-frame)."""
        self._fail_after[address] = (transfers, code)

    def heal(self, address: int, power_cycle: bool = True, seed: int = 99) -> None:
        """Plug `address` back; `power_cycle`: its controller restarts (reset state, garbage RAM)."""
        self.missing.pop(address, None)
        self._fail_after.pop(address, None)
        if power_cycle and address in self.devices:
            self.devices[address].power_on(seed)

    def check(self, address: int) -> None:
        if address in self._fail_after:
            left, code = self._fail_after[address]
            if left <= 0:
                del self._fail_after[address]
                self.missing[address] = code
            else:
                self._fail_after[address] = (left - 1, code)
        if address in self.missing:
            self.refused += 1
            raise OSError(self.missing[address], "Remote I/O error" if self.missing[address] == errno.EREMOTEIO
                          else "bus error")
        super().check(address)


class FakeSpiDev:
    """py-spidev's SpiDev as luma uses it; `dc_level()` reads the DC pin (True: data)."""

    def __init__(self, model, dc_level: Callable[[], bool]):
        self.model = model
        self.dc_level = dc_level
        self.opened: tuple[int, int] | None = None
        self.max_speed_hz = 0
        self.mode = 0
        self.written = 0

    def open(self, port: int, device: int) -> None:
        self.opened = (port, device)

    def writebytes(self, data) -> None:
        data = list(data)
        if len(data) > 4096:
            raise OverflowError("spidev writes at most 4096 bytes")
        self.written += len(data)
        if self.dc_level():
            self.model.data(data)
        else:
            self.model.commands(data)

    def close(self) -> None:
        self.opened = None
