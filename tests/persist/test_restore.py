"""Restoring a game at start (CL-6): paused at its last journaled instant with its times, a `pause`
journaled, the arbiter told on screen; a game at ready or in result entry comes back as it was; a
closed game does not; a corrupt journal is kept aside and the good part restored."""
from __future__ import annotations

import queue

import pytest

from gameclock.core import clock as core
from gameclock.inbox import PauseButton, PlayerButton
from gameclock.loop import Loop
from gameclock.persist.journal import decode, encode
from gameclock.persist.restore import attach
from gameclock.rules.loader import load_presets

S = 1_000_000_000
MS = 1_000_000


class Null:
    def __init__(self):
        self.beeps = []

    def show(self, frame) -> None:
        pass

    def beep(self, alert, text) -> None:
        self.beeps.append(text)


class FakeTime:
    def __init__(self, start: int):
        self.now = start

    def __call__(self) -> int:
        return self.now


@pytest.fixture(scope="module")
def presets():
    return load_presets()


def boot(presets, state, start=1_000 * S):
    """A fresh process: a new loop (its own monotonic clock) on the state folder."""
    t = FakeTime(start)
    sink = Null()
    loop = Loop(queue.Queue(), presets, sink, sink, clock=t)
    loop.settings.level = "secondary"  # XW-8: the Crossword games' level, part of their set-up
    journal, message = attach(loop, state)
    return loop, journal, t, message, sink


def crash(journal):
    """kill -9 after the writer caught up (what the writer had not written is lost: other tests)."""
    journal.writer.flush()


def lines_of(path) -> list[str]:
    return [decode(raw) for raw in path.read_bytes().split(b"\n")[:-1]]


def run_to(loop, t, until):
    while (w := loop.next_wake()) is not None and w <= until:
        t.now = max(t.now, w)
        loop.pump(t.now)
    t.now = until
    loop.pump(t.now)


def remaining(loop) -> tuple[int, int]:
    v = core.view(loop.state, max(loop.state.now_ns, loop.clock() - loop.zero_ns))
    return v["sides"]["left"]["remaining_ms"], v["sides"]["right"]["remaining_ms"]


def test_a_running_game_comes_back_paused_at_its_last_checkpoint(presets, tmp_path):
    loop, journal, t, message, _ = boot(presets, tmp_path)
    assert message is None
    loop.new_game("crossword", 1)
    z = t.now
    loop.pump(z + S, [PlayerButton(z + S, 0)])          # right runs from 1 s
    run_to(loop, t, z + 61 * S)
    loop.pump(t.now, [PlayerButton(t.now, 1)])          # left runs from 61 s
    # killed at 100.3 s. Left's checkpoints: 61 + 0.5 k, each written 0.1 s after its instant
    # (CheckpointTimer): the last one written by 100.3 is k = 78, 100.0 (100.5 would be written at 100.6)
    run_to(loop, t, z + 100_300 * MS)
    truth = remaining(loop)
    crash(journal)

    loop2, journal2, t2, message2, sink2 = boot(presets, tmp_path, start=5 * S)  # monotonic restarted
    assert loop2.state.phase == core.PAUSED
    assert loop2.state.now_ns == 100_000 * MS and loop2.zero_ns == 5 * S - 100_000 * MS
    got = remaining(loop2)
    assert got[1] == truth[1]                              # the idle side: exact
    assert 0 <= got[0] - truth[0] <= 600                   # the running side: back to the checkpoint (CL-6)
    assert got == (22 * 60_000 - 39_000, 22 * 60_000 - 60_000)  # left ran 61 -> 100.0; right 1 -> 61
    assert message2 == "restored: paused at L 21:21 | R 21:00 - check the times"  # 21:21.3: whole seconds shown
    loop2.pump(t2.now)
    assert loop2.frame.message == message2
    assert sink2.beeps == []
    crash(journal2)
    lines = lines_of(tmp_path / "games" / "000001.log")
    assert lines[-3] == "100 checkpoint"
    assert lines[-2].startswith("100 wallclock ") and lines[-1] == "100 pause"

    # the game goes on in the same file, in the same time, and survives a second crash
    t2.now += 30 * S                                     # 30 s paused while the arbiter checks
    loop2.pump(t2.now, [PauseButton(t2.now)])            # resume at game time 130.0
    run_to(loop2, t2, t2.now + 2_200 * MS)               # left runs 2.2 s more, to 132.2
    crash(journal2)
    assert lines_of(tmp_path / "games" / "000001.log")[-6:] == [   # 132.5 would be written at 132.6
        "100 pause", "130 resume", "130.5 checkpoint", "131 checkpoint", "131.5 checkpoint", "132 checkpoint"]
    loop3, _, _, message3, _ = boot(presets, tmp_path, start=9 * S)
    assert remaining(loop3) == (22 * 60_000 - 39_000 - 2_000, 22 * 60_000 - 60_000)
    assert loop3.events == loop2.events + [core_pause(132_000 * MS)]


def core_pause(at):
    from gameclock.core.events import Pause
    return Pause(at)


def test_a_game_at_ready_comes_back_at_ready_and_a_closed_one_does_not(presets, tmp_path):
    loop, journal, t, _, _ = boot(presets, tmp_path)
    loop.new_game("makruk-45", 2)
    crash(journal)
    loop2, journal2, _, message, _ = boot(presets, tmp_path)
    assert message == "restored: game at ready"
    assert loop2.preset.id == "makruk-45" and loop2.game_no == 2 and loop2.state.phase == core.READY
    journal2.put_result({"id": "GC1-000001"})  # (no result for a game at ready; the journal's part only)
    crash(journal2)
    loop3, journal3, _, message3, _ = boot(presets, tmp_path)
    assert message3 is None and loop3.state is None
    loop3.new_game("crossword", 1)
    assert journal3.seq == 2


def finished_game(presets, tmp_path, lines):
    """A crossword game played 1..5 s, finished at 6 s, then result lines through Loop.enter."""
    loop, journal, t, _, _ = boot(presets, tmp_path)
    loop.new_game("crossword", 1)
    z = t.now
    loop.pump(z + S, [PlayerButton(z + S, 0)])
    loop.pump(z + 5 * S, [PlayerButton(z + 5 * S, 1)])
    from gameclock.core.events import Finish
    loop.apply(Finish, z + 6 * S)
    t.now = z + 6 * S
    loop.pump(t.now)                                      # the result entry opens
    assert loop.result is not None
    for i, words in enumerate(lines):
        t.now = z + (7 + i) * S
        assert loop.enter(words, t.now), loop.message
    return loop, journal


def test_result_entry_in_progress_comes_back(presets, tmp_path):
    loop, journal = finished_game(presets, tmp_path, [["score", "left", "412"], ["score", "right", "388"],
                                                      ["confirm", "left"]])
    crash(journal)
    loop2, journal2, _, message, _ = boot(presets, tmp_path, start=3 * S)
    assert message == "restored: result entry - check it"
    assert loop2.state.phase == core.FINISHED
    assert loop2.result is not None
    assert loop2.result.entry.scores == (412, 388) and loop2.result.entry.confirmed == (True, False)
    assert [w for _, w in loop2.entries] == [["score", "left", "412"], ["score", "right", "388"],
                                             ["confirm", "left"]]
    assert loop2.started_wall is not None and loop2.ended_wall - loop2.started_wall == pytest.approx(5, abs=0.01)
    crash(journal2)
    assert lines_of(tmp_path / "games" / "000001.log")[-1].startswith("9 wallclock ")  # no pause
    assert journal2.outbox.pending() == []
    loop2.enter(["confirm", "right"], loop2.clock())      # the other player confirms after the restart
    crash(journal2)
    assert journal2.outbox.pending() == ["sim-000001"]
    record = journal2.outbox.read("sim-000001")
    assert record["confirmed"] and record["scores"]["entered"] == {"left": 412, "right": 388}
    assert record["started"] is not None
    assert lines_of(tmp_path / "games" / "000001.log")[-1] == "9 closed result sim-000001"


def test_a_confirmed_result_not_yet_in_the_outbox_is_stored_again_once(presets, tmp_path):
    loop, journal = finished_game(presets, tmp_path, [["score", "left", "412"], ["score", "right", "388"],
                                                      ["confirm", "left"], ["confirm", "right"]])
    crash(journal)
    # as if killed after the confirmation's line but before the record and the closing line
    path = tmp_path / "games" / "000001.log"
    lines = path.read_bytes().split(b"\n")[:-1]
    assert decode(lines[-1]).startswith("10 closed result")
    path.write_bytes(b"\n".join(lines[:-1]) + b"\n")
    (tmp_path / "outbox" / "sim-000001.json").unlink()
    loop2, journal2, _, message, _ = boot(presets, tmp_path)
    assert message == "restored: result entry (confirmed) - check it"
    crash(journal2)
    assert journal2.outbox.pending() == ["sim-000001"]
    assert loop2.message == "SAVING RESULT"  # the writer has stored it; the loop's next turn says so
    loop2.pump(loop2.clock())
    assert loop2.message == "RESULT SAVED"
    assert lines_of(path)[-1] == "10 closed result sim-000001"
    # and killed after the record but before the closing line: stored again = still one file
    path.write_bytes(b"\n".join(path.read_bytes().split(b"\n")[:-2]) + b"\n")
    loop3, journal3, _, message3, _ = boot(presets, tmp_path)
    crash(journal3)
    assert message3 == "restored: result entry (confirmed) - check it"
    assert journal3.outbox.pending() == ["sim-000001"] and journal3.outbox.sent() == []
    loop4, _, _, message4, _ = boot(presets, tmp_path)
    assert message4 is None


def test_a_corrupt_journal_is_kept_aside_and_restored_up_to_the_bad_line(presets, tmp_path, caplog):
    loop, journal, t, _, _ = boot(presets, tmp_path)
    loop.new_game("crossword", 1)
    z = t.now
    loop.pump(z + S, [PlayerButton(z + S, 0)])
    loop.pump(z + 3 * S, [PlayerButton(z + 3 * S, 1)])
    loop.pump(z + 4 * S, [PlayerButton(z + 4 * S, 0)])
    crash(journal)
    path = tmp_path / "games" / "000001.log"
    data = path.read_bytes()
    cut = data.index(b"3 press right")
    damaged = data[:cut] + b"8" + data[cut + 1:]          # one byte of the middle line changed
    path.write_bytes(damaged)
    loop2, journal2, _, message, _ = boot(presets, tmp_path)
    crash(journal2)
    assert (tmp_path / "games" / "000001.log.bad").read_bytes() == damaged
    assert any(r.levelname == "ERROR" and "corrupt line in the middle" in r.getMessage()
               for r in caplog.records)
    lines = lines_of(path)
    assert lines[-3] == "1 start right" and lines[-2].startswith("1 wallclock ")
    assert lines[-1] == "1 pause"                          # paused where the good part ends
    assert not any("press" in ln for ln in lines)
    assert loop2.state.phase == core.PAUSED and loop2.state.now_ns == S


def test_a_torn_last_line_is_cut_before_the_game_goes_on(presets, tmp_path):
    loop, journal, t, _, _ = boot(presets, tmp_path)
    loop.new_game("crossword", 1)
    z = t.now
    loop.pump(z + S, [PlayerButton(z + S, 0)])
    crash(journal)
    path = tmp_path / "games" / "000001.log"
    data = path.read_bytes()
    lines_end = len(data.rstrip(b"\0"))  # the journal's lines, then its preallocated zeros
    torn = encode("2.5 press right")[:9]  # a write cut short lands over the zeros
    path.write_bytes(data[:lines_end] + torn + data[lines_end + len(torn):])
    loop2, journal2, _, message, _ = boot(presets, tmp_path)
    crash(journal2)
    assert not (tmp_path / "games" / "000001.log.bad").exists()
    assert lines_of(path)[-1] == "1 pause"
    assert path.read_bytes().rstrip(b"\0").endswith(b"\n")


def test_a_preset_that_is_gone_is_not_restored(presets, tmp_path, caplog):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "000004.log").write_bytes(
        b"".join(encode(t) for t in ("preset no-such-game", "game 1", "1 start left")))
    loop, journal, _, message, _ = boot(presets, tmp_path)
    assert message is None and loop.state is None
    assert "no-such-game" in caplog.text
    loop.new_game("crossword", 1)
    assert journal.seq == 5


def test_a_count_survives_a_power_cut(presets, tmp_path):
    # Issue 5 / MR-6: K+2R v K counted 5, 6 by the lone king (left); the clock dies; the count comes
    # back with the game, and the next counted move is 7.
    from gameclock.core.events import CountStart

    loop, journal, t, _, _ = boot(presets, tmp_path)
    loop.new_game("makruk-45", 1)
    z = t.now
    loop.pump(z + S, [PlayerButton(z + S, 0)])           # right moves first, from 1 s
    loop.apply(CountStart, z + 2 * S, kind="pieces", side=0, attacker="RR", on_board=4)
    for k in range(2):                                   # right, left, right, left
        loop.pump(z + (3 + 2 * k) * S, [PlayerButton(z + (3 + 2 * k) * S, 1)])
        loop.pump(z + (4 + 2 * k) * S, [PlayerButton(z + (4 + 2 * k) * S, 0)])
    assert core.view(loop.state)["counting"]["count"] == 6
    crash(journal)

    loop2, journal2, t2, _, _ = boot(presets, tmp_path, start=5 * S)
    assert loop2.state.counting == loop.state.counting
    t2.now += S
    loop2.pump(t2.now, [PauseButton(t2.now)])            # the arbiter resumes: right runs
    t2.now += S
    loop2.pump(t2.now, [PlayerButton(t2.now, 1)])
    t2.now += S
    loop2.pump(t2.now, [PlayerButton(t2.now, 0)])        # the lone king's next move: 7
    assert core.view(loop2.state)["counting"]["count"] == 7
    crash(journal2)
