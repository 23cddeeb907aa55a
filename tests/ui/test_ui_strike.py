"""The big digits drawn from cached glyphs (ui/strike.py, issue 27's Pi budget) are the very pixels
Pillow's ImageDraw.text draws: every letter and pair of letters of the digits at every size, whole
display texts of every shape, and big_digits against the way it drew them before (kept here)."""
from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from gameclock.ui import screens, strike

STROKE = screens.DIGIT_STROKE
SIZES = range(12, 65)  # every size digit_layout can choose (64 down to 13, 12 the fall-back)
SHAPES = ("0.0", "00.0", "0:00", "00:00", "-0:00", "-00:00", "0:00:00", "-0:00:00")
# the rows the clock screens give the digits: alone, under a headline, above a Thai name (ui/screens.py)
ROWS = (screens.DIGIT_ROWS[1] - screens.DIGIT_ROWS[0] + 1,
        screens.HEAD_DIGIT_ROWS[1] - screens.HEAD_DIGIT_ROWS[0] + 1,
        screens.NAME_ROWS[0] - 3 - screens.DIGIT_ROWS[0] + 1,
        screens.NAME_ROWS[0] - 3 - screens.HEAD_DIGIT_ROWS[0] + 1)


def pillow(text: str, size: int) -> Image.Image:
    """`text` as ImageDraw.text draws it (white, stroked) on a canvas with room around it."""
    f = screens.font(size)
    canvas = Image.new("L", (int(f.getlength(text)) + 4 * STROKE + 2, size * 2), 0)
    ImageDraw.Draw(canvas).text((STROKE, 0), text, font=f, fill=255, stroke_width=STROKE, stroke_fill=255)
    return canvas


def struck(text: str, size: int) -> Image.Image:
    f = screens.font(size)
    canvas = Image.new("L", (int(f.getlength(text)) + 4 * STROKE + 2, size * 2), 0)
    strike.draw_text(canvas, (STROKE, 0), text, f, STROKE)
    return canvas


@pytest.mark.parametrize("size", SIZES)
def test_every_letter_and_pair_is_pillows_own_drawing(size):
    """Neighbouring glyphs overlap where their strokes meet: each pair's blend is checked."""
    f = screens.font(size)
    letters = sorted(strike.LETTERS)
    for a in letters:
        for text in [a] + [a + b for b in letters]:
            assert strike.can_strike(f, text), (size, text)  # this font: whole pixels, no kerning
            assert struck(text, size).tobytes() == pillow(text, size).tobytes(), (size, text)


def test_whole_texts_of_every_shape_at_their_sizes():
    rng = random.Random(27)
    for rows in ROWS:
        for shape in SHAPES:
            size = screens.digit_layout(shape, rows)[0]
            for _ in range(20):
                text = "".join(str(rng.randrange(10)) if c == "0" else c for c in shape)
                assert struck(text, size).tobytes() == pillow(text, size).tobytes(), (rows, text)


def test_other_letters_are_drawn_by_pillow():
    """A letter that has no strike (or an empty text) is left to Pillow: the same pixels anyway."""
    f = screens.font(30)
    for text in ("A1", "1 2", "", "12:3x"):
        assert not strike.can_strike(f, text)
        assert struck(text, 30).tobytes() == pillow(text, 30).tobytes(), text


def old_big_digits(text: str, rows: int) -> Image.Image:
    """big_digits before issue 27: Pillow draws the line, then a threshold table."""
    size, width, height, top, target = screens.digit_layout(screens._shape(text), rows)
    canvas = Image.new("L", (width, height), 0)
    ImageDraw.Draw(canvas).text((STROKE, -top), text, font=screens.font(size), fill=255,
                                stroke_width=STROKE, stroke_fill=255)
    if target != width:
        canvas = canvas.resize((target, height), Image.Resampling.BILINEAR)
    return canvas.point([0] * 128 + [255] * 128).convert("1")


def test_big_digits_are_what_they_were():
    rng = random.Random(14)
    for rows in ROWS:
        for shape in SHAPES:
            for _ in range(10):
                text = "".join(str(rng.randrange(10)) if c == "0" else c for c in shape)
                assert screens.big_digits(text, rows).tobytes() == old_big_digits(text, rows).tobytes(), text


def countdown(start_s: int, n: int, tenths: bool = False) -> list[str]:
    """The texts a clock shows counting down from `start_s` seconds, `n` of them (a second each, or
    a tenth), as gameclock.core.display.format_remaining writes them."""
    from gameclock.core.display import format_remaining

    step = 100_000_000 if tenths else 1_000_000_000
    below = 60_000_000_000 if tenths else 0
    return [format_remaining(start_s * 1_000_000_000 - k * step, below) for k in range(n)]


@pytest.mark.parametrize("rows", ROWS)
def test_the_kept_parts_give_what_the_whole_drawing_gives(rows):
    """Counting down (the right part comes round every minute, the left changes every minute, hours
    too), then the same texts again in another order: every image from kept parts is the old one."""
    texts = (countdown(3 * 3600 + 125, 200) + countdown(45 * 60 + 5, 200) + countdown(10 * 60 + 3, 130)
             + countdown(59, 600, tenths=True))
    rng = random.Random(rows)
    for text in texts + rng.sample(texts, 300):
        assert strike_digits(text, rows).tobytes() == old_big_digits(text, rows).tobytes(), (rows, text)
    assert strike.parts_used > 0  # the parts were used, not only drawn


def strike_digits(text: str, rows: int) -> Image.Image:
    """big_digits without its own cache: what the strike gives for this text."""
    return screens.big_digits.__wrapped__(text, rows)


def test_the_threshold_is_half_way():
    """big_digits thresholds with convert("1") without dithering: 128 and above white, as the table did."""
    grey = Image.frombytes("L", (256, 1), bytes(range(256)))
    assert list(grey.convert("1", dither=Image.Dither.NONE).tobytes()) == [0] * 16 + [255] * 16
