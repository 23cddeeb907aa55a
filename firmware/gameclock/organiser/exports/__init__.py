"""Exports for the organisers' own programs (issue 7, DESIGN.md §6), from the results stored on the
organiser's PC (`dock.store.Store`):

    tsh.py    one tsh `.t` file per division (the crossword family's tournament program)
    trf.py    one FIDE TRF16 file per division (Swiss programs for Makruk and Makhos)
    csv.py    one CSV line per game and per bye, for spreadsheets
    jsonl.py  every stored result as the clock recorded it (what `gameclock import` reads back)
    commands.py  `gameclock export tsh|trf|csv|jsonl`

This module holds what tsh, TRF and CSV share: the stored records become `Game`s and the loaded byes
`Bye`s (standings.games), grouped into divisions, and each division's players get their ids.

Division: the games of one event (the `event` the clock recorded, e.g. from the organiser's pairing),
split by level when the event's games were played at several XW-8 levels (primary, secondary: their
caps and XW-9 bye spreads differ). Its name is the event id, plus `-LEVEL` when split; games without
an event form one division per preset, named by the preset id. A bye goes to the division of its
event in which the player has games (the byes of an event without results are left out).

Player ids (tsh's line numbers, TRF's start ranks): 1, 2, 3 ... in order of first appearance: the
players of the earliest round they appear in, by table, the left player before the right one (so
round 1's pairings read 1 v 2, 3 v 4 ... when its tables are numbered in order), then players whose
first appearance is a bye, by name.

Ratings: the clocks know none; a division of an event the PC pairs (`gameclock event`, the desk) takes
each player's rating from the event's player list (`Division.ratings`, by the name the clocks were
given, else the Latin name). A player the list does not rate, and every player of another event, is
written with rating 0 (tsh's and TRF's "unrated").

Slots: the games a player plays are placed by (round, game): one column per round, or, when a round
had a match of several games (MH-7 4 games, MR-1 2 games), one per game of that round (game order).
A bye fills every slot of its round. A round is numbered 1.. the last round with a result (or
`--round N`): every player must have a game or a bye in every slot: a gap (most often a result not
yet received) is refused by tsh and TRF with every gap named, since tsh has no notation for it (see
trf.py for `--absent`).
"""
from __future__ import annotations

import functools
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from gameclock.organiser.said import SaidError, Words, listed_words, words
from gameclock.organiser.standings.games import FORFEIT_REASONS as FORFEIT_REASONS  # trf.py's, re-exported
from gameclock.organiser.standings.games import SIDES, Bye, Game

if TYPE_CHECKING:
    from gameclock.rules.loader import Preset

MAX_LISTED = 5                          # an error lists this many cases, then "and N more"


class ExportError(SaidError, ValueError):
    """The results cannot be exported as asked: one message naming what is wrong (players, results), as
    Words for the desk's reader where the desk shows it on an ordinary day (organiser/said.py)."""


class Slot(NamedTuple):
    round: int
    game: int


class Cell(NamedTuple):
    """A player's entry in one slot: a game (with the player's side in it) or a bye."""
    game: Game | None
    side: str | None

    @property
    def is_bye(self) -> bool:
        return self.game is None

    @property
    def other(self) -> str | None:
        return None if self.side is None else SIDES[1 - SIDES.index(self.side)]

    def played(self) -> tuple[Game, str, str]:
        """(the game, the player's side, the opponent's side); ValueError for a bye."""
        if self.game is None or self.side is None:
            raise ValueError("a bye has no game")
        return self.game, self.side, SIDES[1 - SIDES.index(self.side)]


@dataclass
class Division:
    name: str
    event: str | None
    level: str | None
    preset: str                               # the preset id most of its games used
    games: list[Game] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    players: list[str] = field(default_factory=list)   # players[i] has id i + 1
    ratings: dict[str, int] = field(default_factory=dict)   # the event's list's ratings by name (module doc)

    def ids(self) -> dict[str, int]:
        return {p: i + 1 for i, p in enumerate(self.players)}

    @property
    def rounds(self) -> int:
        """The last round with a game or a bye (rounds count from 1)."""
        return max([g.round or 0 for g in self.games] + [b.round for b in self.byes] + [0])


def listed(items: list[str]) -> str:
    """'a, b, c' -- at most MAX_LISTED of them, then 'and N more'."""
    shown = ", ".join(items[:MAX_LISTED])
    return shown + (f" and {len(items) - MAX_LISTED} more" if len(items) > MAX_LISTED else "")


def where(g: Game) -> Words:
    """A result as the organiser finds it: `result CLOCK-000017 (round 3, table 5)` (Words: str() is the English)."""
    parts = [words("round {round}", round=g.round) if g.round is not None else words("no round"),
             words("table {table}", table=g.table) if g.table is not None else words("no table")]
    if g.game != 1:
        parts.append(words("game {game}", game=g.game))
    return words("result {id} ({where})", id=g.id, where=Words(", ".join(f"{{p{i}}}" for i in range(len(parts))),
                                                               tuple((f"p{i}", p) for i, p in enumerate(parts))))


@functools.cache
def load_preset(preset_id: str) -> Preset:
    """The preset of this PC's rules folder (cached: one read per export)."""
    from gameclock.rules.loader import find_preset

    return find_preset(preset_id)


def bye_spread(division: Division) -> int:
    """XW-9: the spread a bye is worth in this division: the preset's `[scoring.bye_spread]` for the
    division's level (the rule file's own level when the games name none): +100, or +50 for
    primary-school Crossword. ExportError when the rule file gives none."""
    preset = load_preset(division.preset)
    scoring = preset.scoring
    level = division.level or scoring.default_level
    spread = dict(scoring.bye_spread).get(level) if level is not None else None
    if spread is None:
        raise ExportError(f"{division.name}: the preset {division.preset} gives no bye spread (XW-9) for "
                          f"level {level or '(none: no game of the division names its level, XW-8)'}: "
                          f"its [scoring.bye_spread] is needed for the byes")
    return spread


def file_stem(name: str) -> str:
    """A division name made safe as a file name: letters, digits, '.', '-', '_' kept, and Thai whole:
    its vowel and tone marks are combining marks (Unicode Mn, Mc), which are not letters (`\\w`
    dropped them: `ครอสเว_ร_ด`, issue 26); anything else (a path's `/`, spaces, controls) becomes `_`."""
    stem = "".join(c if c.isalnum() or c in "._-" or unicodedata.category(c) in ("Mn", "Mc") else "_"
                   for c in name).lstrip(".")
    return stem or "division"


def only_rounds(games: list[Game], byes: list[Bye], last_round: int | None) -> tuple[list[Game], list[Bye]]:
    """The games and byes of rounds 1..last_round (all with None)."""
    if last_round is None:
        return list(games), list(byes)
    return ([g for g in games if g.round is not None and g.round <= last_round],
            [b for b in byes if b.round <= last_round])


def divisions(games: Iterable[Game], byes: Iterable[Bye] = ()) -> list[Division]:
    """The games and byes grouped into divisions (module doc), players numbered; sorted by name."""
    games = list(games)
    by_event: dict[tuple[str, str], list[Game]] = {}
    for g in games:
        key = ("event", g.event) if g.event is not None else ("preset", g.preset)
        by_event.setdefault(key, []).append(g)
    out: dict[tuple[str, str, str | None], Division] = {}
    for (kind, ident), event_games in by_event.items():
        levels = sorted({g.level for g in event_games}, key=lambda v: (v is None, v or ""))
        for level in levels:
            mine = [g for g in event_games if g.level == level]
            name = ident + (f"-{level or 'none'}" if len(levels) > 1 else "")
            preset = Counter(g.preset for g in mine).most_common()
            preset_id = min(p for p, n in preset if n == preset[0][1])
            out[(kind, ident, level)] = Division(name, ident if kind == "event" else None, level,
                                                 preset_id, mine)
    # each event's divisions (None: the event-less ones) and each division's players, once: a bye is
    # then placed by a look-up, not by scanning every game (which was games x byes)
    of_event: dict[str | None, list[tuple[Division, set[str | None]]]] = {}
    for d in out.values():
        of_event.setdefault(d.event, []).append((d, {p for g in d.games for p in g.players.values()}))
    for bye in byes:
        candidates = [d for d, _ in of_event.get(bye.event, [])]
        if not candidates:
            continue  # an event without results (its first round's pairings loaded): nothing to export
        playing = [d for d, players in of_event[bye.event] if bye.player in players]
        if len(playing) == 1 or (not playing and len(candidates) == 1):
            (playing or candidates)[0].byes.append(bye)
        elif not playing:
            raise ExportError(f"a bye of {bye.player} in round {bye.round}: {bye.player} has no game in "
                              f"any of {listed(sorted(d.name for d in candidates))}: which division?")
        else:
            raise ExportError(f"{bye.player} has games in {listed(sorted(d.name for d in playing))}: "
                              f"which division is their bye in round {bye.round} for?")
    result = sorted(out.values(), key=lambda d: d.name)
    for d in result:
        d.games.sort(key=lambda g: (g.round or 0, g.game, g.table or 0, g.id))
        d.byes.sort(key=lambda b: (b.round, b.player))
        d.players = player_order(d)
    return result


def player_order(division: Division) -> list[str]:
    """The division's players in id order (module doc: first appearance, table, left first)."""
    first: dict[str, tuple[int, int, int, int, int, str]] = {}
    for g in division.games:
        for i, s in enumerate(SIDES):
            name = g.players.get(s)
            if name is None:
                continue
            key = (g.round or 0, 0, g.table or 0, g.game, i, "")
            if name not in first or key < first[name]:
                first[name] = key
    for b in division.byes:
        key = (b.round, 1, 0, 0, 0, b.player)
        if b.player not in first or key < first[b.player]:
            first[b.player] = key
    return sorted(first, key=lambda p: (first[p], p))


def check_named(division: Division, what: str) -> None:
    """ExportError naming the results whose players the clock did not know (no pairing was pushed)."""
    bad = [where(g) for g in division.games if not all(g.players.get(s) for s in SIDES)]
    if bad:
        raise ExportError(words("{division}: {format} needs the players' names; the clock recorded none in {results} "
                                "(push the pairings to the clocks, or fix the records)", division=division.name,
                                format=what, results=listed_words(bad)))


def grid(division: Division, absent_ok: bool = False) -> tuple[list[Slot], dict[str, list[Cell | None]]]:
    """The division's slots and each player's cell in each (None: a gap, allowed only with
    `absent_ok`). ExportError for a result without a round, a player twice in a slot, and (unless
    absent_ok) for gaps, every one named."""
    no_round = [where(g) for g in division.games if g.round is None]
    if no_round:
        raise ExportError(words("{division}: {results}: no round recorded, so no column for it", division=division.name,
                                results=listed_words(no_round)))
    placed = [(g, g.round) for g in division.games if g.round is not None]   # every game, with its round
    games_of: dict[int, set[int]] = {}
    for g, rnd in placed:
        games_of.setdefault(rnd, set()).add(g.game)
    slots = [Slot(r, n) for r in range(1, division.rounds + 1) for n in sorted(games_of.get(r, {1}))]
    index = {s: i for i, s in enumerate(slots)}
    cells: dict[str, list[Cell | None]] = {p: [None] * len(slots) for p in division.players}
    twice: list[str] = []

    def what(cell: Cell, rnd: int) -> str:
        return f"a bye in round {rnd}" if cell.game is None else str(where(cell.game))

    def put(player: str, i: int, cell: Cell) -> None:
        row = cells[player]
        before = row[i]
        if before is not None:  # named only when it happens: formatting every cell costs time
            twice.append(f"{player} in round {slots[i].round}"
                         + (f" game {slots[i].game}" if len(games_of.get(slots[i].round, ())) > 1 else "")
                         + f": {what(before, slots[i].round)} and {what(cell, slots[i].round)}")
            return
        row[i] = cell

    for g, rnd in placed:
        i = index[Slot(rnd, g.game)]
        for s in SIDES:
            name = g.players.get(s)
            if name is not None:
                put(name, i, Cell(g, s))
    for b in division.byes:
        for n in sorted(games_of.get(b.round, {1})):
            put(b.player, index[Slot(b.round, n)], Cell(None, None))
    if twice:
        raise ExportError(f"{division.name}: a player twice in one round: {listed(twice)}")
    if not absent_ok:
        gaps = [words("{player} in round {round} game {game}", player=p, round=slots[i].round, game=slots[i].game)
                if len(games_of.get(slots[i].round, ())) > 1 else
                words("{player} in round {round}", player=p, round=slots[i].round)
                for p in division.players for i, c in enumerate(cells[p]) if c is None]
        if gaps:
            raise ExportError(words("{division}: no result and no bye for {gaps} (a result not received yet? dock the "
                                    "clock, or load the bye with the round's pairings; --round N exports the rounds "
                                    "before)", division=division.name, gaps=listed_words(gaps)))
    return slots, cells


def standings_ranks(division: Division) -> dict[str, int]:
    """Each player's place in the division's standings by its preset's rules (`standings.compute`):
    shared places share a rank."""
    from gameclock.organiser.standings import compute

    try:
        st = compute(division.games, division.byes, load_preset(division.preset), event=division.event)
    except ExportError:
        raise
    except ValueError as exc:  # a kind without standings (the custom preset's "none"), a rule file error
        raise ExportError(f"{division.name}: no standings for the ranks: {exc}") from None
    return {row.player: row.rank for row in st.rows}
