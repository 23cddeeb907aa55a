"""The final classification of an event the PC pairs (issue 25): who finished where by the event's
system, the medals, and what is still provisional.

    fc = classify(store, "xw-open")        # -> Classification: rows best first, notes, what is awaited

It reads only what the event published and what the clocks sent: the event (system, options, players,
the lot it keeps), its published rounds' boards (each board's stage and note, as the pairing systems
write them: "final", "third place", "group A, game 1 of 4", "alone" ...) and the stored results
(`Store.summaries`, amendments applied). It never redoes a draw: a knockout's bracket is the one the
event keeps, read as its pairing system reads it.

- **xw10** (XW-10, seed 000 §1-2): the qualifying standings (XW-6, XW-7, XW-9; stages qualifying and
  last) until the final round; the final (board noted "final") decides places 1 and 2 and the game for
  third place ("third place") places 3 and 4: its winner by game points; a drawn final (the seed is
  silent) leaves the higher qualifier ahead. Everyone else keeps the qualifying order from place 5.
  Medals (XW-11): by the medal score's band, gold 80-100, silver 70-79, bronze 60-69, below 60 a
  certificate; "for the last four the committee decides" (seed 000 §2: ส่วน 4 ทีมสุดท้าย ... เป็นไปตาม
  ดุลยพินิจของกรรมการ): the four of the final stage get no band here, `committee` says so. An event
  of fewer rounds (its `rounds` 1-6) plays that many qualifying games and no final stage: its places
  are the qualifying standings, decided once those rounds are played, every medal XW-11's band.
- **sudoku** (SU-4, seed 000 §2): places by the qualifying total; once the final (round qualifying+1,
  stage final) is played, the finalists are placed first by the final's score (the seed gives no rule:
  our decision, docs/rules.md), equal final scores by the qualifying total, then shared. Medals: seed
  000 §2's bands are percentages ("ร้อยละ 80-100"); for Sudoku that is the qualifying total out of the
  event's full marks (option `full_marks`), without it no medal is given and a note says why.
- **knockouts** (makruk-ko MR-12, makhos-ko MH-8, makhos-ko-003 seed 003): the bracket as the event's
  pairing system reads it to pair the next round (`event.knockout_of`: the lot the event keeps, each
  match decided by its system's rule over the stored games -- pairing/knockout.py `mr12`,
  pairing/makhos.py `mh8`, `mh8_003` --, the lots drawn at the venue (option `lots`) or kept by the
  draw), and its places (`knockout.placings`). Nothing is drawn here: a tie due for its lot waits for
  the next Pair (the final's too: the Pair that finds it tied draws it and the event keeps it). Places:
  the final's winner 1, its loser 2; a third-place match (option `third_place`) gives 3 and 4 (until it
  is decided the semi-finals' losers are both third, provisionally), else the semi-finals' losers share
  3 (seeds 003 and 004 play none); the losers of an earlier stage share the place after those still in
  then (quarter-finals =5, the round of 16 =9). A player still in the bracket has no place yet.
- **makhos-groups** (MH-7, seed 004 §3.9.1): each group (the boards' "group X" notes) ranked by the
  Makhos standings' MH-7 order within it; a place level on every method is shared and provisional: the
  committee decides (ค.(4)). One group: that is the event's classification. Several: the places are in
  each group, and no medals (the groups qualify for a knockout).
- **the others** (makruk-rr MR-10, makruk-team MR-11, dutch): the standings' order; decided once the
  round robin's rounds (or the event's `rounds`) are all published and played.

Medals by place (gold 1, silver 2, bronze 3, a shared third all bronze) where the seeds give no band:
Makruk and Makhos events (our decision, docs/rules.md). A row is `provisional` while its place or
its medal may still change: the table's games not all played, the final to come.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from gameclock.organiser.csvcells import csv_header, csv_line
from gameclock.organiser.event import ALONE, player_of, published_rounds
from gameclock.organiser.pairing import model
from gameclock.organiser.standings.crossword import medal
from gameclock.organiser.standings.games import Bye, Game, games_from_summaries
from gameclock.organiser.standings.table import PROVISIONAL, Standings
from gameclock.organiser.store import Store
from gameclock.words import note, words

GOLD, SILVER, BRONZE, CERTIFICATE = "gold", "silver", "bronze", "certificate"
PLACE_MEDALS = {1: GOLD, 2: SILVER, 3: BRONZE}
KNOCKOUTS = ("makruk-ko", "makhos-ko", "makhos-ko-003")
# an MH-7 board's note: "group A, game 1 of 4", "group A, round 2 of 3, game 1 of 4", "group A: bye"
GROUP_NOTE = re.compile(r"group (.+?)(?:, (?:round|game) \d+ of \d+|: bye)")


@dataclass
class Place:
    """One row of the classification: a player (or a team, MR-11) and where they finished."""
    player: str                    # the name the clocks know (the standings' key), or the team
    pid: str | None = None         # the event's player id (None for a team)
    rank: int | None = None        # None: no place yet (still in a knockout, nothing played)
    shared: bool = False
    stage: str = ""                # what placed them: final, third place, semi-final, qualifying, group, standings
    level: str = ""                # XW-8 level (primary, secondary), "" when none
    group: str = ""                # MH-7 group, "" when none
    medal: str | None = None       # gold, silver, bronze, certificate; None: none (or the committee's)
    committee: bool = False        # XW-11: the committee decides this medal (the last four)
    figures: dict[str, Any] = field(default_factory=dict)   # the standings' figures shown beside (GP, Total ...)
    provisional: bool = False      # the place or the medal may still change

    @property
    def stage_words(self) -> Said:
        return stage_words(self.stage)

    @property
    def place(self) -> str:
        """"3", "=3", or "" without a place."""
        if self.rank is None:
            return ""
        return f"={self.rank}" if self.shared else str(self.rank)


@dataclass(frozen=True)
class Said:
    """Words for people in any language: `text` an English template with `{name}` fields, `values` their
    values (text, whole numbers, or Said said in the same language). `str(s)` says it in English;
    `s.say(tr)` with `tr` the template's translation (the desk's `i18n.tr`) -- the protocol of the
    drafts' words (pairing/model.py Words), so a page says either the same way."""
    text: str
    values: tuple[tuple[str, Any], ...] = ()

    def say(self, tr: Callable[[str], str] = str) -> str:
        return tr(self.text).format(**{k: v.say(tr) if isinstance(v, Said) else v for k, v in self.values})

    def __str__(self) -> str:
        return self.say()


def said(text: str, **values: Any) -> Said:
    return Said(text, tuple(values.items()))


STAGE_NUMBERED = re.compile(r"(semi-final|quarter-final) (\d+)")
STAGE_ROUND = re.compile(r"round (\d+)(?: match (\d+))?")


def stage_words(name: str) -> Said:
    """A stage's or a match's name as words: "semi-final 2" is "semi-final {n}", "round 3 match 1" is
    "round {stage} match {n}", "round 2" (an early stage) "round {round}"; other names as they are."""
    m = STAGE_NUMBERED.fullmatch(name)
    if m:
        return said(m.group(1) + " {n}", n=int(m.group(2)))
    m = STAGE_ROUND.fullmatch(name)
    if m:
        return (said("round {stage} match {n}", stage=int(m.group(1)), n=int(m.group(2))) if m.group(2)
                else said("round {round}", round=int(m.group(1))))
    return said(name)


@dataclass
class Classification:
    event: str
    system: str
    rules: list[str]
    rows: list[Place]
    decided: bool                                   # every place and medal is final
    waiting: list[Said] = field(default_factory=list)   # what is still to be played
    notes: list[str] = field(default_factory=list)
    medals: str = "place"                           # "score" (XW-11), "percent" (Sudoku), "place", "" none

    def row(self, player: str) -> Place:
        return next(r for r in self.rows if r.player == player)


# ------------------------------------------------------------------------------------------ the event
@dataclass
class Event:
    """An event as the classification reads it (`load`)."""
    ev: dict[str, Any]
    players: dict[str, model.Player]     # by id, list order (withdrawn ones too)
    withdrawn: set[str]
    published: list[dict[str, Any]]
    games: list[Game]                    # the event's results; lone Sudoku seats named (`name_lone_seats`)
    byes: list[Bye]
    by_name: dict[str, str] = field(default_factory=dict)   # name -> id (the clocks know players by name)

    def __post_init__(self) -> None:
        self.by_name = {p.name: pid for pid, p in self.players.items()}

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.ev.get("options") or {})

    def pid(self, name: str | None) -> str | None:
        return self.by_name.get(name or "")

    def name(self, pid: str) -> str:
        return self.players[pid].name

    def level(self, pid: str | None) -> str:
        p = self.players.get(pid or "")
        return (p.level if p is not None and p.level else "") or str(self.ev.get("level") or "")

    def boards(self) -> list[tuple[int, dict[str, Any]]]:
        """(round, board) of every published board."""
        return [(r["round"], b) for r in self.published for b in r["boards"]]


def name_lone_seats(games: Iterable[Game], published: Sequence[Mapping[str, Any]],
                    names: Mapping[str, str]) -> list[Game]:
    """The games with a lone Sudoku competitor's record named: a board noted ALONE (nothing was pushed to
    its clock, so its record names nobody) gives its player's name to the side that scored (an empty seat
    scores nothing; the left when both or neither did), as `event.games_of` reads it. `names`: id -> name."""
    lone = {(r["round"], b["table"]): names.get(b["left"], "") for r in published for b in r["boards"]
            if b["right"] is None and b["note"] == ALONE}
    out = []
    for g in games:
        who = lone.get((g.round or 0, g.table or 0))
        if who and not any(g.players.values()):
            final = g.scores or {}
            side = "right" if (final.get("right") or 0) > (final.get("left") or 0) else "left"
            g = replace(g, players={**g.players, side: who})
        out.append(g)
    return out


def load(store: Store, name: str) -> Event | None:
    """The event `name` the PC pairs, or None (results only: the PC does not know its schedule)."""
    ev = store.event(name)
    if ev is None:
        return None
    plist = store.event_players(name)
    players = {p["id"]: player_of(p) for p in plist}
    published = published_rounds(store, name)
    games = name_lone_seats(games_from_summaries(store.summaries(event=name)), published,
                            {pid: p.name for pid, p in players.items()})
    byes = [Bye(b["event"], b["round"], b["player"]) for b in store.byes(name)]
    return Event(ev, players, {p["id"] for p in plist if p["withdrawn"]}, published, games, byes)


def _has_result(g: Game) -> bool:
    if g.kind == "sudoku":
        return any(v is not None for v in (g.scores or {}).values())
    return g.winner is not None


def missing_results(e: Event, rounds: Iterable[int] | None = None, players: Iterable[str] | None = None) -> list[Said]:
    """The published boards (of `rounds`, of `players`' ids: default all) without a result: "round 3
    table 2" (" game 2" when a table holds a match's games)."""
    wanted = None if rounds is None else set(rounds)
    whose = None if players is None else set(players)
    have = {(g.round, g.table, g.game) for g in e.games if _has_result(g)}
    out = []
    for rnd, b in e.boards():
        if wanted is not None and rnd not in wanted or whose is not None and b["left"] not in whose:
            continue
        if b["right"] is None and b["note"] != ALONE:
            continue   # a bye: nothing to play
        if (rnd, b["table"], b["game"]) not in have:
            out.append(said("round {round} table {table}", round=rnd, table=b["table"]) if b["game"] == 1 else
                       said("round {round} table {table} game {game}", round=rnd, table=b["table"], game=b["game"]))
    return out


def _preset(e: Event, games: Sequence[Game]) -> Any:
    """The rule file the event's games are scored by: the event's preset, else the one most of its games
    used (as `gameclock standings` picks it); None when neither can be read."""
    from gameclock.rules.loader import RuleError, find_preset

    used = Counter(g.preset for g in games if g.preset)
    for pid in ([e.ev["preset"]] if e.ev.get("preset") else []) + sorted(used, key=lambda p: (-used[p], p)):
        try:
            return find_preset(pid)
        except RuleError:
            continue
    return None


def _int_option(e: Event, key: str, default: int) -> int:
    value = e.options.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else default


def _rerank(rows: list[Place], key: Callable[[Place], tuple[Any, ...]], start: int) -> None:
    """Places `start`, `start` + 1 ... to `rows` (already in order) by `key`: equal keys share a place."""
    for i, r in enumerate(rows):
        if i and key(r) == key(rows[i - 1]):
            r.rank = rows[i - 1].rank
            r.shared = rows[i - 1].shared = True
        else:
            r.rank, r.shared = start + i, False


def _place_medals(rows: Iterable[Place]) -> None:
    for r in rows:
        r.medal = PLACE_MEDALS.get(r.rank or 0)


def _unplaced(e: Event, rows: list[Place], stage: str = "") -> list[Place]:
    """The event's players who are in none of `rows` and have not withdrawn: no place yet."""
    seen = {r.player for r in rows}
    return [Place(p.name, pid, stage=stage, level=e.level(pid), provisional=True)
            for pid, p in e.players.items() if p.name not in seen and pid not in e.withdrawn]


# ------------------------------------------------------------------------------------------ entry point
def classify(store: Store, name: str) -> Classification | None:
    """The final classification of event `name` (module doc); None for an event the PC does not pair."""
    e = load(store, name)
    if e is None:
        return None
    system = e.ev["system"]
    if system == "xw10":
        return _xw10(e)
    if system == "sudoku":
        return _sudoku(e)
    if system in KNOCKOUTS:
        return _knockout(store, e)
    if system == "makhos-groups":
        return _groups(e)
    return _table(e)


# ------------------------------------------------------------------------------------------ XW-10
def _xw10(e: Event) -> Classification:
    from gameclock.organiser.pairing.crossword import XW10_QUALIFYING
    from gameclock.organiser.standings.crossword import standings as xw_standings

    qualifying = [g for g in e.games if g.stage != "final"]
    final_round = XW10_QUALIFYING + 1
    # an event of fewer rounds (its `rounds`, 1-6: the desk's New event, `--rounds`) plays that many
    # qualifying games and no final stage: XW-10's final comes after the six, and Pair stops at `rounds`
    planned = int(e.ev.get("rounds") or 0)
    short = 0 < planned <= XW10_QUALIFYING
    last = planned if short else XW10_QUALIFYING
    waiting = missing_results(e, range(1, last + 1))
    played = {r["round"] for r in e.published if r["round"] <= last}
    waiting += [said("round {round}", round=r) for r in range(1, last + 1) if r not in played]
    qualified = not waiting
    notes: list[str] = []
    preset = _preset(e, qualifying)
    rows: list[Place] = []
    if preset is not None and qualifying:
        st = xw_standings(qualifying, [b for b in e.byes if b.round < final_round], preset, event=e.ev["name"])
        notes += [n for n in st.notes if not n.startswith(("XW-11: the medal level", "XW-11: a medal is provisional"))]
        for sr in st.rows:
            v = sr.values
            rows.append(Place(sr.player, e.pid(sr.player), sr.rank, sr.shared, "qualifying", e.level(e.pid(sr.player)),
                              medal=v["Medal"], figures={"GP": v["GP"], "Spread": v["Spread"],
                                                         "Medal score": v["Medal score"]},
                              provisional=not qualified))
    rows += _unplaced(e, rows, "qualifying")
    if short:   # no final stage: the qualifying standings are the places, XW-11's bands the medals for all
        notes.append(note("XW-10: an event of {rounds} rounds plays {rounds} qualifying games and no final: the places "
                          "are the qualifying standings (XW-7)", rounds=planned))
        return Classification(e.ev["name"], "xw10", ["XW-7", "XW-9", "XW-10", "XW-11"], rows, not waiting,
                              waiting, notes, medals="score")
    # the final stage: the boards noted "final" and "third place" of the published final round
    stage_boards = {b["note"]: b for rnd, b in e.boards() if rnd == final_round and b["note"] in ("final",
                                                                                                  "third place")}
    by_name = {r.player: r for r in rows}
    order = {r.player: i for i, r in enumerate(rows)}     # the qualifying order (entry order when level)
    top: list[Place] = []
    if stage_boards:
        final_waiting: list[Said] = []
        for stage, first in (("final", 1), ("third place", 3)):
            b = stage_boards.get(stage)
            if b is None:
                continue
            a, c = e.name(b["left"]), e.name(b["right"])
            winner = _match_winner([g for g in e.games if g.round == final_round and g.stage == "final"
                                    and {g.players.get("left"), g.players.get("right")} == {a, c}], a, c)
            pair = sorted((a, c), key=lambda p: order.get(p, len(order)))
            if winner is None:
                final_waiting.append(said("the final (round {round} table {table})" if stage == "final" else
                                          "the game for third place (round {round} table {table})",
                                          round=final_round, table=b["table"]))
            elif winner == "draw":
                notes.append(note("XW-10: the {stage} was drawn: the higher qualifier, {player}, takes place {place} (the "
                                  "seed is silent)", stage=words("final") if stage == "final" else words("third place"),
                                  player=pair[0], place=first))
            else:
                pair = [winner, c if winner == a else a]
            for k, p in enumerate(pair):
                row = by_name.get(p) or Place(p, e.pid(p), level=e.level(e.pid(p)))
                row.rank, row.shared, row.stage = first + k, False, stage
                row.provisional = winner is None
                top.append(row)
        waiting += final_waiting
    else:
        waiting.append(said("round {round} (the final and the game for third place)", round=final_round))
        top = [r for r in rows if r.rank is not None and r.rank <= 4][:4]   # the qualifying's top four, for now
        for r in top:
            r.provisional = True
    rest = [r for r in rows if r not in top]
    _rerank([r for r in rest if r.rank is not None], lambda r: (r.figures["GP"], r.figures["Spread"]),
            len(top) + 1)
    for r in top:   # XW-11: the committee decides the medal of the four of the final stage
        r.committee, r.medal = True, None
    rows = sorted(top, key=lambda r: r.rank or 0) + rest
    if top:
        notes.append(note("XW-11: the medal of the four who play the final stage is the committee's decision ({players})",
                          players=", ".join(r.player for r in top)))
    return Classification(e.ev["name"], "xw10", ["XW-7", "XW-9", "XW-10", "XW-11"], rows, not waiting,
                          waiting, notes, medals="score")


def _match_winner(games: Sequence[Game], a: str, b: str) -> str | None:
    """The winner of the games between `a` and `b` by game points (win 2, draw 1: XW-6, MR-9, MH-7),
    "draw" when level, None when none is played."""
    scored = [g for g in games if g.winner is not None]
    if not scored:
        return None
    pts = {"win": 2, "draw": 1, "loss": 0}
    pa = sum(pts[g.result_of(a)] for g in scored)
    pb = sum(pts[g.result_of(b)] for g in scored)
    return "draw" if pa == pb else a if pa > pb else b


# ------------------------------------------------------------------------------------------ Sudoku
def _sudoku(e: Event) -> Classification:
    from gameclock.organiser.pairing.crossword import SU_QUALIFYING
    from gameclock.organiser.standings.sudoku import standings as su_standings

    qualifying_rounds = _int_option(e, "qualifying_rounds", SU_QUALIFYING)
    final_round = qualifying_rounds + 1
    qualifying = [g for g in e.games if g.stage != "final" and (g.round or 0) <= qualifying_rounds]
    waiting = missing_results(e, range(1, final_round))
    played = {r["round"] for r in e.published}
    waiting += [said("round {round}", round=r) for r in range(1, final_round) if r not in played]
    qualified = not waiting
    st = su_standings(qualifying, [], None, event=e.ev["name"])
    notes = [n for n in st.notes if not n.startswith("final stage")]
    full = e.options.get("full_marks")
    full_marks = full if isinstance(full, int) and not isinstance(full, bool) and full > 0 else None
    rows = [Place(sr.player, e.pid(sr.player), sr.rank, sr.shared, "qualifying", e.level(e.pid(sr.player)),
                  figures={"Total": sr.values["Total"]}, provisional=not qualified) for sr in st.rows]
    rows += _unplaced(e, rows, "qualifying")
    finalists = [e.name(pid) for rnd, b in e.boards() if rnd == final_round for pid in (b["left"], b["right"])
                 if pid is not None]
    if finalists:
        score: dict[str, int] = {}
        for g in e.games:
            if g.round != final_round:
                continue
            for side in ("left", "right"):
                who, value = g.players.get(side), (g.scores or {}).get(side)
                if who and value is not None:
                    score[who] = score.get(who, 0) + value
        done = not missing_results(e, [final_round])
        if not done:
            waiting.append(said("round {round} (the final)", round=final_round))
        by_name = {r.player: r for r in rows}
        top = [by_name.get(p) or Place(p, e.pid(p), level=e.level(e.pid(p))) for p in finalists]
        total = {r.player: r.figures.get("Total") or 0 for r in top}
        if done:   # our decision: the final's score, then the qualifying total (the seed is silent)
            top.sort(key=lambda r: (-score.get(r.player, 0), -total[r.player]))
            for r in top:
                r.stage, r.figures["Final round"] = "final", score.get(r.player, 0)
            _rerank(top, lambda r: (score.get(r.player, 0), total[r.player]), 1)
        else:
            top.sort(key=lambda r: -total[r.player])
            _rerank(top, lambda r: (total[r.player],), 1)
        for r in top:
            r.provisional = not done
        rest = [r for r in rows if r not in top]
        _rerank([r for r in rest if r.rank is not None], lambda r: (r.figures["Total"],), len(top) + 1)
        rows = top + rest
    else:
        waiting.append(said("round {round} (the final)", round=final_round))
        for r in rows:
            r.provisional = True
    if full_marks is None:
        notes.append(note("seed 000 §2's medal bands are percentages (gold 80-100, silver 70-79, bronze 60-69): give the "
                          "event's full marks (option full_marks) for the Sudoku medals"))
    else:
        for r in rows:
            got = r.figures.get("Total")
            if got is not None:
                percent = got * 100 // full_marks
                r.figures["%"] = percent
                r.medal = medal(percent)
    return Classification(e.ev["name"], "sudoku", ["SU-2", "SU-3", "SU-4"], rows, not waiting, waiting, notes,
                          medals="percent" if full_marks is not None else "")


# ------------------------------------------------------------------------------------------ knockouts
def _stage_of(stage: int, stages: int) -> str:
    """The stage a player went out in, by the bracket's round `stage` of `stages` (as Place.stage says it)."""
    left = stages - stage
    return "final" if left == 0 else "semi-final" if left == 1 else "quarter-final" if left == 2 else f"round {stage}"


def _knockout(store: Store, e: Event) -> Classification:
    """A knockout's places (module doc): the bracket as the event's pairing system reads it
    (`event.knockout_of`: the kept lot, the published rounds' results, the lots kept or drawn at the
    venue) and its places (`knockout.placings`); nothing is drawn here."""
    from gameclock.organiser.event import EventError, knockout_of
    from gameclock.organiser.pairing.knockout import Decided, LotDue, placings

    system = e.ev["system"]
    rules = {"makruk-ko": ["MR-12"], "makhos-ko": ["MH-8"], "makhos-ko-003": ["MH-8"]}[system]
    still = [Place(p.name, pid, None, stage="in play", level=e.level(pid), provisional=True)
             for pid, p in e.players.items() if pid not in e.withdrawn]
    try:
        br = knockout_of(store, e.ev["name"])
    except EventError as exc:   # a result whose players are not its table's: to correct (an amendment)
        return Classification(e.ev["name"], system, rules, still, False, [said("the results to correct: {what}",
                                                                               what=str(exc))])
    if br is None:              # round 1 not published: the bracket is not drawn yet
        return Classification(e.ev["name"], system, rules, still, False, [said("round {round}", round=1)])
    out_in = {m.loser: m for m in br.matches if m.loser is not None and m.name != "third place"}
    final = next(m for m in br.matches if m.name == "final")
    third = next((m for m in br.matches if m.name == "third place"), None)
    # a stage's losers share its place (a bye loses nobody): shared from the first of them on
    matches_of = Counter(m.round for m in br.matches if m.name != "third place"
                         and not (isinstance(m.outcome, Decided) and m.outcome.reason == "bye"))
    rows: dict[str, Place] = {}

    def put(pid: str, rank: int, stage: str, shared: bool, provisional: bool = False) -> None:
        rows[pid] = Place(e.name(pid), pid, rank, shared, stage, e.level(pid), provisional=provisional)

    for rank, ids in placings(br):
        for pid in ids:
            if final.winner is not None and pid in (final.a, final.b):
                put(pid, rank, "final", False)
            elif third is not None and third.winner is not None and pid in (third.a, third.b):
                put(pid, rank, "third place", False)
            else:
                m = out_in[pid]
                put(pid, rank, _stage_of(m.round, br.stages), len(ids) > 1 or matches_of[m.round] > 1)
    if third is not None and third.winner is None:
        # the semi-finals' losers play for third place: both third, provisionally, until it is decided
        for m in br.matches:
            if m.round == br.stages - 1 and m.name != "third place" and m.loser is not None:
                put(m.loser, 3, "semi-final", True, provisional=True)
    placed = sorted(rows.values(), key=lambda r: (r.rank or 0, r.player))
    _place_medals(placed)
    still = [r for r in still if r.pid not in rows]
    waiting: list[Said] = []
    notes: list[str] = []
    for m in br.matches:
        if m.a is not None and m.b is not None and m.winner is None:
            waiting.append(said("{match}: {a} v {b}", match=stage_words(m.name), a=e.name(m.a), b=e.name(m.b)))
        elif m.a is None and m.b is None and m.name == "final":
            waiting.append(said("the final"))
        elif m.a is None and m.b is None and m.name == "third place":
            waiting.append(said("the match for third place"))
        if isinstance(m.outcome, LotDue):
            notes.append(note("{match}: {why}: lots decide (the next Pair draws them, or option 'lots')",
                              match=m.title or m.name, why=m.outcome.why))
        elif isinstance(m.outcome, Decided) and m.outcome.reason not in ("games", "bye"):
            o, match, winner = m.outcome, m.title or m.name, e.name(m.outcome.winner)
            notes.append(note("{match}: {winner} through by lot ({detail})", match=match, winner=winner, detail=o.detail)
                         if o.reason == "lot" else
                         note("{match}: {winner} through on time used ({detail})", match=match, winner=winner,
                              detail=o.detail) if o.reason == "time" else
                         note("{match}: {winner} through by {reason} ({detail})", match=match, winner=winner,
                              reason=o.reason, detail=o.detail))
    if third is None and any(r.rank == 3 for r in placed):
        notes.append(note("no match for third place (seeds 003, 004): the semi-finals' losers share third place"))
    return Classification(e.ev["name"], system, rules, placed + still, not waiting and not still, waiting, notes)


# ------------------------------------------------------------------------------------------ MH-7 groups
def _groups(e: Event) -> Classification:
    from gameclock.organiser.standings.makhos import standings as mh_standings

    members: dict[str, list[str]] = {}
    for _, b in e.boards():
        m = GROUP_NOTE.match(b["note"] or "")
        if m is None:
            continue
        seated = members.setdefault(m.group(1), [])
        for pid in (b["left"], b["right"]):
            if pid is not None and pid not in seated:
                seated.append(pid)
    preset = _preset(e, e.games)
    waiting: list[Said] = []
    notes: list[str] = []
    rows: list[Place] = []
    one = len(members) == 1
    for group, ids in sorted(members.items()):
        missing = missing_results(e, players=ids)
        waiting += missing
        names = {e.name(pid) for pid in ids}
        games = [g for g in e.games if g.stage != "final" and {g.players.get("left"), g.players.get("right")} <= names]
        met = {frozenset((e.pid(g.players.get("left")), e.pid(g.players.get("right")))) for g in games}
        unmet = [f"{e.name(a)} v {e.name(b)}" for a, b in combinations(sorted(ids), 2) if frozenset((a, b)) not in met]
        if unmet:
            waiting.append(said("group {group}: {pairs}", group=group,
                                pairs=", ".join(unmet[:4]) + (" ..." if len(unmet) > 4 else "")))
        st: Standings = mh_standings(games, [b for b in e.byes if b.player in names], preset, event=e.ev["name"])
        played_all = not unmet and not missing
        for r in st.rows:
            pid = e.pid(r.player)
            rows.append(Place(r.player, pid, r.rank, r.shared, "group" if not one else "standings",
                              e.level(pid), group=group, figures={k: r.values[k] for k in ("MP", "GP", "Diff")},
                              provisional=not played_all or r.shared))
        notes += [note("group {group}: {note}", group=group, note=n) for n in st.notes if n.startswith("MH-7: place")]
        if any(r.shared for r in st.rows):
            notes.append(note("group {group}: a place level on every MH-7 method is the committee's to decide (seed 004 "
                              "§3.9.1 ค.(4)): provisional until then", group=group))
    if one:
        _place_medals(rows)
    elif members:
        notes.append(note("several groups: the places are each group's (they qualify for the knockout); no medals here"))
    rows += _unplaced(e, rows)
    return Classification(e.ev["name"], "makhos-groups", ["MH-7"], rows, not waiting and bool(members)
                          and not any(r.provisional for r in rows), waiting, notes, medals="place" if one else "")


# ------------------------------------------------------------------------------------------ tables
def _planned_rounds(e: Event) -> int:
    """The rounds the event plays: its `rounds`, else a round robin's (Berger: n-1, n even)."""
    if e.ev.get("rounds"):
        return int(e.ev["rounds"])
    system = e.ev["system"]
    if system in ("makruk-rr", "makruk-team"):
        active = [p for pid, p in e.players.items() if pid not in e.withdrawn]
        n = len({p.team for p in active if p.team}) if system == "makruk-team" else len(active)
        return n + n % 2 - 1 if n >= 2 else 0
    return 0


def _table(e: Event) -> Classification:
    from gameclock.organiser.standings import compute

    system = e.ev["system"]
    planned = _planned_rounds(e)
    waiting = missing_results(e)
    played = {r["round"] for r in e.published}
    notes: list[str] = []
    if planned:
        waiting += [said("round {round}", round=r) for r in range(1, planned + 1) if r not in played]
    else:
        waiting.append(said("the event's number of rounds (it is not set: gameclock event create --rounds)"))
    preset = _preset(e, e.games)
    rows: list[Place] = []
    teams = None
    if system == "makruk-team":
        teams = {p.name: (p.team, p.board) for p in e.players.values() if p.team and p.board}
    if preset is not None and e.games:
        st = compute(e.games, e.byes, preset, event=e.ev["name"], teams=teams)
        for r in st.rows:
            pid = e.pid(r.player)
            figures: dict[str, Any] = {c: r.values[c] for c in ("MP", "GP", "H2H", "Pieces") if c in r.values}
            rows.append(Place(r.player, pid, r.rank, r.shared, "standings", e.level(pid), figures=figures,
                              provisional=bool(waiting)))
        notes += [n for n in st.notes if n.startswith(("MR-10: head-to-head", "MR-11"))]
    if teams is None:
        rows += _unplaced(e, rows, "standings")
    _place_medals(rows)
    return Classification(e.ev["name"], system, {"makruk-rr": ["MR-9", "MR-10"], "makruk-team": ["MR-11"]}.get(
        system, []), rows, not waiting, waiting, notes)


def _columns(fc: Classification) -> tuple[list[str], list[str]]:
    """(the classification's columns after Place and Player, its figures' names in order)."""
    figures = list(dict.fromkeys(k for r in fc.rows for k in r.figures))
    head = (["Group"] if any(r.group for r in fc.rows) else []) + (["Level"] if any(r.level for r in fc.rows) else [])
    return head + ["Placed by", "Medal"] + figures + ["State"], figures


def _medal_text(r: Place) -> str:
    return "committee" if r.committee else r.medal or ""


def _cells(fc: Classification, r: Place, columns: list[str]) -> list[str]:
    known = {"Group": r.group, "Level": r.level, "Placed by": r.stage, "Medal": _medal_text(r),
             "State": PROVISIONAL if r.provisional else ""}
    return [known[c] if c in known else "" if r.figures.get(c) is None else str(r.figures[c]) for c in columns]


def format_final(fc: Classification) -> str:
    """The classification as `gameclock standings --final` prints it: a table (Place, Player, the group
    and level when any, what placed them, the medal -- "committee" where XW-11 leaves it to the
    committee --, the figures, "provisional" where it may still change), then what is awaited and the
    notes."""
    columns, figures = _columns(fc)
    head = ["Place", "Player"] + columns
    body = [[r.place or "-", r.player] + _cells(fc, r, columns) for r in fc.rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]
    right = {0} | {2 + columns.index(f) for f in figures}    # numbers to the right, as `gameclock standings`
    lines = [f"{fc.event}: final standings, {fc.system} ({', '.join(fc.rules)})"
             + ("" if fc.decided else ": provisional")]
    for cells in [head] + body:
        lines.append("  ".join(c.rjust(w) if i in right else c.ljust(w)
                               for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip())
    lines += [f"waiting for: {w}" for w in fc.waiting]
    lines += [f"note: {n}" for n in fc.notes]
    return "\n".join(lines) + "\n"


def format_final_csv(fc: Classification) -> str:
    """The classification for spreadsheets (csvcells.py: text quoted, a formula-like text defused)."""
    columns, _ = _columns(fc)
    out = csv_header(["event", "place", "player"] + columns)
    for r in fc.rows:
        out += csv_line([fc.event, r.place, r.player] + _cells(fc, r, columns))
    return out


def final_dict(fc: Classification) -> dict[str, Any]:
    """The classification as JSON data."""
    return {"event": fc.event, "system": fc.system, "rules": fc.rules, "decided": fc.decided,
            "waiting": [str(w) for w in fc.waiting], "notes": fc.notes, "medals": fc.medals,
            "rows": [{"rank": r.rank, "shared": r.shared, "place": r.place, "player": r.player, "id": r.pid,
                      "group": r.group or None, "level": r.level or None, "placed_by": r.stage, "medal": r.medal,
                      "committee": r.committee, "provisional": r.provisional, **r.figures} for r in fc.rows]}
