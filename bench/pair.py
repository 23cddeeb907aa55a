"""`python -m bench pair`: pairing a big crossword event (issue 16) and a big chess open by the FIDE
Dutch system (issue 25).

The event (fixed seed): P players (500) in the "xw10" system (organiser/pairing/crossword.py).
Games 1-4 are paired by the system itself and given random results (10% draws, the rest won by
either side alike; spreads 1-250, XW-8's secondary cap; byes XW-9's +100). Then round 5
is paired RUNS times from the same state and seed.

Figures:
  pair_ms_500          pairing round 5 (XW-10: the change-over within game 4's table groups, a Swiss
                       within each group, the repeat pairings avoided): the median of RUNS runs, ms
                       (issue 16: under 2 s)
  pair_swiss_ms_500    pairing round 4 (the committee's Swiss over the whole field, score groups and
                       floats, no repeat pairing): the median of RUNS runs, ms
  pair_players, pair_boards, pair_repeats   the event's size, round 5's boards (a bye counted),
                       and round 5's repeat pairings (0 expected: none is needed in a field this size)

The Dutch open (bench/dutch300.py): 300 players, rounds 1-4 as kept in tests/pairing/open300/ (forfeits,
an absence, a pairing-allocated bye), round 5 paired DUTCH_RUNS times by organiser/pairing/dutch.py
(caissify-pairings, its matchings by rustworkx) and compared with the reference kept there (the engine
with networkx's matching, 5-11 minutes here by the load; bbpPairings pairs it the same):
  dutch_ms_300         pairing round 5: the median of DUTCH_RUNS runs, ms (issue 25: under 5,000 ms)
  dutch_boards_300     round 5's boards (150)
  dutch_differing_300  boards that differ from the reference, by players, colours or order (0 expected)
  dutch_matchings_300  maximum-weight matchings the engine asked for in one pairing of round 5
  dutch_networkx_300   of those, how many went to networkx (matching.py's fallbacks; 0 expected)

Shorter runs (tests): GAMECLOCK_BENCH_PAIR_PLAYERS (the crossword figures are then named by that size),
GAMECLOCK_BENCH_DUTCH_RUNS (DUTCH_RUNS, 3).
"""
from __future__ import annotations

import os
import random
import statistics
import time

from bench import dutch300
from gameclock.organiser.pairing import load_systems
from gameclock.organiser.pairing.model import EventState, Game, Player, RoundDraft, met

ENV_PLAYERS = "GAMECLOCK_BENCH_PAIR_PLAYERS"
ENV_DUTCH_RUNS = "GAMECLOCK_BENCH_DUTCH_RUNS"
RUNS = 5
DUTCH_RUNS = 3
SEED = 16


def _results(draft: RoundDraft, rng: random.Random) -> list[Game]:
    out = []
    for b in draft.boards:
        if b.right is None:
            out.append(Game(draft.round, b.left, None, 1.0, 100, 0))
            continue
        r = rng.random()
        lp = 0.5 if r < 0.1 else 1.0 if r < 0.55 else 0.0
        spread = 0 if lp == 0.5 else rng.randint(1, 250) * (1 if lp else -1)
        out.append(Game(draft.round, b.left, b.right, lp, spread, b.table))
    return out


def _median_ms(state: EventState, rnd: int) -> tuple[float, RoundDraft]:
    pair = load_systems()["xw10"]
    times = []
    draft = None
    for _ in range(RUNS):
        t0 = time.perf_counter()
        draft = pair(state, rnd, SEED)
        times.append(time.perf_counter() - t0)
    assert draft is not None
    return round(statistics.median(times) * 1000, 3), draft


def bench_pair(players: int | None = None) -> dict:
    n = players if players is not None else int(os.environ.get(ENV_PLAYERS, "500"))
    rng = random.Random(SEED)
    field = tuple(Player(str(i), f"Player {i}") for i in range(1, n + 1))
    pair = load_systems()["xw10"]
    games: list[Game] = []
    swiss_ms = 0.0
    for rnd in range(1, 5):
        state = EventState(field, tuple(games))
        if rnd == 4:
            swiss_ms, draft = _median_ms(state, 4)
        else:
            draft = pair(state, rnd, SEED)
        games += _results(draft, rng)
    state = EventState(field, tuple(games))
    ms, draft = _median_ms(state, 5)
    before = met(games)
    repeats = sum(1 for b in draft.boards if b.right is not None and frozenset((b.left, b.right)) in before)
    return {f"pair_ms_{n}": ms, f"pair_swiss_ms_{n}": swiss_ms, "pair_players": n,
            "pair_boards": len(draft.boards), "pair_repeats": repeats, **bench_dutch()}


def bench_dutch(runs: int | None = None) -> dict:
    """Round 5 of the 300-player Dutch open against its reference (module doc)."""
    from gameclock.organiser.pairing import dutch, matching

    runs = runs if runs is not None else int(os.environ.get(ENV_DUTCH_RUNS, str(DUTCH_RUNS)))
    state = dutch300.read((dutch300.DATA / dutch300.TRF).read_text())
    lines = (dutch300.DATA / dutch300.REFERENCE).read_text().split()
    want = [(lines[i], None if lines[i + 1] == "0" else lines[i + 1]) for i in range(1, len(lines), 2)]
    rnd = dutch300.PLAYED + 1
    dutch.engines()                      # its one-time check of the engine's source, not timed
    times = []
    calls = dict(matching.CALLS)
    for _ in range(runs):
        t0 = time.perf_counter()
        draft = dutch.pair(state, rnd, dutch300.SEED)
        times.append(time.perf_counter() - t0)
    got = [(b.left, b.right) for b in draft.boards]
    differing = sum(1 for a, b in zip(got, want, strict=False) if a != b) + abs(len(got) - len(want))
    return {"dutch_ms_300": round(statistics.median(times) * 1000, 1), "dutch_boards_300": len(got),
            "dutch_differing_300": differing,
            "dutch_matchings_300": sum(matching.CALLS[k] - calls[k] for k in calls) // runs,
            "dutch_networkx_300": (matching.CALLS["networkx"] - calls["networkx"]) // runs}
