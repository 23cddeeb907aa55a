"""The buzzer patterns as data: distinct for every kind of warning (CL-4), told apart by rhythm."""
from __future__ import annotations

from gameclock.ui.sounds import KIND_PATTERN, LAST_ANNOUNCE_MS, PATTERNS, pattern_for


def test_every_pattern_has_its_own_rhythm():  # CL-4: distinct on an active buzzer too (no pitch)
    rhythms = [p.steps_ms for p in PATTERNS.values()]
    assert len(set(rhythms)) == len(rhythms)


def test_the_warnings_the_rules_name_have_distinct_patterns():  # CL-4, MH-2
    names = {pattern_for(a).name for a in (
        {"kind": "low-time", "remaining_ms": 60_000},
        {"kind": "announce", "remaining_ms": 30_000},
        {"kind": "announce", "remaining_ms": 10_000},
        {"kind": "flag"},
        {"kind": "count-limit"},
        {"kind": "cut-warning", "remaining_ms": 300_000},
        {"kind": "cut"},
        {"kind": "round-over"},
        {"kind": "docked"},
    )}
    assert len(names) == 9


def test_mh2_announcements():  # MH-2: 30 s left one long tone, 10 s left two
    thirty = pattern_for({"kind": "announce", "remaining_ms": 30_000})
    ten = pattern_for({"kind": "announce", "remaining_ms": LAST_ANNOUNCE_MS})
    assert (thirty.name, thirty.beeps) == ("announce-30s", 1)
    assert (ten.name, ten.beeps) == ("announce-10s", 2)
    assert thirty.steps_ms[0] == ten.steps_ms[0] >= 500  # long tones both


def test_urgency_order():
    p = PATTERNS
    assert p["flag"].priority > p["announce-10s"].priority > p["low-time"].priority > p["docked"].priority
    assert p["flag"].priority >= p["count-limit"].priority > p["low-time"].priority
    assert pattern_for({"kind": "overtime", "remaining_ms": 0}) is p["flag"]  # XW-3: time is up


def test_patterns_are_short_enough_not_to_overlap_the_next_mh2_announcement():
    # MH-2: 30 s and 10 s left are 20 s apart; the flag comes 10 s after the second
    assert all(p.duration_ms < 5_000 for p in PATTERNS.values())


def test_every_core_alert_kind_has_a_pattern():
    core_kinds = {"low-time", "announce", "cut-warning", "cut", "overtime", "flag", "round-over",
                  "byoyomi", "game-over"}
    later = {"count-limit", "docked"}
    assert core_kinds - {"announce"} | later <= set(KIND_PATTERN)
    assert set(KIND_PATTERN.values()) <= set(PATTERNS)


def test_the_arbiters_call_has_a_pattern_of_its_own():
    # MR-13 decision: the arbiter is signalled with a distinct pattern, not the players' low-time warning
    call = pattern_for({"kind": "arbiter-call", "side": "left", "remaining_ms": 300_000})
    assert call.name == "arbiter-call"
    others = [p.steps_ms for name, p in PATTERNS.items() if name != "arbiter-call"]
    assert call.steps_ms not in others
    # MH-2 `call`: MOVE NOW sounds like the end of the move's time (the flag pattern)
    assert pattern_for({"kind": "move-now", "side": "right", "remaining_ms": 0}).name == "flag"
