"""`gameclock presets` and `gameclock check-rules`, wired the way gameclock/cli.py wires every subcommand."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gameclock.rules import commands_check, commands_presets

REPO_RULES = Path(__file__).resolve().parents[2] / "rules"
ALL_IDS = sorted(p.stem for p in REPO_RULES.glob("*.toml"))


def run(module, argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)
    return module.run(parser.parse_args(argv))


@pytest.fixture
def bad_file(tmp_path: Path, write_rule, good_crossword: str) -> Path:
    return write_rule(good_crossword.replace('time = "22:00"', 'time = "22:75"'), name="bad")


@pytest.fixture
def good_file(write_rule, good_crossword: str) -> Path:
    return write_rule(good_crossword, name="mine")


def test_check_rules_good_file(good_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(commands_check, [str(good_file)]) == 0
    out, err = capsys.readouterr()
    assert out == f"{good_file}: ok (preset mine)\n"
    assert err == ""


def test_check_rules_bad_file(bad_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(commands_check, [str(bad_file)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"{bad_file}: clock.time: bad time '22:75' (seconds must be 00-59; write M:SS or H:MM:SS)\n")


def test_check_rules_mixed_reports_each_and_fails(good_file: Path, bad_file: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert run(commands_check, [str(good_file), str(bad_file), str(good_file.parent / "none.toml")]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{good_file}: ok (preset mine)"]
    lines = err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{bad_file}: clock.time: ")
    assert lines[1].startswith(f"{good_file.parent / 'none.toml'}: cannot read")


def test_check_rules_on_the_shipped_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(commands_check, [str(REPO_RULES)]) == 0
    out, _ = capsys.readouterr()
    assert len(out.splitlines()) == len(ALL_IDS)
    for preset_id in ALL_IDS:
        assert f"ok (preset {preset_id})" in out


def test_presets_table_lists_every_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(commands_presets, []) == 0
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "NAME", "EVENT", "CONTROL", "SCORING", "RULES"]
    assert [line.split()[0] for line in lines[1:]] == ALL_IDS
    crossword = next(line for line in lines if line.startswith("crossword "))
    assert "Crossword 22:00" in crossword
    assert "22:00 negative, -10/min" in crossword
    assert "XW-2" in crossword and "XW-3" in crossword
    # XW-6, XW-8, XW-9: both levels (the level is the game's set-up)
    assert "crossword 2/1/0, primary: cap 100/80 bye 50; secondary: cap 250/200 bye 100" in crossword
    makruk = next(line for line in lines if line.startswith("makruk-45 "))
    assert "makruk 2/1/0, flag loses" in makruk  # MR-9; MR-1 of seed 001: no MR-2
    fischer = next(line for line in lines if line.startswith("fischer-5+3 "))
    assert fischer.split()[-2:] == ["-", "-"]  # no scoring, no rule IDs


def test_presets_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(commands_presets, ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["id"] for d in data] == ALL_IDS
    crossword = next(d for d in data if d["id"] == "crossword")
    assert crossword["event"] == "crossword"
    assert crossword["control"]["stages_left"][0]["time_ns"] == 22 * 60 * 10**9  # XW-2
    assert crossword["control"]["penalty_points_per_minute"] == 10  # XW-3
    assert crossword["scoring"] == {  # XW-6, XW-8, XW-9
        "kind": "crossword", "win": 2, "draw": 1, "loss": 0, "default_level": None, "flag_needs_material": False,
        "caps": {"primary": [100, 80], "secondary": [250, 200]}, "bye_spread": {"primary": 50, "secondary": 100},
    }
    assert next(d for d in data if d["id"] == "fischer-5+3")["scoring"]["kind"] == "none"
    makhos = next(d for d in data if d["id"] == "makhos-30")
    assert makhos["sequence_ns"] == [m * 60 * 10**9 for m in (30, 25, 20, 15, 10)]  # MH-4


def test_presets_with_a_bad_folder(bad_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(commands_presets, ["--dir", str(bad_file.parent)]) == 1
    _, err = capsys.readouterr()
    assert err.startswith(f"{bad_file}: clock.time: ")


def test_through_the_gameclock_command(good_file: Path, bad_file: Path) -> None:
    cmd = [sys.executable, "-m", "gameclock"]
    ok = subprocess.run(cmd + ["check-rules", str(good_file)], capture_output=True, text=True)
    assert (ok.returncode, ok.stdout) == (0, f"{good_file}: ok (preset mine)\n")
    bad = subprocess.run(cmd + ["check-rules", str(bad_file)], capture_output=True, text=True)
    assert bad.returncode == 1 and "clock.time: bad time '22:75'" in bad.stderr
    listing = subprocess.run(cmd + ["presets"], capture_output=True, text=True)
    assert listing.returncode == 0
    assert [line.split()[0] for line in listing.stdout.splitlines()[1:]] == ALL_IDS
