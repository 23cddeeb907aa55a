"""The menu's value pages (settings, custom preset), the settings file and the unlock gesture:
pure, semantic keys only."""
from __future__ import annotations

import json

from gameclock.core.control import COUNTDOWN, NS_PER_S, PER_MOVE, Stage
from gameclock.persist.settings import SettingsStore
from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP
from gameclock.ui.menu import (
    BRIGHTNESS_LEVELS,
    CUSTOM_ID,
    SETTING,
    START,
    Action,
    Menu,
    Settings,
    UnlockGesture,
    contrast,
    custom_control,
    custom_preset,
)

PRESETS = [("amath", "A-Math"), ("makruk-45", "Makruk 45:00")]
S = NS_PER_S


def settings_menu(settings=None):
    m = Menu(PRESETS, settings=settings or Settings())
    m.open_presets()
    for _ in range(3):
        m.key(DOWN)
    assert m.selected() == ("Settings", "settings")
    m.key(CLICK)
    return m


def test_settings_page():
    m = settings_menu()
    assert m.view()["title"] == "SETTINGS"
    # issue 27: the page wraps: Language one notch back from Event, Level two
    assert m.view()["items"] == ["Event 1", "Round 1", "Table 1", "Sound on", "Bright 3/5", "Stage qualifying",
                                 "Level not set", "Language English"]
    m.key(UP)
    assert m.selected()[0] == "Language"
    m.key(UP)
    assert m.selected()[0] == "Level"


def test_edit_a_number():
    m = settings_menu()
    assert m.key(CLICK) is None and m.editing
    m.key(DOWN); m.key(DOWN)
    assert m.view()["items"][0] == "Event [3]" and m.view()["editing"]
    assert m.settings.event == 1  # not yet kept
    assert m.key(CLICK) == Action(SETTING, "event")
    assert m.settings.event == 3 and not m.editing and m.view()["items"][0] == "Event 3"


def test_a_number_stops_at_its_ends_a_choice_wraps_and_an_unchanged_value_is_no_action():
    m = settings_menu()
    m.key(CLICK)
    for _ in range(5):
        m.key(UP)
    assert m.view()["items"][0] == "Event [1]"  # a number is not a list: it stops at 1
    assert m.key(CLICK) is None  # nothing changed: nothing to save
    m.key(UP); m.key(UP)                         # Level
    m.key(CLICK); m.key(UP)                      # issue 27: a choice wraps: "" -> secondary, one notch back
    assert m.key(CLICK) == Action(SETTING, "level") and m.settings.level == "secondary"


def test_back_puts_the_value_back_a_long_push_keeps_it():
    m = settings_menu()
    m.key(DOWN); m.key(CLICK); m.key(DOWN)
    assert m.key(BACK) is None and m.settings.round == 1 and m.view()["page"] == "settings"
    m.key(CLICK); m.key(DOWN)
    # issue 27: a long push keeps it ("done"); at the start screen the menu stays (there is no game)
    assert m.key(LONG_CLICK) == Action(SETTING, "round") and m.settings.round == 2 and m.is_open
    assert not m.editing and m.view()["page"] == "settings"


def test_a_long_push_on_a_value_of_the_game_menu_keeps_it_and_closes_the_menu():
    m = Menu(PRESETS)
    m.open_game_menu(preset_id="amath", started=False, over=False, has_next=True)
    m.key(UP)                                    # Settings, one notch back from Resume
    m.key(CLICK); m.key(DOWN); m.key(CLICK); m.key(DOWN)
    assert m.view()["items"][1] == "Round [2]"
    assert m.key(LONG_CLICK) == Action(SETTING, "round") and m.settings.round == 2 and not m.is_open


def test_sound_toggles_on_click():
    m = settings_menu()
    for _ in range(3):
        m.key(DOWN)
    assert m.key(CLICK) == Action(SETTING, "mute")
    assert m.settings.mute and m.view()["items"][3] == "Sound off"
    assert m.key(CLICK) == Action(SETTING, "mute") and not m.settings.mute


def test_brightness_levels_and_contrast():
    m = settings_menu()
    for _ in range(4):
        m.key(DOWN)
    m.key(CLICK)
    for _ in range(9):
        m.key(DOWN)
    assert m.key(CLICK) == Action(SETTING, "brightness") and m.settings.brightness == BRIGHTNESS_LEVELS
    levels = [contrast(b) for b in range(1, BRIGHTNESS_LEVELS + 1)]
    assert levels == sorted(set(levels)) and levels[-1] == 255 and levels[0] > 0
    assert contrast(0) == levels[0] and contrast(99) == 255


def test_settings_from_the_game_menu_and_back():
    m = Menu(PRESETS)
    m.open_game_menu(preset_id="amath", started=True, over=False, has_next=True)
    while m.selected()[0] != "Settings":
        m.key(DOWN)
    m.key(CLICK)
    assert m.view()["page"] == "settings"
    m.key(BACK)
    assert m.view()["page"] == "game"


def test_custom_page_follows_the_mode():
    m = Menu(PRESETS)
    m.open_presets()
    m.key(DOWN); m.key(DOWN)
    assert m.selected() == ("Custom", "custom")
    m.key(CLICK)
    assert m.view()["items"] == ["Mode countdown", "Time 15:00", "Incr 0:00", "Start"]
    m.key(CLICK); m.key(DOWN); m.key(CLICK)  # mode: per move
    assert m.view()["items"] == ["Mode per move", "Move 2:00", "Start"]
    m.key(DOWN); m.key(DOWN)
    assert m.selected_preset() == CUSTOM_ID and m.key(CLICK) == Action(START, CUSTOM_ID)


def test_custom_countdown_control():
    s = Settings(custom_time_s=5 * 60, custom_increment_s=3)
    c = custom_control(s)
    assert c.mode == COUNTDOWN and c.stages_left == c.stages_right == (Stage(300 * S, None, 3 * S),)
    assert c.low_time_ns == (60 * S,)
    assert custom_preset(s).name == "Custom 5:00+3" and custom_preset(s).control_for(4) == c
    assert custom_control(Settings(custom_time_s=60)).low_time_ns == ()  # nothing to warn before


def test_custom_per_move_control():  # MH-2-like announcements where they fit
    c = custom_control(Settings(custom_mode=PER_MOVE, custom_move_s=120))
    assert (c.mode, c.move_time_ns, c.announce_ns) == (PER_MOVE, 120 * S, (30 * S, 10 * S))
    assert custom_control(Settings(custom_mode=PER_MOVE, custom_move_s=20)).announce_ns == (10 * S,)
    assert custom_control(Settings(custom_mode=PER_MOVE, custom_move_s=10)).announce_ns == ()
    assert custom_preset(Settings(custom_mode=PER_MOVE, custom_move_s=90)).name == "Custom 1:30/move"


def test_settings_json_round_trip(tmp_path):
    store = SettingsStore(tmp_path / "state")
    assert store.load() == Settings()  # no file yet: defaults
    s = Settings(mute=True, brightness=2, event=4, round=6, table=17, custom_mode=PER_MOVE,
                 custom_time_s=1800, custom_increment_s=5, custom_move_s=45)
    store.save(s)
    assert store.load() == s
    assert json.loads((tmp_path / "state" / "settings.json").read_text())["table"] == 17
    assert not (tmp_path / "state" / "settings.json.tmp").exists()


def test_bad_settings_keep_defaults(tmp_path):
    s, problems = Settings.from_json({"brightness": 9, "custom_move_s": 7, "table": True,
                                      "custom_mode": "hourglass", "event": 2})
    assert s == Settings(event=2)
    assert len(problems) == 4
    assert Settings.from_json([1, 2]) == (Settings(), ["expected a JSON object, got list"])
    (tmp_path / "settings.json").write_text("{not json")
    assert SettingsStore(tmp_path).load() == Settings()


def test_unlock_gesture():
    g = UnlockGesture(3 * S)
    g.edge(10 * S, True, arm=False)
    assert g.next_wake() is None  # a push that may not unlock (running) is not timed
    g.edge(20 * S, True, arm=True)
    assert g.next_wake() == 23 * S and not g.expire(23 * S - 1)
    g.edge(22 * S, False, arm=False)  # let go early
    assert g.next_wake() is None and not g.expire(30 * S)
    g.edge(40 * S, True, arm=True)
    assert g.expire(43 * S) and g.next_wake() is None and not g.expire(50 * S)
