"""Issue 24 B1: a man in the middle between a real clock and a real `gameclock enroll` gets one guess.

The cable is cut in two (two `dockkit.PtyRelay`s) and the test sits in the cut: to the clock it is a
PC, to the PC a clock. The clock is the real clock end (`ClockEndpoint` served by a `Link` over its
pty, as the device's dock thread serves it); the PC is `gameclock enroll` as a child process. Both use
3-digit comparison codes (the PC's hidden `--code-digits`, the endpoint's `code_digits`: a test-only
setting, SECURITY.md) so the intruder's odds are 1 in 1,000 a guess instead of 1 in 1,000,000: a grind
that needs minutes against 6 digits needs about a second here.

The intruder's plan (what issue 24 saw work against 6 digits): learn the code C the clock shows, then
make the PC start enrollment after enrollment (a new hello each time) until the PC's code equals C,
and reveal only then; and the same at the clock (a new `enroll`, an `enroll-cancel`) until its code
equals the PC's. Honest people: the organiser types the code the clock shows once the PC prints its
own; the arbiter says YES only when the two are the same.

What must hold (SECURITY.md): in one run of `enroll` the PC commits to ONE key pair and nonce, so ONE
code, however many hellos arrive; the clock shows one code until its arbiter answers it; the run ends
saying what happened. Measured: the PC's public keys and nonces, the clock's codes the intruder saw.
"""
from __future__ import annotations

import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

from dockkit import SERIAL, PtyRelay, frame, kid, make_clock

from gameclock.dock import enroll
from gameclock.dock.frame import LineSplitter, decode
from gameclock.dock.link import Link, PortGone, open_port
from gameclock.dock.messages import PROTO
from gameclock.organiser.store import Store

REPO = Path(__file__).resolve().parents[2]
DIGITS = 3
TRY_S = 45.0   # how long the intruder keeps trying (a run of enroll ends well before, once it gave up)


class End:
    """The intruder's end of one half of the cable: frames out, frames of one type waited for; the
    others are only counted (thousands of welcomes must not pile up)."""

    def __init__(self, path: str):
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        self.split = LineSplitter()
        self.m = 0
        self.counts: dict[str, int] = {}
        self.waiting: list[dict] = []

    def send(self, msg: dict) -> dict:
        self.m += 1
        msg = {"t": msg.pop("t"), "m": self.m, **msg}
        os.write(self.fd, frame(msg))
        return msg

    def expect(self, *types: str, timeout: float) -> dict | None:
        """The next frame of one of `types` within `timeout` s, else None."""
        deadline = time.monotonic() + timeout
        while True:
            for i, msg in enumerate(self.waiting):
                if msg["t"] in types:
                    return self.waiting.pop(i)
            self.waiting.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if select.select([self.fd], [], [], min(left, 0.05))[0]:
                lines, _ = self.split.feed(os.read(self.fd, 65536))
                for line in lines:
                    msg = decode(line)
                    self.counts[msg["t"]] = self.counts.get(msg["t"], 0) + 1
                    self.waiting.append(msg)

    def close(self) -> None:
        os.close(self.fd)


class ClockEnd:
    """The real clock end (3-digit codes) served over its pty by a Link in a thread."""

    def __init__(self, state: Path, path: str):
        self.side = make_clock(state, key=None, code_digits=DIGITS)
        self.port = open_port(path)
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            Link(self.port, self.side.endpoint).run(self.stop, max_wait_s=0.02)
        except PortGone:
            pass
        except BaseException as exc:  # the test asserts none
            self.error = exc

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.port.close()


class Output:
    """A child's stdout, read by a thread (the prompt for the code ends without a newline)."""

    def __init__(self, proc: subprocess.Popen):
        self.text = ""
        self.thread = threading.Thread(target=self._read, args=(proc.stdout.fileno(),), daemon=True)
        self.thread.start()

    def _read(self, fd: int) -> None:
        while data := os.read(fd, 4096):
            self.text += data.decode("utf-8", "replace")


def hello_msg(nonce: str) -> dict:
    return {"t": "hello", "proto": PROTO, "serial": SERIAL, "fw": "relay", "nonce": nonce, "kid": None,
            "pending": 0, "event": None, "round": None, "table": None}


def clock_code(to_clock: End) -> tuple[str, enroll.Half] | None:
    """Run the clock's side of an enrollment as its PC: the code it shows then, or None (refused)."""
    half = enroll.Half(SERIAL, digits=DIGITS)
    sent = to_clock.send({"t": "enroll", "serial": SERIAL, "pub": half.pub, "replace": False})
    commit = to_clock.expect("enroll-commit", "nak", timeout=1.0)
    if commit is None or commit["t"] == "nak" or commit["re"] != sent["m"]:
        return None
    half.peer_pub = commit["pub"]
    to_clock.send({"t": "enroll-nonce", "re": commit["m"], "nonce": half.nonce})
    reveal = to_clock.expect("enroll-reveal", timeout=1.0)
    if reveal is None:
        return None
    half.peer_nonce = reveal["nonce"]
    return half.derive(pc=True)[1], half


def test_a_relay_gets_one_guess_per_run_of_enroll(tmp_path):
    db = tmp_path / "pc.db"
    Store(db).close()
    pc_pubs: set[str] = set()     # the PC's enrollment key pairs the intruder was offered
    pc_nonces: set[str] = set()   # the PC's nonces, each fixing one PC code once the intruder committed
    clock_codes: list[str] = []   # the codes the clock showed
    hellos = clock_refusals = 0
    matched = False
    with PtyRelay() as clock_cable, PtyRelay() as pc_cable:
        clock = ClockEnd(tmp_path / "clock", clock_cable.path_a)
        enr = subprocess.Popen([sys.executable, "-m", "gameclock", "enroll", "--port", pc_cable.path_b, "--db",
                                str(db), "--timeout", "60", "--code-digits", str(DIGITS)], cwd=REPO,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out = Output(enr)
        to_clock, to_pc = End(clock_cable.path_b), End(pc_cable.path_a)
        t0 = time.monotonic()
        try:
            assert to_clock.expect("hello", timeout=10) is not None  # the clock is there
            first = clock_code(to_clock)
            assert first is not None, "the clock takes an enrollment from the (intruding) PC"
            clock_codes.append(first[0])
            while enr.poll() is None and time.monotonic() - t0 < TRY_S and not matched:
                hellos += 1
                to_pc.send(hello_msg(os.urandom(16).hex()))
                start = to_pc.expect("enroll", timeout=0.5)
                if start is not None and start["pub"] not in pc_pubs:
                    pc_pubs.add(start["pub"])
                    mine = enroll.Half(SERIAL, digits=DIGITS)
                    mine.peer_pub = start["pub"]
                    to_pc.send({"t": "enroll-commit", "re": start["m"], "pub": mine.pub,
                                "commit": enroll.commitment(mine.nonce, mine.pub, start["pub"])})
                    nonce = to_pc.expect("enroll-nonce", timeout=1.0)
                    if nonce is not None:
                        pc_nonces.add(nonce["nonce"])
                        mine.peer_nonce = nonce["nonce"]
                        key, pc_code, t = mine.derive(pc=False)
                        if pc_code == clock_codes[-1]:  # only now does the intruder reveal
                            to_pc.send({"t": "enroll-reveal", "re": nonce["m"], "nonce": mine.nonce})
                            matched = True
                            break
                # and the other end: a new code at the clock (after a cancel, which a PC may send)
                to_clock.send({"t": "enroll-cancel", "reason": "code-mismatch"})
                again = clock_code(to_clock)
                if again is None:
                    clock_refusals += 1
                else:
                    clock_codes.append(again[0])
                    if pc_nonces and again[0] == pc_code:
                        to_pc.send({"t": "enroll-reveal", "re": nonce["m"], "nonce": mine.nonce})
                        matched = True
            took = time.monotonic() - t0
            if matched:  # the one guess came right (1 in 1,000): the honest people go on
                deadline = time.monotonic() + 10
                while "this PC's code is" not in out.text and time.monotonic() < deadline:
                    time.sleep(0.05)
                shown_code = clock.side.endpoint.status.code
                enr.stdin.write(shown_code + "\n")  # the organiser types what the clock shows
                enr.stdin.flush()
                to_pc.send({"t": "enroll-confirm", "mac": enroll.confirm_mac(key, t), "old": None})
                if to_pc.expect("enroll-done", timeout=10) is not None:  # the PC stored the intruder's key
                    h = hello_msg(os.urandom(16).hex())
                    to_pc.send(dict(h, kid=kid(key)))
            enr.wait(60)
        finally:
            if enr.poll() is None:
                enr.kill()
                enr.wait(10)
            to_clock.close()
            to_pc.close()
            clock.close()
        out.thread.join(5)
        assert clock_cable.error is None and pc_cable.error is None and clock.error is None
    with Store(db) as s:
        keys = s.keys()
    figures = (f"{took:.1f} s, {hellos} hellos, PC key pairs {len(pc_pubs)}, PC nonces {len(pc_nonces)}, "
               f"clock codes {len(clock_codes)}, clock refusals {clock_refusals}, matched {matched}; "
               f"enroll exited {enr.returncode} with {len(keys)} key(s) stored")
    print(figures)
    # one run of enroll: one key pair, one nonce, so one code to match, however many hellos came
    assert matched or hellos >= 10, figures  # the intruder did try again and again (unless its one guess was right)
    assert len(pc_pubs) == 1 and len(pc_nonces) == 1, figures
    # the clock showed one code: a new enroll (after a cancel) is refused while its arbiter has not answered
    assert len(clock_codes) == 1 and (matched or clock_refusals >= 1), figures
    if not matched:  # 999 times in 1,000: nothing stored, and the organiser is told why
        assert enr.returncode == 1, out.text
        assert "never revealed" in out.text, out.text
        assert keys == [] and clock.side.keys.key is None
