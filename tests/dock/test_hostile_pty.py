"""Issue 13's hostile-peer suite over a pty: a rogue device against the real PC programs
(`gameclock receive`, `gameclock enroll` as child processes) and a rogue PC against the real clock
(the device's DockThread with its state folder), each trying hijack, replay, forged acks and
enrollment without the arbiter's confirmation. What must hold: 0 accepted (SECURITY.md) — no key
stored or taken, no result stored, altered or moved to sent/, no pairing taken.

A genuine enrollment through the same programs shows the path works: the clock (DockThread) and
`gameclock enroll` show the same code, the arbiter confirms on the clock, the organiser types it.
"""
from __future__ import annotations

import os
import queue
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dockkit import KEY, OTHER_KEY, SERIAL, PtyRelay, frame, kid, make_store, records

from gameclock.device.dock import DockThread
from gameclock.dock import enroll, sign
from gameclock.dock.frame import LineSplitter, decode
from gameclock.dock.keystore import KeyStore
from gameclock.dock.link import open_port
from gameclock.dock.messages import PROTO
from gameclock.inbox import DockUpdate, Pairing
from gameclock.organiser.store import Store
from gameclock.persist.outbox import Outbox

REPO = Path(__file__).resolve().parents[2]
PAIRING = {"event": "e1", "round": 1, "table": 3, "players": {"left": "Mallory", "right": "Eve"},
           "level": None, "stage": None, "language": None, "preset": "crossword"}  # protocol 3's shape


class Peer:
    """The rogue's end of the cable: frames out, decoded frames in."""

    def __init__(self, path: str):
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        self.split = LineSplitter()
        self.got: list[dict] = []
        self.m = 100

    def send(self, msg: dict) -> None:
        self.m += 1
        os.write(self.fd, frame({"t": msg.pop("t"), "m": msg.pop("m", self.m), **msg}))

    def wait(self, t: str, timeout: float = 10.0, **match) -> dict:
        """The next frame of type `t` (with these fields) the other end sends."""
        deadline = time.monotonic() + timeout
        while True:
            for msg in self.got:
                if msg["t"] == t and all(msg.get(k) == v for k, v in match.items()):
                    self.got.remove(msg)
                    return msg
            left = deadline - time.monotonic()
            assert left > 0, f"no {t} {match} within {timeout} s; got {[m['t'] for m in self.got]}"
            if select.select([self.fd], [], [], min(left, 0.1))[0]:
                lines, _ = self.split.feed(os.read(self.fd, 65536))
                self.got += [decode(line) for line in lines]

    def hello(self, msg: dict, answer: str = "welcome", timeout: float = 15.0) -> dict:
        """Say `msg` (a hello) until the PC answers with `answer`: a program opening its port flushes
        what arrived before (pyserial), so a clock says hello again every 2 s; so does the rogue."""
        deadline = time.monotonic() + timeout
        while True:
            self.send(dict(msg))
            try:
                return self.wait(answer, timeout=min(1.0, max(0.01, deadline - time.monotonic())))
            except AssertionError:
                assert time.monotonic() < deadline, f"no {answer} to a hello within {timeout} s"

    def drain(self, seconds: float) -> list[dict]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([self.fd], [], [], 0.05)[0]:
                lines, _ = self.split.feed(os.read(self.fd, 65536))
                self.got += [decode(line) for line in lines]
        out, self.got = self.got, []
        return out

    def close(self) -> None:
        os.close(self.fd)


def gameclock(*argv: str, stdin=subprocess.DEVNULL) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "gameclock", *argv], cwd=REPO, stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def hello(serial: str = SERIAL, key_id: str | None = None, nonce: str = "ab" * 16, pending: int = 0) -> dict:
    return {"t": "hello", "proto": PROTO, "serial": serial, "fw": "rogue", "nonce": nonce, "kid": key_id,
            "pending": pending, "event": "e1", "round": 1, "table": 3}


def store_state(db: Path) -> tuple:
    with Store(db) as s:
        return (sorted((r["id"], sign.canonical(r)) for r in s.results()),
                [(serial, k, revoked) for serial, k, _key, _at, revoked in keys_with_revocation(s)],
                s.conflicts())


def keys_with_revocation(s: Store) -> list[tuple]:
    return [(serial, k, key, at, s.revoked(serial, k)) for serial, k, key, at in s.keys()]


# ------------------------------------------------------------------------------------ a rogue device

@pytest.fixture
def pc_db(tmp_path):
    """The PC's database: SERIAL enrolled with KEY, one genuine result of it stored."""
    db = tmp_path / "pc.db"
    store = make_store(db)
    rec = records(1)[0]
    store.put_result(rec, sign.sign_result(KEY, rec), kid(KEY), "genuine")
    store.close()
    return db


def test_a_rogue_device_gets_nothing_into_the_receiver(tmp_path, pc_db):  # issue 13 holes 1 and 2
    before = store_state(pc_db)
    genuine = records(1)[0]
    with PtyRelay() as relay:
        pc = gameclock("receive", "--port", relay.path_b, "--db", str(pc_db))
        rogue = Peer(relay.path_a)
        try:
            # 1. claiming the enrolled serial with no key, then with the real key's (public) id
            for key_id in (None, kid(KEY), kid(OTHER_KEY)):
                w = rogue.hello(hello(key_id=key_id))
                assert w["known"] is (key_id == kid(KEY))  # the PC holds that key; the rogue cannot use it
                # forged results: another key, an altered record, another clock's, the genuine id altered
                forged = dict(genuine, players={"left": "Mallory", "right": "Eve"})
                for rec, key in ((records(1, first=7)[0], OTHER_KEY), (forged, OTHER_KEY),
                                 (records(1, serial="00000000badc10c0")[0], KEY)):
                    rogue.send({"t": "result", "id": rec["id"], "rec": rec, "sig": sign.sign_result(key, rec)})
                    assert rogue.wait("nak", id=rec["id"])["reason"] in (
                        "unenrolled", "bad-signature", "wrong-clock")
            # 2. replay of the genuine result frame (recorded from the real clock): only "duplicate"
            rogue.hello(hello(key_id=kid(KEY), nonce="cd" * 16))
            rogue.send({"t": "result", "id": genuine["id"], "rec": genuine, "sig": sign.sign_result(KEY, genuine)})
            assert rogue.wait("ack", id=genuine["id"])["status"] == "duplicate"
            # 3. a hostile frame nested deep, then the port must still serve (issue 13 hole 2)
            deep = b'{"t":"result","m":5,"id":"x","rec":' + b'{"a":' * 987 + b"1" + b"}" * 987 + b',"sig":"00"}'
            os.write(rogue.fd, deep + b"*%08x\n" % __import__("zlib").crc32(deep))
            rogue.send({"t": "ping"})
            rogue.wait("pong")
            assert pc.poll() is None, "the receiver must stay up"
        finally:
            rogue.close()
            pc.terminate()
            out = pc.communicate(timeout=15)[0]
    assert store_state(pc_db) == before, out  # 0 accepted


def test_a_key_revoked_while_its_docking_is_open_signs_nothing_more(tmp_path, pc_db):  # SECURITY.md promise 1
    # A thief with a copy of KEY docks a device on a port `gameclock receive` serves, while the
    # organiser re-enrolls the real clock with --replace elsewhere (another port, the desk): that
    # enrollment stores the new key and revokes KEY in the same database. The thief's docking began
    # before the revocation; a result it sends after the revocation must be refused, not stored
    # (it used to be judged by the key as it stood at the docking's hello: stored, acked `stored`).
    stolen = records(1, first=5)[0]
    with PtyRelay() as relay:
        pc = gameclock("receive", "--port", relay.path_b, "--db", str(pc_db))
        rogue = Peer(relay.path_a)
        try:
            assert rogue.hello(hello(key_id=kid(KEY)))["known"] is True  # KEY is valid at the hello
            with Store(pc_db) as other:  # the re-enrollment's transaction, as `enroll --replace` commits it
                other.add_key(SERIAL, OTHER_KEY, revoke_others=True)
            rogue.send({"t": "result", "id": stolen["id"], "rec": stolen, "sig": sign.sign_result(KEY, stolen)})
            deadline = time.monotonic() + 10
            answers: list[dict] = []
            while not answers and time.monotonic() < deadline:
                answers = [m for m in rogue.drain(0.2) if m["t"] in ("ack", "nak") and m.get("id") == stolen["id"]]
            assert [(m["t"], m.get("reason")) for m in answers] == [("nak", "revoked")]
        finally:
            rogue.close()
            pc.terminate()
            out = pc.communicate(timeout=15)[0]
    with Store(pc_db) as s:
        assert s.result(stolen["id"]) is None, out


def run_enroll(relay: PtyRelay, db: Path, *extra: str) -> subprocess.Popen:
    return gameclock("enroll", "--port", relay.path_b, "--db", str(db), "--timeout", "20", *extra,
                     stdin=subprocess.PIPE)


def test_a_rogue_device_cannot_hijack_an_enrolled_serial(tmp_path, pc_db):  # issue 13 hole 1
    before = store_state(pc_db)
    with PtyRelay() as relay:
        # without a key: enroll refuses before any key agreement (the organiser must say --replace)
        enr = run_enroll(relay, pc_db)
        rogue = Peer(relay.path_a)
        rogue.hello(hello())
        out = enr.communicate(timeout=30)[0]
        assert enr.returncode == 1 and "--replace" in out, out
        assert not [m for m in rogue.drain(0.5) if m["t"].startswith("enroll")]
        # naming the real key's id: the enrollment runs, the organiser is fooled into typing the
        # rogue's code, but the rogue cannot prove the key: nothing stored
        enr = run_enroll(relay, pc_db)
        start = rogue.hello(hello(key_id=kid(KEY), nonce="ef" * 16), answer="enroll")
        half = enroll.Half(SERIAL)
        half.peer_pub = start["pub"]
        rogue.send({"t": "enroll-commit", "re": start["m"], "pub": half.pub,
                    "commit": enroll.commitment(half.nonce, half.pub, start["pub"])})
        nonce = rogue.wait("enroll-nonce")
        half.peer_nonce = nonce["nonce"]
        rogue.send({"t": "enroll-reveal", "re": nonce["m"], "nonce": half.nonce})
        key, code, t = half.derive(pc=False)
        enr.stdin.write(code + "\n")
        enr.stdin.flush()
        time.sleep(0.5)
        rogue.send({"t": "enroll-confirm", "mac": enroll.confirm_mac(key, t), "old": enroll.old_key_mac(OTHER_KEY, t)})
        out = enr.communicate(timeout=30)[0]
        rogue.close()
    assert enr.returncode == 1 and "did not prove the key this PC knows" in out, out
    assert store_state(pc_db) == before


def test_no_organiser_code_enrolls_nothing(tmp_path):  # issue 13: enrollment needs both people
    db = tmp_path / "pc.db"
    Store(db).close()
    with PtyRelay() as relay:
        enr = run_enroll(relay, db)
        rogue = Peer(relay.path_a)
        start = rogue.hello(hello(serial="NEWCLOCK1"), answer="enroll")
        half = enroll.Half("NEWCLOCK1")
        half.peer_pub = start["pub"]
        rogue.send({"t": "enroll-commit", "re": start["m"], "pub": half.pub,
                    "commit": enroll.commitment(half.nonce, half.pub, start["pub"])})
        nonce = rogue.wait("enroll-nonce")
        half.peer_nonce = nonce["nonce"]
        rogue.send({"t": "enroll-reveal", "re": nonce["m"], "nonce": half.nonce})
        key, _code, t = half.derive(pc=False)
        rogue.send({"t": "enroll-confirm", "mac": enroll.confirm_mac(key, t), "old": None})
        enr.stdin.close()  # the organiser typed nothing
        enr.wait(30)
        out = enr.stdout.read()
        rogue.close()
    assert enr.returncode == 1, out
    with Store(db) as s:
        assert s.keys() == []


# ------------------------------------------------------------------------------------ a rogue PC

class Clock:
    """The device's dock thread on a state folder with results in its outbox."""

    def __init__(self, tmp_path: Path, path: str, key: bytes | None, n: int = 3):
        self.state = tmp_path / "clock"
        self.outbox = Outbox(self.state)
        self.outbox.prepare()
        self.ids = []
        for rec in records(n):
            self.outbox.put(rec)
            self.ids.append(rec["id"])
        if key is not None:
            KeyStore(self.state).set(key)
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = DockThread(path, self.state, SERIAL, self.outbox, self.inbox.put, opener=open_port)
        self.thread.start()
        self.seen: list = []

    def status_with_code(self, timeout: float = 10.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                item = self.inbox.get(timeout=0.1)
            except queue.Empty:
                continue
            self.seen.append(item)
            if isinstance(item, DockUpdate) and item.status.code:
                return item.status
        raise AssertionError("the clock never showed a code")

    def stop(self) -> list:
        self.thread.close()
        while True:
            try:
                self.seen.append(self.inbox.get_nowait())
            except queue.Empty:
                return self.seen


@pytest.mark.parametrize("key", [None, KEY], ids=["unenrolled", "enrolled"])
def test_a_rogue_pc_gets_nothing_from_the_clock(tmp_path, key):  # issue 13 holes 1 and 4
    with PtyRelay() as relay:
        clock = Clock(tmp_path, relay.path_a, key)
        pc = Peer(relay.path_b)
        try:
            h = pc.wait("hello")
            # a welcome claiming to know the key, without proof; then a plain one
            pc.send({"t": "welcome", "re": h["m"], "proto": PROTO, "pc": "rogue", "known": True, "mac": "00" * 32})
            pc.send({"t": "welcome", "re": h["m"], "proto": PROTO, "pc": "rogue", "known": False, "mac": None})
            # forged acks of every result: random MACs, MACs under a key of its own
            for rid in clock.ids:
                rec = clock.outbox.read(rid)
                for mac in ("ab" * 32, sign.ack_mac(OTHER_KEY, rid, sign.digest(rec))):
                    pc.send({"t": "ack", "re": 1, "id": rid, "status": "stored", "mac": mac})
            # a forged pairing
            pc.send({"t": "pairing", "pairing": PAIRING, "mac": sign.pairing_mac(OTHER_KEY, h["nonce"], 9, PAIRING)})
            # trust on first use / hijack: a full key agreement; the clock shows the code, nobody confirms,
            # the rogue sends enroll-done under the key it agreed
            half = enroll.Half(SERIAL)
            pc.send({"t": "enroll", "serial": SERIAL, "pub": half.pub, "replace": True})
            commit = pc.wait("enroll-commit")
            half.peer_pub = commit["pub"]
            pc.send({"t": "enroll-nonce", "re": commit["m"], "nonce": half.nonce})
            reveal = pc.wait("enroll-reveal")
            half.peer_nonce = reveal["nonce"]
            agreed, code, t = half.derive(pc=True)
            assert clock.status_with_code().code == code  # shown to the arbiter, who is not there
            pc.send({"t": "enroll-done", "mac": enroll.done_mac(agreed, t)})
            for rid in clock.ids:  # and acks under the key it agreed
                rec = clock.outbox.read(rid)
                pc.send({"t": "ack", "re": 1, "id": rid, "status": "stored",
                         "mac": sign.ack_mac(agreed, rid, sign.digest(rec))})
            pc.drain(1.0)
        finally:
            pc.close()
            seen = clock.stop()
    assert KeyStore(clock.state).key == key  # no key taken
    assert sorted(clock.outbox.pending()) == sorted(clock.ids) and clock.outbox.sent() == []
    assert not [i for i in seen if isinstance(i, Pairing)]


def test_a_genuine_enrollment_through_the_clock_and_gameclock_enroll(tmp_path):
    db = tmp_path / "pc.db"
    Store(db).close()
    with PtyRelay() as relay:
        clock = Clock(tmp_path, relay.path_a, None, n=0)
        enr = run_enroll(relay, db)
        try:
            status = clock.status_with_code(timeout=15)
            clock.thread.answer_enroll(status.code, True)  # the arbiter, on the clock
            enr.stdin.write(f"{status.code[:3]} {status.code[3:]}\n")  # the organiser, as the clock shows it
            enr.stdin.flush()
            out = enr.communicate(timeout=30)[0]
        finally:
            clock.stop()
    assert enr.returncode == 0, out
    assert f"this PC's code is {status.code[:3]} {status.code[3:]}" in out
    key = KeyStore(clock.state).key
    with Store(db) as s:
        assert key is not None and s.key(SERIAL, kid(key)) == key
    assert f"enrolled clock {SERIAL} (key {kid(key)})" in out
