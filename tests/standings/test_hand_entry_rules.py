"""A result entered by hand at the desk is scored as the clock scores the same entry (issue 26,
organiser/handentry.py): the same fold (core.result), the preset's rules.

Two kinds of test: hand-worked values from the rules (RULES.md IDs), and the clock's own record of a
scenario (tests/scenarios/result-*.log: the game played, the result entered and confirmed at the
clock) against the hand entry of what its arbiter entered and what the clock showed (overtime, time
left): the outcome, scores, spread and points agree."""
from __future__ import annotations

from pathlib import Path

import pytest

from gameclock.organiser.handentry import Entered, Seat, hand_record, parse_clock_time, row_errors
from gameclock.record import record_from_log
from gameclock.rules.loader import find_preset

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
SEAT = Seat("e", 2, 4, {"left": "Anan", "right": "Boon"})


def result(rec: dict) -> tuple:
    sc = rec["scores"]
    return (rec["outcome"], rec["reason"], rec["draw_counts_as_loss_for"], sc["final"], sc["spread"],
            sc["game_points"], sc["penalties"], sc["bonus"], rec["material_value"])


def test_crossword_by_hand():
    xw = find_preset("crossword")
    # XW-6: 2/1/0; XW-8 secondary cap 250: 412-388 is +24 / -24
    rec = hand_record(xw, SEAT, Entered(scores={"left": 412, "right": 388}, level="secondary"))
    assert result(rec)[:6] == ("left", "score", None, {"left": 412, "right": 388}, {"left": 24, "right": -24},
                               {"left": 2, "right": 0})
    assert rec["entered"] == "hand" and "clock" not in rec and rec["players"] == {"left": "Anan", "right": "Boon"}
    assert [e["line"] for e in rec["entries"]] == ["level secondary", "score left 412", "score right 388"]
    # XW-8: 500-200 capped at 250; the last qualifying game at 200 (secondary)
    assert hand_record(xw, SEAT, Entered(scores={"left": 500, "right": 200}, level="secondary"))["scores"]["spread"] \
        == {"left": 250, "right": -250}
    last = Seat("e", 6, 4, {"left": "Anan", "right": "Boon"}, stage="last")
    assert hand_record(xw, last, Entered(scores={"left": 500, "right": 200}, level="secondary"))["scores"]["spread"] \
        == {"left": 200, "right": -200}
    # XW-3: one second over is one started minute: 10 points off; 400 - 10 = 390 v 390: a draw, 1 each
    rec = hand_record(xw, SEAT, Entered(scores={"left": 400, "right": 390}, overtime_ms={"left": 1000},
                                        level="secondary"))
    assert result(rec)[:7] == ("draw", "score", None, {"left": 390, "right": 390}, {"left": 0, "right": 0},
                               {"left": 1, "right": 1}, {"left": 10, "right": 0})
    # XW-8: the caps depend on the level: without one the entry is not complete (never a silent default)
    with pytest.raises(ValueError, match="missing: level"):
        hand_record(xw, SEAT, Entered(scores={"left": 400, "right": 390}))
    with pytest.raises(ValueError, match="missing: score right"):
        hand_record(xw, SEAT, Entered(scores={"left": 400}, level="secondary"))
    with pytest.raises(ValueError, match="level senior is not one of this preset's"):
        hand_record(xw, SEAT, Entered(scores={"left": 400, "right": 1}, level="senior"))


def test_a_forfeit_is_scored_as_a_bye():
    """docs/rules.md "Forfeits": the player who came gets what XW-9 gives a bye (+100; primary-school
    Crossword +50), the absent one its negative; the preset's win/loss points; no board scores."""
    xw = find_preset("crossword")
    rec = hand_record(xw, SEAT, Entered(absent="left", level="secondary"))
    assert result(rec)[:6] == ("right", "forfeit", None, None, {"left": -100, "right": 100}, {"left": 0, "right": 2})
    assert rec["forfeit"] is True and [e["line"] for e in rec["entries"]] == ["level secondary",
                                                                               "outcome right forfeit"]
    assert hand_record(xw, SEAT, Entered(absent="right", level="primary"))["scores"]["spread"] == \
        {"left": 50, "right": -50}
    # MR-9 2/0 and MR-10: no pieces on a board that was not played
    mk = hand_record(find_preset("makruk-45"), SEAT, Entered(absent="right"))
    assert (mk["outcome"], mk["scores"]["game_points"], mk["material_value"]) == (
        "left", {"left": 2, "right": 0}, {"left": 0, "right": 0})
    with pytest.raises(ValueError, match="Sudoku has no forfeit"):
        hand_record(find_preset("sudoku-60"), SEAT, Entered(absent="right"))


def test_makruk_makhos_sudoku_by_hand():
    # MR-9: 2/1/0; MR-10 values: R 5 + N 4 + M 2 = 11 against P 1
    mk = hand_record(find_preset("makruk-45"), SEAT, Entered(outcome="left", reason="resignation",
                                                            material={"left": "RNM", "right": "P"}))
    assert result(mk) == ("left", "resignation", None, None, None, {"left": 2, "right": 0}, None, None,
                          {"left": 11, "right": 1})
    with pytest.raises(ValueError, match="material right"):
        hand_record(find_preset("makruk-45"), SEAT, Entered(outcome="left", reason="mate", material={"left": "R"}))
    with pytest.raises(ValueError, match="bad reason 'score'"):
        hand_record(find_preset("makruk-45"), SEAT, Entered(outcome="left", reason="score",
                                                            material={"left": "R", "right": ""}))
    # MR-2 (seed 003's 30:00 preset): a flag against a lone met is a draw by material
    mr2 = hand_record(find_preset("makruk-30"), SEAT, Entered(outcome="left", reason="flag",
                                                             material={"left": "M", "right": "R"}))
    assert (mr2["outcome"], mr2["reason"], mr2["scores"]["game_points"]) == ("draw", "material", {"left": 1, "right": 1})
    # MH-8: a draw the left gave counts as the left's loss; MH-7's game points 2/1/0
    mh = hand_record(find_preset("makhos-30"), SEAT, Entered(outcome="draw", reason="agreement", drawloss="left"))
    assert result(mh)[:3] + (mh["scores"]["game_points"],) == ("right", "draw-given", "left", {"left": 0, "right": 2})
    # SU-2, SU-3: 40 points + 9:40 left (9 whole minutes, 27) all correct = 67; 35 with a wrong puzzle: no bonus
    su = hand_record(find_preset("sudoku-60"), SEAT, Entered(
        scores={"left": 40, "right": 35}, correct={"left": True, "right": False},
        time_left_ms={"left": 580_000, "right": 1_200_000}))
    assert (su["outcome"], su["scores"]["final"], su["scores"]["bonus"], su["scores"]["game_points"]) == (
        None, {"left": 67, "right": 35}, {"left": 27, "right": 0}, None)
    # SU-1: a competitor seated alone: only the left
    alone = Seat("e", 1, 9, {"left": "Chai", "right": None})
    su = hand_record(find_preset("sudoku-60"), alone, Entered(scores={"left": 50}, correct={"left": True},
                                                              time_left_ms={"left": 60_000}))
    assert su["scores"]["final"] == {"left": 53, "right": None}   # 1 whole minute left: 3


def _entered_like_the_clock(rec: dict) -> tuple[Entered, str]:
    """What the clock's arbiter entered (the record's entry lines, the last of each kind) and what the
    clock showed (overtime, a Sudoku competitor's time left), as the desk's form takes them."""
    scores, correct, material = {}, {}, {}
    outcome = reason = drawloss = level = None
    stage = rec["stage"]
    for e in rec["entries"]:
        w = e["line"].split()
        if w[0] == "score":
            scores[w[1]] = int(w[2])
        elif w[0] == "correct":
            correct[w[1]] = w[2] == "yes"
        elif w[0] == "material":
            material[w[1]] = w[2]
        elif w[0] == "outcome":
            outcome, reason = w[1], (w[2] if len(w) > 2 else None)
        elif w[0] == "drawloss":
            drawloss = None if w[1] == "none" else w[1]
        elif w[0] == "level":
            level = w[1]
        elif w[0] == "stage":
            stage = w[1]
    flagged = [s for s in ("left", "right") if rec["sides"][s]["flagged"]]
    if outcome is None and len(flagged) == 1 and rec["kind"] in ("makruk", "makhos"):
        # the clock saw the flag (MR-1, MH-2): at the desk the arbiter says so
        outcome, reason = ("right" if flagged[0] == "left" else "left"), ("flag" if rec["kind"] == "makruk" else "time")
    sides = rec["sides"]
    return Entered(scores=scores, correct=correct, material=material, outcome=outcome, reason=reason,
                   drawloss=drawloss, level=level or rec["level"],
                   overtime_ms={s: sides[s]["overtime_ms"] for s in ("left", "right")},
                   time_left_ms={s: sides[s]["remaining_ms"] for s in ("left", "right")} if rec["kind"] == "sudoku"
                   else {}), stage


@pytest.mark.parametrize("log", ["result-crossword-overtime", "result-crossword-cap", "result-crossword-last-game",
                                 "result-crossword-primary-draw", "result-amath-final", "result-makruk-flag-khon",
                                 "result-makruk-flag-rook", "result-makruk-material-draw",
                                 "result-makruk-arbiter-draw", "result-makhos-draw-given", "result-sudoku-bonus"])
def test_a_hand_entry_scores_as_the_clock_scored_the_same_entry(log):
    clock = record_from_log((SCENARIOS / f"{log}.log").read_text(encoding="utf-8"), log, "c1", 1)
    entered, stage = _entered_like_the_clock(clock)
    preset = find_preset(clock["preset"]["id"])
    hand = hand_record(preset, Seat("e", 1, 1, {"left": "A", "right": "B"}, stage=stage), entered)
    assert result(hand) == result(clock), log


def test_clock_times_and_a_row_from_another_pc():
    assert parse_clock_time("3:18", "x") == 198_000 and parse_clock_time("75", "x") == 75_000
    assert parse_clock_time(" ", "x") is None
    for bad in ("3:60", "-1:00", "1:2:3", "๓:๑๘", "abc"):
        with pytest.raises(ValueError):
            parse_clock_time(bad, "overtime left")
    rec = hand_record(find_preset("crossword"), SEAT, Entered(scores={"left": 400, "right": 350}, level="secondary"))
    row = {"id": "hand:000001", "event": "e", "round": 2, "table": 4, "game": 1, "record": rec, "withdraws": None,
           "reason": "clock died", "by": "organiser", "at": "2026-01-01T00:00:00.000Z", "source": "desk"}
    assert row_errors(row) == []
    assert row_errors({**row, "record": {**rec, "entered": None}}) == ["the record is not marked entered by hand"]
    assert row_errors({**row, "table": 5}) == ["the record's event, round, table and game are not the row's"]
    assert row_errors({**row, "record": None}) == ["a row without a record withdraws an entry: withdraws must be its id"]
    bad = {**rec, "scores": {**rec["scores"], "spread": {"left": "50", "right": -50}}}
    assert row_errors({**row, "record": bad}) == ["scores.spread must be {left, right} whole numbers"]
