"""What the loop's tests at tests/ share: a sink for the displays and the buzzer that keeps what it was
given, and a monotonic clock the test moves by hand (ns), so a loop runs without hardware or time."""
from __future__ import annotations

S = 1_000_000_000      # ns in a second
MS = 1_000_000         # ns in a millisecond


class Sink:
    """The displays' and the buzzer's sink: `frames` every frame shown, `beeps` every beep's text."""

    def __init__(self) -> None:
        self.frames: list[object] = []
        self.beeps: list[str] = []

    def show(self, frame: object) -> None:
        self.frames.append(frame)

    def beep(self, alert: object, text: str) -> None:
        self.beeps.append(text)


class FakeTime:
    """The loop's clock (`clock=`): `now` in ns, moved by the test."""

    def __init__(self, start: int) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now
