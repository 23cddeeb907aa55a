"""The FIDE Dutch at the size of a real open (issue 25): the engine's matchings by rustworkx
(organiser/pairing/matching.py, wired in by dutch.py's `engines`) give the pairings of the engine as
it is (networkx), board by board and colour by colour.

- The engine is the one the fast matching was checked against (a new caissify-pairings, or other
  source in the methods that import networkx, fails here first: check them again, then the hashes).
- `compress` keeps the order of matching sums exactly: checked against brute force on small graphs
  with weights packed like the engine's (fields of several hundred bits, borrows from negative
  offsets), and on the sums themselves.
- What the stand-in does not handle itself goes to networkx on the very same graph.
- Seeded random tournaments, every round, odd and even counts (the pairing-allocated bye), forfeits,
  absences, the last round's rules: the same draft from both.
- The 300-player reference (tests/pairing/open300/, made by bench/dutch300.py): round 5 the same
  board by board as the engine with networkx paired it (and as bbpPairings does).
"""
from __future__ import annotations

import itertools
import random
from pathlib import Path

import networkx
import pytest
from caissify_pairings.engines.dutch import DutchEngine
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from trfkit import read_pairs, read_trf

from bench import dutch300
from gameclock.organiser.pairing import dutch, matching
from gameclock.organiser.pairing.model import EventState, Game, PairingError, Player

OPEN300 = Path(__file__).parent / "open300"


# -- the engine is the checked one -----------------------------------------------------------------

def test_the_installed_engine_is_the_one_the_fast_matching_was_checked_against():
    assert dutch.unchecked() is None
    fast, how = dutch.engines()
    assert fast is not DutchEngine and issubclass(fast, DutchEngine)
    assert "rustworkx" in how


def test_other_engine_source_is_not_given_the_fast_matching(monkeypatch):
    """A method that imports networkx and is not the checked one: the engine runs as it is."""
    monkeypatch.setitem(dutch.MATCHING_METHODS, "_pair_iterative_mwm", "0" * 64)
    assert dutch.unchecked() == "the engine's _pair_iterative_mwm is not the checked one"
    monkeypatch.setattr(dutch, "CHECKED_VERSIONS", ("0.4.9",))
    assert "not a checked version" in (dutch.unchecked() or "")


def test_a_round_is_matched_by_rustworkx_and_never_by_networkx(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("networkx was called")

    monkeypatch.setattr(networkx, "max_weight_matching", refuse)
    state, _ = tournament(random.Random(7), 24, rounds=5)
    before = dict(matching.CALLS)
    draft = dutch.pair(state, 5, 0)
    assert matching.CALLS["rustworkx"] > before["rustworkx"]
    assert matching.CALLS["networkx"] == before["networkx"]
    assert "rustworkx" in draft.notes[0]


# -- compress: the order of matching sums, exactly ---------------------------------------------------

def packed(rng: random.Random, fields: int) -> list[tuple[int, int]]:
    """Field layouts like the engine's: (shift, width), lowest first, gaps between them."""
    out, at = [], 0
    for _ in range(fields):
        at += rng.choice([0, 1, 3, 8, 20])
        width = rng.choice([1, 1, 2, 4, 9, 16])
        out.append((at, width))
        at += width
    return out


def weight(rng: random.Random, layout: list[tuple[int, int]], borrow: bool) -> int:
    w = 1 << (layout[-1][0] + layout[-1][1] + 1)            # the engine's "valid pair" top bit
    for shift, width in layout:
        if rng.random() < 0.6:
            w += rng.randrange(1 << width) << shift
    if borrow:                                              # `addend -= index`: a borrow through zeros
        w -= rng.randrange(40)
    return w


def best_matchings(n: int, edges: dict[tuple[int, int], int]) -> tuple[int, set[frozenset]]:
    """(the most edges, every matching of that many edges with the greatest sum), by brute force."""
    best: tuple[int, int] = (-1, 0)
    found: set[frozenset] = set()
    keys = list(edges)
    for size in range(n // 2, -1, -1):
        for pick in itertools.combinations(keys, size):
            ends = [v for e in pick for v in e]
            if len(set(ends)) != len(ends):
                continue
            total = sum(edges[e] for e in pick)
            if (size, total) > best:
                best, found = (size, total), set()
            if (size, total) == best:
                found.add(frozenset(pick))
        if best[0] == size:
            return size, found
    return 0, {frozenset()}


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_compress_keeps_the_best_matchings_of_engine_like_weights(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 7)
    layout = packed(rng, rng.randint(1, 14))
    borrow = rng.random() < 0.3
    values = [weight(rng, layout, borrow) for _ in range(rng.randint(1, 5))]   # few values: many ties
    edges = {(u, v): rng.choice(values) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.7}
    if not edges:
        return
    table = matching.compress(edges.values(), n // 2)
    assert table is not None and max(table.values()).bit_length() <= matching.LIMIT_BITS
    assert min(table.values()) >= 1
    assert best_matchings(n, edges) == best_matchings(n, {e: table[w] for e, w in edges.items()})


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_compress_keeps_the_order_of_equal_size_sums(seed):
    """Any two sets of the same size (at most `pairs`) of the weights: the same comparison after."""
    rng = random.Random(seed)
    layout = packed(rng, rng.randint(1, 20))
    values = sorted({weight(rng, layout, rng.random() < 0.3) for _ in range(rng.randint(2, 30))})
    pairs = rng.randint(1, 200)
    table = matching.compress(values, pairs)
    assume(table is not None)     # too many independent fields for 120 bits: refused (test above)
    for _ in range(200):
        k = rng.randint(1, pairs)
        a = [rng.choice(values) for _ in range(k)]
        b = [rng.choice(values) for _ in range(k)]
        a2, b2 = sum(table[x] for x in a), sum(table[x] for x in b)
        assert (sum(a) > sum(b), sum(a) == sum(b)) == (a2 > b2, a2 == b2)


def test_weights_that_do_not_fit_even_compressed_are_refused_not_cut():
    """20 independent fields, each kept with log2(150) bits of room for a matching's sum: more than
    LIMIT_BITS. None (the stand-in then asks networkx), never a weight that loses a field."""
    values = [(1 << 700) | (1 << (30 * i)) for i in range(20)]
    assert matching.compress(values, 150) is None
    assert matching.compress(values[:8], 150) is not None


# -- the stand-in: a best matching; networkx for the rest ----------------------------------------------

def built(calls: list[tuple]) -> tuple[matching.Graph, networkx.Graph]:
    ours, theirs = matching.Graph(), networkx.Graph()
    for call in calls:
        if len(call) == 1:
            ours.add_node(call[0])
            theirs.add_node(call[0])
        else:
            ours.add_edge(call[0], call[1], weight=call[2])
            theirs.add_edge(call[0], call[1], weight=call[2])
    return ours, theirs


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_stand_in_finds_a_best_matching_of_big_weights(seed):
    """As many edges as networkx's matching and the same (original) weight, connected or not."""
    rng = random.Random(seed)
    n = rng.randint(2, 16)
    layout = packed(rng, rng.randint(1, 12))
    values = [weight(rng, layout, rng.random() < 0.3) for _ in range(rng.randint(1, 8))]
    names = rng.sample(range(1000), n)
    calls: list[tuple] = [(v,) for v in names]
    density = rng.choice([0.1, 0.25, 0.5, 0.9])        # sparse: parts of one, two and more players
    calls += [(u, v, rng.choice(values)) for u, v in itertools.combinations(names, 2) if rng.random() < density]
    ours, theirs = built(calls)
    got = matching.max_weight_matching(ours, maxcardinality=True)
    want = networkx.max_weight_matching(theirs, maxcardinality=True)

    def total(m):
        return sum(theirs[u][v]["weight"] for u, v in m)

    assert (len(got), total(got)) == (len(want), total(want))
    assert networkx.is_matching(theirs, got)


@pytest.mark.parametrize("why, calls, kwargs", [
    ("without maxcardinality", [(0, 1, 5), (1, 2, 7)], {"maxcardinality": False}),
    ("weights not positive integers", [(0, 1, 2.5), (1, 2, 7)], {"maxcardinality": True}),
    ("weights not positive integers", [(0, 1, 0), (1, 2, 7), (2, 3, 1)], {"maxcardinality": True}),
    ("a self-loop", [(0, 0, 9), (0, 1, 5), (1, 2, 7)], {"maxcardinality": True}),
    ("an edge added twice", [(0, 1, 5), (1, 2, 7), (1, 0, 9)], {"maxcardinality": True}),
])
def test_what_the_stand_in_does_not_handle_goes_to_networkx_on_the_same_graph(why, calls, kwargs):
    ours, theirs = built(calls)
    before = matching.FALLBACKS.get(why, 0)
    assert matching.max_weight_matching(ours, **kwargs) == networkx.max_weight_matching(theirs, **kwargs)
    assert matching.FALLBACKS[why] == before + 1


def test_the_graph_handed_to_networkx_is_built_in_the_same_order():
    """Nodes as added, an edge's new endpoints when it was added; edges in order, the last weight."""
    calls = [(3,), (9, 4, 2), (1,), (4, 3, 8), (7, 9, 1), (2,)]
    ours, theirs = built(calls)
    again = ours.to_networkx()
    assert list(again.nodes) == list(theirs.nodes) == [3, 9, 4, 1, 7, 2]
    assert list(again.edges(data=True)) == list(theirs.edges(data=True))
    assert ours.vertices() == list(theirs.nodes)


# -- the pairings: the same as the engine's own -------------------------------------------------------

def tournament(rng: random.Random, n: int, rounds: int, upto: int | None = None,
               pair=dutch.pair) -> tuple[EventState, list[Game]]:
    """An event of `n` players (ratings with ties and unrated), rounds 1..upto-1 paired by `pair` and
    played at random (a quarter drawn, 1 in 25 forfeited, 1 in 25 players absent a round)."""
    players = tuple(Player(str(i), f"P{i}", rating=rng.choice([0, 1500, rng.randint(1000, 2400)]))
                    for i in range(1, n + 1))
    games: list[Game] = []
    for rnd in range(1, upto or rounds):
        away = {p.id for p in players if rng.random() < 0.04}
        here = tuple(p for p in players if p.id not in away)
        draft = pair(EventState(here, tuple(games), rounds, {"initial_colour": "white"}), rnd, 0)
        for b in draft.boards:
            if b.right is None:
                games.append(Game(rnd, b.left, None, 1.0))
                continue
            r = rng.random()
            games.append(Game(rnd, b.left, b.right, 0.5 if r < 0.25 else 1.0 if r < 0.62 else 0.0,
                              table=b.table, forfeit=rng.random() < 0.04))
        games += [Game(rnd, pid, None, 0.0) for pid in away]
    return EventState(players, tuple(games), rounds, {"initial_colour": "white"}), games


def outcome(state: EventState, rnd: int, engine_class: type | None):
    try:
        return dutch.pair_with(state, rnd, 0, engine_class).boards
    except PairingError as e:
        return str(e)


@pytest.mark.parametrize("seed", range(24))
def test_fast_and_networkx_pair_every_round_the_same(seed):
    """Each round of a random event (5-36 players, 3-9 rounds, the last round's rules included) paired
    both ways from the same state: the same boards, colours and order (or the same refusal)."""
    rng = random.Random(seed)
    n, rounds = rng.randint(5, 36), rng.randint(3, 9)
    players = tuple(Player(str(i), f"P{i}", rating=rng.choice([0, 1500, rng.randint(1000, 2400)]))
                    for i in range(1, n + 1))
    games: list[Game] = []
    odd = 0
    for rnd in range(1, rounds + 1):
        away = {p.id for p in players if rng.random() < 0.04}
        here = tuple(p for p in players if p.id not in away)
        odd += len(here) % 2
        state = EventState(here, tuple(games), rounds, {"initial_colour": "white"})
        fast, slow = outcome(state, rnd, None), outcome(state, rnd, DutchEngine)
        assert fast == slow, f"round {rnd} of {len(here)}"
        if isinstance(fast, str):
            return
        for b in fast:
            if b.right is None:
                games.append(Game(rnd, b.left, None, 1.0))
                continue
            r = rng.random()
            games.append(Game(rnd, b.left, b.right, 0.5 if r < 0.25 else 1.0 if r < 0.62 else 0.0,
                              table=b.table, forfeit=rng.random() < 0.04))
        games += [Game(rnd, pid, None, 0.0) for pid in away]


# -- the 300-player open ------------------------------------------------------------------------------

def test_the_benchs_reader_reads_the_open_as_an_independent_trf_reader_does():
    text = (OPEN300 / dutch300.TRF).read_text()
    ours, theirs = dutch300.read(text), read_trf(text).state(dutch300.PLAYED + 1)

    def games(s: EventState):
        return sorted(s.games, key=repr)

    assert ours.players == theirs.players and len(ours.players) == dutch300.PLAYERS
    assert games(ours) == games(theirs) and ours.rounds == theirs.rounds == dutch300.ROUNDS
    assert ours.options == theirs.options == {"initial_colour": "white"}
    # what the open has (bench/dutch300.py): forfeits, an absence, and so a pairing-allocated bye
    assert sum(g.forfeit for g in ours.games) == 3
    assert [g.left for g in ours.games if g.right is None and g.left_points == 0.0] == ["150"]
    assert len([g for g in ours.games if g.right is None and g.left_points == 1.0]) == 1


def test_round_5_of_the_300_player_open_is_the_reference_board_by_board():
    t = read_trf((OPEN300 / dutch300.TRF).read_text())
    want = read_pairs((OPEN300 / dutch300.REFERENCE).read_text())
    draft = dutch.pair(t.state(dutch300.PLAYED + 1), dutch300.PLAYED + 1, dutch300.SEED)
    assert len(want) == 150
    assert [(b.left, b.right) for b in draft.boards] == want   # the same boards, colours and order


def test_an_edge_to_a_node_never_added_is_matched_as_networkx_does():
    """The engine's numbering (nodes 0..n-1) with an edge bringing a node of its own: looked through."""
    ours, theirs = built([(0,), (1,), (2,), (0, 1, 5), (2, 7, 9), (1, 7, 4)])
    got = matching.max_weight_matching(ours, maxcardinality=True)
    assert {frozenset(e) for e in got} == {frozenset(e) for e in networkx.max_weight_matching(theirs, maxcardinality=True)}
    assert {frozenset(e) for e in got} == {frozenset((0, 1)), frozenset((2, 7))}   # 2 pairs, 5 + 9
