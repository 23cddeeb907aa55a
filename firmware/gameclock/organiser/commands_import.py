"""`gameclock import FILE.jsonl [--db FILE] [--keys-from OTHER.sqlite]`: merge the results another
organiser PC collected (its `Store.export_jsonl`) into this PC's database.

Each line is one stored result, {"id", "record", "sig", "kid", "serial", "received_at", "source"}.
Nothing is taken on trust: a line is stored only if its record passes the schema
(`gameclock.record.schema_errors`), its id and serial are the record's own, and its signature
verifies under this PC's key (serial, kid) -- HMAC-SHA256 over b"result\\n" + canonical(record),
as a clock signs it. `--keys-from` first copies the other PC's keys (read-only on that file).

A key is judged by its state on this PC now, never by what the file says (issue 24 B3): a result signed
with a revoked key is refused (`revoked`) unless this PC already holds that very result (then it is a
duplicate). The line's `received_at` is the other PC's word; whoever stole a key can write it too.

Each line is read through `gameclock.boundedjson` (at most MAX_LINE_BYTES, nesting at most 32 deep,
no NaN or 30-digit integers): a line nested 100,000 deep stopped the whole import with a RecursionError
(issue 13 hole 8); now it is one refused line (`too-deep`) and the import goes on. The file is read a
line at a time (never more than MAX_LINE_BYTES of a line is held) and must be a regular file.

A line `{"hand": {...}}` is the other PC's organiser's hand entry of a game (issue 26: a dead clock;
Store.export_jsonl): an organiser's record, not signed, so never a result here. It is taken only with
`--hand`, as a hand entry of this PC (its trail row replayed: an entry, or the withdrawal of one taken
before; `source` import:FILE:LINE, its person and time kept; a row taken before is a duplicate), and
refused (`hand-conflict`) where this PC has a clock's result for that game; without `--hand` it is
counted and named on stderr, not taken.

A refused line is stored in `refusals` (source `import:FILE:LINE`) and reported on stderr as
`FILE:LINE: reason: detail`; the summary on stdout reads "N stored, M duplicates, K conflicts,
R refused". Exit status 0 if nothing was refused, 1 otherwise (also when the database or the file
cannot be used). Importing the same file again stores nothing new (duplicates).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any, BinaryIO

from gameclock import boundedfile, boundedjson
from gameclock.dataerrors import display_path, printable
from gameclock.dock.sign import same, sign_result
from gameclock.organiser.store import Store, StoreError, canonical, default_db_path
from gameclock.record import record_id, schema_errors

LINE_KEYS = ("id", "record", "sig", "kid", "serial", "received_at", "source")
# A line is a stored result and its envelope; a record travels in one dock frame (dock/frame.py MAX_LINE,
# 256 KiB), so twice that holds any line an export writes.
MAX_LINE_BYTES = 512 * 1024


class Refused(Exception):
    """A line that is not stored: `reason` is a short code, the message a detail for people."""

    def __init__(self, reason: str, detail: str, serial: str | None = None, rid: str | None = None):
        super().__init__(detail)
        self.reason, self.detail, self.serial, self.rid = reason, detail, serial, rid


@dataclass
class Summary:
    """What an import did, counted per line."""
    stored: int = 0
    duplicates: int = 0
    conflicts: int = 0
    refused: int = 0
    hand: int = 0           # hand entry rows taken (--hand)
    hand_left: int = 0      # hand entry rows not taken (no --hand)

    def __str__(self) -> str:
        text = (f"{self.stored} stored, {self.duplicates} duplicates, {self.conflicts} conflicts, "
                f"{self.refused} refused")
        if self.hand:
            text += f"; {self.hand} hand entry rows taken"
        if self.hand_left:
            text += f"; {self.hand_left} hand entry rows not taken (entered by hand on the other PC: --hand takes them)"
        return text


def _iso_utc(text: object) -> bool:
    if not isinstance(text, str) or not text.endswith("Z"):
        return False
    try:
        datetime.fromisoformat(text[:-1])
    except ValueError:
        return False
    return True


def check_line(store: Store, raw: bytes) -> dict[str, Any]:
    """The line's stored result, verified; raises Refused with the first thing wrong."""
    try:
        line = boundedjson.loads(raw, max_bytes=MAX_LINE_BYTES)
    except boundedjson.JSONLimitError as exc:  # too-large, too-deep, bad-utf8, bad-json
        detail = "the line is not UTF-8" if exc.reason == "bad-utf8" else exc.detail
        raise Refused(exc.reason, detail) from None
    if not isinstance(line, dict):
        raise Refused("bad-json", f"expected a JSON object, got {type(line).__name__}")
    missing = [k for k in LINE_KEYS if k not in line]
    if missing:
        raise Refused("bad-line", f"missing {', '.join(missing)}")
    rid, serial, record = line["id"], line["serial"], line["record"]
    known_rid = rid if isinstance(rid, str) else None
    known_serial = serial if isinstance(serial, str) else None
    for name in ("id", "sig", "kid", "serial", "source"):
        if not isinstance(line[name], str):
            raise Refused("bad-line", f"{name} must be a string", known_serial, known_rid)
    if not _iso_utc(line["received_at"]):
        raise Refused("bad-line", f"received_at {line['received_at']!r} is not an ISO UTC time",
                      serial, rid)
    errors = schema_errors(record)
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise Refused("bad-record", errors[0] + more, serial, rid)
    if record["id"] != rid:
        raise Refused("bad-id", f"the line's id {rid} is not the record's ({record['id']})", serial, rid)
    clock = record["clock"]
    if clock["serial"] != serial:
        raise Refused("wrong-clock", f"the line's serial {serial} is not the record's ({clock['serial']})",
                      serial, rid)
    if record_id(clock["serial"], clock["seq"]) != rid:
        raise Refused("bad-id", f"id {rid} is not the record's serial and sequence "
                      f"({record_id(clock['serial'], clock['seq'])})", serial, rid)
    key = store.key(serial, line["kid"])
    revoked = store.revoked(serial, line["kid"]) if key is None else None
    if revoked:
        held = store.result(rid)  # the one fact this PC can check: it stored this very result itself
        if held is not None and canonical(held["record"]) == canonical(record):
            return line  # a duplicate: nothing changes
        raise Refused("revoked", f"key {line['kid']} of clock {serial} is revoked here (since {revoked}); a result "
                      "signed with it is taken only if this PC already holds it (the line's received_at, "
                      f"{line['received_at']}, is the other PC's word, not a fact this PC can check)", serial, rid)
    if key is None:
        raise Refused("unenrolled", f"no key {line['kid']} for clock {serial} on this PC "
                      "(import its keys with --keys-from)", serial, rid)
    if not same(line["sig"], sign_result(key, record)):
        raise Refused("bad-signature", f"the signature does not match the record under key {line['kid']}",
                      serial, rid)
    return line


def hand_line(raw: bytes) -> dict[str, Any] | None:
    """The hand entry row of a line `{"hand": {...}}` (Store.export_jsonl), or None for any other line
    (a signed result's, or one check_line refuses)."""
    if b'"hand"' not in raw:
        return None
    try:
        line = boundedjson.loads(raw, max_bytes=MAX_LINE_BYTES)
    except boundedjson.JSONLimitError:
        return None
    if not isinstance(line, dict) or set(line) != {"hand"}:
        return None
    row = line["hand"]
    return row if isinstance(row, dict) else {"bad": row}


def take_hand(store: Store, row: dict[str, Any], where: str, ids: dict[str, str]) -> str:
    """Take a hand entry row (--hand) as this PC's: "stored" or "duplicate"; Refused otherwise. `ids`
    maps the other PC's hand ids to this PC's, for the withdrawals that follow."""
    from gameclock.organiser.handentry import row_errors

    errors = row_errors(row)
    if errors:
        raise Refused("bad-hand", "; ".join(errors[:3]), rid=row.get("id") if isinstance(row.get("id"), str) else None)
    taken = store.hand_row_like(row)
    if taken is not None:
        ids[row["id"]] = taken
        return "duplicate"
    source = f"import:{where}"
    try:
        if row["record"] is None:
            mine = ids.get(row["withdraws"])
            if mine is None:
                raise Refused("bad-hand", f"it withdraws {row['withdraws']}, which this import did not take", rid=row["id"])
            ids[row["id"]] = store.withdraw_hand_result(mine, row["reason"], row["by"], source, row["at"])
        else:
            slot = tuple(row[k] for k in ("event", "round", "table", "game"))
            current = next((h["id"] for h in store.hand_results(row["event"], row["round"])
                            if (h["event"], h["round"], h["table"], h["game"]) == slot), None)
            ids[row["id"]] = store.put_hand_result(row["record"], row["reason"], row["by"], replaces=current,
                                                   source=source, at=row["at"])
    except (StoreError, ValueError) as exc:
        raise Refused("hand-conflict", str(exc), rid=row["id"]) from None
    return "stored"


def import_lines(store: Store, lines: Iterable[bytes], name: str, err: IO[str], hand: bool = False) -> Summary:
    """Import the lines of `name` (without their newlines; blank ones are skipped); refusals go to
    the store and `err`. `hand`: take the other PC's hand entries too (module doc)."""
    summary = Summary()
    ids: dict[str, str] = {}
    for number, raw in enumerate(lines, start=1):
        raw = raw.rstrip(b"\r")
        if not raw.strip():
            continue
        where = f"{name}:{number}"
        row = hand_line(raw)
        if row is not None:
            if not hand:
                summary.hand_left += 1
                print(f"{where}: entered by hand on the other PC (not signed): not taken (--hand takes it)", file=err)
                continue
            try:
                if take_hand(store, row, where, ids) == "stored":
                    summary.hand += 1
                else:
                    summary.duplicates += 1
            except Refused as r:
                summary.refused += 1
                store.refusal(r.reason, r.detail, serial=None, rid=r.rid, source=f"import:{where}")
                print(f"{where}: {r.reason}: {printable(r.detail)}", file=err)
            continue
        try:
            line = check_line(store, raw)
        except Refused as r:
            summary.refused += 1
            store.refusal(r.reason, r.detail, serial=r.serial, rid=r.rid, source=f"import:{where}")
            print(f"{where}: {r.reason}: {printable(r.detail)}", file=err)
            continue
        status = store.put_result(line["record"], line["sig"], line["kid"], line["source"],
                                  received_at=line["received_at"])
        if status == "stored":
            summary.stored += 1
        elif status == "duplicate":
            summary.duplicates += 1
        else:
            summary.conflicts += 1
            print(f"{where}: conflict: {line['id']} differs from the result stored here; the stored one "
                  "is kept, this one is in the conflicts table", file=err)
    return summary


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.jsonl", help="results exported by another PC, one per line")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="this PC's database (default: $GAMECLOCK_DB or ./gameclock.db)")
    parser.add_argument("--keys-from", metavar="OTHER.sqlite", default=None,
                        help="first copy the clocks' keys from the other PC's database")
    parser.add_argument("--hand", action="store_true",
                        help="also take the other PC's hand entries (results its organiser entered at the desk, "
                             "not signed by a clock) as hand entries here")


def read_lines(f: BinaryIO, max_bytes: int = MAX_LINE_BYTES) -> Iterator[bytes]:
    """The lines of `f` without their newlines. A line longer than `max_bytes` comes out cut to
    max_bytes + 1 bytes (so boundedjson refuses it as too-large) and the rest of it is skipped unread
    into memory: a file of one endless line costs max_bytes of memory, not the file's size."""
    while True:
        line = f.readline(max_bytes + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
            continue
        if len(line) <= max_bytes:  # the last line, without a newline
            yield line
            return
        while True:  # too long: skip to its end
            rest = f.readline(64 * 1024)
            if not rest or rest.endswith(b"\n"):
                break
        yield line


def run(args: argparse.Namespace) -> int:
    db_path = args.db or default_db_path()
    name = printable(display_path(args.file))
    try:
        f = boundedfile.open_regular(args.file)
    except boundedfile.FileLimitError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    try:
        with f, Store(db_path) as store:
            if args.keys_from:
                added = store.copy_keys_from(args.keys_from)
                print(f"{display_path(args.keys_from)}: {added} new keys", file=sys.stderr)
            summary = import_lines(store, read_lines(f), name, sys.stderr, hand=args.hand)
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{name}: cannot read ({exc.strerror or exc})", file=sys.stderr)
        return 1
    print(summary)
    return 1 if summary.refused else 0
