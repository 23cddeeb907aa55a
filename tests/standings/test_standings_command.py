"""`gameclock standings`: the standings of every event in a real organiser-PC database (results as the
receiver stores them, byes as `gameclock pairings` stores them), one table per event by the rules of
the preset the clocks played, as a table, CSV or JSON; --event, --round; clear errors. Expected
tables worked out by hand in the comments (XW-6, XW-7, XW-9, XW-11, SU-3, SU-4)."""
from __future__ import annotations

import json

from kit import rec, store_with, su, xw

from gameclock.cli import main
from gameclock.organiser.store import Store


def gameclock(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# event 3 (Crossword, secondary: bye +100):
#   round 1: Anan 400 v Boon 350 -> Anan +50; Chai has the bye -> +100
#   round 2: Chai 380 v Anan 300 -> Chai +80; Boon has the bye -> +100
#   Chai: bye, W  -> GP 4, +180; XW-11: 2 wins 50 + 1 = 51
#   Boon: L, bye  -> GP 2, +50;  1 win 40 + 0 = 40
#   Anan: W, L    -> GP 2, -30;  1 win 40 + 0 = 40   (XW-7: Boon's +50 before Anan's -30)
# event su (Sudoku): round 1: Dao 100 + 9 bonus = 109, Eak 80: both in the top five (SU-4)
CROSSWORD = [xw(1, "3", 1, 1, "Anan", "Boon", 400, 350), xw(2, "3", 2, 1, "Chai", "Anan", 380, 300)]
SUDOKU = [su(1, "su", 1, 1, "Dao", "Eak", 100, 80, left_bonus=9)]

# two of the six qualifying games played: the medals are provisional (XW-10, XW-11)
TABLE_3 = (
    "3: crossword standings (XW-6, XW-7, XW-8, XW-9, XW-10, XW-11)\n"
    "Place  Player  Games  W  D  L  Byes  GP  Spread  Medal score                      Medal\n"
    "    1  Chai        2  2  0  0     1   4     180           51  certificate (provisional)\n"
    "    2  Boon        2  1  0  1     1   2      50           40  certificate (provisional)\n"
    "    3  Anan        2  1  0  1     0   2     -30           40  certificate (provisional)\n"
    "note: XW-11: a medal is provisional until the player's 6 qualifying games are played (XW-10)\n"
    "note: XW-11: the medal level of the four who go on to the final and the game for third "
    "(qualifying places 1-4: Chai, Boon, Anan) is the committee's decision\n")
TABLE_SU = (
    "su: sudoku standings (SU-2, SU-3, SU-4)\n"
    "Place  Player   R1  Bonus  Total  Final\n"
    "    1  Dao     109      9    109    yes\n"
    "    2  Eak      80      0     80    yes\n")


def test_pairings_with_byes_then_results_then_standings(tmp_path, capsys):
    db = tmp_path / "pc.db"
    # the organiser loads each round's pairings (the bye rows are stored: XW-9)
    (tmp_path / "r1.csv").write_text("round,table,left,right\n1,1,Anan,Boon\n1,,Chai,bye\n", encoding="utf-8")
    (tmp_path / "r2.csv").write_text("round,table,left,right\n2,1,Chai,Anan\n2,,Boon,bye\n", encoding="utf-8")
    for name in ("r1.csv", "r2.csv"):
        assert gameclock(capsys, "pairings", str(tmp_path / name), "--event", "3", "--db", str(db))[0] == 0
    # the clocks' results arrive
    store_with(db, CROSSWORD + SUDOKU)
    code, out, err = gameclock(capsys, "standings", "--db", str(db))
    assert (code, err) == (0, "")
    assert out == TABLE_3 + "\n" + TABLE_SU


def test_csv_and_json(tmp_path, capsys):
    db = tmp_path / "pc.db"
    store_with(db, CROSSWORD + SUDOKU, byes=[{"event": "3", "round": 1, "player": "Chai"},
                                             {"event": "3", "round": 2, "player": "Boon"}])
    code, out, err = gameclock(capsys, "standings", "--db", str(db), "--format", "csv")
    assert code == 0, err
    # the sudoku event has other columns: a blank line and its own header; text quoted, numbers as they
    # are (issue 24: a spreadsheet runs no text as a formula; Anan's -30 is a number it sums)
    assert out == (
        "event,place,player,team,Games,W,D,L,Byes,GP,Spread,Medal score,Medal\n"
        '3,1,"Chai",,2,2,0,0,1,4,180,51,"certificate (provisional)"\n'
        '3,2,"Boon",,2,1,0,1,1,2,50,40,"certificate (provisional)"\n'
        '3,3,"Anan",,2,1,0,1,0,2,-30,40,"certificate (provisional)"\n'
        "\n"
        "event,place,player,team,R1,Bonus,Total,Final\n"
        '"su",1,"Dao",,109,9,109,"yes"\n'
        '"su",2,"Eak",,80,0,80,"yes"\n')
    # two crossword events share one header
    store_with(tmp_path / "two.db", CROSSWORD + [xw(5, "4", 1, 1, "Fah", "Gun", 300, 320)])
    code, out, err = gameclock(capsys, "standings", "--db", str(tmp_path / "two.db"), "--format", "csv")
    # event 4: Gun +20 (GP 2, 1 win: 40), Fah -20 (0 wins: no medal score)
    assert out.splitlines()[4:] == ['4,1,"Gun",,1,1,0,0,0,2,20,40,"certificate (provisional)"',
                                    '4,2,"Fah",,1,0,0,1,0,0,-20,,']
    code, out, err = gameclock(capsys, "standings", "--db", str(db), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [(d["event"], d["method"], d["round"]) for d in data] == [("3", "crossword", None), ("su", "sudoku", None)]
    assert data[0]["rows"][0] == {"rank": 1, "shared": False, "place": "1", "player": "Chai", "team": None,
                                  "Games": 2, "W": 2, "D": 0, "L": 0, "Byes": 1, "GP": 4, "Spread": 180,
                                  "Medal score": 51, "Medal": "certificate", "provisional": ["Medal"]}
    assert data[1]["rows"][1]["Final"] == "yes" and data[1]["rows"][1]["Total"] == 80


def test_csv_writes_a_name_a_spreadsheet_would_run_as_text(tmp_path, capsys):
    """Issue 24, B7 (OWASP "CSV Injection"): a name beginning with @ or + went into the CSV as it was,
    and a spreadsheet runs it as a formula; a shared place "=2" is a formula too."""
    db = tmp_path / "pc.db"
    # event 5, round 1: "@SUM(1+1)*cmd|' /C calc'!A0" 300 v Fah 330 -> Fah +30, the other -30 (XW-8);
    # round 2: "+cmd|' /C calc'!A0" 300 v Gun 330 -> Gun +30, the other -30. GP: Fah 2, Gun 2, the two 0;
    # spread: Fah +30 = Gun +30 (XW-7): a shared first place, and the two names a shared third
    at, plus = "@SUM(1+1)*cmd|' /C calc'!A0", "+cmd|' /C calc'!A0"
    store_with(db, [xw(1, "5", 1, 1, at, "Fah", 300, 330), xw(2, "5", 2, 1, plus, "Gun", 300, 330)])
    code, out, err = gameclock(capsys, "standings", "--db", str(db), "--format", "csv")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "event,place,player,team,Games,W,D,L,Byes,GP,Spread,Medal score,Medal"
    # text cells quoted, those a spreadsheet would run with a single quote first; numbers (-30) as they are
    assert [line.split(",")[:3] + line.split(",")[-4:-2] for line in lines[1:]] == [
        ["5", '"\'=1"', '"Fah"', "2", "30"], ["5", '"\'=1"', '"Gun"', "2", "30"],
        ["5", '"\'=3"', '"\'' + plus + '"', "0", "-30"],
        ["5", '"\'=3"', '"\'' + at + '"', "0", "-30"]]


def test_one_event_after_round_1(tmp_path, capsys):
    db = tmp_path / "pc.db"
    store_with(db, CROSSWORD + SUDOKU, byes=[{"event": "3", "round": 1, "player": "Chai"},
                                             {"event": "3", "round": 2, "player": "Boon"}])
    code, out, err = gameclock(capsys, "standings", "--db", str(db), "--event", "3", "--round", "1")
    assert code == 0, err
    # round 1 only: Chai's bye (GP 2, +100: 40 + 1 = 41), Anan (GP 2, +50: 40), Boon (GP 0, -50:
    # 0 wins, no XW-11 figure)
    assert out == (
        "standings after round 1\n\n"
        "3: crossword standings (XW-6, XW-7, XW-8, XW-9, XW-10, XW-11)\n"
        "Place  Player  Games  W  D  L  Byes  GP  Spread  Medal score                      Medal\n"
        "    1  Chai        1  1  0  0     1   2     100           41  certificate (provisional)\n"
        "    2  Anan        1  1  0  0     0   2      50           40  certificate (provisional)\n"
        "    3  Boon        1  0  0  1     0   0     -50\n"
        "note: XW-11 gives no medal score for 0 wins: Boon (left to the organiser)\n"
        "note: XW-11: a medal is provisional until the player's 6 qualifying games are played (XW-10)\n"
        "note: XW-11: the medal level of the four who go on to the final and the game for third "
        "(qualifying places 1-4: Chai, Anan, Boon) is the committee's decision\n")


def test_no_results_is_a_clear_error(tmp_path, capsys):
    db = tmp_path / "pc.db"
    Store(db).close()
    assert gameclock(capsys, "standings", "--db", str(db)) == (1, "", f"{db}: no results\n")
    store_with(db, CROSSWORD)
    assert gameclock(capsys, "standings", "--db", str(db), "--event", "9") == \
        (1, "", f"{db}: no results of event 9\n")
    assert gameclock(capsys, "standings", "--db", str(db), "--round", "0") == \
        (1, "", f"{db}: no results up to round 0\n")
    # a database that is not there is not created
    code, out, err = gameclock(capsys, "standings", "--db", str(tmp_path / "typo.db"))
    assert (code, out) == (1, "") and err == f"{tmp_path / 'typo.db'}: no such database (gameclock receive creates it)\n"
    assert not (tmp_path / "typo.db").exists()


def test_one_event_of_two_scoring_kinds_is_an_error(tmp_path, capsys):
    db = tmp_path / "pc.db"
    store_with(db, CROSSWORD + [su(9, "3", 3, 1, "Dao", "Eak", 100, 80)])
    code, out, err = gameclock(capsys, "standings", "--db", str(db))
    assert (code, out) == (1, "")
    assert err == ("event 3: results of presets scored differently: crossword (crossword), sudoku-60 (sudoku); "
                   "one event is ranked one way (set each clock's event)\n")


def test_presets_of_one_kind_share_an_event_and_an_unknown_preset_is_named(tmp_path, capsys):
    db = tmp_path / "pc.db"
    # round 3 played on a clock without a clock (crossword-nocut): the same [scoring] kind
    nocut = xw(3, "3", 3, 1, "Anan", "Boon", 300, 300, preset="crossword-nocut")
    store_with(db, CROSSWORD + [nocut])
    code, out, err = gameclock(capsys, "standings", "--db", str(db))
    assert code == 0, err
    assert "note: results of presets crossword, crossword-nocut: scored by crossword's rules\n" in out
    store_with(tmp_path / "b.db", [xw(1, "4", 1, 1, "Anan", "Boon", 300, 200, preset="club-rules")])
    code, out, err = gameclock(capsys, "standings", "--db", str(tmp_path / "b.db"))
    assert (code, out) == (1, "")
    assert err.startswith("event 4: preset 'club-rules' of its results: ") and "no preset 'club-rules'" in err


def test_unnamed_players_are_noted(tmp_path, capsys):
    db = tmp_path / "pc.db"
    store_with(db, CROSSWORD + [rec("clock9-000001", "3", 2, 2, None, None, "left", spread=40)])
    code, out, err = gameclock(capsys, "standings", "--db", str(db), "--event", "3")
    assert code == 0, err
    assert ("note: not counted, a player has no name (load the pairings before the round): "
            "round 2 table 2 (clock9-000001)\n") in out
    assert "Chai" in out and "None" not in out


def test_the_teams_file(tmp_path, capsys):
    # read by makruk.load_teams (header player,team,board); its one-line errors end the command
    db = tmp_path / "pc.db"
    store_with(db, CROSSWORD)
    (tmp_path / "bad.csv").write_text("player,team\nAnan,KU\n", encoding="utf-8")
    code, out, err = gameclock(capsys, "standings", "--db", str(db), "--teams", str(tmp_path / "bad.csv"))
    assert (code, out) == (1, "")
    assert err.startswith(f"{tmp_path / 'bad.csv'}:1: ") and "board" in err and err.count("\n") == 1
    (tmp_path / "teams.csv").write_text("player,team,board\nAnan,KU,1\nBoon,KU,2\n", encoding="utf-8")
    code, out, err = gameclock(capsys, "standings", "--db", str(db), "--teams", str(tmp_path / "teams.csv"))
    assert code == 0 and out.startswith("3: crossword standings")
    assert err == "note: --teams is for Makruk events (MR-11); none of these is one\n"


def test_teams_reach_a_makruk_event(tmp_path, capsys):
    # Makruk (makruk-45): KU (Anan board 1, Boon board 2) v CU (Chai 1, Dao 2) in round 1:
    # Anan beats Chai, Dao and Boon draw. MR-11: a win and a draw -> team MP 2, GP 3 (KU);
    # a loss and a draw -> MP 0, GP 1 (CU)
    db = tmp_path / "pc.db"
    mk = {"preset": "makruk-45", "kind": "makruk"}
    store_with(db, [rec("m-1", "mk", 1, 1, "Anan", "Chai", "left", piece_value=(9, 0), reason="mate", **mk),
                    rec("m-2", "mk", 1, 2, "Dao", "Boon", "draw", piece_value=(2, 2), reason="agreement", **mk)])
    (tmp_path / "teams.csv").write_text("player,team,board\nAnan,KU,1\nBoon,KU,2\nChai,CU,1\nDao,CU,2\n",
                                        encoding="utf-8")
    code, out, err = gameclock(capsys, "standings", "--db", str(db), "--teams", str(tmp_path / "teams.csv"),
                               "--format", "json")
    assert (code, err) == (0, "")
    [st] = json.loads(out)
    assert st["method"] == "makruk-team"
    assert [(r["place"], r["player"], r["MP"], r["GP"]) for r in st["rows"]] == [("1", "KU", 2, 3), ("2", "CU", 0, 1)]
    # without --teams: the individual standings (MR-9: Anan 2, Boon and Dao 1, Chai 0)
    code, out, err = gameclock(capsys, "standings", "--db", str(db), "--format", "json")
    assert json.loads(out)[0]["method"] == "makruk"


def test_final_standings_need_an_event_the_pc_pairs(tmp_path, capsys):
    """`--final` places an event by its system's rounds, which only an event the PC pairs has (issue 25):
    results alone (event 3, its pairings loaded from files) are refused in one line, as are --round and
    --teams with it."""
    db = tmp_path / "pc.db"
    store_with(db, CROSSWORD)
    code, out, err = gameclock(capsys, "standings", "--final", "--db", str(db))
    assert (code, out) == (1, "") and err == f"{db}: no event paired by this PC (gameclock event create)\n"
    code, out, err = gameclock(capsys, "standings", "--final", "--event", "3", "--db", str(db))
    assert code == 1 and err.startswith(f"{db}: event '3' is not paired by this PC") and err.count("\n") == 1
    code, _, err = gameclock(capsys, "standings", "--final", "--round", "2", "--db", str(db))
    assert code == 1 and err.startswith("--final gives the standings at the end of the event")
