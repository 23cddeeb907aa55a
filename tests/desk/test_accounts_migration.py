"""An existing desk (issue 24's: one password, no name, in `desk_settings`) upgraded to named accounts
(issue 26) locks nobody out: the password becomes the account "organiser" (an organiser), the session
open at the upgrade goes on, the browser that was known for the password stays known, and the
login takes the name "organiser" with the old password."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import sqlite3

from deskhelp import LOCAL, LOCAL_URL, PASSWORD, csrf_of, log_in
from itsdangerous import TimestampSigner
from kit import store_with, xw
from starlette.testclient import TestClient

from gameclock.organiser import store as store_module
from gameclock.organiser.desk import auth
from gameclock.organiser.desk.app import create_app
from gameclock.organiser.desk.web import SESSION_COOKIE


def desk_before_accounts(path) -> tuple[str, str]:
    """A database at the schema version before the accounts' migration, as issue 24's desk left it:
    the password's hash and the session epoch in desk_settings. Returns (hash, epoch)."""
    n = next(i for i, m in enumerate(store_module.MIGRATIONS) if "desk_accounts" in m)
    db = sqlite3.connect(path, isolation_level=None)
    for script in store_module.MIGRATIONS[:n]:
        for stmt in store_module.statements(script):
            db.execute(stmt)
    db.execute(f"PRAGMA user_version = {n}")
    hashed, epoch = auth.hash_password(PASSWORD), secrets.token_hex(8)
    db.executemany("INSERT INTO desk_settings (key, value, changed_at) VALUES (?, ?, '2026-01-01T00:00:00Z')",
                   [("organiser_password", hashed), ("session_epoch", epoch)])
    db.close()
    return hashed, epoch


def old_session_cookie(secret: str, hashed: str, epoch: str) -> str:
    """The session cookie issue 24's desk gave at a login: Starlette's signed base64 JSON of
    {user: "organiser", pwv: the hash's last 16 hex digits, epoch, csrf}."""
    session = {"user": "organiser", "pwv": hashed[-16:], "epoch": epoch, "csrf": "old-token"}
    return TimestampSigner(secret).sign(base64.b64encode(json.dumps(session).encode())).decode()


def old_known_browser(secret: str, hashed: str) -> str:
    """Issue 24's known-browser cookie: ID.MAC, MAC = HMAC-SHA256(secret, "gameclock known browser ID PWV")."""
    browser = secrets.token_hex(16)
    mac = hmac.new(secret.encode(), f"gameclock known browser {browser} {hashed[-16:]}".encode(), hashlib.sha256)
    return f"{browser}.{mac.hexdigest()}"


def test_an_existing_one_password_desk_becomes_the_organisers_account(tmp_path):
    db = tmp_path / "pc.db"
    hashed, epoch = desk_before_accounts(db)
    store_with(db, [xw(1, "t", 1, 1, "Anan", "Boon", 420, 380)])          # the store upgrades the file
    app = create_app(db)
    try:
        secret = app.state.desk.secret
        store = app.state.desk.store
        assert [(a["name"], a["role"], a["disabled"], a["password"]) for a in store.accounts()] == [
            ("organiser", "organiser", False, hashed)]
        assert store.setting(auth.PASSWORD_KEY) is None               # one place for the password now
        # the session open at the upgrade goes on
        open_session = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False,
                                  cookies={SESSION_COOKIE: old_session_cookie(secret, hashed, epoch)})
        assert open_session.get("/admin").status_code == 200
        # the organiser's known browser stays known: an attacker's guesses do not keep it out
        attacker = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
        assert [log_in(attacker, "guess").status_code for _ in range(6)][-1] == 429
        known = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False,
                           cookies={auth.KNOWN_BROWSER_COOKIE: old_known_browser(secret, hashed)})
        assert log_in(known).status_code == 303 and known.get("/admin").status_code == 200
        # the first start is not offered again
        assert known.get("/setup").status_code == 303
        # logging out ends the old session too (the account's epoch is the desk's old one)
        assert known.post("/logout", data={"csrf": csrf_of(known.get("/admin").text)}).status_code == 303
        assert open_session.get("/admin").status_code == 303
        assert [(c["account"], c["action"]) for c in store.account_changes()] == [("organiser", "migrate")]
    finally:
        app.state.desk.store.close()


def test_a_desk_without_a_password_yet_gets_no_account(tmp_path):
    db = tmp_path / "pc.db"
    n = next(i for i, m in enumerate(store_module.MIGRATIONS) if "desk_accounts" in m)
    con = sqlite3.connect(db, isolation_level=None)
    for script in store_module.MIGRATIONS[:n]:
        for stmt in store_module.statements(script):
            con.execute(stmt)
    con.execute(f"PRAGMA user_version = {n}")
    con.close()
    with store_module.Store(db) as store:
        assert store.accounts() == [] and store.account_changes() == []
