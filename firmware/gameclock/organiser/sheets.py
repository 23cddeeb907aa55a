"""Printable pairing sheets and score slips of a round (issue 16): self-contained HTML (no CDN, no
script; the CSS inline, `@media print` and `@page` A4), in the event's language (Thai or English
headings), the names in Thai script with the Latin spelling under them.

    paths = write_sheets(folder, event, round_row, players, result_url=None)
    # folder/EVENT-rN-pairings.html, folder/EVENT-rN-slips.html, folder/fonts/Loma.ttf (+ its licence)

Pairing sheet: one row per table in table order -- the table, the left player (who starts: the name,
the Latin name under it, the campus), the right player, the game and stage notes -- then the byes.
Score slips: one per table, cut lines between them, boxes for both scores, the winner and both
signatures.

Thai: the pages say `lang`, each Thai name its own `lang="th"`, and the font stack begins with Loma,
the clock's own Thai font (gameclock/fonts/, GPL-2+ with the font exception), copied beside the
pages (86 kB) and named by a relative `@font-face` url, so the pages print in Thai on a PC without
Thai fonts and stay small; then the usual Thai fonts of Windows, macOS and Linux.

QR codes: with `result_url` (a pattern such as `http://HOST:8017/e/{event}/pairings/{round}/table/{table}`:
the table's page at the organiser's web desk, issue 28), each table's row and slip carry that URL as a QR code, drawn as
inline SVG by segno (pure Python, BSD; the organiser's optional dependency, `pip install
gameclock[organiser]`). Without segno a clear SheetError says so.
"""
from __future__ import annotations

import importlib
import io
import os
import re
import shutil
from collections.abc import Mapping
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from gameclock.organiser.pairing.model import Player

FONT_FILES = ("Loma.ttf", "LICENSE-Loma.txt")
FONT_STACK = ('"Loma", "Sarabun", "TH Sarabun New", "Noto Sans Thai", "Leelawadee UI", "Leelawadee", '
              '"Thonburi", "Tahoma", "Garuda", sans-serif')
URL_FIELDS = ("event", "round", "table")
THAI = re.compile("[\u0e00-\u0e7f]")

WORDS: dict[str, dict[str, str]] = {
    "en": {"pairings": "Pairings", "round": "Round", "table": "Table", "left": "Left (starts)", "right": "Right",
           "notes": "Notes", "game": "Game", "bye": "Bye", "byes": "Byes", "slips": "Score slips",
           "slip": "Score slip", "score": "Score", "winner": "Winner", "draw": "Draw", "signature": "Signature",
           "result": "Result page", "campus": "School"},
    "th": {"pairings": "ประกบคู่", "round": "รอบที่", "table": "โต๊ะ", "left": "ฝ่ายซ้าย (เริ่มก่อน)",
           "right": "ฝ่ายขวา", "notes": "หมายเหตุ", "game": "เกมที่", "bye": "บาย", "byes": "ผู้ได้บาย",
           "slips": "ใบบันทึกผล", "slip": "ใบบันทึกผล", "score": "คะแนน", "winner": "ผู้ชนะ", "draw": "เสมอ",
           "signature": "ลายมือชื่อ", "result": "หน้าผลการแข่งขัน", "campus": "โรงเรียน"},
}
STAGE_WORDS = {"en": {"last": "last qualifying game", "final": "final"},
               "th": {"last": "เกมสุดท้ายรอบคัดเลือก", "final": "รอบชิงชนะเลิศ"}}


class SheetError(ValueError):
    """The sheets cannot be made as asked: one line saying why."""


def check_url_pattern(pattern: str) -> str:
    """A result URL pattern: http(s), and no field but {event}, {round}, {table}. SheetError otherwise."""
    if not re.match(r"https?://[^\s/]+", pattern) or any(c.isspace() for c in pattern):
        raise SheetError(f"--result-url {pattern!r}: an http:// or https:// address without spaces")
    fields = re.findall(r"\{([^{}]*)\}", pattern)
    bad = [f for f in fields if f not in URL_FIELDS]
    if bad or re.sub(r"\{[^{}]*\}", "", pattern).count("{") or re.sub(r"\{[^{}]*\}", "", pattern).count("}"):
        raise SheetError(f"--result-url {pattern!r}: the fields are {{event}}, {{round}}, {{table}}"
                         + (f", not {{{bad[0]}}}" if bad else ""))
    return pattern


def result_url(pattern: str, event: str, rnd: int, table: int) -> str:
    return check_url_pattern(pattern).format(event=quote(event, safe=""), round=rnd, table=table)


def qr_svg(url: str) -> str:
    """`url` as a QR code, an inline <svg> element (segno). SheetError when segno is not installed."""
    try:
        segno: Any = importlib.import_module("segno")  # optional: only the QR codes need it
    except ImportError:
        raise SheetError("QR codes need the segno package: pip install 'gameclock[organiser]' (or segno), "
                         "or leave out --result-url") from None
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, nl=False, omitsize=True, border=2,
                                    svgclass="qr", lineclass=None, title=url)
    return out.getvalue().decode("utf-8")


def _lang_of(text: str) -> str:
    return "th" if THAI.search(text) else "en"


def _person(p: Player, words: Mapping[str, str]) -> str:
    """A player's cell: the name (its own `lang`), the Latin name under it, the campus."""
    parts = [f'<span class="name" lang="{_lang_of(p.name)}">{escape(p.name)}</span>']
    if p.latin and p.latin != p.name:
        parts.append(f'<span class="latin" lang="en">{escape(p.latin)}</span>')
    if p.campus:
        parts.append(f'<span class="campus" lang="{_lang_of(p.campus)}">{escape(p.campus)}</span>')
    return f'<span class="id">{escape(p.id)}</span> ' + "".join(parts)


def _notes(b: Mapping[str, Any], lang: str) -> str:
    words = WORDS[lang]
    out = [f"{words['game']} {b['game']}"] if b["game"] != 1 else []
    if b["stage"] in STAGE_WORDS[lang]:
        out.append(STAGE_WORDS[lang][b["stage"]])
    if b["note"] and b["note"] != "bye":
        out.append(b["note"])
    return escape(", ".join(out))


CSS = """
@font-face { font-family: "Loma"; src: local("Loma"), url("fonts/Loma.ttf") format("truetype"); }
@page { size: A4; margin: 12mm; }
html { font-family: %(stack)s; font-size: 11pt; color: #000; background: #fff; }
h1 { font-size: 16pt; margin: 0 0 4mm; }
table.pairings { width: 100%%; border-collapse: collapse; }
table.pairings th, table.pairings td { border: 0.3mm solid #000; padding: 1.5mm 2mm; text-align: left;
  vertical-align: top; }
td.table, th.table { width: 12mm; text-align: center; font-size: 14pt; font-weight: bold; }
.name { display: block; font-size: 13pt; font-weight: bold; }
.latin, .campus { display: block; font-size: 9pt; }
.campus { font-style: italic; }
.id { float: right; font-size: 8pt; color: #444; }
svg.qr { width: 22mm; height: 22mm; }
.slip { padding: 4mm 0; border-bottom: 0.4mm dashed #000; break-inside: avoid; page-break-inside: avoid; }
.slip h2 { font-size: 13pt; margin: 0 0 2mm; }
.slip .sides { display: flex; gap: 4mm; }
.slip .side { flex: 1; border: 0.3mm solid #000; padding: 2mm; }
.slip .box { border: 0.3mm solid #000; height: 9mm; margin: 1mm 0; }
.slip .line { border-bottom: 0.3mm solid #000; height: 8mm; }
.cut { font-size: 8pt; color: #444; }
@media print {
  thead { display: table-header-group; }
  tr { break-inside: avoid; page-break-inside: avoid; }
  .slip { break-inside: avoid; page-break-inside: avoid; }
}
"""


def _page(title: str, lang: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{escape(title)}</title>\n<style>{CSS % {'stack': FONT_STACK}}</style>\n</head>\n"
            f"<body>\n{body}</body>\n</html>\n")


def _language(event: Mapping[str, Any]) -> str:
    return "th" if event.get("language") == "th" else "en"


def pairing_sheet(event: Mapping[str, Any], rnd: Mapping[str, Any], players: Mapping[str, Player],
                  url_pattern: str | None = None) -> str:
    """The round's pairing sheet (module doc) as an HTML page."""
    lang = _language(event)
    w = WORDS[lang]
    title = f"{event['name']} {w['round']} {rnd['round']}: {w['pairings']}"
    qr = url_pattern is not None
    head = (f'<tr><th class="table">{w["table"]}</th><th>{w["left"]}</th><th>{w["right"]}</th>'
            f'<th>{w["notes"]}</th>' + (f'<th>{w["result"]}</th>' if qr else "") + "</tr>")
    rows = []
    for b in rnd["boards"]:
        if b["right"] is None:
            continue
        cells = (f'<td class="table">{b["table"]}</td><td class="player left">{_person(players[b["left"]], w)}</td>'
                 f'<td class="player right">{_person(players[b["right"]], w)}</td>'
                 f'<td class="notes">{_notes(b, lang)}</td>')
        if url_pattern is not None:
            cells += f'<td class="qr">{qr_svg(result_url(url_pattern, event["name"], rnd["round"], b["table"]))}</td>'
        rows.append(f'<tr class="board" data-table="{b["table"]}">{cells}</tr>')
    byes = [f'<li class="bye">{_person(players[b["left"]], w)}</li>' for b in rnd["boards"] if b["right"] is None]
    body = (f"<h1>{escape(title)}</h1>\n<table class=\"pairings\">\n<thead>{head}</thead>\n<tbody>\n"
            + "\n".join(rows) + "\n</tbody>\n</table>\n"
            + (f'<h2>{w["byes"]}</h2>\n<ul class="byes">\n' + "\n".join(byes) + "\n</ul>\n" if byes else ""))
    return _page(title, lang, body)


def score_slips(event: Mapping[str, Any], rnd: Mapping[str, Any], players: Mapping[str, Player],
                url_pattern: str | None = None) -> str:
    """One score slip per table of the round (module doc), as an HTML page."""
    lang = _language(event)
    w = WORDS[lang]
    title = f"{event['name']} {w['round']} {rnd['round']}: {w['slips']}"
    slips = []
    for b in rnd["boards"]:
        if b["right"] is None:
            continue
        sides = "".join(
            f'<div class="side {side}"><div class="who">{w[side]}</div>{_person(players[b[side]], w)}'
            f'<div>{w["score"]}</div><div class="box"></div><div>{w["signature"]}</div><div class="line"></div></div>'
            for side in ("left", "right"))
        notes = _notes(b, lang)
        qr = (qr_svg(result_url(url_pattern, event["name"], rnd["round"], b["table"]))
              if url_pattern is not None else "")
        slips.append(f'<section class="slip" data-table="{b["table"]}">'
                     f'<h2>{escape(event["name"])} · {w["round"]} {rnd["round"]} · {w["table"]} {b["table"]}'
                     + (f" · {notes}" if notes else "") + "</h2>"
                     f'<div class="sides">{sides}</div>'
                     f'<div>{w["winner"]}: ☐ {w["left"]} ☐ {w["right"]} ☐ {w["draw"]}</div>{qr}'
                     f'<div class="cut">✂</div></section>')
    return _page(title, lang, "<h1>" + escape(title) + "</h1>\n" + "\n".join(slips) + "\n")


def write_sheets(folder: str | os.PathLike[str], event: Mapping[str, Any], rnd: Mapping[str, Any],
                 players: Mapping[str, Player], url_pattern: str | None = None) -> list[Path]:
    """Both pages of the round into `folder` (made if missing), with the Thai font beside them.
    Returns the pages written."""
    if url_pattern is not None:
        check_url_pattern(url_pattern)
    out = Path(folder)
    safe = re.sub(r"[^\w.-]", "_", event["name"])
    stem = f"{safe}-r{rnd['round']}"
    pages = {out / f"{stem}-pairings.html": pairing_sheet(event, rnd, players, url_pattern),
             out / f"{stem}-slips.html": score_slips(event, rnd, players, url_pattern)}
    try:
        (out / "fonts").mkdir(parents=True, exist_ok=True)
        for name in FONT_FILES:
            src = resources.files("gameclock") / "fonts" / name
            if src.is_file():
                with resources.as_file(src) as path:
                    shutil.copyfile(path, out / "fonts" / name)
        for path, text in pages.items():
            path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SheetError(f"{out}: cannot write the sheets ({exc.strerror or exc})") from None
    return list(pages)
