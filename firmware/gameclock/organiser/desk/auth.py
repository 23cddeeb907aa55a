"""The organiser's login: the password hashed with scrypt (stored in the store's `desk_settings`),
the session cookie's secret in a 0600 file beside the database, the session epoch (desk_settings:
logging out ends every session's cookie, copies included), a CSRF token per session, and a
throttle on failed logins. No web framework here: app.py wires it in.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
import time
from pathlib import Path

from gameclock.dataerrors import display_path

PASSWORD_KEY = "organiser_password"   # desk_settings key
# desk_settings key: the epoch every login session's cookie carries; logging out sets a new one, so
# every cookie made before (a copy of the organiser's included) is refused from then on
SESSION_EPOCH_KEY = "session_epoch"
MIN_PASSWORD = 8
MAX_PASSWORD = 256
# scrypt's cost: 16 MiB and ~50 ms a try on a PC (RFC 7914's interactive figures)
SCRYPT_N, SCRYPT_R, SCRYPT_P, SCRYPT_LEN = 2**14, 8, 1, 32
SECRET_BYTES = 32


class AuthError(ValueError):
    """A password or a secret file that cannot be used: one line saying why."""


def check_new_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise AuthError(f"the password needs at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise AuthError(f"the password is longer than {MAX_PASSWORD} characters")


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=SCRYPT_LEN,
                          maxmem=64 * 1024 * 1024)


def hash_password(password: str) -> str:
    """`scrypt$N$r$p$SALT$HASH` (hex) of a new password (AuthError if too short or long)."""
    check_new_password(password)
    salt = secrets.token_bytes(16)
    digest = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """Whether `password` is the one `stored` (hash_password's text) was made of; False for a
    malformed text or an over-long password (never an exception)."""
    if len(password) > MAX_PASSWORD:
        return False
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return False
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, digest = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
    except ValueError:
        return False
    if not (2 <= n <= 2**20 and 1 <= r <= 32 and 1 <= p <= 16 and len(digest) == SCRYPT_LEN):
        return False
    return hmac.compare_digest(_scrypt(password, salt, n, r, p), digest)


def secret_path_for(db_path: str | os.PathLike[str]) -> Path:
    """The session secret's file beside the database: `gameclock.db` -> `gameclock.db.desk-secret`."""
    db = Path(db_path)
    return db.with_name(db.name + ".desk-secret")


def load_or_create_secret(path: str | os.PathLike[str]) -> str:
    """The session cookie's signing secret: read from `path`, or made at first start (32 random bytes
    as hex, the file created 0600, never overwritten). AuthError for a file that is not a regular
    file, is readable by others, or does not hold a secret."""
    p = Path(path)
    shown = display_path(p)
    try:
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError as exc:
        raise AuthError(f"{shown}: cannot create the desk's secret ({exc.strerror})") from None
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(SECRET_BYTES) + "\n")
    try:
        st = os.stat(p, follow_symlinks=False)
    except OSError as exc:
        raise AuthError(f"{shown}: cannot read the desk's secret ({exc.strerror})") from None
    if not stat.S_ISREG(st.st_mode):
        raise AuthError(f"{shown}: the desk's secret is not a regular file")
    if st.st_mode & 0o077:
        raise AuthError(f"{shown}: the desk's secret is readable by others (chmod 600 {shown})")
    if st.st_size > 1024:
        raise AuthError(f"{shown}: not a desk secret (over 1 KiB)")
    text = p.read_text(encoding="ascii", errors="replace").strip()
    if len(text) < 2 * SECRET_BYTES or any(c not in "0123456789abcdef" for c in text):
        raise AuthError(f"{shown}: not a desk secret (64 or more hex digits)")
    return text


def new_token() -> str:
    """A CSRF token for a session."""
    return secrets.token_urlsafe(32)


def new_epoch() -> str:
    """A new session epoch (SESSION_EPOCH_KEY): 16 random hex digits."""
    return secrets.token_hex(8)


def same_token(given: object, expected: object) -> bool:
    """Whether the form's token is the session's (constant time; False for anything not a string)."""
    return (isinstance(given, str) and isinstance(expected, str) and bool(expected)
            and hmac.compare_digest(given.encode(), expected.encode()))


class Throttle:
    """Failed logins per key: after `limit` failures within `window` s, that key is refused until
    the oldest of them is `window` s old. At most `clients` keys are remembered (the oldest forgotten).
    LoginThrottle says which key a login counts under."""

    def __init__(self, limit: int = 5, window: float = 60.0, clients: int = 1000, clock=time.monotonic):
        self.limit, self.window, self.clients, self.clock = limit, window, clients, clock
        self._fails: dict[str, list[float]] = {}

    def _recent(self, client: str) -> list[float]:
        now = self.clock()
        fails = [t for t in self._fails.get(client, []) if now - t < self.window]
        if fails:
            self._fails[client] = fails
        else:
            self._fails.pop(client, None)
        return fails

    def blocked(self, client: str) -> bool:
        return len(self._recent(client)) >= self.limit

    def failed(self, client: str) -> None:
        fails = self._recent(client)
        fails.append(self.clock())
        self._fails.pop(client, None)
        self._fails[client] = fails[-self.limit:]
        while len(self._fails) > self.clients:
            self._fails.pop(next(iter(self._fails)))

    def succeeded(self, client: str) -> None:
        self._fails.pop(client, None)


# ------------------------------------------------------------------------------------------ known browsers
KNOWN_BROWSER_COOKIE = "gameclock_browser"
KNOWN_BROWSER_AGE = 365 * 86400   # s: a season of tournaments
UNKNOWN = "unknown"               # the throttle's key of every browser the desk does not know, together


class LoginThrottle(Throttle):
    """Wrong passwords, counted so that nobody can lock the organiser out (issue 24, B8).

    Why not per address: on the organiser's PC every program, and every page of another site whose
    name was re-resolved to 127.0.0.1, comes from 127.0.0.1; five of their wrong guesses locked the
    organiser out. Nothing in a request tells the organiser's browser from another program's except
    what the organiser's browser holds. So the desk gives the browser that set the password, and each
    browser that logs in, a *known-browser* cookie (OWASP, "Slow Down Online Guessing Attacks with
    Device Cookies"): `known_browser_token`, signed with the desk's secret for the password in
    effect, kept a year, HttpOnly, SameSite=Strict, sent to /login only. The throttle counts

    - each known browser's wrong passwords apart (`limit` in `window` s, then that browser waits):
      another program's guesses never touch the organiser's count, so the organiser's browser gets in
      at once, however hard others flood (the bound: one password check, ~50 ms, plus at most the
      MAX_CHECKS checks already running: login.py);
    - every other browser's together (key UNKNOWN): `limit` guesses in any `window` s for all of
      them at once, whatever addresses, sessions or cookies they use: an attacker without the
      password gets five guesses a minute, 7,200 a day.

    The cost: a browser the desk does not know yet (a new one, its cookies cleared) shares the five a
    minute with whoever floods, and can be kept out while the flood lasts; the organiser then logs in
    from the browser that set the password (or last logged in), or stops the flood. A lock that the
    right password lifts after a delay cannot do better without a fact like this cookie: a password
    checked during the lock is a guess checked (an attacker's too), and one not checked cannot lift it.

    Each try counts before its password is checked (login.py), so tries sent together cannot pass
    the limit while the first are still being checked."""

    def key(self, browser: str | None) -> str:
        """The key a try counts under: the known browser's id, or UNKNOWN."""
        return f"browser:{browser}" if browser else UNKNOWN

    def succeeded(self, client: str) -> None:
        """The right password: a known browser's count starts again; the unknown browsers' count stays
        (the organiser's login from a new browser does not hand an attacker five more guesses)."""
        if client != UNKNOWN:
            super().succeeded(client)


def _browser_mac(secret: str, browser: str, pwv: str) -> str:
    return hmac.new(secret.encode(), f"gameclock known browser {browser} {pwv}".encode(), hashlib.sha256).hexdigest()


def known_browser_token(secret: str, pwv: str) -> str:
    """A new known-browser cookie's value, `ID.MAC` (ID: 16 random bytes, hex; MAC: HMAC-SHA256 with
    the desk's secret of the id and `pwv`, the password's tag: a new password forgets every browser)."""
    browser = secrets.token_hex(16)
    return f"{browser}.{_browser_mac(secret, browser, pwv)}"


def known_browser(token: object, secret: str, pwv: str) -> str | None:
    """The browser's id when `token` is a known-browser cookie this desk made for this password, else
    None (anything else: missing, malformed, forged, for another password)."""
    if not isinstance(token, str) or len(token) != 32 + 1 + 64 or token[32] != ".":
        return None
    browser, mac = token[:32], token[33:]
    if any(c not in "0123456789abcdef" for c in browser):
        return None
    return browser if hmac.compare_digest(mac.encode(), _browser_mac(secret, browser, pwv).encode()) else None
