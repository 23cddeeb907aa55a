"""`gameclock sim --display png` runs headless: a script drives the mock pins, frames go to files."""
from __future__ import annotations

import re
import subprocess
import sys

from PIL import Image


def run_sim(tmp_path, script: str, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "keys.txt").write_text(script)
    return subprocess.run(
        [sys.executable, "-m", "gameclock", "sim", "--display", "png", "--out", str(tmp_path / "out"),
         "--script", str(tmp_path / "keys.txt"), *args],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)


def test_headless_game(tmp_path):
    done = run_sim(tmp_path, "z 1.1s m 0.2s space 0.2s", "--preset", "makruk-45")
    assert done.returncode == 0, done.stderr
    log = (tmp_path / "out" / "frames.log").read_text().splitlines()
    assert log[0].startswith("000001 LEFT 45:00 | RIGHT 45:00 | makruk-45")
    assert any("LEFT 45:00 | RIGHT 44:59 ▶" in line for line in log)  # z started the right clock
    assert any(re.search(r"LEFT 44:5\d ▶ \| RIGHT 44:5\d \|", line) for line in log)  # m switched
    assert "| paused |" in log[-1]
    frames = sorted((tmp_path / "out").glob("frame-*.png"))
    assert len(frames) == len(log)
    assert Image.open(frames[0]).size == (260, 64)


def test_each_run_starts_a_fresh_frames_log(tmp_path):
    """Issue 27: a second run into the same folder appended to the first run's frames.log (two
    "000001" lines, the old game's frames after it), and left the first run's extra frame PNGs; each
    run's folder now holds that run's frames only. Files of other names are left alone."""
    first = run_sim(tmp_path, "z 1.1s m 0.2s space 0.2s", "--preset", "makruk-45")
    assert first.returncode == 0, first.stderr
    out = tmp_path / "out"
    (out / "notes.txt").write_text("mine")
    second = run_sim(tmp_path, "0.2s", "--preset", "crossword")
    assert second.returncode == 0, second.stderr
    frames = [line for line in (out / "frames.log").read_text().splitlines() if line[:6].isdigit()]
    assert frames and all("crossword" in line for line in frames)
    assert [line[:6] for line in frames] == [f"{n:06d}" for n in range(1, len(frames) + 1)]
    assert len(sorted(out.glob("frame-*.png"))) == len(frames)
    assert (out / "notes.txt").read_text() == "mine"


def test_headless_menu_and_long_push_extension(tmp_path):
    done = run_sim(tmp_path, "push 0.2s push 0.2s z 0.3s long_push", "--preset", "makhos-move")
    assert done.returncode == 0, done.stderr
    log = (tmp_path / "out" / "frames.log").read_text()
    # MH-3 (issue 15): the arbiter gives extra time; a player holding the knob gets a word, not time
    assert not re.search(r"RIGHT [3-9]:\d\d ▶", log) and re.search(r"RIGHT 1:5\d ▶", log)
    assert "extra time: the arbiter gives it" in log


def test_bad_preset_is_an_error(tmp_path):
    done = run_sim(tmp_path, "", "--preset", "no-such-preset")
    assert done.returncode == 2 and "no preset 'no-such-preset'" in done.stderr


def test_bad_script_is_an_error(tmp_path):
    done = run_sim(tmp_path, "jump")
    assert done.returncode == 2 and "unknown token 'jump'" in done.stderr


def test_a_restored_game_is_not_abandoned_for_preset(tmp_path):  # issue 13 hole 8, CL-6
    """`sim --dock P --state-dir D --preset X` on a state folder with an unfinished game: the game comes
    back (paused, its times kept) and --preset does not start a new one over it."""
    state = tmp_path / "state"
    first = run_sim(tmp_path, "z 1.2s m 0.3s", "--preset", "makruk-45", "--state-dir", str(state),
                    "--dock", str(tmp_path / "dock1"))
    assert first.returncode == 0, first.stderr
    again = run_sim(tmp_path, "0.3s", "--preset", "crossword", "--state-dir", str(state),
                    "--dock", str(tmp_path / "dock2"))
    assert again.returncode == 0, again.stderr
    assert "--preset crossword not started" in again.stderr
    log = (tmp_path / "out" / "frames.log").read_text().splitlines()
    assert "makruk-45" in log[-1] and "crossword" not in log[-1]
    assert "| paused |" in log[-1] or "restored" in log[-1]
    games = sorted((state / "games").glob("*.log"))
    assert len(games) == 1  # no second journal: nothing abandoned
