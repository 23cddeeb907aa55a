"""Scenario logs: event logs with expected outcomes worked out by hand from RULES.md.

Each file in tests/scenarios/ is an event log (the format of `gameclock replay`) whose comments hold
expectations:

    #= PATH JSON              the state after the last event, e.g.  #= sides.left.display "-3:18"
    #=@SECONDS PATH JSON      the state at that time,          e.g.  #=@3600 state "flagged"

Result entry lines (score, outcome, material, correct, drawloss, confirm, edit) after the game's end
fold into `result` (e.g. #= result.final_scores.left 372); result-*.log are those scenarios.

PATH is dotted (list items by index: alerts.0.kind). Every preset in rules/ must have a scenario.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gameclock.core.log import parse_log, parse_seconds
from gameclock.replay import EXTRA_VERBS, replay_text
from gameclock.rules.loader import RULES_DIR, load_presets

SCENARIOS = Path(__file__).parent / "scenarios"
EXPECT = re.compile(r"^#=(?:@(\S+))?\s+(\S+)\s+(.+)$")


def expectations(text: str):
    for no, line in enumerate(text.splitlines(), start=1):
        m = EXPECT.match(line.strip())
        if m:
            at, path, value = m.groups()
            yield no, (None if at is None else parse_seconds(at)), path, json.loads(value)


def lookup(data, path: str):
    for part in path.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


FILES = sorted(SCENARIOS.glob("*.log"))


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path: Path):
    text = path.read_text(encoding="utf-8")
    checks = list(expectations(text))
    assert checks, f"{path.name} has no '#=' expectations"
    views: dict = {}
    for no, at, key, expected in checks:
        if at not in views:
            views[at] = replay_text(text, str(path), at)
        got = lookup(views[at], key)
        assert got == expected, f"{path.name}:{no}: {key} at {at}: expected {expected!r}, got {got!r}"


def test_every_preset_has_a_scenario():
    covered = {parse_log(f.read_text(encoding="utf-8"), str(f), extra_verbs=EXTRA_VERBS).preset for f in FILES}
    missing = sorted(p.id for p in load_presets(RULES_DIR) if p.id not in covered)
    assert not missing, f"presets without a scenario in tests/scenarios/: {missing}"
