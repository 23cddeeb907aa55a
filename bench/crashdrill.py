"""The crash drill (issue 4's acceptance; CL-5, CL-6): kill -9 the clock at random moments across
play, result entry and outbox writes, start it again, and check what came back.

    python -m bench.crashdrill [--trials 200] [--seed 1] [--chains 4] [--dir DIR] [--exec] [--virtual]
    python -m bench.crashdrill child STATE_DIR [START_NS]   (the clock under test; START_NS: virtual time)

The clock under test (`child`) is the real loop (gameclock.loop.Loop: its result entry, its record
builder) on the real journal, writer thread, outbox and restore (`persist.restore.attach`, as
`gameclock run` does), with no pins and no displays. Its inputs come on stdin, one per line, each
stamped by the driver with `time.monotonic_ns()` when it sent it -- the edge time, as lgpio gives
it on the Pi, so the driver knows each input's exact instant:

    left STAMP | right STAMP | pause STAMP      a player's button, the pause button (loop inputs)
    finish STAMP                                the game menu's Finish
    entry STAMP score left 412                  a result-entry line through Loop.enter
    newgame STAMP                               a new crossword game at ready
    ack STAMP                                   the PC acknowledges every record in the outbox
    tick STAMP                                  virtual time only: it is STAMP now (answered `at ...`)

On stdout it says `ready {json}` once it has restored (what it restored: sequence number, phase,
each side's remaining ns, events, entry lines) and `game SEQ` after each new game.

The driver plays crossword games (22:00 each, no increment: its own arithmetic knows the truth)
from an independent model of what it sent: presses by the running side, pauses, a finish, then the
result lines (unique scores per game, so each record says which game it is) and both confirmations,
sometimes a PC acknowledgement, then the next game. Each trial starts the clock, lets it run for a
random time (30 ms to 1.4 s) and kills it with SIGKILL; half of the trials that send a final
confirmation or an acknowledgement are killed 0-4 ms after it (inside the outbox writes). After
each start it checks:

- the restored game is the one being played, its events are a prefix of what was sent, and only
  inputs sent less than IN_FLIGHT_NS before the kill may be missing (`inputs_lost` counts others);
- each side's restored time against the truth at the kill instant for that prefix: the running side
  may have lost up to the checkpoint interval (`max_time_lost_ms`: the worst |restored - truth|);
- every confirmed result is in outbox/ or sent/ exactly once: `results_lost` (a game confirmed
  more than IN_FLIGHT_NS before a kill whose record is missing and that did not come back in its
  result entry), `results_duplicated` (two files for one game, or one id in both folders).

Trials run in `chains` independent state folders at once (each in its own process), to keep the
wall time down; their figures are added up.

Virtual time (`--virtual`, `drill(virtual=True)`: the test suite's drill). The clock under test keeps
its own monotonic clock (the loop's injected `clock`, a `VirtualClock`) that moves only when the driver
says: every stamped line moves it to its stamp, and `tick STAMP` moves it and wakes the loop, which
fires what is due as of STAMP (the journal's checkpoint timer takes the time as its argument), waits
until its writes are durable and answers `at STAMP WAKE` (its next wake, -1 for none). The driver
advances its model's time from wake to wake instead of sleeping, so the trials take the time the
processes need, not the minutes the games last, and a busy machine cannot stretch what the drill
measures. What stays real is the kill: one that comes at most KILL_WINDOW_NS after the last line the
driver sent (the confirmation or ack of an outbox kill, an input, a checkpoint's wake) follows that
line by the same time in real time, without waiting for the clock under test to finish it, so it can
land inside the writes the line started; any earlier line was answered, so done. Without --virtual
(the bench) everything is real time, as on the clock.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from gameclock.core import clock as core
from gameclock.core.control import NS_PER_MIN
from gameclock.core.events import Finish
from gameclock.inbox import DiskStatus, Input, PauseButton, PlayerButton
from gameclock.loop import Loop
from gameclock.persist.restore import attach, wake_loop
from gameclock.rules.loader import load_presets

REPO_ROOT = Path(__file__).resolve().parents[1]  # bench/ sits in the repository, beside firmware/

PRESET = "crossword"
SERIAL = "DRILL"
INITIAL_NS = 22 * NS_PER_MIN             # crossword: 22:00 a side, no increment (XW-2)
IN_FLIGHT_NS = 250_000_000               # inputs sent this close to a kill may be lost
READY_TIMEOUT_S = 20.0
SYNC_TIMEOUT_S = 20.0                    # virtual time: the clock under test answers a tick within this
KILL_WINDOW_NS = 4_000_000               # virtual time: a kill this soon after a line follows it in real time
MIN_STEP_NS = 1_000_000                  # virtual time: the smallest step to a wake that is already due
VIRTUAL_START_NS = 1_000 * 1_000_000_000  # virtual time: the driver's clock at the first start
TRIAL_MIN_S, TRIAL_MAX_S = 0.03, 1.4

log = logging.getLogger(__name__)


# =============================================================================== the clock under test
@dataclass(frozen=True)
class Command(Input):
    words: tuple = ()


@dataclass(frozen=True)
class Tick(Input):
    """Virtual time: the driver moved the clock to `at_ns`; the loop wakes and answers once it is done."""


class VirtualClock:
    """The clock under test's monotonic ns in virtual time: it stands still until the driver moves it
    (only forward), with each stamped line it sends."""

    def __init__(self, start_ns: int):
        self.ns = start_ns

    def __call__(self) -> int:
        return self.ns

    def advance(self, ns: int) -> None:
        if ns > self.ns:
            self.ns = ns


class _Null:
    def show(self, frame) -> None:
        pass

    def beep(self, alert, text) -> None:
        pass


class DrillLoop(Loop):
    """The real loop, plus the drill's commands (the menu's Finish and New game, result lines) and,
    in virtual time, the driver's ticks."""

    virtual = False   # the clock is a VirtualClock: time passes only with the driver's lines
    _ticked = None    # the newest Tick's time in this turn: answered once the turn is done

    def handle(self, item) -> None:
        if isinstance(item, Command):
            self.command(list(item.words), item.at_ns)
        elif isinstance(item, Tick):
            self._ticked = max(item.at_ns, self._ticked or 0)
        else:
            super().handle(item)

    def timeout(self, now_ns: int) -> float | None:
        if self.virtual:
            return None  # nothing comes due until the driver moves the clock (a Tick wakes the loop)
        return super().timeout(now_ns)

    def pump(self, now_ns: int, items=(), *, skip_unchanged: bool = False) -> None:
        super().pump(now_ns, items, skip_unchanged=skip_unchanged)  # the timers fire as of now_ns
        while self._ticked is not None:
            at, self._ticked = self._ticked, None
            if at > now_ns:  # the tick came in after this turn's time was read: a turn at its time
                super().pump(at, skip_unchanged=skip_unchanged)
                now_ns = at
            self.journal.writer.flush(SYNC_TIMEOUT_S)  # what the turns wrote is durable before the answer
            wake = self.next_wake()
            _say(f"at {at} {-1 if wake is None else wake}")

    def command(self, words: list[str], at_ns: int) -> None:
        if words[0] == "newgame":
            self.new_game(PRESET, 1)
            _say(f"game {self.journal.seq}")
        elif words[0] == "finish":
            self.apply(Finish, at_ns)
        elif words[0] == "entry":
            if getattr(self, "result", None) is None:
                self.watch_end(at_ns)
            if not self.enter(words[1:], at_ns):
                log.warning("drill: entry %s refused: %s", words[1:], self.message)


_OUT_FD = 1
_PRESETS = None  # the rule files as read once by the driver, for the clocks it forks (exec'd ones read them)


def _say(text: str) -> None:
    os.write(_OUT_FD, (text + "\n").encode())


def _read_commands(fd: int, inbox, outbox, vclock: VirtualClock | None = None) -> None:
    buf = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            return
        if not chunk:
            return
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            words = line.decode().split()
            if not words:
                continue
            verb, stamp, rest = words[0], int(words[1]), words[2:]
            if vclock is not None:
                vclock.advance(stamp)  # an input stamped STAMP: it is STAMP by now
            if verb == "tick":
                inbox.put(Tick(stamp))
            elif verb in ("left", "right"):
                inbox.put(PlayerButton(stamp, 0 if verb == "left" else 1))
            elif verb == "pause":
                inbox.put(PauseButton(stamp))
            elif verb == "ack":  # the dock's thread, as the PC acknowledges: not the loop's
                for rid in outbox.pending():
                    outbox.mark_sent(rid)
            else:
                inbox.put(Command(stamp, tuple([verb] + rest)))


def child_main(state_dir: str, in_fd: int = 0, out_fd: int = 1, start_ns: int | None = None) -> int:
    """The clock under test: restore, report, then serve the commands until killed. `start_ns`: run in
    virtual time, starting there (None: real time)."""
    global _OUT_FD
    _OUT_FD = out_fd
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, force=True,
                        format=f"%(asctime)s [{os.getpid()}] %(levelname)s %(name)s: %(message)s")
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    vclock = None if start_ns is None else VirtualClock(start_ns)
    presets = _PRESETS if _PRESETS is not None else load_presets()
    loop = DrillLoop(inbox, presets, _Null(), _Null(), clock_serial=SERIAL,
                     **({} if vclock is None else {"clock": vclock}))
    loop.virtual = vclock is not None
    loop.settings.level = "secondary"  # XW-8: the Crossword games' level, part of their set-up
    checkpoint_ms = os.environ.get("GAMECLOCK_DRILL_CHECKPOINT_MS")  # the negative control only
    on_status = wake_loop(inbox) if vclock is None else (lambda status: inbox.put(DiskStatus(vclock(), status)))
    journal, message = attach(loop, state_dir, on_status=on_status,
                              checkpoint_ns=int(float(checkpoint_ms) * 1e6) if checkpoint_ms else None)
    journal.writer.flush(10)  # a restored, confirmed result is stored before the report
    st = loop.state
    restored = getattr(journal, "restored", None) or {}
    result = getattr(loop, "result", None)
    report = {
        "pid": os.getpid(),
        "message": message,
        "restored_seq": restored.get("seq"),
        "restore_paused": restored.get("paused", False),
        "journal_events": restored.get("events"),
        "open_seq": journal.seq,
        "phase": None if st is None else st.phase,
        "running": None if st is None else st.running,
        "remaining_ns": None if st is None else [core.remaining_ns(st, s) for s in (0, 1)],
        "events": len(loop.events),
        "entries": len(getattr(loop, "entries", [])),
        "final": bool(result is not None and result.entry.final),
    }
    threading.Thread(target=_read_commands, args=(in_fd, inbox, journal.outbox, vclock), daemon=True,
                     name="drill-input").start()
    _say("ready " + json.dumps(report))
    loop.run()
    return 0


# =============================================================================== the driver's model
SCORE_LINES = ("score left {l}", "score right {r}", "confirm left", "confirm right")


@dataclass
class Game:
    """One game as the driver played it. The model restarts at each restore from what the clock
    restored (once that has been checked): `base_*`, then the inputs sent since."""
    g: int
    presses: int                     # presses to play before the finish
    seq: int | None = None
    newgame_at: int | None = None    # when `newgame` was sent (None: not yet)
    base_rem: list = field(default_factory=lambda: [INITIAL_NS, INITIAL_NS])
    base_phase: str = core.READY
    base_running: int | None = None
    base_events: int = 0
    inputs: list = field(default_factory=list)   # (kind, side, t_ns): start press pause resume finish
    entries_sent: list = field(default_factory=list)  # t_ns of each entry line, in order
    confirmed_at: int | None = None  # the second confirmation's send time
    stored: bool = False             # its record was found
    lost: bool = False
    acked: bool = False

    @property
    def scores(self) -> tuple[int, int]:
        return 100 + self.g, 1000 + self.g

    def entry_line(self, i: int) -> str:
        left, right = self.scores
        return SCORE_LINES[i].format(l=left, r=right)

    def fold(self, m: int | None = None, t_end: int | None = None):
        """(remaining per side, phase, running side) after the first `m` inputs, at `t_end`."""
        rem, phase, running, seg = list(self.base_rem), self.base_phase, self.base_running, None
        for kind, side, t in self.inputs[:m]:
            if kind == "start":
                running, phase, seg = side, core.RUNNING, t
            elif kind == "press":
                rem[running] -= t - seg
                running, seg = 1 - running, t
            elif kind == "pause":
                rem[running] -= t - seg
                phase = core.PAUSED
            elif kind == "resume":
                phase, seg = core.RUNNING, t
            elif kind == "finish":
                rem[running] -= t - seg
                phase = core.FINISHED
        if phase == core.RUNNING and t_end is not None:
            rem[running] -= t_end - seg
        return rem, phase, running

    def presses_done(self) -> int:
        return sum(k == "press" for k, _, _ in self.inputs) + self._presses_before

    _presses_before: int = 0


@dataclass
class Figures:
    crash_trials: int = 0
    results_lost: int = 0
    results_duplicated: int = 0
    max_time_lost_ms: float = 0.0
    max_idle_diff_ms: float = 0.0
    inputs_lost: int = 0             # durable for more than IN_FLIGHT_NS before a kill, yet missing
    inputs_in_flight_lost: int = 0   # sent within IN_FLIGHT_NS of a kill and lost (allowed)
    games_lost: int = 0
    games_confirmed: int = 0
    records: int = 0
    kills_play: int = 0
    kills_entry: int = 0
    kills_outbox: int = 0
    restores_running: int = 0
    restores_entry: int = 0          # came back in result entry
    restores_confirmed: int = 0      # came back confirmed, record not stored yet: stored again
    problems: list = field(default_factory=list)

    def add(self, other: Figures) -> None:
        for name in self.__dataclass_fields__:
            a, b = getattr(self, name), getattr(other, name)
            if name.startswith("max_"):
                setattr(self, name, max(a, b))
            else:
                setattr(self, name, a + b)


# =============================================================================== the driver
STALE = object()  # Child.wake after a line that may have changed the clock under test's wakes


class Child:
    """The clock under test as a process: fork()ed from this (single-threaded) process after the
    imports, or exec'd (`python -m bench.crashdrill child`). `start_ns`: in virtual time, from there."""

    def __init__(self, state_dir: str, log_path: str, use_exec: bool, start_ns: int | None = None):
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        self.proc = None
        if use_exec:
            with open(log_path, "ab") as errf:
                # the benches live beside the package, not in it: the child finds them from the root
                env = dict(os.environ, PYTHONPATH=os.pathsep.join(
                    filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "bench.crashdrill", "child", state_dir,
                     *([] if start_ns is None else [str(start_ns)])],
                    stdin=in_r, stdout=out_w, stderr=errf, close_fds=True, env=env)
            self.pid = self.proc.pid
        else:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:  # the child: never returns into the driver's code
                code = 1
                try:
                    os.close(in_w)
                    os.close(out_r)
                    err = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                    os.dup2(err, 2)
                    signal.signal(signal.SIGINT, signal.SIG_DFL)
                    code = child_main(state_dir, in_r, out_w, start_ns)
                finally:
                    os._exit(code)
            self.pid = pid
        os.close(in_r)
        os.close(out_w)
        self.stdin, self.stdout = in_w, out_r
        self.log_path = log_path
        self.buf = b""
        self.lines: list[str] = []
        self.wake = STALE  # virtual time: its next wake (monotonic ns, None: none), from its last answer

    def send(self, text: str) -> None:
        os.write(self.stdin, (text + "\n").encode())

    def poll(self, until_ns: int) -> None:
        """Read what the child said until monotonic `until_ns`."""
        while True:
            left = (until_ns - time.monotonic_ns()) / 1e9
            ready, _, _ = select.select([self.stdout], [], [], max(0.0, left))
            if ready:
                chunk = os.read(self.stdout, 65536)
                if not chunk:
                    time.sleep(max(0.0, (until_ns - time.monotonic_ns()) / 1e9))
                    return
                self.buf += chunk
                while b"\n" in self.buf:
                    line, self.buf = self.buf.split(b"\n", 1)
                    self.lines.append(line.decode())
            if time.monotonic_ns() >= until_ns:
                return

    def _read(self, timeout_s: float) -> None:
        """Take what the child said, waiting at most `timeout_s` for it to say something."""
        ready, _, _ = select.select([self.stdout], [], [], max(0.0, timeout_s))
        if ready:
            chunk = os.read(self.stdout, 65536)
            if not chunk:  # it is gone: the caller sees it exited
                time.sleep(0.01)
                return
            self.buf += chunk
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                self.lines.append(line.decode())

    def _await(self, prefix: str, timeout_s: float, what: str) -> str:
        """The first line starting with `prefix` (taken out of `lines`), as soon as it came."""
        deadline = time.monotonic_ns() + int(timeout_s * 1e9)
        while True:
            for i, line in enumerate(self.lines):
                if line.startswith(prefix):
                    del self.lines[i]
                    return line
            if time.monotonic_ns() > deadline or self.exited():
                raise RuntimeError(f"the clock under test did not {what}:\n{_tail(self.log_path)}")
            self._read(min(0.05, (deadline - time.monotonic_ns()) / 1e9))

    def ready(self, log_path: str) -> dict:
        line = self._await("ready ", READY_TIMEOUT_S, "get ready")
        return json.loads(line[6:])

    def sync(self, at_ns: int) -> None:
        """Virtual time: wait for the answer to `tick at_ns` (everything up to it handled and durable)
        and keep the next wake it names."""
        wake = int(self._await(f"at {at_ns} ", SYNC_TIMEOUT_S, f"answer tick {at_ns}").split()[2])
        self.wake = None if wake < 0 else wake

    def exited(self) -> bool:
        if self.proc is not None:
            return self.proc.poll() is not None
        try:
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return True
        if pid:
            self.pid = -1
            return True
        return False

    def kill(self) -> None:
        if self.pid > 0:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            if self.proc is not None:
                self.proc.wait()
            else:
                try:
                    os.waitpid(self.pid, 0)
                except ChildProcessError:
                    pass
            self.pid = -1
        for fd in (self.stdin, self.stdout):
            try:
                os.close(fd)
            except OSError:
                pass


def _tail(path: str, n: int = 40) -> str:
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def _records(state_dir: str) -> tuple[dict, list[str]]:
    """{id: record} of outbox/ and sent/, and the ids found in both."""
    found: dict = {}
    both = []
    for folder in ("outbox", "sent"):
        path = os.path.join(state_dir, folder)
        try:
            names = os.listdir(path)
        except FileNotFoundError:
            continue
        for name in names:
            if name.startswith(".") or not name.endswith(".json"):
                continue
            rid = name[:-5]
            with open(os.path.join(path, name), encoding="utf-8") as f:
                record = json.load(f)
            if rid in found:
                both.append(rid)
            found[rid] = record
    return found, both


def _record_game(record: dict) -> int | None:
    """The drill's game number from a record's entered scores (left = 100 + g)."""
    for e in record.get("entries", []):
        words = e.get("line", "").split()
        if words[:2] == ["score", "left"]:
            return int(words[2]) - 100
    return None


class Chain:
    """Trials one after another on one state folder. `virtual`: in virtual time (the module doc)."""

    def __init__(self, state_dir: str, seed: int, use_exec: bool = False, virtual: bool = False):
        self.dir = state_dir
        self.rng = random.Random(seed)
        self.use_exec = use_exec
        self.virtual = virtual
        self.vnow = VIRTUAL_START_NS  # virtual time: the driver's clock (the model's and its stamps')
        self.log_path = os.path.join(state_dir, "drill-children.log")
        self.games: list[Game] = []
        self.fig = Figures()
        self.seen_records: set = set()
        os.makedirs(state_dir, exist_ok=True)

    # ------------------------------------------------------------------ the plan
    def current(self) -> Game:
        if not self.games or self.games[-1].lost or (self.games[-1].confirmed_at is not None
                                                     and self._acted_after_confirm):
            self._acted_after_confirm = False
            self.games.append(Game(g=len(self.games), presses=self.rng.randint(2, 9)))
        return self.games[-1]

    _acted_after_confirm = False

    def next_action(self, game: Game) -> tuple[float, str, tuple]:
        """(gap before it in s, the line to send without its stamp, the model's record of it)."""
        rng = self.rng
        if game.newgame_at is None and game.seq is None:
            return rng.uniform(0.01, 0.06), "newgame", ("newgame",)
        rem, phase, running = game.fold()
        if phase == core.READY:
            return rng.uniform(0.03, 0.3), "left", ("start", 1)     # left's button starts right's clock
        if phase == core.RUNNING:
            if game.presses_done() >= game.presses:
                return rng.uniform(0.03, 0.3), "finish", ("finish", None)
            if rng.random() < 0.12:
                return rng.uniform(0.03, 0.3), "pause", ("pause", None)
            # a few long thinks (up to 3 s: longer than the 1 s CL-6 allows, so only checkpoints keep the
            # running side's loss under it; the negative control in tests/test_crash.py shows the drill sees it)
            think = rng.uniform(0.5, 3.0) if rng.random() < 0.15 else rng.uniform(0.02, 0.35)
            return think, ("left", "right")[running], ("press", running)
        if phase == core.PAUSED:
            return rng.uniform(0.03, 0.3), "pause", ("resume", None)
        i = len(game.entries_sent)
        if i < len(SCORE_LINES):
            return rng.uniform(0.02, 0.2), f"entry {game.entry_line(i)}", ("entry", i)
        if not game.acked and rng.random() < 0.5:
            return rng.uniform(0.02, 0.2), "ack", ("ack",)
        self._acted_after_confirm = True
        return 0.0, "", ("next",)

    def record(self, game: Game, what: tuple, t: int) -> None:
        kind = what[0]
        if kind == "newgame":
            game.newgame_at = t
        elif kind in ("start", "press", "pause", "resume", "finish"):
            game.inputs.append((kind, what[1], t))
        elif kind == "entry":
            game.entries_sent.append(t)
            if what[1] == len(SCORE_LINES) - 1:
                game.confirmed_at = t
                self.fig.games_confirmed += 1
        elif kind == "ack":
            game.acked = True

    # ------------------------------------------------------------------ time
    def now(self) -> int:
        return self.vnow if self.virtual else time.monotonic_ns()

    def wait_until(self, child: Child, t_ns: int, kill: bool = False) -> None:
        """Let time pass until `t_ns`, reading what the child says: in real time, waiting; in virtual
        time, moving the clock under test (`advance`). `kill`: the child is killed at `t_ns`."""
        if self.virtual:
            self.advance(child, t_ns, kill)
        else:
            child.poll(t_ns)

    def advance(self, child: Child, target: int, kill: bool = False) -> None:
        """Virtual time: move the clock under test to `target`, stopping at each wake it names (its
        timers fire there, as the real loop's would when it wakes) and waiting each time for its
        answer (`Child.sync`). After a line that may have changed its wakes (an input, a start) it is
        first asked at the time it stands at. `kill`: the kill comes at `target`; when that is at most
        KILL_WINDOW_NS after the last line sent (an input, a wake's tick), it follows that line by as
        much real time, without waiting for the answer (the module doc)."""
        while True:
            stale = child.wake is STALE
            if not stale and self.vnow >= target:
                break
            if kill and target - self.vnow <= KILL_WINDOW_NS and (stale or child.wake is None
                                                                  or child.wake > target):
                break  # the line just sent may still be in hand, or nothing comes due before the kill
            if stale:
                step = self.vnow  # where it stands, and its wakes after the line just sent
            elif child.wake is None or child.wake >= target:
                step = target
            else:
                step = min(target, max(child.wake, self.vnow + MIN_STEP_NS))
            child.send(f"tick {step}")
            self.vnow = step
            child.wake = STALE
            if kill and target - step <= KILL_WINDOW_NS:
                break  # a wake just before the kill: the kill may land in what it started
            child.sync(step)
        if kill:
            child.poll(time.monotonic_ns() + max(0, target - self.vnow))  # the kill's sliver of real time
        self.vnow = target

    # ------------------------------------------------------------------ one trial
    def trial(self, final: bool = False) -> None:
        child = Child(self.dir, self.log_path, self.use_exec, self.vnow if self.virtual else None)
        try:
            rep = child.ready(self.log_path)
            self.check(rep, child)
            if final:
                return
            self.fig.crash_trials += 1
            t0 = self.now()
            longest = float(os.environ.get("GAMECLOCK_DRILL_TRIAL_MAX_S", TRIAL_MAX_S))  # the negative control
            kill_at = t0 + int(self.rng.uniform(TRIAL_MIN_S, longest) * 1e9)
            target_outbox = self.rng.random() < 0.5
            last_outbox_at = None
            while True:
                game = self.current()
                gap, line, what = self.next_action(game)
                if what == ("next",):
                    continue
                at = self.now() + int(gap * 1e9)
                if at >= kill_at:
                    self.wait_until(child, kill_at, kill=True)
                    break
                self.wait_until(child, at)
                stamp = self.now()
                verb, *rest = line.split(" ", 1)
                child.send(" ".join([verb, str(stamp)] + rest))
                child.wake = STALE
                self.record(game, what, stamp)
                self._learn(child)
                if what[0] == "ack" or (what[0] == "entry" and what[1] == len(SCORE_LINES) - 1):
                    last_outbox_at = stamp
                    if target_outbox:
                        kill_at = min(kill_at, stamp + int(self.rng.uniform(0, 0.004) * 1e9))
            self.t_kill = self.now()
            child.kill()
            self._learn(child)
            game = self.games[-1]
            if last_outbox_at is not None and self.t_kill - last_outbox_at < 20_000_000:
                self.fig.kills_outbox += 1
            elif game.entries_sent and game.confirmed_at is None:
                self.fig.kills_entry += 1
            elif game.fold()[1] == core.FINISHED:
                self.fig.kills_entry += 1
            else:
                self.fig.kills_play += 1
        finally:
            child.kill()

    def _learn(self, child: Child) -> None:
        for line in child.lines:
            if line.startswith("game "):
                seq = int(line.split()[1])
                for game in reversed(self.games):
                    if game.newgame_at is not None and game.seq is None:
                        game.seq = seq
                        break
        child.lines.clear()

    # ------------------------------------------------------------------ after a start
    def problem(self, text: str) -> None:
        self.fig.problems.append(text)

    def check(self, rep: dict, child: Child) -> None:
        t_kill = getattr(self, "t_kill", None)
        self._check_records(rep, t_kill)
        if t_kill is None:
            return
        seq = rep["restored_seq"]
        game = next((g for g in self.games if g.seq is not None and g.seq == seq), None) if seq else None
        if seq is not None and game is None:
            # the newest game: its `newgame` reached the disk but the driver never read `game SEQ`
            cand = self.games[-1] if self.games else None
            if cand is not None and cand.seq is None and cand.newgame_at is not None:
                cand.seq, game = seq, cand
            else:
                self.problem(f"restored game {seq} is none the driver played")
                return
        # Games after the restored one (or all, if none was restored) whose start never got durable
        for later in [g for g in self.games if g is not game and not g.stored and not g.lost
                      and (game is None or g.g > game.g)]:
            if later.newgame_at is not None and t_kill - later.newgame_at > IN_FLIGHT_NS:
                if later.confirmed_at is None or not later.stored:
                    self.fig.games_lost += 1
                    self.problem(f"game {later.g} (seq {later.seq}) vanished")
                    later.lost = True
            elif later.newgame_at is not None:
                self.fig.inputs_in_flight_lost += 1 + len(later.inputs) + len(later.entries_sent)
                self.games.remove(later)  # never reached the disk: played again from the start
        if game is None:
            return
        if game is not self.games[-1]:
            self.games = self.games[:self.games.index(game) + 1]
        self._check_game(game, rep, t_kill)

    def _check_game(self, game: Game, rep: dict, t_kill: int) -> None:
        m = rep["journal_events"] - game.base_events
        sent = len(game.inputs)
        must = sum(1 for _, _, t in game.inputs if t_kill - t > IN_FLIGHT_NS)
        if not 0 <= m <= sent:
            self.problem(f"game {game.g}: {m} events restored of {sent} sent")
            m = max(0, min(m, sent))
        if m < must:
            self.fig.inputs_lost += must - m
            self.problem(f"game {game.g}: {must - m} input(s) older than {IN_FLIGHT_NS / 1e6:g} ms lost")
        self.fig.inputs_in_flight_lost += sent - max(m, must)
        truth, phase, running = game.fold(m, t_kill)
        got = rep["remaining_ns"]
        want_phase = core.PAUSED if phase == core.RUNNING else phase
        if rep["phase"] != want_phase:
            self.problem(f"game {game.g}: restored {rep['phase']}, expected {want_phase}")
        for s in (0, 1):
            diff_ms = (got[s] - truth[s]) / 1e6
            if phase == core.RUNNING and s == running:
                self.fig.max_time_lost_ms = max(self.fig.max_time_lost_ms, abs(diff_ms))
                if diff_ms < -50:
                    self.problem(f"game {game.g}: the running side restored {diff_ms:.1f} ms short")
            else:
                self.fig.max_idle_diff_ms = max(self.fig.max_idle_diff_ms, abs(diff_ms))
                self.fig.max_time_lost_ms = max(self.fig.max_time_lost_ms, abs(diff_ms))
        if phase == core.RUNNING:
            self.fig.restores_running += 1
        if rep["phase"] in (core.FINISHED, core.FLAGGED):
            self.fig.restores_entry += 1
            self.fig.restores_confirmed += rep["final"]
        # result entry: the lines sent long enough before the kill are all back
        e = rep["entries"]
        must_e = sum(1 for t in game.entries_sent if t_kill - t > IN_FLIGHT_NS)
        if e < must_e:
            self.fig.inputs_lost += must_e - e
            self.problem(f"game {game.g}: {must_e - e} entry line(s) lost")
        if e < len(game.entries_sent):
            self.fig.inputs_in_flight_lost += len(game.entries_sent) - max(e, must_e)
            del game.entries_sent[e:]
            if game.confirmed_at is not None and len(game.entries_sent) < len(SCORE_LINES):
                game.confirmed_at = None
                self.fig.games_confirmed -= 1
        # the model goes on from what the clock restored
        game._presses_before = game.presses_done() - sum(k == "press" for k, _, _ in game.inputs[m:])
        game.base_rem = list(got)
        game.base_phase = rep["phase"]
        game.base_running = rep["running"]
        game.base_events = rep["events"]
        game.inputs = []

    def _check_records(self, rep: dict, t_kill: int | None) -> None:
        found, both = _records(self.dir)
        for rid in both:
            self.fig.results_duplicated += 1
            self.problem(f"record {rid} in outbox/ and sent/")
        by_game: dict = {}
        for rid, record in found.items():
            by_game.setdefault(_record_game(record), []).append(rid)
        for g, ids in by_game.items():
            if len(ids) > 1 and tuple(sorted(ids)) not in self.seen_records:
                self.seen_records.add(tuple(sorted(ids)))
                self.fig.results_duplicated += len(ids) - 1
                self.problem(f"game {g}: {len(ids)} records {ids}")
        for game in self.games:
            if game.g in by_game:
                game.stored = True
            elif game.confirmed_at is not None and not game.lost and t_kill is not None:
                restored_here = rep["restored_seq"] is not None and rep["restored_seq"] == game.seq
                if restored_here and not rep["final"]:
                    continue  # the confirmation was not durable yet: checked as an entry line
                if t_kill - game.confirmed_at > IN_FLIGHT_NS or restored_here:
                    self.fig.results_lost += 1
                    game.lost = True
                    self.problem(f"game {game.g} (seq {game.seq}): confirmed, no record")
        self.fig.records = len(found)


def run_chain(args: tuple) -> Figures:
    global _PRESETS
    state_dir, trials, seed, use_exec, virtual = args
    if not use_exec:
        _PRESETS = load_presets()  # once, not in every forked clock
    chain = Chain(state_dir, seed, use_exec, virtual)
    for _ in range(trials):
        chain.trial()
    chain.trial(final=True)  # one more start: what the last kill left
    # every game confirmed long enough before the last kill has exactly one record
    found, _ = _records(state_dir)
    chain.fig.records = len(found)
    return chain.fig


def drill(trials: int = 200, seed: int = 1, chains: int = 4, directory: str | None = None,
          use_exec: bool = False, virtual: bool = False) -> dict:
    """Run the drill; the figures as a dict (bench_crash, tests/test_crash.py). `virtual`: in virtual
    time (the module doc)."""
    own = directory is None
    base = directory or tempfile.mkdtemp(prefix="gameclock-crash-")
    chains = max(1, min(chains, trials))
    jobs = [(os.path.join(base, f"chain{i}"), trials // chains + (i < trials % chains), seed * 1000 + i,
             use_exec, virtual) for i in range(chains)]
    t0 = time.monotonic()
    try:
        if chains == 1:
            results = [run_chain(jobs[0])]
        else:
            import multiprocessing
            # spawn: each chain is a fresh single-threaded process, safe to fork() its children
            with multiprocessing.get_context("spawn").Pool(chains) as pool:
                results = pool.map(run_chain, jobs)
        total = Figures()
        for r in results:
            total.add(r)
        out = {k: v for k, v in total.__dict__.items()}
        out["max_time_lost_ms"] = round(out["max_time_lost_ms"], 3)
        out["max_idle_diff_ms"] = round(out["max_idle_diff_ms"], 3)
        out["crash_seconds"] = round(time.monotonic() - t0, 1)
        return out
    finally:
        if own:
            shutil.rmtree(base, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["child"]:
        return child_main(argv[1], start_ns=int(argv[2]) if len(argv) > 2 else None)
    p = argparse.ArgumentParser(prog="python -m bench.crashdrill")
    p.add_argument("--trials", type=int, default=int(os.environ.get("GAMECLOCK_CRASH_TRIALS", 200)))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--chains", type=int, default=4)
    p.add_argument("--dir", default=None, help="keep the state folders here (default: a temp folder)")
    p.add_argument("--exec", action="store_true", help="exec each clock (slower) instead of fork")
    p.add_argument("--virtual", action="store_true",
                   help="in virtual time: the clocks under test move only when the driver says")
    a = p.parse_args(argv)
    out = drill(a.trials, a.seed, a.chains, a.dir, a.exec, a.virtual)
    print(json.dumps(out, indent=1))
    bad = out["results_lost"] or out["results_duplicated"] or out["inputs_lost"] or out["games_lost"] \
        or out["max_time_lost_ms"] > 1000 or out["problems"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
