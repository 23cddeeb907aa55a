"""The loop's base: the fields it owns, the inbox served in one place (`handle`), the timers' wakes,
and the core events applied. The modes (clock_mode, menu_mode, result_mode, docked, pairings) and the
rendering add their own methods; `gameclock.loop.Loop` puts them together."""
from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gameclock.core import clock as core
from gameclock.core.events import Event, Start
from gameclock.core.result import Entry
from gameclock.inbox import DockUpdate, Input, Key, Pairing, PauseButton, PlayerButton, PushEdge, Quit
from gameclock.loop.sinks import (  # noqa: F401
    BuzzerSink,
    DisplaySink,
    Dock,
    Frame,
    GameJournal,
    LoopPreset,
    MemoryOutbox,
    Outbox,
    Record,
    RecordSequence,
    SettingsStore,
    Timer,
)
from gameclock.ui import menu as menus
from gameclock.ui.keys import LONG_PRESS_NS, ClickTimer
from gameclock.ui.resultentry import Reply, ResultEntry

if TYPE_CHECKING:
    from gameclock.dock.clockside import DockStatus

SIDES = ("left", "right")
UNLOCK_HOLD_NS = 3_000_000_000  # the arbiter's gesture: the knob held pushed this long, game paused
LOCKED_MESSAGE = "menu locked during a game (arbiter: pause, hold the knob 3 s)"
# the settings a game's record holds (issue 27): changed during a game, each is a line of its log
RECORD_SETTINGS = ("event", "round", "table", "level", "stage", "players")

log = logging.getLogger("gameclock.loop")  # one logger for the loop package


@dataclass(repr=False, init=False)
class LoopBase:
    """The loop's fields and plumbing. Build it with (inbox, presets, display, buzzer, ...): `__init__`
    below takes the dataclass's fields in their order, with None for `zero_ns` (the clock's now),
    `settings` (the store's, else the defaults) and `outbox` (a MemoryOutbox); after it they are always
    set, so the fields hold their real types. presets: `LoopPreset`s (gameclock.rules.loader.Preset)."""
    inbox: queue.Queue[Input] | queue.SimpleQueue[Input]
    presets: Sequence[LoopPreset]
    display: DisplaySink
    buzzer: BuzzerSink
    clock: Callable[[], int]
    long_press_ns: int
    zero_ns: int           # the session's zero, monotonic ns: session time = clock() - zero_ns
    # --- owned state (loop thread only) ---
    preset: LoopPreset | None  # the game's preset (None: no game yet)
    game_no: int           # the game's number in its match
    tiebreak: int          # MH-4: its tie-break step (0: a game of the match)
    state: core.Clock | None  # the game's clock state (None: no game yet)
    events: list[Event]    # the current game's log, session ns
    _message: str
    running: bool
    timers: list[Timer]    # watchdog, buzzer schedule
    settings: menus.Settings
    settings_store: SettingsStore | None
    unlock_hold_ns: int
    # --- the result record (CL-5) ---
    outbox: Outbox         # confirmed results
    sequence: RecordSequence | None  # the record's sequence number (None: counted here)
    clock_serial: str      # the record id's prefix
    wall: Callable[[], float]  # wall clock: only the record's start and end use it
    journal: GameJournal | None  # gameclock.persist.journal.Journal (gameclock run): accepted events journaled
    dock: Dock | None      # gameclock.device.dock.DockThread, when the clock has a dock port

    def __init__(self, inbox: queue.Queue[Input] | queue.SimpleQueue[Input], presets: Sequence[LoopPreset], display: DisplaySink,
                 buzzer: BuzzerSink, clock: Callable[[], int] = time.monotonic_ns,
                 long_press_ns: int = LONG_PRESS_NS, zero_ns: int | None = None,
                 preset: LoopPreset | None = None, game_no: int = 1, tiebreak: int = 0,
                 state: core.Clock | None = None, events: list[Event] | None = None, message: str = "",
                 running: bool = True, timers: list[Timer] | None = None,
                 settings: menus.Settings | None = None, settings_store: SettingsStore | None = None,
                 unlock_hold_ns: int = UNLOCK_HOLD_NS, outbox: Outbox | None = None,
                 sequence: RecordSequence | None = None, clock_serial: str = "sim",
                 wall: Callable[[], float] = time.time, journal: GameJournal | None = None,
                 dock: Dock | None = None) -> None:
        self.inbox, self.presets, self.display, self.buzzer = inbox, presets, display, buzzer
        self.clock, self.long_press_ns = clock, long_press_ns
        self.zero_ns = clock() if zero_ns is None else zero_ns
        self.preset, self.game_no, self.tiebreak, self.state = preset, game_no, tiebreak, state
        self.events = [] if events is None else events
        self.message, self.running = message, running
        self.timers = [] if timers is None else timers
        self.settings_store = settings_store
        if settings is None:
            settings = settings_store.load() if settings_store else menus.Settings()
        self.settings = settings
        # a trouble with the clock's own state found at start (a bad settings.json, a last game that
        # could not be read), on both OLEDs until the arbiter's next key (issue 13)
        self.start_notice: str = getattr(settings_store, "notice", "") if settings_store is not None else ""
        self.unlock_hold_ns = unlock_hold_ns
        self.outbox = MemoryOutbox() if outbox is None else outbox
        self.sequence, self.clock_serial, self.wall = sequence, clock_serial, wall
        self.journal, self.dock = journal, dock
        listed, groups = menu_presets(self.presets)
        self.menu = menus.Menu(listed, settings=self.settings, groups=groups)
        self.click = ClickTimer(self.long_press_ns)
        self.unlock = menus.UnlockGesture(self.unlock_hold_ns)
        self.unlocked = False  # the arbiter's gesture opened the menu of a game under way
        self.apply_settings()
        self.publish_info()
        self._seen_alerts: set[tuple[tuple[str, Any], ...]] = set()
        self._visible_due: int | None = None  # monotonic ns of the core's next display change at the last render
        self.frame: Frame | None = None
        self.beeps: list[str] = []
        self.entries: list[tuple[int, list[str]]] = []  # the game's result lines: (session ns, words)
        self.result: ResultEntry | None = None  # the result entry, from the game's end on
        # What the game's record is built from, as its journal has it (issue 27): the record info of its
        # header (gamelog.header_info; `_begin_journal`), the session ns of its time 0, and the lines
        # that changed the info before the game's end (core.result.INFO_VERBS; from the end on, the
        # result entry's Entry holds them)
        self.game_info: dict[str, Any] = {}
        self.game_zero_ns = 0
        self.info_entry = Entry()
        self.started_wall: float | None = None  # wall-clock start and end of the game (the record's)
        self.ended_wall: float | None = None
        self.record: Record | None = None  # the last record handed to the outbox
        self.record_error = ""  # why the outbox refused it (shown instead of RESULT SAVED)
        self.flag_waiting = False  # a flag fell: its screen holds until the arbiter's push (issue 15)
        self._records_made = 0
        self.dock_status: DockStatus | None = None  # the dock's last status (DOCKED, progress), from DockUpdate
        self._dock_beep = False  # everything is sent: beep once the clocks are not running
        self.enroll_yes = False  # the enrollment question's answer chosen with the knob (NO first)
        # the message on the displays (loop/render.py screen_message): which, since when, until when
        self._message_seen, self._message_at = "", 0
        self._message_fresh = bool(self.message)
        self.message_until: int | None = None
        # the review's pages (issue 27; loop/result_mode.py review_page): the knob's turns, since when
        # the page shown has been up (monotonic ns), and when the next comes
        self.page_turns = 0
        self.page_since: int | None = None
        self.page_due: int | None = None
        self._page_stage = ""  # the result's stage the pages turn in (a new stage: from the first page)

    if TYPE_CHECKING:  # what the modes offer each other (gameclock.loop.Loop has them all); signatures only
        # clock_mode.ClockMode
        def _player(self, item: PlayerButton) -> None: ...
        def _pause(self, item: PauseButton) -> None: ...
        def _clock_key(self, key: str, at_ns: int) -> None: ...
        def _may_unlock(self, at_ns: int) -> bool: ...
        def new_game(self, preset_id: str, game_no: int = 1, tiebreak: int = 0) -> None: ...
        def watch_end(self, at_ns: int) -> None: ...

        # menu_mode.MenuMode
        def _menu_key(self, key: str, at_ns: int) -> None: ...
        def _open_game_menu(self, phase: str) -> None: ...
        def at_stake(self) -> str | None: ...
        def result_at_stake(self) -> bool: ...
        def apply_settings(self) -> None: ...
        def save_settings(self) -> None: ...

        # result_mode.ResultMode
        def enter(self, words: Sequence[str], at_ns: int) -> bool: ...
        def _result_key(self, key: str, at_ns: int) -> None: ...
        def _result_reply(self, reply: Reply, at_ns: int) -> None: ...
        def begin_result(self, entry: Entry | None = None) -> None: ...
        def _save_result(self, at: int) -> None: ...
        def current_entry(self) -> Entry: ...
        def _compose_result(self, v: dict[str, Any], now_ns: int) -> Frame: ...

        # docked.DockedMode
        def _dock_update(self, item: DockUpdate) -> None: ...
        def _dock_turn(self) -> None: ...
        def dock_tag(self) -> str: ...
        def enroll_asking(self) -> str: ...
        def _enroll_key(self, key: str, at_ns: int) -> None: ...

        # pairings.PairingMode
        @property
        def record_info(self) -> dict[str, Any]: ...
        def publish_info(self) -> None: ...
        def pairing(self, pairing: dict[str, Any]) -> None: ...
        def _apply_pairing(self, p: dict[str, Any]) -> bool: ...
        def _reheader_ready(self) -> None: ...
        def _begin_journal(self) -> None: ...
        def _journal_header(self) -> dict[str, Any]: ...
        def record_setting_changed(self, keys: Sequence[str], at_ns: int) -> None: ...
        def next_text(self) -> str: ...
        def setup_view(self) -> dict[str, str]: ...

        # render.Render
        def refresh(self, now_ns: int) -> None: ...
        def shown_message(self) -> str: ...
        def _info(self, v: dict[str, Any] | None) -> str: ...

    def run(self) -> None:
        """Serve the inbox until a `Quit`. Call from the thread that owns this loop."""
        self.refresh(self.clock())
        self._visible_due = self.core_wake()
        while self.running:
            try:
                first = [self.inbox.get(timeout=self.timeout(self.clock()))]
            except queue.Empty:
                first = []
            self.pump(self.clock(), first, skip_unchanged=True)

    @property
    def message(self) -> str:
        """The loop's message (the simulator's text line, the log; the displays show its short words,
        ui/messages.py, for MESSAGE_NS). Set again while it is still up, its time starts again."""
        return self._message

    @message.setter
    def message(self, text: str) -> None:
        self._message = text
        if text:
            self._message_fresh = True  # render.screen_message restarts its MESSAGE_NS

    def pump(self, now_ns: int, items: Sequence[Input] = (), *, skip_unchanged: bool = False) -> None:
        """One turn: take `items` and whatever else is queued, apply them in stamp order, fire due
        timers, render and beep as of `now_ns` (monotonic). Tests call this with a chosen time.

        `skip_unchanged` (the running loop, `run`): render only when something a player could see may
        have changed -- an input, a knob timer, the core's next display change or alert -- not on the
        wakes of timers that change nothing on the screens (journal checkpoints, watchdog pings,
        buzzer steps: `visible = False`). Rendering both screens is most of a wake's cost."""
        batch = list(items)
        while True:
            try:
                batch.append(self.inbox.get_nowait())
            except queue.Empty:
                break
        for item in sorted(batch, key=lambda i: i.at_ns):
            self.handle(item)
        visible = self.expire(now_ns)
        self.watch_end(now_ns)
        self._dock_turn()
        due = self._visible_due
        if self.message_until is not None and now_ns >= self.message_until:
            visible = True  # the message's time on the displays is over
        page = self.page_wake()
        if page is not None and now_ns >= page:
            visible = True  # the review's next page
        if (not skip_unchanged or batch or visible or self.frame is None
                or (due is not None and now_ns >= due)):
            self.refresh(now_ns)
            self._visible_due = self.core_wake()

    def timeout(self, now_ns: int) -> float | None:
        """Seconds until the next wake (None: nothing will happen by itself)."""
        wake = self.next_wake()
        return None if wake is None else max(0.0, (wake - now_ns) / 1e9)

    def next_wake(self) -> int | None:
        """Monotonic ns of the earliest wake: the core, the knob's timers, the registered Timers."""
        wakes = [w for w in (self.core_wake(), self.click.next_wake(), self.unlock.next_wake(),
                             self.message_until, self.page_wake(), *(t.next_wake() for t in self.timers))
                 if w is not None]
        return min(wakes) if wakes else None

    def page_wake(self) -> int | None:
        """Monotonic ns of the review's next page (None: no review of several pages on the displays,
        a menu over it included)."""
        return None if self.result is None or self.menu.is_open else self.page_due

    def core_wake(self) -> int | None:
        """Monotonic ns of the core's next self-driven change (None if none)."""
        if self.state is None or self.menu.is_open:
            return None
        rel = core.next_wake(self.state, max(self.state.now_ns, self.clock() - self.zero_ns))
        return None if rel is None else rel + self.zero_ns

    def handle(self, item: Input) -> None:
        """Every inbox message (gameclock.inbox), to the mode that owns it."""
        if isinstance(item, Quit):
            self.running = False
        elif isinstance(item, PlayerButton):
            self._player(item)
        elif isinstance(item, PauseButton):
            self._pause(item)
        elif isinstance(item, Key):
            self.key(item.key, item.at_ns)
        elif isinstance(item, DockUpdate):
            self._dock_update(item)
        elif isinstance(item, PushEdge):
            self.unlock.edge(item.at_ns, item.down, arm=item.down and self._may_unlock(item.at_ns))
            k = self.click.edge(item.at_ns, item.down)
            if k:
                self.key(k, item.at_ns)
        elif isinstance(item, Pairing):
            self.pairing(item.pairing)

    def _running(self) -> bool:
        return self.state is not None and self.state.phase == core.RUNNING

    def expire(self, now_ns: int) -> bool:
        """Fire due timers (the knob's LONG_CLICK, the unlock gesture, then the registered Timers).
        True if one that may change the screens fired (a Timer says `visible = False` if it never does)."""
        visible = False
        k = self.click.expire(now_ns)
        if k:
            self.key(k, now_ns)
            visible = True
        due = self.unlock.next_wake()  # never None when expire() says the hold is complete
        if self.unlock.expire(now_ns) and due is not None and self._may_unlock(due):
            self.unlocked = True
            self._open_game_menu(self._phase(due))
            self.message = "menu unlocked (arbiter)"
            visible = True
        for timer in self.timers:
            due = timer.next_wake()
            if due is not None and due <= now_ns:
                timer.fire(now_ns)
                visible = visible or getattr(timer, "visible", True)
        return visible

    def key(self, key: str, at_ns: int) -> None:
        """A semantic key (UP/DOWN/CLICK/LONG_CLICK/BACK) at monotonic `at_ns`, to the mode that owns it."""
        self.message = ""
        self.start_notice = ""  # the arbiter has seen it
        if self.enroll_asking():  # the dock asks the arbiter to confirm a code: the knob answers it
            self._enroll_key(key, at_ns)
        elif self.menu.is_open:
            self._menu_key(key, at_ns)
        elif self.state is None:
            self.menu.open_presets()
        else:
            self.watch_end(at_ns)
            if self.result is not None:
                self._result_key(key, at_ns)
            else:
                self._clock_key(key, at_ns)

    def preset_by_id(self, preset_id: str) -> LoopPreset:
        """An event preset, or the custom preset of the current settings (menus.CUSTOM_ID)."""
        if preset_id == menus.CUSTOM_ID:
            return menus.custom_preset(self.settings)
        return next(p for p in self.presets if p.id == preset_id)

    def first_game(self, preset_id: str) -> tuple[int, int]:
        """(game number, tie-break step) of a preset's first game: 1, 0; a tie-break preset's (MH-4,
        MH-7(3)) is step 1, numbered after the match's games (game 5 after a 4-game match), so a
        pairing's games never share a number. Only a rule file's preset (rules.loader.Preset) has
        tie-break games and standings."""
        preset = self.preset_by_id(preset_id)
        if getattr(preset, "tiebreak_games", False):
            standings = getattr(preset, "standings", None)
            match_games: int = standings.match_games if standings is not None else 4
            return match_games + 1, 1
        return 1, 0

    def start_preset(self, preset_id: str) -> None:
        """A new game at ready with preset `preset_id`, as its first game (the preset menu's START, a
        pairing's preset)."""
        self.new_game(preset_id, *self.first_game(preset_id))

    def apply(self, kind: Callable[..., Event], at_ns: int, /, **fields: Any) -> bool:
        """Apply core event `kind(at_ns=session ns, **fields)`; a rejection becomes the message."""
        assert self.state is not None, "a core event needs a game on the clock"
        # A stamp older than the state (an edge that lost a race to the queue by microseconds)
        # is applied at the state's instant: the core's time never goes backwards; nor before the
        # game's time 0 (its journal's: a press stamped just before the game was set up)
        event = kind(at_ns=max(self._rel(at_ns), self.state.now_ns, self.game_zero_ns), **fields)
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
        assert self.state is not None, "the phase of a game on the clock"
        phase: str = core.view(self.state, max(self.state.now_ns, self._rel(at_ns)))["state"]
        return phase

    def wall_at(self, rel_ns: int) -> float:
        """The wall-clock time (`wall`, time.time()) of session instant `rel_ns`."""
        return self.wall() - (self.clock() - self.zero_ns - rel_ns) / 1e9


def menu_presets(presets: Sequence[LoopPreset]) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The PRESET page's presets (issue 15): (id, menu name) grouped in `menus.PRESET_GROUPS`' order,
    each group's in its `menu_order` (the event's usual presets first), and each preset's group. A
    rule file's preset has them (rules.loader.Preset); another is listed by its name under "other"."""
    rank = {key: i for i, (key, _, _) in enumerate(menus.PRESET_GROUPS)}

    def where(p: LoopPreset) -> tuple[int, int, str]:
        return (rank.get(getattr(p, "group", "other"), len(rank)), getattr(p, "menu_order", 0),
                getattr(p, "menu_name", "") or p.name)

    ordered = sorted(presets, key=where)
    return ([(p.id, getattr(p, "menu_name", "") or p.name) for p in ordered],
            {p.id: getattr(p, "group", "other") for p in ordered})
