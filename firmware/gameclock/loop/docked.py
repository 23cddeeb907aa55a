"""Docked: the dock thread's status (DockUpdate) shown on the status lines, and docking kept out of a
running game (no upload starts, no tag, the all-sent chirp waits for the clocks to stop)."""
from __future__ import annotations

from gameclock.inbox import DockUpdate
from gameclock.loop.base import SIDES, LoopBase, log  # noqa: F401
from gameclock.loop.sinks import Frame  # noqa: F401


class DockedMode(LoopBase):
    def _dock_update(self, item: DockUpdate) -> None:
        """The dock thread's new status: shown while no clock runs; all sent: a beep once they stop."""
        was_done = self.dock_status is not None and self.dock_status.done
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
