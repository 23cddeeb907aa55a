"""Makhos standings (MH-7, MH-8) for hand-built groups of 4-game matches. Every expected table below was
worked out by hand from the games listed beside it (the comments show the sums); none is copied from the
code's output."""
from __future__ import annotations

import json
from dataclasses import replace

from kit import bye, games, preset, rec

from gameclock.organiser.standings.boardgames import clock_time
from gameclock.organiser.standings.makhos import split_match, standings
from gameclock.organiser.standings.table import format_csv, format_json, format_table

EV = "makhos-u12"
MAKHOS = preset("makhos-move")
TEN = 600_000  # 10:00 in ms: each side's time used in a game unless said otherwise
DEFAULT_ORDER = "match_points, game_points, game_difference, tiebreak_points, tiebreak_time"  # MH-7 decision

_n = [0]


def match(rnd: int, a: str, b: str, results: str, *, game0: int = 1, times=None, stage="qualifying",
          event=EV, table=1, tiebreak: int | None = None) -> list[dict]:
    """Games of `a` v `b` in round `rnd`, results from a's view: W win, D draw, L loss, G a draw given by b
    (MH-8: b's loss), g a draw given by a. Colours alternate (a left in odd games). `times`: {game: (a, b)} ms.
    `tiebreak`: None, no `tiebreak` field (older records); 0, games of the match; K >= 1, the K-th, K+1-th ...
    extra games after a tied match (MH-4)."""
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
        if tiebreak is not None:
            out[-1]["tiebreak"] = tiebreak + i if tiebreak else 0
    return out


def table_of(st) -> list[tuple]:
    return [(r.place, r.player, *(r.values[c] for c in st.columns)) for r in st.rows]


def with_order(*methods: str):
    """makhos-move with `[standings] tiebreaks = [methods]` (MH-7: the rule file may reorder or drop them)."""
    return replace(MAKHOS, standings=replace(MAKHOS.standings, tiebreaks=methods))


def all_games_time(records: list[dict], player: str) -> int:
    """The time `player` used over every game of `records` (what the first edition ranked by)."""
    return sum(r["sides"][s]["time_used_ms"] for r in records for s in ("left", "right")
               if r["players"][s] == player)


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
# Every side of every game used 10:00, except B 12:00 in game 1 of A v B (round 1).
GROUP = [
    *match(1, "A", "B", "WWDL", times={1: (TEN, 720_000)}), *match(1, "C", "D", "WWLD", table=2),
    *match(2, "A", "C", "WWLD"), *match(2, "B", "D", "WWLD", table=2),
    *match(3, "A", "D", "WLDG"),
    *match(3, "B", "C", "WLDD", table=2),
]
# B and C tie on MP, GP and Diff: they play MH-7's tie-break, 4 more games at 20:00 (seed 004 §3.9.1 ค.(3)),
# recorded by an older clock (no `tiebreak` field) as games 5-8 of their round-3 match: B W L D D -> 4-4,
# still tied (TB 4 each). Times in them: 10:00 each side, except game 5 C 10:00.25 and game 8 B 9:00.
# Time in the tie-break games: B 3 x 10:00 + 9:00 = 39:00 = 2,340,000 ms; C 10:00.25 + 3 x 10:00 = 40:00.25
# = 2,400,250 ms. Over all their games B used 4 x 10:00 + 2:00 (round 1) + 8 x 10:00 + 39:00 = 161:00 =
# 9,660,000 ms and C 12 x 10:00 + 40:00.25 = 160:00.25 = 9,600,250 ms: all games would rank C above B.
TIEBREAK = match(3, "B", "C", "WLDD", game0=5, times={5: (TEN, TEN + 250), 8: (540_000, TEN)}, table=2)


def test_group_tie_broken_by_less_time_in_the_tiebreak_games() -> None:
    # MH-7, seed 004 §3.9.1 ค.(3): "when the 4 games are played and still tied, the player who used less time
    # wins": the time in those 4 games (second edition), not over all games.
    assert (all_games_time(GROUP + TIEBREAK, "B"), all_games_time(GROUP + TIEBREAK, "C")) == (9_660_000, 9_600_250)
    st = standings(games(*GROUP, *TIEBREAK), (), MAKHOS, event=EV)
    assert st.method == "makhos" and st.rules == ["MH-7", "MH-8"]
    assert st.columns == ["Matches", "MP", "GP", "Diff", "TB", "TB time"]
    assert table_of(st) == [
        # place, player, Matches, MP, GP, Diff, TB, TB time (ms)
        ("1", "A", 3, 9, 15, 3, None, None),      # no tie-break games: no time figure
        ("2", "B", 3, 4, 12, 0, 4, 2_340_000),    # MH-7: tie-break games 4-4; less time in them
        ("3", "C", 3, 4, 12, 0, 4, 2_400_250),
        ("4", "D", 3, 0, 9, -3, None, None),
    ]
    # places 1 and 3 are decided by match points, the first method: no note
    assert st.notes == ["MH-7: place 2: B above C on less time used in the tie-break games (39:00 v 40:00.25)"]


def test_tiebreak_games_decide_before_the_time() -> None:
    # The same group, B v C's tie-break games won by C: C W W D D from C's view = B L L D D -> B 0+0+1+1 = 2,
    # C 2+2+1+1 = 6. MH-7 (seed 004 §3.9.1 ค.(3)): C above B, although B used less time in them (B's 9:00 in
    # game 8: B 39:00, C 40:00).
    tb = match(3, "B", "C", "LLDD", game0=5, times={8: (540_000, TEN)}, table=2)
    st = standings(games(*GROUP, *tb), (), MAKHOS, event=EV)
    assert [(r.place, r.player, r.values["TB"], r.values["TB time"]) for r in st.rows] == [
        ("1", "A", None, None), ("2", "C", 6, 2_400_000), ("3", "B", 2, 2_340_000), ("4", "D", None, None)]
    assert st.notes == ["MH-7: place 2: C above B on the tie-break games' points (6 v 2)"]


def test_without_tiebreak_games_the_time_cannot_separate() -> None:
    # No tie-break games recorded: B and C tie on MP 4, GP 12, Diff 0. B used 8:30 in game 4 against C (round 3)
    # and C 10:00 in all, but MH-7 counts only the time in the tie-break games: neither has any, so nothing
    # separates them: a shared 2nd place, for the committee (seed 004 §3.9.1 ค.(4)).
    group = [g for g in GROUP if not (g["round"] == 3 and "B" in g["players"].values())]
    bc = match(3, "B", "C", "WLDD", table=2, times={4: (510_000, TEN)})
    for st in (standings(games(*group, *bc), (), MAKHOS, event=EV), standings(games(*GROUP), (), MAKHOS, event=EV)):
        assert [(r.place, r.player, r.values["TB"], r.values["TB time"]) for r in st.rows] == [
            ("1", "A", None, None), ("=2", "B", None, None), ("=2", "C", None, None), ("4", "D", None, None)]
        assert st.notes == [f"MH-7: place =2 shared by B, C: not separated by {DEFAULT_ORDER}; the committee "
                            "decides (seed 004 §3.9.1 ค.)"]


def test_dropping_tiebreak_time_leaves_a_shared_place() -> None:
    # MH-7, seed 004 §3.9.1 ค.(3): the rule file drops the time: B and C, 4-4 in the tie-break games (TB 4
    # each), stay level although B used 39:00 in them and C 40:00.25 (first test): a shared 2nd place. A 1st
    # and D 4th on match points.
    st = standings(games(*GROUP, *TIEBREAK), (), with_order("match_points", "game_points", "game_difference",
                                                             "tiebreak_points"), event=EV)
    assert [(r.place, r.player, r.values["TB"], r.values["TB time"]) for r in st.rows] == [
        ("1", "A", None, None), ("=2", "B", 4, 2_340_000), ("=2", "C", 4, 2_400_250), ("4", "D", None, None)]
    assert st.notes == ["MH-7: place =2 shared by B, C: not separated by match_points, game_points, game_difference, "
                        "tiebreak_points; the committee decides (seed 004 §3.9.1 ค.)"]
    # the time alone after match points (game points, difference and the tie-break points dropped): B above C
    st = standings(games(*GROUP, *TIEBREAK), (), with_order("match_points", "tiebreak_time"), event=EV)
    assert [r.place + r.player for r in st.rows] == ["1A", "2B", "3C", "4D"]
    assert st.notes == ["MH-7: place 2: B above C on less time used in the tie-break games (39:00 v 40:00.25)"]


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
    # place 2 is decided by the game difference, a method after the first: a note (MH-7)
    assert st.notes == ["MH-7: place 2: Z above V on game difference (4 v 0)", "byes score nothing (MH-7)"]


def test_printed_forms_time_as_minutes_in_the_table_ms_elsewhere() -> None:
    # the first test's table: TB time B 39:00 (2,340,000 ms), C 40:00.25 (2,400,250 ms), A and D none (empty)
    st = standings(games(*GROUP, *TIEBREAK), (), MAKHOS, event=EV)
    lines = format_table(st).splitlines()
    assert lines[0] == "makhos-u12: makhos standings (MH-7, MH-8)"
    assert lines[1].split() == ["Place", "Player", "Matches", "MP", "GP", "Diff", "TB", "TB", "time"]
    assert lines[2].split() == ["1", "A", "3", "9", "15", "3"]
    assert lines[3].split() == ["2", "B", "3", "4", "12", "0", "4", "39:00"]
    assert lines[4].split() == ["3", "C", "3", "4", "12", "0", "4", "40:00.25"]
    assert lines[5].split() == ["4", "D", "3", "0", "9", "-3"]
    csv_lines = format_csv(st).splitlines()
    assert csv_lines[1] == '"makhos-u12",1,"A",,3,9,15,3,,'    # text quoted (csvcells.py), numbers not
    assert csv_lines[2] == '"makhos-u12",2,"B",,3,4,12,0,4,2340000'
    rows = json.loads(format_json(st))["rows"]
    assert (rows[0]["TB time"], rows[2]["TB time"]) == (None, 2_400_250)


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
    assert any(n.startswith("knockout round 4: A 6-6 B (6 game(s)): not decided yet; game 7 next (6 games; tied: "
                            "4 games taking turns giving the draw") for n in st.notes)
    assert "knockout round 4: C 7-5 D (6 game(s)): C goes through" in st.notes
    # 5 games won are not the match: MH-8 plays 6 (issue 25: the note said "goes through" before)
    st = standings(games(*match(4, "C", "D", "WWWWW", stage="final")), (), MAKHOS, event=EV)
    assert any(n.startswith("knockout round 4: C 10-0 D (5 game(s)): not decided yet; game 6 next") for n in st.notes)
    # 14 games still tied (6 + 4 + 4): MH-8, less total time used goes through. B used 9:00 in the last game:
    # A 14 x 10:00 = 140:00, B 139:00.
    long = match(5, "A", "B", "WL" * 7, stage="final", times={14: (TEN, 540_000)})
    st = standings(games(*long), (), MAKHOS, event=EV)
    assert "knockout round 5: A 14-14 B (14 game(s)): B goes through (time: tied A 14-14 B after 14 games; total " \
           "time used A 140:00, B 139:00 (MH-8: less total time used))" in st.notes


def test_teams_are_not_used() -> None:
    st = standings(games(*GROUP), (), MAKHOS, event=EV, teams={"A": ("x", 1)})
    assert "teams are not used: Makhos events are individual (seed 004 §2)" in st.notes


# --- the order of the methods is the rule file's (MH-7 decision; seed 004 §3.9.1 ค. "เช่น", for example) ---------
#
# A group of five, a bye each round; the standings after round 2:
# round  match   games (first player's view)   game points   match points   games won-lost
#   1    P v R   W D D D                       P 5 - 3 R     P 3, R 0       P 1-0, R 0-1      T bye
#   1    Q v S   W W W L                       Q 6 - 2 S     Q 3, S 0       Q 3-1, S 1-3
#   2    P v T   L D D D                       P 3 - 5 T     P 0, T 3       P 0-1, T 1-0      Q bye
#   2    R v S   D D D D                       R 4 - 4 S     R 1, S 1       0-0 each
#
# P: MP 3, GP 5+3 = 8, Diff (1-0)+(0-1) = 0.   Q: MP 3, GP 6, Diff 3-1 = 2.   T: MP 3, GP 5, Diff 1-0 = 1.
# R: MP 0+1 = 1, GP 3+4 = 7, Diff -1+0 = -1.   S: MP 0+1 = 1, GP 2+4 = 6, Diff -2+0 = -2.
# Default order (match points, game points, game difference, ...): P 1st (GP 8), Q 2nd (GP 6), T 3rd (GP 5);
#   R 4th (GP 7), S 5th (GP 6).
# ["match_points", "game_difference", "game_points"]: Q 1st (Diff 2), T 2nd (Diff 1), P 3rd (Diff 0);
#   R 4th (Diff -1), S 5th (Diff -2). P falls from 1st to 3rd.
ORDERED = [*match(1, "P", "R", "WDDD"), *match(1, "Q", "S", "WWWL", table=2),
           *match(2, "P", "T", "LDDD"), *match(2, "R", "S", "DDDD", table=2)]
ORDERED_BYES = [bye(EV, 1, "T"), bye(EV, 2, "Q")]


def test_the_rule_files_order_changes_the_ranking(tmp_path) -> None:
    st = standings(games(*ORDERED), ORDERED_BYES, MAKHOS, event=EV)
    assert [(r.place, r.player, r.values["Matches"], r.values["MP"], r.values["GP"], r.values["Diff"])
            for r in st.rows] == [
        ("1", "P", 2, 3, 8, 0), ("2", "Q", 1, 3, 6, 2), ("3", "T", 1, 3, 5, 1),
        ("4", "R", 2, 1, 7, -1), ("5", "S", 2, 1, 6, -2)]
    # T above R on match points (3 v 1), the first method: no note
    assert st.notes == ["MH-7: place 1: P above Q on game points (8 v 6)",
                        "MH-7: place 2: Q above T on game points (6 v 5)",
                        "MH-7: place 4: R above S on game points (7 v 6)",
                        "byes score nothing (MH-7)"]
    # the same order written in a rule file (makhos-move with its tiebreaks line changed)
    text = (MAKHOS.path).read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("tiebreaks = "))
    (tmp_path / "makhos-move.toml").write_text(
        text.replace(line, 'tiebreaks = ["match_points", "game_difference", "game_points"]  # MH-7'), encoding="utf-8")
    custom = preset_from(tmp_path)
    assert custom.standings.tiebreaks == ("match_points", "game_difference", "game_points")
    st = standings(games(*ORDERED), ORDERED_BYES, custom, event=EV)
    assert [(r.place, r.player, r.values["Diff"]) for r in st.rows] == [
        ("1", "Q", 2), ("2", "T", 1), ("3", "P", 0), ("4", "R", -1), ("5", "S", -2)]
    assert st.notes == ["MH-7: place 1: Q above T on game difference (2 v 1)",
                        "MH-7: place 2: T above P on game difference (1 v 0)",
                        "MH-7: place 4: R above S on game difference (-1 v -2)",
                        "byes score nothing (MH-7)"]
    # match points alone: P, Q, T share 1st (MP 3), R and S 4th (MP 1)
    st = standings(games(*ORDERED), ORDERED_BYES, with_order("match_points"), event=EV)
    assert [r.place + r.player for r in st.rows] == ["=1P", "=1Q", "=1T", "=4R", "=4S"]


def preset_from(folder):
    from gameclock.rules.loader import find_preset

    return find_preset("makhos-move", folder)


# --- the records' `tiebreak` field (MH-4: 0 a game of the match, K >= 1 the K-th extra game; MH-7) --------------
#
# MH-7, seed 004 §3.9.1 ค.(3): the tie-break games of B v C (TIEBREAK above: B W L D D, TB 4 each; B 39:00,
# C 40:00.25 in them) recorded by a clock that writes `tiebreak`. Whatever their game numbers or round, the
# standings are the first test's.
TIED_BY_TIME = [("1", "A", 3, 9, 15, 3, None, None), ("2", "B", 3, 4, 12, 0, 4, 2_340_000),
                ("3", "C", 3, 4, 12, 0, 4, 2_400_250), ("4", "D", 3, 0, 9, -3, None, None)]
TB_NOTE = "MH-7: place 2: B above C on less time used in the tie-break games (39:00 v 40:00.25)"


def test_tiebreak_field_marks_the_tiebreak_games() -> None:
    # (1) numbered 1-4 again, tiebreak 1-4, in round 3 with B v C's match, whose records (like all of GROUP's)
    # have no field: one pairing of both kinds. Game 1 C 10:00.25, game 4 B 9:00: B 39:00, C 40:00.25.
    again = match(3, "B", "C", "WLDD", times={1: (TEN, TEN + 250), 4: (540_000, TEN)}, table=2, tiebreak=1)
    assert [r["tiebreak"] for r in again] == [1, 2, 3, 4] and [r["game"] for r in again] == [1, 2, 3, 4]
    # (2) the organiser paired them as a round of their own (round 4): no 4th match (Matches 3; MP, GP, Diff
    # unchanged) and no "0 of 4 games recorded"
    later = match(4, "B", "C", "WLDD", times={1: (TEN, TEN + 250), 4: (540_000, TEN)}, tiebreak=1)
    # (3) B v C's match games say tiebreak 0 (the other pairings' records have no field), the extra games 5-8
    # say 1-4
    bc = [g for g in GROUP if g["round"] == 3 and "B" in g["players"].values()]
    said = [dict(g, tiebreak=0) for g in bc]
    extra = [dict(g, tiebreak=g["game"] - 4) for g in TIEBREAK]
    rest = [g for g in GROUP if g not in bc]
    for records in (GROUP + again, GROUP + again[::-1], GROUP + later, rest + said + extra):
        st = standings(games(*records), (), MAKHOS, event=EV)
        assert table_of(st) == TIED_BY_TIME
        assert st.notes == [TB_NOTE]


def test_tiebreak_field_over_game_numbers_and_end_times() -> None:
    # A v B, round 1: 4 match games W W W W (tiebreak 0) and 4 extra games L L L L (tiebreak 1-4) numbered 1-4
    # again with earlier end times: the field decides, not the order (without it the end times would put the
    # extra games first).
    regular = match(1, "A", "B", "WWWW", tiebreak=0)
    extra = match(1, "A", "B", "LLLL", tiebreak=1)
    for i, r in enumerate(regular):
        r["ended"] = f"2024-08-27T1{i + 1}:00:00.000Z"
    for i, r in enumerate(extra):
        r["ended"] = f"2024-08-27T0{i + 1}:00:00.000Z"
    m, tb = split_match(games(*extra, *regular), 4)
    assert all(g.result_for("A") == "win" for g in m) and all(g.result_for("A") == "loss" for g in tb)
    assert [g.tiebreak for g in tb] == [1, 2, 3, 4]
    m, tb = split_match(games(*[{k: v for k, v in r.items() if k != "tiebreak"} for r in extra + regular]), 4)
    assert all(g.result_for("A") == "loss" for g in m) and all(g.result_for("A") == "win" for g in tb)
    # A: match 8 - 0 (3 MP, Diff 4), tie-break games 0 - 8: they change neither MP, GP nor Diff
    st = standings(games(*regular, *extra), (), MAKHOS, event=EV)
    assert table_of(st) == [("1", "A", 1, 3, 8, 4, 0, 4 * TEN), ("2", "B", 1, 0, 0, -4, 8, 4 * TEN)]
    # a 5th game saying tiebreak 0 is a game of the match: A W W W W L -> 8 - 2, Diff 4 - 1 = 3, and a note;
    # without the field it would be a tie-break game (A TB 0, B TB 2)
    five = match(2, "A", "B", "WWWWL", tiebreak=0)
    st = standings(games(*five), (), MAKHOS, event=EV)
    assert table_of(st) == [("1", "A", 1, 3, 8, 3, None, None), ("2", "B", 1, 0, 2, -3, None, None)]
    assert st.notes == ["MH-7: round 2: A v B: 5 games of the match recorded (matches of 4): all are counted"]
    st = standings(games(*[{k: v for k, v in r.items() if k != "tiebreak"} for r in five]), (), MAKHOS, event=EV)
    assert [(r.player, r.values["GP"], r.values["TB"]) for r in st.rows] == [("A", 8, 0), ("B", 0, 2)]


def test_game_tiebreak_is_read_from_the_record() -> None:
    r = match(1, "A", "B", "W")[0]
    assert games(r)[0].tiebreak is None                         # no field
    assert games(dict(r, tiebreak=0))[0].tiebreak == 0
    assert games(dict(r, tiebreak=3))[0].tiebreak == 3


# --- the tie-break methods compare only players who all played tie-break games (MH-7, seed 004 §3.9.1 ค.(3)) ------
#
# Three players, a bye each round, every match W L D D from the first player's view: 4 - 4, 1 MP each.
# round 1 X v Y (Z bye), round 2 Y v Z (X bye), round 3 Z v X (Y bye): each 2 matches, MP 2, GP 8, Diff 0.
# X and Y then play 4 tie-break games (round 3, tiebreak 1-4): X W D D D -> X 5, Y 3; 10:00 each in every game.
# Z played none: neither the tie-break points nor the time can place Z against X and Y -> all three share 1st.
def test_a_player_without_tiebreak_games_is_not_compared_on_them() -> None:
    records = [*match(1, "X", "Y", "WLDD"), *match(2, "Y", "Z", "WLDD"), *match(3, "Z", "X", "WLDD"),
               *match(3, "X", "Y", "WDDD", table=2, tiebreak=1)]
    byes = [bye(EV, 1, "Z"), bye(EV, 2, "X"), bye(EV, 3, "Y")]
    st = standings(games(*records), byes, MAKHOS, event=EV)
    assert table_of(st) == [("=1", "X", 2, 2, 8, 0, 5, 4 * TEN), ("=1", "Y", 2, 2, 8, 0, 3, 4 * TEN),
                            ("=1", "Z", 2, 2, 8, 0, None, None)]
    assert st.notes == [
        "MH-7: X, Y, Z are level before tiebreak_points, which cannot separate them: Z played no tie-break games",
        "MH-7: X, Y, Z are level before tiebreak_time, which cannot separate them: Z played no tie-break games",
        f"MH-7: place =1 shared by X, Y, Z: not separated by {DEFAULT_ORDER}; the committee decides "
        "(seed 004 §3.9.1 ค.)",
        "byes score nothing (MH-7)"]
    # X v Y's match and their tie-break games alone: both MP 1, GP 4, Diff 0; X's tie-break points (5 v 3)
    # put X above Y
    st = standings(games(*records[:4], *records[12:]), (), MAKHOS, event=EV)
    assert [(r.place, r.player, r.values["TB"]) for r in st.rows] == [("1", "X", 5), ("2", "Y", 3)]
    assert st.notes == ["MH-7: place 1: X above Y on the tie-break games' points (5 v 3)"]
