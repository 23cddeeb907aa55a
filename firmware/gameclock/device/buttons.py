"""Player buttons and the pause button: gpiozero input pins, our own debounce, stamp and enqueue.

The pins are set up by gpiozero's `InputDevice` (pull-up, active low: a button shorts the pin to
ground) with the pin's bounce filter off (`bounce = None`). We watch the raw edge stream through
`pin.when_changed(ticks, state)` and debounce it ourselves: the first edge counts, then every edge
for `debounce_ns` is ignored (CL-2: bounce and chatter never switch twice). The charged instant is
the counted edge's tick (CL-1), converted from the backend's float seconds of the monotonic clock
(MockFactory, lgpio) to integer nanoseconds.

Adapters only stamp and enqueue; they never look at clock state.
"""
from __future__ import annotations

from typing import Callable

from gpiozero import InputDevice

from gameclock.ui.keys import PauseButton, PlayerButton, PushEdge

NS_PER_S = 1_000_000_000
DEBOUNCE_NS = 30_000_000  # 30 ms: longer than a contact's bounce, far shorter than a human re-press

Put = Callable[[object], None]


def ticks_to_ns(ticks: float) -> int:
    """A gpiozero edge tick (float seconds, monotonic clock) as integer nanoseconds."""
    return round(ticks * NS_PER_S)


class Debouncer:
    """Debounce a raw edge stream (pure; times in ns).

    `edge(at_ns, active)` returns the debounced transitions it completes, as a list of
    `(at_ns, active)`: usually [] (ignored) or one item. An edge counts if it comes `window_ns` or
    more after the last counted edge and changes the debounced level. An active edge that finds the
    level already active proves a release was swallowed by the window (a tap shorter than the
    window): the release is reported first, at the time of the last raw edge.
    """

    def __init__(self, window_ns: int = DEBOUNCE_NS):
        self.window_ns = window_ns
        self.active = False
        self._last_counted_ns: int | None = None
        self._last_raw_ns: int | None = None

    def edge(self, at_ns: int, active: bool) -> list[tuple[int, bool]]:
        last_raw, self._last_raw_ns = self._last_raw_ns, at_ns
        if self._last_counted_ns is not None and at_ns - self._last_counted_ns < self.window_ns:
            return []
        out: list[tuple[int, bool]] = []
        if active == self.active:
            if not active or last_raw is None:
                return []  # a stray release; nothing to report
            swallowed = last_raw if last_raw != self._last_counted_ns else at_ns
            out.append((swallowed, False))  # the release the window swallowed
        self.active = active
        self._last_counted_ns = at_ns
        out.append((at_ns, active))
        return out


class DebouncedButton:
    """One push button on a gpiozero pin (pull-up, active low) reporting debounced transitions.

    `on_change(at_ns, active)` is called from the GPIO backend's thread for every counted transition.
    """

    def __init__(self, pin: int | str, on_change: Callable[[int, bool], None], *,
                 debounce_ns: int = DEBOUNCE_NS, pin_factory=None):
        self._device = InputDevice(pin, pull_up=True, pin_factory=pin_factory)
        self._debouncer = Debouncer(debounce_ns)
        self._on_change = on_change
        raw = self._device.pin
        raw.bounce = None
        raw.edges = "both"
        # pin.when_changed keeps only a weak reference: the bound method lives as long as self.
        raw.when_changed = self._edge

    @property
    def pin(self):
        """The gpiozero pin (tests and the simulator drive it)."""
        return self._device.pin

    def _edge(self, ticks: float, state) -> None:
        active = not bool(state)  # pull-up: low is pressed
        for at_ns, level in self._debouncer.edge(ticks_to_ns(ticks), active):
            self._on_change(at_ns, level)

    def close(self) -> None:
        self._device.pin.when_changed = None
        self._device.close()


class PlayerButtons:
    """The two player buttons and the pause button: a press (the down edge) is enqueued as
    `PlayerButton(at_ns, side)` or `PauseButton(at_ns)`; releases are not reported."""

    def __init__(self, put: Put, pins: dict, *, debounce_ns: int = DEBOUNCE_NS, pin_factory=None):
        self._put = put
        self.buttons = {}
        try:
            for side, name in enumerate(("left", "right")):
                self.buttons[name] = DebouncedButton(
                    pins[name], self._press_handler(side), debounce_ns=debounce_ns,
                    pin_factory=pin_factory)
            self.buttons["pause"] = DebouncedButton(
                pins["pause"], self._pause_handler, debounce_ns=debounce_ns, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def _press_handler(self, side: int) -> Callable[[int, bool], None]:
        def handler(at_ns: int, active: bool) -> None:
            if active:
                self._put(PlayerButton(at_ns, side))
        return handler

    def _pause_handler(self, at_ns: int, active: bool) -> None:
        if active:
            self._put(PauseButton(at_ns))

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()


def push_button(pin: int | str, put: Put, *, debounce_ns: int = DEBOUNCE_NS,
                pin_factory=None) -> DebouncedButton:
    """A push button reporting both transitions as `PushEdge(at_ns, down)` (the knob's push)."""
    return DebouncedButton(pin, lambda at_ns, active: put(PushEdge(at_ns, active)),
                           debounce_ns=debounce_ns, pin_factory=pin_factory)
