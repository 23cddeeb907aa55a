"""Thai line breaks (desk/thaiwrap.py, issue 28): a name's Thai parts never wrap inside, a line breaks only
between them; the page's other Thai words each unbreakable with a break allowed between words; the players'
names inside a note kept whole, not cut by the dictionary; escaping kept; English and Latin as they are.
The expected segmentations are a Thai reader's (คะแนน|เหรียญ "medal score", ชิง|อันดับ|ที่ 3 "for 3rd place")."""
from __future__ import annotations

import re

from gameclock.organiser.desk.thaiwrap import name_html, words_html


def pieces(html: str, cls: str) -> list[str]:
    return re.findall(rf'<span class="{cls}">(.*?)</span>', html)


def test_a_name_breaks_only_between_its_parts():
    # ณัฏฐ์ธยาน์ is in no dictionary (Chromium's ICU split it ณัฏฐ์ธ / ยาน์): one piece all the same
    html = str(name_html("ณัฏฐ์ธยาน์ ศรีสุขสวัสดิ์"))
    assert html == '<span class="np">ณัฏฐ์ธยาน์</span> <span class="np">ศรีสุขสวัสดิ์</span>'
    assert str(name_html("Anan <Wong>")) == "Anan &lt;Wong&gt;"          # Latin: a browser breaks it at spaces
    assert str(name_html(None)) == ""


def test_the_pages_thai_words_are_pieces_with_a_break_between():
    html = str(words_html("คะแนนเหรียญ"))
    assert pieces(html, "w") == ["คะแนน", "เหรียญ"] and "</span><wbr><span" in html
    label = str(words_html("ชิงอันดับที่ 3"))
    assert pieces(label, "w") == ["ชิง", "อันดับ", "ที่"]
    assert label.endswith("</span>&nbsp;3")                    # the number stays with its word
    assert str(words_html("(ยังไม่เป็นทางการ)")).startswith("(<span")   # no break after "("
    assert str(words_html("Medal score", "th")) == "Medal score"        # no Thai: as it is
    assert str(words_html("คะแนน", "en")) == "คะแนน"                     # an English page: as it is
    assert "&lt;b&gt;" in str(words_html("คะแนน <b>"))


def test_the_players_names_in_a_note_stay_whole():
    names = frozenset({"ณัฐณิชา ศรีสุขสวัสดิ์", "ภูริณัฐ บุญประเสริฐ"})
    html = str(words_html("อันดับ 1-2: ภูริณัฐ บุญประเสริฐ, ณัฐณิชา ศรีสุขสวัสดิ์", "th", names))
    # the dictionary would cut ศรีสุขสวัสดิ์ into ศรี|สุข|สวัสดิ์: said as a name, it is one piece
    assert pieces(html, "np") == ["ภูริณัฐ", "บุญประเสริฐ", "ณัฐณิชา", "ศรีสุขสวัสดิ์"]
    assert pieces(html, "w") == ["อันดับ"]
