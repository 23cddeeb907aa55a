"""Result-entry screens: pure functions from `ResultEntry.view()` to 128x64 mode "1" images.

    render_entry(rv)          the arbiter's display (left) while entering: the item list, drawn like
                              the menu (inverted title bar RESULT, four items, the current one
                              inverted, the edited value in []); the pieces editor for Makruk.
    render_summary(rv, side)  a player's display: the result as the rules make it, in the 5x7 font --
                              inverted title bar with the page ("RESULT 1/2") and the game (on
                              RESULT SAVED the dock's status), up to five lines, and at the bottom
                              what this player has to do: PRESS TO CONFIRM (inverted), CONFIRMED,
                              WAITING, RESULT SAVED (inverted). Thai (issue 27): no title, each line
                              at 15 px in its own ink's rows, the prompt in a band at the bottom
                              with the page's number at its right.

Both players see the same lines (L = the left player, R = the right player; in Thai the sides'
words) and every line of both sides' entry (issue 27): `review_lines(rv, lang)` builds them in the
clock's language; `review_pages(rv)` puts them on as many pages as the display needs (a long line
wrapped at spaces, never cut), and `rv["page"]` picks the page (the loop turns them: a page every
few seconds, and the knob). Missing values show as "?". Texts are `summary_lines(rv)` (English, all
of them) and `prompt(rv, side)`, so terminals and tests read the same.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from gameclock.core.control import SIDES
from gameclock.core.scoring import PIECES
from gameclock.ui import messages, screens, textline
from gameclock.ui.resultentry import ENTRY, PIECE_NAMES, REVIEW, SAVED, material_text, reason_text
from gameclock.ui.text import tr

WIDTH, HEIGHT = screens.WIDTH, screens.HEIGHT
LINE_H = 9            # px per body line (7 px glyphs, 2 px gap)
BODY_TOP = 11
BODY_LINES = 5
LETTER = {"left": "L", "right": "R"}
ResultView = Mapping[str, Any]  # `ResultEntry.view()`, with the loop's "label" and "saved_text"


def _winner_line(r: Mapping[str, Any], lang: str | None = None) -> str:
    """Who won and how ("LEFT WINS: MATE"; a crossword's "score" goes without saying), in `lang`."""
    w = r.get("winner")
    if w is None:
        return tr("RESULT ?", lang)
    head = tr("DRAW" if w == "draw" else f"{w.upper()} WINS", lang)
    why = reason_text(r.get("reason")) if r.get("reason") != "score" else ""
    if not why:
        return head
    return f"{head}: {tr(why, lang) if lang == 'th' else why.upper()}"


def _side(s: str, lang: str | None) -> str:
    """A side on a review line: L / R in English (21 letters a line), its word in Thai (ซ้าย, ขวา)."""
    return tr(s.title(), lang) if lang == "th" else LETTER[s]


def _say(template: str, lang: str | None, **parts: object) -> str:
    """A review line from its English template (ui/text_th.py has the Thai one) and its parts."""
    return tr(template, lang).format(**parts)


COUNT_WORDS = {"board": "BOARD COUNT", "pieces": "PIECES COUNT", "makhos": "MAKHOS COUNT"}


def review_lines(rv: ResultView, lang: str | None = None) -> list[str]:
    """Every line of the review both players confirm (CL-5), in `lang` (issue 27: both sides'
    complete entry, whatever the language): crossword family both scores with XW-3's overtime
    penalty, the winner, XW-8's spread and the game points; makruk the outcome, both sides' pieces
    with their MR-10 value, a count under way at the end (MR-4..MR-8) and the game points; makhos the
    outcome, MH-8's draw given, a count under way (MH-6), both sides' time used (MH-7) and the game
    points; sudoku both competitors' points, bonus and total (SU-2, SU-3). The screens put them on as
    many pages as they need (`review_pages`)."""
    return [line for block in review_blocks(rv, lang) for line in block]


def review_blocks(rv: ResultView, lang: str | None = None) -> list[list[str]]:
    """`review_lines` in the groups a page keeps together where it can: both sides' scores, pieces or
    times (a player compares them), the winner with the spread."""
    r, kind = rv["result"], rv["kind"]
    blocks: list[list[str]] = []
    lines: list[str] = []

    def block() -> None:  # the lines so far are a group
        nonlocal lines
        if lines:
            blocks.append(lines)
        lines = []

    if kind == "crossword":
        # XW-3: the penalty comes off the board score; XW-8: the capped spread
        for s in SIDES:
            sc, pen = r["scores"][s], r["penalties"][s]
            side = _side(s, lang)
            if sc is None:
                lines.append(_say("{side} ? OT-{penalty}", lang, side=side, penalty=pen) if pen
                             else _say("{side} ?", lang, side=side))
            elif pen:
                lines.append(_say("{side} {score} OT-{penalty} = {final}", lang, side=side, score=sc, penalty=pen,
                                  final=sc - pen))
            else:
                lines.append(_say("{side} {score}", lang, side=side, score=sc))
        block()
        if "level" in r.get("missing", ()):  # XW-8: the caps need the level (menu: Settings, Level)
            lines.append(tr("LEVEL? SETTINGS", lang))
            block()
        if r.get("spread"):
            lines.append(_winner_line(r, lang))
            sp, fin, cap = r["spread"], r["final_scores"], r.get("cap")
            capped = cap is not None and abs(fin["left"] - fin["right"]) > cap
            lines.append(_say("SPREAD {left}/{right} CAP" if capped else "SPREAD {left}/{right}", lang,
                              left=f"{sp['left']:+d}", right=f"{sp['right']:+d}"))
    elif kind == "sudoku":
        # SU-2 points; SU-3 bonus only when every puzzle is correct
        for s in SIDES:
            pts, ok, bonus = r["scores"][s], r["correct"][s], r["bonus"][s]
            parts = {"side": _side(s, lang), "points": "?" if pts is None else pts}
            if ok is None:
                lines.append(_say("{side} {points} ALL OK?", lang, **parts))
            elif ok:
                lines.append(_say("{side} {points} +{bonus} = {total}", lang, bonus=bonus,
                                  total="?" if pts is None else pts + bonus, **parts))
            else:
                lines.append(_say("{side} {points} NOT ALL OK", lang, **parts))
        block()
        lines.append(tr("BONUS IF ALL CORRECT", lang))
    else:
        lines.append(_winner_line(r, lang))
        if r.get("draw_counts_as_loss_for"):  # MH-8
            lines.append(_say("DRAW = LOSS FOR {side}", lang,
                              side=tr(r["draw_counts_as_loss_for"].upper(), lang) if lang != "th"
                              else _side(r["draw_counts_as_loss_for"], lang)))
        block()
        if kind == "makruk":
            # MR-9 pieces left, MR-10 their value; MR-2 decided a flag fall by them
            for s in SIDES:
                m, v = r["material"][s], r["material_value"][s]
                side = _side(s, lang)
                lines.append(_say("{side} ?", lang, side=side) if m is None
                             else _say("{side} {pieces} ={value}", lang, side=side, pieces=material_text(m, lang), value=v)
                             if m else _say("{side} K ONLY =0", lang, side=side))
            block()
        counting = rv.get("counting")
        if counting:  # MR-4..MR-8, MH-6: the count under way when the game ended (the record's `counting`)
            limit = counting.get("limit")
            lines.append(_say("{count} {side} {number}", lang, count=tr(COUNT_WORDS.get(counting["kind"], "COUNT"), lang),
                              side=_side(counting["side"], lang),
                              number=f"{counting.get('count', 0)}" + (f"/{limit}" if limit else "")))
            block()
        if kind != "makruk":  # MH-7: time used decides the last tie
            for s in SIDES:
                lines.append(_say("{side} USED {time}", lang, side=_side(s, lang),
                                  time=screens._mmss(r["time_used_ms"][s] or 0)))
    block()
    gp = r.get("game_points")
    if kind != "sudoku" and gp:  # XW-6, MR-9, MH-7
        lines.append(_say("GAME POINTS L{left} R{right}", lang, left=gp["left"], right=gp["right"]))
    block()
    return blocks


def summary_lines(rv: ResultView) -> list[str]:
    """The review's lines in English (the terminal's captions, tests): `review_lines`."""
    return review_lines(rv)


def prompt(rv: ResultView, side: screens.Side) -> tuple[str, bool]:
    """(text, inverted) of the bottom line for `side`'s player."""
    name = SIDES[side] if isinstance(side, int) else side
    stage = rv["stage"]
    if stage == SAVED:
        return rv.get("saved_text", "RESULT SAVED"), True
    if stage == ENTRY:
        return "ARBITER ENTERING", False
    confirmed = rv["result"]["confirmations"]
    if not confirmed[name]:
        return "PRESS TO CONFIRM", True
    other = "right" if name == "left" else "left"
    return ("CONFIRMED" if confirmed[other] else f"OK - WAIT FOR {LETTER[other]}"), False


def _bar(img: Image.Image, draw: ImageDraw.ImageDraw, top: int, bottom: int, left: str, right: str = "",
         inverted: bool = True) -> None:
    ink = 1
    if inverted:
        draw.rectangle((0, top, WIDTH - 1, bottom), fill=1)
        ink = 0
    y = top + (bottom - top + 1 - screens.TINY_H) // 2
    room = WIDTH - 4 - (screens.tiny_width(right) + 6 if right else 0)
    draw_text = screens._fit_tiny(screens.tiny_text(left), room)
    if right:
        screens.draw_tiny(img, WIDTH - 3, y, right, ink, anchor="r")
        screens.draw_tiny(img, 2, y, draw_text, ink)
    else:  # centred
        x = (WIDTH - screens.tiny_width(draw_text)) // 2
        screens.draw_tiny(img, x, y, draw_text, ink)


PHRASES = ("LEFT WINS", "RIGHT WINS", "DRAW = LOSS FOR", "DRAW", "SPREAD", "USED", "GAME POINTS",
           "BONUS IF ALL CORRECT", "NOT ALL OK", "ALL OK?", "K ONLY", "LEVEL? SETTINGS", "RESULT ?")
TH_LINE: dict[str, Any] = {"max_size": textline.THAI_MIN_PX}  # a Thai review line (issue 27: 15 px)
TH_PROMPT: dict[str, Any] = {"bold": True, "max_size": 16, "align": "c", "centre": True}
TH_GAP = 2            # rows between two Thai lines


def line_in(line: str, lang: str | None) -> str:
    """An English review line in `lang` by its words (PHRASES, and how the game ended after "WINS:"
    or "DRAW:"), the figures kept. (The review itself is built in its language: `review_lines`.)"""
    if lang != "th":
        return line
    head, sep, why = line.partition(": ")
    if sep and head in ("LEFT WINS", "RIGHT WINS", "DRAW"):
        line = f"{head}: {tr(why.lower(), lang)}"
    for phrase in PHRASES:
        if phrase in line:
            line = line.replace(phrase, tr(phrase, lang))
    return line


def _fits(line: str, lang: str | None) -> bool:
    """`line` fits the display's width whole: in the 5x7 font, or in Thai at 15 px (textline.place cuts
    a Thai line with "…" rather than draw it smaller: issue 27)."""
    if lang == "th":
        return textline.place(line, WIDTH - 4, 40, **TH_LINE).text == line
    return screens.tiny_width(screens.tiny_text(line)) <= WIDTH - 3


def _wrap(line: str, lang: str | None) -> list[str]:
    """`line` as it fits the width: whole, else cut after its ": " ("RIGHT WINS:" / "DRAW GIVEN") or
    at spaces into parts that each fit, "= 417" kept together (nothing of it is lost to a cut: issue 27)."""
    if _fits(line, lang):
        return [line]
    head, sep, rest = line.partition(": ")
    if sep and _fits(head + ":", lang) and _fits(rest, lang):
        return [head + ":", rest]
    parts: list[str] = []
    cur = ""
    for word in (w.replace("\0", " ") for w in line.replace(" = ", " =\0").split(" ")):
        trial = f"{cur} {word}" if cur else word
        if cur and not _fits(trial, lang):
            parts.append(cur)
            cur = word
        else:
            cur = trial
    return parts + [cur]


def _line_rows(line: str, lang: str | None) -> int:
    """The rows a review line takes: a 5x7 line's LINE_H; a Thai line its own ink's at 15 px (issue 27:
    each line as tall as its marks, not a worst-case stack, so more lines fit a page)."""
    return textline.ink_rows(line, **TH_LINE) if lang == "th" else LINE_H


def _th_prompt_top(rv: ResultView, side: screens.Side) -> int:
    """The first row of the Thai prompt band: its words' own rows at 15 px and a row above and below."""
    text, _ = prompt(rv, side)
    return HEIGHT - textline.ink_rows(tr(text, rv.get("lang")), **TH_PROMPT) - 2


def review_pages(rv: ResultView) -> list[list[str]]:
    """The review as a player's display shows it: `review_lines` in the view's language (in Thai on
    RESULT SAVED the dock's status first on every page: the English has it in the title bar), a line
    too long for the width wrapped at spaces, on as many pages as the body needs -- in English the five
    5x7 lines between the title and the prompt; in Thai the rows above the prompt band, each line at
    15 px in its own ink's rows and TH_GAP between (the same pages on both players' displays, whichever
    prompt each shows). A side's pair of lines
    (`review_blocks`), and a wrapped line's parts, start a page of their own rather than be split, where
    they fit one (issue 27: the review shows everything; `rv["page"]` picks the page shown, the loop
    turns them)."""
    lang = rv.get("lang")
    thai = lang == "th"
    room = min(_th_prompt_top(rv, s) for s in (0, 1)) - 1 if thai else BODY_LINES * LINE_H
    gap = TH_GAP if thai else 0
    head = _wrap(_dock(rv), lang) if thai and _dock(rv) else []  # issue 27: the dock's status, every page
    room -= sum(_line_rows(line, lang) + gap for line in head)
    blocks = review_blocks(rv, lang)
    pages: list[list[str]] = []
    page: list[str] = []
    used = 0  # the page's rows so far, with a gap after each line

    def keep(parts: list[str]) -> None:
        """A new page for `parts` when they fit one but not what is left of this one."""
        nonlocal page, used
        need = sum(_line_rows(part, lang) + gap for part in parts) - gap
        if page and used + need > room and need <= room:
            pages.append(page)
            page, used = [], 0

    for block in blocks:
        wrapped = [_wrap(line, lang) for line in block]
        keep([part for parts in wrapped for part in parts])  # a side's pair together where it can
        for parts in wrapped:
            keep(parts)  # a wrapped line's parts together, else its parts flow
            for part in parts:
                h = _line_rows(part, lang)
                if page and used + h > room:
                    pages.append(page)
                    page, used = [], 0
                page.append(part)
                used += h + gap
    return [head + p for p in (pages + [page] if page or not pages else pages)]


def page_count(rv: ResultView) -> int:
    """How many pages the review takes on a player's display."""
    return len(review_pages(rv))


def _page(rv: ResultView) -> tuple[list[str], str]:
    """The lines of the page shown (`rv["page"]`, any number: it goes round) and its mark ("2/3"; ""
    for a review of one page)."""
    pages = review_pages(rv)
    n = len(pages)
    p = int(rv.get("page", 0)) % n
    return pages[p], f"{p + 1}/{n}" if n > 1 else ""


def _render_summary_th(rv: ResultView, side: screens.Side) -> Image.Image:
    """The Thai review (issue 27): the page's lines at 15 px, each in its own rows, every mark inside;
    the prompt in a band at the bottom, the page's number at its right ("2/3", in digits: they read the
    same in both languages); no title (its rows go to the result)."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    lang = rv.get("lang")
    lines, mark = _page(rv)
    text, inv = prompt(rv, side)
    top = _th_prompt_top(rv, side)
    if inv:
        draw.rectangle((0, top, WIDTH - 1, HEIGHT - 1), fill=1)
    room = WIDTH - 4 - (screens.tiny_width(mark) + 2 if mark else 0)  # the page's number at the right
    textline.draw_line(img, (2, top + 1, 2 + room - 1, HEIGHT - 2), tr(text, lang), 0 if inv else 1, **TH_PROMPT)
    if mark:
        screens.draw_tiny(img, WIDTH - 3, top + (HEIGHT - top - screens.TINY_H) // 2, mark, 0 if inv else 1,
                          anchor="r")
    y = 0
    for line in lines:
        h = _line_rows(line, lang)
        textline.draw_line(img, (2, y, WIDTH - 3, y + h - 1), line, 1, **TH_LINE)
        y += h + TH_GAP
    return img


def render_summary(rv: ResultView, side: screens.Side) -> Image.Image:
    """A player's display: the result (the page `rv["page"]` of it) and what to do."""
    if rv.get("lang") == "th":
        return _render_summary_th(rv, side)
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    lines, mark = _page(rv)
    draw.rectangle((0, 0, WIDTH - 1, 9), fill=1)
    title = f"RESULT {mark}".strip()
    screens.draw_tiny(img, 2, 1, title, 0)
    corner = _dock(rv) or rv.get("label")  # issue 27: the dock's status on RESULT SAVED, else the game
    if corner:
        room = WIDTH - 4 - screens.tiny_width(title + " ")
        screens.draw_tiny(img, WIDTH - 3, 1, screens._fit_tiny(screens.tiny_text(corner), min(80, room)), 0,
                          anchor="r")
    for i, line in enumerate(lines):
        screens.draw_tiny(img, 2, BODY_TOP + i * LINE_H, screens._fit_tiny(screens.tiny_text(line), WIDTH - 3), 1)
    text, inv = prompt(rv, side)
    _bar(img, draw, 55, 63, text, inverted=inv)
    return img


def render_pieces(rv: ResultView) -> Image.Image:
    """Makruk pieces editor (MR-9): five columns R N S M P with their counts; the one being set is
    inverted; its name below."""
    p = rv["pieces"]
    if rv.get("lang") == "th":
        return _render_pieces_th(rv)
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    _bar(img, draw, 0, 9, f"{p['side'].upper()} PIECES", "K+")
    col_w = WIDTH // len(PIECES)
    big = screens.font(22)
    for i, piece in enumerate(PIECES):
        x0 = i * col_w + 1
        active = piece == p["at"]
        ink = 1
        if active:
            draw.rectangle((x0, 12, x0 + col_w - 3, 52), fill=1)
            ink = 0
        screens.draw_tiny(img, x0 + (col_w - 2 - 5) // 2, 14, piece, ink)
        text = str(p["counts"][piece])
        w = int(big.getlength(text))
        draw.text((x0 + (col_w - 2 - w) // 2, 49), text, font=big, fill=ink, anchor="ls")
    name = PIECE_NAMES[p["at"]]
    _bar(img, draw, 55, 63, f"{p['at']} = {name.upper()}", "CLICK: NEXT" if p["at"] != PIECES[-1] else "CLICK: KEEP",
         inverted=False)
    return img


def _render_pieces_th(rv: ResultView) -> Image.Image:
    """The pieces editor in Thai (issue 27): the side's pieces and the king in an 18-row title band
    ("หมากซ้าย  ขุน +"), the five counts in their columns (the one being set inverted), and below them
    the piece being set by its Thai name at 15 px with what a push does -- no letters (the five names
    do not fit their 25-px columns at 15 px)."""
    p = rv["pieces"]
    lang = rv.get("lang")
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, PIECES_TH_TITLE - 1), fill=1)
    side_pieces = tr(str(p["side"]).upper() + " PIECES", lang)
    textline.draw_line(img, (2, 0, WIDTH - 3, PIECES_TH_TITLE - 1), f"{side_pieces}  {tr('KING', lang)} +", 0,
                       bold=True, max_size=16, align="c", centre=True)
    col_w = WIDTH // len(PIECES)
    big = screens.font(20)
    top, bottom = PIECES_TH_TITLE + 1, PIECES_TH_NAME[0] - 2
    for i, piece in enumerate(PIECES):
        x0 = i * col_w + 1
        ink = 1
        if piece == p["at"]:
            draw.rectangle((x0, top, x0 + col_w - 3, bottom), fill=1)
            ink = 0
        text = str(p["counts"][piece])
        w = int(big.getlength(text))
        draw.text((x0 + (col_w - 2 - w) // 2, bottom - 4), text, font=big, fill=ink, anchor="ls")
    name = tr(PIECE_NAMES[p["at"]].upper(), lang)
    more = tr("CLICK: NEXT" if p["at"] != PIECES[-1] else "CLICK: KEEP", lang)
    textline.draw_line(img, (2, PIECES_TH_NAME[0], WIDTH - 3, PIECES_TH_NAME[1]), f"{name}   {more}", 1,
                       max_size=textline.THAI_MIN_PX, align="c")
    return img


PIECES_TH_TITLE = 18       # rows of the Thai pieces editor's title band
PIECES_TH_NAME = (44, 63)  # the piece being set, by name (เบี้ย: a tone over an upper vowel, 15 px)


def render_entry(rv: ResultView) -> Image.Image:
    """The arbiter's display while the result is entered (or the summary once it is up for
    confirmation: the arbiter's display is the left player's too)."""
    if rv["stage"] != ENTRY:
        return render_summary(rv, 0)
    if rv.get("pieces"):
        return render_pieces(rv)
    lang = rv.get("lang")
    return screens.render_menu({"title": tr(rv.get("title", "RESULT"), lang), "items": rv["items"],
                                "index": rv["index"], "lang": lang})


def _dock(rv: ResultView) -> str:
    """The dock's status on RESULT SAVED in the review's language ("" otherwise, or undocked)."""
    return messages.dock_words(str(rv["dock"]), rv.get("lang")) if rv["stage"] == SAVED and rv.get("dock") else ""


def captions(rv: ResultView) -> tuple[str, str]:
    """Plain text of both displays (terminal, tests): the edited item or the summary, and the prompt
    (and the dock's status on RESULT SAVED)."""
    body = " | ".join(summary_lines(rv) + ([_dock(rv)] if _dock(rv) else []))
    out = []
    for side in (0, 1):
        if side == 0 and rv["stage"] == ENTRY:
            out.append(f"RESULT {rv['items'][rv['index']]}")
        else:
            out.append(f"RESULT {body} | {prompt(rv, side)[0]}")
    return out[0], out[1]


__all__ = ["summary_lines", "review_lines", "review_blocks", "review_pages", "page_count", "prompt", "render_summary",
           "render_pieces", "render_entry", "captions", "REVIEW", "SAVED", "ENTRY"]
