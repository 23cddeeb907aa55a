"""The desk serving a hall of phones (issue 28): what the public pages show is computed ONCE per new
store version and shared by every page and stream, and one poller tells every stream what changed.

- `Shared`: values (the standings' data, a rendered fragment, the event names) computed once per
  (key, store stamp) on the hall's worker threads, off the event loop; every request asking for the
  same key at the same stamp waits for the same computation (a concurrent.futures.Future, so it works
  from any event loop: uvicorn's one, or a test client's short-lived ones). One entry a key (the
  newest stamp), at most KEEP keys: memory bounded by the data, not by the pages or the results.
- `Fragment`: a rendered fragment's bytes, their gzip and an ETag (a hash of the bytes: a change of
  the stamp that leaves the fragment as it was, a clock's hello, answers 304).
- `Poller`: one thread watching `Store.live_stamp` every `interval` seconds (Live.poll) while a
  stream listens, waking each stream through its own bounded queue (QUEUE versions: a stream too
  slow to take them loses the older ones, which the newest version covers; it never grows). While
  it runs, the public pages take its stamp (`fresh_stamp`) instead of asking the store each.
"""
from __future__ import annotations

import asyncio
import gzip
import hashlib
import logging
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gameclock.organiser.desk.live import Live

log = logging.getLogger(__name__)

KEEP = 64       # shared values kept (events x fragments x languages): one stamp each
WORKERS = 2     # the hall's worker threads (the Pi or PC's cores)
QUEUE = 4       # versions waiting for one stream before the oldest is dropped
GZIP_LEVEL = 6

T = TypeVar("T")


@dataclass(frozen=True)
class Fragment:
    """A live area's contents as served: `body` (UTF-8 HTML), `gz` (its gzip), `etag` (quoted)."""
    body: bytes
    gz: bytes
    etag: str

    @classmethod
    def of(cls, html: str) -> Fragment:
        body = html.encode("utf-8")
        # mtime 0: the same bytes give the same gzip (and the ETag is the body's, whichever is sent)
        return cls(body, gzip.compress(body, GZIP_LEVEL, mtime=0),
                   '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"')


class Shared:
    """Values computed once per (key, stamp) on the hall's workers (module doc). `builds` counts the
    computations by key (the tests count renders with it)."""

    def __init__(self, workers: int = WORKERS, keep: int = KEEP) -> None:
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="desk-hall")
        self._lock = threading.Lock()
        # key -> (stamp, its computation, time.monotonic() it began)
        self._entries: OrderedDict[Hashable, tuple[Hashable, Future[Any], float]] = OrderedDict()
        self.keep = keep
        self.builds: Counter[Hashable] = Counter()

    def future(self, key: Hashable, stamp: Hashable, build: Callable[[], T], max_age: float = 0.0,
               fresh: bool = False) -> Future[T]:
        """The computation of `key` at `stamp`: the one started already, else a new one. `max_age`
        (seconds): one begun at another stamp that recently is good enough (a figure that one more
        result barely moves, asked for by every page load). `fresh`: `build` reads the store when it
        runs, so one of another stamp still waiting for a worker will hold `stamp`'s state too and
        is shared (a hall of phones at 5 results a second: when a computation takes longer than two
        results apart, the waiting ones do not pile up, one a stamp; the newest waits for one)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and (entry[0] == stamp or time.monotonic() - entry[2] < max_age
                                      or (fresh and not entry[1].running() and not entry[1].done())):
                if fresh and entry[0] != stamp and not entry[1].done():
                    self._entries[key] = (stamp, entry[1], entry[2])   # it holds `stamp`'s state: said so
                self._entries.move_to_end(key)
                return entry[1]
            fut: Future[T] = self._pool.submit(self._build, key, build)
            self._entries[key] = (stamp, fut, time.monotonic())
            self._entries.move_to_end(key)
            while len(self._entries) > self.keep:
                self._entries.popitem(last=False)
        fut.add_done_callback(lambda f: self._forget_failed(key, f))
        return fut

    async def get(self, key: Hashable, stamp: Hashable, build: Callable[[], T], max_age: float = 0.0,
                  fresh: bool = False) -> T:
        """`build()`'s value for `key` at `stamp`, computed once whoever asks (awaited off the loop)."""
        fut = self.future(key, stamp, build, max_age, fresh)
        if fut.done():   # the common case in a hall: computed already, no trip through the loop
            return fut.result()
        return await asyncio.wrap_future(fut)

    def _build(self, key: Hashable, build: Callable[[], T]) -> T:
        with self._lock:
            self.builds[key] += 1
        return build()

    def _forget_failed(self, key: Hashable, fut: Future[Any]) -> None:
        """A computation that failed is not kept: the next request tries again (and says why)."""
        if fut.cancelled() or fut.exception() is not None:
            with self._lock:
                entry = self._entries.get(key)
                if entry is not None and entry[1] is fut:
                    del self._entries[key]

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


@dataclass(eq=False)
class Listener:
    """One stream's place at the poller: its event loop and its queue of the live versions it has not
    taken yet (at most QUEUE: the oldest dropped, `dropped` counts them)."""
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[int] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    dropped: int = 0

    def offer(self, version: int) -> None:
        """On the listener's loop: the new version queued, the oldest dropped when the queue is full."""
        if self.queue.full():
            self.queue.get_nowait()
            self.dropped += 1
        self.queue.put_nowait(version)


class Poller:
    """One thread polling the store for every stream (module doc). It runs while a stream listens and
    stops by itself after the last one left; `stop()` ends it for good (the app's end)."""

    def __init__(self, live: Live) -> None:
        self.live = live
        self._lock = threading.Lock()
        self._listeners: set[Listener] = set()
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()
        self._polled_at = float("-inf")   # time.monotonic() of the last poll that succeeded

    def listen(self) -> Listener:
        """A place for the calling stream (on its running loop); give it back with `leave`."""
        listener = Listener(asyncio.get_running_loop())
        with self._lock:
            self._listeners.add(listener)
            if self._thread is None and not self._stopped.is_set():
                self._thread = threading.Thread(target=self._run, name="desk-live-poller", daemon=True)
                self._thread.start()
        return listener

    def leave(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.discard(listener)

    @property
    def listening(self) -> int:
        with self._lock:
            return len(self._listeners)

    def _run(self) -> None:
        version = self.live.version
        while not self._stopped.wait(self.live.interval):
            with self._lock:
                if not self._listeners:
                    self._thread = None
                    return
            try:
                self.live.poll(force=True)
                self._polled_at = time.monotonic()
            except Exception:   # the store closed or busy: said, and tried again at the next interval
                log.exception("desk: the live poll failed")
                continue
            if self.live.version == version:
                continue
            version = self.live.version
            with self._lock:
                listeners = list(self._listeners)
            for listener in listeners:
                try:
                    listener.loop.call_soon_threadsafe(listener.offer, version)
                except RuntimeError:   # its loop closed (the stream ended meanwhile)
                    self.leave(listener)
        with self._lock:
            self._thread = None

    def fresh_stamp(self) -> tuple[Any, ...] | None:
        """The store's stamp as the poller saw it, while it polls for streams (at most two intervals
        old), else None (ask the store). A page told of a change by its stream fetches after the poll
        that saw it, so this stamp holds the change: the hall's requests cost no query of their own."""
        with self._lock:
            running = self._thread is not None
        if running and time.monotonic() - self._polled_at < 2 * self.live.interval:
            return self.live.stamp
        return None

    def stop(self) -> None:
        self._stopped.set()
