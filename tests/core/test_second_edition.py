"""The rules the second edition of the digest corrected, in the core: every expectation worked by hand
from the seed text cited (docs/rules.md holds the rule IDs and sections)."""
from __future__ import annotations

import pytest

from gameclock.core.clock import Rejected, apply, new_game, view
from gameclock.core.control import EXPIRY_CALL, NS_PER_MIN, NS_PER_S, PER_MOVE, Control, ExtensionOption, Stage
from gameclock.core.events import Adjust, CountEnd, CountStart, Extend, Press, Start
from gameclock.core.log import format_event, parse_log
from gameclock.core.scoring import parse_material, pieces_count_limit

S, MIN = NS_PER_S, NS_PER_MIN


def countdown(minutes: int, **kw) -> Control:
    stage = (Stage(minutes * MIN),)
    return Control(stages_left=stage, stages_right=stage, **kw)


# --- MH-6: a man's move or a capture ENDS the Makhos count ------------------------------------------------

def test_mh6_a_mans_move_ends_the_count_and_nothing_is_counted_after_it():
    # MH-6, seed 003 §5.3 ("stop counting and play on until there is a result"), 004 §3.8.3: right asks
    # for the count and counts its own moves 1, 2; then a man moves: the count ends. Right's next moves
    # count nothing, and no draw is ever announced without a new request.
    st = apply(new_game(countdown(30)), Start(0, 0))
    st = apply(st, CountStart(S, "makhos", 1))
    for k, side in enumerate((0, 1, 0, 1)):      # left, right (1), left, right (2)
        st = apply(st, Press((2 + k) * S, side))
    assert view(st)["counting"]["count"] == 2
    st = apply(st, CountEnd(7 * S))
    assert view(st)["counting"] is None
    for k in range(40):                          # 20 more moves each: far past 16
        st = apply(st, Press((8 + k) * S, k % 2))
    v = view(st)
    assert v["counting"] is None
    assert not [a for a in v["alerts"] if a["kind"] == "count-limit"]


def test_mh6_a_new_count_needs_a_new_request_and_starts_from_one():
    # MH-6: after the count ended, a new request counts from 1 again (16 own moves to the draw).
    st = apply(new_game(countdown(30)), Start(0, 0))
    st = apply(st, CountStart(S, "makhos", 1))
    st = apply(apply(st, Press(2 * S, 0)), Press(3 * S, 1))   # right: 1
    st = apply(st, CountEnd(4 * S))
    st = apply(st, CountStart(5 * S, "makhos", 1))
    t = 6
    for k in range(16):
        st = apply(apply(st, Press(t * S, 0)), Press((t + 1) * S, 1))
        t += 2
        assert view(st)["counting"]["count"] == k + 1
    assert view(st)["counting"]["reached"]


def test_mh6_end_is_for_the_makhos_count_only():
    # MR-4's board count is stopped by the counting side (count stop), not ended by a man's move
    st = apply(apply(new_game(countdown(45)), Start(0, 0)), CountStart(S, "board", 1))
    with pytest.raises(Rejected, match="no Makhos count"):
        apply(st, CountEnd(2 * S))


def test_mh6_old_logs_count_reset_reads_as_the_end_of_the_count():
    # journals written before the second edition say `count reset` for a man's move or a capture
    log = parse_log("preset makhos-move\n0 start left\n1 count makhos right\n2 count reset\n")
    assert log.events[-1] == CountEnd(2 * S)
    assert format_event(CountEnd(2 * S)) == "2 count end"


# --- MR-6: mixed material, the lowest limit of the rows it satisfies --------------------------------------

@pytest.mark.parametrize("attacker, limit", [
    ("SNN", 32),    # MR-6 decision: 1 khon (44) and 2 knights (32) both apply: 32
    ("RN", 16),     # 1 rook (16), 1 knight (64): 16
    ("RRS", 8),     # 2 rooks 8, 1 rook 16, 1 khon 44: 8
    ("SSN", 22),    # 2 khons 22, 1 khon 44, 1 knight 64: 22
    ("SSNN", 22),   # 2 khons 22, 2 knights 32: 22
    ("NNMMM", 32),  # 2 knights 32, 3 promoted pawns 64: 32
    ("MM", 64),     # satisfies no row: 64
    ("MMM", 64),    # 3 promoted pawns: 64
])
def test_mr6_lowest_limit_among_the_rows_satisfied(attacker, limit):
    # MR-6, seed 001 §7(11) table: 2R 8, 1R 16, 2 khons 22, 1 khon 44, 2 knights 32, 1 knight 64, 3 promoted 64
    assert pieces_count_limit(parse_material(attacker)) == limit


def test_mr6_mr7_k_khon_2_knights_v_k_counts_from_6_to_32():
    # MR-6 decision: K+khon+2 knights v K -> 32. MR-7 (seed 003 §10, both kings): 5 pieces on the board,
    # the lone king's first move is counted 6.
    st = apply(new_game(countdown(45)), Start(0, 0))
    st = apply(st, CountStart(S, "pieces", 1, "SNN", 5))
    st = apply(apply(st, Press(2 * S, 0)), Press(3 * S, 1))
    assert view(st)["counting"] == {"kind": "pieces", "side": "right", "count": 6, "limit": 32,
                                    "reached": False}


def test_mr6_the_board_holds_the_kings_and_the_attackers_pieces_only():
    # MR-6: the lone king's side has only its king, the attacker no unpromoted pawn: K+2R v K is 4 pieces
    # (issue 11 found 3 accepted)
    st = apply(new_game(countdown(45)), Start(0, 0))
    with pytest.raises(Rejected, match="the two kings and RR are 4"):
        apply(st, CountStart(S, "pieces", 1, "RR", 3))


# --- MH-2 `call` (seed 004): MOVE NOW, the time keeps counting, the arbiter decides ------------------------

def stopwatch() -> Control:
    # seed 004 §3.2.1-3.2.2: 2:00 a move, one call at 1:30 used (0:30 left), extra time 2x5:00 or 1x10:00
    return Control(mode=PER_MOVE, move_time_ns=2 * MIN, announce_ns=(30 * S,), move_expiry=EXPIRY_CALL,
                   extension_options=(ExtensionOption(2, 5 * MIN), ExtensionOption(1, 10 * MIN)))


def test_mh2_call_signals_move_now_at_two_minutes_and_keeps_counting():
    # MH-2, seed 004 §3.2.1: left moves after 10 s; right thinks. At 1:30 used (t = 100 s) the call;
    # at 2:00 used (t = 130 s) MOVE NOW; the clock keeps running: at t = 135 s right has used 2:05 and
    # shows -0:05, nobody has lost, and the clocks still run.
    st = apply(apply(new_game(stopwatch()), Start(0, 0)), Press(10 * S, 0))
    v = view(st, 135 * S)
    assert [(a["t_ms"], a["side"], a["kind"]) for a in v["alerts"]] == [
        (100_000, "right", "announce"), (130_000, "right", "move-now")]
    assert v["state"] == "running" and v["running"] == "right"
    r = v["sides"]["right"]
    assert r["remaining_ms"] == -5_000 and r["display"] == "-0:05" and r["used_ms"] == 125_000
    assert r["overtime_ms"] == 5_000 and not r["flagged"]


def test_mh2_call_a_late_move_still_counts_and_the_next_move_is_timed_afresh():
    # MH-2, seed 004: the player moves at once when told (t = 140 s, 2:10 used): the game goes on and
    # left has a fresh 2:00, announced again at 0:30 left (t = 230 s), MOVE NOW again at t = 260 s.
    st = apply(apply(new_game(stopwatch()), Start(0, 0)), Press(10 * S, 0))
    st = apply(st, Press(140 * S, 1))
    v = view(st, 261 * S)
    kinds = [(a["t_ms"], a["side"], a["kind"]) for a in v["alerts"]]
    assert kinds[2:] == [(230_000, "left", "announce"), (260_000, "left", "move-now")]
    assert v["sides"]["right"]["used_ms"] == 130_000 and v["sides"]["right"]["moves"] == 1


def test_mh3_extra_time_must_be_asked_before_the_move_time_runs_out():
    # MH-3 (002 §5-6, 004 §3.2.2): asked before the move's time runs out. At t = 135 s right is past 2:00.
    st = apply(apply(new_game(stopwatch()), Start(0, 0)), Press(10 * S, 0))
    with pytest.raises(Rejected, match="move time has run out"):
        apply(st, Extend(135 * S, 1, 5 * MIN))
    # asked at 1:59 used it is granted: the deadline moves out by 5:00 (t = 130 + 300 = 430 s)
    st = apply(st, Extend(129 * S, 1, 5 * MIN))
    v = view(st, 429 * S)
    assert v["sides"]["right"]["remaining_ms"] == 1_000
    assert [a["kind"] for a in view(st, 431 * S)["alerts"]][-1] == "move-now"


def test_mh2_lose_is_still_a_flag_fall():
    # MH-2, seeds 002/003: at 2:00 the player loses: the clocks stop at exactly 130 s
    c = Control(mode=PER_MOVE, move_time_ns=2 * MIN, announce_ns=(30 * S, 10 * S))
    st = apply(apply(new_game(c), Start(0, 0)), Press(10 * S, 0))
    v = view(st, 200 * S)
    assert v["state"] == "flagged" and v["sides"]["right"]["flagged"]
    assert v["sides"]["right"]["used_ms"] == 120_000


# --- MR-13: the arbiter's call at 5:00 --------------------------------------------------------------------

def test_mr13_the_arbiter_is_called_when_either_side_reaches_five_minutes():
    # MR-13, seed 003 Makruk §3: 30:00 a side. Left moves at 20:00 (10:00 left), right at 24:00 (26:00
    # left); left reaches 5:00 at 24:00 + 5:00 = 29:00 (1740 s); right at 29:00 + 21:00 later if left moves
    # at 29:30 (left 4:30): right reaches 5:00 at 1770 + 1260 = 3030 s.
    c = countdown(30, arbiter_call_ns=5 * MIN, low_time_ns=(60 * S,))
    st = apply(apply(new_game(c), Start(0, 0)), Press(1200 * S, 0))
    st = apply(st, Press(1440 * S, 1))
    st = apply(st, Press(1770 * S, 0))
    v = view(st, 3031 * S)
    calls = [(a["t_ms"], a["side"]) for a in v["alerts"] if a["kind"] == "arbiter-call"]
    assert calls == [(1_740_000, "left"), (3_030_000, "right")]
    assert all(a["remaining_ms"] == 300_000 for a in v["alerts"] if a["kind"] == "arbiter-call")
    # the players' own 1:00 warning is a different alert
    assert "low-time" not in [a["kind"] for a in v["alerts"]]


def test_mr13_the_call_sounds_again_after_the_arbiter_gives_time_back():
    # the arbiter sets left back to 6:00 (a correction): reaching 5:00 again calls again
    c = countdown(30, arbiter_call_ns=5 * MIN)
    st = apply(apply(new_game(c), Start(0, 0)), Adjust(S, 0, 6 * MIN))
    v = view(st, 61 * S + 1)
    assert [(a["t_ms"], a["kind"]) for a in v["alerts"]] == [(61_000, "arbiter-call")]
    st = apply(st, Adjust(70 * S, 0, 6 * MIN))
    v = view(st, 131 * S)
    assert [(a["t_ms"], a["kind"]) for a in v["alerts"]] == [(61_000, "arbiter-call"), (130_000, "arbiter-call")]


def test_mr13_no_call_for_a_game_that_starts_below_the_threshold():
    c = countdown(5, arbiter_call_ns=5 * MIN)
    st = apply(new_game(c), Start(0, 0))
    assert view(st, 10 * S)["alerts"] == []


# --- MH-4: the game's number in the match and the tie-break step are two things ----------------------------

def test_mh4_game_and_tiebreak_are_kept_apart_in_the_log_and_the_view():
    log = parse_log("preset makhos-30\ngame 3\ntiebreak 0\n0 start left\n")
    assert (log.game, log.tiebreak) == (3, 0)
    log = parse_log("preset makhos-30\ngame 6\ntiebreak 2\n0 start left\n")
    assert (log.game, log.tiebreak) == (6, 2)
    v = view(new_game(countdown(20), game=6, tiebreak=2))
    assert (v["game"], v["tiebreak"]) == (6, 2)
