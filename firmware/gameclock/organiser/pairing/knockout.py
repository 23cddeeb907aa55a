"""Knockout brackets (issue 16): which boards come next and who went through, for any match format;
MR-12 registered as "makruk-ko" (the Makhos formats, MH-8, are in makhos.py).

    br = bracket(state, MR12, seed)      # br.matches: every match so far, br.champion
    draft = SYSTEMS["makruk-ko"](state, round_no, seed)

**The bracket.** The entrants are placed by options["seeds"] (ids, best first: 1 v 4, 2 v 3; 1 v 8,
4 v 5, 2 v 7, 3 v 6 ...) or, without it, by lot (the ids sorted, shuffled from the lot seed). A
bracket has a power of 2 places; places beyond the entrants are byes (the top seeds get them).
options["third_place"] (default false) adds a match between the semi-finals' losers. A match is the
games between its two players (two players meet at most once in a knockout) from round
options["first_round"] on (default 1: the whole state; later when earlier rounds were groups).
From the games played so far each match is either decided (winner, and the reason: "games", "lot",
"time" or "bye") or has a next game: the next game of the match, or a continuation (a third game,
MH-8's draw-giving games). A draft lists the next game of every match whose players are known, so
a bracket round starts once the round before it is decided. Every board has stage "final" (what the
standings read as a knockout game), its game number in the match running on through the
continuations, and a note saying the match and the part.

**Randomness.** A coin toss (who starts a match's first game, or a continuation that starts with one)
comes from the draft's seed, the match and the game; later games swap the sides of the game played
before (a toss is made once, then the record says who started). A lot (a tie the rules decide by
drawing lots) comes from options["lot_seed"] (default: the draft's seed) and the two players: keep
one lot seed for the event so each lot gives the same winner in every later draft.
options["lots"] ({"A v B": winner}) records a lot drawn by hand at the venue instead.

**MR-12** (seed 003 Makruk §1 and note): 2 games; before the match a coin toss (its winner chooses
to start or not: we pair the toss's winner to start, left; if they choose otherwise, swap them at the
board), game 2 the other way round. Game points 2/1/0 (MR-9). Tied: drawing lots; the final first
plays a third game (a new toss; seed 003 is silent on its colours), and if that is drawn, lots.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from gameclock.organiser.pairing.model import Board, EventState, Game, PairingError, RoundDraft, system
from gameclock.organiser.pairing.roundrobin import rng
from gameclock.organiser.standings.boardgames import DEFAULT_POINTS, KNOCKOUT_STAGE


@dataclass(frozen=True)
class Next:
    """A match's next game: its number in the match, who starts (left), what part it is."""
    game: int
    left: str
    right: str
    part: str


@dataclass(frozen=True)
class Decided:
    """A match decided: who went through, why ("games", "lot", "time", "bye"), the score in words."""
    winner: str
    reason: str
    detail: str


@dataclass(frozen=True)
class MatchSoFar:
    """One match as a format sees it: its players, the games played (by game number), whether it is the
    final, and the draws it may make."""
    a: str
    b: str
    games: tuple[Game, ...]
    final: bool
    seed: int
    lot_seed: int
    lots: Mapping[str, str]
    options: Mapping[str, object]      # the event's options (a format's own: MH-8's 'gives_first')

    def points(self, player: str, games: Sequence[Game] | None = None, giver: Callable[[Game], str | None]
               = lambda g: None) -> int:
        """`player`'s game points (MR-9, MH-7: win 2, draw 1, loss 0) over `games` (default all); a draw
        in a game whose `giver(game)` gives the draw is that player's loss (MH-8)."""
        total = 0
        for g in self.games if games is None else games:
            lp = g.left_points
            if lp == 0.5 and giver(g) is not None:
                lp = 0.0 if giver(g) == g.left else 1.0
            mine = lp if g.left == player else 1.0 - lp
            total += DEFAULT_POINTS["win" if mine == 1.0 else "draw" if mine == 0.5 else "loss"]
        return total

    def score(self, games: Sequence[Game] | None = None,
              giver: Callable[[Game], str | None] = lambda g: None) -> str:
        return f"{self.a} {self.points(self.a, games, giver)}-{self.points(self.b, games, giver)} {self.b}"

    def toss(self, game: int, part: str) -> Next:
        """Game `game` with a coin toss for who starts (the draft's seed, the match, the game)."""
        r = rng(self.seed, "toss", self.a, self.b, game)
        left, right = (self.a, self.b) if r.random() < 0.5 else (self.b, self.a)
        return Next(game, left, right, f"{part} (coin toss: {left} starts)")

    def swapped(self, part: str) -> Next:
        """The next game with the sides of the game played before swapped."""
        last = self.games[-1]
        assert last.right is not None
        return Next(len(self.games) + 1, last.right, last.left, part)

    def lot(self, why: str) -> Decided:
        """The match decided by drawing lots: options["lots"] when it records this match, else the lot
        seed and the players (the same winner in every draft with that lot seed)."""
        for key in (f"{self.a} v {self.b}", f"{self.b} v {self.a}"):
            if key in self.lots:
                winner = self.lots[key]
                if winner not in (self.a, self.b):
                    raise PairingError(f"option 'lots': {key}: {winner!r} is not one of them")
                return Decided(winner, "lot", f"{why}; the lot drawn at the venue: {winner}")
        pair = sorted((self.a, self.b))
        winner = rng(self.lot_seed, "lot", *pair).choice(pair)
        return Decided(winner, "lot", f"{why}; by lot (lot seed {self.lot_seed}): {winner}")

    def decided_by_points(self, games: Sequence[Game] | None = None,
                          giver: Callable[[Game], str | None] = lambda g: None) -> Decided | None:
        pa, pb = self.points(self.a, games, giver), self.points(self.b, games, giver)
        if pa == pb:
            return None
        n = len(self.games if games is None else games)
        return Decided(self.a if pa > pb else self.b, "games", f"{self.score(games, giver)} after {n} game(s)")


Format = Callable[[MatchSoFar], Next | Decided]


def mr12(m: MatchSoFar) -> Next | Decided:
    """MR-12 (seed 003 Makruk §1, note): 2 games, colours swapped; tied: lots, the final a third game first."""
    n = len(m.games)
    if n == 0:
        return m.toss(1, "game 1 of 2")
    if n == 1:
        return m.swapped("game 2 of 2")
    won = m.decided_by_points()
    if won:
        return won
    if m.final and n == 2:
        return m.toss(3, "third game (the final's tie, MR-12)")
    return m.lot(f"tied {m.score()} after {n} games (MR-12)")


# ------------------------------------------------------------------------------------- the bracket

@dataclass(frozen=True)
class Match:
    """One match of the bracket. `a`/`b` None: not known yet (or a bye: `reason` "bye")."""
    round: int            # the bracket's round, 1 first
    index: int            # its place in that round, 1 first
    name: str             # "final", "semi-final 2", "quarter-final 1", "round 1 match 5", "third place"
    a: str | None
    b: str | None
    games: tuple[Game, ...] = ()
    outcome: Next | Decided | None = None

    @property
    def winner(self) -> str | None:
        return self.outcome.winner if isinstance(self.outcome, Decided) else None

    @property
    def loser(self) -> str | None:
        w = self.winner
        if w is None:
            return None
        return self.b if w == self.a else self.a


@dataclass(frozen=True)
class Bracket:
    matches: tuple[Match, ...]
    champion: str | None
    notes: tuple[str, ...]


def places(size: int) -> list[int]:
    """The seeds in bracket order for a bracket of `size` (a power of 2): 4 -> 1 4 2 3;
    8 -> 1 8 4 5 2 7 3 6. Neighbours meet in round one; seeds 1 and 2 only in the final."""
    order = [1]
    while len(order) < size:
        k = 2 * len(order)
        order = [x for s in order for x in (s, k + 1 - s)]
    return order


def _name(rnd: int, rounds: int, index: int) -> str:
    left = rounds - rnd
    if left == 0:
        return "final"
    if left == 1:
        return f"semi-final {index}"
    if left == 2:
        return f"quarter-final {index}"
    return f"round {rnd} match {index}"


def _int_option(state: EventState, key: str, default: int) -> int:
    value = state.options.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PairingError(f"option {key!r} must be a whole number, not {value!r}")
    return value


def bracket(state: EventState, fmt: Format, seed: int) -> Bracket:
    """The knockout as far as the games go: every match known so far, each decided or with its next
    game, and the champion once the final is decided."""
    ids = sorted(p.id for p in state.players)
    if len(ids) < 2:
        raise PairingError(f"a knockout needs at least 2 players, not {len(ids)}")
    lot_seed = _int_option(state, "lot_seed", seed)
    first_round = _int_option(state, "first_round", 1)
    lots = state.options.get("lots", {})
    if not isinstance(lots, Mapping):
        raise PairingError("option 'lots' must map 'A v B' to the lot's winner")
    notes: list[str] = []
    given = state.options.get("seeds")
    if given is not None:
        if not isinstance(given, list | tuple) or sorted(str(i) for i in given) != ids:
            raise PairingError("option 'seeds' must list every player's id once, best first")
        seeded = [str(i) for i in given]
        notes.append("bracket by seeds (option 'seeds'): " + ", ".join(f"{k} {i}" for k, i in enumerate(seeded, 1)))
    else:
        seeded = ids[:]
        rng(lot_seed, "bracket").shuffle(seeded)
        notes.append(f"bracket by lot (lot seed {lot_seed}): " + ", ".join(f"{k} {i}" for k, i in enumerate(seeded, 1)))
    size = 1
    while size < len(seeded):
        size *= 2
    rounds = size.bit_length() - 1
    played = [g for g in state.games if g.round >= first_round and g.right is not None]

    def match(rnd: int, index: int, name: str, a: str | None, b: str | None, final: bool) -> Match:
        if a is None or b is None:
            if rnd == 1 and (a is not None or b is not None):
                w = a if a is not None else b
                assert w is not None
                return Match(rnd, index, name, a, b, (), Decided(w, "bye", f"{w}: a bye"))
            return Match(rnd, index, name, a, b)
        pair = frozenset((a, b))
        games = tuple(sorted((g for g in played if frozenset((g.left, g.right)) == pair),
                             key=lambda g: (g.game, g.round, g.table)))
        so_far = MatchSoFar(a, b, games, final, seed, lot_seed, lots, state.options)
        return Match(rnd, index, name, a, b, games, fmt(so_far))

    slots = [seeded[s - 1] if s <= len(seeded) else None for s in places(size)]
    out: list[Match] = []
    current = [match(1, i + 1, _name(1, rounds, i + 1), slots[2 * i], slots[2 * i + 1], rounds == 1)
               for i in range(size // 2)]
    out += current
    for rnd in range(2, rounds + 1):
        before = current
        current = [match(rnd, i + 1, _name(rnd, rounds, i + 1), before[2 * i].winner, before[2 * i + 1].winner,
                         rnd == rounds) for i in range(len(before) // 2)]
        out += current
        if rnd == rounds and state.options.get("third_place"):
            out.append(match(rnd, 2, "third place", before[0].loser, before[1].loser, False))
    final = next(m for m in out if m.name == "final")
    for m in out:
        if isinstance(m.outcome, Decided) and m.outcome.reason != "bye":
            notes.append(f"{m.name}: {m.outcome.winner} goes through ({m.outcome.reason}): {m.outcome.detail}")
    return Bracket(tuple(out), final.winner, tuple(notes))


def knockout_draft(state: EventState, round_no: int, seed: int, fmt: Format, name: str) -> RoundDraft:
    """The boards that come next in the knockout: the next game of every match whose players are known."""
    br = bracket(state, fmt, seed)
    boards: list[Board] = []
    for m in br.matches:
        if isinstance(m.outcome, Next):
            nxt = m.outcome
            boards.append(Board(table=len(boards) + 1, left=nxt.left, right=nxt.right, game=nxt.game,
                                stage=KNOCKOUT_STAGE, note=f"{m.name}: {nxt.part}"))
    if not boards:
        if br.champion is not None:
            raise PairingError(f"the knockout is over: {br.champion} won the final")
        raise PairingError("no knockout match can be paired now")   # not reached: a match is always open
    return RoundDraft(round=round_no, system=name, seed=seed, boards=tuple(boards), notes=br.notes)


@system("makruk-ko")
def makruk_ko(state: EventState, round_no: int, seed: int) -> RoundDraft:
    """MR-12 (seed 003 Makruk note): the next boards of the knockout."""
    return knockout_draft(state, round_no, seed, mr12, "makruk-ko")


