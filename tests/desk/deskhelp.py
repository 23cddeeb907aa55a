"""The desk tests' plain helpers (the fixtures are in conftest.py): the password, this PC's client
address, the CSRF token of a page, the first start (the organiser's account) and logging in. A
module of its own, not conftest: `from conftest import` picks whichever conftest was imported first
under pytest-xdist."""
from __future__ import annotations

import re

from starlette.testclient import TestClient

PASSWORD = "correct horse battery"
ORGANISER = "organiser"     # the account made at the first start (its name is asked there)
LOCAL = ("127.0.0.1", 50123)
# the desk as the organiser's browser names it on this PC (first start wants a loopback Host too)
LOCAL_URL = "http://127.0.0.1:8017"


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, "the page has a form with the session's CSRF token"
    return m.group(1)


def set_password(client: TestClient, password: str = PASSWORD, name: str = ORGANISER) -> None:
    """The first start: the organiser's account, `name` with `password`."""
    page = client.get("/setup")
    assert page.status_code == 200
    r = client.post("/setup", data={"csrf": csrf_of(page.text), "name": name, "password": password,
                                    "again": password})
    assert r.status_code == 303 and r.headers["location"] == "/login", r.text


def log_in(client: TestClient, password: str = PASSWORD, name: str = ORGANISER):
    page = client.get("/login")
    assert page.status_code == 200
    return client.post("/login", data={"csrf": csrf_of(page.text), "name": name, "password": password,
                                       "next": "/admin"})


def said_after(client: TestClient, response, lang: str = "en") -> str:
    """What the page a form's 303 leads to tells its reader (its notices' texts, one a line), in `lang`: a
    notice is kept for the session's next page (web.notify), never carried in the address."""
    import html

    assert response.status_code == 303, response.status_code
    page = client.get(f"{response.headers['location']}?lang={lang}").text
    texts = re.findall(r'<span data-testid="(?:message|error)">(.*?)</span></p>', page, re.S)
    return "\n".join(html.unescape(t) for t in texts)
