"""systemd's notify protocol (sd_notify) in the standard library, and the loop's watchdog timer.

A `Type=notify` service tells systemd how it is doing by sending datagrams such as `READY=1` to the
AF_UNIX socket named by `$NOTIFY_SOCKET` (a path, or `@name` for the abstract namespace). With
`WatchdogSec=`, systemd sets `$WATCHDOG_USEC` (and `$WATCHDOG_PID`) and kills and restarts the
service when no `WATCHDOG=1` arrives within that interval.

Without `$NOTIFY_SOCKET` (run by hand) every call is a no-op returning False. A failed send is
logged (never swallowed silently, unlike the `sdnotify` package) and never raises: the clock keeps
running. The `WATCHDOG=1` pings come from `NotifyTimer`, a timer the event loop fires, so a hung loop
stops pinging and systemd restarts the clock.
"""
from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


def notify(message: str) -> bool:
    """Send one sd_notify datagram; True if it was sent. No socket in the environment: False."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    target = "\0" + address[1:] if address.startswith("@") else address
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(target)
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("sd_notify %r to %s failed: %s", message, address, exc)
        return False
    return True


def ready() -> bool:
    return notify("READY=1")


def watchdog() -> bool:
    return notify("WATCHDOG=1")


def status(text: str) -> bool:
    """A one-line status for `systemctl status gameclock`."""
    return notify("STATUS=" + text.replace("\n", " "))


def stopping() -> bool:
    return notify("STOPPING=1")


def watchdog_interval_ns() -> int | None:
    """systemd's watchdog interval in ns, or None when the watchdog is off or meant for another
    process (as sd_watchdog_enabled: `$WATCHDOG_USEC` > 0, `$WATCHDOG_PID` unset or our pid)."""
    pid = os.environ.get("WATCHDOG_PID")
    try:
        if pid and int(pid) != os.getpid():
            return None
        usec = int(os.environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        if os.environ.get("WATCHDOG_USEC"):
            log.warning("ignoring bad WATCHDOG_USEC=%r / WATCHDOG_PID=%r",
                        os.environ.get("WATCHDOG_USEC"), pid)
        return None
    return usec * 1000 if usec > 0 else None


class NotifyTimer:
    """A `gameclock.loop.Timer`: READY=1 once the displays show the loop's first frame, then
    WATCHDOG=1 every half watchdog interval, both sent from the loop thread.

    `drawn()` says whether the first frame is out: `gameclock run` (gameclock.app.build_daemon)
    passes "the loop has a frame and the display sink has shown it" (the OLEDs' worker has put it on
    the bus, and then wakes the loop: gameclock.inbox.DisplaysShown). Until READY is sent, the timer
    is due at once whenever the loop wakes and `drawn()` is true, and otherwise looks again every
    `retry_ns` (10 ms) by itself. `interval_ns` None: READY only, no pings.
    """

    visible = False  # its pings change nothing on the screens (loop.base.expire)

    RETRY_NS = 10_000_000

    def __init__(self, drawn: Callable[[], bool], interval_ns: int | None, *,
                 clock: Callable[[], int] = time.monotonic_ns, ready_status: str = "",
                 send: Callable[[str], bool] = notify, retry_ns: int = RETRY_NS):
        self.drawn = drawn
        self.period_ns = interval_ns // 2 if interval_ns else None
        self.ready_status = ready_status
        self.send = send
        self.retry_ns = retry_ns
        self.is_ready = False
        self.pings = 0
        self._due: int | None = clock()

    def next_wake(self) -> int | None:
        if not self.is_ready and self._due is not None and self.drawn():
            return 0  # the displays show the clock: READY=1 at this wake, not at the next retry
        return self._due

    def fire(self, now_ns: int) -> None:
        if not self.is_ready:
            if not self.drawn():
                self._due = now_ns + self.retry_ns
                return
            self.is_ready = True
            self.send("READY=1" + (f"\nSTATUS={self.ready_status}" if self.ready_status else ""))
        if self.period_ns is None:
            self._due = None
            return
        self.send("WATCHDOG=1")
        self.pings += 1
        self._due = now_ns + self.period_ns
