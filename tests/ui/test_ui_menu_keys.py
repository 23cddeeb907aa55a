"""The menu model and the click timer: pure, semantic keys only."""
from __future__ import annotations

from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP, ClickTimer
from gameclock.ui.menu import CLOSE, FINISH, NEW_GAME, NEXT_GAME, RESUME, START, Action, Menu

PRESETS = [("amath", "A-Math"), ("crossword", "Crossword"), ("makruk-45", "Makruk 45:00")]


def test_choose_a_preset():
    m = Menu(PRESETS)
    assert m.open_presets()
    assert m.selected_preset() == "amath"
    assert m.key(DOWN) is None and m.key(DOWN) is None
    assert m.selected_preset() == "makruk-45"
    m.key(DOWN); m.key(DOWN)  # Custom, then Settings
    assert m.selected() == ("Settings", "settings") and m.selected_preset() is None
    m.key(DOWN)  # issue 27: the list wraps: past the end is the start ...
    assert m.selected_preset() == "amath"
    m.key(UP)  # ... and back
    assert m.selected() == ("Settings", "settings")
    m.key(DOWN)
    assert m.key(DOWN) is None and m.selected_preset() == "crossword"
    assert m.key(CLICK) == Action(START, "crossword")
    assert m.view() == {"title": "PRESET", "items": ["A-Math", "Crossword", "Makruk 45:00", "Custom",
                                                     "Settings"],
                        "index": 1, "page": "presets", "editing": False, "lang": "en"}


def test_start_screen_back_stays():
    m = Menu(PRESETS)
    m.open_presets("makruk-45")
    assert m.selected_preset() == "makruk-45"
    assert m.key(BACK) is None and m.is_open and m.key(LONG_CLICK) is None


def test_game_menu_items_and_actions():
    m = Menu(PRESETS)
    m.open_game_menu(preset_id="crossword", started=True, over=False, has_next=True)
    labels = m.view()["items"]
    # issue 27: Corrections one notch after Resume, End game one notch before it (the page wraps)
    assert labels == ["Resume", "Corrections", "New game", "Next game", "Choose preset", "Settings", "End game"]
    assert m.key(CLICK) == Action(RESUME)  # issue 27: Resume goes on with the paused game (the loop's)
    m.key(DOWN)
    assert m.key(CLICK) is None and m.view()["page"] == "corrections"
    assert m.key(BACK) is None and m.view()["page"] == "game"
    m.key(DOWN)
    # issue 15: what changes or ends a started game asks first; No is highlighted, BACK is No too
    assert m.key(CLICK) is None and m.view()["page"] == "confirm" and m.view()["items"] == ["No", "Yes"]
    assert m.view()["index"] == 0 and m.key(CLICK) is None and m.view()["page"] == "game"
    assert m.key(CLICK) is None and m.key(BACK) is None and m.view()["page"] == "game"
    m.key(CLICK)
    m.key(DOWN)
    assert m.key(CLICK) == Action(NEW_GAME) and m.view()["page"] == "game"
    m.key(DOWN)
    m.key(CLICK)
    m.key(DOWN)
    assert m.key(CLICK) == Action(NEXT_GAME)
    m.key(DOWN)
    assert m.key(CLICK) is None and m.view()["page"] == "presets"
    assert m.selected_preset() == "crossword"  # the game's preset highlighted
    assert m.key(BACK) is None and m.view()["page"] == "game"
    m.key(DOWN); m.key(DOWN)
    assert m.selected()[0] == "End game"
    m.key(DOWN)
    assert m.selected()[0] == "Resume"  # past the end: the start (issue 27)
    m.key(UP)                            # and back: End game, one notch back from Resume
    m.key(CLICK)
    assert m.view()["title"] == "End the game?"
    m.key(UP)                            # the question's list wraps too: No, then Yes one notch back
    assert m.key(CLICK) == Action(FINISH)
    assert m.key(BACK) == Action(CLOSE) and m.key(LONG_CLICK) == Action(CLOSE)


def test_game_menu_of_a_finished_game_has_no_end_item():
    m = Menu(PRESETS)
    m.open_game_menu(preset_id="amath", started=True, over=True, has_next=False)
    assert m.view()["items"] == ["Resume", "New game", "Choose preset", "Settings"]


def test_locked_menu_does_not_open():
    m = Menu(PRESETS, locked=True)
    assert not m.open_presets() and not m.is_open
    assert not m.open_game_menu(preset_id=None, started=True, over=False, has_next=True)
    assert m.key(CLICK) is None


def test_click_timer():
    t = ClickTimer(800)
    assert t.next_wake() is None
    assert t.edge(100, True) is None and t.next_wake() == 900
    assert t.edge(500, False) == CLICK and t.next_wake() is None
    t.edge(1000, True)
    assert t.expire(1799) is None and t.expire(1800) == LONG_CLICK
    assert t.edge(2500, False) is None  # the long click already fired


def test_every_question_fits_beside_the_page_counter():
    """issue 15: the confirmation's question is the menu page's title; the title bar holds 21 small
    characters, of which the counter (" 1/2") takes 4: a question is at most 16."""
    import re

    from gameclock.ui import menu as menus
    text = open(menus.__file__, encoding="utf-8").read()
    questions = [a or b for a, b in re.findall(r'Confirm\("([^"]+)"|ask\("([^"]+)"', text)]
    # issue 27: what another game loses, asked by every item that leaves the game
    questions += [menus.LOSE_GAME, menus.LOSE_RESULT, menus.TIEBREAK_QUESTION]
    # (issue 15: the counts ask nothing: started, stopped, ended in at most 3 actions)
    assert len(questions) >= 6 and all(len(q) <= 16 for q in questions), questions
