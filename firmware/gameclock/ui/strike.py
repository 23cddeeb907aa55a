"""Text from cached glyphs (a "strike"): the pixels Pillow's `ImageDraw.text` draws, without FreeType
rendering and stroking every glyph again at every frame (issue 27, the Pi's budget: the big digits of
a running clock change every second, or every tenth).

Pillow draws a line of text in a FreeType font on a mode "L" image as one mask: each glyph rendered
(stroked and filled with `stroke_width`) at its pen position and composited into the mask, which is
then drawn with the ink (out = in + (ink - in) * mask / 255, rounded). Drawing each glyph's own mask
(`getmask2` of the one letter, kept here per font and letter) at its pen position the same way, one
after the other, gives the same bytes, provided the pen positions are the same: whole pixels (every
advance a whole number of pixels at this size) and no kerning between the letters (the advance of a
pair is the sum of theirs). `draw_text` checks both, per font and pair, and otherwise lets Pillow draw
the line itself; tests/ui/test_ui_strike.py compares the two on every size and pair the big digits use.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

# the big digits' letters (gameclock.core.display.format_remaining): what is worth a strike
LETTERS = frozenset("0123456789:.-")


@lru_cache(maxsize=1024)
def glyph(font: ImageFont.FreeTypeFont, letter: str, stroke_width: int) -> tuple[Image.Image, int, int, int]:
    """(mask, x offset, y offset, advance) of one letter, as `ImageDraw.text` places it at a pen
    position: the mask's top left corner at pen + offset (anchor "la")."""
    core, (dx, dy) = font.getmask2(letter, "L", stroke_width=stroke_width, stroke_filled=True)
    mask = Image.new("L", core.size)
    mask.im = core  # Pillow's own mask, as ImageDraw.text draws it
    return mask, dx, dy, int(font.getlength(letter))


@lru_cache(maxsize=4096)
def _whole_pixels(font: ImageFont.FreeTypeFont, pair: str) -> bool:
    """Whether the letters of `pair` (one or two) are placed at whole pixels with no kerning."""
    lengths = [font.getlength(c) for c in pair]
    return all(n == int(n) for n in lengths) and font.getlength(pair) == sum(lengths)


def can_strike(font: ImageFont.FreeTypeFont, text: str) -> bool:
    """Whether `draw_text` draws `text` from glyphs (else it lets Pillow draw the line)."""
    if not text or not LETTERS.issuperset(text):
        return False
    return all(_whole_pixels(font, text[i:i + 2]) for i in range(len(text)))


def draw_text(canvas: Image.Image, xy: tuple[int, int], text: str, font: ImageFont.FreeTypeFont,
              stroke_width: int = 0) -> None:
    """`ImageDraw.Draw(canvas).text(xy, text, font=font, fill=255, stroke_width=stroke_width,
    stroke_fill=255)` on a mode "L" `canvas`, from cached glyphs when the pixels are the same."""
    if not can_strike(font, text):
        ImageDraw.Draw(canvas).text(xy, text, font=font, fill=255, stroke_width=stroke_width, stroke_fill=255)
        return
    x, y = xy
    for letter in text:
        mask, dx, dy, advance = glyph(font, letter, stroke_width)
        if mask.width and mask.height:
            canvas.paste(255, (x + dx, y + dy), mask)
        x += advance
