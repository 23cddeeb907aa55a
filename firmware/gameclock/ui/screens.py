"""Screens: pure functions from a view (core `view()` dict or `Menu.view()`) to a 128x64 1-bit image.

Clock screen (one per player, `side` 0 left / 1 right), laid out on the controller's 8-row pages so
that what changes often costs few bus bytes (device/oled.py sends only changed pages and columns):

    Running with nothing to tell (issue 15: the largest digits where they matter most):
    page 0     rows  0-7   status line, 5x7 pixel font: the preset's short name.
    pages 1-6  rows 10-54  the big digits: exactly `display` from the view (the core puts tenths in
                           it below the rule file's `tenths_below`), Pillow's embedded font, bold
                           (stroke 1 px), as tall as the rows allow and narrowed to fit 124 px when
                           needed (at most to 75 %). Digits are tabular and placed by their advance,
                           so a changing digit never moves the others.
    With something a player must read at 1 m (`headline`), in the view's language ("lang", `tr`):
    rows 0-16  (pages 0-1) the headline band, bold, 11-16 px (`textline`: Thai in the Thai font, every
                           mark inside the band), most important first, the others joined while they
                           fit: a message or refusal from the loop (framed, MESSAGE_NS), FLAG (the
                           side that flagged: white band; the other: "RIGHT FLAG"), the clock's own
                           trouble (DISK FULL), MOVE NOW (MH-2 `call`, white band), OT -40 (XW-3),
                           "RIGHT COUNTS 5/8" on both displays (MR-4..MR-8, MH-6; "DRAW: COUNT 8/8" at
                           the limit), PAUSE (white band with a pause sign's two bars: never like
                           READY, which is plain), READY, END, "+5:00" (MH-3), the level (XW-8), DOCK.
    rows 19-54             the big digits, as above in fewer rows.
    page 7     rows 56-63  bottom line, 5x7 font: moves made (M12) at the left; at the right the
                           per-mode facts: EXT 2x5 (MH-3: extra times left x their length), P3 /
                           BYO 3 (byo-yomi periods), S2 (stage), G2 (game of a match), TB1 (MH-4
                           tie-break step), CUT 2 TURNS (XW-5), DONE +9 (SU-3 bonus). While paused,
                           the side that resumes has an open bar around it. At ready and while
                           paused, when the view has the pairing's `players`, this side's name takes
                           the left (cut to fit) and the moves join the facts at the right (M0 left
                           out at ready). A name the 5x7 font cannot draw (Thai, accents) gets rows
                           44-63 (NAME_ROWS) in the Thai font at 15 px, marks above and below inside
                           them, the digits above it. The headline's tags that do not fit its band
                           come first at the right (issue 27: the dock's status beside a level at
                           READY, a count while paused).
    While paused the band always starts with PAUSE, white, with the pause sign's bars (issue 27: a count
    hid it, and the bars went whenever the band held more than the word).

In Thai (issue 27: every Thai line at 15 px or more, textline.THAI_MIN_PX, where Loma's marks and loops
survive; tests/ui/test_ui_thai_marks.py checks every word): the headline band is rows 0-20 (TH_HEAD_ROWS,
bold 15-18 px); the bottom line rows 50-63 (TH_BAR_ROWS) in words, not letters -- ตา 12 (the moves),
พิเศษ 2x5 (MH-3), เกม 2, ตัดสิน 1, ตัดเกม 2 ตา, เสร็จ +9, the figures kept -- the moves giving way when
the facts need the line; no 5x7 status line (the digits take its rows when nothing is told); the names
at ready only (paused: the facts).

The running indicator is the whole screen: while this side's clock runs (ROUND: while this
competitor is still solving) the screen is inverted, black on white, which a player and an arbiter
see from across the room. It is also nearly free on the bus: the display driver flips the
controller's polarity with one command instead of redrawing (device/oled.py), so a switch costs a
few bytes, not two screens.

Menu screen: an inverted title bar and four items (Thai, or a page with Thai in it: two of 22 rows at
15 px), the highlighted one inverted.
Images are mode "1", white (1) on black (0), like the OLED. Nothing here reads a clock.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from gameclock.ui import messages, textline
from gameclock.ui.text import tr
from gameclock.ui.textline import THAI_FONT_ENV, THAI_FONTS, thai_font_path  # noqa: F401  (their home: textline)

WIDTH, HEIGHT = 128, 64
SIDES = ("left", "right")
View = Mapping[str, Any]  # a core `view()` dict, with what the loop adds (players, level, dock)
Side = int | str          # 0 or "left", 1 or "right"
STATUS_ROWS = (0, 8)     # inverted area when flagged; text rows 1-7
DIGIT_ROWS = (10, 54)
BAR_ROWS = (56, 63)      # page 7
HEAD_ROWS = (0, 16)      # the headline band (pages 0-1 and row 16): PAUSE, FLAG, OT -10, a count, a message
HEAD_DIGIT_ROWS = (19, 54)  # the digits under a headline
NAME_ROWS = (44, 63)     # a name the 5x7 font cannot draw (Thai): its own 20 rows at 15 px, the digits above them
TH_HEAD_ROWS = (0, 20)   # issue 27: the Thai headline band, every headline word at 15 px bold with its marks
TH_HEAD_MAX_PX = 18
TH_BAR_ROWS = (50, 63)   # issue 27: the Thai bottom line (ตา 12, พิเศษ 2x5: words with few marks, 15 px)
TH_DIGIT_TOP = 2         # a Thai screen with no headline: no 5x7 status line, the digits from row 2
HEAD_MAX_PX = 16         # the headline's largest font size; it shrinks to fit 124 px, not below HEAD_MIN_PX
HEAD_MIN_PX = 11
MESSAGE_NS = 4_000_000_000  # a message or a refusal stays on the displays this long (the loop times it)
DIGIT_MAX_W = WIDTH - 4  # px
DIGIT_MIN_SQUEEZE = 0.75
DIGIT_STROKE = 1         # px added around every stroke: bold digits carry further
SMALL = 11               # px, the menu's font
MENU_ROWS_VISIBLE = 4
MENU_ITEM_H = 13

# ------------------------------------------------------------------------------------------ 5x7 font
# A classic 5x7 dot-matrix font (HD44780-style), 6 px per character: crisp at 7 px where a scalable
# font is mush, white on black and black on white alike. Lowercase letters are drawn as capitals,
# except x (a small times sign: 2x5). Unknown characters are blanks.
_GLYPHS = {
    "0": "01110 10001 10011 10101 11001 10001 01110", "1": "00100 01100 00100 00100 00100 00100 01110",
    "2": "01110 10001 00001 00010 00100 01000 11111", "3": "11111 00010 00100 00010 00001 10001 01110",
    "4": "00010 00110 01010 10010 11111 00010 00010", "5": "11111 10000 11110 00001 00001 10001 01110",
    "6": "00110 01000 10000 11110 10001 10001 01110", "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110", "9": "01110 10001 10001 01111 00001 00010 01100",
    "A": "01110 10001 10001 10001 11111 10001 10001", "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110", "D": "11100 10010 10001 10001 10001 10010 11100",
    "E": "11111 10000 10000 11110 10000 10000 11111", "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111", "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "01110 00100 00100 00100 00100 00100 01110", "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001", "L": "10000 10000 10000 10000 10000 10000 11111",
    "M": "10001 11011 10101 10101 10001 10001 10001", "N": "10001 10001 11001 10101 10011 10001 10001",
    "O": "01110 10001 10001 10001 10001 10001 01110", "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101", "R": "11110 10001 10001 11110 10100 10010 10001",
    "S": "01111 10000 10000 01110 00001 00001 11110", "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110", "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010", "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 10001 01010 00100 00100 00100", "Z": "11111 00001 00010 00100 01000 10000 11111",
    " ": "00000 00000 00000 00000 00000 00000 00000", "-": "00000 00000 00000 11111 00000 00000 00000",
    "+": "00000 00100 00100 11111 00100 00100 00000", ":": "00000 01100 01100 00000 01100 01100 00000",
    ".": "00000 00000 00000 00000 00000 01100 01100", "/": "00000 00001 00010 00100 01000 10000 00000",
    "x": "00000 00000 10001 01010 00100 01010 10001", "(": "00010 00100 01000 01000 01000 00100 00010",
    ")": "01000 00100 00010 00010 00010 00100 01000", "%": "11000 11001 00010 00100 01000 10011 00011",
    "=": "00000 00000 11111 00000 11111 00000 00000", "!": "00100 00100 00100 00100 00100 00000 00100",
    "?": "01110 10001 00001 00010 00100 00000 00100", ">": "01000 00100 00010 00001 00010 00100 01000",
    "<": "00010 00100 01000 10000 01000 00100 00010", "#": "01010 01010 11111 01010 11111 01010 01010",
}
TINY_ADVANCE = 6  # px per character (5 + 1 space)
TINY_H = 7


@cache
def _glyph(ch: str) -> Image.Image:
    """One 5x7 character as a mode "1" mask."""
    img = Image.new("1", (5, TINY_H), 0)
    for y, bits in enumerate(_GLYPHS.get(ch, _GLYPHS[" "]).split()):
        for x, b in enumerate(bits):
            if b == "1":
                img.putpixel((x, y), 1)
    return img


def tiny_text(text: str) -> str:
    """`text` as the 5x7 font draws it (capitals, x kept)."""
    return "".join(c if c == "x" else c.upper() for c in text)


def tiny_width(text: str) -> int:
    """Width in px of `text` in the 5x7 font."""
    return max(0, len(text) * TINY_ADVANCE - 1)


def draw_tiny(img: Image.Image, x: int, y: int, text: str, fill: int, anchor: str = "l") -> None:
    """Draw `text` in the 5x7 font with its top row at `y`; x is its left edge (anchor "l") or its
    right edge (anchor "r")."""
    text = tiny_text(text)
    if anchor == "r":
        x = x - tiny_width(text) + 1
    for i, ch in enumerate(text):
        img.paste(fill, (x + i * TINY_ADVANCE, y), _glyph(ch))


def _fit_tiny(text: str, width: int) -> str:
    """`text` cut to `width` px of the 5x7 font."""
    return text[:max(0, (width + 1) // TINY_ADVANCE)]


# ------------------------------------------------------------------------------------------ names
NAME_MIN_W = 5 * TINY_ADVANCE - 1  # the facts at the right leave a name at least 5 characters
_NAME_GLYPHS = {  # names only ("Surname, Given", O'Brien): other 5x7 texts keep these blank
    ",": "00000 00000 00000 00000 01100 00100 01000", "'": "01100 00100 01000 00000 00000 00000 00000",
}


@cache
def _name_glyph(ch: str) -> Image.Image:
    if ch not in _NAME_GLYPHS:
        return _glyph(ch)
    img = Image.new("1", (5, TINY_H), 0)
    for y, bits in enumerate(_NAME_GLYPHS[ch].split()):
        for x, b in enumerate(bits):
            if b == "1":
                img.putpixel((x, y), 1)
    return img
def text_font(text: str, size: int) -> tuple[ImageFont.FreeTypeFont, str]:
    """(font, text) to draw `text` at `size` px: the built-in font, or the Thai font for Thai letters
    (ui/textline.py; a letter no font has stays in the text: `textline` draws it as a box)."""
    path = textline.font_for(text, False)
    return textline.font_at(path, size), text


def shown_name(view: View, side: Side) -> str:
    """This side's name from the view's `players` on the ready and paused screens ("" otherwise)."""
    if view.get("state") not in ("ready", "paused"):
        return ""
    players = view.get("players") or {}
    return " ".join(str(players.get(SIDES[_side_index(side)]) or "").split())


def draw_name(img: Image.Image, x: int, y: int, text: str, width: int, fill: int, above: int = 0) -> None:
    """A player's name in at most `width` px from (x, y) (the top row of the 5x7 line): in the 5x7
    font (capitals) when it has every letter, else in a scalable font (ui/textline.py: Thai in the Thai
    font) as large as fits the line's 7 rows and `above` more rows over it, marks above and below
    inside that box."""
    tiny = tiny_text(text)
    if all(c in _GLYPHS or c in _NAME_GLYPHS for c in tiny):
        for i, ch in enumerate(_fit_tiny(tiny, width)):
            img.paste(fill, (x + i * TINY_ADVANCE, y), _name_glyph(ch))
        return
    rows = TINY_H + above
    textline.draw_line(img, (x, y - above, x + width - 1, y + TINY_H - 1), text, fill, max_size=rows + 2,
                       min_size=6)


# ------------------------------------------------------------------------------------------ big digits
@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's embedded font (Pillow >= 10.1) at `size` px."""
    f = ImageFont.load_default(size=size)
    if not isinstance(f, ImageFont.FreeTypeFont):  # Pillow built without FreeType: a fixed-size bitmap
        raise RuntimeError("the screens need Pillow >= 10.1 with FreeType (a scalable default font)")
    return f


def _shape(text: str) -> str:
    """The text with every digit as 0: digits are tabular, so the layout depends on this only."""
    return "".join("0" if c.isdigit() else c for c in text)


@lru_cache(maxsize=256)
def digit_layout(shape: str, rows: int = DIGIT_ROWS[1] - DIGIT_ROWS[0] + 1) -> tuple[int, int, int, int, int]:
    """(font size, canvas width, canvas height, top offset, target width) for a display text of
    this shape: the largest size whose digit height fits `rows` (DIGIT_ROWS, or the headline layout's
    HEAD_DIGIT_ROWS) and whose advance width fits DIGIT_MAX_W after narrowing to no less than
    DIGIT_MIN_SQUEEZE."""
    s = DIGIT_STROKE
    for size in range(64, 12, -1):
        f = font(size)
        _, top, _, bottom = (int(v) for v in f.getbbox("0", stroke_width=s))  # whole px at these sizes
        height = bottom - top
        width = int(round(f.getlength(shape))) + 2 * s
        if height > rows or width * DIGIT_MIN_SQUEEZE > DIGIT_MAX_W:
            continue
        return size, width, height, top, min(width, DIGIT_MAX_W)
    f = font(12)
    _, top, _, bottom = (int(v) for v in f.getbbox("0", stroke_width=s))
    return 12, int(f.getlength(shape)) + 2 * s, bottom - top, top, DIGIT_MAX_W


_THRESHOLD = [0] * 128 + [255] * 128  # grey -> black / white, half way


def inverted(img: Image.Image) -> Image.Image:
    """A mode "1" image with every pixel flipped (on its packed bits: drawing with fill=1 stores 1,
    not 255, which Pillow's own invert would turn into 254, still white)."""
    raw = img.tobytes()
    flipped = (int.from_bytes(raw, "big") ^ ((1 << (8 * len(raw))) - 1)).to_bytes(len(raw), "big")
    return Image.frombytes("1", img.size, flipped)


def digit_font_size(text: str) -> int:
    """The font size the big digits of `text` are drawn at."""
    return digit_layout(_shape(text))[0]


@lru_cache(maxsize=8)
def big_digits(text: str, rows: int = DIGIT_ROWS[1] - DIGIT_ROWS[0] + 1) -> Image.Image:
    """`text` in big bold digits, mode "1", at most DIGIT_MAX_W wide and `rows` high. Shared: not to
    be drawn on. Cached because a press redraws both screens with the digits they already show
    (FreeType's stroked text is ~half of a screen's render: issue 14's press-to-bus)."""
    size, width, height, top, target = digit_layout(_shape(text), rows)
    canvas = Image.new("L", (width, height), 0)
    ImageDraw.Draw(canvas).text((DIGIT_STROKE, -top), text, font=font(size), fill=255,
                                stroke_width=DIGIT_STROKE, stroke_fill=255)
    if target != width:
        canvas = canvas.resize((target, height), Image.Resampling.BILINEAR)
    return canvas.point(_THRESHOLD).convert("1")


# ------------------------------------------------------------------------------------------ texts
def _side_index(side: Side) -> int:
    if side in (0, 1):
        return int(side)
    return SIDES.index(side)


def _mmss(ms: int) -> str:
    s = max(0, ms) // 1000
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _minutes(ms: int) -> str:
    """A duration as whole minutes ("5") when it is one, else M:SS."""
    return str(ms // 60_000) if ms % 60_000 == 0 and ms > 0 else _mmss(ms)


def count_text(view: View) -> str:
    """The count under way (MR-4..MR-8, MH-6) as both displays show it: "COUNT 5/8", and at its limit
    "COUNT 8/8 DRAW"; "" when nothing is counted."""
    counting = view.get("counting")
    if not counting:
        return ""
    limit = counting.get("limit")
    text = f"COUNT {counting.get('count', 0)}" + (f"/{limit}" if limit else "")
    return text + " DRAW" if counting.get("reached") else text


def extension_text(s: Mapping[str, Any], lang: str | None = None) -> str:
    """MH-3 extra time left: "EXT 2x5" (two of 5:00 left), "EXT 0" when none is left. Before the
    first request: every option offered ("EXT 2x5/1x10"), or the only one. In Thai "พิเศษ 2x5"."""
    left = s.get("extensions_left", 0)
    option = s.get("extension_option")
    offered = s.get("extension_options") or []
    if not left:
        figures = "0"
    elif option:
        length = option.split("x", 1)[1]
        m, _, sec = length.partition(":")
        figures = f"{left}x{m}" if sec == "00" else f"{left}x{length}"
    elif len(offered) > 1:  # MH-3: the first request chooses, e.g. "EXT 2x5/1x10"
        figures = "/".join(o.removesuffix(":00") for o in offered)
    else:
        figures = f"{left}x{_minutes(s.get('extra_ms_left', 0) // left)}"
    return tr("EXT {n}", lang).format(n=figures)


def bottom_text(view: View, side: Side, lang: str | None = None) -> tuple[str, str]:
    """(left, right) texts of the bottom line, in `lang` (issue 27: Thai words, not M12 and EXT; the
    figures the same)."""
    name = SIDES[_side_index(side)]
    s = view["sides"][name]

    def say(template: str, **figures: Any) -> str:
        return tr(template, lang).format(**figures)

    left = say("M{n}", n=s.get("moves", 0))
    right: list[str] = []
    mode = view.get("mode")
    if mode == "per_move":
        right.append(extension_text(s, lang))
    elif mode == "round":
        left = say("G{n}", n=view.get("game", 1))
        if s.get("finished"):
            right.append(say("DONE +{n}", n=s.get("bonus_points", 0)))
    elif mode == "gamecut" and view.get("cut", {}).get("called"):
        turns = view["cut"].get("turns_left")
        right.append(say("CUT {n} TURNS", n=turns[name]) if turns else tr("CUT", lang))
    if "periods_left" in s:
        right.append(say("BYO {n}" if s.get("in_byoyomi") else "P{n}", n=s["periods_left"]))
    if "stage" in s:
        right.append(say("S{n}", n=s["stage"]))
    if view.get("game", 1) > 1 and mode != "round":
        right.append(say("G{n}", n=view["game"]))
    if view.get("tiebreak"):  # MH-4: an extra game after a tied match, by its step
        right.append(say("TB{n}", n=view["tiebreak"]))
    return left, "  ".join(right)


def game_tag(game: int, tiebreak: int, lang: str | None = None) -> str:
    """" G2", " G5 TB1" (MH-4: the game of the match and the tie-break step), "" for game 1; in Thai
    " เกม 2 ตัดสิน 1"."""
    return ((" " + tr("G{n}", lang).format(n=game) if game > 1 else "")
            + (" " + tr("TB{n}", lang).format(n=tiebreak) if tiebreak else ""))


def is_running(view: View, side: Side) -> bool:
    """Whether this side's indicator is lit."""
    name = SIDES[_side_index(side)]
    if view["state"] != "running":
        return False
    if view.get("mode") == "round":
        s = view["sides"][name]
        return not s.get("finished") and not s.get("flagged")
    return view.get("running") == name


def resumes(view: View, side: Side) -> bool:
    """Whether this side's clock runs when a paused game resumes."""
    name = SIDES[_side_index(side)]
    if view["state"] != "paused":
        return False
    if view.get("mode") == "round":
        s = view["sides"][name]
        return not s.get("finished") and not s.get("flagged")
    return view.get("running") == name


# ------------------------------------------------------------------------------------------ screens
def headline_tags(view: View, side: Side) -> list[tuple[str, str]]:
    """The headline's tags, (text, style), the most important first, in the view's language. While
    paused, PAUSE comes first whatever else there is (issue 27: it was hidden behind a count)."""
    lang = view.get("lang")
    name = SIDES[_side_index(side)]
    s = view["sides"][name]
    state = view["state"]
    tags: list[tuple[str, str]] = []
    if state == "paused":
        tags.append((tr("PAUSE", lang), "invert"))
    if view.get("message"):  # the loop's message or refusal, for MESSAGE_NS (already in `lang`)
        tags.append((str(view["message"]), "box"))
    if s.get("flagged"):  # the first flag: the flag stops both clocks, so this is the side that flagged
        tags.append((tr("FLAG", lang), "invert"))
    elif state in ("flagged",):
        other = next((n for n in SIDES if view["sides"][n].get("flagged")), None)
        if other:
            tags.append((tr(f"{other.upper()} FLAG", lang), "plain"))
    if view.get("notice"):  # the clock's own trouble (DISK FULL, SETTINGS RESET, ...)
        tags.append((tr(str(view["notice"]), lang), "plain"))
    if s.get("overtime_ms", 0) > 0 and view.get("mode") == "per_move":
        tags.append((tr("MOVE NOW", lang), "invert"))  # MH-2 `call` (seed 004): the arbiter orders the move
    elif s.get("overtime_ms", 0) > 0:  # XW-3: negative time and its penalty points
        pts = s.get("penalty_points")
        tags.append((f"{tr('OT', lang)} -{pts}" if pts else tr("OT", lang), "plain"))
    count = count_headline(view)
    if count:
        tags.append((count, "plain"))
    if state == "ready":
        tags.append((tr("READY", lang), "plain"))
    elif state in ("finished", "flagged") and not s.get("flagged") and not tags:
        tags.append((tr("END", lang), "plain"))
    extra = (view.get("extra") or {}).get(name)
    if extra:  # MH-3 (issue 15): the extra time this side was given in this move, "+5:00"
        tags.append((extra, "plain"))
    if state in ("ready", "paused") and view.get("level"):  # XW-8: the game's level (the loop adds it)
        tags.append((tr(str(view["level"]), lang), "plain"))
    setup = view.get("setup") if state == "ready" else None
    stage = STAGE_WORDS.get(str(setup.get("stage"))) if setup else None
    if stage:  # issue 15: the set-up's stage when not the usual qualifying game, read before the first press
        tags.append((tr(stage, lang), "plain"))
    if view.get("dock"):  # the loop adds it only while no clock runs (docking, ARCHITECTURE.md)
        tags.append((messages.dock_words(str(view["dock"]), lang), "plain"))
    return tags


def headline_parts(view: View, side: Side) -> tuple[str, str, str] | None:
    """(text, style, overflow) of the headline band, None when there is nothing a player must read at
    a glance (a clock simply running). style: "invert" (white band, black letters: FLAG, PAUSE, MOVE
    NOW), "box" (a message or refusal from the loop, framed) or "plain". The first tag and the others
    that join it on one line at the band's smallest size; `overflow`: the tags that do not fit, for the
    bottom line (issue 27: the dock's status beside a level at READY, a count while paused)."""
    tags = headline_tags(view, side)
    if not tags:
        return None
    lang = view.get("lang")
    text, style = tags[0]
    rest = [t for t, _ in tags[1:]]
    paused = style == "invert" and view.get("state") == "paused"
    setup = view.get("setup") if view.get("state") == "ready" else None
    stage = tr(STAGE_WORDS.get(str(setup.get("stage")), ""), lang) if setup else ""
    if stage and text == tr("READY", lang):
        level = rest[0] if rest and rest[0] != stage else ""  # XW-8's level comes before the stage
        if not _fits("  ".join(t for t in (text, level, stage) if t)):
            # READY, the level and the stage do not fit one line: the set-up is what must be read now (the
            # full time on a plain screen says ready): the level and the stage, or the stage alone and the
            # level on the bottom line
            others = [t for t in rest if t not in (level, stage)]
            if level and _fits(f"{level}  {stage}"):
                text, rest = f"{level}  {stage}", others
            else:
                text, rest = stage, [t for t in (level, *others) if t]
    kept = [text]
    for more in rest:
        if len(kept) == len(rest) + 1 or not _fits("  ".join([*kept, more]), paused):
            break
        kept.append(more)
    overflow = [t for t in rest if t not in kept]
    return "  ".join(kept), style, "  ".join(overflow)


def headline(view: View, side: Side) -> tuple[str, str] | None:
    """(text, style) of the headline band (`headline_parts` without what goes to the bottom line)."""
    parts = headline_parts(view, side)
    return None if parts is None else (parts[0], parts[1])


def head_box(text: str, paused: bool = False) -> tuple[int, int, dict[str, Any]]:
    """(width, height, `textline.place` arguments) of the headline's text: English bold 11-16 px in
    HEAD_H rows; Thai (issue 27) bold, at least THAI_MIN_PX, in TH_HEAD_H rows -- every headline word
    with its marks above and below at 15 px. While paused, between the pause bars."""
    width = PAUSED_W if paused else HEAD_W
    if textline.has_thai(text):
        return width, TH_HEAD_H, {"bold": True, "max_size": TH_HEAD_MAX_PX, "align": "c", "centre": True}
    return width, HEAD_H, {"bold": True, "max_size": HEAD_MAX_PX, "min_size": HEAD_MIN_PX, "align": "c",
                           "centre": True}


def _fits(text: str, paused: bool = False) -> bool:
    """Whether the headline `text` fits its band whole at the band's smallest size (not cut)."""
    w, h, kw = head_box(text, paused)
    p = textline.place(text, w, h, **kw)
    floor = textline.THAI_MIN_PX if textline.has_thai(text) else HEAD_MIN_PX
    return p.text == text and p.font.size >= floor


HEAD_W = WIDTH - 4
PAUSED_W = WIDTH - 2 * 15  # between the pause bars (`_pause_bars`)
STAGE_WORDS = {"last": "LAST QUALIFIER", "final": "FINAL"}  # XW-8's stages other than "qualifying"
HEAD_H = HEAD_ROWS[1] - HEAD_ROWS[0] + 1 - 2  # a row above and below the letters: inside a frame too
TH_HEAD_H = TH_HEAD_ROWS[1] - TH_HEAD_ROWS[0] + 1 - 2


def count_headline(view: View) -> str:
    """The count under way as the headline says it, with the counting side (MR-4..MR-8, MH-6):
    "RIGHT COUNTS 5/8" on both displays; at its limit "DRAW: COUNT 8/8"."""
    counting = view.get("counting")
    if not counting:
        return ""
    lang = view.get("lang")
    limit = counting.get("limit")
    n = f"{counting.get('count', 0)}" + (f"/{limit}" if limit else "")
    if counting.get("reached"):
        return f"{tr('DRAW: COUNT', lang)} {n}"
    return f"{tr(str(counting.get('side', '')).upper() + ' COUNTS', lang)} {n}"


def head_rows(text: str) -> tuple[int, int]:
    """The headline band's rows for `text`: HEAD_ROWS, or TH_HEAD_ROWS for a line with Thai."""
    return TH_HEAD_ROWS if textline.has_thai(text) else HEAD_ROWS


def draw_headline(img: Image.Image, text: str, style: str, paused: bool = False) -> None:
    """The headline band (`head_rows`): bold letters as large as fit; "invert": a white band, "box": a
    frame; `paused`: the pause sign's two bars at its ends (drawn, not a letter) and the text between."""
    draw = ImageDraw.Draw(img)
    top, bottom = head_rows(text)
    ink = 1
    if style == "invert":
        draw.rectangle((0, top, WIDTH - 1, bottom), fill=1)
        ink = 0
    elif style == "box":
        draw.rectangle((0, top, WIDTH - 1, bottom), outline=1)
    w, h, kw = head_box(text, paused)
    x0 = (WIDTH - w) // 2
    textline.draw_line(img, (x0, top + 1, x0 + w - 1, top + h), text, ink, **kw)
    if paused:
        _pause_bars(img, top, bottom)


def _pause_bars(img: Image.Image, top: int = HEAD_ROWS[0], bottom: int = HEAD_ROWS[1]) -> None:
    """The pause sign (two bars) at both ends of the headline band: PAUSE seen even before it is read."""
    draw = ImageDraw.Draw(img)
    for x in (3, WIDTH - 12):
        draw.rectangle((x, top + 3, x + 2, bottom - 3), fill=0)
        draw.rectangle((x + 6, top + 3, x + 8, bottom - 3), fill=0)


def render(view: View, side: Side) -> Image.Image:
    """One player's clock screen for `side` (0/"left" or 1/"right")."""
    s = view["sides"][SIDES[_side_index(side)]]
    lang = view.get("lang")
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)

    parts = headline_parts(view, side)
    overflow = parts[2] if parts else ""
    if parts is None:  # running, nothing to tell: the largest digits (English: the 5x7 status line above)
        digit_top = DIGIT_ROWS[0] if lang != "th" else TH_DIGIT_TOP
        label = str(view.get("preset", ""))
        if label and lang != "th":  # issue 27: no Latin abbreviation on a Thai screen, the digits instead
            draw_tiny(img, 1, 1, _fit_tiny(tiny_text(label), WIDTH - 2), 1)
    else:
        text, style, _ = parts
        draw_headline(img, text, style, paused=style == "invert" and view.get("state") == "paused")
        digit_top = head_rows(text)[1] + 3

    # the bottom line (page 7): the moves at the left, the facts at the right (what the headline had
    # no room for first); the name at ready and paused. Thai (or a name the 5x7 font cannot draw): a
    # band of the Thai font's rows instead (issue 27)
    left, right = bottom_text(view, side, lang)
    right = "  ".join(t for t in (overflow, right) if t)
    shown = shown_name(view, side)
    if lang == "th" and shown and view.get("state") != "ready":
        shown = ""  # paused: the facts; the names at ready (fewer words where Thai needs the rows)
    if shown:  # the pairing's name at the left; the moves join the facts at the right (M0 left out)
        right = "  ".join(t for t in (left if s.get("moves", 0) else "", right) if t)
        left = ""
    band = bottom_rows(lang, shown, right)
    bar = band[0] - 1 if band != BAR_ROWS else BAR_ROWS[0]
    if resumes(view, side):  # paused: an open bar over the side that resumes
        draw.line((0, bar, WIDTH - 1, bar), fill=1)
        draw.line((0, bar, 0, BAR_ROWS[1]), fill=1)
        draw.line((WIDTH - 1, bar, WIDTH - 1, BAR_ROWS[1]), fill=1)
    digit_bottom = band[0] - 3 if band != BAR_ROWS else DIGIT_ROWS[1]

    # big digits
    rows = digit_bottom - digit_top + 1
    digits = big_digits(s.get("display", ""), rows)
    img.paste(digits, ((WIDTH - digits.width) // 2, digit_top + (rows - digits.height) // 2))

    if band == BAR_ROWS:  # the 5x7 line
        y = BAR_ROWS[1] - TINY_H + 1
        if shown:
            right = _fit_tiny(tiny_text(right), WIDTH - 13 - NAME_MIN_W) if right else ""
            draw_name(img, 3, y, shown, WIDTH - 7 - (tiny_width(right) + 6 if right else 0), 1)
        right = _fit_tiny(tiny_text(right), WIDTH - 4 - tiny_width(left) - 8) if right else ""
        draw_tiny(img, 3, y, left, 1)
        if right:
            draw_tiny(img, WIDTH - 4, y, right, 1, anchor="r")
    else:  # the band in the Thai font: the name or the moves at the left, the facts at the right
        start, h, room = shown or left, band[1] - band[0] + 1, WIDTH - 7
        right_w = 0
        if right:  # the facts (and what the headline had no room for) first: their whole width while the
            # name keeps NAME_MIN_W (a clock docked at the organiser's desk: its status before the next
            # pairing's names); the moves give way to them entirely
            start_w = textline.place(start, room, h, **BAND_KW).width if start else -6
            whole = textline.place(right, room, h, **BAND_KW).width
            if not shown and start_w + 6 + whole > room:
                start, start_w = "", -6
            right_room = min(whole, room - 6 - min(start_w, NAME_MIN_W)) if start else room
            right_w = textline.place(right, right_room, h, **BAND_KW, align="r").width
            textline.draw_line(img, (WIDTH - 4 - right_room, band[0], WIDTH - 5, band[1]), right, 1, **BAND_KW,
                               align="r")
        if start:
            textline.draw_line(img, (3, band[0], 3 + room - (right_w + 6 if right else 0) - 1, band[1]), start, 1,
                               **BAND_KW)
    if is_running(view, side):  # the running indicator: the whole screen inverted
        img = inverted(img)
    return img


BAND_KW: dict[str, Any] = {"max_size": textline.THAI_MIN_PX}  # the Thai bottom band's words and names


def bottom_rows(lang: str | None, name: str, facts: str) -> tuple[int, int]:
    """The bottom line's rows: BAR_ROWS (page 7, the 5x7 font), or in Thai (or with a name or a fact the
    5x7 font cannot draw) TH_BAR_ROWS, or NAME_ROWS for a name in the Thai font (issue 27: 15 px, its
    marks above and below inside)."""
    tiny_name = not name or all(c in _GLYPHS or c in _NAME_GLYPHS for c in tiny_text(name))
    if not tiny_name:
        return NAME_ROWS
    if lang == "th" or textline.has_thai(facts):
        return NAME_ROWS if name else TH_BAR_ROWS
    return BAR_ROWS


def _text_w(text: str, size: int, f: ImageFont.FreeTypeFont | None = None) -> int:
    return int((f or font(size)).getlength(text))


def _fit(text: str, size: int, width: int, f: ImageFont.FreeTypeFont | None = None) -> str:
    """`text`, cut with '…' until it fits `width` px (in font `f`, else the built-in one)."""
    if _text_w(text, size, f) <= width:
        return text
    while text and _text_w(text + "…", size, f) > width:
        text = text[:-1]
    return text + "…"


MENU_TH = (18, 2, 22)  # Thai: title rows, items shown, rows per item (issue 27: 15 px with every mark above and below)
MENU_TH_TITLE: dict[str, Any] = {"bold": True, "max_size": 16, "centre": True}
MENU_TH_ITEM: dict[str, Any] = {"max_size": textline.THAI_MIN_PX}


def menu_geometry(lang: str | None, items: Sequence[str] = ()) -> tuple[int, int, int]:
    """(title bar rows, items shown, rows per item) of the menu screen in `lang`. An English page with Thai
    in any item (an event's or a player's name from the organiser's PC, issue 26) gets the Thai items' rows
    under its own title bar. Issue 27: a Thai item is drawn at 15 px (textline.THAI_MIN_PX) with the rows
    its tallest words need (ขวาถูกทั้งหมด: a tone over an upper vowel and a lower vowel, 20 rows), so a
    Thai page shows two items under a title of 18 rows; sized for three, its marks shrank to nothing."""
    if lang == "th":
        return MENU_TH
    if any(textline.has_thai(item) for item in items):
        return 11, MENU_TH[1], MENU_TH[2]
    return 11, MENU_ROWS_VISIBLE, MENU_ITEM_H


def render_menu(menu_view: Mapping[str, Any]) -> Image.Image:
    """The menu screen of `Menu.view()`: {"title", "items", "index", "lang"} (the texts already in
    that language). English: an 11-row title in the 5x7 font and four items of 13 rows (two of 22 when an
    item has Thai: a name from the organiser's PC); Thai: an 18-row title and two items of 22 rows in the
    Thai font at 15 px, every mark inside its row."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    items = menu_view.get("items", [])
    index = menu_view.get("index", 0)
    title_h, visible, item_h = menu_geometry(menu_view.get("lang"), items)
    draw.rectangle((0, 0, WIDTH - 1, title_h - 1), fill=1)
    counter = f"{index + 1}/{len(items)}" if items else ""
    if counter:
        draw_tiny(img, WIDTH - 3, (title_h - TINY_H) // 2, counter, 0, anchor="r")
    title = str(menu_view.get("title", ""))
    room = WIDTH - 4 - (tiny_width(counter) + 4 if counter else 0)
    if all(c in _GLYPHS for c in tiny_text(title)) and title_h == 11:
        draw_tiny(img, 2, 2, _fit_tiny(tiny_text(title), room), 0)
    else:
        textline.draw_line(img, (2, 0, 2 + room - 1, title_h - 1), title, 0, **MENU_TH_TITLE)
    first = min(max(0, index - 1), max(0, len(items) - visible))  # one item of context above
    for row, i in enumerate(range(first, min(len(items), first + visible))):
        top = title_h + 1 + row * item_h
        ink = 1
        if i == index:
            draw.rectangle((0, top, WIDTH - 1, top + item_h - 1), fill=1)
            ink = 0
        kw = MENU_TH_ITEM if item_h == MENU_TH[2] else {"max_size": SMALL + 1, "min_size": SMALL + 1}
        textline.draw_line(img, (4, top, WIDTH - 5, top + item_h - 1), items[i], ink, **kw)
    return img


def draw_message(img: Image.Image, text: str) -> Image.Image:
    """`img` (any screen: a menu, the result entry) with a message over its top rows (HEAD_ROWS),
    framed, as the clock screens' headline shows it."""
    out = img.copy()
    ImageDraw.Draw(out).rectangle((0, HEAD_ROWS[0], WIDTH - 1, HEAD_ROWS[1]), fill=0)
    draw_headline(out, text, "box")
    return out


def caption(view: View) -> str:
    """Plain text of both clocks for terminals, logs and tests, e.g. `LEFT 44:59 ▶   RIGHT 45:00`."""
    parts = []
    for name in SIDES:
        s = view["sides"][name]
        mark = "▶" if is_running(view, name) else " "
        flag = " FLAG" if s.get("flagged") else ""
        parts.append(f"{name.upper()} {s['display']} {mark}{flag}")
    count = count_text(view)
    return "   ".join(parts) + f"   [{view['state']}]" + (f"   {count}" if count else "")


def alert_text(alert: Mapping[str, Any]) -> str:
    """A beep as text, e.g. `BEEP low-time left`, `BEEP announce right 0:10 left`, `BEEP cut`."""
    words = ["BEEP", alert.get("kind", "?")]
    if alert.get("side"):
        words.append(alert["side"])
    if alert.get("remaining_ms") is not None:
        words.append(f"{_mmss(alert['remaining_ms'])} left")
    return " ".join(words)
