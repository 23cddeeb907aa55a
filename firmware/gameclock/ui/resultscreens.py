"""Result-entry screens: pure functions from `ResultEntry.view()` to 128x64 mode "1" images.

    render_entry(rv)          the arbiter's display (left) while entering: the item list, drawn like
                              the menu (inverted title bar RESULT, four items, the current one
                              inverted, the edited value in []); the pieces editor for Makruk.
    render_summary(rv, side)  a player's display: the result as the rules make it, in the 5x7 font --
                              inverted title bar, up to five lines, and at the bottom what this
                              player has to do: PRESS TO CONFIRM (inverted), CONFIRMED, WAITING,
                              RESULT SAVED (inverted).

Both players see the same lines (L = the left player, R = the right player). Missing values show
as "?". Texts are `summary_lines(rv)` and `prompt(rv, side)`, so terminals and tests read the same.
"""
from __future__ import annotations

import re
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


def _winner_line(r: Mapping[str, Any]) -> str:
    w = r.get("winner")
    if w is None:
        return "RESULT ?"
    why = reason_text(r.get("reason")).upper()
    head = "DRAW" if w == "draw" else f"{w.upper()} WINS"
    return f"{head}: {why}" if why and r.get("reason") != "score" else head


def _points_line(r: Mapping[str, Any]) -> str | None:
    gp = r.get("game_points")
    return None if not gp else f"GAME POINTS L{gp['left']} R{gp['right']}"


def summary_lines(rv: ResultView) -> list[str]:
    """The result in at most five lines of at most 21 characters (the 5x7 font on 128 px)."""
    r, kind = rv["result"], rv["kind"]
    lines: list[str] = []
    if kind == "crossword":
        # XW-3: the penalty comes off the board score; XW-8: the capped spread
        for s in SIDES:
            sc, pen = r["scores"][s], r["penalties"][s]
            if sc is None:
                lines.append(f"{LETTER[s]} ?" + (f" OT-{pen}" if pen else ""))
            elif pen:
                lines.append(f"{LETTER[s]} {sc} OT-{pen} = {sc - pen}")
            else:
                lines.append(f"{LETTER[s]} {sc}")
        if "level" in r.get("missing", ()):  # XW-8: the caps need the level (menu: Settings, Level)
            lines.append("LEVEL? SETTINGS")
        if r.get("spread"):
            lines.append(_winner_line(r))
            sp, fin, cap = r["spread"], r["final_scores"], r.get("cap")
            capped = cap is not None and abs(fin["left"] - fin["right"]) > cap
            lines.append(f"SPREAD {sp['left']:+d}/{sp['right']:+d}" + (" CAP" if capped else ""))
    elif kind == "sudoku":
        # SU-2 points; SU-3 bonus only when every puzzle is correct
        for s in SIDES:
            pts, ok, bonus = r["scores"][s], r["correct"][s], r["bonus"][s]
            shown = "?" if pts is None else str(pts)
            if ok is None:
                lines.append(f"{LETTER[s]} {shown} ALL OK?")
            elif ok:
                total = "?" if pts is None else str(pts + bonus)
                lines.append(f"{LETTER[s]} {shown} +{bonus} = {total}")
            else:
                lines.append(f"{LETTER[s]} {shown} NOT ALL OK")
        lines.append("BONUS IF ALL CORRECT")
    else:
        lines.append(_winner_line(r))
        if kind == "makruk":
            # MR-9 pieces left, MR-10 their value; MR-2 decided a flag fall by them
            for s in SIDES:
                m, v = r["material"][s], r["material_value"][s]
                lines.append(f"{LETTER[s]} ?" if m is None else f"{LETTER[s]} K+{m} ={v}" if m
                             else f"{LETTER[s]} K ONLY =0")
        if r.get("draw_counts_as_loss_for"):  # MH-8
            lines.append(f"DRAW = LOSS FOR {r['draw_counts_as_loss_for'].upper()}")
        if kind != "makruk":  # MH-7: time used decides the last tie
            for s in SIDES:
                used = r["time_used_ms"][s]
                lines.append(f"{LETTER[s]} USED {screens._mmss(used or 0)}")
    if kind != "sudoku":
        pl = _points_line(r)
        if pl and len(lines) < BODY_LINES:
            lines.append(pl)
    return lines[:BODY_LINES]


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
SIDE_WORDS = {"L": "left", "R": "right", "LEFT": "left", "RIGHT": "right"}


def line_in(line: str, lang: str | None) -> str:
    """A summary line in `lang`: its words (PHRASES, how the game ended after "WINS:" or "DRAW:") translated,
    and in Thai (issue 27) its letters as words too -- the sides (L, R), XW-3's penalty (OT-20), the spread's
    cap, MR-9's pieces (K+RN) -- the figures kept."""
    if lang != "th":
        return line
    head, sep, why = line.partition(": ")
    if sep and head in ("LEFT WINS", "RIGHT WINS", "DRAW"):
        line = f"{head}: {tr(why.lower(), lang)}"
    for phrase in PHRASES:
        if phrase in line:
            line = line.replace(phrase, tr(phrase, lang))
    line = re.sub(r"\bK\+([RNSMP]+)", lambda m: material_text(m[1], lang), line)
    line = re.sub(r"^([LR]) ", lambda m: f"{tr(SIDE_WORDS[m[1]], lang)} ", line)
    line = re.sub(r" ([LR])(\d)", lambda m: f" {tr(SIDE_WORDS[m[1]], lang)} {m[2]}", line)  # the game points
    line = re.sub(r" (LEFT|RIGHT)$", lambda m: f" {tr(SIDE_WORDS[m[1]], lang)}", line)     # MH-8: draw = loss for
    line = re.sub(r" OT-(\d+)", lambda m: f" {tr('PENALTY', lang)} {m[1]}", line)         # XW-3
    return re.sub(r" CAP$", f" {tr('CAP', lang)}", line)                                  # XW-8


def review_pages(rv: ResultView, side: screens.Side = 0) -> list[list[str]]:
    """The Thai review's lines (in Thai) as pages: as many lines as the rows above the prompt hold at
    15 px, each its own ink's rows (issue 27: a complete entry of both sides does not fit one 64-row
    screen in Thai at a size whose marks survive; the loop turns the pages, `rv["page"]`)."""
    lang = rv.get("lang")
    lines = [line_in(line, lang) for line in summary_lines(rv)]
    if rv["stage"] == SAVED and rv.get("dock"):  # issue 27: the dock's status on RESULT SAVED
        lines.append(messages.dock_words(str(rv["dock"]), lang))
    room = _th_prompt_top(rv, side) - 1
    pages: list[list[str]] = [[]]
    used = 0
    for line in [part for whole in lines for part in _wrapped(whole)]:
        h = textline.ink_rows(line, **TH_LINE)
        if pages[-1] and used + h > room:
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += h + TH_GAP
    return pages


def _wrapped(line: str, width: int = WIDTH - 4) -> list[str]:
    """`line` in as many lines as it needs at 15 px in `width` px, broken at spaces (a word longer than
    the line is cut by `textline.place`); "= 417" kept together."""
    out: list[str] = []
    for word in (w.replace("\0", " ") for w in line.replace(" = ", " =\0").split(" ")):
        if out and textline.place(f"{out[-1]} {word}", width, 40, **TH_LINE).text == f"{out[-1]} {word}":
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


def _th_prompt_top(rv: ResultView, side: screens.Side) -> int:
    """The first row of the Thai prompt band: its words' own rows at 15 px and a row above and below."""
    text, _ = prompt(rv, side)
    return HEIGHT - textline.ink_rows(tr(text, rv.get("lang")), **TH_PROMPT) - 2


def _render_summary_th(rv: ResultView, side: screens.Side) -> Image.Image:
    """The Thai review (issue 27): the lines at 15 px, each in its own rows, every mark inside; the
    prompt in a band at the bottom; no title (its rows go to the result). When the lines need more rows
    than the screen has, they are shown a page at a time (`rv["page"]`, the page's number at the
    prompt's right)."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    lang = rv.get("lang")
    text, inv = prompt(rv, side)
    top = _th_prompt_top(rv, side)
    if inv:
        draw.rectangle((0, top, WIDTH - 1, HEIGHT - 1), fill=1)
    pages = review_pages(rv, side)
    page = int(rv.get("page", 0)) % len(pages)
    mark = f"{page + 1}/{len(pages)}" if len(pages) > 1 else ""
    room = WIDTH - 4 - (screens.tiny_width(mark) + 2 if mark else 0)  # the page's number at the right
    textline.draw_line(img, (2, top + 1, 2 + room - 1, HEIGHT - 2), tr(text, lang), 0 if inv else 1, **TH_PROMPT)
    if mark:
        screens.draw_tiny(img, WIDTH - 3, top + (HEIGHT - top - screens.TINY_H) // 2, mark, 0 if inv else 1, anchor="r")
    y = 0
    for line in pages[page]:
        h = textline.ink_rows(line, **TH_LINE)
        textline.draw_line(img, (2, y, WIDTH - 3, y + h - 1), line, 1, **TH_LINE)
        y += h + TH_GAP
    return img


def render_summary(rv: ResultView, side: screens.Side) -> Image.Image:
    """A player's display: the result and what to do."""
    if rv.get("lang") == "th":
        return _render_summary_th(rv, side)
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, 9), fill=1)
    screens.draw_tiny(img, 2, 1, "RESULT", 0)
    corner = _dock(rv) or rv.get("label")  # issue 27: the dock's status on RESULT SAVED, else the game
    if corner:
        screens.draw_tiny(img, WIDTH - 3, 1, screens._fit_tiny(screens.tiny_text(corner), 80), 0, anchor="r")
    for i, line in enumerate(summary_lines(rv)):
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


__all__ = ["summary_lines", "prompt", "render_summary", "render_pieces", "render_entry", "captions",
           "REVIEW", "SAVED", "ENTRY"]
