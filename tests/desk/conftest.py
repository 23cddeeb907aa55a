"""The desk's tests: a store with a small hand-made Crossword event, the app over it, a test client
that comes from this PC (a loopback address: the first start's password is set only from there)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

# the desk needs the organiser's extra, which `make test` installs (pyproject.toml's dev list): a
# missing one fails here, loudly, never a silent skip
import starlette  # noqa: E402, F401

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "standings"))

from deskhelp import LOCAL, LOCAL_URL, log_in, set_password  # noqa: E402
from kit import store_with, xw  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from gameclock.organiser.desk.app import create_app  # noqa: E402


def event_t() -> list[dict]:
    """Event t, secondary Crossword, four players, two rounds, no byes (XW-6 GP, XW-7 spread):

    round 1: t1 Anan 420 v Boon 380 (Anan +40)     t2 Chai 300 v Dao 350 (Dao +50)
    round 2: t1 Dao 400 v Anan 390 (Dao +10)       t2 Boon 410 v Chai 300 (Boon +110)

    GP / spread: Dao 4 / +60; Boon 2 / -40+110 = +70; Anan 2 / +40-10 = +30; Chai 0 / -50-110 = -160.
    Places: Dao 1, Boon 2, Anan 3 (equal GP, less spread), Chai 4."""
    return [xw(1, "t", 1, 1, "Anan", "Boon", 420, 380), xw(2, "t", 1, 2, "Chai", "Dao", 300, 350),
            xw(3, "t", 2, 1, "Dao", "Anan", 400, 390), xw(4, "t", 2, 2, "Boon", "Chai", 410, 300)]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "pc.db"
    store_with(path, event_t())
    return path


@pytest.fixture
def app(db: Path):
    a = create_app(db, interval=0.05, stream_seconds=1.5)
    yield a
    a.state.desk.store.close()


@pytest.fixture
def client(app) -> TestClient:
    return TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)


@pytest.fixture
def organiser(client: TestClient) -> TestClient:
    """The client logged in as the organiser."""
    set_password(client)
    r = log_in(client)
    assert r.status_code == 303 and r.headers["location"] == "/admin"
    return client


@pytest.fixture
def desk(tmp_path: Path):
    """A client logged in as the organiser at a desk over the demo event (desk/demo.py: its round 2
    with tables 1-3 in and table 4 waiting), the store closed after the test."""
    app = create_app(tmp_path / "demo.db", demo=True)
    c = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    set_password(c)
    assert log_in(c).status_code == 303
    yield c
    app.state.desk.store.close()
