"""The events the clock core folds over. Times are integer nanoseconds in one monotonic domain
(in an event log: nanoseconds since the log's zero)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    at_ns: int


@dataclass(frozen=True)
class Start(Event):
    """`side`'s clock starts running (ROUND: the round starts for both)."""
    side: int


@dataclass(frozen=True)
class Press(Event):
    """`side` pressed its button: ends its turn (ROUND: that competitor finishes)."""
    side: int


@dataclass(frozen=True)
class Pause(Event):
    pass


@dataclass(frozen=True)
class Resume(Event):
    pass


@dataclass(frozen=True)
class Extend(Event):
    """PER_MOVE: `side` asks for extra time (MH-3); elsewhere the arbiter adds time."""
    side: int
    time_ns: int


@dataclass(frozen=True)
class Adjust(Event):
    """Arbiter correction: set `side`'s remaining time (PER_MOVE: the current move's)."""
    side: int
    remaining_ns: int


@dataclass(frozen=True)
class Undo(Event):
    """Arbiter correction: take back the last effective press."""


@dataclass(frozen=True)
class Finish(Event):
    """The game is over (result entry follows)."""
