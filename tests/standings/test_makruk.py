"""Makruk standings (MR-9..MR-12) for hand-built tournaments. Every expected table below was worked
out by hand from the games listed beside it (the comments show the sums); none is copied from the
code's output."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from kit import bye, games, preset, rec

from gameclock.organiser.standings.makruk import TeamsError, load_teams, standings, team_round
from gameclock.organiser.standings.table import format_csv, format_json, format_table
from gameclock.rules.loader import StandingsSettings

EV = "makruk-m"
MAKRUK = preset("makruk-45")


def mk(n: int, rnd: int, left: str, right: str, winner: str, pieces: tuple[int, int], *, event=EV, table=1,
       **kw) -> dict:
    return rec(f"clock1-{n:06}", event, rnd, table, left, right, winner, piece_value=pieces,
               preset="makruk-45", kind="makruk", **kw)


def table_of(st) -> list[tuple]:
    return [(r.place, r.player, *(r.values[c] for c in st.columns)) for r in st.rows]


# --- T1: a 5-player round robin (MR-10: round robin), one bye a round ---------------------------------------
#
# round  game              result   pieces left (left, right)
#   1    A-B               draw     10, 10        E bye
#   1    C-D               C wins   12, 3
#   2    A-C               draw      8, 8         D bye
#   2    B-E               draw      9, 9
#   3    A-D               A wins   15, 2         B bye
#   3    C-E               C wins   14, 1
#   4    A-E               A wins   11, 2         C bye
#   4    B-D               draw      7, 7
#   5    B-C               B wins    6, 13        A bye
#   5    D-E               draw      4, 4
#
# MR-9 MP (win 2, draw 1): A = 1+1+2+2 = 6; B = 1+1+1+2 = 5; C = 2+1+2+0 = 5; D = 0+0+1+1 = 2;
# E = 1+0+0+1 = 2 (20 in all = 10 games x 2).
# MR-10 head-to-head: B and C tie on 5 MP; B beat C (round 5): B 2, C 0 -> B above C, although C has more
# pieces (C 12+8+14+13 = 47 > B 10+9+7+6 = 32): head-to-head comes before the pieces.
# D and E tie on 2 MP; they drew: 1 each; pieces D 3+2+7+4 = 16, E 9+1+2+4 = 16: equal -> a shared 4th place.
# A is alone on 6 MP: no head-to-head (empty); pieces 10+8+15+11 = 44.
T1 = [
    mk(1, 1, "A", "B", "draw", (10, 10)), mk(2, 1, "C", "D", "left", (12, 3), table=2),
    mk(3, 2, "A", "C", "draw", (8, 8)), mk(4, 2, "B", "E", "draw", (9, 9), table=2),
    mk(5, 3, "A", "D", "left", (15, 2)), mk(6, 3, "C", "E", "left", (14, 1), table=2),
    mk(7, 4, "A", "E", "left", (11, 2)), mk(8, 4, "B", "D", "draw", (7, 7), table=2),
    mk(9, 5, "B", "C", "left", (6, 13)), mk(10, 5, "D", "E", "draw", (4, 4), table=2),
]
T1_BYES = [bye(EV, 1, "E"), bye(EV, 2, "D"), bye(EV, 3, "B"), bye(EV, 4, "C"), bye(EV, 5, "A")]
T1_TABLE = [
    # place, player, Games, W, D, L, MP, H2H, Pieces
    ("1", "A", 4, 2, 2, 0, 6, None, 44),
    ("2", "B", 4, 1, 3, 0, 5, 2, 32),     # MR-10: head-to-head (beat C)
    ("3", "C", 4, 2, 1, 1, 5, 0, 47),
    ("=4", "D", 4, 0, 2, 2, 2, 1, 16),    # MR-10: MP, head-to-head and pieces equal: a shared place
    ("=4", "E", 4, 0, 2, 2, 2, 1, 16),
]


def test_round_robin_head_to_head_and_shared_place() -> None:
    st = standings(games(*T1), T1_BYES, MAKRUK, event=EV)
    assert st.method == "makruk" and st.rules == ["MR-9", "MR-10"]
    assert st.columns == ["Games", "W", "D", "L", "MP", "H2H", "Pieces"]
    assert table_of(st) == T1_TABLE
    assert any("byes score nothing" in n for n in st.notes)


def test_the_printed_forms() -> None:
    st = standings(games(*T1), T1_BYES, MAKRUK, event=EV)
    lines = format_table(st).splitlines()
    assert lines[0] == "makruk-m: makruk standings (MR-9, MR-10)"
    assert lines[1].split() == ["Place", "Player", "Games", "W", "D", "L", "MP", "H2H", "Pieces"]
    assert lines[2].split() == ["1", "A", "4", "2", "2", "0", "6", "44"]      # no head-to-head: empty
    assert lines[5].split() == ["=4", "D", "4", "0", "2", "2", "2", "1", "16"]
    assert format_csv(st).splitlines()[3] == '"makruk-m",3,"C",,4,2,1,1,5,0,47'   # text quoted (csvcells.py)
    assert format_csv(st).splitlines()[4] == '"makruk-m","\'=4","D",,4,0,2,2,2,1,16'  # "=4" would be a formula
    rows = json.loads(format_json(st))["rows"]
    assert [(r["place"], r["player"], r["H2H"]) for r in rows] == [
        ("1", "A", None), ("2", "B", 2), ("3", "C", 0), ("=4", "D", 1), ("=4", "E", 1)]


def test_other_events_and_later_rounds_are_left_out() -> None:
    other = mk(11, 1, "A", "Z", "right", (0, 30), event="makruk-w")
    st = standings(games(*T1, other), T1_BYES + [bye("makruk-w", 1, "Y")], MAKRUK, event=EV)
    assert table_of(st) == T1_TABLE


def test_after_round_one_head_to_head_only_among_players_who_met() -> None:
    # After round 1: A-B drew (10, 10 pieces), C beat D (12, 3), E had a bye.
    # MR-9: C 2; A 1, B 1; D 0, E 0.
    # A and B met: head-to-head 1 each, pieces 10 each -> shared 2nd (MR-10).
    # D and E have not met: head-to-head is not used for them (a note says so); pieces D 3, E 0 -> D 4th, E 5th.
    st = standings(games(*T1), T1_BYES, MAKRUK, event=EV, round=1)
    assert table_of(st) == [
        ("1", "C", 1, 1, 0, 0, 2, None, 12),
        ("=2", "A", 1, 0, 1, 0, 1, 1, 10),
        ("=2", "B", 1, 0, 1, 0, 1, 1, 10),
        ("4", "D", 1, 0, 0, 1, 0, None, 3),
        ("5", "E", 0, 0, 0, 0, 0, None, 0),
    ]
    assert any(n.startswith("MR-10: head-to-head not used for D, E (0 MP)") and "D v E" in n for n in st.notes)


# --- T2: a three-way tie with a circular head-to-head (MR-10: then the pieces) -------------------------------
#
# round  game   result   pieces
#   1    P-Q    P wins   8, 3
#   1    R-S    R wins   6, 1
#   2    Q-R    Q wins   12, 2
#   2    P-S    P wins   7, 0
#   3    R-P    R wins   7, 5
#   3    Q-S    Q wins   10, 2
#
# MP: P 2+2+0 = 4, Q 0+2+2 = 4, R 2+0+2 = 4, S 0.
# Head-to-head among P, Q, R (P beat Q, Q beat R, R beat P): 2 each -- a circle, it decides nothing.
# Pieces: P 8+7+5 = 20, Q 3+12+10 = 25, R 6+2+7 = 15, S 1+0+2 = 3 -> Q, P, R; S 4th.
T2 = [
    mk(21, 1, "P", "Q", "left", (8, 3)), mk(22, 1, "R", "S", "left", (6, 1), table=2),
    mk(23, 2, "Q", "R", "left", (12, 2)), mk(24, 2, "P", "S", "left", (7, 0), table=2),
    mk(25, 3, "R", "P", "left", (7, 5)), mk(26, 3, "Q", "S", "left", (10, 2), table=2),
]


def test_circular_head_to_head_then_pieces() -> None:
    st = standings(games(*T2), (), MAKRUK, event=EV)
    assert table_of(st) == [
        ("1", "Q", 3, 2, 0, 1, 4, 2, 25),
        ("2", "P", 3, 2, 0, 1, 4, 2, 20),
        ("3", "R", 3, 2, 0, 1, 4, 2, 15),
        ("4", "S", 3, 0, 0, 3, 0, None, 3),
    ]
    assert not any("head-to-head not used" in n for n in st.notes)


def test_games_without_pieces_or_result_or_names() -> None:
    no_pieces = mk(21, 1, "P", "Q", "left", None)  # T2's first game with nothing entered for the pieces
    pending = mk(30, 4, "P", "S", None, None)
    unnamed = mk(31, 4, "P", None, "left", (1, 1))
    st = standings(games(no_pieces, *T2[1:], pending, unnamed), (), MAKRUK, event=EV)
    # P 20 - 8 = 12, Q 25 - 3 = 22: the game counts 0 pieces for both, and a note says so
    assert [(r.player, r.values["Pieces"]) for r in st.rows] == [("Q", 22), ("R", 15), ("P", 12), ("S", 3)]
    assert any(n.startswith("MR-10: 1 game(s) without the pieces left recorded") and "clock1-000021" in n
               for n in st.notes)
    assert any("without a result left out: clock1-000030" in n for n in st.notes)
    assert any("without both players' names left out: clock1-000031" in n for n in st.notes)


# --- MR-12: knockout games are reported, not ranked --------------------------------------------------------

def test_knockout_games_are_noted_not_ranked() -> None:
    # Round 6, knockout (stage final), 2 games a match (MR-12, seed 003 Makruk note):
    #   A-B: A wins game 1, B wins game 2 -> 2-2, tied: drawing of lots (the final: a third game first)
    #   C-D: C wins both -> 4-0, C goes through
    ko = [mk(41, 6, "A", "B", "left", (9, 1), stage="final", game=1),
          mk(42, 6, "B", "A", "left", (9, 1), stage="final", game=2),
          mk(43, 6, "C", "D", "left", (9, 1), stage="final", table=2, game=1),
          mk(44, 6, "D", "C", "right", (1, 9), stage="final", table=2, game=2)]
    st = standings(games(*T1, *ko), T1_BYES, MAKRUK, event=EV)
    assert table_of(st) == T1_TABLE  # the knockout changes nothing in the table
    assert st.rules == ["MR-9", "MR-10", "MR-12"]
    assert "knockout round 6: A 2-2 B (2 game(s)): tied A 2-2 B after 2 games (MR-12): lots decide (unless it " \
           "is the final: a third game first)" in st.notes
    assert "knockout round 6: C 4-0 D (2 game(s)): C goes through" in st.notes


def test_a_knockout_match_is_not_decided_after_its_first_game() -> None:
    # MR-12: a match is 2 games. Without the event's draw (results only) each pair's games are one match,
    # over all rounds: C wins game 1 in round 6 -> 2-0 after 1 game, nothing decided (issue 25: the note said
    # "goes through"); game 2 in round 7, C wins again -> 4-0: C goes through.
    g1 = mk(43, 6, "C", "D", "left", (9, 1), stage="final", table=2, game=1)
    st = standings(games(*T1, g1), T1_BYES, MAKRUK, event=EV)
    assert "knockout round 6: C 2-0 D (1 game(s)): not decided yet; game 2 next (2 games, then lots; the final a " \
           "third game first (MR-12))" in st.notes
    assert not any("goes through" in n for n in st.notes)
    g2 = mk(44, 7, "D", "C", "right", (1, 9), stage="final", table=2, game=2)
    st = standings(games(*T1, g1, g2), T1_BYES, MAKRUK, event=EV)
    assert "knockout rounds 6-7: C 4-0 D (2 game(s)): C goes through" in st.notes


# --- MR-11: teams -------------------------------------------------------------------------------------------

def test_team_round_is_mr11_table_for_two_boards() -> None:
    # MR-11 (seed 001 §6(2), §6(4)), all 9 ordered pairs of board results, written out from the rule:
    # MP 2: two wins, or a win and a draw; 1: a win and a loss, or two draws; else 0.
    # GP 4 two wins, 3 win+draw, 2 win+loss or two draws, 1 loss+draw, 0 two losses.
    mr11 = {
        ("win", "win"): (2, 4),
        ("win", "draw"): (2, 3), ("draw", "win"): (2, 3),
        ("win", "loss"): (1, 2), ("loss", "win"): (1, 2),
        ("draw", "draw"): (1, 2),
        ("draw", "loss"): (0, 1), ("loss", "draw"): (0, 1),
        ("loss", "loss"): (0, 0),
    }
    assert len(mr11) == 9
    for results, expected in mr11.items():
        assert team_round(results) == expected, results


def test_team_round_extension_for_other_board_counts() -> None:
    # Our extension: board points (2/1/0) against the opponents' in the same games; GP = the board points.
    assert team_round(["win", "win", "loss"]) == (2, 4)     # 4 v 2
    assert team_round(["win", "loss", "draw"]) == (1, 3)    # 3 v 3
    assert team_round(["loss", "loss", "draw"]) == (0, 1)   # 1 v 5
    assert team_round(["win"]) == (2, 2)                    # 2 v 0
    assert team_round(["draw", "draw", "draw", "draw"]) == (1, 4)


# Four campuses, boards 1 and 2 (MR-11), a team round robin over 3 rounds: board 1 plays board 1, board 2 board 2.
TEAMS = {"n1": ("North", 1), "n2": ("North", 2), "s1": ("South", 1), "s2": ("South", 2),
         "e1": ("East", 1), "e2": ("East", 2), "w1": ("West", 1), "w2": ("West", 2)}
#
# round  match     board 1 (pieces)      board 2 (pieces)      team MP / GP (MR-11)
#   1    N v S     n1 wins (9, 2)        draw (5, 5)           N win+draw 2/3;  S loss+draw 0/1
#   1    E v W     e1 wins (8, 1)        draw (4, 4)           E 2/3;           W 0/1
#   2    N v E     n1 wins (10, 3)       e2 wins (2, 11)       N win+loss 1/2;  E 1/2
#   2    S v W     s1 wins (7, 4)        w2 wins (1, 6)        S 1/2;           W 1/2
#   3    N v W     draw (7, 6)           draw (3, 3)           N two draws 1/2; W 1/2
#   3    S v E     draw (4, 4)           draw (5, 5)           S 1/2;           E 1/2
#
# Team MP: N 2+1+1 = 4, E 2+1+1 = 4, S 0+1+1 = 2, W 0+1+1 = 2.   GP: N 3+2+2 = 7, E 7, S 1+2+2 = 5, W 5.
# Pieces: N 9+5+10+2+7+3 = 36, E 8+4+3+11+4+5 = 35 -> North above East.
#         S 2+5+7+1+4+5 = 24, W 1+4+4+6+6+3 = 24 -> South and West share 3rd.
# Team rounds won (MP 2) / drawn (MP 1) / lost (MP 0): N 1/2/0, E 1/2/0, S 0/2/1, W 0/2/1.
T3 = [
    mk(51, 1, "n1", "s1", "left", (9, 2)), mk(52, 1, "n2", "s2", "draw", (5, 5), table=2),
    mk(53, 1, "e1", "w1", "left", (8, 1), table=3), mk(54, 1, "e2", "w2", "draw", (4, 4), table=4),
    mk(55, 2, "n1", "e1", "left", (10, 3)), mk(56, 2, "n2", "e2", "right", (2, 11), table=2),
    mk(57, 2, "s1", "w1", "left", (7, 4), table=3), mk(58, 2, "s2", "w2", "right", (1, 6), table=4),
    mk(59, 3, "n1", "w1", "draw", (7, 6)), mk(60, 3, "n2", "w2", "draw", (3, 3), table=2),
    mk(61, 3, "s1", "e1", "draw", (4, 4), table=3), mk(62, 3, "s2", "e2", "draw", (5, 5), table=4),
]


def test_team_event() -> None:
    st = standings(games(*T3), (), MAKRUK, event=EV, teams=TEAMS)
    assert st.method == "makruk-team" and st.rules == ["MR-9", "MR-11"]
    assert st.columns == ["Players", "Rounds", "W", "D", "L", "MP", "GP", "Pieces"]
    assert table_of(st) == [
        ("1", "North", "n1 / n2", 3, 1, 2, 0, 4, 7, 36),   # MR-11: MP and GP equal with East; pieces
        ("2", "East", "e1 / e2", 3, 1, 2, 0, 4, 7, 35),
        ("=3", "South", "s1 / s2", 3, 0, 2, 1, 2, 5, 24),  # MR-11: MP, GP and pieces equal: shared
        ("=3", "West", "w1 / w2", 3, 0, 2, 1, 2, 5, 24),
    ]
    assert st.notes == []


def test_team_with_one_player_is_not_ranked() -> None:
    # Seed 001 §6(1): a campus that entered only one player has no team score. West lists only w1.
    teams = {p: t for p, t in TEAMS.items() if p != "w2"}
    st = standings(games(*T3), (), MAKRUK, event=EV, teams=teams)
    assert [r.player for r in st.rows] == ["North", "East", "South"]
    assert "MR-11: team West has 1 of 2 boards listed: not ranked (seed 001 §6(1))" in st.notes
    assert "not in the teams file (their games count for no team): w2" in st.notes


def test_team_round_with_a_board_missing_and_a_game_between_teammates() -> None:
    # Round 1 only: N v S as in T3 (N 2/3, S 0/1), and East's boards played each other (e1 beat e2: not a team
    # game), so East has no team round; West's w1 had a bye, w2 beat x (not in any team): one of two boards
    # played, scored by our extension: 2 v 0 -> MP 2, GP 2.
    gs = games(T3[0], T3[1], mk(70, 1, "e1", "e2", "left", (5, 1), table=3),
               mk(71, 1, "w2", "x", "left", (6, 0), table=4))
    st = standings(gs, [bye(EV, 1, "w1")], MAKRUK, event=EV, teams=TEAMS)
    assert table_of(st) == [
        ("1", "North", "n1 / n2", 1, 1, 0, 0, 2, 3, 14),   # pieces 9 + 5
        ("2", "West", "w1 / w2", 1, 1, 0, 0, 2, 2, 6),
        ("3", "South", "s1 / s2", 1, 0, 0, 1, 0, 1, 7),    # pieces 2 + 5
        ("4", "East", "e1 / e2", 0, 0, 0, 0, 0, 0, 0),
    ]
    assert "MR-11: team West, round 1: 1 of 2 boards played; scored by board points against the opponents' " \
           "(our extension)" in st.notes
    assert any(n.startswith("MR-11: 1 game(s) between players of the same team") and "clock1-000070" in n
               for n in st.notes)
    assert "not in the teams file (their games count for no team): x" in st.notes


def test_team_boards_from_the_rule_file() -> None:
    # [standings] team_boards = 3: teams n1-n3 and s1-s3 meet in one round.
    # Boards: n1 wins, n2 loses, n3 draws -> North 2+0+1 = 3 board points v South's 3: MP 1 each, GP 3 each
    # (our extension). Pieces: North 5+1+4 = 10, South 2+6+4 = 12 -> South first.
    three = dataclasses.replace(MAKRUK, standings=StandingsSettings(team_boards=3))
    teams = {f"{t}{b}": (team, b) for t, team in (("n", "North"), ("s", "South")) for b in (1, 2, 3)}
    gs = games(mk(81, 1, "n1", "s1", "left", (5, 2)), mk(82, 1, "n2", "s2", "right", (1, 6), table=2),
               mk(83, 1, "n3", "s3", "draw", (4, 4), table=3))
    st = standings(gs, (), three, event=EV, teams=teams)
    assert table_of(st) == [("1", "South", "s1 / s2 / s3", 1, 0, 1, 0, 1, 3, 12),
                            ("2", "North", "n1 / n2 / n3", 1, 0, 1, 0, 1, 3, 10)]
    assert any(n.startswith("MR-11 defines teams of 2 boards; with 3 boards") for n in st.notes)
    # the same games with the default 2 boards: board 3 is out of range
    with pytest.raises(TeamsError, match=r"^team North: n3 is on board 3, but the rule file has team_boards = 2"):
        standings(gs, (), MAKRUK, event=EV, teams=teams)


def test_teams_as_bare_team_names() -> None:
    # player -> team (no boards): each team's players take boards 1, 2 in the mapping's order; the same table.
    names = {p: team for p, (team, _) in TEAMS.items()}
    st = standings(games(*T3), (), MAKRUK, event=EV, teams=names)
    assert [(r.place, r.player, r.values["Players"], r.values["MP"], r.values["GP"], r.values["Pieces"])
            for r in st.rows] == [("1", "North", "n1 / n2", 4, 7, 36), ("2", "East", "e1 / e2", 4, 7, 35),
                                  ("=3", "South", "s1 / s2", 2, 5, 24), ("=3", "West", "w1 / w2", 2, 5, 24)]
    with pytest.raises(TeamsError, match=r"^team North: n3 is on board 3, but the rule file has team_boards = 2"):
        standings(games(*T3), (), MAKRUK, event=EV, teams={**names, "n3": "North"})


def test_teams_mapping_with_a_board_twice() -> None:
    with pytest.raises(TeamsError, match=r"^team North: board 1 is both n1 and n2$"):
        standings(games(*T3), (), MAKRUK, event=EV, teams={**TEAMS, "n2": ("North", 1)})


# --- the teams file ---------------------------------------------------------------------------------------

def test_load_teams(tmp_path: Path) -> None:
    f = tmp_path / "teams.csv"
    f.write_text("\ufeff# campus teams\nPlayer,Team,Board,note\nn1,North,1,\n\n  n2 , North , 2 ,reserve\n"
                 "สมชาย  ใจดี,ขอนแก่น,1\n", encoding="utf-8")
    assert load_teams(f) == {"n1": ("North", 1), "n2": ("North", 2), "สมชาย ใจดี": ("ขอนแก่น", 1)}
    g = tmp_path / "thai.csv"
    g.write_bytes("board;team;player\n2;ขอนแก่น;สมหญิง\n".encode("cp874"))
    assert load_teams(g) == {"สมหญิง": ("ขอนแก่น", 2)}


@pytest.mark.parametrize(("text", "expected"), [
    ("player,team\nn1,North\n", "teams.csv:1: the header needs the columns player, team and board; board missing"),
    ("player,team,board,team\n", "teams.csv:1: column 'team' given twice"),
    ("player,team,board\nn1,North,first\n", "teams.csv:2: n1: board 'first' is not a whole number from 1"),
    ("player,team,board\nn1,North,0\n", "teams.csv:2: n1: board '0' is not a whole number from 1"),
    ("player,team,board\nn1,North,\n", "teams.csv:2: n1: no board"),
    ("player,team,board\n,North,1\n", "teams.csv:2: no player name"),
    ("player,team,board\nn1,,1\n", "teams.csv:2: n1: no team"),
    ("player,team,board\nn1,North,1\n# x\nn1,South,1\n", "teams.csv:4: n1 is listed twice (also line 2)"),
    ("player,team,board\nn1,North,1\nn2,North,1\n", "teams.csv:3: team North board 1 is both n1 (line 2) and n2"),
    ("player,team,board\n", "teams.csv: no players"),
    ("\n# nothing\n", "teams.csv: empty"),
])
def test_load_teams_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str) -> None:
    monkeypatch.chdir(tmp_path)
    Path("teams.csv").write_text(text, encoding="utf-8")
    with pytest.raises(TeamsError) as info:
        load_teams("teams.csv")
    message = str(info.value)
    assert "\n" not in message and message.startswith(expected), message


def test_load_teams_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TeamsError, match=r"^missing\.csv: cannot read"):
        load_teams("missing.csv")
    Path("bad.csv").write_bytes(b"player,team,board\nn1,North,1\n\xff\xfe,x,1\n")  # 0xff: neither UTF-8 nor cp874
    with pytest.raises(TeamsError, match=r"^bad\.csv:3: neither UTF-8 nor windows-874"):
        load_teams("bad.csv")


def test_load_teams_never_reads_latin1_as_thai(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 13 hole 5 (the teams file shares the pairing files' reading): Latin-1 "José" (0xE9) would be
    # "Jos้" as windows-874; it is refused at line 2, and /dev/zero is not read at all
    monkeypatch.chdir(tmp_path)
    Path("latin.csv").write_bytes(b"player,team,board\nJos\xe9,North,1\n")
    with pytest.raises(TeamsError, match=r"^latin\.csv:2: neither UTF-8 nor windows-874 \(Thai\): byte 0xe9 is "
                                         r"not UTF-8, and read as windows-874 the text is not Thai"):
        load_teams("latin.csv")
    with pytest.raises(TeamsError, match=r"^/dev/zero: not a regular file"):
        load_teams("/dev/zero")
