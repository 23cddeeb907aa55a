"""Issue 13 hole 7 and the read-only state folder (hole 8): a damaged outbox record is built again from
its game journal under its original id and delivered (CL-5: the journal holds the confirmed result);
the screen never says REFUSED for what the PC never refused; `replay --state-dir` on a state folder's
own journal keeps the original id and adds nothing to an intact state; a result the PC acked that
cannot be marked sent (read-only state folder) is not sent again and again, and the screen says so.

The game: Crossword (XW-2: 22:00 a side), left moves 1 s, right 4 s, finished at 6 s, scores 412 and
388 entered, both players confirm: the record `sim-000001` (the loop's serial "sim", sequence 1)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from dockkit import KEY, Wire, make_pc, make_store

from bench.repaircrash import confirmed_state
from gameclock.dock.clockside import ClockEndpoint
from gameclock.dock.keystore import KeyStore
from gameclock.persist.outbox import Outbox, RecordDamaged
from gameclock.persist.rebuild import RebuildError, rebuild
from gameclock.rules.loader import load_presets

S = 1_000_000_000
RID = "sim-000001"
REPO = Path(__file__).resolve().parents[2]


class Null:
    def show(self, frame) -> None:
        pass

    def beep(self, alert, text) -> None:
        pass


@pytest.fixture(scope="module")
def presets():
    return load_presets()


def confirmed_game(presets, state: Path) -> dict:
    """Play and confirm the module's game through the loop and its journal; the record stored."""
    return confirmed_state(state, serial="sim")


def without_walls(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("started", "ended")}


def clock_on(state: Path) -> ClockEndpoint:
    keys = KeyStore(state)
    keys.set(KEY)
    return ClockEndpoint("sim", Outbox(state, rebuild=rebuild), keys)  # as restore.attach makes it


def test_a_damaged_record_is_built_again_from_its_journal_with_its_id(presets, tmp_path):
    original = confirmed_game(presets, tmp_path)
    path = tmp_path / "outbox" / f"{RID}.json"
    damaged = path.read_bytes()[:200]  # a torn copy
    path.write_bytes(damaged)
    record = Outbox(tmp_path, rebuild=rebuild).read(RID)
    assert record["id"] == RID and record["clock"]["seq"] == 1
    # the same result: XW-3/XW-8 scores and outcome as the players confirmed them
    assert without_walls(record) == without_walls(original)
    assert record["scores"]["entered"] == {"left": 412, "right": 388} and record["confirmed"] is True
    assert (tmp_path / "outbox" / f"{RID}.json.damaged").read_bytes() == damaged  # kept aside
    assert json.loads(path.read_text()) == record  # stored again
    assert Outbox(tmp_path).pending() == [RID]
    # an outbox without a journal to build from says so, and keeps what it has
    path.write_bytes(damaged)
    with pytest.raises(RecordDamaged, match="no journal to build it from"):
        Outbox(tmp_path).read(RID)


def test_the_rebuilt_record_is_delivered_and_refused_is_never_shown(presets, tmp_path):
    confirmed_game(presets, tmp_path)
    (tmp_path / "outbox" / f"{RID}.json").write_bytes(b'{"id": "sim-000001", "scores": [4')
    clock = clock_on(tmp_path)
    statuses = []
    clock.on_status = statuses.append
    store = make_store(tmp_path / "pc.db", {"sim": KEY})
    Wire(clock, make_pc(store)).run(10)
    assert [r["id"] for r in store.results()] == [RID]  # CL-5: delivered
    assert Outbox(tmp_path).sent() == [RID]
    assert not any("REFUSED" in s.text() or "DAMAGED" in s.text() for s in statuses)
    assert statuses[-1].text() == "DOCKED: ALL SENT (1)"
    store.close()


def test_a_record_that_cannot_be_rebuilt_shows_damaged_not_refused(presets, tmp_path):
    confirmed_game(presets, tmp_path)
    (tmp_path / "outbox" / f"{RID}.json").write_bytes(b"\x00" * 50)
    (tmp_path / "games" / "000001.log").unlink()  # the journal is gone too
    with pytest.raises(RecordDamaged, match="cannot be read"):
        Outbox(tmp_path, rebuild=rebuild).read(RID)
    clock = clock_on(tmp_path)
    store = make_store(tmp_path / "pc.db", {"sim": KEY})
    Wire(clock, make_pc(store)).run(10)
    assert store.results() == [] and store.refusals() == []  # the PC refused nothing
    assert clock.status.text() == "DOCKED: 1 DAMAGED (SEE LOG)" and clock.status.tag() == "DOCK DAMAGED 1"
    assert Outbox(tmp_path).pending() == [RID]  # kept: nothing is deleted
    store.close()


def test_rebuild_refuses_a_game_not_confirmed(presets, tmp_path):
    confirmed_game(presets, tmp_path)
    path = tmp_path / "games" / "000001.log"
    lines = path.read_bytes().split(b"\n")[:-1]
    keep = [ln for ln in lines if b"confirm right" not in ln and b"closed" not in ln]
    path.write_bytes(b"\n".join(keep) + b"\n")
    with pytest.raises(RebuildError, match="no result both players confirmed"):
        rebuild(tmp_path, RID)


def replay(path: Path, state: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gameclock", "replay", str(path), "--state-dir", str(state)],
                          capture_output=True, text=True, timeout=60, cwd=REPO)


def test_replay_state_dir_keeps_the_original_id_and_adds_nothing_to_an_intact_state(presets, tmp_path):
    original = confirmed_game(presets, tmp_path)
    journal = tmp_path / "games" / "000001.log"
    before = sorted(p.name for p in (tmp_path / "outbox").iterdir())
    r = replay(journal, tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["outbox"] == {"id": RID, "added": False}
    assert sorted(p.name for p in (tmp_path / "outbox").iterdir()) == before == [f"{RID}.json"]
    assert (tmp_path / "sequence").read_text() == "1\n"  # no number used up
    # the record lost altogether: put back under its own id, once
    (tmp_path / "outbox" / f"{RID}.json").unlink()
    r = replay(journal, tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["outbox"] == {"id": RID, "added": True}
    assert without_walls(json.loads((tmp_path / "outbox" / f"{RID}.json").read_text())) == without_walls(original)
    r = replay(journal, tmp_path)
    assert json.loads(r.stdout)["outbox"] == {"id": RID, "added": False}


def test_an_ack_that_cannot_be_noted_is_not_sent_again_and_the_screen_says_so(presets, tmp_path):
    confirmed_game(presets, tmp_path)
    clock = clock_on(tmp_path)

    def read_only(rid):
        raise OSError(30, "Read-only file system")

    clock.outbox.mark_sent = read_only  # type: ignore[method-assign]
    store = make_store(tmp_path / "pc.db", {"sim": KEY})
    pc = make_pc(store)
    wire = Wire(clock, pc)
    wire.run(120)  # two minutes docked: the outbox is scanned again many times
    assert pc.sessions[-1].stored == 1 and pc.sessions[-1].duplicates == 0  # sent once, never again
    assert clock.status.tag() == "DOCK STATE READ-ONLY"
    assert clock.status.text() == "STATE READ-ONLY: 1 SENT, NOT NOTED"
    store.close()
