"""The organiser's bad day at the desk (issue 26, the results side): a dead clock's game entered by
hand, a forfeit, a signed result arriving after a hand entry, and what the round progress, the
standings and the next round's pairing make of them.

Over the demo event (desk/demo.py: xw10, secondary Crossword, preset `crossword`, level secondary):
round 2 is published with tables 1-3 in and table 4 missing -- its clock is the dead one:

    round 2 table 4: ชัยวัฒน์ ดีเลิศ (left) v ดวงใจ แก้วงาม (right), stage qualifying (xw10's game 2)

Hand-worked (RULES.md):

- 400-350 entered by hand: XW-6 left 2 GP, right 0; XW-8 secondary cap 250: spread +50 / -50.
- 400-350 with the left 3:18 over: XW-3 4 started minutes = 40 points off, final 360-350: left wins,
  spread +10 / -10.
- a forfeit, the right player did not come: XW-9 (and the docs/rules.md decision: a forfeit is
  scored as a bye for the player who came) the left wins, 2 GP, spread +100; the right 0 GP, -100.
"""
from __future__ import annotations

import re
import sqlite3

from deskhelp import csrf_of, said_after

from gameclock.organiser import event as events
from gameclock.organiser.desk import demo

LEFT, RIGHT = "ชัยวัฒน์ ดีเลิศ", "ดวงใจ แก้วงาม"        # round 2 table 4 (module doc)
TABLE = "/admin/e/demo/round/2/table/4"
WHY = "clock 4's battery died; score slip signed by both"


def states(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-testid="progress-row" data-table="(\d+)".*?data-state="([\w-]+)"', html, re.S))


def standings_row(html: str, player: str) -> dict[str, str]:
    """The public standings' cells of `player` by column name (the table's head)."""
    head = re.findall(r"<th[^>]*>([^<]*)</th>", html.split('data-testid="standings-row"')[0].rsplit("<thead", 1)[1])
    m = re.search(rf'data-testid="standings-row" data-player="{re.escape(player)}".*?</tr>', html, re.S)
    assert m, f"{player} is in the standings"
    cells = re.findall(r"<td[^>]*>(.*?)</td>", m.group(0), re.S)
    return dict(zip(head, [re.sub(r"<[^>]+>", "", c).strip() for c in cells], strict=False))


def signed_rows(db) -> list[tuple]:
    """Every signed result as SQLite holds it: id, record text, signature, key, summary."""
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, record, sig, kid, summary FROM results ORDER BY id").fetchall()
    finally:
        con.close()


def enter(desk, path: str = TABLE, **fields):
    token = csrf_of(desk.get(path).text)
    return desk.post(f"{path}/hand", data={"csrf": token, "reason": WHY, **fields})


def clock_record(seq: int, table: int = 4, scores=(400, 350), **over):
    """The result the table's clock would have sent (desk/demo.py's record), id demo0000000000c-0000NN."""
    import random
    rec = demo.demo_record(seq, 2, table, LEFT, RIGHT, scores, random.Random(seq))
    rec.update(over)
    return rec


def test_a_dead_clocks_game_is_entered_by_hand_and_the_next_round_pairs(desk, tmp_path):
    """Reproduces: no hand entry path; Pair refused while table 4 has no result (its clock died)."""
    store = desk.app.state.desk.store
    token = csrf_of(desk.get("/admin/e/demo").text)
    refused = said_after(desk, desk.post("/admin/e/demo/pair", data={"csrf": token}))
    assert "no result yet for round 2 table 4" in refused
    before = signed_rows(tmp_path / "demo.db")

    # round progress -> the table -> its result form, with the Crossword fields of the event's preset
    progress = desk.get("/admin/e/demo/round/2?lang=en").text
    assert f'href="{TABLE}"' in progress
    form = desk.get(TABLE + "?lang=en").text
    for field in ("score_left", "score_right", "overtime_left", "overtime_right", "level", "absent", "reason"):
        assert f'name="{field}"' in form, field
    assert LEFT in form and RIGHT in form

    r = enter(desk, score_left="400", score_right="350", overtime_left="", overtime_right="", level="secondary")
    assert r.status_code == 303, r.text

    [hand] = store.hand_results(event="demo")
    rec = hand["record"]
    # XW-6: 2 / 0; XW-8 secondary cap 250: +50 / -50
    assert (rec["outcome"], rec["scores"]["final"], rec["scores"]["spread"], rec["scores"]["game_points"]) == (
        "left", {"left": 400, "right": 350}, {"left": 50, "right": -50}, {"left": 2, "right": 0})
    assert rec["players"] == {"left": LEFT, "right": RIGHT}
    assert (hand["by"], hand["reason"]) == ("organiser", WHY) and hand["at"].endswith("Z")
    # an organiser's record, never a signed one: not in the results table, the signed rows untouched
    assert store.result(hand["id"]) is None and signed_rows(tmp_path / "demo.db") == before

    # the round's progress says "by hand", as do the player's page and the latest results; the public
    # standings count it; the next round pairs
    assert states(desk.get("/admin/e/demo/round/2?lang=en").text)["4"] == "hand"
    assert 'data-testid="by-hand"' in desk.get("/e/demo/players/5").text        # player 5: ชัยวัฒน์ ดีเลิศ
    assert 'data-testid="by-hand"' in desk.get("/e/demo/part/results").text
    row = standings_row(desk.get("/e/demo/standings?lang=en").text, LEFT)
    assert (row["GP"], row["W"]) == ("2", "1")   # round 1 lost to มาลี 351-398 (0 GP), round 2 this win
    r = desk.post("/admin/e/demo/pair", data={"csrf": token})
    assert "draft drawn" in said_after(desk, r)
    assert events.draft_of(store, "demo")["round"] == 3


def test_overtime_entered_by_hand_costs_what_the_clock_would_charge(desk):
    """XW-3: 3:18 over is 4 started minutes, 40 points: 400 - 40 = 360 v 350, left +10."""
    r = enter(desk, score_left="400", score_right="350", overtime_left="3:18", overtime_right="0:00",
              level="secondary")
    assert r.status_code == 303, r.text
    [hand] = desk.app.state.desk.store.hand_results(event="demo")
    scores = hand["record"]["scores"]
    assert (scores["penalties"], scores["final"], scores["spread"]) == (
        {"left": 40, "right": 0}, {"left": 360, "right": 350}, {"left": 10, "right": -10})
    assert hand["record"]["sides"]["left"]["overtime_ms"] == 198_000


def test_a_forfeit_is_scored_as_a_bye_for_the_player_who_came(desk):
    """XW-9 and docs/rules.md's forfeit decision: the right did not come: left 2 GP +100, right 0 GP -100;
    marked a forfeit, so the Dutch and TRF say the two did not meet."""
    r = enter(desk, absent="right", score_left="", score_right="", level="secondary")
    assert r.status_code == 303, r.text
    store = desk.app.state.desk.store
    [hand] = store.hand_results(event="demo")
    rec = hand["record"]
    assert (rec["outcome"], rec["reason"], rec["scores"]["spread"], rec["scores"]["game_points"]) == (
        "left", "forfeit", {"left": 100, "right": -100}, {"left": 2, "right": 0})
    ev = store.event("demo")
    players = events.players_of(store, "demo")
    games = events.games_of(store, ev, players, events.published_rounds(store, "demo"))
    [g] = [g for g in games if (g.round, g.table) == (2, 4)]
    assert g.forfeit and g.left_points == 1 and g.spread == 100


def test_a_bad_entry_is_refused_saying_why_and_nothing_is_stored(desk):
    store = desk.app.state.desk.store
    r = enter(desk, score_left="400", score_right="", level="secondary")
    # the demo event is Thai: its pages say why in Thai (the clock's "missing: score right")
    assert r.status_code == 400 and "ยังขาด: คะแนนฝั่งขวา" in r.text
    r = enter(desk, score_left="400", score_right="350", level="secondary", reason=" ")
    assert r.status_code == 400 and "การกรอกผลด้วยมือต้องระบุเหตุผล" in r.text
    r = enter(desk, score_left="4x0", score_right="350", level="secondary")
    assert r.status_code == 400 and "คะแนนฝั่งซ้าย: 4x0 ไม่ใช่จำนวนเต็ม" in r.text
    assert store.hand_results() == []
    # a table with the clock's result is amended, not entered by hand
    r = enter(desk, "/admin/e/demo/round/2/table/1", score_left="400", score_right="350", level="secondary")
    assert r.status_code == 409 and f"{demo.SERIAL}-000005" in r.text
    assert store.hand_results() == []


def test_a_signed_result_after_a_hand_entry_is_a_conflict_the_organiser_decides(desk, tmp_path):
    store = desk.app.state.desk.store
    assert enter(desk, score_left="400", score_right="350", level="secondary").status_code == 303
    [hand] = store.hand_results(event="demo")
    # the clock comes back to life and sends its own: 410-350 (left +60)
    assert store.put_result(clock_record(9, scores=(410, 350)), "0" * 64, "demo", "/dev/ttyACM0") == "stored"
    rid = f"{demo.SERIAL}-000009"
    # the hand entry still counts; the clock's is held as a conflict, shown on the desk with its clock
    assert states(desk.get("/admin/e/demo/round/2").text)["4"] == "hand"
    assert standings_row(desk.get("/e/demo/standings?lang=en").text, LEFT)["Spread"] == str(-47 + 50)
    page = desk.get("/admin/uploads?lang=en").text
    assert rid in page and demo.SERIAL in page and hand["id"] in page
    before = signed_rows(tmp_path / "demo.db")

    # take the clock's: the hand entry is withdrawn (a new entry of its trail), the signed one counts
    token = csrf_of(page)
    r = desk.post(f"/admin/results/{rid}/decide", data={"csrf": token, "keep": "clock",
                                                        "reason": "the clock's own record is right"})
    assert r.status_code == 303, r.text
    assert store.hand_results(event="demo") == []
    assert states(desk.get("/admin/e/demo/round/2").text)["4"] == "uploaded"
    assert standings_row(desk.get("/e/demo/standings?lang=en").text, LEFT)["Spread"] == str(-47 + 60)
    assert signed_rows(tmp_path / "demo.db") == before


def test_keeping_the_hand_entry_sets_the_clocks_result_aside(desk, tmp_path):
    store = desk.app.state.desk.store
    assert enter(desk, score_left="400", score_right="350", level="secondary").status_code == 303
    store.put_result(clock_record(9, scores=(300, 350)), "0" * 64, "demo", "/dev/ttyACM0")
    rid = f"{demo.SERIAL}-000009"
    before = signed_rows(tmp_path / "demo.db")
    token = csrf_of(desk.get("/admin/uploads").text)
    r = desk.post(f"/admin/results/{rid}/decide", data={"csrf": token, "keep": "hand",
                                                        "reason": "the clock was reset: its scores are wrong"})
    assert r.status_code == 303, r.text
    assert len(store.hand_results(event="demo")) == 1
    [entry] = store.amendments(rid)
    assert entry["changes"] == {"aside": True} and entry["by"] == "organiser"
    assert states(desk.get("/admin/e/demo/round/2").text)["4"] == "hand"
    assert 'data-testid="aside-row"' in desk.get("/admin/uploads").text
    assert signed_rows(tmp_path / "demo.db") == before


def test_the_form_has_the_events_own_fields_makruk_from_a_pairings_file(desk):
    """An event whose round was loaded from a pairings file (preset makruk-45): the table's form asks
    the winner, how, and each side's pieces (MR-9); MR-10 values R 5 + N 4 + M 2 = 11 against P 1; MR-9
    2 / 0 MP."""
    store = desk.app.state.desk.store
    store.put_pairings([{"event": "mk", "round": 1, "table": 1, "players": {"left": "Arun", "right": "Bua"},
                         "preset": "makruk-45"}])
    page = desk.get("/admin/e/mk/round/1/table/1?lang=en").text
    for field in ("outcome", "result_reason", "material_left", "material_right", "absent"):
        assert f'name="{field}"' in page, field
    assert 'name="score_left"' not in page and 'name="level"' not in page
    r = enter(desk, "/admin/e/mk/round/1/table/1", outcome="left", result_reason="resignation", material_left="RNM",
              material_right="P")
    assert r.status_code == 303, r.text
    [hand] = store.hand_results(event="mk")
    rec = hand["record"]
    assert (rec["outcome"], rec["reason"], rec["scores"]["game_points"], rec["material_value"]) == (
        "left", "resignation", {"left": 2, "right": 0}, {"left": 11, "right": 1})


def test_a_sudoku_competitor_alone_at_a_clock(desk):
    """SU-1: a competitor seated alone: one column; SU-2, SU-3: 50 points, all correct, 1:30 left (one
    whole minute: 3) = 53."""
    store = desk.app.state.desk.store
    from gameclock.organiser.pairing import model
    players = [model.Player(id=str(i), name=f"S{i}") for i in range(1, 4)]
    events.create_event(store, "su", "sudoku", events.PlayerList(players), rounds=3, preset="sudoku-60")
    events.draw(store, "su", seed=1)
    events.publish(store, "su")
    alone = next(b for r in store.event_rounds("su") for b in r["boards"] if b["right"] is None)
    path = f"/admin/e/su/round/1/table/{alone['table']}"
    page = desk.get(path + "?lang=en").text
    assert 'name="correct_left"' in page and 'name="timeleft_left"' in page and 'name="score_right"' not in page
    assert 'name="absent"' not in page
    r = enter(desk, path, score_left="50", correct_left="yes", timeleft_left="1:30")
    assert r.status_code == 303, r.text
    [hand] = store.hand_results(event="su")
    assert hand["record"]["scores"]["final"] == {"left": 53, "right": None}
