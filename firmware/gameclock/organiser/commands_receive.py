"""`gameclock receive [--port auto|PATH ...] [--db FILE]`: the organiser's receiver.

One process serves every docked clock at once (the systemd unit gameclock-receive.service runs one
`--port auto`; the udev rule only makes sure it runs): one thread per port, all sharing ONE `Store`
(`SharedStore`: one SQLite connection, so the ports never wait on each other's write lock, and the
results that arrive together on all ports are committed in one durable transaction, each acked only
once it is: `Store.put_result`'s group commit). 200 clocks docked at once: `python -m bench manyclocks`.
`--port auto` (the default) looks for docked clocks by their USB ids and strings every 2 s
(`ports.find_clocks`), so a clock plugged in is served within 2 s; a named PATH is served as given and
reopened when it comes back. The database is in WAL mode: other programs (enroll, standings) may use
it meanwhile.

Pairings reach the clocks docked now (issue 26): a round published by another process (`gameclock pair
--publish`, the desk, `gameclock pairings`) or a clock's table assigned on the desk's clocks page is seen by
every port within a second (the store's `dock_stamp`, dock/pcside.py) and pushed to its clock, the table
the organiser assigned it first (its own Event and Table settings only without one).

On a terminal it draws one progress bar per clock; otherwise (journald) it prints a line per change.
Ctrl-C or SIGTERM stops it and prints a per-clock summary: stored, duplicates, conflicts, refused.
`--exit-when-done` ends once every clock seen has sent everything it had (for scripts and tests).

Supervised: whatever fails on one port (a bug, the database) is logged with its traceback, shown on
that port's status line ("failed 2x, again in 4 s: ...") and the port is served again after a backoff
(1, 2, 4 ... at most 30 s; back to 1 s once it served a minute). When no port can be served (every
named port failed `GIVE_UP` times in a row without serving, or the database cannot be opened) the
process ends with status 3, so systemd restarts it and the journal says why.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from gameclock.dock.link import Link, PortGone, open_port
from gameclock.dock.pcside import ReceiverEndpoint
from gameclock.words import line_of, note

log = logging.getLogger(__name__)
SCAN_S = 2.0
REOPEN_S = 1.0
BACKOFF_MAX_S = 30.0    # the longest wait before serving a failed port again
HEALTHY_S = 60.0        # a port that served this long without failing starts its backoff afresh
GIVE_UP = 5             # failures in a row, without serving once, after which a port cannot be served
FDS_WANTED = 8192       # open files: 5 a port (pyserial), the database's few, for 1,000+ ports
BAR = 24


class SharedStore:
    """The one `Store` every port of this receiver uses, as PortWorker's `open_store`: opened by the
    first port that serves (a failure there is that port's: retried after its backoff; the next port
    tries again), closed once by `close` when the receiver ends (a port's end leaves it open)."""

    def __init__(self, open_store: Callable[[str | os.PathLike[str]], Any] | None = None):
        self._open = open_store
        self._lock = threading.Lock()
        self.store: Any = None

    def __call__(self, db: str | os.PathLike[str]) -> Any:
        with self._lock:
            if self.store is None:
                from gameclock.organiser.store import Store

                self.store = (self._open or Store)(db)
            return self.store

    def close(self) -> None:
        with self._lock:
            if self.store is not None:
                self.store.close()
                self.store = None


class PortWorker(threading.Thread):
    """Serves one port until `stop`: reopens it when it goes away (unplugged, peer gone), and serves it
    again after a backoff when anything fails (`failures`, `error`; `dead` once it failed GIVE_UP times
    in a row without serving). `keep_trying=False` (a port found by --port auto) ends when the port goes.
    `open_store(db)` gives the port its store (default: a Store of its own, closed when it stops serving;
    a `SharedStore`'s is left open for the other ports)."""

    def __init__(self, path: str, db: str | os.PathLike[str], stop: threading.Event, keep_trying: bool = True,
                 open_store: Callable[[str | os.PathLike[str]], Any] | None = None):
        super().__init__(name=f"dock {path}", daemon=True)
        self.path, self.db, self.stop, self.keep_trying = path, db, stop, keep_trying
        self.open_store = open_store
        self.endpoint: ReceiverEndpoint | None = None
        self.error = ""
        self.failures = 0       # in all
        self.in_a_row = 0       # since it last served HEALTHY_S
        self.dead = False

    def __repr__(self) -> str:
        state = "dead" if self.dead else "serving" if self.is_alive() else "stopped"
        return f"<PortWorker {self.path}, {state}, {self.failures} failures{': ' + self.error if self.error else ''}>"

    def run(self) -> None:
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                if self._serve():
                    return
            except Exception as exc:  # one port's failure is logged, shown and retried; never silent
                log.exception("dock %s: failed", self.path)
                self.failures += 1
                self.in_a_row = 1 if time.monotonic() - started >= HEALTHY_S else self.in_a_row + 1
                wait = min(BACKOFF_MAX_S, REOPEN_S * 2 ** (self.in_a_row - 1))
                self.error = note("failed {n}x, again in {wait} s: {error}", n=self.failures, wait=f"{wait:g}",
                                  error=f"{type(exc).__name__}: {str(exc)[:100]}")
                if self.in_a_row >= GIVE_UP:
                    self.dead = True
                    log.error("dock %s: cannot be served (%d failures in a row)", self.path, self.in_a_row)
                self.stop.wait(wait)

    def serve_link(self, link: Link) -> None:
        """Serve one opened port until `stop` (PortGone when it goes): the desk's worker also takes
        the organiser's requests between the link's steps (desk/docking.py)."""
        link.run(self.stop)

    def _serve(self) -> bool:
        """Serve the port until `stop` (True) or it goes away and is not to be waited for (True);
        raises whatever fails."""
        from gameclock.organiser.store import Store

        store = (self.open_store or Store)(self.db)
        try:
            if self.endpoint is None:
                self.endpoint = ReceiverEndpoint(store, source=self.path)
            self.endpoint.store = store  # the counts and sessions live on across a restart
            while not self.stop.is_set():
                try:
                    port = open_port(self.path)
                except OSError as exc:
                    self.error = line_of(exc)       # a Note: the desk's clocks page says it in Thai
                    if not self.keep_trying:
                        return True
                    self.stop.wait(REOPEN_S)
                    continue
                self.error = ""
                try:
                    self.serve_link(Link(port, self.endpoint))
                except PortGone as exc:
                    log.info("%s", exc)
                    if not self.keep_trying:
                        return True
                    self.stop.wait(REOPEN_S)
                finally:
                    port.close()
                    self.endpoint.refusals.flush()
            return True
        finally:
            if not isinstance(self.open_store, SharedStore):
                store.close()


def raise_fd_limit(want: int = FDS_WANTED) -> None:
    """Raise this process's soft limit of open files towards `want` (within the hard limit): pyserial
    holds 5 descriptors per port (the port and two pipes), so 200 clocks pass the usual 1024."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= want:
        return
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))
    except (ValueError, OSError) as exc:
        log.warning("receive: could not raise the open-file limit from %d: %s", soft, exc)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", action="append", metavar="auto|PATH",
                        help="a clock's serial port, or auto (default) to find docked clocks by USB id")
    parser.add_argument("--db", help="the results database (default: $GAMECLOCK_DB or ./gameclock.db)")
    parser.add_argument("--exit-when-done", action="store_true",
                        help="end once every clock seen has sent all its results")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every protocol step")


def bar(done: int, total: int) -> str:
    """`[#########...............]  9/24`"""
    total = max(total, done)
    filled = BAR if total == 0 else BAR * done // total
    return f"[{'#' * filled}{'.' * (BAR - filled)}] {done}/{total}"


def lines(workers: list[PortWorker]) -> list[str]:
    out = []
    for w in workers:
        ep = w.endpoint
        if ep is None or not ep.sessions or w.failures and w.error.startswith("failed"):
            out.append(f"{w.path}: {w.error or 'waiting for a clock'}")
            continue
        s = ep.sessions[-1]
        got = s.stored + s.duplicates + s.conflicts
        state = "NOT ENROLLED (gameclock enroll)" if s.key is None else bar(got, s.pending)
        extra = f"  refused {s.refused}" if s.refused else ""
        out.append(f"{s.serial} on {w.path}: {state}  new {s.stored} dup {s.duplicates}{extra}"
                   + (f"  {ep.last_error}" if ep.last_error else ""))
    return out


def summary(workers: list[PortWorker]) -> list[str]:
    out = []
    for w in workers:
        if w.endpoint and w.endpoint.earlier["dockings"]:
            e = w.endpoint.earlier
            out.append(f"{e['dockings']} earlier dockings ({w.path}): {e['stored']} stored, {e['duplicates']} "
                       f"duplicates, {e['conflicts']} conflicts, {e['refused']} refused")
        for s in (w.endpoint.sessions if w.endpoint else []):
            out.append(f"{s.serial} ({w.path}): {s.stored} stored, {s.duplicates} duplicates, "
                       f"{s.conflicts} conflicts, {s.refused} refused")
        if w.failures:
            out.append(f"{w.path}: failed {w.failures}x" + (" and could not be served" if w.dead else ""))
        if w.endpoint and w.endpoint.refusals:
            noise = ", ".join(f"{k} {v}" for k, v in sorted(w.endpoint.refusals.items()))
            out.append(f"{w.path}: refused lines: {noise}")
    return out or ["no clock docked"]


def all_done(workers: list[PortWorker]) -> bool:
    sessions = [w.endpoint.sessions[-1] for w in workers if w.endpoint and w.endpoint.sessions]
    return bool(sessions) and all(
        s.key is not None and s.stored + s.duplicates + s.conflicts + s.refused >= s.pending for s in sessions)


def run(args: argparse.Namespace) -> int:
    from gameclock.organiser.store import Store, StoreError, default_db_path

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(message)s")
    db = args.db or default_db_path()
    try:
        Store(db).close()  # a bad database is a clear error now, not in a thread later
    except StoreError as exc:
        print(f"gameclock receive: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # e.g. sqlite3.OperationalError: the disk, the folder's permissions
        print(f"gameclock receive: cannot open the database {db}: {exc}", file=sys.stderr)
        return 3
    raise_fd_limit()
    ports = args.port or ["auto"]
    auto = "auto" in ports
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    workers: dict[str, PortWorker] = {}
    shared = SharedStore()
    for path in ports:
        if path != "auto":
            workers[path] = PortWorker(path, db, stop, open_store=shared)
            workers[path].start()
    tty = sys.stdout.isatty()
    shown: list[str] = []
    next_scan = next_print = 0.0
    status = 0
    while not stop.is_set():
        if auto and time.monotonic() >= next_scan:
            next_scan = time.monotonic() + SCAN_S
            from gameclock.organiser.ports import find_clocks
            try:
                found_ports = find_clocks()
            except Exception:  # the OS's port list failed (a udev hiccup): looked at again in SCAN_S
                log.exception("dock: listing the serial ports failed")
                found_ports = []
            for found in found_ports:
                w = workers.get(found.device)
                if w is None or not w.is_alive():
                    workers[found.device] = PortWorker(found.device, db, stop, keep_trying=False,
                                                       open_store=shared)
                    workers[found.device].start()
        serving = [w for w in workers.values() if w.is_alive()]
        if serving and all(w.dead for w in serving):
            print("gameclock receive: no port can be served: " + "; ".join(f"{w.path}: {w.error}" for w in serving),
                  file=sys.stderr, flush=True)
            status = 3
            break
        now_lines = lines(list(workers.values())) or ["looking for docked clocks ..."]
        if now_lines != shown and (tty or time.monotonic() >= next_print):
            if tty:  # redraw the bars in place
                if shown:
                    sys.stdout.write(f"\x1b[{len(shown)}F\x1b[J")
                sys.stdout.write("\n".join(now_lines) + "\n")
            else:  # a log (journald): the lines that changed, at most every 2 s
                sys.stdout.write("".join(f"{line}\n" for line in now_lines if line not in shown))
                next_print = time.monotonic() + 2.0
            sys.stdout.flush()
            shown = now_lines
        if args.exit_when_done and all_done(list(workers.values())):
            break
        stop.wait(0.25)
    stop.set()
    for w in workers.values():
        w.join(timeout=3)
    if not any(w.is_alive() for w in workers.values()):
        shared.close()  # (a port still stuck in a write keeps it; the process ends anyway)
    print("\n".join(summary(list(workers.values()))), flush=True)
    return status
