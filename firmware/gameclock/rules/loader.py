"""Load and strictly validate the event presets: the shipped ones and the organiser's own.

Where presets come from (`load_presets()`, `find_preset(id)` without a folder):

1. the shipped presets, package data `gameclock/presets/*.toml` read with `importlib.resources` (in the
   repository the top-level `rules/` folder, which firmware/gameclock/presets links to), or instead every
   `*.toml` of $GAMECLOCK_RULES_DIR when it is set. A broken file here is an error (RuleError);
2. the site folder's `rules/*.toml` (`/etc/gameclock/rules`, see gameclock.sitedir): each adds a preset or
   replaces the one of the same id. A broken file there is logged as a warning and skipped, so one
   organiser's typo never hides the shipped presets.

With a folder (`load_presets(DIR)`, `gameclock presets --dir DIR`) only that folder is read, strictly.

One TOML file per preset, `rules/<id>.toml`, with the tables `[preset]` (who it is for), `[clock]` (how the
clock runs: a `gameclock.core.control.Control`) and, optionally, `[scoring]` (how a finished game is scored:
a `gameclock.core.scoring.Scoring`; without it the preset scores nothing, kind "none"), `[counting]` (MR-4..MR-8,
MH-6) and `[standings]` (how the organiser's PC ranks the event: a `StandingsSettings`). The format is
documented key by key in `rules/README.md`. Every problem is a `RuleError` whose message is one line:

    rules/x.toml: clock.time: bad time '22:75' (seconds must be 00-59; write M:SS or H:MM:SS)

Only the standard library (`tomllib`) is used: this runs on the Pi.
"""
from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, replace
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from gameclock import datafile
from gameclock.core.control import (
    COUNTDOWN,
    DELAY_BRONSTEIN,
    DELAY_NONE,
    DELAY_SIMPLE,
    EXPIRIES,
    EXPIRY_LOSE,
    EXTENSION_GESTURES,
    GAMECUT,
    GESTURE_ARBITER,
    MODES,
    NS_PER_MIN,
    PER_MOVE,
    ROUND,
    Control,
    ExtensionOption,
    Stage,
)
from gameclock.core.scoring import KINDS as SCORING_KINDS
from gameclock.core.scoring import Scoring
from gameclock.dataerrors import DataError, did_you_mean, shown, unknown_value
from gameclock.datafile import Section
from gameclock.rules.timefmt import format_time, parse_time
from gameclock.sitedir import site_dir

__all__ = [
    "Preset",
    "RuleError",
    "StandingsSettings",
    "TIEBREAK_METHODS",
    "RULES_DIR",
    "EVENTS",
    "EVENT_SCORING_KINDS",
    "LEVEL_RE",
    "RULE_ID_RE",
    "PRESET_ID_RE",
    "SHORT_MAX",
    "GROUPS",
    "EVENT_GROUP",
    "MENU_NAME_MAX",
    "load_preset",
    "load_presets",
    "find_preset",
    "rules_dir",
    "shipped_rules",
    "site_rules_dir",
    "parse_time",
    "format_time",
]

ENV_RULES_DIR = "GAMECLOCK_RULES_DIR"
SITE_RULES = "rules"  # the organiser's presets: site_dir() / "rules" (/etc/gameclock/rules)

log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())  # a command that configures no logging prints its own line


def shipped_rules() -> Traversable:
    """The shipped presets: the package data folder gameclock/presets (importlib.resources). On disk it
    is a resolved Path: in a checkout the link firmware/gameclock/presets leads to the repository's rules/."""
    folder = resources.files("gameclock") / "presets"
    return folder.resolve() if isinstance(folder, Path) else folder


def _path_of(t: Traversable) -> Path:
    """Where a Traversable is, for messages and Preset.path (a Path already when the package is on disk)."""
    return t if isinstance(t, Path) else Path(str(t))


# The shipped presets' folder as a Path (the package is installed on disk: a wheel, or a checkout).
RULES_DIR: Path = _path_of(shipped_rules())


def rules_dir() -> Path:
    """The folder of the first layer: $GAMECLOCK_RULES_DIR if set (read at call time), else RULES_DIR."""
    override = os.environ.get(ENV_RULES_DIR)
    return Path(override) if override else RULES_DIR


def site_rules_dir() -> Path:
    """The organiser's presets: site_dir() / "rules" (/etc/gameclock/rules, or under $GAMECLOCK_SITE_DIR)."""
    return site_dir() / SITE_RULES


def _base_rules() -> Traversable:
    """The first layer as a Traversable: $GAMECLOCK_RULES_DIR (a folder on disk) or the shipped presets."""
    override = os.environ.get(ENV_RULES_DIR)
    return Path(override) if override else shipped_rules()

EVENTS = ("crossword", "amath", "khamkom", "makruk", "makhos", "sudoku", "custom")
# Which rule families (docs/rules.md) an event may cite (CL-* is the clock itself: every event may cite it).
_EVENT_FAMILIES = {
    "crossword": ("XW",),
    "amath": ("XW",),
    "khamkom": ("XW",),
    "makruk": ("MR",),
    "makhos": ("MH",),
    "sudoku": ("SU",),
    "custom": ("XW", "SU", "MR", "MH"),
}
# Which `[scoring] kind` fits an event: the result entry the event's rules need.
EVENT_SCORING_KINDS: dict[str, tuple[str, ...]] = {
    "crossword": ("crossword",),
    "amath": ("crossword",),
    "khamkom": ("crossword",),
    "makruk": ("makruk",),
    "makhos": ("makhos",),
    "sudoku": ("sudoku",),
    "custom": SCORING_KINDS,
}
LEVEL_RE = re.compile(r"[a-z][a-z0-9_-]*")  # a level name in [scoring.caps] / [scoring.bye_spread]
RULE_ID_RE = re.compile(r"(XW|SU|MR|MH|CL)-[0-9]+")
PRESET_ID_RE = re.compile(r"[a-z0-9][a-z0-9_.+-]*")
SHORT_MAX = 10  # characters on the 128 px status line
# Issue 15: the preset menu's groups, in the menu's order (ui/menu.py PRESET_GROUPS names them), and the
# group an event's presets go in unless the file says otherwise (a custom event may pick any group; an
# event's preset its own group or "other").
GROUPS = ("crossword", "makruk", "makhos", "sudoku", "other")
EVENT_GROUP = {"crossword": "crossword", "amath": "crossword", "khamkom": "crossword", "makruk": "makruk",
               "makhos": "makhos", "sudoku": "sudoku", "custom": "other"}
MENU_NAME_MAX = 16  # characters of a menu line: 16 fit the 120 px of a 128 px menu row (tests/ui)
MENU_ORDER_MAX = 999
MENU_ORDER_DEFAULT = 500  # a preset without menu_order comes after the shipped ones that have one
# The largest values a rule file may give (issue 13: a 99999999999-minute time was accepted). The seeds
# need far less -- SU-1's round 60:00, XW-5's game 50:00, MR-1's 45:00 a side; MH-2's 2:00 a move, MH-3's
# 10:00 of extra time; MR-6's count 64, MH-6's 16; XW-8's caps 250 -- the room left is for organisers' own
# events (rules/examples: 1:30:00 stages), not for typos.
NS_PER_HOUR = 60 * NS_PER_MIN
MAX_GAME_TIME = 10 * NS_PER_HOUR  # a side's time, a stage's, a sequence entry, a round, a game cut
MAX_PER_MOVE = NS_PER_HOUR        # a move's time, extra time, an increment, a delay, a byo-yomi period
MAX_TENTHS = NS_PER_MIN           # tenths_below: tenths are shown as S.T, at most 59.9
MAX_COUNT = 100                   # byo-yomi periods, extra-time grants, a game cut's extra turns
MAX_MOVES = 1000                  # a stage's moves, a count's limit
MAX_POINTS = 1000                 # game points, penalty and bonus points per minute
MAX_SPREAD = 10_000               # XW-8 caps, XW-9 bye spread

_TABLES = ("preset", "clock", "scoring", "counting", "standings")
_PRESET_KEYS = ("id", "name", "short", "event", "rules", "games", "group", "menu_name", "menu_order")
PRESET_GAMES = ("match", "tiebreak")  # MH-4, MH-7(3): the games a preset times
_COMMON_CLOCK_KEYS = ("mode", "tenths_below")
_MODE_KEYS: dict[str, tuple[str, ...]] = {
    COUNTDOWN: (
        "time", "time_left", "time_right", "stages", "sequence", "increment", "delay", "delay_kind",
        "byoyomi_periods", "byoyomi_period", "hourglass", "negative", "penalty_points_per_minute", "low_time",
        "arbiter_call",
    ),
    PER_MOVE: ("move_time", "announce", "extensions", "expiry", "extension_gesture"),
    ROUND: ("time", "bonus_points_per_minute", "low_time"),
    GAMECUT: ("time", "cut_warnings", "extra_turns"),
}
_ALL_CLOCK_KEYS = frozenset(_COMMON_CLOCK_KEYS).union(*_MODE_KEYS.values())
_STAGE_KEYS = ("time", "moves", "increment")
_EXTENSION_KEYS = ("count", "time")
# [scoring]: each kind accepts only its own keys (like the clock's modes).
_POINTS_KEYS = ("win", "draw", "loss")
_KIND_KEYS: dict[str, tuple[str, ...]] = {
    "crossword": _POINTS_KEYS + ("default_level", "caps", "bye_spread"),
    "makruk": _POINTS_KEYS + ("flag_needs_material",),
    "makhos": _POINTS_KEYS,
    "sudoku": (),
    "none": (),
}
_ALL_SCORING_KEYS = frozenset(("kind",)).union(*_KIND_KEYS.values())
assert set(_KIND_KEYS) == set(SCORING_KINDS), "every scoring kind needs its keys here"
# [counting] (MR-4..MR-8, MH-6): each counting game accepts only its own keys; a custom event either or both.
_COUNTING_KEYS: dict[str, tuple[str, ...]] = {
    "makruk": ("pieces_start", "board_limit"),
    "makhos": ("count", "limit"),
}
_ALL_COUNTING_KEYS = frozenset().union(*_COUNTING_KEYS.values())
# [standings] (issue 7: the organiser's PC ranks by them; the clock ignores them): each event only its own keys,
# a custom event any.
_STANDINGS_KEYS: dict[str, tuple[str, ...]] = {
    "makruk": ("team_boards",),              # MR-11: boards 1 and 2 of a campus form a team
    "makhos": ("match_games", "tiebreaks"),  # MH-7: qualifying matches of 4 games; the order of the tie-breaks
}
_STANDINGS_RANGES = {"team_boards": (1, 8), "match_games": (1, 12)}  # the integer keys: (minimum, maximum)
# MH-7 `tiebreaks` (seed 004 §3.9.1 ค.): the methods that rank a group, in the RULES decision's default order.
TIEBREAK_METHODS = ("match_points", "game_points", "game_difference", "tiebreak_points", "tiebreak_time")
_ALL_STANDINGS_KEYS = frozenset().union(*_STANDINGS_KEYS.values())
PIECES_START = ("both-kings", "no-kings")  # MR-7: seed 003 §10 counts both kings; seed 001 §7(12) none
MAKHOS_COUNT = ("own", "both")             # MH-6: the requester's own moves (003 §5.3, 004 §3.8.3) or both sides'


class RuleError(DataError):
    """A rule file is wrong. str() is one line: "<file>: <dotted.key>: <what is wrong>"."""


@dataclass(frozen=True)
class StandingsSettings:
    """The `[standings]` table: how `gameclock standings` ranks the event (the clock itself ignores it)."""
    team_boards: int = 2   # MR-11: a team's boards (seed 001 §6: boards 1 and 2 of a campus)
    match_games: int = 4   # MH-7: games in a qualifying match (seed 004 §3.9.1)
    tiebreaks: tuple[str, ...] = TIEBREAK_METHODS  # MH-7: the ranking methods in order (seed 004 §3.9.1 ค.)


@dataclass(frozen=True)
class Preset:
    id: str
    name: str
    short: str
    event: str
    rule_ids: tuple[str, ...]
    control: Control
    sequence: tuple[int, ...]
    path: Path
    scoring: Scoring = Scoring()  # the [scoring] table; kind "none" without one
    # Which counts the knob offers (MR-4..MR-8: "makruk", MH-6: "makhos"): a makruk or makhos event always
    # offers its own; a custom event those whose keys its [counting] table sets.
    counts: tuple[str, ...] = ()
    standings: StandingsSettings = StandingsSettings()  # the [standings] table (defaults without one)
    # MH-4, MH-7(3), MH-8: the preset times the extra games after a tied match (its first game is
    # tie-break step 1), not the games of a match
    tiebreak_games: bool = False
    # Issue 15, the preset menu: the group the preset is listed in (GROUPS), its line there (at most
    # MENU_NAME_MAX characters) and its place in the group (lower first: the event's usual presets)
    group: str = "other"
    menu_name: str = ""
    menu_order: int = MENU_ORDER_DEFAULT

    def control_for(self, tiebreak: int = 0) -> Control:
        """The control for a game at tie-break step `tiebreak` (MH-4; 0: a game of the match).

        Every game of a match uses the regular time, whatever its number in the match. With a sequence,
        entry 1 is that time and entry k+1 the time of the k-th extra game after a tied match (the last
        entry repeats). Without one every game uses `control`.
        """
        if isinstance(tiebreak, bool) or not isinstance(tiebreak, int) or tiebreak < 0:
            raise ValueError(f"tiebreak must be an integer >= 0, got {tiebreak!r}")
        if not self.sequence:
            return self.control
        time_ns = self.sequence[min(tiebreak, len(self.sequence) - 1)]
        c = self.control
        return replace(
            c,
            stages_left=(replace(c.stages_left[0], time_ns=time_ns),) + c.stages_left[1:],
            stages_right=(replace(c.stages_right[0], time_ns=time_ns),) + c.stages_right[1:],
        )

    @property
    def summary(self) -> str:
        """One line describing the control, e.g. "22:00 negative, -10/min"."""
        from gameclock.rules.summary import describe

        return describe(self.control, self.sequence)

    @property
    def scoring_summary(self) -> str:
        """A short line about the scoring ("-" for kind none), e.g.
        "2/1/0, primary: cap 100/80 bye 50; secondary: cap 250/200 bye 100".

        Game points win/draw/loss; for makruk whether MR-2 applies; for the crossword kind each level's
        XW-8 caps (every qualifying game / the last one) and XW-9 bye spread (only the rule file's
        default_level when it fixes one)."""
        sc = self.scoring
        if sc.kind == "none":
            return "-"
        if sc.kind == "sudoku":
            return "sudoku"
        text = f"{sc.win_points}/{sc.draw_points}/{sc.loss_points}"
        if sc.kind == "makruk":
            text += ", flag needs material (MR-2)" if sc.flag_needs_material else ", flag loses"
        if sc.kind == "crossword":
            if not sc.caps:
                return text + ", no cap"
            byes = dict(sc.bye_spread)
            levels = [(lv, c, lg) for lv, c, lg in sc.caps if sc.default_level in (None, lv)]
            text += ", " + "; ".join(f"{lv}: cap {c}/{lg}" + (f" bye {byes[lv]}" if lv in byes else "")
                                     for lv, c, lg in levels)
        return text


# --------------------------------------------------------------------------------------------- loading


def load_preset(path: str | os.PathLike[str]) -> Preset:
    """Load and validate one rule file on disk. Raises RuleError."""
    return _load(Path(path))


def _load(source: Traversable) -> Preset:
    """Load and validate one rule file, a Path or any Traversable (package data). Raises RuleError."""
    return _Builder(datafile.load(source, error=RuleError, parse_time=parse_time, format_time=format_time)).build()


def _rule_files(folder: Traversable) -> dict[str, Traversable]:
    """id (file name without .toml) -> file, for every `*.toml` file in `folder`. RuleError if no folder."""
    if not folder.is_dir():
        raise RuleError(_path_of(folder), None, "no such rules folder")
    return {t.name[:-len(".toml")]: t for t in sorted(folder.iterdir(), key=lambda t: t.name)
            if t.name.endswith(".toml") and not t.name.startswith(".") and t.is_file()}  # as glob("*.toml")


def _site_files() -> dict[str, Path]:
    """The site folder's rule files by id ({} when there is no such folder)."""
    folder = site_rules_dir()
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.toml")) if p.is_file()}


def _skip(exc: RuleError, skipped: list[RuleError] | None) -> None:
    log.warning("skipped an organiser's rule file: %s", exc)
    if skipped is not None:
        skipped.append(exc)


def load_presets(directory: str | os.PathLike[str] | None = None, *,
                 skipped: list[RuleError] | None = None) -> list[Preset]:
    """The presets, sorted by id.

    With `directory`: every `*.toml` in it; RuleError on the first bad file. Without: the shipped presets
    (or $GAMECLOCK_RULES_DIR's), where a bad file is a RuleError too, then the site folder's (module
    docstring), each adding a preset or replacing the one of its id; a bad site file is logged, appended to
    `skipped` (when given) and left out.
    """
    if directory is not None:
        files = _rule_files(Path(directory))
        return sorted((_load(t) for t in files.values()), key=lambda p: p.id)
    presets = {pid: _load(t) for pid, t in _rule_files(_base_rules()).items()}
    for path in _site_files().values():
        try:
            preset = load_preset(path)
        except RuleError as exc:
            _skip(exc, skipped)
            continue
        presets[preset.id] = preset
    return sorted(presets.values(), key=lambda p: p.id)


def find_preset(preset_id: str, directory: str | os.PathLike[str] | None = None) -> Preset:
    """The preset `preset_id` from `directory`, or (without one) as `load_presets()` would give it: the site
    folder's file of that id if it loads (else a warning, and the shipped one), else the shipped one.
    RuleError listing the known ids if there is none.

    Only that preset's file is loaded, so one broken file does not hide the others.
    """
    base = Path(directory) if directory is not None else _base_rules()
    files = _rule_files(base)
    site = _site_files() if directory is None else {}
    valid = isinstance(preset_id, str) and PRESET_ID_RE.fullmatch(preset_id) is not None
    if valid and preset_id in site:
        try:
            return load_preset(site[preset_id])
        except RuleError as exc:
            if preset_id not in files:
                raise  # nothing to fall back on: the reason is the error
            _skip(exc, None)
    if not valid or preset_id not in files:
        known = sorted(set(files) | set(site))
        raise RuleError(_path_of(base), None, f"no preset {preset_id!r} (known: {', '.join(known) or 'none'})")
    return _load(files[preset_id])


# --------------------------------------------------------------------------------------------- the builder


class _Builder:
    """Turns the top-level Section of one rule file into a Preset, or raises the first RuleError."""

    def __init__(self, root: Section):
        self.root = root
        self.path = root.file

    # ---- the file ----

    def build(self) -> Preset:
        root = self.root
        root.check_keys(_TABLES, note="a rule file has only [preset], [clock], [scoring], [counting] and [standings]")
        preset = root.section("preset")
        clock = root.section("clock")
        ident, name, short, event, rule_ids = self.preset_table(preset)
        games = preset.get_choice("games", PRESET_GAMES, "match")
        group, menu_name, menu_order = self.menu_keys(preset, event, name, short)
        control, sequence = self.clock_table(clock)
        scoring_t = root.section("scoring", None)
        scoring = self.scoring_table(scoring_t, event) if scoring_t is not None else Scoring()
        counting = root.section("counting", None)
        control, counts = self.counting_table(counting, event, control)
        standings_t = root.section("standings", None)
        standings = self.standings_table(standings_t, event) if standings_t is not None else StandingsSettings()
        root.check_unused()
        return Preset(id=ident, name=name, short=short, event=event, rule_ids=rule_ids,
                      control=control, sequence=sequence, path=self.path, scoring=scoring, counts=counts,
                      standings=standings, tiebreak_games=games == "tiebreak", group=group,
                      menu_name=menu_name, menu_order=menu_order)

    def menu_keys(self, t: Section, event: str, name: str, short: str) -> tuple[str, str, int]:
        """Issue 15: `group` (default: the event's), `menu_name` (default: `name` when it fits a menu
        line, else `short`), `menu_order` (1..999, lower first in its group)."""
        own = EVENT_GROUP[event]
        group = t.get_choice("group", GROUPS, own, noun="group")
        if event != "custom" and group not in (own, "other"):
            raise t.error("group", f"{group!r}: a {event} preset is listed in the {own!r} group or in 'other'")
        menu_name = t.get_str("menu_name", None)
        if menu_name is None:
            menu_name = name if len(name) <= MENU_NAME_MAX else short
        else:
            menu_name = menu_name.strip()
            if not menu_name or len(menu_name) > MENU_NAME_MAX:
                raise t.error("menu_name", f"{menu_name!r} is {len(menu_name)} characters; 1 to {MENU_NAME_MAX} "
                                           "fit a menu line")
        order = t.get_int("menu_order", MENU_ORDER_DEFAULT, minimum=1, maximum=MENU_ORDER_MAX)
        return group, menu_name, order

    def preset_table(self, t: Section) -> tuple[str, str, str, str, tuple[str, ...]]:
        t.check_keys(_PRESET_KEYS)
        ident = t.get_str("id")
        if not PRESET_ID_RE.fullmatch(ident):
            raise t.error("id", f"{ident!r} is not a valid id (lower-case letters, digits and . _ + -)")
        if ident != self.path.stem:
            raise t.error("id", f"{ident!r} does not match the file name {self.path.name!r} "
                                f"(the id must be the file name without .toml)")
        name = t.get_str("name").strip()
        short = t.get_str("short", None)
        if short is None:
            short = ident.upper()[:SHORT_MAX]
        else:
            if len(short) > SHORT_MAX:
                raise t.error("short", f"{short!r} is {len(short)} characters; at most {SHORT_MAX} fit the status line")
            if not all(" " <= ch <= "~" for ch in short):
                raise t.error("short", f"{short!r}: only printable ASCII fits the status line font")
        event = t.get_choice("event", EVENTS, noun="event", missing="required")
        rule_ids = self.rule_ids(t, event)
        return ident, name, short, event, rule_ids

    def rule_ids(self, t: Section, event: str) -> tuple[str, ...]:
        value = t.get_list("rules", expected='an array of rule IDs like ["XW-2"]', empty=None,
                           missing='required: the rule IDs (docs/rules.md) this preset implements, e.g. ["XW-2"]; '
                                   '[] for custom')
        if not value and event != "custom":
            raise t.error("rules", f"must cite at least one rule ID for event {event!r}")
        families = _EVENT_FAMILIES[event] + ("CL",)
        out: list[str] = []
        for i, rid in enumerate(value):
            key = f"rules[{i}]"
            if not isinstance(rid, str):
                raise t.error(key, f"expected a rule ID string like \"XW-2\", got {shown(rid)}")
            if not RULE_ID_RE.fullmatch(rid):
                raise t.error(key, f"{rid!r} is not a rule ID (XW-n, SU-n, MR-n, MH-n or CL-n)")
            if rid.split("-")[0] not in families:
                raise t.error(key, f"{rid!r} does not belong to event {event!r} (expected {', '.join(f + '-n' for f in families)})")
            if rid in out:
                raise t.error(key, f"{rid!r} is listed twice")
            out.append(rid)
        return tuple(out)

    # ---- [clock] ----

    def clock_table(self, t: Section) -> tuple[Control, tuple[int, ...]]:
        mode = t.get_choice("mode", MODES, noun="mode")
        t.check_keys(_COMMON_CLOCK_KEYS + _MODE_KEYS[mode], not_used=_ALL_CLOCK_KEYS, why=f"by mode {mode!r}")
        tenths = t.get_time("tenths_below", 0, maximum=MAX_TENTHS)
        common = {"mode": mode, "tenths_below_ns": tenths}
        if mode == COUNTDOWN:
            return self.countdown(t, common)
        if mode == PER_MOVE:
            return self.per_move(t, common), ()
        if mode == ROUND:
            return self.round(t, common), ()
        return self.gamecut(t, common), ()

    def countdown(self, t: Section, common: dict[str, Any]) -> tuple[Control, tuple[int, ...]]:
        has = {k for k in ("time", "time_left", "time_right", "stages", "sequence") if k in t}
        per_side = has & {"time_left", "time_right"}
        if per_side and "time" in has:
            raise t.error(sorted(per_side)[0], "give either time (both sides) or time_left + time_right, not both")
        if "stages" in has and has - {"stages"}:
            other = sorted(has - {"stages"})[0]
            raise t.error("stages", f"give either stages or clock.{other}, not both")
        if "sequence" in has and has - {"sequence"}:
            other = sorted(has - {"sequence"})[0]
            raise t.error("sequence", f"replaces clock.{other} (the first entry is the match games' time for both sides); remove clock.{other}")
        if not has:
            raise t.error("time", "missing (mode 'countdown' needs time, time_left + time_right, stages or sequence)")

        increment = t.get_time("increment", None, allow_zero=True, maximum=MAX_PER_MOVE)
        if increment is not None and "stages" in has:
            raise t.error("increment", "with stages, give each stage its own increment")
        inc = increment or 0
        sequence: tuple[int, ...] = ()
        if "stages" in has:
            left = right = self.stages(t)
        elif per_side:
            if per_side != {"time_left", "time_right"}:
                missing = ({"time_left", "time_right"} - per_side).pop()
                raise t.error(missing, f"missing (clock.{per_side.pop()} needs it: give both sides' times)")
            left, right = ((Stage(t.get_time("time_left", maximum=MAX_GAME_TIME), None, inc),),
                           (Stage(t.get_time("time_right", maximum=MAX_GAME_TIME), None, inc),))
        elif "sequence" in has:
            sequence = t.get_times("sequence", descending=False, maximum=MAX_GAME_TIME)
            left = right = (Stage(sequence[0], None, inc),)
        else:
            left = right = (Stage(t.get_time("time", maximum=MAX_GAME_TIME), None, inc),)

        features: list[str] = []
        if inc or any(s.increment_ns for s in left + right):
            features.append("increment")

        delay = t.get_time("delay", None, maximum=MAX_PER_MOVE)
        kind_given = t.get_str("delay_kind", None)
        delay_kind = DELAY_NONE
        if delay is not None:
            if kind_given is None:
                raise t.error("delay_kind", f"missing (required with clock.delay: {DELAY_SIMPLE} or {DELAY_BRONSTEIN})")
            if kind_given not in (DELAY_SIMPLE, DELAY_BRONSTEIN):
                raise t.error("delay_kind", f"unknown delay kind {kind_given!r} ({DELAY_SIMPLE} or {DELAY_BRONSTEIN})")
            delay_kind = kind_given
            features.append("delay")
        elif kind_given is not None:
            raise t.error("delay_kind", "needs clock.delay (the delay's length)")

        periods = t.get_int("byoyomi_periods", 0, minimum=1, maximum=MAX_COUNT)
        period = t.get_time("byoyomi_period", None, maximum=MAX_PER_MOVE)
        if ("byoyomi_periods" in t) != ("byoyomi_period" in t):
            missing = "byoyomi_period" if "byoyomi_periods" in t else "byoyomi_periods"
            raise t.error(missing, "missing (byoyomi_periods and byoyomi_period go together)")
        if periods:
            features.append("byoyomi")

        hourglass = t.get_bool("hourglass", False)
        if hourglass:
            features.append("hourglass")
            if "stages" in has:
                raise t.error("hourglass", "cannot be combined with stages")
        if len(features) > 1:
            raise t.error(_FEATURE_KEY[features[1]],
                          f"cannot be combined with {features[0]} (choose one of increment, delay, byo-yomi, hourglass)")

        negative = t.get_bool("negative", False)
        if negative and (hourglass or periods):
            raise t.error("negative", f"cannot be combined with {'hourglass' if hourglass else 'byo-yomi'}")
        penalty = t.get_int("penalty_points_per_minute", 0, minimum=0, maximum=MAX_POINTS)
        if penalty and not negative:
            raise t.error("penalty_points_per_minute", "needs negative = true (overtime is only counted below zero)")

        start_max = max([left[0].time_ns, right[0].time_ns, *sequence])
        low = t.get_times("low_time", (), below=start_max, below_what=f"the starting time ({format_time(start_max)})")
        call = t.get_time("arbiter_call", 0)
        if call >= start_max:
            raise t.error("arbiter_call", f"{t.raw('arbiter_call')!r} must be less than the starting time "
                                          f"({format_time(start_max)})")
        if call and call in low:
            raise t.error("arbiter_call", f"{t.raw('arbiter_call')!r} is also in clock.low_time (MR-13: the "
                                          f"arbiter's call has its own pattern; remove it from low_time)")
        control = Control(
            stages_left=left, stages_right=right, negative=negative, penalty_points_per_minute=penalty,
            delay_kind=delay_kind, delay_ns=delay or 0, byoyomi_periods=periods, byoyomi_period_ns=period or 0,
            hourglass=hourglass, low_time_ns=low, arbiter_call_ns=call, **common,
        )
        return control, sequence

    def stages(self, t: Section) -> tuple[Stage, ...]:
        raw = t.sections("stages", like='[{time = "5:00"}]')
        out: list[Stage] = []
        for i, st in enumerate(raw):
            st.check_keys(_STAGE_KEYS)
            time_ns = st.get_time("time", allow_zero=i > 0, maximum=MAX_GAME_TIME, missing="required: the time added when the stage begins")
            if i < len(raw) - 1 and "moves" not in st:
                raise st.error("moves", "missing (every stage but the last needs moves)")
            # The last stage: without moves it lasts the rest of the game; with moves it repeats.
            moves = st.get_int("moves", None, minimum=1, maximum=MAX_MOVES)
            inc = st.get_time("increment", 0, allow_zero=True, maximum=MAX_PER_MOVE)
            out.append(Stage(time_ns, moves, inc))
        return tuple(out)

    def per_move(self, t: Section, common: dict[str, Any]) -> Control:
        move_time = t.get_time("move_time", maximum=MAX_PER_MOVE, missing="mode 'per_move' needs the time per move, e.g. \"2:00\"")
        announce = t.get_times("announce", (), below=move_time, below_what=_named_time(t, "move_time", move_time))
        options: list[ExtensionOption] = []
        for ext in t.sections("extensions", [], like='[{time = "5:00"}]'):
            ext.check_keys(_EXTENSION_KEYS)
            count = ext.get_int("count", minimum=1, maximum=MAX_COUNT)
            ext_time = ext.get_time("time", maximum=MAX_PER_MOVE, missing="required: the extra time of one grant")
            options.append(ExtensionOption(count, ext_time))
        expiry = t.get_choice("expiry", EXPIRIES, EXPIRY_LOSE)
        gesture = t.get_choice("extension_gesture", EXTENSION_GESTURES, GESTURE_ARBITER)
        return Control(move_time_ns=move_time, announce_ns=announce, extension_options=tuple(options),
                       move_expiry=expiry, extension_gesture=gesture, **common)

    def round(self, t: Section, common: dict[str, Any]) -> Control:
        time_ns = t.get_time("time", maximum=MAX_GAME_TIME, missing="mode 'round' needs the round's time, e.g. \"60:00\"")
        bonus = t.get_int("bonus_points_per_minute", 0, minimum=0, maximum=MAX_POINTS)
        low = t.get_times("low_time", (), below=time_ns, below_what=_named_time(t, "time", time_ns))
        stage = (Stage(time_ns),)
        return Control(stages_left=stage, stages_right=stage, bonus_points_per_minute=bonus, low_time_ns=low, **common)

    def gamecut(self, t: Section, common: dict[str, Any]) -> Control:
        time_ns = t.get_time("time", maximum=MAX_GAME_TIME, missing="mode 'gamecut' needs the game's time, e.g. \"50:00\"")
        warnings = t.get_times("cut_warnings", (), below=time_ns, below_what=_named_time(t, "time", time_ns))
        extra = t.get_int("extra_turns", 0, minimum=0, maximum=MAX_COUNT)
        stage = (Stage(time_ns),)
        return Control(stages_left=stage, stages_right=stage, cut_warnings_ns=warnings, cut_extra_turns=extra, **common)

    # ---- [counting] ----

    def counting_table(self, t: Section | None, event: str, control: Control) -> tuple[Control, tuple[str, ...]]:
        """MR-4..MR-8 and MH-6: how the clock counts; the Control's count_* fields (their defaults without a table)."""
        if event in _COUNTING_KEYS:
            games: tuple[str, ...] = (event,)
        elif event == "custom":
            games = tuple(g for g, keys in _COUNTING_KEYS.items() if t is not None and any(k in t for k in keys))
        else:
            if t is not None:
                raise t.error(None, f"event {event!r} does not count moves (only makruk, makhos and custom "
                                    f"events have a [counting] table)")
            return control, ()
        if t is None:
            return control, games
        allowed = tuple(k for g in (_COUNTING_KEYS if event == "custom" else (event,)) for k in _COUNTING_KEYS[g])
        t.check_keys(allowed, not_used=_ALL_COUNTING_KEYS, why=f"by event {event!r}")
        start = t.get_choice("pieces_start", PIECES_START, None)
        board_limit = t.get_int("board_limit", None, minimum=1, maximum=MAX_MOVES)
        how = t.get_choice("count", MAKHOS_COUNT, None)
        limit = t.get_int("limit", None, minimum=1, maximum=MAX_MOVES)
        changes: dict[str, Any] = {
            "count_pieces_with_kings": None if start is None else start == "both-kings",
            "count_board_limit": board_limit,
            "count_makhos_both": None if how is None else how == "both",
            "count_makhos_limit": limit,
        }
        return replace(control, **{k: v for k, v in changes.items() if v is not None}), games

    # ---- [standings] ----

    def standings_table(self, t: Section, event: str) -> StandingsSettings:
        """Issue 7: MR-11 `team_boards` (makruk), MH-7 `match_games` and `tiebreaks` (makhos); a custom event
        any of them."""
        if event == "custom":
            allowed: tuple[str, ...] = tuple(sorted(_ALL_STANDINGS_KEYS))
        elif event in _STANDINGS_KEYS:
            allowed = _STANDINGS_KEYS[event]
        else:
            raise t.error(None, f"event {event!r} has no standings settings (only makruk, makhos and "
                                f"custom events have a [standings] table)")
        t.check_keys(allowed, not_used=_ALL_STANDINGS_KEYS, why=f"by event {event!r}")
        values: dict[str, Any] = {
            k: t.get_int(k, minimum=lo, maximum=hi) for k, (lo, hi) in _STANDINGS_RANGES.items() if k in t}
        if "tiebreaks" in t:
            values["tiebreaks"] = self.tiebreaks(t)
        return StandingsSettings(**values)

    def tiebreaks(self, t: Section) -> tuple[str, ...]:
        """MH-7: an array of method names from TIEBREAK_METHODS, each at most once, at least one."""
        value = t.get_list("tiebreaks", expected='an array of method names like ["match_points", "game_points"]',
                           empty="must not be empty (leave the key out for the default order: "
                                 f"{', '.join(TIEBREAK_METHODS)})")
        seen: list[str] = []
        for i, name in enumerate(value):
            key = f"tiebreaks[{i}]"
            if not isinstance(name, str):
                raise t.error(key, f"expected a method name (a string), got {shown(name)}")
            if name not in TIEBREAK_METHODS:
                raise t.error(key, unknown_value("method", name, TIEBREAK_METHODS))
            if name in seen:
                raise t.error(key, f"{name!r} is listed twice (each method at most once)")
            seen.append(name)
        return tuple(seen)

    # ---- [scoring] ----

    def scoring_table(self, t: Section, event: str) -> Scoring:
        fits = EVENT_SCORING_KINDS[event]
        kind = t.get_choice("kind", SCORING_KINDS, noun="kind",
                            missing=f"required: {' or '.join(fits)} for event {event!r}")
        if kind not in fits:
            raise t.error("kind", f"kind {kind!r} does not fit event {event!r} (expected {' or '.join(fits)})")
        t.check_keys(("kind",) + _KIND_KEYS[kind], not_used=_ALL_SCORING_KEYS, why=f"by kind {kind!r}")

        win = t.get_int("win", 2, minimum=0, maximum=MAX_POINTS)
        draw = t.get_int("draw", 1, minimum=0, maximum=MAX_POINTS)
        loss = t.get_int("loss", 0, minimum=0, maximum=MAX_POINTS)
        if win <= loss:
            raise t.error("win", f"must be more than scoring.loss ({win} <= {loss})")
        if not loss <= draw <= win:
            raise t.error("draw", f"must be between scoring.loss and scoring.win ({loss}..{win}), got {draw}")

        caps = self.caps(t)
        levels = tuple(level for level, _, _ in caps)
        default_level = t.get_str("default_level", None)
        if default_level is not None:
            if not caps:
                raise t.error("default_level", "needs [scoring.caps] (the levels are the caps' keys)")
            if default_level not in levels:
                raise t.error("default_level", f"{default_level!r} is not a level of [scoring.caps] "
                                               f"(one of {', '.join(levels)})" + did_you_mean(default_level, levels))
        elif len(levels) == 1:
            default_level = levels[0]
        # With more than one level and no default_level, each game's level comes from the clock's set-up
        # (the arbiter's Level, or a pairing): the result entry asks for it, never guesses (XW-8).
        bye = self.bye_spread(t, levels)
        flag_rule = t.get_bool("flag_needs_material", False)
        return Scoring(kind=kind, win_points=win, draw_points=draw, loss_points=loss, caps=caps,
                       default_level=default_level, bye_spread=bye, flag_needs_material=flag_rule)

    def level_table(self, t: Section, key: str, example: str) -> Section | None:
        table = t.section(key, None, like=example, nonempty=True)
        if table is not None:
            for level in table:
                if not LEVEL_RE.fullmatch(level):
                    raise table.error(level, f"{level!r} is not a level name (lower-case letters, digits, _ and -)")
        return table

    def caps(self, t: Section) -> tuple[tuple[str, int, int], ...]:
        table = self.level_table(t, "caps", "primary = [100, 80]")
        if table is None:
            return ()
        out: list[tuple[str, int, int]] = []
        for level in table:
            value = table.raw(level)
            if not isinstance(value, list) or len(value) != 2:
                raise table.error(level, f"expected [cap, last_game_cap] like [250, 200], got {shown(value)}"
                                         + (f" of {len(value)}" if isinstance(value, list) else ""))
            cap, last = (table.as_int(v, f"{level}[{i}]", minimum=1, maximum=MAX_SPREAD) for i, v in enumerate(value))
            if last > cap:
                raise table.error(f"{level}[1]", f"the last-game cap {last} is above the cap {cap}")
            out.append((level, cap, last))
        return tuple(out)

    def bye_spread(self, t: Section, levels: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
        table = self.level_table(t, "bye_spread", "primary = 50")
        if table is None:
            return ()
        out: list[tuple[str, int]] = []
        for level in table:
            if level not in levels:
                known = f"one of {', '.join(levels)}" if levels else "there is no [scoring.caps] table"
                raise table.error(level, f"unknown level {level!r} (the levels are the keys of "
                                         f"[scoring.caps]: {known})" + did_you_mean(level, levels))
            out.append((level, table.get_int(level, minimum=0, maximum=MAX_SPREAD)))
        return tuple(out)


def _named_time(t: Section, name: str, ns: int) -> str:
    """How a message names the time a list must stay below: "clock.time (22:00)"."""
    return f"{t.key(name)} ({format_time(ns)})"


_FEATURE_KEY = {"increment": "increment", "delay": "delay", "byoyomi": "byoyomi_periods", "hourglass": "hourglass"}
