"""Live updates: the store polled cheaply (`Store.live_stamp`, one query) at most every `interval`
seconds whoever asks, and what changed kept as numbered changes that every subscriber (an SSE
stream) reads from its own place. One thread polls for every stream (hall.Poller, issue 28: each
stream polled on its own before) and wakes them; a thread, not an asyncio task, so it works the same
under uvicorn and under a test client's short-lived event loops.

Changes: {"kind": "result", "id", "event", "round", "table"} for each result stored; "amendment";
"pairings" (a draft, a publication, a pairings file loaded); "clocks" (a hello); "players" (a player
withdrawn, reinstated, entered late or edited: issue 26); "wall" (an announcement added or removed, a round
started: the projector's head, issue 28).
"""
from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from gameclock.organiser.store import Store

KEEP = 500   # changes remembered for slow subscribers


class Live:
    def __init__(self, store: Store, interval: float = 0.2, clock=time.monotonic):
        self.store, self.interval, self.clock = store, interval, clock
        self._lock = threading.Lock()
        self.stamp: tuple[Any, ...] = store.live_stamp()
        self.version = 0
        self._changes: deque[tuple[int, dict[str, Any]]] = deque(maxlen=KEEP)
        self._polled = clock()

    def poll(self, force: bool = False) -> None:
        """Look at the store if `interval` has passed since the last look (or `force`), and number
        what changed."""
        with self._lock:
            now = self.clock()
            if not force and now - self._polled < self.interval:
                return
            self._polled = now
            new = self.store.live_stamp()
            if new == self.stamp:
                return
            old, self.stamp = self.stamp, new
            found: list[dict[str, Any]] = []
            if new[0] != old[0]:
                found += [{"kind": "result", **r} for r in self.store.results_after(old[0] or 0, limit=KEEP)]
            if new[1] != old[1]:
                found.append({"kind": "amendment"})
            if new[2:4] != old[2:4]:
                found.append({"kind": "pairings"})
            if new[4] != old[4]:
                found.append({"kind": "clocks"})
            if new[5] != old[5]:
                found.append({"kind": "players"})
            if new[6] != old[6]:
                found.append({"kind": "wall"})
            for change in found:
                self.version += 1
                self._changes.append((self.version, change))

    def since(self, version: int) -> list[tuple[int, dict[str, Any]]]:
        """The changes numbered after `version`, oldest first (those older than KEEP are gone)."""
        with self._lock:
            return [(v, c) for v, c in self._changes if v > version]
