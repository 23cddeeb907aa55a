"""On a real Pi, wired as hw/wiring.toml says (run: GAMECLOCK_HARDWARE=1 .venv/bin/python -m pytest
tests/hardware). Needs the lgpio backend, I2C enabled at 400 kHz and both displays connected; the
button test asks a person to press a button.

These tests check what the simulator cannot: that the real backend stamps edges in the monotonic
time domain (CL-1), that both displays answer at their addresses, and that the buzzer pin drives."""
from __future__ import annotations

import os
import queue
import time

import pytest

from gameclock.device.wiring import load_wiring

WIRING = load_wiring()


@pytest.fixture(scope="module")
def factory():
    from gpiozero.pins.lgpio import LGPIOFactory

    f = LGPIOFactory()
    yield f
    f.close()


def test_lgpio_is_the_backend(factory):
    # DESIGN §4: lgpio stamps edges in the kernel; RPi.GPIO's ticks are callback times.
    assert type(factory).__name__ == "LGPIOFactory"


def test_both_displays_answer_on_i2c():
    if WIRING.display.interface != "i2c":
        pytest.fail("this test covers I2C wiring; hw/wiring.toml says SPI")
    from smbus2 import SMBus

    with SMBus(WIRING.display.i2c_bus) as bus:
        for address in WIRING.display.addresses:
            bus.write_byte(address, 0x00)  # an OSError here means nothing answers at that address


def test_buzzer_pin_drives(factory):
    from gpiozero import DigitalOutputDevice

    out = DigitalOutputDevice(WIRING.buzzer.pin, pin_factory=factory)
    try:
        out.on()
        assert out.value == 1
        time.sleep(0.05)
        out.off()
        assert out.value == 0
    finally:
        out.close()


@pytest.mark.skipif(os.environ.get("GAMECLOCK_HARDWARE_PERSON") != "1",
                    reason="needs a person at the clock: set GAMECLOCK_HARDWARE_PERSON=1")
def test_a_real_press_is_stamped_in_the_monotonic_domain(factory):
    # CL-1: the charged instant is the kernel's edge stamp, on the clock the loop uses.
    from gameclock.device.buttons import PlayerButtons

    inbox: queue.Queue = queue.Queue()
    buttons = PlayerButtons(inbox.put, WIRING.pins, pin_factory=factory)
    try:
        print("\npress the LEFT player's button within 20 s")
        before = time.monotonic_ns()
        item = inbox.get(timeout=20)
        after = time.monotonic_ns()
        assert before <= item.at_ns <= after
    finally:
        buttons.close()
