"""`python -m bench manyclocks`: 200 clocks docked at once into ONE `gameclock receive` (issue 14).

One real `gameclock receive --port P1 ... --port P200 --db DB` child process (`python -m gameclock`, the
gameclock this bench imports first on PYTHONPATH) serves 200 ptys: it opens the slaves, the simulated
clocks talk on the masters. Each clock is the real `dock.clockside.ClockEndpoint` over the real
`dock.link` framing, with a real `persist.outbox.Outbox` holding RESULTS (10) signed result records of
real size (`bench.dock.sample_record`) and its own key, enrolled in the database beforehand
(`Store.add_key`). A few forked driver processes (DRIVERS) run the clocks, each in one `select` loop over
its share of the masters, so the bench's own Python is not the bottleneck. The clocks' state folders are
on /dev/shm when it exists (the clocks' own fsyncs are not what is measured: each real clock has its own
card); the database is on the disk of the temp folder, as the organiser's is.

The clocks start once the receiver has opened every port (its /proc/PID/fd): the figure is the
receiver's steady work, not its start-up. A clock is done when its outbox is empty (every result acked
with a MAC that verifies and moved to sent/). Then SIGTERM.

Figures:
  receiver_clocks           clocks docked at once (GAMECLOCK_BENCH_CLOCKS, 200)
  receiver_results          results acked, all clocks (RESULTS each: GAMECLOCK_BENCH_RESULTS, 10)
  receiver_results_per_s    receiver_results / the time from the first clock's first hello to the last
                            clock's last ack (issue 14's acceptance: >= 300 for 200 clocks)
  receiver_errors           naks the clocks got + results missing from the database + clocks not done
                            within TIMEOUT_S (must be 0)
  receiver_rss_mib          the receiver process's peak RSS (VmHWM), MiB (0.1)
  receiver_upload_s         that upload time, s
  receiver_ports_open_s     from starting the receiver to it having opened every port, s
"""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import resource
import select
import tempfile
import time
import tty
from pathlib import Path
from typing import Any

from bench.dock import sample_record
from bench.ptywire import start_receiver, stop_receiver

ENV_CLOCKS = "GAMECLOCK_BENCH_CLOCKS"
ENV_RESULTS = "GAMECLOCK_BENCH_RESULTS"
CLOCKS = 200
RESULTS = 10
DRIVERS = 2           # processes driving the clocks (this machine's CPUs are shared with the receiver)
TIMEOUT_S = 600.0     # a clock not done by then counts as an error ...
STALL_S = 30.0        # ... as do those not done once no clock got an ack for this long
OPEN_S = 60.0         # the clocks start when the receiver has opened every port, or after this


def serial_of(i: int) -> str:
    return f"00000000ca{i:06x}"


def key_of(i: int) -> bytes:
    return hashlib.sha256(b"bench manyclocks %d" % i).digest()


def _raise_fd_limit(need: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < need:
        new = need if hard == resource.RLIM_INFINITY else min(need, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))


def _open_ptys(pid: int, paths: set[str]) -> int:
    """How many of `paths` process `pid` has open."""
    found = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                found.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
            except OSError:
                pass
    except OSError:
        return 0
    return len(found & paths)


def peak_rss_kib(pid: int) -> int:
    """VmHWM (peak resident set) of process `pid`, KiB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def drive(clocks: list[tuple[int, str, str]], deadline: float, out: Any) -> None:
    """Run the clocks (index, master fd as text, state folder) in one select loop until each is done or
    `deadline` (time.monotonic); sends {"first_hello", "done_at": {i: t}, "naks", "sent"} on `out`."""
    from gameclock.dock.clockside import ClockEndpoint
    from gameclock.dock.keystore import KeyStore
    from gameclock.dock.link import FdPort, Link
    from gameclock.persist.outbox import Outbox

    links: dict[int, tuple[int, Link, ClockEndpoint]] = {}
    for i, fd, state in clocks:
        ep = ClockEndpoint(serial_of(i), Outbox(state), KeyStore(state), fw="bench")
        link = Link(FdPort(int(fd), f"clock {i}"), ep)
        links[int(fd)] = (i, link, ep)
    naks, done_at = 0, {}
    first_hello = progress = time.monotonic()
    poller = select.poll()
    for fd, (_, link, _) in links.items():
        link.start()
        poller.register(fd, select.POLLIN)
    active = dict(links)
    while active and time.monotonic() < deadline and time.monotonic() - progress < STALL_S:
        now = time.monotonic_ns()
        wake = min(ep.next_wake() for _, _, ep in active.values())
        wait = min(0.05, max(0.0, (wake - now) / 1e9))
        for fd, _ in poller.poll(wait * 1000):
            _, link, ep = links[fd]
            try:
                data = link.port.read()
            except OSError:  # (the receiver went away: its clocks are not done)
                poller.unregister(fd)
                active.pop(fd, None)
                continue
            lines, _ = link.splitter.feed(data)
            for line in lines:
                if line.startswith(b'{"t":"nak"'):
                    naks += 1
                elif line.startswith(b'{"t":"ack"'):
                    progress = time.monotonic()
                link.send(ep.receive(time.monotonic_ns(), line))
        now = time.monotonic_ns()
        for fd, (i, link, ep) in list(active.items()):
            link.send(ep.poll(now))
            if ep.status.done:
                done_at[i] = time.monotonic()
                del active[fd]
                poller.unregister(fd)
    sent = sum(len(ep.outbox.sent()) for _, _, ep in links.values())  # type: ignore[attr-defined]
    out.send({"first_hello": first_hello, "done_at": done_at, "naks": naks, "sent": sent})
    out.close()


def run(n_clocks: int, n_results: int) -> dict:
    from gameclock.dock.keystore import KeyStore
    from gameclock.organiser.store import Store
    from gameclock.persist.outbox import Outbox

    _raise_fd_limit(4 * n_clocks + 256)  # (the receiver inherits it: a port and a pyserial fd each)
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="gameclock-bench-many-") as tmp, \
            tempfile.TemporaryDirectory(prefix="gameclock-bench-many-clocks-", dir=shm) as states:
        db = Path(tmp) / "pc.db"
        with Store(db) as store:
            for i in range(n_clocks):
                store.add_key(serial_of(i), key_of(i))
        ids: list[str] = []
        clocks: list[tuple[int, str, str]] = []
        ptys: list[tuple[int, int, str]] = []
        for i in range(n_clocks):
            state = os.path.join(states, f"c{i}")
            outbox = Outbox(state)
            outbox.prepare()
            for seq in range(1, n_results + 1):
                rec = sample_record(seq, serial_of(i))
                outbox.put(rec)
                ids.append(rec["id"])
            KeyStore(state).set(key_of(i))
            master, slave = os.openpty()
            tty.setraw(slave)
            ptys.append((master, slave, os.ttyname(slave)))
            clocks.append((i, str(master), state))
        paths = {p for _, _, p in ptys}
        log_path = Path(tmp) / "receiver.log"
        with open(log_path, "wb") as log:
            t_start = time.monotonic()
            proc = start_receiver([p for _, _, p in ptys], db, log)
            try:
                while _open_ptys(proc.pid, paths) < len(paths) and time.monotonic() - t_start < OPEN_S:
                    if proc.poll() is not None:
                        raise RuntimeError(f"bench manyclocks: the receiver opened "
                                           f"{_open_ptys(proc.pid, paths)} of {len(paths)} ports "
                                           f"(status {proc.poll()}): {log_path.read_text()[-2000:]}")
                    time.sleep(0.05)
                ports_open_s = time.monotonic() - t_start
                time.sleep(0.5)  # (pyserial drops what arrived while it opened a port)
                ctx = multiprocessing.get_context("fork")
                deadline = time.monotonic() + TIMEOUT_S
                drivers, pipes = [], []
                for d in range(min(DRIVERS, n_clocks)):
                    mine, theirs = ctx.Pipe(duplex=False)
                    p = ctx.Process(target=drive, args=(clocks[d::DRIVERS], deadline, theirs), daemon=True)
                    p.start()
                    theirs.close()
                    drivers.append(p)
                    pipes.append(mine)
                reports = [pipe.recv() if pipe.poll(TIMEOUT_S + 60) else None for pipe in pipes]
                for p in drivers:
                    p.join(10)
                rss = peak_rss_kib(proc.pid)
            finally:
                stop_receiver(proc)
                for master, slave, _ in ptys:
                    for fd in (master, slave):
                        try:
                            os.close(fd)
                        except OSError:
                            pass
        if None in reports:
            raise RuntimeError(f"bench manyclocks: a driver process sent nothing: "
                               f"{log_path.read_text(errors='replace')[-2000:]}")
        with Store(db, readonly=True) as store:
            stored = {r["id"] for r in store.results()}
    done_at = {i: t for r in reports for i, t in r["done_at"].items()}
    first = min(r["first_hello"] for r in reports)
    last = max(done_at.values(), default=time.monotonic())
    acked = sum(r["sent"] for r in reports)
    upload_s = max(last - first, 1e-9)
    missing = len(set(ids) - stored)
    return {
        "receiver_clocks": n_clocks,
        "receiver_results": acked,
        "receiver_results_per_s": round(acked / upload_s, 1),
        "receiver_errors": sum(r["naks"] for r in reports) + missing + (n_clocks - len(done_at)),
        "receiver_rss_mib": round(rss / 1024, 1),
        "receiver_upload_s": round(upload_s, 3),
        "receiver_ports_open_s": round(ports_open_s, 3),
    }


def bench_manyclocks(clocks: int | None = None, results: int | None = None) -> dict:
    n_clocks = int(os.environ.get(ENV_CLOCKS, CLOCKS)) if clocks is None else clocks
    n_results = int(os.environ.get(ENV_RESULTS, RESULTS)) if results is None else results
    return run(n_clocks, n_results)
