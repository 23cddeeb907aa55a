"""A round's pairings for the clocks: read from a CSV or a tsh `.t` file (issue 6, "pairing push").

    load_pairings(path, event=None, round=None) -> Pairings   # a list of pairing dicts, plus .byes
    check_pairing(obj) -> dict                                 # one pairing as the clock accepts it

A pairing is what the PC sends a docked clock (PROTOCOL.md, `pairing`) and what the clock keeps in
its settings: {"event": str | None, "round": int, "table": int, "players": {"left": str, "right": str}}.
Every problem is a `PairingError` (a ValueError) with one line naming the file, the line and what is
wrong, e.g. `round3.csv:7: table 4 given twice in round 3 (line 5 has it)`.

CSV: a header row, then one row per table. Columns (case-insensitive, any order): `round`, `table`,
the players as `left,right` or `player1,player2` or `first,second`, optionally `event` (or
`division`); other columns (scores, ...) are ignored. `round`/`event` given here fill a missing
column or, when the file has the column, pick those rows only. A row with one player empty or
`bye` is a bye (no table). Commas, semicolons or tabs separate the values.

tsh (`.t`, DESIGN.md §6): one player per line, `NAME RATING OPP1 OPP2 ...; SCORE1 ...[; key values]`,
read with tsh's own pattern. Player ids count the player lines from 1 (blank lines and `#` comments
are not players); opponent 0 is a bye. The round (default: the one that has pairings but no scores
yet -- every player with more opponents than scores must agree on it) pairs each player with their
opponent of that round. The table is the `board` field's value for the round when the file has one,
else tables are numbered 1, 2, ... in the order of each pair's lower player id. Left is the player
who goes first (`p12` 1), else the lower id. Names are kept as written ("Surname, Given").

Both: UTF-8 (with or without a BOM), else windows-874 (tsh's Thai profile, Thai Excel). Blank lines
and lines starting with `#` are skipped. A table given twice in a round, or a player at two tables,
is an error. Names and the event must not hold `#` or control characters, and the event is one word:
the clock's game log keeps them on its header lines (`event ID`, `player left NAME`).
"""
from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from gameclock.dataerrors import display_path
from gameclock.dock.pairing import PairingError as PairingError  # this module's API too
from gameclock.dock.pairing import check_pairing as check_pairing  # this module's API too
from gameclock.dock.pairing import clean_event, clean_name, whole_number

# tsh's own reading pattern (DESIGN.md §6): name, rating, opponents; scores; extra fields
TSH_LINE = re.compile(r"^(.+?\S)\s+(\d+(?:[.+]\d+)*)\s*([\d\s]*);\s*([-\d\s]*)((?:;[^;]*)*)$")
PLAYER_COLUMNS = (("left", "right"), ("player1", "player2"), ("first", "second"))
EVENT_COLUMNS = ("event", "division")
BYE_WORDS = ("", "bye")
ENCODINGS = (("utf-8-sig", "UTF-8"), ("cp874", "windows-874"))


class Players(TypedDict):
    left: str
    right: str


class Pairing(TypedDict):
    """One table of a round, as the PC pushes it to the clock there."""
    event: str | None
    round: int
    table: int
    players: Players


class Bye(TypedDict):
    """A player without an opponent this round (`line`: where the file says so)."""
    event: str | None
    round: int
    player: str
    line: int


class Pairings(list[Pairing]):
    """The pairing dicts of a file, in table order (by event, round, table), and what else it said:
    `byes` ({"event", "round", "player", "line"}: players without an opponent this round)."""

    def __init__(self, items: Iterable[Pairing] = (), byes: Iterable[Bye] = ()):
        super().__init__(items)
        self.byes: list[Bye] = list(byes)


@dataclass
class _Row:
    """One pairing read from a file, before the checks across rows."""
    line: int
    event: str | None
    round: int
    table: int | None
    left: str
    right: str


# ------------------------------------------------------------------------------------------ checks
# ------------------------------------------------------------------------------------------ reading
def read_text(path: str | os.PathLike[str]) -> str:
    """The file's text: UTF-8 (a BOM dropped), else windows-874."""
    shown = display_path(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise PairingError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    first_error = None
    for codec, _ in ENCODINGS:
        try:
            return data.decode(codec)
        except UnicodeDecodeError as exc:
            first_error = first_error or exc
    assert first_error is not None, "ENCODINGS is not empty: every codec failed"
    line = data[:first_error.start].count(b"\n") + 1
    raise PairingError(f"{shown}:{line}: neither UTF-8 nor windows-874 (Thai): byte "
                       f"0x{data[first_error.start]:02x}; save the file as UTF-8") from None


def load_pairings(path: str | os.PathLike[str], event: str | None = None,
                  round: int | None = None) -> Pairings:
    """The pairings in a CSV or tsh `.t` file (see the module doc), sorted by event, round, table.
    `event`/`round` fill what the file does not say, or pick those rows where it does."""
    shown = display_path(path)
    event = clean_event(event, f"{shown}: ")
    if round is not None:
        round = whole_number(round, "round", f"{shown}: ")
    text = read_text(path)
    if _is_tsh(path, text):
        rows, byes = _read_tsh(text, shown, event, round)
    else:
        rows, byes = _read_csv(text, shown, event, round)
    out = _checked(rows, shown)
    return Pairings(out, byes)


def _is_tsh(path: str | os.PathLike[str], text: str) -> bool:
    suffix = Path(path).suffix.lower()
    if suffix == ".t":
        return True
    if suffix in (".csv", ".tsv", ".txt"):
        return False
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
    return TSH_LINE.match(first.strip()) is not None


def _checked(rows: list[_Row], shown: str) -> list[Pairing]:
    """Across rows: a table once per round, a player at one table per round."""
    tables: dict[tuple[str | None, int, int | None], int] = {}
    seats: dict[tuple[str | None, int, str], int] = {}
    out: list[Pairing] = []
    for r in rows:
        key = (r.event, r.round, r.table)
        if key in tables:
            raise PairingError(f"{shown}:{r.line}: table {r.table} given twice in round {r.round}"
                               f"{_in(r.event)} (line {tables[key]} has it)")
        tables[key] = r.line
        for name in (r.left, r.right):
            seat = (r.event, r.round, name.casefold())
            if seat in seats:
                raise PairingError(f"{shown}:{r.line}: {name} plays twice in round {r.round}"
                                   f"{_in(r.event)} (also at line {seats[seat]})")
            seats[seat] = r.line
        if r.table is None:  # cannot happen: both readers give every pair its table
            raise PairingError(f"{shown}:{r.line}: no table for {r.left} v {r.right}")
        out.append({"event": r.event, "round": r.round, "table": r.table,
                    "players": {"left": r.left, "right": r.right}})
    return sorted(out, key=lambda p: (p["event"] or "", p["round"], p["table"]))


def _in(event: str | None) -> str:
    return f" of {event}" if event else ""


# ------------------------------------------------------------------------------------------ CSV
def _read_csv(text: str, shown: str, event: str | None,
              round: int | None) -> tuple[list[_Row], list[Bye]]:
    lines = text.splitlines()
    content = [(i, ln) for i, ln in enumerate(lines, start=1)
               if ln.strip() and not ln.lstrip().startswith("#")]
    if not content:
        raise PairingError(f"{shown}: no header row (round, table, left, right) and no pairings")
    head_line, head = content[0]
    delimiter = next((d for d in (",", ";", "\t") if d in head), ",")
    keep = {i for i, _ in content}  # comment lines become blank: line numbers stay the file's
    reader = csv.reader(io.StringIO("\n".join(ln if i in keep else "" for i, ln in enumerate(lines, start=1))),
                        delimiter=delimiter)
    header: list[str] | None = None
    cols: dict[str, int] = {}
    rows: list[_Row] = []
    byes: list[Bye] = []
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if header is None:
            header = [c.strip().lower() for c in cells]
            cols = _columns(header, shown, line, event, round)
            continue
        where = f"{shown}:{line}: "

        def cell(name: str, cols: dict[str, int] = cols, cells: list[str] = cells) -> str:
            i = cols.get(name)
            return cells[i].strip() if i is not None and i < len(cells) else ""

        row_event = clean_event(cell("event"), where) if "event" in cols else event
        if "event" in cols and event is not None and row_event != event:
            continue
        row_round = whole_number(cell("round"), "round", where) if "round" in cols else round
        if "round" in cols and round is not None and row_round != round:
            continue
        assert row_round is not None, "_columns wants --round for a file without a round column"
        left, right = cell("left"), cell("right")
        names = [clean_name(n, where) if n.lower() not in BYE_WORDS else "" for n in (left, right)]
        if not any(names):
            raise PairingError(f"{where}no players (columns {header[cols['left']]}, {header[cols['right']]})")
        if not all(names):
            byes.append({"event": row_event, "round": row_round, "player": names[0] or names[1],
                         "line": line})
            continue
        table = whole_number(cell("table"), "table", where)
        rows.append(_Row(line, row_event, row_round, table, names[0], names[1]))
    if header is None:
        raise PairingError(f"{shown}:{head_line}: no header row")
    if not rows and not byes:
        picked = " and ".join(x for x in (f"round {round}" if round is not None and "round" in cols else "",
                                          f"event {event}" if event is not None and "event" in cols else "")
                              if x)
        raise PairingError(f"{shown}: no pairings" + (f" for {picked}" if picked else ""))
    return rows, byes


def _columns(header: list[str], shown: str, line: int, event: str | None,
             round: int | None) -> dict[str, int]:
    where = f"{shown}:{line}: "
    seen: dict[str, int] = {}
    for i, name in enumerate(header):
        if name and name in seen:
            raise PairingError(f"{where}column {name!r} given twice")
        seen[name] = i
    cols: dict[str, int] = {}
    for a, b in PLAYER_COLUMNS:
        if a in seen and b in seen:
            cols["left"], cols["right"] = seen[a], seen[b]
            break
    else:
        raise PairingError(f"{where}no player columns: the header needs left,right (or player1,player2 "
                           f"or first,second); it has {', '.join(h for h in header if h) or 'nothing'}")
    if "table" not in seen:
        raise PairingError(f"{where}no 'table' column")
    cols["table"] = seen["table"]
    if "round" in seen:
        cols["round"] = seen["round"]
    elif round is None:
        raise PairingError(f"{where}no 'round' column: give the round (--round N)")
    ev = [seen[e] for e in EVENT_COLUMNS if e in seen]
    if len(ev) > 1:
        raise PairingError(f"{where}both 'event' and 'division' columns: keep one")
    if ev:
        cols["event"] = ev[0]
    return cols


# ------------------------------------------------------------------------------------------ tsh
@dataclass
class _Player:
    id: int
    line: int
    name: str
    opps: list[int]
    scores: list[int]
    extra: dict[str, list[str]]

    def value(self, key: str, rnd: int, shown: str) -> int | None:
        """This player's `key` field (p12, board) for round `rnd` (1-based); None if not given."""
        values = self.extra.get(key)
        if values is None or len(values) < rnd:
            return None
        v = values[rnd - 1]
        if not re.fullmatch(r"\d+", v):
            raise PairingError(f"{shown}:{self.line}: {key} value {v!r} for round {rnd} is not a whole number")
        return int(v)


def _read_tsh_players(text: str, shown: str) -> list[_Player]:
    players: list[_Player] = []
    for line, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        m = TSH_LINE.match(body)
        if not m:
            raise PairingError(f"{shown}:{line}: not a tsh player line (NAME RATING OPPONENTS; SCORES"
                               f"[; key values]): {body[:40]!r}")
        name, _rating, opps, scores, extras = m.groups()
        extra: dict[str, list[str]] = {}
        for chunk in extras.split(";")[1:]:
            words = chunk.split()
            if words:
                extra[words[0]] = words[1:]
        players.append(_Player(len(players) + 1, line, clean_name(name, f"{shown}:{line}: "),
                               [int(x) for x in opps.split()], [int(x) for x in scores.split()], extra))
    if not players:
        raise PairingError(f"{shown}: no players")
    return players


def _default_round(players: list[_Player], shown: str) -> int:
    """The round that has pairings but no scores yet, the same for every player that has one."""
    waiting: dict[int, _Player] = {}
    for p in players:
        if len(p.opps) > len(p.scores):
            waiting.setdefault(len(p.scores) + 1, p)
    if not waiting:
        last = max(len(p.opps) for p in players)
        raise PairingError(f"{shown}: no round waiting to be played (every pairing has its score"
                           + (f"; the last round paired is {last}" if last else "; nobody is paired yet")
                           + "): give the round (--round N)")
    if len(waiting) > 1:
        rounds = sorted(waiting)
        examples = ", ".join(f"round {r} (line {waiting[r].line}, {waiting[r].name})" for r in rounds)
        raise PairingError(f"{shown}: more than one round is paired without scores: {examples}: "
                           f"give the round (--round N)")
    return next(iter(waiting))


def _read_tsh(text: str, shown: str, event: str | None,
              round: int | None) -> tuple[list[_Row], list[Bye]]:
    players = _read_tsh_players(text, shown)
    rnd = round if round is not None else _default_round(players, shown)
    by_id = {p.id: p for p in players}
    paired = [p for p in players if len(p.opps) >= rnd]
    if not paired:
        raise PairingError(f"{shown}: nobody is paired in round {rnd}")
    for p in players:
        if len(p.opps) < rnd:
            raise PairingError(f"{shown}:{p.line}: {p.name} has no opponent in round {rnd} "
                               f"(line {paired[0].line} has one)")
    with_board = [p for p in players if p.value("board", rnd, shown) is not None]
    rows: list[_Row] = []
    byes: list[Bye] = []
    for p in players:
        o = p.opps[rnd - 1]
        where = f"{shown}:{p.line}: "
        if o == 0:
            byes.append({"event": event, "round": rnd, "player": p.name, "line": p.line})
            continue
        q = by_id.get(o)
        if q is None:
            raise PairingError(f"{where}{p.name}'s opponent in round {rnd} is player {o}, but the file "
                               f"has {len(players)} players")
        if q.id == p.id:
            raise PairingError(f"{where}{p.name} is paired with themself in round {rnd}")
        if q.opps[rnd - 1] != p.id:
            raise PairingError(f"{where}{p.name} (player {p.id}) plays player {q.id} in round {rnd}, but "
                               f"line {q.line} pairs {q.name} with player {q.opps[rnd - 1]}")
        if q.id < p.id:
            continue  # the pair is made from its lower id
        rows.append(_tsh_pair(p, q, rnd, event, shown, bool(with_board)))
    if with_board:
        missing = next((p for p in players if p.opps[rnd - 1] and p.value("board", rnd, shown) is None), None)
        if missing is not None:
            raise PairingError(f"{shown}:{missing.line}: {missing.name} has no board for round {rnd} "
                               f"(line {with_board[0].line} has one)")
    else:
        for n, r in enumerate(rows, start=1):
            r.table = n
    return rows, byes


def _tsh_pair(p: _Player, q: _Player, rnd: int, event: str | None, shown: str, boards: bool) -> _Row:
    """The pair of players p (lower id) and q in round rnd: table from `board`, left = first."""
    table = None
    if boards:
        bp, bq = p.value("board", rnd, shown), q.value("board", rnd, shown)
        if bp is not None and bq is not None and bp != bq:
            raise PairingError(f"{shown}:{q.line}: {q.name} is at board {bq} in round {rnd}, but their "
                               f"opponent {p.name} (line {p.line}) is at board {bp}")
        table = bp if bp is not None else bq
        if table == 0:
            raise PairingError(f"{shown}:{p.line}: board 0 for a game in round {rnd}")
    fp, fq = p.value("p12", rnd, shown), q.value("p12", rnd, shown)
    if (fp, fq) in ((1, 1), (2, 2)):
        raise PairingError(f"{shown}:{q.line}: {p.name} (line {p.line}) and {q.name} both go "
                           f"{'first' if fp == 1 else 'second'} in round {rnd} (p12 {fp})")
    if fp == 1 or fq == 2:
        left, right = p, q
    elif fq == 1 or fp == 2:
        left, right = q, p
    else:
        left, right = p, q
    return _Row(p.line, event, rnd, table, left.name, right.name)
