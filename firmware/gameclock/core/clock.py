"""The clock: a pure fold over events, in integer nanoseconds.

    state = new_game(control)
    state = apply(state, Press(at_ns=..., side=0))      # raises Rejected when not allowed now
    state = advance(state, at_ns)                        # time-driven changes: alerts, flag fall, cut
    view(state, at_ns) -> dict                           # what `gameclock replay` prints
    next_wake(state, at_ns) -> ns | None                 # when the view next changes by itself

Accounting (never counting ticks): each side keeps `used_ns` (time charged for completed turns) and
`credits_ns` (every addition after the initial time: increments, delay refunds, extensions, stages,
hourglass gains, arbiter adjustments). Committed remaining = initial + credits - used. The running side's
live remaining subtracts the running turn's elapsed time, computed from the segment start, so any number
of advances at any moments gives the same state as one advance (live state == replayed state).

Time-driven changes (an announcement, a flag fall) happen at their exact instant: `advance` processes
them in order, each at its own deadline, before an event at a later time is applied.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .control import (
    COUNTDOWN,
    DELAY_BRONSTEIN,
    DELAY_SIMPLE,
    EXPIRY_CALL,
    GAMECUT,
    NS_PER_MIN,
    NS_PER_MS,
    PER_MOVE,
    ROUND,
    SIDES,
    Control,
)
from .display import format_remaining
from .events import (
    Adjust,
    CountEnd,
    CountStart,
    CountStop,
    Event,
    Extend,
    Finish,
    Pause,
    Press,
    Resume,
    Retract,
    SetMoves,
    Start,
    Undo,
)
from .scoring import parse_material, pieces_count_limit

READY, RUNNING, PAUSED, FLAGGED, FINISHED = "ready", "running", "paused", "flagged", "finished"


class Rejected(Exception):
    """The event is not allowed in the clock's present state (the state is unchanged)."""


@dataclass(frozen=True)
class Alert:
    """Something the players must hear: `kind` at `at_ns`, for `side` (None: both)."""

    at_ns: int
    side: int | None
    kind: str
    remaining_ns: int | None = None

    def as_dict(self) -> dict[str, int | str | None]:
        d: dict[str, int | str | None] = {
            "t_ms": self.at_ns // NS_PER_MS, "side": None if self.side is None else SIDES[self.side],
            "kind": self.kind}
        if self.remaining_ns is not None:
            d["remaining_ms"] = self.remaining_ns // NS_PER_MS
        return d


@dataclass(frozen=True)
class Side:
    """One side's books. All times in ns."""

    initial_ns: int
    credits_ns: int = 0
    used_ns: int = 0             # charged for completed turns (and a flagged or finished turn)
    moves: int = 0
    stage: int = 0               # index into the control's stages
    stage_moves: int = 0         # moves made in the current stage
    periods_left: int = 0        # byo-yomi periods left, the one in use included
    in_byoyomi: bool = False
    over_alerted: bool = False       # XW-3: overtime has been announced (MH-2 `call`: MOVE NOW has sounded)
    arbiter_called: bool = False     # MR-13: the arbiter has been called for this side
    flagged: bool = False
    armed: frozenset[int] = frozenset()  # warning thresholds (remaining ns) still to sound
    ext_option: int | None = None    # MH-3: index of the option fixed by the first request
    ext_used: int = 0
    finished_ns: int | None = None   # ROUND: round time at which this competitor finished

    @property
    def committed_ns(self) -> int:
        """Remaining time at the start of the current turn (before its elapsed time)."""
        return self.initial_ns + self.credits_ns - self.used_ns


@dataclass(frozen=True)
class Count:
    """A count in progress: `side` counts; `count` is the last number counted (its first counted move
    is `first`); the draw comes at `limit`."""

    kind: str            # "board" (MR-4) | "pieces" (MR-6) | "makhos" (MH-6)
    side: int
    first: int
    count: int
    limit: int

    @property
    def reached(self) -> bool:
        return self.count >= self.limit

    def as_dict(self) -> dict[str, int | str | bool]:
        return {"kind": self.kind, "side": SIDES[self.side], "count": self.count, "limit": self.limit,
                "reached": self.reached}


@dataclass(frozen=True)
class Clock:
    control: Control
    label: str = ""
    game: int = 1                # the game's number in its match (MH-4: games 1-4 of a match)
    tiebreak: int = 0            # MH-4: 0 for a game of the match, k for the k-th extra game after a tie
    phase: str = READY
    running: int | None = None   # the side whose clock runs (when paused: the one that resumes)
    first: int | None = None     # the side that moved first
    now_ns: int = 0              # the instant this state describes
    seg_start_ns: int = 0        # start of the current running segment
    turn_base_ns: int = 0        # the running turn's elapsed time before this segment
    game_base_ns: int = 0        # the game's running time before this segment
    sides: tuple[Side, Side] = (Side(0), Side(0))
    alerts: tuple[Alert, ...] = ()
    cut_credits_ns: int = 0      # GAMECUT: arbiter changes to the shared game time
    cut_called: bool = False
    turns_left: tuple[int, int] | None = None  # GAMECUT: presses each side still makes after the cut
    flag_side: int | None = None
    counting: Count | None = None
    events: int = 0              # events applied (undo rebuilds count again)
    # Undo support: the state just before the last effective press, and what was applied since.
    before_press: Clock | None = field(default=None, compare=False, repr=False)
    since_press: tuple[Event, ...] = field(default=(), compare=False, repr=False)

    # --- live quantities at now_ns -----------------------------------------------------------
    @property
    def segment_ns(self) -> int:
        return self.now_ns - self.seg_start_ns if self.phase == RUNNING else 0

    @property
    def turn_elapsed_ns(self) -> int:
        return self.turn_base_ns + self.segment_ns

    @property
    def game_elapsed_ns(self) -> int:
        return self.game_base_ns + self.segment_ns


# ---------------------------------------------------------------------------------------------
# construction


def new_game(control: Control, label: str = "", game: int = 1, tiebreak: int = 0) -> Clock:
    """A game at ready. `game`: its number in the match; `tiebreak`: its tie-break step (MH-4; 0: none).
    Both are labels for the log and the record: the time control for a step is the caller's choice
    (`Preset.control_for`)."""
    sides = []
    for s in (0, 1):
        initial = control.initial_ns(s)
        if control.mode == GAMECUT:  # the shared game time's warnings live on side 0's books
            limit = control.stages_left[0].time_ns
            armed = frozenset(t for t in control.cut_warnings_ns if t < limit) if s == 0 else frozenset()
        else:
            armed = frozenset(t for t in _thresholds(control) if t < initial)
        called = control.mode == COUNTDOWN and initial <= control.arbiter_call_ns
        sides.append(Side(initial_ns=initial, periods_left=control.byoyomi_periods, armed=armed,
                          arbiter_called=called))
    return Clock(control=control, label=label, game=game, tiebreak=tiebreak, sides=(sides[0], sides[1]))


def _thresholds(control: Control) -> tuple[int, ...]:
    return control.announce_ns if control.mode == PER_MOVE else control.low_time_ns


# ---------------------------------------------------------------------------------------------
# live remaining time


def remaining_ns(state: Clock, side: int) -> int:
    """A side's remaining time at state.now_ns (negative in overtime). GAMECUT: the shared game time."""
    c = state.control
    sd = state.sides[side]
    if c.mode == GAMECUT:
        return c.stages_left[0].time_ns + state.cut_credits_ns - state.game_elapsed_ns
    if c.mode == ROUND:
        if _competing(state, side):
            return sd.committed_ns - state.game_elapsed_ns
        return sd.committed_ns
    if state.running is None or state.phase not in (RUNNING, PAUSED):
        return sd.committed_ns
    e = state.turn_elapsed_ns
    if side == state.running:
        return sd.committed_ns - _charged(c, e)
    if c.hourglass:
        return sd.committed_ns + e
    return sd.committed_ns


def _competing(state: Clock, side: int) -> bool:
    """ROUND: this competitor's time is still running (the round is on and it has not finished)."""
    sd = state.sides[side]
    return state.phase in (RUNNING, PAUSED) and sd.finished_ns is None and not sd.flagged


def _charged(c: Control, elapsed_ns: int) -> int:
    """How much of a running turn's elapsed time shows on its clock (simple delay holds it back)."""
    if c.mode == COUNTDOWN and c.delay_kind == DELAY_SIMPLE:
        return max(0, elapsed_ns - c.delay_ns)
    return elapsed_ns


def used_ns(state: Clock, side: int) -> int:
    """Time this side has spent thinking, the running turn included."""
    sd = state.sides[side]
    if state.control.mode == ROUND:
        return state.game_elapsed_ns if _competing(state, side) else sd.used_ns
    if side == state.running and state.phase in (RUNNING, PAUSED):
        return sd.used_ns + state.turn_elapsed_ns
    return sd.used_ns


# ---------------------------------------------------------------------------------------------
# time-driven transitions


def _elapsed_at_remaining(c: Control, committed: int, target: int) -> int:
    """The turn elapsed time at which a running countdown shows `target` remaining."""
    need = committed - target
    if c.mode == COUNTDOWN and c.delay_kind == DELAY_SIMPLE and need > 0:
        return need + c.delay_ns
    return need


# A time-driven change: (kind, side (None: both), value), e.g. ("low-time", 0, threshold ns).
_Action = tuple[str, int | None, int]


def _next_transition(state: Clock) -> tuple[int, _Action] | None:
    """(at_ns, action) of the next time-driven change while running, or None."""
    if state.phase != RUNNING:
        return None
    c = state.control
    best: tuple[int, _Action] | None = None

    def consider(at: int, action: _Action) -> None:
        nonlocal best
        at = max(at, state.now_ns)
        if best is None or at < best[0]:
            best = (at, action)

    if c.mode == GAMECUT:
        rem = remaining_ns(state, 0)
        if not state.cut_called:
            armed = state.sides[0].armed
            if armed:
                consider(state.now_ns + rem - max(armed), ("cut-warning", None, max(armed)))
            consider(state.now_ns + rem, ("cut", None, 0))
        return best

    if c.mode == ROUND:
        for s in (0, 1):
            sd = state.sides[s]
            if not _competing(state, s):
                continue
            rem = remaining_ns(state, s)
            if sd.armed:
                consider(state.now_ns + rem - max(sd.armed), ("low-time", s, max(sd.armed)))
            consider(state.now_ns + rem, ("time-up", s, 0))
        return best

    s = _running_side(state)
    sd = state.sides[s]
    e = state.turn_elapsed_ns
    if sd.armed:
        thr = max(sd.armed)
        kind = "announce" if c.mode == PER_MOVE else "low-time"
        consider(state.now_ns + _elapsed_at_remaining(c, sd.committed_ns, thr) - e, (kind, s, thr))
    if c.mode == COUNTDOWN and c.arbiter_call_ns and not sd.arbiter_called:
        # MR-13: the arbiter is called the instant the side has `arbiter_call_ns` left
        consider(state.now_ns + _elapsed_at_remaining(c, sd.committed_ns, c.arbiter_call_ns) - e,
                 ("arbiter-call", s, c.arbiter_call_ns))
    if c.mode == PER_MOVE and c.move_expiry == EXPIRY_CALL:
        # MH-2, seed 004: at the move's end the arbiter orders the move; the time keeps counting
        if not sd.over_alerted:
            consider(state.now_ns + sd.committed_ns - e, ("move-now", s, 0))
        return best
    if c.mode == COUNTDOWN and c.negative:
        if not sd.over_alerted:
            consider(state.now_ns + _elapsed_at_remaining(c, sd.committed_ns, 0) - e, ("overtime", s, 0))
        return best
    consider(state.now_ns + _elapsed_at_remaining(c, sd.committed_ns, 0) - e, ("zero", s, 0))
    return best


def advance(state: Clock, at_ns: int) -> Clock:
    """The state at `at_ns`, every time-driven change before or at that instant applied in order."""
    if at_ns < state.now_ns:
        raise ValueError(f"time goes backwards: {at_ns} ns < {state.now_ns} ns")
    while True:
        nxt = _next_transition(state)
        if nxt is None or nxt[0] > at_ns:
            break
        when, (kind, side, value) = nxt
        state = _transition(replace(state, now_ns=when), kind, side, value)
    return replace(state, now_ns=at_ns)


def _alert(state: Clock, side: int | None, kind: str, remaining: int | None = None) -> Clock:
    return replace(state, alerts=state.alerts + (Alert(state.now_ns, side, kind, remaining),))


def _running_side(state: Clock) -> int:
    """The side whose clock runs. Only asked where there is one: a game that has started and is not over,
    of any mode but ROUND (whose competitors both run)."""
    if state.running is None:
        raise AssertionError(f"no side is running ({state.control.mode}, {state.phase})")
    return state.running


def _set_side(state: Clock, side: int, **changes: Any) -> Clock:
    sides = list(state.sides)
    sides[side] = replace(sides[side], **changes)
    return replace(state, sides=(sides[0], sides[1]))


def _transition(state: Clock, kind: str, side: int | None, value: int) -> Clock:
    c = state.control
    if kind == "cut-warning":
        state = _set_side(state, 0, armed=state.sides[0].armed - {value})
        return _alert(state, None, kind, value)
    if kind == "cut":
        # XW-5: the player on turn finishes; then each side plays `cut_extra_turns` more, the side
        # that moved second moving last. If the cut comes in the first mover's turn, that turn is
        # one of its extra turns; if in the second mover's, that turn is finished first.
        n = c.cut_extra_turns
        if state.first is None:  # the cut comes while the game time runs: it has started
            raise AssertionError("cut: the game has not started")
        second = 1 - state.first
        turns = [n, n]
        if state.running == second:
            turns[second] += 1
        state = replace(state, cut_called=True, turns_left=(turns[0], turns[1]))
        return _alert(state, None, "cut")
    if side is None:  # every other change is one side's
        raise AssertionError(f"{kind}: no side")
    if kind in ("low-time", "announce"):
        sd = state.sides[side]
        state = _set_side(state, side, armed=sd.armed - {value})
        return _alert(state, side, kind, value)
    if kind == "overtime":
        return _alert(_set_side(state, side, over_alerted=True), side, "overtime", 0)
    if kind == "move-now":
        return _alert(_set_side(state, side, over_alerted=True), side, "move-now", 0)
    if kind == "arbiter-call":
        return _alert(_set_side(state, side, arbiter_called=True), side, "arbiter-call", value)
    if kind == "time-up":  # ROUND: this competitor's time is over
        sd = state.sides[side]
        state = _set_side(state, side, flagged=True, used_ns=sd.initial_ns + sd.credits_ns, armed=frozenset())
        state = _alert(state, side, "flag")
        if all(x.flagged or x.finished_ns is not None for x in state.sides):
            state = _stop(state, FINISHED)
            state = _alert(state, None, "round-over")
        return state
    if kind == "zero":
        sd = state.sides[side]
        if c.mode == COUNTDOWN and c.byoyomi_periods > 0:
            if not sd.in_byoyomi:
                state = _set_side(state, side, in_byoyomi=True, credits_ns=sd.credits_ns + c.byoyomi_period_ns,
                                  armed=frozenset())
                return _alert(state, side, "byoyomi", c.byoyomi_period_ns)
            if sd.periods_left > 1:
                state = _set_side(state, side, periods_left=sd.periods_left - 1,
                                  credits_ns=sd.credits_ns + c.byoyomi_period_ns)
                return _alert(state, side, "byoyomi", c.byoyomi_period_ns)
            state = _set_side(state, side, periods_left=0)
        return _flag(state, side)
    raise AssertionError(kind)


def _flag(state: Clock, side: int) -> Clock:
    """The running side's time is over (MR-1 first flag, MH-2 move expiry): both clocks stop."""
    state = _charge_turn(state, flag=True)
    state = _set_side(state, side, flagged=True)
    state = replace(state, flag_side=side)
    state = _stop(state, FLAGGED)
    return _alert(state, side, "flag")


def _stop(state: Clock, phase: str) -> Clock:
    return replace(state, phase=phase, running=None, game_base_ns=state.game_elapsed_ns,
                   turn_base_ns=0, seg_start_ns=state.now_ns)


def _charge_turn(state: Clock, flag: bool = False) -> Clock:
    """Book the running turn's elapsed time to the running side (used, and delay/hourglass credits).

    A completed move earns the delay back (Bronstein and simple delay end alike); a flag fall earns
    exactly what leaves the clock at zero (the simple delay's hold, nothing under Bronstein)."""
    c = state.control
    s = _running_side(state)
    e = state.turn_elapsed_ns
    sd = state.sides[s]
    credit = 0
    if flag:
        credit = e - sd.committed_ns
    elif c.mode == COUNTDOWN and c.delay_kind in (DELAY_SIMPLE, DELAY_BRONSTEIN):
        credit = min(c.delay_ns, e)
    state = _set_side(state, s, used_ns=sd.used_ns + e, credits_ns=sd.credits_ns + credit)
    if c.mode == COUNTDOWN and c.hourglass:
        o = state.sides[1 - s]
        state = _set_side(state, 1 - s, credits_ns=o.credits_ns + e)
    return state


# ---------------------------------------------------------------------------------------------
# events


def apply(state: Clock, event: Event) -> Clock:
    """Fold one event into the state (advancing to its time first). Raises Rejected, state unchanged."""
    state = advance(state, event.at_ns)
    if isinstance(event, Undo):
        return _undo(state)
    handler = _HANDLERS[type(event)]
    new = handler(state, event)
    if new is state:  # a no-op (CL-2): nothing to record
        return state
    new = replace(new, events=state.events + 1)
    if isinstance(event, Press):
        return replace(new, before_press=state, since_press=())
    return replace(new, since_press=state.since_press + (event,))


def _start(state: Clock, ev: Start) -> Clock:
    if state.phase != READY:
        raise Rejected(f"start: the game has already started ({state.phase})")
    _check_side(ev.side)
    running = None if state.control.mode == ROUND else ev.side
    return replace(state, phase=RUNNING, running=running, first=ev.side, seg_start_ns=ev.at_ns,
                   turn_base_ns=0, game_base_ns=0)


def _press(state: Clock, ev: Press) -> Clock:
    _check_side(ev.side)
    c = state.control
    if state.phase != RUNNING:
        return state  # buttons do nothing before the start, while paused, and after the end
    if c.mode == ROUND:
        sd = state.sides[ev.side]
        if sd.finished_ns is not None or sd.flagged:
            return state
        e = state.game_elapsed_ns
        # committed remaining of a finished competitor: initial + credits - used = time left at finish
        state = _set_side(state, ev.side, finished_ns=e, used_ns=e, armed=frozenset())
        if all(x.finished_ns is not None or x.flagged for x in state.sides):
            state = _stop(state, FINISHED)
        return state
    if ev.side != state.running:
        return state  # CL-2: the idle side's button does nothing
    s = ev.side
    state = _charge_turn(state)
    sd = state.sides[s]
    changes: dict[str, object] = {"moves": sd.moves + 1}
    if c.mode == COUNTDOWN:
        stages = c.stages(s)
        stage = stages[sd.stage]
        credit = stage.increment_ns
        stage_moves = sd.stage_moves + 1
        stage_index = sd.stage
        if stage.moves is not None and stage_moves >= stage.moves:
            stage_index = min(sd.stage + 1, len(stages) - 1)  # a last stage with moves repeats
            credit += stages[stage_index].time_ns
            stage_moves = 0
        if sd.in_byoyomi:  # a move inside the period resets it
            credit += c.byoyomi_period_ns - (sd.committed_ns + credit)
        changes.update(credits_ns=sd.credits_ns + credit, stage=stage_index, stage_moves=stage_moves)
    elif c.mode == PER_MOVE:
        # MH-2: every move gets a fresh move time; the announcements are armed again.
        changes.update(credits_ns=sd.credits_ns + (c.move_time_ns - sd.committed_ns),
                       armed=frozenset(t for t in c.announce_ns if t < c.move_time_ns), over_alerted=False)
    state = _set_side(state, s, **changes)
    state = _count_step(state, s)
    other = 1 - s
    state = replace(state, running=other, game_base_ns=state.game_elapsed_ns, turn_base_ns=0,
                    seg_start_ns=ev.at_ns)
    if c.mode == GAMECUT and state.cut_called:
        if state.turns_left is None:  # set with cut_called
            raise AssertionError("the cut was called without the turns left")
        turns = list(state.turns_left)
        turns[s] = max(0, turns[s] - 1)
        state = replace(state, turns_left=(turns[0], turns[1]))
        if turns == [0, 0]:
            state = _alert(_stop(state, FINISHED), None, "game-over")
    return state


def _pause(state: Clock, ev: Pause) -> Clock:
    if state.phase != RUNNING:
        raise Rejected(f"pause: the clock is not running ({state.phase})")
    return replace(state, phase=PAUSED, turn_base_ns=state.turn_elapsed_ns, game_base_ns=state.game_elapsed_ns,
                   seg_start_ns=ev.at_ns)


def _resume(state: Clock, ev: Resume) -> Clock:
    if state.phase != PAUSED:
        raise Rejected(f"resume: the clock is not paused ({state.phase})")
    return replace(state, phase=RUNNING, seg_start_ns=ev.at_ns)


def _extend(state: Clock, ev: Extend) -> Clock:
    _check_side(ev.side)
    c = state.control
    if ev.time_ns <= 0:
        raise Rejected("extend: the extra time must be positive")
    if state.phase not in (READY, RUNNING, PAUSED):
        raise Rejected(f"extend: the game is over ({state.phase})")
    sd = state.sides[ev.side]
    if c.mode == PER_MOVE:
        # MH-3: asked during one's own move, before it runs out; the first request fixes the option.
        if ev.side != state.running:
            raise Rejected(f"extend: {SIDES[ev.side]} is not on move")
        if not c.extension_options:
            raise Rejected("extend: this preset has no extra time")
        if sd.ext_option is None:
            matches = [i for i, o in enumerate(c.extension_options) if o.time_ns == ev.time_ns]
            if not matches:
                offered = ", ".join(f"{o.count}x{format_remaining(o.time_ns)}" for o in c.extension_options)
                raise Rejected(f"extend: {format_remaining(ev.time_ns)} is not an option ({offered})")
            option = matches[0]
        else:
            option = sd.ext_option
            if c.extension_options[option].time_ns != ev.time_ns:
                opt = c.extension_options[option]
                raise Rejected(f"extend: {SIDES[ev.side]} chose {opt.count}x{format_remaining(opt.time_ns)}")
        if sd.ext_used >= c.extension_options[option].count:
            raise Rejected(f"extend: {SIDES[ev.side]} has no extra time left")
        if remaining_ns(state, ev.side) <= 0:  # MH-3: asked before the move's time runs out
            raise Rejected(f"extend: {SIDES[ev.side]}'s move time has run out")
        new_committed = sd.committed_ns + ev.time_ns
        live = new_committed - state.turn_elapsed_ns
        # The announcements sound again before the new deadline (RULES MH-3 decision).
        armed = frozenset(t for t in c.announce_ns if t < live)
        return _set_side(state, ev.side, credits_ns=sd.credits_ns + ev.time_ns, ext_option=option,
                         ext_used=sd.ext_used + 1, armed=armed)
    if c.mode == GAMECUT:
        return replace(state, cut_credits_ns=state.cut_credits_ns + ev.time_ns)
    return _rearm(_set_side(state, ev.side, credits_ns=sd.credits_ns + ev.time_ns), ev.side)


def extra_this_move(state: Clock, side: int) -> int:
    """How many extensions (MH-3) `side` has been given in the move under way (less those taken back)."""
    return sum(1 if isinstance(e, Extend) else -1 for e in state.since_press
               if isinstance(e, Extend | Retract) and e.side == side)


def _retract(state: Clock, ev: Retract) -> Clock:
    """Take back `side`'s last extension (MH-3) of the move under way (issue 15: granted by mistake).
    Only within the move that got it: the extension's time is that move's."""
    _check_side(ev.side)
    c = state.control
    if c.mode != PER_MOVE or not c.extension_options:
        raise Rejected("retract: this preset has no extra time")
    if extra_this_move(state, ev.side) <= 0:  # (since_press: everything since the last press, or since the start)
        raise Rejected(f"retract: {SIDES[ev.side]} has no extra time in this move")
    sd = state.sides[ev.side]
    assert sd.ext_option is not None, "an extension fixed the option"
    time_ns = c.extension_options[sd.ext_option].time_ns
    used = sd.ext_used - 1
    live = sd.committed_ns - time_ns - state.turn_elapsed_ns
    armed = frozenset(t for t in c.announce_ns if t < live)
    return _set_side(state, ev.side, credits_ns=sd.credits_ns - time_ns, ext_used=used,
                     ext_option=sd.ext_option if used else None, armed=armed)


def _adjust(state: Clock, ev: Adjust) -> Clock:
    _check_side(ev.side)
    if state.phase not in (READY, RUNNING, PAUSED):
        raise Rejected(f"adjust: the game is over ({state.phase})")
    c = state.control
    if c.mode == GAMECUT:
        delta = ev.remaining_ns - remaining_ns(state, 0)
        state = replace(state, cut_credits_ns=state.cut_credits_ns + delta)
        armed = frozenset(t for t in c.cut_warnings_ns if t < ev.remaining_ns)
        return _set_side(state, 0, armed=armed)
    if c.mode == ROUND and state.sides[ev.side].finished_ns is not None:
        raise Rejected(f"adjust: {SIDES[ev.side]} has finished")
    delta = ev.remaining_ns - remaining_ns(state, ev.side)  # what shows afterwards is the value set
    sd = state.sides[ev.side]
    state = _set_side(state, ev.side, credits_ns=sd.credits_ns + delta)
    return _rearm(state, ev.side)


MAX_MOVES = 999  # what the Corrections page can set (three digits)


def _set_moves(state: Clock, ev: SetMoves) -> Clock:
    """The arbiter sets a side's moves made (issue 15). A moves-based countdown's stage follows the
    new count (stages of `moves` moves, the last with moves repeating), without adding or taking
    time: a stage's time reached or lost by the correction is the arbiter's to set (Adjust)."""
    _check_side(ev.side)
    if state.phase not in (READY, RUNNING, PAUSED):
        raise Rejected(f"moves: the game is over ({state.phase})")
    if not 0 <= ev.moves <= MAX_MOVES:
        raise Rejected(f"moves: {ev.moves} is not 0-{MAX_MOVES}")
    sd = state.sides[ev.side]
    if ev.moves == sd.moves:
        return state
    changes: dict[str, object] = {"moves": ev.moves}
    if state.control.mode == COUNTDOWN:
        stages = state.control.stages(ev.side)
        index, left = 0, ev.moves
        while stages[index].moves is not None and left >= stages[index].moves:  # type: ignore[operator]
            left -= stages[index].moves  # type: ignore[operator]
            if index < len(stages) - 1:
                index += 1
        changes.update(stage=index, stage_moves=left)
    return _set_side(state, ev.side, **changes)


def _rearm(state: Clock, side: int) -> Clock:
    """After the arbiter changes a side's time, thresholds above the new time may sound again."""
    c = state.control
    rem = remaining_ns(state, side)
    armed = frozenset(t for t in _thresholds(c) if t < rem)
    if c.mode == COUNTDOWN and state.sides[side].in_byoyomi:
        armed = frozenset()
    # overtime (MH-2 `call`: MOVE NOW) is announced again if the side goes below zero again; the
    # arbiter is called again (MR-13) if the side is given more than the call's threshold
    return _set_side(state, side, armed=armed, over_alerted=state.sides[side].over_alerted and rem <= 0,
                     arbiter_called=state.sides[side].arbiter_called and rem <= c.arbiter_call_ns)


def _finish(state: Clock, ev: Finish) -> Clock:
    if state.phase == FINISHED:
        raise Rejected("finish: the game is already finished")
    if state.phase in (RUNNING, PAUSED):
        state = _charge_turn_plain(state)
    return _stop(state, FINISHED)


def _charge_turn_plain(state: Clock) -> Clock:
    """Book the running turn's elapsed time at the end of the game (no move completed: no credits)."""
    s = state.running
    c = state.control
    if c.mode == ROUND:
        e = state.game_elapsed_ns
        for i in (0, 1):
            sd = state.sides[i]
            if sd.finished_ns is None and not sd.flagged:
                state = _set_side(state, i, used_ns=e)
        return state
    if s is None:
        return state
    sd = state.sides[s]
    e = state.turn_elapsed_ns
    # the clock keeps what it shows: a simple delay's held seconds are not taken at the end
    state = _set_side(state, s, used_ns=sd.used_ns + e, credits_ns=sd.credits_ns + e - _charged(c, e))
    if c.mode == COUNTDOWN and c.hourglass:
        o = state.sides[1 - s]
        state = _set_side(state, 1 - s, credits_ns=o.credits_ns + state.turn_elapsed_ns)
    return state


def _undo(state: Clock) -> Clock:
    """Take back the last effective press: rebuild from just before it, re-applying what came after.

    The pressing side's turn simply continues, so the time since the press is charged to it."""
    if state.before_press is None:
        raise Rejected("undo: no press to take back")
    at = state.now_ns
    rebuilt = state.before_press
    for ev in state.since_press:
        try:
            rebuilt = apply(rebuilt, ev)
        except Rejected:
            pass  # an event that made sense only after the press (e.g. the other side's extension)
    return replace(advance(rebuilt, at), events=state.events + 1)


def _check_side(side: int) -> None:
    if side not in (0, 1):
        raise Rejected(f"unknown side {side!r}")


def _count_step(state: Clock, side: int) -> Clock:
    """A completed move by `side`: one counted move if it is the counting side's (MH-6 'both': any)."""
    c = state.counting
    if c is None or c.reached:
        return state
    if side != c.side and not (c.kind == "makhos" and state.control.count_makhos_both):
        return state
    c = replace(c, count=c.count + 1)
    state = replace(state, counting=c)
    if c.reached:  # CL-4: the limit is announced: the game is drawn by the count
        state = _alert(state, c.side, "count-limit", None)
    return state


def _count_start(state: Clock, ev: CountStart) -> Clock:
    _check_side(ev.side)
    c = state.control
    if c.mode not in (COUNTDOWN, PER_MOVE):
        raise Rejected("count: this preset has no counting")
    if state.phase not in (READY, RUNNING, PAUSED):
        raise Rejected(f"count: the game is over ({state.phase})")
    if ev.kind == "board":      # MR-4: the weaker side counts its own moves from 1 to 64
        first, limit = 1, c.count_board_limit
    elif ev.kind == "makhos":   # MH-6
        first, limit = 1, c.count_makhos_limit
    elif ev.kind == "pieces":   # MR-6, MR-7: the lone king counts on from the pieces on the board
        try:
            limit = pieces_count_limit(parse_material(ev.attacker))
        except ValueError as exc:
            raise Rejected(f"count pieces: {exc}") from None
        if not 3 <= ev.on_board <= 32:
            raise Rejected(f"count pieces: {ev.on_board} pieces on the board (3 to 32, both kings included)")
        # MR-6: the lone king faces pieces without unpromoted pawns: the board holds both kings and the
        # attacker's pieces, nothing else
        pieces = 2 + len(ev.attacker)
        if ev.on_board != pieces:
            raise Rejected(f"count pieces: {ev.on_board} on the board, but the two kings and {ev.attacker} "
                           f"are {pieces}")
        first = ev.on_board + 1 if c.count_pieces_with_kings else ev.on_board - 1
        if first > limit:
            raise Rejected(f"count pieces: the count would start at {first}, past its limit {limit}")
    else:
        raise Rejected(f"count: unknown kind {ev.kind!r} (board, pieces, makhos)")
    # MR-8: a board count turning into a pieces' count simply starts the pieces' count; its limit is
    # fixed now and never changes with later captures.
    return replace(state, counting=Count(ev.kind, ev.side, first, first - 1, limit))


def _count_end(state: Clock, ev: CountEnd) -> Clock:
    """MH-6: a man's move or a capture ends the count (seed 003 §5.3, 004 §3.8.3); it does not start
    again by itself: a new count needs a new request."""
    if state.counting is None or state.counting.kind != "makhos":
        raise Rejected("count end: no Makhos count is under way")
    return replace(state, counting=None)


def _count_stop(state: Clock, ev: CountStop) -> Clock:
    if state.counting is None:
        raise Rejected("count stop: nothing is being counted")
    return replace(state, counting=None)


# event class -> its handler. Each handler takes events of its own class only, a pairing no dict type
# can state: the handler's event parameter is Any here, and `apply` looks it up by the event's class.
_HANDLERS: dict[type[Event], Callable[[Clock, Any], Clock]] = {
    Start: _start, Press: _press, Pause: _pause, Resume: _resume, Extend: _extend, Retract: _retract, Adjust: _adjust,
    SetMoves: _set_moves, Finish: _finish, CountStart: _count_start, CountEnd: _count_end, CountStop: _count_stop}


# ---------------------------------------------------------------------------------------------
# the view


def view(state: Clock, at_ns: int | None = None) -> dict[str, Any]:
    """The clock as JSON-ready data at `at_ns` (default: the state's own instant). Its keys depend on
    the mode; the screens, the result, the record and `gameclock replay` read it."""
    if at_ns is not None:
        state = advance(state, at_ns)
    c = state.control
    sides: dict[str, dict[str, Any]] = {}
    for s in (0, 1):
        sd = state.sides[s]
        rem = remaining_ns(state, s)
        # XW-3's overtime; MH-2 `call`: how long the move ran past its time
        over = max(0, -rem) if (c.mode == COUNTDOWN and c.negative) or _calls(c) else 0
        d: dict[str, Any] = {
            "remaining_ms": rem // NS_PER_MS,
            "used_ms": used_ns(state, s) // NS_PER_MS,
            "moves": sd.moves,
            "overtime_ms": over // NS_PER_MS,
            "penalty_points": -(-over // NS_PER_MIN) * c.penalty_points_per_minute,  # XW-3: started minutes
            "flagged": sd.flagged,
            "display": format_remaining(rem, c.tenths_below_ns),
        }
        if c.mode == PER_MOVE:
            d["move_remaining_ms"] = rem // NS_PER_MS
            d.update(_extension_view(c, sd))
        if c.mode == COUNTDOWN and c.byoyomi_periods:
            d["periods_left"] = sd.periods_left
            d["in_byoyomi"] = sd.in_byoyomi
        if c.mode == COUNTDOWN and len(c.stages(s)) > 1:
            d["stage"] = sd.stage + 1
        if c.mode == ROUND:
            d["finished"] = sd.finished_ns is not None
            d["finish_ms"] = None if sd.finished_ns is None else sd.finished_ns // NS_PER_MS
            # SU-3: 3 points per whole minute left, earned only if every puzzle is correct
            d["bonus_points"] = (max(0, sd.committed_ns) // NS_PER_MIN * c.bonus_points_per_minute
                                 if sd.finished_ns is not None else 0)
        sides[SIDES[s]] = d
    out: dict[str, Any] = {
        "preset": state.label,
        "game": state.game,
        "tiebreak": state.tiebreak,
        "mode": c.mode,
        "t_ms": state.now_ns // NS_PER_MS,
        "state": state.phase,
        "running": None if state.running is None else SIDES[state.running],
        "sides": sides,
        "alerts": [a.as_dict() for a in state.alerts],
        "counting": None if state.counting is None else state.counting.as_dict(),
    }
    if c.mode == GAMECUT:
        rem = remaining_ns(state, 0)
        out["cut"] = {
            "remaining_ms": rem // NS_PER_MS,
            "display": format_remaining(rem, c.tenths_below_ns),
            "called": state.cut_called,
            "turns_left": None if state.turns_left is None
            else {"left": state.turns_left[0], "right": state.turns_left[1]},
        }
    return out


def _calls(c: Control) -> bool:
    """MH-2 `call`: a move's time runs past zero (the arbiter decides) instead of a flag fall."""
    return c.mode == PER_MOVE and c.move_expiry == EXPIRY_CALL


def _extension_view(c: Control, sd: Side) -> dict[str, object]:
    offered = {"extension_options": [f"{o.count}x{format_remaining(o.time_ns)}" for o in c.extension_options]}
    return {**_extension_left(c, sd), **offered}


def _extension_left(c: Control, sd: Side) -> dict[str, object]:
    if sd.ext_option is None:
        best = max(c.extension_options, key=lambda o: o.count * o.time_ns, default=None)
        return {"extensions_left": max((o.count for o in c.extension_options), default=0),
                "extension_option": None,
                "extra_ms_left": 0 if best is None else best.count * best.time_ns // NS_PER_MS}
    o = c.extension_options[sd.ext_option]
    left = o.count - sd.ext_used
    return {"extensions_left": left, "extension_option": f"{o.count}x{format_remaining(o.time_ns)}",
            "extra_ms_left": left * o.time_ns // NS_PER_MS}


# ---------------------------------------------------------------------------------------------
# when to wake


def next_wake(state: Clock, at_ns: int | None = None) -> int | None:
    """The earliest instant after `at_ns` at which the view changes by itself, or None.

    That is the next time-driven transition or the next change of a displayed digit, whichever
    comes first. The loop sleeps until then; nothing is computed by counting wake-ups."""
    if at_ns is not None:
        state = advance(state, at_ns)
    if state.phase != RUNNING:
        return None
    now = state.now_ns
    wakes = []
    nxt = _next_transition(state)
    if nxt is not None:
        wakes.append(nxt[0])
    c = state.control
    for s, slope in _moving_displays(state):
        rem = remaining_ns(state, s) if c.mode != GAMECUT else remaining_ns(state, 0)
        hold = 0
        if slope < 0 and c.mode == COUNTDOWN and c.delay_kind == DELAY_SIMPLE and s == state.running:
            hold = max(0, c.delay_ns - state.turn_elapsed_ns)
        wakes.append(now + hold + _until_digit_change(rem, slope, c.tenths_below_ns))
    wakes = [w for w in wakes if w > now] or [now + 1]
    return min(wakes)


def _moving_displays(state: Clock) -> list[tuple[int, int]]:
    """(side, slope) for every displayed time that moves by itself: -1 counts down, +1 counts up."""
    c = state.control
    if c.mode == GAMECUT:
        return [(0, -1)]
    if c.mode == ROUND:
        return [(s, -1) for s in (0, 1)
                if state.sides[s].finished_ns is None and not state.sides[s].flagged]
    running = _running_side(state)
    out = [(running, -1)]
    if c.hourglass:
        out.append((1 - running, +1))
    return out


def _until_digit_change(rem: int, slope: int, tenths_below: int) -> int:
    """ns until the displayed text of `rem` changes when it moves at `slope` (display floors).

    The text is floor(rem / step) with step 0.1 s strictly between 0 and `tenths_below`, else 1 s; it
    also changes where the step changes (at `tenths_below`, and at exactly 0, which shows "0:00")."""
    tenths = 0 < rem < tenths_below
    step = 100_000_000 if tenths else 1_000_000_000
    if slope < 0:
        waits = [rem - (rem // step) * step + 1]      # rem drops below the current step's floor
        if rem >= tenths_below > 0:
            waits.append(rem - tenths_below + 1)      # rem drops below the tenths threshold
        if tenths:
            waits.append(rem)                         # rem reaches exactly 0: "0:00"
        return min(w for w in waits if w > 0)
    waits = [(rem // step + 1) * step - rem]          # counting up: the next step
    if tenths:
        waits.append(tenths_below - rem)              # back to whole seconds at the threshold
    if rem < 0:
        waits.append(-rem)                            # reaching exactly 0
    return min(w for w in waits if w > 0)
