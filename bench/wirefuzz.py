"""`python -m bench wirefuzz`: hostile lines on the dock's wire into both real ends at once, with genuine
traffic between them (issue 13: neither end crashes, hangs, grows, or accepts a forgery).

The PC end: a `gameclock receive` child process (`python -m gameclock`, the gameclock this bench imports
first on PYTHONPATH) on two ptys (`bench.ptywire.PtyEnd`), its database holding the keys of SERIAL and
OTHER. The clock end: the device's real `DockThread` in this process (`open_port`, pyserial, on a third
pty), CLOCK_RESULTS results signed with its key CKEY in a temp state folder. This process writes on the
ptys' masters.

N lines (100,000; GAMECLOCK_BENCH_WIRE sets another number), drawn from a fixed seed, every other one to
the receiver (its two ports in turn) and the others to the clock: random bytes; genuine-looking frames
bit-flipped or truncated; the right CRC over bad JSON, over JSON that is not an object, over JSON nested
13 to 5,000 deep, over NaN, Infinity, 1e999 and 31-5,000-digit integers; messages with a field missing,
of the wrong type, an unknown field, an unknown or another type; lines over 256 KiB (rare), empty lines
and control characters; forgeries -- to the receiver hellos claiming SERIAL (without a key, under the
public key id, under another key's), results signed with another key, altered records under their
original signature, another clock's result, a record whose id is not the message's; to the clock
welcomes, acks, pairings and enroll-done with MACs under another key, over another nonce, record or
pairing, a pairing's message number altered, or random, enrollments started and nonces sent (the arbiter
never confirms); and replays of genuine frames sent earlier (hellos and results to the receiver; welcomes,
acks, pongs and pushed pairings to the clock: an old push sent again after a newer one, issue 26).
The kinds of line are the same every run; what some aim at (the clock's latest hello m and nonce, the
frames replayed to the clock) depends on what the clock said by then, so on timing.

Genuine traffic between them: the genuine SERIAL (this process, with KEY) says hello and sends one
signed result to a receiver port every ~1,000 receiver lines, until it is acked (a MAC that verifies) or
10 s pass (up to 3 tries: a hostile line can leave a hello half-read). Towards the clock this process is
the PC: it answers about half the clock's hellos with a welcome whose MAC is right (half of those followed by
a genuine pairing; a fifth of the results and a tenth of the pings are followed by one too: a round
published while docked; each with players of its own, `G1`, `G2` ...), acks about 40 % of
the results it sees for the first time with the right ack MAC (and every later copy of one it acked, as
a PC acks a duplicate), naks some, ignores the rest (the clock sends them again), answers pings. After
the flood, the clock is made to say hello (`who`) and answered fully, acking results until at least
MIN_CLOCK_ACKS were acked, refusing the others (`nak`: they stay in its outbox), until every acked one is
in sent/ (at most 20 s).

Figures:
  fuzz_lines               hostile lines written (genuine traffic not counted)
  fuzz_crashes             the receiver exited; tracebacks in its output (a message or port that failed,
                           even contained); exceptions logged or escaping in this process (the clock's
                           endpoint, its DockThread); the DockThread dead (0 is right)
  fuzz_hangs               after the flood: receiver ports not answering a hello and ping with a pong
                           within 5 s, the clock not saying hello within 5 s of a `who`; a port that
                           stopped reading for 10 s during the flood (0 is right)
  fuzz_threads_lost        receiver ports not answering within 15 s + the DockThread not alive (0)
  fuzz_rss_growth_mb       the receiver's RSS growth (VmRSS) from after the first tenth of the lines
                           to the end, MiB (0.1; goal < 5)
  fuzz_accepted_forgeries  results in the receiver's database that are not a genuine result sent (by id and
                           content) + its conflicts + clock results in sent/ that were not genuinely acked
                           + a key the clock took + pairings it took that are not a genuine push, or
                           that are not newer than the last it took (a replayed push) (0 is right)
  fuzz_genuine_sent        genuine results sent to the receiver + results genuinely acked to the clock
  fuzz_genuine_delivered   of those, stored in the database (same content) + in the clock's sent/
                           (must equal fuzz_genuine_sent)
  fuzz_db_refusals         rows in the database's refusals table (the refused results it keeps)
  fuzz_pushes              genuine pairings this process pushed to the clock (issue 26)
  fuzz_pushes_taken        pairings the clock's loop was given (each a genuine push, newer than the last)
  fuzz_seconds             wall time
The first few crashes are described on stderr.
"""
from __future__ import annotations

import copy
import logging
import os
import queue
import random
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from typing import Any

from bench.dock import sample_record
from bench.ptywire import PtyEnd, rss_kib, start_receiver, stop_receiver, tracebacks
from gameclock.device.dock import DockThread
from gameclock.dock import sign
from gameclock.dock.frame import dumps, encode
from gameclock.dock.keystore import KeyStore
from gameclock.dock.link import open_port
from gameclock.dock.messages import PROTO
from gameclock.inbox import Pairing
from gameclock.organiser.store import Store
from gameclock.persist.outbox import Outbox

ENV_LINES = "GAMECLOCK_BENCH_WIRE"
SERIAL = "00000000c0ffee01"       # the genuine clock of the receiver's side (this process)
OTHER = "00000000badc10c0"        # another enrolled clock
SERIAL_C = "00000000c10c0001"     # the DockThread's
KEY = bytes(range(1, 33))
OTHER_KEY = bytes(range(101, 133))
CKEY = bytes(range(65, 97))
ROGUE_KEY = bytes(range(150, 182))  # nobody's
CLOCK_RESULTS = 40
MIN_CLOCK_ACKS = 5
RX_EPISODE_EVERY = 1000    # receiver lines between two genuine results
PROBE_S = 5.0
LOST_S = 15.0
WRITE_S = 10.0
BATCH = 32
# every key of a version 4+ pairing (a pairing of another shape is refused before its MAC is looked at)
PAIRING = {"event": "e1", "round": 1, "table": 3, "players": {"left": "Mallory", "right": "Eve"},
           "level": None, "stage": None, "language": None, "preset": None, "game": None}
WRONG = [None, True, False, -1, 0, 2**60, 1.5, "", "x" * 500, [], {}, [1], {"a": 1}, "\u0000\u202e", "ก" * 100,
         "0" * 64, "Z" * 32]
NOISE = [b"\n", b"\r\n", b"\x00\n", b"*\n", b"*00000000\n", b"\x1b[2J\n", b"{}\n", b"\xff\xfe\n", b" \t \n"]


def framed(body: bytes) -> bytes:
    return body + b"*%08x\n" % zlib.crc32(body)


def nonce(rng: random.Random) -> str:
    return rng.randbytes(16).hex()


def hello(serial: str, kid: str | None, n: str, m: int, proto: int = PROTO) -> dict[str, Any]:
    return {"t": "hello", "m": m, "proto": proto, "serial": serial, "fw": "bench", "nonce": n, "kid": kid,
            "pending": 1, "event": None, "round": None, "table": None}


class Gen:
    """The hostile lines, from one seeded generator. `pc_line` for the receiver, `clock_line` for the
    clock; `clock_hello` (m, nonce) is the clock's latest hello, so forged welcomes and pairings aim at it."""

    def __init__(self, rng: random.Random, clock_ids: list[str], clock_records: dict[str, dict[str, Any]]):
        self.rng = rng
        self.clock_ids = clock_ids
        self.clock_records = clock_records
        self.clock_hello = (1, "0" * 32)
        self.old_nonces: list[str] = ["ab" * 16]
        self.pc_replays: list[bytes] = []     # genuine frames sent to the receiver
        self.clock_replays: list[bytes] = []  # genuine frames sent to the clock
        self.genuine_pc: list[dict[str, Any]] = []  # genuine results sent to the receiver
        self.forge_base = [sample_record(10_000 + k, SERIAL) for k in range(8)]
        self.other_recs = [sample_record(20_000 + k, OTHER) for k in range(4)]

    # ------------------------------------------------------------------ templates
    def pc_template(self) -> dict[str, Any]:
        r = self.rng
        k = r.randrange(8)
        if k == 0:
            return hello(r.choice([SERIAL, OTHER, "x" + r.randbytes(6).hex()]), sign.key_id(KEY), nonce(r), 1)
        if k == 1:
            return {"t": "ping", "m": r.randrange(1, 1000)}
        if k in (2, 3):
            return self.forged_result()
        if k == 4:
            return {"t": "ack", "m": 5, "re": r.randrange(1, 100)}
        if k == 5:
            return {"t": "nak", "m": 6, "re": r.randrange(1, 100), "reason": "busy"}
        if k == 6:
            return {"t": "enroll-confirm", "m": 7, "mac": r.randbytes(32).hex(), "old": None}
        return r.choice([{"t": "enroll-commit", "m": 8, "re": 1, "pub": r.randbytes(32).hex(),
                          "commit": r.randbytes(32).hex()},
                         {"t": "enroll-reveal", "m": 8, "re": 1, "nonce": nonce(r)},
                         {"t": "enroll-cancel", "m": 8, "reason": "declined"}])

    def clock_template(self) -> dict[str, Any]:
        r = self.rng
        m, n = self.clock_hello
        k = r.randrange(10)
        if k == 0:
            return self.forged_welcome()
        if k in (1, 2):
            return self.forged_ack()
        if k == 3:
            return self.forged_pairing()
        if k == 4:
            return {"t": "enroll-done", "m": 9, "mac": r.randbytes(32).hex()}
        if k == 5:
            return {"t": "enroll", "m": r.randrange(1, 50), "serial": r.choice([SERIAL_C, OTHER]),
                    "pub": r.randbytes(32).hex(), "replace": r.random() < 0.5}
        if k == 6:
            return {"t": "enroll-nonce", "m": 10, "re": r.randrange(1, 2000), "nonce": nonce(r)}
        if k == 7:
            return {"t": "nak", "m": 11, "re": m, "id": r.choice(self.clock_ids), "reason": "bad-signature"}
        if k == 8:
            return r.choice([{"t": "who", "m": 12}, {"t": "pong", "m": 12, "re": r.randrange(1, 2000)},
                             {"t": "enroll-cancel", "m": 12, "reason": "declined"}])
        return {"t": "error", "m": 13, "re": m, "code": r.choice(["version", "pc-error", "x"]),
                "text": r.choice(["update gameclock on the PC", "update the clock", "?" * 300])}

    # ------------------------------------------------------------------ forgeries
    def forged_result(self) -> dict[str, Any]:
        r = self.rng
        rec = copy.deepcopy(r.choice(self.forge_base))
        k = r.randrange(6)
        if k == 0:     # signed with a key the PC does not hold for SERIAL
            sig = sign.sign_result(r.choice([OTHER_KEY, ROGUE_KEY]), rec)
        elif k == 1:   # altered after signing
            sig = sign.sign_result(KEY, rec)
            rec["players"] = {"left": "Mallory", "right": "Eve"}
        elif k == 2:   # another clock's result, signed with SERIAL's key
            rec = copy.deepcopy(r.choice(self.other_recs))
            sig = sign.sign_result(KEY, rec)
        elif k == 3 and self.genuine_pc:  # a genuine result, altered, under its genuine signature
            rec = copy.deepcopy(r.choice(self.genuine_pc))
            sig = sign.sign_result(KEY, rec)
            rec["clock"]["seq"] += 1
        elif k == 4:   # a random signature
            sig = r.randbytes(32).hex()
        else:          # the message's id is not the record's
            sig = sign.sign_result(OTHER_KEY, rec)
            return {"t": "result", "m": r.randrange(1, 9999), "id": f"{SERIAL}-{r.randrange(10**6):06d}",
                    "rec": rec, "sig": sig}
        return {"t": "result", "m": r.randrange(1, 9999), "id": rec["id"], "rec": rec, "sig": sig}

    def forged_hello(self) -> dict[str, Any]:
        r = self.rng
        serial, kid = r.choice([(SERIAL, None), (SERIAL, sign.key_id(KEY)), (SERIAL, sign.key_id(ROGUE_KEY)),
                                (OTHER, sign.key_id(OTHER_KEY)), ("rogue" + r.randbytes(4).hex(), None)])
        return hello(serial, kid, nonce(r), r.randrange(1, 9999), proto=PROTO if r.random() < 0.95 else r.choice([PROTO - 1, PROTO + 1]))

    def forged_welcome(self) -> dict[str, Any]:
        r = self.rng
        m, n = self.clock_hello
        mac = r.choice([r.randbytes(32).hex(), sign.welcome_mac(ROGUE_KEY, n),
                        sign.welcome_mac(CKEY, r.choice(self.old_nonces)), sign.welcome_mac(CKEY, nonce(r))])
        return {"t": "welcome", "m": 14, "re": m if r.random() < 0.7 else r.randrange(1, 9999), "proto": PROTO,
                "pc": "rogue", "known": True, "mac": mac}

    def forged_ack(self) -> dict[str, Any]:
        r = self.rng
        rid = r.choice(self.clock_ids)
        rec = self.clock_records[rid]
        k = r.randrange(5)
        if k == 0:
            mac = r.randbytes(32).hex()
        elif k == 1:
            mac = sign.ack_mac(ROGUE_KEY, rid, sign.digest(rec))
        elif k == 2:   # the right key over another record's content
            mac = sign.ack_mac(CKEY, rid, sign.digest(dict(rec, players={"left": "Mallory", "right": "Eve"})))
        elif k == 3:   # the right key, another result's id
            mac = sign.ack_mac(CKEY, r.choice([i for i in self.clock_ids if i != rid]), sign.digest(rec))
        else:          # the right key, the digest's hex altered
            d = sign.digest(rec)
            mac = sign.ack_mac(CKEY, rid, d[:-1] + ("0" if d[-1] != "0" else "1"))
        return {"t": "ack", "m": 15, "re": r.randrange(1, 9999), "id": rid,
                "status": r.choice(["stored", "duplicate", "conflict"]), "mac": mac}

    def forged_pairing(self) -> dict[str, Any]:
        r = self.rng
        _, n = self.clock_hello
        other = dict(PAIRING, table=4)
        m = r.randrange(1, 10**6)
        mac = r.choice([r.randbytes(32).hex(), sign.pairing_mac(ROGUE_KEY, n, m, PAIRING),
                        sign.pairing_mac(CKEY, r.choice(self.old_nonces), m, PAIRING),
                        sign.pairing_mac(CKEY, n, m, other), sign.pairing_mac(CKEY, n, m + 1, PAIRING)])
        return {"t": "pairing", "m": m, "pairing": PAIRING, "mac": mac}

    # ------------------------------------------------------------------ lines
    def mutated(self, msg: dict[str, Any], types: list[str]) -> dict[str, Any]:
        r = self.rng
        msg = dict(msg)
        fields = [k for k in msg if k != "t"]
        op = r.randrange(6)
        if op == 0 and fields:
            del msg[r.choice(fields)]
        elif op == 1 and fields:
            msg[r.choice(fields)] = copy.deepcopy(r.choice(WRONG))
        elif op == 2:
            msg[r.choice(["x", "extra", "t2", "M", "_"])] = r.choice(WRONG)
        elif op == 3:
            msg["t"] = r.choice(["", "HELLO", "resultx", "x" * 300, "welcome\n", None, 1])
        elif op == 4:
            msg["t"] = r.choice(types)
        else:
            msg["m"] = r.choice([0, -1, 2**53, 2**53 + 1, "1", 1.0, None])
        return msg

    def line(self, template: dict[str, Any], types: list[str], forgery: dict[str, Any] | None,
             replays: list[bytes]) -> bytes:
        r = self.rng
        if r.random() < 0.0005:  # over the 256 KiB a line may have
            return encode(dict(template, pad="y" * r.randint(256 * 1024, 400 * 1024)))
        k = r.randrange(100)
        if k < 10:
            return r.randbytes(r.randint(0, 300)).replace(b"\n", b"") + b"\n"
        if k < 22:
            flipped = bytearray(encode(template))
            for _ in range(r.randint(1, 3)):
                i = r.randrange(len(flipped) - 1)
                flipped[i] ^= 1 << r.randrange(8)
            return bytes(flipped)
        if k < 30:
            whole = encode(template)
            return whole[:r.randrange(1, len(whole) - 1)] + b"\n"
        if k < 38:
            edited = bytearray(dumps(template))
            i = r.randrange(len(edited))
            if r.random() < 0.5:
                del edited[i:i + r.randint(1, 3)]
            else:
                edited[i:i] = r.choice([b"{", b"}", b"[", b"]", b'"', b",", b":", b"\\", b"\\u12", b"\x01", b"\xc3"])
            return framed(bytes(edited))
        if k < 42:
            return framed(r.choice([b"[]", b"[1,2]", b'"hello"', b"1", b"null", b"true", b"-0.5e3", b"[{}]"]))
        if k < 47:
            d = r.randint(13, 5000)
            style = r.randrange(3)
            if style == 0:
                return framed(b"[" * d + b"]" * d)
            if style == 1:
                return framed(b'{"a":' * d + b"1" + b"}" * d)
            field = r.choice([f for f in template if f != "t"] or ["x"])
            body = dumps(dict(template, **{field: "DEEP"}))
            return framed(body.replace(b'"DEEP"', b'{"k":[' * (d // 2) + b"0" + b"]}" * (d // 2)))
        if k < 51:
            num = r.choice([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e999",
                            b"9" * r.randint(31, 5000), b"-" + b"9" * r.randint(31, 60)])
            field = r.choice([f for f in template if f != "t"] or ["m"])
            return framed(dumps(dict(template, **{field: "NUM"})).replace(b'"NUM"', num))
        if k < 53:
            return r.choice(NOISE)
        if k < 75:
            return encode(self.mutated(template, types))
        if k < 95 or not replays:
            return encode(forgery if forgery is not None else template)
        return r.choice(replays)

    def pc_line(self) -> bytes:
        r = self.rng
        forgery = self.forged_result() if r.random() < 0.6 else self.forged_hello()
        return self.line(self.pc_template(), ["hello", "ping", "result", "ack", "enroll-confirm"], forgery,
                         self.pc_replays)

    def clock_line(self) -> bytes:
        return self.line(self.clock_template(), ["welcome", "ack", "pairing", "enroll-done", "who", "enroll"],
                         None, self.clock_replays)


class Crashes(logging.Handler):
    """Exceptions logged (log.exception) by this process's gameclock code, and those escaping a thread."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            exc = record.exc_info[1]
            self.seen.append(f"{record.getMessage()[:100]}: {type(exc).__name__}: {str(exc)[:100]}")

    def thread_hook(self, args: threading.ExceptHookArgs) -> None:
        self.seen.append(f"thread {args.thread.name if args.thread else '?'}: {args.exc_type.__name__}: "
                         f"{str(args.exc_value)[:100]}")


class ThePC:
    """This process as the clock's PC: answers what the clock sends (see the module docstring)."""

    def __init__(self, end: PtyEnd, gen: Gen, rng: random.Random):
        self.end, self.gen, self.rng = end, gen, rng
        self.m = 0
        self.acked: set[str] = set()     # results acked with the right MAC
        self.seen: set[str] = set()
        self.hellos = 0
        self.finishing = False
        self.pushed = 0                  # genuine pairings pushed: G1 ... G<pushed>

    def push(self, nonce_hex: str) -> bytes:
        """A genuine pairing of its own (players G<k>), MAC'd over the clock's latest nonce and its number."""
        self.pushed += 1
        p = dict(PAIRING, round=1 + self.pushed % 99, players={"left": f"G{self.pushed}", "right": "Genuine"})
        return self.frame({"t": "pairing", "pairing": p, "mac": sign.pairing_mac(CKEY, nonce_hex, self.m + 1, p)})

    def frame(self, body: dict[str, Any]) -> bytes:
        self.m += 1
        f = encode({"t": body.pop("t"), "m": self.m, **body})
        self.gen.clock_replays.append(f)
        del self.gen.clock_replays[:-200]
        return f

    def answers(self) -> bytes:
        out: list[bytes] = []
        while True:
            try:
                msg = self.end.inbox.get_nowait()
            except queue.Empty:
                break
            t = msg.get("t")
            if t == "hello":
                self.hellos += 1
                self.gen.old_nonces.append(self.gen.clock_hello[1])
                del self.gen.old_nonces[:-20]
                self.gen.clock_hello = (msg["m"], msg["nonce"])
                if self.finishing or self.rng.random() < 0.5:
                    out.append(self.frame({"t": "welcome", "re": msg["m"], "proto": PROTO, "pc": "bench",
                                           "known": True, "mac": sign.welcome_mac(CKEY, msg["nonce"])}))
                    if not self.finishing and self.rng.random() < 0.5:
                        out.append(self.push(msg["nonce"]))
            elif t == "result":
                rid, rec = msg["id"], msg["rec"]
                first = rid not in self.seen
                self.seen.add(rid)
                if self.finishing:
                    ack = rid in self.acked or len(self.acked) < MIN_CLOCK_ACKS
                    nak = not ack
                else:
                    x = self.rng.random()
                    ack = rid in self.acked or (first and x < 0.4)
                    nak = not ack and x > 0.9
                if ack:
                    self.acked.add(rid)
                    out.append(self.frame({"t": "ack", "re": msg["m"], "id": rid, "status": "stored",
                                           "mac": sign.ack_mac(CKEY, rid, sign.digest(rec))}))
                elif nak:
                    out.append(self.frame({"t": "nak", "re": msg["m"], "id": rid, "reason": "storage"}))
                if not self.finishing and self.rng.random() < 0.2:  # a round published while it uploads
                    out.append(self.push(self.gen.clock_hello[1]))
            elif t == "ping":
                out.append(self.frame({"t": "pong", "re": msg["m"]}))
                if not self.finishing and self.rng.random() < 0.1:  # a round published while docked
                    out.append(self.push(self.gen.clock_hello[1]))
        return b"".join(out)


def pairing_forgeries(taken: list[Pairing], pushed: int) -> int:
    """Pairings the clock took that it must not have: not one of the genuine pushes G1..G<pushed>, or not
    newer than the last it took (an old push sent again: PROTOCOL.md, "Pushes and replays")."""
    bad, last = 0, 0
    for item in taken:
        left = (item.pairing.get("players") or {}).get("left") or ""
        k = int(left[1:]) if left[:1] == "G" and left[1:].isdigit() else 0
        if not 1 <= k <= pushed or k <= last or item.pairing.get("players", {}).get("right") != "Genuine":
            bad += 1
        last = max(last, k)
    return bad


def probe_receiver(end: PtyEnd, rng: random.Random, timeout: float) -> bool:
    """A genuine hello and a ping: True if the pong comes within `timeout` s."""
    end.keep = True
    end.m += 2
    ping_m = end.m
    end.write(encode(hello(SERIAL, sign.key_id(KEY), nonce(rng), ping_m - 1)) + encode({"t": "ping", "m": ping_m}),
              timeout=timeout)
    got = end.wait(lambda msg: msg.get("t") == "pong" and msg.get("re") == ping_m, timeout)
    end.keep = False
    return got is not None


def genuine_result(end: PtyEnd, gen: Gen, rng: random.Random, seq: int) -> None:
    """Hello as SERIAL and one signed result; again (at most 3 tries) until an ack whose MAC verifies."""
    rec = sample_record(seq, SERIAL)
    gen.genuine_pc.append(rec)
    end.keep = True
    for _ in range(3):
        end.m += 2
        h = encode(hello(SERIAL, sign.key_id(KEY), nonce(rng), end.m - 1))
        r = encode({"t": "result", "m": end.m, "id": rec["id"], "rec": rec, "sig": sign.sign_result(KEY, rec)})
        if not end.write(h + r, timeout=WRITE_S):
            break
        gen.pc_replays += [h, r]
        got = end.wait(lambda msg: msg.get("t") in ("ack", "nak") and msg.get("id") == rec["id"], 10.0)
        if got is not None and got["t"] == "ack" and sign.same(got.get("mac"),
                                                               sign.ack_mac(KEY, rec["id"], sign.digest(rec))):
            break
    end.keep = False


def bench_wirefuzz(n: int | None = None, seed: int = 31) -> dict:
    n = n if n is not None else int(os.environ.get(ENV_LINES, "100000"))
    t_start = time.monotonic()
    rng = random.Random(seed)           # the hostile lines
    pc_rng = random.Random(seed + 1)    # this process's answers as the clock's PC, the genuine nonces
    crashes = Crashes()
    logger = logging.getLogger("gameclock")
    saved = (logger.propagate, threading.excepthook)
    logger.addHandler(crashes)
    logger.propagate = False
    threading.excepthook = crashes.thread_hook
    hangs = lost = 0
    pairings: list[Pairing] = []
    with tempfile.TemporaryDirectory(prefix="gameclock-bench-wirefuzz-") as tmp:
        work = Path(tmp)
        db = work / "pc.db"
        with Store(db) as store:
            store.add_key(SERIAL, KEY)
            store.add_key(OTHER, OTHER_KEY)
        state = work / "clock"
        outbox = Outbox(state)
        outbox.prepare()
        records = {}
        for seq in range(1, CLOCK_RESULTS + 1):
            rec = sample_record(seq, SERIAL_C)
            outbox.put(rec)
            records[rec["id"]] = rec
        KeyStore(state).set(CKEY)
        gen = Gen(rng, sorted(records), records)
        rx = [PtyEnd(), PtyEnd()]
        ck = PtyEnd()
        pc = ThePC(ck, gen, pc_rng)
        log_path = work / "receiver.log"
        thread: DockThread | None = None
        stuck: set[int] = set()
        with open(log_path, "wb") as log_file:
            proc = start_receiver([e.path for e in rx], db, log_file)
            try:
                for end in rx:
                    end.start_reading()
                    end.hello_until(hello(SERIAL, sign.key_id(KEY), nonce(pc_rng), 1), timeout=20.0)
                    end.keep = False
                ck.start_reading()
                thread = DockThread(ck.path, state, SERIAL_C, outbox,
                                    lambda item: pairings.append(item) if isinstance(item, Pairing) else None,
                                    opener=open_port)
                thread.start()
                deadline = time.monotonic() + 10.0
                while not ck.counts["hello"] and time.monotonic() < deadline:  # the clock opened its port
                    time.sleep(0.02)
                rx_lines = n - n // 2
                episodes = max(3, rx_lines // RX_EPISODE_EVERY)
                episode_at = {round((k + 0.5) * rx_lines / episodes) for k in range(episodes)}
                seq = 0
                rss0 = 0
                warm = max(1, n // 10)
                i = 0
                while i < n:
                    batch: dict[int, list[bytes]] = {0: [], 1: [], 2: []}
                    for j in range(i, min(n, i + BATCH)):
                        if j % 2 == 0:
                            batch[(j // 2) % 2].append(gen.pc_line())
                        else:
                            batch[2].append(gen.clock_line())
                    for target, lines in batch.items():
                        if target in stuck or not lines:
                            continue
                        end = ck if target == 2 else rx[target]
                        if not end.write(b"".join(lines), timeout=WRITE_S):
                            stuck.add(target)
                    if 2 not in stuck and not ck.write(pc.answers(), timeout=WRITE_S):
                        stuck.add(2)
                    for j in range(i, min(n, i + BATCH)):
                        if j % 2 == 0 and j // 2 in episode_at:
                            seq += 1
                            if seq % 2 not in stuck:
                                genuine_result(rx[seq % 2], gen, pc_rng, seq)
                    i = min(n, i + BATCH)
                    if not rss0 and i >= warm:
                        for end in rx:
                            probe_receiver(end, pc_rng, PROBE_S)
                        rss0 = rss_kib(proc.pid)
                hangs += len(stuck)
                # after the flood: is everything still answering?
                for k, end in enumerate(rx):
                    if k in stuck:
                        lost += 1
                        continue
                    if not probe_receiver(end, pc_rng, PROBE_S):
                        hangs += 1
                        lost += 0 if probe_receiver(end, pc_rng, LOST_S - PROBE_S) else 1
                ck.write(pc.answers(), timeout=WRITE_S)
                before = pc.hellos
                ck.write(encode({"t": "who", "m": 99_999}), timeout=WRITE_S)
                deadline = time.monotonic() + PROBE_S
                while pc.hellos == before and time.monotonic() < deadline:
                    ck.write(pc.answers(), timeout=WRITE_S)
                    time.sleep(0.02)
                hangs += pc.hellos == before
                # the finish: the clock answered fully until every acked result is in sent/
                pc.finishing = True
                ck.write(encode({"t": "who", "m": 100_000}), timeout=WRITE_S)
                deadline = time.monotonic() + 20.0
                while time.monotonic() < deadline:
                    ck.write(pc.answers(), timeout=WRITE_S)
                    if len(pc.acked) >= min(MIN_CLOCK_ACKS, CLOCK_RESULTS) and pc.acked <= set(outbox.sent()):
                        break
                    time.sleep(0.02)
                thread_alive = thread.is_alive()
                receiver_alive = proc.poll() is None
                rss1 = rss_kib(proc.pid)
            finally:
                if thread is not None:
                    thread.close()
                stop_receiver(proc)
                for end in (*rx, ck):
                    end.close()
        logger.removeHandler(crashes)
        logger.propagate, threading.excepthook = saved
        with Store(db) as store:
            stored_records = store.results()
            conflicts = len(store.conflicts())
            db_refusals = len(store.refusals())
        log_text = log_path.read_text("utf-8", "replace")
        sent = set(outbox.sent())
        key_now = KeyStore(state).key
    genuine = {sign.canonical(r) for r in gen.genuine_pc}
    genuine_stored = sum(1 for r in stored_records if sign.canonical(r) in genuine)
    crash_list = crashes.seen + ([] if receiver_alive else ["the receiver exited"]) + (
        [] if thread_alive else ["the DockThread died"])
    crash_count = len(crash_list) + tracebacks(log_text)
    for line in crash_list[:10]:
        print(f"bench wirefuzz: crash: {line}", file=sys.stderr)
    forgeries = ((len(stored_records) - genuine_stored) + conflicts + len(sent - pc.acked) + int(key_now != CKEY)
                 + pairing_forgeries(pairings, pc.pushed))
    return {
        "fuzz_lines": n,
        "fuzz_crashes": crash_count,
        "fuzz_hangs": hangs,
        "fuzz_threads_lost": lost + (0 if thread_alive else 1),
        "fuzz_rss_growth_mb": round((rss1 - rss0) / 1024, 1),
        "fuzz_accepted_forgeries": forgeries,
        "fuzz_genuine_sent": len(gen.genuine_pc) + len(pc.acked),
        "fuzz_genuine_delivered": genuine_stored + len(sent & pc.acked),
        "fuzz_pushes": pc.pushed,
        "fuzz_pushes_taken": len(pairings),
        "fuzz_db_refusals": db_refusals,
        "fuzz_seconds": round(time.monotonic() - t_start, 1),
    }
