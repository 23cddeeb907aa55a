"""The enrollment question (SECURITY.md): both screens show the comparison code large, and the
arbiter answers NO or YES with the knob. NO is chosen first: a push without turning refuses.

    +--------------------------------+
    |        ENROL THIS CLOCK?       |  inverted title, 5x7
    |                                |
    |           123 456              |  the code, 22 px bold
    |       SAME CODE ON THE PC?     |  5x7
    |     [ NO ]          YES        |  the chosen answer inverted
    +--------------------------------+
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from gameclock.ui import textline
from gameclock.ui.screens import HEIGHT, WIDTH, draw_tiny, font, tiny_width
from gameclock.ui.text import tr

CODE_PX = 22
TITLE = "ENROL THIS CLOCK?"
QUESTION = "SAME CODE ON THE PC?"
ANSWER_ROWS = (51, 63)


def render_enroll(code: str, yes: bool, lang: str | None = None) -> Image.Image:
    """The question for comparison code `code` (6 digits); `yes`: YES is chosen (else NO). In Thai
    (`lang` "th") the words are in the Thai font, in taller bands (`_render_th`)."""
    if lang == "th":
        return _render_th(code, yes, lang)
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, 10), fill=1)
    draw_tiny(img, (WIDTH - tiny_width(TITLE)) // 2, 2, TITLE, 0)
    text = f"{code[:3]} {code[3:]}"
    draw.text((WIDTH // 2, 27), text, font=font(CODE_PX), fill=1, anchor="mm", stroke_width=1, stroke_fill=1)
    draw_tiny(img, (WIDTH - tiny_width(QUESTION)) // 2, 42, QUESTION, 1)
    for label, x0, chosen in (("NO", 8, not yes), ("YES", 72, yes)):
        box = (x0, ANSWER_ROWS[0], x0 + 47, ANSWER_ROWS[1])
        if chosen:
            draw.rectangle(box, fill=1)
        else:
            draw.rectangle(box, outline=1)
        draw_tiny(img, x0 + (48 - tiny_width(label)) // 2, ANSWER_ROWS[0] + 3, label, 0 if chosen else 1)
    return img


def _render_th(code: str, yes: bool, lang: str) -> Image.Image:
    """The Thai question (issue 27: every word at 15 px with its marks): an 18-row title, the code (18 px
    bold), the question in its 15 rows, the answers in 15-row boxes; every mark inside its band."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, 17), fill=1)
    textline.draw_line(img, (2, 1, WIDTH - 3, 16), tr(TITLE, lang), 0, bold=True, max_size=15, align="c", centre=True)
    draw.text((WIDTH // 2, 26), f"{code[:3]} {code[3:]}", font=font(18), fill=1, anchor="mm", stroke_width=1,
              stroke_fill=1)
    textline.draw_line(img, (2, 34, WIDTH - 3, 48), tr(QUESTION, lang), 1, max_size=15, align="c", centre=True)
    for label, x0, chosen in (("NO", 8, not yes), ("YES", 72, yes)):
        box = (x0, 49, x0 + 47, 63)
        if chosen:
            draw.rectangle(box, fill=1)
        else:
            draw.rectangle(box, outline=1)
        textline.draw_line(img, (x0 + 2, 50, x0 + 45, 62), tr(label, lang), 0 if chosen else 1, bold=True, max_size=15,
                           align="c", centre=True)
    return img
