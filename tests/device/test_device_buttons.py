"""Player and pause buttons on MockFactory pins: charged at the edge's tick, debounced (CL-1, CL-2)."""
from __future__ import annotations

import time

import pytest

from gameclock.device.buttons import Debouncer, PlayerButtons, ticks_to_ns
from gameclock.inbox import PauseButton, PlayerButton

MS = 1_000_000


@pytest.fixture
def buttons(factory, inbox, pins):
    b = PlayerButtons(inbox.put, pins, pin_factory=factory)
    yield b
    b.close()


def test_press_is_charged_at_the_edge_tick(buttons, inbox, edge, drain):
    edge(buttons.buttons["left"].pin, 12.345678901, False)  # pull-up: low = pressed
    assert drain(inbox) == [PlayerButton(12_345_678_901, 0)]


def test_release_is_not_a_press(buttons, inbox, edge, drain):
    pin = buttons.buttons["right"].pin
    edge(pin, 100.0, False)
    edge(pin, 100.2, True)
    assert drain(inbox) == [PlayerButton(100_000_000_000, 1)]


def test_chatter_within_the_window_yields_one_press(buttons, inbox, edge, drain):
    pin = buttons.buttons["left"].pin
    t = 50.0
    for i in range(12):  # 12 edges, 1 ms apart: low, high, low, ...
        edge(pin, t + i * 0.001, i % 2 == 1)
    edge(pin, t + 0.011, False)  # settles low (held)
    assert drain(inbox) == [PlayerButton(50_000_000_000, 0)]
    # released later (with chatter again), then pressed again: one more press at its first edge
    edge(pin, t + 0.400, True)
    edge(pin, t + 0.401, False)
    edge(pin, t + 0.402, True)
    edge(pin, t + 0.900, False)
    edge(pin, t + 0.901, True)
    edge(pin, t + 0.902, False)
    assert drain(inbox) == [PlayerButton(50_900_000_000, 0)]


def test_a_tap_shorter_than_the_window_does_not_eat_the_next_press(buttons, inbox, edge, drain):
    pin = buttons.buttons["left"].pin
    edge(pin, 10.000, False)
    edge(pin, 10.005, True)  # released inside the window: swallowed
    edge(pin, 11.000, False)  # the next press still counts
    assert drain(inbox) == [PlayerButton(10_000_000_000, 0), PlayerButton(11_000_000_000, 0)]


def test_both_buttons_at_once_are_two_presses_with_their_own_ticks(buttons, inbox, edge, drain):
    edge(buttons.buttons["left"].pin, 20.000001, False)
    edge(buttons.buttons["right"].pin, 20.000001, False)
    edge(buttons.buttons["right"].pin, 20.000002, True)  # right's chatter
    edge(buttons.buttons["right"].pin, 20.000003, False)
    assert drain(inbox) == [PlayerButton(20_000_001_000, 0), PlayerButton(20_000_001_000, 1)]


def test_pause_button(buttons, inbox, edge, drain):
    edge(buttons.buttons["pause"].pin, 7.5, False)
    edge(buttons.buttons["pause"].pin, 7.6, True)
    assert drain(inbox) == [PauseButton(7_500_000_000)]


def test_real_mock_pin_drive_is_stamped_by_the_pin(buttons, inbox, drain):
    """The whole gpiozero path: MockPin.drive_low stamps the edge with its monotonic tick."""
    before = time.monotonic_ns()
    buttons.buttons["right"].pin.drive_low()
    after = time.monotonic_ns()
    (press,) = drain(inbox)
    assert press.side == 1 and before - 1000 <= press.at_ns <= after + 1000


def test_the_pin_bounce_filter_is_off(buttons):
    assert all(b.pin.bounce is None for b in buttons.buttons.values())


def test_ticks_to_ns():
    assert ticks_to_ns(0.000000001) == 1
    assert ticks_to_ns(12.5) == 12_500_000_000
    # a day of uptime in float seconds still converts to the nanosecond
    assert ticks_to_ns(86_400.123456789) == 86_400_123_456_789


def test_debouncer_alone():
    d = Debouncer(30 * MS)
    assert d.edge(0, True) == [(0, True)]
    assert d.edge(1 * MS, False) == []
    assert d.edge(29 * MS, True) == []
    assert d.edge(100 * MS, False) == [(100 * MS, False)]
    assert d.edge(110 * MS, True) == []  # bounce after release
    assert d.edge(111 * MS, False) == []
    assert d.edge(500 * MS, True) == [(500 * MS, True)]
    assert d.edge(510 * MS, False) == []  # a short tap: the release is swallowed...
    assert d.edge(900 * MS, True) == [(510 * MS, False), (900 * MS, True)]  # ...and reported late
