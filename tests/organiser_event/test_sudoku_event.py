"""A 12-competitor Sudoku event run by the PC from round 1 to its final (issue 25, SU-1..SU-4), through
the paths the desk's Pair and Publish and `gameclock pair` take (`event.draw`, `event.publish`), with
the results stored as a Sudoku clock records them: no winner and no game points (docs/result-record.md
`outcome`: "null for Sudoku"), each competitor's `scores.final` = the puzzles' points (SU-2) plus the
SU-3 bonus, and a competitor seated alone at a clock recorded without names (nothing is pushed to that
clock: the arbiter starts it by hand).

Hand-worked event (seed 000 §4.1: two 60-minute rounds; §4.3: 3 points per whole minute left, only when
every puzzle is correct; §2: the top five of the qualifying rounds go on to the final):

round 1 (points + bonus = final)               round 2
  S01 100, all correct at 41:20: 18 min x 3 = 54 -> 154    90 -> 90            total 244
  S02 85 -> 85                                  100, at 45:30: 14 min -> 42 -> 142  227
  S03 100, at 50:05: 9 min (9:55 left) -> 27 -> 127   80 -> 80            207
  S04 70 -> 70                                  100, at 55:00: 5 min -> 15 -> 115   185
  S05 95 -> 95                                  85 -> 85                  180
  S06 60 -> 60                                  95 -> 95                  155
  S07 90 -> 90                                  70 -> 70                  160
  S08 100, at 58:59: 1 min (1:01 left) -> 3 -> 103   60 -> 60            163
  S09 40 -> 40                                  100, at 59:59.5: 0 min -> 0 -> 100  140
  S10 75 -> 75                                  90 -> 90                  165
  S11 55 -> 55                                  65 -> 65                  120
  S12 80 -> 80                                  75 -> 75                  155

Qualifying order by total: S01 244, S02 227, S03 207, S04 185, S05 180 | S10 165, S08 163, S07 160,
S06 = S12 155, S09 140, S11 120. The final (round 3) seats the five by rank, two a clock: S01 and S02,
S03 and S04, S05 alone.
"""
from __future__ import annotations

import pytest
from evkit import store_results
from finalkit import waiting
from kit import rec

from gameclock import cli
from gameclock.organiser import event as events
from gameclock.organiser.store import Store

EV = "su-p"
IDS = [f"S{i:02d}" for i in range(1, 13)]
NAME = {pid: f"ผู้แข่งขัน {pid}" for pid in IDS}   # Thai names, as a school's list has them
# (points, bonus) per round, from the table above (SU-2, SU-3)
ROUND1 = {"S01": (100, 54), "S02": (85, 0), "S03": (100, 27), "S04": (70, 0), "S05": (95, 0), "S06": (60, 0),
          "S07": (90, 0), "S08": (100, 3), "S09": (40, 0), "S10": (75, 0), "S11": (55, 0), "S12": (80, 0)}
ROUND2 = {"S01": (90, 0), "S02": (100, 42), "S03": (80, 0), "S04": (100, 15), "S05": (85, 0), "S06": (95, 0),
          "S07": (70, 0), "S08": (60, 0), "S09": (100, 0), "S10": (90, 0), "S11": (65, 0), "S12": (75, 0)}


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pc.db")
    yield s
    s.close()


def make_event(store, tmp_path, options=None):
    path = tmp_path / "players.csv"
    path.write_text("id,name,level\n" + "".join(f"{pid},{NAME[pid]},primary\n" for pid in IDS), encoding="utf-8")
    events.create_event(store, EV, "sudoku", events.load_players(path), rounds=3, options=options or {},
                        language="th", preset="sudoku-60", level="primary")


def su_record(n: int, rnd: int, table: int, left: str | None, right: str | None, final: tuple[int, int],
              bonus: tuple[int, int], stage: str = "qualifying") -> dict:
    """A Sudoku round timer's record as the clock writes it: no outcome, no game points (the two
    competitors are not opponents), each side's final = points + bonus."""
    return rec(f"clock5-{n:06d}", EV, rnd, table, left, right, None, points=None, scores=final, bonus=bonus,
               preset="sudoku-60", kind="sudoku", stage=stage, level="primary")


def results_of(store, rnd: int, scores: dict[str, tuple[int, int]], first: int, stage: str = "qualifying"):
    """The records of round `rnd`'s published tables: a competitor alone at a clock unnamed (the arbiter
    started it by hand), the empty seat 0."""
    published = events.round_of(store, EV, rnd)
    out = []
    for k, b in enumerate(published["boards"]):
        left, right = b["left"], b["right"]
        lp, lb = scores[left]
        if right is None:
            out.append(su_record(first + k, rnd, b["table"], None, None, (lp + lb, 0), (lb, 0), stage))
        else:
            rp, rb = scores[right]
            out.append(su_record(first + k, rnd, b["table"], NAME[left], NAME[right], (lp + lb, rp + rb), (lb, rb),
                                 stage))
    return out


def seats(r) -> list[tuple[int, str, str | None, str]]:
    return [(b["table"], b["left"], b["right"], b["stage"]) for b in r["boards"]]


def test_round_2_is_drawn_once_round_1_results_are_stored_though_they_have_no_winner(store, tmp_path):
    # SU-4, issue 25: round 2 was refused with "no result yet for round 1" although every table's
    # result was stored: a Sudoku result has no winner, and that read as no result
    make_event(store, tmp_path)
    events.draw(store, EV)          # no seed given: the desk's Pair
    events.publish(store, EV)
    store_results(store, results_of(store, 1, ROUND1, 1))
    draft = events.draw(store, EV)
    assert draft["round"] == 2
    # SU-1: round 2 seats two a clock in entry order, as round 1
    assert seats(draft) == [(t, IDS[2 * t - 2], IDS[2 * t - 1], "qualifying") for t in range(1, 7)]


def test_the_final_seats_the_top_five_by_the_two_rounds_totals(store, tmp_path):
    # SU-4 (seed 000 §2): the top five of the qualifying rounds: S01 244, S02 227, S03 207, S04 185,
    # S05 180 (module doc); seated by rank, two a clock, S05 alone; stage final
    make_event(store, tmp_path)
    for rnd, scores, first in ((1, ROUND1, 1), (2, ROUND2, 7)):
        events.draw(store, EV)
        events.publish(store, EV)
        store_results(store, results_of(store, rnd, scores, first))
    final = events.draw(store, EV)
    assert final["round"] == 3
    assert seats(final) == [(1, "S01", "S02", "final"), (2, "S03", "S04", "final"), (3, "S05", None, "final")]
    assert "the top 5 of the qualifying rounds" in final["notes"][0]


def test_the_cli_pairs_round_2_after_results_without_a_winner(store, tmp_path, capsys):
    # the same through `gameclock pair` (the organiser's command line)
    make_event(store, tmp_path)
    db = str(tmp_path / "pc.db")
    assert cli.main(["pair", EV, "--publish", "--db", db]) == 0
    store_results(store, results_of(store, 1, ROUND1, 1))
    capsys.readouterr()
    status = cli.main(["pair", EV, "--db", db])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert out.splitlines()[0].startswith(f"{EV} round 2 (DRAFT; system sudoku")


def test_a_round_is_not_complete_without_the_lone_competitors_clock(store, tmp_path):
    # the final's third clock holds S05 alone: the final is not over until its record is in
    make_event(store, tmp_path)
    for rnd, scores, first in ((1, ROUND1, 1), (2, ROUND2, 7)):
        events.draw(store, EV)
        events.publish(store, EV)
        store_results(store, results_of(store, rnd, scores, first))
    events.draw(store, EV)
    events.publish(store, EV)
    published = events.round_of(store, EV, 3)
    players = events.players_of(store, EV)
    store_results(store, [r for r in results_of(store, 3, {**ROUND1, **ROUND2}, 13, "final") if r["table"] != 3])
    with pytest.raises(events.EventError, match="no result yet for round 3 table 3"):
        events.games_of(store, store.event(EV), players, [published])


FINAL = {"S01": (110, 0), "S02": (120, 30), "S03": (120, 0), "S04": (95, 0), "S05": (130, 0)}


def run_to_the_final(store, tmp_path, options=None, final=True):
    make_event(store, tmp_path, options)
    for rnd, scores, first in ((1, ROUND1, 1), (2, ROUND2, 7)):
        events.draw(store, EV)
        events.publish(store, EV)
        store_results(store, results_of(store, rnd, scores, first))
    events.draw(store, EV)
    events.publish(store, EV)
    if final:
        store_results(store, results_of(store, 3, FINAL, 13, "final"))


def test_the_final_places_the_five_then_the_qualifying_order(store, tmp_path, capsys):
    """SU-4: the final (round 3): S01 110, S02 120 + 30 bonus = 150, S03 120, S04 95, S05 130 (alone at
    the third clock, its record unnamed). The seed says only who plays the final; our reading
    (docs/rules.md): the final's score places the five, then the rest keep the qualifying order:
    1 S02 150, 2 S05 130, 3 S03 120, 4 S01 110, 5 S04 95; 6 S10 165, 7 S08 163, 8 S07 160,
    =9 S06 and S12 155, 11 S09 140, 12 S11 120.
    Medals (seed 000 §2's bands are percentages): the qualifying total out of the full marks, 250 here:
    S01 244 -> 97 % gold, S02 227 -> 90 gold, S03 207 -> 82 gold, S04 185 -> 74 silver, S05 180 -> 72
    silver, S10 165 -> 66 bronze, S08 163 -> 65 bronze, S07 160 -> 64 bronze, S06 and S12 155 -> 62
    bronze, S09 140 -> 56 certificate, S11 120 -> 48 certificate."""
    run_to_the_final(store, tmp_path, {"full_marks": 250})
    db = str(tmp_path / "pc.db")
    status = cli.main(["standings", "--final", "--event", EV, "--db", db])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    n = NAME
    assert out.splitlines() == [
        f"{EV}: final standings, sudoku (SU-2, SU-3, SU-4)",
        "Place  Player          Level    Placed by   Medal        Total  Final round   %  State",
        f"    1  {n['S02']}  primary  final       gold           227          150  90",
        f"    2  {n['S05']}  primary  final       silver         180          130  72",
        f"    3  {n['S03']}  primary  final       gold           207          120  82",
        f"    4  {n['S01']}  primary  final       gold           244          110  97",
        f"    5  {n['S04']}  primary  final       silver         185           95  74",
        f"    6  {n['S10']}  primary  qualifying  bronze         165               66",
        f"    7  {n['S08']}  primary  qualifying  bronze         163               65",
        f"    8  {n['S07']}  primary  qualifying  bronze         160               64",
        f"   =9  {n['S06']}  primary  qualifying  bronze         155               62",
        f"   =9  {n['S12']}  primary  qualifying  bronze         155               62",
        f"   11  {n['S09']}  primary  qualifying  certificate    140               56",
        f"   12  {n['S11']}  primary  qualifying  certificate    120               48"]


def test_before_the_final_is_played_the_five_are_provisional(store, tmp_path):
    from gameclock.organiser.standings.final import classify

    run_to_the_final(store, tmp_path, final=False)
    fc = classify(store, EV)
    assert not fc.decided and waiting(fc) == ["round 3 (the final)"]
    # the qualifying order stands in for the final's places; the rest are placed for good
    assert [(r.place, r.pid, r.provisional) for r in fc.rows[:6]] == [
        ("1", "S01", True), ("2", "S02", True), ("3", "S03", True), ("4", "S04", True), ("5", "S05", True),
        ("6", "S10", False)]
    # no full marks given: no medal, and a note says what is needed
    assert all(r.medal is None for r in fc.rows) and fc.medals == ""
    assert any("option full_marks" in x for x in fc.notes)


def test_the_standings_count_the_lone_competitors_unnamed_record(store, tmp_path):
    """A competitor alone at a clock (SU-1: an odd field) has a record naming nobody (nothing was pushed
    to that clock); the event's published board says who sat there, so the standings count them. Three
    competitors: round 1 S01 and S02 at clock 1 (100, 90), S03 alone at clock 2 with 80 + 12 bonus."""
    from gameclock.organiser.standings.commands import event_standings

    path = tmp_path / "three.csv"
    path.write_text("id,name\nS01,A\nS02,B\nS03,C\n", encoding="utf-8")
    events.create_event(store, "su3", "sudoku", events.load_players(path), preset="sudoku-60")
    events.draw(store, "su3")
    events.publish(store, "su3")
    store_results(store, [rec("clock5-000001", "su3", 1, 1, "A", "B", None, points=None, scores=(100, 90),
                              bonus=(0, 0), preset="sudoku-60", kind="sudoku"),
                          rec("clock5-000002", "su3", 1, 2, None, None, None, points=None, scores=(92, 0),
                              bonus=(12, 0), preset="sudoku-60", kind="sudoku")])
    st = event_standings(store, "su3")[0]
    assert [(r.place, r.player, r.values["Total"]) for r in st.rows] == [("1", "A", 100), ("2", "C", 92), ("3", "B", 90)]
    assert not any("no name" in x for x in st.notes)
