"""Standings by each event's rules (issue 7) from the results stored on the organiser's PC.

    st = compute(games, byes, preset, event="3", round=5)   # dispatch on preset.scoring.kind

    games.py      Game / Bye: one stored record as the rules see it
    table.py      Row / Standings, rank_rows (shared places), table / CSV / JSON forms
    crossword.py  XW-6 .. XW-11 (medal score)               sudoku.py  SU-2 .. SU-4
    makruk.py     MR-9 .. MR-12 (individual and team)       makhos.py  MH-7, MH-8
    knockouts.py  the knockout notes of both (MR-12, MH-8): each match as the pairing system reads it
    final.py      the final standings of an event the PC pairs (issue 25): places by its system from
                  its published boards (XW-10's final, a knockout's bracket, MH-7's groups), medals,
                  what is provisional
    commands.py   `gameclock standings` (`--final`: final.py's)

`round=N` means the standings after round N (games of rounds <= N; a game without a round is then
left out). Games with an unnamed player cannot be ranked: compute leaves them out with a note
(Sudoku, whose two competitors per record are independent, sorts out its own empty seats).
"""
from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from gameclock.organiser.standings.games import Bye, Game
from gameclock.organiser.standings.table import Standings
from gameclock.words import joined, note, words

if TYPE_CHECKING:
    from gameclock.organiser.standings.knockouts import Drawn
    from gameclock.rules.loader import Preset

# [scoring] kind -> the module whose standings() ranks it
MODULES = {"crossword": "crossword", "sudoku": "sudoku", "makruk": "makruk", "makhos": "makhos"}


def compute(games: Iterable[Game], byes: Iterable[Bye], preset: Preset, *, event: str | None = None,
            round: int | None = None, teams: Mapping[str, tuple[str, int] | str] | None = None,
            knockout: Drawn | None = None) -> Standings:
    """The standings of `games` and `byes` by `preset`'s [scoring] kind. `teams` (player -> (team,
    board) as `makruk.load_teams` reads it, or player -> team) makes Makruk's team standings (MR-11).
    `knockout`: the event's knockout as its pairing system reads it (knockouts.py), for Makruk's and
    Makhos's knockout notes. ValueError for a kind that has no standings."""
    kind = preset.scoring.kind
    if kind not in MODULES:
        raise ValueError(f"preset {preset.id}: [scoring] kind {kind!r} has no standings "
                         f"(one of {', '.join(MODULES)})")
    games = [g for g in games if (event is None or g.event == event)
             and (round is None or (g.round is not None and g.round <= round))]
    byes = [b for b in byes if (event is None or b.event == event) and (round is None or b.round <= round)]
    notes: list[str] = []
    if kind != "sudoku":
        unnamed = [g for g in games if not all(g.players.values())]
        if unnamed:
            games = [g for g in games if all(g.players.values())]
            notes.append(note("not counted, a player has no name (load the pairings before the round): {games}",
                              games=joined([words("round {round} table {table} ({id})", round=str(g.round),
                                                  table=str(g.table), id=g.id) for g in unnamed], "; ")))
    module = importlib.import_module(f"gameclock.organiser.standings.{MODULES[kind]}")   # makruk/makhos: lazily
    st: Standings
    if kind == "makruk":
        st = module.standings(games, byes, preset, event=event, round=round, teams=teams, knockout=knockout)
    elif kind == "makhos":
        st = module.standings(games, byes, preset, event=event, round=round, knockout=knockout)
    else:
        st = module.standings(games, byes, preset, event=event, round=round)
    st.notes[:0] = notes
    return st
