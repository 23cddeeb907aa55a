"""Every mark of every word the clock can show is drawn, and no ink leaves its line (issue 27: at 10 px
the review's "ผลการแข่งขัน" read "มลการแขงขน", its tone mark and upper vowel gone).

The words come from the catalogues, never listed here: every Thai string of `ui/text_th.TH` (its
templates filled with figures and names), the other Thai texts the clock shows (the language's own
name, the dock's words, the players' and events' names the golden states use), and in English every
English key of the catalogue. The places are the screens' own: every line box the screens draw with
`textline.draw_line` while the golden states (tests/ui/golden_states.py and make_goldens.py's states of
every preset, the real loop and the real screens) are rendered in that language is recorded with its
arguments, and every catalogue string is drawn in every such box through the screens' code path
(`textline.place`, `textline.draw_placed`). A line fails when

- a Thai combining mark (U+0E31, U+0E34-0E3A, U+0E47-0E4E) draws no ink of its own: the line drawn with
  the same font, size and origin but without that one mark has every pixel the line has, or
- any ink falls outside the line's box (cut at its top or bottom, or into the next line or the digits).

And each line the golden states draw in Thai is drawn at textline.THAI_MIN_PX or more (the size at
which Loma's marks and loops survive: issue 27)."""
from __future__ import annotations

import re
import string
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from gameclock.rules.loader import load_presets
from gameclock.ui import menu, messages, screens, textline
from gameclock.ui.text_th import TH

sys.path.insert(0, str(Path(__file__).resolve().parent))
from golden_states import PAIRING_TH, THAI_EVENT, screen_states  # noqa: E402
from make_goldens import LANGS, states  # noqa: E402

PRESETS = load_presets()
TINY: dict[str, set[str]] = {}
PAD = 24
NAMES = ["ผู้เล่น", "กิ่งก้าน", "น้ำ", "ปุ๋ย", "มาลี ใจดี", "ฐิติญาณ ปฏิภาณ", "ฎีกา ปู่ฤๅษี"]  # stacked marks, descenders


def _fill(template: str, lang: str) -> str:
    """A catalogue template with its {fields} filled as the clock fills them: figures, a side, a name."""
    side = TH["left"] if lang == "th" else "left"
    values = {"side": side, "name": NAMES[5] if lang == "th" else "Srisuk, Somchai", "players": "อนันต์ - บุญมี",
              "why": TH["is not on this clock"] if lang == "th" else "is not on this clock", "what": "12",
              "preset": "makruk-45", "option": "2x5:00", "time": "5:00"}
    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    return template.format(**{f: values.get(f, "64") for f in fields}) if fields else template


def catalogue(lang: str) -> list[str]:
    """Every string the clock can show in `lang`, from the catalogues."""
    if lang == "th":
        texts = set(TH.values()) | set(menu.LANGUAGE_NAMES.values())
        texts |= {messages.dock_words(w + " 12/64", "th") for w in messages.DOCK_WORDS}
        texts |= set(NAMES) | set(PAIRING_TH["players"].values()) | {THAI_EVENT}
    else:
        texts = set(TH) | {w + " 12/64" for w in messages.DOCK_WORDS} | {"Srisuk, Somchai", "Nguyễn Văn An"}
    return sorted({_fill(t, lang) for t in texts})


def _canvas(p: textline.Placed, width: int, height: int) -> Image.Image:
    """The placed line drawn through the screens' code path on a canvas PAD px larger on every side."""
    img = Image.new("L", (width + 2 * PAD, height + 2 * PAD), 0)
    textline.draw_placed(ImageDraw.Draw(img), PAD, PAD, p, height, 255)
    return img.point([0] * 128 + [255] * 128)


def _without(p: textline.Placed, index: int) -> textline.Placed:
    """`p` without the letter at `index` of its text (same font, size and origin)."""
    runs, at = [], 0
    for run in p.runs:
        n = 1 if run is None else len(run)
        if run is not None and at <= index < at + n:
            run = run[:index - at] + run[index - at + 1:]
        runs.append(run)
        at += n
    return replace(p, runs=tuple(runs))


def problems(text: str, width: int, height: int, kw: dict[str, Any]) -> list[str]:
    """What is wrong with `text` drawn in a `width` x `height` box with `kw` ([] when nothing)."""
    return problems_of(textline.place(text, width, height, **kw), width, height)


def problems_of(p: textline.Placed, width: int, height: int) -> list[str]:
    full = _canvas(p, width, height)
    out = []
    box = full.crop((PAD, PAD, PAD + width, PAD + height))
    if sum(full.histogram()[1:]) != sum(box.histogram()[1:]):
        out.append(f"ink outside its {width}x{height} box at {p.font.size} px")
    shown = p.text
    for i, ch in enumerate(shown):
        if ch in textline.THAI_MARKS:
            bare = _canvas(_without(p, i), width, height)
            if ImageChops.subtract(full, bare).getbbox() is None:  # every pixel of the line is the bare one's
                out.append(f"U+{ord(ch):04X} at {i} draws no ink of its own at {p.font.size} px")
    return out


class _Recorder:
    """Every `textline.draw_line` call while the golden states render: (text, width, height, kw); and
    every text drawn in the 5x7 font (`screens.draw_tiny`)."""

    def __init__(self) -> None:
        self.calls: set[tuple[str, int, int, tuple[tuple[str, Any], ...]]] = set()
        self.tiny: set[str] = set()

    def draw_tiny(self, img: Image.Image, x: int, y: int, text: str, fill: int, anchor: str = "l") -> None:
        self.tiny.add(text)
        _TINY(img, x, y, text, fill, anchor)

    def __call__(self, img: Image.Image, box: tuple[int, int, int, int], text: str, fill: int, **kw: Any) -> None:
        x0, y0, x1, y1 = box
        self.calls.add((text, x1 - x0 + 1, y1 - y0 + 1, tuple(sorted(kw.items()))))
        _DRAW(img, box, text, fill, **kw)


_DRAW = textline.draw_line
_TINY = screens.draw_tiny


@pytest.fixture(scope="module")
def drawn() -> dict[str, set[tuple[str, int, int, tuple[tuple[str, Any], ...]]]]:
    """{lang: the lines the screens draw in the golden states of `lang`}."""
    out = {}
    mp = pytest.MonkeyPatch()
    try:
        for lang in LANGS:
            rec = _Recorder()
            mp.setattr(textline, "draw_line", rec)
            mp.setattr(screens, "draw_tiny", rec.draw_tiny)
            screen_states(lang, PRESETS)
            for preset in PRESETS:
                states(preset, PRESETS, lang)
            out[lang] = rec.calls
            TINY[lang] = rec.tiny
    finally:
        mp.undo()
    return out


def test_the_screens_draw_lines_in_both_languages(drawn):
    # the recording sees the screens' lines: Thai lines in Thai, and the boxes are the screens' own
    assert any(textline.has_thai(t) for t, *_ in drawn["th"])
    assert len({(w, h, kw) for _, w, h, kw in drawn["th"]}) >= 5


@pytest.mark.parametrize("lang", LANGS)
def test_every_line_the_golden_states_draw_keeps_its_marks_and_its_box(drawn, lang):
    bad = {}
    for text, w, h, kw in sorted(drawn[lang]):
        found = problems(text, w, h, dict(kw))
        if found:
            bad[text] = found[:2]
    assert not bad, f"{len(bad)} lines: {dict(list(bad.items())[:8])}"


def test_every_thai_line_the_golden_states_draw_is_large_enough(drawn):
    # issue 27: THAI_MIN_PX is the size at which every mark and loop of Loma survives
    small = {}
    for text, w, h, kw in sorted(drawn["th"]):
        if textline.has_thai(text):
            size = textline.place(text, w, h, **dict(kw)).font.size
            if size < textline.THAI_MIN_PX:
                small[text] = (size, w, h)
    assert not small, f"{len(small)} Thai lines under {textline.THAI_MIN_PX} px: {dict(list(small.items())[:10])}"


def test_every_thai_line_the_golden_states_draw_is_whole(drawn):
    # issue 27: a Thai line too long for its box is cut with "…" rather than shrunk below THAI_MIN_PX: the
    # clock's own words are chosen to fit (a name or an event from the organiser's PC may be cut)
    # (a line of several tags joined, "พร้อม  ประถม  นัดสุดท้าย", keeps its first whole: the others were
    # joined while they fit, in order of importance)
    theirs = [*PAIRING_TH["players"].values(), THAI_EVENT]
    cut = sorted(text for text, w, h, kw in drawn["th"]
                 if not textline.place(text, w, h, **dict(kw)).text.startswith(text.split("  ")[0])
                 and not any(n in text for n in theirs))
    assert not cut, cut


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalogue_string_in_every_box_of_the_screens(drawn, lang):
    # a box sized to its own text (a review line: ui/resultscreens.py review_pages) is no place for
    # another: the other text gets a box of its own rows
    texts_in: dict[tuple[int, int, tuple[tuple[str, Any], ...]], set[str]] = defaultdict(set)
    for text, w, h, kw in drawn[lang]:
        texts_in[(w, h, kw)].add(text)
    boxes = sorted(b for b, texts in texts_in.items()
                   if not all(textline.ink_rows(t, **dict(b[2])) == b[1] for t in texts))
    bad: dict[str, list[str]] = defaultdict(list)
    for w, h, kw in boxes:
        for text in catalogue(lang):
            for found in problems(text, w, h, dict(kw))[:1]:
                bad[text].append(f"{w}x{h} {dict(kw)}: {found}")
    assert not bad, f"{len(bad)} strings: {dict(list(bad.items())[:6])}"


def test_a_thai_screen_has_words_not_latin_abbreviations(drawn):
    # issue 27: XWORD 22, MAKRUK 30, L/R, OT, EXT, K+, M12 on a Thai screen; the figures stay (2x5, 7/8,
    # 12:34), and so do names and events from the organiser's PC, which are not the clock's words
    latin = re.compile(r"(?<![0-9])[A-Za-z]+|[A-Za-z]+(?![0-9])")
    own = [t for t, *_ in drawn["th"]] + sorted(TINY["th"])
    found = {t: latin.findall(t) for t in own if latin.findall(t) and t not in PAIRING_TH.values()}
    assert not found, found


def test_the_check_finds_a_lost_mark_and_ink_outside():
    # the check itself (issue 27's defect): ผลการแข่งขัน drawn at 9 px, as the review's title nearly was,
    # keeps no pixel of its own for the tone mark; a box lower than the smallest size lets the ink out
    small = textline.font_at(textline.thai_font_path(False), 9)
    at_9 = replace(textline.place("ผลการแข่งขัน", 120, 20, max_size=16), font=small, fonts=(small,))
    assert problems_of(at_9, 120, 20) == ["U+0E48 at 7 draws no ink of its own at 9 px"]
    assert any("outside" in p for p in problems("ผลการแข่งขัน", 120, 3, {"bold": True}))
    # and a line with room keeps every mark inside its box
    assert problems("ผลการแข่งขัน", 120, 20, {"bold": True, "max_size": 16}) == []
