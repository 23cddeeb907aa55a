"""Helpers that play an event the way the desk and the receiver do (issue 25): Pair (`events.draw`
with no seed, a new random one each time, as the desk's button), Publish, then every published
board's result stored as a clock sends it (the receiver's `Store.put_result`), so the next Pair
reads the results through `games_of` exactly as on tournament day.

    ev = new_event(store, "ko", "makhos-ko", ids="ABCDEFGH", options={...})
    r = pair_and_publish(store, "ko")                   # the round as published
    play(store, "ko", r, lambda b: "left")              # every board: the left player wins

A result function gets the board (a dict as the store keeps it) and returns "left", "right", "draw",
or a tuple (outcome, draw given by "left"/"right"/None, (left ms, right ms)) for MH-8's draw-giving
games and the time used."""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from evkit import rec

from gameclock.organiser import event as events

KINDS = {"makruk": "makruk-30", "makhos": "makhos-30"}   # a record's kind -> the preset its clock ran
_serials = itertools.count(1)

Outcome = str | tuple[str, str | None, tuple[int, int]]


def new_event(store, name: str, system: str, ids: Iterable[str], options: Mapping[str, Any] | None = None,
              campus: Mapping[str, str] | None = None, group: Mapping[str, str] | None = None,
              preset: str | None = None) -> dict[str, Any]:
    """An event of players named after their ids ("A" is "Player A"), as `gameclock event create` makes it."""
    from gameclock.organiser.pairing.model import Player

    players = [Player(id=i, name=f"Player {i}", campus=(campus or {}).get(i, ""), group=(group or {}).get(i, ""))
               for i in ids]
    return events.create_event(store, name, system, events.PlayerList(players), options=dict(options or {}),
                               preset=preset)


def name_of(pid: str) -> str:
    return f"Player {pid}"


def pair_and_publish(store, name: str, seed: int | None = None) -> dict[str, Any]:
    """Pair as the desk does (no seed: a new random one), then publish; the round as published."""
    events.draw(store, name, seed)
    return events.publish(store, name)


def play(store, name: str, rnd: Mapping[str, Any], result: Callable[[Mapping[str, Any]], Outcome],
         kind: str = "makhos") -> None:
    """A result for every board of `rnd` with an opponent, stored as the receiver stores a clock's
    record: its players by name, the round, the table and the game number pushed to the clock."""
    for b in rnd["boards"]:
        if b["right"] is None:
            continue
        out = result(b)
        outcome, given, times = (out, None, (0, 0)) if isinstance(out, str) else out
        winner, reason = outcome, None
        if given is not None:          # MH-8: the clock makes a draw given the other's win (core/result.py)
            assert outcome == "draw"
            winner, reason = ("right" if given == "left" else "left"), "draw-given"
        n = next(_serials)
        record = rec(f"play{b['table']}-{n:06d}", name, rnd["round"], b["table"], name_of(b["left"]),
                     name_of(b["right"]), winner, kind=kind, preset=KINDS[kind], stage=b["stage"], game=b["game"],
                     time_used=times, draw_loss=given, reason=reason, serial=f"play{b['table']}")
        assert store.put_result(record, "0" * 64, "kid0", "test") == "stored"


def boards(rnd: Mapping[str, Any]) -> list[tuple[int, str, str | None, int]]:
    """(table, left, right, game) of every board of a round."""
    return [(b["table"], b["left"], b["right"], b["game"]) for b in rnd["boards"]]


def pairs(rnd: Mapping[str, Any]) -> set[frozenset[str]]:
    return {frozenset((b["left"], b["right"])) for b in rnd["boards"] if b["right"] is not None}


def pushed_rows(store, name: str, rnd: int) -> list[dict[str, Any]]:
    """The pairings pushed to the clocks for round `rnd` of event `name`, by table."""
    return sorted((p for p in store.pairings() if p["event"] == name and p["round"] == rnd), key=lambda p: p["table"])
