"""Kills during enrollment (issue 13; part of `make bench`'s crash figures).

Each chain has its own clock state folder (3 results in the outbox) and PC database, joined by a pty
"cable" (tests/dock/dockkit.PtyRelay's idea, here `_Relay`). A trial runs the clock's side
(`gameclock upload --enroll`, the person at the clock answering yes) and the PC's
(`gameclock enroll`, the organiser typing the code both show) as child processes and SIGKILLs one
of them at a random moment of the enrollment; then a clean enrollment must succeed without
`--replace` (the state either side was left in is one the protocol recovers from).

Figures:
  enroll_kills              enrollments killed (clock or PC, at random moments)
  enroll_kills_after_code   of those, kills after both people had answered the code (the keys being stored)
  enroll_key_mismatch       after a kill, the clock held as its key one its PC never stored, or could prove
                            no key its PC holds as valid (neither its own nor the one it kept aside when
                            its arbiter said yes) while the PC holds one: it would need --replace (must be
                            0: the clock keeps the new key aside before it confirms, the PC stores it and
                            revokes the old one once both people confirmed, the clock takes it as its own
                            once the PC proved it holds it; issue 24)
  enroll_recover_failed     clean enrollments after a kill that did not succeed (must be 0)
  enroll_results_lost       results of the outbox missing from the PC after a final upload (must be 0)
  enroll_seconds            wall time
"""
from __future__ import annotations

import os
import random
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.dock import sample_record
from gameclock.dock.keystore import KeyStore
from gameclock.dock.sign import key_id
from gameclock.organiser.store import Store
from gameclock.persist.outbox import Outbox

SERIAL = "00000000e1c0a5e1"
PC_CODE = re.compile(r"this PC's code is (\d{3} \d{3})")
CLOCK_CODE = re.compile(r"CODE (\d{3} \d{3})")
TRIAL_S = 30.0


class _Relay:
    """Two ptys joined master to master (a null-modem cable); both slaves stay open."""

    def __init__(self) -> None:
        self.ma, sa = os.openpty()
        self.mb, sb = os.openpty()
        self.slaves = (sa, sb)
        for fd in self.slaves:
            tty.setraw(fd)
        self.path_a, self.path_b = os.ttyname(sa), os.ttyname(sb)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            for fd in select.select([self.ma, self.mb], [], [], 0.05)[0]:
                try:
                    data = os.read(fd, 65536)
                    os.write(self.mb if fd == self.ma else self.ma, data)
                except OSError:
                    pass

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        for fd in (self.ma, self.mb, *self.slaves):
            os.close(fd)


def _start(*argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "gameclock", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)


def _lines(proc: subprocess.Popen[str], into: list[str]) -> None:
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    while select.select([fd], [], [], 0)[0]:
        data = os.read(fd, 65536)
        if not data:
            break
        into.append(data.decode("utf-8", "replace"))


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    for f in (proc.stdin, proc.stdout):
        try:
            f.close()  # type: ignore[union-attr]
        except OSError:
            pass


def enroll_once(relay: _Relay, state: Path, db: Path, kill_at: float | None = None,
                victim: str = "clock") -> tuple[bool, bool]:
    """One enrollment; SIGKILL `victim` `kill_at` seconds in (None: run to the end). (ok, answered):
    it ended with the PC reporting the clock enrolled; both people had answered the code."""
    pc = _start("enroll", "--port", relay.path_b, "--db", str(db), "--timeout", str(TRIAL_S))
    clock = _start("upload", "--port", relay.path_a, "--state-dir", str(state), "--serial", SERIAL,
                   "--enroll", "--stay", "--timeout", str(TRIAL_S))
    out = {"pc": [], "clock": []}  # type: dict[str, list[str]]
    t0 = time.monotonic()
    answered = ok = False
    try:
        while time.monotonic() - t0 < TRIAL_S:
            _lines(pc, out["pc"])
            _lines(clock, out["clock"])
            if kill_at is not None and time.monotonic() - t0 >= kill_at:
                (clock if victim == "clock" else pc).send_signal(signal.SIGKILL)
                return False, answered
            pc_code = PC_CODE.search("".join(out["pc"]))
            clock_code = CLOCK_CODE.findall("".join(out["clock"]))
            if not answered and pc_code and clock_code and clock_code[-1] == pc_code.group(1):
                assert clock.stdin is not None and pc.stdin is not None
                clock.stdin.write("yes\n")
                clock.stdin.flush()
                pc.stdin.write(pc_code.group(1) + "\n")
                pc.stdin.flush()
                answered = True
            if pc.poll() is not None:
                _lines(pc, out["pc"])
                ok = pc.returncode == 0 and "enrolled clock" in "".join(out["pc"])
                return ok, answered
            time.sleep(0.01)
        return False, answered
    finally:
        _stop(pc)
        _stop(clock)


def _chain(chain: int, kills: int, seed: int, folder: Path) -> dict[str, int]:
    rng = random.Random(seed * 1000 + chain)
    state, db = folder / f"clock{chain}", folder / f"pc{chain}.db"
    outbox = Outbox(state)
    outbox.prepare()
    ids = []
    for seq in (1, 2, 3):
        rec = sample_record(seq, SERIAL)
        outbox.put(rec)
        ids.append(rec["id"])
    Store(db).close()
    relay = _Relay()
    fig = {"enroll_kills": 0, "enroll_kills_after_code": 0, "enroll_key_mismatch": 0, "enroll_recover_failed": 0, "enroll_results_lost": 0}
    try:
        t0 = time.monotonic()
        if not enroll_once(relay, state, db)[0]:
            fig["enroll_recover_failed"] += 1
        clean_s = time.monotonic() - t0
        for _ in range(kills):
            _, answered = enroll_once(relay, state, db, kill_at=rng.uniform(0.1, clean_s + 0.3),
                                      victim=rng.choice(("clock", "pc")))
            fig["enroll_kills"] += 1
            fig["enroll_kills_after_code"] += answered
            keys = KeyStore(state)
            pending = set(outbox.pending())
            with Store(db) as store:
                stored = {kid for serial, kid, _key, _at in store.keys() if serial == SERIAL}
                valid = {kid for kid in stored if store.key(SERIAL, kid) is not None}
                held = {key_id(k) for k in (keys.key, keys.pending) if k is not None}
                lacked = keys.key is not None and key_id(keys.key) not in stored
                if lacked or (valid and not valid & held):
                    fig["enroll_key_mismatch"] += 1
                # a result leaves the outbox only once the PC stored it (enroll's end stores results too)
                fig["enroll_results_lost"] += sum(rid not in pending and store.result(rid) is None for rid in ids)
            if not enroll_once(relay, state, db)[0]:
                fig["enroll_recover_failed"] += 1
        # the results still go up under the last key
        pc = subprocess.Popen([sys.executable, "-m", "gameclock", "receive", "--port", relay.path_b, "--db",
                               str(db), "--exit-when-done"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        up = subprocess.run([sys.executable, "-m", "gameclock", "upload", "--port", relay.path_a, "--state-dir",
                             str(state), "--serial", SERIAL, "--timeout", "30"], capture_output=True)
        pc.wait(15)
        with Store(db) as store:
            fig["enroll_results_lost"] += sum(store.result(rid) is None for rid in ids) if up.returncode == 0 else 3
    finally:
        relay.close()
    return fig


def enroll_drill(kills: int = 20, seed: int = 1, chains: int = 4) -> dict[str, float]:
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gameclock-enroll-") as tmp:
        per = [kills // chains + (1 if i < kills % chains else 0) for i in range(chains)]
        with ThreadPoolExecutor(chains) as pool:
            figs = list(pool.map(lambda i: _chain(i, per[i], seed, Path(tmp)), range(chains)))
    out: dict[str, float] = {k: sum(f[k] for f in figs) for k in figs[0]}
    out["enroll_seconds"] = round(time.monotonic() - t0, 1)
    return out


def bench_enrollcrash() -> dict[str, float]:
    """`make bench`: 20 kills ($GAMECLOCK_ENROLL_KILLS for another number) on 4 chains, seed 1."""
    return enroll_drill(int(os.environ.get("GAMECLOCK_ENROLL_KILLS", "20")), seed=1, chains=4)


if __name__ == "__main__":
    import json

    print(json.dumps(enroll_drill(int(sys.argv[1]) if len(sys.argv) > 1 else 8)))
