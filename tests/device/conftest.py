"""Mock GPIO for device tests: a fresh MockFactory per test, the previous default restored after
(as gpiozero's own tests/conftest.py does). Adapters get it explicitly as `pin_factory=`."""
from __future__ import annotations

import queue

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.pins.pi import PiPin

from gameclock.device.pins import PINS


@pytest.fixture
def factory():
    previous = Device.pin_factory
    f = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = f
    try:
        yield f
    finally:
        f.reset()
        f.close()
        Device.pin_factory = previous


@pytest.fixture
def inbox():
    return queue.Queue()


@pytest.fixture
def pins():
    return dict(PINS)


def _edge(pin, ticks: float, high: bool) -> None:
    """An edge on `pin` stamped `ticks` (float seconds), through the pin's own callback path
    (PiPin._call_when_changed -> the weakly held when_changed handler), as the lgpio backend
    delivers a kernel-stamped edge."""
    pin._state = high
    PiPin._call_when_changed(pin, ticks, high)


def _drain(q: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


@pytest.fixture
def edge():
    return _edge


@pytest.fixture
def drain():
    return _drain
