"""The loop's menu on mock pins: the lock while a game is under way and the arbiter's unlock
gesture; settings (event/round/table, mute, brightness) applied and kept; the custom preset; the
buzzer played on the loop's timer hook."""
from __future__ import annotations

import json

import gpiozero.pins.mock as gpiozero_mock
import pytest

from gameclock.core import clock as core
from gameclock.core.control import NS_PER_S
from gameclock.core.events import Start
from gameclock.device.buttons import PlayerButtons
from gameclock.device.buzzer import Buzzer
from gameclock.device.encoder import Knob
from gameclock.device.wiring import DEFAULT_WIRING, load_wiring
from gameclock.loop import Loop
from gameclock.persist.settings import SettingsStore
from gameclock.rules.loader import load_presets
from gameclock.ui.menu import PRESET_GROUPS, contrast

S = NS_PER_S
ZERO = 1000 * S
PRESETS = load_presets()


class Sink:
    """Display + text-beep sink that also takes contrast (like gameclock.device.display.OledSink)."""

    def __init__(self):
        self.frames, self.beeps, self.contrast = [], [], []

    def show(self, frame):
        self.frames.append(frame)

    def beep(self, alert, text):
        self.beeps.append(text)

    def set_contrast(self, level):
        self.contrast.append(level)


class Rig:
    def __init__(self, factory, inbox, monkeypatch, *, store=None, with_buzzer=False):
        self.now = ZERO
        monkeypatch.setattr(gpiozero_mock, "monotonic", lambda: self.now / 1e9)
        wiring = load_wiring(DEFAULT_WIRING)
        self.buttons = PlayerButtons(inbox.put, wiring.pins, pin_factory=factory)
        self.knob = Knob(inbox.put, wiring.pins, pin_factory=factory, clock=lambda: self.now)
        self.sink = Sink()
        self.buzzer = Buzzer(wiring.buzzer, pin_factory=factory, clock=lambda: self.now) if with_buzzer else None
        self.loop = Loop(inbox, PRESETS, self.sink, self.buzzer or self.sink, clock=lambda: self.now,
                         settings_store=store)
        if self.buzzer:
            self.loop.timers.append(self.buzzer)
            self.buzzer.pin.clear_states()
        self.loop.pump(self.now)

    def at(self, seconds):
        self.run_until(ZERO + round(seconds * S))
        return self.now / S

    def run_until(self, until_ns):
        """The loop's life: wake at each wake it asks for, up to `until_ns`."""
        while (wake := self.loop.next_wake()) is not None and self.now < wake <= until_ns:
            self.now = wake
            self.loop.pump(self.now)
        self.now = max(self.now, until_ns)

    def pump(self):
        self.loop.pump(self.now)
        return self.sink.frames[-1]

    def edge(self, pin, high):
        gpiozero_mock_edge(pin, self.now / S, high)
        return self.pump()

    def press(self, name, hold_s=0.1):
        pin = self.buttons.buttons[name].pin if name in self.buttons.buttons else getattr(self.knob, name).pin
        self.edge(pin, False)
        self.at((self.now - ZERO) / S + hold_s)
        frame = self.edge(pin, True)
        self.at((self.now - ZERO) / S + 0.1)  # a finger's pause before the next press
        return frame

    def turn(self, n=1):
        a, b = self.knob.encoder.a.pin, self.knob.encoder.b.pin
        first, second = (a, b) if n > 0 else (b, a)
        for _ in range(abs(n)):
            first.drive_low(); second.drive_low(); first.drive_high(); second.drive_high()
        return self.pump()

    def to_item(self, label_start):
        """Turn the knob to the menu item whose label starts with `label_start`."""
        items = self.loop.menu.view()["items"]
        index = next(i for i, label in enumerate(items) if label.startswith(label_start))
        return self.turn(index - self.loop.menu.view()["index"])

    def close(self):
        if self.buzzer:
            self.buzzer.close()
            self.buzzer = None
        self.knob.close()
        self.buttons.close()


def gpiozero_mock_edge(pin, ticks, high):
    from gpiozero.pins.pi import PiPin
    pin._state = high
    PiPin._call_when_changed(pin, ticks, high)


@pytest.fixture
def make_rig(factory, inbox, monkeypatch):
    rigs = []

    def make(**kw):
        rigs.append(Rig(factory, inbox, monkeypatch, **kw))
        return rigs[-1]
    yield make
    for r in rigs:
        r.close()


def start(rig, preset_id):
    """Issue 15: the preset's group on the PRESET page (a group of one: the preset itself), then the
    preset on the group's page."""
    preset = next(p for p in PRESETS if p.id == preset_id)
    group = next(label for key, label, _ in PRESET_GROUPS if key == preset.group)
    if not any(label.startswith(preset.menu_name) for label in rig.loop.menu.view()["items"]):
        rig.to_item(group)
        rig.press("push")
    rig.to_item(preset.menu_name)
    rig.press("push")
    assert rig.loop.preset.id == preset_id and not rig.loop.menu.is_open


# ------------------------------------------------------------------------------ lock and gesture


def test_gesture_needs_the_full_3_seconds(make_rig):
    rig = make_rig()
    start(rig, "makruk-30")
    rig.at(1.0); rig.press("left")     # the right clock runs
    rig.at(5.0); rig.press("pause")
    frame = rig.press("push", hold_s=2.9)
    assert not rig.loop.menu.is_open and "menu locked" in frame.message  # the long click at 0.8 s
    rig.at(10.0)
    frame = rig.press("push", hold_s=3.0)
    assert rig.loop.menu.is_open and frame.message == "menu unlocked (arbiter)"
    assert rig.loop.menu.view()["items"][-2:] == ["Settings", "End game"]  # issue 27: End game last


def test_gesture_does_nothing_while_a_clock_runs(make_rig):
    rig = make_rig()
    start(rig, "makruk-30")
    rig.at(1.0); rig.press("left")
    frame = rig.press("push", hold_s=4.0)
    assert not rig.loop.menu.is_open and "pause first" in frame.message
    assert rig.loop.unlock.next_wake() is None


def test_a_hold_begun_running_does_not_unlock_after_a_pause(make_rig):
    rig = make_rig()
    start(rig, "makruk-30")
    rig.at(1.0); rig.press("left")
    rig.edge(rig.knob.push.pin, False)  # held while the clock runs ...
    rig.at(1.5); rig.press("pause")     # ... and the game paused during the hold
    rig.at(6.0)
    rig.edge(rig.knob.push.pin, True)
    assert not rig.loop.menu.is_open


def test_mh3_hold_while_running_neither_unlocks_nor_gives_time(make_rig):  # MH-3, issue 15
    rig = make_rig()
    start(rig, "makhos-move")
    rig.at(1.0); rig.press("right")   # left's move
    frame = rig.press("push", hold_s=3.5)
    assert not rig.loop.menu.is_open  # a running clock is never unlocked
    assert [type(e) for e in rig.loop.events] == [Start]  # the arbiter gives extra time (Corrections)
    assert frame.message == "extra time: the arbiter gives it (pause, unlock, Corrections)"


def test_the_menu_opens_freely_before_and_after_a_game(make_rig):
    rig = make_rig()
    start(rig, "makhos-move")          # at ready: not locked
    rig.press("back")
    assert rig.loop.menu.is_open
    rig.press("push")                  # Resume
    rig.at(1.0); rig.press("right")
    rig.at(200.0)                      # MH-2: the move's 2:00 ran out, the game is over
    assert "| flagged |" in rig.pump().info
    rig.press("back")
    assert rig.loop.menu.is_open


def test_unlock_lasts_until_the_menu_closes(make_rig):
    rig = make_rig()
    start(rig, "makruk-30")
    rig.at(1.0); rig.press("left")
    rig.at(2.0); rig.press("pause")
    rig.press("push", hold_s=3.0)
    assert rig.loop.unlocked
    rig.at(8.0); rig.press("back")     # BACK on the game page: close
    assert not rig.loop.menu.is_open and not rig.loop.unlocked
    rig.at(9.0)
    assert "menu locked" in rig.press("back").message


# ------------------------------------------------------------------------------ settings


def settings_page(rig):
    rig.to_item("Settings")
    rig.press("push")
    assert rig.loop.menu.view()["title"] == "SETTINGS"


def edit(rig, label, turns):
    rig.to_item(label)
    rig.press("push")
    rig.turn(turns)
    return rig.press("push")


def test_event_round_table_are_kept_for_the_result(make_rig, tmp_path):  # CL-5
    store = SettingsStore(tmp_path)
    rig = make_rig(store=store)
    settings_page(rig)
    edit(rig, "Event", 2)
    edit(rig, "Round", 4)
    frame = edit(rig, "Table", 11)
    assert rig.loop.menu.view()["items"][:3] == ["Event 3", "Round 5", "Table 12"]
    assert frame.captions[0] == "MENU SETTINGS: Table 12"
    assert rig.loop.record_info == {"event": 3, "round": 5, "table": 12}
    assert json.loads((tmp_path / "settings.json").read_text())["table"] == 12
    # a restart: the next loop starts with them
    rig.close()
    again = make_rig(store=SettingsStore(tmp_path))
    assert again.loop.record_info == {"event": 3, "round": 5, "table": 12}


def test_back_puts_an_edited_value_back(make_rig):
    rig = make_rig()
    settings_page(rig)
    rig.to_item("Round")
    rig.press("push")
    rig.turn(5)
    assert rig.loop.menu.view()["items"][1] == "Round [6]"
    rig.press("back")
    assert rig.loop.record_info["round"] == 1 and rig.loop.menu.view()["items"][1] == "Round 1"


def test_brightness_goes_to_the_display(make_rig, tmp_path):
    rig = make_rig(store=SettingsStore(tmp_path))
    assert rig.sink.contrast == [contrast(3)]  # applied at start
    settings_page(rig)
    edit(rig, "Bright", 2)
    assert rig.sink.contrast[-1] == contrast(5) == 255
    edit(rig, "Bright", -10)
    assert rig.sink.contrast[-1] == contrast(1) > 0  # level 1 is dim, never dark
    rig.close()
    assert make_rig(store=SettingsStore(tmp_path)).sink.contrast == [contrast(1)]


def test_a_bad_settings_file_gives_defaults(make_rig, tmp_path, caplog):
    (tmp_path / "settings.json").write_text('{"event": 0, "mute": "yes", "round": 7, "colour": 1}')
    rig = make_rig(store=SettingsStore(tmp_path))
    assert rig.loop.record_info == {"event": 1, "round": 7, "table": 1}
    assert not rig.loop.settings.mute
    assert "event: bad value 0" in caplog.text and "colour: unknown setting" in caplog.text


# ------------------------------------------------------------------------------ buzzer and mute


def timeline(pin):
    out, t = [], 0.0
    for delta, value in pin.states[1:]:
        t += delta
        out.append((round(t, 6), value))
    return out


def test_the_loop_plays_the_mh2_announcement_on_the_pin(make_rig):  # MH-2, CL-4
    rig = make_rig(with_buzzer=True)
    start(rig, "makhos-move")
    rig.at(10.0)
    rig.press("right")                 # left's move starts at 10.0 s
    rig.at(10.0 + 95.0)
    on_at = (ZERO / S + 10.0 + 90.0) - (ZERO / S)  # 1:30 used: 30 s left
    got = timeline(rig.buzzer.pin)
    assert got == [(pytest.approx(on_at), 0.5), (pytest.approx(on_at + 0.7), 0.0)]
    rig.at(10.0 + 115.0)               # 10 s left: two long tones
    assert [v for _, v in timeline(rig.buzzer.pin)[2:]] == [0.5, 0.0, 0.5, 0.0]
    assert timeline(rig.buzzer.pin)[2][0] == pytest.approx(on_at + 20.0)
    assert [n for _, n in rig.buzzer.played] == ["announce-30s", "announce-10s"]


def test_mute_from_the_menu_silences_the_buzzer(make_rig, tmp_path):
    rig = make_rig(with_buzzer=True, store=SettingsStore(tmp_path))
    settings_page(rig)
    rig.to_item("Sound")
    frame = rig.press("push")          # a toggle: CLICK flips it
    assert rig.loop.menu.view()["items"][3] == "Sound off" and rig.buzzer.muted
    assert frame.captions[0] == "MENU SETTINGS: Sound off"
    rig.press("back")
    start(rig, "makhos-move")
    rig.at(30.0); rig.press("right")
    rig.at(30.0 + 125.0)               # both announcements and the flag fall pass
    assert timeline(rig.buzzer.pin) == [] and rig.buzzer.played == []
    assert json.loads((tmp_path / "settings.json").read_text())["mute"] is True


# ------------------------------------------------------------------------------ custom preset


def test_custom_countdown_with_increment(make_rig):
    rig = make_rig()
    rig.to_item("Custom")
    rig.press("push")
    assert rig.loop.menu.view()["items"] == ["Mode countdown", "Time 15:00", "Incr 0:00", "Start"]
    edit(rig, "Time", -10)             # 15:00 -> 5:00
    edit(rig, "Incr", 3)
    frame = rig.to_item("Start")
    assert frame.captions == ("MENU CUSTOM 4/4: custom", "RIGHT 5:00")  # the preview
    rig.press("push")
    assert rig.loop.preset.name == "Custom 5:00+3"
    rig.at(1.0); rig.press("left")     # right runs
    rig.at(11.0); frame = rig.press("right")
    assert frame.captions[1] == "RIGHT 4:53"  # 5:00 - 10.0 s + 3 s increment


def test_custom_per_move(make_rig):  # MH-2 style announcements on a custom per-move clock
    rig = make_rig()
    rig.to_item("Custom")
    rig.press("push")
    edit(rig, "Mode", 1)
    assert rig.loop.menu.view()["items"] == ["Mode per move", "Move 2:00", "Start"]
    edit(rig, "Move", -12)             # 2:00 -> 1:00
    rig.to_item("Start")
    rig.press("push")
    c = rig.loop.state.control
    assert (c.mode, c.move_time_ns, c.announce_ns) == ("per_move", 60 * S, (30 * S, 10 * S))
    assert rig.loop.menu.view()["items"] == []  # closed: the clocks show


# ------------------------------------------------------------------------------ counts from the knob (MR-4..MR-8, MH-6)


def arbiter_menu(rig):
    """Pause the running game and open its menu with the arbiter's gesture."""
    rig.press("pause")
    rig.press("push", hold_s=3.0)
    assert rig.loop.menu.is_open and rig.loop.menu.view()["page"] == "game"
    return rig.loop.menu.view()["items"]


def hold_unlock(rig):
    """The game already paused: the arbiter's gesture opens its menu."""
    rig.press("push", hold_s=3.0)
    assert rig.loop.menu.is_open and rig.loop.menu.view()["page"] == "game"
    return rig.loop.menu.view()["items"]


def choose(rig, label):
    """Turn to `label` and push; an item that changes the game asks first (issue 15): "No" is
    highlighted, the arbiter turns to "Yes" and pushes."""
    rig.to_item(label)
    assert rig.loop.menu.view()["items"][rig.loop.menu.view()["index"]].startswith(label)
    frame = rig.press("push")
    if rig.loop.menu.view()["page"] == "confirm":
        assert rig.loop.menu.view()["items"] == ["No", "Yes"] and rig.loop.menu.view()["index"] == 0
        rig.to_item("Yes")
        frame = rig.press("push")
    return frame


def set_value(rig, label, steps):
    rig.to_item(label)
    rig.press("push")      # edit
    rig.turn(steps)        # clockwise: more
    return rig.press("push")  # keep


class Actions:
    """The arbiter's knob actions on the rig, counted (issue 15: a count in at most 3)."""

    def __init__(self, rig):
        self.rig, self.actions = rig, 0

    def turn(self, n=1):
        self.actions += abs(n)
        return self.rig.turn(n)

    def push(self, hold_s=0.1):
        self.actions += 1
        return self.rig.press("push", hold_s=hold_s)


def test_pieces_count_from_the_menu_k2r_v_k(make_rig):
    # MR-6, MR-7 (seed 003 §10, both kings counted; makruk-45's pieces_start = "both-kings"): K+2R v K,
    # the board holds 4 pieces (the two kings, the two rooks), the lone king counts on from 4: its
    # first counted move is 5 (003 §10: "นับ 5 ทันที"), then 6, 7, 8; MR-6's limit for 2 rooks is 8.
    rig = make_rig()
    start(rig, "makruk-45")
    rig.at(1.0); rig.press("left")  # the right clock runs: right is on move (the lone king, after the capture)
    rig.at(5.0)
    items = arbiter_menu(rig)
    # the side on move's counts right after Resume and Corrections, the other side's further down
    # (issue 15; issue 27: Corrections first, End game last, one notch back from Resume)
    assert items[:4] == ["Resume", "Corrections", "Board count: right", "Pieces count: right"]
    assert items[-4:] == ["Board count: left", "Pieces count: left", "Settings", "End game"]
    assert "Stop count" not in items and "On board" not in " ".join(items)  # MR-6: it follows from the material
    knob = Actions(rig)
    knob.turn(3)
    knob.push()                                     # Pieces count: right
    assert knob.actions == 4                        # the count and the side chosen in 4 actions
    v = rig.loop.menu.view()
    assert v["page"] == "pieces" and v["title"] == "PIECES RIGHT"
    assert v["items"] == ["R=[0] N=0 S=0 M=0", "Enter the pieces"]
    knob.turn(3)                                    # a side has 2 rooks: 0, 1, 2, then 0 again (it wraps)
    assert rig.loop.menu.view()["items"] == ["R=[0] N=0 S=0 M=0", "Enter the pieces"]
    knob.turn(-1)                                   # one notch back from 0: 2 rooks
    assert rig.loop.menu.view()["items"] == ["R=[2] N=0 S=0 M=0", "From 5 to 8"]
    knob.turn(-1)                                   # the arbiter enters 1 rook by mistake
    knob.push(hold_s=1.0)                           # a long push: none of the rest, start
    st = rig.loop.state
    assert st.counting.as_dict() == {"kind": "pieces", "side": "right", "count": 3, "limit": 16,
                                     "reached": False}  # MR-6: 1 rook 16; MR-7: K+R v K, 3 pieces
    # Wrong material entered: the arbiter enters it again (the pieces' count offers it again)
    rig.at(20.0)
    items = hold_unlock(rig)  # still paused
    assert items[:4] == ["Resume", "Corrections", "Stop count", "Pieces count: right"]
    knob = Actions(rig)
    knob.turn(3)
    knob.push()
    knob.turn(-1)                                   # 0 -> 2 rooks: one notch back
    frame = knob.push(hold_s=1.0)
    assert knob.actions == 6                        # the count, the side and K+2R v K in 6 actions
    assert not rig.loop.menu.is_open and not rig.loop.unlocked
    assert rig.loop.state.counting.as_dict() == {"kind": "pieces", "side": "right", "count": 4, "limit": 8,
                                                  "reached": False}
    assert frame.captions[0].endswith("COUNT 4/8") and frame.captions[1].endswith("COUNT 4/8")
    # the screens say which side counts: the view's count carries it (ui/screens.py draws it)
    assert core.view(rig.loop.state)["counting"]["side"] == "right"
    rig.press("pause")  # resume: the lone king's clock runs
    seen = []
    for i in range(4):
        frame = rig.press("right")
        if i < 3:
            seen.append(frame.captions[1].split("COUNT ")[1])
            rig.press("left")  # the attacker's moves are not counted
            assert rig.loop.state.counting.count == 5 + i
    assert seen == ["5/8", "6/8", "7/8"]
    # MR-6 (issue 15): the 8th counted move reaches the limit: the clocks stop there, the game is
    # drawn by the count, entered for the arbiter to confirm (or change)
    assert rig.loop.state.phase == "finished" and rig.loop.state.counting.reached
    assert rig.loop.result is not None and rig.loop.entries[-1][1] == ["outcome", "draw", "count"]
    # the arbiter's first push does not store another outcome over it: the list is not on the
    # outcome any more, but on what is still missing (MR-9: the material left on the board)
    assert rig.loop.result.result["winner"] == "draw"
    rig.press("push")
    assert rig.loop.result.result["winner"] == "draw" and rig.loop.result.result["reason"] == "count"
    assert "BEEP count-limit right" in rig.sink.beeps
    assert [type(e).__name__ for e in rig.loop.events].count("CountStart") == 2


def test_impossible_material_cannot_start_a_count(make_rig):
    # MR-6: a side has 2 rooks, 2 knights, 2 khons: the knob stops there. MR-7 (both kings): K+2R+2N+2S
    # v K holds 8 pieces, the count would start at 9, past 2 rooks' limit 8: refused, the page says so.
    rig = make_rig()
    start(rig, "makruk-45")
    rig.at(1.0); rig.press("left")
    rig.at(5.0)
    arbiter_menu(rig)
    rig.turn(3); rig.press("push")
    rig.press("push")                               # 0 rooks, on to the knights
    assert rig.loop.menu.view()["items"][0] == "R=0 N=[0] S=0 M=0"
    rig.press("push"); rig.press("push")
    rig.press("push")                               # CLICK on the mets: start -- no piece at all
    assert rig.loop.menu.view()["page"] == "pieces" and rig.loop.state.counting is None
    assert rig.loop.menu.view()["items"][1] == "Enter the pieces"
    rig.press("back"); rig.press("back"); rig.press("back")  # back to the rooks
    for _ in range(3):
        rig.turn(5)                                 # 5 notches: 0 1 2 0 1 2 (2 at most: it wraps)
        rig.press("push")
    assert rig.loop.menu.view()["items"] == ["R=2 N=2 S=2 M=[0]", "Over the limit"]
    rig.press("push")
    assert rig.loop.menu.view()["page"] == "pieces" and rig.loop.state.counting is None  # refused
    rig.press("back")
    rig.turn(-1)                                    # one khon fewer: 7 pieces, start 8, limit 8
    assert rig.loop.menu.view()["items"] == ["R=2 N=2 S=[1] M=0", "From 8 to 8"]
    rig.press("back"); rig.press("back"); rig.press("back")  # BACK on the rooks: leaves, nothing started
    assert rig.loop.menu.view()["page"] == "game" and rig.loop.state.counting is None


def test_board_count_turns_into_the_pieces_count_and_stops_in_3_actions(make_rig):
    # MR-8 (seed 003 §9-10): left counts the board (MR-4); reduced to a lone king it counts the pieces
    # (K+2R: from 5 to 8) -- the count's side is known, the item is right after Corrections.
    rig = make_rig()
    start(rig, "makruk-30")
    rig.at(1.0); rig.press("right")  # the left clock runs
    rig.at(3.0)
    arbiter_menu(rig)
    knob = Actions(rig)
    knob.turn(2)
    knob.push()                                     # Board count: left
    assert knob.actions == 3 and rig.loop.state.counting.as_dict()["kind"] == "board"
    rig.press("pause")
    rig.press("left"); rig.press("right")           # left's move: 1 (MR-4)
    items = arbiter_menu(rig)
    assert items[:4] == ["Resume", "Corrections", "Pieces count: left", "Stop count"]
    knob = Actions(rig)
    knob.turn(2); knob.push(); knob.turn(-1); knob.push(hold_s=1.0)
    assert rig.loop.state.counting.as_dict() == {"kind": "pieces", "side": "left", "count": 4, "limit": 8,
                                                  "reached": False}
    assert hold_unlock(rig)[:4] == ["Resume", "Corrections", "Stop count", "Pieces count: left"]  # still paused
    knob = Actions(rig)
    knob.turn(2)
    knob.push()                                     # Stop count
    assert knob.actions == 3 and rig.loop.state.counting is None


def test_board_count_from_the_menu_and_stop(make_rig):
    # MR-4: the counting side's own moves from 1; stopping and counting again starts from 1
    rig = make_rig()
    start(rig, "makruk-30")
    rig.at(1.0); rig.press("right")  # the left clock runs
    rig.at(3.0)
    arbiter_menu(rig)
    choose(rig, "Board count: left")
    assert rig.loop.state.counting.as_dict()["limit"] == 64  # MR-4: the rule file's board_limit
    rig.press("pause")
    for _ in range(3):
        rig.press("left"); frame = rig.press("right")
    assert frame.captions[0].endswith("COUNT 3/64")
    rig.press("left")  # the right clock runs again
    items = arbiter_menu(rig)
    # issue 15: the board count's pieces' count (MR-8) and Stop right after Resume and Corrections
    assert items[:4] == ["Resume", "Corrections", "Pieces count: left", "Stop count"] and "Reset count" not in items
    frame = choose(rig, "Stop count")
    assert rig.loop.state.counting is None and "COUNT" not in frame.captions[0]
    rig.press("pause")  # the game goes on (the right clock runs)
    arbiter_menu(rig)
    choose(rig, "Board count: left")
    rig.press("pause"); rig.press("right"); frame = rig.press("left")
    assert frame.captions[1].endswith("COUNT 1/64")


def test_makhos_count_from_the_menu_and_end(make_rig):
    # MH-6: the requester's own moves (rule file: count = "own"); a man's move or a capture ENDS the count
    # (seed 003 §5.3, 004 §3.8.3): nothing is counted after it, and counting again is a new request
    rig = make_rig()
    start(rig, "makhos-move")
    rig.at(1.0); rig.press("left")  # the right side moves
    rig.at(3.0)
    items = arbiter_menu(rig)
    assert "Board count: left" not in items and "Pieces count" not in items
    # the side on move first, the other next: either in at most 4 actions (issue 15, 27)
    assert items[:4] == ["Resume", "Corrections", "Makhos count: right", "Makhos count: left"]
    assert "Stop count" not in items and "End count" not in items
    choose(rig, "Makhos count: right")
    rig.press("pause")
    for _ in range(3):
        rig.press("right"); frame = rig.press("left")
    assert frame.captions[0].endswith("COUNT 3/16") and frame.captions[1].endswith("COUNT 3/16")
    items = arbiter_menu(rig)
    assert items[:4] == ["Resume", "Corrections", "End count", "Stop count"] and "Reset count" not in items
    frame = choose(rig, "End count")
    assert rig.loop.state.counting is None and "COUNT" not in frame.captions[1]
    rig.press("pause")
    for _ in range(20):  # past 16 own moves: no count, no draw announced
        rig.press("right"); frame = rig.press("left")
    assert rig.loop.state.counting is None and "BEEP count-limit right" not in rig.sink.beeps
    arbiter_menu(rig)
    choose(rig, "Makhos count: right")  # a new request counts from 1
    rig.press("pause"); frame = rig.press("right")
    assert frame.captions[1].endswith("COUNT 1/16")


def test_next_game_keeps_the_match_time_and_tie_break_game_steps_down(make_rig):
    # MH-4 (seed 004 §3.2.3): every game of the match is 30:00; only the extra games after a tied match
    # are 25:00, 20:00, ...: "Next game" counts the match's games on, "Tie-break game" the steps
    rig = make_rig()
    start(rig, "makhos-30")
    rig.press("push")                      # the game menu at ready
    choose(rig, "Next game")
    assert (rig.loop.game_no, rig.loop.tiebreak) == (2, 0)
    assert rig.loop.state.sides[0].initial_ns == 30 * 60 * 10**9
    rig.press("push")
    choose(rig, "Next game"); rig.press("push"); choose(rig, "Next game")   # games 3 and 4: 30:00
    assert (rig.loop.game_no, rig.loop.tiebreak) == (4, 0)
    assert rig.loop.state.sides[1].initial_ns == 30 * 60 * 10**9
    rig.press("push")
    frame = choose(rig, "Tie-break game")  # the match ended tied: game 5, tie-break step 1, 25:00
    assert (rig.loop.game_no, rig.loop.tiebreak) == (5, 1)
    assert rig.loop.state.sides[0].initial_ns == 25 * 60 * 10**9
    assert "game 5 tie-break 1" in frame.info
    from gameclock.core.clock import view
    from gameclock.ui.screens import bottom_text
    assert bottom_text(view(rig.loop.state), 0)[1].split() == ["G5", "TB1"]  # the bottom line's facts
    rig.press("push")
    choose(rig, "Next game")               # inside a tie-break the next game is the next step: 20:00
    assert (rig.loop.game_no, rig.loop.tiebreak) == (6, 2)
    assert rig.loop.state.sides[1].initial_ns == 20 * 60 * 10**9


def test_a_tie_break_preset_starts_at_step_one_after_the_match(make_rig):
    # MH-7(3) (seed 004 §3.9.1 ค.): 4 more games at 20:00 after a 4-game match: the first is game 5 of
    # the pairing and tie-break step 1, so the record tells it from the match's games (MH-4)
    rig = make_rig()
    start(rig, "makhos-tiebreak-20")
    assert (rig.loop.game_no, rig.loop.tiebreak) == (5, 1)
    assert rig.loop.state.sides[0].initial_ns == 20 * 60 * 10**9
    rig.press("push")
    choose(rig, "Next game")
    assert (rig.loop.game_no, rig.loop.tiebreak) == (6, 2)
    assert rig.loop.state.sides[1].initial_ns == 20 * 60 * 10**9   # no sequence: every step 20:00


def test_no_count_items_for_other_events(make_rig):
    rig = make_rig()
    start(rig, "crossword")
    rig.at(1.0); rig.press("left")
    rig.at(3.0)
    items = arbiter_menu(rig)
    assert not any("count" in label.lower() for label in items)
