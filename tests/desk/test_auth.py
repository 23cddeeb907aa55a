"""The organiser's login: first start, the password hash, the session secret, CSRF, refusals."""
from __future__ import annotations

import os

import pytest
from deskhelp import LOCAL, LOCAL_URL, ORGANISER, PASSWORD, csrf_of, log_in, set_password
from starlette.testclient import TestClient

from gameclock.organiser.desk import auth


def test_a_password_hash_verifies_only_its_password():
    h = auth.hash_password(PASSWORD)
    assert h.startswith("scrypt$16384$8$1$") and PASSWORD not in h
    assert auth.verify_password(PASSWORD, h)
    assert not auth.verify_password(PASSWORD + "x", h)
    assert auth.hash_password(PASSWORD) != h  # a new salt each time
    assert not auth.verify_password(PASSWORD, "scrypt$1$1$1$zz$zz")  # malformed: no, never an exception
    with pytest.raises(auth.AuthError, match="at least 8"):
        auth.hash_password("short")


def test_the_secret_is_made_once_owner_only_and_a_shared_one_refused(tmp_path):
    path = tmp_path / "pc.db.desk-secret"
    first = auth.load_or_create_secret(path)
    assert len(first) == 64 and os.stat(path).st_mode & 0o777 == 0o600
    assert auth.load_or_create_secret(path) == first
    os.chmod(path, 0o644)
    with pytest.raises(auth.AuthError, match="readable by others"):
        auth.load_or_create_secret(path)
    assert auth.secret_path_for(tmp_path / "pc.db") == path


def test_first_start_asks_for_the_password_then_login_works(client):
    r = client.get("/login")
    assert r.status_code == 303 and r.headers["location"] == "/setup"
    set_password(client)
    assert client.get("/setup").status_code == 303  # set once: no second setting
    r = log_in(client)
    assert r.status_code == 303 and r.headers["location"] == "/admin"
    assert client.get("/admin").status_code == 200
    store = client.app.state.desk.store
    (account,) = store.accounts()      # the organiser's account (issue 26: named accounts)
    assert account["role"] == "organiser" and account["password"].startswith("scrypt$")


def test_the_first_password_is_set_only_from_this_pc(app):
    hall = TestClient(app, client=("192.168.1.50", 40000), follow_redirects=False)
    r = hall.get("/setup")
    assert r.status_code == 403
    assert app.state.desk.store.accounts() == []


def test_the_first_password_is_not_set_through_another_sites_name(app):
    """DNS rebinding: a page from another site whose name was re-resolved to 127.0.0.1 reaches the
    desk from this PC, but under its own name: first start refuses it (found by a fresh-eyes review)."""
    rebound = TestClient(app, client=LOCAL, base_url="http://rebind.example.net:8017", follow_redirects=False)
    assert rebound.get("/setup").status_code == 403
    for name in ("http://localhost:8017", "http://[::1]:8017", LOCAL_URL):
        assert TestClient(app, client=LOCAL, base_url=name).get("/setup").status_code == 200, name
    assert app.state.desk.store.accounts() == []


def test_wrong_passwords_sent_together_are_counted_before_they_are_checked(client):
    """Twelve wrong tries at once from one address: five are checked (401), the rest refused (429)
    while the first are still being checked, not all twelve let through."""
    import asyncio

    import httpx

    set_password(client)
    token = csrf_of(client.get("/login").text)
    cookies = dict(client.cookies)

    async def together() -> list[int]:
        transport = httpx.ASGITransport(app=client.app, client=LOCAL)
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL_URL, cookies=cookies) as c:
            tries = [c.post("/login", data={"csrf": token, "name": ORGANISER, "password": "wrong", "next": "/admin"})
                     for _ in range(12)]
            return [r.status_code for r in await asyncio.gather(*tries)]

    codes = sorted(asyncio.run(together()))
    assert codes.count(401) <= 5 and codes.count(429) >= 7 and set(codes) <= {401, 429}, codes


def test_two_passwords_that_differ_are_refused(client):
    page = client.get("/setup")
    r = client.post("/setup", data={"csrf": csrf_of(page.text), "name": ORGANISER, "password": PASSWORD,
                                    "again": PASSWORD + "!"})
    assert r.status_code == 400 and 'data-testid="error"' in r.text
    assert client.app.state.desk.store.accounts() == []


def test_a_wrong_password_is_refused_and_five_tries_stop_the_next(client):
    set_password(client)
    for _ in range(5):
        r = log_in(client, "wrong password")
        assert r.status_code == 401 and "Wrong name or password." in r.text
    r = log_in(client)  # even the right one, for a minute
    assert r.status_code == 429
    assert client.get("/admin").status_code == 303


def test_admin_pages_redirect_to_the_login_without_a_session(client):
    for path in ("/admin", "/admin/clocks", "/admin/e/t", "/admin/e/t/round/1", "/admin/results/clock1-000001",
                 "/admin/e/t/export/csv"):
        r = client.get(path)
        assert r.status_code == 303 and r.headers["location"].startswith("/login?next="), path


def test_a_post_without_the_csrf_token_or_with_another_is_refused(organiser):
    for data in ({}, {"csrf": "forged"}, {"csrf": ""}):
        r = organiser.post("/admin/results/clock1-000001/amend", data={**data, "reason": "x", "outcome": "left"})
        assert r.status_code == 403
    assert organiser.app.state.desk.store.amendments() == []
    # the login form too: a token from no session
    fresh = TestClient(organiser.app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    r = fresh.post("/login", data={"csrf": "x", "password": PASSWORD})
    assert r.status_code == 403


def test_forms_are_small_and_url_encoded(organiser):
    token = csrf_of(organiser.get("/admin/results/clock1-000001").text)
    r = organiser.post("/admin/results/clock1-000001/amend", content=b'{"csrf": "' + token.encode() + b'"}',
                       headers={"content-type": "application/json"})
    assert r.status_code == 415
    r = organiser.post("/admin/results/clock1-000001/amend", data={"csrf": token, "reason": "x" * 70_000})
    assert r.status_code == 413
    assert organiser.app.state.desk.store.amendments() == []


def test_login_follows_next_only_to_the_organisers_pages(client):
    set_password(client)
    page = client.get("/login?next=https://evil.example/")
    assert 'value="/admin"' in page.text
    r = client.post("/login", data={"csrf": csrf_of(page.text), "name": ORGANISER, "password": PASSWORD,
                                    "next": "//evil.example"})
    assert r.status_code == 303 and r.headers["location"] == "/admin"


def test_logout_ends_the_session(organiser):
    token = csrf_of(organiser.get("/admin").text)
    r = organiser.post("/logout", data={"csrf": token})
    assert r.status_code == 303
    assert organiser.get("/admin").status_code == 303


def test_logout_ends_a_copied_session_cookie_too(organiser):
    """Issue 24, B8: the session lived only in its signed cookie, so a copy taken before the logout
    (another program reading the browser's cookies, a shared PC) still opened /admin after it."""
    store = organiser.app.state.desk.store
    copy = TestClient(organiser.app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False,
                      cookies=dict(organiser.cookies))
    token = csrf_of(copy.get("/admin").text)                      # the copy works while the session lasts
    assert organiser.post("/logout", data={"csrf": csrf_of(organiser.get("/admin").text)}).status_code == 303
    r = copy.get("/admin")
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/admin"
    r = copy.post("/admin/results/clock1-000001/amend", data={"csrf": token, "reason": "x", "outcome": "left"})
    assert r.status_code == 403 and "not logged in" in r.text
    assert store.amendments() == []
    # logging in again makes a new session: the old copy stays ended
    assert log_in(organiser).status_code == 303 and organiser.get("/admin").status_code == 200
    assert copy.get("/admin").status_code == 303


def test_logout_ends_the_organisers_other_browsers_but_a_strangers_logout_ends_nothing(organiser):
    """Logging out ends every session (a new epoch): the organiser's other browser too, as docs/desk.md
    says. A browser that is not logged in can send the logout form too (any page can fetch the login
    page's token): it must not log the organiser out."""
    other = TestClient(organiser.app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    assert log_in(other).status_code == 303 and other.get("/admin").status_code == 200
    stranger = TestClient(organiser.app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    token = csrf_of(stranger.get("/login").text)
    assert stranger.post("/logout", data={"csrf": token}).status_code == 303
    assert organiser.get("/admin").status_code == 200 and other.get("/admin").status_code == 200
    assert organiser.post("/logout", data={"csrf": csrf_of(organiser.get("/admin").text)}).status_code == 303
    assert other.get("/admin").status_code == 303


def test_a_visit_without_the_session_cookie_leaves_the_session_alone(organiser):
    """A link or a form on another site reaches the desk without the session cookie (SameSite=Strict):
    a page without a form, and the refusal of the form, answer without a cookie of their own, so the
    organiser's session in that browser stays (it used to be replaced by an empty one: logged out)."""
    stranger = TestClient(organiser.app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)  # no cookie at all
    for path in ("/", "/e/t/standings", "/e/t/projector", "/e/t/part/standings", "/no/such/page"):
        r = stranger.get(path)
        assert "set-cookie" not in r.headers, path
    r = stranger.post("/admin/results/clock1-000001/amend", data={"csrf": "guessed", "reason": "x",
                                                                  "outcome": "left"})
    assert r.status_code == 403 and "not logged in" in r.text and "set-cookie" not in r.headers
    assert organiser.app.state.desk.store.amendments() == []
    # a page with a form still makes its token (the login page's)
    page = stranger.get("/login")
    assert "set-cookie" in page.headers and csrf_of(page.text)
    assert organiser.get("/admin").status_code == 200


def test_the_organisers_pages_open_only_on_this_pc_unless_asked(app, db):
    """With --host 0.0.0.0 the hall's phones reach the desk over plain HTTP on a shared Wi-Fi: the
    login and /admin refuse them (403) unless the desk was started with --admin-from-network; the
    public pages stay open to them (found by a fresh-eyes review)."""
    from gameclock.organiser.desk.app import create_app

    hall = TestClient(app, client=("192.168.1.50", 40000), base_url="http://192.168.1.10:8017",
                      follow_redirects=False)
    for path in ("/login", "/admin", "/admin/clocks", "/admin/e/t"):
        r = hall.get(path)
        assert r.status_code == 403 and "--admin-from-network" in r.text, path
    assert hall.get("/e/t/standings").status_code == 200
    local = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    set_password(local)
    assert local.get("/login").status_code == 200
    opened = create_app(db, admin_from_network=True)
    try:
        hall = TestClient(opened, client=("192.168.1.50", 40000), base_url="http://192.168.1.10:8017",
                          follow_redirects=False)
        assert hall.get("/login").status_code == 200
        assert hall.get("/admin").status_code == 303   # to the login: the session is still needed
    finally:
        opened.state.desk.store.close()


def test_the_command_says_the_organisers_pages_stay_on_this_pc():
    from gameclock.organiser.desk.commands import startup_lines

    assert any("--admin-from-network" in line for line in startup_lines("0.0.0.0", 8017))
