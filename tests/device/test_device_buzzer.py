"""The buzzer on MockFactory pins: each pattern's pin states at their times, played by the loop's
timer hook (no gpiozero background thread); overlaps (the more urgent wins); mute (CL-4, MH-2)."""
from __future__ import annotations

import gpiozero.pins.mock as gpiozero_mock
import pytest

from gameclock.device.buzzer import GAP_MS, Buzzer
from gameclock.device.wiring import BuzzerWiring
from gameclock.ui.sounds import PATTERNS, pattern_for

MS = 1_000_000
T0 = 5_000 * 1_000 * MS  # 5000 s on the (fake) monotonic clock


class FakeTime:
    """One clock for the buzzer and for the mock pins' state records (gpiozero's MockPin stamps its
    `states` with time.monotonic(), imported into gpiozero.pins.mock)."""

    def __init__(self):
        self.ns = T0

    def __call__(self) -> int:
        return self.ns


@pytest.fixture
def now(monkeypatch):
    t = FakeTime()
    monkeypatch.setattr(gpiozero_mock, "monotonic", lambda: t.ns / 1e9)
    return t


def make(factory, now, kind="passive", **kw):
    wiring = BuzzerWiring(pin=18, type=kind, frequency_hz=2000 if kind == "passive" else None)
    b = Buzzer(wiring, pin_factory=factory, clock=now, **kw)
    b.pin.clear_states()
    return b


def run_timers(buzzer, now, until_ns=None):
    """What the loop does: wake at the timer's next_wake, fire it; until nothing is due."""
    while (wake := buzzer.next_wake()) is not None and (until_ns is None or wake <= until_ns):
        assert wake >= now.ns, "a step in the past"
        now.ns = wake
        buzzer.fire(now.ns)
    if until_ns is not None:
        now.ns = max(now.ns, until_ns)


def timeline(pin):
    """The pin's recorded states as [(ms since the records began, value)], the start state dropped."""
    out, t = [], 0.0
    for delta, value in pin.states[1:]:
        t += delta
        out.append((round(t * 1000, 3), value))
    return out


def expected(steps_ms, start_ms=0, on=0.5):
    out, t, level = [], start_ms, on
    for ms in steps_ms:
        out.append((t, level))
        t += ms
        level = 0.0 if level else on
    out.append((t, 0.0))
    return out


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_each_pattern_on_the_pin_at_its_times(factory, now, name):  # CL-4
    b = make(factory, now)
    b.play(PATTERNS[name])
    run_timers(b, now)
    assert timeline(b.pin) == expected(PATTERNS[name].steps_ms)
    assert b.pin.frequency == 2000  # the passive piezo's square wave
    assert b.next_wake() is None and b.playing is None
    b.close()


def test_active_buzzer_is_switched_fully_on(factory, now):
    b = make(factory, now, kind="active")
    b.beep({"kind": "low-time", "side": "left", "remaining_ms": 60_000}, "BEEP low-time left 1:00 left")
    run_timers(b, now)
    assert timeline(b.pin) == expected((120, 120, 120), on=1.0)
    b.close()


def test_mh2_announcements_sound_different(factory, now):  # MH-2: 30 s and 10 s told apart
    b = make(factory, now)
    b.beep({"kind": "announce", "side": "left", "remaining_ms": 30_000})
    run_timers(b, now)
    first = timeline(b.pin)
    b.pin.clear_states()
    b.beep({"kind": "announce", "side": "left", "remaining_ms": 10_000})
    run_timers(b, now)
    second = timeline(b.pin)
    assert first == expected(PATTERNS["announce-30s"].steps_ms)
    assert second == expected(PATTERNS["announce-10s"].steps_ms)
    assert len(first) == 2 and len(second) == 4  # one long tone, two long tones
    b.close()


def test_the_first_step_switches_at_once(factory, now):
    """beep() switches the output on itself (the loop need not wake for the first step)."""
    b = make(factory, now)
    b.beep({"kind": "flag", "side": "right"})
    assert b.pin.state == 0.5 and b.next_wake() == T0 + 80 * MS
    b.close()


def test_a_flag_during_a_low_time_pattern_cuts_it_short(factory, now):  # CL-4
    b = make(factory, now)
    b.beep({"kind": "low-time", "side": "left", "remaining_ms": 60_000})
    run_timers(b, now, until_ns=T0 + 150 * MS)  # the first short beep is over, the gap is running
    b.beep({"kind": "flag", "side": "right"})
    run_timers(b, now)
    flag_at = 150 + GAP_MS
    assert timeline(b.pin) == [(0, 0.5), (120, 0.0)] + expected(PATTERNS["flag"].steps_ms, flag_at)
    assert [name for _, name in b.played] == ["low-time", "flag"]
    b.close()


def test_a_flag_during_a_sounding_beep_switches_off_first(factory, now):
    b = make(factory, now)
    b.beep({"kind": "cut-warning", "remaining_ms": 300_000})
    run_timers(b, now, until_ns=T0 + 100 * MS)  # inside the first 300 ms tone
    b.beep({"kind": "overtime", "side": "left", "remaining_ms": 0})  # XW-3: time is up
    run_timers(b, now)
    assert timeline(b.pin)[:3] == [(0, 0.5), (100, 0.0), (100 + GAP_MS, 0.5)]
    assert timeline(b.pin)[2:] == expected(PATTERNS["flag"].steps_ms, 100 + GAP_MS)
    b.close()


def test_a_less_urgent_alert_waits_for_the_playing_one(factory, now):
    b = make(factory, now)
    b.beep({"kind": "flag", "side": "left"})
    now.ns = T0 + 10 * MS
    b.beep({"kind": "low-time", "side": "right", "remaining_ms": 60_000})
    run_timers(b, now)
    flag_ms = PATTERNS["flag"].duration_ms
    assert timeline(b.pin) == (expected(PATTERNS["flag"].steps_ms)
                               + expected((120, 120, 120), flag_ms + GAP_MS))
    b.close()


def test_equal_urgency_plays_in_order(factory, now):
    b = make(factory, now)
    b.beep({"kind": "low-time", "side": "left", "remaining_ms": 60_000})
    b.beep({"kind": "cut-warning", "remaining_ms": 300_000})
    run_timers(b, now)
    assert [name for _, name in b.played] == ["low-time", "cut-warning"]
    b.close()


def test_a_stale_waiting_pattern_is_dropped(factory, now):
    b = make(factory, now, stale_ms=100)
    b.beep({"kind": "game-over"})
    b.beep({"kind": "low-time", "side": "left", "remaining_ms": 60_000})
    run_timers(b, now)
    assert [name for _, name in b.played] == ["game-over"]
    b.close()


def test_mute_silences(factory, now):
    b = make(factory, now, muted=True)
    b.beep({"kind": "flag", "side": "left"})
    assert b.next_wake() is None and timeline(b.pin) == []
    b.set_mute(False)
    b.beep({"kind": "flag", "side": "left"})
    run_timers(b, now, until_ns=T0 + 50 * MS)  # inside the first 80 ms beep
    assert b.pin.state == 0.5
    b.set_mute(True)  # muted while it sounds: off at once, nothing more scheduled
    assert b.pin.state == 0 and b.next_wake() is None
    assert timeline(b.pin) == [(0, 0.5), (50, 0.0)]
    b.close()


def test_pattern_for_unknown_kind_is_a_plain_beep():
    assert pattern_for({"kind": "something-new"}).name == "other"
    assert pattern_for({"kind": "count-limit", "side": "left"}).name == "count-limit"
    assert pattern_for({"kind": "docked", "side": None}).name == "docked"
