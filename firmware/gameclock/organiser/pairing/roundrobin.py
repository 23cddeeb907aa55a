"""Round robins by the FIDE Berger tables (issue 16): Makruk individual (MR-10, "makruk-rr") and team
(MR-11, "makruk-team"); the Makhos groups (makhos.py) use the same tables.

    berger(6, 2)        -> [(6, 4), (5, 3), (1, 2)]     # FIDE Handbook C.05 Annex 1, round 2 of 5 or 6
    draft = SYSTEMS["makruk-rr"](state, 1, seed)

**Berger tables** (FIDE Handbook C.05 Annex 1): for n players (odd n: one more number, the highest, is
a dummy: its opponent has a bye) and round r of n-1, with m = n-1 and the player numbers 1..m in a
circle: table 1 is player n against p, the number with 2p = r+1 (mod m); n has White in even rounds
and Black in odd ones. Table 1+j (j = 1 .. n/2-1) is p+j (White) against p-j (Black), mod m. This
is the published table, not a look-alike: tests/pairing/test_roundrobin.py types the tables for 6
and 8 players by hand and compares.

**Makruk individual** (MR-10, seed 001 §5(2)-(3)): "จัดการแข่งขันแบบพบกันหมด โดยจับสลากประกบคู่แข่งขันสำหรับรอบ
แรก และเรียงสับเปลี่ยนไปจนครบทุกคน และหากนักกีฬาที่มาจากวิทยาเขตเดียวกันจับสลากได้เจอกันในรอบแรก ให้จับสลากใหม่"
(a round robin; the lot pairs round one and the rotation the rest; players of the same campus drawn
against each other in round one: draw again). So the lot gives each player a pairing number (the
players sorted by id, shuffled), and a lot putting two players of one campus (`Player.campus`, "" for
none: kept apart from nobody) on a round-one board is drawn again, as the seed says; every lot that
keeps them apart is equally likely. When no lot can keep them apart (a campus with more than half
the players; odd n: more than (n+1)/2, the bye taking one of them), the lot is made with the fewest
same-campus boards possible (the largest campus first meets the others, its player gets the bye)
and the draft's notes say so: the organiser sees it before publishing. "ในแต่ละรอบ ... ใช้วิธีเสี่ยงหน้า
เหรียญตัดสินการได้สิทธิ์เริ่มเล่น" (§5(3)): who starts each game is a coin toss, not the table's colour.

**Makruk team** (MR-11, seed 001 §5(1), §6): a campus's team is its board 1 and board 2 (no changing
boards during the event). Teams meet in a Berger round robin (the teams' numbers by lot); two teams
meeting play board 1 v board 1, board 2 v board 2, each its own table. Who starts: one coin toss per
team match; the team that wins it starts on board 1 and the other team on board 2 (our decision:
each team starts once, as in team chess). A team without all its boards listed is not a team
(seed 001 §6(1)): left out, a note says so.

**The lot is drawn once** (issue 25; the lot, `model` module doc): the first Pair draws the pairing
numbers (from options["lot_seed"], else the draft's seed) or takes options["order"] (the ids in
pairing-number order: the lot drawn at the venue), and the event keeps them:

    {"seed": lot seed, "by": "lot" | "order", "order": [ids in pairing-number order, null for the dummy]}

Round r > 1 is round r of the Berger table over the kept numbers, whatever seed its draft is given; an
id no longer among the players (a withdrawal) gives its opponents byes. An organiser's fix of round 1
that changes who meets whom is followed (`follow_order`): the fixed pairs take the numbers of the
pairs they replace (the left player the lower number), so round 2 continues from the boards really
published. Who starts (MR-10): options["colours"] "toss" (the default, seed 001 §5(3): a coin toss
each round, drawn from the kept lot's seed and the round, so the same in every draft) or "berger"
(White as the Berger table gives it, FIDE C.05 Annex 1: a player's colours then alternate but for the
rounds the table says otherwise). A system called
without a kept lot but with round one's games (not the event's way) checks that its lot gives their
boards (PairingError otherwise).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from gameclock.organiser.pairing.model import (
    Board,
    EventOver,
    EventState,
    PairingError,
    Player,
    RoundDraft,
    Words,
    follows,
    lot_seed,
    note,
    system,
    words,
)

LOT_TRIES = 100_000   # lots drawn again (seed 001 §5(2)) before the fewest-clashes construction


def rng(seed: int, *what: object) -> random.Random:
    """The random stream of one draw: random.Random seeded with the draft's seed and what is drawn
    ("lot", "toss", the round), so every draw is redone from the stored seed and two draws of one
    draft never share a stream."""
    return random.Random(":".join(str(x) for x in (seed, *what)))


# ------------------------------------------------------------------------------------- Berger tables

def table_size(n: int) -> int:
    """The Berger table used for n players: n, or n+1 for odd n (the highest number a dummy)."""
    if n < 2:
        raise PairingError(f"a round robin needs at least 2 players, not {n}")
    return n + n % 2


def berger(n: int, r: int) -> list[tuple[int, int]]:
    """Round `r` (1-based) of the FIDE Berger table for `n` players: (White, Black) pairing numbers in
    table order (C.05 Annex 1). Odd n: the table for n+1; the pair with n+1 is a bye."""
    size = table_size(n)
    m = size - 1
    if not 1 <= r <= m:
        raise PairingError(f"a round robin of {n} players has rounds 1 to {m}, not {r}")

    def wrap(x: int) -> int:
        return (x - 1) % m + 1

    p = wrap((r + 1) * ((m + 1) // 2))        # 2p = r+1 (mod m): (m+1)/2 is the inverse of 2
    out = [(size, p) if r % 2 == 0 else (p, size)]
    out += [(wrap(p + j), wrap(p - j)) for j in range(1, size // 2)]
    return out


# ------------------------------------------------------------------------------------- the lot

def _campus(p: Player) -> str:
    """The key that keeps players apart in round one: the campus, or the player itself for none."""
    c = " ".join(p.campus.split()).casefold()
    return f"campus:{c}" if c else f"player:{p.id}"


def fewest_clashes(players: Sequence[Player]) -> int:
    """The fewest round-one boards between players of one campus any lot can give (MR-10)."""
    n = len(players)
    biggest = max(Counter(_campus(p) for p in players).values(), default=0)
    if n % 2:                          # the bye goes to one of the biggest campus
        biggest, n = biggest - 1, n - 1
    return max(0, biggest - n // 2)    # the biggest campus's players left over when the others are met, 2 a board


def _round_one(order: Sequence[str | None]) -> list[tuple[str | None, str | None]]:
    """Round one's boards (Berger round 1: k against size+1-k) of a lot."""
    size = len(order)
    return [(order[k], order[size - 1 - k]) for k in range(size // 2)]


def _clashes(order: Sequence[str | None], campus: dict[str, str]) -> int:
    return sum(1 for a, b in _round_one(order) if a is not None and b is not None and campus[a] == campus[b])


def draw_lot(players: Sequence[Player], seed: int, apart: bool = True) -> tuple[list[str | None], list[str]]:
    """MR-10 (seed 001 §5(2)): the players' pairing numbers by lot -> (ids in number order, with None
    for the dummy of an odd count; notes). `apart`: a lot with two players of one campus on a
    round-one board is drawn again (every keeping-apart lot equally likely); when none can keep them
    apart, a lot with the fewest such boards, said in the notes."""
    ids = sorted(p.id for p in players)
    if len(set(ids)) != len(ids):
        raise PairingError("two players with the same id: " + ", ".join(sorted({i for i in ids if ids.count(i) > 1})))
    campus = {p.id: _campus(p) for p in players}
    size = table_size(len(ids))
    r = rng(seed, "lot")
    slots: list[str | None] = [*ids, *([None] * (size - len(ids)))]
    least = fewest_clashes(players) if apart else 0
    notes: list[str] = []
    for _ in range(LOT_TRIES if apart else 1):
        order = slots[:]
        r.shuffle(order)
        if None in order:               # the dummy keeps the highest number
            order.remove(None)
            order.append(None)
        if not apart or _clashes(order, campus) == least:
            break
    else:
        order = _fewest_clash_lot(ids, campus, size, r)
    if apart:
        big = Counter(campus[i] for i in ids).most_common(1)[0]
        if least:
            notes.append(note("MR-10: round one cannot keep every campus apart ({campus} has {n} of {players} players): "
                              "{least} board(s) of one campus, the fewest possible", campus=big[0].split(":", 1)[1],
                              n=big[1], players=len(ids), least=least))
        else:
            notes.append(note("MR-10: round one has no two players of the same campus (seed 001 §5(2))"))
    return order, notes


def _fewest_clash_lot(ids: Sequence[str], campus: dict[str, str], size: int, r: random.Random) -> list[str | None]:
    """A lot with the fewest same-campus round-one boards, built: the biggest campus's players meet
    the others first (its player gets the bye of an odd count); the pairs shuffled onto the tables."""
    left = list(ids)
    r.shuffle(left)
    bye: str | None = None

    def biggest() -> str:
        counts = Counter(campus[i] for i in left)
        top = max(counts.values())
        return next(i for i in left if counts[campus[i]] == top)   # the first in the shuffled order

    if len(left) % 2:
        bye = biggest()
        left.remove(bye)
    pairs: list[tuple[str, str]] = []
    while left:
        a = biggest()
        left.remove(a)
        b = next((i for i in left if campus[i] != campus[a]), left[0])
        left.remove(b)
        pairs.append((a, b) if r.random() < 0.5 else (b, a))
    r.shuffle(pairs)
    order: list[str | None] = [None] * size
    tables = berger(size, 1)
    first = 0
    if bye is not None:                  # table 1: player 1 against the dummy
        order[tables[0][0] - 1] = bye
        first = 1
    for (a, b), (x, y) in zip(pairs, tables[first:], strict=True):
        order[x - 1], order[y - 1] = a, b
    return order


def event_order(state: EventState, seed: int, entrants: Sequence[Player],
                apart: bool) -> tuple[dict[str, Any], list[str]]:
    """The event's pairing numbers as a lot to keep (module doc): the kept lot when the state has one,
    else options["order"] as given, else the lot drawn from options["lot_seed"] (default `seed`)."""
    if state.lot is not None:
        lot = dict(state.lot)
        kept = lot.get("order")
        if not isinstance(kept, list) or not all(i is None or isinstance(i, str) for i in kept):
            raise PairingError("the event's kept lot has no pairing numbers")
        return lot, [note("pairing numbers of the lot drawn for round 1 (lot seed {seed}), kept: {numbers}",
                          seed=lot_seed(lot), numbers=", ".join(f"{k} {i}" for k, i in enumerate(kept, 1) if i is not None))]
    given = state.options.get("order")
    seed_of_lot = state.options.get("lot_seed", seed)
    if isinstance(seed_of_lot, bool) or not isinstance(seed_of_lot, int):
        raise PairingError(f"option 'lot_seed' must be a whole number, not {seed_of_lot!r}")
    if given is not None:
        if not isinstance(given, list | tuple) or not all(isinstance(i, str) or i is None for i in given):
            raise PairingError("option 'order' must list the ids in pairing-number order")
        known = {p.id for p in entrants}
        missing = sorted(known - {i for i in given if i is not None})
        if missing:
            raise PairingError(f"option 'order' does not number {', '.join(missing)}")
        order: list[str | None] = [i if i in known else None for i in given]
        order += [None] * (table_size(len(order)) - len(order))
        notes: list[str] = [note("pairing numbers as given (option 'order'; an id not among the players: its opponents have a bye)")]
        by = "order"
    else:
        order, notes = draw_lot(entrants, seed_of_lot, apart)
        notes.insert(0, note("pairing numbers by lot (lot seed {seed}): {numbers}", seed=seed_of_lot,
                             numbers=", ".join(f"{k} {i}" for k, i in enumerate(order, 1) if i is not None)))
        by = "lot"
    return {"seed": seed_of_lot, "by": by, "order": order}, notes


def active_order(order: Sequence[str | None], players: Sequence[Player]) -> list[str | None]:
    """The kept pairing numbers with the players no longer in the event (withdrawn) as nobody."""
    here = {p.id for p in players}
    return [i if i in here else None for i in order]


def follow_order(order: Sequence[str | None], pairs: Sequence[tuple[str, str]],
                 byes: Sequence[str]) -> list[str | None]:
    """Pairing numbers made to agree with round one as fixed (`pairs` in table order, `byes`): a pair
    of round one (Berger: numbers k and size+1-k) still on a board keeps its numbers, a bye still a
    bye keeps its; the new pairs take the numbers left, in table order, the left player the lower.
    PairingError when the fixed round cannot be round one of the table (a bye where it has none)."""
    size = table_size(len(order))
    old = list(order) + [None] * (size - len(order))
    new = list(old)
    wanted = {frozenset(p): p for p in pairs}
    alone = set(byes)
    free_pairs: list[int] = []
    free_byes: list[int] = []
    for k in range(size // 2):
        a, b = old[k], old[size - 1 - k]
        if a is not None and b is not None:
            if frozenset((a, b)) in wanted:
                del wanted[frozenset((a, b))]
            else:
                free_pairs.append(k)
                new[k] = new[size - 1 - k] = None
        elif a is not None or b is not None:
            if (a or b) in alone:
                alone.discard(a or b)
            else:
                free_byes.append(k)
                new[k if a is not None else size - 1 - k] = None
    rest = [p for p in pairs if frozenset(p) in wanted]
    if len(rest) != len(free_pairs) or len(alone) != len(free_byes):
        raise PairingError("round 1 as fixed is not a round of the Berger table: a bye only where the lot has one "
                           "(an odd count, a withdrawal), every other player at a board")
    for k, (left, right) in zip(free_pairs, rest, strict=True):
        new[k], new[size - 1 - k] = left, right
    for k, pid in zip(free_byes, sorted(alone), strict=True):
        if old[k] is not None:
            new[k] = pid
        else:
            new[size - 1 - k] = pid
    return new


def _round_one_of(boards: Sequence[Board], key: Mapping[str, str] | None = None) -> tuple[
        list[tuple[str, str]], list[str]]:
    """(pairs in table order, byes) of a round's boards, each table once; players mapped by `key`
    (a team's board to its team) when given."""
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    seen: set[int] = set()
    for b in sorted(boards, key=lambda b: (b.table, b.game)):
        if b.table in seen:
            continue
        seen.add(b.table)
        left = key[b.left] if key else b.left
        if b.right is None:
            if left not in byes:
                byes.append(left)
            continue
        right = key[b.right] if key else b.right
        if frozenset((left, right)) not in {frozenset(p) for p in pairs}:
            pairs.append((left, right))
    return pairs, byes


def check_round_one(order: Sequence[str | None], played: set[frozenset[str]], what: str) -> None:
    """PairingError when round one's played boards are not the lot's (another lot seed)."""
    if not played:
        return
    drawn = {frozenset((a, b)) for a, b in _round_one(order) if a is not None and b is not None}
    if not played <= drawn:
        raise PairingError(f"{what}: round one was not played as this lot pairs it: give the event's lot as "
                           "option 'lot_seed' (round one's seed) or 'order'")


def round_of(order: Sequence[str | None], r: int) -> tuple[list[tuple[str, str]], list[str]]:
    """Round `r` of the Berger table over `order` (ids in pairing-number order, None: no one) ->
    ((White, Black) in table order, the players with a bye). An odd `order` gets its dummy (the bye)
    as the highest number, as `table_size` says."""
    order = list(order) + [None] * (table_size(len(order)) - len(order))
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    for white, black in berger(len(order), r):
        a, b = order[white - 1], order[black - 1]
        if a is not None and b is not None:
            pairs.append((a, b))
            continue
        bye = a if a is not None else b
        if bye is not None:
            byes.append(bye)
    return pairs, byes


# ------------------------------------------------------------------------------------- Makruk individual

def colours_of(state: EventState) -> str:
    """options["colours"]: "toss" (default, seed 001 §5(3)) or "berger" (the table's)."""
    how = state.options.get("colours", "toss")
    if how not in ("toss", "berger"):
        raise PairingError(f"option 'colours' is toss or berger, not {how!r}")
    return str(how)


def berger_words(round_no: int, rounds: int, lot: Mapping[str, Any], drew: bool) -> Words:
    """What a round robin's draft continues, in words: the lot drawn now, or round r of the table."""
    if drew and lot.get("by") == "order":
        return words("round 1 of {rounds} of the Berger table: pairing numbers as given (option 'order'), kept for "
                     "every later round", rounds=rounds)
    if drew:
        return words("round 1 of {rounds} of the Berger table: pairing numbers drawn by lot (lot seed {seed}), kept "
                     "for every later round once round 1 is published; a Redraw draws them again until then",
                     rounds=rounds, seed=lot_seed(lot))
    return words("round {round} of {rounds} of the Berger table, from the pairing numbers of round 1 (lot seed {seed})",
                 round=round_no, rounds=rounds, seed=lot_seed(lot))


def over_after(round_no: int, rounds: int, what: str) -> None:
    """EventOver once every round of the table is played; PairingError for a round out of range."""
    if round_no == rounds + 1:
        raise EventOver(words("the {what} is over: all {rounds} rounds of the Berger table are published",
                              what=words(what), rounds=rounds))
    if not 1 <= round_no <= rounds:
        raise PairingError(f"the {what} has rounds 1 to {rounds}, not {round_no}")


@system("makruk-rr")
def makruk_rr(state: EventState, round_no: int, seed: int) -> RoundDraft:
    """MR-10 (seed 001 §5): round `round_no` of the Makruk round robin over the event's kept lot."""
    lot, notes = event_order(state, seed, state.players, apart=True)
    order = active_order(lot["order"], state.players)
    if state.lot is None:
        check_round_one(order, {frozenset((g.left, g.right)) for g in state.games
                                if g.round == 1 and g.right is not None}, "makruk-rr")
    rounds = table_size(len(order)) - 1
    over_after(round_no, rounds, "round robin")
    how = colours_of(state)
    toss = rng(lot_seed(lot), "toss", round_no)
    boards: list[Board] = []
    pairs, byes = round_of(order, round_no)
    for a, b in pairs:
        if how == "toss" and toss.random() < 0.5:      # seed 001 §5(3): the coin decides who starts
            a, b = b, a
        boards.append(Board(table=len(boards) + 1, left=a, right=b))
    boards += [Board(table=len(boards) + 1, left=p, right=None, note="bye") for p in byes]
    notes.append(note("who starts each game: a coin toss (seed 001 §5(3))" if how == "toss" else
                      "who starts each game: White of the Berger table (option colours=berger)"))
    return RoundDraft(round=round_no, system="makruk-rr", seed=seed, boards=tuple(boards), notes=tuple(notes),
                      lot=lot, words=(berger_words(round_no, rounds, lot, state.lot is None),))


@follows("makruk-rr")
def follow_rr(state: EventState, lot: Mapping[str, Any], boards: Sequence[Board]) -> Mapping[str, Any]:
    """MR-10: the pairing numbers made to agree with round 1 as the organiser fixed it (`follow_order`)."""
    pairs, byes = _round_one_of(boards)
    return {**lot, "by": "lot fixed by the organiser", "order": follow_order(lot["order"], pairs, byes)}


# ------------------------------------------------------------------------------------- Makruk team

def teams_of(players: Sequence[Player], boards: int) -> tuple[dict[str, dict[int, str]], list[str]]:
    """MR-11: team -> {board: player id} of the complete teams; notes on the others."""
    teams: dict[str, dict[int, str]] = {}
    notes: list[str] = []
    for p in sorted(players, key=lambda p: p.id):
        if not p.team:
            notes.append(note("MR-11: {player} is in no team: not paired", player=p.id))
            continue
        if not 1 <= p.board <= boards:
            raise PairingError(f"team {p.team}: {p.id} is on board {p.board}, not 1 to {boards}")
        seat = teams.setdefault(p.team, {})
        if p.board in seat:
            raise PairingError(f"team {p.team}: board {p.board} is both {seat[p.board]} and {p.id}")
        seat[p.board] = p.id
    for t in sorted(teams):
        if len(teams[t]) < boards:
            notes.append(note("MR-11: team {team} has {n} of {boards} boards: not a team (seed 001 §6(1))", team=t,
                              n=len(teams[t]), boards=boards))
            del teams[t]
    return teams, notes


@system("makruk-team")
def makruk_team(state: EventState, round_no: int, seed: int) -> RoundDraft:
    """MR-11 (seed 001 §6): round `round_no` of the team round robin, board by board."""
    nboards = _boards_option(state)
    teams, notes = teams_of(state.players, nboards)
    entrants = [Player(id=t, name=t) for t in teams]
    lot, lot_notes = event_order(state, seed, entrants, apart=False)
    notes += lot_notes
    order = [t if t in teams else None for t in lot["order"]]
    team_of = {pid: t for t, seat in teams.items() for pid in seat.values()}
    if state.lot is None:
        check_round_one(order, {frozenset((team_of[g.left], team_of[g.right])) for g in state.games
                                if g.round == 1 and g.right in team_of and g.left in team_of}, "makruk-team")
    rounds = table_size(len(order)) - 1
    over_after(round_no, rounds, "team round robin")
    toss = rng(lot_seed(lot), "toss", round_no)
    boards: list[Board] = []
    pairs, byes = round_of(order, round_no)
    for a, b in pairs:
        if toss.random() < 0.5:                     # the toss's winner starts on board 1
            a, b = b, a
        for k in range(1, nboards + 1):
            left, right = (a, b) if k % 2 else (b, a)
            boards.append(Board(table=len(boards) + 1, left=teams[left][k], right=teams[right][k],
                                note=f"{a} v {b}, board {k}"))
    for t in byes:
        for k in range(1, nboards + 1):
            boards.append(Board(table=len(boards) + 1, left=teams[t][k], right=None, note=f"bye (team {t})"))
    notes.append(note("each team match: a coin toss; its winner starts on board 1, the other team on board 2 "
                      "(seed 001 §5(3); our decision for the boards)"))
    return RoundDraft(round=round_no, system="makruk-team", seed=seed, boards=tuple(boards), notes=tuple(notes),
                      lot=lot, words=(berger_words(round_no, rounds, lot, state.lot is None),))


def _boards_option(state: EventState) -> int:
    nboards = state.options.get("boards", 2)
    if isinstance(nboards, bool) or not isinstance(nboards, int) or nboards < 1:
        raise PairingError(f"option 'boards' must be a whole number from 1, not {nboards!r}")
    return nboards


@follows("makruk-team")
def follow_teams(state: EventState, lot: Mapping[str, Any], boards: Sequence[Board]) -> Mapping[str, Any]:
    """MR-11: the teams' numbers made to agree with round 1 as fixed; a fix that splits a team match
    (board 1 against one team, board 2 against another) is refused."""
    teams, _ = teams_of(state.players, _boards_option(state))
    team_of = {pid: t for t, seat in teams.items() for pid in seat.values()}
    unknown = sorted({p for b in boards for p in (b.left, b.right) if p is not None and p not in team_of})
    if unknown:
        raise PairingError(f"MR-11: {', '.join(unknown)} in no team of the round")
    meets: dict[str, set[str | None]] = {}
    for b in boards:
        a, c = team_of[b.left], (team_of[b.right] if b.right is not None else None)
        meets.setdefault(a, set()).add(c)
        if c is not None:
            meets.setdefault(c, set()).add(a)
    split = sorted(t for t, other in meets.items() if len(other) > 1)
    if split:
        raise PairingError(f"MR-11: team {split[0]} would meet more than one team in round 1: a team match "
                           "is board 1 against board 1, board 2 against board 2 of the same two teams")
    pairs, byes = _round_one_of(boards, {**team_of})
    return {**lot, "by": "lot fixed by the organiser", "order": follow_order(lot["order"], pairs, byes)}
