"""The review both players confirm (CL-5) shows both sides' complete entry, in English and in Thai
(issue 27): whatever one side's entry holds, some page of each player's display changes with it, and
every line of the review is drawn whole (never cut) on some page, inside the screen. Found by the
issue's session: Makruk's Thai review showed the outcome and the left side's pieces only, Makhos's
lacked the right side's time used and the game points."""
from __future__ import annotations

import pytest

from gameclock.core import clock as core
from gameclock.core.log import parse_log
from gameclock.replay import EXTRA_VERBS, fold_game
from gameclock.rules.loader import find_preset
from gameclock.ui import resultscreens as rs
from gameclock.ui.resultentry import ResultEntry

PAGES = range(6)  # more than any review has: a page past the last is the first again


def review(text: str, lines: list[str], lang: str) -> dict:
    """The review's view of the game `text` with the result `lines` entered (up for confirmation)."""
    log = parse_log(text, "t", extra_verbs=EXTRA_VERBS)
    preset = find_preset(log.preset)
    state, _ = fold_game(preset, log)
    r = ResultEntry(preset.scoring, core.view(state), level=log.header.get("level"))
    for words in lines:
        r.apply(words.split())
    r.reviewing = True
    return dict(r.view(lang), label=preset.short)


def pictures(rv: dict, side: int) -> set[bytes]:
    """Every page the player's display shows of the review."""
    out = set()
    for page in PAGES:
        img = rs.render_summary(dict(rv, page=page), side)
        assert img.size == (128, 64) and img.mode == "1"
        out.add(img.tobytes())
    return out


XW = "preset crossword\nlevel secondary\n0 start left\n600 press left\n900 press right\n1818 press left\n1900 finish\n"
XW_RIGHT_OT = "preset crossword\nlevel secondary\n0 start left\n300 press left\n1700 press right\n1800 finish\n"
MAKRUK = "preset makruk-30\n0 start right\n100 press right\n200 press left\n300 finish\n"
MAKRUK_COUNT = ("preset makruk-30\n0 start right\n100 press right\n110 count pieces right attacker=RR on_board=4\n"
                "200 press left\n210 press right\n300 finish\n")
MAKHOS = "preset makhos-30\n0 start left\n100 press left\n250 finish\n"
MAKHOS_RIGHT_SLOWER = "preset makhos-30\n0 start left\n100 press left\n290 finish\n"
SUDOKU = "preset sudoku-60\n0 start left\n2730 press left\n3010 press right\n"

XW_SCORES = ["score left 412", "score right 388"]
MAKRUK_ENTRY = ["outcome left mate", "material left RRM", "material right SP"]
MAKHOS_ENTRY = ["outcome left resignation"]
SUDOKU_ENTRY = ["score left 45", "correct left yes", "score right 41", "correct right no"]

# (what differs, game A, entry A, game B, entry B): the two reviews differ in that one thing only
CHANGES = [
    ("crossword: left's score", XW, XW_SCORES, XW, ["score left 413", "score right 388"]),
    ("crossword: right's score", XW, XW_SCORES, XW, ["score left 412", "score right 389"]),
    # XW-3: left is 3:18 over in XW (40 points); right's overtime in the other game
    ("crossword: right's overtime penalty", XW, XW_SCORES, XW_RIGHT_OT, XW_SCORES),
    ("makruk: the outcome", MAKRUK, MAKRUK_ENTRY, MAKRUK, ["outcome left resignation"] + MAKRUK_ENTRY[1:]),
    ("makruk: left's pieces", MAKRUK, MAKRUK_ENTRY, MAKRUK, ["outcome left mate", "material left RR",
                                                             "material right SP"]),
    ("makruk: right's pieces", MAKRUK, MAKRUK_ENTRY, MAKRUK, ["outcome left mate", "material left RRM",
                                                              "material right S"]),
    # MR-6: a pieces' count under way when the game ended is part of the record (CL-5's counts)
    ("makruk: the count", MAKRUK, MAKRUK_ENTRY, MAKRUK_COUNT, MAKRUK_ENTRY),
    ("makhos: the outcome", MAKHOS, MAKHOS_ENTRY, MAKHOS, ["outcome right resignation"]),
    # MH-7: the time used decides the last tie: right used 150 s, or 190 s
    ("makhos: right's time used", MAKHOS, MAKHOS_ENTRY, MAKHOS_RIGHT_SLOWER, MAKHOS_ENTRY),
    ("makhos: the draw given (MH-8)", MAKHOS, ["outcome draw agreement"], MAKHOS,
     ["outcome draw agreement", "drawloss left"]),
    ("sudoku: left's points", SUDOKU, SUDOKU_ENTRY, SUDOKU, ["score left 44"] + SUDOKU_ENTRY[1:]),
    ("sudoku: right's points", SUDOKU, SUDOKU_ENTRY, SUDOKU, SUDOKU_ENTRY[:2] + ["score right 40",
                                                                                 "correct right no"]),
    ("sudoku: right's all correct", SUDOKU, SUDOKU_ENTRY, SUDOKU, SUDOKU_ENTRY[:3] + ["correct right yes"]),
]


@pytest.mark.parametrize("lang", ["en", "th"])
@pytest.mark.parametrize("what, game_a, entry_a, game_b, entry_b", CHANGES, ids=[c[0] for c in CHANGES])
def test_each_sides_entry_shows_on_both_players_displays(lang, what, game_a, entry_a, game_b, entry_b):
    a, b = review(game_a, entry_a, lang), review(game_b, entry_b, lang)
    for side in (0, 1):
        assert pictures(a, side) != pictures(b, side), f"{what}: not on the {('left', 'right')[side]} display ({lang})"


def drawn(rv: dict) -> list[str]:
    """The lines a player's display draws over all the review's pages (a wrapped line joined again)."""
    out: list[str] = []
    for page in rs.review_pages(rv):
        for line in page:
            assert rs._fits(line, rv["lang"]), f"{line!r} is cut on the display"
            out.append(line)
    return out


def joined(lines: list[str]) -> str:
    return " ".join(lines).replace(": ", " ").replace(":", "")


EXPECTED = [
    # MR-9 win 2 loss 0; MR-10 values: R 5, M 2 -> 12; S 3, P 1 -> 4; MR-6/MR-7 K+2R v K: 4 pieces on the
    # board, the lone king's first counted move is 5, the limit 8
    ("makruk", MAKRUK_COUNT, MAKRUK_ENTRY, "en",
     ["LEFT WINS: MATE", "L K+RRM =12", "R K+SP =4", "PIECES COUNT R 5/8", "GAME POINTS L2 R0"]),
    ("makruk", MAKRUK_COUNT, MAKRUK_ENTRY, "th",
     ["ซ้ายชนะ: รุกจน", "ซ้าย เรือ 2 เม็ด =12", "ขวา โคน เบี้ย =4", "นับศักดิ์หมาก ขวา 5/8",
      "แต้ม ซ้าย 2 ขวา 0"]),
    # MH-8: left gave the draw, right wins; MH-7: left used 0 -> 100 s, right 100 -> 250 s; 2/0
    ("makhos", MAKHOS, ["outcome draw agreement", "drawloss left"], "en",
     ["RIGHT WINS: DRAW GIVEN", "DRAW = LOSS FOR LEFT", "L USED 1:40", "R USED 2:30", "GAME POINTS L0 R2"]),
    ("makhos", MAKHOS, ["outcome draw agreement", "drawloss left"], "th",
     ["ขวาชนะ: ให้เสมอ", "เสมอ = แพ้สำหรับซ้าย", "ซ้าย ใช้เวลา 1:40", "ขวา ใช้เวลา 2:30", "แต้ม ซ้าย 0 ขวา 2"]),
    # XW-3: left 3:18 over, 4 started minutes, 40 off; XW-8: 372 v 388, under the cap; XW-6: 0/2
    ("crossword", XW, XW_SCORES, "th",
     ["ซ้าย 412 เกินเวลา -40 = 372", "ขวา 388", "ขวาชนะ", "ผลต่าง -16/+16", "แต้ม ซ้าย 0 ขวา 2"]),
    # SU-3: left finished at 45:30 with 14:30 left, all correct: 14 whole minutes x 3 = 42
    ("sudoku", SUDOKU, SUDOKU_ENTRY, "th", ["ซ้าย 45 +42 = 87", "ขวา 41 ไม่ถูกหมด", "โบนัสเมื่อถูกหมด"]),
]


@pytest.mark.parametrize("kind, game, entry, lang, lines", EXPECTED, ids=[f"{e[0]}-{e[3]}" for e in EXPECTED])
def test_the_review_holds_every_line_and_draws_each_whole(kind, game, entry, lang, lines):
    rv = review(game, entry, lang)
    assert rs.review_lines(rv, lang) == lines
    assert joined(drawn(rv)) == joined(lines)  # every line on some page, in order, none cut
    if lang == "th":  # words, not Latin abbreviations: the sides and the overtime in Thai
        assert not any(w in line.split() for line in drawn(rv) for w in ("L", "R", "OT", "K"))
