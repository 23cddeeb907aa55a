"""One-line human summaries of a Control, for `gameclock presets` and the menu.

Examples: "22:00 negative, -10/min", "5:00 +3s", "2:00 per move, announce 0:30 0:10, extra 2x5:00 or 1x10:00".
"""
from __future__ import annotations

from gameclock.core.control import COUNTDOWN, DELAY_NONE, EXPIRY_CALL, GAMECUT, PER_MOVE, ROUND, Control, Stage
from gameclock.rules.timefmt import format_short, format_time


def _stages(stages: tuple[Stage, ...]) -> str:
    parts = []
    for s in stages:
        text = format_time(s.time_ns)
        if s.moves is not None:
            text += f"/{s.moves} moves"
        parts.append(text)
    text = " then +".join(parts)
    if stages[-1].moves is not None:
        text += " repeating"
    incs = {s.increment_ns for s in stages}
    if len(incs) == 1:
        inc = incs.pop()
        if inc:
            text += f" +{format_short(inc)}"
    else:
        text += " (increments " + "/".join(format_short(s.increment_ns) for s in stages) + ")"
    return text


def _times(values: tuple[int, ...]) -> str:
    return " ".join(format_time(v) for v in values)


def describe(control: Control, sequence: tuple[int, ...] = ()) -> str:
    c = control
    if c.mode == PER_MOVE:
        text = f"{format_time(c.move_time_ns)} per move"
        if c.announce_ns:
            text += f", announce {_times(c.announce_ns)}"
        if c.extension_options:
            text += ", extra " + " or ".join(f"{o.count}x{format_time(o.time_ns)}" for o in c.extension_options)
        if c.move_expiry == EXPIRY_CALL:
            text += ", at 0:00 MOVE NOW (arbiter decides)"  # MH-2, seed 004
        return text
    if c.mode == ROUND:
        text = f"{format_time(c.stages_left[0].time_ns)} round"
        if c.bonus_points_per_minute:
            text += f", bonus {c.bonus_points_per_minute}/whole min left"
        return text
    if c.mode == GAMECUT:
        text = f"{format_time(c.stages_left[0].time_ns)} game"
        if c.cut_warnings_ns:
            text += f", warn at {_times(c.cut_warnings_ns)} left"
        if c.cut_extra_turns:
            text += f", then {c.cut_extra_turns} turns each"
        return text
    assert c.mode == COUNTDOWN, c.mode
    if c.stages_left == c.stages_right:
        text = _stages(c.stages_left)
    else:
        text = f"left {_stages(c.stages_left)} / right {_stages(c.stages_right)}"
    extras = []
    if c.delay_kind != DELAY_NONE:
        extras.append(f"{c.delay_kind} delay {format_short(c.delay_ns)}")
    if c.byoyomi_periods:
        extras.append(f"byo-yomi {c.byoyomi_periods}x{format_short(c.byoyomi_period_ns)}")
    if c.hourglass:
        extras.append("hourglass")
    if c.negative:
        extras.append("negative")
    timed_moves = any(s.moves is not None or s.increment_ns for s in c.stages_left + c.stages_right)
    if not extras and not timed_moves:
        extras.append("sudden death")
    if extras:
        text += " " + " ".join(extras)
    if c.penalty_points_per_minute:
        text += f", -{c.penalty_points_per_minute}/min"
    if c.arbiter_call_ns:
        text += f", arbiter called at {format_time(c.arbiter_call_ns)}"  # MR-13
    if len(sequence) > 1:
        text += f"; tie-break games {_times(sequence[1:])}"  # MH-4
    return text
