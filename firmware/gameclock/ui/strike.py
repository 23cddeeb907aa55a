"""The big digits from cached glyphs and cached parts (a "strike"): the pixels `ImageDraw.text`, a
horizontal squeeze and a threshold give, without FreeType rendering and stroking every glyph again at
every frame (issue 27, the Pi's budget: the digits of a running clock change every second, or tenth).

Glyphs. Pillow draws a line of text in a FreeType font on a mode "L" image as one mask: each glyph
rendered (stroked and filled with `stroke_width`) at its pen position and composited into the mask,
which is then drawn with the ink (out = in + (ink - in) * mask / 255, rounded). Drawing each glyph's own
mask (`getmask2` of the one letter, kept here per font and letter) at its pen position the same way,
one after the other, gives the same bytes, provided the pen positions are the same: whole pixels
(every advance a whole number of pixels at this size) and no kerning between the letters (the advance
of a pair is the sum of theirs). `draw_text` checks both, per font and pair, and otherwise lets Pillow
draw the line itself.

Parts. A running clock's text changes at its end: "44:59", "44:58", ... Each column of the squeezed
image (`Image.resize`, bilinear, width only) depends on a few columns of the drawing, and each of those
on the glyphs whose ink can reach it (every letter the position can hold: a digit, or its own colon).
`digits` cuts the image in two where the columns start to depend on the tens of the last unit (the
seconds' tens, or the tenth's second) and keeps each part by the letters it depends on: "44:" on the
left changes once a minute, ":59" on the right comes round again every minute. A text whose two parts
are known is two pastes; another is drawn whole (glyphs, squeeze, threshold) and its parts kept.
tests/ui/test_ui_strike.py compares all of it with Pillow's own drawing.
"""
from __future__ import annotations

import math
from collections import OrderedDict
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

# the big digits' letters (gameclock.core.display.format_remaining): what is worth a strike
LETTERS = frozenset("0123456789:.-")
DIGITS = "0123456789"
PARTS_KEPT = 512  # parts of digit images kept (a few KB each at most): the least recently used go


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


def draw_digits(text: str, font: ImageFont.FreeTypeFont, size: tuple[int, int], xy: tuple[int, int],
                target: int, stroke_width: int) -> Image.Image:
    """`text` drawn (white, stroked) at `xy` on a black mode "L" canvas of `size`, squeezed to `target`
    px wide (bilinear) if narrower, thresholded half way (128 and above white): mode "1". Shared: not
    to be drawn on."""
    width, height = size
    if not can_strike(font, text):
        return _drawn(text, font, size, xy, target, stroke_width)
    cut = _cut(_shape(text), font, size, xy, target, stroke_width)
    if cut is None:
        return _drawn(text, font, size, xy, target, stroke_width)
    column, left_upto, right_from = cut
    key = (font, size, xy, target, stroke_width, column)
    left_key, right_key = (*key, "l", text[:left_upto]), (*key, "r", text[right_from:])
    left, right = _PARTS.get(left_key), _PARTS.get(right_key)
    if left is None or right is None:
        whole = _drawn(text, font, size, xy, target, stroke_width)
        left, right = whole.crop((0, 0, column, height)), whole.crop((column, 0, target, height))
        _keep(left_key, left)
        _keep(right_key, right)
        return whole
    _PARTS.move_to_end(left_key)
    _PARTS.move_to_end(right_key)
    global parts_used
    parts_used += 1
    out = Image.new("1", (target, height), 0)
    out.paste(left, (0, 0))
    out.paste(right, (column, 0))
    return out


_PARTS: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()
parts_used = 0  # images made from kept parts (tests)


def _keep(key: tuple[object, ...], part: Image.Image) -> None:
    _PARTS[key] = part
    _PARTS.move_to_end(key)
    while len(_PARTS) > PARTS_KEPT:
        _PARTS.popitem(last=False)


def _drawn(text: str, font: ImageFont.FreeTypeFont, size: tuple[int, int], xy: tuple[int, int], target: int,
           stroke_width: int) -> Image.Image:
    """`draw_digits` drawn whole: the glyphs, the squeeze, the threshold."""
    width, height = size
    canvas = Image.new("L", size, 0)
    draw_text(canvas, xy, text, font, stroke_width)
    if target != width:
        canvas = canvas.resize((target, height), Image.Resampling.BILINEAR)
    return canvas.convert("1", dither=Image.Dither.NONE)  # >= 128 white: the half-way threshold, in one step


def _shape(text: str) -> str:
    return "".join("0" if c in DIGITS else c for c in text)


@lru_cache(maxsize=256)
def _cut(shape: str, font: ImageFont.FreeTypeFont, size: tuple[int, int], xy: tuple[int, int], target: int,
         stroke_width: int) -> tuple[int, int, int] | None:
    """Where `draw_digits` cuts a text of this shape: (the first column of the right part, the
    letters the left part depends on: text[:upto], the right part's: text[from:]); None when there is
    no cut worth keeping (too short a text)."""
    n = len(shape)
    if n < 3:
        return None
    width, _ = size
    # the columns of the drawing each position's ink can reach, for every letter it can hold
    reach = []
    x = xy[0]
    for c in shape:
        letters = DIGITS if c == "0" else c
        spans = [(x + dx, x + dx + mask.width) for mask, dx, _, _ in (glyph(font, ch, stroke_width) for ch in letters)]
        reach.append((min(a for a, _ in spans), max(b for _, b in spans)))
        x += glyph(font, c, stroke_width)[3]
    scale = width / target
    support = max(scale, 1.0)  # bilinear: 1 px each side, widened by the squeeze (Pillow's Resample.c)

    def depends(j: int) -> set[int]:
        """The positions output column j depends on (a window one column wider each side)."""
        if target == width:
            lo, hi = j - 1, j + 2
        else:
            centre = (j + 0.5) * scale
            lo, hi = math.floor(centre - support) - 1, math.ceil(centre + support) + 2
        return {i for i, (a, b) in enumerate(reach) if a < hi and b > lo}

    tens = n - 2  # the second-to-last letter: the right part starts where it can matter
    column = next((j for j in range(target) if tens in depends(j) or n - 1 in depends(j)), None)
    if column is None or column == 0:
        return None
    left = set().union(*(depends(j) for j in range(column)))
    right = set().union(*(depends(j) for j in range(column, target)))
    if max(left) >= tens or min(right) == 0:  # a part would change with every text: no gain
        return None
    return column, max(left) + 1, min(right)
