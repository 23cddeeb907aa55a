"""`gameclock replay FILE --state-dir DIR` puts a confirmed result into DIR's outbox as the device does
(CL-5): a durable sequence number, the clock's serial, the record; never twice for the same game."""
from __future__ import annotations

import json
import subprocess
import sys

from gameclock.device.identity import clock_serial

GAME = """\
preset crossword
level secondary
stage last
0 start left
600 press left
900 press right
1818 press left   # left 3:18 over: 40 points (XW-3)
2400 finish
2410 score left 412
2411 score right 388
2412 confirm left
2413 confirm right
"""


def replay(path, state_dir):
    return subprocess.run([sys.executable, "-m", "gameclock", "replay", str(path), "--state-dir", str(state_dir)],
                          capture_output=True, text=True, timeout=60)


def test_a_confirmed_result_goes_to_the_outbox_once(tmp_path):
    log = tmp_path / "game.log"
    log.write_text(GAME)
    state = tmp_path / "state"
    first = replay(log, state)
    assert first.returncode == 0, first.stderr
    rid = f"{clock_serial()}-000001"
    assert json.loads(first.stdout)["outbox"] == {"id": rid, "added": True}
    record = json.loads((state / "outbox" / f"{rid}.json").read_text())
    # XW-3 / XW-8: 412 - 40 = 372 against 388: right wins by 16 (under the last game's cap of 200)
    assert record["scores"]["final"] == {"left": 372, "right": 388}
    assert record["scores"]["spread"] == {"left": -16, "right": 16}
    assert record["outcome"] == "right"
    assert (state / "sequence").read_text() == "1\n"
    # the same game again: nothing new
    again = replay(log, state)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["outbox"] == {"id": rid, "added": False}
    assert sorted(p.name for p in (state / "outbox").iterdir()) == [f"{rid}.json"]


def test_an_unconfirmed_result_is_refused(tmp_path):
    log = tmp_path / "game.log"
    log.write_text(GAME.replace("2413 confirm right\n", ""))
    r = replay(log, tmp_path / "state")
    assert r.returncode == 1
    assert "no result confirmed by both players" in r.stderr
    assert not (tmp_path / "state" / "outbox").exists() or not list((tmp_path / "state" / "outbox").iterdir())
