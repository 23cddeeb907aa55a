"""Every message the desk shows, in the page's language (issue 26): a walk through the desk's pages
and forms in Thai, as an organiser and an arbiter would go on a tournament day (the first start,
logins, a new event, pairing, fixing and publishing, options, amendments, exports, accounts) and
through its refusals, failing on any English sentence in what a page tells its reader. Errors and
successes are told apart by a word and a class, not by colour alone.

Found by an organiser's day at the desk: "round 2: draft drawn (seed 41)", "no result yet for round 2
table 4 (dock their clocks first)", the player list's line errors and the export's refusal were
English on Thai pages, and an error looked like a success."""
from __future__ import annotations

import html
import random
import re
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from deskhelp import LOCAL, LOCAL_URL, PASSWORD, csrf_of
from starlette.testclient import TestClient

from gameclock.organiser.desk import demo
from gameclock.organiser.desk.app import create_app

ORGANISER = "สมชาย"
ARBITER = "มาลี"
# three Latin words in a row, a space between (two letters or more each): an English sentence, or a
# piece of one. A value inside a Thai sentence (a Latin name, an option's key, a file name, a rule ID,
# a list of column names "latin, campus, level") is not.
ENGLISH = re.compile(r"[A-Za-z']{2,}(?: [A-Za-z']{2,}){2,}")
NOTICE = re.compile(r'<p class="notice notice-(\w+)"[^>]*data-kind="(\w+)"[^>]*><span class="notice-word">(.*?)</span>'
                    r' <span data-testid="(\w+)">(.*?)</span></p>', re.S)
WORDS = {"success": "เรียบร้อย:", "notice": "โปรดทราบ:", "error": "ไม่สำเร็จ:"}


def notices(page: str) -> list[tuple[str, str]]:
    """(kind, text) of every notice of a page, each checked: its word and its test id agree with its kind."""
    out = []
    for cls, kind, word, testid, text in NOTICE.findall(page):
        assert cls == kind and html.unescape(word) == WORDS[kind], (kind, word)
        assert testid == ("error" if kind == "error" else "message")
        out.append((kind, html.unescape(re.sub(r"<[^>]+>", "", text))))
    assert page.count('class="notice ') == len(out), "every notice as the pattern reads it"
    return out


class Walk:
    """A browser at the desk in Thai, noting every notice it is shown and failing on English in one."""

    def __init__(self, app, *, name: str = "") -> None:
        self.c = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
        assert self.c.get("/?lang=th").status_code == 200        # the reader's choice, kept in a cookie
        self.seen: list[tuple[str, str]] = []

    def page(self, r) -> list[tuple[str, str]]:
        """The notices of a response (followed when it redirects), checked for English."""
        while r.status_code in (302, 303):
            r = self.c.get(r.headers["location"])
        said = notices(r.text)
        for kind, text in said:
            english = ENGLISH.findall(text)
            assert not english, f"English in a Thai page's {kind}: {text!r}"
        self.seen += said
        return said

    def get(self, path: str):
        return self.page(self.c.get(path))

    def post(self, path: str, page: str = "/admin", files=None, **data: str) -> list[tuple[str, str]]:
        token = csrf_of(self.c.get(page).text)
        return self.page(self.c.post(path, data={"csrf": token, **data}, files=files))

    def one(self, kind: str, said: list[tuple[str, str]]) -> str:
        assert [k for k, _ in said] == [kind], said
        return said[0][1]


@pytest.fixture
def app(tmp_path):
    a = create_app(tmp_path / "demo.db", demo=True)
    yield a
    a.state.desk.store.close()


def test_the_first_start_the_login_and_the_accounts_in_thai(app):
    w = Walk(app)
    w.one("error", w.post("/setup", "/setup", name="", password=PASSWORD, again=PASSWORD))
    w.one("error", w.post("/setup", "/setup", name=ORGANISER, password=PASSWORD, again=PASSWORD + "!"))
    w.one("error", w.post("/setup", "/setup", name=ORGANISER, password="short", again="short"))
    w.one("error", w.post("/setup", "/setup", name="x" * 41, password=PASSWORD, again=PASSWORD))
    assert w.post("/setup", "/setup", name=ORGANISER, password=PASSWORD, again=PASSWORD) == []
    assert "รหัสผ่านไม่ถูกต้อง" in w.one("error", w.post("/login", "/login", name=ORGANISER, password="wrong!!"))
    assert w.post("/login", "/login", name=ORGANISER, password=PASSWORD) == []
    # the accounts: made, refused, disabled, enabled, a new password
    for bad in (dict(name=ARBITER, password="short", again="short"), dict(name="", password=PASSWORD, again=PASSWORD),
                dict(name=ARBITER, password=PASSWORD, again=PASSWORD + "?"), dict(name=ORGANISER, password=PASSWORD,
                                                                               again=PASSWORD)):
        w.one("error", w.post("/admin/accounts/new", "/admin/accounts", role="arbiter", **bad))
    assert ARBITER in w.one("success", w.post("/admin/accounts/new", "/admin/accounts", name=ARBITER, role="arbiter",
                                              password=PASSWORD, again=PASSWORD))
    w.one("error", w.post("/admin/accounts/disable", "/admin/accounts", account=ORGANISER))   # the last organiser
    w.one("error", w.post("/admin/accounts/disable", "/admin/accounts", account="nobody"))
    w.one("success", w.post("/admin/accounts/disable", "/admin/accounts", account=ARBITER))
    arbiter = Walk(app)
    w.one("error", arbiter.post("/login", "/login", name=ARBITER, password=PASSWORD))        # disabled
    w.one("success", w.post("/admin/accounts/enable", "/admin/accounts", account=ARBITER))
    w.one("error", w.post("/admin/accounts/password", "/admin/accounts", account=ARBITER, password="short", again="short"))
    w.one("success", w.post("/admin/accounts/password", "/admin/accounts", account=ARBITER, password=PASSWORD * 2,
                            again=PASSWORD * 2))
    assert arbiter.post("/login", "/login", name=ARBITER, password=PASSWORD * 2) == []
    # what an arbiter may not do, said in Thai
    for path in ("/admin/events/new", "/admin/accounts", "/admin/e/demo/export/csv", "/admin/clocks"):
        arbiter.one("error", arbiter.get(path))
    arbiter.one("error", arbiter.post("/admin/e/demo/pair"))
    # too many tries: for a browser the desk knows and for the others
    for _ in range(5):
        arbiter.post("/login", "/login", name=ARBITER, password="a wrong one")
    assert "นาที" in arbiter.one("error", arbiter.post("/login", "/login", name=ARBITER, password="a wrong one"))
    stranger = Walk(app)
    for _ in range(5):
        stranger.post("/login", "/login", name=ORGANISER, password="guess")
    stranger.one("error", stranger.post("/login", "/login", name=ORGANISER, password="guess"))
    # refusals of any page: a form without a session, a form's token missing, a page not found, a form too large
    stranger.one("error", stranger.post("/admin/results/x/amend", "/login"))
    stranger.one("error", stranger.page(stranger.c.post("/login", data={"csrf": "forged"})))
    stranger.one("error", stranger.get("/e/no-such-event/standings"))
    w.one("error", w.page(w.c.post("/admin/accounts/new", data={"csrf": csrf_of(w.c.get("/admin").text),
                                                                "name": "x" * 70_000})))
    w.one("error", w.page(w.c.post("/admin/accounts/new", content=b"{}", headers={"content-type": "application/json"})))
    assert {k for k, _ in w.seen + arbiter.seen + stranger.seen} == {"success", "error"}


def organiser(app) -> Walk:
    w = Walk(app)
    w.post("/setup", "/setup", name=ORGANISER, password=PASSWORD, again=PASSWORD)
    w.post("/login", "/login", name=ORGANISER, password=PASSWORD)
    return w


def test_a_new_event_its_rounds_and_its_options_in_thai(app):
    w = organiser(app)
    new = "/admin/events/new"
    good = "id,name,campus,rating\n1,ก้อง,โรงเรียนก,1500\n2,ข้าว,โรงเรียนข,1400\n3,คิม,โรงเรียนค,\n4,งาม,โรงเรียนง,\n"
    base = dict(name="ครอสเวิร์ด-2568", system="xw10", rounds="3", language="th", format="csv")
    for bad in (dict(players=""), dict(players=good.replace("1500", "x1500")), dict(players=good.replace("2,ข้าว", "1,ข้าว")),
                dict(players=good.replace("2,ข้าว", "2,ก้อง")), dict(players="name\nก\nข\n"),
                dict(players=good.replace(",1400", ",1400,extra")), dict(players="id,name\n1,ก\n"),
                dict(players="id,name,level\n1,ก,tertiary\n2,ข,primary\n"), dict(players=good, name=""),
                dict(players=good, name="two words"), dict(players=good, rounds="x"),
                dict(players=good, options="nonsense"), dict(players=good, options="table_group=x"),
                dict(players=good, format="tsh"), dict(players="ก 1500 2; 400\nข 1400 1; 380\n", format="tsh")):
        w.one("error", w.post(new, new, **{**base, **bad}))
    thai_csv = "id,name,email\n1,ก้อง,a@b\n2,ข้าว,c@d\n".encode("cp874")
    said = w.post(new, new, files={"file": ("list.csv", thai_csv, "text/csv")}, **{**base, "name": "สอง"})
    assert [k for k, _ in said] == ["success", "notice", "notice"], said     # read as windows-874; a column ignored
    assert [k for k, _ in w.post(new, new, **{**base, "players": good})] == ["success"]
    w.one("error", w.post(new, new, **{**base, "players": good}))               # the same name again
    ev = "/admin/e/ครอสเวิร์ด-2568"
    w.one("error", w.post(f"{ev}/publish", ev))                                  # no draft yet
    w.one("error", w.post(f"{ev}/redraw", ev))
    w.one("success", w.post(f"{ev}/pair", ev))
    w.one("success", w.post(f"{ev}/redraw", ev))                                 # round 1's lot: drawn again
    for bad in (dict(action="swap", a="1", b="1"), dict(action="swap", a="1", b="9"), dict(action="swap", a="x", b="1"),
                dict(action="set", table="1", left="", right="2"), dict(action="set", table="1", left="1", right="1"),
                dict(action="set", table="1", left="nobody", right="2"), dict(action="set", table="9", left="1", right="2")):
        w.one("error", w.post(f"{ev}/fix", ev, **bad))
    w.one("success", w.post(f"{ev}/fix", ev, action="swap", a="1", b="2"))
    w.one("success", w.post(f"{ev}/publish", ev))
    w.one("error", w.post(f"{ev}/pair", ev))                                     # no result yet for round 1
    # the options: set before and after a round is published
    said = w.post("/admin/e/สอง/options", "/admin/e/สอง/options", o_table_group="4")
    assert [k for k, _ in said] == ["success"], said
    w.one("error", w.post("/admin/e/สอง/options", "/admin/e/สอง/options", o_table_group="4"))   # changes nothing
    w.one("error", w.post("/admin/e/สอง/options", "/admin/e/สอง/options", o_table_group="many"))
    w.post("/admin/e/สอง/pair", "/admin/e/สอง")
    said = w.post("/admin/e/สอง/options", "/admin/e/สอง/options", o_table_group="2")
    assert [k for k, _ in said] == ["success", "notice"], said                   # the draft was drawn before
    w.post("/admin/e/สอง/publish", "/admin/e/สอง")
    w.one("error", w.post("/admin/e/สอง/options", "/admin/e/สอง/options", o_table_group="8"))   # needs a reason
    w.one("success", w.post("/admin/e/สอง/options", "/admin/e/สอง/options", o_table_group="8", reason="ห้องเล็ก"))
    assert {k for k, _ in w.seen} == {"success", "notice", "error"}


def test_a_round_its_results_and_the_exports_in_thai(app):
    from gameclock.organiser import event as events

    w = organiser(app)
    store = app.state.desk.store
    ev = "/admin/e/demo"
    w.one("error", w.post(f"{ev}/pair", ev))                                 # round 2 table 4 has no result yet
    w.one("error", w.get(f"{ev}/export/tsh"))                                # ... so no tsh file either
    w.one("error", w.get(f"{ev}/export/trf?encoding=latin-1"))
    w.one("error", w.get(f"{ev}/export/trf"))                                # crossword results: TRF ranks them; gap
    # the fourth table's result arrives; then pair, publish, export
    r2 = next(r for r in store.event_rounds("demo") if r["round"] == 2)
    b = next(b for b in r2["boards"] if b["table"] == 4)
    names = {p["id"]: p["name"] for p in store.event_players("demo")}
    store.put_result(demo.demo_record(9, 2, 4, names[b["left"]], names[b["right"]], (300, 310), random.Random(1)),
                     "0" * 64, "demo", "test")
    assert w.c.get(f"{ev}/export/tsh?encoding=windows-874").status_code == 200
    w.one("success", w.post(f"{ev}/pair", ev))
    w.one("error", w.post(f"{ev}/redraw", ev))                               # a Swiss round draws nothing by lot
    assert w.post(f"{ev}/pair", ev) == []                                    # a draft waiting: Pair asks first ...
    version = str(events.draft_of(store, "demo")["version"])
    w.one("success", w.post(f"{ev}/pair", ev, confirm="1", version=version))  # ... then pairs it again
    w.one("success", w.post(f"{ev}/publish", ev))
    # a result amended and withdrawn; refused amendments
    rid = f"/admin/results/{demo.SERIAL}-000005"
    for bad in (dict(outcome="left", reason=""), dict(outcome="left", reason="ไม่เปลี่ยน", score_left="", score_right=""),
                dict(outcome="right", score_left="500", score_right="1", reason="นับใหม่"),
                dict(outcome="left", score_left="many", reason="นับใหม่"), dict(outcome="nobody", reason="นับใหม่")):
        current = store.amendments()
        said = w.post(f"{rid}/amend", rid, **bad)
        assert store.amendments() == current
        w.one("error", said)
    amend = dict(outcome="left", score_left="420", score_right="300", reason="นับใหม่")
    assert w.post(f"{rid}/amend", rid, **amend) == []           # round 2, older than round 3: it warns first ...
    w.one("success", w.post(f"{rid}/amend", rid, confirm="1", **amend))      # ... then keeps it
    n = str(store.amendments()[-1]["n"])
    w.one("error", w.post(f"{rid}/withdraw", rid, n=n, reason=""))
    w.one("success", w.post(f"{rid}/withdraw", rid, n=n, reason="นับผิด"))
    w.one("error", w.post(f"{rid}/withdraw", rid, n=n, reason="อีกครั้ง"))   # no longer the one in effect
    assert {k for k, _ in w.seen} == {"success", "error"}


def test_the_notices_say_their_kind_in_english_too(app):
    """In English the same notices carry their own words: Done, Note, Not done."""
    c = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    c.get("/?lang=en")
    page = c.get("/setup")
    r = c.post("/setup", data={"csrf": csrf_of(page.text), "name": "", "password": PASSWORD, "again": PASSWORD})
    assert re.search(r'class="notice notice-error"[^>]*><span class="notice-word">Not done:</span> '
                     r'<span data-testid="error">give the account a name</span>', r.text), r.text


def test_the_end_of_a_round_robin_in_thai(app):
    """Pair after the last round of a Makruk round robin (MR-10: 4 players, 3 rounds of the Berger table):
    the pairing system says the event is over (its rounds not given: the Berger table has 3), in Thai."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "organiser_event"))
    from playkit import play

    from gameclock.organiser import event as events

    w = organiser(app)
    store = app.state.desk.store
    new = "/admin/events/new"
    w.one("success", w.post(new, new, name="หมากรุก", system="makruk-rr", rounds="", language="th", format="csv",
                            players="id,name\n1,Player 1\n2,Player 2\n3,Player 3\n4,Player 4\n"))   # playkit names them so
    ev = "/admin/e/หมากรุก"
    for _ in range(3):
        w.one("success", w.post(f"{ev}/pair", ev))
        w.one("success", w.post(f"{ev}/publish", ev))
        play(store, "หมากรุก", events.round_of(store, "หมากรุก"), lambda b: "left", kind="makruk")
    over = w.one("error", w.post(f"{ev}/pair", ev))
    assert "จบแล้ว" in over and "3" in over, over


def test_players_during_the_event_in_thai(app):
    """A player's edit, withdrawal and reinstatement, a late entry and an exchange of two players in a
    draft (the organiser's forms of issue 26), said in Thai, refusals included."""
    from gameclock.organiser import event as events

    w = organiser(app)
    store = app.state.desk.store
    ev = "/admin/e/demo"
    names = {p["id"]: p["name"] for p in store.event_players("demo")}
    one = f"{ev}/players/1"
    w.one("error", w.post(one, one, name=names["1"], latin="", campus="", level="", rating="1500"))   # no reason
    w.one("error", w.post(one, one, name=names["1"], reason="ข้อมูลเดิม"))                            # nothing
    w.one("error", w.post(one, one, name=names["2"], reason="พิมพ์ผิด"))                             # taken
    w.one("error", w.post(one, one, rating="many", reason="เรตติ้งใหม่"))
    w.one("success", w.post(one, one, rating="1500", reason="เรตติ้งใหม่"))
    three = f"{ev}/players/3"
    w.one("error", w.post(f"{three}/withdraw", three))                                          # no reason
    w.one("success", w.post(f"{three}/withdraw", three, reason="ป่วย"))
    w.one("error", w.post(f"{three}/withdraw", three, reason="ป่วย"))                           # already
    w.one("success", w.post(f"{three}/reinstate", three, reason="หายป่วย"))
    w.one("error", w.post(f"{three}/reinstate", three, reason="หายป่วย"))                       # has not withdrawn
    late = f"{ev}/players/new"
    w.one("error", w.post(late, late, id="9", name="", reason="มาสาย"))
    w.one("error", w.post(late, late, id="1", name="ใหม่", reason="มาสาย"))                     # id taken
    w.one("error", w.post(late, late, id="9", name=names["2"], reason="มาสาย"))                 # name taken
    w.one("success", w.post(late, late, id="9", name="ใหม่", reason="มาสาย"))
    # round 2's last result, then a draft to exchange two players in
    r2 = next(r for r in store.event_rounds("demo") if r["round"] == 2)
    b = next(b for b in r2["boards"] if b["table"] == 4)
    store.put_result(demo.demo_record(9, 2, 4, names[b["left"]], names[b["right"]], (300, 310), random.Random(1)),
                     "0" * 64, "demo", "test")
    w.one("success", w.post(f"{ev}/pair", ev))
    version = str(events.draft_of(store, "demo")["version"])
    w.one("error", w.post(f"{ev}/fix", ev, action="exchange", p="1", q="1", version=version))
    w.one("error", w.post(f"{ev}/fix", ev, action="exchange", p="1", q="", version=version))
    w.one("success", w.post(f"{ev}/fix", ev, action="exchange", p="1", q="2", version=version))
    assert {k for k, _ in w.seen} == {"success", "error"}


def test_a_bad_days_results_in_thai(app):
    """A dead clock's game entered by hand and withdrawn, a wrong upload moved and another set aside, a
    clock's result held under a hand entry decided, an event deleted (the results' forms of issue 26),
    said in Thai, refusals included. The demo's round 2 table 4 has no result (its clock is dead)."""
    w = organiser(app)
    store = app.state.desk.store
    table = "/admin/e/demo/round/2/table/4"
    good = dict(score_left="400", score_right="350", level="secondary", reason="นาฬิกาเสีย")
    w.one("error", w.post(f"{table}/hand", table, **{**good, "score_right": ""}))          # missing a score
    w.one("error", w.post(f"{table}/hand", table, **{**good, "reason": ""}))              # no reason
    w.one("error", w.post(f"{table}/hand", table, **{**good, "overtime_left": "3:75"}))   # not a time
    w.one("error", w.post(f"{table}/hand", table, **{**good, "level": "senior"}))         # not a level
    w.one("error", w.post(f"{table}/hand", table, **{**good, "absent": "left", "level": ""}))   # XW-9 needs the level
    w.one("success", w.post(f"{table}/hand", table, **good))
    w.one("error", w.post(f"{table}/hand", table, **good))                               # another one there now
    [hand] = store.hand_results(event="demo")
    # the dead clock comes back and sends its own: held, the organiser decides
    names = dict(zip(("left", "right"), (store.hand_results()[0]["record"]["players"][s] for s in ("left", "right")),
                     strict=True))
    rid = f"{demo.SERIAL}-000009"
    rec = demo.demo_record(9, 2, 4, names["left"], names["right"], (410, 350), random.Random(9))
    assert store.put_result(rec, "0" * 64, "demo", "test") == "stored"
    page = f"/admin/results/{rid}"
    w.one("error", w.post(f"{page}/decide", page, keep="clock"))                          # no reason
    w.one("success", w.post(f"{page}/decide", page, keep="clock", reason="ใช้ผลจากนาฬิกา"))
    w.one("error", w.post(f"/admin/results/{hand['id']}/withdraw", f"/admin/results/{hand['id']}",
                          reason="ไม่ใช้แล้ว"))                                              # withdrawn already
    # a wrong upload: event "1" (the clock's old default), moved to where it was played, then set aside
    wrong = demo.demo_record(10, 2, 3, names["left"], names["right"], (300, 310), random.Random(10))
    wrong["event"] = "1"
    assert store.put_result(wrong, "0" * 64, "demo", "test") == "stored"
    page = f"/admin/results/{demo.SERIAL}-000010"
    w.one("error", w.post(f"{page}/move", page, event="ไม่มี", round="2", table="4", reason="ตั้งรายการผิด"))
    w.one("error", w.post(f"{page}/move", page, event="demo", round="2", table="99", reason="ตั้งรายการผิด"))
    w.one("error", w.post(f"{page}/move", page, event="demo", round="2", table="4", reason="ตั้งรายการผิด"))  # taken
    w.one("error", w.post("/admin/e/1/delete", "/admin/e/1", reason="รายการผิด"))          # a result is there
    w.one("success", w.post(f"{page}/aside", page, reason="เกมทดสอบ"))
    w.one("error", w.post(f"{page}/aside", page, reason="เกมทดสอบ"))                       # aside already
    w.one("error", w.post("/admin/e/1/delete", reason="รายการผิด"))       # nothing of it is left to delete
    # an event made by mistake (a typo in its name), a round published: deleted with the reason
    from gameclock.organiser import event as events
    from gameclock.organiser.pairing import model
    events.create_event(store, "ครอสเวิร์ด-ผิด", "xw10", events.PlayerList([model.Player(id="1", name="ก"),
                        model.Player(id="2", name="ข")]), rounds=5, preset="crossword", level="secondary")
    events.draw(store, "ครอสเวิร์ด-ผิด", seed=1)
    events.publish(store, "ครอสเวิร์ด-ผิด")
    typo = "/admin/e/" + quote("ครอสเวิร์ด-ผิด")
    w.one("error", w.post(f"{typo}/delete", typo, reason=""))
    assert "ครอสเวิร์ด-ผิด" in w.one("success", w.post(f"{typo}/delete", typo, reason="พิมพ์ชื่อผิด"))
    w.one("error", w.post("/admin/e/demo/delete", "/admin/e/demo", reason="ลองลบ"))          # real games
    assert {k for k, _ in w.seen} == {"success", "error"}


def test_a_public_page_without_results_tells_nothing(app):
    """The crosstable of an event without results says so in its page, not as a refusal's notice."""
    w = organiser(app)
    w.post("/admin/events/new", "/admin/events/new", name="ว่าง", system="xw10", format="csv",
           players="id,name\n1,ก\n2,ข\n")
    r = w.c.get("/e/ว่าง/crosstable")
    assert r.status_code == 200 and notices(r.text) == [] and 'data-testid="crosstable-empty"' in r.text
