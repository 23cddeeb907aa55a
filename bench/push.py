"""`python -m bench push`: how soon a round published reaches a clock docked now (issue 26).

A real clock end -- the loop thread and the device's `DockThread`, as `gameclock run` wires them -- on one end
of a pty, the organiser's PC on the other: first a `gameclock receive` child process (its port looks at the
store's `dock_stamp` every second: `dock/pcside.py` CHECK_NS), then the desk's dock inside this process
(`DockService`, nudged by the publish as the desk's Publish does). The clock is assigned table 1 of an event;
each of RUNS rounds is written into the store by another connection (as `gameclock pair --publish` does) and
timed until the clock's loop holds it (its `info_snapshot`, polled every 10 ms), PAUSE_S apart.

Figures:
  push_receive_ms_median, push_receive_ms_max   publish -> the clock's loop has the round, `gameclock receive`
                                                (goal: under CHECK_NS + the way, so about 1,000 ms at most)
  push_desk_ms_median, push_desk_ms_max         the same through the desk's dock, nudged
  push_runs                                     rounds timed on each (GAMECLOCK_BENCH_PUSHES: 10)
  push_missed                                   rounds a clock did not get within 10 s (0 is right)
"""
from __future__ import annotations

import os
import queue
import statistics
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.ptywire import start_receiver, stop_receiver
from gameclock.device.dock import DockThread
from gameclock.dock.keystore import KeyStore
from gameclock.dock.link import FdPort
from gameclock.inbox import Input, Quit
from gameclock.loop import Loop
from gameclock.organiser.store import Store
from gameclock.persist.outbox import Outbox
from gameclock.rules.loader import load_presets

ENV_RUNS = "GAMECLOCK_BENCH_PUSHES"
SERIAL = "00000000b0c40001"
KEY = bytes(range(7, 39))
EVENT = "ครอสเวิร์ด-ม.ปลาย-2568"
PAUSE_S = 0.37        # between two publishes: not in step with the receiver's second
WAIT_S = 10.0


class _Sink:
    def show(self, frame: Any) -> None:
        pass

    def beep(self, alert: Any, text: str) -> None:
        pass


class _Clock:
    """The clock: its loop in a thread, its dock thread on the pty's master."""

    def __init__(self, state: Path, master: int) -> None:
        KeyStore(state).set(KEY)
        outbox = Outbox(state)
        outbox.prepare()
        self.inbox: queue.Queue[Input] = queue.Queue()
        self.loop = Loop(self.inbox, load_presets(), _Sink(), _Sink(), clock_serial=SERIAL, outbox=outbox)
        self.loop.new_game("crossword", 1)
        self.dock = DockThread("pty", state, SERIAL, outbox, self.inbox.put, info=lambda: self.loop.info_snapshot,
                               opener=lambda _path: FdPort(os.dup(master), "bench clock"))
        self.loop.dock = self.dock
        self.thread = threading.Thread(target=self.loop.run, name="bench push loop", daemon=True)
        self.thread.start()
        self.dock.start()

    def docked(self, timeout: float = 20.0) -> bool:
        end = time.monotonic() + timeout
        while not self.dock.endpoint.status.known:
            if time.monotonic() > end:
                return False
            time.sleep(0.02)
        return True

    def close(self) -> None:
        self.dock.close()
        self.inbox.put(Quit(time.monotonic_ns()))
        self.thread.join(5)


def _time_rounds(db: Path, clock: _Clock, runs: int, first: int, after: Callable[[], None]) -> tuple[list[float], int]:
    """Rounds first..first+runs-1 written by another connection; the ms each took to reach the clock's loop."""
    took: list[float] = []
    missed = 0
    for rnd in range(first, first + runs):
        with Store(db) as store:
            store.put_pairings([{"event": EVENT, "round": rnd, "table": 1,
                                 "players": {"left": f"ผู้เล่น {rnd}", "right": f"Player {rnd}"}}])
        t0 = time.monotonic()
        after()
        while clock.loop.info_snapshot.get("round") != rnd or clock.loop.info_snapshot.get("event") != EVENT:
            if time.monotonic() - t0 > WAIT_S:
                missed += 1
                break
            time.sleep(0.01)
        else:
            took.append((time.monotonic() - t0) * 1000)
        time.sleep(PAUSE_S)
    return took, missed


def _pc(kind: str, path: str, db: Path, work: Path) -> tuple[Callable[[], None], Callable[[], None]]:
    """The PC on the pty's slave `path`: `gameclock receive` (a child process) or the desk's dock in this
    process. Returns (what the publish does after writing: the desk's nudge, stop)."""
    if kind == "receive":
        log = open(work / "receive.out", "wb")
        proc = start_receiver([path], db, log)

        def stop_receive() -> None:
            stop_receiver(proc)
            log.close()
        return (lambda: None), stop_receive
    from gameclock.organiser.desk.docking import DockService

    desk_store = Store(db)
    service = DockService(desk_store, [path])
    service.start()

    def stop_desk() -> None:
        service.stop()
        desk_store.close()
    return service.nudge, stop_desk


def bench_push(runs: int | None = None) -> dict[str, Any]:
    runs = runs if runs is not None else int(os.environ.get(ENV_RUNS, "10"))
    out: dict[str, Any] = {"push_runs": runs, "push_missed": 0}
    with tempfile.TemporaryDirectory(prefix="gameclock-bench-push-") as tmp:
        work = Path(tmp)
        db = work / "pc.db"
        with Store(db) as store:
            store.add_key(SERIAL, KEY)
            store.assign_clock(SERIAL, EVENT, 1, by="bench")
        for kind in ("receive", "desk"):
            master, slave = os.openpty()
            tty.setraw(slave)
            path = os.ttyname(slave)
            clock = None
            nudge, stop = _pc(kind, path, db, work)
            try:
                clock = _Clock(work / f"clock-{kind}", master)
                if not clock.docked():
                    out["push_missed"] += runs
                    continue
                took, missed = _time_rounds(db, clock, runs, 1 if kind == "receive" else runs + 1, nudge)
                out["push_missed"] += missed
                out[f"push_{kind}_ms_median"] = round(statistics.median(took), 1) if took else None
                out[f"push_{kind}_ms_max"] = round(max(took), 1) if took else None
            finally:
                if clock is not None:
                    clock.close()
                stop()
                os.close(master)
                os.close(slave)
    return out
