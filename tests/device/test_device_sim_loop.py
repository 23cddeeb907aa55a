"""The loop with the real adapters on mock pins, a chosen clock and recording sinks (no threads):
choose a preset with the knob, start as a chess clock, press, pause, beep, menu lock."""
from __future__ import annotations

import pytest

from gameclock.core.events import Pause, Press, Resume, Start
from gameclock.device.buttons import PlayerButtons
from gameclock.device.encoder import Knob
from gameclock.loop import Loop
from gameclock.rules.loader import load_presets
from gameclock.ui.menu import GROUP_PAGE

S = 1_000_000_000
ZERO = 1000 * S  # the session's zero on the monotonic clock


class Record:
    def __init__(self):
        self.frames, self.beeps = [], []

    def show(self, frame):
        self.frames.append(frame)

    def beep(self, alert, text):
        self.beeps.append(text)


class Rig:
    def __init__(self, factory, inbox, pins):
        self.now = ZERO
        self.inbox = inbox
        self.buttons = PlayerButtons(inbox.put, pins, pin_factory=factory)
        self.knob = Knob(inbox.put, pins, pin_factory=factory, clock=lambda: self.now)
        self.sink = Record()
        self.loop = Loop(inbox, load_presets(), self.sink, self.sink, clock=lambda: self.now)
        self.loop.pump(self.now)

    def at(self, seconds: float):
        self.now = ZERO + round(seconds * S)
        return self.now / S

    def pump(self):
        self.loop.pump(self.now)
        return self.sink.frames[-1]

    def turn(self, clockwise=True):
        a, b = self.knob.encoder.a.pin, self.knob.encoder.b.pin
        first, second = (a, b) if clockwise else (b, a)
        first.drive_low(); second.drive_low(); first.drive_high(); second.drive_high()
        return self.pump()

    def run_until(self, until_ns):
        """Advance the clock to `until_ns`, pumping the loop at each wake it asks for on the way
        (as the real loop wakes at its timers: long click, unlock gesture, buzzer, core)."""
        while (wake := self.loop.next_wake()) is not None and self.now < wake <= until_ns:
            self.now = wake
            self.pump()
        self.now = until_ns

    def push(self, edge, held_s=0.1):
        t = self.now / S
        edge(self.knob.push.pin, t, False)
        self.pump()
        self.run_until(self.now + round(held_s * S))
        edge(self.knob.push.pin, self.now / S, True)
        return self.pump()

    def choose(self, edge, preset_id):
        """Issue 15: the preset's group on the PRESET page, then the preset on the group's page."""
        group = self.loop.menu.groups[preset_id]
        for _ in range(60):
            target = self.loop.menu.selected()
            if self.loop.menu.selected_preset() == preset_id:
                break
            if target is not None and target[1] == f"{GROUP_PAGE}{group}":
                self.push(edge)
                self.run_until(self.now + S // 10)  # a finger's pause before the next push
                continue
            self.turn()
        assert self.loop.menu.selected_preset() == preset_id
        return self.push(edge)

    def close(self):
        self.knob.close()
        self.buttons.close()


@pytest.fixture
def rig(factory, inbox, pins):
    r = Rig(factory, inbox, pins)
    yield r
    r.close()


def test_start_screen_is_the_preset_menu(rig):
    frame = rig.sink.frames[-1]
    assert frame.captions[0] == "MENU PRESET: Crossword family"  # issue 15: the groups first
    assert rig.loop.menu.is_open


def test_choose_a_preset_with_the_knob_then_play(rig, edge):
    frame = rig.choose(edge, "makruk-45")
    assert frame.captions == ("LEFT 45:00", "RIGHT 45:00")
    assert "| ready |" in frame.info
    # the first press of the left button starts the RIGHT clock, charged at the edge's tick
    edge(rig.buttons.buttons["left"].pin, rig.at(10.25), False)
    frame = rig.pump()
    assert rig.loop.events == [Start(at_ns=10_250_000_000, side=1)]
    assert frame.captions == ("LEFT 45:00", "RIGHT 45:00 ▶")
    rig.at(12.0)
    assert rig.pump().captions == ("LEFT 45:00", "RIGHT 44:58 ▶")
    # right presses: left runs
    edge(rig.buttons.buttons["right"].pin, rig.at(13.5), False)
    frame = rig.pump()
    assert rig.loop.events[-1] == Press(at_ns=13_500_000_000, side=1)
    assert frame.captions == ("LEFT 45:00 ▶", "RIGHT 44:56")
    # the idle side's button does nothing (CL-2)
    edge(rig.buttons.buttons["right"].pin, rig.at(14.0), True)
    edge(rig.buttons.buttons["right"].pin, rig.at(14.5), False)
    rig.pump()
    assert len(rig.loop.events) == 2
    # pause and resume toggle on one button
    edge(rig.buttons.buttons["pause"].pin, rig.at(15.0), False)
    assert "| paused |" in rig.pump().info
    edge(rig.buttons.buttons["pause"].pin, rig.at(15.5), True)
    edge(rig.buttons.buttons["pause"].pin, rig.at(20.0), False)
    rig.pump()
    assert rig.loop.events[-2:] == [Pause(at_ns=15 * S), Resume(at_ns=20 * S)]


def test_wake_time_is_the_next_digit_change(rig, edge):
    rig.choose(edge, "makruk-45")
    edge(rig.buttons.buttons["left"].pin, rig.at(10.25), False)
    rig.pump()
    rig.at(10.3)
    # right started at 10.25 s with 45:00.000; the display (floored) next changes, to 44:58, once
    # more than 1 s has run: the loop sleeps exactly until then
    assert rig.loop.core_wake() == ZERO + 11_250_000_001
    assert rig.loop.timeout(rig.now) == pytest.approx(0.950000001)


def test_menu_is_locked_while_a_clock_runs(rig, edge):
    rig.choose(edge, "makruk-30")
    edge(rig.buttons.buttons["left"].pin, rig.at(5.0), False)
    rig.pump()
    edge(rig.knob.back.pin, rig.at(6.0), False)
    frame = rig.pump()
    assert not rig.loop.menu.is_open
    assert "pause first" in frame.message
    # paused: still locked (a game is under way); the arbiter's gesture -- the knob held pushed
    # for 3 s -- opens the game menu; its BACK closes it (still paused), and the lock is back
    edge(rig.buttons.buttons["pause"].pin, rig.at(7.0), False)
    edge(rig.knob.back.pin, rig.at(7.5), True)
    edge(rig.knob.back.pin, rig.at(8.0), False)
    frame = rig.pump()
    assert not rig.loop.menu.is_open and "menu locked" in frame.message
    frame = rig.push(edge, held_s=3.0)
    assert rig.loop.menu.is_open and frame.captions[0].startswith("MENU GAME")
    edge(rig.knob.back.pin, rig.at(12.0), True)
    edge(rig.knob.back.pin, rig.at(12.5), False)
    frame = rig.pump()
    assert not rig.loop.menu.is_open and "| paused |" in frame.info
    edge(rig.knob.back.pin, rig.at(20.0), True)
    edge(rig.knob.back.pin, rig.at(20.5), False)
    assert not rig.loop.menu.is_open and "menu locked" in rig.pump().message


def test_long_click_fires_on_the_loops_timer(rig, edge):
    rig.choose(edge, "makruk-30")
    rig.at(3.0)
    edge(rig.knob.push.pin, rig.now / S, False)
    rig.pump()
    assert rig.loop.timeout(rig.now) == pytest.approx(0.8)
    rig.at(3.8)
    rig.pump()  # held 0.8 s: LONG_CLICK opens the game menu (the game is at ready)
    assert rig.loop.menu.is_open


def test_announcements_beep(rig, edge):
    rig.choose(edge, "makhos-move")
    edge(rig.buttons.buttons["right"].pin, rig.at(1.0), False)  # left's move starts
    rig.pump()
    rig.at(1.0 + 90.0)
    rig.pump()
    assert rig.sink.beeps == ["BEEP announce left 0:30 left"]
    rig.at(1.0 + 110.0)
    rig.pump()
    assert rig.sink.beeps[-1] == "BEEP announce left 0:10 left"
    rig.pump()
    assert len(rig.sink.beeps) == 2  # each alert beeps once


def test_preset_menu_from_a_finished_game_and_next_game(rig, edge):
    rig.choose(edge, "makhos-30")
    edge(rig.knob.back.pin, rig.at(2.0), False)
    rig.pump()
    assert rig.loop.menu.view()["items"][:3] == ["Resume", "New game", "Next game"]
    rig.turn(); rig.turn()
    frame = rig.push(edge)  # Next game: game 2 of the match, 30:00 like every game of it (MH-4)
    assert frame.captions == ("LEFT 30:00", "RIGHT 30:00")
    assert (rig.loop.game_no, rig.loop.tiebreak) == (2, 0)
