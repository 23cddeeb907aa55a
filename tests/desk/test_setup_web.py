"""Event set-up from the desk (desk/setup.py): a new event from a pasted or uploaded player list, read by
event.py's strict reader (its one-line errors, the line named; nothing stored when refused), and the
organiser's fixes of a draft through event.edit."""
from __future__ import annotations

import re

from deskhelp import csrf_of, said_after

CSV = ("id,name,campus,level,team\n"
       "a1,สมชาย ใจดี,Satit,secondary,Red\n"
       "a2,Boon,Satit,secondary,Blue\n"
       "a3,Chai,Wat,secondary,Red\n"
       "a4,Dao,Wat,secondary,Blue\n")


def new_event(client, **fields):
    token = csrf_of(client.get("/admin/events/new").text)
    data = {"csrf": token, "name": "open", "system": "xw10", "preset": "crossword", "level": "",
            "language": "th", "rounds": "3", "format": "csv", "players": CSV}
    data.update(fields)
    return client.post("/admin/events/new", data=data)


def test_the_form_offers_the_systems_and_presets(organiser):
    html = organiser.get("/admin/events/new").text
    assert '<option value="xw10"' in html and '<option value="dutch"' in html
    assert '<option value="crossword"' in html and 'enctype="multipart/form-data"' in html
    assert 'data-testid="new-event-link"' in organiser.get("/admin").text


def test_a_pasted_list_makes_the_event_and_its_page_shows_level_and_team(organiser):
    r = new_event(organiser)
    assert r.status_code == 303 and r.headers["location"] == "/admin/e/open"
    store = organiser.app.state.desk.store
    ev = store.event("open")
    assert (ev["system"], ev["rounds"], ev["language"], ev["preset"], ev["level"]) == ("xw10", 3, "th", "crossword",
                                                                                        None)
    page = organiser.get(r.headers["location"] + "?lang=en").text
    assert "event open created: 4 players, system xw10" in page
    rows = re.findall(r'<tr data-testid="player-row">(.*?)</tr>', page)
    assert len(rows) == 4
    assert "<td>a1</td><td>สมชาย ใจดี</td><td>Satit</td><td>secondary</td><td>Red</td>" in rows[0]


def test_an_uploaded_tsh_file_makes_the_event(organiser):
    token = csrf_of(organiser.get("/admin/events/new").text)
    t = b"Srisuk, Somchai 1500;\r\nJaidee, Anan 1400;\r\nBoon 1300;\r\n"
    r = organiser.post("/admin/events/new", data={"csrf": token, "name": "tsh1", "system": "xw10", "rounds": ""},
                       files={"file": ("../../etc/players.t", t, "text/plain")})
    assert r.status_code == 303, r.text
    players = organiser.app.state.desk.store.event_players("tsh1")
    assert [(p["id"], p["name"], p["rating"]) for p in players] == [
        ("1", "Srisuk, Somchai", 1500), ("2", "Jaidee, Anan", 1400), ("3", "Boon", 1300)]
    # a Thai Excel list (windows-874) with a column the event does not use: read, and said so
    token = csrf_of(organiser.get("/admin/events/new").text)
    data = "id,name,email\nt1,สมชาย,x@y\nt2,อนันต์,z@y\n".encode("cp874")
    r = organiser.post("/admin/events/new", data={"csrf": token, "name": "thai", "system": "xw10"},
                       files={"file": ("thai.csv", data, "text/csv")})
    said = said_after(organiser, r).splitlines()
    assert said[1:] == ["thai.csv: read as windows-874 (Thai), not UTF-8", "thai.csv: ignored column email"]
    assert [p["name"] for p in organiser.app.state.desk.store.event_players("thai")] == ["สมชาย", "อนันต์"]


def test_a_bad_list_names_its_line_and_stores_nothing(organiser):
    store = organiser.app.state.desk.store
    before = store.events()
    r = new_event(organiser, players=CSV + "a5,Eak,Wat,tertiary,Red\n")
    assert r.status_code == 400
    assert "the pasted list:6: level &#39;tertiary&#39; is not one of primary, secondary" in r.text
    assert 'value="open"' in r.text and "a5,Eak" in r.text   # the form keeps what was typed
    # an uploaded file: its own name in the message (the path parts dropped)
    token = csrf_of(organiser.get("/admin/events/new").text)
    r = organiser.post("/admin/events/new", data={"csrf": token, "name": "open", "system": "xw10"},
                       files={"file": ("C:\\lists\\bad.csv", b"id,name\nx1,A\nx1,B\n", "text/csv")})
    assert r.status_code == 400 and "bad.csv:3: id x1 given twice (line 2 has it)" in r.text
    # neither UTF-8 nor Thai
    r = organiser.post("/admin/events/new", data={"csrf": token, "name": "open", "system": "xw10"},
                       files={"file": ("l.csv", "id,name\nx1,José\nx2,B\n".encode("latin-1"), "text/csv")})
    assert r.status_code == 400 and "l.csv:2: neither UTF-8 nor windows-874" in r.text
    for bad, says in ((dict(system="nope"), "pairing system &#39;nope&#39; is not one of"),
                      (dict(rounds="x"), "rounds &#39;x&#39;"), (dict(name="two words"), "event"),
                      (dict(players=""), "no player list"), (dict(level="tertiary"), "level")):
        r = new_event(organiser, **bad)
        assert r.status_code == 400 and says in r.text, (bad, r.text)
    assert store.events() == before
    assert new_event(organiser).status_code == 303
    r = new_event(organiser)  # the same name again
    assert r.status_code == 400 and "exists already" in r.text
    assert len(store.event_players("open")) == 4


def test_hostile_posts_are_refused(organiser):
    store = organiser.app.state.desk.store
    token = csrf_of(organiser.get("/admin/events/new").text)
    # no token, a wrong token: url-encoded and multipart alike
    assert organiser.post("/admin/events/new", data={"name": "x", "players": CSV}).status_code == 403
    assert organiser.post("/admin/events/new", data={"csrf": "nope", "name": "x"},
                          files={"file": ("p.csv", CSV.encode(), "text/csv")}).status_code == 403
    # too large (declared, and sent without a length)
    big = b"x" * (3 * 1024 * 1024 + 10)
    assert organiser.post("/admin/events/new", data={"csrf": token, "name": "x"},
                          files={"file": ("p.csv", big, "text/csv")}).status_code == 413

    def chunks():
        yield b"csrf=" + token.encode() + b"&players="
        for _ in range(400):
            yield b"y" * 10_000

    assert organiser.post("/admin/events/new", content=chunks(),
                          headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 413
    # another type; a multipart body without its boundary; too many parts
    assert organiser.post("/admin/events/new", content=b"{}",
                          headers={"content-type": "application/json"}).status_code == 415
    assert organiser.post("/admin/events/new", content=b"--x\r\n",
                          headers={"content-type": "multipart/form-data"}).status_code == 400
    many = {f"f{i}": "v" for i in range(30)}
    assert organiser.post("/admin/events/new", data={"csrf": token, **many},
                          files={"file": ("p.csv", CSV.encode(), "text/csv")}).status_code == 400
    # logged out: refused, nothing done (a form posted without the session is not followed to the login page: web.py)
    organiser.cookies.clear()
    r = organiser.post("/admin/events/new", data={"csrf": token, "name": "x", "players": CSV})
    assert r.status_code == 403 and "not logged in" in r.text
    assert "x" not in store.events()


def draft_tables(store, event):
    (draft,) = [r for r in store.event_rounds(event) if r["state"] == "draft"]
    return {b["table"]: (b["left"], b["right"]) for b in draft["boards"]}


def test_the_organiser_fixes_the_draft(organiser):
    store = organiser.app.state.desk.store
    assert new_event(organiser).status_code == 303
    token = csrf_of(organiser.get("/admin/e/open").text)
    assert "draft drawn" in said_after(organiser, organiser.post("/admin/e/open/pair", data={"csrf": token}))
    page = organiser.get("/admin/e/open").text
    assert 'data-testid="fix-draft"' in page
    before = draft_tables(store, "open")
    r = organiser.post("/admin/e/open/fix", data={"csrf": token, "action": "swap", "a": "1", "b": "2"})
    assert "draft changed" in said_after(organiser, r)
    assert draft_tables(store, "open") == {1: before[2], 2: before[1]}
    # set a table: its two players sides changed (by id and by name)
    swapped = draft_tables(store, "open")
    left, right = swapped[1]
    name = {p["id"]: p["name"] for p in store.event_players("open")}[left]
    r = organiser.post("/admin/e/open/fix", data={"csrf": token, "action": "set", "table": "1", "left": right,
                                                  "right": name})
    assert "draft changed" in said_after(organiser, r)
    assert draft_tables(store, "open") == {1: (right, left), 2: swapped[2]}
    # a player put at a second table: refused with event.py's message, nothing half-stored
    other = swapped[2][0]
    r = organiser.post("/admin/e/open/fix", data={"csrf": token, "action": "set", "table": "1", "left": right,
                                                  "right": other})
    page = organiser.get(r.headers["location"] + "?lang=en").text
    assert 'data-testid="error"' in page and f"{other}" in page and "round 1" in page
    assert draft_tables(store, "open") == {1: (right, left), 2: swapped[2]}
    for bad, says in (({"action": "swap", "a": "1", "b": "9"}, "no table 9 in the draft"),
                      ({"action": "swap", "a": "0", "b": "1"}, "is not a table"),
                      ({"action": "set", "table": "1", "left": "nobody", "right": "a2"}, "no player")):
        before = draft_tables(store, "open")
        r = organiser.post("/admin/e/open/fix", data={"csrf": token, **bad})
        assert says in organiser.get(r.headers["location"] + "?lang=en").text, bad
        assert draft_tables(store, "open") == before
    assert organiser.post("/admin/e/open/fix", data={"csrf": token, "action": "drop"}).status_code == 400
    assert organiser.post("/admin/e/open/fix", data={"action": "swap", "a": "1", "b": "2"}).status_code == 403
    assert organiser.post("/admin/e/nope/fix", data={"csrf": token, "action": "swap"}).status_code == 404
