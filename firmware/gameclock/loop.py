"""The one event-loop thread: it alone owns the clock state, the menu, rendering and the buzzer.

    while running:
        item = inbox.get(timeout=until the next wake)   # no sleep loops, no tick counting
        apply what came (sorted by stamp), fire due timers, render if the picture changed

Adapters only stamp and enqueue `gameclock.ui.keys` inputs (`PlayerButton`, `PauseButton`, `Key`,
`PushEdge`, `Quit`), with monotonic integer ns stamps (`at_ns`). The loop turns them into core events
in *session time*: ns since the loop's zero (`zero_ns`, taken when the loop is made), so event logs
and journals never hold raw monotonic values. Wake-ups come from the core's `next_wake` (a digit
changes, an alert, a flag fall) and from the knob's long-press timer.

Chess-clock start: at ready, the first press of a player's button starts the OTHER side's clock
(`Start(side=other)`); later presses are `Press`. The pause button toggles `Pause`/`Resume`.
The menu is locked while a game is under way (running or paused); the arbiter unlocks it during a
pause by holding the knob pushed for 3 s (`menus.UnlockGesture`; hw/README.md); it locks again when
the menu closes. At ready and after the game's end it opens with a click. Per-move presets: holding
the knob while a clock runs grants the mover extra time (MH-3).

Settings (`menus.Settings`: mute, brightness, event/round/table, the custom preset's times) are
edited in the menu, applied to the sinks that offer `set_mute(bool)` / `set_contrast(0-255)`, and
kept by an optional `settings_store` (`menus.SettingsStore`, a JSON file in the state folder).

Result entry (CL-5): once the game is over (finish, flag fall, per-move expiry: `watch_end`) the
knob and the player buttons go to a `ui.resultentry.ResultEntry` (the menu still opens with a
LONG_CLICK); each accepted line (`score left 412`, `confirm right`, ...) is kept in `entries` as
(session ns, words) by `enter`; when both players have confirmed, `record.build_record` makes the
result record (with `started_wall` / `ended_wall`, taken from `wall` at the game's start and end), the
loop hands it to `outbox.put`, beeps and shows RESULT SAVED.

Pairings (issue 6): the dock thread enqueues a `Pairing` (event, round, table, the players' names) from
the organiser's PC. With no game under way (none yet, a game at ready that nobody has pressed, or one
whose result is saved) it applies at once: the settings' event/round/table and `players` (kept in
settings.json), so `record_info` -- the journal's header lines (`player left NAME`) and the result
record -- carry them; a game at ready gets a new journal with the new header. During a game it is
held (`settings.next_pairing`, the message line says "next: ...") and applied by the next `new_game`.
The ready and paused screens show each side's name on their bottom line.

Sinks: `display.show(frame)` with a `Frame` (two 128x64 mode "1" images plus plain-text captions),
`buzzer.beep(alert, text)` once per new core alert. The Pi issue only adds real sinks/adapters.
"""
from __future__ import annotations

import dataclasses
import logging
import queue
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from PIL import Image

from gameclock.core import clock as core
from gameclock.core.control import PER_MOVE
from gameclock.core.display import format_remaining
from gameclock.core.events import (CountEnd, CountStart, CountStop, Event, Extend, Finish, Pause, Press,
                                   Resume, Start)
from gameclock.core.result import EntryError
from gameclock.dock.pairing import PairingError, check_pairing
from gameclock.inbox import DockUpdate
from gameclock.gamelog import preset_scoring
from gameclock.record import build_record, known_level
from gameclock.ui import menu as menus
from gameclock.ui import resultscreens
from gameclock.ui import screens
from gameclock.ui.keys import BACK, CLICK, LONG_CLICK, LONG_PRESS_NS, ClickTimer
from gameclock.inbox import Input, Key, Pairing, PauseButton, PlayerButton, PushEdge, Quit
from gameclock.ui.resultentry import SAVED as RESULT_SAVED
from gameclock.ui.resultentry import Reply, ResultEntry

SIDES = ("left", "right")
UNLOCK_HOLD_NS = 3_000_000_000  # the arbiter's gesture: the knob held pushed this long, game paused
LOCKED_MESSAGE = "menu locked during a game (arbiter: pause, hold the knob 3 s)"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Frame:
    """What both displays show. Images: 128x64 mode "1". Captions: plain text under each screen."""
    left: Image.Image
    right: Image.Image
    captions: tuple[str, str]
    info: str
    message: str = ""

    def key(self) -> tuple:
        return (self.left.tobytes(), self.right.tobytes(), self.captions, self.info, self.message)


def info_of(s: menus.Settings) -> dict:
    """The record info of settings `s` (Loop.record_info): event (a pairing's event name, else the
    number), round, table; the players when known; level and stage when not the defaults."""
    info = {"event": s.event_name or s.event, "round": s.round, "table": s.table}
    if s.players:
        info["players"] = dict(s.players)
    if s.level:  # XW-8's cap level; absent: the rule file's default
        info["level"] = s.level
    if s.stage != "qualifying":  # XW-8: the last qualifying game, the final
        info["stage"] = s.stage
    return info


def with_pairing(s: menus.Settings, p: dict) -> None:
    """Pairing `p` (checked: dock.pairings.check_pairing) into settings `s`. An event that is a
    number 1..99 is the Event setting, any other word its name; None keeps the event."""
    event = p["event"]
    if event is not None:
        number = int(event) if event.isascii() and event.isdigit() else None
        if number is not None and menus.FIELDS["event"].valid(number):
            s.event, s.event_name = number, ""
        else:
            s.event_name = event
    s.round, s.table = p["round"], p["table"]
    s.players = dict(p["players"]) if any(p["players"].values()) else None


class DisplaySink(Protocol):
    def show(self, frame: Frame) -> None: ...


class BuzzerSink(Protocol):
    def beep(self, alert: dict, text: str) -> None: ...


class MemoryOutbox(list):
    """The outbox when none is given (simulator, tests): confirmed records in memory only."""

    def put(self, record: dict) -> bool:
        self.append(record)
        return True


class Timer(Protocol):
    """Something the loop wakes for besides the clock (watchdog ping, buzzer pattern steps).
    Times are monotonic ns; both methods run on the loop thread."""

    def next_wake(self) -> int | None: ...

    def fire(self, now_ns: int) -> None: ...


@dataclass(repr=False)
class Loop:
    """presets: objects with .id .name .short .control_for(tiebreak) (gameclock.rules.loader.Preset)."""
    inbox: "queue.Queue[Input]"
    presets: Sequence
    display: DisplaySink
    buzzer: BuzzerSink
    clock: Callable[[], int] = time.monotonic_ns
    long_press_ns: int = LONG_PRESS_NS
    zero_ns: int | None = None
    # --- owned state (loop thread only) ---
    preset: object = None
    game_no: int = 1       # the game's number in its match
    tiebreak: int = 0      # MH-4: its tie-break step (0: a game of the match)
    state: core.Clock | None = None
    events: list[Event] = field(default_factory=list)  # the current game's log, session ns
    message: str = ""
    running: bool = True
    timers: list = field(default_factory=list)  # Timer objects (watchdog, buzzer schedule)
    settings: menus.Settings | None = None  # None: the store's, else the defaults
    settings_store: object = None  # menus.SettingsStore (load() / save(settings)) or None
    unlock_hold_ns: int = UNLOCK_HOLD_NS
    # --- the result record (CL-5) ---
    outbox: object = None  # put(record: dict): confirmed results (None: a MemoryOutbox)
    sequence: object = None  # allocate() -> int, the record's sequence number (None: counted here)
    clock_serial: str = "sim"  # the record id's prefix
    wall: Callable[[], float] = time.time  # wall clock: only the record's start and end use it
    journal: object = None  # gameclock.persist.journal.Journal (gameclock run): accepted events journaled
    dock: object = None  # gameclock.device.dock.DockThread (set_busy), when the clock has a dock port

    def __post_init__(self) -> None:
        if self.zero_ns is None:
            self.zero_ns = self.clock()
        if self.settings is None:
            self.settings = self.settings_store.load() if self.settings_store else menus.Settings()
        self.menu = menus.Menu([(p.id, p.name) for p in self.presets], settings=self.settings)
        self.click = ClickTimer(self.long_press_ns)
        self.unlock = menus.UnlockGesture(self.unlock_hold_ns)
        self.unlocked = False  # the arbiter's gesture opened the menu of a game under way
        self.apply_settings()
        self._seen_alerts: set = set()
        self._last_frame: tuple | None = None
        self.frame: Frame | None = None
        self.beeps: list[str] = []
        if self.outbox is None:
            self.outbox = MemoryOutbox()
        self.entries: list[tuple[int, list[str]]] = []  # the game's result lines: (session ns, words)
        self.result: ResultEntry | None = None  # the result entry, from the game's end on
        self.started_wall: float | None = None  # wall-clock start and end of the game (the record's)
        self.ended_wall: float | None = None
        self.record: dict | None = None  # the last record handed to the outbox
        self.record_error = ""  # why the outbox refused it (shown instead of RESULT SAVED)
        self._records_made = 0
        self.dock_status = None  # the dock's last DockStatus (DOCKED, progress), from DockUpdate inputs
        self._dock_beep = False  # everything is sent: beep once the clocks are not running

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        """Serve the inbox until a `Quit`. Call from the thread that owns this loop."""
        self.refresh(self.clock())
        while self.running:
            try:
                first = [self.inbox.get(timeout=self.timeout(self.clock()))]
            except queue.Empty:
                first = []
            self.pump(self.clock(), first)

    def pump(self, now_ns: int, items: Sequence[Input] = ()) -> None:
        """One turn: take `items` and whatever else is queued, apply them in stamp order, fire due
        timers, render and beep as of `now_ns` (monotonic). Tests call this with a chosen time."""
        batch = list(items)
        while True:
            try:
                batch.append(self.inbox.get_nowait())
            except queue.Empty:
                break
        for item in sorted(batch, key=lambda i: i.at_ns):
            self.handle(item)
        self.expire(now_ns)
        self.watch_end(now_ns)
        self._dock_turn()
        self.refresh(now_ns)

    def timeout(self, now_ns: int) -> float | None:
        """Seconds until the next wake (None: nothing will happen by itself)."""
        wake = self.next_wake()
        return None if wake is None else max(0.0, (wake - now_ns) / 1e9)

    def next_wake(self) -> int | None:
        """Monotonic ns of the earliest wake: the core, the knob's timers, the registered Timers."""
        wakes = [w for w in (self.core_wake(), self.click.next_wake(), self.unlock.next_wake(),
                             *(t.next_wake() for t in self.timers))
                 if w is not None]
        return min(wakes) if wakes else None

    def core_wake(self) -> int | None:
        """Monotonic ns of the core's next self-driven change (None if none)."""
        if self.state is None or self.menu.is_open:
            return None
        rel = core.next_wake(self.state, max(self.state.now_ns, self.clock() - self.zero_ns))
        return None if rel is None else rel + self.zero_ns

    # ------------------------------------------------------------------ inputs
    def handle(self, item: Input) -> None:
        if isinstance(item, Quit):
            self.running = False
        elif isinstance(item, PlayerButton):
            self._player(item)
        elif isinstance(item, PauseButton):
            self._pause(item)
        elif isinstance(item, Key):
            self.key(item.key, item.at_ns)
        elif isinstance(item, DockUpdate):
            was_done = self.dock_status is not None and self.dock_status.done
            self.dock_status = item.status
            self._dock_beep = self._dock_beep or (item.status.done and not was_done and item.status.sent > 0)
        elif isinstance(item, PushEdge):
            self.unlock.edge(item.at_ns, item.down, arm=item.down and self._may_unlock(item.at_ns))
            k = self.click.edge(item.at_ns, item.down)
            if k:
                self.key(k, item.at_ns)
        elif isinstance(item, Pairing):
            self.pairing(item.pairing)

    def _running(self) -> bool:
        return self.state is not None and self.state.phase == core.RUNNING

    def _dock_turn(self) -> None:
        """Docking never disturbs a game: while a side's clock runs the dock starts no upload, the
        screens show nothing of it and the all-sent beep waits for the clocks to stop."""
        running = self._running()
        if self.dock is not None:
            self.dock.set_busy(running)
        if self._dock_beep and not running:
            self._dock_beep = False
            self.beeps.append("ALL SENT")
            self.buzzer.beep({"kind": "upload-done"}, "ALL SENT")

    def dock_tag(self) -> str:
        """The dock's status-line tag (DOCK 3/12, DOCK OK, ...); "" while a side's clock runs."""
        if self.dock_status is None or self._running():
            return ""
        return self.dock_status.tag()

    def expire(self, now_ns: int) -> None:
        """Fire due timers (the knob's LONG_CLICK, the unlock gesture, then the registered Timers)."""
        k = self.click.expire(now_ns)
        if k:
            self.key(k, now_ns)
        due = self.unlock.next_wake()
        if self.unlock.expire(now_ns) and self._may_unlock(due):
            self.unlocked = True
            self._open_game_menu(self._phase(due))
            self.message = "menu unlocked (arbiter)"
        for timer in self.timers:
            due = timer.next_wake()
            if due is not None and due <= now_ns:
                timer.fire(now_ns)

    def _player(self, item: PlayerButton) -> None:
        if self.state is None or self.menu.is_open:
            return
        self.watch_end(item.at_ns)
        if self.result is not None:  # a player's button confirms the result
            self._result_reply(self.result.player(item.side), item.at_ns)
            return
        if self.state.phase == core.READY:
            self.apply(Start, item.at_ns, side=1 - item.side)  # your button starts the opponent
        else:
            self.apply(Press, item.at_ns, side=item.side)

    def _pause(self, item: PauseButton) -> None:
        if self.state is None or self.menu.is_open:
            return
        phase = self._phase(item.at_ns)
        if phase == core.RUNNING:
            self.apply(Pause, item.at_ns)
        elif phase == core.PAUSED:
            self.apply(Resume, item.at_ns)

    def key(self, key: str, at_ns: int) -> None:
        """A semantic key (UP/DOWN/CLICK/LONG_CLICK/BACK) at monotonic `at_ns`."""
        self.message = ""
        if self.menu.is_open:
            action = self.menu.key(key)
            if action is not None:
                self._do(action, at_ns)
            if not self.menu.is_open:
                self.unlocked = False  # the arbiter's unlock lasts until the menu closes
            return
        if self.state is None:
            self.menu.open_presets()
            return
        self.watch_end(at_ns)
        if self.result is not None:
            self._result_key(key, at_ns)
            return
        phase = self._phase(at_ns)
        self.menu.locked = self._locked(phase)
        if phase == core.RUNNING:
            per_move = self.state.control.mode == PER_MOVE
            if key == LONG_CLICK and per_move:
                self._extend(at_ns)
            elif key in (CLICK, BACK, LONG_CLICK):
                self.message = "menu locked while a clock runs: pause first" + (
                    " (hold the knob: extra time for the mover)" if per_move else "")
            return
        if key in (CLICK, BACK, LONG_CLICK):
            if self.menu.locked:
                self.message = LOCKED_MESSAGE
            else:
                self._open_game_menu(phase)

    def _open_game_menu(self, phase: str) -> None:
        self.menu.locked = False
        counting = self.state.counting
        self.menu.open_game_menu(preset_id=self.preset.id, started=phase != core.READY,
                                 over=phase in (core.FLAGGED, core.FINISHED),
                                 has_next=self.preset.id != menus.CUSTOM_ID,
                                 counts=getattr(self.preset, "counts", ()),
                                 counting=counting.kind if counting is not None else None,
                                 has_tiebreak=getattr(self.preset, "event", None) == "makhos")

    def _locked(self, phase: str) -> bool:
        """The menu is locked while a game is under way: running, or paused unless unlocked."""
        return phase == core.RUNNING or (phase == core.PAUSED and not self.unlocked)

    def _may_unlock(self, at_ns: int) -> bool:
        """A held knob push may unlock now: a game is paused, its menu closed and locked."""
        return (self.state is not None and not self.menu.is_open and not self.unlocked
                and self._phase(at_ns) == core.PAUSED)

    def _extend(self, at_ns: int) -> None:
        """MH-3 on the knob: a LONG_CLICK while a per-move clock runs grants the mover extra time (a
        hold, so that a stray push cannot); the option is the one already chosen, else the first."""
        options = self.state.control.extension_options
        if not options:
            self.message = "this preset has no extra time"
            return
        v = core.view(self.state, max(self.state.now_ns, self._rel(at_ns)))
        side = v["running"]
        chosen = v["sides"][side].get("extension_option")
        opt = next((o for o in options if chosen == f"{o.count}x{format_remaining(o.time_ns)}"),
                   options[0])
        self.apply(Extend, at_ns, side=SIDES.index(side), time_ns=opt.time_ns)

    def _do(self, action: menus.Action, at_ns: int) -> None:
        if action.kind == menus.START:
            preset = self.preset_by_id(action.preset_id)
            if getattr(preset, "tiebreak_games", False):
                # MH-4, MH-7(3): a tie-break preset's first game is step 1, numbered after the match's
                # games (game 5 after a 4-game match), so a pairing's games never share a number
                self.new_game(action.preset_id, preset.standings.match_games + 1, 1)
            else:
                self.new_game(action.preset_id, 1, 0)
        elif action.kind == menus.NEW_GAME:
            self.new_game(self.preset.id, self.game_no, self.tiebreak)
        elif action.kind == menus.NEXT_GAME:  # MH-4: a match's games all have its time; a tie-break goes on
            self.new_game(self.preset.id, self.game_no + 1, self.tiebreak + 1 if self.tiebreak else 0)
        elif action.kind == menus.TIEBREAK_GAME:
            self.new_game(self.preset.id, self.game_no + 1, self.tiebreak + 1)
        elif action.kind == menus.FINISH:
            self.menu.close()
            self.apply(Finish, at_ns)
            self.watch_end(at_ns)
        elif action.kind == menus.CLOSE:
            self.menu.close()
        elif action.kind == menus.COUNT:
            self._count(action.preset_id, at_ns)
        elif action.kind == menus.SETTING:
            self.apply_settings()
            self.save_settings()
            if action.preset_id in ("level", "stage"):
                self._result_cap_changed(at_ns)
        elif action.kind == menus.CLEAR_PLAYERS:
            changed = self.settings.players is not None
            self.settings.players = self.settings.next_pairing = None
            self.save_settings()
            if changed:
                self._reheader_ready()
            self.message = "players cleared"

    def _count(self, what: str, at_ns: int) -> None:
        """A count from the game menu (MR-4..MR-8, MH-6): "board left", "makhos right", "pieces" (the
        PIECES page's values), "end" (MH-6) or "stop"; back to the clock screens when the core accepts it."""
        if what == "end":
            ok = self.apply(CountEnd, at_ns)
        elif what == "stop":
            ok = self.apply(CountStop, at_ns)
        elif what == "pieces":
            e = self.menu.count_entry
            # MR-6: the board holds the two kings and the attacker's pieces
            ok = self.apply(CountStart, at_ns, kind="pieces", side=SIDES.index(e.count_side),
                            attacker=e.attacker, on_board=2 + len(e.attacker))
        else:
            kind, side = what.split()
            ok = self.apply(CountStart, at_ns, kind=kind, side=SIDES.index(side))
        if ok:
            self.menu.close()
            self.unlocked = False

    # ------------------------------------------------------------------ settings
    def apply_settings(self) -> None:
        """Mute and brightness to the sinks that offer them."""
        if hasattr(self.buzzer, "set_mute"):
            self.buzzer.set_mute(self.settings.mute)
        if hasattr(self.display, "set_contrast"):
            self.display.set_contrast(menus.contrast(self.settings.brightness))

    def save_settings(self) -> None:
        if self.settings_store is None:
            return
        try:
            self.settings_store.save(self.settings)
        except OSError as exc:  # the clock keeps going with the new values; they just won't survive
            log.warning("settings not saved: %s", exc)
            self.message = f"settings not saved: {exc.strerror or exc}"

    @property
    def record_info(self) -> dict:
        """Event, round and table as set in the menu or by a pairing, and the pairing's players (for
        the game's result record, CL-5, and the journal's header lines)."""
        return info_of(self.settings)

    # ------------------------------------------------------------------ pairings (issue 6)
    def pairing(self, pairing: dict) -> None:
        """A pairing from the organiser's PC (a `Pairing` input): applied now when no game is under
        way, else held for the next game. A bad one is refused (logged, on the message line)."""
        try:
            p = check_pairing(pairing)
            for key in ("round", "table"):
                if not menus.FIELDS[key].valid(p[key]):
                    raise PairingError(f"{key} {p[key]} is more than {menus.FIELDS[key].hi}")
        except PairingError as exc:
            log.warning("pairing refused: %s", exc)
            self.message = f"pairing refused: {exc}"
            return
        what = f"R{p['round']} T{p['table']} {menus.players_text(p['players'])}"
        if self.game_under_way():
            if self._pairing_info(p) == self.record_info:  # the game's own pairing again
                self.settings.next_pairing = None
            else:
                self.settings.next_pairing = p
                log.info("pairing held for the next game: %s", what)
            self.save_settings()
            return
        self.settings.next_pairing = None
        changed = self._apply_pairing(p)
        self.save_settings()
        if changed:
            log.info("pairing: %s", what)
            self._reheader_ready()
            self.message = f"pairing: {what}"

    def game_under_way(self) -> bool:
        """A game has begun and its result is not saved yet: a pairing waits for the next game."""
        if self.state is None:
            return False
        if self.result is not None:
            return self.record is None  # built (saved, or kept when the outbox refused it): done
        return bool(self.events) or self.state.phase != core.READY

    def _pairing_info(self, p: dict) -> dict:
        """record_info as it would be with pairing `p` applied (on a copy: the dock thread reads
        record_info for its hello, so the settings never hold what is not applied)."""
        s = dataclasses.replace(self.settings)
        with_pairing(s, p)
        return info_of(s)

    def _apply_pairing(self, p: dict) -> bool:
        """Pairing `p` (checked) into the settings; True if the record info changed."""
        before = self.record_info
        with_pairing(self.settings, p)
        return self.record_info != before

    def _reheader_ready(self) -> None:
        """The game at ready (nothing pressed) gets a new journal whose header is the record info as
        it is now (the old file is closed `abandoned`), so a crash from here on restores the game
        with the pairing's names."""
        if self.journal is None or self.state is None or self.game_under_way() or self.result is not None:
            return
        self.journal.begin_game(self._journal_header(), self._rel(self.clock()))

    def _journal_header(self) -> dict:
        tb = {"tiebreak": self.tiebreak} if self.tiebreak else {}
        return {"preset": self.preset.id, "game": self.game_no, **tb, **self.record_info}

    def next_text(self) -> str:
        """The pairing held for the next game, for the message line: "next: R3 T5 A v B" ("": none)."""
        p = self.settings.next_pairing
        return f"next: R{p['round']} T{p['table']} {menus.players_text(p['players'])}" if p else ""

    def preset_by_id(self, preset_id: str):
        """An event preset, or the custom preset of the current settings (menus.CUSTOM_ID)."""
        if preset_id == menus.CUSTOM_ID:
            return menus.custom_preset(self.settings)
        return next(p for p in self.presets if p.id == preset_id)

    # ------------------------------------------------------------------ game state
    def new_game(self, preset_id: str, game_no: int = 1, tiebreak: int = 0) -> None:
        """A fresh game at ready with preset `preset_id`: game `game_no` of its match, at tie-break step
        `tiebreak` (MH-4: 0 for the match's games, which all have the regular time)."""
        preset = self.preset_by_id(preset_id)
        if self.settings.next_pairing:  # a pairing that came during the last game (issue 6)
            self._apply_pairing(self.settings.next_pairing)
            self.settings.next_pairing = None
            self.save_settings()
        self.preset, self.game_no, self.tiebreak = preset, game_no, tiebreak
        self.state = core.new_game(preset.control_for(tiebreak), label=preset.short, game=game_no,
                                   tiebreak=tiebreak)
        self.events = []
        self.entries, self.result, self.record, self.record_error = [], None, None, ""
        self.started_wall = self.ended_wall = None
        self._seen_alerts = set()
        self.menu.close()
        self.unlocked = False
        if self.journal is not None:  # a new journal file; its times count from now (CL-6)
            self.journal.begin_game(self._journal_header(), self._rel(self.clock()))

    def restore_game(self, preset, game_no: int, state: core.Clock, events: Sequence[Event],
                     entry=None, entries: Sequence = (), message: str = "",
                     started_wall: float | None = None, ended_wall: float | None = None) -> None:
        """A game brought back from its journal (gameclock.persist.restore): `state` is at its last
        journaled instant, which becomes session time now (so the game's times go on from there);
        its past alerts are not beeped again. A game that is over comes back in its result entry
        (`entry`, a core.result.Entry, and its `entries` lines); one both players had confirmed
        whose record had not reached the outbox is saved again (same sequence number: same id)."""
        self.preset, self.game_no, self.tiebreak = preset, game_no, state.tiebreak
        self.state, self.events = state, list(events)
        self.zero_ns = self.clock() - state.now_ns
        self.entries = [(at, list(words)) for at, words in entries]
        self.result, self.record, self.record_error = None, None, ""
        self.started_wall, self.ended_wall = started_wall, ended_wall
        self._seen_alerts = {tuple(sorted(a.items())) for a in core.view(state)["alerts"]}
        self.menu.close()
        self.unlocked = False
        self.message = message
        if state.phase in (core.FLAGGED, core.FINISHED):
            self.begin_result(entry)
            if entry is not None and entry.final:
                self._save_result(state.now_ns)

    def apply(self, kind, at_ns: int, /, **fields) -> bool:
        """Apply core event `kind(at_ns=session ns, **fields)`; a rejection becomes the message."""
        # A stamp older than the state (an edge that lost a race to the queue by microseconds)
        # is applied at the state's instant: the core's time never goes backwards.
        event = kind(at_ns=max(self._rel(at_ns), self.state.now_ns), **fields)
        try:
            new = core.apply(self.state, event)
        except core.Rejected as exc:
            self.message = str(exc)
            return False
        if new.events != self.state.events:  # the core counts effective events; a no-op (CL-2) isn't logged
            self.events.append(event)
            if self.journal is not None:
                self.journal.event(event)
        if isinstance(event, Start):
            self.started_wall = self.wall_at(event.at_ns)
        self.state = new
        return True

    def _rel(self, at_ns: int) -> int:
        return at_ns - self.zero_ns

    def _phase(self, at_ns: int) -> str:
        return core.view(self.state, max(self.state.now_ns, self._rel(at_ns)))["state"]

    # ------------------------------------------------------------------ result entry (CL-5)
    def wall_at(self, rel_ns: int) -> float:
        """The wall-clock time (`wall`, time.time()) of session instant `rel_ns`."""
        return self.wall() - (self.clock() - self.zero_ns - rel_ns) / 1e9

    def watch_end(self, at_ns: int) -> None:
        """Open the result entry once the game is over at monotonic `at_ns` (finish, flag fall,
        per-move expiry)."""
        if self.state is None or self.result is not None:
            return
        state = core.advance(self.state, max(self.state.now_ns, self._rel(at_ns)))
        if state.phase not in (core.FLAGGED, core.FINISHED):
            return
        self.state = state  # the flag fall as the core times it (advance is path-independent)
        self.ended_wall = self.wall_at(state.seg_start_ns)  # a stop starts the (idle) segment
        self.begin_result()

    def begin_result(self, entry=None) -> None:
        """The result entry of the game that is over; `entry` (core.result.Entry): what a restored
        game had entered (its lines stay in `entries`)."""
        scoring = preset_scoring(self.preset)
        self.result = ResultEntry(scoring, core.view(self.state),
                                  known_level(scoring, self.settings.level or None), self.settings.stage, entry)

    def _result_key(self, key: str, at_ns: int) -> None:
        reply = self.result.key(key, at_ns)
        if reply.menu:  # the game menu (Resume comes back to the result)
            self._open_game_menu(self.state.phase)
            return
        self._result_reply(reply, at_ns)

    def _result_reply(self, reply: Reply, at_ns: int) -> None:
        for words in reply.lines:
            if not self.enter(words, at_ns):
                return
        if self.result.message:
            self.message = self.result.message

    def enter(self, words, at_ns: int) -> bool:
        """Apply one result-entry line (`score left 412`, `confirm right`, ...; words) at monotonic
        `at_ns`. Accepted: kept in `entries` as (session ns, words), and once both players have
        confirmed, the record goes to the outbox. Refused: the reason is the message."""
        at = max(self._rel(at_ns), self.state.now_ns, self.entries[-1][0] if self.entries else 0)
        try:
            entry = self.result.apply(words)
        except EntryError as exc:
            self.message = str(exc)
            return False
        self.entries.append((at, list(words)))
        if self.journal is not None:  # result entry in progress survives a crash too (CL-6)
            self.journal.extra(at, list(words))
        if entry.final:
            self._save_result(at)
        return True

    def _save_result(self, at: int) -> None:
        """Both players confirmed: the record to the outbox, a beep, RESULT SAVED."""
        self._records_made += 1
        seq = self.sequence.allocate() if self.sequence is not None else self._records_made
        self.record = build_record(self.preset, self.record_info, self.state, self.result.entry,
                                   self.events, self.entries, self.clock_serial, seq,
                                   self.started_wall, self.ended_wall)
        try:
            self.outbox.put(self.record)
        except (OSError, ValueError) as exc:  # kept in `record`; the screens say NOT SAVED
            log.error("result %s not saved: %s", self.record["id"], exc)
            self.record_error = str(exc)
            self.message = f"RESULT NOT SAVED: {exc}"
            return
        alert = {"t_ms": at // 1_000_000, "side": None, "kind": "result-saved"}
        text = screens.alert_text(alert)
        self.beeps.append(text)
        self.buzzer.beep(alert, text)
        self.message = "RESULT SAVED"

    def _result_cap_changed(self, at_ns: int) -> None:
        """Level or stage changed in the settings: the spread cap (XW-8) shown changes, so what was
        confirmed must be confirmed again."""
        if self.result is None or self.result.stage == RESULT_SAVED:
            return
        # kept as result-entry lines (journaled: a restored game and its record keep them); a change
        # clears the confirmations
        level = known_level(self.result.scoring, self.settings.level or None)
        now = self.result.result
        if level is not None and level != now.get("level"):
            self.enter(["level", level], at_ns)
        if self.settings.stage != now.get("stage"):
            self.enter(["stage", self.settings.stage], at_ns)

    def _compose_result(self, v: dict) -> Frame:
        rv = self.result.view()
        rv["label"] = self.preset.short + screens.game_tag(self.game_no, self.tiebreak)
        if rv["stage"] == RESULT_SAVED and self.record_error:
            rv["saved_text"] = "NOT SAVED"
        return Frame(resultscreens.render_entry(rv), resultscreens.render_summary(rv, 1),
                     resultscreens.captions(rv), f"{self._info(v)} | result {rv['stage']}", self.shown_message())

    # ------------------------------------------------------------------ output
    def refresh(self, now_ns: int) -> None:
        """Render both screens; show them if anything changed; beep new alerts."""
        frame = self.compose(now_ns)
        k = frame.key()
        if k != self._last_frame:
            self._last_frame = k
            self.frame = frame
            self.display.show(frame)

    def compose(self, now_ns: int) -> Frame:
        if self.state is None and not self.menu.is_open:
            self.menu.open_presets()
        game_view = None
        if self.state is not None:
            game_view = core.view(self.state, max(self.state.now_ns, self._rel(now_ns)))
            self._beep_new(game_view)
            if self.settings.players:  # the ready and paused screens show the names (ui/screens.py)
                game_view["players"] = dict(self.settings.players)
            level = self.level_shown()
            if level:  # XW-8: the level is part of the game's set-up, shown at ready and paused
                game_view["level"] = level
        if self.menu.is_open:
            mv = self.menu.view()
            left = screens.render_menu(mv)
            pid = self.menu.selected_preset()
            if pid is not None:
                preview = self._preview(pid)
                info = f"MENU {mv['title']} {mv['index'] + 1}/{len(mv['items'])}: {pid}"
            else:
                preview = game_view
                info = f"MENU {mv['title']}: {mv['items'][mv['index']] if mv['items'] else ''}"
            right = screens.render(preview, 1) if preview else Image.new("1", (128, 64))
            right_cap = self._side_caption(preview, 1) if preview else ""
            return Frame(left, right, (info, right_cap), self._info(game_view), self.shown_message())
        if self.result is not None:
            return self._compose_result(game_view)
        v = game_view
        tag = self.dock_tag()
        if tag:
            v = dict(v, dock=tag)
        return Frame(screens.render(v, 0), screens.render(v, 1),
                     (self._side_caption(v, 0), self._side_caption(v, 1)), self._info(v),
                     self.shown_message())

    def level_shown(self) -> str:
        """XW-8: the level the game's caps will use, for the screens ("PRIMARY"), "LEVEL?" when the
        preset has caps of several levels and none is set (the result cannot be confirmed without
        it), "" when the preset has no choice of level."""
        scoring = preset_scoring(self.preset)
        if len(scoring.caps) < 2:
            return ""
        level = known_level(scoring, self.settings.level or None) or scoring.default_level
        return level.upper() if level else "LEVEL?"

    def shown_message(self) -> str:
        """The message line: the journal's disk trouble first ("DISK FULL", "DISK READ-ONLY"; the
        writer keeps everything in memory meanwhile), then the loop's own message."""
        status = self.journal.status if self.journal is not None else ""
        dock = self.dock_status.text() if self.dock_status is not None and not self._running() else ""
        return " | ".join(m for m in (status, self.message, self.next_text(), dock) if m)

    def _preview(self, preset_id: str) -> dict:
        p = self.preset_by_id(preset_id)
        return core.view(core.new_game(p.control_for(0), label=p.short), 0)

    @staticmethod
    def _side_caption(v: dict, side: int) -> str:
        name = SIDES[side]
        s = v["sides"][name]
        mark = " ▶" if screens.is_running(v, name) else ""
        flag = " FLAG" if s.get("flagged") else ""
        count = screens.count_text(v)  # both displays show the count (MR-4..MR-8, MH-6)
        return f"{name.upper()} {s['display']}{mark}{flag}" + (f" {count}" if count else "")

    def _info(self, v: dict | None) -> str:
        if v is None or self.preset is None:
            return "choose a preset: knob turns, push starts"
        running = v["running"] or "-"
        moves = f"{v['sides']['left']['moves']}/{v['sides']['right']['moves']}"
        tb = f" tie-break {self.tiebreak}" if self.tiebreak else ""
        return (f"{self.preset.id} ({self.preset.name}) game {self.game_no}{tb} | {v['state']} "
                f"| running: {running} | moves {moves}")

    def _beep_new(self, v: dict) -> None:
        for alert in v["alerts"]:
            k = tuple(sorted(alert.items()))
            if k in self._seen_alerts:
                continue
            self._seen_alerts.add(k)
            text = screens.alert_text(alert)
            self.beeps.append(text)
            self.buzzer.beep(alert, text)
