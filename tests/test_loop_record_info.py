"""The record info a result goes out with (event, round, table, level, stage, the players) is what the
game's journal says, always (issue 27): a setting of the record changed on the clock's own menus while
the game is on -- at ready, in a pause, in the result entry before anything is entered, after the
scores, after one player confirmed -- is a line of the game's log (journaled, folded by every replay)
and, once the result is up for confirmation, clears both players' confirmations. The record in the
outbox equals the record `gameclock replay` and the clock's own rebuild make from the journal.

Each game is played through the real loop with the knob's keys (the menus as the arbiter uses them),
with the real journal on a state folder and settings.json."""
from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from loopkit import MS, FakeTime, S, Sink

from gameclock.core import clock as core
from gameclock.inbox import Key, Pairing, PauseButton, PlayerButton, PushEdge
from gameclock.loop import Loop
from gameclock.persist.journal import decode
from gameclock.persist.rebuild import rebuild
from gameclock.persist.restore import attach
from gameclock.persist.settings import SettingsStore
from gameclock.record import record_from_log, schema_errors
from gameclock.replay import _journal_as_log
from gameclock.rules.loader import load_presets
from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP

PAIRING = {"event": "OPEN", "round": 1, "table": 1, "players": {"left": "Anan", "right": "Boon"}}






@pytest.fixture(scope="module")
def presets():
    return load_presets()


def boot(presets, state: Path, start: int = 1_000 * S):
    """A fresh process as `gameclock run` makes it: settings.json and the journal in `state`."""
    t = FakeTime(start)
    loop = Loop(queue.Queue(), presets, Sink(), Sink(), clock=t, settings_store=SettingsStore(state))
    journal, _ = attach(loop, state)
    return loop, journal, t


# ------------------------------------------------------------------------------ the arbiter's hands
def key(loop, t, k: str) -> None:
    t.now += 300 * MS
    loop.pump(t.now, [Key(t.now, k)])


def press(loop, t, side: int) -> None:
    t.now += 300 * MS
    loop.pump(t.now, [PlayerButton(t.now, side)])


def pause(loop, t) -> None:
    t.now += 300 * MS
    loop.pump(t.now, [PauseButton(t.now)])


def unlock(loop, t) -> None:
    """The arbiter's unlock in a pause: the knob held pushed 3 s (its LONG_CLICK at 0.8 s says
    "menu locked"; the menu opens at 3 s)."""
    t.now += 300 * MS
    loop.pump(t.now, [PushEdge(t.now, True)])
    t.now += 3_100 * MS
    loop.pump(t.now)
    t.now += 100 * MS
    loop.pump(t.now, [PushEdge(t.now, False)])
    assert loop.menu.is_open and loop.menu.view()["page"] == "game"


def select(loop, t, label: str) -> None:
    """Turn the knob until the highlighted item starts with `label` (from the top of the page)."""
    for _ in range(loop.menu.view()["index"]):
        key(loop, t, UP)
    for _ in range(20):
        v = loop.menu.view()
        if v["items"][v["index"]].startswith(label):
            return
        key(loop, t, DOWN)
    raise AssertionError(f"no item {label!r} on {loop.menu.view()}")


def change(loop, t, setting: str) -> None:
    """On the game menu: Settings, change `setting` by one step, back to the game menu."""
    select(loop, t, "Settings")
    key(loop, t, CLICK)
    if setting == "players":
        select(loop, t, "Clear players")
        key(loop, t, CLICK)
    else:
        select(loop, t, {"event": "Event", "round": "Round", "table": "Table", "level": "Level",
                         "stage": "Stage"}[setting])
        key(loop, t, CLICK)
        key(loop, t, UP if setting == "level" else DOWN)  # level: secondary -> primary (the list's end)
        key(loop, t, CLICK)
    key(loop, t, BACK)  # SETTINGS -> GAME
    assert loop.menu.view()["page"] == "game"


def leave_menu(loop, t) -> None:
    """The game menu's Resume."""
    v = loop.menu.view()
    for _ in range(v["index"]):
        key(loop, t, UP)
    assert loop.menu.view()["items"][0] == "Resume"
    key(loop, t, CLICK)
    assert not loop.menu.is_open


# The expected record info after each setting's one step (worked by hand from the menu's lists):
# the event 1 -> 2 (the knob's number replaces the pairing's name), round 1 -> 2, table 1 -> 2, level
# secondary -> primary, stage qualifying -> last, the players cleared.
CHANGED = {"event": ("event", "2"), "round": ("round", 2), "table": ("table", 2), "level": ("level", "primary"),
           "stage": ("stage", "last"), "players": ("players", {"left": None, "right": None})}
# Left 550, right 250: a margin of 300, capped by XW-8: secondary 250 (the last qualifying game 200),
# primary Crossword 100. What the spread shows is the level and stage the record has.
SPREAD = {"level": 100, "stage": 200}
LINES = {"event": ["event 2"], "round": ["round 2"], "table": ["table 2"], "level": ["level primary"],
         "stage": ["stage last"], "players": ["player left", "player right"]}
POINTS = ("ready", "pause", "before-entry", "after-entry", "after-one-confirmation")


def play(loop, t, setting: str, point: str) -> dict:
    """One Crossword game at table 1 (the pairing's), with `setting` changed on the menus at `point`;
    returns the record the loop put in the outbox."""
    loop.settings.level = "secondary"
    t.now += 2 * S
    loop.pump(t.now, [Pairing(t.now, PAIRING)])
    loop.start_preset("crossword")
    t.now += 5 * S  # the game's time 0 is not the session's: the record counts from the game's
    if point == "ready":
        key(loop, t, CLICK)  # at READY a push opens the game menu
        change(loop, t, setting)
        leave_menu(loop, t)
    press(loop, t, 0)  # left starts right's clock
    t.now += 20 * S
    press(loop, t, 1)
    t.now += 30 * S
    pause(loop, t)
    unlock(loop, t)
    if point == "pause":
        change(loop, t, setting)
    select(loop, t, "End game")
    key(loop, t, CLICK)
    select(loop, t, "Yes")
    key(loop, t, CLICK)
    assert loop.result is not None and loop.state.phase == core.FINISHED
    if point == "before-entry":
        key(loop, t, BACK)  # out of the left score's edit (the entry opens in it; there a long push keeps it)
        key(loop, t, LONG_CLICK)  # the game menu from the result entry
        change(loop, t, setting)
        leave_menu(loop, t)
    t.now += S
    assert loop.enter(["score", "left", "550"], t.now), loop.message
    assert loop.enter(["score", "right", "250"], t.now), loop.message
    if point == "after-entry":
        key(loop, t, LONG_CLICK)
        change(loop, t, setting)
        leave_menu(loop, t)
    while loop.result.index < len(loop.result.items) - 1:  # to "Confirm >" (a visit to the menu left
        key(loop, t, DOWN)                                 # the cursor where it was)
    key(loop, t, CLICK)  # up for confirmation
    assert loop.result.stage == "review"
    press(loop, t, 0)  # left confirms
    if point == "after-one-confirmation":
        key(loop, t, LONG_CLICK)
        change(loop, t, setting)
        leave_menu(loop, t)
        # what left confirmed has changed: both confirm again
        assert loop.result.entry.confirmed == (False, False)
        press(loop, t, 1)
        assert loop.record is None, "right's confirmation alone saved a result left has not seen"
        press(loop, t, 0)
    else:
        press(loop, t, 1)
    assert loop.record is not None, loop.message
    assert loop.journal.writer.flush(5)
    return loop.record


def replayed(state: Path, rid: str) -> tuple[dict, dict]:
    """The game's record built again from its journal: by `gameclock replay`'s code (the journal as a
    log) and by the clock's own rebuild (a damaged outbox record)."""
    serial, _, number = rid.rpartition("-")
    text = (state / "games" / f"{int(number):06d}.log").read_bytes().decode("utf-8")
    by_replay = record_from_log(_journal_as_log(text, "journal"), "journal", serial, int(number))
    return by_replay, rebuild(state, rid)


def same(a: dict, b: dict) -> None:
    """Two builds of one record agree in everything but the wall-clock start and end (the journal's
    `wallclock` lines give them to the millisecond of the line, not of the press: persist/rebuild.py)."""
    a, b = dict(a), dict(b)
    for k in ("started", "ended"):
        a.pop(k), b.pop(k)
    assert a == b


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("setting", list(CHANGED))
def test_a_setting_changed_during_the_game_is_in_its_journal_and_its_record(presets, tmp_path, setting, point):
    loop, journal, t = boot(presets, tmp_path)
    record = play(loop, t, setting, point)
    key_, value = CHANGED[setting]
    assert record[key_] == value, f"the record's {key_} is not what the arbiter set"
    # XW-8 (secondary 250, last game 200, primary 100): the spread follows the level and stage set
    cap = SPREAD.get(setting, 250)
    assert record["scores"]["spread"] == {"left": cap, "right": -cap}
    assert record["confirmed"] and schema_errors(record) == []
    stored = json.loads((tmp_path / "outbox" / f"{record['id']}.json").read_text(encoding="utf-8"))
    by_replay, rebuilt = replayed(tmp_path, record["id"])
    same(stored, by_replay)
    same(stored, rebuilt)
    lines = [decode(raw) for raw in (tmp_path / "games" / f"{int(record['id'][-6:]):06d}.log")
             .read_bytes().split(b"\n")[:-1]]
    timed = [" ".join(ln.split()[1:]) for ln in lines if ln[0].isdigit()]
    if point == "ready":  # nothing pressed yet: the game's header is written again (its lines say it)
        assert not any(line in timed for line in LINES[setting])
    else:
        for line in LINES[setting]:
            assert line in timed, f"no {line!r} in the journal: {timed}"
    if point == "after-one-confirmation":  # CL-5: both confirm what the record holds, after the change
        entries = [e["line"] for e in record["entries"]]
        first, last = (f(entries.index(line) for line in LINES[setting]) for f in (min, max))
        assert entries[first - 1] == "confirm left"
        assert entries[last + 1:] == ["confirm right", "confirm left"]


def test_killed_after_the_change_the_restarted_clock_saves_what_the_journal_says(presets, tmp_path):
    """The issue's case: scores entered, left confirms, Settings -> Round -> 2, then the clock is killed
    (kill -9 after the writer caught up) and started again: the restored result entry has the round
    line and no confirmation; both confirm; the record says round 2 and so does its journal."""
    loop, journal, t = boot(presets, tmp_path)
    loop.settings.level = "secondary"
    loop.pump(t.now, [Pairing(t.now, PAIRING)])
    loop.start_preset("crossword")
    t.now += 5 * S
    press(loop, t, 0)
    t.now += 20 * S
    pause(loop, t)
    unlock(loop, t)
    select(loop, t, "End game")
    key(loop, t, CLICK)
    select(loop, t, "Yes")
    key(loop, t, CLICK)
    assert loop.enter(["score", "left", "550"], t.now) and loop.enter(["score", "right", "250"], t.now)
    key(loop, t, CLICK)
    press(loop, t, 0)
    key(loop, t, LONG_CLICK)
    change(loop, t, "round")
    leave_menu(loop, t)
    assert journal.writer.flush(5)  # then kill -9

    loop2, journal2, t2 = boot(presets, tmp_path, start=7 * S)  # a new process: its own monotonic clock
    assert loop2.result is not None and loop2.result.entry.confirmed == (False, False)
    assert loop2.settings.round == 2
    press(loop2, t2, 1)
    assert loop2.record is None
    key(loop2, t2, CLICK)  # the restored entry is on Confirm: up for confirmation again
    press(loop2, t2, 1)
    press(loop2, t2, 0)
    assert loop2.record is not None and loop2.record["round"] == 2
    assert journal2.writer.flush(5)
    stored = json.loads((tmp_path / "outbox" / f"{loop2.record['id']}.json").read_text(encoding="utf-8"))
    by_replay, rebuilt = replayed(tmp_path, loop2.record["id"])
    same(stored, by_replay)
    same(stored, rebuilt)
    assert by_replay["round"] == 2


# ------------------------------------------------------------------------------ the daemon killed
GAMECLOCK = Path(sys.executable).with_name("gameclock")


class Daemon:
    """`gameclock run --sim-pins` on a state folder, its keys written to its stdin one at a time, each
    waited for on its displays (`--display png`: frames.log has a line per frame, the menu's
    highlighted item in it)."""

    def __init__(self, state: Path, frames: Path):
        env = {k: v for k, v in os.environ.items()
               if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY", "LG_WD",
                            "GPIOZERO_PIN_FACTORY", "GAMECLOCK_WIRING")}
        self.frames = frames / "frames.log"
        self.log = frames.parent / f"{frames.name}.log"
        self._out = open(self.log, "wb")
        self.proc = subprocess.Popen(
            [str(GAMECLOCK), "run", "--sim-pins", "--display", "png", str(frames), "--state-dir", str(state),
             "--preset", "crossword", "--keys", "-"],
            env=env, stdin=subprocess.PIPE, stdout=self._out, stderr=subprocess.STDOUT)

    def lines(self) -> list[str]:
        return self.frames.read_text(encoding="utf-8").splitlines() if self.frames.exists() else []

    def wait(self, text: str, timeout: float = 20.0) -> str:
        """The newest frame once it holds `text`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.lines()
            if lines and text in lines[-1]:
                return lines[-1]
            assert self.proc.poll() is None, self.log.read_text(errors="replace")
            time.sleep(0.02)
        pytest.fail(f"no {text!r} on the displays; the last frames:\n" + "\n".join(self.lines()[-5:]))

    def key(self, ch: str, then: str | None = None) -> str:
        """One key; waits for the frame it makes (and, if given, for `then` in it)."""
        n = len(self.lines())
        self.proc.stdin.write(ch.encode())
        self.proc.stdin.flush()
        deadline = time.monotonic() + 10
        while len(self.lines()) <= n and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.12)  # the finger lifted: past the buttons' debounce windows
        return self.wait(then) if then else self.lines()[-1]

    def turn_to(self, item: str, ch: str = "k") -> None:
        """Turn the knob until the menu highlights `item`."""
        for _ in range(20):
            if f": {item} |" in self.lines()[-1]:
                return
            self.key(ch)
        pytest.fail(f"no menu item {item!r}: " + self.lines()[-1])

    def stop(self, sig: int) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(10)
        finally:
            self._out.close()
            with contextlib.suppress(OSError):
                self.proc.stdin.close()


def test_gameclock_run_killed_after_the_change_keeps_it_in_the_journal_and_the_record(tmp_path):
    """The issue's case on the real daemon: scores entered, left confirms, long push -> Settings ->
    Round -> 2 -> Resume, then SIGKILL. Started again, the result waits for both confirmations (the
    change cleared left's); once both confirm, the outbox record says round 2 and so do
    `gameclock replay` of the game's journal and the clock's own rebuild of it."""
    state = tmp_path / "state"
    state.mkdir()
    # XW-8: the Crossword game's level is part of its set-up (Settings > Level), kept in settings.json
    (state / "settings.json").write_text('{"level": "secondary"}', encoding="utf-8")
    first = Daemon(state, tmp_path / "run1")
    try:
        first.wait("| ready |")
        first.key("z")                               # right's clock runs
        time.sleep(1.0)
        first.key(" ", "paused")
        first.key("h", "MENU GAME: Resume")          # the arbiter's unlock (3 s)
        first.turn_to("End game")
        first.key("\r")
        first.turn_to("Yes")
        first.key("\r", "RESULT")
        for turns in ("kkkkk", "kkkkk", "", "kk", "kkkkk", ""):  # 550, then 250, digit by digit
            for ch in turns:
                first.key(ch)
            first.key("\r")
        first.key("\r", "PRESS TO CONFIRM")           # Confirm: up for confirmation
        first.key("z", "OK - WAIT FOR R")             # left confirms
        first.key("l", "MENU GAME: Resume")          # a long push: the game menu
        first.turn_to("Settings")
        first.key("\r")
        first.turn_to("Round 1")
        first.key("\r", "Round [1]")
        first.key("k", "Round [2]")
        first.key("\r", "Round 2")
        first.key("b", "MENU GAME")
        first.turn_to("Resume", "j")
        shown = first.key("\r", "PRESS TO CONFIRM")
        assert shown.count("PRESS TO CONFIRM") == 2, shown  # left's confirmation is gone: both are asked again
        time.sleep(0.5)                               # the journal's writer has it on the card
        assert first.stop(signal.SIGKILL) == -signal.SIGKILL

        second = Daemon(state, tmp_path / "run2")
        try:
            second.wait("RESULT")
            second.key("\r", "PRESS TO CONFIRM")     # the restored entry is on Confirm
            second.key("m", "OK - WAIT FOR L")
            second.key("z", "RESULT SAVED")
            deadline = time.monotonic() + 10
            while not list((state / "outbox").glob("*.json")) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert second.stop(signal.SIGTERM) == 0
        finally:
            second.stop(signal.SIGKILL)
    finally:
        first.stop(signal.SIGKILL)
    (rid,) = [p.stem for p in (state / "outbox").glob("*.json")]
    stored = json.loads((state / "outbox" / f"{rid}.json").read_text(encoding="utf-8"))
    assert stored["round"] == 2 and stored["confirmed"]
    # XW-8 secondary, qualifying: 550 - 250 = 300, capped at 250
    assert stored["scores"]["spread"] == {"left": 250, "right": -250}
    entries = [e["line"] for e in stored["entries"]]
    assert entries == ["score left 550", "score right 250", "confirm left", "round 2", "confirm right",
                       "confirm left"]
    journal = state / "games" / f"{int(rid[-6:]):06d}.log"
    out = subprocess.run([str(GAMECLOCK), "replay", str(journal)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert shown["info"]["round"] == "2" and shown["result"]["confirmed"] is True
    by_replay, rebuilt = replayed(state, rid)
    same(stored, by_replay)
    same(stored, rebuilt)
