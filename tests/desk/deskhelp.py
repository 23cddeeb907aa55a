"""The desk tests' plain helpers (the fixtures are in conftest.py): the password, this PC's client
address, the CSRF token of a page, setting the password and logging in. A module of its own, not
conftest: `from conftest import` picks whichever conftest was imported first under pytest-xdist."""
from __future__ import annotations

import re

from starlette.testclient import TestClient

PASSWORD = "correct horse battery"
LOCAL = ("127.0.0.1", 50123)
# the desk as the organiser's browser names it on this PC (first start wants a loopback Host too)
LOCAL_URL = "http://127.0.0.1:8017"


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, "the page has a form with the session's CSRF token"
    return m.group(1)


def set_password(client: TestClient, password: str = PASSWORD) -> None:
    page = client.get("/setup")
    assert page.status_code == 200
    r = client.post("/setup", data={"csrf": csrf_of(page.text), "password": password, "again": password})
    assert r.status_code == 303 and r.headers["location"] == "/login"


def log_in(client: TestClient, password: str = PASSWORD):
    page = client.get("/login")
    assert page.status_code == 200
    return client.post("/login", data={"csrf": csrf_of(page.text), "password": password, "next": "/admin"})
