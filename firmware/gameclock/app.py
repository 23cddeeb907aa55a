"""Composition root: the only module that knows concrete classes. `gameclock sim` lives here.

The simulator reads the same wiring file as the Pi (hw/wiring.toml, or --wiring FILE /
$GAMECLOCK_WIRING / /etc/gameclock/wiring.toml: gameclock.device.wiring), builds gpiozero's `MockFactory(pin_class=MockPWMPin)` and passes it explicitly as
`pin_factory=` to the real adapters (device/pins.py: buttons or lever, pause, knob; device/buzzer.py
on a mock PWM pin). Keys (or a script) drive edges on those mock pins (device/simkeys.py); the
adapters stamp and enqueue; the loop (loop.py) runs in this process's main thread, plays the buzzer's
patterns on its timer hook and draws to a terminal (ui/terminal.py) or to PNG files (ui/pngsink.py),
which also show each beep. The Pi differs only in the pin factory and the display sink.
"""
from __future__ import annotations

import argparse
import os
import queue
import signal
import sys
import termios
import threading
import time
import tty
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from gameclock.device.buttons import EdgeTimes
    from gameclock.device.notify import NotifyTimer
    from gameclock.dock.clockside import Outbox as DockOutbox
    from gameclock.dock.link import FdPort
    from gameclock.inbox import Input
    from gameclock.loop import Loop
    from gameclock.loop.sinks import Frame
    from gameclock.rules.loader import Preset

    Inbox = queue.SimpleQueue[Input]  # the loop's inbox (SimpleQueue: a signal handler may put)

Closers = list[Callable[[], object]]  # what to close at the end, last first (results ignored)

GIL_SWITCH_S = 0.001  # s: sys.setswitchinterval for `gameclock run` (build_daemon)

SIM_HELP = """\
keys (terminal, or a pipe on stdin):
  z left player's button   m right player's button   space pause/resume
  j or Left/Up   knob one detent counter-clockwise (menu up)
  k or Right/Down knob one detent clockwise (menu down)
  Enter knob push (click)  l long push (1 s)  Backspace/b/Esc back button   q quit
  h knob held 3.2 s: the arbiter's unlock gesture (a game under way: pause it first)

The menu is locked while a game is under way (running or paused). The arbiter unlocks it by pausing
the game and holding the knob pushed for 3 s (hw/README.md). A lever wiring (--wiring with
players.input = "lever"): z throws the lever to the right position (the left player's press), m to
the left one.

Start: the preset menu (knob chooses, push starts a game at ready; or --preset ID). At ready the
first press of a player's button starts the OTHER side's clock, as on a chess clock.

Headless: --display png --out DIR writes every changed frame as a PNG plus DIR/frames.log (captions
and beeps). Keys then come from --script FILE ('-' = stdin) or, when stdin is a pipe, from its bytes
as if typed; the sim quits at the end of the script or of the input.
Script tokens: left right pause knob_left knob_right push long_push hold_push back quit, a key character,
or a wait such as 1.5s / 300ms; '#' starts a comment.
Example: gameclock sim --display png --out /tmp/frames --script - <<< 'k k push 0.5s z 2s m 1s'
"""


class Sink(Protocol):
    """A display sink as the app drives it: the loop shows frames; the app starts and stops it."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def show(self, frame: Frame) -> None: ...


class SimSink(Sink, Protocol):
    """The simulator's sinks (terminal, PNG files) show the beeps too."""

    def beep(self, alert: Mapping[str, Any], text: str) -> None: ...


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = SIM_HELP
    parser.add_argument("--preset", metavar="ID", help="skip the menu: start this preset at ready")
    parser.add_argument("--display", nargs="+", metavar=("MODE", "DIR"), default=["terminal"],
                        help="'terminal' (default), or 'png DIR' to write PNG frames to DIR")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="folder for --display png (same as --display png DIR; default: sim-frames)")
    parser.add_argument("--script", metavar="FILE",
                        help="play key actions from FILE ('-' = stdin) instead of reading keys")
    parser.add_argument("--wiring", metavar="FILE", default=None,
                        help="the wiring file (default: $GAMECLOCK_WIRING, else /etc/gameclock/wiring.toml "
                             "if present, else the shipped hw/wiring.toml)")
    parser.add_argument("--state-dir", metavar="DIR", default=None,
                        help="keep the menu's settings in DIR/settings.json (default: "
                             "$GAMECLOCK_STATE_DIR if set, else they are not kept)")
    parser.add_argument("--dock", metavar="PATH",
                        help="dock the clock to the organiser's PC: a serial port, or a new pty pair "
                             "whose PC end is linked at PATH (then: gameclock receive --port PATH); "
                             "results are kept in --state-dir (default: a new temporary folder)")
    parser.add_argument("--pixels", choices=("auto", "braille", "half", "small"), default="auto",
                        help="terminal pixels: braille 2x4 (134 columns), half blocks 1x2 (262), or small: "
                             "braille at half resolution (80x24); auto: the largest the terminal holds")


def run(args: argparse.Namespace) -> int:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from gameclock.device.buzzer import Buzzer, BuzzerTee
    from gameclock.device.pins import Inputs
    from gameclock.device.wiring import WiringError, load_wiring
    from gameclock.inbox import Quit
    from gameclock.loop import Loop
    from gameclock.persist.settings import SettingsStore
    from gameclock.rules.loader import RuleError, load_presets
    from gameclock.sim import keys as simkeys

    mode, *where = args.display
    if mode not in ("terminal", "png") or len(where) > (1 if mode == "png" else 0):
        print(f"gameclock sim: --display takes 'terminal' or 'png [DIR]', not {' '.join(args.display)!r}",
              file=sys.stderr)
        return 2
    args.display = mode
    args.out = where[0] if where else (args.out or "sim-frames")
    skipped: list[RuleError] = []
    try:
        presets = load_presets(skipped=skipped)
        wiring = load_wiring(args.wiring)
    except (RuleError, WiringError) as exc:
        print(f"gameclock sim: {exc}", file=sys.stderr)
        return 2
    for skip in skipped:  # an organiser's broken file in /etc/gameclock/rules: the others still load
        print(f"gameclock sim: skipped {skip}", file=sys.stderr)
    state_dir = args.state_dir or os.environ.get("GAMECLOCK_STATE_DIR")
    if args.preset is not None and args.preset not in {p.id for p in presets}:
        known = ", ".join(p.id for p in presets)
        print(f"gameclock sim: no preset {args.preset!r} (known: {known})", file=sys.stderr)
        return 2
    try:
        steps = None
        if args.script is not None:
            text = sys.stdin.read() if args.script == "-" else open(args.script, encoding="utf-8").read()
            steps = simkeys.parse_script(text)
    except (OSError, ValueError) as exc:
        print(f"gameclock sim: {exc}", file=sys.stderr)
        return 2

    # SimpleQueue: its put() is reentrant, so the SIGTERM handler may call it while the loop is in get().
    inbox: Inbox = queue.SimpleQueue()
    factory = MockFactory(pin_class=MockPWMPin)
    inputs = Inputs(inbox.put, wiring, pin_factory=factory)
    buzzer = Buzzer(wiring.buzzer, pin_factory=factory)
    pins = inputs.pins()
    stop = threading.Event()

    def quit_() -> None:
        inbox.put(Quit(time.monotonic_ns()))

    driver = simkeys.PinDriver(pins, quit_)

    sink: SimSink
    png = None
    if args.display == "png":
        from gameclock.sim.pngsink import PngSink
        sink = png = PngSink(args.out)
    else:
        from gameclock.sim.terminal import TerminalSink
        sink = TerminalSink(sys.stdout, pixels=args.pixels, legend=simkeys.LEGEND,
                            title="gameclock sim — keys act as the clock's buttons and knob")

    loop = Loop(inbox, presets, sink, BuzzerTee(buzzer, sink), long_press_ns=wiring.long_press_ns,
                settings_store=SettingsStore(state_dir) if state_dir else None)
    loop.timers.append(buzzer)  # the loop switches the buzzer at each step of a pattern
    closers: Closers = []
    restored = None
    if args.dock:
        try:
            restored = sim_dock(loop, inbox, args.dock, state_dir, closers)
        except OSError as exc:
            print(f"gameclock sim: --dock {args.dock}: {exc}", file=sys.stderr)
            return 2
    if args.preset and restored:  # an unfinished game of the state folder comes first (CL-6)
        print(f"gameclock sim: {restored}: --preset {args.preset} not started", file=sys.stderr)
    elif args.preset:
        loop.new_game(args.preset, 1)

    stdin_fd = sys.stdin.fileno() if sys.stdin is not None else -1
    saved_tty = None
    if steps is not None:
        reader = threading.Thread(target=simkeys.run_script, args=(steps, driver, stop),
                                  name="sim-script", daemon=True)
    elif stdin_fd < 0:
        reader = None  # no stdin at all: nothing drives the pins (SIGTERM / Ctrl-C ends the sim)
    else:
        if os.isatty(stdin_fd):
            saved_tty = termios.tcgetattr(stdin_fd)
            tty.setcbreak(stdin_fd)
        reader = threading.Thread(target=simkeys.read_keys, args=(stdin_fd, driver, stop),
                                  name="sim-keys", daemon=True)

    previous_term = signal.signal(signal.SIGTERM, lambda *_: quit_())
    sink.start()
    try:
        if reader is not None:
            reader.start()
        loop.run()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        sink.stop()
        signal.signal(signal.SIGTERM, previous_term)
        if saved_tty is not None:
            termios.tcsetattr(stdin_fd, termios.TCSADRAIN, saved_tty)
        buzzer.close()
        inputs.close()
        factory.close()
        while closers:
            closers.pop()()
    if loop.frame is not None:
        print(f"{loop.frame.captions[0]}   {loop.frame.captions[1]}   {loop.frame.info}")
    if png is not None:
        print(f"{png.count} frames in {args.out}")
    return 0


def sim_dock(loop: Loop, inbox: Inbox, path: str, state_dir: str | None, closers: Closers) -> str | None:
    """`gameclock sim --dock PATH`: the sim's games go through the journal and outbox of a state
    folder (as under `gameclock run`) and a dock thread uploads them. PATH is used as the port if it
    is a character device (a UART, one end of `socat`); otherwise a pty pair is made here, the
    PC's end linked at PATH, and the clock speaks on the other. Returns the restore message of an
    unfinished game the state folder held (None: none)."""
    import stat
    import tempfile
    import tty as tty_mod

    from gameclock.device.dock import DockThread
    from gameclock.device.identity import clock_serial
    from gameclock.dock.link import FdPort, open_port
    from gameclock.persist import restore as persist

    if state_dir is None:
        state_dir = tempfile.mkdtemp(prefix="gameclock-sim-")
    os.makedirs(state_dir, exist_ok=True)
    # The serial before the journal (as build_daemon does): a result confirmed just before a crash is
    # built again by the restore with the loop's serial, and under the default `sim` its id would be
    # another clock's, refused by the PC for ever (issue 24 B4).
    loop.clock_serial = "sim-" + clock_serial()
    journal, restored = persist.attach(loop, state_dir, on_status=persist.wake_loop(inbox))
    closers.append(journal.close)
    try:
        is_device = stat.S_ISCHR(os.stat(path).st_mode)
    except FileNotFoundError:
        is_device = False
    opener: Callable[[str], FdPort]
    if is_device:
        opener = open_port
        where = f"dock on {path}"
    else:
        if os.path.islink(path):
            os.unlink(path)  # a link left by an earlier sim
        master, slave = os.openpty()
        tty_mod.setraw(slave)  # no echo, no line editing: bytes pass as they are
        os.symlink(os.ttyname(slave), path)

        def cleanup() -> None:
            for fd in (master, slave):
                os.close(fd)
            if os.path.islink(path):
                os.unlink(path)
        closers.append(cleanup)

        def opener(_path: str) -> FdPort:
            return FdPort(os.dup(master), f"pty {path}")
        where = f"dock: run `gameclock receive --port {path}` (pty {os.ttyname(slave)})"
    dock = DockThread(path, state_dir, loop.clock_serial, journal.outbox, inbox.put,
                      info=lambda: loop.info_snapshot, opener=opener)
    loop.dock = dock
    dock.start()
    closers.append(dock.close)  # (waits for the port to close: the log's summary lines are written)
    loop.message = (f"{restored} | " if restored else "") + f"{where}; results in {state_dir}"
    return restored


# ---------------------------------------------------------------------------------------------
# `gameclock run` (the daemon, gameclock/daemon.py) gets its adapters here: the pin factory (real,
# or mock with --sim-pins), the inputs and buzzer from the wiring file, the displays, the loop with
# its settings in the state folder, and the loop's systemd notify timer.


class NullSink:
    """`--display none`: frames are drawn (the loop's work is the same) and dropped."""

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def show(self, frame: Frame) -> None:
        pass


class _BeepsKept:
    """The loop's buzzer until the real one is made (`build_daemon`): the beeps, kept for it."""

    def __init__(self) -> None:
        self.kept: list[tuple[Mapping[str, Any], str]] = []

    def beep(self, alert: Mapping[str, Any], text: str) -> None:
        self.kept.append((alert, text))


class DaemonParts:
    """What `build_daemon` made: `loop` (with `notifier` and the buzzer among its timers),
    `edge_times` (gameclock.device.buttons.EdgeTimes: backend name, exact or callback times),
    `pins` (name -> gpiozero pin: `gameclock run --sim-pins --keys` drives them), and
    `close()`: buzzer silent, pins released, displays left showing their last frame (luma's
    `persist`, set by gameclock.device.oled)."""

    def __init__(self, loop: Loop, notifier: NotifyTimer, edge_times: EdgeTimes, wiring_path: Path,
                 pins: dict[str, Any], closers: Closers):
        self.loop, self.notifier, self.edge_times = loop, notifier, edge_times
        self.wiring_path = wiring_path
        self.pins = pins
        self._closers = closers

    def close(self) -> None:
        close_all(self._closers)


def close_all(closers: Closers) -> None:
    """Call each closer, last first; one failing to close must not keep the others open."""
    import logging
    while closers:
        what = closers.pop()
        try:
            what()
        except Exception:
            logging.getLogger(__name__).exception("closing %r failed", what)


def start_dock(loop: Loop, inbox: Inbox, port: str, state_dir: str | os.PathLike[str],
               outbox: DockOutbox, closers: Closers) -> None:
    """The dock thread (gameclock.device.dock) on `port`, uploading the outbox the journal fills."""
    from gameclock.device.dock import DockThread

    dock = DockThread(port, state_dir, loop.clock_serial, outbox, inbox.put,
                      info=lambda: loop.info_snapshot)
    loop.dock = dock
    dock.start()
    closers.append(dock.close)  # (waits for the port to close: the log's summary lines are written)


def build_daemon(inbox: Inbox, presets: Sequence[Preset] | Callable[[], Sequence[Preset]], *,
                 sim_pins: bool, wiring: str | None,
                 display: str, display_dir: str | None, preset: str | None,
                 state_dir: str | os.PathLike[str], dock: str | None = None,
                 sim_bus_khz: float | None = None) -> DaemonParts:
    """Adapters for `gameclock run`. Real pins: gpiozero picks the factory from
    $GPIOZERO_PIN_FACTORY (the unit sets lgpio) and it is passed explicitly to every adapter.
    `sim_bus_khz`: the OLEDs on a simulated I2C bus of that clock (gameclock.sim.i2cbus), not
    /dev/i2c-N.
    Raises WiringError (a ValueError), ValueError, gpiozero's errors; on any failure what was
    already built is closed again.

    `presets`: the presets, or the function that loads them (`gameclock.rules.loader.load_presets`),
    called once the displays are being cleared; `preset`, if given, must be one of them (ValueError).

    The order is the start-up's (issue 27: `ready_ms`): the displays first, their worker clearing them
    (a full frame each, ~50 ms of a 400 kHz bus, sent without holding the interpreter) while the
    presets are read and the loop and its journal are imported and made; then the loop's first frame,
    which now sends only its lit bytes; meanwhile gpiozero is imported and the pins and the buzzer are
    made. (Displays on SPI need the pin factory first, for their DC and reset pins.)"""
    from gameclock.device.wiring import load_wiring

    w = load_wiring(wiring)
    # The display worker must get the interpreter within a millisecond of a press's frame, not after
    # CPython's default 5 ms switch interval while another thread computes (issue 14: the press's
    # switch on the bus, p99 5.5 -> 2.7 ms back to back in `bench device`).
    sys.setswitchinterval(GIL_SWITCH_S)
    closers: Closers = []
    parts = None

    def pin_factory() -> Any:
        if sim_pins:
            from gpiozero.pins.mock import MockFactory, MockPWMPin
            mock = MockFactory(pin_class=MockPWMPin)
            closers.append(mock.close)
            return mock
        from gpiozero import Device as GpioDevice
        GpioDevice.ensure_pin_factory()
        real = GpioDevice.pin_factory

        def close_factory() -> None:
            real.close()
            GpioDevice.pin_factory = None  # gpiozero's atexit hook would close it again
        closers.append(close_factory)
        return real

    try:
        factory = pin_factory() if display == "oled" and w.display.interface == "spi" else None
        sink: Sink
        # READY=1 once the displays show the clock: at once for the sinks whose show() returns done;
        # the OLEDs' worker says when it has put the first frame on the bus (and wakes the loop).
        shown: Callable[[], bool] = lambda: True
        clear: Callable[[], None] = lambda: None
        if display == "none":
            sink = NullSink()
        elif display == "png":
            from gameclock.sim.pngsink import PngSink
            if display_dir is None:
                raise ValueError("--display png needs a folder: png DIR")
            sink = PngSink(display_dir)
        elif display == "oled":
            from gameclock.device.display import build_sink
            from gameclock.inbox import DisplaysShown
            if sim_bus_khz is not None and w.display.interface != "i2c":
                raise ValueError("--sim-bus simulates an I2C bus: the wiring's displays are on SPI")
            from gameclock.sim.i2cbus import sim_buses
            oleds = build_sink(w.display, pin_factory=factory,
                               smbus=sim_buses(w.display.addresses, sim_bus_khz))
            oleds.on_shown = lambda: inbox.put(DisplaysShown(time.monotonic_ns()))
            sink, shown, clear = oleds, oleds.shown, oleds.blank
        else:
            raise ValueError(f"unknown display {display!r}")
        sink.start()
        closers.append(sink.stop)
        clear()  # the OLEDs' worker clears them while the rest is imported and made

        from gameclock.device.identity import clock_serial
        from gameclock.device.notify import NotifyTimer, watchdog_interval_ns
        from gameclock.loop import Loop
        from gameclock.persist import restore as persist
        from gameclock.persist.settings import SettingsStore
        if callable(presets):
            presets = presets()
        if preset is not None and preset not in {p.id for p in presets}:
            raise ValueError(f"no preset {preset!r} (known: {', '.join(p.id for p in presets)})")

        early = _BeepsKept()  # the buzzer is made after the first frame: its beeps wait for it
        loop = Loop(inbox, presets, sink, early, long_press_ns=w.long_press_ns,
                    settings_store=SettingsStore(state_dir))
        loop.clock_serial = clock_serial()  # result ids: SERIAL-SEQ, unique across clocks (CL-5)
        # The game journal and the outbox (CL-5, CL-6): an unfinished game comes back paused.
        journal, restored = persist.attach(loop, state_dir, on_status=persist.wake_loop(inbox))
        closers.append(journal.close)
        if dock:  # results go to the organiser's PC from the outbox the journal fills (CL-5)
            start_dock(loop, inbox, dock, state_dir, journal.outbox, closers)
        if preset and not restored:
            loop.new_game(preset, 1)
        # The first frame, now: the displays' worker sends it while the pins are made (the loop's first
        # refresh in `run` finds the same frame and shows nothing again)
        loop.refresh(loop.clock())
        from gameclock.device.buzzer import Buzzer  # (gpiozero: imported only now)
        from gameclock.device.pins import Inputs
        if factory is None:
            factory = pin_factory()
        inputs = Inputs(inbox.put, w, pin_factory=factory)  # the same adapters as `gameclock sim`
        closers.append(inputs.close)
        buzzer = Buzzer(w.buzzer, pin_factory=factory)
        closers.append(buzzer.close)
        loop.buzzer = buzzer
        loop.timers.append(buzzer)
        for alert, text in early.kept:
            buzzer.beep(alert, text)
        # The OLEDs' worker wakes the loop when the first frame is on the bus: the notifier need not
        # look every 10 ms meanwhile (each wake would render again, taking the CPU from the worker).
        notifier = NotifyTimer(lambda: loop.frame is not None and shown(), watchdog_interval_ns(),
                               ready_status=f"running: {restored or preset or 'preset menu'}",
                               retry_ns=NotifyTimer.RETRY_NS if display != "oled" else 200_000_000)
        loop.timers.append(notifier)
        parts = DaemonParts(loop, notifier, inputs.players.edge_times, w.path, inputs.pins(), closers)
        return parts
    finally:
        if parts is None:  # what was built is closed again
            close_all(closers)
