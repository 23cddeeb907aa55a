"""Find my table (issue 28): every player of an event with their table in the round paired last, built
once per store stamp (public.py shares it, hall.Shared) and searched in memory; the players page's
alphabetical list is the same index. Plain data, no HTTP.

A query matches a player when every word of it is part of their name, their Latin name, their school or
their id (case folded, Unicode NFC, spaces collapsed), so "ใจดี", "somchai" and "ใจ สาธิต" all find สมชาย
ใจดี of โรงเรียนสาธิต. The side: `left` starts (RULES.md, "Sides": the first-named player on a sheet).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from gameclock.organiser.store import Store

MAX_QUERY = 80        # characters of a query looked at (a name and a school fit)
MAX_FOUND = 50        # players a search answers with (a common part of a name: the first 50 in order)
# Thai vowels written before the consonant they follow in speech (เ แ โ ใ ไ): the dictionary orders a word by
# its consonant first, so the sort key moves each after the consonant it precedes
PREPOSED = re.compile("([\u0e40-\u0e44])([\u0e01-\u0e2e])")
# tone marks and the other signs that do not order words at the first level (Thai dictionary order)
TONES = re.compile("[\u0e47-\u0e4e]")
SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """`text` as compared: NFC, case folded, runs of spaces one space, trimmed."""
    return SPACES.sub(" ", unicodedata.normalize("NFC", text).casefold()).strip()


def sort_key(name: str) -> tuple[str, str]:
    """A name's place in an alphabetical list: Thai in dictionary order (a preposed vowel after its
    consonant, tone marks at the second level), Latin case-insensitive, Latin before Thai."""
    swapped = PREPOSED.sub(r"\2\1", fold(name))
    return TONES.sub("", swapped), swapped


class Seat(NamedTuple):
    """A player's place in the round: `table` (None for a bye), `side` ("left" starts, "right"), the
    opponent's name ("" when none)."""
    table: int | None
    side: str | None
    opponent: str
    bye: bool = False


@dataclass(frozen=True)
class Entry:
    """One player of the index: `pid` (None for a name only the pairings carry: no card), `name`, `latin`,
    `campus`, `withdrawn`, `seat` (None: not paired in the round), `text` (what a query is matched in)."""
    pid: str | None
    name: str
    latin: str
    campus: str
    withdrawn: bool
    seat: Seat | None
    text: str = field(repr=False)


@dataclass(frozen=True)
class Index:
    """An event's players in alphabetical order (`entries`) and the round their seats are of (`round`:
    the latest with pairings, None before any)."""
    round: int | None
    entries: tuple[Entry, ...]

    def search(self, query: str, limit: int = MAX_FOUND) -> list[Entry]:
        """The players every word of `query` (its first MAX_QUERY characters) is part of, in list order."""
        words = fold(query[:MAX_QUERY]).split()
        if not words:
            return []
        out = []
        for e in self.entries:
            if all(w in e.text for w in words):
                out.append(e)
                if len(out) >= limit:
                    break
        return out


def seats(pairings: Iterable[dict[str, Any]], byes: Iterable[str]) -> dict[str, Seat]:
    """Each player's seat from one round's pairing rows (Store.pairings) and byes (names). A match of
    several games at one table: its first row (the same table and opponent)."""
    out: dict[str, Seat] = {}
    for p in sorted(pairings, key=lambda p: (p["table"], p.get("game") or 1)):
        left, right = p["players"]["left"], p["players"]["right"]
        out.setdefault(left, Seat(p["table"], "left", right or ""))
        if right:
            out.setdefault(right, Seat(p["table"], "right", left))
    for name in byes:
        out.setdefault(name, Seat(None, None, "", bye=True))
    return out


def build(store: Store, event: str) -> Index:
    """The event's index now: its players (an event the PC pairs: the list; else the names its pairings
    carry), each with their seat in the latest round with pairings."""
    rows = [p for p in store.pairings() if p["event"] == event]
    rnd = max((p["round"] for p in rows), default=None)
    here = [p for p in rows if p["round"] == rnd]
    byes = [b["player"] for b in store.byes(event) if b["round"] == rnd]
    players = store.event_players(event)
    # a player renamed after the round was published is at the table under a former name (event.edit_player)
    now = {old: p["name"] for p in players for old in p["aliases"]}
    seat = {now.get(name, name): s._replace(opponent=now.get(s.opponent, s.opponent)) if s.opponent else s
            for name, s in seats(here, byes).items()}
    entries = []
    if players:
        for p in players:
            texts = (p["name"], p["latin"] or "", p["campus"] or "", p["id"], *p["aliases"])
            entries.append(Entry(p["id"], p["name"], p["latin"] or "", p["campus"] or "", p["withdrawn"],
                                 seat.get(p["name"]), searched(texts)))
    else:
        for name in seat:
            entries.append(Entry(None, name, "", "", False, seat[name], searched((name,))))
    return Index(rnd, tuple(sorted(entries, key=lambda e: sort_key(e.name))))


def searched(texts: Iterable[str]) -> str:
    """What a query is matched in: the texts folded, and each without its spaces too (สมชายใจดี typed as one
    word finds สมชาย ใจดี)."""
    folded = [fold(t) for t in texts if t]
    return " ".join(folded + [t.replace(" ", "") for t in folded if " " in t])
