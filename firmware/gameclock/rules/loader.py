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
import tomllib
from dataclasses import dataclass, replace
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from gameclock.dataerrors import did_you_mean as _did_you_mean, display_path as _display_path

from gameclock.core.control import (
    COUNTDOWN,
    DELAY_BRONSTEIN,
    DELAY_NONE,
    DELAY_SIMPLE,
    EXPIRIES,
    EXPIRY_LOSE,
    GAMECUT,
    MODES,
    PER_MOVE,
    ROUND,
    Control,
    ExtensionOption,
    Stage,
)
from gameclock.core.scoring import KINDS as SCORING_KINDS
from gameclock.core.scoring import Scoring
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

_TABLES = ("preset", "clock", "scoring", "counting", "standings")
_PRESET_KEYS = ("id", "name", "short", "event", "rules", "games")
PRESET_GAMES = ("match", "tiebreak")  # MH-4, MH-7(3): the games a preset times
_COMMON_CLOCK_KEYS = ("mode", "tenths_below")
_MODE_KEYS: dict[str, tuple[str, ...]] = {
    COUNTDOWN: (
        "time", "time_left", "time_right", "stages", "sequence", "increment", "delay", "delay_kind",
        "byoyomi_periods", "byoyomi_period", "hourglass", "negative", "penalty_points_per_minute", "low_time",
        "arbiter_call",
    ),
    PER_MOVE: ("move_time", "announce", "extensions", "expiry"),
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


class RuleError(ValueError):
    """A rule file is wrong. str() is one line: "<file>: <dotted.key>: <what is wrong>"."""

    def __init__(self, file: str | os.PathLike[str], key: str | None, problem: str):
        self.file = _display_path(file)
        self.key = key
        self.problem = " ".join(str(problem).split())  # always one line
        parts = [self.file] + ([key] if key else []) + [self.problem]
        super().__init__(": ".join(parts))


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
    path = _path_of(source)
    try:
        raw = source.read_bytes()
    except OSError as exc:
        raise RuleError(path, None, f"cannot read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuleError(path, None, f"not UTF-8 text (byte {exc.start})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(path, None, f"TOML syntax error: {exc}") from None
    return _Builder(path).build(data)


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


# --------------------------------------------------------------------------------------------- helpers




def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "table"
    return "date/time"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return _type_name(value)
    return f"{_type_name(value)} {value!r}"


class _Builder:
    """Turns the parsed TOML of one file into a Preset, or raises the first RuleError."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, key: str | None, problem: str) -> RuleError:
        return RuleError(self.path, key, problem)

    # ---- typed getters (key is the dotted name used in messages) ----

    def check_keys(self, table: dict[str, Any], prefix: str, allowed: tuple[str, ...]) -> None:
        for k in table:
            if k not in allowed:
                raise self.fail(f"{prefix}.{k}", "unknown key" + _did_you_mean(k, allowed))

    def get_table(self, data: dict[str, Any], key: str) -> dict[str, Any]:
        if key not in data:
            raise self.fail(key, f"missing table (add a [{key}] section)")
        value = data[key]
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a table [{key}], got {_shown(value)}")
        return value

    def string(self, table: dict[str, Any], prefix: str, key: str, *, required: bool) -> str | None:
        if key not in table:
            if required:
                raise self.fail(f"{prefix}.{key}", "missing (required)")
            return None
        value = table[key]
        if not isinstance(value, str):
            raise self.fail(f"{prefix}.{key}", f"expected a string, got {_shown(value)}")
        if not value.strip():
            raise self.fail(f"{prefix}.{key}", "must not be empty")
        return value

    def integer(self, table: dict[str, Any], prefix: str, key: str, *, default: int | None, minimum: int,
                maximum: int | None = None) -> int:
        dotted = f"{prefix}.{key}"
        if key not in table:
            if default is None:
                raise self.fail(dotted, "missing (required)")
            return default
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(dotted, f"expected an integer, got {_shown(value)}")
        if value < minimum:
            raise self.fail(dotted, f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise self.fail(dotted, f"must be at most {maximum}, got {value}")
        return value

    def boolean(self, table: dict[str, Any], prefix: str, key: str, *, default: bool) -> bool:
        if key not in table:
            return default
        value = table[key]
        if not isinstance(value, bool):
            raise self.fail(f"{prefix}.{key}", f"expected true or false, got {_shown(value)}")
        return value

    def time_value(self, value: Any, dotted: str, *, allow_zero: bool) -> int:
        if not isinstance(value, str):
            raise self.fail(dotted, f'expected a time string like "22:00", got {_shown(value)}')
        try:
            ns = parse_time(value)
        except ValueError as exc:
            raise self.fail(dotted, str(exc)) from None
        if ns == 0 and not allow_zero:
            raise self.fail(dotted, f"must be more than 0:00, got {value!r}")
        return ns

    def time(self, table: dict[str, Any], prefix: str, key: str, *, allow_zero: bool = False) -> int | None:
        if key not in table:
            return None
        return self.time_value(table[key], f"{prefix}.{key}", allow_zero=allow_zero)

    def times(self, table: dict[str, Any], prefix: str, key: str, *, below: int | None, below_what: str,
              descending: bool = True) -> tuple[int, ...] | None:
        """An array of positive times. descending=True sorts them (a set of thresholds) and forbids repeats."""
        if key not in table:
            return None
        dotted = f"{prefix}.{key}"
        value = table[key]
        if not isinstance(value, list):
            raise self.fail(dotted, f'expected an array of times like ["1:00"], got {_shown(value)}')
        if not value:
            raise self.fail(dotted, "must not be empty (leave the key out instead)")
        out = [self.time_value(v, f"{dotted}[{i}]", allow_zero=False) for i, v in enumerate(value)]
        if below is not None:
            for i, ns in enumerate(out):
                if ns >= below:
                    raise self.fail(f"{dotted}[{i}]", f"{value[i]!r} must be less than {below_what} ({format_time(below)})")
        if descending:
            seen: set[int] = set()
            for i, ns in enumerate(out):
                if ns in seen:
                    raise self.fail(f"{dotted}[{i}]", f"{value[i]!r} is listed twice")
                seen.add(ns)
            out.sort(reverse=True)
        return tuple(out)

    def tables(self, table: dict[str, Any], prefix: str, key: str) -> list[dict[str, Any]] | None:
        if key not in table:
            return None
        dotted = f"{prefix}.{key}"
        value = table[key]
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(dotted, f"expected an array of tables like [{{time = \"5:00\"}}], got {_shown(value)}")
        if not value:
            raise self.fail(dotted, "must not be empty (leave the key out instead)")
        return value

    # ---- the file ----

    def build(self, data: dict[str, Any]) -> Preset:
        for k in data:
            if k not in _TABLES:
                what = "table" if isinstance(data[k], dict) else "key"
                raise self.fail(k, f"unknown {what} (a rule file has only [preset], [clock], [scoring], [counting] "
                                   f"and [standings])"
                                   + _did_you_mean(k, _TABLES))
        preset = self.get_table(data, "preset")
        clock = self.get_table(data, "clock")
        ident, name, short, event, rule_ids = self.preset_table(preset)
        games = self.string(preset, "preset", "games", required=False) or "match"
        if games not in PRESET_GAMES:
            raise self.fail("preset.games", f"unknown value {games!r} (one of {', '.join(PRESET_GAMES)})"
                                            + _did_you_mean(games, PRESET_GAMES))
        control, sequence = self.clock_table(clock)
        scoring = self.scoring_table(self.get_table(data, "scoring"), event) if "scoring" in data else Scoring()
        counting = self.get_table(data, "counting") if "counting" in data else None
        control, counts = self.counting_table(counting, event, control)
        standings = self.standings_table(self.get_table(data, "standings"), event) if "standings" in data \
            else StandingsSettings()
        return Preset(id=ident, name=name, short=short, event=event, rule_ids=rule_ids,
                      control=control, sequence=sequence, path=self.path, scoring=scoring, counts=counts,
                      standings=standings, tiebreak_games=games == "tiebreak")

    def preset_table(self, t: dict[str, Any]) -> tuple[str, str, str, str, tuple[str, ...]]:
        self.check_keys(t, "preset", _PRESET_KEYS)
        ident = self.string(t, "preset", "id", required=True)
        assert ident is not None
        if not PRESET_ID_RE.fullmatch(ident):
            raise self.fail("preset.id", f"{ident!r} is not a valid id (lower-case letters, digits and . _ + -)")
        if ident != self.path.stem:
            raise self.fail("preset.id", f"{ident!r} does not match the file name {self.path.name!r} "
                                         f"(the id must be the file name without .toml)")
        name = self.string(t, "preset", "name", required=True)
        assert name is not None
        name = name.strip()
        short = self.string(t, "preset", "short", required=False)
        if short is None:
            short = ident.upper()[:SHORT_MAX]
        else:
            if len(short) > SHORT_MAX:
                raise self.fail("preset.short", f"{short!r} is {len(short)} characters; at most {SHORT_MAX} fit the status line")
            if not all(" " <= ch <= "~" for ch in short):
                raise self.fail("preset.short", f"{short!r}: only printable ASCII fits the status line font")
        event = self.string(t, "preset", "event", required=True)
        assert event is not None
        if event not in EVENTS:
            raise self.fail("preset.event", f"unknown event {event!r} (one of {', '.join(EVENTS)})"
                                            + _did_you_mean(event, EVENTS))
        rule_ids = self.rule_ids(t, event)
        return ident, name, short, event, rule_ids

    def rule_ids(self, t: dict[str, Any], event: str) -> tuple[str, ...]:
        if "rules" not in t:
            raise self.fail("preset.rules", 'missing (required: the rule IDs (docs/rules.md) this preset implements, e.g. ["XW-2"]; [] for custom)')
        value = t["rules"]
        if not isinstance(value, list):
            raise self.fail("preset.rules", f'expected an array of rule IDs like ["XW-2"], got {_shown(value)}')
        if not value and event != "custom":
            raise self.fail("preset.rules", f"must cite at least one rule ID for event {event!r}")
        families = _EVENT_FAMILIES[event] + ("CL",)
        out: list[str] = []
        for i, rid in enumerate(value):
            key = f"preset.rules[{i}]"
            if not isinstance(rid, str):
                raise self.fail(key, f"expected a rule ID string like \"XW-2\", got {_shown(rid)}")
            if not RULE_ID_RE.fullmatch(rid):
                raise self.fail(key, f"{rid!r} is not a rule ID (XW-n, SU-n, MR-n, MH-n or CL-n)")
            if rid.split("-")[0] not in families:
                raise self.fail(key, f"{rid!r} does not belong to event {event!r} (expected {', '.join(f + '-n' for f in families)})")
            if rid in out:
                raise self.fail(key, f"{rid!r} is listed twice")
            out.append(rid)
        return tuple(out)

    def clock_table(self, t: dict[str, Any]) -> tuple[Control, tuple[int, ...]]:
        mode = self.string(t, "clock", "mode", required=False)
        if mode is None:
            raise self.fail("clock.mode", f"missing (required: one of {', '.join(MODES)})")
        if mode not in MODES:
            raise self.fail("clock.mode", f"unknown mode {mode!r} (one of {', '.join(MODES)})"
                                          + _did_you_mean(mode, MODES))
        allowed = _COMMON_CLOCK_KEYS + _MODE_KEYS[mode]
        for k in t:
            if k in allowed:
                continue
            if k in _ALL_CLOCK_KEYS:
                raise self.fail(f"clock.{k}", f"not used by mode {mode!r}")
            raise self.fail(f"clock.{k}", "unknown key" + _did_you_mean(k, allowed))
        tenths = self.time(t, "clock", "tenths_below") or 0
        common = {"mode": mode, "tenths_below_ns": tenths}
        if mode == COUNTDOWN:
            return self.countdown(t, common)
        if mode == PER_MOVE:
            return self.per_move(t, common), ()
        if mode == ROUND:
            return self.round(t, common), ()
        return self.gamecut(t, common), ()

    def countdown(self, t: dict[str, Any], common: dict[str, Any]) -> tuple[Control, tuple[int, ...]]:
        has = {k for k in ("time", "time_left", "time_right", "stages", "sequence") if k in t}
        per_side = has & {"time_left", "time_right"}
        if per_side and "time" in has:
            raise self.fail(f"clock.{sorted(per_side)[0]}", "give either time (both sides) or time_left + time_right, not both")
        if "stages" in has and has - {"stages"}:
            other = sorted(has - {"stages"})[0]
            raise self.fail("clock.stages", f"give either stages or clock.{other}, not both")
        if "sequence" in has and has - {"sequence"}:
            other = sorted(has - {"sequence"})[0]
            raise self.fail("clock.sequence", f"replaces clock.{other} (the first entry is the match games' time for both sides); remove clock.{other}")
        if not has:
            raise self.fail("clock.time", "missing (mode 'countdown' needs time, time_left + time_right, stages or sequence)")

        increment = self.time(t, "clock", "increment", allow_zero=True)
        if increment is not None and "stages" in has:
            raise self.fail("clock.increment", "with stages, give each stage its own increment")
        inc = increment or 0
        sequence: tuple[int, ...] = ()
        if "stages" in has:
            left = right = self.stages(t)
        elif per_side:
            if per_side != {"time_left", "time_right"}:
                missing = ({"time_left", "time_right"} - per_side).pop()
                raise self.fail(f"clock.{missing}", f"missing (clock.{per_side.pop()} needs it: give both sides' times)")
            tl = self.time(t, "clock", "time_left")
            tr = self.time(t, "clock", "time_right")
            assert tl is not None and tr is not None
            left, right = (Stage(tl, None, inc),), (Stage(tr, None, inc),)
        elif "sequence" in has:
            seq = self.times(t, "clock", "sequence", below=None, below_what="", descending=False)
            assert seq is not None
            sequence = seq
            left = right = (Stage(seq[0], None, inc),)
        else:
            tt = self.time(t, "clock", "time")
            assert tt is not None
            left = right = (Stage(tt, None, inc),)

        features: list[str] = []
        if inc or any(s.increment_ns for s in left + right):
            features.append("increment")

        delay = self.time(t, "clock", "delay")
        kind_given = self.string(t, "clock", "delay_kind", required=False)
        delay_kind = DELAY_NONE
        if delay is not None:
            if kind_given is None:
                raise self.fail("clock.delay_kind", f"missing (required with clock.delay: {DELAY_SIMPLE} or {DELAY_BRONSTEIN})")
            if kind_given not in (DELAY_SIMPLE, DELAY_BRONSTEIN):
                raise self.fail("clock.delay_kind", f"unknown delay kind {kind_given!r} ({DELAY_SIMPLE} or {DELAY_BRONSTEIN})")
            delay_kind = kind_given
            features.append("delay")
        elif kind_given is not None:
            raise self.fail("clock.delay_kind", "needs clock.delay (the delay's length)")

        periods = self.integer(t, "clock", "byoyomi_periods", default=0, minimum=1)
        period = self.time(t, "clock", "byoyomi_period")
        if ("byoyomi_periods" in t) != ("byoyomi_period" in t):
            missing = "byoyomi_period" if "byoyomi_periods" in t else "byoyomi_periods"
            raise self.fail(f"clock.{missing}", "missing (byoyomi_periods and byoyomi_period go together)")
        if periods:
            features.append("byoyomi")

        hourglass = self.boolean(t, "clock", "hourglass", default=False)
        if hourglass:
            features.append("hourglass")
            if "stages" in has:
                raise self.fail("clock.hourglass", "cannot be combined with stages")
        if len(features) > 1:
            raise self.fail(f"clock.{_FEATURE_KEY[features[1]]}",
                            f"cannot be combined with {features[0]} (choose one of increment, delay, byo-yomi, hourglass)")

        negative = self.boolean(t, "clock", "negative", default=False)
        if negative and (hourglass or periods):
            raise self.fail("clock.negative", f"cannot be combined with {'hourglass' if hourglass else 'byo-yomi'}")
        penalty = self.integer(t, "clock", "penalty_points_per_minute", default=0, minimum=0)
        if penalty and not negative:
            raise self.fail("clock.penalty_points_per_minute", "needs negative = true (overtime is only counted below zero)")

        start_max = max([left[0].time_ns, right[0].time_ns, *sequence])
        low = self.times(t, "clock", "low_time", below=start_max, below_what="the starting time") or ()
        call = self.time(t, "clock", "arbiter_call") or 0
        if call >= start_max:
            raise self.fail("clock.arbiter_call", f"{t['arbiter_call']!r} must be less than the starting time "
                                                  f"({format_time(start_max)})")
        if call and call in low:
            raise self.fail("clock.arbiter_call", f"{t['arbiter_call']!r} is also in clock.low_time (MR-13: the "
                                                  f"arbiter's call has its own pattern; remove it from low_time)")
        control = Control(
            stages_left=left, stages_right=right, negative=negative, penalty_points_per_minute=penalty,
            delay_kind=delay_kind, delay_ns=delay or 0, byoyomi_periods=periods, byoyomi_period_ns=period or 0,
            hourglass=hourglass, low_time_ns=low, arbiter_call_ns=call, **common,
        )
        return control, sequence

    def stages(self, t: dict[str, Any]) -> tuple[Stage, ...]:
        raw = self.tables(t, "clock", "stages")
        assert raw is not None
        out: list[Stage] = []
        for i, st in enumerate(raw):
            prefix = f"clock.stages[{i}]"
            self.check_keys(st, prefix, _STAGE_KEYS)
            if "time" not in st:
                raise self.fail(f"{prefix}.time", "missing (required: the time added when the stage begins)")
            time_ns = self.time(st, prefix, "time", allow_zero=i > 0)
            assert time_ns is not None
            if i < len(raw) - 1 and "moves" not in st:
                raise self.fail(f"{prefix}.moves", "missing (every stage but the last needs moves)")
            # The last stage: without moves it lasts the rest of the game; with moves it repeats.
            moves = self.integer(st, prefix, "moves", default=0, minimum=1) if "moves" in st else None
            inc = self.time(st, prefix, "increment", allow_zero=True) or 0
            out.append(Stage(time_ns, moves, inc))
        return tuple(out)

    def per_move(self, t: dict[str, Any], common: dict[str, Any]) -> Control:
        move_time = self.time(t, "clock", "move_time")
        if move_time is None:
            raise self.fail("clock.move_time", "missing (mode 'per_move' needs the time per move, e.g. \"2:00\")")
        announce = self.times(t, "clock", "announce", below=move_time, below_what="clock.move_time") or ()
        options: list[ExtensionOption] = []
        for i, ext in enumerate(self.tables(t, "clock", "extensions") or []):
            prefix = f"clock.extensions[{i}]"
            self.check_keys(ext, prefix, _EXTENSION_KEYS)
            count = self.integer(ext, prefix, "count", default=None, minimum=1)
            if "time" not in ext:
                raise self.fail(f"{prefix}.time", "missing (required: the extra time of one grant)")
            ext_time = self.time(ext, prefix, "time")
            assert ext_time is not None
            options.append(ExtensionOption(count, ext_time))
        expiry = self.string(t, "clock", "expiry", required=False) or EXPIRY_LOSE
        if expiry not in EXPIRIES:
            raise self.fail("clock.expiry", f"unknown value {expiry!r} (one of {', '.join(EXPIRIES)})"
                                            + _did_you_mean(expiry, EXPIRIES))
        return Control(move_time_ns=move_time, announce_ns=announce, extension_options=tuple(options),
                       move_expiry=expiry, **common)

    def round(self, t: dict[str, Any], common: dict[str, Any]) -> Control:
        time_ns = self.time(t, "clock", "time")
        if time_ns is None:
            raise self.fail("clock.time", "missing (mode 'round' needs the round's time, e.g. \"60:00\")")
        bonus = self.integer(t, "clock", "bonus_points_per_minute", default=0, minimum=0)
        low = self.times(t, "clock", "low_time", below=time_ns, below_what="clock.time") or ()
        stage = (Stage(time_ns),)
        return Control(stages_left=stage, stages_right=stage, bonus_points_per_minute=bonus, low_time_ns=low, **common)

    def gamecut(self, t: dict[str, Any], common: dict[str, Any]) -> Control:
        time_ns = self.time(t, "clock", "time")
        if time_ns is None:
            raise self.fail("clock.time", "missing (mode 'gamecut' needs the game's time, e.g. \"50:00\")")
        warnings = self.times(t, "clock", "cut_warnings", below=time_ns, below_what="clock.time") or ()
        extra = self.integer(t, "clock", "extra_turns", default=0, minimum=0)
        stage = (Stage(time_ns),)
        return Control(stages_left=stage, stages_right=stage, cut_warnings_ns=warnings, cut_extra_turns=extra, **common)


    # ---- [counting] ----

    def counting_table(self, t: dict[str, Any] | None, event: str, control: Control) -> tuple[Control, tuple[str, ...]]:
        """MR-4..MR-8 and MH-6: how the clock counts; the Control's count_* fields (their defaults without a table)."""
        if event in _COUNTING_KEYS:
            games: tuple[str, ...] = (event,)
        elif event == "custom":
            games = tuple(g for g, keys in _COUNTING_KEYS.items() if t is not None and any(k in t for k in keys))
        else:
            if t is not None:
                raise self.fail("counting", f"event {event!r} does not count moves (only makruk, makhos and custom "
                                            f"events have a [counting] table)")
            return control, ()
        if t is None:
            return control, games
        allowed = tuple(k for g in (_COUNTING_KEYS if event == "custom" else (event,)) for k in _COUNTING_KEYS[g])
        for k in t:
            if k in allowed:
                continue
            if k in _ALL_COUNTING_KEYS:
                raise self.fail(f"counting.{k}", f"not used by event {event!r}")
            raise self.fail(f"counting.{k}", "unknown key" + _did_you_mean(k, allowed))
        changes: dict[str, Any] = {}
        start = self.choice(t, "pieces_start", PIECES_START)
        if start is not None:
            changes["count_pieces_with_kings"] = start == "both-kings"
        if "board_limit" in t:
            changes["count_board_limit"] = self.integer(t, "counting", "board_limit", default=None, minimum=1)
        how = self.choice(t, "count", MAKHOS_COUNT)
        if how is not None:
            changes["count_makhos_both"] = how == "both"
        if "limit" in t:
            changes["count_makhos_limit"] = self.integer(t, "counting", "limit", default=None, minimum=1)
        return replace(control, **changes), games

    def choice(self, t: dict[str, Any], key: str, choices: tuple[str, ...]) -> str | None:
        value = self.string(t, "counting", key, required=False)
        if value is not None and value not in choices:
            raise self.fail(f"counting.{key}", f"unknown value {value!r} (one of {', '.join(choices)})"
                                               + _did_you_mean(value, choices))
        return value

    # ---- [standings] ----

    def standings_table(self, t: dict[str, Any], event: str) -> StandingsSettings:
        """Issue 7: MR-11 `team_boards` (makruk), MH-7 `match_games` and `tiebreaks` (makhos); a custom event
        any of them."""
        if event == "custom":
            allowed: tuple[str, ...] = tuple(sorted(_ALL_STANDINGS_KEYS))
        elif event in _STANDINGS_KEYS:
            allowed = _STANDINGS_KEYS[event]
        else:
            raise self.fail("standings", f"event {event!r} has no standings settings (only makruk, makhos and "
                                         f"custom events have a [standings] table)")
        for k in t:
            if k in allowed:
                continue
            if k in _ALL_STANDINGS_KEYS:
                raise self.fail(f"standings.{k}", f"not used by event {event!r}")
            raise self.fail(f"standings.{k}", "unknown key" + _did_you_mean(k, allowed))
        values: dict[str, Any] = {
            k: self.integer(t, "standings", k, default=None, minimum=lo, maximum=hi)
            for k, (lo, hi) in _STANDINGS_RANGES.items() if k in t}
        if "tiebreaks" in t:
            values["tiebreaks"] = self.tiebreaks(t["tiebreaks"])
        return StandingsSettings(**values)

    def tiebreaks(self, value: Any) -> tuple[str, ...]:
        """MH-7: an array of method names from TIEBREAK_METHODS, each at most once, at least one."""
        dotted = "standings.tiebreaks"
        if not isinstance(value, list):
            raise self.fail(dotted, f'expected an array of method names like ["match_points", "game_points"], '
                                    f"got {_shown(value)}")
        if not value:
            raise self.fail(dotted, "must not be empty (leave the key out for the default order: "
                                    f"{', '.join(TIEBREAK_METHODS)})")
        seen: list[str] = []
        for i, name in enumerate(value):
            if not isinstance(name, str):
                raise self.fail(f"{dotted}[{i}]", f"expected a method name (a string), got {_shown(name)}")
            if name not in TIEBREAK_METHODS:
                raise self.fail(f"{dotted}[{i}]", f"unknown method {name!r} "
                                                  f"(one of {', '.join(TIEBREAK_METHODS)})"
                                                  + _did_you_mean(name, TIEBREAK_METHODS))
            if name in seen:
                raise self.fail(f"{dotted}[{i}]", f"{name!r} is listed twice (each method at most once)")
            seen.append(name)
        return tuple(seen)

    # ---- [scoring] ----

    def scoring_table(self, t: dict[str, Any], event: str) -> Scoring:
        fits = EVENT_SCORING_KINDS[event]
        kind = self.string(t, "scoring", "kind", required=False)
        if kind is None:
            raise self.fail("scoring.kind", f"missing (required: {' or '.join(fits)} for event {event!r})")
        if kind not in SCORING_KINDS:
            raise self.fail("scoring.kind", f"unknown kind {kind!r} (one of {', '.join(SCORING_KINDS)})"
                                            + _did_you_mean(kind, SCORING_KINDS))
        if kind not in fits:
            raise self.fail("scoring.kind", f"kind {kind!r} does not fit event {event!r} (expected {' or '.join(fits)})")
        allowed = ("kind",) + _KIND_KEYS[kind]
        for k in t:
            if k in allowed:
                continue
            if k in _ALL_SCORING_KEYS:
                raise self.fail(f"scoring.{k}", f"not used by kind {kind!r}")
            raise self.fail(f"scoring.{k}", "unknown key" + _did_you_mean(k, allowed))

        win = self.integer(t, "scoring", "win", default=2, minimum=0)
        draw = self.integer(t, "scoring", "draw", default=1, minimum=0)
        loss = self.integer(t, "scoring", "loss", default=0, minimum=0)
        if win <= loss:
            raise self.fail("scoring.win", f"must be more than scoring.loss ({win} <= {loss})")
        if not loss <= draw <= win:
            raise self.fail("scoring.draw", f"must be between scoring.loss and scoring.win ({loss}..{win}), got {draw}")

        caps = self.caps(t)
        levels = tuple(level for level, _, _ in caps)
        default_level = self.string(t, "scoring", "default_level", required=False)
        if default_level is not None:
            if not caps:
                raise self.fail("scoring.default_level", "needs [scoring.caps] (the levels are the caps' keys)")
            if default_level not in levels:
                raise self.fail("scoring.default_level", f"{default_level!r} is not a level of [scoring.caps] "
                                                         f"(one of {', '.join(levels)})" + _did_you_mean(default_level, levels))
        elif len(levels) == 1:
            default_level = levels[0]
        # With more than one level and no default_level, each game's level comes from the clock's set-up
        # (the arbiter's Level, or a pairing): the result entry asks for it, never guesses (XW-8).
        bye = self.bye_spread(t, levels)
        flag_rule = self.boolean(t, "scoring", "flag_needs_material", default=False)
        return Scoring(kind=kind, win_points=win, draw_points=draw, loss_points=loss, caps=caps,
                       default_level=default_level, bye_spread=bye, flag_needs_material=flag_rule)

    def level_table(self, t: dict[str, Any], key: str, example: str) -> dict[str, Any] | None:
        if key not in t:
            return None
        dotted = f"scoring.{key}"
        value = t[key]
        if not isinstance(value, dict):
            raise self.fail(dotted, f"expected a table [{dotted}] like {example}, got {_shown(value)}")
        if not value:
            raise self.fail(dotted, "must not be empty (leave the table out instead)")
        for level in value:
            if not LEVEL_RE.fullmatch(level):
                raise self.fail(f"{dotted}.{level}", f"{level!r} is not a level name (lower-case letters, digits, _ and -)")
        return value

    def caps(self, t: dict[str, Any]) -> tuple[tuple[str, int, int], ...]:
        table = self.level_table(t, "caps", "primary = [100, 80]")
        out: list[tuple[str, int, int]] = []
        for level, value in (table or {}).items():
            dotted = f"scoring.caps.{level}"
            if not isinstance(value, list) or len(value) != 2:
                raise self.fail(dotted, f"expected [cap, last_game_cap] like [250, 200], got {_shown(value)}"
                                        + (f" of {len(value)}" if isinstance(value, list) else ""))
            for i, v in enumerate(value):
                if isinstance(v, bool) or not isinstance(v, int):
                    raise self.fail(f"{dotted}[{i}]", f"expected an integer, got {_shown(v)}")
                if v < 1:
                    raise self.fail(f"{dotted}[{i}]", f"must be at least 1, got {v}")
            cap, last = value
            if last > cap:
                raise self.fail(f"{dotted}[1]", f"the last-game cap {last} is above the cap {cap}")
            out.append((level, cap, last))
        return tuple(out)

    def bye_spread(self, t: dict[str, Any], levels: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
        table = self.level_table(t, "bye_spread", "primary = 50")
        out: list[tuple[str, int]] = []
        for level in table or {}:
            if level not in levels:
                known = f"one of {', '.join(levels)}" if levels else "there is no [scoring.caps] table"
                raise self.fail(f"scoring.bye_spread.{level}", f"unknown level {level!r} (the levels are the keys of "
                                                               f"[scoring.caps]: {known})" + _did_you_mean(level, levels))
            out.append((level, self.integer(table, "scoring.bye_spread", level, default=None, minimum=0)))
        return tuple(out)


_FEATURE_KEY = {"increment": "increment", "delay": "delay", "byoyomi": "byoyomi_periods", "hourglass": "hourglass"}


