"""`gameclock export tsh|trf|csv|jsonl`: from a real organiser-PC database (results and the byes
loaded with the pairings) to files in a folder, one file, or stdout; refusals write nothing."""
from __future__ import annotations

import pytest
from exportkit import EVENT_3_TSH, EVENT_9_PRIMARY_TSH, crossword_event_3, crossword_event_9, makruk_event
from kit import store_with

from gameclock.cli import main


@pytest.fixture
def db(tmp_path):
    """Events 3 and 9 (crossword, with their byes) and mk (makruk) in one database."""
    r3, b3 = crossword_event_3()
    r9, b9 = crossword_event_9()
    path = tmp_path / "pc.db"
    store_with(path, r3 + r9 + makruk_event(), b3 + b9)
    return path


def gameclock(capsysbinary, *argv) -> tuple[int, bytes, str]:
    code = main([str(a) for a in argv])
    out, err = capsysbinary.readouterr()
    return code, out, err.decode("utf-8")


def test_tsh_writes_one_file_per_division_into_a_folder(tmp_path, db, capsysbinary):
    out = tmp_path / "tsh"
    out.mkdir()
    code, stdout, err = gameclock(capsysbinary, "export", "tsh", "--db", db, "--event", "9", "--out", out)
    assert (code, stdout) == (0, b"")
    assert sorted(p.name for p in out.iterdir()) == ["9-primary.t", "9-secondary.t"]
    assert (out / "9-primary.t").read_text(encoding="utf-8").splitlines() == EVENT_9_PRIMARY_TSH
    size = (out / "9-primary.t").stat().st_size
    assert err.splitlines()[0] == f"wrote {out / '9-primary.t'}: 3 players, 2 rounds, {size} bytes"


def test_tsh_to_stdout_needs_one_division(tmp_path, db, capsysbinary):
    code, stdout, err = gameclock(capsysbinary, "export", "tsh", "--db", db, "--event", "3", "--out", "-")
    assert code == 0 and err == ""
    assert stdout.decode("utf-8").splitlines() == EVENT_3_TSH
    code, stdout, err = gameclock(capsysbinary, "export", "tsh", "--db", db, "--event", "9", "--out", "-")
    assert (code, stdout) == (1, b"")
    assert err == ("gameclock export tsh: 2 files (9-primary.t, 9-secondary.t): give --out DIR for one file "
                   "each, or pick one with --event\n")


def test_round_n_exports_the_rounds_before(db, capsysbinary):
    code, stdout, err = gameclock(capsysbinary, "export", "tsh", "--db", db, "--event", "3", "--round", "1",
                                  "--out", "-")
    assert code == 0, err
    # round 1 only: Malee (the bye) is still player 5
    assert stdout.decode().splitlines() == ["Anan 0 2; 420; p12 1; board 1", "Boon 0 1; 380; p12 2; board 1",
                                            "Somchai 0 4; 350; p12 2; board 2", "Chai 0 3; 400; p12 1; board 2",
                                            "Malee 0 0; 100; p12 0; board 0"]


def test_a_refused_export_writes_nothing(tmp_path, capsysbinary):
    records, byes = crossword_event_3()
    path = tmp_path / "pc.db"
    store_with(path, records, byes[:1])           # Boon's round-2 bye was never loaded
    out = tmp_path / "out"
    out.mkdir()
    code, stdout, err = gameclock(capsysbinary, "export", "tsh", "--db", path, "--out", out)
    assert code == 1 and list(out.iterdir()) == []
    assert err.startswith("gameclock export tsh: 3: no result and no bye for Boon in round 2 ")


def test_no_database_is_an_error_and_creates_none(tmp_path, capsysbinary):
    missing = tmp_path / "none.db"
    code, stdout, err = gameclock(capsysbinary, "export", "csv", "--db", missing)
    assert (code, err) == (1, f"{missing}: no such database (give --db FILE)\n")
    assert not missing.exists()


def test_no_results_for_the_event(db, capsysbinary):
    code, stdout, err = gameclock(capsysbinary, "export", "trf", "--db", db, "--event", "nope", "--out", "-")
    assert (code, err) == (1, "gameclock export trf: no results stored for event nope\n")


def test_trf_to_a_file_and_csv_and_windows_874(tmp_path, db, capsysbinary):
    path = tmp_path / "makruk.trf"
    code, _, err = gameclock(capsysbinary, "export", "trf", "--db", db, "--event", "mk", "--out", path)
    assert code == 0, err
    lines = path.read_bytes().decode("utf-8").split("\r\n")
    assert lines[:3] == ["012 mk", "062 4", "XXR 3"] and len(lines) == 3 + 4 + 1
    code, stdout, err = gameclock(capsysbinary, "export", "csv", "--db", db, "--encoding", "windows-874")
    assert code == 0 and err == ""
    text = stdout.decode("cp874")
    assert text.splitlines()[0].startswith("division,round,table,player1,score1")
    assert len(text.splitlines()) == 1 + 4 + 2 + 4 + 4 + 6        # header, games and byes of 3, 9, mk


def test_jsonl_refuses_what_it_cannot_do(db, capsysbinary):
    code, _, err = gameclock(capsysbinary, "export", "jsonl", "--db", db, "--round", "2")
    assert (code, err) == (1, "gameclock export jsonl: jsonl exports whole results; --round is for tsh, "
                              "trf and csv\n")
    code, _, err = gameclock(capsysbinary, "export", "jsonl", "--db", db, "--encoding", "windows-874")
    assert (code, err) == (1, "gameclock export jsonl: jsonl is always UTF-8 (what gameclock import reads)\n")
