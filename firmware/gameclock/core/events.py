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
class Retract(Event):
    """Arbiter correction (issue 15): take back `side`'s last extension (MH-3) of the move under way."""
    side: int


@dataclass(frozen=True)
class Adjust(Event):
    """Arbiter correction: set `side`'s remaining time (PER_MOVE: the current move's)."""
    side: int
    remaining_ns: int


@dataclass(frozen=True)
class SetMoves(Event):
    """Arbiter correction (issue 15, FIDE's clock standard: time and move count): set `side`'s
    moves made. The stage of a moves-based control follows the count; no time is added or taken
    (the arbiter sets a side's time with Adjust)."""
    side: int
    moves: int


@dataclass(frozen=True)
class Undo(Event):
    """Arbiter correction: take back the last effective press."""


@dataclass(frozen=True)
class Finish(Event):
    """The game is over (result entry follows)."""


@dataclass(frozen=True)
class CountStart(Event):
    """Start counting (MR-4 board's honour, MR-6 pieces' honour, MH-6 Makhos 16-move count) for the
    counting `side`. Pieces: `attacker` is the other side's material in letters (R N S M), `on_board`
    the number of pieces on the board, both kings included."""
    kind: str
    side: int
    attacker: str = ""
    on_board: int = 0


@dataclass(frozen=True)
class CountEnd(Event):
    """MH-6: a man's move or a capture ends the Makhos count (seed 003 §5.3 "stop counting and play on";
    004 §3.8.3); counting again needs a new request (a new `CountStart`)."""


@dataclass(frozen=True)
class CountStop(Event):
    """The counting side stops counting (MR-4); a new count starts from its beginning."""
