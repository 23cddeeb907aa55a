"""The messages of the dock protocol (PROTOCOL.md, "Messages"): what each type must carry.

`check(msg, allowed)` returns the message's type or raises `Refused(reason, detail)`; the endpoints
log every refusal with its reason. Only the shape is checked here; MACs and meaning are the
endpoints' business.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TypeGuard

from .pairing import MAX_GAME, PRESET_ID, SETUP_CHOICES

# 5: a pairing's MAC covers its message number `m` (issue 26: the PC pushes a pairing to a clock docked now,
#    so a push is not only the hello's answer; the clock takes each m once and none below the last): a version
#    4 end would find every pairing of a version 5 end's MAC wrong, so the hello's check stops them first
# 4: a pairing carries the game's number in its match (`game`, issue 16: the clock shows G2): a version 3
#    clock would refuse the new key, a version 4 clock a version 3 PC's pairing without it
# 3: a pairing carries the event's set-up (level, stage, language, preset; issue 15): a version 2 end
#    would refuse the new pairing's fields or send a pairing without them, so the versions do not mix
# 2: enrollment by key agreement and a comparison code (1 sent the key in clear)
PROTO = 5
HEX16 = re.compile(r"^[0-9a-f]{16}$")
HEX32 = re.compile(r"^[0-9a-f]{32}$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
SERIAL = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
RID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
MAX_M = 2**53  # message numbers stay exact in any JSON reader


class Refused(ValueError):
    """A message refused: `reason` is a short code (logged and counted), `detail` says more."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


Check = Callable[[object], bool]   # is this field's value well formed?
Spec = dict[str, Check]            # a message type's fields and their checks


def _int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _str(v: object, limit: int = 200) -> TypeGuard[str]:
    return isinstance(v, str) and len(v) <= limit


def _opt(check: Check) -> Check:
    return lambda v: v is None or check(v)


def _match(rx: re.Pattern[str]) -> Check:  # fullmatch: `$` alone would let a trailing newline through ("abc\n")
    return lambda v: isinstance(v, str) and rx.fullmatch(v) is not None


def _players(v: object) -> bool:
    return (isinstance(v, dict) and set(v) == {"left", "right"}
            and all(x is None or _str(x, 120) for x in v.values()))


PAIRING_KEYS = {"event", "round", "table", "players", "level", "stage", "language", "preset", "game"}


def _setup(v: Mapping[object, object]) -> bool:
    """The event's set-up (version 3): each null or one of its words; the preset an id's form."""
    preset = v["preset"]
    return (all(v[k] is None or v[k] in choices for k, choices in SETUP_CHOICES.items())
            and (preset is None or (isinstance(preset, str) and PRESET_ID.fullmatch(preset) is not None)))


def _pairing(v: object) -> bool:
    return (isinstance(v, dict) and set(v) == PAIRING_KEYS
            and (v["event"] is None or _str(v["event"], 64)) and _int(v["round"]) and v["round"] >= 1
            and _int(v["table"]) and v["table"] >= 1 and _players(v["players"]) and _setup(v)
            and (v["game"] is None or (_int(v["game"]) and 1 <= v["game"] <= MAX_GAME)))


_M: Spec = {"m": lambda v: _int(v) and 0 < v < MAX_M}
_RE: Spec = {"re": lambda v: _int(v) and 0 < v < MAX_M}

# type -> {field: check}; every field listed is required, no other field is allowed
CLOCK_TO_PC: dict[str, Spec] = {
    "hello": {**_M, "proto": _int, "serial": _match(SERIAL), "fw": lambda v: _str(v, 40),
              "nonce": _match(HEX32), "kid": _opt(_match(HEX16)),
              "pending": lambda v: _int(v) and v >= 0, "event": _opt(lambda v: _str(v, 64)),
              "round": _opt(_int), "table": _opt(_int)},
    "ping": {**_M},
    "result": {**_M, "id": _match(RID), "rec": lambda v: isinstance(v, dict), "sig": _match(HEX64)},
    "ack": {**_M, **_RE},
    "nak": {**_M, **_RE, "reason": lambda v: _str(v, 40)},
    "enroll-commit": {**_M, **_RE, "pub": _match(HEX64), "commit": _match(HEX64)},
    "enroll-reveal": {**_M, **_RE, "nonce": _match(HEX32)},
    "enroll-confirm": {**_M, "mac": _match(HEX64), "old": _opt(_match(HEX64))},
    "enroll-cancel": {**_M, "reason": lambda v: _str(v, 40)},
}
PC_TO_CLOCK: dict[str, Spec] = {
    "welcome": {**_M, **_RE, "proto": _int, "pc": lambda v: _str(v, 64), "known": lambda v: isinstance(v, bool),
                "mac": _opt(_match(HEX64))},
    "ack": {**_M, **_RE, "id": _match(RID), "status": lambda v: v in ("stored", "duplicate", "conflict"),
            "mac": _match(HEX64)},
    "nak": {**_M, **_RE, "id": _match(RID), "reason": lambda v: _str(v, 40)},
    "pong": {**_M, **_RE},
    "who": {**_M},
    "enroll": {**_M, "serial": _match(SERIAL), "pub": _match(HEX64), "replace": lambda v: isinstance(v, bool)},
    "enroll-nonce": {**_M, **_RE, "nonce": _match(HEX32)},
    "enroll-done": {**_M, "mac": _match(HEX64)},
    "enroll-cancel": {**_M, "reason": lambda v: _str(v, 40)},
    "pairing": {**_M, "pairing": _pairing, "mac": _match(HEX64)},
    "error": {**_M, "re": _opt(lambda v: _int(v) and 0 < v < MAX_M), "code": lambda v: _str(v, 40),
              "text": lambda v: _str(v, 300)},
}


def check(msg: Mapping[str, object], allowed: Mapping[str, Spec]) -> str:
    """The type of `msg` if it is one of `allowed` and well formed; else Refused."""
    t = msg.get("t")
    if not isinstance(t, str) or t not in allowed:
        raise Refused("unknown-type", repr(t)[:40])
    spec = allowed[t]
    extra = set(msg) - set(spec) - {"t"}
    if extra:
        raise Refused("bad-message", f"{t}: unexpected field(s) {', '.join(sorted(map(str, extra)))[:80]}")
    for name, ok in spec.items():
        if name not in msg:
            raise Refused("bad-message", f"{t}: missing {name}")
        if not ok(msg[name]):
            raise Refused("bad-message", f"{t}: bad {name} {repr(msg[name])[:40]}")
    return t
