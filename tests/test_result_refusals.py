"""Result entry through the event-log text: what is refused (CL-5: the result is final only when both
players have confirmed it; the arbiter may correct it before that). A refused line is an error naming
the line, as `gameclock replay` reports it."""
from __future__ import annotations

import pytest

from gameclock.replay import ReplayError, replay_text

CROSSWORD = """preset crossword
level secondary
0 start left
500 press left
1000 press right
"""
OVER = CROSSWORD + "1100 finish\n"


def refused(text: str) -> str:
    with pytest.raises(ReplayError) as info:
        replay_text(text, "t.log")
    return str(info.value)


def test_entry_before_the_game_is_over_is_refused():
    msg = refused(CROSSWORD + "1010 score left 300\n")
    assert msg == "t.log:6: score: the game is not over (finish it first)"
    # paused is not over either
    assert "not over" in refused(CROSSWORD + "1010 pause\n1020 confirm left\n")


def test_confirm_before_the_result_is_complete_is_refused():
    msg = refused(OVER + "1110 score left 300\n1120 confirm left\n")
    assert msg == "t.log:8: confirm: the result is not complete (missing: score right)"
    # makruk: the outcome is known from the flag (MR-1), the pieces (MR-9) are not
    msg = refused("preset makruk-30\n0 start right\n1800 press right\n1810 material left S\n1811 confirm right\n")
    assert msg.endswith("(missing: material right)")


def test_any_change_after_a_confirmation_needs_confirming_again():
    text = OVER + "1110 score left 300\n1111 score right 280\n1112 confirm left\n1113 confirm right\n"
    assert replay_text(text)["result"]["confirmed"] is True
    changed = OVER + "1110 score left 300\n1111 score right 280\n1112 confirm left\n1113 score right 281\n"
    r = replay_text(changed)["result"]
    assert r["confirmations"] == {"left": False, "right": False} and r["confirmed"] is False
    # the arbiter's `edit` alone clears them too
    edited = OVER + "1110 score left 300\n1111 score right 280\n1112 confirm left\n1113 edit\n1114 confirm right\n"
    r = replay_text(edited)["result"]
    assert r["confirmations"] == {"left": False, "right": True} and r["confirmed"] is False


def test_nothing_is_accepted_after_both_confirmed():
    done = OVER + "1110 score left 300\n1111 score right 280\n1112 confirm left\n1113 confirm right\n"
    for line in ("score left 301", "edit", "confirm left", "outcome draw"):
        assert refused(done + f"1120 {line}\n").endswith("the result is already confirmed by both players")


def test_malformed_lines_are_refused():
    assert "bad points" in refused(OVER + "1110 score left lots\n")
    assert "bad side" in refused(OVER + "1110 score middle 3\n")
    assert "bad reason 'checkmate' for makruk" in refused(
        "preset makruk-30\n0 start right\n100 finish\n110 outcome left checkmate\n")
    assert "bad piece letter" in refused("preset makruk-30\n0 start right\n100 finish\n110 material left Q\n")
    assert "yes or no" in refused("preset sudoku-60\n0 start left\n100 finish\n110 correct left maybe\n")


def test_drawloss_none_takes_a_wrong_mh8_entry_back():
    text = """preset makhos-30
0 start left
100 finish
110 outcome draw agreement
111 drawloss right
"""
    assert replay_text(text)["result"]["winner"] == "left"  # MH-8: right gave the draw
    r = replay_text(text + "112 drawloss none\n")["result"]
    assert r["winner"] == "draw" and "draw_counts_as_loss_for" not in r


def test_the_record_infos_lines_are_taken_before_the_end_and_malformed_ones_refused():
    # issue 27: a setting of the record changed in a pause is a line of the game's log
    paused = CROSSWORD + "1010 pause\n1020 round 2\n1021 table 15\n1022 event 7B\n1023 player left Anan Dee\n"
    info = replay_text(paused)["info"]
    assert (info["round"], info["table"], info["event"], info["player.left"]) == ("2", "15", "7B", "Anan Dee")
    assert "player.left" not in replay_text(paused + "1030 player left\n")["info"]  # no name: not known
    assert "bad round '0'" in refused(OVER + "1110 round 0\n")
    assert "bad table 'x'" in refused(OVER + "1110 table x\n")
    assert "usage: event NAME" in refused(OVER + "1110 event\n")
    assert "usage: player SIDE [NAME]" in refused(OVER + "1110 player\n")
    assert "bad side 'middle'" in refused(OVER + "1110 player middle Anan\n")
    # XW-8: a level of the preset's caps, or `-` for not set (crossword has no default: then missing)
    assert "this preset's levels: primary, secondary; - for not set" in refused(OVER + "1110 level tertiary\n")
    r = replay_text(OVER + "1110 score left 300\n1111 score right 280\n1112 level -\n")["result"]
    assert r["level"] is None and r["missing"] == ["level"]
