"""Lines of text in a box: the fonts the screens draw words with, Thai included (issue 15). Pure: no
time, no pins; the font files are data.

A line is drawn into a box (width x height px) and its ink never leaves it: `place` chooses the font
and the largest size (up to `max_size`) at which a reference of the tallest stack of the script --
Thai: a tone mark over an upper vowel over a consonant with an ascender, a lower vowel and a
descender (`THAI_STACK`; a rarer stack makes its own line smaller) -- and the text itself fit the
box's height, and the text its width (down to `min_size`, then cut with "…"). The baseline is set by the reference, so every line of a
script sits at the same height whatever its letters.

Fonts: the Thai letters of a line with Thai are drawn in the Thai font and its digits and Latin
letters in Pillow's embedded font (issue 15: at 9-11 px the Thai font's digits blur, an 8 reads as a
B), every run on one baseline; other text in Pillow's embedded font, or with `bold` in the Thai
font's bold face (the headline of the clock screens in English). The Thai font is Loma
(fonts-tlwg 0.7.3, GPL-2+ with the font exception; `gameclock/fonts/LICENSE-Loma.txt`), shipped in the
package so the simulator and the Pi draw the same pixels; $GAMECLOCK_THAI_FONT overrides it, and the
system's fonts-thai-tlwg / Noto Sans Thai are the fall-back when the package's copy is missing.

Layout: Pillow's raqm layout (HarfBuzz) places Thai marks by the font's anchors; without libraqm
(a Pi without libfribidi) the basic layout puts every mark at its default height, a tone mark over an
upper vowel included -- the reference stack holds both, so the line box is right for either engine
(`ENGINE`, tests/ui/test_ui_textline.py checks both).

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
ENGINE = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
MISSING: set[str] = set()   # letters no font could draw (each logged once)
_THRESHOLD = [0] * 128 + [255] * 128


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
    <= max_size at which the script's reference stack and the text fit the height and the text the
    width; below `min_size` the text is cut with "…" instead. Latin with lower case sits on the
    baseline of a line with a descender (the lines of a list alike), unless `centre` (one line alone
    in its band: the headline) centres its ink."""
    path = font_for(text, bold)
    ref = THAI_STACK if path is not None and has_thai(text) else LATIN_STACK
    fitted: tuple[ImageFont.FreeTypeFont, int, int, int] | None = None
    for size in range(max_size, 5, -1):
        f = font_at(path, size, engine)
        runs = _runs(path, size, text, engine)
        rt, rb = _bbox(f, ref)
        tt, tb = _runs_bbox(runs)
        top, bottom = min(rt, tt), max(rb, tb)
        if bottom - top > height:
            continue
        fitted = fitted or (f, size, top, bottom)
        if _width(runs, size // 2) <= width or size <= min_size:
            fitted = (f, size, top, bottom)
            break
    if fitted is None:  # a box too low for any size: the smallest, its top kept
        f = font_at(path, 6, engine)
        fitted = (f, 6, *_bbox(f, ref))
    f, size, top, bottom = fitted
    box_w = max(2, size // 2)
    runs = _runs(path, size, text, engine)
    if _width(runs, box_w) > width:
        kept = text
        while kept and _width(_runs(path, size, kept + ELLIPSIS, engine), box_w) > width:
            kept = kept[:-1]
        runs = _runs(path, size, kept.rstrip() + ELLIPSIS, engine) if kept else ()
    w, shift = _extent(runs, box_w)
    x = shift + {"l": 0, "c": (width - w) // 2, "r": width - w}[align]
    y = -top + (height - (bottom - top)) // 2
    if ref == LATIN_STACK and not centre and any(c.islower() for c in text):
        # lower case: the baseline leaves room for a descender whether this line has one or not, so
        # the items of a list sit on one baseline ("Left score" and "Right score" alike)
        pt, pb = _bbox(f, LATIN_LOWER)
        tt, tb = _runs_bbox(runs)
        y = -pt + (height - (pb - pt)) // 2
        y = max(-tt, min(y, height - tb))  # the text's own ink stays inside the box
    return Placed(f, tuple(r for r, _ in runs), x, y, w, box_w, tuple(rf for _, rf in runs))


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


def line_image(text: str, width: int, height: int, **kw: Any) -> Image.Image:
    """The line as a mode "1" mask of exactly the box (grey edges thresholded half way). Shared: not
    to be drawn on (a headline or a count stays while the digits tick: drawn once, issue 27)."""
    return _placed_image(place(text, width, height, **kw), width, height)


@lru_cache(maxsize=256)
def _placed_image(p: Placed, width: int, height: int) -> Image.Image:
    """`line_image` of a placed line (cached by the placing: its fonts, runs and position)."""
    canvas = Image.new("L", (max(1, width), max(1, height)), 0)
    draw_placed(ImageDraw.Draw(canvas), 0, 0, p, height, 255)
    return canvas.point(_THRESHOLD).convert("1")


def draw_line(img: Image.Image, box: tuple[int, int, int, int], text: str, fill: int, **kw: Any) -> None:
    """Draw `text` in `box` (x0, y0, x1, y1 inclusive) of mode "1" image `img` with `fill`."""
    x0, y0, x1, y1 = box
    mask = line_image(text, x1 - x0 + 1, y1 - y0 + 1, **kw)
    img.paste(fill, (x0, y0), mask)
