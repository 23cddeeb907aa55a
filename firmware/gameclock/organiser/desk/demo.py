"""An embedded demo event for a first look (`gameclock desk --demo`): eight players with Thai names,
a Crossword event paired by xw10, round 1 played, round 2 published with three of its four tables'
results stored as the clocks would send them (move times, an XW-3 overtime, an arbiter's correction),
and a clock docked at the fourth table with its result confirmed but not yet sent.
"""
from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from gameclock.organiser import event as events
from gameclock.organiser.pairing import model
from gameclock.organiser.store import Store

NAME = "demo"
PLAYERS = [  # id, name, latin, school
    ("1", "สมชาย ใจดี", "Somchai Jaidee", "โรงเรียนสาธิต"),
    ("2", "มาลี ศรีสุข", "Malee Srisuk", "โรงเรียนสาธิต"),
    ("3", "อนันต์ วงศ์ทอง", "Anan Wongthong", "โรงเรียนบดินทร์"),
    ("4", "บุญมี มีสุข", "Boonmee Meesuk", "โรงเรียนบดินทร์"),
    ("5", "ชัยวัฒน์ ดีเลิศ", "Chaiwat Deelert", "โรงเรียนเตรียม"),
    ("6", "ดวงใจ แก้วงาม", "Duangjai Kaewngam", "โรงเรียนเตรียม"),
    ("7", "เอกชัย ทองดี", "Ekkachai Thongdee", "โรงเรียนสวนกุหลาบ"),
    ("8", "ฟ้าใส ใจงาม", "Fahsai Jai-ngam", "โรงเรียนสวนกุหลาบ"),
]
SERIAL = "demo0000000000c"
# the entered scores (left, right) of each round's tables: round 1 all in, round 2 three of four
ROUNDS = [[(398, 351), (344, 372), (420, 305), (366, 366)], [(412, 388), (355, 401), (377, 377)]]


def _moves(rng: random.Random, total_ms: int, n: int) -> list[int]:
    cuts = sorted(rng.sample(range(1, total_ms), n - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total_ms], strict=True)]


def demo_record(seq: int, rnd: int, table: int, left: str, right: str, scores: tuple[int, int],
                rng: random.Random, overtime_ms: int = 0, corrections: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A Crossword result as a clock builds it (docs/result-record.md), secondary level (cap 250)."""
    penalty = -(-overtime_ms // 60_000) * 10  # XW-3: 10 a started minute
    final = (scores[0] - penalty, scores[1])
    spread = max(-250, min(250, final[0] - final[1]))
    outcome = "left" if spread > 0 else "right" if spread < 0 else "draw"
    used = (1_320_000 + overtime_ms, rng.randrange(900_000, 1_300_000))
    sides = {}
    for i, side in enumerate(("left", "right")):
        n = rng.randrange(9, 14)
        sides[side] = {"time_used_ms": used[i], "moves": n, "move_ms": _moves(rng, used[i], n),
                       "remaining_ms": 1_320_000 - used[i], "overtime_ms": overtime_ms if i == 0 else 0,
                       "penalty_points": penalty if i == 0 else 0, "flagged": False, "extensions_used": None,
                       "finish_ms": None, "bonus_points": None}
    points = {"left": 2 if outcome == "left" else 1 if outcome == "draw" else 0}
    points["right"] = 2 - points["left"]
    rec: dict[str, Any] = {
        "schema": 1, "id": f"{SERIAL}-{seq:06d}", "clock": {"serial": SERIAL, "seq": seq, "firmware": "0.2.0"},
        "event": NAME, "round": rnd, "table": table, "level": "secondary", "stage": "qualifying",
        "players": {"left": left, "right": right}, "first": "left",
        "preset": {"id": "crossword", "name": "Crossword 22:00", "rules": ["XW-1", "XW-2", "XW-3"]},
        "game": 1, "tiebreak": 0, "kind": "crossword",
        "started": f"2024-11-02T03:{10 + table:02d}:00.000Z", "ended": f"2024-11-02T03:{50 + table:02d}:00.000Z",
        "duration_ms": used[0] + used[1], "ended_by": "finish", "sides": sides, "counting": None,
        "outcome": outcome, "reason": "score", "draw_counts_as_loss_for": None,
        "scores": {"entered": {"left": scores[0], "right": scores[1]},
                   "penalties": {"left": penalty, "right": 0}, "bonus": None, "correct": None,
                   "final": {"left": final[0], "right": final[1]},
                   "spread": {"left": spread, "right": -spread}, "cap": 250, "game_points": points},
        "material": None, "material_value": None, "confirmations": {"left": True, "right": True},
        "confirmed": True, "complete": True,
        "entries": [{"t_ms": 2_600_000, "line": f"score left {scores[0]}"},
                    {"t_ms": 2_602_000, "line": f"score right {scores[1]}"},
                    {"t_ms": 2_604_000, "line": "confirm left"}, {"t_ms": 2_605_000, "line": "confirm right"}],
    }
    if corrections:
        rec["corrections"] = corrections
    return rec


def build_demo(db_path: str | os.PathLike[str]) -> bool:
    """Fill the store at `db_path` with the demo event unless it has one already. Returns whether
    it did."""
    with Store(Path(db_path)) as store:
        if NAME in store.events():
            return False
        plist = events.PlayerList([model.Player(id=i, name=n, latin=lat, campus=c, level="secondary")
                                   for i, n, lat, c in PLAYERS])
        events.create_event(store, NAME, "xw10", plist, rounds=5, language="th", preset="crossword",
                            level="secondary")
        rng = random.Random(17)
        names = {p["id"]: p["name"] for p in store.event_players(NAME)}
        seq = 0
        for rnd, scores in enumerate(ROUNDS, start=1):
            events.draw(store, NAME, seed=17 + rnd)
            r = events.publish(store, NAME)
            boards = [b for b in r["boards"] if b["right"] is not None]
            for i, (b, sc) in enumerate(zip(boards, scores, strict=False)):
                seq += 1
                corrections = ([{"kind": "time", "side": "left", "t_ms": 600_000,
                                 "before_ms": {"left": 700_000, "right": 900_000},
                                 "after_ms": {"left": 760_000, "right": 900_000},
                                 "moves_before": {"left": 4, "right": 4}, "moves_after": {"left": 4, "right": 4}}]
                               if (rnd, i) == (2, 1) else None)
                rec = demo_record(seq, r["round"], b["table"], names[b["left"]], names[b["right"]], sc, rng,
                                  overtime_ms=198_000 if (rnd, i) == (2, 0) else 0, corrections=corrections)
                store.put_result(rec, "0" * 64, "demo", "demo")
        if len(boards) > len(ROUNDS[-1]):
            last = boards[len(ROUNDS[-1])]
            store.seen("demo0000000000d", {"fw": "0.2.0", "kid": None, "event": NAME, "round": r["round"],
                                           "table": last["table"], "pending": 1})
    return True
