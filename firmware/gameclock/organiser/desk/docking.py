"""The dock served inside the desk's process (`gameclock desk --dock auto|PATH`): what `gameclock receive`
does (one `PortWorker` thread a port, `--dock auto` finding docked clocks every SCAN_S), sharing the
desk's own `Store` (thread-safe: its calls are serialised by a lock, as `receive`'s SharedStore shares
one between its ports), plus the organiser's enrollment from the clocks page (desk/clocks.py).

One owner: each port's `ReceiverEndpoint` is touched only by its worker's thread. The web handlers
put a request on that worker's queue (`DockService.ask`: Enroll, Code) and read the `PortView` the
worker publishes after every step of its link: an immutable snapshot (frozen dataclasses, tuples,
strings), replaced whole, never changed in place. The link's loop takes the queue between its steps
(at most STEP_S apart), so a request is served within STEP_S.

The organiser's Publish and the clocks page's assignments reach the clocks docked now: each port's endpoint
looks at the store's `dock_stamp` every second (dock/pcside.py), and `DockService.nudge` makes every worker
look at once (the web handler that published or assigned calls it).

Enrollment as `gameclock enroll` does it (SECURITY.md): the PC's code is shown on the page; the
organiser types the code the clock shows once the arbiter confirmed it there; the key is stored only
when both sides confirmed (`ReceiverEndpoint.organiser_code`, `_on_enroll_confirm`). One press of Enroll
is one enrollment, one code (a hello never starts another); how it ended stays on the page, and the page
counts the enrollments the port started (at most `pcside.MAX_ENROLLS` an hour).
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gameclock.dock.link import Link
from gameclock.organiser.commands_receive import SCAN_S, PortWorker, SharedStore
from gameclock.words import note

log = logging.getLogger(__name__)

STEP_S = 0.1          # the longest a request waits for the link's loop
MAX_REQUESTS = 8      # waiting on one port's queue (a form posted again and again is refused, not queued)
MAX_PORTS = 256       # ports `--dock auto` serves at once
MAX_CODE = 20         # characters of a typed code passed on


# ------------------------------------------------------------------------------------------ requests
@dataclass(frozen=True)
class Enroll:
    """Enroll the clock `serial` docked on the port (`replace`: revoke the key this PC holds for it)."""
    serial: str
    replace: bool = False


@dataclass(frozen=True)
class Code:
    """The code the organiser typed: the one the clock shows."""
    serial: str
    typed: str


# ------------------------------------------------------------------------------------------ snapshots
@dataclass(frozen=True)
class ClockView:
    """The clock docked on a port, from its hello and this docking."""
    serial: str
    fw: str
    kid: str | None
    enrolled: bool          # this PC holds the key its hello named
    pending: int            # results it said were waiting at its hello
    stored: int             # results stored from it this docking (duplicates apart)
    duplicates: int
    event: str | None
    round: int | None
    table: int | None
    last_contact: str       # ISO time of the last bytes from it
    docked_ns: int = 0      # monotonic ns its docking began (the docking order of "assign tables in docking order")
    pushed: str = ""        # the pairing last pushed to it, in short ("R1 T5 Anan v Boon"; "": none)
    push_state: str = ""    # sent, taken, not answered, refused: REASON ("": none pushed)


@dataclass(frozen=True)
class EnrollView:
    """An enrollment asked from the page. `stage`: asked (waiting for the clock), compare (the
    organiser types the clock's code), confirming (typed; waiting for the arbiter on the clock),
    storing (both confirmed, key stored, waiting for the clock to take it), done, failed, stored (the
    key is stored and the clock's old keys revoked, but the clock has not said hello under it yet)."""
    serial: str
    replace: bool
    stage: str
    code: str = ""          # the PC's code (compare)
    message: str = ""       # done / failed: one line


@dataclass(frozen=True)
class PortView:
    path: str
    connected: bool = False
    clock: ClockView | None = None
    enroll: EnrollView | None = None
    error: str = ""         # the endpoint's last error (a protocol mismatch, an enrollment refused)
    seen: tuple[str, ...] = ()   # the serials of this port's earlier dockings, newest first
    answered: int = 0       # the organiser's requests taken before this snapshot was made
    enrolls: int = 0        # enrollments this port started (each one code: one guess for an intruder)


@dataclass(frozen=True)
class PortStatus:
    """What the clocks page shows of one port: the worker's snapshot and how the worker is."""
    path: str
    view: PortView
    serving: bool
    problem: str            # the port cannot be opened, or it failed (then retried after a backoff)
    dead: bool
    waiting: bool = False   # a request is queued that the snapshot does not show yet


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass
class _Attempt:
    """The enrollment this worker was asked for (its thread's own)."""
    serial: str
    replace: bool
    outcome: str = ""       # "", "done" or "failed"
    message: str = ""


# ------------------------------------------------------------------------------------------ a port
class DeskPortWorker(PortWorker):
    """A `PortWorker` whose link's loop also takes the organiser's requests and publishes `view`."""

    def __init__(self, path: str, db: Any, stop: threading.Event, keep_trying: bool, store_opener: SharedStore):
        super().__init__(path, db, stop, keep_trying=keep_trying, open_store=store_opener)
        self.requests: queue.Queue[Enroll | Code] = queue.Queue(MAX_REQUESTS)
        self.view = PortView(path)
        self._attempt: _Attempt | None = None
        self._contact = 0.0
        self._asked = 0         # requests queued (any thread, under _lock)
        self._taken = 0         # requests taken by the worker's thread
        self._lock = threading.Lock()
        self._nudged = threading.Event()  # look at the store's dock_stamp now (a round published, a clock assigned)

    # --- any thread
    def ask(self, request: Enroll | Code) -> bool:
        """Queue `request` for the worker's thread; False when too many wait."""
        with self._lock:
            try:
                self.requests.put_nowait(request)
            except queue.Full:
                return False
            self._asked += 1
        return True

    def nudge(self) -> None:
        """Any thread: the port's clock is sent its pairing within STEP_S if it changed (not up to a second later)."""
        self._nudged.set()

    def status(self) -> PortStatus:
        """The snapshot, and whether a request waits that it does not show yet (the page that
        answers a form comes back before the worker took it: it reloads itself until it does)."""
        view = self.view
        with self._lock:
            waiting = self._asked > view.answered
        return PortStatus(self.path, view, self.is_alive() and not self.stop.is_set(), self.error, self.dead,
                          waiting)

    # --- the worker's thread
    def serve_link(self, link: Link) -> None:
        try:
            link.start()
            while not self.stop.is_set():
                before = link.bytes_in
                link.step(STEP_S)
                if link.bytes_in != before:
                    self._contact = time.time()
                self._take_requests(link)
                if self._nudged.is_set() and self.endpoint is not None:
                    self._nudged.clear()
                    self.endpoint.nudge()
                    link.send(self.endpoint.poll(time.monotonic_ns()))
                self._publish(connected=True)
        finally:
            self._publish(connected=False)

    def _take_requests(self, link: Link) -> None:
        ep = self.endpoint
        assert ep is not None, "PortWorker._serve made it"
        while True:
            try:
                req = self.requests.get_nowait()
            except queue.Empty:
                return
            self._taken += 1
            s = ep.session
            if s is None or s.serial != req.serial:
                if isinstance(req, Enroll):
                    self._attempt = _Attempt(req.serial, req.replace, "failed",
                                             note("clock {serial} is not docked on {port} now", serial=req.serial,
                                                  port=self.path))
                continue
            now = time.monotonic_ns()
            if isinstance(req, Enroll):
                if ep.enrolling is not None and ep.enrolling.stage != "done":
                    continue  # one under way already: the page shows it
                self._attempt = _Attempt(req.serial, req.replace)
                link.send(ep.start_enroll(now, replace=req.replace))
            elif self._attempt is not None and not self._attempt.outcome:
                link.send(ep.organiser_code(now, req.typed[:MAX_CODE]))

    def _follow(self) -> None:
        """The enrollment asked for: done once the clock said hello under its new key, failed when the
        endpoint says why (or gave up)."""
        a, ep = self._attempt, self.endpoint
        if a is None or a.outcome or ep is None:
            return
        s = ep.session
        if s is None or s.serial != a.serial:
            a.outcome, a.message = "failed", note("clock {serial} left the port before it was enrolled", serial=a.serial)
        elif s.enrolled_now and s.kid == s.enrolled_now and s.key is not None:
            a.outcome, a.message = "done", note("clock {serial} enrolled (key {kid})", serial=a.serial, kid=s.kid)
        elif ep.last_error:
            a.outcome, a.message = "failed", ep.last_error
        elif ep.unproven:
            a.outcome, a.message = "stored", ep.unproven
        elif ep.enrolling is None:
            a.outcome, a.message = "failed", note("clock {serial} did not answer the enrollment", serial=a.serial)

    def _enroll_view(self) -> EnrollView | None:
        self._follow()
        a, ep = self._attempt, self.endpoint
        if a is None or ep is None:
            return None
        if a.outcome:
            return EnrollView(a.serial, a.replace, a.outcome, message=a.message)
        e = ep.enrolling
        if e is None or e.stage in ("sent", "nonce"):
            return EnrollView(a.serial, a.replace, "asked")
        if e.stage == "compare":
            return EnrollView(a.serial, a.replace, "confirming" if e.organiser_ok else "compare",
                              code=e.code if not e.organiser_ok else "")
        return EnrollView(a.serial, a.replace, "storing")

    def _publish(self, connected: bool) -> None:
        ep = self.endpoint
        if ep is None:
            return
        s = ep.session
        clock = None
        if connected and s is not None:
            p = s.pairing_sent
            pushed = (note("R{round} T{table} {left} v {right}", round=str(p["round"]), table=str(p["table"]),
                           left=p["players"].get("left") or "?", right=p["players"].get("right") or "?") if p else "")
            clock = ClockView(s.serial, s.fw, s.kid, s.key is not None, s.pending, s.stored, s.duplicates,
                              s.info.get("event"), s.info.get("round"), s.info.get("table"),
                              _iso(self._contact) if self._contact else "", s.docked_ns, pushed, s.pairing_state)
        seen = tuple(x.serial for x in reversed(ep.sessions[:-1] if clock else ep.sessions))
        view = PortView(self.path, connected, clock, self._enroll_view(), ep.last_error, seen, self._taken,
                        ep.enrolls)
        if view != self.view:
            self.view = view  # one reference replaced: readers see the old snapshot or the new one


# ------------------------------------------------------------------------------------------ the service
@dataclass
class DockService:
    """The desk's dock: workers for the named ports, and for `auto` a scanner thread starting one for
    each docked clock found. `start` once the app starts, `stop` when it ends (the store stays open:
    the desk closes it)."""
    store: Any
    paths: Sequence[str]
    stop_event: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self._workers: dict[str, DeskPortWorker] = {}
        self._lock = threading.Lock()
        self._opener = SharedStore(lambda db: self.store)   # a SharedStore: the workers never close it
        self._scanner: threading.Thread | None = None
        self.auto = "auto" in self.paths
        self.scan_error = ""

    def _start_worker(self, path: str, keep_trying: bool) -> None:
        w = DeskPortWorker(path, getattr(self.store, "path", ""), self.stop_event, keep_trying, self._opener)
        with self._lock:
            self._workers[path] = w
        w.start()

    def start(self) -> None:
        for path in dict.fromkeys(self.paths):
            if path != "auto":
                self._start_worker(path, keep_trying=True)
        if self.auto:
            self._scanner = threading.Thread(target=self._scan, name="desk dock scan", daemon=True)
            self._scanner.start()

    def _scan(self) -> None:
        from gameclock.organiser.ports import find_clocks

        while not self.stop_event.is_set():
            try:
                found = find_clocks()
                self.scan_error = ""
            except Exception as exc:  # the OS's port list failed: looked at again in SCAN_S
                log.exception("desk dock: listing the serial ports failed")
                self.scan_error = note("listing the serial ports failed: {error}",
                                       error=f"{type(exc).__name__}: {str(exc)[:100]}")
                found = []
            for port in found:
                with self._lock:
                    w = self._workers.get(port.device)
                    full = len(self._workers) >= MAX_PORTS
                if (w is None or not w.is_alive()) and not (full and w is None):
                    self._start_worker(port.device, keep_trying=False)
            self.stop_event.wait(SCAN_S)

    def stop(self) -> None:
        self.stop_event.set()
        if self._scanner is not None:
            self._scanner.join(timeout=SCAN_S + 3)
        with self._lock:
            workers = list(self._workers.values())
        for w in workers:
            w.join(timeout=3)

    def ports(self) -> list[PortStatus]:
        with self._lock:
            workers = sorted(self._workers.values(), key=lambda w: w.path)
        # a port --dock auto found is served while the clock is there; named ports are always shown
        return [w.status() for w in workers if w.keep_trying or w.is_alive()]

    def worker(self, path: str) -> DeskPortWorker | None:
        with self._lock:
            return self._workers.get(path)

    def nudge(self) -> None:
        """Every port looks at the store now: the clocks docked get what was just published or assigned."""
        with self._lock:
            workers = list(self._workers.values())
        for w in workers:
            w.nudge()

    def docked_in_order(self) -> list[str]:
        """The serials of the enrolled clocks docked now, in the order their dockings began (the first
        first): the clocks "assign tables in docking order" gives tables to."""
        clocks = [c for p in self.ports() if p.view.connected and (c := p.view.clock) is not None and c.enrolled]
        return [c.serial for c in sorted(clocks, key=lambda c: c.docked_ns)]
