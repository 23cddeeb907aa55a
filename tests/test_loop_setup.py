"""The event's set-up reaching the clock (issue 15): a pairing's level, stage, language and preset are
applied when no game is under way (the game at ready becomes one of the pairing's preset, shown before
the first press), held during a game (whose preset never changes) for the next one, and a preset the
clock does not know refuses the whole pairing."""
from __future__ import annotations

import queue

import pytest

from gameclock.core import clock as core
from gameclock.core.events import Finish
from gameclock.inbox import Key, Pairing, PauseButton, PlayerButton
from gameclock.loop import Loop
from gameclock.rules.loader import load_presets
from gameclock.ui import menu as menus
from gameclock.ui.keys import CLICK, DOWN

S = 1_000_000_000
BASE = {"event": "OPEN", "round": 3, "table": 5, "players": {"left": "Anan", "right": "Boon"}}
SETUP = {"level": "primary", "stage": "last", "language": "th", "preset": "amath"}


class Null:
    def show(self, frame) -> None:
        self.frame = frame

    def beep(self, alert, text) -> None:
        pass


@pytest.fixture(scope="module")
def presets():
    return load_presets()


def make(presets, preset: str | None = "crossword"):
    t = [100 * S]
    loop = Loop(queue.Queue(), presets, Null(), Null(), clock=lambda: t[0])
    if preset:
        loop.new_game(preset)
    return loop, t


def test_at_ready_the_pairing_sets_the_settings_and_the_game_becomes_its_preset(presets):
    loop, t = make(presets)
    loop.pump(t[0], [Pairing(t[0], dict(BASE, **SETUP))])
    s = loop.settings
    assert (s.level, s.stage, s.language) == ("primary", "last", "th")
    assert loop.preset.id == "amath" and loop.state.phase == core.READY and loop.game_no == 1
    frame = loop.compose(t[0])
    # before the first press: the set-up in the view (the sim's info line prints it) ...
    assert "set-up: level primary, stage last, language th" in frame.info and frame.info.startswith("amath ")
    # the pairing made the clock Thai: its message line in Thai too (ui/text_th.py "pairing: {what}")
    assert "การจับคู่: R3 T5 Anan v Boon [amath primary last th]" in frame.message
    # ... and the OLEDs' status line shows A-Math's level (XW-8: A-Math has primary and secondary caps)
    v = core.view(loop.state, 0)
    assert loop.level_shown() == "PRIMARY" and v["state"] == "ready"


def test_before_any_game_the_pairings_preset_is_put_up_at_ready(presets):
    loop, t = make(presets, preset=None)
    loop.pump(t[0], [Pairing(t[0], dict(BASE, preset="makruk-30"))])
    assert loop.preset.id == "makruk-30" and loop.state.phase == core.READY
    assert loop.settings.players == {"left": "Anan", "right": "Boon"}


def test_a_pairing_without_set_up_keeps_the_clocks_own(presets):
    loop, t = make(presets)
    loop.settings.language, loop.settings.level = "th", "secondary"
    loop.pump(t[0], [Pairing(t[0], dict(BASE, level=None, stage=None, language=None, preset=None))])
    assert (loop.settings.language, loop.settings.level, loop.preset.id) == ("th", "secondary", "crossword")


def test_a_preset_the_clock_does_not_know_refuses_the_whole_pairing(presets):
    loop, t = make(presets)
    loop.pump(t[0], [Pairing(t[0], dict(BASE, **dict(SETUP, preset="chess-blitz")))])
    assert loop.message.startswith("pairing refused: preset chess-blitz is not on this clock")
    s = loop.settings
    assert (s.players, s.level, s.stage, s.language, s.round) == (None, "", "qualifying", "en", 1)
    assert loop.preset.id == "crossword"


def test_during_a_game_the_set_up_waits_and_the_next_game_starts_with_it(presets):
    loop, t = make(presets)
    z = t[0]
    loop.pump(z + S, [PlayerButton(z + S, 0)])  # left starts: the right clock runs
    loop.pump(z + 2 * S, [Pairing(z + 2 * S, dict(BASE, **SETUP))])
    # the running game keeps its preset and settings; the pairing waits, the message line says so
    assert loop.preset.id == "crossword" and loop.state.phase == core.RUNNING
    assert (loop.settings.level, loop.settings.language) == ("", "en")
    assert loop.next_text() == "next: R3 T5 Anan v Boon [amath primary last th]"
    loop.pump(z + 3 * S, [PauseButton(z + 3 * S)])
    loop.apply(Finish, z + 4 * S)
    loop.pump(z + 4 * S)
    assert loop.result is not None  # the game's end: the result entry
    loop._do(menus.Action(menus.NEXT_GAME), z + 5 * S)  # the arbiter's Next game names crossword game 2 ...
    assert (loop.preset.id, loop.game_no) == ("amath", 1)  # ... the pairing's preset wins: a new match
    assert (loop.settings.level, loop.settings.stage, loop.settings.language) == ("primary", "last", "th")
    assert loop.settings.next_pairing is None


def test_the_same_pairing_pushed_again_during_its_game_is_not_held(presets):
    loop, t = make(presets)
    loop.pump(t[0], [Pairing(t[0], dict(BASE, **SETUP))])  # at ready: applied, amath at ready
    loop.pump(t[0] + S, [PlayerButton(t[0] + S, 0)])
    loop.pump(t[0] + 2 * S, [Pairing(t[0] + 2 * S, dict(BASE, **SETUP))])  # the PC pushes it at each docking
    assert loop.settings.next_pairing is None and loop.next_text() == ""


def test_the_menu_at_ready_after_a_pairing_still_works(presets):
    """The game menu opens at ready on a paired game (nothing pressed): its preset is the pairing's."""
    loop, t = make(presets)
    loop.pump(t[0], [Pairing(t[0], dict(BASE, **SETUP))])
    loop.pump(t[0] + S, [Key(t[0] + S, CLICK)])
    assert loop.menu.is_open and loop.menu.view()["title"] == "เกม"  # the pairing set the language: Thai
    loop.pump(t[0] + 2 * S, [Key(t[0] + 2 * S, DOWN)])
    assert loop.preset.id == "amath"
