"""Live state == replayed state, through the whole device path: edges on mock pins with chosen ticks,
the loop woken at the core's own wake times (as the real loop is), and the game's event log written
out as text and replayed with `gameclock replay`'s code."""
from __future__ import annotations

import random

from test_device_sim_loop import ZERO, Rig, S  # noqa: E402  (the same rig as the loop tests)

from gameclock.core import clock as core
from gameclock.core.log import format_event
from gameclock.replay import replay_text


def test_live_game_equals_its_replayed_log(factory, inbox, pins, edge):
    rig = Rig(factory, inbox, pins)
    try:
        rig.choose(edge, "makhos-move")  # MH-2: per-move clock, announcements, flag at 2:00
        rng = random.Random(7)
        buttons = rig.buttons.buttons
        t = 5.0
        edge(buttons["left"].pin, rig.at(t), False)  # the left button starts right's clock
        rig.pump()
        edge(buttons["left"].pin, rig.at(t + 0.2), True)
        running = "right"
        for _ in range(40):
            think = rng.uniform(0.05, 100.0)  # some moves pass the 30 s / 10 s announcements
            # the loop wakes when the core says (digit changes, announcements), not on a tick
            while True:
                wake = rig.loop.core_wake()
                if wake is None or wake >= ZERO + round((t + think) * S):
                    break
                rig.now = wake
                rig.pump()
            t += think
            edge(buttons[running].pin, rig.at(t), False)
            rig.pump()
            edge(buttons[running].pin, rig.at(t + 0.1), True)
            rig.pump()
            running = "left" if running == "right" else "right"
        assert rig.loop.state.phase == core.RUNNING
        assert len(rig.loop.events) == 41  # the start and 40 presses, each charged at its edge

        # the same events folded without any intermediate wake-ups
        replayed = core.new_game(rig.loop.preset.control_for(), label=rig.loop.preset.short)
        for ev in rig.loop.events:
            replayed = core.apply(replayed, ev)
        assert replayed == rig.loop.state

        # and written as a log, parsed back and replayed by `gameclock replay`'s code
        text = "preset makhos-move\n" + "".join(format_event(ev) + "\n" for ev in rig.loop.events)
        at = rig.loop.state.now_ns
        live = core.view(rig.loop.state, at)
        from_log = replay_text(text, "live.log", at)
        assert from_log["sides"] == live["sides"]
        assert from_log["alerts"] == live["alerts"]
        assert any(a["kind"] == "announce" for a in live["alerts"])
    finally:
        rig.close()
