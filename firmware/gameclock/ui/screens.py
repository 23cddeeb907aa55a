"""Screens: pure functions from a view (core `view()` dict or `Menu.view()`) to a 128x64 1-bit image.

Clock screen (one per player, `side` 0 left / 1 right):
    row  0-10  status: preset short name; tags at the right: READY, PAUSE, FLAG, END, OT -40 (XW-3
               penalty points), EXT n (MH-3 extra time left), P n (byo-yomi periods), S n (stage)
    row 13-50  the big digits: exactly `display` from the view, in Pillow's embedded font (tabular
               digits), the largest size that fits the width
    row 53-63  bottom line: moves made, and per-mode facts (game-cut time, turns left, round bonus);
               drawn as a solid white bar with black text while this side's clock runs (ROUND: while
               this competitor is still solving): the running indicator

Menu screen: an inverted title bar and four items, the highlighted one inverted.
Images are mode "1", white (1) on black (0), like the OLED.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
SIDES = ("left", "right")
DIGIT_SIZES = (46, 43, 40, 37, 34, 31, 28, 25, 22)  # px, tried in order
SMALL = 11  # px, the status lines
STATUS_ROWS = (0, 11)
DIGIT_ROWS = (13, 51)
BAR_ROWS = (53, 63)
MENU_ROWS_VISIBLE = 4
MENU_ITEM_H = 13


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's embedded font (Pillow >= 10.1) at `size` px."""
    return ImageFont.load_default(size=size)


def _side_index(side) -> int:
    if side in (0, 1):
        return int(side)
    return SIDES.index(side)


def _text_w(text: str, size: int) -> int:
    return int(font(size).getlength(text))


def _fit(text: str, size: int, width: int) -> str:
    """`text`, cut with '…' until it fits `width` px."""
    if _text_w(text, size) <= width:
        return text
    while text and _text_w(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _small_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: int,
                anchor: str = "l") -> None:
    """Small text on the line whose top row is y: capitals occupy rows y+1 .. y+8 (baseline y+9)."""
    x, y = xy
    draw.text((x, y + 9), text, font=font(SMALL), fill=fill, anchor=anchor + "s")


def _mmss(ms: int) -> str:
    s = max(0, ms) // 1000
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def status_tags(view: dict, side) -> list[str]:
    """The short tags of the status row, most important first."""
    name = SIDES[_side_index(side)]
    s = view["sides"][name]
    state = view["state"]
    tags: list[str] = []
    if s.get("flagged"):
        tags.append("FLAG")
    if state == "paused":
        tags.append("PAUSE")
    elif state == "ready":
        tags.append("READY")
    elif state in ("finished", "flagged") and not s.get("flagged"):
        tags.append("END")
    if s.get("overtime_ms", 0) > 0:
        tags.append(f"OT -{s.get('penalty_points', 0)}" if s.get("penalty_points") else "OT")
    if "extensions_left" in s:
        tags.append(f"EXT {s['extensions_left']}")
    if "periods_left" in s:
        tags.append(f"P{s['periods_left']}")
    if "stage" in s:
        tags.append(f"S{s['stage']}")
    return tags


def bottom_text(view: dict, side) -> tuple[str, str]:
    """(left, right) texts of the bottom line."""
    name = SIDES[_side_index(side)]
    s = view["sides"][name]
    left = f"M{s.get('moves', 0)}"
    right = ""
    mode = view.get("mode")
    if mode == "per_move" and s.get("extra_ms_left"):
        right = f"+{_mmss(s['extra_ms_left'])}"
    elif mode == "round":
        left = f"G{view.get('game', 1)}"
        if s.get("finished"):
            right = f"DONE +{s.get('bonus_points', 0)}"
    elif mode == "gamecut" and view.get("cut"):
        cut = view["cut"]
        turns = cut.get("turns_left")
        if cut.get("called"):
            right = f"CUT  {turns[name]} TURNS" if turns else "CUT"
    elif view.get("game", 1) > 1:
        right = f"G{view['game']}"
    return left, right


def is_running(view: dict, side) -> bool:
    """Whether this side's indicator is lit."""
    name = SIDES[_side_index(side)]
    if view["state"] != "running":
        return False
    if view.get("mode") == "round":
        s = view["sides"][name]
        return not s.get("finished") and not s.get("flagged")
    return view.get("running") == name


def digit_font_size(text: str, width: int = WIDTH - 4) -> int:
    """The largest of DIGIT_SIZES at which `text` fits `width` px."""
    for size in DIGIT_SIZES:
        if _text_w(text, size) <= width:
            return size
    return DIGIT_SIZES[-1]


def render(view: dict, side) -> Image.Image:
    """One player's clock screen for `side` (0/"left" or 1/"right")."""
    name = SIDES[_side_index(side)]
    s = view["sides"][name]
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)

    # status row
    tags = "  ".join(status_tags(view, side))
    tags_w = _text_w(tags, SMALL)
    if tags:
        _small_text(draw, (WIDTH - 1, 0), tags, 1, anchor="r")
    label = _fit(str(view.get("preset", "")), SMALL, WIDTH - tags_w - (10 if tags else 0))
    _small_text(draw, (0, 0), label, 1)
    if s.get("flagged"):  # a flag is shouted: invert the whole status row
        draw.rectangle((0, STATUS_ROWS[0], WIDTH - 1, STATUS_ROWS[1]), fill=1)
        _small_text(draw, (WIDTH - 1, 0), tags, 0, anchor="r")
        _small_text(draw, (0, 0), label, 0)

    # big digits
    text = s.get("display", "")
    size = digit_font_size(text)
    f = font(size)
    x0, y0, x1, y1 = f.getbbox(text)
    cx = (WIDTH - (x1 - x0)) // 2 - x0
    cy = (DIGIT_ROWS[0] + DIGIT_ROWS[1] - (y0 + y1)) // 2
    draw.text((cx, cy), text, font=f, fill=1)

    # bottom line / running indicator
    left, right = bottom_text(view, side)
    running = is_running(view, side)
    ink = 1
    if running:
        draw.rectangle((0, BAR_ROWS[0], WIDTH - 1, BAR_ROWS[1]), fill=1)
        ink = 0
    _small_text(draw, (2, BAR_ROWS[0] + 1), left, ink)
    if right:
        _small_text(draw, (WIDTH - 3, BAR_ROWS[0] + 1), right, ink, anchor="r")
    return img


def render_menu(menu_view: dict) -> Image.Image:
    """The menu screen of `Menu.view()`: {"title", "items", "index"}."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    items = menu_view.get("items", [])
    index = menu_view.get("index", 0)
    draw.rectangle((0, 0, WIDTH - 1, 11), fill=1)
    _small_text(draw, (2, 0), str(menu_view.get("title", "")), 0)
    if items:
        _small_text(draw, (WIDTH - 3, 0), f"{index + 1}/{len(items)}", 0, anchor="r")
    first = min(max(0, index - 1), max(0, len(items) - MENU_ROWS_VISIBLE))  # one item of context above
    for row, i in enumerate(range(first, min(len(items), first + MENU_ROWS_VISIBLE))):
        top = 12 + row * MENU_ITEM_H
        text = _fit(items[i], SMALL + 1, WIDTH - 8)
        ink = 1
        if i == index:
            draw.rectangle((0, top, WIDTH - 1, top + MENU_ITEM_H - 1), fill=1)
            ink = 0
        draw.text((4, top + 10), text, font=font(SMALL + 1), fill=ink, anchor="ls")
    return img


def caption(view: dict) -> str:
    """Plain text of both clocks for terminals, logs and tests, e.g. `LEFT 44:59 ▶   RIGHT 45:00`."""
    parts = []
    for name in SIDES:
        s = view["sides"][name]
        mark = "▶" if is_running(view, name) else " "
        flag = " FLAG" if s.get("flagged") else ""
        parts.append(f"{name.upper()} {s['display']} {mark}{flag}")
    return "   ".join(parts) + f"   [{view['state']}]"


def alert_text(alert: dict) -> str:
    """A beep as text, e.g. `BEEP low-time left`, `BEEP announce right 0:10 left`, `BEEP cut`."""
    words = ["BEEP", alert.get("kind", "?")]
    if alert.get("side"):
        words.append(alert["side"])
    if alert.get("remaining_ms") is not None:
        words.append(f"{_mmss(alert['remaining_ms'])} left")
    return " ".join(words)
