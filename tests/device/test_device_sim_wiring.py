"""`gameclock sim` with the wiring file: --wiring / GAMECLOCK_WIRING (a lever clock), a bad file,
the arbiter's unlock gesture with the h key, and the settings kept with --state-dir."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEVER = ROOT / "hw" / "examples" / "lever-sh1106.toml"


def run_sim(tmp_path, script: str, *args: str, env=None) -> subprocess.CompletedProcess:
    (tmp_path / "keys.txt").write_text(script)
    return subprocess.run(
        [sys.executable, "-m", "gameclock", "sim", "--display", "png", str(tmp_path / "out"),
         "--script", str(tmp_path / "keys.txt"), *args],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})})


def frames_log(tmp_path) -> str:
    return (tmp_path / "out" / "frames.log").read_text()


def test_a_lever_clock(tmp_path):
    done = run_sim(tmp_path, "z 1.1s m 0.3s", "--preset", "makruk-45", "--wiring", str(LEVER))
    assert done.returncode == 0, done.stderr
    log = frames_log(tmp_path)
    assert "LEFT 45:00 | RIGHT 44:59 ▶" in log  # the lever thrown right: the right clock runs
    assert "LEFT 45:00 ▶" in log.splitlines()[-1] or "LEFT 44:59 ▶" in log.splitlines()[-1]


def test_the_wiring_from_the_environment(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(LEVER.read_text().replace("pause = 22", "pause = 3"))
    done = run_sim(tmp_path, "", env={"GAMECLOCK_WIRING": str(bad)})
    assert done.returncode == 2
    assert "bad.toml: players.pause: BCM 3 is the I2C bus's SCL line" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_missing_wiring_file(tmp_path):
    done = run_sim(tmp_path, "", "--wiring", str(tmp_path / "nope.toml"))
    assert done.returncode == 2 and "nope.toml: cannot read" in done.stderr


def test_the_unlock_gesture_with_the_h_key(tmp_path):
    done = run_sim(tmp_path, "z 0.3s space 0.3s b 0.3s h 0.3s", "--preset", "makruk-45")
    assert done.returncode == 0, done.stderr
    log = frames_log(tmp_path)
    locked = log.index("menu locked during a game")
    assert log.index("MENU GAME") > locked and "menu unlocked (arbiter)" in log


def test_settings_kept_in_the_state_dir(tmp_path):
    to_settings = "j "  # issue 27: the start screen wraps: Settings, its last item, is one notch back
    script = to_settings + "0.1s enter 0.2s enter 0.2s k k 0.1s enter 0.2s"  # Event: edit, 1 -> 3, keep
    done = run_sim(tmp_path, script, "--state-dir", str(tmp_path / "state"))
    assert done.returncode == 0, done.stderr
    saved = json.loads((tmp_path / "state" / "settings.json").read_text())
    assert saved["event"] == 3
    # the next start shows it
    done = run_sim(tmp_path, to_settings + "0.1s enter 0.2s", "--state-dir", str(tmp_path / "state"))
    assert done.returncode == 0, done.stderr
    assert "MENU SETTINGS: Event 3" in frames_log(tmp_path)
