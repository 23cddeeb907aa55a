"""The menu model: pages of items moved through with semantic keys. No time, no pins, no pixels.

`Menu.key(key)` takes UP/DOWN/CLICK/LONG_CLICK/BACK and returns an `Action` for the loop to carry
out (start a preset, new game, next game, end game, close the menu, a setting changed) or None. The
loop locks the menu while a game is under way (`locked=True`): it then refuses to open (the
players' clocks are never one knob turn away from a menu); the arbiter's unlock gesture
(`UnlockGesture`, hw/README.md) opens it during a pause.

Pages:
    PRESET    (the start screen) every event preset, then "Custom" (its CLICK opens CUSTOM) and
              "Settings" (opens SETTINGS). CLICK on a preset starts a game at ready.
    GAME      (a game not running) Resume, Corrections (CORRECTIONS; a game started, not over), New
              game, Next game (the match's next game, MH-4: same time), Tie-break game (Makhos, MH-4:
              the next extra game after a tied match), Choose preset (PRESET), the counts of the preset
              (MR-4..MR-8, MH-6; not once the game is over), End game, Settings (SETTINGS). Every item
              that changes or ends a started game asks first: a CONFIRM page, "No" first, then "Yes".
    CORRECTIONS  (issue 15) Undo last press (asks first), Left / Right: the side's time set digit by
              digit (`TimeEdit`): each an event in the journal (core Undo, Adjust) and a line of the
              record's `corrections`.
              Makruk: "Board count: left/right" (MR-4), "Pieces count" (PIECES), "Stop count";
              Makhos: "Makhos count: left/right", "End count" (MH-6: a man's move or a capture ends
              it), "Stop count".
    PIECES    MR-6/MR-7: the lone king's side, the attacker's rooks, knights, khons and mets (met or
              promoted pawns), Start. The pieces on the board follow: both kings and the attacker's.
    CUSTOM    Mode (countdown / per move), Time (per side, or per move), Increment (countdown),
              Start: a game with a `Control` built from these values (`custom_control`).
    SETTINGS  Event, Round, Table (numbers the result record keeps, CL-5); when a pairing came from
              the organiser's PC (issue 6): the players' names (Left: / Right:), a pairing waiting for
              the next game (Next R3 T5: ...) and "Clear players" (the arbiter's: names and waiting
              pairing gone); Sound on/off (mute), Brightness 1-5, Level (auto = the rule file's
              default) and Stage (qualifying / last / final): XW-8's spread caps for the result entry.

Values are edited in place: CLICK on a value item starts editing (the label shows `[value]`), the
knob turns it (clockwise = DOWN = more), CLICK keeps it (`Action(SETTING, key)`), BACK puts it
back. "Sound" toggles on CLICK. All values live in a `Settings`, which `SettingsStore` keeps in a
small JSON file (optional) so they survive a restart.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypedDict

from gameclock.core.control import COUNTDOWN, NS_PER_S, PER_MOVE, Control, Stage
from gameclock.core.scoring import STAGES
from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP
from gameclock.ui.text import LANGUAGES

# Action kinds
START = "start"        # start a new game with preset_id (game 1); CUSTOM_ID: the custom preset
NEW_GAME = "new_game"  # the same preset and game number, from the start
NEXT_GAME = "next_game"  # the next game of the match (MH-4: same time; in a tie-break, its next step)
TIEBREAK_GAME = "tiebreak_game"  # MH-4: the next game is an extra game after a tied match
FINISH = "finish"      # end the game (core Finish)
CLOSE = "close"        # back to the clock screens
SETTING = "setting"    # a setting changed: preset_id holds its key (mute, brightness, event, ...)
COUNT = "count"        # a count event: preset_id is "board left", "makhos right", "pieces" (menu.count_entry),
                       # "end" (MH-6) or "stop"
CLEAR_PLAYERS = "clear_players"  # the arbiter clears the pairing's players (and a pairing held for the next game)
UNDO = "undo"          # the arbiter takes back the last press (core Undo)
ADJUST = "adjust"      # the arbiter sets a side's time: preset_id "left"/"right", value its remaining ns (core Adjust)
EXTEND = "extend"      # MH-3 extra time for the side on move: preset_id the side, value the option's ns (core Extend)
RETRACT = "retract"    # take back that side's extra time of this move: preset_id the side (core Retract)
_POP = "pop"           # (the menu's own) "No" on a confirmation page: back one page

CUSTOM_ID = "custom"
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
    if not isinstance(v, dict) or not _PAIRING_KEYS <= set(v) <= _PAIRING_KEYS | _SETUP_KEYS:
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


@dataclass
class CountEntry:
    """The PIECES page's values (MR-6, MR-7): not settings, they are not kept."""
    count_side: str = "right"   # the lone king's side: the side that counts
    count_rooks: int = 0
    count_knights: int = 0
    count_khons: int = 0
    count_mets: int = 0         # met or promoted pawns

    @property
    def attacker(self) -> str:
        """The attacker's material in letters (R N S M), e.g. "RR"."""
        return ("R" * self.count_rooks + "N" * self.count_knights + "S" * self.count_khons
                + "M" * self.count_mets)


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
    store: str = "settings"  # where the value lives: the Menu's `settings` or its `count_entry`

    def show(self, value: FieldValue) -> str:
        if self.kind == "time" and isinstance(value, int):
            return _clock(value)
        if self.kind == "toggle":
            return self.words[bool(value)]
        if self.key == "level" and value == "":
            return "not set"  # XW-8: a preset with one level uses it; else the result asks for it
        if self.kind == "choice":
            return {COUNTDOWN: "countdown", PER_MOVE: "per move", "": "auto"}.get(str(value), str(value))
        if self.key == "brightness":
            return f"{value}/{self.hi}"
        return str(value)

    def stepped(self, value: FieldValue, n: int) -> FieldValue:
        if self.kind == "choice":
            i = self.choices.index(value) if value in self.choices else 0
            return self.choices[min(max(i + n, 0), len(self.choices) - 1)]
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


FIELDS: dict[str, Field] = {f.key: f for f in (
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
COUNT_FIELDS: dict[str, Field] = {f.key: f for f in (
    Field("count_side", "Lone king", "choice", choices=("left", "right"), store="count"),
    Field("count_rooks", "Rooks", "number", 0, 2, store="count"),
    Field("count_knights", "Knights", "number", 0, 2, store="count"),
    Field("count_khons", "Khons", "number", 0, 2, store="count"),
    Field("count_mets", "Mets", "number", 0, 9, store="count"),
)}


# ------------------------------------------------------------------------------------- the menu


Target = Action | Field | Confirm | TimeEdit | str | None  # what an item's CLICK does: an action, a
        # page name, a value to edit, a question first, a time to set; None: a line that only shows something

DIGIT_MAX = (9, 5, 9, 5, 9)  # H, M tens, M units, S tens, S units


def time_digits(ns: int) -> list[int]:
    """[H, M, M, S, S] of a time (ns, whole seconds; at most 9:59:59, at least 0)."""
    s = min(max(ns, 0) // NS_PER_S, 9 * 3600 + 59 * 60 + 59)
    h, m, sec = s // 3600, s % 3600 // 60, s % 60
    return [h, m // 10, m % 10, sec // 10, sec % 10]


def digits_ns(d: Sequence[int]) -> int:
    return ((d[0] * 60 + d[1] * 10 + d[2]) * 60 + d[3] * 10 + d[4]) * NS_PER_S


@dataclass
class TimeEditing:
    """The time being set: the side, its digits and the cursor (0..4)."""
    side: str
    digits: list[int]
    pos: int

    def text(self) -> str:
        d = [str(x) for x in self.digits]
        d[self.pos] = f"[{d[self.pos]}]"
        return f"{d[0]}:{d[1]}{d[2]}:{d[3]}{d[4]}"


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


@dataclass
class Menu:
    """presets: (id, label) in display order. settings: the values the SETTINGS and CUSTOM pages edit."""
    presets: Sequence[tuple[str, str]]
    locked: bool = False
    settings: Settings = field(default_factory=Settings)
    _stack: list[Page] = field(default_factory=list)
    _preset_hint: str | None = None  # the game's preset, highlighted when "Choose preset" opens
    _editing: tuple[Field, FieldValue] | None = None  # the field being edited and its new value
    _time: TimeEditing | None = None  # a side's time being set digit by digit (Corrections)
    times_ns: tuple[int, int] = (0, 0)  # each side's remaining time when the game menu opened (TimeEdit starts there)
    _extra: tuple[tuple[str, int], ...] = ()  # MH-3 options for the side on move (Corrections)
    _on_move: str | None = None
    _extra_given: bool = False
    count_entry: CountEntry = field(default_factory=CountEntry)  # the PIECES page's values

    @property
    def is_open(self) -> bool:
        return bool(self._stack)

    @property
    def editing(self) -> bool:
        return self._editing is not None or self._time is not None

    def open_presets(self, selected: str | None = None) -> bool:
        """The start screen: the preset list (alone on the stack: BACK stays here)."""
        if self.locked:
            return False
        self._stack = [self._presets_page(selected)]
        self._editing = None
        return True

    def open_game_menu(self, *, preset_id: str | None, started: bool, over: bool,
                       has_next: bool, counts: Sequence[str] = (), counting: str | None = None,
                       has_tiebreak: bool = False, times_ns: tuple[int, int] = (0, 0),
                       extra: Sequence[tuple[str, int]] = (), on_move: str | None = None,
                       extra_given: bool = False) -> bool:
        """The menu of a game that is not running (ready, paused, flagged or finished). counts: the
        preset's counts ("makruk", "makhos"); counting: the kind of the count under way, if any;
        has_tiebreak: the preset plays extra games after a tied match (MH-4); times_ns: each side's
        remaining time now (the Corrections page sets them from there); extra: the MH-3 options the side
        on move (`on_move`) may still be given, as (label, ns); extra_given: that side got extra time
        in this move (it can be taken back). Every item that changes or ends the game asks first (No
        is the first answer)."""
        if self.locked:
            return False
        items: list[tuple[str, Target]] = [("Resume", Action(CLOSE))]
        if started and not over:  # the arbiter's corrections (issue 15): in a pause, with the menu unlocked
            items.append(("Corrections", "corrections"))
        items.append(("New game", Confirm("Lose this game?", Action(NEW_GAME)) if started
                      else Action(NEW_GAME)))
        if has_next:
            items.append(("Next game", Confirm("Next game?", Action(NEXT_GAME)) if started and not over
                          else Action(NEXT_GAME)))
        if has_tiebreak:
            items.append(("Tie-break game", Confirm("Tie-break game?", Action(TIEBREAK_GAME))))
        items.append(("Choose preset", "presets"))
        if not over:
            items += _count_items(counts, counting)
        if started and not over:
            items.append(("End game", Confirm("End the game?", Action(FINISH))))
        items.append(("Settings", "settings"))
        self.times_ns = times_ns
        self._extra, self._on_move, self._extra_given = tuple(extra), on_move, extra_given
        self._time = None
        self._stack = [Page("game", "GAME", items)]
        self._preset_hint = preset_id
        self._editing = None
        return True

    def close(self) -> None:
        self._stack = []
        self._editing = None
        self._time = None

    def key(self, key: str) -> Action | None:
        if not self._stack:
            return None
        if self._editing is not None:
            return self._edit_key(key, self._editing)
        if self._time is not None:
            return self._time_key(key, self._time)
        page = self._stack[-1]
        items = self._items(page)
        if key == UP:
            page.index = max(0, page.index - 1)
        elif key == DOWN:
            page.index = min(len(items) - 1, page.index + 1)
        elif key == CLICK:
            if not items:
                return None
            target = items[min(page.index, len(items) - 1)][1]
            if target is None:  # a line that only shows something (the players' names)
                return None
            if isinstance(target, Action):
                if target.kind == _POP:
                    self._stack.pop()
                    return None
                if page.name == "confirm":  # answered Yes: the question is done
                    self._stack.pop()
                return target
            if isinstance(target, Confirm):
                self._stack.append(Page("confirm", target.question, [("No", Action(_POP)), ("Yes", target.action)]))
                return None
            if isinstance(target, TimeEdit):
                start = self.times_ns[SIDES_ORDER.index(target.side)]
                digits = time_digits(start)
                self._time = TimeEditing(target.side, digits, 0 if digits[0] else 1)
                return None
            if isinstance(target, Field):
                if target.kind == "toggle":
                    setattr(self.settings, target.key, not getattr(self.settings, target.key))
                    return Action(SETTING, target.key)
                self._editing = (target, getattr(self._store(target), target.key))
                return None
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
            top = DIGIT_MAX[t.pos] + 1
            t.digits[t.pos] = (t.digits[t.pos] + (1 if key == DOWN else -1)) % top
        elif key == CLICK and t.pos < len(t.digits) - 1:
            t.pos += 1
        elif key in (CLICK, LONG_CLICK):  # the last digit set, or "zeros from here on": the time is set
            if key == LONG_CLICK:
                t.digits[t.pos + 1:] = [0] * (len(t.digits) - t.pos - 1)
            self._time = None
            return Action(ADJUST, t.side, digits_ns(t.digits))
        elif key == BACK:
            if t.pos > (0 if t.digits[0] else 1):
                t.pos -= 1
            else:
                self._time = None  # left without setting anything
        return None

    def _edit_key(self, key: str, editing: tuple[Field, FieldValue]) -> Action | None:
        spec, value = editing
        if key in (UP, DOWN):
            self._editing = (spec, spec.stepped(value, 1 if key == DOWN else -1))
        elif key == CLICK:
            self._editing = None
            if spec.store == "count":
                setattr(self.count_entry, spec.key, value)
            elif spec.key == "event" and self.settings.event_name:  # a number replaces the pairing's name
                self.settings.event_name = ""
                self.settings.event = int(value)
                return Action(SETTING, spec.key)
            elif value != getattr(self.settings, spec.key):
                setattr(self.settings, spec.key, value)
                return Action(SETTING, spec.key)
        elif key in (BACK, LONG_CLICK):
            self._editing = None  # put back: the setting keeps its value
        return None

    def selected(self) -> tuple[str, Target] | None:
        """The highlighted item (label, target), None if closed or empty."""
        if not self._stack:
            return None
        page = self._stack[-1]
        items = self._items(page)
        if not items:
            return None
        return items[min(page.index, len(items) - 1)]

    def selected_preset(self) -> str | None:
        """The highlighted preset id (CUSTOM_ID for the custom preset's Start), else None."""
        item = self.selected()
        if item and isinstance(item[1], Action) and item[1].kind == START:
            return item[1].preset_id
        return None

    def view(self) -> MenuView:
        """What the menu screen draws: {"title", "items": [label], "index", "page", "editing"}."""
        if not self._stack:
            return {"title": "", "items": [], "index": 0, "page": None, "editing": False}
        page = self._stack[-1]
        items = self._items(page)
        return {"title": page.title, "items": [self._label(label, t) for label, t in items],
                "index": min(page.index, max(len(items) - 1, 0)), "page": page.name,
                "editing": self.editing}

    # ---- pages ----
    def _label(self, label: str, target: Target) -> str:
        if isinstance(target, TimeEdit):
            t = self._time
            if t is not None and t.side == target.side:
                return f"{label} {t.text()}"
            d = time_digits(self.times_ns[SIDES_ORDER.index(target.side)])
            return f"{label} {d[0]}:{d[1]}{d[2]}:{d[3]}{d[4]}"
        if not isinstance(target, Field):
            return label
        if self._editing is not None and self._editing[0] is target:
            return f"{label} [{target.show(self._editing[1])}]"
        if target.key == "event" and self.settings.event_name:  # a pairing's event that is not a number
            return f"{label} {self.settings.event_name}"
        return f"{label} {target.show(getattr(self._store(target), target.key))}"

    def _store(self, spec: Field) -> Settings | CountEntry:
        return self.count_entry if spec.store == "count" else self.settings

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
        return page.items

    def _settings_items(self) -> list[tuple[str, Target]]:
        """Event, Round, Table, the pairing's players and the one held for the next game (with
        "Clear players"), then the clock's own settings."""
        s = self.settings
        items: list[tuple[str, Target]] = [(FIELDS[k].label, FIELDS[k]) for k in ("event", "round", "table")]
        if s.players:
            items += [(f"{side.title()}: {s.players.get(side) or '?'}", None) for side in ("left", "right")]
        if s.next_pairing:
            p = s.next_pairing
            items.append((f"Next R{p['round']} T{p['table']}: {players_text(p['players'])}", None))
        if s.players or s.next_pairing:
            items.append(("Clear players", Action(CLEAR_PLAYERS)))
        items += [(FIELDS[k].label, FIELDS[k]) for k in ("mute", "brightness", "level", "stage")]
        return items

    def _page(self, name: str) -> Page:
        if name == "presets":
            return self._presets_page(self._preset_hint)
        if name == "custom":
            return Page("custom", "CUSTOM", [])
        if name == "pieces":
            return Page("pieces", "PIECES COUNT", [(f.label, f) for f in COUNT_FIELDS.values()]
                        + [("Start", Action(COUNT, "pieces"))])
        if name == "settings":
            return Page("settings", "SETTINGS", [])  # items: _settings_items (they follow the pairing)
        if name == "corrections":
            items: list[tuple[str, Target]] = [("Undo last press", Confirm("Undo last press?", Action(UNDO))),
                                               ("Left", TimeEdit("left")), ("Right", TimeEdit("right"))]
            side = self._on_move
            if side is not None:  # MH-3: the arbiter gives the mover extra time (which option: asked)
                items += [(f"Extra {side} {label}", Confirm(f"{side.title()} +{label.split('x')[-1]}?",
                                                            Action(EXTEND, side, ns)))
                          for label, ns in self._extra]
                if self._extra_given:
                    items.append((f"Take back {side} extra", Confirm("Take it back?", Action(RETRACT, side))))
            return Page("corrections", "CORRECTIONS", items)
        raise KeyError(name)

    def _presets_page(self, selected: str | None) -> Page:
        items: list[tuple[str, Target]] = [(label, Action(START, pid)) for pid, label in self.presets]
        items += [("Custom", "custom"), ("Settings", "settings")]
        index = next((i for i, (pid, _) in enumerate(self.presets) if pid == selected), 0)
        return Page("presets", "PRESET", items, index)


def _count_items(counts: Sequence[str], counting: str | None) -> list[tuple[str, Target]]:
    """The game menu's count items (MR-4..MR-8 for "makruk", MH-6 for "makhos")."""
    items: list[tuple[str, Target]] = []
    def ask(question: str, what: str) -> Confirm:
        return Confirm(question, Action(COUNT, what))

    if "makruk" in counts:
        items += [("Board count: left", ask("Board: left?", "board left")),
                  ("Board count: right", ask("Board: right?", "board right")),
                  ("Pieces count", "pieces")]
    if "makhos" in counts:
        items += [("Makhos count: left", ask("Makhos: left?", "makhos left")),
                  ("Makhos count: right", ask("Makhos: right?", "makhos right"))]
        if counting == "makhos":  # MH-6: a man's move or a capture ends the count
            items.append(("End count", ask("End count?", "end")))
    if counts and counting:
        items.append(("Stop count", ask("Stop count?", "stop")))
    return items


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

