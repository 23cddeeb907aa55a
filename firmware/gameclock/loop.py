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
The menu is locked while a clock runs (pause first); per-move presets: holding the knob while a
clock runs grants the mover extra time (MH-3).

Sinks: `display.show(frame)` with a `Frame` (two 128x64 mode "1" images plus plain-text captions),
`buzzer.beep(alert, text)` once per new core alert. The Pi issue only adds real sinks/adapters.
"""
from __future__ import annotations

import queue
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from PIL import Image

from gameclock.core import clock as core
from gameclock.core.control import PER_MOVE
from gameclock.core.display import format_remaining
from gameclock.core.events import Event, Extend, Finish, Pause, Press, Resume, Start
from gameclock.ui import menu as menus
from gameclock.ui import screens
from gameclock.ui.keys import (BACK, CLICK, LONG_CLICK, LONG_PRESS_NS, ClickTimer, Input, Key,
                               PauseButton, PlayerButton, PushEdge, Quit)

SIDES = ("left", "right")


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


class DisplaySink(Protocol):
    def show(self, frame: Frame) -> None: ...


class BuzzerSink(Protocol):
    def beep(self, alert: dict, text: str) -> None: ...


class Timer(Protocol):
    """Something the loop wakes for besides the clock (watchdog ping, buzzer pattern steps).
    Times are monotonic ns; both methods run on the loop thread."""

    def next_wake(self) -> int | None: ...

    def fire(self, now_ns: int) -> None: ...


@dataclass(repr=False)
class Loop:
    """presets: objects with .id .name .short .control_for_game(n) (gameclock.rules.loader.Preset)."""
    inbox: "queue.Queue[Input]"
    presets: Sequence
    display: DisplaySink
    buzzer: BuzzerSink
    clock: Callable[[], int] = time.monotonic_ns
    long_press_ns: int = LONG_PRESS_NS
    zero_ns: int | None = None
    # --- owned state (loop thread only) ---
    preset: object = None
    game_no: int = 1
    state: core.Clock | None = None
    events: list[Event] = field(default_factory=list)  # the current game's log, session ns
    message: str = ""
    running: bool = True
    timers: list = field(default_factory=list)  # Timer objects (watchdog, buzzer schedule)

    def __post_init__(self) -> None:
        if self.zero_ns is None:
            self.zero_ns = self.clock()
        self.menu = menus.Menu([(p.id, p.name) for p in self.presets])
        self.click = ClickTimer(self.long_press_ns)
        self._seen_alerts: set = set()
        self._last_frame: tuple | None = None
        self.frame: Frame | None = None
        self.beeps: list[str] = []

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
        self.refresh(now_ns)

    def timeout(self, now_ns: int) -> float | None:
        """Seconds until the next wake (None: nothing will happen by itself)."""
        wakes = [w for w in (self.core_wake(), self.click.next_wake(), *(t.next_wake() for t in self.timers))
                 if w is not None]
        if not wakes:
            return None
        return max(0.0, (min(wakes) - now_ns) / 1e9)

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
        elif isinstance(item, PushEdge):
            k = self.click.edge(item.at_ns, item.down)
            if k:
                self.key(k, item.at_ns)

    def expire(self, now_ns: int) -> None:
        """Fire due timers (the knob's LONG_CLICK, then the registered Timers)."""
        k = self.click.expire(now_ns)
        if k:
            self.key(k, now_ns)
        for timer in self.timers:
            due = timer.next_wake()
            if due is not None and due <= now_ns:
                timer.fire(now_ns)

    def _player(self, item: PlayerButton) -> None:
        if self.state is None or self.menu.is_open:
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
            return
        if self.state is None:
            self.menu.open_presets()
            return
        phase = self._phase(at_ns)
        self.menu.locked = phase == core.RUNNING
        if phase == core.RUNNING:
            per_move = self.state.control.mode == PER_MOVE
            if key == LONG_CLICK and per_move:
                self._extend(at_ns)
            elif key in (CLICK, BACK, LONG_CLICK):
                self.message = "menu locked while a clock runs: pause first" + (
                    " (hold the knob: extra time for the mover)" if per_move else "")
            return
        if key in (CLICK, BACK, LONG_CLICK):
            self.menu.open_game_menu(preset_id=self.preset.id, started=phase != core.READY,
                                     over=phase in (core.FLAGGED, core.FINISHED), has_next=True)

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
            self.new_game(action.preset_id, 1)
        elif action.kind == menus.NEW_GAME:
            self.new_game(self.preset.id, self.game_no)
        elif action.kind == menus.NEXT_GAME:
            self.new_game(self.preset.id, self.game_no + 1)
        elif action.kind == menus.FINISH:
            self.menu.close()
            self.apply(Finish, at_ns)
        elif action.kind == menus.CLOSE:
            self.menu.close()

    # ------------------------------------------------------------------ game state
    def new_game(self, preset_id: str, game_no: int = 1) -> None:
        """A fresh game at ready with preset `preset_id` (game `game_no` of its match)."""
        preset = next(p for p in self.presets if p.id == preset_id)
        self.preset, self.game_no = preset, game_no
        self.state = core.new_game(preset.control_for_game(game_no), label=preset.short, game=game_no)
        self.events = []
        self._seen_alerts = set()
        self.menu.close()

    def apply(self, kind, at_ns: int, **fields) -> bool:
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
        self.state = new
        return True

    def _rel(self, at_ns: int) -> int:
        return at_ns - self.zero_ns

    def _phase(self, at_ns: int) -> str:
        return core.view(self.state, max(self.state.now_ns, self._rel(at_ns)))["state"]

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
        if self.menu.is_open:
            mv = self.menu.view()
            left = screens.render_menu(mv)
            pid = self.menu.selected_preset()
            if pid is not None:
                preview = self._preview(pid)
                info = f"MENU {mv['title']} {mv['index'] + 1}/{len(mv['items'])}: {pid}"
            else:
                preview = game_view
                info = f"MENU {mv['title']}: {self.menu.selected()[0] if self.menu.selected() else ''}"
            right = screens.render(preview, 1) if preview else Image.new("1", (128, 64))
            right_cap = self._side_caption(preview, 1) if preview else ""
            return Frame(left, right, (info, right_cap), self._info(game_view), self.message)
        v = game_view
        return Frame(screens.render(v, 0), screens.render(v, 1),
                     (self._side_caption(v, 0), self._side_caption(v, 1)), self._info(v), self.message)

    def _preview(self, preset_id: str) -> dict:
        p = next(p for p in self.presets if p.id == preset_id)
        return core.view(core.new_game(p.control_for_game(1), label=p.short), 0)

    @staticmethod
    def _side_caption(v: dict, side: int) -> str:
        name = SIDES[side]
        s = v["sides"][name]
        mark = " ▶" if screens.is_running(v, name) else ""
        flag = " FLAG" if s.get("flagged") else ""
        return f"{name.upper()} {s['display']}{mark}{flag}"

    def _info(self, v: dict | None) -> str:
        if v is None or self.preset is None:
            return "choose a preset: knob turns, push starts"
        running = v["running"] or "-"
        moves = f"{v['sides']['left']['moves']}/{v['sides']['right']['moves']}"
        return (f"{self.preset.id} ({self.preset.name}) game {self.game_no} | {v['state']} "
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
