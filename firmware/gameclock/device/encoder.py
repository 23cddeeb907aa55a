"""The menu knob: a rotary encoder with a push switch, plus a back button -> semantic keys.

Turns come from gpiozero's `RotaryEncoder(max_steps=0)` (unbounded; its bounce_time is ignored
anyway, its state machine tolerates jiggle): one detent clockwise -> `Key(DOWN)`, counter-clockwise ->
`Key(UP)`, stamped with `clock()` (monotonic ns) when the detent completes -- menu keys need no edge
precision. The push switch reports debounced `PushEdge(at_ns, down)` with edge ticks; the loop's
`ClickTimer` makes CLICK or LONG_CLICK of them (a timer belongs to the loop, not to an adapter).
The back button enqueues `Key(BACK)` on its down edge.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from gpiozero import RotaryEncoder

from gameclock.device.buttons import DEBOUNCE_NS, DebouncedButton, Put, push_button
from gameclock.device.closing import Closable, Closing, PinFactory, pin_name
from gameclock.inbox import Key
from gameclock.ui.keys import BACK, DOWN, UP

PUSH_DEBOUNCE_NS = 20_000_000  # 20 ms


class Knob(Closing):
    """Encoder on pins `knob_a`/`knob_b`, push on `knob_push`, back button on `back`."""

    def __init__(self, put: Put, pins: Mapping[str, int | str], *, pin_factory: PinFactory | None = None,
                 clock: Callable[[], int] = time.monotonic_ns,
                 push_debounce_ns: int = PUSH_DEBOUNCE_NS, debounce_ns: int = DEBOUNCE_NS):
        self._put = put
        self._clock = clock
        self._parts: list[Closable] = []
        try:
            self.encoder = RotaryEncoder(pins["knob_a"], pins["knob_b"], max_steps=0,
                                         pin_factory=pin_factory)
            self._parts.append(self.encoder)
            # gpiozero's `event` properties hold callbacks strongly; bound methods of self are fine.
            self.encoder.when_rotated_clockwise = self._clockwise
            self.encoder.when_rotated_counter_clockwise = self._counter_clockwise
            self.push = push_button(pins["knob_push"], put, debounce_ns=push_debounce_ns,
                                    pin_factory=pin_factory)
            self._parts.append(self.push)
            self.back = DebouncedButton(pins["back"], self._back, debounce_ns=debounce_ns,
                                        pin_factory=pin_factory)
            self._parts.append(self.back)
        except Exception:
            self.close()
            raise

    def _clockwise(self) -> None:
        self._put(Key(self._clock(), DOWN))

    def _counter_clockwise(self) -> None:
        self._put(Key(self._clock(), UP))

    def _back(self, at_ns: int, active: bool) -> None:
        if active:
            self._put(Key(at_ns, BACK))

    def close(self) -> None:
        for part in reversed(self._parts):
            part.close()
        self._parts.clear()

    def __repr__(self) -> str:
        if not self._parts:
            return "<Knob closed>"
        return (f"<Knob on {pin_name(self.encoder.a.pin)} and {pin_name(self.encoder.b.pin)} "
                f"(steps {self.encoder.steps}), push {pin_name(self.push.pin)}, back {pin_name(self.back.pin)}>")
