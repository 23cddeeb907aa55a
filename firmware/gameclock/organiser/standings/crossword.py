"""Crossword family standings (Crossword, A-Math, Kham Kom; seed 000): XW-6 .. XW-11.

    st = standings(games, byes, preset, event="3", round=5)    # -> table.Standings

Columns: Games (rounds counted, byes included: W + D + L), W, D, L, Byes (how many of W were byes),
GP, Spread, Medal score, Medal.

- XW-6 game points: each game's `points`, which the clock's record carries (the rule file's
  [scoring] win/draw/loss, 2/1/0 in seed 000 §3.8); a record without them gets the preset's.
- XW-7 ranking: GP, then cumulative spread (§3.9 "แต้มผลต่างสะสม (Difference)"); equal GP and spread
  share a place (table.rank_rows).
- XW-8: each game's spread is the record's, already capped by the clock (`Game.spread`).
- XW-9 byes: §3.10.5 "ชนะบาย (Bye) ... ชนะบายได้ 100 แต้ม ยกเว้น ครอสเวิร์ดเกม รุ่นประถมศึกษา ชนะบาย 50
  แต้ม" ("a bye win is worth 100 points, except primary-school Crossword, 50"): a bye is a win (GP
  `win`) with the preset's [scoring.bye_spread] for the bye's level: the level of that player's
  games (the most frequent if they differ); for a player with no game yet, the level of the event's
  games (an event is one division: one level), else the [scoring] default_level (XW-8: the level is
  the games' set-up, there is no level to fall back on by itself).
- XW-10 final stage: §2 says the top two "ในรอบคัดเลือก" (of the qualifying round) play the final
  and 3rd and 4th play for third place. So these standings rank the qualifying games only (stage
  `qualifying` and `last`); games of stage `final` are not counted (their spread is uncapped,
  §3.10.4) and each is listed in a note with its result: the final decides places 1 to 4.
- XW-11 medal score: §2 "ชนะ 6 เกม ได้ 90 คะแนน ... ชนะ 1 เกม ได้ 40 คะแนน เสมอได้ 5 คะแนน" (6 wins 90 ..
  1 win 40, each draw 5), "ผลต่างได้เสียทุกๆ 100 คะแนน จะได้คะแนนเพิ่ม 1% หากผลต่างได้เสียติดลบทุกๆ 100
  คะแนน จะหัก 1%" (+1 per full 100 of cumulative spread, -1 per full 100 of negative spread: cut toward
  zero, -150 gives -1), "ใช้ผลการแข่งขันในรอบคัดเลือก" (from the qualifying games). Gold 80-100, silver
  70-79, bronze 60-69, below 60 certificate ("ต่ำกว่าร้อยละ 60 ได้เกียรติบัตร").
  **A bye counts as a win for the medal score**: the seed calls it "ชนะบาย", a bye *win*, and the
  table counts won games out of the six qualifying games, so a player with a bye who wins every
  game they play has "ชนะ 6 เกม" (90), as a player without one can; its +100 (+50) is in the spread.
  The table gives nothing for 0 wins (nor above 6): the Medal score is left empty and a note names
  the players, the organiser decides (RULES.md's XW-11 decision). "ส่วน 4 ทีมสุดท้ายที่ผ่านเข้าสู่รอบชิงฯ
  ร้อยละของระดับเหรียญรางวัล เป็นไปตามดุลยพินิจของกรรมการ": for the four who go on to the final stage
  the committee decides the medal; a note names them (qualifying places 1 to 4).
  **A medal is provisional until the player's six qualifying games are played** (XW-10: games 1-6;
  XW-11's table counts wins out of those six): before that its Medal is marked provisional
  (`Row.provisional`) and a note says so (issue 25: the medal words showed from round 1 on, as if
  decided).
- A game without a result (`winner` None) is not counted and is named in a note; its players are
  still listed. A bye in a round the player has a game is not counted (a note says so).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from gameclock.organiser.standings.games import SIDES, Bye, Game
from gameclock.organiser.standings.table import Row, Standings, rank_rows
from gameclock.words import Note, joined, note, words

if TYPE_CHECKING:
    from gameclock.rules.loader import Preset

COLUMNS = ["Games", "W", "D", "L", "Byes", "GP", "Spread", "Medal score", "Medal"]
RULES = ["XW-6", "XW-7", "XW-8", "XW-9", "XW-10", "XW-11"]
MEDAL_FOR_WINS = {6: 90, 5: 80, 4: 70, 3: 60, 2: 50, 1: 40}  # XW-11, seed 000 §2
QUALIFYING_GAMES = 6                                            # XW-10: games 1-6, then the final
DRAW_MEDAL_POINTS = 5                                           # XW-11: each draw 5


def medal_score(wins: int, draws: int, spread: int) -> int | None:
    """XW-11: the medal score of a qualifying record (byes counted as wins), None where the seed gives
    no figure (0 wins, more than 6)."""
    base = MEDAL_FOR_WINS.get(wins)
    if base is None:
        return None
    hundreds = abs(spread) // 100                               # full hundreds, cut toward zero
    return base + DRAW_MEDAL_POINTS * draws + (hundreds if spread >= 0 else -hundreds)


def medal(score: int | None) -> str | None:
    """XW-11: gold 80-100 (and above), silver 70-79, bronze 60-69, below 60 a certificate."""
    if score is None:
        return None
    if score >= 80:
        return "gold"
    if score >= 70:
        return "silver"
    if score >= 60:
        return "bronze"
    return "certificate"


def where(g: Game) -> Note:
    """`round 3 table 2 (ID)` naming a game in a note."""
    return note("round {round} table {table} ({id})", round=str(g.round) if g.round is not None else "?",
                table=str(g.table) if g.table is not None else "?", id=g.id)


class _Tally:
    def __init__(self) -> None:
        self.w = self.d = self.l = self.byes = self.gp = self.spread = 0
        self.rounds: set[int | None] = set()
        # games a level: a dict, not a Counter (a Counter's making is the most of a tally's cost: 5,000 players at
        # every result on the desk's public standings, issue 28)
        self.levels: dict[str, int] = {}


def _points(g: Game, side: str, preset: Preset) -> int:
    """XW-6: the record's game points; the preset's win/draw/loss if the record has none."""
    if g.recorded_points is None:
        sc = preset.scoring
        return {"win": sc.win_points, "draw": sc.draw_points,
                "loss": sc.loss_points}[g.result_of(g.name(side))]
    return g.points[side] or 0


def standings(games: Iterable[Game], byes: Iterable[Bye], preset: Preset, event: str | None = None,
              round: int | None = None) -> Standings:
    """The crossword family's standings of `games` and `byes` (of `event` and rounds <= `round` when
    given) by `preset`'s [scoring] (module docstring)."""
    games = [g for g in games if (event is None or g.event == event)
             and (round is None or (g.round is not None and g.round <= round))]
    byes = [b for b in byes if (event is None or b.event == event) and (round is None or b.round <= round)]
    if event is None:
        events = {g.event for g in games} | {b.event for b in byes}
        event = events.pop() if len(events) == 1 else None
    scoring = preset.scoring
    notes: list[str] = []
    tally: dict[str, _Tally] = {}

    def of(player: str) -> _Tally:
        t = tally.get(player)
        if t is None:
            t = tally[player] = _Tally()
        return t

    unnamed = [g for g in games if not all(g.players.values())]
    if unnamed:
        notes.append(note("not counted, a player has no name: {games}", games=joined([where(g) for g in unnamed], "; ")))
    named = [g for g in games if all(g.players.values())]
    finals = [g for g in named if g.stage == "final"]
    pending = []
    for g in named:
        if g.stage == "final":
            continue
        seats = [(side, player, of(player)) for side in SIDES for player in (g.name(side),)]
        for _, _, t in seats:
            t.rounds.add(g.round)
            if g.level:
                t.levels[g.level] = t.levels.get(g.level, 0) + 1
        if g.winner is None:
            pending.append(g)
            continue
        for side, player, t in seats:
            res = g.result_for(player)
            t.w += res == "win"
            t.d += res == "draw"
            t.l += res == "loss"
            t.gp += _points(g, side, preset)
            t.spread += (g.spread or {}).get(side) or 0          # XW-7, XW-8: capped by the clock
    if pending:
        notes.append(note("no result yet, not counted: {games}", games=joined(
            [words("{where} {left} v {right}", where=where(g), left=g.name("left"), right=g.name("right"))
             for g in pending], "; ")))

    # XW-9: a bye is a win worth the level's bye spread
    bye_spread = dict(scoring.bye_spread)
    event_levels: Counter[str] = Counter()
    for t in list(tally.values()):
        event_levels.update(t.levels)
    event_level = event_levels.most_common(1)[0][0] if event_levels else scoring.default_level
    seen: set[tuple[int, str]] = set()
    for b in sorted(byes, key=lambda b: (b.round, b.player)):
        if (b.round, b.player) in seen:
            continue
        seen.add((b.round, b.player))
        t = of(b.player)
        if b.round in t.rounds:
            notes.append(note("XW-9: {player} has a bye and a game in round {round}: the bye is not counted",
                              player=b.player, round=b.round))
            continue
        # the most played level (the first met of equals, as Counter.most_common)
        level = max(t.levels, key=t.levels.__getitem__) if t.levels else event_level
        spread = bye_spread.get(level) if level is not None else None
        if spread is None:
            notes.append(note("XW-9: preset {preset} has no bye spread for level {level}: {player}'s bye in round "
                              "{round} counts +0", preset=preset.id, level=level or words("(none)"), player=b.player,
                              round=b.round))
            spread = 0
        t.w += 1
        t.byes += 1
        t.gp += scoring.win_points
        t.spread += spread

    rows: list[Row] = []
    no_wins: list[str] = []
    above: list[str] = []
    for player, t in tally.items():
        score = medal_score(t.w, t.d, t.spread)                # XW-11 (byes are wins)
        if score is None:
            (no_wins if t.w == 0 else above).append(player if t.w == 0 else f"{player} {t.w}")
        played = t.w + t.d + t.l
        rows.append(Row(player, {"Games": played, "W": t.w, "D": t.d, "L": t.l, "Byes": t.byes,
                                 "GP": t.gp, "Spread": t.spread, "Medal score": score, "Medal": medal(score)},
                        provisional={"Medal"} if played < QUALIFYING_GAMES and score is not None else set()))
    rows = rank_rows(rows, key=lambda r: (r.values["GP"], r.values["Spread"]))   # XW-7
    if no_wins:
        notes.append(note("XW-11 gives no medal score for 0 wins: {players} (left to the organiser)",
                          players=", ".join(sorted(no_wins))))
    if above:
        notes.append(note("XW-11 gives medal scores for 1 to 6 wins only: {players} wins (left to the organiser)",
                          players=", ".join(sorted(above))))
    if any(r.provisional for r in rows):
        notes.append(note("XW-11: a medal is provisional until the player's {games} qualifying games are played (XW-10)",
                          games=QUALIFYING_GAMES))
    top4 = [r.player for r in rows if r.rank <= 4]
    if top4:
        notes.append(note("XW-11: the medal level of the four who go on to the final and the game for third "
                          "(qualifying places 1-4: {players}) is the committee's decision", players=", ".join(top4)))
    for g in finals:
        if g.winner is None:
            outcome = words("no result yet")
        elif g.winner == "draw":
            outcome = words("drawn")
        else:
            outcome = words("{player} won", player=g.name(g.winner))
        sc = g.scores or {}
        board = (f" {sc.get('left')}-{sc.get('right')}" if sc.get("left") is not None else "")
        notes.append(note("XW-10 final stage, not counted here: {where} {left} v {right}{board}, {outcome}", where=where(g),
                          left=g.name("left"), right=g.name("right"), board=board, outcome=outcome))
    return Standings(event=event, method="crossword", rules=list(RULES), columns=list(COLUMNS), rows=rows,
                     notes=notes)
