"""100,000 random, garbled, truncated, replayed and forged lines into both ends of the dock protocol
(PROTOCOL.md): 60,000 into the PC's `ReceiverEndpoint` (a real SQLite `Store` on tmp_path) and
35,000 into the clock's `ClockEndpoint` (a real outbox and key file) through `receive(now, line)`,
and 2,500 into each through the byte-stream path (`Link` over an `os.openpty` pair, so
`LineSplitter` cuts the lines, keeps partial ones across reads and drops lines over 256 KiB).

What must hold (CL-5: a result is kept on the clock until the PC has acknowledged it, and the PC
takes only what the clock signed):
  - no exception escapes, and the whole run ends before a deadline (a hang fails: each of the three
    parts below within its share of it);
  - the store's results are exactly the genuine ones sent, content-equal; no forged or altered one;
  - the clock's outbox and sent/ change only by genuine acks; its key and pairings by nothing here;
  - every bad line is refused once: the endpoints' `refusals` counts add up to the number of bad
    lines fed, each with a reason from the set its kind allows (worked out from PROTOCOL.md by the
    generator, not read back from the code), and each refusal is one log line naming its reason.
The run is three tests, one per part, so `pytest -n` spreads them over its workers: the PC's 60,000
lines (seed 20261121), the clock's 35,000 (seed 20261122) and the 5,000 through the byte streams
(seed 20261123), each on its own random generator; a fourth checks that they add up to the 100,000
lines and, together, to every refusal. A failure names its seed and the line's index, so it
reproduces.
"""
from __future__ import annotations

import copy
import fcntl
import json
import os
import random
import re
import struct
import termios
import threading
import time
import tty
import zlib

from dockkit import (
    KEY,
    NS,
    OTHER,
    OTHER_KEY,
    SERIAL,
    RefusalLog,
    Wire,
    frame,
    make_clock,
    make_pc,
    make_store,
    record,
    records,
)

from gameclock.dock import sign
from gameclock.dock.frame import decode
from gameclock.dock.link import FdPort, Link
from gameclock.dock.messages import PROTO
from gameclock.dock.pcside import MAX_KEPT_REFUSALS
from gameclock.dock.refusals import BURST

SEED = 20261121  # the PC's part; the clock's is SEED + 1, the streams' SEED + 2
N_PC = 60_000
N_CLOCK = 35_000
N_STREAM_PC = 2_500
N_STREAM_CLOCK = 2_500
DEADLINE_S = 240
SLOW_CALL_S = 2.0     # one call taking longer than this is a failure
MAX_LINE = 256 * 1024

FRAMING = {"too-long", "no-crc", "bad-crc", "bad-utf8", "bad-json", "too-deep", "not-object"}
PC_TYPES = ("welcome", "ack", "nak", "pong", "who", "enroll", "pairing", "error")   # PC -> clock
CLOCK_TYPES = ("hello", "ping", "result", "ack", "nak")                           # clock -> PC
# with the event's set-up (issue 15, protocol 3): every key on the wire, null when not given
PAIRING = {"event": "bangkok-open-2026", "round": 3, "table": 12,
           "players": {"left": "สมชาย ใจดี", "right": "Malee"},
           "level": "secondary", "stage": "last", "language": "th", "preset": None, "game": None}
NONCES = [f"{i:032x}" for i in range(1, 100)]

# Values PROTOCOL.md's messages never carry in that field (a null only where null is not allowed;
# a trailing newline is not part of a serial, id, nonce, key id, MAC or key)
BAD = {
    "m": [0, -1, 2**53, "1", 1.5, True, None],
    "re": [0, -5, "2", 2.0, False],
    "proto": [PROTO + 1, PROTO - 1, 0, str(PROTO), None, 1.5],
    "serial": ["", "has space", "x" * 65, 5, None, SERIAL + "\n"],
    "fw": ["v" * 41, 1, None],
    "nonce": ["AB" * 16, "ab" * 15, "zz" * 16, None, "ab" * 16 + "\n"],
    "kid": ["ABCDEF0123456789", "abc", 5, "0123456789abcdef\n"],
    "pending": [-1, "3", 1.0, None],
    "event": ["e" * 65, 5], "round": ["3", 1.5], "table": ["12", [12]],
    "id": ["", "../../etc/passwd", "-lead", "x" * 129, 42, None, SERIAL + "-000001\n"],
    "rec": [[1], "rec", None, 5],
    "sig": ["g" * 64, "A" * 64, "0" * 63, None, "0" * 64 + "\n"],
    "reason": ["r" * 41, 3, None],
    "pc": ["p" * 65, 1, None],
    "known": [1, 0, "true", None],
    "mac": ["G" * 64, "0" * 65, 7, "0" * 64 + "\n"],
    "status": ["ok", "STORED", None, 1],
    "key": ["K" * 64, "0" * 62, None, "1" * 64 + "\n"],
    "pairing": [[1], {"event": None}, None, dict(PAIRING, round=0)],
    "code": ["c" * 41, 5, None],
    "text": ["t" * 301, 5, None],
}


def with_crc(body: bytes) -> bytes:
    return body + b"*" + b"%08x" % zlib.crc32(body) + b"\n"


def body_of(line: bytes) -> bytes:
    return line.rpartition(b"*")[0]


class Bad(Exception):
    pass


# ------------------------------------------------------------------------------------ generators

class Gen:
    """Lines of each kind, with the refusal reasons PROTOCOL.md allows for them."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def noise(self, pool: list[bytes]) -> tuple[bytes, set]:
        """Not a frame, or a frame that is not a message: refused at the framing, never answered."""
        rng = self.rng
        k = rng.randrange(10)
        if k == 0:  # random bytes
            return rng.randbytes(rng.randrange(0, 200)).replace(b"\n", b" ") + b"\n", {"no-crc", "bad-crc"}
        if k == 1:  # random bytes and a made-up CRC
            return (rng.randbytes(rng.randrange(0, 200)).replace(b"\n", b" ") + b"*%08x\n" % rng.getrandbits(32),
                    {"bad-crc"})
        if k == 2:  # a valid frame with 1-3 bits flipped
            line = bytearray(rng.choice(pool))
            for i in rng.sample(range(len(line) - 1), rng.randint(1, 3)):  # distinct bytes: no undo
                line[i] ^= 1 << rng.randrange(8)
                if line[i] == 0x0A:  # keep it one line
                    line[i] = 0x0B
            return bytes(line), {"no-crc", "bad-crc"}
        if k == 3:  # a valid frame cut short
            line = rng.choice(pool)
            return line[:rng.randrange(0, len(line) - 1)] + b"\n", {"no-crc"}
        if k == 4:  # the right CRC of random bytes
            return with_crc(rng.randbytes(rng.randrange(1, 200)).replace(b"\n", b" ")), \
                {"bad-utf8", "bad-json", "not-object"}
        if k == 5:  # the right CRC of JSON that is not an object
            body = rng.choice([b"[1,2]", b'"hello"', b"42", b"null", b"true", b"[]", b"-0.5e3"])
            return with_crc(body), {"not-object"}
        if k == 6:  # the right CRC of a valid frame's body cut short, or with bytes that are not UTF-8
            body = body_of(rng.choice(pool))
            if rng.random() < 0.5:
                # (a cut inside a Thai letter's three bytes leaves bytes that are not UTF-8)
                return with_crc(body[:rng.randrange(1, len(body))]), {"bad-json", "bad-utf8"}
            i = rng.randrange(len(body))
            return with_crc(body[:i] + b"\xff\xfe" + body[i:]), {"bad-utf8"}
        if k == 7:  # numbers JSON has no way to write (NaN, Infinity, out of range) in a message
            body = body_of(rng.choice(pool)).decode("utf-8")
            word = rng.choice(["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
            cut = body.find('"m":') + 4
            end = cut
            while body[end] in "0123456789":
                end += 1
            body = body[:cut] + word + body[end:]
            return with_crc(body.encode("utf-8")), {"bad-json"}
        if k == 8:  # JSON whitespace and junk around a valid body
            body = body_of(rng.choice(pool))
            return with_crc(body + rng.choice([b"x", b",", b"}", b" 1"])), {"bad-json"}
        # k == 9: nesting deeper than a frame needs (frame.MAX_DEPTH 12), in a message or around one:
        # refused before any handler sees it (a record 987 deep broke the signature check)
        depth = rng.choice([13, 40, 987, 5000])
        msg = json.loads(body_of(rng.choice(pool)))
        if rng.random() < 0.5:
            return with_crc(b"[" * depth + b"]" * depth), {"too-deep", "bad-json"}
        field = rng.choice([k for k in msg if k != "t"])
        msg[field] = json.loads("[" * depth + "]" * depth) if depth < 900 else None
        body = json.dumps(msg, separators=(",", ":")).encode()
        if depth >= 900:  # past what json.dumps can write: spliced in as text
            body = body.replace(b'"%s":null' % field.encode(), b'"%s":' % field.encode()
                                + b"[" * depth + b"]" * depth, 1)
        return with_crc(body), {"too-deep", "bad-json"}

    def mutated(self, msg: dict, allowed: tuple, foreign: tuple, pc_receives: bool) -> tuple[bytes, set]:
        """A message of a known type with one field wrong, missing or extra, or of an unknown type."""
        rng = self.rng
        msg = copy.deepcopy(msg)
        r = rng.random()
        if r < 0.1:
            if rng.random() < 0.3:
                del msg["t"]
            else:
                msg["t"] = rng.choice([5, None, "", "HELLO", "hello ", "resultx", ["ack"], *foreign])
            return frame(msg), {"unknown-type"}
        fields = [f for f in msg if f != "t"]
        if r < 0.25 or not fields:
            msg[rng.choice(["x", "extra", "M", "T", "sig2"])] = rng.choice([1, None, "x"])
            return frame(msg), {"bad-message"}
        name = rng.choice(fields)
        if r < 0.45:
            del msg[name]
        elif name == "proto" and not pc_receives:
            # another version number is a welcome of another version (shown, not refused)
            msg[name] = rng.choice(["2", None, 1.5, True])
        else:
            msg[name] = copy.deepcopy(rng.choice(BAD[name]))
        if pc_receives and msg.get("t") == "hello" and name == "proto":
            return frame(msg), {"version"}  # PROTOCOL.md: a hello the PC cannot speak gets `error`
        return frame(msg), {"bad-message"}


def leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from leaves(v, path + (k,))
    elif isinstance(obj, list) and obj:
        for i, v in enumerate(obj):
            yield from leaves(v, path + (i,))
    else:
        yield path, obj


def alter(rng: random.Random, rec: dict) -> dict:
    """The record with one value changed, one field added or one removed (its canonical form changes)."""
    rec = copy.deepcopy(rec)
    r = rng.random()
    if r < 0.1:
        rec["note"] = "the arbiter agreed"
        return rec
    if r < 0.2:
        del rec[rng.choice([k for k in rec if k not in ("id", "clock")])]
        return rec
    path, value = rng.choice(list(leaves(rec)))
    if path in (("id",), ("clock", "serial")):
        path, value = ("duration_ms",), rec["duration_ms"]
    if isinstance(value, bool):
        new = not value
    elif isinstance(value, int):
        new = value + rng.choice([-1, 1, 1000])
    elif isinstance(value, float):
        new = value + 0.5
    elif isinstance(value, str):
        new = value + rng.choice(["x", " ", "ก"])
    else:
        new = rng.choice([0, "", False])
    target = rec
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = new
    return rec


def result_msg(m: int, rec: dict, key: bytes, rid: str | None = None, sig: str | None = None) -> dict:
    return {"t": "result", "m": m, "id": rid or rec["id"], "rec": rec,
            "sig": sig or sign.sign_result(key, rec)}


# ------------------------------------------------------------------------------------ the phases

def check_log(log: RefusalLog, logger: str, endpoint, bad: int, seed: int) -> None:
    """The flood of `bad` refusals did not flood the log (refusals.py: at most BURST lines in full per
    minute), and what was not written out is summed up: lines in full + the summaries' counts = `bad`."""
    endpoint.refusals.flush()
    full, quiet = log.count(logger), log.quiet_count(logger)
    minutes = 1 + (time.monotonic() - log.started) // 60
    assert full <= BURST * minutes, f"seed {seed}: {full} refusals logged in full in {minutes:g} min"
    assert full + quiet == bad, f"seed {seed}: {full} logged + {quiet} summed up, for {bad} refusals"
    log.reset(logger)


class Run:
    """Counts what was fed and what came of it; `feed` checks every call."""

    def __init__(self, log: RefusalLog, logger: str, seed: int):
        self.log, self.logger, self.seed = log, logger, seed
        self.bad = 0
        self.slowest = 0.0
        self.where = ""

    def feed(self, endpoint, now: int, line: bytes, reasons: set | None, i: int):
        """One line; `reasons` None for a genuine line (no refusal), else the allowed reasons."""
        before = dict(endpoint.refusals)
        t0 = time.perf_counter()
        try:
            out = endpoint.receive(now, line)
        except Exception as exc:
            raise Bad(f"seed {self.seed}, {self.where} line {i}: {type(exc).__name__}: {exc}; "
                      f"line {line[:300]!r}") from exc
        took = time.perf_counter() - t0
        self.slowest = max(self.slowest, took)
        if took > SLOW_CALL_S:
            raise Bad(f"seed {self.seed}, {self.where} line {i}: took {took:.1f} s")
        logged = [r for r, n in endpoint.refusals.items() for _ in range(n - before.get(r, 0))]
        if reasons is None:
            if logged:
                raise Bad(f"seed {self.seed}, {self.where} line {i}: a genuine line was refused {logged}: "
                          f"{line[:200]!r}")
        else:
            self.bad += 1
            if len(logged) != 1 or logged[0] not in reasons:
                raise Bad(f"seed {self.seed}, {self.where} line {i}: refusals logged {logged}, "
                          f"expected one of {sorted(reasons)}: {line[:200]!r}")
            if logged[0] in FRAMING | {"bad-message", "unknown-type"} and out:
                raise Bad(f"seed {self.seed}, {self.where} line {i}: noise was answered: {out!r}")
        return out


def fuzz_pc(tmp, rng: random.Random, log: RefusalLog, report: dict, seed: int) -> None:
    gen = Gen(rng)
    store = make_store(tmp / "pc.db")
    pc = make_pc(store)
    run = Run(log, "gameclock.dock.pcside", seed)
    run.where = "PC"
    now = 1000 * NS
    hello = {"t": "hello", "m": 1, "proto": PROTO, "serial": SERIAL, "fw": "0.1.0", "nonce": "ab" * 16,
             "kid": sign.key_id(KEY), "pending": 400, "event": "bangkok-open-2026", "round": 3, "table": 12}
    assert decode(pc.receive(now, frame(hello))[0])["known"] is True

    genuine = records(400)
    sent: dict[str, dict] = {}   # genuine results the PC was given, by id
    frames: list[bytes] = []     # genuine result frames, for replays and garbling
    m = 1
    templates = [hello, {"t": "ping", "m": 5}, result_msg(3, genuine[0], KEY), {"t": "ack", "m": 3, "re": 2},
                 {"t": "nak", "m": 3, "re": 2, "reason": "bad-mac"}]
    foreign = [{"t": "welcome", "m": 1, "re": 1, "proto": PROTO, "pc": "x", "known": False, "mac": None},
               {"t": "pong", "m": 2, "re": 1}, {"t": "who", "m": 3},
               {"t": "enroll", "m": 4, "serial": SERIAL, "pub": "11" * 32, "replace": False},
               {"t": "pairing", "m": 5, "pairing": PAIRING, "mac": "0" * 64},
               {"t": "error", "m": 6, "re": None, "code": "x", "text": "y"}]
    next_new = 0
    fresh_seq = 500_000
    for i in range(N_PC):
        m += 1
        r = rng.random()
        if r < 0.02 and next_new < len(genuine):  # a genuine result, first time
            rec = genuine[next_new]
            next_new += 1
            line = frame(result_msg(m, rec, KEY))
            out = run.feed(pc, now, line, None, i)
            assert decode(out[0])["status"] == "stored", (seed, i)
            sent[rec["id"]] = rec
            frames.append(line)
        elif r < 0.04 and frames:  # a genuine result frame replayed
            out = run.feed(pc, now, rng.choice(frames), None, i)
            assert decode(out[0])["status"] == "duplicate", (seed, i)
        elif r < 0.06:  # a result signed with a laptop's key
            fresh_seq += 1
            run.feed(pc, now, frame(result_msg(m, record(fresh_seq), OTHER_KEY)), {"bad-signature"}, i)
        elif r < 0.09 and sent:  # a genuine record altered after signing, its signature kept
            rec = sent[rng.choice(list(sent))]
            run.feed(pc, now, frame(result_msg(m, alter(rng, rec), KEY, sig=sign.sign_result(KEY, rec))),
                     {"bad-signature"}, i)
        elif r < 0.10:  # another clock's result
            theirs = record(rng.randrange(1, 999), OTHER)
            run.feed(pc, now, frame(result_msg(m, theirs, rng.choice([KEY, OTHER_KEY]))), {"wrong-clock"}, i)
        elif r < 0.11 and sent:  # a genuine record under another id
            rec = sent[rng.choice(list(sent))]
            rid = f"{SERIAL}-{rng.randrange(10**6):06d}"
            if rid == rec["id"]:
                rid = f"{SERIAL}-1000000"
            run.feed(pc, now, frame(result_msg(m, rec, KEY, rid=rid)), {"bad-record"}, i)
        elif r < 0.115:  # a result whose record has a number JSON cannot carry
            body = json.dumps(result_msg(m, genuine[rng.randrange(400)], KEY), ensure_ascii=False,
                              separators=(",", ":"))
            word = rng.choice(["1e400", "-1e999", "NaN", "Infinity"])
            body = re.sub(r'"duration_ms":\d+', '"duration_ms":' + word, body, count=1)
            run.feed(pc, now, with_crc(body.encode("utf-8")), {"bad-json"}, i)
        elif r < 0.116:  # far too long
            run.feed(pc, now, b"x" * (MAX_LINE + rng.randrange(1, 5000)) + b"\n", {"too-long"}, i)
        elif r < 0.5:
            pool = frames or [frame(t) for t in templates]
            line, reasons = gen.noise(pool + [frame(templates[rng.randrange(len(templates))])])
            run.feed(pc, now, line, reasons, i)
        elif r < 0.6:
            line = frame(rng.choice(foreign))
            run.feed(pc, now, line, {"unknown-type"}, i)
        else:
            t = rng.choice(templates)
            line, reasons = gen.mutated(t, CLOCK_TYPES, ("welcome", "pong", "who", "enroll", "pairing", "error"),
                                        pc_receives=True)
            run.feed(pc, now, line, reasons, i)
        now += 1000

    # the store holds exactly the genuine results, content-equal; nothing forged, nothing twice
    got = {r["id"]: r for r in store.results()}
    assert set(got) == set(sent), f"seed {seed}: store ids differ from the genuine ones"
    assert all(got[k] == sent[k] for k in sent), f"seed {seed}: a stored record differs"
    assert store.conflicts() == [], f"seed {seed}"
    assert sum(pc.refusals.values()) == run.bad, f"seed {seed}: {pc.refusals} vs {run.bad} bad lines"
    check_log(log, "pcside", pc, run.bad, seed)
    kept = sum(v for k, v in pc.refusals.items()
               if k in ("unenrolled", "bad-signature", "bad-record", "wrong-clock", "storage"))
    # the result refusals are also in the store's table, the first MAX_KEPT_REFUSALS of a docking
    assert len(store.refusals()) == min(kept, MAX_KEPT_REFUSALS), f"seed {seed}"
    report.update(pc_lines=N_PC, pc_bad=run.bad, pc_genuine=len(sent), pc_refusals=dict(pc.refusals),
                  pc_slowest_s=round(run.slowest, 4))
    store.close()


def fuzz_clock(tmp, rng: random.Random, log: RefusalLog, report: dict, seed: int) -> None:
    gen = Gen(rng)
    store = make_store(tmp / "clockpc.db")
    store.put_pairings([PAIRING])
    clock = make_clock(tmp / "clock", key=KEY, results=records(60), nonces=NONCES,
                       info=lambda: {"event": "bangkok-open-2026", "round": 3, "table": 12})
    ep = clock.endpoint
    pc = make_pc(store)
    wire = Wire(ep, pc)
    results_out: list[dict] = []
    wire.cut_to_pc = lambda msg: msg["t"] == "result" and not results_out.append(msg)
    wire.connect()                                   # session 1 (nonce 1): welcome, pairing P1
    wire.run(1)
    results_out.clear()
    wire.to_clock_now(frame({"t": "who", "m": 900}))  # session 2 (nonce 2): welcome, pairing P2
    wire.flush()
    p1, p2 = wire.sent("pc", "pairing")
    assert clock.pairings == [PAIRING, PAIRING]
    assert ep.nonce == NONCES[1] and ep.welcomed
    wire.poll()
    welcome = wire.sent("pc", "welcome")[-1]
    now = wire.now

    def acks_for(msgs):
        out = {}
        for msg in msgs:
            ack = decode(pc.receive(now, frame(msg))[0])
            assert ack["status"] == "stored", f"seed {seed}: {ack}"
            out[msg["id"]] = frame(ack)
        return out

    ready = acks_for(results_out)  # the genuine acks of what is in flight, held back so far
    results_out.clear()
    assert sorted(ready) == sorted(ep.flights) and len(ready) == 4
    acked: dict[str, bytes] = {}    # id -> its genuine ack frame, delivered
    all_ids = [r["id"] for r in records(60)]
    pending0 = set(clock.outbox.pending())
    run = Run(log, "gameclock.dock.clockside", seed)
    run.where = "clock"
    pool = [frame(welcome), frame(p1), frame(p2), *ready.values()]
    templates = [welcome, decode(next(iter(ready.values()))), {"t": "nak", "m": 9, "re": 4, "id": all_ids[0],
                 "reason": "bad-signature"}, {"t": "pong", "m": 9, "re": 3}, {"t": "who", "m": 9},
                 {"t": "enroll-done", "m": 9, "mac": "22" * 32}, p2,
                 {"t": "error", "m": 9, "re": None, "code": "busy", "text": "later"}]
    foreign = [{"t": "hello", "m": 1}, {"t": "ping", "m": 2}, {"t": "result", "m": 3}]
    m = 1000
    for i in range(N_CLOCK):
        m += 1
        r = rng.random()
        if r < 0.0015 and ready:  # a genuine ack of a result in flight
            rid = rng.choice(list(ready))
            line = ready.pop(rid)
            run.feed(ep, now, line, None, i)
            acked[rid] = line
            wire.from_clock(ep.poll(now))  # the clock sends its next results: the PC acks them (held)
            ready.update(acks_for(results_out))
            results_out.clear()
        elif r < 0.01 and acked:  # a genuine ack again (a replay: it only repeats what is true)
            run.feed(ep, now, acked[rng.choice(list(acked))], None, i)
        elif r < 0.12:  # a forged ack
            rid = rng.choice([*ep.flights, *acked, *all_ids, f"{SERIAL}-999999", "zz-1"] or all_ids)
            real = record(int(rid.rsplit("-", 1)[1]) or 1) if rid.startswith(SERIAL) else record(1)
            real["id"] = rid
            how = rng.randrange(4)
            if how == 0:
                mac = rng.randbytes(32).hex()
            elif how == 1:
                mac = sign.ack_mac(OTHER_KEY, rid, sign.digest(real))
            elif how == 2:
                mac = sign.ack_mac(KEY, rid, sign.digest(alter(rng, real)))
            else:
                mac = sign.welcome_mac(KEY, ep.nonce)
            msg = {"t": "ack", "m": m, "re": rng.randrange(1, 10**6), "id": rid,
                   "status": rng.choice(["stored", "duplicate", "conflict"]), "mac": mac}
            run.feed(ep, now, frame(msg), {"bad-mac"}, i)
        elif r < 0.16:  # a forged or replayed pairing
            how = rng.randrange(3)
            if how == 0:
                msg = dict(p1, m=m)  # the genuine one of the earlier session
            elif how == 1:
                msg = dict(p2, m=m, pairing=dict(PAIRING, players={"left": "Mallory", "right": "Malee"}))
            else:
                msg = dict(p2, m=m, mac=sign.pairing_mac(OTHER_KEY, ep.nonce, m, p2["pairing"]))
            out = run.feed(ep, now, frame(msg), {"bad-mac"}, i)
            assert decode(out[0])["reason"] == "bad-mac", f"seed {seed}, clock line {i}: {out!r}"
        elif r < 0.20:  # a forged enrollment (issue 13): another clock's, or steps of one never begun
            how = rng.randrange(3)
            if how == 0:
                msg = {"t": "enroll", "m": m, "serial": OTHER, "pub": rng.randbytes(32).hex(), "replace": False}
                run.feed(ep, now, frame(msg), {"wrong-clock"}, i)
            elif how == 1:
                msg = {"t": "enroll-done", "m": m, "mac": rng.randbytes(32).hex()}
                run.feed(ep, now, frame(msg), {"no-enrollment"}, i)
            else:
                msg = {"t": "enroll-nonce", "m": m, "re": rng.randrange(1, 10**6), "nonce": rng.randbytes(16).hex()}
                run.feed(ep, now, frame(msg), {"no-enrollment"}, i)
        elif r < 0.22:  # a forged welcome: stale, or claiming to know the key without proof
            if rng.random() < 0.5:
                msg = dict(welcome, m=m, re=ep.hello_m + rng.randrange(1, 10**6))
                run.feed(ep, now, frame(msg), {"stale-welcome"}, i)
            else:
                msg = dict(welcome, m=m, known=True, mac=rng.choice([rng.randbytes(32).hex(),
                                                                     sign.welcome_mac(OTHER_KEY, ep.nonce),
                                                                     sign.welcome_mac(KEY, NONCES[0])]))
                run.feed(ep, now, frame(msg), {"bad-mac"}, i)
        elif r < 0.62:
            line, reasons = gen.noise(pool)
            run.feed(ep, now, line, reasons, i)
        elif r < 0.65:
            run.feed(ep, now, frame(dict(rng.choice(foreign))), {"unknown-type"}, i)
        else:
            line, reasons = gen.mutated(rng.choice(templates), PC_TYPES, ("hello", "ping", "result"),
                                        pc_receives=False)
            run.feed(ep, now, line, reasons, i)
        now += 1000

    # CL-5: only genuine acks moved results; the key and the pairings are untouched
    assert sorted(clock.outbox.sent()) == sorted(acked), f"seed {seed}: sent/ is not the acked set"
    assert set(clock.outbox.pending()) == pending0 - set(acked)
    assert clock.keys.key == KEY and clock.pairings == [PAIRING, PAIRING], f"seed {seed}"
    assert sorted(ep.flights) == sorted(ready), f"seed {seed}"
    assert sum(ep.refusals.values()) == run.bad, f"seed {seed}: {ep.refusals} vs {run.bad} bad lines"
    check_log(log, "clockside", ep, run.bad, seed)
    report.update(clock_lines=N_CLOCK, clock_bad=run.bad, clock_acked=len(acked),
                  clock_refusals=dict(ep.refusals), clock_slowest_s=round(run.slowest, 4))
    store.close()


def stream(endpoint, lines: list[bytes], expected: int, rng: random.Random, what: str, seed: int) -> dict:
    """Write `lines` into a pty in random chunks while a `Link` serves `endpoint` on its other end;
    wait until `expected` refusals were counted (the replies are read and thrown away), stop the link
    and check it had read every byte, so that the count is final."""
    master, slave = os.openpty()
    tty.setraw(slave)
    link = Link(FdPort(master, "pty"), endpoint)
    stop = threading.Event()
    errors: list[BaseException] = []

    def serve():
        try:
            link.run(stop, max_wait_s=0.05)
        except BaseException as exc:
            errors.append(exc)

    def drain():
        while not stop.is_set():
            try:
                os.read(slave, 65536)
            except BlockingIOError:
                time.sleep(0.01)
            except OSError:
                return

    os.set_blocking(slave, True)
    threads = [threading.Thread(target=serve, name="link", daemon=True),
               threading.Thread(target=drain, name="drain", daemon=True)]
    for t in threads:
        t.start()
    data = b"".join(lines)
    i = 0
    while i < len(data):
        n = rng.choice([1, 7, 100, 1000, 4096, 65536])
        i += os.write(slave, data[i:i + n])
    deadline = time.monotonic() + 60
    while sum(endpoint.refusals.values()) < expected and time.monotonic() < deadline and not errors:
        time.sleep(0.02)
    stop.set()
    os.write(master, b"\n")  # wake the drain thread's read
    for t in threads:
        t.join(5)
    # Nothing more can show: the link has stopped, and it had read every byte written (it serves
    # all it reads before it looks at `stop`), so no line is left for a late refusal.
    unread = struct.unpack("i", fcntl.ioctl(master, termios.FIONREAD, b"\0\0\0\0"))[0]
    alive = [t.name for t in threads if t.is_alive()]
    os.close(master)
    os.close(slave)
    assert not errors, f"seed {seed}, {what}: the link failed: {errors[0]!r}"
    assert not alive, f"seed {seed}, {what}: {alive} did not stop"
    assert unread == 0, f"seed {seed}, {what}: {unread} bytes never read by the link"
    got = sum(endpoint.refusals.values())
    assert got == expected, f"seed {seed}, {what}: {got} refusals for {expected} bad lines ({endpoint.refusals})"
    return dict(endpoint.refusals)


def fuzz_streams(tmp, rng: random.Random, log: RefusalLog, report: dict, seed: int) -> None:
    gen = Gen(rng)
    # into the PC: its hello first (genuine), then bad lines only
    store = make_store(tmp / "stream.db")
    pc = make_pc(store)
    hello = frame({"t": "hello", "m": 1, "proto": PROTO, "serial": SERIAL, "fw": "0.1.0", "nonce": "cd" * 16,
                   "kid": sign.key_id(KEY), "pending": 0, "event": None, "round": None, "table": None})
    recs = records(20)
    pool = [frame(result_msg(i + 2, r, KEY)) for i, r in enumerate(recs)]
    lines, count = [hello], 0
    for i in range(N_STREAM_PC):
        r = rng.random()
        if i % 1000 == 999:
            line = b"y" * (MAX_LINE + 1 + rng.randrange(100_000)) + b"\n"  # dropped as it streams
        elif r < 0.4:
            line, _ = gen.noise(pool)
        elif r < 0.6:
            line = frame(result_msg(5, alter(rng, rng.choice(recs)), KEY, sig=sign.sign_result(KEY, recs[0])))
        elif r < 0.7:
            line = frame(result_msg(5, record(900 + i), OTHER_KEY))
        else:
            line, _ = gen.mutated(rng.choice([{"t": "ping", "m": 5}, {"t": "ack", "m": 3, "re": 2},
                                              decode(pool[0])]), CLOCK_TYPES, ("who",), pc_receives=True)
        lines.append(line)
        count += 1
    report["stream_pc_refusals"] = stream(pc, lines, count, rng, "stream into the PC", seed)
    check_log(log, "pcside", pc, count, seed)
    assert store.count_results() == 0
    store.close()

    # into the clock: it keeps saying hello to nobody; every line is forged or noise
    clock = make_clock(tmp / "clock2", key=KEY, results=records(3))
    pool = [frame({"t": "ack", "m": 2, "re": 2, "id": r["id"], "status": "stored",
                   "mac": sign.ack_mac(KEY, r["id"], sign.digest(r))}) for r in records(3)]
    lines, count = [], 0
    for i in range(N_STREAM_CLOCK):
        r = rng.random()
        if i % 1000 == 500:
            line = b"z" * (MAX_LINE + 1 + rng.randrange(100_000)) + b"\n"
        elif r < 0.4:
            line, _ = gen.noise(pool)
        elif r < 0.6:  # acks of results the clock never sent in this run: nothing is in flight
            rec = rng.choice(records(3))
            line = frame({"t": "ack", "m": 3, "re": 1, "id": rec["id"], "status": "stored",
                          "mac": rng.choice([sign.ack_mac(OTHER_KEY, rec["id"], sign.digest(rec)),
                                             rng.randbytes(32).hex()])})
        elif r < 0.7:
            line = frame({"t": "pairing", "m": 4, "pairing": PAIRING, "mac": rng.randbytes(32).hex()})
        elif r < 0.8:
            line = frame({"t": "enroll-done", "m": 4, "mac": "33" * 32})
        else:
            line, _ = gen.mutated(rng.choice([{"t": "pong", "m": 5, "re": 1}, decode(pool[0])]), PC_TYPES,
                                  ("hello",), pc_receives=False)
        lines.append(line)
        count += 1
    report["stream_clock_refusals"] = stream(clock.endpoint, lines, count, rng, "stream into the clock", seed)
    check_log(log, "clockside", clock.endpoint, count, seed)
    assert clock.outbox.sent() == [] and len(clock.outbox.pending()) == 3 and clock.keys.key == KEY


def run_part(part, tmp_path, seed: int, deadline_s: float) -> dict:
    """One part of the fuzz (`fuzz_pc`, `fuzz_clock`, `fuzz_streams`) on its own seed, in a thread that
    must end within `deadline_s` (a hang fails); its report with the refusal reasons logged."""
    rng = random.Random(seed)
    report: dict = {}
    failure: list[BaseException] = []

    def body():
        try:
            with RefusalLog() as log:
                part(tmp_path, rng, log, report, seed)
                report["unparsed"] = log.unparsed
                report["reasons"] = sorted({r for k, v in report.items() if k.endswith("_refusals") for r in v})
        except BaseException as exc:
            failure.append(exc)

    t0 = time.monotonic()
    worker = threading.Thread(target=body, name="fuzz", daemon=True)
    worker.start()
    worker.join(deadline_s)
    assert not worker.is_alive(), f"seed {seed}: the fuzz run hung (not done in {deadline_s} s): {report}"
    if failure:
        raise failure[0]
    print(f"fuzz {part.__name__} seed {seed}: {time.monotonic() - t0:.1f} s", json.dumps(report, sort_keys=True))
    assert report["unparsed"] == []  # every refusal log line names its reason
    assert set(report["reasons"]) <= KNOWN
    return report


# The 100,000 lines come in three parts, each a test of its own on its own seed (so `pytest -n` runs
# them side by side), each with its share of the deadline. Every kind of line was exercised: each
# part's generator mix reached each refusal it can provoke, and together they reach every one.
KNOWN = FRAMING | {"bad-message", "unknown-type", "version", "bad-signature", "bad-record",
                   "wrong-clock", "bad-mac", "stale-welcome", "no-enrollment"}
PARTS = {  # part: (seed, its share of DEADLINE_S, the refusals its lines provoke)
    "pc": (SEED, 0.55, FRAMING | {"bad-message", "unknown-type", "version", "bad-signature", "bad-record",
                                  "wrong-clock"}),
    "clock": (SEED + 1, 0.35, FRAMING - {"too-long"} | {"bad-message", "unknown-type", "wrong-clock",
                                                         "bad-mac", "stale-welcome", "no-enrollment"}),
    "streams": (SEED + 2, 0.10, FRAMING | {"bad-message", "unknown-type", "bad-signature", "bad-mac",
                                           "no-enrollment"}),
}


def fuzz_test(part, tmp_path, name: str) -> None:
    seed, share, reasons = PARTS[name]
    report = run_part(part, tmp_path, seed, DEADLINE_S * share)
    assert set(report["reasons"]) == reasons, sorted(reasons ^ set(report["reasons"]))


def test_fuzz_60k_lines_into_the_pc(tmp_path):
    fuzz_test(fuzz_pc, tmp_path, "pc")


def test_fuzz_35k_lines_into_the_clock(tmp_path):
    fuzz_test(fuzz_clock, tmp_path, "clock")


def test_fuzz_5k_lines_through_the_byte_streams(tmp_path):
    fuzz_test(fuzz_streams, tmp_path, "streams")


def test_the_parts_are_100k_lines_and_reach_every_refusal():
    assert N_PC + N_CLOCK + N_STREAM_PC + N_STREAM_CLOCK == 100_000
    assert sum(share for _, share, _ in PARTS.values()) == 1.0  # the deadline is the whole run's
    assert len({seed for seed, _, _ in PARTS.values()}) == len(PARTS)
    assert set().union(*(reasons for _, _, reasons in PARTS.values())) == KNOWN
