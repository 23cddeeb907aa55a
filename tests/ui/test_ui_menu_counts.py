"""Issue 15: counts from the game menu in a few knob actions (issue 27: 3 or 4 after the unlock, right
after Corrections), the pieces' count's start and limit derived from the attacker's material (MR-4..MR-8,
MH-6). Pure: the Menu model on semantic keys."""
from __future__ import annotations

import pytest

from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP
from gameclock.ui.menu import COUNT, Action, Menu, pieces_count_start


@pytest.mark.parametrize(("attacker", "with_kings", "expected"), [
    ("RR", True, (5, 8)),     # MR-6 2 rooks 8; MR-7 seed 003 §10: K+2R v K, 4 pieces, counts 5 at once
    ("RR", False, (3, 8)),    # MR-7 seed 001 §7(12): no king counted: 2 pieces, the next move 3
    ("R", False, (2, 16)),    # seed 001 §7(12)'s example: a rook left, the king's next move is 2; MR-6 16
    ("R", True, (4, 16)),     # K+R v K: 3 pieces on the board, 4
    ("SNN", True, (6, 32)),   # MR-6 decision: K+khon+2 knights is 32 (the lowest row); 5 pieces
    ("RN", True, (5, 16)),    # MR-6 decision: K+R+N v K, 1 rook 16
    ("MM", True, (5, 64)),    # MR-6: short of 3 promoted pawns, no row: 64
])
def test_the_start_and_limit_follow_from_the_material(attacker, with_kings, expected):
    assert pieces_count_start(attacker, with_kings) == expected


@pytest.mark.parametrize("attacker", ["", "RRNNSS"])  # no piece; 8 pieces: 9 is past 2 rooks' 8 (MR-6, MR-7)
def test_no_count_can_start(attacker):
    with pytest.raises(ValueError):
        pieces_count_start(attacker)


def game_menu(m: Menu, **kw) -> list[str]:
    m.open_game_menu(preset_id="makruk-45", started=True, over=False, has_next=True, **kw)
    return m.view()["items"]


def test_a_board_count_for_the_side_on_move_in_3_actions_the_other_in_at_most_9():
    m = Menu([])
    items = game_menu(m, counts=("makruk",), count_side="left")
    assert items[1:4] == ["Corrections", "Board count: left", "Pieces count: left"]
    assert m.key(DOWN) is None and m.key(DOWN) is None
    assert m.key(CLICK) == Action(COUNT, "board left")  # 3 actions, no question
    game_menu(m, counts=("makruk",), count_side="left")
    while m.selected()[0] != "Board count: right":
        m.key(DOWN)
    assert m.view()["index"] <= 8 and m.key(CLICK) == Action(COUNT, "board right")


def test_pieces_k2r_v_k_in_6_actions_and_the_seed_001_reading():
    m = Menu([])
    game_menu(m, counts=("makruk",), count_side="right", pieces_with_kings=False)
    keys = [DOWN, DOWN, DOWN, CLICK]               # Pieces count: right -- 4 actions
    for k in keys:
        assert m.key(k) is None
    assert m.view()["title"] == "PIECES RIGHT"
    m.key(UP)                                      # issue 27: the count wraps: 0 -> 2 rooks, one notch back
    assert m.view()["items"] == ["R=[2] N=0 S=0 M=0", "From 3 to 8"]   # MR-7 no kings: K+2R v K from 3
    m.key(DOWN)                                    # 2 -> 0 clockwise
    assert m.view()["items"][0] == "R=[0] N=0 S=0 M=0"
    m.key(UP)
    assert m.key(LONG_CLICK) == Action(COUNT, "pieces right RR")  # 6 actions in all
    assert m.view()["page"] == "game"


def test_back_on_the_pieces_page_goes_back_a_letter_then_leaves():
    m = Menu([])
    game_menu(m, counts=("makruk",), count_side="left")
    m.key(DOWN); m.key(DOWN); m.key(DOWN); m.key(CLICK)
    m.key(CLICK); m.key(DOWN)
    assert m.view()["items"][0] == "R=0 N=[1] S=0 M=0"
    assert m.key(BACK) is None and m.view()["items"][0] == "R=[0] N=1 S=0 M=0"
    assert m.key(BACK) is None and m.view()["page"] == "game" and not m.editing


def test_makhos_both_sides_and_end_and_stop_within_4_actions():
    # MH-6: the requester counts; a man's move or a capture ends the count; Stop withdraws it
    m = Menu([])
    assert game_menu(m, counts=("makhos",), count_side="right")[2:4] == ["Makhos count: right", "Makhos count: left"]
    m.key(DOWN); m.key(DOWN); m.key(DOWN)
    assert m.key(CLICK) == Action(COUNT, "makhos left")            # 4 actions
    items = game_menu(m, counts=("makhos",), counting="makhos", counting_side="left", count_side="right")
    assert items[2:4] == ["End count", "Stop count"]
    m.key(DOWN); m.key(DOWN)
    assert m.key(CLICK) == Action(COUNT, "end")                    # 3 actions
    game_menu(m, counts=("makhos",), counting="makhos", counting_side="left", count_side="right")
    m.key(DOWN); m.key(DOWN); m.key(DOWN)
    assert m.key(CLICK) == Action(COUNT, "stop")                   # 4 actions


def test_no_count_once_the_game_is_over():
    m = Menu([])
    m.open_game_menu(preset_id="makruk-45", started=True, over=True, has_next=True, counts=("makruk",),
                     count_side="left")
    assert not any("count" in label.lower() for label in m.view()["items"])
