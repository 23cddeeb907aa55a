"""The displays through the real stack: luma's ssd1306/sh1106 (our diffing subclasses) on luma's own
i2c / spi serial interfaces, writing to a fake bus whose bytes a controller model (ssd_model.py)
decodes back into the picture on the glass. What the model shows must be what was rendered."""
from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest
from fakebus import FakeBus, FakeSpiDev
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw
from ssd_model import MODELS, SH1106Model, SSD1306Model

from gameclock.core.clock import apply, new_game, view
from gameclock.core.events import Press, Start
from gameclock.device.display import GpiozeroGPIO, Oled, OledSink, OledWiring, make_serial
from gameclock.device.oled import CountingSerial, DiffSH1106, DiffSSD1306, pack_pages
from gameclock.rules.loader import find_preset
from gameclock.ui import screens

S = 1_000_000_000
DRIVERS = {"ssd1306": DiffSSD1306, "sh1106": DiffSH1106}


def rig(driver="ssd1306", address=0x3C, rotate=0, khz=None):
    """(bus, model, counting serial, initialized diffing device) on one fake I2C bus."""
    bus = FakeBus(khz=khz)
    model = MODELS[driver](seed=7)
    bus.attach(address, model)
    serial = CountingSerial(i2c(bus=bus, address=address))
    device = DRIVERS[driver](serial, rotate=rotate)
    device.initialize()
    return bus, model, serial, device


def shows(model, image) -> bool:
    """The panel (display on, polarity applied) shows exactly `image`."""
    return model.glass().tobytes() == image.convert("1").tobytes()


def random_image(rng, density=0.5):
    return Image.frombytes("1", (128, 64), bytes(rng.getrandbits(8) if rng.random() < density else 0
                                                 for _ in range(1024)))


def clock_screen(preset_id, at_s, side=0):
    p = find_preset(preset_id)
    st = apply(new_game(p.control_for(), label=p.short), Start(0, 0))
    return screens.render(view(st, int(at_s * S)), side)


# ------------------------------------------------------------------------------ the model itself


@pytest.mark.parametrize("driver,cls", [("ssd1306", ssd1306), ("sh1106", sh1106)])
def test_model_decodes_lumas_own_full_frame_driver(driver, cls):
    """The model is checked against luma's unmodified drivers first (init + full frames)."""
    bus = FakeBus()
    model = MODELS[driver](seed=3)
    bus.attach(0x3C, model)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # Pillow 13: Image.getdata in luma
        dev = cls(i2c(bus=bus, address=0x3C))
        assert model.display_on and model.glass().getbbox() is None  # luma clears, then shows
        img = clock_screen("makruk-45", 3)
        dev.display(img)
    assert shows(model, img)
    assert model.overflows == 0


def test_model_window_wraps_inside_columnaddr_and_pageaddr():
    m = SSD1306Model(seed=1)
    m.commands([0x20, 0x00, 0x21, 10, 12, 0x22, 2, 3])  # 3 columns x 2 pages
    m.data([1, 2, 3, 4, 5, 6, 7])  # the 7th wraps back to column 10 of page 2
    assert [m.ram[2 * 128 + x] for x in (10, 11, 12)] == [7, 2, 3]
    assert [m.ram[3 * 128 + x] for x in (10, 11, 12)] == [4, 5, 6]


def test_sh1106_model_has_132_columns_and_shows_2_to_129():
    m = SH1106Model(seed=1)
    m.commands([0xA1, 0xC8, 0xB0 | 5, 0x02, 0x10])  # page 5, column 2 = visible column 0
    m.data([0xFF])
    img = m.image()
    assert all(img.getpixel((0, y)) for y in range(40, 48))
    assert m.columns == 132


# ------------------------------------------------------------------------------ the diff drivers


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_nothing_on_the_bus_when_constructed(driver):
    bus = FakeBus()
    bus.attach(0x3C, MODELS[driver]())
    DRIVERS[driver](CountingSerial(i2c(bus=bus, address=0x3C)))
    assert bus.transfers == []


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_first_frame_is_whole_and_switches_the_display_on_after_it(driver):
    bus, model, serial, dev = rig(driver)
    assert not model.display_on  # init sends display off first; RAM garbage is not shown
    img = clock_screen("makruk-45", 0)
    dev.display(img)
    assert shows(model, img) and model.display_on
    assert serial.data_bytes == 1024
    # the display-on command is the last thing sent, after the last data byte
    assert bus.transfers[-1].control == 0x00 and bus.transfers[-2].control == 0x40


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_an_identical_frame_sends_nothing(driver):
    bus, model, serial, dev = rig(driver)
    img = clock_screen("makruk-45", 3)
    dev.display(img)
    n = len(bus.transfers)
    dev.display(img.copy())
    assert len(bus.transfers) == n  # not a byte, not a command


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_one_changed_digit_sends_a_small_part_of_a_frame(driver):
    bus, model, serial, dev = rig(driver)
    a, b = clock_screen("makruk-45", 1), clock_screen("makruk-45", 2)  # 44:59 -> 44:58, left runs
    dev.display(a)
    d0, c0 = serial.data_bytes, serial.command_bytes
    dev.display(b)
    data, cmds = serial.data_bytes - d0, serial.command_bytes - c0
    assert shows(model, b)
    # one digit is about a fifth of the width and 6 of the 8 pages: a full frame is 1024 bytes
    assert 0 < data < 1024 // 5
    assert cmds < 40


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 2])
def test_random_frames_decode_to_the_image(driver, rotate):
    """Sparse random changes, dense ones, single pixels at the corners: after every frame the
    decoded glass equals the image (rotate=2: the module is upside down, so the RAM holds the
    image turned 180 degrees)."""
    bus, model, serial, dev = rig(driver, rotate=rotate)
    rng = random.Random(11)
    img = random_image(rng)
    for step in range(60):
        img = img.copy()
        draw = ImageDraw.Draw(img)
        kind = step % 4
        if kind == 0:
            for _ in range(rng.randint(1, 6)):
                x, y = rng.randrange(128), rng.randrange(64)
                draw.rectangle((x, y, x + rng.randrange(30), y + rng.randrange(20)), fill=rng.randint(0, 1))
        elif kind == 1:
            img.putpixel(rng.choice([(0, 0), (127, 0), (0, 63), (127, 63)]), rng.randint(0, 1))
        elif kind == 2:
            img = random_image(rng, rng.random())
        else:
            img = screens.inverted(img)  # the whole screen flips: the driver may flip polarity
        dev.display(img)
        expected = img if rotate == 0 else img.rotate(180)
        assert shows(model, expected), f"step {step}"
    assert model.overflows == 0


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_players_switch_costs_a_few_bytes(driver):
    """At a press the running side's screen inverts: one polarity command per display plus the
    moves count, instead of two whole screens."""
    p = find_preset("makruk-45")
    st = apply(new_game(p.control_for(), label=p.short), Start(0, 0))
    before = view(st, 3_500_000_000)
    after = view(apply(st, Press(3_600_000_000, 0)), 3_600_000_000)
    rigs = [rig(driver, address=a) for a in (0x3C, 0x3D)]
    for side, (_bus, _model, _serial, dev) in enumerate(rigs):
        dev.display(screens.render(before, side))
    sent = 0
    polarity = [model.inverted for _, model, _, _ in rigs]
    for side, (_bus, model, serial, dev) in enumerate(rigs):
        c, d = serial.command_bytes, serial.data_bytes
        img = screens.render(after, side)
        dev.display(img)
        assert shows(model, img)
        sent += serial.command_bytes - c + serial.data_bytes - d
    assert [model.inverted for _, model, _, _ in rigs] == [not p for p in polarity]  # both flipped
    assert sent < 40  # both displays together; two full frames would be 2048 data bytes


def test_sh1106_uses_its_column_offset():
    bus, model, serial, dev = rig("sh1106")
    img = Image.new("1", (128, 64))
    dev.display(img)
    hidden = bytes(model.ram[0:2]) + bytes(model.ram[130:132])  # page 0's invisible columns
    img2 = img.copy()
    img2.putpixel((0, 0), 1)  # visible column 0 is RAM column 2
    dev.display(img2)
    assert model.ram[2] == 0x01
    assert bytes(model.ram[0:2]) + bytes(model.ram[130:132]) == hidden
    assert shows(model, img2)


def test_ssd1306_merges_neighbouring_pages_into_one_window():
    bus, model, serial, dev = rig("ssd1306")
    img = Image.new("1", (128, 64))
    dev.display(img)
    img2 = img.copy()
    ImageDraw.Draw(img2).rectangle((40, 8, 59, 47), fill=1)  # pages 1-5, columns 40-59
    n = len(bus.transfers)
    dev.display(img2)
    new = bus.transfers[n:]
    assert [t.control for t in new] == [0x00] + [0x40] * 4  # one window; 100 bytes in 32-byte blocks
    assert sum(t.length for t in new if t.control == 0x40) == 5 * 20
    assert shows(model, img2)


def test_pack_pages_matches_the_controller_layout():
    img = Image.new("1", (128, 64))
    img.putpixel((3, 0), 1)
    img.putpixel((3, 7), 1)
    img.putpixel((127, 63), 1)
    buf = pack_pages(img)
    assert len(buf) == 1024
    assert buf[3] == 0x81 and buf[7 * 128 + 127] == 0x80
    assert sum(1 for b in buf if b) == 2


def test_stock_display_filters_pillows_deprecation_warning():
    import warnings
    bus, model, serial, dev = rig("ssd1306")
    img = clock_screen("crossword", 5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dev.stock_display(img)
    assert not [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert shows(model, img)
    assert serial.data_bytes == 1024


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_persist_keeps_the_picture_at_exit(driver):
    """luma's atexit hook calls cleanup(): with persist it must not switch off or clear."""
    bus, model, serial, dev = rig(driver)
    img = clock_screen("makruk-45", 3)
    dev.display(img)
    n = len(bus.transfers)
    assert dev.persist is True
    dev.cleanup()
    assert len(bus.transfers) == n and model.display_on and shows(model, img)


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_contrast_is_sent_and_kept_over_a_reinitialization(driver):
    bus, model, serial, dev = rig(driver)
    dev.display(clock_screen("makruk-45", 3))
    dev.contrast(40)
    assert model.contrast == 40
    model.power_on(5)  # the module lost power
    dev.initialize()
    assert model.contrast == 40
    img = clock_screen("makruk-45", 4)
    dev.display(img)
    assert shows(model, img) and model.display_on


# ------------------------------------------------------------------------------ serial paths


def test_the_pis_own_i2c_path_i2c_rdwr(monkeypatch):
    """On the Pi luma opens /dev/i2c-1 with smbus2 itself and sends data with i2c_rdwr in one
    transfer: the same bytes must come out."""
    import smbus2

    bus = FakeBus()
    model = SSD1306Model(seed=2)
    bus.attach(0x3D, model)
    monkeypatch.setattr(smbus2, "SMBus", lambda port: bus)
    oled = Oled(OledWiring(address=0x3D), name="right")  # make_serial: i2c(port=1, address=0x3D)
    img = clock_screen("makruk-45", 3, side=1)
    assert oled.push(img, 0)
    assert shows(model, img)
    data = [t for t in bus.transfers if t.control == 0x40]
    assert [t.length for t in data] == [1024]  # one i2c_rdwr, not 32 blocks


def test_spi_with_dc_and_reset_pins_on_gpiozero(factory):
    """SPI: luma's spi interface with our gpiozero-backed GPIO shim; the fake spidev routes bytes
    to the model as commands or data by the DC pin's level at that moment."""
    model = SH1106Model(seed=4)
    dc, rst = 24, 25
    spidev = FakeSpiDev(model, lambda: factory.pin(dc).state)
    gpio = GpiozeroGPIO(factory)
    w = OledWiring(driver="sh1106", interface="spi", spi_port=0, spi_device=1, dc_pin=dc,
                   reset_pin=rst, spi_hz=10_000_000)
    oled = Oled(w, lambda: make_serial(w, spidev=spidev, gpio=gpio), name="left")
    img = clock_screen("makhos-move", 3)
    assert oled.push(img, 0)
    assert spidev.opened == (0, 1) and spidev.max_speed_hz == 8_000_000  # rounded down to luma's list
    assert factory.pin(rst).state  # reset released (high) after the pulse
    assert shows(model, img) and model.display_on
    img2 = clock_screen("makhos-move", 4)
    before = spidev.written
    assert oled.push(img2, 0)
    assert shows(model, img2) and 0 < spidev.written - before < 300
    gpio.cleanup()


# ------------------------------------------------------------------------------ the sink


class Frame:
    def __init__(self, left, right):
        self.left, self.right = left, right


def pair_rig(driver="ssd1306", khz=None, threaded=False, gate=None, **kw):
    bus = FakeBus(khz=khz, gate=gate)
    models = (MODELS[driver](seed=1), MODELS[driver](seed=2))
    oleds = []
    for name, addr, m in zip(("left", "right"), (0x3C, 0x3D), models, strict=False):
        bus.attach(addr, m)
        w = OledWiring(driver=driver, address=addr)
        oleds.append(Oled(w, (lambda w=w: make_serial(w, smbus=bus)), name=name))
    return bus, models, OledSink(oleds[0], oleds[1], threaded=threaded, **kw)


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_sink_shows_both_sides_and_counts_bytes(driver):
    bus, (ml, mr), sink = pair_rig(driver)
    p = find_preset("makruk-45")
    st = apply(new_game(p.control_for(), label=p.short), Start(0, 0))
    for t in range(0, 12):
        v = view(st, t * S)
        frame = Frame(screens.render(v, 0), screens.render(v, 1))
        sink.show(frame)
        assert shows(ml, frame.left) and shows(mr, frame.right)
    stats = sink.stats()
    assert stats["frames_shown"] == 12
    assert stats["data_bytes"] == bus.data_bytes() and stats["command_bytes"] == bus.command_bytes()
    full = 1024 + (6 if driver == "ssd1306" else 24)
    assert stats["full_frame_bytes"] == 12 * 2 * full
    # the first frame is whole on both displays; then only the running side's seconds change
    assert stats["data_bytes"] < 2 * 1024 + 11 * 250


def test_sink_contrast_reaches_both_displays():
    bus, (ml, mr), sink = pair_rig()
    sink.show(Frame(clock_screen("makruk-45", 0), clock_screen("makruk-45", 0, 1)))
    sink.set_contrast(200)
    assert ml.contrast == 200 and mr.contrast == 200
    with pytest.raises(ValueError):
        sink.set_contrast(256)


def test_threaded_show_returns_at_once_and_the_latest_frame_wins():
    """A busy bus (held busy by the test until every frame was shown, as a slow one -- 10 kHz, about a
    second a full frame -- would be) must not hold up show(); frames that come while the bus is busy
    are skipped, the last one is shown."""
    gate = threading.Event()
    bus, (ml, mr), sink = pair_rig(threaded=True, gate=gate)
    sink.start()
    try:
        frames = [Frame(clock_screen("makruk-45", t), clock_screen("makruk-45", t, 1)) for t in range(6)]
        t0 = time.monotonic()
        for f in frames:
            sink.show(f)
        took = time.monotonic() - t0
        assert took < 0.1  # the bus carries nothing until the gate opens (in 5 s, if show() waited for it)
        gate.set()
        assert sink.flush(30)
        assert shows(ml, frames[-1].left) and shows(mr, frames[-1].right)
        assert sink.frames_shown == 6 and sink.frames_pushed < 6
    finally:
        sink.stop()


def test_nothing_goes_out_before_the_first_frame_which_is_sent_whole_once():
    """Issue 14: the worker sends no blank frame first; the loop's first frame goes out whole (the
    controllers' init sequence, then one full frame each), `shown()` turns true and `on_shown` is
    called once; a display missing at start still counts as shown (the clock runs without it)."""
    called = []
    bus, (ml, mr), sink = pair_rig(threaded=True, on_shown=lambda: called.append(sink.frames_pushed))
    sink.start()
    try:
        time.sleep(0.1)  # a worker with a blank frame to send would have sent it by now
        assert bus.data_bytes() == 0 and bus.command_bytes() == 0 and not sink.shown()
        sink.set_contrast(120)  # kept for the displays' initialization, sent with it
        assert sink.flush(5) and bus.data_bytes() == 0
        first = Frame(clock_screen("makruk-45", 0), clock_screen("makruk-45", 0, 1))
        sink.show(first)
        assert sink.flush(5)
        assert sink.shown() and called == [1]
        assert bus.data_bytes() == 2 * 1024  # one full frame each, nothing before it
        assert shows(ml, first.left) and shows(mr, first.right) and ml.contrast == mr.contrast == 120
        sink.show(Frame(clock_screen("makruk-45", 1), clock_screen("makruk-45", 1, 1)))
        assert sink.flush(5) and called == [1]
    finally:
        sink.stop()

    bus = FakeBus()  # no display answers at all
    oleds = [Oled(OledWiring(address=a), (lambda a=a: make_serial(OledWiring(address=a), smbus=bus)), name=n)
             for n, a in (("left", 0x3C), ("right", 0x3D))]
    sink = OledSink(oleds[0], oleds[1], threaded=False)
    assert not sink.shown()
    sink.show(first)
    assert sink.shown() and not any(o.up for o in sink.oleds)


def test_blank_clears_both_while_loading_then_the_first_frame_sends_only_its_lit_bytes():
    """Issue 27 (`ready_ms`): `gameclock run` asks the worker to clear both displays while it still
    imports the loop. The panels' RAM holds noise at power-on (the model's seeds); after blank() it
    is all off and the glass dark, nothing counts as shown; the loop's first frame then goes out as
    the bytes that differ from dark (or from its inverse: about 1,270 of 2,048 for makruk-45), is shown
    exactly, and `on_shown` is called once, for it. blank() after a frame does nothing."""
    called = []
    bus, (ml, mr), sink = pair_rig(threaded=True, on_shown=lambda: called.append(sink.frames_pushed))
    assert ml.image().tobytes() != bytes(1024)  # noise before anything was sent
    sink.start()
    try:
        sink.blank()
        assert sink.flush(5)
        assert not sink.shown() and called == []
        dark = Image.new("1", (128, 64))
        assert ml.image().tobytes() == mr.image().tobytes() == dark.tobytes()
        assert bus.data_bytes() == 2 * 1024
        first = Frame(clock_screen("makruk-45", 0), clock_screen("makruk-45", 0, 1))
        # the bytes either polarity must send (the driver inverts the glass where that sends fewer)
        least = sum(min(n, 1024 - n) for n in (sum(1 for b in pack_pages(im) if b)
                                                 for im in (first.left, first.right)))
        sink.show(first)
        assert sink.flush(5) and sink.shown() and called == [1]
        assert shows(ml, first.left) and shows(mr, first.right)
        frame_bytes = bus.data_bytes() - 2 * 1024
        assert least <= frame_bytes < 1024 + 1024 // 2  # those (and the gaps in its windows), not 2 x 1024
        sent = bus.data_bytes()
        sink.blank()  # too late: a frame is shown
        assert sink.flush(5) and bus.data_bytes() == sent and shows(ml, first.left)
    finally:
        sink.stop()

    bus, (ml, _mr), sink = pair_rig(threaded=False)  # the same without a worker: at once
    sink.blank()
    assert ml.image().tobytes() == bytes(1024) and not sink.shown()



def test_sink_through_the_real_loop(factory, inbox):
    """The loop's own frames, through the sink and the bus, decode to the loop's images."""
    from gameclock.inbox import PlayerButton
    from gameclock.loop import Loop
    from gameclock.rules.loader import load_presets

    bus, (ml, mr), sink = pair_rig("sh1106")

    class Quiet:
        def beep(self, alert, text):
            pass

    now = [10 * S]
    loop = Loop(inbox, load_presets(), sink, Quiet(), clock=lambda: now[0])
    loop.new_game("makruk-45")
    loop.pump(now[0])
    for i, t in enumerate((11, 14, 19, 19.5, 23)):
        now[0] = int(t * S)
        loop.pump(now[0], [PlayerButton(now[0] - 1000, i % 2)])
        assert shows(ml, loop.frame.left) and shows(mr, loop.frame.right)
    assert "▶" in loop.frame.captions[1]


def test_build_sink_from_the_wiring_file(tmp_path):
    """hw/wiring.toml's [display] (gameclock.device.wiring) -> two displays at its addresses."""
    from gameclock.device.display import build_sink, oled_wirings
    from gameclock.device.wiring import load_wiring

    text = (Path(load_wiring().path).read_text(encoding="utf-8")
            .replace('driver = "ssd1306"', 'driver = "sh1106"').replace("rotation = 0", "rotation = 2"))
    custom = tmp_path / "wiring.toml"
    custom.write_text(text, encoding="utf-8")
    w = load_wiring(custom)
    left, right = oled_wirings(w.display)
    assert (left.address, right.address) == w.display.addresses
    assert left.driver == right.driver == "sh1106" and left.rotate == right.rotate == 2
    bus = FakeBus()
    models = [SH1106Model(seed=1), SH1106Model(seed=2)]
    for addr, m in zip(w.display.addresses, models, strict=False):
        bus.attach(addr, m)
    sink = build_sink(w.display, threaded=False, smbus={a: bus for a in w.display.addresses})
    frame = Frame(clock_screen("makruk-45", 3), clock_screen("makruk-45", 3, 1))
    sink.show(frame)
    # the modules are mounted upside down: the RAM holds each picture turned 180 degrees
    assert shows(models[0], frame.left.rotate(180)) and shows(models[1], frame.right.rotate(180))


def test_wiring_rejects_what_the_screens_cannot_use():
    with pytest.raises(ValueError):
        OledWiring(rotate=1)
    with pytest.raises(ValueError):
        OledWiring(driver="ssd1351")
    with pytest.raises(ValueError):
        OledWiring(interface="usb")


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_frame_cut_short_by_a_newer_one_leaves_the_ram_known(driver):
    """issue 14 (press-to-bus): a frame whose windows are still going out when a newer one waits stops
    between windows (`preempt`); the driver knows what the RAM holds (the windows sent have the cut
    frame's bytes, the rest the older ones), so the newer frame's diff makes the glass exactly right."""
    bus, model, serial, dev = rig(driver)
    first = Image.new("1", (128, 64))
    dev.display(first)
    cut = first.copy()
    draw = ImageDraw.Draw(cut)
    for x, y in ((2, 2), (60, 28), (110, 56)):  # three changes pages and columns apart: three windows
        draw.rectangle((x, y, x + 8, y + 4), fill=1)
    newer = cut.copy()
    ImageDraw.Draw(newer).rectangle((50, 10, 70, 40), fill=1)
    calls = []
    dev.preempt = lambda: calls.append(1) or len(calls) >= 2  # a newer frame waits after 2 windows
    before = serial.bytes if hasattr(serial, "bytes") else None
    dev.display(cut)
    assert dev.partial and dev.preempted == 1 and not shows(model, cut)
    dev.preempt = None
    dev.display(newer)
    assert not dev.partial and shows(model, newer) and model.overflows == 0
    assert before is None or serial.bytes > before


def test_a_newer_frame_cuts_in_between_the_pages_of_one_window():
    """issue 14 (press-to-bus): a tick's digits are one window of six pages (~150 bytes, ~4 ms at
    400 kHz); a press's frame must not wait for all of it. The SSD1306 driver sends such a window page
    by page and stops between pages when a newer frame waits; the RAM then holds the cut frame's
    first pages and the older bytes below, so the newer frame's diff still makes the glass exact."""
    bus, model, serial, dev = rig("ssd1306")
    first = Image.new("1", (128, 64))
    dev.display(first)
    cut = first.copy()
    ImageDraw.Draw(cut).rectangle((100, 8, 123, 55), fill=1)  # pages 1-6, columns 100-123: one window
    assert dev._plan(pack_pages(first), pack_pages(cut)) == [(1, 6, 100, 123)]
    calls = []
    dev.preempt = lambda: calls.append(1) or len(calls) >= 2  # a newer frame waits after 2 pages
    dev.display(cut)
    assert dev.partial and dev.preempted == 1
    glass = model.glass()
    # pages 1 and 2 (rows 8-23) went out, pages 3-6 (rows 24-55) did not
    assert glass.crop((100, 8, 124, 24)).getbbox() == (0, 0, 24, 16)
    assert glass.crop((100, 24, 124, 56)).getbbox() is None
    newer = cut.copy()
    ImageDraw.Draw(newer).rectangle((0, 0, 10, 3), fill=1)
    dev.preempt = None
    dev.display(newer)
    assert not dev.partial and shows(model, newer) and model.overflows == 0


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_press_flips_both_displays_before_sending_either_displays_bytes(driver):
    """issue 14 (press-to-bus): the running marker is the whole screen inverted; a press moves it.
    The sink sends both displays' polarity commands first, then the bytes that changed (here the
    stopped side's seconds too: the press came just after its second changed), so a player sees the
    switch on both screens after two one-byte commands, not after the digits. At the end both show
    their frames exactly."""
    switched = []
    bus, (ml, mr), sink = pair_rig(driver, on_switched=lambda f, ns: switched.append(ns))
    p = find_preset("makruk-45")
    st = apply(new_game(p.control_for(), label=p.short), Start(0, 0))  # the left clock runs
    v = view(st, 5 * S - 1)
    sink.show(Frame(screens.render(v, 0), screens.render(v, 1)))
    st = apply(st, Press(5 * S + S // 100, 0))  # left presses 10 ms after its 0:05 went by: right runs
    v = view(st, 5 * S + S // 100)
    frame = Frame(screens.render(v, 0), screens.render(v, 1))
    assert screens.is_running(v, 1) and not screens.is_running(v, 0)
    start = len(bus.transfers)
    sink.show(frame)
    sent = bus.transfers[start:]
    first_data = next(i for i, t in enumerate(sent) if t.control & 0x40)
    polarity = [t for t in sent[:first_data] if t.length == 1]
    assert {t.address for t in polarity} == {0x3C, 0x3D}  # both displays flipped before any data byte
    assert any(t.control & 0x40 and t.address == 0x3C for t in sent)  # the left's seconds did change
    assert len(switched) == 1 and switched[0] <= sent[first_data].done_ns
    assert shows(ml, frame.left) and shows(mr, frame.right)
