"""`python -m bench dock`: a clock uploading its outbox to the organiser's PC over a pty.

Two threads in this process, each running a `dock.link.Link` (the code `gameclock upload` and
`gameclock receive` run) over one end of ONE pty pair (`os.openpty`, the slave in raw mode): the
clock's `ClockEndpoint` on the master, with a real `persist.outbox.Outbox` in a temp state folder
holding `DOCK_RESULTS` (default 1000) real-size result records, and the PC's `ReceiverEndpoint` on
the slave, with a real `dock.store.Store` (SQLite, WAL, synchronous FULL) in a temp file that
already holds the clock's key. Every result is signed, checked, stored durably, acked with a MAC and
moved to sent/ (rename + fsync) exactly as when docked; only the serial line is a pty, which carries
bytes as fast as the two threads take them (no baud rate: see the last figure for a UART's).

The records are built by `record_from_log` from synthesized event logs (`game_log`): crossword games
of 11-15 turns a side with scores, and makruk-45 games of 30-45 moves a side with material, Thai
player names, event, round and table; 1.6-2.1 kB of compact JSON each (every move's duration is in
the record, CL-5). Fixed seed.

Figures:
  upload_results_per_s     results / the time from the clock's first hello to its outbox being empty
                           (every result acked and in sent/)
  wire_bytes_per_result    every byte both sides wrote (hello, welcome, results, acks, any pings)
                           divided by the number of results
  wire_overhead_ratio      those bytes / the sum of the records' compact JSON,
                           json.dumps(rec, separators=(",", ":"), ensure_ascii=False) in UTF-8
                           (target <= 1.5)
  seconds_for_1000_at_115200   wire_bytes_per_result * 1000 * 10 / 115200: the wire time of 1000
                           results on a 115200 baud 8N1 UART (10 bits a byte); a USB gadget is faster
  dock_results, dock_wire_bytes, dock_record_json_bytes, dock_upload_s   the run's own numbers

Shorter runs (tests): GAMECLOCK_BENCH_DOCK_RESULTS, or the argument of `bench_dock()`.
"""
from __future__ import annotations

import copy
import functools
import json
import os
import random
import tempfile
import threading
import time
import tty

ENV_RESULTS = "GAMECLOCK_BENCH_DOCK_RESULTS"
SERIAL = "00000000c0ffee01"
BAUD = 115200
BITS_PER_BYTE = 10  # 8N1: start bit, 8 data bits, stop bit
TEMPLATES = 8       # distinct games; record n is game n % TEMPLATES with its own id, seq and times
WALL0 = 1_795_000_000.0  # 2026-11-18T09:46:40Z, the first game's start
PLAYERS = (("สมชาย ใจดี", "มาลี ศรีสุข"), ("Somchai", "Malee"), ("ประเสริฐ วงศ์ใหญ่", "Nok"),
           ("วิชัย", "สุดารัตน์ แก้วมณี"))


def game_log(k: int) -> str:
    """The event log of game k: even k a crossword game, odd k a makruk-45 game (seeded by k)."""
    rng = random.Random(1000 + k)
    left, right = PLAYERS[k % len(PLAYERS)]
    makruk = k % 2 == 1
    # a secondary-school Crossword game (XW-8: the level is the game's set-up) or a Makruk one
    lines = ["preset makruk-45" if makruk else "preset crossword\nlevel secondary", "event bangkok-open-2026",
             f"round {1 + k % 7}", f"table {1 + (7 * k) % 40}", f"player left {left}",
             f"player right {right}", "0 start left"]
    t, side = 0.0, "left"
    turns = rng.randint(30, 45) if makruk else rng.randint(11, 15)
    for _ in range(2 * turns):
        t += round(rng.uniform(3, 40) if makruk else rng.uniform(20, 110), 1)
        lines.append(f"{t:.1f} press {side}")
        side = "right" if side == "left" else "left"
    t += round(rng.uniform(5, 30), 1)
    lines.append(f"{t:.1f} finish")
    if makruk:
        lines += [f"{t + 10:.1f} outcome left resignation", f"{t + 11:.1f} material left RSSP",
                  f"{t + 12:.1f} material right NP"]
    else:
        lines += [f"{t + 10:.1f} score left {rng.randint(300, 520)}",
                  f"{t + 12:.1f} score right {rng.randint(300, 520)}"]
    lines += [f"{t + 15:.1f} confirm left", f"{t + 16:.1f} confirm right"]
    return "\n".join(lines) + "\n"


def walls(seq: int) -> tuple[float, float]:
    """(started, ended) wall times of result `seq`: one game an hour, each lasting 50 minutes."""
    start = WALL0 + 3600.0 * seq
    return start, start + 3000.0


@functools.cache
def _template(k: int) -> str:
    from gameclock.record import record_from_log

    start, end = walls(0)
    return json.dumps(record_from_log(game_log(k), f"game-{k}.log", "X", 0, start, end))


def sample_record(seq: int, serial: str = SERIAL) -> dict:
    """Result `seq` of clock `serial`: what `record_from_log(game_log(seq % TEMPLATES), ..., serial,
    seq, *walls(seq))` returns (the fields the serial, seq and wall times reach are set on a copy of
    the game's record: fast)."""
    from gameclock.record import iso_utc, record_id

    rec = json.loads(_template(seq % TEMPLATES))
    start, end = walls(seq)
    rec["id"] = record_id(serial, seq)
    rec["clock"]["serial"] = serial
    rec["clock"]["seq"] = seq
    rec["started"], rec["ended"] = iso_utc(start), iso_utc(end)
    return rec


def sample_records(n: int, serial: str = SERIAL, first: int = 1) -> list[dict]:
    return [sample_record(seq, serial) for seq in range(first, first + n)]


def compact_json_bytes(record: dict) -> int:
    return len(json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def upload_over_pty(records: list[dict], state_dir: str, db_path: str, timeout_s: float = 600.0) -> dict:
    """Run the upload described in the module docstring; returns the raw numbers."""
    from gameclock.dock import sign
    from gameclock.dock.clockside import ClockEndpoint
    from gameclock.dock.keystore import KeyStore
    from gameclock.dock.link import FdPort, Link
    from gameclock.dock.pcside import ReceiverEndpoint
    from gameclock.organiser.store import Store
    from gameclock.persist.outbox import Outbox

    outbox = Outbox(state_dir)
    outbox.prepare()
    for rec in records:
        outbox.put(copy.deepcopy(rec))
    key = bytes(range(1, 33))
    keys = KeyStore(state_dir)
    keys.set(key)
    serial = records[0]["clock"]["serial"]
    store = Store(db_path)
    store.add_key(serial, key)

    master, slave = os.openpty()
    tty.setraw(slave)
    clock_link = Link(FdPort(master, "pty master"), ClockEndpoint(serial, outbox, keys))
    pc_link = Link(FdPort(slave, "pty slave"), ReceiverEndpoint(store, source="pty", name="bench"))
    done, stop = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def serve_pc() -> None:
        try:
            pc_link.start()
            while not stop.is_set():
                pc_link.step(0.05)
        except BaseException as exc:  # reported by the caller
            errors.append(exc)
            done.set()

    def serve_clock() -> None:
        try:
            clock_link.start()
            while not clock_link.endpoint.status.done:
                clock_link.step(0.05)
        except BaseException as exc:
            errors.append(exc)
        finally:
            done.set()

    pc = threading.Thread(target=serve_pc, name="bench pc", daemon=True)
    clock = threading.Thread(target=serve_clock, name="bench clock", daemon=True)
    t0 = time.perf_counter()
    pc.start()
    clock.start()
    finished = done.wait(timeout_s)
    elapsed = time.perf_counter() - t0
    stop.set()
    clock.join(5)
    pc.join(5)
    try:
        if errors:
            raise RuntimeError(f"bench dock: a link failed: {errors[0]!r}") from errors[0]
        if not finished:
            raise RuntimeError(f"bench dock: not done after {timeout_s:g} s "
                               f"({len(outbox.sent())} of {len(records)} sent)")
        stored = store.count_results()
        return {
            "results": len(records),
            "stored": stored,
            "sent": len(outbox.sent()),
            "pending": len(outbox.pending()),
            "seconds": elapsed,
            "clock_bytes_out": clock_link.bytes_out, "clock_bytes_in": clock_link.bytes_in,
            "pc_bytes_out": pc_link.bytes_out, "pc_bytes_in": pc_link.bytes_in,
            "record_json_bytes": sum(compact_json_bytes(r) for r in records),
            "kid": sign.key_id(key),
        }
    finally:
        store.close()
        for fd in (master, slave):
            try:
                os.close(fd)
            except OSError:
                pass


def figures(raw: dict) -> dict:
    """The bench's figures from `upload_over_pty`'s numbers."""
    n = raw["results"]
    wire = raw["clock_bytes_out"] + raw["pc_bytes_out"]
    per_result = wire / n
    return {
        "upload_results_per_s": round(n / raw["seconds"], 1),
        "wire_bytes_per_result": round(per_result, 1),
        "wire_overhead_ratio": round(wire / raw["record_json_bytes"], 4),
        "seconds_for_1000_at_115200": round(per_result * 1000 * BITS_PER_BYTE / BAUD, 2),
        "dock_results": n,
        "dock_wire_bytes": wire,
        "dock_record_json_bytes": raw["record_json_bytes"],
        "dock_upload_s": round(raw["seconds"], 3),
    }


def bench_dock(n: int | None = None) -> dict:
    n = int(os.environ.get(ENV_RESULTS, "1000")) if n is None else n
    records = sample_records(n)
    with tempfile.TemporaryDirectory(prefix="gameclock-bench-dock-") as tmp:
        raw = upload_over_pty(records, os.path.join(tmp, "state"), os.path.join(tmp, "pc.db"))
    if raw["stored"] != n or raw["sent"] != n or raw["pending"]:
        raise RuntimeError(f"bench dock: {raw['stored']} stored, {raw['sent']} sent, "
                           f"{raw['pending']} pending of {n}")
    return figures(raw)
