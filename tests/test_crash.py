"""The crash test (issue 4, CL-5 and CL-6): the clock killed with SIGKILL at random moments across
play, result entry and outbox writes, then started again.

- `test_crash_drill`: bench.crashdrill (its docstring says how the truth is known), 200
  trials by default, $GAMECLOCK_CRASH_TRIALS for more: no confirmed result lost or doubled, no input
  older than 250 ms lost, each side's restored time within 0.9 s of the truth (CL-6 with a margin, issue 27). In virtual time (the
  drill's docstring): the clocks under test take the time from the driver, which moves it from wake
  to wake instead of sleeping, so the 200 trials take seconds and a loaded machine (pytest -n) does
  not change what they measure; the kills themselves still land in real time.
- `test_the_drill_sees_lost_time`: the same drill with the checkpoints switched off must report
  more time lost than the checkpoint interval allows (the measure is real, not always zero).
- `test_drill_with_exec_children`: a few trials with the clock exec'd (`python -m ... child`), not
  forked, so the path a real start takes is covered too; in real time, as the bench runs the drill
  (`test_crash_bench_is_registered_and_reports_the_figures` runs that too, through `python -m bench`).
- `test_gameclock_run_killed_mid_game_comes_back_paused`: the daemon itself (`gameclock run
  --sim-pins`, keys on its mock pins through the real adapters), killed while a side runs, restarted:
  it restores the game paused, within 0.9 s of the times the keys imply, and keeps them over a clean
  stop and start.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.crashdrill import drill
from gameclock.persist.journal import CHECKPOINT_NS, EDGE_GRACE_NS, decode

# Never beside another wall-clock test (tests/conftest.py): the drill's four chains load every core,
# and the real-time runs here (the bench's, the exec'd clocks', the daemon's) must not meet that load.
pytestmark = pytest.mark.xdist_group("wallclock")

TRIALS = int(os.environ.get("GAMECLOCK_CRASH_TRIALS", "200"))
GAMECLOCK = Path(sys.executable).with_name("gameclock")


def check(out: dict, trials: int) -> None:
    assert out["problems"] == [], "\n".join(out["problems"])
    assert out["crash_trials"] == trials
    assert out["results_lost"] == 0
    assert out["results_duplicated"] == 0
    assert out["inputs_lost"] == 0 and out["games_lost"] == 0
    # CL-6 ("about one second") with a margin (issue 27): the card is at most CHECKPOINT_NS + EDGE_GRACE_NS
    # = 0.6 s behind the running side; 0.3 s more for a loaded machine's late wake and the card's write
    assert out["max_time_lost_ms"] <= 900.0
    assert out["records"] == out["games_confirmed"]  # every confirmed game: exactly one record


def test_crash_drill(tmp_path):
    out = drill(trials=TRIALS, seed=1, chains=4, directory=str(tmp_path), virtual=True)
    print({k: v for k, v in out.items() if k != "problems"})
    check(out, TRIALS)
    # the kills landed everywhere the acceptance names
    assert out["kills_play"] > 0 and out["kills_entry"] > 0 and out["kills_outbox"] > 0
    assert out["restores_running"] > TRIALS // 5
    assert out["games_confirmed"] >= TRIALS // 20
    assert out["max_idle_diff_ms"] <= 50.0


def test_the_drill_sees_lost_time(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMECLOCK_DRILL_CHECKPOINT_MS", "600000")  # no checkpoints in 10 minutes
    monkeypatch.setenv("GAMECLOCK_DRILL_TRIAL_MAX_S", "4")  # trials long enough for a 3 s think to be cut
    out = drill(trials=24, seed=1, chains=4, directory=str(tmp_path), virtual=True)
    assert out["results_lost"] == 0 and out["results_duplicated"] == 0
    assert out["max_time_lost_ms"] > (CHECKPOINT_NS + EDGE_GRACE_NS) / 1e6  # beyond what checkpoints allow


def test_drill_with_exec_children(tmp_path):
    out = drill(trials=4, seed=7, chains=1, directory=str(tmp_path), use_exec=True)
    check(out, 4)


# ------------------------------------------------------------------------------ the daemon itself
class Run:
    def __init__(self, state: Path, log: Path):
        env = {k: v for k, v in os.environ.items()
               if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY", "LG_WD",
                            "RUNTIME_DIRECTORY", "JOURNAL_STREAM", "GPIOZERO_PIN_FACTORY", "GAMECLOCK_WIRING")}
        self.log = log
        self._f = open(log, "wb")
        self.proc = subprocess.Popen(
            [str(GAMECLOCK), "run", "--sim-pins", "--display", "none", "--state-dir", str(state),
             "--preset", "crossword", "--keys", "-"],
            env=env, stdin=subprocess.PIPE, stdout=self._f, stderr=subprocess.STDOUT)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_log(self, pattern: str, timeout: float = 20.0) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.search(pattern, self.text())
            if m:
                return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        pytest.fail(f"no {pattern!r} in the daemon's log:\n{self.text()}")

    def key(self, ch: str) -> int:
        t = time.monotonic_ns()
        self.proc.stdin.write(ch.encode())
        self.proc.stdin.flush()
        return t

    def stop(self, sig) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(10)
        finally:
            self._f.close()
            try:
                self.proc.stdin.close()
            except OSError:
                pass


RESTORED = r"restored game 000001 \(crossword game 1\) at [\d.]+ s, paused: left (\d+) ms, right (\d+) ms"


def test_gameclock_run_killed_mid_game_comes_back_paused(tmp_path):
    import signal

    state = tmp_path / "state"
    full = 22 * 60_000
    runs: list[Run] = []
    try:
        first = Run(state, tmp_path / "run1.log")
        runs.append(first)
        first.wait_log(r"gameclock \S+ \(pid \d+\): preset crossword")
        t0 = first.key("z")                  # the left player's button: right's clock starts
        time.sleep(1.3)
        t1 = first.key("m")                  # right presses: left's clock runs
        time.sleep(1.7)
        t_kill = time.monotonic_ns()
        assert first.stop(signal.SIGKILL) == -signal.SIGKILL

        second = Run(state, tmp_path / "run2.log")
        runs.append(second)
        m = second.wait_log(RESTORED + r" \(it was running: paused\)")
        left, right = int(m.group(1)), int(m.group(2))
        truth_right = full - (t1 - t0) // 1_000_000
        truth_left = full - (t_kill - t1) // 1_000_000
        assert abs(right - truth_right) <= 50            # the idle side: its press's own time
        assert -50 <= left - truth_left <= 900           # the running side: back to a checkpoint (CL-6)
        assert second.stop(signal.SIGTERM) == 0          # a clean stop keeps the game as it is

        third = Run(state, tmp_path / "run3.log")
        runs.append(third)
        m3 = third.wait_log(RESTORED)
        assert (int(m3.group(1)), int(m3.group(2))) == (left, right)
        assert "it was running" not in third.text()
        assert third.stop(signal.SIGTERM) == 0
    finally:
        for r in runs:
            r.stop(signal.SIGKILL)
    lines = [decode(raw) for raw in (state / "games" / "000001.log").read_bytes().split(b"\n")[:-1]]
    assert [ln.split()[1] for ln in lines if ln[0].isdigit()].count("pause") == 1
    assert lines[-1].split()[1] == "wallclock"


def test_crash_bench_is_registered_and_reports_the_figures():
    import bench
    from bench.crash import bench_crash

    assert bench.BENCHES["crash"] is bench_crash
    env = dict(os.environ, GAMECLOCK_CRASH_TRIALS="4")
    proc = subprocess.run([sys.executable, "-m", "bench", "crash"], env=env, capture_output=True,
                          text=True, timeout=300, cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr
    import json
    out = json.loads(proc.stdout)
    assert out["crash_trials"] == 4
    assert out["results_lost"] == 0 and out["results_duplicated"] == 0 and out["crash_inputs_lost"] == 0
    assert 0 <= out["max_time_lost_ms"] <= 900
