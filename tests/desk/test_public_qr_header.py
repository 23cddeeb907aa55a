"""The QR codes and the event's header (issue 28): a code per player card and per table, made once, at the
public address the organiser sets at the desk (the address a page was opened with on the organiser's PC,
127.0.0.1, is useless to a phone: the pages say so and make none); the event's header (title, venue,
dates, arbiters, round times) set on the event's admin page and shown atop every public page of the event.

The demo event (desk/demo.py) is the input: 8 players (ids 1-8), round 2 published with tables 1-4, table 2
ฟ้าใส ใจงาม (left) v สมชาย ใจดี."""
from __future__ import annotations

import re

from deskhelp import csrf_of, said_after
from starlette.testclient import TestClient

from gameclock.organiser.desk import qr

HALL = "http://192.168.1.10:8017"


def qr_svg(url: str) -> str:
    """The code of `url` as segno draws it (error correction M), to compare a page's with."""
    import segno

    return segno.make(url, error="m").svg_inline(border=2, omitsize=True, title=url, lineclass=None)


def set_address(desk: TestClient, url: str):
    page = desk.get("/admin/e/demo")
    return desk.post("/admin/e/demo/public-url", data={"csrf": csrf_of(page.text), "public_url": url})


def shown(html: str) -> str:
    """A page's text as read: the tags out (a name's parts are spans: thaiwrap.name_html)."""
    from html import unescape

    return unescape(re.sub(r"<(?!/?a\b)[^>]+>", "", html))   # the links kept: where a name leads


def codes(html: str) -> list[str]:
    return re.findall(r'<span class="qr" data-testid="qr">(.*?)</span>', html, re.S)


def test_without_a_public_address_on_this_pc_no_code_is_made_and_the_pages_say_so(desk):
    for path in ("/e/demo/qr/players", "/e/demo/qr/round/2"):
        r = desk.get(path, params={"lang": "en"})
        assert r.status_code == 200 and "<svg" not in r.text, path
        assert 'data-testid="no-public-address"' in r.text and "127.0.0.1" in r.text, path
    card = desk.get("/e/demo/players/1").text     # a card: no code, and no word for its readers (the sheets say)
    assert "<svg" not in card and 'data-testid="no-public-address"' not in card
    for path in ("/admin", "/admin/e/demo"):
        assert 'data-testid="no-public-address"' in desk.get(path).text, path


def test_opened_from_the_hall_without_an_address_the_codes_carry_that_address_and_say_so(desk):
    phone = TestClient(desk.app, client=("192.168.1.77", 40000), base_url=HALL)
    r = phone.get("/e/demo/qr/round/2")
    assert 'data-testid="no-public-address"' in r.text and HALL in r.text
    assert codes(r.text)[0] == str(qr_svg(f"{HALL}/e/demo/pairings/2/table/1"))


def test_the_organiser_sets_the_address_and_every_card_and_table_has_its_code(desk):
    r = set_address(desk, HALL + "/")
    assert "the QR codes carry http://192.168.1.10:8017" in said_after(desk, r)   # the trailing / dropped
    sheet = desk.get("/e/demo/qr/players").text
    assert 'data-testid="no-public-address"' not in sheet
    pids = re.findall(r'data-testid="qr-card" data-player="([^"]*)"', sheet)
    assert sorted(pids) == [str(i) for i in range(1, 9)]
    # each code is the code of its card's address (the same maker, segno, given the URL worked by hand)
    assert codes(sheet)[pids.index("1")] == str(qr_svg(f"{HALL}/e/demo/players/1"))
    tables = desk.get("/e/demo/qr/round/2").text
    assert re.findall(r'data-testid="qr-card" data-table="(\d+)"', tables) == ["1", "2", "3", "4"]
    assert codes(tables)[1] == str(qr_svg(f"{HALL}/e/demo/pairings/2/table/2"))
    card = desk.get("/e/demo/players/1").text
    assert codes(card) == [str(qr_svg(f"{HALL}/e/demo/players/1"))]
    assert desk.get("/e/demo/qr/round/9").status_code == 404


def test_a_code_is_made_once(desk):
    set_address(desk, HALL)
    desk.get("/e/demo/qr/players")
    made = qr.svg.cache_info().misses
    desk.get("/e/demo/qr/players")
    desk.get("/e/demo/players/1")
    assert qr.svg.cache_info().misses == made    # the second sheet and the card: every code from the cache


def test_a_table_page_is_where_its_code_leads(desk):
    r = desk.get("/e/demo/pairings/2/table/2", params={"lang": "en"})
    assert r.status_code == 200
    # RULES.md, Sides: left starts; ฟ้าใส ใจงาม (id 8) left, สมชาย ใจดี (id 1) right
    assert re.search(r'left \(moves first\): <a href="/e/demo/players/8">ฟ้าใส ใจงาม</a>', shown(r.text))
    assert re.search(r'right \(moves second\): <a href="/e/demo/players/1">สมชาย ใจดี</a>', shown(r.text))
    assert desk.get("/e/demo/pairings/2/table/9").status_code == 404


def test_an_address_a_phone_cannot_open_is_refused(desk):
    for bad in ("http://127.0.0.1:8017", "http://localhost:8017", "http://[::1]:8017"):
        assert "is this PC's own address: a phone cannot reach it" in said_after(desk, set_address(desk, bad)), bad
    for bad in ("ftp://x", "http://a b", "javascript:alert(1)", "http://" + "a" * 300):
        assert "is not an address a phone can open" in said_after(desk, set_address(desk, bad)), bad
    assert desk.app.state.desk.store.setting("public_url") is None
    set_address(desk, HALL)
    set_address(desk, "")   # none again
    assert desk.app.state.desk.store.setting("public_url") == ""
    assert 'data-testid="no-public-address"' in desk.get("/admin").text


def test_the_header_is_set_at_the_desk_and_shown_on_every_public_page(desk):
    before = desk.get("/e/demo/standings").text        # the shared page, rendered once for this stamp
    assert "ศูนย์การค้า" not in before
    page = desk.get("/admin/e/demo")
    r = desk.post("/admin/e/demo/header", data={
        "csrf": csrf_of(page.text), "title": "ชิงแชมป์ครอสเวิร์ด <b>2567</b>", "venue": "ศูนย์การค้า\nชั้น 3",
        "dates": "2-3 พ.ย. 2567", "arbiters": "อ.มาลี", "round_times": "1 09:00 · 2 10:00"})
    assert r.status_code == 303
    for path in ("/e/demo/standings", "/e/demo/pairings/2", "/e/demo/players", "/e/demo/players/1",
                 "/e/demo/crosstable", "/e/demo/final", "/e/demo/find?q=x"):
        html = desk.get(path).text
        head = html[html.index('data-testid="event-header"'):html.index('data-testid="find-form"')]
        assert "ชิงแชมป์ครอสเวิร์ด &lt;b&gt;2567&lt;/b&gt;" in head, path   # escaped
        assert "ศูนย์การค้า ชั้น 3" in head, path                           # one line: the newline a space
        assert "2-3 พ.ย. 2567" in head and "อ.มาลี" in head and "1 09:00 · 2 10:00" in head, path
    assert desk.app.state.desk.store.event_header("demo")["by"] == "organiser"


def test_only_the_organiser_sets_the_header_and_the_address(client):
    # not logged in: the forms are refused, nothing stored
    assert client.post("/admin/e/t/header", data={"title": "x"}).status_code == 403
    assert client.post("/admin/e/t/public-url", data={"public_url": HALL}).status_code == 403
    assert client.app.state.desk.store.event_header("t") is None


def test_the_printed_sheets_pattern_the_desk_shows_leads_to_each_tables_page(desk):
    from html import unescape
    from urllib.parse import urlsplit

    from gameclock.organiser import sheets

    set_address(desk, HALL)
    page = unescape(desk.get("/admin/e/demo").text)
    m = re.search(r"--result-url '([^']+)'", page)
    assert m and m.group(1) == HALL + "/e/{event}/pairings/{round}/table/{table}"
    url = sheets.result_url(m.group(1), "demo", 2, 3)   # what `gameclock pair --sheets` prints for table 3
    assert url == HALL + "/e/demo/pairings/2/table/3"
    r = desk.get(urlsplit(url).path, params={"lang": "en"})
    assert r.status_code == 200 and "อนันต์ วงศ์ทอง" in shown(r.text) and "เอกชัย ทองดี" in shown(r.text)   # round 2


def test_a_version_14_database_gets_the_event_header_and_a_set_header_moves_the_live_stamp(tmp_path):
    import sqlite3

    from gameclock.organiser.store import MIGRATIONS, Store, statements

    con = sqlite3.connect(tmp_path / "v14.db", isolation_level=None)   # as the wall left it: migrations 1-14
    for script in MIGRATIONS[:14]:
        for stmt in statements(script):
            con.execute(stmt)
    con.execute("PRAGMA user_version = 14")
    con.close()
    with Store(tmp_path / "v14.db") as s:
        assert s.version() == 15 and s.event_header("open") is None
        stamp = s.live_stamp()
        s.set_event_header("open", {"title": "Open 2024", "venue": "Hall A"}, "organiser")
        assert s.event_header("open") == {"title": "Open 2024", "venue": "Hall A", "dates": "", "arbiters": "",
                                          "round_times": "", "by": "organiser", "at": s.event_header("open")["at"]}
        moved = s.live_stamp()
        assert moved != stamp
        s.set_event_header("open", {"title": "Open 2024"}, "organiser")   # the same header set again: still a change
        assert s.live_stamp() != moved and s.event_header("open")["venue"] == ""
