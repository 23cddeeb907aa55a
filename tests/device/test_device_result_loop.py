"""Result entry through the whole device path (mock pins, chosen edge ticks, the real loop): the game
ends (finish from the menu, a flag fall, a per-move expiry), the arbiter enters the result with the
knob, both players confirm with their own buttons, and the record lands in the outbox -- its move
durations summing to the time used, and the same result as the game's event log replayed (CL-5)."""
from __future__ import annotations

from test_device_sim_loop import ZERO, Rig, S  # noqa: E402  (the same rig as the loop tests)

from gameclock.core.log import format_event
from gameclock.record import format_entry, schema_errors
from gameclock.replay import replay_text

WALL0 = 1_700_000_000.0  # the wall clock at the session's zero


class ListOutbox(list):
    """The outbox stub: `put(record)` keeps it."""

    def put(self, record: dict) -> bool:
        self.append(record)
        return True


def make(factory, inbox, pins) -> Rig:
    rig = Rig(factory, inbox, pins)
    rig.loop.outbox = ListOutbox()
    rig.loop.clock_serial = "TESTCLOCK"
    rig.loop.wall = lambda: WALL0 + (rig.now - ZERO) / S
    return rig


def later(rig: Rig, seconds: float) -> None:
    rig.now += round(seconds * S)


def player(rig: Rig, edge, side: str):
    """A press of a player's button (released 0.1 s later)."""
    pin = rig.buttons.buttons[side].pin
    edge(pin, rig.now / S, False)
    frame = rig.pump()
    later(rig, 0.1)
    edge(pin, rig.now / S, True)
    rig.pump()
    later(rig, 0.2)
    return frame


def back(rig: Rig, edge):
    edge(rig.knob.back.pin, rig.now / S, False)
    frame = rig.pump()
    later(rig, 0.05)
    edge(rig.knob.back.pin, rig.now / S, True)
    rig.pump()
    later(rig, 0.2)
    return frame


def click(rig: Rig, edge):
    frame = rig.push(edge)
    later(rig, 0.2)
    return frame


def select(rig: Rig, label: str) -> None:
    """Turn the knob until the menu's highlighted item starts with `label`."""
    for _ in range(20):
        v = rig.loop.menu.view()
        if v["items"][v["index"]].startswith(label):
            return
        rig.turn()
    raise AssertionError(f"no menu item {label!r}")


def end_game(rig: Rig, edge, at_s: float):
    """The arbiter ends the game at `at_s`: pause, hold the knob 3 s (unlock), End game."""
    pause = rig.buttons.buttons["pause"].pin
    edge(pause, rig.at(at_s), False)
    rig.pump()
    edge(pause, rig.at(at_s + 0.1), True)
    rig.at(at_s + 1.0)
    rig.push(edge, held_s=3.0)
    later(rig, 0.3)  # (the push button's debounce: 30 ms)
    select(rig, "End game")
    click(rig, edge)  # "End the game?" (issue 15): No is highlighted; one notch to Yes, push
    assert rig.loop.menu.view()["page"] == "confirm"
    select(rig, "Yes")
    return click(rig, edge)


def dial(rig: Rig, edge, amount: int):
    """Enter a score digit by digit from 000 (issue 15): each digit by the shorter way round (7 is 3
    notches counter-clockwise: 0 -> 9 -> 8 -> 7), a push between digits; the cursor ends on the ones
    (the caller's push keeps the score). Returns (the last frame, the knob actions)."""
    frame, actions = None, 0
    for i, digit in enumerate(f"{amount:03d}"):
        if i:
            frame = click(rig, edge)
            actions += 1
        d = int(digit)
        for _ in range(d if d <= 5 else 10 - d):
            later(rig, 0.3)
            frame = rig.turn(clockwise=d <= 5)
            actions += 1
    return frame, actions


def log_text(rig: Rig) -> str:
    """The game's log as the journal would write it: its events, then its result lines."""
    loop = rig.loop
    lines = [f"preset {loop.preset.id}"] + [f"{k} {v}" for k, v in loop.record_info.items()]
    lines += [format_event(ev) for ev in loop.events] + [format_entry(at, w) for at, w in loop.entries]
    return "\n".join(lines) + "\n"


def check_record(rig: Rig) -> dict:
    (rec,) = rig.loop.outbox
    assert schema_errors(rec) == []
    for side in ("left", "right"):
        s = rec["sides"][side]
        assert sum(s["move_ms"]) == s["time_used_ms"]
    # the same result as the game's log replayed
    replayed = replay_text(log_text(rig), "live.log")["result"]
    assert replayed["confirmed"] is True
    assert (rec["outcome"], rec["reason"]) == (replayed["winner"], replayed["reason"])
    assert rec["scores"]["final"] == replayed.get("final_scores")
    assert rec["scores"]["game_points"] == replayed["game_points"]
    for side in ("left", "right"):
        assert rec["sides"][side]["time_used_ms"] == replayed["time_used_ms"][side]
    return rec


def test_crossword_finish_enter_confirm_record(factory, inbox, pins, edge):
    rig = make(factory, inbox, pins)
    rig.loop.settings.level = "secondary"  # XW-8: the game's level, set up before it (Settings > Level)
    try:
        rig.choose(edge, "crossword")
        buttons = rig.buttons.buttons
        edge(buttons["left"].pin, rig.at(1.0), False)   # the left button starts right's clock
        rig.pump()
        edge(buttons["left"].pin, rig.at(1.1), True)
        edge(buttons["right"].pin, rig.at(301.0), False)  # right: 300 s
        rig.pump()
        edge(buttons["right"].pin, rig.at(301.1), True)
        edge(buttons["left"].pin, rig.at(1819.0), False)  # left: 1518 s -> 3:18 over (XW-3: 40 points)
        rig.pump()
        edge(buttons["left"].pin, rig.at(1819.1), True)
        frame = end_game(rig, edge, 1900.0)
        assert rig.loop.result is not None and not rig.loop.menu.is_open
        assert frame.captions[0] == "RESULT Left score [0]00"  # issue 15: the cursor on the hundreds
        assert frame.captions[1] == "RESULT L ? OT-40 | R ? | ARBITER ENTERING"
        # a player's button while the arbiter enters: nothing entered
        frame = player(rig, edge, "left")
        assert rig.loop.entries == [] and "arbiter is entering" in frame.message
        frame, actions = dial(rig, edge, 412)
        assert frame.captions[0] == "RESULT Left score 41[2]"
        assert actions == 4 + 1 + 1 + 1 + 2  # 4, push, 1, push, 2 (the push that keeps it: one more)
        frame = click(rig, edge)
        assert frame.captions[0] == "RESULT Right score [0]00"
        _, actions = dial(rig, edge, 388)
        assert actions == 3 + 1 + 2 + 1 + 2  # 3, push, 8 = 2 back, push, 8 = 2 back
        frame = click(rig, edge)  # keeps 388: nothing missing, straight to the review (issue 27)
        assert "L 412 OT-40 = 372 | R 388 | RIGHT WINS | SPREAD -16/+16" in frame.captions[1]
        assert frame.captions[0].endswith("| PRESS TO CONFIRM") and frame.captions[1].endswith("| PRESS TO CONFIRM")
        frame = player(rig, edge, "right")
        assert frame.captions[1].endswith("| OK - WAIT FOR L") and rig.loop.outbox == []
        frame = player(rig, edge, "left")
        assert frame.captions[0].endswith("| RESULT SAVED") and frame.message == "RESULT SAVED"
        assert rig.sink.beeps[-1] == "BEEP result-saved"
        assert [" ".join(w) for _, w in rig.loop.entries] == [
            "score left 412", "score right 388", "confirm right", "confirm left"]
        rec = check_record(rig)
        # XW-3, XW-8, XW-6 by hand: 412 - 40 = 372 v 388: right wins by 16
        assert rec["id"] == "TESTCLOCK-000001"
        assert rec["scores"]["final"] == {"left": 372, "right": 388}
        assert rec["scores"]["spread"] == {"left": -16, "right": 16} and rec["scores"]["cap"] == 250
        assert rec["outcome"] == "right" and rec["scores"]["game_points"] == {"left": 0, "right": 2}
        assert rec["sides"]["left"]["move_ms"] == [1_518_000] and rec["sides"]["left"]["penalty_points"] == 40
        assert rec["sides"]["right"]["move_ms"] == [300_000, 81_000]  # its last turn ended with the pause
        assert rec["started"] == "2023-11-14T22:13:21.000Z"   # the first press, 1 s after the zero
        assert rec["ended"].startswith("2023-11-14T22:45:0")  # End game, a few seconds after the pause
        assert (rec["event"], rec["round"], rec["table"]) == ("1", 1, 1)
        assert rig.loop.record == rec
        # final: the buttons do nothing more; the knob opens the game menu (next game)
        n = len(rig.loop.entries)
        player(rig, edge, "left")
        assert len(rig.loop.entries) == n and len(rig.loop.outbox) == 1
        frame = click(rig, edge)
        assert rig.loop.menu.is_open and frame.captions[0].startswith("MENU GAME")
        select(rig, "Next game")
        click(rig, edge)  # the game is over: nothing is lost, no question
        assert rig.loop.game_no == 2 and rig.loop.result is None and rig.loop.entries == []
    finally:
        rig.close()


def test_makruk_flag_pieces_correction_confirm_record(factory, inbox, pins, edge):
    rig = make(factory, inbox, pins)
    try:
        rig.choose(edge, "makruk-30")
        buttons = rig.buttons.buttons
        edge(buttons["right"].pin, rig.at(1.0), False)  # right's button starts left's clock
        rig.pump()
        edge(buttons["right"].pin, rig.at(1.1), True)
        edge(buttons["left"].pin, rig.at(11.0), False)  # left: 10 s; right's 30:00 run from 11 s
        rig.pump()
        edge(buttons["left"].pin, rig.at(11.1), True)
        rig.run_until(ZERO + round(1812 * S))           # the loop wakes as it would: flag at 1811
        frame = rig.pump()
        # issue 15: the flag screen holds (frozen times, FLAG) until the arbiter pushes the knob
        assert rig.loop.result is None and "FLAG" in frame.captions[1] and frame.message.startswith("FLAG")
        rig.run_until(ZERO + round(1900 * S))           # the arbiter arrives later: nothing has changed
        assert rig.pump().captions == frame.captions
        frame = click(rig, edge)
        assert rig.loop.result is not None
        assert rig.loop.ended_wall == WALL0 + 1811.0
        # MR-1: right's flag: left wins on time, unless MR-2 ...; MR-9: the pieces, left first
        assert frame.captions[0] == "RESULT Left R0 N0 S0 M0 P0"
        assert frame.captions[1] == "RESULT LEFT WINS: FLAG | L ? | R ? | ARBITER ENTERING"
        click(rig, edge); click(rig, edge)               # R 0, N 0
        rig.turn()                                       # S 1
        for _ in range(3):
            click(rig, edge)                             # S, M, P: kept -> material left S
        assert rig.loop.entries[-1][1] == ["material", "left", "S"]
        rig.turn()                                       # right: R 1
        click(rig, edge)
        rig.turn()                                       # N 1
        click(rig, edge); click(rig, edge)
        rig.turn()                                       # M 1
        frame = click(rig, edge)
        assert frame.captions[0] == "RESULT Right R1 N1 S0 M1 P0"
        frame = click(rig, edge)                         # kept: material right RNM: up for confirmation
        # MR-2: K+Khon cannot win on time: a draw; MR-10 values 3 and 11
        assert frame.captions[0].endswith("| PRESS TO CONFIRM")  # issue 27: no Confirm push
        assert "DRAW: NO MATERIAL | L K+S =3 | R K+RNM =11 | GAME POINTS L1 R1" in frame.captions[1]
        player(rig, edge, "left")
        assert rig.loop.result.entry.confirmed == (True, False)
        # the arbiter corrects before right confirms: left had a met too
        back(rig, edge)
        assert rig.loop.entries[-1][1] == ["edit"] and rig.loop.result.entry.confirmed == (False, False)
        rig.turn(clockwise=False); rig.turn(clockwise=False)   # up to "Left K+S"
        click(rig, edge)
        for _ in range(3):
            click(rig, edge)                             # R N S as they were, to M
        rig.turn()                                       # M 1
        click(rig, edge)
        frame = click(rig, edge)                         # kept: material left SM
        assert rig.loop.entries[-1][1] == ["material", "left", "SM"]
        # MR-2: K+Khon+Met is enough to win on time: left wins after all; up for confirmation again
        assert "LEFT WINS: FLAG" in frame.captions[1] and frame.captions[0].endswith("| PRESS TO CONFIRM")
        player(rig, edge, "right")
        assert rig.loop.outbox == []
        player(rig, edge, "left")
        rec = check_record(rig)
        assert (rec["outcome"], rec["reason"], rec["ended_by"]) == ("left", "flag", "flag")
        assert rec["material"] == {"left": "SM", "right": "RNM"}
        assert rec["material_value"] == {"left": 5, "right": 11}
        assert rec["scores"]["game_points"] == {"left": 2, "right": 0}
        assert rec["sides"]["left"]["move_ms"] == [10_000]
        assert rec["sides"]["right"]["move_ms"] == [1_800_000] and rec["sides"]["right"]["flagged"]
        assert [" ".join(w) for _, w in rig.loop.entries] == [
            "material left S", "material right RNM", "confirm left", "edit", "material left SM",
            "confirm right", "confirm left"]
    finally:
        rig.close()


def test_makhos_expiry_confirm_straight_away(factory, inbox, pins, edge):
    rig = make(factory, inbox, pins)
    try:
        rig.choose(edge, "makhos-move")
        buttons = rig.buttons.buttons
        edge(buttons["right"].pin, rig.at(1.0), False)  # left's move starts
        rig.pump()
        edge(buttons["right"].pin, rig.at(1.1), True)
        edge(buttons["left"].pin, rig.at(31.0), False)  # 30 s; right's move from 31 s
        rig.pump()
        edge(buttons["left"].pin, rig.at(31.1), True)
        rig.run_until(ZERO + round(152 * S))            # MH-2: expired at 151 s
        frame = rig.pump()
        assert rig.loop.result is None and "FLAG" in frame.captions[1]  # the flag screen, until the push
        frame = click(rig, edge)
        # nothing is missing: the arbiter's list is on Confirm
        assert frame.captions[0] == "RESULT Confirm >"
        assert "LEFT WINS: TIME | L USED 0:30 | R USED 2:00" in frame.captions[1]
        click(rig, edge)
        player(rig, edge, "left")
        player(rig, edge, "right")
        rec = check_record(rig)
        assert (rec["outcome"], rec["reason"]) == ("left", "time")
        assert rec["sides"]["right"]["move_ms"] == [120_000]
        assert rec["sides"]["left"]["extensions_used"] == 0
    finally:
        rig.close()


def test_stage_set_during_the_entry_changes_the_cap_and_asks_again(factory, inbox, pins, edge):
    rig = make(factory, inbox, pins)
    rig.loop.settings.level = "secondary"  # XW-8: the game's level, set up before it (Settings > Level)
    try:
        rig.choose(edge, "crossword")
        buttons = rig.buttons.buttons
        edge(buttons["left"].pin, rig.at(1.0), False)
        rig.pump()
        edge(buttons["left"].pin, rig.at(1.1), True)
        end_game(rig, edge, 2.0)
        assert rig.loop.result is not None
        dial(rig, edge, 601)
        click(rig, edge)
        dial(rig, edge, 287)
        click(rig, edge)
        frame = click(rig, edge)
        assert "SPREAD +250/-250 CAP" in frame.captions[1]   # XW-8: secondary, qualifying
        player(rig, edge, "left")
        # the arbiter: it is the last qualifying game -- hold the knob: game menu, Settings, Stage
        rig.push(edge, held_s=1.0)
        later(rig, 0.3)
        assert rig.loop.menu.is_open
        select(rig, "Settings")
        click(rig, edge)
        select(rig, "Stage")
        click(rig, edge)
        rig.turn()
        click(rig, edge)
        assert rig.loop.settings.stage == "last"
        assert rig.loop.result.entry.confirmed == (False, False)  # what left confirmed has changed
        back(rig, edge)
        frame = back(rig, edge)                        # Resume: back to the result
        assert not rig.loop.menu.is_open
        assert "SPREAD +200/-200 CAP" in frame.captions[1]  # XW-8: the last game's cap
        click(rig, edge)                               # Confirm (the cursor stayed there)
        player(rig, edge, "right")
        player(rig, edge, "left")
        rec = check_record(rig)
        assert rec["stage"] == "last" and rec["scores"]["cap"] == 200
        assert rec["scores"]["spread"] == {"left": 200, "right": -200}
        # the stage set in the menu is a result-entry line (journaled): it clears left's confirmation
        assert [" ".join(w) for _, w in rig.loop.entries][-4:] == [
            "confirm left", "stage last", "confirm right", "confirm left"]
    finally:
        rig.close()
