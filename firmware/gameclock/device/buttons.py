"""Player buttons and the pause button: gpiozero input pins, our own debounce, stamp and enqueue.

The pins are set up by gpiozero's `InputDevice` (pull-up, active low: a button shorts the pin to
ground) with the pin's bounce filter off (`bounce = None`). We watch the raw edge stream through
`pin.when_changed(ticks, state)` and debounce it ourselves: the first edge counts, then every edge
for `debounce_ns` is ignored (CL-2: bounce and chatter never switch twice). The charged instant is
the counted edge's tick (CL-1), converted from the backend's float seconds of the monotonic clock
(MockFactory, lgpio) to integer nanoseconds.

Which instant a tick is depends on gpiozero's pin factory (`edge_times`): lgpio hands over the
kernel's timestamp of the edge (CLOCK_MONOTONIC, exact); the RPi.GPIO fallback (and gpiozero's
native factory) call back with the time of the callback, a little after the edge; pigpio's ticks
are pigpiod's own microsecond counter, not our clock, so with it we stamp `time.monotonic_ns()` at
the callback. A backend without exact edge times is logged as a warning once per process.

A two-position toggle lever (wiring `players.input = "lever"`, pins `lever_left`/`lever_right`) is
one contact per position, each debounced the same way; the lever's position says which side's
clock runs: throwing it from the left position to the right one is the LEFT player's press (the
right clock then runs), stamped at the closing edge of the right contact (`Lever`).

Adapters only stamp and enqueue; they never look at clock state.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gpiozero import InputDevice

from gameclock.device.closing import Closing, PinFactory, pin_name
from gameclock.inbox import Input, PauseButton, PlayerButton, PushEdge

NS_PER_S = 1_000_000_000
DEBOUNCE_NS = 30_000_000  # 30 ms: longer than a contact's bounce, far shorter than a human re-press

Put = Callable[[Input], None]  # where an adapter's inputs go: the loop's inbox.put

log = logging.getLogger(__name__)


def ticks_to_ns(ticks: float) -> int:
    """A gpiozero edge tick (float seconds, monotonic clock) as integer nanoseconds."""
    return round(ticks * NS_PER_S)


@dataclass(frozen=True)
class EdgeTimes:
    """What a pin factory's edge ticks are. exact: the edge's own instant (CL-1 to the tick);
    monotonic: float seconds on CLOCK_MONOTONIC (else we stamp the callback ourselves)."""
    backend: str
    exact: bool
    monotonic: bool
    note: str


_EDGE_TIMES = {
    "LGPIOFactory": EdgeTimes("lgpio", True, True, "exact edge times (kernel timestamps)"),
    "MockFactory": EdgeTimes("mock", True, True, "mock pins: the tick given with each edge"),
    "RPiGPIOFactory": EdgeTimes("rpigpio", False, True,
                                "edge times are callback times, not edge times (RPi.GPIO fallback)"),
    "NativeFactory": EdgeTimes("native", False, True,
                               "edge times are callback times, not edge times (native, polled)"),
    "PiGPIOFactory": EdgeTimes("pigpio", False, False,
                               "edge times are callback times, not edge times (pigpio ticks are "
                               "not on the monotonic clock)"),
}
_warned: set[str] = set()


def edge_times(pin_factory: PinFactory | None) -> EdgeTimes:
    """What the edge ticks of `pin_factory` (None: gpiozero's default, made if need be) are."""
    if pin_factory is None:
        from gpiozero import Device
        pin_factory = Device.ensure_pin_factory()
    name = type(pin_factory).__name__
    for cls in type(pin_factory).__mro__:
        if cls.__name__ in _EDGE_TIMES:
            return _EDGE_TIMES[cls.__name__]
    return EdgeTimes(name, False, False, f"edge times are callback times (unknown pin factory {name})")


def warn_if_inexact(times: EdgeTimes) -> None:
    """Log once per backend that presses are charged at callback times, not edge times."""
    if not times.exact and times.backend not in _warned:
        _warned.add(times.backend)
        log.warning("GPIO backend %s: %s; presses are charged a little late (CL-1). "
                    "Use lgpio (GPIOZERO_PIN_FACTORY=lgpio) for exact edge times.",
                    times.backend, times.note)


class Debouncer:
    """Debounce a raw edge stream (pure; times in ns).

    `edge(at_ns, active)` returns the debounced transitions it completes, as a list of
    `(at_ns, active)`: usually [] (ignored) or one item. An edge counts if it comes `window_ns` or
    more after the last counted edge and changes the debounced level. An active edge that finds the
    level already active proves a release was swallowed by the window (a tap shorter than the
    window): the release is reported first, at the time of the last raw edge.
    """

    def __init__(self, window_ns: int = DEBOUNCE_NS, active: bool = False):
        self.window_ns = window_ns
        self.active = active
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


class DebouncedButton(Closing):
    """One push button on a gpiozero pin (pull-up, active low) reporting debounced transitions.

    `on_change(at_ns, active)` is called from the GPIO backend's thread for every counted transition.
    The debounced level starts as the pin is (a lever's contact is closed at start).
    """

    def __init__(self, pin: int | str, on_change: Callable[[int, bool], None], *,
                 debounce_ns: int = DEBOUNCE_NS, pin_factory: PinFactory | None = None,
                 times: EdgeTimes | None = None):
        self._device = InputDevice(pin, pull_up=True, pin_factory=pin_factory)
        times = times or edge_times(self._device.pin_factory)
        self._stamp: Callable[[float], int] = (
            ticks_to_ns if times.monotonic else lambda _ticks: time.monotonic_ns())
        self._debouncer = Debouncer(debounce_ns, active=self.is_closed)
        self._on_change = on_change
        raw = self._device.pin
        raw.bounce = None
        raw.edges = "both"
        # pin.when_changed keeps only a weak reference: the bound method lives as long as self.
        raw.when_changed = self._edge

    @property
    def pin(self) -> Any:
        """The gpiozero pin (tests and the simulator drive it); None once closed."""
        return self._device.pin

    @property
    def is_closed(self) -> bool:
        """The contact is closed now (the raw pin is low)."""
        return not bool(self._device.pin.state)

    def _edge(self, ticks: float, state: object) -> None:
        active = not bool(state)  # pull-up: low is pressed
        for at_ns, level in self._debouncer.edge(self._stamp(ticks), active):
            self._on_change(at_ns, level)

    def close(self) -> None:
        if self._device.closed:
            return
        self._device.pin.when_changed = None
        self._device.close()

    def __repr__(self) -> str:
        if self._device.closed:
            return "<DebouncedButton closed>"
        state = "pressed" if self._debouncer.active else "released"
        return f"<DebouncedButton on {self._device.pin}, {state}>"


class PlayerButtons(Closing):
    """The two player buttons (or the toggle lever) and the pause button: a press (the down edge;
    the lever: the closing edge of the position it is thrown to) is enqueued as
    `PlayerButton(at_ns, side)` or `PauseButton(at_ns)`; releases are not reported.

    `pins`: `left`, `right` (buttons) or `lever_left`, `lever_right` (a lever), and `pause`.
    `buttons` maps those names to their `DebouncedButton`s (tests and the simulator drive the pins).
    """

    def __init__(self, put: Put, pins: Mapping[str, int | str], *, debounce_ns: int = DEBOUNCE_NS,
                 pin_factory: PinFactory | None = None):
        self._put = put
        self.buttons: dict[str, DebouncedButton] = {}
        self.lever: Lever | None = None
        self.edge_times = edge_times(pin_factory)
        warn_if_inexact(self.edge_times)
        times = self.edge_times
        try:
            if "lever_left" in pins or "lever_right" in pins:
                self.lever = Lever(put, pins["lever_left"], pins["lever_right"], debounce_ns=debounce_ns,
                                   pin_factory=pin_factory, times=times)
                self.buttons.update(lever_left=self.lever.contacts[0], lever_right=self.lever.contacts[1])
            else:
                for side, name in enumerate(("left", "right")):
                    self.buttons[name] = DebouncedButton(pins[name], self._press_handler(side),
                                                         debounce_ns=debounce_ns, pin_factory=pin_factory,
                                                         times=times)
            self.buttons["pause"] = DebouncedButton(pins["pause"], self._pause_handler, debounce_ns=debounce_ns,
                                                    pin_factory=pin_factory, times=times)
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
        self.buttons.clear()
        if self.lever is not None:
            self.lever.close()  # its contacts are closed already: it forgets them

    def __repr__(self) -> str:
        if not self.buttons:
            return "<PlayerButtons closed>"
        pins = ", ".join(f"{name} {pin_name(b.pin)}" for name, b in self.buttons.items())
        lever = "" if self.lever is None else f", lever {_POSITIONS[self.lever.position]}"
        exact = "exact" if self.edge_times.exact else "callback"
        return f"<PlayerButtons {pins}{lever}; {self.edge_times.backend} ({exact} edge times)>"


_POSITIONS = {0: "left", 1: "right", None: "in neither position"}


class Lever(Closing):
    """A two-position toggle lever: contact `left_pin` closed = the lever in the left position,
    `right_pin` closed = the right position (common pin to ground). Each contact is debounced like
    a button. The position says which side's clock runs, so the closing (counted) edge of the
    contact the lever is thrown to is a press of the OTHER side: into the right position = the
    left player's press, `PlayerButton(at_ns, 0)`; into the left position = the right player's.
    A contact closing again in the position the lever already has (a wobble, or chatter after the
    debounce window) is no press (CL-2). The position at start is read from the pins (None if
    neither contact, or both, is closed: then the first closing is a press)."""

    def __init__(self, put: Put, left_pin: int | str, right_pin: int | str, *,
                 debounce_ns: int = DEBOUNCE_NS, pin_factory: PinFactory | None = None,
                 times: EdgeTimes | None = None):
        self._put = put
        self.contacts: list[DebouncedButton] = []
        try:
            for position in (0, 1):
                self.contacts.append(DebouncedButton(
                    (left_pin, right_pin)[position], self._handler(position), debounce_ns=debounce_ns,
                    pin_factory=pin_factory, times=times))
        except Exception:
            self.close()
            raise
        closed = [c.is_closed for c in self.contacts]
        self.position: int | None = closed.index(True) if closed.count(True) == 1 else None

    def _handler(self, position: int) -> Callable[[int, bool], None]:
        def handler(at_ns: int, active: bool) -> None:
            if active and self.position != position:
                self.position = position
                self._put(PlayerButton(at_ns, 1 - position))  # thrown to the right: left's press
        return handler

    def close(self) -> None:
        for contact in self.contacts:
            contact.close()
        self.contacts.clear()

    def __repr__(self) -> str:
        if not self.contacts:
            return "<Lever closed>"
        left, right = (pin_name(c.pin) for c in self.contacts)
        return f"<Lever on {left} (left) and {right} (right), {_POSITIONS[self.position]}>"


def push_button(pin: int | str, put: Put, *, debounce_ns: int = DEBOUNCE_NS,
                pin_factory: PinFactory | None = None) -> DebouncedButton:
    """A push button reporting both transitions as `PushEdge(at_ns, down)` (the knob's push)."""
    return DebouncedButton(pin, lambda at_ns, active: put(PushEdge(at_ns, active)),
                           debounce_ns=debounce_ns, pin_factory=pin_factory)
