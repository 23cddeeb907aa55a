"""The "sudoku" system (seed 000 §1-2, SU-1, SU-4): a seating, not pairings. §2 "ประเภทซูโดกุ –
จะแข่งขันรวมด้วยปริศนาที่กำหนดให้แบบเดียวกัน": everyone solves the same puzzles at once; the clock is
a round timer for two competitors (SU-1). Round 3 seats the top five of the two qualifying rounds
(SU-4, "ผู้ที่ได้คะแนนสูงสุด 5 อันดับแรกในรอบคัดเลือก จะได้เข้าสู่รอบชิงชนะเลิศ")."""
from __future__ import annotations

import pytest

from gameclock.organiser.pairing import load_systems
from gameclock.organiser.pairing.model import Board, EventState, Game, PairingError, Player

SUDOKU = load_systems()["sudoku"]
NAMES = "ABCDEFG"
PLAYERS = tuple(Player(x, f"Competitor {x}") for x in NAMES)


def su(rnd: int, table: int, left: str, right: str | None, left_score: int, right_score: int = 0) -> Game:
    return Game(rnd, left, right, 0.0, table=table, left_score=left_score, right_score=right_score)


def test_a_qualifying_round_seats_two_a_clock_in_entry_order():
    # SU-1: two competitors a clock, not opponents; seven competitors: the fourth clock has one,
    # which is not a bye (Sudoku has none)
    draft = SUDOKU(EventState(PLAYERS), 1, 0)
    assert draft.boards == (Board(1, "A", "B", note="two competitors"), Board(2, "C", "D", note="two competitors"),
                            Board(3, "E", "F", note="two competitors"), Board(4, "G", None, note="alone"))
    assert SUDOKU(EventState(PLAYERS), 2, 0).boards == draft.boards   # SU-1: round 2 the same way


def test_the_top_five_of_the_qualifying_rounds_go_to_the_final():
    # round totals (SU-2 points + SU-3 bonus, each round): A 100+120 = 220, B 90+90 = 180,
    # C 150+0 = 150, D 60+140 = 200, E 130+30 = 160, F 70+75 = 145, G 50+60 = 110
    # -> A 220, D 200, B 180, E 160, C 150 to the final (SU-4); seated by rank, stage final
    games = (su(1, 1, "A", "B", 100, 90), su(1, 2, "C", "D", 150, 60), su(1, 3, "E", "F", 130, 70),
             su(1, 4, "G", None, 50),
             su(2, 1, "A", "B", 120, 90), su(2, 2, "C", "D", 0, 140), su(2, 3, "E", "F", 30, 75),
             su(2, 4, "G", None, 60))
    draft = SUDOKU(EventState(PLAYERS, games), 3, 0)
    assert draft.boards == (Board(1, "A", "D", stage="final", note="two competitors"),
                            Board(2, "B", "E", stage="final", note="two competitors"),
                            Board(3, "C", None, stage="final", note="alone"))
    assert not any("share" in n for n in draft.notes)


def test_a_tie_for_fifth_place_seats_every_tied_competitor_and_says_so():
    # SU-4 gives no tie-break: C and F both 150 for fifth place -> six seated, a note for the organiser
    games = (su(1, 1, "A", "B", 220, 180), su(1, 2, "C", "D", 150, 200), su(1, 3, "E", "F", 160, 150),
             su(1, 4, "G", None, 110))
    draft = SUDOKU(EventState(PLAYERS, games, options={"qualifying_rounds": 1}), 2, 0)
    assert draft.players() == ["A", "D", "B", "E", "C", "F"]
    assert any("C, F share the last place" in n for n in draft.notes)


def test_rounds_past_the_final_are_refused():
    with pytest.raises(PairingError, match="no round 4"):
        SUDOKU(EventState(PLAYERS), 4, 0)
