"""`gameclock presets`: list the event presets (a table, or JSON with --json): the shipped ones and the
organiser's own in /etc/gameclock/rules (gameclock.rules.loader). A broken organiser's file is left out
with one line on stderr naming the file and the key; the others are listed.

The table's SCORING column: the kind and game points win/draw/loss, and for the Crossword family the default
level's XW-8 cap (qualifying game / last game) and XW-9 bye spread; "-" when the preset scores nothing."""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from typing import Any

from gameclock.core.scoring import Scoring
from gameclock.rules.loader import Preset, RuleError, load_presets


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    parser.add_argument("--dir", metavar="DIR", default=None,
                        help="list only this folder's rule files (default: the shipped presets, or "
                             "$GAMECLOCK_RULES_DIR's, with /etc/gameclock/rules/*.toml added)")


def scoring_json(s: Scoring) -> dict[str, Any]:
    """The [scoring] table as JSON, keyed as in the rule file (caps: level -> [cap, last_game_cap])."""
    return {
        "kind": s.kind,
        "win": s.win_points,
        "draw": s.draw_points,
        "loss": s.loss_points,
        "default_level": s.default_level,
        "flag_needs_material": s.flag_needs_material,
        "caps": {level: [cap, last] for level, cap, last in s.caps},
        "bye_spread": dict(s.bye_spread),
    }


def preset_json(p: Preset) -> dict[str, Any]:
    """A preset as plain JSON data; every duration stays integer nanoseconds (`*_ns`)."""
    return {
        "id": p.id,
        "name": p.name,
        "short": p.short,
        "event": p.event,
        "rules": list(p.rule_ids),
        "summary": p.summary,
        "control": dataclasses.asdict(p.control),
        "sequence_ns": list(p.sequence),
        "scoring": scoring_json(p.scoring),
        "path": str(p.path),
    }


def _scoring_cell(p: Preset) -> str:
    if p.scoring.kind in ("none", "sudoku"):
        return p.scoring_summary
    return f"{p.scoring.kind} {p.scoring_summary}"


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except BrokenPipeError:  # `gameclock presets | head`: the reader left; not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args: argparse.Namespace) -> int:
    skipped: list[RuleError] = []
    try:
        presets = load_presets(args.dir, skipped=skipped)
    except RuleError as exc:
        print(exc, file=sys.stderr)
        return 1
    for skip in skipped:
        print(f"gameclock presets: skipped {skip}", file=sys.stderr)
    if args.json:
        json.dump([preset_json(p) for p in presets], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    header = ("ID", "NAME", "EVENT", "CONTROL", "SCORING", "RULES")
    rows = [(p.id, p.name, p.event, p.summary, _scoring_cell(p), " ".join(p.rule_ids) or "-") for p in presets]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        # every column padded but the last
        cells = [cell.ljust(w) for cell, w in zip(row, widths, strict=False)] + [row[-1]]
        print("  ".join(cells).rstrip())
    return 0
