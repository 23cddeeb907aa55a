"""Issue 27: the arbiter's common tasks, each played through the real clock and counted.

docs/arbiter.md's section "The common tasks, counted" has two tables: the tasks that take a fixed
number of knob actions (each at most 8: checked) and the entries whose count depends on the value
entered (a score, a time, the pieces: their example's count checked). Each row gives the task, the
situation it starts from, the actions in the guide's notation and their count. This test reads the
tables, sets each situation up on the simulator's clock (`gameclock.sim.virtual`: the real adapters on
mock pins, the real loop, the simulator's finger; time virtual, so nothing waits), plays the guide's
actions, checks what they did (worked by hand from the rules and the menus, cited) and that the count
is the table's.

The notation: actions separated by commas; "↻" one notch of the knob clockwise (the next item, a value
up), "↺" one notch back, "↻↻" two notches (each counts); "push", "long push" (1 s), "hold" (the
arbiter's 3 s hold), "back" (the back button), "pause" (the pause button). A knob action is one notch
or one press (issue 27); the players' buttons are not the arbiter's and appear in no row.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from gameclock.core import clock as core
from gameclock.rules.loader import load_presets
from gameclock.sim.virtual import FrameList, VirtualSim
from gameclock.ui.resultentry import REVIEW

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "arbiter.md"
SECTION = "## 10. The common tasks, counted"
PRESETS = load_presets()
WORDS = {"pause": "pause", "hold": "hold_push", "push": "push", "long push": "long_push", "back": "back"}
TURNS = {"↻": "knob_right", "↺": "knob_left"}
MAX_ACTIONS = 8  # issue 27: each common task in at most 8 knob actions


def actions(notation: str) -> list[str]:
    """The guide's notation -> the script's actions (`sim.keys.ACTIONS`), one per knob action."""
    out: list[str] = []
    for part in (p.strip() for p in notation.split(",")):
        if part in WORDS:
            out.append(WORDS[part])
        elif part and set(part) <= set(TURNS):
            out += [TURNS[c] for c in part]
        else:
            raise ValueError(f"not the guide's notation: {part!r} in {notation!r}")
    return out


def guide_tables() -> list[list[dict[str, str]]]:
    """The tables of the guide's section, each a list of rows {task, from, actions, count}."""
    text = GUIDE.read_text(encoding="utf-8")
    assert SECTION in text, f"docs/arbiter.md has no section {SECTION!r}"
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    tables, rows = [], None
    for line in body.splitlines():
        if not line.startswith("|"):
            if rows:
                tables.append(rows)
            rows = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if rows is None:
            assert cells == ["task", "from", "the knob actions", "count"], line
            rows = []
        elif not set(line) <= set("|-: "):
            count = re.fullmatch(r"\*\*(\d+)\*\*", cells[3])
            assert count is not None, line
            rows.append({"task": cells[0], "from": cells[1], "actions": cells[2], "count": count.group(1)})
    if rows:
        tables.append(rows)
    return tables


# ------------------------------------------------------------------------------------- situations

View = dict  # core.view() of the game when the task begins (None: no game yet)


@dataclass
class Task:
    """How a row is played: the preset at ready (None: the start screen), the set-up (a script of the
    players' and arbiter's actions before the task, not counted) and the check of the clock after it,
    given the game's view when the task began."""
    preset: str | None
    setup: str
    check: Callable[[VirtualSim, View | None], None]


def _remaining(v: View, side: str) -> int:
    return v["sides"][side]["remaining_ms"]


def _now(sim: VirtualSim) -> View:
    return core.view(sim.loop.state, max(sim.loop.state.now_ns, sim.now - sim.loop.zero_ns))


def _review(winner: str, reason: str) -> Callable[[VirtualSim, View | None], None]:
    """The result up for the players' confirmation (PRESS TO CONFIRM) with this outcome."""
    def check(sim: VirtualSim, before: View | None) -> None:
        r = sim.loop.result
        assert r is not None and r.stage == REVIEW, sim.loop.frame.info
        assert (r.result["winner"], r.result["reason"]) == (winner, reason)
        assert not sim.loop.menu.is_open
    return check


def _counting(kind: str, side: str, count: int, limit: int) -> Callable[[VirtualSim, View | None], None]:
    def check(sim: VirtualSim, before: View | None) -> None:
        c = sim.loop.state.counting
        assert c is not None and (c.kind, core.SIDES[c.side], c.count, c.limit) == (kind, side, count, limit)
        assert not sim.loop.menu.is_open and sim.loop.state.phase == core.PAUSED
    return check


def _ready(preset: str, game: int = 1) -> Callable[[VirtualSim, View | None], None]:
    def check(sim: VirtualSim, before: View | None) -> None:
        assert sim.loop.preset.id == preset and sim.loop.game_no == game
        assert sim.loop.state.phase == core.READY and sim.loop.result is None and not sim.loop.menu.is_open
    return check


def _setting(key: str, value: object) -> Callable[[VirtualSim, View | None], None]:
    def check(sim: VirtualSim, before: View | None) -> None:
        assert getattr(sim.loop.settings, key) == value and not sim.loop.menu.is_open
    return check


def _time(side: str, minutes: int) -> Callable[[VirtualSim, View | None], None]:
    def check(sim: VirtualSim, before: View | None) -> None:
        assert before is not None and _remaining(before, side) == (12 * 60 + 34) * 1000  # as the set-up left it
        assert _remaining(_now(sim), side) == minutes * 60_000 and not sim.loop.menu.is_open
    return check


def _paused(sim: VirtualSim, before: View | None) -> None:
    assert sim.loop.state.phase == core.PAUSED and core.SIDES[sim.loop.state.running] == "right"  # right resumes


def _resumed(sim: VirtualSim, before: View | None) -> None:
    assert sim.loop.state.phase == core.RUNNING and core.SIDES[sim.loop.state.running] == "right"


def _no_count(sim: VirtualSim, before: View | None) -> None:
    assert before is not None and before["counting"] is not None  # the set-up started one
    assert sim.loop.state.counting is None and not sim.loop.menu.is_open


def _extra(sim: VirtualSim, before: View | None) -> None:
    # MH-3: right's move grows by 5:00 (the pause, the task's first action, came at the view's instant)
    assert before is not None and _remaining(_now(sim), "right") == _remaining(before, "right") + 5 * 60_000
    assert not sim.loop.menu.is_open


def _taken_back(sim: VirtualSim, before: View | None) -> None:
    # the 5:00 the set-up gave taken back: the move's own time again
    assert before is not None and _remaining(_now(sim), "right") == _remaining(before, "right") - 5 * 60_000
    assert not sim.loop.menu.is_open


def _undone(sim: VirtualSim, before: View | None) -> None:
    # right's press taken back: right runs again (charged the time since), left back at its 22:00 (it
    # had not run before: the left player's first press started right's clock)
    v = _now(sim)
    assert core.SIDES[sim.loop.state.running] == "right" and _remaining(v, "left") == 22 * 60_000
    assert v["sides"]["right"]["moves"] == 0 and not sim.loop.menu.is_open


def _material(left: str | None, right: str | None) -> Callable[[VirtualSim, View | None], None]:
    def check(sim: VirtualSim, before: View | None) -> None:
        assert sim.loop.result is not None and sim.loop.result.entry.material == (left, right)
    return check


def _score(left: int) -> Callable[[VirtualSim, View | None], None]:
    def check(sim: VirtualSim, before: View | None) -> None:
        assert sim.loop.result is not None and sim.loop.result.entry.scores == (left, None)
        assert sim.loop.result.view()["index"] == 1 and sim.loop.result.editing  # on to the right score
    return check


def _pieces_next(winner: str, reason: str) -> Callable[[VirtualSim, View | None], None]:
    def check(sim: VirtualSim, before: View | None) -> None:
        r = sim.loop.result
        assert r is not None and (r.result["winner"], r.result["reason"]) == (winner, reason)
        assert r.view()["pieces"] is not None and r.view()["pieces"]["side"] == "left"  # MR-9: the pieces next
    return check


def _script(*parts: str) -> str:
    return " ".join(parts)


RIGHT_RUNS = "left 1s"                          # the left player pressed: the right clock runs
# End game (pause, unlock, End game last on the game menu, Yes), the outcome the knob offers first
# (Draw: agreed) kept, both players confirm: RESULT SAVED
MAKHOS_SAVED = _script(RIGHT_RUNS, "pause hold_push knob_left push knob_right push push 0.5s right 0.5s left 0.5s")
DIGITS_22_TO_12_34 = ("back knob_left push push knob_right knob_right knob_right push "
                      "knob_right knob_right knob_right knob_right push")  # 0:2[2]:00 -> 0:12:34
RIGHT_21_58_TO_12_34 = ("back knob_left push knob_right push knob_left knob_left push "
                        "knob_left knob_left knob_left knob_left push")  # 0:2[1]:58 -> 0:12:34
SIXTEEN = " ".join(["right 0.2s left 0.2s"] * 15 + ["right 1s"])  # MH-6: right's 16 moves counted

# The situations. Each set-up is played, not counted; then the guide's actions, then the check.
TASKS: dict[str, Task] = {
    # ---- before a game, between games
    "Start Makruk 30:00": Task(None, "0.5s", _ready("makruk-30")),
    "Another preset: Crossword to Makruk 30:00": Task("crossword", "0.5s", _ready("makruk-30")),
    "The match's next game (Makhos)": Task("makhos-30", MAKHOS_SAVED, _ready("makhos-30", 2)),  # MH-4
    "A new game, same preset": Task("makhos-30", MAKHOS_SAVED, _ready("makhos-30", 1)),
    "Round: the next one": Task("crossword", "0.5s", _setting("round", 2)),
    "Event: the next one": Task("crossword", "0.5s", _setting("event", 2)),
    "Language: ไทย": Task("crossword", "0.5s", _setting("language", "th")),
    "Level (XW-8): primary": Task("crossword", "0.5s", _setting("level", "primary")),
    "Table: 1 to 12": Task("crossword", "0.5s", _setting("table", 12)),
    # ---- during a game (right on move)
    "Pause": Task("makruk-45", RIGHT_RUNS, _paused),
    "Resume": Task("makruk-45", _script(RIGHT_RUNS, "pause 1s"), _resumed),
    # MR-4: the board's count, 64 (the counting side's moves from 1)
    "Makruk: board's honour count, the side on move": Task("makruk-45", RIGHT_RUNS, _counting("board", "right", 0, 64)),
    # MR-6, MR-7 (seed 003: both kings counted): K+2R v K counts from 5 to 8
    "Makruk: pieces' honour count, K+2R v K": Task("makruk-45", RIGHT_RUNS, _counting("pieces", "right", 4, 8)),
    "Makruk: stop a count": Task(
        "makruk-45", _script(RIGHT_RUNS, "pause hold_push knob_right knob_right push pause 1s"), _no_count),
    # MH-6: 16 of the counting side's own moves
    "Makhos: count, the side on move": Task("makhos-30", RIGHT_RUNS, _counting("makhos", "right", 0, 16)),
    "Makhos: count, the other side": Task("makhos-30", RIGHT_RUNS, _counting("makhos", "left", 0, 16)),
    "Makhos: end a count": Task(
        "makhos-30", _script(RIGHT_RUNS, "pause hold_push knob_right knob_right push pause 1s"), _no_count),
    "Makhos: extra time, 5:00 (MH-3)": Task("makhos-move-2x5", RIGHT_RUNS, _extra),
    "Makhos: take the extra time back": Task(
        "makhos-move-2x5", _script(RIGHT_RUNS, "pause hold_push knob_right push push knob_right push pause 1s"),
        _taken_back),
    "Undo the last press": Task("crossword", "left 1.5s right 1s", _undone),
    # ---- ending a game
    "Makhos: an agreed draw": Task("makhos-30", RIGHT_RUNS, _review("draw", "agreement")),
    "Makhos: left wins, right resigned": Task("makhos-30", RIGHT_RUNS, _review("left", "resignation")),
    "Makhos: right wins, left resigned": Task("makhos-30", RIGHT_RUNS, _review("right", "resignation")),
    # MH-2 (a "lose" preset): right's move ran out at 2:00: left wins on time, nothing more to enter
    "Makhos: a move's time ran out": Task("makhos-move", "left 125s", _review("left", "time")),
    # MH-6: the 16th counted move draws the game; the clock has entered "draw, count"
    "Makhos: the count reached 16": Task(
        "makhos-30", _script(RIGHT_RUNS, "pause hold_push knob_right knob_right push pause 0.5s", SIXTEEN),
        _review("draw", "count")),
    "Makruk: right wins, left resigned (then the pieces)": Task("makruk-45", RIGHT_RUNS,
                                                                _pieces_next("right", "resignation")),
    # ---- value entries
    "A side's time: left 12:34 to 10:00": Task(
        "crossword", _script(RIGHT_RUNS, "pause hold_push knob_right push push", DIGITS_22_TO_12_34, "pause 1s"),
        _time("left", 10)),
    "A side's time: right 12:34 to 10:00": Task(
        "crossword", _script("left 1s right 1s pause hold_push knob_right push knob_right push",
                             RIGHT_21_58_TO_12_34, "pause 1s"),
        _time("right", 10)),
    "A score: 412": Task("crossword", _script(RIGHT_RUNS, "pause hold_push knob_left push knob_right push"),
                         _score(412)),
    # MR-9: the letters of the pieces left besides the king
    "Makruk pieces: K+R+2P": Task(
        "makruk-45", _script(RIGHT_RUNS, "pause hold_push knob_left push knob_right push knob_left push"),
        _material("RPP", None)),
    "Makruk pieces: K only": Task(
        "makruk-45", _script(RIGHT_RUNS, "pause hold_push knob_left push knob_right push knob_left push"),
        _material("", None)),
}


def _rows() -> list[dict[str, str]]:
    return [row for table in guide_tables() for row in table]


def test_the_guide_lists_every_task_and_only_these():
    tables = guide_tables()
    assert len(tables) == 2, "the fixed tasks, then the value entries"
    names = [row["task"] for row in _rows()]
    assert sorted(names) == sorted(TASKS) and len(set(names)) == len(names)


def test_every_fixed_task_takes_at_most_8_knob_actions():
    fixed = guide_tables()[0]
    assert len(fixed) >= 20
    for row in fixed:
        assert len(actions(row["actions"])) == int(row["count"]) <= MAX_ACTIONS, row


@pytest.mark.parametrize("task", sorted(TASKS))
def test_each_task_played_through_the_clock(task, tmp_path):
    row = next((r for r in _rows() if r["task"] == task), None)
    assert row is not None, f"docs/arbiter.md does not list {task!r}"
    t = TASKS[task]
    steps = actions(row["actions"])
    assert len(steps) == int(row["count"])
    with VirtualSim(FrameList(), presets=PRESETS, state_dir=tmp_path, preset=t.preset) as sim:
        sim.play(t.setup)
        before = _now(sim) if sim.loop.state is not None else None
        for step in steps:
            sim.act(step)
            sim.wait(0.3)  # the arbiter reads the screen
        t.check(sim, before)
