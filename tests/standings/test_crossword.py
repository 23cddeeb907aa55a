"""Crossword family standings (gameclock.organiser.standings.crossword) of hand-built tournaments: every expected
table below is worked out by hand in the comments from the rules (XW-6 game points, XW-7 ranking, XW-8
caps as the clock's record carries them, XW-9 byes, XW-10 final stage, XW-11 medal score)."""
from __future__ import annotations

import pytest
from kit import bye, games, preset, rec, xw

from gameclock.organiser.standings import compute
from gameclock.organiser.standings.crossword import medal, medal_score, standings
from gameclock.organiser.standings.table import format_table
from gameclock.rules.loader import load_preset


def table(st) -> list[tuple]:
    """(place, player, Games, W, D, L, Byes, GP, Spread, Medal score, Medal) per row."""
    return [(r.place, r.player, *(r.values[c] for c in st.columns)) for r in st.rows]


# --- a 5-player event over 3 rounds, one bye a round (secondary: cap 250, last game 200, bye +100) -----
#
# round 1: t1 Anan 420 v Boon 380  -> Anan +40, Boon -40
#          t2 Chai 300 v Dao 600   -> Dao +300 cut to +250 (XW-8), Chai -250
#          bye Eak                 -> a win, +100 (XW-9)
# round 2: t1 Dao 400 v Anan 400   -> drawn, 0 each (XW-6: 1 GP each)
#          t2 Eak 390 v Boon 410   -> Boon +20, Eak -20
#          bye Chai                -> a win, +100
# round 3 (the last qualifying game: cap 200):
#          t1 Anan 500 v Eak 250   -> Anan +250 cut to +200, Eak -200
#          t2 Boon 330 v Chai 360  -> Chai +30, Boon -30
#          bye Dao                 -> a win, +100
EVENT5 = [
    xw(1, "3", 1, 1, "Anan", "Boon", 420, 380),
    xw(2, "3", 1, 2, "Chai", "Dao", 300, 600),
    xw(3, "3", 2, 1, "Dao", "Anan", 400, 400),
    xw(4, "3", 2, 2, "Eak", "Boon", 390, 410),
    xw(5, "3", 3, 1, "Anan", "Eak", 500, 250, cap=200, stage="last"),
    xw(6, "3", 3, 2, "Boon", "Chai", 330, 360, cap=200, stage="last"),
]
BYES5 = [bye("3", 1, "Eak"), bye("3", 2, "Chai"), bye("3", 3, "Dao")]


def test_five_players_three_rounds_with_byes():
    st = standings(games(*EVENT5), BYES5, preset("crossword"))
    assert (st.event, st.method) == ("3", "crossword")
    assert st.columns == ["Games", "W", "D", "L", "Byes", "GP", "Spread", "Medal score", "Medal"]
    # Dao:  W +250, D 0, bye +100     -> 2W 1D 0L, GP 2+1+2 = 5, spread +350
    # Anan: W +40,  D 0, W +200       -> 2W 1D 0L, GP 5, spread +240
    # Chai: L -250, bye +100, W +30   -> 2W 0D 1L, GP 4, spread -120
    # Boon: L -40,  W +20,  L -30     -> 1W 0D 2L, GP 2, spread -50
    # Eak:  bye +100, L -20, L -200   -> 1W 0D 2L, GP 2, spread -120
    # XW-7: GP first, then spread: Dao (5, +350) before Anan (5, +240); Boon (2, -50) before Eak (2, -120).
    # XW-11 (a bye is a win): Dao 2 wins 50 + 1 draw 5 + 3 (full hundreds of 350) = 58, certificate;
    # Anan 50 + 5 + 2 = 57; Chai 50 + 0 - 1 (-120: one full hundred) = 49; Boon 40 + 0 (-50: no full
    # hundred) = 40; Eak 40 - 1 = 39. All below 60: certificates.
    assert table(st) == [
        ("1", "Dao", 3, 2, 1, 0, 1, 5, 350, 58, "certificate"),
        ("2", "Anan", 3, 2, 1, 0, 0, 5, 240, 57, "certificate"),
        ("3", "Chai", 3, 2, 0, 1, 1, 4, -120, 49, "certificate"),
        ("4", "Boon", 3, 1, 0, 2, 0, 2, -50, 40, "certificate"),
        ("5", "Eak", 3, 1, 0, 2, 1, 2, -120, 39, "certificate"),
    ]
    # three of the six qualifying games (XW-10) played: every medal is provisional (issue 25)
    assert all(r.provisional == {"Medal"} for r in st.rows)
    # XW-11: the four who go on to the final stage get their medal from the committee
    assert st.notes == ["XW-11: a medal is provisional until the player's 6 qualifying games are played (XW-10)",
                        "XW-11: the medal level of the four who go on to the final and the game for third "
                        "(qualifying places 1-4: Dao, Anan, Chai, Boon) is the committee's decision"]


def test_standings_after_round_2():
    st = compute(games(*EVENT5), BYES5, preset("crossword"), round=2)
    # round 3 left out (its two games and Dao's bye):
    # Dao:  W +250, D         -> GP 3, +250
    # Anan: W +40, D          -> GP 3, +40
    # Eak:  bye +100, L -20   -> GP 2, +80
    # Boon: L -40, W +20      -> GP 2, -20
    # Chai: L -250, bye +100  -> GP 2, -150
    # XW-11: Dao 1 win 40 + 5 + 2 = 47; Anan 40 + 5 + 0 = 45; Eak 40 + 0 = 40; Boon 40 + 0 (-20) = 40;
    # Chai 40 - 1 (-150 cut toward zero is -1, not -2) = 39.
    assert table(st) == [
        ("1", "Dao", 2, 1, 1, 0, 0, 3, 250, 47, "certificate"),
        ("2", "Anan", 2, 1, 1, 0, 0, 3, 40, 45, "certificate"),
        ("3", "Eak", 2, 1, 0, 1, 1, 2, 80, 40, "certificate"),
        ("4", "Boon", 2, 1, 0, 1, 0, 2, -20, 40, "certificate"),
        ("5", "Chai", 2, 1, 0, 1, 1, 2, -150, 39, "certificate"),
    ]


def test_the_printed_table():
    st = standings(games(*EVENT5[:2]), BYES5[:1], preset("crossword"))
    # round 1 only: Eak bye (GP 2, +100, 1 win: 40 + 1 = 41), Dao (GP 2, +250: 40 + 2 = 42) first on
    # spread; Anan GP 2 +40 (40); Boon and Chai 0 wins: no medal score (XW-11 gives none)
    # one game of six: each medal is marked provisional (XW-10, XW-11; issue 25)
    assert format_table(st) == (
        "3: crossword standings (XW-6, XW-7, XW-8, XW-9, XW-10, XW-11)\n"
        "Place  Player  Games  W  D  L  Byes  GP  Spread  Medal score                      Medal\n"
        "    1  Dao         1  1  0  0     0   2     250           42  certificate (provisional)\n"
        "    2  Eak         1  1  0  0     1   2     100           41  certificate (provisional)\n"
        "    3  Anan        1  1  0  0     0   2      40           40  certificate (provisional)\n"
        "    4  Boon        1  0  0  1     0   0     -40\n"
        "    5  Chai        1  0  0  1     0   0    -250\n"
        "note: XW-11 gives no medal score for 0 wins: Boon, Chai (left to the organiser)\n"
        "note: XW-11: a medal is provisional until the player's 6 qualifying games are played (XW-10)\n"
        "note: XW-11: the medal level of the four who go on to the final and the game for third "
        "(qualifying places 1-4: Dao, Eak, Anan, Boon) is the committee's decision\n")


def test_a_medal_is_provisional_until_the_six_qualifying_games_are_played():
    """Issue 25: the medal words showed from round 1 on as if decided. XW-11's medal score counts wins
    out of the six qualifying games (XW-10, seed 000 §1: games 1-6): until a player's six are played,
    their medal is marked provisional in every form (table, CSV, JSON), and a note says why."""
    from gameclock.organiser.standings.table import as_dict, format_csv

    # round 1: Anan 400 v Boon 300 -> Anan +100: 1 win, 40 + 1 = 41, certificate; Boon 0 wins: no figure
    st = standings(games(xw(1, "r", 1, 1, "Anan", "Boon", 400, 300)), [], preset("crossword"))
    assert st.row("Anan").values["Medal"] == "certificate" and st.row("Anan").provisional == {"Medal"}
    assert "  41  certificate (provisional)" in format_table(st)
    assert format_csv(st).splitlines()[1] == '"r",1,"Anan",,1,1,0,0,0,2,100,41,"certificate (provisional)"'
    assert as_dict(st)["rows"][0]["provisional"] == ["Medal"] and as_dict(st)["rows"][0]["Medal"] == "certificate"
    # six games: Kit wins them all by 50 -> 6 wins 90 + 3 (300: three full hundreds) = 93, gold, decided
    six = games(*(xw(n, "r", n, 1, "Kit", f"P{n}", 350, 300) for n in range(1, 7)))
    st = standings(six, [], preset("crossword"))
    assert st.row("Kit").values["Medal"] == "gold" and st.row("Kit").provisional == set()
    assert "gold (provisional)" not in format_table(st) and "  93   gold\n" in format_table(st)


# --- 4 players, 2 rounds: equal GP broken by spread, and equal GP and spread sharing a place ----------

def test_ties_on_points_broken_by_spread_and_shared_places():
    # round 1: Fah 400 v Gun 300 -> Fah +100;  Hom 400 v Ice 300 -> Hom +100
    # round 2: Fah 340 v Ice 400 -> Ice +60;   Gun 400 v Hom 340 -> Gun +60
    # Fah +100 -60 = +40, Hom +100 -60 = +40, Gun -100 +60 = -40, Ice -100 +60 = -40; all 1 win: GP 2.
    # XW-7: GP equal, spread splits them in two pairs; within a pair GP and spread are equal: a shared
    # place (=1, =1, =3, =3), printed in name order. XW-11: 1 win 40, spread under one full hundred.
    g = games(xw(1, "7", 1, 1, "Fah", "Gun", 400, 300), xw(2, "7", 1, 2, "Hom", "Ice", 400, 300),
              xw(3, "7", 2, 1, "Fah", "Ice", 340, 400), xw(4, "7", 2, 2, "Gun", "Hom", 400, 340))
    st = standings(g, [], preset("amath"))
    assert table(st) == [
        ("=1", "Fah", 2, 1, 0, 1, 0, 2, 40, 40, "certificate"),
        ("=1", "Hom", 2, 1, 0, 1, 0, 2, 40, 40, "certificate"),
        ("=3", "Gun", 2, 1, 0, 1, 0, 2, -40, 40, "certificate"),
        ("=3", "Ice", 2, 1, 0, 1, 0, 2, -40, 40, "certificate"),
    ]
    assert [r.rank for r in st.rows] == [1, 1, 3, 3]


# --- XW-11 medal score ------------------------------------------------------------------------------

@pytest.mark.parametrize("wins, draws, spread, score, level", [
    (4, 1, 250, 77, "silver"),        # 70 + 5 + 2 (two full hundreds of 250)
    (6, 0, 0, 90, "gold"),
    (5, 0, -99, 80, "gold"),          # -99: no full hundred; 80 is gold's lower bound
    (4, 1, 400, 79, "silver"),        # 70 + 5 + 4: silver's upper bound
    (4, 0, 0, 70, "silver"),          # silver's lower bound
    (3, 1, 499, 69, "bronze"),        # 60 + 5 + 4
    (3, 0, -1, 60, "bronze"),         # -1 cut toward zero is 0
    (3, 0, -100, 59, "certificate"),  # one full hundred negative: -1
    (2, 0, -150, 49, "certificate"),  # -150 -> -1 (toward zero), not -2
    (1, 2, -250, 48, "certificate"),  # 40 + 10 - 2
    (6, 0, 1520, 105, "gold"),        # above 100 stays gold
])
def test_medal_score(wins, draws, spread, score, level):
    assert medal_score(wins, draws, spread) == score
    assert medal(score) == level


def test_no_medal_score_for_0_wins_or_more_than_6():
    # XW-11's table runs from 1 to 6 wins; RULES.md: the 0-win case is the organiser's
    assert medal_score(0, 3, 500) is None and medal(None) is None
    assert medal_score(7, 0, 0) is None


def test_a_six_round_record_of_4_wins_a_draw_and_250_spread_is_silver_77():
    # Kit plays Lek, Mon, Nok, Oil (won), Pim (drawn), Roj (lost) over 6 rounds:
    # spreads +100 +50 +70 +130 0 -100 = +250 -> 4 wins 70 + 1 draw 5 + 2 = 77, silver (XW-11).
    g = games(xw(1, "p", 1, 1, "Kit", "Lek", 400, 300), xw(2, "p", 2, 1, "Mon", "Kit", 300, 350),
              xw(3, "p", 3, 1, "Kit", "Nok", 370, 300), xw(4, "p", 4, 1, "Kit", "Oil", 430, 300),
              xw(5, "p", 5, 1, "Pim", "Kit", 333, 333),
              xw(6, "p", 6, 1, "Kit", "Roj", 300, 400, cap=200, stage="last"))
    st = standings(g, [], preset("khamkom"))
    assert table(st)[0] == ("1", "Kit", 6, 4, 1, 1, 0, 9, 250, 77, "silver")
    # Kit's six qualifying games are played: the medal is decided (XW-10, XW-11); Roj's one game is not six
    assert st.row("Kit").provisional == set() and st.row("Roj").provisional == {"Medal"}
    # Roj: 1 win, +100: 40 + 1 = 41; Pim: 0 wins, one draw: no figure (XW-11), named in the note
    assert st.row("Roj").values["Medal score"] == 41
    assert st.row("Pim").values["Medal score"] is None and st.row("Pim").values["Medal"] is None
    assert "XW-11 gives no medal score for 0 wins: Lek, Mon, Nok, Oil, Pim (left to the organiser)" in st.notes


def test_a_bye_is_a_win_for_the_medal_score():
    # seed 000 §3.10.5 calls it "ชนะบาย", a bye win: 5 games won (+50 each) and a bye (+100)
    # -> 6 wins: 90 + 3 (350) = 93, gold; GP 6 x 2 = 12
    g = games(*(xw(n, "q", n, 1, "Kit", f"P{n}", 350, 300) for n in range(1, 6)))
    st = standings(g, [bye("q", 6, "Kit")], preset("crossword"))
    assert table(st)[0] == ("1", "Kit", 6, 6, 0, 0, 1, 12, 350, 93, "gold")


# --- XW-9 bye spread by level -------------------------------------------------------------------------

def test_the_bye_spread_follows_the_players_level():
    # primary-school Crossword: a bye is +50 (XW-9); Anan's games are primary (cap 100)
    g = games(xw(1, "c", 1, 1, "Anan", "Boon", 300, 250, cap=100, level="primary"))
    st = standings(g, [bye("c", 2, "Anan"), bye("c", 2, "Chai")], preset("crossword"))
    # Anan: +50 game, +50 bye = +100, GP 4. Chai has only a bye: the level of the event's games
    # (primary; XW-8: no silent default level), so +50 (XW-9).
    assert (st.row("Anan").values["Spread"], st.row("Anan").values["GP"]) == (100, 4)
    assert (st.row("Chai").values["Spread"], st.row("Chai").values["GP"]) == (50, 2)
    # primary A-Math: +100 (the +50 is primary Crossword's only)
    g = games(xw(1, "a", 1, 1, "Anan", "Boon", 300, 250, cap=150, level="primary", preset="amath"))
    st = standings(g, [bye("a", 2, "Anan")], preset("amath"))
    assert st.row("Anan").values["Spread"] == 150


def test_a_bye_in_a_round_the_player_has_a_game_is_not_counted():
    g = games(xw(1, "3", 1, 1, "Anan", "Boon", 420, 380))
    st = standings(g, [bye("3", 1, "Anan"), bye("3", 1, "Chai"), bye("3", 1, "Chai")], preset("crossword"))
    assert st.row("Anan").values["Byes"] == 0 and st.row("Anan").values["Spread"] == 40
    assert st.row("Chai").values["Byes"] == 1   # the same bye twice is one bye
    assert "XW-9: Anan has a bye and a game in round 1: the bye is not counted" in st.notes


def test_game_points_come_from_the_records_and_a_byes_from_the_rule_file(tmp_path):
    # an organiser's rule file giving 3 for a win (XW-6's 2 changed): the records carry 3/0
    text = (preset("crossword").path.read_text(encoding="utf-8")
            .replace('id = "crossword"', 'id = "xw3"').replace("win = 2 ", "win = 3 "))
    (tmp_path / "xw3.toml").write_text(text, encoding="utf-8")
    p3 = load_preset(tmp_path / "xw3.toml")
    assert p3.scoring.win_points == 3
    g = games(rec("c-1", "3", 1, 1, "Anan", "Boon", "left", points=(3, 0), spread=40, preset="xw3"),
              # a record without game points (None): the preset's 3 / 0
              rec("c-2", "3", 2, 1, "Boon", "Anan", "left", points=None, spread=10, preset="xw3"))
    st = standings(g, [bye("3", 3, "Anan")], p3)
    assert st.row("Anan").values["GP"] == 3 + 0 + 3    # the bye: the rule file's win
    assert st.row("Boon").values["GP"] == 0 + 3


# --- what is not counted ---------------------------------------------------------------------------------

def test_a_game_without_a_result_is_named_and_not_counted():
    g = games(xw(1, "3", 1, 1, "Anan", "Boon", 420, 380),
              rec("clock2-000009", "3", 1, 2, "Chai", "Dao", None, scores=None))
    st = standings(g, [], preset("crossword"))
    # Chai and Dao are listed with nothing counted (0 games, GP 0, spread 0). XW-7: Anan (2, +40), then
    # Chai and Dao sharing (0, 0), then Boon (0, -40): a spread of 0 is above -40
    assert table(st) == [
        ("1", "Anan", 1, 1, 0, 0, 0, 2, 40, 40, "certificate"),
        ("=2", "Chai", 0, 0, 0, 0, 0, 0, 0, None, None),
        ("=2", "Dao", 0, 0, 0, 0, 0, 0, 0, None, None),
        ("4", "Boon", 1, 0, 0, 1, 0, 0, -40, None, None),
    ]
    assert "no result yet, not counted: round 1 table 2 (clock2-000009) Chai v Dao" in st.notes


def test_final_stage_games_are_not_counted_but_reported():
    # XW-10: the top two of the qualifying games play the final; its spread has no cap (XW-8)
    final = xw(7, "3", 4, 1, "Dao", "Anan", 300, 450, cap=None, stage="final")
    st = standings(games(*EVENT5, final), BYES5, preset("crossword"))
    assert table(st) == table(standings(games(*EVENT5), BYES5, preset("crossword")))
    assert st.notes[-1] == ("XW-10 final stage, not counted here: round 4 table 1 (clock1-000007) Dao v Anan "
                            "300-450, Anan won")


def test_compute_leaves_out_games_with_an_unnamed_player():
    g = games(xw(1, "3", 1, 1, "Anan", "Boon", 420, 380), xw(2, "3", 1, 2, "Chai", None, 300, 200))
    st = compute(g, [], preset("crossword"))
    assert [r.player for r in st.rows] == ["Anan", "Boon"]
    assert st.notes[0] == ("not counted, a player has no name (load the pairings before the round): "
                           "round 1 table 2 (clock1-000002)")
