"""Wrong uploads fixed at the desk (issue 26): a result sent with the wrong event or the wrong table is
moved to its real event, round and table or set aside, audited like an amendment, the signed record's
bytes untouched; an event with no real games can be deleted; what was refused, held or set aside is
on one desk page with the clock that sent it.

Over the demo event (desk/demo.py, secondary Crossword): round 2 has tables 1-3 in,

    round 2 table 3: อนันต์ วงศ์ทอง v เอกชัย ทองดี, 377-377 (a draw, signed: demo0000000000c-000007)
    round 2 table 4: ชัยวัฒน์ ดีเลิศ v ดวงใจ แก้วงาม, no result yet

and table 4's game, 400-350 (XW-6: 2 / 0; XW-8 secondary cap 250: +50 / -50), arrives wrongly.
"""
from __future__ import annotations

import random
import re
import sqlite3

from deskhelp import csrf_of

from gameclock.organiser.desk import demo, web

LEFT, RIGHT = "ชัยวัฒน์ ดีเลิศ", "ดวงใจ แก้วงาม"          # round 2 table 4
T3 = ("อนันต์ วงศ์ทอง", "เอกชัย ทองดี")                  # round 2 table 3
R1T4 = ("สมชาย ใจดี", "อนันต์ วงศ์ทอง")                  # round 1 table 4: the clock's names from round 1
RID = f"{demo.SERIAL}-000009"


def states(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-testid="progress-row" data-table="(\d+)".*?data-state="([\w-]+)"', html, re.S))


def gp(html: str) -> dict[str, str]:
    """{player: GP} of the public standings (the GP column's cells)."""
    head = re.findall(r"<th[^>]*>([^<]*)</th>", html.split('data-testid="standings-row"')[0].rsplit("<thead", 1)[1])
    col = head.index("GP")
    out = {}
    for m in re.finditer(r'data-testid="standings-row" data-player="([^"]+)".*?</tr>', html, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", m.group(0), re.S)
        out[m.group(1)] = re.sub(r"<[^>]+>", "", cells[col]).strip()
    return out


def signed(db) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, record, sig, kid, summary, received_at FROM results ORDER BY id").fetchall()
    finally:
        con.close()


def upload(store, table: int, players: tuple[str | None, str | None], event: str = "demo", seq: int = 9,
           rnd: int = 2, scores=(400, 350)) -> None:
    """A clock's record (demo.demo_record's shape) stored as the receiver stores one."""
    rec = demo.demo_record(seq, rnd, table, players[0] or "", players[1] or "", scores, random.Random(seq))
    rec["event"], rec["players"] = event, {"left": players[0], "right": players[1]}
    assert store.put_result(rec, "0" * 64, "demo", "/dev/ttyACM1") == "stored"


def post(desk, path: str, page: str, **fields):
    return desk.post(path, data={"csrf": csrf_of(desk.get(page).text), **fields})


def test_a_wrong_event_makes_a_phantom_event_that_is_moved_to_its_table(desk, tmp_path):
    """Reproduces: the clock's event setting was "1" (the default): it got no pairing, its result made a
    phantom event "1" on the public index, and nothing could move or delete it."""
    store = desk.app.state.desk.store
    upload(store, 4, (None, None), event="1")
    assert re.search(r'href="/e/1/standings"', desk.get("/").text)      # the phantom event
    before = signed(tmp_path / "demo.db")
    page = desk.get(f"/admin/results/{RID}?lang=en").text
    assert 'data-testid="move-form"' in page and 'data-testid="aside-form"' in page
    r = post(desk, f"/admin/results/{RID}/move", f"/admin/results/{RID}", event="demo", round="2", table="4",
             reason="the clock's event was left at 1")
    assert r.status_code == 303, r.text

    assert 'href="/e/1/' not in desk.get("/").text                     # gone from the public index
    assert states(desk.get("/admin/e/demo/round/2").text)["4"] == "uploaded"
    # it counts where it was played, with the table's players (the clock had none): XW-6 2 / 0
    table = gp(desk.get("/e/demo/standings?lang=en").text)
    assert (table[LEFT], table[RIGHT]) == ("2", "0")   # round 1: ชัยวัฒน์ lost 351-398, ดวงใจ lost 305-420
    [entry] = store.amendments(RID)
    assert entry["changes"] == {"event": "demo", "round": 2, "table": 4, "players.left": LEFT, "players.right": RIGHT}
    assert entry["reason"] == "the clock's event was left at 1" and entry["by"] == "organiser"
    assert signed(tmp_path / "demo.db") == before


def test_a_wrong_table_with_names_not_at_that_table_is_held_not_counted(desk, tmp_path):
    """Reproduces: a clock still holding round 1's names (สมชาย v อนันต์) is set to round 2 table 4:
    the table showed complete with a winner who is not there, and counted in the public standings."""
    store = desk.app.state.desk.store
    before_gp = gp(desk.get("/e/demo/standings?lang=en").text)
    upload(store, 4, R1T4)
    assert states(desk.get("/admin/e/demo/round/2").text)["4"] == "look"
    assert gp(desk.get("/e/demo/standings?lang=en").text) == before_gp          # not counted
    page = desk.get("/admin/uploads?lang=en").text
    assert f'data-id="{RID}" data-why="players"' in page and "not the table&#39;s players" in page
    assert demo.SERIAL in page
    # the round cannot be paired on it either: Pair names the result and the table's players
    token = csrf_of(desk.get("/admin/e/demo").text)
    refused = desk.get(desk.post("/admin/e/demo/pair", data={"csrf": token}).headers["location"]).text
    assert f"result {RID} (round 2 table 4) has {R1T4[0]} v {R1T4[1]}, published {LEFT} v {RIGHT}" in refused

    # the organiser finds it was table 4's game after all (the score slip), players as seated there
    r = post(desk, f"/admin/results/{RID}/move", f"/admin/results/{RID}", event="demo", round="2", table="4",
             reason="score slip: table 4's game; the clock kept round 1's names")
    assert r.status_code == 303, r.text
    assert states(desk.get("/admin/e/demo/round/2").text)["4"] == "uploaded"
    after = gp(desk.get("/e/demo/standings?lang=en").text)
    assert (after[LEFT], after[RIGHT]) == ("2", "0")   # both lost in round 1 (module doc); 400-350 now


def test_a_wrong_table_with_that_tables_names_makes_two_results_that_wait_for_the_organiser(desk, tmp_path):
    """Table 4's players played on a clock set to table 3, which was pushed table 3's names: table 3 has
    two results for one game; neither counts until the organiser moves the wrong one to table 4."""
    store = desk.app.state.desk.store
    upload(store, 3, T3, scores=(400, 350))
    assert states(desk.get("/admin/e/demo/round/2").text)["3"] == "look"
    table = gp(desk.get("/e/demo/standings?lang=en").text)
    # neither of table 3's results counts: อนันต์ and เอกชัย have round 1 only (อนันต์ 366-366 draw: 1;
    # เอกชัย lost 344-372: 0)
    assert (table[T3[0]], table[T3[1]]) == ("1", "0")
    before = signed(tmp_path / "demo.db")
    r = post(desk, f"/admin/results/{RID}/move", f"/admin/results/{RID}", event="demo", round="2", table="4",
             reason="table 4's players on table 3's clock")
    assert r.status_code == 303, r.text
    s = states(desk.get("/admin/e/demo/round/2").text)
    assert (s["3"], s["4"]) == ("uploaded", "uploaded")
    table = gp(desk.get("/e/demo/standings?lang=en").text)
    # table 3's own draw counts again (1 each), table 4's game for its players (2 / 0 on top of round 1)
    assert (table[T3[0]], table[T3[1]], table[LEFT], table[RIGHT]) == ("2", "1", "2", "0")
    # the moved result takes table 4's players, seated as published (left ชัยวัฒน์)
    [entry] = store.amendments(RID)
    assert (entry["changes"]["players.left"], entry["changes"]["players.right"]) == (LEFT, RIGHT)
    assert signed(tmp_path / "demo.db") == before


def test_a_move_can_say_the_players_sat_the_other_way_round(desk):
    store = desk.app.state.desk.store
    upload(store, 4, (None, None), event="1")
    r = post(desk, f"/admin/results/{RID}/move", f"/admin/results/{RID}", event="demo", round="2", table="4",
             swap="1", reason="the right player was on the clock's left")
    assert r.status_code == 303, r.text
    [entry] = store.amendments(RID)
    assert (entry["changes"]["players.left"], entry["changes"]["players.right"]) == (RIGHT, LEFT)
    table = gp(desk.get("/e/demo/standings?lang=en").text)
    assert (table[LEFT], table[RIGHT]) == ("0", "2")   # 400-350 for the clock's left: now ดวงใจ


def test_a_move_onto_a_table_that_has_its_result_is_refused(desk):
    store = desk.app.state.desk.store
    upload(store, 4, (None, None), event="1")
    r = post(desk, f"/admin/results/{RID}/move", f"/admin/results/{RID}", event="demo", round="2", table="3",
             reason="wrong guess")
    assert r.status_code == 409 and f"{demo.SERIAL}-000007" in r.text
    r = post(desk, f"/admin/results/{RID}/move", f"/admin/results/{RID}", event="demo", round="2", table="9",
             reason="no such table")
    assert r.status_code == 400
    assert store.amendments(RID) == []


def test_set_aside_and_put_back(desk, tmp_path):
    store = desk.app.state.desk.store
    upload(store, 4, (None, None), event="1")
    before = signed(tmp_path / "demo.db")
    r = post(desk, f"/admin/results/{RID}/aside", f"/admin/results/{RID}", reason="a test game before round 1")
    assert r.status_code == 303, r.text
    assert 'href="/e/1/' not in desk.get("/").text
    page = desk.get("/admin/uploads").text
    assert 'data-testid="aside-row"' in page and RID in page
    # put back: the aside withdrawn (a new entry with its reason): the phantom is back, to be moved
    [entry] = store.amendments(RID)
    r = post(desk, f"/admin/results/{RID}/withdraw", f"/admin/results/{RID}", n=str(entry["n"]),
             reason="set aside by mistake")
    assert r.status_code == 303
    assert 'href="/e/1/standings"' in desk.get("/").text
    assert signed(tmp_path / "demo.db") == before


def test_an_amendment_after_a_move_keeps_the_move(desk):
    """An amendment is the whole result as it counts: amending the scores of a moved result keeps it
    where it was moved to (and the move of an amended result keeps the amended scores)."""
    store = desk.app.state.desk.store
    upload(store, 4, (None, None), event="1")
    post(desk, f"/admin/results/{RID}/move", f"/admin/results/{RID}", event="demo", round="2", table="4",
         reason="the clock's event was left at 1")
    r = post(desk, f"/admin/results/{RID}/amend", f"/admin/results/{RID}", outcome="left", score_left="420",
             score_right="350", reason="score slip: 420")
    assert r.status_code == 303, r.text
    entry = store.amendments(RID)[-1]
    assert entry["changes"]["event"] == "demo" and entry["changes"]["table"] == 4
    assert entry["changes"]["scores.spread"] == {"left": 70, "right": -70}    # XW-8: 420-350, under 250
    assert states(desk.get("/admin/e/demo/round/2").text)["4"] == "uploaded"


def test_delete_an_event_without_real_games(desk):
    store = desk.app.state.desk.store
    from gameclock.organiser import event as events
    from gameclock.organiser.pairing import model
    plist = events.PlayerList([model.Player(id="1", name="A"), model.Player(id="2", name="B")])
    events.create_event(store, "typo", "xw10", plist, rounds=5, preset="crossword", level="secondary")
    events.draw(store, "typo", seed=1)
    events.publish(store, "typo")
    # the demo has real games: refused, saying so
    r = post(desk, "/admin/e/demo/delete", "/admin/e/demo", reason="no")
    assert r.status_code == 409 and "7" in r.text
    assert "demo" in store.events()
    r = post(desk, "/admin/e/typo/delete", "/admin/e/typo", reason="made with a typo in its name")
    assert r.status_code == 303, r.text
    assert "typo" not in store.events() and not [p for p in store.pairings() if p["event"] == "typo"]
    assert desk.get("/e/typo/standings").status_code == 404
    [gone] = store.deleted_events()
    assert (gone["event"], gone["by"], gone["reason"]) == ("typo", "organiser", "made with a typo in its name")
    assert [p["name"] for p in gone["before"]["players"]] == ["A", "B"]


def test_refusals_and_conflicts_are_on_the_desk_with_their_clock(desk):
    store = desk.app.state.desk.store
    store.refusal("bad-signature", "the signature does not match", serial="clock-x", rid="clock-x-000003",
                  source="/dev/ttyACM2")
    rec = store.result(f"{demo.SERIAL}-000005")["record"]
    store.put_result({**rec, "ended": "2024-11-02T05:00:00.000Z"}, "1" * 64, "demo", "/dev/ttyACM3")
    page = desk.get("/admin/uploads?lang=en").text
    assert 'data-testid="refusal-row"' in page and "clock-x-000003" in page and "bad-signature" in page
    assert 'data-testid="conflict-row"' in page and f"{demo.SERIAL}-000005" in page and "/dev/ttyACM3" in page
    th = desk.get("/admin/uploads?lang=th").text
    assert 'data-testid="refusal-row"' in th


def test_every_desk_operation_names_the_person_logged_in(desk, monkeypatch):
    """The audit's person is web.who(request) (named accounts make it the account's name)."""
    for module in ("gameclock.organiser.desk.results",):
        monkeypatch.setattr(f"{module}.who", lambda request: "Kanya (arbiter)")
    store = desk.app.state.desk.store
    upload(store, 4, (None, None), event="1")
    post(desk, f"/admin/results/{RID}/aside", f"/admin/results/{RID}", reason="test")
    assert store.amendments(RID)[-1]["by"] == "Kanya (arbiter)"
    assert web.who  # the shared helper stays the one the pages call
