"""sd_notify (gameclock.device.notify) against a real AF_UNIX datagram socket, as systemd listens,
and the loop's NotifyTimer: READY=1 after the first frame, WATCHDOG=1 every half interval, sent by
the event loop itself (a hung loop sends none)."""
from __future__ import annotations

import logging
import os
import queue
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

from gameclock.device import notify
from gameclock.device.notify import NotifyTimer
from gameclock.inbox import Key, Quit
from gameclock.loop import Loop
from gameclock.rules.loader import load_presets
from gameclock.ui.keys import DOWN


@pytest.fixture
def short_dir():
    # AF_UNIX paths are limited to 108 bytes; pytest's tmp_path can be longer.
    d = tempfile.mkdtemp(prefix="gcn-")
    yield Path(d)
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def listener(short_dir, monkeypatch):
    """A datagram socket bound where $NOTIFY_SOCKET points, as systemd's manager listens."""
    path = short_dir / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2.0)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def recv(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def test_messages_arrive_on_the_socket(listener):
    assert notify.ready() is True
    assert notify.status("running: amath\nsecond line") is True
    assert notify.watchdog() is True
    assert notify.stopping() is True
    assert [recv(listener) for _ in range(4)] == [
        "READY=1", "STATUS=running: amath second line", "WATCHDOG=1", "STOPPING=1"]


def test_abstract_namespace_socket(monkeypatch):
    name = f"gameclock-test-{os.getpid()}-{time.monotonic_ns()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2.0)
    try:
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify.ready() is True
        assert recv(sock) == "READY=1"
    finally:
        sock.close()


def test_no_socket_in_the_environment_is_a_quiet_no_op(monkeypatch, caplog):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    with caplog.at_level(logging.DEBUG):
        assert notify.ready() is False
        assert notify.watchdog() is False
    assert caplog.records == []


def test_a_failed_send_is_logged_not_raised(short_dir, monkeypatch, caplog):
    monkeypatch.setenv("NOTIFY_SOCKET", str(short_dir / "nobody-listens.sock"))
    with caplog.at_level(logging.WARNING, logger="gameclock.device.notify"):
        assert notify.watchdog() is False
    assert len(caplog.records) == 1
    assert "WATCHDOG=1" in caplog.text and "nobody-listens.sock" in caplog.text


@pytest.mark.parametrize("usec, pid, expected", [
    ("10000000", None, 10_000_000_000),
    ("10000000", "self", 10_000_000_000),
    ("10000000", "other", None),   # the watchdog is meant for another process
    ("0", None, None),
    (None, None, None),
])
def test_watchdog_interval(monkeypatch, usec, pid, expected):
    for name, value in (("WATCHDOG_USEC", usec),
                        ("WATCHDOG_PID", {"self": str(os.getpid()), "other": str(os.getpid() + 1)}.get(pid))):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert notify.watchdog_interval_ns() == expected


def test_bad_watchdog_usec_is_logged_and_ignored(monkeypatch, caplog):
    monkeypatch.setenv("WATCHDOG_USEC", "ten seconds")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    with caplog.at_level(logging.WARNING):
        assert notify.watchdog_interval_ns() is None
    assert "WATCHDOG_USEC" in caplog.text


# ------------------------------------------------------------------------------- NotifyTimer
class Screens:
    """A display sink that can be made to hang (a stuck bus write) until released."""

    def __init__(self):
        self.shown = 0
        self.hang = threading.Event()
        self.release = threading.Event()
        self.hanging = threading.Event()

    def show(self, frame) -> None:
        self.shown += 1
        if self.hang.is_set():
            self.hanging.set()
            self.release.wait(10)


class Buzzer:
    def beep(self, alert, text) -> None:
        pass


def test_timer_ready_after_first_frame_then_pings_every_half_interval():
    sent = []
    now = [0]
    loop = Loop(queue.Queue(), load_presets(), Screens(), Buzzer(), clock=lambda: now[0])
    timer = NotifyTimer(lambda: loop.frame is not None, 1_000_000_000, clock=lambda: now[0],
                        send=sent.append)
    loop.timers.append(timer)

    loop.pump(0)                   # a pump fires due timers before it draws: no frame yet
    assert sent == []
    assert timer.next_wake() == 0  # the pump drew a frame: due at once, not at the next retry
    loop.pump(NotifyTimer.RETRY_NS)
    assert sent == ["READY=1", "WATCHDOG=1"]
    t0 = NotifyTimer.RETRY_NS
    assert loop.timeout(t0) == pytest.approx(0.5)  # the loop sleeps no longer than the next ping
    loop.pump(t0 + 499_000_000)
    assert sent == ["READY=1", "WATCHDOG=1"]
    loop.pump(t0 + 500_000_000)
    assert sent == ["READY=1", "WATCHDOG=1", "WATCHDOG=1"]
    loop.pump(t0 + 2_000_000_000)  # late (a slow frame): one ping, and the next is half an interval on
    assert sent.count("WATCHDOG=1") == 3 and timer.next_wake() == t0 + 2_500_000_000


def test_timer_waits_for_the_displays_and_is_due_at_once_when_they_show_the_clock():
    """Issue 14: READY=1 once the displays show the clock (`drawn` is the sink's word), at the first
    wake after that (the display worker wakes the loop), not at the next retry."""
    sent: list[str] = []
    shown = [False]
    timer = NotifyTimer(lambda: shown[0], None, clock=lambda: 5, send=sent.append, retry_ns=200)
    assert timer.next_wake() == 5
    timer.fire(5)
    assert sent == [] and timer.next_wake() == 205  # not shown yet: looks again by itself
    shown[0] = True
    assert timer.next_wake() == 0  # due at once
    timer.fire(42)
    assert sent == ["READY=1"] and timer.next_wake() is None


def test_timer_without_watchdog_sends_ready_only():
    sent = []
    loop = Loop(queue.Queue(), load_presets(), Screens(), Buzzer(), clock=lambda: 0)
    timer = NotifyTimer(lambda: loop.frame is not None, None, clock=lambda: 0, send=sent.append,
                        ready_status="running: menu")
    loop.timers.append(timer)
    loop.refresh(0)
    loop.pump(0)
    assert sent == ["READY=1\nSTATUS=running: menu"]
    assert timer.next_wake() is None and loop.timeout(0) is None


def test_a_hung_loop_stops_the_pings(listener):
    """The real loop in a thread, pinging every 50 ms on the socket: while a display write hangs,
    no WATCHDOG=1 arrives (systemd would restart the clock); released, the pings resume."""
    inbox: queue.Queue = queue.Queue()
    screens = Screens()
    loop = Loop(inbox, load_presets(), screens, Buzzer())
    timer = NotifyTimer(lambda: loop.frame is not None, 100_000_000)
    loop.timers.append(timer)
    thread = threading.Thread(target=loop.run, name="loop-under-test", daemon=True)
    thread.start()
    try:
        assert recv(listener) == "READY=1"
        assert [recv(listener) for _ in range(3)] == ["WATCHDOG=1"] * 3

        screens.hang.set()
        inbox.put(Key(time.monotonic_ns(), DOWN))  # the menu moves: a new frame, and show() hangs
        assert screens.hanging.wait(2)
        listener.settimeout(0.05)
        while True:  # a ping sent just before the hang may still be queued
            try:
                recv(listener)
            except TimeoutError:
                break
        listener.settimeout(0.4)  # eight ping periods
        with pytest.raises(TimeoutError):
            recv(listener)

        screens.hang.clear()
        screens.release.set()
        listener.settimeout(2.0)
        assert recv(listener) == "WATCHDOG=1"
    finally:
        screens.release.set()
        inbox.put(Quit(time.monotonic_ns()))
        thread.join(5)
    assert not thread.is_alive()
