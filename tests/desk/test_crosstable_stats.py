"""The public crosstable (issue 17: charts "... a crosstable"), the time used per round on the standings
page, and the standings' tie-break notes and medal scores, over event t (conftest.event_t):

    round 1: t1 Anan 420 v Boon 380 (Anan +40)     t2 Chai 300 v Dao 350 (Dao +50)
    round 2: t1 Dao 400 v Anan 390 (Dao +10)       t2 Boon 410 v Chai 300 (Boon +110)
    XW-7 places: Dao 1 (4 GP), Boon 2 (2 GP, +70), Anan 3 (2 GP, +30), Chai 4 (0 GP)
"""
from __future__ import annotations

import re

from deskhelp import csrf_of


def crosstable(html: str) -> dict[str, list[tuple[str, str]]]:
    """{player: [(cell text, score) by round]} of the crosstable page."""
    out = {}
    for m in re.finditer(r'<tr data-testid="crosstable-row" data-player="([^"]+)" data-n="\d+">(.*?)</tr>',
                         html, re.S):
        cells = re.findall(r'data-testid="crosstable-cell"[^>]*>([^<]*)(?:<br><small data-testid="crosstable-score">'
                           r'([^<]*)</small>)?</td>', m.group(2))
        out[m.group(1)] = cells
    return out


def test_the_crosstable_in_standings_order_by_hand(client):
    page = client.get("/e/t/standings").text
    assert 'href="/e/t/crosstable"' in page
    r = client.get("/e/t/crosstable")
    assert r.status_code == 200 and 'data-testid="crosstable"' in r.text
    # numbers are the standings' places: Dao 1, Boon 2, Anan 3, Chai 4 (XW-7); the player's score first
    assert crosstable(r.text) == {
        "Dao": [("W4", "350-300"), ("W3", "400-390")],
        "Boon": [("L3", "380-420"), ("W4", "410-300")],
        "Anan": [("W2", "420-380"), ("L1", "390-400")],
        "Chai": [("L1", "300-350"), ("L2", "300-410")],
    }
    assert "/admin" not in r.text and client.get("/e/nope/crosstable").status_code == 404


def test_a_bye_is_b_and_an_amended_result_counts(organiser):
    store = organiser.app.state.desk.store
    store.put_byes([{"event": "t", "round": 3, "player": "Anan"}])
    # XW-9: Anan's bye is a win worth +100 (secondary): Anan 4 GP, +130, first; then Dao 4 GP +60
    ct = crosstable(organiser.get("/e/t/crosstable").text)
    assert list(ct) == ["Anan", "Dao", "Boon", "Chai"]
    assert ct["Anan"] == [("W3", "420-380"), ("L2", "390-400"), ("B", "")]
    assert ct["Dao"] == [("W4", "350-300"), ("W1", "400-390"), ("", "")]
    # the organiser's amendment (round 2, table 1: Anan 410, wins): Dao's round 2 is a loss to Anan
    token = csrf_of(organiser.get("/admin/results/clock1-000003").text)
    r = organiser.post("/admin/results/clock1-000003/amend", data={"csrf": token, "outcome": "right",
                       "score_left": "400", "score_right": "410", "reason": "score slip"})
    assert r.status_code == 303
    ct = crosstable(organiser.get("/e/t/crosstable").text)
    assert ct["Anan"][1] == ("W" + str(list(ct).index("Dao") + 1), "410-400")
    assert ct["Dao"][1] == ("L1", "400-410")


def test_the_standings_page_has_the_time_used_per_round(client):
    page = client.get("/e/t/standings").text
    assert 'data-testid="round-chart"' in page and 'data-testid="round-times"' in page
    rows = re.findall(r'<tr><td class="num">(\d+)</td><td class="num">(\d+)</td>', page)
    assert rows == [("1", "2"), ("2", "2")]                       # two games a round


def test_the_standings_page_shows_medal_scores_and_tie_break_notes(client):
    """XW-11: 2 wins 50, 1 win 40, +1 per full 100 of positive spread (none here), 0 wins no figure (a
    note); below 60 a certificate. XW-7's notes as event_standings gives them."""
    page = client.get("/e/t/part/standings?lang=en").text
    head = re.findall(r"<th>([^<]*)</th>", page)
    assert "Medal score" in head and "Medal" in head
    rows = dict(re.findall(r'data-player="([^"]+)" data-place="\d+">\s*(.*?)</tr>', page, re.S))
    cells = {p: re.findall(r'<td class="num">([^<]*?)\s*(?:<small[^>]*>[^<]*</small>)?</td>', html)
             for p, html in rows.items()}
    assert cells["Dao"][-2:] == ["50", "certificate"] and cells["Boon"][-2:] == ["40", "certificate"]
    # two of the six qualifying games played: the medal is marked provisional (XW-10, XW-11; issue 25)
    assert "certificate <small class=\"provisional\" data-testid=\"provisional\">(provisional)</small>" in rows["Dao"]
    assert cells["Chai"][-2:] == ["", ""]
    notes = re.findall(r"<li>([^<]*)</li>", page)
    assert any("XW-11" in n and "Chai" in n for n in notes)
    th = client.get("/e/t/part/standings?lang=th").text
    assert "คะแนนเหรียญ" in th and "เกียรติบัตร" in th


def test_the_thai_crosstable_says_its_results_in_thai_letters(client):
    """Issue 28: no English on a Thai public page: the cells' result letters are Thai there (ช ชนะ win,
    พ แพ้ loss, ส เสมอ draw, บ บาย bye), as the note above the table says; English keeps W, L, D, B."""
    assert client.get("/?lang=th").status_code == 200   # the reader's language: Thai from now on
    page = client.get("/e/t/crosstable").text
    assert crosstable(page)["Dao"] == [("ช4", "350-300"), ("ช3", "400-390")]
    assert crosstable(page)["Chai"] == [("พ1", "300-350"), ("พ2", "300-410")]
    assert "ช ชนะ" in page and "W ชนะ" not in page
