"""Clock times as the rule files write them: "M:SS", "MM:SS", "H:MM:SS", with an optional fraction of a
second ("0:02.5"). Parsed to integer nanoseconds, exactly (no floats anywhere).

The event-log parser has its own format; this one is for the rule files (and the summaries that show them).
"""
from __future__ import annotations

import re

from gameclock.core.control import NS_PER_S

_FORMS = "write M:SS or H:MM:SS"
MAX_LEADING_DIGITS = 18  # minutes or hours: more is no time of any game (each key has its own maximum)
# Leading field: any number of digits (minutes in M:SS, hours in H:MM:SS); later fields: exactly two digits.
_TIME_RE = re.compile(r"^(\d+):(\d{2})(?::(\d{2}))?(?:\.(\d{1,9}))?$", re.ASCII)


def parse_time(text: str) -> int:
    """Parse "M:SS", "MM:SS" or "H:MM:SS" (optional ".fraction" on the seconds) into nanoseconds.

    Raises ValueError with a one-line message such as
    "bad time '22:75' (seconds must be 00-59; write M:SS or H:MM:SS)".
    """
    if not isinstance(text, str):
        raise ValueError(f"bad time {text!r} (expected a string; {_FORMS})")
    shown = repr(text) if len(text) <= 30 else f"{text[:20]!r}... ({len(text)} characters)"
    s = text.strip()
    if not s:
        raise ValueError(f"bad time {shown} (empty; {_FORMS})")
    if s.startswith("-"):
        raise ValueError(f"bad time {shown} (negative times are not allowed; {_FORMS})")
    m = _TIME_RE.fullmatch(s)
    if m is None:
        raise ValueError(f"bad time {shown} ({_FORMS}, e.g. '22:00', '0:30', '1:30:00')")
    first, second, third, frac = m.groups()
    if len(first) > MAX_LEADING_DIGITS:
        raise ValueError(f"bad time {shown} ({len(first)} digits before the first ':'; {_FORMS})")
    if third is None:  # M:SS
        hours, minutes, seconds = 0, int(first), int(second)
        if seconds > 59:
            raise ValueError(f"bad time {shown} (seconds must be 00-59; {_FORMS})")
    else:  # H:MM:SS
        hours, minutes, seconds = int(first), int(second), int(third)
        if minutes > 59:
            raise ValueError(f"bad time {shown} (minutes must be 00-59 in H:MM:SS; {_FORMS})")
        if seconds > 59:
            raise ValueError(f"bad time {shown} (seconds must be 00-59; {_FORMS})")
    frac_ns = int((frac or "").ljust(9, "0")) if frac else 0
    return ((hours * 60 + minutes) * 60 + seconds) * NS_PER_S + frac_ns


def format_time(ns: int) -> str:
    """The inverse of parse_time for non-negative times: "22:00", "0:03", "1:30:00", "0:02.5".

    parse_time(format_time(ns)) == ns for every ns >= 0.
    """
    if ns < 0:
        raise ValueError(f"format_time: negative time {ns} ns")
    whole_s, frac_ns = divmod(ns, NS_PER_S)
    hours, rest = divmod(whole_s, 3600)
    minutes, seconds = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
    if frac_ns:
        text += "." + f"{frac_ns:09d}".rstrip("0")
    return text


def format_short(ns: int) -> str:
    """Compact form for summaries: whole seconds under a minute as "3s", otherwise format_time."""
    if 0 <= ns < 60 * NS_PER_S and ns % NS_PER_S == 0:
        return f"{ns // NS_PER_S}s"
    return format_time(ns)
