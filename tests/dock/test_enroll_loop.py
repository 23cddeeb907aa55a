"""The enrollment question on the clock (issue 13, SECURITY.md): while the dock shows a comparison
code, both screens ask it and the knob answers; NO is chosen first, so a push without turning
refuses; nothing is asked while a side's clock runs (the dock refuses to enroll then)."""
from __future__ import annotations

import queue

from gameclock.core.control import NS_PER_S
from gameclock.dock.clockside import DockStatus
from gameclock.inbox import DockUpdate, Key, PlayerButton
from gameclock.loop import Loop
from gameclock.rules.loader import load_presets
from gameclock.ui import keys as K
from gameclock.ui.enrollscreen import render_enroll

S = NS_PER_S
ZERO = 1000 * S
ASK = DockStatus(docked=True, known=False, enrolled=False, pc="pc", code="042917")


class Sink:
    def __init__(self):
        self.frames = []

    def show(self, frame):
        self.frames.append(frame)

    def beep(self, alert, text):
        pass


class FakeDock:
    def __init__(self):
        self.answers, self.busy = [], []

    def set_busy(self, busy):
        self.busy.append(busy)

    def answer_enroll(self, code, yes):
        self.answers.append((code, yes))


def make_loop():
    sink = Sink()
    loop = Loop(queue.SimpleQueue(), load_presets(), sink, sink, clock=lambda: ZERO)
    loop.dock = FakeDock()
    loop.new_game("makruk-45", 1)
    loop.pump(ZERO)
    return loop, sink


def test_the_question_shows_the_code_on_both_screens_and_a_push_alone_refuses():
    loop, sink = make_loop()
    loop.pump(ZERO + S, [DockUpdate(ZERO + S, ASK)])
    f = sink.frames[-1]
    assert f.left.tobytes() == f.right.tobytes() == render_enroll("042917", False).tobytes()
    assert f.captions[0] == "ENROL THIS CLOCK? CODE 042 917  [NO] YES"
    loop.pump(ZERO + 2 * S, [Key(ZERO + 2 * S, K.CLICK)])
    assert loop.dock.answers == [("042917", False)]
    assert sink.frames[-1].left.tobytes() != render_enroll("042917", False).tobytes()  # the question is gone


def test_turning_to_yes_then_pushing_confirms_once():
    loop, sink = make_loop()
    loop.pump(ZERO + S, [DockUpdate(ZERO + S, ASK)])
    loop.pump(ZERO + 2 * S, [Key(ZERO + 2 * S, K.DOWN)])
    assert sink.frames[-1].captions[0].endswith("NO [YES]")
    assert sink.frames[-1].left.tobytes() == render_enroll("042917", True).tobytes()
    loop.pump(ZERO + 3 * S, [Key(ZERO + 3 * S, K.CLICK)])
    assert loop.message.startswith("enrolment confirmed")
    loop.pump(ZERO + 4 * S, [Key(ZERO + 4 * S, K.CLICK)])  # the next push is the clock's own again
    assert loop.dock.answers == [("042917", True)]


def test_a_new_code_starts_again_at_no():
    loop, sink = make_loop()
    loop.pump(ZERO + S, [DockUpdate(ZERO + S, ASK), Key(ZERO + S + 1, K.UP)])
    assert loop.enroll_yes is True
    loop.pump(ZERO + 2 * S, [DockUpdate(ZERO + 2 * S, DockStatus(docked=True, pc="pc", code="111222"))])
    assert loop.enroll_yes is False and sink.frames[-1].captions[0].endswith("[NO] YES")


def test_nothing_is_asked_while_a_clock_runs():
    loop, sink = make_loop()
    loop.pump(ZERO + S, [PlayerButton(ZERO + S, 0)])  # left presses: right's clock runs
    loop.pump(ZERO + 2 * S, [DockUpdate(ZERO + 2 * S, ASK)])
    assert "ENROL" not in sink.frames[-1].captions[0]
    loop.pump(ZERO + 3 * S, [Key(ZERO + 3 * S, K.CLICK)])
    assert loop.dock.answers == []
