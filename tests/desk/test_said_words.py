"""Every template the organiser's code says an error or a notice with (`words("...")`: event.py,
store.py, the exports, the desk, organiser/said.py), and every line said as a Note (`note("...")`: the
pairing systems' and the standings' notes, a dock port's errors), has its Thai in desk/i18n.py with the same
fields, so the desk never shows half a Thai sentence or fails to fill one (issue 26). The walk through
the desk in Thai (test_thai_messages.py) shows them in use; this finds a template no walk reaches."""
from __future__ import annotations

import ast
import re
import string
from pathlib import Path

from gameclock.organiser.desk import i18n
from gameclock.organiser.pairing.model import Words
from gameclock.organiser.said import listed_words

PACKAGE = Path(__file__).resolve().parents[2] / "firmware" / "gameclock"
ORGANISER = PACKAGE / "organiser"
SAYING = ("words", "note")      # gameclock/words.py: the calls that say a template


def templates() -> dict[str, str]:
    """{template: the file saying it, from the organiser's folder} of every `words(...)` / `model.words(...)`
    / `note(...)` call with a literal text (either branch of a conditional text too), in the whole package."""
    out: dict[str, str] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            if (f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None) not in SAYING:
                continue
            first = node.args[0]
            for text in ([first] if not isinstance(first, ast.IfExp) else [first.body, first.orelse]):
                if isinstance(text, ast.Constant) and isinstance(text.value, str) and text.value:
                    out.setdefault(text.value, str(path.relative_to(ORGANISER) if path.is_relative_to(ORGANISER)
                                                   else Path("..") / path.relative_to(PACKAGE)))
    return out


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_template_has_its_thai_with_the_same_fields():
    found = templates()
    said_here = {t for t, p in found.items() if not p.startswith("pairing/") or p == "pairing/options.py"}
    assert len(said_here) > 140                   # the errors and notices were found
    for text, where in sorted(found.items()):
        assert text in i18n.TH, f"no Thai for {text!r} ({where})"
        assert fields(i18n.TH[text]) <= fields(text), (text, where)   # a field may be left out, never made up
        assert re.search("[\u0e01-\u0e2e]", i18n.TH[text]) or not re.sub(r"\{\w+\}|[\s:()»;,-]", "", text), text


def test_a_list_is_said_in_the_pages_language():
    items: list[Words | str] = [Words("round {round}", (("round", n),)) for n in range(1, 8)]
    said = listed_words(items)
    assert str(said) == "round 1, round 2, round 3, round 4, round 5 and 2 more"
    assert i18n.say(said, "th") == "รอบ 1, รอบ 2, รอบ 3, รอบ 4, รอบ 5 และอีก 2 รายการ"
    assert i18n.say(listed_words(["ก", "ข"]), "th") == "ก, ข"


def test_a_note_is_its_english_line_and_keeps_its_words():
    """A Note (gameclock/words.py) is the English line the command line prints, equal to it, and keeps its
    Words through the database's JSON, a pickle and a copy, so a page says it in Thai."""
    import copy
    import json
    import pickle

    from gameclock.words import Note, as_json, joined, line_of, note, note_of_json, words

    n = note("{head}: {winner} goes through", head=words("semi-final {n}", n=1), winner="Player A")
    assert n == "semi-final 1: Player A goes through" and n.startswith("semi-final 1")
    assert json.dumps([n]) == '["semi-final 1: Player A goes through"]'
    assert i18n.say(n, "th") == "รอบรองชนะเลิศ คู่ที่ 1: Player A ผ่านเข้ารอบ"
    for again in (note_of_json(json.loads(json.dumps(as_json(n)))), pickle.loads(pickle.dumps(n)), copy.deepcopy(n)):
        assert isinstance(again, Note) and again == n and again.words == n.words
    assert note_of_json("a line from before") == "a line from before" and as_json("plain") == "plain"
    # a Note given as a value is said in the same language; a list joins items of each kind
    both = note("{n} and {m}", n=note("bye"), m=joined([words("white"), "x"], "; "))
    assert str(both) == "bye and white; x" and both.words.say(lambda t: {"bye": "บาย", "white": "ขาว"}.get(t, t)) == \
        "บาย and ขาว; x"
    assert isinstance(line_of(OSError(n)), Note)
    assert line_of(OSError("plain")) == "plain"
