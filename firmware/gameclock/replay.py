"""`gameclock replay FILE [--at SECONDS]`: fold an event log and print the clock's state as JSON."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .core.clock import Rejected, apply, new_game, view
from .core.log import Log, LogError, parse_log, parse_seconds
from .rules.loader import Preset, RuleError, find_preset, load_preset


class ReplayError(ValueError):
    """A log that cannot be replayed: names the file and line."""


def fold(preset: Preset, log: Log, at_ns: int | None = None, source: str = "<log>"):
    """The clock state after every event of `log` up to `at_ns` (all of them by default)."""
    state = new_game(preset.control_for_game(log.game), label=preset.id, game=log.game)
    for ev, line in zip(log.events, log.lines):
        if at_ns is not None and ev.at_ns > at_ns:
            break
        try:
            state = apply(state, ev)
        except Rejected as exc:
            raise ReplayError(f"{source}:{line}: {exc}") from None
    return state


def replay_text(text: str, source: str = "<log>", at_ns: int | None = None,
                preset: Preset | None = None) -> dict:
    """Parse and fold a whole log; the view at `at_ns` (default: the last event's time)."""
    log = parse_log(text, source)
    if preset is None:
        if log.preset is None:
            raise ReplayError(f"{source}: no 'preset ID' line")
        preset = _preset(log.preset, source)
    state = fold(preset, log, at_ns, source)
    if at_ns is None:
        at_ns = log.events[-1].at_ns if log.events else 0
    return view(state, at_ns)


def _preset(preset_id: str, source: str) -> Preset:
    if preset_id.endswith(".toml"):
        return load_preset(Path(source).parent / preset_id)
    return find_preset(preset_id)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="event log ('-' for standard input)")
    p.add_argument("--at", metavar="SECONDS", help="report the state at this time (default: the last event)")
    p.add_argument("--preset", metavar="ID", help="use this preset instead of the log's 'preset' line")


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text, source = sys.stdin.read(), "<stdin>"
        else:
            text, source = Path(args.file).read_text(encoding="utf-8"), args.file
        at_ns = None if args.at is None else parse_seconds(args.at)
        preset = find_preset(args.preset) if args.preset else None
        out = replay_text(text, source, at_ns, preset)
    except (OSError, LogError, ReplayError, RuleError, ValueError) as exc:
        print(f"gameclock replay: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0
