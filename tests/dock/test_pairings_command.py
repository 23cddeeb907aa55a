"""`gameclock pairings FILE`: a round's pairings loaded into the organiser PC's database, one line per
table printed; the clock at a table is then given its players (Store.pairing_for); a bad file loads
nothing."""
from __future__ import annotations

from gameclock.cli import main
from gameclock.organiser.store import Store


def gameclock(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_csv_round_is_loaded_table_by_table(tmp_path, capsys):
    (tmp_path / "r2.csv").write_text("round,table,left,right\n2,1,Anan,Boon\n2,3,สมชาย,Malee\n2,,Chai,bye\n",
                                     encoding="utf-8")
    db = tmp_path / "pc.db"
    code, out, err = gameclock(capsys, "pairings", str(tmp_path / "r2.csv"), "--event", "3", "--db", str(db))
    assert code == 0, err
    assert out.splitlines() == [
        "event 3 round 2 table 1: Anan v Boon",
        "event 3 round 2 table 3: สมชาย v Malee",
        "event 3 round 2: Chai has a bye",
        f"2 tables loaded into {db}",
    ]
    with Store(db) as s:
        assert s.pairing_for("3", 3) == {"event": "3", "round": 2, "table": 3,
                                         "players": {"left": "สมชาย", "right": "Malee"}}
        assert s.pairing_for(None, 1)["players"] == {"left": "Anan", "right": "Boon"}  # the only event
        assert s.pairing_for("3", 2) is None
        # the bye is stored for the standings (XW-9)
        assert [(b["event"], b["round"], b["player"]) for b in s.byes()] == [("3", 2, "Chai")]


def test_loading_a_table_again_replaces_it(tmp_path, capsys):
    db = tmp_path / "pc.db"
    (tmp_path / "a.csv").write_text("round,table,left,right\n1,1,Anan,Boon\n1,2,Chai,Dao\n")
    (tmp_path / "b.csv").write_text("round,table,left,right\n1,2,Chai,Eak\n")
    assert gameclock(capsys, "pairings", str(tmp_path / "a.csv"), "--db", str(db))[0] == 0
    code, out, err = gameclock(capsys, "pairings", str(tmp_path / "b.csv"), "--db", str(db))
    assert (code, out) == (0, f"round 1 table 2: Chai v Eak\n1 table loaded into {db}\n")
    with Store(db) as s:
        assert [(p["table"], p["players"]["right"]) for p in s.pairings()] == [(1, "Boon"), (2, "Eak")]


def test_a_bad_file_loads_nothing(tmp_path, capsys):
    db = tmp_path / "pc.db"
    (tmp_path / "bad.csv").write_text("round,table,left,right\n1,1,Anan,Boon\n1,1,Chai,Dao\n")
    code, out, err = gameclock(capsys, "pairings", str(tmp_path / "bad.csv"), "--db", str(db))
    assert (code, out) == (1, "")
    assert err.startswith(f"{tmp_path / 'bad.csv'}:3: table 1 given twice in round 1")
    assert err.count("\n") == 1
    with Store(db) as s:
        assert s.pairings() == []


def test_a_db_that_is_not_ours_gives_a_clear_error(tmp_path, capsys):
    (tmp_path / "r1.csv").write_text("round,table,left,right\n1,1,Anan,Boon\n")
    (tmp_path / "notes.txt").write_text("not a database\n")
    code, out, err = gameclock(capsys, "pairings", str(tmp_path / "r1.csv"), "--db", str(tmp_path / "notes.txt"))
    assert (code, out) == (1, "")
    assert err == f"{tmp_path / 'notes.txt'}: not a gameclock database (not an SQLite file)\n"
