"""Issue 24 B5: what a device on the dock cable makes the clock say, in its log and on its screen.

Anything can be sent down the cable without a key: `error`, `enroll`, `welcome` (not known), `nak`,
`enroll-cancel`. Seen in the issue: 10,000 `error` or `enroll` frames gave 10,000 lines in the clock's
log (3.48 MB in 2.4 s, raw escape bytes kept), and an `error` frame's own words went on the clock's
screen. What must hold (as for refused lines, issue 13, dock/refusals.py):

- what such frames make the clock log is at most `refusals.BURST` lines a window in full (all kinds
  together, as refused lines are), the rest counted by kind and summed up in one line;
- the screen shows a fixed message for a PC's error, chosen by its code, in English or Thai, never the
  frame's text;
- a log line never carries a peer's control characters (an escape sequence can rewrite a terminal,
  a CR or LF forge a line of its own): escaped, on the clock's end and the PC's.
"""
from __future__ import annotations

import logging
import os
import select
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest
from dockkit import KEY, NS, OTHER, SERIAL, frame, make_clock, make_pc, make_store, records

from gameclock.dock import sign
from gameclock.dock.frame import LineSplitter, decode
from gameclock.dock.messages import PROTO
from gameclock.dock.refusals import BURST
from gameclock.logtext import printable
from gameclock.ui import messages

REPO = Path(__file__).resolve().parents[2]
# a terminal's clear-screen, a window-title change, a line break that forges a log line of its own,
# and a right-to-left override that turns the rest of the line around
HOSTILE = "\x1b[2J\x1b]0;owned\x07\r\nFAKE dock: enrolled\u202e"
FLOOD = 10_000


def dock_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("gameclock.dock")]


def assert_printable(lines: list[str]) -> None:
    for line in lines:
        assert line.isprintable(), f"a control character reached the log: {line!r}"


# ------------------------------------------------------------------------------ the helper

def test_printable_escapes_control_characters_and_keeps_thai():
    assert printable("สมชาย ใจดี") == "สมชาย ใจดี"          # Thai vowels and tone marks are text
    assert printable("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert printable("one\r\ntwo\tthree") == "one\\r\\ntwo\\tthree"
    assert printable("\x00\x7f\x85") == "\\x00\\x7f\\x85"     # NUL, DEL, a C1 control (NEL)
    assert printable("abc\u202edef") == "abc\\u202edef"       # RIGHT-TO-LEFT OVERRIDE
    assert printable("\u2028") == "\\u2028"                    # LINE SEPARATOR
    assert printable("x" * 10, limit=4) == "xxxx..."


# ------------------------------------------------------------------------------ the clock's log

def enroll_msg(m: int) -> dict:
    return {"t": "enroll", "m": m, "serial": SERIAL, "pub": "11" * 32, "replace": False}


def error_msg(m: int) -> dict:
    return {"t": "error", "m": m, "re": None, "code": "pc-error", "text": HOSTILE}


@pytest.mark.parametrize("make", [error_msg, enroll_msg], ids=["error", "enroll"])
def test_a_flood_of_frames_without_a_key_leaves_a_few_lines_in_the_clocks_log(tmp_path, caplog, make):
    clock = make_clock(tmp_path / "clock", results=records(1))
    clock.endpoint.connect(NS)
    with caplog.at_level(logging.INFO, logger="gameclock.dock"):
        answered = 0
        for i in range(FLOOD):
            answered += len(clock.endpoint.receive(NS + i, frame(make(100 + i))))
        during = dock_lines(caplog)
        clock.endpoint.flush_log()  # the port closes (or the window ends): the summary line
        after = dock_lines(caplog)
    # every frame was handled (an enroll is answered by a commit each time) ...
    assert answered == (FLOOD if make is enroll_msg else 0)
    # ... and logged in full at most BURST times in this window, then summed up once
    assert len(during) == BURST, during[:3]
    t = make(1)["t"]
    assert after[len(during):] == [f"dock: {FLOOD - len(during):,} more messages from the PC in 60 s "
                                   f"not logged: {t} {FLOOD - len(during):,}"]
    assert sum(len(line) for line in after) < 8 * 1024  # the flood wrote 3.48 MB
    assert_printable(after)


def test_welcomes_enrollments_and_cancels_without_a_key_are_rate_limited_too(tmp_path, caplog):
    clock = make_clock(tmp_path / "clock", key=None, results=records(1))
    hello_m = decode(clock.endpoint.connect(NS)[0])["m"]
    with caplog.at_level(logging.INFO, logger="gameclock.dock"):
        for i in range(FLOOD // 10):  # a welcome answering our hello (not known: no MAC to check) ...
            clock.endpoint.receive(NS, frame({"t": "welcome", "m": 10 + i, "re": hello_m, "proto": PROTO,
                                              "pc": HOSTILE, "known": False, "mac": None}))
            # ... an enrollment begun and cancelled (no key needed for either)
            clock.endpoint.receive(NS, frame(enroll_msg(20_000 + i)))
            clock.endpoint.receive(NS, frame({"t": "enroll-cancel", "m": 40_000 + i, "reason": HOSTILE[:40]}))
        lines = dock_lines(caplog)
    assert len(lines) <= BURST  # welcomed, enrollment asked, enrollment cancelled: BURST lines together
    assert_printable(lines)


# ------------------------------------------------------------------------------ the clock's screen

# (the PC's code, its text) -> the status line's words on the clock, English and Thai (ui/text_th.py)
ERRORS = [
    (("version", "the clock speaks dock protocol 5, this PC 4: update gameclock on the PC"),
     "DOCK UPDATE", "DOCK: UPDATE PC", "ต้องอัปเดต"),
    (("version", "the clock speaks dock protocol 3, this PC 4: update the clock's firmware"),
     "DOCK UPDATE", "DOCK: UPDATE CLOCK", "ต้องอัปเดต"),
    (("pc-error", HOSTILE), "DOCK ERROR", "DOCK: PC ERROR", "ส่งผลขัดข้อง"),
    (("OWNED\x1b[5m", "anything"), "DOCK ERROR", "DOCK: PC ERROR", "ส่งผลขัดข้อง"),
    (("busy", "later"), "DOCK ERROR", "DOCK: PC ERROR", "ส่งผลขัดข้อง"),
]


@pytest.mark.parametrize("sent, tag, text, thai", ERRORS, ids=["update-pc", "update-clock", "pc-error", "hostile",
                                                               "busy"])
def test_a_pcs_error_shows_a_fixed_message_never_its_words(tmp_path, sent, tag, text, thai):
    clock = make_clock(tmp_path / "clock")
    clock.endpoint.connect(NS)
    code, words = sent
    clock.endpoint.receive(NS, frame({"t": "error", "m": 7, "re": None, "code": code, "text": words}))
    st = clock.endpoint.status
    assert (st.tag(), st.text()) == (tag, text)
    assert messages.dock_words(st.tag(), "en") == tag
    assert messages.dock_words(st.tag(), "th") == thai
    for shown in (st.tag(), st.text()):
        assert "OWNED" not in shown and "owned" not in shown and "FAKE" not in shown


# ------------------------------------------------------------------------------ both ends escape

def test_a_peers_words_reach_the_log_escaped_on_both_ends(tmp_path, caplog):
    rec = records(1)[0]
    clock = make_clock(tmp_path / "clock", results=[rec])
    store = make_store(tmp_path / "pc.db")
    hello = decode(clock.endpoint.connect(NS)[0])
    with caplog.at_level(logging.INFO, logger="gameclock.dock"):
        # the clock's end: an error's words, a welcome's PC name, a nak's reason, a cancel's reason, a type
        clock.endpoint.receive(NS, frame(error_msg(5)))
        clock.endpoint.receive(NS, frame({"t": "welcome", "m": 6, "re": hello["m"], "proto": PROTO, "pc": HOSTILE,
                                          "known": True, "mac": sign.welcome_mac(KEY, hello["nonce"])}))
        sent = [decode(f) for f in clock.endpoint.poll(NS)]
        result = next(m for m in sent if m["t"] == "result")
        clock.endpoint.receive(NS, frame({"t": "nak", "m": 7, "re": result["m"], "id": rec["id"], "reason": HOSTILE}))
        assert clock.endpoint.refused == {rec["id"]: HOSTILE}  # (kept as sent: the PC's reason, never shown)
        clock.endpoint.receive(NS, frame(enroll_msg(8)))
        clock.endpoint.receive(NS, frame({"t": "enroll-cancel", "m": 9, "reason": HOSTILE}))
        clock.endpoint.receive(NS, frame({"t": HOSTILE, "m": 10}))
        # the PC's end (a new clock: `gameclock enroll` pushes an enrollment at its hello): a hello's
        # firmware text, a nak of the push, a cancel of an enrollment
        pc = make_pc(store, enroll=True)
        fw_hello = {"t": "hello", "m": 1, "proto": PROTO, "serial": OTHER, "fw": HOSTILE, "nonce": "ab" * 16,
                    "kid": None, "pending": 0, "event": None, "round": None, "table": None}
        pushed = [decode(f) for f in pc.receive(NS, frame(fw_hello))]
        enroll = next(m for m in pushed if m["t"] == "enroll")
        pc.receive(NS, frame({"t": "nak", "m": 2, "re": enroll["m"], "reason": HOSTILE}))
        assert "\\x1b[2J" in pc.last_error and "\x1b" not in pc.last_error  # what `enroll` and the desk show
        pc.start_enroll(NS)
        pc.receive(NS, frame({"t": "enroll-cancel", "m": 3, "reason": HOSTILE}))
        assert "\\x1b[2J" in pc.last_error and "\x1b" not in pc.last_error
        lines = dock_lines(caplog)
    store.close()
    assert_printable(lines)
    said = "\n".join(lines)
    for where in ("the PC says", "welcomed by", "the PC refused", "cancelled the enrollment", "unknown-type",
                  "hello from", "refused the enrollment"):
        matching = [ln for ln in lines if where in ln]
        assert matching and all("\\x1b[2J" in ln for ln in matching), (where, said)  # the peer's words, escaped


def test_refusal_details_reach_the_log_escaped(caplog):
    from gameclock.dock.refusals import Refusals

    refusals = Refusals(logging.getLogger("gameclock.dock.test"), "dock /dev/x")
    with caplog.at_level(logging.WARNING, logger="gameclock.dock.test"):
        refusals.add("bad-json", HOSTILE, who=" from \x1b[1mX")
    assert caplog.records[0].getMessage() == printable("dock /dev/x: refused from \x1b[1mX: bad-json (" + HOSTILE + ")")
    assert_printable([caplog.records[0].getMessage()])


# ------------------------------------------------------------------------------ the real clock

class Cable:
    """A pty: the clock (`gameclock run`) opens its slave end as its dock port; this test is the device
    at the master end. Writing blocks while the clock has not read (no frame is lost on the way)."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.split = LineSplitter()
        self.got: list[dict] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while not self.stop.is_set():
            if select.select([self.master], [], [], 0.05)[0]:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                lines, _ = self.split.feed(data)
                with self.lock:
                    self.got += [decode(line) for line in lines]

    def count(self, t: str) -> int:
        with self.lock:
            return sum(1 for m in self.got if m["t"] == t)

    def first(self, t: str, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for m in self.got:
                    if m["t"] == t:
                        return m
            time.sleep(0.02)
        raise AssertionError(f"no {t} from the clock in {timeout} s")

    def send(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view):]

    def close(self) -> None:
        self.stop.set()
        self.reader.join(2)
        for fd in (self.master, self.slave):
            os.close(fd)


def test_the_clocks_log_stays_small_under_a_flood_from_the_cable(tmp_path):
    """`gameclock run` (mock pins, no display) docked to a pty; the device at the other end sends
    10,000 `error` and 10,000 `enroll` frames. The issue's clock wrote a line for each."""
    cable = Cable()
    log = tmp_path / "clock.log"
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "JOURNAL_STREAM")}
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "gameclock", "run", "--sim-pins", "--display", "none",
                                 "--state-dir", str(tmp_path / "state"), "--dock", cable.path],
                                cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        serial = cable.first("hello", timeout=30)["serial"]
        before = log.read_bytes()
        m, batch = 100, 100
        t0 = time.monotonic()
        for start in range(0, FLOOD, batch):
            data = b"".join(frame(error_msg(m + i)) + frame(dict(enroll_msg(m + batch + i), serial=serial))
                            for i in range(batch))
            m += 2 * batch
            cable.send(data)
            want = start + batch  # each enroll is answered by a commit: the clock has read this far
            deadline = time.monotonic() + 30
            while cable.count("enroll-commit") < want:
                assert proc.poll() is None, log.read_text(errors="replace")[-2000:]
                assert time.monotonic() < deadline, f"{cable.count('enroll-commit')} commits of {want}"
                time.sleep(0.005)
        took = time.monotonic() - t0
    finally:
        proc.terminate()
        proc.wait(15)
        cable.close()
    flood_log = log.read_bytes()[len(before):]
    lines = flood_log.decode("utf-8", "replace").splitlines()
    print(f"{2 * FLOOD} frames in {took:.1f} s: {len(lines)} log lines, {len(flood_log)} bytes")
    assert b"\x1b" not in flood_log and b"\x07" not in flood_log
    # BURST lines in full (errors and enrollments asked together), the summary, and the lines of the stop
    assert len(lines) <= BURST + 1 + 3, "\n".join(lines[:60])
    assert len(flood_log) < 16 * 1024
    # the rest is counted, and summed up when the port closes (here: the clock stops)
    quiet = 2 * FLOOD - BURST
    assert f"dock: {quiet:,} more messages from the PC in 60 s not logged: error {quiet // 2:,}, enroll {quiet // 2:,}" \
        in flood_log.decode()
