"""Docked: the dock thread's status (DockUpdate) shown on the status lines, docking kept out of a
running game (no upload starts, no tag, the all-sent chirp waits for the clocks to stop), and the
enrollment question (SECURITY.md): while the dock shows a comparison code, the knob answers it."""
from __future__ import annotations

from dataclasses import replace

from gameclock.inbox import DockUpdate
from gameclock.loop.base import SIDES, LoopBase, log  # noqa: F401
from gameclock.loop.sinks import Frame  # noqa: F401
from gameclock.ui import keys as K


class DockedMode(LoopBase):
    def _dock_update(self, item: DockUpdate) -> None:
        """The dock thread's new status: shown while no clock runs; all sent: a beep once they stop."""
        was_done = self.dock_status is not None and self.dock_status.done
        if item.status.code != (self.dock_status.code if self.dock_status is not None else ""):
            self.enroll_yes = False  # a new question: NO is chosen first
        self.dock_status = item.status
        self._dock_beep = self._dock_beep or (item.status.done and not was_done and item.status.sent > 0)

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

    def enroll_asking(self) -> str:
        """The comparison code the arbiter is asked about ("" when none, or while a side's clock runs:
        the dock then refuses to enroll)."""
        if self.dock_status is None or self._running():
            return ""
        return self.dock_status.code

    def _enroll_key(self, key: str, at_ns: int) -> None:
        """The knob on the enrollment question: turning moves between NO and YES, a push answers
        the one chosen, BACK or a long push answers NO."""
        code = self.enroll_asking()
        if key in (K.UP, K.DOWN):
            self.enroll_yes = not self.enroll_yes
            return
        yes = key == K.CLICK and self.enroll_yes
        if self.dock is not None:
            self.dock.answer_enroll(code, yes)
        log.info("the arbiter answered the enrollment code %s: %s", code, "yes" if yes else "no")
        self.message = "enrolment confirmed: the PC finishes it" if yes else "enrolment refused"
        # the question stays until the dock's next status takes the code away; a second answer is ignored
        if self.dock_status is not None:
            self.dock_status = replace(self.dock_status, code="")
