"""Issue 14: the running loop renders only when a player could see a change. Over 10 s of a running
Makruk clock (45:00, whole seconds shown: one display change a second) the loop wakes for the display
(10), the journal's checkpoints (every 0.5 s, CL-6: 19) and the buzzer/watchdog timers; it renders
only for the display changes, never for a checkpoint."""
from __future__ import annotations

import queue

import pytest

from gameclock.inbox import PlayerButton
from gameclock.loop import Loop
from gameclock.persist.restore import attach
from gameclock.rules.loader import load_presets

S = 1_000_000_000


class Null:
    def show(self, frame) -> None:
        pass

    def beep(self, alert, text) -> None:
        pass


class Pinger:
    """A watchdog-like timer: every 0.25 s, changes nothing on the screens."""
    visible = False

    def __init__(self, start: int):
        self.due = start
        self.fired = 0

    def next_wake(self) -> int:
        return self.due

    def fire(self, now_ns: int) -> None:
        self.fired += 1
        self.due = now_ns + S // 4


@pytest.fixture(scope="module")
def presets():
    return load_presets()


def test_checkpoint_and_watchdog_wakes_do_not_render(presets, tmp_path):
    now = [1_000 * S]
    loop = Loop(queue.Queue(), presets, Null(), Null(), clock=lambda: now[0])
    journal, _ = attach(loop, tmp_path)
    pinger = Pinger(now[0])
    loop.timers.append(pinger)
    loop.new_game("makruk-45", 1)
    loop.pump(now[0])
    renders = []
    real = loop.compose
    loop.compose = lambda t: renders.append(t) or real(t)  # type: ignore[method-assign]
    z = now[0]
    loop.pump(z, [PlayerButton(z, 0)], skip_unchanged=True)  # right's clock runs (one render: the input)
    wakes = 0
    while (w := loop.next_wake()) is not None and w <= z + 10 * S:  # drive it as Loop.run does
        now[0] = w
        loop.pump(w, skip_unchanged=True)
        wakes += 1
    journal.writer.flush()
    checkpoints = sum(1 for ln in (tmp_path / "games" / "000001.log").read_bytes().split(b"\n") if b" checkpoint*" in ln)
    assert checkpoints == 19 and pinger.fired == 1 + 40    # 0.5 ... 9.5 s; at the start, then every 0.25 s
    assert wakes >= 10 + 19 + 40 - 5                       # (wakes that coincide are one)
    assert len(renders) == 1 + 10                          # the press, then 44:59 ... 44:50
    assert loop.frame.captions[1].startswith("RIGHT 44:50")


def test_tests_and_direct_drivers_still_render_every_pump(presets):
    now = [1_000 * S]
    loop = Loop(queue.Queue(), presets, Null(), Null(), clock=lambda: now[0])
    loop.new_game("makruk-45", 1)
    loop.pump(now[0])
    loop.message = "set directly"
    loop.pump(now[0])  # no input, no due change: rendered all the same (skip_unchanged is the run loop's)
    assert loop.frame.message == "set directly"
