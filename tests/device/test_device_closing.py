"""The device adapters as context managers (`with` closes them, gpiozero's habit; a second close
does nothing) and their reprs, which name their pins, addresses or port and their state (issue 12)."""
from __future__ import annotations

import threading

import pytest
from PIL import Image

from gameclock.device.buttons import DebouncedButton, PlayerButtons
from gameclock.device.buzzer import Buzzer
from gameclock.device.display import Oled, OledSink, OledWiring
from gameclock.device.dock import DockThread
from gameclock.device.encoder import Knob
from gameclock.device.pins import Inputs
from gameclock.device.wiring import DEFAULT_WIRING, BuzzerWiring, load_wiring
from gameclock.loop.sinks import Frame
from gameclock.ui.sounds import PATTERNS

LEVER_PINS = {"lever_left": 17, "lever_right": 27, "pause": 22}


def test_a_debounced_button_closes_with_with_and_shows_its_pin_and_level(factory, edge):
    with DebouncedButton(17, lambda at_ns, active: None, pin_factory=factory) as button:
        assert repr(button) == "<DebouncedButton on GPIO17, released>"
        edge(button.pin, 1.0, False)  # pull-up: low = pressed
        assert repr(button) == "<DebouncedButton on GPIO17, pressed>"
    assert repr(button) == "<DebouncedButton closed>"
    button.close()  # again: nothing
    with DebouncedButton(17, lambda at_ns, active: None, pin_factory=factory):
        pass  # the pin is free again


def test_player_buttons_close_with_with_and_name_their_pins(factory, inbox, pins):
    with PlayerButtons(inbox.put, pins, pin_factory=factory) as buttons:
        assert repr(buttons) == ("<PlayerButtons left GPIO17, right GPIO27, pause GPIO22; "
                                 "mock (exact edge times)>")
    assert repr(buttons) == "<PlayerButtons closed>"
    buttons.close()
    PlayerButtons(inbox.put, pins, pin_factory=factory).close()  # the pins are free again


def test_a_lever_shows_its_position(factory, inbox, edge):
    with PlayerButtons(inbox.put, LEVER_PINS, pin_factory=factory) as buttons:
        assert buttons.lever is not None
        assert repr(buttons.lever) == "<Lever on GPIO17 (left) and GPIO27 (right), in neither position>"
        edge(buttons.buttons["lever_right"].pin, 1.0, False)
        assert repr(buttons.lever).endswith(", right>")
        assert "lever right" in repr(buttons)
        lever = buttons.lever
    assert repr(lever) == "<Lever closed>"


def test_the_knob_closes_with_with_and_names_its_pins(factory, inbox, pins):
    with Knob(inbox.put, pins, pin_factory=factory) as knob:
        assert repr(knob) == "<Knob on GPIO5 and GPIO6 (steps 0), push GPIO13, back GPIO26>"
    assert repr(knob) == "<Knob closed>"
    knob.close()
    Knob(inbox.put, pins, pin_factory=factory).close()


def test_inputs_close_with_with(factory, inbox):
    with Inputs(inbox.put, load_wiring(DEFAULT_WIRING), pin_factory=factory) as inputs:
        assert repr(inputs).startswith("<Inputs <PlayerButtons left GPIO17,")
        assert "<Knob on GPIO5 and GPIO6" in repr(inputs)
    assert repr(inputs) == "<Inputs <PlayerButtons closed> <Knob closed>>"


def test_the_buzzer_closes_with_with_and_shows_what_it_plays(factory):
    wiring = BuzzerWiring(pin=18, type="active")
    with Buzzer(wiring, pin_factory=factory, clock=lambda: 0) as buzzer:
        assert repr(buzzer) == "<Buzzer active on GPIO18, silent>"
        buzzer.play(PATTERNS["flag"])
        assert repr(buzzer) == "<Buzzer active on GPIO18, playing flag>"
        buzzer.set_mute(True)
        assert repr(buzzer) == "<Buzzer active on GPIO18, muted>"
    assert repr(buzzer) == "<Buzzer closed>"
    buzzer.close()


class FakeSerial:
    def __init__(self) -> None:
        self.cleanups = 0

    def command(self, *cmd: int) -> None:
        pass

    def data(self, data) -> None:
        pass

    def cleanup(self) -> None:
        self.cleanups += 1


def test_an_oled_releases_its_bus_once_and_shows_where_it_is_and_its_state():
    serial = FakeSerial()
    with Oled(OledWiring(), lambda: serial, name="left") as oled:
        assert repr(oled) == "<Oled left: ssd1306 on I2C bus 1 at 0x3C, not yet used>"
        assert oled.push(Image.new("1", (128, 64)), 0)
        assert repr(oled) == "<Oled left: ssd1306 on I2C bus 1 at 0x3C, up>"
    assert serial.cleanups == 1
    oled.close()
    assert serial.cleanups == 1  # the bus was released already


def test_an_oled_that_fails_shows_it():
    def no_bus():
        raise OSError(121, "Remote I/O error")
    oled = Oled(OledWiring(address=0x3D), no_bus, name="right")
    assert not oled.push(Image.new("1", (128, 64)), 0)
    assert repr(oled) == "<Oled right: ssd1306 on I2C bus 1 at 0x3D, down (1 faults)>"


def test_the_oled_sink_stops_its_worker_and_releases_both_buses():
    serials = FakeSerial(), FakeSerial()
    left = Oled(OledWiring(), lambda: serials[0], name="left")
    right = Oled(OledWiring(address=0x3D), lambda: serials[1], name="right")
    blank = Image.new("1", (128, 64))
    with OledSink(left, right) as sink:
        sink.start()
        sink.show(Frame(blank, blank, ("", ""), ""))
        assert sink.flush()
        assert repr(sink) == ("<OledSink <Oled left: ssd1306 on I2C bus 1 at 0x3C, up> "
                              "<Oled right: ssd1306 on I2C bus 1 at 0x3D, up>, worker thread, 1 frames shown>")
    assert not any(t.name == "displays" for t in threading.enumerate())
    assert [s.cleanups for s in serials] == [1, 1]


def test_the_dock_thread_stops_and_joins_at_the_end_of_with(tmp_path):
    def no_port(path: str):
        raise OSError(2, "No such file or directory", path)
    with DockThread("/dev/nonexistent-dock", tmp_path, "sim", None, lambda item: None,
                    opener=no_port) as dock:
        assert repr(dock) == "<DockThread on /dev/nonexistent-dock, not started>"
        dock.start()
        assert repr(dock) == "<DockThread on /dev/nonexistent-dock, running>"
        dock.set_busy(True)
        assert repr(dock) == "<DockThread on /dev/nonexistent-dock, running, busy (a clock runs: no upload starts)>"
    assert not dock.is_alive()
    assert repr(dock).startswith("<DockThread on /dev/nonexistent-dock, stopped")
    dock.close()  # again: nothing


@pytest.mark.parametrize("cls", [DebouncedButton, PlayerButtons, Knob, Inputs, Buzzer, Oled, OledSink, DockThread])
def test_every_device_is_a_context_manager(cls):
    assert hasattr(cls, "__enter__") and hasattr(cls, "__exit__") and cls.__repr__ is not object.__repr__
