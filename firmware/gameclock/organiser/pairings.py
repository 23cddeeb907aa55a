"""A round's pairings for the clocks: read from a CSV or a tsh `.t` file (issue 6, "pairing push").

    load_pairings(path, event=None, round=None, setup=None) -> Pairings   # pairing dicts, plus .byes
    check_pairing(obj) -> dict                                 # one pairing as the clock accepts it

A pairing is what the PC sends a docked clock (PROTOCOL.md, `pairing`) and what the clock keeps in
its settings: {"event": str | None, "round": int, "table": int, "players": {"left": str, "right": str},
and "level", "stage", "language", "preset": str} -- the last four the event's set-up (issue 15), each
only when the file gives it (else the clock keeps its own setting).
Every problem is a `PairingError` (a ValueError) with one line naming the file, the line and what is
wrong, e.g. `round3.csv:7: table 4 given twice in round 3 (line 5 has it)`.

CSV: a header row, then one row per table. Columns (case-insensitive, any order): `round`, `table`,
the players as `left,right` or `player1,player2` or `first,second`, optionally `event` (or
`division`), and the event's set-up, each optional: `level` (primary, secondary: XW-8's caps),
`stage` (qualifying, last, final: XW-8), `language` (en, th: the clock's words) and `preset` (the id
of the clock's preset for the game, e.g. crossword); other columns (scores, ...) are ignored and
named in `Pairings.ignored`. A set-up value is checked on its line (`round3.csv:4: level 'tertiary'
is not one of primary, secondary`); an empty one is not given. `setup` (the command's --level,
--stage, --language, --preset) fills a set-up column the file does not have, or a value left empty. `round`/`event`
given here fill a missing column or, when the file has the column, pick those rows only. A row with
one player empty or `bye` is a bye (no table). Commas, semicolons or tabs separate the values (the
header's first). Read with the csv module, strictly, one row per line: a quote that does not close on
its line is an error naming the line and the value (before, it swallowed the later rows into one
"bye"), and so is a row with more values than the header (an unquoted comma in a name) or without a
value for a column it needs. A value that the exports' CSV wrote with a single quote before it (a
name a spreadsheet would run as a formula, `'=...`: organiser/csvcells.py) is read without it.

tsh (`.t`, DESIGN.md §6): one player per line, `NAME RATING OPP1 OPP2 ...; SCORE1 ...[; key values]`,
read with tsh's own pattern. Player ids count the player lines from 1 (blank lines and `#` comments
are not players); opponent 0 is a bye. The round (default: the one that has pairings but no scores
yet -- every player with more opponents than scores must agree on it) pairs each player with their
opponent of that round. The table is the `board` field's value for the round when the file has one,
else tables are numbered 1, 2, ... in the order of each pair's lower player id. Left is the player
who goes first (`p12` 1), else the lower id. Names are kept as written ("Surname, Given"). A tsh file
has no set-up: `setup` (the command's options) gives it to every table.

Both: UTF-8 (with or without a BOM), else windows-874 (tsh's Thai profile, Thai Excel) but only when the
text is really Thai (`organiser/textfile.py`; `Pairings.encoding` says which); any other file is
refused ("save the file as UTF-8"), never guessed. A regular file of at most MAX_FILE_BYTES. Blank lines
and lines starting with `#` are skipped. Rounds are 1-99 and tables 1-999, as the clock's menu takes
them. A table given twice in a round, or a player at two tables, is an error. Names and the event must not hold `#` or control characters, and the event is one word:
the clock's game log keeps them on its header lines (`event ID`, `player left NAME`).
"""
from __future__ import annotations

import csv
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NotRequired, TypedDict

from gameclock.dataerrors import display_path, printable
from gameclock.dock.pairing import MAX_ROUND, MAX_TABLE, SETUP_KEYS, clean_event, clean_name, clean_setup, whole_number
from gameclock.dock.pairing import PairingError as PairingError  # this module's API too
from gameclock.dock.pairing import check_pairing as check_pairing  # this module's API too
from gameclock.organiser import textfile
from gameclock.organiser.csvcells import plain_cell
from gameclock.organiser.said import words

# tsh's own reading pattern (DESIGN.md §6): NAME RATING OPPONENTS; SCORES[; key values]. Read word by
# word (`_tsh_fields`) with the same result as tsh's regex, in linear time: the regex backtracks, a
# 40 kB line took 14 s.
TSH_RATING = re.compile(r"\d+(?:[.+]\d+)*")
TSH_NUMBER = re.compile(r"\d+")
TSH_SCORE = re.compile(r"-?\d+")
TSH_SCORES = re.compile(r"[-\d\s]*")
TSH_USED = ("p12", "board")  # the `; key values` fields read here (who goes first, the table)
MAX_DIGITS = 9  # an opponent, a score, a board, a p12 value: more digits is no number of a tournament
PLAYER_COLUMNS = (("left", "right"), ("player1", "player2"), ("first", "second"))
EVENT_COLUMNS = ("event", "division")
BYE_WORDS = ("", "bye")
MAX_FILE_BYTES = 1024 * 1024  # 1,000 players' tsh lines are 200 kB


class Players(TypedDict):
    left: str
    right: str


class Pairing(TypedDict):
    """One table of a round, as the PC pushes it to the clock there, with the event's set-up (each key
    only when given)."""
    event: str | None
    round: int
    table: int
    players: Players
    level: NotRequired[str]
    stage: NotRequired[str]
    language: NotRequired[str]
    preset: NotRequired[str]


class Bye(TypedDict):
    """A player without an opponent this round (`line`: where the file says so)."""
    event: str | None
    round: int
    player: str
    line: int


class Pairings(list[Pairing]):
    """The pairing dicts of a file, in table order (by event, round, table), and what else it said:
    `byes` ({"event", "round", "player", "line"}: players without an opponent this round), `encoding`
    ("UTF-8" or "windows-874": how the file was read), `ignored` (what the file holds that was not used,
    e.g. "ignored column(s) score1, score2": one line each, for the organiser to see)."""

    def __init__(self, items: Iterable[Pairing] = (), byes: Iterable[Bye] = (), *, encoding: str = textfile.UTF8,
                 ignored: Iterable[str] = ()):
        super().__init__(items)
        self.byes: list[Bye] = list(byes)
        self.encoding = encoding
        self.ignored: list[str] = list(ignored)


@dataclass
class _Row:
    """One pairing read from a file, before the checks across rows."""
    line: int
    event: str | None
    round: int
    table: int | None
    left: str
    right: str
    setup: dict[str, str | None]  # SETUP_KEYS -> value or None


# ------------------------------------------------------------------------------------------ checks
# ------------------------------------------------------------------------------------------ reading
def read_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    """The file's text and its encoding: UTF-8 (a BOM dropped), else windows-874 when it is Thai text
    (`organiser/textfile.py`); a regular file of at most MAX_FILE_BYTES. PairingError otherwise."""
    return textfile.read_text(path, max_bytes=MAX_FILE_BYTES, error=PairingError)


def load_pairings(path: str | os.PathLike[str], event: str | None = None,
                  round: int | None = None, setup: dict[str, str | None] | None = None) -> Pairings:
    """The pairings in a CSV or tsh `.t` file (see the module doc), sorted by event, round, table.
    `event`/`round` fill what the file does not say, or pick those rows where it does; `setup`
    ({"level": ..., "preset": ...}: the event's set-up, checked) fills a set-up value the file does
    not give."""
    shown = printable(display_path(path))
    event = clean_event(event, f"{shown}: ")
    if round is not None:
        round = whole_number(round, "round", f"{shown}: ", maximum=MAX_ROUND)
    unknown = sorted(set(setup or {}) - set(SETUP_KEYS))
    if unknown:
        raise PairingError(f"{shown}: unknown set-up {', '.join(unknown)}")
    defaults = {k: clean_setup(k, (setup or {}).get(k), f"{shown}: --{k}: ") for k in SETUP_KEYS}
    text, encoding = read_text(path)
    ignored: list[str] = []
    if _is_tsh(path, text):
        rows, byes = _read_tsh(text, shown, event, round, ignored)
    else:
        rows, byes = _read_csv(text, shown, event, round, ignored)
    for r in rows:
        r.setup = {k: r.setup.get(k) or defaults[k] for k in SETUP_KEYS}
    out = _checked(rows, shown)
    return Pairings(out, byes, encoding=encoding, ignored=ignored)


def _lines(text: str) -> Iterable[tuple[int, str]]:
    """(line number, line) of the file's lines, split at \\n, \\r\\n or a lone \\r (old Mac Excel) only:
    str.splitlines also splits at form feeds and U+2028, and the numbers would not be the file's."""
    return enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1)


def _is_tsh(path: str | os.PathLike[str], text: str) -> bool:
    suffix = Path(path).suffix.lower()
    if suffix == ".t":
        return True
    if suffix in (".csv", ".tsv", ".txt"):
        return False
    first = next((ln for _, ln in _lines(text) if ln.strip() and not ln.lstrip().startswith("#")), "")
    return _tsh_fields(first.split("#", 1)[0].strip()) is not None


def _checked(rows: list[_Row], shown: str) -> list[Pairing]:
    """Across rows: a table once per round, a player at one table per round."""
    tables: dict[tuple[str | None, int, int | None], int] = {}
    seats: dict[tuple[str | None, int, str], int] = {}
    out: list[Pairing] = []
    for r in rows:
        if not 1 <= r.round <= MAX_ROUND:
            raise PairingError(f"{shown}:{r.line}: round {r.round} is out of range (1-{MAX_ROUND}, as the "
                               "clock's menu takes it)")
        if r.table is not None and not 1 <= r.table <= MAX_TABLE:
            raise PairingError(f"{shown}:{r.line}: table {r.table} is out of range (1-{MAX_TABLE}, as the "
                               "clock's menu takes it)")
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
        pairing: Pairing = {"event": r.event, "round": r.round, "table": r.table,
                            "players": {"left": r.left, "right": r.right}}
        for k in SETUP_KEYS:
            v = r.setup.get(k)
            if v is not None:
                pairing[k] = v  # type: ignore[literal-required]  # k is one of the four set-up keys
        out.append(pairing)
    return sorted(out, key=lambda p: (p["event"] or "", p["round"], p["table"]))


def _in(event: str | None) -> str:
    return f" of {event}" if event else ""


# ------------------------------------------------------------------------------------------ CSV
def _read_csv(text: str, shown: str, event: str | None, round: int | None,
              ignored: list[str]) -> tuple[list[_Row], list[Bye]]:
    header: list[str] | None = None
    delimiter = ","
    cols: dict[str, int] = {}
    rows: list[_Row] = []
    byes: list[Bye] = []
    for line, raw in _lines(text):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        where = f"{shown}:{line}: "
        if header is None:
            delimiter = next((d for d in (",", ";", "\t") if d in raw), ",")
            cells = _csv_row(raw, delimiter, where, None)
            header = [c.strip().lower() for c in cells]
            cols = _columns(header, shown, line, event, round)
            unused = [name or f"{i + 1} (no name)" for i, name in enumerate(header) if i not in cols.values()]
            if unused:
                ignored.append(f"ignored column{'' if len(unused) == 1 else 's'} {', '.join(unused)}")
            continue
        cells = _csv_row(raw, delimiter, where, header)
        if not any(c.strip() for c in cells):
            continue
        _check_width(cells, header, cols, where)

        def cell(name: str, cols: dict[str, int] = cols, cells: list[str] = cells) -> str:
            # plain_cell: the exports' CSV writes a name a spreadsheet would run ("=...") as "'=..."
            i = cols.get(name)
            return plain_cell(cells[i].strip()) if i is not None else ""

        row_event = clean_event(cell("event"), where) if "event" in cols else event
        if "event" in cols and event is not None and row_event != event:
            continue
        row_round = (whole_number(cell("round"), "round", where, maximum=MAX_ROUND) if "round" in cols
                     else round)
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
        table = whole_number(cell("table"), "table", where, maximum=MAX_TABLE)
        setup = {k: clean_setup(k, cell(k), where) for k in SETUP_KEYS if k in cols}
        rows.append(_Row(line, row_event, row_round, table, names[0], names[1], setup))
    if header is None:
        raise PairingError(f"{shown}: no header row (round, table, left, right) and no pairings")
    if not rows and not byes:
        picked = " and ".join(x for x in (f"round {round}" if round is not None and "round" in cols else "",
                                          f"event {event}" if event is not None and "event" in cols else "")
                              if x)
        raise PairingError(f"{shown}: no pairings" + (f" for {picked}" if picked else ""))
    return rows, byes


def _csv_row(raw: str, delimiter: str, where: str, header: list[str] | None) -> list[str]:
    """One line's values, read by the csv module strictly: a quoted value must close on its line (a
    pairing file's names and numbers never hold a line break), and a quote inside one is doubled."""
    try:
        return next(csv.reader([raw], delimiter=delimiter, strict=True, skipinitialspace=True))
    except csv.Error as exc:
        if "field limit" in str(exc):
            raise PairingError(f"{where}not CSV: a value longer than {csv.field_size_limit()} characters (a "
                               "quote that does not close?)") from None
        if str(exc) != "unexpected end of data":
            hint = " (a quote inside a value is written twice: \"\")" if "'\"'" in str(exc) else ""
            raise PairingError(f"{where}not CSV: {exc}{hint}") from None
        try:
            loose = next(csv.reader([raw], delimiter=delimiter, skipinitialspace=True))
        except csv.Error as again:  # cannot happen: strict reading failed only at the end of the line
            raise PairingError(f"{where}not CSV: {again} (a quote opens and does not close)") from None
        n = len(loose)  # read leniently, the open quote's value runs to the end: it is the last one
        column = f" ({header[n - 1]})" if header is not None and n <= len(header) and header[n - 1] else ""
        start = printable(repr('"' + loose[-1][:20]))
        raise PairingError(f"{where}a quote opens value {n}{column} and does not close on this line ({start}); "
                           "close it: a value cannot run onto the next line") from None


def _check_width(cells: list[str], header: list[str], cols: dict[str, int], where: str) -> None:
    """A row with a value past the header's columns (an unquoted comma in a name shifts every value
    after it), or without a value for a column that is used, is refused."""
    extra = [c for c in cells[len(header):] if c.strip()]
    if extra:
        raise PairingError(f"{where}{len(cells)} values but the header has {len(header)} columns (the extra: "
                           f"{printable(extra[0][:20])!r}); a value holding the separator needs quotes: "
                           "\"Srisuk, Somchai\"")
    short = [header[i] for i in sorted(cols.values()) if i >= len(cells)]
    if short:
        raise PairingError(f"{where}{len(cells)} values but the header has {len(header)} columns: no value for "
                           f"{', '.join(short)} (for a bye write bye or leave the value empty)")


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
    cols.update((k, seen[k]) for k in SETUP_KEYS if k in seen)  # the event's set-up (issue 15)
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
        if not TSH_NUMBER.fullmatch(v) or len(v) > MAX_DIGITS:
            raise PairingError(f"{shown}:{self.line}: {key} value {printable(v[:20])!r} for round {rnd} is not a "
                               f"whole number of at most {MAX_DIGITS} digits")
        return int(v)


TshFields = tuple[str, list[str], list[str], dict[str, list[str]]]


def _tsh_fields(body: str) -> TshFields | None:
    """A tsh line (its comment removed) as tsh's pattern reads it -- (name, opponents, scores, extra fields
    by key), words as written -- or None. The name is the fewest words followed by a rating (1500, 1500.5,
    1500+3) and nothing but opponent numbers up to the first `;`."""
    head, semicolon, rest = body.partition(";")
    if not semicolon:
        return None
    words = head.split()
    k = len(words)  # words[k:] are the trailing whole numbers
    while k > 0 and TSH_NUMBER.fullmatch(words[k - 1]):
        k -= 1
    for i in (max(1, k - 1), max(1, k)):
        if i < len(words) and TSH_RATING.fullmatch(words[i]) and i + 1 >= k:
            break
    else:
        return None
    scores, semicolon, extras = rest.partition(";")
    if not TSH_SCORES.fullmatch(scores):
        return None
    extra: dict[str, list[str]] = {}
    for chunk in extras.split(";") if semicolon else ():
        fields = chunk.split()
        if fields:
            extra[fields[0]] = fields[1:]
    return " ".join(words[:i]), words[i + 1:], scores.split(), extra


def _numbers(words: list[str], pattern: re.Pattern[str], what: str, where: str) -> list[int]:
    for w in words:
        if not pattern.fullmatch(w) or len(w.lstrip("-")) > MAX_DIGITS:
            raise PairingError(f"{where}{what} {printable(w[:20])!r} is not a whole number of at most "
                               f"{MAX_DIGITS} digits")
    return [int(w) for w in words]


def tsh_player_lines(text: str, shown: str, usage: str,
                     error: type[ValueError] = PairingError) -> Iterator[tuple[int, str, str, TshFields]]:
    """(line number, "FILE:LINE: ", the line without its comment, its fields) of each player line of a
    tsh `.t` file (blank and comment lines skipped); `error(...)` naming the line and `usage` for a
    line that is not one. Shared by `gameclock pairings` and `gameclock event create`."""
    for line, raw in _lines(text):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        where = f"{shown}:{line}: "
        fields = _tsh_fields(body)
        if fields is None:
            raise error(words("{where}not a tsh player line ({usage}): {line}", where=where, usage=usage,
                              line=repr(printable(body[:40]))))
        yield line, where, body, fields


def ignored_tsh_fields(unused: Iterable[str]) -> list[str]:
    """The note for tsh fields a reader did not use ([] for none)."""
    names = [printable(k[:20]) for k in unused]
    return [f"ignored tsh field{'' if len(names) == 1 else 's'} {', '.join(names)}"] if names else []


def _read_tsh_players(text: str, shown: str, ignored: list[str]) -> list[_Player]:
    players: list[_Player] = []
    unused: dict[str, None] = {}
    for line, where, _, fields in tsh_player_lines(text, shown, "NAME RATING OPPONENTS; SCORES[; key values]"):
        name, opps, scores, extra = fields
        unused.update((k, None) for k in extra if k not in TSH_USED)
        players.append(_Player(len(players) + 1, line, clean_name(name, where),
                               _numbers(opps, TSH_NUMBER, "opponent", where),
                               _numbers(scores, TSH_SCORE, "score", where), extra))
    if not players:
        raise PairingError(f"{shown}: no players")
    ignored += ignored_tsh_fields(unused)
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


def _read_tsh(text: str, shown: str, event: str | None, round: int | None,
              ignored: list[str]) -> tuple[list[_Row], list[Bye]]:
    players = _read_tsh_players(text, shown, ignored)
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
    return _Row(p.line, event, rnd, table, left.name, right.name, {})
