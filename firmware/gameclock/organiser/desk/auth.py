"""The desk's accounts' secrets: passwords hashed with scrypt (each account's in the store's
`desk_accounts`), the session cookie's secret in a 0600 file beside the database, each account's
session epoch (logging out, disabling the account or a new password end every session of that
account, copies of its cookie included), a CSRF token per session, a throttle on failed logins and
the known-browser cookies it counts by. No web framework here: login.py and web.py wire it in.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
import stat
import time
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from gameclock.dataerrors import display_path
from gameclock.organiser.said import SaidError, words

# issue 24's desk_settings keys (one password, one epoch for the whole desk): migration 12 made them the
# account "organiser" and deleted them (organiser/store.py)
PASSWORD_KEY = "organiser_password"
SESSION_EPOCH_KEY = "session_epoch"
MIN_PASSWORD = 8
MAX_PASSWORD = 256
MAX_NAME = 40        # characters of an account's name
# scrypt's cost: 16 MiB and ~50 ms a try on a PC (RFC 7914's interactive figures)
SCRYPT_N, SCRYPT_R, SCRYPT_P, SCRYPT_LEN = 2**14, 8, 1, 32
SECRET_BYTES = 32


class AuthError(SaidError, ValueError):
    """A name, a password or a secret file that cannot be used: one line saying why."""


def clean_name(name: str) -> str:
    """An account's name as kept: NFC, spaces at the ends dropped and runs of them made one; AuthError
    for an empty name, one over MAX_NAME characters or holding a control character."""
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not name:
        raise AuthError(words("give the account a name"))
    if len(name) > MAX_NAME:
        raise AuthError(words("a name is at most {n} characters", n=MAX_NAME))
    if not name.isprintable():
        raise AuthError(words("a name holds letters, digits, spaces and signs, not control characters"))
    return name


def check_new_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise AuthError(words("the password needs at least {n} characters", n=MIN_PASSWORD))
    if len(password) > MAX_PASSWORD:
        raise AuthError(words("the password is longer than {n} characters", n=MAX_PASSWORD))


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


@functools.cache
def no_account_hash() -> str:
    """A hash of a random password, checked when a login names no account: the answer then takes
    as long as for a wrong password, so the time does not tell which names are accounts."""
    return hash_password(secrets.token_urlsafe(16))


def pwv_of(hashed: str) -> str:
    """A password's tag in session and known-browser cookies: its hash's last 16 hex digits (a new
    password, a new tag: every cookie made for the old one is refused)."""
    return hashed[-16:]


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
    """A new session epoch (an account's `epoch`): 16 random hex digits."""
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
UNKNOWN = "unknown"               # the throttle's key of every name that is no account's, together
MAX_KNOWN = 8                     # accounts one known-browser cookie remembers (the latest logins)


class LoginThrottle(Throttle):
    """Wrong passwords, counted so that nobody can lock an account out (issue 24, B8; per account,
    issue 26).

    Why not per address: on the organiser's PC every program, and every page of another site whose
    name was re-resolved to 127.0.0.1, comes from 127.0.0.1; five of their wrong guesses locked the
    organiser out. Nothing in a request tells the organiser's browser from another program's except
    what the organiser's browser holds. So the desk gives the browser that made the first account,
    and each browser that logs in, a *known-browser* cookie (OWASP, "Slow Down Online Guessing
    Attacks with Device Cookies"): `remember_browser`, signed with the desk's secret for each
    account (and its password in effect) it logged in as, kept a year, HttpOnly, SameSite=Strict,
    sent to /login only. The throttle counts

    - a known browser's wrong passwords for that account apart (`limit` in `window` s, then that
      browser waits for that account): another program's guesses never touch them, so the
      account's own browser gets in at once, however hard others flood (the bound: one password
      check, ~50 ms, plus at most the MAX_CHECKS checks already running: login.py);
    - every other browser's wrong passwords for an account together (key `unknown:ACCOUNT`):
      `limit` guesses in any `window` s at that account for all of them at once, whatever
      addresses, sessions or cookies they use: an attacker without the password gets five guesses
      a minute at each account, 7,200 a day; another account's unknown browsers are not held up;
    - the tries of names that are no account's together (UNKNOWN): made-up names give no more
      guesses, and since the keys are the accounts, the known browsers and this one, no flood of
      names can push an account's count out of the `clients` remembered.

    The cost: a browser the desk does not know yet for an account (a new one, its cookies cleared)
    shares its five a minute with whoever floods that account, and can be kept out while the flood
    lasts; that person then logs in from a browser they used before, or the flood is stopped. A lock
    that the right password lifts after a delay cannot do better without a fact like this cookie: a
    password checked during the lock is a guess checked (an attacker's too), and one not checked
    cannot lift it.

    Each try counts before its password is checked (login.py), so tries sent together cannot pass
    the limit while the first are still being checked."""

    def key(self, account: str | None, browser: str | None = None) -> str:
        """The key a try at `account` (its folded name; None: no such account) counts under: the
        known browser's for it, the account's unknown browsers', or UNKNOWN."""
        if account is None:
            return UNKNOWN
        return f"browser:{browser}:{account}" if browser else f"{UNKNOWN}:{account}"

    def succeeded(self, client: str) -> None:
        """The right password: a known browser's count starts again; the unknown browsers' count stays
        (a login from a new browser does not hand an attacker five more guesses)."""
        if not client.startswith(UNKNOWN):
            super().succeeded(client)


def _mac(secret: str, browser: str, account: str, pwv: str) -> str:
    """The known-browser MAC of `browser` for `account` (folded name) with the password tagged `pwv`:
    HMAC-SHA256 with the desk's secret, 128 bits (32 hex digits)."""
    return hmac.new(secret.encode(), f"gameclock known browser {browser} {account} {pwv}".encode(),
                    hashlib.sha256).hexdigest()[:32]


def _legacy_mac(secret: str, browser: str, pwv: str) -> str:
    """Issue 24's MAC (one password, no account): a cookie made then stays known for the account the
    password became (migration 12), until its password changes."""
    return hmac.new(secret.encode(), f"gameclock known browser {browser} {pwv}".encode(), hashlib.sha256).hexdigest()


def _parts(token: object) -> tuple[str, list[str]] | None:
    """(browser id, MACs) of a known-browser cookie's value `ID.MAC.MAC...` (ID: 32 hex digits; at most
    MAX_KNOWN MACs of 32, or issue 24's one of 64), or None for anything else."""
    if not isinstance(token, str) or len(token) > 32 + 33 * MAX_KNOWN + 64:
        return None
    browser, *macs = token.split(".")
    hexes = [browser, *macs]
    if (len(browser) != 32 or not macs or len(macs) > MAX_KNOWN
            or any(len(m) not in (32, 64) for m in macs)
            or any(c not in "0123456789abcdef" for h in hexes for c in h)):
        return None
    return browser, macs


def known_browser(token: object, secret: str, account: str, pwv: str) -> str | None:
    """The browser's id when `token` is a known-browser cookie this desk made for `account` (folded
    name) with its password tagged `pwv` (`pwv_of`), else None (missing, malformed, forged, for
    another account or another password)."""
    parts = _parts(token)
    if parts is None:
        return None
    browser, macs = parts
    want, legacy = _mac(secret, browser, account, pwv), _legacy_mac(secret, browser, pwv)
    return browser if any(hmac.compare_digest(m, want if len(m) == 32 else legacy) for m in macs) else None


def known_accounts(token: object, secret: str, accounts: Iterable[tuple[str, str]]) -> list[str]:
    """Of `accounts` ((folded name, pwv) each), those `token` is a known-browser cookie for, the latest
    login first (what the login form offers as the name)."""
    parts = _parts(token)
    if parts is None:
        return []
    browser, macs = parts
    found = []
    for m in macs:
        for account, pwv in accounts:
            want = _mac(secret, browser, account, pwv) if len(m) == 32 else _legacy_mac(secret, browser, pwv)
            if hmac.compare_digest(m, want) and account not in found:
                found.append(account)
    return found


def known_browser_token(secret: str, account: str, pwv: str, token: object = None,
                        others: Iterable[tuple[str, str]] = ()) -> str:
    """The known-browser cookie's new value after a login as `account` (folded name, password tag
    `pwv`): `ID.MAC...`, this account's MAC first, then the other accounts (`others`, (folded name,
    pwv) each) that `token` (the cookie the browser sent) was known for, at most MAX_KNOWN. The
    browser keeps its id while its cookie is known for an account; a new one otherwise."""
    kept = [a for a in known_accounts(token, secret, others) if a != account]
    parts = _parts(token)
    browser = parts[0] if parts is not None and (kept or known_browser(token, secret, account, pwv)) \
        else secrets.token_hex(16)
    tags = dict(others)
    macs = [_mac(secret, browser, account, pwv)] + [_mac(secret, browser, a, tags[a]) for a in kept]
    return ".".join([browser, *macs[:MAX_KNOWN]])
