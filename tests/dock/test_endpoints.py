"""The dock protocol (firmware/gameclock/dock/PROTOCOL.md) with both endpoints in this process: the
clock's `ClockEndpoint` (a real outbox and key file on a temp folder) and the PC's
`ReceiverEndpoint` (a real SQLite `Store`), joined by `dockkit.Wire` with a fake monotonic clock.

CL-5: a result is kept on the clock until the organiser's PC has acknowledged it. Every expected
MAC here is computed from PROTOCOL.md's table with hmac/hashlib directly (not with dock.sign), and
every expected count, time and text is worked out from the protocol by hand in the comments.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging

import pytest
from dockkit import (
    KEY,
    NS,
    OTHER,
    OTHER_KEY,
    SERIAL,
    Wire,
    frame,
    game_log,
    make_clock,
    make_pc,
    make_store,
    record,
    records,
    walls,
)

from gameclock.dock import clockside, pcside
from gameclock.dock.clockside import DockStatus
from gameclock.dock.messages import PROTO
from gameclock.record import record_from_log

NONCES = [f"{i:032x}" for i in range(1, 100)]  # the clock's hellos use these, in order
# with the event's set-up (issue 15, protocol 3): every key on the wire, null when not given
PAIRING = {"event": "bangkok-open-2026", "round": 3, "table": 12,
           "players": {"left": "สมชาย ใจดี", "right": "Malee"},
           "level": "secondary", "stage": "last", "language": "th", "preset": None, "game": None}


# ------------------------------------------------------------------------------ PROTOCOL.md by hand

def canon(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def mac(key: bytes, *parts: bytes) -> str:
    return hmac.new(key, b"\n".join(parts), hashlib.sha256).hexdigest()


def kid(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()[:16]


def result_sig(key: bytes, rec: dict) -> str:
    return mac(key, b"result", canon(rec))


def ack_mac(key: bytes, rec: dict) -> str:
    return mac(key, b"ack", rec["id"].encode(), hashlib.sha256(canon(rec)).hexdigest().encode())


def hello(m: int = 1, serial: str = SERIAL, key: bytes | None = KEY, nonce: str = "ab" * 16,
          proto: int = PROTO, pending: int = 0) -> bytes:
    return frame({"t": "hello", "m": m, "proto": proto, "serial": serial, "fw": "test", "nonce": nonce,
                  "kid": kid(key) if key else None, "pending": pending, "event": None, "round": None,
                  "table": None})


def result(m: int, rec: dict, sig: str, rid: str | None = None) -> bytes:
    return frame({"t": "result", "m": m, "id": rid or rec["id"], "rec": rec, "sig": sig})


def texts(statuses) -> list[str]:
    """The screen lines shown, a repeated line once."""
    out: list[str] = []
    for st in statuses:
        if not out or out[-1] != st.text():
            out.append(st.text())
    return out


@pytest.fixture
def store(tmp_path):
    s = make_store(tmp_path / "pc.db")
    yield s
    s.close()


def test_dockkit_records_are_record_from_logs_own():
    for seq in (1, 2, 9, 1000):
        assert record(seq) == record_from_log(game_log(seq % 8), "g.log", SERIAL, seq, *walls(seq))
    assert record(42)["id"] == "00000000c0ffee01-000042"  # SERIAL-seq, six digits
    assert record(42) is not record(42)


# enrollment: tests/dock/test_enrollment.py (issue 13)


# ------------------------------------------------------------------------------ upload

def test_upload_exactly_once_and_a_repeat_is_acked_duplicate(tmp_path, store):
    recs = records(6)
    clock = make_clock(tmp_path / "clock", results=recs, nonces=NONCES,
                       info=lambda: {"event": "bangkok-open-2026", "round": 3, "table": 12})
    pc = make_pc(store)
    wire = Wire(clock.endpoint, pc)
    wire.connect()
    wire.run_until(lambda: clock.endpoint.status.done, seconds=30)

    (h,) = wire.sent("clock", "hello")
    assert h == {"t": "hello", "m": 1, "proto": PROTO, "serial": SERIAL, "fw": h["fw"], "nonce": NONCES[0],
                 "kid": kid(KEY), "pending": 6, "event": "bangkok-open-2026", "round": 3, "table": 12}
    sent = wire.sent("clock", "result")
    assert [m["id"] for m in sent] == [r["id"] for r in recs]  # each once, none lost: no retry
    assert all(m["sig"] == result_sig(KEY, r) for m, r in zip(sent, recs, strict=False))
    acks = wire.sent("pc", "ack")
    assert [(a["id"], a["status"]) for a in acks] == [(r["id"], "stored") for r in recs]
    assert all(a["mac"] == ack_mac(KEY, r) for a, r in zip(acks, recs, strict=False))
    # CL-5: on the PC exactly once, content-equal; on the clock, all moved to sent/
    assert store.count_results() == 6
    assert all(store.result(r["id"])["record"] == r for r in recs)
    assert clock.outbox.pending() == [] and clock.outbox.sent() == sorted(r["id"] for r in recs)

    # the first result frame again (a retry that crossed its ack): acked `duplicate`, stored once
    wire.to_pc_now(frame(sent[0]))
    last = wire.sent("pc", "ack")[-1]
    assert (last["re"], last["id"], last["status"]) == (sent[0]["m"], recs[0]["id"], "duplicate")
    assert last["mac"] == ack_mac(KEY, recs[0])
    assert store.count_results() == 6 and pc.session.duplicates == 1 and pc.session.stored == 6


def test_the_same_id_with_other_content_is_kept_aside_as_a_conflict(tmp_path, store):
    first = record(1)
    clock = make_clock(tmp_path / "clock", results=[first], nonces=NONCES)
    wire = Wire(clock.endpoint, make_pc(store))
    wire.connect()
    wire.run_until(lambda: clock.endpoint.status.done, seconds=10)

    # a second clock state folder holding another record under the same id (never from a working
    # clock: e.g. a restored SD card image), signed with the right key
    other = record(1)
    other["players"]["left"] = "Somsak"
    clock2 = make_clock(tmp_path / "clock2", results=[other], nonces=NONCES[5:])
    pc2 = make_pc(store)
    wire2 = Wire(clock2.endpoint, pc2)
    wire2.connect()
    wire2.run_until(lambda: clock2.endpoint.status.done, seconds=10)

    (ack,) = wire2.sent("pc", "ack")
    assert ack["status"] == "conflict" and ack["mac"] == ack_mac(KEY, other)
    assert store.count_results() == 1
    assert store.result(first["id"])["record"] == first  # the first one stays
    assert [c["record"] for c in store.conflicts()] == [other]  # the other kept aside
    assert pc2.session.conflicts == 1 and pc2.session.stored == 0


# ------------------------------------------------------------------------------ refused results

def session(store, caplog=None):
    """A PC that has had SERIAL's hello (key KEY)."""
    pc = make_pc(store)
    out = pc.receive(0, hello())
    assert json.loads(out[0].rpartition(b"*")[0])["known"] in (True, False)
    return pc


def answer(frames: list[bytes]) -> dict:
    (f,) = frames
    return json.loads(f.rpartition(b"*")[0])


def test_results_refused_unenrolled_forged_altered_wrong_clock(tmp_path, caplog):
    unknown = make_store(tmp_path / "other.db", keys={})
    pc = session(unknown)
    rec = record(1)
    with caplog.at_level(logging.WARNING, logger="gameclock.dock"):
        assert answer(pc.receive(0, result(2, rec, result_sig(KEY, rec))))["reason"] == "unenrolled"
    assert unknown.count_results() == 0
    unknown.close()

    store = make_store(tmp_path / "pc.db")
    pc = session(store)
    cases = []
    # a laptop's own key
    cases.append(("bad-signature", result(2, rec, result_sig(OTHER_KEY, rec))))
    # signed, then one field changed: the left player's name
    altered = record(1)
    sig = result_sig(KEY, altered)
    altered["players"]["left"] = "Mallory"
    cases.append(("bad-signature", result(3, altered, sig)))
    # another clock's result in this clock's session (even signed with this clock's key)
    theirs = record(5, OTHER)
    cases.append(("wrong-clock", result(4, theirs, result_sig(KEY, theirs))))
    # this clock's id on a record saying it is from another clock
    moved = record(6)
    moved["clock"]["serial"] = OTHER
    cases.append(("wrong-clock", result(5, moved, result_sig(KEY, moved))))
    # the frame's id is not the record's
    cases.append(("bad-record", result(6, rec, result_sig(KEY, rec), rid=record(2)["id"])))
    # signed with the right key but not a result record (the schema, CL-5)
    broken = record(7)
    broken["sides"]["left"]["time_used_ms"] = "a lot"
    cases.append(("bad-record", result(7, broken, result_sig(KEY, broken))))
    with caplog.at_level(logging.WARNING, logger="gameclock.dock"):
        for reason, line in cases:
            nak = answer(pc.receive(0, line))
            assert nak["t"] == "nak" and nak["reason"] == reason, (reason, nak)
    assert store.count_results() == 0  # none of them stored
    assert [r["reason"] for r in store.refusals()] == [reason for reason, _ in cases]
    assert pc.refusals == {"bad-signature": 2, "wrong-clock": 2, "bad-record": 2}
    for reason in ("unenrolled", "bad-signature", "wrong-clock", "bad-record"):
        assert f": {reason}" in caplog.text
    # the genuine result still goes in afterwards
    assert answer(pc.receive(0, result(8, rec, result_sig(KEY, rec))))["status"] == "stored"
    store.close()


def test_a_refused_result_stays_in_the_outbox_until_the_next_hello(tmp_path, store):
    # the clock's outbox holds a record of another clock (a copied file): the PC refuses it
    # (wrong-clock); the clock keeps it, shows it, sends the rest, and tries it again only after
    # its next hello
    stray = record(9, OTHER)
    clock = make_clock(tmp_path / "clock", results=records(2) + [stray], nonces=NONCES)
    wire = Wire(clock.endpoint, make_pc(store))
    wire.connect()
    wire.run(60)
    assert [m["id"] for m in wire.sent("clock", "result")].count(stray["id"]) == 1
    assert wire.sent("pc", "nak")[0]["reason"] == "wrong-clock"
    assert clock.outbox.pending() == [stray["id"]] and len(clock.outbox.sent()) == 2
    assert clock.endpoint.status.text() == "DOCKED: 1 REFUSED"
    wire.to_clock_now(frame({"t": "who", "m": 99}))  # a new hello
    wire.run(5)
    assert [m["id"] for m in wire.sent("clock", "result")].count(stray["id"]) == 2
    assert clock.outbox.pending() == [stray["id"]]


def test_a_clock_the_pc_does_not_know_uploads_nothing(tmp_path):
    store = make_store(tmp_path / "pc.db", keys={SERIAL: OTHER_KEY})  # an old key, not the clock's
    clock = make_clock(tmp_path / "clock", results=records(3), nonces=NONCES)
    wire = Wire(clock.endpoint, make_pc(store))
    wire.connect()
    wire.run(30)
    assert wire.sent("pc", "welcome")[0]["known"] is False
    assert wire.sent("clock", "result") == []
    assert len(clock.outbox.pending()) == 3 and store.count_results() == 0
    assert clock.endpoint.status.text() == "DOCKED: NOT ENROLLED"
    store.close()


# ------------------------------------------------------------------------------ forged PC messages

def test_a_forged_ack_does_not_mark_the_result_sent(tmp_path, store, caplog):
    rec = record(1)
    clock = make_clock(tmp_path / "clock", results=[rec], nonces=NONCES)
    wire = Wire(clock.endpoint, make_pc(store))
    held = []
    wire.cut_to_clock = lambda m: m["t"] == "ack" and not held.append(m)  # the acks are held back
    wire.connect()
    wire.run(0.5)
    (genuine,) = held
    altered = dict(rec, outcome="right")
    forged = [dict(genuine, mac=mac(OTHER_KEY, b"ack", rec["id"].encode(),
                                    hashlib.sha256(canon(rec)).hexdigest().encode())),  # a laptop's key
              dict(genuine, mac="0" * 64),                                              # made up
              dict(genuine, mac=ack_mac(KEY, altered)),  # the right key, another record's content
              dict(genuine, mac=mac(KEY, b"welcome", rec["id"].encode()))]              # another purpose
    with caplog.at_level(logging.WARNING, logger="gameclock.dock"):
        for f in forged:
            wire.to_clock_now(frame(f))
    assert clock.endpoint.refusals == {"bad-mac": 4}
    assert caplog.text.count("refused from PC: bad-mac") == 4
    assert clock.outbox.pending() == [rec["id"]] and clock.outbox.sent() == []  # CL-5: kept
    wire.to_clock_now(frame(genuine))
    assert clock.outbox.pending() == [] and clock.outbox.sent() == [rec["id"]]


def test_an_ack_of_a_result_not_in_flight(tmp_path, store, caplog):
    rec = record(1)
    clock = make_clock(tmp_path / "clock", results=[rec, record(2)], nonces=NONCES, window=1)
    wire = Wire(clock.endpoint, make_pc(store))
    held = []
    wire.cut_to_clock = lambda m: m["t"] == "ack" and not held.append(m)
    wire.connect()
    wire.run(0.5)
    (first,) = held  # window 1: only result 1 is in flight
    wire.to_clock_now(frame(first))
    assert clock.outbox.sent() == [rec["id"]]
    with caplog.at_level(logging.WARNING, logger="gameclock.dock"):
        # the same genuine ack again (a retry crossed it): it repeats what is true, nothing to refuse
        wire.to_clock_now(frame(first))
        assert clock.endpoint.refusals == {}
        # forged acks of results not in flight: one sent already, one waiting, one the clock never had
        wire.to_clock_now(frame(dict(first, mac=ack_mac(OTHER_KEY, rec))))
        wire.to_clock_now(frame(dict(first, id=record(2)["id"], mac=ack_mac(OTHER_KEY, record(2)))))
        wire.to_clock_now(frame(dict(first, id=record(3)["id"], mac=ack_mac(KEY, record(3)))))
    assert clock.endpoint.refusals == {"bad-mac": 3}
    assert caplog.text.count("refused from PC: bad-mac") == 3
    assert clock.outbox.sent() == [rec["id"]] and clock.outbox.pending() == [record(2)["id"]]


def test_numbers_and_strings_json_cannot_carry_are_refused(store):
    """1e400 is JSON syntax but no double: it would become inf, which nothing can sign or store;
    a trailing newline is not part of a serial, an id or a MAC."""
    import zlib

    pc = make_pc(store)
    pc.receive(0, hello())
    rec = record(1)
    body = json.dumps({"t": "result", "m": 2, "id": rec["id"], "rec": rec, "sig": result_sig(KEY, rec)},
                      ensure_ascii=False, separators=(",", ":"))
    body = body.replace(f'"duration_ms":{rec["duration_ms"]}', '"duration_ms":1e400')
    assert "1e400" in body
    line = body.encode() + b"*%08x\n" % zlib.crc32(body.encode())
    assert pc.receive(0, line) == []
    assert pc.receive(0, hello(m=3, serial=SERIAL + "\n")) == []
    assert pc.receive(0, result(4, rec, result_sig(KEY, rec) + "\n")) == []
    assert pc.refusals == {"bad-json": 1, "bad-message": 2}
    assert store.count_results() == 0


def test_forged_and_replayed_pairings_are_refused(tmp_path, store):
    store.put_pairings([PAIRING])
    clock = make_clock(tmp_path / "clock", nonces=NONCES,
                       info=lambda: {"event": "bangkok-open-2026", "round": 3, "table": 12})
    wire = Wire(clock.endpoint, make_pc(store))
    wire.connect()
    wire.run(1)
    (push,) = wire.sent("pc", "pairing")
    assert push["pairing"] == PAIRING
    assert push["mac"] == mac(KEY, b"pairing", NONCES[0].encode(), str(push["m"]).encode(), canon(PAIRING))
    assert clock.pairings == [PAIRING]  # the genuine one, once
    assert wire.sent("clock", "ack")[-1]["re"] == push["m"]

    renamed = dict(push, pairing=dict(PAIRING, players={"left": "Mallory", "right": "Malee"}))
    laptop = dict(push, mac=mac(OTHER_KEY, b"pairing", NONCES[0].encode(), str(push["m"]).encode(), canon(PAIRING)))
    wire.to_clock_now(frame(renamed))
    wire.to_clock_now(frame(laptop))
    assert [n["reason"] for n in wire.sent("clock", "nak")] == ["bad-mac", "bad-mac"]

    # a new session (a new hello, nonce NONCES[1]); the PC's own new push is held back, and the
    # first session's genuine pairing frame is replayed: refused
    wire.cut_to_clock = lambda m: m["t"] == "pairing"
    wire.run(1)
    wire.to_clock_now(frame({"t": "who", "m": 50}))
    assert wire.sent("clock", "hello")[-1]["nonce"] == NONCES[1]
    wire.to_clock_now(frame(push))
    assert [n["reason"] for n in wire.sent("clock", "nak")] == ["bad-mac"] * 3
    assert clock.pairings == [PAIRING]
    assert clock.endpoint.refusals == {"bad-mac": 3}


# ------------------------------------------------------------------------------ versions

def test_a_hello_of_another_protocol_version_gets_an_error_naming_the_side_to_update(store, caplog):
    pc = make_pc(store)
    with caplog.at_level(logging.WARNING, logger="gameclock.dock"):
        newer = answer(pc.receive(0, hello(m=4, proto=PROTO + 1)))
        older = answer(pc.receive(0, hello(m=5, proto=PROTO - 1)))
    assert (newer["t"], newer["re"], newer["code"]) == ("error", 4, "version")
    assert "update gameclock on the PC" in newer["text"]  # the clock is newer: the PC must update
    assert (older["t"], older["re"], older["code"]) == ("error", 5, "version")
    assert "update the clock's firmware" in older["text"]
    assert pc.session is None and pc.refusals == {"version": 2}
    assert caplog.text.count(": version") == 2


@pytest.mark.parametrize("clock_proto, shown", [(PROTO + 1, "DOCK: UPDATE PC"), (PROTO - 1, "DOCK: UPDATE CLOCK")])
def test_a_clock_of_another_version_shows_which_side_to_update(tmp_path, store, monkeypatch,
                                                                clock_proto, shown):
    monkeypatch.setattr(clockside, "PROTO", clock_proto)
    clock = make_clock(tmp_path / "clock", results=records(1))
    wire = Wire(clock.endpoint, make_pc(store))
    wire.connect()
    wire.run(3)
    assert wire.sent("pc", "error")[0]["code"] == "version"
    assert clock.endpoint.status.text() == shown
    assert wire.sent("clock", "result") == [] and len(clock.outbox.pending()) == 1


@pytest.mark.parametrize("pc_proto, shown", [(PROTO + 1, "DOCK: UPDATE CLOCK"), (PROTO - 1, "DOCK: UPDATE PC")])
def test_a_welcome_of_another_version(tmp_path, pc_proto, shown):
    clock = make_clock(tmp_path / "clock", results=records(1))
    out = clock.endpoint.connect(0)
    hello_m = json.loads(out[0].rpartition(b"*")[0])["m"]
    clock.endpoint.receive(0, frame({"t": "welcome", "m": 1, "re": hello_m, "proto": pc_proto,
                                     "pc": "pc", "known": False, "mac": None}))
    assert clock.endpoint.status.text() == shown
    assert clock.endpoint.welcomed is False


# ------------------------------------------------------------------------------ retries

def test_lost_acks_are_repaired_by_retries_with_backoff(tmp_path, store):
    rec = record(1)
    clock = make_clock(tmp_path / "clock", results=[rec], nonces=NONCES)
    pc = make_pc(store)
    wire = Wire(clock.endpoint, pc)
    wire.cut_to_clock = lambda m: m["t"] == "ack"  # every ack is lost
    wire.connect()
    t0 = wire.now
    wire.run(100)
    times = [(t - t0) / NS for t, m in wire.by_clock if m["t"] == "result"]
    # sent at 0, then again 2 s later, then after 4, 8, 16, 30, 30 s more: 0 2 6 14 30 60 90
    assert times == [0, 2, 6, 14, 30, 60, 90]
    assert wire.sent("clock", "hello")[1:] == []  # the pongs kept the clock docked meanwhile
    assert store.count_results() == 1 and pc.session.stored == 1 and pc.session.duplicates == 6
    assert clock.outbox.pending() == [rec["id"]]  # never acked: kept (CL-5)
    assert clock.endpoint.status.text() == "DOCKED: SENDING 0/1"

    wire.cut_to_clock = lambda m: False  # the line is good again: the next retry (at 120 s) is acked
    wire.run(30)
    assert [(t - t0) / NS for t, m in wire.by_clock if m["t"] == "result"][-1] == 120
    assert clock.outbox.pending() == [] and clock.outbox.sent() == [rec["id"]]
    assert wire.sent("pc", "ack")[-1]["status"] == "duplicate"
    assert store.count_results() == 1


def test_a_new_hello_resets_the_wait(tmp_path, store):
    rec = record(1)
    clock = make_clock(tmp_path / "clock", results=[rec], nonces=NONCES)
    wire = Wire(clock.endpoint, make_pc(store))
    wire.cut_to_clock = lambda m: m["t"] == "ack"
    wire.connect()
    t0 = wire.now
    wire.run(7)  # sent at 0, 2, 6; the next try would be at 14
    wire.to_clock_now(frame({"t": "who", "m": 77}))  # at 7: hello, welcome -> sent again at once
    wire.run(1)
    times = [(t - t0) / NS for t, m in wire.by_clock if m["t"] == "result"]
    assert times == [0, 2, 6, 7]


class _KeyGone:
    """A key store whose key has gone (the real KeyStore never loses a key it holds)."""
    key = None

    def set(self, key: bytes) -> None:
        raise OSError("read-only")


def test_a_result_in_flight_is_not_sent_again_once_the_key_is_gone(tmp_path, store, caplog):
    # nothing can sign the retry: the flight is dropped, the result stays in the outbox, nothing is
    # sent unsigned and the endpoint does not fail (it used to raise TypeError inside hmac)
    rec = record(1)
    clock = make_clock(tmp_path / "clock", results=[rec], nonces=NONCES)
    wire = Wire(clock.endpoint, make_pc(store))
    wire.cut_to_clock = lambda m: m["t"] == "ack"
    wire.connect()
    wire.run(1)  # sent at 0; its retry is due at 2
    clock.endpoint.keys = _KeyGone()
    with caplog.at_level(logging.ERROR, logger="gameclock.dock"):
        wire.run(10)
    assert len(wire.sent("clock", "result")) == 1
    assert clock.endpoint.flights == {} and clock.outbox.pending() == [rec["id"]]
    assert f"result {rec['id']} not sent: this clock has no key" in caplog.text


# ------------------------------------------------------------------------------ restarts, hold

def test_who_after_a_receiver_restart(tmp_path, store):
    clock = make_clock(tmp_path / "clock", results=records(3), nonces=NONCES)
    wire = Wire(clock.endpoint, make_pc(store))
    wire.connect()
    wire.run_until(lambda: clock.endpoint.status.done, seconds=10)

    # the receiver restarts while the clock is idle: the clock's next ping (5 s after it last sent)
    # gets `who`, and the clock says hello again
    wire.pc = pc2 = make_pc(store)
    wire.run(6)
    assert pc2.refusals == {"no-hello": 1}
    assert wire.sent("pc", "who") and wire.sent("clock", "hello")[-1]["nonce"] == NONCES[1]
    assert pc2.session is not None and pc2.session.serial == SERIAL

    # it restarts again, and two new results are sent before any hello: each gets `who`; the
    # clock answers the burst with one hello, and both are then stored
    wire.pc = pc3 = make_pc(store)
    for rec in records(2, first=4):
        clock.outbox.put(rec)
    hellos = len(wire.sent("clock", "hello"))
    wire.run_until(lambda: clock.outbox.pending() == [], seconds=10)
    assert pc3.refusals == {"no-hello": 2}
    assert len(wire.sent("clock", "hello")) == hellos + 1
    assert store.count_results() == 5 and pc3.session.stored == 2


def test_a_clock_docked_before_the_pc_listens_is_asked_who_without_a_warning(tmp_path, store, caplog):
    """Issue 27: `gameclock receive` or `enroll` started while a clock is already docked gets its ping
    before any hello; asking `who` is the protocol's normal way in (PROTOCOL.md), so the log says it at
    INFO, not WARNING (the organiser's terminal shows warnings only). A peer that goes on without a
    hello once asked (WHO_GRACE_NS) is warned about, as any refusal."""
    clock = make_clock(tmp_path / "clock", results=records(2), nonces=NONCES)
    wire = Wire(clock.endpoint, make_pc(store))
    wire.connect()
    wire.run_until(lambda: clock.endpoint.status.done, seconds=10)
    wire.pc = pc2 = make_pc(store)  # the receiver started again: the clock only pings
    with caplog.at_level(logging.INFO, logger="gameclock.dock"):
        wire.run(6)
    assert pc2.refusals == {"no-hello": 1} and pc2.session is not None  # asked who, and it said hello
    assert "refused: no-hello (ping)" in caplog.text
    assert [r.levelname for r in caplog.records if "no-hello" in r.getMessage()] == ["INFO"]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    # something that keeps talking without a hello after being asked: warned about
    pc3 = make_pc(store)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="gameclock.dock"):
        assert answer(pc3.receive(0, frame({"t": "ping", "m": 1})))["t"] == "who"
        pc3.receive(pcside.WHO_GRACE_NS - 1, frame({"t": "ping", "m": 2}))
        pc3.receive(pcside.WHO_GRACE_NS, frame({"t": "ping", "m": 3}))
    assert [r.levelname for r in caplog.records if "no-hello" in r.getMessage()] == ["INFO", "INFO", "WARNING"]


def test_hold_stops_new_uploads_but_acks_in_flight_complete(tmp_path, store):
    recs = records(8)
    clock = make_clock(tmp_path / "clock", results=recs, nonces=NONCES)
    wire = Wire(clock.endpoint, make_pc(store))
    captured = []
    wire.cut_to_pc = lambda m: m["t"] == "result" and not captured.append(m)
    wire.connect()
    wire.run(0.1)
    assert [m["id"] for m in captured] == [r["id"] for r in recs[:4]]  # a window of 4
    clock.endpoint.hold = True  # a game starts on the clock
    for m in captured:
        wire.to_pc_now(frame(m))
    wire.flush()
    assert len(clock.outbox.sent()) == 4  # the acks of what was in flight still count
    wire.run(30)
    assert len(captured) == 4  # nothing new sent while held
    assert len(clock.outbox.pending()) == 4
    assert clock.endpoint.status.text() == "DOCKED: SENDING 4/8"

    clock.endpoint.hold = False
    wire.cut_to_pc = lambda m: False
    wire.run_until(lambda: clock.endpoint.status.done, seconds=10)
    assert store.count_results() == 8 and len(clock.outbox.sent()) == 8


# ------------------------------------------------------------------------------ the screen

def test_dock_status_texts():
    assert DockStatus().text() == ""
    assert DockStatus(docked=True).text() == "DOCKED: NOT ENROLLED"
    assert DockStatus(docked=True, enrolled=True, known=False).text() == "DOCKED: NOT ENROLLED"
    ok = dict(docked=True, enrolled=True, known=True)
    assert DockStatus(**ok, sent=1, waiting=3, refused=2).text() == "DOCKED: 2 REFUSED"
    assert DockStatus(**ok, sent=3, waiting=5).text() == "DOCKED: SENDING 3/8"
    assert DockStatus(**ok, sent=7, done=True).text() == "DOCKED: ALL SENT (7)"
    assert DockStatus(**ok).text() == "DOCKED"
    assert DockStatus(error="UPDATE CLOCK").text() == "DOCK: UPDATE CLOCK"
    assert DockStatus(docked=True, error="UPDATE PC").text() == "DOCK: UPDATE PC"


def test_dock_status_through_an_upload(tmp_path, store):
    clock = make_clock(tmp_path / "clock", results=records(3), nonces=NONCES)
    wire = Wire(clock.endpoint, make_pc(store))
    wire.connect()
    wire.run_until(lambda: clock.endpoint.status.done, seconds=10)
    # welcomed (outbox not looked at yet), 3 found and sent, acked one by one
    assert texts(clock.statuses) == ["DOCKED", "DOCKED: SENDING 0/3", "DOCKED: SENDING 1/3",
                                     "DOCKED: SENDING 2/3", "DOCKED: ALL SENT (3)"]
    # undocked: the PC goes quiet for 12 s
    wire.pc = make_pc(store)
    wire.cut_to_pc = lambda m: True
    wire.run(13)
    assert clock.endpoint.status.text() == ""


def test_noise_gets_no_reply_and_messages_before_a_hello_get_who(store, caplog):
    pc = make_pc(store)
    with caplog.at_level(logging.INFO, logger="gameclock.dock"):
        assert pc.receive(0, b"\x00\xffATZ\r\n") == []
        assert pc.receive(0, b'{"t":"ping","m":1}*00000000\n') == []
        who = answer(pc.receive(0, frame({"t": "ping", "m": 1})))
    assert who["t"] == "who"
    assert pc.refusals == {"no-crc": 1, "bad-crc": 1, "no-hello": 1}
    for reason in ("no-crc", "bad-crc", "no-hello"):
        assert f"refused: {reason}" in caplog.text


def test_the_pairings_set_up_is_signed_and_a_changed_set_up_is_refused(tmp_path, store):
    """Issue 15: the set-up rides in the signed pairing (protocol 3), so a laptop on the line cannot
    change the clock's preset or language: the MAC covers canonical(pairing) with the set-up."""
    store.put_pairings([dict(PAIRING, preset="crossword")])
    clock = make_clock(tmp_path / "clock", nonces=NONCES,
                       info=lambda: {"event": "bangkok-open-2026", "round": 3, "table": 12})
    wire = Wire(clock.endpoint, make_pc(store))
    wire.connect()
    wire.run(1)
    (push,) = wire.sent("pc", "pairing")
    sent = dict(PAIRING, preset="crossword")  # every key on the wire, the ones not given null
    assert push["pairing"] == sent
    assert push["mac"] == mac(KEY, b"pairing", NONCES[0].encode(), str(push["m"]).encode(), canon(sent))
    assert clock.pairings == [sent]
    for changed in ({"preset": "makruk-30"}, {"language": "en"}, {"stage": None}):
        wire.to_clock_now(frame(dict(push, pairing=dict(sent, **changed))))  # the genuine MAC, a changed set-up
    assert [n["reason"] for n in wire.sent("clock", "nak")] == ["bad-mac"] * 3
    assert clock.pairings == [sent]


def test_a_pairing_of_protocol_2_or_3_is_refused_by_its_shape():
    """A version 2 PC's pairing (no set-up keys) never reaches the clock's MAC check: `bad-message`, and
    the hello's version check has already told both sides which to update."""
    from gameclock.dock.messages import PC_TO_CLOCK, Refused, check
    v2 = {"event": None, "round": 1, "table": 1, "players": {"left": "A", "right": "B"}}
    with pytest.raises(Refused) as info:
        check({"t": "pairing", "m": 1, "pairing": v2, "mac": "0" * 64}, PC_TO_CLOCK)
    assert info.value.reason == "bad-message"
    v3 = dict(v2, level="primary", stage=None, language="th", preset="amath")
    with pytest.raises(Refused) as info:  # a version 3 PC's pairing (no game, issue 16): refused the same way
        check({"t": "pairing", "m": 1, "pairing": v3, "mac": "0" * 64}, PC_TO_CLOCK)
    assert info.value.reason == "bad-message"
    v4 = dict(v3, game=None)
    assert check({"t": "pairing", "m": 1, "pairing": v4, "mac": "0" * 64}, PC_TO_CLOCK) == "pairing"
    assert check({"t": "pairing", "m": 1, "pairing": dict(v4, game=2), "mac": "0" * 64}, PC_TO_CLOCK) == "pairing"
    for bad in ({"language": "fr"}, {"game": 0}, {"game": 100}, {"game": "2"}, {"game": True}):
        with pytest.raises(Refused):  # a set-up word the clock does not know, a game out of 1-99: no pairing
            check({"t": "pairing", "m": 1, "pairing": dict(v4, **bad), "mac": "0" * 64}, PC_TO_CLOCK)
