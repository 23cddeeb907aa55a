"""`gameclock replay FILE [--at SECONDS]`: fold an event log and print the clock's state as JSON."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .core.clock import FINISHED, FLAGGED, Rejected, advance, apply, new_game, view
from .core.log import Log, LogError, parse_log, parse_seconds
from .core.result import RESULT_VERBS, Entry, EntryError, apply_entry, result_view
from .core.scoring import Scoring
from .rules.loader import Preset, RuleError, find_preset, load_preset


class ReplayError(ValueError):
    """A log that cannot be replayed: names the file and line."""


# Lines the clock core does not fold: result entry, and the journal's checkpoints.
EXTRA_VERBS = RESULT_VERBS + ("checkpoint",)


def fold(preset: Preset, log: Log, at_ns: int | None = None, source: str = "<log>"):
    """The clock state after every event of `log` up to `at_ns` (all of them by default)."""
    return fold_game(preset, log, at_ns, source)[0]


def fold_game(preset: Preset, log: Log, at_ns: int | None = None, source: str = "<log>"):
    """(clock state, result Entry) after the log's lines up to `at_ns`, in line order.

    Clock events go to the core clock; result-entry lines (score, outcome, confirm, ...) to
    `core.result.apply_entry`, which sees whether the game is over at that line."""
    state = new_game(preset.control_for(log.tiebreak), label=preset.id, game=log.game, tiebreak=log.tiebreak)
    entry = Entry()
    scoring = preset_scoring(preset)
    items = [(line, ev.at_ns, ev) for ev, line in zip(log.events, log.lines)]
    items += [(line, at, words) for line, at, words in log.extra]
    for line, at, item in sorted(items, key=lambda x: x[0]):
        if at_ns is not None and at > at_ns:
            break
        try:
            if isinstance(item, list):
                if item[0] not in RESULT_VERBS:
                    continue  # a journal line for another layer (e.g. a checkpoint)
                state = advance(state, at)
                game_over = state.phase in (FLAGGED, FINISHED)
                entry = apply_entry(entry, item, game_over, scoring, view(state), log.header.get("level"),
                                    log.header.get("stage", "qualifying"))
            else:
                state = apply(state, item)
        except (Rejected, EntryError) as exc:
            raise ReplayError(f"{source}:{line}: {exc}") from None
    return state, entry


def preset_scoring(preset: Preset) -> Scoring:
    return getattr(preset, "scoring", None) or Scoring()


def replay_text(text: str, source: str = "<log>", at_ns: int | None = None,
                preset: Preset | None = None) -> dict:
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
    out["info"] = {k: v for k, v in log.header.items() if k not in ("preset", "game", "tiebreak")}
    return out


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


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="event log ('-' for standard input)")
    p.add_argument("--at", metavar="SECONDS", help="report the state at this time (default: the last event)")
    p.add_argument("--preset", metavar="ID", help="use this preset instead of the log's 'preset' line")
    p.add_argument("--state-dir", metavar="DIR",
                   help="put the log's confirmed result into DIR's outbox, as the device would")


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text, source = sys.stdin.read(), "<stdin>"
        else:
            text, source = Path(args.file).read_text(encoding="utf-8"), args.file
        at_ns = None if args.at is None else parse_seconds(args.at)
        preset = find_preset(args.preset) if args.preset else None
        out = replay_text(text, source, at_ns, preset)
        if args.state_dir is not None:
            if not (out.get("result") or {}).get("confirmed"):
                raise ReplayError(f"{source}: no result confirmed by both players: nothing for the outbox")
            out["outbox"] = to_outbox(text, source, args.state_dir, preset)
    except (OSError, LogError, ReplayError, RuleError, ValueError) as exc:
        print(f"gameclock replay: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


def to_outbox(text: str, source: str, state_dir: str, preset: Preset | None = None) -> dict:
    """Put the log's confirmed result into `state_dir`'s outbox as the device does: the next number of
    the clock's durable sequence, the clock's serial, `record.record_from_log`, `Outbox.put` (durable).
    A record already there (the same game replayed again) is not put twice: {"id", "added"}."""
    from .device.identity import clock_serial
    from .persist.fsio import FileSystem
    from .persist.outbox import Outbox, Sequence
    from .record import record_from_log

    fs = FileSystem()
    outbox = Outbox(state_dir, fs)
    outbox.prepare()
    serial = clock_serial()
    candidate = _comparable(record_from_log(text, source, serial, 0, preset=preset))
    for rid in outbox.pending() + outbox.sent():
        try:
            if _comparable(outbox.read(rid)) == candidate:
                return {"id": rid, "added": False}
        except (OSError, ValueError):
            continue
    games = Path(state_dir) / "games"
    numbers = [int(p.stem) for p in games.glob("*.log") if p.stem.isdigit()] if games.is_dir() else []
    sequence = Sequence(state_dir, fs, floor=max(numbers, default=0))
    seq = sequence.allocate()
    sequence.store(fs, seq)  # durable before the id is used
    record = record_from_log(text, source, serial, seq, preset=preset)
    outbox.put(record)
    return {"id": record["id"], "added": True}


def _comparable(record: dict) -> dict:
    """A record without what differs between two builds of the same game (its id and sequence)."""
    out = dict(record)
    out.pop("id", None)
    out["clock"] = {k: v for k, v in (record.get("clock") or {}).items() if k != "seq"}
    return out
