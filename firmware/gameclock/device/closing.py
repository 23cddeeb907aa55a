"""What the device adapters share: `with` closes them (gpiozero's habit), and the pin factory type.

    with Buzzer(wiring.buzzer, pin_factory=factory) as buzzer:
        ...                     # buzzer.close() at the end, also on an exception

Each adapter's `close()` releases what it holds (pins, buses, its thread) and may be called again.
"""
from __future__ import annotations

from typing import Protocol, Self

# A gpiozero pin factory (MockFactory, LGPIOFactory, ...), handed through to gpiozero untouched
# (gpiozero has no type information); None: gpiozero's default factory.
PinFactory = object


class Closable(Protocol):
    def close(self) -> None: ...


class Closing:
    """`__enter__` returns the device, `__exit__` calls its `close()`."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def pin_name(pin: object) -> str:
    """A gpiozero pin as gpiozero names it ("GPIO17"); a closed device's pin (None): "closed"."""
    return "closed" if pin is None else str(pin)
