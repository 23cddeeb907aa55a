"""Counting on the clock (MR-4..MR-8, MH-6): the parts the scenario logs cannot reach."""
from __future__ import annotations

import pytest

from gameclock.core.clock import Rejected, apply, new_game, view
from gameclock.core.control import NS_PER_MIN, NS_PER_S, Control, Stage
from gameclock.core.events import CountEnd, CountStart, CountStop, Press, Start
from gameclock.core.log import format_event, parse_log

S = NS_PER_S


def game(**kw):
    c = Control(stages_left=(Stage(45 * NS_PER_MIN),), stages_right=(Stage(45 * NS_PER_MIN),), **kw)
    return apply(new_game(c), Start(0, 0))


def test_mr7_seed_001_counts_no_king():
    # MR-7, seed 001 §7(12): "count every piece on the board except the kings": with one rook left
    # (3 pieces with both kings) the lone king's next move is counted 2.
    st = apply(game(count_pieces_with_kings=False), CountStart(S, "pieces", 1, "R", 3))
    st = apply(apply(st, Press(2 * S, 0)), Press(3 * S, 1))
    assert view(st)["counting"]["count"] == 2


def test_mr7_seed_003_counts_both_kings():
    # MR-7, seed 003 §10: K+2R v K starts at 5
    st = apply(game(), CountStart(S, "pieces", 1, "RR", 4))
    st = apply(apply(st, Press(2 * S, 0)), Press(3 * S, 1))
    assert view(st)["counting"]["count"] == 5


def test_mh6_both_sides_reading():
    # MH-6, seed 003 §5.4: the arbiter counts both sides' moves, 16 in all
    st = apply(game(count_makhos_both=True), CountStart(S, "makhos", 1))
    for k in range(16):
        st = apply(st, Press((2 + k) * S, k % 2))
    v = view(st)
    assert v["counting"]["count"] == 16 and v["counting"]["reached"]
    assert v["alerts"][-1]["kind"] == "count-limit"


@pytest.mark.parametrize("ev, message", [
    (CountStart(S, "pieces", 1, "RQ", 4), "bad piece"),
    (CountStart(S, "pieces", 1, "RR", 2), "pieces on the board"),
    (CountStart(S, "pieces", 1, "RR", 9), "the two kings and RR are 4"),   # MR-6: nothing else on the board
    (CountStart(S, "pieces", 1, "RRNNSS", 8), "past its limit"),   # MR-6, MR-7: 9 > 8 for two rooks
    (CountStart(S, "chess", 1), "unknown kind"),
    (CountEnd(S), "no Makhos count is under way"),
    (CountStop(S), "nothing is being counted"),
])
def test_refused_counts(ev, message):
    with pytest.raises(Rejected, match=message):
        apply(game(), ev)


def test_count_lines_round_trip():
    events = [CountStart(S, "pieces", 0, "RN", 5), CountStart(2 * S, "board", 1), CountStart(3 * S, "makhos", 0),
              CountEnd(4 * S), CountStop(5 * S)]
    text = "\n".join(format_event(e) for e in events)
    assert text.splitlines()[0] == "1 count pieces left attacker=RN on_board=5"
    assert parse_log(text).events == events
