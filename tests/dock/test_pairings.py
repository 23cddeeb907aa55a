"""Reading a round's pairings (gameclock.organiser.pairings): tsh `.t` files and CSV, small files written
here with the expected pairings worked out by hand; windows-874 (Thai) files; every error names the
file and the line."""
from __future__ import annotations

import pytest

from gameclock.organiser.pairings import PairingError, check_pairing, load_pairings

# Four players, round 1 played and scored, round 2 paired (tsh writes "Surname, Given").
#   id 1 Srisuk    opponents 4 2, p12 1 2, boards 1 2
#   id 2 Wong      opponents 3 1, p12 2 1, boards 2 2
#   id 3 Chai      opponents 2 4, p12 1 1, boards 2 1
#   id 4 Dee       opponents 1 3, p12 2 2, boards 1 1
# Round 1: 1-4 at board 1 (1 first: Srisuk left), 2-3 at board 2 (3 first: Chai left).
# Round 2: 1-2 at board 2 (2 first: Wong left), 3-4 at board 1 (3 first: Chai left).
FOUR = """\
# division A
Srisuk, Somchai      1650  4 2; 420; p12 1 2; board 1 2
Wong, Anan           1500  3 1; 390; p12 2 1; board 2 2

Chai, Mali           1400  2 4; 410; p12 1 1; board 2 1
Dee, Porn            1300  1 3; 300; p12 2 2; board 1 1
"""


def write(tmp_path, name, text, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def pairing(event, rnd, table, left, right):
    return {"event": event, "round": rnd, "table": table, "players": {"left": left, "right": right}}


# ------------------------------------------------------------------------------------------ tsh
def test_tsh_the_round_waiting_for_scores_with_boards_and_firsts(tmp_path):
    got = load_pairings(write(tmp_path, "a.t", FOUR))
    assert got == [pairing(None, 2, 1, "Chai, Mali", "Dee, Porn"),
                   pairing(None, 2, 2, "Wong, Anan", "Srisuk, Somchai")]
    assert got.byes == []


def test_tsh_a_round_given_and_the_event(tmp_path):
    got = load_pairings(write(tmp_path, "a.t", FOUR), event="A", round=1)
    assert got == [pairing("A", 1, 1, "Srisuk, Somchai", "Dee, Porn"),
                   pairing("A", 1, 2, "Chai, Mali", "Wong, Anan")]


def test_tsh_without_boards_or_firsts_tables_follow_the_lower_id(tmp_path):
    # Round 2: pairs (1, 2) and (3, 4) -> tables 1 and 2 in the order of the lower id; no p12: the
    # lower id is left. Round 1: pairs (1, 4) and (2, 3) -> tables 1 and 2.
    text = "\n".join(line.split("; p12")[0] for line in FOUR.splitlines())
    got = load_pairings(write(tmp_path, "a.t", text))
    assert got == [pairing(None, 2, 1, "Srisuk, Somchai", "Wong, Anan"),
                   pairing(None, 2, 2, "Chai, Mali", "Dee, Porn")]
    got = load_pairings(write(tmp_path, "a.t", text), round=1)
    assert got == [pairing(None, 1, 1, "Srisuk, Somchai", "Dee, Porn"),
                   pairing(None, 1, 2, "Wong, Anan", "Chai, Mali")]


def test_tsh_a_bye_gets_no_table_and_is_reported(tmp_path):
    # Five players, round 1 not scored yet: 1-3, 2-5, 4 has the bye (opponent 0). Tables by the
    # lower id: (1, 3) table 1, (2, 5) table 2. p12: 5 goes first against 2.
    text = ("Alpha, A 1500 3;\n"
            "Bravo, B 1500 5; ; p12 2\n"
            "Charlie, C 1500 1;\n"
            "Delta, D 1500 0;\n"
            "Echo, E 1500 2; ; p12 1\n")
    got = load_pairings(write(tmp_path, "b.t", text), event="B")
    assert got == [pairing("B", 1, 1, "Alpha, A", "Charlie, C"),
                   pairing("B", 1, 2, "Echo, E", "Bravo, B")]
    assert got.byes == [{"event": "B", "round": 1, "player": "Delta, D", "line": 4}]


def test_tsh_thai_names_in_windows_874(tmp_path):
    # tsh's Thai profile writes windows-874; the names come back as written.
    text = ("สมชาย ใจดี  1600  2; ; p12 2\n"
            "วันชัย ศรีสุข  1550  1; ; p12 1\n")
    path = write(tmp_path, "thai.t", text, encoding="cp874")
    assert path.read_bytes()[:2] == bytes([0xCA, 0xC1])  # ส ม in windows-874, not UTF-8
    got = load_pairings(path)
    assert got == [pairing(None, 1, 1, "วันชัย ศรีสุข", "สมชาย ใจดี")]


def test_tsh_utf8_with_a_bom(tmp_path):
    path = tmp_path / "bom.t"
    path.write_bytes(b"\xef\xbb\xbf" + "Ä, Å 1500 2;\nÖ, Ø 1500 1;\n".encode())
    assert load_pairings(path) == [pairing(None, 1, 1, "Ä, Å", "Ö, Ø")]


def test_tsh_rating_forms_and_extra_fields_it_does_not_use(tmp_path):
    # tsh's pattern allows ratings such as 1500.5 and 1500+3, and any other `; key values` field.
    text = ("One, A 1500.5 2; ; off 1; newr 1510\n"
            "Two, B 1500+3 1;\n")
    assert load_pairings(write(tmp_path, "x.t", text)) == [pairing(None, 1, 1, "One, A", "Two, B")]


@pytest.mark.parametrize("text, round_, message", [
    ("One 1500 2;\nTwo 1500 1;\nThree 1500 abc;\n", None,
     "x.t:3: not a tsh player line"),
    ("One 1500 2;\nTwo 1500 3;\nThree 1500 2;\n", None,
     "x.t:1: One (player 1) plays player 2 in round 1, but line 2 pairs Two with player 3"),
    ("One 1500 7;\nTwo 1500 1;\n", None,
     "x.t:1: One's opponent in round 1 is player 7, but the file has 2 players"),
    ("One 1500 1;\nTwo 1500 0;\n", None,
     "x.t:1: One is paired with themself in round 1"),
    ("One 1500 2; 400\nTwo 1500 1; 380\n", None,
     "x.t: no round waiting to be played (every pairing has its score; the last round paired is 1)"),
    ("One 1500 2 3; 400\nTwo 1500 1 4;\nThree 1500 4 1; 300\nFour 1500 3 2; 350\n", None,
     "x.t: more than one round is paired without scores: round 1 (line 2, Two), round 2 (line 1, One)"),
    ("One 1500 2 3;\nTwo 1500 1;\nThree 1500 0 1;\n", 2,
     "x.t:2: Two has no opponent in round 2 (line 1 has one)"),
    ("One 1500 2; ; board 3\nTwo 1500 1; ; board 4\n", None,
     "x.t:2: Two is at board 4 in round 1, but their opponent One (line 1) is at board 3"),
    ("One 1500 2; ; board 1\nTwo 1500 1; ; board 1\nThree 1500 4;\nFour 1500 3;\n", None,
     "x.t:3: Three has no board for round 1 (line 1 has one)"),
    ("One 1500 2; ; board 1\nTwo 1500 1; ; board 1\nThree 1500 4; ; board 1\nFour 1500 3; ; board 1\n", None,
     "x.t:3: table 1 given twice in round 1 (line 1 has it)"),
    ("One 1500 2; ; p12 1\nTwo 1500 1; ; p12 1\n", None,
     "x.t:2: One (line 1) and Two both go first in round 1 (p12 1)"),
    ("One 1500 2; ; p12 x\nTwo 1500 1;\n", None,
     "x.t:1: p12 value 'x' for round 1 is not a whole number"),
    ("", None, "x.t: no players"),
])
def test_tsh_errors_name_the_line(tmp_path, monkeypatch, text, round_, message):
    monkeypatch.chdir(tmp_path)  # the error shows the path relative to the working directory
    write(tmp_path, "x.t", text)
    with pytest.raises(PairingError) as exc:
        load_pairings("x.t", round=round_)
    assert str(exc.value).startswith(message), str(exc.value)


def test_a_file_neither_utf8_nor_windows_874_names_its_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.t").write_bytes(b"One 1500 2;\n" + b"T\xdbo 1500 1;\n")  # 0xDB: not in cp874
    with pytest.raises(PairingError, match=r"^bad\.t:2: neither UTF-8 nor windows-874 \(Thai\): byte 0xdb"):
        load_pairings("bad.t")


# ------------------------------------------------------------------------------------------ CSV
ROUNDS = """\
Round,Table,Player1,Player2,Score1,Score2
# round 3
3,2,"Srisuk, Somchai",Wong Anan,,
3,1,Chai Mali,Dee Porn,,

4,1,Wong Anan,Chai Mali,,
4,2,Dee Porn,"Srisuk, Somchai",,
"""


def test_csv_every_round_or_one_round(tmp_path):
    path = write(tmp_path, "r.csv", ROUNDS)
    assert load_pairings(path) == [pairing(None, 3, 1, "Chai Mali", "Dee Porn"),
                                   pairing(None, 3, 2, "Srisuk, Somchai", "Wong Anan"),
                                   pairing(None, 4, 1, "Wong Anan", "Chai Mali"),
                                   pairing(None, 4, 2, "Dee Porn", "Srisuk, Somchai")]
    assert load_pairings(path, round=4, event="open") == [pairing("open", 4, 1, "Wong Anan", "Chai Mali"),
                                                          pairing("open", 4, 2, "Dee Porn", "Srisuk, Somchai")]


def test_csv_column_names_event_filter_and_round_fill(tmp_path):
    text = ("TABLE;Event;left;right\n"
            "1;A;Ann;Bob\n"
            "1;B;Cat;Dan\n"
            "2;A;Eve;Fay\n")
    path = write(tmp_path, "p.csv", text)
    assert load_pairings(path, round=5, event="A") == [pairing("A", 5, 1, "Ann", "Bob"),
                                                       pairing("A", 5, 2, "Eve", "Fay")]
    assert load_pairings(path, round=5) == [pairing("A", 5, 1, "Ann", "Bob"), pairing("A", 5, 2, "Eve", "Fay"),
                                            pairing("B", 5, 1, "Cat", "Dan")]


def test_csv_first_second_division_and_a_bye(tmp_path):
    text = ("division,round,table,first,second\n"
            "A,2,1,Ann,Bob\n"
            "A,2,,Cat,BYE\n")
    got = load_pairings(write(tmp_path, "p.csv", text))
    assert got == [pairing("A", 2, 1, "Ann", "Bob")]
    assert got.byes == [{"event": "A", "round": 2, "player": "Cat", "line": 3}]


def test_csv_thai_excel_windows_874_and_utf8_bom(tmp_path):
    text = "round,table,player1,player2\n1,7,สมชาย ใจดี,วันชัย  ศรีสุข\n"
    want = [pairing(None, 1, 7, "สมชาย ใจดี", "วันชัย ศรีสุข")]  # spaces folded to one
    assert load_pairings(write(tmp_path, "th.csv", text, encoding="cp874")) == want
    assert load_pairings(write(tmp_path, "bom.csv", "\ufeff" + text)) == want


@pytest.mark.parametrize("text, kwargs, message", [
    ("round,table,name1,name2\n1,1,A,B\n", {},
     "p.csv:1: no player columns: the header needs left,right (or player1,player2 or first,second); "
     "it has round, table, name1, name2"),
    ("table,left,right\n1,A,B\n", {}, "p.csv:1: no 'round' column: give the round (--round N)"),
    ("round,left,right\n1,A,B\n", {}, "p.csv:1: no 'table' column"),
    ("round,table,left,right\n1,1,A,B\n\n1,x,C,D\n", {}, "p.csv:4: table 'x' is not a whole number"),
    ("round,table,left,right\n1,1,A,B\n1,0,C,D\n", {}, "p.csv:3: table 0 is not 1 or more"),
    ("round,table,left,right\n1,1,A,B\n# the next is wrong\n1,1,C,D\n", {},
     "p.csv:4: table 1 given twice in round 1 (line 2 has it)"),
    ("round,table,left,right\n1,1,A,B\n1,2,C,a\n", {}, "p.csv:3: a plays twice in round 1 (also at line 2)"),
    ("round,table,left,right\n1,1,,\n", {}, "p.csv:2: no players (columns left, right)"),
    ("round,table,left,right\n1,1,A #1,B\n", {}, "p.csv:2: player name 'A #1' holds '#'"),
    ("event,round,table,left,right\nOpen A,1,1,A,B\n", {}, "p.csv:2: event 'Open A' has spaces"),
    ("round,table,left,right\n1,1,A,B\n", {"round": 2}, "p.csv: no pairings for round 2"),
    ("# nothing\n", {}, "p.csv: no header row"),
])
def test_csv_errors_name_the_line(tmp_path, monkeypatch, text, kwargs, message):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "p.csv", text)
    with pytest.raises(PairingError) as exc:
        load_pairings("p.csv", **kwargs)
    assert str(exc.value).startswith(message), str(exc.value)


def test_an_event_argument_with_spaces_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "p.csv", "round,table,left,right\n1,1,A,B\n")
    with pytest.raises(PairingError, match=r"^p\.csv: event 'Open A' has spaces: give it as one word \(e\.g\. "
                                           r"'Open-A'\)"):
        load_pairings("p.csv", event="Open A")


def test_a_missing_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PairingError, match=r"^nope\.csv: cannot read \(No such file"):
        load_pairings("nope.csv")


# ------------------------------------------------------------------------------------------ one pairing
def test_check_pairing_folds_spaces_and_keeps_unknown_names_as_none():
    assert check_pairing({"event": None, "round": 3, "table": 12,
                          "players": {"left": "  Srisuk,   Somchai ", "right": None}}) == \
        pairing(None, 3, 12, "Srisuk, Somchai", None)
    assert check_pairing(pairing("7", 1, 1, "", "B"))["players"] == {"left": None, "right": "B"}


@pytest.mark.parametrize("obj, message", [
    ([], "a pairing is an object, not list"),
    ({"event": None, "round": 1, "table": 1}, "pairing without players"),
    (pairing(None, 0, 1, "A", "B"), "round 0 is not 1 or more"),
    (pairing(None, 1, True, "A", "B"), "table True is not a whole number"),
    (pairing("a b", 1, 1, "A", "B"), "event 'a b' has spaces"),
    (pairing(None, 1, 1, "A", 7), "player name 7 is not text"),
])
def test_check_pairing_refuses(obj, message):
    with pytest.raises(PairingError, match="^" + message):
        check_pairing(obj)


def test_check_pairing_refuses_control_characters_and_hash():
    assert check_pairing(pairing(None, 1, 1, "A\nB", "C"))["players"]["left"] == "A B"  # white space: folded
    with pytest.raises(PairingError, match="holds a control character"):
        check_pairing(pairing(None, 1, 1, "A\x00B", "C"))
    with pytest.raises(PairingError, match="holds '#'"):
        check_pairing(pairing(None, 1, 1, "A", "#1"))
