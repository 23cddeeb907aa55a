"""The toggle-lever wiring (two inputs) on MockFactory pins: the lever's position says which side's
clock runs; a throw is the other side's press, charged at the closing edge's tick (CL-1), debounced
like the buttons (CL-2). And which GPIO backends give exact edge times."""
from __future__ import annotations

import logging
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from gameclock.device import buttons as buttons_mod
from gameclock.device.buttons import DebouncedButton, EdgeTimes, PlayerButtons, edge_times
from gameclock.device.pins import Inputs
from gameclock.device.wiring import DEFAULT_WIRING, load_wiring
from gameclock.inbox import PauseButton, PlayerButton

LEVER_PINS = {"lever_left": 17, "lever_right": 27, "pause": 22}


@pytest.fixture
def lever(factory, inbox):
    b = PlayerButtons(inbox.put, LEVER_PINS, pin_factory=factory)
    yield b
    b.close()


def throw(edge, lever, to: str, t: float, chatter: bool = False):
    """Move the lever to position `to` at time t: the old contact opens, the new one closes 3 ms later."""
    old, new = ("lever_left", "lever_right") if to == "right" else ("lever_right", "lever_left")
    edge(lever.buttons[old].pin, t, True)
    edge(lever.buttons[new].pin, t + 0.003, False)
    if chatter:
        for i in range(1, 6):
            edge(lever.buttons[new].pin, t + 0.003 + i * 0.001, i % 2 == 1)
        edge(lever.buttons[new].pin, t + 0.010, False)


def test_throwing_the_lever_right_is_the_left_players_press(lever, inbox, edge, drain):
    throw(edge, lever, "right", 10.0)
    assert drain(inbox) == [PlayerButton(10_003_000_000, 0)]  # the right contact's closing edge
    assert lever.lever.position == 1
    throw(edge, lever, "left", 12.5)
    assert drain(inbox) == [PlayerButton(12_503_000_000, 1)]
    assert lever.lever.position == 0


def test_chatter_on_the_contact_is_one_press(lever, inbox, edge, drain):  # CL-2
    throw(edge, lever, "right", 5.0, chatter=True)
    assert drain(inbox) == [PlayerButton(5_003_000_000, 0)]


def test_a_wobble_that_returns_is_no_press(lever, inbox, edge, drain):  # CL-2
    throw(edge, lever, "right", 5.0)
    drain(inbox)
    right = lever.buttons["lever_right"].pin
    edge(right, 7.0, True)    # the right contact opens (the lever nudged) ...
    edge(right, 7.2, False)   # ... and closes again in the same position: no press
    edge(right, 9.0, True)
    edge(right, 9.001, False)  # after the window too
    assert drain(inbox) == []


class ClosedContact(MockPWMPin):
    """A pin held low by a closed contact: turning the pull-up on does not lift it."""

    def _set_pull(self, value):
        self._pull = value


def test_the_start_position_is_read_from_the_pins(factory, inbox, drain, edge):
    factory.pin(27, pin_class=ClosedContact)  # the lever rests in the right position at start
    b = PlayerButtons(inbox.put, LEVER_PINS, pin_factory=factory)
    try:
        assert b.lever.position == 1
        throw(edge, b, "right", 3.0)  # closing the contact it is already on: nothing
        assert drain(inbox) == []
        throw(edge, b, "left", 4.0)
        assert drain(inbox) == [PlayerButton(4_003_000_000, 1)]
    finally:
        b.close()


def test_lever_in_the_middle_at_start_the_first_throw_counts(lever, inbox, edge, drain):
    assert lever.lever.position is None
    edge(lever.buttons["lever_left"].pin, 1.0, False)
    assert drain(inbox) == [PlayerButton(1_000_000_000, 1)]


def test_pause_button_with_a_lever(lever, inbox, edge, drain):
    edge(lever.buttons["pause"].pin, 2.0, False)
    assert drain(inbox) == [PauseButton(2_000_000_000)]


def test_real_mock_pins_through_the_wiring_file(factory, inbox, drain, tmp_path):
    text = DEFAULT_WIRING.read_text(encoding="utf-8").replace('input = "buttons"', 'input = "lever"') \
        .replace("\nleft = 17", "\nlever_left = 17").replace("\nright = 27", "\nlever_right = 27")
    (tmp_path / "lever.toml").write_text(text, encoding="utf-8")
    inputs = Inputs(inbox.put, load_wiring(tmp_path / "lever.toml"), pin_factory=factory)
    try:
        pins = inputs.pins()
        assert set(pins) == {"lever_left", "lever_right", "pause", "knob_a", "knob_b", "knob_push", "back"}
        before = time.monotonic_ns()
        pins["lever_right"].drive_low()
        (press,) = drain(inbox)
        assert press.side == 0 and press.at_ns >= before - 1000
    finally:
        inputs.close()


# ---------------------------------------------------------------------------------- GPIO backends


def test_mock_pins_are_exact(factory):
    t = edge_times(factory)
    assert t.exact and t.monotonic and t.backend == "mock"


def fake_factory(name: str):
    """A MockFactory that calls itself `name`: edge_times goes by gpiozero's class names (the real
    backends cannot be imported off a Pi)."""
    return type(name, (MockFactory,), {})(pin_class=MockPWMPin)


@pytest.mark.parametrize("name, backend, exact", [
    ("LGPIOFactory", "lgpio", True),
    ("RPiGPIOFactory", "rpigpio", False),
    ("NativeFactory", "native", False),
    ("PiGPIOFactory", "pigpio", False),
])
def test_backends(name, backend, exact):
    f = fake_factory(name)
    try:
        t = edge_times(f)
        assert (t.backend, t.exact) == (backend, exact)
    finally:
        f.close()


def test_rpigpio_fallback_logs_that_edge_times_are_callback_times(caplog, inbox, monkeypatch):
    monkeypatch.setattr(buttons_mod, "_warned", set())
    f = fake_factory("RPiGPIOFactory")
    try:
        with caplog.at_level(logging.WARNING, logger="gameclock.device.buttons"):
            b = PlayerButtons(inbox.put, {"left": 17, "right": 27, "pause": 22}, pin_factory=f)
            b.close()
            b = PlayerButtons(inbox.put, {"left": 17, "right": 27, "pause": 22}, pin_factory=f)
            b.close()
        warnings = [r.getMessage() for r in caplog.records]
        assert len(warnings) == 1  # once per process
        assert "edge times are callback times, not edge times (RPi.GPIO fallback)" in warnings[0]
    finally:
        f.close()


def test_lgpio_logs_nothing(caplog, inbox, monkeypatch):
    monkeypatch.setattr(buttons_mod, "_warned", set())
    f = fake_factory("LGPIOFactory")
    try:
        with caplog.at_level(logging.WARNING, logger="gameclock.device.buttons"):
            PlayerButtons(inbox.put, {"left": 17, "right": 27, "pause": 22}, pin_factory=f).close()
        assert caplog.records == []
    finally:
        f.close()


def test_ticks_off_the_monotonic_clock_are_replaced_by_the_callback_time(factory, edge):
    """pigpio's ticks are its daemon's microsecond counter: such a backend is stamped at the callback."""
    got = []
    b = DebouncedButton(17, lambda at_ns, active: got.append(at_ns), pin_factory=factory,
                        times=EdgeTimes("pigpio", False, False, ""))
    try:
        before = time.monotonic_ns()
        edge(b.pin, 4_000_000_000.0, False)  # a pigpio tick, not seconds of the monotonic clock
        after = time.monotonic_ns()
        assert len(got) == 1 and before <= got[0] <= after
    finally:
        b.close()
