"""The knob on MockFactory pins: detents -> UP/DOWN, push -> CLICK / LONG_CLICK, back -> BACK."""
from __future__ import annotations

import pytest

from gameclock.device.encoder import Knob
from gameclock.inbox import Key, PushEdge
from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP, ClickTimer

S = 1_000_000_000


@pytest.fixture
def knob(factory, inbox, pins):
    k = Knob(inbox.put, pins, pin_factory=factory, clock=lambda: 42)
    yield k
    k.close()


def clockwise(knob):
    a, b = knob.encoder.a.pin, knob.encoder.b.pin
    a.drive_low(); b.drive_low(); a.drive_high(); b.drive_high()


def counter_clockwise(knob):
    a, b = knob.encoder.a.pin, knob.encoder.b.pin
    b.drive_low(); a.drive_low(); b.drive_high(); a.drive_high()


def test_one_clockwise_detent_is_one_down(knob, inbox, drain):
    clockwise(knob)
    assert drain(inbox) == [Key(42, DOWN)]


def test_one_counter_clockwise_detent_is_one_up(knob, inbox, drain):
    counter_clockwise(knob)
    assert drain(inbox) == [Key(42, UP)]


def test_unbounded_knob(knob, inbox, drain):
    for _ in range(40):
        clockwise(knob)
    assert [k.key for k in drain(inbox)] == [DOWN] * 40  # max_steps=0: never stuck at an end
    assert knob.encoder.max_steps == 0


def test_half_a_detent_and_back_is_nothing(knob, inbox, drain):
    a, b = knob.encoder.a.pin, knob.encoder.b.pin
    a.drive_low(); b.drive_low(); b.drive_high(); a.drive_high()
    assert drain(inbox) == []


def test_push_edges_carry_ticks_and_make_a_click(knob, inbox, edge, drain):
    pin = knob.push.pin
    edge(pin, 5.0, False)
    edge(pin, 5.001, True)  # bounce
    edge(pin, 5.002, False)
    edge(pin, 5.2, True)
    edges = drain(inbox)
    assert edges == [PushEdge(5 * S, True), PushEdge(5_200_000_000, False)]
    timer = ClickTimer()
    assert [timer.edge(e.at_ns, e.down) for e in edges] == [None, CLICK]


def test_long_press_fires_while_held_and_release_adds_nothing(knob, inbox, edge, drain):
    pin = knob.push.pin
    edge(pin, 5.0, False)
    timer = ClickTimer(800_000_000)
    (down,) = drain(inbox)
    assert timer.edge(down.at_ns, down.down) is None
    assert timer.next_wake() == 5_800_000_000
    assert timer.expire(5_799_999_999) is None
    assert timer.expire(5_800_000_000) == LONG_CLICK
    assert timer.next_wake() is None
    edge(pin, 6.5, True)
    (up,) = drain(inbox)
    assert timer.edge(up.at_ns, up.down) is None


def test_long_press_decided_at_release_if_the_timer_was_late(knob):
    timer = ClickTimer(800_000_000)
    timer.edge(0, True)
    assert timer.edge(900_000_000, False) == LONG_CLICK


def test_back_button(knob, inbox, edge, drain):
    edge(knob.back.pin, 3.0, False)
    edge(knob.back.pin, 3.2, True)
    assert drain(inbox) == [Key(3 * S, BACK)]
