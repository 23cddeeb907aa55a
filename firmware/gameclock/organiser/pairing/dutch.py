"""FIDE Dutch Swiss (Handbook C.04.3, 2025 rules) for open chess-style events (issue 16), through the
caissify-pairings engine (Apache-2.0, pure Python: `caissify_pairings.engines.dutch`) rather than
our own: the Dutch system's criteria and their order are long and subtle, and the engine is
cross-checked against bbpPairings, the FIDE-endorsed program (tests/pairing/ checks it too).

What this module adds around the engine (`pair`, registered as "dutch"):

- The initial ranking: rating, highest first; equal ratings keep the event's order of `players`.
  Pairing numbers are counted among the players paired this round (as bbpPairings does).
- Each player's history from the games, as the Dutch system reads it (and as bbpPairings reads a
  TRF): points (byes and forfeits included); colours of played games only (`Game.left` is White;
  a forfeit has no colour); floats (a played game against a player with more points before that
  round is an up-float, fewer a down-float; an unplayed round that scored points -- a bye, a forfeit
  win -- is a down-float; a round without a game is none); who may not get the pairing-allocated
  bye again (anyone who has had a bye or a forfeit win worth a win: C.04.1); who has met (played
  games only: a forfeit's two players may meet again).
- The initial colour (C.04.3 E: drawn by lot before round 1): `options["initial_colour"]`
  ("white" | "black") when the event fixed it; else read from round 1 (the top-ranked player who
  played in round 1 had it); else, pairing round 1, drawn from `random.Random(seed)`.
- The boards in FIDE's publishing order (C.04.2: the higher score on the board first, then the
  lower score, then the rank of the board's higher player; the bye last), as bbpPairings prints
  them. The engine's own order (sum of scores first) differs when a floater meets a lower group.
- The engine's answer checked before it is handed on: every player once, at most one bye (only
  for an odd count, never to a player who may not have it), no two players who have played each
  other. The engine falls back to relaxed matchings rather than failing; such a round is refused
  with a `PairingError` instead.

Players left out of `state.players` (withdrawn, or absent this round) are not paired; their games
still count for their opponents. Needs `state.rounds` (the last round relaxes the colour rules for
the topscorers). Deterministic: the same state and seed give the same draft.

The size of a real open (issue 25). The engine pairs a round by asking a maximum-weight matching of
the whole field again and again (about 170 times for round 5 of 300 players), each from networkx's
pure-Python blossom algorithm: 250-350 s for that round, 96 % of it in networkx. `engines()` gives
the engine the same matchings from rustworkx's compiled blossom algorithm instead (matching.py; the
engine's weights, 300-400-bit integers, are first compressed exactly into rustworkx's 128 bits):
about 4 s (3.9-4.0 s measured here; 67 MiB), the pairings unchanged (tests/pairing/
test_dutch_fast.py: the 300-player reference board by board; random events of every kind, round by
round). Chosen over running bbpPairings (the FIDE-endorsed C++ program, about 1 s) as a program
the PC installer builds because: rustworkx is a wheel on PyPI for both of the organiser's machines
(x86-64 manylinux2014 and aarch64 manylinux_2_28, abi3 for CPython 3.10+: no compiler, nothing built
on the PC or the Pi 5); the engine, its checked pairings and the drafts' provenance ("by
caissify-pairings 0.5.0") stay as they are; networkx remains the exact fallback (an unchecked engine
version, rustworkx missing, weights too wide even compressed); and a second engine behind a TRF file
and a subprocess would be one more thing to install, check and keep in step with this module's
reading of the games (the two engines do differ now and then: tests/pairing/open300/README.md).

How it is wired (nothing of the installed package is changed): the engine imports networkx inside
three methods (`import networkx as nx`, then `nx.Graph()`, `add_node`, `add_edge` and
`nx.max_weight_matching(G, maxcardinality=True)`). `engines()` makes those three methods again from
their own code objects with a copy of the engine module's globals whose `__builtins__.__import__`
answers matching.STANDIN for "networkx", in a subclass of the engine: the engine's own class is
untouched (the tests' slow reference). It does so only for the caissify-pairings versions and method
sources it was checked against (`CHECKED_VERSIONS`, `MATCHING_METHODS`: sha-256 of each method's
source), else the engine runs as it is and the draft's note says so; the tests fail loudly first.

Ties. Where several matchings are best, rustworkx may return another one than networkx (they break
ties differently), and the engine's graphs have many: players far from the bracket being paired all
weigh alike. The engine (a port of bbpPairings' `computeMatching`, whose own matcher breaks ties its
own way, and whose pairings it reproduces) reads from a matching only the partners of the bracket's
players, and acts on: counts that the best weight fixes (pairs in the bracket, moved-down players,
exchanges: fields of the weight), a yes/no about one player asked after nudging that player's edges
by one unit so that every best matching answers alike, and one player's opponent chosen after
distinct addends on that player's edges (in reserved low bits: no other sum can make up for them).
The one place this does not cover by itself is a first look at the matching of the previous step
before a nudge (bbpPairings does the same); there the tests are the evidence: every round they pair
both ways -- the 300-player reference, and 2,300 rounds of random events of 4-40 players and more of
60-100, odd counts, forfeits, absences, last rounds -- gave the same boards.

Upstream (caissify-pairings takes pull requests; this repository cannot push): the clean form is an
optional `matcher` argument of `DutchEngine` (default: networkx's), called where the four
`nx.max_weight_matching(G, maxcardinality=True)` are, with matching.py's `compress` and rustworkx
as an optional extra. Then `engines()` and its source hashes go, and `run_engine` passes the matcher.
"""
from __future__ import annotations

import builtins
import functools
import hashlib
import importlib.metadata
import inspect
import random
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import caissify_pairings
import caissify_pairings.engines.dutch as engine_module
from caissify_pairings.engines.dutch import DutchEngine

from gameclock.organiser.pairing.model import (
    WIN,
    Board,
    EventState,
    Game,
    PairingError,
    RoundDraft,
    note,
    system,
    words,
)

NAME = "dutch"
ENGINE = f"caissify-pairings {caissify_pairings.__version__}"
COLOURS = ("white", "black")

# The engine's methods that import networkx for `max_weight_matching`, as checked in caissify-pairings
# 0.5.0: the sha-256 of each one's source. Another version, or other source, runs the engine as it is
# (networkx: exact, slow); tests/pairing/test_dutch_fast.py fails until they are checked again.
CHECKED_VERSIONS = ("0.5.0",)
MATCHING_METHODS = {
    "_pair_bracket_mwm": "1005c0524b4005b39cbb54ac09f83aa83571832436440d71ce9a135043023900",
    "_pair_global_mwm": "7be90fc8877c65e90b8eff8e7042f3bea6edf5a4e8cde1583daff29bdb1fe544",
    "_pair_iterative_mwm": "ec4953f20891653dc89363bf174d41113b1e109e77f4df9783de460bebe3761b",
}


def unchecked() -> str | None:
    """Why the fast matching cannot be put into this engine (None: it can): the engine's version is
    not one it was checked against, or the methods that import networkx are not the checked ones,
    or networkx is imported anywhere else."""
    version = caissify_pairings.__version__
    if version not in CHECKED_VERSIONS:
        return f"caissify-pairings {version} is not a checked version ({', '.join(CHECKED_VERSIONS)})"
    try:
        whole = inspect.getsource(engine_module)
        sources = {name: inspect.getsource(getattr(DutchEngine, name)) for name in MATCHING_METHODS}
    except (OSError, TypeError, AttributeError) as e:
        return f"the engine's source cannot be read: {e}"
    for name, digest in MATCHING_METHODS.items():
        if hashlib.sha256(sources[name].encode()).hexdigest() != digest:
            return f"the engine's {name} is not the checked one"
    if whole.count("networkx") != sum(s.count("networkx") for s in sources.values()):
        return "the engine uses networkx outside the checked methods"
    return None


@functools.cache
def engines() -> tuple[type, str]:
    """(the engine class `pair` uses, how it computes its matchings). The fast one is the engine's
    own class with its three matching methods made again from their own code, with globals in which
    `import networkx` finds matching.STANDIN (rustworkx, exact): nothing of the installed package is
    changed, and the engine's own class stays as it is (the slow reference in the tests)."""
    why = unchecked()
    try:
        from gameclock.organiser.pairing import matching
    except ImportError as e:
        why = why or f"rustworkx is not installed ({e})"
    if why is not None:
        return DutchEngine, note("matchings by networkx (slow: {why})", why=why)
    real_import = builtins.__import__

    def find(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if name == "networkx" and level == 0:
            return matching.STANDIN
        return real_import(name, globals, locals, fromlist, level)

    scope = dict(vars(engine_module))
    scope["__builtins__"] = {**vars(builtins), "__import__": find}
    methods: dict[str, Callable[..., Any]] = {}
    for name in MATCHING_METHODS:
        own = getattr(DutchEngine, name)
        made = types.FunctionType(own.__code__, scope, own.__name__, own.__defaults__, own.__closure__)
        made.__kwdefaults__ = own.__kwdefaults__
        made.__qualname__ = own.__qualname__
        methods[name] = made
    fast = type("DutchEngineFastMatching", (DutchEngine,), {"__module__": __name__, **methods})
    return fast, note("matchings by rustworkx {version} (exact, pairing/matching.py)",
                      version=importlib.metadata.version("rustworkx"))


@dataclass(frozen=True)
class EnginePlayer:
    """One player as the engine reads it (`number`: the player's place in the initial ranking)."""
    number: int
    points: float
    colours: tuple[str, ...]        # "white" / "black", played games only, oldest first
    floats: tuple[str, ...]         # "up" / "down" / "none", one a round before this one
    had_bye: bool                   # a pairing-allocated bye or another unplayed win (no PAB again)
    forfeit_wins: int

    def as_engine(self) -> dict[str, object]:
        return {"id": self.number, "name": "", "score": self.points, "rating": 0,
                "starting_number": self.number, "color_hist": list(self.colours),
                "float_history": list(self.floats), "bye_count": int(self.had_bye),
                "forfeit_win_count": self.forfeit_wins}


def run_engine(players: Sequence[EnginePlayer], met: set[tuple[int, int]], round_no: int, rounds: int,
               initial_colour: str, engine_class: type | None = None) -> list[tuple[int, int | None]]:
    """The engine's pairs (white, black), a bye as (player, None), in the engine's order: the one
    place the untyped engine is called (`engine_class`: `engines()`'s unless given)."""
    cls = engine_class or engines()[0]
    engine: Any = cls(players=[p.as_engine() for p in players], previous_pairings=set(met),
                      round_number=round_no, total_rounds=rounds, initial_color=initial_colour)
    out: list[tuple[int, int | None]] = []
    for row in engine.generate_pairings():
        white, black = row["white_id"], row.get("black_id")
        if not isinstance(white, int) or not (black is None or isinstance(black, int)):
            raise PairingError(f"the Dutch engine ({ENGINE}) answered a board without players: {row!r}")
        out.append((white, None if row.get("bye") else black))
    return out


def ranking(state: EventState) -> list[str]:
    """The initial ranking: rating, highest first; equal ratings in the event's order."""
    order = {p.id: i for i, p in enumerate(state.players)}
    return sorted(order, key=lambda pid: (-state.player(pid).rating, order[pid]))


def scores_before(games: Sequence[Game], last_round: int) -> dict[int, dict[str, float]]:
    """{round r: each player's points before round r}, for r = 1..last_round + 1."""
    out: dict[int, dict[str, float]] = {}
    running: dict[str, float] = {}
    by_round: dict[int, list[Game]] = {}
    for g in games:
        by_round.setdefault(g.round, []).append(g)
    for r in range(1, last_round + 2):
        out[r] = dict(running)
        for g in by_round.get(r, []):
            running[g.left] = running.get(g.left, 0.0) + g.left_points
            if g.right is not None:
                running[g.right] = running.get(g.right, 0.0) + g.right_points
    return out


def history(pid: str, number: int, games: Sequence[Game], round_no: int,
            before: dict[int, dict[str, float]]) -> EnginePlayer:
    """A player's points, colours, floats and bye eligibility before round `round_no`."""
    mine: dict[int, Game] = {}
    for g in games:
        if pid in (g.left, g.right):
            if g.round in mine:
                raise PairingError(f"player {pid} has two games in round {g.round}")
            mine[g.round] = g
    colours: list[str] = []
    floats: list[str] = []
    had_bye = False
    forfeit_wins = 0
    for r in range(1, round_no):
        if r not in mine:
            floats.append("none")
            continue
        g = mine[r]
        left = g.left == pid
        got = g.left_points if left else g.right_points
        if g.right is None or g.forfeit:
            if g.right is None and got >= WIN:
                had_bye = True
            if g.right is not None and got >= WIN:
                forfeit_wins += 1
            floats.append("down" if got > 0 else "none")
            continue
        colours.append(COLOURS[0] if left else COLOURS[1])
        other = g.right if left else g.left
        assert other is not None
        mine_before, theirs = before[r].get(pid, 0.0), before[r].get(other, 0.0)
        floats.append("down" if mine_before > theirs else "up" if mine_before < theirs else "none")
    return EnginePlayer(number, before[round_no].get(pid, 0.0), tuple(colours), tuple(floats), had_bye,
                        forfeit_wins)


def initial_colour(state: EventState, games: Sequence[Game], rank: dict[str, int], seed: int) -> tuple[str, str]:
    """(the initial colour, where it comes from)."""
    given = state.options.get("initial_colour")
    if given is not None:
        if given not in COLOURS:
            raise PairingError(f"initial_colour {given!r}: white or black")
        return str(given), note("the event's")
    first = [g for g in games if g.round == 1 and g.right is not None]
    if first:
        far = len(rank) + 1
        top = min(first, key=lambda g: min(rank.get(g.left, far), rank.get(g.right or "", far)))
        higher_left = rank.get(top.left, far) <= rank.get(top.right or "", far)
        return (COLOURS[0] if higher_left else COLOURS[1]), note("from round 1")
    return random.Random(seed).choice(COLOURS), note("drawn by lot, seed {seed}", seed=seed)


@dataclass(frozen=True)
class Preference:
    """A player's colour preference (C.04.3 A.6) from the colours of the games played."""
    colour: str | None          # the colour wanted, None for none
    absolute: bool              # two more of one colour, or the same colour twice running
    strong: bool                # one more of one colour (not absolute)
    imbalance: int              # |whites - blacks|


def preference(colours: Sequence[str]) -> Preference:
    whites, blacks = colours.count(COLOURS[0]), colours.count(COLOURS[1])
    lower = COLOURS[1] if whites > blacks else COLOURS[0]
    imbalance = abs(whites - blacks)
    running = 0
    for c in reversed(colours):
        if c != colours[-1]:
            break
        running += 1
    other = other_colour(colours[-1]) if colours else None
    wanted = (lower if imbalance > 1 else other if running > 1 else lower if imbalance > 0 else other)
    absolute = imbalance > 1 or running > 1
    return Preference(wanted, absolute, not absolute and imbalance > 0, imbalance)


def other_colour(colour: str) -> str:
    return COLOURS[1] if colour == COLOURS[0] else COLOURS[0]


def allocate(a: EnginePlayer, b: EnginePlayer, a_first: bool, a_number: int, b_number: int,
             initial: str) -> str:
    """The colour `a` gets against `b` (C.04.3 E.1-E.5, as bbpPairings' `choosePlayerColor`).
    `a_first`: `a` ranks higher now (more points, then the better pairing number); the numbers are
    the pairing numbers among the players of the round (E.5 reads their parity)."""
    pa, pb = preference(a.colours), preference(b.colours)
    if pa.colour is None or pb.colour is None or pa.colour != pb.colour:      # E.1: both granted
        if pa.colour is not None:
            return pa.colour
        if pb.colour is not None:
            return other_colour(pb.colour)
    elif pa.absolute and (pa.imbalance > pb.imbalance or not pb.absolute):    # E.2: the stronger
        return pa.colour
    elif pb.absolute and (pb.imbalance > pa.imbalance or not pa.absolute):
        return other_colour(pb.colour)
    elif pa.strong and not pb.strong:
        return pa.colour
    elif pb.strong and not pa.strong:
        return other_colour(pb.colour)
    else:
        for ca, cb in zip(reversed(a.colours), reversed(b.colours), strict=False):   # E.3: alternate
            if ca != cb:
                return cb
        return pa.colour if a_first else other_colour(pa.colour)              # E.4: the higher's
    # E.5: neither has a preference: the higher ranked gets the initial colour with an odd number
    higher_number = a_number if a_first else b_number
    higher_gets = initial if higher_number % 2 == 1 else other_colour(initial)
    return higher_gets if a_first else other_colour(higher_gets)


def colours(pair: tuple[str, str | None], players: Sequence[EnginePlayer], rank: dict[str, int],
            points: dict[str, float], initial: str) -> tuple[str, str | None]:
    """The board (white, black) by C.04.3 E (the bye as it is)."""
    p, q = pair
    if q is None:
        return pair
    a, b = players[rank[p] - 1], players[rank[q] - 1]
    p_first = (-points.get(p, 0.0), rank[p]) < (-points.get(q, 0.0), rank[q])
    return (p, q) if allocate(a, b, p_first, rank[p], rank[q], initial) == COLOURS[0] else (q, p)


def board_key(pair: tuple[str, str | None], points: dict[str, float],
              rank: dict[str, int]) -> tuple[int, float, float, int]:
    """C.04.2's publishing order (bbpPairings' `sortResults`): the bye last; the board's higher
    player (more points, then the better rank) with the most points first, then the other
    player's points, then the higher player's rank."""
    left, right = pair
    if right is None:
        return (1, 0.0, 0.0, rank[left])
    high, low = sorted((left, right), key=lambda p: (-points[p], rank[p]))
    return (0, -points[high], -points[low], rank[high])


def check(draft: list[tuple[str, str | None]], players: list[str], met: set[frozenset[str]],
          no_bye: set[str]) -> None:
    """PairingError unless the engine's round is one the Dutch system allows (C.04.3 C1, C2)."""
    seen: list[str] = [p for pair in draft for p in pair if p is not None]
    if sorted(seen) != sorted(players):
        missing = sorted(set(players) - set(seen))
        twice = sorted({p for p in seen if seen.count(p) > 1})
        raise PairingError(f"the Dutch engine ({ENGINE}) could not pair every player once "
                           f"(missing {missing or 'none'}, twice {twice or 'none'})")
    byes = [p for p, q in draft if q is None]
    if len(byes) != len(players) % 2:
        raise PairingError(f"no Dutch pairing: {len(players)} players would need {len(byes)} byes "
                           f"({', '.join(byes)}): too many have met already")
    for p in byes:
        if p in no_bye:
            raise PairingError(f"no Dutch pairing: {p} would get a second bye (C.04.1)")
    for p, q in draft:
        if q is not None and frozenset((p, q)) in met:
            raise PairingError(f"no Dutch pairing: {p} and {q} would meet again (C.04.3 C1)")


@system(NAME)
def pair(state: EventState, round_no: int, seed: int) -> RoundDraft:
    """Round `round_no` of `state` by the FIDE Dutch system (module doc)."""
    return pair_with(state, round_no, seed)


def pair_with(state: EventState, round_no: int, seed: int, engine_class: type | None = None) -> RoundDraft:
    """`pair`, with the engine's class given (tests: `DutchEngine`, the engine as it is, networkx)."""
    cls, how = (engine_class, note("matchings by networkx")) if engine_class is not None else engines()
    if round_no < 1:
        raise PairingError(f"round {round_no}: rounds count from 1")
    if state.rounds < round_no:
        raise PairingError(f"the Dutch system needs the event's number of rounds (at least {round_no}; "
                           f"it is {state.rounds}): the last round's colour rules depend on it")
    later = sorted({g.round for g in state.games if g.round >= round_no or g.round < 1})
    if later:
        raise PairingError(f"round {round_no} cannot be paired: there are games of round {later[0]}")
    if len(state.players) < 2:
        raise PairingError("the Dutch system needs at least two players")
    order = ranking(state)
    rank = {pid: i for i, pid in enumerate(order, start=1)}
    games = sorted(state.games, key=lambda g: (g.round, g.table))
    before = scores_before(games, round_no - 1)
    players = [history(pid, rank[pid], games, round_no, before) for pid in order]
    met_ids = {frozenset((g.left, g.right)) for g in games if g.right is not None and not g.forfeit}
    met = {(rank[a], rank[b]) for a, b in (sorted(m, key=lambda p: rank.get(p, 0)) for m in met_ids)
           if a in rank and b in rank}
    colour, source = initial_colour(state, games, rank, seed)
    by_number = {rank[pid]: pid for pid in order}
    answer = run_engine(players, met, round_no, state.rounds, colour, cls)
    draft = [(by_number[w], None if b is None else by_number[b]) for w, b in answer
             if w in by_number and (b is None or b in by_number)]
    if len(draft) != len(answer):
        raise PairingError(f"the Dutch engine ({ENGINE}) answered a player who is not in the event")
    points = {pid: before[round_no].get(pid, 0.0) for pid in order}
    draft = [colours(two, players, rank, points, colour) for two in draft]
    check(draft, order, met_ids, {pid for pid in order if players[rank[pid] - 1].had_bye
                                  or players[rank[pid] - 1].forfeit_wins})
    draft.sort(key=lambda two: board_key(two, points, rank))
    boards = tuple(Board(table=i, left=w, right=b, note="bye" if b is None else "")
                   for i, (w, b) in enumerate(draft, start=1))
    return RoundDraft(round=round_no, system=NAME, seed=seed, boards=boards,
                      notes=(note("FIDE Dutch system (C.04.3) by {engine}, {how}", engine=ENGINE, how=how),
                             note("initial colour {colour} ({source})", colour=words(colour), source=source),
                             note("boards in FIDE's order (C.04.2): higher score, lower score, rank")))
