"""The menu's mode: the knob while a menu is open (presets, the game menu, settings, the PIECES page);
the actions it chooses (start a preset, next game or tie-break game (MH-4), end the game, counts
(MR-4..MR-8, MH-6), settings applied to the sinks and kept in settings.json)."""
from __future__ import annotations

from gameclock.core import clock as core
from gameclock.core.control import PER_MOVE
from gameclock.core.display import format_remaining
from gameclock.core.events import (
    Adjust,
    CountEnd,
    CountStart,
    CountStop,
    Extend,
    Finish,
    Resume,
    Retract,
    SetMoves,
    Undo,
)
from gameclock.loop.base import RECORD_SETTINGS, SIDES, LoopBase, log  # noqa: F401
from gameclock.loop.sinks import Frame  # noqa: F401
from gameclock.ui import menu as menus


class MenuMode(LoopBase):
    def _menu_key(self, key: str, at_ns: int) -> None:
        """The knob while a menu is open."""
        action = self.menu.key(key)
        if action is not None:
            self._do(action, at_ns)
        if not self.menu.is_open:
            self.unlocked = False  # the arbiter's unlock lasts until the menu closes

    def at_stake(self) -> str | None:
        """What another game (New game, Next game, Tie-break game, a preset) would throw away, as the
        game menu asks it (issue 27): "Lose this game?" (a game under way), "Lose the result?" (a
        game over whose result is not saved: being entered, up for confirmation, or confirmed but
        refused by the outbox, NOT SAVED), None for nothing (no game, at ready with nothing pressed,
        a result saved: on the card or queued for it, it stays in the outbox until the PC has it)."""
        if self.state is None:
            return None
        if self.result is not None:
            return menus.LOSE_RESULT if self.record is None or self.record_error else None
        if self.flag_waiting or self.state.phase in (core.FLAGGED, core.FINISHED):
            return menus.LOSE_RESULT
        return menus.LOSE_GAME if self.events or self.state.phase != core.READY else None

    def result_at_stake(self) -> bool:
        """A game over whose result is not saved: the game menu leaves it only after the arbiter's
        unlock (issue 27: a plain long push in the result entry never leads to throwing it away)."""
        return self.at_stake() == menus.LOSE_RESULT

    def _open_game_menu(self, phase: str) -> None:
        assert self.state is not None and self.preset is not None, "the game menu is a game's"
        self.menu.locked = False
        lose = self.at_stake()
        counting = self.state.counting
        v = core.view(self.state)
        extra, on_move, given = self._extra_time()
        running = self.state.running  # in a pause: the side that resumes (on move)
        self.menu.open_game_menu(preset_id=self.preset.id, started=phase != core.READY,
                                 over=phase in (core.FLAGGED, core.FINISHED),
                                 has_next=self.preset.id != menus.CUSTOM_ID,
                                 counts=getattr(self.preset, "counts", ()),
                                 counting=counting.kind if counting is not None else None,
                                 counting_side=SIDES[counting.side] if counting is not None else None,
                                 count_side=SIDES[running] if running is not None else None,
                                 pieces_with_kings=self.state.control.count_pieces_with_kings,
                                 has_tiebreak=getattr(self.preset, "event", None) == "makhos",
                                 times_ns=(v["sides"]["left"]["remaining_ms"] * 1_000_000,
                                           v["sides"]["right"]["remaining_ms"] * 1_000_000),
                                 moves=(v["sides"]["left"]["moves"], v["sides"]["right"]["moves"]),
                                 extra=extra, on_move=on_move, extra_given=given, lose=lose,
                                 offer_new=self.unlocked or not self.result_at_stake())

    def _extra_time(self) -> tuple[list[tuple[str, int]], str | None, bool]:
        """MH-3 for the Corrections page: the options the side on move may still be given (all of them
        until one is chosen, then that one while some are left), that side, and whether it got extra
        time in this move (which can be taken back)."""
        st = self.state
        assert st is not None, "a game's corrections"
        c = st.control
        if c.mode != PER_MOVE or not c.extension_options or st.running is None:
            return [], None, False
        sd = st.sides[st.running]
        options = [(f"{o.count}x{format_remaining(o.time_ns)}", o.time_ns) for i, o in enumerate(c.extension_options)
                   if (sd.ext_option is None or sd.ext_option == i) and sd.ext_used < o.count]
        given = core.extra_this_move(st, st.running) > 0
        return options, SIDES[st.running], given

    def _do(self, action: menus.Action, at_ns: int) -> None:
        if action.kind == menus.START:
            assert action.preset_id is not None, "a START action names its preset"
            self._discarding()
            self.start_preset(action.preset_id)
        elif action.kind in (menus.NEW_GAME, menus.NEXT_GAME, menus.TIEBREAK_GAME):
            assert self.preset is not None, "the game menu's actions are a game's"
            self._discarding()
            if action.kind == menus.NEW_GAME:
                self.new_game(self.preset.id, self.game_no, self.tiebreak)
            elif action.kind == menus.NEXT_GAME:  # MH-4: a match's games all have its time; a tie-break goes on
                self.new_game(self.preset.id, self.game_no + 1, self.tiebreak + 1 if self.tiebreak else 0)
            else:  # TIEBREAK_GAME
                self.new_game(self.preset.id, self.game_no + 1, self.tiebreak + 1)
        elif action.kind == menus.FINISH:
            self.menu.close()
            self.apply(Finish, at_ns)
            self.watch_end(at_ns)
        elif action.kind == menus.CLOSE:
            self.menu.close()
        elif action.kind == menus.RESUME:  # issue 27: Resume goes on with a paused game (CL-3)
            self.menu.close()
            if self.state is not None and self._phase(at_ns) == core.PAUSED:
                self.apply(Resume, at_ns)
        elif action.kind == menus.UNDO:  # issue 15: a wrong press taken back (core Undo, journaled)
            if self.apply(Undo, at_ns):
                self.menu.close()
                self.unlocked = False
                self.message = "last press undone"
        elif action.kind in (menus.EXTEND, menus.RETRACT):  # MH-3 by the arbiter (issue 15), journaled
            assert action.preset_id is not None, "extra time names its side"
            side = SIDES.index(action.preset_id)
            ok = (self.apply(Extend, at_ns, side=side, time_ns=action.value or 0) if action.kind == menus.EXTEND
                  else self.apply(Retract, at_ns, side=side))
            if ok:
                self.menu.close()
                self.unlocked = False
                self.message = f"{action.preset_id} extra time " + ("given" if action.kind == menus.EXTEND
                                                                     else "taken back")
        elif action.kind == menus.ADJUST:  # issue 15: a side's time set by the arbiter (core Adjust, journaled)
            assert action.preset_id is not None and action.value is not None, "ADJUST names a side and a time"
            if self.apply(Adjust, at_ns, side=SIDES.index(action.preset_id), remaining_ns=action.value):
                self.menu.close()
                self.unlocked = False
                self.message = f"{action.preset_id} time set"
        elif action.kind == menus.MOVES:  # issue 15: a side's moves made set by the arbiter (core SetMoves)
            assert action.preset_id is not None and action.value is not None, "MOVES names a side and a count"
            if self.apply(SetMoves, at_ns, side=SIDES.index(action.preset_id), moves=action.value):
                self.menu.close()
                self.unlocked = False
                self.message = f"{action.preset_id} moves set"
        elif action.kind == menus.COUNT:
            assert action.preset_id is not None, "a COUNT action names its count"
            self._count(action.preset_id, at_ns)
        elif action.kind == menus.SETTING:
            self.apply_settings()
            if action.preset_id in RECORD_SETTINGS:  # the game's journal first, then settings.json
                self.record_setting_changed((action.preset_id,), at_ns)
            self.save_settings()
        elif action.kind == menus.CLEAR_PLAYERS:
            changed = self.settings.players is not None
            self.settings.players = self.settings.next_pairing = None
            if changed:
                self.record_setting_changed(("players",), at_ns)
            self.save_settings()
            self.message = "players cleared"

    def _discarding(self) -> None:
        """The arbiter answered Yes to another game: what is thrown away goes to the log (the game's
        journal closes `abandoned` when the new one begins)."""
        lost = self.at_stake()
        if lost is not None and self.preset is not None:
            log.warning("%s game %d: %s yes (the arbiter, the menu unlocked)", self.preset.id, self.game_no,
                        lost.lower().rstrip("?"))

    def _count(self, what: str, at_ns: int) -> None:
        """A count from the game menu (MR-4..MR-8, MH-6): "board left", "makhos right", "pieces right RR"
        (the PIECES page: the lone king's side and the attacker's material), "end" (MH-6) or "stop";
        back to the clock screens when the core accepts it."""
        if what == "end":
            ok = self.apply(CountEnd, at_ns)
        elif what == "stop":
            ok = self.apply(CountStop, at_ns)
        elif what.startswith("pieces "):
            _, side, attacker = what.split()
            # MR-6: the board holds the two kings and the attacker's pieces, nothing else
            ok = self.apply(CountStart, at_ns, kind="pieces", side=SIDES.index(side),
                            attacker=attacker, on_board=2 + len(attacker))
        else:
            kind, side = what.split()
            ok = self.apply(CountStart, at_ns, kind=kind, side=SIDES.index(side))
        if ok:
            self.menu.close()
            self.unlocked = False

    def apply_settings(self) -> None:
        """Mute and brightness to the sinks that offer them."""
        if hasattr(self.buzzer, "set_mute"):
            self.buzzer.set_mute(self.settings.mute)
        if hasattr(self.display, "set_contrast"):
            self.display.set_contrast(menus.contrast(self.settings.brightness))

    def save_settings(self) -> None:
        """Every change of the settings ends here: the snapshot other threads read is renewed, and the
        settings are kept (settings.json) when the loop has a store."""
        self.publish_info()
        if self.settings_store is None:
            return
        try:
            self.settings_store.save(self.settings)
        except OSError as exc:  # the clock keeps going with the new values; they just won't survive
            log.warning("settings not saved: %s", exc)
            self.message = f"settings not saved: {exc.strerror or exc}"
