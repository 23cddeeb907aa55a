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

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from gameclock.core.control import SIDES
from gameclock.core.scoring import PIECES
from gameclock.ui import screens, textline
from gameclock.ui.resultentry import ENTRY, PIECE_NAMES, REVIEW, SAVED, reason_text
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
TH_LINE_H = 15  # a Thai line's rows: the marks above and below inside them


def line_in(line: str, lang: str | None) -> str:
    """A summary line in `lang`: its words (PHRASES, and how the game ended after "WINS:" or
    "DRAW:") translated, the figures kept."""
    if lang != "th":
        return line
    head, sep, why = line.partition(": ")
    if sep and head in ("LEFT WINS", "RIGHT WINS", "DRAW"):
        line = f"{head}: {tr(why.lower(), lang)}"
    for phrase in PHRASES:
        if phrase in line:
            line = line.replace(phrase, tr(phrase, lang))
    return line


def _render_summary_th(rv: ResultView, side: screens.Side) -> Image.Image:
    """The Thai review: title and prompt bands of TH_LINE_H rows, the lines between them in the Thai
    font when they have Thai words (else the 5x7 font), as many as fit."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    lang = rv.get("lang")
    draw.rectangle((0, 0, WIDTH - 1, TH_LINE_H - 1), fill=1)
    textline.draw_line(img, (2, 0, WIDTH - 3, TH_LINE_H - 1), tr("RESULT", lang) + "  " + str(rv.get("label", "")),
                       0, max_size=13)
    text, inv = prompt(rv, side)
    top = HEIGHT - TH_LINE_H
    if inv:
        draw.rectangle((0, top, WIDTH - 1, HEIGHT - 1), fill=1)
    textline.draw_line(img, (2, top, WIDTH - 3, HEIGHT - 1), tr(text, lang), 0 if inv else 1, align="c", max_size=13)
    y = TH_LINE_H + 1
    for line in summary_lines(rv):
        shown = line_in(line, lang)
        h = TH_LINE_H if textline.has_thai(shown) else LINE_H
        if y + h > top:
            break
        if h == LINE_H:
            screens.draw_tiny(img, 2, y + 1, screens._fit_tiny(screens.tiny_text(shown), WIDTH - 3), 1)
        else:
            textline.draw_line(img, (2, y, WIDTH - 3, y + h - 1), shown, 1, max_size=13)
        y += h
    return img


def render_summary(rv: ResultView, side: screens.Side) -> Image.Image:
    """A player's display: the result and what to do."""
    if rv.get("lang") == "th":
        return _render_summary_th(rv, side)
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, 9), fill=1)
    screens.draw_tiny(img, 2, 1, "RESULT", 0)
    if rv.get("label"):
        screens.draw_tiny(img, WIDTH - 3, 1, screens._fit_tiny(screens.tiny_text(rv["label"]), 80), 0, anchor="r")
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
    """The pieces editor in Thai: the same columns, the title and the piece's name in the Thai font
    in bands of 13 rows (the marks above and below inside them)."""
    p = rv["pieces"]
    lang = rv.get("lang")
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, 12), fill=1)
    textline.draw_line(img, (2, 0, WIDTH - 20, 12), tr(f"{p['side'].upper()} PIECES", lang), 0, max_size=13)
    screens.draw_tiny(img, WIDTH - 3, 3, "K+", 0, anchor="r")
    col_w = WIDTH // len(PIECES)
    big = screens.font(20)
    for i, piece in enumerate(PIECES):
        x0 = i * col_w + 1
        ink = 1
        if piece == p["at"]:
            draw.rectangle((x0, 14, x0 + col_w - 3, 49), fill=1)
            ink = 0
        screens.draw_tiny(img, x0 + (col_w - 2 - 5) // 2, 16, piece, ink)
        text = str(p["counts"][piece])
        w = int(big.getlength(text))
        draw.text((x0 + (col_w - 2 - w) // 2, 46), text, font=big, fill=ink, anchor="ls")
    name = tr(PIECE_NAMES[p["at"]].upper(), lang)
    more = tr("CLICK: NEXT" if p["at"] != PIECES[-1] else "CLICK: KEEP", lang)
    textline.draw_line(img, (2, 51, WIDTH - 3, 63), f"{p['at']} = {name}   {more}", 1, max_size=13)
    return img


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


def captions(rv: ResultView) -> tuple[str, str]:
    """Plain text of both displays (terminal, tests): the edited item or the summary, and the prompt."""
    body = " | ".join(summary_lines(rv))
    out = []
    for side in (0, 1):
        if side == 0 and rv["stage"] == ENTRY:
            out.append(f"RESULT {rv['items'][rv['index']]}")
        else:
            out.append(f"RESULT {body} | {prompt(rv, side)[0]}")
    return out[0], out[1]


__all__ = ["summary_lines", "prompt", "render_summary", "render_pieces", "render_entry", "captions",
           "REVIEW", "SAVED", "ENTRY"]
