"""Issue 26 across processes: a real `gameclock receive` child process on one end of pty "cables"
(`dockkit.PtyRelay`), real clock ends on the other (`devicekit.DeviceClock`: the loop and the dock thread as on
the clock), the rounds published by `gameclock pair --publish`, a process of its own, as the organiser does.

What was seen: a round published while clocks were docked reached none of them (each had to be unplugged and
plugged in again), and an event with a Thai name never reached a clock at all (the PC looked the pairing up by
the clock's Event setting, a number). Now every clock docked gets the round within seconds, and a clock the
organiser assigned to (event, table) serves that table of that event whatever its own settings say.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

from devicekit import DeviceClock
from dockkit import PtyRelay

from bench.ptywire import start_receiver, stop_receiver
from gameclock.organiser import event as events
from gameclock.organiser.store import Store
from gameclock.ui import menu as menus

REPO = Path(__file__).resolve().parents[2]
THAI = "ครอสเวิร์ด-ม.ปลาย-2568"
PLAYERS = "id,name\n1,อนันต์ ศรีสุข\n2,บุญมี ใจดี\n3,ชัยวัฒน์ ดีเลิศ\n4,ดวงใจ แก้วงาม\n".encode()
SERIALS = ("00000000c10c0001", "00000000c10c0002")
KEYS = (bytes([1]) * 32, bytes([2]) * 32)


def make_db(tmp_path: Path, name: str) -> Path:
    """The organiser's database: a Crossword event (xw10) of four players, the two clocks enrolled."""
    db = tmp_path / "pc.db"
    with Store(db) as store:
        for serial, key in zip(SERIALS, KEYS, strict=True):
            store.add_key(serial, key)
        events.create_event(store, name, "xw10", events.read_players(PLAYERS, "players.csv", tsh=False), rounds=3)
    return db


def gameclock(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gameclock", *argv], cwd=REPO, capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, PYTHONIOENCODING="utf-8"))


def published(db: Path, name: str, rnd: int) -> dict[int, tuple[str, str]]:
    """{table: (left, right)} of round `rnd` as published to the clocks."""
    with Store(db) as store:
        return {p["table"]: (p["players"]["left"], p["players"]["right"])
                for p in store.pairings() if p["event"] == name and p["round"] == rnd}


def start(stack: ExitStack, tmp_path: Path, db: Path, settings: list[menus.Settings]):
    """`gameclock receive` on two ports and a clock docked on each (its own `settings`): (receiver, clocks)."""
    relays = [stack.enter_context(PtyRelay()) for _ in SERIALS]
    out = stack.enter_context(open(tmp_path / "receive.out", "wb"))
    rx = start_receiver([r.path_b for r in relays], db, out)
    stack.callback(stop_receiver, rx)
    clocks = []
    for i, (relay, serial, key) in enumerate(zip(relays, SERIALS, KEYS, strict=True)):
        clock = DeviceClock(relay.path_a, tmp_path / f"clock-{i + 1}", serial, key, settings=settings[i])
        stack.callback(clock.close)
        clocks.append(clock)
    for clock in clocks:  # each welcomed as an enrolled clock: docked
        end = time.monotonic() + 20
        while not clock.dock.endpoint.status.known:
            assert rx.poll() is None and time.monotonic() < end, (tmp_path / "receive.out").read_text()
            time.sleep(0.05)
    return rx, clocks


def test_a_round_published_reaches_every_clock_docked_now(tmp_path):
    db = make_db(tmp_path, "1")  # the event named as the clocks' Event setting: what worked at a docking
    with ExitStack() as stack:
        _, clocks = start(stack, tmp_path, db, [menus.Settings(table=1), menus.Settings(table=2)])
        time.sleep(1.5)
        assert [c.info()["round"] for c in clocks] == [1, 1] and "players" not in clocks[0].info()
        # round 1 drawn and published by another process, the clocks left docked
        draft = gameclock("pair", "1", "--db", str(db), "--seed", "7")
        assert draft.returncode == 0, draft.stderr
        done = gameclock("pair", "1", "--db", str(db), "--publish")
        assert done.returncode == 0, done.stderr
        tables = published(db, "1", 1)
        assert sorted(tables) == [1, 2]  # four players, two boards (XW-10)
        for n, clock in enumerate(clocks, start=1):
            info = clock.wait(lambda i: "players" in i, what=f"clock {n}: round 1 not received")
            assert (info["event"], info["round"], info["table"]) == (1, 1, n)  # event "1": the Event setting 1
            assert (info["players"]["left"], info["players"]["right"]) == tables[n]


def test_a_thai_event_follows_the_assignment_and_a_clock_with_a_game_holds_it(tmp_path):
    db = make_db(tmp_path, THAI)
    with ExitStack() as stack:
        # both clocks as they came out of the box: Event 1, table 1; the second has a game under way
        _, clocks = start(stack, tmp_path, db, [menus.Settings(), menus.Settings()])
        clocks[1].press(0)  # its right clock runs: a pairing waits for the next game (loop/pairings.py)
        # the organiser assigns them on the PC (the desk's clocks page writes the same rows)
        with Store(db) as store:
            assert store.assign_clock(SERIALS[0], THAI, 2, by="organiser") is None
            assert store.assign_clock(SERIALS[1], THAI, 1, by="organiser") is None
        assert gameclock("pair", THAI, "--db", str(db), "--seed", "3").returncode == 0
        done = gameclock("pair", THAI, "--db", str(db), "--publish")
        assert done.returncode == 0, done.stderr
        tables = published(db, THAI, 1)
        info = clocks[0].wait(lambda i: i["event"] == THAI, what="clock 1: the Thai event's pairing not received")
        assert (info["round"], info["table"]) == (1, 2)
        assert (info["players"]["left"], info["players"]["right"]) == tables[2]
        s = clocks[0].settings()
        assert (s.event, s.event_name, s.table) == (1, THAI, 2)  # the number kept, the PC's event shown instead
        # the clock with a game under way holds it for its next game; its game keeps its own record info
        end = time.monotonic() + 20
        while clocks[1].settings().next_pairing is None:
            assert time.monotonic() < end, "clock 2: the pairing was not held for the next game"
            time.sleep(0.05)
        held = clocks[1].settings().next_pairing
        assert (held["event"], held["round"], held["table"]) == (THAI, 1, 1)
        assert clocks[1].info()["event"] == 1 and "players" not in clocks[1].info()
