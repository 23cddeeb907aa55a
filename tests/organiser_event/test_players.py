"""Player lists read strictly (issue 16): CSV (a header with id and name, Thai in UTF-8 or really-Thai
windows-874) and tsh `.t` (NAME RATING;), every bad line named FILE:LINE with what is wrong."""
from __future__ import annotations

import pytest
from evkit import PLAYERS_CSV

from gameclock.organiser import event as events
from gameclock.organiser.pairing.model import Player


def write(tmp_path, text: str | bytes, name: str = "players.csv"):
    path = tmp_path / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def test_a_csv_list_with_thai_and_latin_names(tmp_path):
    got = events.load_players(write(tmp_path, PLAYERS_CSV))
    assert got.encoding == "UTF-8"
    assert [str(note) for note in got.ignored] == ["ignored column score"]   # Words: the desk says them in Thai
    assert got.players[0] == Player(id="1", name="สมชาย ใจดี", latin="Somchai Jaidee", campus="โรงเรียนสาธิต",
                                    level="secondary", rating=1500)
    assert got.players[2] == Player(id="3", name="Anan Wong", campus="Satit School", level="secondary")
    assert [p.id for p in got.players] == ["1", "2", "3", "4", "5"]


def test_every_column_semicolons_a_bom_and_comments(tmp_path):
    text = ("\ufeffID;Name;Latin;Campus;Level;Team;Board;Rating;Group\n# a comment\n\n"
            "a1;ดวงใจ  ดี;Duangjai Dee;Satit;Primary;SAT;2;1234;A\nb-2;Ben;;;;;;;\n")
    got = events.load_players(write(tmp_path, text))
    assert got.ignored == []
    # spaces folded, the level in lower case, the empty numbers 0
    assert got.players == [Player("a1", "ดวงใจ ดี", "Duangjai Dee", "Satit", "primary", "SAT", 2, 1234, "A"),
                           Player("b-2", "Ben")]


def test_a_windows_874_thai_list_is_read_and_said(tmp_path):
    got = events.load_players(write(tmp_path, "id,name\n1,สมชาย\n2,มาลี\n".encode("cp874")))
    assert got.encoding == "windows-874"
    assert [p.name for p in got.players] == ["สมชาย", "มาลี"]


def test_a_latin_1_list_is_refused_not_guessed(tmp_path):
    with pytest.raises(events.EventError, match=r"players.csv:3: neither UTF-8 nor windows-874"):
        events.load_players(write(tmp_path, "id,name\n1,Ann\n2,Jos\xe9\n".encode("latin-1")))


HEAD = "id,name,level,board,rating\n"
GOOD = "1,Ann,,,\n"


@pytest.mark.parametrize("text, error", [
    ("name,level\nAnn,\n", r"players.csv:1: no 'id' column"),
    ("id,latin\n1,Ann\n", r"players.csv:1: no 'name' column"),
    ("id,name,name\n1,A,B\n", r"players.csv:1: column 'name' given twice"),
    (HEAD + GOOD + ",Ben,,,\n", r"players.csv:3: no id"),
    (HEAD + GOOD + "2 b,Ben,,,\n", r"players.csv:3: id '2 b' is not 1-16 letters"),
    (HEAD + GOOD + "x" * 17 + ",Ben,,,\n", r"players.csv:3: id 'x{17}' is not 1-16"),
    (HEAD + GOOD + "1,Ben,,,\n", r"players.csv:3: id 1 given twice \(line 2 has it\)"),
    (HEAD + GOOD + "2,ANN,,,\n", r"players.csv:3: ANN is listed twice \(line 2\)"),
    (HEAD + GOOD + "2,,,,\n", r"players.csv:3: no name for player 2"),
    (HEAD + GOOD + "2,Ben #1,,,\n", r"players.csv:3: player name 'Ben #1' holds '#'"),
    (HEAD + GOOD + "2,Ben\x1b,,,\n", r"players.csv:3: player name .* holds a control character"),
    (HEAD + GOOD + "2,Ben,tertiary,,\n", r"players.csv:3: level 'tertiary' is not one of primary, secondary"),
    (HEAD + GOOD + "2,Ben,,100,\n", r"players.csv:3: board '100' is not a whole number 0-99"),
    (HEAD + GOOD + "2,Ben,,,-5\n", r"players.csv:3: rating '-5' is not a whole number 0-9999"),
    (HEAD + GOOD + "2,Ben,,,10000\n", r"players.csv:3: rating '10000' is not a whole number 0-9999"),
    (HEAD + GOOD + "2,Srisuk, Ben,,,\n", r"players.csv:3: 6 values but the header has 5 columns"),
    (HEAD + GOOD + "2,Ben,,\n", r"players.csv:3: 4 values but the header has 5 columns"),
    (HEAD + GOOD + '2,"Ben,,,\n', r"players.csv:3: a quote opens value 2 \(name\) and does not close"),
    (HEAD + GOOD, r"players.csv: 1 player: an event needs two or more"),
    ("# nothing\n", r"players.csv: no header row"),
])
def test_each_bad_csv_line_is_named(tmp_path, text, error):
    with pytest.raises(events.EventError, match=error):
        events.load_players(write(tmp_path, text))


def test_a_list_too_large_or_not_a_file_is_refused(tmp_path):
    big = write(tmp_path, "id,name\n" + "x" * (events.MAX_FILE_BYTES + 1))  # 1 MiB + 9 bytes: shown rounded up
    with pytest.raises(events.EventError, match=r"players.csv: too large \(2 MiB; at most 1 MiB\)"):
        events.load_players(big)
    with pytest.raises(events.EventError, match=r"not a regular file \(a folder\)"):
        events.load_players(tmp_path)


def test_more_players_than_an_event_takes(tmp_path, monkeypatch):
    monkeypatch.setattr(events, "MAX_PLAYERS", 3)
    text = "id,name\n" + "".join(f"{i},P{i}\n" for i in range(1, 5))
    with pytest.raises(events.EventError, match=r"players.csv:5: more than 3 players"):
        events.load_players(write(tmp_path, text))


def test_a_tsh_list(tmp_path):
    text = "# division A\nSrisuk, Somchai 1500;\nใจดี, มาลี 1450.5;\nWong, Anan 0; ; class B\n"
    got = events.load_players(write(tmp_path, text, "a.t"))
    # ids count the player lines from 1; tsh's "Surname, Given" kept as written; 1450.5 rated 1450
    assert got.players == [Player("1", "Srisuk, Somchai", rating=1500), Player("2", "ใจดี, มาลี", rating=1450),
                           Player("3", "Wong, Anan")]
    assert [str(note) for note in got.ignored] == ["ignored tsh field class"]


@pytest.mark.parametrize("text, error", [
    ("Srisuk, Somchai 1500;\nSomchai\n", r"a.t:2: not a tsh player line \(NAME RATING;"),
    ("Srisuk, Somchai 1500;\nWong, Anan 1400 1; 350\n", r"a.t:2: Wong, Anan has opponents or scores"),
    ("Srisuk, Somchai 1500;\nWong, Anan 12000;\n", r"a.t:2: rating '12000' is more than 9999"),
    ("Srisuk, Somchai 1500;\nsrisuk, somchai 1400;\n", r"a.t:2: srisuk, somchai is listed twice \(line 1\)"),
    ("Srisuk, Somchai 1500;\n", r"a.t: 1 player: an event needs two or more"),
])
def test_each_bad_tsh_line_is_named(tmp_path, text, error):
    with pytest.raises(events.EventError, match=error):
        events.load_players(write(tmp_path, text, "a.t"))
