"""`gameclock pair NAME [--seed N | --redraw | --again] [--swap T1 T2] [--exchange P Q] [--set-table T LEFT RIGHT]
[--publish] [--sheets DIR [--round N] [--result-url PATTERN]] [--db FILE]` (issues 16, 25, 26): pair an event's
next round.

- `gameclock pair NAME`: the next round as a draft, printed as a table with the system and the seed
  it was drawn with, and what it draws or continues ("draw: round 4 of 9 of the Berger table ..."); a draft
  kept from before is shown again as it is. The event owns its draw (organiser/event.py): round 1's
  draft draws the lot (pairing numbers, groups, a bracket), every later round continues the lot kept.
- `--seed N`: the next round drawn with that seed when there is no draft (the same results and seed
  give the same draft: a draw can be checked); a draft waiting is drawn again with it only when a new
  seed can change it (round 1's, a knockout stage whose ties lots decide), else refused saying what
  it continues. `--redraw`: the same with a new random seed. `--again`: the draft paired again from
  the latest results with its own seed (after a result was amended; the organiser's fixes go).
- `--swap T1 T2`: the pairs at tables T1 and T2 change tables. `--exchange P Q` (ids or names): the two
  players change seats (every game of their matches, a bye too). `--set-table T LEFT RIGHT` (players by
  id or name; RIGHT `bye` for a bye): table T gets that pair. Given several times, applied together,
  then checked: every player of the draft at one table, nobody else. `--again` and `--redraw` say on
  stderr which of the organiser's edits of the draft they replaced.
- `--publish`: the draft goes to the clocks (the `pairings` and `byes` tables: names, the event's language
  and preset, the level, each table's stage and game number) and to the sheets. A clock docked to a running
  `gameclock receive` or desk gets its table within seconds (issue 26), the others at their next docking.
- `--sheets DIR`: the printable pairing sheet and score slips of the last published round (or
  `--round N`) as HTML in DIR; `--result-url 'http://HOST:8017/e/{event}/pairings/{round}/table/{table}'`
  adds each table's page at the desk as a QR code (needs segno; the desk's event page shows the pattern).

Errors (a round that cannot be paired, a table without a result, a bad fix) go to stderr in one line,
exit status 1, and change nothing.
"""
from __future__ import annotations

import argparse
import sys

from gameclock.organiser import event as events
from gameclock.organiser.commands_event import user
from gameclock.organiser.store import Store, StoreError, default_db_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the event (gameclock event create)")
    parser.add_argument("--seed", metavar="N", type=int, default=None,
                        help="draw the next round with this seed (a draft waiting: only round 1's or a tie's lot)")
    parser.add_argument("--redraw", action="store_true",
                        help="draw the waiting draft again with a new seed (round 1's, or a knockout tie's lot)")
    parser.add_argument("--again", action="store_true",
                        help="pair the waiting draft again from the latest results (its seed and lot kept)")
    parser.add_argument("--swap", metavar="T", type=int, nargs=2, action="append", default=[],
                        help="swap the pairs of two tables of the draft")
    parser.add_argument("--exchange", metavar=("P", "Q"), nargs=2, action="append", default=[],
                        help="players P and Q of the draft change seats (ids or names)")
    parser.add_argument("--set-table", metavar=("T", "LEFT", "RIGHT"), nargs=3, action="append", default=[],
                        help="table T of the draft gets LEFT v RIGHT (ids or names; RIGHT bye: a bye)")
    parser.add_argument("--publish", action="store_true", help="publish the draft to the clocks and sheets")
    parser.add_argument("--sheets", metavar="DIR", default=None, help="write the round's pairing sheet and score slips")
    parser.add_argument("--round", metavar="N", type=int, default=None, help="the round for --sheets (default: the last published)")
    parser.add_argument("--result-url", metavar="PATTERN", default=None,
                        help="a QR code per table of this URL ({event}, {round}, {table}) on the sheets")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="the database (default: $GAMECLOCK_DB or ./gameclock.db)")


def _fixes(items: list[list[str]]) -> list[tuple[int, str, str]]:
    out = []
    for table, left, right in items:
        if not table.isdigit():
            raise events.EventError(f"--set-table {table!r}: the table is a number")
        out.append((int(table), left, right))
    return out


def _pair(args: argparse.Namespace, store: Store) -> int:
    from gameclock.organiser import sheets

    name = args.name
    events.event_of(store, name)
    if args.sheets is not None:
        if args.seed is not None or args.redraw or args.again or args.swap or args.set_table or args.publish:
            raise events.EventError("--sheets prints a round: give it alone (after --publish)")
        ev = events.event_of(store, name)
        rnd = events.round_of(store, name, args.round)
        if rnd["state"] != "published":
            raise events.EventError(f"{name}: round {rnd['round']} is a draft: publish it first")
        try:
            paths = sheets.write_sheets(args.sheets, ev, rnd, events.players_of(store, name), args.result_url)
        except sheets.SheetError as exc:
            raise events.EventError(str(exc)) from None
        for path in paths:
            print(f"wrote {path}")
        return 0
    if args.result_url is not None or args.round is not None:
        raise events.EventError("--result-url and --round go with --sheets")
    if (args.seed is not None) + args.redraw + args.again > 1:
        raise events.EventError("give one of --seed, --redraw and --again")
    draft = events.draft_of(store, name)
    fixing = args.swap or args.set_table or args.exchange
    if args.seed is not None or args.redraw or args.again or draft is None:
        if fixing:
            raise events.EventError("draw the round first (gameclock pair NAME), then fix its tables")
        lost = events.draft_edits(store, name)
        if draft is not None and (args.redraw or args.seed is not None):
            draft = events.redraw(store, name, args.seed, by=user())
        else:
            draft = events.draw(store, name, args.seed, by=user())
        gone = [w for s in (lost.steps if lost else []) for w in s["what"]]
        if gone:
            print(f"{name}: the organiser's edits of the draft are gone: {'; '.join(gone)}", file=sys.stderr)
    if fixing:
        draft = events.edit(store, name, [(a, b) for a, b in args.swap], _fixes(args.set_table),
                            [(p, q) for p, q in args.exchange], by=user())
    players = events.players_of(store, name)
    if args.publish:
        published = events.publish(store, name)
        for line in events.round_lines(name, published, players):
            print(line)
        tables = sum(1 for b in published["boards"] if b["right"] is not None)
        # issue 26: the store's dock_changes row this wrote makes every port of a running `gameclock receive` or
        # desk push the round to its docked clock within a second; the others get it when they dock
        print(f"round {published['round']} of {name} published: {tables} table{'' if tables == 1 else 's'} for the "
              "clocks (those docked now get it within seconds, the others at docking)")
        return 0
    for line in events.round_lines(name, draft, players):
        print(line)
    print(f"publish it: gameclock pair {name} --publish")
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        with Store(args.db or default_db_path()) as store:
            return _pair(args, store)
    except (events.EventError, StoreError) as exc:
        print(exc, file=sys.stderr)
        return 1
