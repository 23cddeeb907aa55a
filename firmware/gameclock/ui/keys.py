"""Semantic keys: the knob as UP/DOWN/CLICK/LONG_CLICK/BACK, and the click timer. (The input messages
adapters put on the loop's queue are in `gameclock.inbox`.) The menu and the clock never see pins.

Knob: clockwise -> DOWN (next item), counter-clockwise -> UP. A short push -> CLICK, a push held for
`LONG_PRESS_NS` -> LONG_CLICK (fired while still held, by the loop's timer, like Klipper's menu_keys).
"""
from __future__ import annotations

UP = "UP"
DOWN = "DOWN"
CLICK = "CLICK"
LONG_CLICK = "LONG_CLICK"
BACK = "BACK"
KEYS = (UP, DOWN, CLICK, LONG_CLICK, BACK)

LONG_PRESS_NS = 800_000_000  # a push held this long is a LONG_CLICK


class ClickTimer:
    """Turns push edges into CLICK (released before `long_ns`) or LONG_CLICK (held `long_ns`).

    Pure: the owner feeds edges and asks `next_wake()`; at that time it calls `expire(at_ns)`.
    Times are integer ns in one domain.
    """

    def __init__(self, long_ns: int = LONG_PRESS_NS):
        self.long_ns = long_ns
        self._down_ns: int | None = None  # when the current press began, None if released or used up
        self._held = False

    def edge(self, at_ns: int, down: bool) -> str | None:
        """Feed a debounced push edge; return the key it completes, if any."""
        if down:
            self._held = True
            self._down_ns = at_ns
            return None
        was = self._down_ns
        self._held = False
        self._down_ns = None
        if was is None:  # the LONG_CLICK already fired for this press
            return None
        return LONG_CLICK if at_ns - was >= self.long_ns else CLICK

    def next_wake(self) -> int | None:
        """The ns at which a held push becomes a LONG_CLICK, or None."""
        return None if self._down_ns is None else self._down_ns + self.long_ns

    def expire(self, at_ns: int) -> str | None:
        """Call at or after `next_wake()`: LONG_CLICK if the push is still held that long."""
        if self._down_ns is not None and at_ns - self._down_ns >= self.long_ns:
            self._down_ns = None
            return LONG_CLICK
        return None
