"""Enrollment that proves presence (PROTOCOL.md, "Enrollment"; SECURITY.md): the key agreement and
the numbers both ends compute, with no I/O and no state machine (clockside/pcside drive it).

The clock and the PC each make an X25519 key pair for this enrollment only; the dock key is derived
from their shared secret (HKDF-SHA256), so it never crosses the wire. Someone in the middle could
agree one secret with each end; the **comparison code** unmasks them: both ends show a 6-digit code
computed from both public keys and both nonces, the arbiter confirms on the clock that the PC shows
the same one, and the organiser types the clock's code on the PC. The clock commits to its nonce
before it sees the PC's (as in Bluetooth's numeric comparison), so a man in the middle cannot steer
either code, only try again; and neither end shows a second code for it unseen (pcside: one code an
enrollment, none started at a hello; clockside: one code until the arbiter answers it). One guess per
enrollment the people compare, a one-in-a-million chance (SECURITY.md, "One guess").

    clock                                       PC
      <-------------------- enroll {pub_pc}
      enroll-commit {pub_clock, commit} ----->        commit = H(nonce_clock, pub_clock, pub_pc)
      <-------------------- enroll-nonce {nonce_pc}
      enroll-reveal {nonce_clock} ----------->        the PC checks the commitment
      both show code(...); the arbiter confirms on the clock, the organiser types it on the PC
      enroll-confirm {mac, old} ------------->        mac under the new key; old: under the old one
      <-------------------- enroll-done {mac}         the PC stored the key (revoking as it says)
      the clock stores the key, hellos again

All values on the wire are lower-case hex: public keys 64 digits, nonces 32, MACs 64.
"""
from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import sign

CODE_DIGITS = 6           # the comparison code's length on every clock and PC (SECURITY.md)
TEST_CODE_DIGITS = 3      # the shortest code a test may ask for (`gameclock enroll --code-digits`, hidden)
NONCE_BYTES = 16
INFO = b"gameclock dock key v2"


def _h(*parts: bytes) -> bytes:
    return hashlib.sha256(b"\n".join(parts)).digest()


def _raw(public: X25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def commitment(nonce_clock: str, pub_clock: str, pub_pc: str) -> str:
    """The clock's commitment to its nonce before it sees the PC's (hex)."""
    return hmac.new(bytes.fromhex(nonce_clock), b"commit\n" + pub_clock.encode() + b"\n" + pub_pc.encode(),
                    hashlib.sha256).hexdigest()


def code(serial: str, pub_pc: str, pub_clock: str, nonce_pc: str, nonce_clock: str,
         digits: int = CODE_DIGITS) -> str:
    """The comparison code both ends show: 6 decimal digits. `digits` other than 6 only in tests (a
    3-digit code makes a man in the middle's one-in-a-thousand chance measurable); a real clock always
    shows 6, so a PC asked for fewer can never enroll one (the code typed never equals its own)."""
    d = _h(b"code", serial.encode(), pub_pc.encode(), pub_clock.encode(), nonce_pc.encode(), nonce_clock.encode())
    return f"{int.from_bytes(d[:8], 'big') % 10**digits:0{digits}d}"


def shown(code_text: str) -> str:
    """How a code is shown to people: `123 456` (a test's 3-digit code: `123`)."""
    return f"{code_text[:3]} {code_text[3:]}".strip()


def transcript(serial: str, pub_pc: str, pub_clock: str, nonce_pc: str, nonce_clock: str, replace: bool) -> bytes:
    """What the confirmation MACs are over: everything both ends saw."""
    return b"\n".join([b"enroll-v2", serial.encode(), pub_pc.encode(), pub_clock.encode(), nonce_pc.encode(),
                       nonce_clock.encode(), b"replace" if replace else b"keep"])


def confirm_mac(key: bytes, t: bytes) -> str:
    """The clock's proof that it derived `key` (sent after the arbiter confirmed)."""
    return hmac.new(key, b"confirm\n" + t, hashlib.sha256).hexdigest()


def old_key_mac(old_key: bytes, t: bytes) -> str:
    """The clock's proof that it holds its old key (a re-enrollment without --replace)."""
    return hmac.new(old_key, b"enroll-old\n" + t, hashlib.sha256).hexdigest()


def done_mac(key: bytes, t: bytes) -> str:
    """The PC's word that it stored `key` (the clock stores it only then)."""
    return hmac.new(key, b"done\n" + t, hashlib.sha256).hexdigest()


@dataclass
class Half:
    """One end's part of an enrollment: its key pair and nonce, and once the peer's public key and
    nonce are known, the shared key, the code and the transcript."""

    serial: str
    replace: bool = False
    digits: int = CODE_DIGITS          # the code's length (6; fewer only in tests: `code`)
    private: X25519PrivateKey = field(default_factory=X25519PrivateKey.generate, repr=False)
    nonce: str = field(default_factory=lambda: os.urandom(NONCE_BYTES).hex())
    peer_pub: str = ""
    peer_nonce: str = ""

    @property
    def pub(self) -> str:
        return _raw(self.private.public_key()).hex()

    def derive(self, *, pc: bool) -> tuple[bytes, str, bytes]:
        """(dock key, code, transcript) once `peer_pub` and `peer_nonce` are set. `pc`: which end this is.
        Raises ValueError for a peer key X25519 refuses (all zeros, a low-order point)."""
        pub_pc, pub_clock = (self.pub, self.peer_pub) if pc else (self.peer_pub, self.pub)
        nonce_pc, nonce_clock = (self.nonce, self.peer_nonce) if pc else (self.peer_nonce, self.nonce)
        shared = self.private.exchange(X25519PublicKey.from_public_bytes(bytes.fromhex(self.peer_pub)))
        key = HKDF(algorithm=hashes.SHA256(), length=sign.KEY_BYTES,
                   salt=bytes.fromhex(nonce_pc + nonce_clock),
                   info=INFO + b"\n" + self.serial.encode() + b"\n" + (pub_pc + pub_clock).encode()).derive(shared)
        return (key, code(self.serial, pub_pc, pub_clock, nonce_pc, nonce_clock, self.digits),
                transcript(self.serial, pub_pc, pub_clock, nonce_pc, nonce_clock, self.replace))
