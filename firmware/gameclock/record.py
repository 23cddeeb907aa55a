"""The result record (CL-5): one finished, confirmed game as a JSON object for the organiser's PC.

    build_record(preset, header_info, clock_state, entry, events, entries,
                 clock_serial, seq, started_wall, ended_wall) -> dict

Pure apart from what is passed in (and `load_schema`, which reads the schema file): the loop passes its
preset, the record info of the game's journal header (`gamelog.header_info`: event, round, table,
level, stage, players), the clock state at the game's end, the result entry (`core.result.Entry`,
whose info lines change that record info: `core.result.changed_info`), the game's event list and
result-entry lines in the game's time (its log's), the clock's serial, the next sequence number and
the wall-clock times it took at the start and end (`time.time()`; the record is the only place with
wall time: the event log is in game-relative ns). So the loop's record and a replay of the journal
(`record_from_log`, `persist.rebuild`) are built from the same things (issue 27).

Every move's duration comes from the event list, folded again through the core: a side's move ends
at its press, so a move's duration is the side's used time at that press minus its used time at its
previous press (paused spans are not used time; an undone press takes its move back). The turn the
game ended in (a flag fall, a finish) is the last entry. Durations are whole ms, cut on the
cumulative sum, so that they add up exactly to the side's `time_used_ms`.

The JSON schema is `record.schema.json` beside this file; `docs/result-record.md` describes it.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeGuard

from gameclock import __version__
from gameclock.core import clock as core
from gameclock.core.control import NS_PER_MS, ROUND, SIDES, Control
from gameclock.core.events import Adjust, Event, Extend, Press, Retract, SetMoves, Undo
from gameclock.core.log import format_seconds
from gameclock.core.result import RESULT_VERBS, Entry, changed_info, result_view
from gameclock.core.scoring import STAGES, Scoring
from gameclock.gamelog import (  # noqa: F401 (header_info, RecordInfo: this module's API too)
    GamePreset,
    RecordInfo,
    fold_game,
    header_info,
    last_time,
    parse_game,
    preset_scoring,
)
from gameclock.rules.loader import Preset

SCHEMA = 1
ID_FORMAT = "{serial}-{seq:06d}"


def record_id(clock_serial: str, seq: int) -> str:
    """`SERIAL-000042`: unique per clock as long as the sequence never repeats."""
    return ID_FORMAT.format(serial=clock_serial, seq=seq)


def iso_utc(wall: float | None) -> str | None:
    """A `time.time()` value as ISO 8601 UTC to the millisecond, e.g. 2024-11-02T03:15:07.250Z."""
    if wall is None:
        return None
    text = datetime.fromtimestamp(wall, UTC).isoformat(timespec="milliseconds")
    return text.replace("+00:00", "Z")


def format_entry(at_ns: int, words: Sequence[str]) -> str:
    """A result-entry line of the event log, e.g. `1910.5 score left 412` (as `format_event`)."""
    return f"{format_seconds(at_ns)} {' '.join(words)}"



def known_level(scoring: Scoring, level: str | None) -> str | None:
    """`level` if the scoring has caps for it, else None (the rule file's default level)."""
    return level if level in {name for name, _, _ in scoring.caps} else None


def corrections(control: Control, events: Iterable[Event]) -> list[dict[str, Any]]:
    """The arbiter's corrections among `events` (issue 15), in order: a side's time set (`time`, core
    Adjust), a side's moves set (`moves`, core SetMoves), a press taken back (`undo`, core Undo),
    extra time given (`extend`, MH-3) or taken back (`retract`), each with when (game ms), the side,
    both sides' remaining time just before and just after it (ms) and both sides' moves made just
    before and just after it."""
    state = core.new_game(control)
    out: list[dict[str, Any]] = []
    presses: list[int] = []  # the sides of the effective presses not taken back (an undo takes the last)
    for ev in events:
        before = core.advance(state, max(ev.at_ns, state.now_ns))
        try:
            after = core.apply(state, ev)
        except core.Rejected:
            continue
        if isinstance(ev, Press) and after.events != state.events:
            presses.append(ev.side)
        if isinstance(ev, Adjust | SetMoves | Undo | Extend | Retract):
            side: str | None
            if isinstance(ev, Adjust | SetMoves | Extend | Retract):
                kind = {Adjust: "time", SetMoves: "moves", Extend: "extend", Retract: "retract"}[type(ev)]
                side = SIDES[ev.side]
            else:  # the press taken back (a Sudoku finish too: both sides run, so it is the press's side)
                kind, side = "undo", SIDES[presses.pop()] if presses else None
            out.append({"kind": kind, "side": side, "t_ms": ev.at_ns // NS_PER_MS,
                        "before_ms": {n: core.remaining_ns(before, i) // NS_PER_MS for i, n in enumerate(SIDES)},
                        "after_ms": {n: core.remaining_ns(after, i) // NS_PER_MS for i, n in enumerate(SIDES)},
                        "moves_before": {n: before.sides[i].moves for i, n in enumerate(SIDES)},
                        "moves_after": {n: after.sides[i].moves for i, n in enumerate(SIDES)}})
        state = after
    return out


def move_durations(control: Control, events: Iterable[Event], end_state: core.Clock) -> dict[str, list[int]]:
    """Each side's move durations in ms, in order, the turn the game ended in last (if it had run).

    `events` are folded from a new game of `control`; events the core refuses are skipped (the loop
    only keeps accepted ones). The sums equal `view(end_state)['sides'][side]['used_ms']`."""
    state = core.new_game(control)
    marks: tuple[list[int], list[int]] = ([], [])  # used ns at the end of each completed move
    for ev in events:
        try:
            state = core.apply(state, ev)
        except core.Rejected:
            continue
        for s in (0, 1):
            sd = state.sides[s]
            del marks[s][sd.moves:]  # an undone press takes its move back
            if sd.moves > len(marks[s]):
                marks[s].append(sd.used_ns)
    out: dict[str, list[int]] = {}
    for s in (0, 1):
        total = core.used_ns(end_state, s)
        cum = [min(m, total) for m in marks[s]]
        if total > (cum[-1] if cum else 0):
            cum.append(total)  # the turn the game ended in
        ms: list[int] = []
        last = 0
        for c in cum:
            ms.append(c // NS_PER_MS - last)
            last = c // NS_PER_MS
        out[SIDES[s]] = ms
    return out


def first_mover(end_state: core.Clock) -> str | None:
    """The side whose clock ran first, i.e. the side that moved first ("left"/"right"): the side of
    the game's Start event, which the core keeps in `Clock.first` (a later Start is refused, and an
    undo never takes the start back), so the loop's state and a log's fold agree. None if the game
    never started, and for a round timer (ROUND, Sudoku: both competitors start together, nobody
    moves first)."""
    if end_state.control.mode == ROUND or end_state.first is None:
        return None
    return SIDES[end_state.first]


def build_record(preset: GamePreset, header_info: Mapping[str, Any] | None, clock_state: core.Clock,
                 entry: Entry, events: Sequence[Event], entries: Sequence[tuple[int, Sequence[str]]],
                 clock_serial: str, seq: int, started_wall: float | None,
                 ended_wall: float | None) -> dict[str, Any]:
    """The result record of a finished game (schema 1). `clock_state` is the clock at (or after)
    the game's end; `entries` are (game ns, words) of the result-entry lines."""
    if clock_state.phase not in (core.FLAGGED, core.FINISHED):
        raise ValueError(f"build_record: the game is not over ({clock_state.phase})")
    # the info the game began with, changed by the lines entered since (issue 27: event, round, table,
    # players; XW-8's level and stage)
    info = changed_info(header_info or {}, entry)
    stage = info.get("stage") or "qualifying"
    if stage not in STAGES:
        raise ValueError(f"build_record: bad stage {stage!r} (one of {', '.join(STAGES)})")
    scoring = preset_scoring(preset)
    level = known_level(scoring, info.get("level"))
    view = core.view(clock_state)
    result = result_view(entry, view, scoring, level, stage)
    moves = move_durations(clock_state.control, events, clock_state)
    players = info.get("players") or {}

    def side(name: str) -> dict[str, Any]:
        s = view["sides"][name]
        out: dict[str, Any] = {
            "time_used_ms": s["used_ms"],
            "moves": s["moves"],
            "move_ms": moves[name],
            "remaining_ms": s["remaining_ms"],
            "overtime_ms": s["overtime_ms"],
            "penalty_points": s["penalty_points"],
            "flagged": s["flagged"],
            "extensions_used": None,
            "finish_ms": s.get("finish_ms"),
            "bonus_points": s.get("bonus_points"),
        }
        if "extensions_left" in s:  # MH-3
            out["extensions_used"] = clock_state.sides[SIDES.index(name)].ext_used
        return out

    def num(v: str | int | None) -> int | None:
        return None if v is None else int(v)

    return {
        "schema": SCHEMA,
        "id": record_id(clock_serial, seq),
        "clock": {"serial": clock_serial, "seq": seq, "firmware": __version__},
        "event": None if info.get("event") is None else str(info["event"]),
        "round": num(info.get("round")),
        "table": num(info.get("table")),
        "level": level or scoring.default_level,
        "stage": stage,
        "players": {s: players.get(s) for s in SIDES},
        # the side that moved first (its clock was started first): tsh's p12, TRF's white
        "first": first_mover(clock_state),
        "preset": {"id": preset.id, "name": preset.name,
                   "rules": list(getattr(preset, "rule_ids", ()) or ())},
        "game": clock_state.game,
        "tiebreak": clock_state.tiebreak,
        "kind": scoring.kind,
        "started": iso_utc(started_wall),
        "ended": iso_utc(ended_wall),
        "duration_ms": clock_state.game_base_ns // NS_PER_MS,
        "ended_by": "flag" if clock_state.phase == core.FLAGGED else "finish",
        "sides": {s: side(s) for s in SIDES},
        # MR-4..MR-8, MH-6: the count under way when the game ended (kind, side, count, limit, reached)
        "counting": None if clock_state.counting is None else clock_state.counting.as_dict(),
        "outcome": result["winner"],
        "reason": result["reason"],
        "draw_counts_as_loss_for": result.get("draw_counts_as_loss_for"),
        "scores": {
            "entered": result.get("scores") if scoring.kind in ("crossword", "sudoku") else None,
            "penalties": result.get("penalties"),
            "bonus": result.get("bonus"),
            "correct": result.get("correct"),
            "final": result.get("final_scores"),
            "spread": result.get("spread"),
            "cap": result.get("cap"),
            "game_points": result.get("game_points"),
        },
        "material": result.get("material"),
        "material_value": result.get("material_value"),
        "confirmations": result["confirmations"],
        "confirmed": result["confirmed"],
        "complete": result["complete"],
        "entries": [{"t_ms": at // NS_PER_MS, "line": " ".join(words)} for at, words in entries],
        # issue 15: the arbiter's corrections (only when there were some: older records stay the same)
        **({"corrections": fixes} if (fixes := corrections(clock_state.control, events)) else {}),
    }


def record_from_log(text: str, source: str, clock_serial: str, seq: int,
                    started_wall: float | None = None, ended_wall: float | None = None,
                    preset: Preset | None = None) -> dict[str, Any]:
    """The record of a game's event log (headers, events, result lines) as the device would build it
    (`gameclock replay --state-dir`, recovery). The log holds no wall time: pass it in."""
    log, preset = parse_game(text, source, preset)
    state, entry = fold_game(preset, log, None, source)
    state = core.advance(state, max(last_time(log), state.now_ns))
    entries = [(at, words) for _, at, words in log.extra if words[0] in RESULT_VERBS]
    return build_record(preset, header_info(log.header), state, entry, log.events, entries,
                        clock_serial, seq, started_wall, ended_wall)


# --------------------------------------------------------------------------------------------- schema

SCHEMA_PATH = Path(__file__).with_name("record.schema.json")
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def load_schema() -> dict[str, Any]:
    """The record's JSON Schema (`record.schema.json`, shipped with the package)."""
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


def _number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is(value: object, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return _number(value)
    return isinstance(value, _TYPES[name])


def schema_errors(instance: object, schema: Mapping[str, Any] | None = None) -> list[str]:
    """Where `instance` breaks the schema (empty: it conforms). A small validator for the keywords
    record.schema.json uses -- type, const, enum, pattern, minimum, properties, required,
    additionalProperties (false), items, $ref to #/$defs -- with JSON Schema's meaning (e.g.
    `properties` applies to objects only), so that the clock needs no validator package."""
    root = schema if schema is not None else load_schema()
    errors: list[str] = []

    def check(value: object, sch: Mapping[str, Any], path: str) -> None:
        if "$ref" in sch:
            ref = sch["$ref"]
            if not ref.startswith("#/$defs/"):
                raise ValueError(f"unsupported $ref {ref!r}")
            check(value, root["$defs"][ref.removeprefix("#/$defs/")], path)
        known = {"$ref", "type", "const", "enum", "pattern", "minimum", "properties", "required",
                 "additionalProperties", "items", "description", "title", "$schema", "$id", "$defs"}
        unknown = set(sch) - known
        if unknown:
            raise ValueError(f"schema keyword(s) not supported: {sorted(unknown)}")
        if "type" in sch:
            types = sch["type"] if isinstance(sch["type"], list) else [sch["type"]]
            if not any(_is(value, t) for t in types):
                errors.append(f"{path}: expected {' or '.join(types)}, got {json.dumps(value)[:40]}")
                return
        if "const" in sch and value != sch["const"]:
            errors.append(f"{path}: expected {sch['const']!r}, got {value!r}")
        if "enum" in sch and value not in sch["enum"]:
            errors.append(f"{path}: {value!r} is not one of {sch['enum']}")
        if "pattern" in sch and isinstance(value, str) and not re.search(sch["pattern"], value):
            errors.append(f"{path}: {value!r} does not match {sch['pattern']}")
        if "minimum" in sch and _number(value) and value < sch["minimum"]:
            errors.append(f"{path}: {value} is below {sch['minimum']}")
        if isinstance(value, dict):
            props = sch.get("properties", {})
            for key in sch.get("required", []):
                if key not in value:
                    errors.append(f"{path}: missing {key!r}")
            for key, v in value.items():
                if key in props:
                    check(v, props[key], f"{path}.{key}")
                elif sch.get("additionalProperties") is False:
                    errors.append(f"{path}: unexpected key {key!r}")
        if isinstance(value, list) and "items" in sch:
            for i, v in enumerate(value):
                check(v, sch["items"], f"{path}[{i}]")

    check(instance, root, "record")
    return errors
