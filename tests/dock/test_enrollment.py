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
from gameclock.dock.clockside import ENROLL_WAIT_NS
from gameclock.dock.frame import decode
from gameclock.dock.messages import PROTO


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
    assert pc.wire.sent("pc", "enroll") == []  # not even started
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
    clock, pc = enrolment(tmp_path, store)
    pc.wire.run(1)
    pc.wire.to_clock_now(frame({"t": "enroll", "m": 50, "serial": SERIAL, "pub": pub, "replace": False}))
    pc.wire.to_clock_now(frame({"t": "enroll-nonce", "m": 51, "re": 2, "nonce": "12" * 16}))
    assert clock.keys.key is None and clock.endpoint.status.code == ""
    assert pc.wire.sent("clock", "enroll-cancel")[-1]["reason"] == "bad-key"


def test_old_keys_are_revoked_only_once_the_clock_holds_the_new_one(tmp_path):
    # a power cut between the PC storing the new key and the clock storing it (enroll-done lost):
    # the clock keeps its old key, which must still be valid, and a later enrollment proves it
    store = make_store(tmp_path / "pc.db")
    clock, pc = enrolment(tmp_path, store, clock_key=KEY)
    pc.wire.cut_to_clock = lambda m: m["t"] == "enroll-done"
    to_code(pc, clock)
    confirm_both(clock, pc)
    assert clock.keys.key == KEY and len(store.keys()) == 2  # the PC stored the new key ...
    assert store.key(SERIAL, kid(KEY)) == KEY                 # ... and did not revoke the old one
    again, pc2 = enrolment(tmp_path / "2", store, clock_key=KEY)
    to_code(pc2, again)
    confirm_both(again, pc2)
    pc2.wire.run(3)
    new = again.keys.key
    assert new != KEY and store.key(SERIAL, kid(new)) == new
    assert [k for _s, k, _key, _at in store.keys() if store.key(SERIAL, k)] == [kid(new)]  # one valid key
