"""`gameclock pairings FILE [--event ID] [--round N] [--level L] [--stage S] [--language LANG] [--preset ID]
[--db FILE]`: load a round's pairings (a CSV or a tsh `.t` file, read by
`gameclock.organiser.pairings.load_pairings`) into the organiser PC's database, so that `gameclock
receive` pushes each docked clock its players' names and the event's set-up (issue 15: level, stage,
language, preset; from the file's columns, or these options where the file gives none).

Prints one line per table loaded (`event 3 round 2 table 5: Anan v Boon [crossword primary last th]`,
left player first, the set-up in brackets), one
per bye, then `N tables loaded into DB`. On stderr, what the reader wants the organiser to know though
it loaded the file: `FILE: read as windows-874 (Thai), not UTF-8` and `FILE: ignored columns score1,
score2` (issue 13 hole 5: extra columns were ignored without a word), and `FILE: preset 'x' is not a
preset this PC knows` (a clock without it refuses the pairing; the PC knows the shipped presets and its
/etc/gameclock/rules). The byes are stored too (the standings count them, XW-9). A
table or bye loaded before for the same event, round and table (player) is replaced, and a player now
at a table loses a bye stored for that round. A bad file loads nothing: its one-line error goes to
stderr, exit status 1 (also when the database cannot be used).
"""
from __future__ import annotations

import argparse
import sys

from gameclock.core.scoring import STAGES
from gameclock.dataerrors import display_path, printable
from gameclock.dock.pairing import LEVELS, SETUP_KEYS, setup_text
from gameclock.organiser.pairings import Pairing, PairingError, Pairings, load_pairings
from gameclock.organiser.store import Store, StoreError, default_db_path
from gameclock.organiser.textfile import UTF8


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the pairings: a CSV (round, table, left, right) or a tsh .t file")
    parser.add_argument("--event", metavar="ID", default=None,
                        help="the event (division) they are for, or the one to pick from the file")
    parser.add_argument("--round", metavar="N", type=int, default=None,
                        help="the round they are for, or the one to pick from the file (tsh: default the "
                             "round being played)")
    parser.add_argument("--level", metavar="LEVEL", default=None,
                        help=f"XW-8's level for every table the file gives none ({', '.join(LEVELS)})")
    parser.add_argument("--stage", metavar="STAGE", default=None,
                        help=f"XW-8's stage for every table the file gives none ({', '.join(STAGES)})")
    parser.add_argument("--language", metavar="LANG", default=None,
                        help="the clocks' language for every table the file gives none (en, th)")
    parser.add_argument("--preset", metavar="ID", default=None,
                        help="the clocks' preset for the game, for every table the file gives none (e.g. crossword)")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="the database (default: $GAMECLOCK_DB or ./gameclock.db)")


def describe(p: Pairing) -> str:
    """One pairing as a line: `event 3 round 2 table 5: Anan v Boon` (no event: from `round`)."""
    where = f"event {p['event']} " if p["event"] is not None else ""
    setup = setup_text(dict(p))
    return (f"{where}round {p['round']} table {p['table']}: {p['players']['left']} v {p['players']['right']}"
            + (f" [{setup}]" if setup else ""))


def _notes(rows: Pairings) -> list[str]:
    """What the file said that the tables do not show: how it was read when not UTF-8, what was ignored."""
    notes = [f"read as {rows.encoding} (Thai), not UTF-8"] if rows.encoding != UTF8 else []
    return notes + rows.ignored + _unknown_presets(rows)


def _unknown_presets(rows: Pairings) -> list[str]:
    """A note for each preset the file names that this PC does not know (a typo, or a clock's own site
    preset): the clock refuses a pairing naming a preset it does not have."""
    wanted = sorted({p["preset"] for p in rows if p.get("preset")})
    if not wanted:
        return []
    from gameclock.rules.loader import RuleError, load_presets  # only when a preset is named
    try:
        known = {p.id for p in load_presets(skipped=[])}
    except RuleError:
        return []
    return [f"preset {pid!r} is not a preset this PC knows (a clock without it refuses the pairing)"
            for pid in wanted if pid not in known]


def run(args: argparse.Namespace) -> int:
    db_path = args.db or default_db_path()
    try:
        rows = load_pairings(args.file, event=args.event, round=args.round,
                             setup={k: getattr(args, k) for k in SETUP_KEYS})
    except PairingError as exc:
        print(exc, file=sys.stderr)
        return 1
    for note in _notes(rows):
        print(f"{printable(display_path(args.file))}: {note}", file=sys.stderr)
    try:
        with Store(db_path) as store:
            count = store.put_pairings(rows, byes=getattr(rows, "byes", ()))
    except (StoreError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 1
    for p in rows:
        print(describe(p))
    for bye in getattr(rows, "byes", ()):
        where = f"event {bye['event']} " if bye.get("event") is not None else ""
        print(f"{where}round {bye['round']}: {bye['player']} has a bye")
    print(f"{count} table{'' if count == 1 else 's'} loaded into {display_path(db_path)}")
    return 0
