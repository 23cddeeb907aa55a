"""Makhos pairings (issue 16): MH-7's qualifying groups ("makhos-groups") and MH-8's knockout from the
semi-final ("makhos-ko", seed 004 §3.9.2; "makhos-ko-003", seed 003's Makhos note).

**Groups** (MH-7, seed 004 §3.9.1: "Match ละ 4 กระจาด ให้แบ่งออกเป็นสายการแข่งขันหรือเป็นกลุ่ม", matches of 4
games, the players split into groups). When every player has a `group`, those are the groups;
otherwise the lot splits them into options["groups"] groups (default 1): the ids sorted, shuffled
from the lot seed (options["lot_seed"], default the draft's seed) and dealt in turn, so group sizes
differ by at most one. Each group is a Berger round robin (roundrobin.py), its pairing numbers by the
same lot; round r pairs round r of every group. A match is 4 boards on one table, games 1 to 4:
who starts game 1 is a coin toss, and the starter alternates game by game (seed 004 §3.4.1 "ผู้ชนะ
การเสี่ยงทายเป็นผู้เดินก่อนและผลัดกันเดินก่อนในกระดานต่อไป"). A group's odd player out has a bye (a board
without an opponent; byes score nothing, MH-7).

Tie-break games (MH-7 ค.(3): "ให้นักกีฬาแข่งขันใหม่อีก 4 กระจาด ... ฝ่ายละ 20 นาที", 4 more games at 20:00 per
side) are the committee's choice among the ways it may decide a tie, so they are paired only when the
organiser says so: options["tiebreak"], a list of the tied players' lists (every two of a list play
4 games), in a round after the round robins. Their game numbers run on from the match (5 to 8, as
the clock's menu numbers them) and the note says tie-break and 20:00 (rule file makhos-tiebreak-20).

**Knockout, seed 004** (MH-8, §3.9.2, "makhos-ko"; the bracket is knockout.py's): 6 games, the
starter alternating from a coin toss. Tied on game points (2/1/0): 4 more games taking turns "giving
the draw" ("ผลัดกันต่อเสมอเป็นแพ้": a draw is a loss for its giver); before them a coin toss, whose winner
"chooses to start or to let the opponent start" (ผู้ที่เสี่ยงทายชนะสามารถใช้สิทธิ์เลือกเดินก่อน หรือ ให้คู่แข่งขัน
เดินก่อน). Our reading: in a draw-giving game the player who starts gives the draw (the first move's
advantage is what is given), so the toss winner's choice is who gives first; we pair the toss's
winner to start and give, and options["gives_first"] ({"A v B": id}) records another choice. Still
tied: 4 more such games at 20:00 per side, the turns running on. Still tied: less total time used
wins -- over all the match's games, as organiser/standings/makhos.py reports it ("RULES.md MH-8: less
total time used"); equal times (the seed is silent): a lot. Game numbers run on 1..14 and the note
says the part.

**Knockout, seed 003** ("makhos-ko-003", its Makhos note): 2 games; tied, a third; still tied, lots.
The final plays on one game at a time until one player leads, up to 6 games, then lots. The colours
(seed 003 Makhos §1.1): the first game's by lot (a coin toss here), then swapped every game.
"""
from __future__ import annotations

from gameclock.organiser.pairing.knockout import Decided, MatchSoFar, Next, knockout_draft
from gameclock.organiser.pairing.model import Board, EventState, Game, PairingError, RoundDraft, system
from gameclock.organiser.pairing.roundrobin import rng, round_of, table_size
from gameclock.organiser.standings.boardgames import clock_time
from gameclock.organiser.standings.makhos import KNOCKOUT_GAMES

MATCH_GAMES = 4                        # MH-7: a qualifying match is 4 games
TIEBREAK_GAMES = 4                     # MH-7 ค.(3): 4 more games at 20:00
KO_GAMES, GIVING_GAMES, TIMED_GAMES = 6, 4, 4   # MH-8, seed 004 §3.9.2
assert KO_GAMES + GIVING_GAMES + TIMED_GAMES == KNOCKOUT_GAMES, "MH-8 as the standings read it"


def _letter(k: int) -> str:
    return chr(ord("A") + k) if k < 26 else f"G{k + 1}"


def groups_of(state: EventState, seed: int) -> tuple[dict[str, list[str]], list[str]]:
    """MH-7: group name -> its players' ids in pairing-number order; notes saying how."""
    lot_seed = state.options.get("lot_seed", seed)
    if isinstance(lot_seed, bool) or not isinstance(lot_seed, int):
        raise PairingError(f"option 'lot_seed' must be a whole number, not {lot_seed!r}")
    players = sorted(state.players, key=lambda p: p.id)
    if any(p.group for p in players):
        unplaced = [p.id for p in players if not p.group]
        if unplaced:
            raise PairingError(f"some players have a group and some not: {', '.join(unplaced)} in none")
        groups: dict[str, list[str]] = {}
        for p in players:
            groups.setdefault(p.group, []).append(p.id)
        for name, ids in groups.items():
            rng(lot_seed, "group", name).shuffle(ids)
        notes = [f"groups as given; pairing numbers by lot (lot seed {lot_seed})"]
    else:
        count = state.options.get("groups", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= max(1, len(players) // 2):
            raise PairingError(f"option 'groups' must be a whole number from 1 to {max(1, len(players) // 2)} "
                               f"(groups of 2 or more), not {count!r}")
        ids = [p.id for p in players]
        rng(lot_seed, "groups").shuffle(ids)
        groups = {_letter(k): ids[k::count] for k in range(count)}
        notes = [f"{count} group(s) by lot (lot seed {lot_seed}), dealt in turn"]
    for name in sorted(groups):
        if len(groups[name]) < 2:
            raise PairingError(f"group {name} has {len(groups[name])} player: a group needs 2 or more")
        notes.append(f"group {name}: " + ", ".join(f"{k} {i}" for k, i in enumerate(groups[name], 1)))
    return dict(sorted(groups.items())), notes


def _match_boards(table: int, a: str, b: str, seed: int, what: str, first_game: int, count: int,
                  note: str) -> list[Board]:
    """`count` games of a match on `table`: a coin toss for who starts the first, then alternating."""
    starts_a = rng(seed, "toss", what, a, b).random() < 0.5
    boards = []
    for k in range(count):
        left, right = (a, b) if starts_a == (k % 2 == 0) else (b, a)
        boards.append(Board(table=table, left=left, right=right, game=first_game + k,
                            note=f"{note}, game {k + 1} of {count}"))
    return boards


@system("makhos-groups")
def makhos_groups(state: EventState, round_no: int, seed: int) -> RoundDraft:
    """MH-7 (seed 004 §3.9.1): round `round_no` of every group's round robin of 4-game matches; after
    the round robins, the tie-break games the organiser orders (options["tiebreak"])."""
    groups, notes = groups_of(state, seed)
    rounds = max(table_size(len(ids)) - 1 for ids in groups.values())
    boards: list[Board] = []
    table = 0
    if round_no < 1:
        raise PairingError(f"rounds start at 1, not {round_no}")
    if round_no <= rounds:
        for name, ids in groups.items():
            if round_no > table_size(len(ids)) - 1:
                notes.append(f"group {name}: its round robin is over ({table_size(len(ids)) - 1} rounds)")
                continue
            pairs, byes = round_of(ids, round_no)
            for a, b in pairs:
                table += 1
                boards += _match_boards(table, a, b, seed, f"round {round_no}", 1, MATCH_GAMES, f"group {name}")
            for p in byes:
                table += 1
                boards.append(Board(table=table, left=p, right=None, note=f"group {name}: bye"))
        notes.append("a match is 4 games on one table; a coin toss for who starts game 1, then the starter "
                     "alternates (MH-7, seed 004 §3.4.1, §3.9.1)")
        return RoundDraft(round=round_no, system="makhos-groups", seed=seed, boards=tuple(boards), notes=tuple(notes))
    tied = state.options.get("tiebreak")
    if not tied:
        raise PairingError(f"the groups' round robins have {rounds} round(s); tie-break games are played only "
                           "when the committee orders them (option 'tiebreak': the tied players' lists)")
    everyone = {p.id for p in state.players}
    if not isinstance(tied, list | tuple) or not all(isinstance(t, list | tuple) and len(t) >= 2 for t in tied):
        raise PairingError("option 'tiebreak' must list lists of 2 or more tied players' ids")
    for players in tied:
        unknown = [str(p) for p in players if p not in everyone]
        if unknown:
            raise PairingError(f"option 'tiebreak': not players of the event: {', '.join(unknown)}")
        ids = sorted(str(p) for p in players)
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                table += 1
                boards += _match_boards(table, a, b, seed, f"tiebreak {round_no}", MATCH_GAMES + 1, TIEBREAK_GAMES,
                                        "tie-break at 20:00 (MH-7 ค.(3), rule file makhos-tiebreak-20)")
    notes.append("tie-break games: 4 at 20:00 per side, ordered by the committee; if still tied, less time used "
                 "in them wins (MH-7 ค.(3))")
    return RoundDraft(round=round_no, system="makhos-groups", seed=seed, boards=tuple(boards), notes=tuple(notes))


# ------------------------------------------------------------------------------------- MH-8 knockout

def mh8(m: MatchSoFar) -> Next | Decided:
    """MH-8 (seed 004 §3.9.2): 6 games; 4 draw-giving; 4 draw-giving at 20:00; less total time used."""
    games = m.games[:KNOCKOUT_GAMES]
    n = len(games)
    giving = {id(g) for g in games[KO_GAMES:]}

    def giver(g: Game) -> str | None:       # the starter gives the draw (our reading, module doc)
        return g.left if id(g) in giving else None

    if n == 0:
        return m.toss(1, f"game 1 of {KO_GAMES}")
    if n < KO_GAMES:
        return m.swapped(f"game {n + 1} of {KO_GAMES}")
    if n in (KO_GAMES, KO_GAMES + GIVING_GAMES, KNOCKOUT_GAMES):
        won = m.decided_by_points(games, giver)
        if won:
            return won
    if n == KO_GAMES:                         # the coin toss before the draw-giving games
        chosen = _gives_first(m)
        if chosen is not None:
            left = chosen
            how = f"{left} gives first (option 'gives_first')"
        else:
            toss = m.toss(n + 1, "")
            left = toss.left
            how = f"{left} won the coin toss and gives first (else say so in option 'gives_first')"
        right = m.b if left == m.a else m.a
        return Next(n + 1, left, right, f"tied {m.score(games)} after {KO_GAMES}: draw-giving game 1 of "
                    f"{GIVING_GAMES}, {left} starts and gives the draw (a draw is {left}'s loss); {how}")
    if n < KO_GAMES + GIVING_GAMES:
        k = n - KO_GAMES + 1
        last = games[-1]
        return m.swapped(f"draw-giving game {k} of {GIVING_GAMES}, {last.right} starts and gives the draw")
    if n < KNOCKOUT_GAMES:
        k = n - KO_GAMES - GIVING_GAMES + 1
        last = games[-1]
        head = f"tied {m.score(games, giver)} after {n}: " if k == 1 else ""
        return m.swapped(f"{head}20:00 draw-giving game {k} of {TIMED_GAMES}, {last.right} starts and gives the "
                         "draw (MH-4: 20:00 per side)")
    ta = sum(g.left_time_ms if g.left == m.a else g.right_time_ms for g in games)
    tb = sum(g.left_time_ms if g.left == m.b else g.right_time_ms for g in games)
    why = (f"tied {m.score(games, giver)} after {KNOCKOUT_GAMES} games; total time used {m.a} {clock_time(ta)}, "
           f"{m.b} {clock_time(tb)}")
    if ta == tb:
        return m.lot(why + ": equal (the seed is silent)")
    return Decided(m.a if ta < tb else m.b, "time", why + " (MH-8: less total time used)")


def _gives_first(m: MatchSoFar) -> str | None:
    chosen = m.options.get("gives_first", {})
    if not isinstance(chosen, dict):
        raise PairingError("option 'gives_first' must map 'A v B' to who gives the draw first")
    for key in (f"{m.a} v {m.b}", f"{m.b} v {m.a}"):
        if key in chosen:
            if chosen[key] not in (m.a, m.b):
                raise PairingError(f"option 'gives_first': {key}: {chosen[key]!r} is not one of them")
            return str(chosen[key])
    return None


def mh8_003(m: MatchSoFar) -> Next | Decided:
    """Seed 003's Makhos note: 2 games; a third if tied; then lots. The final: up to 6, then lots."""
    n = len(m.games)
    if n == 0:
        return m.toss(1, "game 1 of 2")
    if n == 1:
        return m.swapped("game 2 of 2")
    won = m.decided_by_points()
    if won:
        return won
    if m.final and n < 6:
        return m.swapped(f"tied {m.score()}: game {n + 1} (the final plays on until one leads, at most 6)")
    if not m.final and n == 2:
        return m.swapped(f"tied {m.score()}: third game")
    return m.lot(f"tied {m.score()} after {n} games (seed 003 Makhos note)")


@system("makhos-ko")
def makhos_ko(state: EventState, round_no: int, seed: int) -> RoundDraft:
    """MH-8 (seed 004 §3.9.2): the next boards of the knockout."""
    return knockout_draft(state, round_no, seed, mh8, "makhos-ko")


@system("makhos-ko-003")
def makhos_ko_003(state: EventState, round_no: int, seed: int) -> RoundDraft:
    """Seed 003's Makhos knockout: the next boards."""
    return knockout_draft(state, round_no, seed, mh8_003, "makhos-ko-003")
