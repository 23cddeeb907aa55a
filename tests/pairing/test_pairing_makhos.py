"""Makhos pairings (issue 16): MH-7 groups and MH-8's knockout with its continuations (seed 004 §3.9),
seed 003's variant. Results are chosen by hand; every expectation is worked out by hand from them and
the rule cited beside it."""
from __future__ import annotations

import pytest

from gameclock.organiser.pairing import load_systems
from gameclock.organiser.pairing.knockout import Decided, bracket
from gameclock.organiser.pairing.makhos import mh8, mh8_003
from gameclock.organiser.pairing.model import Board, EventState, Game, PairingError, Player

SYSTEMS = load_systems()
GROUP = tuple(Player(id=i, name=i, group="A") for i in ("P1", "P2", "P3", "P4"))
# FIDE Handbook C.05 Annex 1, "3 or 4 players", by pairing number
FIDE_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def test_a_makhos_group_of_four_plays_every_match_of_four_games():
    # MH-7, seed 004 §3.9.1: a group is a round robin of 4-game matches; seed 004 §3.4.1: a coin toss for
    # who starts, then the start alternates game by game. 4 players: 3 rounds of the Berger table for 4
    state = EventState(players=GROUP)
    met = []
    for r in (1, 2, 3):
        d = SYSTEMS["makhos-groups"](state, r, 5)
        lot = next(n for n in d.notes if n.startswith("group A: ")).split(": ", 1)[1].split(", ")
        number = {int(k): pid for k, pid in (x.split(" ") for x in lot)}
        want = [frozenset((number[a], number[b])) for a, b in FIDE_4[r - 1]]
        tables = sorted({b.table for b in d.boards})
        assert tables == [1, 2]
        for t, pair in zip(tables, want, strict=True):
            games = [b for b in d.boards if b.table == t]
            assert [b.game for b in games] == [1, 2, 3, 4]
            assert all(frozenset((b.left, b.right)) == pair for b in games)
            # colours alternate: game 2 the other way round from game 1, game 3 as game 1, game 4 as game 2
            assert games[1].left == games[0].right and games[2].left == games[0].left
            assert games[3].left == games[0].right
            # the note says the round of the group's table (issue 25: what a draft continues)
            assert [b.note for b in games] == [f"group A, round {r} of 3, game {k} of 4" for k in (1, 2, 3, 4)]
            met.append(pair)
    assert len(set(met)) == 6                      # all 6 matches of 4 players, each once
    with pytest.raises(PairingError, match="tie-break games are played only when the committee orders them"):
        SYSTEMS["makhos-groups"](state, 4, 5)


def test_tie_break_games_only_when_the_organiser_orders_them():
    # MH-7 ค.(3): 4 more games at 20:00; game numbers run on 5 to 8, the start alternating
    state = EventState(players=GROUP, options={"tiebreak": [["P3", "P1"]]})
    d = SYSTEMS["makhos-groups"](state, 4, 9)
    assert [b.game for b in d.boards] == [5, 6, 7, 8]
    assert all({b.left, b.right} == {"P1", "P3"} and b.table == 1 for b in d.boards)
    assert [b.left for b in d.boards][1:] == [d.boards[0].right, d.boards[0].left, d.boards[0].right]
    assert all("tie-break at 20:00" in b.note for b in d.boards)


def test_players_split_into_groups_by_the_lot():
    # MH-7: 8 players in 2 groups by the lot: 4 and 4, nobody twice; the same seed the same groups
    eight = tuple(Player(id=f"X{i}", name=f"X{i}") for i in range(8))
    d = SYSTEMS["makhos-groups"](EventState(players=eight, options={"groups": 2}), 1, 12)
    assert d == SYSTEMS["makhos-groups"](EventState(players=eight, options={"groups": 2}), 1, 12)
    by_group: dict[str, set[str]] = {}
    for b in d.boards:
        by_group.setdefault(b.note.split(",")[0], set()).update((b.left, b.right or ""))
    assert sorted(len(v) for v in by_group.values()) == [4, 4]
    assert set.union(*by_group.values()) == {p.id for p in eight}
    assert len(d.boards) == 2 * 2 * 4             # 2 matches a group, 4 games a match


def g(rnd: int, left: str, right: str, result: str, game: int, times: tuple[int, int] = (600_000, 600_000)) -> Game:
    return Game(round=rnd, left=left, right=right, left_points={"W": 1.0, "D": 0.5, "L": 0.0}[result], game=game,
                left_time_ms=times[0], right_time_ms=times[1])


def test_knockout_of_four_with_draw_giving_games_then_20_00_then_least_time():
    # MH-8, seed 004 §3.9.2, semi-finals A v D and B v C (seeds 1 v 4, 2 v 3)
    four = tuple(Player(id=i, name=i) for i in "ABCD")
    opts = {"seeds": ["A", "B", "C", "D"], "gives_first": {"A v D": "A"}}
    games: list[Game] = []

    def draft(rnd: int):
        return SYSTEMS["makhos-ko"](EventState(players=four, games=tuple(games), options=opts), rnd, 40 + rnd)

    d = draft(1)
    s1 = next(b for b in d.boards if b.note.startswith("semi-final 1"))
    s2 = next(b for b in d.boards if b.note.startswith("semi-final 2"))
    assert {s1.left, s1.right} == {"A", "D"} and "game 1 of 6" in s1.note and s1.stage == "final"
    a_first = s1.left == "A"
    # 6 games, the start alternating; results from A's view W L W L D D: A 2+0+2+0+1+1 = 6, D 6: tied
    for k, res in enumerate("WLWLDD", 1):
        a_left = a_first == (k % 2 == 1)
        left, right = ("A", "D") if a_left else ("D", "A")
        games.append(g(k, left, right, res if a_left else {"W": "L", "L": "W", "D": "D"}[res], k))
        b_left = (s2.left == "B") == (k % 2 == 1)
        games.append(g(k, "B" if b_left else "C", "C" if b_left else "B", "W" if b_left else "L", k))  # B 12-0
    d7 = draft(7)
    assert [b.note.split(":")[0] for b in d7.boards] == ["semi-final 1"]   # B through; A v D goes on
    b7 = d7.boards[0]
    # gives_first: A starts game 7 and gives the draw (a draw is A's loss)
    assert (b7.left, b7.right, b7.game) == ("A", "D", 7)
    assert "tied A 6-6 D after 6" in b7.note and "draw-giving game 1 of 4, A starts and gives the draw" in b7.note
    # game 7 (A gives) drawn: A's loss, D 2 (recorded as the draw it was); game 8 (D gives) D wins, D 2;
    # game 9 (A gives) A wins, A 2; game 10 (D gives) drawn, recorded by the clock as D's loss: A 2.
    # The draw-giving games: A 4, D 4: still tied
    games.append(g(7, "A", "D", "D", 7))
    b8 = draft(8).boards[0]
    assert (b8.left, b8.game) == ("D", 8) and "draw-giving game 2 of 4, D starts" in b8.note
    games.append(g(8, "D", "A", "W", 8))
    games.append(g(9, "A", "D", "W", 9))
    b10 = draft(10).boards[0]
    assert (b10.left, b10.game) == ("D", 10) and "draw-giving game 4 of 4" in b10.note
    games.append(g(10, "D", "A", "L", 10))
    b11 = draft(11).boards[0]
    # still tied (A 6+4 = 10, D 10): 4 more at 20:00, the turns running on: A starts game 11
    assert (b11.left, b11.right, b11.game) == ("A", "D", 11)
    assert "tied A 10-10 D after 10" in b11.note and "20:00 draw-giving game 1 of 4" in b11.note
    # games 11-14: A wins (A 2); D wins (D 2); A gives, drawn (D 2); D gives, drawn (A 2): 4-4, tied.
    # Time: every game 10:00 each, but game 14 A used 8:20 (500 000 ms) against D's 10:00:
    # A 14 x 600 000 - 100 000 = 8 300 000, D 8 400 000: A used less, A goes through on time
    games += [g(11, "A", "D", "W", 11), g(12, "D", "A", "W", 12), g(13, "A", "D", "D", 13),
              g(14, "D", "A", "D", 14, times=(600_000, 500_000))]
    br = bracket(EventState(players=four, games=tuple(games), options=opts), mh8, 1)
    semi1, semi2 = br.matches[0], br.matches[1]
    assert semi2.outcome == Decided("B", "games", "B 12-0 C after 6 game(s)")
    assert semi1.outcome == Decided("A", "time", "tied A 14-14 D after 14 games; total time used A 138:20, D 140:00 "
                                                 "(MH-8: less total time used)")
    # the final: A v B, game 1 of 6; the semi-finals were played at tables 1 and 2 (bracket order)
    fin = draft(15).boards
    assert len(fin) == 1 and {fin[0].left, fin[0].right} == {"A", "B"} and fin[0].game == 1
    assert fin[0].note.startswith("final (the winners of tables 1 and 2): game 1 of 6")


def test_seed_003_knockout_third_game_then_lots_and_the_final_up_to_six():
    # seed 003 Makhos note: not the final: 2 games, a third if tied, then lots
    four = tuple(Player(id=i, name=i) for i in "ABCD")
    games = (g(1, "A", "D", "W", 1), g(2, "D", "A", "W", 2))             # A 2, D 2: tied
    d = SYSTEMS["makhos-ko-003"](EventState(players=four, games=games, options={"seeds": list("ABCD")}), 3, 1)
    third = next(b for b in d.boards if b.note.startswith("semi-final 1"))
    assert (third.left, third.right, third.game) == ("A", "D", 3) and "third game" in third.note
    games += (g(3, "A", "D", "D", 3),)                                  # still tied: lots
    br = bracket(EventState(players=four, games=games, options={"seeds": list("ABCD")}), mh8_003, 1)
    assert isinstance(br.matches[0].outcome, Decided) and br.matches[0].outcome.reason == "lot"
    # the final (2 players): plays on one game at a time up to 6 while tied, then lots
    two = four[:2]
    fin: tuple[Game, ...] = (g(1, "A", "B", "W", 1), g(2, "B", "A", "W", 2))
    for k in (3, 4, 5, 6):
        nxt = SYSTEMS["makhos-ko-003"](EventState(players=two, games=fin, options={"seeds": ["A", "B"]}), k, 1)
        assert [b.game for b in nxt.boards] == [k] and "at most 6" in nxt.boards[0].note
        b: Board = nxt.boards[0]
        fin += (g(k, b.left, b.right or "", "D", k),)
    br = bracket(EventState(players=two, games=fin, options={"seeds": ["A", "B"]}), mh8_003, 1)
    assert isinstance(br.matches[0].outcome, Decided) and br.matches[0].outcome.reason == "lot"
    assert br.champion in ("A", "B")
    # a game won in the run-on decides: A wins game 3
    won = fin[:2] + (g(3, "A", "B", "W", 3),)
    br = bracket(EventState(players=two, games=won, options={"seeds": ["A", "B"]}), mh8_003, 1)
    assert br.matches[0].outcome == Decided("A", "games", "A 4-2 B after 3 game(s)")
