"""A result record built again from its game journal, under its original id (issue 13 hole 7).

The journal `games/<seq>.log` holds everything the record was made of: the header (preset, event,
round, table, players, level, stage), every event, every result-entry line with both players'
confirmations, and `wallclock` lines. So when `outbox/<id>.json` is damaged (a bad SD card sector, a
truncated copy) the record is not lost: `rebuild(state_dir, rid)` folds that journal exactly as a
restore does (`restore.fold`, the one fold `gameclock replay` uses) and builds the record with the
same serial and sequence number, so the same id (`record.record_id`).

The wall-clock start and end come from the journal's `wallclock` lines, as a restored game takes
them (`Journal.wall_at`); they can differ from the first build by the milliseconds between the
press and the line, and so can the record's bytes. A PC that already stored the first build keeps
both (its `conflicts` table) and tells the arbiter; a result is never lost or shown as refused.
"""
from __future__ import annotations

import logging
import os
from typing import Any

from gameclock.core import clock as core
from gameclock.core import game
from gameclock.core.events import Start
from gameclock.core.result import RESULT_VERBS, Entry
from gameclock.core.scoring import Scoring
from gameclock.record import build_record, header_info, record_id
from gameclock.rules.loader import RuleError, find_preset

from .fsio import FileSystem
from .journal import MAX_JOURNAL, WALLCLOCK, Recovered, read_game

log = logging.getLogger(__name__)




def fold(preset: Any, rec: Recovered, label: str) -> tuple[core.Clock, Entry]:
    """(clock, Entry) after the journal's lines: `core.game.fold`, the one fold `gameclock replay` uses
    too. A line the clock or the result entry refuses (it never should: they accepted it live) cuts
    the journal there, loudly, and the fold is done again without it."""
    scoring = getattr(preset, "scoring", None) or Scoring()
    while True:
        try:
            return game.fold(preset.control_for(rec.log.tiebreak), scoring, rec.log, label=label)
        except game.FoldError as exc:
            rec.cut(exc.line - 1, f"refused on replay: {exc.reason}")
            for p in rec.problems[-1:]:
                log.error("journal: %s", p)


class RebuildError(ValueError):
    """The record cannot be built again: no journal, an unconfirmed result, another id."""


def walls(rec_log: Any) -> list[tuple[int, float]]:
    """(game ns, wall-clock s) of the journal's `wallclock` lines."""
    out = []
    for _, at, words in rec_log.extra:
        if words[0] == WALLCLOCK and len(words) == 2:
            try:
                out.append((int(at), float(words[1])))
            except ValueError:
                pass
    return out


def wall_at(pairs: list[tuple[int, float]], game_ns: int) -> float | None:
    """The wall-clock time of a game instant, from the last `wallclock` line at or before it."""
    best = None
    for at, wall in pairs:
        if at <= game_ns:
            best = wall + (game_ns - at) / 1e9
    return best


def rebuild(state_dir: str | os.PathLike[str], rid: str, fs: FileSystem | None = None) -> dict[str, Any]:
    """The record `rid` (`SERIAL-NNNNNN`) built from `state_dir/games/NNNNNN.log`; RebuildError if not."""
    fs = fs or FileSystem()
    serial, _, number = rid.rpartition("-")
    if not serial or not number.isdigit():
        raise RebuildError(f"{rid}: not a clock's result id")
    seq = int(number)
    path = os.path.join(os.fspath(state_dir), "games", f"{seq:06d}.log")
    try:
        data = fs.read_bytes(path, MAX_JOURNAL)
    except OSError as exc:
        raise RebuildError(f"{rid}: its journal {path} cannot be read ({exc.strerror or exc})") from None
    rec = read_game(data, seq, path)
    kept_by = rec.log.header.get("clock")
    if kept_by is not None and kept_by != serial:
        raise RebuildError(f"{rid}: {path} is a journal of clock {kept_by}")
    if not rec.log.preset:
        raise RebuildError(f"{rid}: {path} has no preset line")
    try:
        preset = find_preset(rec.log.preset)
    except (RuleError, KeyError, StopIteration) as exc:
        raise RebuildError(f"{rid}: preset {rec.log.preset!r} of {path}: {exc}") from None
    state, entry = fold(preset, rec, preset.short)
    state = core.advance(state, max(rec.last_ns, state.now_ns))
    if state.phase not in (core.FLAGGED, core.FINISHED) or not entry.final:
        raise RebuildError(f"{rid}: {path} holds no result both players confirmed")
    pairs = walls(rec.log)
    start = next((ev.at_ns for ev in rec.log.events if isinstance(ev, Start)), None)
    entries = [(int(t), list(words)) for _, t, words in rec.log.extra if words[0] in RESULT_VERBS]
    record = build_record(preset, header_info(rec.log.header), state, entry, rec.log.events, entries,
                          serial, seq, None if start is None else wall_at(pairs, start),
                          wall_at(pairs, state.seg_start_ns))
    if record["id"] != rid or record_id(serial, seq) != rid:
        raise RebuildError(f"{rid}: {path} builds {record['id']}")
    return record
