"""`gameclock event create NAME --system S --players FILE [--rounds N] [--option k=v ...] [--language th|en]
[--preset ID] [--level LEVEL] [--db FILE]`, `gameclock event set NAME --option k=v ... [--reason TEXT]
[--db FILE]`, `gameclock event player NAME PLAYER [--withdraw | --reinstate] [--name TEXT] [--latin TEXT]
[--school TEXT] [--level LEVEL] [--rating N] [--reason TEXT] [--db FILE]`, `gameclock event late NAME ID
--name TEXT [--latin TEXT] [--school TEXT] [--level LEVEL] [--rating N] [--team T] [--board N]
[--group G] [--reason TEXT] [--db FILE]` and `gameclock event show NAME [--db FILE]` (issues 16, 25,
26): an event the PC pairs itself, from a player list (CSV or tsh `.t`, read by `organiser/event.py`),
its options, its players during the event, and what it holds.

`player` changes one player (PLAYER: the id, the name or the Latin name): `--withdraw` (not paired
from the next round; the games played stay), `--reinstate` (a withdrawal undone before the next round is
published), or an edit of the name, Latin name, school, level, rating (a renamed player's old name
stays theirs: the clocks recorded it). `late` adds a late entry, who joins the next round (the rounds
missed score nothing; a round robin, the groups or a knockout take none once round 1 is published).
Each prints what it did, a line each (`NAME: 3 Anan: name Anan » Anan Wong`), and is kept with who (the
login name), when, before, after and the reason (needed once a round is published).

`create` prints the players read and `event NAME created: N players, system S`; on stderr what the
reader wants the organiser to know (`FILE: read as windows-874 (Thai), not UTF-8`, `FILE: ignored
columns ...`). A bad list creates nothing: its one-line error (`FILE:LINE: ...`) goes to stderr, exit
status 1. `show` prints the event's settings, the options of its system in effect and their changes,
its players and every round (draft or published, with its seed). `gameclock pair NAME` pairs its rounds.

`--option k=v` takes the option's value as its system declares it (organiser/pairing/options.py,
docs/rules.md's table): `order=P3,P1,P4,P2`, `tiebreak=W-X,Y-Z`, `lots=P3>P1`, `gives_first=P7`;
`k=@FILE` reads the value from a file, one item a line (blank lines and `#` comments skipped; at most
MAX_OPTION_FILE bytes, a regular file). `set` changes options after creation, one line per change
(`NAME: k: before » after`); once a round is published it needs `--reason`, and a change a published
round has used is refused, in one line saying why. Each change is kept with who (the login name),
when, before, after and the reason.
"""
from __future__ import annotations

import argparse
import getpass
import sys

from gameclock.dataerrors import display_path, printable
from gameclock.dock.pairing import LEVELS
from gameclock.organiser import event as events
from gameclock.organiser.store import Store, StoreError, default_db_path
from gameclock.organiser.textfile import UTF8, read_text

MAX_OPTION_FILE = 256 * 1024   # a long order: 2000 ids of up to 16 characters, a line each, with room


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
                        help="an option of the pairing system (e.g. order=P3,P1,P4,P2; K=@FILE: one item a line); "
                             "again for more")
    create.add_argument("--language", metavar="LANG", default=None, help="the clocks' and sheets' language (th, en)")
    create.add_argument("--preset", metavar="ID", default=None, help="the clocks' preset for the event's games")
    create.add_argument("--level", metavar="LEVEL", default=None,
                        help=f"XW-8's level of the whole event ({', '.join(LEVELS)}; default: each player's)")
    change = sub.add_parser("set", help="change the event's options (kept with who, when, before, after, why)")
    change.add_argument("name", metavar="NAME", help="the event")
    change.add_argument("--option", metavar="K=V", action="append", default=[],
                        help="an option and its new value (K= : back to the default; K=@FILE: one item a line); "
                             "again for more")
    change.add_argument("--reason", metavar="TEXT", default="",
                        help="why (needed once a round is published)")
    player = sub.add_parser("player", help="withdraw, reinstate or edit a player (kept with who, when, before, "
                                           "after, why)")
    player.add_argument("name", metavar="NAME", help="the event")
    player.add_argument("player", metavar="PLAYER", help="the player: id, name or Latin name")
    gone = player.add_mutually_exclusive_group()
    gone.add_argument("--withdraw", action="store_true", help="not paired from the next round (past games stay)")
    gone.add_argument("--reinstate", action="store_true",
                      help="undo a withdrawal (before the next round is published)")
    late = sub.add_parser("late", help="a late entry: the player joins the next round")
    late.add_argument("name", metavar="NAME", help="the event")
    late.add_argument("id", metavar="ID", help="the new player's id (1-16 letters, digits, _ . -)")
    for p in (player, late):
        p.add_argument("--name", dest="player_name", metavar="TEXT", default=None, required=p is late,
                       help="the player's name (as the clocks show it)")
        p.add_argument("--latin", metavar="TEXT", default=None, help="the name in Latin script")
        p.add_argument("--school", metavar="TEXT", default=None, help="the school (campus)")
        p.add_argument("--level", metavar="LEVEL", default=None, help=f"XW-8's level ({', '.join(LEVELS)})")
        p.add_argument("--rating", metavar="N", default=None, help="the rating (0-9999)")
        p.add_argument("--reason", metavar="TEXT", default="", help="why (needed once a round is published)")
    late.add_argument("--team", metavar="T", default="", help="the team (MR-11)")
    late.add_argument("--board", metavar="N", type=int, default=0, help="the board in the team (MR-11)")
    late.add_argument("--group", metavar="G", default="", help="the group")
    show = sub.add_parser("show", help="the event's settings, options, players and rounds")
    show.add_argument("name", metavar="NAME")
    for p in (create, change, player, late, show):
        p.add_argument("--db", metavar="FILE", default=None,
                       help="the database (default: $GAMECLOCK_DB or ./gameclock.db)")


def option_items(items: list[str]) -> list[str]:
    """The `--option` words with each `k=@FILE` replaced by the file's items, one a line (read with
    limits through textfile/boundedfile: a regular file, UTF-8 or Thai windows-874, at most
    MAX_OPTION_FILE bytes); EventError `option k: FILE: why`."""
    out = []
    for item in items:
        key, eq, value = item.partition("=")
        if eq and value.strip().startswith("@"):
            try:
                text, _ = read_text(value.strip()[1:], max_bytes=MAX_OPTION_FILE, error=events.EventError)
            except events.EventError as exc:
                raise events.EventError(f"option {printable(key.strip()[:40])}: {exc}") from None
            lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
            item = f"{key}=" + "\n".join(line for line in lines if line)
        out.append(item)
    return out


def _create(args: argparse.Namespace, store: Store) -> int:
    players = events.load_players(args.players)
    shown = printable(display_path(args.players))
    options = events.parse_options(option_items(args.option), args.system, events.entrants(players.players))
    notes = [f"read as {players.encoding} (Thai), not UTF-8"] if players.encoding != UTF8 else []
    for note in notes + players.ignored:
        print(f"{shown}: {note}", file=sys.stderr)
    ev = events.create_event(store, args.name, args.system, players, rounds=args.rounds,
                             options=options, language=args.language, preset=args.preset, level=args.level)
    for p in players.players:
        print(f"  {events.player_text(p)}" + (f", {p.campus}" if p.campus else ""))
    print(f"event {ev['name']} created: {len(players.players)} players, system {ev['system']}")
    return 0


def user() -> str:
    """Who changes options from this command line: the login name."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):   # no login name in the environment and no passwd entry (a container)
        return "organiser"


def _set(args: argparse.Namespace, store: Store) -> int:
    try:
        done = events.set_option_texts(store, args.name, option_items(args.option), args.reason, by=user())
    except events.ReasonNeeded as exc:
        raise events.EventError(f"{exc} (--reason TEXT)") from None
    system = events.event_of(store, args.name)["system"]
    who = events.event_entrants(store, args.name)
    for key, before, after in done.changes:
        print(f"{args.name}: {key}: {events.option_text(system, key, before, who) or events.NOT_GIVEN} » "
              f"{events.option_text(system, key, after, who) or events.NOT_GIVEN}")
    if done.draft_round is not None:
        print(f"{args.name}: the draft of round {done.draft_round} was drawn before: pair it again "
              f"(gameclock pair {args.name} --seed N)")
    return 0


def _said(name: str, done: events.PlayerChanged) -> int:
    for line in done.said:
        print(f"{name}: {line}")
    if done.draft_round is not None:
        print(f"{name}: the draft of round {done.draft_round} was drawn before: pair it again "
              f"(gameclock pair {name} --again)")
    return 0


def _edits(args: argparse.Namespace) -> dict[str, object]:
    """The fields `player` and `late` were given: {EDITABLE key: text}."""
    given = {"name": args.player_name, "latin": args.latin, "campus": args.school, "level": args.level,
             "rating": args.rating}
    return {k: v for k, v in given.items() if v is not None}


def _player(args: argparse.Namespace, store: Store) -> int:
    edits = _edits(args)
    try:
        if args.withdraw or args.reinstate:
            if edits:
                raise events.EventError("--withdraw and --reinstate go alone (edit the player in another command)")
            step = events.withdraw if args.withdraw else events.reinstate
            return _said(args.name, step(store, args.name, args.player, args.reason, by=user()))
        if not edits:
            raise events.EventError("give what changes: --withdraw, --reinstate, --name, --latin, --school, --level "
                                    "or --rating")
        return _said(args.name, events.edit_player(store, args.name, args.player, edits, args.reason, by=user()))
    except events.ReasonNeeded as exc:
        raise events.EventError(f"{exc} (--reason TEXT)") from None


def _late(args: argparse.Namespace, store: Store) -> int:
    texts = {**{k: str(v) for k, v in _edits(args).items()}, "id": args.id, "team": args.team,
             "board": str(args.board or ""), "group": args.group}
    player = events.player_from_texts(texts, f"{args.name}: ")
    try:
        return _said(args.name, events.enter_late(store, args.name, player, args.reason, by=user()))
    except events.ReasonNeeded as exc:
        raise events.EventError(f"{exc} (--reason TEXT)") from None


def option_lines(store: Store, ev: dict[str, object]) -> list[str]:
    """The options in effect (each declared one, given or not) and their changes, for `show`."""
    name, system = str(ev["name"]), str(ev["system"])
    rows = events.options_in_effect(store, ev)
    out: list[str] = []
    if any(r["option"] is not None for r in rows):
        out.append(f"options of {system}:")
        for r in rows:
            out.append(f"  {r['name']}={r['text']}" if r["given"] else f"  {r['name']}: not given ({r['option'].default})")
    elif rows:
        out.append("options: " + " ".join(f"{r['name']}={r['text']}" for r in rows))
    trail = events.option_changes(store, name)
    out.append("option changes:" if trail else "option changes: none")
    for e in trail:
        out.append(f"  #{e['n']} {e['at']} {e['by']}: {e['key']}: {e['before_text']} » {e['after_text']}"
                   + (f" ({e['reason']})" if e["reason"] else ""))
    return out


def _show(args: argparse.Namespace, store: Store) -> int:
    ev = events.event_of(store, args.name)
    setup = ", ".join(f"{k} {ev[k]}" for k in ("language", "preset", "level") if ev.get(k))
    print(f"event {ev['name']}: system {ev['system']}, "
          + (f"{ev['rounds']} rounds" if ev["rounds"] else "rounds not said")
          + (f", {setup}" if setup else ""))
    for line in option_lines(store, ev):
        print(line)
    rows = store.event_players(args.name)
    print(f"{len(rows)} players:")
    players = events.players_of(store, args.name)
    for r in rows:
        p = players[r["id"]]
        extra = [x for x in (p.campus, p.level, f"team {p.team}" if p.team else "", f"board {p.board}" if p.board else "",
                             f"rating {p.rating}" if p.rating else "", f"group {p.group}" if p.group else "",
                             f"joined in round {r['joined']}" if (r["joined"] or 0) > 1 else "",
                             str(events.withdrawn_words(r["withdrawn_after"])) if r["withdrawn"] else "",
                             f"formerly {', '.join(r['aliases'])}" if r["aliases"] else "") if x]
        print(f"  {events.player_text(p)}" + (f" ({', '.join(extra)})" if extra else ""))
    trail = events.player_changes(store, args.name)
    print("player changes:" if trail else "player changes: none")
    for e in trail:
        print(f"  #{e['n']} {e['at']} {e['by']}: {e['player']} {e['what']}: {e['before_text']} » {e['after_text']}"
              + (f" ({e['reason']})" if e["reason"] else ""))
    for rnd in store.event_rounds(args.name):
        for line in events.round_lines(args.name, rnd, players):
            print(line)
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        with Store(args.db or default_db_path()) as store:
            return {"create": _create, "set": _set, "player": _player, "late": _late,
                    "show": _show}[args.action](args, store)
    except (events.EventError, StoreError) as exc:
        print(exc, file=sys.stderr)
        return 1
