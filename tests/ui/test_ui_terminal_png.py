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
    sink = TerminalSink(out, pixels="braille", legend=("z left", "q quit"), alt_screen=False,
                        size=lambda: (200, 60))
    sink.show(frame())
    sink.beep({"kind": "flag"}, "BEEP flag left")
    text = out.getvalue()
    assert text.startswith("\x1b[H") and "LEFT 1:00" in text and "♪1 BEEP flag left" in text
    assert "keys: z left" in sink.lines()[-2]
    # no newline after the last line: on a terminal's last row it would scroll the picture up
    assert text.endswith("q quit\x1b[K\x1b[J")


LEGEND = ("z left player | m right player | space pause | j/← knob left | k/→ knob right",
          "Enter push | l long push | h hold 3 s (arbiter: unlock the menu of a paused game)",
          "Backspace/b back | q quit")
INFO = ("makruk-45 (Makruk 45:00) game 1 | ready | running: - | moves 0/0 | set-up: level auto, stage "
        "qualifying, language en")


def sized(cols: int, rows: int) -> TerminalSink:
    sink = TerminalSink(io.StringIO(), legend=LEGEND, alt_screen=False, size=lambda: (cols, rows),
                        title="gameclock sim — keys act as the clock's buttons and knob")
    sink.show(SimpleNamespace(left=img_with(), right=img_with(), captions=("LEFT 45:00", "RIGHT 45:00"),
                              info=INFO, message="pairing: R3 T5"))
    return sink


def test_the_largest_layout_the_terminal_holds():
    """Issue 27: 80x24 gets both screens at half resolution (32x8 braille characters each), 134 columns
    full size, 262 half blocks; every line within the width, every line within the height."""
    for (cols, rows), inner in {(80, 24): 32, (120, 40): 32, (134, 30): 64, (200, 60): 64, (262, 60): 128}.items():
        lines = sized(cols, rows).lines()
        assert len(lines) <= rows and max(len(line) for line in lines) <= cols, (cols, rows)
        assert lines[1] == f"┌{'─' * inner}┐  ┌{'─' * inner}┐", (cols, rows)
        assert "too small" not in lines[0]
        text = "\n".join(lines)
        for words in ("LEFT 45:00", "RIGHT 45:00", "| ready |", "moves 0/0", "language en", "pairing: R3 T5",
                      "keys: z left player", "unlock the menu of a paused game", "q quit"):
            assert words in text, (cols, rows, words)


def test_a_terminal_too_small_is_told_the_size_needed():
    lines = sized(60, 16).lines()
    assert lines[0].startswith(" terminal 60x16 too small: the sim needs 71x")
    assert len(lines) <= 16 and max(len(line) for line in lines) <= 60
    need = int(lines[0].split("needs 71x")[1].split()[0])
    assert need <= 24 and len(sized(71, need).lines()) == need and "too small" not in sized(71, need).lines()[0]


def test_half_resolution_keeps_one_pixel_strokes():
    """A 2x2 block is one dot: lit if any pixel is, on a dark screen; dark if any is, on a lit one."""
    from gameclock.sim.terminal import halved

    dark = img_with(*[(x, 20) for x in range(128)])  # a lit line one pixel high
    assert halved(dark).getbbox() == (0, 10, 64, 11)
    lit = Image.new("1", (128, 64), 1)
    for x in range(128):
        lit.putpixel((x, 33), 0)  # a dark line one pixel high on a lit screen
    low = halved(lit)
    assert [low.getpixel((x, 16)) for x in (0, 63)] == [0, 0] and low.getpixel((5, 15)) == 255


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
