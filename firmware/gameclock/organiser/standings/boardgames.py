"""What the Makruk and Makhos standings (makruk.py, makhos.py) share: which games count, the game
points the event's rule file gives, the games of each pairing in a round, and knockout matches.

    sel = select(games, byes, event=..., round=...)   # sel.games ranked, sel.knockout (stage final)
    pts = game_points(preset)                          # {"win": 2, "draw": 1, "loss": 0}

A game counts when both its players are named and it has a result; the others are left out and said
so in the notes. Games in stage "final" are knockout games (MR-12, MH-8): a knockout is not a table,
so they are only reported, match by match, never ranked.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gameclock.organiser.standings.games import SIDES, Bye, Game
from gameclock.words import note

if TYPE_CHECKING:
    from gameclock.rules.loader import Preset

KNOCKOUT_STAGE = "final"
DEFAULT_POINTS = {"win": 2, "draw": 1, "loss": 0}   # MR-9, MH-7
PairingKey = tuple[int | None, str, str]   # (round, player, player), the names sorted


@dataclass
class Selected:
    games: list[Game] = field(default_factory=list)      # ranked: named, with a result, not knockout
    knockout: list[Game] = field(default_factory=list)   # stage "final" (MR-12, MH-8)
    byes: list[Bye] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _ids(games: list[Game]) -> str:
    shown = ", ".join(g.id for g in games[:5])
    return shown + (f" and {len(games) - 5} more" if len(games) > 5 else "")


def select(games: Iterable[Game], byes: Iterable[Bye] = (), event: str | None = None,
           round: int | None = None) -> Selected:
    """The games and byes of `event` (all when None) up to and including `round` (all when None)."""
    sel = Selected()
    unnamed: list[Game] = []
    no_result: list[Game] = []
    for g in games:
        if event is not None and g.event != event:
            continue
        if round is not None and (g.round is None or g.round > round):
            continue
        if not all(g.players.get(s) for s in SIDES) or g.players["left"] == g.players["right"]:
            unnamed.append(g)
        elif g.winner is None:
            no_result.append(g)
        elif g.stage == KNOCKOUT_STAGE:
            sel.knockout.append(g)
        else:
            sel.games.append(g)
    sel.byes = [b for b in byes if (event is None or b.event == event) and (round is None or b.round <= round)]
    if unnamed:
        sel.notes.append(note("{n} game(s) without both players' names left out: {ids}", n=len(unnamed),
                              ids=_ids(unnamed)))
    if no_result:
        sel.notes.append(note("{n} game(s) without a result left out: {ids}", n=len(no_result), ids=_ids(no_result)))
    return sel


def game_points(preset: Preset | None = None) -> dict[str, int]:
    """Points per game result from the rule file's [scoring] (MR-9 MP, MH-7 game points; 2/1/0 without one)."""
    sc = getattr(preset, "scoring", None)
    if sc is None or sc.kind not in ("makruk", "makhos"):
        return dict(DEFAULT_POINTS)
    return {"win": sc.win_points, "draw": sc.draw_points, "loss": sc.loss_points}


def pairings(games: Iterable[Game]) -> dict[PairingKey, list[Game]]:
    """The games of each pairing: (round, player, player) with the two names sorted -> its games in the
    order they were played (game number, then end time, then id)."""
    out: dict[PairingKey, list[Game]] = defaultdict(list)
    for g in games:
        a, b = sorted((g.name("left"), g.name("right")))
        out[(g.round, a, b)].append(g)
    for gs in out.values():
        gs.sort(key=lambda g: (g.game, g.ended or "", g.id))
    return dict(sorted(out.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1], kv[0][2])))


def clock_time(ms: int | None) -> str:
    """Milliseconds as the clock shows time: "M:SS" (minutes may pass 59), with the exact
    milliseconds after a point when there are any ("30:41.25")."""
    if ms is None:
        return ""
    sign = "-" if ms < 0 else ""
    ms = abs(int(ms))
    whole, frac = divmod(ms, 1000)
    text = f"{sign}{whole // 60}:{whole % 60:02d}"
    return text + (f".{frac:03d}".rstrip("0") if frac else "")
