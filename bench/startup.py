"""`python -m bench startup`: how long `gameclock run` takes to show the clock (issue 14).

Each run spawns the daemon as systemd would start it, with a `$NOTIFY_SOCKET` bound here (an AF_UNIX
datagram socket), and times spawn -> the `READY=1` datagram:

    python -m gameclock run --sim-pins --display oled --sim-bus 400 --state-dir D --preset makruk-45

`gameclock run` says READY=1 once the displays show the clock: the display worker has put the loop's
first frame on both OLEDs (gameclock.device.notify, gameclock.app.build_daemon). `--sim-bus 400`
(a hidden option for this bench) puts the OLEDs on `gameclock.sim.i2cbus.SimulatedI2CBus`: luma's
i2c interface and our diffing drivers talking to a bus that takes a 400 kHz I2C bus's time for every
transfer (a few % slower than the Pi's, see that module), so READY=1 is "the clock on the bus".

The children run with compiled bytecode, as on the Pi (pip compiles the installed package; the
service cannot write it): `$PYTHONPYCACHEPREFIX` points at a folder of this bench, filled by one
uncounted warm-up run, and `$PYTHONDONTWRITEBYTECODE` is removed. (Without bytecode every module is
compiled from source at each start: about 100 ms more on this machine.)

Figures (ms, median of `STARTUP_RUNS` runs, default 5; _min and _max too):
  ready_ms                 a new state folder, `--preset makruk-45` at ready      (target <= 150, issue 27)
  ready_ms_restored_2h     a state folder holding an unfinished 2-hour game, cut off by a power cut:
                           the daemon restores it (paused) instead of starting the preset
                                                                                   (target <= 250)
  ready_ms_no_display      `--display none` (READY=1 at the loop's first frame; no bus): the part of
                           the start-up that is not the displays
  startup_journal_lines    lines of the 2-hour game's journal (games/*.log)
  startup_journal_checkpoints  of which checkpoints
  startup_game_s           its game time, s

The 2-hour game is built here, in this process and in a moment: a real `Loop` journaled by
`gameclock.persist.restore.attach` (as tests/persist/test_restore.py does) on an injected clock,
preset fide-classical (90 min + 30 s a move), a press every 20-40 s (fixed seed) for 2 hours of game
time, the loop pumped at each of its wakes (so the checkpoint timer journals every 0.5 s of running
time, as in a real game) but drawing no frames (they write nothing to the journal, and would take most of the time); then the "power cut": the journal's writer has flushed what it had, nothing is closed. Each
timed run gets a fresh copy of that folder (restoring writes to it).

Shorter runs (tests): GAMECLOCK_BENCH_STARTUP_RUNS, or `bench_startup(runs=..., game_s=...)`.
"""
from __future__ import annotations

import os
import queue
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gameclock

PRESET = "makruk-45"
GAME_PRESET = "fide-classical"
BUS_KHZ = 400
ENV_RUNS = "GAMECLOCK_BENCH_STARTUP_RUNS"
GAME_S = 2 * 3600
PRESS_GAP_S = (20, 40)
READY_TIMEOUT_S = 30.0
S = 1_000_000_000
# What the daemon would take from systemd or the user's shell: not for these runs.
DROP_ENV = ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LG_WD", "STATE_DIRECTORY", "RUNTIME_DIRECTORY",
            "GPIOZERO_PIN_FACTORY", "JOURNAL_STREAM", "GAMECLOCK_WIRING", "GAMECLOCK_DOCK",
            "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")


class StartupError(RuntimeError):
    pass


def child_env(pycache: Path) -> dict[str, str]:
    """The daemon's environment: this process's gameclock first on the path, bytecode in `pycache`."""
    env = {k: v for k, v in os.environ.items() if k not in DROP_ENV}
    here = str(Path(gameclock.__file__).resolve().parents[1])  # the folder holding the package
    env["PYTHONPATH"] = os.pathsep.join([here, *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def spawn_to_ready(state: Path, display: list[str], env: dict[str, str], work: Path) -> float:
    """Start `gameclock run` on `state`; ms from spawn to its READY=1. The daemon is stopped again."""
    sock_path = work / "notify.sock"  # AF_UNIX paths must stay under 108 bytes: `work` is short
    sock_path.unlink(missing_ok=True)
    log_path = work / "run.log"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock, open(log_path, "wb") as log:
        sock.bind(str(sock_path))
        env = dict(env, NOTIFY_SOCKET=str(sock_path))
        argv = [sys.executable, "-m", "gameclock", "run", "--sim-pins", "--display", *display,
                "--state-dir", str(state), "--preset", PRESET]
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, env=env, cwd=work, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT)
        try:
            deadline = t0 + READY_TIMEOUT_S
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or proc.poll() is not None:
                    raise StartupError(f"no READY=1 from {' '.join(argv)} (exit {proc.poll()}):\n"
                                       + log_path.read_text(errors="replace")[-2000:])
                sock.settimeout(min(left, 0.5))
                try:
                    lines = sock.recv(4096).decode(errors="replace").split("\n")
                except TimeoutError:
                    continue
                if "READY=1" in lines:
                    return (time.monotonic() - t0) * 1000
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def two_hour_game(state: Path, game_s: int = GAME_S, seed: int = 14) -> dict[str, int]:
    """Journal an unfinished game of `game_s` seconds in `state` and cut the power (see the docstring)."""
    from gameclock.inbox import PlayerButton
    from gameclock.loop import Loop
    from gameclock.persist.restore import attach
    from gameclock.rules.loader import load_presets

    class Null:
        def show(self, frame: object) -> None:
            pass

        def beep(self, alert: object, text: str) -> None:
            pass

    now = [1_000 * S]
    rng = random.Random(seed)
    sink = Null()
    loop = Loop(queue.Queue(), load_presets(), sink, sink, clock=lambda: now[0])
    journal, _ = attach(loop, state)
    # No frames while building: rendering (most of the time) writes nothing to the journal.
    loop.refresh = lambda now_ns: None

    def run_to(until: int) -> None:
        while (w := loop.next_wake()) is not None and w <= until:
            now[0] = max(now[0], w)
            loop.pump(now[0])
        now[0] = until
        loop.pump(until)

    loop.new_game(GAME_PRESET, 1)
    zero = now[0]
    side = 0
    at = zero + S
    loop.pump(at, [PlayerButton(at, side)])  # at ready a press starts the other side's clock
    while True:
        at += int(rng.uniform(*PRESS_GAP_S) * S)
        if at > zero + game_s * S:
            break
        run_to(at)
        side = 1 - side
        loop.pump(at, [PlayerButton(at, side)])
    run_to(zero + game_s * S + S // 3)  # the power goes off a third of a second after a checkpoint
    if not journal.writer.flush(30):  # what the writer had is on the card; no closing line
        raise StartupError("the journal's writer did not catch up")
    lines = [line for f in sorted((state / "games").glob("*.log")) for line in f.read_bytes().split(b"\n")
             if line]
    return {"startup_journal_lines": len(lines),
            "startup_journal_checkpoints": sum(b"checkpoint" in line for line in lines),
            "startup_game_s": game_s}


def _figures(name: str, times: list[float]) -> dict[str, float]:
    return {name: round(statistics.median(times), 1), f"{name}_min": round(min(times), 1),
            f"{name}_max": round(max(times), 1)}


def bench_startup(runs: int | None = None, game_s: int = GAME_S) -> dict:
    runs = int(os.environ.get(ENV_RUNS, 5)) if runs is None else runs
    oled = ["oled", "--sim-bus", str(BUS_KHZ)]
    work = Path(tempfile.mkdtemp(prefix="gcs-"))
    try:
        env = child_env(work / "pycache")
        game = work / "game"
        out: dict = two_hour_game(game, game_s)
        spawn_to_ready(work / "warm-up", oled, env, work)  # compiles the bytecode; not counted
        times: dict[str, list[float]] = {"ready_ms": [], "ready_ms_restored_2h": [], "ready_ms_no_display": []}
        for i in range(runs):  # interleaved, so a busy moment of the machine falls on all three
            times["ready_ms"].append(spawn_to_ready(work / f"new-{i}", oled, env, work))
            restored = work / f"restored-{i}"
            shutil.copytree(game, restored)
            times["ready_ms_restored_2h"].append(spawn_to_ready(restored, oled, env, work))
            times["ready_ms_no_display"].append(spawn_to_ready(work / f"none-{i}", ["none"], env, work))
        for name, values in times.items():
            out.update(_figures(name, values))
        out["startup_runs"] = runs
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    import json
    print(json.dumps(bench_startup(), sort_keys=True))
