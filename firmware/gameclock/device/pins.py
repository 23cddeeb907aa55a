"""The input side of the wiring: every input adapter built from a `Wiring` on one pin factory.

The pin map itself is data now: `hw/wiring.toml`, loaded by `gameclock.device.wiring`. The simulator
and the Pi build the same adapters from the same file; only the pin factory differs (MockFactory in
the simulator and the tests, gpiozero's default -- lgpio -- on the Pi).

`PINS` (the default wiring file's input pins, by role) is kept for callers of the old dict.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from gameclock.device.buttons import PlayerButtons, Put
from gameclock.device.closing import Closing, PinFactory
from gameclock.device.encoder import Knob
from gameclock.device.wiring import DEFAULT_WIRING, Wiring, load_wiring


class Inputs(Closing):
    """The player buttons or lever, the pause button and the knob of `wiring`, enqueueing with `put`."""

    def __init__(self, put: Put, wiring: Wiring, *, pin_factory: PinFactory | None = None,
                 clock: Callable[[], int] = time.monotonic_ns):
        self.wiring = wiring
        self.players = PlayerButtons(put, dict(wiring.pins), debounce_ns=wiring.debounce_ns,
                                     pin_factory=pin_factory)
        try:
            self.knob = Knob(put, dict(wiring.pins), pin_factory=pin_factory, clock=clock,
                             debounce_ns=wiring.debounce_ns)
        except Exception:
            self.players.close()
            raise

    def pins(self) -> dict[str, Any]:
        """Role -> the gpiozero pin object (the simulator's keys and the tests drive these)."""
        out = {name: button.pin for name, button in self.players.buttons.items()}
        out.update(knob_a=self.knob.encoder.a.pin, knob_b=self.knob.encoder.b.pin,
                   knob_push=self.knob.push.pin, back=self.knob.back.pin)
        return out

    def close(self) -> None:
        self.knob.close()
        self.players.close()

    def __repr__(self) -> str:
        return f"<Inputs {self.players!r} {self.knob!r}>"


def __getattr__(name: str) -> dict[str, int]:
    if name == "PINS":
        return dict(load_wiring(DEFAULT_WIRING).pins)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
