"""A tournament round for the desk's end-to-end tests (issue 17): a fresh organiser's database with an
event the PC pairs (xw10, Crossword, secondary level, eight players), enrolled clocks whose keys the
store holds, the signed results of a round as the clocks build them (`record_from_log` of each
table's event log), and a real `gameclock receive` child process (bench/ptywire.py) serving one pty
per clock, writing into the database the desk serves.

Each table's game is fixed here by its SEAT (table 1's left player, ...), never by who was drawn
there: the desk's Pair button draws round 1 at random (XW-10), so the players come from the
published pairings and the hand-worked standings are written per seat (test_desk_e2e.py).

    db = make_db(tmp_path)                         # the event, the clocks' keys
    with Dock(db, tmp_path) as dock:               # gameclock receive on four ptys
        side = dock.dock(1, [record])              # clock 1 docks, sends, is acked (blocks)
"""
from __future__ import annotations

import copy
import os
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.ptywire import start_receiver, stop_receiver
from gameclock.dock.clockside import ClockEndpoint
from gameclock.dock.keystore import KeyStore
from gameclock.dock.link import FdPort, Link
from gameclock.organiser import event as events
from gameclock.organiser.desk import auth
from gameclock.organiser.pairing import model
from gameclock.organiser.store import Store
from gameclock.persist.outbox import Outbox
from gameclock.record import record_from_log

EVENT = "xw-e2e"
PASSWORD = "correct horse battery"
PLAYERS = [  # id, name, latin
    ("1", "สมชาย ใจดี", "Somchai Jaidee"), ("2", "มาลี ศรีสุข", "Malee Srisuk"),
    ("3", "Anan Wongthong", ""), ("4", "บุญมี มีสุข", "Boonmee Meesuk"),
    ("5", "Chaiwat Deelert", ""), ("6", "ดวงใจ แก้วงาม", "Duangjai Kaewngam"),
    ("7", "Ekkachai Thongdee", ""), ("8", "ฟ้าใส ใจงาม", "Fahsai Jai-ngam"),
]
TABLES = 4
WALL0 = 1_795_000_000.0  # 2026-11-18T09:46:40Z


def serial_of(table: int) -> str:
    """The clock at `table` (16 hex digits, as the clocks' serials)."""
    return f"00000000e2e0000{table:x}"


def key_of(table: int) -> bytes:
    return bytes([table]) * 32


@dataclass(frozen=True)
class Game:
    """What happens at a table, by seat: each side's move times (s; left starts, the sides alternate,
    the game is finished 5 s into left's next turn), the scores entered at the clock."""
    left_moves: tuple[float, ...]
    right_moves: tuple[float, ...]
    left_score: int
    right_score: int


def game_log(event: str, rnd: int, table: int, left: str, right: str, g: Game) -> str:
    """The clock's event log of the game (header, presses, finish, the result entered and confirmed)."""
    lines = ["preset crossword", "level secondary", f"event {event}", f"round {rnd}", f"table {table}",
             f"player left {left}", f"player right {right}", "0 start left"]
    t = 0.0
    for a, b in zip(g.left_moves, g.right_moves, strict=True):
        t += a
        lines.append(f"{t:.1f} press left")
        t += b
        lines.append(f"{t:.1f} press right")
    t += 5.0
    lines += [f"{t:.1f} finish", f"{t + 10:.1f} score left {g.left_score}",
              f"{t + 12:.1f} score right {g.right_score}", f"{t + 15:.1f} confirm left",
              f"{t + 16:.1f} confirm right"]
    return "\n".join(lines) + "\n"


def clock_record(table: int, seq: int, event: str, rnd: int, left: str, right: str, g: Game) -> dict[str, Any]:
    """The result record the clock at `table` builds of the game (its serial, its `seq`-th result)."""
    start = WALL0 + 3600.0 * rnd + 60.0 * table
    return record_from_log(game_log(event, rnd, table, left, right, g), f"t{table}.log", serial_of(table), seq,
                           start, start + 3000.0)


def make_db(folder: Path, event: str = EVENT) -> Path:
    """A fresh organiser's database: the event (xw10, 6 qualifying rounds, Crossword preset, secondary
    level, English pages) with PLAYERS, and the keys of the clocks of tables 1-TABLES (enrolled)."""
    db = folder / "organiser.db"
    with Store(db) as store:
        for t in range(1, TABLES + 1):
            store.add_key(serial_of(t), key_of(t))
        plist = events.PlayerList([model.Player(id=i, name=n, latin=lat, level="secondary") for i, n, lat in PLAYERS])
        events.create_event(store, event, "xw10", plist, rounds=6, language="en", preset="crossword",
                            level="secondary")
    return db


ORGANISER = "organiser"    # the organiser's account's name


def set_password(db: Path, password: str = PASSWORD, name: str = ORGANISER) -> None:
    """The organiser's account as /setup makes it (for the tests that do not test /setup)."""
    with Store(db) as store:
        assert store.add_account(name, "organiser", auth.hash_password(password), auth.new_epoch(), by=name, first=True)


def publish_round(db: Path, event: str = EVENT, seed: int = 20261118) -> dict[str, Any]:
    """Draw and publish the next round with event.py (as `gameclock pair --publish` does)."""
    with Store(db) as store:
        events.draw(store, event, seed=seed)
        return events.publish(store, event)


def published_tables(store: Store, event: str, rnd: int) -> dict[int, tuple[str, str]]:
    """{table: (left name, right name)} of the round as published to the clocks."""
    return {p["table"]: (p["players"]["left"], p["players"]["right"])
            for p in store.pairings() if p["event"] == event and p["round"] == rnd}


@dataclass
class Clock:
    """A docked clock's end: its endpoint, outbox, and the pairings the PC pushed to it."""
    table: int
    endpoint: ClockEndpoint
    outbox: Outbox
    pairings: list[dict[str, Any]] = field(default_factory=list)


class Dock:
    """`gameclock receive --db DB --port P1 ... --port Pn` (a child process), each port the slave of a
    pty whose master a clock's link uses when it docks. This process keeps every slave open too, so
    a clock undocking (its link stopping) never hangs the receiver's port up."""

    def __init__(self, db: Path, folder: Path, ports: int = TABLES):
        self.db, self.folder = db, folder
        self.ptys = []
        for _ in range(ports):
            master, slave = os.openpty()
            tty.setraw(slave)
            self.ptys.append((master, slave, os.ttyname(slave)))
        self.log_path = folder / "receive.out"
        self._out = open(self.log_path, "wb")
        self.proc = start_receiver([p[2] for p in self.ptys], db, self._out)
        self._wait_open()

    def _wait_open(self, timeout: float = 15.0) -> None:
        """Until the receiver holds every port open (its /proc fds): a clock's first hello is then
        heard, not dropped with what arrived before the port was opened."""
        wanted = {p[2] for p in self.ptys}
        end = time.monotonic() + timeout
        while True:
            assert self.proc.poll() is None, f"gameclock receive ended:\n{self.output()}"
            fds = Path(f"/proc/{self.proc.pid}/fd")
            opened = set()
            for fd in fds.iterdir() if fds.exists() else ():
                try:
                    opened.add(os.readlink(fd))
                except OSError:
                    pass
            if wanted <= opened:
                time.sleep(0.1)  # pyserial's flush right after its open
                return
            assert time.monotonic() < end, f"gameclock receive did not open {wanted - opened}:\n{self.output()}"
            time.sleep(0.02)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def dock(self, table: int, records: list[dict[str, Any]], event: str = EVENT, rnd: int = 1,
             timeout: float = 20.0, at: int | None = None, pairing: bool = True) -> Clock:
        """The clock of `table` (enrolled: its key is in the store) docks on port `table` holding
        `records`, says which table it is at (`at`, default `table`: a clock set to the wrong table
        says another), and runs its link until the PC has acked every result and pushed the table's
        pairing (`pairing` False: a clock whose event the PC does not know gets none, so only the acks
        are waited for). AssertionError (with the receiver's output) after `timeout` s."""
        state = self.folder / f"clock-{table}"
        outbox = Outbox(state)
        outbox.prepare()
        for rec in records:
            assert outbox.put(copy.deepcopy(rec))
        keys = KeyStore(state)
        keys.set(key_of(table))
        clock = Clock(table, None, outbox)  # type: ignore[arg-type]
        clock.endpoint = ClockEndpoint(serial_of(table), outbox, keys, on_pairing=clock.pairings.append,
                                       info=lambda: {"event": event, "round": rnd, "table": at or table})
        master = self.ptys[table - 1][0]
        link = Link(FdPort(os.dup(master), f"clock {table}"), clock.endpoint)
        end = time.monotonic() + timeout
        try:
            link.start()
            while not (clock.endpoint.status.done and (clock.pairings or not pairing)):
                assert self.proc.poll() is None, f"gameclock receive ended:\n{self.output()}"
                assert time.monotonic() < end, (f"clock {table}: not done within {timeout} s "
                                                f"({clock.endpoint.status}):\n{self.output()}")
                link.step(0.05)
        finally:
            link.port.close()  # type: ignore[attr-defined]  # the dup: the pty itself stays open
        # every record sent and acked (a clock docking again keeps what it sent before: its outbox is its own)
        assert outbox.pending() == [] and {r["id"] for r in records} <= set(outbox.sent())
        return clock

    def close(self) -> int:
        """Stop the receiver (SIGTERM: it prints its summary) and close the ptys; its exit status."""
        rc = stop_receiver(self.proc)
        self._out.close()
        ptys, self.ptys = self.ptys, []
        for master, slave, _ in ptys:
            for fd in (master, slave):
                try:
                    os.close(fd)
                except OSError:
                    pass
        return rc

    def __enter__(self) -> Dock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
