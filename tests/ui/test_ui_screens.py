"""Screens render a view dict to a 128x64 1-bit image: digits, running indicator, status tags.
Views come from the real core (new_game / apply / view); the whole pictures are checked by the
golden screens (test_ui_golden.py); these tests name the properties one by one."""
from __future__ import annotations

import pytest

from gameclock.core.clock import apply, new_game, view
from gameclock.core.events import Extend, Pause, Press, Start
from gameclock.rules.loader import find_preset
from gameclock.ui import screens

S = 1_000_000_000



def head(v, side) -> str:
    """The headline's text as `render` draws it ("" when there is none)."""
    h = screens.headline(v, side)
    return h[0] if h else ""

def game(preset_id):
    p = find_preset(preset_id)
    return new_game(p.control_for(), label=p.short)


def lit(img, box):
    x0, y0, x1, y1 = box
    return sum(1 for y in range(y0, y1 + 1) for x in range(x0, x1 + 1) if img.getpixel((x, y)))


BAR = (0, screens.BAR_ROWS[0], 127, screens.BAR_ROWS[1])
DIGITS = (0, screens.DIGIT_ROWS[0], 127, screens.DIGIT_ROWS[1])
STATUS = (0, screens.STATUS_ROWS[0], 127, screens.STATUS_ROWS[1])
AREA = lambda box: (box[2] - box[0] + 1) * (box[3] - box[1] + 1)  # noqa: E731


def page_of(row):
    return row // 8


def test_size_and_mode():
    img = screens.render(view(game("makruk-45"), 0), "left")
    assert img.size == (128, 64) and img.mode == "1"


def test_layout_keeps_status_and_bottom_lines_in_one_page_each():
    """The status line is controller page 0 and the bottom line page 7; the digits have the pages
    in between (a change of the moves or a tag costs one page's columns, not the digits')."""
    assert page_of(screens.STATUS_ROWS[0]) == 0 and screens.STATUS_ROWS[1] < screens.DIGIT_ROWS[0]
    assert page_of(screens.BAR_ROWS[0]) == page_of(screens.BAR_ROWS[1]) == 7
    assert screens.DIGIT_ROWS[1] < screens.BAR_ROWS[0]


def test_the_running_side_is_inverted_and_the_other_not():
    st = apply(game("makruk-45"), Start(0, 1))
    v = view(st, 3 * S)
    left, right = screens.render(v, 0), screens.render(v, 1)
    whole = (0, 0, 127, 63)
    assert lit(right, whole) > 0.6 * AREA(whole)  # white screen, black digits
    assert lit(left, whole) < 0.4 * AREA(whole)
    assert lit(left, DIGITS) > 300 and AREA(DIGITS) - lit(right, DIGITS) > 300


def test_a_switch_is_an_inversion_plus_the_moves():
    """At a press the starting side's screen becomes exactly the inverse of what it was, and the
    stopping side's the inverse of its own except the bottom line (its moves went up): what the
    display driver turns into one polarity command (device/oled.py)."""
    st = apply(game("makruk-45"), Start(0, 0))
    before = view(st, 3_500_000_000)
    after = view(apply(st, Press(3_600_000_000, 0)), 3_600_000_000)  # same digits, right runs now
    assert screens.render(after, 1).tobytes() == screens.inverted(screens.render(before, 1)).tobytes()
    a, b = screens.inverted(screens.render(before, 0)), screens.render(after, 0)
    changed_rows = {y for y in range(64) for x in range(128) if bool(a.getpixel((x, y))) != bool(b.getpixel((x, y)))}
    assert changed_rows and {page_of(y) for y in changed_rows} == {7}


def test_digits_are_big_and_centred():
    img = screens.render(view(game("makruk-45"), 0), 0)
    box = img.crop(DIGITS).getbbox()
    x0, y0, x1, y1 = box
    assert y1 - y0 >= 36  # about 7 mm on a 0.96" OLED: readable from a metre
    assert x1 - x0 >= 100
    assert abs((x0 + x1) / 2 - 64) <= 3


def test_digits_change_with_the_display_string():
    v = view(apply(game("makruk-45"), Start(0, 0)), 0)
    a = screens.render(v, 0)
    v["sides"]["left"]["display"] = "44:59"
    assert screens.render(v, 0).tobytes() != a.tobytes()


def test_a_changing_digit_leaves_the_others_in_place():
    """Tabular digits placed by advance: 44:59 -> 44:58 changes only the last digit's columns."""
    a, b = screens.big_digits("44:59"), screens.big_digits("44:58")
    assert a.size == b.size
    cols = [x for x in range(a.width) if any(bool(a.getpixel((x, y))) != bool(b.getpixel((x, y))) for y in range(a.height))]
    assert cols and min(cols) > a.width * 0.7


@pytest.mark.parametrize("text", ["45:00", "1:02:03", "-3:18", "9.7", "-10:00", "-1:02:03"])
def test_every_display_fits(text):
    img = screens.big_digits(text)
    assert img.width <= screens.DIGIT_MAX_W
    assert img.height <= screens.DIGIT_ROWS[1] - screens.DIGIT_ROWS[0] + 1
    assert img.getbbox() is not None


def test_no_inversion_when_paused_and_the_tag_says_so():
    st = apply(apply(game("makruk-45"), Start(0, 0)), Pause(2 * S, ))
    v = view(st, 3 * S)
    left, right = screens.render(v, 0), screens.render(v, 1)
    digits = (0, screens.HEAD_DIGIT_ROWS[0], 127, screens.HEAD_DIGIT_ROWS[1])
    assert lit(left, digits) < 0.5 * AREA(digits)  # not the running screen's inversion
    assert lit(left, BAR) < 0.5 * AREA(BAR)
    # issue 15: PAUSE unmistakable, a white band with black letters (READY is white on black)
    assert screens.headline(v, 0) == ("PAUSE", "invert")
    band = (0, screens.HEAD_ROWS[0], 127, screens.HEAD_ROWS[1])
    assert lit(left, band) > 0.6 * AREA(band)
    # the side that resumes has an open bar: its top edge lit, the other side's not
    assert all(left.getpixel((x, screens.BAR_ROWS[0])) for x in range(128))
    assert not any(right.getpixel((x, screens.BAR_ROWS[0])) for x in range(128))


def test_flag_inverts_the_status_row():
    st = apply(game("makruk-30"), Start(0, 0))
    v = view(st, 31 * 60 * S)
    assert v["sides"]["left"]["flagged"]
    img = screens.render(v, 0)
    assert lit(img, STATUS) > 0.7 * AREA(STATUS)
    assert lit(img, DIGITS) < 0.5 * AREA(DIGITS)  # the game is over: nothing runs, no inversion
    # the headline: FLAG on the side that flagged (white band), the other names it
    assert screens.headline(v, 0) == ("FLAG", "invert") and screens.headline(v, 1) == ("LEFT FLAG", "plain")
    assert "FLAG" in screens.caption(v)


def test_overtime_tag_shows_the_penalty():
    st = apply(game("crossword"), Start(0, 0))
    v = view(st, (22 * 60 + 198) * S)
    assert v["sides"]["left"]["display"] == "-3:18"
    assert head(v, 0) == "OT -40"  # XW-3: 3:18 over, 4 started minutes x 10 points


def test_per_move_shows_extra_time_left():
    st = apply(game("makhos-move-2x5"), Start(0, 0))
    v = view(st, S)
    assert screens.bottom_text(v, 0)[1] == "EXT 2x5"
    st = apply(st, Extend(2 * S, 0, 5 * 60 * S))
    v = view(st, 3 * S)
    assert screens.bottom_text(v, 0)[1] == "EXT 1x5"
    st = apply(st, Extend(4 * S, 0, 5 * 60 * S))
    assert screens.bottom_text(view(st, 5 * S), 0)[1] == "EXT 0"


def test_counting_shows_count_and_limit():
    """A later issue adds Makruk/Makhos counting to the view as {"kind","side","count","limit"}."""
    v = view(apply(game("makruk-45"), Start(0, 0)), 3 * S)
    v["counting"] = {"kind": "board", "side": "left", "count": 5, "limit": 8}
    assert head(v, 0) == head(v, 1) == "LEFT COUNTS 5/8"  # the counting side, on both displays
    assert screens.render(v, 1).tobytes() != screens.render(view(apply(game("makruk-45"), Start(0, 0)), 3 * S), 1).tobytes()


def test_the_headline_puts_the_most_important_first_and_joins_what_fits():
    v = view(apply(game("crossword"), Start(0, 0)), (22 * 60 + 198) * S)
    v["state"] = "paused"
    v["counting"] = {"kind": "board", "side": "left", "count": 12, "limit": 64}
    # issue 27: paused, PAUSE first (the band white, its bars at both ends), then the penalty; "PAUSE  OT -40
    # LEFT COUNTS 12/64" would need letters under 11 px between the bars, so the count goes to the bottom
    # line, where it is still read
    assert screens.headline_parts(v, 0) == ("PAUSE  OT -40", "invert", "LEFT COUNTS 12/64")
    joined = screens.textline.place("PAUSE  OT -40  LEFT COUNTS 12/64", screens.PAUSED_W, screens.HEAD_H, bold=True)
    assert joined.font.size < screens.HEAD_MIN_PX
    # running: the penalty first, the count after it on the bottom line
    v["state"] = "running"
    assert screens.headline_parts(v, 0) == ("OT -40", "plain", "LEFT COUNTS 12/64")


def test_round_indicator_per_competitor():
    st = apply(apply(game("sudoku-60"), Start(0, 0)), Press(40 * 60 * S, 0))
    v = view(st, 41 * 60 * S)
    assert not screens.is_running(v, 0) and screens.is_running(v, 1)
    assert lit(screens.render(v, 1), DIGITS) > 0.5 * AREA(DIGITS) > lit(screens.render(v, 0), DIGITS)
    assert screens.bottom_text(v, 0)[1].startswith("DONE +")


def test_byoyomi_periods_and_stage():
    st = apply(game("byoyomi-10+5x30"), Start(0, 0))
    assert screens.bottom_text(view(st, S), 0)[1] == "P5"
    v = view(st, (10 * 60 + 5) * S)
    assert v["sides"]["left"]["in_byoyomi"]
    assert screens.bottom_text(v, 0)[1].startswith("BYO ")
    assert screens.bottom_text(view(apply(game("fide-classical"), Start(0, 0)), S), 0)[1] == "S1"


def test_tiny_font_draws_known_characters_and_blanks_unknown():
    from PIL import Image
    img = Image.new("1", (40, 8))
    screens.draw_tiny(img, 0, 0, "M1", 1)
    assert img.getbbox() == (0, 0, 10, 7)  # M: x 0-4; 1 (6 px on): ink x 7-9; rows 0-6
    blank = Image.new("1", (40, 8))
    screens.draw_tiny(blank, 0, 0, "~~", 1)
    assert blank.getbbox() is None


def test_caption_is_plain_text():
    st = apply(game("makruk-45"), Start(0, 1))
    assert screens.caption(view(st, 2 * S)) == "LEFT 45:00     RIGHT 44:58 ▶   [running]"


def test_menu_screen_highlights_the_selected_item():
    mv = {"title": "PRESET", "items": ["A", "B", "C", "D", "E", "F"], "index": 4}
    img = screens.render_menu(mv)
    assert img.size == (128, 64) and img.mode == "1"
    rows = [lit(img, (0, 12 + r * 13, 127, 24 + r * 13)) for r in range(4)]
    # index 4 with one row of context above: rows show C D E F, E (row 2) inverted
    assert rows.index(max(rows)) == 2 and max(rows) > 0.7 * 128 * 13


def test_alert_text():
    assert screens.alert_text({"t_ms": 1, "side": "left", "kind": "low-time"}) == "BEEP low-time left"
    assert screens.alert_text({"t_ms": 1, "side": "right", "kind": "announce", "remaining_ms": 10_000}) \
        == "BEEP announce right 0:10 left"
    assert screens.alert_text({"t_ms": 1, "side": None, "kind": "cut"}) == "BEEP cut"


def test_the_level_shows_at_ready_and_paused_only():
    # XW-8: the level is part of the game's set-up: the loop puts it in the view ("LEVEL?" when a preset
    # with several levels has none set); the ready and paused screens show it, a running clock does not
    v = view(game("crossword"), 0)
    v["level"] = "LEVEL?"
    assert head(v, 0) == "READY  LEVEL?"
    st = apply(game("crossword"), Start(0, 0))
    running = dict(view(st, 5 * S), level="SECONDARY")
    assert screens.headline(running, 0) is None  # a clock simply running: no headline
    paused = dict(view(apply(st, Pause(6 * S)), 7 * S), level="SECONDARY")
    # issue 27: between the pause bars "PAUSE  SECONDARY" needs letters under 11 px: the level is on the
    # bottom line (the other tags that do not fit the band go there)
    assert screens.headline_parts(paused, 1) == ("PAUSE", "invert", "SECONDARY")


def test_move_now_tag_for_the_stopwatch_preset():
    # MH-2 `call` (seed 004): past the move's 2:00 the mover's status line says MOVE NOW, not OT
    st = apply(apply(game("makhos-stopwatch"), Start(0, 0)), Press(10 * S, 0))
    v = view(st, 135 * S)
    assert screens.headline(v, 1) == ("MOVE NOW", "invert")
    assert screens.headline(v, 0) is None
