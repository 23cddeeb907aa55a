"""A full, read-only or failing disk: the writer keeps everything in memory, retries with backoff,
writes it all in order once the disk works again, and the screen says what is wrong meanwhile."""
from __future__ import annotations

import errno
import queue
import threading
import time

import pytest
from fakefs import FakeFS, eio, enospc, erofs

from gameclock.inbox import DiskStatus, PlayerButton
from gameclock.loop import Loop
from gameclock.persist.journal import Journal, decode
from gameclock.persist.restore import attach, wake_loop
from gameclock.persist.writer import Writer
from gameclock.rules.loader import load_presets

S = 1_000_000_000


def lines_of(path) -> list[str]:
    return [decode(raw) for raw in path.read_bytes().split(b"\n")[:-1]]


def wait_for(cond, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            pytest.fail("condition not met in time")
        time.sleep(0.005)


def journal_with(tmp_path, fs, statuses):
    writer = Writer(fs, on_status=statuses.append, backoff_min_s=0.005, backoff_max_s=0.02)
    return Journal(tmp_path, fs=fs, writer=writer).open()


@pytest.mark.parametrize("call, exc, shown", [("pwrite", enospc(), "DISK FULL"),
                                               ("open", erofs(), "DISK READ-ONLY"),
                                               ("fsync", eio(), "DISK ERROR")])
def test_nothing_is_dropped_and_everything_is_written_in_order_afterwards(tmp_path, call, exc, shown):
    fs = FakeFS()
    statuses: list[str] = []
    journal = journal_with(tmp_path, fs, statuses)
    journal.begin_game({"preset": "crossword"}, 0)
    journal.writer.flush()
    fs.fail[call] = exc
    if call == "open":
        journal.begin_game({"preset": "crossword", "game": 2}, 0)  # a new file: its open fails
    for i in range(1, 51):
        journal.event(__import__("gameclock.core.events", fromlist=["Press"]).Press(i * S, i % 2))
    wait_for(lambda: journal.status == shown)
    assert statuses == [shown]
    time.sleep(0.1)                      # a few retries fail meanwhile
    assert journal.writer.failures >= 3
    assert journal.writer.pending() > 0
    del fs.fail[call]
    assert journal.writer.flush(5)
    assert journal.status == "" and statuses == [shown, ""]
    name = "000002.log" if call == "open" else "000001.log"
    lines = lines_of(tmp_path / "games" / name)
    presses = [ln for ln in lines if " press " in ln]
    assert presses == [f"{i} press {'right' if i % 2 else 'left'}" for i in range(1, 51)]
    assert (tmp_path / "games" / name).read_bytes().rstrip(b"\0").endswith(b"\n")  # (then the preallocated zeros)


def test_a_half_written_attempt_is_overwritten_by_the_retry(tmp_path):
    """ENOSPC after part of a batch reached the file: the retry writes from the durable size again,
    so the file never holds a broken or repeated line."""
    fs = FakeFS()
    statuses: list[str] = []
    journal = journal_with(tmp_path, fs, statuses)
    journal.begin_game({"preset": "crossword"}, 0)
    journal.writer.flush()
    real = FakeFS.pwrite
    state = {"fail": 3}

    def short_then_full(self, fd, data, offset):
        if state["fail"] > 0:
            state["fail"] -= 1
            real(self, fd, data[: len(data) // 2], offset)  # half of it lands on the disk
            raise enospc()
        return real(self, fd, data, offset)

    fs.pwrite = short_then_full.__get__(fs)
    for i in range(1, 11):
        journal.checkpoint(i * S)
    assert journal.writer.flush(5)
    lines = lines_of(tmp_path / "games" / "000001.log")
    assert lines[-10:] == [f"{i} checkpoint" for i in range(1, 11)]
    assert statuses == ["DISK FULL", ""]


def test_a_failed_fsync_writes_the_data_again(tmp_path):
    """After a failed fsync the kernel may have dropped the dirty pages: the retry rewrites them."""
    fs = FakeFS()
    journal = journal_with(tmp_path, fs, [])
    journal.begin_game({"preset": "crossword"}, 0)
    journal.writer.flush()
    fs.calls.clear()
    fs.fail["fsync"] = eio()
    journal.checkpoint(S)
    wait_for(lambda: journal.writer.failures >= 2)
    del fs.fail["fsync"]
    journal.writer.flush(5)
    game = [n for n, p in fs.calls if p.endswith("000001.log") and n in ("pwrite", "fsync", "fdatasync")]
    # each attempt: write, then sync. The file is opened again after a failure, so the retry does not
    # know the zeros ahead are there: it writes them again, and syncs with the metadata
    assert game[:5] == ["pwrite", "fdatasync", "pwrite", "pwrite", "fsync"]


@pytest.mark.xdist_group("wallclock")  # times 200 turns of the loop (tests/conftest.py)
def test_the_screen_shows_the_disk_status_and_the_loop_never_waits(tmp_path):
    presets = load_presets()
    fs = FakeFS()
    fs.fail["pwrite"] = enospc()
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    now = [100 * S]

    class Null:
        def show(self, frame):
            pass

        def beep(self, alert, text):
            pass

    loop = Loop(inbox, presets, Null(), Null(), clock=lambda: now[0])
    journal, _ = attach(loop, tmp_path, fs=fs, on_status=wake_loop(inbox))
    journal.writer.backoff_min_s = journal.writer.backoff_max_s = 0.01
    loop.new_game("crossword", 1)
    item = inbox.get(timeout=5)                            # the writer's status wakes the loop
    assert isinstance(item, DiskStatus) and item.status == "DISK FULL"
    t0 = time.perf_counter()
    for k in range(200):                                   # a whole game's presses meanwhile
        now[0] += S
        loop.pump(now[0], [PlayerButton(now[0], k % 2)])
    assert time.perf_counter() - t0 < 2.0
    assert loop.frame.message == "DISK FULL"
    loop.message = "menu locked while a clock runs: pause first"
    loop.pump(now[0])
    assert loop.frame.message == "DISK FULL | menu locked while a clock runs: pause first"
    del fs.fail["pwrite"]
    item = inbox.get(timeout=5)
    while not (isinstance(item, DiskStatus) and item.status == ""):
        item = inbox.get(timeout=5)
    loop.message = ""
    loop.pump(now[0])
    assert loop.frame.message == ""
    journal.writer.flush(5)
    presses = [ln for ln in lines_of(tmp_path / "games" / "000001.log") if " start " in ln or " press " in ln]
    assert len(presses) == 200


def test_a_read_only_state_folder_at_start_still_gives_a_clock(tmp_path):
    fs = FakeFS()
    fs.fail["mkdir"] = erofs()
    statuses: list[str] = []
    writer = Writer(fs, on_status=statuses.append, backoff_min_s=0.005, backoff_max_s=0.01)
    journal = Journal(tmp_path / "state", fs=fs, writer=writer).open()
    assert journal.status == "DISK READ-ONLY"
    assert journal.recover() is None
    journal.begin_game({"preset": "crossword"}, 0)
    journal.checkpoint(S)
    time.sleep(0.05)
    assert journal.writer.pending() >= 3
    del fs.fail["mkdir"]
    assert journal.writer.flush(5)
    assert lines_of(tmp_path / "state" / "games" / "000001.log") == [
        "preset crossword", lines_of(tmp_path / "state" / "games" / "000001.log")[1], "1 checkpoint"]
    assert journal.status == ""


def test_close_gives_up_on_a_dead_disk_without_hanging(tmp_path, caplog):
    fs = FakeFS()
    journal = journal_with(tmp_path, fs, [])
    journal.begin_game({"preset": "crossword"}, 0)
    journal.writer.flush()
    fs.fail["pwrite"] = OSError(errno.EIO, "I/O error")
    journal.checkpoint(S)
    t0 = time.monotonic()
    left = journal.close(timeout=0.3)
    assert time.monotonic() - t0 < 2
    assert left >= 1
    assert "writes not done" in caplog.text


def test_status_changes_are_reported_once_per_change(tmp_path):
    fs = FakeFS()
    statuses: list[str] = []
    journal = journal_with(tmp_path, fs, statuses)
    journal.begin_game({"preset": "crossword"}, 0)
    journal.writer.flush()
    for exc, _shown in ((enospc(), "DISK FULL"), (erofs(), "DISK READ-ONLY")):
        fs.fail["pwrite"] = exc
        journal.checkpoint(S)
        wait_for(lambda: journal.writer.failures >= 3)
        journal.writer.failures = 0
        del fs.fail["pwrite"]
        journal.writer.flush(5)
    assert statuses == ["DISK FULL", "", "DISK READ-ONLY", ""]


def test_a_bug_in_an_op_is_logged_and_does_not_block_the_journal(tmp_path, caplog):
    from gameclock.persist.writer import Call
    fs = FakeFS()
    journal = journal_with(tmp_path, fs, [])
    journal.begin_game({"preset": "crossword"}, 0)
    journal.writer.submit(Call(lambda fs: 1 / 0, "a bug"))
    journal.checkpoint(S)
    assert journal.writer.flush(5)
    assert lines_of(tmp_path / "games" / "000001.log")[-1] == "1 checkpoint"
    assert "a bug" in caplog.text
    _ = threading  # (threads: the writer's own)
