"""`gameclock check-rules` on hostile rule files (issue 13 hole 8): no traceback, no hang, every value in its
key's range, no control characters in the displayed text; each refusal one line naming the file and key."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gameclock.rules import commands_check


def check(paths: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    commands_check.add_arguments(parser)
    status = commands_check.run(parser.parse_args(paths))
    out, err = capsys.readouterr()
    return status, out, err


def test_dev_zero_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    # issue 13 hole 8: `check-rules /dev/zero` hung (read for ever); run as the command, with a time limit
    r = subprocess.run([sys.executable, "-m", "gameclock", "check-rules", "/dev/zero"], capture_output=True,
                       text=True, timeout=30)
    assert (r.returncode, r.stdout, r.stderr) == (1, "", "/dev/zero: not a regular file (a character device)\n")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # issue 13 hole 8: opening a FIFO for reading blocks until someone writes; it is refused instead
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    assert check([str(fifo)], capsys) == (1, "", f"{fifo}: not a regular file (a pipe (FIFO))\n")


def test_deep_nesting_is_a_one_line_error(write_rule, capsys: pytest.CaptureFixture[str]) -> None:
    # issue 13 hole 8: a RecursionError traceback from tomllib before
    path = write_rule("[preset]\nid = " + "[" * 3000 + "]" * 3000 + "\n")
    status, out, err = check([str(path)], capsys)
    assert (status, out) == (1, "")
    assert err == f"{path}: nested too deep (arrays or tables inside each other; at most 8)\n"


def test_a_time_of_99999999999_minutes_is_refused_with_the_range(write_rule, good_crossword: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # issue 13 hole 8: accepted before. A side's time may be up to 10:00:00 (the seeds need 1:00:00 at most).
    path = write_rule(good_crossword.replace('time = "22:00"', 'time = "99999999999:00"'))
    assert check([str(path)], capsys) == (
        1, "", f"{path}: clock.time: '99999999999:00' is too long: must be more than 0:00 up to 10:00:00\n")
    ok = write_rule(good_crossword.replace('time = "22:00"', 'time = "10:00:00"'), name="ten")
    assert check([str(ok)], capsys) == (0, f"{ok}: ok (preset ten)\n", "")


@pytest.mark.parametrize("old, new, message", [
    # MH-2 moves are 2:00, MH-3's extra time 10:00: per-move times may be up to 1:00:00
    ('time = "22:00"', 'time = "22:00"\nincrement = "1:00:01"',
     "clock.increment: '1:00:01' is too long: must be 0:00 up to 1:00:00"),
    # tenths are shown as S.T: at most 59.9, so the threshold is at most 1:00
    ('time = "22:00"', 'time = "22:00"\ntenths_below = "1:01"',
     "clock.tenths_below: '1:01' is too long: must be more than 0:00 up to 1:00"),
    # XW-3's penalty is 10 a minute; 1000 is the most any points key takes
    ("penalty_points_per_minute = 10", "penalty_points_per_minute = 1001",
     "clock.penalty_points_per_minute: must be at most 1000, got 1001"),
    ("penalty_points_per_minute = 10", "penalty_points_per_minute = 99999999999999999999",
     "clock.penalty_points_per_minute: must be 0-2147483647, got 99999999999999999999"),
])
def test_each_key_has_its_range(write_rule, good_crossword: str, capsys: pytest.CaptureFixture[str],
                                old: str, new: str, message: str) -> None:
    # issue 13 hole 8: integers and times out of range
    path = write_rule(good_crossword.replace(old, new))
    assert check([str(path)], capsys) == (1, "", f"{path}: {message}\n")


def test_control_characters_in_the_name_are_refused(write_rule, good_crossword: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    # issue 13 hole 8: a bidi override in the preset's name (shown on the clock's menu) was accepted
    path = write_rule(good_crossword.replace('name = "Crossword 22:00"', 'name = "Cross\\u202Eword"'))
    assert check([str(path)], capsys) == (
        1, "", f"{path}: preset.name: holds U+202E RIGHT-TO-LEFT OVERRIDE at character 6: remove it (names "
               "and displayed text cannot hold control characters)\n")


def test_a_thai_name_with_combining_vowels_and_tone_marks_passes(write_rule, good_crossword: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # issue 13 hole 8: the control-character check leaves Thai alone (ิ sara i, ๊ mai tri, ่ mai ek: combining)
    path = write_rule(good_crossword.replace('name = "Crossword 22:00"', 'name = "ครอสเวิร์ด กิ๊ก แข่งขัน 22 นาที"'))
    assert check([str(path)], capsys) == (0, f"{path}: ok (preset x)\n", "")


def test_a_path_with_control_characters_is_printed_escaped(tmp_path: Path, good_crossword: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    # issue 13 hole 8: the file's own name goes to the terminal too; ESC is shown as \x1b
    path = tmp_path / "a\x1b[2Jb.toml"
    path.write_text(good_crossword.replace("{id}", "x"), encoding="utf-8")  # the id is not the file's name
    status, out, err = check([str(path)], capsys)
    assert status == 1 and out == ""
    assert "\x1b" not in err and f"{tmp_path}/a\\x1b[2Jb.toml: preset.id: " in err
