"""Issue 24 B4: `gameclock sim --dock` killed right after a result's confirmation delivers that result.

CL-5: a confirmed result is kept on the clock until the organiser's PC has it; CL-6: a crash brings
the game back. The simulator attached its journal before it had its serial (`sim-HOSTNAME`), so a
game confirmed just before a kill -9 was built again at the restart under the loop's default serial
`sim`: id `sim-000001`, refused by the PC for ever as wrong-clock (9 of 35 kills right after the
confirmation in the issue).

Here a real `gameclock sim --dock` process plays a game to both players' confirmation over its keys
script and is killed (SIGKILL) the moment the journal holds the second confirmation -- before the
journal's `closed result` line, which is the crash that needs the restore (a kill that comes after it
is tried again on a fresh state folder). It is started again on the same state folder, a real
`gameclock receive` docks with it over its pty, and the result must be stored under the clock's own
id, once, and leave the clock's outbox.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from dockkit import KEY, make_store

from gameclock.device.identity import clock_serial
from gameclock.dock.keystore import KeyStore
from gameclock.organiser.store import Store
from gameclock.persist.journal import scan
from gameclock.persist.outbox import Outbox

REPO = Path(__file__).resolve().parents[2]
# fischer-3+2: a chess result is one outcome (the first choice, an agreed draw), so the script is
# short: two presses, pause, the arbiter's unlock (hold the knob), End game (one notch back from
# Resume, Yes), the outcome kept (nothing missing: straight to the players, issue 27), then each
# player's button: `confirm left`, `confirm right`.
PLAY = "z 0.3s m 0.3s space 0.3s hold_push 0.3s j 0.2s push 0.2s k 0.2s push 0.3s push 0.3s z 0.3s m 60s"
ATTEMPTS = 6          # kills that come after the journal's `closed` line are tried again
DELIVERY_S = 40.0


def sim(tmp: Path, state: Path, dock: Path, script: str, run: int) -> subprocess.Popen:
    (tmp / f"keys{run}.txt").write_text(script)
    out = open(tmp / f"sim{run}.out", "wb")
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "gameclock", "sim", "--display", "png", "--out", str(tmp / f"frames{run}"),
             "--script", str(tmp / f"keys{run}.txt"), "--state-dir", str(state), "--dock", str(dock),
             "--preset", "fischer-3+2"],
            cwd=REPO, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    finally:
        out.close()


def journal_lines(path: Path) -> list[str]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    return [text for text, _ in scan(data).lines]


def kill_right_after_the_confirmation(tmp: Path, state: Path) -> list[str]:
    """Run the sim until its journal holds `confirm right`, SIGKILL it at once; the journal's lines then."""
    proc = sim(tmp, state, tmp / "dock1", PLAY, 1)
    path = state / "games" / "000001.log"
    deadline = time.monotonic() + 30
    try:
        while True:  # as fast as Python goes: the outbox write and the closed line follow within ms
            try:
                with open(path, "rb") as f:
                    if b" confirm right*" in f.read():
                        proc.send_signal(signal.SIGKILL)
                        break
            except FileNotFoundError:
                pass
            assert proc.poll() is None, (tmp / "sim1.out").read_text(errors="replace")
            assert time.monotonic() < deadline, "no confirmation in the journal within 30 s"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
    return journal_lines(path)


def test_a_sim_killed_right_after_a_confirmation_delivers_the_result(tmp_path):
    serial = "sim-" + clock_serial()  # what `gameclock sim --dock` calls itself on this machine
    rid = f"{serial}-000001"          # CL-5: SERIAL-SEQ, the first game of a new state folder
    for attempt in range(1, ATTEMPTS + 1):
        tmp = tmp_path / f"attempt{attempt}"
        state = tmp / "state"
        state.mkdir(parents=True)
        KeyStore(state).set(KEY)  # the clock is enrolled on the PC (its key in both places)
        lines = kill_right_after_the_confirmation(tmp, state)
        verbs = [ln.split()[1] for ln in lines if ln[:1].isdigit()]
        assert verbs.count("confirm") == 2, lines
        if "closed" not in verbs:
            break  # the kill came between the confirmation and the journal's close: the case of B4
    else:
        raise AssertionError(f"{ATTEMPTS} kills all came after the journal's closed line")
    assert not (state / "sent").exists() or not os.listdir(state / "sent")

    db = tmp / "pc.db"
    make_store(db, {serial: KEY}).close()
    dock = tmp / "dock2"
    clock = sim(tmp, state, dock, "90s", 2)
    pc = None
    try:
        deadline = time.monotonic() + 20
        while not dock.is_symlink():
            assert clock.poll() is None, (tmp / "sim2.out").read_text(errors="replace")
            assert time.monotonic() < deadline, "the sim made no dock link"
            time.sleep(0.05)
        pc_out = open(tmp / "pc.out", "wb")
        pc = subprocess.Popen([sys.executable, "-m", "gameclock", "receive", "--port", str(dock), "--db", str(db),
                               "-v"], cwd=REPO, stdout=pc_out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        pc_out.close()
        outbox = Outbox(state)
        deadline = time.monotonic() + DELIVERY_S
        while not (outbox.sent() and not outbox.pending()):
            said = (tmp / "pc.out").read_text(errors="replace")
            assert "wrong-clock" not in said, said  # B4: the result built again under serial `sim`
            assert time.monotonic() < deadline, f"not delivered in {DELIVERY_S} s:\n{said}"
            time.sleep(0.1)
    finally:
        for p in (clock, pc):
            if p is not None and p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(5)
    with Store(db) as store:
        assert [r["id"] for r in store.results()] == [rid]
        assert store.refusals() == []
        assert store.conflicts() == []
    assert outbox.sent() == [rid] and outbox.pending() == []
    # CL-6: the second run restored the confirmed game (and built its record again: the same id)
    assert "restored: result entry (confirmed)" in (tmp / "sim2.out").read_text(errors="replace")
