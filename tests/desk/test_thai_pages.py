"""Every page of the desk read in Thai (issue 26): not only its notices (test_thai_messages.py) but all
its content, on a tournament day's worth of data: the demo event mid-way with a dead clock's game entered
by hand and the clock's own result held under it, a result amended, a wrong upload moved, another set
aside, one still waiting (a phantom event), a refusal, a player withdrawn, one renamed, a late entry, the
options changed, round 3's draft swapped and edited from another tab (its stale publish refused), an
arbiter's account made, disabled and given a new password, an event deleted; and the clocks page with a
real clock docked over a pty, enrolled from the page and assigned a table, beside a port that fails.

A page fails on a run of three Latin words or more in what a reader sees (the text between the tags:
no script, style or attribute value): an English sentence, or a piece of one. A player's Latin name,
an id, a serial or a rule ID is one or two words, not three.

Found by walking the desk in Thai for issue 26's pictures: the clocks page's enrollment outcomes and port
problems, the draft's notes ("swapped by the organiser"), the results to look at, the hand entry and
result pages and the accounts page told a Thai reader in English."""
from __future__ import annotations

import random
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import pytest
from deskhelp import LOCAL, LOCAL_URL, PASSWORD, csrf_of
from starlette.testclient import TestClient

from gameclock.organiser import event as events
from gameclock.organiser.desk import demo
from gameclock.organiser.desk.app import create_app

ORGANISER = "สมชาย"
ARBITER = "มาลี"
# three Latin words in a row (test_thai_messages.py's reading): "Somchai Jaidee" is a name, "round 2
# table 4 has no result" is English
ENGLISH = re.compile(r"[A-Za-z']{2,}(?: [A-Za-z']{2,}){2,}")
NAMES = ("King of the Hill",)   # a pairing's proper name (XW-10, seed 000 §2): Thai rule books write it so too
# a word of the desk's own alone in a table cell or a chart's legend (a side, a level): the Thai has its own
LONE = {"left", "right", "bye", "secondary", "primary", "plays", "yes", "no"}
EV = demo.NAME


class _Visible(HTMLParser):
    """The text a reader sees: every text node outside <script>, <style> and <title>, attributes left out."""

    HIDDEN = {"script", "style", "title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.hidden += tag in self.HIDDEN

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in self.HIDDEN

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible(page: str) -> str:
    """The page's visible text, one line a text node (a run of English never spans two nodes: "อันดับ 1"
    in one cell and "Anan Wong" in the next are not a sentence)."""
    p = _Visible()
    p.feed(page)
    return "\n".join(" ".join(part.split()) for part in p.parts if part.strip())


def english_in(page: str) -> list[str]:
    """The lines of a page's visible text holding a run of English."""
    lines = visible(page).splitlines()
    return [line for line in lines if ENGLISH.search(re.sub("|".join(map(re.escape, NAMES)), "", line))
            or line in LONE]


def test_the_reading_finds_english_and_leaves_names_alone():
    page = ('<html><head><title>gameclock desk page</title><style>p { font-family: Loma, sans-serif }</style>'
            '<script>let a = "do not count this";</script></head><body><p title="an attribute value here">'
            'สมชาย ใจดี (Somchai Jaidee) รอบ 2</p><td>demo0000000000c-000005</td><td>XW-3 XW-9</td>'
            '<p>swapped by the organiser</p><td>left</td><td>ซ้าย (left)</td></body></html>')
    assert english_in(page) == ["swapped by the organiser", "left"]


def test_every_presets_name_has_its_thai():
    """The new-event form and a table's page name each preset the package ships (rules/*.toml)."""
    from gameclock.organiser.desk import i18n
    from gameclock.rules.loader import load_presets

    names = [p.name for p in load_presets()]
    assert len(names) >= 20 and [n for n in names if n not in i18n.TH] == []


class Walk:
    """A browser at the desk in Thai, logged in as the organiser."""

    def __init__(self, app) -> None:
        self.c = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
        assert self.c.get("/?lang=th").status_code == 200
        self.post("/setup", "/setup", name=ORGANISER, password=PASSWORD, again=PASSWORD)
        self.post("/login", "/login", name=ORGANISER, password=PASSWORD)

    def post(self, path: str, page: str = "/admin", **data: str):
        """The form's answer, followed when it redirects (the page that tells what was done)."""
        token = csrf_of(self.c.get(page).text)
        r = self.c.post(path, data={"csrf": token, **data})
        while r.status_code in (302, 303):
            r = self.c.get(r.headers["location"])
        return r

    def done(self, path: str, page: str = "/admin", **data: str) -> str:
        r = self.post(path, page, **data)
        assert r.status_code == 200 and 'class="notice notice-success"' in r.text, (path, re.findall(r'<p class="notice.*?</p>', r.text, re.S))
        return r.text


def english_of(pages: dict[str, str]) -> str:
    """Each page's lines of English, one a line under the page's path ("" when there is none)."""
    return "\n".join(f"{where}:\n  " + "\n  ".join(found) for where, page in pages.items()
                     if (found := english_in(page)))


# ------------------------------------------------------------------------------------------ the day
def a_day(app, w: Walk) -> dict[str, str]:
    """The demo's tournament day, mid-way (module doc); returns {what: a result id or a player id} the
    pages name."""
    store = app.state.desk.store
    names = {p["id"]: p["name"] for p in store.event_players(EV)}
    r1, r2 = (events.round_of(store, EV, n) for n in (1, 2))
    t4 = next(b for b in r2["boards"] if b["table"] == 4)
    # table 4's clock died: its game entered by hand from the score slip (XW-3: 1:05 over, 20 off)
    table = f"/admin/e/{EV}/round/2/table/4"
    w.done(f"{table}/hand", table, score_left="390", score_right="372", overtime_left="1:05", level="secondary",
           reason="แบตเตอรี่นาฬิกาหมด ใบบันทึกคะแนนลงชื่อทั้งสองฝ่าย")
    [hand] = store.hand_results(event=EV)
    # round 2 table 1 recounted (an amendment), round 1 table 1's amended and withdrawn
    rid = f"/admin/results/{demo.SERIAL}-000005"
    w.done(f"{rid}/amend", rid, outcome="left", score_left="420", score_right="388", reason="นับคะแนนใหม่")
    first = f"/admin/results/{demo.SERIAL}-000001"
    w.done(f"{first}/amend", first, outcome="left", score_left="400", score_right="351", reason="นับใหม่",
           confirm="1")                                   # round 2 was paired after it: warned, then kept
    n = str(store.amendments()[-1]["n"])
    w.done(f"{first}/withdraw", first, n=n, reason="นับผิด")
    # the players: 7 withdraws, 8's Latin name corrected, 9 joins late; the options changed with a reason
    seven = f"/admin/e/{EV}/players/7"
    w.done(f"{seven}/withdraw", seven, reason="ป่วย กลับบ้านหลังรอบ 2")
    eight = f"/admin/e/{EV}/players/8"
    w.done(eight, eight, name=names["8"], latin="Fahsai Jaingam", campus="โรงเรียนสวนกุหลาบ", level="secondary",
           rating="", reason="สะกดตามรายชื่อของโรงเรียน")
    late = f"/admin/e/{EV}/players/new"
    w.done(late, late, id="9", name="กมล ใจกว้าง", latin="Kamol Jaikwang", campus="โรงเรียนเตรียม",
           level="secondary", reason="มาสาย")
    options = f"/admin/e/{EV}/options"
    w.done(options, options, o_koth_rounds="2", reason="คณะกรรมการมีมติ")
    # round 3: paired, two tables swapped, two players exchanged, a table set; another tab swaps again
    ev = f"/admin/e/{EV}"
    w.done(f"{ev}/pair", ev)
    w.done(f"{ev}/fix", ev, action="swap", a="1", b="2", version=str(events.draft_of(store, EV)["version"]))
    w.done(f"{ev}/fix", ev, action="exchange", p="1", q="2", version=str(events.draft_of(store, EV)["version"]))
    draft = events.draft_of(store, EV)
    b3 = next(b for b in draft["boards"] if b["table"] == 3)
    w.done(f"{ev}/fix", ev, action="set", table="3", left=b3["right"], right=b3["left"], version=str(draft["version"]))
    # then table 4's clock comes back and sends its own (held under the hand entry), a clock still
    # holding round 1's names sends round 2 table 3's (held), one left at event "1" (a phantom event), another
    # of event "1" set aside, and one refused
    r1t4 = next(b for b in r1["boards"] if b["table"] == 4)
    for seq, rnd, tb, left, right, event in ((9, 2, 4, names[t4["left"]], names[t4["right"]], EV),
                                              (10, 2, 3, names[r1t4["left"]], names[r1t4["right"]], EV),
                                              (11, 2, 2, "", "", "1"), (12, 2, 1, "", "", "1")):
        rec = demo.demo_record(seq, rnd, tb, left, right, (388, 372), random.Random(seq))
        rec["event"] = event
        assert store.put_result(rec, "0" * 64, "demo", "/dev/ttyACM1") == "stored"
    store.refusal("bad-signature", "the signature does not match the record under its key",
                  serial="demo0000000000e", rid="demo0000000000e-000003", source="/dev/ttyACM2")
    aside = f"/admin/results/{demo.SERIAL}-000012"
    w.done(f"{aside}/aside", aside, reason="เกมทดสอบก่อนแข่ง")
    # the accounts: an arbiter made, disabled, enabled, given a new password
    accounts = "/admin/accounts"
    w.done(f"{accounts}/new", accounts, name=ARBITER, role="arbiter", password=PASSWORD, again=PASSWORD)
    w.done(f"{accounts}/disable", accounts, account=ARBITER)
    w.done(f"{accounts}/enable", accounts, account=ARBITER)
    w.done(f"{accounts}/password", accounts, account=ARBITER, password=PASSWORD * 2, again=PASSWORD * 2)
    # an event made with a typo in its name, deleted
    from gameclock.organiser.pairing import model
    events.create_event(store, "ครอสเวิร์ด-ผิด", "xw10", events.PlayerList([model.Player(id="1", name="ก"),
                        model.Player(id="2", name="ข")]), rounds=5, preset="crossword", level="secondary")
    typo = "/admin/e/" + quote("ครอสเวิร์ด-ผิด")
    w.done(f"{typo}/delete", typo, reason="พิมพ์ชื่อผิด")
    return {"hand": hand["id"], "held": f"{demo.SERIAL}-000009", "wrong-table": f"{demo.SERIAL}-000010",
            "phantom": f"{demo.SERIAL}-000011", "aside": f"{demo.SERIAL}-000012"}


@pytest.fixture
def day(tmp_path):
    app = create_app(tmp_path / "demo.db", demo=True)
    w = Walk(app)
    ids = a_day(app, w)
    yield app, w, ids
    app.state.desk.store.close()


def test_every_page_of_a_tournament_day_in_thai(day):
    """Every page an organiser opens on the day (and each public page), in Thai: no English in it."""
    app, w, ids = day
    store = app.state.desk.store
    players = [p["id"] for p in store.event_players(EV)]
    paths = ["/", f"/e/{EV}/standings", f"/e/{EV}/crosstable", f"/e/{EV}/final", f"/e/{EV}/players",
             f"/e/{EV}/projector", "/e/1/standings", "/login"]
    paths += [f"/e/{EV}/pairings/{n}" for n in (1, 2)] + [f"/e/{EV}/players/{p}" for p in players]
    paths += [f"/e/{EV}/part/{name}" for name in ("standings", "pairings", "results")]
    # issue 28: find my table (found, none found, not asked), a table's page, the QR sheets to print
    paths += [f"/e/{EV}/find?q=%E0%B9%83%E0%B8%88", f"/e/{EV}/find?q=zzz", f"/e/{EV}/find",
              f"/e/{EV}/pairings/2/table/2", f"/e/{EV}/qr/players", f"/e/{EV}/qr/round/2"]
    paths += ["/admin", "/admin/events/new", f"/admin/e/{EV}", f"/admin/e/{EV}/prizes", f"/admin/e/{EV}/options",
              f"/admin/e/{EV}/players/new", "/admin/uploads", "/admin/accounts", "/admin/clocks", "/admin/e/1"]
    paths += [f"/admin/e/{EV}/players/{p}" for p in players]
    paths += [f"/admin/e/{EV}/round/{n}" for n in (1, 2)]
    paths += [f"/admin/e/{EV}/part/progress/{n}" for n in (1, 2)]
    paths += [f"/admin/e/{EV}/round/2/table/{t}" for t in (1, 2, 3, 4)]
    paths += [f"/admin/results/{rid}" for rid in ids.values()]
    paths += [f"/admin/results/{demo.SERIAL}-{n:06d}" for n in (1, 5, 6)]
    pages = {}
    for path in paths:
        r = w.c.get(path)
        assert r.status_code == 200, (path, r.status_code)
        pages[path] = r.text
    # the hand entry's lines read in Thai word by word (`score left 390`: i18n.say_entry)
    assert "คะแนน ซ้าย 390" in visible(pages[f"/admin/results/{ids['hand']}"])
    said = english_of(pages)
    assert said == "", "English on Thai pages:\n" + said


def test_the_forms_pages_of_a_tournament_day_in_thai(day):
    """The pages a form answers with, in Thai: Pair asks first (the draft's edits), a stale publish refused
    with the difference, an amendment of round 2 warned (round 3 was paired after it), a hand entry refused
    (the table has one)."""
    app, w, ids = day
    store = app.state.desk.store
    ev = f"/admin/e/{EV}"
    pages = {}
    r = w.post(f"{ev}/pair", ev)
    assert 'data-testid="pair-confirm"' in r.text
    pages["pair asks"] = r.text
    shown = str(events.draft_of(store, EV)["version"])
    events.edit(store, EV, swaps=[(3, 4)], by=ARBITER)        # another tab
    r = w.post(f"{ev}/publish", ev, version=shown)
    assert r.status_code == 409 and 'data-testid="draft-changed"' in r.text
    pages["stale publish"] = r.text
    rid = f"/admin/results/{demo.SERIAL}-000006"
    r = w.post(f"{rid}/amend", rid, outcome="right", score_left="355", score_right="405", reason="นับใหม่")
    assert 'data-testid="amend-warning"' in r.text
    pages["amendment warned"] = r.text
    table = f"{ev}/round/2/table/4"
    r = w.post(f"{table}/hand", table, score_left="1", score_right="2", level="secondary", reason="ซ้ำ")
    assert r.status_code == 409
    pages["hand entry refused"] = r.text
    said = english_of(pages)
    assert said == "", "English on Thai pages:\n" + said


# every pairing system's event (issue 25's systems), played a few rounds as the desk plays them, its next draft
# waiting: (system, the clock's kind, players, options, rounds to play, a board's result)
SYSTEMS = [
    ("makruk-rr", "makruk", "ABCDE", {}, 2, lambda b: "left"),
    ("makhos-groups", "makhos", "ABCDEFG", {"groups": 2}, 2, lambda b: "draw" if b["table"] == 1 else "left"),
    ("makhos-ko", "makhos", "ABCDE", {}, 2, lambda b: "draw" if b["table"] == 1 else "left"),
    ("makruk-ko", "makruk", "ABCDEF", {"third_place": True}, 2, lambda b: "draw" if b["table"] == 1 else "right"),
    ("makhos-ko-003", "makhos", "ABCD", {}, 2, lambda b: "draw"),
    ("dutch", "makruk", "ABCDEFG", {}, 2, lambda b: "left"),
]


@pytest.mark.parametrize("system,kind,ids,options,rounds,result", SYSTEMS, ids=[s[0] for s in SYSTEMS])
def test_each_pairing_systems_pages_in_thai(tmp_path, system, kind, ids, options, rounds, result):
    """An event of each pairing system, played `rounds` rounds, its next round's draft waiting: its pages
    (the draft's and the rounds' notes, the standings' and the final standings' notes) in Thai."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "organiser_event"))
    from playkit import KINDS, name_of, pair_and_publish, play

    from gameclock.organiser.pairing.model import Player

    app = create_app(tmp_path / "pc.db")
    store = app.state.desk.store
    try:
        w = Walk(app)
        events.create_event(store, "ev", system, events.PlayerList([Player(id=i, name=name_of(i)) for i in ids]),
                            rounds=4 if system == "dutch" else 0, options=options, preset=KINDS[kind], language="th")
        for _ in range(rounds):
            play(store, "ev", pair_and_publish(store, "ev"), result, kind=kind)
        events.draw(store, "ev")
        paths = ["/admin/e/ev", "/admin/e/ev/prizes", "/e/ev/standings", "/e/ev/final", "/e/ev/crosstable",
                 "/e/ev/pairings/1", "/e/ev/players", "/e/ev/projector", "/admin/e/ev/round/1"]
        pages = {}
        for path in paths:
            r = w.c.get(path)
            assert r.status_code == 200, (path, r.status_code)
            pages[path] = r.text
        assert 'class="notes"' in pages["/admin/e/ev"]          # the draft says how it was drawn
        said = english_of(pages)
        assert said == "", "English on Thai pages:\n" + said
    finally:
        store.close()


def test_the_clocks_page_in_thai(tmp_path):
    """The clocks page in Thai with a real clock docked over a pty (test_clocks_enroll.py's ClockThread): its
    enrollment refused for a wrong code, then done, then the clock assigned table 1 of the demo event and sent
    its pairing; beside it a port the desk cannot open; and the assignments' refusals."""
    from test_clocks_enroll import ClockThread, page_when, wait_until

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dock"))
    from dockkit import SERIAL, PtyRelay

    gone = str(tmp_path / "ttyACM9")          # a clock's port that is not there (unplugged)
    with PtyRelay() as relay:
        app = create_app(tmp_path / "demo.db", demo=True, dock=[relay.path_b, gone])
        with TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False):
            w = Walk(app)
            worker = app.state.dock.worker(relay.path_b)
            wait_until(lambda: worker.view.connected)
            clock = ClockThread(tmp_path / "clock", relay.path_a)
            pages = {}
            try:
                path = relay.path_b
                page_when(w.c, path, f'data-serial="{SERIAL}"')
                pages["docked"] = w.c.get("/admin/clocks").text
                w.post("/admin/clocks/enroll", "/admin/clocks", port=path, serial=SERIAL)
                code = wait_until(lambda: clock.code)
                clock.side.endpoint.answer_enroll(code, True)
                page_when(w.c, path, 'data-testid="pc-code"')
                wrong = f"{(int(code) + 1) % 1_000_000:06d}"
                w.post("/admin/clocks/code", "/admin/clocks", port=path, serial=SERIAL, code=wrong)
                pages["a wrong code"] = page_when(w.c, path, 'data-stage="failed"')
                wait_until(lambda: not clock.code)
                w.post("/admin/clocks/enroll", "/admin/clocks", port=path, serial=SERIAL)
                code = wait_until(lambda: clock.code)
                w.post("/admin/clocks/code", "/admin/clocks", port=path, serial=SERIAL, code=code)
                clock.side.endpoint.answer_enroll(code, True)
                pages["enrolled"] = page_when(w.c, path, 'data-stage="done"')
                r = w.post("/admin/clocks/assign", "/admin/clocks", serial=SERIAL, event=EV, table="1")
                assert 'class="notice notice-success"' in r.text
                pages["assigned"] = page_when(w.c, path, 'data-testid="pushed" data-state="taken"')
                for fields in (dict(serial=SERIAL, event="ไม่มี", table="1"), dict(serial=SERIAL, event=EV, table="0"),
                               dict(serial="00000000deadbeef", event=EV, table="1")):
                    pages[f"assign {fields}"] = w.post("/admin/clocks/assign", "/admin/clocks", **fields).text
                pages["unassigned twice"] = w.post("/admin/clocks/unassign", "/admin/clocks", serial="00000000deadbeef").text
                pages["replace its key"] = w.post("/admin/clocks/enroll", "/admin/clocks", port=path, serial=SERIAL,
                                                  replace="1").text
                assert 'data-testid="port-problem"' in w.c.get("/admin/clocks").text
                pages["a port that is not there"] = w.c.get("/admin/clocks").text
            finally:
                clock.close()
            assert clock.error is None
    # what each page says, in Thai: the refused code, the enrollment, the port that is not there
    assert "รหัสที่พิมพ์" in visible(pages["a wrong code"]) and "ลงทะเบียนนาฬิกา" in visible(pages["enrolled"])
    assert "ไม่มีพอร์ตนี้" in visible(pages["a port that is not there"])
    said = english_of(pages)
    assert said == "", "English on Thai pages:\n" + said
