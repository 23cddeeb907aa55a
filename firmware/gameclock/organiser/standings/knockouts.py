"""The knockout notes of the Makruk and Makhos standings (MR-12, MH-8; issue 25): each knockout match
(games in stage "final"), its score, and whether it is decided -- as the pairing system reads it, never
by a rule of its own here, so a note says "goes through" only when the system pairs the winner on.

    notes(games, pts, KO_MAKRUK, drawn)     # drawn: the event's bracket (`Drawn`), or None

- **The event's draw** (`Drawn`: an event the PC pairs with a knockout system, `event.knockout_of`):
  the bracket the event keeps, every match with its name ("semi-final 1"), its games over all its
  rounds and its outcome (pairing/knockout.py: decided, the next game, or a tie due for its lot).
  Knockout games outside the bracket (none in an event paired by the PC) are read as below.
- **Without it** (results only: the PC does not pair the event): a pair's games, over all rounds, are
  one match (two players meet once in a knockout), read by the sport's match rule -- MR-12 for Makruk,
  MH-8 (seed 004 §3.9.2) for Makhos -- as a match that is not the final (which game is the final is the
  draw's to know: MR-12's final plays a third game before lots, seed 003's Makhos final up to 6).

A note's score is game points (the rule file's, 2/1/0; a draw given is its giver's loss, MH-8).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gameclock.organiser.standings.games import Game
from gameclock.words import Note, Words, note, words


@dataclass(frozen=True)
class Sport:
    """What a sport's knockout notes say: the rule, the match format read without the event's draw
    (pairing/knockout.py's FORMATS name), how its matches go on, and a tie due for lots."""
    rule: str
    system: str
    format: str             # the match rule in words, for a match read without the event's draw
    lots: str               # what a tie due for its lot is told, read without the event's draw ("": nothing)


KO_MAKRUK = Sport("MR-12", "makruk-ko", note("2 games, then lots; the final a third game first (MR-12)"),
                  note("unless it is the final: a third game first"))
KO_MAKHOS = Sport("MH-8", "makhos-ko",
                  note("6 games; tied: 4 games taking turns giving the draw, 4 more at 20:00, then less total time "
                       "used (MH-8, seed 004 §3.9.2; seed 003: 2 games, a third, then lots)"), "")


@dataclass(frozen=True)
class Drawn:
    """An event's knockout as its pairing system reads it (`event.knockout_of`: a knockout.Bracket) and
    its players' names by id (the standings know players by name)."""
    bracket: Any
    names: Mapping[str, str]


@dataclass(frozen=True)
class _Read:
    where: str | Words             # "semi-final 1", or "knockout round 4" read without the draw
    a: str                         # the players as the games name them: ids (the draw's), else names
    b: str
    games: tuple[Any, ...]         # pairing model.Game
    outcome: Any                   # knockout.Next | Decided | LotDue
    drawn: bool                    # read from the event's draw


def notes(games: Sequence[Game], pts: Mapping[str, int], sport: Sport, drawn: Drawn | None = None) -> list[str]:
    """One note a knockout match (module doc) after a head line; [] without knockout games."""
    reads: list[_Read] = []
    names: Mapping[str, str] = {}
    left = list(games)
    if drawn is not None:
        names = drawn.names
        reads = [_Read(m.title or m.name, m.a, m.b, m.games, m.outcome, True) for m in drawn.bracket.matches
                 if m.a is not None and m.b is not None and m.games]
        pairs = {frozenset((names.get(r.a, r.a), names.get(r.b, r.b))) for r in reads}
        left = [g for g in left if frozenset((g.name("left"), g.name("right"))) not in pairs]
    reads += _read_alone(left, sport)
    if not reads:
        return []
    out: list[str] = [note("{rule}: knockout games (stage final) are not ranked; each match:", rule=sport.rule)]
    if any(not r.drawn for r in reads):
        out.append(note("{rule}: without the event's draw (the PC does not pair it) each pair's games are one match, "
                        "read as {format}", rule=sport.rule, format=sport.format))
    return out + [_note(r, pts, sport, names if r.drawn else {}) for r in reads]


def _note(r: _Read, pts: Mapping[str, int], sport: Sport, names: Mapping[str, str]) -> Note:
    """The match's note: its score in game points and what its system says of it. Its details say the
    players as the pairing system does (ids, like the drafts' notes); the head by name."""
    from gameclock.organiser.pairing.knockout import Decided, LotDue, Next

    def name(p: str) -> str:
        return names.get(p, p)

    won = {r.a: 0, r.b: 0}
    for g in r.games:
        res = "win" if g.left_points == 1.0 else "draw" if g.left_points == 0.5 else "loss"
        won[g.left] += pts[res]
        won[r.b if g.left == r.a else r.a] += pts[{"win": "loss", "draw": "draw", "loss": "win"}[res]]
    head = words("{where}: {a} {points_a}-{points_b} {b} ({n} game(s))", where=r.where, a=name(r.a),
                 points_a=won[r.a], points_b=won[r.b], b=name(r.b), n=len(r.games))
    o = r.outcome
    if isinstance(o, Decided):
        if o.reason == "games":
            return note("{head}: {winner} goes through", head=head, winner=name(o.winner))
        return note("{head}: {winner} goes through ({reason}: {detail})", head=head, winner=name(o.winner),
                    reason=o.reason, detail=o.detail)
    if isinstance(o, LotDue):
        after = note("the next Pair draws them, or option 'lots'") if r.drawn else sport.lots
        if after:
            return note("{head}: {why}: lots decide ({after})", head=head, why=o.why, after=after)
        return note("{head}: {why}: lots decide", head=head, why=o.why)
    assert isinstance(o, Next)
    if r.drawn:
        return note("{head}: not decided yet; next, game {game}: {part}", head=head, game=o.game, part=o.words)
    return note("{head}: not decided yet; game {game} next ({format})", head=head, game=o.game, format=sport.format)


def _read_alone(games: Iterable[Game], sport: Sport) -> list[_Read]:
    """Each pair's knockout games as one match, read by the sport's match rule (module doc)."""
    from gameclock.organiser.pairing import load_systems, model
    from gameclock.organiser.pairing.knockout import FORMATS, MatchSoFar

    load_systems()
    fmt = FORMATS[sport.system]
    by_pair: dict[tuple[str, str], list[Game]] = {}
    for g in games:
        a, b = sorted((g.name("left"), g.name("right")))
        by_pair.setdefault((a, b), []).append(g)
    out = []
    for (a, b), gs in sorted(by_pair.items(), key=lambda kv: (min(g.round or 0 for g in kv[1]), kv[0])):
        played = tuple(sorted((model.Game(
            round=g.round or 0, left=g.name("left"), right=g.name("right"), table=g.table or 0, game=g.game,
            left_points={"win": model.WIN, "draw": model.DRAW, "loss": model.LOSS}[g.result_of(g.name("left"))],
            left_time_ms=g.time_used_ms.get("left") or 0, right_time_ms=g.time_used_ms.get("right") or 0)
            for g in gs), key=lambda g: (g.game, g.round, g.table)))
        rounds = sorted({g.round for g in gs if g.round is not None})
        where = (words("knockout round {round}", round="?" if not rounds else str(rounds[0])) if len(rounds) <= 1
                 else words("knockout rounds {first}-{last}", first=rounds[0], last=rounds[-1]))
        # nothing is drawn here (tie_seed None); tosses are not said (lot_seed 0 only fills the field)
        so_far = MatchSoFar(a, b, played, False, 0, None, {}, {}, {})
        out.append(_Read(where, a, b, played, fmt(so_far), False))
    return out
