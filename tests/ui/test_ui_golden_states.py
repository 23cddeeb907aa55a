"""The golden states (golden_states.py) are the states they say they are: what the loop holds at each,
worked out by hand from the inputs (makruk-45: 45:00 a side; left starts right's clock at 11 s, right
presses at 16 s, left at 19 s, the pause at 20 s: right used 5 + 1 = 6 s -> 44:54, left 3 s -> 44:57)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden_states import PAIRING, _game, _menu_at, _played  # noqa: E402

from gameclock.rules.loader import load_presets  # noqa: E402
from gameclock.ui.keys import BACK, CLICK, DOWN, UP  # noqa: E402

PRESETS = load_presets()


def test_corrections_and_a_time_digit_by_digit():
    d = _played(_game("en", PRESETS, "makruk-45")).unlock()
    _menu_at(d, "Corrections").keys(CLICK)
    # each side made one move (right at 16 s, left at 19 s); issue 27: the times first, "Undo last
    # press" last (one notch back from the first: the page wraps)
    assert d.loop.menu.view()["items"] == ["Left 0:44:57", "Right 0:44:54", "Moves left 1", "Moves right 1",
                                           "Undo last press"]
    _menu_at(d, "Right").keys(CLICK)                      # issue 27: the cursor on the minutes' units
    assert d.loop.menu.view()["items"][1] == "Right 0:4[4]:54"
    d.keys(BACK, UP, UP, UP, CLICK)                       # back to the tens, 4 -> 1, on to the units
    assert d.loop.menu.view()["items"][1] == "Right 0:1[4]:54"


def test_makhos_extra_given_is_the_first_correction():
    m = _game("en", PRESETS, "makhos-move-2x5")
    m.at(11).press(0).at(16).press(1).at(19).press(0).at(20).pause().unlock()
    _menu_at(m, "Corrections").keys(CLICK)
    _menu_at(m, "Extra right").keys(CLICK, DOWN, CLICK)   # "Right +5:00?" Yes
    m.at(40).unlock()
    _menu_at(m, "Corrections").keys(CLICK)
    items = m.loop.menu.view()["items"]
    assert items[:2] == ["Take back right extra", "Extra right 2x5:00"]  # MH-3: the correction at hand first
    assert items[-3:] == ["Moves left 1", "Moves right 1", "Undo last press"]


def test_the_pieces_page_and_the_thai_menu():
    d = _played(_game("th", PRESETS, "makruk-45")).unlock()
    _menu_at(d, "Pieces count: right").keys(CLICK, DOWN, DOWN)
    # MR-6/MR-7: K+2R v K, both kings on the board: 4 pieces, the count from 5; two rooks: to 8
    assert d.loop.menu.view()["items"] == ["เรือ [2]", "เริ่มนับ 5 ถึง 8"]  # issue 27: the piece named in Thai


def test_a_score_digit_by_digit_and_the_review():
    c = _played(_game("en", PRESETS, "crossword", PAIRING)).unlock()
    _menu_at(c, "End game").keys(CLICK, DOWN, CLICK)
    c.keys(*[DOWN] * 4, CLICK, *[DOWN] * 3)
    assert c.loop.result.view()["items"][0] == "Left score 4[3]0"
    c.keys(CLICK, *[DOWN] * 7, CLICK, *[DOWN] * 3, CLICK, UP, CLICK, UP, UP, CLICK)
    assert c.loop.result.stage == "review"  # issue 27: the last value kept, nothing missing: the review
    c.press(0)
    r = c.loop.result.view()
    assert r["stage"] == "review"
    assert r["result"]["scores"] == {"left": 437, "right": 398}
    assert r["result"]["winner"] == "left" and r["result"]["confirmations"] == {"left": True, "right": False}


def test_a_refusal_said_again_while_up_stays_its_full_4_s_from_then():
    d = _game("en", PRESETS, "makruk-45").at(11).press(0)     # right's clock runs: the menu is locked
    d.at(12).keys(CLICK)                                        # refused at 12 s (+10 ms per input)
    assert d.loop.screen_message(d.now) == "Menu locked"
    d.at(15).keys(CLICK)                                        # again at 15 s, while it is still up
    assert d.loop.screen_message(d.at(18.5).now) == "Menu locked"   # 16.0 s: once it would have gone
    assert d.loop.screen_message(d.at(19.1).now) == ""               # 4 s after 15.01 s: gone
