"""Result entry on the knob (CL-5): the arbiter enters the result, both players confirm it.

Pure, like the menu: no clock (keys come with their stamp), no pins, no pixels. The loop opens a
`ResultEntry` when a game is over (finish, flag fall, per-move expiry), feeds it knob keys and the
players' button presses, and carries out its `Reply`: each line (`score left 412`, `confirm right`,
... the event-log vocabulary of `gameclock.core.result`) goes through `ResultEntry.apply`, which folds
it with `core.result.apply_entry`; the loop keeps the lines in its game log (`Loop.entries`).

Stages:
    ENTRY   a list of items shaped by the preset's `[scoring] kind`, moved through with the knob:
              crossword  Left score, Right score                      (XW-3 penalty, XW-8 spread shown)
              makruk     Result (winner and how), Left pieces, Right pieces  (MR-2, MR-9, MR-10)
              makhos     Result, Draw=loss for (MH-8)                  (MH-7 time used shown)
              sudoku     Left points, Left all correct, Right points, Right all correct   (SU-3)
              none       Result
            and last "Confirm"; the list wraps (issue 27). CLICK on an item edits it (the label shows
            [value]); the knob turns it (clockwise = DOWN = more / next; every list of choices wraps),
            CLICK keeps it (one entry line), BACK puts it back.
            The outcome (`outcome_choices`, issue 27): a ring that opens on the commonest draw (an
            agreed draw); clockwise the right player's wins, counter-clockwise the left's, each the
            commonest first -- a resignation one notch either way.
            Scores digit by digit (issue 15, like the Corrections' TimeEdit): SCORE_DIGITS digits
            (hundreds, tens, ones), the cursor on the hundreds; the knob turns the digit under the
            cursor (9 -> 0 wraps), CLICK moves to the next digit, on the ones CLICK keeps the score;
            a long push keeps it with zeros after the cursor (400: 4 notches and a long push);
            BACK goes back a digit, on the hundreds it puts the score back. 437 from 0: 4 + 1 + 3 +
            1 + 3 (0 -> 9 -> 8 -> 7 counter-clockwise) + 1 = 13 actions.
            Pieces: CLICK steps through R N S M P (rook, knight, khon, met or promoted pawn, pawn),
            the knob sets each count (0 up to what a side has, wrapping); the CLICK on P keeps them
            all (`material left RSMM`), a long push keeps them with none after the cursor (K only:
            one long push).
            After a kept value the cursor goes to the next item still missing, already editing it;
            when nothing is missing, straight to REVIEW (issue 27: no push on Confirm; BACK comes
            back). When the game opens the entry, the first missing item is being edited (nothing
            missing -- a makhos move expiry, a count's draw: on "Confirm").
            CLICK on Confirm (the result complete) -> REVIEW. BACK outside an edit, or LONG_CLICK
            outside a score's or the pieces' edit: the loop's game menu (its Resume comes back here;
            until the result is saved it has no item that leaves the game, but after the arbiter's
            unlock, issue 27).
    REVIEW  both screens show the result, both sides' whole entry, on pages if it needs more than
            one (resultscreens.review_pages; the knob turns them: Reply.page, and the loop turns
            them every few seconds); each player presses their own button: `confirm SIDE`.
            The arbiter can still correct: BACK -> `edit` (clears the confirmations) and ENTRY.
    SAVED   both confirmed: the result is final (the loop builds the record, beeps, shows RESULT
            SAVED); nothing more is accepted. CLICK or BACK: the game menu (next game).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar

from gameclock.core.control import SIDES
from gameclock.core.result import Entry, apply_entry, result_view
from gameclock.core.scoring import PIECES, Scoring, parse_material
from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP
from gameclock.ui.text import tr

ENTRY, REVIEW, SAVED = "entry", "review", "saved"
T = TypeVar("T")

SCORE_DIGITS = 3         # hundreds, tens, ones: a Crossword-family score (700+ happens) or Sudoku's points
MAX_POINTS = 10 ** SCORE_DIGITS - 1

PIECE_NAMES = {"R": "rook", "N": "knight", "S": "khon", "M": "met", "P": "pawn"}
PIECE_MAX = {"R": 2, "N": 2, "S": 2, "M": 9, "P": 8}   # M: met and promoted pawns together

# The outcomes the knob offers (winner, reason; the reasons are core.result.REASONS'), issue 27: each
# kind's reasons by how often they end its games -- at the board, as an arbiter sees them: a
# resignation or an agreed draw far more often than a mate, mates more than stalemates, flags and
# counts mostly entered by the clock itself (a flag fall, a count's limit), forfeits rarest. Makruk's
# "material" draw is MR-3/003 §16's insufficient material (after a flag under MR-2 the clock decides it
# from the pieces); "arbiter" is MR-13's arbiter's draw, "late" a late player's forfeit.
WIN_REASONS = {
    "makruk": ("resignation", "mate", "flag", "late", "forfeit"),                       # MR-1, MR-3, MR-13
    "makhos": ("resignation", "no-pieces", "no-move", "time", "penalty", "late", "forfeit"),  # MH-2, MH-5
    "none": ("resignation", "mate", "flag", "time", "score", "forfeit", "other"),
}
DRAW_REASONS = {
    "makruk": ("agreement", "count", "material", "stalemate", "repetition", "arbiter"),  # MR-3..MR-6, MR-13
    "makhos": ("agreement", "count", "repetition"),                # MH-6
    "none": ("agreement", "other"),
}
DRAWLOSS_CHOICES = ("none", "left", "right")   # MH-8
YES_NO = ("yes", "no")

# Short words for the 128 px screens
REASON_TEXT = {"resignation": "resigned", "repetition": "repetition", "agreement": "agreed",
               "no-pieces": "no pieces", "no-move": "no move", "draw-given": "draw given",
               "material": "no material", "score": "score", "arbiter": "arbiter", "late": "late"}


def material_text(material: str, lang: str | None = None) -> str:
    """MR-9's pieces besides the king: "K+RRN"; in Thai (issue 27: names, not letters) "เรือ 2 ม้า", in
    PIECES' order, a count after a name that is there more than once (the entry's item and the review)."""
    if lang != "th":
        return f"K+{material}"
    return " ".join(tr(PIECE_NAMES[p].upper(), lang) + (f" {material.count(p)}" if material.count(p) > 1 else "")
                    for p in PIECES if p in material)


def reason_text(reason: str | None) -> str:
    return "" if reason is None else REASON_TEXT.get(reason, reason)


@dataclass(frozen=True)
class Item:
    """One line of the entry list. kind: score | correct | material | outcome | drawloss | confirm."""
    kind: str
    side: int | None = None

    @property
    def side_index(self) -> int:
        """The side (0 left, 1 right) of a score, correct or material item."""
        if self.side is None:
            raise ValueError(f"a {self.kind} item has no side")
        return self.side

    @property
    def needs(self) -> str | None:
        """The `missing` word of `result_view` this item fills in."""
        if self.kind in ("score", "correct", "material"):
            return f"{self.kind} {SIDES[self.side_index]}"
        if self.kind == "outcome":
            return "outcome"
        return None


def items_for(kind: str) -> list[Item]:
    if kind == "crossword":
        body = [Item("score", 0), Item("score", 1)]
    elif kind == "makruk":
        body = [Item("outcome"), Item("material", 0), Item("material", 1)]
    elif kind == "makhos":
        body = [Item("outcome"), Item("drawloss")]
    elif kind == "sudoku":
        body = [Item("score", 0), Item("correct", 0), Item("score", 1), Item("correct", 1)]
    else:
        body = [Item("outcome")]
    return body + [Item("confirm")]


def outcome_choices(kind: str) -> list[tuple[str, str]]:
    """The outcomes as the knob turns through them (a ring: the last is one notch back from the first).
    Issue 27: the first is the commonest draw (an agreed draw); clockwise the right player's wins,
    the commonest first; counter-clockwise the left player's, the commonest first -- turn towards the
    winner -- and the rarer draws across the ring from the first, the farthest. So the three commonest
    endings are at most one notch from where the entry opens."""
    wins = WIN_REASONS.get(kind, WIN_REASONS["none"])
    draws = DRAW_REASONS.get(kind, DRAW_REASONS["none"])
    return ([("draw", draws[0])] + [("right", r) for r in wins] + [("draw", r) for r in draws[1:]]
            + [("left", r) for r in reversed(wins)])


class _Edit(TypedDict, total=False):
    """The value being edited, under the key of its item's kind."""
    digits: list[int]           # score: its digits, the first the hundreds...
    pos: int                    # ... and the digit under the cursor
    word: str                   # correct ("yes"/"no"), drawloss (DRAWLOSS_CHOICES)
    outcome: tuple[str, str]    # outcome: (winner, reason)
    counts: list[int]           # material: a count per PIECES letter...
    at: int                     # ... and the letter being set


class PiecesView(TypedDict):
    """`view()["pieces"]` while a side's pieces are edited: its counts by letter, the letter being set."""
    side: str
    counts: dict[str, int]
    at: str


@dataclass(frozen=True)
class Reply:
    """What the loop does after a key or a press: apply `lines` in order (each a list of words), or
    open the game menu, or turn the review's page by `page` (-1, +1)."""
    lines: tuple[tuple[str, ...], ...] = ()
    menu: bool = False
    page: int = 0


class ResultEntry:
    """The result entry of one finished game. `clock_view`: `core.clock.view()` of the game's end;
    `level`, `stage`: XW-8's cap (the loop's settings); `entry`: what is entered so far (a restored
    game's, else empty)."""

    def __init__(self, scoring: Scoring, clock_view: dict[str, Any], level: str | None = None,
                 stage: str = "qualifying", entry: Entry | None = None):
        self.scoring, self.clock_view = scoring, clock_view
        self.level, self.stage_name = level, stage
        self.kind = scoring.kind
        self.entry = entry or Entry()
        self.items = items_for(self.kind)
        self.index = 0
        self.reviewing = False
        self.message = ""
        self._edit: _Edit | None = None
        self._advance = False               # move on once the line being kept is applied
        self._goto_next_needed(start=0)

    # ---------------------------------------------------------------- derived
    @property
    def result(self) -> dict[str, Any]:
        return result_view(self.entry, self.clock_view, self.scoring, self.level, self.stage_name)

    @property
    def stage(self) -> str:
        if self.entry.final:
            return SAVED
        return REVIEW if self.reviewing else ENTRY

    @property
    def editing(self) -> bool:
        return self._edit is not None

    # ---------------------------------------------------------------- lines
    def apply(self, words: Sequence[str]) -> Entry:
        """Fold one entry line into the entry (raises core.result.EntryError when refused)."""
        advance, self._advance = self._advance, False
        self.entry = apply_entry(self.entry, list(words), True, self.scoring, self.clock_view, self.level,
                                 self.stage_name)
        if words[0] == "edit":
            self.reviewing = False
        if advance:  # a value the arbiter kept: on to the next one missing, or (none) to the review
            self._goto_next_needed(start=self.index + 1, review=True)
        elif self._edit is not None and words[0] != "confirm":
            # a line from elsewhere (the count's limit enters "outcome draw count"): the item open
            # for editing still holds its old value, which one push would store over the new line;
            # the cursor goes on from the entry as it now is
            self._goto_next_needed(start=0)
        return self.entry

    # ---------------------------------------------------------------- players
    def player(self, side: int) -> Reply:
        """A player's button: confirm, when the result is up for confirmation."""
        self.message = ""
        stage = self.stage
        if stage == SAVED:
            return Reply()
        if stage == ENTRY:
            self.message = "the arbiter is entering the result"
            return Reply()
        if self.entry.confirmed[side]:
            return Reply()
        return Reply(lines=(("confirm", SIDES[side]),))

    # ---------------------------------------------------------------- knob
    def key(self, key: str, at_ns: int) -> Reply:
        self.message = ""
        stage = self.stage
        if key == LONG_CLICK:
            if self._edit is not None and self.items[self.index].kind in ("score", "material"):
                return self._keep_with_zeros(self._edit)
            self._edit = None
            return Reply(menu=True)
        if key in (UP, DOWN) and stage in (REVIEW, SAVED):  # the review's pages (issue 27)
            return Reply(page=1 if key == DOWN else -1)
        if stage == SAVED:
            return Reply(menu=key in (CLICK, BACK))
        if stage == REVIEW:
            if key == BACK:
                return Reply(lines=(("edit",),))
            if key == CLICK:
                self.message = "players confirm with their buttons (BACK: correct)"
            return Reply()
        if self._edit is not None:
            return self._edit_key(key, at_ns, self._edit)
        item = self.items[self.index]
        if key in (UP, DOWN):  # the list wraps (issue 27)
            self.index = (self.index + (1 if key == DOWN else -1)) % len(self.items)
        elif key == BACK:
            return Reply(menu=True)
        elif key == CLICK:
            if item.kind == "confirm":
                missing = self.result["missing"]
                if missing:
                    self.message = f"missing: {', '.join(missing)}"
                    self._goto_next_needed(start=0)
                else:
                    self.reviewing = True
            else:
                self._begin_edit(item)
        return Reply()

    # ---------------------------------------------------------------- editing
    def _begin_edit(self, item: Item) -> None:
        e, r = self.entry, self.result
        if item.kind == "score":
            score = min(MAX_POINTS, max(0, e.scores[item.side_index] or 0))
            self._edit = {"digits": [int(d) for d in f"{score:0{SCORE_DIGITS}d}"], "pos": 0}
        elif item.kind == "correct":
            c = e.correct[item.side_index]
            self._edit = {"word": "yes" if c is None or c else "no"}
        elif item.kind == "outcome":
            choices = outcome_choices(self.kind)
            now = (r.get("winner"), r.get("reason"))
            flag_side = self._flag_side()
            if now == ("draw", "material") and flag_side is not None:
                now = (SIDES[1 - flag_side], "flag")
            self._edit = {"outcome": now if now in choices else choices[0]}
        elif item.kind == "drawloss":
            self._edit = {"word": "none" if e.drawloss is None else SIDES[e.drawloss]}
        elif item.kind == "material":
            have = parse_material(e.material[item.side_index] or "")
            self._edit = {"counts": [have[p] for p in PIECES], "at": 0}
        else:
            self._edit = None

    def _flag_side(self) -> int | None:
        flagged = [i for i, s in enumerate(SIDES) if self.clock_view.get("sides", {}).get(s, {}).get("flagged")]
        return flagged[0] if len(flagged) == 1 else None

    def _edit_key(self, key: str, at_ns: int, ed: _Edit) -> Reply:
        item = self.items[self.index]
        if key == BACK:
            if item.kind == "score" and ed["pos"] > 0:
                ed["pos"] -= 1  # back a digit
            else:
                self._edit = None  # put back
            return Reply()
        if key in (UP, DOWN):
            d = 1 if key == DOWN else -1
            if item.kind == "score":  # the digit under the cursor, wrapping: 0 -> 9 counter-clockwise
                ed["digits"][ed["pos"]] = (ed["digits"][ed["pos"]] + d) % 10
            elif item.kind == "material":  # 0 .. what a side can have, wrapping (issue 27)
                p = PIECES[ed["at"]]
                ed["counts"][ed["at"]] = (ed["counts"][ed["at"]] + d) % (PIECE_MAX[p] + 1)
            elif item.kind == "outcome":
                ed["outcome"] = _stepped(outcome_choices(self.kind), ed["outcome"], d)
            else:
                ed["word"] = _stepped(DRAWLOSS_CHOICES if item.kind == "drawloss" else YES_NO, ed["word"], d)
            return Reply()
        if key != CLICK:
            return Reply()
        if item.kind == "material" and ed["at"] < len(PIECES) - 1:
            ed["at"] += 1
            return Reply()
        if item.kind == "score" and ed["pos"] < SCORE_DIGITS - 1:
            ed["pos"] += 1  # the next digit
            return Reply()
        line = self._line(item, ed)
        self._edit = None
        self._advance = True
        return Reply(lines=(line,))

    def _keep_with_zeros(self, ed: _Edit) -> Reply:
        """A long push on a score or the pieces (issue 27, as on the Corrections and PIECES pages):
        the digits or letters after the cursor set to 0 and the value kept -- "K only" in one action."""
        if self.items[self.index].kind == "score":
            ed["digits"][ed["pos"] + 1:] = [0] * (SCORE_DIGITS - ed["pos"] - 1)
        else:
            ed["counts"][ed["at"] + 1:] = [0] * (len(PIECES) - ed["at"] - 1)
        line = self._line(self.items[self.index], ed)
        self._edit = None
        self._advance = True
        return Reply(lines=(line,))

    def _line(self, item: Item, ed: _Edit) -> tuple[str, ...]:
        if item.kind == "score":
            return ("score", SIDES[item.side_index], str(_number(ed["digits"])))
        if item.kind == "correct":
            return ("correct", SIDES[item.side_index], ed["word"])
        if item.kind == "outcome":
            return ("outcome",) + ed["outcome"]
        if item.kind == "drawloss":
            return ("drawloss", ed["word"])
        letters = "".join(p * n for p, n in zip(PIECES, ed["counts"], strict=True))
        return ("material", SIDES[item.side_index], letters or "-")

    def _goto_next_needed(self, start: int, review: bool = False) -> None:
        """Put the cursor on the first missing item from `start` on (then from the top), editing it;
        nothing missing: on Confirm -- or, `review` (the arbiter has just kept a value; issue 27: one
        push less for every result), straight to the review the players confirm (BACK: the entry)."""
        missing = set(self.result["missing"])
        n = len(self.items)
        for i in list(range(start, n)) + list(range(0, min(start, n))):
            if self.items[i].needs in missing:
                self.index = i
                self._begin_edit(self.items[i])
                return
        self.index = n - 1
        self._edit = None
        if review and not missing:
            self.reviewing = True

    # ---------------------------------------------------------------- view
    def label(self, i: int, lang: str | None = None) -> str:
        """The text of item `i` as the arbiter's list shows it (the value in [] while edited), in
        `lang` (ui/text.tr: the words translated, the figures and piece letters kept)."""
        item, e, r = self.items[i], self.entry, self.result
        ed = self._edit if i == self.index else None  # the item being edited: its value in []
        editing = ed is not None
        side = None if item.side is None else ("Left", "Right")[item.side]
        value: int | str | None
        if item.kind == "confirm":
            return tr("Confirm >", lang)
        if item.kind == "score":
            word = tr(f"{side} {'points' if self.kind == 'sudoku' else 'score'}", lang)
            if ed is not None:  # the digits, the one under the cursor in []: "Left score 4[3]7"
                digits = "".join(f"[{d}]" if k == ed["pos"] else str(d) for k, d in enumerate(ed["digits"]))
                return f"{word} {digits}"
            value = e.scores[item.side_index]
        elif item.kind == "correct":
            word = tr(f"{side} all correct", lang)
            c = e.correct[item.side_index]
            value = ed["word"] if ed is not None else (None if c is None else YES_NO[0 if c else 1])
        elif item.kind == "material":
            name = tr(str(side), lang)
            if ed is not None:
                return f"{name} " + " ".join(f"{p}{n}" for p, n in zip(PIECES, ed["counts"], strict=True))
            m = e.material[item.side_index]
            return (f"{tr(f'{side} pieces', lang)} ?" if m is None else f"{name} {material_text(m, lang)}" if m
                    else f"{name} {tr('K only', lang)}")
        elif item.kind == "outcome":
            w, why = ed["outcome"] if ed is not None else (r.get("winner"), r.get("reason"))
            if w is None:
                return tr("Result ?", lang)
            head = tr("Draw" if w == "draw" else f"{w.capitalize()} wins", lang)
            text = head + (f": {tr(reason_text(why), lang)}" if why else "")
            return f"[{text}]" if editing else text
        else:  # drawloss
            word = tr("Draw=loss", lang)
            value = ed["word"] if ed is not None else ("none" if e.drawloss is None else SIDES[e.drawloss])
            value = tr(value, lang)
            return f"{word} [{value}]" if editing else f"{word} {value}"
        shown = "?" if value is None else tr(str(value), lang)
        return f"{word} [{shown}]" if editing else f"{word} {shown}"

    def view(self, lang: str | None = None) -> dict[str, Any]:
        """What the screens draw: stage, the list (items, index, editing: its words in `lang`), the
        pieces being edited, the result (core.result.result_view), the kind and the language. (The
        loop adds "label" and, when the record could not be kept, "saved_text".)"""
        pieces: PiecesView | None = None
        item = self.items[self.index]
        if self._edit is not None and item.kind == "material":
            pieces = {"side": SIDES[item.side_index], "counts": dict(zip(PIECES, self._edit["counts"], strict=True)),
                      "at": PIECES[self._edit["at"]]}
        return {"stage": self.stage, "kind": self.kind, "title": "RESULT",
                "items": [self.label(i, lang) for i in range(len(self.items))], "index": self.index, "lang": lang,
                "editing": self._edit is not None, "pieces": pieces, "result": self.result,
                "message": self.message,
                # MR-4..MR-8, MH-6: the count under way when the game ended (the review shows it)
                "counting": self.clock_view.get("counting")}


def _number(digits: Sequence[int]) -> int:
    """[4, 3, 7] -> 437."""
    return int("".join(map(str, digits)))


def _stepped(choices: Sequence[T], value: T, d: int) -> T:
    """The choice `d` steps from `value` (clockwise = more), the list wrapping (issue 27)."""
    return choices[(choices.index(value) + d) % len(choices)]
