"""A game's result entered by hand at the desk (issue 26: the table's clock died): the organiser's
record of it, made by the same fold a clock makes of its result entry, so that its points and spread
are the clock's for the same entry.

    rec = hand_record(preset, seat, Entered(scores={"left": 400, "right": 350}, level="secondary"))
    store.put_hand_result(rec, reason="clock 4's battery died", by=web.who(request))

What was entered becomes lines of the clock's result-entry vocabulary (`score left 400`, `outcome left
resignation`, `material left RNM`, `correct right yes`, `drawloss left`, `level primary`), folded by
`core.result.apply_entry` and scored by `core.result.result_view` with the preset's `[scoring]`
(XW-3 penalty, XW-6/MR-9/MH-7 game points, XW-8 capped spread, MR-10 piece values, MH-8 draw given,
SU-2/SU-3 points and bonus), against a clock view made of what the clock would have measured and the
organiser read off the score slip: each side's overtime (XW-3: its penalty is the clock's, started
minutes times the preset's points a minute, `core.scoring.overtime_penalty`) and, for Sudoku, each
competitor's time left at the finish (SU-3: `core.scoring.sudoku_bonus`, earned only if all correct).

A **forfeit** (`absent`: the side that did not come, docs/rules.md "Forfeits"): the other side wins,
reason `forfeit`, the preset's win/loss game points; in the crossword family it is scored as XW-9
scores a bye for the player who came (+100, primary-school Crossword +50) and the negative for the
absent one, with no board scores (tsh gets it as tsh writes a forfeit: a bye's score each); in Makruk
nobody had pieces on a board that was not played (MR-10: 0 each). Sudoku has none: a competitor who
did not come scores 0 points.

The record is the organiser's, never a clock's: `"entered": "hand"`, no `clock`, no signature; it is
kept in the store's `hand_results` (Store.put_hand_result gives it its id, `hand:N`), never in
`results`. Its keys are those of a clock's record that the standings, exports and the desk read
(docs/result-record.md; organiser/summary.py PATHS), so they read it as any result.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gameclock.core.control import NS_PER_MS, SIDES
from gameclock.core.result import REASONS, Entry, EntryError, apply_entry, result_view
from gameclock.core.scoring import game_points, overtime_penalty, sudoku_bonus
from gameclock.organiser.said import listed_words, words
from gameclock.record import known_level

ENTERED = "hand"
MAX_SCORE = 99_999


@dataclass(frozen=True)
class Seat:
    """The game as published: where, who (names as the clocks would have recorded them; right None for a
    Sudoku competitor seated alone), its stage (XW-8) and its number in the match."""
    event: str
    round: int
    table: int
    players: Mapping[str, str | None]
    game: int = 1
    stage: str = "qualifying"


@dataclass(frozen=True)
class Entered:
    """What the organiser entered (None: not given). Per-side values are {"left": v, "right": v}."""
    scores: Mapping[str, int | None] = field(default_factory=dict)       # crossword board score, sudoku points
    overtime_ms: Mapping[str, int] = field(default_factory=dict)         # XW-3, read off the clock's display
    time_left_ms: Mapping[str, int | None] = field(default_factory=dict)  # SU-3: at the competitor's finish
    correct: Mapping[str, bool | None] = field(default_factory=dict)     # SU-3: all puzzles correct
    material: Mapping[str, str | None] = field(default_factory=dict)     # MR-9 pieces left: R N S M P letters
    outcome: str | None = None                                           # left, right, draw
    reason: str | None = None
    drawloss: str | None = None                                          # MH-8: who gave the draw
    level: str | None = None                                             # XW-8
    absent: str | None = None                                            # a forfeit: the side that did not come


def reasons(kind: str) -> tuple[str, ...]:
    """The reasons a result of scoring `kind` may give (the clock's: core.result.REASONS)."""
    return REASONS.get(kind, REASONS["none"])


def lines_of(kind: str, entered: Entered, level: str | None, sides: tuple[str, ...] = SIDES) -> list[list[str]]:
    """The result-entry lines of what was entered (module doc), in the order a clock's arbiter enters them."""
    out: list[list[str]] = []
    if level:
        out.append(["level", level])
    if kind in ("crossword", "sudoku"):
        out += [["score", s, str(entered.scores[s])] for s in sides if entered.scores.get(s) is not None]
    if kind == "sudoku":
        out += [["correct", s, "yes" if entered.correct[s] else "no"] for s in sides
                if entered.correct.get(s) is not None]
    if kind not in ("crossword", "sudoku") and entered.outcome is not None:
        out.append(["outcome", entered.outcome] + ([entered.reason] if entered.reason else []))
    if kind == "makruk":
        out += [["material", s, entered.material[s] or "-"] for s in sides if entered.material.get(s) is not None]
    if kind == "makhos" and entered.drawloss:
        out.append(["drawloss", entered.drawloss])
    return out


def _clock_view(kind: str, entered: Entered, penalty_per_minute: int, bonus_per_minute: int) -> dict[str, Any]:
    """The clock's final view as far as a result needs it: what the organiser read off the clock."""
    sides: dict[str, dict[str, Any]] = {}
    for s in SIDES:
        over = max(0, int(entered.overtime_ms.get(s) or 0))
        left = entered.time_left_ms.get(s)
        sides[s] = {"overtime_ms": over, "penalty_points": overtime_penalty(over * NS_PER_MS, penalty_per_minute),
                    "bonus_points": (sudoku_bonus(left * NS_PER_MS, True, bonus_per_minute)
                                     if kind == "sudoku" and left is not None else 0),
                    "flagged": False, "used_ms": None}
    return {"sides": sides}


def hand_record(preset: Any, seat: Seat, entered: Entered) -> dict[str, Any]:
    """The organiser's record of `seat`'s game as `entered` (module doc), by `preset`'s rules (a
    rules.loader.Preset). ValueError saying what is wrong or missing, in the clock's words ("missing:
    score right", "bad reason ...")."""
    scoring = preset.scoring
    kind = scoring.kind
    alone = seat.players.get("right") is None
    sides = ("left",) if alone else SIDES
    level = entered.level if scoring.caps else None     # XW-8's level: only where the preset has caps
    if level is not None and known_level(scoring, level) is None:
        levels = [name for name, _, _ in scoring.caps]
        raise ValueError(words("level {level} is not one of this preset's ({levels})", level=level,
                               levels=", ".join(levels) or "-"))
    lines = lines_of(kind, entered, level, sides)
    control = preset.control_for(0)
    view = _clock_view(kind, entered, control.penalty_points_per_minute, control.bonus_points_per_minute)
    if entered.absent is not None:
        result = _forfeit(preset, seat, entered, level)
        lines = [*(["level", level] for _ in (1,) if level), ["outcome", result["winner"], "forfeit"]]
    else:
        entry = Entry()
        for line in lines:
            try:
                entry = apply_entry(entry, line, True, scoring, view, level, seat.stage)
            except EntryError as exc:
                raise ValueError(str(exc)) from None
        result = result_view(entry, view, scoring, level, seat.stage)
        missing = [m for m in result["missing"] if not (alone and m.endswith(" right"))]
        if missing:
            raise ValueError(words("missing: {fields}", fields=listed_words([words(m) for m in missing], 9)))
        if alone and kind == "sudoku":   # SU-1: one competitor at the clock; the empty seat scores nothing
            result["final_scores"] = {"left": (entered.scores.get("left") or 0) + result["bonus"]["left"],
                                      "right": None}
    match_games = getattr(getattr(preset, "standings", None), "match_games", 4) or 4
    tiebreak = max(1, seat.game - match_games) if getattr(preset, "tiebreak_games", False) else 0
    return {
        "entered": ENTERED,
        "event": seat.event, "round": seat.round, "table": seat.table, "game": seat.game, "tiebreak": tiebreak,
        "level": known_level(scoring, level) or scoring.default_level, "stage": seat.stage,
        "players": {s: seat.players.get(s) for s in SIDES},
        "preset": {"id": preset.id, "name": preset.name, "rules": list(getattr(preset, "rule_ids", ()) or ())},
        "kind": kind, "first": None, "ended": None,
        "outcome": result.get("winner"), "reason": result.get("reason"),
        "draw_counts_as_loss_for": result.get("draw_counts_as_loss_for"),
        "scores": {
            "entered": result.get("scores") if kind in ("crossword", "sudoku") else None,
            "penalties": result.get("penalties"), "bonus": result.get("bonus"), "correct": result.get("correct"),
            "final": result.get("final_scores"), "spread": result.get("spread"), "cap": result.get("cap"),
            "game_points": result.get("game_points"),
        },
        "material": result.get("material"), "material_value": result.get("material_value"),
        "sides": {s: {"overtime_ms": view["sides"][s]["overtime_ms"], "penalty_points": view["sides"][s]["penalty_points"],
                      "time_left_ms": entered.time_left_ms.get(s), "bonus_points": view["sides"][s]["bonus_points"],
                      "time_used_ms": None} for s in SIDES},
        "entries": [{"line": " ".join(line)} for line in lines],
        "forfeit": entered.absent is not None,
    }


def _other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def _forfeit(preset: Any, seat: Seat, entered: Entered, level: str | None) -> dict[str, Any]:
    """A forfeit's result (module doc): the side that came wins by the preset's game points; the crossword
    family's spread is XW-9's bye spread at the game's level, the absent side's its negative."""
    scoring = preset.scoring
    absent = entered.absent
    if absent not in SIDES:
        raise ValueError("a forfeit names the side that did not come: left or right")
    if scoring.kind == "sudoku":
        raise ValueError("Sudoku has no forfeit: a competitor who did not come scores 0 points")
    if seat.players.get("right") is None:
        raise ValueError("a competitor seated alone has no opponent to forfeit to")
    winner = _other(absent)
    out: dict[str, Any] = {"winner": winner, "reason": "forfeit",
                           "game_points": {s: game_points(winner, s, scoring.win_points, scoring.draw_points,
                                                          scoring.loss_points) for s in SIDES}}
    if scoring.kind == "crossword":
        at = level or scoring.default_level
        spread = dict(scoring.bye_spread).get(at) if at else None
        if spread is None:
            raise ValueError(words("the preset {preset} gives no bye spread (XW-9) for level {level}", preset=preset.id,
                                   level=at) if at else
                             words("the preset {preset} gives no bye spread (XW-9) without a level: give the level",
                                   preset=preset.id))
        out["spread"] = {winner: spread, absent: -spread}
    if scoring.kind == "makruk":
        out["material_value"] = {"left": 0, "right": 0}   # MR-10: no pieces on a board not played
    return out


def parse_clock_time(text: str, what: str) -> int | None:
    """`3:18`, `0:05`, `198` (seconds) or `` as ms (None for empty); ValueError naming `what` otherwise."""
    text = text.strip()
    if not text:
        return None
    parts = text.split(":")
    if len(parts) > 2 or not all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts) or (
            len(parts) == 2 and int(parts[1]) > 59):
        raise ValueError(words("{what}: {given} is not a time like 3:18 (minutes:seconds)", what=words(what),
                               given=text[:12]))
    seconds = int(parts[0]) * 60 + int(parts[1]) if len(parts) == 2 else int(parts[0])
    return seconds * 1000


def parse_score(text: str, what: str) -> int | None:
    """A whole number 0-MAX_SCORE (None for empty); ValueError naming `what` otherwise."""
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 5):
        raise ValueError(words("{what}: {given} is not a whole number", what=words(what), given=text[:12]))
    return int(text)


# ------------------------------------------------------------------------------------------ from another PC
def row_errors(row: object) -> list[str]:
    """What is wrong with a hand entry row of a JSON Lines export (Store.export_jsonl's {"hand": row}),
    as `gameclock import --hand` reads it: the row's own keys and types, and for an entry the record's
    values that the standings and exports read (organiser/summary.py). Empty: it can be taken."""
    if not isinstance(row, dict):
        return ["a hand entry row is a JSON object"]
    errors: list[str] = []

    def whole(v: object) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    for key in ("id", "event", "reason", "by", "at"):
        if not isinstance(row.get(key), str) or not row[key].strip():
            errors.append(f"{key} must be text")
    for key in ("round", "table", "game"):
        if not whole(row.get(key)) or row[key] < 1:
            errors.append(f"{key} must be a whole number from 1")
    rec = row.get("record")
    if rec is None:
        if not isinstance(row.get("withdraws"), str):
            errors.append("a row without a record withdraws an entry: withdraws must be its id")
        return errors
    if not isinstance(rec, dict):
        return [*errors, "record must be an object or null"]
    if rec.get("entered") != ENTERED:
        errors.append("the record is not marked entered by hand")
    if any(rec.get(k) != row.get(k) for k in ("event", "round", "table", "game")):
        errors.append("the record's event, round, table and game are not the row's")
    players = rec.get("players")
    if not isinstance(players, dict) or not all(v is None or isinstance(v, str) for v in
                                                (players.get("left"), players.get("right"))):
        errors.append("players must be {left, right} names")
    if rec.get("outcome") not in ("left", "right", "draw", None):
        errors.append("outcome must be left, right, draw or null")
    if not isinstance(rec.get("kind"), str) or not isinstance((rec.get("preset") or {}).get("id"), str):
        errors.append("kind and preset.id must be text")
    scores = rec.get("scores")
    if not isinstance(scores, dict):
        errors.append("scores must be an object")
    else:
        for key in ("final", "spread", "game_points", "penalties", "bonus"):
            v = scores.get(key)
            if v is not None and not (isinstance(v, dict) and all(x is None or whole(x) for x in
                                                                   (v.get("left"), v.get("right")))):
                errors.append(f"scores.{key} must be {{left, right}} whole numbers")
    return errors
