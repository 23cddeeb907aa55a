"""The device's dock thread: the clock end of the protocol on its serial port, beside the loop.

    dock = DockThread(port_path, state_dir, serial, outbox, inbox.put, info=lambda: loop.info_snapshot)
    loop.dock = dock; dock.start()

It owns the port and the `clockside.ClockEndpoint`; it never touches the game. What the loop must
know comes to it through the inbox like any other input: `DockUpdate` (a new `DockStatus`: DOCKED,
progress, done) and `Pairing` (the table's next players, ui.keys). The loop tells it in turn when
a side's clock is running (`set_busy`): then no new upload starts, so docking during a game costs
the game nothing but the bytes of acks already under way (PROTOCOL.md, "Delivery"; ARCHITECTURE.md).

A port that is missing (`/dev/ttyGS0` before the USB gadget is up, a UART not wired) or goes away
is tried again every REOPEN_S; that is normal, so it is logged once, not every time.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from gameclock.device.closing import Closing
from gameclock.dock.clockside import ClockEndpoint, DockStatus, Outbox
from gameclock.dock.keystore import KeyStore
from gameclock.dock.link import FdPort, Link, PortGone, open_port
from gameclock.inbox import DockUpdate, Input, Pairing

log = logging.getLogger(__name__)
REOPEN_S = 2.0


class DockThread(threading.Thread, Closing):
    """`outbox`: the journal's outbox (clockside.ClockEndpoint reads and marks it); `put`: the loop's
    inbox.put; `opener`: opens the port's path (tests and the simulator's pty pass their own)."""

    def __init__(self, port: str, state_dir: str | os.PathLike[str], serial: str, outbox: Outbox,
                 put: Callable[[Input], None], info: Callable[[], Mapping[str, Any]] = dict,
                 opener: Callable[[str], FdPort] = open_port, clock: Callable[[], int] = time.monotonic_ns):
        super().__init__(name="dock", daemon=True)
        self.path, self.put, self.opener, self.clock = port, put, opener, clock
        self.stop_event = threading.Event()
        self._busy = threading.Event()
        self.endpoint = ClockEndpoint(serial, outbox, KeyStore(state_dir), info=info,
                                      on_pairing=self._pairing, on_status=self._status)

    def set_busy(self, busy: bool) -> None:
        """Loop thread: a side's clock is running (True) or not."""
        if busy != self._busy.is_set():
            (self._busy.set if busy else self._busy.clear)()

    def answer_enroll(self, code: str, yes: bool) -> None:
        """Loop thread: the arbiter's answer to the enrollment code `code` (taken within 0.25 s)."""
        self.endpoint.answer_enroll(code, yes)

    def _pairing(self, pairing: dict[str, Any]) -> None:
        self.put(Pairing(self.clock(), pairing))

    def _status(self, status: DockStatus) -> None:
        self.put(DockUpdate(self.clock(), status))

    def stop(self) -> None:
        self.stop_event.set()

    def close(self, timeout_s: float = 5.0) -> None:
        """Stop the thread and wait (at most `timeout_s`) until it has closed its port."""
        self.stop()
        if self.is_alive():
            self.join(timeout_s)

    def __repr__(self) -> str:
        if self.is_alive():
            state = "stopping" if self.stop_event.is_set() else "running"
        else:
            state = "stopped" if self.stop_event.is_set() else "not started"
        busy = ", busy (a clock runs: no upload starts)" if self._busy.is_set() else ""
        return f"<DockThread on {self.path}, {state}{busy}>"

    def run(self) -> None:
        complained = False
        while not self.stop_event.is_set():
            try:
                port = self.opener(self.path)
            except OSError as exc:
                if not complained:
                    log.info("dock: %s (trying again every %g s)", exc, REOPEN_S)
                    complained = True
                self.stop_event.wait(REOPEN_S)
                continue
            complained = False
            log.info("dock: listening on %s", self.path)
            link = Link(port, self.endpoint, clock=self.clock)
            try:
                link.start()
                while not self.stop_event.is_set():
                    self.endpoint.hold = self._busy.is_set()
                    link.step(0.25)  # short: a game's end releases the hold within 0.25 s
            except PortGone as exc:
                log.info("dock: %s", exc)
                self.endpoint.welcomed = False
                self._status(DockStatus(enrolled=self.endpoint.status.enrolled))
                self.stop_event.wait(REOPEN_S)
            except Exception:  # the dock must never take the clock down: log, wait, start over
                log.exception("dock: link failed; starting over")
                self.stop_event.wait(REOPEN_S)
            finally:
                port.close()
                self.endpoint.flush_log()  # what the rate limits kept quiet is summed up now
