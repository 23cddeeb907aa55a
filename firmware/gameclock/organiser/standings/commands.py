"""`gameclock standings [--event ID] [--round N] [--format table|csv|json] [--db FILE] [--teams FILE]
[--final]`: the standings of every event (or of `--event`) from the results in the organiser PC's
database, by the rules of the preset the clocks played (the records' `preset` id: the shipped presets or
$GAMECLOCK_RULES_DIR's, and /etc/gameclock/rules), with the byes `gameclock pairings` stored.

`--final`: the final standings (issue 25, `final.py`) of every event the PC pairs (or of `--event`):
the places by the event's system -- the final deciding where one does, a knockout's bracket, the
groups --, the medals, what is provisional and what is still to be played.

    table  one table per event, blank-line separated, notes under each (the default)
    csv    a header, then the rows (the first column is the event); events of other columns
           follow after a blank line with their own header
    json   an array of one object per event (`table.as_dict`, plus "round": --round or null)

`--round N`: the standings after round N (games of rounds 1..N). `--teams FILE`: Makruk's teams
(MR-11): a CSV with the header `player,team,board`, one row per player (`makruk.load_teams`).

One event's results must be scored one way: presets of different [scoring] kinds in one event are an
error naming them; presets of one kind are scored by the preset most of its games used (a note says
so). Exit status 1, with one line on stderr, when there are no results, the database or a preset
cannot be read, or the teams file is wrong.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from gameclock.dataerrors import display_path
from gameclock.organiser.standings import compute
from gameclock.organiser.standings.games import Bye, Game, games_from_summaries
from gameclock.organiser.standings.knockouts import Drawn
from gameclock.organiser.standings.table import Standings, as_dict, format_csv, format_table
from gameclock.organiser.store import Store, StoreError, default_db_path
from gameclock.rules.loader import Preset, RuleError, find_preset
from gameclock.words import note

FORMATS = ("table", "csv", "json")


class StandingsError(Exception):
    """One line for stderr."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--event", metavar="ID", default=None, help="only this event (division)")
    parser.add_argument("--round", metavar="N", type=int, default=None,
                        help="the standings after round N (default: every round stored)")
    parser.add_argument("--format", choices=FORMATS, default="table", help="table (default), csv or json")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="the database (default: $GAMECLOCK_DB or ./gameclock.db)")
    parser.add_argument("--teams", metavar="FILE", default=None,
                        help="Makruk teams (MR-11): a CSV with the columns player, team, board")
    parser.add_argument("--final", action="store_true",
                        help="the final standings of the events this PC pairs: places, medals, what is provisional")


def read_teams(path: str | Path) -> dict[str, tuple[str, int]]:
    """{player: (team, board)} from a teams CSV (`gameclock.organiser.standings.makruk.load_teams`: a header
    player,team,board, then one row per player); StandingsError naming the file and line."""
    from gameclock.organiser.standings.makruk import TeamsError, load_teams

    try:
        return load_teams(path)
    except TeamsError as exc:
        raise StandingsError(str(exc)) from None


def event_preset(event: str | None, games: list[Game]) -> tuple[Preset, str | None]:
    """The preset an event's games are scored by, and a note when they used several (one kind)."""
    used = Counter(g.preset for g in games)
    name = f"event {event}" if event is not None else "results without an event"
    presets: dict[str, Preset] = {}
    for pid in sorted(used):
        try:
            presets[pid] = find_preset(pid)
        except RuleError as exc:
            raise StandingsError(f"{name}: preset {pid!r} of its results: {exc}") from None
    kinds = {p.scoring.kind for p in presets.values()}
    if len(kinds) > 1:
        listed = ", ".join(f"{pid} ({p.scoring.kind})" for pid, p in presets.items())
        raise StandingsError(f"{name}: results of presets scored differently: {listed}; one event is "
                             f"ranked one way (set each clock's event)")
    chosen = max(sorted(used), key=lambda pid: used[pid])
    several = None
    if len(used) > 1:
        several = note("results of presets {presets}: scored by {preset}'s rules", presets=", ".join(sorted(used)),
                       preset=chosen)
    return presets[chosen], several


def run(args: argparse.Namespace) -> int:
    try:
        out = _run(args)
    except (StandingsError, StoreError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 1
    sys.stdout.write(out)
    return 0


def event_standings(store: Store, event: str | None = None, round: int | None = None,
                    teams: dict[str, tuple[str, int]] | None = None, db_name: str | None = None,
                    games: list[Game] | None = None) -> list[Standings]:
    """The standings tables `gameclock standings` prints, one per event (of `event` only if given),
    after round `round` if given: from the store's summaries and byes, each event scored by its
    preset (`event_preset`, with its note first). The organiser's desk shows these same tables.
    StandingsError when there are no results. `games`: the games of `event` as `games_from_summaries` reads
    them, when the caller holds them already (the desk's: desk/eventgames.py)."""
    if games is None:
        games = games_from_summaries(store.summaries(event=event))  # each result's summary, streamed
    games = _lone_seats_named(store, games)
    bye_rows = store.byes(event)
    if round is not None:
        games = [g for g in games if g.round is not None and g.round <= round]
    if not games:
        what = f" of event {event}" if event is not None else ""
        upto = f" up to round {round}" if round is not None else ""
        raise StandingsError(f"{db_name or store.name}: no results{what}{upto}")
    byes = [Bye(b["event"], b["round"], b["player"]) for b in bye_rows]
    events: dict[str | None, list[Game]] = {}
    for g in games:
        events.setdefault(g.event, []).append(g)
    tables = []
    for ev in sorted(events, key=lambda e: (e is not None, e or "")):
        preset, several = event_preset(ev, events[ev])
        drawn, drawn_note = _knockout_drawn(store, ev, round)
        st = compute(events[ev], [b for b in byes if b.event == ev], preset, event=ev,
                     round=round, teams=teams if preset.scoring.kind == "makruk" else None, knockout=drawn)
        st.event = ev
        if several:
            st.notes.insert(0, several)
        if drawn_note:
            st.notes.append(drawn_note)
        st.notes += _player_notes(store, ev, st)
        tables.append(st)
    return tables


def _player_notes(store: Store, event: str | None, st: Standings) -> list[str]:
    """The standings' notes on the players of an event the PC pairs who withdrew or entered late (issue 26:
    `event.player_marks`): "Boon: withdrawn after round 1", one a player ranked in `st`."""
    from gameclock.organiser.event import player_marks

    if event is None:
        return []
    marks = player_marks(store, event)
    return [note("{player}: {mark}", player=r.player, mark=marks[r.player]) for r in st.rows if r.player in marks]


def _knockout_drawn(store: Store, event: str | None, round: int | None) -> tuple[Drawn | None, str | None]:
    """The knockout of an event the PC pairs as its pairing system reads it (`event.knockout_of`, after
    `round` when given), for the knockout notes (knockouts.py); None for any other event. A result the
    draw cannot read (its players are not its table's) is said in a note, and the notes read each
    pair's games alone."""
    from gameclock.organiser.event import EventError, knockout_of

    if event is None or event not in store.events():
        return None, None
    try:
        br = knockout_of(store, event, round)
    except EventError as exc:
        return None, note("the knockout's draw cannot be read: {why}", why=exc.words or str(exc))
    if br is None:
        return None, None
    return Drawn(br, {p["id"]: p["name"] for p in store.event_players(event)}), None


def _lone_seats_named(store: Store, games: list[Game]) -> list[Game]:
    """The games with the lone Sudoku competitors of the events the PC pairs named (`final.name_lone_seats`:
    their clock was started by hand, its record names nobody; the published board says who sat there)."""
    from gameclock.organiser.event import published_rounds
    from gameclock.organiser.standings.final import name_lone_seats

    paired = set(store.events())
    by_event: dict[str | None, list[Game]] = {}
    for g in games:
        by_event.setdefault(g.event, []).append(g)
    out: list[Game] = []
    for ev, gs in by_event.items():
        if ev in paired and ev is not None:
            names = {p["id"]: p["name"] for p in store.event_players(ev)}
            gs = name_lone_seats(gs, published_rounds(store, ev), names)
        out += gs
    return out


def _final(args: argparse.Namespace, store: Store, db_name: str) -> str:
    from gameclock.organiser.standings.final import classify, final_dict, format_final, format_final_csv

    if args.round is not None or args.teams is not None:
        raise StandingsError("--final gives the standings at the end of the event: without --round and --teams "
                             "(a team event's teams are its players' team and board)")
    names = [args.event] if args.event is not None else store.events()
    if not names:
        raise StandingsError(f"{db_name}: no event paired by this PC (gameclock event create)")
    out = []
    for name in names:
        fc = classify(store, name)
        if fc is None:
            raise StandingsError(f"{db_name}: event {name!r} is not paired by this PC: its final standings need "
                                 "its rounds (gameclock event create, gameclock pair)")
        out.append(fc)
    if args.format == "json":
        return json.dumps([final_dict(fc) for fc in out], ensure_ascii=False, indent=1) + "\n"
    if args.format == "csv":
        return "\n".join(format_final_csv(fc) for fc in out)
    return "\n".join(format_final(fc) for fc in out)


def _run(args: argparse.Namespace) -> str:
    db_path = Path(args.db) if args.db else default_db_path()
    if not db_path.exists():
        raise StandingsError(f"{display_path(db_path)}: no such database (gameclock receive creates it)")
    if getattr(args, "final", False):
        with Store(db_path, readonly=True) as store:
            return _final(args, store, display_path(db_path))
    teams = read_teams(args.teams) if args.teams else None
    with Store(db_path, readonly=True) as store:
        tables = event_standings(store, args.event, args.round, teams, display_path(db_path))
    if teams is not None and not any(st.method.startswith("makruk") for st in tables):
        print("note: --teams is for Makruk events (MR-11); none of these is one", file=sys.stderr)
    if args.format == "json":
        return json.dumps([{**as_dict(st), "round": args.round} for st in tables], ensure_ascii=False,
                          indent=1) + "\n"
    if args.format == "csv":
        out = format_csv(tables[0])
        for before, st in zip(tables, tables[1:], strict=False):  # each with the next
            text = format_csv(st)
            out += text.split("\n", 1)[1] if st.columns == before.columns else "\n" + text
        return out
    head = f"standings after round {args.round}\n\n" if args.round is not None else ""
    return head + "\n".join(format_table(st) for st in tables)
