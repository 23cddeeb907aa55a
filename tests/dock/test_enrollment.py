"""Enrollment that proves presence (issue 13 holes 1 and 4; PROTOCOL.md "Enrollment", SECURITY.md).

Both endpoints in this process on a fake clock (dockkit.Wire). The arithmetic is checked apart from
the code under test: X25519 against RFC 7748's test vector, HKDF by hand after RFC 5869 with
hmac/hashlib, the code and MACs from PROTOCOL.md's formulas.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from dockkit import KEY, NS, OTHER_KEY, SERIAL, Wire, frame, make_clock, make_pc, make_store, record, records

from gameclock.dock import enroll
from gameclock.dock.clockside import CODE_GAP_NS, ENROLL_WAIT_NS
from gameclock.dock.frame import decode
from gameclock.dock.messages import PROTO
from gameclock.dock.pcside import ENROLL_STEP_NS, HELLO_GRACE_NS, MAX_ENROLLS


def kid(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()[:16]


def canonical(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def hkdf_by_hand(ikm: bytes, salt: bytes, info: bytes, n: int = 32) -> bytes:
    """RFC 5869: extract, then expand one block (n <= 32)."""
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()[:n]


def to_code(pc, clock) -> None:
    """Run the wire until both ends know the comparison code (the clock shows it)."""
    pc.wire.run_until(lambda: clock.endpoint.status.code != "" and pc.ep.enroll_code != "", seconds=30)


class PC:
    def __init__(self, store, **kw):
        self.ep = make_pc(store, enroll=True, **kw)
        self.wire: Wire


def enrolment(tmp_path, store, clock_key=None, results=(), hold=False, cut_to_pc=None, **pc_kw):
    clock = make_clock(tmp_path / "clock", key=clock_key, results=list(results))
    clock.endpoint.hold = hold
    pc = PC(store, **pc_kw)
    pc.wire = Wire(clock.endpoint, pc.ep)
    if cut_to_pc is not None:
        pc.wire.cut_to_pc = cut_to_pc
    pc.wire.connect()
    return clock, pc


def confirm_both(clock, pc, typed: str | None = None) -> None:
    """The arbiter chooses YES on the clock, the organiser types the code the clock shows."""
    code = clock.endpoint.status.code
    clock.endpoint.answer_enroll(code, True)
    pc.wire.from_pc(pc.ep.organiser_code(pc.wire.now, code if typed is None else typed))
    pc.wire.run(2)


def test_x25519_and_the_key_derivation_match_rfc_7748_and_5869():
    # RFC 7748 section 6.1: Alice and Bob's private keys give this shared secret
    alice = X25519PrivateKey.from_private_bytes(bytes.fromhex(
        "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
    bob = X25519PrivateKey.from_private_bytes(bytes.fromhex(
        "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
    pc, clock = enroll.Half("S1", private=alice, nonce="11" * 16), enroll.Half("S1", private=bob, nonce="22" * 16)
    assert pc.pub == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
    assert clock.pub == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
    pc.peer_pub, pc.peer_nonce, clock.peer_pub, clock.peer_nonce = clock.pub, clock.nonce, pc.pub, pc.nonce
    key_pc, code_pc, t_pc = pc.derive(pc=True)
    key_clock, code_clock, t_clock = clock.derive(pc=False)
    shared = bytes.fromhex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
    info = b"gameclock dock key v2\nS1\n" + (pc.pub + clock.pub).encode()
    assert key_pc == key_clock == hkdf_by_hand(shared, bytes.fromhex("11" * 16 + "22" * 16), info)
    # the code: SHA-256 over "code", serial, both public keys and both nonces (PC's first), newline-joined;
    # its first 8 bytes as a big-endian number, modulo a million, as 6 digits
    d = hashlib.sha256(b"\n".join([b"code", b"S1", pc.pub.encode(), clock.pub.encode(),
                                   b"11" * 16, b"22" * 16])).digest()
    assert code_pc == code_clock == f"{int.from_bytes(d[:8], 'big') % 1_000_000:06d}"
    assert t_pc == t_clock


def test_a_new_clock_is_enrolled_when_both_people_confirm_the_same_code(tmp_path):  # issue 13 hole 1
    store = make_store(tmp_path / "pc.db", keys={})
    clock, pc = enrolment(tmp_path, store, results=records(2))
    to_code(pc, clock)
    code = clock.endpoint.status.code
    assert code == pc.ep.enroll_code and len(code) == 6 and code.isdigit()
    assert clock.endpoint.status.tag() == f"ENROL? {code[:3]} {code[3:]}"
    assert store.count_results() == 0 and clock.keys.key is None  # nothing before both said yes
    confirm_both(clock, pc)
    pc.wire.run_until(lambda: clock.endpoint.status.done, seconds=30)

    key = clock.keys.key
    assert key is not None and store.key(SERIAL, kid(key)) == key
    assert pc.ep.session.enrolled_now == kid(key) == pc.ep.session.kid  # the clock said hello with it
    # the key never crossed the wire: no frame of either side holds it
    wire_bytes = b"".join(frame(m) for _, m in pc.wire.by_clock + pc.wire.by_pc)
    assert key.hex().encode() not in wire_bytes
    assert store.count_results() == 2 and clock.endpoint.status.code == ""


def test_the_arbiter_declining_on_the_clock_enrolls_nothing(tmp_path):
    store = make_store(tmp_path / "pc.db", keys={})
    clock, pc = enrolment(tmp_path, store)
    to_code(pc, clock)
    clock.endpoint.answer_enroll(clock.endpoint.status.code, False)
    pc.wire.from_pc(pc.ep.organiser_code(pc.wire.now, clock.endpoint.status.code))
    pc.wire.run(2)
    assert clock.keys.key is None and store.keys() == []
    assert "the arbiter declined on the clock" in pc.ep.last_error
    assert clock.endpoint.status.code == ""


def test_a_wrong_code_typed_on_the_pc_enrolls_nothing(tmp_path):
    store = make_store(tmp_path / "pc.db", keys={})
    clock, pc = enrolment(tmp_path, store)
    to_code(pc, clock)
    wrong = f"{(int(clock.endpoint.status.code) + 1) % 1_000_000:06d}"
    confirm_both(clock, pc, typed=wrong)
    assert clock.keys.key is None and store.keys() == []
    assert "not this PC's" in pc.ep.last_error
    assert pc.wire.sent("pc", "enroll-cancel")[0]["reason"] == "code-mismatch"
    assert clock.endpoint.status.code == ""  # the clock took the code off its screen


def test_no_answer_from_the_arbiter_times_out_and_clears_the_screen(tmp_path):
    store = make_store(tmp_path / "pc.db", keys={})
    clock, pc = enrolment(tmp_path, store)
    to_code(pc, clock)
    pc.wire.run(ENROLL_WAIT_NS / NS + 1)
    assert clock.keys.key is None and store.keys() == [] and clock.endpoint.status.code == ""
    assert "waited too long" in pc.ep.last_error


def test_a_man_in_the_middle_shows_two_different_codes():  # issue 13 hole 1
    # The intruder agrees one key with the PC and another with the clock. Each end computes its code
    # from the public keys and nonces it saw; the intruder's own keys differ from the real ends', so the
    # codes differ (fixed keys and nonces: this is the arithmetic, not luck).
    def half(seed: int, nonce: str) -> enroll.Half:
        return enroll.Half("S1", private=X25519PrivateKey.from_private_bytes(bytes([seed]) * 32), nonce=nonce)

    pc, clock = half(1, "aa" * 16), half(2, "bb" * 16)
    mitm_to_pc, mitm_to_clock = half(3, "cc" * 16), half(4, "dd" * 16)
    pc.peer_pub, pc.peer_nonce = mitm_to_pc.pub, mitm_to_pc.nonce
    clock.peer_pub, clock.peer_nonce = mitm_to_clock.pub, mitm_to_clock.nonce
    assert pc.derive(pc=True)[1] != clock.derive(pc=False)[1]


def test_the_commitment_stops_a_clock_from_choosing_its_nonce_after_the_pcs(tmp_path):
    store = make_store(tmp_path / "pc.db", keys={})
    # the intruder (as the clock) changes its nonce after seeing the PC's: the commitment fails
    clock, pc = enrolment(tmp_path, store, cut_to_pc=lambda m: m["t"] == "enroll-reveal")
    reveal = pc.wire.sent("clock", "enroll-reveal")[0]
    pc.wire.to_pc_now(frame(dict(reveal, nonce="ee" * 16)))
    assert "does not match its commitment" in pc.ep.last_error
    assert store.keys() == []


def test_a_rogue_device_claiming_an_enrolled_serial_is_not_enrolled(tmp_path, caplog):  # issue 13 hole 1
    store = make_store(tmp_path / "pc.db")  # SERIAL is enrolled here with KEY
    rogue, pc = enrolment(tmp_path, store, clock_key=None)  # a laptop saying it is SERIAL, no key
    pc.wire.run(3)
    assert pc.wire.sent("pc", "enroll") == [] and pc.ep.last_error == ""  # not started; waiting for a next hello
    pc.wire.run(HELLO_GRACE_NS / NS)  # (a clock holding a confirmed new key names it first, then its own)
    assert pc.wire.sent("pc", "enroll") == []  # never started
    assert "--replace" in pc.ep.last_error
    assert store.key(SERIAL, kid(KEY)) == KEY and len(store.keys()) == 1


def test_a_rogue_device_naming_the_real_kid_cannot_prove_the_old_key(tmp_path):  # issue 13 hole 1
    store = make_store(tmp_path / "pc.db")
    pc = make_pc(store, enroll=True)
    # the kid is public (every hello says it): the rogue claims it without holding the key
    out = [decode(f) for f in pc.receive(0, frame({
        "t": "hello", "m": 1, "proto": PROTO, "serial": SERIAL, "fw": "x", "nonce": "ab" * 16, "kid": kid(KEY),
        "pending": 0, "event": None, "round": None, "table": None}))]
    start = out[-1]
    assert start["t"] == "enroll"
    rogue = enroll.Half(SERIAL)
    rogue.peer_pub = start["pub"]
    (nonce,) = [decode(f) for f in pc.receive(0, frame({
        "t": "enroll-commit", "m": 2, "re": start["m"], "pub": rogue.pub,
        "commit": enroll.commitment(rogue.nonce, rogue.pub, start["pub"])}))]
    rogue.peer_nonce = nonce["nonce"]
    assert pc.receive(0, frame({"t": "enroll-reveal", "m": 3, "re": nonce["m"], "nonce": rogue.nonce})) == []
    key, code, t = rogue.derive(pc=False)
    assert pc.enroll_code == code
    pc.organiser_code(0, code)  # the organiser is fooled into typing the rogue's code
    (cancel,) = [decode(f) for f in pc.receive(0, frame({
        "t": "enroll-confirm", "m": 4, "mac": enroll.confirm_mac(key, t), "old": enroll.old_key_mac(OTHER_KEY, t)}))]
    assert cancel == {"t": "enroll-cancel", "m": cancel["m"], "reason": "old-key"}
    assert "did not prove the key this PC knows" in pc.last_error
    assert len(store.keys()) == 1 and store.key(SERIAL, kid(KEY)) == KEY


def test_reenrolling_with_the_old_key_revokes_it(tmp_path):  # issue 13 hole 1: old keys revoked
    store = make_store(tmp_path / "pc.db")
    clock, pc = enrolment(tmp_path, store, clock_key=KEY)
    to_code(pc, clock)
    confirm_both(clock, pc)
    pc.wire.run(3)
    new = clock.keys.key
    assert new not in (None, KEY) and store.key(SERIAL, kid(new)) == new
    assert store.key(SERIAL, kid(KEY)) is None and store.revoked(SERIAL, kid(KEY))
    # a result signed with the revoked key (a stolen copy of it) is refused by a receiver
    receiver = make_pc(store)
    (welcome,) = [decode(f) for f in receiver.receive(0, frame({
        "t": "hello", "m": 1, "proto": PROTO, "serial": SERIAL, "fw": "x", "nonce": "ab" * 16, "kid": kid(KEY),
        "pending": 1, "event": None, "round": None, "table": None}))]
    assert welcome["known"] is False
    rec = record(9)
    (nak,) = [decode(f) for f in receiver.receive(0, frame({
        "t": "result", "m": 2, "id": rec["id"], "rec": rec,
        "sig": hmac.new(KEY, b"result\n" + canonical(rec), hashlib.sha256).hexdigest()}))]
    assert (nak["t"], nak["reason"]) == ("nak", "revoked")
    assert store.result(rec["id"]) is None


def test_replace_revokes_a_lost_key_and_the_rogue_key_is_refused(tmp_path):  # issue 13 hole 1
    store = make_store(tmp_path / "pc.db")
    clock, pc = enrolment(tmp_path, store, clock_key=None, replace=True)  # the real clock lost its key
    to_code(pc, clock)
    confirm_both(clock, pc)
    pc.wire.run(3)
    new = clock.keys.key
    assert new is not None and store.key(SERIAL, kid(new)) == new
    assert store.key(SERIAL, kid(KEY)) is None and store.revoked(SERIAL, kid(KEY)) is not None


def test_a_clock_never_takes_a_key_without_the_arbiter(tmp_path):  # issue 13 hole 4: no trust on first use
    store = make_store(tmp_path / "pc.db", keys={})
    clock, pc = enrolment(tmp_path, store, results=records(1))
    to_code(pc, clock)
    # a fake PC skips the arbiter: it sends enroll-done with a MAC under the key it derived itself
    e = pc.ep.enrolling
    pc.wire.to_clock_now(frame({"t": "enroll-done", "m": 99, "mac": enroll.done_mac(e.key, e.transcript)}))
    assert clock.keys.key is None
    assert clock.endpoint.refusals.get("no-enrollment") == 1
    # nor an ack of a result under any key it could have: the result stays in the outbox
    rid = record(1)["id"]
    pc.wire.to_clock_now(frame({"t": "ack", "m": 100, "re": 1, "id": rid, "status": "stored",
                                "mac": "00" * 32}))
    assert clock.outbox.pending() == [rid]


def test_an_enroll_done_with_a_bad_mac_is_refused(tmp_path):
    store = make_store(tmp_path / "pc.db", keys={})
    clock, pc = enrolment(tmp_path, store)
    to_code(pc, clock)
    pc.wire.cut_to_clock = lambda m: m["t"] == "enroll-done"
    confirm_both(clock, pc)
    pc.wire.to_clock_now(frame({"t": "enroll-done", "m": 98, "mac": "ab" * 32}))
    assert clock.keys.key is None and clock.endpoint.refusals.get("bad-mac") == 1


def test_no_enrollment_while_a_game_runs(tmp_path):
    store = make_store(tmp_path / "pc.db", keys={})
    clock, pc = enrolment(tmp_path, store, hold=True)  # a side's clock runs
    pc.wire.run(2)
    assert [n["reason"] for n in pc.wire.sent("clock", "nak")] == ["busy"]
    assert "a game is running" in pc.ep.last_error and clock.endpoint.status.code == ""


def test_an_enrollment_replayed_into_a_later_docking_gets_nowhere(tmp_path, caplog):  # issue 13: replay
    store = make_store(tmp_path / "pc.db", keys={})
    clock, pc = enrolment(tmp_path, store)
    to_code(pc, clock)
    confirm_both(clock, pc)
    pc.wire.run(3)
    key = clock.keys.key
    recorded = [m for _, m in pc.wire.by_pc if m["t"].startswith("enroll")]
    # a later docking: the intruder replays the PC's enrollment frames
    later = make_clock(tmp_path / "clock", key=key)
    w = Wire(later.endpoint, make_pc(store))
    w.connect()
    with caplog.at_level(logging.WARNING):
        for msg in recorded:
            w.to_clock_now(frame(msg))
            later.endpoint.answer_enroll(later.endpoint.status.code, True)  # even if someone says yes
            w.poll()
    assert later.keys.key == key  # the replayed enroll-done does not verify over the new exchange


@pytest.mark.parametrize("pub", ["00" * 32, "01" + "00" * 31])
def test_a_low_order_public_key_is_refused(tmp_path, pub):
    store = make_store(tmp_path / "pc.db", keys={})
    clock = make_clock(tmp_path / "clock", key=None)
    w = Wire(clock.endpoint, make_pc(store))  # a PC that does not enroll: the clock shows no code of its own
    w.connect()
    pc = PC(store)
    pc.wire = w
    pc.wire.run(1)
    pc.wire.to_clock_now(frame({"t": "enroll", "m": 50, "serial": SERIAL, "pub": pub, "replace": False}))
    pc.wire.to_clock_now(frame({"t": "enroll-nonce", "m": 51, "re": 2, "nonce": "12" * 16}))
    assert clock.keys.key is None and clock.endpoint.status.code == ""
    assert pc.wire.sent("clock", "enroll-cancel")[-1]["reason"] == "bad-key"


def test_a_replace_whose_last_hello_is_lost_still_revokes_the_stolen_key(tmp_path):  # issue 24 B2
    # The organiser re-enrolls a clock whose key was stolen (`--replace`). The old key used to be revoked
    # only when the clock's hello under the new key reached the same `enroll` run: one lost hello and both
    # keys stayed valid, so the thief's results were still stored. Now the key is stored and the others
    # revoked in one step, as soon as both people confirmed the code.
    store = make_store(tmp_path / "pc.db")  # SERIAL enrolled with KEY, which a thief copied
    clock, pc = enrolment(tmp_path, store, clock_key=None, replace=True,
                          cut_to_pc=lambda m: m["t"] == "hello" and m["kid"] is not None)
    to_code(pc, clock)
    confirm_both(clock, pc)
    pc.wire.run(30)
    new = clock.keys.key
    assert new is not None and store.key(SERIAL, kid(new)) == new  # the clock took its new key ...
    assert pc.wire.sent("clock", "hello")[-1]["kid"] == kid(new)    # ... and said so, but the PC never heard it
    assert store.revoked(SERIAL, kid(KEY)) is not None and store.key(SERIAL, kid(KEY)) is None
    assert pc.ep.last_error == "" and "has not said hello under the new key" in pc.ep.unproven
    # the thief's result, signed with the stolen key, is refused by a receiver
    thief = make_pc(store)
    thief.receive(0, frame({"t": "hello", "m": 1, "proto": PROTO, "serial": SERIAL, "fw": "x", "nonce": "ab" * 16,
                            "kid": kid(KEY), "pending": 1, "event": None, "round": None, "table": None}))
    rec = record(9)
    (nak,) = [decode(f) for f in thief.receive(0, frame({
        "t": "result", "m": 2, "id": rec["id"], "rec": rec,
        "sig": hmac.new(KEY, b"result\n" + canonical(rec), hashlib.sha256).hexdigest()}))]
    assert (nak["t"], nak["reason"]) == ("nak", "revoked") and store.result(rec["id"]) is None


def test_a_lost_enroll_done_leaves_the_clock_proving_its_new_key_at_the_next_hello(tmp_path):  # issue 24 B2
    # The PC revokes the old key when both people confirmed; its enroll-done is lost (a power cut, a cable
    # pulled). The clock kept the confirmed key aside before it confirmed, names it in its next hello, the
    # welcome's MAC proves the PC holds it, and it becomes the clock's key: no --replace, nothing lost.
    store = make_store(tmp_path / "pc.db")
    clock, pc = enrolment(tmp_path, store, clock_key=KEY)
    pc.wire.cut_to_clock = lambda m: m["t"] == "enroll-done"
    to_code(pc, clock)
    confirm_both(clock, pc)
    pc.wire.run(ENROLL_WAIT_NS / NS + 1)
    new = clock.keys.pending
    assert clock.keys.key == KEY and new not in (None, KEY)       # the clock kept its key, the new one aside
    assert store.key(SERIAL, kid(new)) == new and store.key(SERIAL, kid(KEY)) is None  # the PC: new valid, old revoked
    assert "has not said hello under the new key" in pc.ep.unproven
    # the next docking, with a result made meanwhile (the clock restarted: a new endpoint on its state folder)
    later = make_clock(tmp_path / "clock", key=None, results=[record(7)])
    w = Wire(later.endpoint, make_pc(store))
    w.connect()
    w.run_until(lambda: later.endpoint.status.done, seconds=30)
    assert later.keys.key == new and later.keys.pending is None
    assert [m["kid"] for m in w.sent("clock", "hello")][:1] == [kid(new)]  # it named the new key first
    assert store.result(record(7)["id"]) is not None  # and its result, signed with it, is stored


def test_a_pending_key_the_pc_never_stored_is_tried_then_the_clock_uses_its_own(tmp_path):  # issue 24
    # the arbiter said yes, then the PC went away before the organiser typed the code: the PC stored
    # nothing and revoked nothing. The clock's next hello names the pending key, the PC does not know it,
    # the clock says hello again under its own key, which still works.
    store = make_store(tmp_path / "pc.db")
    clock, pc = enrolment(tmp_path, store, clock_key=KEY)
    to_code(pc, clock)
    clock.endpoint.answer_enroll(clock.endpoint.status.code, True)
    pc.wire.run(1)
    new = clock.keys.pending
    assert new not in (None, KEY) and store.key(SERIAL, kid(new)) is None
    later = make_clock(tmp_path / "clock", key=None, results=[record(8)])
    w = Wire(later.endpoint, make_pc(store))
    w.connect()
    w.run_until(lambda: later.endpoint.status.done, seconds=30)
    assert [m["kid"] for m in w.sent("clock", "hello")][:2] == [kid(new), kid(KEY)]
    assert later.keys.key == KEY and store.result(record(8)["id"]) is not None


def test_a_port_starts_at_most_max_enrolls_enrollments_an_hour(tmp_path):  # issue 24: bounded and counted
    store = make_store(tmp_path / "pc.db", keys={})
    pc = make_pc(store)  # the desk's port: Enroll pressed again and again, the clock never answering
    pc.receive(0, frame({"t": "hello", "m": 1, "proto": PROTO, "serial": SERIAL, "fw": "x", "nonce": "ab" * 16,
                         "kid": None, "pending": 0, "event": None, "round": None, "table": None}))
    now = 0
    for i in range(MAX_ENROLLS):
        (start,) = [decode(f) for f in pc.start_enroll(now)]
        assert start["t"] == "enroll" and pc.enrolls == i + 1
        now += ENROLL_STEP_NS
        (cancel,) = [decode(f) for f in pc.poll(now)]  # abandoned, and the clock told so
        assert cancel["reason"] == "timeout" and "did not answer the enrollment" in pc.last_error
    assert pc.start_enroll(now) == [] and pc.enrolls == MAX_ENROLLS
    assert f"{MAX_ENROLLS} enrollments were started on this port in the last hour" in pc.last_error


def test_the_clock_shows_one_code_until_its_arbiter_answers(tmp_path):  # issue 24 B1, the clock's end
    # Nothing from the cable takes the clock's code off its screen before the arbiter answers it or
    # ENROLL_WAIT_NS passes, and after a code nobody answered no other is shown for CODE_GAP_NS: so an
    # intruder cannot re-roll the clock's code until it equals the PC's.
    store = make_store(tmp_path / "pc.db", keys={})
    clock = make_clock(tmp_path / "clock", key=None)
    w = Wire(clock.endpoint, make_pc(store))  # a PC that enrolls nothing; the intruder's frames go in by hand
    w.connect()
    m = iter(range(500, 600))

    def enroll_code() -> str:
        """Play the PC's side up to the code; "" if the clock refused (the nak's reason is checked)."""
        half = enroll.Half(SERIAL)
        w.to_clock_now(frame({"t": "enroll", "m": next(m), "serial": SERIAL, "pub": half.pub, "replace": False}))
        answer = w.by_clock[-1][1]
        if answer["t"] == "nak":
            assert answer["reason"] == "asking"
            return ""
        w.to_clock_now(frame({"t": "enroll-nonce", "m": next(m), "re": answer["m"], "nonce": half.nonce}))
        return clock.endpoint.status.code

    first = enroll_code()
    assert first
    w.to_clock_now(frame({"t": "enroll-cancel", "m": next(m), "reason": "code-mismatch"}))
    assert clock.endpoint.status.code == first                       # a cancel does not take it off
    assert enroll_code() == "" and clock.endpoint.status.code == first  # a new enroll is refused
    w.from_clock(clock.endpoint.connect(w.now))                       # nor does a reconnection
    assert clock.endpoint.status.code == first and enroll_code() == ""
    # the arbiter answers the cancelled code: it leaves the screen, nothing is sent, a new one may come
    sent = len(w.by_clock)
    clock.endpoint.answer_enroll(first, True)
    w.poll()
    assert clock.endpoint.status.code == "" and not [x for _, x in w.by_clock[sent:] if x["t"].startswith("enroll")]
    assert clock.keys.pending is None
    second = enroll_code()
    assert second
    # nobody answers it: it times out, and no code is shown for CODE_GAP_NS after
    w.now += ENROLL_WAIT_NS
    w.poll()
    assert clock.endpoint.status.code == "" and w.sent("clock", "enroll-cancel")[-1]["reason"] == "timeout"
    w.now += CODE_GAP_NS - NS
    assert enroll_code() == ""
    w.now += NS
    assert enroll_code()  # a new code is shown again


# ------------------------------------------------------------------ a fresh-eyes review of issue 24
def _sig(key: bytes, rec: dict) -> str:
    """A result's MAC by PROTOCOL.md's formula: HMAC-SHA256(key, "result\\n" + canonical(record))."""
    return hmac.new(key, b"result\n" + canonical(rec), hashlib.sha256).hexdigest()


def test_a_result_under_the_replaced_key_in_the_same_docking_is_refused(tmp_path):  # SECURITY.md promise 1
    # `enroll --replace` of a clock whose key a thief copied, with the thief's relay on the cable. The
    # clock's hello named the old key, so the docking began with it valid. Once both people confirmed,
    # the PC stored the new key and revoked the old one (step 7); the relay holds back the clock's hello
    # under the new key and hands the PC a result signed with the stolen key, in the same docking. The
    # key was revoked before the result arrived: it must be refused `revoked`, not stored.
    store = make_store(tmp_path / "pc.db")
    clock, pc = enrolment(tmp_path, store, clock_key=KEY, replace=True)
    pc.wire.cut_to_pc = lambda m: m["t"] == "hello" and m["kid"] not in (None, kid(KEY))
    to_code(pc, clock)
    confirm_both(clock, pc)
    assert store.revoked(SERIAL, kid(KEY)) is not None  # step 7 happened: the old key is revoked
    rec = record(9)
    pc.wire.to_pc_now(frame({"t": "result", "m": 700, "id": rec["id"], "rec": rec, "sig": _sig(KEY, rec)}))
    answer = pc.wire.by_pc[-1][1]
    assert (answer["t"], answer.get("reason")) == ("nak", "revoked")
    assert store.result(rec["id"]) is None


def test_a_forged_enroll_cancel_after_the_arbiters_yes_does_not_strand_the_clock(tmp_path):  # promise 3
    # The arbiter said yes, the PC stored the new key and revoked the old one (step 7), and sent
    # enroll-done. A device on the cable drops it and sends the clock an enroll-cancel instead: a frame
    # anyone can send (no MAC). The clock must not throw away the key the PC now holds: its old key is
    # revoked, so without the new one it could dock only after an enrollment with --replace.
    store = make_store(tmp_path / "pc.db")
    clock, pc = enrolment(tmp_path, store, clock_key=KEY)
    pc.wire.cut_to_clock = lambda m: m["t"] == "enroll-done"
    to_code(pc, clock)
    confirm_both(clock, pc)
    new = clock.keys.pending
    assert new not in (None, KEY) and store.key(SERIAL, kid(new)) == new and store.key(SERIAL, kid(KEY)) is None
    pc.wire.to_clock_now(frame({"t": "enroll-cancel", "m": 900, "reason": "code-mismatch"}))
    assert clock.endpoint.status.code == ""  # the enrollment is over on the clock's screen
    # the next docking (the clock restarted: a new endpoint on its state folder), a result made meanwhile
    later = make_clock(tmp_path / "clock", key=None, results=[record(7)])
    w = Wire(later.endpoint, make_pc(store))
    w.connect()
    w.run_until(lambda: later.endpoint.status.done, seconds=30)
    assert later.keys.key == new and later.keys.pending is None
    assert store.result(record(7)["id"]) is not None


def test_a_clock_whose_port_stays_open_names_its_pending_key_at_each_docking(tmp_path):  # PROTOCOL.md
    # PROTOCOL.md: "while it holds a key aside, the first hello of each docking names that key's kid".
    # A clock on a UART (or a gadget port that is never hung up) keeps its port open from one docking
    # to the next: `connect` runs once. Its enroll-done was lost at PC A, which stored the new key and
    # revoked the old one; it then docks at PC B, which knows only the old key (its first hello names
    # the new key, B does not know it, it docks under the old one). Undocked and docked at A again, its
    # first hello must name the new key again, else A (old key revoked) sees a clock NOT ENROLLED.
    store_a = make_store(tmp_path / "a.db")
    clock, pc = enrolment(tmp_path, store_a, clock_key=KEY)
    pc.wire.cut_to_clock = lambda m: m["t"] == "enroll-done"
    to_code(pc, clock)
    confirm_both(clock, pc)
    pc.wire.run(ENROLL_WAIT_NS / NS + 1)  # the clock gives up waiting for enroll-done; the key stays aside
    new = clock.keys.pending
    assert new not in (None, KEY) and store_a.key(SERIAL, kid(new)) == new
    w = pc.wire
    w.cut_to_clock = lambda m: False
    w.pc = make_pc(make_store(tmp_path / "b.db"))  # PC B on the same cable, the clock's port still open
    hellos = len(w.sent("clock", "hello"))
    w.run_until(lambda: len(w.sent("clock", "hello")) >= hellos + 2 and clock.endpoint.status.known, seconds=60)
    assert [m["kid"] for m in w.sent("clock", "hello")[hellos:]] == [kid(new), kid(KEY)]
    # undocked: for 20 s nothing answers (the clock sees the PC gone after 12 s), then PC A on the cable
    a = make_pc(store_a)
    quiet_until = w.now + 20 * NS
    w.pc.receive = lambda now, line: a.receive(now, line) if now >= quiet_until else []  # type: ignore[method-assign]
    w.pc.poll = lambda now: a.poll(now) if now >= quiet_until else []  # type: ignore[method-assign]
    hellos = len(w.sent("clock", "hello"))
    w.run(21)
    w.run_until(lambda: clock.endpoint.status.docked and clock.endpoint.status.known, seconds=60)
    later = w.sent("clock", "hello")[hellos:]
    assert kid(new) in [m["kid"] for m in later]  # the new key was named again in the new docking
    assert clock.keys.key == new and clock.keys.pending is None


@pytest.mark.parametrize("ending", ["enroll-cancel", "nak"])
def test_an_intruder_that_committed_cannot_hide_it_behind_a_cancel_or_a_nak(tmp_path, ending):  # SECURITY.md
    # SECURITY.md: an intruder that committed and never reveals (its code did not match) loses the
    # enrollment and the organiser reads "committed to a nonce but never revealed it": its mark. A clock
    # reveals at once when the PC's nonce comes (the same instant it shows its code), so a clock that
    # committed never answers the PC's nonce with a cancel ("the arbiter declined": there was nothing to
    # decline yet) or a nak ("a game is running on it": only an `enroll` gets that). Either from a device
    # that committed is the same mark, and must read as such, not as the harmless reason it claims.
    store = make_store(tmp_path / "pc.db", keys={})
    pc = make_pc(store, enroll=True)
    (start,) = [decode(f) for f in pc.receive(0, frame({
        "t": "hello", "m": 1, "proto": PROTO, "serial": SERIAL, "fw": "x", "nonce": "ab" * 16, "kid": None,
        "pending": 0, "event": None, "round": None, "table": None}))][1:]
    intruder = enroll.Half(SERIAL)
    intruder.peer_pub = start["pub"]
    (nonce,) = [decode(f) for f in pc.receive(NS, frame({
        "t": "enroll-commit", "m": 2, "re": start["m"], "pub": intruder.pub,
        "commit": enroll.commitment(intruder.nonce, intruder.pub, start["pub"])}))]
    assert nonce["t"] == "enroll-nonce"
    if ending == "enroll-cancel":
        pc.receive(2 * NS, frame({"t": "enroll-cancel", "m": 3, "reason": "declined"}))
    else:
        pc.receive(2 * NS, frame({"t": "nak", "m": 3, "re": nonce["m"], "reason": "busy"}))
    assert pc.enrolling is None and store.keys() == []
    assert "committed to a nonce but never revealed it" in pc.last_error, pc.last_error


def test_a_key_revoked_after_the_hello_is_no_proof_for_a_re_enrollment(tmp_path):  # SECURITY.md, rogue device
    # A device holding a stolen copy of KEY docked on the desk's port while KEY was valid, and stays
    # docked. The organiser re-enrolls the real clock elsewhere: KEY is revoked, the real clock's NEW
    # key is valid. Then Enroll is pressed for the device's port (re-keying it, no --replace). The only
    # key it can prove is the revoked KEY: that is no proof (a known serial must prove a key this PC
    # holds valid, else --replace), so nothing is stored and the real clock's key stays valid.
    store = make_store(tmp_path / "pc.db")
    thief = make_clock(tmp_path / "thief", key=KEY)
    w = Wire(thief.endpoint, make_pc(store))
    w.connect()
    w.run_until(lambda: thief.endpoint.status.known, seconds=10)
    new = bytes(range(201, 233))  # the real clock's key, from its re-enrollment on another port
    other = type(store)(store.path)
    other.add_key(SERIAL, new, revoke_others=True)
    other.close()
    w.from_pc(w.pc.start_enroll(w.now))  # the organiser presses Enroll for the device's port
    w.run(2)
    if thief.endpoint.status.code:  # the enrollment ran: both people confirm what they are shown
        thief.endpoint.answer_enroll(thief.endpoint.status.code, True)
        w.from_pc(w.pc.organiser_code(w.now, w.pc.enroll_code))
        w.run(5)
    assert store.key(SERIAL, kid(new)) == new                        # the real clock's key is still valid
    assert [k for _, k, _, _ in store.keys()] == [kid(KEY), kid(new)]  # and no key of the thief's was added
    assert "--replace" in w.pc.last_error


def test_a_key_revoked_during_the_re_enrollment_is_no_proof_either(tmp_path):  # the same, in one run
    store = make_store(tmp_path / "pc.db")
    thief, pc = enrolment(tmp_path, store, clock_key=KEY)  # `gameclock enroll` started with KEY valid
    to_code(pc, thief)
    new = bytes(range(201, 233))
    other = type(store)(store.path)
    other.add_key(SERIAL, new, revoke_others=True)  # the real clock re-enrolled on another port meanwhile
    other.close()
    confirm_both(thief, pc)
    assert store.key(SERIAL, kid(new)) == new and [k for _, k, _, _ in store.keys()] == [kid(KEY), kid(new)]
    assert "revoked during the enrollment" in pc.ep.last_error and thief.keys.key == KEY
