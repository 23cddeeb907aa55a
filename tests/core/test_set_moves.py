"""Issue 15: the arbiter corrects a side's move count (FIDE's clock standard: time and move count),
core `SetMoves`, log line `moves SIDE N`. Worked by hand from the presets' rule files."""
from __future__ import annotations

import pytest

from gameclock.core import clock as core
from gameclock.core.events import Finish, Pause, Press, Resume, SetMoves, Start
from gameclock.core.log import format_event, parse_log
from gameclock.rules.loader import find_preset

S = 10**9
MIN = 60 * S


def game(preset_id: str) -> core.Clock:
    p = find_preset(preset_id)
    return core.new_game(p.control_for(0))


def test_moves_set_in_a_pause_change_the_count_and_no_time():
    st = game("makruk-45")
    for ev in (Start(0, 0), Press(5 * S, 0), Press(9 * S, 1), Pause(10 * S)):
        st = core.apply(st, ev)
    assert (st.sides[0].moves, st.sides[1].moves) == (1, 1)
    before = (core.remaining_ns(st, 0), core.remaining_ns(st, 1))
    st = core.apply(st, SetMoves(12 * S, 0, 20))
    assert (st.sides[0].moves, st.sides[1].moves) == (20, 1)
    assert (core.remaining_ns(st, 0), core.remaining_ns(st, 1)) == before  # no time added or taken
    assert core.view(st, 12 * S)["sides"]["left"]["moves"] == 20


def test_the_stage_follows_the_count_without_its_time():
    """fide-classical: 1:30:00 for 40 moves, then 30:00 for the rest, +0:30 a move. Setting left's
    count to 45 puts it 5 moves into the second stage; the second stage's 30:00 is not added (the
    arbiter sets the time with Adjust); the next press is the 46th move and credits only the 0:30."""
    st = game("fide-classical")
    st = core.apply(st, Start(0, 0))
    st = core.apply(st, Pause(1 * S))
    left = core.remaining_ns(st, 0)
    assert left == 90 * MIN - 1 * S
    st = core.apply(st, SetMoves(2 * S, 0, 45))
    assert (st.sides[0].stage, st.sides[0].stage_moves) == (1, 5)
    assert core.remaining_ns(st, 0) == left
    st = core.apply(st, Press(3 * S, 0))  # a press while paused does nothing (CL-2)
    assert st.sides[0].moves == 45
    st = core.apply(st, Resume(3 * S))
    st = core.apply(st, Press(5 * S, 0))  # left ran 2 s more: 3 s used, +0:30
    assert st.sides[0].moves == 46 and (st.sides[0].stage, st.sides[0].stage_moves) == (1, 6)
    assert core.remaining_ns(st, 0) == 90 * MIN - 3 * S + 30 * S


def test_moves_back_into_the_first_stage():
    """fide-classical: a count set back from 45 to 39 puts the side one move short of the control."""
    st = game("fide-classical")
    st = core.apply(st, Start(0, 0))
    st = core.apply(st, SetMoves(1 * S, 0, 45))
    st = core.apply(st, SetMoves(2 * S, 0, 39))
    assert (st.sides[0].stage, st.sides[0].stage_moves) == (0, 39)


@pytest.mark.parametrize("moves", [-1, 1000])
def test_a_count_out_of_range_is_refused(moves):
    st = core.apply(game("makruk-45"), Start(0, 0))
    with pytest.raises(core.Rejected):
        core.apply(st, SetMoves(1 * S, 0, moves))


def test_a_finished_game_refuses_it():
    st = core.apply(core.apply(game("makruk-45"), Start(0, 0)), Finish(1 * S))
    with pytest.raises(core.Rejected):
        core.apply(st, SetMoves(2 * S, 0, 3))


def test_the_log_line_reads_back():
    ev = SetMoves(12_500_000_000, 1, 37)
    line = format_event(ev)
    assert line == "12.5 moves right 37"
    assert parse_log(f"preset makruk-45\n0 start left\n{line}\n").events[-1] == ev
    with pytest.raises(ValueError):
        parse_log("preset makruk-45\n0 start left\n1 moves right many\n")
