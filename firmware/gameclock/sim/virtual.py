"""A script played in virtual time: `gameclock sim --script` without the wall clock (issue 27).

The simulator's finger (`sim.keys.PinDriver`) drives the real adapters (`device.pins.Inputs` on
gpiozero's MockFactory) and the real loop (`loop.Loop`), as `gameclock sim` does; only time differs:
one virtual clock, in integer nanoseconds, moves when the script waits or holds a button, and the
loop is woken at each instant it asks for (`Loop.next_wake`), exactly as its own `run()` would be.
So a script takes no wall-clock time and gives the same frames every run: docs/arbiter/make_pictures.py
draws the guide's pictures with it and tests/test_arbiter_tasks.py plays the guide's table of arbiter
tasks through it.

gpiozero's mock pins stamp their edges with `gpiozero.pins.mock.monotonic` (float seconds): while a
`VirtualSim` is open that function reads the virtual clock (one sim at a time in a process), and
`close()` puts it back.

    with VirtualSim(PngSink(out), preset="crossword") as sim:
        sim.play("left 1s pause hold_push knob_right push")
"""
from __future__ import annotations

import queue
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gameclock.sim import keys as simkeys

if TYPE_CHECKING:
    from gameclock.inbox import Input
    from gameclock.loop import Loop
    from gameclock.loop.sinks import Frame
    from gameclock.persist.journal import Journal

NS_PER_S = 1_000_000_000
START_NS = 1_000 * NS_PER_S  # the virtual clock's first instant (any positive value: the loop counts from it)
MAX_WAKES = 1_000_000        # a loop that keeps asking for the same instant is a bug: stop, do not spin


class FrameList:
    """A display sink that keeps the frames it is shown (and the beeps' texts)."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self.beeps: list[str] = []

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def show(self, frame: Frame) -> None:
        self.frames.append(frame)

    def beep(self, alert: Any, text: str) -> None:
        self.beeps.append(text)


class VirtualSim:
    """The clock of `gameclock sim` in virtual time. `sink`: the display sink (`FrameList`, a
    `sim.pngsink.PngSink`, ...; it gets the beeps too when it has `beep`); `presets`: the rule files'
    (default: `rules.loader.load_presets()`); `wiring`: a wiring file (default: the shipped one, so a
    machine's own /etc/gameclock/wiring.toml never changes a picture); `state_dir`: the settings kept
    there (as `--state-dir`); `journal`: the games journaled there too and an unfinished one restored
    (as `--dock` does, without a port: a power cut is `close()` and a new VirtualSim on the folder);
    `preset`: a game of it at ready (as `--preset`, unless a game was restored)."""

    def __init__(self, sink: Any, *, presets: Sequence[Any] | None = None, wiring: str | Path | None = None,
                 state_dir: str | Path | None = None, journal: bool = False, preset: str | None = None,
                 start_ns: int = START_NS):
        import gpiozero.pins.mock as gpiozero_mock
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        from gameclock.device.buzzer import Buzzer, BuzzerTee
        from gameclock.device.pins import Inputs
        from gameclock.device.wiring import DEFAULT_WIRING, load_wiring
        from gameclock.loop import Loop
        from gameclock.persist.settings import SettingsStore
        from gameclock.rules.loader import load_presets

        if journal and state_dir is None:
            raise ValueError("a journal needs a state folder")
        self.now = start_ns
        self._mock = gpiozero_mock
        self._monotonic = gpiozero_mock.monotonic
        gpiozero_mock.monotonic = lambda: self.now / NS_PER_S  # the pins' edge stamps: virtual seconds
        self._closers: list[Any] = []
        try:
            w = load_wiring(DEFAULT_WIRING if wiring is None else wiring)
            self.inbox: queue.Queue[Input] = queue.Queue()
            self.factory = MockFactory(pin_class=MockPWMPin)
            self._closers.append(self.factory.close)
            self.inputs = Inputs(self.inbox.put, w, pin_factory=self.factory, clock=self.clock)
            self._closers.append(self.inputs.close)
            self.buzzer = Buzzer(w.buzzer, pin_factory=self.factory, clock=self.clock)
            self._closers.append(self.buzzer.close)
            self.sink = sink
            beeps = BuzzerTee(self.buzzer, sink) if hasattr(sink, "beep") else self.buzzer
            self.loop: Loop = Loop(self.inbox, load_presets() if presets is None else presets, sink, beeps,
                                   clock=self.clock, long_press_ns=w.long_press_ns,
                                   settings_store=SettingsStore(state_dir) if state_dir is not None else None)
            self.loop.timers.append(self.buzzer)
            self.journal: Journal | None = None
            self.restored: str | None = None
            if journal:
                from gameclock.persist import restore as persist
                self.journal, self.restored = persist.attach(self.loop, str(state_dir))
                self._closers.append(self.journal.close)
            if preset is not None and self.restored is None:
                self.loop.new_game(preset, 1)
            self.driver = simkeys.PinDriver(self.inputs.pins(), self._quit)
            self.loop.pump(self.now)
        except BaseException:
            self.close()
            raise

    def clock(self) -> int:
        """The virtual monotonic clock, ns."""
        return self.now

    def _quit(self) -> None:
        """A script's `quit`: nothing to stop (the script's end is the run's end)."""

    # ------------------------------------------------------------------------------------- time
    def wait(self, seconds: float) -> None:
        """Let `seconds` pass: the loop is woken at each instant it asks for on the way, then at the end."""
        until = self.now + round(seconds * NS_PER_S)
        for _ in range(MAX_WAKES):
            wake = self.loop.next_wake()
            if wake is None or wake > until:
                break
            self.now = max(self.now, wake)
            self.loop.pump(self.now, skip_unchanged=True)
        else:
            raise RuntimeError(f"the loop asked for {MAX_WAKES} wakes before {until} ns")
        self.now = until
        self.loop.pump(self.now, skip_unchanged=True)

    # ------------------------------------------------------------------------------------- fingers
    def act(self, action: str) -> None:
        """One action of the script language (`sim.keys.ACTIONS`): a button held its time and let go,
        the finger lifted (`PinDriver.act`), then the loop served."""
        self.driver.act(action, hold=self.wait)
        self.wait(0)

    def play(self, script: str | Iterable[tuple[str, float | str]]) -> None:
        """A script (its text, or `sim.keys.parse_script`'s steps): waits and actions in order."""
        steps = simkeys.parse_script(script) if isinstance(script, str) else script
        for kind, value in steps:
            if kind == "wait":
                self.wait(float(value))
            elif value != "quit":
                self.act(str(value))

    # ------------------------------------------------------------------------------------- end
    def close(self) -> None:
        """Everything released, last made first (the journal flushed and closed: a power cut keeps
        what it had written), and gpiozero's clock put back."""
        try:
            while self._closers:
                self._closers.pop()()
        finally:
            self._mock.monotonic = self._monotonic

    def __enter__(self) -> VirtualSim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
