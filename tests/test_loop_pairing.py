"""A pairing reaching the clock (issue 6): the loop applies it when no game is under way (the journal's
header and the result record carry event, round, table and the players' names), holds it during a
game (the running game's record and screens unchanged) until the next game, shows the names on the
ready and paused screens, and the names survive a power cut (journal header, settings.json)."""
from __future__ import annotations

import json
import queue

import pytest

from gameclock.core import clock as core
from gameclock.core.events import Finish
from gameclock.inbox import Key, Pairing, PauseButton, PlayerButton
from gameclock.loop import Loop
from gameclock.persist.journal import decode, read_game
from gameclock.persist.restore import attach
from gameclock.persist.settings import SettingsStore
from gameclock.record import header_info, schema_errors
from gameclock.rules.loader import load_presets
from gameclock.ui import menu as menus
from gameclock.ui import screens
from gameclock.ui.keys import CLICK, DOWN

S = 1_000_000_000
SOMCHAI, MALEE = "Srisuk, Somchai", "มาลี ใจดี"
P1 = {"event": "OPEN", "round": 3, "table": 5, "players": {"left": SOMCHAI, "right": "มาลี  ใจดี"}}
P2 = {"event": "2", "round": 4, "table": 1, "players": {"left": "Wong Anan", "right": "Dee Porn"}}


class Null:
    def __init__(self):
        self.beeps = []

    def show(self, frame) -> None:
        pass

    def beep(self, alert, text) -> None:
        self.beeps.append(text)


class FakeTime:
    def __init__(self, start: int):
        self.now = start

    def __call__(self) -> int:
        return self.now


@pytest.fixture(scope="module")
def presets():
    return load_presets()


def boot(presets, state, start=1_000 * S, settings=True):
    """A fresh process as `gameclock run` makes it: settings.json and the journal in `state`."""
    t = FakeTime(start)
    sink = Null()
    store = SettingsStore(state) if settings else None
    loop = Loop(queue.Queue(), presets, sink, sink, clock=t, settings_store=store)
    journal, message = attach(loop, state)
    return loop, journal, t, message


def lines_of(path) -> list[str]:
    return [decode(raw) for raw in path.read_bytes().split(b"\n")[:-1]]


def header_of(path) -> list[str]:
    return [ln for ln in lines_of(path) if not ln[0].isdigit()]


def play_and_confirm(loop, t, z):
    """Left starts (right runs) at 1 s, right presses at 4 s, finished at 6 s, 412-388, both confirm."""
    loop.pump(z + S, [PlayerButton(z + S, 0)])
    loop.pump(z + 4 * S, [PlayerButton(z + 4 * S, 1)])
    loop.apply(Finish, z + 6 * S)
    t.now = z + 6 * S
    loop.pump(t.now)
    assert loop.result is not None
    # XW-8: no level was set for the game: the arbiter sets it in the result entry (Settings > Level)
    for i, words in enumerate([["score", "left", "412"], ["score", "right", "388"], ["level", "secondary"],
                               ["confirm", "left"], ["confirm", "right"]]):
        t.now = z + (7 + i) * S
        assert loop.enter(words, t.now), loop.message
    assert loop.record is not None and loop.message in ("SAVING RESULT", "RESULT SAVED")
    if loop.journal is not None:  # SAVED once the writer has it on the card (issue 13), at the next turn
        assert loop.journal.writer.flush(5)
        loop.pump(t.now)
    assert loop.message == "RESULT SAVED"
    return loop.record


def test_a_pairing_at_ready_reaches_the_journal_header_and_the_record(presets, tmp_path):
    loop, journal, t, _ = boot(presets, tmp_path)
    loop.new_game("crossword", 1)
    t.now += 2 * S
    loop.pump(t.now, [Pairing(t.now, P1)])
    s = loop.settings
    assert (s.event, s.event_name, s.round, s.table) == (1, "OPEN", 3, 5)
    assert s.players == {"left": SOMCHAI, "right": MALEE}  # white space folded
    assert loop.record_info == {"event": "OPEN", "round": 3, "table": 5,
                                "players": {"left": SOMCHAI, "right": MALEE}}
    assert loop.frame.message == f"pairing: R3 T5 {SOMCHAI} v {MALEE}"
    journal.writer.flush()
    games = tmp_path / "games"
    assert lines_of(games / "000001.log")[-1] == "2 closed abandoned"  # the ready game's old header
    assert header_of(games / "000002.log") == [
        "preset crossword", "game 1", "event OPEN", "round 3", "table 5",
        f"player left {SOMCHAI}", f"player right {MALEE}", "clock sim"]
    saved = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert saved["players"] == {"left": SOMCHAI, "right": MALEE} and saved["event_name"] == "OPEN"

    record = play_and_confirm(loop, t, t.now)
    assert (record["event"], record["round"], record["table"]) == ("OPEN", 3, 5)
    assert record["players"] == {"left": SOMCHAI, "right": MALEE}
    assert record["id"] == "sim-000002" and schema_errors(record) == []
    journal.writer.flush()
    assert journal.outbox.read("sim-000002")["players"] == {"left": SOMCHAI, "right": MALEE}

    # the journal's header read back (recovery, gameclock replay) gives the same names
    rec = read_game((games / "000002.log").read_bytes(), 2, "000002.log")
    info = header_info(rec.log.header)
    assert info["players"] == {"left": SOMCHAI, "right": MALEE}
    assert (info["event"], info["round"], info["table"]) == ("OPEN", 3, 5)


def test_the_same_pairing_again_at_ready_changes_nothing(presets, tmp_path):
    loop, journal, t, _ = boot(presets, tmp_path)
    loop.new_game("crossword", 1)
    loop.pump(t.now, [Pairing(t.now, P1)])
    assert journal.seq == 2
    loop.pump(t.now, [Pairing(t.now, P1)])  # the PC sends it again at every hello
    assert journal.seq == 2


def test_a_pairing_before_any_game_is_applied_and_the_first_game_has_it(presets, tmp_path):
    loop, journal, t, _ = boot(presets, tmp_path)
    assert loop.state is None
    loop.pump(t.now, [Pairing(t.now, P2)])
    assert (loop.settings.event, loop.settings.event_name) == (2, "")  # a number: the Event setting
    loop.new_game("makruk-45", 1)
    journal.writer.flush()
    assert header_of(tmp_path / "games" / "000001.log") == [
        "preset makruk-45", "game 1", "event 2", "round 4", "table 1",
        "player left Wong Anan", "player right Dee Porn", "clock sim"]


def twin(presets):
    """A loop without journal or store, on its own fake clock, a crossword game at ready with P1."""
    t = FakeTime(1_000 * S)
    loop = Loop(queue.Queue(), presets, Null(), Null(), clock=t)
    loop.pump(t.now, [Pairing(t.now, P1)])
    loop.new_game("crossword", 1)
    return loop, t


def test_a_pairing_during_a_game_is_held_for_the_next_game(presets):
    loop, t = twin(presets)
    other, t2 = twin(presets)  # the same game without the second pairing
    z = t.now
    for lp, tt in ((loop, t), (other, t2)):
        lp.pump(z + S, [PlayerButton(z + S, 0)])  # right runs
        tt.now = z + S
    loop.pump(z + 2_500_000_000, [Pairing(z + 2_500_000_000, P2)])
    other.pump(z + 2_500_000_000)
    assert loop.settings.next_pairing == P2
    assert loop.record_info == other.record_info  # the running game keeps its own
    assert loop.frame.message.split(" | ")[-1] == "next: R4 T1 Wong Anan v Dee Porn"
    # the screens and their timing are those of the game without the pairing
    for at in (z + 2_500_000_000, z + 3 * S, z + 61 * S):
        assert loop.next_wake() == other.next_wake()
        loop.pump(at)
        other.pump(at)
        assert loop.frame.left.tobytes() == other.frame.left.tobytes()
        assert loop.frame.right.tobytes() == other.frame.right.tobytes()
        assert loop.frame.captions == other.frame.captions
    # a pause: the paused screens show the running game's names, not the held ones
    loop.pump(z + 62 * S, [PauseButton(z + 62 * S)])
    assert loop.state.phase == core.PAUSED
    shown = core.view(loop.state, loop.state.now_ns)
    shown["players"] = {"left": SOMCHAI, "right": MALEE}
    shown["level"] = "LEVEL?"  # XW-8: no level set for this Crossword game: the paused screen says so
    assert loop.frame.right.tobytes() == screens.render(shown, 1).tobytes()
    loop.pump(z + 63 * S, [PauseButton(z + 63 * S)])

    # the game ends, the result entry takes a while: still held, the record has the game's pairing
    t.now = z + 70 * S
    loop.apply(Finish, t.now)
    loop.pump(t.now)
    loop.pump(t.now, [Pairing(t.now, P2)])  # sent again during the result entry: still held
    assert loop.settings.next_pairing == P2
    for i, words in enumerate([["score", "left", "300"], ["score", "right", "310"], ["level", "secondary"],
                               ["confirm", "left"], ["confirm", "right"]]):
        t.now = z + (71 + i) * S
        assert loop.enter(words, t.now), loop.message
    assert loop.record["players"] == {"left": SOMCHAI, "right": MALEE}
    assert (loop.record["event"], loop.record["round"], loop.record["table"]) == ("OPEN", 3, 5)
    assert loop.settings.next_pairing == P2  # applied by the next game, not by the saved result

    # the next game (the game menu's Next game / New game): the held pairing applies
    loop.new_game("crossword", 1)
    assert loop.settings.next_pairing is None
    assert loop.record_info == {"event": 2, "round": 4, "table": 1,
                                "players": {"left": "Wong Anan", "right": "Dee Porn"}}
    assert "next:" not in loop.shown_message()


def test_after_the_result_is_saved_a_pairing_applies_at_once(presets):
    loop, t = twin(presets)
    play_and_confirm(loop, t, t.now)
    loop.pump(t.now, [Pairing(t.now, P2)])
    assert loop.settings.next_pairing is None and loop.settings.round == 4


def test_a_pairing_that_names_the_running_games_own_pairing_is_not_held(presets):
    loop, t = twin(presets)
    loop.pump(t.now + S, [PlayerButton(t.now + S, 0)])
    loop.pump(t.now + 2 * S, [Pairing(t.now + 2 * S, P2)])
    assert loop.settings.next_pairing == P2
    loop.pump(t.now + 3 * S, [Pairing(t.now + 3 * S, P1)])  # the organiser takes it back
    assert loop.settings.next_pairing is None


@pytest.mark.parametrize("bad, why", [
    ({**P1, "round": 0}, "round 0 is not 1 or more"),
    ({**P1, "table": 1000}, "table 1000 is more than 999"),
    ({**P1, "players": {"left": "A #1", "right": "B"}}, "player name 'A #1' holds '#'"),
    ({**P1, "event": "Open A"}, "event 'Open A' has spaces"),
    ("not a pairing", "a pairing is an object, not str"),
])
def test_a_bad_pairing_is_refused_and_changes_nothing(presets, bad, why):
    loop, t = twin(presets)
    before = menus.Settings(**vars(loop.settings))
    loop.pump(t.now, [Pairing(t.now, bad)])
    assert loop.settings == before
    assert loop.frame.message.startswith(f"pairing refused: {why}"), loop.frame.message


def test_the_ready_screen_shows_the_names_and_the_running_screen_does_not(presets):
    loop, t = twin(presets)
    plain = core.view(loop.state, 0)
    plain["level"] = "LEVEL?"  # XW-8: the ready screen shows the level is not set
    loop.pump(t.now + screens.MESSAGE_NS)  # the pairing's message has left the displays (issue 15)
    left, right = loop.frame.left, loop.frame.right
    bare_l, bare_r = screens.render(plain, 0), screens.render(plain, 1)
    # an ASCII name: the headline and the digits are the same pixels; the bottom line (rows 55-63) has it
    assert left.crop((0, 0, 128, 55)).tobytes() == bare_l.crop((0, 0, 128, 55)).tobytes()
    # a Thai name: its own rows (NAME_ROWS, marks above and below inside them), the digits a little smaller
    assert right.crop((0, 0, 128, 17)).tobytes() == bare_r.crop((0, 0, 128, 17)).tobytes()
    assert right.crop((3, screens.NAME_ROWS[0], 90, 64)).getbbox() is not None
    assert left.tobytes() != bare_l.tobytes() and right.tobytes() != bare_r.tobytes()
    named = dict(plain, players={"left": SOMCHAI, "right": None})
    assert screens.render(named, 1).tobytes() == bare_r.tobytes()  # no name for that side: as before
    # running: exactly the screens without names
    later = t.now + screens.MESSAGE_NS + S
    loop.pump(later, [PlayerButton(later, 0)])
    v = core.view(loop.state, loop.state.now_ns)
    assert loop.frame.left.tobytes() == screens.render(v, 0).tobytes()
    assert loop.frame.right.tobytes() == screens.render(v, 1).tobytes()


def test_the_ascii_name_is_drawn_in_the_5x7_font_at_the_bottom_left(presets):
    # "SRISUK, SOMCHAI": 15 characters from x=3, 6 px apiece, on rows 57-63 of the ready screen
    v = dict(core.view(core.new_game(presets[0].control_for(), label="X"), 0),
             players={"left": SOMCHAI, "right": "Wong"})
    img = screens.render(v, 0)
    expect = screens.Image.new("1", (128, 7), 0)
    for i, ch in enumerate("SRISUK, SOMCHAI"):
        expect.paste(1, (3 + i * 6, 0), screens._name_glyph(ch))
    bottom = img.crop((0, 57, 128, 64))
    facts = screens.bottom_text(v, 0)[1]
    if facts:  # this preset has facts at the right: compare only the name's columns
        bottom, expect = bottom.crop((0, 0, 3 + 15 * 6, 7)), expect.crop((0, 0, 3 + 15 * 6, 7))
    assert bottom.tobytes() == expect.tobytes()


def test_a_thai_name_without_a_thai_font_is_drawn_as_boxes_and_logged(presets, monkeypatch, caplog):
    from gameclock.ui import textline
    textline.clear_caches()  # issue 27: the drawn lines are cached too
    monkeypatch.setattr(textline, "THAI_FONTS", ())
    monkeypatch.setattr(textline, "shipped_font", lambda bold=False: None)
    monkeypatch.setattr(textline, "MISSING", set())
    monkeypatch.delenv(textline.THAI_FONT_ENV, raising=False)
    try:
        v = dict(core.view(core.new_game(presets[0].control_for(), label="X"), 0),
                 players={"left": MALEE, "right": "Wong"})
        with caplog.at_level("WARNING", logger="gameclock.ui"):
            img = screens.render(v, 0)
        # never a silent "?" (issue 15): each letter no font has is an empty box, and it is logged
        assert set(MALEE) - {" "} <= textline.MISSING
        assert "no font draws" in caplog.text
        assert img.crop((3, screens.NAME_ROWS[0], 60, 64)).getbbox() is not None
    finally:
        textline.clear_caches()


def test_the_settings_page_shows_the_players_and_clears_them(presets, tmp_path):
    loop, journal, t, _ = boot(presets, tmp_path)
    loop.new_game("crossword", 1)
    loop.pump(t.now, [Pairing(t.now, P1)])
    loop.key(CLICK, t.now)                       # the game menu at ready
    while loop.menu.selected()[0] != "Settings":
        loop.key(DOWN, t.now)
    loop.key(CLICK, t.now)
    assert loop.menu.view()["items"] == [  # the PC's event on a line of its own (issue 26)
        "Event:", "OPEN", "Round 3", "Table 5", f"Left: {SOMCHAI}", f"Right: {MALEE}", "Clear players",
        "Sound on", "Bright 3/5", "Stage qualifying", "Level not set", "Language English"]  # issue 27: Level 2 back
    loop.key(DOWN, t.now)
    loop.key(CLICK, t.now)                       # the event's name: nothing happens
    assert loop.menu.view()["index"] == 1 and not loop.menu.editing and loop.settings.event_name == "OPEN"
    for _ in range(3):
        loop.key(DOWN, t.now)
    loop.key(CLICK, t.now)                       # a name line: nothing happens
    assert loop.menu.view()["index"] == 4 and loop.settings.players is not None
    loop.key(DOWN, t.now)
    loop.key(DOWN, t.now)
    loop.pump(t.now, [Key(t.now, CLICK)])        # Clear players
    assert loop.settings.players is None and loop.frame.message == "players cleared"
    assert loop.menu.view()["items"][4] == "Sound on"
    journal.writer.flush()
    assert [ln for ln in header_of(tmp_path / "games" / "000003.log") if ln.startswith("player")] == []
    assert SettingsStore(tmp_path).load().players is None


def test_names_survive_a_power_cut_in_the_journal_and_the_settings(presets, tmp_path):
    loop, journal, t, _ = boot(presets, tmp_path)
    loop.new_game("crossword", 1)
    loop.pump(t.now, [Pairing(t.now, P1)])
    z = t.now
    loop.pump(z + S, [PlayerButton(z + S, 0)])
    t.now = z + 3 * S
    loop.pump(t.now, [Pairing(t.now, P2)])      # held: the next game's
    journal.writer.flush()                       # kill -9 here

    loop2, journal2, t2, message = boot(presets, tmp_path, start=5 * S)
    assert message.startswith("restored: paused at")
    assert loop2.record_info["players"] == {"left": SOMCHAI, "right": MALEE}
    assert loop2.settings.next_pairing == P2
    rec = journal2.recover()
    assert header_info(rec.log.header)["players"] == {"left": SOMCHAI, "right": MALEE}
    assert rec.header["player.right"] == MALEE
    t2.now += S
    loop2.apply(Finish, t2.now)
    loop2.pump(t2.now)
    for words in (["score", "left", "1"], ["score", "right", "2"], ["level", "primary"], ["confirm", "left"],
                  ["confirm", "right"]):
        assert loop2.enter(words, t2.now), loop2.message
    assert loop2.record["players"] == {"left": SOMCHAI, "right": MALEE}
    assert loop2.record["table"] == 5
    loop2.new_game("crossword", 1)
    assert loop2.record_info["players"] == {"left": "Wong Anan", "right": "Dee Porn"}


def test_a_thai_event_from_the_pc_is_kept_across_a_restart_and_its_result_carries_it(presets, tmp_path):
    """Issue 26: the clock serves the event the PC names (any text, Thai included): settings.json keeps it,
    the hello says it, the game's result record carries it; the Event number setting stays as it was."""
    thai = "ครอสเวิร์ด-ม.ปลาย-2568"
    loop, journal, t, _ = boot(presets, tmp_path)
    loop.new_game("crossword", 1)
    loop.pump(t.now, [Pairing(t.now, dict(P1, event=thai, table=7))])
    assert (loop.settings.event, loop.settings.event_name) == (1, thai)
    journal.writer.flush()
    loop2, journal2, t2, _ = boot(presets, tmp_path, start=5 * S)
    assert (loop2.settings.event_name, loop2.settings.table) == (thai, 7)
    assert loop2.info_snapshot["event"] == thai  # what the dock thread's hello sends
    play_and_confirm(loop2, t2, t2.now)  # 412-388, both players confirm: the record is built
    assert (loop2.record["event"], loop2.record["round"], loop2.record["table"]) == (thai, 3, 7)
    assert schema_errors(loop2.record) == []


def test_old_settings_files_without_pairing_keys_still_load(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"event": 4, "round": 2, "table": 9, "mute": True}))
    s = SettingsStore(tmp_path).load()
    assert (s.event, s.round, s.table, s.mute) == (4, 2, 9, True)
    assert (s.players, s.next_pairing, s.event_name) == (None, None, "")
    bad, problems = menus.Settings.from_json({"players": {"left": "A"}, "next_pairing": {"round": 1},
                                              "event_name": "two words"})
    assert (bad.players, bad.next_pairing, bad.event_name) == (None, None, "")
    assert len(problems) == 3


def test_a_pairings_event_name_shows_and_a_number_from_the_knob_replaces_it():
    m = menus.Menu([("crossword", "Crossword")], settings=menus.Settings(event_name="OPEN", event=2))
    m.open_presets()
    while m.selected()[0] != "Settings":
        m.key(DOWN)
    m.key(CLICK)
    assert m.view()["items"][:4] == ["Event:", "OPEN", "Round 1", "Table 1"]  # the name its own line (issue 26)
    m.key(CLICK)
    assert m.view()["items"][:2] == ["Event [2]", "OPEN"]   # editing starts from the number
    assert m.key(CLICK) == menus.Action(menus.SETTING, "event")  # kept unchanged: still replaces the name
    assert (m.settings.event, m.settings.event_name) == (2, "") and m.view()["items"][:2] == ["Event 2", "Round 1"]


def test_an_event_name_from_the_pc_is_shown_as_it_came_in_either_language():
    """Issue 26: the PC's event id is any text, Thai included, never translated (an event named like a
    menu word stays itself), and a Thai name makes an English page use the Thai rows (ui/screens.py)."""
    thai = "ครอสเวิร์ด-ม.ปลาย-2568"
    for lang, label in (("en", "Event:"), ("th", "รายการ:")):
        for name in (thai, "Sound"):  # "Sound" is a menu word ("เสียง" in Thai): the event keeps its name
            m = menus.Menu([("crossword", "Crossword")], settings=menus.Settings(event_name=name, language=lang))
            m.open_presets()
            while m.selected()[0] != "Settings":
                m.key(DOWN)
            m.key(CLICK)
            assert m.view()["items"][:2] == [label, name]
    assert screens.menu_geometry("en", ["Event:", thai]) == (11, 2, 22)   # 22 rows: every Thai mark at 15 px
    assert screens.menu_geometry("en", ["Event:", "OPEN"]) == (11, 4, 13)
    assert screens.menu_geometry("th", ["รายการ:", "OPEN"]) == (18, 2, 22)  # issue 27


def test_the_dock_thread_reads_an_immutable_snapshot_renewed_with_each_change(presets):
    # issue 12: threads other than the loop read immutable snapshots, never the settings being changed
    loop, t = twin(presets)
    snap = loop.info_snapshot
    assert snap["players"] == {"left": SOMCHAI, "right": MALEE} and snap["round"] == 3
    with pytest.raises(TypeError):
        snap["round"] = 9  # type: ignore[index]
    loop.settings.round = 8                 # the loop changing its settings (mid-edit) ...
    assert loop.info_snapshot["round"] == 3  # ... is not seen until it is done (saved)
    loop.save_settings()
    assert loop.info_snapshot["round"] == 8 and snap["round"] == 3
