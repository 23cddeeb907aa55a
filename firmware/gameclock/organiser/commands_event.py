"""`gameclock event create NAME --system S --players FILE [--rounds N] [--option k=v ...] [--language th|en]
[--preset ID] [--level LEVEL] [--db FILE]` and `gameclock event show NAME [--db FILE]` (issue 16): an event the
PC pairs itself, from a player list (CSV or tsh `.t`, read by `organiser/event.py`), and what it holds.

`create` prints the players read and `event NAME created: N players, system S`; on stderr what the
reader wants the organiser to know (`FILE: read as windows-874 (Thai), not UTF-8`, `FILE: ignored
columns ...`). A bad list creates nothing: its one-line error (`FILE:LINE: ...`) goes to stderr, exit
status 1. `show` prints the event's settings, its players and every round (draft or published, with
its seed). `gameclock pair NAME` pairs its rounds.
"""
from __future__ import annotations

import argparse
import sys

from gameclock.dataerrors import display_path, printable
from gameclock.dock.pairing import LEVELS
from gameclock.organiser import event as events
from gameclock.organiser.store import Store, StoreError, default_db_path
from gameclock.organiser.textfile import UTF8


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = sub.add_parser("create", help="create an event from a player list")
    create.add_argument("name", metavar="NAME", help="the event's id (one word): the clocks and results carry it")
    create.add_argument("--system", metavar="S", required=True, help="the pairing system (e.g. xw10, dutch)")
    create.add_argument("--players", metavar="FILE", required=True,
                        help="the player list: a CSV (id, name, latin, campus, level, team, board, rating, group) "
                             "or a tsh .t file")
    create.add_argument("--rounds", metavar="N", type=int, default=0, help="the rounds planned (default: not said)")
    create.add_argument("--option", metavar="K=V", action="append", default=[],
                        help="an option of the pairing system (e.g. table_groups=4); again for more")
    create.add_argument("--language", metavar="LANG", default=None, help="the clocks' and sheets' language (th, en)")
    create.add_argument("--preset", metavar="ID", default=None, help="the clocks' preset for the event's games")
    create.add_argument("--level", metavar="LEVEL", default=None,
                        help=f"XW-8's level of the whole event ({', '.join(LEVELS)}; default: each player's)")
    show = sub.add_parser("show", help="the event's settings, players and rounds")
    show.add_argument("name", metavar="NAME")
    for p in (create, show):
        p.add_argument("--db", metavar="FILE", default=None,
                       help="the database (default: $GAMECLOCK_DB or ./gameclock.db)")


def _create(args: argparse.Namespace, store: Store) -> int:
    players = events.load_players(args.players)
    shown = printable(display_path(args.players))
    notes = [f"read as {players.encoding} (Thai), not UTF-8"] if players.encoding != UTF8 else []
    for note in notes + players.ignored:
        print(f"{shown}: {note}", file=sys.stderr)
    ev = events.create_event(store, args.name, args.system, players, rounds=args.rounds,
                             options=events.parse_options(args.option), language=args.language,
                             preset=args.preset, level=args.level)
    for p in players.players:
        print(f"  {events.player_text(p)}" + (f", {p.campus}" if p.campus else ""))
    print(f"event {ev['name']} created: {len(players.players)} players, system {ev['system']}")
    return 0


def _show(args: argparse.Namespace, store: Store) -> int:
    ev = events.event_of(store, args.name)
    setup = ", ".join(f"{k} {ev[k]}" for k in ("language", "preset", "level") if ev.get(k))
    print(f"event {ev['name']}: system {ev['system']}, "
          + (f"{ev['rounds']} rounds" if ev["rounds"] else "rounds not said")
          + (f", {setup}" if setup else "")
          + (", options " + " ".join(f"{k}={v}" for k, v in sorted(ev["options"].items())) if ev["options"] else ""))
    rows = store.event_players(args.name)
    print(f"{len(rows)} players:")
    players = events.players_of(store, args.name)
    for r in rows:
        p = players[r["id"]]
        extra = [x for x in (p.campus, p.level, f"team {p.team}" if p.team else "", f"board {p.board}" if p.board else "",
                             f"rating {p.rating}" if p.rating else "", f"group {p.group}" if p.group else "",
                             "withdrawn" if r["withdrawn"] else "") if x]
        print(f"  {events.player_text(p)}" + (f" ({', '.join(extra)})" if extra else ""))
    for rnd in store.event_rounds(args.name):
        for line in events.round_lines(args.name, rnd, players):
            print(line)
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        with Store(args.db or default_db_path()) as store:
            return _create(args, store) if args.action == "create" else _show(args, store)
    except (events.EventError, StoreError) as exc:
        print(exc, file=sys.stderr)
        return 1
