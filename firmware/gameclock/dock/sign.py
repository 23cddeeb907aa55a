"""Keys and MACs of the dock protocol (PROTOCOL.md, "Keys and signatures").

Every MAC is HMAC-SHA256 as 64 lower-case hex digits over a purpose prefix and the data, so a MAC
made for one purpose (an ack) can never pass for another (a result). Comparisons are constant-time.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
from collections.abc import Mapping

KEY_BYTES = 32
HEX64 = re.compile(r"^[0-9a-f]{64}$")


def canonical(obj: object) -> bytes:
    """The signed form of a JSON value: sorted keys, no spaces, UTF-8."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def new_key() -> bytes:
    return os.urandom(KEY_BYTES)


def key_id(key: bytes) -> str:
    """The key's public name: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(key).hexdigest()[:16]


def _mac(key: bytes, *parts: bytes) -> str:
    return hmac.new(key, b"\n".join(parts), hashlib.sha256).hexdigest()


def digest(record: Mapping[str, object]) -> str:
    """SHA-256 hex of the record's canonical form (what an ack is bound to)."""
    return hashlib.sha256(canonical(record)).hexdigest()


def sign_result(key: bytes, record: Mapping[str, object]) -> str:
    return _mac(key, b"result", canonical(record))


def ack_mac(key: bytes, rid: str, record_digest: str) -> str:
    return _mac(key, b"ack", rid.encode("utf-8"), record_digest.encode("ascii"))


def welcome_mac(key: bytes, nonce: str) -> str:
    return _mac(key, b"welcome", nonce.encode("ascii"))


def pairing_mac(key: bytes, nonce: str, m: int, pairing: Mapping[str, object]) -> str:
    """A pairing pushed in message number `m` of the docking whose hello had `nonce` (protocol 5: the clock
    takes each `m` once and none below the last, so an old push sent again is refused)."""
    return _mac(key, b"pairing", nonce.encode("ascii"), str(m).encode("ascii"), canonical(pairing))


def same(mac: object, expected: str) -> bool:
    """Constant-time check of a received MAC (anything but a 64-hex string is False)."""
    return isinstance(mac, str) and HEX64.match(mac) is not None and hmac.compare_digest(mac, expected)
