"""What the headline band must always show (issue 27): PAUSE while paused whatever else the band holds
(it was hidden behind a count, and its bars went whenever the band held more than the word), the dock's
status at READY with a level set and on RESULT SAVED (it was dropped), and Makruk 30's arbiter call at
5:00 (MR-13) on the displays, not a beep only. Views from the real core, states from the real loop."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gameclock.core.clock import apply, new_game, view
from gameclock.core.events import CountStart, Pause, Press, Start
from gameclock.dock.clockside import DockStatus
from gameclock.inbox import DockUpdate
from gameclock.rules.loader import find_preset, load_presets
from gameclock.ui import messages, resultscreens, screens
from gameclock.ui.text import tr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from golden_states import PAIRING, PAIRING_TH, _entry_at, _game, _menu_at, _played  # noqa: E402

from gameclock.ui.keys import BACK, CLICK, DOWN  # noqa: E402

S = 1_000_000_000
PRESETS = load_presets()
LANGS = ("en", "th")


def game(preset_id):
    p = find_preset(preset_id)
    return new_game(p.control_for(), label=p.short)


def bars_drawn(img, top: int, bottom: int) -> bool:
    """The pause sign: two black bars in the white band at each end (screens._pause_bars)."""
    return all(not img.getpixel((x, y)) for x in (3, 4, 5, 9, 10, 11, 116, 117, 118, 122, 123, 124)
               for y in range(top + 3, bottom - 2)) and img.getpixel((7, top + 5)) == 1


def paused_views(lang):
    """A paused makruk-45 game with a count under way (MR-4), a paused crossword in overtime (XW-3)
    with its level (XW-8): the band held a count alone, or "OT -20  PAUSE", or "PAUSE  PRIMARY"."""
    st = apply(apply(game("makruk-45"), Start(0, 0)), Press(5 * S, 0))
    st = apply(st, CountStart(6 * S, kind="board", side=1))
    counting = dict(view(apply(st, Pause(8 * S)), 9 * S), lang=lang)
    st = apply(game("crossword"), Start(0, 0))
    over = dict(view(apply(st, Pause((22 * 60 + 70) * S)), (22 * 60 + 75) * S), lang=lang)  # 1:10 over: -20
    level = dict(view(apply(st, Pause(60 * S)), 65 * S), lang=lang, level="PRIMARY")
    return {"count": counting, "overtime": over, "level": level}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("what", ["count", "overtime", "level"])
def test_pause_and_its_bars_stay_on_the_band_whatever_else_it_holds(lang, what):
    v = paused_views(lang)[what]
    assert v["state"] == "paused"
    for side in (0, 1):  # XW-3's overtime is the left side's, on its display
        text, style, overflow = screens.headline_parts(v, side)
        assert text.startswith(tr("PAUSE", lang)) and style == "invert", (text, style)
        top, bottom = screens.head_rows(text)
        assert bars_drawn(screens.render(v, side), top, bottom)
        # nothing is lost: what the band has no room for is on the bottom line
        everything = f"{text}  {overflow}"
        if what == "count":
            assert screens.count_headline(v) in everything  # MR-4: the board's count, 1 of 64
        if what == "overtime" and side == 0:
            assert f"{tr('OT', lang)} -20" in everything    # XW-3: 1:10 over, 2 started minutes x 10
        if what == "level":
            assert tr("PRIMARY", lang) in everything


@pytest.mark.parametrize("lang", LANGS)
def test_the_dock_status_at_ready_with_a_level_and_a_stage(lang):
    d = _game(lang, PRESETS, "crossword", PAIRING_TH if lang == "th" else PAIRING)  # level primary, stage last
    d.send(lambda t: DockUpdate(t, DockStatus(docked=True, known=True, enrolled=True, pc="pc", sent=1, waiting=2)))
    v = d.loop.frame_view
    text, _, overflow = screens.headline_parts(v, 1)
    shown = f"{text}  {overflow}"
    assert messages.dock_words("DOCK 1/3", lang) in shown and tr("PRIMARY", lang) in shown
    assert tr("LAST QUALIFIER", lang) in shown


@pytest.mark.parametrize("lang", LANGS)
def test_the_dock_status_on_result_saved(lang):
    k = _played(_game(lang, PRESETS, "makruk-45")).unlock()  # as golden_states.py's makruk-45 saved
    _menu_at(k, "End game").keys(CLICK, DOWN, CLICK)
    k.keys(BACK, DOWN, CLICK, DOWN, CLICK, DOWN, CLICK)
    k.keys(CLICK, CLICK, CLICK)                      # Left: K+RN
    k.keys(CLICK, CLICK, CLICK, CLICK, CLICK)        # Right: K only
    _entry_at(k, "outcome").keys(CLICK, CLICK)      # the outcome as the knob offers it first: the review
    k.press(0).press(1)
    assert k.loop.result.view()["stage"] == resultscreens.SAVED
    before = k.row("saved")
    k.send(lambda t: DockUpdate(t, DockStatus(docked=True, known=True, enrolled=True, pc="pc", sent=1, waiting=0,
                                              done=True)))
    after = k.row("saved, docked")
    for side in (0, 1):  # both displays say it, in the clock's language
        assert messages.dock_words("DOCK OK", lang) in k.loop.frame.captions[side]
        assert before[1 + side].tobytes() != after[1 + side].tobytes()


@pytest.mark.parametrize("lang", LANGS)
def test_makruk_30s_arbiter_call_is_on_both_displays(lang):
    # MR-13 (seed 003 Makruk §3): when a side has 5:00 left the arbiter is told: a beep, and the words on
    # both displays. makruk-30: left starts right's clock at 11 s (the loop's 10 s + 1), right has 30:00;
    # at 11 s + 25:00 it has 5:00
    d = _game(lang, PRESETS, "makruk-30")
    d.at(11).press(0)
    d.at(11 + 25 * 60 + 0.5)
    d.loop.pump(d.now)
    assert any("arbiter-call" in b for b in d.loop.beeps)
    words = d.loop.screen_message(d.now)
    assert words == tr("Arbiter call", lang)
    for side in (0, 1):
        text, style, _ = screens.headline_parts(dict(d.loop.frame_view), side)
        assert text.startswith(words) and style == "box"
