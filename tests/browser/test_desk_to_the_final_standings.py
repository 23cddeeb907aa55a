"""Issue 25's acceptance, in headless Chromium: "A browser test drives one knockout and one round robin
from the desk to the final standings page." The desk (a real uvicorn) over a fresh organiser's
database; the organiser creates the event with the desk's New event form (the player list pasted),
then Pair and Publish in the browser, round after round; each round's results come from enrolled
clocks docking over ptys with a real `gameclock receive` child process (tests/browser/deskround.py
Dock): the signed records the clocks build from their games' event logs (`record_from_log`), each
game at the table, game number and stage the PC pushed. Pair is pressed until the desk says the
event is over; then the public final standings page (/e/EVENT/final) shows the places worked by hand
below from the rules cited.

The desk draws at random (its Pair gives no seed), so who meets whom is read from what it published,
and every game's result is fixed by the PLAYERS (their list ids), never by the seat: the places then
follow from the rules whatever the draw.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import deskround as dr

from gameclock.organiser.desk.app import create_app
from gameclock.record import record_from_log

TABLES = 3
ROWS = """return [...document.querySelectorAll('[data-testid=final-row]')].map(
  r => [r.dataset.place, r.dataset.player, r.dataset.medal, r.dataset.provisional]);"""


def player_list(names: dict[str, str]) -> str:
    return "id,name\n" + "".join(f"{pid},{name}\n" for pid, name in names.items())


def game_log(event: str, rnd: int, table: int, game: int, stage: str, left: str, right: str, outcome: str) -> str:
    """A Makruk game's event log as the clock at `table` keeps it (makruk-30: 30:00 a side, MR-1): the
    pairing pushed to it (event, round, table, game, stage, players), left moving first, 20 moves each of
    a minute, the result entered (`outcome`: left, right or draw; a win by resignation, a draw agreed,
    MR-3), the pieces left (MR-9: both record them) and both players' confirmations."""
    lines = ["preset makruk-30", f"event {event}", f"round {rnd}", f"table {table}", f"game {game}",
             f"stage {stage}", f"player left {left}", f"player right {right}", "0 start left"]
    t = 0
    for _ in range(20):
        lines += [f"{t + 60} press left", f"{t + 120} press right"]
        t += 120
    reason = "agreement" if outcome == "draw" else "resignation"
    lines += [f"{t + 5} finish", f"{t + 10} outcome {outcome} {reason}", f"{t + 11} material left RM",
              f"{t + 12} material right RM", f"{t + 13} confirm left", f"{t + 14} confirm right"]
    return "\n".join(lines) + "\n"


class Desk:
    """The organiser in the browser and the clocks at the tables, for one event."""

    def __init__(self, b, url: str, store, dock: dr.Dock, event: str, names: dict[str, str]):
        self.b, self.url, self.store, self.dock, self.event = b, url, store, dock, event
        self.id_of = {name: pid for pid, name in names.items()}
        self.seq = dict.fromkeys(range(1, TABLES + 1), 0)     # each clock's results so far
        self.boards: list[tuple[int, int, str, str, int]] = []   # (round, table, left id, right id, game)

    def create(self, system: str, players: str, options: str = "") -> None:
        """The New event form: name, system, preset, language, options, the list pasted (CSV)."""
        b = self.b
        b.get(f"{self.url}/admin/events/new")
        fill(b, "name", self.event)
        for field, value in (("system", system), ("preset", "makruk-30"), ("language", "en"), ("format", "csv")):
            b.js(f"document.querySelector('[name={field}]').value = arguments[0];", value)
        fill(b, "options", options)
        fill(b, "players", players)
        submit(b, "[data-testid=create-event]")
        assert where(b) == f"/admin/e/{self.event}", b.text("main")
        assert b.text("[data-testid=message]").startswith(f"event {self.event} created: ")

    def pair_and_publish(self) -> int | str:
        """Pair, then Publish the draft: the round published; or, when Pair refuses, what the desk says."""
        b = self.b
        submit(b, "[data-testid=pair]")
        said = b.text("[data-testid=message], [data-testid=error]")
        if "draft drawn" not in said:
            return said
        rnd = int(said.split(":")[0].removeprefix("round "))
        submit(b, "[data-testid=publish]")
        assert b.text("[data-testid=message]") == f"round {rnd} published"
        return rnd

    def play(self, rnd: int, winner: Callable[[str, str, int, str], str]) -> None:
        """Every table of round `rnd` as the PC pushed it: its clock docks with the game's signed record,
        the result `winner(left id, right id, game, note)`: "left", "right" or "draw"."""
        notes = {r["round"]: {b["table"]: b["note"] for b in r["boards"]} for r in self.store.event_rounds(self.event)}
        for p in sorted((p for p in self.store.pairings() if p["event"] == self.event and p["round"] == rnd),
                        key=lambda p: p["table"]):
            t, game, left, right = p["table"], p.get("game") or 1, p["players"]["left"], p["players"]["right"]
            lid, rid = self.id_of[left], self.id_of[right]
            self.boards.append((rnd, t, lid, rid, game))
            self.seq[t] += 1
            start = dr.WALL0 + 3600.0 * rnd + 60.0 * t
            record = record_from_log(game_log(self.event, rnd, t, game, p["stage"], left, right,
                                              winner(lid, rid, game, notes[rnd][t])),
                                     f"t{t}.log", dr.serial_of(t), self.seq[t], start, start + 2500.0)
            self.dock.dock(t, [record], event=self.event, rnd=rnd)

    def to_the_end(self, winner: Callable[[str, str, int, str], str],
                   after: Callable[[int], None] = lambda rnd: None) -> str:
        """Pair, Publish and play until Pair says the event is over (`after(round)` once each round is
        played); what the desk says then."""
        while True:
            rnd = self.pair_and_publish()
            if isinstance(rnd, str):
                return rnd
            self.play(rnd, winner)
            after(rnd)
            self.b.get(f"{self.url}/admin/e/{self.event}")

    def standings_notes(self) -> list[str]:
        """The public standings page's notes."""
        self.b.get(f"{self.url}/e/{self.event}/standings")
        self.b.wait_for("document.readyState === 'complete'")
        return self.b.js("return [...document.querySelectorAll('[data-testid=standings-notes] li')].map(li => li.textContent.trim());")

    def final(self) -> tuple[str, list[list[str]]]:
        """The public final standings page: its state (decided yes/no) and its rows (place, player, medal,
        provisional)."""
        b = self.b
        b.get(f"{self.url}/e/{self.event}/final")
        b.wait_for("document.readyState === 'complete'")
        return (b.js("return document.querySelector('[data-testid=final-state]').dataset.decided;"), b.js(ROWS))


def fill(b, name: str, value: str) -> None:
    e = b.driver.find_element("css selector", f"[name={name}]")
    e.clear()
    if value:
        e.send_keys(value)


def submit(b, selector: str) -> None:
    """Click the form's button and wait for the page it leads to (a new document)."""
    b.js("window.__leaving = true;")
    b.driver.find_element("css selector", selector).click()
    b.wait_for("window.__leaving === undefined && document.readyState === 'complete'", timeout=10)


def where(b) -> str:
    return b.js("return location.pathname;")


def open_desk(tmp_path, serve, browser):
    """A fresh database (the clocks of tables 1-3 enrolled, the organiser's password set), the desk on
    it, the organiser logged in; (the desk's url, the desk's own Store: deskround.store_of says why)."""
    db = tmp_path / "organiser.db"
    from gameclock.organiser.store import Store

    with Store(db) as store:
        for t in range(1, TABLES + 1):
            store.add_key(dr.serial_of(t), dr.key_of(t))
    dr.set_password(db)
    app = create_app(db, interval=0.1)
    url = serve(app).url
    browser.get(f"{url}/login?next=/admin")
    fill(browser, "name", dr.ORGANISER)
    fill(browser, "password", dr.PASSWORD)
    submit(browser, "[data-testid=login]")
    assert where(browser) == "/admin"
    return db, url, app.state.desk.store


# ------------------------------------------------------------------------------------------ MR-12
KO = {"1": "Somchai Jaidee", "2": "Malee Srisuk", "3": "Anan Wongthong", "4": "Boonmee Meesuk"}


def test_a_makruk_knockout_from_the_desk_to_its_final_standings(browser, serve, tmp_path):
    """MR-12 (seed 003 Makruk §1 and note), makruk-ko, 4 players: semi-finals of 2 games (the sides
    swapped for game 2), game points 2/1/0 (MR-9); the final tied after 2 games plays a third (MR-12);
    no third-place match (seed 003 plays none: the semi-finals' losers share third).
    Results, by list id: 1 wins every game of its semi-final (4-0). The other semi-final: game 1 drawn,
    game 2 won by the lower id, L (3-1). The final 1 v L: games 1 and 2 each won by the player who
    starts (1-1 in games, 2-2 in points: tied), so MR-12 plays a third game, won by 1.
    Places: 1st player 1 (gold), 2nd L (silver), =3 the semi-finals' two losers (bronze each: medals by
    place, our decision, docs/rules.md)."""
    t0 = time.monotonic()
    db, url, store = open_desk(tmp_path, serve, browser)

    def winner(a: str, c: str, game: int, note: str) -> str:
        low = "left" if int(a) < int(c) else "right"
        if note.startswith("final"):
            return "left" if game in (1, 2) else low    # the starter wins games 1 and 2; then the lower id
        if "1" in (a, c) or game == 2:
            return low
        return "draw"

    seen: dict[int, list[str]] = {}

    def standings(rnd: int) -> None:
        if rnd <= 2:
            seen[rnd] = [n for n in desk.standings_notes() if n.startswith("semi-final")]

    with dr.Dock(db, tmp_path, ports=TABLES) as dock:
        desk = Desk(browser, url, store, dock, "ko-desk", KO)
        desk.create("makruk-ko", player_list(KO))
        over = desk.to_the_end(winner, standings)
    # the standings page after game 1 of the semi-finals (issue 25: it said "goes through" after one game):
    # both matches not decided, game 2 next (MR-12: 2 games); after game 2 both decided
    assert len(seen[1]) == 2 and all("(1 game(s)): not decided yet; next, game 2: game 2 of 2, sides swapped" in n
                                     for n in seen[1]), seen
    assert len(seen[2]) == 2 and all(n.endswith(" goes through") and "(2 game(s))" in n for n in seen[2]), seen
    assert "the knockout is over: 1 won the final" in over, over
    # what the desk published: 2 semi-finals of 2 games (rounds 1-2), the final's games 1-3 (rounds 3-5)
    assert [(rnd, game) for rnd, _, _, _, game in desk.boards] == [(1, 1), (1, 1), (2, 2), (2, 2), (3, 1), (4, 2),
                                                                   (5, 3)]
    semis = {frozenset((a, c)) for rnd, _, a, c, _ in desk.boards if rnd == 1}
    other = next(p for p in semis if "1" not in p)
    low, high = sorted(other, key=int)
    one_lost = next(iter(next(p for p in semis if "1" in p) - {"1"}))
    assert {frozenset((a, c)) for rnd, _, a, c, _ in desk.boards if rnd >= 3} == {frozenset(("1", low))}
    decided, rows = desk.final()
    assert decided == "yes"
    assert rows == [["1", KO["1"], "gold", "no"], ["2", KO[low], "silver", "no"]] + sorted(
        [["=3", KO[high], "bronze", "no"], ["=3", KO[one_lost], "bronze", "no"]], key=lambda r: r[1])
    assert time.monotonic() - t0 < 60


# ------------------------------------------------------------------------------------------ MR-10
RR = {"1": "Chaiwat Deelert", "2": "Duangjai Kaewngam", "3": "Ekkachai Thongdee", "4": "Fahsai Jai-ngam",
      "5": "Kanda Rakrian", "6": "Thanaphon Jaiklah"}
# every pair's game by list ids: the winner's id, or "draw"
RR_RESULTS = {("1", "2"): "1", ("1", "3"): "1", ("1", "4"): "1", ("1", "5"): "1", ("1", "6"): "1",
              ("2", "3"): "3", ("2", "4"): "2", ("2", "5"): "2", ("2", "6"): "2",
              ("3", "4"): "4", ("3", "5"): "3", ("3", "6"): "3",
              ("4", "5"): "draw", ("4", "6"): "4", ("5", "6"): "draw"}


def test_a_makruk_round_robin_from_the_desk_to_its_final_standings(browser, serve, tmp_path):
    """MR-10 (seed 001 §5), makruk-rr, 6 players: a round robin (Berger, 5 rounds, each pair once),
    MP 2/1/0 a game (MR-9), ranked by MP, then head-to-head, then the pieces left, then shared.
    RR_RESULTS worked by hand:
      1 wins all five: 10 MP
      2 beats 4, 5, 6, loses to 1 and 3: 6          3 beats 2, 5, 6, loses to 1 and 4: 6
      4 beats 3 and 6, draws 5, loses to 1 and 2: 5  5 draws 4 and 6: 2      6 draws 5: 1
    2 and 3 are level on 6 MP: head-to-head (MR-10's second criterion), 3 beat 2: 3 above 2.
    Places: 1 (gold), 3 (silver), 2 (bronze), 4, 5, 6 (medals by place: our decision, docs/rules.md)."""
    t0 = time.monotonic()
    db, url, store = open_desk(tmp_path, serve, browser)

    def winner(a: str, c: str, game: int, note: str) -> str:
        w = RR_RESULTS[tuple(sorted((a, c), key=int))]
        return "draw" if w == "draw" else "left" if w == a else "right"

    with dr.Dock(db, tmp_path, ports=TABLES) as dock:
        desk = Desk(browser, url, store, dock, "rr-desk", RR)
        desk.create("makruk-rr", player_list(RR))
        over = desk.to_the_end(winner)
    assert over == "rr-desk: the round robin is over: all 5 rounds of the Berger table are published", over
    # MR-10: every pair met once, in 5 rounds of 3 tables
    met = [frozenset((a, c)) for _, _, a, c, _ in desk.boards]
    assert len(met) == 15 and set(met) == {frozenset(p) for p in RR_RESULTS}
    assert sorted({rnd for rnd, *_ in desk.boards}) == [1, 2, 3, 4, 5]
    decided, rows = desk.final()
    assert decided == "yes"
    assert rows == [["1", RR["1"], "gold", "no"], ["2", RR["3"], "silver", "no"], ["3", RR["2"], "bronze", "no"],
                    ["4", RR["4"], "", "no"], ["5", RR["5"], "", "no"], ["6", RR["6"], "", "no"]]
    assert time.monotonic() - t0 < 60
