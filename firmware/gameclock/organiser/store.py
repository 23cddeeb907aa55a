"""The organiser PC's store: one SQLite file (default `gameclock.db`) holding the clocks' keys, the
results they sent, conflicts, refusals, the pairings pushed to the clocks and the rounds' byes.
docs/receiver-db.md describes every table and column.

    store = Store("gameclock.db")       # creates it, or opens and upgrades it; StoreError if not ours
    store.put_result(record, sig, kid, source)   # -> "stored" | "duplicate" | "conflict"
    store.put_results(items)            # many in ONE transaction (a bulk load): Counter of those
    store.summaries(event=E)            # each result's summary (organiser/summary.py), streamed:
                                        # what standings and exports read instead of whole records,
                                        # the organiser's amendment in effect applied (amendments.py)

Meaning and units: times are ISO 8601 UTC strings to the millisecond (`2024-11-02T03:15:07.250Z`);
rounds and tables are the organiser's 1-based numbers; a record is kept as its canonical JSON text
(`canonical`), so the same content always compares equal as text; keys are raw bytes (32 at
enrollment), named by their `kid` (first 16 hex digits of SHA-256(key)).

Every write is one transaction, committed with `synchronous=FULL` in WAL mode before the method
returns: what a method reported stored survives a power cut. Every SQLite failure (disk full, a
locked or damaged file) is raised as `StoreError`, one line naming the file. A Store may be shared
between threads (calls are serialised by a lock), and `gameclock receive` shares one between all its
ports: one SQLite connection, so ports never wait on each other's write lock, and `put_result` commits
the results of all ports that arrive together in one transaction (group commit: one fsync for many).

`Store(path, readonly=True)` (standings, exports) opens the file with SQLite's `mode=ro`: it never
takes the write lock a receiver needs, never creates a file ("no database at PATH"), and upgrades an
older schema only if it must (once, like any writer). A database root creates in a folder someone
else owns (`sudo gameclock enroll` in the service user's folder) is handed to the folder's owner, so
the receiver running as that user can still write it.
"""
from __future__ import annotations

import heapq
import json
import os
import sqlite3
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from gameclock.dataerrors import display_path
from gameclock.dock.pairing import MAX_TABLE, PairingError, clean_event
from gameclock.dock.sign import key_id
from gameclock.organiser import amendments as amend
from gameclock.organiser import counting, said, summary
from gameclock.organiser.said import SaidError
from gameclock.words import as_json, note_of_json

DEFAULT_DB = "gameclock.db"
DB_ENV = "GAMECLOCK_DB"
APPLICATION_ID = 0x47434C4B  # "GCLK" in the file header: marks a gameclock database
BUSY_TIMEOUT_S = 10.0        # wait this long for another process's write transaction

# Versioned schema: MIGRATIONS[n - 1] takes the file from version n - 1 to n (PRAGMA user_version).
MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    PRAGMA application_id = 1195592779; -- APPLICATION_ID
    CREATE TABLE clocks (
        serial     TEXT PRIMARY KEY,
        first_seen TEXT NOT NULL,
        last_seen  TEXT NOT NULL,
        firmware   TEXT,
        kid        TEXT,
        event      TEXT,
        round      INTEGER,
        table_no   INTEGER,
        pending    INTEGER,
        hello      TEXT
    );
    CREATE TABLE clock_keys (
        n        INTEGER PRIMARY KEY AUTOINCREMENT,
        serial   TEXT NOT NULL,
        kid      TEXT NOT NULL,
        key      BLOB NOT NULL,
        added_at TEXT NOT NULL,
        UNIQUE (serial, kid)
    );
    CREATE TABLE results (
        id          TEXT PRIMARY KEY,
        serial      TEXT NOT NULL,
        seq         INTEGER NOT NULL,
        event       TEXT,
        round       INTEGER,
        table_no    INTEGER,
        record      TEXT NOT NULL,
        sig         TEXT NOT NULL,
        kid         TEXT NOT NULL,
        received_at TEXT NOT NULL,
        source      TEXT NOT NULL
    );
    CREATE INDEX results_by_game ON results (event, round, table_no);
    CREATE TABLE conflicts (
        n           INTEGER PRIMARY KEY AUTOINCREMENT,
        id          TEXT NOT NULL,
        record      TEXT NOT NULL,
        sig         TEXT NOT NULL,
        kid         TEXT NOT NULL,
        received_at TEXT NOT NULL,
        source      TEXT NOT NULL
    );
    CREATE INDEX conflicts_by_id ON conflicts (id);
    CREATE TABLE refusals (
        n      INTEGER PRIMARY KEY AUTOINCREMENT,
        at     TEXT NOT NULL,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL,
        serial TEXT,
        rid    TEXT,
        source TEXT NOT NULL
    );
    CREATE TABLE pairings (
        event     TEXT,
        round     INTEGER NOT NULL,
        table_no  INTEGER NOT NULL,
        left_player  TEXT NOT NULL,
        right_player TEXT NOT NULL,
        loaded_at TEXT NOT NULL
    );
    CREATE INDEX pairings_by_table ON pairings (event, round, table_no);
    """,
    # 2: the byes of a round's pairings (XW-9: a bye is a win with its spread, for the standings)
    """
    CREATE TABLE byes (
        event     TEXT,
        round     INTEGER NOT NULL,
        player    TEXT NOT NULL,
        loaded_at TEXT NOT NULL,
        UNIQUE (event, round, player)
    );
    """,
    # 3: keys are revoked, never deleted (a re-enrollment with --replace or a key rotation): results
    #    signed with a revoked key are refused from then on; those stored before stay (SECURITY.md)
    """
    ALTER TABLE clock_keys ADD COLUMN revoked_at TEXT;
    """,
    # 4: each result's summary (organiser/summary.py): the fields standings and exports read, so they
    #    never parse whole records; filled when a result is stored, computed here for those before
    f"""
    ALTER TABLE results ADD COLUMN summary TEXT;
    UPDATE results SET summary = {summary.SQL};
    """,
    # 5: a pairing carries the event's set-up to the clock (issue 15; dock protocol 3): XW-8's level
    #    and stage, the clock's language, the preset of the next game; NULL: the clock keeps its own
    """
    ALTER TABLE pairings ADD COLUMN level TEXT;
    ALTER TABLE pairings ADD COLUMN stage TEXT;
    ALTER TABLE pairings ADD COLUMN language TEXT;
    ALTER TABLE pairings ADD COLUMN preset TEXT;
    """,
    # 6: events the PC pairs itself (issue 16, `gameclock event` / `gameclock pair`): the event, its
    #    players, each round's draft or published boards; a pairing carries the game's number in its
    #    match (dock protocol 4; NULL: the clock keeps its own count)
    """
    ALTER TABLE pairings ADD COLUMN game INTEGER;
    CREATE TABLE events (
        name       TEXT PRIMARY KEY,
        system     TEXT NOT NULL,
        rounds     INTEGER NOT NULL,
        options    TEXT NOT NULL,
        language   TEXT,
        preset     TEXT,
        level      TEXT,
        created_at TEXT NOT NULL
    );
    CREATE TABLE event_players (
        event     TEXT NOT NULL REFERENCES events (name),
        n         INTEGER NOT NULL,
        id        TEXT NOT NULL,
        name      TEXT NOT NULL,
        latin     TEXT NOT NULL,
        campus    TEXT NOT NULL,
        level     TEXT NOT NULL,
        team      TEXT NOT NULL,
        board     INTEGER NOT NULL,
        rating    INTEGER NOT NULL,
        group_name TEXT NOT NULL,
        withdrawn INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (event, id),
        UNIQUE (event, n)
    );
    CREATE TABLE event_rounds (
        event        TEXT NOT NULL REFERENCES events (name),
        round        INTEGER NOT NULL,
        state        TEXT NOT NULL CHECK (state IN ('draft', 'published')),
        system       TEXT NOT NULL,
        seed         INTEGER NOT NULL,
        boards       TEXT NOT NULL,
        notes        TEXT NOT NULL,
        drafted_at   TEXT NOT NULL,
        changed_at   TEXT,
        published_at TEXT,
        PRIMARY KEY (event, round)
    );
    """,
    # 7: the organiser's desk (issue 17, `gameclock desk`): its settings (the organiser's password hash)
    #    and the organiser's amendments of results, kept beside the signed record, never replacing it
    """
    CREATE TABLE desk_settings (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL,
        changed_at TEXT NOT NULL
    );
    CREATE TABLE amendments (
        n       INTEGER PRIMARY KEY AUTOINCREMENT,
        rid     TEXT NOT NULL REFERENCES results (id),
        changes TEXT NOT NULL,
        reason  TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        by_user TEXT NOT NULL,
        at      TEXT NOT NULL
    );
    CREATE INDEX amendments_by_result ON amendments (rid, n);
    """,
    # 8: the audit trail of an event's options changed after creation (issue 25, `gameclock event set`, the
    #    desk's options form): which option, its value before and after (JSON, NULL: not given), why, who,
    #    when; the events table keeps the options in effect
    """
    CREATE TABLE event_options (
        n       INTEGER PRIMARY KEY AUTOINCREMENT,
        event   TEXT NOT NULL REFERENCES events (name),
        key     TEXT NOT NULL,
        before  TEXT,
        after   TEXT,
        reason  TEXT NOT NULL,
        by_user TEXT NOT NULL,
        at      TEXT NOT NULL
    );
    CREATE INDEX event_options_by_event ON event_options (event, n);
    """,
    # 9: the event owns its draw (issue 25): the lot a round was paired from (a round robin's pairing
    #    numbers, the groups, a knockout's bracket and the ties decided by lot), kept with each draft and,
    #    once published, with the event, so every later round continues it; what a draft continues in words
    """
    ALTER TABLE events ADD COLUMN lot TEXT;
    ALTER TABLE events ADD COLUMN lot_at TEXT;
    ALTER TABLE event_rounds ADD COLUMN lot TEXT;
    ALTER TABLE event_rounds ADD COLUMN words TEXT;
    """,
    # 10: players during the event and drafts that cannot surprise (issue 26): the round after which a
    #    player withdrew, the round a late entry joined, a renamed player's former names (the clocks
    #    recorded them: JSON list), each change's audit trail (what, before and after as JSON, why, who,
    #    when); a draft's version (numbered through the event's rounds, so a number names one round's
    #    draft), and every version's boards (what each step did, who, when), so a page showing an older
    #    version is refused with what changed since; the rounds there were are their round's version
    """
    ALTER TABLE event_players ADD COLUMN withdrawn_after INTEGER;
    ALTER TABLE event_players ADD COLUMN joined INTEGER;
    ALTER TABLE event_players ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]';
    CREATE TABLE event_player_changes (
        n       INTEGER PRIMARY KEY AUTOINCREMENT,
        event   TEXT NOT NULL REFERENCES events (name),
        player  TEXT NOT NULL,
        what    TEXT NOT NULL,
        before  TEXT,
        after   TEXT,
        reason  TEXT NOT NULL,
        by_user TEXT NOT NULL,
        at      TEXT NOT NULL
    );
    CREATE INDEX event_player_changes_by_event ON event_player_changes (event, n);
    ALTER TABLE event_rounds ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE draft_versions (
        event   TEXT NOT NULL REFERENCES events (name),
        round   INTEGER NOT NULL,
        version INTEGER NOT NULL,
        kind    TEXT NOT NULL CHECK (kind IN ('draw', 'edit')),
        boards  TEXT NOT NULL,
        what    TEXT NOT NULL,
        by_user TEXT NOT NULL,
        at      TEXT NOT NULL,
        PRIMARY KEY (event, round, version)
    );
    UPDATE event_rounds SET version = round;
    INSERT INTO draft_versions (event, round, version, kind, boards, what, by_user, at)
        SELECT event, round, round, 'draw', boards, '[]', 'organiser', coalesce(changed_at, drafted_at)
        FROM event_rounds;
    """,
    # 11: the clock's event follows the PC (issue 26): the organiser assigns a clock to a table of an event
    #    (a table of an event is one clock's); every change of what the docked clocks must be told (pairings
    #    written, an assignment changed) is a row of `dock_changes`, whose newest number the receiver's ports
    #    watch to push it to the clocks docked now
    """
    CREATE TABLE clock_tables (
        serial   TEXT PRIMARY KEY,
        event    TEXT NOT NULL,
        table_no INTEGER NOT NULL CHECK (table_no >= 1),
        by_user  TEXT NOT NULL,
        at       TEXT NOT NULL,
        UNIQUE (event, table_no)
    );
    CREATE TABLE dock_changes (
        n       INTEGER PRIMARY KEY AUTOINCREMENT,
        at      TEXT NOT NULL,
        what    TEXT NOT NULL,
        by_user TEXT NOT NULL
    );
    """,
    # 12: the organiser's bad day, results (issue 26): a game's result entered by hand at the desk (a dead
    #     clock), never signed, so beside `results`: a trail per game that only grows (its latest row is the
    #     hand entry in effect; a row without a record withdraws it); and the events deleted at the desk,
    #     each kept whole with who, when and why. Moves and set-asides of wrong uploads are amendments.
    """
    CREATE TABLE hand_results (
        n         INTEGER PRIMARY KEY AUTOINCREMENT,
        id        TEXT NOT NULL UNIQUE,
        event     TEXT NOT NULL,
        round     INTEGER NOT NULL,
        table_no  INTEGER NOT NULL,
        game      INTEGER NOT NULL,
        record    TEXT,
        summary   TEXT,
        withdraws TEXT,
        reason    TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        by_user   TEXT NOT NULL,
        at        TEXT NOT NULL,
        source    TEXT NOT NULL
    );
    CREATE INDEX hand_results_by_game ON hand_results (event, round, table_no, game, n);
    CREATE TABLE deleted_events (
        n       INTEGER PRIMARY KEY AUTOINCREMENT,
        event   TEXT NOT NULL,
        before  TEXT NOT NULL,
        reason  TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        by_user TEXT NOT NULL,
        at      TEXT NOT NULL
    );
    """,
    # 13: named accounts at the desk (issue 26): the organiser's and the arbiters', each with its own
    #    password hash and session epoch, disabled or not; the trail of their changes. A desk of issue
    #    24 (one password, no name) becomes the account "organiser" with that password and the desk's
    #    session epoch, so its open sessions and its known browsers go on (nobody locked out)
    """
    CREATE TABLE desk_accounts (
        name       TEXT PRIMARY KEY,
        folded     TEXT NOT NULL UNIQUE,
        role       TEXT NOT NULL CHECK (role IN ('organiser', 'arbiter')),
        password   TEXT NOT NULL,
        epoch      TEXT NOT NULL,
        disabled   INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        changed_at TEXT NOT NULL
    );
    CREATE TABLE desk_account_changes (
        n       INTEGER PRIMARY KEY AUTOINCREMENT,
        account TEXT NOT NULL REFERENCES desk_accounts (name),
        action  TEXT NOT NULL CHECK (action IN ('migrate', 'create', 'disable', 'enable', 'password')),
        by_user TEXT NOT NULL,
        at      TEXT NOT NULL
    );
    INSERT INTO desk_accounts (name, folded, role, password, epoch, created_at, created_by, changed_at)
        SELECT 'organiser', 'organiser', 'organiser', p.value,
               COALESCE((SELECT e.value FROM desk_settings e WHERE e.key = 'session_epoch'),
                        lower(hex(randomblob(8)))),
               p.changed_at, 'organiser', p.changed_at
        FROM desk_settings p WHERE p.key = 'organiser_password';
    INSERT INTO desk_account_changes (account, action, by_user, at)
        SELECT name, 'migrate', 'organiser', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM desk_accounts;
    DELETE FROM desk_settings WHERE key IN ('organiser_password', 'session_epoch');
    """,
    # 14: the hall's wall (issue 28): the announcements the organiser types for the projector (a removed one
    #     kept with who removed it and when), the time each round was started at the desk (the projector's
    #     round clock, kept across a desk restart), and the trail of both, whose newest number the live
    #     stamp carries (the projector hears of a change through its stream)
    """
    CREATE TABLE wall_announcements (
        n          INTEGER PRIMARY KEY AUTOINCREMENT,
        event      TEXT NOT NULL,
        text       TEXT NOT NULL CHECK (length(trim(text)) > 0),
        by_user    TEXT NOT NULL,
        at         TEXT NOT NULL,
        removed_by TEXT,
        removed_at TEXT
    );
    CREATE INDEX wall_announcements_by_event ON wall_announcements (event, n);
    CREATE TABLE round_starts (
        event      TEXT NOT NULL,
        round      INTEGER NOT NULL CHECK (round >= 1),
        started_ns INTEGER NOT NULL,
        by_user    TEXT NOT NULL,
        at         TEXT NOT NULL,
        PRIMARY KEY (event, round)
    );
    CREATE TABLE wall_changes (
        n       INTEGER PRIMARY KEY AUTOINCREMENT,
        event   TEXT NOT NULL,
        what    TEXT NOT NULL,
        by_user TEXT NOT NULL,
        at      TEXT NOT NULL
    );
    """,
    # 15: the event's header on its public pages (issue 28, like chess-results): its title, venue, dates,
    #     arbiters and round times as the organiser types them at the desk, per event name (an event the PC
    #     pairs or one whose results or pairings only it holds); `version` counts the edits (the live stamp)
    """
    CREATE TABLE event_pages (
        event       TEXT PRIMARY KEY,
        title       TEXT NOT NULL,
        venue       TEXT NOT NULL,
        dates       TEXT NOT NULL,
        arbiters    TEXT NOT NULL,
        round_times TEXT NOT NULL,
        version     INTEGER NOT NULL,
        by_user     TEXT NOT NULL,
        at          TEXT NOT NULL
    );
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)
# the event's header on its public pages (migration 15), in the order the pages show it
EVENT_HEADER = ("title", "venue", "dates", "arbiters", "round_times")

# event, round, table, left, right, level, stage, language, preset (the set-up: None when not given),
# game (the game's number in its match, version 6: None when not given)
PairingRow = tuple[str | None, int, int, str, str, str | None, str | None, str | None, str | None, int | None]
SETUP_COLUMNS = ("level", "stage", "language", "preset")  # the pairings table's set-up columns (version 5)
_PAIRING_COLS = "event, round, table_no, left_player, right_player, level, stage, language, preset, game"
PLAYER_COLUMNS = ("id", "name", "latin", "campus", "level", "team", "board", "rating", "group", "withdrawn")
_PLAYER_SQL = "id, name, latin, campus, level, team, board, rating, group_name, withdrawn"
# what `event_players` gives besides PLAYER_COLUMNS (version 10): the round after which the player withdrew
# (None: plays), the round a late entry joined (None: on the list from the start), former names (a list)
PLAYER_DURING = ("withdrawn_after", "joined", "aliases")
PLAYER_EDITS = {"name": "name", "latin": "latin", "campus": "campus", "level": "level", "rating": "rating",
                "withdrawn": "withdrawn", "withdrawn_after": "withdrawn_after", "aliases": "aliases"}  # key -> column
ACCOUNT_ROLES = ("organiser", "arbiter")   # desk_accounts.role (desk/web.py says what each may do)
ACCOUNT_KEYS = ("name", "role", "password", "epoch", "disabled", "created_at", "created_by", "changed_at")
ROUND_KEYS = ("event", "round", "state", "system", "seed", "boards", "notes", "drafted_at", "changed_at",
              "published_at", "lot", "words", "version")
ByeRow = tuple[str | None, int, str]                # event, round, player
HAND_PREFIX = "hand:"   # a hand entry's id: `hand:000001` (a ':' no clock serial holds: record.schema.json)
ANNOUNCEMENT_MAX = 200   # characters of one announcement on the projector (issue 28): two lines of its large type
ANNOUNCEMENTS_SHOWN = 8  # announcements an event shows at once: the projector's head keeps room for its tables


@dataclass
class _Plan:
    """What `Store._reading` holds while it reads (Store._plan): the amendments in effect (all: few), the
    results they move or set aside, the slots of the hand entries in effect, the published tables, the
    signed results sharing a game, and the summaries counted away from their stored place (moved in:
    with why held; the hand entries)."""
    amended: dict[str, dict[str, Any]]
    placed: dict[str, dict[str, Any]]
    hand_slots: set[counting.Slot]
    tables: counting.Tables
    names: dict[tuple[str | None, str], str] = field(default_factory=dict)   # Store.names_now: renamed players
    doubles: set[str] = field(default_factory=set)
    extra: list[tuple[list[Any], str | None]] = field(default_factory=list)

    def why(self, values: list[Any]) -> str | None:
        """Why a signed result's summary (as it counts) is held; None: it counts (organiser/counting.py)."""
        if self.doubles and values[counting.I_ID] in self.doubles:
            return counting.DOUBLE
        if self.hand_slots and counting.slot(values) in self.hand_slots:
            return counting.HAND
        return self.tables.why(values) if self.tables.rounds else None

    def counted(self, store_name: str, rid: str, text: str | None) -> list[Any]:
        """Signed result `rid`'s stored summary (`text`, JSON) as it counts: the amendment in effect
        applied, a renamed player under the name now. StoreError for a summary that is not JSON."""
        if text is None:
            raise StoreError(f"{store_name}: result {rid}: its stored record is not valid JSON")
        values = json.loads(text)
        if rid in self.amended:
            values = amend.apply(values, self.amended[rid])
        if self.names:
            values = _named_now(values, self.names)   # a renamed player under the name now
        return values


@dataclass
class _Put:
    """One put_result waiting for its group's commit: the row, then its status or the commit's error."""
    row: tuple[Any, ...]
    status: str | None = None
    error: Exception | None = None


_EVENT_AT, _LEFT_AT, _RIGHT_AT = (summary.PATHS.index(p) for p in ("event", "players.left", "players.right"))


def _named_now(values: list[Any], names: Mapping[tuple[str | None, str], str]) -> list[Any]:
    """A summary with its players' former names replaced by their names now (`Store.names_now`)."""
    event = values[_EVENT_AT]
    for at in (_LEFT_AT, _RIGHT_AT):
        now = names.get((event, values[at])) if isinstance(values[at], str) else None
        if now is not None:
            values = [*values[:at], now, *values[at + 1:]]
    return values


def _amendment_dict(row: tuple[Any, ...]) -> dict[str, Any]:
    """An `amendments` row (n, rid, changes, reason, by_user, at) as `Store.amendments` gives it."""
    n, rid, changes, reason, by, at = row
    return {"n": n, "rid": rid, "changes": json.loads(changes), "reason": reason, "by": by, "at": at}


class StoreError(SaidError, Exception):
    """The store's file cannot be used: one line naming the file and what is wrong (its `words` for
    the desk's reader, when it has them: organiser/said.py)."""


class StaleDraft(StoreError):
    """A draft changed (or was published) since the version a caller read: `now` is its version now
    (None: the round has no draft any more)."""

    def __init__(self, message: str, now: int | None) -> None:
        super().__init__(message)
        self.now = now


def default_db_path() -> Path:
    """The database the commands use without --db: $GAMECLOCK_DB, else `gameclock.db` here."""
    return Path(os.environ.get(DB_ENV) or DEFAULT_DB)


def canonical(record: object) -> str:
    """A record's canonical JSON text (sorted keys, no spaces, UTF-8 characters kept): what is signed
    (`gameclock.dock.sign.canonical` is its UTF-8 bytes) and what the `record` columns hold."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _js(value: object) -> str:
    """`value` as a JSON value, written as the JSON Lines export writes it (UTF-8 kept)."""
    return json.dumps(value, ensure_ascii=False)


def _what_failed(exc: sqlite3.Error) -> str:
    """SQLite's error in the organiser's words: a file of another kind is "not an SQLite file"."""
    if isinstance(exc, sqlite3.DatabaseError) and "not a database" in str(exc):
        return "not a gameclock database (not an SQLite file)"
    return str(exc)


def now_utc() -> str:
    """The current time, ISO 8601 UTC to the ms with a Z."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def statements(script: str) -> list[str]:
    """The SQL statements of a script, one per entry (split where `sqlite3.complete_statement` says
    a statement ends, so semicolons inside strings or triggers are safe)."""
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        raise ValueError(f"incomplete SQL statement: {buf.strip()[:60]!r}")
    return out


def _assignable(event: object, table: object) -> tuple[str, int]:
    """A clock's table (Store.assign_clock): the event as the clock keeps it (one word, no control
    character, at most 64) and a table 1-MAX_TABLE (the clock's menu); ValueError saying what is wrong."""
    try:
        name = clean_event(event)
    except PairingError as exc:
        raise ValueError(str(exc)) from None
    if name is None:
        raise ValueError("a clock's table needs an event")
    if not isinstance(table, int) or isinstance(table, bool) or not 1 <= table <= MAX_TABLE:
        raise ValueError(f"table {table!r}: a whole number 1-{MAX_TABLE} (the clock's menu)")
    return name, table


def _number(what: str, name: str, v: object) -> int:
    """`v` if it is a whole number from 1 (not a bool); else ValueError."""
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise ValueError(f"{what}: {name} must be a whole number from 1, got {v!r}")
    return v


def _pairing_row(row: Mapping[str, Any]) -> PairingRow:
    """(event, round, table, left, right, level, stage, language, preset) of a put_pairings row (the
    set-up keys may be absent: None); ValueError if malformed."""
    event, rnd, table, players = row.get("event"), row.get("round"), row.get("table"), row.get("players")
    if event is not None and not isinstance(event, str):
        raise ValueError(f"pairing: event must be a string or None, got {event!r}")
    rnd = _number("pairing", "round", rnd)
    table = _number("pairing", "table", table)
    if not isinstance(players, dict) or not all(isinstance(players.get(s), str) for s in ("left", "right")):
        raise ValueError(f"pairing: players must be {{'left': name, 'right': name}}, got {players!r}")
    setup = [row.get(k) for k in SETUP_COLUMNS]
    for k, v in zip(SETUP_COLUMNS, setup, strict=True):
        if v is not None and not (isinstance(v, str) and v):
            raise ValueError(f"pairing: {k} must be a word or None, got {v!r}")
    game = row.get("game")
    if game is not None:
        game = _number("pairing", "game", game)
    return (event or None, rnd, table, players["left"], players["right"], *setup, game)


def _bye_row(row: Mapping[str, Any]) -> ByeRow:
    """(event, round, player) of a put_byes row; ValueError if malformed."""
    event, rnd, player = row.get("event"), row.get("round"), row.get("player")
    if event is not None and not isinstance(event, str):
        raise ValueError(f"bye: event must be a string or None, got {event!r}")
    rnd = _number("bye", "round", rnd)
    if not isinstance(player, str) or not player.strip():
        raise ValueError(f"bye: player must be a name, got {player!r}")
    return (event or None, rnd, player)


def _pairing_dict(event: str | None, rnd: int, table: int, left: str, right: str,
                  *setup_game: Any) -> dict[str, Any]:
    *setup, game = setup_game
    return {"event": event, "round": rnd, "table": table, "players": {"left": left, "right": right},
            **{k: v for k, v in zip(SETUP_COLUMNS, setup, strict=True) if v is not None},  # only what is given
            **({"game": game} if game is not None else {})}


class Store:
    """The PC's SQLite database (module docstring). Open it once per process; `close()` when done."""

    def __init__(self, path: str | os.PathLike[str], readonly: bool = False):
        self.path = Path(path)
        self.name = display_path(self.path)
        self.readonly = readonly
        self._lock = threading.RLock()
        self._group = threading.Condition(threading.Lock())  # put_result's group commit (below)
        self._queued: list[_Put] = []
        self._committing = False
        self._db: sqlite3.Connection | None = None
        if self.path.is_dir():
            raise StoreError(f"{self.name}: is a folder, not a database file")
        if readonly and not self.path.exists():
            raise StoreError(f"no database at {self.name} (gameclock receive creates it; or give --db FILE)")
        new = not self.path.exists() or self.path.stat().st_size == 0
        if new:
            self._create_private()
        # A file of another kind is found by SQLite's own "not a database", never by reading its header
        # here: closing any descriptor of the file drops every SQLite lock this process holds on it
        # (POSIX locks are per process), so another Store open in this process would then miss other
        # processes' writes (SQLite's "How To Corrupt An SQLite Database File", 2.2).
        try:
            if readonly:
                self._open_readonly()
            else:
                db = self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                                check_same_thread=False)
                self._check_ours(db)
                mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if mode.lower() != "wal":
                    raise StoreError(f"{self.name}: cannot use WAL mode (journal mode {mode})")
                db.execute("PRAGMA synchronous = FULL")
                db.execute("PRAGMA foreign_keys = ON")
                self._migrate(db)
                if new:
                    self._give_to_folder_owner()
        except sqlite3.Error as exc:
            self.close()
            raise StoreError(f"{self.name}: {_what_failed(exc)}") from None
        except StoreError:
            self.close()
            raise

    def _open_readonly(self) -> None:
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        db = self._db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                        check_same_thread=False)
        self._check_ours(db)
        if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
            db.close()  # an older file: upgraded once by a writer, then read as it is
            Store(self.path).close()
            self._db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                       check_same_thread=False)

    # ------------------------------------------------------------------------------------ opening

    def _give_to_folder_owner(self) -> None:
        """Root just created the database in a folder another user owns: hand it (and SQLite's -wal
        and -shm files) to that user, or the receiver running as them could not write it."""
        if os.geteuid() != 0:
            return
        owner = self.path.resolve().parent.stat()
        if owner.st_uid == 0:
            return
        for suffix in ("", "-wal", "-shm"):
            f = Path(f"{self.path}{suffix}")
            if f.exists():
                os.chown(f, owner.st_uid, owner.st_gid)

    def _create_private(self) -> None:
        """Create an empty file readable by its owner only: it holds the clocks' secret keys."""
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
            os.close(fd)
        except OSError as exc:
            raise StoreError(f"{self.name}: cannot create the database ({exc.strerror})") from None

    def _check_ours(self, db: sqlite3.Connection) -> None:
        """StoreError unless the file is empty or a gameclock database this code understands."""
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app != APPLICATION_ID and (app != 0 or version != 0 or tables):
            raise StoreError(f"{self.name}: not a gameclock database (an SQLite file of another program)")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.name}: database schema version {version} is newer than this "
                             f"gameclock understands ({SCHEMA_VERSION}): update gameclock on this PC")

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Bring the file to SCHEMA_VERSION, one migration per transaction (another process that
        migrated first is noticed inside the transaction, so each migration runs once)."""
        if db.execute("PRAGMA user_version").fetchone()[0] >= len(MIGRATIONS):
            return  # up to date: no write lock taken
        for n, script in enumerate(MIGRATIONS, start=1):
            db.execute("BEGIN IMMEDIATE")
            try:
                if db.execute("PRAGMA user_version").fetchone()[0] >= n:
                    db.execute("ROLLBACK")
                    continue
                for stmt in statements(script):
                    db.execute(stmt)
                db.execute(f"PRAGMA user_version = {n}")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    def version(self) -> int:
        """The file's schema version (PRAGMA user_version)."""
        return int(self._query("PRAGMA user_version")[0][0])

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------------ plumbing

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed (durably) on leaving; rolled back on an exception."""
        with self._lock:
            if self._db is None:
                raise StoreError(f"{self.name}: the store is closed")
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise StoreError(f"{self.name}: {exc}") from None

    def _query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            if self._db is None:
                raise StoreError(f"{self.name}: the store is closed")
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"{self.name}: {exc}") from None

    def _rows(self, sql: str, params: tuple[object, ...] = (), batch: int = 512) -> Iterator[tuple[Any, ...]]:
        """The rows of a query, fetched `batch` at a time (memory bounded by the batch, not the table);
        the lock is held while a batch is fetched, not between. Read the rows to the end (or close the
        iterator) before the next write on this Store."""
        with self._lock:
            if self._db is None:
                raise StoreError(f"{self.name}: the store is closed")
            try:
                cur = self._db.execute(sql, params)
            except sqlite3.Error as exc:
                raise StoreError(f"{self.name}: {exc}") from None
        try:
            while True:
                with self._lock:
                    try:
                        rows = cur.fetchmany(batch)
                    except sqlite3.Error as exc:
                        raise StoreError(f"{self.name}: {exc}") from None
                if not rows:
                    return
                yield from rows
        finally:
            cur.close()

    # ------------------------------------------------------------------------------------ keys, clocks

    def add_key(self, serial: str, key: bytes, revoke_others: bool = False) -> str:
        """Keep `key` as the clock's newest key and return its kid. `revoke_others`: revoke every other
        key of the clock in the same transaction (enrollment does: a clock has one valid key).
        Adding a key the clock already had makes it the newest (and valid) again."""
        if not isinstance(key, (bytes, bytearray)) or not key:
            raise ValueError("add_key: the key must be non-empty bytes")
        kid = key_id(bytes(key))
        now = now_utc()
        with self._tx() as db:
            db.execute("DELETE FROM clock_keys WHERE serial = ? AND kid = ?", (serial, kid))
            if revoke_others:
                db.execute("UPDATE clock_keys SET revoked_at = ? WHERE serial = ? AND revoked_at IS NULL",
                           (now, serial))
            db.execute("INSERT INTO clock_keys (serial, kid, key, added_at) VALUES (?, ?, ?, ?)",
                       (serial, kid, bytes(key), now))
        return kid

    def revoke_others(self, serial: str, kid: str) -> int:
        """Revoke every valid key of `serial` but `kid` (the clock proved it holds `kid`: an enrollment
        finished). Returns how many were revoked."""
        with self._tx() as db:
            cur = db.execute("UPDATE clock_keys SET revoked_at = ? WHERE serial = ? AND kid != ?"
                             " AND revoked_at IS NULL", (now_utc(), serial, kid))
        return cur.rowcount

    def key(self, serial: str, kid: str | None) -> bytes | None:
        """The key named `kid` of `serial` if it is valid (not revoked) now; else None (unknown clock or
        key, revoked, kid None). Now, never at a time someone claims (issue 24: an import's received_at)."""
        if kid is None:
            return None
        rows = self._query("SELECT key FROM clock_keys WHERE serial = ? AND kid = ? AND revoked_at IS NULL",
                           (serial, kid))
        return bytes(rows[0][0]) if rows else None

    def revoked(self, serial: str, kid: str | None) -> str | None:
        """When the key `kid` of `serial` was revoked (ISO UTC), or None (valid, or unknown)."""
        if kid is None:
            return None
        rows = self._query("SELECT revoked_at FROM clock_keys WHERE serial = ? AND kid = ?", (serial, kid))
        return rows[0][0] if rows else None

    def has_keys(self, serial: str) -> bool:
        """Whether `serial` holds a valid key of this PC (a re-enrollment needs it or --replace)."""
        return bool(self._query("SELECT 1 FROM clock_keys WHERE serial = ? AND revoked_at IS NULL LIMIT 1",
                                (serial,)))

    def latest_key(self, serial: str) -> tuple[str, bytes] | None:
        """(kid, key) of the clock's newest valid key, or None if it has none here."""
        rows = self._query("SELECT kid, key FROM clock_keys WHERE serial = ? AND revoked_at IS NULL"
                           " ORDER BY n DESC LIMIT 1", (serial,))
        return (rows[0][0], bytes(rows[0][1])) if rows else None

    def keys(self) -> list[tuple[str, str, bytes, str]]:
        """Every key, oldest first: (serial, kid, key, added_at)."""
        return [(s, k, bytes(b), a) for s, k, b, a in
                self._query("SELECT serial, kid, key, added_at FROM clock_keys ORDER BY n")]

    def copy_keys_from(self, other: str | os.PathLike[str]) -> int:
        """Copy every key of another PC's database into this one (read-only on the other file; keys
        this store has already are left as they are). Returns how many were new here."""
        src = Path(other)
        name = display_path(src)
        if not src.is_file():
            raise StoreError(f"{name}: no such database file")
        try:
            con = sqlite3.connect(f"{src.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
            try:
                app = con.execute("PRAGMA application_id").fetchone()[0]
                version = con.execute("PRAGMA user_version").fetchone()[0]
                if app != APPLICATION_ID:
                    raise StoreError(f"{name}: not a gameclock database (an SQLite file of another program)")
                if version > SCHEMA_VERSION:
                    raise StoreError(f"{name}: database schema version {version} is newer than this "
                                     f"gameclock understands ({SCHEMA_VERSION}): update gameclock on this PC")
                cols = {r[1] for r in con.execute("PRAGMA table_info(clock_keys)")}
                revoked = "revoked_at" if "revoked_at" in cols else "NULL"
                rows = con.execute(f"SELECT serial, kid, key, added_at, {revoked} FROM clock_keys"
                                   " ORDER BY n").fetchall()
            finally:
                con.close()
        except sqlite3.Error as exc:
            raise StoreError(f"{name}: {_what_failed(exc)}") from None
        added = 0
        with self._tx() as db:
            for serial, kid, key, added_at, revoked_at in rows:
                if key_id(bytes(key)) != kid:
                    raise StoreError(f"{name}: key {kid} of clock {serial} does not match its kid")
                cur = db.execute("INSERT OR IGNORE INTO clock_keys (serial, kid, key, added_at, revoked_at) "
                                 "VALUES (?, ?, ?, ?, ?)", (serial, kid, bytes(key), added_at, revoked_at))
                added += cur.rowcount
                if revoked_at:  # a revocation on the other PC holds here too
                    db.execute("UPDATE clock_keys SET revoked_at = coalesce(revoked_at, ?) WHERE serial = ?"
                               " AND kid = ?", (revoked_at, serial, kid))
        return added

    def seen(self, serial: str, info: Mapping[str, Any]) -> None:
        """A hello from `serial` arrived: note the time and what it said (`fw`, `kid`, `pending`,
        `event`, `round`, `table`; the whole message is kept as JSON in `hello`)."""
        now = now_utc()
        with self._tx() as db:
            db.execute(
                "INSERT INTO clocks (serial, first_seen, last_seen, firmware, kid, event, round, table_no,"
                " pending, hello) VALUES (:serial, :now, :now, :fw, :kid, :event, :round, :table, :pending,"
                " :hello) ON CONFLICT (serial) DO UPDATE SET last_seen = :now, firmware = :fw, kid = :kid,"
                " event = :event, round = :round, table_no = :table, pending = :pending, hello = :hello",
                {"serial": serial, "now": now, "fw": info.get("fw"), "kid": info.get("kid"),
                 "event": info.get("event"), "round": info.get("round"), "table": info.get("table"),
                 "pending": info.get("pending"),
                 "hello": json.dumps(info, sort_keys=True, ensure_ascii=False, default=str)})

    def clocks(self) -> list[dict[str, Any]]:
        """Every clock this PC knows (by a key, a hello or a result), by serial: `serial`, `kids`
        (oldest first), `first_seen`/`last_seen` (its hellos; None if never docked here), `firmware`,
        `event`, `round`, `table` (its settings at the last hello), `pending` (the results it still had to
        send at that hello; None if never docked here) and `results` (how many stored)."""
        rows = self._query(
            "WITH s(serial) AS (SELECT serial FROM clocks UNION SELECT serial FROM clock_keys"
            " UNION SELECT serial FROM results)"
            " SELECT s.serial, c.first_seen, c.last_seen, c.firmware, c.event, c.round, c.table_no,"
            " (SELECT group_concat(kid, ' ') FROM (SELECT kid FROM clock_keys k WHERE k.serial = s.serial"
            "  ORDER BY n)),"
            " (SELECT count(*) FROM results r WHERE r.serial = s.serial), c.pending"
            " FROM s LEFT JOIN clocks c ON c.serial = s.serial ORDER BY s.serial")
        return [{"serial": serial, "kids": kids.split() if kids else [], "first_seen": first,
                 "last_seen": last, "firmware": fw, "event": event, "round": rnd, "table": table,
                 "results": count, "pending": pending}
                for serial, first, last, fw, event, rnd, table, kids, count, pending in rows]

    # ------------------------------------------------------------------------------------ results

    def put_result(self, record: Mapping[str, Any], sig: str, kid: str, source: str,
                   received_at: str | None = None) -> str:
        """Store a result whose signature the caller has verified, by its id, in one durable
        transaction: results other threads put meanwhile share it (a group commit: while one commit is
        under way the next results queue up, and the next commit takes them all), and each call
        returns only once its transaction is committed (an ack never precedes durability, CL-5), or
        raises its error (then none of that group is stored). Returns "stored" (new id), "duplicate"
        (the same id with the same canonical content: nothing changes) or "conflict" (the same id with other content: the first stays in
        `results`, this one is kept in `conflicts`, once per distinct content). `received_at`
        (ISO UTC) defaults to now; an import passes the other PC's."""
        put = _Put(self._result_row(record, sig, kid, source, received_at))
        with self._group:
            self._queued.append(put)
            while put.status is None and put.error is None and self._committing:
                self._group.wait()
            if put.status is None and put.error is None:  # no commit under way: this thread commits
                self._committing = True                   # every put queued so far, its own among them
                batch, self._queued = self._queued, []
            else:
                batch = []
        if batch:
            self._commit(batch)
        if put.error is not None:
            raise put.error
        assert put.status is not None
        return put.status

    def _commit(self, batch: list[_Put]) -> None:
        """Store `batch` in one durable transaction, then wake the threads waiting for it (each learns
        its status, or the transaction's error: then none of the batch is stored)."""
        try:
            with self._tx() as db:
                statuses = [self._put(db, put.row) for put in batch]
            for put, status in zip(batch, statuses, strict=True):
                put.status = status
        except BaseException as exc:
            for put in batch:
                put.error = exc if isinstance(exc, Exception) else StoreError(f"{self.name}: {exc!r}")
            if not isinstance(exc, Exception):
                raise
        finally:
            with self._group:
                self._committing = False
                self._group.notify_all()

    def put_results(self, results: Iterable[tuple[Mapping[str, Any], str, str, str, str | None]]) -> Counter[str]:
        """Store many verified results -- (record, sig, kid, source, received_at or None) each, as
        `put_result` takes them -- in ONE durable transaction (a bulk import: one fsync instead of
        one a result; all or none on an error). Returns how many were "stored", "duplicate",
        "conflict"."""
        counts: Counter[str] = Counter()
        with self._tx() as db:
            for record, sig, kid, source, received_at in results:
                counts[self._put(db, self._result_row(record, sig, kid, source, received_at))] += 1
        return counts

    @staticmethod
    def _result_row(record: Mapping[str, Any], sig: str, kid: str, source: str,
                    received_at: str | None) -> tuple[Any, ...]:
        """The `results` row of a record (ValueError without an id and clock), its text last."""
        rid, clock = record.get("id"), record.get("clock")
        if not isinstance(rid, str) or not isinstance(clock, dict):
            raise ValueError("put_result: the record has no id or clock")
        return (rid, clock.get("serial"), clock.get("seq"), record.get("event"), record.get("round"),
                record.get("table"), sig, kid, received_at or now_utc(), source, canonical(record))

    # the record's text is bound once (the last parameter) and read twice: as `record`, and by the
    # summary's json_extract (organiser/summary.py), in the one statement that stores it
    _INSERT_RESULT = ("INSERT INTO results (id, serial, seq, event, round, table_no, sig, kid, received_at,"
                      " source, record, summary) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, record, "
                      f"{summary.SQL} FROM (SELECT ? AS record)")

    def _put(self, db: sqlite3.Connection, row: tuple[Any, ...]) -> str:
        rid, text = row[0], row[-1]
        sig, kid, received_at, source = row[6:10]
        old = db.execute("SELECT record FROM results WHERE id = ?", (rid,)).fetchone()
        if old is None:
            db.execute(self._INSERT_RESULT, row)
            return "stored"
        if old[0] == text:
            return "duplicate"
        if db.execute("SELECT 1 FROM conflicts WHERE id = ? AND record = ?", (rid, text)).fetchone() is None:
            db.execute("INSERT INTO conflicts (id, record, sig, kid, received_at, source)"
                       " VALUES (?, ?, ?, ?, ?, ?)", (rid, text, sig, kid, received_at, source))
        return "conflict"

    _RESULT_COLS = "id, record, sig, kid, serial, received_at, source"

    @staticmethod
    def _result_dict(row: tuple[Any, ...]) -> dict[str, Any]:
        rid, text, sig, kid, serial, received_at, source = row
        return {"id": rid, "record": json.loads(text), "sig": sig, "kid": kid, "serial": serial,
                "received_at": received_at, "source": source}

    def result(self, rid: str) -> dict[str, Any] | None:
        """The stored result `rid`: {"id", "record" (the record as a dict), "sig", "kid", "serial",
        "received_at", "source"}, or None."""
        rows = self._query(f"SELECT {self._RESULT_COLS} FROM results WHERE id = ?", (rid,))
        return self._result_dict(rows[0]) if rows else None

    @staticmethod
    def _where(event: str | None, round: int | None, table: str = "") -> tuple[str, tuple[object, ...]]:
        """The WHERE clause ("" for none) and its parameters selecting `event` and/or `round` (columns
        of `results`, named `table`.column when `table` is given)."""
        where: list[str] = []
        params: list[object] = []
        prefix = f"{table}." if table else ""
        if event is not None:
            where.append(f"{prefix}event = ?")
            params.append(event)
        if round is not None:
            where.append(f"{prefix}round = ?")
            params.append(round)
        return (" WHERE " + " AND ".join(where) if where else ""), tuple(params)

    def results(self, event: str | None = None, round: int | None = None) -> list[dict[str, Any]]:
        """The stored records themselves (the dicts the clocks built), of `event` and/or `round` if
        given (None: any), ordered by event, round, table (null first), then id. Every record is
        parsed whole: the standings and exports read `summaries` instead."""
        where, params = self._where(event, round)
        rows = self._query(f"SELECT record FROM results{where} ORDER BY event, round, table_no, id", params)
        return [json.loads(text) for (text,) in rows]

    def summaries(self, event: str | None = None, round: int | None = None) -> Iterator[list[Any]]:
        """Each result's summary as it counts (organiser/summary.py: the values at `summary.PATHS`), of
        `event` and/or `round` if given, in the order of `results`; streamed (one small JSON array
        parsed a result, never the record). StoreError naming a result whose record is not JSON.

        This is where the organiser's amendments count (issue 17), for every reader at once: a result
        with an amendment in effect (`amended`) comes with that amendment's values at its paths and
        one more value, the amendment's mark (`amendments.apply`); the stored record and its stored
        summary stay as the clock signed them. And where a result counts (issue 26, organiser/
        counting.py): at the event, round and table an amendment moved it to (none: set aside); the
        organiser's hand entries in effect come too (after the amendment mark's place, None, their
        own mark: counting.HAND_MARK); a signed result held for the organiser (a hand entry counts for
        its game, not its table's players, two results for one game: `held`) does not."""
        for values, why in self._reading(event, round):
            if why is None:
                yield values

    def summaries_after(self, event: str, rowid: int) -> tuple[list[list[Any]], int] | None:
        """The summaries, as `summaries(event=event)` gives them, of the event's signed results stored after
        `rowid` (live_stamp's first value), and the newest rowid read (`rowid` when none): what a reader
        holding the event's summaries up to `rowid` adds (issue 28: the desk's standings read only the new
        rows, not every result again). Only while nothing else that counts changed (live_stamp's other
        values: amendments, hand entries, pairings, rounds, players): the results moved in and the hand
        entries are not here. None when a new result shares its game with another (organiser/counting.py
        DOUBLE): that holds an older result too, so the reader reads every result again."""
        # the newest of every event's results first, and only the rows up to it read: a result of this event
        # stored while these lines read is read next time, never skipped
        newest = max(rowid, self._query("SELECT coalesce(max(rowid), 0) FROM results")[0][0])
        plan = self._plan(event, None)
        out: list[list[Any]] = []
        for rid, text in self._rows("SELECT id, summary FROM results WHERE event = ? AND rowid > ? AND rowid <= ?"
                                    " ORDER BY rowid", (event, rowid, newest)):
            if rid in plan.doubles:
                return None
            if rid in plan.placed:
                continue          # moved elsewhere or set aside (an amendment: the reader's stamp changed)
            values = plan.counted(self.name, rid, text)
            if plan.why(values) is None:
                out.append(values)
        return out, newest

    def held(self, event: str | None = None, round: int | None = None) -> list[tuple[list[Any], str]]:
        """The signed results that count nowhere until the organiser acts (organiser/counting.py), of
        `event` and/or `round` (as they would count), each (its summary, why: counting.HAND, PLAYERS,
        TABLE, DOUBLE), in the order of `results`."""
        return [(values, why) for values, why in self._reading(event, round) if why is not None]

    def set_aside(self) -> list[tuple[list[Any], dict[str, Any]]]:
        """The results an amendment in effect sets aside (counting nowhere), each (its summary as it
        would count, the amendment), oldest amendment first."""
        amended = self.amended()
        aside = {rid: e for rid, e in amended.items() if amend.is_aside(e)}
        originals = self._summaries_of(aside)
        return [(amend.apply(originals[rid], e), e) for rid, e in sorted(aside.items(), key=lambda x: x[1]["n"])
                if rid in originals]

    def _summaries_of(self, rids: Iterable[str]) -> dict[str, list[Any]]:
        """{id: its stored (signed) summary} of the results `rids` (unknown ids left out)."""
        ids = list(rids)
        out: dict[str, list[Any]] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            for rid, text in self._query(f"SELECT id, summary FROM results WHERE id IN ({', '.join('?' * len(chunk))})",
                                         tuple(chunk)):
                if text is None:
                    raise StoreError(f"{self.name}: result {rid}: its stored record is not valid JSON")
                out[rid] = json.loads(text)
        return out

    def _reading(self, event: str | None, round: int | None) -> Iterator[tuple[list[Any], str | None]]:
        """Every result of `event` and/or `round` as it counts, with why it is held (None: it counts):
        the signed results streamed in `results` order, merged with the few the plan brings from
        elsewhere (moved in, hand entries), each held or not by `counting`."""
        plan = self._plan(event, round)
        where, params = self._where(event, round)

        def signed() -> Iterator[tuple[list[Any], str | None]]:
            for rid, text in self._rows(f"SELECT id, summary FROM results{where} ORDER BY event, round, table_no, id",
                                        params):
                if rid in plan.placed:
                    continue          # moved (it comes from plan.extra where it counts) or set aside
                values = plan.counted(self.name, rid, text)
                yield values, plan.why(values)

        if not plan.extra:   # the usual day: nothing counts away from where it was stored
            yield from signed()
            return
        extra = sorted(plan.extra, key=lambda vw: counting.sort_key(vw[0]))
        yield from heapq.merge(signed(), extra, key=lambda vw: counting.sort_key(vw[0]))

    def _plan(self, event: str | None, round: int | None) -> _Plan:
        """What `_reading` needs besides the stream of `results` (organiser/counting.py): the amendments in
        effect, the results they place elsewhere, those moved into `event`/`round`, the hand entries in
        effect there, the tables as published, and the results sharing a game with another. A few
        small queries: the amendments and hand entries are few, and the doubles are found by SQLite."""
        amended = self.amended()
        names = self.names_now()     # every event's: a result may be moved in from another
        placed = {rid: e for rid, e in amended.items() if amend.places(e["changes"])}
        originals = self._summaries_of(placed)
        moved_in = [_named_now(v, names) for rid, e in placed.items() if rid in originals and not amend.is_aside(e)
                    and counting.in_filter(v := amend.apply(originals[rid], e), event, round)]
        hand = [_named_now(h["summary"], names) for h in self.hand_results(event, round)]
        plan = _Plan(amended, placed, {at for v in hand if (at := counting.slot(v)) is not None},
                     self._tables(event, round, names), names)
        # the games two signed results may share: as stored (SQLite groups them), and where moves put results
        where, params = self._where(event, round)
        # (the tables with two results first, by the index: the game's number is read from the summary
        # only there -- a match's tables -- never from every result)
        game = f"coalesce(json_extract(summary, '$[{counting.I_GAME}]'), 1)"
        shared: set[counting.Slot] = {
            (e, r, t, g) for e, r, t, g in self._query(
                f"SELECT event, round, table_no, {game} FROM results WHERE (event, round, table_no) IN"
                f" (SELECT event, round, table_no FROM results{where}{' AND' if where else ' WHERE'}"
                " event IS NOT NULL AND round IS NOT NULL AND table_no IS NOT NULL"
                " GROUP BY event, round, table_no HAVING count(*) > 1)"
                " GROUP BY event, round, table_no, 4 HAVING count(*) > 1", params)}
        shared |= {at for v in moved_in if (at := counting.slot(v)) is not None}
        members = [v for v in moved_in if counting.slot(v) in shared]
        for e, r, t in {at[:3] for at in shared}:
            for rid, text in self._query("SELECT id, summary FROM results WHERE event = ? AND round = ? AND table_no = ?",
                                         (e, r, t)):
                if rid not in placed and text is not None:
                    v = json.loads(text)
                    members.append(_named_now(amend.apply(v, amended[rid]) if rid in amended else v, names))
        plan.doubles = counting.doubles(v for v in members if counting.slot(v) in shared and plan.why(v) is None)
        plan.extra = [(v, plan.why(v)) for v in moved_in] + [(v, None) for v in hand]
        return plan

    def _tables(self, event: str | None, round: int | None,
                names: Mapping[tuple[str | None, str], str]) -> counting.Tables:
        """The published tables of `event`/`round` (counting.Tables): the pairings pushed to the clocks
        (each table's players, under their names now: `names`, names_now) and the boards of the rounds
        the PC published (a Sudoku competitor seated alone has a board, no pairing)."""
        where, params = self._where(event, round)
        and_where = where.replace(" WHERE ", " AND ")
        players = {(e, r, t): (names.get((e, a), a), names.get((e, b), b)) for e, r, t, a, b in self._query(
            f"SELECT event, round, table_no, left_player, right_player FROM pairings WHERE event IS NOT NULL{and_where}",
            params)}
        boards = [(e, r, b["table"]) for e, r, text in self._query(
                      f"SELECT event, round, boards FROM event_rounds WHERE state = 'published'{and_where}", params)
                  for b in json.loads(text) if b.get("right") is not None or b.get("note") == "alone"]
        return counting.Tables(players, boards)

    def names_now(self, event: str | None = None) -> dict[tuple[str | None, str], str]:
        """{(event, a former name): the name now} of the renamed players of the events the PC pairs (of
        `event` if given; issue 26): results and byes name players as the clocks recorded them, and every
        reader (`summaries`, `byes`, `latest_results`) reads them under the player's name now. Empty (one
        cheap query) when nobody was renamed."""
        sql = "SELECT event, name, aliases FROM event_players WHERE aliases <> '[]'"
        params: tuple[object, ...] = ()
        if event is not None:
            sql, params = sql + " AND event = ?", (event,)
        return {(ev, old): name for ev, name, aliases in self._query(sql, params) for old in json.loads(aliases)}

    def count_results(self) -> int:
        return int(self._query("SELECT count(*) FROM results")[0][0])

    def conflicts(self) -> list[dict[str, Any]]:
        """The results kept aside (same id as a stored one, other content), in arrival order; the
        shape of `result()`."""
        rows = self._query("SELECT c.id, c.record, c.sig, c.kid, r.serial, c.received_at, c.source"
                           " FROM conflicts c LEFT JOIN results r ON r.id = c.id ORDER BY c.n")
        return [self._result_dict(row) for row in rows]

    def export_jsonl(self, fileobj: IO[str], event: str | None = None) -> int:
        """Write every stored result (not the conflicts; of `event` if given) as one JSON line,
        ordered by id: the shape of `result()`, which `gameclock import` reads. Returns the number of
        lines written. Streamed row by row, and no record is parsed: its stored text is canonical
        JSON (keys sorted, compact, UTF-8 kept), which is what `json.dumps` of the parsed record
        writes again, so the line is put together from the texts as they are.

        A result the organiser amended has two more keys after them: "amendments", its whole trail
        (`amendments(rid)`, oldest first), and "amended", the number of the amendment in effect (null
        when all were withdrawn); the signed record is as it was. (`gameclock import` reads the signed
        record and leaves these.) With `event`: the results that count in it (those moved into it
        included, those moved out not; issue 26).

        Then every row of the organiser's hand entries (of `event`), oldest first, one line each:
        {"hand": {"n", "id", "event", "round", "table", "game", "record" (null: a withdrawal),
        "withdraws", "reason", "by", "at", "source"}} -- an organiser's record, no signature: `gameclock
        import` takes it as a hand entry only when told to (--hand), never as a signed result."""
        where, params = self._where(event, None)
        if event is not None:   # issue 26: the results that count in it, moved ones where they were moved
            placed = {rid: e for rid, e in self.amended().items() if amend.places(e["changes"])}
            originals = self._summaries_of(placed)
            moved_in = [r for r, e in placed.items() if r in originals and not amend.is_aside(e)
                        and amend.apply(originals[r], e)[counting.I_EVENT] == event]
            moved_out = [r for r in placed if r in originals and originals[r][counting.I_EVENT] == event
                         and r not in moved_in and not amend.is_aside(placed[r])]
            where = (f" WHERE (event = ? AND id NOT IN ({', '.join('?' * len(moved_out))}))"
                     f" OR id IN ({', '.join('?' * len(moved_in))})")
            params = (event, *moved_out, *moved_in)
        amended = self.amended()
        trails: dict[str, list[dict[str, Any]]] = {}
        for a in self.amendments():
            trails.setdefault(a["rid"], []).append(a)
        n = 0
        for rid, text, sig, kid, serial, received_at, source in self._rows(
                f"SELECT {self._RESULT_COLS} FROM results{where} ORDER BY id", params):
            extra = ""
            if rid in trails:
                trail = [{k: a[k] for k in ("n", "at", "by", "reason", "changes")} for a in trails[rid]]
                extra = f',"amendments":{_js(trail)},"amended":{_js(amended[rid]["n"] if rid in amended else None)}'
            fileobj.write(f'{{"id":{_js(rid)},"record":{text},"sig":{_js(sig)},"kid":{_js(kid)},'
                          f'"serial":{_js(serial)},"received_at":{_js(received_at)},"source":{_js(source)}'
                          f'{extra}}}\n')
            n += 1
        # issue 26: the organiser's hand entries, each row of their trails (entries and withdrawals) as one
        # line {"hand": {...}}: no "record", no "sig" -- never mistaken for a clock's signed result
        hwhere, hparams = self._where(event, None)
        for row in self._rows(f"SELECT {self._HAND_COLS} FROM hand_results{hwhere} ORDER BY n", hparams):
            fileobj.write(f'{{"hand":{canonical(self._hand_dict(row))}}}\n')
            n += 1
        return n

    # ------------------------------------------------------------------------------------ refusals

    def refusal(self, reason: str, detail: str = "", serial: str | None = None, rid: str | None = None,
                source: str = "") -> None:
        """Store one refusal (the caller logs it): a short reason code (`bad-signature`,
        `unenrolled`, ...), a detail for people, the clock and result id when known, where it came
        from (a port, `import:FILE:LINE`)."""
        with self._tx() as db:
            db.execute("INSERT INTO refusals (at, reason, detail, serial, rid, source) VALUES (?, ?, ?, ?, ?, ?)",
                       (now_utc(), reason, detail, serial, rid, source))

    def refusals(self) -> list[dict[str, Any]]:
        """Every refusal, oldest first: {"at", "reason", "detail", "serial", "rid", "source"}."""
        rows = self._query("SELECT at, reason, detail, serial, rid, source FROM refusals ORDER BY n")
        return [dict(zip(("at", "reason", "detail", "serial", "rid", "source"), r, strict=True)) for r in rows]

    # ------------------------------------------------------------------------------------ pairings

    def put_pairings(self, rows: Iterable[Mapping[str, Any]], byes: Iterable[Mapping[str, Any]] = ()) -> int:
        """Load pairings ({"event": str|None, "round", "table", "players": {"left", "right"}, and the
        set-up "level", "stage", "language", "preset": each a word, None or absent}), each
        replacing the one with the same (event, round, table), and the file's `byes` as `put_byes`
        does, in one transaction: all or none (ValueError on a bad row, nothing loaded). An empty
        event counts as none. A player loaded at a table loses a bye stored for the same event and
        round (a corrected pairing). Returns how many pairing rows were given."""
        parsed = [_pairing_row(row) for row in rows]
        parsed_byes = [_bye_row(row) for row in byes]
        now = now_utc()
        with self._tx() as db:
            self._write_pairings(db, parsed, parsed_byes, now)
        return len(parsed)

    def _write_pairings(self, db: sqlite3.Connection, parsed: list[PairingRow], parsed_byes: list[ByeRow],
                        now: str) -> None:
        if parsed:  # the docked clocks are told (dock_stamp): every writer of pairings comes through here
            rounds = sorted({(e or "", r) for e, r, *_ in parsed})
            self._dock_change(db, "pairings " + ", ".join(f"{e or '-'} round {r}" for e, r in rounds)[:300], "", now)
        for event, rnd, table, left, right, *rest in parsed:
            db.execute("DELETE FROM pairings WHERE event IS ? AND round = ? AND table_no = ?",
                       (event, rnd, table))
            db.execute(f"INSERT INTO pairings ({_PAIRING_COLS}, loaded_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (event, rnd, table, left, right, *rest, now))
            db.execute("DELETE FROM byes WHERE event IS ? AND round = ? AND player IN (?, ?)",
                       (event, rnd, left, right))
        self._write_byes(db, parsed_byes, now)

    @staticmethod
    def _write_byes(db: sqlite3.Connection, parsed: list[ByeRow], now: str) -> None:
        for event, rnd, player in parsed:
            db.execute("DELETE FROM byes WHERE event IS ? AND round = ? AND player = ?", (event, rnd, player))
            db.execute("INSERT INTO byes (event, round, player, loaded_at) VALUES (?, ?, ?, ?)",
                       (event, rnd, player, now))

    def put_byes(self, rows: Iterable[Mapping[str, Any]]) -> int:
        """Load byes ({"event": str|None, "round", "player"}; other keys, e.g. a pairings file's
        "line", are ignored), each replacing the one with the same (event, round, player); all or
        none (ValueError on a bad row). An empty event counts as none. Returns how many were given."""
        parsed = [_bye_row(row) for row in rows]
        with self._tx() as db:
            self._write_byes(db, parsed, now_utc())
        return len(parsed)

    def byes(self, event: str | None = None) -> list[dict[str, Any]]:
        """The byes loaded, of `event` if given (None: every event), ordered by event (none first),
        round, player: {"event", "round", "player", "loaded_at"}."""
        sql = "SELECT event, round, player, loaded_at FROM byes"
        params: tuple[object, ...] = ()
        if event is not None:
            sql, params = sql + " WHERE event = ?", (event,)
        rows = self._query(sql + " ORDER BY event, round, player", params)
        names = self.names_now(event)
        return [dict(zip(("event", "round", "player", "loaded_at"),
                         (ev, rnd, names.get((ev, player), player), at), strict=True)) for ev, rnd, player, at in rows]

    def pairing_for(self, event: str | None, table: int | None,
                    round: int | None = None) -> dict[str, Any] | None:
        """The pairing to push to the clock at `table`: of `round` if given, else of the highest round
        loaded for the event (a table missing from that round has none: an older round's names would
        be stale). Event None means the pairings loaded without an event, or, if there are none, the
        only event that has pairings (None when several do). None when nothing matches."""
        if table is None:
            return None
        if event is None and not self._query("SELECT 1 FROM pairings WHERE event IS NULL LIMIT 1"):
            events = self._query("SELECT DISTINCT event FROM pairings")
            if len(events) != 1:
                return None
            event = events[0][0]
        if round is None:
            top = self._query("SELECT max(round) FROM pairings WHERE event IS ?", (event,))[0][0]
            if top is None:
                return None
            round = top
        rows = self._query(f"SELECT {_PAIRING_COLS} FROM pairings"
                           " WHERE event IS ? AND round = ? AND table_no = ?", (event, round, table))
        return _pairing_dict(*rows[0]) if rows else None

    def pairings(self) -> list[dict[str, Any]]:
        """Every pairing loaded, ordered by event (none first), round, table."""
        rows = self._query(f"SELECT {_PAIRING_COLS} FROM pairings ORDER BY event, round, table_no")
        return [_pairing_dict(*r) for r in rows]

    # ------------------------------------------------------------------------------------ the clocks' tables

    def assign_clock(self, serial: str, event: str, table: int, by: str) -> str | None:
        """Clock `serial` serves table `table` of `event` from now on (issue 26): at its hello, and while it
        is docked, the PC sends it that table's pairing, whatever its own Event and Table settings say. A
        table of an event is one clock's: the clock that had it loses it, and its serial is returned (else
        None). The docked clocks are told (`dock_stamp`). ValueError for an event the clock could not keep
        (dock/pairing.py `clean_event`) or a table outside 1-999."""
        name, number = _assignable(event, table)
        now = now_utc()
        with self._tx() as db:
            row = db.execute("SELECT serial FROM clock_tables WHERE event = ? AND table_no = ? AND serial != ?",
                             (name, number, serial)).fetchone()
            before = db.execute("SELECT event, table_no FROM clock_tables WHERE serial = ?", (serial,)).fetchone()
            if before == (name, number):
                return None
            if row is not None:
                db.execute("DELETE FROM clock_tables WHERE serial = ?", (row[0],))
            db.execute("INSERT INTO clock_tables (serial, event, table_no, by_user, at) VALUES (?, ?, ?, ?, ?)"
                       " ON CONFLICT (serial) DO UPDATE SET event = excluded.event, table_no = excluded.table_no,"
                       " by_user = excluded.by_user, at = excluded.at", (serial, name, number, by, now))
            self._dock_change(db, f"clock {serial}: {name} table {number}"
                              + (f" (was {before[0]} table {before[1]})" if before else "")
                              + (f"; clock {row[0]} has no table now" if row else ""), by, now)
        return str(row[0]) if row else None

    def assign_in_order(self, event: str, serials: Iterable[str], by: str, first: int = 1) -> list[tuple[str, int]]:
        """"Assign tables in docking order": the clocks `serials`, in that order, each the lowest table of
        `event` from `first` that no other clock has, in one transaction (their tables of any event before
        are theirs no more). Returns [(serial, table)]. ValueError as `assign_clock`."""
        name, number = _assignable(event, first)
        order = list(dict.fromkeys(serials))
        now = now_utc()
        out: list[tuple[str, int]] = []
        with self._tx() as db:
            if order:
                db.execute(f"DELETE FROM clock_tables WHERE serial IN ({', '.join('?' * len(order))})", order)
            held = {r[0] for r in db.execute("SELECT table_no FROM clock_tables WHERE event = ?", (name,))}
            for serial in order:
                while number in held:
                    number += 1
                _assignable(name, number)
                db.execute("INSERT INTO clock_tables (serial, event, table_no, by_user, at) VALUES (?, ?, ?, ?, ?)",
                           (serial, name, number, by, now))
                held.add(number)
                out.append((serial, number))
            if out:
                self._dock_change(db, f"{name} in docking order: "
                                  + ", ".join(f"{s} table {t}" for s, t in out)[:300], by, now)
        return out

    def unassign_clock(self, serial: str, by: str) -> bool:
        """Clock `serial` serves no table any more (its own Event and Table settings pick its pairing
        again); False if it had none."""
        now = now_utc()
        with self._tx() as db:
            row = db.execute("SELECT event, table_no FROM clock_tables WHERE serial = ?", (serial,)).fetchone()
            if row is None:
                return False
            db.execute("DELETE FROM clock_tables WHERE serial = ?", (serial,))
            self._dock_change(db, f"clock {serial}: no table (was {row[0]} table {row[1]})", by, now)
        return True

    def assignment(self, serial: str) -> dict[str, Any] | None:
        """The table clock `serial` serves: {"event", "table", "by", "at"}, or None (its own settings say)."""
        rows = self._query("SELECT event, table_no, by_user, at FROM clock_tables WHERE serial = ?", (serial,))
        return dict(zip(("event", "table", "by", "at"), rows[0], strict=True)) if rows else None

    def assignments(self, event: str | None = None) -> list[dict[str, Any]]:
        """Every clock's table (of `event` if given), by event and table: {"serial", "event", "table", "by", "at"}."""
        sql = "SELECT serial, event, table_no, by_user, at FROM clock_tables"
        params: tuple[object, ...] = ()
        if event is not None:
            sql, params = sql + " WHERE event = ?", (event,)
        rows = self._query(sql + " ORDER BY event, table_no", params)
        return [dict(zip(("serial", "event", "table", "by", "at"), r, strict=True)) for r in rows]

    def dock_stamp(self) -> int:
        """The number of the newest change the docked clocks must be told of (pairings written, a clock's
        table changed; 0: none yet): one cheap query, which each port of the receiver and the desk asks
        every second (dock/pcside.py CHECK_NS), whichever process made the change."""
        return int(self._query("SELECT coalesce(max(n), 0) FROM dock_changes")[0][0])

    def dock_changes(self, limit: int = 20) -> list[dict[str, Any]]:
        """The newest `limit` of those changes, newest first: {"n", "at", "what", "by"}."""
        rows = self._query("SELECT n, at, what, by_user FROM dock_changes ORDER BY n DESC LIMIT ?", (limit,))
        return [dict(zip(("n", "at", "what", "by"), r, strict=True)) for r in rows]

    @staticmethod
    def _dock_change(db: sqlite3.Connection, what: str, by: str, now: str) -> None:
        db.execute("INSERT INTO dock_changes (at, what, by_user) VALUES (?, ?, ?)", (now, what, by))

    # ------------------------------------------------------------------------------------ events

    def create_event(self, event: Mapping[str, Any], players: Iterable[Mapping[str, Any]]) -> None:
        """A new event the PC pairs (issue 16): `event` {"name", "system", "rounds" (0: not said),
        "options" (a dict, kept as JSON), "language", "preset", "level" (None: not given)} and its
        players ({PLAYER_COLUMNS}: id and name, the rest "" or 0), in list order, in one transaction.
        The caller has checked them (organiser/event.py); StoreError if the event exists already."""
        name = event["name"]
        with self._tx() as db:
            if db.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone():
                raise StoreError(said.words("{db}: event {event} exists already (gameclock event show {event})", db=self.name,
                                       event=name))
            db.execute("INSERT INTO events (name, system, rounds, options, language, preset, level, created_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (name, event["system"], event["rounds"], canonical(event["options"]), event.get("language"),
                        event.get("preset"), event.get("level"), now_utc()))
            for n, p in enumerate(players, start=1):
                db.execute(f"INSERT INTO event_players (event, n, {_PLAYER_SQL}) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
                           " ?, ?, ?, ?)", (name, n, *(int(p.get(k) or 0) if k in ("board", "rating", "withdrawn")
                                                      else p.get(k) or "" for k in PLAYER_COLUMNS)))

    def event(self, name: str) -> dict[str, Any] | None:
        """The event `name` as create_event took it (options parsed, "created_at" added), with the lot it
        keeps ("lot": a dict, None before a round with one is published; "lot_at": since when), or None."""
        keys = ("name", "system", "rounds", "options", "language", "preset", "level", "created_at", "lot", "lot_at")
        rows = self._query(f"SELECT {', '.join(keys)} FROM events WHERE name = ?", (name,))
        if not rows:
            return None
        out = dict(zip(keys, rows[0], strict=True))
        out["options"] = json.loads(out["options"])
        out["lot"] = None if out["lot"] is None else json.loads(out["lot"])
        return out

    def events(self) -> list[str]:
        """Every event's name, sorted."""
        return [r[0] for r in self._query("SELECT name FROM events ORDER BY name")]

    def set_event_options(self, name: str, before: Mapping[str, Any], after: Mapping[str, Any],
                          changes: Iterable[tuple[str, Any, Any]], reason: str, by: str, published: int) -> list[int]:
        """The event's options become `after` and each change (key, before, after: None for not given) joins
        their audit trail with `reason` and who (`by`), in ONE transaction. The caller (event.set_options)
        checked the change against the options `before` and the `published` rounds it read: StoreError if
        either changed meanwhile (another desk or command), so a check never passes on stale rounds.
        Returns the trail entries' numbers."""
        now = now_utc()
        with self._tx() as db:
            row = db.execute("SELECT options FROM events WHERE name = ?", (name,)).fetchone()
            if row is None:
                raise StoreError(f"{self.name}: no event {name}")
            if json.loads(row[0]) != dict(before):
                raise StoreError(said.words("{db}: the options of {event} changed meanwhile: look at them again",
                                       db=self.name, event=name))
            count = db.execute("SELECT count(*) FROM event_rounds WHERE event = ? AND state = 'published'",
                               (name,)).fetchone()[0]
            if count != published:
                raise StoreError(said.words("{db}: a round of {event} was published meanwhile: look at the options again",
                                       db=self.name, event=name))
            db.execute("UPDATE events SET options = ? WHERE name = ?", (canonical(dict(after)), name))
            out = []
            for key, old, new in changes:
                cur = db.execute("INSERT INTO event_options (event, key, before, after, reason, by_user, at)"
                                 " VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 (name, key, None if old is None else canonical(old),
                                  None if new is None else canonical(new), reason, by, now))
                out.append(int(cur.lastrowid or 0))
        return out

    def event_option_changes(self, name: str) -> list[dict[str, Any]]:
        """The audit trail of the event's options, oldest first: {"n", "event", "key", "before", "after"
        (parsed; None: not given), "reason" ("" when none was needed), "by", "at"}."""
        rows = self._query("SELECT n, event, key, before, after, reason, by_user, at FROM event_options"
                           " WHERE event = ? ORDER BY n", (name,))
        keys = ("n", "event", "key", "before", "after", "reason", "by", "at")
        out = [dict(zip(keys, r, strict=True)) for r in rows]
        for e in out:
            e["before"] = None if e["before"] is None else json.loads(e["before"])
            e["after"] = None if e["after"] is None else json.loads(e["after"])
        return out

    def event_players(self, name: str) -> list[dict[str, Any]]:
        """The event's players in list order (late entries last): {PLAYER_COLUMNS} ("withdrawn" a bool)
        and {PLAYER_DURING}: "withdrawn_after" (the last round they were in; None while they play),
        "joined" (a late entry's first round; None for the list's players), "aliases" (former names)."""
        rows = self._query(f"SELECT {_PLAYER_SQL}, {', '.join(PLAYER_DURING)} FROM event_players WHERE event = ?"
                           " ORDER BY n", (name,))
        out = [dict(zip(PLAYER_COLUMNS + PLAYER_DURING, r, strict=True)) for r in rows]
        for p in out:
            p["withdrawn"] = bool(p["withdrawn"])
            p["aliases"] = json.loads(p["aliases"])
        return out

    @staticmethod
    def _published(db: sqlite3.Connection, name: str) -> int:
        return int(db.execute("SELECT count(*) FROM event_rounds WHERE event = ? AND state = 'published'",
                              (name,)).fetchone()[0])

    def _names_taken(self, db: sqlite3.Connection, name: str, new: str, but: str | None) -> None:
        """StoreError when `new` is the name or a former name (case-folded) of a player of event `name`
        other than `but`: the clocks and the standings know players by name."""
        for pid, now, aliases in db.execute("SELECT id, name, aliases FROM event_players WHERE event = ?", (name,)):
            if pid != but and new.casefold() in {n.casefold() for n in (now, *json.loads(aliases))}:
                raise StoreError(f"{self.name}: {new} is a name of player {pid} of {name} (changed meanwhile?)")

    def _player_change(self, db: sqlite3.Connection, name: str, pid: str, entries: Iterable[tuple[str, Any, Any]],
                       reason: str, by: str, now: str) -> list[int]:
        out = []
        for what, old, new in entries:
            cur = db.execute("INSERT INTO event_player_changes (event, player, what, before, after, reason, by_user,"
                             " at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (name, pid, what, None if old is None else canonical(old),
                              None if new is None else canonical(new), reason, by, now))
            out.append(int(cur.lastrowid or 0))
        return out

    def change_player(self, name: str, pid: str, before: Mapping[str, Any], after: Mapping[str, Any],
                      entries: Iterable[tuple[str, Any, Any]], reason: str, by: str, published: int) -> list[int]:
        """Player `pid` of event `name` gets the values `after` ({PLAYER_EDITS key: value}; "aliases" a
        list) and each change (what, before, after: JSON values, None for none) joins the players' audit
        trail with `reason` and who (`by`), in ONE transaction. The caller (organiser/event.py) checked the
        change against the values `before` and the `published` rounds it read: StoreError if either changed
        meanwhile (another desk or command), or a new name is another player's. Returns the entries' numbers."""
        now = now_utc()
        keys = list(after)
        with self._tx() as db:
            row = db.execute(f"SELECT {', '.join(PLAYER_EDITS[k] for k in keys)} FROM event_players"
                             " WHERE event = ? AND id = ?", (name, pid)).fetchone()
            if row is None:
                raise StoreError(f"{self.name}: no player {pid} in {name}")
            held = {k: json.loads(v) if k == "aliases" else v for k, v in zip(keys, row, strict=True)}
            if held != {k: int(before[k]) if k == "withdrawn" else before[k] for k in keys}:
                raise StoreError(f"{self.name}: player {pid} of {name} changed meanwhile: look again")
            if self._published(db, name) != published:
                raise StoreError(f"{self.name}: a round of {name} was published meanwhile: look again")
            if "name" in after and after["name"] != before["name"]:
                self._names_taken(db, name, after["name"], pid)
            db.execute(f"UPDATE event_players SET {', '.join(f'{PLAYER_EDITS[k]} = ?' for k in keys)}"
                       " WHERE event = ? AND id = ?",
                       (*(canonical(after[k]) if k == "aliases" else after[k] for k in keys), name, pid))
            return self._player_change(db, name, pid, entries, reason, by, now)

    def add_player(self, name: str, player: Mapping[str, Any], joined: int, reason: str, by: str,
                   published: int) -> int:
        """A late entry: `player` ({PLAYER_COLUMNS} but "withdrawn") joins event `name` after its list, from
        round `joined`, its entry ("late entry", None, the player with "joined") in the players' audit
        trail, in ONE transaction. StoreError if the id or the name is taken (a former name too) or a
        round was published since the caller read `published`. Returns the entry's number."""
        now = now_utc()
        with self._tx() as db:
            if db.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone() is None:
                raise StoreError(f"{self.name}: no event {name}")
            if self._published(db, name) != published:
                raise StoreError(f"{self.name}: a round of {name} was published meanwhile: look again")
            if db.execute("SELECT 1 FROM event_players WHERE event = ? AND id = ? COLLATE NOCASE",
                          (name, player["id"])).fetchone():
                raise StoreError(f"{self.name}: id {player['id']} is taken in {name}")
            self._names_taken(db, name, player["name"], None)
            n = db.execute("SELECT coalesce(max(n), 0) + 1 FROM event_players WHERE event = ?", (name,)).fetchone()[0]
            db.execute(f"INSERT INTO event_players (event, n, {_PLAYER_SQL}, joined) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
                       " ?, ?, ?, 0, ?)", (name, n, *(int(player.get(k) or 0) if k in ("board", "rating")
                                                       else player.get(k) or "" for k in PLAYER_COLUMNS[:-1]), joined))
            entry = {**{k: player.get(k) or (0 if k in ("board", "rating") else "") for k in PLAYER_COLUMNS[:-1]},
                     "joined": joined}
            [number] = self._player_change(db, name, str(player["id"]), [("late entry", None, entry)], reason, by, now)
        return number

    def player_changes(self, name: str) -> list[dict[str, Any]]:
        """The audit trail of the event's players, oldest first: {"n", "event", "player" (the id), "what"
        (a field's name, "withdrawn", "late entry"), "before", "after" (parsed; None: none), "reason",
        "by", "at"}."""
        rows = self._query("SELECT n, event, player, what, before, after, reason, by_user, at FROM event_player_changes"
                           " WHERE event = ? ORDER BY n", (name,))
        keys = ("n", "event", "player", "what", "before", "after", "reason", "by", "at")
        out = [dict(zip(keys, r, strict=True)) for r in rows]
        for e in out:
            e["before"] = None if e["before"] is None else json.loads(e["before"])
            e["after"] = None if e["after"] is None else json.loads(e["after"])
        return out

    def event_rounds(self, name: str) -> list[dict[str, Any]]:
        """The event's rounds, drafts and published, by round: {ROUND_KEYS} ("boards" and "notes" parsed:
        a list of board dicts, a list of lines: each a Note again where one was kept, gameclock/words.py)."""
        rows = self._query(f"SELECT {', '.join(ROUND_KEYS)} FROM event_rounds WHERE event = ? ORDER BY round",
                           (name,))
        out = [dict(zip(ROUND_KEYS, r, strict=True)) for r in rows]
        for r in out:
            r["boards"], r["notes"] = json.loads(r["boards"]), [note_of_json(n) for n in json.loads(r["notes"])]
            r["lot"] = None if r["lot"] is None else json.loads(r["lot"])
            r["words"] = [] if r["words"] is None else json.loads(r["words"])
        return out

    def put_draft(self, name: str, rnd: int, system: str, seed: int, boards: list[dict[str, Any]],
                  notes: list[str], edited: bool = False, lot: Mapping[str, Any] | None = None,
                  words: list[Any] | None = None, what: list[str] | None = None, by: str = "organiser",
                  version: int | None = None) -> int:
        """Keep round `rnd`'s draft (a new draw replaces the one before; `edited`: the organiser changed
        the boards, the draw's time stays) with the lot it pairs from (None: its system keeps none) and
        what it continues in words (JSON). Each put is the draft's next version (issue 26), kept in
        `draft_versions` with its boards, what the step did (`what`: lines), who (`by`) and when.
        `version`: the version the caller read, StaleDraft if the draft is another now (None: no check).
        StoreError if the round is published already. Returns the new version."""
        now = now_utc()
        with self._tx() as db:
            row = db.execute("SELECT state, drafted_at, version FROM event_rounds WHERE event = ? AND round = ?",
                             (name, rnd)).fetchone()
            if row is not None and row[0] == "published":
                raise StoreError(said.words("{db}: round {round} of {event} is published already", db=self.name, round=rnd,
                                       event=name))
            if version is not None and (row is None or row[2] != version):
                raise StaleDraft(f"{self.name}: the draft of round {rnd} of {name} changed meanwhile",
                                 None if row is None else row[2])
            drafted = row[1] if row is not None and edited else now
            new = db.execute("SELECT coalesce(max(version), 0) + 1 FROM draft_versions WHERE event = ?",
                             (name,)).fetchone()[0]
            db.execute("DELETE FROM event_rounds WHERE event = ? AND round = ?", (name, rnd))
            db.execute("INSERT INTO event_rounds (event, round, state, system, seed, boards, notes, drafted_at,"
                       " changed_at, lot, words, version) VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (name, rnd, system, seed, canonical(boards), canonical([as_json(n) for n in notes]), drafted,
                        now if edited else None, None if lot is None else canonical(lot), canonical(words or []), new))
            db.execute("INSERT INTO draft_versions (event, round, version, kind, boards, what, by_user, at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (name, rnd, new, "edit" if edited else "draw",
                                                            canonical(boards), canonical([as_json(w) for w in what or []]),
                                                            by, now))
        return int(new)

    def draft_versions(self, name: str) -> list[dict[str, Any]]:
        """Every version of the event's drafts (numbered through its rounds), oldest first: {"round",
        "version", "kind" ("draw": drawn by the system; "edit": the organiser's fix), "boards" (parsed),
        "what" (lines), "by", "at"}."""
        rows = self._query("SELECT round, version, kind, boards, what, by_user, at FROM draft_versions"
                           " WHERE event = ? ORDER BY version", (name,))
        return [{"round": r, "version": v, "kind": k, "boards": json.loads(b),
                 "what": [note_of_json(x) for x in json.loads(w)], "by": by, "at": at} for r, v, k, b, w, by, at in rows]

    def publish_round(self, name: str, rnd: int, pairings: Iterable[Mapping[str, Any]],
                      byes: Iterable[Mapping[str, Any]], version: int | None = None) -> None:
        """Round `rnd`'s draft becomes published and its tables go to `pairings` (for the clocks at
        docking: put_pairings's rows, "game" included) and its byes to `byes`, and the draft's lot (when
        it has one) becomes the event's, in ONE transaction. `version`: the draft's version the caller
        read and checked (StaleDraft when it is another now). StoreError if the round has no draft (or is
        published already); ValueError on a bad row."""
        parsed = [_pairing_row(row) for row in pairings]
        parsed_byes = [_bye_row(row) for row in byes]
        now = now_utc()
        with self._tx() as db:
            row = db.execute("SELECT state, version FROM event_rounds WHERE event = ? AND round = ?",
                             (name, rnd)).fetchone()
            if row is None:
                raise StoreError(said.words("{db}: round {round} of {event} has no draft to publish", db=self.name, round=rnd,
                                       event=name))
            if row[0] == "published":
                raise StoreError(said.words("{db}: round {round} of {event} is published already", db=self.name, round=rnd,
                                       event=name))
            if version is not None and row[1] != version:
                raise StaleDraft(f"{self.name}: the draft of round {rnd} of {name} changed meanwhile", row[1])
            db.execute("UPDATE event_rounds SET state = 'published', published_at = ? WHERE event = ? AND round = ?",
                       (now, name, rnd))
            db.execute("UPDATE events SET lot = (SELECT lot FROM event_rounds WHERE event = ? AND round = ?), lot_at = ?"
                       " WHERE name = ? AND (SELECT lot FROM event_rounds WHERE event = ? AND round = ?) IS NOT NULL",
                       (name, rnd, now, name, name, rnd))
            # the published round is the whole round: tables and byes loaded for it before (a pairing file) go
            db.execute("DELETE FROM pairings WHERE event IS ? AND round = ?", (name, rnd))
            db.execute("DELETE FROM byes WHERE event IS ? AND round = ?", (name, rnd))
            self._write_pairings(db, parsed, parsed_byes, now)

    def keep_lot(self, name: str, lot: Mapping[str, Any]) -> None:
        """The event keeps `lot` from now on without a round published (a knockout's final decided by
        lot after its last game: nothing more to pair). StoreError if there is no such event."""
        with self._tx() as db:
            if db.execute("UPDATE events SET lot = ?, lot_at = ? WHERE name = ?",
                          (canonical(lot), now_utc(), name)).rowcount != 1:
                raise StoreError(f"{self.name}: no event {name}")

    # ------------------------------------------------------------------------------------ the desk

    def setting(self, key: str) -> str | None:
        """The desk's setting `key` (desk_settings, migration 7), or None when not set."""
        rows = self._query("SELECT value FROM desk_settings WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_setting(self, key: str, value: str, only_if_unset: bool = False) -> bool:
        """Set the desk's setting `key`; `only_if_unset`: only when it has no value yet (the first
        start's password: two browsers racing set it once). Returns whether it was written."""
        with self._tx() as db:
            if only_if_unset and db.execute("SELECT 1 FROM desk_settings WHERE key = ?", (key,)).fetchone():
                return False
            db.execute("INSERT INTO desk_settings (key, value, changed_at) VALUES (?, ?, ?) ON CONFLICT (key)"
                       " DO UPDATE SET value = excluded.value, changed_at = excluded.changed_at",
                       (key, value, now_utc()))
        return True

    # ------------------------------------------------------------------------------------ the event's header (issue 28)

    def event_header(self, name: str) -> dict[str, str] | None:
        """The header the event's public pages show ({EVENT_HEADER}, texts as typed; "by", "at"), or None
        when none was set (migration 15)."""
        rows = self._query(f"SELECT {', '.join(EVENT_HEADER)}, by_user, at FROM event_pages WHERE event = ?", (name,))
        return dict(zip((*EVENT_HEADER, "by", "at"), rows[0], strict=True)) if rows else None

    def set_event_header(self, name: str, header: Mapping[str, str], by: str) -> None:
        """The event's header becomes `header` ({EVENT_HEADER}: texts, "" for none), set by `by`."""
        values = tuple(str(header.get(k) or "") for k in EVENT_HEADER)
        with self._tx() as db:
            db.execute(f"INSERT INTO event_pages (event, {', '.join(EVENT_HEADER)}, version, by_user, at)"
                       " VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (event) DO UPDATE SET"
                       f" {', '.join(f'{k} = excluded.{k}' for k in EVENT_HEADER)}, version = version + 1,"
                       " by_user = excluded.by_user, at = excluded.at", (name, *values, by, now_utc()))

    # ------------------------------------------------------------------------------------ the desk's accounts

    @staticmethod
    def fold(name: str) -> str:
        """An account name as it is looked up: NFKC, case folded (`Somchai` and `SOMCHAI` are one)."""
        return unicodedata.normalize("NFKC", name).casefold()

    def accounts(self) -> list[dict[str, Any]]:
        """The desk's accounts in the order they were made: {ACCOUNT_KEYS} ("disabled" a bool)."""
        rows = self._query(f"SELECT {', '.join(ACCOUNT_KEYS)} FROM desk_accounts ORDER BY rowid")
        return [{**dict(zip(ACCOUNT_KEYS, r, strict=True)), "disabled": bool(r[4])} for r in rows]

    def account(self, name: str) -> dict[str, Any] | None:
        """The account `name` (letter case aside: `fold`), or None."""
        rows = self._query(f"SELECT {', '.join(ACCOUNT_KEYS)} FROM desk_accounts WHERE folded = ?",
                           (self.fold(name),))
        return {**dict(zip(ACCOUNT_KEYS, rows[0], strict=True)), "disabled": bool(rows[0][4])} if rows else None

    def add_account(self, name: str, role: str, password: str, epoch: str, by: str, first: bool = False) -> bool:
        """A new account (`password`: its hash, desk/auth.py; `epoch`: its first session epoch), made
        `by` that account. `first`: the first start's organiser, only while there is no account (two
        browsers racing make it once): False when one came first. StoreError when the name is taken."""
        if role not in ACCOUNT_ROLES:
            raise ValueError(f"role {role!r} is not one of {', '.join(ACCOUNT_ROLES)}")
        now = now_utc()
        with self._tx() as db:
            if first and db.execute("SELECT 1 FROM desk_accounts").fetchone():
                return False
            if db.execute("SELECT 1 FROM desk_accounts WHERE folded = ?", (self.fold(name),)).fetchone():
                raise StoreError(said.words("the name {name} is taken: an account has it already", name=name))
            db.execute("INSERT INTO desk_accounts (name, folded, role, password, epoch, created_at, created_by,"
                       " changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (name, self.fold(name), role, password, epoch, now, by, now))
            self._account_change(db, name, "create", by, now)
        return True

    def _account_change(self, db: sqlite3.Connection, name: str, action: str, by: str, now: str) -> None:
        db.execute("INSERT INTO desk_account_changes (account, action, by_user, at) VALUES (?, ?, ?, ?)",
                   (name, action, by, now))

    def _the_account(self, db: sqlite3.Connection, name: str) -> tuple[str, str, int]:
        row = db.execute("SELECT name, role, disabled FROM desk_accounts WHERE folded = ?", (self.fold(name),)).fetchone()
        if row is None:
            raise StoreError(said.words("no account {name}", name=name))
        return row[0], row[1], row[2]

    def set_account_password(self, name: str, password: str, epoch: str, by: str) -> None:
        """A new password hash for account `name`, with a new session epoch (its sessions end), `by` whom."""
        now = now_utc()
        with self._tx() as db:
            real, _, _ = self._the_account(db, name)
            db.execute("UPDATE desk_accounts SET password = ?, epoch = ?, changed_at = ? WHERE name = ?",
                       (password, epoch, now, real))
            self._account_change(db, real, "password", by, now)

    def set_account_disabled(self, name: str, disabled: bool, epoch: str, by: str) -> None:
        """Disable (its sessions end: a new epoch) or enable account `name`, `by` whom. StoreError for
        the last enabled organiser's account: nobody could make accounts any more."""
        now = now_utc()
        with self._tx() as db:
            real, role, was = self._the_account(db, name)
            if bool(was) == disabled:
                return
            if disabled and role == "organiser" and db.execute(
                    "SELECT count(*) FROM desk_accounts WHERE role = 'organiser' AND disabled = 0").fetchone()[0] <= 1:
                raise StoreError(said.words("{name} is the last organiser's account: make another organiser's account "
                                       "before disabling it", name=real))
            db.execute("UPDATE desk_accounts SET disabled = ?, epoch = ?, changed_at = ? WHERE name = ?",
                       (int(disabled), epoch, now, real))
            self._account_change(db, real, "disable" if disabled else "enable", by, now)

    def set_account_epoch(self, name: str, epoch: str) -> None:
        """A new session epoch for account `name` (a logout: every session of it ends, copies too)."""
        with self._tx() as db:
            db.execute("UPDATE desk_accounts SET epoch = ? WHERE folded = ?", (epoch, self.fold(name)))

    def account_changes(self) -> list[dict[str, Any]]:
        """The accounts' trail, oldest first: {"n", "account", "action" (migrate, create, disable,
        enable, password), "by", "at"}."""
        rows = self._query("SELECT n, account, action, by_user, at FROM desk_account_changes ORDER BY n")
        return [dict(zip(("n", "account", "action", "by", "at"), r, strict=True)) for r in rows]

    def add_amendment(self, rid: str, changes: Mapping[str, Any], reason: str, by: str) -> int:
        """Keep the organiser's amendment of result `rid` beside its signed record (which never
        changes): `changes` (organiser/amendments.py: summary paths and what the result should have at
        them, `amendments.changes_for`; or a withdrawal, `withdraw_amendment`), the `reason`
        (required), who. Returns its number; StoreError for an unknown result, ValueError for an
        empty reason or changes that are not an amendment."""
        if not reason.strip():
            raise ValueError("an amendment needs a reason")
        amend.check(changes)
        with self._tx() as db:
            row = db.execute("SELECT summary FROM results WHERE id = ?", (rid,)).fetchone()
            if row is None:
                raise StoreError(f"{self.name}: no result {rid}")
            trail = self._amendment_rows(db, rid)
            current = amend.in_effect(trail)
            if amend.is_withdrawal(changes):
                if current is None or current["n"] != changes[amend.WITHDRAWS]:
                    raise ValueError(said.words("amendment {n} is not the one in effect for {result}",
                                                n=changes[amend.WITHDRAWS], result=rid))
                after = amend.in_effect([*trail, {"n": 0, "at": "", "by": "", "reason": "", "changes": changes}])
            else:
                after = {"n": 0, "at": "", "by": "", "reason": "", "changes": changes}
            # a move (issue 26) onto a game that counts or holds another result already is refused; a
            # withdrawal may put a result back where the clock said even so: it is held there, to be decided
            if (not amend.is_withdrawal(changes) and not amend.is_aside(after) and row[0] is not None
                    and any(p in changes for p in amend.PLACE)):
                at = counting.slot(amend.apply(json.loads(row[0]), after))
                if at is not None:
                    there = [x for x in self._at_slot(at) if x != rid]
                    if there:
                        where = (said.words("round {round} table {table}", round=at[1], table=at[2]) if at[3] == 1
                                 else said.words("round {round} table {table} game {game}", round=at[1], table=at[2],
                                                 game=at[3]))
                        raise StoreError(said.words("{where} of {event} has its result already ({results}): set "
                                                    "that aside or move it first",
                                                    where=where, event=at[0], results=", ".join(there)))
            cur = db.execute("INSERT INTO amendments (rid, changes, reason, by_user, at) VALUES (?, ?, ?, ?, ?)",
                             (rid, canonical(dict(changes)), reason.strip(), by, now_utc()))
        return int(cur.lastrowid or 0)

    def withdraw_amendment(self, rid: str, n: int, reason: str, by: str) -> int:
        """Withdraw amendment `n` of result `rid`, the one in effect: a new entry of the trail (with its
        reason), never a deletion; what was in effect before `n` counts again (the signed record when
        nothing was). Returns the entry's number; ValueError when `n` is not the amendment in effect."""
        return self.add_amendment(rid, amend.withdrawal(n), reason, by)

    @staticmethod
    def _amendment_rows(db: sqlite3.Connection, rid: str) -> list[dict[str, Any]]:
        rows = db.execute("SELECT n, rid, changes, reason, by_user, at FROM amendments WHERE rid = ? ORDER BY n",
                          (rid,)).fetchall()
        return [_amendment_dict(r) for r in rows]

    def _at_slot(self, at: counting.Slot) -> list[str]:
        """The ids of the results at game `at` (event, round, table, game) as they count or are held
        there: signed ones (not set aside) and the hand entry in effect."""
        out = [values[counting.I_ID] for values, _ in self._reading(at[0], at[1]) if counting.slot(values) == at]
        return out

    # ------------------------------------------------------------------------------------ hand entries

    _HAND_COLS = "n, id, event, round, table_no, game, record, withdraws, reason, by_user, at, source"

    @staticmethod
    def _hand_dict(row: tuple[Any, ...]) -> dict[str, Any]:
        n, hid, event, rnd, table, game, record, withdraws, reason, by, at, source = row
        return {"n": n, "id": hid, "event": event, "round": rnd, "table": table, "game": game,
                "record": None if record is None else json.loads(record), "withdraws": withdraws,
                "reason": reason, "by": by, "at": at, "source": source}

    def put_hand_result(self, record: Mapping[str, Any], reason: str, by: str, replaces: str | None = None,
                        source: str = "desk", at: str | None = None) -> str:
        """Keep the organiser's hand entry of a game's result (issue 26: its clock died): `record` (the
        organiser's record, organiser/handentry.py: event, round, table, game, players and the result
        as the rules make it; its id is given here, `hand:N`, never a clock's `SERIAL-SEQ`), why, who.
        It counts at its game (`summaries`), never as a signed result: it is not in `results`. `source`:
        where it was entered (`desk`; `import:FILE:LINE`, with its own time `at`, for one another PC's
        organiser entered: `gameclock import --hand`).
        `replaces`: the hand entry in effect the organiser corrects (the form showed it): StoreError when
        the game has another one in effect (another tab, another arbiter), or a signed result counts
        or is held there (amend that instead). Returns the entry's id."""
        if not reason.strip():
            raise ValueError("a hand entry needs a reason")
        event, numbers = record.get("event"), (record.get("round"), record.get("table"), record.get("game") or 1)
        if not isinstance(event, str) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1
                                                 for v in numbers):
            raise ValueError("a hand entry names its event, round, table and game")
        slot: counting.Slot = (event, int(numbers[0] or 0), int(numbers[1] or 0), int(numbers[2]))
        with self._tx() as db:
            current = self._hand_current(db, slot)
            if (current["id"] if current else None) != replaces:
                raise StoreError(said.words("round {round} table {table} of {event} has the hand entry {id} now: "
                                            "look at it again", round=slot[1], table=slot[2], event=slot[0],
                                            id=current["id"]) if current else
                                 said.words("round {round} table {table} of {event} has no hand entry now: look at "
                                            "it again", round=slot[1], table=slot[2], event=slot[0]))
            signed = [x for x in self._at_slot(slot) if not x.startswith(HAND_PREFIX)]
            if signed:
                raise StoreError(said.words("round {round} table {table} of {event} has the clock's result {ids}: "
                                            "amend it (or, a wrong upload, move it or set it aside) instead",
                                            round=slot[1], table=slot[2], event=slot[0], ids=", ".join(signed)))
            n = int((db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'hand_results'").fetchone() or (0,))[0]) + 1
            hid = f"{HAND_PREFIX}{n:06d}"
            text = canonical({**record, "id": hid})
            db.execute("INSERT INTO hand_results (n, id, event, round, table_no, game, record, summary, reason,"
                       f" by_user, at, source) SELECT ?, ?, ?, ?, ?, ?, record, {summary.SQL}, ?, ?, ?, ?"
                       " FROM (SELECT ? AS record)", (n, hid, *slot, reason.strip(), by, at or now_utc(), source, text))
        return hid

    def withdraw_hand_result(self, hid: str, reason: str, by: str, source: str = "desk", at: str | None = None) -> str:
        """Withdraw the hand entry `hid` (the one in effect for its game: a clock's result is taken instead,
        or it was entered at the wrong table): a new row of the game's trail with its reason, never a
        deletion. Returns the row's id; ValueError when `hid` is not in effect."""
        if not reason.strip():
            raise ValueError("a withdrawal needs a reason")
        with self._tx() as db:
            row = db.execute(f"SELECT {self._HAND_COLS} FROM hand_results WHERE id = ?", (hid,)).fetchone()
            if row is None:
                raise StoreError(said.words("no hand entry {id}", id=hid))
            entry = self._hand_dict(row)
            slot = (entry["event"], entry["round"], entry["table"], entry["game"])
            current = self._hand_current(db, slot)
            if current is None or current["id"] != hid:
                raise ValueError(said.words("the hand entry {id} is not the one in effect for its game", id=hid))
            n = int((db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'hand_results'").fetchone() or (0,))[0]) + 1
            wid = f"{HAND_PREFIX}{n:06d}"
            db.execute("INSERT INTO hand_results (n, id, event, round, table_no, game, record, summary, withdraws,"
                       " reason, by_user, at, source) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?)",
                       (n, wid, *slot, hid, reason.strip(), by, at or now_utc(), source))
        return wid

    def _hand_current(self, db: sqlite3.Connection, at: tuple[Any, ...]) -> dict[str, Any] | None:
        """The hand entry in effect for game `at` (event, round, table, game), or None."""
        row = db.execute(f"SELECT {self._HAND_COLS} FROM hand_results WHERE event = ? AND round = ? AND table_no = ?"
                         " AND game = ? ORDER BY n DESC LIMIT 1", tuple(at)).fetchone()
        return None if row is None or row[6] is None else self._hand_dict(row)

    def hand_row_like(self, row: Mapping[str, Any]) -> str | None:
        """The id of this PC's hand entry row of the same game entered at the same time by the same person
        for the same reason (an entry, or a withdrawal when `row["record"]` is None), or None: how
        `gameclock import --hand` knows a row it took before."""
        rows = self._query("SELECT id FROM hand_results WHERE event = ? AND round = ? AND table_no = ? AND game = ?"
                           " AND at = ? AND by_user = ? AND reason = ? AND (record IS NULL) = ?",
                           (row["event"], row["round"], row["table"], row["game"], row["at"], row["by"],
                            row["reason"], row["record"] is None))
        return str(rows[0][0]) if rows else None

    def hand_results(self, event: str | None = None, round: int | None = None) -> list[dict[str, Any]]:
        """The hand entries in effect (of `event` and/or `round`), by event, round, table, game: {"n", "id",
        "event", "round", "table", "game", "record", "withdraws" (None), "reason", "by", "at", "source",
        "summary" (as `summaries` hands it out: the record's, with its mark at counting.HAND_MARK)}."""
        where, params = self._where(event, round, "h")
        rows = self._query(f"SELECT {', '.join('h.' + c for c in self._HAND_COLS.split(', '))}, h.summary"
                           f" FROM hand_results h{where}{' AND' if where else ' WHERE'} h.record IS NOT NULL"
                           " AND h.n = (SELECT max(n) FROM hand_results x WHERE x.event = h.event AND x.round = h.round"
                           " AND x.table_no = h.table_no AND x.game = h.game)"
                           " ORDER BY h.event, h.round, h.table_no, h.game", params)
        out = []
        for row in rows:
            entry = self._hand_dict(row[:-1])
            values = json.loads(row[-1])
            entry["summary"] = [*values, None, {k: entry[k] for k in ("id", "n", "at", "by", "reason")}]
            out.append(entry)
        return out

    def hand_result(self, hid: str) -> dict[str, Any] | None:
        """The row `hid` of the hand entries (an entry, or a withdrawal: "record" None, "withdraws" its id),
        with "in_effect" (whether it is the game's hand entry now) and "trail" (every row of its game,
        oldest first); None for an unknown id."""
        rows = self._query(f"SELECT {self._HAND_COLS} FROM hand_results WHERE id = ?", (hid,))
        if not rows:
            return None
        entry = self._hand_dict(rows[0])
        trail = self.hand_trail(entry["event"], entry["round"], entry["table"], entry["game"])
        entry["trail"] = trail
        entry["in_effect"] = entry["record"] is not None and trail[-1]["id"] == hid
        return entry

    def hand_trail(self, event: str, round: int, table: int, game: int | None = None) -> list[dict[str, Any]]:
        """Every row of the hand entries of a table (of one `game` if given), oldest first."""
        sql = f"SELECT {self._HAND_COLS} FROM hand_results WHERE event = ? AND round = ? AND table_no = ?"
        params: tuple[object, ...] = (event, round, table)
        if game is not None:
            sql, params = sql + " AND game = ?", (*params, game)
        return [self._hand_dict(r) for r in self._query(sql + " ORDER BY n", params)]

    # ------------------------------------------------------------------------------------ deleting an event

    def delete_event(self, name: str, reason: str, by: str) -> int:
        """Delete the event `name` -- made by mistake (a typo in its name), or the phantom a wrong upload
        made once its results are moved -- with everything the PC keeps of it (its players and their
        changes, rounds and draft versions, option changes, pairings, byes and the clocks assigned to its
        tables), kept whole in
        `deleted_events` with why and who, in ONE transaction.
        StoreError when a result counts or is held in it (move or set it aside first), or when the PC has
        nothing of it. Returns the entry's number."""
        if not reason.strip():
            raise ValueError("deleting an event needs a reason")
        with self._tx() as db:
            real = [values[counting.I_ID] for values, _ in self._reading(name, None)]
            if real:
                raise StoreError(said.words("{event} has {n} results ({ids}): move them to their event or set "
                                            "them aside first", event=name, n=len(real), ids=said.listed_words(real, 3))
                                 if len(real) > 1 else
                                 said.words("{event} has 1 result ({ids}): move it to its event or set it aside first",
                                            event=name, ids=real[0]))
            before: dict[str, Any] = {}
            for key, table, column in (("event", "events", "name"), ("players", "event_players", "event"),
                                       ("rounds", "event_rounds", "event"), ("options", "event_options", "event"),
                                       ("player_changes", "event_player_changes", "event"),
                                       ("draft_versions", "draft_versions", "event"),
                                       ("pairings", "pairings", "event"), ("byes", "byes", "event"),
                                       ("clock_tables", "clock_tables", "event")):
                cur = db.execute(f"SELECT * FROM {table} WHERE {column} = ?", (name,))
                cols = [d[0] for d in cur.description]
                before[key] = [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]
            if not any(before.values()):
                raise StoreError(said.words("no event {event} to delete", event=name))
            before["event"] = before["event"][0] if before["event"] else None
            for table, column in (("event_options", "event"), ("event_player_changes", "event"),
                                  ("draft_versions", "event"), ("event_players", "event"), ("event_rounds", "event"),
                                  ("events", "name"), ("pairings", "event"), ("byes", "event"),
                                  ("clock_tables", "event")):
                db.execute(f"DELETE FROM {table} WHERE {column} = ?", (name,))
            if before["pairings"] or before["clock_tables"]:   # the docked clocks are told (its pairings gone)
                self._dock_change(db, f"{name} deleted", by, now_utc())
            cur = db.execute("INSERT INTO deleted_events (event, before, reason, by_user, at) VALUES (?, ?, ?, ?, ?)",
                             (name, canonical(before), reason.strip(), by, now_utc()))
        return int(cur.lastrowid or 0)

    def deleted_events(self) -> list[dict[str, Any]]:
        """The events deleted at the desk, oldest first: {"n", "event", "before" (everything the PC kept of
        it, by table), "reason", "by", "at"}."""
        rows = self._query("SELECT n, event, before, reason, by_user, at FROM deleted_events ORDER BY n")
        return [{"n": n, "event": e, "before": json.loads(b), "reason": r, "by": by, "at": at}
                for n, e, b, r, by, at in rows]

    def amended(self, event: str | None = None, round: int | None = None) -> dict[str, dict[str, Any]]:
        """{result id: its amendment in effect} for the results (of `event` and/or `round`) that have
        one: what `summaries` applies. One query; the organiser's amendments are few."""
        where, params = self._where(event, round, "r")
        rows = self._query("SELECT a.n, a.rid, a.changes, a.reason, a.by_user, a.at FROM amendments a"
                           f" JOIN results r ON r.id = a.rid{where} ORDER BY a.n", params)
        trails: dict[str, list[dict[str, Any]]] = {}
        for entry in map(_amendment_dict, rows):
            trails.setdefault(entry["rid"], []).append(entry)
        out = {}
        for rid, trail in trails.items():
            current = amend.in_effect(trail)
            if current is not None:
                out[rid] = dict(current)
        return out

    def amendments(self, rid: str | None = None) -> list[dict[str, Any]]:
        """The amendments (of result `rid` if given), oldest first: {"n", "rid", "changes" (parsed),
        "reason", "by", "at"}."""
        sql = "SELECT n, rid, changes, reason, by_user, at FROM amendments"
        params: tuple[object, ...] = ()
        if rid is not None:
            sql, params = sql + " WHERE rid = ?", (rid,)
        return [_amendment_dict(r) for r in self._query(sql + " ORDER BY n", params)]

    def result_events(self) -> list[str]:
        """The events results count or are held in (not null), sorted: where the stored results were
        played, less those moved away or set aside (issue 26: a wrong upload's phantom event goes once
        its results are moved), plus the events of hand entries."""
        counts = Counter({e: n for e, n in self._query("SELECT event, count(*) FROM results WHERE event IS NOT NULL"
                                                      " GROUP BY event")})
        placed = {rid: e for rid, e in self.amended().items() if amend.places(e["changes"])}
        for rid, values in self._summaries_of(placed).items():
            counts[values[counting.I_EVENT]] -= 1
            if not amend.is_aside(placed[rid]):
                counts[amend.apply(values, placed[rid])[counting.I_EVENT]] += 1
        hand = {h["event"] for h in self.hand_results()}
        return sorted({e for e, n in counts.items() if n > 0 and e is not None} | hand)

    # ------------------------------------------------------------------ the hall's wall (issue 28)
    @staticmethod
    def announcement_text(text: object) -> str:
        """An announcement as kept: its whitespace (new lines, tabs) one space, control and format
        characters gone (a typed text is hostile: a bidi override or a zero-width run would garble the
        wall); StoreError when nothing is left or it is longer than ANNOUNCEMENT_MAX characters."""
        raw = str(text) if text is not None else ""
        kept = "".join(" " if c.isspace() else c for c in raw
                       if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
        kept = " ".join(kept.split())
        if not kept:
            raise StoreError(said.words("an announcement needs a text"))
        if len(kept) > ANNOUNCEMENT_MAX:
            raise StoreError(said.words("an announcement is at most {n} characters ({got} typed)",
                                        n=ANNOUNCEMENT_MAX, got=len(kept)))
        return kept

    def _wall_change(self, db: sqlite3.Connection, event: str, what: str, by: str, now: str) -> None:
        db.execute("INSERT INTO wall_changes (event, what, by_user, at) VALUES (?, ?, ?, ?)", (event, what, by, now))

    def add_announcement(self, event: str, text: object, by: str) -> int:
        """Show `text` (announcement_text) on the event's projector; its number. StoreError when the event
        shows ANNOUNCEMENTS_SHOWN already (one must be removed first)."""
        kept = self.announcement_text(text)
        now = now_utc()
        with self._tx() as db:
            shown = db.execute("SELECT count(*) FROM wall_announcements WHERE event = ? AND removed_at IS NULL",
                               (event,)).fetchone()[0]
            if shown >= ANNOUNCEMENTS_SHOWN:
                raise StoreError(said.words("the projector shows {n} announcements at most: remove one first",
                                            n=ANNOUNCEMENTS_SHOWN))
            n = db.execute("INSERT INTO wall_announcements (event, text, by_user, at) VALUES (?, ?, ?, ?)",
                           (event, kept, by, now)).lastrowid
            self._wall_change(db, event, f"announcement {n} added", by, now)
        return int(n or 0)

    def remove_announcement(self, event: str, n: int, by: str) -> bool:
        """Take announcement `n` of `event` off the projector (kept, with who and when); False when it
        is not shown."""
        now = now_utc()
        with self._tx() as db:
            cur = db.execute("UPDATE wall_announcements SET removed_by = ?, removed_at = ? WHERE event = ? AND n = ?"
                             " AND removed_at IS NULL", (by, now, event, n))
            if not cur.rowcount:
                return False
            self._wall_change(db, event, f"announcement {n} removed", by, now)
        return True

    def announcements(self, event: str) -> list[dict[str, Any]]:
        """The event's announcements shown now, oldest first: {"n", "text", "by", "at"}."""
        rows = self._query("SELECT n, text, by_user, at FROM wall_announcements WHERE event = ? AND removed_at IS NULL"
                           " ORDER BY n", (event,))
        return [dict(zip(("n", "text", "by", "at"), r, strict=True)) for r in rows]

    def start_round(self, event: str, rnd: int, started_ns: int, by: str) -> None:
        """Round `rnd` of `event` started at `started_ns` (nanoseconds since the Unix epoch, UTC: a wall
        time, not the monotonic one, because the round clock must survive the desk's restart and the PC's
        reboot); pressed again, the round starts again then (a false start)."""
        now = now_utc()
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO round_starts (event, round, started_ns, by_user, at)"
                       " VALUES (?, ?, ?, ?, ?)", (event, int(rnd), int(started_ns), by, now))
            self._wall_change(db, event, f"round {int(rnd)} started", by, now)

    def round_started(self, event: str, rnd: int) -> int | None:
        """When round `rnd` of `event` was started (ns since the Unix epoch), or None."""
        rows = self._query("SELECT started_ns FROM round_starts WHERE event = ? AND round = ?", (event, int(rnd)))
        return int(rows[0][0]) if rows else None

    def wall_changes(self, event: str) -> list[dict[str, Any]]:
        """The trail of the event's wall, oldest first: {"n", "what", "by", "at"}."""
        rows = self._query("SELECT n, what, by_user, at FROM wall_changes WHERE event = ? ORDER BY n", (event,))
        return [dict(zip(("n", "what", "by", "at"), r, strict=True)) for r in rows]

    def live_stamp(self) -> tuple[Any, ...]:
        """What changes when something the desk shows changes, in one cheap query: the newest result's
        rowid, the organiser's newest amendment, hand entry or deletion (one text), the rounds' latest draft or publication, the pairings' latest
        load, the clocks' latest hello, the players' newest change (a withdrawal, a reinstatement, a late entry, an
        edit: issue 26), the wall's newest change (an announcement, a round started: issue 28), the events' headers'
        edits (issue 28). The desk polls it (a few times a second) for its live pages."""
        return tuple(self._query(
            "SELECT (SELECT max(rowid) FROM results),"
            # the organiser's changes of what counts: amendments (moves, set-asides), hand entries, deletions
            " (SELECT coalesce(max(n), 0) FROM amendments) || '/' || (SELECT coalesce(max(n), 0) FROM hand_results)"
            " || '/' || (SELECT coalesce(max(n), 0) FROM deleted_events),"
            " (SELECT max(max(drafted_at, coalesce(changed_at, ''), coalesce(published_at, ''))) FROM event_rounds),"
            " (SELECT max(loaded_at) FROM pairings), (SELECT max(last_seen) FROM clocks),"
            " (SELECT coalesce(max(n), 0) FROM event_player_changes),"
            " (SELECT coalesce(max(n), 0) FROM wall_changes),"
            # issue 28: an event's header edited (every public page shows it)
            " (SELECT coalesce(sum(version), 0) FROM event_pages)")[0])

    def results_after(self, rowid: int, limit: int = 100) -> list[dict[str, Any]]:
        """The results stored after rowid `rowid` (live_stamp's first value), oldest first, at most
        `limit`: {"rowid", "id", "event", "round", "table"}."""
        rows = self._query("SELECT rowid, id, event, round, table_no FROM results WHERE rowid > ? ORDER BY rowid"
                           " LIMIT ?", (rowid, limit))
        return [dict(zip(("rowid", "id", "event", "round", "table"), r, strict=True)) for r in rows]

    def latest_results(self, event: str, limit: int = 10) -> list[list[Any]]:
        """The summaries of the event's `limit` results stored last, newest first, as `summaries` hands
        them out (amended, moved in, hand entries by the time they were entered; held ones left out)."""
        plan = self._plan(event, None)
        timed: list[tuple[str, list[Any]]] = []
        for rid, text, received in self._rows("SELECT id, summary, received_at FROM results WHERE event = ?"
                                              " AND summary IS NOT NULL ORDER BY rowid DESC", (event,), batch=64):
            if rid in plan.placed:
                continue
            values = json.loads(text)
            values = amend.apply(values, plan.amended[rid]) if rid in plan.amended else values
            values = _named_now(values, plan.names) if plan.names else values
            if plan.why(values) is None:
                timed.append((received, values))
                if len(timed) >= limit:
                    break
        moved = {values[counting.I_ID]: values for values, why in plan.extra
                 if why is None and len(values) <= counting.HAND_MARK}
        for i in range(0, len(moved), 500):
            chunk = list(moved)[i:i + 500]
            timed += [(received, moved[rid]) for rid, received in self._query(
                f"SELECT id, received_at FROM results WHERE id IN ({', '.join('?' * len(chunk))})", tuple(chunk))]
        timed += [(values[counting.HAND_MARK]["at"], values) for values, _ in plan.extra
                  if len(values) > counting.HAND_MARK]
        timed.sort(key=lambda tv: tv[0], reverse=True)
        return [values for _, values in timed[:limit]]
