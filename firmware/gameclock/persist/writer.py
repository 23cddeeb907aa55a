"""The journal writer: one thread that does every durable write of the clock, in order.

The loop thread never touches the disk: it calls `submit(op)` (a deque append under a lock held for
microseconds) and goes on. The writer thread takes the oldest ops, runs them, and only then removes
them from the queue:

- consecutive `Append`s to the same file become one `pwrite` + one `fsync` (group commit: on an SD
  card an fsync costs milliseconds, and a burst of presses must not queue one fsync each);
- an `OSError` (ENOSPC, EROFS, EIO, ...) keeps the op at the head of the queue, sets `status`
  ("DISK FULL", "DISK READ-ONLY", "DISK ERROR"; the screen shows it), calls `on_status`, and retries
  after a backoff (50 ms doubling to 2 s). Nothing queued is dropped, and nothing behind a failed op
  runs before it: when the disk works again everything is written in the order it was submitted.
  An op is therefore written so that running it again after a failure is harmless (an append is a
  `pwrite` at the file's last durable size, so a retry overwrites a half-written attempt);
- after the first success following a failure, `status` is "" again and `on_status` is called.

`flush(timeout)` waits until everything submitted so far is durable (tests, a clean stop);
`close(timeout)` flushes (bounded: a dead disk must not hang the stop) and ends the thread.
"""
from __future__ import annotations

import collections
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import cast

from .fsio import FileSystem, disk_status, write_all

log = logging.getLogger(__name__)

BACKOFF_MIN_S = 0.05
BACKOFF_MAX_S = 2.0


PREALLOC = 64 * 1024  # bytes of zeros written ahead of a journal (a 2-hour game's journal is ~150 kB)


class AppendFile:
    """A file the writer appends to: `size` is its durable length (everything before it is written and
    synced). Opened by the writer thread on first use; a new file's folder is fsync'd once, after its
    first data, so the file's name survives a power cut too.

    Kind to an SD card: the file is preallocated `PREALLOC` bytes at a time by writing zeros (real
    blocks, not fallocate's unwritten extents, whose first write is a metadata change) and synced
    whole once; an append then overwrites zeros in place and `fdatasync`s: one data block reaches the
    card, no inode or journal block (measured: ~490 card bytes per app byte with fsync of a growing
    file). The zeros after the data are not lines: `journal.scan` stops at them."""

    def __init__(self, path: str, size: int = 0, *, new: bool = True, prealloc: int = PREALLOC):
        self.path = path
        self.size = size
        self.fd: int | None = None
        self._dir_synced = not new
        self.prealloc = prealloc
        self.allocated = 0  # bytes of the file known to be written (data or zeros) and synced

    def append(self, fs: FileSystem, data: bytes) -> None:
        if self.fd is None:
            self.fd = fs.open(self.path, os.O_WRONLY | os.O_CREAT)
            self.allocated = self.size  # (what lies beyond is unknown: allocated again if needed)
        try:
            end = self.size + len(data)
            grown = end > self.allocated
            if grown:  # zeros ahead first, then the data over them: both synced with the metadata
                new_end = end + self.prealloc
                write_all(fs, self.fd, bytes(new_end - self.allocated), self.allocated)
                self.allocated = new_end
            write_all(fs, self.fd, data, self.size)
            if grown:
                fs.fsync(self.fd)
            else:
                fs.fdatasync(self.fd)
            if not self._dir_synced:
                fs.fsync_dir(os.path.dirname(self.path) or ".")
                self._dir_synced = True
        except OSError:
            # Linux may forget a failed write's dirty pages: reopen and write it all again next time.
            self.release(fs)
            raise
        self.size += len(data)

    def release(self, fs: FileSystem) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            try:
                fs.close(fd)
            except OSError:
                pass


class Op:
    """One durable step. `run(fs)` raises OSError to be retried later."""

    def run(self, fs: FileSystem) -> None:  # pragma: no cover - interface
        raise NotImplementedError


class Append(Op):
    def __init__(self, file: AppendFile, data: bytes):
        self.file, self.data = file, data

    def run(self, fs: FileSystem) -> None:
        self.file.append(fs, self.data)

    def __repr__(self) -> str:
        return f"Append({os.path.basename(self.file.path)}, {self.data!r})"


class Call(Op):
    """Any other durable step (an outbox record, the sequence counter, closing a file). `fn(fs)` must be
    safe to run again after it raised half-way; what it returns is ignored."""

    def __init__(self, fn: Callable[[FileSystem], object], what: str):
        self.fn, self.what = fn, what

    def run(self, fs: FileSystem) -> None:
        self.fn(fs)

    def __repr__(self) -> str:
        return f"Call({self.what})"


class Writer:
    def __init__(self, fs: FileSystem | None = None, *, on_status: Callable[[str], None] | None = None,
                 backoff_min_s: float = BACKOFF_MIN_S, backoff_max_s: float = BACKOFF_MAX_S,
                 name: str = "journal-writer"):
        self.fs = fs or FileSystem()
        self.on_status = on_status
        self.backoff_min_s, self.backoff_max_s = backoff_min_s, backoff_max_s
        self.status = ""           # "" while the disk works; else what the screen shows
        self.failures = 0          # OSErrors seen (each retry that failed counts)
        self.written = 0           # ops done
        self._q: collections.deque[Op] = collections.deque()
        self._cv = threading.Condition()
        self._busy = False
        self._stop = False
        self._abort = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._started = False

    # ------------------------------------------------------------------ any thread
    def start(self) -> Writer:
        if not self._started:
            self._started = True
            self._thread.start()
        return self

    def submit(self, op: Op) -> None:
        """Queue `op` (never blocks on the disk)."""
        with self._cv:
            self._q.append(op)
            self._cv.notify_all()

    def pending(self) -> int:
        with self._cv:
            return len(self._q)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything submitted before this call is durable. False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cv:
            while self._q or self._busy:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cv.wait(left)
            return True

    def close(self, timeout: float = 5.0) -> int:
        """Flush (at most `timeout` s), stop the thread. Returns how many ops were left unwritten
        (logged: only a disk that stayed broken leaves any)."""
        done = self.flush(timeout) if self._started else not self._q
        with self._cv:
            self._stop = True
            self._abort = not done
            self._cv.notify_all()
        if self._started:
            self._thread.join(timeout)
        left = self.pending()
        if left:
            log.error("journal writer stopped with %d writes not done (%s)", left, self.status or "?")
        return left

    # ------------------------------------------------------------------ the writer thread
    def _take(self) -> list[Op]:
        """The head op, with the Appends to the same file right behind it (not removed yet)."""
        head = self._q[0]
        batch = [head]
        if isinstance(head, Append):
            for op in list(self._q)[1:64]:
                if not (isinstance(op, Append) and op.file is head.file):
                    break
                batch.append(op)
        return batch

    def _perform(self, batch: list[Op]) -> None:
        if len(batch) == 1:
            batch[0].run(self.fs)
        else:  # a group commit: _take batches only Appends to one file
            appends = cast(list[Append], batch)
            appends[0].file.append(self.fs, b"".join(op.data for op in appends))

    def _set_status(self, status: str) -> None:
        if status == self.status:
            return
        self.status = status
        if status:
            log.error("journal: %s: writes wait in memory and are retried", status)
        else:
            log.warning("journal: the disk works again; queued writes done")
        if self.on_status is not None:
            try:
                self.on_status(status)
            except Exception:  # the loop's wake-up must not kill the writer
                log.exception("on_status failed")

    def _run(self) -> None:
        delay = self.backoff_min_s
        while True:
            with self._cv:
                while not self._q and not self._stop:
                    self._cv.wait()
                if self._abort or not self._q:
                    return
                batch = self._take()
                self._busy = True
            try:
                self._perform(batch)
            except OSError as exc:
                self.failures += 1
                if not self.status:
                    log.error("journal write failed: %s (%r)", exc, batch[0])
                with self._cv:
                    self._busy = False
                    self._cv.notify_all()
                self._set_status(disk_status(exc))
                with self._cv:
                    self._cv.wait_for(lambda: self._abort, timeout=delay)
                delay = min(delay * 2, self.backoff_max_s)
                continue
            except Exception:  # a bug, not the disk: retrying would block every later write forever
                log.exception("journal op %r failed: dropped", batch[0])
                batch = batch[:1]
            if self.status:  # before the ops leave the queue: flush() returning means status is ""
                self._set_status("")
            with self._cv:
                for _ in batch:
                    self._q.popleft()
                self.written += len(batch)
                self._busy = False
                self._cv.notify_all()
            delay = self.backoff_min_s
