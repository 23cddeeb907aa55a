"""The outbox (CL-5): a confirmed record is durable before anyone is told it is stored; the same id
twice is one file; a crash at any step of a put or of mark_sent leaves the record in exactly one
place or (for a put that never finished) nowhere yet; the sequence counter never repeats."""
from __future__ import annotations

import json
import os

import pytest
from fakefs import Crash, FakeFS, enospc

from gameclock.persist.outbox import Outbox, OutboxError, Sequence


def rec(rid: str, **more) -> dict:
    return {"id": rid, "outcome": "left", **more}


def test_put_writes_temp_fsyncs_renames_then_fsyncs_the_folder(tmp_path):
    fs = FakeFS()
    box = Outbox(tmp_path, fs)
    box.prepare()
    fs.calls.clear()
    assert box.put(rec("GC1-000001")) is True
    calls = [c for c in fs.calls if c[0] != "close"]
    assert [n for n, _ in calls] == ["open", "pwrite", "fsync", "rename", "fsync_dir"]
    assert calls[0][1].endswith("outbox/.tmp-GC1-000001.json")
    assert calls[3][1].endswith("outbox/.tmp-GC1-000001.json -> " + str(tmp_path / "outbox/GC1-000001.json"))
    assert calls[4][1] == str(tmp_path / "outbox")
    assert box.pending() == ["GC1-000001"]
    assert box.read("GC1-000001") == rec("GC1-000001")


def test_same_id_twice_is_one_file_and_the_first_content_stays(tmp_path):
    box = Outbox(tmp_path)
    box.prepare()
    assert box.put(rec("A-1", scores=[412, 388])) is True
    assert box.put(rec("A-1", scores=[412, 388])) is False
    assert box.put(rec("A-1", scores=[1, 2])) is False  # logged; the stored one is kept
    assert os.listdir(tmp_path / "outbox") == ["A-1.json"]
    assert box.read("A-1")["scores"] == [412, 388]


def test_mark_sent_moves_once_and_a_sent_id_is_not_put_again(tmp_path):
    box = Outbox(tmp_path)
    box.prepare()
    box.put(rec("A-1"))
    box.put(rec("A-2"))
    assert box.mark_sent("A-1") is True
    assert box.mark_sent("A-1") is False  # idempotent
    assert box.pending() == ["A-2"] and box.sent() == ["A-1"]
    assert box.put(rec("A-1")) is False  # already at the PC: never a second copy
    assert box.pending() == ["A-2"]
    assert box.read("A-1") == rec("A-1")
    with pytest.raises(KeyError):
        box.mark_sent("A-9")


def test_mark_sent_cleans_up_a_copy_left_in_both_folders(tmp_path):
    box = Outbox(tmp_path)
    box.prepare()
    box.put(rec("A-1"))
    (tmp_path / "sent" / "A-1.json").write_text(json.dumps(rec("A-1")))
    assert box.mark_sent("A-1") is True
    assert box.pending() == [] and box.sent() == ["A-1"]


@pytest.mark.parametrize("bad", [{"outcome": "x"}, {"id": ""}, {"id": "../x"}, {"id": "a b"},
                                 {"id": 7}, {"id": "ok", "x": object()}, ["id"]])
def test_bad_records_are_refused(tmp_path, bad):
    box = Outbox(tmp_path)
    box.prepare()
    with pytest.raises(OutboxError):
        box.put(bad)
    assert box.pending() == []


def _state(tmp_path) -> tuple[list[str], list[str], list[str]]:
    out = sorted(os.listdir(tmp_path / "outbox"))
    return ([n for n in out if not n.startswith(".")], [n for n in out if n.startswith(".")],
            sorted(os.listdir(tmp_path / "sent")))


def test_a_crash_at_every_step_of_a_put_leaves_nothing_or_the_whole_record(tmp_path):
    record = rec("A-1", scores=[412, 388], moves=list(range(200)))
    steps = 0
    while True:
        d = tmp_path / f"run{steps}"
        Outbox(d).prepare()
        fs = FakeFS()
        fs.crash_at = steps
        try:
            Outbox(d, fs).put(record)
            finished = True
        except Crash:
            finished = False
        # the restarted clock: temp files removed, the record there completely or not at all
        box = Outbox(d)
        box.prepare()
        done, temps, sent = _state(d)
        assert temps == [] and sent == []
        if done:
            assert box.read("A-1") == record
        else:
            assert not finished
            assert box.put(record) is True  # recovery puts it again: one file
        assert box.pending() == ["A-1"]
        if finished:
            break
        steps += 1
    assert steps == 5  # open, pwrite, fsync, rename, fsync_dir: a crash before each, then none


def test_a_crash_at_every_step_of_mark_sent_leaves_it_in_exactly_one_folder(tmp_path):
    steps = 0
    while True:
        d = tmp_path / f"run{steps}"
        box = Outbox(d)
        box.prepare()
        box.put(rec("A-1"))
        fs = FakeFS()
        fs.crash_at = steps
        try:
            Outbox(d, fs).mark_sent("A-1")
            finished = True
        except Crash:
            finished = False
        done, temps, sent = _state(d)
        assert len(done) + len(sent) == 1, (done, sent)
        Outbox(d).mark_sent("A-1")  # the PC acknowledges again (it always does): now sent
        assert _state(d) == ([], [], ["A-1.json"])
        if finished:
            break
        steps += 1
    assert steps == 3  # rename, fsync_dir sent, fsync_dir outbox


def test_a_failed_put_raises_and_a_retry_succeeds(tmp_path):
    fs = FakeFS()
    box = Outbox(tmp_path, fs)
    box.prepare()
    fs.fail["pwrite"] = enospc()
    with pytest.raises(OSError):
        box.put(rec("A-1"))
    assert box.pending() == []
    del fs.fail["pwrite"]
    assert box.put(rec("A-1")) is True
    assert box.pending() == ["A-1"]


def test_sequence_counts_on_from_the_file_or_the_floor_and_stores_durably(tmp_path):
    fs = FakeFS()
    s = Sequence(tmp_path, fs)
    assert (s.allocate(), s.allocate()) == (1, 2)
    s.store(fs, 2)
    assert (tmp_path / "sequence").read_text() == "2\n"
    assert [n for n in fs.names() if n != "close"] == ["open", "pwrite", "fsync", "rename", "fsync_dir"]
    assert Sequence(tmp_path).allocate() == 3
    assert Sequence(tmp_path, floor=9).allocate() == 10  # a game file numbered 9 on disk wins
    (tmp_path / "sequence").write_text("garbage")
    assert Sequence(tmp_path, floor=4).allocate() == 5
    s2 = Sequence(tmp_path, floor=7)
    s2.store(FakeFS(), 5)  # never lowered
    assert Sequence(tmp_path).stored in (0, 5)
