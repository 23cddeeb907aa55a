"""The organiser PC's end of the dock protocol (PROTOCOL.md), one per serial port.

A state machine like `clockside.ClockEndpoint`: `receive(now, line)` and `poll(now)` return the
frames to send. It verifies, stores (`store.Store`) and acks results, pushes the table's pairing,
and, when asked (`enroll=True`, `gameclock enroll`; `start_enroll`, the desk's Enroll), agrees a new key with
the clock (enroll.py): stored, and the clock's other keys revoked, only once the organiser typed the code the
clock shows and the arbiter confirmed it on the clock.

The clock's event follows the PC (issue 26): a clock the organiser assigned to a table of an event
(`Store.assign_clock`, the desk's clocks page) is sent that table's pairing, whatever its own Event and Table
settings say (they pick it only when it has no assignment, as before). And what the organiser publishes
reaches the clocks docked now: every CHECK_NS a port looks at the store's `dock_stamp` (pairings written, a
table assigned: by this process or another) and pushes the clock's pairing again when it changed. A push's
MAC covers its message number with the hello's nonce, and the clock takes each number once and none below
the last (PROTOCOL.md, "Pushes and replays").

One enrollment, one code (issue 24): an enrollment commits to one key pair and nonce; a hello while it runs
never starts another (a man in the middle cannot re-roll the PC's code until it equals the clock's). Each
step waits a bounded time (`ENROLL_STEP_NS`; the code itself `ENROLL_COMPARE_NS`), then the enrollment is
abandoned with a line saying why (`last_error`). `gameclock enroll` makes one enrollment a run; a port makes
at most `MAX_ENROLLS` an hour (the desk's button), counted in `enrolls`.

Every refusal is counted in `refusals` and logged with its reason (at most `refusals.BURST` a minute in
full: a flood is summed up, not written out); refusals of results (not of line noise) are also kept in the
store's `refusals` table for the organiser, at most `MAX_KEPT_REFUSALS` per docking.

Bounded, whatever the peer sends: a port remembers its last `MAX_SESSIONS` dockings (older ones are
folded into `earlier`), a hello adds a row to the store's `clocks` only when it names a key this PC holds
(a serial that never completes an enrollment leaves no row), and a handler that fails on a message is
contained here (logged with its traceback, refused as `internal-error`, a result nak'ed so the clock keeps
it) instead of ending the port's thread.
"""
from __future__ import annotations

import hmac
import logging
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from gameclock.logtext import printable
from gameclock.record import schema_errors
from gameclock.words import Words, note, words

from . import enroll as agreement
from . import sign
from .frame import FrameError, JSONObject, decode, encode
from .messages import CLOCK_TO_PC, PROTO, Refused, check
from .pairing import SETUP_KEYS
from .refusals import Budget, Refusals

log = logging.getLogger(__name__)

NS = 1_000_000_000
PUSH_RETRY_NS = 3 * NS  # a pairing or enrollment not answered is sent again after this
PUSH_TRIES = 5
MAX_SESSIONS = 32          # dockings a port remembers (a flood of hellos with new serials stays bounded)
MAX_KEPT_REFUSALS = 1000   # refused results a port writes to the store's refusals table per hour
NOTES_PER_MIN = 20         # "clock X is not enrolled" lines a port logs per minute (a hello flood)
COUNTS = ("stored", "duplicates", "conflicts", "refused")
# An enrollment's steps (PROTOCOL.md, "Enrollment"): the clock answers each at once, so a step not answered
# while the PC pushes it (PUSH_TRIES times, PUSH_RETRY_NS apart) is abandoned; the people get as long as the
# clock shows its code (clockside.ENROLL_WAIT_NS, 120 s) and a little more, so the clock's own timeout comes first
ENROLL_STEP_NS = PUSH_TRIES * PUSH_RETRY_NS
ENROLL_COMPARE_NS = 130 * NS
# a message before any hello is answered `who`: a clock docked before this PC listened (the receiver started
# or restarted) says hello then -- the normal way in, logged at INFO; one still without a hello this long after
# the first `who` is warned about (issue 27: the organiser's terminal shows warnings only)
WHO_GRACE_NS = 5 * NS
HELLO_GRACE_NS = 5 * NS    # `gameclock enroll`: a hello naming a key this PC does not hold waits this long for
                           # the clock's next (a clock holding a confirmed new key names it first)
MAX_ENROLLS = 20           # enrollments a port starts in an hour (the desk's button; `enroll` makes one a run)
CHECK_NS = 1 * NS          # a docked clock's port looks at the store's dock_stamp this often (one cheap query)
QUIET_NS = 12 * NS         # a clock not heard this long is gone (clockside.LOST_AFTER_NS): nothing is pushed to it,
                           # and its next hello begins a new docking (the desk's docking order)


class Store(Protocol):
    """Where results, clocks' keys and pairings are kept (`organiser.store.Store`)."""

    def key(self, serial: str, kid: str | None) -> bytes | None: ...

    def add_key(self, serial: str, key: bytes, revoke_others: bool = False) -> str: ...

    def has_keys(self, serial: str) -> bool: ...

    def revoked(self, serial: str, kid: str | None) -> str | None: ...

    def seen(self, serial: str, info: dict[str, Any]) -> None: ...

    def pairing_for(self, event: str | None, table: int | None) -> Mapping[str, Any] | None: ...

    def assignment(self, serial: str) -> Mapping[str, Any] | None: ...

    def dock_stamp(self) -> int: ...

    def put_result(self, record: dict[str, Any], sig: str, kid: str, source: str) -> str: ...

    def refusal(self, reason: str, detail: str = "", serial: str | None = None, rid: str | None = None,
                source: str = "") -> None: ...


@dataclass
class Session:
    """One clock's docking, from its hello on."""
    serial: str
    nonce: str
    kid: str | None
    fw: str
    pending: int                     # results it said were waiting at its hello
    info: dict[str, Any]             # its event, round and table
    key: bytes | None = None         # the key its kid names, if this PC holds it
    stored: int = 0
    duplicates: int = 0
    conflicts: int = 0
    refused: int = 0
    pairing_sent: dict[str, Any] | None = None
    enrolled_now: str | None = None  # the kid handed over by this session's enrollment
    docked_ns: int = 0               # when this docking began (its first hello; the desk's docking order)
    assigned: dict[str, Any] | None = None  # the table the organiser assigned it ({"event", "table"}), None: its own
    stamp: int = -1                  # the store's dock_stamp when its pairing was last looked up
    pairing_m: int = 0               # the message number of the last pairing pushed
    pairing_state: str = ""          # of that push: sent, taken, not answered, refused: REASON ("": none pushed)


def _unrevealed(how: Words) -> Words:
    """The organiser's line for an enrollment whose clock committed to a nonce and then did anything but
    reveal it (`how`): a clock reveals the instant the PC's nonce comes, so it is an intruder's mark
    (SECURITY.md, "One guess"), whatever reason the frame claims. (Its lines here are Notes, gameclock/words.py:
    the desk's clocks page says them in Thai.)"""
    return words("it committed to a nonce but never revealed it ({how}): a clock reveals at once, so another device "
                 "may be between the clock and this PC (nothing stored; each enrollment is one code, one guess for "
                 "such a device)", how=how)


@dataclass
class _Enrolling:
    """An enrollment under way on this port (enroll.py); `stage`: sent (waiting for the clock's commitment),
    nonce (for its reveal), compare (for both people), done (key stored, old ones revoked: waiting for the
    clock's hello under it). `due_ns`: the stage is abandoned then (done: the clock proves it later)."""
    half: agreement.Half
    serial: str
    old_key: bytes | None            # the clock must prove this key (None: a new clock, or --replace)
    due_ns: int
    stage: str = "sent"
    m: int = 0                       # our last enrollment message (the clock's answer names it in `re`)
    commit: str = ""
    key: bytes | None = None
    code: str = ""
    transcript: bytes | None = None
    organiser_ok: bool = False       # the organiser typed the same code
    clock_ok: bool = False           # the arbiter confirmed on the clock (its MAC verified)


@dataclass
class ReceiverEndpoint:
    store: Store
    source: str = ""                 # the port, for the store's records
    name: str = field(default_factory=lambda: socket.gethostname()[:64] or "pc")
    enroll: bool = False             # enroll the clock at its hello (`gameclock enroll`)
    replace: bool = False            # ... even if it cannot prove the key this PC knows (revokes it)
    push_pairings: bool = True
    code_digits: int = agreement.CODE_DIGITS  # the comparison code's length: 6 (fewer only in tests, enroll.code)

    def __post_init__(self) -> None:
        self._m = 0
        self.refusals = Refusals(log, f"dock {self.source or '-'}")  # reason -> count
        self.session: Session | None = None
        self.sessions: list[Session] = []  # the last MAX_SESSIONS dockings on this port, last = current
        self.earlier = dict.fromkeys(COUNTS, 0) | {"dockings": 0}  # the dockings dropped from `sessions`
        self._kept = Budget(MAX_KEPT_REFUSALS, 3600.0)   # rows for the refusals table (a port, an hour)
        self._notes = Budget(NOTES_PER_MIN, 60.0)        # "not enrolled" log lines
        self._version_error = False  # last_error is a hello's protocol mismatch (cleared by a good hello)
        self._push: tuple[int, bytes, int, int] | None = None  # (m, frame, due ns, tries)
        self.last_error = ""
        self.enrolling: _Enrolling | None = None
        self.enrolls = 0            # enrollments started on this port (each one key pair, one code)
        self._enroll_budget = Budget(MAX_ENROLLS, 3600.0)
        self.unproven = ""          # the last enrollment stored its key, but the clock has not said hello under it
        self._hello_grace: tuple[int, str] | None = None  # (due ns, why): `enroll` waits for a clock's next hello
        self.heard_ns: int | None = None  # the last valid message from the clock (monotonic ns)
        self._check_due = 0               # the next look at the store's dock_stamp
        self._new_docking = True          # the message being handled came after QUIET_NS of silence
        self._asked_who: int | None = None  # when a message before any hello was first answered `who`

    # ------------------------------------------------------------------ driving
    def receive(self, now: int, line: bytes) -> list[bytes]:
        try:
            msg = decode(line)
            if msg.get("t") == "hello" and msg.get("proto") != PROTO:
                return self._version(now, msg)
            t = check(msg, CLOCK_TO_PC)
        except (FrameError, Refused) as exc:
            self._refuse(exc.reason, exc.detail)
            return []
        if t != "hello" and self.session is None:
            if self._asked_who is None:
                self._asked_who = now
            normal = now - self._asked_who < WHO_GRACE_NS  # the clock has not had time to say hello yet
            self._refuse("no-hello", t, level=logging.INFO if normal else logging.WARNING)
            return [self._frame({"t": "who"})]
        # a hello after QUIET_NS of silence begins a new docking (a UART stays open from one clock to the next)
        self._new_docking = self.heard_ns is None or now - self.heard_ns >= QUIET_NS
        self.heard_ns = now
        handler: Callable[[int, JSONObject], list[bytes]] = getattr(self, "_on_" + t.replace("-", "_"))
        try:
            return handler(now, msg)
        except Exception as exc:  # a bug or a store that fails: this message fails, the port goes on
            log.exception("dock %s: the %s message could not be handled", self.source or "-", t)
            self.last_error = note("internal error on a {type} message: {error}", type=t,
                                   error=f"{type(exc).__name__}: {str(exc)[:80]}")
            if t == "result":  # the clock keeps the result and offers it again at its next docking
                self._refuse("internal-error", self.last_error, rid=msg["id"])
                return [self._frame({"t": "nak", "re": msg["m"], "id": msg["id"], "reason": "internal-error"})]
            self._refuse("internal-error", self.last_error)
            return [self._frame({"t": "error", "re": msg["m"], "code": "pc-error", "text": str(self.last_error)})]

    def poll(self, now: int) -> list[bytes]:
        out = self._enroll_poll(now) + self._check_pairings(now)
        if self._push is None or now < self._push[2]:
            return out
        m, frame, _, tries = self._push
        if tries >= PUSH_TRIES:
            s = self.session
            log.warning("dock: %s did not answer the %s", s.serial if s else "?",
                        "pairing" if self._pushing_pairing() else "enrollment")
            if s is not None and self._pushing_pairing():
                s.pairing_state = "not answered"
            self._push = None
            return out
        self._push = (m, frame, now + PUSH_RETRY_NS, tries + 1)
        return [*out, frame]

    def next_wake(self) -> int | None:
        wakes = [w for w in (self._push[2] if self._push else None,
                             self.enrolling.due_ns if self.enrolling else None,
                             self._hello_grace[0] if self._hello_grace else None,
                             self._check_due if self._may_push() else None) if w is not None]
        return min(wakes) if wakes else None

    # ------------------------------------------------------------------ helpers
    def _current(self) -> Session:
        """The docking under way: every message but a hello comes after one (`receive` checks)."""
        if self.session is None:
            raise AssertionError("no session: receive() answers anything before a hello with `who`")
        return self.session

    def _frame(self, body: dict[str, Any]) -> bytes:
        self._m += 1
        return encode({"t": body.pop("t"), "m": self._m, **body})

    def noise(self, reason: str, detail: str = "") -> None:
        """A line the link dropped before it became a frame (e.g. too-long): refused and logged."""
        self._refuse(reason, detail)

    def _refuse(self, reason: str, detail: str = "", rid: str | None = None, keep: bool = False,
                level: int = logging.WARNING) -> None:
        serial = self.session.serial if self.session else None
        self.refusals.add(reason, detail, who=(f" from {serial}" if serial else "") + (f" result {rid}" if rid else ""),
                          level=level)
        if keep:
            if self.session:
                self.session.refused += 1
            if not self._kept.take():
                return  # counted and summed up in the log; the table keeps the first ones of the hour
            try:
                self.store.refusal(reason, detail, serial=serial, rid=rid, source=self.source)
            except Exception as exc:  # the refusal is logged above; the store's trouble is reported
                log.error("dock: could not record the refusal: %s", exc)

    def _version(self, now: int, msg: JSONObject) -> list[bytes]:
        theirs = msg.get("proto")
        text = (note("the clock speaks dock protocol {theirs}, this PC {ours}: update gameclock on the PC",
                     theirs=repr(theirs), ours=PROTO) if isinstance(theirs, int) and theirs > PROTO else
                note("the clock speaks dock protocol {theirs}, this PC {ours}: update the clock's firmware",
                     theirs=repr(theirs), ours=PROTO))
        self._refuse("version", text)
        self.last_error, self._version_error = text, True
        re_m = msg.get("m") if isinstance(msg.get("m"), int) and 0 < msg["m"] < 2**53 else None
        return [self._frame({"t": "error", "re": re_m, "code": "version", "text": str(text)})]

    # ------------------------------------------------------------------ messages
    def _on_hello(self, now: int, msg: JSONObject) -> list[bytes]:
        if self._version_error:  # a clock that speaks our protocol now: the mismatch is over
            self.last_error, self._version_error = "", False
        info = {"event": msg["event"], "round": msg["round"], "table": msg["table"]}
        s = Session(msg["serial"], msg["nonce"], msg["kid"], msg["fw"], msg["pending"], info, docked_ns=now)
        s.key = self.store.key(s.serial, s.kid) if s.kid else None
        if self.session is not None and self.session.serial == s.serial:
            for name in (*COUNTS, "enrolled_now", "pairing_state"):
                setattr(s, name, getattr(self.session, name))  # the same docking, a new hello
            if not self._new_docking:
                s.docked_ns = self.session.docked_ns
            self.sessions[-1] = s
        else:
            self.sessions.append(s)
            for old in self.sessions[:-MAX_SESSIONS]:
                self.earlier["dockings"] += 1
                for name in COUNTS:
                    self.earlier[name] += getattr(old, name)
            del self.sessions[:-MAX_SESSIONS]
        self.session, self._asked_who = s, None
        if self.enrolling is None:  # an enrollment's step goes on being pushed: a hello does not end it
            self._push = None
        if s.key is not None:  # a serial nobody enrolled (or is enrolling) leaves no row behind (issue 24)
            try:
                self.store.seen(s.serial, {"fw": s.fw, "kid": s.kid, **info})
            except Exception as exc:
                log.error("dock: could not note the clock %s: %s", s.serial, exc)
        log.info("dock %s: hello from %s (fw %s, key %s, %d waiting)", self.source or "-", s.serial,
                 printable(s.fw), s.kid or "none", s.pending)
        out = [self._frame({"t": "welcome", "re": msg["m"], "proto": PROTO, "pc": self.name,
                            "known": s.key is not None,
                            "mac": sign.welcome_mac(s.key, s.nonce) if s.key else None})]
        if s.enrolled_now is not None and s.kid == s.enrolled_now and s.key is not None:
            out += self._enroll_proved(s)
        if self.enrolling is not None:
            pass  # one enrollment at a time, and never a new one at a hello (issue 24: a re-rolled code)
        elif self.enroll and self.enrolls == 0 and not self.last_error:
            out += self._start_enroll(now, s, wait=True)
        elif s.key is not None and self.push_pairings:
            out += self._start_pairing(now, s, s.key)
        elif s.key is None and self._notes.take():  # (a hello flood is not written out line by line)
            missed = self._notes.pop_missed()
            log.warning("dock: clock %s is not enrolled on this PC (key %s): run gameclock enroll%s",
                        s.serial, s.kid or "none", f" ({missed} more such hellos not logged)" if missed else "")
        return out

    def _start_push(self, now: int, body: dict[str, Any]) -> list[bytes]:
        frame = self._frame(body)
        self._push = (self._m, frame, now + PUSH_RETRY_NS, 1)
        return [frame]

    def _pushing_pairing(self) -> bool:
        """The message being pushed is a pairing (not an enrollment's step)."""
        s = self.session
        return self._push is not None and s is not None and s.pairing_m == self._push[0]

    def nudge(self) -> None:
        """Look at the store's dock_stamp at the next poll, not up to CHECK_NS later (the desk calls it, through
        the port's worker, when the organiser published a round or assigned a clock)."""
        self._check_due = 0

    # ------------------------------------------------------------------ enrollment (enroll.py)
    @property
    def enroll_code(self) -> str:
        """The comparison code to show the organiser ("" until both nonces are known)."""
        e = self.enrolling
        return e.code if e is not None else ""

    def start_enroll(self, now: int, replace: bool = False) -> list[bytes]:
        """Enroll the clock docked now (the desk's Enroll button; `gameclock enroll` asks at the hello
        with `enroll=True` instead): as at a hello, a clock this PC knows must prove its key unless
        `replace`. Refused (`last_error`) with no clock, an enrollment under way or a push unanswered."""
        s = self.session
        if s is None:
            self.last_error = note("no clock has said hello on this port")
            return []
        if self.enrolling is not None and self.enrolling.stage != "done":
            self.last_error = note("clock {serial}: an enrollment is under way already", serial=s.serial)
            return []
        if self._push is not None and not self._pushing_pairing():  # (a pairing is pushed again after it)
            self.last_error = note("clock {serial} has not answered the PC's last message yet: try again", serial=s.serial)
            return []
        if not self._enroll_budget.take():
            self.last_error = note("{n} enrollments were started on this port in the last hour: wait before the next "
                                   "(each one is a chance for a device on the cable to guess a code)", n=MAX_ENROLLS)
            return []
        self.last_error, self._version_error, self.unproven = "", False, ""
        self.replace = replace
        s.enrolled_now = None
        return self._start_enroll(now, s)

    def _start_enroll(self, now: int, s: Session, wait: bool = False) -> list[bytes]:
        """Start THE enrollment of clock `s`: one key pair and nonce, so one code (issue 24). `wait`
        (`gameclock enroll`, at a hello): a hello that cannot start it waits HELLO_GRACE_NS for the clock's
        next one instead of ending the run (a clock tries a confirmed new key first, then its old one)."""
        try:
            enrolled_here = self.store.has_keys(s.serial)
            # the key the hello named, as it stands now: one revoked since (the clock re-enrolled on another
            # port) proves nothing, or a device holding a stolen copy could re-key the serial
            s.key = self.store.key(s.serial, s.kid) if s.kid else None
        except Exception as exc:
            self.last_error = note("cannot read the keys of clock {serial}: {error}", serial=s.serial, error=str(exc))
            log.error("dock: %s", self.last_error)
            return []
        if enrolled_here and s.key is None and not self.replace:
            revoked = self.store.revoked(s.serial, s.kid) if s.kid else None
            why = (note("clock {serial} is enrolled on this PC, but it does not hold that key (its key {kid} was revoked "
                        "at {at}): enroll it with --replace to revoke the old key (results signed with it are refused "
                        "from then on)", serial=s.serial, kid=str(s.kid), at=str(revoked)) if revoked else
                   note("clock {serial} is enrolled on this PC, but it does not hold that key: enroll it with --replace "
                        "to revoke the old key (results signed with it are refused from then on)", serial=s.serial))
            if wait:
                if self._hello_grace is None:
                    self._hello_grace = (now + HELLO_GRACE_NS, why)
                return []
            self.last_error = why
            log.error("dock: %s", self.last_error)
            return []
        self._hello_grace = None
        half = agreement.Half(s.serial, replace=self.replace, digits=self.code_digits)
        self.enrolling = _Enrolling(half, s.serial, old_key=None if self.replace else s.key,
                                    due_ns=now + ENROLL_STEP_NS)
        self.enrolls += 1
        log.info("dock: enrolling clock %s (%s)", s.serial,
                 "replacing its keys" if self.replace else "proving its old key" if s.key else "a new clock")
        out = self._start_push(now, {"t": "enroll", "serial": s.serial, "pub": half.pub, "replace": self.replace})
        self.enrolling.m = self._m
        return out

    def _enroll_poll(self, now: int) -> list[bytes]:
        """The enrollment's clock: a stage not finished in time is abandoned, saying why."""
        if self._hello_grace is not None and now >= self._hello_grace[0]:
            self.last_error, self._hello_grace = self._hello_grace[1], None
            log.error("dock: %s", self.last_error)
        e = self.enrolling
        if e is None or now < e.due_ns:
            return []
        if e.stage == "done":  # the key is stored and the others revoked: the clock proves it when it can
            self.enrolling = None
            self.unproven = note("clock {serial}: its new key is stored here and its other keys are revoked, but the "
                                 "clock has not said hello under the new key: it does at its next docking (if it shows "
                                 "NOT ENROLLED then, enroll it again with --replace)", serial=e.serial)
            log.warning("dock: %s", self.unproven)
            return []
        return self._enroll_failed({
            "sent": words("it did not answer the enrollment within {s} s (nothing stored)", s=ENROLL_STEP_NS // NS),
            "nonce": _unrevealed(words("within {s} s", s=ENROLL_STEP_NS // NS)),
            "compare": words("the code was not confirmed on both sides within {s} s ({who}; nothing stored)",
                             s=ENROLL_COMPARE_NS // NS,
                             who=words("the organiser typed it; the arbiter did not confirm on the clock")
                             if e.organiser_ok else words("the arbiter confirmed on the clock; nobody typed it here")
                             if e.clock_ok else words("neither the arbiter nor the organiser answered")),
        }[e.stage], "timeout")

    def _enroll_step(self, msg: JSONObject, stage: str) -> _Enrolling | None:
        """The enrollment under way if `msg` is its next step (`stage` is where it must be), else None."""
        e = self.enrolling
        if e is None or e.stage != stage or e.serial != self._current().serial:
            self._refuse("no-enrollment", str(msg["t"]))
            return None
        return e

    def _on_enroll_commit(self, now: int, msg: JSONObject) -> list[bytes]:
        e = self._enroll_step(msg, "sent")
        if e is None or msg["re"] != e.m:
            return []
        e.half.peer_pub, e.commit, e.stage = msg["pub"], msg["commit"], "nonce"
        e.due_ns = now + ENROLL_STEP_NS
        out = self._start_push(now, {"t": "enroll-nonce", "re": msg["m"], "nonce": e.half.nonce})
        e.m = self._m
        return out

    def _on_enroll_reveal(self, now: int, msg: JSONObject) -> list[bytes]:
        e = self._enroll_step(msg, "nonce")
        if e is None or msg["re"] != e.m:
            return []
        self._push = None
        if not sign.same(e.commit, agreement.commitment(msg["nonce"], e.half.peer_pub, e.half.pub)):
            return self._enroll_failed(words("the clock's nonce does not match its commitment"), "bad-commitment")
        e.half.peer_nonce = msg["nonce"]
        try:
            e.key, e.code, e.transcript = e.half.derive(pc=True)
        except ValueError:
            return self._enroll_failed(words("the clock sent a public key X25519 refuses"), "bad-key")
        e.stage, e.due_ns = "compare", now + ENROLL_COMPARE_NS
        log.info("dock: enrollment code of %s: %s", e.serial, agreement.shown(e.code))
        return []

    def organiser_code(self, now: int, typed: str) -> list[bytes]:
        """The organiser typed the code the clock shows: the same as ours, or the enrollment ends."""
        e = self.enrolling
        if e is None or e.stage != "compare":
            return []
        digits = "".join(ch for ch in typed if not ch.isspace())
        if not (digits.isascii() and digits.isdigit() and hmac.compare_digest(digits, e.code)):
            return self._enroll_failed(words("the code typed ({typed}) is not this PC's {code}: not enrolled (is another "
                                             "device between the clock and this PC?)", typed=repr(typed.strip()[:12]),
                                             code=agreement.shown(e.code)), "code-mismatch")
        e.organiser_ok = True
        return self._enroll_finish(now)

    def _on_enroll_confirm(self, now: int, msg: JSONObject) -> list[bytes]:
        e = self._enroll_step(msg, "compare")
        if e is None or e.key is None or e.transcript is None:
            return []
        if not sign.same(msg["mac"], agreement.confirm_mac(e.key, e.transcript)):
            return self._enroll_failed(words("the clock's confirmation does not verify"), "bad-mac")
        if e.old_key is not None and not (
                msg["old"] is not None and sign.same(msg["old"], agreement.old_key_mac(e.old_key, e.transcript))):
            return self._enroll_failed(words("clock {serial} did not prove the key this PC knows: enroll it with "
                                             "--replace to revoke that key", serial=e.serial), "old-key")
        if e.old_key is not None and self.store.key(e.serial, sign.key_id(e.old_key)) is None:
            return self._enroll_failed(words("the key clock {serial} proved was revoked during the enrollment (the clock "
                                             "was enrolled elsewhere meanwhile): enroll it with --replace if this is the "
                                             "clock", serial=e.serial), "old-key")
        e.clock_ok = True
        return self._enroll_finish(now)

    def _enroll_finish(self, now: int) -> list[bytes]:
        """Both people confirmed: store the key and revoke the clock's others in one transaction (issue 24:
        from this moment a stolen old key is refused, whatever frame is lost next), then tell the clock. The
        clock kept the new key aside when its arbiter said yes (clockside), so it can prove it at its next
        hello even if our `enroll-done` never reaches it."""
        e = self.enrolling
        if e is None or not (e.organiser_ok and e.clock_ok) or e.key is None or e.transcript is None:
            return []
        try:
            kid = self.store.add_key(e.serial, e.key, revoke_others=True)
        except Exception as exc:
            return self._enroll_failed(words("the key could not be stored: {error}", error=str(exc)), "storage")
        self._current().enrolled_now = kid
        e.stage, e.due_ns = "done", now + ENROLL_STEP_NS
        log.info("dock: key %s of clock %s stored, its other keys revoked; sending it the word", kid, e.serial)
        return self._start_push(now, {"t": "enroll-done", "mac": agreement.done_mac(e.key, e.transcript)})

    def _enroll_proved(self, s: Session) -> list[bytes]:
        """The clock said hello under its new key: the enrollment is over (the old keys were revoked when
        the key was stored)."""
        if self.enrolling is not None and self.enrolling.stage == "done":
            self.enrolling = None
            self._push = None
            log.info("dock: clock %s enrolled with key %s", s.serial, s.enrolled_now)
        return []

    def _enroll_failed(self, text: Words, reason: str) -> list[bytes]:
        serial = self.enrolling.serial if self.enrolling else "?"
        self.enrolling = None
        self._push = None
        self.last_error = note("clock {serial}: {text}", serial=serial, text=text)
        self._refuse(reason, "enrollment")
        log.error("dock: %s", self.last_error)
        return [self._frame({"t": "enroll-cancel", "reason": reason})]

    def _on_enroll_cancel(self, now: int, msg: JSONObject) -> list[bytes]:
        e = self.enrolling
        if e is None or e.stage == "done":
            return []
        self.enrolling = None
        self._push = None
        if e.stage == "nonce":  # a clock reveals the instant our nonce comes: it has nothing to cancel before
            self.last_error = note("clock {serial}: {text}", serial=e.serial, text=_unrevealed(
                words("it cancelled instead: {reason}", reason=printable(msg["reason"]))))
            log.error("dock: %s", self.last_error)
            return []
        why: str | Words = {"declined": words("the arbiter declined on the clock"),
                            "timeout": words("the clock waited too long"),
                            "busy": words("a game is running on it")}.get(msg["reason"], printable(msg["reason"]))
        self.last_error = note("clock {serial} cancelled the enrollment: {why}", serial=e.serial, why=why)
        log.error("dock: %s", self.last_error)
        return []

    def _may_push(self) -> bool:
        """A pairing may be pushed now: a clock whose key this PC holds is docked and was heard lately, and
        no enrollment runs on the port."""
        s = self.session
        return (self.push_pairings and s is not None and s.key is not None and self.enrolling is None
                and self.heard_ns is not None)

    def _check_pairings(self, now: int) -> list[bytes]:
        """Every CHECK_NS: when the store's dock_stamp moved (a round published, pairings loaded, a table
        assigned: in any process), the docked clock's pairing is looked up again and pushed if it changed."""
        if not self._may_push() or now < self._check_due:
            return []
        self._check_due = now + CHECK_NS
        s = self._current()
        if self.heard_ns is None or now - self.heard_ns >= QUIET_NS:
            return []  # gone: its next hello gets the pairing
        try:
            stamp = self.store.dock_stamp()
            if stamp == s.stamp:
                return []
            # the key as it stands now: one revoked since the hello (re-enrolled elsewhere) pushes nothing
            key = self.store.key(s.serial, s.kid) if s.kid else None
        except Exception as exc:
            log.error("dock: the store cannot be read: %s", exc)
            return []
        if key is None:
            return []
        return self._start_pairing(now, s, key)

    def _start_pairing(self, now: int, s: Session, key: bytes) -> list[bytes]:
        """Push the pairing of the clock's table -- the one the organiser assigned it, else its own settings' --
        signed with `key` (the clock's, which this PC holds) over the hello's nonce and the push's number."""
        try:
            s.stamp = self.store.dock_stamp()
            assigned = self.store.assignment(s.serial)
            s.assigned = None if assigned is None else {"event": assigned["event"], "table": assigned["table"]}
            where = s.assigned or s.info
            pairing = self.store.pairing_for(where["event"], where["table"])
        except Exception as exc:
            log.error("dock: pairings unreadable: %s", exc)
            return []
        if pairing is None:
            return []
        pairing = {"event": pairing.get("event"), "round": pairing["round"], "table": pairing["table"],
                   "players": {"left": pairing["players"].get("left"), "right": pairing["players"].get("right")},
                   **{k: pairing.get(k) for k in SETUP_KEYS},  # the event's set-up (protocol 3), null: not given
                   "game": pairing.get("game")}  # the game's number in its match (protocol 4), null: not given
        if pairing == s.pairing_sent:
            return []
        s.pairing_sent = pairing
        m = self._m + 1  # the number _frame gives it: the MAC covers it (protocol 5)
        s.pairing_m, s.pairing_state = m, "sent"
        log.info("dock %s: pushing %s round %s table %s to %s", self.source or "-", printable(str(pairing["event"])),
                 pairing["round"], pairing["table"], s.serial)
        return self._start_push(now, {"t": "pairing", "pairing": pairing,
                                      "mac": sign.pairing_mac(key, s.nonce, m, pairing)})

    def _on_ping(self, now: int, msg: JSONObject) -> list[bytes]:
        return [self._frame({"t": "pong", "re": msg["m"]})]

    def _on_ack(self, now: int, msg: JSONObject) -> list[bytes]:
        if self._push is not None and msg["re"] == self._push[0]:
            if self._pushing_pairing():
                self._current().pairing_state = "taken"
            self._push = None  # the clock took the enrollment or pairing
        return []

    def _on_nak(self, now: int, msg: JSONObject) -> list[bytes]:
        if self._push is not None and msg["re"] == self._push[0]:
            self._push = None
            serial = self._current().serial
            if self.enrolling is not None and self.enrolling.stage == "nonce":  # a clock naks only `enroll`
                self.enrolling = None
                self.last_error = note("clock {serial}: {text}", serial=serial, text=_unrevealed(
                    words("it refused instead: {reason}", reason=printable(msg["reason"]))))
            elif self.enrolling is not None:
                self.enrolling = None
                why: str | Words = {
                    "busy": words("a game is running on it: enroll it between games"),
                    "asking": words("it is busy with another enrollment (a code on its screen, one its arbiter confirmed "
                                    "that no PC finished, or one nobody answered in the last 3 minutes): answer it on "
                                    "the clock or wait 3 minutes, then enroll again")
                }.get(msg["reason"], printable(msg["reason"]))
                self.last_error = note("clock {serial} refused the enrollment: {why}", serial=serial, why=why)
            else:
                self.last_error = note("clock {serial} refused: {reason}", serial=serial, reason=printable(msg["reason"]))
                self._current().pairing_state = note("refused: {reason}", reason=printable(msg["reason"]))
            log.error("dock: %s", self.last_error)
        return []

    def _on_result(self, now: int, msg: JSONObject) -> list[bytes]:
        s = self._current()
        rid, rec = msg["id"], msg["rec"]

        def nak(reason: str, detail: str = "") -> list[bytes]:
            self._refuse(reason, detail, rid=rid, keep=True)
            return [self._frame({"t": "nak", "re": msg["m"], "id": rid, "reason": reason})]

        clock = rec.get("clock")
        if rec.get("id") != rid:
            return nak("bad-record", f"the record's id is {str(rec.get('id'))[:40]!r}")
        if (not isinstance(clock, dict) or clock.get("serial") != s.serial
                or not rid.startswith(s.serial + "-")):
            return nak("wrong-clock", f"{rid} is not a result of {s.serial}")
        # the key as it stands now, not as it stood at the hello: an enrollment (this port's, another
        # port's, another process's) may have revoked it since, and from then on it signs nothing here
        key = self.store.key(s.serial, s.kid) if s.kid is not None else None  # (a key is only found by its kid)
        if key is None or s.kid is None:
            s.key = None
            if self.store.revoked(s.serial, s.kid):
                return nak("revoked", f"key {s.kid} of {s.serial} was revoked (re-enrolled)")
            return nak("unenrolled", f"no key {s.kid or '(none)'} for {s.serial} on this PC")
        if not sign.same(msg["sig"], sign.sign_result(key, rec)):
            return nak("bad-signature")
        errors = schema_errors(rec)
        if errors:
            return nak("bad-record", "; ".join(errors[:3]))
        try:
            status = self.store.put_result(rec, msg["sig"], s.kid, self.source)
        except Exception as exc:
            log.error("dock: %s not stored: %s", rid, exc)
            return nak("storage", str(exc)[:100])
        if status == "stored":
            s.stored += 1
        elif status == "duplicate":
            s.duplicates += 1
        else:
            s.conflicts += 1
            log.error("dock: %s arrived again with other content: kept aside in conflicts", rid)
        return [self._frame({"t": "ack", "re": msg["m"], "id": rid, "status": status,
                             "mac": sign.ack_mac(key, rid, sign.digest(rec))})]
