"""The menu model: pages of items moved through with semantic keys. No time, no pins, no pixels.

`Menu.key(key)` takes UP/DOWN/CLICK/LONG_CLICK/BACK and returns an `Action` for the loop to carry
out (start a preset, new game, next game, end game, close the menu, a setting changed) or None. Every
page wraps (issue 27): DOWN on the last item is the first, UP on the first the last, so the items one
notch from where a page opens are the first after it and the last -- the arbiter's commonest. The
loop locks the menu while a game is under way (`locked=True`): it then refuses to open (the
players' clocks are never one knob turn away from a menu); the arbiter's unlock gesture
(`UnlockGesture`, hw/README.md) opens it during a pause.

Pages:
    PRESET    (the start screen) issue 15: the groups of presets (PRESET_GROUPS: Crossword family,
              Makruk, Makhos, Sudoku, Other modes; a group of one preset shows that preset), then
              "Custom" (its CLICK opens CUSTOM) and "Settings" (opens SETTINGS). CLICK on a group
              opens its page (GROUP): its presets by their rule files' `menu_order`, the event's
              usual first, each by its `menu_name` (at most 16 characters: they fit the menu). CLICK
              on a preset starts a game at ready. A known preset (a pairing's:
              `open_presets(selected=...)`) opens its group's page at it, the groups under it (BACK).
              Without groups (a Menu built with none) one flat list, as before.
    GAME      (a game not running) Resume (a paused game goes on), Corrections (CORRECTIONS; a game
              started, not over), the counts for the side on move (issue 15; issue 27: after
              Corrections, so a count starts, stops or ends in 3 or 4 knob actions after the unlock),
              New game, Next game (the match's next game, MH-4: same time), Tie-break game (Makhos,
              MH-4: the next extra game after a tied match), Choose preset (the PRESET page, the
              game's group highlighted: the start screen's path; its group's page opens at the game's
              preset), the other side's counts (MR-4..MR-8, MH-6; none once the game is over),
              Settings (SETTINGS), End game (last: one notch back from Resume). Every item that changes or ends a
              started game asks first: a CONFIRM page, "No" first, then "Yes" -- but the counts,
              which change no time and no result and show on the screens at once. Issue 27: the
              items that leave the game for another (a preset chosen too) ask what is lost ("Lose
              this game?", "Lose the result?"), nothing when nothing is (a result saved); a result
              not saved offers them only after the arbiter's unlock (`offer_new`).
              Counts (`_count_items`): Makruk, nothing counted: "Board count: SIDE" (MR-4), "Pieces
              count: SIDE" (PIECES) for the side on move, then for the other side further down; a
              board count under way: "Pieces count: SIDE" (MR-8) and "Stop count"; a pieces' count:
              "Stop count" and "Pieces count: SIDE" (the material again). Makhos: "Makhos count:
              SIDE" for both sides (on move first); a count under way: "End count" (MH-6: a man's
              move or a capture ends it) and "Stop count".
    CORRECTIONS  (issue 15; issue 27's order, the correction at hand first) Makhos: "Take back SIDE
              extra" when the side on move got extra time in this move, "Extra SIDE OPTION" for it
              (MH-3); Left / Right: the side's time set digit by digit (`TimeEdit`, the cursor on the
              minutes' units), "Moves left/right": a side's moves made, three digits (`MovesEdit`, the
              cursor on the ones), and last -- one notch back from the first -- Undo last press (asks
              first): each an event in the journal (core Undo, Adjust, Extend, Retract, SetMoves) and a
              line of the record's `corrections`.
    PIECES    MR-6/MR-7, for the lone king's side the item named: the attacker's pieces digit by digit
              ("R=[2] N=0 S=0 M=0": rooks, knights, khons, mets or promoted pawns; the knob turns
              within what a side has, 0-2, 0-2, 0-2, 0-9, wrapping), CLICK to the next letter and on
              the last starts, a long push starts with none after the cursor (K+2R v K: one notch back
              and a long push), BACK back a
              letter (on the first: leaves). The second line derives the count (`pieces_count_start`):
              "From 5 to 8" -- the board holds both kings and the attacker's pieces, nothing is asked
              about it -- or why none can start ("Enter the pieces", "Over the limit"): not started.
    CUSTOM    Mode (countdown / per move), Time (per side, or per move), Increment (countdown),
              Start: a game with a `Control` built from these values (`custom_control`).
    SETTINGS  Event, Round, Table (numbers the result record keeps, CL-5; an event the organiser's PC
              named, issue 26: "Event:" and the name on a line of its own, as it came, Thai included; the
              knob sets a number again); when a pairing came from
              the organiser's PC (issue 6): the players' names (Left: / Right:), a pairing waiting for
              the next game (Next R3 T5: ...) and "Clear players" (the arbiter's: names and waiting
              pairing gone); Sound on/off (mute), Brightness 1-5, Stage (qualifying / last / final)
              and Level (auto = the rule file's default): XW-8's spread caps for the result entry;
              last Language (English / ไทย: every page, message and screen in it, `ui/text.tr`).

Values are edited in place: CLICK on a value item starts editing (the label shows `[value]`), the
knob turns it (clockwise = DOWN = more; a choice wraps, a number stops at its ends), CLICK keeps it
(`Action(SETTING, key)`), a long push keeps it and closes a game's menu (issue 27), BACK puts it
back. "Sound" toggles on CLICK. All values live in a `Settings`, which `SettingsStore` keeps in a
small JSON file (optional) so they survive a restart.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypedDict

from gameclock.core.control import COUNTDOWN, NS_PER_S, PER_MOVE, Control, Stage
from gameclock.core.scoring import STAGES, parse_material, pieces_count_limit
from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP
from gameclock.ui.text import LANGUAGES, tr

# Action kinds
START = "start"        # start a new game with preset_id (game 1); CUSTOM_ID: the custom preset
NEW_GAME = "new_game"  # the same preset and game number, from the start
NEXT_GAME = "next_game"  # the next game of the match (MH-4: same time; in a tie-break, its next step)
TIEBREAK_GAME = "tiebreak_game"  # MH-4: the next game is an extra game after a tied match
FINISH = "finish"      # end the game (core Finish)
CLOSE = "close"        # back to the clock screens
RESUME = "resume"      # the game menu's Resume: a paused game goes on (core Resume); else as CLOSE
SETTING = "setting"    # a setting changed: preset_id holds its key (mute, brightness, event, ...)
COUNT = "count"        # a count event: preset_id is "board left", "makhos right", "pieces right RR" (PIECES),
                       # "end" (MH-6) or "stop"
CLEAR_PLAYERS = "clear_players"  # the arbiter clears the pairing's players (and a pairing held for the next game)
UNDO = "undo"          # the arbiter takes back the last press (core Undo)
ADJUST = "adjust"      # the arbiter sets a side's time: preset_id "left"/"right", value its remaining ns (core Adjust)
MOVES = "moves"        # the arbiter sets a side's moves made: preset_id the side, value the moves (core SetMoves)
EXTEND = "extend"      # MH-3 extra time for the side on move: preset_id the side, value the option's ns (core Extend)
RETRACT = "retract"    # take back that side's extra time of this move: preset_id the side (core Retract)
_POP = "pop"           # (the menu's own) "No" on a confirmation page: back one page

# Issue 27: the question before another game, saying what it throws away (None: nothing, no question)
LOSE_GAME = "Lose this game?"      # a game under way
LOSE_RESULT = "Lose the result?"   # a game over whose result is not saved
TIEBREAK_QUESTION = "Tie-break game?"  # nothing lost, still a step the arbiter means

CUSTOM_ID = "custom"
# Issue 15: the PRESET page's groups in order (rules.loader.GROUPS' keys): (key, line, page title). A
# knob reaches any of 22 presets in at most about 16 actions this way (a flat list: up to 24 notches),
# and the game's preset -- or a pairing's -- opens highlighted in its group: one push starts it.
PRESET_GROUPS = (("crossword", "Crossword family", "CROSSWORD FAMILY"), ("makruk", "Makruk", "MAKRUK"),
                 ("makhos", "Makhos", "MAKHOS"), ("sudoku", "Sudoku", "SUDOKU"),
                 ("other", "Other modes", "OTHER MODES"))
GROUP_PAGE = "group:"  # a page name: GROUP_PAGE + the group's key
SIDES_ORDER = ("left", "right")
BRIGHTNESS_LEVELS = 5  # menu levels 1..5 -> `contrast(level)` for the display's set_contrast


@dataclass(frozen=True)
class Action:
    kind: str
    preset_id: str | None = None
    value: int | None = None  # ADJUST: the side's remaining time, ns


@dataclass(frozen=True)
class Confirm:
    """An item whose action changes or ends the game: CLICK asks `question` first (No, then Yes). The
    question is the page's title: at most 16 characters, beside the page counter."""
    question: str
    action: Action


@dataclass(frozen=True)
class TimeEdit:
    """An item that sets `side`'s time digit by digit (as a DGT 3000 does): H:MM:SS, the knob turns the
    digit under the cursor, CLICK moves to the next one (on the last: set), a long push zeroes the
    digits after the cursor and sets, BACK goes back a digit (on the first: leaves)."""
    side: str  # "left" | "right"


@dataclass(frozen=True)
class MovesEdit:
    """An item that sets `side`'s moves made digit by digit (FIDE's clock standard: the move count
    is corrected like the time): three digits, the keys as `TimeEdit`'s."""
    side: str  # "left" | "right"


# ------------------------------------------------------------------------------------- settings


@dataclass
class Settings:
    """What the arbiter sets on the clock. Times in whole seconds (the JSON file stays readable)."""
    mute: bool = False
    brightness: int = 3                # 1..BRIGHTNESS_LEVELS
    event: int = 1                     # event / division number (CL-5's result record)
    round: int = 1
    table: int = 1
    level: str = ""                    # XW-8 cap level ("": not set; the rule file's level if it has one)
    stage: str = "qualifying"          # XW-8: qualifying | last (the last qualifying game) | final
    language: str = "en"               # ui/text.LANGUAGES: the menus', messages' and screens' language
    custom_mode: str = COUNTDOWN       # COUNTDOWN or PER_MOVE
    custom_time_s: int = 15 * 60       # countdown: each side's time
    custom_increment_s: int = 0        # countdown: Fischer increment
    custom_move_s: int = 120           # per move: the time per move (MH-2's 2:00 by default)
    # From a pairing (the organiser's PC, issue 6; gameclock.organiser.pairings):
    event_name: str = ""               # an event that is not a number 1..99 (one word); "": `event`
    players: dict[str, str | None] | None = None  # {"left": NAME | None, "right": NAME | None}; None: not known
    next_pairing: dict[str, Any] | None = None  # a pairing that came while a game was under way: for the next game

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> tuple[Settings, list[str]]:
        """Settings from a parsed JSON object; values that are missing, unknown or out of range
        keep their defaults. Returns (settings, problems) -- a bad file never stops the clock."""
        out, problems = cls(), []
        if not isinstance(data, dict):
            return out, [f"expected a JSON object, got {type(data).__name__}"]
        known = {f.name: f for f in fields(cls)}
        for key, value in data.items():
            if key not in known:
                problems.append(f"{key}: unknown setting (ignored)")
                continue
            spec = FIELDS.get(key)
            if key in PAIRING_CHECKS:
                ok = PAIRING_CHECKS[key](value)
            else:
                ok = spec.valid(value) if spec else isinstance(value, type(getattr(out, key)))
            if ok:
                setattr(out, key, value)
            else:
                problems.append(f"{key}: bad value {value!r} (default {getattr(out, key)!r} used)")
        return out, problems


def _name_ok(v: object) -> bool:
    return v is None or (isinstance(v, str) and len(v) <= 120 and "#" not in v and "\n" not in v)


def _players_ok(v: object) -> bool:
    return v is None or (isinstance(v, dict) and set(v) == {"left", "right"} and all(map(_name_ok, v.values())))


_PAIRING_KEYS = {"event", "round", "table", "players"}
_SETUP_KEYS = {"level", "stage", "language", "preset"}  # issue 15: the event's set-up (dock/pairing.py), optional


def _pairing_ok(v: object) -> bool:
    if v is None:
        return True
    if not isinstance(v, dict) or not _PAIRING_KEYS <= set(v) <= _PAIRING_KEYS | _SETUP_KEYS | {"game"}:
        return False
    game = v.get("game")  # issue 16: the game's number in its match (dock/pairing.py MAX_GAME)
    if game is not None and not (isinstance(game, int) and not isinstance(game, bool) and 1 <= game <= 99):
        return False
    setup_ok = (all(v.get(k) is None or FIELDS[k].valid(v[k]) for k in ("level", "stage"))
                and v.get("language") in (None, *LANGUAGES)
                and (v.get("preset") is None or (isinstance(v["preset"], str) and 0 < len(v["preset"]) <= 64)))
    return (_event_ok(v["event"] or "") and FIELDS["round"].valid(v["round"]) and setup_ok
            and FIELDS["table"].valid(v["table"]) and v["players"] is not None and _players_ok(v["players"]))


def _event_ok(v: object) -> bool:
    return isinstance(v, str) and len(v.split()) <= 1 and "#" not in v and len(v) <= 64


# settings.json values that are not knob fields: checked when the file is read
PAIRING_CHECKS: dict[str, Callable[[object], bool]] = {"event_name": _event_ok, "players": _players_ok, "next_pairing": _pairing_ok}


def players_text(players: Mapping[str, str | None] | None, sep: str = " v ") -> str:
    """"LEFT v RIGHT" of a pairing's players ("?" for a name not known); "" for None."""
    if not players:
        return ""
    return sep.join(players.get(s) or "?" for s in ("left", "right"))


# MR-6's material of the attacker, in the order the PIECES page asks it, and how many each side has
# (seed 001 §7, 003: 2 rooks, 2 knights, 2 khons; a met and up to 8 promoted pawns, which move alike):
# the knob cannot go past these, so impossible material (3 rooks, 3 knights) cannot be entered.
ATTACKER_PIECES = "RNSM"
ATTACKER_MAX = (2, 2, 2, 9)


@dataclass(frozen=True)
class PiecesEdit:
    """An item that opens the PIECES page for `side`, the lone king's side (the side that counts,
    MR-6): the attacker's pieces R N S M digit by digit, the count's start and limit derived."""
    side: str  # "left" | "right"


@dataclass
class PiecesEditing:
    """The PIECES page's entry (MR-6, MR-7): the lone king's side, the attacker's count of each of
    ATTACKER_PIECES, and the cursor (0..3)."""
    side: str
    counts: list[int]
    pos: int = 0

    @property
    def attacker(self) -> str:
        """The attacker's material in letters (R N S M), e.g. "RR"."""
        return "".join(p * n for p, n in zip(ATTACKER_PIECES, self.counts, strict=True))

    def text(self, lang: str | None = None) -> str:
        """"R=[2] N=0 S=0 M=0": the cursor's count in [] (an "=" keeps "N0" from reading "NO"). In Thai
        (issue 27: piece names, not letters; the four names do not fit a line at 15 px) the piece under
        the cursor and the others entered: "ม้า [1]  เรือ 2"."""
        if lang == "th":
            names = [tr(PIECE_WORDS[p], lang) for p in ATTACKER_PIECES]
            others = [f"{names[i]} {n}" for i, n in enumerate(self.counts) if n and i != self.pos]
            return "  ".join([f"{names[self.pos]} [{self.counts[self.pos]}]", *others])
        return " ".join(f"{p}=[{n}]" if i == self.pos else f"{p}={n}"
                        for i, (p, n) in enumerate(zip(ATTACKER_PIECES, self.counts, strict=True)))


PIECE_WORDS = {"R": "ROOK", "N": "KNIGHT", "S": "KHON", "M": "MET"}  # the catalogue's (ui/text_th.py) piece names


def pieces_count_start(attacker: str, with_kings: bool = True) -> tuple[int, int]:
    """MR-6, MR-7: (the first counted number, the limit) of a pieces' count against `attacker`'s
    material (letters R N S M, the king not written); ValueError when no count can start: no piece,
    or a start past the limit. The board holds the two kings and the attacker's pieces (MR-6: the
    lone king, and no unpromoted pawn), so nothing else is asked: MR-7 counts from the pieces on the
    board plus one -- both kings counted (seed 003 §10: K+2R v K counts 5 at once) or, seed 001
    §7(12)'s reading (`with_kings` False), no king (K+2R v K: 3)."""
    if not attacker:
        raise ValueError("the attacker has no piece")
    limit = pieces_count_limit(parse_material(attacker))
    on_board = 2 + len(attacker)
    first = on_board + 1 if with_kings else on_board - 1
    if first > limit:
        raise ValueError(f"the count would start at {first}, past its limit {limit}")
    return first, limit


def contrast(brightness: int) -> int:
    """Menu brightness 1..5 -> display contrast 0..255 (luma's `contrast(level)`), doubling: 16, 32, 64, 128, 255."""
    level = min(max(brightness, 1), BRIGHTNESS_LEVELS)
    return round(255 * (1 << (level - 1)) / (1 << (BRIGHTNESS_LEVELS - 1)))


def custom_control(s: Settings) -> Control:
    """The custom preset's clock from the edited values. Countdown: `custom_time_s` each, a Fischer
    increment, a low-time warning at 1:00 when there is more than that. Per move: `custom_move_s` a
    move, announcements at 30 s and 10 s left (as MH-2) where the move time is longer."""
    if s.custom_mode == PER_MOVE:
        move = s.custom_move_s * NS_PER_S
        announce = tuple(t * NS_PER_S for t in (30, 10) if t * NS_PER_S < move)
        return Control(mode=PER_MOVE, move_time_ns=move, announce_ns=announce)
    t = s.custom_time_s * NS_PER_S
    stage = (Stage(t, None, s.custom_increment_s * NS_PER_S),)
    low = (60 * NS_PER_S,) if t > 60 * NS_PER_S else ()
    return Control(mode=COUNTDOWN, stages_left=stage, stages_right=stage, low_time_ns=low)


@dataclass(frozen=True)
class CustomPreset:
    """The custom preset, shaped like `rules.loader.Preset` as far as the loop needs."""
    name: str
    control: Control
    id: str = CUSTOM_ID
    short: str = "CUSTOM"

    def control_for(self, tiebreak: int = 0) -> Control:
        return self.control


def custom_preset(s: Settings) -> CustomPreset:
    """The custom preset of the edited values, e.g. "Custom 15:00+5" or "Custom 2:00/move"."""
    if s.custom_mode == PER_MOVE:
        name = f"Custom {_clock(s.custom_move_s)}/move"
    else:
        inc = f"+{s.custom_increment_s}" if s.custom_increment_s else ""
        name = f"Custom {_clock(s.custom_time_s)}{inc}"
    return CustomPreset(name, custom_control(s))


# ------------------------------------------------------------------------------------- value items


def _clock(seconds: int) -> str:
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


FieldValue = int | str  # a Field's value: a number, seconds, a choice's word, a toggle's bool (an int)


@dataclass(frozen=True)
class Field:
    """A value the knob edits. kind: "number" (lo..hi by step), "time" (seconds, shown M:SS),
    "choice" (one of `choices`), "toggle" (a bool flipped by CLICK; `show` gives its two words)."""
    key: str
    label: str
    kind: str
    lo: int = 0
    hi: int = 0
    step: int = 1
    choices: tuple[str, ...] = ()
    words: tuple[str, str] = ("off", "on")

    def show(self, value: FieldValue) -> str:
        if self.kind == "time" and isinstance(value, int):
            return _clock(value)
        if self.kind == "toggle":
            return self.words[bool(value)]
        if self.key == "language":  # each language in its own words: findable by who reads it
            return LANGUAGE_NAMES.get(str(value), str(value))
        if self.key == "level" and value == "":
            return "not set"  # XW-8: a preset with one level uses it; else the result asks for it
        if self.kind == "choice":
            return {COUNTDOWN: "countdown", PER_MOVE: "per move", "": "auto"}.get(str(value), str(value))
        if self.key == "brightness":
            return f"{value}/{self.hi}"
        return str(value)

    def stepped(self, value: FieldValue, n: int) -> FieldValue:
        if self.kind == "choice":  # a list: it wraps (issue 27); a number stops at its ends
            i = self.choices.index(value) if value in self.choices else 0
            return self.choices[(i + n) % len(self.choices)]
        if isinstance(value, str):
            raise TypeError(f"{self.key}: a number, not {value!r}")
        return min(max(value + n * self.step, self.lo), self.hi)

    def valid(self, value: object) -> bool:
        if self.kind == "toggle":
            return isinstance(value, bool)
        if self.kind == "choice":
            return value in self.choices
        return (isinstance(value, int) and not isinstance(value, bool) and self.lo <= value <= self.hi
                and (value - self.lo) % self.step == 0)


LANGUAGE_NAMES = {"en": "English", "th": "ไทย"}

# Labels built from parts (issue 15): (the catalog's template, the English label as the menu builds
# it). `say` translates the template and fills in the parts, the sides' words translated too.
LABEL_TEMPLATES = (
    ("Extra {side} {option}", re.compile(r"Extra (?P<side>left|right) (?P<option>\S+)$")),
    ("Take back {side} extra", re.compile(r"Take back (?P<side>left|right) extra$")),
    ("{side} +{time}?", re.compile(r"(?P<side>Left|Right) \+(?P<time>\S+)\?$")),
    ("{side}: {name}", re.compile(r"(?P<side>Left|Right): (?P<name>.*)$")),
    ("Next R{round} T{table}: {players}", re.compile(r"Next R(?P<round>\d+) T(?P<table>\d+): (?P<players>.*)$")),
)
_NOT_WORDS = ("option", "time", "name", "round", "table", "players")  # parts kept as they are


def say(label: str, lang: str | None) -> str:
    """A menu label or page title in `lang`: the catalog's words (ui/text.tr), or a label built from
    parts through its template ("Extra right 2x5:00" -> "พิเศษขวา 2x5:00")."""
    if lang is None or lang == "en":
        return label
    for template, pattern in LABEL_TEMPLATES:
        m = pattern.match(label)
        if m:
            parts = {k: v if k in _NOT_WORDS else tr(v, lang) for k, v in m.groupdict().items()}
            return tr(template, lang).format(**parts)
    return tr(label, lang)

FIELDS: dict[str, Field] = {f.key: f for f in (
    Field("language", "Language", "choice", choices=LANGUAGES),
    Field("event", "Event", "number", 1, 99),
    Field("round", "Round", "number", 1, 99),
    Field("table", "Table", "number", 1, 999),
    Field("level", "Level", "choice", choices=("", "primary", "secondary")),
    Field("stage", "Stage", "choice", choices=STAGES),
    Field("mute", "Sound", "toggle", words=("on", "off")),  # mute False: sound on
    Field("brightness", "Bright", "number", 1, BRIGHTNESS_LEVELS),
    Field("custom_mode", "Mode", "choice", choices=(COUNTDOWN, PER_MOVE)),
    Field("custom_time_s", "Time", "time", 60, 3 * 3600, 60),
    Field("custom_increment_s", "Incr", "time", 0, 60, 1),
    Field("custom_move_s", "Move", "time", 5, 600, 5),
)}


# ------------------------------------------------------------------------------------- the menu


@dataclass(frozen=True)
class Note:
    """An item that only shows its label as it came, never translated: the name of the event the
    organiser's PC gave the clock (issue 26: any text, Thai included). CLICK does nothing."""


Target = Action | Field | Confirm | TimeEdit | MovesEdit | PiecesEdit | Note | str | None  # what an item's CLICK
        # does: an action, a page name, a value to edit, a question first, a time to set; None or a Note: a line that
        # only shows something

DIGIT_MAX = (9, 5, 9, 5, 9)  # H, M tens, M units, S tens, S units
TIME_START = 2  # issue 27: a time is edited from the minutes' units, the digit most corrections change


def time_digits(ns: int) -> list[int]:
    """[H, M, M, S, S] of a time (ns, whole seconds; at most 9:59:59, at least 0)."""
    s = min(max(ns, 0) // NS_PER_S, 9 * 3600 + 59 * 60 + 59)
    h, m, sec = s // 3600, s % 3600 // 60, s % 60
    return [h, m // 10, m % 10, sec // 10, sec % 10]


def moves_digits(moves: int) -> list[int]:
    """[hundreds, tens, ones] of a move count (0-999)."""
    n = min(max(moves, 0), 999)
    return [n // 100, n // 10 % 10, n % 10]


def digits_ns(d: Sequence[int]) -> int:
    return ((d[0] * 60 + d[1] * 10 + d[2]) * 60 + d[3] * 10 + d[4]) * NS_PER_S


MOVES_DIGIT_MAX = (9, 9, 9)


@dataclass
class TimeEditing:
    """The time (or, `moves`, the moves made) being set: the side, its digits and the cursor."""
    side: str
    digits: list[int]
    pos: int
    moves: bool = False

    @property
    def maxes(self) -> tuple[int, ...]:
        return MOVES_DIGIT_MAX if self.moves else DIGIT_MAX

    @property
    def first(self) -> int:
        """The first digit the cursor visits: a time's hours only when it has some."""
        return 0 if self.moves or self.digits[0] else 1

    def text(self) -> str:
        d = [str(x) for x in self.digits]
        d[self.pos] = f"[{d[self.pos]}]"
        return "".join(d) if self.moves else f"{d[0]}:{d[1]}{d[2]}:{d[3]}{d[4]}"


@dataclass
class Page:
    name: str
    title: str
    items: list[tuple[str, Target]]  # (label, target); dynamic pages: rebuilt
    index: int = 0


class MenuView(TypedDict):
    """`Menu.view()`: what the menu screen draws (`screens.render_menu` needs title, items, index)."""
    title: str
    items: list[str]
    index: int
    page: str | None
    editing: bool
    lang: str


@dataclass
class Menu:
    """presets: (id, label) in display order. settings: the values the SETTINGS and CUSTOM pages edit.
    groups: each preset's group (PRESET_GROUPS' keys; a preset not in it: "other"); none: one flat list."""
    presets: Sequence[tuple[str, str]]
    locked: bool = False
    settings: Settings = field(default_factory=Settings)
    _stack: list[Page] = field(default_factory=list)
    _preset_hint: str | None = None  # the game's preset, highlighted when "Choose preset" opens
    _editing: tuple[Field, FieldValue] | None = None  # the field being edited and its new value
    _time: TimeEditing | None = None  # a side's time being set digit by digit (Corrections)
    times_ns: tuple[int, int] = (0, 0)  # each side's remaining time when the game menu opened (TimeEdit starts there)
    moves: tuple[int, int] = (0, 0)  # each side's moves made then (MovesEdit starts there)
    _extra: tuple[tuple[str, int], ...] = ()  # MH-3 options for the side on move (Corrections)
    _on_move: str | None = None
    _extra_given: bool = False
    _pieces: PiecesEditing | None = None  # the PIECES page's entry (MR-6), while it is open
    _lose: str | None = None  # the game menu's question before another game (a preset chosen too)
    pieces_with_kings: bool = True  # MR-7: the game's rule file counts both kings (seed 003) or none (001)
    groups: Mapping[str, str] = field(default_factory=dict)  # preset id -> its group (the PRESET page's)

    @property
    def is_open(self) -> bool:
        return bool(self._stack)

    @property
    def editing(self) -> bool:
        return self._editing is not None or self._time is not None or self._pieces is not None

    def open_presets(self, selected: str | None = None) -> bool:
        """The start screen: the preset list (alone on the stack: BACK stays here)."""
        if self.locked:
            return False
        self._stack = self._presets_pages(selected)
        self._preset_hint = selected
        self._editing = None
        self._lose = None
        return True

    def open_game_menu(self, *, preset_id: str | None, started: bool, over: bool,
                       has_next: bool, counts: Sequence[str] = (), counting: str | None = None,
                       has_tiebreak: bool = False, times_ns: tuple[int, int] = (0, 0),
                       extra: Sequence[tuple[str, int]] = (), on_move: str | None = None,
                       extra_given: bool = False, counting_side: str | None = None,
                       count_side: str | None = None, pieces_with_kings: bool = True,
                       moves: tuple[int, int] = (0, 0), lose: str | None = None,
                       offer_new: bool = True) -> bool:
        """The menu of a game that is not running (ready, paused, flagged or finished). counts: the
        preset's counts ("makruk", "makhos"); counting: the kind of the count under way, if any;
        has_tiebreak: the preset plays extra games after a tied match (MH-4); times_ns: each side's
        remaining time now (the Corrections page sets them from there), moves: each side's moves made
        (likewise); extra: the MH-3 options the side
        on move (`on_move`) may still be given, as (label, ns); extra_given: that side got extra time
        in this move (it can be taken back). Every item that changes or ends the game asks first (No
        is the first answer) -- but the counts (issue 15: started, stopped, ended in at most 3 knob
        actions): counting_side: the side counting now; count_side: the side on move, the one a
        new count is offered for first (a player asks to count on their own move: MR-4, MR-6's
        lone king after the capture, MH-6); pieces_with_kings: MR-7's reading of the rule file.
        Issue 27: `lose` is the question every item that leaves this game for another asks first --
        New game, Next game, Tie-break game, a preset chosen -- saying what is lost: "Lose this
        game?" (a game under way: the default when started and not over), "Lose the result?" (a
        result not saved); None: nothing is (at ready, a result saved: it stays in the outbox).
        `offer_new` False leaves those items out (the result entry's plain long push: a result not
        saved is thrown away only after the arbiter's unlock)."""
        if self.locked:
            return False
        if lose is None and started and not over:
            lose = LOSE_GAME
        # Issue 27: the page wraps, so the items one notch from Resume are the first after it and the
        # last: Corrections (DOWN) and End game (UP), the arbiter's commonest, then the counts.
        items: list[tuple[str, Target]] = [("Resume", Action(RESUME))]
        first_counts, other_counts = _count_items(counts, counting, counting_side, count_side) if not over else ([], [])
        if started and not over:  # the arbiter's corrections (issue 15): in a pause, with the menu unlocked
            items.append(("Corrections", "corrections"))
        items += first_counts  # right after: a count in 3 or 4 actions after the unlock
        if offer_new:
            items.append(("New game", Confirm(lose, Action(NEW_GAME)) if lose else Action(NEW_GAME)))
            if has_next:
                items.append(("Next game", Confirm(lose, Action(NEXT_GAME)) if lose else Action(NEXT_GAME)))
            if has_tiebreak:
                items.append(("Tie-break game", Confirm(lose or TIEBREAK_QUESTION, Action(TIEBREAK_GAME))))
            items.append(("Choose preset", "presets"))
        items += other_counts  # the other side's new counts
        items.append(("Settings", "settings"))
        if started and not over:  # last: one notch back from Resume
            items.append(("End game", Confirm("End the game?", Action(FINISH))))
        self.times_ns = times_ns
        self.moves = moves
        self._extra, self._on_move, self._extra_given = tuple(extra), on_move, extra_given
        self._time = None
        self._pieces = None
        self.pieces_with_kings = pieces_with_kings
        self._stack = [Page("game", "GAME", items)]
        self._preset_hint = preset_id
        self._editing = None
        self._lose = lose
        return True

    def close(self) -> None:
        self._stack = []
        self._editing = None
        self._time = None
        self._pieces = None
        self._lose = None

    def key(self, key: str) -> Action | None:
        if not self._stack:
            return None
        if self._editing is not None:
            return self._edit_key(key, self._editing)
        if self._time is not None:
            return self._time_key(key, self._time)
        if self._pieces is not None:
            return self._pieces_key(key, self._pieces)
        page = self._stack[-1]
        items = self._items(page)
        if key in (UP, DOWN) and items:  # issue 27: a page wraps (the first item's UP is the last)
            page.index = (min(page.index, len(items) - 1) + (1 if key == DOWN else -1)) % len(items)
        elif key == CLICK:
            if not items:
                return None
            target = items[min(page.index, len(items) - 1)][1]
            if target is None or isinstance(target, Note):  # a line that only shows something (the players' names)
                return None
            if isinstance(target, Action):
                if target.kind == _POP:
                    self._stack.pop()
                    return None
                if target.kind == START and self._lose and page.name != "confirm":
                    # a preset chosen from the game menu leaves this game too: the same question first
                    self._stack.append(Page("confirm", self._lose, [("No", Action(_POP)), ("Yes", target)]))
                    return None
                if page.name == "confirm":  # answered Yes: the question is done
                    self._stack.pop()
                return target
            if isinstance(target, Confirm):
                self._stack.append(Page("confirm", target.question, [("No", Action(_POP)), ("Yes", target.action)]))
                return None
            if isinstance(target, TimeEdit):  # issue 27: the cursor on the minutes' ones (BACK: the tens)
                start = self.times_ns[SIDES_ORDER.index(target.side)]
                self._time = TimeEditing(target.side, time_digits(start), TIME_START)
                return None
            if isinstance(target, MovesEdit):  # the cursor on the ones
                self._time = TimeEditing(target.side, moves_digits(self.moves[SIDES_ORDER.index(target.side)]),
                                         len(MOVES_DIGIT_MAX) - 1, moves=True)
                return None
            if isinstance(target, PiecesEdit):  # MR-6: the attacker's pieces, the cursor on the rooks
                self._pieces = PiecesEditing(target.side, [0] * len(ATTACKER_PIECES))
                self._stack.append(Page("pieces", f"PIECES {target.side.upper()}", []))
                return None
            if isinstance(target, Field):
                if target.kind == "toggle":
                    setattr(self.settings, target.key, not getattr(self.settings, target.key))
                    return Action(SETTING, target.key)
                self._editing = (target, getattr(self.settings, target.key))
                return None
            if target == "presets":  # issue 27: the groups, the game's highlighted: the start screen's path
                self._stack.append(self._presets_pages(self._preset_hint)[0])
            else:
                self._stack.append(self._page(target))
        elif key == BACK:
            if len(self._stack) > 1:
                self._stack.pop()
            elif page.name == "game":
                return Action(CLOSE)
        elif key == LONG_CLICK:
            if self._stack[0].name == "game":
                return Action(CLOSE)
        return None

    def _time_key(self, key: str, t: TimeEditing) -> Action | None:
        if key in (UP, DOWN):  # clockwise (DOWN) = more; a digit wraps (9 -> 0, 5 -> 0 for tens)
            top = t.maxes[t.pos] + 1
            t.digits[t.pos] = (t.digits[t.pos] + (1 if key == DOWN else -1)) % top
        elif key == CLICK and t.pos < len(t.digits) - 1:
            t.pos += 1
        elif key in (CLICK, LONG_CLICK):  # the last digit set, or "zeros from here on": the value is set
            if key == LONG_CLICK:
                t.digits[t.pos + 1:] = [0] * (len(t.digits) - t.pos - 1)
            self._time = None
            if t.moves:
                return Action(MOVES, t.side, int("".join(map(str, t.digits))))
            return Action(ADJUST, t.side, digits_ns(t.digits))
        elif key == BACK:
            if t.pos > t.first:
                t.pos -= 1
            else:
                self._time = None  # left without setting anything
        return None

    def _pieces_key(self, key: str, p: PiecesEditing) -> Action | None:
        """The PIECES page: the knob sets the count of the letter under the cursor (0 up to what a
        side has), CLICK moves to the next letter and on the last starts the count, a long push
        starts it with none of the letters after the cursor (K+2R: 2 notches and a long push), BACK
        goes back a letter and on the first leaves. A count that cannot start is not started: the
        page says why."""
        if key in (UP, DOWN):  # 0 .. what a side has, wrapping (issue 27): 0 -> 2 rooks is one notch back
            top = ATTACKER_MAX[p.pos]
            p.counts[p.pos] = (p.counts[p.pos] + (1 if key == DOWN else -1)) % (top + 1)
        elif key == CLICK and p.pos < len(ATTACKER_PIECES) - 1:
            p.pos += 1
        elif key in (CLICK, LONG_CLICK):
            if key == LONG_CLICK:
                p.counts[p.pos + 1:] = [0] * (len(p.counts) - p.pos - 1)
            try:
                pieces_count_start(p.attacker, self.pieces_with_kings)
            except ValueError:
                return None  # the page's second line says why
            self._pieces = None
            self._stack.pop()
            return Action(COUNT, f"pieces {p.side} {p.attacker}")
        elif key == BACK:
            if p.pos > 0:
                p.pos -= 1
            else:
                self._pieces = None
                self._stack.pop()
        return None

    def _pieces_outcome(self, p: PiecesEditing) -> str:
        """The PIECES page's second line: the count's first number and limit (MR-6, MR-7), or why none
        can start."""
        lang = self.settings.language
        try:
            first, limit = pieces_count_start(p.attacker, self.pieces_with_kings)
        except ValueError:
            if not p.attacker:
                return tr("Enter the pieces", lang)
            return tr("Over the limit", lang)
        return tr("From {first} to {limit}", lang).format(first=first, limit=limit)

    def _edit_key(self, key: str, editing: tuple[Field, FieldValue]) -> Action | None:
        """A value being edited: the knob turns it, CLICK keeps it, BACK puts it back; a long push
        keeps it and, in a game's menu, closes the menu (issue 27: "done", as a long push sets a time
        or starts a pieces' count) -- one action less for the commonest settings."""
        spec, value = editing
        if key in (UP, DOWN):
            self._editing = (spec, spec.stepped(value, 1 if key == DOWN else -1))
            return None
        if key == BACK:
            self._editing = None  # put back: the setting keeps its value
            return None
        if key not in (CLICK, LONG_CLICK):
            return None
        self._editing = None
        action = None
        if spec.key == "event" and self.settings.event_name:  # a number replaces the pairing's name
            self.settings.event_name = ""
            self.settings.event = int(value)
            action = Action(SETTING, spec.key)
        elif value != getattr(self.settings, spec.key):
            setattr(self.settings, spec.key, value)
            action = Action(SETTING, spec.key)
        if key == LONG_CLICK and self._stack and self._stack[0].name == "game":
            self.close()
        return action

    def selected(self) -> tuple[str, Target] | None:
        """The highlighted item (label, target), None if closed or empty."""
        if not self._stack:
            return None
        page = self._stack[-1]
        items = self._items(page)
        if not items:
            return None
        return items[min(page.index, len(items) - 1)]

    def labels(self) -> list[str]:
        """The open page's items by their names, without the values a value item shows ("Round", not
        "Round 3"; "Left", not "Left 0:12:34"): the menus as docs/arbiter.md lists them."""
        if not self._stack:
            return []
        return [label for label, _ in self._items(self._stack[-1])]

    def selected_preset(self) -> str | None:
        """The highlighted preset id (CUSTOM_ID for the custom preset's Start), else None."""
        item = self.selected()
        if item and isinstance(item[1], Action) and item[1].kind == START:
            return item[1].preset_id
        return None

    def view(self) -> MenuView:
        """What the menu screen draws: {"title", "items": [label], "index", "page", "editing"}."""
        lang = self.settings.language
        if not self._stack:
            return {"title": "", "items": [], "index": 0, "page": None, "editing": False, "lang": lang}
        page = self._stack[-1]
        items = self._items(page)
        return {"title": say(page.title, lang), "items": [self._label(label, t, lang) for label, t in items],
                "index": min(page.index, max(len(items) - 1, 0)), "page": page.name,
                "editing": self.editing, "lang": lang}

    # ---- pages ----
    def _label(self, label: str, target: Target, lang: str | None = None) -> str:
        """An item's text in `lang`: its label and, for a value, the value (the words translated)."""
        if isinstance(target, Note):
            return label
        label = say(label, lang)
        if isinstance(target, MovesEdit):
            t = self._time
            if t is not None and t.moves and t.side == target.side:
                return f"{label} {t.text()}"
            return f"{label} {self.moves[SIDES_ORDER.index(target.side)]}"
        if isinstance(target, TimeEdit):
            t = self._time
            if t is not None and not t.moves and t.side == target.side:
                return f"{label} {t.text()}"
            d = time_digits(self.times_ns[SIDES_ORDER.index(target.side)])
            return f"{label} {d[0]}:{d[1]}{d[2]}:{d[3]}{d[4]}"
        if not isinstance(target, Field):
            return label
        if self._editing is not None and self._editing[0] is target:
            return f"{label} [{tr(target.show(self._editing[1]), lang)}]"
        if target.key == "event" and self.settings.event_name:  # the PC's event: its name is the next line
            return f"{label}:"
        return f"{label} {tr(target.show(getattr(self.settings, target.key)), lang)}"

    def _items(self, page: Page) -> list[tuple[str, Target]]:
        if page.name == "custom":
            s, f = self.settings, FIELDS
            items: list[tuple[str, Target]] = [("Mode", f["custom_mode"])]
            if s.custom_mode == PER_MOVE:
                items.append(("Move", f["custom_move_s"]))
            else:
                items += [("Time", f["custom_time_s"]), ("Incr", f["custom_increment_s"])]
            items.append(("Start", Action(START, CUSTOM_ID)))
            return items
        if page.name == "settings":
            return self._settings_items()
        if page.name == "pieces" and self._pieces is not None:
            return [(self._pieces.text(self.settings.language), None), (self._pieces_outcome(self._pieces), None)]
        return page.items

    def _settings_items(self) -> list[tuple[str, Target]]:
        """Event, Round, Table, the pairing's players and the one held for the next game (with
        "Clear players"), then the clock's own settings."""
        s = self.settings
        items: list[tuple[str, Target]] = [(FIELDS["event"].label, FIELDS["event"])]
        if s.event_name:  # the event the PC gave (issue 26): any text, so a line of its own, as it came
            items.append((s.event_name, Note()))
        items += [(FIELDS[k].label, FIELDS[k]) for k in ("round", "table")]
        if s.players:
            items += [(f"{side.title()}: {s.players.get(side) or '?'}", None) for side in ("left", "right")]
        if s.next_pairing:
            p = s.next_pairing
            items.append((f"Next R{p['round']} T{p['table']}: {players_text(p['players'])}", None))
        if s.players or s.next_pairing:
            items.append(("Clear players", Action(CLEAR_PLAYERS)))
        # issue 27: the page wraps: Language is one notch back from Event, Level two (XW-8: a Crossword
        # result cannot be confirmed without it)
        items += [(FIELDS[k].label, FIELDS[k]) for k in ("mute", "brightness", "stage", "level", "language")]
        return items

    def _page(self, name: str) -> Page:
        if name.startswith(GROUP_PAGE):  # opened at the game's preset when it is one of the group's
            return self._group_page(name.removeprefix(GROUP_PAGE), self._preset_hint)
        if name == "custom":
            return Page("custom", "CUSTOM", [])
        if name == "settings":
            return Page("settings", "SETTINGS", [])  # items: _settings_items (they follow the pairing)
        if name == "corrections":
            # Issue 27: the page wraps and opens on its first item: the correction at hand first (an
            # extension just given, MH-3's extra time for the mover), the times, the moves, and "Undo
            # last press" last -- one notch back from the first.
            items: list[tuple[str, Target]] = []
            side = self._on_move
            if side is not None:  # MH-3: the arbiter gives the mover extra time (which option: asked)
                if self._extra_given:  # first: an extension just given is the correction at hand
                    items.append((f"Take back {side} extra", Confirm("Take it back?", Action(RETRACT, side))))
                items += [(f"Extra {side} {label}", Confirm(f"{side.title()} +{label.split('x')[-1]}?",
                                                            Action(EXTEND, side, ns)))
                          for label, ns in self._extra]
            items += [("Left", TimeEdit("left")), ("Right", TimeEdit("right")),
                      ("Moves left", MovesEdit("left")), ("Moves right", MovesEdit("right")),
                      ("Undo last press", Confirm("Undo last press?", Action(UNDO)))]
            return Page("corrections", "CORRECTIONS", items)
        raise KeyError(name)

    def _presets_pages(self, selected: str | None) -> list[Page]:
        """The preset pages, `selected` highlighted: without groups one list (the presets, Custom,
        Settings); with groups (issue 15) the first page lists the groups that have presets (a group
        of one preset: that preset itself), then Custom and Settings, and CLICK on a group opens its
        presets in their order. A selected preset in a group of several opens its group's page at it
        (BACK: the groups)."""
        if not self.groups:
            items: list[tuple[str, Target]] = [(label, Action(START, pid)) for pid, label in self.presets]
            items += [("Custom", "custom"), ("Settings", "settings")]
            index = next((i for i, (pid, _) in enumerate(self.presets) if pid == selected), 0)
            return [Page("presets", "PRESET", items, index)]
        first: list[tuple[str, Target]] = []
        index, pages = 0, []
        for key, label, _title in PRESET_GROUPS:
            members = [(pid, name) for pid, name in self.presets if self.groups.get(pid, "other") == key]
            if not members:
                continue
            if any(pid == selected for pid, _ in members):
                index = len(first)
                if len(members) > 1:
                    pages.append(self._group_page(key, selected))
            first.append((members[0][1], Action(START, members[0][0])) if len(members) == 1
                         else (label, f"{GROUP_PAGE}{key}"))
        first += [("Custom", "custom"), ("Settings", "settings")]
        return [Page("presets", "PRESET", first, index)] + pages

    def _group_page(self, key: str, selected: str | None = None) -> Page:
        """A group's presets in their order (issue 15: the event's usual presets first)."""
        title = next(t for k, _, t in PRESET_GROUPS if k == key)
        members = [(pid, name) for pid, name in self.presets if self.groups.get(pid, "other") == key]
        index = next((i for i, (pid, _) in enumerate(members) if pid == selected), 0)
        return Page("group", title, [(name, Action(START, pid)) for pid, name in members], index)


def _count_items(counts: Sequence[str], counting: str | None, counting_side: str | None,
                 on_move: str | None) -> tuple[list[tuple[str, Target]], list[tuple[str, Target]]]:
    """The game menu's count items (MR-4..MR-8 for "makruk", MH-6 for "makhos"): those for right
    after Resume and those for further down. No question first: a count changes no time and no
    result, the menu is the arbiter's (unlocked in a pause) and the screens show the count and its
    side at once (issue 15: a count started, stopped or ended in at most 3 knob actions).

    Nothing counted: the side on move's counts first (a player asks on their own move), the other
    side's further down. A board count under way: its pieces' count (MR-8: the weaker side reduced
    to a lone king) and Stop. A pieces' count: Stop, and the material again (an entry corrected).
    A Makhos count: End (MH-6: a man's move or a capture) and Stop."""
    first: list[tuple[str, Target]] = []
    later: list[tuple[str, Target]] = []
    sides = (on_move, _other(on_move)) if on_move in SIDES_ORDER else (None, None)
    stop: tuple[str, Target] = ("Stop count", Action(COUNT, "stop"))
    if counting == "board" and counting_side in SIDES_ORDER:
        return [(f"Pieces count: {counting_side}", PiecesEdit(counting_side)), stop], []
    if counting == "pieces" and counting_side in SIDES_ORDER:
        return [stop, (f"Pieces count: {counting_side}", PiecesEdit(counting_side))], []
    if counting == "makhos":
        return [("End count", Action(COUNT, "end")), stop], []
    if counting:
        return [stop], []
    mine, theirs = sides
    if "makruk" in counts:
        if mine is not None and theirs is not None:
            first += [(f"Board count: {mine}", Action(COUNT, f"board {mine}")),
                      (f"Pieces count: {mine}", PiecesEdit(mine))]
            later += [(f"Board count: {theirs}", Action(COUNT, f"board {theirs}")),
                      (f"Pieces count: {theirs}", PiecesEdit(theirs))]
        else:  # no side on move (at ready): both sides, further down
            later += [(f"Board count: {s}", Action(COUNT, f"board {s}")) for s in SIDES_ORDER]
            later += [(f"Pieces count: {s}", PiecesEdit(s)) for s in SIDES_ORDER]
    if "makhos" in counts:  # two items: both sides within 3 actions (at ready: further down)
        makhos: list[tuple[str, Target]] = [(f"Makhos count: {s}", Action(COUNT, f"makhos {s}"))
                                            for s in (sides if mine is not None else SIDES_ORDER)]
        (first if mine is not None else later).extend(makhos)
    return first, later


def _other(side: str | None) -> str | None:
    return None if side not in SIDES_ORDER else SIDES_ORDER[1 - SIDES_ORDER.index(side)]


class UnlockGesture:
    """The arbiter's hold gesture: while a game is paused, the knob held pushed for `hold_ns`
    (3 s) unlocks the menu. Pure, like `ClickTimer`: the loop feeds push edges (`arm` says whether
    this push may unlock: the game is paused and the menu locked), asks `next_wake()`, and at that
    time calls `expire(at_ns)`, True when the hold is complete."""

    def __init__(self, hold_ns: int = 3 * NS_PER_S):
        self.hold_ns = hold_ns
        self._down_ns: int | None = None

    def edge(self, at_ns: int, down: bool, *, arm: bool) -> None:
        self._down_ns = at_ns if down and arm else None

    def cancel(self) -> None:
        self._down_ns = None

    def next_wake(self) -> int | None:
        return None if self._down_ns is None else self._down_ns + self.hold_ns

    def expire(self, at_ns: int) -> bool:
        if self._down_ns is not None and at_ns - self._down_ns >= self.hold_ns:
            self._down_ns = None
            return True
        return False

