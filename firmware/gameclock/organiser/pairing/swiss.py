"""A general score-group Swiss (issue 16): rank, give the bye, pair top-down within score groups with
floats, never a repeat pairing while one is avoidable, balance who starts. Pure: no I/O, no clock.

    order = ranking(state)                          # points, then spread, then the entry order
    bye, rest = take_bye(order, state.games)        # XW-9: the lowest-ranked player without a bye
    pairs = pair_brackets(rest, key, opponents(state.games))
    boards = seat(pairs, order, state.games)        # table 1 the top pair, `left` the one who starts

Ranking: game points, then cumulative spread (XW-7: Crossword's "Difference"; 0 in other games), then
the player's place in `EventState.players` (the event's entry order): the same state always gives
the same order.

The bye (XW-9, seed 000 §3.10.5 "ชนะบาย (Bye) ... ชนะบายได้ 100 แต้ม": a bye is a win, +100 spread)
goes to the lowest-ranked player who has not had one; only when every player has had one does a
player get a second (the lowest-ranked of those with the fewest), and the draft's notes say so. The bye
is chosen first and is never moved to avoid a repeat pairing: XW-9 names who gets it.

Pairing (`pair_brackets`): the players in rank order, each with a bracket key (the score group: the
points; XW-10's winners-meet-winners rounds pass (table group, result) instead). The highest player
left is paired first, within its bracket: top half against bottom half (a bracket of 8: 1v5, 2v6,
3v7, 4v8 -- the Swiss of the seeds is "players of the same results meet", and it is not King of the
Hill's 1v2, which seed 000 §2 names as a different system); a bracket with an odd number sends its
lowest player down to the next bracket (a float), where it meets the highest player. When the
first choice would repeat a pairing, the next is tried: the rest of the bottom half in order, then
the top half from the bottom up, then players of the brackets below (a float).

It is a depth-first search over the whole field, not a greedy pass: a choice high up that leaves the
lower brackets no repeat-free pairing is undone, and sets of players that cannot be paired are
remembered (a bitmask of who is left), so a repeat pairing is made only when none can be avoided
-- then as few as possible (the search allows 1, then 2, ... repeats). Why not a maximum-weight
matching on the whole field: networkx is not installed, and Edmonds' blossom algorithm written here
would be ~800 lines to get right; in a Swiss of up to 9 rounds a player has at most 8 former
opponents out of hundreds, so the search almost never steps back (500 players: a few ms, `make
bench`, figure `pair_ms_500`). A node budget (`BUDGET`) bounds pathological cases (small fields
late in an event where repeats cannot be avoided); past it the search allows more repeats, and
the last resort pairs top-down allowing any, which always succeeds. The draft's notes name every
repeat pairing made.

Who starts (`seat`): the player who has started fewer games than they have not (`model.starts`),
else the one who did not start their latest game, else the higher-ranked.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

from gameclock.organiser.pairing.model import (
    Board,
    EventState,
    Game,
    had_bye,
    note,
    points,
    spreads,
    starts,
)

BUDGET = 50_000         # search nodes per repeat allowance before allowing one more
TOTAL_BUDGET = 200_000  # search nodes in all before the last resort


def ranking(state: EventState, games: Iterable[Game] | None = None) -> list[str]:
    """The players' ids, best first: points, spread, entry order (module docstring)."""
    played = list(state.games if games is None else games)
    pts, spr = points(played), spreads(played)
    entry = {p.id: i for i, p in enumerate(state.players)}
    return sorted(entry, key=lambda pid: (-pts.get(pid, 0.0), -spr.get(pid, 0), entry[pid]))


def opponents(games: Iterable[Game]) -> dict[str, set[str]]:
    """Each player's former opponents."""
    out: dict[str, set[str]] = {}
    for g in games:
        if g.right is not None:
            out.setdefault(g.left, set()).add(g.right)
            out.setdefault(g.right, set()).add(g.left)
    return out


def take_bye(order: Sequence[str], games: Iterable[Game]) -> tuple[str | None, list[str], list[str]]:
    """(the bye's player or None when the count is even, the others in order, notes): XW-9."""
    if len(order) % 2 == 0:
        return None, list(order), []
    games = list(games)
    byes = had_bye(games)
    notes: list[str] = []
    without = [p for p in order if p not in byes]
    if without:
        bye = without[-1]
    else:
        count = {p: sum(1 for g in games if g.right is None and g.left == p) for p in order}
        fewest = min(count.values())
        bye = [p for p in order if count[p] == fewest][-1]
        notes.append(note("every player has had a bye: a second one to {player}, the lowest-ranked (XW-9)", player=bye))
    return bye, [p for p in order if p != bye], notes


class _OutOfBudget(Exception):
    pass


class _Search:
    """The depth-first pairer of `pair_brackets` over player indexes 0..n-1 (rank order)."""

    def __init__(self, keys: Sequence[Hashable], forbidden: Sequence[frozenset[int]], budget: int) -> None:
        self.keys = keys
        self.forbidden = forbidden
        self.budget = budget
        self.nodes = 0
        self.failed: set[tuple[int, int]] = set()

    def candidates(self, rest: list[int]) -> list[int]:
        """The partners of rest[0] in order of preference (module docstring)."""
        key = self.keys[rest[0]]
        m = 1
        while m < len(rest) and self.keys[rest[m]] == key:
            m += 1
        if m == 1:                      # alone in its bracket: a float, meets the next highest
            return rest[1:]
        ideal = m // 2                  # top half v bottom half
        return rest[ideal:m] + rest[ideal - 1:0:-1] + rest[m:]

    def run(self, rest: list[int], mask: int, repeats: int, out: list[tuple[int, int]]) -> bool:
        if not rest:
            return True
        if (mask, repeats) in self.failed:
            return False
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        p = rest[0]
        ranked = self.candidates(rest)
        fresh = [q for q in ranked if q not in self.forbidden[p]]
        for q in fresh + ([q for q in ranked if q in self.forbidden[p]] if repeats else []):
            repeat = q in self.forbidden[p]
            out.append((p, q))
            if self.run([x for x in rest[1:] if x != q], mask & ~((1 << p) | (1 << q)),
                         repeats - repeat, out):
                return True
            out.pop()
        self.failed.add((mask, repeats))
        return False


def pair_brackets(order: Sequence[str], key: Mapping[str, Hashable],
                  met: Mapping[str, set[str]], budget: int = BUDGET) -> list[tuple[str, str]]:
    """Pair `order` (an even number of players, best first) within brackets of equal `key`, top-down
    with floats, with the fewest repeat pairings (`met`: former opponents) -- none when none is
    needed. Each pair is (higher-ranked, lower-ranked). Module docstring."""
    if len(order) % 2:
        raise ValueError("pair_brackets needs an even number of players (take the bye first)")
    index = {p: i for i, p in enumerate(order)}
    keys = [key[p] for p in order]
    forbidden = [frozenset(index[o] for o in met.get(p, ()) if o in index) for p in order]
    full = (1 << len(order)) - 1
    everyone = list(range(len(order)))
    spent = 0
    for repeats in range(len(order) // 2 + 1):
        if spent >= TOTAL_BUDGET:
            break
        search = _Search(keys, forbidden, min(budget, TOTAL_BUDGET - spent))
        out: list[tuple[int, int]] = []
        try:
            if search.run(everyone, full, repeats, out):
                return [(order[a], order[b]) for a, b in out]
        except _OutOfBudget:
            pass
        spent += search.nodes
    # the last resort: as many repeats allowed as pairs, so the search never steps back (a top-down
    # pass taking the first partner not met before, else the first)
    out = []
    _Search(keys, forbidden, len(order) + 1).run(everyone, full, len(order) // 2, out)
    return [(order[a], order[b]) for a, b in out]


def repeats_in(pairs: Iterable[tuple[str, str]], met: Mapping[str, set[str]]) -> list[tuple[str, str]]:
    """The pairs that have met before."""
    return [(a, b) for a, b in pairs if b in met.get(a, set())]


def last_started(games: Iterable[Game]) -> dict[str, bool]:
    """For each player, whether they started (were `left` in) their latest game (byes left out)."""
    latest: dict[str, tuple[int, bool]] = {}
    for g in games:
        if g.right is None:
            continue
        for pid, started in ((g.left, True), (g.right, False)):
            if pid not in latest or g.round >= latest[pid][0]:
                latest[pid] = (g.round, started)
    return {pid: started for pid, (_, started) in latest.items()}


class Sides:
    """Who starts, from the games so far: `Sides(order, games).of(a, b)` -> (left, right), balancing
    `starts` (module docstring). The facts are gathered once for a whole round."""

    def __init__(self, order: Sequence[str], games: Iterable[Game]) -> None:
        games = list(games)
        self.balance = starts(games)
        self.last = last_started(games)
        self.rank = {p: i for i, p in enumerate(order)}

    def of(self, a: str, b: str) -> tuple[str, str]:
        sa, sb = self.balance.get(a, 0), self.balance.get(b, 0)
        if sa != sb:
            return (a, b) if sa < sb else (b, a)
        la, lb = self.last.get(a), self.last.get(b)
        if la is not None and lb is not None and la != lb:
            return (b, a) if la else (a, b)
        return (a, b) if self.rank[a] <= self.rank[b] else (b, a)


def seat(pairs: Sequence[tuple[str, str]], order: Sequence[str], games: Iterable[Game],
         bye: str | None = None, stage: str = "qualifying") -> list[Board]:
    """Boards in table order (table 1: the pair with the highest-ranked player), the bye last with
    table 0 (no table, as in pairing files)."""
    side = Sides(order, games)
    ordered = sorted(pairs, key=lambda ab: min(side.rank[ab[0]], side.rank[ab[1]]))
    boards = [Board(table, *side.of(a, b), stage=stage) for table, (a, b) in enumerate(ordered, start=1)]
    if bye is not None:
        boards.append(Board(len(boards) + 1, bye, None, stage=stage, note="bye"))  # after the last table
    return boards


def swiss_boards(state: EventState, games: Iterable[Game] | None = None,
                 stage: str = "qualifying") -> tuple[list[Board], list[str]]:
    """A whole Swiss round of `state`: (boards, notes). Score groups: the points."""
    played = list(state.games if games is None else games)
    order = ranking(state, played)
    bye, rest, notes = take_bye(order, played)
    pts = points(played)
    met = opponents(played)
    pairs = pair_brackets(rest, {p: pts.get(p, 0.0) for p in rest}, met)
    notes += [note("repeat pairing, none avoidable: {a} v {b}", a=a, b=b) for a, b in repeats_in(pairs, met)]
    if bye is not None:
        notes.append(note("bye: {player}, the lowest-ranked without one (XW-9)", player=bye))
    return seat(pairs, order, played, bye, stage), notes
