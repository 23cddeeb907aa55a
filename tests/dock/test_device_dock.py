"""The device's side of docking (issue 6, part 2): the loop and the dock thread.

Docking never disturbs a running game (firmware/ARCHITECTURE.md, "Docking"): while a side's clock
runs the loop holds the dock (no upload starts), the screens show nothing of it and the all-sent
chirp waits; once the clocks stop, the DOCK tag is on both status lines and the chirp sounds once.
The dock thread is tested over a real pty pair against the PC's endpoint and a real store: results
are marked sent only when acknowledged (CL-5), and nothing is uploaded while the loop says busy.
"""
from __future__ import annotations

import os
import queue
import threading
import time
import tty
from pathlib import Path

from gameclock.core import clock as core
from gameclock.core.control import NS_PER_S
from gameclock.device.dock import DockThread
from gameclock.dock import sign
from gameclock.dock.clockside import DockStatus
from gameclock.dock.keystore import KeyStore
from gameclock.dock.link import FdPort, Link, open_port
from gameclock.dock.pcside import ReceiverEndpoint
from gameclock.inbox import DockUpdate, PauseButton, PlayerButton
from gameclock.loop import Loop
from gameclock.organiser.store import Store
from gameclock.persist.outbox import Outbox
from gameclock.record import record_from_log
from gameclock.rules.loader import load_presets
from gameclock.ui import screens

S = NS_PER_S
ZERO = 1000 * S
PRESETS = load_presets()


class Sink:
    def __init__(self):
        self.frames, self.beeps = [], []

    def show(self, frame):
        self.frames.append(frame)

    def beep(self, alert, text):
        self.beeps.append((alert.get("kind"), text))


class FakeDock:
    def __init__(self):
        self.busy = []

    def set_busy(self, busy):
        self.busy.append(busy)


def make_loop():
    sink = Sink()
    now = [ZERO]
    loop = Loop(queue.SimpleQueue(), PRESETS, sink, sink, clock=lambda: now[0])
    loop.dock = FakeDock()
    loop.new_game("makruk-45", 1)
    loop.pump(now[0])
    return loop, sink, now


DONE = DockStatus(docked=True, known=True, enrolled=True, pc="pc", sent=3, waiting=0, done=True)
SENDING = DockStatus(docked=True, known=True, enrolled=True, pc="pc", sent=1, waiting=2)


def test_the_loop_holds_the_dock_while_a_clock_runs_and_releases_it_on_pause():
    loop, sink, now = make_loop()
    assert loop.dock.busy[-1] is False  # at ready nothing runs
    now[0] += S
    loop.pump(now[0], [PlayerButton(now[0], 0)])  # left presses: right's clock runs
    assert loop.state.phase == "running" and loop.dock.busy[-1] is True
    now[0] += S
    loop.pump(now[0], [PauseButton(now[0])])
    assert loop.state.phase == "paused" and loop.dock.busy[-1] is False


def test_no_dock_tag_or_chirp_while_running_then_both_once_the_clocks_stop():
    loop, sink, now = make_loop()
    now[0] += S
    loop.pump(now[0], [PlayerButton(now[0], 0)])
    frames_before = len(sink.frames)
    loop.pump(now[0] + 1, [DockUpdate(now[0] + 1, SENDING), DockUpdate(now[0] + 2, DONE)])
    assert loop.dock_tag() == ""
    assert "DOCK" not in loop.frame.message
    assert ("upload-done", "ALL SENT") not in sink.beeps  # the chirp waits for the clocks to stop
    # the dock's news changed nothing on the screens while the right clock ran
    assert not any("DOCK" in " ".join(f.captions) + f.message for f in sink.frames[frames_before:])
    now[0] += S
    loop.pump(now[0], [PauseButton(now[0])])
    assert sink.beeps.count(("upload-done", "ALL SENT")) == 1
    assert loop.dock_tag() == "DOCK OK"
    assert "DOCKED: ALL SENT (3)" in loop.frame.message
    # the tag is drawn on both status lines (the view the loop renders carries it)
    v = dict(core.view(loop.state, loop.state.now_ns), dock=loop.dock_tag())
    assert screens.headline(v, 0)[0] == screens.headline(v, 1)[0] == "PAUSE  DOCK OK"  # paused, then the dock
    now[0] += S
    loop.pump(now[0], [DockUpdate(now[0], DONE)])
    assert sink.beeps.count(("upload-done", "ALL SENT")) == 1  # once, not at every update


def test_status_tags_and_texts():
    assert DockStatus().tag() == "" and DockStatus().text() == ""
    assert DockStatus(docked=True, enrolled=False).tag() == "DOCK ENROL?"
    assert DockStatus(docked=True, enrolled=True, known=False).text() == "DOCKED: NOT ENROLLED"
    assert SENDING.tag() == "DOCK 1/3" and SENDING.text() == "DOCKED: SENDING 1/3"
    assert DONE.tag() == "DOCK OK" and DONE.text() == "DOCKED: ALL SENT (3)"
    nothing = DockStatus(docked=True, known=True, enrolled=True, done=True)  # docked with an empty outbox
    assert nothing.text() == "DOCKED: NOTHING TO SEND" and nothing.tag() == "DOCK OK"
    refused = DockStatus(docked=True, known=True, enrolled=True, refused=2)
    assert refused.tag() == "DOCK REFUSED 2"
    assert DockStatus(error="UPDATE PC").tag() == "DOCK UPDATE"


def record(serial, seq):
    """A real result record (a confirmed crossword game, XW-3 overtime) with this clock's id."""
    path = Path(__file__).resolve().parents[1] / "scenarios" / "result-crossword-overtime.log"
    return record_from_log(path.read_text(encoding="utf-8"), str(path), serial, seq, 1.7e9, 1.7e9 + 1500)


class Receiver(threading.Thread):
    def __init__(self, path, db):
        super().__init__(daemon=True)
        self.path, self.db, self.stop = path, db, threading.Event()

    def run(self):
        store = Store(self.db)
        port = open_port(self.path)
        try:
            Link(port, ReceiverEndpoint(store, source="test")).run(self.stop, 0.05)
        finally:
            port.close()
            store.close()


def test_the_dock_thread_uploads_over_a_pty_only_when_the_loop_is_not_busy(tmp_path):
    serial = "DEV1"
    outbox = Outbox(tmp_path / "clock")
    outbox.prepare()
    ids = []
    for seq in (1, 2, 3):
        rec = record(serial, seq)
        outbox.put(rec)
        ids.append(rec["id"])
    key = sign.new_key()
    KeyStore(tmp_path / "clock").set(key)
    db = tmp_path / "pc.db"
    with Store(db) as s:
        s.add_key(serial, key)
    master, slave = os.openpty()
    tty.setraw(slave)
    inbox = queue.SimpleQueue()
    dock = DockThread("pty", tmp_path / "clock", serial, outbox, inbox.put,
                      opener=lambda _p: FdPort(os.dup(master), "pty"))
    dock.set_busy(True)  # a game is running when the cable goes in
    receiver = Receiver(os.ttyname(slave), db)
    dock.start()
    receiver.start()
    try:
        statuses = []
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:  # 3 s docked while busy: welcomed, nothing sent
            try:
                statuses.append(inbox.get(timeout=0.1).status)
            except queue.Empty:
                pass
        assert any(s.docked and s.known for s in statuses)
        assert outbox.sent() == [] and sorted(outbox.pending()) == ids
        with Store(db) as s:
            assert s.count_results() == 0
        dock.set_busy(False)  # the game is over
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (statuses and statuses[-1].done):
            try:
                statuses.append(inbox.get(timeout=0.1).status)
            except queue.Empty:
                pass
        assert statuses[-1].done and statuses[-1].sent == 3
        assert outbox.pending() == [] and outbox.sent() == ids
        with Store(db) as s:
            assert sorted(r["id"] for r in s.results()) == ids
            assert s.result(ids[0])["record"] == record(serial, 1)
    finally:
        dock.stop()
        receiver.stop.set()
        dock.join(3)
        receiver.join(3)
        os.close(master)
        os.close(slave)
