"""Ready, running and paused: the mode of a game on the clock. It owns the player buttons, the pause
button and the knob while no menu is open and no result is being entered: at ready the first press
starts the other side's clock (chess-clock start); while a clock runs the menu is locked (a per-move
preset's held knob grants the mover extra time, MH-3); while paused the arbiter's gesture unlocks it.
New and restored games begin here; `watch_end` hands a game that is over to the result entry."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from gameclock.core import clock as core
from gameclock.core.control import GESTURE_LONG_PUSH, PER_MOVE
from gameclock.core.display import format_remaining
from gameclock.core.events import Event, Extend, Finish, Pause, Press, Resume, Start
from gameclock.core.result import Entry
from gameclock.gamelog import header_info
from gameclock.inbox import PauseButton, PlayerButton
from gameclock.loop.base import LOCKED_MESSAGE, SIDES, LoopBase, log  # noqa: F401
from gameclock.loop.sinks import (
    Frame,  # noqa: F401
    LoopPreset,
)
from gameclock.ui.keys import BACK, CLICK, LONG_CLICK
from gameclock.ui.text import tr


class ClockMode(LoopBase):
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
            counted = self.state.counting
            if self.apply(Press, item.at_ns, side=item.side):
                self._count_limit(counted, item.at_ns)

    def _count_limit(self, before: core.Count | None, at_ns: int) -> None:
        """MR-4..MR-8, MH-6 (issue 15): the press that reaches a count's limit ends the game there: the
        clocks stop, and the result entry opens with "draw, count" already entered for the arbiter
        to confirm or change (before, the clocks ran on with a small tag)."""
        now = self.state.counting if self.state is not None else None
        if now is None or not now.reached or (before is not None and before.reached):
            return
        if not self.apply(Finish, at_ns):
            return
        self.watch_end(at_ns)
        if self.result is not None:
            self.enter(["outcome", "draw", "count"], at_ns)
            self.message = "count reached: draw (count) - the arbiter confirms or changes it"

    def _pause(self, item: PauseButton) -> None:
        if self.state is None or self.menu.is_open:
            return
        phase = self._phase(item.at_ns)
        if phase == core.RUNNING:
            self.apply(Pause, item.at_ns)
        elif phase == core.PAUSED:
            self.apply(Resume, item.at_ns)

    def _clock_key(self, key: str, at_ns: int) -> None:
        """The knob at ready, running or paused (no menu open, no result entry)."""
        assert self.state is not None, "the clock's keys are a game's (Loop.key)"
        phase = self._phase(at_ns)
        self.menu.locked = self._locked(phase)
        if phase == core.RUNNING:
            per_move = self.state.control.mode == PER_MOVE
            by_gesture = per_move and self.state.control.extension_gesture == GESTURE_LONG_PUSH
            if key == LONG_CLICK and by_gesture:
                self._extend(at_ns)
            elif key == LONG_CLICK and per_move and self.state.control.extension_options:
                self.message = "extra time: the arbiter gives it (pause, unlock, Corrections)"  # MH-3
            elif key in (CLICK, BACK, LONG_CLICK):
                self.message = "menu locked while a clock runs: pause first" + (
                    " (hold the knob: extra time for the mover)" if by_gesture else "")
            return
        if self.flag_waiting and key == CLICK:  # the arbiter has seen the flag: on to the result
            self.flag_waiting = False
            self.begin_result()
            return
        if key in (CLICK, BACK, LONG_CLICK):
            if self.menu.locked:
                self.message = LOCKED_MESSAGE
            else:
                self._open_game_menu(phase)

    def _locked(self, phase: str) -> bool:
        """The menu is locked while a game is under way: running, or paused unless unlocked."""
        return phase == core.RUNNING or (phase == core.PAUSED and not self.unlocked)

    def _may_unlock(self, at_ns: int) -> bool:
        """A held knob push may unlock now: a game is paused, its menu closed and locked; or a game is
        over and its result not saved (issue 27: the game menu's items that throw it away come only
        with the unlock; the push's own long push may have opened the menu without them)."""
        if self.state is None or self.unlocked:
            return False
        if self.result_at_stake():
            return True
        return not self.menu.is_open and self._phase(at_ns) == core.PAUSED

    def _extend(self, at_ns: int) -> None:
        """MH-3 on the knob, where the rule file names the gesture (`extension_gesture = "long-push"`):
        a LONG_CLICK while a per-move clock runs grants the mover extra time (a hold, so that a stray
        push cannot); the option is the one already chosen, else the first. Elsewhere the arbiter
        gives it from the Corrections page, with the choice of option."""
        assert self.state is not None, "extra time is a running game's"
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

    def new_game(self, preset_id: str, game_no: int = 1, tiebreak: int = 0) -> None:
        """A fresh game at ready with preset `preset_id`: game `game_no` of its match, at tie-break step
        `tiebreak` (MH-4: 0 for the match's games, which all have the regular time). A pairing held
        for this game is applied first; its preset, if it names one, is this game's instead (its
        first game: a new pairing is a new match)."""
        held = self.settings.next_pairing
        if held:  # a pairing that came during the last game (issue 6)
            self._apply_pairing(held)
            self.settings.next_pairing = None
            self.save_settings()
            pid = held.get("preset")  # issue 15: the event's preset is this game's (checked when it came)
            if pid and pid != preset_id and any(p.id == pid for p in self.presets):
                preset_id, (game_no, tiebreak) = pid, self.first_game(pid)
                self.message = tr("pairing: {what}", self.settings.language).format(what=pid)
            if held.get("game"):  # issue 16: the game's number in its match, as the organiser published it
                game_no, tiebreak = held["game"], self.first_game(preset_id)[1]
        preset = self.preset_by_id(preset_id)
        self.preset, self.game_no, self.tiebreak = preset, game_no, tiebreak
        self.state = core.new_game(preset.control_for(tiebreak), label=preset.short, game=game_no,
                                   tiebreak=tiebreak)
        self.events = []
        self.flag_waiting = False
        self.entries, self.result, self.record, self.record_error = [], None, None, ""
        self.info_entry = Entry()
        self.started_wall = self.ended_wall = None
        self._seen_alerts = set()
        self.menu.close()
        self.unlocked = False
        self._begin_journal()  # a new journal file; its times count from now (CL-6)

    def restore_game(self, preset: LoopPreset, game_no: int, state: core.Clock, events: Sequence[Event],
                     entry: Entry | None = None, entries: Sequence[tuple[int, Sequence[str]]] = (),
                     message: str = "",
                     started_wall: float | None = None, ended_wall: float | None = None,
                     header: Mapping[str, str] | None = None) -> None:
        """A game brought back from its journal (gameclock.persist.restore): `state` is at its last
        journaled instant, which becomes session time now (so the game's times go on from there);
        its past alerts are not beeped again. `header`: the journal's header lines (name -> text:
        the game's record info, with `entry`'s lines that changed it). A game that is over comes back
        in its result entry (`entry`, a core.result.Entry, and its `entries` lines); one both players
        had confirmed whose record had not reached the outbox is saved again (same sequence number:
        same id)."""
        self.preset, self.game_no, self.tiebreak = preset, game_no, state.tiebreak
        self.state, self.events = state, list(events)
        self.zero_ns = self.clock() - state.now_ns
        self.game_zero_ns = 0  # session time is the game's (its journal's) from now on
        self.game_info = dict(header_info(header or {}))
        self.info_entry = entry or Entry()
        self.entries = [(at, list(words)) for at, words in entries]
        self.result, self.record, self.record_error = None, None, ""
        self.flag_waiting = False
        self.started_wall, self.ended_wall = started_wall, ended_wall
        self._seen_alerts = {tuple(sorted(a.items())) for a in core.view(state)["alerts"]}
        self.menu.close()
        self.unlocked = False
        self.message = message
        if state.phase in (core.FLAGGED, core.FINISHED):
            self.begin_result(entry)
            if entry is not None and entry.final:
                self._save_result(state.now_ns)

    def watch_end(self, at_ns: int) -> None:
        """Open the result entry once the game is over at monotonic `at_ns` (finish, per-move expiry).
        A flag fall first holds the flag screen (issue 15): the frozen times and the FLAG stay on both
        displays until the arbiter pushes the knob (`flag_waiting`), which opens the result entry."""
        if self.state is None or self.result is not None or self.flag_waiting:
            return
        state = core.advance(self.state, max(self.state.now_ns, self._rel(at_ns)))
        if state.phase not in (core.FLAGGED, core.FINISHED):
            return
        self.state = state  # the flag fall as the core times it (advance is path-independent)
        if self.journal is not None and state.phase == core.FLAGGED:
            # a line at the flag's instant: a crash now restores the flagged game, not up to 0.6 s before it
            self.journal.checkpoint(state.seg_start_ns)
        self.ended_wall = self.wall_at(state.seg_start_ns)  # a stop starts the (idle) segment
        if state.phase == core.FLAGGED:
            self.flag_waiting = True
            self.message = "FLAG: push the knob for the result entry (arbiter)"
            return
        self.begin_result()
