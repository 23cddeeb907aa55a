"""The buzzer's patterns: pure data, one per kind of warning (CL-4), told apart by rhythm alone.

A pattern is a list of durations in ms, sound first: `(on, off, on, ...)`, always ending on a sound.
Rhythm alone tells them apart, so the same patterns work on an active buzzer (one fixed pitch) and a
passive piezo (driven at the wiring's `frequency_hz`). `priority` settles overlaps: a more urgent
pattern cuts a less urgent one short (a flag fall during a low-time warning), a less or equally
urgent one waits for the playing one to end (gameclock.device.buzzer plays them).

| pattern       | sounds like                       | for (core alert kind)                                  |
|---------------|-----------------------------------|--------------------------------------------------------|
| docked        | two tiny chirps                   | `docked`: the clock is on the organiser's cable        |
| upload-done   | three tiny chirps                 | `upload-done`: every result is on the organiser's PC   |
| byoyomi       | one short                         | `byoyomi`: a byo-yomi period begins                    |
| low-time      | two short                         | `low-time`: a side's time fell to a warning threshold  |
| cut-warning   | two medium                        | `cut-warning` (XW-5: 10 and 5 minutes left)            |
| announce-30s  | one long                          | `announce` with more than 10 s left (MH-2: 30 s left)  |
| announce-10s  | two long                          | `announce` with 10 s or less left (MH-2: 10 s left)    |
| arbiter-call  | two short, then long              | `arbiter-call` (MR-13: a side has 5:00 left)           |
| count-limit   | three medium                      | `count-limit` (MR-4, MR-6, MH-6: the count's limit)    |
| cut           | long, short, long                 | `cut` (XW-5: the game's time is up, extra turns begin) |
| flag          | four fast, then long              | `flag`, `overtime` (XW-3: time is up, below zero now), |
|               |                                   | `move-now` (MH-2 `call`: the move's time is up)        |
| game-over     | medium, medium, very long         | `round-over`, `game-over`                              |
| other         | one medium                        | any other kind                                         |
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pattern:
    name: str
    priority: int          # higher is more urgent
    steps_ms: tuple[int, ...]  # on, off, on, ... (odd length: starts and ends with a sound)

    def __post_init__(self) -> None:
        assert len(self.steps_ms) % 2 == 1 and all(ms > 0 for ms in self.steps_ms), self

    @property
    def duration_ms(self) -> int:
        return sum(self.steps_ms)

    @property
    def beeps(self) -> int:
        return (len(self.steps_ms) + 1) // 2


PATTERNS: dict[str, Pattern] = {p.name: p for p in (
    Pattern("docked", 0, (50, 70, 50)),
    Pattern("upload-done", 0, (50, 70, 50, 70, 50)),
    Pattern("byoyomi", 1, (150,)),
    Pattern("other", 1, (300,)),
    Pattern("low-time", 2, (120, 120, 120)),
    Pattern("cut-warning", 2, (300, 150, 300)),
    Pattern("announce-30s", 3, (700,)),
    Pattern("announce-10s", 3, (700, 200, 700)),
    Pattern("arbiter-call", 3, (150, 100, 150, 100, 900)),
    Pattern("count-limit", 4, (300, 150, 300, 150, 300)),
    Pattern("cut", 4, (700, 150, 150, 150, 700)),
    Pattern("flag", 5, (80, 60, 80, 60, 80, 60, 80, 60, 1200)),
    Pattern("game-over", 5, (300, 150, 300, 150, 1500)),
)}

# alert kind -> pattern name (announce is decided by the time left)
KIND_PATTERN: dict[str, str] = {
    "docked": "docked",
    "upload-done": "upload-done",
    "byoyomi": "byoyomi",
    "low-time": "low-time",
    "cut-warning": "cut-warning",
    "count-limit": "count-limit",
    "arbiter-call": "arbiter-call",
    "move-now": "flag",
    "cut": "cut",
    "flag": "flag",
    "overtime": "flag",
    "round-over": "game-over",
    "game-over": "game-over",
}
LAST_ANNOUNCE_MS = 10_000  # MH-2: the announcement at 10 s left has its own pattern


def pattern_for(alert: Mapping[str, Any]) -> Pattern:
    """The pattern for a core alert dict ({"kind", "side", "remaining_ms", ...})."""
    kind = alert.get("kind")
    if kind == "announce":
        remaining = alert.get("remaining_ms")
        late = remaining is not None and remaining <= LAST_ANNOUNCE_MS
        return PATTERNS["announce-10s" if late else "announce-30s"]
    return PATTERNS[KIND_PATTERN.get(kind, "other") if isinstance(kind, str) else "other"]
