"""The FIDE Dutch system (organiser/pairing/dutch.py, through caissify-pairings) against reference
pairings made by bbpPairings, the FIDE-endorsed Dutch program, and against C.04.3 worked by hand.

The reference files in tests/pairing/bbp/ are bbpPairings' own test data (its repository's
test/tests/, commit 16a000f9811de322b0e835d5643198226165b5a9, Apache-2.0: LICENSE-Apache-2.0.txt):
each `.input` is a TRF of the rounds played, each `.output.expected` the next round as
bbpPairings pairs it (`--dutch FILE -p`: the board count, then "white black" per board in the
published order, 0 for the bye). dutch_2025_C5 and dutch_2025_C9 test rules of the 2025 Dutch
system; issue_7 is a 60-player tournament of 14 rounds (every round bbpPairings' own pairing: its
checker `-c` reports no difference) and its 15th round.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from trfkit import read_pairs, read_trf

from gameclock.organiser.pairing import SYSTEM_MODULES, load_systems
from gameclock.organiser.pairing.dutch import ENGINE, pair
from gameclock.organiser.pairing.model import EventState, Game, PairingError, Player, RoundDraft

BBP = Path(__file__).parent / "bbp"


def boards(draft: RoundDraft) -> list[tuple[str, str | None]]:
    return [(b.left, b.right) for b in draft.boards]


@pytest.mark.parametrize("name", ["dutch_2025_C5", "dutch_2025_C9", "issue_7"])
def test_next_round_is_bbppairings_own_board_by_board(name):
    t = read_trf((BBP / f"{name}.input").read_text())
    rnd = t.paired_rounds() + 1
    want = read_pairs((BBP / f"{name}.output.expected").read_text())
    draft = pair(t.state(rnd), rnd, 0)
    assert boards(draft) == want     # the same boards, colours and board order
    assert [b.table for b in draft.boards] == list(range(1, len(want) + 1))


ISSUE_7 = read_trf((BBP / "issue_7.input").read_text())


@pytest.mark.parametrize("rnd", range(1, ISSUE_7.paired_rounds() + 1))
def test_a_reference_tournament_re_paired_round_by_round(rnd):
    """Each round of issue_7 paired again from the rounds before it, as the file has them: the same
    boards with the same colours (a TRF keeps no board numbers: compared as a set)."""
    draft = pair(ISSUE_7.state(rnd), rnd, 0)
    assert sorted(boards(draft), key=str) == sorted(ISSUE_7.pairs(rnd), key=str)


def players(*ratings: int) -> tuple[Player, ...]:
    return tuple(Player(chr(ord("A") + i), f"P{i + 1}", rating=r) for i, r in enumerate(ratings))


WHITE_FIRST = {"initial_colour": "white"}


def test_round_one_by_hand():
    """C.04.3, round 1: one score group, ranked by rating: S1 = A B, S2 = C D, so A-C, B-D (E.5:
    the higher ranked with an odd pairing number gets the initial colour, white: A white; B, number
    2, gets black). Five players: the lowest ranked, E, gets the bye, on the last board."""
    four = EventState(players(2000, 1900, 1800, 1700), rounds=3, options=WHITE_FIRST)
    assert boards(pair(four, 1, 0)) == [("A", "C"), ("D", "B")]
    five = EventState(players(2000, 1900, 1800, 1700, 1600), rounds=3, options=WHITE_FIRST)
    draft = pair(five, 1, 0)
    assert boards(draft) == [("A", "C"), ("D", "B"), ("E", None)]
    assert draft.boards[-1].note == "bye" and draft.system == "dutch" and ENGINE in draft.notes[0]


def test_round_two_by_hand():
    """After A beat C (A white) and D beat B (D white): score groups {A, D} and {B, C}. A and D both
    had white: both want black (E.2 equal, E.3 the same colours): E.4, the higher ranked (A, better
    pairing number) gets black: D-A. B and C had black: B (higher) gets white: B-C. Board order:
    the 1-point board first."""
    state = EventState(players(2000, 1900, 1800, 1700), rounds=3, options=WHITE_FIRST,
                       games=(Game(1, "A", "C", 1.0), Game(1, "D", "B", 1.0)))
    assert boards(pair(state, 2, 0)) == [("D", "A"), ("B", "C")]


def test_a_higher_score_ranks_higher_for_the_colours():
    """E.4's 'higher ranked' is by score first (C.04.3 A.2), then pairing number: B (1.5, number 2)
    meets A (1, number 1) in round 3 with the same colours so far (white, black): B, the higher
    ranked, gets its preference, white."""
    state = EventState(players(2000, 1900, 1800, 1700), rounds=4, options=WHITE_FIRST,
                       games=(Game(1, "A", "C", 0.5), Game(1, "B", "D", 1.0),
                              Game(2, "D", "A", 0.5), Game(2, "C", "B", 0.5)))
    # scores: A 1.0, B 1.5, C 1.0, D 0.5; A, C have met, B, D have met
    # only A-B and C-D are left; C (1) ranks above D (0.5), both want black (black, white): D-C
    assert boards(pair(state, 3, 0)) == [("B", "A"), ("D", "C")]


def test_a_forfeit_is_no_meeting_and_no_colour():
    """A forfeit is not a game played: the two may meet again (C1), and it gives no colour. B won
    by forfeit, so B (1 point) ranks higher; B's pairing number, 2, is even: B gets the opposite of
    the initial colour (E.5)."""
    state = EventState(players(2000, 1900), rounds=2, options=WHITE_FIRST,
                       games=(Game(1, "A", "B", 0.0, forfeit=True),))
    assert boards(pair(state, 2, 0)) == [("A", "B")]


def test_rounds_that_cannot_be_paired_are_refused():
    met = EventState(players(2000, 1900), rounds=2, games=(Game(1, "A", "B", 1.0),))
    with pytest.raises(PairingError, match="meet again|pair"):
        pair(met, 2, 0)
    with pytest.raises(PairingError, match="number of rounds"):
        pair(EventState(players(2000, 1900)), 1, 0)
    with pytest.raises(PairingError, match="games of round 2"):
        pair(EventState(players(2000, 1900), rounds=3, games=(Game(2, "A", "B", 1.0),)), 2, 0)
    with pytest.raises(PairingError, match="initial_colour"):
        pair(EventState(players(2000, 1900), rounds=3, options={"initial_colour": "red"}), 1, 0)


def test_the_same_state_and_seed_give_the_same_draft():
    state = EventState(players(1500, 1500, 1400, 1400, 1300), rounds=5)
    assert pair(state, 1, 7) == pair(state, 1, 7)
    # equal ratings keep the event's order; the initial colour is drawn by lot from the seed
    drafts = {boards(pair(state, 1, seed))[0] for seed in range(20)}
    assert drafts == {("A", "C"), ("C", "A")}
    assert "drawn by lot, seed 7" in pair(state, 1, 7).notes[1]


def test_registered_as_dutch():
    assert "dutch" in SYSTEM_MODULES and load_systems()["dutch"] is pair
