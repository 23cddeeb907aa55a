"""Test helpers for the standings: minimal result records (only the keys
`gameclock.organiser.standings.games.game_from_record` reads), hand-built tournaments' games and byes, and a
store holding them for the CLI.

    from kit import rec, xw, su, bye, games, preset, store_with

    rec("c-1", "3", 1, 1, "Anan", "Boon", "left", scores=(412, 388), spread=24)

Per-side values are given as (left, right) pairs (or dicts); `spread=N` alone means left +N, right
-N (XW-8: the loser's spread is the negative of the winner's). `points` default to XW-6 / MR-9 /
MH-7's 2/1/0 from `winner` (None while there is no result).
"""
from __future__ import annotations

from gameclock.organiser.standings.games import Bye, games_from_records
from gameclock.rules.loader import find_preset

SIDES = ("left", "right")
WDL = (2, 1, 0)


def sides(value) -> dict | None:
    """(l, r) or {"left", "right"} -> {"left": l, "right": r}; None stays None."""
    if value is None or isinstance(value, dict):
        return value
    left, right = value
    return {"left": left, "right": right}


def game_points(winner: str | None, wdl=WDL) -> dict | None:
    if winner is None:
        return None
    win, draw, loss = wdl
    if winner == "draw":
        return {"left": draw, "right": draw}
    return {s: win if s == winner else loss for s in SIDES}


def rec(id: str, event: str | None, round: int | None, table: int | None, left: str | None,
        right: str | None, winner: str | None, *, points=..., spread=None, scores=None, bonus=None,
        piece_value=None, time_used=(0, 0), draw_loss=None, stage="qualifying", level=...,
        preset="crossword", kind="crossword", game=1, first=None, reason=None, serial="clock1") -> dict:
    """One minimal record (docs/result-record.md names the keys). `winner`: "left", "right", "draw"
    or None (no result yet)."""
    if points is ...:
        points = game_points(winner)
    if isinstance(spread, int):
        spread = {"left": spread, "right": -spread}
    if level is ...:  # XW-8: a Crossword-family record always carries its game's level (secondary here)
        level = "secondary" if kind == "crossword" else None
    seq = int(id.rsplit("-", 1)[-1]) if id.rsplit("-", 1)[-1].isdigit() else 1
    return {
        "schema": 1, "id": id, "clock": {"serial": serial, "seq": seq},
        "event": event, "round": round, "table": table, "level": level, "stage": stage,
        "players": {"left": left, "right": right},
        "preset": {"id": preset}, "kind": kind, "game": game,
        "outcome": winner, "reason": reason, "draw_counts_as_loss_for": draw_loss, "first": first,
        "sides": {s: {"time_used_ms": v} for s, v in sides(time_used).items()},
        "scores": {"final": sides(scores), "spread": sides(spread), "bonus": sides(bonus),
                   "game_points": sides(points)},
        "material_value": sides(piece_value),
        "ended": None,
    }


def bye(event: str | None, round: int, player: str) -> Bye:
    return Bye(event, round, player)


def games(*records: dict):
    """The Games of `records` (games_from_records)."""
    return games_from_records(records)


def preset(preset_id: str):
    """A preset of the repository's rules/ folder (only that file is read)."""
    return find_preset(preset_id)


def xw(n: int, event: str | None, round: int, table: int, left: str, right: str, left_score: int,
       right_score: int, cap: int | None = 250, **kw) -> dict:
    """A crossword-family record from the final scores: the winner by the scores, the spread
    capped at `cap` (XW-8; None: the final, no cap), id `clock1-{n:06}`."""
    d = left_score - right_score
    if cap is not None:
        d = max(-cap, min(cap, d))
    winner = "left" if d > 0 else "right" if d < 0 else "draw"
    return rec(f"clock1-{n:06}", event, round, table, left, right, winner, scores=(left_score, right_score),
               spread=d, **kw)


def su(n: int, event: str | None, round: int, table: int, left: str | None, right: str | None,
       left_points: int, right_points: int, left_bonus: int = 0, right_bonus: int = 0, **kw) -> dict:
    """A Sudoku round-timer record of two competitors: final = puzzle points + bonus (SU-2, SU-3; the
    clock gives the bonus only when all are correct), id `clock5-{n:06}`."""
    final = (left_points + left_bonus, right_points + right_bonus)
    winner = "left" if final[0] > final[1] else "right" if final[0] < final[1] else "draw"
    return rec(f"clock5-{n:06}", event, round, table, left, right, winner, scores=final,
               bonus=(left_bonus, right_bonus), preset="sudoku-60", kind="sudoku", **kw)


def store_with(path, records, byes=()) -> None:
    """A real organiser-PC database at `path` holding `records` (as received results; the store does
    not check signatures, the receiver does) and `byes` ({"event", "round", "player"} or Bye)."""
    from gameclock.organiser.store import Store

    with Store(path) as store:
        for r in records:
            assert store.put_result(r, "0" * 64, "kid0", "test") == "stored"
        store.put_byes([b if isinstance(b, dict) else {"event": b.event, "round": b.round, "player": b.player}
                        for b in byes])
