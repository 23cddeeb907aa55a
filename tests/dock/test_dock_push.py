"""Issue 26: the clock's event follows the PC, and publishing reaches the clocks docked now (dock protocol 5).

Both endpoints in this process (`dockkit.Wire`, a fake monotonic clock, a real SQLite store). What was seen:
a clock's Event setting is a number (1 by default) and the PC looked the clock's pairing up by it, so an event
with a Thai name (`ครอสเวิร์ด-ม.ปลาย-2568`, the desk's own suggestion) never reached a clock; and a round
published while clocks were docked reached none of them until each was unplugged and plugged in again.

Now the organiser assigns a clock to (event, table) on the PC (`Store.assign_clock`: the desk's clocks page),
the PC answers a hello with the pairing of that assignment, and every change of the pairings or of the
assignments is pushed to the clock docked now. A push after the hello is fresh because its MAC covers its
message number `m` with the hello's nonce, and the clock takes each `m` once and none below the last
(PROTOCOL.md "Pushes and replays"). Every expected MAC is computed here from PROTOCOL.md's table with
hmac/hashlib, not with dock.sign.
"""
from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from dockkit import KEY, NS, OTHER_KEY, SERIAL, Wire, frame, make_clock, make_pc, make_store

from gameclock.dock.messages import PROTO

THAI = "ครอสเวิร์ด-ม.ปลาย-2568"   # the desk's suggested name for a Crossword event of the upper secondary level
NONCES = [f"{i:032x}" for i in range(1, 100)]
OWN = {"event": 1, "round": 1, "table": 1}  # the clock's own settings as the arbiter left them (the defaults)


def pairing(rnd: int, table: int, left: str, right: str, event: str = THAI) -> dict:
    """A pairing as the PC pushes it (every key on the wire, null when not given)."""
    return {"event": event, "round": rnd, "table": table, "players": {"left": left, "right": right},
            "level": None, "stage": None, "language": None, "preset": None, "game": None}


def canon(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def push_mac(key: bytes, nonce: str, m: int, p: dict) -> str:
    """PROTOCOL.md, version 5: a pairing's MAC covers the clock's nonce and the push's message number."""
    return hmac.new(key, b"\n".join([b"pairing", nonce.encode(), str(m).encode(), canon(p)]),
                    hashlib.sha256).hexdigest()


@pytest.fixture
def store(tmp_path):
    s = make_store(tmp_path / "pc.db")
    yield s
    s.close()


def docked(tmp_path, store, info=lambda: OWN):
    clock = make_clock(tmp_path / "clock", nonces=NONCES, info=info)
    wire = Wire(clock.endpoint, make_pc(store))
    wire.connect()
    wire.run(1)
    return clock, wire


def test_the_protocol_is_version_5():
    # 5: a pairing's MAC covers its message number (a push after the hello cannot be replayed)
    assert PROTO == 5


def test_a_thai_event_reaches_the_clock_the_organiser_assigned_it_to(tmp_path, store):
    store.put_pairings([pairing(1, 3, "อนันต์ ศรีสุข", "บุญมี ใจดี")])
    clock, wire = docked(tmp_path, store)
    # as before (the clock's own Event 1 names no event on this PC): nothing, and no assignment yet
    assert clock.pairings == [] and wire.sent("pc", "pairing") == []
    assert store.assignment(SERIAL) is None

    # the organiser assigns the docked clock to table 3 of the Thai event: it gets the pairing at once,
    # without being unplugged
    assert store.assign_clock(SERIAL, THAI, 3, by="organiser") is None
    wire.run(2)
    want = pairing(1, 3, "อนันต์ ศรีสุข", "บุญมี ใจดี")
    assert clock.pairings == [want]
    (push,) = wire.sent("pc", "pairing")
    assert push["mac"] == push_mac(KEY, NONCES[0], push["m"], want)
    assert store.assignment(SERIAL) == {"event": THAI, "table": 3, "by": "organiser",
                                        "at": store.assignment(SERIAL)["at"]}

    # docking again: the hello still says Event 1 (a clock whose loop never applied it), the PC answers
    # with the assignment's pairing, not the clock's own settings
    wire.to_clock_now(frame({"t": "who", "m": 900}))
    wire.run(1)
    assert wire.sent("clock", "hello")[-1]["event"] == "1"
    assert clock.pairings == [want, want]


def test_without_an_assignment_the_clocks_own_setting_picks_the_pairing_as_before(tmp_path, store):
    store.put_pairings([pairing(1, 2, "Anan", "Boon", event="2")])
    clock, _ = docked(tmp_path, store, info=lambda: {"event": 2, "round": 1, "table": 2})
    assert clock.pairings == [pairing(1, 2, "Anan", "Boon", event="2")]


def test_publishing_reaches_the_clock_docked_now(tmp_path, store):
    store.put_pairings([pairing(1, 1, "Anan", "Boon", event="1")])
    clock, wire = docked(tmp_path, store)
    assert clock.pairings == [pairing(1, 1, "Anan", "Boon", event="1")]
    # round 2 is published while the clock stays docked: within the PC's look at its store (1 s) and
    # the frame's way, without a new hello
    hellos = len(wire.sent("clock", "hello"))
    store.put_pairings([pairing(2, 1, "Chai", "Anan", event="1")])
    wire.run(2)
    assert clock.pairings[-1] == pairing(2, 1, "Chai", "Anan", event="1")
    assert len(wire.sent("clock", "hello")) == hellos
    # nothing new for this table (another table's pairing loaded): nothing pushed
    pushes = len(wire.sent("pc", "pairing"))
    store.put_pairings([pairing(2, 2, "Dao", "Ek", event="1")])
    wire.run(3)
    assert len(wire.sent("pc", "pairing")) == pushes


def test_an_old_push_sent_again_is_refused_and_the_last_one_is_not_taken_twice(tmp_path, store):
    store.assign_clock(SERIAL, THAI, 3, by="organiser")
    store.put_pairings([pairing(1, 3, "Anan", "Boon")])
    clock, wire = docked(tmp_path, store)
    store.put_pairings([pairing(2, 3, "Chai", "Dao")])
    wire.run(2)
    first, second = wire.sent("pc", "pairing")
    assert first["m"] < second["m"] and clock.pairings == [first["pairing"], second["pairing"]]

    # someone on the cable sends round 1's genuine push again: its MAC verifies (this docking's nonce),
    # but its number is below the last one taken: refused, the clock keeps round 2
    wire.to_clock_now(frame(first))
    assert wire.sent("clock", "nak")[-1] == {"t": "nak", "m": wire.sent("clock", "nak")[-1]["m"],
                                              "re": first["m"], "reason": "stale"}
    assert clock.pairings == [first["pairing"], second["pairing"]]
    # the last push again (the PC's retry after a lost ack, or a replay): acked, not taken twice
    wire.to_clock_now(frame(second))
    assert wire.sent("clock", "ack")[-1]["re"] == second["m"]
    assert clock.pairings == [first["pairing"], second["pairing"]]
    # a number made higher by hand: the MAC covers it
    wire.to_clock_now(frame(dict(first, m=second["m"] + 10)))
    wire.to_clock_now(frame(dict(first, m=second["m"] + 11, mac=push_mac(OTHER_KEY, NONCES[0], second["m"] + 11,
                                                                         first["pairing"]))))
    assert [n["reason"] for n in wire.sent("clock", "nak")] == ["stale", "bad-mac", "bad-mac"]
    assert clock.pairings == [first["pairing"], second["pairing"]]
    assert clock.endpoint.refusals == {"stale": 1, "bad-mac": 2}

    # the next docking (a new hello, a new nonce): the PC pushes again from a number of its own; round 2's
    # frame of the last docking is refused (another nonce), the fresh one taken
    wire.cut_to_clock = lambda m: m["t"] == "pairing"
    wire.to_clock_now(frame({"t": "who", "m": 900}))
    wire.run(1)
    fresh = wire.sent("pc", "pairing")[-1]
    assert fresh["mac"] == push_mac(KEY, NONCES[1], fresh["m"], second["pairing"])
    wire.to_clock_now(frame(second))
    assert wire.sent("clock", "nak")[-1]["reason"] == "bad-mac"
    wire.to_clock_now(frame(fresh))
    assert clock.pairings == [first["pairing"], second["pairing"], second["pairing"]]


def test_a_push_the_clock_never_answers_is_given_up_and_said(tmp_path, store):
    store.put_pairings([pairing(1, 1, "Anan", "Boon", event="1")])
    clock, wire = docked(tmp_path, store)
    pc = wire.pc
    assert pc.session.pairing_state == "taken"
    wire.cut_to_clock = lambda m: m["t"] == "pairing"
    store.put_pairings([pairing(2, 1, "Chai", "Anan", event="1")])
    wire.run(1.5)
    assert pc.session.pairing_state == "sent"
    wire.run(20)  # 5 tries 3 s apart (pcside.PUSH_TRIES, PUSH_RETRY_NS)
    assert len([m for m in wire.sent("pc", "pairing") if m["pairing"]["round"] == 2]) == 5
    assert pc.session.pairing_state == "not answered"
    assert clock.pairings == [pairing(1, 1, "Anan", "Boon", event="1")]


def test_a_clock_gone_quiet_gets_no_push(tmp_path, store):
    store.put_pairings([pairing(1, 1, "Anan", "Boon", event="1")])
    clock, wire = docked(tmp_path, store)
    wire.cut_to_pc = lambda m: True   # the clock went away: the PC hears nothing from it any more
    wire.run(13)                      # longer than a clock's LOST_AFTER_NS (12 s)
    pushes = len(wire.sent("pc", "pairing"))
    store.put_pairings([pairing(2, 1, "Chai", "Anan", event="1")])
    wire.run(5)
    assert len(wire.sent("pc", "pairing")) == pushes
    assert NS  # (dockkit's unit, as the other dock tests)
