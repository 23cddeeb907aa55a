"""A standings table and its three printed forms (table, CSV, JSON).

Every event family's module (crossword.py, makruk.py, makhos.py, sudoku.py) builds `Row`s with the
values its rules rank by, then calls `rank_rows` with the sort key: players whose keys are equal
share a place (MR-10's "then a shared place"; in the other families equal keys after every
tie-break are shared too, and the table says so with "=").

A value that may still change (XW-11's medal before the player's six qualifying games are played) is
in its row's `provisional` columns: the table and the CSV show it as "gold (provisional)", the JSON
keeps the value and lists the columns under "provisional", the desk marks the cell.
"""
from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gameclock.organiser.csvcells import csv_header, csv_line


@dataclass
class Row:
    player: str
    values: dict[str, Any] = field(default_factory=dict)  # column -> value (int, str or None)
    rank: int = 0
    shared: bool = False                         # another row has the same rank
    team: str | None = None
    provisional: set[str] = field(default_factory=set)  # columns whose value may still change (module doc)

    @property
    def place(self) -> str:
        """"3", or "=3" for a shared place."""
        return f"={self.rank}" if self.shared else str(self.rank)


@dataclass
class Standings:
    event: str | None
    method: str                          # crossword, makruk, makruk-team, makhos, sudoku
    rules: list[str]                     # the rule IDs this table applies, e.g. ["XW-6", "XW-7"]
    columns: list[str]                   # value columns, after Place and Player
    rows: list[Row]
    notes: list[str] = field(default_factory=list)  # what the organiser must know (XW-11's open case)
    # column -> how format_table shows its values (e.g. ms as M:SS); CSV and JSON keep the values as they are
    formats: dict[str, Callable[[Any], str]] = field(default_factory=dict)

    def row(self, player: str) -> Row:
        return next(r for r in self.rows if r.player == player)


def rank_rows(rows: Sequence[Row], key: Callable[[Row], tuple[Any, ...]]) -> list[Row]:
    """Rows best first by `key` (larger is better: negate what ranks by less, e.g. time used), with
    ranks 1, 2, 2, 4 ...: equal keys share a place. Ties keep the players' name order for printing."""
    ordered = sorted(rows, key=lambda r: r.player)
    ordered.sort(key=key, reverse=True)
    out: list[Row] = []
    for i, row in enumerate(ordered):
        if i and key(row) == key(ordered[i - 1]):
            row.rank = out[-1].rank
            row.shared = out[-1].shared = True
        else:
            row.rank, row.shared = i + 1, False
        out.append(row)
    return out


def _cell(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


PROVISIONAL = "provisional"


def marked(text: str, r: Row, column: str) -> str:
    """A cell's text with "(provisional)" after it when its value may still change."""
    return f"{text} ({PROVISIONAL})" if text and column in r.provisional else text


def format_table(st: Standings) -> str:
    head = ["Place", "Player"] + (["Team"] if any(r.team for r in st.rows) else []) + st.columns
    body = [[r.place, r.player] + ([r.team or ""] if "Team" in head else [])
            + [marked(st.formats.get(c, _cell)(r.values.get(c)), r, c) for c in st.columns] for r in st.rows]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body, strict=True)]
    lines = [f"{st.event or '-'}: {st.method} standings ({', '.join(st.rules)})"]
    for cells in [head] + body:
        lines.append("  ".join(c.rjust(w) if i != 1 else c.ljust(w)
                               for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip())
    lines += [f"note: {n}" for n in st.notes]
    return "\n".join(lines) + "\n"


def format_csv(st: Standings) -> str:
    """The table for spreadsheets: numbers as they are, text quoted, a text a spreadsheet would run as
    a formula with a single quote first (a name `=HYPERLINK(...)`, a shared place `=3`: csvcells.py)."""
    out = io.StringIO()
    out.write(csv_header(["event", "place", "player", "team"] + st.columns))
    for r in st.rows:
        out.write(csv_line([st.event or "", r.place, r.player, r.team or ""]
                           + [marked(_cell(r.values.get(c)), r, c) for c in st.columns]))
    return out.getvalue()


def as_dict(st: Standings) -> dict[str, Any]:
    return {"event": st.event, "method": st.method, "rules": st.rules, "columns": st.columns,
            "rows": [{"rank": r.rank, "shared": r.shared, "place": r.place, "player": r.player,
                      "team": r.team, **{c: r.values.get(c) for c in st.columns},
                      **({PROVISIONAL: sorted(r.provisional)} if r.provisional else {})} for r in st.rows],
            "notes": st.notes}


def format_json(st: Standings) -> str:
    return json.dumps(as_dict(st), ensure_ascii=False, indent=1) + "\n"
