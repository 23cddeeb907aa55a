"""SIGKILL during outbox repair (issue 13 hole 7), part of the crash bench.

A state folder holds one confirmed Crossword game (played through the loop and its journal, as on the
clock). A child process damages `outbox/<id>.json` (a torn write, as a bad card gives) and reads it
back through the outbox with a rebuild (`persist.rebuild`), again and again; it is killed with SIGKILL
at a random moment, so kills land inside the damaging, the keeping aside and the rebuilt record's
atomic write. After each kill a fresh outbox reads the id once more.

Figures:
  crash_repair_kills      children killed (GAMECLOCK_CRASH_REPAIRS, 40 by default)
  crash_repair_lost       kills after which the id was gone from outbox/ or could not be read back
                          (built again) by the next start (must be 0)
  crash_repair_changed    kills after which the record read back differs from the game's record in
                          anything but its wall-clock start and end (must be 0)
  crash_repairs_done      repairs the children finished before their kills (the kills hit work)
"""
from __future__ import annotations

import json
import logging
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

S = 1_000_000_000
RID = "bench-000001"

CHILD = """
import os, sys
from gameclock.persist.outbox import Outbox
from gameclock.persist.rebuild import rebuild
state, rid = sys.argv[1], sys.argv[2]
path = os.path.join(state, "outbox", rid + ".json")
outbox = Outbox(state, rebuild=rebuild)
n = 0
print("ready", flush=True)
while True:
    good = open(path, "rb").read()
    with open(path, "r+b") as f:   # a torn record: its second half zeroed in place
        f.seek(len(good) // 2)
        f.write(bytes(len(good) - len(good) // 2))
    outbox.read(rid)
    n += 1
    with open(os.path.join(state, "repairs"), "w") as f:
        f.write(str(n))
"""


class _Null:
    def show(self, frame: object) -> None:
        pass

    def beep(self, alert: object, text: object) -> None:
        pass


def play_confirmed_crossword(loop: Any, now: list[int]) -> None:
    """On `loop` (its clock reads now[0], ns): a Crossword game (XW-2) at secondary level (XW-8), left
    moves 1 s, right 4 s, finished at 6 s, 412 and 388 entered, both players confirm. Moves now[0]."""
    from gameclock.core.events import Finish
    from gameclock.inbox import PlayerButton

    loop.settings.level = "secondary"
    loop.new_game("crossword", 1)
    z = now[0]
    loop.pump(z + S, [PlayerButton(z + S, 0)])
    loop.pump(z + 5 * S, [PlayerButton(z + 5 * S, 1)])
    loop.apply(Finish, z + 6 * S)
    now[0] = z + 6 * S
    loop.pump(now[0])
    for i, words in enumerate([["score", "left", "412"], ["score", "right", "388"],
                               ["confirm", "left"], ["confirm", "right"]]):
        now[0] = z + (7 + i) * S
        if not loop.enter(words, now[0]):
            raise RuntimeError(f"the loop refused {words}: {loop.message}")


def confirmed_state(folder: Path, serial: str = "bench") -> dict:
    """A state folder with one confirmed game and its record (the loop, the journal, the writer)."""
    from gameclock.loop import Loop
    from gameclock.persist.restore import attach
    from gameclock.rules.loader import load_presets

    now = [1_000 * S]
    loop = Loop(queue.Queue(), load_presets(), _Null(), _Null(), clock=lambda: now[0], clock_serial=serial)
    journal, _ = attach(loop, folder)
    play_confirmed_crossword(loop, now)
    journal.close()
    record: dict = json.loads((folder / "outbox" / f"{serial}-000001.json").read_text())
    return record


def _without_walls(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("started", "ended")}


def bench_repaircrash(kills: int | None = None, seed: int = 7) -> dict:
    from gameclock.persist.outbox import Outbox
    from gameclock.persist.rebuild import rebuild

    kills = kills if kills is not None else int(os.environ.get("GAMECLOCK_CRASH_REPAIRS", "40"))
    logging.getLogger("gameclock.persist").setLevel(logging.ERROR)  # a repair's warning, once per kill
    rng = random.Random(seed)
    top = Path(tempfile.mkdtemp(prefix="gameclock-repaircrash-"))
    lost = changed = done = 0
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[1] / "firmware"),
                                                         os.environ.get("PYTHONPATH", "")]))
    try:
        original = confirmed_state(top / "template")
        for k in range(kills):
            state = top / f"kill-{k}"
            shutil.copytree(top / "template", state)
            child = subprocess.Popen([sys.executable, "-c", CHILD, str(state), RID], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
            assert child.stdout is not None
            child.stdout.readline()  # "ready": imports done, the loop of damage and repair begins
            time.sleep(rng.uniform(0.0, 0.05))
            child.send_signal(signal.SIGKILL)
            child.wait()
            child.stdout.close()
            try:
                done += int((state / "repairs").read_text() or 0)
            except (OSError, ValueError):
                pass
            try:
                back = Outbox(state, rebuild=rebuild).read(RID)  # the next start reads it
            except (KeyError, ValueError):
                lost += 1
                continue
            if _without_walls(back) != _without_walls(original):
                changed += 1
            shutil.rmtree(state)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return {"crash_repair_kills": kills, "crash_repair_lost": lost, "crash_repair_changed": changed,
            "crash_repairs_done": done}
