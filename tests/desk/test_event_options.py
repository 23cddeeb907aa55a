"""The event's options from the desk (issue 25): a form per system with a field per option the system
declares (help in English and Thai), checked as the command line checks them (one line naming the
option, the form kept as typed), kept with who, when, before, after and why; the event's page shows the
options in effect and that audit trail. A Makruk round robin's `order` (MR-10) and the Makhos
tie-break games `tiebreak` (MH-7 (3)) are the list options the organiser could not give before."""
from __future__ import annotations

import html
import re

import pytest
from deskhelp import csrf_of

from gameclock.organiser import event as events

RR_CSV = b"id,name,campus\nP1,Anan,A\nP2,Boon,B\nP3,Chai,C\nP4,Dao,D\n"
MG_CSV = b"id,name\nW,Wan\nX,Xiang\nY,Yai\nZ,Zom\n"


@pytest.fixture
def store(organiser):
    s = organiser.app.state.desk.store
    events.create_event(s, "rr", "makruk-rr", events.read_players(RR_CSV, "rr.csv", tsh=False), rounds=3)
    events.create_event(s, "mg", "makhos-groups", events.read_players(MG_CSV, "mg.csv", tsh=False))
    return s


def form_of(page: str) -> dict[str, str]:
    """The options form's fields as the browser would send them (inputs, selects, text areas)."""
    form = re.search(r'<form[^>]*data-testid="options-form".*?</form>', page, re.S)
    assert form, "the page has the options form"
    text = form.group(0)
    fields = {m.group(1): html.unescape(m.group(2)) for m in re.finditer(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', text)}
    fields |= {m.group(1): html.unescape(m.group(2)) for m in re.finditer(r'<textarea[^>]*name="([^"]+)"[^>]*>(.*?)</textarea>',
                                                                           text, re.S)}
    for m in re.finditer(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', text, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', m.group(2))
        fields[m.group(1)] = chosen.group(1) if chosen else ""
    return fields


def post(organiser, event: str, **changes: str):
    fields = form_of(organiser.get(f"/admin/e/{event}/options").text)
    fields.update(changes)
    return organiser.post(f"/admin/e/{event}/options", data=fields)


def trail_rows(page: str) -> list[str]:
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(row))).strip()
            for row in re.findall(r'<tr data-testid="option-change-row".*?</tr>', page, re.S)]


def test_the_form_sets_order_and_the_event_page_shows_it_and_its_trail(store, organiser):
    page = organiser.get("/admin/e/rr/options").text
    assert 'name="o_order"' in page and 'name="o_lot_seed"' in page and 'name="reason"' in page
    assert "the ids in pairing-number order" in page                 # the option's help, English
    assert 'href="/admin/e/rr/options"' in organiser.get("/admin/e/rr").text
    r = post(organiser, "rr", o_order="P3\nP1\r\nP4, P2", reason="the lot drawn at the venue")
    assert r.status_code == 303 and r.headers["location"] == "/admin/e/rr"
    assert store.event("rr")["options"] == {"order": ["P3", "P1", "P4", "P2"]}
    page = organiser.get(r.headers["location"]).text
    assert "order: (not given) » P3,P1,P4,P2" in html.unescape(page)      # the message said what changed
    effect = re.search(r'<table data-testid="options".*?</table>', page, re.S).group(0)
    assert "P3,P1,P4,P2" in effect and "lot_seed" in effect
    (row,) = trail_rows(page)
    assert re.fullmatch(r"1 \S+ \S+ organiser order \(not given\) » P3,P1,P4,P2 the lot drawn at the venue", row), row
    # the form shows the value in effect, and sending it unchanged changes nothing
    assert form_of(organiser.get("/admin/e/rr/options").text)["o_order"] == "P3,P1,P4,P2"
    r = post(organiser, "rr", reason="nothing")
    assert r.status_code == 400 and "rr: the options change nothing" in r.text


def test_the_form_sets_the_tiebreak_games_after_the_round_robin(store, organiser):
    # MH-7: a group of 4 plays 3 rounds; the committee then orders tie-break games (MH-7 (3))
    for rnd in (1, 2, 3):
        store.put_draft("mg", rnd, "makhos-groups", 1, [{"table": 1, "left": "W", "right": "X", "game": 1,
                                                         "stage": "qualifying", "note": ""}], [])
        store.publish_round("mg", rnd, [], [])
    r = post(organiser, "mg", o_tiebreak="W-X\nY-Z")
    assert r.status_code == 400 and "mg: round 3 is published: say why the options change" in r.text
    assert 'W-X\nY-Z</textarea>' in r.text                       # the form keeps what was typed
    r = post(organiser, "mg", o_tiebreak="W-X\nY-Z", reason="committee: two ties in group A")
    assert r.status_code == 303
    assert store.event("mg")["options"] == {"tiebreak": [["W", "X"], ["Y", "Z"]]}
    page = organiser.get("/admin/e/mg").text
    (row,) = trail_rows(page)
    assert row.endswith("organiser tiebreak (not given) » W-X,Y-Z committee: two ties in group A"), row
    # a lot option is refused now that round 1 is out, in one line naming it
    r = post(organiser, "mg", o_groups="2", reason="two groups")
    assert r.status_code == 400
    assert "option groups: round 1 is published: the groups it drew cannot change" in html.unescape(r.text)
    assert store.event("mg")["options"] == {"tiebreak": [["W", "X"], ["Y", "Z"]]}
    assert len(trail_rows(organiser.get("/admin/e/mg").text)) == 1


def test_each_bad_value_is_one_line_naming_the_option(store, organiser):
    for field, value, says in (("o_order", "P3,P1,P3,P2", "option order: P3 is listed twice"),
                               ("o_order", "P3,P1,P9,P2", "option order: P9 is not a player of the event"),
                               ("o_order", "P3,P1", "option order: 2 ids for the event's 4 players: P2, P4 are missing"),
                               ("o_lot_seed", "-1", "option lot_seed: -1 is not a whole number from 0 to 999999999")):
        r = post(organiser, "rr", **{field: value})
        assert r.status_code == 400 and says in html.unescape(r.text), (field, value)
    r = post(organiser, "mg", o_tiebreak="W-X,X-Y")
    assert r.status_code == 400 and "option tiebreak: X is in two lists" in r.text
    assert store.event("rr")["options"] == {} and store.event("mg")["options"] == {}
    assert organiser.post("/admin/e/rr/options", data={"o_order": "P1"}).status_code == 403   # no CSRF token
    assert organiser.get("/admin/e/nope/options").status_code == 404


def test_the_form_speaks_thai(store, organiser):
    page = organiser.get("/admin/e/mg/options?lang=th").text
    assert "ตัวเลือกของระบบจับคู่" in page                      # the page's heading
    assert "การแข่งขันตัดสินผลเสมอ" in page                       # tiebreak's help in Thai
    assert "เหตุผล" in page


def test_the_new_event_form_takes_typed_options(organiser):
    token = csrf_of(organiser.get("/admin/events/new").text)
    order = ",".join(f"P{i}" for i in (3, 1, 4, 2))
    r = organiser.post("/admin/events/new", data={"csrf": token, "name": "rr2", "system": "makruk-rr",
                                                  "format": "csv", "players": RR_CSV.decode(),
                                                  "options": f"order={order}"})
    assert r.status_code == 303, r.text
    assert organiser.app.state.desk.store.event("rr2")["options"] == {"order": ["P3", "P1", "P4", "P2"]}
    r = organiser.post("/admin/events/new", data={"csrf": token, "name": "rr3", "system": "makruk-rr",
                                                  "format": "csv", "players": RR_CSV.decode(), "options": "oder=P1"})
    assert r.status_code == 400 and "option oder is not an option of makruk-rr: did you mean order?" in r.text
