"""Result entry (CL-5): once the game is over the knob and the player buttons go to a
`ui.resultentry.ResultEntry`; each accepted line is kept (and journaled); when both players have
confirmed, the record goes to the outbox and RESULT SAVED shows."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gameclock.core import clock as core
from gameclock.core.result import Entry, EntryError
from gameclock.gamelog import preset_scoring
from gameclock.loop.base import SIDES, LoopBase, log  # noqa: F401
from gameclock.loop.sinks import Frame  # noqa: F401
from gameclock.record import build_record, known_level
from gameclock.ui import resultscreens, screens
from gameclock.ui.resultentry import SAVED as RESULT_SAVED
from gameclock.ui.resultentry import Reply, ResultEntry

SAVING = "SAVING RESULT"  # the message line while the record waits for the card


class ResultMode(LoopBase):
    def begin_result(self, entry: Entry | None = None) -> None:
        """The result entry of the game that is over; `entry` (core.result.Entry): what a restored
        game had entered (its lines stay in `entries`)."""
        assert self.state is not None, "a result is a game's"
        scoring = preset_scoring(self.preset)
        self.result = ResultEntry(scoring, core.view(self.state),
                                  known_level(scoring, self.settings.level or None), self.settings.stage, entry)

    def _result_key(self, key: str, at_ns: int) -> None:
        assert self.state is not None and self.result is not None, "the result entry's keys (Loop.key)"
        reply = self.result.key(key, at_ns)
        if reply.menu:  # the game menu (Resume comes back to the result)
            self._open_game_menu(self.state.phase)
            return
        self._result_reply(reply, at_ns)

    def _result_reply(self, reply: Reply, at_ns: int) -> None:
        assert self.result is not None, "a reply of the result entry"
        for words in reply.lines:
            if not self.enter(words, at_ns):
                return
        if self.result.message:
            self.message = self.result.message

    def enter(self, words: Sequence[str], at_ns: int) -> bool:
        """Apply one result-entry line (`score left 412`, `confirm right`, ...; words) at monotonic
        `at_ns`. Accepted: kept in `entries` as (session ns, words), and once both players have
        confirmed, the record goes to the outbox. Refused: the reason is the message."""
        assert self.state is not None and self.result is not None, "result lines need the result entry"
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
        assert self.state is not None and self.result is not None and self.preset is not None, \
            "a record is a game's result"
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
        # SAVED only once it is on the card (issue 13): under `gameclock run` the writer thread stores
        # it and wakes the loop; until then the screens say SAVING (NOT SAVED YET while the disk fails)
        self.message = "RESULT SAVED" if self.saved_text() == "RESULT SAVED" else SAVING

    def saved_text(self) -> str:
        """The saved result's bottom line: RESULT SAVED once the record is durable, SAVING while the
        writer has it queued, NOT SAVED YET while the disk fails (it stays queued), NOT SAVED if the
        outbox refused it."""
        if self.record_error:
            return "NOT SAVED"
        durable = getattr(self.outbox, "durable", None)
        if self.record is None or durable is None or durable(self.record["id"]):
            return "RESULT SAVED"
        return "NOT SAVED YET" if self.journal is not None and self.journal.status else "SAVING"

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

    def _compose_result(self, v: dict[str, Any]) -> Frame:
        assert self.result is not None and self.preset is not None, "the result screens"
        rv = self.result.view(self.settings.language)  # the result screens' words (ui/text.py)
        rv["label"] = self.preset.short + screens.game_tag(self.game_no, self.tiebreak)
        rv["page"] = getattr(self, "review_page", 0)  # issue 27: the Thai review's page (loop/render.py)
        if rv["stage"] == RESULT_SAVED:
            rv["saved_text"] = self.saved_text()
            rv["dock"] = self.dock_tag()  # issue 27: the dock's status on RESULT SAVED too
            if self.message == SAVING and rv["saved_text"] == "RESULT SAVED":
                self.message = "RESULT SAVED"  # the writer's wake: it is on the card now
        return Frame(resultscreens.render_entry(rv), resultscreens.render_summary(rv, 1),
                     resultscreens.captions(rv), f"{self._info(v)} | result {rv['stage']}", self.shown_message())
