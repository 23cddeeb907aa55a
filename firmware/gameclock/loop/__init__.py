"""The one event-loop thread: it alone owns the clock state, the menu, rendering and the buzzer.

    while running:
        item = inbox.get(timeout=until the next wake)   # no sleep loops, no tick counting
        apply what came (sorted by stamp), fire due timers, render if the picture changed

Adapters only stamp and enqueue `gameclock.inbox` messages (`PlayerButton`, `PauseButton`, `Key`,
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
kept by an optional `settings_store` (`persist.settings.SettingsStore`, a JSON file in the state folder).

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
record -- carry them; a game at ready gets a new journal with the new header. (The record is built
from the game's journal header and its lines, as a replay of the journal builds it: a setting of the
record changed on the menu during the game is a line of its log, `round 2`, issue 27.) During a game it is
held (`settings.next_pairing`, the message line says "next: ...") and applied by the next `new_game`.
The ready and paused screens show each side's name on their bottom line. A pairing's set-up (issue
15: level, stage, language, preset) is applied with it; its preset puts a new game at ready when no
game is under way, else starts the next game (`loop/pairings.py`).

Sinks: `display.show(frame)` with a `Frame` (two 128x64 mode "1" images plus plain-text captions),
`buzzer.beep(alert, text)` once per new core alert. The Pi issue only adds real sinks/adapters.

The package: `base.py` (the fields, the inbox served in one place, timers, core events applied),
one module per mode owning its keys -- `clock_mode.py` (ready, running, paused), `menu_mode.py`,
`result_mode.py`, `docked.py` -- `pairings.py` (pairings and the record info), `render.py` (screens,
captions, beeps) and `sinks.py` (Frame, and the shapes -- Protocols -- of what the loop drives: the sinks,
timers, presets, outbox, record sequence, journal, dock and settings store). `Loop` puts the modes
together; the methods one mode calls of another are declared in `LoopBase` for the type checker.
"""
from __future__ import annotations

from gameclock.loop.base import LOCKED_MESSAGE, SIDES, UNLOCK_HOLD_NS, LoopBase  # noqa: F401
from gameclock.loop.clock_mode import ClockMode
from gameclock.loop.docked import DockedMode
from gameclock.loop.menu_mode import MenuMode
from gameclock.loop.pairings import PairingMode, info_of, with_pairing  # noqa: F401
from gameclock.loop.render import Render
from gameclock.loop.result_mode import ResultMode
from gameclock.loop.sinks import BuzzerSink, DisplaySink, Frame, MemoryOutbox, Timer  # noqa: F401


class Loop(ClockMode, MenuMode, ResultMode, PairingMode, DockedMode, Render, LoopBase):
    """The one event loop: `LoopBase`'s fields and inbox, each mode's keys, the rendering. Build it with
    LoopBase's fields (inbox, presets, display, buzzer, clock, ...); `run()` serves the inbox."""
