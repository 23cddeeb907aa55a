"""Lines of text in a box: the fonts the screens draw words with, Thai included (issue 15). Pure: no
time, no pins; the font files are data.

A line is drawn into a box (width x height px) and its ink never leaves it: `place` chooses the font
and the largest size (up to `max_size`) at which the text's own ink -- Thai: its marks above and below
the letters included -- fits the box's height, and the text its width (down to `min_size`, then cut
with "…"). Issue 27: the height is the text's own, not a worst-case stack's (a tone mark over an
upper vowel over an ascender, a lower vowel and a descender, `THAI_STACK`): sized for that stack, a
15-row line drew every Thai word at 10 px, where Loma's tone marks and upper vowels lose their ink
("ผลการแข่งขัน" read "มลการแขงขน"). The baseline is still set by the reference stack where the
text's ink allows, so the lines of a list sit at one height whatever their letters.

Thai size (issue 27, chosen by looking at every string, tests/ui/test_ui_thai_marks.py): THAI_MIN_PX.
At 15 px Loma draws mai ek (the smallest tone mark) as 2 pixels and keeps the loops that tell ผ from ม
and บ from ว open; at 14 px and below mai ek is a single pixel, at 10-11 px marks vanish. The screens
give a Thai line the rows it needs at that size (ui/screens.py, ui/resultscreens.py).

Fonts: the Thai letters of a line with Thai are drawn in the Thai font and its digits and Latin
letters in Pillow's embedded font (issue 15: at 9-11 px the Thai font's digits blur, an 8 reads as a
B), every run on one baseline; other text in Pillow's embedded font, or with `bold` in the Thai
font's bold face (the headline of the clock screens in English). The Thai font is Loma
(fonts-tlwg 0.7.3, GPL-2+ with the font exception; `gameclock/fonts/LICENSE-Loma.txt`), shipped in the
package so the simulator and the Pi draw the same pixels; $GAMECLOCK_THAI_FONT overrides it, and the
system's fonts-thai-tlwg / Noto Sans Thai are the fall-back when the package's copy is missing.

Layout: Pillow's raqm layout (HarfBuzz) places Thai marks by the font's anchors; without libraqm
(a Pi without libfribidi) the basic layout puts every mark at its default height, a tone mark over an
upper vowel included -- `place` measures the text in the engine it is drawn with, so the line box is
right for either engine (`ENGINE`, tests/ui/test_ui_textline.py checks both).

Cost (issue 27: a frame within 0.3 ms): `place` and `line_image` are cached, so a line drawn again
(the headline, a menu item, a name) is one paste of its cached mask, not a FreeType rendering.

Never a silent "?": a letter no font can draw is drawn as an empty box of the line's height (a tofu,
deliberate) and logged once (`MISSING` keeps them, for tests and the simulator)."""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont, features

log = logging.getLogger("gameclock.ui")

THAI_FONT_ENV = "GAMECLOCK_THAI_FONT"
SHIPPED = {False: "Loma.ttf", True: "Loma-Bold.ttf"}  # gameclock/fonts/, package data
THAI_FONTS = (  # the system's, when the package's copy is missing: Debian's fonts-thai-tlwg, fonts-noto-core
    "/usr/share/fonts/truetype/tlwg/Loma.ttf", "/usr/share/fonts/opentype/tlwg/Loma.otf",
    "/usr/share/fonts/truetype/tlwg/Garuda.ttf", "/usr/share/fonts/opentype/tlwg/Garuda.otf",
    "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansThaiLooped-Regular.ttf",
)
THAI_RANGE = ("\u0e00", "\u0e7f")
THAI_STACK = "ปั๋ผู้ญ"   # tall Thai stacks: a tone over an upper vowel over an ascender; a lower vowel; a descender
LATIN_STACK = "H"           # capitals; the text adds its own accents and descenders (its line only)
LATIN_LOWER = "Hg"          # where a line with lower case puts its baseline: a descender's room below
ELLIPSIS = "…"
THAI_MIN_PX = 15            # issue 27: the smallest Thai the screens draw (see above)
# the Thai combining marks (above and below the letters): the upper vowels U+0E31, U+0E34-0E37, the
# lower vowels U+0E38-0E3A, the tone and other marks U+0E47-0E4E
THAI_MARKS = frozenset("\u0e31" + "".join(map(chr, range(0x0E34, 0x0E3B))) + "".join(map(chr, range(0x0E47, 0x0E4F))))
ENGINE = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
MISSING: set[str] = set()   # letters no font could draw (each logged once)
_THRESHOLD = [0] * 128 + [255] * 128


def clear_caches() -> None:
    """Forget every cached font path, placement and drawn line (a test that changes the fonts found)."""
    for f in (thai_font_path, font_at, has_glyph, place, line_image, ink_rows):
        f.cache_clear()


def has_thai(text: str) -> bool:
    return any(THAI_RANGE[0] <= c <= THAI_RANGE[1] for c in text)


def shipped_font(bold: bool = False) -> str | None:
    """The package's own copy of the Thai font (gameclock/fonts/), None if it is not there."""
    try:
        path = resources.files("gameclock") / "fonts" / SHIPPED[bold]
        return str(path) if path.is_file() else None
    except (ModuleNotFoundError, OSError):
        return None


@cache
def thai_font_path(bold: bool = False) -> str | None:
    """A font file with Thai letters: $GAMECLOCK_THAI_FONT, else the package's (bold: its bold face),
    else the first of THAI_FONTS there is."""
    for path in (os.environ.get(THAI_FONT_ENV, ""), shipped_font(bold), *THAI_FONTS):
        if path and os.path.isfile(path):
            return path
    return None


@lru_cache(maxsize=128)
def font_at(path: str | None, size: int, engine: ImageFont.Layout | None = None) -> ImageFont.FreeTypeFont:
    """`path` at `size` px (None: Pillow's embedded font) laid out by `engine` (default `ENGINE`)."""
    if path is None:
        f = ImageFont.load_default(size=size)
        if not isinstance(f, ImageFont.FreeTypeFont):
            raise RuntimeError("the screens need Pillow >= 10.1 with FreeType (a scalable default font)")
        return f
    return ImageFont.truetype(path, size, layout_engine=ENGINE if engine is None else engine)


@lru_cache(maxsize=4096)
def has_glyph(path: str | None, size: int, ch: str) -> bool:
    """Whether the font draws `ch` (not its "missing" box)."""
    f = font_at(path, size, ImageFont.Layout.BASIC)
    missing = f.getmask("\uffff")
    mask = f.getmask(ch)
    return ch.isspace() or (mask.size, bytes(mask)) != (missing.size, bytes(missing))


@dataclass(frozen=True)
class Placed:
    """A line placed in its box: `runs` drawn one after the other on the baseline `y` of the box from
    `x` (anchor "ls"), each in its font of `fonts` (a Thai line: its Thai in the Thai font, its
    digits and Latin in the built-in one); a None run is a letter no font has, drawn as an empty box
    `box_w` wide. `font` is the line's main font (its size: the line's size)."""
    font: ImageFont.FreeTypeFont
    runs: tuple[str | None, ...]
    x: int
    y: int
    width: int
    box_w: int
    fonts: tuple[ImageFont.FreeTypeFont | None, ...] = ()

    @property
    def text(self) -> str:
        return "".join(r if r is not None else "\ufffd" for r in self.runs)


def font_for(text: str, bold: bool) -> str | None:
    """The font file for `text` (None: Pillow's embedded font)."""
    if has_thai(text) or bold:
        return thai_font_path(bold) or thai_font_path(False)
    return None


Runs = tuple[tuple[str | None, ImageFont.FreeTypeFont | None], ...]


def _runs(path: str | None, size: int, text: str, engine: ImageFont.Layout | None = None) -> Runs:
    """`text` as (run, font) pieces. A line with Thai in the Thai font has its digits and Latin letters
    in the built-in font (issue 15: the Thai font's small digits read badly, an 8 like a B); a letter
    no font has is a (None, None) piece, drawn as an empty box."""
    mixed = path is not None and has_thai(text)
    out: list[tuple[str | None, ImageFont.FreeTypeFont | None]] = []
    cur, cur_latin = "", False

    def flush() -> None:
        if cur:
            out.append((cur, font_at(None if cur_latin else path, size, engine)))

    for ch in text:
        latin = mixed and ch.isascii() and not ch.isspace()
        if mixed and ch.isspace():
            latin = cur_latin  # a space goes with the letters before it
        if not has_glyph(None if latin else path, size, ch):
            if ch not in MISSING:
                MISSING.add(ch)
                log.warning("no font draws %r (U+%04X): drawn as an empty box", ch, ord(ch))
            flush()
            cur = ""
            out.append((None, None))
            continue
        if cur and latin != cur_latin:
            flush()
            cur = ""
        cur += ch
        cur_latin = latin
    flush()
    return tuple(out)


def _extent(runs: Runs, box_w: int) -> tuple[int, int]:
    """(ink width, left overhang) of the runs: a mark may reach left of the origin (ไ in the basic
    layout) or a last letter past its advance, so the ink, not the advance, must fit the box."""
    x, lo, hi = 0, 0, 0
    for r, f in runs:
        if r is None or f is None:
            hi = max(hi, x + box_w)
            x += box_w + 1
            continue
        left, _, right, _ = (int(v) for v in f.getbbox(r, anchor="ls")) if r.strip() else (0, 0, 0, 0)
        lo, hi = min(lo, x + left), max(hi, x + right, x + int(f.getlength(r)))
        x += int(f.getlength(r))
    return hi - lo, -lo


def _width(runs: Runs, box_w: int) -> int:
    return _extent(runs, box_w)[0]


def _bbox(f: ImageFont.FreeTypeFont, text: str) -> tuple[int, int]:
    """(top, bottom) of `text`'s ink from the baseline (top < 0)."""
    if not text.strip():
        return 0, 0
    _, top, _, bottom = f.getbbox(text, anchor="ls")
    return int(top), int(bottom)


def _runs_bbox(runs: Runs) -> tuple[int, int]:
    tops, bottoms = [0], [0]
    for r, f in runs:
        if r is not None and f is not None and r.strip():
            t, b = _bbox(f, r)
            tops.append(t)
            bottoms.append(b)
    return min(tops), max(bottoms)


@lru_cache(maxsize=2048)
def place(text: str, width: int, height: int, *, bold: bool = False, max_size: int = 16, min_size: int = 9,
          align: str = "l", engine: ImageFont.Layout | None = None, centre: bool = False) -> Placed:
    """`text` placed in a `width` x `height` box (align "l", "c" or "r"): its font, the largest size
    <= max_size at which the text's own ink fits the height and the text the width; below `min_size`
    (a Thai line: THAI_MIN_PX) the text is cut with "…" instead. The baseline is where the script's reference stack (Thai:
    THAI_STACK; Latin with lower case: a descender's room) would sit centred in the box, moved only as
    far as the text's own ink needs to stay inside, so the lines of a list share it; `centre` (one
    line alone in its band: the headline) centres the text's own ink instead."""
    path = font_for(text, bold)
    thai = path is not None and has_thai(text)
    ref = THAI_STACK if thai else LATIN_LOWER if any(c.islower() for c in text) and not centre else LATIN_STACK
    if thai:  # issue 27: a Thai line too long is cut rather than shrunk below the size its marks need
        min_size = max(min_size, min(THAI_MIN_PX, max_size))
    fitted: tuple[ImageFont.FreeTypeFont, int] | None = None
    for size in range(max_size, 5, -1):
        runs = _runs(path, size, text, engine)
        tt, tb = _runs_bbox(runs)
        if tb - tt > height:
            continue
        fitted = fitted or (font_at(path, size, engine), size)
        if _width(runs, size // 2) <= width or size <= min_size:
            fitted = (font_at(path, size, engine), size)
            break
    if fitted is None:  # a box too low for any size: the smallest
        fitted = (font_at(path, 6, engine), 6)
    f, size = fitted
    box_w = max(2, size // 2)
    runs = _runs(path, size, text, engine)
    if _width(runs, box_w) > width:
        kept = text
        while kept and _width(_runs(path, size, kept + ELLIPSIS, engine), box_w) > width:
            kept = kept[:-1]
        runs = _runs(path, size, kept.rstrip() + ELLIPSIS, engine) if kept else ()
    w, shift = _extent(runs, box_w)
    x = shift + {"l": 0, "c": (width - w) // 2, "r": width - w}[align]
    tt, tb = _runs_bbox(runs)
    if centre:
        y = -tt + (height - (tb - tt)) // 2
    else:
        rt, rb = _bbox(f, ref)
        y = -rt + (height - (rb - rt)) // 2
    y = max(-tt, min(y, height - tb))  # the text's own ink stays inside the box
    return Placed(f, tuple(r for r, _ in runs), x, y, w, box_w, tuple(rf for _, rf in runs))


@lru_cache(maxsize=512)
def ink_rows(text: str, *, bold: bool = False, max_size: int = 16, **_: Any) -> int:
    """The rows `text`'s own ink needs at `max_size` (its marks above and below included): the height of
    a box that draws it at that size."""
    path = font_for(text, bold)
    top, bottom = _runs_bbox(_runs(path, max_size, text))
    return bottom - top


def draw_placed(draw: ImageDraw.ImageDraw, x0: int, y0: int, p: Placed, height: int, fill: int) -> None:
    """Draw placed line `p` with its box's top-left at (x0, y0) (no clipping: see `draw_line`)."""
    x = x0 + p.x
    for run, f in zip(p.runs, p.fonts or (p.font,) * len(p.runs), strict=True):
        if run is None or f is None:  # the tofu: an empty box of the line's height
            draw.rectangle((x, y0 + 1, x + p.box_w - 1, y0 + height - 2), outline=fill)
            x += p.box_w + 1
            continue
        draw.text((x, y0 + p.y), run, font=f, fill=fill, anchor="ls")
        x += int(f.getlength(run))


def render_placed(p: Placed, width: int, height: int) -> Image.Image:
    """Placed line `p` as a mode "1" mask of exactly its box (grey edges thresholded half way)."""
    canvas = Image.new("L", (max(1, width), max(1, height)), 0)
    draw_placed(ImageDraw.Draw(canvas), 0, 0, p, height, 255)
    return canvas.point(_THRESHOLD).convert("1")


@lru_cache(maxsize=512)
def line_image(text: str, width: int, height: int, **kw: Any) -> Image.Image:
    """The line as a mode "1" mask of exactly the box. Cached (issue 27: a frame within 0.3 ms): shared,
    not to be drawn on."""
    return render_placed(place(text, width, height, **kw), width, height)


def draw_line(img: Image.Image, box: tuple[int, int, int, int], text: str, fill: int, **kw: Any) -> None:
    """Draw `text` in `box` (x0, y0, x1, y1 inclusive) of mode "1" image `img` with `fill`."""
    x0, y0, x1, y1 = box
    mask = line_image(text, x1 - x0 + 1, y1 - y0 + 1, **kw)
    img.paste(fill, (x0, y0), mask)
