"""Which results count, and where (issue 26): the one reading of the store's results that every reader
shares, through `Store.summaries`.

A result counts at its *slot*, (event, round, table, game), as its summary says once the amendment in
effect is applied (amendments.py: a wrong upload moved to its real table, or set aside: then it counts
nowhere). At a slot,

- an organiser's **hand entry** (`Store.put_hand_result`, a dead clock's game) counts; a signed result
  arriving there later is **held** (HAND): a conflict the organiser decides at the desk -- keep the
  hand entry (the clock's result is set aside) or take the clock's (the hand entry is withdrawn);
- a signed result whose players are not the ones its table was published with (PLAYERS: a clock set
  to the wrong table kept other names, or had none), or at a table its round does not have (TABLE), is
  held: it names people who did not play that game there;
- two or more signed results for one game (DOUBLE: a clock set to a table whose own clock sent its
  result too) are all held: which is the table's is the organiser's call (move the other away).

A held result is stored as it came and shown on the desk's "results to look at" page with why; it
counts nowhere until the organiser moves it, sets it aside, or decides. Nothing here changes a
stored row: it is a reading. Summaries are lists (organiser/summary.py); a hand entry's carries its
mark at HAND_MARK (after the amendment mark's place, None for a hand entry: hand entries are not
amended, they are entered again).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gameclock.organiser import summary

I_ID, I_EVENT, I_ROUND, I_TABLE = (summary.PATHS.index(p) for p in ("id", "event", "round", "table"))
I_GAME = summary.PATHS.index("game")
I_LEFT, I_RIGHT = summary.PATHS.index("players.left"), summary.PATHS.index("players.right")
HAND_MARK = len(summary.PATHS) + 1      # a hand entry's summary: [... PATHS' values, None, its mark]

Slot = tuple[str, int, int, int]        # event, round, table, game
Table = tuple[str, int, int]            # event, round, table

# why a signed result is held (the desk says it in words: WHY)
HAND, PLAYERS, TABLE, DOUBLE = "hand", "players", "table", "double"
WHY = {HAND: "a hand entry counts for this game: keep it, or take the clock's",
       PLAYERS: "not the table's players",
       TABLE: "no such table in the round as published",
       DOUBLE: "two results for one game"}


def slot(values: Sequence[Any]) -> Slot | None:
    """Where a summary counts: (event, round, table, game); None without an event, round or table."""
    event, rnd, table = values[I_EVENT], values[I_ROUND], values[I_TABLE]
    if event is None or rnd is None or table is None:
        return None
    return (event, rnd, table, values[I_GAME] or 1)


def sort_key(values: Sequence[Any]) -> tuple[Any, ...]:
    """The order `Store.results` gives: event, round, table (nulls first, as SQLite sorts them), id."""
    event, rnd, table = values[I_EVENT], values[I_ROUND], values[I_TABLE]
    return (event is not None, event or "", rnd is not None, rnd or 0, table is not None, table or 0,
            values[I_ID] or "")


def in_filter(values: Sequence[Any], event: str | None, rnd: int | None) -> bool:
    """Whether a summary is of `event` and `rnd` (None: any)."""
    return (event is None or values[I_EVENT] == event) and (rnd is None or values[I_ROUND] == rnd)


class Tables:
    """The published tables a result is checked against: each table's players (names, as pushed to the
    clocks: the `pairings` rows), and every table of the rounds that are known (a round's pairings or
    its published boards, Sudoku competitors seated alone included)."""

    def __init__(self, players: Mapping[Table, tuple[str, str]], tables: Iterable[Table]) -> None:
        self.players = dict(players)
        self.tables = set(tables) | set(self.players)
        self.rounds = {(e, r) for e, r, _ in self.tables}

    def why(self, values: Sequence[Any]) -> str | None:
        """TABLE or PLAYERS when a signed summary cannot be its table's game; None when it can (or
        nothing is known of its round: a results-only event). Called for every result read: plain
        tuples, no sets built."""
        event, rnd, table = values[I_EVENT], values[I_ROUND], values[I_TABLE]
        if (event, rnd) not in self.rounds or table is None:
            return None
        at = (event, rnd, table)
        if at not in self.tables:
            return TABLE
        seated = self.players.get(at)
        if seated is not None:
            left, right = values[I_LEFT], values[I_RIGHT]
            # a match's games alternate sides (MH-7): the pair either way round is the table's
            if (left, right) != seated and (right, left) != seated:
                return PLAYERS
        return None


def doubles(members: Iterable[Sequence[Any]]) -> set[str]:
    """The ids of the summaries sharing a slot with another (DOUBLE): `members` are the signed results
    that would count (not held for another reason), of the slots that may hold two."""
    by_slot: dict[Slot, list[str]] = {}
    for values in members:
        at = slot(values)
        if at is not None:
            by_slot.setdefault(at, []).append(values[I_ID])
    return {rid for ids in by_slot.values() if len(ids) > 1 for rid in ids}
