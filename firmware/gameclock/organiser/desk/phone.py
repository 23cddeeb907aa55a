"""What the public pages show first on a phone (issue 28): the standings' few columns that fit its width,
and the player's card (the rest of a row, opened with a tap on the name).

A standings table on a phone shows place, name, the points and the event's main tie-break (`key_columns`):
the table's classes `sN` name the cells it shows by their position in a row (`shown_cells`), the
stylesheet hides the others on a narrow screen. No mark on each row's cells (the page stays light at 500
players, and works in every browser: a <col>'s `visibility: collapse` does not in all); the columns keep
their order (the exports', the projector's).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# each standings method's points and main tie-break, by the rules that rank them
KEY_COLUMNS: dict[str, tuple[str, ...]] = {
    "crossword": ("GP", "Spread"),        # XW-6 game points, XW-7 spread
    "makruk": ("MP", "H2H"),              # MR-10: match points (MR-9), then head-to-head
    "makruk-team": ("MP", "GP"),          # MR-11: team match points, then game points
    "makhos": ("MP", "GP"),               # MH-7 (1): match and game points
    "sudoku": ("Total",),                 # SU-2, SU-3: the points of the rounds and the time bonus
}


def key_columns(st: Mapping[str, Any]) -> set[int]:
    """The indices of `st["columns"]` (views._table's dict) a phone shows: the method's points and main
    tie-break (KEY_COLUMNS)."""
    columns: Sequence[str] = st["columns"]
    return {columns.index(c) for c in KEY_COLUMNS.get(st["method"], ()) if c in columns}


def shown_cells(st: Mapping[str, Any]) -> list[int]:
    """The positions (1-based, CSS nth-child) of a row's cells a phone shows beyond place and name (the
    template's cells: place, name, the team if any, then the columns): the key columns'."""
    first = 3 + bool(st.get("teams"))
    return sorted(first + i for i in key_columns(st))


def column_order(st: Mapping[str, Any]) -> list[int]:
    """The indices of `st["columns"]` as the card lists them: the key columns first, then the others in
    their own order."""
    keys = sorted(key_columns(st), key=lambda i: KEY_COLUMNS[st["method"]].index(st["columns"][i]))
    return keys + [i for i in range(len(st["columns"])) if i not in keys]


def card(data: Mapping[str, Any], name: str) -> list[dict[str, Any]]:
    """The player's rows of the standings (views.standings' dict: one a table the player is in), each
    {"method", "place", "team", "figures": [(column, value, provisional)] in column_order}: the same
    figures as the standings page shows, taken from the same computation."""
    out = []
    for st in data.get("tables", []):
        row = next((r for r in st["rows"] if r["player"] == name), None)
        if row is None:
            continue
        out.append({"method": st["method"], "place": row["place"], "team": row["team"], "mark": row["mark"],
                    "figures": [(st["columns"][i], row["cells"][i], row["provisional"][i])
                                for i in column_order(st)]})
    return out


def clock(ms: int | None) -> str:
    """A time used as the clock shows it, M:SS (H:MM:SS from an hour); "" for none."""
    if ms is None:
        return ""
    s = max(0, ms) // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
