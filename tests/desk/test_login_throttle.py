"""The login throttle cannot lock the organiser out (issue 24, B8): five wrong passwords from any
program on this PC (or a page of another site whose name was re-resolved to 127.0.0.1) made every
login 429 for a minute, the organiser's own included: the throttle was per address, and everybody
on this PC is 127.0.0.1.

Both sides are tested: the guesses of browsers the desk does not know stay at five a minute
(measured over ten minutes of a guess a second, on the throttle's clock), and the organiser's
browser (the one that set the password or last logged in) gets in at once while others flood.
"""
from __future__ import annotations

import threading
import time

import httpx
from deskhelp import LOCAL, LOCAL_URL, ORGANISER, PASSWORD, csrf_of, log_in, set_password
from starlette.testclient import TestClient

from bench.browser import serve
from gameclock.organiser.desk.app import create_app


def another_program(app) -> TestClient:
    """Another program on this PC: the same address (127.0.0.1), none of the organiser's cookies."""
    return TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)


def test_another_programs_wrong_passwords_do_not_lock_the_organiser_out(app, client):
    set_password(client)                  # the organiser's browser: it set the password on this PC
    attacker = another_program(app)
    codes = [log_in(attacker, f"guess {i}").status_code for i in range(20)]
    # five a minute checked (401) for browsers the desk does not know, the rest refused unchecked
    assert (codes.count(401), codes.count(429)) == (5, 15)
    r = log_in(client)                    # the organiser, at once: before the fix, 429 for a minute
    assert r.status_code == 303 and client.get("/admin").status_code == 200
    # ... and after logging out, while the attacker goes on
    assert client.post("/logout", data={"csrf": csrf_of(client.get("/admin").text)}).status_code == 303
    assert log_in(attacker, "guess 21").status_code == 429
    assert log_in(client).status_code == 303 and client.get("/admin").status_code == 200


def test_a_browser_that_logged_in_once_is_known_from_then_on(app, client):
    set_password(client)
    laptop = another_program(app)          # the organiser's second browser: logged in once, before the attack
    assert log_in(laptop).status_code == 303
    attacker = another_program(app)
    assert [log_in(attacker, "guess").status_code for _ in range(6)][-1] == 429
    assert log_in(laptop).status_code == 303 and laptop.get("/admin").status_code == 200
    # a browser the desk does not know (a new one, cookies cleared) waits with the attacker: the one
    # case the throttle cannot tell apart (docs/desk.md says so)
    assert log_in(another_program(app)).status_code == 429


def test_the_organisers_browser_has_its_own_five_tries_a_minute(app, client):
    """A known browser's wrong tries count for that browser only (a copy of its cookie gets no more)."""
    set_password(client)
    codes = [log_in(client, "typo").status_code for _ in range(6)]
    assert codes == [401] * 5 + [429]
    assert log_in(client).status_code == 429          # its own minute
    assert log_in(another_program(app)).status_code == 303   # others are not locked by it


def test_guesses_from_browsers_the_desk_does_not_know_stay_at_five_a_minute(app, client):
    set_password(client)
    now = [1000.0]
    app.state.desk.throttle.clock = lambda: now[0]     # the throttle's clock, moved by hand
    kept = another_program(app)                        # an attacker keeping its cookie ...
    checked_by_minute = [0] * 10
    for second in range(600):                          # ten minutes, a guess each second
        now[0] += 1.0
        attacker = kept if second % 2 else another_program(app)   # ... and fresh ones
        code = log_in(attacker, f"guess {second}").status_code
        assert code in (401, 429), code
        checked_by_minute[second // 60] += code == 401
    # five failures in any 60 s: the guesses at seconds 1-5 of each minute are checked, the rest refused
    assert checked_by_minute == [5] * 10
    assert sum(checked_by_minute) / 10 == 5.0           # guesses a minute


def test_a_page_of_another_site_on_this_pc_cannot_try_passwords(app, client):
    """DNS rebinding: a page of another site, its name re-resolved to 127.0.0.1, comes from this PC
    but under its own name: the login refuses it (403), its tries count for nothing."""
    set_password(client)
    rebound = TestClient(app, client=LOCAL, base_url="http://rebind.example.net:8017", follow_redirects=False)
    assert rebound.get("/login").status_code == 403
    assert rebound.post("/login", data={"csrf": "x", "password": PASSWORD}).status_code == 403
    attacker = another_program(app)
    assert [log_in(attacker, "guess").status_code for _ in range(5)] == [401] * 5   # the budget untouched


def test_the_organiser_gets_in_within_a_bounded_delay_while_programs_flood_the_real_desk(db):
    """Under uvicorn: four programs send wrong passwords as fast as they can (each its own
    connection, new sessions now and then); meanwhile the organiser's browser logs in. It gets in
    at once (the bound asserted: 2 s, on a shared 2-core machine); the flood gets five checks."""
    app = create_app(db)
    served = serve(app)
    stop = threading.Event()
    counts = {401: 0, 429: 0, "other": 0}
    lock = threading.Lock()

    def flood() -> None:
        with httpx.Client(base_url=served.url, follow_redirects=False, timeout=10) as c:
            token, n = "", 0
            while not stop.is_set():
                if n % 25 == 0:                             # a new session now and then
                    c.cookies.clear()
                    token = csrf_of(c.get("/login").text)
                r = c.post("/login", data={"csrf": token, "name": ORGANISER, "password": f"guess {n}",
                                            "next": "/admin"})
                n += 1
                with lock:
                    counts[r.status_code if r.status_code in (401, 429) else "other"] += 1

    try:
        with httpx.Client(base_url=served.url, follow_redirects=False, timeout=10) as organiser:
            page = organiser.get("/setup")
            assert organiser.post("/setup", data={"csrf": csrf_of(page.text), "name": ORGANISER, "password": PASSWORD,
                                                   "again": PASSWORD}).status_code == 303
            attackers = [threading.Thread(target=flood) for _ in range(4)]
            flood_start = time.monotonic()
            for t in attackers:
                t.start()
            end = time.monotonic() + 20
            while time.monotonic() < end:                   # the flood under way: the budget long spent
                with lock:
                    if counts[401] == 5 and counts[429] >= 40:
                        break
                time.sleep(0.05)
            with lock:
                assert counts[401] == 5 and counts[429] >= 40, counts
            started = time.monotonic()
            token = csrf_of(organiser.get("/login").text)
            r = organiser.post("/login", data={"csrf": token, "name": ORGANISER, "password": PASSWORD, "next": "/admin"})
            delay = time.monotonic() - started
            assert r.status_code == 303 and organiser.get("/admin").status_code == 200
            time.sleep(0.5)
            stop.set()
            for t in attackers:
                t.join(10)
        flood_s = time.monotonic() - flood_start
        print(f"organiser's login during the flood: {delay * 1000:.0f} ms; flood: {counts} in {flood_s:.1f} s")
        assert delay < 2.0, delay
        assert counts[401] == 5 and counts["other"] == 0, counts   # within a minute: five checked
    finally:
        stop.set()
        served.stop()
