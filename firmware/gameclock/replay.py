"""`gameclock replay FILE [--at SECONDS]`: fold an event log and print the clock's state as JSON."""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gameclock.core.log import LogError, parse_seconds
from gameclock.gamelog import (  # noqa: F401 (this command's API, used by tests and tools)
    EXTRA_VERBS,
    ReplayError,
    fold,
    fold_game,
    last_time,
    parse_game,
    preset_scoring,
    replay_text,
)
from gameclock.record import record_from_log
from gameclock.rules.loader import Preset, RuleError, find_preset


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
        text = _journal_as_log(text, source)
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


def to_outbox(text: str, source: str, state_dir: str, preset: Preset | None = None) -> dict[str, str | bool]:
    """Put the log's confirmed result into `state_dir`'s outbox as the device does. A game journal of
    that state folder (`STATE/games/000017.log`) keeps its original id (`SERIAL-000017`, the serial of
    this clock): the record is built again (`persist.rebuild`, as the clock repairs a damaged record)
    and put only if that id is not in outbox/ or sent/ already, or its outbox copy is damaged (kept
    aside as .damaged). Any other log gets the next number of the clock's durable sequence. Running it
    twice adds nothing the second time: {"id", "added"}."""
    from gameclock.device.identity import clock_serial
    from gameclock.persist.fsio import FileSystem
    from gameclock.persist.outbox import Outbox, RecordDamaged, Sequence
    from gameclock.persist.rebuild import rebuild
    from gameclock.record import record_id

    fs = FileSystem()
    outbox = Outbox(state_dir, fs, rebuild=rebuild)
    outbox.prepare()
    serial = clock_serial()
    games = Path(state_dir) / "games"
    src = Path(source)
    if src.stem.isdigit() and src.suffix == ".log" and games.is_dir() and src.resolve().parent == games.resolve():
        kept_by = parse_game(text, source, preset)[0].header.get("clock")
        rid = record_id(kept_by or serial, int(src.stem))
        try:
            outbox.read(rid)  # there (a damaged outbox copy is repaired by the read itself)
            return {"id": rid, "added": False}
        except KeyError:
            pass
        except RecordDamaged:  # (a damaged copy in sent/: the PC has it; nothing to add)
            return {"id": rid, "added": False}
        outbox.put(rebuild(state_dir, rid, fs))
        return {"id": rid, "added": True}
    candidate = _comparable(record_from_log(text, source, serial, 0, preset=preset))
    for rid in outbox.pending() + outbox.sent():
        try:
            if _comparable(outbox.read(rid)) == candidate:
                return {"id": rid, "added": False}
        except (OSError, ValueError):
            continue
    numbers = [int(p.stem) for p in games.glob("*.log") if p.stem.isdigit()] if games.is_dir() else []
    sequence = Sequence(state_dir, fs, floor=max(numbers, default=0))
    seq = sequence.allocate()
    sequence.store(fs, seq)  # durable before the id is used
    record = record_from_log(text, source, serial, seq, preset=preset)
    outbox.put(record)
    return {"id": record["id"], "added": True}


def _journal_as_log(text: str, source: str) -> str:
    """A game journal (`STATE/games/000017.log`: each line `TEXT*CRC32`) as the log it holds: the good
    lines' text without the journal's own `wallclock` and `closed` lines; any other text as it is."""
    from gameclock.persist.journal import CLOSED, WALLCLOCK, scan

    first = text.split("\n", 1)[0]
    if not re.search(r"\*[0-9a-f]{8}$", first):
        return text
    sc = scan(text.encode("utf-8"), source)
    for problem in sc.problems:
        print(f"gameclock replay: {problem}", file=sys.stderr)
    lines = [line for line, _ in sc.lines if line.split()[1:2] not in ([WALLCLOCK], [CLOSED])]
    return "".join(f"{line}\n" for line in lines)


def _comparable(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record without what differs between two builds of the same game (its id and sequence)."""
    out = dict(record)
    out.pop("id", None)
    out["clock"] = {k: v for k, v in (record.get("clock") or {}).items() if k != "seq"}
    return out
