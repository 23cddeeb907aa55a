"""Property tests (hypothesis) of the score-group Swiss (organiser/pairing/swiss.py), of XW-10's
Swiss games (games 2-5, seed 000 §1-2) and of the FIDE Dutch (pairing/dutch.py), over whole events
of random results:

- every player is on exactly one board of a round, or has its bye;
- at most one bye per player (XW-9, seed 000 §3.10.5: the lowest-ranked *without one*) while a
  player without one is left;
- no repeat pairing while one is avoidable: when the players left after the bye can be paired with
  no two meeting again (checked here by an exhaustive search of its own), the round has no repeat;
- the same state and seed give the same draft.
"""
from __future__ import annotations

import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from gameclock.organiser.pairing import load_systems
from gameclock.organiser.pairing.model import EventState, Game, Player, RoundDraft
from gameclock.organiser.pairing.swiss import swiss_boards

XW10 = load_systems()["xw10"]


def repeat_free_exists(players: frozenset[str], met: frozenset[frozenset[str]]) -> bool:
    """Whether `players` can all be paired with no pair in `met` (exhaustive, independent of swiss.py)."""
    @cache
    def can(left: frozenset[str]) -> bool:
        if not left:
            return True
        first = min(left)
        return any(frozenset((first, q)) not in met and can(left - {first, q}) for q in left - {first})
    return can(players)


def check_round(draft: RoundDraft, players: list[str], games: list[Game], koth: bool = False) -> None:
    on_boards = draft.players()
    assert sorted(on_boards) == sorted(players)                      # each exactly once
    met = frozenset(frozenset((g.left, g.right)) for g in games if g.right is not None)
    byes_before = {g.left for g in games if g.right is None}
    byes = [b.left for b in draft.boards if b.right is None]
    assert len(byes) == len(players) % 2
    for p in byes:                                                   # XW-9
        assert p not in byes_before or byes_before >= set(players)
    if koth:
        return                                                       # King of the Hill pairs by rank
    paired = frozenset(p for p in players if p not in byes)
    repeats = [b for b in draft.boards if b.right is not None and frozenset((b.left, b.right)) in met]
    if repeats:
        assert not repeat_free_exists(paired, met), f"avoidable repeats {repeats}"


def play(draft: RoundDraft, rng: random.Random) -> list[Game]:
    out = []
    for b in draft.boards:
        if b.right is None:
            out.append(Game(draft.round, b.left, None, 1.0, 100, 0))
        else:
            lp = rng.choice((1.0, 0.0, 1.0, 0.0, 0.5))
            spread = 0 if lp == 0.5 else rng.randint(1, 250) * (1 if lp else -1)
            out.append(Game(draft.round, b.left, b.right, lp, spread, b.table))
    return out


@settings(max_examples=120, deadline=None)
@given(n=st.integers(2, 14), rounds=st.integers(1, 8), seed=st.integers(0, 2**32 - 1))
def test_a_plain_swiss_event(n, rounds, seed):
    rng = random.Random(seed)
    players = tuple(Player(f"p{i}", f"P{i}") for i in range(n))
    ids = [p.id for p in players]
    games: list[Game] = []
    for rnd in range(1, min(rounds, n) + 1):   # no more rounds than players: a bye each at most
        state = EventState(players, tuple(games))
        boards, notes = swiss_boards(state)
        draft = RoundDraft(rnd, "swiss", seed, tuple(boards), tuple(notes))
        check_round(draft, ids, games)
        assert swiss_boards(state) == (boards, notes)                # deterministic
        games += play(draft, rng)


@settings(max_examples=120, deadline=None)
@given(n=st.integers(2, 15), seed=st.integers(0, 2**32 - 1), koth=st.sampled_from((1, 2)),
       group=st.integers(2, 4))
def test_an_xw10_event(n, seed, koth, group):
    rng = random.Random(seed)
    players = tuple(Player(f"p{i}", f"P{i}") for i in range(n))
    ids = [p.id for p in players]
    games: list[Game] = []
    options: dict[str, object] = {"koth_rounds": koth, "table_group": group}
    for rnd in range(1, 7):
        state = EventState(players, tuple(games), options=options)
        draft = XW10(state, rnd, seed)
        assert XW10(state, rnd, seed) == draft                       # the stored seed redoes it
        check_round(draft, ids, games, koth=rnd == 1 or rnd > 6 - koth)
        games += play(draft, rng)
    final = XW10(EventState(players, tuple(games), options=options), 7, seed)
    assert [b.note for b in final.boards] == ["final", "third place"][: min(n, 4) // 2]
    assert all(b.stage == "final" for b in final.boards)


DUTCH = load_systems()["dutch"]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 11), rounds=st.integers(1, 5), seed=st.integers(0, 2**32 - 1))
def test_a_dutch_swiss_event(n, rounds, seed):
    """The FIDE Dutch (organiser/pairing/dutch.py, the engine plus our checks) over random events: the
    same three properties, and when it refuses a round (PairingError) no repeat-free pairing with a
    bye to a player without one existed (C.04.3 C1, C2: the Dutch never repeats a pairing)."""
    from gameclock.organiser.pairing.model import PairingError

    rng = random.Random(seed)
    players = tuple(Player(f"p{i}", f"P{i}", rating=rng.randint(1000, 2400)) for i in range(n))
    ids = [p.id for p in players]
    games: list[Game] = []
    for rnd in range(1, min(rounds, n - 1) + 1):
        state = EventState(players, tuple(games), rounds=rounds)
        try:
            draft = DUTCH(state, rnd, seed)
        except PairingError:
            met = frozenset(frozenset((g.left, g.right)) for g in games if g.right is not None)
            had = {g.left for g in games if g.right is None}
            candidates = [None] if n % 2 == 0 else [p for p in ids if p not in had]
            assert not any(repeat_free_exists(frozenset(ids) - {c}, met) for c in candidates)
            return
        check_round(draft, ids, games)
        met = {frozenset((g.left, g.right)) for g in games if g.right is not None}
        assert all(frozenset((b.left, b.right)) not in met for b in draft.boards if b.right is not None)
        assert DUTCH(state, rnd, seed) == draft                       # deterministic
        games += [Game(g.round, g.left, g.right, g.left_points) for g in play(draft, rng)]
