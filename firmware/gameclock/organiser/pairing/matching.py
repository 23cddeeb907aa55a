"""Maximum-weight matchings for the FIDE Dutch engine, computed by rustworkx (compiled) instead of
networkx (pure Python), with the same answers: `STANDIN` is a module object that stands in for
networkx where caissify-pairings' Dutch engine imports it (organiser/pairing/dutch.py wires it in).

What the engine asks of networkx, and all the stand-in gives: `Graph()`, `G.add_node(v)`,
`G.add_edge(u, v, weight=w)` and `max_weight_matching(G, maxcardinality=True)`: a matching of the
most pairs and, among those, of the greatest total weight, as a set of (u, v) tuples.

Why not hand the weights to rustworkx as they are: its `max_weight_matching` computes in 128-bit
integers, and the engine's weights are bit-packed Python integers of 300-400 bits for a 300-player
round (one field per criterion of C.04.3, highest first, each wide enough that a matching's sum of
it never carries into the next). `compress` maps them to at most `LIMIT_BITS` bits EXACTLY: two
matchings of the same size compare the same way before and after, so the set of best matchings is
the same set (the proof is in its docstring). A ranking of the weights would not do: a matching's
weight is a sum, and sums are not kept by a ranking.

When the best matching is not unique (equal weights: the engine's weights for players far from the
bracket being paired are the same for many pairs), rustworkx and networkx may return different ones
of the best: their tie-breaking is not the same (measured: 29 of 3,000 random graphs with weights
1-10). The engine is built not to act on a tie (dutch.py's docstring says how far that argument
goes), and tests/pairing/test_dutch_fast.py checks the outcome: every round of 24 random events in
the suite (400 more of 4-40 players when this was written) and the 300-player reference pair with
the same boards as with networkx.

Anything this module does not handle exactly -- weights that are not positive integers, a matching
without `maxcardinality`, weights that need more than `LIMIT_BITS` bits even compressed, a self-loop,
an edge added twice -- is handed to networkx itself on a networkx Graph built by the same calls in
the same order (`FALLBACKS` counts those): exact by construction, only slower.
"""
from __future__ import annotations

import types
from collections.abc import Iterable
from fractions import Fraction
from operator import itemgetter
from typing import Any

import rustworkx

# The compressed weights' size: rustworkx computes in signed 128-bit integers, and the blossom
# algorithm's duals and slacks reach a few times the largest weight (2 * dual - 2 * weight), so 7
# bits of headroom are left.
LIMIT_BITS = 120

# How often each path was taken since import (read by tests and the bench; not thread-exact).
CALLS = {"rustworkx": 0, "networkx": 0}
FALLBACKS: dict[str, int] = {}


class Graph:
    """The part of networkx.Graph the engine uses, recorded as it is built (the nodes, the edges in
    the order they were added), so that networkx can be given the very same graph when needed."""
    __slots__ = ("edges", "nodes", "loops")

    def __init__(self) -> None:
        self.nodes: dict[Any, int] = {}      # node -> how many edges had been added before it
        self.edges: list[tuple[Any, Any, Any]] = []     # (u, v, weight), in the order added
        self.loops = False                   # an edge from a node to itself (networkx skips them)

    def add_node(self, v: Any) -> None:
        if v not in self.nodes:
            self.nodes[v] = len(self.edges)

    def add_edge(self, u: Any, v: Any, weight: Any = 1) -> None:
        # The engine adds every node before its edges; an edge's new endpoints are noted only when
        # the graph is handed on (`vertices`), to keep this call, made ~10^4 times a matching, cheap.
        if u == v:
            self.loops = True
        self.edges.append((u, v, weight))

    def vertices(self) -> list[Any]:
        """Every node in networkx's order: as added, an edge's new endpoints when it was added."""
        known = self.nodes
        ends = set(map(itemgetter(0), self.edges)).union(map(itemgetter(1), self.edges))
        if ends.issubset(known):
            return list(known)
        order = dict(known)
        out: dict[Any, None] = {}
        pending = sorted(order.items(), key=itemgetter(1))
        i = 0
        for k, (u, v, _) in enumerate(self.edges):
            while i < len(pending) and pending[i][1] <= k:
                out.setdefault(pending[i][0])
                i += 1
            out.setdefault(u)
            out.setdefault(v)
        for node, _ in pending[i:]:
            out.setdefault(node)
        return list(out)

    def to_networkx(self) -> Any:
        """The same graph as networkx.Graph, built by the same calls in the same order."""
        import networkx
        g = networkx.Graph()
        pending = sorted(self.nodes.items(), key=itemgetter(1))
        i = 0
        for k, (u, v, w) in enumerate(self.edges):
            while i < len(pending) and pending[i][1] <= k:
                g.add_node(pending[i][0])
                i += 1
            g.add_edge(u, v, weight=w)
        for node, _ in pending[i:]:
            g.add_node(node)
        return g


def signed_residue(value: int, bits: int) -> int:
    """`value` modulo 2**bits, taken in [-2**(bits-1), 2**(bits-1))."""
    half = 1 << (bits - 1)
    return ((value + half) & ((1 << bits) - 1)) - half


def cuts(values: list[int], pairs: int) -> list[int]:
    """The bit positions (highest first) where every weight splits into a part above and a part
    below such that the parts below, summed over any two matchings of the same size (at most
    `pairs` edges), differ by less than one unit of the part above (`compress`)."""
    top = max(values).bit_length() + 1
    same = (1 << top) - 1           # bit i set: every value has bit i equal to bit i + 1
    for v in values:
        same &= ~(v ^ (v >> 1))
    out: list[int] = []
    i = 0
    while i < top:                  # a run of equal bits under position p: the place for a cut
        if not same >> i & 1:
            i += 1
            continue
        while i < top and same >> i & 1:
            i += 1
        p = i + 1
        low = [signed_residue(v, p) for v in values]
        if pairs * (max(low) - min(low)) < 1 << p:
            out.append(p)
    return sorted(out, reverse=True)


def digits(value: int, at: list[int]) -> list[int]:
    """`value` as signed digits between the cuts `at` (highest first): value = sum(d_i * 2**at_i)
    with the last digit the units below the lowest cut."""
    out: list[int] = []
    rest = value
    for p in at:
        low = signed_residue(rest, p)
        out.append((rest - low) >> p)
        rest = low
    out.append(rest)
    return out


def affine_key(column: list[int]) -> tuple[int, ...]:
    """The same key for two columns exactly when one is a * other + b (a != 0)."""
    base = column[0]
    diffs = [c - base for c in column]
    g = 0
    for d in diffs:
        g = _gcd(g, d)
    if g == 0:
        return ()
    first = next(d for d in diffs if d)
    g = g if first > 0 else -g
    return tuple(d // g for d in diffs)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def independent(columns: list[list[int]]) -> list[int]:
    """The indexes of the columns (highest priority first) that are not an affine combination of
    the ones before them: exact (rational) elimination, the constant column first."""
    basis: list[tuple[int, list[Fraction]]] = []
    keep: list[int] = []
    width = len(columns[0])
    for k, col in enumerate([[1] * width, *columns]):
        row = [Fraction(x) for x in col]
        for pivot, b in basis:
            if row[pivot]:
                f = row[pivot] / b[pivot]
                row = [x - f * y for x, y in zip(row, b, strict=True)]
        nonzero = next((i for i, x in enumerate(row) if x), None)
        if nonzero is not None:
            basis.append((nonzero, row))
            if k:
                keep.append(k - 1)
    return keep


def compress(weights: Iterable[int], pairs: int, thorough: bool = False) -> dict[int, int] | None:
    """{weight: a positive integer of at most LIMIT_BITS bits} such that for any two matchings M, M'
    with the same number of edges (at most `pairs`), sum over M > sum over M' before exactly when
    after; None when it does not fit. Weights: positive integers.

    Why it is exact. Cut every weight at positions p_1 > ... > p_k (`cuts`): w = sum d_i 2^p_i, the
    residue below a cut p taken signed. A cut is made only where those residues span less than
    2^p / pairs, so over two matchings of equal size their sums differ by less than 2^p: whenever
    the digit sums above the cut differ, they decide. Hence M beats M' exactly when its vector of
    digit sums (sum_M d_1, ..., sum_M d_k) is greater, compared in order. That order is kept when
    (a) a constant is added to a digit (both matchings have the same number of edges), (b) a digit
    that is an affine combination of the digits above it is dropped (it ties whenever they tie),
    and (c) the remaining digits, made non-negative, are laid out again from the lowest up, each
    placed above `pairs` times the largest value of everything below it. Only (c) changes sizes:
    each field keeps its own range plus log2(pairs) bits, instead of the engine's fixed widths.
    `thorough`: drop every affinely dependent digit (exact rational elimination); otherwise only
    those that are an affine image of a single digit above (the common case, and cheap).
    """
    values = sorted(set(weights))
    at = cuts(values, pairs)
    table = [digits(v, at) for v in values]
    columns = [[row[i] for row in table] for i in range(len(at) + 1)]
    if thorough:
        keep = independent(columns)
    else:
        seen: set[tuple[int, ...]] = {()}       # () : a constant column
        keep = []
        for i, col in enumerate(columns):
            key = affine_key(col)
            if key not in seen:
                seen.add(key)
                keep.append(i)
    low = [0] * len(values)
    span = 0                                      # the largest value of the fields laid out so far
    for i in reversed(keep):
        col = columns[i]
        least = min(col)
        shift = (pairs * span).bit_length() if span else 0
        low = [x + ((c - least) << shift) for x, c in zip(low, col, strict=True)]
        span = max(low)
    if (span + 1).bit_length() > LIMIT_BITS:
        return None if thorough else compress(values, pairs, thorough=True)
    return {v: x + 1 for v, x in zip(values, low, strict=True)}


def fallback(G: Any, why: str, maxcardinality: bool, weight: str) -> set[tuple[Any, Any]]:
    """networkx itself, on the same graph."""
    import networkx
    CALLS["networkx"] += 1
    FALLBACKS[why] = FALLBACKS.get(why, 0) + 1
    graph = G.to_networkx() if isinstance(G, Graph) else G
    return set(networkx.max_weight_matching(graph, maxcardinality=maxcardinality, weight=weight))


def rustworkx_graph(G: Graph) -> tuple[Any, list[Any]]:
    """(the graph for rustworkx, its nodes: node i there is nodes[i] here; each node's payload is i)."""
    nodes = list(G.nodes)
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(len(nodes)))
    if nodes == list(range(len(nodes))):            # the engine's own numbering: the edges as they are
        try:
            graph.extend_from_weighted_edge_list(G.edges)
            if graph.num_nodes() == len(nodes):     # else an edge brought a node of its own (below)
                return graph, nodes
        except (TypeError, OverflowError, ValueError):
            pass
    nodes = G.vertices()
    index = {v: i for i, v in enumerate(nodes)}
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(len(nodes)))
    graph.extend_from_weighted_edge_list([(index[u], index[v], w) for u, v, w in G.edges])
    return graph, nodes


def max_weight_matching(G: Any, maxcardinality: bool = False, weight: str = "weight") -> set[tuple[Any, Any]]:
    """networkx.max_weight_matching's answer for the engine's graphs: a best matching of the most
    edges, by rustworkx on `compress`ed weights (networkx itself for anything else)."""
    if not isinstance(G, Graph) or weight != "weight":
        return fallback(G, "not the stand-in's graph", maxcardinality, weight)
    if not maxcardinality:
        return fallback(G, "without maxcardinality", maxcardinality, weight)
    if G.loops:
        return fallback(G, "a self-loop", maxcardinality, weight)
    edges = G.edges
    if not edges:
        return set()
    values = set(map(itemgetter(2), edges))
    if not all(type(w) is int and w > 0 for w in values):
        return fallback(G, "weights not positive integers", maxcardinality, weight)
    graph, nodes = rustworkx_graph(G)
    table = compress(values, len(nodes) // 2)
    if table is None:
        return fallback(G, f"weights over {LIMIT_BITS} bits even compressed", maxcardinality, weight)
    if graph.has_parallel_edges():                  # a pair added twice: networkx keeps the last weight
        return fallback(G, "an edge added twice", maxcardinality, weight)
    CALLS["rustworkx"] += 1
    # A best matching of the most edges is one of each connected part: the engine's late matchings are
    # mostly pairs it has settled (one edge between two players, nothing else), matched here at once,
    # and the blossom algorithm runs on the rest only (half the players on average: twice as fast).
    out: set[tuple[Any, Any]] = set()
    for part in rustworkx.connected_components(graph):
        if len(part) == 1:
            continue
        if len(part) == 2:
            a, b = part
            out.add((nodes[a], nodes[b]))
            continue
        sub = graph.subgraph(sorted(part))          # node payloads: the indexes in `nodes`
        for a, b in rustworkx.max_weight_matching(sub, max_cardinality=True, weight_fn=table.__getitem__):
            out.add((nodes[sub[a]], nodes[sub[b]]))
    return out


STANDIN = types.ModuleType("networkx", "gameclock's stand-in for networkx in the Dutch engine (matching.py)")
STANDIN.Graph = Graph                               # type: ignore[attr-defined]
STANDIN.max_weight_matching = max_weight_matching   # type: ignore[attr-defined]
