"""Shared helpers of the dock tests (issue 6): real result records fast, a clock and a PC endpoint
set up on temp folders, an in-process wire between them with a fake monotonic clock, a collector
of the endpoints' refusal logs, and a pty relay (a tiny socat) for the tests across processes.

Records: `record(seq)` is result `seq` of the clock `SERIAL` as `record_from_log` builds it from a
synthesized game (`bench.dock.game_log`: crossword or makruk, Thai names, every move's
duration, 1.6-2.1 kB of JSON; CL-5). test_endpoints checks that it equals record_from_log's own.
"""
from __future__ import annotations

import copy
import errno
import logging
import os
import random
import re
import select
import threading
import time
import tty
from collections import deque
from dataclasses import dataclass, field

from bench.dock import SERIAL, game_log, sample_record, walls  # noqa: F401 (re-exported)
from gameclock.dock import sign
from gameclock.dock.clockside import ClockEndpoint
from gameclock.dock.frame import decode, encode
from gameclock.dock.keystore import KeyStore
from gameclock.dock.pcside import ReceiverEndpoint
from gameclock.organiser.store import Store
from gameclock.persist.outbox import Outbox

NS = 1_000_000_000
OTHER = "00000000badc10c0"          # another clock's serial
KEY = bytes(range(1, 33))           # SERIAL's key in most tests
OTHER_KEY = bytes(range(101, 133))  # a key nobody enrolled (a laptop's)


def record(seq: int, serial: str = SERIAL) -> dict:
    """A fresh copy of result `seq` of clock `serial` (a real record, see the module docstring)."""
    return sample_record(seq, serial)


def records(n: int, serial: str = SERIAL, first: int = 1) -> list[dict]:
    return [record(seq, serial) for seq in range(first, first + n)]


def frame(msg: dict) -> bytes:
    """One wire frame of `msg` (BODY*CRC newline), keys in the order given."""
    return encode(dict(msg))


# ------------------------------------------------------------------------------------- endpoints

@dataclass
class ClockSide:
    """A clock's dock end on a temp state folder: its endpoint, outbox, key file, and what it showed."""
    endpoint: ClockEndpoint
    outbox: Outbox
    keys: KeyStore
    statuses: list = field(default_factory=list)
    pairings: list = field(default_factory=list)


def make_clock(state_dir, serial: str = SERIAL, key: bytes | None = KEY, results: list[dict] = (),
               nonces=None, **kw) -> ClockSide:
    """A clock holding `key` (None: not enrolled) with `results` in its outbox. `nonces`: an iterator
    of the nonces its hellos use (default: random, as on the clock)."""
    outbox = Outbox(state_dir)
    outbox.prepare()
    for rec in results:
        assert outbox.put(copy.deepcopy(rec))
    keys = KeyStore(state_dir)
    if key is not None:
        keys.set(key)
    side = ClockSide(None, outbox, keys)  # type: ignore[arg-type]
    if nonces is not None:
        it = iter(nonces)
        kw["make_nonce"] = lambda: next(it)
    side.endpoint = ClockEndpoint(serial, outbox, keys, on_pairing=side.pairings.append,
                                  on_status=side.statuses.append, **kw)
    return side


def make_store(path, keys: dict | None = None) -> Store:
    """A real PC store at `path` holding {serial: key} (default: SERIAL's KEY)."""
    store = Store(path)
    for serial, key in (keys if keys is not None else {SERIAL: KEY}).items():
        store.add_key(serial, key)
    return store


def make_pc(store, **kw) -> ReceiverEndpoint:
    kw.setdefault("name", "organiser-pc")
    kw.setdefault("source", "test")
    return ReceiverEndpoint(store, **kw)


# ------------------------------------------------------------------------------------- the wire

class Wire:
    """The two endpoints joined in-process, with a fake monotonic clock `now` (ns).

    Every frame either side sends is decoded and kept (`by_clock`, `by_pc`: (now, message)), then
    queued for the other side unless `cut_to_pc` / `cut_to_clock` (message -> bool) says it is lost on
    the way. `run(s)` moves time forward, waking each endpoint when its `next_wake` asks."""

    def __init__(self, clock: ClockEndpoint, pc: ReceiverEndpoint, now: int = 1000 * NS):
        self.clock, self.pc, self.now = clock, pc, now
        self.to_pc: deque[bytes] = deque()
        self.to_clock: deque[bytes] = deque()
        self.by_clock: list[tuple[int, dict]] = []
        self.by_pc: list[tuple[int, dict]] = []
        self.cut_to_pc = lambda msg: False
        self.cut_to_clock = lambda msg: False

    def from_clock(self, frames: list[bytes]) -> None:
        for f in frames:
            msg = decode(f)
            self.by_clock.append((self.now, msg))
            if not self.cut_to_pc(msg):
                self.to_pc.append(f)

    def from_pc(self, frames: list[bytes]) -> None:
        for f in frames:
            msg = decode(f)
            self.by_pc.append((self.now, msg))
            if not self.cut_to_clock(msg):
                self.to_clock.append(f)

    def to_pc_now(self, line: bytes) -> None:
        """Hand the PC one line (as if the clock, or an intruder, sent it) and route its answers."""
        self.from_pc(self.pc.receive(self.now, line))

    def to_clock_now(self, line: bytes) -> None:
        self.from_clock(self.clock.receive(self.now, line))

    def connect(self) -> None:
        self.from_clock(self.clock.connect(self.now))
        self.flush()

    def flush(self, limit: int = 1_000_000) -> None:
        """Deliver everything queued, and what that provokes, at the current time; like `Link.step`,
        each side is polled after it took a line."""
        n = 0
        while self.to_pc or self.to_clock:
            if self.to_pc:
                self.to_pc_now(self.to_pc.popleft())
                self.from_pc(self.pc.poll(self.now))
            if self.to_clock:
                self.to_clock_now(self.to_clock.popleft())
                self.from_clock(self.clock.poll(self.now))
            n += 1
            assert n < limit, "the endpoints keep talking at one instant"

    def poll(self) -> None:
        self.from_clock(self.clock.poll(self.now))
        self.from_pc(self.pc.poll(self.now))
        self.flush()

    def run(self, seconds: float) -> None:
        """Move `seconds` forward, polling both sides at every wake either asked for."""
        end = self.now + int(seconds * NS)
        self.poll()
        while True:
            wakes = [self.clock.next_wake()]
            pc_wake = self.pc.next_wake()
            if pc_wake is not None:
                wakes.append(pc_wake)
            wake = max(min(wakes), self.now + 1_000_000)  # a wake already due: 1 ms on
            if wake > end:
                self.now = end
                self.poll()
                return
            self.now = wake
            self.poll()

    def run_until(self, done, seconds: float = 600.0, step: float = 0.5) -> None:
        """Run until `done()` or `seconds` passed; AssertionError if it never happened."""
        end = self.now + int(seconds * NS)
        self.poll()
        while not done():
            assert self.now < end, f"not done after {seconds} s of fake time"
            self.run(step)

    def sent(self, side: str, t: str) -> list[dict]:
        """The messages of type `t` the side ("clock" or "pc") sent so far."""
        return [m for _, m in (self.by_clock if side == "clock" else self.by_pc) if m["t"] == t]


# ------------------------------------------------------------------------------------- refusal logs

REFUSAL_LOG = re.compile(r"^dock(?: \S+)?: refused(?: from \S+)?(?: result \S+)?: ([a-z][a-z0-9-]*)")
QUIET_LOG = re.compile(r"^dock(?: \S+)?: ([\d,]+) more refusals in \S+ s not logged: ")


class RefusalLog(logging.Handler):
    """Collects the dock's refusal log lines (`dock ...: refused ...: REASON (detail)`), by logger.
    As a context manager it is attached to `gameclock.dock` and keeps the flood out of pytest's
    capture (propagation off) until it leaves."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.reasons: dict[str, list[str]] = {}  # logger name -> reasons, in order
        self.quiet: dict[str, int] = {}          # logger name -> refusals the rate limit summed up
        self.unparsed: list[str] = []            # refusal-looking lines that name no reason
        self.started = time.monotonic()

    def emit(self, rec: logging.LogRecord) -> None:
        text = rec.getMessage()
        quiet = QUIET_LOG.match(text)
        if quiet:
            self.quiet[rec.name] = self.quiet.get(rec.name, 0) + int(quiet.group(1).replace(",", ""))
            return
        if "refused" not in text:
            return
        m = REFUSAL_LOG.match(text)
        if m:
            self.reasons.setdefault(rec.name, []).append(m.group(1))
        elif text.startswith("dock") and ": refused" in text.split("(")[0]:
            self.unparsed.append(text)

    def count(self, logger_suffix: str) -> int:
        """Refusals logged in full."""
        return sum(len(v) for k, v in self.reasons.items() if k.endswith(logger_suffix))

    def quiet_count(self, logger_suffix: str) -> int:
        """Refusals the rate limit counted without writing them out (its summary lines)."""
        return sum(v for k, v in self.quiet.items() if k.endswith(logger_suffix))

    def reset(self, logger_suffix: str) -> None:
        for table in (self.reasons, self.quiet):
            for k in [k for k in table if k.endswith(logger_suffix)]:
                del table[k]
        self.started = time.monotonic()

    def __enter__(self) -> RefusalLog:
        self._logger = logging.getLogger("gameclock.dock")
        self._propagate = self._logger.propagate
        self._logger.addHandler(self)
        self._logger.propagate = False
        return self

    def __exit__(self, *exc) -> None:
        self._logger.removeHandler(self)
        self._logger.propagate = self._propagate


# ------------------------------------------------------------------------------------- pty relay

class PtyRelay:
    """Two ptys joined master to master by a thread: what a program writes to `path_a` is read at
    `path_b` and the other way round, like a null-modem cable (or `socat`).

    The parent keeps both slaves open (raw mode), so a program on either end can die and a new one
    open the same path without the other end seeing a hang-up. Writes into a master never block:
    at most `cap` bytes wait per direction (a dead reader's), the rest is dropped and counted.
    `garble` (per byte: flip one random bit) and `drop` (per byte: lose it) make a noisy line, drawn
    from `rng`. `bytes_ab` / `bytes_ba`: bytes carried each way; `mangled`: bytes flipped or lost."""

    def __init__(self, garble: float = 0.0, drop: float = 0.0, rng: random.Random | None = None,
                 cap: int = 256 * 1024):
        self.master_a, self.slave_a = os.openpty()
        self.master_b, self.slave_b = os.openpty()
        for fd in (self.slave_a, self.slave_b):
            tty.setraw(fd)
        for fd in (self.master_a, self.master_b):
            os.set_blocking(fd, False)
        self.path_a, self.path_b = os.ttyname(self.slave_a), os.ttyname(self.slave_b)
        self.garble, self.drop, self.cap = garble, drop, cap
        self.rng = rng or random.Random(0)
        self.bytes_ab = self.bytes_ba = self.dropped = self.mangled = 0
        self._waiting = {self.master_a: bytearray(), self.master_b: bytearray()}
        self._stop = threading.Event()
        self._next_event = self._gap()
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pty relay", daemon=True)
        self._thread.start()

    def _gap(self) -> int:
        p = self.garble + self.drop
        return int(self.rng.expovariate(p)) if p > 0 else -1

    def _mangle(self, data: bytes) -> bytes:
        if self._next_event < 0:
            return data
        out = bytearray()
        i = 0
        while i + self._next_event < len(data):
            j = i + self._next_event
            out += data[i:j]
            self.mangled += 1
            if self.rng.random() * (self.garble + self.drop) < self.garble:
                out.append(data[j] ^ (1 << self.rng.randrange(8)))
            i = j + 1
            self._next_event = self._gap()
        self._next_event -= len(data) - i
        out += data[i:]
        return bytes(out)

    def _run(self) -> None:
        a, b = self.master_a, self.master_b
        try:
            while not self._stop.is_set():
                writable = [fd for fd, buf in self._waiting.items() if buf]
                ready, can_write, _ = select.select([a, b], writable, [], 0.05)
                for fd in ready:
                    try:
                        data = os.read(fd, 65536)
                    except (BlockingIOError, InterruptedError):
                        continue
                    except OSError as exc:
                        if exc.errno == errno.EIO:  # cannot happen while we hold the slave; be safe
                            continue
                        raise
                    if fd == a:
                        self.bytes_ab += len(data)
                    else:
                        self.bytes_ba += len(data)
                    data = self._mangle(data)
                    buf = self._waiting[b if fd == a else a]
                    room = max(0, self.cap - len(buf))
                    if len(data) > room:
                        self.dropped += len(data) - room
                        data = data[:room]
                    buf += data
                for fd in can_write:
                    buf = self._waiting[fd]
                    try:
                        n = os.write(fd, buf)
                    except (BlockingIOError, InterruptedError):
                        continue
                    del buf[:n]
        except BaseException as exc:  # the test asserts relay.error is None
            self.error = exc

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for fd in (self.master_a, self.slave_a, self.master_b, self.slave_b):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> PtyRelay:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def kid(key: bytes) -> str:
    return sign.key_id(key)
