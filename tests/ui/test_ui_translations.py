"""Issue 15: the words the clock builds from parts are in the clock's language too -- the result
entry's items, the corrections' labels, the dock's tag, how a game ended, the pairing's messages --
and every Thai template keeps the English one's blanks (a missing one would print "{side}")."""
from __future__ import annotations

import string

from gameclock.core.scoring import Scoring
from gameclock.ui import messages
from gameclock.ui.menu import say
from gameclock.ui.resultentry import ResultEntry
from gameclock.ui.resultscreens import line_in
from gameclock.ui.text_th import TH


def blanks(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_thai_template_has_the_english_blanks():
    assert {k: blanks(v) for k, v in TH.items() if blanks(k) != blanks(v)} == {}


def test_labels_built_from_parts():
    assert say("Extra right 2x5:00", "th") == "พิเศษขวา 2x5:00"  # issue 27: one menu line at 15 px
    assert say("Take back left extra", "th") == "คืนเวลาพิเศษซ้าย"
    assert say("Right +5:00?", "th") == "ขวา +5:00?"
    assert say("Left: Anan S.", "th") == "ซ้าย: Anan S."
    assert say("Next R3 T12: A v B", "th") == "ถัดไป รอบ 3 โต๊ะ 12: A v B"
    assert say("Extra right 2x5:00", "en") == "Extra right 2x5:00"


def test_the_result_entrys_items_in_thai():
    clock = {"sides": {"left": {"flagged": False}, "right": {"flagged": False}}}
    r = ResultEntry(Scoring(kind="makruk"), clock)
    # opened on the first missing item, the outcome, being edited: the first choice the knob offers
    # (issue 27: the agreed draw, the commonest ending beside the resignations one notch away)
    assert r.view("th")["items"] == ["[เสมอ: ตกลงเสมอ]", "หมากซ้าย ?", "หมากขวา ?", "ยืนยัน >"]
    assert r.view()["items"][0] == "[Draw: agreed]"


def test_the_dock_tag_and_the_review_line():
    assert messages.dock_words("DOCK 1/3", "th") == "ส่งผล 1/3"
    assert messages.dock_words("DOCK OK", "th") == "ส่งผลครบ"
    assert messages.dock_words("DOCK OK", "en") == "DOCK OK"
    assert line_in("LEFT WINS: MATE", "th") == "ซ้ายชนะ: รุกจน"
    assert line_in("DRAW: REPETITION", "th") == "เสมอ: เดินซ้ำ"


def test_a_message_written_in_thai_shows_its_short_words():
    assert messages.short("ไม่รับการจับคู่: ไม่มีรูปแบบเวลา x ในนาฬิกาเครื่องนี้") == "Pairing refused"
    assert messages.short("การจับคู่: R3 T5 A v B") == "Pairing received"
