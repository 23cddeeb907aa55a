"""Knockout brackets (issue 16): MR-12 (seed 003 Makruk note) and the bracket's order. Every expected
board, winner and reason is worked out by hand from the results chosen here and the rule cited."""
from __future__ import annotations

import pytest

from gameclock.organiser.pairing import load_systems
from gameclock.organiser.pairing.knockout import Decided, bracket, mr12, places, placings
from gameclock.organiser.pairing.model import Board, EventState, Game, PairingError, Player

SYSTEMS = load_systems()
FOUR = tuple(Player(id=i, name=i) for i in "ABCD")


def play(board: Board, rnd: int, result: str, times: tuple[int, int] = (0, 0)) -> Game:
    """The game of `board` as played: `result` from its left's view, W / D / L."""
    return Game(round=rnd, left=board.left, right=board.right, left_points={"W": 1.0, "D": 0.5, "L": 0.0}[result],
                table=board.table, game=board.game, left_time_ms=times[0], right_time_ms=times[1])


def by_note(draft, start: str) -> Board:
    return next(b for b in draft.boards if b.note.startswith(start))


def test_bracket_places_are_the_usual_seeding():
    assert places(4) == [1, 4, 2, 3]                      # 1 v 4, 2 v 3; 1 and 2 only in the final
    assert places(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_mr12_knockout_of_four_with_a_lot_and_the_finals_third_game():
    opts: dict[str, object] = {"seeds": ["A", "B", "C", "D"], "third_place": True, "lot_seed": 77}
    games: list[Game] = []

    def draft(rnd: int):
        return SYSTEMS["makruk-ko"](EventState(players=FOUR, games=tuple(games), options=opts), rnd, 1000 + rnd)

    # round 1: the semi-finals A v D and B v C (seeds 1 v 4, 2 v 3), game 1 of 2, a coin toss each
    d1 = draft(1)
    s1, s2 = by_note(d1, "semi-final 1"), by_note(d1, "semi-final 2")
    assert {s1.left, s1.right} == {"A", "D"} and {s2.left, s2.right} == {"B", "C"}
    assert (s1.game, s2.game, s1.stage, s2.stage) == (1, 1, "final", "final")
    assert "game 1 of 2" in s1.note and "coin toss" in s1.note
    # the game on table 1 was played the other way round (the toss's winner chose to move second):
    # MR-12 / seed 003 Makruk §1: game 2 swaps the sides of game 1 as it was played
    games.append(play(Board(s1.table, s1.right or "", s1.left, game=1), 1, "W" if s1.right == "A" else "L"))
    games.append(play(s2, 1, "W" if s2.left == "B" else "L"))        # B wins game 1
    d2 = draft(2)
    t1, t2 = by_note(d2, "semi-final 1"), by_note(d2, "semi-final 2")
    assert (t1.left, t1.right, t1.game) == (s1.left, s1.right, 2)    # swapped back from the game as played
    assert (t2.left, t2.right, t2.game) == (s2.right, s2.left, 2)
    games.append(play(t1, 2, "D"))                                    # A 2+1 = 3, D 0+1 = 1: A through
    games.append(play(t2, 2, "W" if t2.left == "C" else "L"))         # C wins game 2: B 2, C 2, tied
    br = bracket(EventState(players=FOUR, games=tuple(games), options=opts), mr12, 3)
    semi1, semi2 = br.matches[0], br.matches[1]
    assert semi1.outcome == Decided("A", "games", "A 3-1 D after 2 game(s)")
    assert isinstance(semi2.outcome, Decided) and semi2.outcome.reason == "lot"   # MR-12: not the final: lots
    lot_winner = semi2.outcome.winner
    assert lot_winner in ("B", "C")
    # the lot is the lot seed's: the same winner whatever seed the draft has
    assert all(bracket(EventState(players=FOUR, games=tuple(games), options=opts), mr12, s).matches[1].winner
               == lot_winner for s in range(10))
    # a lot drawn by hand at the venue, recorded as an option, wins over the seed
    hand = bracket(EventState(players=FOUR, games=tuple(games), options={**opts, "lots": {"C v B": "C"}}), mr12, 3)
    assert hand.matches[1].outcome == Decided("C", "lot", "tied B 2-2 C after 2 games (MR-12); the lot drawn at the "
                                                          "venue: C")
    opts["lots"] = {"B v C": "C"}

    # round 3: the final A v C and the third place D v B (option third_place), game 1 of 2
    d3 = draft(3)
    f1, p1 = by_note(d3, "final"), by_note(d3, "third place")
    assert {f1.left, f1.right} == {"A", "C"} and {p1.left, p1.right} == {"B", "D"}
    games.append(play(f1, 3, "W"))
    games.append(play(p1, 3, "D"))
    d4 = draft(4)
    f2, p2 = by_note(d4, "final"), by_note(d4, "third place")
    assert (f2.left, f2.right, f2.game) == (f1.right, f1.left, 2)
    games.append(play(f2, 4, "W"))       # final: each won one, 2-2: MR-12, the final plays a third game
    games.append(play(p2, 4, "D"))       # third place 2-2 after 2: not the final: lots, no third game
    d5 = draft(5)
    assert [b.note.split(":")[0] for b in d5.boards] == ["final"]
    f3 = d5.boards[0]
    assert f3.game == 3 and "third game" in f3.note and {f3.left, f3.right} == {"A", "C"}
    br = bracket(EventState(players=FOUR, games=tuple(games), options=opts), mr12, 5)
    third = next(m for m in br.matches if m.name == "third place")
    assert isinstance(third.outcome, Decided) and third.outcome.reason == "lot"
    assert br.champion is None
    games.append(play(f3, 5, "D"))       # the third game drawn too: MR-12, lots
    br = bracket(EventState(players=FOUR, games=tuple(games), options=opts), mr12, 6)
    final = next(m for m in br.matches if m.name == "final")
    assert isinstance(final.outcome, Decided) and final.outcome.reason == "lot"
    assert br.champion == final.outcome.winner in ("A", "C")
    with pytest.raises(PairingError, match="the knockout is over"):
        draft(6)


def test_a_third_game_won_decides_the_final_on_games():
    # MR-12: the final tied 2-2, the third game won by C: C 4-2
    two = (Player(id="A", name="A"), Player(id="C", name="C"))
    games = (Game(1, "A", "C", 1.0, game=1), Game(2, "C", "A", 1.0, game=2), Game(3, "C", "A", 1.0, game=3))
    br = bracket(EventState(players=two, games=games, options={"seeds": ["A", "C"]}), mr12, 1)
    assert br.matches[0].outcome == Decided("C", "games", "A 2-4 C after 3 game(s)")
    assert br.champion == "C"


def test_byes_fill_the_bracket_and_the_draft_is_the_seeds():
    # 3 players, a bracket of 4: seed 1 meets the empty 4th place, a bye; 2 v 3 play
    three = FOUR[:3]
    d = SYSTEMS["makruk-ko"](EventState(players=three, options={"seeds": ["A", "B", "C"]}), 1, 4)
    assert [{b.left, b.right} for b in d.boards] == [{"B", "C"}]
    assert d.boards[0].note.startswith("semi-final 2")
    assert d == SYSTEMS["makruk-ko"](EventState(players=three, options={"seeds": ["A", "B", "C"]}), 1, 4)


def test_the_bracket_by_lot_is_the_seeds():
    # without seeds the lot places the players; the same lot seed gives the same bracket
    a = SYSTEMS["makruk-ko"](EventState(players=FOUR), 1, 31)
    b = SYSTEMS["makruk-ko"](EventState(players=FOUR), 1, 31)
    assert a == b
    assert sorted(a.players()) == ["A", "B", "C", "D"]
    assert a.notes[0].startswith("bracket by lot (lot seed 31)")


def test_third_place_needs_two_semi_final_losers():
    """3 players, option third_place: semi-final 1 is seed 1's bye, so only one semi-final has a loser;
    there is no third-place match (found by issue 25's property test: the knockout never ended, "no
    knockout match can be paired now"). MR-12: B 4-0 C, then the final A v B: A 4-0. Places: A, B, C."""
    three = FOUR[:3]
    opts = {"seeds": ["A", "B", "C"], "third_place": True}
    games = [Game(1, "B", "C", 1.0, game=1), Game(2, "C", "B", 0.0, game=2),
             Game(3, "A", "B", 1.0, game=1), Game(4, "B", "A", 0.0, game=2)]
    with pytest.raises(PairingError, match="the knockout is over: A won the final"):
        SYSTEMS["makruk-ko"](EventState(players=three, games=tuple(games), options=opts), 5, 1)
    br = bracket(EventState(players=three, games=tuple(games), options=opts), mr12, 1)
    assert [m.name for m in br.matches] == ["semi-final 1", "semi-final 2", "final"]
    assert placings(br) == [(1, ("A",)), (2, ("B",)), (3, ("C",))]


def test_a_withdrawn_player_gives_the_match_to_the_opponent():
    """A player who withdrew (left out of `state.players` by the event) before their match was decided:
    the opponent goes through ("withdrawal"); the bracket is the kept one, whoever is left."""
    lot = {"seed": 5, "by": "seeds", "bracket": ["A", "D", "B", "C"], "drawn": {}}
    games = (Game(1, "A", "D", 1.0, game=1), Game(1, "B", "C", 0.5, game=1))
    state = EventState(players=tuple(p for p in FOUR if p.id != "C"), games=games, lot=lot)
    br = bracket(state, mr12, 9)
    assert br.matches[1].outcome == Decided("B", "withdrawal", "C withdrew: B goes through")
    d = SYSTEMS["makruk-ko"](state, 2, 9)
    assert [(b.table, b.left, b.right, b.game) for b in d.boards] == [(1, "D", "A", 2)]   # semi-final 1 goes on
