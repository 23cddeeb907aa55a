"""What the receiver and wirefuzz benches share: a pty whose far end a real program opens, a real
`gameclock receive` child process, and the numbers read from outside it (RSS, database size).

`PtyEnd`: `os.openpty()`; the program under test opens `path` (the slave, put in raw mode; this process
keeps it open too, so the program may close and reopen it without a hang-up) and the bench talks on the
master: `write` (all of it, waiting while the program does not read: its input is the back-pressure, at
most `timeout` s), a reader thread that splits what the program writes into lines, counts every frame
by type (`counts`, `bad` for lines that are not frames) and, while `keep` is set, decodes and queues
them for `wait`. A program that opens a pty with pyserial drops what arrived before, so `hello_until`
says its hello again every 0.5 s until it is answered.
"""
from __future__ import annotations

import os
import queue
import re
import select
import signal
import subprocess
import sys
import threading
import time
import tty
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import gameclock
from gameclock.dock.frame import FrameError, LineSplitter, decode, encode

TYPE = re.compile(rb'^\{"t":"([a-z-]{1,20})"')
FIRMWARE = Path(gameclock.__file__).resolve().parents[1]  # the gameclock this bench imported
REPO = Path(__file__).resolve().parents[1]


class PtyEnd:
    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.split = LineSplitter()
        self.counts: Counter[str] = Counter()  # frames the program wrote, by type
        self.bad = 0                           # lines it wrote that are not frames
        self.keep = True                       # decode and queue what arrives (else only count)
        self.inbox: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.m = 0

    # ------------------------------------------------------------------ reading
    def start_reading(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"bench reader {self.path}", daemon=True)
        self._thread.start()

    def stop_reading(self) -> None:
        """Stop the reader thread (e.g. before a DockThread takes over the master)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                if not select.select([self.master], [], [], 0.05)[0]:
                    continue
                try:
                    data = os.read(self.master, 65536)
                except (BlockingIOError, InterruptedError):
                    continue
                lines, _ = self.split.feed(data)
                for line in lines:
                    self._line(line)
        except BaseException as exc:  # reported by the bench (a broken bench, not the program)
            self.error = exc

    def _line(self, line: bytes) -> None:
        if not self.keep:
            m = TYPE.match(line)
            if m is None:
                self.bad += 1
            else:
                self.counts[m.group(1).decode()] += 1
            return
        try:
            msg = decode(line)
        except FrameError:
            self.bad += 1
            return
        self.counts[str(msg.get("t"))] += 1
        self.inbox.put(msg)

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any] | None:
        """The next queued frame for which `pred` holds (the others are dropped); None after `timeout` s."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                msg = self.inbox.get(timeout=min(left, 0.1))
            except queue.Empty:
                continue
            if pred(msg):
                return msg

    def drop_inbox(self) -> None:
        while True:
            try:
                self.inbox.get_nowait()
            except queue.Empty:
                return

    # ------------------------------------------------------------------ writing
    def write(self, data: bytes, timeout: float = 30.0) -> bool:
        """Write all of `data` while the program takes it; False if it took nothing for `timeout` s."""
        view, done = memoryview(data), 0
        deadline = time.monotonic() + timeout
        while done < len(data):
            try:
                n = os.write(self.master, view[done:])
                if n:
                    done += n
                    deadline = time.monotonic() + timeout
                continue
            except (BlockingIOError, InterruptedError):
                pass
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            select.select([], [self.master], [], min(left, 0.1))
        return True

    def send(self, msg: dict[str, Any], timeout: float = 30.0) -> bool:
        """One frame of `msg` (its `m` numbered here unless given)."""
        if "m" not in msg:
            self.m += 1
            msg = {"t": msg["t"], "m": self.m, **{k: v for k, v in msg.items() if k != "t"}}
        return self.write(encode(msg), timeout)

    def hello_until(self, hello: dict[str, Any], timeout: float = 15.0) -> dict[str, Any] | None:
        """Say `hello` (a new `m` each time) every 0.5 s until the welcome to one of them; None after
        `timeout` s."""
        deadline = time.monotonic() + timeout
        sent: set[int] = set()
        while time.monotonic() < deadline:
            self.m += 1
            sent.add(self.m)
            self.send(dict(hello, m=self.m), timeout=1.0)
            got = self.wait(lambda msg: msg.get("t") == "welcome" and msg.get("re") in sent,
                            min(0.5, max(0.0, deadline - time.monotonic())))
            if got is not None:
                return got
        return None

    def close(self) -> None:
        self.stop_reading()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a child `python -m gameclock`: this one, with the gameclock this bench imported
    (and the repository, for bench/) first on PYTHONPATH."""
    env = dict(os.environ, **extra)
    parts = [str(FIRMWARE), str(REPO)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(parts))
    return env


def start_receiver(ports: Sequence[str], db: Path, out: IO[bytes]) -> subprocess.Popen[bytes]:
    """`gameclock receive --port P ... --db DB`, its stdout and stderr into `out` (a file: never blocks)."""
    argv = [sys.executable, "-m", "gameclock", "receive", "--db", str(db)]
    for p in ports:
        argv += ["--port", p]
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                            env=child_env(), cwd=REPO)


def stop_receiver(proc: subprocess.Popen[bytes], timeout: float = 15.0) -> int:
    """SIGTERM, then its exit status (SIGKILL after `timeout` s: then -9)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
        return -int(signal.SIGKILL)


def rss_kib(pid: int) -> int:
    """VmRSS of process `pid`, KiB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def db_bytes(db: Path) -> int:
    """The database file and its write-ahead log, bytes."""
    return sum(p.stat().st_size for p in (db, db.with_name(db.name + "-wal")) if p.exists())


def tracebacks(text: str) -> int:
    return text.count("Traceback (most recent call last)")
