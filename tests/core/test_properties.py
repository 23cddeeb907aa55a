"""Property tests of the clock core over random event sequences (hypothesis).

Controls: sudden death (also with different times per side), negative/overtime (XW-3, also with an
increment), Fischer, Bronstein, simple delay, byo-yomi, hourglass, multi-stage, per-move with
extensions (MH-2, MH-3), round (SU) and game-cut (XW-5). Event times are increasing integer ns with
equal times, sub-millisecond steps and huge gaps (up to a day); events are random and include invalid
ones (presses by a side that does not exist, a second start, resume while running, zero extensions...):
the core raises `Rejected` for those and the fold skips them as the device loop does (a refused input
changes nothing; time moves on). GAMECLOCK_PROPERTY_EXAMPLES=5000 searches deeper than the default run.
"""
from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameclock.core.clock import (
    FLAGGED,
    PAUSED,
    RUNNING,
    Rejected,
    advance,
    apply,
    new_game,
    next_wake,
    remaining_ns,
    used_ns,
    view,
)
from gameclock.core.control import (
    COUNTDOWN,
    DELAY_BRONSTEIN,
    DELAY_SIMPLE,
    GAMECUT,
    NS_PER_MIN,
    NS_PER_S,
    PER_MOVE,
    ROUND,
    Control,
    ExtensionOption,
    Stage,
)
from gameclock.core.events import Adjust, Extend, Finish, Pause, Press, Resume, Start, Undo
from gameclock.core.log import format_event, parse_log

S = NS_PER_S
MIN = NS_PER_MIN

EXAMPLES = int(os.environ.get("GAMECLOCK_PROPERTY_EXAMPLES", "150"))
PROPS = settings(max_examples=EXAMPLES, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# ------------------------------------------------------------------------------------------------
# strategies

# Steps between events: equal times, sub-ms, up to 10 s, up to 5 min, and huge (17 min to 28 h).
GAPS = st.one_of(
    st.just(0),
    st.integers(1, 10**6),
    st.integers(10**6, 10 * S),
    st.integers(10 * S, 5 * MIN),
    st.integers(10**12, 10**14),
)
# Budgets small enough that flags, thresholds and periods are reached, some the real presets' values.
BUDGETS = st.one_of(st.integers(1, 30 * S), st.integers(30 * S, 10 * MIN),
                    st.sampled_from([3 * MIN, 5 * MIN, 22 * MIN, 45 * MIN]))
# rules/README.md: tenths_below is any time above 0:00 (fractions allowed); 0 is "never".
TENTHS = st.one_of(st.just(0), st.sampled_from([10 * S, 20 * S]), st.integers(1, 30 * S))


@st.composite
def thresholds(draw, below: int, max_size: int = 3) -> tuple[int, ...]:
    if below <= 1:
        return ()
    return tuple(draw(st.lists(st.integers(1, below - 1), max_size=max_size, unique=True)))


@st.composite
def countdown_controls(draw, kind: str) -> Control:
    tl = draw(BUDGETS)
    tr = draw(st.one_of(st.just(tl), BUDGETS))
    inc = draw(st.integers(0, 30 * S)) if kind in ("fischer", "negative") else 0
    kw: dict = {}
    if kind == "negative":
        kw.update(negative=True, penalty_points_per_minute=10)
    elif kind in ("bronstein", "simple"):
        kw.update(delay_kind=DELAY_BRONSTEIN if kind == "bronstein" else DELAY_SIMPLE,
                  delay_ns=draw(st.integers(1, 10 * S)))
    elif kind == "byoyomi":
        kw.update(byoyomi_periods=draw(st.integers(1, 5)), byoyomi_period_ns=draw(st.integers(1, 60 * S)))
    elif kind == "hourglass":
        kw.update(hourglass=True)
    if kind == "multistage":
        stages = []
        for i in range(draw(st.integers(2, 3))):
            stages.append(Stage(draw(BUDGETS) if i == 0 else draw(st.integers(0, 10 * MIN)),
                                draw(st.one_of(st.none(), st.integers(1, 4))), draw(st.integers(0, 10 * S))))
        if stages[0].moves is None:
            stages[0] = Stage(stages[0].time_ns, 2, stages[0].increment_ns)
        left = right = tuple(stages)
    else:
        left, right = (Stage(tl, None, inc),), (Stage(tr, None, inc),)
    return Control(stages_left=left, stages_right=right,
                   low_time_ns=draw(thresholds(max(left[0].time_ns, right[0].time_ns))),
                   tenths_below_ns=draw(TENTHS), **kw)


@st.composite
def per_move_controls(draw) -> Control:
    move = draw(BUDGETS)
    options = draw(st.lists(st.builds(ExtensionOption, st.integers(1, 3), st.integers(1, 10 * MIN)), max_size=2))
    return Control(mode=PER_MOVE, move_time_ns=move, announce_ns=draw(thresholds(move)),
                   extension_options=tuple(options), tenths_below_ns=draw(TENTHS))


@st.composite
def round_controls(draw) -> Control:
    t = draw(BUDGETS)
    return Control(mode=ROUND, stages_left=(Stage(t),), stages_right=(Stage(t),),
                   bonus_points_per_minute=draw(st.integers(0, 5)), low_time_ns=draw(thresholds(t)),
                   tenths_below_ns=draw(TENTHS))


@st.composite
def gamecut_controls(draw) -> Control:
    t = draw(BUDGETS)
    return Control(mode=GAMECUT, stages_left=(Stage(t),), stages_right=(Stage(t),),
                   cut_warnings_ns=draw(thresholds(t)), cut_extra_turns=draw(st.integers(0, 3)),
                   tenths_below_ns=draw(TENTHS))


COUNTDOWN_KINDS = ("sudden", "negative", "fischer", "bronstein", "simple", "byoyomi", "hourglass", "multistage")
ANY_COUNTDOWN = st.sampled_from(COUNTDOWN_KINDS).flatmap(countdown_controls)
CONTROLS = st.one_of(ANY_COUNTDOWN, ANY_COUNTDOWN, per_move_controls(), round_controls(), gamecut_controls())

# Event kinds with their weights: mostly presses; a finish is rare so that most games go on for a while.
ALL_KINDS = ("press",) * 24 + ("start",) + ("pause", "resume", "extend", "adjust", "undo") * 3 + ("finish",)
PLAIN_KINDS = tuple(k for k in ALL_KINDS if k not in ("extend", "adjust", "undo"))  # no corrections
SIDE = st.one_of(st.sampled_from([0, 1]), st.sampled_from([0, 1]), st.sampled_from([-1, 2]))  # mostly valid


@st.composite
def event_lists(draw, control: Control, kinds=ALL_KINDS, max_size: int = 40):
    """Increasing times; usually a valid start first; then random (possibly invalid) events."""
    events = []
    t = draw(st.integers(0, 10 * S))
    if draw(st.integers(0, 9)) > 0:
        events.append(Start(t, draw(st.sampled_from([0, 1]))))
    ext_times = [o.time_ns for o in control.extension_options] or [MIN]
    for _ in range(draw(st.integers(0, max_size))):
        t += draw(GAPS)
        kind = draw(st.sampled_from(kinds))
        if kind == "start":
            events.append(Start(t, draw(SIDE)))
        elif kind == "press":
            events.append(Press(t, draw(SIDE)))
        elif kind == "pause":
            events.append(Pause(t))
        elif kind == "resume":
            events.append(Resume(t))
        elif kind == "undo":
            events.append(Undo(t))
        elif kind == "finish":
            events.append(Finish(t))
        elif kind == "extend":
            amount = draw(st.one_of(st.sampled_from(ext_times), st.integers(1, 10 * MIN), st.integers(-S, 0)))
            events.append(Extend(t, draw(SIDE), amount))
        elif kind == "adjust":
            events.append(Adjust(t, draw(SIDE), draw(st.integers(-10 * MIN, 30 * MIN))))
    return events


@st.composite
def games(draw, kinds=ALL_KINDS, controls=CONTROLS):
    control = draw(controls)
    return control, draw(event_lists(control, kinds))


def fold(control: Control, events):
    """Plain fold, skipping refused events (time still moves on to the refused event's instant).
    Returns (final state, the state after each event, the accepted events)."""
    state = new_game(control)
    states, accepted = [], []
    for ev in events:
        try:
            state = apply(state, ev)
        except Rejected:
            state = advance(state, ev.at_ns)
        else:
            accepted.append(ev)
        states.append(state)
    return state, states, accepted


def probe_times(states, events):
    """(index, state, t): each state at its own instant, halfway to the next event, just before it, and
    long after the last event."""
    out = []
    for i, s in enumerate(states):
        nxt = events[i + 1].at_ns if i + 1 < len(events) else s.now_ns + 3600 * S
        for t in (s.now_ns, (s.now_ns + nxt) // 2, max(s.now_ns, nxt - 1), nxt):
            out.append((i, s, t))
    return out


# ------------------------------------------------------------------------------------------------
# (1) the books balance


def pending_credit_ns(state, side: int) -> int:
    """Credit already showing on a side's clock but not yet in its books (booked when the turn ends)."""
    c = state.control
    if c.mode != COUNTDOWN or state.running is None or state.phase not in (RUNNING, PAUSED):
        return 0
    e = state.turn_elapsed_ns
    if side == state.running and c.delay_kind == DELAY_SIMPLE:
        return min(c.delay_ns, e)
    if side != state.running and c.hourglass:
        return e
    return 0


def clock_moves(state, side: int) -> bool:
    """This side's clock is in a turn (running, or paused mid-turn): its live value is not its books'."""
    c = state.control
    if state.phase not in (RUNNING, PAUSED):
        return False
    if c.mode == ROUND:
        sd = state.sides[side]
        return sd.finished_ns is None and not sd.flagged
    return state.running is not None and (side == state.running or (c.mode == COUNTDOWN and c.hourglass))


def check_books(state) -> None:
    c = state.control
    if c.mode == GAMECUT:
        # One shared game time: both sides' time used plus what is left is the game time plus the
        # arbiter's changes to it.
        assert used_ns(state, 0) + used_ns(state, 1) + remaining_ns(state, 0) == \
            c.stages_left[0].time_ns + state.cut_credits_ns
        return
    for s in (0, 1):
        sd = state.sides[s]
        assert used_ns(state, s) + remaining_ns(state, s) == sd.initial_ns + sd.credits_ns + pending_credit_ns(state, s)
        if not clock_moves(state, s):
            assert remaining_ns(state, s) == sd.committed_ns
    if state.phase == FLAGGED and c.mode in (COUNTDOWN, PER_MOVE):
        assert remaining_ns(state, state.flag_side) == 0  # the flag falls exactly at zero


@PROPS
@given(games())
def test_used_plus_remaining_is_initial_plus_credits(game):
    """(1) For each side, at every moment: used + remaining == initial + credits (+ pending).

    `used_ns(state, s)` includes the running turn, `remaining_ns` is the live value. Two credits show on
    the clock before they are booked in `sides[s].credits_ns` (booked when the turn ends):
      * simple delay: the running side's clock holds still for the first `delay` of the turn, so its
        live remaining is `committed - max(0, e - delay)` while `used` already counts all `e`: the
        held-back `min(delay, e)` is pending (it becomes a credit at the press);
      * hourglass: the idle side's clock counts up by the running turn's `e` (credited at the press).
    With that pending term the identity is exact at every instant (running, paused or stopped), and
    whenever a side's clock is not in a turn its remaining equals its committed books
    (`initial + credits - used`). Round: while competing, used is the round's running time and the
    books hold no used time yet, so the identity is the same. Game-cut: one shared game time, so the
    identity is over both sides: used(left) + used(right) + game remaining == game time + arbiter credits.
    A flag falls exactly at zero (countdown and per-move).
    """
    control, events = game
    _, states, _ = fold(control, events)
    check_books(new_game(control))
    for _, state, t in probe_times(states, events):
        check_books(advance(state, t))


# ------------------------------------------------------------------------------------------------
# (2) nothing changes while paused


def without_t(v: dict) -> dict:
    return {k: val for k, val in v.items() if k != "t_ms"}


@PROPS
@given(games())
def test_nothing_changes_while_paused(game):
    """(2) CL-3: a paused clock's view at the pause is its view at any later time (but t_ms), and it
    never asks to be woken up."""
    control, events = game
    _, states, _ = fold(control, events)
    for i, state in enumerate(states):
        if state.phase != PAUSED:
            continue
        at_pause = without_t(view(state))
        nxt = events[i + 1].at_ns if i + 1 < len(events) else state.now_ns
        for t in (state.now_ns + 1, nxt, state.now_ns + S, state.now_ns + 10**14):
            t = max(t, state.now_ns)
            assert without_t(view(state, t)) == at_pause
        assert next_wake(state) is None


def shown(state) -> dict:
    """Per side: the exact remaining time, what the display shows and what it costs (XW-3); the game-cut
    display."""
    v = view(state)
    out = {k: (remaining_ns(state, s), sd["display"], sd["penalty_points"])
           for s, (k, sd) in enumerate(v["sides"].items())}
    if "cut" in v:
        out["cut"] = v["cut"]["display"]
    return out


@PROPS
@given(games())
def test_stopping_the_clock_keeps_what_it_shows(game):
    """(2b) CL-3, XW-3 decision: a pause or the end of the game freezes the clocks as they are shown at
    that instant (remaining time, display and penalty); nothing is re-booked differently afterwards."""
    control, events = game
    _, states, _ = fold(control, events)
    for _, state, t in probe_times(states, events):
        here = advance(state, t)
        if here.phase != RUNNING:
            continue
        before = shown(here)
        assert shown(apply(here, Pause(t))) == before
        assert shown(apply(here, Finish(t))) == before


# ------------------------------------------------------------------------------------------------
# (3) charged time == the press-to-press running intervals


def charged_by_model(control: Control, events, stops, query_ns: int) -> tuple[int, int]:
    """Each side's charged time at `query_ns` after `events`, from the event times alone (by the CL-2 and
    CL-3 rules, not by the core's code).

    The game stops by itself only at a flag (countdown, per-move), a competitor's time-up (round) or
    the end of the extra turns (game-cut); those instants come in `stops` as (at_ns, kind, side) —
    they are the core's alerts, whose timing the unit tests and property (1) check."""
    is_round = control.mode == ROUND
    used = [0, 0]
    m = {"started": False, "paused": False, "over": False, "running": None, "seg": 0, "done": [False, False]}

    def run_until(x: int) -> None:
        if m["started"] and not m["paused"] and not m["over"]:
            for s in (0, 1):
                if (is_round and not m["done"][s]) or (not is_round and s == m["running"]):
                    used[s] += x - m["seg"]
        m["seg"] = x

    timeline = [(a, 0, "stop", (k, sd)) for a, k, sd in stops if a <= query_ns]
    timeline += [(e.at_ns, 1, "event", e) for e in events]
    # Time-driven stops come before an event at the same instant (the core advances before it applies).
    for at, _, what, item in sorted(timeline, key=lambda x: (x[0], x[1])):
        if m["over"]:
            continue
        if what == "stop":
            kind, side = item
            run_until(at)
            if kind == "flag" and is_round:
                m["done"][side] = True
            else:
                m["over"] = True
            continue
        ev = item
        if isinstance(ev, Start):
            if not m["started"] and ev.side in (0, 1):
                m.update(started=True, running=None if is_round else ev.side, seg=ev.at_ns)
        elif isinstance(ev, Press):
            if not m["started"] or m["paused"] or ev.side not in (0, 1):
                continue
            if is_round:
                if not m["done"][ev.side]:
                    run_until(ev.at_ns)
                    m["done"][ev.side] = True
            elif ev.side == m["running"]:  # CL-2: only the running side's press ends a turn
                run_until(ev.at_ns)
                m["running"] = 1 - ev.side
        elif isinstance(ev, Pause):
            if m["started"] and not m["paused"]:
                run_until(ev.at_ns)
                m["paused"] = True
        elif isinstance(ev, Resume):
            if m["paused"]:
                m["paused"] = False
                m["seg"] = ev.at_ns
        elif isinstance(ev, Finish):
            run_until(ev.at_ns)
            m["over"] = True
        if is_round and all(m["done"]):
            m["over"] = True
    run_until(query_ns)
    return used[0], used[1]


@PROPS
@given(games(kinds=PLAIN_KINDS))
def test_charged_time_is_the_sum_of_running_intervals(game):
    """(3) Without undo/adjust/extend: each side's charged time (and so the total) equals the sum of its
    press-to-press running intervals minus the paused spans, exactly to the ns (CL-1), at every probe."""
    control, events = game
    final, states, _ = fold(control, events)
    end = (events[-1].at_ns if events else 0) + 7200 * S
    last = advance(final, end)
    stops = [(a.at_ns, a.kind, a.side) for a in last.alerts if a.kind in ("flag", "game-over", "round-over")]
    probes = [(i + 1, state, t) for i, state, t in probe_times(states, events)] + [(len(events), final, end)]
    for n, state, t in probes:
        later = advance(state, t)
        expected = charged_by_model(control, events[:n], stops, t)
        assert (used_ns(later, 0), used_ns(later, 1)) == expected
        assert used_ns(later, 0) + used_ns(later, 1) == sum(expected)


# ------------------------------------------------------------------------------------------------
# (4) live == replayed


@PROPS
@given(games(), st.randoms(use_true_random=False))
def test_live_run_equals_replay(game, rnd: random.Random):
    """(4) DESIGN §2: the device loop advances the state at its wake-ups (next_wake) and at arbitrary
    moments, and applies each event when it comes; the result equals the plain fold of the events,
    exactly (dataclass ==), after every event, and the views agree at random later times."""
    control, events = game
    _, states, _ = fold(control, events)
    live = new_game(control)
    for ev, replayed in zip(events, states, strict=False):
        for _ in range(rnd.randint(0, 4)):
            if rnd.random() < 0.6:
                w = next_wake(live)
                if w is None or w > ev.at_ns:
                    continue
                live = advance(live, w)
            else:
                live = advance(live, rnd.randint(live.now_ns, ev.at_ns))
        try:
            live = apply(live, ev)
        except Rejected:
            live = advance(live, ev.at_ns)
        assert advance(live, ev.at_ns) == advance(replayed, ev.at_ns)
    final = states[-1] if states else new_game(control)
    q = live.now_ns
    for _ in range(3):
        q += rnd.choice([0, 1, rnd.randint(1, 10 * S), rnd.randint(1, 10**13)])
        assert view(live, q) == view(final, q)
        assert advance(live, q) == advance(final, q)


# ------------------------------------------------------------------------------------------------
# (5) the log format round-trips


@st.composite
def loggable_events(draw):
    """Any event the clock can accept, with any amounts: whole minutes, odd nanoseconds, hours."""
    t = 0
    out = []
    for _ in range(draw(st.integers(0, 30))):
        t += draw(GAPS)
        kind = draw(st.sampled_from(("start", "press", "pause", "resume", "extend", "adjust", "undo", "finish")))
        side = draw(st.sampled_from([0, 1]))
        if kind in ("start", "press"):
            out.append((Start if kind == "start" else Press)(t, side))
        elif kind == "extend":
            amount = draw(st.one_of(st.integers(1, 60).map(lambda k: k * MIN), st.integers(1, 10**14)))
            out.append(Extend(t, side, amount))
        elif kind == "adjust":
            out.append(Adjust(t, side, draw(st.integers(-10**14, 10**14))))
        else:
            out.append({"pause": Pause, "resume": Resume, "undo": Undo, "finish": Finish}[kind](t))
    return out


@settings(max_examples=2 * EXAMPLES, deadline=None)
@given(loggable_events(), st.booleans())
def test_log_format_round_trips(events, decorate):
    """(5) parse_log(lines of format_event) gives back the same events, exactly (ns, sides, amounts)."""
    lines = [format_event(e) for e in events]
    if decorate:  # a header, comments and blank lines do not change the events
        lines = ["# journal", "preset crossword", ""] + [f"{x}   # note" for x in lines]
    log = parse_log("\n".join(lines) + "\n")
    assert log.events == events


# ------------------------------------------------------------------------------------------------
# (6) next_wake is honest


def signature(v: dict) -> tuple:
    """What the players see and hear: the displays, the alerts, and the clock's state."""
    out = [v["state"], tuple(sorted((k, sd["display"], sd["flagged"]) for k, sd in v["sides"].items()))]
    if "cut" in v:
        out.append(v["cut"]["display"])
    out.append(tuple(tuple(sorted(a.items())) for a in v["alerts"]))
    return tuple(out)


def check_wake_interval(here, rnd: random.Random) -> int | None:
    """Check one interval [here.now_ns, next_wake]; return the wake (None: the clock is stopped)."""
    t = here.now_ns
    w = next_wake(here)
    if w is None:
        assert here.phase != RUNNING
        return None
    assert w > t
    before = signature(view(here))
    samples = {t + 1, w - 1, (t + w) // 2, rnd.randint(t, w - 1)}
    for p in sorted(x for x in samples if t < x < w):
        assert signature(view(here, p)) == before, f"changed at {p} before the wake at {w} (asked at {t})"
    assert signature(view(here, w)) != before, f"nothing changed at the wake {w} (asked at {t})"
    return w


@PROPS
@given(games(), st.randoms(use_true_random=False))
def test_next_wake_is_honest(game, rnd: random.Random):
    """(6) Between `at` and `next_wake(at)` nothing the players see or hear changes; at `next_wake`
    something does. Sampled: at+1, just before the wake, halfway and a random point; from a few random
    moments the check follows the chain of wakes the way the device loop does (each wake becomes the
    next `at`), so whole turns are walked: every second, every tenth, every alert."""
    control, events = game
    _, states, _ = fold(control, events)
    probes = probe_times(states, events)
    for _, state, t in rnd.sample(probes, min(len(probes), 4)):
        here = advance(state, t)
        for _ in range(150):
            w = check_wake_interval(here, rnd)
            if w is None:
                break
            here = advance(here, w)
