"""The outbox: confirmed result records kept on the clock until the organiser's PC has them (CL-5),
and the clock's sequence counter (result ids never repeat, not even after a crash).

State folder layout (see README.md beside this file):

    outbox/<id>.json         a confirmed result, waiting for the PC's acknowledgement
    outbox/.tmp-<id>.json    a put that a crash interrupted: never counted, removed at start
    sent/<id>.json           acknowledged by the PC (moved here by `mark_sent`)
    outbox/<id>.json.damaged a record found damaged (not JSON, not the record of its id): kept aside
                             for a look, after the record was built again from its game journal
    sequence                 the last sequence number handed out ("17\n")

A record is any JSON object with a string "id" usable as a file name (`[A-Za-z0-9._-]+`).

The states of one id, and why a crash (kill -9, or a power cut on a journaling file system such as
ext4, where a rename is one transaction) can never lose or double it:

    nothing --put--> [.tmp written + fsync'd] --rename + fsync dir--> outbox --mark_sent--> sent
                                                                       (rename + fsync both dirs)

- before the rename, only a temp file exists: the record is not in the outbox. The caller learns
  that `put` finished only after the folder's fsync, and it is the journal (written in order behind
  the put) that says the game's result is stored; until then recovery puts it again, and
- a put of an id already in `outbox/` or `sent/` does nothing (idempotent: same id twice = one file).
  The outbox is looked at before sent/, so a `mark_sent` racing a repeated put still finds it in one.
- `rename` is atomic: after `mark_sent` the file is in `outbox/` or in `sent/`, never both, never
  neither. A repeated `mark_sent` does nothing; a leftover outbox copy of a sent id is removed.

A record that reads back damaged is built again from its game journal under the same id when the
outbox has a `rebuild` (`rebuild.rebuild`; `restore.attach` and `gameclock replay --state-dir` give
it one): `read` does it, keeps the damaged bytes aside, and raises `RecordDamaged` only when the
journal cannot give it back either (the dock then shows the result as DAMAGED, never REFUSED).
"""
from __future__ import annotations

import json
import logging
import os
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

from gameclock import boundedjson

from .fsio import FileSystem, NotReadable, atomic_write, clean_temp

log = logging.getLogger(__name__)

OUTBOX = "outbox"
SENT = "sent"
SEQUENCE = "sequence"
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
MAX_RECORD = 1024 * 1024   # bytes: a record is a few kB (a 2-hour Makruk game with every move: ~100 kB)
MAX_SEQUENCE = 64          # bytes: the sequence file is a number and a newline


class RecordDamaged(ValueError):
    """A record in the outbox that reads back damaged and cannot be built again from its journal."""


class OutboxError(ValueError):
    """A record the outbox cannot take (no id, an id that is not a safe file name, not JSON)."""


def record_bytes(record: Mapping[str, object]) -> tuple[str, bytes]:
    """(id, the file's bytes) of a record; raises OutboxError."""
    if not isinstance(record, dict):
        raise OutboxError(f"a result record is a JSON object, not {type(record).__name__}")
    rid = record.get("id")
    if not isinstance(rid, str) or not ID_RE.match(rid):
        raise OutboxError(f"bad record id {rid!r} (letters, digits . _ -)")
    try:
        data = json.dumps(record, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
    except (TypeError, ValueError) as exc:
        raise OutboxError(f"record {rid}: not JSON: {exc}") from None
    return rid, data.encode("utf-8")


class Outbox:
    def __init__(self, state_dir: str | os.PathLike[str], fs: FileSystem | None = None,
                 rebuild: Callable[[str, str, FileSystem], dict[str, Any]] | None = None):
        self.fs = fs or FileSystem()
        self.rebuild = rebuild  # (state_dir, id, fs) -> the record built from its journal, or ValueError
        self.state_dir = os.fspath(state_dir)
        self.outbox_dir = os.path.join(os.fspath(state_dir), OUTBOX)
        self.sent_dir = os.path.join(os.fspath(state_dir), SENT)
        self._lock = threading.Lock()

    def prepare(self) -> list[str]:
        """Make the folders; remove temp files of interrupted puts (at start, before any put)."""
        self.fs.mkdir(self.outbox_dir)
        self.fs.mkdir(self.sent_dir)
        removed = clean_temp(self.fs, self.outbox_dir)
        if removed:
            log.warning("outbox: removed %d unfinished write(s): %s", len(removed), " ".join(removed))
        return removed

    def _path(self, folder: str, rid: str) -> str:
        if not ID_RE.match(rid):
            raise OutboxError(f"bad record id {rid!r}")
        return os.path.join(folder, rid + ".json")

    # ------------------------------------------------------------------ writing
    def put(self, record: Mapping[str, object]) -> bool:
        """Store `record` durably in outbox/. False if its id is already there or already sent."""
        rid, data = record_bytes(record)
        return self.put_bytes(rid, data)

    def put_bytes(self, rid: str, data: bytes) -> bool:
        with self._lock:
            target = self._path(self.outbox_dir, rid)
            for folder in (self.outbox_dir, self.sent_dir):  # outbox first: see the module doc
                path = self._path(folder, rid)
                if self.fs.exists(path):
                    if folder == self.outbox_dir:
                        self._same(path, rid, data)
                    return False
            atomic_write(self.fs, target, data)
            return True

    def _same(self, path: str, rid: str, data: bytes) -> None:
        try:
            if self.fs.read_bytes(path, MAX_RECORD) != data:
                log.warning("outbox: %s stored again with other content: the first one is kept", rid)
        except OSError:  # (unreadable: the dock's read of it repairs it)
            pass

    def mark_sent(self, rid: str) -> bool:
        """The PC acknowledged `rid`: move it to sent/ durably. False if it was already sent;
        KeyError if the clock never had it."""
        with self._lock:
            src, dst = self._path(self.outbox_dir, rid), self._path(self.sent_dir, rid)
            if self.fs.exists(src):
                if self.fs.exists(dst):  # cannot happen through this class; clean it up anyway
                    self.fs.unlink(src)
                else:
                    self.fs.rename(src, dst)
                    self.fs.fsync_dir(self.sent_dir)
                self.fs.fsync_dir(self.outbox_dir)
                return True
            if self.fs.exists(dst):
                return False
            raise KeyError(rid)

    # ------------------------------------------------------------------ reading
    def _ids(self, folder: str) -> list[str]:
        try:
            names = self.fs.listdir(folder)
        except FileNotFoundError:
            return []
        return sorted(n[:-5] for n in names if n.endswith(".json") and ID_RE.match(n[:-5]))

    def pending(self) -> list[str]:
        """Ids waiting for the PC, sorted."""
        return self._ids(self.outbox_dir)

    def sent(self) -> list[str]:
        return self._ids(self.sent_dir)

    def read(self, rid: str) -> dict[str, Any]:
        """The record `rid` (from outbox/, else sent/). KeyError if there is none. A damaged one in
        outbox/ is built again from its journal (`repair`); RecordDamaged if that fails too. So is one
        that is not a regular file or is too large (NotReadable: never waited for, never read whole)."""
        for folder in (self.outbox_dir, self.sent_dir):
            path = self._path(folder, rid)
            try:
                data = self.fs.read_bytes(path, MAX_RECORD)
            except FileNotFoundError:
                continue
            except NotReadable as exc:
                if folder != self.outbox_dir:
                    raise RecordDamaged(f"{exc}") from None
                return self.repair(rid, str(exc))
            try:
                record = boundedjson.loads(data, max_bytes=MAX_RECORD)
                if not isinstance(record, dict) or record.get("id") != rid:
                    raise ValueError(f"not the record of {rid}")
            except ValueError as exc:
                if folder != self.outbox_dir:
                    raise RecordDamaged(f"{path}: damaged ({exc})") from None
                return self.repair(rid, str(exc))
            return record
        raise KeyError(rid)

    def repair(self, rid: str, why: str) -> dict[str, Any]:
        """outbox/<rid>.json is damaged (`why`): build it again from its game journal, keep the damaged
        file as <rid>.json.damaged, store the rebuilt record durably; RecordDamaged if it cannot be.
        The damaged file is kept by a second name (a hard link), not copied: whatever it is (torn bytes,
        a FIFO, a huge sparse file) nothing of it is read, and <rid>.json exists at every instant (the
        rebuilt record is renamed over it), so a crash during the repair loses nothing."""
        path = self._path(self.outbox_dir, rid)
        try:
            if self.rebuild is None:
                raise ValueError("this outbox has no journal to build it from")
            record = self.rebuild(self.state_dir, rid, self.fs)
        except ValueError as exc:
            log.error("outbox: %s is damaged (%s) and cannot be built again: %s", rid, why, exc)
            raise RecordDamaged(f"{rid}: damaged ({why}); {exc}") from None
        _, data = record_bytes(record)
        with self._lock:
            try:
                try:
                    self.fs.unlink(path + ".damaged")  # an earlier repair's: the newest damage is kept
                except FileNotFoundError:
                    pass
                self.fs.link(path, path + ".damaged")
            except OSError as exc:
                log.warning("outbox: the damaged %s could not be kept aside: %s", rid, exc)
            try:
                atomic_write(self.fs, path, data)
            except OSError as exc:  # (a read-only or full card) sent as rebuilt; rebuilt again next time
                log.error("outbox: %s built again but not stored: %s", rid, exc)
        log.warning("outbox: %s was damaged (%s): built again from its game journal", rid, why)
        return record


class Sequence:
    """The clock's sequence counter: `allocate()` hands out the next number in memory (the loop thread
    calls it; no disk), `store(fs, n)` makes it durable (the writer thread runs it before anything
    that uses n is written). Loaded at start as the larger of the file and `floor` (the highest number
    found on disk, e.g. the last game journal's), so a lost or stale file can never repeat a number."""

    def __init__(self, state_dir: str | os.PathLike[str], fs: FileSystem | None = None, floor: int = 0):
        self.fs = fs or FileSystem()
        self.path = os.path.join(os.fspath(state_dir), SEQUENCE)
        self.stored = self._load()
        self.last = max(self.stored, floor)
        self._lock = threading.Lock()

    def _load(self) -> int:
        try:
            text = self.fs.read_bytes(self.path, MAX_SEQUENCE).decode("ascii").strip()
        except FileNotFoundError:
            return 0
        except NotReadable as exc:  # a FIFO, a device, a link, a huge file: never waited for (issue 24 B6)
            log.error("%s: counting on from the files on disk", exc)
            return 0
        except (OSError, UnicodeDecodeError) as exc:
            log.error("%s unreadable (%s): counting on from the files on disk", self.path, exc)
            return 0
        if not text.isdigit():
            log.error("%s holds %r: counting on from the files on disk", self.path, text[:20])
            return 0
        return int(text)

    def allocate(self) -> int:
        with self._lock:
            self.last += 1
            return self.last

    def store(self, fs: FileSystem, n: int) -> None:
        if n <= self.stored:
            return
        atomic_write(fs, self.path, f"{n}\n".encode("ascii"))
        self.stored = n
