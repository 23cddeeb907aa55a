"""Result entry (CL-5): once the game is over the knob and the player buttons go to a
`ui.resultentry.ResultEntry`; each accepted line is kept (and journaled); when both players have
confirmed, the record goes to the outbox and RESULT SAVED shows."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from gameclock.core import clock as core
from gameclock.core.result import Entry, EntryError, apply_entry
from gameclock.gamelog import preset_scoring
from gameclock.loop.base import SIDES, LoopBase, log  # noqa: F401
from gameclock.loop.sinks import Frame  # noqa: F401
from gameclock.record import build_record, known_level
from gameclock.ui import resultscreens, screens
from gameclock.ui.resultentry import SAVED as RESULT_SAVED
from gameclock.ui.resultentry import Reply, ResultEntry

SAVING = "SAVING RESULT"  # the message line while the record waits for the card
REVIEW_PAGE_NS = 4_000_000_000  # a review of several pages shows each this long, round and round (issue 27)


class ResultMode(LoopBase):
    def begin_result(self, entry: Entry | None = None) -> None:
        """The result entry of the game that is over; `entry` (core.result.Entry): what a restored
        game had entered (its lines stay in `entries`)."""
        assert self.state is not None, "a result is a game's"
        scoring = preset_scoring(self.preset)
        # XW-8's level and stage as the game's journal header has them; the lines since change them
        info = self.game_info
        self.result = ResultEntry(scoring, core.view(self.state), known_level(scoring, info.get("level")),
                                  info.get("stage") or "qualifying", self.info_entry if entry is None else entry)
        self.page_turns, self.page_since, self.page_due = 0, None, None
        self._page_stage = ""

    def current_entry(self) -> Entry:
        """The game's lines folded so far: the result entry's, or before the game's end the record
        info's (core.result.INFO_VERBS)."""
        return self.result.entry if self.result is not None else self.info_entry

    def _result_key(self, key: str, at_ns: int) -> None:
        assert self.state is not None and self.result is not None, "the result entry's keys (Loop.key)"
        reply = self.result.key(key, at_ns)
        if reply.menu:  # the game menu (Resume comes back to the result)
            self._open_game_menu(self.state.phase)
            return
        if reply.page:  # the knob turns the review's page; it stays up its full time from now
            self.page_turns += reply.page + (self._page_elapsed(at_ns) if self.page_since is not None else 0)
            self.page_since = at_ns
        self._result_reply(reply, at_ns)

    def _page_elapsed(self, now_ns: int) -> int:
        """Pages turned by time since `page_since`."""
        assert self.page_since is not None, "the review is up"
        return max(0, now_ns - self.page_since) // REVIEW_PAGE_NS

    def review_page(self, rv: dict[str, Any], now_ns: int) -> int:
        """The result's page shown at monotonic `now_ns` (issue 27: both sides' whole entry, on pages
        when the display needs more than one): each page REVIEW_PAGE_NS, round and round, from the
        first when the result's stage changes (the review comes up, it is saved) or the knob last
        turned it; `page_due` is the next turn's wake."""
        if resultscreens.page_count(rv) < 2 or rv["stage"] != self._page_stage:
            self.page_since = self.page_due = None
            self.page_turns = 0
            self._page_stage = rv["stage"]
            if resultscreens.page_count(rv) < 2:
                return 0
        if self.page_since is None:
            self.page_since = now_ns
        turned = self._page_elapsed(now_ns)
        self.page_due = self.page_since + (turned + 1) * REVIEW_PAGE_NS
        return self.page_turns + turned

    def _result_reply(self, reply: Reply, at_ns: int) -> None:
        assert self.result is not None, "a reply of the result entry"
        for words in reply.lines:
            if not self.enter(words, at_ns):
                return
        if self.result.message:
            self.message = self.result.message

    def enter(self, words: Sequence[str], at_ns: int) -> bool:
        """Apply one result-entry line (`score left 412`, `confirm right`, ...; words) at monotonic
        `at_ns`; before the game's end only the record info's (`round 2`: core.result.INFO_VERBS).
        Accepted: kept in `entries` as (session ns, words), and once both players have confirmed, the
        record goes to the outbox. Refused: the reason is the message."""
        assert self.state is not None, "a game's lines"
        at = max(self._rel(at_ns), self.state.now_ns, self.game_zero_ns, self.entries[-1][0] if self.entries else 0)
        try:
            if self.result is not None:
                entry = self.result.apply(words)
            else:  # the game goes on (or its flag waits for the arbiter): the info it will be recorded with
                info = self.game_info
                entry = self.info_entry = apply_entry(
                    self.info_entry, list(words), self.state.phase in (core.FLAGGED, core.FINISHED),
                    preset_scoring(self.preset), core.view(self.state), info.get("level"),
                    info.get("stage") or "qualifying")
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
        # built as every replay of the game's journal builds it (issue 27): from its header's info and
        # its lines, in the game's time (the journal's: session ns less the game's time 0)
        z = self.game_zero_ns
        events = [dataclasses.replace(ev, at_ns=ev.at_ns - z) for ev in self.events]
        entries = [(at - z, words) for at, words in self.entries]
        self.record = build_record(self.preset, self.game_info, self.state, self.result.entry,
                                   events, entries, self.clock_serial, seq,
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

    def _compose_result(self, v: dict[str, Any], now_ns: int) -> Frame:
        assert self.result is not None and self.preset is not None, "the result screens"
        rv = self.result.view(self.settings.language)  # the result screens' words (ui/text.py)
        rv["label"] = self.preset.short + screens.game_tag(self.game_no, self.tiebreak)
        if rv["stage"] == RESULT_SAVED:
            rv["saved_text"] = self.saved_text()
            rv["dock"] = self.dock_tag()  # issue 27: the dock's status on RESULT SAVED too
            if self.message == SAVING and rv["saved_text"] == "RESULT SAVED":
                self.message = "RESULT SAVED"  # the writer's wake: it is on the card now
        rv["page"] = self.review_page(rv, now_ns)  # after the dock's line: a Thai review's pages hold it
        return Frame(resultscreens.render_entry(rv), resultscreens.render_summary(rv, 1),
                     resultscreens.captions(rv), f"{self._info(v)} | result {rv['stage']}", self.shown_message())
