"""Players during the event and drafts that cannot surprise, from the desk (issue 26): a withdrawal, a late
entry, a name edit, two players exchanged in one step, Pair with a draft present asking first, two tabs
publishing a draft neither saw, and amending a round older than the last paired one.

The event: "open", XW-10 (system xw10, preset crossword, secondary), six players:

    a1 Anan, a2 Boon, a3 Chai, a4 Dao, a5 Eak, a6 Fon

Round 1 is set by hand (the organiser's fixes of the draft): t1 a1 v a2, t2 a3 v a4, t3 a5 v a6, and
played: Anan 400 v Boon 300 (Anan +100), Chai 350 v Dao 300 (Chai +50), Eak 400 v Fon 420 (Fon +20).
XW-6 / XW-7 after round 1: Anan 2 GP +100, Chai 2 +50, Fon 2 +20, Eak 0 -20, Dao 0 -50, Boon 0 -100."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from deskhelp import LOCAL, LOCAL_URL, csrf_of, log_in
from starlette.testclient import TestClient

from gameclock.organiser import event as events
from gameclock.organiser.pairing import model

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "standings"))
from kit import xw  # noqa: E402

EV = "open"
NAMES = {"a1": "Anan", "a2": "Boon", "a3": "Chai", "a4": "Dao", "a5": "Eak", "a6": "Fon"}
ROUND_1 = {1: ("a1", "a2", 400, 300), 2: ("a3", "a4", 350, 300), 3: ("a5", "a6", 400, 420)}


def make_event(store) -> None:
    players = [model.Player(id=pid, name=name, level="secondary") for pid, name in NAMES.items()]
    events.create_event(store, EV, "xw10", events.PlayerList(players), rounds=7, preset="crossword",
                        level="secondary", language="en")


def play_round_1(store) -> None:
    """Round 1 drawn, set by hand to ROUND_1 (applied together), published and played."""
    events.draw(store, EV, seed=7)
    events.edit(store, EV, fixes=[(t, left, right) for t, (left, right, _, _) in ROUND_1.items()])
    events.publish(store, EV)
    for t, (left, right, ls, rs) in ROUND_1.items():
        assert store.put_result(xw(100 + t, EV, 1, t, NAMES[left], NAMES[right], ls, rs), "0" * 64, "kid0", "test") == "stored"


@pytest.fixture
def desk(organiser):
    store = organiser.app.state.desk.store
    make_event(store)
    return organiser


def store_of(client):
    return client.app.state.desk.store


def post(client, path: str, page: str | None = None, **fields):
    """A form of the event's page (or `page`) posted with that page's token and hidden draft version."""
    html = client.get(page or f"/admin/e/{EV}").text
    data = {"csrf": csrf_of(html)}
    m = re.search(r'name="version" value="(\d+)"', html)
    if m:
        data["version"] = m.group(1)
    data.update(fields)
    return client.post(path, data=data)


def message(client, r) -> str:
    assert r.status_code == 303, r.text
    page = client.get(r.headers["location"]).text
    m = re.search(r'data-testid="message">(.*?)</span>', page, re.S)   # the notice's text (web.notify)
    return m.group(1) if m else ""


def draft_boards(store) -> dict[int, tuple[str, str | None]]:
    draft = events.draft_of(store, EV)
    assert draft is not None
    return {b["table"]: (b["left"], b["right"]) for b in draft["boards"]}


def seated(store) -> list[str]:
    return sorted(p for pair in draft_boards(store).values() for p in pair if p is not None)


def standings_rows(client) -> dict[str, tuple[str, str]]:
    """{player: (place, the mark beside the name)} of the public standings page (English)."""
    html = client.get(f"/e/{EV}/standings?lang=en").text
    rows = re.findall(r'data-testid="standings-row" data-player="([^"]+)" data-place="([^"]*)">(.*?)</tr>', html, re.S)
    out = {}
    for player, place, cells in rows:
        m = re.search(r'data-testid="player-mark">\((.*?)\)<', cells)
        out[player] = (place, m.group(1) if m else "")
    return out


# ------------------------------------------------------------------------------------------ withdraw
def test_a_withdrawn_player_is_not_paired_from_the_next_round_and_the_standings_say_so(desk):
    store = store_of(desk)
    play_round_1(store)
    r = post(desk, f"/admin/e/{EV}/players/a2/withdraw", page=f"/admin/e/{EV}/players/a2", reason="ill, went home")
    assert "Boon withdrawn after round 1" in message(desk, r)
    assert message(desk, post(desk, f"/admin/e/{EV}/pair")).startswith("round 2: draft drawn")
    # five active players: a2 at no table; XW-9's bye to the lowest-ranked without one: Dao (0 GP, -50)
    assert seated(store) == ["a1", "a3", "a4", "a5", "a6"]
    assert [pair for pair in draft_boards(store).values() if pair[1] is None] == [("a4", None)]
    # past games stay: Boon keeps round 1's loss (0 GP, -100), marked
    rows = standings_rows(desk)
    assert rows["Boon"] == ("6", "withdrawn after round 1")
    assert rows["Anan"] == ("1", "")
    assert "<li>Boon: withdrawn after round 1</li>" in desk.get(f"/e/{EV}/standings?lang=en").text   # the notes too
    # the event's page says it too, and the public players page
    page = desk.get(f"/admin/e/{EV}?lang=en").text
    assert re.search(r'<td>a2</td><td>Boon · <small data-testid="player-mark">withdrawn after round 1<', page)
    # Thai
    assert "ถอนตัวหลังรอบที่ 1" in desk.get(f"/e/{EV}/standings?lang=th").text


def test_a_withdrawal_by_mistake_is_undone_before_the_next_round_is_published(desk):
    store = store_of(desk)
    play_round_1(store)
    post(desk, f"/admin/e/{EV}/players/a2/withdraw", page=f"/admin/e/{EV}/players/a2", reason="no-show?")
    r = post(desk, f"/admin/e/{EV}/players/a2/reinstate", page=f"/admin/e/{EV}/players/a2",
             reason="he was in the toilet")
    assert "Boon plays on" in message(desk, r)
    post(desk, f"/admin/e/{EV}/pair")
    assert "a2" in seated(store)


# ------------------------------------------------------------------------------------------ late entry
def test_a_late_entry_joins_the_next_round_with_nothing_for_the_rounds_missed(desk):
    store = store_of(desk)
    play_round_1(store)
    r = post(desk, f"/admin/e/{EV}/players/new", page=f"/admin/e/{EV}/players/new", id="a7", name="Gaew",
             latin="Gaew", campus="Wat School", level="secondary", rating="1200", reason="arrived at 10:15")
    assert "Gaew joins round 2" in message(desk, r)
    p = next(p for p in store.event_players(EV) if p["id"] == "a7")
    assert (p["name"], p["campus"], p["rating"], p["joined"]) == ("Gaew", "Wat School", 1200, 2)
    post(desk, f"/admin/e/{EV}/pair")
    # seven players, Boon too: six at tables... seven is odd: the bye (XW-9) goes to the lowest-ranked without
    # one: Boon (0 GP, -100) ranks below Gaew (0 GP, 0: round 1 missed scores nothing, docs/rules.md)
    assert seated(store) == ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]
    assert [pair for pair in draft_boards(store).values() if pair[1] is None] == [("a2", None)]
    events.publish(store, EV)
    board = next(b for b in events.round_of(store, EV, 2)["boards"] if "a7" in (b["left"], b["right"]))
    left, right = NAMES.get(board["left"], "Gaew"), NAMES.get(board["right"], "Gaew")
    score = (380, 300) if board["left"] == "a7" else (300, 380)
    assert store.put_result(xw(120, EV, 2, board["table"], left, right, *score), "0" * 64, "kid0", "test") == "stored"
    rows = standings_rows(desk)
    assert rows["Gaew"][1] == "joined in round 2"
    # XW-6/XW-7: Gaew 2 GP +80 from round 2 alone
    html = desk.get(f"/e/{EV}/standings?lang=en").text
    cells = re.search(r'data-player="Gaew".*?</tr>', html, re.S).group(0)
    # (the first number is the place: Gaew 2nd, behind Anan's 2 GP +100)
    assert re.findall(r'<td class="num">(-?\d+)', cells)[:8] == ["2", "1", "1", "0", "0", "0", "2", "80"]


def test_a_round_robin_refuses_a_late_entry_once_round_1_is_published(organiser):
    store = store_of(organiser)
    players = [model.Player(id=f"p{i}", name=f"Player {i}") for i in range(1, 5)]
    events.create_event(store, "rr", "makruk-rr", events.PlayerList(players), preset="makruk-45")
    events.draw(store, "rr", seed=3)
    events.publish(store, "rr")
    page = organiser.get("/admin/e/rr/players/new?lang=en").text
    assert "a round robin&#39;s pairing numbers were drawn in round 1" in page
    r = post(organiser, "/admin/e/rr/players/new", page="/admin/e/rr/players/new", id="p5", name="Player 5",
             reason="late")
    assert r.status_code == 400 and "a round robin&#39;s pairing numbers were drawn in round 1" in r.text
    assert len(store.event_players("rr")) == 4


# ------------------------------------------------------------------------------------------ edits
def test_a_name_edit_keeps_the_results_recorded_under_the_old_name(desk):
    store = store_of(desk)
    play_round_1(store)
    r = post(desk, f"/admin/e/{EV}/players/a1", page=f"/admin/e/{EV}/players/a1", name="Anan Srisuk",
             latin="Anan Srisuk", campus="Satit", level="secondary", rating="1500", reason="spelt wrong on the list")
    assert "Anan: name Anan » Anan Srisuk" in message(desk, r)
    # the clocks recorded "Anan": one row under the new name, round 1 counted (2 GP, +100)
    rows = standings_rows(desk)
    assert "Anan" not in rows and rows["Anan Srisuk"] == ("1", "")
    # the next round pairs from round 1's results (games_of knows the old name as Anan Srisuk's)
    assert message(desk, post(desk, f"/admin/e/{EV}/pair")).startswith("round 2: draft drawn")
    events.publish(store, EV)
    assert any(p["players"]["left"] == "Anan Srisuk" or p["players"]["right"] == "Anan Srisuk"
               for p in store.pairings() if p["round"] == 2)
    # the player's own page keeps round 1
    page = desk.get(f"/e/{EV}/players/a1?lang=en").text
    assert "Anan Srisuk" in page and re.search(r"Boon", page)
    # another player's name (or a former one) is refused: the clocks tell players apart by name
    r = post(desk, f"/admin/e/{EV}/players/a3", page=f"/admin/e/{EV}/players/a3", name="anan", reason="x")
    assert r.status_code == 400 and "Anan" in r.text
    assert next(p for p in store.event_players(EV) if p["id"] == "a3")["name"] == "Chai"


def test_every_player_change_is_audited_with_who_what_before_after_and_why(desk):
    store = store_of(desk)
    play_round_1(store)
    post(desk, f"/admin/e/{EV}/players/a1", page=f"/admin/e/{EV}/players/a1", name="Anan Srisuk", latin="",
         campus="Satit", level="secondary", rating="1500", reason="the school's list")
    post(desk, f"/admin/e/{EV}/players/a2/withdraw", page=f"/admin/e/{EV}/players/a2", reason="ill")
    post(desk, f"/admin/e/{EV}/players/new", page=f"/admin/e/{EV}/players/new", id="a7", name="Gaew", reason="late bus")
    trail = events.player_changes(store, EV)
    assert [(e["player"], e["what"], e["before"], e["after"], e["reason"], e["by"]) for e in trail] == [
        ("a1", "name", "Anan", "Anan Srisuk", "the school's list", "organiser"),
        ("a1", "campus", "", "Satit", "the school's list", "organiser"),
        ("a1", "rating", 0, 1500, "the school's list", "organiser"),
        ("a2", "withdrawn", None, 1, "ill", "organiser"),
        ("a7", "late entry", None, {"id": "a7", "name": "Gaew", "latin": "", "campus": "", "level": "", "team": "",
                                    "board": 0, "rating": 0, "group": "", "joined": 2}, "late bus", "organiser")]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", e["at"]) for e in trail)
    page = desk.get(f"/admin/e/{EV}?lang=en").text
    rows = re.findall(r'data-testid="player-change-row".*?</tr>', page, re.S)
    assert len(rows) == 5 and "Anan » Anan Srisuk" in rows[0] and "the school&#39;s list" in rows[0]
    # a change once a round is published needs a reason
    r = post(desk, f"/admin/e/{EV}/players/a3", page=f"/admin/e/{EV}/players/a3", name="Chai", rating="1300", reason="")
    assert r.status_code == 400 and "say why" in r.text
    assert len(events.player_changes(store, EV)) == 5


# ------------------------------------------------------------------------------------------ the draft
def test_exchange_two_players_in_one_step(desk):
    """Set table moves one pair at a time and each is checked alone (a player at two tables): the
    exchange of two players is one step, checked as one."""
    store = store_of(desk)
    events.draw(store, EV, seed=7)
    before = draft_boards(store)
    p = before[1][0]
    q = before[2][1]
    r = post(desk, f"/admin/e/{EV}/fix", action="exchange", p=p, q=NAMES[q])
    assert message(desk, r) == "round 1: draft changed"
    after = draft_boards(store)
    assert after[1] == (q, before[1][1]) and after[2] == (before[2][0], p) and after[3] == before[3]


def test_pair_with_a_draft_present_asks_first_saying_what_is_lost(desk):
    store = store_of(desk)
    events.draw(store, EV, seed=7)
    drawn = draft_boards(store)
    post(desk, f"/admin/e/{EV}/fix", action="swap", a="1", b="2")
    edited = draft_boards(store)
    assert edited == {**drawn, 1: drawn[2], 2: drawn[1]}
    r = post(desk, f"/admin/e/{EV}/pair")
    assert r.status_code == 200 and 'data-testid="pair-confirm"' in r.text
    assert "tables 1 and 2 swapped by the organiser" in r.text
    assert draft_boards(store) == edited            # nothing done yet
    page = r.text
    r = desk.post(f"/admin/e/{EV}/pair", data={"csrf": csrf_of(page), "confirm": "1",
                                                "version": re.search(r'name="version" value="(\d+)"', page).group(1)})
    assert message(desk, r).startswith("round 1: draft drawn")
    assert draft_boards(store) == drawn             # the same seed, the edits gone as said


def test_two_tabs_the_stale_publish_is_refused_with_the_difference(desk, app):
    store = store_of(desk)
    events.draw(store, EV, seed=7)
    drawn = draft_boards(store)
    tab_a = desk
    tab_b = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    assert log_in(tab_b).status_code == 303
    page_a = tab_a.get(f"/admin/e/{EV}").text          # both tabs show version 1
    assert re.search(r'name="version" value="1"', page_a)
    post(tab_b, f"/admin/e/{EV}/fix", action="swap", a="1", b="3")
    r = tab_a.post(f"/admin/e/{EV}/publish", data={"csrf": csrf_of(page_a), "version": "1"})
    assert r.status_code == 409
    assert "tables 1 and 3 swapped by the organiser" in r.text
    one = f"{NAMES[drawn[1][0]]} v {NAMES[drawn[1][1]]}"
    three = f"{NAMES[drawn[3][0]]} v {NAMES[drawn[3][1]]}"
    assert re.search(rf'data-testid="draft-difference".*?{one} » {three}', r.text, re.S)
    assert events.draft_of(store, EV) is not None and events.published_rounds(store, EV) == []
    # a fix from the stale page is refused the same way
    r = tab_a.post(f"/admin/e/{EV}/fix", data={"csrf": csrf_of(page_a), "version": "1", "action": "swap",
                                               "a": "2", "b": "3"})
    assert r.status_code == 409 and draft_boards(store) == {**drawn, 1: drawn[3], 3: drawn[1]}
    # seen again: published
    assert message(tab_a, post(tab_a, f"/admin/e/{EV}/publish")) == "round 1 published"
    assert len(events.published_rounds(store, EV)) == 1


def test_amending_a_round_older_than_the_last_paired_one_warns_first(desk):
    store = store_of(desk)
    play_round_1(store)
    events.draw(store, EV)
    rid = "clock1-000103"          # round 1 table 3: Eak 400 v Fon 420
    page = f"/admin/results/{rid}"
    r = post(desk, f"{page}/amend", page=page, outcome="left", score_left="430", score_right="420",
             reason="score slip: Eak 430")
    assert r.status_code == 200 and 'data-testid="amend-warning"' in r.text
    assert "Round 2 (draft)" in r.text
    assert store.amendments(rid) == []
    html = r.text
    r = desk.post(f"{page}/amend", data={"csrf": csrf_of(html), "outcome": "left", "score_left": "430",
                                         "score_right": "420", "reason": "score slip: Eak 430", "confirm": "1"})
    assert r.status_code == 303 and len(store.amendments(rid)) == 1


def test_the_player_forms_are_the_organisers_only_and_bounded(desk):
    store = store_of(desk)
    token = csrf_of(desk.get(f"/admin/e/{EV}/players/a1").text)
    for path in (f"/admin/e/{EV}/players/a1", f"/admin/e/{EV}/players/a1/withdraw",
                 f"/admin/e/{EV}/players/a1/reinstate", f"/admin/e/{EV}/players/new"):
        assert desk.post(path, data={"name": "X", "id": "z9", "reason": "r"}).status_code == 403   # no token
    assert desk.get(f"/admin/e/{EV}/players/nobody").status_code == 404
    assert desk.post(f"/admin/e/{EV}/players/nobody/withdraw", data={"csrf": token}).status_code == 404
    assert desk.get("/admin/e/nope/players/new").status_code == 404
    r = desk.post(f"/admin/e/{EV}/players/a1", data={"csrf": token, "name": "x" * 300})
    assert r.status_code == 400 and "at most 200 characters" in r.text
    r = desk.post(f"/admin/e/{EV}/players/a1", data={"csrf": token, "name": "An\x07an"})
    assert r.status_code == 400 and "control character" in r.text
    r = desk.post(f"/admin/e/{EV}/fix", data={"csrf": token, "version": "x1", "action": "swap", "a": "1", "b": "2"})
    assert r.status_code == 400
    assert events.player_changes(store, EV) == [] and store.event_players(EV)[0]["name"] == "Anan"
    desk.cookies.clear()          # logged out: refused, nothing done
    r = desk.post(f"/admin/e/{EV}/players/a1/withdraw", data={"csrf": token, "reason": "x"})
    assert r.status_code == 403 and not store.event_players(EV)[0]["withdrawn"]
