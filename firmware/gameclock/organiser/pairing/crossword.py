"""The pairing systems of seed 000's contest (issue 16): "xw10" for the Crossword family (Crossword,
A-Math, Kham Kom; XW-10) and "sudoku" (SU-1, SU-4). Pure functions of `model.EventState`.

XW-10, the schedule (seed 000 §1, the day's timetable, and §2):

    09.00 "เริ่มการแข่งขัน ... เกมที่ 1 (Random)"                          game 1: a random draw
    09.50 "กรรมการประกบคู่การแข่งขันเกมที่ 2 (Swiss Pairing)"               the committee pairs game 2
    10.00 "แข่งขันเกมที่ 2 และ 3 (จบเกมที่ 2 สลับชนะเจอชนะ และแพ้เจอแพ้ในกลุ่มโต๊ะเดียวกัน)
           จบเกมที่ 3 ส่งใบมาสเตอร์"
    11.40 "... กรรมการประกบคู่การแข่งขันเกมที่ 4 (Swiss Pairing)"
    12.30 "แข่งขันเกมที่ 4 และ 5 (จบเกมที่ 4 สลับชนะเจอชนะ และแพ้เจอแพ้ในกลุ่มโต๊ะเดียวกัน) จบเกมที่ 5 ส่งใบมาสเตอร์"
    14.00 "กรรมการประกบคู่การแข่งขันเกมที่ 6 (King of the hill)"
    15.00 "รอบชิงชนะเลิศ และชิงอันดับที่ 3"                                     the final and third place

Our reading of "จบเกมที่ 2 สลับชนะเจอชนะ และแพ้เจอแพ้ในกลุ่มโต๊ะเดียวกัน" ("at the end of game 2,
change over: winners meet winners and losers meet losers in the same table group"): games 2 and 3
are one session (10.00-11.40, two 50-minute games back to back) and the master sheets are handed in
only after game 3, so the committee pairs games 2, 4 and 6 and nobody pairs game 3 or 5 from the
standings: the players change over on the spot, within their group of neighbouring tables of the
game just played. So the rule pairs **games 3 and 5** (the games after 2 and 4), and a "table group"
is a run of consecutive tables of game 2 (or 4): tables 1-2, 3-4, ... with the default of 2 tables,
where the winner of table 1 meets the winner of table 2 and the two losers meet (option
`table_group`: tables per group, from 2). Games 2 and 4 are the committee's Swiss on the standings
(`swiss.py`: score groups, no repeat pairing while one is avoidable); games 3 and 5 are the same
Swiss run within each table group, the score groups being that game's result -- a Swiss, as §2 says
of every game before King of the Hill ("ใช้วิธีประกบคู่แบบสวิส ให้ผู้เข้าแข่งขันที่ผลการแข่งขันระดับ
เดียวกันพบกัน": players of the same results meet).

- Game 1 (random): the players in an order drawn with `random.Random(seed)`; the 1st drawn meets the
  2nd (the 1st starts), the 3rd the 4th, ...; with an odd number the last drawn has the bye (XW-9:
  all are level, and the draw is the order).
- Games 2 and 4 (Swiss): `swiss.swiss_boards`.
- Games 3 and 5 (change-over): each player's table in the game before gives the group
  ((table - 1) // table_group); the bye of the game before counts as a table after the last, so
  its player joins the last group, and so does a late entry (issue 26: no board in the game before,
  the missed game no win). The bye (XW-9: the lowest-ranked player without one) is taken
  out first. A group left with an odd number sends its lowest player (by that game's result, then
  rank) on to the next group. Within a group: winners (a bye is a win, XW-9), then draws, then
  losers, each by rank, paired as score groups are (so with 2 tables: winner v winner, loser v
  loser; a draw sits between: the winner meets the higher-ranked of the two who drew). The issue
  asks for no repeat pairing in games 2-5: when the two winners have met before (game 1), the
  repeat is avoided if the group allows it (the winner of table 1 meets the loser of table 2 and
  the other two meet); when no pairing of the group avoids one, its players cross to the next
  group (top-down, the first repeat-free pairing in `swiss.py`'s order), so a repeat is made only
  when the whole field has no way round it (then noted).
- Game 6 (King of the Hill, §2 "เรียงลำดับคะแนน และให้ทีมที่มีคะแนนอันดับ 1 พบ 2, 3 พบ 4, 5 พบ 6"):
  after the bye (XW-9), by rank: 1 v 2, 3 v 4, ... even when they have met (the rule names the
  pairs). Stage `last` (XW-8: the last qualifying game's cap). §2 also allows King of the Hill
  for the last two games ("เกมคัดเลือกเกมสุดท้ายหรือ 2 เกมสุดท้าย"): option `koth_rounds` 2 makes
  game 5 King of the Hill too (instead of the change-over).
- Round 7, the final (§2 "ผู้ที่ได้คะแนนสูงสุด 2 อันดับแรกในรอบคัดเลือก จะได้เข้าสู่รอบชิงชนะเลิศ ...
  ผู้ที่มีคะแนนเป็นลำดับที่ 3 และ 4 ในรอบคัดเลือก จะเข้าไปชิงอันดับที่ 3"): the qualifying ranking's
  1st v 2nd on table 1 (note "final"), 3rd v 4th on table 2 (note "third place"), both stage `final`
  (XW-8 §3.10.4: no cap). Nobody else plays. The seed gives the final one session (15.00-16.30), so
  one game each.

Ranking everywhere: game points, then cumulative spread (XW-7), then entry order (`swiss.ranking`).
Options (`EventState.options`): `table_group` (int, default 2), `koth_rounds` (1 or 2, default 1).

Sudoku ("sudoku", seed 000 §1 and §2 "ประเภทซูโดกุ – จะแข่งขันรวมด้วยปริศนาที่กำหนดให้แบบเดียวกัน":
all competitors solve the same puzzles at the same time): nobody is paired against anybody. A
round's draft is a seating: two competitors per clock (the clock is a round timer with one finish
button each, SU-1), in entry order, table by table; with an odd number the last clock has one
competitor -- a board with `right` None and the note "alone", which is **not a bye** (Sudoku has
none; a publisher must not record one). Rounds 1 and 2 are the qualifying rounds (SU-1; option
`qualifying_rounds`); round 3 is the final (SU-4: "ผู้ที่ได้คะแนนสูงสุด 5 อันดับแรกในรอบคัดเลือก จะได้
เข้าสู่รอบชิงชนะเลิศ", the top five; option `finalists`), stage `final`, seated by rank. The
qualifying score is the sum of each competitor's `Game.left_score`/`right_score` (the puzzles' points
plus the SU-3 bonus) over the qualifying rounds; equal totals at fifth place all go through (§2's
"5 อันดับแรก" is the first five places, and a shared fifth is one of them; the seed gives no
tie-break) and the draft's notes say the organiser must decide. The results feeding it carry no
winner: `event.games_of` takes each seated competitor's final score (a competitor alone at a clock
included, whose record names nobody).
"""
from __future__ import annotations

import random

from gameclock.organiser.pairing.model import (
    Board,
    EventState,
    Game,
    PairingError,
    RoundDraft,
    note,
    system,
)
from gameclock.organiser.pairing.swiss import (
    Sides,
    opponents,
    pair_brackets,
    ranking,
    repeats_in,
    seat,
    swiss_boards,
    take_bye,
)

XW10_QUALIFYING = 6      # XW-10: games 1-6, then the final
SU_QUALIFYING = 2        # SU-1: two rounds
SU_FINALISTS = 5         # SU-4


def _int_option(state: EventState, name: str, default: int, low: int, high: int) -> int:
    value = state.options.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PairingError(f"option {name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def xw10_kind(round_no: int, koth_rounds: int = 1) -> str:
    """What XW-10 round `round_no` is: random | swiss | changeover | koth | final."""
    if round_no == 1:
        return "random"
    if round_no == XW10_QUALIFYING + 1:
        return "final"
    if round_no > XW10_QUALIFYING - koth_rounds:
        return "koth"
    return "swiss" if round_no % 2 == 0 else "changeover"


def _result(g: Game, pid: str) -> int:
    """0 win (a bye too, XW-9), 1 draw, 2 loss: `pid`'s result in `g`."""
    own = g.left_points if pid == g.left else g.right_points
    return 0 if own > 0.5 else 1 if own == 0.5 else 2


def _random_boards(state: EventState, seed: int) -> tuple[list[Board], list[str]]:
    drawn = [p.id for p in state.players]
    random.Random(seed).shuffle(drawn)
    boards = [Board(t, drawn[2 * t - 2], drawn[2 * t - 1]) for t in range(1, len(drawn) // 2 + 1)]
    notes: list[str] = [note("game 1 drawn at random, seed {seed} (XW-10, seed 000 §1)", seed=seed)]
    if len(drawn) % 2:
        boards.append(Board(len(boards) + 1, drawn[-1], None, note="bye"))  # a bye after the last table
        notes.append(note("bye: {player}, the last drawn (XW-9)", player=drawn[-1]))
    return boards, notes


def _changeover_boards(state: EventState, round_no: int, played: list[Game],
                       size: int) -> tuple[list[Board], list[str]]:
    before = [g for g in played if g.round == round_no - 1]
    if not before:
        raise PairingError(f"game {round_no} changes over at the tables of game {round_no - 1} (XW-10): "
                           f"no results of game {round_no - 1}")
    order = ranking(state, played)
    rank = {p: i for i, p in enumerate(order)}
    bye, rest, notes = take_bye(order, played)
    last_table = max((g.table for g in before if g.right is not None), default=0)
    group: dict[str, int] = {}
    result: dict[str, int] = {}
    for g in before:
        table = g.table if g.right is not None else last_table
        for pid in (g.left, g.right):
            if pid is not None:
                group[pid] = (max(table, 1) - 1) // size
                result[pid] = _result(g, pid)
    # a late entry (issue 26) had no board in the game before: they join the last group, as the bye's
    # player does, their missed game no win (docs/rules.md §9: the rounds missed score nothing)
    missing = [p for p in rest if p not in group]
    last_group = max(group.values(), default=0)
    for pid in missing:
        group[pid], result[pid] = last_group, 2
    groups: dict[int, list[str]] = {}
    for pid in rest:
        groups.setdefault(group[pid], []).append(pid)
    order_in = []           # (group, result, rank) order, odd groups passing their lowest on
    carry: str | None = None
    for gi in sorted(groups):
        members = groups[gi] + ([carry] if carry is not None else [])
        members.sort(key=lambda p: (result[p], rank[p]))
        carry = None
        if len(members) % 2:
            carry = members.pop()
            group[carry] = gi + 1 if gi != max(groups) else gi
        for pid in members:
            group[pid] = gi
        order_in += members
    if carry is not None:   # cannot happen: the count is even once the bye is out
        order_in.append(carry)
    met = opponents(played)
    pairs = pair_brackets(order_in, {p: (group[p], result[p]) for p in order_in}, met)
    notes.insert(0, note("game {round}: winners meet winners and losers meet losers within table groups of {size} "
                         "tables of game {before} (XW-10, seed 000 §1)", round=round_no, size=size, before=round_no - 1))
    notes += [note("{player} had no board in game {before} (a late entry): they join the last table group",
                   player=pid, before=round_no - 1) for pid in missing]
    notes += [note("repeat pairing, none avoidable: {a} v {b}", a=a, b=b) for a, b in repeats_in(pairs, met)]
    if bye is not None:
        notes.append(note("bye: {player}, the lowest-ranked without one (XW-9)", player=bye))
    # tables: group by group, in the order the pairs were made (the winners' pair first)
    side = Sides(order, played)
    boards = [Board(table, *side.of(a, b)) for table, (a, b) in enumerate(pairs, start=1)]
    if bye is not None:
        boards.append(Board(len(boards) + 1, bye, None, note="bye"))  # a bye after the last table
    return boards, notes


def _koth_boards(state: EventState, played: list[Game], stage: str) -> tuple[list[Board], list[str]]:
    order = ranking(state, played)
    bye, rest, notes = take_bye(order, played)
    pairs = [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    notes.insert(0, note("King of the Hill: 1 v 2, 3 v 4, ... by rank (XW-10, seed 000 §2)"))
    notes += [note("rematch (King of the Hill pairs by rank): {a} v {b}", a=a, b=b)
              for a, b in repeats_in(pairs, opponents(played))]
    if bye is not None:
        notes.append(note("bye: {player}, the lowest-ranked without one (XW-9)", player=bye))
    return seat(pairs, order, played, bye, stage), notes


def _final_boards(state: EventState, played: list[Game]) -> tuple[list[Board], list[str]]:
    order = ranking(state, played)
    if len(order) < 2:
        raise PairingError("the final needs two players (XW-10)")
    side = Sides(order, played)
    boards = [Board(1, *side.of(order[0], order[1]), stage="final", note="final")]
    notes: list[str] = [note("final: {a} v {b}, the qualifying's top two (XW-10, seed 000 §2); no cap (XW-8)", a=order[0],
                  b=order[1])]
    if len(order) >= 4:
        boards.append(Board(2, *side.of(order[2], order[3]), stage="final", note="third place"))
        notes.append(note("third place: {a} v {b} (XW-10, seed 000 §2)", a=order[2], b=order[3]))
    return boards, notes


@system("xw10")
def pair_xw10(state: EventState, round_no: int, seed: int) -> RoundDraft:
    """Round `round_no` of XW-10 (module docstring)."""
    size = _int_option(state, "table_group", 2, 2, 1000)
    koth = _int_option(state, "koth_rounds", 1, 1, 2)
    if not 1 <= round_no <= XW10_QUALIFYING + 1:
        raise PairingError(f"XW-10 has {XW10_QUALIFYING} games and the final: no round {round_no}")
    if not state.players:
        raise PairingError("no players to pair")
    played = [g for g in state.games if g.round < round_no]
    kind = xw10_kind(round_no, koth)
    if kind == "random":
        boards, notes = _random_boards(state, seed)
    elif kind == "swiss":
        boards, notes = swiss_boards(state, played)
        notes.insert(0, note("game {round}: Swiss by points and spread (XW-10, seed 000 §1-2)", round=round_no))
    elif kind == "changeover":
        boards, notes = _changeover_boards(state, round_no, played, size)
    elif kind == "koth":
        boards, notes = _koth_boards(state, played, "last" if round_no == XW10_QUALIFYING else "qualifying")
    else:
        boards, notes = _final_boards(state, played)
    return RoundDraft(round_no, "xw10", seed, tuple(boards), tuple(notes))


# ------------------------------------------------------------------------------------------- Sudoku
def sudoku_totals(games: list[Game]) -> dict[str, int]:
    """Each competitor's score over `games` (SU-2 points plus the SU-3 bonus, per side)."""
    out: dict[str, int] = {}
    for g in games:
        out[g.left] = out.get(g.left, 0) + g.left_score
        if g.right is not None:
            out[g.right] = out.get(g.right, 0) + g.right_score
    return out


def _seating(ids: list[str], stage: str) -> list[Board]:
    boards = [Board(t, ids[2 * t - 2], ids[2 * t - 1], stage=stage, note="two competitors")
              for t in range(1, len(ids) // 2 + 1)]
    if len(ids) % 2:
        boards.append(Board(len(ids) // 2 + 1, ids[-1], None, stage=stage, note="alone"))
    return boards


@system("sudoku")
def pair_sudoku(state: EventState, round_no: int, seed: int) -> RoundDraft:
    """Round `round_no` of a Sudoku event: a seating, not pairings (module docstring)."""
    qualifying = _int_option(state, "qualifying_rounds", SU_QUALIFYING, 1, 20)
    finalists = _int_option(state, "finalists", SU_FINALISTS, 1, 1000)
    if not state.players:
        raise PairingError("no competitors to seat")
    entry = [p.id for p in state.players]
    if 1 <= round_no <= qualifying:
        notes = [note("qualifying round {round}: everyone solves the same puzzles at once, two competitors a clock, "
                      "not opponents (SU-1, seed 000 §2)", round=round_no)]
        return RoundDraft(round_no, "sudoku", seed, tuple(_seating(entry, "qualifying")), tuple(notes))
    if round_no != qualifying + 1:
        raise PairingError(f"Sudoku has {qualifying} qualifying rounds and the final: no round {round_no}")
    total = sudoku_totals([g for g in state.games if g.round <= qualifying])
    place = {p: i for i, p in enumerate(entry)}
    ranked = sorted(entry, key=lambda p: (-total.get(p, 0), place[p]))
    cut = total.get(ranked[min(finalists, len(ranked)) - 1], 0)
    chosen = [p for p in ranked if total.get(p, 0) >= cut]
    notes = [note("final: the top {n} of the qualifying rounds (SU-4, seed 000 §2)", n=finalists)]
    if len(chosen) > finalists:
        tied = [p for p in chosen if total.get(p, 0) == cut]
        notes.append(note("{players} share the last place in the final with {score}: all are seated, the organiser "
                          "must decide (the seed gives no tie-break)", players=", ".join(tied), score=cut))
    return RoundDraft(round_no, "sudoku", seed, tuple(_seating(chosen, "final")), tuple(notes))
