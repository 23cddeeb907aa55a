"""What the loop hands its sinks (`Frame`), and the shapes of the sinks and timers it drives."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from PIL import Image




@dataclass(frozen=True)
class Frame:
    """What both displays show. Images: 128x64 mode "1". Captions: plain text under each screen."""
    left: Image.Image
    right: Image.Image
    captions: tuple[str, str]
    info: str
    message: str = ""

    def key(self) -> tuple:
        return (self.left.tobytes(), self.right.tobytes(), self.captions, self.info, self.message)


class DisplaySink(Protocol):
    def show(self, frame: Frame) -> None: ...


class BuzzerSink(Protocol):
    def beep(self, alert: dict, text: str) -> None: ...


class MemoryOutbox(list):
    """The outbox when none is given (simulator, tests): confirmed records in memory only."""

    def put(self, record: dict) -> bool:
        self.append(record)
        return True


class Timer(Protocol):
    """Something the loop wakes for besides the clock (watchdog ping, buzzer pattern steps).
    Times are monotonic ns; both methods run on the loop thread."""

    def next_wake(self) -> int | None: ...

    def fire(self, now_ns: int) -> None: ...
