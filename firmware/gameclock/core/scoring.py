"""Scoring by the events' rules: pure functions over what the clock and the players entered.

Points are integers; times are integer nanoseconds. Each function cites the rule it implements.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .control import NS_PER_MIN

# --- Crossword family (XW-3, XW-6, XW-8, XW-9) -----------------------------------------------


def overtime_penalty(overtime_ns: int, points_per_minute: int) -> int:
    """XW-3: points off for overtime: every started minute costs `points_per_minute`."""
    if overtime_ns <= 0:
        return 0
    return -(-overtime_ns // NS_PER_MIN) * points_per_minute


def capped_spread(own: int, other: int, cap: int | None) -> int:
    """XW-8: a side's spread (own - other), the winner's margin cut down to `cap` (None: no cap);
    the loser's is the negative of the winner's."""
    spread = own - other
    if cap is None:
        return spread
    return max(-cap, min(cap, spread))


def game_points(outcome: str, side: str, win: int = 2, draw: int = 1, loss: int = 0) -> int:
    """XW-6, MR-9, MH-7: game points for `side` ('left'/'right') given outcome 'left'|'right'|'draw'."""
    if outcome == "draw":
        return draw
    return win if outcome == side else loss


# --- Makruk material (MR-2, MR-5, MR-10) ---------------------------------------------------
# Letters: R rook (ruea), N knight (ma), S khon, M met or promoted pawn, P unpromoted pawn (bia).
# The king is always there and is not written.

PIECES = "RNSMP"
MR5_UNITS_X2 = {"R": 6, "N": 4, "S": 3, "M": 2, "P": 1}   # MR-5 in half units: 3, 2, 1.5, 1, 0.5
MR10_VALUES = {"R": 5, "N": 4, "S": 3, "M": 2, "P": 1}    # MR-10 tie-break values


def parse_material(text: str) -> Counter[str]:
    """'RRM' -> Counter({'R': 2, 'M': 1}); '-' or '' is a bare king. Raises ValueError on other letters."""
    text = text.strip().upper()
    if text in ("", "-", "K"):
        return Counter()
    text = text.removeprefix("K")
    bad = sorted(set(text) - set(PIECES))
    if bad:
        raise ValueError(f"bad piece letter(s) {''.join(bad)!r} in {text!r} (R rook, N knight, S khon, "
                         "M met or promoted pawn, P pawn; the king is not written)")
    return Counter(text)


def can_win_on_time(material: Counter[str]) -> bool:
    """MR-2: a flag loses only if the opponent still has at least K+R, K+Khon+Met, K+Knight+Met,
    or K+3 promoted pawns (met counts as one of them); otherwise the game is drawn.

    `material` is the opponent's pieces besides the king. Mets and promoted pawns are both 'M' (they move
    alike), so K+3M also covers a met with two promoted pawns."""
    m = material
    if m["R"] >= 1:
        return True
    if m["S"] >= 1 and m["M"] >= 1:
        return True
    if m["N"] >= 1 and m["M"] >= 1:
        return True
    return m["M"] >= 3


def material_value(material: Counter[str]) -> int:
    """MR-10: the sum of piece values left on the board (rook 5, knight 4, khon 3, met/promoted 2,
    pawn 1)."""
    return sum(MR10_VALUES[p] * n for p, n in material.items())


def material_units_x2(material: Counter[str]) -> int:
    """MR-5: material in half units (rook 3, knight 2, khon 1.5, met 1, pawn 0.5), times two."""
    return sum(MR5_UNITS_X2[p] * n for p, n in material.items())


# --- Makruk counting limits (MR-6) ----------------------------------------------------------


# MR-6, the table of seed 001 §7(11): (piece, at least this many, the count's limit).
PIECES_COUNT_ROWS = (("R", 2, 8), ("R", 1, 16), ("S", 2, 22), ("S", 1, 44), ("N", 2, 32), ("N", 1, 64),
                     ("M", 3, 64))
PIECES_COUNT_OTHERWISE = 64


def pieces_count_limit(attacker: Counter[str]) -> int:
    """MR-6: the lone king's count limit from the attacker's material. Every row of the table the
    material satisfies applies and the lowest limit wins (RULES MR-6 decision: K+khon+2 knights is 32,
    not the khon's 44); material that satisfies no row counts to 64."""
    limits = [limit for piece, least, limit in PIECES_COUNT_ROWS if attacker[piece] >= least]
    return min(limits, default=PIECES_COUNT_OTHERWISE)


# --- Sudoku (SU-3) -----------------------------------------------------------------------------


def sudoku_bonus(remaining_ns: int, all_correct: bool, points_per_minute: int = 3) -> int:
    """SU-3: `points_per_minute` per whole minute left, only if every puzzle of the round is correct."""
    if not all_correct or remaining_ns <= 0:
        return 0
    return remaining_ns // NS_PER_MIN * points_per_minute


# --- configuration (the `[scoring]` table of a rule file) ------------------------------------------

KINDS = ("crossword", "makruk", "makhos", "sudoku", "none")
STAGES = ("qualifying", "last", "final")   # XW-8: the last qualifying game and the final have their own caps


@dataclass(frozen=True)
class Scoring:
    """How a finished game is scored. Points are integers.

    kind: which result entry the game needs (crossword: both scores; makruk/makhos: outcome and reason,
    makruk also the material; sudoku: puzzle points and whether all were correct).
    caps: XW-8 spread caps by level, e.g. {"primary": (100, 80), "secondary": (250, 200)}: (every
    qualifying game, the last qualifying game); the final has no cap. default_level: the level the
    organiser's rule file fixes for the event (None: the game's own level must be set, XW-8).
    bye_spread: XW-9, by level, for the standings."""

    kind: str = "none"
    # MR-2 (makruk): a flag loses only if the opponent has mating material, else it is a draw. Seed 003's
    # event applies it; seed 001 §7(3) does not (the first flag loses): the preset says which.
    flag_needs_material: bool = False
    win_points: int = 2
    draw_points: int = 1
    loss_points: int = 0
    caps: tuple[tuple[str, int, int], ...] = ()      # (level, cap, last-game cap)
    default_level: str | None = None
    bye_spread: tuple[tuple[str, int], ...] = ()     # (level, spread)

    def cap(self, level: str | None, stage: str) -> int | None:
        """XW-8: the spread cap for a game of `stage` at `level` (None: no cap)."""
        if stage == "final" or not self.caps:
            return None
        level = level or self.default_level
        if level is None:
            raise ValueError(f"no level set (the caps depend on it: {', '.join(c[0] for c in self.caps)})")
        for name, cap, last in self.caps:
            if name == level:
                return last if stage == "last" else cap
        raise ValueError(f"no spread cap for level {level!r} (known: {', '.join(c[0] for c in self.caps)})")
