"""The set-up and round pages over the demo event (desk/demo.py: xw10, round 1 played, round 2
published with three results in, the fourth table's clock docked with one result confirmed and not
yet sent)."""
from __future__ import annotations

import re

from deskhelp import csrf_of, said_after

from gameclock.organiser.desk import demo


def states(html: str) -> list[tuple[str, str]]:
    return re.findall(r'data-testid="progress-row" data-table="(\d+)".*?data-state="(\w+)"', html, re.S)


def test_round_progress_puts_the_missing_board_first(desk):
    r = desk.get("/admin/e/demo/round/2")
    assert r.status_code == 200
    # tables 1-3 have results; table 4's clock said hello holding one result: confirmed, not uploaded
    assert states(r.text) == [("4", "confirmed"), ("1", "uploaded"), ("2", "uploaded"), ("3", "uploaded")]


def test_pair_refuses_while_a_result_is_missing_then_pairs_and_publishes(desk):
    store = desk.app.state.desk.store
    token = csrf_of(desk.get("/admin/e/demo").text)
    r = desk.post("/admin/e/demo/pair", data={"csrf": token})
    assert r.status_code == 303
    page = desk.get(r.headers["location"] + "?lang=en")
    assert "no result yet for round 2 table 4" in page.text and 'data-testid="publish"' not in page.text
    # the fourth table's result arrives
    r1 = next(r for r in store.event_rounds("demo") if r["round"] == 2)
    b = next(b for b in r1["boards"] if b["table"] == 4)
    names = {p["id"]: p["name"] for p in store.event_players("demo")}
    import random
    store.put_result(demo.demo_record(9, 2, 4, names[b["left"]], names[b["right"]], (300, 310), random.Random(1)),
                     "0" * 64, "demo", "test")
    assert states(desk.get("/admin/e/demo/round/2").text)[0] == ("1", "uploaded")
    r = desk.post("/admin/e/demo/pair", data={"csrf": token})
    assert "draft drawn" in said_after(desk, r)
    page = desk.get("/admin/e/demo")
    assert 'data-testid="round-3-boards" data-state="draft"' in page.text and 'data-testid="publish"' in page.text
    r = desk.post("/admin/e/demo/publish", data={"csrf": token})
    assert r.status_code == 303
    assert [x["state"] for x in store.event_rounds("demo")] == ["published", "published", "published"]
    assert len([p for p in store.pairings() if p["round"] == 3]) == 4   # eight players: four tables to the clocks
    assert desk.get("/e/demo/pairings/3").text.count('data-testid="pairing-row"') == 4


def test_clocks_and_a_result_page(desk):
    r = desk.get("/admin/clocks")
    assert r.status_code == 200
    rows = re.findall(r'data-testid="clock-row" data-serial="(\w+)"', r.text)
    assert rows == ["demo0000000000d", "demo0000000000c"]   # the one that said hello first (last contact)
    assert re.search(r'data-serial="demo0000000000d".*?data-testid="pending">1<', r.text, re.S)
    r = desk.get(f"/admin/results/{demo.SERIAL}-000005")   # round 2, table 1
    assert r.status_code == 200
    assert 'data-testid="move-chart"' in r.text
    # XW-3: 3:18 over is 4 started minutes, 40 points
    assert re.search(r'data-testid="penalty-left">40<', r.text)
    assert desk.get(f"/admin/results/{demo.SERIAL}-000006").text.count('data-testid="corrections"') == 1


def test_the_public_pairings_link_leads_to_the_round_under_way(desk):
    r = desk.get("/e/demo/pairings")
    assert r.status_code == 303 and r.headers["location"] == "/e/demo/pairings/2"   # round 2 is under way


def test_players_page_links_each_players_page(desk):
    # issue 28: the QR codes are on the sheet to print (/qr/players: tests/desk/test_public_qr_header.py), not here
    r = desk.get("/e/demo/players")
    assert r.text.count('data-testid="player-row"') == 8 and "<svg" not in r.text
    # the name's parts each kept whole on a phone (thaiwrap.name_html's `np` spans)
    assert '<a href="/e/demo/players/1"><span class="np">สมชาย</span> <span class="np">ใจดี</span></a>' in r.text
    r = desk.get("/e/demo/players/1")
    assert r.status_code == 200 and "สมชาย ใจดี" in r.text
    assert desk.get("/e/demo/players/99").status_code == 404


def test_the_round_page_says_why_there_is_no_result_in_state(desk):
    """A hello carries `pending` (results in the clock's outbox: confirmed by both players, CL-5) and
    nothing about a result being entered: a clock docked at table 4 with nothing pending is `playing`
    as far as the PC can tell, and the page says so instead of guessing "result in"."""
    store = desk.app.state.desk.store
    store.seen("demo-t4-b", {"fw": "0.2.0", "kid": None, "pending": 0, "event": "demo", "round": 2, "table": 4})
    page = desk.get("/admin/e/demo/round/2?lang=en").text
    assert states(page)[0] == ("4", "playing")
    assert {s for _, s in states(page)} <= {"waiting", "playing", "confirmed", "uploaded"}
    assert 'data-testid="states-note"' in page and "only once both players have confirmed them" in page
    th = desk.get("/admin/e/demo/round/2?lang=th").text
    assert "ผู้เล่นทั้งสองฝ่ายยืนยันแล้ว" in th


def test_charts_speak_the_events_language_without_a_choice_of_the_readers(desk):
    """The demo event is in Thai: with no ?lang= and no cookie, the charts' titles are Thai as the page
    is (they were English: found by a fresh-eyes review)."""
    desk.cookies.clear()
    page = desk.get("/e/demo/standings").text
    assert '<html lang="th">' in page and "<title>เวลาที่ใช้ในแต่ละรอบ</title>" in page
