"""What a draft draws or continues, said by the desk in Thai and English (issue 25): every template a
pairing system builds its words from (`model.words("...")` in organiser/pairing/) has its Thai in
desk/i18n.py with the same fields, and the event's page shows a draft's words, its Redraw only where a
seed draws something, in the page's language."""
from __future__ import annotations

import ast
import re
import string
import sys
from pathlib import Path

from deskhelp import csrf_of, said_after

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "organiser_event"))

from playkit import play  # noqa: E402

from gameclock.organiser import event as events  # noqa: E402
from gameclock.organiser.desk import i18n  # noqa: E402

PAIRING = Path(__file__).resolve().parents[2] / "firmware" / "gameclock" / "organiser" / "pairing"


def templates() -> set[str]:
    out = set()
    for path in PAIRING.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "words" and node.args
                    and isinstance(node.args[0], ast.Constant) and node.args[0].value):
                out.add(node.args[0].value)
    return out


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_template_of_a_drafts_words_has_its_thai_with_the_same_fields():
    found = templates()
    assert len(found) > 30                       # the systems' words were found
    for text in sorted(found):
        assert text in i18n.TH, f"no Thai for {text!r}"
        assert fields(i18n.TH[text]) == fields(text), text
        assert re.search("[\u0e01-\u0e2e]", i18n.TH[text]) or not re.sub(r"\{\w+\}|[\s:()]", "", text), text


FOUR = "id,name\n" + "".join(f"{i},Player {i}\n" for i in "ABCD")


def test_the_event_page_says_the_draft_and_offers_redraw_only_where_a_seed_draws(organiser):
    store = organiser.app.state.desk.store
    token = csrf_of(organiser.get("/admin/events/new").text)
    assert organiser.post("/admin/events/new", data={"csrf": token, "name": "ko", "system": "makruk-ko",
                                                    "format": "csv", "players": FOUR, "language": "th"}
                          ).status_code == 303
    organiser.post("/admin/e/ko/pair", data={"csrf": token})
    page = organiser.get("/admin/e/ko").text
    # round 1: the bracket drawn now, a Redraw offered; said in the event's language (Thai)
    assert 'data-testid="redraw"' in page and i18n.TH["Redraw (a new seed)"] in page
    assert "สายการแข่งขันจับสลากในรอบที่ 1" in page and "รอบรองชนะเลิศ คู่ที่ 1: กระดานที่ 1 จาก 2" in page
    english = organiser.get("/admin/e/ko?lang=en").text
    assert "the bracket drawn for round 1 by lot" in english and "semi-final 1: game 1 of 2 (coin toss: " in english
    before = events.draft_of(store, "ko")
    r = organiser.post("/admin/e/ko/redraw", data={"csrf": token})
    assert "drawn again" in said_after(organiser, r)
    assert events.draft_of(store, "ko")["seed"] != before["seed"]
    organiser.post("/admin/e/ko/publish", data={"csrf": token})
    play(store, "ko", events.round_of(store, "ko"), lambda b: "left", kind="makruk")
    organiser.post("/admin/e/ko/pair", data={"csrf": token})
    page = organiser.get("/admin/e/ko?lang=en").text
    # round 2 continues the bracket kept: no Redraw; a Redraw asked for anyway is refused, saying why
    assert 'data-testid="redraw"' not in page and "continues the bracket drawn for round 1 (lot seed " in page
    assert "game 2 of 2, sides swapped" in page
    assert "กระดานที่ 2 จาก 2 สลับฝ่ายเดินก่อน" in organiser.get("/admin/e/ko?lang=th").text
    r = organiser.post("/admin/e/ko/redraw", data={"csrf": token})
    assert "draws nothing a new seed could change" in said_after(organiser, r)
