"""The result record (CL-5): built from a game's preset, events and result lines; every move's
duration from the events (pauses excluded, an undone press taken back), summing to the time used;
checked against the shipped JSON Schema (record.schema.json) by gameclock.record.schema_errors."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from gameclock.core import clock as core
from gameclock.core import events as core_events
from gameclock.core.log import parse_log
from gameclock.core.result import Entry, apply_entry
from gameclock.core.scoring import Scoring
from gameclock.record import (
    SCHEMA_PATH,
    build_record,
    header_info,
    iso_utc,
    load_schema,
    move_durations,
    record_from_log,
    record_id,
    schema_errors,
)
from gameclock.replay import EXTRA_VERBS, fold_game
from gameclock.rules.loader import find_preset
from gameclock.ui.menu import Settings, custom_preset

SCENARIOS = Path(__file__).parent / "scenarios"
RESULT_LOGS = sorted(SCENARIOS.glob("result-*.log"))
WALL = 1_700_000_000.25  # 2023-11-14T22:13:20.250Z


def fold(text: str):
    log = parse_log(text, "t.log", extra_verbs=EXTRA_VERBS)
    preset = find_preset(log.preset)
    state, entry = fold_game(preset, log)
    return preset, log, state, entry


def durations(text: str) -> dict:
    preset, log, state, _ = fold(text)
    return move_durations(state.control, log.events, state)


def test_id_and_wall_times():
    assert record_id("00000000a1b2c3d4", 42) == "00000000a1b2c3d4-000042"
    assert record_id("sim", 1234567) == "sim-1234567"
    assert iso_utc(WALL) == "2023-11-14T22:13:20.250Z"
    assert iso_utc(0) == "1970-01-01T00:00:00.000Z"
    assert iso_utc(None) is None


def test_move_durations_exclude_pauses_and_undone_presses():
    # hand-worked: left 10 s; right 15 s + (paused 15 s, not counted) + 10 s = 25 s; left presses at
    # 62.5 (12.5 s) but the press is undone at 70: its turn goes on to 75 (25 s); right's last turn,
    # 75 -> 80, ends with the game: 5 s.
    d = durations("""preset makruk-30
0 start left
10 press left
25 pause
40 resume
50 press right
62.5 press left
70 undo
75 press left
80 finish
""")
    assert d == {"left": [10_000, 25_000], "right": [25_000, 5_000]}


def test_move_durations_sum_exactly_to_the_whole_ms_used():
    # 0.4 ms + 1.0 ms = 1.4 ms used: 1 ms; the moves are cut on the cumulative sum: 0 and 1
    d = durations("preset makruk-30\n0 start left\n0.0004 press left\n0.0011 press right\n0.0021 finish\n")
    assert d == {"left": [0, 1], "right": [0]}


def test_move_durations_of_a_round_and_a_per_move_game():
    # SU-1: a competitor's one "move" is its solving time; MH-2: the expired move is 2:00
    assert durations("preset sudoku-60\n0 start left\n2730 press left\n3010 press right\n") == \
        {"left": [2_730_000], "right": [3_010_000]}
    assert durations("preset makhos-move\n0 start left\n30 press left\n150 finish\n") == \
        {"left": [30_000], "right": [120_000]}


def test_the_document_describes_every_key():
    doc = (Path(__file__).parents[1] / "docs" / "result-record.md").read_text(encoding="utf-8")
    schema = load_schema()
    keys = (list(schema["properties"]) + list(schema["$defs"]["side"]["properties"])
            + list(schema["properties"]["scores"]["properties"]))
    undocumented = [k for k in keys if f"`{k}`" not in doc]
    assert undocumented == []


def test_schema_file_is_json_and_self_consistent():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema == load_schema() and schema["properties"]["schema"] == {"const": 1}
    # every key is always there; `tiebreak` (MH-4, firmware 0.2) is not required, so that the PC still
    # takes the records of clocks not yet updated; `corrections` (issue 15) only when there were some
    assert set(schema["required"]) == set(schema["properties"]) - {"tiebreak", "corrections"}


@pytest.mark.parametrize("path", RESULT_LOGS, ids=[p.stem for p in RESULT_LOGS])
def test_records_of_the_result_scenarios_conform(path):
    rec = record_from_log(path.read_text(encoding="utf-8"), str(path), "TEST01", 3, WALL, WALL + 1900.5)
    assert schema_errors(rec) == []
    for side in ("left", "right"):
        s = rec["sides"][side]
        assert sum(s["move_ms"]) == s["time_used_ms"]
        assert len(s["move_ms"]) in (s["moves"], s["moves"] + 1)
    assert rec["id"] == "TEST01-000003" and rec["schema"] == 1
    assert rec["started"] == "2023-11-14T22:13:20.250Z" and rec["ended"] == "2023-11-14T22:45:00.750Z"
    assert rec["counting"] is None
    json.dumps(rec)  # plain JSON


def test_the_crossword_record_carries_the_hand_worked_result():
    path = SCENARIOS / "result-crossword-overtime.log"
    rec = record_from_log(path.read_text(encoding="utf-8"), str(path), "C1", 1, WALL, WALL + 2000)
    # XW-3: 412 - 40 = 372 against 388: right wins by 16 (XW-8 cap 250 not reached); XW-6 0 / 2
    assert rec["event"] == "3" and rec["round"] == 2 and rec["table"] == 14
    assert rec["players"] == {"left": "Somchai", "right": "Malee"}
    assert rec["preset"]["id"] == "crossword" and "XW-3" in rec["preset"]["rules"]
    assert rec["level"] == "secondary" and rec["stage"] == "qualifying"
    assert rec["kind"] == "crossword" and rec["ended_by"] == "finish"
    assert rec["outcome"] == "right" and rec["reason"] == "score"
    assert rec["scores"] == {"entered": {"left": 412, "right": 388}, "penalties": {"left": 40, "right": 0},
                             "bonus": None, "correct": None, "final": {"left": 372, "right": 388},
                             "spread": {"left": -16, "right": 16}, "cap": 250,
                             "game_points": {"left": 0, "right": 2}}
    left = rec["sides"]["left"]
    assert left["time_used_ms"] == 1_518_000 and left["move_ms"] == [600_000, 918_000]
    assert left["overtime_ms"] == 198_000 and left["penalty_points"] == 40
    assert rec["sides"]["right"]["move_ms"] == [300_000, 82_000]  # the last turn ends with the finish
    assert rec["confirmations"] == {"left": True, "right": True} and rec["confirmed"] is True
    assert [e["line"] for e in rec["entries"]][-3:] == ["score left 412", "confirm right", "confirm left"]
    assert rec["entries"][0] == {"t_ms": 1_910_000, "line": "score left 410"}


def test_the_makruk_record_has_the_pieces():
    path = SCENARIOS / "result-makruk-flag-khon.log"
    rec = record_from_log(path.read_text(encoding="utf-8"), str(path), "M1", 9)
    # MR-2: right's flag against K+Khon is a draw; MR-10 values 3 and 11
    assert (rec["outcome"], rec["reason"], rec["ended_by"]) == ("draw", "material", "flag")
    assert rec["material"] == {"left": "S", "right": "RNM"}
    assert rec["material_value"] == {"left": 3, "right": 11}
    assert rec["scores"]["entered"] is None and rec["scores"]["game_points"] == {"left": 1, "right": 1}
    assert rec["sides"]["right"]["flagged"] is True and rec["started"] is None


def test_build_record_from_the_parts_and_the_custom_preset():
    preset = custom_preset(Settings())  # no [scoring], no rule ids: kind none
    state = core.new_game(preset.control)
    events = [core_events.Start(0, 0), core_events.Press(4_000_000_000, 0), core_events.Finish(9_000_000_000)]
    for ev in events:
        state = core.apply(state, ev)
    entry = Entry()
    lines = [["outcome", "left", "resignation"], ["confirm", "right"], ["confirm", "left"]]
    for words in lines:
        entry = apply_entry(entry, words, True, Scoring(), core.view(state))
    rec = build_record(preset, {"event": 2, "round": 1, "table": 7}, state, entry, events,
                       [(9_500_000_000 + i, w) for i, w in enumerate(lines)], "sim", 1, WALL, WALL + 9)
    assert schema_errors(rec) == []
    assert rec["preset"] == {"id": "custom", "name": "Custom 15:00", "rules": []}
    assert rec["kind"] == "none" and rec["outcome"] == "left" and rec["reason"] == "resignation"
    assert rec["event"] == "2" and rec["table"] == 7 and rec["players"] == {"left": None, "right": None}
    assert rec["sides"]["left"]["move_ms"] == [4_000] and rec["sides"]["right"]["move_ms"] == [5_000]
    assert rec["scores"]["game_points"] == {"left": 2, "right": 0} and rec["level"] is None


def test_build_record_refuses_a_game_that_is_not_over():
    preset = find_preset("makruk-30")
    state = core.apply(core.new_game(preset.control), core_events.Start(0, 0))
    with pytest.raises(ValueError, match="not over"):
        build_record(preset, {}, state, Entry(), [], [], "sim", 1, None, None)


def test_header_info_from_a_log():
    log = parse_log("preset crossword\nevent 7B\nround 3\ntable 12\nlevel primary\nstage last\n"
                    "player left Somchai Jaidee\n", "t", extra_verbs=EXTRA_VERBS)
    assert header_info(log.header) == {"event": "7B", "round": 3, "table": 12, "level": "primary",
                                       "stage": "last", "players": {"left": "Somchai Jaidee", "right": None}}


def test_schema_errors_names_what_is_wrong():
    path = SCENARIOS / "result-sudoku-bonus.log"
    good = record_from_log(path.read_text(encoding="utf-8"), str(path), "S1", 1)
    assert schema_errors(good) == []
    bad = copy.deepcopy(good)
    del bad["id"]
    bad["outcome"] = "maybe"
    bad["sides"]["left"]["move_ms"][0] = -1
    bad["extra"] = 1
    bad["started"] = "yesterday"
    bad["round"] = "3"
    bad["scores"]["final"]["left"] = 1.5
    errors = schema_errors(bad)
    assert "record: missing 'id'" in errors
    assert "record: unexpected key 'extra'" in errors
    assert "record.outcome: 'maybe' is not one of ['left', 'right', 'draw', None]" in errors
    assert "record.sides.left.move_ms[0]: -1 is below 0" in errors
    assert any(e.startswith("record.started: 'yesterday' does not match") for e in errors)
    assert "record.round: expected integer or null, got \"3\"" in errors
    assert "record.scores.final.left: expected integer or null, got 1.5" in errors
    assert len(errors) == 7
    assert schema_errors(True) == ["record: expected object, got true"]



def _counted_record(preset_id: str, count_event, presses: list[int], lines: list[list[str]]):
    preset = find_preset(preset_id)
    state = core.new_game(preset.control)
    events = [core_events.Start(0, 1), count_event]
    t = 2_000_000_000
    for side in presses:
        events.append(core_events.Press(t, side))
        t += 1_000_000_000
    events.append(core_events.Finish(t))
    for ev in events:
        state = core.apply(state, ev)
    entry = Entry()
    for words in lines:
        entry = apply_entry(entry, words, True, preset.scoring, core.view(state))
    rec = build_record(preset, {"event": 1, "round": 1, "table": 1}, state, entry, events,
                       [(t + i, w) for i, w in enumerate(lines)], "sim", 3, WALL, WALL + 60)
    assert schema_errors(rec) == []
    return rec


def test_the_record_carries_the_count_and_its_outcome():
    # MR-6, MR-7 (seed 003 §10): K+2R v K, 4 pieces on the board, right the lone king: 5, 6, 7, 8 -- the limit
    rec = _counted_record("makruk-45", core_events.CountStart(1_000_000_000, "pieces", 1, "RR", 4),
                          [1, 0, 1, 0, 1, 0, 1],
                          [["outcome", "draw", "count"], ["material", "left", "RR"], ["material", "right", "-"],
                           ["confirm", "left"], ["confirm", "right"]])
    assert rec["counting"] == {"kind": "pieces", "side": "right", "count": 8, "limit": 8, "reached": True}
    assert (rec["outcome"], rec["reason"]) == ("draw", "count")


def test_the_record_of_a_count_not_at_its_limit():
    # MH-6 (makhos-30: count = "own"): the left side's own moves only, 2 of 16
    rec = _counted_record("makhos-30", core_events.CountStart(1_000_000_000, "makhos", 0),
                          [1, 0, 1, 0, 1],
                          [["outcome", "left", "resignation"], ["confirm", "left"], ["confirm", "right"]])
    assert rec["counting"] == {"kind": "makhos", "side": "left", "count": 2, "limit": 16, "reached": False}


def test_the_record_without_a_count_has_null():
    preset = find_preset("makruk-30")
    state = core.new_game(preset.control)
    for ev in (core_events.Start(0, 0), core_events.CountStart(1, "board", 0), core_events.CountStop(2),
               core_events.Finish(3)):
        state = core.apply(state, ev)
    lines = [["outcome", "left", "resignation"], ["material", "left", "R"], ["material", "right", "S"],
             ["confirm", "left"], ["confirm", "right"]]
    entry = Entry()
    for words in lines:
        entry = apply_entry(entry, words, True, preset.scoring, core.view(state))
    rec = build_record(preset, {}, state, entry, [], [(4, w) for w in lines], "sim", 1, None, None)
    assert rec["counting"] is None and schema_errors(rec) == []
    bad = copy.deepcopy(rec)
    bad["counting"] = {"kind": "board", "side": "left", "count": 3, "limit": 64}
    assert schema_errors(bad) == ["record.counting: missing 'reached'"]


def test_first_is_the_side_whose_clock_was_started():
    # result-crossword-overtime.log: "0 start left" -- left's clock runs first and left's first move
    # ends at 600 s ("600 press left"): left moved first (tsh p12 1, TRF white)
    path = SCENARIOS / "result-crossword-overtime.log"
    rec = record_from_log(path.read_text(encoding="utf-8"), str(path), "C1", 1)
    assert rec["first"] == "left"
    # result-makruk-flag-khon.log: "0 start right": right's clock ran first (its flag fell in that
    # very first turn, at 30:00): right had the first move
    path = SCENARIOS / "result-makruk-flag-khon.log"
    assert record_from_log(path.read_text(encoding="utf-8"), str(path), "M1", 1)["first"] == "right"


def test_first_survives_an_undo_and_is_null_for_a_round_or_a_game_never_started():
    # an undo takes back a press, never the start: right started, pressed, undid, pressed again
    rec = record_from_log("preset makruk-30\n0 start right\n5 press right\n6 undo\n7 press right\n"
                          "9 finish\n10 outcome draw agreement\n11 material left -\n12 material right -\n"
                          "13 confirm left\n14 confirm right\n", "t.log", "M2", 1)
    assert rec["first"] == "right" and schema_errors(rec) == []
    # SU-1: the round starts for both competitors at once ("0 start left" notwithstanding)
    path = SCENARIOS / "result-sudoku-bonus.log"
    rec = record_from_log(path.read_text(encoding="utf-8"), str(path), "S1", 1)
    assert rec["first"] is None and schema_errors(rec) == []
    # the arbiter ends a game from ready (nobody's clock ever ran)
    preset = find_preset("makruk-30")
    state = core.apply(core.new_game(preset.control), core_events.Finish(0))
    lines = [["outcome", "draw", "agreement"], ["material", "left", "-"], ["material", "right", "-"],
             ["confirm", "left"], ["confirm", "right"]]
    entry = Entry()
    for words in lines:
        entry = apply_entry(entry, words, True, preset.scoring, core.view(state))
    rec = build_record(preset, {}, state, entry, [core_events.Finish(0)], [(1, w) for w in lines],
                       "sim", 1, None, None)
    assert rec["first"] is None and schema_errors(rec) == []
    bad = copy.deepcopy(rec)
    bad["first"] = "white"
    assert schema_errors(bad) == ["record.first: 'white' is not one of ['left', 'right', None]"]
    del bad["first"]
    assert schema_errors(bad) == ["record: missing 'first'"]
