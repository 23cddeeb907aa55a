"""Strict validation: every class of mistake is one RuleError line "<file>: <dotted.key>: <what is wrong>"."""
from __future__ import annotations

from pathlib import Path

import pytest

from gameclock.core.control import Stage
from gameclock.rules.loader import RuleError, load_preset

S = 10**9
MIN = 60 * S

BASE_PRESET = {"id": '"x"', "name": '"Test"', "short": '"TEST"', "event": '"crossword"', "rules": '["XW-2"]'}
BASE_CLOCK = {"mode": '"countdown"', "time": '"22:00"'}


def render(preset: dict | None = None, clock: dict | None = None, extra: str = "") -> str:
    """A rule file from BASE_* with keys overridden (value: TOML source text) or removed (value None)."""

    def table(name: str, base: dict, changes: dict | None) -> str:
        values = {**base, **(changes or {})}
        lines = [f"{k} = {v}" for k, v in values.items() if v is not None]
        return f"[{name}]\n" + "\n".join(lines) + "\n"

    return table("preset", BASE_PRESET, preset) + "\n" + table("clock", BASE_CLOCK, clock) + extra


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(text: str, name: str = "x") -> Path:
    path = Path(f"{name}.toml")
    path.write_text(text, encoding="utf-8")
    return path


def error(text: str, name: str = "x") -> RuleError:
    path = write(text, name)
    with pytest.raises(RuleError) as info:
        load_preset(path)
    return info.value


def check(err: RuleError, key: str | None, fragment: str, file: str = "x.toml") -> None:
    message = str(err)
    assert "\n" not in message and "\r" not in message, message
    prefix = f"{file}: {key}: " if key else f"{file}: "
    assert message.startswith(prefix), message
    assert fragment in message, message
    assert err.key == key and err.file == file


def test_base_file_is_valid(in_tmp: Path) -> None:
    p = load_preset(write(render()))
    assert p.id == "x" and p.control.initial_ns(0) == 22 * MIN


def test_message_format_matches_the_documented_example(in_tmp: Path) -> None:
    (in_tmp / "rules").mkdir()
    path = in_tmp / "rules" / "x.toml"
    path.write_text(render(clock={"time": '"22:75"'}), encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_preset(path)  # absolute path under the working directory: shown relative
    assert str(info.value) == "rules/x.toml: clock.time: bad time '22:75' (seconds must be 00-59; write M:SS or H:MM:SS)"


def test_path_outside_cwd_is_shown_in_full(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text(render(clock={"time": '"22:75"'}), encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_preset(path)
    assert str(info.value).startswith(f"{path}: clock.time: ")


# --- the error classes ----------------------------------------------------------------------------------


def test_unknown_key(in_tmp: Path) -> None:
    check(error(render(clock={"incremnt": '"0:03"'})), "clock.incremnt", "unknown key (did you mean 'increment'?)")
    check(error(render(preset={"author": '"me"'})), "preset.author", "unknown key")


def test_unknown_table(in_tmp: Path) -> None:
    check(error(render(extra="\n[score]\nwin = 2\n")), "score", "unknown table (a rule file has only [preset], "
                                                              "[clock], [scoring], [counting] and [standings]) "
                                                              "(did you mean 'scoring'?)")
    check(error(render(extra="\n[clock.extra]\nx = 1\n")), "clock.extra", "unknown key")


def test_unknown_top_level_key(in_tmp: Path) -> None:
    check(error('mode = "countdown"\n' + render()), "mode", "unknown key")


def test_bad_time(in_tmp: Path) -> None:
    check(error(render(clock={"time": '"22:75"'})), "clock.time", "bad time '22:75' (seconds must be 00-59")
    check(error(render(clock={"time": '"abc"'})), "clock.time", "bad time 'abc'")
    check(error(render(clock={"time": '""'})), "clock.time", "bad time ''")
    check(error(render(clock={"time": '"-5:00"'})), "clock.time", "negative")
    check(error(render(clock={"low_time": '["1:00", "0:6"]'})), "clock.low_time[1]", "bad time '0:6'")
    check(error(render(clock={"time": None, "stages": '[{time = "1:30:00", moves = 40}, {time = "30:61"}]'})),
          "clock.stages[1].time", "bad time '30:61'")


@pytest.mark.parametrize(
    ("preset", "clock", "key"),
    [
        ({"id": None}, {}, "preset.id"),
        ({"name": None}, {}, "preset.name"),
        ({"event": None}, {}, "preset.event"),
        ({"rules": None}, {}, "preset.rules"),
        ({}, {"mode": None}, "clock.mode"),
        ({}, {"time": None}, "clock.time"),
        ({}, {"mode": '"per_move"', "time": None}, "clock.move_time"),
        ({}, {"mode": '"round"', "time": None}, "clock.time"),
        ({}, {"mode": '"gamecut"', "time": None}, "clock.time"),
        ({}, {"time": None, "time_left": '"5:00"'}, "clock.time_right"),
        ({}, {"delay": '"0:03"'}, "clock.delay_kind"),
        ({}, {"byoyomi_periods": "5"}, "clock.byoyomi_period"),
        ({}, {"time": None, "stages": '[{time = "1:30:00"}, {time = "30:00"}]'}, "clock.stages[0].moves"),
        ({}, {"time": None, "stages": '[{moves = 40}, {time = "30:00"}]'}, "clock.stages[0].time"),
        ({}, {"mode": '"per_move"', "time": None, "move_time": '"2:00"', "extensions": '[{count = 2}]'},
         "clock.extensions[0].time"),
    ],
)
def test_missing_field(in_tmp: Path, preset: dict, clock: dict, key: str) -> None:
    check(error(render(preset, clock)), key, "missing")


def test_missing_tables(in_tmp: Path) -> None:
    check(error(render().split("[clock]")[0]), "clock", "missing table")
    check(error("[clock]\n" + render().split("[clock]")[1]), "preset", "missing table")


@pytest.mark.parametrize(
    ("preset", "clock", "key", "fragment"),
    [
        ({}, {"time": "22"}, "clock.time", 'expected a time string like "22:00", got integer 22'),
        ({}, {"time": "22.0"}, "clock.time", "got float 22.0"),
        ({}, {"negative": '"yes"'}, "clock.negative", "expected true or false, got string 'yes'"),
        ({}, {"negative": "1"}, "clock.negative", "expected true or false, got integer 1"),
        ({}, {"negative": "true", "penalty_points_per_minute": "true"}, "clock.penalty_points_per_minute",
         "expected an integer, got true"),
        ({}, {"negative": "true", "penalty_points_per_minute": "10.0"}, "clock.penalty_points_per_minute",
         "expected an integer, got float 10.0"),
        ({}, {"negative": "true", "penalty_points_per_minute": '"10"'}, "clock.penalty_points_per_minute",
         "expected an integer, got string '10'"),
        ({}, {"byoyomi_periods": "true", "byoyomi_period": '"0:30"'}, "clock.byoyomi_periods", "expected an integer"),
        ({}, {"mode": "1"}, "clock.mode", "expected a string"),
        ({"rules": '"XW-2"'}, {}, "preset.rules", "expected an array"),
        ({"rules": "[2]"}, {}, "preset.rules[0]", "expected a rule ID string"),
        ({"name": "5"}, {}, "preset.name", "expected a string, got integer 5"),
        ({}, {"low_time": '"1:00"'}, "clock.low_time", "expected an array of times"),
        ({}, {"time": None, "stages": '"1:30:00"'}, "clock.stages", "expected an array of tables"),
        ({}, {"time": None, "stages": '[{time = "5:00", moves = "40"}, {time = "1:00"}]'}, "clock.stages[0].moves",
         "expected an integer"),
    ],
)
def test_wrong_type(in_tmp: Path, preset: dict, clock: dict, key: str, fragment: str) -> None:
    check(error(render(preset, clock)), key, fragment)


def test_preset_table_of_wrong_type(in_tmp: Path) -> None:
    check(error('preset = "x"\n' + render().split("\n", 6)[-1]), "preset", "expected a table")


@pytest.mark.parametrize(
    ("clock", "key"),
    [
        ({"move_time": '"2:00"'}, "clock.move_time"),
        ({"announce": '["0:30"]'}, "clock.announce"),
        ({"bonus_points_per_minute": "3"}, "clock.bonus_points_per_minute"),
        ({"cut_warnings": '["10:00"]'}, "clock.cut_warnings"),
        ({"mode": '"round"', "negative": "true"}, "clock.negative"),
        ({"mode": '"round"', "sequence": '["30:00"]'}, "clock.sequence"),
        ({"mode": '"gamecut"', "low_time": '["1:00"]'}, "clock.low_time"),
        ({"mode": '"per_move"', "time": None, "move_time": '"2:00"', "increment": '"0:03"'}, "clock.increment"),
        ({"mode": '"per_move"'}, "clock.time"),
    ],
)
def test_key_of_another_mode(in_tmp: Path, clock: dict, key: str) -> None:
    mode = (clock.get("mode") or '"countdown"').strip('"')
    check(error(render(clock=clock)), key, f"not used by mode '{mode}'")


@pytest.mark.parametrize(
    ("rules", "key", "fragment"),
    [
        ('["XW2"]', "preset.rules[0]", "'XW2' is not a rule ID"),
        ('["xw-2"]', "preset.rules[0]", "is not a rule ID"),
        ('["XW-2", "XY-1"]', "preset.rules[1]", "'XY-1' is not a rule ID"),
        ('["XW-"]', "preset.rules[0]", "is not a rule ID"),
        ('["XW-2 "]', "preset.rules[0]", "is not a rule ID"),
        ('["MR-1"]', "preset.rules[0]", "does not belong to event 'crossword'"),
        ('["XW-2", "XW-2"]', "preset.rules[1]", "listed twice"),
        ("[]", "preset.rules", "at least one rule ID"),
    ],
)
def test_bad_rule_id(in_tmp: Path, rules: str, key: str, fragment: str) -> None:
    check(error(render(preset={"rules": rules})), key, fragment)


def test_rule_ids_of_the_clock_itself_and_custom_events(in_tmp: Path) -> None:
    assert load_preset(write(render(preset={"rules": '["XW-2", "CL-3"]'}))).rule_ids == ("XW-2", "CL-3")
    custom = load_preset(write(render(preset={"event": '"custom"', "rules": "[]"})))
    assert custom.rule_ids == () and custom.event == "custom"


def test_id_must_match_file_name(in_tmp: Path) -> None:
    check(error(render(preset={"id": '"crossword"'}), name="x"), "preset.id",
          "'crossword' does not match the file name 'x.toml'")


def test_id_pattern(in_tmp: Path) -> None:
    check(error(render(preset={"id": '"X"'}), name="X"), "preset.id", "not a valid id", file="X.toml")


def test_toml_syntax_error(in_tmp: Path) -> None:
    err = error(render().replace('time = "22:00"', 'time = "22:00'))
    check(err, None, "TOML syntax error")
    assert "line 10" in str(err)
    check(error(render() + 'time = "20:00"\n'), None, "TOML syntax error")  # duplicate key


def test_unreadable_files(in_tmp: Path) -> None:
    with pytest.raises(RuleError) as info:
        load_preset("missing.toml")
    check(info.value, None, "cannot read", file="missing.toml")
    Path("latin.toml").write_bytes(render(preset={"id": '"latin"', "name": '"Caf\xe9"'}).encode("latin-1"))
    with pytest.raises(RuleError) as info:
        load_preset("latin.toml")
    check(info.value, None, "not UTF-8", file="latin.toml")


def test_per_side_keys_mixed_with_time(in_tmp: Path) -> None:
    check(error(render(clock={"time_left": '"5:00"', "time_right": '"3:00"'})), "clock.time_left",
          "either time (both sides) or time_left + time_right")


# --- values that are out of range or contradict each other ----------------------------------------------


@pytest.mark.parametrize(
    ("preset", "clock", "key", "fragment"),
    [
        ({}, {"time": '"0:00"'}, "clock.time", "must be more than 0:00"),
        ({}, {"tenths_below": '"0:00"'}, "clock.tenths_below", "must be more than 0:00"),
        ({}, {"delay": '"0:00"', "delay_kind": '"simple"'}, "clock.delay", "must be more than 0:00"),
        ({}, {"mode": '"gamecut"', "extra_turns": "-1"}, "clock.extra_turns", "at least 0"),
        ({}, {"negative": "true", "penalty_points_per_minute": "-10"}, "clock.penalty_points_per_minute", "at least 0"),
        ({}, {"byoyomi_periods": "0", "byoyomi_period": '"0:30"'}, "clock.byoyomi_periods", "at least 1"),
        ({}, {"low_time": '["22:00"]'}, "clock.low_time[0]", "must be less than the starting time"),
        ({}, {"low_time": '["1:00", "1:00"]'}, "clock.low_time[1]", "listed twice"),
        ({}, {"low_time": "[]"}, "clock.low_time", "must not be empty"),
        ({}, {"mode": '"per_move"', "time": None, "move_time": '"2:00"', "announce": '["2:00"]'},
         "clock.announce[0]", "less than clock.move_time"),
        ({}, {"mode": '"per_move"', "time": None, "move_time": '"2:00"', "extensions": '[{count = 0, time = "5:00"}]'},
         "clock.extensions[0].count", "at least 1"),
        ({}, {"mode": '"per_move"', "time": None, "move_time": '"2:00"',
              "extensions": '[{count = 1, time = "5:00", moves = 3}]'}, "clock.extensions[0].moves", "unknown key"),
        ({}, {"mode": '"gamecut"', "time": '"50:00"', "cut_warnings": '["50:00"]'}, "clock.cut_warnings[0]",
         "less than clock.time"),
        ({}, {"penalty_points_per_minute": "10"}, "clock.penalty_points_per_minute", "needs negative = true"),
        ({}, {"delay_kind": '"simple"'}, "clock.delay_kind", "needs clock.delay"),
        ({}, {"delay": '"0:03"', "delay_kind": '"fischer"'}, "clock.delay_kind", "unknown delay kind 'fischer'"),
        ({}, {"increment": '"0:03"', "delay": '"0:03"', "delay_kind": '"simple"'}, "clock.delay",
         "cannot be combined with increment"),
        ({}, {"hourglass": "true", "byoyomi_periods": "3", "byoyomi_period": '"0:30"'}, "clock.hourglass",
         "cannot be combined with byoyomi"),
        ({}, {"negative": "true", "hourglass": "true"}, "clock.negative", "cannot be combined with hourglass"),
        ({}, {"time": None, "stages": '[{time = "1:30:00", moves = 40}, {time = "30:00", moves = 0}]'},
         "clock.stages[1].moves", "at least 1"),
        ({}, {"stages": '[{time = "5:00"}]'}, "clock.stages", "either stages or clock.time"),
        ({}, {"time": None, "stages": '[{time = "5:00"}]', "increment": '"0:03"'}, "clock.increment",
         "give each stage its own increment"),
        ({}, {"sequence": '["30:00", "25:00"]'}, "clock.sequence", "remove clock.time"),
        ({}, {"mode": '"per-move"'}, "clock.mode", "unknown mode 'per-move' (one of countdown, per_move, round, gamecut)"),
        ({"event": '"chess"'}, {}, "preset.event", "unknown event 'chess'"),
        ({"short": '"CROSSWORD 22"'}, {}, "preset.short", "at most 10"),
        ({"short": '"ครอสเวิร์ด"'}, {}, "preset.short", "printable ASCII"),
        ({"name": '"  "'}, {}, "preset.name", "must not be empty"),
    ],
)
def test_bad_values(in_tmp: Path, preset: dict, clock: dict, key: str, fragment: str) -> None:
    check(error(render(preset, clock)), key, fragment)


# --- what the loader builds from the optional keys --------------------------------------------------------


def test_optional_keys_build_the_control(in_tmp: Path) -> None:
    p = load_preset(write(render(
        preset={"short": None},
        clock={"low_time": '["0:30", "2:00", "1:00"]', "tenths_below": '"0:10"', "increment": '"0:02.5"'},
    )))
    assert p.short == "X"  # default: the id in capitals
    assert p.control.low_time_ns == (120 * S, 60 * S, 30 * S)  # thresholds sorted, largest first
    assert p.control.tenths_below_ns == 10 * S
    assert p.control.stages_left == (Stage(22 * MIN, None, 2 * S + S // 2),)


def test_handicap_with_increment(in_tmp: Path) -> None:
    p = load_preset(write(render(clock={"time": None, "time_left": '"5:00"', "time_right": '"3:00"',
                                        "increment": '"0:02"'})))
    assert p.control.stages_left == (Stage(5 * MIN, None, 2 * S),)
    assert p.control.stages_right == (Stage(3 * MIN, None, 2 * S),)
    assert p.summary == "left 5:00 +2s / right 3:00 +2s"


def test_sequence_keeps_its_order(in_tmp: Path) -> None:
    p = load_preset(write(render(clock={"time": None, "sequence": '["10:00", "20:00"]'})))
    assert p.sequence == (10 * MIN, 20 * MIN)
    assert p.control_for(1).initial_ns(0) == 20 * MIN


def test_later_stage_may_add_no_time(in_tmp: Path) -> None:
    p = load_preset(write(render(clock={"time": None,
                                        "stages": '[{time = "5:00", moves = 10}, {time = "0:00", increment = "0:05"}]'})))
    assert p.control.stages_left == (Stage(5 * MIN, 10, 0), Stage(0, None, 5 * S))
    check(error(render(clock={"time": None, "stages": '[{time = "0:00", moves = 10}, {time = "5:00"}]'})),
          "clock.stages[0].time", "must be more than 0:00")


def test_last_stage_with_moves_repeats(in_tmp: Path) -> None:
    p = load_preset(write(render(clock={"time": None,
                                        "stages": '[{time = "2:00:00", moves = 40}, {time = "1:00:00", moves = 20}]'})))
    assert p.control.stages_left == (Stage(120 * MIN, 40), Stage(60 * MIN, 20))
    assert p.summary == "2:00:00/40 moves then +1:00:00/20 moves repeating"
