"""Every word the clock can show stays inside its line box (issue 15): each catalog entry in English
and Thai, and names with stacked Thai marks, placed by `textline.place` in the boxes the screens use,
drawn on a canvas larger than the box: no ink pixel may fall outside the box (so nothing is cut and
nothing runs into the next line or the digits). Both layout engines: raqm (HarfBuzz, where the marks
are placed by the font) and the basic layout a Pi without libfribidi falls back to."""
from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont, features

from gameclock.ui import screens, textline
from gameclock.ui.text_th import TH

NAMES = ["ผู้เล่น", "กิ่งก้าน", "น้ำ", "ปุ๋ย", "มาลี ใจดี", "ฐิติญาณ ปฏิภาณ", "Srisuk, Somchai", "Nguyễn Văn An"]
TEXTS = sorted(set(TH) | set(TH.values()) | set(NAMES))
# the boxes the screens draw lines in: (width, height, bold)
BOXES = {"headline": (screens.HEAD_W, screens.HEAD_H, True),
         "menu item": (120, screens.MENU_TH[2], False),
         "name": (100, screens.NAME_ROWS[1] - screens.NAME_ROWS[0] + 1, False)}
ENGINES = [ImageFont.Layout.BASIC] + ([ImageFont.Layout.RAQM] if features.check("raqm") else [])
PAD = 24


def ink_outside(text: str, width: int, height: int, bold: bool, engine) -> list[tuple[int, int]]:
    p = textline.place(text, width, height, bold=bold, engine=engine)
    canvas = Image.new("L", (width + 2 * PAD, height + 2 * PAD), 0)
    textline.draw_placed(ImageDraw.Draw(canvas), PAD, PAD, p, height, 255)
    ink = canvas.point([0] * 128 + [255] * 128)
    out = []
    for y in range(ink.height):
        for x in range(ink.width):
            if ink.getpixel((x, y)) and not (PAD <= x < PAD + width and PAD <= y < PAD + height):
                out.append((x - PAD, y - PAD))
    return out


def test_the_shipped_thai_font_is_found_first():
    textline.thai_font_path.cache_clear()
    assert textline.shipped_font() is not None
    assert textline.thai_font_path() == textline.shipped_font() or textline.THAI_FONT_ENV


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: "raqm" if e == ImageFont.Layout.RAQM else "basic")
@pytest.mark.parametrize("box", sorted(BOXES))
def test_no_glyph_leaves_its_line_box(box, engine):
    width, height, bold = BOXES[box]
    bad = {t: pts[:3] for t in TEXTS if (pts := ink_outside(t, width, height, bold, engine))}
    assert not bad, f"ink outside the {box} box ({width}x{height}): {bad}"


def test_thai_marks_are_drawn_not_dropped():
    # ปุ๋ย: a lower vowel and a tone mark; without them the line's ink is lower and narrower in rows
    with_marks = textline.line_image("ปุ๋ย", 60, 17, bold=True)
    bare = textline.line_image("ปย", 60, 17, bold=True)
    top = lambda img: next(y for y in range(img.height) if any(img.getpixel((x, y)) for x in range(img.width)))  # noqa: E731
    assert top(with_marks) < top(bare)


def test_a_letter_no_font_has_is_a_box_and_logged(caplog):
    with caplog.at_level("WARNING", logger="gameclock.ui"):
        p = textline.place("a\u4e00b", 60, 15)
    assert None in p.runs and "\u4e00" in textline.MISSING


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: "raqm" if e == ImageFont.Layout.RAQM else "basic")
def test_a_thai_lines_digits_are_in_the_built_in_font(engine):
    # issue 15: "ขวานับ 7/8" in the headline: the Thai in the Thai font, "7/8" in the built-in font
    # (the Thai font's bold 8 at 11 px reads as a B), both on one baseline inside the box
    p = textline.place("ขวานับ 7/8", screens.HEAD_W, screens.HEAD_H, bold=True, engine=engine)
    assert p.runs == ("ขวานับ ", "7/8")
    thai, digits = p.fonts
    assert thai is not None and digits is not None
    assert thai.path == textline.thai_font_path(True) and digits.getname() == textline.font_at(None, 11).getname()
    assert not ink_outside("ขวานับ 7/8", screens.HEAD_W, screens.HEAD_H, True, engine)
    assert textline.place("RIGHT COUNTS 7/8", screens.HEAD_W, screens.HEAD_H, bold=True).runs == ("RIGHT COUNTS 7/8",)
