"""Time-control configuration: pure data, built by the rules loader from `rules/*.toml`.

Every duration is an integer number of nanoseconds (`*_ns`). A `Control` fully describes how one
game's clock behaves; the core never reads anything else.
"""
from __future__ import annotations

from dataclasses import dataclass

NS_PER_S = 1_000_000_000
NS_PER_MS = 1_000_000
NS_PER_MIN = 60 * NS_PER_S

SIDES = ("left", "right")

# The four state machines the core knows.
COUNTDOWN = "countdown"  # each side's own budget (sudden death, increment, delay, byo-yomi, hourglass, stages)
PER_MOVE = "per_move"    # a fresh budget every move, with announcements and extra-time requests (MH-2, MH-3)
ROUND = "round"          # one round timer, both competitors at once, one finish button each (SU-1, SU-3)
GAMECUT = "gamecut"      # one shared game time, warnings, then N more turns each (XW-5)
MODES = (COUNTDOWN, PER_MOVE, ROUND, GAMECUT)

DELAY_NONE, DELAY_SIMPLE, DELAY_BRONSTEIN = "none", "simple", "bronstein"

# MH-2, PER_MOVE: what happens when a move's time runs out.
EXPIRY_LOSE = "lose"   # seeds 002, 003: the player loses (the flag falls, both clocks stop)
EXPIRY_CALL = "call"   # seed 004: MOVE NOW is signalled, the move's time keeps counting, the arbiter decides
EXPIRIES = (EXPIRY_LOSE, EXPIRY_CALL)
# MH-3: who gives extra time. The arbiter (seeds: "the arbiter acknowledges and records it"), from the
# game menu's Corrections page; or, when a rule file names it, the mover holding the knob (0.8 s)
GESTURE_ARBITER, GESTURE_LONG_PUSH = "arbiter", "long-push"
EXTENSION_GESTURES = (GESTURE_ARBITER, GESTURE_LONG_PUSH)


@dataclass(frozen=True)
class Stage:
    """One period of a side's countdown budget.

    time_ns is added when the stage begins (stage 0: the starting time). moves is how many of the
    side's own moves the stage lasts (None: the rest of the game). increment_ns is the Fischer
    increment credited after each move completed in this stage.
    """

    time_ns: int
    moves: int | None = None
    increment_ns: int = 0


@dataclass(frozen=True)
class ExtensionOption:
    """MH-3: `count` extra-time grants of `time_ns` each, per side and game."""

    count: int
    time_ns: int


@dataclass(frozen=True)
class Control:
    """How one game's clock runs. Fields not used by `mode` keep their defaults."""

    mode: str = COUNTDOWN
    # COUNTDOWN (and ROUND, GAMECUT use stages_left[0].time_ns as the round / game time):
    stages_left: tuple[Stage, ...] = (Stage(0),)
    stages_right: tuple[Stage, ...] = (Stage(0),)
    negative: bool = False            # XW-3: keep running below zero instead of flag fall
    penalty_points_per_minute: int = 0  # XW-3: points off per started minute of overtime
    delay_kind: str = DELAY_NONE
    delay_ns: int = 0
    byoyomi_periods: int = 0
    byoyomi_period_ns: int = 0
    hourglass: bool = False           # time the mover uses is given to the opponent
    low_time_ns: tuple[int, ...] = ()  # warn when a side's remaining time falls to each threshold
    arbiter_call_ns: int = 0          # MR-13: call the arbiter when a side has this much left (0: never)
    # PER_MOVE:
    move_time_ns: int = 0             # MH-2: 2:00 per move
    announce_ns: tuple[int, ...] = ()  # MH-2: announce when the move has this much left (30 s, 10 s)
    extension_options: tuple[ExtensionOption, ...] = ()  # MH-3: first request fixes the option
    move_expiry: str = EXPIRY_LOSE    # MH-2: at the move's end the player loses, or the arbiter is called
    extension_gesture: str = GESTURE_ARBITER  # MH-3: who gives extra time (EXTENSION_GESTURES)
    # ROUND:
    bonus_points_per_minute: int = 0  # SU-3: points per whole minute left
    # GAMECUT:
    cut_warnings_ns: tuple[int, ...] = ()  # XW-5: warn with this much game time left (10:00, 5:00)
    cut_extra_turns: int = 0          # XW-5: turns each side still plays after the cut
    # Counting (MR-4..MR-8, MH-6):
    count_board_limit: int = 64       # MR-4: board's honour counting draws at 64
    count_makhos_limit: int = 16      # MH-6: 16 moves without a man's move or a capture
    count_makhos_both: bool = False   # MH-6: count both sides' moves (seed 003 §5.4), else the requester's
    count_pieces_with_kings: bool = True  # MR-7: seed 003 counts both kings; seed 001 counts no king
    # Display:
    tenths_below_ns: int = 0          # show tenths of a second below this remaining time

    def stages(self, side: int) -> tuple[Stage, ...]:
        return self.stages_left if side == 0 else self.stages_right

    def initial_ns(self, side: int) -> int:
        """The time a side starts with (its budget before any credit)."""
        if self.mode == PER_MOVE:
            return self.move_time_ns
        return self.stages(side)[0].time_ns
