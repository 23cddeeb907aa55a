"""gameclock.sim.virtual (issue 27): a script played on the real adapters and loop in virtual time --
the same frames every run, time moving only when the script waits or holds a button, gpiozero's clock
given back at the end."""
from __future__ import annotations

import gpiozero.pins.mock as gpiozero_mock

from gameclock.core import clock as core
from gameclock.sim.virtual import NS_PER_S, START_NS, FrameList, VirtualSim

SCRIPT = "left 1.5s right 2s pause 0.5s hold_push 0.5s knob_right push"


def play(script: str, preset: str = "crossword") -> tuple[VirtualSim, FrameList]:
    sink = FrameList()
    with VirtualSim(sink, preset=preset) as sim:
        sim.play(script)
    return sim, sink


def test_the_same_script_gives_the_same_frames():
    _, a = play(SCRIPT)
    _, b = play(SCRIPT)
    assert len(a.frames) > 5
    assert [f.key() for f in a.frames] == [f.key() for f in b.frames]


def test_time_moves_by_the_waits_and_the_holds_only():
    # a tap holds its button 80 ms and the finger stays lifted 50 ms (sim/keys.py TAP_S, LIFT_S)
    sim, _ = play("left 1.5s right 2s pause")
    taps = 3 * (0.08 + 0.05)
    assert sim.now == START_NS + round((1.5 + 2 + taps) * NS_PER_S)
    v = core.view(sim.loop.state)
    # the right clock ran from the left press to the right press: 1.5 s and the left tap's 130 ms
    assert v["sides"]["right"]["used_ms"] == 1630
    assert v["sides"]["left"]["used_ms"] == 2130 and v["state"] == "paused"


def test_the_unlock_hold_and_the_menu():
    sim, _ = play(SCRIPT)
    # pause, the 3.2 s hold (the arbiter's unlock), one notch, a push: the Corrections page
    assert sim.loop.menu.is_open and sim.loop.menu.view()["page"] == "corrections"


def test_gpiozero_gets_its_clock_back():
    before = gpiozero_mock.monotonic
    play("left 1s")
    assert gpiozero_mock.monotonic is before
