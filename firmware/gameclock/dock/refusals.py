"""Counting every refusal, logging a few: a hostile peer cannot flood the log (journald on the clock's SD
card, the organiser's terminal) however fast it sends bad lines.

    refusals = Refusals(log, "dock /dev/ttyACM0")
    refusals.add("bad-crc", "b'{\\"t\\":...'", who=" from LEGIT1-000060")   # counted; logged if within budget
    refusals["bad-crc"]                                                     # 1: a dict of reason -> count

Each endpoint logs at most `BURST` refusals per `WINDOW_S` in full (`dock X: refused ...: REASON (detail)`);
past that it only counts, and the first refusal after the window ends logs one line naming what was
kept quiet (`dock X: 18,412 more refusals in 60 s not logged: bad-crc 18,000, no-crc 412`). Every
refusal is counted, whether logged or not: the receiver's summary and the fuzz tests read the counts.

`RateLog` is that budget for any line a peer can cause as fast as it sends, refusals or not (the clock's
end logs what a frame without a key says with one: the PC's `error`, an `enroll` asked, a `welcome`;
issue 24 B5). Every argument of a line it logs is made printable first (`logtext.printable`: a peer's
control characters escaped, so an escape sequence or a CR cannot rewrite the log's terminal or forge a
line).
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable

from gameclock.logtext import printable

BURST = 20          # refusals logged in full per window
WINDOW_S = 60.0     # seconds


class Budget:
    """At most `n` of something per `window_s` (log lines, rows written); `spent()` counts the rest.

        budget = Budget(20, 60.0)
        if budget.take(): log.warning(...)       # else it is counted in budget.over
    """

    def __init__(self, n: int, window_s: float, clock: Callable[[], float] = time.monotonic):
        self.n, self.window_s, self.clock = n, window_s, clock
        self._start = -window_s
        self._used = 0
        self.over = 0          # taken past the budget in this window (reset by `new_window`)
        self.missed = 0        # past the budget in closed windows, until `pop_missed`

    def take(self) -> bool:
        """True if one more fits in this window."""
        now = self.clock()
        if now - self._start >= self.window_s:
            self.new_window(now)
        if self._used < self.n:
            self._used += 1
            return True
        self.over += 1
        return False

    def new_window(self, now: float) -> None:
        self.missed += self.over
        self._start, self._used, self.over = now, 0, 0

    def pop_missed(self) -> int:
        """How many went past the budget in the windows closed since the last call."""
        n, self.missed = self.missed, 0
        return n


class RateLog:
    """Lines logged in full at most `burst` per `window_s`; past that only counted by `kind`, and the
    first line after the window (or `flush`, when the port closes) sums them up in one line:
    `WHERE: 9,980 more WHAT in 60 s not logged: error 9,980`.

        said = RateLog(log, "dock", "messages from the PC")
        said.line("error", logging.ERROR, "dock: the PC says %s: %s", code, text)   # True if logged
    """

    def __init__(self, log: logging.Logger, where: str, what: str, burst: int = BURST, window_s: float = WINDOW_S,
                 clock: Callable[[], float] = time.monotonic):
        self.log, self.where, self.what = log, where, what
        self.burst, self.window_s, self.clock = burst, window_s, clock
        self._window_start = -window_s
        self._logged = 0
        self._quiet: dict[str, int] = {}   # kind -> lines not logged in this window

    def line(self, kind: str, level: int, msg: str, *args: object) -> bool:
        """Log `msg % args` (each str argument made printable) unless this window's budget is spent."""
        now = self.clock()
        if now - self._window_start >= self.window_s:
            self.flush()
            self._window_start, self._logged = now, 0
        if self._logged < self.burst:
            self._logged += 1
            self.log.log(level, msg, *(printable(a) if isinstance(a, str) else a for a in args))
            return True
        self._quiet[kind] = self._quiet.get(kind, 0) + 1
        return False

    def flush(self) -> None:
        """Log the line naming what was kept quiet (if anything); called when a window ends or the port closes."""
        if self._quiet:
            n = sum(self._quiet.values())
            what = ", ".join(f"{k} {c:,}" for k, c in sorted(self._quiet.items(), key=lambda kc: -kc[1]))
            self.log.warning("%s: %s more %s in %g s not logged: %s", self.where, f"{n:,}", self.what,
                             self.window_s, printable(what))
            self._quiet = {}


class Refusals(dict[str, int]):
    """Refusal counts by reason (a dict), and the rate-limited log of them."""

    def __init__(self, log: logging.Logger, where: str, burst: int = BURST, window_s: float = WINDOW_S,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.lines = RateLog(log, where, "refusals", burst, window_s, clock)

    def add(self, reason: str, detail: str = "", who: str = "", level: int = logging.WARNING) -> None:
        """Count one refusal of `reason`; log it (at `level`) unless this window's budget is spent."""
        self[reason] = self.get(reason, 0) + 1
        self.lines.line(reason, level, "%s: refused%s: %s%s", self.lines.where, who, reason,
                        f" ({detail})" if detail else "")

    def flush(self) -> None:
        """Log the line naming the refusals kept quiet (if any); called when a window ends or the port closes."""
        self.lines.flush()
