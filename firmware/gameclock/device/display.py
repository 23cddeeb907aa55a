"""The two OLEDs: luma devices built from the wiring, and the loop's display sink.

    sink = build_sink(wiring.display)        # gameclock.device.wiring.DisplayWiring (both displays)
    sink.start()                              # the display worker thread
    loop = Loop(inbox, presets, sink, buzzer)  # the loop calls sink.show(frame)
    ...
    sink.stop()

Pieces:

* `OledWiring`: one display's wiring (driver ssd1306/sh1106, I2C bus and address or SPI port,
  device, DC and reset pins, rotation). `oled_wirings(display_wiring)` splits the wiring file's
  `DisplayWiring` (gameclock.device.wiring) into the left and right display's.
* `make_serial(wiring)`: luma's serial interface for it: `i2c(port=bus, address=...)` (luma opens
  /dev/i2c-N with smbus2 and sends data with i2c_rdwr), or `spi(...)` whose DC/reset pins are driven
  through gpiozero (`GpiozeroGPIO`), so SPI works with the same pin factory as the buttons (lgpio)
  and needs no RPi.GPIO. Tests pass their own bus objects (`smbus=`, `spidev=`).
* `Oled`: one display and its faults. Its driver is `gameclock.device.oled.DiffSSD1306` /
  `DiffSH1106` (sends only what changed). A bus error (OSError, luma's DeviceNotFoundError: display
  unplugged, I2C NAK, no /dev/i2c-N) marks it down: logged once per outage (logging, WARNING),
  retried after 0.5 s, then 1, 2, 4, 8 s (at most); when it answers again its controller is
  re-initialized (it may have lost power) and the whole screen is sent, and the log says it is back
  (INFO). A display missing at start is the same: the clock runs, the log names the display.
* `OledSink`: the loop's `DisplaySink`. `show(frame)` hands the frame to a worker thread and
  returns at once (latest frame wins: if the bus is slower than the frames, the ones in between
  are skipped); the worker pushes `frame.left` and `frame.right` to their displays and retries
  down displays on its own (a display plugged back in during a pause comes back without a new
  frame). A frame that moves the running marker (a press) has its polarity commands sent on both
  displays first, then each display's changed bytes, so the switch shows on both at once; only the
  display whose image changed is pushed; a newer frame waiting cuts the one in hand short. `show()` never raises and never waits for the bus, so a display fault cannot delay the
  loop (and the loop charges time from the buttons' edge stamps anyway). `threaded=False` pushes
  in the caller's thread (tests).

Counters (`OledSink.stats()`), all in bytes handed to the bus (payload: command bytes and data
bytes; I2C adds an address and a control byte per transfer): `data_bytes`, `command_bytes`, and
`full_frame_bytes`: what luma's own drivers would have sent for full-frame refreshes of both
displays at every `show()` (1024 data bytes + 6 command bytes per SSD1306, + 24 per SH1106).
"""
from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from luma.core.error import Error as LumaError
from PIL import Image

from gameclock.device.closing import Closing, PinFactory
from gameclock.device.oled import DRIVERS, CountingSerial, SerialInterface

if TYPE_CHECKING:
    from gameclock.device.wiring import DisplayWiring
    from gameclock.loop.sinks import Frame

LOG = logging.getLogger("gameclock.display")

NS_PER_MS = 1_000_000
RETRY_FIRST_NS = 500 * NS_PER_MS    # first retry after a fault
RETRY_MAX_NS = 8_000 * NS_PER_MS    # retries back off, doubling, to this
SIDES = ("left", "right")
SPI_SPEEDS_HZ = tuple(int(mhz * 1_000_000) for mhz in
                      (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52))  # luma's allowed
BUS_FAULTS = (OSError, LumaError)


@dataclass(frozen=True)
class OledWiring:
    """One display. `interface` "i2c": `bus` (/dev/i2c-N) and `address`; "spi": `spi_port`,
    `spi_device` (chip select), `dc_pin` and `reset_pin` (BCM; reset optional). `rotate`: 0 or 2
    (180 degrees, for a module mounted upside down). Pixels: `width` x `height`."""
    driver: str = "ssd1306"
    interface: str = "i2c"
    bus: int = 1
    address: int = 0x3C
    spi_port: int = 0
    spi_device: int = 0
    dc_pin: int | None = None
    reset_pin: int | None = None
    rotate: int = 0
    width: int = 128
    height: int = 64
    spi_hz: int = 8_000_000

    def __post_init__(self) -> None:
        if self.driver not in DRIVERS:
            raise ValueError(f"display driver must be one of {', '.join(DRIVERS)}, not {self.driver!r}")
        if self.interface not in ("i2c", "spi"):
            raise ValueError(f"display interface must be i2c or spi, not {self.interface!r}")
        if self.rotate not in (0, 2):
            raise ValueError(f"display rotate must be 0 or 2, not {self.rotate!r}")

    def where(self) -> str:
        """Where it is wired, for the log: "ssd1306 on I2C bus 1 at 0x3C"."""
        if self.interface == "i2c":
            return f"{self.driver} on I2C bus {self.bus} at 0x{self.address:02X}"
        return f"{self.driver} on SPI {self.spi_port}.{self.spi_device}"


def oled_wirings(display: DisplayWiring) -> tuple[OledWiring, OledWiring]:
    """(left, right) `OledWiring` from the wiring file's `DisplayWiring` (both displays; fields
    driver interface rotation i2c_bus addresses spi_port spi_devices spi_dc spi_resets spi_speed_hz)."""
    out = []
    for i in (0, 1):
        out.append(OledWiring(
            driver=display.driver, interface=display.interface, bus=display.i2c_bus,
            address=display.addresses[i], spi_port=display.spi_port, spi_device=display.spi_devices[i],
            dc_pin=display.spi_dc, reset_pin=display.spi_resets[i], rotate=display.rotation,
            spi_hz=display.spi_speed_hz))
    return out[0], out[1]


class _Output(Protocol):
    """A gpiozero DigitalOutputDevice, as far as GpiozeroGPIO uses it."""
    value: float

    def close(self) -> None: ...


class GpiozeroGPIO:
    """The few RPi.GPIO calls luma's SPI interface makes (setup, output, cleanup), on gpiozero
    output devices: the DC and reset pins then use the same pin factory as the rest (lgpio on the
    Pi, MockFactory in tests). One instance serves both displays (they may share the DC pin)."""
    BCM = 11
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1

    def __init__(self, pin_factory: PinFactory | None = None):
        self._factory = pin_factory
        self._pins: dict[int, _Output] = {}

    def setmode(self, mode: int) -> None:
        pass

    def setup(self, pin: int, direction: int, initial: int | None = None, **_: object) -> None:
        if pin not in self._pins:
            from gpiozero import DigitalOutputDevice
            self._pins[pin] = DigitalOutputDevice(pin, initial_value=bool(initial),
                                                  pin_factory=self._factory)

    def output(self, pin: int, value: object) -> None:
        self._pins[pin].value = 1 if value else 0

    def cleanup(self, pins: Iterable[int] | None = None) -> None:
        for pin in list(self._pins if pins is None else pins):
            device = self._pins.pop(pin, None)
            if device is not None:
                device.close()


def make_serial(wiring: OledWiring, *, smbus: object = None, spidev: object = None,
                gpio: object = None) -> SerialInterface:
    """luma's serial interface for one display. `smbus`: an open smbus2-like bus (else luma opens
    /dev/i2c-<bus>); `spidev`: a py-spidev SpiDev-like object (else luma makes one); `gpio`: an
    RPi.GPIO-like object for DC/reset (default: `GpiozeroGPIO()` on gpiozero's default factory)."""
    serial: SerialInterface  # luma's i2c or spi (luma has no types)
    if wiring.interface == "i2c":
        from luma.core.interface.serial import i2c
        if smbus is not None:
            serial = i2c(bus=smbus, address=wiring.address)
            if getattr(smbus, "as_opened", False):
                _as_opened(serial)
        else:
            serial = i2c(port=wiring.bus, address=wiring.address)
        return serial
    from luma.core.interface.serial import spi
    speed = max([s for s in SPI_SPEEDS_HZ if s <= wiring.spi_hz] or [SPI_SPEEDS_HZ[0]])
    serial = spi(spi=spidev, gpio=gpio if gpio is not None else GpiozeroGPIO(), port=wiring.spi_port,
                 device=wiring.spi_device, bus_speed_hz=speed, gpio_DC=wiring.dc_pin,
                 gpio_RST=wiring.reset_pin)
    return serial


def _as_opened(serial: Any) -> None:
    """Make luma's i2c `serial` send data as on a bus it opened itself (the Pi's /dev/i2c-N): in
    one `i2c_rdwr` transfer of up to 4 KiB, not in 32-byte SMBus blocks, which luma uses on a bus
    handed to it. For a simulated bus (gameclock.sim.i2cbus), which takes each transfer's time and
    makes the transfer's message itself (`msg_write`): the benches then see the Pi's transfers.
    luma 3.x keeps the choice in `_managed`."""
    if not hasattr(serial, "_managed"):  # another luma: its 32-byte blocks (slower than the Pi)
        return
    serial._managed = True
    serial._i2c_msg_write = serial._bus.msg_write  # (the bus's own: smbus2's i2c_msg.write, as bytes)


class _LazySerial:
    """The serial interface, made on first use: a bus that cannot be opened (no /dev/i2c-1 yet,
    permissions) is a fault like any other, retried later."""

    def __init__(self, factory: Callable[[], SerialInterface]):
        self.factory = factory
        self.inner: SerialInterface | None = None

    def _get(self) -> SerialInterface:
        if self.inner is None:
            self.inner = self.factory()
        return self.inner

    def command(self, *cmd: int) -> None:
        self._get().command(*cmd)

    def data(self, data: Sequence[int]) -> None:
        self._get().data(data)

    def cleanup(self) -> None:
        """Release the bus (made again on the next use); a second call does nothing."""
        inner, self.inner = self.inner, None
        if inner is not None:
            inner.cleanup()


class Oled(Closing):
    """One display, its diffing luma driver and its faults. Call from one thread only.

    `push(image, now_ns)` -> True if the display now shows `image`. Never raises: a fault marks
    the display down (logged once per outage), and pushes before the retry time return False at
    once without touching the bus. Times are monotonic ns. `close()` releases the bus; the display
    keeps its picture (luma's `persist`)."""

    def __init__(self, wiring: OledWiring, serial_factory: Callable[[], SerialInterface] | None = None, *,
                 name: str = "display", retry_first_ns: int = RETRY_FIRST_NS,
                 retry_max_ns: int = RETRY_MAX_NS, log: logging.Logger = LOG):
        self.wiring = wiring
        self.name = name
        self.log = log
        self.serial = CountingSerial(_LazySerial(serial_factory or (lambda: make_serial(wiring))))
        self.device = DRIVERS[wiring.driver](self.serial, width=wiring.width, height=wiring.height,
                                             rotate=wiring.rotate)
        self.retry_first_ns = retry_first_ns
        self.retry_max_ns = retry_max_ns
        self.up = False
        self.faults = 0           # failed attempts (pushes and retries)
        self.outages = 0          # times it went down (the start counts if it was missing)
        self.retry_at_ns = 0
        self._backoff_ns = retry_first_ns
        self._outage_since_ns: int | None = None
        self._ever_up = False

    @property
    def full_frame_bytes(self) -> int:
        """Bus bytes (commands + data) of one full-frame refresh by luma's own driver."""
        return sum(self.device.full_frame_bytes)

    def due(self, now_ns: int) -> bool:
        """Whether a push now would talk to the bus (up, or down and its retry time has come)."""
        return self.up or now_ns >= self.retry_at_ns

    def push(self, image: Image.Image, now_ns: int) -> bool:
        if not self.due(now_ns):
            return False
        try:
            if not self.up:
                self.device.initialize()
            self.device.display(image)
        except Exception as exc:  # noqa: BLE001 - never let a display stop the clock
            self._fault(exc, now_ns)
            return False
        if not self.up:
            self._back(now_ns)
        return True

    def flip_first(self, image: Image.Image, now_ns: int) -> bool:
        """The polarity `image` needs, sent now if showing it flips it (the driver's `flip_first`;
        the bytes follow with `push`). True if it flipped; never raises (a fault marks it down)."""
        flip = getattr(self.device, "flip_first", None)
        if not self.up or flip is None:
            return False
        try:
            return bool(flip(image))
        except Exception as exc:  # noqa: BLE001 - never let a display stop the clock
            self._fault(exc, now_ns)
            return False

    def set_contrast(self, level: int, now_ns: int) -> None:
        """Contrast 0-255: sent now if the display is up, else on its next initialization."""
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0-255, got {level}")
        if not self.up:
            self.device.keep_contrast(level)
            return
        try:
            self.device.contrast(level)
        except Exception as exc:  # noqa: BLE001
            self.device.keep_contrast(level)
            self._fault(exc, now_ns)

    def _fault(self, exc: Exception, now_ns: int) -> None:
        self.faults += 1
        self.up = False
        self.device.invalidate()
        if self._outage_since_ns is None:
            self._outage_since_ns = now_ns
            self.outages += 1
            self._backoff_ns = self.retry_first_ns
            what = "stopped answering" if self._ever_up else "is missing"
            if isinstance(exc, BUS_FAULTS):
                self.log.warning("%s display (%s) %s: %s; the clock keeps running, retrying",
                                 self.name, self.wiring.where(), what, exc)
            else:
                self.log.error("%s display (%s) failed: %r; the clock keeps running, retrying",
                               self.name, self.wiring.where(), exc, exc_info=exc)
        else:
            self._backoff_ns = min(self._backoff_ns * 2, self.retry_max_ns)
        self.retry_at_ns = now_ns + self._backoff_ns

    def close(self) -> None:
        self.serial.cleanup()

    def __repr__(self) -> str:
        state = "up" if self.up else f"down ({self.faults} faults)" if self.faults else "not yet used"
        return f"<Oled {self.name}: {self.wiring.where()}, {state}>"

    def _back(self, now_ns: int) -> None:
        self.up = True
        if self._outage_since_ns is not None and self._ever_up:
            self.log.info("%s display (%s) is back after %.1f s: re-initialized and redrawn",
                          self.name, self.wiring.where(), (now_ns - self._outage_since_ns) / 1e9)
        elif self._outage_since_ns is not None:
            self.log.info("%s display (%s) found after %.1f s", self.name, self.wiring.where(),
                          (now_ns - self._outage_since_ns) / 1e9)
        self._ever_up = True
        self._outage_since_ns = None
        self._backoff_ns = self.retry_first_ns


class OledSink(Closing):
    """The loop's DisplaySink for the two displays. See the module docstring.

    `on_pushed(frame, done_ns)`, if given, is called (on the worker) after a frame went out to both
    displays, with time.monotonic_ns() at that moment (the bench's press-to-frame time).
    `on_switched(frame, done_ns)`, if given, is called when a frame's polarity flips went out before
    its bytes, on every display whose image changed (a press: both show the switch; the bench's
    press-to-bus time).

    `blank()`, called while the program still loads (`gameclock run`), clears both displays' RAM on
    the worker: the panels' RAM is unknown after power-on, so one whole frame each must go out once
    (~25 ms each on a 400 kHz bus), and sent while the interpreter imports the loop (the bus waits
    without holding it) it leaves the first frame only its lit bytes (issue 27: `ready_ms`).
    Without `blank()` nothing goes to the displays before the loop's first frame, which is then sent
    whole. `shown()` says whether that first frame has been handed to both
    displays (sent, or found a display down: the clock runs without it), and `on_shown()`, if given,
    is called once (on the worker) when it becomes true: `gameclock run` says READY=1 then."""

    def __init__(self, left: Oled, right: Oled, *, threaded: bool = True,
                 clock: Callable[[], int] = time.monotonic_ns,
                 on_pushed: Callable[[Frame, int], None] | None = None,
                 on_switched: Callable[[Frame, int], None] | None = None,
                 on_shown: Callable[[], None] | None = None):
        self.oleds = (left, right)
        self.threaded = threaded
        self.clock = clock
        self.on_pushed = on_pushed
        self.on_switched = on_switched
        self.on_shown = on_shown
        self._shown = threading.Event()
        self.frames_shown = 0     # show() calls
        self.frames_pushed = 0    # frames the worker sent (fewer when frames came faster than the bus)
        self.full_frame_bytes = 0
        self._latest: Frame | None = None
        # each display's last image pushed whole (a frame's images are not drawn on once shown)
        self._sent: list[Image.Image | None] = [None, None]
        self._pending: Frame | None = None
        self._contrast: int | None = None
        self._blank = False  # blank() asked for, not yet done
        self._busy = False
        self._stopping = False
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        if threaded:  # a newer frame cuts a stale one short between its windows (issue 14: press-to-bus)
            for o in self.oleds:
                if hasattr(o.device, "preempt"):
                    o.device.preempt = self._newer_waiting
        self.frames_cut = 0       # frames a newer one cut short

    # --- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        if self.threaded and self._thread is None:
            self._stopping = False
            self._thread = threading.Thread(target=self._run, name="displays", daemon=True)
            self._thread.start()

    def stop(self, timeout_s: float = 2.0) -> None:
        """Finish the frame in hand and stop the worker."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None

    def close(self) -> None:
        """Stop the worker (the frame in hand is finished) and release both displays' buses."""
        self.stop()
        for oled in self.oleds:
            oled.close()

    def __repr__(self) -> str:
        mode = "worker thread" if self.threaded else "in the caller's thread"
        return f"<OledSink {self.oleds[0]!r} {self.oleds[1]!r}, {mode}, {self.frames_shown} frames shown>"

    # --- DisplaySink ------------------------------------------------------------------------
    def shown(self) -> bool:
        """Whether the loop's first frame went out to both displays (or found them down)."""
        return self._shown.is_set()

    def show(self, frame: Frame) -> None:
        """Show `frame` (.left, .right: 128x64 mode "1" images). Returns at once; never raises."""
        self.frames_shown += 1
        self.full_frame_bytes += sum(o.full_frame_bytes for o in self.oleds)
        if not self.threaded:
            self._work(frame, None)
            return
        with self._cond:
            self._pending = frame
            self._cond.notify_all()

    def blank(self) -> None:
        """Clear both displays (all pixels off) before the loop's first frame, so that frame sends
        only what it lights. Returns at once; does nothing once a frame was shown."""
        if self._latest is not None or self.frames_shown:
            return
        if not self.threaded:
            self._clear()
            return
        with self._cond:
            self._blank = True
            self._cond.notify_all()

    def set_contrast(self, level: int) -> None:
        """Contrast (brightness) of both displays, 0-255."""
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0-255, got {level}")
        if not self.threaded:
            self._work(None, level)
            return
        with self._cond:
            self._contrast = level
            self._cond.notify_all()

    def flush(self, timeout_s: float = 5.0) -> bool:
        """Wait until the worker has sent everything handed to it. True if it has."""
        if not self.threaded:
            return True
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while self._busy or self._pending is not None or self._contrast is not None or self._blank:
                left = deadline - time.monotonic()
                if left <= 0 or self._thread is None:
                    return False
                self._cond.wait(left)
        return True

    def retry(self) -> None:
        """Give down displays their due retry now (threaded=False; the worker does this itself)."""
        if not self.threaded:
            self._work(None, None)

    # --- figures ------------------------------------------------------------------------------
    @property
    def data_bytes(self) -> int:
        return sum(o.serial.data_bytes for o in self.oleds)

    @property
    def command_bytes(self) -> int:
        return sum(o.serial.command_bytes for o in self.oleds)

    def stats(self) -> dict[str, Any]:
        """Counters since start: bytes handed to the bus (see the module docstring), frames, faults."""
        return {"data_bytes": self.data_bytes, "command_bytes": self.command_bytes,
                "full_frame_bytes": self.full_frame_bytes, "frames_shown": self.frames_shown,
                "frames_pushed": self.frames_pushed,
                "faults": sum(o.faults for o in self.oleds),
                "up": {name: o.up for name, o in zip(SIDES, self.oleds, strict=True)}}

    # --- the worker ---------------------------------------------------------------------------
    def _retry_wait_s(self) -> float | None:
        down = [o.retry_at_ns for o in self.oleds if not o.up]
        if not down or self._latest is None:  # nothing to show yet: nothing to retry
            return None
        return max(0.0, (min(down) - self.clock()) / 1e9)

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    if self._pending is not None or self._contrast is not None or self._blank:
                        break
                    if self._stopping:
                        return
                    wait = self._retry_wait_s()
                    if wait is not None and wait <= 0:
                        break
                    self._busy = False
                    self._cond.notify_all()
                    self._cond.wait(wait)
                frame, self._pending = self._pending, None
                level, self._contrast = self._contrast, None
                blank, self._blank = self._blank, False
                self._busy = True
            if blank and frame is None and self._latest is None:
                self._clear()
            self._work(frame, level)

    def _clear(self) -> None:
        """(worker) All pixels off on both displays; what each RAM then holds is known. A display
        that does not answer is left to the first frame (its usual retry)."""
        now = self.clock()
        for i, oled in enumerate(self.oleds):
            black = Image.new(oled.device.mode, oled.device.size)
            if oled.push(black, now) and not getattr(oled.device, "partial", False):
                self._sent[i] = black

    def _newer_waiting(self) -> bool:
        """(worker) A newer frame waits: what is being sent now is stale (read without the lock: a
        frame that arrives a moment later only waits for the rest of this one)."""
        return self._pending is not None

    def _work(self, frame: Frame | None, level: int | None) -> None:
        now = self.clock()
        if level is not None:
            for o in self.oleds:
                o.set_contrast(level, now)
        if frame is not None:
            self._latest = frame
        latest = self._latest
        if latest is None:  # nothing to show yet (blank() clears, on its own)
            return
        images = (latest.left, latest.right)
        # The loop hands a screen that did not change as the very image object it showed before
        # (loop/render.py), so an image that is the one sent is unchanged; any other is planned, and the
        # plan finds what differs (nothing, for an equal picture: nothing is sent). No comparing here.
        changed = [image is not sent for image, sent in zip(images, self._sent, strict=True)]
        if frame is not None and self._shown.is_set():
            # the polarity of both first (the running marker: a press shows on both at once), then
            # each display's changed bytes
            flipped = [oled.flip_first(image, now) if oled.up and change else None
                       for oled, image, change in zip(self.oleds, images, changed, strict=True)]
            for i, f in enumerate(flipped):
                if f:
                    self._sent[i] = None  # flipped, its bytes not yet sent: it shows neither image
            if self.on_switched is not None and any(flipped) and None not in flipped:
                self.on_switched(frame, time.monotonic_ns())
        for i, (oled, image) in enumerate(zip(self.oleds, images, strict=True)):
            if frame is None and oled.up:
                continue  # a retry pass: only the displays that are down
            if oled.up and self._sent[i] is not None and not changed[i]:
                continue  # only the side that changed: the other display already shows this image
            if frame is not None and i > 0 and self._newer_waiting() and self._shown.is_set():
                self.frames_cut += 1
                return  # a newer frame waits: the other display gets that one instead
            if oled.push(image, now) and not getattr(oled.device, "partial", False):
                self._sent[i] = image
            else:
                self._sent[i] = None  # not shown whole (a fault, or a newer frame cut it short)
        if frame is not None:
            self.frames_pushed += 1
            if self.on_pushed is not None:
                self.on_pushed(frame, time.monotonic_ns())
            if not self._shown.is_set():
                self._shown.set()
                if self.on_shown is not None:
                    self.on_shown()


def build_sink(display_wiring: DisplayWiring, *, pin_factory: PinFactory | None = None,
               threaded: bool = True, smbus: dict[int, object] | None = None) -> OledSink:
    """The sink for the wiring file's displays (`gameclock.device.wiring.DisplayWiring`).
    `pin_factory`: gpiozero's, for SPI's DC/reset pins. `smbus`: {address: bus} to use instead of
    opening /dev/i2c-N (tests, the bench)."""
    left, right = oled_wirings(display_wiring)
    gpio = GpiozeroGPIO(pin_factory) if display_wiring.interface == "spi" else None
    oleds = []
    for name, w in zip(SIDES, (left, right), strict=True):
        bus = None if smbus is None else smbus.get(w.address)
        oleds.append(Oled(w, functools.partial(make_serial, w, smbus=bus, gpio=gpio), name=name))
    return OledSink(oleds[0], oleds[1], threaded=threaded)
