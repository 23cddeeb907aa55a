"""`python -m bench receiver`: the real `gameclock receive` under a hello flood and hostile frames, then
genuine clocks uploading through the same ports (issue 13: the receiver stays bounded and keeps serving).

A `gameclock receive --port A --port B --db DB` child process (`python -m gameclock`, the gameclock this
bench imports first on PYTHONPATH) serves two ptys (`bench.ptywire.PtyEnd`: the receiver opens the
slaves, this process talks on the masters). The database holds the keys of two clocks (SERIAL, SERIAL_B).

1. Hello flood, port A: HELLOS hellos (50,000; GAMECLOCK_BENCH_HELLOS sets another number), each from a
   NEW serial (`flood000001` ...; every other one naming a key id nobody has), written as fast as the
   receiver reads them (the pty is the back-pressure) while a thread drains what it writes back. The
   receiver's RSS (VmRSS, /proc/PID/status) and the database's size (file + -wal) are read after the
   first tenth (5,000: the warm-up) has been answered, and again once the last hello has been answered.
2. Hostile frames, both ports (after a hello as the port's enrolled clock, so results reach the
   signature check): a result nested 987 deep (and one 100,000 deep) with the right id and serial; a
   300 KiB frame and a 1 MiB line; 64 KiB of random bytes; NaN, a 5,000-digit integer, bad UTF-8, JSON
   that is not an object, an upper-case CRC; a result signed with another key, an altered record under
   its original signature, another clock's result; out-of-place acks, naks and enrollment steps; hellos
   of protocol 1 and 99; 10,000 empty lines; and last, half a line of garbage with no newline (the
   genuine clock's first hello after it is lost: it says hello again 2 s later, as a clock does).
3. A genuine clock on each port: the device's real `DockThread` (its opener hands it the pty master)
   with 5 results signed with its enrolled key in a temp state folder; an upload is complete when its
   outbox is empty (every result acked with a MAC that verifies and moved to sent/).
Then SIGTERM.

Figures:
  receiver_hellos               hellos of the flood sent
  receiver_hellos_answered      welcomes the receiver wrote back to them (all of them: it never stalls)
  receiver_hellos_per_s         hellos answered per second (the whole flood, first write to last welcome)
  receiver_hello_flood_rss_mb   the receiver's RSS growth from the warm-up to the flood's end, MiB (0.1);
                                a port remembers 32 dockings, so it must stay near 0
  receiver_hello_flood_db_kb    the database's growth (file + -wal) over the same span, KiB (0.1): no
                                `clocks` row for a serial without a key, so near 0
  receiver_log_kb               what the receiver wrote on stdout and stderr over the whole run, KiB
                                (refusals are logged at most 20 a minute; a hello of an unenrolled clock
                                is one warning line each)
  receiver_ports_lost           ports on which the genuine upload did not complete within 30 s (must be 0)
  receiver_genuine_stored       results in the database at the end (2 x 5 genuine ones: 10)
  receiver_refused_results      rows of the database's refusals table (the forged results refused)
  receiver_tracebacks           tracebacks in the receiver's output (a handler or a port that failed; 0)
  receiver_alive                1 if the receiver was still running before the SIGTERM
  receiver_exit_status          its exit status after the SIGTERM (0: it stopped cleanly; -9: it had to be
                                killed after 15 s)
  receiver_seconds              wall time of the whole bench
"""
from __future__ import annotations

import json
import os
import queue
import random
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from bench.dock import sample_record
from bench.ptywire import PtyEnd, db_bytes, rss_kib, start_receiver, stop_receiver, tracebacks
from gameclock.device.dock import DockThread
from gameclock.dock import sign
from gameclock.dock.frame import encode
from gameclock.dock.keystore import KeyStore
from gameclock.dock.link import FdPort
from gameclock.dock.messages import PROTO
from gameclock.organiser.store import Store
from gameclock.persist.outbox import Outbox

ENV_HELLOS = "GAMECLOCK_BENCH_HELLOS"
SERIAL = "00000000c0ffee01"
SERIAL_B = "00000000c0ffee02"
KEY = bytes(range(1, 33))
KEY_B = bytes(range(33, 65))
OTHER_KEY = bytes(range(101, 133))  # nobody's
GENUINE = 5          # results of each genuine clock
UPLOAD_S = 30.0      # a genuine upload not complete after this: the port is lost
BATCH = 64           # hellos per write


def framed(body: bytes) -> bytes:
    """`body` as a frame with its right CRC, whatever it is."""
    return body + b"*%08x\n" % zlib.crc32(body)


def hello(serial: str, key: bytes | None, nonce: str, m: int | None = None, kid: str | None = None,
          proto: int = PROTO) -> dict[str, Any]:
    msg: dict[str, Any] = {"t": "hello", "proto": proto, "serial": serial, "fw": "bench", "nonce": nonce,
                           "kid": kid if kid is not None else (sign.key_id(key) if key else None),
                           "pending": 0, "event": None, "round": None, "table": None}
    if m is not None:
        msg["m"] = m
    return msg


def deep_result(serial: str, depth: int) -> bytes:
    """A result frame whose record has the right id and serial and a value nested `depth` deep."""
    rid = f"{serial}-000999"
    body = json.dumps({"t": "result", "m": 7, "id": rid,
                       "rec": {"id": rid, "clock": {"serial": serial, "seq": 999}, "moves": "DEEP"},
                       "sig": "0" * 64}, separators=(",", ":")).encode()
    return framed(body.replace(b'"DEEP"', b"[" * depth + b"]" * depth))


def hostile_lines(rng: random.Random, serial: str, key: bytes) -> list[bytes]:
    """Step 2's frames for the port whose enrolled clock is `serial` (see the module docstring)."""
    rec = sample_record(900, serial)
    altered = dict(rec, players={"left": "Mallory", "right": "Eve"})
    other = sample_record(901, "00000000badc10c0")
    forged = [(rec, sign.sign_result(OTHER_KEY, rec)), (altered, sign.sign_result(key, rec)),
              (other, sign.sign_result(key, other)), (dict(rec, id=f"{serial}-000902"), sign.sign_result(key, rec))]
    out = [encode(hello(serial, key, rng.randbytes(16).hex(), m=1))]
    out += [deep_result(serial, 987), deep_result(serial, 100_000)]
    out.append(encode({"t": "ping", "m": 2, "pad": "x" * (300 * 1024)}))
    out.append(b"{" * (1024 * 1024) + b"\n")
    out.append(rng.randbytes(64 * 1024) + b"\n")
    out += [framed(b'{"t":"ping","m":NaN}'), framed(b'{"t":"ping","m":Infinity}'),
            framed(b'{"t":"ping","m":' + b"9" * 5000 + b"}"), framed(b'{"t":"ping","m":1e400}'),
            framed(b'{"t":"ping","m":1,"x":"\xff\xfe"}'), framed(b"[1,2,3]"), framed(b'"ping"'), framed(b"null"),
            framed(b'{"t":"ping","m":1,"t":"result"}'), framed(b'{"t":"ping"'),
            b'{"t":"ping","m":3}*%08X\n' % zlib.crc32(b'{"t":"ping","m":3}')]
    for i, (r, sig) in enumerate(forged):
        out.append(encode({"t": "result", "m": 10 + i, "id": r["id"], "rec": r, "sig": sig}))
    out += [encode({"t": "ack", "m": 20, "re": 1}), encode({"t": "nak", "m": 21, "re": 1, "reason": "x" * 40}),
            encode({"t": "enroll-confirm", "m": 22, "mac": "0" * 64, "old": None}),
            encode({"t": "enroll-reveal", "m": 23, "re": 1, "nonce": "0" * 32}),
            encode({"t": "enroll-cancel", "m": 24, "reason": "declined"}),
            encode({"t": "ping", "m": 25, **{f"f{i}": i for i in range(1000)}}),
            encode({"t": "x" * 10000, "m": 26}),
            encode(hello(serial, key, rng.randbytes(16).hex(), m=27, proto=1)),
            encode(hello(serial, key, rng.randbytes(16).hex(), m=28, proto=99)),
            b"\n" * 10_000, b"\r\n" * 1000, b"\x00" * 1000 + b"\n"]
    out.append(rng.randbytes(200).replace(b"\n", b" "))  # half a line, never ended
    return out


def flood(end: PtyEnd, first: int, last: int, rng: random.Random, timeout: float) -> int:
    """Hellos `first`..`last` (each its own serial) into `end`; wait until each is answered (at most
    `timeout` s after the last write). Returns the welcomes counted when it stopped waiting."""
    base = end.counts["welcome"]
    batch: list[bytes] = []
    for i in range(first, last + 1):
        kid = rng.randbytes(8).hex() if i % 2 else None
        batch.append(encode(hello(f"flood{i:06d}", None, rng.randbytes(16).hex(), m=i, kid=kid)))
        if len(batch) == BATCH or i == last:
            if not end.write(b"".join(batch), timeout=timeout):
                break
            batch = []
    want = last - first + 1
    deadline = time.monotonic() + timeout
    while end.counts["welcome"] - base < want and time.monotonic() < deadline:
        time.sleep(0.01)
    return end.counts["welcome"] - base


def genuine_clock(end: PtyEnd, state: Path, serial: str, key: bytes) -> tuple[DockThread, Outbox]:
    """The device's DockThread on `end` (its master, duplicated), `GENUINE` signed results waiting."""
    outbox = Outbox(state)
    outbox.prepare()
    for seq in range(1, GENUINE + 1):
        outbox.put(sample_record(seq, serial))
    KeyStore(state).set(key)
    inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
    thread = DockThread(end.path, state, serial, outbox, inbox.put,
                        opener=lambda path: FdPort(os.dup(end.master), path))
    thread.start()
    return thread, outbox


def bench_receiver(n: int | None = None, seed: int = 21) -> dict:
    n = n if n is not None else int(os.environ.get(ENV_HELLOS, "50000"))
    warm = max(1, n // 10)
    rng = random.Random(seed)
    t_start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gameclock-bench-receiver-") as tmp:
        work = Path(tmp)
        db = work / "pc.db"
        with Store(db) as store:
            store.add_key(SERIAL, KEY)
            store.add_key(SERIAL_B, KEY_B)
        ends = [PtyEnd(), PtyEnd()]
        clocks = [(SERIAL, KEY), (SERIAL_B, KEY_B)]
        log_path = work / "receiver.log"
        threads: list[DockThread] = []
        with open(log_path, "wb") as log_file:
            proc = start_receiver([e.path for e in ends], db, log_file)
            try:
                for end, (serial, key) in zip(ends, clocks, strict=True):
                    end.start_reading()
                    end.hello_until(hello(serial, key, rng.randbytes(16).hex()), timeout=20.0)
                # 1. the flood, port A
                a = ends[0]
                a.keep = False
                t0 = time.monotonic()
                answered = flood(a, 1, warm, rng, timeout=60.0)
                rss0, db0 = rss_kib(proc.pid), db_bytes(db)
                answered += flood(a, warm + 1, n, rng, timeout=60.0)
                flood_s = time.monotonic() - t0
                rss1, db1 = rss_kib(proc.pid), db_bytes(db)
                a.keep = True
                # 2. hostile frames, both ports
                for end, (serial, key) in zip(ends, clocks, strict=True):
                    for line in hostile_lines(rng, serial, key):
                        end.write(line, timeout=10.0)
                time.sleep(0.5)  # let the receiver read the last of them
                # 3. a genuine clock on each port
                outboxes = []
                for i, (end, (serial, key)) in enumerate(zip(ends, clocks, strict=True)):
                    end.stop_reading()
                    thread, outbox = genuine_clock(end, work / f"clock{i}", serial, key)
                    threads.append(thread)
                    outboxes.append(outbox)
                deadline = time.monotonic() + UPLOAD_S
                while time.monotonic() < deadline and any(o.pending() for o in outboxes):
                    time.sleep(0.05)
                lost = sum(1 for o in outboxes if o.pending() or len(o.sent()) != GENUINE)
                alive = int(proc.poll() is None)
            finally:
                for thread in threads:
                    thread.close()
                status = stop_receiver(proc)
                for end in ends:
                    end.close()
        with Store(db) as store:
            stored = len(store.results())
            refused = len(store.refusals())
        log_text = log_path.read_text("utf-8", "replace")
        log_kb = log_path.stat().st_size / 1024
    return {
        "receiver_hellos": n,
        "receiver_hellos_answered": answered,
        "receiver_hellos_per_s": round(answered / flood_s, 1) if flood_s > 0 else 0.0,
        "receiver_hello_flood_rss_mb": round((rss1 - rss0) / 1024, 1),
        "receiver_hello_flood_db_kb": round((db1 - db0) / 1024, 1),
        "receiver_log_kb": round(log_kb, 1),
        "receiver_ports_lost": lost,
        "receiver_genuine_stored": stored,
        "receiver_refused_results": refused,
        "receiver_tracebacks": tracebacks(log_text),
        "receiver_alive": alive,
        "receiver_exit_status": status,
        "receiver_seconds": round(time.monotonic() - t_start, 1),
    }
