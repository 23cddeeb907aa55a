"""Round robins (issue 16): the FIDE Berger tables, Makruk individual (MR-10) and team (MR-11).

The Berger tables below are typed by hand from the published FIDE Handbook C.05 Annex 1 ("5 or 6
players", "7 or 8 players"); every other expectation is worked out by hand from them and the rules
cited beside it, never copied from the code's output."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameclock.organiser.pairing import load_systems, roundrobin
from gameclock.organiser.pairing.model import EventState, Game, PairingError, Player
from gameclock.organiser.pairing.roundrobin import berger, draw_lot, fewest_clashes

SYSTEMS = load_systems()

# FIDE Handbook C.05 Annex 1, "5 or 6 players" (White first)
FIDE_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
# FIDE Handbook C.05 Annex 1, "7 or 8 players"
FIDE_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


@pytest.mark.parametrize("n, table", [(6, FIDE_6), (5, FIDE_6), (8, FIDE_8), (7, FIDE_8)])
def test_berger_is_the_published_fide_table(n, table):
    # C.05 Annex 1: an odd count uses the next even table, its highest number a bye
    assert [berger(n, r) for r in range(1, len(table) + 1)] == table


def test_berger_rounds_out_of_range_are_refused():
    with pytest.raises(PairingError):
        berger(6, 6)            # 6 players: rounds 1 to 5
    with pytest.raises(PairingError):
        berger(1, 1)


# ------------------------------------------------------------------------------------- MR-10

# three campuses, two players each (seed 001 §4: each campus sends its players; MR-10)
SIX = tuple(Player(id=i, name=i, campus=c) for i, c in
            [("K1", "Khon Kaen"), ("K2", "Khon Kaen"), ("S1", "Surin"), ("S2", "Surin"),
             ("N1", "Nakhon Ratchasima"), ("N2", "Nakhon Ratchasima")])
CAMPUS = {p.id: p.campus for p in SIX}


def pairs(draft):
    return [frozenset((b.left, b.right)) for b in draft.boards]


def test_six_player_makruk_round_robin_from_a_given_lot():
    # MR-10, seed 001 §5(2): the lot gave pairing numbers 1 K1, 2 S1, 3 N1, 4 K2, 5 N2, 6 S2. From the
    # Berger table for 6 (FIDE_6): round 1 is 1-6, 2-5, 3-4 = K1-S2, S1-N2, N1-K2 (no campus meets
    # itself); round 2: 6-4, 5-3, 1-2 = S2-K2, N2-N1, K1-S1; round 3: 2-6, 3-1, 4-5 = S1-S2, N1-K1,
    # K2-N2; round 4: 6-5, 1-4, 2-3 = S2-N2, K1-K2, S1-N1; round 5: 3-6, 4-2, 5-1 = N1-S2, K2-S1, N2-K1.
    state = EventState(players=SIX, options={"order": ["K1", "S1", "N1", "K2", "N2", "S2"]})
    expected = {
        1: [("K1", "S2"), ("S1", "N2"), ("N1", "K2")],
        2: [("S2", "K2"), ("N2", "N1"), ("K1", "S1")],
        3: [("S1", "S2"), ("N1", "K1"), ("K2", "N2")],
        4: [("S2", "N2"), ("K1", "K2"), ("S1", "N1")],
        5: [("N1", "S2"), ("K2", "S1"), ("N2", "K1")],
    }
    met = []
    for r, want in expected.items():
        draft = SYSTEMS["makruk-rr"](state, r, 11)
        assert pairs(draft) == [frozenset(p) for p in want]
        assert [b.table for b in draft.boards] == [1, 2, 3]
        assert all(b.game == 1 and b.stage == "qualifying" for b in draft.boards)
        met += pairs(draft)
    # a round robin: all 15 pairs of 6 players meet once
    assert len(met) == len(set(met)) == 15
    with pytest.raises(PairingError):
        SYSTEMS["makruk-rr"](state, 6, 11)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_round_one_keeps_campuses_apart_for_every_seed(seed):
    # MR-10, seed 001 §5(2): a lot that puts two of one campus together in round one is drawn again
    draft = SYSTEMS["makruk-rr"](EventState(players=SIX), 1, seed)
    assert len(draft.boards) == 3
    assert sorted(draft.players()) == sorted(CAMPUS)
    assert all(CAMPUS[b.left] != CAMPUS[b.right] for b in draft.boards)
    assert any("no two players of the same campus" in n for n in draft.notes)


def test_the_lot_numbers_round_one_and_the_rest_follows_the_table():
    # MR-10: the note lists the lot's pairing numbers; round one is then 1-6, 2-5, 3-4 (FIDE_6) and
    # round 3 is 2-6, 3-1, 4-5, whatever the coin tosses gave
    seed = 2024
    draft = SYSTEMS["makruk-rr"](EventState(players=SIX), 1, seed)
    lot = draft.notes[0].split(": ", 1)[1].split(", ")
    number = {int(k): pid for k, pid in (x.split(" ") for x in lot)}
    assert sorted(number) == [1, 2, 3, 4, 5, 6]
    assert pairs(draft) == [frozenset((number[a], number[b])) for a, b in [(1, 6), (2, 5), (3, 4)]]
    r3 = SYSTEMS["makruk-rr"](EventState(players=SIX), 3, seed)
    assert pairs(r3) == [frozenset((number[a], number[b])) for a, b in [(2, 6), (3, 1), (4, 5)]]


def test_colours_are_a_coin_toss_and_the_same_seed_gives_the_same_draft():
    # seed 001 §5(3): a coin toss decides who starts; the seed is stored so the draw can be redone
    state = EventState(players=SIX)
    assert SYSTEMS["makruk-rr"](state, 2, 99) == SYSTEMS["makruk-rr"](state, 2, 99)
    # over many seeds table 1's first player (by the lot) starts about half the time, never always
    starts = 0
    for seed in range(200):
        d = SYSTEMS["makruk-rr"](EventState(players=SIX, options={"order": [p.id for p in SIX]}), 1, seed)
        starts += d.boards[0].left == "K1"          # table 1 is 1-6: K1 v N2
    assert 60 < starts < 140
    lots = {SYSTEMS["makruk-rr"](state, 1, s).notes[0] for s in range(20)}
    assert len(lots) > 1                            # another seed, another lot


def test_a_campus_with_more_than_half_the_players_meets_itself_as_little_as_possible():
    # MR-10 cannot hold: 4 of 6 from one campus. 2 of them meet the 2 others, the last 2 meet each
    # other: exactly 1 same-campus board in round one, the fewest possible; the notes say so
    players = tuple(Player(id=f"U{i}", name=f"U{i}", campus="Ubon") for i in range(4)) + (
        Player(id="S1", name="S1", campus="Surin"), Player(id="N1", name="N1", campus="Nakhon"))
    campus = {p.id: p.campus for p in players}
    assert fewest_clashes(players) == 1
    for seed in range(30):
        d = SYSTEMS["makruk-rr"](EventState(players=players), 1, seed)
        assert sum(campus[b.left] == campus[b.right] for b in d.boards) == 1
        assert any("cannot keep every campus apart" in n and "1 board(s)" in n for n in d.notes)


def test_odd_count_the_bye_goes_to_the_biggest_campus_when_it_must():
    # 5 players, 3 from one campus: numbers 1..6, 6 the dummy (C.05 Annex 1). The round-one bye must go
    # to one of the 3 (else two of them meet): 0 same-campus boards are possible
    players = tuple(Player(id=f"U{i}", name=f"U{i}", campus="Ubon") for i in range(3)) + (
        Player(id="S1", name="S1", campus="Surin"), Player(id="N1", name="N1", campus="Nakhon"))
    assert fewest_clashes(players) == 0
    for seed in range(30):
        d = SYSTEMS["makruk-rr"](EventState(players=players), 1, seed)
        played = [b for b in d.boards if b.right is not None]
        bye = [b for b in d.boards if b.right is None]
        assert len(played) == 2 and len(bye) == 1 and bye[0].note == "bye"
        assert bye[0].left.startswith("U")
        assert all(b.left[0] != b.right[0] for b in played)    # type: ignore[index]


def test_the_built_lot_when_redrawing_gives_up(monkeypatch):
    # the fallback construction (no lot found by drawing again) still keeps the campuses apart
    monkeypatch.setattr(roundrobin, "LOT_TRIES", 0)
    for seed in range(20):
        order, notes = draw_lot(SIX, seed)
        r1 = [(order[a - 1], order[b - 1]) for a, b in FIDE_6[0]]
        assert all(CAMPUS[a] != CAMPUS[b] for a, b in r1)    # type: ignore[index]
        assert sorted(order) == sorted(CAMPUS)                # type: ignore[type-var]


def test_a_later_round_with_another_lot_than_round_one_played_is_refused():
    # round one was played from the lot of seed 5; pairing round 2 with seed 6 and no lot_seed would
    # pair from another lot: refused, and fine with lot_seed 5
    state = EventState(players=SIX)
    r1 = SYSTEMS["makruk-rr"](state, 1, 5)
    games = tuple(Game(round=1, left=b.left, right=b.right, left_points=0.5, table=b.table) for b in r1.boards)
    other = next(s for s in range(6, 60) if pairs(SYSTEMS["makruk-rr"](state, 1, s)) != pairs(r1))
    with pytest.raises(PairingError, match="lot_seed"):
        SYSTEMS["makruk-rr"](EventState(players=SIX, games=games), 2, other)
    ok = SYSTEMS["makruk-rr"](EventState(players=SIX, games=games, options={"lot_seed": 5}), 2, other)
    assert set(pairs(ok)).isdisjoint(pairs(r1))


# ------------------------------------------------------------------------------------- MR-11

TEAMS = tuple(Player(id=f"{t}{k}", name=f"{t}{k}", campus=t, team=t, board=k)
              for t in ("KK", "SR", "NR") for k in (1, 2))


def test_teams_meet_board_by_board_in_a_berger_round_robin():
    # MR-11, seed 001 §6: 3 teams, numbers 1 KK, 2 SR, 3 NR, 4 the dummy; Berger for 4 (C.05 Annex 1:
    # round 1: 1-4, 2-3; round 2: 4-3, 1-2; round 3: 2-4, 3-1). Round 1: KK a bye, SR v NR board 1 v
    # board 1 and board 2 v board 2; the team that starts board 1 does not start board 2
    state = EventState(players=TEAMS, options={"order": ["KK", "SR", "NR"]})
    d = SYSTEMS["makruk-team"](state, 1, 3)
    played = [b for b in d.boards if b.right is not None]
    assert [frozenset((b.left, b.right)) for b in played] == [frozenset(("SR1", "NR1")), frozenset(("SR2", "NR2"))]
    assert played[0].left[:2] != played[1].left[:2]
    assert [(b.left, b.note) for b in d.boards if b.right is None] == [("KK1", "bye (team KK)"), ("KK2", "bye (team KK)")]
    assert [b.table for b in d.boards] == [1, 2, 3, 4]
    r2 = SYSTEMS["makruk-team"](state, 2, 3)            # 4-3 (NR a bye), 1-2: KK v SR
    assert {frozenset((b.left, b.right)) for b in r2.boards if b.right} == {frozenset(("KK1", "SR1")),
                                                                          frozenset(("KK2", "SR2"))}
    r3 = SYSTEMS["makruk-team"](state, 3, 3)            # 2-4 (SR a bye), 3-1: NR v KK
    assert {frozenset((b.left, b.right)) for b in r3.boards if b.right} == {frozenset(("NR1", "KK1")),
                                                                          frozenset(("NR2", "KK2"))}


def test_a_team_without_both_boards_is_not_paired():
    # seed 001 §6(1): a campus with only one player in the event has no team score
    players = TEAMS + (Player(id="UB1", name="UB1", team="UB", board=1),)
    d = SYSTEMS["makruk-team"](EventState(players=players), 1, 8)
    assert "UB1" not in d.players()
    assert any("team UB has 1 of 2 boards" in n for n in d.notes)


def test_round_one_of_the_teams_fixed_by_the_organiser_is_followed_whole_teams_only():
    # MR-11: 3 teams by order KK 1, SR 2, NR 3 (4 the dummy): round 1 KK bye, SR v NR. The organiser
    # fixes round 1 to KK v SR (NR the bye): the numbers follow, KK and SR take SR and NR's pair
    # (Berger round 1: 2-3), NR the bye's number 1 (1-4); then round 2 (4-3, 1-2) is NR v KK and round 3
    # (2-4, 3-1) is SR v NR: each two teams meet once. A fix splitting a team match is refused.
    from gameclock.organiser.pairing.model import FOLLOWERS, Board
    from gameclock.organiser.pairing.roundrobin import follow_order

    state = EventState(players=TEAMS, options={"order": ["KK", "SR", "NR"]})
    lot = SYSTEMS["makruk-team"](state, 1, 3).lot
    assert lot is not None and lot["order"] == ["KK", "SR", "NR", None]
    fixed = [Board(1, "KK1", "SR1"), Board(2, "SR2", "KK2"), Board(3, "NR1", None), Board(4, "NR2", None)]
    kept = FOLLOWERS["makruk-team"](state, lot, fixed)
    assert kept["order"] == ["NR", "KK", "SR", None]
    later = EventState(players=TEAMS, lot=kept)
    teams = [{frozenset((b.left[:2], b.right[:2])) for b in SYSTEMS["makruk-team"](later, r, 3).boards if b.right}
             for r in (2, 3)]
    assert teams == [{frozenset(("NR", "KK"))}, {frozenset(("SR", "NR"))}]
    split = [Board(1, "KK1", "SR1"), Board(2, "KK2", "NR2"), Board(3, "SR2", "NR1")]
    with pytest.raises(PairingError, match="team KK would meet more than one team"):
        FOLLOWERS["makruk-team"](state, lot, split)
    # follow_order, by hand: 6 numbers (Berger round 1: 1-6, 2-5, 3-4); the pair at 3-4 kept, the two
    # others re-paired take 1-6 and 2-5 in table order, the left player the lower number
    assert follow_order(["a", "b", "c", "d", "e", "f"], [("a", "e"), ("b", "f"), ("c", "d")], []) == [
        "a", "b", "c", "d", "f", "e"]
