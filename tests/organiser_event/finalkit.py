"""Helpers for the final classification's tests (issue 25): an event whose rounds are published with
boards given by hand, as a pairing system writes them (stage, note, game), and results stored as the
clocks send them. The classification reads only the published boards and the results, so a bracket or
a schedule worked by hand is its whole input."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from kit import rec

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
