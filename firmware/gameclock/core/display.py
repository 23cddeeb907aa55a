"""The text the big digits show. Pure: integer nanoseconds in, a string out."""
from __future__ import annotations

NS_PER_S = 1_000_000_000
NS_PER_TENTH = 100_000_000


def format_remaining(remaining_ns: int, tenths_below_ns: int = 0) -> str:
    """`M:SS` (or `H:MM:SS`), floored to the second, so negative time rounds away from zero.

    RULES XW-3 decision: 0.2 s over shows `-0:01`; what the players see is never less than what they
    pay. Below `tenths_below_ns` (and above zero) the display shows seconds and tenths: `9.7`.
    """
    if 0 < remaining_ns < tenths_below_ns:
        tenths = remaining_ns // NS_PER_TENTH
        return f"{tenths // 10}.{tenths % 10}"
    seconds = remaining_ns // NS_PER_S
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{sign}{h}:{m:02d}:{s:02d}"
    return f"{sign}{m}:{s:02d}"
