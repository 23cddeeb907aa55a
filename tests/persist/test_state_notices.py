"""Issue 13 holes 3 and 8 on the clock: its own state never stops it and never fails silently.

- a bad `settings.json` (a truncated Thai name, deep nesting, wrong values) is kept aside as
  `settings.json.bad-N`, the defaults are used, and both OLEDs' status lines say SETTINGS RESET
  until the arbiter's next key;
- a newest game journal that cannot be read is said on the screens (LAST GAME UNREADABLE);
- a confirmed result says RESULT SAVED only once the record is on the card: SAVING while the writer
  has it queued, NOT SAVED YET while the disk is full (and DISK FULL on both OLEDs meanwhile)."""
from __future__ import annotations

import json
import queue
import time

import pytest
from fakefs import FakeFS, enospc

from bench.repaircrash import play_confirmed_crossword
from gameclock.core import clock as core
from gameclock.inbox import Key, PlayerButton
from gameclock.loop import Loop
from gameclock.persist.restore import attach, wake_loop
from gameclock.persist.settings import SettingsStore
from gameclock.rules.loader import load_presets
from gameclock.ui import screens
from gameclock.ui.menu import Settings

S = 1_000_000_000


class Null:
    def show(self, frame) -> None:
        pass

    def beep(self, alert, text) -> None:
        pass


@pytest.fixture(scope="module")
def presets():
    return load_presets()


def oled_tags(loop, side: int = 0) -> str:
    """The headline as drawn on `side`'s OLED (ui.screens.headline of the loop's view)."""
    view = core.view(loop.state, loop.state.now_ns)
    notice = loop.notice_tag()
    if notice:
        view = dict(view, notice=notice)
    head = screens.headline(view, side)
    return head[0] if head else ""


BAD_FILES = {
    "truncated Thai": '{"players": {"left": "สมชาย"'.encode()[:-1],
    "nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "not JSON": b"\x00\x00garbage",
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_a_bad_settings_file_is_kept_aside_and_the_screens_say_so(presets, tmp_path, name):
    bad = BAD_FILES[name]
    (tmp_path / "settings.json").write_bytes(bad)
    store = SettingsStore(tmp_path)
    loop = Loop(queue.Queue(), presets, Null(), Null(), settings_store=store, clock=lambda: 10 * S)
    assert loop.settings == Settings()
    assert (tmp_path / "settings.json.bad-1").read_bytes() == bad  # nothing lost for good
    assert not (tmp_path / "settings.json").exists()
    loop.new_game("crossword", 1)
    loop.pump(10 * S)
    assert "SETTINGS RESET" in oled_tags(loop, 0) and "SETTINGS RESET" in oled_tags(loop, 1)
    assert "SETTINGS RESET" in loop.frame.message
    loop.pump(11 * S, [Key(11 * S, "UP")])  # the arbiter touches the knob: seen
    assert "SETTINGS RESET" not in oled_tags(loop) and "SETTINGS RESET" not in loop.frame.message


def test_a_second_bad_file_does_not_overwrite_the_first_one_kept(tmp_path):
    (tmp_path / "settings.json").write_bytes(b"{")
    SettingsStore(tmp_path).load()
    (tmp_path / "settings.json").write_bytes(b"[")
    store = SettingsStore(tmp_path)
    store.load()
    assert (tmp_path / "settings.json.bad-1").read_bytes() == b"{"
    assert (tmp_path / "settings.json.bad-2").read_bytes() == b"["
    assert store.notice == "SETTINGS RESET"


def test_some_wrong_values_keep_the_good_ones_and_say_partly(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"round": 7, "table": -3}), encoding="utf-8")
    store = SettingsStore(tmp_path)
    s = store.load()
    assert s.round == 7 and s.table == Settings().table
    assert store.notice == "SETTINGS PARTLY RESET"
    assert (tmp_path / "settings.json.bad-1").exists()


def test_a_good_settings_file_says_nothing(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"round": 7}), encoding="utf-8")
    store = SettingsStore(tmp_path)
    assert store.load().round == 7 and store.notice == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_an_unreadable_last_journal_is_said_on_the_screens(presets, tmp_path):
    now = [100 * S]
    loop = Loop(queue.Queue(), presets, Null(), Null(), clock=lambda: now[0])
    journal, _ = attach(loop, tmp_path)
    loop.new_game("crossword", 1)
    loop.pump(now[0] + S, [PlayerButton(now[0] + S, 0)])
    journal.writer.flush()
    journal.writer.close(5)
    path = tmp_path / "games" / "000001.log"

    class BadSector(FakeFS):  # the card returns an I/O error for the journal's blocks
        def read_bytes(self, p, max_bytes):
            if str(p) == str(path):
                raise OSError(5, "Input/output error", str(p))
            return super().read_bytes(p, max_bytes)

    loop2 = Loop(queue.Queue(), presets, Null(), Null(), clock=lambda: now[0])
    _, message = attach(loop2, tmp_path, fs=BadSector())
    assert message is None  # nothing restored ...
    assert loop2.start_notice == "LAST GAME UNREADABLE"  # ... and the screens say why
    loop2.pump(now[0])
    assert "LAST GAME UNREADABLE" in loop2.frame.message


def confirm_game(loop, now):
    play_confirmed_crossword(loop, now)  # Crossword, 412-388, both confirm (bench/repaircrash.py)


def test_result_saved_only_once_the_record_is_on_the_card(presets, tmp_path):
    fs = FakeFS()
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    now = [100 * S]
    loop = Loop(inbox, presets, Null(), Null(), clock=lambda: now[0])
    journal, _ = attach(loop, tmp_path, fs=fs, on_status=wake_loop(inbox))
    journal.writer.backoff_min_s = journal.writer.backoff_max_s = 0.01
    fs.fail["rename"] = enospc()  # the card is full when the record is to be stored
    confirm_game(loop, now)
    loop.pump(now[0])
    deadline = time.monotonic() + 5
    while journal.status != "DISK FULL" and time.monotonic() < deadline:
        time.sleep(0.01)
    loop.pump(now[0])
    assert loop.saved_text() == "NOT SAVED YET" and loop.message != "RESULT SAVED"
    assert loop.notice_tag() == "DISK FULL"
    assert not (tmp_path / "outbox" / "sim-000001.json").exists()
    del fs.fail["rename"]  # space again: the writer stores it and wakes the loop
    assert journal.writer.flush(5)
    loop.pump(now[0])
    assert (tmp_path / "outbox" / "sim-000001.json").exists()
    assert loop.saved_text() == "RESULT SAVED" and loop.message == "RESULT SAVED"
    journal.close()
