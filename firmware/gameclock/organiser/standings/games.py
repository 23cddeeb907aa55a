"""The games standings and exports work on: one `Game` per stored result record (CL-5), plus byes.

    games = games_from_summaries(store.summaries(event=...))   # what the commands read (no record parsed)
    games = games_from_records(records)                         # the same from record dicts (tests)

A `Game` keeps what the rules rank by, under the names the rules use, so the standings modules read
like the rule digest: `points` (XW-6, MR-9, MH-7 game points), `spread` (XW-7, XW-8: already capped
by the clock's record), `piece_value` (MR-10: the values of the pieces each side had left),
`time_used_ms` (MH-7: less time used in the tie-break games; MH-8: less total time used), `draw_loss`
(MH-8: a draw given counts as a loss for that side), `tiebreak` (MH-4, MH-7: 0 a game of the match, K >= 1
the K-th extra game after a tied match; None when the record has no such field), and for the CSV
export the record's own `recorded_points`, `penalties` (XW-3) and `bonus` (SU-3). A Game holds only
these: it is built from the result's summary (organiser/summary.py), never from the whole record
(the JSONL export writes the stored records as they are). A summary may carry two more values after
the PATHS' ones: the amendment in effect's mark (`amended`) and a hand entry's mark (`hand`, issue 26).

Players are named by the names the clock recorded (from the pairing it was given, issue 6). A game
whose players are unnamed cannot be ranked: `unnamed` lists them so the organiser can fix them.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from gameclock.organiser.summary import PATHS, summary_of

SIDES = ("left", "right")
N_PATHS = len(PATHS)
Result = Literal["win", "draw", "loss"]  # a game's result for one of its players
FORFEIT_REASONS = ("forfeit", "late")   # the game was not played (MH-5 late: lost by not being there)


@dataclass(frozen=True)
class Game:
    id: str                          # the result's id, SERIAL-000017
    event: str | None                # the organiser's event (division) id
    round: int | None
    table: int | None
    preset: str                      # rule file id, e.g. "crossword", "makruk-45"
    kind: str                        # [scoring] kind: crossword, makruk, makhos, sudoku, none
    level: str | None                # XW-8 level (primary, secondary)
    stage: str                       # qualifying, last, final
    game: int                        # game number within a match (MH-7: 4 games a match)
    players: dict[str, str | None]   # {"left": name, "right": name}; None: not known
    winner: str | None               # "left", "right", "draw", or None (no result)
    reason: str | None
    points: dict[str, int | None]    # game points by side (XW-6, MR-9, MH-7)
    scores: dict[str, int | None] | None  # final board scores by side (crossword: after XW-3 penalties)
    spread: dict[str, int | None] | None  # capped spread by side (XW-7, XW-8)
    piece_value: dict[str, int | None] | None  # MR-10 value of the pieces left by side
    time_used_ms: dict[str, int]     # by side, ms (MH-7 tie-break games, MH-8)
    draw_loss: str | None            # MH-8: the side a drawn game counts as lost for
    first: str | None                # the side that moved first (tsh p12), None if unknown
    ended: str | None                # ISO UTC
    # MH-4, MH-7: 0 a game of the match, K >= 1 the K-th extra game after a tied match (`game` stays the
    # game's number in the match); None: the record has no such field (older records)
    tiebreak: int | None = None
    # the record's own game points by side (the CSV's points; XW-6: None means the preset's apply)
    recorded_points: dict[str, int | None] | None = None
    penalties: dict[str, int | None] | None = None  # XW-3 points taken off by side
    bonus: dict[str, int | None] | None = None      # SU-3 bonus points by side
    # the organiser's amendment in effect (organiser/amendments.py `mark`: n, at, by, reason), whose
    # values this game already has; None: the signed result stands
    amended: dict[str, Any] | None = None
    # issue 26: the organiser entered this result by hand (a dead clock): its mark (id, n, at, by,
    # reason; organiser/counting.py HAND_MARK); None: a clock signed it
    hand: dict[str, Any] | None = None

    @property
    def forfeit(self) -> bool:
        """Whether the game was not played: lost by not being there (a forfeit, MH-5's `late`), so the
        players did not meet (TRF `+`/`-`; the Dutch gives it no colour)."""
        return self.reason in FORFEIT_REASONS and self.winner in SIDES

    def side_of(self, player: str) -> str | None:
        for s in SIDES:
            if self.players.get(s) == player:
                return s
        return None

    def opponent(self, player: str) -> str | None:
        s = self.side_of(player)
        return None if s is None else self.players[SIDES[1 - SIDES.index(s)]]

    def name(self, side: str) -> str:
        """The player at `side` of a game whose players are named (the games the standings rank);
        ValueError for a side without a name."""
        name = self.players.get(side)
        if not name:
            raise ValueError(f"result {self.id}: the {side} player has no name")
        return name

    def result_of(self, player: str) -> Result:
        """`result_for` a player of this game when it has a result (the games the standings rank);
        ValueError otherwise."""
        result = self.result_for(player)
        if result is None:
            raise ValueError(f"result {self.id}: no result for {player}")
        return result

    def result_for(self, player: str) -> Result | None:
        """"win", "draw", "loss" for `player` (MH-8's draw-as-loss applied), None if not in it."""
        s = self.side_of(player)
        if s is None or self.winner is None:
            return None
        if self.winner == "draw":
            return "loss" if self.draw_loss == s else "draw"
        return "win" if self.winner == s else "loss"


@dataclass(frozen=True)
class Bye:
    """A player without an opponent in a round (XW-9: a win worth +100 spread, +50 primary)."""
    event: str | None
    round: int
    player: str


def _sides(value: object) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    return {"left": value.get("left"), "right": value.get("right")}  # SIDES, spelt out: built 6 times a game


def game_from_summary(values: Sequence[Any]) -> Game:
    """The Game of a result's summary (`summary.summary_of`, `Store.summaries`: the values at
    summary.PATHS, unpacked here in that order, then, for a result the organiser amended, the
    amendment's mark: `Store.summaries` has applied it already). ValueError for a result without an id."""
    amended = values[N_PATHS] if len(values) > N_PATHS else None
    hand = values[N_PATHS + 1] if len(values) > N_PATHS + 1 else None
    values = values[:N_PATHS]
    (rid, event, rnd, table, preset, kind, level, stage, game, tiebreak, left, right, outcome, reason,
     draw_loss, first, ended, game_points, final, spread, penalties, bonus, material_value,
     time_left, time_right) = values
    if not isinstance(rid, str):
        raise ValueError(f"a stored result without an id: {values!r:.120}")
    recorded = _sides(game_points)
    return Game(
        id=rid, event=event, round=rnd, table=table, preset=preset or "", kind=kind or "none",
        level=level, stage=stage or "qualifying", game=game or 1, players={"left": left, "right": right},
        winner=outcome, reason=reason, points=recorded or {"left": 0, "right": 0},
        scores=_sides(final), spread=_sides(spread), piece_value=_sides(material_value),
        time_used_ms={"left": time_left or 0, "right": time_right or 0}, draw_loss=draw_loss, first=first,
        ended=ended, tiebreak=tiebreak, recorded_points=recorded, penalties=_sides(penalties),
        bonus=_sides(bonus), amended=amended, hand=hand)


def game_from_record(rec: dict[str, Any]) -> Game:
    """The Game of a record dict: that of its summary."""
    return game_from_summary(summary_of(rec))


def _in_order(games: Iterable[Game]) -> list[Game]:
    """Games in (event, round, table, id) order."""
    return sorted(games, key=lambda g: (g.event or "", g.round or 0, g.table or 0, g.id))


def games_from_summaries(summaries: Iterable[Sequence[Any]]) -> list[Game]:
    """Games in (event, round, table, id) order, from results' summaries (`Store.summaries`)."""
    return _in_order(game_from_summary(v) for v in summaries)


def games_from_records(records: Iterable[dict[str, Any]]) -> list[Game]:
    """Games in (event, round, table, id) order."""
    return _in_order(game_from_record(r) for r in records)


def unnamed(games: Iterable[Game]) -> list[Game]:
    """Games a player of which has no name (they cannot be ranked)."""
    return [g for g in games if not all(g.players.values())]
