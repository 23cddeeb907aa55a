"""Display faults never disturb the clock: a display missing at start, unplugged mid-frame, a bus
that fails for a while. show() never raises, the log says it once per outage, retries back off,
and when the bus answers again the controller is re-initialized and the whole screen redrawn."""
from __future__ import annotations

import errno
import logging
import time

import pytest
from fakebus import FaultyBus
from ssd_model import MODELS

from gameclock.core.clock import apply, new_game, view
from gameclock.core.events import Start
from gameclock.device.display import Oled, OledSink, OledWiring, make_serial
from gameclock.rules.loader import find_preset
from gameclock.ui import screens

S = 1_000_000_000
MS = 1_000_000
LEFT, RIGHT = 0x3C, 0x3D


class Frame:
    def __init__(self, left, right):
        self.left, self.right = left, right


def frames(preset_id="makruk-45", seconds=range(0, 40), running=1):
    """(second, Frame) of a game where `running`'s clock runs from 0 (its digits change each second)."""
    p = find_preset(preset_id)
    st = apply(new_game(p.control_for(), label=p.short), Start(0, running))
    for t in seconds:
        v = view(st, t * S)
        yield t, Frame(screens.render(v, 0), screens.render(v, 1))


def shows(model, image) -> bool:
    """The panel (display on, polarity applied) shows exactly `image`."""
    return model.glass().tobytes() == image.tobytes()


class FakeClock:
    def __init__(self, t=0):
        self.t = t

    def __call__(self):
        return self.t


def rig(driver="ssd1306", missing=(), threaded=False, clock=None, retry_first_ns=500 * MS):
    bus = FaultyBus()
    models = {LEFT: MODELS[driver](seed=1), RIGHT: MODELS[driver](seed=2)}
    for addr, m in models.items():
        bus.attach(addr, m)
    for addr in missing:
        bus.unplug(addr)
    oleds = []
    for name, addr in (("left", LEFT), ("right", RIGHT)):
        w = OledWiring(driver=driver, address=addr)
        oleds.append(Oled(w, (lambda w=w: make_serial(w, smbus=bus)), name=name,
                          retry_first_ns=retry_first_ns))
    sink = OledSink(oleds[0], oleds[1], threaded=threaded, clock=clock or time.monotonic_ns)
    return bus, models, sink


def display_records(caplog):
    return [r for r in caplog.records if r.name == "gameclock.display"]


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_display_missing_at_start_is_logged_once_and_the_other_works(driver, caplog):
    caplog.set_level(logging.INFO, logger="gameclock.display")
    clock = FakeClock()
    bus, models, sink = rig(driver, missing=[RIGHT], clock=clock)
    for t, frame in frames(seconds=range(0, 30)):
        clock.t = t * S
        sink.show(frame)  # never raises
        assert shows(models[LEFT], frame.left)
    warnings = [r for r in display_records(caplog) if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    msg = warnings[0].getMessage()
    assert "right" in msg and "0x3D" in msg and "missing" in msg
    assert not sink.oleds[1].up and sink.oleds[0].up
    # retried with backoff, not at every frame: 0, 0.5, 1.5, 3.5, 7.5, 15.5, 23.5 s (8 s at most)
    assert sink.oleds[1].faults == 7


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_unplugged_mid_frame_then_back_is_reinitialized_and_redrawn(driver, caplog):
    caplog.set_level(logging.INFO, logger="gameclock.display")
    clock = FakeClock()
    bus, models, sink = rig(driver, clock=clock)
    shown = list(frames(seconds=range(0, 60)))
    for t, frame in shown[:5]:
        clock.t = t * S
        sink.show(frame)
    # the next frame's right display fails after one transfer: the frame is half sent
    bus.fail_after(RIGHT, 1)
    for t, frame in shown[5:20]:
        clock.t = t * S
        sink.show(frame)
        assert shows(models[LEFT], frame.left)  # the other display never misses a frame
    assert not sink.oleds[1].up
    bus.heal(RIGHT, power_cycle=True)  # plugged back: settings lost, RAM garbage, display off
    assert not models[RIGHT].display_on
    data_before = sink.oleds[1].serial.data_bytes
    for t, frame in shown[20:40]:
        clock.t = t * S
        sink.show(frame)
    last = shown[39][1]
    assert shows(models[RIGHT], last.right) and shows(models[LEFT], last.left)
    assert sink.oleds[1].up
    # the recovery redrew the whole screen (a full frame of data), then went back to diffs
    assert sink.oleds[1].serial.data_bytes - data_before >= 1024
    records = display_records(caplog)
    warnings = [r for r in records if r.levelno == logging.WARNING]
    infos = [r for r in records if r.levelno == logging.INFO]
    assert len(warnings) == 1 and "stopped answering" in warnings[0].getMessage()
    assert len(infos) == 1 and "back" in infos[0].getMessage() and "0x3D" in infos[0].getMessage()


def test_recovery_uses_the_same_device_object():
    """luma registers an atexit hook per device object: recovering must not make new ones."""
    clock = FakeClock()
    bus, models, sink = rig(clock=clock)
    device = sink.oleds[0].device
    seq = list(frames(seconds=range(0, 20), running=0))
    sink.show(seq[0][1])
    bus.unplug(LEFT)
    clock.t = 1 * S
    sink.show(seq[1][1])
    bus.heal(LEFT)
    clock.t = 5 * S
    sink.show(seq[5][1])
    assert sink.oleds[0].up and sink.oleds[0].device is device
    assert shows(models[LEFT], seq[5][1].left)


def test_backoff_doubles_to_eight_seconds_and_resets_after_recovery():
    clock = FakeClock()
    bus, models, sink = rig(missing=[LEFT], clock=clock)
    oled = sink.oleds[0]
    attempts = []
    for ms in range(0, 40_000, 100):  # a frame every 100 ms for 40 s
        clock.t = ms * MS
        before = oled.faults
        sink.show(next(frames(seconds=[ms // 1000], running=0))[1])
        if oled.faults > before:
            attempts.append(ms)
    gaps = [b - a for a, b in zip(attempts, attempts[1:], strict=False)]
    assert gaps[:5] == [500, 1000, 2000, 4000, 8000]
    assert set(gaps[4:]) == {8000}
    bus.heal(LEFT)
    clock.t = attempts[-1] * MS + 8000 * MS
    sink.show(next(frames(seconds=[50], running=0))[1])
    assert oled.up
    bus.unplug(LEFT)
    clock.t += S
    sink.show(next(frames(seconds=[51], running=0))[1])
    assert oled.retry_at_ns - clock.t == 500 * MS  # a new outage starts again at 0.5 s


def test_eio_and_a_failing_command_are_faults_too(caplog):
    """luma turns EIO/EREMOTEIO on a command into DeviceNotFoundError; data errors stay OSError;
    a bus that times out raises ETIMEDOUT. All are the same fault."""
    caplog.set_level(logging.INFO, logger="gameclock.display")
    clock = FakeClock()
    bus, models, sink = rig(clock=clock)
    seq = list(frames(seconds=range(0, 30), running=0))
    sink.show(seq[0][1])
    for code, t in ((errno.EIO, 1), (errno.ETIMEDOUT, 10), (errno.EREMOTEIO, 20)):
        bus.unplug(LEFT, code)
        clock.t = t * S
        sink.show(seq[t][1])
        assert not sink.oleds[0].up
        bus.heal(LEFT)
        clock.t = (t + 1) * S
        sink.show(seq[t + 1][1])
        assert sink.oleds[0].up and shows(models[LEFT], seq[t + 1][1].left)
    warnings = [r for r in display_records(caplog) if r.levelno == logging.WARNING]
    assert len(warnings) == 3  # one per outage


def test_an_unexpected_error_never_escapes_show(caplog):
    caplog.set_level(logging.INFO, logger="gameclock.display")

    class Broken:
        def command(self, *cmd):
            raise RuntimeError("driver bug")

        def data(self, data):
            raise RuntimeError("driver bug")

        def cleanup(self):
            pass

    clock = FakeClock()
    left = Oled(OledWiring(address=LEFT), lambda: Broken(), name="left")
    bus, models, sink2 = rig(clock=clock)
    sink = OledSink(left, sink2.oleds[1], threaded=False, clock=clock)
    for t, frame in frames(seconds=range(0, 10)):
        clock.t = t * S
        sink.show(frame)
        assert shows(models[RIGHT], frame.right)
    errors = [r for r in display_records(caplog) if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "driver bug" in errors[0].getMessage()


def test_the_worker_retries_on_its_own_without_new_frames(caplog):
    """A display plugged back in while the clock is paused (no new frames) comes back by itself."""
    caplog.set_level(logging.INFO, logger="gameclock.display")
    bus, models, sink = rig(missing=[RIGHT], threaded=True, retry_first_ns=20 * MS)
    sink.start()
    try:
        frame = next(frames(seconds=[3]))[1]
        sink.show(frame)
        assert sink.flush(5)
        assert shows(models[LEFT], frame.left) and not sink.oleds[1].up
        bus.heal(RIGHT)
        deadline = time.monotonic() + 5
        while not sink.oleds[1].up and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sink.flush(5)
        assert sink.oleds[1].up and shows(models[RIGHT], frame.right)
        assert sink.frames_shown == 1
    finally:
        sink.stop()


def test_a_bus_that_cannot_be_opened_is_a_missing_display(caplog):
    """No /dev/i2c-N (I2C not enabled): luma raises DeviceNotFoundError when opening the bus."""
    caplog.set_level(logging.INFO, logger="gameclock.display")
    oled = Oled(OledWiring(bus=97, address=0x3C), name="left")  # luma opens /dev/i2c-97 itself
    assert oled.push(next(frames(seconds=[0]))[1].left, 0) is False
    warnings = [r for r in display_records(caplog) if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "I2C bus 97" in warnings[0].getMessage()


def test_a_dead_display_does_not_slow_the_loop_down():
    """Through the real loop with a missing display, the frames keep coming at the same pace and
    the live display shows each of them."""
    import queue

    from gameclock.inbox import PlayerButton
    from gameclock.loop import Loop
    from gameclock.rules.loader import load_presets

    clock = FakeClock(10 * S)
    bus, models, sink = rig(missing=[LEFT], clock=clock)

    class Quiet:
        def beep(self, alert, text):
            pass

    loop = Loop(queue.Queue(), load_presets(), sink, Quiet(), clock=clock)
    loop.new_game("crossword")
    loop.pump(clock.t)
    clock.t = 11 * S
    loop.pump(clock.t, [PlayerButton(clock.t, 0)])
    for s in range(12, 30):
        clock.t = s * S
        loop.pump(clock.t)
        assert shows(models[RIGHT], loop.frame.right)
    assert sink.frames_shown == 20 and not sink.oleds[0].up
