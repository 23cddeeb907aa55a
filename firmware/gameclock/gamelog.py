"""A game's event log with its preset: parse it (`parse_game`), fold it (`fold_game`, the one fold of
`core.game` with the preset's control), see it as `gameclock replay` prints it (`replay_text`). Used by
the `replay` command, the result records (`record.record_from_log`) and the tests' scenarios."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, TypedDict

from gameclock.core import game
from gameclock.core.clock import FINISHED, FLAGGED, Clock, view
from gameclock.core.control import SIDES, Control
from gameclock.core.log import Log, parse_log
from gameclock.core.result import RESULT_VERBS, Entry, result_view
from gameclock.core.scoring import Scoring
from gameclock.rules.loader import Preset, find_preset, load_preset


class ReplayError(ValueError):
    """A log that cannot be replayed: names the file and line."""


class GamePreset(Protocol):
    """What folding a game and its record need of a preset: an event's (`rules.loader.Preset`) or the
    custom preset (`ui.menu.CustomPreset`, which has no `scoring`: see `preset_scoring`)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    def control_for(self, tiebreak: int = 0) -> Control: ...


# Lines the clock core does not fold: result entry, and the journal's checkpoints.
EXTRA_VERBS = RESULT_VERBS + ("checkpoint",)


def fold(preset: GamePreset, log: Log, at_ns: int | None = None, source: str = "<log>") -> Clock:
    """The clock state after every event of `log` up to `at_ns` (all of them by default)."""
    return fold_game(preset, log, at_ns, source)[0]


def fold_game(preset: GamePreset, log: Log, at_ns: int | None = None,
              source: str = "<log>") -> tuple[Clock, Entry]:
    """(clock state, result Entry) after the log's lines up to `at_ns`: `core.game.fold` with the
    preset's control for the log's tie-break step; a refused line is a ReplayError naming it."""
    try:
        return game.fold(preset.control_for(log.tiebreak), preset_scoring(preset), log, at_ns, label=preset.id)
    except game.FoldError as exc:
        raise ReplayError(f"{source}:{exc.line}: {exc.reason}") from None


def preset_scoring(preset: object) -> Scoring:
    """The preset's `[scoring]` (kind none for presets without one, e.g. the custom preset)."""
    scoring: Scoring | None = getattr(preset, "scoring", None)
    return scoring or Scoring()


def replay_text(text: str, source: str = "<log>", at_ns: int | None = None,
                preset: Preset | None = None) -> dict[str, Any]:
    """Parse and fold a whole log; the view at `at_ns` (default: the last line's time), with the
    result (`result`) once the game is over."""
    log, preset = parse_game(text, source, preset)
    state, entry = fold_game(preset, log, at_ns, source)
    if at_ns is None:
        at_ns = last_time(log)
    out = view(state, at_ns)
    if out["state"] in (FLAGGED, FINISHED):
        out["result"] = result_view(entry, out, preset_scoring(preset), log.header.get("level"),
                                    log.header.get("stage", "qualifying"))
    else:
        out["result"] = None
    # the record info as the header's lines say it, changed by the log's lines (issue 27: round 2)
    out["info"] = changed_header(log.header, entry)
    return out


def changed_header(header: Mapping[str, str], entry: Entry) -> dict[str, str]:
    """The log's record-info header lines (`header`: name -> text, `player.left` for `player left
    NAME`; the preset, game and tie-break left out) with the changes of `entry`'s lines
    (core.result.INFO_VERBS), as the header would say them: `round 2` -> {"round": "2"}."""
    out = {k: v for k, v in header.items() if k not in ("preset", "game", "tiebreak")}
    for key in ("event", "round", "table", "stage"):
        value = getattr(entry, key)
        if value is not None:
            out[key] = str(value)
    names = {"level": entry.level, **{f"player.{s}": n for s, n in zip(SIDES, entry.players, strict=True)}}
    for key, text in names.items():
        if text:
            out[key] = text
        elif text == "":  # set to not known (a name), not set (a level)
            out.pop(key, None)
    return out


class RecordInfo(TypedDict):
    """A game's record info as its event log's header gives it (`header_info`). The loop's
    `record_info` has the same keys but leaves out those it has no value for."""
    event: str | None
    round: int | None
    table: int | None
    level: str | None
    stage: str
    players: dict[str, str | None]


def header_info(header: Mapping[str, str]) -> RecordInfo:
    """`record_info` from an event log's header (`Log.header`: event, round, table, level, stage,
    player.left, player.right)."""
    def num(key: str) -> int | None:
        v = header.get(key)
        return None if v is None else int(v)
    return {"event": header.get("event"), "round": num("round"), "table": num("table"),
            "level": header.get("level"), "stage": header.get("stage", "qualifying"),
            "players": {s: header.get(f"player.{s}") for s in SIDES}}


def parse_game(text: str, source: str, preset: Preset | None = None) -> tuple[Log, Preset]:
    """Parse a game's log (clock events, result lines, checkpoints) and find its preset (the log's
    `preset` line unless one is given)."""
    log = parse_log(text, source, extra_verbs=EXTRA_VERBS)
    if preset is None:
        if log.preset is None:
            raise ReplayError(f"{source}: no 'preset ID' line")
        preset = _preset(log.preset, source)
    return log, preset


def last_time(log: Log) -> int:
    """The time of the log's last line (ns; 0 for an empty log)."""
    return max([ev.at_ns for ev in log.events] + [at for _, at, _ in log.extra], default=0)


def _preset(preset_id: str, source: str) -> Preset:
    if preset_id.endswith(".toml"):
        return load_preset(Path(source).parent / preset_id)
    return find_preset(preset_id)


