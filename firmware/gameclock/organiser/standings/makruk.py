"""Makruk standings: individual (MR-9, MR-10) and team (MR-11); knockout games reported (MR-12).

    st = standings(games, byes, preset, event="makruk-m")                 # individual
    st = standings(games, byes, preset, event="makruk-m", teams=load_teams("teams.csv"))  # team

Individual (seed 001 §5(4)-(8)). MP per game: win 2, draw 1, loss 0 (MR-9; the rule file's [scoring]
points). Rank by:

1. MP;
2. head-to-head (seed 001 §5(6): "ให้พิจารณาผลการแข่งขันของคู่นั้น (Head to Head) ผู้ที่ชนะจะถือว่าอยู่ใน
   ตำแหน่งที่เหนือกว่า", the result of that pair's game, the winner ranks higher). For two players this is
   their game; for more players tied on MP we take the usual generalisation, a mini-table: the MP each
   scored in the games among the players of the MP group (column H2H). It is applied once, to the whole MP
   group: players it leaves still level go straight to the next criterion (it is not applied again to the
   smaller group, which the seed does not ask for and which would let a three-way circle be re-read as a
   series of duels). Only when every two players of the group have met (a round robin always has them
   meet by its end; during the event some pairs may not have played yet): otherwise H2H is left empty for
   that group and a note says why, since a mini-table over some of the games favours whoever has played
   the others already.
3. the sum of the values of the pieces each had left on the board (seed 001 §5(7), §7(10): rook 5,
   knight 4, khon 3, met or promoted pawn 2, pawn 1; the clock's record computes it, `Game.piece_value`),
   over all the player's games (the seed says "the pieces left on the board of the tied players", a sum);
4. a shared place (seed 001 §5(8)).

A bye scores nothing (the seed's event is a round robin: a player sitting a round out earns no MP).

Team (MR-11, seed 001 §6): "ให้นำผลการแข่งขันในประเภทบุคคลมาตัดสิน": the team standings are made from the
individual games. `teams` maps each player to (team, board); a team is boards 1..N of a campus
(`[standings] team_boards`, 2 in the makruk presets). For each round, the games its board players
played (a game between two players of the same team is not a team game and is left out): team MP 2
for two wins or a win and a draw, 1 for a win and a loss or two draws, else 0; rank by team MP, then
GP (4 two wins, 3 win and draw, 2 win and loss or two draws, 1 loss and draw, 0 two losses), then the
piece values of its players' games, then a shared place. A team with fewer players listed than its
boards is not ranked (seed 001 §6(1)).

MR-11 defines the table for two boards only. For any number of boards, and for a round in which some
of a team's boards did not play, we use **our extension**: the boards' game points (2/1/0 a game) are
compared with the points their opponents scored in those games: team MP 2 if more, 1 if equal, 0 if
fewer, and GP is the boards' game points. For two boards that is exactly MR-11's table (`team_round`).

Knockout (MR-12, seed 003 Makruk note): games in stage "final" are knockout games; they are not ranked,
the notes give each knockout match's score and whether it is decided, as the pairing system reads it
(knockouts.py): 2 games, a tie decided by drawing lots (the final plays a third game first).
"""
from __future__ import annotations

import csv
import io
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Literal, TypedDict

from gameclock.dataerrors import display_path
from gameclock.organiser import textfile
from gameclock.organiser.standings.boardgames import Selected, game_points, select
from gameclock.organiser.standings.games import SIDES, Bye, Game
from gameclock.organiser.standings.knockouts import KO_MAKRUK, Drawn
from gameclock.organiser.standings.knockouts import notes as knockout_match_notes
from gameclock.organiser.standings.table import Row, Standings, rank_rows
from gameclock.words import Words, note, words

if TYPE_CHECKING:
    from gameclock.rules.loader import Preset

COLUMNS = ["Games", "W", "D", "L", "MP", "H2H", "Pieces"]
TEAM_COLUMNS = ["Players", "Rounds", "W", "D", "L", "MP", "GP", "Pieces"]
MR11_BOARD_POINTS = {"win": 2, "draw": 1, "loss": 0}   # MR-11's GP: a win 2, a draw 1 on each board
Letter = Literal["W", "D", "L"]
_LETTER: dict[str, Letter] = {"win": "W", "draw": "D", "loss": "L"}
_TEAM_LETTER: dict[int, Letter] = {2: "W", 1: "D", 0: "L"}   # by team MP
Teams = Mapping[str, tuple[str, int] | str]   # player -> (team, board), or player -> team


class _PlayerStats(TypedDict):
    Games: int
    W: int
    D: int
    L: int
    MP: int
    H2H: int | None
    Pieces: int


class _TeamStats(TypedDict):
    Players: str
    Rounds: int
    W: int
    D: int
    L: int
    MP: int
    GP: int
    Pieces: int


class TeamsError(ValueError):
    """A teams file (or teams mapping) that cannot be used: one line, `FILE:LINE: what is wrong`."""


def standings(games: Iterable[Game], byes: Iterable[Bye] = (), preset: Preset | None = None,
              event: str | None = None, round: int | None = None, teams: Teams | None = None,
              knockout: Drawn | None = None) -> Standings:
    """Makruk standings of `event` after `round` (all rounds when None): individual (MR-9, MR-10), or
    by team (MR-11, method "makruk-team") when `teams` (player -> (team, board), as `load_teams` reads
    it; or player -> team, the boards then in the mapping's order) is given. `knockout`: the event's
    knockout as its pairing system reads it, for the knockout notes (knockouts.py)."""
    sel = select(games, byes, event, round)
    pts = game_points(preset)
    if teams is not None:
        boards = getattr(getattr(preset, "standings", None), "team_boards", 2)
        st = _team_standings(sel, event, teams, boards)
    else:
        st = _individual(sel, pts, event)
    st.notes[:0] = sel.notes
    if sel.knockout:
        st.rules.append("MR-12")
        st.notes += knockout_notes(sel.knockout, pts, knockout)
    return st


# ------------------------------------------------------------------------------------------ individual
def _first(items: Sequence[str], n: int) -> str | Words:
    """`a, b, c` -- the first `n` of them, then "and N more" -- in a note."""
    shown = ", ".join(items[:n])
    return words("{items} and {more} more", items=shown, more=len(items) - n) if len(items) > n else shown


def _individual(sel: Selected, pts: dict[str, int], event: str | None) -> Standings:
    stats: dict[str, _PlayerStats] = {}
    notes: list[str] = []

    def row(player: str) -> _PlayerStats:
        return stats.setdefault(player, {"Games": 0, "W": 0, "D": 0, "L": 0, "MP": 0, "H2H": None, "Pieces": 0})

    for b in sel.byes:
        row(b.player)
    no_pieces: dict[str, Game] = {}
    for g in sel.games:
        for side in SIDES:
            player = g.name(side)
            result = g.result_of(player)
            r = row(player)
            r["Games"] += 1
            r[_LETTER[result]] += 1
            r["MP"] += pts[result]
            value = (g.piece_value or {}).get(side)
            if value is None:
                no_pieces[g.id] = g
            else:
                r["Pieces"] += value

    groups: dict[int, list[str]] = defaultdict(list)
    for player, r in stats.items():
        groups[r["MP"]].append(player)
    for mp, group in sorted(groups.items(), reverse=True):
        if len(group) < 2:
            continue
        members = set(group)
        inner = [g for g in sel.games if set(g.players.values()) <= members]
        met = {frozenset(g.players.values()) for g in inner}
        unmet = [f"{a} v {b}" for a, b in combinations(sorted(group), 2) if frozenset((a, b)) not in met]
        if unmet:
            notes.append(note("MR-10: head-to-head not used for {players} ({mp} MP): not all of them have met ({unmet} not "
                              "yet)", players=_first(sorted(group), 6), mp=mp, unmet=_first(unmet, 3)))
            continue
        for player in group:
            stats[player]["H2H"] = sum(pts[g.result_of(player)] for g in inner if g.side_of(player))

    if no_pieces:
        notes.append(note("MR-10: {n} game(s) without the pieces left recorded (counted as 0): {ids}", n=len(no_pieces),
                          ids=", ".join(list(no_pieces)[:5]) + (" ..." if len(no_pieces) > 5 else "")))
    if sel.byes:
        notes.append(note("byes score nothing (MR-10: a round robin; a player sitting a round out earns no MP)"))
    rows = [Row(player, dict(values)) for player, values in stats.items()]
    ranked = rank_rows(rows, key=lambda r: (r.values["MP"], r.values["H2H"] or 0, r.values["Pieces"]))
    return Standings(event=event, method="makruk", rules=["MR-9", "MR-10"], columns=list(COLUMNS),
                     rows=ranked, notes=notes)


# ------------------------------------------------------------------------------------------ team

def team_round(results: Sequence[str]) -> tuple[int, int]:
    """(team MP, GP) of one team in one round from its boards' results ("win", "draw", "loss").

    MR-11 (seed 001 §6(2), §6(4)), two boards: MP 2 for two wins or a win and a draw, 1 for a win and a
    loss or two draws, else 0; GP 4, 3, 2 (win+loss or two draws), 1 (loss+draw), 0. Our extension for
    any number of boards: the boards' game points (2/1/0) against their opponents' in the same games:
    MP 2 if more, 1 if equal, 0 if fewer; GP the boards' points. For two boards the two agree."""
    own = sum(MR11_BOARD_POINTS[r] for r in results)
    theirs = 2 * len(results) - own
    return (2 if own > theirs else 1 if own == theirs else 0), own


def _normal_teams(teams: Teams) -> dict[str, tuple[str, int]]:
    """player -> (team, board). A bare team name (player -> team) takes the next board of its team in
    the mapping's order (a file's row order): board 1, then 2, ..."""
    out: dict[str, tuple[str, int]] = {}
    taken: dict[str, int] = defaultdict(int)
    for player, value in teams.items():
        if isinstance(value, str):
            taken[value] += 1
            out[player] = (value, taken[value])
        else:
            team, board = value
            out[player] = (team, board)
    return out


def _check_teams(teams: Mapping[str, tuple[str, int]], boards: int) -> dict[str, dict[int, str]]:
    """team -> {board: player}; TeamsError for a board out of range or a board given twice."""
    out: dict[str, dict[int, str]] = defaultdict(dict)
    for player, (team, board) in sorted(teams.items()):
        if isinstance(board, bool) or not isinstance(board, int) or not 1 <= board <= boards:
            raise TeamsError(f"team {team}: {player} is on board {board!r}, but the rule file has "
                             f"team_boards = {boards} (boards 1..{boards})")
        if board in out[team]:
            raise TeamsError(f"team {team}: board {board} is both {out[team][board]} and {player}")
        out[team][board] = player
    return dict(out)


def _team_standings(sel: Selected, event: str | None, given: Teams, boards: int) -> Standings:
    notes: list[str] = []
    teams = _normal_teams(given)
    lineup = _check_teams(teams, boards)
    ranked_teams = {t for t, b in lineup.items() if len(b) == boards}
    for t in sorted(set(lineup) - ranked_teams):
        notes.append(note("MR-11: team {team} has {n} of {boards} boards listed: not ranked (seed 001 §6(1))", team=t,
                          n=len(lineup[t]), boards=boards))

    per_round: dict[tuple[str, int | None], list[str]] = defaultdict(list)
    pieces: dict[str, int] = defaultdict(int)
    internal: dict[str, Game] = {}
    outsiders: set[str] = set()
    for g in sel.games:
        for side in SIDES:
            player, other = g.name(side), g.name(SIDES[1 - SIDES.index(side)])
            if player not in teams:
                outsiders.add(player)
                continue
            team = teams[player][0]
            if team not in ranked_teams:
                continue
            if other in teams and teams[other][0] == team:
                internal[g.id] = g
                continue
            per_round[(team, g.round)].append(g.result_of(player))
            pieces[team] += (g.piece_value or {}).get(side) or 0

    stats: dict[str, _TeamStats] = {t: {"Players": " / ".join(lineup[t][b] for b in sorted(lineup[t])), "Rounds": 0, "W": 0,
                 "D": 0, "L": 0, "MP": 0, "GP": 0, "Pieces": pieces[t]} for t in ranked_teams}
    for (team, rnd), results in sorted(per_round.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        mp, gp = team_round(results)
        s = stats[team]
        s["Rounds"] += 1
        s[_TEAM_LETTER[mp]] += 1
        s["MP"] += mp
        s["GP"] += gp
        if len(results) < boards:
            notes.append(note("MR-11: team {team}, round {round}: {n} of {boards} boards played; scored by board points "
                              "against the opponents' (our extension)", team=team, round=str(rnd), n=len(results),
                              boards=boards))
    if internal:
        notes.append(note("MR-11: {n} game(s) between players of the same team are not team games: {ids}",
                          n=len(internal), ids=", ".join(list(internal)[:5]) + (" ..." if len(internal) > 5 else "")))
    if outsiders:
        notes.append(note("not in the teams file (their games count for no team): {players}",
                          players=", ".join(sorted(outsiders))))
    if boards != 2:
        notes.append(note("MR-11 defines teams of 2 boards; with {boards} boards team MP compares the boards' points "
                          "with the opponents' (2 more, 1 equal, 0 fewer) and GP is the boards' points (our extension)",
                          boards=boards))
    rows = [Row(t, dict(values)) for t, values in stats.items()]
    ranked = rank_rows(rows, key=lambda r: (r.values["MP"], r.values["GP"], r.values["Pieces"]))
    return Standings(event=event, method="makruk-team", rules=["MR-9", "MR-11"], columns=list(TEAM_COLUMNS),
                     rows=ranked, notes=notes)


# ------------------------------------------------------------------------------------------ knockout

def knockout_notes(games: Sequence[Game], pts: dict[str, int], drawn: Drawn | None = None) -> list[str]:
    """MR-12 (seed 003 Makruk note): each knockout match's score and whether it is decided, as the
    pairing system reads it (knockouts.py: the event's bracket `drawn`, else each pair's games by MR-12)."""
    return knockout_match_notes(games, pts, KO_MAKRUK, drawn)


# ------------------------------------------------------------------------------------------ teams file

TEAMS_MAX_BYTES = 1024 * 1024  # a regular file of at most this much (a team list is a few kB)


def load_teams(path: str | os.PathLike[str]) -> dict[str, tuple[str, int]]:
    """The teams of a Makruk team event (MR-11) from a CSV file: a header row with the columns `player`,
    `team` and `board` (any order, other columns ignored; `,`, `;` or tab between them), then one row per
    player. UTF-8 (with or without a BOM), else windows-874 (Thai Excel) when it is Thai text
    (`organiser/textfile.py`). Blank lines and lines starting
    with `#` are skipped; names' spaces are folded to one, as the clock keeps them. Returns
    {player: (team, board)}. Errors are TeamsError, one line: `FILE:LINE: what is wrong`."""
    shown = display_path(path)
    # UTF-8, else windows-874 only for real Thai text (issue 13 hole 5: Latin-1 is never read as Thai)
    text, _encoding = textfile.read_text(path, max_bytes=TEAMS_MAX_BYTES, error=TeamsError)
    lines = text.splitlines()
    kept = "\n".join("" if ln.lstrip().startswith("#") else ln for ln in lines)
    first = next((ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), None)
    if first is None:
        raise TeamsError(f"{shown}: empty: expected a header row player,team,board and one row per player")
    delimiter = next((d for d in (",", ";", "\t") if d in first), ",")
    reader = csv.reader(io.StringIO(kept), delimiter=delimiter)
    cols: dict[str, int] | None = None
    out: dict[str, tuple[str, int]] = {}
    where_player: dict[str, int] = {}
    where_board: dict[tuple[str, int], tuple[int, str]] = {}
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if cols is None:
            head = [c.strip().lower() for c in cells]
            missing = [c for c in ("player", "team", "board") if c not in head]
            if missing:
                raise TeamsError(f"{shown}:{line}: the header needs the columns player, team and board; "
                                 f"{', '.join(missing)} missing (it has {', '.join(h for h in head if h) or 'nothing'})")
            twice = sorted({h for h in head if h and head.count(h) > 1})
            if twice:
                raise TeamsError(f"{shown}:{line}: column {twice[0]!r} given twice")
            cols = {c: head.index(c) for c in ("player", "team", "board")}
            continue

        def cell(name: str, cols: dict[str, int] = cols, cells: list[str] = cells) -> str:
            i = cols[name]
            return " ".join(cells[i].split()) if i < len(cells) else ""

        player, team, board_text = cell("player"), cell("team"), cell("board")
        where = f"{shown}:{line}: "
        if not player:
            raise TeamsError(f"{where}no player name")
        if not team:
            raise TeamsError(f"{where}{player}: no team")
        if not re.fullmatch(r"[0-9]+", board_text) or int(board_text) < 1:
            raise TeamsError(f"{where}{player}: board {board_text!r} is not a whole number from 1"
                             if board_text else f"{where}{player}: no board")
        board = int(board_text)
        if player in where_player:
            raise TeamsError(f"{where}{player} is listed twice (also line {where_player[player]})")
        if (team, board) in where_board:
            other_line, other = where_board[(team, board)]
            raise TeamsError(f"{where}team {team} board {board} is both {other} (line {other_line}) and {player}")
        where_player[player] = line
        where_board[(team, board)] = (line, player)
        out[player] = (team, board)
    if cols is None or not out:
        raise TeamsError(f"{shown}: no players (a header row player,team,board, then one row per player)")
    return out
