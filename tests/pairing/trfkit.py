"""A small reader of FIDE TRF-16 player lines for the pairing tests, written from the TRF-16
description (columns counted from 1), independent of gameclock.organiser.exports.trf and of the
engine's own TRF reader:

  001 SSSS sTTT NNNN...(33)  RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP KKKK  then per round n,
  from column 92 + 10 (n - 1): the opponent's start rank (4), colour (col +5), result (col +7).

Results: `1 = 0` played, `W D L` played (unrated), `+ -` forfeits (not played), `U` the pairing-
allocated bye, `F` a full-point bye, `H` a half-point bye, `Z` (or `-` without an opponent) absent.
`XXR N` gives the number of rounds, `XXC white1|black1` the initial colour.

It also turns a tournament into the pairing model's `EventState` for a round: the games of the
rounds before it, and the players who are paired in it (not those with an arbiter's bye or an
absence already written for it, as bbpPairings reads "future" byes).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from gameclock.organiser.pairing.model import DRAW, LOSS, WIN, EventState, Game, Player

PLAYED = {"1": WIN, "=": DRAW, "0": LOSS, "W": WIN, "D": DRAW, "L": LOSS}
FORFEIT = {"+": WIN, "-": LOSS}
BYE_POINTS = {"U": WIN, "F": WIN, "H": DRAW, "Z": LOSS, "-": LOSS}
ARBITERS_BYES = {"F", "H", "Z", "-"}   # decided before the pairing: the player is not paired


@dataclass
class Entry:
    opponent: int          # 0: none (a bye or an absence)
    colour: str            # "w", "b" or "-"
    result: str


@dataclass
class Tournament:
    rounds: int = 0
    initial_colour: str = ""
    ranks: list[int] = field(default_factory=list)          # start ranks in file order
    ratings: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    entries: dict[int, dict[int, Entry]] = field(default_factory=dict)   # rank -> round -> entry

    def played_rounds(self) -> int:
        return max((r for e in self.entries.values() for r in e), default=0)

    def paired_rounds(self) -> int:
        """The last round with a game or a pairing-allocated bye (byes given ahead not counted)."""
        return max((r for e in self.entries.values() for r, x in e.items() if x.opponent or x.result == "U"),
                   default=0)

    def games(self, last_round: int) -> list[Game]:
        """The games and byes of rounds 1..last_round (left: White)."""
        out: list[Game] = []
        for rank in self.ranks:
            for rnd, e in sorted(self.entries[rank].items()):
                if rnd > last_round:
                    continue
                if e.opponent == 0:
                    out.append(Game(rnd, str(rank), None, BYE_POINTS[e.result]))
                    continue
                theirs = self.entries[e.opponent].get(rnd)
                if e.result == "-" and theirs is not None and theirs.result == "-":
                    # both forfeited: each scored nothing without a game (the model's absence)
                    out.append(Game(rnd, str(rank), None, LOSS))
                    continue
                first = e.colour == "w" or (e.colour == "-" and rank < e.opponent)
                if not first:
                    continue
                if e.result in PLAYED:
                    out.append(Game(rnd, str(rank), str(e.opponent), PLAYED[e.result]))
                else:
                    out.append(Game(rnd, str(rank), str(e.opponent), FORFEIT[e.result], forfeit=True))
        return out

    def paired_in(self, rnd: int) -> list[int]:
        """The players paired in round `rnd`: every player, but those with an arbiter's bye or an
        absence written for that round."""
        out = []
        for rank in self.ranks:
            e = self.entries[rank].get(rnd)
            if e is not None and e.opponent == 0 and e.result in ARBITERS_BYES:
                continue
            out.append(rank)
        return out

    def state(self, rnd: int, rounds: int = 0) -> EventState:
        """The event as the Dutch system sees it before round `rnd`."""
        paired = set(self.paired_in(rnd))
        players = tuple(Player(str(r), self.names[r], rating=self.ratings[r]) for r in self.ranks if r in paired)
        options: dict[str, object] = {}
        colour = self.initial_colour or (self.first_colour() if rnd == 1 else "")
        if colour:
            options["initial_colour"] = colour
        return EventState(players, tuple(self.games(rnd - 1)), rounds or self.rounds, options)

    def first_colour(self) -> str:
        """The initial colour as the file shows it: round 1's colour of its top-ranked player with a
        colour (bbpPairings reads a file without `XXC` so)."""
        for rank in self.ranks:
            e = self.entries[rank].get(1)
            if e is not None and e.colour in "wb" and e.colour.strip():
                return "white" if e.colour == "w" else "black"
        return ""

    def pairs(self, rnd: int) -> set[tuple[str, str | None]]:
        """Round `rnd`'s boards in the file: (white, black), a pairing-allocated bye (player, None);
        the arbiter's byes and absences left out."""
        out: set[tuple[str, str | None]] = set()
        for rank in self.ranks:
            e = self.entries[rank].get(rnd)
            if e is None:
                continue
            if e.opponent == 0:
                if e.result == "U":
                    out.add((str(rank), None))
            elif e.colour == "w":
                out.add((str(rank), str(e.opponent)))
        return out


def field_at(line: str, start: int, end: int) -> str:
    """Columns start..end (1-based, inclusive)."""
    return line[start - 1:end]


def read_trf(text: str) -> Tournament:
    t = Tournament()
    for line in text.splitlines():
        if line.startswith("XXR"):
            t.rounds = int(line[3:].split()[0])
        elif line.startswith("XXC"):
            words = line[3:].split()
            t.initial_colour = "white" if "white1" in words else "black" if "black1" in words else ""
        elif line.startswith("001"):
            rank = int(field_at(line, 5, 8))
            t.ranks.append(rank)
            t.names[rank] = field_at(line, 15, 47).strip()
            rating = field_at(line, 49, 52).strip()
            t.ratings[rank] = int(rating) if rating else 0
            t.entries[rank] = {}
            n = 1
            while len(line) >= 92 + 10 * (n - 1):
                col = 92 + 10 * (n - 1)
                block = line[col - 1:col + 7].ljust(8)
                opp, colour, result = block[0:4].strip(), block[5], block[7]
                if opp or result.strip():
                    t.entries[rank][n] = Entry(int(opp) if opp else 0, colour, result)
                n += 1
    return t


def read_pairs(text: str) -> list[tuple[str, str | None]]:
    """A pairing program's output (bbpPairings `-p`, JaVaFo): the number of boards, then one
    "white black" line a board in the program's order, `0` for the bye's missing opponent."""
    lines = text.split()
    count = int(lines[0])
    words = lines[1:]
    assert len(words) == 2 * count, "a board line with no two numbers"
    out: list[tuple[str, str | None]] = []
    for i in range(count):
        w, b = words[2 * i], words[2 * i + 1]
        out.append((w, None if b == "0" else b))
    return out
