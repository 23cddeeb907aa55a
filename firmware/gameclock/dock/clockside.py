"""The clock's end of the dock protocol (PROTOCOL.md): hello, upload of the outbox, enrollment,
pairings. A state machine driven by its caller (`link.Link`): `connect`, `receive(line)` and `poll`
take a monotonic time in ns and return the frames to send; `next_wake` says when to poll again.

It touches only the outbox (`pending`, `read`, `mark_sent`: thread-safe) and the key file, never
the game: a pairing goes to `on_pairing` (the device enqueues it for the loop thread) and every
change of what the arbiter should see goes to `on_status` with a `DockStatus`.

`hold` (set by the device while a side's clock runs) stops new uploads from starting; frames
already sent are still acked and marked sent. See firmware/ARCHITECTURE.md, "Docking".

Enrollment shows the arbiter one code at a time (issue 24): a code stays on the screen until the arbiter
answers it or ENROLL_WAIT_NS passes (a new `enroll`, an `enroll-cancel` or a reconnection does not take it
off), and after a code nobody answered no other is shown for CODE_GAP_NS. So nobody on the cable can
re-roll the clock's code until it equals the PC's. The key the arbiter confirmed is kept aside
(`keys.set_pending`) and becomes the clock's once the PC proves it holds it (keystore.py).
"""
from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from gameclock import __version__
from gameclock.logtext import printable

from . import enroll, sign
from .frame import FrameError, JSONObject, decode, encode
from .messages import PC_TO_CLOCK, PROTO, Refused, check
from .refusals import RateLog, Refusals

log = logging.getLogger(__name__)

NS = 1_000_000_000
HELLO_EVERY_NS = 2 * NS      # not yet welcomed: say hello this often
PING_EVERY_NS = 5 * NS       # welcomed and quiet: keep the link alive
LOST_AFTER_NS = 12 * NS      # nothing valid heard this long: undocked
RETRY_NS = (2 * NS, 4 * NS, 8 * NS, 16 * NS, 30 * NS)  # an unacked result is sent again after these
RESCAN_NS = 1 * NS           # look for new results in the outbox this often while docked
WHO_GAP_NS = NS // 2          # answer a burst of `who` with one hello
WINDOW = 4                   # results sent before waiting for an ack
ENROLL_WAIT_NS = 120 * NS    # an enrollment waits this long for the PC's next step or the arbiter
# after a code nobody answered, no other is shown this long: longer than a PC waits for the people
# (pcside.ENROLL_COMPARE_NS, 130 s), so two codes nobody answered never face one PC code (SECURITY.md)
CODE_GAP_NS = 180 * NS

# The PC's `error` message carries no MAC (anything on the cable can send one), so the clock never shows
# its words: one of these, chosen by its code (issue 24 B5). The status line says them in the clock's
# language (ui/messages.py DOCK_WORDS, ui/text_th.py).
UPDATE_PC, UPDATE_CLOCK, PC_ERROR = "UPDATE PC", "UPDATE CLOCK", "PC ERROR"
ERRORS = (UPDATE_PC, UPDATE_CLOCK, PC_ERROR)


def _text(v: object) -> str | None:
    return None if v is None or v == "" else str(v)[:64]


def _num(v: str | int | None) -> int | None:
    try:
        return None if v is None or v == "" else int(v)
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True)
class DockStatus:
    """What the clock shows about the dock (`ui` draws it; `done` beeps once)."""
    docked: bool = False       # a PC answered within LOST_AFTER_NS
    known: bool = False        # the PC holds this clock's key (its welcome proved it)
    enrolled: bool = False     # this clock has a key
    pc: str = ""
    sent: int = 0              # results acked this docking
    waiting: int = 0           # results still in the outbox
    refused: int = 0           # results the PC refused (they stay in the outbox)
    damaged: int = 0           # results unreadable on this clock, not even from their journal (logged)
    unsaved: int = 0           # results the PC acked that could not be marked sent (read-only state folder)
    done: bool = False         # docked, known, and nothing left to send
    error: str = ""            # the PC's error, one of ERRORS (e.g. a protocol version mismatch)
    code: str = ""             # an enrollment's comparison code, waiting for the arbiter's answer

    def tag(self) -> str:
        """The short status-line tag both screens show (when no clock runs)."""
        if self.code:
            return "ENROL? " + enroll.shown(self.code)
        if self.error:  # (the words that fit beside READY on the status line; text() says which side)
            return "DOCK ERROR" if self.shown_error() == PC_ERROR else "DOCK UPDATE"
        if not self.docked:
            return ""
        if not self.enrolled or not self.known:
            return "DOCK ENROL?"
        if self.unsaved:
            return "DOCK STATE READ-ONLY"
        if self.damaged:
            return f"DOCK DAMAGED {self.damaged}"
        if self.refused:
            return f"DOCK REFUSED {self.refused}"
        if self.done:
            return "DOCK OK"
        total = self.sent + self.waiting
        return f"DOCK {self.sent}/{total}" if total else "DOCK"

    def text(self) -> str:
        """One short line for the screen."""
        if self.code:
            return f"ENROL THIS CLOCK? CODE {enroll.shown(self.code)}"
        if self.error:
            return f"DOCK: {self.shown_error()}"
        if not self.docked:
            return ""
        if not self.enrolled or not self.known:
            return "DOCKED: NOT ENROLLED"
        if self.unsaved:
            return f"STATE READ-ONLY: {self.unsaved} SENT, NOT NOTED"
        if self.damaged:
            return f"DOCKED: {self.damaged} DAMAGED (SEE LOG)"
        if self.refused:
            return f"DOCKED: {self.refused} REFUSED"
        if self.done:
            return f"DOCKED: ALL SENT ({self.sent})" if self.sent else "DOCKED: NOTHING TO SEND"
        total = self.sent + self.waiting
        return f"DOCKED: SENDING {self.sent}/{total}" if total else "DOCKED"

    def shown_error(self) -> str:
        """`error` as the screen may show it: one of ERRORS, whatever else was put there."""
        return self.error if self.error in ERRORS else PC_ERROR


class Outbox(Protocol):
    """The results waiting (`persist.outbox.Outbox`; thread-safe)."""

    def pending(self) -> list[str]: ...

    def read(self, rid: str) -> Mapping[str, Any]: ...

    def mark_sent(self, rid: str) -> object: ...


class Keys(Protocol):
    """The clock's dock key (`keystore.KeyStore`)."""

    @property
    def key(self) -> bytes | None: ...

    def set(self, key: bytes) -> None: ...

    @property
    def pending(self) -> bytes | None: ...

    def set_pending(self, key: bytes) -> None: ...

    def drop_pending(self) -> None: ...


@dataclass
class _Flight:
    m: int
    digest: str
    due_ns: int
    tries: int = 1


@dataclass
class _Enrolling:
    """An enrollment under way (enroll.py): our half, the PC's enroll message, and what follows."""
    half: enroll.Half
    msg_m: int                        # the PC's `enroll` message number (a repeat gets the same commit)
    due_ns: int                       # given up (and the code taken off the screen) at this time
    commit_frame: dict[str, Any]
    key: bytes | None = None          # derived once the PC's nonce came
    code: str = ""
    transcript: bytes | None = None
    confirmed: bool = False           # the arbiter said yes; waiting for the PC's enroll-done
    pc_cancelled: str = ""            # the PC's enroll-cancel reason (the code stays until the arbiter answers)


@dataclass
class ClockEndpoint:
    serial: str
    outbox: Outbox
    keys: Keys
    info: Callable[[], Mapping[str, Any]] = dict   # the clock's event/round/table right now (a snapshot)
    on_pairing: Callable[[JSONObject], None] = lambda pairing: None
    on_status: Callable[[DockStatus], None] = lambda status: None
    fw: str = __version__
    window: int = WINDOW
    make_nonce: Callable[[], str] = lambda: os.urandom(16).hex()
    hold: bool = False
    code_digits: int = enroll.CODE_DIGITS  # the comparison code's length: 6 on every clock (fewer: tests only)
    # --- state (the link's thread only) ---

    def __post_init__(self) -> None:
        self._m = 0
        self.refusals = Refusals(log, "dock")  # reason -> count (the fuzz tests read it)
        # what a PC's frame makes us log, most of them without a key: rate-limited as refusals are
        self.said = RateLog(log, "dock", "messages from the PC")
        self.nonce = ""
        self.hello_m = 0
        self._pairing_m = 0   # the PC's message number of the last pairing taken since our hello
        self.hello_due = 0
        self.last_heard: int | None = None
        self.last_sent = 0
        self.welcomed = False
        self.flights: dict[str, _Flight] = {}
        self.refused: dict[str, str] = {}
        self.damaged: set[str] = set()   # unreadable, even from the game journal: not offered again
        self.unsaved: set[str] = set()   # acked by the PC, but sent/ could not be written: not offered again
        self.queue: list[str] = []
        self.scan_due = 0
        self.scanned = False  # the outbox was listed since the welcome
        self.waiting = 0  # results in the outbox at the last scan, less those acked since
        self.status = DockStatus()
        self.enrolling: _Enrolling | None = None
        self.code = ""  # the comparison code on the screen (DockStatus.code)
        self._answer: tuple[str, bool] | None = None  # set by answer_enroll (another thread), taken by poll
        self._no_code_before = 0   # ns: no new enrollment code shown before this (one nobody answered)
        self._try_pending = True   # this docking's first hello names the pending key, if any (keystore.py): set
                                   # at connect and when the PC went quiet (the next PC is a new docking)
        self._hello_pending = False  # ... and the last hello did

    # ------------------------------------------------------------------ driving
    def connect(self, now: int) -> list[bytes]:
        """The port is open: introduce ourselves (an enrollment of an earlier docking is over, but a code
        on the screen stays until its arbiter answers it: a reconnection must not re-roll it)."""
        if self.enrolling is not None and not self._asking():
            self.enrolling = None
            self._set_code("")
        self._try_pending = True
        return self._hello(now)

    def receive(self, now: int, line: bytes) -> list[bytes]:
        try:
            msg = decode(line)
            t = check(msg, PC_TO_CLOCK)
        except (FrameError, Refused) as exc:
            self._refuse(exc.reason, exc.detail)
            return []
        self.last_heard = now
        handler: Callable[[int, JSONObject], list[bytes]] = getattr(self, "_on_" + t.replace("-", "_"))
        try:
            out = handler(now, msg)
        except Exception as exc:  # a bug: this message is lost, the docking goes on (the PC retries)
            log.exception("dock: the PC's %s message could not be handled", t)
            self._refuse("internal-error", f"{type(exc).__name__}: {str(exc)[:80]}")
            out = []
        self._publish(now)
        return out

    def poll(self, now: int) -> list[bytes]:
        out: list[bytes] = self._take_answer(now) if self._answer is not None else []
        if self.enrolling is not None and now >= self.enrolling.due_ns:
            log.warning("dock: the enrollment timed out")
            if self._asking():  # a code nobody answered: the next waits (nobody can re-roll it by timeouts)
                self._no_code_before = now + CODE_GAP_NS
            out += self._cancel_enroll(now, "timeout")
        if self.welcomed and (self.last_heard is None or now - self.last_heard >= LOST_AFTER_NS):
            log.info("dock: the PC went quiet: undocked")
            self.welcomed = False
            self.hello_due = now
            self._try_pending = True  # a new docking (a port that stays open: a UART): it names a key aside first
        if not self.welcomed:
            if now >= self.hello_due:
                out += self._hello(now)
            self._publish(now)
            return out
        for rid, fl in list(self.flights.items()):
            if now >= fl.due_ns:
                out += self._send_result(now, rid, retry=fl)
        if self._may_send():
            if not self.queue and now >= self.scan_due:
                self._scan(now)
            while self.queue and len(self.flights) < self.window:
                rid = self.queue.pop(0)
                if rid not in self.flights and rid not in self.refused and rid not in self._done_here():
                    out += self._send_result(now, rid)
        if not out and now - self.last_sent >= PING_EVERY_NS:
            out.append(self._frame(now, {"t": "ping"}))
        self._publish(now)
        return out

    def flush_log(self) -> None:
        """The port closed: log the summary lines of what the rate limits kept quiet."""
        self.refusals.flush()
        self.said.flush()

    def next_wake(self) -> int:
        if self.enrolling is not None and self.enrolling.due_ns < self.hello_due:
            return self.enrolling.due_ns
        if not self.welcomed:
            return self.hello_due
        wakes = [fl.due_ns for fl in self.flights.values()]
        wakes.append(self.last_sent + PING_EVERY_NS)
        wakes.append((self.last_heard or 0) + LOST_AFTER_NS)
        if self._may_send() and len(self.flights) < self.window:
            wakes.append(self.scan_due if not self.queue else 0)
        return min(wakes)

    # ------------------------------------------------------------------ sending
    def _may_send(self) -> bool:
        return self.welcomed and self.status.known and self.keys.key is not None and not self.hold

    def _frame(self, now: int, body: dict[str, Any]) -> bytes:
        self._m += 1
        self.last_sent = now
        return encode({"t": body.pop("t"), "m": self._m, **body})

    def _hello(self, now: int) -> list[bytes]:
        self.nonce = self.make_nonce()
        self._pairing_m = 0  # a new nonce: no pairing of the last one verifies any more
        key = self._hello_key()
        info = self.info() or {}
        frame = self._frame(now, {"t": "hello", "proto": PROTO, "serial": self.serial, "fw": self.fw,
                                  "nonce": self.nonce, "kid": sign.key_id(key) if key else None,
                                  "pending": self._count_waiting(),
                                  "event": _text(info.get("event")), "round": _num(info.get("round")),
                                  "table": _num(info.get("table"))})
        self.hello_m = self._m
        self.hello_due = now + HELLO_EVERY_NS
        return [frame]

    def _count_waiting(self) -> int:
        try:
            return len(self.outbox.pending())
        except OSError as exc:
            log.error("dock: cannot list the outbox: %s", exc)
            return 0

    def _scan(self, now: int) -> None:
        self.scan_due = now + RESCAN_NS
        try:
            pending = self.outbox.pending()
        except OSError as exc:
            log.error("dock: cannot list the outbox: %s", exc)
            return
        self.scanned = True
        done = self._done_here()
        self.queue = [r for r in pending if r not in self.flights and r not in self.refused and r not in done]
        self.waiting = len([r for r in pending if r not in self.unsaved])

    def _sent(self, rid: str) -> None:
        """The PC acknowledged `rid` (its MAC verified): outbox/ -> sent/."""
        try:
            self.outbox.mark_sent(rid)
        except KeyError:
            pass  # not ours any more (sent by another uploader): nothing lost
        except OSError as exc:  # a read-only state folder: remembered here, so not sent again and again
            log.error("dock: %s acked but not marked sent (%s): STATE READ-ONLY", rid, exc)
            self.unsaved.add(rid)

    def _pending_ids(self) -> list[str]:
        try:
            return self.outbox.pending()
        except OSError:
            return []

    def _done_here(self) -> set[str]:
        """Ids not offered again in this run: damaged beyond repair, or acked but not noted as sent."""
        return self.damaged | self.unsaved

    def _send_result(self, now: int, rid: str, retry: _Flight | None = None) -> list[bytes]:
        try:
            record = self.outbox.read(rid)
        except KeyError:
            self.flights.pop(rid, None)  # sent meanwhile (another uploader): nothing to do
            return []
        except (OSError, ValueError) as exc:  # damaged, and its journal could not give it back
            log.error("dock: result %s unreadable, not sent: %s", rid, exc)
            self.flights.pop(rid, None)
            self.damaged.add(rid)
            return []
        key = self.keys.key
        if key is None:  # sent only while enrolled (_may_send), and a key is never taken away
            log.error("dock: result %s not sent: this clock has no key", rid)
            self.flights.pop(rid, None)
            return []
        frame = self._frame(now, {"t": "result", "id": rid, "rec": record,
                                  "sig": sign.sign_result(key, record)})
        if retry is None:
            self.flights[rid] = _Flight(self._m, sign.digest(record), now + RETRY_NS[0])
        else:
            retry.m = self._m
            retry.due_ns = now + RETRY_NS[min(retry.tries, len(RETRY_NS) - 1)]
            retry.tries += 1
            log.info("dock: %s sent again (try %d)", rid, retry.tries)
        return [frame]

    # ------------------------------------------------------------------ receiving
    def noise(self, reason: str, detail: str = "") -> None:
        """A line the link dropped before it became a frame (e.g. too-long): refused and logged."""
        self._refuse(reason, detail)

    def _refuse(self, reason: str, detail: str = "") -> None:
        self.refusals.add(reason, detail, who=" from PC")

    def _on_welcome(self, now: int, msg: JSONObject) -> list[bytes]:
        if msg["re"] != self.hello_m:
            self._refuse("stale-welcome", f"answers {msg['re']}, our hello is {self.hello_m}")
            return []
        if msg["proto"] != PROTO:
            self.status = replace(self.status, error=UPDATE_PC if msg["proto"] < PROTO else UPDATE_CLOCK)
            self.said.line("welcome", logging.ERROR, "dock: the PC speaks protocol %s, this clock %s",
                           msg["proto"], PROTO)
            return []
        if self._hello_pending and not self._pending_proven(msg):
            return self._hello(now)  # the PC does not hold the pending key: hello again under the clock's own
        key = self.keys.key
        known = bool(msg["known"])
        if known:
            if key is None or not sign.same(msg["mac"], sign.welcome_mac(key, self.nonce)):
                self._refuse("bad-mac", "welcome")
                return []
        self.welcomed = True
        self.status = replace(self.status, known=known, pc=msg["pc"], error="")
        self.refused.clear()
        self.damaged.clear()  # tried again once per docking (the journal may be readable again)
        for fl in self.flights.values():  # a new session: what was in flight may be lost
            fl.due_ns = now
        self.scan_due, self.scanned = now, False
        self.said.line("welcome", logging.INFO, "dock: welcomed by %s (%s)", msg["pc"],
                       "enrolled" if known else "this clock is not enrolled there")
        return []

    def _on_ack(self, now: int, msg: JSONObject) -> list[bytes]:
        rid = msg["id"]
        fl = self.flights.get(rid)
        key = self.keys.key
        if fl is None:
            # a late ack of a result already marked sent (a retry crossed it) verifies over the record
            # we hold and repeats what is true; any other is forged: refused and logged
            try:
                digest = sign.digest(self.outbox.read(rid))
            except (KeyError, OSError, ValueError):
                digest = ""
            if key is None or not digest or not sign.same(msg["mac"], sign.ack_mac(key, rid, digest)):
                self._refuse("bad-mac", f"ack of {rid}, not in flight")
                return []
            # genuine: the PC has it. Still in the outbox (a forged nak took it out of flight, or the
            # ack came after our retry gave up): noted as sent now, so it is not offered again
            if rid in self.refused or (rid not in self.unsaved and rid in self._pending_ids()):
                self.refused.pop(rid, None)
                self.queue = [r for r in self.queue if r != rid]
                self._sent(rid)
                self.waiting = max(0, self.waiting - 1)
                self.status = replace(self.status, sent=self.status.sent + 1)
            return []
        if key is None or not sign.same(msg["mac"], sign.ack_mac(key, rid, fl.digest)):
            self._refuse("bad-mac", f"ack of {rid}")
            return []
        self._sent(rid)
        del self.flights[rid]
        self.waiting = max(0, self.waiting - 1)
        self.status = replace(self.status, sent=self.status.sent + 1)
        if msg["status"] == "conflict":
            log.error("dock: the PC already had %s with other content (kept aside there)", rid)
        return []

    def _on_nak(self, now: int, msg: JSONObject) -> list[bytes]:
        rid = msg["id"]
        if self.flights.pop(rid, None) is not None:
            self.refused[rid] = msg["reason"]
            self.said.line("nak", logging.WARNING, "dock: the PC refused %s: %s (kept in the outbox)", rid,
                           msg["reason"])
        return []

    def _on_pong(self, now: int, msg: JSONObject) -> list[bytes]:
        return []

    def _on_who(self, now: int, msg: JSONObject) -> list[bytes]:
        # the PC does not know us (it restarted): hello again, once (every in-flight result gets a `who`)
        self.welcomed = False
        if now >= self.hello_due - HELLO_EVERY_NS + WHO_GAP_NS:
            return self._hello(now)
        return []

    def _on_error(self, now: int, msg: JSONObject) -> list[bytes]:
        self.said.line("error", logging.ERROR, "dock: the PC says %s: %s", msg["code"], msg["text"])
        if msg["code"] == "version":  # the PC's text names the side to update (a newer clock: the PC)
            error = UPDATE_PC if "on the pc" in msg["text"].lower() else UPDATE_CLOCK
        else:  # its own words are for the log only: the screen says a fixed one
            error = PC_ERROR
        self.status = replace(self.status, error=error)
        return []

    def _reply(self, now: int, msg: JSONObject, ok: bool, reason: str = "") -> list[bytes]:
        if ok:
            return [self._frame(now, {"t": "ack", "re": msg["m"]})]
        self._refuse(reason, msg["t"])
        return [self._frame(now, {"t": "nak", "re": msg["m"], "reason": reason})]

    # ------------------------------------------------------------------ enrollment (enroll.py)
    def _on_enroll(self, now: int, msg: JSONObject) -> list[bytes]:
        """A PC asks to enroll this clock: agree a key, show the code, wait for the arbiter."""
        if msg["serial"] != self.serial:
            return self._reply(now, msg, False, "wrong-clock")
        if self.hold:  # a game runs: nothing may take the arbiter's screens
            return self._reply(now, msg, False, "busy")
        e = self.enrolling
        if e is not None and e.msg_m == msg["m"] and e.half.peer_pub == msg["pub"]:
            return [self._frame(now, dict(e.commit_frame))]  # our commit was lost: the same one again
        if self._code_blocked(now):  # one code until the arbiter answers it (issue 24): no re-roll from the line
            return self._reply(now, msg, False, "asking")
        half = enroll.Half(self.serial, replace=msg["replace"], digits=self.code_digits)
        half.peer_pub = msg["pub"]
        commit = enroll.commitment(half.nonce, half.pub, half.peer_pub)
        self.enrolling = _Enrolling(half, msg["m"], now + ENROLL_WAIT_NS,
                                    {"t": "enroll-commit", "re": msg["m"], "pub": half.pub, "commit": commit})
        self._set_code("")
        self.said.line("enroll", logging.INFO, "dock: enrollment asked by the PC: waiting for its nonce")
        return [self._frame(now, dict(self.enrolling.commit_frame))]

    def _on_enroll_nonce(self, now: int, msg: JSONObject) -> list[bytes]:
        e = self.enrolling
        if e is None:
            self._refuse("no-enrollment", "enroll-nonce")
            return []
        if e.key is not None:  # the PC did not get our reveal: the same one again
            if msg["nonce"] != e.half.peer_nonce:
                self._refuse("bad-enrollment", "a second nonce")
                return []
            return [self._frame(now, {"t": "enroll-reveal", "re": msg["m"], "nonce": e.half.nonce})]
        e.half.peer_nonce = msg["nonce"]
        try:
            e.key, e.code, e.transcript = e.half.derive(pc=False)
        except ValueError as exc:  # a public key X25519 refuses (e.g. a low-order point)
            self.enrolling = None
            self._refuse("bad-enrollment", str(exc)[:60])
            return [self._frame(now, {"t": "enroll-cancel", "reason": "bad-key"})]
        e.due_ns = now + ENROLL_WAIT_NS
        self._set_code(e.code)
        self.said.line("enroll-nonce", logging.INFO, "dock: enrollment code %s shown: waiting for the arbiter",
                       enroll.shown(e.code))
        return [self._frame(now, {"t": "enroll-reveal", "re": msg["m"], "nonce": e.half.nonce})]

    def answer_enroll(self, code: str, yes: bool) -> None:
        """Any thread (the loop, when the arbiter answers on the clock): the answer to the code shown.
        Taken by the next `poll` on the link's thread; an answer to another code is ignored."""
        self._answer = (code, yes)

    def _take_answer(self, now: int) -> list[bytes]:
        answer, self._answer = self._answer, None
        e = self.enrolling
        if answer is None or e is None or not e.code or answer[0] != e.code or e.confirmed:
            return []
        if e.pc_cancelled:  # the PC ended it already: the answer only takes the code off the screen
            log.info("dock: the arbiter answered a code the PC had cancelled (%s)", printable(e.pc_cancelled))
            self.enrolling = None
            self._set_code("")
            return []
        if not answer[1]:
            log.info("dock: the arbiter declined the enrollment")
            return self._cancel_enroll(now, "declined")
        assert e.key is not None and e.transcript is not None, "a code is shown only once derived"
        try:  # kept aside first: once the PC has our confirmation it may store the key and revoke the old one
            self.keys.set_pending(e.key)
        except OSError as exc:
            log.error("dock: the new key could not be kept aside: %s", exc)
            return self._cancel_enroll(now, "storage")
        e.confirmed = True
        e.due_ns = now + ENROLL_WAIT_NS
        old = self.keys.key
        return [self._frame(now, {"t": "enroll-confirm", "mac": enroll.confirm_mac(e.key, e.transcript),
                                  "old": enroll.old_key_mac(old, e.transcript) if old else None})]

    def _on_enroll_done(self, now: int, msg: JSONObject) -> list[bytes]:
        e = self.enrolling
        if e is None or not e.confirmed or e.key is None or e.transcript is None:
            self._refuse("no-enrollment", "enroll-done before the arbiter confirmed")
            return []
        if not sign.same(msg["mac"], enroll.done_mac(e.key, e.transcript)):
            self._refuse("bad-mac", "enroll-done")
            return []
        try:
            self.keys.set(e.key)
        except OSError as exc:
            log.error("dock: the key could not be stored: %s", exc)
            return self._cancel_enroll(now, "storage")
        self.keys.drop_pending()
        log.info("dock: enrolled (key %s)", sign.key_id(e.key))
        self.enrolling = None
        self._set_code("")
        self.welcomed = False
        return self._reply(now, msg, True) + self._hello(now)

    def _on_enroll_cancel(self, now: int, msg: JSONObject) -> list[bytes]:
        e = self.enrolling
        if e is None:
            return []
        if self._asking():  # anyone on the cable can send this: the code stays until the arbiter answers it
            if not e.pc_cancelled:  # (logged once: a flood of cancels is not written out)
                self.said.line("enroll-cancel", logging.WARNING, "dock: the PC cancelled the enrollment (%s): its "
                               "code stays until the arbiter answers", msg["reason"])
            e.pc_cancelled = msg["reason"]
            return []
        self.said.line("enroll-cancel", logging.WARNING, "dock: the PC cancelled the enrollment: %s", msg["reason"])
        self.enrolling = None
        self._set_code("")
        # A key the arbiter confirmed stays aside: a cancel carries no MAC, so anything on the cable can send
        # one after the PC stored the key and revoked the old one (dropping it then stranded the clock). The
        # next docking's first hello names it; a PC that does not hold it answers `known` false and the clock
        # goes on under its own key (keystore.py).
        return []

    def _cancel_enroll(self, now: int, reason: str) -> list[bytes]:
        self.enrolling = None
        self._set_code("")
        return [self._frame(now, {"t": "enroll-cancel", "reason": reason})]

    def _asking(self) -> bool:
        """A code is on the screen and its arbiter has not answered it."""
        e = self.enrolling
        return e is not None and bool(e.code) and not e.confirmed

    def _code_blocked(self, now: int) -> bool:
        """No new enrollment may show a code now: one is shown (or confirmed and waiting for the PC), or
        one nobody answered left the screen less than CODE_GAP_NS ago."""
        return (self.enrolling is not None and bool(self.enrolling.code)) or now < self._no_code_before

    def _hello_key(self) -> bytes | None:
        """The key a hello names: the pending one first in a docking (the PC may have stored it and revoked
        the old one while our `enroll-done` was lost), then the clock's own."""
        pending = self.keys.pending if self._try_pending else None
        self._hello_pending = pending is not None
        return pending if pending is not None else self.keys.key

    def _pending_proven(self, msg: JSONObject) -> bool:
        """The welcome to a hello that named the pending key: True if its MAC proves the PC holds that key
        (it becomes the clock's key), False if not (the next hello names the clock's own key)."""
        self._try_pending = False
        pending = self.keys.pending
        if not msg["known"] or pending is None:
            return False
        if not sign.same(msg["mac"], sign.welcome_mac(pending, self.nonce)):
            self._refuse("bad-mac", "welcome")
            return False
        try:
            self.keys.set(pending)
        except OSError as exc:
            log.error("dock: the key the PC holds could not be stored: %s", exc)
            return False
        self.keys.drop_pending()
        log.info("dock: the PC holds the key the arbiter confirmed (%s): it is this clock's key now",
                 sign.key_id(pending))
        return True

    def _set_code(self, code: str) -> None:
        self.code = code  # published (on_status) with the next status, as every change is

    def _on_pairing(self, now: int, msg: JSONObject) -> list[bytes]:
        """A pairing the PC pushes (at our hello, or while we are docked: a round published, this clock
        assigned to a table). Its MAC covers our hello's nonce and its message number; a number below the
        last one taken in this docking is an old push sent again (refused `stale`), the same number again the
        PC's retry after our ack was lost (acked, not taken twice). PROTOCOL.md, "Pushes and replays"."""
        key = self.keys.key
        m = msg["m"]
        if key is None or not sign.same(msg["mac"], sign.pairing_mac(key, self.nonce, m, msg["pairing"])):
            return self._reply(now, msg, False, "bad-mac")
        if m < self._pairing_m:
            return self._reply(now, msg, False, "stale")
        if m > self._pairing_m:
            self._pairing_m = m
            self.on_pairing(msg["pairing"])
        return self._reply(now, msg, True)

    # ------------------------------------------------------------------ status
    def _publish(self, now: int) -> None:
        st = replace(self.status, docked=self.welcomed, enrolled=self.keys.key is not None, code=self.code,
                     waiting=self.waiting, refused=len(self.refused), damaged=len(self.damaged),
                     unsaved=len(self.unsaved),
                     done=(self.welcomed and self.status.known and self.scanned
                           and self.waiting == 0 and not self.queue and not self.flights))
        if st != self.status:
            self.status = st
            self.on_status(st)
