"""Makhos standings: qualifying groups of matches (MH-7); knockout matches reported (MH-8).

    st = standings(games, byes, preset, event="makhos-u12")

Seed 004 §3.9.1 (qualifying, "Match ละ 4 กระจาด", matches of 4 games; `[standings] match_games`. In §3.9
the seed writes กระจาด, "basket", where the rest of seed 004 writes กระดาน, "board": a game):

- a game: win 2, draw 1, loss 0 (ก.; the rule file's [scoring] points). MH-8's "draw given" is a loss
  for the player who gave it (`Game.result_for`; the clock's record already makes it the other's win);
- a match (the games between the same two players in a round): 3 to the player with more game points in
  it, 1 each when equal, 0 (ข.).

Ties (ค.: the seed leaves them to the organising committee's judgement, "ใช้ดุลยพินิจหาวิธีการชี้ขาด ...
เช่น", and lists these ways in this order). The rule file's `[standings] tiebreaks` names the methods
in the order they apply (MH-7 decision: the rule file may reorder or drop them); the default is MH-7's
order, the seed's:

1. `match_points`, then 2. `game_points` (ค.(1) "ให้นับ Match Point และ Game Point");
3. `game_difference` (ค.(2) "วิธีนับจำนวนผลต่างกระจาดได้เสีย (กระจาดแพ้ - ชนะ) ให้ถือว่าผู้ที่มีกระจาดชนะมากกว่า
   เป็นผู้ชนะ": the difference of games won and lost, "the player with more games won is the winner").
   So it counts games, not points: Diff = games won - games lost over the player's match games (a
   draw counts for neither; a draw given is a loss). The parenthesis writes "lost - won", but the
   sentence ranks the player with more won games higher, so won - lost, larger is better;
4. `tiebreak_points`: the tie-break games (ค.(3) "ให้นักกีฬาแข่งขันใหม่อีก 4 กระจาด ... ฝ่ายละ 20 นาที", 4 more
   games at 20:00 per side, rule file makhos-tiebreak-20), column TB: the game points each scored in
   them. A game is a tie-break game when its record's `tiebreak` is 1 or more (MH-4: the K-th extra
   game after a tied match; 0 is a game of the match). A record without that field (older clocks):
   the organiser recorded the tie-break games as more games of the pairing in the same round, so the
   pairing's games in order of game number (numbers above `match_games` last), then end time, fill the
   match up to `match_games` games and the rest are tie-break games. Tie-break games never change
   match points, game points or Diff, and a pairing of tie-break games alone is no match;
5. `tiebreak_time` (ค.(3) "เมื่อแข่งขันครบ 4 กระจาดแล้วยังเสมอให้ถือว่าผู้ที่ใช้เวลาน้อยที่สุดเป็นผู้ชนะ": when
   the 4 games are played and still tied, the player who used less time wins): the time used in those
   tie-break games only (MH-7, second edition; `time_used_ms`, the clock's own measure), column
   "TB time". A player who played none has no figure (empty).

The two tie-break methods separate players who are level on the methods before them only when every
one of them played tie-break games (a player without any has nothing to compare: a note says so and
the method is passed over for them). Places level on every method of `tiebreaks` are shared, and a
note says the committee decides (ค.(4): "วิธีใดก็ได้ที่สามารถชี้ขาดหาผู้เข้ารอบได้", any method that decides).
A note names every place decided by a method after the first (MH-7).

Byes score nothing. Column "TB time" holds milliseconds (CSV, JSON); the table shows it as M:SS.

Knockout (MH-8): games in stage "final" are not ranked; the notes give each match's game points and
whether it is decided, as the pairing system reads it (knockouts.py; seed 004 §3.9.2: 6 games, then 4
more taking turns "giving the draw", then 4 more at 20:00, then less total time used; seed 003: 2
games, a third, then lots).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict

from gameclock.organiser.standings.boardgames import clock_time, game_points, pairings, select
from gameclock.organiser.standings.games import Bye, Game
from gameclock.organiser.standings.knockouts import KO_MAKHOS, Drawn
from gameclock.organiser.standings.knockouts import notes as knockout_match_notes
from gameclock.organiser.standings.table import Row, Standings, rank_rows
from gameclock.rules.loader import TIEBREAK_METHODS, Preset
from gameclock.words import note, words

COLUMNS = ["Matches", "MP", "GP", "Diff", "TB", "TB time"]
MATCH_POINTS = {"more": 3, "equal": 1, "fewer": 0}   # MH-7, seed 004 §3.9.1 ข.
KNOCKOUT_GAMES = 6 + 4 + 4                             # MH-8, seed 004 §3.9.2: then the time decides
# MH-7 `[standings] tiebreaks` methods: name -> (column, +1 more is better / -1 less is better, the note's words)
METHODS = {
    "match_points": ("MP", 1, "match points"),
    "game_points": ("GP", 1, "game points"),
    "game_difference": ("Diff", 1, "game difference"),
    "tiebreak_points": ("TB", 1, "the tie-break games' points"),
    "tiebreak_time": ("TB time", -1, "less time used in the tie-break games"),
}
assert tuple(METHODS) == TIEBREAK_METHODS, "every MH-7 method the rule files may name is ranked here"

# a player's row: Matches, MP, GP, Diff, TB, "TB time" (TB and TB time None: no tie-break games)
_Stats = TypedDict("_Stats", {"Matches": int, "MP": int, "GP": int, "Diff": int, "TB": int | None,
                              "TB time": int | None})


def is_tiebreak(g: Game) -> bool | None:
    """MH-7: True for a tie-break game (`tiebreak` >= 1), False for a game of the match, None when the
    record does not say (no `tiebreak` field)."""
    return None if g.tiebreak is None else g.tiebreak >= 1


def split_match(games: Sequence[Game], match_games: int) -> tuple[list[Game], list[Game]]:
    """A pairing's games in one round -> (the match, the tie-break games): by the records' `tiebreak`;
    records without it fill the match up to `match_games` games in order of game number (numbers above
    `match_games` last), then end time, then id, and the rest are tie-break games."""
    match = [g for g in games if is_tiebreak(g) is False]
    extra = [g for g in games if is_tiebreak(g)]
    unsaid = sorted((g for g in games if is_tiebreak(g) is None),
                    key=lambda g: (g.game > match_games, g.ended or "", g.game, g.id))
    room = max(0, match_games - len(match))
    match += unsaid[:room]
    extra += unsaid[room:]
    match.sort(key=lambda g: (g.game, g.ended or "", g.id))
    extra.sort(key=lambda g: (g.tiebreak or 0, g.game, g.ended or "", g.id))
    return match, extra


def standings(games: Iterable[Game], byes: Iterable[Bye] = (), preset: Preset | None = None,
              event: str | None = None, round: int | None = None,
              teams: Mapping[str, object] | None = None, knockout: Drawn | None = None) -> Standings:
    """Makhos standings of `event` after `round` (all rounds when None): MH-7, MH-8 knockout notes
    (`knockout`: the event's knockout as its pairing system reads it, knockouts.py)."""
    sel = select(games, byes, event, round)
    pts = game_points(preset)
    settings = getattr(preset, "standings", None)
    match_games = getattr(settings, "match_games", 4)
    methods = tuple(getattr(settings, "tiebreaks", TIEBREAK_METHODS))
    notes = list(sel.notes)
    stats: dict[str, _Stats] = {}

    def row(player: str) -> _Stats:
        return stats.setdefault(player, {"Matches": 0, "MP": 0, "GP": 0, "Diff": 0, "TB": None, "TB time": None})

    for bye in sel.byes:
        row(bye.player)
    for (rnd, a, b), gs in pairings(sel.games).items():
        match, extra = split_match(gs, match_games)
        if match and len(match) < match_games:
            notes.append(note("MH-7: round {round}: {a} v {b}: {n} of {games} games recorded", round=str(rnd), a=a, b=b,
                              n=len(match), games=match_games))
        elif len(match) > match_games:   # only records saying `tiebreak` 0 can do this
            notes.append(note("MH-7: round {round}: {a} v {b}: {n} games of the match recorded (matches of {games}): all "
                              "are counted", round=str(rnd), a=a, b=b, n=len(match), games=match_games))
        gp = {p: sum(pts[g.result_of(p)] for g in match) for p in (a, b)}
        for p, q in ((a, b), (b, a)):
            r = row(p)
            if match:
                r["Matches"] += 1
                r["MP"] += MATCH_POINTS["more" if gp[p] > gp[q] else "equal" if gp[p] == gp[q] else "fewer"]
                r["GP"] += gp[p]
                r["Diff"] += sum((g.result_for(p) == "win") - (g.result_for(p) == "loss") for g in match)
            if extra:   # MH-7 ค.(3): never MP, GP or Diff
                r["TB"] = (r["TB"] or 0) + sum(pts[g.result_of(p)] for g in extra)
                r["TB time"] = (r["TB time"] or 0) + sum(_time_used(g, p) for g in extra)

    ranked, rank_notes = rank([Row(p, dict(v)) for p, v in stats.items()], methods)
    notes += rank_notes
    if sel.byes:
        notes.append(note("byes score nothing (MH-7)"))
    if teams:
        notes.append(note("teams are not used: Makhos events are individual (seed 004 §2)"))
    rules = ["MH-7"]
    if sel.knockout or any(g.draw_loss for g in sel.games):
        rules.append("MH-8")
    st = Standings(event=event, method="makhos", rules=rules, columns=list(COLUMNS), rows=ranked, notes=notes)
    st.formats["TB time"] = clock_time
    if sel.knockout:
        st.notes += knockout_notes(sel.knockout, pts, knockout)
    return st


def _time_used(g: Game, player: str) -> int:
    """The time `player` used in `g` (ms; 0 when the record does not say)."""
    side = g.side_of(player)
    return (g.time_used_ms.get(side) if side is not None else None) or 0


def _shown(column: str, value: Any) -> str:
    return clock_time(value) if column == "TB time" else str(value)


def rank(rows: Sequence[Row], methods: Sequence[str]) -> tuple[list[Row], list[str]]:
    """MH-7: `rows` ranked by `methods` (names of METHODS) in order, each splitting the groups of players
    level on the methods before it; (the ranked rows, the notes). A method whose column a player of a
    group has no value in (no tie-break games) does not split that group. Players level on every method
    share a place."""
    notes: list[str] = []
    groups = [sorted(rows, key=lambda r: r.player)]
    path: dict[str, list[int]] = {r.player: [] for r in rows}   # each player's group after each method
    for m in methods:
        column, sign, _ = METHODS[m]
        out: list[list[Row]] = []
        for group in groups:
            missing = [r.player for r in group if r.values[column] is None]
            if len(group) < 2 or missing:
                if len(group) > 1 and len(missing) < len(group):
                    notes.append(note("MH-7: {players} are level before {method}, which cannot separate them: {missing} "
                                      "played no tie-break games", players=", ".join(r.player for r in group),
                                      method=m, missing=", ".join(missing)))
                out.append(group)
                continue
            ordered = sorted(group, key=lambda r: -sign * r.values[column])   # stable: names when equal
            out.append([ordered[0]])
            for r in ordered[1:]:
                if r.values[column] == out[-1][-1].values[column]:
                    out[-1].append(r)
                else:
                    out.append([r])
        groups = out
        for i, group in enumerate(groups):
            for r in group:
                path[r.player].append(i)
    place = {r.player: i for i, group in enumerate(groups) for r in group}
    ranked = rank_rows(list(rows), key=lambda r: (-place[r.player],))
    for upper, lower in zip(ranked, ranked[1:], strict=False):  # each with the next
        if place[upper.player] == place[lower.player]:
            continue
        k = next(i for i, (x, y) in enumerate(zip(path[upper.player], path[lower.player], strict=True)) if x != y)
        if k:
            column, _, method = METHODS[methods[k]]
            notes.append(note("MH-7: place {place}: {upper} above {lower} on {method} ({a} v {b})", place=upper.place,
                              upper=upper.player, lower=lower.player, method=words(method),
                              a=_shown(column, upper.values[column]), b=_shown(column, lower.values[column])))
    for group in groups:
        if len(group) > 1:
            notes.append(note("MH-7: place ={rank} shared by {players}: not separated by {methods}; the committee decides "
                              "(seed 004 §3.9.1 ค.)", rank=group[0].rank, players=", ".join(r.player for r in group),
                              methods=", ".join(methods)))
    return ranked, notes


def knockout_notes(games: Sequence[Game], pts: dict[str, int], drawn: Drawn | None = None) -> list[str]:
    """MH-8: each knockout match's game points (a draw given counts as a loss) and whether it is decided,
    as the pairing system reads it (knockouts.py: the event's bracket `drawn` -- MH-8 or seed 003's
    Makhos knockout --, else each pair's games by MH-8, seed 004 §3.9.2)."""
    return knockout_match_notes(games, pts, KO_MAKHOS, drawn)
