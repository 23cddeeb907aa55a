"""Every change the organiser makes to the results on a bad day (issue 26) is audited -- who (the
person logged in: web.who), what, what it was before, what it is after, why -- and leaves every
signed record's bytes as the clock sent them (the stored JSON text, its summary, signature and key
compared before and after each operation).

Over the demo event (desk/demo.py, secondary Crossword): round 2 table 4 (ชัยวัฒน์ ดีเลิศ v ดวงใจ
แก้วงาม) has no result; a clock whose event was left at "1" sends a game as round 2 table 2."""
from __future__ import annotations

import random
import re
import sqlite3

import pytest
from deskhelp import csrf_of

from gameclock.organiser.desk import demo, views

WHO = "Kanya (arbiter)"
LEFT, RIGHT = "ชัยวัฒน์ ดีเลิศ", "ดวงใจ แก้วงาม"
PHANTOM = f"{demo.SERIAL}-000009"
TABLE = "/admin/e/demo/round/2/table/4"


@pytest.fixture
def desk(desk, monkeypatch):
    """conftest's demo desk, the person logged in named WHO (as a named account gives it)."""
    for module in ("admin", "results"):
        monkeypatch.setattr(f"gameclock.organiser.desk.{module}.who", lambda request: WHO)
    return desk


def signed(db) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, record, summary, sig, kid, received_at, source FROM results ORDER BY id"
                           ).fetchall()
    finally:
        con.close()


def post(desk, path: str, page: str, **fields):
    r = desk.post(path, data={"csrf": csrf_of(desk.get(page).text), **fields})
    assert r.status_code == 303, r.text[-600:]
    return r


def trail(store, rid: str) -> list[dict]:
    """The result page's audit trail (views.result): each entry with who, why and (field, before, after)."""
    return views.result(store, rid)["amendments"]


def test_each_operation_is_audited_and_no_signed_byte_changes(desk, tmp_path):
    db = tmp_path / "demo.db"
    store = desk.app.state.desk.store
    rec = demo.demo_record(9, 2, 2, "", "", (400, 350), random.Random(9))
    rec["event"], rec["players"] = "1", {"left": None, "right": None}
    store.put_result(rec, "0" * 64, "demo", "/dev/ttyACM1")
    rows = signed(db)

    # 1. a hand entry: who, when, why; what: the entry's lines; after: the result it counts as
    post(desk, f"{TABLE}/hand", TABLE, score_left="400", score_right="350", level="secondary",
         reason="clock 4 died")
    [h] = store.hand_trail("demo", 2, 4)
    assert (h["by"], h["reason"], h["withdraws"]) == (WHO, "clock 4 died", None) and h["at"].endswith("Z")
    assert [e["line"] for e in h["record"]["entries"]] == ["level secondary", "score left 400", "score right 350"]
    assert h["record"]["scores"]["spread"] == {"left": 50, "right": -50}    # XW-8: +50 under the cap 250
    page = desk.get(f"/admin/results/{h['id']}?lang=en").text
    assert WHO in page and "clock 4 died" in page and "score left 400" in page
    assert signed(db) == rows

    # 2. corrected (before: entry 1, after: entry 2, both kept), 3. withdrawn (a row of its own)
    post(desk, f"{TABLE}/hand", TABLE, score_left="420", score_right="350", level="secondary",
         replaces=h["id"], reason="slip recounted")
    post(desk, f"/admin/hand/{store.hand_trail('demo', 2, 4)[1]['id']}/withdraw",
         f"/admin/results/{store.hand_trail('demo', 2, 4)[1]['id']}", reason="entered at the wrong table")
    t = store.hand_trail("demo", 2, 4)
    assert [(x["by"], x["reason"], x["withdraws"], (x["record"] or {}).get("scores", {}).get("final"))
            for x in t] == [(WHO, "clock 4 died", None, {"left": 400, "right": 350}),
                            (WHO, "slip recounted", None, {"left": 420, "right": 350}),
                            (WHO, "entered at the wrong table", t[1]["id"], None)]
    assert store.hand_results() == [] and signed(db) == rows

    # 4. a wrong upload moved: before event 1 table 2, nobody; after demo table 4, the table's players
    post(desk, f"/admin/results/{PHANTOM}/move", f"/admin/results/{PHANTOM}", event="demo", round="2", table="4",
         reason="event left at 1")
    [a] = trail(store, PHANTOM)
    assert (a["by"], a["reason"]) == (WHO, "event left at 1")
    assert a["changed"] == [("event", "1", "demo"), ("table", "2", "4"), ("players.left", "–", LEFT),
                            ("players.right", "–", RIGHT)]
    page = desk.get(f"/admin/results/{PHANTOM}?lang=en").text
    assert re.search(r"Table: 2 » 4", page) and WHO in page
    assert signed(db) == rows

    # 5. set aside (before counted, after not), 6. put back (the aside withdrawn: a new entry)
    post(desk, f"/admin/results/{PHANTOM}/aside", f"/admin/results/{PHANTOM}", reason="a test game")
    n = store.amendments(PHANTOM)[-1]["n"]
    post(desk, f"/admin/results/{PHANTOM}/withdraw", f"/admin/results/{PHANTOM}", n=str(n), reason="it was real")
    t = trail(store, PHANTOM)
    assert [(x["by"], x["reason"], x["changed"]) for x in t[1:]] == [
        (WHO, "a test game", [("aside", "no", "yes")]), (WHO, "it was real", [("aside", "yes", "no")])]
    assert t[2]["withdraws"] == n and signed(db) == rows

    # 7. a clock's result after a hand entry: keep the hand entry (the clock's set aside), audited
    post(desk, f"/admin/results/{PHANTOM}/aside", f"/admin/results/{PHANTOM}", reason="make room")
    post(desk, f"{TABLE}/hand", TABLE, score_left="400", score_right="350", level="secondary", reason="clock 4 died")
    post(desk, f"/admin/results/{PHANTOM}/withdraw", f"/admin/results/{PHANTOM}",
         n=str(store.amendments(PHANTOM)[-1]["n"]), reason="back, to decide")
    assert [why for _, why in store.held("demo")] == ["hand"]
    post(desk, f"/admin/results/{PHANTOM}/decide", "/admin/uploads", keep="hand", reason="the slip is right")
    last = trail(store, PHANTOM)[-1]
    assert (last["by"], last["reason"], last["changed"]) == (WHO, "the slip is right", [("aside", "no", "yes")])
    # 8. ... or take the clock's: the hand entry withdrawn, by whom and why
    post(desk, f"/admin/results/{PHANTOM}/withdraw", f"/admin/results/{PHANTOM}",
         n=str(store.amendments(PHANTOM)[-1]["n"]), reason="reopened")
    post(desk, f"/admin/results/{PHANTOM}/decide", "/admin/uploads", keep="clock", reason="the clock is right")
    w = store.hand_trail("demo", 2, 4)[-1]
    assert (w["by"], w["reason"], w["record"]) == (WHO, "the clock is right", None)
    assert [v[0] for v in store.summaries(event="demo", round=2) if v[3] == 4] == [PHANTOM]
    assert signed(db) == rows

    # 9. an event without real games deleted: before, everything kept of it; after, gone
    from gameclock.organiser import event as events
    from gameclock.organiser.pairing import model
    events.create_event(store, "typo", "xw10", events.PlayerList([model.Player("1", "A"), model.Player("2", "B")]),
                        rounds=3, preset="crossword", level="secondary")
    post(desk, "/admin/e/typo/delete", "/admin/e/typo", reason="a typo")
    [d] = store.deleted_events()
    assert (d["event"], d["by"], d["reason"]) == ("typo", WHO, "a typo")
    assert d["before"]["event"]["name"] == "typo" and [p["id"] for p in d["before"]["players"]] == ["1", "2"]
    assert store.event("typo") is None and 'data-testid="deleted-row"' in desk.get("/admin/uploads").text
    assert signed(db) == rows
