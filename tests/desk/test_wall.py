"""The hall's wall (issue 28): the projector showed no round, no time and no school column, and had no
way to tell the hall anything. Now its head shows the round, the desk's time of day, a round clock from
the organiser's "Start round" (kept in the store: a desk restarted keeps counting), the announcements the
organiser types (escaped, length-limited, hostile characters gone), and its tables carry each player's
school; a change reaches the projector through the live stream (`wall`)."""
from __future__ import annotations

import re
import time

import pytest
from deskhelp import LOCAL, LOCAL_URL, csrf_of, log_in, said_after, set_password
from starlette.testclient import TestClient

from gameclock.organiser.desk import wall
from gameclock.organiser.desk.app import create_app
from gameclock.organiser.desk.demo import PLAYERS, build_demo
from gameclock.organiser.store import ANNOUNCEMENT_MAX, ANNOUNCEMENTS_SHOWN, Store, StoreError


@pytest.fixture
def demo_db(tmp_path):
    path = tmp_path / "pc.db"
    build_demo(path)
    return path


def organiser_on(app) -> TestClient:
    c = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    set_password(c)
    assert log_in(c).status_code == 303
    return c


def post(c: TestClient, page: str, url: str, data: dict[str, str]):
    return c.post(url, data={"csrf": csrf_of(c.get(page).text), **data})


def test_the_projector_head_shows_the_round_and_the_time(demo_db):
    """The demo publishes rounds 1 and 2 (demo.py): the head says round 2; the time is the desk's, HH:MM."""
    c = TestClient(create_app(demo_db))
    before = time.time_ns()
    head = c.get("/e/demo/part/wall/head?lang=en")
    assert head.status_code == 200 and head.headers["cache-control"] == "no-store"
    assert re.search(r'data-testid="wall-round">Round 2<', head.text)
    now_ms = int(re.search(r'data-now-ms="(\d+)"', head.text).group(1))
    assert before // 1_000_000 <= now_ms <= time.time_ns() // 1_000_000
    offset = int(re.search(r'data-offset-min="(-?\d+)"', head.text).group(1))
    shown = re.search(r'data-testid="wall-time"[^>]*>(\d\d):(\d\d)<', head.text)
    minutes = (now_ms // 60_000 + offset) % 1440     # the time of day in the desk's zone, worked here
    assert (int(shown.group(1)), int(shown.group(2))) == (minutes // 60, minutes % 60)
    assert "wall-clock" not in head.text            # no round clock before the organiser starts the round
    th = c.get("/e/demo/part/wall/head?lang=th").text
    assert "รอบ 2" in th


def test_the_projector_tables_show_each_players_school(demo_db):
    """demo.py's list: player 1 สมชาย ใจดี of โรงเรียนสาธิต ... each standings and pairings row says the school."""
    c = TestClient(create_app(demo_db))
    school = {name: campus for _id, name, _latin, campus in PLAYERS}
    st = c.get("/e/demo/part/wall/standings?lang=th").text
    assert "<th>โรงเรียน</th>" in st
    rows = re.findall(r'data-player="([^"]+)".*?data-testid="school">([^<]*)<', st, re.S)
    assert len(rows) == 8 and all(school[name] == campus for name, campus in rows)
    pr = c.get("/e/demo/part/wall/pairings?lang=en").text
    cells = re.findall(r'<tr data-testid="pairing-row" data-table="\d+"><td class="num">\d+</td><td>([^<]+)</td>'
                       r'<td class="school" data-testid="school">([^<]*)</td><td>([^<]+)</td>'
                       r'<td class="school" data-testid="school">([^<]*)</td>', pr)
    assert len(cells) == 4   # round 2's four tables
    for left, ls, right, rs in cells:
        assert school[left] == ls and school[right] == rs
    assert c.get("/e/demo/part/wall/nothing").status_code == 404
    projector = c.get("/e/demo/projector").text
    assert "/e/demo/part/wall/standings" in projector and "/e/demo/part/wall/pairings" in projector


def test_start_round_runs_the_round_clock_and_a_restart_keeps_it(demo_db):
    app = create_app(demo_db)
    c = organiser_on(app)
    page = c.get("/admin/e/demo/round/2?lang=en")
    assert 'data-testid="start-round"' in page.text and 'data-testid="add-announcement"' in page.text
    pressed = time.time_ns()
    r = post(c, "/admin/e/demo/round/2", "/admin/e/demo/round/2/start", {})
    assert r.status_code == 303 and r.headers["location"] == "/admin/e/demo/round/2"
    assert "round 2 started" in said_after(c, r)
    started = app.state.desk.store.round_started("demo", 2)
    assert started is not None and pressed <= started <= time.time_ns()
    assert app.state.desk.store.wall_changes("demo")[-1]["what"] == "round 2 started"
    assert app.state.desk.store.wall_changes("demo")[-1]["by"] == "organiser"
    app.state.desk.store.close()

    # the desk restarted: the same start, the clock counts on from it
    again = TestClient(create_app(demo_db))
    head = again.get("/e/demo/part/wall/head?lang=en").text
    m = re.search(r'data-started-ms="(\d+)" data-now-ms="(\d+)">(\d+):(\d\d):(\d\d)<', head)
    assert m and int(m.group(1)) == started // 1_000_000
    elapsed = (int(m.group(2)) - int(m.group(1))) // 1000
    assert int(m.group(3)) * 3600 + int(m.group(4)) * 60 + int(m.group(5)) == elapsed
    assert wall.clock_text(3 * 3600 + 4 * 60 + 5) == "3:04:05"   # hours unpadded, minutes and seconds two digits


def test_start_round_of_a_round_not_published_is_refused(demo_db):
    c = organiser_on(create_app(demo_db))
    r = post(c, "/admin/e/demo/round/2", "/admin/e/demo/round/9/start", {})
    assert r.status_code == 404
    anon = TestClient(create_app(demo_db), client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    assert anon.post("/admin/e/demo/round/2/start", data={}).status_code in (303, 403)


HOSTILE = '<script>alert("x")</script>\u202e\u200bประกาศ:\tพักกลางวัน 12:00\nLunch at noon &amp;'


def test_announcements_typed_in_thai_and_english_are_escaped_and_cleaned(demo_db):
    app = create_app(demo_db)
    c = organiser_on(app)
    r = post(c, "/admin/e/demo/round/2", "/admin/e/demo/wall/add", {"text": HOSTILE, "round": "2"})
    assert r.status_code == 303 and r.headers["location"] == "/admin/e/demo/round/2"
    [a] = app.state.desk.store.announcements("demo")
    # the tab and the new line one space each, the right-to-left override and the zero-width space gone
    assert a["text"] == '<script>alert("x")</script>ประกาศ: พักกลางวัน 12:00 Lunch at noon &amp;' and a["by"] == "organiser"
    head = TestClient(create_app(demo_db)).get("/e/demo/part/wall/head").text
    assert "<script>alert" not in head
    assert ('<li data-testid="announcement">&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;ประกาศ: พักกลางวัน 12:00 '
            'Lunch at noon &amp;amp;</li>') in head
    admin_page = c.get("/admin/e/demo/round/2").text
    assert "<script>alert" not in admin_page and "&lt;script&gt;alert" in admin_page

    # removed: off the projector, kept in the store with who and when
    r = post(c, "/admin/e/demo/round/2", "/admin/e/demo/wall/remove", {"n": str(a["n"]), "round": "2"})
    assert r.status_code == 303
    assert app.state.desk.store.announcements("demo") == []
    assert 'data-testid="announcement"' not in TestClient(app).get("/e/demo/part/wall/head").text
    r = post(c, "/admin/e/demo/round/2", "/admin/e/demo/wall/remove", {"n": str(a["n"]), "round": "2"})
    assert "that announcement is not on the projector" in said_after(c, r)
    assert [w["what"] for w in app.state.desk.store.wall_changes("demo")] == [
        f"announcement {a['n']} added", f"announcement {a['n']} removed"]


def test_announcements_are_limited_in_length_and_number(tmp_path):
    with Store(tmp_path / "pc.db") as s:
        with pytest.raises(StoreError, match="at most 200 characters"):
            s.add_announcement("e", "ก" * (ANNOUNCEMENT_MAX + 1), "organiser")
        with pytest.raises(StoreError, match="needs a text"):
            s.add_announcement("e", " \u200b\t\n", "organiser")
        assert s.add_announcement("e", "ก" * ANNOUNCEMENT_MAX, "organiser") >= 1
        for i in range(ANNOUNCEMENTS_SHOWN - 1):
            s.add_announcement("e", f"note {i}", "organiser")
        with pytest.raises(StoreError, match="remove one first"):
            s.add_announcement("e", "one more", "organiser")
        assert len(s.announcements("e")) == ANNOUNCEMENTS_SHOWN
        assert s.announcements("other") == []


def test_an_announcement_too_long_is_refused_at_the_desk_in_thai(demo_db):
    app = create_app(demo_db)
    c = organiser_on(app)
    r = post(c, "/admin/e/demo/round/2", "/admin/e/demo/wall/add", {"text": "x" * 201, "round": "2"})
    said = said_after(c, r, "th")
    assert "200" in said and "201" in said and "an announcement" not in said   # said in Thai
    assert app.state.desk.store.announcements("demo") == []


def test_the_stream_tells_the_projector_of_a_wall_change(demo_db):
    """Live.poll numbers a `wall` change when the store's wall trail moves (live_stamp's 7th value)."""
    from gameclock.organiser.desk.live import Live

    app = create_app(demo_db)
    store = app.state.desk.store
    live = Live(store, interval=0)
    v = live.version
    store.add_announcement("demo", "Round 3 at 13:00", "organiser")
    live.poll(force=True)
    assert [c["kind"] for _v, c in live.since(v)] == ["wall"]
    v = live.version
    store.start_round("demo", 2, time.time_ns(), "organiser")
    live.poll(force=True)
    assert [c["kind"] for _v, c in live.since(v)] == ["wall"]
