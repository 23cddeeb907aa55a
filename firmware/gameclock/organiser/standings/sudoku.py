"""Sudoku standings (seed 000 §2, §4): SU-2, SU-3, SU-4.

    st = standings(games, byes, preset, event="sudoku-p", round=2)   # -> table.Standings

One record per device and round holds two competitors side by side (they do not play each other).
A competitor's round score is the record's `scores.final` for their side: the puzzle points entered
(SU-2) plus the SU-3 time bonus, which the clock gives only when every puzzle was correct
(docs/result-record.md: `final` is "with bonus"). The total over the rounds ranks; equal totals
share a place (the seed gives no tie-break). Columns: R1, R2, ... (each round's score), Bonus (the
SU-3 points within the total), Total, Final.

- SU-4: §2 "ผู้ที่ได้คะแนนสูงสุด 5 อันดับแรกในรอบคัดเลือก จะได้เข้าสู่รอบชิงชนะเลิศ" (the top five of
  the qualifying rounds go to the final): Final is "yes" for places 1 to 5. A shared place that takes
  more than five players in is marked for all of them, and a note says the organiser must choose.
- Records of stage `final` are not added up here (these standings rank the qualifying rounds); a
  note lists each.
- Only the scores count: a Sudoku record need not carry a winner or game points (its competitors are
  not opponents; `outcome` and `scores.game_points` may be null), and when it has them they are not
  used. A record without both final scores has no result yet: it is not counted (a note names it);
  its competitors are still listed.
  A side without a name is an empty seat when it scored nothing; with a score a note names it.
  Byes do not apply to Sudoku and are ignored.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from gameclock.organiser.standings.crossword import where
from gameclock.organiser.standings.games import SIDES, Bye, Game
from gameclock.organiser.standings.table import Row, Standings, rank_rows
from gameclock.words import Words, joined, note, words

if TYPE_CHECKING:
    from gameclock.rules.loader import Preset

RULES = ["SU-2", "SU-3", "SU-4"]
FINALISTS = 5  # SU-4


def _round_column(rnd: int | None) -> str:
    return f"R{rnd}" if rnd is not None else "R?"


def _final(g: Game) -> dict[str, int] | None:
    """Both sides' final scores; None while the record lacks one (no result yet)."""
    scores = g.scores or {}
    final = {s: v for s in SIDES if (v := scores.get(s)) is not None}
    return final if len(final) == len(SIDES) else None


def standings(games: Iterable[Game], byes: Iterable[Bye] = (), preset: Preset | None = None,
              event: str | None = None, round: int | None = None) -> Standings:
    """The Sudoku standings of `games` (of `event` and rounds <= `round` when given): module docstring."""
    games = [g for g in games if (event is None or g.event == event)
             and (round is None or (g.round is not None and g.round <= round))]
    if event is None:
        events = {g.event for g in games}
        event = events.pop() if len(events) == 1 else None
    notes: list[str] = []
    rounds: dict[str, dict[str, int]] = {}      # player -> {round column: score}
    bonus: dict[str, int] = {}
    columns: set[tuple[bool, int, str]] = set()
    pending: list[Game] = []
    finals: list[Game] = []
    nameless: list[Words] = []
    for g in games:
        if g.stage == "final":
            finals.append(g)
            continue
        final = _final(g)   # the winner and game points play no part (SU-2, SU-3: scores only)
        if final is None:
            pending.append(g)
        col = _round_column(g.round)
        columns.add((g.round is None, g.round or 0, col))
        for side in SIDES:
            player = g.players[side]
            if player is None:
                if final is not None and final[side]:
                    nameless.append(words("{where} {side} scored {score}", where=where(g), side=words(side),
                                          score=final[side]))
                continue
            scores = rounds.setdefault(player, {})
            bonus.setdefault(player, 0)
            if final is None:
                continue
            if col in scores:
                notes.append(note("{player} has two results in round {round}: both are counted", player=player,
                                  round=str(g.round)))
            scores[col] = scores.get(col, 0) + final[side]
            bonus[player] += (g.bonus or {}).get(side) or 0
    cols = [c for _, _, c in sorted(columns)]
    rows = []
    for player, scores in rounds.items():
        rows.append(Row(player, {**{c: scores.get(c) for c in cols}, "Bonus": bonus[player],
                                 "Total": sum(scores.values()), "Final": None}))
    rows = rank_rows(rows, key=lambda r: (r.values["Total"],))
    finalists = [r for r in rows if r.rank <= FINALISTS]         # SU-4
    for r in finalists:
        r.values["Final"] = "yes"
    if len(finalists) > FINALISTS:
        notes.append(note("SU-4: a shared place puts {n} players in the top five ({players}): the organiser decides who "
                          "plays the final", n=len(finalists), players=", ".join(r.player for r in finalists)))
    if pending:
        notes.append(note("no result yet, not counted: {games}", games=joined([where(g) for g in pending], "; ")))
    if nameless:
        notes.append(note("not counted, a competitor has no name: {games}", games=joined(nameless, "; ")))
    for g in finals:
        sc = g.scores or {}
        notes.append(note("final stage, not counted here: {where} {scores}", where=where(g),
                          scores=", ".join(f"{g.players[s]} {sc.get(s)}" for s in SIDES if g.players[s])))
    return Standings(event=event, method="sudoku", rules=list(RULES), columns=cols + ["Bonus", "Total", "Final"],
                     rows=rows, notes=notes)
