"""Hand-built tournaments for the export tests, made of the standings tests' minimal records
(tests/standings/kit.py `rec`) and one real record (result-crossword-overtime.log, XW-3), and a tsh
line reader built on tsh's own pattern (DESIGN.md §6), independent of gameclock.organiser.exports.tsh.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "standings"))

from kit import bye, rec  # noqa: E402

from gameclock.record import record_from_log  # noqa: E402

# tsh's own reading pattern, copied from DESIGN.md §6
TSH = re.compile(r"^(.+?\S)\s+(\d+(?:[.+]\d+)*)\s*([\d\s]*);\s*([-\d\s]*)((?:;[^;]*)*)$")


def read_tsh(text: str) -> list[dict]:
    """Every line of a .t file read with tsh's pattern: id (line number), name, rating, opps,
    scores, and the extra fields by key (as ints). AssertionError for a line that does not parse."""
    players = []
    for n, line in enumerate(text.splitlines(), start=1):
        m = TSH.match(line)
        assert m is not None, f"line {n} does not parse with tsh's pattern: {line!r}"
        name, rating, opps, scores, extras = m.groups()
        extra = {}
        for chunk in extras.split(";")[1:]:
            words = chunk.split()
            extra[words[0]] = [int(w) for w in words[1:]]
        players.append({"id": n, "name": name, "rating": rating, "opps": [int(x) for x in opps.split()],
                        "scores": [int(x) for x in scores.split()], **extra})
    return players


def overtime_record() -> dict:
    """tests/scenarios/result-crossword-overtime.log: event 3, round 2, table 14, Somchai (left,
    started) v Malee. XW-3: Somchai 412 on the board, 3:18 over = 4 started minutes = 40 off: 372;
    Malee 388. Secondary level (the preset's default)."""
    path = TESTS / "scenarios" / "result-crossword-overtime.log"
    return record_from_log(path.read_text(encoding="utf-8"), str(path), "C1", 1)


def xw(n, event, rnd, table, left, right, ls, rs, first, level="secondary", **kw) -> dict:
    """A crossword record from final scores (the clock's XW-8 capped spread: these margins are under
    every cap), winner by the scores."""
    d = ls - rs
    winner = "left" if d > 0 else "right" if d < 0 else "draw"
    return rec(f"clock1-{n:06d}", event, rnd, table, left, right, winner, scores=(ls, rs), spread=d,
               first=first, level=level, **kw)


def crossword_event_3() -> tuple[list[dict], list]:
    """Event 3, secondary Crossword, 5 players, 2 rounds, a bye each round.

    round 1: table 1  Anan (left, first) 420 v Boon 380
             table 2  Somchai 350 v Chai (right, first) 400
             bye      Malee  (XW-9: +100)
    round 2: table 14 Somchai (left, first) 412 - 40 = 372 v Malee 388   (the real record, XW-3)
             table 15 Chai (left, first) 390 v Anan 390  (a draw)
             bye      Boon   (+100)
    """
    records = [xw(1, "3", 1, 1, "Anan", "Boon", 420, 380, "left"),
               xw(2, "3", 1, 2, "Somchai", "Chai", 350, 400, "right"),
               overtime_record(),
               xw(3, "3", 2, 15, "Chai", "Anan", 390, 390, "left")]
    return records, [bye("3", 1, "Malee"), bye("3", 2, "Boon")]


# Event 3 as tsh lines, worked out by hand. Ids by first appearance: round 1 table 1 left, right,
# table 2 left, right: Anan 1, Boon 2, Somchai 3, Chai 4; then round 1's bye: Malee 5.
EVENT_3_TSH = [
    "Anan 0 2 4; 420 390; p12 1 2; board 1 15",        # beat Boon (first); drew Chai (Chai first)
    "Boon 0 1 0; 380 100; p12 2 0; board 1 0",         # lost to Anan; bye +100 (XW-9)
    "Somchai 0 4 5; 350 372; p12 2 1; board 2 14",     # XW-3: 412 entered, 40 off: 372
    "Chai 0 3 1; 400 390; p12 1 1; board 2 15",
    "Malee 0 0 3; 100 388; p12 0 2; board 0 14",       # bye +100, then beat Somchai 388-372
]


def crossword_event_9() -> tuple[list[dict], list]:
    """Event 9 with two levels (so two divisions, 9-primary and 9-secondary), 3 players each, 2 rounds.

    primary:   r1 t1 Dao (left, first) 300 v Ek 280;  bye Fah (XW-9 primary Crossword: +50)
               r2 t1 Fah 330 v Dao (right, first) 310; bye Ek (+50)
    secondary: r1 t2 Gun 410 v Ham (right, first) 405; bye Ice (+100)
               r2 t2 Ice (left, first) 360 v Gun 420;  bye Ham (+100)
    """
    records = [xw(11, "9", 1, 1, "Dao", "Ek", 300, 280, "left", level="primary"),
               xw(12, "9", 2, 1, "Fah", "Dao", 330, 310, "right", level="primary"),
               xw(13, "9", 1, 2, "Gun", "Ham", 410, 405, "right"),
               xw(14, "9", 2, 2, "Ice", "Gun", 360, 420, "left")]
    return records, [bye("9", 1, "Fah"), bye("9", 2, "Ek"), bye("9", 1, "Ice"), bye("9", 2, "Ham")]


EVENT_9_PRIMARY_TSH = [
    "Dao 0 2 3; 300 310; p12 1 1; board 1 1",
    "Ek 0 1 0; 280 50; p12 2 0; board 1 0",            # XW-9: primary Crossword bye +50
    "Fah 0 0 1; 50 330; p12 0 2; board 0 1",
]
EVENT_9_SECONDARY_TSH = [
    "Gun 0 2 3; 410 420; p12 2 2; board 2 2",
    "Ham 0 1 0; 405 100; p12 1 0; board 2 0",          # XW-9: +100
    "Ice 0 0 1; 100 360; p12 0 1; board 0 2",
]


def mk(n, rnd, table, left, right, winner, reason, first, pieces, event="mk") -> dict:
    """A makruk-45 record (MR-9 game points 2/1/0 from the winner; MR-10 piece values)."""
    return rec(f"mk1-{n:06d}", event, rnd, table, left, right, winner, reason=reason, first=first,
               piece_value=pieces, preset="makruk-45", kind="makruk", serial="mk1")


def makruk_event() -> list[dict]:
    """Event mk, Makruk (makruk-45), 4 players, a round robin of 3 rounds, no byes.

    round 1: t1 Arun (left, first) beats Bua (mate);      t2 Chan v Dee (right, first): draw (agreement)
    round 2: t1 Arun v Chan (right, first): Chan wins (resignation)
             t2 Bua v Dee: Bua does not come: Dee wins by forfeit (no clock ran: first unknown)
    round 3: t1 Dee (left, first) v Arun: draw (stalemate);  t2 Bua (left, first) beats Chan (flag)
    """
    return [mk(1, 1, 1, "Arun", "Bua", "left", "mate", "left", (9, 4)),
            mk(2, 1, 2, "Chan", "Dee", "draw", "agreement", "right", (5, 5)),
            mk(3, 2, 1, "Arun", "Chan", "right", "resignation", "right", (2, 10)),
            mk(4, 2, 2, "Bua", "Dee", "right", "forfeit", None, (0, 0)),
            mk(5, 3, 1, "Dee", "Arun", "draw", "stalemate", "left", (4, 4)),
            mk(6, 3, 2, "Bua", "Chan", "left", "flag", "left", (7, 6))]
