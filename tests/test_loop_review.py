"""The review and what follows it, through the real loop (issue 27): a review of several pages turns
its pages by itself (each up REVIEW_PAGE_NS, the loop woken for the next) and with the knob."""
from __future__ import annotations

import queue

import pytest

from gameclock.core.events import Finish
from gameclock.inbox import Key, PlayerButton
from gameclock.loop import Loop
from gameclock.loop.result_mode import REVIEW_PAGE_NS
from gameclock.rules.loader import load_presets
from gameclock.ui import resultscreens as rs
from gameclock.ui.keys import CLICK, DOWN

S = 1_000_000_000
MS = 1_000_000


class Sink:
    def __init__(self):
        self.frames = []

    def show(self, frame) -> None:
        self.frames.append(frame)

    def beep(self, alert, text) -> None:
        pass


class FakeTime:
    def __init__(self, start: int):
        self.now = start

    def __call__(self) -> int:
        return self.now


@pytest.fixture(scope="module")
def presets():
    return load_presets()


def makruk_in_review(presets, lang: str):
    """Makruk 30:00 finished by the arbiter, left wins by mate, the pieces entered, up for confirmation."""
    t = FakeTime(1_000 * S)
    sink = Sink()
    loop = Loop(queue.Queue(), presets, sink, sink, clock=t)
    loop.settings.language = lang
    loop.new_game("makruk-30")
    t.now += S
    loop.pump(t.now, [PlayerButton(t.now, 0)])
    t.now += 10 * S
    loop.apply(Finish, t.now)
    loop.pump(t.now)
    for words in (["outcome", "left", "mate"], ["material", "left", "RRM"], ["material", "right", "SP"]):
        assert loop.enter(words, t.now), loop.message
    t.now += S
    loop.pump(t.now, [Key(t.now, CLICK)])  # Confirm >
    assert loop.result.stage == "review"
    return loop, t, sink


def test_a_review_of_several_pages_turns_them_by_itself_and_with_the_knob(presets):
    loop, t, sink = makruk_in_review(presets, "th")
    rv = dict(loop.result.view("th"), label=loop.preset.short)
    pages = rs.page_count(rv)
    assert pages >= 2  # Thai takes taller lines: both sides' pieces and the points need more than one page
    first = sink.frames[-1].right.tobytes()
    shown = loop.frame.right.tobytes()
    assert loop.next_wake() == loop.page_due == t.now + REVIEW_PAGE_NS  # the loop wakes for the next page
    t.now = loop.page_due
    loop.pump(t.now, skip_unchanged=True)
    assert loop.frame.right.tobytes() != shown  # page 2
    for _ in range(pages - 1):  # round and round: after the last page, the first again
        t.now = loop.page_due
        loop.pump(t.now, skip_unchanged=True)
    assert loop.frame.right.tobytes() == first
    # the knob turns it at once, and that page stays up its full time
    t.now += REVIEW_PAGE_NS // 2
    loop.pump(t.now, [Key(t.now, DOWN)])
    assert loop.frame.right.tobytes() != first and loop.page_due == t.now + REVIEW_PAGE_NS


def test_a_review_of_one_page_sets_no_wake(presets):
    loop, t, _ = makruk_in_review(presets, "en")
    assert rs.page_count(dict(loop.result.view("en"))) == 1
    assert loop.page_due is None and loop.next_wake() is None
