"""An organiser's amendment counts (issue 17): the standings (`gameclock standings` and the desk) and
every export read the amended result, the signed record stays byte for byte as the clock sent it, the
result page shows the audit trail, and a withdrawal (a new entry with its reason) restores.

Over event t (conftest.event_t, secondary Crossword):

    round 1: t1 Anan 420 v Boon 380 (Anan +40)     t2 Chai 300 v Dao 350 (Dao +50)
    round 2: t1 Dao 400 v Anan 390 (Dao +10)       t2 Boon 410 v Chai 300 (Boon +110)
    signed: Dao 4 GP / +60, Boon 2 / +70, Anan 2 / +30, Chai 0 / -160 (XW-6, XW-7)

The amendment: result clock1-000003 (round 2, table 1): the score slip says Anan scored 410, not 390:
Dao 400 v Anan 410, Anan wins. XW-8: spread Dao -10, Anan +10 (under the secondary cap 250); XW-6:
GP Dao 0, Anan 2. Then:

    Anan 4 GP / +40 +10 = +50; Boon 2 / +70; Dao 2 / +50 -10 = +40; Chai 0 / -160
    places (XW-7: GP, then spread): Anan 1, Boon 2, Dao 3, Chai 4
    XW-11 medal score: Anan 2 wins 50 (+50 spread: no full hundred), Boon 40, Dao 40, Chai none
"""
from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import threading
import time

from deskhelp import LOCAL, LOCAL_URL, csrf_of
from starlette.testclient import TestClient

from gameclock.cli import main

RID = "clock1-000003"
SIGNED = [("Dao", "1"), ("Boon", "2"), ("Anan", "3"), ("Chai", "4")]
AMENDED = [("Anan", "1"), ("Boon", "2"), ("Dao", "3"), ("Chai", "4")]
SLIP = "score slip: Anan 410"


def places(html: str) -> list[tuple[str, str]]:
    return re.findall(r'data-testid="standings-row" data-player="([^"]+)" data-place="([^"]+)"', html)


def stored_row(db) -> tuple:
    """The result's row as SQLite holds it: the signed record's text, its summary, signature, key."""
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT record, summary, sig, kid, received_at FROM results WHERE id = ?",
                           (RID,)).fetchone()
    finally:
        con.close()


def amend(organiser, **fields):
    token = csrf_of(organiser.get(f"/admin/results/{RID}").text)
    return organiser.post(f"/admin/results/{RID}/amend", data={"csrf": token, **fields})


def withdraw(organiser, n: int, reason: str):
    token = csrf_of(organiser.get(f"/admin/results/{RID}").text)
    return organiser.post(f"/admin/results/{RID}/withdraw", data={"csrf": token, "n": str(n), "reason": reason})


def cli_places(db, capsys) -> list[tuple[str, str]]:
    assert main(["standings", "--db", str(db), "--event", "t", "--format", "json"]) == 0
    [table] = json.loads(capsys.readouterr().out)
    return [(r["player"], str(r["place"])) for r in table["rows"]]


def export(organiser, fmt: str) -> str:
    r = organiser.get(f"/admin/e/t/export/{fmt}")
    assert r.status_code == 200
    return r.content.decode("utf-8-sig")


def trf_rows(text: str) -> dict[str, tuple[str, str]]:
    """{player: (points, "rank, then each round's opponent colour result")} of a TRF's 001 lines
    (TRF16: the name in columns 15-47, the points in 81-84, the rank and rounds after)."""
    out = {}
    for line in text.splitlines():
        if line.startswith("001"):
            name, points = line[14:47].strip(), line[80:84].strip()
            out[name] = (points, " ".join(line[84:].split()))
    return out


def test_an_amended_outcome_moves_places_in_the_standings_and_every_export(organiser, db, capsys):
    before = stored_row(db)
    assert places(organiser.get("/e/t/standings").text) == SIGNED and cli_places(db, capsys) == SIGNED
    r = amend(organiser, outcome="right", score_left="400", score_right="410", reason=SLIP)
    assert r.status_code == 303

    # XW-7: GP, then spread (module doc): the desk and `gameclock standings`, the same places
    page = organiser.get("/e/t/standings").text
    assert places(page) == AMENDED
    assert cli_places(db, capsys) == AMENDED
    # XW-11 medal scores of the amended standings: Anan 2 wins = 50, Boon and Dao 1 win = 40
    assert main(["standings", "--db", str(db), "--event", "t", "--format", "json"]) == 0
    [table] = json.loads(capsys.readouterr().out)
    assert {r["player"]: (r["GP"], r["Spread"], r["Medal score"])
            for r in table["rows"]} == {"Anan": (4, 50, 50), "Boon": (2, 70, 40), "Dao": (2, 40, 40),
                                        "Chai": (0, -160, None)}

    # CSV: the amended row (XW-8 spread -10/+10, XW-6 points 0/2) and the amendment's reason
    rows = {x["id"]: x for x in csv.DictReader(io.StringIO(export(organiser, "csv")))}
    row = rows[RID]
    assert (row["player1"], row["score1"], row["player2"], row["score2"], row["winner"]) == ("Dao", "400", "Anan",
                                                                                           "410", "Anan")
    assert (row["spread1"], row["spread2"], row["points1"], row["points2"], row["amended"]) == ("-10", "10", "0",
                                                                                              "2", SLIP)
    assert rows["clock1-000001"]["amended"] == ""
    # tsh: the amended scores (tsh reads the winner from them): Anan 420 410, Dao 350 400
    tsh = export(organiser, "tsh").splitlines()
    assert tsh[0] == "Anan 0 2 4; 420 410; p12 4 4; board 1 1"
    assert tsh[3] == "Dao 0 3 1; 350 400; p12 4 4; board 2 1"
    # TRF: Anan beat Dao in round 2 (2.0 points, rank 1), Dao lost to Anan (1.0, rank 3)
    trf = trf_rows(export(organiser, "trf"))
    assert trf["Anan"] == ("2.0", "1 2 - 1 4 - 1") and trf["Dao"] == ("1.0", "3 3 - 1 1 - 0")
    # JSONL: the signed record as it was, the amendment beside it
    lines = {json.loads(x)["id"]: json.loads(x) for x in export(organiser, "jsonl").splitlines()}
    line = lines[RID]
    assert json.dumps(line["record"], sort_keys=True, separators=(",", ":"), ensure_ascii=False) == before[0]
    assert line["sig"] == before[2] and line["amended"] == line["amendments"][0]["n"]
    assert line["amendments"][0]["reason"] == SLIP
    assert line["amendments"][0]["changes"]["scores.final"] == {"left": 400, "right": 410}
    assert "amendments" not in lines["clock1-000001"]

    # the stored record, its summary, signature: byte for byte as before
    assert stored_row(db) == before


def test_withdrawing_restores_the_signed_result_and_keeps_both_entries(organiser, db, capsys):
    before = stored_row(db)
    assert amend(organiser, outcome="right", score_left="400", score_right="410", reason=SLIP).status_code == 303
    store = organiser.app.state.desk.store
    [a] = store.amendments(RID)
    assert withdraw(organiser, a["n"], "").status_code == 400          # a withdrawal needs a reason too
    assert withdraw(organiser, a["n"] + 7, "typo").status_code == 400  # only the amendment in effect
    assert withdraw(organiser, a["n"], "slip belonged to table 2").status_code == 303

    trail = store.amendments(RID)
    assert [e["changes"] for e in trail] == [a["changes"], {"withdraws": a["n"]}]   # nothing deleted
    assert trail[1]["reason"] == "slip belonged to table 2"
    assert places(organiser.get("/e/t/standings").text) == SIGNED and cli_places(db, capsys) == SIGNED
    rows = {x["id"]: x for x in csv.DictReader(io.StringIO(export(organiser, "csv")))}
    assert (rows[RID]["winner"], rows[RID]["score2"], rows[RID]["amended"]) == ("Dao", "390", "")
    assert export(organiser, "tsh").splitlines()[0] == "Anan 0 2 4; 420 390; p12 4 4; board 1 1"
    line = next(json.loads(x) for x in export(organiser, "jsonl").splitlines() if RID in x)
    assert line["amended"] is None and len(line["amendments"]) == 2
    assert stored_row(db) == before


def test_a_second_amendment_then_its_withdrawal_brings_the_first_back(organiser, db, capsys):
    assert amend(organiser, outcome="right", score_left="400", score_right="410", reason=SLIP).status_code == 303
    # a second look: 400-420 (XW-8: Anan +20)
    assert amend(organiser, score_right="420", reason="second slip: 420").status_code == 303
    store = organiser.app.state.desk.store
    first, second = store.amendments(RID)
    assert second["changes"]["scores.spread"] == {"left": -20, "right": 20}
    assert second["changes"]["outcome"] == "right"          # the outcome in effect, kept
    assert withdraw(organiser, first["n"], "not this one").status_code == 400   # not the one in effect
    assert withdraw(organiser, second["n"], "the first slip was right").status_code == 303
    rows = {x["id"]: x for x in csv.DictReader(io.StringIO(export(organiser, "csv")))}
    assert (rows[RID]["score2"], rows[RID]["spread2"], rows[RID]["amended"]) == ("410", "10", SLIP)
    assert cli_places(db, capsys) == AMENDED


def test_the_result_page_shows_amended_and_the_audit_trail_oldest_first(organiser):
    amend(organiser, outcome="right", score_left="400", score_right="410", reason=SLIP)
    n = organiser.app.state.desk.store.amendments(RID)[0]["n"]
    withdraw(organiser, n, "slip belonged to table 2")
    amend(organiser, outcome="draw", score_left="400", score_right="400", reason="arbiter: 400 each")
    page = organiser.get(f"/admin/results/{RID}").text
    assert 'data-testid="amended"' in page and "Anan" in page
    rows = re.findall(r'<tr data-testid="amendment-row" data-n="(\d+)"', page)
    assert [int(x) for x in rows] == [n, n + 1, n + 2]
    reasons = re.findall(r'data-testid="amendment-reason">([^<]*)<', page)
    assert reasons == [SLIP, "slip belonged to table 2", "arbiter: 400 each"]
    changes = re.findall(r'data-testid="amendment-change">([^<]*)<', page)
    # the first: Dao -> Anan, 400-390 -> 400-410, spread 10/-10 -> -10/10, GP 2-0 -> 0-2 (XW-6, XW-8)
    assert changes[:4] == ["Outcome: Dao » Anan", "Final score: 400 / 390 » 400 / 410",
                           "Spread: 10 / -10 » -10 / 10", "Game points: 2 / 0 » 0 / 2"]
    # the withdrawal: back to the signed values; the third: a draw, 1 GP each (XW-6), spread 0
    assert changes[4:8] == ["Outcome: Anan » Dao", "Final score: 400 / 410 » 400 / 390",
                            "Spread: -10 / 10 » 10 / -10", "Game points: 0 / 2 » 2 / 0"]
    assert changes[8:] == ["Outcome: Dao » draw", "Final score: 400 / 390 » 400 / 400", "Spread: 10 / -10 » 0 / 0",
                           "Game points: 2 / 0 » 1 / 1"]
    # only the amendment in effect can be withdrawn
    assert page.count('data-testid="withdraw-form"') == 1
    assert re.search(f'data-n="{n + 2}" class="in-effect"', page)
    # Thai
    th = organiser.get(f"/admin/results/{RID}?lang=th").text
    assert "แก้ไขแล้ว" in th and "ถอนการแก้ไขนี้" in th


def test_an_amendment_that_changes_nothing_is_refused(organiser):
    r = amend(organiser, outcome="left", score_left="400", score_right="390", reason="same")
    assert r.status_code == 400 and "The amendment changes nothing." in r.text
    assert organiser.app.state.desk.store.amendments() == []


def test_public_pages_show_the_amended_result_live(app, organiser):
    """The stream sends `standings` after an amendment; the public standings fragment then ranks by it."""
    got: dict = {}
    client = TestClient(app, client=LOCAL, base_url=LOCAL_URL)   # a hall screen's, beside the organiser's

    def listen():
        got["r"] = client.get("/e/t/stream")

    assert places(client.get("/e/t/part/standings").text) == SIGNED
    t = threading.Thread(target=listen)
    t.start()
    time.sleep(0.4)
    assert amend(organiser, outcome="right", score_left="400", score_right="410", reason=SLIP).status_code == 303
    t.join()
    events = [k for k, _ in re.findall(r"event: (\w+)\ndata: (.*)\n\n", got["r"].text)]
    assert events[0] == "hello" and "standings" in events[1:]
    assert places(client.get("/e/t/part/standings").text) == AMENDED
    results = client.get("/e/t/part/results").text
    row = re.search(r'data-result="' + RID + r'".*?</tr>', results, re.S)
    assert row and 'class="won">Anan' in row.group(0) and "400-410" in row.group(0)
    assert 'data-testid="amended"' in row.group(0)


def test_new_scores_with_the_winner_they_do_not_give_are_refused(organiser):
    """Round 2 table 1, Dao 400 v Anan 390 (Dao wins). The form keeps the winner in effect selected:
    scores typed as 380-410 with it left as Dao would make a winner of the lower score. XW-6: the
    higher final score wins, so it is refused and nothing stored (found by a fresh-eyes review)."""
    r = amend(organiser, outcome="left", score_left="380", score_right="410", reason="recount")
    assert r.status_code == 400 and "does not follow the final scores 380-410" in r.text and "choose right" in r.text
    assert organiser.app.state.desk.store.amendments() == []
    r = amend(organiser, outcome="right", score_left="380", score_right="410", reason="recount")
    assert r.status_code == 303
    assert [a["changes"]["outcome"] for a in organiser.app.state.desk.store.amendments()] == ["right"]
