"""Issue 15: the PRESET page grouped by event (Crossword family, Makruk, Makhos, Sudoku, other modes),
each group's usual presets first, names that fit the 128 px menu; the game's (or a pairing's) preset
opens highlighted. The menu as the loop builds it from the shipped rule files (`loop.base.menu_presets`)."""
from __future__ import annotations

from gameclock.loop.base import menu_presets
from gameclock.rules.loader import load_presets
from gameclock.ui import screens
from gameclock.ui.keys import BACK, CLICK, DOWN
from gameclock.ui.menu import CUSTOM_ID, START, Action, Menu

PRESETS = load_presets()


def menu() -> Menu:
    listed, groups = menu_presets(PRESETS)
    return Menu(listed, groups=groups)


def test_the_first_page_lists_the_groups_then_custom_and_settings():
    m = menu()
    assert m.open_presets()
    v = m.view()
    # Sudoku has one preset (SU-1's 60:00 round): its line is the preset itself, one push starts it
    assert v["title"] == "PRESET" and v["index"] == 0
    assert v["items"] == ["Crossword family", "Makruk", "Makhos", "Sudoku 60:00", "Other modes", "Custom",
                          "Settings"]
    for _ in range(3):
        m.key(DOWN)
    assert m.key(CLICK) == Action(START, "sudoku-60")   # 4 actions


def test_a_groups_presets_the_usual_first():
    m = menu()
    m.open_presets()
    assert m.key(CLICK) is None                          # Crossword family
    v = m.view()
    assert v["title"] == "CROSSWORD FAMILY" and v["page"] == "group"
    # XW-2: the three games' clocks first (seed 000 §3.2), then the no-clock game cuts (XW-5)
    assert v["items"] == ["Crossword 22:00", "A-Math 22:00", "Kham Kom 25:00", "Crossword cut 50",
                          "A-Math cut 50", "Kham Kom cut 50"]
    m.key(DOWN)
    assert m.key(CLICK) == Action(START, "amath")         # A-Math in 3 actions from the start screen
    m.open_presets()
    m.key(DOWN); m.key(DOWN)
    m.key(CLICK)                                         # Makhos: per-move 2:00 (MH-2) first
    assert m.view()["items"][:3] == ["Makhos 2:00/move", "Makhos 2:00 2x5", "Makhos stopwatch"]
    assert m.key(BACK) is None and m.view()["page"] == "presets" and m.view()["index"] == 2


def test_every_preset_is_reachable_and_custom_and_settings_too():
    m = menu()
    started = set()
    for first in range(7):
        m.open_presets()
        for _ in range(first):
            m.key(DOWN)
        target = m.selected()
        assert target is not None
        reply = m.key(CLICK)
        if isinstance(reply, Action):
            started.add(reply.preset_id)
            continue
        if target[0] in ("Custom", "Settings"):
            assert m.view()["page"] == target[0].lower()
            continue
        for i in range(len(m.view()["items"])):
            m.open_presets()
            for _ in range(first):
                m.key(DOWN)
            m.key(CLICK)
            for _ in range(i):
                m.key(DOWN)
            reply = m.key(CLICK)
            assert isinstance(reply, Action) and reply.kind == START
            started.add(reply.preset_id)
    assert started == {p.id for p in PRESETS}


def test_the_worst_preset_takes_far_fewer_actions_than_the_flat_list():
    """The last of the other modes: 4 notches to the group, a push, 8 notches, a push = 14; the flat
    list of 22 presets took 21 notches and a push."""
    m = menu()
    m.open_presets()
    actions = 0
    for key in [DOWN] * 4 + [CLICK] + [DOWN] * 8:
        m.key(key)
        actions += 1
    reply = m.key(CLICK)
    actions += 1
    assert reply == Action(START, "handicap-5-3") and actions == 14


def test_a_known_preset_opens_highlighted_in_its_group():
    m = menu()
    m.open_presets(selected="makhos-stopwatch")  # e.g. a pairing's preset
    v = m.view()
    assert v["title"] == "MAKHOS" and v["items"][v["index"]] == "Makhos stopwatch"
    assert m.key(CLICK) == Action(START, "makhos-stopwatch")        # one push
    m.open_presets(selected="sudoku-60")                            # a group of one: on the first page
    assert m.view()["page"] == "presets" and m.selected_preset() == "sudoku-60"
    m.open_presets(selected="makruk-30")
    assert m.key(BACK) is None and m.view()["page"] == "presets"   # BACK: the groups, on Makruk
    assert m.selected() == ("Makruk", "group:makruk")
    assert m.key(BACK) is None and m.is_open                       # the start screen stays


def test_choose_preset_in_the_game_menu_opens_the_groups_at_the_games():
    # issue 27: the start screen's path (a group, then its preset), from the game's group
    m = menu()
    m.open_game_menu(preset_id="khamkom", started=False, over=False, has_next=True)
    while m.selected()[0] != "Choose preset":
        m.key(DOWN)
    m.key(CLICK)
    assert m.view()["page"] == "presets" and m.selected() == ("Crossword family", "group:crossword")
    m.key(CLICK)
    assert m.view()["title"] == "CROSSWORD FAMILY" and m.selected_preset() == "khamkom"  # the game's
    m.key(BACK)
    m.key(DOWN)
    m.key(CLICK)
    assert m.view()["title"] == "MAKRUK" and m.view()["index"] == 0  # another group: its usual first
    m.key(BACK); m.key(BACK)
    assert m.view()["page"] == "game"


def test_custom_is_still_started_from_its_page():
    m = menu()
    m.open_presets()
    for _ in range(5):
        m.key(DOWN)
    m.key(CLICK)
    assert m.view()["page"] == "custom"
    while m.selected_preset() != CUSTOM_ID:
        m.key(DOWN)
    assert m.key(CLICK) == Action(START, CUSTOM_ID)


def test_every_line_fits_the_menu():
    """The 128 px menu draws an item in 120 px (screens.render_menu); a line that does not fit is cut
    with '…': no shipped preset's name, group or title is."""
    m = menu()
    m.open_presets()
    lines = list(m.view()["items"])
    for i in range(5):
        m.open_presets()
        for _ in range(i):
            m.key(DOWN)
        if m.key(CLICK) is None and m.view()["page"] == "group":
            lines += m.view()["items"]
    assert len(lines) == 7 + len(PRESETS) - 1  # every preset once (Sudoku's on the first page)
    for text in lines:
        font, shown = screens.text_font(text, screens.SMALL + 1)
        assert screens._fit(shown, screens.SMALL + 1, screens.WIDTH - 8, font) == text
