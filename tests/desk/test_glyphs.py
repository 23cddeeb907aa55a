"""Every character the desk's pages can show is in the shipped Loma: the venue has no internet and an
organiser's browser may have no other font with it, so a character Loma lacks shows as a box (tofu).
A "▲" in the move chart's legend and a "→" in the audit trail did, in the screenshots."""
from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

from PIL import ImageFont

from gameclock.organiser.desk import i18n

DESK = Path(str(resources.files("gameclock.organiser.desk")))
FONTS = Path(str(resources.files("gameclock") / "fonts"))


def missing_from(font_file: Path, text: str) -> set[str]:
    """The characters of `text` the font draws with its .notdef box."""
    font = ImageFont.truetype(str(font_file), 40)
    notdef = bytes(font.getmask("\ue000"))  # a private-use character: no font of ours has one
    return {c for c in set(text) if not c.isspace() and bytes(font.getmask(c)) == notdef}


def shown_text() -> str:
    """The templates, the stylesheet's and script's strings, the Thai words, the charts' source."""
    parts = [p.read_text(encoding="utf-8") for p in sorted((DESK / "templates").glob("*.html"))]
    parts += [p.read_text(encoding="utf-8") for p in sorted((DESK / "static").glob("*.*"))]
    parts += list(i18n.TH.values())
    for name in ("charts.py", "views.py", "i18n.py"):
        tree = ast.parse((DESK / name).read_text(encoding="utf-8"))
        parts += [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return "".join(parts)


def test_loma_draws_every_character_the_pages_use():
    text = shown_text()
    assert "ตารางคะแนน" in text and "»" in text   # what is checked holds the pages' Thai and marks
    wide = "".join(c for c in text if ord(c) > 126)
    for face in ("Loma.ttf", "Loma-Bold.ttf"):
        assert missing_from(FONTS / face, wide) == set(), face


def test_the_check_finds_a_character_loma_lacks():
    assert missing_from(FONTS / "Loma.ttf", "ก→▲a") == {"→", "▲"}
