"""The simulator's displays and buzzer: two 1-bit 128x64 images drawn in a terminal.

Pixels become Unicode braille (2x4 pixels a character: 64x16 characters a screen, both screens in 134
columns) or half blocks (1x2 pixels: 128x32 a screen, 262 columns); in a smaller terminal (80x24, the
usual default) both screens are drawn at half resolution (64x32 pixels, 32x8 braille characters a
screen, 70 columns): each 2x2 block of pixels one dot, lit if any of its pixels is lit on a dark
screen, dark if any is dark on a lit one (the running side's inverted screen), so a stroke one pixel
wide stays. `pixels="auto"` takes the largest layout the terminal holds, in width and in height (issue
27: the sim needed 134 columns and garbled at 80 or 120 without saying so). Under each screen a
plain-text caption (e.g. `LEFT 45:00 ▶`) that scripts and tests can read; then the info line, a line
with the latest beeps (the sim's buzzer), a message line and the key legend, each folded at its " | "
to the terminal's width. No line is longer than the terminal is wide (a longer one would wrap and push
the picture up); a terminal too small even for the half-resolution layout is told so on the first line,
with the size the sim needs, and gets what fits.

Only the loop thread calls `show` / `beep`. Each frame is written whole: cursor home, every line
cleared to its end, rest of the screen cleared, in one write.
"""
from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from PIL import Image

if TYPE_CHECKING:
    from gameclock.loop.sinks import Frame

# columns of each layout: two framed screens, 2 apart
LAYOUT_COLS = {"half": 2 * (128 + 2) + 2, "braille": 2 * (64 + 2) + 2, "small": 2 * (32 + 2) + 2}
HALF_MIN_COLS = LAYOUT_COLS["half"]
_BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
                 (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def braille(img: Image.Image) -> list[str]:
    """Rows of braille characters, one character per 2x4 pixels (lit pixel = raised dot)."""
    img = img.convert("1")
    w, h = img.size
    px = img.load()
    if px is None:  # no pixel access (an image without data; never one of the screens)
        raise ValueError("the image has no pixel data")
    rows = []
    for cy in range(0, h, 4):
        chars = []
        for cx in range(0, w, 2):
            bits = 0
            for dx, dy, bit in _BRAILLE_BITS:
                x, y = cx + dx, cy + dy
                if x < w and y < h and px[x, y]:
                    bits |= bit
            chars.append(chr(0x2800 + bits))
        rows.append("".join(chars))
    return rows


def halfblocks(img: Image.Image) -> list[str]:
    """Rows of half-block characters, one character per 1x2 pixels."""
    img = img.convert("1")
    w, h = img.size
    px = img.load()
    if px is None:  # no pixel access (an image without data; never one of the screens)
        raise ValueError("the image has no pixel data")
    glyph = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}
    rows = []
    for y in range(0, h, 2):
        rows.append("".join(glyph[(1 if px[x, y] else 0, 1 if y + 1 < h and px[x, y + 1] else 0)]
                            for x in range(w)))
    return rows


def halved(img: Image.Image) -> Image.Image:
    """`img` at half its width and height: a 2x2 block lit if any of its pixels is, on a mostly dark
    image; dark if any is dark, on a mostly lit one (a stroke one pixel wide stays either way)."""
    grey = img.convert("L").reduce(2)  # the mean of each 2x2 block, 0..255
    lit = sum(grey.histogram()[128:]) * 2 > grey.width * grey.height
    return grey.point([255 if (v == 255 if lit else v > 0) else 0 for v in range(256)]).convert("1")


def compose(left: Image.Image, right: Image.Image, captions: Sequence[str] = ("", ""), *,
            pixels: str = "braille", gap: int = 2) -> list[str]:
    """Both screens framed side by side, each caption under its screen. `pixels`: "braille", "half"
    (half blocks) or "small" (braille at half resolution)."""
    if pixels == "small":
        left, right = halved(left), halved(right)
    cells = halfblocks if pixels == "half" else braille
    a, b = cells(left), cells(right)
    width = len(a[0]) if a else 0
    space = " " * gap
    lines = [f"┌{'─' * width}┐{space}┌{'─' * width}┐"]
    for ra, rb in zip(a, b, strict=True):
        lines.append(f"│{ra}│{space}│{rb}│")
    lines.append(f"└{'─' * width}┘{space}└{'─' * width}┘")
    ca, cb = (list(captions) + ["", ""])[:2]
    lines.append(f" {ca:<{width + 1}}{space} {cb}".rstrip())
    return lines


def terminal_size(out: TextIO) -> tuple[int, int]:
    """(columns, lines) of the terminal `out` writes to, asked of the terminal itself ($COLUMNS and $LINES
    can be stale: a tmux pane started from a shell that exported LINES=24 has them); 200x60 when `out`
    is no terminal and the environment says nothing."""
    try:
        size = os.get_terminal_size(out.fileno())
    except (AttributeError, ValueError, OSError):  # no file descriptor (io.UnsupportedOperation), no terminal
        size = shutil.get_terminal_size((200, 60))
    return size.columns, size.lines


def fold(text: str, width: int, first: str = " ", rest: str = " ") -> list[str]:
    """`text` in lines of at most `width` columns, broken after its " | " where it can, else at a space,
    else anywhere; the first line begins with `first`, the others with `rest`."""
    lines: list[str] = []
    line = first
    for n, part in enumerate(text.split(" | ")):
        piece = part if n == 0 else " | " + part
        if len(line) + len(piece) <= width or line in (first, rest):
            line += piece if line not in (first, rest) else part
            continue
        lines.append(line.rstrip())
        line = rest + part
    lines.append(line.rstrip())
    out: list[str] = []
    for line in lines:  # a part longer than the line itself: at a space, else anywhere
        prefix = first if not out else rest
        while len(line) > width:
            cut = line.rfind(" ", len(prefix) + 1, width + 1)
            cut = cut if cut > len(prefix) else width
            out.append(line[:cut].rstrip())
            line = rest + line[cut:].lstrip()
        out.append(line)
    return out


class TerminalSink:
    """Draws frames and beeps to a terminal (ANSI). `pixels`: "braille", "half", "small" or "auto" (the
    largest the terminal holds). `size`: the terminal's (columns, lines), asked at every frame (tests
    give their own; default: the terminal's, 200x60 when there is none)."""

    def __init__(self, out: TextIO = sys.stdout, *, pixels: str = "auto", title: str = "gameclock sim",
                 legend: Sequence[str] = (), alt_screen: bool = True, max_beeps: int = 3,
                 size: Callable[[], tuple[int, int]] | None = None):
        self.out = out
        self.pixels = pixels
        self.title = title
        self.legend = tuple(legend)
        self.alt_screen = alt_screen
        self.beeps: list[str] = []
        self.beep_count = 0
        self.max_beeps = max_beeps
        self.size = size or (lambda: terminal_size(self.out))
        self._frame: Frame | None = None
        self._started = False

    def start(self) -> None:
        if self.alt_screen:
            self.out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
            self.out.flush()
        self._started = True

    def stop(self) -> None:
        if self._started and self.alt_screen:
            self.out.write("\x1b[?25h\x1b[?1049l")
            self.out.flush()
        self._started = False

    def show(self, frame: Frame) -> None:
        """frame: has .left, .right (images), .captions (2 strings), .info, .message."""
        self._frame = frame
        self._draw()

    def beep(self, alert: Mapping[str, Any], text: str) -> None:
        """The sim's buzzer: the beep's text goes on the beep line, numbered, newest first."""
        self.beep_count += 1
        self.beeps = [f"♪{self.beep_count} {text}"] + self.beeps[: self.max_beeps - 1]
        self._draw()

    def lines(self) -> list[str]:
        """The frame as the terminal shows it: the largest layout that fits (or the one asked for),
        every line at most as wide as the terminal; too small a terminal is told what the sim needs."""
        if self._frame is None:
            return []
        cols, rows = self.size()
        if self.pixels != "auto":
            return self._fitted(self._layout(self.pixels, cols), cols, rows)
        for mode in ("half", "braille", "small"):
            lines = self._layout(mode, cols)
            if LAYOUT_COLS[mode] <= cols and len(lines) <= rows:
                return lines
        return self._fitted(self._layout("small", cols), cols, rows)

    def _fitted(self, lines: list[str], cols: int, rows: int) -> list[str]:
        """`lines` cut to the terminal; if they do not fit, the first line says the size needed."""
        wide = max(len(line) for line in lines)
        if wide <= cols and len(lines) <= rows:
            return lines
        need_cols = max(LAYOUT_COLS["small"] + 1, wide)
        need_rows = len(self._layout("small", max(cols, need_cols)))
        note = (f" terminal {cols}x{rows} too small: the sim needs {need_cols}x{need_rows} "
                f"({LAYOUT_COLS['braille']} columns: full size)")
        return [line[:cols] for line in [note, *lines]][:max(1, rows)]

    def _layout(self, mode: str, cols: int) -> list[str]:
        f = self._frame
        assert f is not None
        width = max(cols, LAYOUT_COLS[mode] + 1)  # the picture's lines set the least width of the rest
        out = [f" {self.title}"[:width]]
        *pictures, captions = compose(f.left, f.right, f.captions, pixels=mode)
        out += pictures
        if len(captions) <= width:
            out.append(captions)
        else:  # each caption on its own line
            out += [f" {c}"[:width] for c in f.captions if c]
        out += fold(f.info, width)
        out += fold("  |  ".join(self.beeps) if self.beeps else "(no beep yet)", width)
        out += fold(f.message, width) if f.message else [""]
        for n, item in enumerate(self.legend):
            out += fold(item, width, " keys: " if n == 0 else "       ", "       ")
        return out

    def _draw(self) -> None:
        if self._frame is None:
            return
        # no newline after the last line: on a terminal's last row it would scroll the first line away
        body = "\x1b[K\r\n".join(self.lines())
        self.out.write("\x1b[H" + body + "\x1b[K\x1b[J")
        self.out.flush()
