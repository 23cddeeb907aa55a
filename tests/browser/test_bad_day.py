"""Issue 26's acceptance, in headless Chromium: the organiser's bad day. A 3-round, 20-player XW-10 Crossword
event named in Thai (`ครอสเวิร์ด-ม.ปลาย-2568`, secondary level) run at the desk (a real uvicorn) by the
organiser's named account, as the organiser would: the New event form, the clocks page, Pair and Publish, the
round's progress, the table's hand entry, the players' pages, a result's page, two windows on one draft, the
public final standings. Around it, the real clock ends:

- a spare clock (tests/dock/devicekit.py: the clock's loop and dock thread as on the clock) docked at the
  desk's own dock (`gameclock desk --dock PATH`, over a pty relay) with its factory settings (Event 1, table
  1), assigned to table 4 on the clocks page BEFORE round 1 is published: Publish reaches it where it is
  docked, with the Thai event's pairing, nobody re-plugging it (dock protocol 5). Then its battery dies;
- the other tables' clocks dock on a real `gameclock receive` child process over ptys (deskround.Dock) with
  the signed records a clock builds from its game's event log (`record_from_log`), each at the table and
  with the players the PC pushed it -- but for two: in round 2 the clock of table 9 was set to table 8
  (so it carried table 8's names) and the clock of table 3 was reset to its factory settings (Event 1,
  round 1, table 1, no names: a phantom event "1" on the public index).

The day, and what the organiser does about it:

  round 1  table 4's clock dies: Pair is refused ("no result yet for round 1 table 4"); the result is entered
           by hand from the score slip (scores 430 v 260, left 1:10 over time).
  after 1  B5 withdraws (went home ill); a late player, L, is entered: joins round 2 (docs/rules.md §9).
  round 2  the two wrong uploads: table 8 shows two results for one game (neither counts), tables 3 and 9
           none, and Pair is refused; both results are moved to where they were played (each takes that
           table's players as published), the phantom event is gone from the public index.
  round 3  the draft is open in two windows; in the second, the two players B8 and B2 are exchanged; the
           first window's Publish (of the version it showed) is refused with the difference; looked at
           again, the exchanged draft is published. A5 does not come: a forfeit, entered at the desk.

Every audit entry is asserted (who: the account logged in; what; before; after; why), and no signed record's
bytes change (the results table's rows before and after the moves, and at the end).

THE HAND WORKING. Rules of ../shared/RULES.md (the repository's docs/rules.md gives the same IDs): XW-3 (10
points per started minute over time, off the offender's score, before the spread), XW-6 (win 2 GP, draw 1,
loss 0), XW-7 (rank by GP, then cumulative spread), XW-8 (spread cap 250 at secondary level; the last
qualifying game 200 -- every game below is under 200 in round 3, so the reading of "last" for a 3-round
event does not matter here), XW-9 and docs/rules.md §10 (a forfeit is a bye for the player who came: +100 at
secondary, a win; its negative for the absent), docs/rules.md §9 (a late entrant's missed rounds score
nothing: no game, no points, no spread), XW-10 (game 1 random, game 2 Swiss: score groups, top half v
bottom half, no repeat; game 3 the change-over within table groups of 2 tables of game 2: winners meet
winners, losers meet losers; organiser/pairing/crossword.py and swiss.py describe the same), XW-11 (medal
score: wins 3 -> 60, 2 -> 50, 1 -> 40, a draw 5, +-1 per full 100 of spread, none for 0 wins; bronze 60-69,
below 60 a certificate).

Round 1 is drawn at random, so players are named by their round-1 seat: A<t> sat left at table t, B<t>
right; L is the late entry. Left wins every table of round 1:

  table 1: 520-210, +310 capped to +250 (XW-8)     table 6:  380-270, +110
  table 2: 455-265, +190                           table 7:  370-280, +90
  table 3: 430-260, +170                           table 8:  360-290, +70
  table 4: entered by hand, 430-260 with left      table 9:  350-300, +50
           1:10 over: 2 started minutes, 20 off    table 10: 340-310, +30
           (XW-3): 410-260, +150
  table 5: 400-270, +130

After round 1 (XW-7): A1..A10 (GP 2; +250 ... +30), then L (0, 0: §9, entered now), then B10..B1 (GP 0;
-30 ... -250). B5 withdraws: not paired again, their game stays (§9).

Round 2, Swiss (XW-10) of the 20 who play: the GP-2 group A1..A10 pairs top half v bottom half: A1-A6,
A2-A7, A3-A8, A4-A9, A5-A10; the GP-0 group L, B10, B9, B8, B7 | B6, B4, B3, B2, B1: L-B6, B10-B4, B9-B3,
B8-B2, B7-B1 (none met before). Tables by the pair's higher rank; who starts (swiss.py `Sides`): the one
who started fewer games, else the higher-ranked (so B6, who lost from the right, starts against L):

  table  1       2       3        4       5        6      7        8       9       10
  board  A1-A6   A2-A7   A3-A8    A4-A9   A5-A10   B6-L   B10-B4   B9-B3   B8-B2   B7-B1
  score  400-280 330-390 380-340  300-410 390-320  360-375 410-270 350-360 405-310 320-380
  winner A1 +120 A7 +60  A3 +40   A9 +110 A5 +70   L +15  B10 +140 B3 +10  B8 +95  B1 +60
                         (sent as event 1)                                 (sent as table 8)

After round 2 (GP, spread): A1 4 +370, A3 4 +210, A5 4 +200, A9 4 +160, A7 4 +150 | A2 2 +130, B10 2 +110,
A4 2 +40, A8 2 +30, B8 2 +25, L 2 +15, A6 2 -10, A10 2 -40, B3 2 -160, B1 2 -190 | B9 0 -60, B6 0 -125,
B7 0 -150, B2 0 -285, B4 0 -290 (B5, withdrawn: 0 -130).

Round 3, the change-over (XW-10) in the groups of tables 1-2, 3-4, 5-6, 7-8, 9-10 of round 2: the two
winners meet, the two losers meet (no pair has met before), tables group by group, winners first; who
starts: the one who started fewer (A1, who started both, plays right against A7), else the one who did
not start the game before (A10 v B6). As drawn: A7-A1, A6-A2, A9-A3, A8-A4, L-A5, A10-B6, B3-B10, B4-B9,
B1-B8, B2-B7. The exchange of B8 and B2 makes tables 9 and 10 B1-B2 and B8-B7 (neither pair met before):

  table  1       2            3       4       5                6       7        8       9       10
  board  A7-A1   A6-A2        A9-A3   A8-A4   L-A5             A10-B6  B3-B10   B4-B9   B1-B2   B8-B7
  score  300-450 365-365      340-370 400-340 A5 absent        390-310 330-375  280-400 310-380 345-380
  winner A1 +150 draw (1 GP   A3 +30  A8 +60  L, forfeit +100  A10 +80 B10 +45  B9 +120 B2 +70  B7 +35
                 each, 0)                     (XW-9, §10)

Final (GP = 2 a win, 1 a draw; spread summed over the rounds; XW-11 medal score):

  place player  games          GP  spread                      medal score
  1     A1      W W W          6   +250 +120 +150 = +520       60 + 5 = 65 bronze
  2     A3      W W W          6   +170  +40  +30 = +240       60 + 2 = 62 bronze
  3     B10     L W W          4    -30 +140  +45 = +155       50 + 1 = 51 certificate
  4     A9      W W L          4    +50 +110  -30 = +130       50 + 1 = 51 certificate
  5     L       - W W(forfeit) 4         +15 +100 = +115       50 + 1 = 51 certificate
  6     A5      W W L(forfeit) 4   +130  +70 -100 = +100       50 + 1 = 51 certificate
  7     A8      W L W          4    +70  -40  +60 =  +90       50 + 0 = 50 certificate
  8     A10     W L W          4    +30  -70  +80 =  +40       50 certificate
  9     A7      W W L          4    +90  +60 -150 =    0       50 certificate
  10    A2      W L D          3   +190  -60    0 = +130       40 + 5 + 1 = 46 certificate
  11    A6      W L D          3   +110 -120    0 =  -10       40 + 5 = 45 certificate
  12    B9      L L W          2    -50  -10 +120 =  +60       40 certificate
  13    B8      L W L          2    -70  +95  -35 =  -10       40 certificate
  14    A4      W L L          2   +150 -110  -60 =  -20       40 certificate
  15    B7      L L W          2    -90  -60  +35 = -115       40 - 1 = 39 certificate
  16    B3      L W L          2   -170  +10  -45 = -205       40 - 2 = 38 certificate
  17    B2      L L W          2   -190  -95  +70 = -215       38 certificate
  18    B1      L W L          2   -250  +60  -70 = -260       38 certificate
  19    B5      L (withdrawn)  0   -130                        none (0 wins)
  20    B6      L L L          0   -110  -15  -80 = -205       none
  21    B4      L L L          0   -150 -140 -120 = -410       none

No two players are level on GP and spread, so no place is shared. The event has 3 rounds and so no final
stage (docs/rules.md: an event of fewer rounds): the final standings are these, decided, every medal the
XW-11 band (no committee's four).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from urllib.parse import quote

import deskround as dr
from test_desk_e2e import ROWS, fill, status, submit

from gameclock.organiser.desk.app import create_app
from gameclock.organiser.store import Store
from gameclock.record import record_from_log

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dock"))

from devicekit import DeviceClock  # noqa: E402
from dockkit import PtyRelay  # noqa: E402

THAI = "ครอสเวิร์ด-ม.ปลาย-2568"
E = quote(THAI)
ORGANISER = "ครูสมศรี"       # the organiser's named account: every audit entry names it
PLAYERS = {
    "1": "กมล ใจดี", "2": "ขวัญใจ ศรีสุข", "3": "จิราพร วงศ์ทอง", "4": "ชนินทร์ มีสุข", "5": "ณัฐพล ดีเลิศ",
    "6": "ดวงใจ แก้วงาม", "7": "ธนพล ทองดี", "8": "นภัสสร ใจงาม", "9": "บุญมี รักเรียน", "10": "ปิยะ ใจกล้า",
    "11": "พรทิพย์ สายทอง", "12": "ภานุ ศรีวงศ์", "13": "มาลี บุญมา", "14": "ยุทธนา แสงทอง", "15": "รัตนา พูลสุข",
    "16": "วิชัย ชัยมงคล", "17": "ศิริพร ทองคำ", "18": "สมชาย ใจเย็น", "19": "อนันต์ ศรีสวัสดิ์", "20": "อรุณี แก้วใส",
}
LATE_ID, LATE_NAME = "21", "ณัฐวุฒิ มาสาย"
SPARE, SPARE_KEY = "00000000c10c0004", bytes([44]) * 32   # the real clock end docked at the desk (enrolled)
TABLES = 10
DEAD = 4           # round 1: the table whose clock dies
WITHDRAWN = "B5"   # after round 1
FACTORY = 3        # round 2: the table whose clock was reset to its factory settings (Event 1, round 1, table 1)
WRONG, SET_TO = 9, 8   # round 2: the clock of table 9 was set to table 8
FORFEIT = 5        # round 3: A5 (right) does not come
SPARE_ROW = f'[data-testid=port-row][data-serial="{SPARE}"]'   # the spare clock on the clocks page

# the module docstring's tables: round 1 by table (left wins), rounds 2 and 3 by board (left, right, scores)
R1 = {1: (520, 210), 2: (455, 265), 3: (430, 260), 5: (400, 270), 6: (380, 270), 7: (370, 280), 8: (360, 290),
      9: (350, 300), 10: (340, 310)}
R2 = {1: ("A1", "A6", 400, 280), 2: ("A2", "A7", 330, 390), 3: ("A3", "A8", 380, 340), 4: ("A4", "A9", 300, 410),
      5: ("A5", "A10", 390, 320), 6: ("B6", "L", 360, 375), 7: ("B10", "B4", 410, 270), 8: ("B9", "B3", 350, 360),
      9: ("B8", "B2", 405, 310), 10: ("B7", "B1", 320, 380)}
R3_DRAWN = {1: ("A7", "A1"), 2: ("A6", "A2"), 3: ("A9", "A3"), 4: ("A8", "A4"), 5: ("L", "A5"), 6: ("A10", "B6"),
            7: ("B3", "B10"), 8: ("B4", "B9"), 9: ("B1", "B8"), 10: ("B2", "B7")}
R3 = {1: ("A7", "A1", 300, 450), 2: ("A6", "A2", 365, 365), 3: ("A9", "A3", 340, 370), 4: ("A8", "A4", 400, 340),
      6: ("A10", "B6", 390, 310), 7: ("B3", "B10", 330, 375), 8: ("B4", "B9", 280, 400), 9: ("B1", "B2", 310, 380),
      10: ("B8", "B7", 345, 380)}
FINAL = [  # place, player, GP, spread, medal score, medal
    ("1", "A1", 6, 520, 65, "bronze"), ("2", "A3", 6, 240, 62, "bronze"), ("3", "B10", 4, 155, 51, "certificate"),
    ("4", "A9", 4, 130, 51, "certificate"), ("5", "L", 4, 115, 51, "certificate"),
    ("6", "A5", 4, 100, 51, "certificate"), ("7", "A8", 4, 90, 50, "certificate"),
    ("8", "A10", 4, 40, 50, "certificate"), ("9", "A7", 4, 0, 50, "certificate"),
    ("10", "A2", 3, 130, 46, "certificate"), ("11", "A6", 3, -10, 45, "certificate"),
    ("12", "B9", 2, 60, 40, "certificate"), ("13", "B8", 2, -10, 40, "certificate"),
    ("14", "A4", 2, -20, 40, "certificate"), ("15", "B7", 2, -115, 39, "certificate"),
    ("16", "B3", 2, -205, 38, "certificate"), ("17", "B2", 2, -215, 38, "certificate"),
    ("18", "B1", 2, -260, 38, "certificate"), ("19", "B5", 0, -130, None, ""), ("20", "B6", 0, -205, None, ""),
    ("21", "B4", 0, -410, None, ""),
]
FINAL_ROWS = """return [...document.querySelectorAll('[data-testid=final-row]')].map(
  r => [r.dataset.place, r.dataset.player, r.dataset.medal, r.dataset.provisional,
        ...[...r.querySelectorAll('td')].slice(-3).map(td => td.textContent.trim())]);"""
STATES = """return [...document.querySelectorAll('[data-testid=progress-row]')].map(
  tr => [tr.dataset.table, tr.querySelector('[data-testid=state]').dataset.state]);"""


def said(b) -> str:
    """What the page says the form did (its success, or why it was refused)."""
    return b.text("[data-testid=message], [data-testid=error]") or ""


def type_in(b, selector: str, value: str) -> None:
    """Type `value` into the field `selector` (one of several fields of one name on the page)."""
    e = b.driver.find_element("css selector", selector)
    e.clear()
    e.send_keys(value)


def boards(b, rnd: int) -> dict[int, tuple[str, str]]:
    """Round `rnd`'s boards as the event's page shows them: {table: (left, right)}."""
    return {int(t): (left, right) for t, left, right in
            b.js(ROWS, f"[data-testid=round-{rnd}-boards] [data-testid=board-row]")}


def states(b, url: str, rnd: int) -> dict[int, str]:
    """{table: state} of the round's progress page."""
    b.get(f"{url}/admin/e/{E}/round/{rnd}")
    return {int(t): s for t, s in b.js(STATES)}


def signed_rows(store) -> list[tuple]:
    """Every stored signed result as its bytes: the record's JSON text, signature, key id, summary, when and
    where it came. Read through the desk's own connection (test_desk_e2e.store_of says why not another)."""
    return store._query("SELECT id, record, sig, kid, summary, received_at, source FROM results ORDER BY id")


def factory_record(seq: int, scores: tuple[int, int]) -> dict:
    """The record of round 2 table 3's game on a clock reset to its factory settings (Event 1, round 1, table
    1, no pairing, so no names): its clock's `seq`-th result, left A3's score."""
    lines = ["preset crossword", "level secondary", "event 1", "round 1", "table 1", "0 start left"]
    t = 0.0
    for _ in range(12):   # XW-2: left uses 12 x 100 s + 5 s, right 12 x 90 s: no overtime
        lines += [f"{t + 100:.1f} press left", f"{t + 190:.1f} press right"]
        t += 190
    lines += [f"{t + 5:.1f} finish", f"{t + 15:.1f} score left {scores[0]}", f"{t + 17:.1f} score right {scores[1]}",
              f"{t + 20:.1f} confirm left", f"{t + 21:.1f} confirm right"]
    start = dr.WALL0 + 3600.0 * 2 + 60.0 * FACTORY
    return record_from_log("\n".join(lines) + "\n", f"t{FACTORY}.log", dr.serial_of(FACTORY), seq, start, start + 3000)


def test_the_organisers_bad_day(browser, serve, tmp_path):
    t0 = time.monotonic()
    db = tmp_path / "organiser.db"
    with Store(db) as s:   # the clocks enrolled before the day (enrollment is tests/dock's and the clocks page's)
        for t in range(1, TABLES + 1):
            s.add_key(dr.serial_of(t), dr.key_of(t))
        s.add_key(SPARE, SPARE_KEY)
    dr.set_password(db, name=ORGANISER)
    with PtyRelay() as relay:
        app = create_app(db, interval=0.1, dock=[relay.path_b])
        desk = serve(app)
        spare = DeviceClock(relay.path_a, tmp_path / "spare", SPARE, SPARE_KEY)   # factory settings: Event 1
        try:
            with dr.Dock(db, tmp_path, ports=TABLES) as dock:
                day = BadDay(browser, desk.url, app.state.desk.store, spare, dock)
                day.the_event_and_the_spare_clock()
                day.round_1_published_to_the_docked_clock()
                day.round_1_played_and_the_dead_clocks_game_entered_by_hand()
                day.a_withdrawal_and_a_late_entry()
                day.round_2_with_two_wrong_uploads_moved()
                day.round_3_with_one_draft_in_two_windows()
                day.the_final_standings()
                assert dock.close() == 0
        finally:
            spare.close()
            browser.get("about:blank")   # the pages' live streams closed before the desk stops
            desk.stop()
        assert relay.error is None and spare.error is None
    assert time.monotonic() - t0 < 90


class BadDay:
    """The organiser at the desk (`b`, logged in by `the_event_and_the_spare_clock`) and the clocks at the
    tables, one phase of the day a method; who sat where is read from what the desk published (`role`:
    A1.. B10, L -> name; `pid`: name -> id)."""

    def __init__(self, b, url: str, store, spare: DeviceClock, dock: dr.Dock):
        self.b, self.url, self.store, self.spare, self.dock = b, url, store, spare, dock
        self.role: dict[str, str] = {"L": LATE_NAME}
        self.pid = {name: k for k, name in PLAYERS.items()} | {LATE_NAME: LATE_ID}
        self.seq = dict.fromkeys(range(1, TABLES + 1), 0)   # each clock's results so far
        self.sent: dict[str, dict] = {}                      # every signed record the clocks sent, by id
        self.rows_before: list[tuple] = []

    def names(self, *roles: str) -> list[str]:
        return [self.role[r] for r in roles]

    def play(self, clock: int, rnd: int, left: str, right: str, scores: tuple[int, int],
             at: int | None = None) -> None:
        """The clock of table `clock` docks with its game's signed record (at table `at`, default its own,
        with the players the PC pushed it there) and is acked."""
        at = at or clock
        self.seq[clock] += 1
        start = dr.WALL0 + 3600.0 * rnd + 60.0 * clock
        game = dr.Game((100.0,) * 12, (90.0,) * 12, *scores)   # XW-2: no overtime on either side
        rec = record_from_log(dr.game_log(THAI, rnd, at, left, right, game), f"t{clock}.log", dr.serial_of(clock),
                              self.seq[clock], start, start + 3000.0)
        c = self.dock.dock(clock, [rec], event=THAI, rnd=rnd, at=at)
        assert c.pairings[-1]["players"] == {"left": left, "right": right}   # what the PC pushed it
        self.sent[rec["id"]] = rec

    def pair(self) -> str:
        self.b.get(f"{self.url}/admin/e/{E}")
        submit(self.b, "[data-testid=pair]")
        return said(self.b)

    # ------------------------------------------------------------------ the event, the spare clock assigned
    def the_event_and_the_spare_clock(self) -> None:
        b, url = self.b, self.url
        b.get(f"{url}/login?next=/admin")
        fill(b, "name", ORGANISER)
        fill(b, "password", dr.PASSWORD)
        submit(b, "[data-testid=login]")
        assert b.js("return location.pathname;") == "/admin"
        b.get(f"{url}/admin/events/new")
        fill(b, "name", THAI)
        for field, value in (("system", "xw10"), ("preset", "crossword"), ("level", "secondary"),
                             ("language", "en"), ("format", "csv")):
            b.js(f"document.querySelector('[name={field}]').value = arguments[0];", value)
        fill(b, "rounds", "3")
        fill(b, "players", "id,name\n" + "".join(f"{k},{v}\n" for k, v in PLAYERS.items()))
        submit(b, "[data-testid=create-event]")
        assert said(b).startswith(f"event {THAI} created: 20 players, system xw10"), b.text("main")

        end = time.monotonic() + 20
        while True:   # the clocks page, until the spare clock is docked there (shown once it said hello)
            b.get(f"{url}/admin/clocks")
            if b.js(f"return document.querySelector('{SPARE_ROW} [data-testid=assign-form]') !== null;"):
                break
            assert time.monotonic() < end, b.text("main")
            time.sleep(0.2)
        b.js(f"document.querySelector('{SPARE_ROW} [name=event]').value = arguments[0];", THAI)
        type_in(b, f"{SPARE_ROW} [name=table]", str(DEAD))
        submit(b, f"{SPARE_ROW} [data-testid=assign]")
        assert said(b) == f"{SPARE}: {THAI} table {DEAD}"
        assert b.text(f"{SPARE_ROW} [data-testid=assigned]") == f"{THAI} · {DEAD}"
        assert "players" not in self.spare.info()        # nothing published yet: nothing to push

    # ------------------------------------------------------------------ round 1
    def round_1_published_to_the_docked_clock(self) -> None:
        b = self.b
        assert self.pair().startswith("round 1: draft drawn (seed"), said(b)
        submit(b, "[data-testid=publish]")
        assert said(b) == "round 1 published"
        r1 = boards(b, 1)
        assert sorted(r1) == list(range(1, TABLES + 1))   # XW-10 game 1: 20 players, 10 tables, no bye
        assert sorted(p for pair in r1.values() for p in pair) == sorted(PLAYERS.values())
        for t, (left, right) in r1.items():
            self.role[f"A{t}"], self.role[f"B{t}"] = left, right
        # the spare clock, docked since before Publish, gets its table's pairing where it is (its own settings
        # say Event 1, table 1: the assignment is the PC's)
        info = self.spare.wait(lambda i: "players" in i, what="the docked clock: round 1 not received")
        assert (info["event"], info["round"], info["table"]) == (THAI, 1, DEAD)
        assert [info["players"]["left"], info["players"]["right"]] == self.names(f"A{DEAD}", f"B{DEAD}")
        b.get(f"{self.url}/admin/clocks")
        assert b.js(f"return document.querySelector('{SPARE_ROW} [data-testid=pushed]').dataset.state;") == "taken"
        self.spare.close()                                # and then its battery dies

    def round_1_played_and_the_dead_clocks_game_entered_by_hand(self) -> None:
        b, url = self.b, self.url
        for t, scores in R1.items():
            self.play(t, 1, *self.names(f"A{t}", f"B{t}"), scores)
        assert states(b, url, 1) == dict.fromkeys(R1, "uploaded") | {DEAD: "waiting"}
        # the dead clock blocks the round
        assert self.pair() == f"{THAI}: no result yet for round 1 table {DEAD} (dock their clocks first)"

        b.get(f"{url}/admin/e/{E}/round/1")
        submit(b, f'[data-testid=progress-row][data-table="{DEAD}"] [data-testid=enter-by-hand]')
        assert b.js("return location.pathname;") == f"/admin/e/{E}/round/1/table/{DEAD}"
        assert b.js("return document.querySelector('[name=level]').value;") == "secondary"   # the event's
        fill(b, "score_left", "430")
        fill(b, "score_right", "260")
        fill(b, "overtime_left", "1:10")
        why = "clock 4's battery died; score slip signed by both players"
        fill(b, "reason", why)
        submit(b, "[data-testid=hand-save]")
        assert said(b) == f"round 1 table {DEAD}: the hand entry is saved"
        left, right = self.names(f"A{DEAD}", f"B{DEAD}")
        # after: the table counts the hand entry (before: waiting, no result). XW-3: 1:10 over is 2 started
        # minutes, 20 off 430; XW-6: the winner's 2 GP
        row = b.js(ROWS, f'[data-testid=progress-row][data-table="{DEAD}"]')[0]
        assert row[1:5] == [left, right, "hand", f"{left} wins 410-260"], row
        assert states(b, url, 1) == dict.fromkeys(range(1, TABLES + 1), "uploaded") | {DEAD: "hand"}
        # audited: who, when, why, what was entered (the organiser's record, never a clock's)
        [h] = self.store.hand_trail(THAI, 1, DEAD)
        assert (h["by"], h["reason"], h["withdraws"]) == (ORGANISER, why, None)
        rec = h["record"]
        assert rec["entered"] == "hand" and rec["players"] == {"left": left, "right": right}
        assert rec["scores"]["penalties"] == {"left": 20, "right": 0}                 # XW-3
        assert rec["scores"]["final"] == {"left": 410, "right": 260}
        assert rec["scores"]["spread"] == {"left": 150, "right": -150}                # under XW-8's 250
        assert rec["sides"]["left"]["overtime_ms"] == 70_000
        b.get(f"{url}/admin/e/{E}/round/1/table/{DEAD}")
        trail = b.js(ROWS, "[data-testid=hand-trail-row]")
        assert [[r[0], r[3], r[4], r[5]] for r in trail] == [
            [h["id"], ORGANISER, "level secondary score left 430 score right 260", why]]
        b.get(f"{url}/admin/results/{h['id']}")
        assert b.text("[data-testid=hand-who]").startswith(f"Entered by {ORGANISER} · ")
        assert why in b.text("[data-testid=hand-who]")
        assert b.text("[data-testid=hand-overtime]") == "Overtime: 70.0 s / 0.0 s"

    # ------------------------------------------------------------------ a withdrawal, a late entry
    def a_withdrawal_and_a_late_entry(self) -> None:
        b, url, pid = self.b, self.url, self.pid
        gone = self.role[WITHDRAWN]
        b.get(f"{url}/admin/e/{E}/players/{pid[gone]}")
        why_gone = "went home ill after round 1"
        type_in(b, "[data-testid=withdraw-player-form] [name=reason]", why_gone)
        submit(b, "[data-testid=withdraw-player]")
        assert said(b) == f"{pid[gone]} {gone} withdrawn after round 1"
        b.get(f"{url}/admin/e/{E}/players/new")
        # docs/rules.md §9: joins the next round, the rounds missed score nothing
        assert b.text("[data-testid=late-rule]") == ("The player joins round 2. The rounds missed score nothing: "
                                                      "no game, no bye, no points (docs/rules.md).")
        fill(b, "id", LATE_ID)
        fill(b, "name", LATE_NAME)
        why_late = "arrived after round 1 (the bus was late)"
        fill(b, "reason", why_late)
        submit(b, "[data-testid=add-late]")
        assert said(b) == f"{LATE_ID} {LATE_NAME} joins round 2 (round 1 missed: no points)"
        # the players' audit trail: who, the player, what, before » after, why
        changes = [r[:1] + r[2:] for r in b.js(ROWS, "[data-testid=player-change-row]")]
        assert changes == [
            ["1", ORGANISER, f"{pid[gone]} {gone}", "withdrawn", "plays » withdrawn after round 1", why_gone],
            ["2", ORGANISER, f"{LATE_ID} {LATE_NAME}", "late entry", f"– » {LATE_ID} {LATE_NAME}, joins round 2",
             why_late]]
        assert [(c["by"], c["reason"]) for c in self.store.player_changes(THAI)] == [
            (ORGANISER, why_gone), (ORGANISER, why_late)]

    # ------------------------------------------------------------------ round 2: two wrong uploads
    def round_2_with_two_wrong_uploads_moved(self) -> None:
        b, url, store, role = self.b, self.url, self.store, self.role
        assert self.pair().startswith("round 2: draft drawn"), said(b)
        submit(b, "[data-testid=publish]")
        assert said(b) == "round 2 published"
        r2 = boards(b, 2)
        assert r2 == {t: (role[a], role[c]) for t, (a, c, _, _) in R2.items()}   # the Swiss worked by hand
        assert role[WITHDRAWN] not in {p for pair in r2.values() for p in pair}     # not paired (§9)
        for t, (left, right, ls, rs) in R2.items():
            if t == FACTORY:     # no pairing for Event 1: the clock docks, its result is acked, nothing pushed
                self.seq[t] += 1
                rec = factory_record(self.seq[t], (ls, rs))
                assert self.dock.dock(t, [rec], event="1", rnd=1, at=1, pairing=False).pairings == []
                self.sent[rec["id"]] = rec
            elif t == WRONG:     # set to table 8: pushed table 8's names, its players those of table 9
                self.play(t, 2, *r2[SET_TO], (ls, rs), at=SET_TO)
            else:
                self.play(t, 2, role[left], role[right], (ls, rs))
        wrong_table = f"{dr.serial_of(WRONG)}-000002"
        wrong_event = f"{dr.serial_of(FACTORY)}-000002"
        own_8 = f"{dr.serial_of(SET_TO)}-000002"
        # table 8 has two results for one game (neither counts), tables 3 and 9 none
        assert states(b, url, 2) == dict.fromkeys(range(1, TABLES + 1), "uploaded") | {
            SET_TO: "look", WRONG: "waiting", FACTORY: "waiting"}
        b.get(f"{url}/admin/uploads")
        held = b.js("""return [...document.querySelectorAll('[data-testid=held-row]')].map(
            tr => [tr.dataset.id, tr.dataset.why, tr.cells[3].textContent]);""")
        assert sorted(held) == [[own_8, "double", "two results for one game"],
                                [wrong_table, "double", "two results for one game"]], held
        unknown = b.js(ROWS, "[data-testid=unknown-row]")
        assert [r[0].split()[0] for r in unknown] == [wrong_event]
        assert unknown[0][1] == "Event 1 · Round 1 · Table 1"
        assert unknown[0][2].startswith(f"{dr.serial_of(FACTORY)} · ")   # the clock that sent it
        b.get(f"{url}/")
        assert b.js(ROWS, "[data-testid=events] li", "a") == [["1"], [THAI]]   # the phantom event
        assert self.pair() == (f"{THAI}: no result yet for round 2 table 3, round 2 table 8 (result {own_8}: two "
                               f"results for one game; result {wrong_table}: two results for one game), round 2 "
                               "table 9 (dock their clocks first)")
        assert [r["round"] for r in store.event_rounds(THAI)] == [1, 2]          # nothing paired over them

        self.rows_before = signed_rows(store)
        moves = {wrong_table: (WRONG, "the clock of table 9 was set to table 8: score slip of table 9"),
                 wrong_event: (FACTORY, "the clock of table 3 was reset to its factory settings")}
        trails = {}
        for rid, (table, why) in moves.items():
            b.get(f"{url}/admin/results/{rid}")
            b.js("document.querySelector('[data-testid=move-form] [name=event]').value = arguments[0];", THAI)
            type_in(b, "[data-testid=move-form] [name=round]", "2")
            type_in(b, "[data-testid=move-form] [name=table]", str(table))
            type_in(b, "[data-testid=move-form] [name=reason]", why)
            submit(b, "[data-testid=move]")
            assert said(b) == f"{rid} now counts at round 2 table {table} of {THAI}"
            trails[rid] = [r[2:5] for r in b.js(ROWS, "[data-testid=amendment-row]")]
        # the moves' audit: who, what changed (before » after), why; each takes its table's players as published
        b8, b2, b9, b3 = self.names("B8", "B2", "B9", "B3")
        assert trails[wrong_table] == [[ORGANISER, f"Table: 8 » 9Left player: {b9} » {b8}Right player: {b3} » {b2}",
                                        moves[wrong_table][1]]]
        assert trails[wrong_event] == [[ORGANISER, f"Event: 1 » {THAI}Round: 1 » 2Table: 1 » 3Left player: – » "
                                        f"{role['A3']}Right player: – » {role['A8']}", moves[wrong_event][1]]]
        assert [(a["by"], a["changes"]) for a in store.amendments(wrong_event)] == [
            (ORGANISER, {"event": THAI, "round": 2, "table": 3, "players.left": role["A3"],
                         "players.right": role["A8"]})]
        assert states(b, url, 2) == dict.fromkeys(range(1, TABLES + 1), "uploaded")
        b.get(f"{url}/admin/uploads")
        assert b.js(ROWS, "[data-testid=held-table] tr") == [["None."]]
        assert b.js(ROWS, "[data-testid=unknown-table] tr") == [["None."]]
        b.get(f"{url}/")
        assert b.js(ROWS, "[data-testid=events] li", "a") == [[THAI]]          # the phantom event is gone
        assert signed_rows(store) == self.rows_before                            # not a byte of a signed record

    # ------------------------------------------------------------------ round 3: one draft, two windows
    def round_3_with_one_draft_in_two_windows(self) -> None:
        b, url, role, pid = self.b, self.url, self.role, self.pid
        assert self.pair().startswith("round 3: draft drawn"), said(b)
        drawn = {t: (role[a], role[c]) for t, (a, c) in R3_DRAWN.items()}
        assert boards(b, 3) == drawn                          # the change-over worked by hand
        b1, b2, b7, b8 = self.names("B1", "B2", "B7", "B8")
        first = b.driver.current_window_handle
        b.driver.switch_to.new_window("window")
        second = b.driver.current_window_handle
        b.get(f"{url}/admin/e/{E}")
        type_in(b, "[data-testid=fix-draft] [name=p]", pid[b8])
        type_in(b, "[data-testid=fix-draft] [name=q]", pid[b2])
        submit(b, "[data-testid=exchange]")
        assert said(b) == "round 3: draft changed"
        b.driver.switch_to.window(first)            # still showing the draft as drawn
        submit(b, "[data-testid=publish]")
        assert status(b) == 409 and b.text("[data-testid=draft-changed]") == (
            "Refused: the draft changed since this page showed it. Nothing was done.")
        assert b.js(ROWS, "[data-testid=draft-difference] tbody tr") == [
            ["9", f"{b1} v {b8} » {b1} v {b2}"], ["10", f"{b2} v {b7} » {b8} v {b7}"]]
        steps = b.js(ROWS, "[data-testid=draft-steps] tbody tr")
        assert [s[2:] for s in steps] == [[ORGANISER, f"{pid[b8]} and {pid[b2]} exchanged by the organiser"]]
        assert [(r["round"], r["state"]) for r in self.store.event_rounds(THAI)] == [
            (1, "published"), (2, "published"), (3, "draft")]   # nothing published
        b.driver.find_element("css selector", "[data-testid=look-again]").click()
        b.wait_for("document.readyState === 'complete' && document.querySelector('[data-testid=publish]') !== null")
        submit(b, "[data-testid=publish]")
        assert said(b) == "round 3 published"
        r3 = boards(b, 3)
        assert r3 == drawn | {9: (b1, b2), 10: (b8, b7)}
        assert role[WITHDRAWN] not in {p for pair in r3.values() for p in pair}
        b.driver.switch_to.window(second)
        b.driver.close()
        b.driver.switch_to.window(first)

        for t, (left, right, ls, rs) in R3.items():
            self.play(t, 3, role[left], role[right], (ls, rs))
        # A5 does not come: a forfeit, from the same form
        b.get(f"{url}/admin/e/{E}/round/3/table/{FORFEIT}")
        b.driver.find_element("css selector", "[name=absent][value=right]").click()
        fill(b, "reason", "did not come (15 minutes late)")
        submit(b, "[data-testid=hand-save]")
        assert said(b) == f"round 3 table {FORFEIT}: the hand entry is saved"
        assert states(b, url, 3) == dict.fromkeys(range(1, TABLES + 1), "uploaded") | {FORFEIT: "hand"}
        [f] = self.store.hand_trail(THAI, 3, FORFEIT)
        assert f["by"] == ORGANISER and f["record"]["forfeit"] is True
        assert f["record"]["scores"]["spread"] == {"left": 100, "right": -100}          # XW-9, docs/rules.md §10
        assert f["record"]["scores"]["game_points"] == {"left": 2, "right": 0}          # XW-6
        assert self.pair() == f"{THAI}: all 3 rounds are published"

    # ------------------------------------------------------------------ the final standings, worked by hand
    def the_final_standings(self) -> None:
        b, url, role = self.b, self.url, self.role
        b.get(f"{url}/e/{E}/final")
        assert b.js("return document.querySelector('[data-testid=final-state]').dataset.decided;") == "yes"
        assert b.js(FINAL_ROWS) == [[place, role[who], medal, "no", str(gp), str(spread),
                                     "" if ms is None else str(ms)] for place, who, gp, spread, ms, medal in FINAL]
        b.get(f"{url}/e/{E}/standings")
        notes = b.js("return [...document.querySelectorAll('[data-testid=standings-notes] li')]"
                     ".map(li => li.textContent);")
        assert f"{role[WITHDRAWN]}: withdrawn after round 1" in notes, notes
        assert f"{LATE_NAME}: joined in round 2" in notes, notes
        # §9: the late entrant's missed round is no game and no bye: 2 games, 2 wins (one a forfeit), 0 byes
        late = b.js(ROWS, f'[data-testid=live-standings] [data-testid=standings-row][data-player="{LATE_NAME}"]')
        assert late[0][2:9] == ["2", "2", "0", "0", "0", "4", "115"], late

        # what every clock signed is stored as it sent it; no signed record's bytes changed since the moves
        assert {r["id"]: r for r in self.store.results()} == self.sent
        now = signed_rows(self.store)
        assert [r for r in now if r[0] in {x[0] for x in self.rows_before}] == self.rows_before
        assert len(now) == len(self.sent) == 9 + 10 + 9
