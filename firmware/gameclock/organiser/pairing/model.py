"""What every pairing system reads and writes (issue 16): pure data, no database, no clock.

A system is a function `pair(state, round_no, seed) -> RoundDraft` registered in `SYSTEMS` under
its name (`@system("xw10")`). It reads the event's players and every game played so far, and pairs
round `round_no` (1-based). Everything random comes from `random.Random(seed)`: the seed is stored
with the draft, so a draw can be shown to be fair and redone (the same state and seed give the same
draft). A system never mutates its input and raises `PairingError` (a one-line reason an organiser
can act on) when the round cannot be paired.

**The lot** (issue 25: the event owns its draw). A system whose later rounds follow from a lot drawn
once -- the pairing numbers of a round robin, the groups, a knockout's bracket -- draws it when
`state.lot` is None (round 1, from the seed) and returns it in `RoundDraft.lot`: a JSON-able dict
holding at least "seed" (the lot seed it was drawn with). The event keeps it with the draft and, once
the round is published, with the event (`Store`), and hands it back in `state.lot` for every later
round: a later round reads the kept lot and the games played, never draws the lot again, so its
draft is the same whatever seed it is given. A later draft may add to the lot what it draws itself
(a knockout's tie decided by lot: the seed of that draft decides it, a Redraw draws it again until it
is published); `RoundDraft.lot` is then the kept lot plus that. `FOLLOWERS[name]` (optional) makes
a lot agree with the organiser's fixes of the round that drew it (`@follows(name)`), so a later round
continues from the boards really published. Systems without a lot (the Swiss ones: every round from
the standings) leave `lot` None.

`RoundDraft.words` and `Board.words` say what a draft continues ("game 2 of 6, sides swapped",
"round 4 of 9 of the Berger table") as `Words`: an English template and its values, which the desk
says in Thai (`desk/i18n.py` keys its Thai by the template) and the command line in English.

Sides: `left` is the side that starts (White in Makruk, the first-named player on a sheet); the
clock's left and right buttons follow it. A bye is a board with `right = None`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# said here too (model.Words, model.words: every pairing system says its notes with them); gameclock/words.py holds them
from gameclock.words import Note as Note
from gameclock.words import Words as Words
from gameclock.words import note as note
from gameclock.words import words as words

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


class PairingError(ValueError):
    """A round that cannot be paired as asked: the message says why, in one line."""


class EventOver(PairingError):
    """No round is left to pair: the event is over. `lot`: the lot with what this last draw decided
    (a knockout's final decided by lot: kept by the event though no round is published), or None."""

    def __init__(self, message: str | Words, lot: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)     # str(): the English; Words for the desk (desk/i18n.py words_of)
        self.lot = lot


@dataclass(frozen=True)
class Player:
    """One entrant. `id` is the event's player number or code (unique in the event)."""
    id: str
    name: str               # as the player writes it (Thai script or Latin)
    latin: str = ""         # the name in Latin script, for the sheets ("" when `name` is Latin)
    campus: str = ""        # school / campus / club (MR-10: kept apart in round one)
    level: str = ""         # "primary" | "secondary" (XW-8) or ""
    team: str = ""          # team code (MR-11: boards 1 and 2 of a campus), "" for none
    board: int = 0          # the player's board in the team (MR-11), 0 for none
    rating: int = 0         # for seeding (Dutch Swiss), 0 unrated
    group: str = ""         # a qualifying group / pool (MH-7) or table group, "" for none


@dataclass(frozen=True)
class Game:
    """One game played (or a bye), as the pairing systems need it. Points from the left's side:
    `left_points` 1 win, 0.5 draw, 0 loss (the right's are 1 - that); `spread` the left's score
    minus the right's (Crossword family; 0 elsewhere). A bye: `right` None, the left's points and
    spread what the rules give it (XW-9: a win, +100 spread)."""
    round: int
    left: str
    right: str | None
    left_points: float
    spread: int = 0
    table: int = 0
    game: int = 1           # the game number in the match (MH-7: 4-game matches; MH-8 continuations)
    left_time_ms: int = 0   # time used, for "least time used" (MH-7, MH-8)
    right_time_ms: int = 0
    left_score: int = 0     # each side's own score (Sudoku, SU-2/SU-3: a competitor's round score,
    right_score: int = 0    # the puzzles' points plus the bonus; the two are not opponents)
    forfeit: bool = False   # not played: the points stand, but the players did not meet (TRF `+`/`-`;
    #                         the Dutch system gives it no colour and lets them meet again)

    @property
    def right_points(self) -> float:
        return 1.0 - self.left_points


@dataclass(frozen=True)
class Board:
    """One table of a round. `right` None: a bye for `left`."""
    table: int
    left: str
    right: str | None
    game: int = 1                # the game number in the match (the clock shows G2)
    stage: str = "qualifying"    # core.scoring.STAGES: qualifying | last | final (XW-8 caps)
    note: str = ""               # what this board is: "final", "third place", "group A", "bye" ...
    words: Words | None = None   # the note in words any language says (None: the note only)
    preset: str | None = None    # the clock's preset for this game when not the event's (MH-8's 20:00 games)


@dataclass(frozen=True)
class RoundDraft:
    """A paired round before the organiser publishes it: its boards in table order, the system and
    seed that made it, and notes saying how (shown with the draft)."""
    round: int
    system: str
    seed: int
    boards: tuple[Board, ...]
    notes: tuple[str, ...] = ()
    lot: Mapping[str, Any] | None = None    # the lot it pairs from (module doc); None: the system keeps none
    words: tuple[Words, ...] = ()           # what it continues, in words (module doc)

    def players(self) -> list[str]:
        """Every player on a board of the round (byes included), in table order."""
        out: list[str] = []
        for b in self.boards:
            out.append(b.left)
            if b.right is not None:
                out.append(b.right)
        return out


@dataclass(frozen=True)
class EventState:
    """An event as a system sees it: the players (withdrawn ones left out by the caller), every game
    of the rounds before the one being paired, the rounds planned, the system's options (from
    the event: e.g. {"table_group": 2} for XW-10, {"finalists": 5} for SU-4) and the lot the event
    keeps (module doc; None: not drawn yet, the round being paired draws it)."""
    players: tuple[Player, ...]
    games: tuple[Game, ...] = ()
    rounds: int = 0
    options: dict[str, object] = field(default_factory=dict)
    lot: Mapping[str, Any] | None = None

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)


Pairer = Callable[[EventState, int, int], RoundDraft]
SYSTEMS: dict[str, Pairer] = {}
# a lot made to agree with the boards of the round that drew it, as the organiser fixed them:
# (state, the lot, the boards) -> the lot; PairingError when the fixed boards cannot be the lot's
Follower = Callable[[EventState, Mapping[str, Any], Sequence[Board]], Mapping[str, Any]]
FOLLOWERS: dict[str, Follower] = {}


def system(name: str) -> Callable[[Pairer], Pairer]:
    """Register a pairing system under `name` (the event's `system`)."""
    def register(fn: Pairer) -> Pairer:
        if name in SYSTEMS:
            raise ValueError(f"pairing system {name!r} registered twice")
        SYSTEMS[name] = fn
        return fn
    return register


def follows(*names: str) -> Callable[[Follower], Follower]:
    """Register the follower of systems `names` (module doc)."""
    def register(fn: Follower) -> Follower:
        for name in names:
            FOLLOWERS[name] = fn
        return fn
    return register


def lot_seed(lot: Mapping[str, Any]) -> int:
    """The seed a kept lot was drawn with; PairingError for a lot without one (a damaged store)."""
    seed = lot.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PairingError(f"the event's kept lot has no seed: {str(dict(lot))[:60]}")
    return seed


# ------------------------------------------------------------------------------ facts from the games
def points(games: Iterable[Game]) -> dict[str, float]:
    """Each player's points over `games` (byes included)."""
    out: dict[str, float] = {}
    for g in games:
        out[g.left] = out.get(g.left, 0.0) + g.left_points
        if g.right is not None:
            out[g.right] = out.get(g.right, 0.0) + g.right_points
    return out


def spreads(games: Iterable[Game]) -> dict[str, int]:
    """Each player's spread over `games` (the Crossword family's second ranking key)."""
    out: dict[str, int] = {}
    for g in games:
        out[g.left] = out.get(g.left, 0) + g.spread
        if g.right is not None:
            out[g.right] = out.get(g.right, 0) - g.spread
    return out


def met(games: Iterable[Game]) -> set[frozenset[str]]:
    """Every pair of players who have played each other."""
    return {frozenset((g.left, g.right)) for g in games if g.right is not None}


def had_bye(games: Iterable[Game]) -> set[str]:
    """Every player who has had a bye."""
    return {g.left for g in games if g.right is None}


def starts(games: Iterable[Game]) -> dict[str, int]:
    """Games each player started (was `left` in) minus games it did not: colour balance."""
    out: dict[str, int] = {}
    for g in games:
        if g.right is None:
            continue
        out[g.left] = out.get(g.left, 0) + 1
        out[g.right] = out.get(g.right, 0) - 1
    return out
