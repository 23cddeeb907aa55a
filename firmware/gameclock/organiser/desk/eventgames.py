"""An event's games kept in memory between two looks at its standings (issue 28: the desk serves a hall).

The public standings are computed again at every result; reading and JSON-decoding every stored result
each time was most of that cost (a 500-player event: 39 % of the desk's time under 200 phones), and it
grows with every result. `EventGames.games(store, event)` keeps each event's games (standings.games.Game,
as `Store.summaries` counts them) and, while nothing but new results changed since its last look
(`Store.live_stamp`'s other values: amendments, hand entries, deletions, rounds, pairings, players), reads
only the results stored since (`Store.summaries_after`); anything else, or a new result sharing its game
with another, and it reads every result again. The games are those `games_from_summaries` would give:
the same objects, in (event, round, table, id) order (tests/desk/test_eventgames.py compares them).

Memory: one list of games per event, at most KEEP events (the least recently asked dropped): the data,
not the pages or the requests. Thread-safe (the hall's workers ask it): one event is read by one thread
at a time; the games handed out are a copy of the list (their Games are frozen).
"""
from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from gameclock.organiser.standings.games import Game, game_from_summary, games_from_summaries
from gameclock.organiser.store import Store

KEEP = 8   # events kept (a day's events shown on the public pages)


def order(g: Game) -> tuple[str, int, int, str]:
    """`games_from_summaries`' order: (event, round, table, id)."""
    return (g.event or "", g.round or 0, g.table or 0, g.id)


@dataclass
class _Held:
    """One event's games as last read: under `base` (live_stamp's values other than the results' and the
    clocks'), every result up to rowid `rowid`."""
    base: tuple[Any, ...]
    rowid: int
    games: list[Game]
    ids: set[str] = field(default_factory=set)


class EventGames:
    """Each event's counted games, read again only where the store changed (module doc). `full` and
    `added` count the whole reads and the reads of new results only (the tests look at them)."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._events: OrderedDict[str, _Held] = OrderedDict()
        self._reading: dict[str, threading.Lock] = {}
        self.full = 0
        self.added = 0

    @staticmethod
    def base_of(stamp: tuple[Any, ...]) -> tuple[Any, ...]:
        """What of `Store.live_stamp` changes what counts, besides new results: amendments, hand entries and
        deletions; rounds; pairings; players. Not the clocks' hellos (they change no result)."""
        return (stamp[1], stamp[2], stamp[3], stamp[5])

    def games(self, store: Store, event: str) -> list[Game]:
        """The event's games as `games_from_summaries(store.summaries(event=event))` gives them now."""
        with self._lock:
            reading = self._reading.setdefault(event, threading.Lock())
        with reading:
            # the stamp before the rows: a change made while they are read shows at the next look
            stamp = store.live_stamp()
            base = self.base_of(stamp)
            with self._lock:
                held = self._events.get(event)
            if held is not None and held.base == base and (stamp[0] or 0) <= held.rowid:
                return self._keep(event, held)      # nothing stored since
            if held is not None and held.base == base:
                new = store.summaries_after(event, held.rowid)
                if new is not None:
                    values, held.rowid = new
                    for v in values:
                        g = game_from_summary(v)
                        if g.id not in held.ids:    # read already by the whole read that began it
                            bisect.insort(held.games, g, key=order)
                            held.ids.add(g.id)
                    self.added += 1
                    return self._keep(event, held)
            # the whole read, after the stamp's newest rowid: what is stored meanwhile is read (again) next time
            games = games_from_summaries(store.summaries(event=event))
            self.full += 1
            return self._keep(event, _Held(base, stamp[0] or 0, games, {g.id for g in games}))

    def _keep(self, event: str, held: _Held) -> list[Game]:
        with self._lock:
            self._events[event] = held
            self._events.move_to_end(event)
            while len(self._events) > self.keep:
                gone, _ = self._events.popitem(last=False)
                self._reading.pop(gone, None)
            return list(held.games)
