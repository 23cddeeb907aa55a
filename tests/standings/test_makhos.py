"""Makhos standings (MH-7, MH-8) for hand-built groups of 4-game matches. Every expected table below was
worked out by hand from the games listed beside it (the comments show the sums); none is copied from the
code's output."""
from __future__ import annotations

import json

from kit import bye, games, preset, rec

from gameclock.standings.boardgames import clock_time
from gameclock.standings.makhos import split_match, standings
from gameclock.standings.table import format_csv, format_json, format_table

EV = "makhos-u12"
MAKHOS = preset("makhos-move")
TEN = 600_000  # 10:00 in ms: each side's time used in a game unless said otherwise

_n = [0]


def match(rnd: int, a: str, b: str, results: str, *, game0: int = 1, times=None, stage="qualifying",
          event=EV, table=1) -> list[dict]:
    """Games of `a` v `b` in round `rnd`, results from a's view: W win, D draw, L loss, G a draw given by b
    (MH-8: b's loss), g a draw given by a. Colours alternate (a left in odd games). `times`: {game: (a, b)} ms."""
    out = []
    for i, r in enumerate(results):
        _n[0] += 1
        game = game0 + i
        a_left = game % 2 == 1
        left, right = (a, b) if a_left else (b, a)
        a_side, b_side = ("left", "right") if a_left else ("right", "left")
        winner = {"W": a_side, "L": b_side, "D": "draw", "G": a_side, "g": b_side}[r]
        giver = {"G": b_side, "g": a_side}.get(r)
        ta, tb = (times or {}).get(game, (TEN, TEN))
        t = (ta, tb) if a_left else (tb, ta)
        out.append(rec(f"clock1-{_n[0]:06}", event, rnd, table, left, right, winner, draw_loss=giver,
                       reason="draw-given" if giver else None, time_used=t, game=game, stage=stage,
                       preset="makhos-move", kind="makhos"))
    return out


def table_of(st) -> list[tuple]:
    return [(r.place, r.player, *(r.values[c] for c in st.columns)) for r in st.rows]


# --- a group of four, matches of 4 games (MH-7, seed 004 §3.9.1) --------------------------------------------
#
# round  match   games (first player's view)            game points   match points (3/1/0)
#   1    A v B   W W D L                                A 5 - 3 B     A 3, B 0
#   1    C v D   W W L D                                C 5 - 3 D     C 3, D 0
#   2    A v C   W W L D                                A 5 - 3 C     A 3, C 0
#   2    B v D   W W L D                                B 5 - 3 D     B 3, D 0
#   3    A v D   W L D G (D gave the draw: MH-8)        A 5 - 3 D     A 3, D 0   (without MH-8: 4-4, 1 each)
#   3    B v C   W L D D                                B 4 - 4 C     B 1, C 1
#
# MP: A 9, B 0+3+1 = 4, C 3+0+1 = 4, D 0.   GP: A 15, B 3+5+4 = 12, C 5+3+4 = 12, D 3+3+3 = 9 (48 = 6 x 8).
# Diff (games won - lost): A (2-1)+(2-1)+(2-1) = 3; B (1-2)+(2-1)+(1-1) = 0; C (2-1)+(1-2)+(1-1) = 0;
# D (1-2)+(1-2)+(1-2) = -3.
# B and C tie on MP, GP and Diff: they play the MH-7 tie-break, 4 more games at 20:00 (recorded as games 5-8
# of their round-3 match): B W L D D -> 4-4, still tied (TB 4 each). MH-7: the player who used less total
# time wins. Every side of every game used 10:00 except: game 8 of B v C, B 9:00; game 5 of B v C,
# C 10:00.25. B: 16 games, 16 x 10:00 - 1:00 = 159:00 = 9,540,000 ms; C: 16 x 10:00 + 0.25 s = 160:00.25
# = 9,600,250 ms -> B 2nd, C 3rd. A and D: 12 games x 10:00 = 120:00 = 7,200,000 ms.
GROUP = [
    *match(1, "A", "B", "WWDL"), *match(1, "C", "D", "WWLD", table=2),
    *match(2, "A", "C", "WWLD"), *match(2, "B", "D", "WWLD", table=2),
    *match(3, "A", "D", "WLDG"),
    *match(3, "B", "C", "WLDD", table=2),
]
TIEBREAK = match(3, "B", "C", "WLDD", game0=5, times={5: (TEN, TEN + 250), 8: (540_000, TEN)}, table=2)


def test_group_tie_broken_by_least_time_after_the_tiebreak_games() -> None:
    st = standings(games(*GROUP, *TIEBREAK), (), MAKHOS, event=EV)
    assert st.method == "makhos" and st.rules == ["MH-7", "MH-8"]
    assert st.columns == ["Matches", "MP", "GP", "Diff", "TB", "Time used"]
    assert table_of(st) == [
        # place, player, Matches, MP, GP, Diff, TB, Time used (ms)
        ("1", "A", 3, 9, 15, 3, None, 7_200_000),
        ("2", "B", 3, 4, 12, 0, 4, 9_540_000),   # MH-7: tie-break games 4-4; less total time used
        ("3", "C", 3, 4, 12, 0, 4, 9_600_250),
        ("4", "D", 3, 0, 9, -3, None, 7_200_000),
    ]
    assert "MH-7: B above C on less total time used (159:00 v 160:00.25)" in st.notes
    assert not any("games recorded" in n for n in st.notes)


def test_tiebreak_games_decide_before_the_time() -> None:
    # The same group, B v C's tie-break games won by C: C W W D D from C's view = B L L D D -> B 2, C 6.
    # MH-7 (seed 004 §3.9.1 ค.(3)): C above B, although B used less time (B's 9:00 in game 8 is kept).
    tb = match(3, "B", "C", "LLDD", game0=5, times={8: (540_000, TEN)}, table=2)
    st = standings(games(*GROUP, *tb), (), MAKHOS, event=EV)
    assert [(r.place, r.player, r.values["TB"], r.values["Time used"]) for r in st.rows] == [
        ("1", "A", None, 7_200_000), ("2", "C", 6, 9_600_000), ("3", "B", 2, 9_540_000), ("4", "D", None, 7_200_000)]
    assert not any("less total time" in n for n in st.notes)


def test_without_tiebreak_games_the_time_decides_after_diff() -> None:
    # No tie-break games recorded: B and C tie on MP 4, GP 12, Diff 0; their 12 games took 120:00 each,
    # except B's game 4 against C (round 3), where B used 8:30 -> B 118:30 (7,110,000 ms).
    group = [g for g in GROUP if not (g["round"] == 3 and "B" in g["players"].values())]
    bc = match(3, "B", "C", "WLDD", table=2, times={4: (510_000, TEN)})
    st = standings(games(*group, *bc), (), MAKHOS, event=EV)
    assert [(r.place, r.player, r.values["TB"], r.values["Time used"]) for r in st.rows] == [
        ("1", "A", None, 7_200_000), ("2", "B", None, 7_110_000), ("3", "C", None, 7_200_000),
        ("4", "D", None, 7_200_000)]
    assert "MH-7: B above C on less total time used (118:30 v 120:00)" in st.notes
    # equal times as well: a shared place (nothing else in MH-7 separates them)
    st = standings(games(*GROUP), (), MAKHOS, event=EV)
    assert [r.place for r in st.rows] == ["1", "=2", "=2", "4"]
    assert [r.player for r in st.rows[1:3]] == ["B", "C"]


def test_draw_given_counts_as_a_loss() -> None:
    # MH-8: in round 3 D gave the draw in game 4 of A v D: A 2, D 0 for that game.
    # A v D: W L D G -> A 2+0+1+2 = 5, D 0+2+1+0 = 3: A takes the match (3 MP), D none.
    # Were it a plain draw: 4-4, 1 MP each -> A 7 MP, GP 14; D 1 MP, GP 10.
    st = standings(games(*GROUP), (), MAKHOS, event=EV)
    assert (st.row("A").values["MP"], st.row("A").values["GP"]) == (9, 15)
    assert (st.row("D").values["MP"], st.row("D").values["GP"], st.row("D").values["Diff"]) == (0, 9, -3)
    plain = [dict(g, outcome="draw", draw_counts_as_loss_for=None, reason="agreement")
             if g["reason"] == "draw-given" else g for g in GROUP]
    st = standings(games(*plain), (), MAKHOS, event=EV)
    assert (st.row("A").values["MP"], st.row("A").values["GP"]) == (7, 14)
    assert (st.row("D").values["MP"], st.row("D").values["GP"], st.row("D").values["Diff"]) == (1, 10, -2)
    assert st.rules == ["MH-7"]
    # a record that kept the outcome "draw" but names the giver: still the giver's loss (Game.result_for)
    kept = [dict(g, outcome="draw") if g["reason"] == "draw-given" else g for g in GROUP]
    st = standings(games(*kept), (), MAKHOS, event=EV)
    assert (st.row("A").values["MP"], st.row("D").values["GP"]) == (9, 9)


def test_diff_equals_gp_minus_games_when_all_play_the_same_games() -> None:
    # By hand: GP = 2W + D = 2W + (N - W - L) = N + (W - L). With 2/1/0 points and the same number of games N,
    # equal GP means equal Diff: game difference (MH-7) can only separate players who played different numbers
    # of games (byes, an unfinished match). Checked on the group above, N = 12 for everyone.
    st = standings(games(*GROUP), (), MAKHOS, event=EV)
    assert {r.player: r.values["GP"] - r.values["Diff"] for r in st.rows} == {"A": 12, "B": 12, "C": 12, "D": 12}


# --- game difference decides (MH-7, seed 004 §3.9.1 ค.(2): games won - lost) --------------------------------
#
# A group of five, a bye each round; the standings after round 2:
# round  match   games            game points   match points
#   1    V v W   W W D D          V 6 - 2 W     V 3, W 0        Z bye
#   1    X v Y   W L D D          X 4 - 4 Y     X 1, Y 1
#   2    V v X   L L D D          V 2 - 6 X     V 0, X 3        Y bye
#   2    Z v W   W W W W          Z 8 - 0 W     Z 3, W 0
#
# X: MP 4, GP 10 (8 games, Diff (1-1) + (2-0) = 2).
# V: MP 3, GP 8, Diff (2-0) + (0-2) = 0 over 8 games;  Z: MP 3, GP 8, Diff 4-0 = 4 over 4 games
#   -> Z above V on game difference.
# Y: MP 1, GP 4, Diff 0.   W: MP 0, GP 2, Diff (0-2) + (0-4) = -6.
FIVE = [*match(1, "V", "W", "WWDD"), *match(1, "X", "Y", "WLDD", table=2),
        *match(2, "V", "X", "LLDD"), *match(2, "Z", "W", "WWWW", table=2)]


def test_game_difference_decides() -> None:
    st = standings(games(*FIVE), [bye(EV, 1, "Z"), bye(EV, 2, "Y")], MAKHOS, event=EV)
    assert [(r.place, r.player, r.values["Matches"], r.values["MP"], r.values["GP"], r.values["Diff"])
            for r in st.rows] == [
        ("1", "X", 2, 4, 10, 2),
        ("2", "Z", 1, 3, 8, 4),    # MH-7: MP and GP equal with V; more games won than lost
        ("3", "V", 2, 3, 8, 0),
        ("4", "Y", 1, 1, 4, 0),
        ("5", "W", 2, 0, 2, -6),
    ]
    assert "byes score nothing (MH-7)" in st.notes


def test_printed_forms_time_as_minutes_in_the_table_ms_elsewhere() -> None:
    st = standings(games(*GROUP, *TIEBREAK), (), MAKHOS, event=EV)
    lines = format_table(st).splitlines()
    assert lines[0] == "makhos-u12: makhos standings (MH-7, MH-8)"
    assert lines[1].split() == ["Place", "Player", "Matches", "MP", "GP", "Diff", "TB", "Time", "used"]
    assert lines[3].split() == ["2", "B", "3", "4", "12", "0", "4", "159:00"]
    assert lines[4].split() == ["3", "C", "3", "4", "12", "0", "4", "160:00.25"]
    assert lines[5].split() == ["4", "D", "3", "0", "9", "-3", "120:00"]
    assert format_csv(st).splitlines()[2] == "makhos-u12,2,B,,3,4,12,0,4,9540000"
    assert json.loads(format_json(st))["rows"][2]["Time used"] == 9_600_250


def test_clock_time() -> None:
    assert [clock_time(ms) for ms in (0, 59_999, 60_000, 9_540_000, 9_600_250, 1_000, -61_500, None)] == [
        "0:00", "0:59.999", "1:00", "159:00", "160:00.25", "0:01", "-1:01.5", ""]


def test_tiebreak_games_are_the_ones_after_the_match() -> None:
    # By game number: games 5-8 follow a 4-game match; numbered 1-4 again, the end time puts them after.
    gs = games(*match(1, "A", "B", "WWWW"), *match(1, "A", "B", "LLLL", game0=5))
    m, extra = split_match(gs, 4)
    assert [g.game for g in m] == [1, 2, 3, 4] and [g.game for g in extra] == [5, 6, 7, 8]
    regular = match(1, "A", "B", "WWWW")
    again = match(1, "A", "B", "LLLL")
    for i, r in enumerate(regular):
        r["ended"] = f"2024-08-27T0{i + 1}:00:00.000Z"
    for i, r in enumerate(again):
        r["ended"] = f"2024-08-27T1{i + 1}:00:00.000Z"
    m, extra = split_match(games(*again, *regular), 4)
    assert all(g.result_for("A") == "win" for g in m) and all(g.result_for("A") == "loss" for g in extra)


def test_match_games_from_the_rule_file_and_unfinished_matches() -> None:
    # makhos-move-2x5 (seed 003): matches of 2 games. A v B: W L, then 2 more games W W are tie-break games:
    # the match is 2-2 (1 MP each), TB A 4, B 0 -> A first.
    st = standings(games(*match(1, "A", "B", "WLWW")), (), preset("makhos-move-2x5"), event=EV)
    assert [(r.player, r.values["MP"], r.values["GP"], r.values["TB"]) for r in st.rows] == [
        ("A", 1, 2, 4), ("B", 1, 2, 0)]
    # with the 4-game default the same 4 games are one match: A 6 - 2 B
    st = standings(games(*match(1, "A", "B", "WLWW")), (), MAKHOS, event=EV)
    assert [(r.player, r.values["MP"], r.values["GP"], r.values["TB"]) for r in st.rows] == [
        ("A", 3, 6, None), ("B", 0, 2, None)]
    st = standings(games(*match(1, "A", "B", "WLW")), (), MAKHOS, event=EV)
    assert "MH-7: round 1: A v B: 3 of 4 games recorded" in st.notes


def test_knockout_noted_not_ranked() -> None:
    # MH-8 (seed 004 §3.9.2), stage final, 6 games:
    #   round 4 A v B: W L D D W L -> 2+0+1+1+2+0 = 6 - 6: tied -> 4 more games giving the draw, ...
    #   round 4 C v D: W W D D L D -> 2+2+1+1+0+1 = 7 - 5: C goes through
    ko = [*match(4, "A", "B", "WLDDWL", stage="final"), *match(4, "C", "D", "WWDDLD", stage="final", table=2)]
    st = standings(games(*GROUP, *ko), (), MAKHOS, event=EV)
    assert [r.player for r in st.rows] == ["A", "B", "C", "D"]
    assert st.row("A").values["Matches"] == 3  # the knockout is not in the table
    assert st.rules == ["MH-7", "MH-8"]
    assert any(n.startswith("knockout round 4: A 6-6 B (6 game(s)): tied; MH-8: 4 more games taking turns "
                            "giving the draw") and "time used 60:00 v 60:00" in n for n in st.notes)
    assert "knockout round 4: C 7-5 D (6 game(s)): C goes through" in st.notes
    # 14 games still tied (6 + 4 + 4): MH-8, less total time used goes through. B used 9:00 in the last game:
    # A 14 x 10:00 = 140:00, B 139:00.
    long = match(5, "A", "B", "WL" * 7, stage="final", times={14: (TEN, 540_000)})
    st = standings(games(*long), (), MAKHOS, event=EV)
    assert "knockout round 5: A 14-14 B (14 game(s)): tied after 14 games; MH-8: less total time used goes " \
           "through: B (140:00 v 139:00)" in st.notes


def test_teams_are_not_used() -> None:
    st = standings(games(*GROUP), (), MAKHOS, event=EV, teams={"A": ("x", 1)})
    assert "teams are not used: Makhos events are individual (seed 004 §2)" in st.notes
