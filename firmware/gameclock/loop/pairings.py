"""Pairings pushed by the organiser's PC (issue 6): applied at once when no game is under way, else
held for the next game; the record info (event, round, table, players) the journal and the record
carry, and the immutable snapshot of it the dock thread reads.

The event's set-up (issue 15) comes with a pairing: `level` and `stage` (XW-8) and `language` become
the settings; `preset` is the next game's: applied at once, a game at ready (nothing pressed) or no
game becomes a new game at ready with that preset (so the clock shows it before the first press), and
a finished game whose result is saved is followed by one; held (a game under way), the next
`new_game` starts with it, whatever the arbiter's Next game or New game named (the game under way
never changes its preset). A preset id this clock does not know refuses the WHOLE pairing (the
message line says so, the settings stay as they were): the names without the event's time control
would let a game start on the wrong clock while the arbiter believes the set-up arrived.

`game` (issue 16, dock protocol 4), when the pairing gives it, is the game's number in its match (a
published round's game 2: the screens show G2): applied at once, the game at ready becomes that game
(of the pairing's preset, else of the clock's); held, the next `new_game` is that game."""
from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from gameclock.core import clock as core
from gameclock.core.result import Entry, changed_info
from gameclock.dock.pairing import PairingError, check_pairing, setup_text
from gameclock.gamelog import header_info, preset_scoring
from gameclock.loop.base import SIDES, LoopBase, log  # noqa: F401
from gameclock.loop.sinks import Frame  # noqa: F401
from gameclock.persist.journal import flat_header
from gameclock.record import known_level
from gameclock.ui import menu as menus
from gameclock.ui.text import tr


def info_of(s: menus.Settings) -> dict[str, Any]:
    """The record info of settings `s` (Loop.record_info): event (a pairing's event name, else the
    number), round, table; the players when known; level and stage when not the defaults."""
    info: dict[str, Any] = {"event": s.event_name or s.event, "round": s.round, "table": s.table}
    if s.players:
        info["players"] = dict(s.players)
    if s.level:  # XW-8's cap level; absent: the rule file's default
        info["level"] = s.level
    if s.stage != "qualifying":  # XW-8: the last qualifying game, the final
        info["stage"] = s.stage
    return info


def with_pairing(s: menus.Settings, p: dict[str, Any]) -> None:
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
    for key in ("level", "stage", "language"):  # the event's set-up (issue 15); None keeps the setting
        if p.get(key) is not None:
            setattr(s, key, p[key])


def pairing_text(p: dict[str, Any]) -> str:
    """A pairing for the message line: "R3 T5 Anan v Boon [crossword primary last th]"."""
    setup = setup_text(p)
    return f"R{p['round']} T{p['table']} {menus.players_text(p['players'])}" + (f" [{setup}]" if setup else "")


class PairingMode(LoopBase):
    @property
    def record_info(self) -> dict[str, Any]:
        """Event, round and table as set in the menu or by a pairing, and the pairing's players (for
        the game's result record, CL-5, and the journal's header lines)."""
        return info_of(self.settings)

    def publish_info(self) -> None:
        """`info_snapshot`: the record info as an immutable copy, for other threads (the dock thread's
        hello reads it; it never reads the settings the loop is changing)."""
        self.info_snapshot: Mapping[str, Any] = MappingProxyType(copy.deepcopy(self.record_info))

    def pairing(self, pairing: dict[str, Any]) -> None:
        """A pairing from the organiser's PC (a `Pairing` input): applied now when no game is under
        way, else held for the next game. A bad one is refused (logged, on the message line)."""
        try:
            p = check_pairing(pairing)
            lang = self.settings.language  # the message line's words (ui/text.tr templates)
            for key in ("round", "table"):
                if not menus.FIELDS[key].valid(p[key]):
                    raise PairingError(tr("{what} {value} is more than {hi}", lang).format(
                        what=tr(key, lang), value=p[key], hi=menus.FIELDS[key].hi))
            if p.get("preset") is not None and not any(pre.id == p["preset"] for pre in self.presets):
                # the whole pairing is refused (module doc): the arbiter sees it, the settings stay
                raise PairingError(tr("preset {preset} is not on this clock (add its rule file, or fix the pairing)",
                                      lang).format(preset=p["preset"]))
        except PairingError as exc:
            log.warning("pairing refused: %s", exc)
            self.message = tr("pairing refused: {why}", self.settings.language).format(why=exc)
            return
        what = pairing_text(p)
        if self.game_under_way():
            if self._same_as_game(p):  # the game's own pairing again
                self.settings.next_pairing = None
            else:
                self.settings.next_pairing = p
                log.info("pairing held for the next game: %s", what)
            self.save_settings()
            return
        self.settings.next_pairing = None
        changed = self._apply_pairing(p)
        self.save_settings()
        started = self._start_pairing_preset(p)
        if changed or started:
            log.info("pairing: %s", what)
            if not started:  # a new game's journal has the new header already
                self._reheader_ready()
            self.message = tr("pairing: {what}", self.settings.language).format(what=what)

    def _same_as_game(self, p: dict[str, Any]) -> bool:
        """Pairing `p` is the game under way's own (the PC pushes it again at every docking): its record
        info, and a set-up the game already has."""
        s = self.settings
        own = {"preset": self.preset.id if self.preset is not None else None, "language": s.language,
               "game": self.game_no}
        return (self._pairing_info(p) == self.record_info
                and all(p.get(k) is None or p[k] == own[k] for k in own))

    def _start_pairing_preset(self, p: dict[str, Any]) -> bool:
        """A pairing's preset, applied when no game is under way: unless the clock has a game of it
        already, a new game at ready with it (game 1 of a new match; MH-4's tie-break presets begin
        at their first step, as the preset menu starts them). True if a game was started."""
        pid, game = p.get("preset"), p.get("game")
        current = self.preset.id if self.preset is not None else None
        if pid is None or pid == current:
            if game is None or current is None or game == self.game_no:
                return False
            pid = current  # issue 16: the same preset, the pairing's game of the match
        number, tiebreak = self.first_game(pid)
        self.new_game(pid, game or number, tiebreak)
        return True

    def game_under_way(self) -> bool:
        """A game has begun and its result is not saved yet: a pairing waits for the next game."""
        if self.state is None:
            return False
        if self.result is not None:
            return self.record is None  # built (saved, or kept when the outbox refused it): done
        return bool(self.events) or self.state.phase != core.READY

    def _pairing_info(self, p: dict[str, Any]) -> dict[str, Any]:
        """record_info as it would be with pairing `p` applied (on a copy: the dock thread reads
        record_info for its hello, so the settings never hold what is not applied)."""
        s = dataclasses.replace(self.settings)
        with_pairing(s, p)
        return info_of(s)

    def _apply_pairing(self, p: dict[str, Any]) -> bool:
        """Pairing `p` (checked) into the settings; True if the record info or the language changed."""
        before = (self.record_info, self.settings.language)
        with_pairing(self.settings, p)
        return (self.record_info, self.settings.language) != before

    def _reheader_ready(self) -> None:
        """The game at ready (nothing pressed) gets a new journal whose header is the record info as
        it is now (the old file is closed `abandoned`), so a crash from here on restores the game
        with the pairing's names."""
        if self.state is None or self.game_under_way() or self.result is not None:
            return
        self._begin_journal()

    def _begin_journal(self) -> None:
        """The game's journal begins now: its time 0 is this instant and its header the record info
        as it is now (a new file when the loop has a journal). The record is built from that header
        and the game's own lines, in the game's time, as every replay of the journal builds it
        (issue 27), so the loop keeps the header's info as the journal's reader reads it."""
        header = self._journal_header()
        self.game_zero_ns = self._rel(self.clock())
        self.game_info = dict(header_info(flat_header(header)))
        self.info_entry = Entry()
        if self.journal is not None:
            self.journal.begin_game(header, self.game_zero_ns)

    def game_record_info(self) -> dict[str, Any]:
        """The record info the game's record would have now: its journal header's, changed by its
        lines (core.result.changed_info)."""
        return changed_info(self.game_info, self.current_entry())

    def record_setting_changed(self, keys: Sequence[str], at_ns: int) -> None:
        """Settings of the record info (base.RECORD_SETTINGS) changed on the clock's menu (at monotonic
        `at_ns`). A game at ready that nobody has pressed begins its journal again with them in its
        header; a game under way, or over and not saved, gets a line for each that changed what its
        record says (`round 2`, `player left`, `level -`; core.result.INFO_VERBS): journaled, folded
        by every replay, and, once its result is up for confirmation, clearing both confirmations
        (issue 27: what the players confirmed is what the record holds). A saved result keeps its
        record; the next game's header has the new values."""
        if self.state is None or self.record is not None:
            return
        if not self.game_under_way():
            self._reheader_ready()
            return
        for words in self._info_lines(keys):
            if not self.enter(words, at_ns):
                return

    def _info_lines(self, keys: Sequence[str]) -> list[list[str]]:
        """The lines that make the game's record info say what the settings say for `keys` (none for a
        key where it already does). Both sides read as a journal's header reads (names with their
        white space folded), and a level as the preset's caps know it (XW-8: a preset without levels
        has none to change)."""
        have = self.game_record_info()
        want: dict[str, Any] = dict(header_info(flat_header(self.record_info)))
        scoring = preset_scoring(self.preset)
        lines: list[list[str]] = []
        for key in keys:
            if key == "players":
                players = have.get("players") or {}
                lines += [["player", side, *(want["players"][side] or "").split()] for side in SIDES
                          if want["players"][side] != players.get(side)]
            elif key == "level":
                level = known_level(scoring, want["level"])
                if level != known_level(scoring, have.get("level")):
                    lines.append(["level", level or "-"])
            elif want[key] != have.get(key):  # event, round, table, stage
                lines.append([key, str(want[key])])
        return lines

    def _journal_header(self) -> dict[str, Any]:
        assert self.preset is not None, "a journal header is a game's (new_game, or a game at ready)"
        tb = {"tiebreak": self.tiebreak} if self.tiebreak else {}
        # `clock`: whose journal it is, so a record built again from it gets its original id (persist.rebuild)
        return {"preset": self.preset.id, "game": self.game_no, **tb, **self.record_info,
                "clock": self.clock_serial}

    def next_text(self) -> str:
        """The pairing held for the next game, for the message line: "next: R3 T5 A v B [crossword th]"
        ("": none)."""
        p = self.settings.next_pairing
        return tr("next: {what}", self.settings.language).format(what=pairing_text(p)) if p else ""

    def setup_view(self) -> dict[str, str]:
        """What the game at ready will be played with (issue 15: shown before the first press; the
        loop puts it in the view as `setup`): the preset's id, level ("" not set), stage, language."""
        s = self.settings
        return {"preset": self.preset.id if self.preset is not None else "", "level": s.level,
                "stage": s.stage, "language": s.language}
