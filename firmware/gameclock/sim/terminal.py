"""The simulator's displays and buzzer: two 1-bit 128x64 images drawn pixel for pixel in a terminal.

Pixels become Unicode braille (2x4 pixels a character: 64x16 characters a screen, both screens fit
in 134 columns) or half blocks (1x2 pixels: 128x32 a screen, needs 262 columns). Under each screen
a plain-text caption (e.g. `LEFT 45:00 ▶`) that scripts and tests can read; then an info line, a
line with the latest beeps (the sim's buzzer), a message line and the key legend.

Only the loop thread calls `show` / `beep`. Each frame is written whole: cursor home, every line
cleared to its end, rest of the screen cleared, in one write.
"""
from __future__ import annotations

import shutil
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from PIL import Image

if TYPE_CHECKING:
    from gameclock.loop.sinks import Frame

HALF_MIN_COLS = 2 * 130 + 2
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


def compose(left: Image.Image, right: Image.Image, captions: Sequence[str] = ("", ""), *,
            pixels: str = "braille", gap: int = 2) -> list[str]:
    """Both screens framed side by side, each caption under its screen."""
    cells = braille if pixels == "braille" else halfblocks
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


class TerminalSink:
    """Draws frames and beeps to a terminal (ANSI). `pixels`: "braille", "half" or "auto"."""

    def __init__(self, out: TextIO = sys.stdout, *, pixels: str = "auto", title: str = "gameclock sim",
                 legend: Sequence[str] = (), alt_screen: bool = True, max_beeps: int = 3):
        self.out = out
        self.pixels = pixels
        self.title = title
        self.legend = tuple(legend)
        self.alt_screen = alt_screen
        self.beeps: list[str] = []
        self.beep_count = 0
        self.max_beeps = max_beeps
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

    def _mode(self) -> str:
        if self.pixels != "auto":
            return self.pixels
        cols = shutil.get_terminal_size((200, 60)).columns
        return "half" if cols >= HALF_MIN_COLS else "braille"

    def lines(self) -> list[str]:
        f = self._frame
        if f is None:
            return []
        out = [f" {self.title}"]
        out += compose(f.left, f.right, f.captions, pixels=self._mode())
        out.append(f" {f.info}")
        out.append(" " + ("  |  ".join(self.beeps) if self.beeps else "(no beep yet)"))
        out.append(f" {f.message}" if f.message else "")
        out += [f" keys: {self.legend[0]}"] + [f"       {x}" for x in self.legend[1:]] if self.legend else []
        return out

    def _draw(self) -> None:
        if self._frame is None:
            return
        body = "".join(f"{line}\x1b[K\r\n" for line in self.lines())
        self.out.write("\x1b[H" + body + "\x1b[J")
        self.out.flush()
