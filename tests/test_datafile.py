"""gameclock.datafile, the one strict reader of the data files: each typed getter, ranges, unknown keys with a
did-you-mean, and every error one line naming the file and the dotted key."""
from __future__ import annotations

from pathlib import Path

import pytest

from gameclock.dataerrors import DataError
from gameclock.datafile import REQUIRED, Section, load
from gameclock.device.wiring import WiringError
from gameclock.rules.loader import RuleError
from gameclock.rules.timefmt import parse_time

S = 10**9


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def read(text: str, *, error: type[DataError] = DataError) -> Section:
    path = Path("d.toml")
    path.write_text(text, encoding="utf-8")
    return load(path, error=error, parse_time=parse_time)


def fails(call, *args, **kwargs) -> str:
    """The message of the DataError `call` raises, checked to be one line naming the file."""
    with pytest.raises(DataError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert "\n" not in message and message.startswith("d.toml: "), message
    return message


# --- the file and the error ----------------------------------------------------------------------------------


def test_the_error_is_one_line_with_file_key_and_problem() -> None:
    err = DataError(Path.cwd() / "d.toml", "clock.time", "bad\n  time")
    assert str(err) == "d.toml: clock.time: bad time"  # the path shown relative to the working directory
    assert (err.file, err.key, err.problem) == ("d.toml", "clock.time", "bad time")
    assert str(DataError("d.toml", None, "cannot read")) == "d.toml: cannot read"
    assert issubclass(RuleError, DataError) and issubclass(WiringError, DataError)
    assert issubclass(DataError, ValueError)


def test_load_refuses_what_is_not_a_toml_file() -> None:
    assert fails(load, "d.toml").startswith("d.toml: cannot read (")
    Path("d.toml").write_bytes(b"# caf\xe9\n")
    assert fails(load, "d.toml") == "d.toml: not UTF-8 text (byte 5)"
    Path("d.toml").write_text("a = 1\na = 2\n", encoding="utf-8")
    assert fails(load, "d.toml").startswith("d.toml: TOML syntax error: ")


def test_errors_are_of_the_class_load_was_given() -> None:
    with pytest.raises(RuleError):
        read("a = true", error=RuleError).get_int("a")
    with pytest.raises(WiringError, match="cannot read"):
        load("missing.toml", error=WiringError)


def test_keys_are_dotted_from_the_top() -> None:
    top = read("[display.i2c]\nbus = 1\n")
    display = top.section("display")
    i2c = display.section("i2c")
    assert (top.key(None), top.key("display"), display.key(None), i2c.key("bus"), i2c.key("x[2]")) == \
        (None, "display", "display", "display.i2c.bus", "display.i2c.x[2]")
    assert str(i2c.error("bus", "nope")) == "d.toml: display.i2c.bus: nope"
    assert str(top.error(None, "nope")) == "d.toml: nope"
    assert list(i2c) == ["bus"] and "bus" in i2c and "port" not in i2c


# --- scalars -----------------------------------------------------------------------------------------------


def test_get_str() -> None:
    t = read('name = "Crossword"\nblank = "  "\nnumber = 5\n')
    assert t.get_str("name") == "Crossword"
    assert t.get_str("other", None) is None and t.get_str("other", "x") == "x"
    assert fails(t.get_str, "other") == "d.toml: other: missing (required)"
    assert fails(t.get_str, "other", missing="required: who the preset is for") == \
        "d.toml: other: missing (required: who the preset is for)"
    assert fails(t.get_str, "number") == "d.toml: number: expected a string, got integer 5"
    assert fails(t.get_str, "blank") == "d.toml: blank: must not be empty"


def test_get_int_and_its_ranges() -> None:
    t = read("n = 9\nflag = true\nf = 1.5\ntext = \"9\"\naddress = 0x78\n")
    assert t.get_int("n") == 9 and t.get_int("absent", 30) == 30 and t.get_int("absent", None) is None
    assert t.get_int("n", minimum=9, maximum=9) == 9 and t.get_int("n", between=(1, 9)) == 9
    assert fails(t.get_int, "absent") == "d.toml: absent: missing (required)"
    assert fails(t.get_int, "flag") == "d.toml: flag: expected an integer, got true"
    assert fails(t.get_int, "f") == "d.toml: f: expected an integer, got float 1.5"
    assert fails(t.get_int, "text") == "d.toml: text: expected an integer, got string '9'"
    assert fails(t.get_int, "n", minimum=10) == "d.toml: n: must be at least 10, got 9"
    assert fails(t.get_int, "n", maximum=8) == "d.toml: n: must be at most 8, got 9"
    assert fails(t.get_int, "n", between=(1, 8)) == "d.toml: n: must be 1-8, got 9"
    assert fails(t.get_int, "address", between=(0x03, 0x77), hexadecimal=True) == \
        "d.toml: address: must be 0x03-0x77, got 0x78"
    assert t.get_int("absent", 0, minimum=1) == 0  # a default is not range-checked


def test_get_bool() -> None:
    t = read('yes = true\nno = false\nword = "yes"\none = 1\n')
    assert t.get_bool("yes") is True and t.get_bool("no", True) is False and t.get_bool("absent", True) is True
    assert fails(t.get_bool, "word") == "d.toml: word: expected true or false, got string 'yes'"
    assert fails(t.get_bool, "one") == "d.toml: one: expected true or false, got integer 1"
    assert fails(t.get_bool, "absent") == "d.toml: absent: missing (required)"


def test_get_choice_with_a_noun() -> None:
    t = read('mode = "per-move"\ngood = "round"\nnumber = 1\nempty = ""\n')
    modes = ("countdown", "per_move", "round")
    assert t.get_choice("good", modes) == "round" and t.get_choice("absent", modes, "countdown") == "countdown"
    assert fails(t.get_choice, "mode", modes, noun="mode") == \
        "d.toml: mode: unknown mode 'per-move' (one of countdown, per_move, round) (did you mean 'per_move'?)"
    assert fails(t.get_choice, "absent", modes) == \
        "d.toml: absent: missing (required: one of countdown, per_move, round)"
    assert fails(t.get_choice, "absent", modes, missing="required") == "d.toml: absent: missing (required)"
    assert fails(t.get_choice, "number", modes) == "d.toml: number: expected a string, got integer 1"
    assert fails(t.get_choice, "empty", modes) == "d.toml: empty: must not be empty"


def test_get_choice_without_a_noun() -> None:
    t = read('driver = "ssd1309"\nnumber = 1\n')
    drivers = ("ssd1306", "sh1106")
    assert fails(t.get_choice, "driver", drivers, noun=None) == \
        "d.toml: driver: expected one of ssd1306, sh1106, got string 'ssd1309' (did you mean 'ssd1306'?)"
    assert fails(t.get_choice, "number", drivers, noun=None) == \
        "d.toml: number: expected one of ssd1306, sh1106, got integer 1"


# --- times (ns) --------------------------------------------------------------------------------------------


def test_get_time_in_nanoseconds() -> None:
    t = read('time = "22:00"\nzero = "0:00"\nbad = "22:75"\nnumber = 22\n')
    assert t.get_time("time") == 22 * 60 * S and t.get_time("absent", 0) == 0
    assert t.get_time("zero", allow_zero=True) == 0
    assert fails(t.get_time, "zero") == "d.toml: zero: must be more than 0:00, got '0:00'"
    assert fails(t.get_time, "bad") == \
        "d.toml: bad: bad time '22:75' (seconds must be 00-59; write M:SS or H:MM:SS)"  # the parser's own message
    assert fails(t.get_time, "number") == 'd.toml: number: expected a time string like "22:00", got integer 22'
    assert fails(t.get_time, "absent", missing="required: the round's time") == \
        "d.toml: absent: missing (required: the round's time)"


def test_a_time_needs_the_parser_load_was_given() -> None:
    Path("d.toml").write_text('time = "1:00"\n', encoding="utf-8")
    with pytest.raises(TypeError, match="no time parser"):
        load("d.toml").get_time("time")


def test_get_times() -> None:
    t = read('low = ["0:30", "1:00"]\ntwice = ["1:00", "1:00"]\nlong = ["0:30", "5:00"]\nempty = []\n'
             'one = "1:00"\nzero = ["0:00"]\n')
    assert t.get_times("low") == (60 * S, 30 * S)  # thresholds: longest first
    assert t.get_times("low", descending=False) == (30 * S, 60 * S)
    assert t.get_times("twice", descending=False) == (60 * S, 60 * S)
    assert t.get_times("absent", ()) == ()
    assert fails(t.get_times, "twice") == "d.toml: twice[1]: '1:00' is listed twice"
    assert fails(t.get_times, "long", below=2 * 60 * S, below_what="clock.time (2:00)") == \
        "d.toml: long[1]: '5:00' must be less than clock.time (2:00)"
    assert fails(t.get_times, "empty") == "d.toml: empty: must not be empty (leave the key out instead)"
    assert fails(t.get_times, "one") == 'd.toml: one: expected an array of times like ["1:00"], got string \'1:00\''
    assert fails(t.get_times, "zero") == "d.toml: zero[0]: must be more than 0:00, got '0:00'"


# --- arrays and tables -------------------------------------------------------------------------------------


def test_get_list_and_its_items() -> None:
    t = read('rules = ["XW-2", 2]\nnone = []\nword = "XW-2"\n')
    assert t.get_list("rules") == ["XW-2", 2] and t.get_list("absent", None) is None
    assert t.get_list("none", empty=None) == []
    assert fails(t.get_list, "none") == "d.toml: none: must not be empty (leave the key out instead)"
    assert fails(t.get_list, "none", empty="must cite at least one rule") == "d.toml: none: must cite at least one rule"
    assert fails(t.get_list, "word", expected="an array of rule IDs") == \
        "d.toml: word: expected an array of rule IDs, got string 'XW-2'"
    assert fails(t.get_list, "absent") == "d.toml: absent: missing (required)"
    assert fails(t.as_str, 2, "rules[1]") == "d.toml: rules[1]: expected a string, got integer 2"
    assert fails(t.as_int, 0, "caps.primary[0]", minimum=1) == "d.toml: caps.primary[0]: must be at least 1, got 0"


def test_section() -> None:
    t = read('preset = "x"\nempty = {}\n[clock]\nmode = "round"\n')
    clock = t.section("clock")
    assert isinstance(clock, Section) and clock.prefix == "clock" and clock.get_str("mode") == "round"
    assert t.section("absent", None) is None
    assert fails(t.section, "absent") == "d.toml: absent: missing table (add a [absent] section)"
    assert fails(clock.section, "extra") == "d.toml: clock.extra: missing table (add a [clock.extra] section)"
    assert fails(t.section, "preset") == "d.toml: preset: expected a table [preset], got string 'x'"
    assert fails(t.section, "preset", like="primary = 50") == \
        "d.toml: preset: expected a table [preset] like primary = 50, got string 'x'"
    assert fails(t.section, "empty", nonempty=True) == "d.toml: empty: must not be empty (leave the table out instead)"
    assert fails(t.section, "clock", allowed=("time",)) == "d.toml: clock.mode: unknown key"


def test_sections_an_array_of_tables() -> None:
    t = read('stages = [{time = "1:30:00", moves = 40}, {time = "30:00"}]\nnone = []\nmixed = [{time = "1:00"}, 2]\n')
    first, second = t.sections("stages", like='[{time = "5:00"}]')
    assert (first.prefix, second.prefix) == ("stages[0]", "stages[1]")
    assert first.get_int("moves") == 40 and second.get_time("time") == 30 * 60 * S
    assert fails(second.get_int, "moves") == "d.toml: stages[1].moves: missing (required)"
    assert t.sections("absent", [], like="x") == []
    assert fails(t.sections, "none", like="x") == "d.toml: none: must not be empty (leave the key out instead)"
    assert fails(t.sections, "mixed", like='[{time = "5:00"}]') == \
        'd.toml: mixed: expected an array of tables like [{time = "5:00"}], got array'


# --- unknown keys ------------------------------------------------------------------------------------------


def test_check_keys_refuses_an_unknown_key_with_a_did_you_mean() -> None:
    t = read('[clock]\nmode = "round"\nincremnt = "0:03"\n')
    clock = t.section("clock")
    assert fails(clock.check_keys, ("mode", "increment")) == \
        "d.toml: clock.incremnt: unknown key (did you mean 'increment'?)"
    assert fails(clock.check_keys, ("mode", "time")) == "d.toml: clock.incremnt: unknown key"
    assert fails(clock.check_keys, ("mode",), not_used=("incremnt",), why="by mode 'round'") == \
        "d.toml: clock.incremnt: not used by mode 'round'"
    clock.check_keys(("mode", "incremnt"))


def test_check_keys_at_the_top_says_table_or_key() -> None:
    t = read('mode = "x"\n[score]\nwin = 2\n')
    note = "a file has only [scoring]"
    assert fails(t.check_keys, ("mode", "scoring"), note=note) == \
        "d.toml: score: unknown table (a file has only [scoring]) (did you mean 'scoring'?)"
    assert fails(t.check_keys, ("scoring",), note=note) == "d.toml: mode: unknown key (a file has only [scoring])"


def test_refuse_names_the_first_present_key_in_the_given_order() -> None:
    t = read("right = 4\nleft = 17\n")
    t.refuse(("lever_left", "lever_right"), "with players.input = 'lever'")
    assert fails(t.refuse, ("left", "right"), "with players.input = 'lever'") == \
        "d.toml: left: not used with players.input = 'lever'"


def test_check_unused_refuses_a_key_no_getter_asked_for() -> None:
    t = read('[knob]\na = 5\npsuh = 13\n[buzzer]\npin = 18\n')
    knob = t.section("knob")
    buzzer = t.section("buzzer")
    knob.get_int("a")
    knob.get_int("push", None)  # asked for, absent: a did-you-mean candidate
    buzzer.get_int("pin")
    assert knob.asked == {"a", "push"}
    assert fails(t.check_unused) == "d.toml: knob.psuh: unknown key (did you mean 'push'?)"  # the tables below too
    knob.raw("psuh")
    t.check_unused()


def test_required_is_the_default_of_every_getter() -> None:
    assert repr(REQUIRED) == "REQUIRED"
    t = read("x = 1\n")
    assert fails(t.get_int, "y", REQUIRED) == "d.toml: y: missing (required)"


# --- files read honestly (issue 13 hole 8: check-rules hung on /dev/zero, tracebacked on deep nesting) ----------


def test_what_is_not_a_regular_file_is_refused_without_reading_it() -> None:
    # issue 13 hole 8: `check-rules /dev/zero` read for ever; a FIFO without a writer would block the open
    with pytest.raises(DataError) as info:
        load("/dev/zero")
    assert str(info.value) == "/dev/zero: not a regular file (a character device)"
    import os
    os.mkfifo("d.toml")
    assert fails(load, "d.toml") == "d.toml: not a regular file (a pipe (FIFO))"
    os.remove("d.toml")
    os.mkdir("d.toml")
    assert fails(load, "d.toml") == "d.toml: not a regular file (a folder)"


def test_a_file_over_the_size_limit_is_refused() -> None:
    # issue 13 hole 8: 256 KiB is the limit; a comment of 300 KiB is valid TOML but no rule file
    Path("d.toml").write_text("a = 1\n" + "#" * (300 * 1024) + "\n", encoding="utf-8")
    assert fails(load, "d.toml") == "d.toml: too large (301 KiB; at most 256 KiB)"


@pytest.mark.parametrize("value", ["[" * 5000 + "]" * 5000, "{b = " * 5000 + "1" + "}" * 5000,
                                   "[" * 9 + "]" * 9])
def test_deep_nesting_is_one_line_not_a_traceback(value: str) -> None:
    # issue 13 hole 8: tomllib recursed into a RecursionError (5,000 deep); 9 deep parses but is refused too
    Path("d.toml").write_text(f"a = {value}\n", encoding="utf-8")
    assert fails(load, "d.toml").startswith("d.toml: nested too deep")


def test_eight_deep_is_still_read() -> None:
    # the top table is level 1, then 7 arrays: the limit (rule files need 4: clock.stages[0].time)
    assert read("a = " + "[" * 7 + "]" * 7 + "\n").table["a"] == [[[[[[[]]]]]]]


def test_an_integer_of_thousands_of_digits_is_refused() -> None:
    # issue 13 hole 8: Python refuses to convert it (ValueError, not TOMLDecodeError): a traceback before
    Path("d.toml").write_text("a = " + "9" * 5000 + "\n", encoding="utf-8")
    assert fails(load, "d.toml") == "d.toml: TOML value refused: an integer of thousands of digits"


def test_every_integer_is_in_a_32_bit_range_whatever_the_key() -> None:
    # issue 13 hole 8: integers out of range; 2**31 - 1 = 2147483647 is the largest kept
    s = read("a = 2147483647\nb = 2147483648\nc = -2147483649\nd = 99999999999999999999\n")
    assert s.get_int("a") == 2147483647
    assert fails(s.get_int, "b") == "d.toml: b: must be -2147483648-2147483647, got 2147483648"
    assert fails(s.get_int, "c") == "d.toml: c: must be -2147483648-2147483647, got -2147483649"
    assert fails(s.get_int, "d", minimum=1) == "d.toml: d: must be 1-2147483647, got 99999999999999999999"


def test_a_time_over_its_maximum_names_the_allowed_range() -> None:
    # issue 13 hole 8: 99999999999 minutes was accepted; with maximum=10 h it is refused with the range
    from gameclock.rules.timefmt import format_time
    path = Path("d.toml")
    path.write_text('a = "99999999999:00"\nb = "10:00:00"\nc = "10:00:01"\n', encoding="utf-8")
    s = load(path, parse_time=parse_time, format_time=format_time)
    ten_hours = 10 * 3600 * S
    assert fails(s.get_time, "a", maximum=ten_hours) == (
        "d.toml: a: '99999999999:00' is too long: must be more than 0:00 up to 10:00:00")
    assert s.get_time("b", maximum=ten_hours) == ten_hours
    assert fails(s.get_time, "c", maximum=ten_hours, allow_zero=True) == (
        "d.toml: c: '10:00:01' is too long: must be 0:00 up to 10:00:00")


@pytest.mark.parametrize("char, name", [("\x1b", "control character U+001B"),
                                        ("\x7f", "control character U+007F"),
                                        ("\x85", "control character U+0085"), ("\n", "control character U+000A"),
                                        ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
                                        ("\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
                                        ("\u2028", "U+2028 LINE SEPARATOR")])
def test_control_characters_in_text_are_refused(char: str, name: str) -> None:
    # issue 13 hole 8: check-rules accepted control characters in names; each is named, with its place
    escaped = f"\\u{ord(char):04x}"
    s = read(f'name = "ab{escaped}c"\n')
    assert fails(s.get_str, "name") == (
        f"d.toml: name: holds {name} at character 3: remove it (names and displayed text cannot hold "
        "control characters)")


def test_thai_text_with_its_vowels_and_tone_marks_is_kept() -> None:
    # issue 13 hole 8: the refusal must not touch Thai: กิ๊ก (sara i and mai tri are combining marks)
    s = read('name = "หมากรุก กิ๊ก เกม"\n')
    assert s.get_str("name") == "หมากรุก กิ๊ก เกม"


def test_a_key_with_control_characters_is_shown_escaped() -> None:
    # issue 13 hole 8: a quoted TOML key may hold ESC; the one-line error must not send it to the terminal
    s = read('"x\\u001b[31m" = 1\n')
    message = fails(s.check_keys, ["a"])
    assert message == "d.toml: x\\x1b[31m: unknown key"
    assert "\x1b" not in message
