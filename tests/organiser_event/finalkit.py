"""Helpers for the final classification's tests (issue 25): an event whose rounds are published with
boards given by hand, as a pairing system writes them (stage, note, game), and results stored as the
clocks send them. The classification reads only the published boards and the results, so a bracket or
a schedule worked by hand is its whole input."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from kit import rec, xw

from gameclock.organiser import event as events
from gameclock.organiser.pairing.model import Player

Board = tuple  # (table, left, right, game, stage, note)


def new_event(store, name: str, system: str, ids: Iterable[str], *, options=None, preset=None, level=None,
              rounds: int = 0, names=None) -> None:
    """An event of players named "Player X" (or `names[id]`), as `gameclock event create` makes it."""
    players = [Player(id=i, name=(names or {}).get(i, f"Player {i}")) for i in ids]
    events.create_event(store, name, system, events.PlayerList(players), rounds=rounds, options=dict(options or {}),
                        preset=preset, level=level)


def publish(store, name: str, rnd: int, boards: Sequence[Board], seed: int = 1) -> dict:
    """Round `rnd` published with these boards (table, left, right, game, stage, note), through the
    store's draft and `event.publish` (the pairings and byes the clocks get)."""
    ev = store.event(name)
    store.put_draft(name, rnd, ev["system"], seed,
                    [{"table": t, "left": a, "right": b, "game": g, "stage": s, "note": n} for t, a, b, g, s, n in boards],
                    [])
    return events.publish(store, name)


_n = [0]


def result(store, name: str, rnd: int, table: int, left: str, right: str, winner: str | None, *, kind: str,
           preset: str, game: int = 1, stage: str = "qualifying", **kw) -> None:
    """One result as the clock records it (players by name), stored as the receiver stores it."""
    _n[0] += 1
    record = rec(f"clock{table}-{_n[0]:06d}", name, rnd, table, left, right, winner, kind=kind, preset=preset,
                 game=game, stage=stage, serial=f"clock{table}", **kw)
    assert store.put_result(record, "0" * 64, "kid0", "test") == "stored"


def placings(fc) -> list[tuple[str, str, str]]:
    """(place, player, medal) of every row; "committee" where XW-11 leaves it to the committee."""
    return [(r.place, r.player, "committee" if r.committee else (r.medal or "")) for r in fc.rows]


def waiting(fc) -> list[str]:
    """What the classification waits for, in English."""
    return [str(w) for w in fc.waiting]


# ------------------------------------------------------------------------------------------ XW-10, 13 players
# The hand-worked 13-player XW-10 event of test_final_xw10.py (its doc works the places): round r, the
# bye P(14-r); the other twelve in id order meet their neighbour; the lower id wins by its own margin.
XW_IDS = [f"P{i:02d}" for i in range(1, 14)]
XW_MARGIN = {1: 30, 3: 60, 5: 50, 7: 40, 9: 20, 10: 70, 11: 10, 12: 35}
XW_PAIRS = {1: [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)],
            2: [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 13)],
            3: [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (12, 13)],
            4: [(1, 2), (3, 4), (5, 6), (7, 8), (9, 11), (12, 13)],
            5: [(1, 2), (3, 4), (5, 6), (7, 8), (10, 11), (12, 13)],
            6: [(1, 2), (3, 4), (5, 6), (7, 9), (10, 11), (12, 13)]}
# Thai names and schools for the pages' pictures (the classification knows players by these names)
THAI = {"P01": ("สมชาย ใจดี", "โรงเรียนสาธิต"), "P02": ("มาลี ศรีสุข", "โรงเรียนสาธิต"),
        "P03": ("อนันต์ วงศ์ทอง", "โรงเรียนบดินทร์"), "P04": ("บุญมี มีสุข", "โรงเรียนบดินทร์"),
        "P05": ("ชัยวัฒน์ ดีเลิศ", "โรงเรียนเตรียม"), "P06": ("ดวงใจ แก้วงาม", "โรงเรียนเตรียม"),
        "P07": ("เอกชัย ทองดี", "โรงเรียนสวนกุหลาบ"), "P08": ("ฟ้าใส ใจงาม", "โรงเรียนสวนกุหลาบ"),
        "P09": ("กานดา รักเรียน", "โรงเรียนนวมินทราชินูทิศ"), "P10": ("ธนพล ใจกล้า", "โรงเรียนนวมินทราชินูทิศ"),
        "P11": ("ปิยะ สุขใจ", "โรงเรียนหอวัง"), "P12": ("รัตนา พรหมมา", "โรงเรียนหอวัง"),
        "P13": ("วิชัย ศรีทอง", "โรงเรียนสาธิต")}


def xw_name(i: int, thai: bool = False) -> str:
    pid = f"P{i:02d}"
    return THAI[pid][0] if thai else f"Player {pid}"


def build_xw10(store, name: str, upto: int = 6, final: bool = True, thai: bool = False,
               levels: dict[str, str] | None = None) -> None:
    """The 13-player event, secondary Crossword, played to round `upto`; with `final` (and upto 6) round 7
    too: the final P03 v P05 (P05 wins 450-300) and third place P07 v P01 (P01 wins 400-380). `levels`:
    the players' own levels (the event then has none), else all secondary."""
    players = [Player(id=pid, name=THAI[pid][0] if thai else f"Player {pid}", campus=THAI[pid][1] if thai else "",
                      level=(levels or {}).get(pid, "secondary")) for pid in XW_IDS]
    events.create_event(store, name, "xw10", events.PlayerList(players), rounds=7, preset="crossword",
                        level=None if levels else "secondary", language="th" if thai else None)
    n = 0
    for rnd in range(1, upto + 1):
        stage = "last" if rnd == 6 else "qualifying"
        boards = [(t, f"P{a:02d}", f"P{b:02d}", 1, stage, "") for t, (a, b) in enumerate(XW_PAIRS[rnd], start=1)]
        boards.append((7, f"P{14 - rnd:02d}", None, 1, "qualifying", "bye"))     # XW-9: after the last table
        publish(store, name, rnd, boards)
        for t, (a, b) in enumerate(XW_PAIRS[rnd], start=1):
            n += 1
            store.put_result(xw(n, name, rnd, t, xw_name(a, thai), xw_name(b, thai), 400, 400 - XW_MARGIN[a],
                                cap=200 if rnd == 6 else 250, stage=stage), "0" * 64, "kid0", "test")
    if final and upto == 6:
        publish(store, name, 7, [(1, "P03", "P05", 1, "final", "final"), (2, "P07", "P01", 1, "final", "third place")])
        store.put_result(xw(99, name, 7, 1, xw_name(3, thai), xw_name(5, thai), 300, 450, cap=None, stage="final"),
                         "0" * 64, "kid0", "test")
        store.put_result(xw(98, name, 7, 2, xw_name(7, thai), xw_name(1, thai), 380, 400, cap=None, stage="final"),
                         "0" * 64, "kid0", "test")
