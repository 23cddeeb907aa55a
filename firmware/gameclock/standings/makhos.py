"""Makhos standings: qualifying groups of matches (MH-7); knockout matches reported (MH-8).

    st = standings(games, byes, preset, event="makhos-u12")

Seed 004 §3.9.1 (qualifying, "Match ละ 4 กระดาน", matches of 4 games; `[standings] match_games`):

- a game: win 2, draw 1, loss 0 (ก.; the rule file's [scoring] points). MH-8's "draw given" is a loss
  for the player who gave it (`Game.result_for`; the clock's record already makes it the other's win);
- a match (the games between the same two players in a round): 3 to the player with more game points in
  it, 1 each when equal, 0 (ข.).

Ties (ค.: the seed leaves them to the organising committee's judgement, "ใช้ดุลยพินิจ ... เช่น", and lists
these ways in this order; we apply them in that order):

1. match points, then game points (ค.(1) "ให้นับ Match Point และ Game Point");
2. game difference (ค.(2) "วิธีนับจำนวนผลต่างกระดานได้เสีย (กระดานแพ้ - ชนะ) ให้ถือว่าผู้ที่มีกระดานชนะมากกว่า
   เป็นผู้ชนะ": the difference of games won and lost, "the player with more games won is the winner").
   So it counts games, not points: Diff = games won - games lost over the player's match games (a
   draw counts for neither; a draw given is a loss). The parenthesis writes "lost - won", but the
   sentence ranks the player with more won games higher, so won - lost, larger is better;
3. the tie-break games (ค.(3): "ให้นักกีฬาแข่งขันใหม่อีก 4 กระดาน ... ฝ่ายละ 20 นาที", 4 more games at 20:00
   per side, rule file makhos-tiebreak-20): the organiser records them as more games of the pairing in
   the same round, after its `match_games` games (game numbers 5-8; games are taken in the order of
   their game number, then their end time, so a clock that numbered them 1-4 again still has them after
   the match when it recorded the times). They do not change match points, game points or Diff; column
   TB is the game points each scored in them;
4. "ผู้ที่ใช้เวลาน้อยที่สุดเป็นผู้ชนะ", the player who used less time wins: the total time used over all the
   player's games (match and tie-break games; `time_used_ms`, the clock's own measure, MH-7). The seed
   says this after the 4 tie-break games without saying over which games; every game's time is on the
   clock's record, and all games give every player of a group the same yardstick. When the tie-break
   games were not played the time decides straight after Diff; a note names every place the time decided;
5. a shared place.

Byes score nothing. Column "Time used" holds milliseconds (CSV, JSON); the table shows it as M:SS.

Knockout (MH-8): games in stage "final" are not ranked; the notes give each match's game points and
what MH-8 does with a tie (seed 004 §3.9.2: 6 games, then 4 more taking turns "giving the draw", then 4
more at 20:00, then less total time used; seed 003: 2 games, a third, then lots).
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from .boardgames import clock_time, game_points, pairings, select
from .games import Bye, Game
from .table import Row, Standings, rank_rows

COLUMNS = ["Matches", "MP", "GP", "Diff", "TB", "Time used"]
MATCH_POINTS = {"more": 3, "equal": 1, "fewer": 0}   # MH-7, seed 004 §3.9.1 ข.
KNOCKOUT_GAMES = 6 + 4 + 4                             # MH-8, seed 004 §3.9.2: then the time decides


def split_match(games: Sequence[Game], match_games: int) -> tuple[list[Game], list[Game]]:
    """A pairing's games in one round -> (the match, the tie-break games after it): the first
    `match_games` in order of game number (numbers above `match_games` last), then end time, then id."""
    ordered = sorted(games, key=lambda g: (g.game > match_games, g.ended or "", g.game, g.id))
    return ordered[:match_games], ordered[match_games:]


def standings(games: Iterable[Game], byes: Iterable[Bye] = (), preset=None, event: str | None = None,
              round: int | None = None, teams: Mapping | None = None) -> Standings:
    """Makhos standings of `event` after `round` (all rounds when None): MH-7, MH-8 knockout notes."""
    sel = select(games, byes, event, round)
    pts = game_points(preset)
    match_games = getattr(getattr(preset, "standings", None), "match_games", 4)
    notes = list(sel.notes)
    stats: dict[str, dict] = {}

    def row(player: str) -> dict:
        return stats.setdefault(player, {"Matches": 0, "MP": 0, "GP": 0, "Diff": 0, "TB": None, "Time used": 0})

    for b in sel.byes:
        row(b.player)
    for (rnd, a, b), gs in pairings(sel.games).items():
        match, extra = split_match(gs, match_games)
        if len(match) < match_games:
            notes.append(f"MH-7: round {rnd}: {a} v {b}: {len(match)} of {match_games} games recorded")
        gp = {p: sum(pts[g.result_for(p)] for g in match) for p in (a, b)}
        for p, q in ((a, b), (b, a)):
            r = row(p)
            r["Matches"] += 1
            r["MP"] += MATCH_POINTS["more" if gp[p] > gp[q] else "equal" if gp[p] == gp[q] else "fewer"]
            r["GP"] += gp[p]
            r["Diff"] += sum((g.result_for(p) == "win") - (g.result_for(p) == "loss") for g in match)
            if extra:
                r["TB"] = (r["TB"] or 0) + sum(pts[g.result_for(p)] for g in extra)
            r["Time used"] += sum(g.time_used_ms.get(g.side_of(p)) or 0 for g in gs)

    def key(r: Row) -> tuple:
        v = r.values
        return (v["MP"], v["GP"], v["Diff"], v["TB"] or 0, -v["Time used"])

    ranked = rank_rows([Row(p, dict(v)) for p, v in stats.items()], key=key)
    for upper, lower in zip(ranked, ranked[1:]):
        if key(upper)[:4] == key(lower)[:4] and key(upper) != key(lower):
            notes.append(f"MH-7: {upper.player} above {lower.player} on less total time used "
                         f"({clock_time(upper.values['Time used'])} v {clock_time(lower.values['Time used'])})")
    if sel.byes:
        notes.append("byes score nothing (MH-7)")
    if teams:
        notes.append("teams are not used: Makhos events are individual (seed 004 §2)")
    rules = ["MH-7"]
    if sel.knockout or any(g.draw_loss for g in sel.games):
        rules.append("MH-8")
    st = Standings(event=event, method="makhos", rules=rules, columns=list(COLUMNS), rows=ranked, notes=notes)
    st.formats["Time used"] = clock_time
    if sel.knockout:
        st.notes += knockout_notes(sel.knockout, pts)
    return st


def knockout_notes(games: Sequence[Game], pts: dict[str, int]) -> list[str]:
    """MH-8: each knockout match's game points (a draw given counts as a loss); what a tie leads to."""
    notes = ["MH-8: knockout games (stage final) are not ranked; each match:"]
    for (rnd, a, b), gs in pairings(games).items():
        pa = sum(pts[g.result_for(a)] for g in gs)
        pb = sum(pts[g.result_for(b)] for g in gs)
        ta = sum(g.time_used_ms.get(g.side_of(a)) or 0 for g in gs)
        tb = sum(g.time_used_ms.get(g.side_of(b)) or 0 for g in gs)
        head = f"knockout round {rnd if rnd is not None else '?'}: {a} {pa}-{pb} {b} ({len(gs)} game(s))"
        if pa != pb:
            notes.append(head + f": {a if pa > pb else b} goes through")
        elif len(gs) >= KNOCKOUT_GAMES and ta != tb:
            notes.append(head + f": tied after {len(gs)} games; MH-8: less total time used goes through: "
                                f"{a if ta < tb else b} ({clock_time(ta)} v {clock_time(tb)})")
        else:
            notes.append(head + ": tied; MH-8: 4 more games taking turns giving the draw (a draw is a loss for "
                                "its giver), then 4 more at 20:00, then less total time used (seed 004 §3.9.2; "
                                f"seed 003: a third game, then lots); time used {clock_time(ta)} v {clock_time(tb)}")
    return notes
