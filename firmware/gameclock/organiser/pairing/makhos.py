"""Makhos pairings (issue 16): MH-7's qualifying groups ("makhos-groups") and MH-8's knockout from the
semi-final ("makhos-ko", seed 004 §3.9.2; "makhos-ko-003", seed 003's Makhos note).

**Groups** (MH-7, seed 004 §3.9.1: "Match ละ 4 กระจาด ให้แบ่งออกเป็นสายการแข่งขันหรือเป็นกลุ่ม", matches of 4
games, the players split into groups). When every player has a `group`, those are the groups;
otherwise the lot splits them into options["groups"] groups (default 1): the ids sorted, shuffled
from the lot seed (options["lot_seed"], default the draft's seed) and dealt in turn, so group sizes
differ by at most one (groups drawn at the venue: the list's `group` column). Each group is a Berger round robin (roundrobin.py), its
pairing numbers by the same lot; round r pairs round r of every group. The lot is drawn once, by the
first Pair, and kept by the event (issue 25; `model` module doc):

    {"seed": lot seed, "by": "lot" | "list", "groups": {"A": [ids in pairing-number order], ...}}

so round r > 1 is round r of the same groups' tables whatever its draft's seed (a withdrawn player's
opponents have a bye); an organiser's fix of round 1 within a group is followed (`follow_groups`),
one across groups is refused. A match is 4 boards on one table, games 1 to 4: who starts game 1 is a
coin toss (drawn from the kept lot's seed, the round and the pair), and the starter alternates game by
game (seed 004 §3.4.1 "ผู้ชนะการเสี่ยงทายเป็นผู้เดินก่อนและผลัดกันเดินก่อนในกระดานต่อไป"). A group's odd
player out has a bye (a board without an opponent; byes score nothing, MH-7).

Tie-break games (MH-7 ค.(3): "ให้นักกีฬาแข่งขันใหม่อีก 4 กระจาด ... ฝ่ายละ 20 นาที", 4 more games at 20:00 per
side) are the committee's choice among the ways it may decide a tie, so they are paired only when the
organiser says so: options["tiebreak"], a list of the tied players' lists (every two of a list play
4 games; "W-X,Y-Z" on the command line), in a round after the round robins; a pair that has played
its tie-break games is not paired again. Their game numbers run on from the match (5 to 8, as the
clock's menu numbers them), the board's preset is makhos-tiebreak-20 (the clock runs 20:00 a side)
and the note says tie-break and 20:00.

**Knockout, seed 004** (MH-8, §3.9.2, "makhos-ko"; the bracket is knockout.py's): 6 games, the
starter alternating from a coin toss. Tied on game points (2/1/0): 4 more games taking turns "giving
the draw" ("ผลัดกันต่อเสมอเป็นแพ้": a draw is a loss for its giver); before them a coin toss, whose winner
"chooses to start or to let the opponent start" (ผู้ที่เสี่ยงทายชนะสามารถใช้สิทธิ์เลือกเดินก่อน หรือ ให้คู่แข่งขัน
เดินก่อน). Our reading: in a draw-giving game the player who starts gives the draw (the first move's
advantage is what is given), so the toss winner's choice is who gives first; we pair the toss's
winner to start and give, and options["gives_first"] ({"A v B": id}) records another choice. Still
tied: 4 more such games at 20:00 per side, the turns running on. Still tied: less total time used
wins -- over all the match's games, as organiser/standings/makhos.py reports it ("RULES.md MH-8: less
total time used"); equal times (the seed is silent): a lot. Game numbers run on 1..14, the note says
the part, and games 11-14 carry the preset makhos-tiebreak-20 (the clock runs 20:00 a side; MH-4's
reductions are for the match games' clock, this is the seed's own 20:00). options["gives_first"]: the
id of the player who gives first in their match (or a list of them, or {"A v B": id}).

**Knockout, seed 003** ("makhos-ko-003", its Makhos note): 2 games; tied, a third; still tied, lots.
The final plays on one game at a time until one player leads, up to 6 games, then lots. The colours
(seed 003 Makhos §1.1): the first game's by lot (a coin toss here), then swapped every game.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameclock.organiser.pairing.knockout import Decided, MatchSoFar, Next, Outcome, knockout_system
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
from gameclock.organiser.pairing.roundrobin import (
    _round_one_of,
    follow_order,
    rng,
    round_of,
    table_size,
)
from gameclock.organiser.standings.boardgames import clock_time
from gameclock.organiser.standings.makhos import KNOCKOUT_GAMES

MATCH_GAMES = 4                        # MH-7: a qualifying match is 4 games
TIEBREAK_GAMES = 4                     # MH-7 ค.(3): 4 more games at 20:00
KO_GAMES, GIVING_GAMES, TIMED_GAMES = 6, 4, 4   # MH-8, seed 004 §3.9.2
TIEBREAK_PRESET = "makhos-tiebreak-20"          # rules/makhos-tiebreak-20.toml: 20:00 a side (MH-7 ค.(3), MH-8)
assert KO_GAMES + GIVING_GAMES + TIMED_GAMES == KNOCKOUT_GAMES, "MH-8 as the standings read it"


def _letter(k: int) -> str:
    return chr(ord("A") + k) if k < 26 else f"G{k + 1}"


def draw_groups(state: EventState, seed: int) -> tuple[dict[str, Any], list[str]]:
    """MH-7: the groups drawn for round 1 (module doc) as the lot to keep; notes saying how."""
    seed_of_lot = state.options.get("lot_seed", seed)
    if isinstance(seed_of_lot, bool) or not isinstance(seed_of_lot, int):
        raise PairingError(f"option 'lot_seed' must be a whole number, not {seed_of_lot!r}")
    players = sorted(state.players, key=lambda p: p.id)
    if any(p.group for p in players):
        unplaced = [p.id for p in players if not p.group]
        if unplaced:
            raise PairingError(f"some players have a group and some not: {', '.join(unplaced)} in none")
        groups: dict[str, list[str]] = {}
        for p in players:
            groups.setdefault(p.group, []).append(p.id)
        for name, ids in groups.items():
            rng(seed_of_lot, "group", name).shuffle(ids)
        notes: list[str] = [note("groups as given; pairing numbers by lot (lot seed {seed})", seed=seed_of_lot)]
        by = "list"
    else:
        count = state.options.get("groups", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= max(1, len(players) // 2):
            raise PairingError(f"option 'groups' must be a whole number from 1 to {max(1, len(players) // 2)} "
                               f"(groups of 2 or more), not {count!r}")
        ids = [p.id for p in players]
        rng(seed_of_lot, "groups").shuffle(ids)
        notes = [note("{n} group(s) by lot (lot seed {seed}), dealt in turn", n=count, seed=seed_of_lot)]
        by = "lot"
        groups = {_letter(k): ids[k::count] for k in range(count)}
    for name in sorted(groups):
        if len(groups[name]) < 2:
            raise PairingError(f"group {name} has {len(groups[name])} player: a group needs 2 or more")
    return {"seed": seed_of_lot, "by": by, "groups": dict(sorted(groups.items()))}, notes


def _kept_groups(lot: Mapping[str, Any]) -> dict[str, list[str]]:
    groups = lot.get("groups")
    if (not isinstance(groups, Mapping) or not groups
            or not all(isinstance(v, list) and all(isinstance(i, str) for i in v) for v in groups.values())):
        raise PairingError("the event's kept lot has no groups")
    return {str(k): list(v) for k, v in groups.items()}


def _match_boards(table: int, a: str, b: str, seed: int, what: str, first_game: int, count: int,
                  note: Words, preset: str | None = None) -> list[Board]:
    """`count` games of a match on `table`: a coin toss (the lot seed, `what`, the pair) for who starts
    the first, then alternating."""
    starts_a = rng(seed, "toss", what, a, b).random() < 0.5
    boards = []
    for k in range(count):
        left, right = (a, b) if starts_a == (k % 2 == 0) else (b, a)
        said = words("{what}, game {game} of {games}", what=note, game=k + 1, games=count)
        boards.append(Board(table=table, left=left, right=right, game=first_game + k, note=str(said), words=said,
                            preset=preset))
    return boards


@system("makhos-groups")
def makhos_groups(state: EventState, round_no: int, seed: int) -> RoundDraft:
    """MH-7 (seed 004 §3.9.1): round `round_no` of every group's round robin of 4-game matches; after
    the round robins, the tie-break games the organiser orders (options["tiebreak"])."""
    lot, notes = (draw_groups(state, seed) if state.lot is None else
                  (dict(state.lot), [note("groups of the lot drawn for round 1 (lot seed {seed}), kept",
                                          seed=lot_seed(state.lot))]))
    groups = _kept_groups(lot)
    notes += [note("group {group}: {numbers}", group=name, numbers=", ".join(f"{k} {i}" for k, i in enumerate(ids, 1)))
              for name, ids in groups.items()]
    here = {p.id for p in state.players}
    seed_of_lot = lot_seed(lot)
    rounds = max(table_size(len(ids)) - 1 for ids in groups.values())
    boards: list[Board] = []
    table = 0
    if round_no < 1:
        raise PairingError(f"rounds start at 1, not {round_no}")
    if round_no <= rounds:
        for name, ids in groups.items():
            own = table_size(len(ids)) - 1
            if round_no > own:
                notes.append(note("group {group}: its round robin is over ({rounds} rounds)", group=name, rounds=own))
                continue
            pairs, byes = round_of([i if i in here else None for i in ids], round_no)
            for a, b in pairs:
                table += 1
                boards += _match_boards(table, a, b, seed_of_lot, f"round {round_no}", 1, MATCH_GAMES,
                                        words("group {group}, round {round} of {rounds}", group=name, round=round_no,
                                              rounds=own))
            for p in byes:
                table += 1
                boards.append(Board(table=table, left=p, right=None, note=f"group {name}: bye"))
        notes.append(note("a match is 4 games on one table; a coin toss for who starts game 1, then the starter "
                          "alternates (MH-7, seed 004 §3.4.1, §3.9.1)"))
        said = (words("round 1 of {rounds} of each group's Berger table: the groups and pairing numbers drawn by lot "
                      "(lot seed {seed}), kept for every later round once round 1 is published; a Redraw draws them "
                      "again until then", rounds=rounds, seed=seed_of_lot)
                if state.lot is None else
                words("round {round} of {rounds} of each group's Berger table, from the groups drawn for round 1 "
                      "(lot seed {seed})", round=round_no, rounds=rounds, seed=seed_of_lot))
        return RoundDraft(round=round_no, system="makhos-groups", seed=seed, boards=tuple(boards), notes=tuple(notes),
                          lot=lot, words=(said,))
    tied = state.options.get("tiebreak")
    if not tied:
        raise EventOver(words("the groups' round robins are over ({rounds} round(s)); tie-break games are played only "
                              "when the committee orders them (option 'tiebreak': the tied players' lists)", rounds=rounds))
    everyone = {p.id for p in state.players}
    if not isinstance(tied, list | tuple) or not all(isinstance(t, list | tuple) and len(t) >= 2 for t in tied):
        raise PairingError("option 'tiebreak' must list lists of 2 or more tied players' ids")
    done = {frozenset((g.left, g.right)) for g in state.games if g.right is not None and g.game > MATCH_GAMES}
    for players in tied:
        unknown = [str(p) for p in players if p not in everyone]
        if unknown:
            raise PairingError(f"option 'tiebreak': not players of the event: {', '.join(unknown)}")
        ids = sorted(str(p) for p in players)
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                if frozenset((a, b)) in done:
                    continue
                table += 1
                boards += _match_boards(table, a, b, seed_of_lot, f"tiebreak {sorted((a, b))}", MATCH_GAMES + 1,
                                        TIEBREAK_GAMES, words("tie-break at 20:00 (MH-7 ค.(3), preset {preset})",
                                                              preset=TIEBREAK_PRESET), TIEBREAK_PRESET)
    if not boards:
        raise EventOver(words("the groups' round robins ({rounds} round(s)) and the tie-break games ordered are over",
                              rounds=rounds))
    notes.append(note("tie-break games: 4 at 20:00 per side, ordered by the committee; if still tied, less time used "
                      "in them wins (MH-7 ค.(3))"))
    return RoundDraft(round=round_no, system="makhos-groups", seed=seed, boards=tuple(boards), notes=tuple(notes),
                      lot=lot, words=(words("the tie-break games the committee ordered (option 'tiebreak'), after the "
                                            "{rounds} round(s) of the groups' Berger tables", rounds=rounds),))


@follows("makhos-groups")
def follow_groups(state: EventState, lot: Mapping[str, Any], boards: Sequence[Board]) -> Mapping[str, Any]:
    """MH-7: each group's pairing numbers made to agree with round 1 as the organiser fixed it; a
    board between two groups is refused (a group plays its own round robin)."""
    groups = _kept_groups(lot)
    group_of = {pid: name for name, ids in groups.items() for pid in ids}
    pairs, byes = _round_one_of(boards)
    for a, b in pairs:
        if group_of.get(a) != group_of.get(b):
            raise PairingError(f"MH-7: {a} (group {group_of.get(a)}) and {b} (group {group_of.get(b)}) are in "
                               "different groups: a group plays its own round robin")
    return {**lot, "groups": {name: follow_order(ids, [p for p in pairs if group_of[p[0]] == name],
                                                 [p for p in byes if group_of.get(p) == name])
                              for name, ids in groups.items()}}


# ------------------------------------------------------------------------------------- MH-8 knockout

def mh8(m: MatchSoFar) -> Outcome:
    """MH-8 (seed 004 §3.9.2): 6 games; 4 draw-giving; 4 draw-giving at 20:00; less total time used."""
    games = m.games[:KNOCKOUT_GAMES]
    n = len(games)
    giving = {id(g) for g in games[KO_GAMES:]}

    def giver(g: Game) -> str | None:       # the starter gives the draw (our reading, module doc)
        return g.left if id(g) in giving else None

    if n == 0:
        return m.toss(1, words("game {game} of {games}", game=1, games=KO_GAMES))
    if n < KO_GAMES:
        return m.swapped(words("game {game} of {games}", game=n + 1, games=KO_GAMES))
    if n in (KO_GAMES, KO_GAMES + GIVING_GAMES, KNOCKOUT_GAMES):
        won = m.decided_by_points(games, giver)
        if won:
            return won
    if n == KO_GAMES:                         # the coin toss before the draw-giving games
        chosen = _gives_first(m)
        if chosen is not None:
            left = chosen
            how = words("{left} gives first (option 'gives_first')", left=left)
        else:
            toss = m.toss(n + 1, words(""))
            left = toss.left
            how = words("{left} won the coin toss and gives first (else say so in option 'gives_first')", left=left)
        right = m.b if left == m.a else m.a
        return Next(n + 1, left, right, words(
            "tied {score} after {games}: draw-giving game {k} of {of}, {left} starts and gives the draw (a draw is "
            "{left}'s loss, MH-8); {how}", score=m.score(games), games=KO_GAMES, k=1, of=GIVING_GAMES, left=left,
            how=how))
    last = games[-1]
    if n < KO_GAMES + GIVING_GAMES:
        return m.swapped(words("draw-giving game {k} of {of}, {left} starts and gives the draw (MH-8)",
                               k=n - KO_GAMES + 1, of=GIVING_GAMES, left=str(last.right)))
    if n < KNOCKOUT_GAMES:
        k = n - KO_GAMES - GIVING_GAMES + 1
        part = words("20:00 draw-giving game {k} of {of}, {left} starts and gives the draw (MH-8: 20:00 per side, "
                     "preset {preset})", k=k, of=TIMED_GAMES, left=str(last.right), preset=TIEBREAK_PRESET)
        if k == 1:
            part = words("tied {score} after {games}: {part}", score=m.score(games, giver), games=n, part=part)
        return m.swapped(part, TIEBREAK_PRESET)
    ta = sum(g.left_time_ms if g.left == m.a else g.right_time_ms for g in games)
    tb = sum(g.left_time_ms if g.left == m.b else g.right_time_ms for g in games)
    why = note("tied {score} after {n} games; total time used {a} {ta}, {b} {tb}", score=m.score(games, giver),
               n=KNOCKOUT_GAMES, a=m.a, ta=clock_time(ta), b=m.b, tb=clock_time(tb))
    if ta == tb:
        return m.lot(note("{why}: equal (the seed is silent)", why=why))
    return Decided(m.a if ta < tb else m.b, "time", note("{why} (MH-8: less total time used)", why=why))


def _gives_first(m: MatchSoFar) -> str | None:
    """options["gives_first"]: who of this match gives the draw first: {"A v B": id}, an id, or ids."""
    chosen = m.options.get("gives_first", {})
    if isinstance(chosen, str):
        chosen = [chosen]
    if isinstance(chosen, list | tuple):
        named = [p for p in (m.a, m.b) if p in chosen]
        if len(named) == 2:
            raise PairingError(f"option 'gives_first' names both {m.a} and {m.b}")
        return named[0] if named else None
    if not isinstance(chosen, Mapping):
        raise PairingError("option 'gives_first' must name who gives the draw first: an id, ids, or 'A v B': id")
    for key in (f"{m.a} v {m.b}", f"{m.b} v {m.a}"):
        if key in chosen:
            if chosen[key] not in (m.a, m.b):
                raise PairingError(f"option 'gives_first': {key}: {chosen[key]!r} is not one of them")
            return str(chosen[key])
    return None


def mh8_003(m: MatchSoFar) -> Outcome:
    """Seed 003's Makhos note: 2 games; a third if tied; then lots. The final: up to 6, then lots."""
    n = len(m.games)
    if n == 0:
        return m.toss(1, words("game {game} of {games}", game=1, games=2))
    if n == 1:
        return m.swapped(words("game {game} of {games}", game=2, games=2))
    won = m.decided_by_points()
    if won:
        return won
    if m.final and n < 6:
        return m.swapped(words("tied {score}: game {game} (the final plays on until one leads, at most 6; seed 003)",
                               score=m.score(), game=n + 1))
    if not m.final and n == 2:
        return m.swapped(words("tied {score}: a third game (seed 003)", score=m.score()))
    return m.lot(note("tied {score} after {n} games (seed 003 Makhos note)", score=m.score(), n=n))


knockout_system("makhos-ko", mh8)            # MH-8, seed 004 §3.9.2
knockout_system("makhos-ko-003", mh8_003)    # seed 003's Makhos knockout
