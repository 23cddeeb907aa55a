"""The clocks page with the dock served inside the desk (`gameclock desk --dock PATH`, desk/docking.py)
and enrollment from it, end to end: a real `ClockEndpoint` on one end of a pty pair (its own Link
thread, as the clock's dock thread runs it), the desk's port worker on the other, the organiser's
forms POSTed through Starlette's TestClient. Nothing is stored unless the arbiter confirmed on the
clock and the organiser typed the same code."""
from __future__ import annotations

import re
import sys
import threading
import time
from pathlib import Path

import pytest
from deskhelp import LOCAL, LOCAL_URL, csrf_of, log_in, set_password
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dock"))

from dockkit import SERIAL, PtyRelay, kid, make_clock, records  # noqa: E402

from gameclock.dock.link import Link, PortGone, open_port  # noqa: E402
from gameclock.organiser.desk.app import create_app  # noqa: E402
from gameclock.organiser.store import Store  # noqa: E402


def wait_until(what, seconds: float = 20.0, step: float = 0.05):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(step)
    raise AssertionError(f"not within {seconds} s: {what}")


class ClockThread:
    """A clock's dock end over a pty path: its endpoint served by a Link in a thread."""

    def __init__(self, state: Path, path: str, n_results: int = 2):
        self.side = make_clock(state, key=None, results=records(n_results))
        self.port = open_port(path)
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            Link(self.port, self.side.endpoint).run(self.stop, max_wait_s=0.05)
        except PortGone:
            pass
        except BaseException as exc:  # the test asserts none
            self.error = exc

    @property
    def code(self) -> str:
        return self.side.endpoint.status.code

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.port.close()


@pytest.fixture
def docked(tmp_path):
    """(client logged in, store, the clock) with the desk serving one end of a pty pair."""
    db = tmp_path / "pc.db"
    Store(db).close()
    with PtyRelay() as relay:
        app = create_app(db, dock=[relay.path_b])
        with TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False) as client:
            set_password(client)
            assert log_in(client).status_code == 303
            worker = app.state.dock.worker(relay.path_b)
            wait_until(lambda: worker.view.connected)  # the desk holds its end before the clock says hello
            clock = ClockThread(tmp_path / "clock", relay.path_a)
            try:
                yield client, app.state.desk.store, clock, relay.path_b
            finally:
                clock.close()
        assert relay.error is None and clock.error is None
        assert not worker.is_alive(), "the app's end stops the port's worker"


def row(html: str, path: str) -> str:
    m = re.search(rf'<tr data-testid="port-row" data-port="{re.escape(path)}".*?</tr>', html, re.S)
    assert m, html
    return m.group(0)


def page_when(client: TestClient, path: str, needle: str) -> str:
    return wait_until(lambda: (lambda html: html if needle in row(html, path) else "")(client.get("/admin/clocks").text))


def post(client: TestClient, action: str, **fields):
    token = csrf_of(client.get("/admin/clocks").text)
    return client.post(f"/admin/clocks/{action}", data={"csrf": token, **fields})


def test_a_wrong_code_stores_nothing_and_the_right_one_enrolls_the_clock(docked):
    client, store, clock, path = docked
    html = page_when(client, path, f'data-serial="{SERIAL}"')
    r = row(html, path)
    assert 'data-testid="enrolled">not enrolled<' in r and '<td class="num">2</td>' in r  # two results waiting
    assert 'data-testid="replace"' not in r  # the PC knows no key of it: nothing to replace

    # Enroll; the arbiter confirms on the clock; the organiser types a wrong code
    assert post(client, "enroll", port=path, serial=SERIAL).status_code == 303
    # the page the form's answer leads to comes back before the port's worker took the request: it
    # must show the enrollment already or reload itself until it does (a browser found it stuck)
    first = client.get("/admin/clocks").text
    assert '<meta http-equiv="refresh" content="2">' in first or 'data-testid="enroll-' in row(first, path), first
    html = page_when(client, path, 'data-testid="pc-code"')
    pc_code = re.search(r'data-testid="pc-code">(\d{3}) (\d{3})<', html)
    assert pc_code, html
    wait_until(lambda: clock.code)
    assert clock.code == pc_code.group(1) + pc_code.group(2)  # both sides show the same code
    clock.side.endpoint.answer_enroll(clock.code, True)
    wrong = f"{(int(clock.code) + 1) % 1_000_000:06d}"
    assert post(client, "code", port=path, serial=SERIAL, code=wrong).status_code == 303
    html = page_when(client, path, 'data-testid="enroll-outcome" data-stage="failed"')
    assert "is not this PC" in row(html, path)
    assert store.keys() == [] and clock.side.keys.key is None and store.count_results() == 0
    wait_until(lambda: not clock.code)  # the clock took the code off its screen

    # again, the right code typed (the arbiter answers after the organiser this time)
    assert post(client, "enroll", port=path, serial=SERIAL).status_code == 303
    page_when(client, path, 'data-testid="pc-code"')
    code = wait_until(lambda: clock.code)
    assert post(client, "code", port=path, serial=SERIAL, code=f"{code[:3]} {code[3:]}").status_code == 303
    page_when(client, path, 'data-stage="confirming"')
    assert store.keys() == []  # the organiser alone is not enough
    clock.side.endpoint.answer_enroll(code, True)
    html = page_when(client, path, 'data-testid="enroll-outcome" data-stage="done"')
    key = clock.side.keys.key
    assert key is not None and store.key(SERIAL, kid(key)) == key
    r = row(html, path)
    assert f"enrolled (key {kid(key)})" in r and 'data-testid="enrolled">yes<' in r
    wait_until(lambda: store.count_results() == 2)  # the clock, enrolled, sends its results
    known = client.get("/admin/clocks").text
    assert f'<tr data-testid="clock-row" data-serial="{SERIAL}"><td>{SERIAL}</td><td>{kid(key)}</td>' in known

    # Replace its key: a confirmation page first, nothing asked of the clock before it
    r = row(known, path)
    assert 'data-testid="replace"' in r
    page = post(client, "enroll", port=path, serial=SERIAL, replace="1")
    assert page.status_code == 200 and 'data-testid="replace-warning"' in page.text
    assert 'name="confirm" value="yes"' in page.text
    time.sleep(0.3)
    assert 'data-testid="pc-code"' not in client.get("/admin/clocks").text and clock.code == ""


def test_the_forms_refuse_what_they_must(docked):
    client, store, clock, path = docked
    page_when(client, path, f'data-serial="{SERIAL}"')
    # no CSRF token
    assert client.post("/admin/clocks/enroll", data={"port": path, "serial": SERIAL}).status_code == 403
    # a port the desk does not serve (a path of the PC's own), an over-long one
    assert post(client, "enroll", port="/dev/ttyS0", serial=SERIAL).status_code == 404
    assert post(client, "enroll", port="/dev/" + "x" * 300, serial=SERIAL).status_code == 404
    # a clock that is not the one docked there
    r = post(client, "enroll", port=path, serial="00000000cafe0000")
    assert r.status_code == 409 and "is not docked on" in r.text
    # a serial with a control character
    assert post(client, "enroll", port=path, serial="ab\x1bc").status_code == 400
    # a code with no enrollment under way
    r = post(client, "code", port=path, serial=SERIAL, code="123456")
    assert r.status_code == 409 and "no code is waiting" in r.text
    # not url-encoded
    token = csrf_of(client.get("/admin/clocks").text)
    r = client.post("/admin/clocks/enroll", content=b'{"csrf": "%s"}' % token.encode(),
                    headers={"content-type": "application/json"})
    assert r.status_code == 415
    assert store.keys() == []
    # logged out: refused, nothing done (a form posted without the session is not followed to the login page: web.py)
    client.cookies.clear()
    r = client.post("/admin/clocks/enroll", data={"csrf": token, "port": path, "serial": SERIAL})
    assert r.status_code == 403 and "not logged in" in r.text


def test_without_dock_the_page_says_how_to_start_it(organiser):
    html = organiser.get("/admin/clocks").text
    assert 'data-testid="no-dock"' in html and "gameclock desk --dock auto" in html
    assert "gameclock receive" in html
    assert 'data-testid="clocks-table"' in html
    token = csrf_of(html)
    assert organiser.post("/admin/clocks/enroll", data={"csrf": token, "port": "/dev/ttyACM0",
                                                        "serial": SERIAL}).status_code == 404
    th = organiser.get("/admin/clocks?lang=th").text
    assert "นาฬิกาที่เสียบอยู่" in th


def test_each_enroll_is_one_code_and_the_page_says_how_it_ended(docked):  # issue 24 B1
    client, store, clock, path = docked
    page_when(client, path, f'data-serial="{SERIAL}"')
    assert post(client, "enroll", port=path, serial=SERIAL).status_code == 303
    html = page_when(client, path, 'data-testid="pc-code"')
    first = wait_until(lambda: clock.code)
    assert 'data-testid="enrolls">Enrollments started here: 1<' in row(html, path)
    # the organiser types a wrong code before the arbiter answered: the PC ends its enrollment ...
    wrong = f"{(int(first) + 1) % 1_000_000:06d}"
    assert post(client, "code", port=path, serial=SERIAL, code=wrong).status_code == 303
    html = page_when(client, path, 'data-testid="enroll-outcome" data-stage="failed"')
    assert "is not this PC" in row(html, path)
    # ... but the clock keeps asking its arbiter about that code: nobody on the cable can re-roll it
    time.sleep(0.5)
    assert clock.code == first
    assert post(client, "enroll", port=path, serial=SERIAL).status_code == 303
    html = page_when(client, path, "Enrollments started here: 2<")
    html = page_when(client, path, "is busy with another enrollment")
    assert 'data-stage="failed"' in row(html, path) and "answer it on the clock" in row(html, path)
    assert clock.code == first and store.keys() == []
    # the arbiter answers (NO): the code leaves the screen, and the next Enroll shows a new one
    clock.side.endpoint.answer_enroll(first, False)
    wait_until(lambda: not clock.code)
    assert post(client, "enroll", port=path, serial=SERIAL).status_code == 303
    html = page_when(client, path, 'data-testid="pc-code"')
    assert "Enrollments started here: 3<" in row(html, path)
    code = wait_until(lambda: clock.code)
    clock.side.endpoint.answer_enroll(code, True)
    assert post(client, "code", port=path, serial=SERIAL, code=code).status_code == 303
    page_when(client, path, 'data-testid="enroll-outcome" data-stage="done"')
    key = clock.side.keys.key
    assert key is not None and store.key(SERIAL, kid(key)) == key
