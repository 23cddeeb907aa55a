"""organiser/amendments.py: what an amendment sets (by the rules: XW-6 / MR-9 / MH-7 game points, XW-8
spread, MH-8's draw given cleared), which amendment is in effect, and the store handing the standings
the amended summary while the signed record stays as it was."""
from __future__ import annotations

import pytest
from kit import rec, su, xw

from gameclock.organiser import amendments
from gameclock.organiser.standings.games import games_from_summaries
from gameclock.organiser.store import Store
from gameclock.organiser.summary import summary_of


def entry(n: int, changes: dict) -> dict:
    return {"n": n, "rid": "r", "changes": changes, "reason": "why", "by": "organiser", "at": f"t{n}"}


def test_the_latest_amendment_not_withdrawn_is_in_effect():
    a1, a2 = entry(1, {"outcome": "left"}), entry(2, {"outcome": "draw"})
    assert amendments.in_effect([]) is None
    assert amendments.in_effect([a1, a2]) is a2
    assert amendments.in_effect([a1, a2, entry(3, {"withdraws": 2})]) is a1
    assert amendments.in_effect([a1, a2, entry(3, {"withdraws": 2}), entry(4, {"withdraws": 1})]) is None


def test_crossword_spread_is_capped_by_the_records_level_and_stage():
    # XW-8: primary Crossword caps 100 (the last qualifying game 80); amended 500-300: +200 -> +100, +80
    primary = xw(1, "e", 1, 1, "A", "B", 300, 320, level="primary")
    assert amendments.for_record(primary, "left", {"left": 500, "right": 300})["scores.spread"] == \
        {"left": 100, "right": -100}
    last = xw(2, "e", 6, 1, "A", "B", 300, 320, level="primary", stage="last")
    assert amendments.for_record(last, "left", {"left": 500, "right": 300})["scores.spread"] == \
        {"left": 80, "right": -80}
    # the record's own cap is the one its clock applied (docs/result-record.md `scores.cap`)
    capped = dict(primary, scores=dict(primary["scores"], cap=150))
    assert amendments.for_record(capped, "left", {"left": 500, "right": 300})["scores.spread"] == \
        {"left": 150, "right": -150}
    # XW-6: a draw is 1 GP each
    assert amendments.for_record(primary, "draw", {"left": 310, "right": 310})["scores.game_points"] == \
        {"left": 1, "right": 1}


def test_makhos_draw_given_is_cleared_and_sudoku_has_no_winner():
    # MH-8: a draw given by left counts as right's win; the organiser's outcome "draw" is a plain draw,
    # MH-7 1 GP each
    g = rec("m-1", "e", 1, 1, "A", "B", "right", draw_loss="left", preset="makhos-30", kind="makhos")
    ch = amendments.for_record(g, "draw", None)
    assert ch == {"outcome": "draw", "draw_counts_as_loss_for": None, "scores.game_points": {"left": 1, "right": 1}}
    with pytest.raises(ValueError):
        amendments.for_record(g, "draw", {"left": 1, "right": 0})     # Makhos has no scores
    s = su(1, "su", 1, 1, "A", "B", 100, 80)
    assert amendments.for_record(s, None, {"left": 100, "right": 95}) == {"scores.final": {"left": 100, "right": 95}}
    with pytest.raises(ValueError):
        amendments.for_record(s, "left", {"left": 100, "right": 95})  # SU-4: not opponents


def test_the_store_hands_out_the_amended_summary_and_keeps_the_record(tmp_path):
    r = xw(1, "e", 1, 1, "A", "B", 300, 320)
    with Store(tmp_path / "pc.db") as store:
        store.put_result(r, "0" * 64, "kid0", "test")
        n = store.add_amendment(r["id"], amendments.for_record(r, "left", {"left": 330, "right": 320}), "slip", "o")
        [g] = games_from_summaries(store.summaries(event="e"))
        assert (g.winner, g.scores, g.spread, g.points) == ("left", {"left": 330, "right": 320},
                                                             {"left": 10, "right": -10}, {"left": 2, "right": 0})
        assert g.amended is not None and g.amended["n"] == n and g.amended["reason"] == "slip"
        assert store.result(r["id"])["record"] == r               # the signed record as it came
        with pytest.raises(ValueError):
            store.add_amendment(r["id"], {"players.left": "X"}, "not ours to change", "o")
        store.withdraw_amendment(r["id"], n, "wrong table", "o")
        assert list(store.summaries(event="e")) == [summary_of(r)]
