"""Issue 26 at the desk (`gameclock desk --dock PATH ...`, desk/docking.py): the clock's event follows the PC,
and publishing reaches the clocks docked now. Real clock ends (tests/dock/devicekit.py: the clock's loop and
dock thread) on one end of pty pairs, the desk's port workers on the other, the organiser's forms POSTed
through Starlette's TestClient.

What was seen: with the desk's own suggested event name (`ครอสเวิร์ด-ม.ปลาย-2568`) a docked clock got nothing
(the PC looked its pairing up by its Event setting, a number), and Publish reached no clock already docked.
Now the clocks page assigns each docked clock a table ("in docking order" for a fresh event, or one clock at
a time: a spare takes a dead clock's table) and Publish pushes each its table's pairing at once.
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from deskhelp import LOCAL, LOCAL_URL, csrf_of, log_in, said_after, set_password
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dock"))

from devicekit import DeviceClock  # noqa: E402
from dockkit import PtyRelay  # noqa: E402

from gameclock.organiser import event as events  # noqa: E402
from gameclock.organiser.desk.app import create_app  # noqa: E402
from gameclock.organiser.store import Store  # noqa: E402
from gameclock.ui import menu as menus  # noqa: E402

THAI = "ครอสเวิร์ด-ม.ปลาย-2568"
PLAYERS = "id,name\n1,อนันต์ ศรีสุข\n2,บุญมี ใจดี\n3,ชัยวัฒน์ ดีเลิศ\n4,ดวงใจ แก้วงาม\n".encode()
A, B = "00000000c10c000a", "00000000c10c000b"
KEYS = {A: bytes([10]) * 32, B: bytes([11]) * 32}


def wait_until(what, seconds: float = 20.0, step: float = 0.05):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(step)
    raise AssertionError(f"not within {seconds} s: {what}")


@pytest.fixture
def desk(tmp_path, request):
    """(client logged in, store, {serial: clock}, {serial: port}): the desk serving two ports, clock B docked
    on the second port first, then clock A on the first (the docking order is B, A), both with the factory's
    settings (Event 1, table 1), the event named THAI; or named as the test's parameter (then both clocks say
    Event 1 and their own tables 1 and 2: what worked before, at a docking)."""
    name = getattr(request, "param", THAI)
    own = name != THAI
    db = tmp_path / "pc.db"
    with Store(db) as store:
        for serial, key in KEYS.items():
            store.add_key(serial, key)
        events.create_event(store, name, "xw10", events.read_players(PLAYERS, "players.csv", tsh=False), rounds=3)
    with PtyRelay() as ra, PtyRelay() as rb:
        app = create_app(db, dock=[ra.path_b, rb.path_b])
        with TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False) as client:
            set_password(client)
            assert log_in(client).status_code == 303
            for path in (ra.path_b, rb.path_b):
                worker = app.state.dock.worker(path)
                wait_until(lambda w=worker: w.view.connected)
            clocks: dict[str, DeviceClock] = {}
            try:
                for serial, relay, table in ((B, rb, 2), (A, ra, 1)):
                    settings = menus.Settings(table=table) if own else menus.Settings()
                    clocks[serial] = DeviceClock(relay.path_a, tmp_path / serial, serial, KEYS[serial], settings)
                    wait_until(lambda c=clocks[serial]: c.dock.endpoint.status.known)
                yield client, app.state.desk.store, clocks, {A: ra.path_b, B: rb.path_b}
            finally:
                for clock in clocks.values():
                    clock.close()
                    assert clock.error is None
        assert ra.error is None and rb.error is None


def post(client: TestClient, path: str, **fields):
    token = csrf_of(client.get("/admin/clocks").text)
    return client.post(path, data={"csrf": token, **fields})


def port_row(html: str, serial: str) -> str:
    m = re.search(rf'<tr data-testid="port-row" data-port="[^"]*" data-serial="{serial}".*?</tr>', html, re.S)
    assert m, html
    return m.group(0)


def publish(client: TestClient, name: str) -> None:
    token = csrf_of(client.get(f"/admin/e/{quote(name)}").text)
    r = client.post(f"/admin/e/{quote(name)}/pair", data={"csrf": token})
    said = said_after(client, r)
    assert "draft drawn" in said, said
    r = client.post(f"/admin/e/{quote(name)}/publish", data={"csrf": token})
    said = said_after(client, r)
    assert "published" in said, said


def tables(store: Store, name: str, rnd: int) -> dict[int, tuple[str, str]]:
    return {p["table"]: (p["players"]["left"], p["players"]["right"])
            for p in store.pairings() if p["event"] == name and p["round"] == rnd}


def test_a_thai_event_reaches_the_clocks_assigned_in_docking_order_and_publish_pushes_it(desk):
    client, store, clocks, ports = desk
    html = wait_until(lambda: (lambda h: h if all(f'data-serial="{s}"' in h for s in (A, B)) else "")(
        client.get("/admin/clocks").text))
    for serial in (A, B):  # not assigned: the page says what the clock's own settings pick
        assert 'data-testid="assigned" data-state="own"' in port_row(html, serial)
    assert 'data-testid="assign-order"' in html and f'<option value="{THAI}">{THAI}</option>' in html

    # "Assign tables in docking order": B docked first
    r = post(client, "/admin/clocks/assign-order", event=THAI, first="1")
    assert r.status_code == 303
    page = client.get(r.headers["location"]).text
    assert f"{B}: {THAI} table 1" in page and f"{A}: {THAI} table 2" in page
    assert 'class="notice notice-success"' in page       # a success, styled apart from an error (web.notify)
    assert {a["serial"]: a["table"] for a in store.assignments(THAI)} == {B: 1, A: 2}
    assert [a["by"] for a in store.assignments(THAI)] == ["organiser", "organiser"]
    # nothing is published yet: the clocks keep their own settings
    assert clocks[A].info()["event"] == 1 and clocks[B].info()["event"] == 1

    # Pair, Publish: each docked clock gets its table at once, without being unplugged
    publish(client, THAI)
    published = tables(store, THAI, 1)
    for serial, table in ((B, 1), (A, 2)):
        info = clocks[serial].wait(lambda i: i["event"] == THAI, what=f"clock {serial}: round 1 not received")
        assert (info["round"], info["table"]) == (1, table)
        assert (info["players"]["left"], info["players"]["right"]) == published[table]
    html = wait_until(lambda: (lambda h: h if h.count('data-testid="pushed" data-state="taken"') == 2 else "")(
        client.get("/admin/clocks").text))
    row = port_row(html, B)
    assert f"{THAI} · 1" in row and "R1 T1" in row and published[1][0] in row


def test_a_spare_clock_takes_a_tables_place_and_the_page_says_who_lost_it(desk):
    client, store, clocks, ports = desk
    store.assign_clock(B, THAI, 1, by="organiser")
    publish(client, THAI)
    clocks[B].wait(lambda i: i["event"] == THAI and i["table"] == 1)
    # clock B dies; the spare A is given table 1: it gets table 1's pairing at once, B has no table any more
    r = post(client, "/admin/clocks/assign", serial=A, event=THAI, table="1")
    assert r.status_code == 303
    page = client.get(r.headers["location"]).text
    assert f"{A}: {THAI} table 1" in page and f"{B} has no table now" in page
    info = clocks[A].wait(lambda i: i["event"] == THAI, what="the spare did not get table 1")
    assert info["table"] == 1 and (info["players"]["left"], info["players"]["right"]) == tables(store, THAI, 1)[1]
    assert [a["serial"] for a in store.assignments()] == [A]
    html = client.get("/admin/clocks").text
    known = re.search(rf'<tr data-testid="clock-row" data-serial="{B}">.*?</tr>', html, re.S).group(0)
    assert 'data-testid="table"></td>' in known
    # Unassign: A's own settings pick its pairing again (they name nothing here: nothing is pushed)
    assert post(client, "/admin/clocks/unassign", serial=A).status_code == 303
    assert store.assignments() == []


@pytest.mark.parametrize("desk", ["1"], indirect=True)
def test_publish_reaches_the_clocks_docked_now_without_assignments(desk):
    client, store, clocks, ports = desk
    time.sleep(1.0)
    assert all("players" not in c.info() for c in clocks.values())  # no round yet
    publish(client, "1")
    published = tables(store, "1", 1)
    for serial, table in ((A, 1), (B, 2)):  # their own settings: Event 1, tables 1 and 2
        info = clocks[serial].wait(lambda i: "players" in i, what=f"clock {serial}: round 1 not received")
        assert (info["event"], info["round"], info["table"]) == (1, 1, table)
        assert (info["players"]["left"], info["players"]["right"]) == published[table]


def test_the_forms_refuse_what_they_must(desk):
    client, store, clocks, ports = desk
    wait_until(lambda: f'data-serial="{A}"' in client.get("/admin/clocks").text)
    assert client.post("/admin/clocks/assign", data={"serial": A, "event": THAI, "table": "1"}).status_code == 403
    for fields, words in (({"serial": A, "event": "nope", "table": "1"}, "no event nope"),
                          ({"serial": A, "event": THAI, "table": "0"}, "1-999"),
                          ({"serial": A, "event": THAI, "table": "x"}, "1-999"),
                          ({"serial": A, "event": THAI, "table": "1000"}, "1-999")):
        r = post(client, "/admin/clocks/assign", **fields)
        assert r.status_code == 400 and words in r.text and 'class="notice notice-error"' in r.text
    assert post(client, "/admin/clocks/assign", serial="ab\x1bc", event=THAI, table="1").status_code == 400
    r = post(client, "/admin/clocks/assign", serial="00000000deadbeef", event=THAI, table="1")  # never enrolled here
    assert r.status_code == 404 and "no clock 00000000deadbeef on this PC" in r.text
    assert post(client, "/admin/clocks/assign-order", event="nope", first="1").status_code == 400
    r = post(client, "/admin/clocks/unassign", serial=A)
    assert r.status_code == 409 and "has no table" in r.text
    assert store.assignments() == []
    th = client.get("/admin/clocks?lang=th").text
    assert "จัดโต๊ะตามลำดับที่เสียบ" in th
