"""What the device adapters share: the pin factory type, and what closes."""
from __future__ import annotations

from typing import Protocol

# A gpiozero pin factory (MockFactory, LGPIOFactory, ...), handed through to gpiozero untouched
# (gpiozero has no type information); None: gpiozero's default factory.
PinFactory = object


class Closable(Protocol):
    def close(self) -> None: ...
