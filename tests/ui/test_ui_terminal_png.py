"""Terminal pixels (braille / half blocks) and the PNG sink."""
from __future__ import annotations

import io
from types import SimpleNamespace

from PIL import Image

from gameclock.sim.pngsink import PngSink
from gameclock.sim.terminal import TerminalSink, braille, compose, halfblocks


def img_with(*points, size=(128, 64)):
    img = Image.new("1", size, 0)
    for p in points:
        img.putpixel(p, 1)
    return img


def test_braille_is_pixel_for_pixel():
    rows = braille(img_with((0, 0), (1, 3), (127, 63)))
    assert len(rows) == 16 and all(len(r) == 64 for r in rows)
    assert rows[0][0] == chr(0x2800 + 0x01 + 0x80)  # dot 1 (x0,y0) and dot 8 (x1,y3)
    assert rows[15][63] == chr(0x2800 + 0x80)
    assert rows[5][5] == "\u2800"
    # every lit pixel is one raised dot
    full = braille(Image.new("1", (128, 64), 1))
    assert set("".join(full)) == {"⣿"}


def test_halfblocks():
    rows = halfblocks(img_with((0, 0), (1, 1), (2, 0), (2, 1)))
    assert len(rows) == 32 and all(len(r) == 128 for r in rows)
    assert rows[0][:4] == "▀▄█ "


def test_compose_side_by_side_with_captions():
    lines = compose(img_with(), img_with((0, 0)), ("LEFT 45:00", "RIGHT 45:00 ▶"))
    assert len(lines) == 16 + 3
    assert lines[0].startswith("┌") and lines[-2].startswith("└")
    assert lines[1].count("│") == 4
    assert "LEFT 45:00" in lines[-1] and lines[-1].endswith("RIGHT 45:00 ▶")
    assert lines[-1].index("RIGHT") == lines[0].index("┌", 1) + 1  # under the right screen


def frame(caps=("LEFT 1:00", "RIGHT 1:00")):
    return SimpleNamespace(left=img_with(), right=img_with(), captions=caps, info="info", message="msg")


def test_terminal_sink_draws_a_whole_frame_and_beeps():
    out = io.StringIO()
    sink = TerminalSink(out, pixels="braille", legend=("z left", "q quit"), alt_screen=False)
    sink.show(frame())
    sink.beep({"kind": "flag"}, "BEEP flag left")
    text = out.getvalue()
    assert text.startswith("\x1b[H") and "LEFT 1:00" in text and "♪1 BEEP flag left" in text
    assert "keys: z left" in sink.lines()[-2]


def test_png_sink(tmp_path):
    sink = PngSink(tmp_path / "frames")
    sink.show(frame())
    sink.beep({"kind": "flag"}, "BEEP flag left")
    sink.show(frame(("LEFT 0:59", "RIGHT 1:00")))
    sink.stop()
    d = tmp_path / "frames"
    first = Image.open(d / "frame-000001.png")
    assert first.size == (260, 64) and first.mode == "1"
    assert Image.open(d / "left.png").size == (128, 64)
    log = (d / "frames.log").read_text().splitlines()
    assert log == ["000001 LEFT 1:00 | RIGHT 1:00 | info | msg", "BEEP flag left",
                   "000002 LEFT 0:59 | RIGHT 1:00 | info | msg"]
