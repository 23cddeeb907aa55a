"""The review and what follows it, through the real loop (issue 27): a review of several pages turns
its pages by itself (each up REVIEW_PAGE_NS, the loop woken for the next) and with the knob; a
result not saved is thrown away only after the arbiter's unlock, and the game menu says so ("Lose the
result?"), while a saved one is kept and nothing asks; the game menu's Resume resumes a paused game."""
from __future__ import annotations

import queue

import pytest
from loopkit import MS, FakeTime, S, Sink

from gameclock.core.events import Finish
from gameclock.inbox import Key, PauseButton, PlayerButton, PushEdge
from gameclock.loop import Loop
from gameclock.loop.result_mode import REVIEW_PAGE_NS
from gameclock.rules.loader import load_presets
from gameclock.ui import resultscreens as rs
from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP


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


# ------------------------------------------------------------------------------ leaving a result (issue 27)
LEAVING = ("New game", "Next game", "Tie-break game", "Choose preset")


class RefusingOutbox:
    """An outbox whose card refuses every record (the screens say NOT SAVED)."""

    def put(self, record) -> bool:
        raise OSError(28, "No space left on device")


def key(loop, t, k: str) -> None:
    t.now += 300 * MS
    loop.pump(t.now, [Key(t.now, k)])


def hold(loop, t) -> None:
    """The arbiter's unlock: the knob held pushed 3 s."""
    t.now += 300 * MS
    loop.pump(t.now, [PushEdge(t.now, True)])
    t.now += 3_100 * MS
    loop.pump(t.now)
    t.now += 100 * MS
    loop.pump(t.now, [PushEdge(t.now, False)])


def items(loop) -> list[str]:
    return loop.menu.view()["items"]


def choose(loop, t, label: str) -> None:
    """Turn to `label` (from the top of the page) and push."""
    for _ in range(loop.menu.view()["index"]):
        key(loop, t, UP)
    for _ in range(len(items(loop))):
        if items(loop)[loop.menu.view()["index"]].startswith(label):
            key(loop, t, CLICK)
            return
        key(loop, t, DOWN)
    raise AssertionError(f"no {label!r} in {items(loop)}")


def crossword_in_review(presets, outbox=None):
    """Crossword, finished by the arbiter, 412-388 entered, up for confirmation, nobody confirmed."""
    t = FakeTime(1_000 * S)
    sink = Sink()
    loop = Loop(queue.Queue(), presets, sink, sink, clock=t, outbox=outbox)
    loop.settings.level = "secondary"
    loop.new_game("crossword")
    t.now += S
    loop.pump(t.now, [PlayerButton(t.now, 0)])
    t.now += 10 * S
    loop.apply(Finish, t.now)
    loop.pump(t.now)
    assert loop.enter(["score", "left", "412"], t.now) and loop.enter(["score", "right", "388"], t.now)
    key(loop, t, CLICK)
    assert loop.result.stage == "review"
    return loop, t


@pytest.mark.parametrize("how", [LONG_CLICK, BACK])
def test_a_plain_push_in_the_result_entry_never_leads_to_losing_the_result(presets, how):
    loop, t = crossword_in_review(presets)
    if how == BACK:  # BACK in the review is `edit` (the entry again); there a BACK opens the menu
        key(loop, t, BACK)
        assert loop.result.stage == "entry"
    key(loop, t, how)
    assert loop.menu.is_open
    assert not set(LEAVING) & set(items(loop)), items(loop)  # Resume and Settings (the level) only
    choose(loop, t, "Resume")
    assert not loop.menu.is_open and loop.result is not None and loop.state.phase == "finished"


def test_the_arbiters_unlock_offers_another_game_and_says_the_result_is_lost(presets):
    loop, t = crossword_in_review(presets)
    hold(loop, t)
    assert loop.menu.is_open and loop.unlocked and "New game" in items(loop)
    choose(loop, t, "New game")
    assert loop.menu.view()["title"] == "Lose the result?" and items(loop) == ["No", "Yes"]
    choose(loop, t, "No")
    assert loop.result is not None  # kept
    choose(loop, t, "Choose preset")  # a preset chosen asks the same (the groups, the game's highlighted)
    choose(loop, t, "Crossword family")
    choose(loop, t, "A-Math 22:00")
    assert loop.menu.view()["title"] == "Lose the result?"
    choose(loop, t, "Yes")
    assert loop.preset.id == "amath" and loop.result is None and loop.record is None
    assert list(loop.outbox) == []


@pytest.mark.parametrize("item, game_no", [("New game", 1), ("Next game", 2)])
def test_a_saved_result_is_not_lost_by_another_game_nothing_asks(presets, item, game_no):
    loop, t = crossword_in_review(presets)
    loop.pump(t.now, [PlayerButton(t.now, 0), PlayerButton(t.now + 1, 1)])
    assert loop.result.stage == "saved" and len(loop.outbox) == 1
    key(loop, t, CLICK)  # RESULT SAVED: a push opens the game menu
    choose(loop, t, item)
    # no question ("Lose this game?" was asked here): the result is in the outbox, nothing is lost
    assert not loop.menu.is_open and loop.game_no == game_no and loop.result is None
    assert len(loop.outbox) == 1


def test_a_result_the_card_refused_is_lost_only_after_the_unlock(presets):
    loop, t = crossword_in_review(presets, outbox=RefusingOutbox())
    loop.pump(t.now, [PlayerButton(t.now, 0), PlayerButton(t.now + 1, 1)])
    assert loop.saved_text() == "NOT SAVED" and loop.record is not None
    key(loop, t, CLICK)
    assert not set(LEAVING) & set(items(loop))
    hold(loop, t)
    choose(loop, t, "New game")
    assert loop.menu.view()["title"] == "Lose the result?"


def test_resume_on_the_game_menu_resumes_a_paused_game(presets):
    t = FakeTime(1_000 * S)
    sink = Sink()
    loop = Loop(queue.Queue(), presets, sink, sink, clock=t)
    loop.new_game("makruk-30")
    t.now += S
    loop.pump(t.now, [PlayerButton(t.now, 0)])  # right's clock runs
    t.now += 5 * S
    loop.pump(t.now, [PauseButton(t.now)])
    hold(loop, t)
    choose(loop, t, "Resume")
    # CL-3: the side that was running goes on (a core Resume, in the game's log like the pause button's)
    assert not loop.menu.is_open and loop.state.phase == "running" and loop.state.running == 1
    assert type(loop.events[-1]).__name__ == "Resume"
    # BACK closes the menu and leaves the game paused
    t.now += 2 * S
    loop.pump(t.now, [PauseButton(t.now)])
    hold(loop, t)
    key(loop, t, BACK)
    assert not loop.menu.is_open and loop.state.phase == "paused"


def test_a_preset_chosen_in_a_paused_game_asks_first(presets):
    t = FakeTime(1_000 * S)
    sink = Sink()
    loop = Loop(queue.Queue(), presets, sink, sink, clock=t)
    loop.new_game("makruk-30")
    t.now += S
    loop.pump(t.now, [PlayerButton(t.now, 0)])
    t.now += 5 * S
    loop.pump(t.now, [PauseButton(t.now)])
    hold(loop, t)
    choose(loop, t, "Choose preset")  # the groups (issue 27: the start screen's path), then the group's page
    choose(loop, t, "Makruk")
    choose(loop, t, "Makruk 45")
    assert loop.menu.view()["title"] == "Lose this game?" and loop.preset.id == "makruk-30"


def test_the_pages_wake_nobody_while_a_menu_is_over_the_review(presets):
    loop, t, _ = makruk_in_review(presets, "th")
    assert loop.next_wake() is not None
    t.now += S
    loop.pump(t.now, [Key(t.now, LONG_CLICK)])
    assert loop.menu.is_open and loop.next_wake() is None
