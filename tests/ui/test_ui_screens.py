"""Screens render a view dict to a 128x64 1-bit image: digits, running indicator, status tags."""
from __future__ import annotations

import pytest

from gameclock.core.clock import apply, new_game, view
from gameclock.core.events import Pause, Press, Start
from gameclock.rules.loader import find_preset
from gameclock.ui import screens

S = 1_000_000_000


def game(preset_id):
    p = find_preset(preset_id)
    return new_game(p.control_for_game(1), label=p.short)


def lit(img, box):
    x0, y0, x1, y1 = box
    return sum(1 for y in range(y0, y1 + 1) for x in range(x0, x1 + 1) if img.getpixel((x, y)))


BAR = (0, screens.BAR_ROWS[0], 127, screens.BAR_ROWS[1])
DIGITS = (0, screens.DIGIT_ROWS[0], 127, screens.DIGIT_ROWS[1])
STATUS = (0, screens.STATUS_ROWS[0], 127, screens.STATUS_ROWS[1])
AREA = lambda box: (box[2] - box[0] + 1) * (box[3] - box[1] + 1)  # noqa: E731


def test_size_and_mode():
    img = screens.render(view(game("makruk-45"), 0), "left")
    assert img.size == (128, 64) and img.mode == "1"


def test_running_side_has_the_lit_bar_and_the_other_not():
    st = apply(game("makruk-45"), Start(0, 1))
    v = view(st, 3 * S)
    left, right = screens.render(v, 0), screens.render(v, 1)
    assert lit(right, BAR) > 0.7 * AREA(BAR)
    assert lit(left, BAR) < 0.2 * AREA(BAR)
    assert lit(left, DIGITS) > 300 and lit(right, DIGITS) > 300


def test_digits_are_big_and_centred():
    img = screens.render(view(game("makruk-45"), 0), 0)
    box = img.crop(DIGITS).getbbox()
    x0, y0, x1, y1 = box
    assert y1 - y0 >= 30  # about 6 mm on a 0.96" OLED: readable from a metre
    assert x1 - x0 >= 100
    assert abs((x0 + x1) / 2 - 64) <= 3


def test_digits_change_with_the_display_string():
    v = view(apply(game("makruk-45"), Start(0, 0)), 0)
    a = screens.render(v, 0)
    v["sides"]["left"]["display"] = "44:59"
    assert screens.render(v, 0).tobytes() != a.tobytes()


@pytest.mark.parametrize("text", ["45:00", "1:02:03", "-3:18", "9.7", "-10:00"])
def test_every_display_fits(text):
    size = screens.digit_font_size(text)
    assert screens.font(size).getlength(text) <= 124


def test_no_indicator_when_paused_and_the_tag_says_so():
    st = apply(apply(game("makruk-45"), Start(0, 0)), Pause(2 * S, ))
    v = view(st, 3 * S)
    assert lit(screens.render(v, 0), BAR) < 0.2 * AREA(BAR)
    assert "PAUSE" in screens.status_tags(v, 0)


def test_flag_inverts_the_status_row():
    st = apply(game("makruk-30"), Start(0, 0))
    v = view(st, 31 * 60 * S)
    assert v["sides"]["left"]["flagged"]
    img = screens.render(v, 0)
    assert lit(img, STATUS) > 0.7 * AREA(STATUS)
    assert "FLAG" in screens.status_tags(v, 0) and "END" in screens.status_tags(v, 1)
    assert "FLAG" in screens.caption(v)


def test_overtime_tag_shows_the_penalty():
    st = apply(game("crossword"), Start(0, 0))
    v = view(st, (22 * 60 + 198) * S)
    assert v["sides"]["left"]["display"] == "-3:18"
    assert "OT -40" in screens.status_tags(v, 0)


def test_per_move_shows_extra_time():
    st = apply(game("makhos-move"), Start(0, 0))
    v = view(st, S)
    assert "EXT 2" in screens.status_tags(v, 0)
    assert screens.bottom_text(v, 0)[1] == "+10:00"


def test_round_indicator_per_competitor():
    st = apply(apply(game("sudoku-60"), Start(0, 0)), Press(40 * 60 * S, 0))
    v = view(st, 41 * 60 * S)
    assert not screens.is_running(v, 0) and screens.is_running(v, 1)
    assert screens.bottom_text(v, 0)[1].startswith("DONE +")


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
