"""Scoring rules worked by hand from RULES.md."""
from __future__ import annotations

import pytest

from gameclock.core.control import NS_PER_MIN, NS_PER_S
from gameclock.core.scoring import (
    can_win_on_time,
    capped_spread,
    game_points,
    material_units_x2,
    material_value,
    overtime_penalty,
    parse_material,
    pieces_count_limit,
    sudoku_bonus,
)

S = NS_PER_S


def test_crossword_example_from_the_issue():
    # XW-3: 3:18 over is 4 started minutes -> 40 points: 412 - 40 = 372 against 388.
    penalty = overtime_penalty((3 * 60 + 18) * S, 10)
    assert penalty == 40
    left, right = 412 - penalty, 388
    # XW-8: right wins by 16; spreads +16 / -16 (under any cap)
    assert capped_spread(right, left, 250) == 16
    assert capped_spread(left, right, 250) == -16


@pytest.mark.parametrize("overtime_s, points", [(0, 0), (0.2, 10), (60, 10), (60.000000001, 20), (198, 40)])
def test_penalty_per_started_minute(overtime_s, points):
    # XW-3: any part of a minute counts as a whole minute
    assert overtime_penalty(round(overtime_s * S), 10) == points


def test_spread_caps():
    # XW-8: secondary 250, last qualifying game 200; the loser's is the negative; no cap in the final
    assert capped_spread(600, 300, 250) == 250
    assert capped_spread(300, 600, 250) == -250
    assert capped_spread(600, 300, 200) == 200
    assert capped_spread(600, 300, None) == 300
    assert capped_spread(400, 400, 100) == 0


def test_game_points():
    # XW-6 / MR-9 / MH-7: win 2, draw 1, loss 0
    assert [game_points(o, "left") for o in ("left", "right", "draw")] == [2, 0, 1]


@pytest.mark.parametrize("material, wins", [
    ("R", True),      # MR-2: K+R
    ("SM", True),     # K+Khon+Met
    ("NM", True),     # K+Knight+Met
    ("MMM", True),    # K+3 promoted pawns
    ("S", False),     # K+Khon only: a flag fall is a draw (issue 4's example)
    ("N", False),
    ("MM", False),
    ("SN", False),    # khon and knight without a met
    ("", False),
])
def test_mr2_material_to_win_on_time(material, wins):
    assert can_win_on_time(parse_material(material)) is wins


def test_material_values():
    # MR-10: rook 5, knight 4, khon 3, met 2, pawn 1 -> R N S M P P = 5+4+3+2+1+1 = 16
    assert material_value(parse_material("RNSMPP")) == 16
    # MR-5: 3 + 2 + 1.5 + 1 + 0.5 + 0.5 = 8.5 units -> 17 half units
    assert material_units_x2(parse_material("RNSMPP")) == 17


def test_bad_material_letters():
    with pytest.raises(ValueError, match="bad piece"):
        parse_material("RQ")


@pytest.mark.parametrize("attacker, limit", [
    ("RR", 8), ("R", 16), ("SS", 22), ("S", 44), ("NN", 32), ("N", 64), ("MM", 64),  # MR-6
    ("RNS", 16),  # the strongest class decides: one rook
    ("SSN", 22),
])
def test_pieces_count_limit(attacker, limit):
    assert pieces_count_limit(parse_material(attacker)) == limit


def test_sudoku_bonus():
    # SU-3: 30-minute round finished correctly at 20:40 -> 9:20 left -> 9 whole minutes -> 27 points
    assert sudoku_bonus(30 * NS_PER_MIN - (20 * 60 + 40) * S, True) == 27
    assert sudoku_bonus(9 * NS_PER_MIN, False) == 0  # only if all puzzles are correct
