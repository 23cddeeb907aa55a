"""Issue 13 holes 2, 6 and 8 on the organiser's side: no frame can stop a receiver port, nothing a
peer sends grows without bound, a flood of refusals does not flood the log, read-only commands take
no write lock, and a database root created stays the service user's.

What must hold (SECURITY.md "Bounded everything"): a record nested 987 deep is refused at the frame
(`too-deep`) before the signature check; a handler that fails is contained (the message is refused
as `internal-error`, a result nak'ed so the clock keeps it) and the port serves the next line; a port
whose serving fails is reopened after a backoff, shown on the status line, and when no port can be
served `receive` ends with status 3 (systemd restarts it); 2,000 hellos under new serials leave 32
sessions and no `clocks` row (5,000 during `enroll` neither: issue 24); 1,000 refusals write 20 lines in full and one line summing up the rest.
"""
from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from dockkit import KEY, NS, SERIAL, PtyRelay, frame, kid, make_clock, make_pc, make_store, records

from gameclock.dock import sign
from gameclock.dock.frame import decode
from gameclock.dock.link import Link, open_port
from gameclock.dock.messages import PROTO
from gameclock.dock.pcside import MAX_SESSIONS
from gameclock.dock.refusals import Refusals
from gameclock.organiser import commands_receive
from gameclock.organiser.commands_receive import PortWorker, lines
from gameclock.organiser.store import Store, StoreError

REPO = Path(__file__).resolve().parents[2]


def hello(serial: str = SERIAL, key_id: str | None = None, m: int = 1) -> dict:
    return {"t": "hello", "m": m, "proto": PROTO, "serial": serial, "fw": "0.1.0", "nonce": "ab" * 16,
            "kid": key_id, "pending": 1, "event": "e1", "round": 1, "table": 3}


def result(m: int, rec: dict, key: bytes = KEY) -> dict:
    return {"t": "result", "m": m, "id": rec["id"], "rec": rec, "sig": sign.sign_result(key, rec)}


def test_a_record_nested_987_deep_is_refused_at_the_frame(tmp_path):  # issue 13 hole 2
    store = make_store(tmp_path / "pc.db")
    pc = make_pc(store)
    pc.receive(NS, frame(hello(key_id=kid(KEY))))
    rec = records(1)[0]
    # the right id and serial: without the frame's depth limit it would reach the signature check
    body = (b'{"t":"result","m":2,"id":"%s","rec":{"id":"%s","clock":{"serial":"%s"},"x":'
            % (rec["id"].encode(), rec["id"].encode(), SERIAL.encode())
            + b"[" * 987 + b"]" * 987 + b'},"sig":"' + b"0" * 64 + b'"}')
    import zlib
    assert pc.receive(NS, body + b"*%08x\n" % zlib.crc32(body)) == []  # noise is never answered
    assert pc.refusals == {"too-deep": 1}
    # the port goes on: the genuine result is stored
    ack = decode(pc.receive(NS, frame(result(3, rec)))[0])
    assert ack["t"] == "ack" and ack["status"] == "stored"


class FailingStore:
    """A store whose `method` raises `exc` (a database error, a bug) until `healed`."""

    def __init__(self, real: Store, method: str, exc: BaseException):
        self.real, self.method, self.exc, self.healed = real, method, exc, False

    def __getattr__(self, name):
        if name == self.method and not self.healed:
            def fail(*a, **kw):
                raise self.exc
            return fail
        return getattr(self.real, name)


def test_a_handler_that_fails_is_contained_and_the_port_goes_on(tmp_path, caplog):  # issue 13 hole 2
    real = make_store(tmp_path / "pc.db")
    store = FailingStore(real, "key", sqlite3.OperationalError("disk I/O error"))
    pc = make_pc(store)
    with caplog.at_level(logging.ERROR, logger="gameclock.dock"):
        out = [decode(f) for f in pc.receive(NS, frame(hello(key_id=kid(KEY))))]
    assert [(m["t"], m["code"]) for m in out] == [("error", "pc-error")]
    assert "disk I/O error" in out[0]["text"] and pc.refusals == {"internal-error": 1}
    assert any(r.exc_info for r in caplog.records), "the traceback is logged"
    store.healed = True
    assert decode(pc.receive(NS, frame(hello(key_id=kid(KEY), m=2)))[0])["known"] is True
    # a result whose check fails inside (RecursionError, as the deep record once did): nak'ed, kept
    rec = records(1)[0]
    store.method, store.healed, store.exc = "put_result", False, RecursionError("maximum recursion depth")
    nak = decode(pc.receive(NS, frame(result(3, rec)))[0])
    assert (nak["t"], nak["id"], nak["reason"]) == ("nak", rec["id"], "storage")  # put_result's own guard
    store.method = "key"  # outside any guard of its own (looked up at each result): the endpoint's containment answers
    nak = decode(pc.receive(NS, frame(result(4, rec)))[0])
    assert (nak["t"], nak["reason"]) == ("nak", "internal-error")
    store.healed = True
    pc.receive(NS, frame(hello(key_id=kid(KEY), m=5)))
    assert decode(pc.receive(NS, frame(result(6, rec)))[0])["status"] == "stored"
    real.close()


def test_a_result_the_pc_fails_on_stays_on_the_clock_and_arrives_next_docking(tmp_path, monkeypatch):  # CL-5
    clock = make_clock(tmp_path / "clock", results=records(1))
    store = make_store(tmp_path / "pc.db")
    pc = make_pc(store)
    from dockkit import Wire

    from gameclock.dock import pcside

    def broken(rec):  # the record check fails inside (a bug; once, a record too deep for it)
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(pcside, "schema_errors", broken)
    wire = Wire(clock.endpoint, pc)
    wire.run(5)
    assert clock.outbox.sent() == [] and len(clock.outbox.pending()) == 1  # kept: never acked
    assert clock.endpoint.refused == {records(1)[0]["id"]: "internal-error"}
    assert store.results() == [] and pc.refusals == {"internal-error": 1}
    monkeypatch.undo()  # the PC is fixed; the clock docks again
    clock.endpoint.connect(wire.now)
    clock.endpoint.welcomed = False
    wire.run(10)
    assert len(clock.outbox.sent()) == 1 and [r["id"] for r in store.results()] == [records(1)[0]["id"]]
    store.close()


def test_a_hello_flood_leaves_bounded_sessions_and_no_rows(tmp_path):  # issue 13 hole 6
    store = make_store(tmp_path / "pc.db")
    pc = make_pc(store)
    for i in range(2000):
        pc.receive(NS, frame(hello(serial=f"flood{i:06d}", m=i + 1)))
    assert len(pc.sessions) == MAX_SESSIONS
    assert pc.earlier["dockings"] == 2000 - MAX_SESSIONS
    assert [c["serial"] for c in store.clocks()] == [SERIAL]  # only the enrolled clock (by its key)
    # an enrolled clock's hello is still noted
    pc.receive(NS, frame(hello(key_id=kid(KEY), m=3000)))
    assert [c["last_seen"] is not None for c in store.clocks()] == [True]
    store.close()


def test_a_hello_flood_during_enroll_adds_no_rows_and_starts_one_enrollment(tmp_path):  # issue 24 B8
    # `gameclock enroll` noted every hello's serial (5,000 hellos: 5,000 `clocks` rows in 4 s). A serial
    # gets a row once it holds a key here, i.e. once an enrollment completed; and a run enrolls one clock
    store = make_store(tmp_path / "pc.db", keys={})
    pc = make_pc(store, enroll=True)
    answers = []
    for i in range(5000):
        answers += [decode(f) for f in pc.receive(NS, frame(hello(serial=f"flood{i:06d}", m=i + 1)))]
    assert store.clocks() == []
    starts = [a for a in answers if a["t"] == "enroll"]
    assert [a["serial"] for a in starts] == ["flood000000"] and pc.enrolls == 1
    assert len(pc.sessions) == MAX_SESSIONS
    store.close()


def test_refusals_are_counted_all_and_logged_a_few(caplog):  # issue 13: refusals rate-limited in the log
    now = [0.0]
    refusals = Refusals(logging.getLogger("gameclock.dock.test"), "dock /dev/x", clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="gameclock.dock.test"):
        for i in range(1000):
            refusals.add("bad-crc" if i % 4 else "no-crc", "junk")
            now[0] += 0.01  # 1,000 in 10 s
        assert len(caplog.records) == 20  # BURST
        now[0] = 61.0
        refusals.add("bad-json")  # a new window: first the summary, then this one in full
    texts = [r.getMessage() for r in caplog.records]
    assert texts[20] == "dock /dev/x: 980 more refusals in 60 s not logged: bad-crc 735, no-crc 245"
    assert texts[21] == "dock /dev/x: refused: bad-json"
    assert refusals == {"bad-crc": 750, "no-crc": 250, "bad-json": 1}


def test_a_port_that_fails_is_served_again_after_a_backoff(tmp_path, monkeypatch):  # issue 13 hole 2
    monkeypatch.setattr(commands_receive, "REOPEN_S", 0.05)
    db = tmp_path / "pc.db"
    make_store(db).close()
    opened = []

    def flaky_store(path):
        opened.append(time.monotonic())
        if len(opened) <= 2:
            raise StoreError(f"{path}: database is locked")
        return Store(path)

    stop = threading.Event()
    with PtyRelay() as relay:
        worker = PortWorker(relay.path_b, db, stop, open_store=flaky_store)
        worker.start()
        try:
            deadline = time.monotonic() + 5
            while worker.failures < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert worker.failures == 2
            assert lines([worker])[0].startswith(f"{relay.path_b}: failed 2x, again in 0.1 s: StoreError")
            # then it serves: a genuine clock uploads through it
            clock = make_clock(tmp_path / "clock", results=records(2))
            port = open_port(relay.path_a)
            link = Link(port, clock.endpoint)
            link.start()
            deadline = time.monotonic() + 20
            while len(clock.outbox.sent()) < 2 and time.monotonic() < deadline:
                link.step(0.1)
            port.close()
            assert len(clock.outbox.sent()) == 2
            assert opened[1] - opened[0] >= 0.05 and opened[2] - opened[1] >= 0.1  # 1x, then 2x REOPEN_S
            assert not worker.dead and worker.error == ""
        finally:
            stop.set()
            worker.join(5)
    with Store(db) as s:
        assert len(s.results()) == 2


def test_receive_ends_with_status_3_when_no_port_can_be_served(tmp_path, monkeypatch, capsys):
    # issue 13: "the process exits non-zero (so systemd restarts it) when it cannot serve"
    monkeypatch.setattr(commands_receive, "REOPEN_S", 0.01)
    db = tmp_path / "pc.db"
    make_store(db).close()
    real_store = Store
    calls = []

    def store_that_breaks(path, **kw):  # the check at start-up passes, the ports' stores fail
        calls.append(path)
        if len(calls) == 1:
            return real_store(path, **kw)
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr("gameclock.organiser.store.Store", store_that_breaks)
    with PtyRelay() as relay:
        args = argparse.Namespace(port=[relay.path_b], db=str(db), exit_when_done=False, verbose=False)
        t0 = time.monotonic()
        status = commands_receive.run(args)
    out, err = capsys.readouterr()
    assert status == 3
    assert "no port can be served" in err and "malformed" in err
    assert len(calls) == 1 + commands_receive.GIVE_UP
    assert time.monotonic() - t0 < 10
    assert "failed 5x and could not be served" in out


def test_standings_and_exports_open_the_database_read_only(tmp_path):  # issue 13 hole 8
    db = tmp_path / "pc.db"
    store = make_store(db)
    rec = records(1)[0]
    store.put_result(rec, sign.sign_result(KEY, rec), kid(KEY), "test")
    # a receiver holds the write lock (a long transaction): read-only readers are not held up
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        t0 = time.monotonic()
        with Store(db, readonly=True) as ro:
            assert [r["id"] for r in ro.results()] == [rec["id"]]
            with pytest.raises(StoreError, match="readonly"):
                ro.add_key("x", b"k")
        assert time.monotonic() - t0 < 1.0  # no BUSY_TIMEOUT_S wait for the lock
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    store.close()
    missing = tmp_path / "nothing.db"
    with pytest.raises(StoreError, match="^no database at "):
        Store(missing, readonly=True)
    assert not missing.exists()


def test_an_older_database_is_upgraded_once_then_read_only(tmp_path):
    db = tmp_path / "old.db"
    con = sqlite3.connect(db, isolation_level=None)
    from gameclock.organiser.store import MIGRATIONS, statements
    for stmt in statements(MIGRATIONS[0]):
        con.execute(stmt)
    con.execute("PRAGMA user_version = 1")
    con.close()
    with Store(db, readonly=True) as ro:
        assert ro.version() == len(MIGRATIONS) and ro.results() == []


def test_a_database_root_creates_goes_to_the_folders_owner(tmp_path, monkeypatch):  # issue 13 hole 8
    folder = tmp_path / "srv"
    folder.mkdir()
    chowned = []
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    real_stat = Path.stat

    def stat(self, **kw):
        st = real_stat(self, **kw)
        if self == folder:
            return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, 1234, 5678, *st[6:]))
        return st

    monkeypatch.setattr(Path, "stat", stat)
    monkeypatch.setattr(os, "chown", lambda path, uid, gid: chowned.append((Path(path).name, uid, gid)))
    Store(folder / "gameclock.db").close()
    assert ("gameclock.db", 1234, 5678) in chowned
    assert {name for name, _, _ in chowned} <= {"gameclock.db", "gameclock.db-wal", "gameclock.db-shm"}
    chowned.clear()
    Store(folder / "gameclock.db").close()  # an existing file is left as it is
    assert chowned == []


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (make test as root): creates a database as root "
                    "for the user nobody")
def test_as_root_the_service_user_can_still_write_the_database():  # issue 13 hole 8
    import pwd
    import shutil
    import tempfile
    nobody = pwd.getpwnam("nobody")
    top = Path(tempfile.mkdtemp(prefix="gameclock-chown-", dir="/tmp"))  # (pytest's tmp is root's only)
    try:
        os.chmod(top, 0o755)
        folder = top / "srv"
        folder.mkdir()
        os.chown(folder, nobody.pw_uid, nobody.pw_gid)
        db = folder / "gameclock.db"
        make_store(db).close()  # root enrolls a clock first (sudo gameclock enroll)
        assert db.stat().st_uid == nobody.pw_uid
        # the service user writes it: the system's python3 and sqlite3 (the venv lives in root's home)
        code = ("import sqlite3, sys; db = sqlite3.connect(sys.argv[1], isolation_level=None); "
                "db.execute('BEGIN IMMEDIATE'); db.execute(\"INSERT INTO clock_keys (serial, kid, key, added_at) "
                "VALUES ('c2', '0123456789abcdef', x'00', 'now')\"); db.execute('COMMIT'); "
                "print(db.execute('SELECT count(*) FROM clock_keys').fetchone()[0])")
        python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
        done = subprocess.run([python, "-c", code, str(db)], capture_output=True, text=True, cwd="/",
                              user=nobody.pw_uid, group=nobody.pw_gid, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "2"
    finally:
        shutil.rmtree(top)


def test_a_flood_of_unenrolled_hellos_is_summed_up_in_the_log(tmp_path, caplog):  # issue 13 hole 6
    from gameclock.dock.refusals import Budget
    now = [0.0]
    store = make_store(tmp_path / "pc.db")
    pc = make_pc(store)
    pc._notes = Budget(20, 60.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="gameclock.dock"):
        for i in range(2000):
            pc.receive(NS, frame(hello(serial=f"flood{i:06d}", m=i + 1)))
        now[0] = 61.0
        pc.receive(NS, frame(hello(serial="late", m=5000)))
    notes = [r.getMessage() for r in caplog.records if "is not enrolled" in r.getMessage()]
    assert len(notes) == 21
    assert notes[-1].endswith("(1980 more such hellos not logged)")
    store.close()


def test_the_refusals_table_is_bounded_across_dockings(tmp_path, monkeypatch):  # issue 13 hole 6
    from gameclock.dock import pcside
    monkeypatch.setattr(pcside, "MAX_KEPT_REFUSALS", 5)
    store = make_store(tmp_path / "pc.db")
    pc = make_pc(store)
    rec = records(1)[0]
    forged = dict(result(2, rec), sig="0" * 64)
    for i in range(30):  # a new docking (hello) before every forged result
        pc.receive(NS, frame(hello(key_id=kid(KEY), m=10 * i + 1)))
        pc.receive(NS, frame(dict(forged, m=10 * i + 2)))
    assert pc.refusals == {"bad-signature": 30}  # every one counted and nak'ed ...
    assert len(store.refusals()) == 5            # ... the first 5 of the hour kept in the table
    store.close()


def test_a_protocol_mismatch_is_over_once_a_clock_speaks_ours(tmp_path):
    store = make_store(tmp_path / "pc.db")
    pc = make_pc(store)
    pc.receive(NS, frame(dict(hello(), proto=99)))
    assert "protocol 99" in pc.last_error
    pc.receive(NS, frame(hello(key_id=kid(KEY), m=2)))
    assert pc.last_error == ""
    store.close()


def test_a_forged_nak_does_not_make_the_clock_ignore_the_genuine_ack(tmp_path):  # CL-5
    clock = make_clock(tmp_path / "clock", results=records(1), nonces=["ab" * 16])
    ep = clock.endpoint
    h = decode(ep.connect(NS)[0])
    ep.receive(NS, frame({"t": "welcome", "m": 1, "re": h["m"], "proto": PROTO, "pc": "pc", "known": True,
                          "mac": sign.welcome_mac(KEY, "ab" * 16)}))
    sent = [decode(f) for f in ep.poll(NS)]
    res = next(m for m in sent if m["t"] == "result")
    rec = res["rec"]
    # a rogue on the line says the PC refused it ...
    ep.receive(NS, frame({"t": "nak", "m": 2, "re": res["m"], "id": rec["id"], "reason": "bad-signature"}))
    assert rec["id"] in ep.refused
    # ... then the PC's genuine ack arrives: it counts
    ep.receive(NS, frame({"t": "ack", "m": 3, "re": res["m"], "id": rec["id"], "status": "stored",
                          "mac": sign.ack_mac(KEY, rec["id"], sign.digest(rec))}))
    assert clock.outbox.sent() == [rec["id"]] and ep.refused == {}
    assert ep.status.sent == 1
