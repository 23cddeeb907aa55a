"""Helpers for the event tests (issue 16): a tiny pairing system registered for a test only, a
player list with Thai and Latin names, results stored as the clocks would send them.

The system "t-fold" pairs the active players in list order in round 1 (shuffled by the seed when the
event's option shuffle is true), later by points (most first; equal points keep list order): 1st v
2nd, 3rd v 4th ..., an odd player out gets a bye on the last table. Options `game` and `stage` go on
every board. Every state it was given is kept in `SEEN` (what the event fed it)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

from gameclock.organiser.pairing import model

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "standings"))

from kit import rec  # noqa: E402

FOLD = "t-fold"
SEEN: list[tuple[model.EventState, int, int]] = []

# id,name,latin,school,level,rating + an ignored column; Thai names with their Latin spelling
PLAYERS_CSV = """id,name,latin,school,level,rating,score
1,สมชาย ใจดี,Somchai Jaidee,โรงเรียนสาธิต,secondary,1500,x
2,มาลี ศรีสุข,Malee Srisuk,Satit School,secondary,1400,
3,Anan Wong,,Satit School,secondary,0,
4,บุญมี มีสุข,Boonmee Meesuk,,secondary,,
5,Chai Dee,,,secondary,,
"""
NAMES = {"1": "สมชาย ใจดี", "2": "มาลี ศรีสุข", "3": "Anan Wong", "4": "บุญมี มีสุข", "5": "Chai Dee"}


def fold(state: model.EventState, rnd: int, seed: int) -> model.RoundDraft:
    SEEN.append((state, rnd, seed))
    order = [p.id for p in state.players]
    if rnd == 1:
        if state.options.get("shuffle", True):
            random.Random(seed).shuffle(order)
    else:
        pts = model.points(state.games)
        order.sort(key=lambda pid: -pts.get(pid, 0.0))
    game = int(state.options.get("game", 1))  # type: ignore[call-overload]
    stage = str(state.options.get("stage", "qualifying"))
    boards = [model.Board(i // 2 + 1, order[i], order[i + 1], game=game, stage=stage)
              for i in range(0, len(order) - 1, 2)]
    if len(order) % 2:
        boards.append(model.Board(len(boards) + 1, order[-1], None, note="bye"))
    return model.RoundDraft(rnd, FOLD, seed, tuple(boards), notes=(f"{len(order)} players folded",))


def register(name: str, fn) -> None:
    model.system(name)(fn)


def unregister(*names: str) -> None:
    for n in names:
        model.SYSTEMS.pop(n, None)


def xw_result(n: int, event: str, rnd: int, table: int, left: str, right: str, ls: int, rs: int,
              game: int = 1, time_used=(0, 0)) -> dict:
    """A Crossword result as a clock records it (left started: `first` left; spread uncapped here)."""
    d = ls - rs
    winner = "left" if d > 0 else "right" if d < 0 else "draw"
    return rec(f"clock1-{n:06d}", event, rnd, table, left, right, winner, scores=(ls, rs), spread=d,
               first="left", game=game, time_used=time_used)


def store_results(store, records) -> None:
    for r in records:
        assert store.put_result(r, "0" * 64, "kid0", "test") == "stored"
