"""Hand-worked unit tests of the clock core. Every expected number is worked out in the comments from the
rules (RULES.md IDs cited where one applies), never copied from a run of the code.

Notation in the comments: times are m:ss from the log's zero unless said otherwise; "rem" is a side's
remaining time, "used" its time charged.
"""
from __future__ import annotations

import pytest

from gameclock.core.clock import (
    FINISHED,
    FLAGGED,
    PAUSED,
    READY,
    RUNNING,
    Rejected,
    advance,
    apply,
    new_game,
    remaining_ns,
    used_ns,
    view,
)
from gameclock.core.control import (
    DELAY_BRONSTEIN,
    DELAY_SIMPLE,
    GAMECUT,
    NS_PER_MIN,
    NS_PER_MS,
    NS_PER_S,
    PER_MOVE,
    ROUND,
    Control,
    ExtensionOption,
    Stage,
)
from gameclock.core.display import format_remaining
from gameclock.core.events import Adjust, Extend, Finish, Pause, Press, Resume, Start, Undo
from gameclock.core.log import LogError, format_event, format_seconds, parse_log, parse_seconds

S = NS_PER_S
MIN = NS_PER_MIN
MS = NS_PER_MS
L, R = 0, 1


def m(minutes: int, seconds: float = 0) -> int:
    """m:ss -> ns (seconds may carry a fraction given exactly in ms)."""
    return minutes * MIN + round(seconds * 1000) * MS


def countdown(time_ns: int, **kw) -> Control:
    return Control(stages_left=(Stage(time_ns),), stages_right=(Stage(time_ns),), **kw)


def fold(control: Control, *events):
    state = new_game(control)
    for ev in events:
        state = apply(state, ev)
    return state


def side_view(state, side: int, at_ns: int | None = None) -> dict:
    return view(state, at_ns)["sides"][("left", "right")[side]]


def alerts(state, at_ns: int | None = None) -> list[tuple]:
    return [(a["t_ms"], a["side"], a["kind"]) for a in view(state, at_ns)["alerts"]]


# The event presets of rules/*.toml, written out here so the tests do not depend on the loader.
CROSSWORD = countdown(m(22), negative=True, penalty_points_per_minute=10)          # XW-2, XW-3
MAKRUK_45 = countdown(m(45))                                                         # MR-1
MAKHOS_MOVE = Control(mode=PER_MOVE, move_time_ns=m(2), announce_ns=(m(0, 30), m(0, 10)),
                      extension_options=(ExtensionOption(2, m(5)), ExtensionOption(1, m(10))))  # MH-2, MH-3
CROSSWORD_NOCUT = Control(mode=GAMECUT, stages_left=(Stage(m(50)),), stages_right=(Stage(m(50)),),
                          cut_warnings_ns=(m(10), m(5)), cut_extra_turns=2)          # XW-5


# ------------------------------------------------------------------------------------------------
# CL-2: the idle side's button, and buttons while paused, do nothing


def test_idle_side_press_does_nothing():
    # CL-2. Left runs from 0:00. Right (idle) presses at 0:05: nothing changes; left still runs.
    st = fold(CROSSWORD, Start(0, L))
    after = apply(st, Press(m(0, 5), R))
    assert after.running == L and after.phase == RUNNING
    assert after.sides == st.sides and after.events == st.events  # no move, no booking, not even counted
    assert remaining_ns(after, L) == m(22) - m(0, 5)  # 21:55, left's clock kept running
    assert remaining_ns(after, R) == m(22)
    # Left's own press at 0:07 then charges left the whole 7 s.
    after = apply(after, Press(m(0, 7), L))
    assert after.running == R
    assert used_ns(after, L) == m(0, 7) and after.sides[L].moves == 1
    assert used_ns(after, R) == 0


def test_bounce_never_switches_twice():
    # CL-2: left presses at 0:10 and its contact bounces 1 ms later. The bounce is now the idle side's
    # press: right keeps running, so right is charged 0:10.001 -> 0:10.501 = 500 ms when asked at 0:10.501.
    st = fold(CROSSWORD, Start(0, L), Press(m(0, 10), L), Press(m(0, 10) + MS, L))
    assert st.running == R and st.sides[L].moves == 1
    assert used_ns(advance(st, m(0, 10.5)), R) == 500 * MS


def test_press_before_start_does_nothing():
    st = fold(CROSSWORD, Press(m(0, 3), L))
    assert st.phase == READY and st.running is None and st.sides[L].moves == 0


def test_press_while_paused_does_nothing():
    # CL-2, CL-3: left runs 0:00-0:10, paused 0:10-0:20. Left's press at 0:12 does nothing (still paused,
    # still left's turn). Resumed at 0:20, left presses at 0:25: left used 10 + 5 = 15 s.
    st = fold(CROSSWORD, Start(0, L), Pause(m(0, 10)))
    st2 = apply(st, Press(m(0, 12), L))
    assert st2.phase == PAUSED and st2.running == L and st2.sides == st.sides
    st2 = apply(st2, Press(m(0, 13), R))
    assert st2.phase == PAUSED and st2.running == L and st2.sides == st.sides
    st2 = apply(st2, Resume(m(0, 20)))
    st2 = apply(st2, Press(m(0, 25), L))
    assert used_ns(st2, L) == m(0, 15)
    assert remaining_ns(st2, L) == m(22) - m(0, 15)  # 21:45
    assert st2.running == R


# ------------------------------------------------------------------------------------------------
# CL-3 / XW-4: pause (a challenge) stops both clocks; resume restarts the side that ran


def test_challenge_pause_stops_both_and_resume_restarts_the_runner():
    # XW-4: left moves in 1:00 (21:00 left). Right runs from 1:00; right's opponent challenges at 1:30
    # (right used 0:30, 21:30 left). The ruling takes until 3:20; nothing moves meanwhile (CL-3).
    st = fold(CROSSWORD, Start(0, L), Press(m(1), L), Pause(m(1, 30)))
    for t in (m(1, 30), m(2), m(3, 19.999)):
        v = view(st, t)
        assert v["state"] == "paused" and v["running"] == "right"
        assert v["sides"]["left"]["remaining_ms"] == m(21) // MS
        assert v["sides"]["right"]["remaining_ms"] == m(21, 30) // MS
        assert v["sides"]["right"]["display"] == "21:30"
    st = apply(st, Resume(m(3, 20)))
    assert st.phase == RUNNING and st.running == R
    # 10 s after the resume right has used 0:30 + 0:10 = 0:40 -> 21:20; left untouched at 21:00.
    assert remaining_ns(advance(st, m(3, 30)), R) == m(21, 20)
    assert remaining_ns(advance(st, m(3, 30)), L) == m(21)


def test_pause_and_resume_are_rejected_out_of_turn():
    st = new_game(CROSSWORD)
    with pytest.raises(Rejected):
        apply(st, Pause(0))            # not started
    st = apply(st, Start(0, L))
    with pytest.raises(Rejected):
        apply(st, Resume(m(0, 1)))     # not paused
    st = apply(st, Pause(m(0, 2)))
    with pytest.raises(Rejected):
        apply(st, Pause(m(0, 3)))      # already paused


def test_pause_during_the_first_mover_turn_resumes_the_first_mover():
    # CL-3 with the left side running: pause at 0:04, resume at 5:00, press at 5:06 -> left used 4 + 6 = 10 s.
    st = fold(MAKRUK_45, Start(0, L), Pause(m(0, 4)), Resume(m(5)), Press(m(5, 6), L))
    assert used_ns(st, L) == m(0, 10) and used_ns(st, R) == 0


# ------------------------------------------------------------------------------------------------
# XW-3: negative time, its display and its penalty


@pytest.mark.parametrize("over_ns, display, penalty", [
    (0, "0:00", 0),                    # exactly at zero: no overtime yet
    (1, "-0:01", 10),                  # 1 ns over: a started minute, 10 points (any part of a minute counts)
    (200 * MS, "-0:01", 10),           # 0.2 s over shows -0:01 (rounded away from zero) and costs 10
    (m(0, 59.999), "-1:00", 10),       # 59.999 s over: display rounds away from zero to -1:00, one minute
    (m(1), "-1:00", 10),               # exactly one minute over: 1 minute -> 10
    (m(1) + 1, "-1:01", 20),           # one minute and 1 ns: two started minutes -> 20
    (m(3, 18), "-3:18", 40),           # the rule's own example: -3:18 is 4 minutes -> 40 points
])
def test_overtime_display_and_penalty(over_ns, display, penalty):
    # XW-3: left runs from 0:00 with 22:00; at 22:00 + over the display and penalty are as listed.
    st = fold(CROSSWORD, Start(0, L))
    sv = side_view(st, L, m(22) + over_ns)
    assert sv["display"] == display
    assert sv["penalty_points"] == penalty
    assert sv["overtime_ms"] == over_ns // MS
    assert sv["flagged"] is False  # XW-3: the clock keeps running below zero


def test_overtime_is_kept_after_the_move_and_sounds_once():
    # XW-3: left moves at 25:18 (3:18 over), then right runs. Left's clock stays at -3:18, penalty 40.
    st = fold(CROSSWORD, Start(0, L), Press(m(25, 18), L))
    sv = side_view(st, L, m(30))
    assert sv["display"] == "-3:18" and sv["penalty_points"] == 40
    assert view(st, m(30))["state"] == "running" and st.running == R
    assert [a for a in alerts(st) if a[2] == "overtime"] == [(m(22) // MS, "left", "overtime")]


# ------------------------------------------------------------------------------------------------
# MR-1: sudden death, the flag falls at exactly the budget and the first flag ends the game


def test_flag_at_exactly_the_budget():
    # MR-1 (45:00 sudden death). Left runs from 0:00: 1 ns before 45:00 it still has 1 ns, not flagged.
    st = fold(MAKRUK_45, Start(0, L))
    before = advance(st, m(45) - 1)
    assert before.phase == RUNNING and remaining_ns(before, L) == 1
    at = advance(st, m(45))
    assert at.phase == FLAGGED and at.flag_side == L and at.sides[L].flagged
    assert remaining_ns(at, L) == 0 and used_ns(at, L) == m(45)
    assert alerts(at) == [(m(45) // MS, "left", "flag")]


def test_press_at_the_last_nanosecond_saves_the_game_and_at_the_budget_is_too_late():
    # A press 1 ns before the budget is a move (left keeps 1 ns); at exactly 45:00 the flag comes first.
    saved = fold(MAKRUK_45, Start(0, L), Press(m(45) - 1, L))
    assert saved.phase == RUNNING and saved.running == R and remaining_ns(saved, L) == 1
    late = fold(MAKRUK_45, Start(0, L), Press(m(45), L))
    assert late.phase == FLAGGED and late.flag_side == L and late.sides[L].moves == 0


def test_first_flag_stops_both_clocks():
    # MR-1: left moves at 10:00; right runs from 10:00 and flags at 55:00 (45:00 of its own).
    # After that nothing runs: left keeps 35:00 for ever and no second flag ever sounds.
    st = fold(MAKRUK_45, Start(0, L), Press(m(10), L))
    st = advance(st, m(200))
    assert st.phase == FLAGGED and st.flag_side == R and st.running is None
    assert remaining_ns(st, L) == m(35) and remaining_ns(st, R) == 0
    assert alerts(st) == [(m(55) // MS, "right", "flag")]
    assert apply(st, Press(m(201), L)).sides == st.sides  # buttons do nothing after the flag
    assert apply(st, Press(m(201), R)).sides == st.sides


# ------------------------------------------------------------------------------------------------
# MH-2: 2:00 per move, announcements at 30 s and 10 s left, loss at 2:00


def test_per_move_announcements_and_loss():
    st = fold(MAKHOS_MOVE, Start(0, L))
    assert alerts(st, m(1, 30) - 1) == []
    # MH-2: at 1:30 used (30 s left) the first announcement, at 1:50 used (10 s left) the second.
    assert alerts(st, m(1, 30)) == [(90_000, "left", "announce")]
    assert view(st, m(1, 30))["alerts"][0]["remaining_ms"] == 30_000
    assert alerts(st, m(1, 50)) == [(90_000, "left", "announce"), (110_000, "left", "announce")]
    assert view(st, m(1, 50))["alerts"][1]["remaining_ms"] == 10_000
    # At 2:00 the player loses the game (the move time is over).
    end = advance(st, m(2))
    assert end.phase == FLAGGED and end.flag_side == L
    assert alerts(end)[-1] == (120_000, "left", "flag")
    assert advance(st, m(2) - 1).phase == RUNNING


def test_per_move_every_move_gets_a_fresh_two_minutes():
    # MH-2: left moves after 1:55 (both announcements sounded). Right's move: 2:00 of its own.
    # Left's next move (from 3:00) has 2:00 again and announces again at 4:30 and 4:50.
    st = fold(MAKHOS_MOVE, Start(0, L), Press(m(1, 55), L))
    assert remaining_ns(st, L) == m(2) and remaining_ns(st, R) == m(2)
    st = apply(st, Press(m(3), R))  # right used 1:05
    assert remaining_ns(st, R) == m(2)
    assert used_ns(st, L) == m(1, 55) and used_ns(st, R) == m(1, 5)
    got = alerts(st, m(4, 50))
    assert got == [(90_000, "left", "announce"), (110_000, "left", "announce"),
                   (m(4, 30) // MS, "left", "announce"), (m(4, 50) // MS, "left", "announce")]


# ------------------------------------------------------------------------------------------------
# MH-3: extra thinking time


def test_two_extensions_of_five_minutes_and_a_third_is_refused():
    # MH-3: left asks at 1:55 (5 s left) for 5:00: the move's deadline moves from 2:00 to 7:00.
    st = fold(MAKHOS_MOVE, Start(0, L))
    st = apply(st, Extend(m(1, 55), L, m(5)))
    assert remaining_ns(st, L) == m(5, 5)
    assert side_view(st, L)["extension_option"] == "2x5:00" and side_view(st, L)["extensions_left"] == 1
    # The announcements are armed again 30 s and 10 s before the new deadline: at 6:30 and 6:50.
    got = alerts(st, m(6, 50))
    assert got[2:] == [(m(6, 30) // MS, "left", "announce"), (m(6, 50) // MS, "left", "announce")]
    # The second 5:00 at 6:55: deadline 12:00, announcements at 11:30 and 11:50.
    st = apply(st, Extend(m(6, 55), L, m(5)))
    assert remaining_ns(st, L) == m(5, 5)
    assert alerts(st, m(11, 50))[4:] == [(m(11, 30) // MS, "left", "announce"),
                                         (m(11, 50) // MS, "left", "announce")]
    # A third request is refused (two of 5:00 is the whole allowance), and so is the 10:00 option now.
    with pytest.raises(Rejected):
        apply(st, Extend(m(11, 55), L, m(5)))
    with pytest.raises(Rejected):
        apply(st, Extend(m(11, 55), L, m(10)))
    assert advance(st, m(12)).phase == FLAGGED
    assert advance(st, m(12) - 1).phase == RUNNING


def test_one_extension_of_ten_minutes_fixes_the_option():
    # MH-3: left's first request is 10:00 (at 1:00, 1:00 left): deadline 2:00 + 10:00 = 12:00.
    st = fold(MAKHOS_MOVE, Start(0, L), Extend(m(1), L, m(10)))
    assert remaining_ns(st, L) == m(11)
    assert side_view(st, L)["extension_option"] == "1x10:00" and side_view(st, L)["extensions_left"] == 0
    with pytest.raises(Rejected):
        apply(st, Extend(m(2), L, m(10)))   # only one of 10:00
    with pytest.raises(Rejected):
        apply(st, Extend(m(2), L, m(5)))    # the first request fixed the 1x10:00 option
    # The announcements sound 30 s and 10 s before 12:00 only (the old 1:30 and 1:50 never come).
    assert alerts(st, m(12) - 1) == [(m(11, 30) // MS, "left", "announce"), (m(11, 50) // MS, "left", "announce")]
    assert advance(st, m(12)).flag_side == L


def test_extension_only_by_the_side_on_move_and_before_the_move_time_runs_out():
    st = fold(MAKHOS_MOVE, Start(0, L))
    with pytest.raises(Rejected):
        apply(st, Extend(m(0, 30), R, m(5)))  # right is not on move
    with pytest.raises(Rejected):
        apply(st, Extend(m(2), L, m(5)))      # at 2:00 the move time has run out (the flag comes first)
    with pytest.raises(Rejected):
        apply(st, Extend(m(0, 30), L, m(7)))  # 7:00 is not an option


def test_extension_lengthens_only_the_current_move_and_options_are_per_side():
    # Left takes 5:00 during its first move and moves at 4:00 (used 4:00 of the 7:00 deadline).
    st = fold(MAKHOS_MOVE, Start(0, L), Extend(m(1), L, m(5)), Press(m(4), L))
    assert remaining_ns(st, L) == m(2)   # the next move is the plain 2:00 again
    assert used_ns(st, L) == m(4)
    # Right may still choose the other option: 1x10:00.
    st = apply(st, Extend(m(5), R, m(10)))
    assert remaining_ns(st, R) == m(2) - m(1) + m(10)  # 1:00 used of 12:00 -> 11:00
    assert side_view(st, R)["extension_option"] == "1x10:00"
    # Left's choice of 2x5:00 is kept: one 5:00 left for the rest of the game.
    assert side_view(st, L)["extensions_left"] == 1


# ------------------------------------------------------------------------------------------------
# Countdown variants, worked by hand


def test_fischer_increment():
    # 3:00 + 2 s per move. Left moves in 0:10 -> 3:00 - 0:10 + 0:02 = 2:52. Right moves in 0:30 (0:10-0:40)
    # -> 2:32. Left moves in 0:01 (0:40-0:41) -> 2:52 - 0:01 + 0:02 = 2:53: the increment comes after
    # the move, never during it.
    c = Control(stages_left=(Stage(m(3), None, m(0, 2)),), stages_right=(Stage(m(3), None, m(0, 2)),))
    st = fold(c, Start(0, L), Press(m(0, 10), L))
    assert remaining_ns(st, L) == m(2, 52)
    st = apply(st, Press(m(0, 40), R))
    assert remaining_ns(st, R) == m(2, 32)
    assert remaining_ns(advance(st, m(0, 40.5)), L) == m(2, 51.5)  # mid-move: no increment yet
    st = apply(st, Press(m(0, 41), L))
    assert remaining_ns(st, L) == m(2, 53)
    assert used_ns(st, L) == m(0, 11)


def test_bronstein_delay():
    # 5:00, Bronstein 3 s. Left moves in 2 s: 2 s given back -> 5:00. While it thinks the clock counts
    # the full time (at 1 s it shows 4:59). Right moves in 10 s: only 3 s back -> 5:00 - 0:10 + 0:03 = 4:53.
    c = countdown(m(5), delay_kind=DELAY_BRONSTEIN, delay_ns=m(0, 3))
    st = fold(c, Start(0, L))
    assert side_view(st, L, m(0, 1))["display"] == "4:59"
    st = apply(st, Press(m(0, 2), L))
    assert remaining_ns(st, L) == m(5)
    assert remaining_ns(advance(st, m(0, 7)), R) == m(4, 55)  # 5 s into right's move, full count
    st = apply(st, Press(m(0, 12), R))
    assert remaining_ns(st, R) == m(4, 53)
    assert used_ns(st, R) == m(0, 10)  # the time used is the real time; the refund is a credit


def test_simple_delay():
    # 5:00, simple delay 3 s. Left moves in 2 s: the clock never moved -> 5:00.
    # Right thinks 10 s (0:02-0:12): 5:00 shown for the first 3 s, then counting: at 0:06 (4 s in) 4:59,
    # at 0:05.5 (3.5 s in) 4:59.5 which shows as 4:59; right ends at 5:00 - (10 - 3) = 4:53.
    c = countdown(m(5), delay_kind=DELAY_SIMPLE, delay_ns=m(0, 3))
    st = fold(c, Start(0, L))
    assert remaining_ns(advance(st, m(0, 2)), L) == m(5)
    st = apply(st, Press(m(0, 2), L))
    assert remaining_ns(st, L) == m(5)
    assert remaining_ns(advance(st, m(0, 5)), R) == m(5)        # exactly 3 s in: still held
    assert remaining_ns(advance(st, m(0, 5.5)), R) == m(4, 59.5)
    assert side_view(st, R, m(0, 5.5))["display"] == "4:59"
    assert remaining_ns(advance(st, m(0, 6)), R) == m(4, 59)
    st = apply(st, Press(m(0, 12), R))
    assert remaining_ns(st, R) == m(4, 53)
    assert used_ns(st, R) == m(0, 10)


def test_simple_delay_flag_comes_after_the_delay():
    # 0:10 with a 3 s simple delay: the main time starts after 3 s, so the flag falls at 13 s, at 0:00.
    c = countdown(m(0, 10), delay_kind=DELAY_SIMPLE, delay_ns=m(0, 3))
    st = fold(c, Start(0, L))
    assert advance(st, m(0, 13) - 1).phase == RUNNING
    end = advance(st, m(0, 13))
    assert end.phase == FLAGGED and remaining_ns(end, L) == 0 and used_ns(end, L) == m(0, 13)


def test_byoyomi():
    # 10:00 then 5 periods of 30 s. Left uses all its main time: at 10:00 byo-yomi starts (30 s shown,
    # 5 periods). It moves at 10:20 (inside the period): the period is kept and reset to 30 s.
    c = countdown(m(10), byoyomi_periods=5, byoyomi_period_ns=m(0, 30))
    st = fold(c, Start(0, L))
    at10 = advance(st, m(10))
    assert at10.sides[L].in_byoyomi and at10.sides[L].periods_left == 5
    assert remaining_ns(at10, L) == m(0, 30)
    st = apply(st, Press(m(10, 20), L))
    assert remaining_ns(st, L) == m(0, 30) and st.sides[L].periods_left == 5
    # Right moves at 11:00; left thinks from 11:00: at 11:30 it oversteps a period (4 left, 30 s again),
    # moves at 11:45 (reset to 30 s, still 4).
    st = apply(st, Press(m(11), R))
    assert advance(st, m(11, 30)).sides[L].periods_left == 4
    assert remaining_ns(advance(st, m(11, 30)), L) == m(0, 30)
    st = apply(st, Press(m(11, 45), L))
    assert st.sides[L].periods_left == 4 and remaining_ns(st, L) == m(0, 30)
    # Right moves at 12:00; left never moves again: periods run out at 12:30 (3 left), 13:00 (2),
    # 13:30 (1) and the last one ends at 14:00: flag.
    st = apply(st, Press(m(12), R))
    assert advance(st, m(13, 30)).sides[L].periods_left == 1
    assert advance(st, m(14) - 1).phase == RUNNING
    end = advance(st, m(14))
    assert end.phase == FLAGGED and end.flag_side == L
    # Left's time used: 10:20 + 0:45 + 2:00 = 13:05.
    assert used_ns(end, L) == m(13, 5)


def test_hourglass():
    # Hourglass 5:00: left moves in 20 s -> left 4:40, right 5:20 (the 20 s went to the opponent).
    # Right thinks 50 s -> right 4:30, left 5:30. Mid-move both clocks move: 10 s into right's move
    # right shows 5:10 and left 4:50.
    c = countdown(m(5), hourglass=True)
    st = fold(c, Start(0, L), Press(m(0, 20), L))
    assert remaining_ns(st, L) == m(4, 40) and remaining_ns(st, R) == m(5, 20)
    mid = advance(st, m(0, 30))
    assert remaining_ns(mid, R) == m(5, 10) and remaining_ns(mid, L) == m(4, 50)
    st = apply(st, Press(m(1, 10), R))
    assert remaining_ns(st, R) == m(4, 30) and remaining_ns(st, L) == m(5, 30)
    # Left now thinks until it runs out: 5:30 from 1:10 -> flag at 6:40, right then has 4:30 + 5:30 = 10:00.
    end = advance(st, m(7))
    assert end.flag_side == L and remaining_ns(end, R) == m(10)
    assert alerts(end) == [(m(6, 40) // MS, "left", "flag")]


def test_multi_stage_fide_classical():
    # 1:30:00 for 40 moves, then 30:00 for the rest, 30 s added after every move from move 1.
    # Left takes 2:00 per move, right 0:01. After 39 left moves: 90:00 - 39 x 2:00 + 39 x 0:30 = 31:30.
    # The 40th move ends stage 1: 31:30 - 2:00 + 0:30 + 30:00 = 60:00. The 41st is in stage 2 (no further
    # block of time): 60:00 - 2:00 + 0:30 = 58:30.
    st1 = Stage(m(90), 40, m(0, 30))
    st2 = Stage(m(30), None, m(0, 30))
    c = Control(stages_left=(st1, st2), stages_right=(st1, st2))
    st = fold(c, Start(0, L))
    t = 0
    for move in range(1, 42):
        t += m(2)
        st = apply(st, Press(t, L))
        if move == 39:
            assert remaining_ns(st, L) == m(31, 30) and side_view(st, L)["stage"] == 1
        if move == 40:
            assert remaining_ns(st, L) == m(60) and side_view(st, L)["stage"] == 2
        t += m(0, 1)
        st = apply(st, Press(t, R))
    assert remaining_ns(st, L) == m(58, 30)
    # Right: 41 moves of 1 s: 90:00 - 0:41 + 41 x 0:30 + 30:00 = 90:00 - 0:41 + 20:30 + 30:00 = 139:49.
    assert remaining_ns(st, R) == m(139, 49)


def test_last_stage_with_moves_repeats():
    # 10:00 for 2 moves, then 5:00 per 2 moves (repeating). Moves of 1:00 each by left:
    # after move 2: 10:00 - 2:00 + 5:00 = 13:00; after move 4: 13:00 - 2:00 + 5:00 = 16:00.
    stages = (Stage(m(10), 2), Stage(m(5), 2))
    st = fold(Control(stages_left=stages, stages_right=stages), Start(0, L))
    t = 0
    for move in range(1, 5):
        t += m(1)
        st = apply(st, Press(t, L))
        t += 1
        st = apply(st, Press(t, R))
        if move == 2:
            assert remaining_ns(st, L) == m(13)
    assert remaining_ns(st, L) == m(16)


# ------------------------------------------------------------------------------------------------
# Arbiter corrections: undo and adjust


def test_undo_continues_the_pressing_side_turn():
    # Left presses by mistake at 1:00; the arbiter undoes it at 1:05. Left's turn simply continues, so the
    # time since the press is left's too: at 1:05 left has used 1:05 (20:55 left), right nothing.
    st = fold(CROSSWORD, Start(0, L), Press(m(1), L), Undo(m(1, 5)))
    assert st.phase == RUNNING and st.running == L and st.sides[L].moves == 0
    assert used_ns(st, L) == m(1, 5) and remaining_ns(st, L) == m(20, 55)
    assert used_ns(st, R) == 0 and remaining_ns(st, R) == m(22)
    # Left's real move at 1:10: charged 1:10.
    st = apply(st, Press(m(1, 10), L))
    assert used_ns(st, L) == m(1, 10) and st.running == R


def test_undo_keeps_a_pause_that_followed_the_press():
    # Left presses at 1:00, a pause 1:02-1:12, undo at 1:15: left's turn ran 0:00-1:02 and 1:12-1:15,
    # 1:05 in all (the 10 s pause is nobody's).
    st = fold(CROSSWORD, Start(0, L), Press(m(1), L), Pause(m(1, 2)), Resume(m(1, 12)), Undo(m(1, 15)))
    assert st.running == L and used_ns(st, L) == m(1, 5) and used_ns(st, R) == 0


def test_undo_takes_back_the_increment():
    # Fischer 3:00 + 2 s: left moves at 0:10 (2:52), undo at 0:11: left 3:00 - 0:11 = 2:49, no increment.
    c = Control(stages_left=(Stage(m(3), None, m(0, 2)),), stages_right=(Stage(m(3), None, m(0, 2)),))
    st = fold(c, Start(0, L), Press(m(0, 10), L), Undo(m(0, 11)))
    assert remaining_ns(st, L) == m(2, 49)


def test_undo_without_a_press_is_rejected():
    with pytest.raises(Rejected):
        fold(CROSSWORD, Start(0, L), Undo(m(0, 1)))


def test_adjust_sets_the_remaining_time_exactly():
    # Left runs from 0:00; at 0:30 (21:30 showing) the arbiter sets it to 20:00: it shows exactly 20:00
    # then and 19:50 ten seconds later.
    st = fold(CROSSWORD, Start(0, L), Adjust(m(0, 30), L, m(20)))
    assert remaining_ns(st, L) == m(20)
    assert remaining_ns(advance(st, m(0, 40)), L) == m(19, 50)
    # The idle side: set right to 25:00; it stays so until its turn.
    st = apply(st, Adjust(m(0, 41), R, m(25)))
    assert remaining_ns(advance(st, m(5)), R) == m(25)
    # Into overtime (XW-3): -0:05 shows -0:05 and costs 10 points.
    st = apply(st, Adjust(m(1), L, -m(0, 5)))
    assert side_view(st, L)["display"] == "-0:05" and side_view(st, L)["penalty_points"] == 10


def test_adjust_while_paused_and_during_a_simple_delay():
    # Paused: set left to 1:00 exactly; on resume it counts from 1:00.
    st = fold(CROSSWORD, Start(0, L), Pause(m(0, 5)), Adjust(m(0, 6), L, m(1)))
    assert remaining_ns(advance(st, m(9)), L) == m(1)
    st = apply(st, Resume(m(10)))
    assert remaining_ns(advance(st, m(10, 15)), L) == m(0, 45)
    # Simple delay 3 s, 5:00: 1 s into the move the arbiter sets 2:00. It shows 2:00, and the rest of the
    # delay still holds it: at 3 s into the move 2:00, at 4 s 1:59.
    c = countdown(m(5), delay_kind=DELAY_SIMPLE, delay_ns=m(0, 3))
    st = fold(c, Start(0, L), Adjust(m(0, 1), L, m(2)))
    assert remaining_ns(st, L) == m(2)
    assert remaining_ns(advance(st, m(0, 3)), L) == m(2)
    assert remaining_ns(advance(st, m(0, 4)), L) == m(1, 59)


def test_adjust_per_move_sets_the_current_move_time():
    # MH-2 with a correction: at 0:20 into left's move the arbiter sets the move's time to 1:00, so the
    # move now ends at 1:20 (announcements at 0:50 and 1:10 — 30 s and 10 s before it).
    st = fold(MAKHOS_MOVE, Start(0, L), Adjust(m(0, 20), L, m(1)))
    assert remaining_ns(st, L) == m(1)
    assert alerts(st, m(1, 20)) == [(50_000, "left", "announce"), (70_000, "left", "announce"),
                                    (80_000, "left", "flag")]


# ------------------------------------------------------------------------------------------------
# SU-3: the round timer's time bonus


def test_sudoku_bonus_thirty_minute_round():
    # SU-3's own example: 30-minute round finished correctly at 20:40 -> 9:20 left -> 9 whole minutes -> 27.
    c = Control(mode=ROUND, stages_left=(Stage(m(30)),), stages_right=(Stage(m(30)),), bonus_points_per_minute=3)
    st = fold(c, Start(0, L), Press(m(20, 40), L))
    sv = side_view(st, L)
    assert sv["finished"] is True and sv["finish_ms"] == m(20, 40) // MS and sv["bonus_points"] == 27
    assert remaining_ns(st, L) == m(9, 20)
    # The other competitor's time keeps running: at 25:00 it has 5:00 and no bonus yet.
    assert remaining_ns(advance(st, m(25)), R) == m(5)
    assert side_view(st, R, m(25))["bonus_points"] == 0


def test_sudoku_bonus_sixty_minute_round_with_a_pause():
    # 60:00 round (SU-1). Finished at 45:30 of round time -> 14:30 left -> 14 whole minutes -> 42.
    # Here the round is paused 10:00-12:00 (2 minutes), so a press at 47:30 is at 45:30 of round time.
    # Left finishes first, at 32:00 = 30:00 of round time: exactly 30:00 left is 30 whole minutes -> 90.
    c = Control(mode=ROUND, stages_left=(Stage(m(60)),), stages_right=(Stage(m(60)),), bonus_points_per_minute=3)
    st = fold(c, Start(0, L), Pause(m(10)), Resume(m(12)), Press(m(32), L))
    assert side_view(st, L)["finish_ms"] == m(30) // MS and side_view(st, L)["bonus_points"] == 90
    assert st.phase == RUNNING  # right is still solving
    st = apply(st, Press(m(47, 30), R))
    sv = side_view(st, R)
    assert sv["finish_ms"] == m(45, 30) // MS and sv["bonus_points"] == 42
    # The second competitor's finish ends the round.
    assert st.phase == FINISHED


def test_sudoku_time_up():
    # Nobody finishes: both competitors' time is up at 60:00 and the round is over.
    c = Control(mode=ROUND, stages_left=(Stage(m(60)),), stages_right=(Stage(m(60)),), bonus_points_per_minute=3)
    st = fold(c, Start(0, L), Press(m(59, 59.999), L))  # 0:00.001 left -> 0 whole minutes
    assert side_view(st, L)["bonus_points"] == 0
    end = advance(st, m(60))
    assert end.phase == FINISHED and end.sides[R].flagged and not end.sides[L].flagged
    assert side_view(end, R)["bonus_points"] == 0


# ------------------------------------------------------------------------------------------------
# XW-5: the game cut (no clock: one shared game time, warnings, then 2 more turns each)


def test_game_cut_in_the_first_mover_turn():
    # Left moves first. Turns: L 0:00-20:00, R 20:00-39:00, L 39:00-43:00 (warning at 40:00: 10:00 left),
    # R 43:00-49:00 (warning at 45:00: 5:00 left), L from 49:00: the time is up at 50:00, in the first
    # mover's turn. Decision (clock.py `_transition`): that turn is one of left's 2 extra turns, so the
    # order is L (finishing), R, L, R — right, the second mover, moves last.
    st = fold(CROSSWORD_NOCUT, Start(0, L), Press(m(20), L), Press(m(39), R))
    assert view(st, m(40))["cut"]["display"] == "10:00"
    st = fold(CROSSWORD_NOCUT, Start(0, L), Press(m(20), L), Press(m(39), R), Press(m(43), L), Press(m(49), R))
    st = advance(st, m(50))
    assert alerts(st) == [(m(40) // MS, None, "cut-warning"), (m(45) // MS, None, "cut-warning"),
                          (m(50) // MS, None, "cut")]
    assert [a["remaining_ms"] for a in view(st)["alerts"][:2]] == [m(10) // MS, m(5) // MS]
    assert view(st)["cut"]["called"] is True
    assert view(st)["cut"]["turns_left"] == {"left": 2, "right": 2}
    for t, side in ((m(50, 30), L), (m(51), R), (m(51, 30), L)):
        st = apply(st, Press(t, side))
        assert st.phase == RUNNING
    assert view(st)["cut"]["turns_left"] == {"left": 0, "right": 1}
    assert view(st, m(51, 45))["cut"]["display"] == "-1:45"  # the game time runs on below zero
    st = apply(st, Press(m(52), R))
    assert st.phase == FINISHED and alerts(st)[-1] == (m(52) // MS, None, "game-over")
    assert st.sides[L].moves == 4 and st.sides[R].moves == 4


def test_game_cut_in_the_second_mover_turn():
    # Left moves first. L 0:00-20:00, R 20:00-39:00, L 39:00-43:00, R 43:00-47:00, L 47:00-49:00,
    # R from 49:00: the time is up at 50:00 in the second mover's turn. That turn is finished first, then
    # 2 turns each: R (finishing), L, R, L, R — right moves last.
    st = fold(CROSSWORD_NOCUT, Start(0, L), Press(m(20), L), Press(m(39), R), Press(m(43), L), Press(m(47), R),
              Press(m(49), L))
    st = advance(st, m(50))
    assert view(st)["cut"]["turns_left"] == {"left": 2, "right": 3}
    for t, side in ((m(50, 30), R), (m(51), L), (m(51, 30), R), (m(52), L)):
        st = apply(st, Press(t, side))
        assert st.phase == RUNNING
    st = apply(st, Press(m(52, 30), R))
    assert st.phase == FINISHED
    # Moves: left at 20:00, 43:00, 49:00, 51:00, 52:00; right at 39:00, 47:00, 50:30, 51:30, 52:30.
    assert st.sides[L].moves == 5 and st.sides[R].moves == 5
    # The game took 52:30 in all and both sides' used times add up to it.
    assert used_ns(st, L) + used_ns(st, R) == m(52, 30)


def test_game_cut_pause_stops_the_game_time():
    # CL-3 applies to the shared game time too: paused 10:00-15:00 -> at 20:00 the game has run 15:00.
    st = fold(CROSSWORD_NOCUT, Start(0, L), Pause(m(10)), Resume(m(15)))
    assert view(st, m(20))["cut"]["display"] == "35:00"


# ------------------------------------------------------------------------------------------------
# The display text


@pytest.mark.parametrize("ns, tenths_below, text", [
    (0, 0, "0:00"),
    (m(0, 59.999), 0, "0:59"),        # floored to the second
    (m(1), 0, "1:00"),
    (m(22), 0, "22:00"),
    (m(59, 59.9), 0, "59:59"),
    (m(60), 0, "1:00:00"),            # an hour or more: H:MM:SS
    (m(90, 5), 0, "1:30:05"),
    (-1, 0, "-0:01"),                 # any overtime at all shows as a started second (XW-3 decision)
    (-200 * MS, 0, "-0:01"),
    (-m(0, 1), 0, "-0:01"),
    (-m(0, 1) - 1, 0, "-0:02"),
    (-m(3, 18), 0, "-3:18"),
    (-(m(61, 1)), 0, "-1:01:01"),
    (m(0, 9.75), m(0, 10), "9.7"),    # tenths below the threshold, floored
    (m(0, 10), m(0, 10), "0:10"),     # at the threshold: whole seconds again
    (m(0, 0.05), m(0, 10), "0.0"),
    (0, m(0, 10), "0:00"),
    (-500 * MS, m(0, 10), "-0:01"),   # never tenths below zero
])
def test_format_remaining(ns, tenths_below, text):
    assert format_remaining(ns, tenths_below) == text


# ------------------------------------------------------------------------------------------------
# The event-log text


def test_parse_log_reads_exact_nanoseconds_and_headers():
    text = ("# a comment line\n"
            "preset crossword\n"
            "game 2\n"
            "\n"
            "0 start left\n"
            "61.25 press left   # trailing comment\n"
            "61.25 press right\n"
            "70.000000001 pause\n"
            "80 resume\n"
            "90 extend right 5\n"
            "91 extend left 0.5\n"
            "92 extend left 0:10.5\n"
            "95 adjust left -0:05.5\n"
            "100 adjust right 1:02:03\n"
            "101 undo\n"
            "102 finish\n")
    log = parse_log(text)
    assert log.preset == "crossword" and log.game == 2
    assert log.events == [
        Start(0, L), Press(61_250_000_000, L), Press(61_250_000_000, R), Pause(70_000_000_001), Resume(80 * S),
        Extend(90 * S, R, 5 * MIN), Extend(91 * S, L, 30 * S), Extend(92 * S, L, 10_500_000_000),
        Adjust(95 * S, L, -5_500_000_000), Adjust(100 * S, R, 3723 * S),
        Undo(101 * S), Finish(102 * S),
    ]
    assert log.lines == [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]


def test_seconds_text_both_ways():
    assert parse_seconds("61.25") == 61_250_000_000
    assert parse_seconds("0.000000001") == 1
    assert parse_seconds("7") == 7 * S
    assert format_seconds(61_250_000_000) == "61.25"
    assert format_seconds(1) == "0.000000001"
    assert format_seconds(7 * S) == "7"
    for bad in ("1e3", "-1", "1.", ".5", "1.0000000001", "abc"):
        with pytest.raises(ValueError):
            parse_seconds(bad)


def test_format_event_lines():
    assert format_event(Start(0, L)) == "0 start left"
    assert format_event(Press(61_250_000_000, R)) == "61.25 press right"
    assert format_event(Extend(90 * S, R, 5 * MIN)) == "90 extend right 5"      # whole minutes
    assert format_event(Extend(90 * S, R, 90 * S)) == "90 extend right 1:30"    # else exactly, as a clock time
    assert format_event(Extend(90 * S, R, 10 * S + 1)) == "90 extend right 0:10.000000001"
    assert format_event(Adjust(95 * S, L, -5_500_000_000)) == "95 adjust left -0:05.5"
    assert format_event(Adjust(1, R, 3723 * S)) == "0.000000001 adjust right 1:02:03"
    assert format_event(Undo(2 * S)) == "2 undo"


@pytest.mark.parametrize("text, line_no, words", [
    ("0 start left\nabc press left\n", 2, "bad time"),                         # bad time
    ("0 start left\n1.5.2 press left\n", 2, "bad time"),
    ("0 start left\n\n# note\n3 jump left\n", 4, "unknown event"),              # unknown event; blank+comment
    ("0 start left\n5 press left\n4 press right\n", 3, "backwards"),            # time going backwards
    ("0 start middle\n", 1, "bad side"),                                        # bad side
    ("0 start left\n1 press 0\n", 2, "bad side"),
    ("preset crossword\n0 start left\n9 adjust left 22:75\n", 3, "bad clock time"),  # seconds 75 > 59
    ("0 start left\n1 press\n", 2, "usage"),                                    # missing argument
    ("0 start left\n1 pause now\n", 2, "usage"),                                # extra argument
    ("0 start left\n1 extend left five\n", 2, "bad minutes"),
    ("0 start left\n1 extend left -0:10\n", 2, "positive"),                  # extra time is never negative
    ("0 start left\npreset crossword\n", 2, "before the first event"),
    ("start left\n", 1, ""),                                                    # no time
])
def test_parse_log_errors_name_the_line(text, line_no, words):
    with pytest.raises(LogError) as info:
        parse_log(text, source="game.log")
    err = info.value
    assert err.line_no == line_no
    assert str(err).startswith(f"game.log:{line_no}: ")
    assert words in err.message


@pytest.mark.parametrize("bad_line", [0, 3, 6])
def test_a_bad_line_anywhere_means_no_events(bad_line):
    # All-or-nothing: a good log with one bad line (first, middle or last) yields an error, not a prefix.
    lines = ["0 start left", "1 press left", "2 press right", "3 pause", "4 resume", "5 press left",
             "6 press right"]
    lines[bad_line] = lines[bad_line].split()[0] + " jump left"
    result = None
    with pytest.raises(LogError) as info:
        result = parse_log("\n".join(lines))
    assert result is None
    assert info.value.line_no == bad_line + 1


def test_retract_takes_back_this_moves_extension_only():  # MH-3, issue 15
    """makhos-move: 2:00 a move, 2x5:00 or 1x10:00. Right's move from 0; +5:00 at 10 s (410 s left);
    taken back at 20 s: 100 s left and the option free again. After right's press, left's move: a
    retract of right's extension is refused (it belonged to a move that is over), and so is one for
    a side given nothing."""
    from gameclock.core import clock as core
    from gameclock.core.events import Retract
    from gameclock.core.log import format_event, parse_log
    from gameclock.rules.loader import find_preset

    c = find_preset("makhos-move").control_for(0)
    st = core.apply(core.new_game(c), Start(0, 1))
    st = core.apply(st, Extend(10 * S, 1, 300 * S))
    assert core.remaining_ns(st, 1) == 410 * S and st.sides[1].ext_used == 1
    st = core.apply(st, Retract(20 * S, 1))
    assert core.remaining_ns(st, 1) == 100 * S
    assert (st.sides[1].ext_used, st.sides[1].ext_option) == (0, None)
    with pytest.raises(core.Rejected, match="no extra time in this move"):
        core.apply(st, Retract(21 * S, 1))
    st = core.apply(st, Extend(22 * S, 1, 600 * S))  # the option is free: 1x10:00 now
    st = core.apply(st, Press(30 * S, 1))
    with pytest.raises(core.Rejected, match="no extra time in this move"):
        core.apply(st, Retract(31 * S, 1))
    assert format_event(Retract(20 * S, 1)) == "20 retract right"
    assert parse_log("preset makhos-move\n0 start right\n10 extend right 5\n20 retract right\n").events[-1] == \
        Retract(20 * S, 1)
