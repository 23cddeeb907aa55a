"""A small model of the SSD1306 and SH1106 OLED controllers: the command/data byte stream in,
the picture on the glass out. Written from the datasheets' command tables, independently of the
drivers under test, so that decoding what a driver sent tells whether the screen would be right.

SSD1306 (128 x 64, RAM 8 pages x 128 columns):
  0x00-0x0F / 0x10-0x1F  column start, low / high nibble (page addressing mode)
  0x20 m                 memory addressing mode: 0 horizontal, 1 vertical, 2 page (reset: 2)
  0x21 a b / 0x22 a b    column / page window (horizontal and vertical modes); the pointer goes to
                         its start; writes wrap inside the window (horizontal: column first, then
                         page; at the window's end back to its first page)
  0x40-0x7F              display start line
  0x81 c                 contrast              0x8D x  charge pump
  0xA0 / 0xA1            segment remap          0xC0 / 0xC8  COM scan direction
  0xA4 / 0xA5            RAM / entire display on      0xA6 / 0xA7  normal / inverse
  0xA8 n  multiplex      0xAE / 0xAF  display off / on      0xB0-0xB7  page (page mode)
  0xD3 o  display offset 0xD5 x  clock     0xD9 x  precharge   0xDA x  COM pins   0xDB x  VCOMH
  0x26/0x27 (6 args), 0x29/0x2A (5 args), 0xA3 (2 args), 0x2E/0x2F: scrolling (recorded only)
SH1106 (RAM 8 pages x 132 columns; a 128-column panel shows columns 2..129):
  page addressing only: 0xB0-0xB7 page, 0x00-0x0F / 0x10-0x1F column nibbles; the column pointer
  moves by one per data byte (past 131 is recorded as an overflow); 0x30-0x33 pump voltage;
  0xAD x DC-DC; 0xE0 / 0xEE read-modify-write; 0xE3 nop; 0x81 0xA0-0xA8 0xAE-0xAF 0xC0/0xC8
  0xD3 0xD5 0xD9 0xDA 0xDB as the SSD1306. Bytes that are no SH1106 command (luma's init sends
  0x20 and 0x8D 0x14, which are SSD1306 commands) are recorded in `unknown` and otherwise ignored.

The picture: pixel (x, y) is bit (y % 8) of the RAM byte at page y // 8, column x (+ the SH1106
offset), for a module wired so that segment remap on (0xA1) and COM scan remapped (0xC8) show it
upright, as luma sets them; the other settings mirror it. Start line and display offset roll it.
`image()` is what the RAM would show; `glass()` what the panel shows (inversion 0xA7, all-on 0xA5,
dark while off); `contrast` is separate.

I2C framing (`write(control, payload)`): control byte 0x00 = the rest are commands, 0x40 = the
rest are data; 0x80 / 0xC0 (Co=1) = one command / one data byte, then another control byte.
"""
from __future__ import annotations

import random

from PIL import Image

PAGES = 8
WIDTH = 128
HEIGHT = 64


class SSD1306Model:
    name = "ssd1306"
    columns = 128
    column_offset = 0
    # command byte -> number of argument bytes that follow it
    ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2, 0x81: 1,
            0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

    def __init__(self, seed: int | None = None):
        self.power_on(seed)

    # --- power -------------------------------------------------------------------------------
    def power_on(self, seed: int | None = None) -> None:
        """The state after power-up (reset values); RAM holds garbage (random, from `seed`)."""
        rng = random.Random(seed)
        self.ram = bytearray(rng.getrandbits(8) for _ in range(PAGES * self.columns))
        self.display_on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.seg_remap = False
        self.com_remap = False
        self.start_line = 0
        self.offset = 0
        self.mode = 2  # page addressing
        self.col_window = (0, self.columns - 1)
        self.page_window = (0, PAGES - 1)
        self.col = 0
        self.page = 0
        self.pending: list[int] = []  # a command waiting for its arguments
        self.unknown: list[int] = []
        self.overflows = 0
        self.scroll: list[tuple[int, ...]] = []
        self.commands_seen = 0
        self.data_seen = 0

    # --- bus side ----------------------------------------------------------------------------
    def write(self, control: int, payload) -> None:
        """One I2C transfer after the address byte: a control byte and what follows it."""
        payload = list(payload)
        while True:
            if control in (0x00, 0x40):
                (self.commands if control == 0x00 else self.data)(payload)
                return
            if control in (0x80, 0xC0):  # Co = 1: one byte, then another control byte
                if not payload:
                    return
                (self.commands if control == 0x80 else self.data)(payload[:1])
                if len(payload) < 2:
                    return
                control, payload = payload[1], payload[2:]
                continue
            raise ValueError(f"bad I2C control byte 0x{control:02X}")

    def commands(self, stream) -> None:
        for b in stream:
            self.commands_seen += 1
            if self.pending:
                self.pending.append(b)
            else:
                self.pending = [b]
            need = self.arg_count(self.pending[0])
            if len(self.pending) - 1 >= need:
                cmd, self.pending = self.pending, []
                self.execute(cmd[0], cmd[1:])

    def arg_count(self, cmd: int) -> int:
        return self.ARGS.get(cmd, 0)

    def execute(self, c: int, args: list[int]) -> None:
        if c <= 0x0F:
            self.col = (self.col & 0xF0) | c
        elif c <= 0x1F:
            self.col = (self.col & 0x0F) | ((c & 0x0F) << 4)
        elif c == 0x20:
            self.mode = args[0] & 0x03
        elif c == 0x21:
            self.col_window = (args[0] & 0x7F, args[1] & 0x7F)
            self.col = self.col_window[0]
        elif c == 0x22:
            self.page_window = (args[0] & 0x07, args[1] & 0x07)
            self.page = self.page_window[0]
        elif c in (0x26, 0x27, 0x29, 0x2A, 0xA3, 0x2E, 0x2F):
            self.scroll.append((c, *args))
        elif 0x40 <= c <= 0x7F:
            self.start_line = c & 0x3F
        elif c == 0x81:
            self.contrast = args[0]
        elif c == 0x8D:
            pass  # charge pump
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xA4, 0xA5):
            self.entire_on = c == 0xA5
        elif c in (0xA6, 0xA7):
            self.inverted = c == 0xA7
        elif c == 0xA8:
            pass
        elif c in (0xAE, 0xAF):
            self.display_on = c == 0xAF
        elif 0xB0 <= c <= 0xB7:
            self.page = c & 0x07
        elif c in (0xC0, 0xC8):
            self.com_remap = c == 0xC8
        elif c == 0xD3:
            self.offset = args[0] & 0x3F
        elif c in (0xD5, 0xD9, 0xDA, 0xDB, 0xE3):
            pass
        else:
            self.unknown.append(c)

    def data(self, stream) -> None:
        for b in stream:
            self.data_seen += 1
            if self.col < self.columns:
                self.ram[self.page * self.columns + self.col] = b
            else:
                self.overflows += 1
            self.advance()

    def advance(self) -> None:
        c0, c1 = self.col_window
        p0, p1 = self.page_window
        if self.mode == 0:  # horizontal
            if self.col >= c1:
                self.col = c0
                self.page = p0 if self.page >= p1 else self.page + 1
            else:
                self.col += 1
        elif self.mode == 1:  # vertical
            if self.page >= p1:
                self.page = p0
                self.col = c0 if self.col >= c1 else self.col + 1
            else:
                self.page += 1
        else:  # page addressing: the column wraps, the page stays
            self.col = 0 if self.col >= self.columns - 1 else self.col + 1

    # --- glass side --------------------------------------------------------------------------
    def image(self) -> Image.Image:
        """The RAM as the 128x64 panel shows it (mode "1"), display on/off and inversion aside."""
        img = Image.new("1", (WIDTH, HEIGHT), 0)
        px = img.load()
        for y in range(HEIGHT):
            line = (y + self.start_line + self.offset) % HEIGHT
            yy = line if self.com_remap else HEIGHT - 1 - line
            page, bit = divmod(yy, 8)
            base = page * self.columns + self.column_offset
            for x in range(WIDTH):
                xx = x if self.seg_remap else WIDTH - 1 - x
                if self.ram[base + xx] >> bit & 1:
                    px[x, y] = 1
        return img

    def glass(self) -> Image.Image:
        """What the panel shows: the RAM picture, inverted by 0xA7, all lit by 0xA5, dark while the
        display is off (0xAE)."""
        if not self.display_on:
            return Image.new("1", (WIDTH, HEIGHT), 0)
        if self.entire_on:
            return Image.new("1", (WIDTH, HEIGHT), 1)
        img = self.image()
        if self.inverted:
            raw = img.tobytes()
            img = Image.frombytes("1", img.size, bytes(b ^ 0xFF for b in raw))
        return img


class SH1106Model(SSD1306Model):
    name = "sh1106"
    columns = 132
    column_offset = 2
    ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

    def execute(self, c: int, args: list[int]) -> None:
        if c <= 0x1F or 0x40 <= c <= 0x7F or c in (0x81, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7,
                                                    0xA8, 0xAE, 0xAF, 0xC0, 0xC8, 0xD3, 0xD5,
                                                    0xD9, 0xDA, 0xDB, 0xE3) or 0xB0 <= c <= 0xB7:
            super().execute(c, args)
        elif 0x30 <= c <= 0x33 or c in (0xAD, 0xE0, 0xEE):
            pass
        else:
            self.unknown.append(c)

    def advance(self) -> None:
        if self.col >= self.columns - 1:
            self.overflows += 1
            self.col = 0
        else:
            self.col += 1


MODELS = {"ssd1306": SSD1306Model, "sh1106": SH1106Model}
