"""The result-entry model on semantic keys (pure) and its screens: the items each scoring kind asks
for, editing with the knob (scores digit by digit, issue 15), the lines it produces (the event-log vocabulary), the
players' confirmations and the arbiter's correction (CL-5)."""
from __future__ import annotations

from gameclock.core import clock as core
from gameclock.core.log import parse_log
from gameclock.replay import EXTRA_VERBS, fold_game
from gameclock.rules.loader import find_preset
from gameclock.ui import resultscreens as rs
from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP
from gameclock.ui.resultentry import ENTRY, REVIEW, SAVED, Reply, ResultEntry, outcome_choices

MS = 1_000_000


def entry_for(text: str, **kw) -> ResultEntry:
    log = parse_log(text, "t", extra_verbs=EXTRA_VERBS)
    preset = find_preset(log.preset)
    state, _ = fold_game(preset, log)
    kw.setdefault("level", log.header.get("level"))  # XW-8: the game's set-up, as the loop passes it
    return ResultEntry(preset.scoring, core.view(state), **kw)


def do(r: ResultEntry, key: str, at_ns: int = 0) -> Reply:
    """A key, and its lines applied as the loop applies them."""
    reply = r.key(key, at_ns)
    for words in reply.lines:
        r.apply(words)
    return reply


def press(r: ResultEntry, side: int) -> Reply:
    reply = r.player(side)
    for words in reply.lines:
        r.apply(words)
    return reply


XW = "preset crossword\nlevel secondary\n0 start left\n600 press left\n900 press right\n1818 press left\n1900 finish\n"
MAKRUK_FLAG = "preset makruk-30\n0 start right\n1800 press right\n"   # right's flag: left wins on time
MAKHOS_EXPIRY = "preset makhos-move\n0 start left\n30 press left\n150 finish\n"  # MH-2: right's move expired
SUDOKU = "preset sudoku-60\n0 start left\n2730 press left\n3010 press right\n"


def enter(r: ResultEntry, score: int) -> tuple[Reply, int]:
    """Issue 15: a score from 000, digit by digit the shorter way round (7: three notches back),
    a push after each digit (the last keeps it). Returns the last reply and the knob actions."""
    actions = 0
    reply = Reply()
    for digit in f"{score:03d}":
        d = int(digit)
        for _ in range(d if d <= 5 else 10 - d):
            r.key(DOWN if d <= 5 else UP, 0)
            actions += 1
        reply = do(r, CLICK)
        actions += 1
    return reply, actions


def test_crossword_score_digit_by_digit():
    r = entry_for(XW)
    v = r.view()
    assert v["stage"] == ENTRY and v["editing"] and v["index"] == 0
    assert v["items"] == ["Left score [0]00", "Right score ?", "Confirm >"]  # the cursor on the hundreds
    for _ in range(4):
        r.key(DOWN, 0)                   # clockwise: 4
    assert r.label(0) == "Left score [4]00"
    r.key(CLICK, 0)
    assert r.label(0) == "Left score 4[0]0"
    for _ in range(3):
        r.key(DOWN, 0)
    r.key(CLICK, 0)
    for _ in range(3):
        r.key(UP, 0)                     # counter-clockwise from 0 wraps: 9, 8, 7
    assert r.label(0) == "Left score 43[7]"
    assert r.key(CLICK, 0) == Reply(lines=(("score", "left", "437"),))  # CLICK on the ones keeps it
    # 437 from 000: 4 + 1 + 3 + 1 + 3 + 1 = 13 knob actions (issue 15: well under 20)
    r2 = entry_for(XW)
    reply, actions = enter(r2, 437)
    assert reply.lines == (("score", "left", "437"),) and actions == 13
    reply, actions = enter(r2, 999)      # the most 3 digits hold: 1 back each + 3 pushes
    assert reply.lines == (("score", "right", "999"),) and actions == 6


def test_a_digit_wraps_and_back_goes_back_a_digit_then_leaves():
    r = entry_for(XW)
    r.key(UP, 0)
    assert r.label(0) == "Left score [9]00"  # 0 -> 9 counter-clockwise
    r.key(DOWN, 0)
    assert r.label(0) == "Left score [0]00"  # 9 -> 0 clockwise
    r.key(DOWN, 0); r.key(CLICK, 0); r.key(DOWN, 0); r.key(CLICK, 0)
    assert r.label(0) == "Left score 11[0]"
    assert r.key(BACK, 0) == Reply() and r.label(0) == "Left score 1[1]0"  # back a digit, kept as set
    r.key(BACK, 0)
    assert r.label(0) == "Left score [1]10"
    assert r.key(BACK, 0) == Reply() and not r.editing  # on the hundreds: leaves without a change
    assert r.entry.scores == (None, None) and r.label(0) == "Left score ?"
    r.apply(["score", "left", "412"])
    r.key(CLICK, 0)
    assert r.label(0) == "Left score [4]12"  # an entered score is edited from its digits


def test_crossword_flow_to_both_confirmations_and_the_arbiters_correction():
    r = entry_for(XW)
    enter(r, 1)                                    # score left 1
    v = r.view()
    assert v["items"][:2] == ["Left score 1", "Right score [0]00"] and v["index"] == 1  # moved on, editing
    # a player's button before the result is up for confirmation does nothing
    assert press(r, 0) == Reply() and r.message == "the arbiter is entering the result"
    assert enter(r, 11)[0].lines == (("score", "right", "11"),)
    # issue 27: nothing missing after a value the arbiter kept: straight to the review (no Confirm push)
    assert r.view()["index"] == 2 and not r.editing and r.stage == REVIEW
    # players confirm, not the knob; its turns show the review's pages (issue 27)
    assert r.key(DOWN, 0) == Reply(page=1) and r.key(UP, 0) == Reply(page=-1) and r.key(CLICK, 0) == Reply()
    assert "players confirm" in r.message
    assert press(r, 1).lines == (("confirm", "right"),)
    assert press(r, 1) == Reply()                  # again: nothing more
    assert r.result["confirmations"] == {"left": False, "right": True}
    # the arbiter corrects: BACK is `edit`, the confirmation is gone, the list is back
    assert do(r, BACK).lines == (("edit",),)
    assert r.stage == ENTRY and r.result["confirmations"] == {"left": False, "right": False}
    do(r, DOWN)                                    # the list wraps: from Confirm to the left score
    do(r, CLICK)                                   # edit the left score again: starts at 1
    assert r.label(0) == "Left score [0]01"
    do(r, CLICK); do(r, CLICK)                     # to the ones
    r.key(DOWN, 0)
    do(r, CLICK)
    assert r.entry.scores == (2, 11) and r.view()["index"] == 2 and r.stage == REVIEW
    press(r, 0)
    press(r, 1)
    assert r.stage == SAVED and r.entry.final
    # saved: the knob turns the review's pages (issue 27), a push or BACK opens the game menu
    assert r.key(DOWN, 0) == Reply(page=1) and r.key(CLICK, 0) == Reply(menu=True)
    assert r.key(BACK, 0) == Reply(menu=True) and press(r, 0) == Reply()


def test_back_puts_a_value_back_and_back_outside_an_edit_is_the_menu():
    r = entry_for(XW)
    r.key(DOWN, 0)
    assert r.key(BACK, 0) == Reply() and not r.editing and r.entry.scores == (None, None)
    assert r.label(0) == "Left score ?"
    assert r.key(BACK, 0) == Reply(menu=True)
    assert r.key(LONG_CLICK, 0) == Reply(menu=True)  # a long push outside an edit: the game menu too


def test_a_long_push_keeps_a_score_with_zeros_after_the_cursor():
    # issue 27, as a time on the Corrections page: 400 is 4 notches and a long push
    r = entry_for(XW)
    for _ in range(4):
        r.key(DOWN, 0)
    assert do(r, LONG_CLICK).lines == (("score", "left", "400"),)
    r.key(DOWN, 0); r.key(CLICK, 0); r.key(DOWN, 0)       # right: 1[1]0
    assert r.label(1) == "Right score 1[1]0"
    assert do(r, LONG_CLICK).lines == (("score", "right", "110"),)


def test_confirm_with_something_missing_goes_to_it():
    r = entry_for(XW)
    r.key(BACK, 0)                                 # leave the left score
    r.key(DOWN, 0); r.key(DOWN, 0)
    assert r.view()["index"] == 2
    assert r.key(CLICK, 0) == Reply() and r.stage == ENTRY
    assert r.message == "missing: score left, score right"
    assert r.view()["index"] == 0 and r.editing


def test_makruk_after_a_flag_asks_for_the_pieces():
    r = entry_for(MAKRUK_FLAG)
    # MR-1: the clock saw right's flag: left wins on time unless MR-2 says otherwise; MR-9: pieces
    assert r.result["winner"] == "left" and r.result["reason"] == "flag"
    v = r.view()
    assert v["index"] == 1 and v["pieces"] == {"side": "left", "counts": dict(R=0, N=0, S=0, M=0, P=0), "at": "R"}
    assert v["items"][0] == "Left wins: flag"
    for _ in range(5):
        r.key(DOWN, 0)                             # at most 2 rooks
    assert r.view()["pieces"]["counts"]["R"] == 2
    r.key(UP, 0); r.key(UP, 0)                     # back to none
    r.key(CLICK, 0); r.key(CLICK, 0)               # N, then S
    r.key(DOWN, 0)                                 # one khon
    assert r.label(1) == "Left R0 N0 S1 M0 P0"
    r.key(CLICK, 0); r.key(CLICK, 0)               # M, P
    assert r.view()["pieces"]["at"] == "P"
    assert do(r, CLICK).lines == (("material", "left", "S"),)
    # right: nothing but the king
    assert r.view()["pieces"]["side"] == "right"
    for _ in range(4):
        r.key(CLICK, 0)
    assert do(r, CLICK).lines == (("material", "right", "-"),)
    # MR-2: K+Khon cannot win on time: a draw
    assert r.result["winner"] == "draw" and r.result["reason"] == "material"
    assert r.view()["items"] == ["Draw: no material", "Left K+S", "Right K only", "Confirm >"]
    assert rs.summary_lines(r.view()) == ["DRAW: NO MATERIAL", "L K+S =3", "R K ONLY =0",
                                          "GAME POINTS L1 R1"]


def test_makruk_outcome_choices():
    r = entry_for("preset makruk-30\n0 start right\n100 finish\n")
    assert r.view()["index"] == 0 and r.label(0) == "[Draw: agreed]"  # issue 27: the first choice
    choices = outcome_choices("makruk")
    # issue 27: a ring from the agreed draw: clockwise right's wins, the commonest first (MR-1/001 §8,
    # MR-13/003 §2: a late player's forfeit), then the rarer draws, then left's wins back to the
    # commonest, one notch back from the start
    assert choices == [("draw", "agreement"),
                       ("right", "resignation"), ("right", "mate"), ("right", "flag"), ("right", "late"),
                       ("right", "forfeit"),
                       ("draw", "count"), ("draw", "material"), ("draw", "stalemate"), ("draw", "repetition"),
                       ("draw", "arbiter"),
                       ("left", "forfeit"), ("left", "late"), ("left", "flag"), ("left", "mate"),
                       ("left", "resignation")]
    # MR-3/003 §16: insufficient material is chosen at the board; MR-13: the arbiter's draw
    assert ("left", "material") not in choices  # a material draw is never a win
    r.key(UP, 0)
    assert r.label(0) == "[Left wins: resigned]"
    assert do(r, CLICK).lines == (("outcome", "left", "resignation"),)
    assert r.view()["pieces"]["side"] == "left"
    r.key(BACK, 0)                                 # out of the pieces' edit
    assert r.key(LONG_CLICK, 0) == Reply(menu=True) and not r.editing  # (the loop's game menu)
    r.key(UP, 0)
    r.key(CLICK, 0)
    assert r.label(0) == "[Left wins: resigned]"  # editing starts at what is entered
    for _ in range(len(choices)):
        r.key(DOWN, 0)
    assert r.label(0) == "[Left wins: resigned]"  # the ring: all the way round
    r.key(DOWN, 0); r.key(DOWN, 0)
    assert r.label(0) == "[Right wins: resigned]"


def test_makhos_expiry_needs_only_the_confirmations():
    r = entry_for(MAKHOS_EXPIRY)
    # MH-2: right's move expired: left wins, reason time; MH-7: times used shown
    assert r.view()["index"] == 2 and not r.editing
    assert rs.summary_lines(r.view()) == ["LEFT WINS: TIME", "L USED 0:30", "R USED 2:00", "GAME POINTS L2 R0"]
    do(r, CLICK)
    assert r.stage == REVIEW
    press(r, 0); press(r, 1)
    assert r.stage == SAVED


def test_makhos_draw_given_and_taken_back():
    r = entry_for("preset makhos-30\n0 start left\n100 press left\n250 finish\n")
    assert r.label(0) == "[Draw: agreed]"         # issue 27: the commonest first
    r.key(DOWN, 0); r.key(DOWN, 0)
    assert r.label(0) == "[Right wins: no pieces]"  # clockwise: right's wins, resigned first (MH-5)
    r.key(UP, 0); r.key(UP, 0)
    assert do(r, CLICK).lines == (("outcome", "draw", "agreement"),)
    # MH-8 is optional: nothing missing, straight to the review (issue 27); BACK: the entry
    assert r.view()["index"] == 2 and r.stage == REVIEW
    do(r, BACK)
    do(r, UP)
    do(r, CLICK)
    assert r.label(1) == "Draw=loss [none]"
    r.key(DOWN, 0)
    assert do(r, CLICK).lines == (("drawloss", "left"),)
    # MH-8: left gave the draw: right wins
    assert r.result["winner"] == "right" and r.result["reason"] == "draw-given"
    assert rs.summary_lines(r.view()) == ["RIGHT WINS: DRAW GIVEN", "DRAW = LOSS FOR LEFT", "L USED 1:40",
                                          "R USED 2:30", "GAME POINTS L0 R2"]
    assert r.stage == REVIEW
    do(r, BACK)
    do(r, UP)
    do(r, CLICK)
    r.key(UP, 0)
    assert do(r, CLICK).lines == (("drawloss", "none"),)
    assert r.result["winner"] == "draw"


def test_sudoku_points_and_all_correct():
    r = entry_for(SUDOKU)
    assert [r.label(i) for i in range(5)] == ["Left points [0]00", "Left all correct ?", "Right points ?",
                                              "Right all correct ?", "Confirm >"]
    enter(r, 45)
    assert r.label(1) == "Left all correct [yes]"
    assert do(r, CLICK).lines == (("correct", "left", "yes"),)
    enter(r, 41)
    r.key(DOWN, 0)
    assert do(r, CLICK).lines == (("correct", "right", "no"),)
    # SU-3: left finished with 14:30 left, all correct: 42; right's bonus is lost
    assert rs.summary_lines(r.view()) == ["L 45 +42 = 87", "R 41 NOT ALL OK", "BONUS IF ALL CORRECT"]
    assert r.view()["index"] == 4


def test_crossword_summary_and_prompts():
    r = entry_for(XW)
    assert rs.summary_lines(r.view()) == ["L ? OT-40", "R ?"]
    r.apply(["score", "left", "412"])
    r.apply(["score", "right", "388"])
    # XW-3: 412 - 40 = 372 against 388; XW-8: 16 is under the cap
    assert rs.summary_lines(r.view()) == ["L 412 OT-40 = 372", "R 388", "RIGHT WINS", "SPREAD -16/+16",
                                          "GAME POINTS L0 R2"]
    assert rs.prompt(r.view(), 0) == ("ARBITER ENTERING", False)
    r.reviewing = True
    assert rs.prompt(r.view(), 0) == ("PRESS TO CONFIRM", True)
    r.apply(["confirm", "left"])
    assert rs.prompt(r.view(), 0) == ("OK - WAIT FOR R", False)
    assert rs.prompt(r.view(), 1) == ("PRESS TO CONFIRM", True)
    r.apply(["confirm", "right"])
    assert rs.prompt(r.view(), 1) == ("RESULT SAVED", True)


def test_crossword_spread_cap_shown():
    # XW-8: 601 v 287 is capped at 250 (secondary), at 200 in the last game
    for stage, cap in (("qualifying", 250), ("last", 200)):
        r = entry_for("preset crossword\nlevel secondary\n0 start left\n10 finish\n", stage=stage)
        r.apply(["score", "left", "601"])
        r.apply(["score", "right", "287"])
        assert rs.summary_lines(r.view())[2:4] == ["LEFT WINS", f"SPREAD +{cap}/-{cap} CAP"]
    r = entry_for("preset crossword\n0 start left\n10 finish\n", stage="final")
    r.apply(["score", "left", "601"])
    r.apply(["score", "right", "287"])
    assert rs.summary_lines(r.view())[3] == "SPREAD +314/-314"


def test_screens_are_128x64_one_bit_and_change_with_the_state():
    r = entry_for(MAKRUK_FLAG)
    pieces = rs.render_entry(r.view())
    assert pieces.size == (128, 64) and pieces.mode == "1"
    r.key(DOWN, 0)
    assert rs.render_entry(r.view()).tobytes() != pieces.tobytes()  # the count drawn
    r.key(BACK, 0)
    lst = rs.render_entry(r.view())
    summary = rs.render_summary(r.view(), 1)
    assert lst.tobytes() != pieces.tobytes() and summary.size == (128, 64)
    r2 = entry_for(MAKHOS_EXPIRY)
    do(r2, CLICK)
    before = rs.render_summary(r2.view(), 0)
    assert rs.render_entry(r2.view()).tobytes() == before.tobytes()  # review: the summary on the left too
    press(r2, 0)
    assert rs.render_summary(r2.view(), 0).tobytes() != before.tobytes()
    assert rs.captions(r2.view())[1].endswith("| PRESS TO CONFIRM")


def test_crossword_without_a_level_asks_for_it_and_a_level_line_completes_it():
    # XW-8: primary 100 / secondary 250: the level decides the cap, and none was set for this game
    r = entry_for(XW.replace("level secondary\n", ""))
    do(r, CLICK)                            # left 0 kept
    r.apply(["score", "left", "601"])
    r.apply(["score", "right", "287"])
    assert r.result["missing"] == ["level"]
    assert "LEVEL? SETTINGS" in rs.summary_lines(r.view())
    r.apply(["level", "primary"])           # the arbiter sets Level on the clock: the loop enters this line
    assert r.result["missing"] == [] and r.result["cap"] == 100
    assert r.result["spread"] == {"left": 100, "right": -100}   # 601 - 287 = 314, cut to 100
