"""Result entry after a game: a pure fold of the lines players and arbiter enter, and the result
the event's rules make of them (CL-5).

Entry lines (the event-log verbs after the game's end; SIDE is left|right):

    score SIDE POINTS        crossword family: the final score on the board; sudoku: puzzle points
    outcome left|right|draw [REASON]   makruk, makhos (and any game): who won, and how
    material SIDE PIECES     makruk (MR-9): pieces left besides the king, R N S M P letters, '-' for none
    correct SIDE yes|no      sudoku (SU-3): were all the round's puzzles correct
    drawloss SIDE|none       makhos (MH-8): a draw counts as a loss for SIDE (who "gave the draw");
                             none: it does not (the arbiter takes a wrong one back)
    confirm SIDE             that player confirms with their own button
    edit                     the arbiter reopens the entry (both must confirm again)

The record info changed on the clock after the game began (issue 27: the log's header is the info the
game began with; these lines change it, so the record and every replay of the log say the same):

    event NAME               the event (one word: a number, or the name the organiser's PC gave)
    round N                  the round (1 or more)
    table N                  the table (1 or more)
    player SIDE [NAME]       that side's name (the rest of the line); no NAME: not known (cleared)
    level LEVEL|-            crossword (XW-8): the game's level (one of the preset's caps); `-`: not set
                             (the rule file's default); before any such line, the header's `level`
    stage qualifying|last|final   XW-8: likewise, the game's stage

These are taken at any time, before the game's end too (a setting changed in a pause); the others
only once the game is over. Any change clears earlier confirmations, so both players confirm what the
record will hold; once both have confirmed, the result is final and nothing more is accepted.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from .control import SIDES
from .scoring import STAGES, Scoring, can_win_on_time, capped_spread, game_points, material_value, parse_material

T = TypeVar("T")

# the record info's lines (issue 27): accepted before the game's end too
INFO_VERBS = ("event", "round", "table", "player", "level", "stage")
RESULT_VERBS = ("score", "outcome", "material", "correct", "drawloss", "confirm", "edit") + INFO_VERBS

REASONS = {
    "crossword": ("score", "forfeit", "agreement"),
    # MR-3, MR-4..MR-6 (count), MR-1/MR-2 (flag), MR-3/003 §16 (material), MR-13 (arbiter's draw),
    # MR-1/001 §8 and MR-13/003 §2 (late: a late player's forfeit)
    "makruk": ("mate", "resignation", "flag", "count", "stalemate", "agreement", "repetition", "material",
               "arbiter", "late", "forfeit"),
    # MH-2 (time), MH-5, MH-6
    "makhos": ("no-pieces", "no-move", "resignation", "time", "penalty", "late", "agreement", "repetition",
               "count", "forfeit"),
    "sudoku": ("score",),
    "none": ("mate", "resignation", "flag", "time", "agreement", "score", "forfeit", "other"),
}


class EntryError(ValueError):
    """An entry line that is malformed or not allowed now."""


@dataclass(frozen=True)
class Entry:
    """What has been entered so far. Per-side pairs are (left, right)."""

    scores: tuple[int | None, int | None] = (None, None)
    outcome: str | None = None
    reason: str | None = None
    material: tuple[str | None, str | None] = (None, None)
    correct: tuple[bool | None, bool | None] = (None, None)
    drawloss: int | None = None
    # The record info changed after the game began (INFO_VERBS); None: as the game began (the log's header)
    level: str | None = None      # XW-8: a level, or "" not set (the rule file's default)
    stage: str | None = None
    event: str | None = None
    round: int | None = None
    table: int | None = None
    players: tuple[str | None, str | None] = (None, None)  # a side's name, "" not known; None: the header's
    confirmed: tuple[bool, bool] = (False, False)

    @property
    def final(self) -> bool:
        return all(self.confirmed)


def _side(word: str) -> int:
    if word not in SIDES:
        raise EntryError(f"bad side {word!r} (left or right)")
    return SIDES.index(word)


def _pair(pair: tuple[T, T], side: int, value: T) -> tuple[T, T]:
    out = list(pair)
    out[side] = value
    return (out[0], out[1])


def apply_entry(entry: Entry, words: list[str], game_over: bool, scoring: Scoring,
                clock_view: dict[str, Any] | None = None, level: str | None = None,
                stage: str = "qualifying") -> Entry:
    """Fold one entry line (its words, verb first). Raises EntryError with the reason it is refused.
    `level`, `stage`: the game's XW-8 set-up (a confirmation needs the result complete with them)."""
    verb, args = words[0], words[1:]
    if verb not in RESULT_VERBS:
        raise EntryError(f"unknown result entry {verb!r} (known: {', '.join(RESULT_VERBS)})")
    if not game_over and verb not in INFO_VERBS:
        raise EntryError(f"{verb}: the game is not over (finish it first)")
    if entry.final:
        raise EntryError(f"{verb}: the result is already confirmed by both players")

    def need(n: int, usage: str) -> None:
        if len(args) != n:
            raise EntryError(f"usage: {usage}")

    if verb == "confirm":
        need(1, "confirm SIDE")
        side = _side(args[0])
        missing = result_view(entry, clock_view or {}, scoring, level, stage)["missing"]
        if missing:
            raise EntryError(f"confirm: the result is not complete (missing: {', '.join(missing)})")
        return replace(entry, confirmed=_pair(entry.confirmed, side, True))
    if verb == "edit":
        need(0, "edit")
        return replace(entry, confirmed=(False, False))
    if verb == "score":
        need(2, "score SIDE POINTS")
        side = _side(args[0])
        try:
            points = int(args[1])
        except ValueError:
            raise EntryError(f"bad points {args[1]!r} (a whole number)") from None
        changed = replace(entry, scores=_pair(entry.scores, side, points))
    elif verb == "outcome":
        if not 1 <= len(args) <= 2:
            raise EntryError("usage: outcome left|right|draw [REASON]")
        if args[0] not in SIDES + ("draw",):
            raise EntryError(f"bad outcome {args[0]!r} (left, right or draw)")
        reason = args[1] if len(args) == 2 else None
        reasons = REASONS.get(scoring.kind, REASONS["none"])
        if reason is not None and reason not in reasons:
            raise EntryError(f"bad reason {reason!r} for {scoring.kind} (known: {', '.join(reasons)})")
        changed = replace(entry, outcome=args[0], reason=reason)
    elif verb == "material":
        need(2, "material SIDE PIECES")
        side = _side(args[0])
        try:
            letters = "".join(sorted(parse_material(args[1]).elements(), key="RNSMP".index))
        except ValueError as exc:
            raise EntryError(str(exc)) from None
        changed = replace(entry, material=_pair(entry.material, side, letters))
    elif verb == "correct":
        need(2, "correct SIDE yes|no")
        side = _side(args[0])
        if args[1] not in ("yes", "no"):
            raise EntryError(f"bad answer {args[1]!r} (yes or no)")
        changed = replace(entry, correct=_pair(entry.correct, side, args[1] == "yes"))
    elif verb == "level":
        need(1, "level LEVEL|-")
        levels = [name for name, _, _ in scoring.caps]
        if args[0] != "-" and args[0] not in levels:
            raise EntryError(f"bad level {args[0]!r} (this preset's levels: {', '.join(levels) or 'none'}; "
                             "- for not set)")
        changed = replace(entry, level="" if args[0] == "-" else args[0])
    elif verb in ("round", "table"):
        need(1, f"{verb} N")
        if not (args[0].isascii() and args[0].isdigit()) or args[0].startswith("0"):
            raise EntryError(f"bad {verb} {args[0]!r} (a whole number from 1)")
        number = int(args[0])
        changed = replace(entry, round=number) if verb == "round" else replace(entry, table=number)
    elif verb == "event":
        need(1, "event NAME")
        changed = replace(entry, event=args[0])
    elif verb == "player":
        if not args:
            raise EntryError("usage: player SIDE [NAME]")
        changed = replace(entry, players=_pair(entry.players, _side(args[0]), " ".join(args[1:])))
    elif verb == "stage":
        need(1, "stage qualifying|last|final")
        if args[0] not in STAGES:
            raise EntryError(f"bad stage {args[0]!r} ({', '.join(STAGES)})")
        changed = replace(entry, stage=args[0])
    else:  # drawloss
        need(1, "drawloss SIDE|none")
        changed = replace(entry, drawloss=None if args[0] == "none" else _side(args[0]))
    return replace(changed, confirmed=(False, False))  # a change must be confirmed again


def game_level(entry: Entry, level: str | None) -> str | None:
    """XW-8's level of the game: a `level` line's (its `-`: not set) over the game's set-up `level`."""
    return (level if entry.level is None else entry.level) or None


def game_stage(entry: Entry, stage: str) -> str:
    """XW-8's stage of the game: a `stage` line's over the game's set-up `stage`."""
    return entry.stage or stage


def changed_info(info: Mapping[str, Any], entry: Entry) -> dict[str, Any]:
    """The record info `info` (event, round, table, level, stage, players: as `gamelog.header_info`
    reads a log's header) with the changes `entry`'s lines made after the game began (INFO_VERBS)."""
    out = dict(info)
    for key in ("event", "round", "table"):
        value = getattr(entry, key)
        if value is not None:
            out[key] = value
    if entry.level is not None:
        out["level"] = entry.level or None
    if entry.stage is not None:
        out["stage"] = entry.stage
    if any(name is not None for name in entry.players):
        players = dict(out.get("players") or {})
        for side, name in zip(SIDES, entry.players, strict=True):
            if name is not None:
                players[side] = name or None
        out["players"] = {side: players.get(side) for side in SIDES}
    return out


def _value(letters: str | None) -> int | None:
    """MR-10: the value of the pieces entered (None: not entered yet)."""
    return None if letters is None else material_value(parse_material(letters))


def _both(pair: tuple[T | None, T | None]) -> tuple[T, T] | None:
    """The pair when both sides' values are entered, else None."""
    left, right = pair
    return None if left is None or right is None else (left, right)


def result_view(entry: Entry, clock_view: dict[str, Any], scoring: Scoring, level: str | None = None,
                stage: str = "qualifying") -> dict[str, Any]:
    """The result as the event's rules make it, from the entry and the clock's final view. `level`,
    `stage`: the game's set-up; a `level` or `stage` line entered after the game wins over them."""
    kind = scoring.kind
    level, stage = game_level(entry, level), game_stage(entry, stage)
    sides = clock_view.get("sides", {})
    flagged = [s for s in SIDES if sides.get(s, {}).get("flagged")]
    missing: list[str] = []
    out: dict[str, Any] = {"kind": kind, "winner": None, "reason": entry.reason, "missing": missing,
                           "level": level, "stage": stage}

    def pair(f: Callable[[int, str], T]) -> dict[str, T]:
        """{"left": f(0, "left"), "right": f(1, "right")}"""
        return {s: f(i, s) for i, s in enumerate(SIDES)}

    scores = pair(lambda i, s: entry.scores[i])
    entered = _both(entry.scores)  # not None once no score is missing
    if kind == "crossword":
        # XW-3: the overtime penalty comes off the final score before the spread (RULES decision);
        # XW-8: the winner's margin is capped, the loser's is its negative; XW-6: 2/1/0.
        missing += [f"score {s}" for s in SIDES if scores[s] is None]
        if scoring.caps and stage != "final" and (level or scoring.default_level) is None:
            missing.append("level")  # XW-8: the caps depend on the level; never a silent default
        penalties = pair(lambda i, s: sides.get(s, {}).get("penalty_points", 0))
        out.update(scores=scores, penalties=penalties)
        if not missing and entered is not None:
            final = pair(lambda i, s: entered[i] - penalties[s])
            cap = scoring.cap(level, stage)
            out.update(final_scores=final, cap=cap,
                       spread={"left": capped_spread(final["left"], final["right"], cap),
                               "right": capped_spread(final["right"], final["left"], cap)})
            if entry.outcome is not None:
                out["winner"] = entry.outcome
            else:
                d = final["left"] - final["right"]
                out["winner"] = "left" if d > 0 else "right" if d < 0 else "draw"
                out["reason"] = "score"
    elif kind == "sudoku":
        # SU-2, SU-3: puzzle points, plus the time bonus only if every puzzle is correct
        missing += [f"score {s}" for s in SIDES if scores[s] is None]
        missing += [f"correct {s}" for s in SIDES if entry.correct[SIDES.index(s)] is None]
        bonus = pair(lambda i, s: sides.get(s, {}).get("bonus_points", 0) if entry.correct[i] else 0)
        out.update(scores=scores, bonus=bonus, correct=pair(lambda i, s: entry.correct[i]))
        if not missing and entered is not None:
            # SU-4: competitors are ranked by their points over the rounds; the two sharing a device
            # are not opponents, so there is no winner and no game points
            out["final_scores"] = pair(lambda i, s: entered[i] + bonus[s])
    else:
        winner, reason = entry.outcome, entry.reason
        if winner is None and len(flagged) == 1:
            # the clock saw the flag: MR-1 / MH-2, the side out of time loses (unless entered otherwise)
            winner = "right" if flagged[0] == "left" else "left"
            reason = "flag" if kind == "makruk" else "time" if kind == "makhos" else "flag"
        if winner is None:
            missing.append("outcome")
        if kind == "makruk":
            # MR-9: both players record the pieces left; MR-10 ranks by their values
            missing += [f"material {s}" for s in SIDES if entry.material[SIDES.index(s)] is None]
            material = pair(lambda i, s: entry.material[i])
            out.update(material=material, material_value=pair(lambda i, s: _value(material[s])))
            if scoring.flag_needs_material and winner in SIDES and reason == "flag":
                pieces = material[winner]  # the winner's, whose opponent's flag fell
                if pieces is not None and not can_win_on_time(parse_material(pieces)):
                    winner, reason = "draw", "material"  # MR-2 (seed 003's event): not enough to win on time
        if kind == "makhos" and winner == "draw" and entry.drawloss is not None:
            # MH-8: the player who gave the draw loses
            winner, reason = SIDES[1 - entry.drawloss], "draw-given"
            out["draw_counts_as_loss_for"] = SIDES[entry.drawloss]
        out["winner"], out["reason"] = winner, reason
    if out["winner"] is not None and not missing:
        out["game_points"] = pair(lambda i, s: game_points(out["winner"], s, scoring.win_points,
                                                           scoring.draw_points, scoring.loss_points))
    out["time_used_ms"] = pair(lambda i, s: sides.get(s, {}).get("used_ms"))  # MH-7
    out["confirmations"] = pair(lambda i, s: entry.confirmed[i])
    out["confirmed"] = entry.final
    out["complete"] = not missing
    return out
