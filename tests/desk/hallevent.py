"""A Thai school event as the players' phones see it (issue 28): 40 players with long Thai names (first names
that are not dictionary words, e.g. ณัฏฐ์ธยาน์, ชญานิษฐ์), a Crossword event paired by xw10 (XW-10: six
qualifying rounds, then the final and the game for third place), rounds 1-6 played, round 7 published with
the final's result in and the third-place game still playing. The results are signed records as the clocks
build them (demo.demo_record), with result ids like `vm-000118` that must never reach a public page.

    build(db_path) -> {"event", "names": [40 names], "ids": {name: player id}}
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from gameclock.organiser import event as events
from gameclock.organiser.desk.demo import demo_record
from gameclock.organiser.pairing import model
from gameclock.organiser.store import Store

EVENT = "ครอสเวิร์ดเกมมัธยมศึกษา2569"   # a school event's long name (its title took three lines on a phone)
FIRST = ["ณัฏฐ์ธยาน์", "ชญานิษฐ์", "ปุณณวิชญ์", "ธนกฤต", "ศุภณัฐ", "กิตติภูมิ", "พิชญาภา", "ณัฐณิชา", "ภูริณัฐ",
         "วรินทร์ธร"]
LAST = ["บุญประเสริฐ", "ศรีสุขสวัสดิ์", "วงศ์ทองเจริญ", "เกียรติไพบูลย์"]
NAMES = [f"{f} {s}" for s in LAST for f in FIRST]   # 40 names, each two parts (first name, family name)
SCHOOLS = ["โรงเรียนสาธิตมหาวิทยาลัย", "โรงเรียนเตรียมอุดมศึกษา"]


def build(path: Path, players: int = 40, event: str = EVENT) -> dict[str, Any]:
    """The event in a new store at `path` (module doc). `players` > 40 repeats the names with a number."""
    names = NAMES[:players] + [f"{NAMES[i % 40]} {i}" for i in range(40, players)]
    rng = random.Random(28)
    with Store(path) as store:
        plist = events.PlayerList([model.Player(id=str(i + 1), name=n, latin=f"Player {i + 1}",
                                                campus=SCHOOLS[i % 2], level="secondary")
                                   for i, n in enumerate(names)])
        events.create_event(store, event, "xw10", plist, rounds=7, language="th", preset="crossword",
                            level="secondary")
        by_id = {p["id"]: p["name"] for p in store.event_players(event)}
        seq = 0
        for rnd in range(1, 8):
            events.draw(store, event, seed=rnd)
            r = events.publish(store, event)
            for b in r["boards"]:
                if b["right"] is None or (rnd == 7 and b["note"] == "third place"):
                    continue   # a bye; the game for third place still playing
                seq += 1
                scores = (300 + rng.randrange(160), 300 + rng.randrange(160))
                rec = demo_record(seq, rnd, b["table"], by_id[b["left"]], by_id[b["right"]], scores, rng)
                rec.update(event=event, stage=b["stage"], id=f"vm-{seq:06d}")
                rec["clock"] = {**rec["clock"], "seq": seq}
                store.put_result(rec, "0" * 64, "demo", "demo")
        return {"event": event, "names": names, "ids": {p["name"]: p["id"] for p in store.event_players(event)}}
