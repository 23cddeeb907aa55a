"""Knockout brackets (issue 16, issue 25): which boards come next and who went through, for any match
format; MR-12 registered as "makruk-ko" (the Makhos formats, MH-8, are in makhos.py).

    br = bracket(state, MR12, seed)      # br.matches: every match so far, br.champion, br.lot
    draft = SYSTEMS["makruk-ko"](state, round_no, seed)
    placings(br)                         # [(1, ("A",)), (2, ("C",)), (3, ("B", "D"))]: the places decided

**The bracket, drawn once** (the lot, `model` module doc). The first Pair of the event draws it: the
entrants placed by options["seeds"] (ids, best first: 1 v 4, 2 v 3; 1 v 8, 4 v 5, 2 v 7, 3 v 6 ...;
the venue's own draw is given this way too) or, without it, by lot (the ids sorted, shuffled from the
lot seed: options["lot_seed"], else the draft's seed). A bracket has a power of 2 places; places
beyond the entrants are byes (the top seeds get them). The event keeps it as its lot:

    {"seed": lot seed, "by": "lot" | "seeds", "bracket": [ids in bracket order, null for a bye place],
     "drawn": {"A v B": winner, ...}}           # the ties decided by lot so far

and every later round reads it back (`state.lot`), never drawing the bracket again: the same matches'
next games, then the winners in bracket order. An organiser's fix of round 1 that changes who meets
whom is followed (`follow_bracket`): the fixed pairs take the places of the pairs they replace, so a
later round continues from the boards really published.

**Matches and stages.** A match is the games between its two players (two players meet at most once
in a knockout) from round options["first_round"] on (default 1: the whole state; later when earlier
rounds were groups). From the games played so far each match is either decided (winner, and the
reason: "games", "lot", "time", "bye" or "withdrawal") or has a next game: the next game of the match,
or a continuation (a third game, MH-8's draw-giving games). A stage (the bracket's round: quarter-
finals, semi-finals, the final with the third-place match) is over when each of its matches is
decided; only then does the next stage pair its winners, in bracket order (semi-final 1: the winners
of quarter-finals 1 and 2). A draft lists the next game of every undecided match of the stage being
played; a match keeps the table of its first game to its end, a new stage numbers its tables in
bracket order (the final on table 1, the third place on table 2). options["third_place"] (default
false) adds the match between the semi-finals' losers (none when a semi-final was a bye: its one
loser is third); without it they share third place. Every
board has stage "final" (what the standings read as a knockout game), its game number in the match
running on through the continuations, and a note (and its words) saying the match and the part.

**Randomness.** A coin toss (who starts a match's first game, or a continuation that starts with one)
comes from the kept lot's seed, the match and the game: the same in every draft, whatever its seed;
later games swap the sides of the game played before (a toss is made once, then the record says who
started). A tie the rules decide by drawing lots is drawn by the draft that finds it tied: from that
draft's seed (options["lot_seed"] instead when the event gives one), kept in the draft's lot, so a
Redraw (a new seed) draws it again until the round is published, and from then on it stands ("drawn").
options["lots"] records lots drawn by hand at the venue instead: {"A v B": winner}, or the winners'
ids (a list, or one id): each names the winner of its own tied match. Where a published round already
has one of a tied match's players playing on (a store from before lots were kept), that player won it. The final's tie decided by lot
after its last game has no round to publish: the Pair that finds it draws it and the event keeps it
(`model.EventOver.lot`).

**MR-12** (seed 003 Makruk §1 and note): 2 games; before the match a coin toss (its winner chooses
to start or not: we pair the toss's winner to start, left; if they choose otherwise, swap them at the
board), game 2 the other way round. Game points 2/1/0 (MR-9). Tied: drawing lots; the final first
plays a third game (a new toss; seed 003 is silent on its colours), and if that is drawn, lots.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gameclock.organiser.pairing.model import (
    Board,
    EventOver,
    EventState,
    Game,
    PairingError,
    RoundDraft,
    Words,
    follows,
    lot_seed,
    note,
    system,
    words,
)
from gameclock.organiser.pairing.roundrobin import rng
from gameclock.organiser.standings.boardgames import DEFAULT_POINTS, KNOCKOUT_STAGE


@dataclass(frozen=True)
class Next:
    """A match's next game: its number in the match, who starts (left), what part it is (in words),
    and the clock's preset when the game is played on another than the event's (MH-8's 20:00 games)."""
    game: int
    left: str
    right: str
    words: Words
    preset: str | None = None

    @property
    def part(self) -> str:
        return str(self.words)


@dataclass(frozen=True)
class Decided:
    """A match decided: who went through, why ("games", "lot", "time", "bye", "withdrawal"), the score
    in words; `drawn_now`: a lot this draft drew (kept once its round is published)."""
    winner: str
    reason: str
    detail: str
    drawn_now: bool = False


@dataclass(frozen=True)
class LotDue:
    """A tie the rules decide by drawing lots, not drawn yet (the event's next Pair draws it)."""
    why: str


Outcome = Next | Decided | LotDue


@dataclass(frozen=True)
class MatchSoFar:
    """One match as a format sees it: its players, the games played (by game number), whether it is the
    final, and the draws it may make: tosses from `lot_seed`; a tie's lot from `venue` (the lots drawn
    at the venue), `drawn` (the lots kept), else from `tie_seed` (None: not drawn here, `LotDue`)."""
    a: str
    b: str
    games: tuple[Game, ...]
    final: bool
    lot_seed: int
    tie_seed: int | None
    venue: Mapping[str, str]
    drawn: Mapping[str, str]
    options: Mapping[str, object]      # the event's options (a format's own: MH-8's 'gives_first')
    went_on: frozenset[str] = frozenset()   # which of the two played another opponent after this match

    @property
    def key(self) -> str:
        """The match's name in the kept lot's "drawn": "A v B", the ids sorted."""
        a, b = sorted((self.a, self.b))
        return f"{a} v {b}"

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

    def toss(self, game: int, part: Words, preset: str | None = None) -> Next:
        """Game `game` with a coin toss for who starts (the kept lot's seed, the match, the game)."""
        r = rng(self.lot_seed, "toss", self.a, self.b, game)
        left, right = (self.a, self.b) if r.random() < 0.5 else (self.b, self.a)
        return Next(game, left, right, words("{part} (coin toss: {left} starts)", part=part, left=left), preset)

    def swapped(self, part: Words, preset: str | None = None) -> Next:
        """The next game with the sides of the game played before swapped."""
        last = self.games[-1]
        assert last.right is not None
        return Next(len(self.games) + 1, last.right, last.left, words("{part}, sides swapped", part=part), preset)

    def lot(self, why: str) -> Decided | LotDue:
        """The match decided by drawing lots: the venue's lot when it names this match's winner, else the
        lot kept, else one drawn now from the tie seed (`drawn_now`), else LotDue."""
        for key in (f"{self.a} v {self.b}", f"{self.b} v {self.a}"):
            if key in self.venue:
                winner = self.venue[key]
                if winner not in (self.a, self.b):
                    raise PairingError(f"option 'lots': {key}: {winner!r} is not one of them")
                return Decided(winner, "lot", note("{why}; the lot drawn at the venue: {winner}", why=why, winner=winner))
        named = [p for p in (self.a, self.b) if self.venue.get(p) == p]
        if len(named) == 2:
            raise PairingError(f"option 'lots' names both {self.a} and {self.b} as the winner of their lot")
        if named:
            return Decided(named[0], "lot", note("{why}; the lot drawn at the venue: {winner}", why=why, winner=named[0]))
        if len(self.went_on) == 1:     # the rounds published say who won it (a store from before kept lots)
            (winner,) = self.went_on
            return Decided(winner, "lot", note("{why}; by lot, as the rounds published say: {winner}", why=why,
                                               winner=winner))
        if self.key in self.drawn:
            return Decided(self.drawn[self.key], "lot", note("{why}; by lot (kept): {winner}", why=why,
                                                             winner=self.drawn[self.key]))
        if self.tie_seed is None:
            return LotDue(why)
        pair = sorted((self.a, self.b))
        winner = rng(self.tie_seed, "lot", *pair).choice(pair)
        return Decided(winner, "lot", note("{why}; by lot (seed {seed}): {winner}", why=why, seed=self.tie_seed,
                                           winner=winner), drawn_now=True)

    def decided_by_points(self, games: Sequence[Game] | None = None,
                          giver: Callable[[Game], str | None] = lambda g: None) -> Decided | None:
        pa, pb = self.points(self.a, games, giver), self.points(self.b, games, giver)
        if pa == pb:
            return None
        n = len(self.games if games is None else games)
        return Decided(self.a if pa > pb else self.b, "games", note("{score} after {n} game(s)",
                                                                     score=self.score(games, giver), n=n))


Format = Callable[[MatchSoFar], Outcome]
FORMATS: dict[str, Format] = {}      # system name -> its match format (`knockout_system`)


def mr12(m: MatchSoFar) -> Outcome:
    """MR-12 (seed 003 Makruk §1, note): 2 games, colours swapped; tied: lots, the final a third game first."""
    n = len(m.games)
    if n == 0:
        return m.toss(1, words("game {game} of {games}", game=1, games=2))
    if n == 1:
        return m.swapped(words("game {game} of {games}", game=2, games=2))
    won = m.decided_by_points()
    if won:
        return won
    if m.final and n == 2:
        return m.toss(3, words("tied {score}: a third game (the final's tie, MR-12)", score=m.score()))
    return m.lot(note("tied {score} after {n} games (MR-12)", score=m.score(), n=n))


# ------------------------------------------------------------------------------------- the bracket

@dataclass(frozen=True)
class Match:
    """One match of the bracket. `a`/`b` None: not known yet (or a bye: `reason` "bye"). `stage` the
    bracket's round (1 first), `index` its place in it (1 first), `table` the table it is played at."""
    round: int
    index: int
    name: str             # "final", "semi-final 2", "quarter-final 1", "round 1 match 5", "third place"
    a: str | None
    b: str | None
    games: tuple[Game, ...] = ()
    outcome: Outcome | None = None
    title: Words | None = None       # the name in words
    table: int = 0
    came_from: Words | None = None   # where its players came from ("the winners of tables 1 and 2")

    @property
    def winner(self) -> str | None:
        return self.outcome.winner if isinstance(self.outcome, Decided) else None

    @property
    def loser(self) -> str | None:
        w = self.winner
        if w is None or self.a is None or self.b is None:
            return None
        return self.b if w == self.a else self.a


@dataclass(frozen=True)
class Bracket:
    """The knockout as far as the games go: every match known, the stages, the champion once the final
    is decided, notes, the lot (the kept one plus any tie decided by lot now) and whether the draw
    that made it drew the bracket (`drew`: round 1 before its publication) or a tie's lot (`drew_ties`)."""
    matches: tuple[Match, ...]
    champion: str | None
    notes: tuple[str, ...]
    lot: Mapping[str, Any]
    stages: int
    drew: bool = False
    drew_ties: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        """Every match of the final stage decided."""
        return all(m.winner is not None for m in self.matches if m.round == self.stages)

    def stage_of_play(self) -> int:
        """The stage being played: the first with an undecided match (the last when all are)."""
        for m in self.matches:
            if m.winner is None:
                return m.round
        return self.stages


def places(size: int) -> list[int]:
    """The seeds in bracket order for a bracket of `size` (a power of 2): 4 -> 1 4 2 3;
    8 -> 1 8 4 5 2 7 3 6. Neighbours meet in round one; seeds 1 and 2 only in the final."""
    order = [1]
    while len(order) < size:
        k = 2 * len(order)
        order = [x for s in order for x in (s, k + 1 - s)]
    return order


def _title(rnd: int, rounds: int, index: int) -> Words:
    left = rounds - rnd
    if left == 0:
        return words("final")
    if left == 1:
        return words("semi-final {n}", n=index)
    if left == 2:
        return words("quarter-final {n}", n=index)
    return words("round {stage} match {n}", stage=rnd, n=index)


def _stage_words(stage: int, stages: int) -> Words:
    left = stages - stage
    return (words("the final") if left == 0 else words("the semi-finals") if left == 1 else
            words("the quarter-finals") if left == 2 else words("round {stage}", stage=stage))


def _came(x: Match, y: Match, losers: bool = False) -> Words:
    """Where a later stage's match's players come from: the tables of the two matches before."""
    return (words("the losers of tables {a} and {b}", a=x.table, b=y.table) if losers else
            words("the winners of tables {a} and {b}", a=x.table, b=y.table))


def _int_option(state: EventState, key: str, default: int) -> int:
    value = state.options.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PairingError(f"option {key!r} must be a whole number, not {value!r}")
    return value


def _venue_lots(options: Mapping[str, object]) -> dict[str, str]:
    """options["lots"] as a mapping: "A v B" -> winner, and each winner named alone -> itself."""
    given = options.get("lots", {})
    if isinstance(given, str):
        given = [given]
    if isinstance(given, list | tuple):
        if not all(isinstance(p, str) for p in given):
            raise PairingError("option 'lots' must list the ids of the lots' winners")
        return {p: p for p in given}
    if not isinstance(given, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in given.items()):
        raise PairingError("option 'lots' must map 'A v B' to the lot's winner, or list the winners' ids")
    return dict(given)


def draw_bracket(state: EventState, seed: int) -> tuple[dict[str, Any], list[str]]:
    """The bracket drawn for round 1 (module doc): the lot to keep, and notes saying how."""
    ids = sorted(p.id for p in state.players)
    if len(ids) < 2:
        raise PairingError(f"a knockout needs at least 2 players, not {len(ids)}")
    seed_of_lot = _int_option(state, "lot_seed", seed)
    given = state.options.get("seeds")
    if given is not None:
        if not isinstance(given, list | tuple) or sorted(str(i) for i in given) != ids:
            raise PairingError("option 'seeds' must list every player's id once, best first")
        seeded = [str(i) for i in given]
        by = "seeds"
        notes: list[str] = [note("bracket by seeds (option 'seeds'): {bracket}",
                      bracket=", ".join(f"{k} {i}" for k, i in enumerate(seeded, 1)))]
    else:
        seeded = ids[:]
        rng(seed_of_lot, "bracket").shuffle(seeded)
        by = "lot"
        notes = [note("bracket by lot (lot seed {seed}): {bracket}", seed=seed_of_lot,
                      bracket=", ".join(f"{k} {i}" for k, i in enumerate(seeded, 1)))]
    size = 1
    while size < len(seeded):
        size *= 2
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in places(size)]
    return {"seed": seed_of_lot, "by": by, "bracket": slots, "drawn": {}}, notes


def _kept_bracket(lot: Mapping[str, Any]) -> list[str | None]:
    slots = lot.get("bracket")
    if (not isinstance(slots, list) or len(slots) < 2 or len(slots) & (len(slots) - 1)
            or not all(s is None or isinstance(s, str) for s in slots)):
        raise PairingError("the event's kept lot has no bracket (a power of 2 places)")
    return slots


def bracket(state: EventState, fmt: Format, seed: int, draw_lots: bool = True) -> Bracket:
    """The knockout as far as the games go (module doc): every match known so far, each decided or with
    its next game, and the champion once the final is decided. `seed`: the draft's (round 1: the lot
    seed when nothing else gives one; later: the seed of the ties it decides by lot). `draw_lots`
    False: a tie due for its lot stays `LotDue` (what the standings read: nothing is drawn there)."""
    notes: list[str] = []
    if state.lot is None:
        lot, notes = draw_bracket(state, seed)
    else:
        lot = dict(state.lot)
        notes.append(note("bracket drawn for round 1 (by seeds, lot seed {seed}), kept" if lot.get("by") == "seeds" else
                          "bracket drawn for round 1 (by lot, lot seed {seed}), kept", seed=lot_seed(lot)))
    slots = _kept_bracket(lot)
    seed_of_lot = lot_seed(lot)
    drawn = dict(lot.get("drawn") or {})
    given_lot_seed = state.options.get("lot_seed")
    tie_seed: int | None = _int_option(state, "lot_seed", seed) if given_lot_seed is not None else seed
    if not draw_lots:
        tie_seed = None
    first_round = _int_option(state, "first_round", 1)
    venue = _venue_lots(state.options)
    active = {p.id for p in state.players}
    size = len(slots)
    rounds = size.bit_length() - 1
    played = [g for g in state.games if g.round >= first_round and g.right is not None]
    new_lots: dict[str, str] = {}

    def match(rnd: int, index: int, a: str | None, b: str | None, final: bool, table: int, name: str,
              title: Words, came_from: Words | None) -> Match:
        if a is None or b is None:
            if rnd == 1 and (a is not None or b is not None):
                w = a if a is not None else b
                assert w is not None
                return Match(rnd, index, name, a, b, (), Decided(w, "bye", note("{player}: a bye", player=w)), title, 0, came_from)
            return Match(rnd, index, name, a, b, title=title, came_from=came_from)
        pair = frozenset((a, b))
        games = tuple(sorted((g for g in played if frozenset((g.left, g.right)) == pair),
                             key=lambda g: (g.game, g.round, g.table)))
        last = max((g.round for g in games), default=0)
        went_on = frozenset(p for g in played if g.round > last for p in (g.left, g.right)
                            if p in pair and frozenset((g.left, g.right)) != pair)
        so_far = MatchSoFar(a, b, games, final, seed_of_lot, tie_seed, venue, drawn, state.options, went_on)
        outcome: Outcome = fmt(so_far)
        if isinstance(outcome, Next) and not {a, b} <= active:
            gone = sorted({a, b} - active)
            if len(gone) == 2:
                raise PairingError(f"{name}: both {a} and {b} have withdrawn")
            w = b if gone[0] == a else a
            outcome = Decided(w, "withdrawal", note("{gone} withdrew: {winner} goes through", gone=gone[0], winner=w))
        if isinstance(outcome, Decided) and outcome.drawn_now:
            new_lots[so_far.key] = outcome.winner
        if games:
            table = games[-1].table or table      # a match keeps its table to its end
        return Match(rnd, index, name, a, b, games, outcome, title, table, came_from)

    def tables(pairs: Sequence[tuple[str | None, str | None]]) -> list[int]:
        """Tables in bracket order for the matches with both players, 0 for the others."""
        out, n = [], 0
        for a, b in pairs:
            n += a is not None and b is not None
            out.append(n if a is not None and b is not None else 0)
        return out

    first = [(slots[2 * i], slots[2 * i + 1]) for i in range(size // 2)]
    current = [match(1, i + 1, a, b, rounds == 1, t, str(_title(1, rounds, i + 1)), _title(1, rounds, i + 1), None)
               for i, ((a, b), t) in enumerate(zip(first, tables(first), strict=True))]
    out = list(current)
    for rnd in range(2, rounds + 1):
        before = current
        ready = all(m.winner is not None for m in before)   # a stage starts once the one before is over
        pairs = [(before[2 * i].winner, before[2 * i + 1].winner) if ready else (None, None)
                 for i in range(len(before) // 2)]
        if rnd == rounds and state.options.get("third_place") and not (ready and None in (before[0].loser,
                                                                                          before[1].loser)):
            pairs.append((before[0].loser, before[1].loser) if ready else (None, None))   # none after a bye
        numbers = tables(pairs)
        current = [match(rnd, i + 1, a, b, rnd == rounds, numbers[i], str(_title(rnd, rounds, i + 1)),
                         _title(rnd, rounds, i + 1), _came(before[2 * i], before[2 * i + 1]))
                   for i, (a, b) in enumerate(pairs[:len(before) // 2])]
        if len(pairs) > len(before) // 2:
            a, b = pairs[-1]
            current.append(match(rnd, 2, a, b, False, numbers[-1], "third place", words("third place"),
                                 _came(before[0], before[1], losers=True)))
        out += current
    final = next(m for m in out if m.name == "final")
    for m in out:
        if isinstance(m.outcome, Decided) and m.outcome.reason != "bye":
            notes.append(note("{match}: {winner} goes through ({reason}): {detail}", match=m.title or m.name,
                              winner=m.outcome.winner, reason=m.outcome.reason, detail=m.outcome.detail))
        elif isinstance(m.outcome, LotDue):
            notes.append(note("{match}: {why}: lots decide (the next Pair draws them, or option 'lots')",
                              match=m.title or m.name, why=m.outcome.why))
    kept = {**lot, "drawn": {**drawn, **new_lots}}
    return Bracket(tuple(out), final.winner, tuple(notes), kept, rounds, drew=state.lot is None,
                   drew_ties=tuple(f"{k}: {v}" for k, v in new_lots.items()))


def placings(br: Bracket) -> list[tuple[int, tuple[str, ...]]]:
    """The places the bracket has decided so far, best first: (place, the players sharing it). The
    final: 1 and 2; the third-place match: 3 and 4, without one the semi-finals' losers share 3; the
    losers of each earlier stage share the place after all who went further (a bracket of 8: the
    quarter-finals' losers share 5). A bye is no loss. Places of matches not decided yet are left out."""
    out: list[tuple[int, tuple[str, ...]]] = []
    final = next(m for m in br.matches if m.name == "final")
    third = next((m for m in br.matches if m.name == "third place"), None)
    if final.winner is not None and final.loser is not None:
        out += [(1, (final.winner,)), (2, (final.loser,))]
    elif final.winner is not None:
        out.append((1, (final.winner,)))
    if third is not None:
        if third.winner is not None and third.loser is not None:
            out += [(3, (third.winner,)), (4, (third.loser,))]
    for stage in range(br.stages - 1, 0, -1):
        if third is not None and stage == br.stages - 1:
            continue
        losers = tuple(sorted(m.loser for m in br.matches if m.round == stage and m.name != "third place"
                              and m.loser is not None and isinstance(m.outcome, Decided) and m.outcome.reason != "bye"))
        if losers:
            out.append((2 ** (br.stages - stage) + 1, losers))
    return out


def knockout_draft(state: EventState, round_no: int, seed: int, fmt: Format, name: str) -> RoundDraft:
    """The boards that come next in the knockout: the next game of every undecided match of the stage
    being played (module doc), with words saying what each continues."""
    br = bracket(state, fmt, seed)
    boards: list[Board] = []
    for m in br.matches:
        if isinstance(m.outcome, Next):
            nxt = m.outcome
            title = m.title or words(m.name)
            said = (words("{match} ({came}): {part}", match=title, came=m.came_from, part=nxt.words)
                    if nxt.game == 1 and m.came_from is not None else
                    words("{match}: {part}", match=title, part=nxt.words))
            boards.append(Board(table=m.table, left=nxt.left, right=nxt.right, game=nxt.game,
                                stage=KNOCKOUT_STAGE, note=str(said), words=said, preset=nxt.preset))
    lot_words = lot_words_of(br, seed)
    if not boards:
        if br.over:
            champion = (words("{player} won the final", player=br.champion) if br.champion
                        else words("the final is decided"))
            raise EventOver(words("the knockout is over: {champion} (by lot: {lots}, kept)", champion=champion,
                                  lots="; ".join(br.drew_ties)) if br.drew_ties else
                            words("the knockout is over: {champion}", champion=champion), lot=br.lot)
        raise PairingError("no knockout match can be paired now")   # not reached: a stage always has one open
    boards.sort(key=lambda b: (b.table, b.game))
    return RoundDraft(round=round_no, system=name, seed=seed, boards=tuple(boards), notes=br.notes, lot=br.lot,
                      words=lot_words)


def lot_words_of(br: Bracket, seed: int) -> tuple[Words, ...]:
    """What a knockout draft continues, in words: the bracket drawn now or kept; ties drawn now."""
    seed_of_lot = lot_seed(br.lot)
    stage = br.stage_of_play()
    out = [words("the bracket drawn for round 1 by lot (lot seed {seed}): kept for every later round once round 1 "
                 "is published; a Redraw draws it again until then", seed=seed_of_lot)
           if br.drew and br.lot.get("by") != "seeds" else
           words("the bracket by the seeds given (option 'seeds'), kept for every later round")
           if br.drew else
           words("continues the bracket drawn for round 1 (lot seed {seed})", seed=seed_of_lot)]
    out.append(words("stage {stage} of {stages}: {what}", stage=stage, stages=br.stages,
                     what=_stage_words(stage, br.stages)))
    out += [words("tied {tie}: decided by lot with this draft's seed {seed}; a Redraw draws it again until this "
                  "round is published", tie=t, seed=seed) for t in br.drew_ties]
    return tuple(out)


def knockout_system(name: str, fmt: Format) -> None:
    """Register `name` as a knockout of match format `fmt`: its pairing system and its follower."""
    FORMATS[name] = fmt

    @system(name)
    def pair(state: EventState, round_no: int, seed: int) -> RoundDraft:
        return knockout_draft(state, round_no, seed, fmt, name)

    follows(name)(follow_bracket)


def follow_bracket(state: EventState, lot: Mapping[str, Any], boards: Sequence[Board]) -> Mapping[str, Any]:
    """The bracket made to agree with round 1's boards as the organiser fixed them: a first-round match
    whose pair is still on a board keeps its place; the new pairs take the places left, in table
    order, the player on the left first. Only first games can be fixed so (the draw's round)."""
    slots = list(_kept_bracket(lot))
    pairs = [(b.left, b.right) for b in sorted(boards, key=lambda b: (b.table, b.game)) if b.right is not None]
    if any(b.game != 1 for b in boards if b.right is not None):
        raise PairingError("only round 1 of a knockout can be fixed to other pairs")
    wanted = {frozenset(p): p for p in pairs}
    free: list[int] = []
    for i in range(0, len(slots), 2):
        a, b = slots[i], slots[i + 1]
        if a is None or b is None:
            continue                                   # a bye: nobody on a board
        if frozenset((a, b)) in wanted:
            del wanted[frozenset((a, b))]
        else:
            free.append(i)
    new = [p for p in pairs if frozenset(p) in wanted]
    if len(new) != len(free) or len(pairs) != len(set(map(frozenset, pairs))):
        raise PairingError("a knockout's round 1 seats every match of the bracket once, no bye but its own")
    for i, (left, right) in zip(free, new, strict=True):
        slots[i], slots[i + 1] = left, right
    return {**lot, "bracket": slots}


knockout_system("makruk-ko", mr12)      # MR-12 (seed 003 Makruk note)
