"""The simulator's key map drives mock pins through the real adapters."""
from __future__ import annotations

import threading
import time

import pytest

from gameclock.device.buttons import PlayerButtons
from gameclock.device.encoder import Knob
from gameclock.inbox import Key, PushEdge
from gameclock.sim.keys import PinDriver, decode, parse_script, run_script
from gameclock.ui.keys import DOWN, UP


@pytest.fixture
def rig(factory, inbox, pins):
    buttons = PlayerButtons(inbox.put, pins, pin_factory=factory)
    knob = Knob(inbox.put, pins, pin_factory=factory, clock=lambda: 0)
    driven = {name: b.pin for name, b in buttons.buttons.items()}
    driven.update(knob_a=knob.encoder.a.pin, knob_b=knob.encoder.b.pin, knob_push=knob.push.pin,
                  back=knob.back.pin)
    quits = []
    driver = PinDriver(driven, lambda: quits.append(True), tap_s=0.04, long_s=0.2)
    yield driver, quits
    knob.close()
    buttons.close()


def wait_for(inbox, n, drain, timeout=2.0):
    got = []
    end = time.monotonic() + timeout
    while len(got) < n and time.monotonic() < end:
        got += drain(inbox)
        time.sleep(0.01)
    return got


def test_decode_keys_and_escape_sequences():
    assert decode("zm \r") == (["z", "m", " ", "\r"], "")
    assert decode("\x1b[C\x1b[D\x1bOA\x1b[B") == (["RIGHT", "LEFT", "UP", "DOWN"], "")
    assert decode("k\x1b") == (["k"], "\x1b")  # maybe the start of a sequence: wait for more
    assert decode("\x1b[") == ([], "\x1b[")
    assert decode("\x1bq") == (["ESC", "q"], "")


def test_parse_script():
    assert parse_script("k k push # start\n0.5s z 300ms m quit") == [
        ("act", "knob_right"), ("act", "knob_right"), ("act", "push"), ("wait", 0.5),
        ("act", "left"), ("wait", 0.3), ("act", "right"), ("act", "quit")]
    assert parse_script("space enter") == [("act", "pause"), ("act", "push")]
    with pytest.raises(ValueError):
        parse_script("jump")


def test_keys_drive_the_adapters(rig, inbox, drain):
    driver, _ = rig
    driver.act("left")
    driver.act("knob_right")
    driver.act("knob_left")
    driver.act("pause")
    driver.act("push")
    got = wait_for(inbox, 6, drain)
    kinds = [type(x).__name__ for x in got]
    assert kinds.count("PlayerButton") == 1 and kinds.count("PauseButton") == 1
    assert [x.key for x in got if isinstance(x, Key)] == [DOWN, UP]
    assert [x.down for x in got if isinstance(x, PushEdge)] == [True, False]


def test_script_ends_with_quit(rig):
    driver, quits = rig
    stop = threading.Event()
    run_script(parse_script("10ms right"), driver, stop, settle_s=0.01)
    assert quits == [True]


def test_hold_key_and_script_token():
    from gameclock.sim.keys import HOLD_S, KEYMAP, LEGEND
    assert KEYMAP["h"] == "hold_push" and HOLD_S > 3.0  # longer than the arbiter's 3 s hold
    assert parse_script("hold_push h") == [("act", "hold_push"), ("act", "hold_push")]
    assert any("h hold 3 s" in line for line in LEGEND)


def test_hold_push_holds_the_knob(rig, inbox, drain):
    driver, _ = rig
    driver.hold_s = 0.15
    t0 = time.monotonic_ns()
    driver.act("hold_push")
    down, up = wait_for(inbox, 2, drain)
    assert (down.down, up.down) == (True, False)
    assert up.at_ns - down.at_ns >= 140_000_000 and down.at_ns >= t0 - 1000


def test_lever_keys_throw_the_lever(factory, inbox, drain):
    pins = {"lever_left": 17, "lever_right": 27, "pause": 22}
    buttons = PlayerButtons(inbox.put, pins, pin_factory=factory)
    try:
        driver = PinDriver({n: b.pin for n, b in buttons.buttons.items()}, lambda: None)
        assert driver.lever
        driver.act("left")  # z: the lever into the right position, the left player's press
        driver.act("left")  # already there: nothing
        driver.act("right")
        got = wait_for(inbox, 2, drain, timeout=0.5)
        assert [p.side for p in got] == [0, 1]
        assert buttons.buttons["lever_left"].pin.state is False  # it stays in the left position
    finally:
        buttons.close()


def test_a_script_releases_a_hold_before_its_next_step(rig, inbox, drain):
    """The sim's hold_push bug (issue 15): a script ran its next step at once, so `hold_push push` let
    the push's 80 ms release end the held knob long before the 3 s unlock. One finger: the hold is
    released, then the push is pressed (two downs, two ups, the hold's up at least its time after its down)."""
    driver, quits = rig
    driver.hold_s = 0.15
    run_script(parse_script("hold_push push"), driver, threading.Event(), settle_s=0.01)
    edges = [x for x in wait_for(inbox, 4, drain) if isinstance(x, PushEdge)]
    assert [e.down for e in edges] == [True, False, True, False]
    assert edges[1].at_ns - edges[0].at_ns >= 150_000_000  # held for hold_s, not cut by the push
    assert edges[2].at_ns >= edges[1].at_ns  # the push comes after the hold's release
    assert edges[3].at_ns - edges[2].at_ns >= 40_000_000  # the push's own tap_s
    assert quits == [True]


def test_busy_times_of_the_actions(rig):
    driver, _ = rig  # tap_s 0.04, long_s 0.2 (the rig's), hold_s the default 3.2
    assert [driver.busy_s(a) for a in ("push", "long_push", "hold_push", "knob_right", "pause", "quit")] == [
        0.04, 0.2, 3.2, 0.0, 0.04, 0.0]
