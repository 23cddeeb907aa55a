"""Issue 6's acceptance, end to end across processes: the clock's `gameclock upload` and the PC's
`gameclock receive`, each a real child process on one end of a pty "cable" (`dockkit.PtyRelay`: two
ptys whose masters this test joins, keeping both slaves open so a dying child leaves no hang-up).

CL-5: a result is kept on the clock until the organiser's PC has acknowledged it. So 1,000 results
must arrive exactly once, content-equal, however often either side is killed (SIGKILL at seeded
random moments, four times each, each restarted at once): the PC's database holds the 1,000 ids once,
the clock's outbox/ ends empty and its sent/ holds the 1,000. A smaller run goes through a noisy
cable (bits flipped, bytes lost) with the same outcome.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from dockkit import KEY, SERIAL, PtyRelay, make_store, records

from gameclock.dock.keystore import KeyStore
from gameclock.organiser.store import Store
from gameclock.persist.outbox import Outbox

REPO = Path(__file__).resolve().parents[2]
SEED = 20261121
N = 1000
KILLS_EACH = 4
DEADLINE_S = 80


class Child:
    """One of the two programs, restarted under the same command line; each run logs to its own file."""

    def __init__(self, name: str, argv: list[str], folder: Path):
        self.name, self.argv, self.folder = name, argv, folder
        self.runs = 0
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.runs += 1
        out = open(self.folder / f"{self.name}-{self.runs}.out", "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "gameclock", *self.argv], cwd=REPO,
                                     stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        out.close()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def output(self, run: int | None = None) -> str:
        return (self.folder / f"{self.name}-{run or self.runs}.out").read_text(errors="replace")

    def tails(self) -> str:
        return "\n".join(f"--- {self.name} run {i}:\n{self.output(i)[-1500:]}" for i in range(1, self.runs + 1))


def setup(tmp_path: Path, n: int):
    """The clock's state folder with `n` results in its outbox and its key; the PC's database with it."""
    state, db = tmp_path / "clock-state", tmp_path / "pc.db"
    outbox = Outbox(state)
    outbox.prepare()
    recs = records(n)
    for rec in recs:
        assert outbox.put(rec)
    KeyStore(state).set(KEY)
    make_store(db).close()  # holds SERIAL's KEY (Store.add_key)
    return state, db, outbox, recs


def check_exactly_once(db: Path, outbox: Outbox, recs: list[dict], where: str) -> None:
    store = Store(db)
    try:
        ids = [r["id"] for r in recs]
        assert store.count_results() == len(recs), where
        got = {r["id"]: r for r in store.results()}
        assert sorted(got) == sorted(ids), where
        assert all(got[r["id"]] == r for r in recs), f"{where}: a stored record differs from the clock's"
        assert store.conflicts() == [], where
    finally:
        store.close()
    assert outbox.pending() == [], where
    assert outbox.sent() == sorted(ids), where
    assert all(outbox.read(r["id"]) == r for r in recs), where


def progress(outbox: Outbox) -> int:
    return len(os.listdir(outbox.sent_dir))


def test_1000_results_arrive_exactly_once_though_either_side_is_killed(tmp_path):
    rng = random.Random(SEED)
    state, db, outbox, recs = setup(tmp_path, N)
    # when to kill whom: after a seeded random number of results reached sent/, plus a random moment
    victims = ["clock"] * KILLS_EACH + ["pc"] * KILLS_EACH
    rng.shuffle(victims)
    marks = sorted(rng.sample(range(40, N - 60), len(victims)))
    kills = {"clock": 0, "pc": 0}
    with PtyRelay() as relay:
        clock = Child("clock", ["upload", "--port", relay.path_a, "--state-dir", str(state), "--serial", SERIAL],
                      tmp_path)
        pc = Child("pc", ["receive", "--port", relay.path_b, "--db", str(db)], tmp_path)
        children = {"clock": clock, "pc": pc}
        t0 = time.monotonic()
        try:
            pc.start()
            clock.start()
            for who, mark in zip(victims, marks, strict=False):
                while progress(outbox) < mark and clock.proc.poll() is None:
                    assert time.monotonic() - t0 < DEADLINE_S, f"seed {SEED}: stuck at {progress(outbox)}"
                    time.sleep(0.005)
                if clock.proc.poll() is not None:
                    break
                time.sleep(rng.uniform(0, 0.05))
                children[who].kill()
                kills[who] += 1
                time.sleep(rng.uniform(0, 0.3))
                children[who].start()
            rc = clock.proc.wait(max(1, DEADLINE_S - (time.monotonic() - t0)))
            took = time.monotonic() - t0
            pc.proc.send_signal(signal.SIGTERM)
            pc_rc = pc.proc.wait(15)
        except BaseException:
            for c in children.values():
                if c.proc is not None and c.proc.poll() is None:
                    c.kill()
            print(clock.tails(), pc.tails(), sep="\n")
            raise
        assert relay.error is None
    where = f"seed {SEED}, kills {kills} at {marks} sent ({victims}), {took:.1f} s"
    assert rc == 0, f"{where}: upload exited {rc}\n{clock.tails()}"
    assert kills == {"clock": KILLS_EACH, "pc": KILLS_EACH}, where
    assert clock.runs == KILLS_EACH + 1 and pc.runs == KILLS_EACH + 1
    assert "all sent" in clock.output(), where
    assert pc_rc == 0 and " stored, " in pc.output(), f"{where}\n{pc.tails()}"  # SIGTERM: the summary
    check_exactly_once(db, outbox, recs, where)
    print(where)


def test_a_noisy_line_loses_and_doubles_nothing(tmp_path):
    n = 200
    state, db, outbox, recs = setup(tmp_path, n)
    # about 1 byte in 50,000 flipped and 1 in 50,000 lost: some results, acks and hellos are spoilt
    with PtyRelay(garble=2e-5, drop=2e-5, rng=random.Random(SEED)) as relay:
        clock = Child("clock", ["upload", "--port", relay.path_a, "--state-dir", str(state), "--serial", SERIAL,
                                "--timeout", "60"], tmp_path)
        pc = Child("pc", ["receive", "--port", relay.path_b, "--db", str(db)], tmp_path)
        t0 = time.monotonic()
        pc.start()
        clock.start()
        try:
            rc = clock.proc.wait(70)
        finally:
            if clock.proc.poll() is None:
                clock.kill()
            pc.proc.send_signal(signal.SIGTERM)
            pc_rc = pc.proc.wait(15)
        took = time.monotonic() - t0
        mangled = relay.mangled
        assert relay.error is None
    where = f"seed {SEED}: {mangled} bytes mangled, {took:.1f} s"
    assert rc == 0, f"{where}\n{clock.tails()}\n{pc.tails()}"
    assert pc_rc == 0
    assert mangled > 0, where  # the cable was noisy
    # each spoilt line is refused where it arrives (and repaired by a retry): the clock logs its
    # refusals, the PC lists its refused lines in the summary
    refused_lines = clock.output().count("refused from PC: ") + ("refused lines:" in pc.output())
    assert refused_lines > 0, f"{where}\n{clock.tails()}\n{pc.tails()}"
    check_exactly_once(db, outbox, recs, where)
    print(where)
