"""The diffing drivers' faster packing and diffing (issue 27, the Pi budget) change nothing a display
receives: pack_pages is checked against the controller's layout pixel by pixel, changed_spans and
diff_spans against the column-by-column algorithm they replace (kept here as the reference), and the
drivers' bytes on the wire against a driver planning with those references, frame by frame."""
from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from gameclock.core.clock import apply, new_game, view
from gameclock.core.events import Press, Start
from gameclock.device.oled import (
    FLIP_COST,
    DiffSH1106,
    DiffSSD1306,
    changed_spans,
    diff_spans,
    pack_pages,
    xor,
)
from gameclock.rules.loader import find_preset
from gameclock.ui import screens

S = 1_000_000_000


# ------------------------------------------------------------------ the references (the old code)
def reference_pack(image: Image.Image) -> bytes:
    """The controller's RAM by its definition (device/oled.py): bit i of column x of page p is pixel
    (x, 8p + i), pixel by pixel."""
    w, h = image.size
    px = image.load()
    out = bytearray(w * (h // 8))
    for p in range(h // 8):
        for x in range(w):
            out[p * w + x] = sum(1 << i for i in range(8) if px[x, 8 * p + i])
    return bytes(out)


def reference_spans(old: bytes | None, new: bytes, width: int, merge_gap: int) -> list[tuple[int, int, int]]:
    """changed_spans as it was before issue 27: column by column in Python."""
    pages = len(new) // width
    if old is None:
        return [(p, 0, width - 1) for p in range(pages)]
    out = []
    for p in range(pages):
        a = old[p * width:(p + 1) * width]
        b = new[p * width:(p + 1) * width]
        if a == b:
            continue
        cols = [x for x in range(width) if a[x] != b[x]]
        start = prev = cols[0]
        for x in cols[1:]:
            if x - prev - 1 > merge_gap:
                out.append((p, start, prev))
                start = x
            prev = x
        out.append((p, start, prev))
    return out


def reference_invert(buf: bytes) -> bytes:
    return bytes(255 - b for b in buf)


class _ReferencePlanning:
    """A driver planning as before issue 27 (the reference pack, spans and inversion)."""

    def _planned(self, image):
        buf = reference_pack(self.preprocess(image))
        old, inverted = self._shown, self._inverted
        keep = reference_invert(buf) if inverted else buf
        ram, windows = keep, (self._windows(reference_spans(old, keep, self._w, self.span_overhead))
                              if keep != old else [])
        if old is not None and windows:
            other = reference_invert(keep)
            other_windows = (self._windows(reference_spans(old, other, self._w, self.span_overhead))
                             if other != old else [])
            if self._cost(other_windows) + FLIP_COST < self._cost(windows):
                return old, other, other_windows, True
        return old, ram, windows, False


class RefSSD1306(_ReferencePlanning, DiffSSD1306):
    pass


class RefSH1106(_ReferencePlanning, DiffSH1106):
    pass


class Wire:
    """A serial interface that records every call: what goes on the wire, in order."""

    def __init__(self):
        self.calls: list[tuple[str, tuple[int, ...]]] = []

    def command(self, *cmd):
        self.calls.append(("command", tuple(cmd)))

    def data(self, data):
        self.calls.append(("data", tuple(data)))

    def cleanup(self):
        pass


# ------------------------------------------------------------------ random pictures and changes
def random_bytes(rng: random.Random, n: int, density: float) -> bytes:
    return bytes(rng.getrandbits(8) if rng.random() < density else 0 for _ in range(n))


def changed_copy(rng: random.Random, buf: bytes) -> bytes:
    """`buf` with a few random changes: single bytes, runs, runs separated by gaps around the merge
    gaps (0, 7, 10 columns), a whole page, page edges, or its inverse with a few bytes kept."""
    out = bytearray(buf)
    kind = rng.randrange(6)
    if kind == 0:  # scattered bytes
        for _ in range(rng.randint(1, 20)):
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    elif kind == 1:  # runs with gaps near the merge gaps
        p = rng.randrange(8)
        x = rng.randrange(10)
        while x < 128:
            for c in range(x, min(128, x + rng.randint(1, 6))):
                out[p * 128 + c] ^= rng.randint(1, 255)
            x += rng.choice((1, 6, 7, 8, 9, 10, 11, 12, 20))
    elif kind == 2:  # the ends of pages: column 0 and 127
        for p in rng.sample(range(8), 3):
            out[p * 128] ^= 0x80
            out[p * 128 + 127] ^= 0x01
    elif kind == 3:  # a whole page
        p = rng.randrange(8)
        out[p * 128:(p + 1) * 128] = random_bytes(rng, 128, 1.0)
    elif kind == 4:  # the inverse, a few bytes kept (a press: the polarity flips)
        out = bytearray(reference_invert(bytes(out)))
        for _ in range(rng.randint(0, 12)):
            i = rng.randrange(len(out))
            out[i] = buf[i]
    else:  # everything new
        out = bytearray(random_bytes(rng, len(buf), rng.random()))
    return bytes(out)


# ------------------------------------------------------------------ the tests
def test_pack_pages_is_the_controller_layout_on_random_images():
    rng = random.Random(27)
    for density in (0.0, 0.05, 0.5, 1.0):
        for _ in range(5):
            img = Image.frombytes("1", (128, 64), random_bytes(rng, 1024, density))
            assert pack_pages(img) == reference_pack(img)
    # pixels drawn with fill=1 (Pillow keeps 1, not 255) count as lit too
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).rectangle((5, 3, 60, 40), fill=1)
    assert pack_pages(img) == reference_pack(img)


@pytest.mark.parametrize("merge_gap", [0, 7, 10])
def test_changed_spans_equal_the_column_by_column_algorithm(merge_gap):
    rng = random.Random(merge_gap)
    old = random_bytes(rng, 1024, 0.3)
    assert changed_spans(None, old, 128, merge_gap) == reference_spans(None, old, 128, merge_gap)
    assert changed_spans(old, old, 128, merge_gap) == []
    for _ in range(400):
        new = changed_copy(rng, old)
        assert changed_spans(old, new, 128, merge_gap) == reference_spans(old, new, 128, merge_gap)
        # the spans if the polarity flips: old against the inverse of new, from the same diff
        flipped = reference_invert(new)
        assert diff_spans(xor(old, new), 128, merge_gap, 0xFF) == reference_spans(old, flipped, 128, merge_gap)
        old = new


def test_xor_is_bytewise():
    a, b = bytes([0, 1, 0xF0, 0xFF]), bytes([0, 3, 0x0F, 0xFF])
    assert xor(a, b) == bytes([0, 2, 0xFF, 0])


def _frames(rng: random.Random) -> list[Image.Image]:
    """Clock screens of a game with presses and ticks, and random pictures and edits between."""
    p = find_preset("makruk-45")
    st = apply(new_game(p.control_for(), label=p.short), Start(0, 0))
    frames = []
    at = 0
    for n in range(40):
        at += rng.randint(1, 30) * S // 10
        if n % 3 == 0:
            st = apply(st, Press(at, n % 2))
        v = view(st, at)
        frames += [screens.render(v, 0), screens.render(v, 1)]
    img = frames[-1]
    for _ in range(40):
        img = img.copy()
        if rng.random() < 0.3:
            img = screens.inverted(img)
        draw = ImageDraw.Draw(img)
        for _ in range(rng.randint(0, 4)):
            x, y = rng.randrange(128), rng.randrange(64)
            draw.rectangle((x, y, x + rng.randrange(40), y + rng.randrange(20)), fill=rng.randint(0, 1))
        frames.append(img)
    frames.append(Image.frombytes("1", (128, 64), random_bytes(rng, 1024, 0.5)))
    return frames


@pytest.mark.parametrize("new_cls,ref_cls", [(DiffSSD1306, RefSSD1306), (DiffSH1106, RefSH1106)])
@pytest.mark.parametrize("rotate", [0, 2])
@pytest.mark.parametrize("cut", [False, True])
def test_the_same_bytes_on_the_wire_as_before(new_cls, ref_cls, rotate, cut):
    """Frame by frame (clock screens with presses: the polarity flips; random edits), through
    display(), through flip_first() then display() as the sink does at a press, flip_first() whose
    display() never comes (the sink cut it), luma's own full frame now and then, and with `cut` newer
    frames cutting some short (the RAM then partly the old frame's): the new driver sends exactly what
    a driver planning with the old algorithms sends."""
    frames = _frames(random.Random(rotate + 3))
    wires = Wire(), Wire()
    new, ref = new_cls(wires[0], rotate=rotate), ref_cls(wires[1], rotate=rotate)
    for dev in (new, ref):
        dev.initialize()
        if cut:  # the same pattern of "a newer frame waits" for both
            pattern = random.Random(9)
            dev.preempt = lambda p=pattern: p.random() < 0.2
    for i, img in enumerate(frames):
        for dev in (new, ref):
            if i % 5 == 1:
                dev.flip_first(img)
            if i % 11 == 4:
                dev.flip_first(img)
                continue  # flipped (maybe), its bytes never sent
            if i == 30:
                dev.stock_display(img)
                continue
            dev.display(img)
        assert wires[0].calls == wires[1].calls, f"frame {i}"
        assert new.inverted == ref.inverted and new.partial == ref.partial
    assert any(c == ("command", (0xA7,)) for c in wires[0].calls)  # the flips were exercised
    assert not cut or new.preempted > 0
