"""Every shipped preset drives the core clock: a short game of presses folds without errors, and the core
starts each side with the time the preset gives it (every tie-break step of a sequence included)."""
from __future__ import annotations

from pathlib import Path

import pytest

from gameclock.core import clock as core
from gameclock.core.events import Press, Start
from gameclock.rules.loader import load_preset

S = 10**9
RULE_FILES = sorted((Path(__file__).resolve().parents[2] / "rules").glob("*.toml"))


@pytest.mark.parametrize("path", RULE_FILES, ids=[p.stem for p in RULE_FILES])
def test_preset_drives_the_core(path: Path) -> None:
    preset = load_preset(path)
    for game, tiebreak in ((1, 0), (2, 0), (5, 1), (10, 6)):
        control = preset.control_for(tiebreak)
        state = core.new_game(control, label=preset.id, game=game, tiebreak=tiebreak)
        for side in (0, 1):
            assert core.remaining_ns(state, side) == control.initial_ns(side)
        state = core.apply(state, Start(at_ns=0, side=0))
        t, side = 0, 0
        for _ in range(6):
            t += 7 * S
            state = core.apply(state, Press(at_ns=t, side=side))
            side = 1 - side
        core.view(state)
