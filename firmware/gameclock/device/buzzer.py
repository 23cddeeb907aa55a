"""The buzzer: plays the patterns of `gameclock.ui.sounds` on a gpiozero output, from the loop thread.

`Buzzer` is both the loop's buzzer sink (`beep(alert, text)`) and one of the loop's timers
(`next_wake() -> monotonic ns | None`, `fire(now_ns)`): `beep` schedules the pattern's on/off steps,
the loop wakes at each step and `fire` switches the output. No gpiozero background thread
(`Buzzer.beep(background=True)`, `blink`) is used: the one loop thread owns the buzzer schedule.

Wiring (`[buzzer]` in hw/wiring.toml):
- `type = "active"`: a buzzer with its own oscillator, switched by a `DigitalOutputDevice`.
- `type = "passive"`: a bare piezo, driven by a `PWMOutputDevice` at `frequency_hz` (about 2 kHz,
  near a piezo's resonance: loudest) with a 50 % duty cycle while it sounds. (gpiozero's
  `TonalBuzzer` would do as well with `mid_tone='A6', octaves=1`, but its default range of
  220-880 Hz is far below a piezo's resonance, and a fixed tone is all we need.) With lgpio the
  PWM is lgpio's own (any GPIO); tests use `MockPWMPin`.

Overlaps: a pattern more urgent than the one playing cuts it short (after a `GAP_MS` silence, so the
change is heard); a pattern as or less urgent waits its turn (most urgent first), unless it would
start more than `STALE_MS` after it was asked for. Mute silences everything at once.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from gpiozero import DigitalOutputDevice, PWMOutputDevice

from gameclock.device.closing import Closing, PinFactory
from gameclock.device.wiring import BuzzerWiring
from gameclock.ui.sounds import Pattern, pattern_for

NS_PER_MS = 1_000_000
GAP_MS = 120     # silence between a cut-short pattern and the one that cuts in, and between queued ones
STALE_MS = 8000  # a waiting pattern not started by then is dropped
DUTY = 0.5       # a square wave: the piezo's loudest


class Buzzer(Closing):
    visible = False  # a loop Timer whose steps change nothing on the screens (loop.base.expire)

    def __init__(self, wiring: BuzzerWiring, *, pin_factory: PinFactory | None = None,
                 clock: Callable[[], int] = time.monotonic_ns, muted: bool = False,
                 gap_ms: int = GAP_MS, stale_ms: int = STALE_MS):
        self.wiring = wiring
        self._clock = clock
        self.muted = muted
        self._gap_ns = gap_ms * NS_PER_MS
        self._stale_ns = stale_ms * NS_PER_MS
        self._on_value: float  # the output's value while it sounds
        if wiring.type == "passive":
            self._out = PWMOutputDevice(wiring.pin, active_high=wiring.active_high, initial_value=0,
                                        frequency=wiring.frequency_hz, pin_factory=pin_factory)
            self._on_value = DUTY
        else:
            self._out = DigitalOutputDevice(wiring.pin, active_high=wiring.active_high,
                                            initial_value=False, pin_factory=pin_factory)
            self._on_value = 1
        self.playing: Pattern | None = None
        self._steps: list[tuple[int, bool]] = []  # (at_ns, sound on) still to do, in order
        self._waiting: list[tuple[int, Pattern]] = []  # (asked at ns, pattern), most urgent first
        self._sounding = False
        self.played: list[tuple[int, str]] = []  # (start ns, pattern name): what was started

    @property
    def pin(self) -> Any:
        """The gpiozero pin (tests read its recorded states)."""
        return self._out.pin

    # ---- the buzzer sink ----
    def beep(self, alert: Mapping[str, Any], text: str = "") -> None:
        self.play(pattern_for(alert))

    def play(self, pattern: Pattern, now_ns: int | None = None) -> None:
        now = self._clock() if now_ns is None else now_ns
        if self.muted:
            return
        if self.playing is None:
            self._start(pattern, now)
        elif pattern.priority > self.playing.priority:
            self._switch(False)  # cut the less urgent pattern short
            self._start(pattern, now + self._gap_ns)
        else:
            self._waiting.append((now, pattern))
            self._waiting.sort(key=lambda w: -w[1].priority)  # stable: first asked first among equals
        self.fire(now)

    def set_mute(self, muted: bool) -> None:
        self.muted = muted
        if muted:
            self.stop()

    def stop(self) -> None:
        """Silence now; forget the playing and the waiting patterns."""
        self.playing, self._steps, self._waiting = None, [], []
        self._switch(False)

    # ---- the loop timer ----
    def next_wake(self) -> int | None:
        return self._steps[0][0] if self._steps else None

    def fire(self, now_ns: int) -> None:
        while self._steps and self._steps[0][0] <= now_ns:
            at_ns, on = self._steps.pop(0)
            self._switch(on)
            if not self._steps:  # the pattern's last step: the next waiting one, after a gap
                self.playing = None
                self._next(at_ns + self._gap_ns)

    def close(self) -> None:
        self.stop()
        self._out.close()

    def __repr__(self) -> str:
        if self._out.closed:
            return "<Buzzer closed>"
        state = ("muted" if self.muted else f"playing {self.playing.name}" if self.playing is not None
                 else "silent")
        return f"<Buzzer {self.wiring.type} on {self._out.pin}, {state}>"

    # ---- inside ----
    def _start(self, pattern: Pattern, at_ns: int) -> None:
        self.playing = pattern
        self.played.append((at_ns, pattern.name))
        steps: list[tuple[int, bool]] = []
        t, on = at_ns, True
        for ms in pattern.steps_ms:
            steps.append((t, on))
            t += ms * NS_PER_MS
            on = not on
        steps.append((t, False))
        self._steps = steps

    def _next(self, at_ns: int) -> None:
        while self._waiting:
            asked, pattern = self._waiting.pop(0)
            if at_ns - asked <= self._stale_ns:
                self._start(pattern, at_ns)
                return

    def _switch(self, on: bool) -> None:
        if on != self._sounding:
            self._sounding = on
            self._out.value = self._on_value if on else 0


class BeepSink(Protocol):
    """Something that shows or plays a beep: the loop's buzzer sink (`alert`: a core alert dict)."""

    def beep(self, alert: Mapping[str, Any], text: str) -> None: ...


class BuzzerTee:
    """One buzzer sink for the loop that feeds the buzzer and echoes each beep to other sinks (the
    simulator's terminal beep line, the PNG sink's frames.log), marked "(muted)" while muted."""

    def __init__(self, buzzer: Buzzer, *echoes: BeepSink):
        self.buzzer = buzzer
        self.echoes = echoes

    def beep(self, alert: Mapping[str, Any], text: str) -> None:
        self.buzzer.beep(alert, text)
        shown = text + (" (muted)" if self.buzzer.muted else "")
        for echo in self.echoes:
            echo.beep(alert, shown)

    def set_mute(self, muted: bool) -> None:
        self.buzzer.set_mute(muted)
