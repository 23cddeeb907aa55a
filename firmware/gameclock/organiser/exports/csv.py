"""A plain CSV for spreadsheets (DESIGN.md §6): a header, then one line per game and one per bye,
by division, round, table.

    division,round,table,player1,score1,player2,score2,winner,reason,spread1,spread2,
    penalty1,penalty2,points1,points2,first,game,level,stage,id,amended,hand

- division: as for tsh and TRF (exports/__init__.py): the event id, plus `-LEVEL` when the event's
  games were played at several levels.
- player1 / player2: the left and right players at the clock (empty when the clock had no names).
- score1 / score2: the final scores (crossword: the board score less the XW-3 penalty; sudoku: with
  the SU-3 bonus); empty for kinds without scores (Makruk, Makhos).
- winner: the winner's name (the player's side when unnamed: `left`/`right`), `draw`, or empty
  (no result; and a Sudoku record without a winner: its two competitors are not opponents, the
  scores are its result); reason: as recorded (`score`, `mate`, `flag`, `forfeit`, ...; `bye` for a bye).
- spread1 / spread2: XW-8 capped spread; penalty1 / penalty2: XW-3 points taken off; points1 /
  points2: the game points (XW-6, MR-9, MH-7; empty when the record has none, e.g. Sudoku).
- first: 1 when player1 moved first, 2 when player2 did, empty when not known.
- game: the game of a match (MH-7, MR-1); level, stage (XW-8); id: the result's id.
- amended: empty when the signed result stands; else the reason of the organiser's amendment in
  effect (organiser/amendments.py), whose outcome, scores, spread and points the row has.
- hand: empty for a clock's signed result; for the organiser's hand entry of a game (issue 26: its
  clock died) who entered it and why, `NAME: REASON` (its id is `hand:N`, never a clock's).

A bye: player1 is the player, player2 empty, winner the player, reason `bye`; in the crossword family
spread1 is its XW-9 spread (+100, +50 primary Crossword) and points1 the preset's win points.

`gameclock pairings` reads this file back as a round's pairings (its `division`, `round`, `table`,
`player1`, `player2` columns; a row with one player is a bye).

Encoding: UTF-8 with a byte-order mark (so that Excel reads Thai names right), or windows-874.
Cells: numbers as they are (a negative spread stays a number), text quoted, and a text a spreadsheet
would run as a formula (`=...`, `+...`, `-...`, `@...`) with a single quote before it: `'=HYPERLINK(...)`
(organiser/csvcells.py says why; `gameclock pairings` takes the quote off again).
"""
from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from gameclock.organiser.csvcells import csv_header, csv_line
from gameclock.organiser.exports import Division, ExportError, bye_spread, load_preset
from gameclock.organiser.standings.games import Bye, Game

COLUMNS = ["division", "round", "table", "player1", "score1", "player2", "score2", "winner", "reason",
           "spread1", "spread2", "penalty1", "penalty2", "points1", "points2", "first", "game", "level",
           "stage", "id", "amended", "hand"]
ENCODINGS = {"utf-8": "utf-8-sig", "windows-874": "cp874"}


def _v(value: object) -> str:
    return "" if value is None else str(value)


def _pair(d: Mapping[str, Any] | None, side: str) -> object:
    return None if not d else d.get(side)


def game_row(division: Division, g: Game) -> list[str]:
    penalties = g.penalties
    # the record's own game points: null ones (no result; Sudoku) stay empty (Game.points makes them 0)
    points = g.recorded_points
    winner: str | None
    if g.winner in ("left", "right"):
        winner = g.players.get(g.winner) or g.winner
    else:
        winner = g.winner
    first = None if g.first is None else {"left": 1, "right": 2}.get(g.first)
    return [_v(x) for x in (
        division.name, g.round, g.table, g.players.get("left"), _pair(g.scores, "left"),
        g.players.get("right"), _pair(g.scores, "right"), winner, g.reason,
        _pair(g.spread, "left"), _pair(g.spread, "right"), _pair(penalties, "left"), _pair(penalties, "right"),
        _pair(points, "left"), _pair(points, "right"), first, g.game, g.level, g.stage, g.id,
        (g.amended or {}).get("reason"), f"{g.hand['by']}: {g.hand['reason']}" if g.hand else None)]


def bye_row(division: Division, bye: Bye) -> list[str]:
    kind = load_preset(division.preset).scoring.kind
    spread = points = None
    if kind == "crossword":
        spread, points = bye_spread(division), load_preset(division.preset).scoring.win_points
    return [_v(x) for x in (
        division.name, bye.round, None, bye.player, None, None, None, bye.player, "bye",
        spread, None, None, None, points, None, None, None, division.level, None, None, None, None)]


def text(divisions: list[Division]) -> str:
    out = io.StringIO()
    out.write(csv_header(COLUMNS))
    for d in divisions:
        rows = [((g.round or 0, 0, g.game, g.table or 0, g.id), game_row(d, g)) for g in d.games]
        rows += [((b.round, 1, 0, 0, b.player), bye_row(d, b)) for b in d.byes]
        for _, row in sorted(rows, key=lambda r: r[0]):
            out.write(csv_line(row))
    return out.getvalue()


def export(divisions: list[Division], encoding: str = "utf-8") -> bytes:
    codec = ENCODINGS.get(encoding)
    if codec is None:
        raise ExportError(f"unknown encoding {encoding!r} (utf-8 or windows-874)")
    body = text(divisions)
    try:
        return body.encode(codec)
    except UnicodeEncodeError as exc:
        line = body[:exc.start].count("\n") + 1
        raise ExportError(f"CSV line {line}: {body.splitlines()[line - 1][:60]!r} cannot be written in "
                          f"{encoding} (character {exc.object[exc.start]!r}): use --encoding utf-8") from None
