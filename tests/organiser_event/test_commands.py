"""`gameclock event` and `gameclock pair` through the command line (in this process, so the test
system t-fold is registered): what they print, their seeds, fixes, publishing, sheets and errors."""
from __future__ import annotations

from evkit import PLAYERS_CSV

from gameclock import cli
from gameclock.organiser.store import Store


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_create_show_pair_fix_publish_and_print(tmp_path, capsys, fold_system):
    db = str(tmp_path / "pc.db")
    players = tmp_path / "players.csv"
    players.write_text(PLAYERS_CSV, encoding="utf-8")
    status, out, err = run(capsys, "event", "create", "xw-open", "--system", fold_system, "--players", str(players),
                           "--rounds", "5", "--option", "shuffle=false", "--language", "th", "--preset", "crossword",
                           "--db", db)
    assert status == 0, err
    assert out.splitlines()[0] == "  1 สมชาย ใจดี (Somchai Jaidee), โรงเรียนสาธิต"
    assert out.splitlines()[-1] == "event xw-open created: 5 players, system t-fold"
    assert err.endswith("players.csv: ignored column score\n")

    status, out, err = run(capsys, "pair", "xw-open", "--seed", "42", "--db", db)
    assert status == 0, err
    assert out.splitlines()[:4] == [
        "xw-open round 1 (DRAFT; system t-fold, seed 42)",
        "  table   1: 1 สมชาย ใจดี (Somchai Jaidee) v 2 มาลี ศรีสุข (Malee Srisuk)",
        "  table   2: 3 Anan Wong v 4 บุญมี มีสุข (Boonmee Meesuk)",
        "  table   3: 5 Chai Dee v bye"]
    assert out.splitlines()[-1] == "publish it: gameclock pair xw-open --publish"

    status, out, _ = run(capsys, "pair", "xw-open", "--db", db)  # the draft is kept: shown again, same seed
    assert "seed 42" in out.splitlines()[0]

    status, out, err = run(capsys, "pair", "xw-open", "--set-table", "2", "3", "5", "--set-table", "3", "4", "bye",
                           "--db", db)
    assert status == 0, err
    assert "  table   2: 3 Anan Wong v 5 Chai Dee" in out.splitlines()

    status, _, err = run(capsys, "pair", "xw-open", "--swap", "1", "7", "--db", db)
    assert (status, err) == (1, "round 1: no table 7 in the draft (tables 1, 2, 3)\n")

    status, _, err = run(capsys, "pair", "xw-open", "--sheets", str(tmp_path / "s"), "--db", db)
    assert (status, err) == (1, "xw-open: no round published yet (gameclock pair xw-open --publish)\n")

    status, out, err = run(capsys, "pair", "xw-open", "--publish", "--db", db)
    assert status == 0, err
    assert out.splitlines()[-1] == ("round 1 of xw-open published: 2 tables for the clocks (those docked now get it within seconds, "
                                    "the others at docking)")
    with Store(db) as store:
        assert [(p["table"], p["players"]["right"]) for p in store.pairings()] == [(1, "มาลี ศรีสุข"), (2, "Chai Dee")]

    status, out, err = run(capsys, "pair", "xw-open", "--sheets", str(tmp_path / "s"), "--db", db)
    assert status == 0, err
    assert out.splitlines() == [f"wrote {tmp_path / 's' / 'xw-open-r1-pairings.html'}",
                                f"wrote {tmp_path / 's' / 'xw-open-r1-slips.html'}"]

    status, out, err = run(capsys, "event", "show", "xw-open", "--db", db)
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "event xw-open: system t-fold, 5 rounds, language th, preset crossword"
    # t-fold declares no options: what it was given, as --option takes it; no change since
    assert lines[1:3] == ["options: shuffle=false", "option changes: none"]
    assert "xw-open round 1 (published; system t-fold, seed 42)" in lines
    assert "  note: table 2 set by the organiser: 3 v 5" in lines

    status, _, err = run(capsys, "pair", "xw-open", "--db", db)  # round 2 needs round 1's results
    assert (status, err) == (1, "xw-open: no result yet for round 1 table 1, round 1 table 2 (dock their clocks first)\n")


def test_errors_are_one_line_and_create_nothing(tmp_path, capsys, fold_system):
    db = str(tmp_path / "pc.db")
    bad = tmp_path / "bad.csv"
    bad.write_text("id,name\n1,Ann\n1,Ben\n", encoding="utf-8")
    status, out, err = run(capsys, "event", "create", "ev", "--system", fold_system, "--players", str(bad), "--db", db)
    assert (status, out) == (1, "")
    assert err.endswith("bad.csv:3: id 1 given twice (line 2 has it)\n")
    status, _, err = run(capsys, "pair", "ev", "--db", db)
    assert (status, err) == (1, f"no event 'ev' in {db} (gameclock event create)\n")
