"""luma's SSD1306 and SH1106 drivers, made to send only what changed on the screen.

luma's own `display(image)` sends the whole 1024-byte frame every time (its `diff_to_previous`
framebuffer does nothing on these two drivers): about 24 ms at 400 kHz I2C per display. A running
clock changes one or two digits a second, so `DiffSSD1306` / `DiffSH1106` keep what the
controller's RAM holds and send only the changed part:

* The image is packed the way the controller stores it: 8 pages of 8 rows, one byte per column
  and page (bit i = row 8*page + i), `pack_pages`.
* Per page, the changed columns are grouped into spans; two spans closer than the cost of a
  separate write (`span_overhead`, in bus bytes) are merged (`changed_spans`).
* SSD1306: each span becomes a window, COLUMNADDR (0x21 x0 x1) + PAGEADDR (0x22 p0 p1), followed
  by its bytes (horizontal addressing, luma's setting: the pointer wraps from x1 to x0 of the next
  page). Spans of neighbouring pages are merged into one window of several pages when that costs
  fewer bus bytes than separate windows.
* SH1106 has no windows (page addressing only): per span, set the page (0xB0 | page) and the
  column (0x00 | low nibble, 0x10 | high nibble, after adding its 2-column offset: the 128 visible
  columns are RAM columns 2..129 of 132), then the bytes.
* The display's polarity is part of the picture: when most of a frame is the inverse of what the
  RAM holds (the screens invert the running side's whole screen), one command (0xA7 inverse /
  0xA6 normal) plus the few bytes that differ from the inverse is cheaper than redrawing, and the
  driver does that: a player's switch costs a few bytes instead of two full screens.
  The polarity command goes first (`flip_first` lets the sink flip both displays before either's
  bytes): for a few milliseconds the glass shows the old digits in the new polarity.
* An identical frame sends nothing at all, not even a command.

What the RAM holds is only trusted after a complete, successful `display()`: an exception in the
middle (the bus failed) leaves the driver "unknown", and the next `display()` sends a full frame.

The drivers never talk to the bus when constructed: luma's init sequence (and its contrast and
display-on commands) is recorded, and `initialize()` sends it, then the next `display()` sends a
full frame and switches the display on after it (no garbage flash). `initialize()` can be called
again after the display was unplugged (its controller lost its settings), on the same object: luma
registers one atexit hook per device object, so a display that comes and goes must not leave a
trail of objects (each hook would blank its display at exit unless persist is set). `persist` is
True: the screen keeps its picture when the process exits.

`CountingSerial` wraps a luma serial interface and counts the bytes handed to the bus: command
bytes and data bytes (payload only; I2C adds an address byte and a control byte per transfer,
and luma splits data into 32-byte transfers on a bus it did not open itself).
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from luma.oled.device import sh1106, ssd1306
from PIL import Image

PAGE_ROWS = 8
DISPLAYON = 0xAF
DISPLAYOFF = 0xAE
SETCONTRAST = 0x81
COLUMNADDR = 0x21
PAGEADDR = 0x22
SETPAGE = 0xB0  # SH1106 (and SSD1306 page mode): 0xB0 | page
SETLOWCOLUMN = 0x00
SETHIGHCOLUMN = 0x10
NORMALDISPLAY = 0xA6
INVERTDISPLAY = 0xA7
FLIP_COST = 3  # bus bytes of a one-byte command transfer (address, control, command)

Window = tuple[int, int, int, int]  # (first page, last page, first column, last column), inclusive


class SerialInterface(Protocol):
    """What the drivers need of a luma serial interface (luma.core.interface.serial's i2c, spi)."""

    def command(self, *cmd: int) -> None: ...

    def data(self, data: Sequence[int]) -> None: ...

    def cleanup(self) -> None: ...


def pack_pages(image: Image.Image) -> bytes:
    """A mode "1" image (W x H, H a multiple of 8) as controller RAM bytes: page-major, W bytes per
    page, bit i of column x of page p = pixel (x, 8p + i)."""
    pages = image.height // PAGE_ROWS
    # Transposed, row x of the result is column x top-down; packed least significant bit first
    # ("1;R"), byte p of that row holds rows 8p..8p+7 with row 8p in bit 0: page p of column x.
    # (Pillow packs a mode "1" image bit by bit: one transpose and one packing, ~25 us here.)
    rows = image.transpose(Image.Transpose.TRANSPOSE).tobytes("raw", "1;R")
    return b"".join([rows[p::pages] for p in range(pages)])


def changed_spans(old: bytes | None, new: bytes, width: int, merge_gap: int) -> list[tuple[int, int, int]]:
    """(page, x0, x1) inclusive column spans of `new` that differ from `old`, page by page; spans
    of one page separated by at most `merge_gap` unchanged columns are merged. `old` None: every
    page whole."""
    if old is None:
        return [(p, 0, width - 1) for p in range(len(new) // width)]
    return diff_spans(xor(old, new), width, merge_gap)


def xor(a: bytes, b: bytes) -> bytes:
    """`a` XOR `b`, byte by byte (equal lengths): 0 where they agree, 0xFF where one is the other's
    inverse."""
    return (int.from_bytes(a, "little") ^ int.from_bytes(b, "little")).to_bytes(len(a), "little")


def diff_spans(diff: bytes, width: int, merge_gap: int, same: int = 0) -> list[tuple[int, int, int]]:
    """`changed_spans` from `diff` (`xor(old, new)`): the columns whose byte is not `same` changed.
    `same` 0xFF: the spans to send if the polarity flips (old against the inverse of new).

    Whole rows at once, in C (bytes' compare, strip and find; no loop over the columns in Python):
    a page whose row is all `same` is skipped; in the others the first and last changed columns
    are found by stripping, and the spans are split where `merge_gap` + 1 unchanged columns in a
    row begin -- the same spans as comparing column by column."""
    unchanged = bytes((same,))
    blank = unchanged * width
    gap = unchanged * (merge_gap + 1)
    out = []
    for p in range(len(diff) // width):
        row = diff[p * width:(p + 1) * width]
        if row == blank:
            continue
        x0 = width - len(row.lstrip(unchanged))
        end = len(row.rstrip(unchanged))  # one past the last changed column
        while True:
            z = row.find(gap, x0, end)
            if z < 0:
                out.append((p, x0, end - 1))
                break
            out.append((p, x0, z - 1))
            x0 = end - len(row[z:end].lstrip(unchanged))
    return out


_INVERSE = bytes(255 - b for b in range(256))


def _invert(buf: bytes) -> bytes:
    return buf.translate(_INVERSE)


class _Recorder:
    """A serial interface that only records: luma's constructor talks to this, not the bus."""

    def __init__(self) -> None:
        self.commands: list[tuple[int, ...]] = []

    def command(self, *cmd: int) -> None:
        self.commands.append(tuple(cmd))

    def data(self, data: Sequence[int]) -> None:  # luma's clear() during construction: ignored (see _DiffMixin)
        pass

    def cleanup(self) -> None:
        pass


class CountingSerial:
    """A luma serial interface wrapper that counts what went out. Counts only completed calls:
    a call that raised is not counted. `command_bytes` / `data_bytes` are payload bytes; `writes`
    the number of command() and data() calls."""

    def __init__(self, inner: SerialInterface) -> None:
        self.inner = inner
        self.command_bytes = 0
        self.data_bytes = 0
        self.writes = 0

    def command(self, *cmd: int) -> None:
        self.inner.command(*cmd)
        self.command_bytes += len(cmd)
        self.writes += 1

    def data(self, data: Sequence[int]) -> None:
        self.inner.data(data)
        self.data_bytes += len(data)
        self.writes += 1

    def cleanup(self) -> None:
        self.inner.cleanup()


def _merge(old: bytes, new: bytes, windows: list[Window], width: int) -> bytes:
    """`old` with the bytes of `windows` (page-major, `width` bytes a page) taken from `new`."""
    out = bytearray(old)
    for p0, p1, x0, x1 in windows:
        for p in range(p0, p1 + 1):
            out[p * width + x0:p * width + x1 + 1] = new[p * width + x0:p * width + x1 + 1]
    return bytes(out)


class _DiffMixin:
    """The diffing `display()`, shared by both drivers. Subclasses set `_plan` and `_send`."""

    span_overhead = 10  # bus bytes a separate write costs beyond its payload (see the subclasses)

    if TYPE_CHECKING:  # what the luma driver class this is mixed into provides (luma has no types)
        mode: str
        size: tuple[int, int]
        _stock_class: Any  # that luma class itself
        _w: int  # the RAM's width in bytes a page (the controller's columns)

        def command(self, *cmd: int) -> None: ...

        def preprocess(self, image: Image.Image) -> Image.Image: ...

    def _diff_setup(self, serial_interface: SerialInterface, build: Callable[[_Recorder], None]) -> None:
        recorder = _Recorder()
        self._constructing = True
        self._shown: bytes | None = None
        build(recorder)  # luma's __init__: its init sequence goes to the recorder
        self._constructing = False
        cmds = list(recorder.commands)
        if cmds and cmds[-1] == (DISPLAYON,):  # luma's show(): sent after our first full frame
            cmds.pop()
        self._init_sequence: tuple[tuple[int, ...], ...] = tuple(cmds)
        self._serial_interface = serial_interface
        self.persist = True  # do not blank the screen at exit
        self._level: int | None = None
        self._display_on = False
        self._switch_on = False
        self._inverted = False
        # () -> bool: a newer image waits (OledSink): stop between windows, the rest of this one is stale
        self.preempt: Callable[[], bool] | None = None
        self._ready: tuple[Image.Image, tuple[bytes | None, bytes, list[Window], bool]] | None = None
        self.partial = False  # the last display() stopped early for a newer image (its RAM is tracked)
        self.preempted = 0

    # --- life cycle -------------------------------------------------------------------------
    @property
    def init_sequence(self) -> tuple[tuple[int, ...], ...]:
        """luma's init commands for this driver (display off first), as sent by `initialize()`."""
        return self._init_sequence

    def initialize(self) -> None:
        """(Re)configure the controller: luma's init sequence, our contrast if one was set. The RAM
        is unknown afterwards: the next `display()` sends a full frame, then switches the display on."""
        self._shown = None
        self._display_on = False
        self._inverted = False  # luma's init sequence sets normal display (0xA6)
        for cmd in self._init_sequence:
            self.command(*cmd)
        if self._level is not None:
            self.command(SETCONTRAST, self._level)
        self._switch_on = True

    def invalidate(self) -> None:
        """Forget what the RAM holds: the next `display()` sends a full frame."""
        self._shown = None

    def contrast(self, level: int) -> None:
        """Contrast (brightness) 0-255; kept and re-sent by `initialize()`."""
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0-255, got {level}")
        if not self._constructing:  # luma's own default (its constructor) is part of the init sequence
            self._level = int(level)
        self.command(SETCONTRAST, int(level))

    def keep_contrast(self, level: int) -> None:
        """Remember contrast `level` (0-255) for the next `initialize()`, sending nothing now."""
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0-255, got {level}")
        self._level = int(level)

    @property
    def level(self) -> int | None:
        return self._level

    def show(self) -> None:
        self.command(DISPLAYON)
        self._display_on = True

    def hide(self) -> None:
        self.command(DISPLAYOFF)
        self._display_on = False

    # --- frames -----------------------------------------------------------------------------
    def display(self, image: Image.Image) -> None:
        """Send what differs between `image` (mode "1", the device's size) and the RAM."""
        if self._constructing:
            return
        ready, self._ready = self._ready, None
        if ready is not None and ready[0] is image and ready[1][0] is self._shown:
            old, ram, windows, flip = ready[1]  # flip_first planned it (and flipped if it had to)
        else:
            old, ram, windows, flip = self._planned(image)
        self._shown = None  # unknown until every byte went out
        self.partial = False
        if flip:  # the polarity first: the switch shows at once, the few changed bytes follow
            self._flip()
        # a newer image may cut this one short (a press moved the running marker: the rest of this
        # stale one is not worth its bus time), between windows and between a window's pages, so a
        # press's frame waits for at most one page of a tick's digits. Never the first frame (the
        # RAM is unknown).
        stop = self.preempt if old is not None else None
        for n, window in enumerate(windows):
            sent = 0 if n and stop is not None and stop() else self._send(window, ram, stop)
            if sent < window[1] - window[0] + 1:
                # the RAM is known: the windows (and pages) sent hold `ram`, the rest `old`
                assert old is not None  # a cut needs `stop`, set only when the RAM was known
                done = windows[:n] + ([(window[0], window[0] + sent - 1, window[2], window[3])] if sent else [])
                self._shown = _merge(old, ram, done, self._w)
                self.partial = True
                self.preempted += 1
                return
        if self._switch_on:
            self.show()
            self._switch_on = False
        self._shown = ram

    def flip_first(self, image: Image.Image) -> bool:
        """If showing `image` will flip the polarity (the running marker moved), flip it now and
        leave the changed bytes to `display(image)`: the sink flips both displays before sending
        either's bytes, so a press shows on both at once (issue 14). True if it flipped."""
        self._ready = None
        if self._constructing or self._shown is None:
            return False
        old, ram, windows, flip = self._planned(image)
        if flip:
            self._flip()
        self._ready = (image, (old, ram, windows, False))  # display(image) sends the rest, not planning again
        return flip

    def _planned(self, image: Image.Image) -> tuple[bytes | None, bytes, list[Window], bool]:
        """(the RAM now, the RAM to reach, the windows that get there, whether the polarity flips)."""
        if image.mode != self.mode or image.size != self.size:
            raise ValueError(f"expected a mode {self.mode!r} image of {self.size}, got {image.mode!r} "
                             f"{image.size}")
        buf = pack_pages(self.preprocess(image))
        old, inverted = self._shown, self._inverted
        keep = _invert(buf) if inverted else buf  # what the RAM must hold if the polarity stays
        if old is None:
            return old, keep, self._plan(old, keep), False
        if keep == old:
            return old, keep, [], False
        diff = xor(old, keep)  # one diff for both polarities: 0 where kept, 0xFF where flipped
        # Flipping the polarity (one command byte) leaves to send the bytes that are not the
        # inverse (0xFF in `diff`), keeping it those that changed (not 0): planned only when the
        # byte counts (the least either can cost) leave it a chance, the other side's cost exact.
        w, gap = self._w, self.span_overhead
        n_keep, n_flip = len(diff) - diff.count(0), len(diff) - diff.count(0xFF)
        if n_flip < n_keep:  # a press, most likely: the flip first
            flip_windows = self._windows(diff_spans(diff, w, gap, 0xFF))
            flip_cost = self._cost(flip_windows) + FLIP_COST
            if flip_cost < n_keep:
                return old, _invert(keep), flip_windows, True
            windows = self._windows(diff_spans(diff, w, gap))
            if flip_cost < self._cost(windows):
                return old, _invert(keep), flip_windows, True
            return old, keep, windows, False
        windows = self._windows(diff_spans(diff, w, gap))
        keep_cost = self._cost(windows)
        if n_flip + FLIP_COST < keep_cost:
            flip_windows = self._windows(diff_spans(diff, w, gap, 0xFF))
            if self._cost(flip_windows) + FLIP_COST < keep_cost:
                return old, _invert(keep), flip_windows, True
        return old, keep, windows, False

    def _flip(self) -> None:
        """Flip the polarity (one command): the RAM stays, the glass shows its inverse."""
        self.command(NORMALDISPLAY if self._inverted else INVERTDISPLAY)
        self._inverted = not self._inverted

    def _cost(self, windows: list[Window]) -> int:
        """Bus bytes of `windows`: their data and each window's overhead."""
        return sum((p1 - p0 + 1) * (x1 - x0 + 1) + self.span_overhead for p0, p1, x0, x1 in windows)

    @property
    def inverted(self) -> bool:
        """Whether the controller shows its RAM inverted (0xA7) now."""
        return self._inverted

    def stock_display(self, image: Image.Image) -> None:
        """luma's own full-frame `display()` (all 1024 bytes), with the DeprecationWarning it
        raises under Pillow 13 (Image.getdata) filtered. For comparisons; the RAM becomes known."""
        if self._inverted:
            self.command(NORMALDISPLAY)
            self._inverted = False
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=DeprecationWarning)
            self._stock_class.display(self, image)
        if self._switch_on:
            self.show()
            self._switch_on = False
        self._shown = pack_pages(self.preprocess(image))

    @property
    def full_frame_bytes(self) -> tuple[int, int]:
        """(command bytes, data bytes) luma's own `display()` sends for one frame."""
        raise NotImplementedError

    def _plan(self, old: bytes | None, new: bytes) -> list[Window]:
        """The windows that take the RAM from `old` (None: unknown) to `new`."""
        return self._windows(changed_spans(old, new, self._w, self.span_overhead))

    def _windows(self, spans: list[tuple[int, int, int]]) -> list[Window]:
        """The windows that send `spans` (changed_spans: page, x0, x1)."""
        raise NotImplementedError

    def _send(self, window: Window, buf: bytes, stop: Callable[[], bool] | None = None) -> int:
        """Send `window` (p0, p1, x0, x1) of `buf`; returns the pages sent: all of them, unless
        `stop()` said stop between two of its pages (the first page always goes)."""
        raise NotImplementedError


# luma has no types: this subclasses Any (an error under strict's disallow_subclassing_any only)
class DiffSSD1306(_DiffMixin, ssd1306):  # type: ignore[misc, unused-ignore]
    """luma's ssd1306 sending only changed windows (COLUMNADDR/PAGEADDR, horizontal addressing).

    A window costs, beyond its data bytes, one command transfer (address, control, 6 command bytes)
    and the data transfer's address and control bytes: 10 bus bytes (`span_overhead`)."""

    span_overhead = 10
    _stock_class = ssd1306

    def __init__(self, serial_interface: SerialInterface, width: int = 128, height: int = 64, rotate: int = 0,
                 **kwargs: Any):
        self._diff_setup(serial_interface,
                         lambda rec: ssd1306.__init__(self, rec, width, height, rotate, **kwargs))

    @property
    def full_frame_bytes(self) -> tuple[int, int]:
        return 6, self._w * self._pages

    def _windows(self, spans: list[tuple[int, int, int]]) -> list[Window]:
        """Windows (p0, p1, x0, x1): the changed spans, neighbouring pages merged when cheaper."""
        by_page: dict[int, list[tuple[int, int]]] = {}
        for p, x0, x1 in spans:
            by_page.setdefault(p, []).append((x0, x1))
        def cost(p0: int, p1: int, x0: int, x1: int) -> int:
            return (p1 - p0 + 1) * (x1 - x0 + 1) + self.span_overhead

        windows: list[list[int]] = []
        for p in sorted(by_page):
            row = by_page[p]
            last = windows[-1] if windows else None
            if (len(row) == 1 and last is not None and last[1] == p - 1 and last[4]
                    and len(by_page[p - 1]) == 1):
                x0, x1 = row[0]
                m0, m1 = min(last[2], x0), max(last[3], x1)
                if cost(last[0], p, m0, m1) <= cost(last[0], last[1], last[2], last[3]) + cost(p, p, x0, x1):
                    last[1:4] = [p, m0, m1]
                    continue
            for x0, x1 in row:
                windows.append([p, p, x0, x1, len(row) == 1])
        return [(w[0], w[1], w[2], w[3]) for w in windows]

    def _send(self, window: Window, buf: bytes, stop: Callable[[], bool] | None = None) -> int:
        p0, p1, x0, x1 = window
        c0 = self._colstart
        self.command(COLUMNADDR, c0 + x0, c0 + x1, PAGEADDR, p0, p1)
        w = self._w
        if stop is None or p0 == p1:  # all at once: one data transfer
            if x0 == 0 and x1 == w - 1:
                self.data(list(buf[p0 * w:(p1 + 1) * w]))
            else:
                data: list[int] = []
                for p in range(p0, p1 + 1):
                    data += buf[p * w + x0:p * w + x1 + 1]
                self.data(data)
            return p1 - p0 + 1
        # page by page (horizontal addressing: each page's bytes continue where the last ended), a
        # data transfer each (2 bus bytes more a page), so that a newer frame can cut in between
        for p in range(p0, p1 + 1):
            if p > p0 and stop():
                return p - p0
            self.data(list(buf[p * w + x0:p * w + x1 + 1]))
        return p1 - p0 + 1


# luma has no types: this subclasses Any (an error under strict's disallow_subclassing_any only)
class DiffSH1106(_DiffMixin, sh1106):  # type: ignore[misc, unused-ignore]
    """luma's sh1106 sending only changed spans (page addressing: page, column, bytes).

    A span costs, beyond its data bytes, one command transfer (address, control, 3 command bytes)
    and the data transfer's address and control bytes: 7 bus bytes (`span_overhead`)."""

    span_overhead = 7
    _stock_class = sh1106

    def __init__(self, serial_interface: SerialInterface, width: int = 128, height: int = 64, rotate: int = 0,
                 **kwargs: Any):
        self._diff_setup(serial_interface,
                         lambda rec: sh1106.__init__(self, rec, width, height, rotate, **kwargs))

    @property
    def full_frame_bytes(self) -> tuple[int, int]:
        return 3 * self._pages, self._w * self._pages

    def _windows(self, spans: list[tuple[int, int, int]]) -> list[Window]:
        return [(p, p, x0, x1) for p, x0, x1 in spans]

    def _send(self, window: Window, buf: bytes, stop: Callable[[], bool] | None = None) -> int:
        p, _, x0, x1 = window
        col = x0 + self._page_address_offset
        self.command(SETPAGE | p, SETLOWCOLUMN | (col & 0x0F), SETHIGHCOLUMN | (col >> 4))
        base = p * self._w
        self.data(list(buf[base + x0:base + x1 + 1]))
        return 1


DRIVERS = {"ssd1306": DiffSSD1306, "sh1106": DiffSH1106}
