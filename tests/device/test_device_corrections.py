"""Issue 15: the arbiter's corrections at the board, through the real loop on mock pins (buttons, knob,
the unlock gesture) with its journal: a side's time set digit by digit, a press taken back. Each is
an event in the journal; the journal folded again gives the live state; the record lists them.

Makruk 45:00 a side (makruk-45: countdown, no increment). Worked by hand:
- at ready the left button starts right's clock (1.0 s); right presses at 6.0 (right used 5.0 s);
  left presses at 9.0 (left used 3.0 s); the pause button at 10.0 (right has run 1.0 s: 44:54 left).
- the arbiter holds the knob 3 s (unlock), Corrections > Right: the digits start at 0:44:54 with
  the cursor on the minutes' units (issue 27); turning 4 -> 0 is four notches counter-clockwise (UP),
  BACK moves to the tens, 4 -> 1 is three UP, then a long push zeroes the digits after the cursor and
  sets it: right 10:00. Knob actions: 4 + 1 + 3 + 1 = 9 for the time (issue 15: at most 12).
- Undo last press (Yes): left's press at 9.0 is taken back: left runs again from 9.0 as if it had
  never pressed: left's used time goes back to 3.0 s + the running since (the clock is paused)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_device_menu_loop import Rig, choose, start

from gameclock.core import clock as core
from gameclock.persist.journal import read_game
from gameclock.persist.rebuild import fold
from gameclock.persist.restore import attach

S = 10**9


@pytest.fixture
def rig(factory, inbox, monkeypatch, tmp_path):
    r = Rig(factory, inbox, monkeypatch)
    journal, _ = attach(r.loop, tmp_path)
    r.journal = journal
    yield r
    journal.close()
    r.close()


def unlock(rig, at_s):
    rig.at(at_s)
    frame = rig.press("push", hold_s=3.0)
    assert rig.loop.menu.is_open and frame.message == "menu unlocked (arbiter)"


def played_to_a_pause(rig):
    start(rig, "makruk-45")
    rig.at(1.0); rig.press("left")    # right's clock runs from ~1.0
    rig.at(6.0); rig.press("right")   # left's clock
    rig.at(9.0); rig.press("left")    # right's clock
    rig.at(10.0); rig.press("pause")
    assert rig.loop.state.phase == core.PAUSED


def journal_state(rig, tmp_path):
    rig.journal.writer.flush()
    path = tmp_path / "games" / "000001.log"
    rec = read_game(path.read_bytes(), 1, str(path))
    state, _ = fold(rig.loop.preset, rec, rig.loop.preset.short)
    return state, [line for line in path.read_bytes().rstrip(b"\0").decode().splitlines()]


def test_a_sides_time_set_digit_by_digit(rig, tmp_path):
    played_to_a_pause(rig)
    unlock(rig, 12.0)
    actions = 0
    choose(rig, "Corrections")
    rig.to_item("Right")
    rig.press("push")
    assert rig.loop.menu.view()["items"][1].startswith("Right 0:4[4]:5")  # the cursor on the minutes' units
    for key, n in (("turn", -4), ("back", 1), ("turn", -3)):
        if key == "turn":
            rig.turn(n)
        else:
            rig.press(key)
        actions += abs(n)
    assert rig.loop.menu.view()["items"][1].startswith("Right 0:[1]0:5")
    rig.press("push", hold_s=1.0)  # a long push: the seconds to zero, the time set
    actions += 1
    assert actions == 9 <= 12
    assert not rig.loop.menu.is_open and rig.loop.message == "right time set"
    assert core.remaining_ns(rig.loop.state, 1) == 10 * 60 * S           # 10:00 exactly
    state, lines = journal_state(rig, tmp_path)
    assert any(ln.split("*")[0].endswith(" adjust right 10:00") for ln in lines)  # an event in the journal
    assert core.remaining_ns(state, 1) == core.remaining_ns(rig.loop.state, 1)  # replay == live
    assert core.remaining_ns(state, 0) == core.remaining_ns(rig.loop.state, 0)


def test_the_last_press_taken_back(rig, tmp_path):
    played_to_a_pause(rig)
    left_before = core.used_ns(rig.loop.state, 0)
    unlock(rig, 12.0)
    choose(rig, "Corrections")
    choose(rig, "Undo last press")  # asks "Undo last press?": Yes
    assert not rig.loop.menu.is_open and rig.loop.message == "last press undone"
    st = rig.loop.state
    assert st.phase == core.PAUSED and st.running == 0   # left's clock again (it is paused)
    assert core.used_ns(st, 0) > left_before              # left's running since its press is its own again
    state, lines = journal_state(rig, tmp_path)
    assert any(ln.split("*")[0].endswith(" undo") for ln in lines)
    for s in (0, 1):
        assert core.used_ns(state, s) == core.used_ns(st, s)  # replay == live


def test_a_sides_move_count_set_digit_by_digit(rig, tmp_path):
    """FIDE's clock standard: the move count is corrected like the time. At the pause each side has
    made one move (right at 6.0, left at 9.0); the arbiter sets left's to 20: Corrections > Moves
    left shows 00[1] (issue 27: the cursor on the ones); one notch back (ones 1 -> 0), back (the tens),
    two notches (tens 0 -> 2), a long push (zeros after: set). 5 actions for the correction."""
    played_to_a_pause(rig)
    unlock(rig, 12.0)
    choose(rig, "Corrections")
    rig.to_item("Moves left")
    rig.press("push")
    assert rig.loop.menu.view()["items"][rig.loop.menu.view()["index"]].endswith("00[1]")
    actions = 0
    for key, n in (("turn", -1), ("back", 1), ("turn", 2)):
        if key == "turn":
            rig.turn(n)
        else:
            rig.press(key)
        actions += abs(n)
    rig.press("push", hold_s=1.0)
    actions += 1
    assert actions == 5 <= 12
    assert not rig.loop.menu.is_open and rig.loop.message == "left moves set"
    assert (rig.loop.state.sides[0].moves, rig.loop.state.sides[1].moves) == (20, 1)
    state, lines = journal_state(rig, tmp_path)
    assert any(ln.split("*")[0].endswith(" moves left 20") for ln in lines)  # an event in the journal
    assert state.sides[0].moves == 20 and state.sides[1].moves == 1   # replay == live
    for s in (0, 1):
        assert core.remaining_ns(state, s) == core.remaining_ns(rig.loop.state, s)


def test_no_is_the_first_answer_and_changes_nothing(rig):
    played_to_a_pause(rig)
    before = rig.loop.state
    unlock(rig, 12.0)
    choose_no = rig.to_item("End game")
    assert choose_no is not None
    rig.press("push")
    assert rig.loop.menu.view()["page"] == "confirm" and rig.loop.menu.view()["index"] == 0
    rig.press("push")  # No
    assert rig.loop.menu.view()["page"] == "game" and rig.loop.state == before


def test_the_record_lists_the_corrections():
    """record.corrections over the module's game: a time set and a press taken back, with both sides'
    times before and after (worked by hand from the events, not from the loop)."""
    from gameclock.core.events import Adjust, Pause, Press, Start, Undo
    from gameclock.record import corrections
    from gameclock.rules.loader import find_preset

    control = find_preset("makruk-45").control_for(0)
    full = 45 * 60 * 1000
    events = [Start(1 * S, 1), Press(6 * S, 1), Press(9 * S, 0), Pause(10 * S),
              Adjust(12 * S, side=1, remaining_ns=600 * S), Undo(13 * S)]
    got = corrections(control, events)
    assert got == [
        {"kind": "time", "side": "right", "t_ms": 12_000,
         "before_ms": {"left": full - 3_000, "right": full - 6_000},
         "after_ms": {"left": full - 3_000, "right": 600_000},
         "moves_before": {"left": 1, "right": 1}, "moves_after": {"left": 1, "right": 1}},
        # the undone press was left's (at 9.0): rebuilt from just before it, left ran on to the pause
        # at 10.0 (4.0 s used); what came after the press is applied again, the 10:00 set for right too
        {"kind": "undo", "side": "left", "t_ms": 13_000,
         "before_ms": {"left": full - 3_000, "right": 600_000},
         "after_ms": {"left": full - 4_000, "right": 600_000},
         "moves_before": {"left": 1, "right": 1}, "moves_after": {"left": 0, "right": 1}},
    ]
    json.dumps(got)  # JSON as the record carries it


def test_extra_time_given_by_the_arbiter_shown_and_taken_back(rig, tmp_path):
    """MH-3 (seed 004): makhos-move, 2:00 a move, extra time 2x5:00 or 1x10:00 (the first request
    fixes the option). Right is on move from 1.0; paused at 11.0 (1:50 left of its move). The arbiter
    gives right the 1x10:00 option (before, the knob's long push always gave the first): 11:50, and
    "+10:00" on right's status line; then takes it back (a mistake): 1:50 again, the option free."""
    from gameclock.ui.screens import headline

    start(rig, "makhos-move")
    rig.at(1.0); rig.press("left")
    rig.at(11.0); rig.press("pause")
    unlock(rig, 12.0)
    choose(rig, "Corrections")
    items = rig.loop.menu.view()["items"]
    assert "Extra right 2x5:00" in items and "Extra right 1x10:00" in items
    assert not any(i.startswith("Take back") for i in items)  # nothing given yet
    rig.to_item("Extra right 1x10:00")
    rig.press("push")
    assert rig.loop.menu.view()["title"] == "Right +10:00?"
    rig.to_item("Yes")
    rig.press("push")
    assert rig.loop.message == "right extra time given"
    assert core.remaining_ns(rig.loop.state, 1) == (110 + 600) * S
    v = core.view(rig.loop.state)
    v["extra"] = rig.loop.extra_shown()
    assert headline(v, 1)[0] == "PAUSE  +10:00" and headline(v, 0)[0] == "PAUSE"  # "+10:00" on right's only
    unlock(rig, 20.0)
    choose(rig, "Corrections")
    assert "Extra right 1x10:00" not in rig.loop.menu.view()["items"]  # 1x: used up
    choose(rig, "Take back right extra")
    assert rig.loop.message == "right extra time taken back"
    assert core.remaining_ns(rig.loop.state, 1) == 110 * S
    assert rig.loop.state.sides[1].ext_option is None and rig.loop.extra_shown() == {}
    state, lines = journal_state(rig, tmp_path)
    body = [ln.split("*")[0] for ln in lines]
    assert any(b.endswith(" extend right 10") for b in body) and any(b.endswith(" retract right") for b in body)
    assert core.remaining_ns(state, 1) == core.remaining_ns(rig.loop.state, 1)  # replay == live
    from gameclock.record import corrections
    assert [(c["kind"], c["side"], c["after_ms"]["right"]) for c in
            corrections(rig.loop.state.control, rig.loop.events)] == [("extend", "right", 710_000),
                                                                       ("retract", "right", 110_000)]


def test_a_rule_file_may_name_the_long_push_for_extra_time(tmp_path):
    """MH-3: `[clock] extension_gesture = "long-push"` (a rule file's choice) lets the mover hold the
    knob: the chosen option, else the first (2x5:00): right's move 2:00 -> 6:5x. The shipped presets
    leave it to the arbiter (the default)."""
    import queue

    from gameclock.inbox import Key, PlayerButton
    from gameclock.loop import Loop
    from gameclock.rules.loader import find_preset, load_presets
    from gameclock.ui.keys import LONG_CLICK

    shipped = (find_preset("makhos-move").control_for(0).extension_gesture)
    assert shipped == "arbiter"
    text = Path(find_preset.__code__.co_filename).parent.joinpath("..", "presets", "makhos-move.toml").resolve()
    toml = text.read_text(encoding="utf-8").replace('id = "makhos-move"', 'id = "makhos-hold"').replace(
        'mode = "per_move"', 'mode = "per_move"\nextension_gesture = "long-push"')
    (tmp_path / "makhos-hold.toml").write_text(toml, encoding="utf-8")
    preset = find_preset("makhos-hold", tmp_path)
    now = [100 * S]

    class Null:
        def show(self, frame):
            pass

        def beep(self, alert, text):
            pass

    loop = Loop(queue.Queue(), [*load_presets(), preset], Null(), Null(), clock=lambda: now[0])
    loop.new_game("makhos-hold", 1)
    loop.pump(now[0], [PlayerButton(now[0], 0)])        # right's move
    now[0] += 5 * S
    loop.pump(now[0], [Key(now[0], LONG_CLICK)])
    assert core.remaining_ns(loop.state, 1) == (115 + 300) * S


def test_a_sudoku_finish_press_taken_back():
    """SU-1..SU-3 (issue 15: "a Sudoku finish press cannot be taken back"): sudoku-60, one round for
    both; left presses "finished" at 100 s by mistake, the arbiter pauses at 101 s and takes the
    press back (Corrections > Undo last press, the same core Undo): left's round goes on, its 101 s
    used so far; the record lists it (undo, left)."""
    from gameclock.core.events import Pause, Press, Start, Undo
    from gameclock.record import corrections
    from gameclock.rules.loader import find_preset

    control = find_preset("sudoku-60").control_for(0)
    events = [Start(0, 0), Press(100 * S, 0), Pause(101 * S), Undo(105 * S)]
    st = core.new_game(control)
    for ev in events[:2]:
        st = core.apply(st, ev)
    assert core.view(st)["sides"]["left"]["finish_ms"] == 100_000
    for ev in events[2:]:
        st = core.apply(st, ev)
    v = core.view(st)["sides"]["left"]
    assert v["finish_ms"] is None and v["used_ms"] == 101_000 and st.phase == core.PAUSED
    assert [(c["kind"], c["side"]) for c in corrections(control, events)] == [("undo", "left")]


def test_a_sudoku_finish_press_taken_back_through_the_loop(rig, tmp_path):
    """The same correction as above through the real loop with its journal (SU-1..SU-3: one round
    for both, each button says "finished"): the left button starts the round at 1.0; left's button
    at 100.0 by mistake (its finish is 99 s into the round); the pause at 101.0; the arbiter's
    Corrections > Undo last press (Yes): left's round goes on (no finish), both still solving."""
    start(rig, "sudoku-60")
    rig.at(1.0); rig.press("left")
    rig.at(100.0); rig.press("left")
    assert core.view(rig.loop.state)["sides"]["left"]["finish_ms"] is not None
    rig.at(101.0); rig.press("pause")
    unlock(rig, 102.0)
    choose(rig, "Corrections")
    choose(rig, "Undo last press")
    assert rig.loop.message == "last press undone"
    live = core.view(rig.loop.state)["sides"]
    assert live["left"]["finish_ms"] is None and live["right"]["finish_ms"] is None
    state, lines = journal_state(rig, tmp_path)
    assert any(ln.split("*")[0].endswith(" undo") for ln in lines)
    replayed = core.view(state)["sides"]
    for side in ("left", "right"):  # replay == live
        assert replayed[side]["finish_ms"] == live[side]["finish_ms"]
        assert replayed[side]["used_ms"] == live[side]["used_ms"]


def test_the_confirmed_record_lists_the_corrections_made_at_the_board(rig, tmp_path):
    """End to end through the loop and its journal: makhos-move (MH-2: 2:00 a move, no extra time).
    Right's button at 1.0 starts left's move; left moves at 31.0 (30 s), right's move from 31.0; the
    pause at 41.0 (right's move has 1:50 left). The arbiter sets right's move time to 1:00
    (Corrections > Right: the cursor on the minutes' ones (issue 27), a long push zeroes the seconds:
    0:01:00), resumes at 50.0; right's move runs out 60 s later (MH-2, flag
    at 110.0). The arbiter opens the entry with a push (nothing missing: "left wins, time"), confirms,
    and both players confirm. The record in the outbox lists the one correction: kind time, side
    right, at 45.x s (game time: the session's ns less the start), right 1:50 -> 1:00, left's 2:00
    move time (it is not on move) unchanged; both sides' moves 1 and 0 before and after."""
    start(rig, "makhos-move")
    rig.at(1.0); rig.press("right")
    rig.at(31.0); rig.press("left")
    rig.at(41.0); rig.press("pause")
    unlock(rig, 42.0)
    choose(rig, "Corrections")
    rig.to_item("Right")
    rig.press("push")
    rig.press("push", hold_s=1.0)     # on the minutes' ones (1): the seconds zeroed, set
    assert rig.loop.message == "right time set"
    assert core.remaining_ns(rig.loop.state, 1) == 60 * S
    rig.at(50.0); rig.press("pause")  # resume
    assert rig.loop.state.phase == core.RUNNING
    rig.at(111.0)
    rig.pump()
    assert rig.loop.state.phase == core.FLAGGED
    rig.press("push")                 # the flag screen held for the arbiter: the entry opens
    assert rig.loop.result is not None
    rig.press("push")                 # nothing missing: the arbiter's list is on Confirm
    rig.press("left")
    rig.press("right")
    rig.journal.writer.flush()
    (path,) = (tmp_path / "outbox").glob("*.json")
    record = json.loads(path.read_text(encoding="utf-8"))
    assert (record["outcome"], record["reason"]) == ("left", "time")
    (c,) = record["corrections"]
    assert (c["kind"], c["side"]) == ("time", "right")
    assert 44_000 <= c["t_ms"] <= 47_000  # the long push's release, ~45 s after the start at 1.0
    assert c["before_ms"]["right"] == 110_000 and c["after_ms"]["right"] == 60_000
    assert c["before_ms"]["left"] == c["after_ms"]["left"] == 120_000
    assert c["moves_before"] == c["moves_after"] == {"left": 1, "right": 0}
