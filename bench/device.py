"""`python -m bench device`: one clock running with both displays, on this machine.

The real stack except the hardware: gpiozero MockFactory pins driven like fingers, the real
`device/buttons.py` adapters (our debounce, the edge's stamp), the real `Loop` on its own thread,
the real screens, and the displays as `gameclock.device.display.OledSink` (its worker thread)
with the diffing luma ssd1306 drivers on luma's own i2c interface, writing to `SimulatedI2CBus`:
a bus that takes as long as a real I2C bus at `BUS_KHZ` (400 kHz, the clock's config.txt) to carry
each transfer, (address + control + payload bytes) x 9 bits, by sleeping (so it costs no CPU), one
transfer at a time for both displays. luma's i2c is built as on the Pi (`pi_like_i2c`): commands
in SMBus block writes, each window's data in one i2c_rdwr transfer. Start/stop bits, the kernel's
per-transfer overhead and clock stretching are not simulated; each sleep overshoots by tens of us.

Preset `makruk-45` (45:00 countdown, tenths below 0:10: far away in this run).

Phase 1, presses: `DEVICE_PRESSES` presses (default 300) of the running side's button at random
intervals (70-250 ms apart, each held 35 ms; fixed seed). For each press, from the edge's stamp (what
the adapter enqueues) to the moment the last byte of the first frame showing the other side running
left the bus (the sink's `on_pushed`):
  press_to_bus_ms_p50, press_to_bus_ms_p99, press_to_bus_ms_max     (target p99 <= 10 ms)
Phase 2, running: the clock runs with nobody pressing for `DEVICE_RUN_S` seconds (default 60):
  cpu_percent_running   process CPU time (all threads, time.process_time) / wall time, in % of one
                        core (target <= 2)
  bus_bytes_per_running_s   bytes handed to the bus per second (payload: commands + data)
Whole run:
  bus_ratio_vs_full_frames  bytes sent / bytes luma's own full-frame refreshes of both displays at
                        the same moments (every frame the loop showed) would have sent (target <= 0.15)
  device_frames (frames the loop showed), device_presses (presses the adapter enqueued),
  device_presses_on_bus (presses whose switch reached the bus), device_run_s, bus_khz_simulated
  (the simulated I2C clock, kHz), device_preset

Shorter runs (tests): GAMECLOCK_BENCH_DEVICE_S and GAMECLOCK_BENCH_DEVICE_PRESSES, or the arguments
of `bench_device()`.
"""
from __future__ import annotations

import os
import queue
import random
import statistics
import threading
import time

BUS_KHZ = 400
PRESET = "makruk-45"
ENV_RUN_S = "GAMECLOCK_BENCH_DEVICE_S"
ENV_PRESSES = "GAMECLOCK_BENCH_DEVICE_PRESSES"
HOLD_S = 0.035
GAP_S = (0.070, 0.250)
LEFT, RIGHT = 0x3C, 0x3D


class SimulatedI2CBus:
    """An smbus2-like bus that accepts everything and takes a real bus's time to do it."""

    def __init__(self, khz: float):
        self.khz = khz
        self.transfers = 0
        self.bytes = 0
        self._lock = threading.Lock()

    def write_i2c_block_data(self, address: int, register: int, data) -> None:
        self._carry(2 + len(data))

    def i2c_rdwr(self, *messages) -> None:
        for m in messages:
            self._carry(1 + len(m))

    def _carry(self, n_bytes: int) -> None:
        with self._lock:
            time.sleep(n_bytes * 9 / (self.khz * 1000))
            self.transfers += 1
            self.bytes += n_bytes

    def close(self) -> None:
        pass


def pi_like_i2c(bus: SimulatedI2CBus, wiring):
    """luma's i2c interface exactly as on the Pi, where luma opens /dev/i2c-<bus> with smbus2 itself
    (`make_serial`: `i2c(port=..., address=...)`) and so sends commands with write_i2c_block_data
    and a frame's data in one i2c_rdwr transfer: built with smbus2.SMBus standing in for a moment."""
    import smbus2

    from gameclock.device.display import make_serial
    real = smbus2.SMBus
    smbus2.SMBus = lambda port: bus
    try:
        return make_serial(wiring)
    finally:
        smbus2.SMBus = real


def _percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`, nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q * len(s) + 0.5)) - 1))]


def bench_device(run_s: float | None = None, presses: int | None = None, seed: int = 5) -> dict:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from gameclock.device.buttons import PlayerButtons
    from gameclock.device.display import Oled, OledSink, OledWiring
    from gameclock.device.wiring import DEFAULT_WIRING, load_wiring
    from gameclock.inbox import PlayerButton, Quit
    from gameclock.loop import Loop
    from gameclock.rules.loader import load_presets

    run_s = float(os.environ.get(ENV_RUN_S, 60)) if run_s is None else run_s
    presses = int(os.environ.get(ENV_PRESSES, 300)) if presses is None else presses
    rng = random.Random(seed)

    bus = SimulatedI2CBus(BUS_KHZ)
    pushed: list[tuple[int, tuple[str, str]]] = []  # (done_ns, captions) per frame on the bus
    pushed_lock = threading.Lock()

    def on_pushed(frame, done_ns: int) -> None:
        with pushed_lock:
            pushed.append((done_ns, frame.captions))

    oleds = []
    for name, w in (("left", OledWiring(address=LEFT)), ("right", OledWiring(address=RIGHT))):
        serial = pi_like_i2c(bus, w)
        oleds.append(Oled(w, (lambda serial=serial: serial), name=name))
    sink = OledSink(oleds[0], oleds[1], on_pushed=on_pushed)

    class Quiet:
        def beep(self, alert: dict, text: str) -> None:
            pass

    inbox: queue.Queue = queue.Queue()
    stamps: list[tuple[int, int]] = []  # (edge at_ns, side) of every press the adapter enqueued

    def put(item) -> None:
        if isinstance(item, PlayerButton):
            stamps.append((item.at_ns, item.side))
        inbox.put(item)

    wiring = load_wiring(DEFAULT_WIRING)  # the repository's hw/wiring.toml: push buttons
    factory = MockFactory(pin_class=MockPWMPin)
    buttons = PlayerButtons(put, dict(wiring.pins), debounce_ns=wiring.debounce_ns, pin_factory=factory)
    loop = Loop(inbox, load_presets(), sink, Quiet())
    loop.new_game(PRESET, 1)
    sink.start()
    thread = threading.Thread(target=loop.run, name="loop", daemon=True)
    thread.start()

    def tap(side: int) -> None:
        pin = buttons.buttons[("left", "right")[side]].pin
        pin.drive_low()
        time.sleep(HOLD_S)
        pin.drive_high()

    try:
        time.sleep(0.3)  # the preset's ready screen goes out whole
        tap(0)  # at ready, the left button starts the right clock
        time.sleep(0.3)
        running = 1
        first_press = len(stamps)
        for _ in range(presses):
            tap(running)
            running = 1 - running
            time.sleep(rng.uniform(*GAP_S) - HOLD_S)
        time.sleep(0.3)
        sink.flush(10)
        press_stamps = stamps[first_press:]

        # phase 2: nobody presses
        mark_bytes = sink.data_bytes + sink.command_bytes
        cpu0, wall0 = time.process_time(), time.monotonic()
        time.sleep(run_s)
        cpu1, wall1 = time.process_time(), time.monotonic()
        run_bytes = sink.data_bytes + sink.command_bytes - mark_bytes
    finally:
        inbox.put(Quit(time.monotonic_ns()))
        thread.join(5)
        sink.stop()
        buttons.close()
        factory.close()

    latencies = []
    with pushed_lock:
        frames = list(pushed)
    for at_ns, side in press_stamps:
        other = 1 - side
        for done_ns, captions in frames:
            if done_ns >= at_ns and "▶" in captions[other] and "▶" not in captions[side]:
                latencies.append((done_ns - at_ns) / 1e6)
                break
    sent = sink.data_bytes + sink.command_bytes
    return {
        "press_to_bus_ms_p50": round(statistics.median(latencies), 3) if latencies else None,
        "press_to_bus_ms_p99": round(_percentile(latencies, 0.99), 3) if latencies else None,
        "press_to_bus_ms_max": round(max(latencies), 3) if latencies else None,
        "cpu_percent_running": round(100 * (cpu1 - cpu0) / (wall1 - wall0), 3),
        "bus_bytes_per_running_s": round(run_bytes / (wall1 - wall0), 1),
        "bus_ratio_vs_full_frames": round(sent / sink.full_frame_bytes, 4) if sink.full_frame_bytes else None,
        "device_frames": sink.frames_shown,
        "device_presses": len(press_stamps),
        "device_presses_on_bus": len(latencies),
        "device_run_s": round(wall1 - wall0, 2),
        "bus_khz_simulated": BUS_KHZ,
        "device_preset": PRESET,
    }
