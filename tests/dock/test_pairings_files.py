"""Pairing files read honestly (issue 13 hole 5): malformed CSV fails at the line where the bad value
starts, numbers out of the clock's range are clear errors, ignored columns are named, and the encoding
is UTF-8 or Thai windows-874, never a guess. Expectations are worked out by hand from the bytes written."""
from __future__ import annotations

import time

import pytest

from gameclock.cli import main
from gameclock.dock.pairing import MAX_ROUND, MAX_TABLE
from gameclock.organiser import textfile
from gameclock.organiser.pairings import PairingError, load_pairings
from gameclock.organiser.store import Store
from gameclock.ui.menu import FIELDS


def pairing(event, rnd, table, left, right):
    return {"event": event, "round": rnd, "table": table, "players": {"left": left, "right": right}}


def fails(tmp_path, monkeypatch, name: str, data: bytes, **kwargs) -> str:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_bytes(data)
    with pytest.raises(PairingError) as exc:
        load_pairings(name, **kwargs)
    message = str(exc.value)
    assert "\n" not in message
    return message


def gameclock(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------------------------------ malformed CSV
UNTERMINATED = b'round,table,left,right\n1,1,"Anan,Boon\n1,2,Chai,Dee\n1,3,Eve,Fon\n'


def test_an_unterminated_quote_fails_at_its_line_and_loads_nothing(tmp_path, capsys, monkeypatch):
    # issue 13 hole 5: the quote on line 2 swallowed lines 3 and 4 into one "bye": exit 0, "0 tables loaded".
    # The open quote starts value 3 of line 2, the `left` column.
    assert fails(tmp_path, monkeypatch, "q.csv", UNTERMINATED) == (
        "q.csv:2: a quote opens value 3 (left) and does not close on this line ('\"Anan,Boon'); close it: a "
        "value cannot run onto the next line")
    db = tmp_path / "pc.db"
    code, out, err = gameclock(capsys, "pairings", "q.csv", "--db", str(db))
    assert (code, out) == (1, "")
    assert err.startswith("q.csv:2: a quote opens value 3 (left)") and err.count("\n") == 1
    with Store(db) as s:
        assert s.pairings() == [] and s.byes() == []


def test_a_quote_closed_lines_later_still_fails_where_it_opened(tmp_path, monkeypatch):
    # issue 13 hole 5: the quote of line 3 would close at line 5's first quote; the bad value starts on line 3
    data = b'round,table,left,right\n1,1,Ann,Bob\n1,2,"Cat,Dan\n1,3,Eve,Fay\n1,4,"Gil",Hal\n'
    assert fails(tmp_path, monkeypatch, "q.csv", data).startswith("q.csv:3: a quote opens value 3 (left) ")


def test_text_after_a_closing_quote_is_not_csv(tmp_path, monkeypatch):
    # issue 13 hole 5: `"An"an` -- the csv module (strict) refuses it; the line is named
    assert fails(tmp_path, monkeypatch, "q.csv", b'round,table,left,right\n1,1,"An"an,Bob\n') == (
        "q.csv:2: not CSV: ',' expected after '\"' (a quote inside a value is written twice: \"\")")


def test_an_unquoted_comma_in_a_name_shifts_the_values_and_is_refused(tmp_path, monkeypatch):
    # issue 13 hole 5: "Srisuk, Somchai" unquoted gives 5 values for 4 columns: left Srisuk, right Somchai
    data = b"round,table,left,right\n1,1,Srisuk, Somchai,Wong\n"
    assert fails(tmp_path, monkeypatch, "q.csv", data) == (
        "q.csv:2: 5 values but the header has 4 columns (the extra: 'Wong'); a value holding the separator "
        "needs quotes: \"Srisuk, Somchai\"")


def test_a_row_short_of_a_column_it_needs_is_refused(tmp_path, monkeypatch):
    # issue 13 hole 5: `1,1,Anan` was a bye for Anan without a word; trailing empty values stay fine
    assert fails(tmp_path, monkeypatch, "q.csv", b"round,table,left,right\n1,1,Anan\n") == (
        "q.csv:2: 3 values but the header has 4 columns: no value for right (for a bye write bye or leave the "
        "value empty)")
    (tmp_path / "ok.csv").write_bytes(b"round,table,left,right,notes\n1,1,Anan,Boon,,,\n1,,Chai,\n")
    got = load_pairings(tmp_path / "ok.csv")
    assert got == [pairing(None, 1, 1, "Anan", "Boon")]
    assert got.byes == [{"event": None, "round": 1, "player": "Chai", "line": 3}]


def test_a_space_before_a_quote_is_allowed(tmp_path):
    # `1, "Srisuk, Somchai", Wong`: the space after a comma is skipped, so the quote still quotes
    (tmp_path / "s.csv").write_bytes(b'round, table, left, right\n1, 1, "Srisuk, Somchai", Wong\n')
    assert load_pairings(tmp_path / "s.csv") == [pairing(None, 1, 1, "Srisuk, Somchai", "Wong")]


# ------------------------------------------------------------------------------------------ numbers
def test_the_ranges_are_the_clocks_menus():
    # issue 13 hole 5: the clock keeps only what its menu can show; the reader refuses the rest
    assert (MAX_ROUND, MAX_TABLE) == (FIELDS["round"].hi, FIELDS["table"].hi) == (99, 999)


@pytest.mark.parametrize("row, message", [
    (b"1234567890123456789012345,1,A,B",
     "q.csv:2: round 123456789012... (25 digits) is out of range (1-99, as the clock's menu takes it)"),
    (b"100,1,A,B", "q.csv:2: round 100 is out of range (1-99, as the clock's menu takes it)"),
    (b"1,1000,A,B", "q.csv:2: table 1000 is out of range (1-999, as the clock's menu takes it)"),
    (b"1," + b"9" * 5000 + b",A,B",
     "q.csv:2: table 999999999999... (5000 digits) is out of range (1-999, as the clock's menu takes it)"),
])
def test_a_round_or_table_too_large_is_a_clear_error(tmp_path, monkeypatch, row, message):
    # issue 13 hole 5: a 23-digit round was an OverflowError traceback from SQLite
    assert fails(tmp_path, monkeypatch, "q.csv", b"round,table,left,right\n" + row + b"\n") == message


def test_the_largest_round_and_table_load(tmp_path):
    (tmp_path / "q.csv").write_bytes(b"round,table,left,right\n99,999,A,B\n")
    assert load_pairings(tmp_path / "q.csv") == [pairing(None, 99, 999, "A", "B")]


def test_a_round_given_on_the_command_line_is_in_range_too(tmp_path, monkeypatch):
    assert fails(tmp_path, monkeypatch, "q.csv", b"table,left,right\n1,A,B\n", round=100) == (
        "q.csv: round 100 is out of range (1-99, as the clock's menu takes it)")


@pytest.mark.parametrize("text, message", [
    # a board (the table) of 1000
    (b"One 1500 2; ; board 1000\nTwo 1500 1; ; board 1000\n",
     "x.t:1: table 1000 is out of range (1-999, as the clock's menu takes it)"),
    # an opponent of 5,000 digits: int() refuses more than 4,300 (a ValueError traceback before)
    (b"One 1500 " + b"2" * 5000 + b";\nTwo 1500 1;\n",
     "x.t:1: opponent '22222222222222222222' is not a whole number of at most 9 digits"),
    # tsh's pattern lets a score be "5-3" ([-\d\s]*): int("5-3") was a traceback
    (b"One 1500 2; 5-3\nTwo 1500 1; 3\n", "x.t:1: score '5-3' is not a whole number of at most 9 digits"),
    (b"One 1500 2; ; p12 " + b"1" * 50 + b"\nTwo 1500 1;\n",
     "x.t:1: p12 value '11111111111111111111' for round 1 is not a whole number of at most 9 digits"),
])
def test_tsh_numbers_out_of_range(tmp_path, monkeypatch, text, message):
    # issue 13 hole 5
    assert fails(tmp_path, monkeypatch, "x.t", text) == message


def test_a_long_tsh_line_is_read_in_linear_time(tmp_path, monkeypatch):
    # issue 13 hole 5: tsh's regex backtracked (a 4 kB line of "1 1 1 ... x" took 0.14 s, 40 kB 14 s);
    # read word by word, a 200 kB line that is no tsh line is refused at once
    line = b"Name " + b"1 " * 100_000 + b"x; 1\n"
    started = time.monotonic()
    message = fails(tmp_path, monkeypatch, "x.t", line)
    assert time.monotonic() - started < 1.0
    assert message.startswith("x.t:1: not a tsh player line (NAME RATING OPPONENTS; SCORES[; key values]): ")


def test_the_word_by_word_reading_agrees_with_tshs_pattern(tmp_path):
    # tsh's lazy name: the fewest words followed by a rating and nothing but numbers up to the `;`.
    # "Jones 1 1 2;" -> name Jones, rating 1, opponents 1 and 2: player 1 meets itself in round 1.
    (tmp_path / "x.t").write_text("Jones 1 1 2;\nSmith 1500 1 1;\n", encoding="utf-8")
    with pytest.raises(PairingError, match=r"x\.t:1: Jones is paired with themself in round 1$"):
        load_pairings(tmp_path / "x.t", round=1)
    # "Smith 2nd 1500+3 1 1;": 2nd is no rating, so the name is "Smith 2nd"; ratings 1500.5 and 1500+3
    # are tsh's forms. Round 2 pairs 1 with 2: table 1, the lower id (Jones) left.
    (tmp_path / "y.t").write_text("Jones 1500.5 2 2;\nSmith 2nd 1500+3 1 1;\n", encoding="utf-8")
    assert load_pairings(tmp_path / "y.t", round=2) == [pairing(None, 2, 1, "Jones", "Smith 2nd")]


# ------------------------------------------------------------------------------------------ ignored columns
def test_extra_columns_are_named_and_the_file_still_loads(tmp_path, capsys):
    # issue 13 hole 5: score1, score2 were ignored without a word
    path = tmp_path / "r.csv"
    path.write_text("Round,Table,Player1,Player2,Score1,Score2\n3,1,Chai,Dee,,\n", encoding="utf-8")
    got = load_pairings(path)
    assert got == [pairing(None, 3, 1, "Chai", "Dee")]
    assert (got.encoding, got.ignored) == ("UTF-8", ["ignored columns score1, score2"])
    db = tmp_path / "pc.db"
    code, out, err = gameclock(capsys, "pairings", str(path), "--db", str(db))
    assert (code, err) == (0, f"{path}: ignored columns score1, score2\n")
    assert out == f"round 3 table 1: Chai v Dee\n1 table loaded into {db}\n"


def test_a_second_pair_of_player_columns_is_named_as_ignored(tmp_path):
    # left,right are read; first,second are not (PLAYER_COLUMNS' order): said, not silent
    (tmp_path / "r.csv").write_text("round,table,left,right,first,second\n1,1,A,B,C,D\n", encoding="utf-8")
    assert load_pairings(tmp_path / "r.csv").ignored == ["ignored columns first, second"]


def test_tsh_fields_not_read_are_named(tmp_path):
    (tmp_path / "x.t").write_text("One 1500 2; ; off 1; newr 1510; p12 1\nTwo 1500 1; ; newr 1490\n",
                                  encoding="utf-8")
    got = load_pairings(tmp_path / "x.t")
    assert got == [pairing(None, 1, 1, "One", "Two")]
    assert got.ignored == ["ignored tsh fields off, newr"]


# ------------------------------------------------------------------------------------------ encodings
THAI = "round,table,left,right\n1,1,สมชาย ใจดี,วันชัย ศรีสุข\n1,2,กิ๊ก,Boon\n"
THAI_WANT = [pairing(None, 1, 1, "สมชาย ใจดี", "วันชัย ศรีสุข"), pairing(None, 1, 2, "กิ๊ก", "Boon")]


def test_utf8_with_and_without_a_bom(tmp_path):
    for name, data in (("a.csv", THAI.encode()), ("b.csv", b"\xef\xbb\xbf" + THAI.encode())):
        (tmp_path / name).write_bytes(data)
        got = load_pairings(tmp_path / name)
        assert (got, got.encoding) == (THAI_WANT, "UTF-8")


def test_thai_windows_874_is_read_and_said(tmp_path, capsys):
    # issue 13 hole 5: windows-874 only for Thai text, and the command says it was used
    path = tmp_path / "th.csv"
    path.write_bytes(THAI.encode("cp874"))
    got = load_pairings(path)
    assert (got, got.encoding) == (THAI_WANT, "windows-874")
    code, out, err = gameclock(capsys, "pairings", str(path), "--db", str(tmp_path / "pc.db"))
    assert (code, err) == (0, f"{path}: read as windows-874 (Thai), not UTF-8\n")


@pytest.mark.parametrize("data, line, byte, shown", [
    # Latin-1 José: 0xE9 is é in Latin-1 and ้ (mai tho, a tone mark) in windows-874: "Jos้"
    (b"round,table,left,right\n1,1,Jos\xe9,Bob\n", 2, "0xe9", "1,1,Jos้,Bob"),
    # Latin-1 Éric: 0xC9 is ษ in windows-874, a Thai consonant touching Latin letters
    (b"round,table,left,right\n1,1,Bob,\xc9ric\n", 2, "0xc9", "1,1,Bob,ษric"),
    # Latin-1 "Ñ" alone: 0xD1 is ั (mai han-akat), a combining vowel with no consonant before it
    (b"round,table,left,right\n1,1,Bob,\xd1\n", 2, "0xd1", "1,1,Bob,ั"),
    # windows-1252 curly quotes around a Thai name: 0x93 and 0x94 are windows-874's too, but not Thai
    (b"round,table,left,right\n1,1,\x93\xca\xc1\x94,Bob\n", 2, "0x93", "1,1,\u201cสม\u201d,Bob"),
])
def test_text_that_is_not_thai_is_never_read_as_windows_874(tmp_path, monkeypatch, data, line, byte, shown):
    # issue 13 hole 5: Latin-1 "José" was read as windows-874 and loaded as "Jos้"
    assert fails(tmp_path, monkeypatch, "l.csv", data) == (
        f"l.csv:{line}: neither UTF-8 nor windows-874 (Thai): byte {byte} is not UTF-8, and read as windows-874 "
        f"the text is not Thai ({shown!r}); save the file as UTF-8")


def test_is_thai_text():
    assert textfile.is_thai_text("กิ๊ก, สมชาย 1500")
    assert not textfile.is_thai_text("1500, 1600")         # no Thai consonant
    assert not textfile.is_thai_text("ก\u00a0ข")            # windows-874's no-break space is not ASCII or Thai
    assert not textfile.is_thai_text("สมa")                 # Thai touching a Latin letter
    assert not textfile.is_thai_text(" ่ก")                  # a tone mark with nothing to sit on


# ------------------------------------------------------------------------------------------ the file itself
def test_what_is_not_a_regular_file_or_is_too_large_is_refused(tmp_path, monkeypatch):
    # issue 13 hole 5 (as hole 8's /dev/zero): read only a regular file, at most 1 MiB
    with pytest.raises(PairingError, match=r"^/dev/zero: not a regular file \(a character device\)$"):
        load_pairings("/dev/zero")
    data = b"round,table,left,right\n" + b"# padding\n" * 110_000
    assert fails(tmp_path, monkeypatch, "big.csv", data) == "big.csv: too large (2 MiB; at most 1 MiB)"


def test_a_bidi_override_in_a_name_is_refused(tmp_path, monkeypatch):
    # issue 13: U+202E turns what the organiser reads around; the clock's screens and log must not show it
    data = "round,table,left,right\n1,1,Ann\u202eB,Bob\n".encode()
    assert fails(tmp_path, monkeypatch, "b.csv", data) == (
        "b.csv:2: player name 'Ann\\u202eB' holds a control character (U+202E RIGHT-TO-LEFT OVERRIDE) (the "
        "clock's log cannot keep it)")


def test_old_mac_line_ends_and_a_huge_open_value(tmp_path, monkeypatch):
    # found by `bench files` (issue 13): a lone \r was a csv.Error traceback; now it ends a line (old Mac
    # Excel). An open quote whose value passes the csv module's 128 KiB field limit is one line of error.
    (tmp_path / "mac.csv").write_bytes(b"round,table,left,right\r1,1,Ann,Bob\r1,2,Cat,Dan\r")
    assert load_pairings(tmp_path / "mac.csv") == [pairing(None, 1, 1, "Ann", "Bob"),
                                                   pairing(None, 1, 2, "Cat", "Dan")]
    data = b'round,table,left,right\n1,1,"' + b"x" * 200_000 + b"\n"
    assert fails(tmp_path, monkeypatch, "big.csv", data) == (
        "big.csv:2: not CSV: a value longer than 131072 characters (a quote that does not close?)")
