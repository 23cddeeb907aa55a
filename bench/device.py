"""`python -m bench device`: the daemon as `gameclock run` builds it, on this machine (issue 14).

What runs: `gameclock.app.build_daemon` -- exactly what `gameclock run --sim-pins --display oled
--sim-bus 400 --preset makruk-45` runs -- in this process: gpiozero MockFactory pins and the real
input adapters (device/pins.py: our debounce, the edge's stamp), the buzzer on a mock PWM pin, the
real `Loop` on its own thread (`parts.loop.run()`, as the daemon's main thread runs it), the two
OLEDs (`OledSink`, its worker thread, luma's diffing ssd1306 drivers) on a simulated I2C bus
(`gameclock.sim.i2cbus.SimulatedI2CBus`, one bus for both displays) at `BUS_KHZ` (400 kHz) with
`PER_TRANSFER_US` (50 us) of per-transfer overhead plus start/stop bits per transfer, the game journal
and its writer thread in a state folder (`persist.restore.attach`: checkpoints, fdatasync), and the
systemd watchdog (`NotifyTimer`: `$WATCHDOG_USEC` = 10 s, `$NOTIFY_SOCKET` a datagram socket this
bench reads: READY=1, then WATCHDOG=1 every 5 s). Preset `makruk-45` (45:00 countdown).

Delayed edges: the inbox the adapters put into hands each `PlayerButton` to the loop 0-20 ms
(uniform, fixed seed) after its stamp (a delay thread; the stamp stays the edge's), as an adapter
whose callback thread is slow would: the edge-to-queue delay of issue 14.

Phase 1, presses: `DEVICE_PRESSES` presses (default 2,000; GAMECLOCK_BENCH_DEVICE_PRESSES) of the
running side's button, each held 35 ms, at random gaps of 70-1200 ms (fixed seed), so that many
land just before, at and after the journal's checkpoint instants (0.5 s of running time after the
last line, written 0.1 s later: persist.restore.CheckpointTimer) and exercise its grace. For each
press, from the edge's stamp (what the adapter enqueues):
  press_to_bus_ms_p50/p95/p99/max    from the moment the edge reached the loop's queue (the
                        delay thread's put: where a prompt adapter would put it) to the moment both
                        displays show the switch (the other side running): the sink sends a frame's
                        polarity commands on both displays before either's changed bytes, and says so
                        (`on_switched`); a frame that switches without flipping counts when its last
                        byte left the bus (`on_pushed`). The daemon's part, without the injected delay
  press_to_frame_ms_p50/p95/p99/max    the same to the last byte of that frame (the moved marker and
                        every byte that changed with it: the move counter, a second that went by)
  press_to_bus_from_stamp_ms_p50/p99    press_to_bus from the edge's stamp (the injected 0-20 ms in it)
  press_to_durable_ms_p50/p95/p99/max    from the edge's stamp (the injected delay in it) to the
                        moment the fdatasync/fsync that made the press's journal line durable returned
                        (the bench wraps `persist.fsio.FileSystem`'s pwrite/fdatasync/fsync in this
                        process: each synced `start`/`press` line is timestamped when its sync
                        returns; matched with the presses in order)
  frame_ms_daemon_median/p99    the CPU cost of one frame in this daemon, both screens drawn and
                        diffed: for every frame the loop showed and the display worker took up (all
                        phases; not the first, which the start-up bench times), the loop thread's CPU
                        time in the `refresh` that composed it (both screens rendered, compared with
                        the last frame) plus the worker's CPU time for it (`OledSink._work`: each
                        changed display's image packed and diffed, the polarity
                        planned, the windows' bytes gathered) less the CPU time spent inside the bus
                        interface (luma's and the bus's part of sending). Per-thread CPU time
                        (time.thread_time_ns): not the other threads' or processes' time, but a frame
                        alone every second or so finds the caches cold, more so on a loaded machine.
                        `device_frames_costed`: how many.
Phase 2, running: the clock runs with nobody pressing for `DEVICE_RUN_S` s (default 60;
GAMECLOCK_BENCH_DEVICE_S):
  cpu_percent_running   process CPU time (all threads: time.process_time) / wall time, in % of one
                        core. The bench's own threads are idle then (the delay thread waits on an
                        empty queue, the notify reader gets a datagram every 5 s).
  bus_bytes_per_running_s   bytes handed to the bus per second (payload: commands + data)
Phase 3, SD: as long again, one press every 10 s (the first at once).
  sd_mib_per_hour       MiB written to the block device holding the state folder during phases 2
                        and 3 (`os.sync()` before and after; the sectors-written field of
                        /sys/block/loopN/stat, 512-byte sectors), per hour. Measured when run as root
                        with mkfs.ext4 and losetup: the state folder is a fresh 64 MiB ext4 image
                        (`mkfs.ext4 -q`), attached with `losetup` and mounted `-o noatime` (as Raspberry
                        Pi OS mounts its root), unmounted and detached at the end. Otherwise null, and
                        `sd_measured` says why; when measured, `sd_measured` names the device.
  sd_app_kib_per_hour   KiB the journal writer handed to pwrite (lines and preallocated zeros) over
                        the same span, per hour (measured in any case)
After the run (the journal closed):
  device_charge_error_ns_max   the journal folded as a restore / `gameclock replay` folds it
                        (persist.journal.read_game + persist.rebuild.fold): the largest |used time -
                        exact| over both sides, where exact is the sum of each side's press-to-press
                        intervals computed here from the stamps the adapter enqueued (CL-1)
  device_charges        presses whose charge was compared (every press after the start)
  device_late_edges     presses the journal holds at another time than their stamp (applied late)
  device_presses_journaled    start and press lines in the journal (= device_charges + 1)
  device_presses (presses of phase 1), device_presses_on_bus (those whose switch reached the bus),
  device_presses_durable (start and presses with a durable line), device_frames (frames the loop
  showed), device_watchdog_pings (WATCHDOG=1 datagrams received), device_ready (READY=1 received),
  device_run_s, bus_khz_simulated, bus_per_transfer_us, device_preset
  device_nice           the niceness it ran at: the daemon unit's `Nice=` (systemd/gameclock.service)
                        when the bench may raise its priority (root), else its own

Phase 4, frames (in this thread, after the daemon is closed):
  frame_ms_median/p99   the CPU cost of one frame, both screens drawn and diffed (issue 27, the Pi Zero
                        2 W's budget: roughly 10x this machine's figure): a `Loop` of `PRESET` on an
                        injected clock and the sink of `gameclock run` (`build_sink`, the shipped
                        wiring's two displays, their diffing drivers) working in this thread on a bus
                        that takes no time, played from ready to a flag (a press every 1-40 s, the
                        right slower, three pauses of 30 s; every second shown, and the tenths of the
                        last 10 s), the loop woken as `Loop.run` wakes it. Each frame: the CPU time
                        (time.thread_time_ns) of the loop's `refresh` that drew it, which hands it to
                        the sink, which packs, diffs and gathers the bytes, less the time
                        inside the bus interface. Frame after frame, as a running clock draws them.
                        The game is played `FRAME_PLAYS` (3) times, each in a fresh process, and each
                        frame's figure is the least of its 3 times: the work it takes, without what the
                        machine's other load adds to some of them (a frame's own cost is in all three).
                        `device_frames_timed`: how many (the first frame, the start-up's, not counted).

Shorter runs (tests): GAMECLOCK_BENCH_DEVICE_S and GAMECLOCK_BENCH_DEVICE_PRESSES, or the arguments
of `bench_device()`.
"""
from __future__ import annotations

import contextlib
import heapq
import itertools
import json
import os
import queue
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

BUS_KHZ = 400
PER_TRANSFER_US = 50.0
PRESET = "makruk-45"
ENV_RUN_S = "GAMECLOCK_BENCH_DEVICE_S"
ENV_PRESSES = "GAMECLOCK_BENCH_DEVICE_PRESSES"
HOLD_S = 0.035
GAP_S = (0.070, 1.200)
EDGE_DELAY_S = (0.0, 0.020)
SD_PRESS_EVERY_S = 10.0
WATCHDOG_USEC = 10_000_000
IMAGE_MIB = 64
S_NS = 1_000_000_000
FRAME_PLAYS = 3
REPO = Path(__file__).resolve().parents[1]
UNIT = Path(__file__).resolve().parents[1] / "systemd" / "gameclock.service"


def unit_nice(unit: Path = UNIT) -> int:
    """The `Nice=` the daemon's systemd unit gives it (0 if none): the bench runs at it."""
    for line in unit.read_text(encoding="utf-8").splitlines():
        if line.startswith("Nice="):
            return int(line.split("=", 1)[1])
    return 0


def _percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`, nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q * len(s) + 0.5)) - 1))]


def _spread(prefix: str, values: list[float]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99)):
        out[f"{prefix}_{name}"] = round(_percentile(values, q), 3) if values else None
    out[f"{prefix}_max"] = round(max(values), 3) if values else None
    return out


class _DelayedEdges:
    """The daemon's inbox (a SimpleQueue, as `gameclock run` makes) whose `put` hands each
    PlayerButton to the loop `delay` after it is put, from a delay thread; everything else at once.
    `stamps` records (at_ns, side) of every PlayerButton in the order the adapter put them."""

    def __init__(self, rng: random.Random):
        from gameclock.inbox import PlayerButton

        self.q: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.get, self.get_nowait = self.q.get, self.q.get_nowait
        self._button = PlayerButton
        self._rng = rng
        self.stamps: list[tuple[int, int]] = []
        self.arrived: dict[int, int] = {}  # stamp -> monotonic ns the loop's queue got it
        self._heap: list[tuple[int, int, Any]] = []
        self._n = 0
        self._cond = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="edge-delay", daemon=True)
        self._thread.start()

    def put(self, item: Any) -> None:
        if not isinstance(item, self._button):
            self.q.put(item)
            return
        self.stamps.append((item.at_ns, item.side))
        due = item.at_ns + int(self._rng.uniform(*EDGE_DELAY_S) * 1e9)
        with self._cond:
            self._n += 1
            heapq.heappush(self._heap, (due, self._n, item))
            self._cond.notify()

    def _run(self) -> None:
        with self._cond:
            while not self._stop:
                if not self._heap:
                    self._cond.wait()
                    continue
                wait = (self._heap[0][0] - time.monotonic_ns()) / 1e9
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                item = heapq.heappop(self._heap)[2]
                self.q.put(item)
                self.arrived[item.at_ns] = time.monotonic_ns()

    def close(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify()
        self._thread.join(2)


class _DurableTap:
    """Wraps persist.fsio.FileSystem's pwrite/fdatasync/fsync (the class: the writer's instance is
    made inside build_daemon) to note when each journal `start`/`press` line became durable, and
    to count the bytes handed to pwrite."""

    VERBS = (b" start ", b" press ")

    def __init__(self) -> None:
        self.durable: list[tuple[int, int]] = []  # (game ns of the line, monotonic ns its sync returned)
        self.app_bytes = 0
        self._pending: dict[int, list[bytes]] = {}
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def installed(self) -> Iterator[_DurableTap]:
        from gameclock.persist.fsio import FileSystem

        saved = {name: FileSystem.__dict__[name] for name in ("pwrite", "fdatasync", "fsync")}
        tap = self

        def pwrite(fs: FileSystem, fd: int, data: bytes, offset: int) -> int:
            n = saved["pwrite"](fs, fd, data, offset)
            with tap._lock:
                tap.app_bytes += n
                if any(v in data for v in tap.VERBS):
                    tap._pending.setdefault(fd, []).append(bytes(data[:n]))
            return n

        def synced(name: str) -> Any:
            def sync(fs: FileSystem, fd: int) -> None:
                saved[name](fs, fd)
                tap._synced(fd, time.monotonic_ns())
            return sync

        FileSystem.pwrite = pwrite  # type: ignore[method-assign]
        FileSystem.fdatasync = synced("fdatasync")  # type: ignore[method-assign]
        FileSystem.fsync = synced("fsync")  # type: ignore[method-assign]
        try:
            yield self
        finally:
            for name, fn in saved.items():
                setattr(FileSystem, name, fn)

    def _synced(self, fd: int, now_ns: int) -> None:
        from gameclock.core.log import parse_seconds

        with self._lock:
            chunks = self._pending.pop(fd, [])
        for chunk in chunks:
            for raw in chunk.split(b"\n"):
                text = raw.split(b"*")[0].decode(errors="replace")
                words = text.split()
                if len(words) == 3 and words[1] in ("start", "press"):
                    self.durable.append((int(parse_seconds(words[0])), now_ns))


class _FrameCost:
    """The CPU cost of each frame, both screens drawn and diffed (frame_ms in the docstring): the loop
    thread's CPU time in the `refresh` that showed it, plus the display worker's in `_work` for it, less
    the worker's CPU time inside the bus interface (sending is not drawing or diffing). The two halves
    meet here under a lock, whichever comes first (the worker may finish a frame before `refresh` returns)."""

    def __init__(self) -> None:
        self.costs_ns: list[int] = []
        self._halves: dict[int, int] = {}  # id(frame) -> the half measured first, ns
        self._lock = threading.Lock()
        self._bus_ns = 0  # (worker) CPU inside the bus interface during the frame in hand

    def install(self, loop: Any, sink: Any) -> None:
        refresh, work = loop.refresh, sink._work

        def timed_refresh(now_ns: int) -> None:
            before = loop.frame
            t0 = time.thread_time_ns()
            refresh(now_ns)
            took = time.thread_time_ns() - t0
            if loop.frame is not before:  # (the first frame, the start-up's, was drawn in build_daemon)
                self._half(id(loop.frame), took)

        def timed_work(frame: Any, level: int | None) -> None:
            self._bus_ns = 0
            t0 = time.thread_time_ns()
            work(frame, level)
            took = time.thread_time_ns() - t0 - self._bus_ns
            if frame is not None:
                self._half(id(frame), took)

        loop.refresh = timed_refresh
        sink._work = timed_work
        for oled in sink.oleds:
            oled.serial.inner = _TimedSerial(oled.serial.inner, self._on_bus)

    def _on_bus(self, ns: int) -> None:
        self._bus_ns += ns

    def _half(self, key: int, ns: int) -> None:
        with self._lock:
            other = self._halves.pop(key, None)
            if other is None:
                self._halves[key] = ns
            else:
                self.costs_ns.append(other + ns)


class _TimedSerial:
    """A luma serial interface whose calls' CPU time (ns) goes to `add`."""

    def __init__(self, inner: Any, add: Callable[[int], None]):
        self.inner, self.add = inner, add

    def command(self, *cmd: int) -> None:
        t0 = time.thread_time_ns()
        try:
            self.inner.command(*cmd)
        finally:
            self.add(time.thread_time_ns() - t0)

    def data(self, data: Any) -> None:
        t0 = time.thread_time_ns()
        try:
            self.inner.data(data)
        finally:
            self.add(time.thread_time_ns() - t0)

    def cleanup(self) -> None:
        self.inner.cleanup()


class _NullBus:
    """An smbus2-like bus that takes everything at once (the frames phase: no bus time)."""

    def write_i2c_block_data(self, address: int, register: int, data: Any) -> None:
        pass

    def i2c_rdwr(self, *messages: Any) -> None:
        pass

    def close(self) -> None:
        pass


def frame_costs(seed: int = 27, pauses: int = 3) -> list[int]:
    """The frames phase (frame_ms in the docstring): CPU ns of each frame of one scripted game of
    `PRESET` to the flag, frame after frame in this thread (see the docstring)."""
    from gameclock.device.display import build_sink
    from gameclock.device.wiring import load_wiring
    from gameclock.inbox import PauseButton, PlayerButton
    from gameclock.loop import Loop
    from gameclock.rules.loader import load_presets

    class NoBuzzer:
        def beep(self, alert: object, text: str) -> None:
            pass

    wiring = load_wiring(None).display
    sink = build_sink(wiring, threaded=False, smbus={a: _NullBus() for a in wiring.addresses})
    now = [1_000 * S_NS]
    loop = Loop(queue.Queue(), load_presets(), sink, NoBuzzer(), clock=lambda: now[0])
    loop.new_game(PRESET, 1)
    # the sink works in this thread: a frame's `refresh` draws it and diffs it, the bus's part taken out
    costs: list[int] = []
    bus = [0]
    refresh = loop.refresh

    def timed_refresh(now_ns: int) -> None:
        before, bus[0] = loop.frame, 0
        t0 = time.thread_time_ns()
        refresh(now_ns)
        took = time.thread_time_ns() - t0 - bus[0]
        if before is not None and loop.frame is not before:
            costs.append(took)

    def on_bus(ns: int) -> None:
        bus[0] += ns

    loop.refresh = timed_refresh  # type: ignore[method-assign]
    for oled in sink.oleds:
        oled.serial.inner = _TimedSerial(oled.serial.inner, on_bus)  # type: ignore[assignment]
    rng = random.Random(seed)

    def run_to(until: int) -> None:
        """The loop's wakes up to `until`, as `Loop.run` takes them (skip_unchanged)."""
        while (wake := loop.next_wake()) is not None and wake <= until:
            now[0] = max(now[0], wake)
            loop.pump(now[0], skip_unchanged=True)
        now[0] = until

    loop.pump(now[0])  # ready: the first frame (start-up, not counted)
    side, at = 0, now[0] + S_NS
    pause_at = sorted(rng.sample(range(10, 200), pauses))
    for n in itertools.count():
        run_to(at)
        if loop.state is None or loop.state.phase not in ("ready", "running", "paused"):
            break  # a flag: the game is over
        loop.pump(at, [PlayerButton(at, side)], skip_unchanged=True)
        side = 1 - side
        if n in pause_at:  # the arbiter pauses a while, then resumes
            at += S_NS
            run_to(at)
            loop.pump(at, [PauseButton(at)], skip_unchanged=True)
            at += 30 * S_NS
            run_to(at)
            loop.pump(at, [PauseButton(at)], skip_unchanged=True)
        # a move takes 1-60 s; the right player is slower, so the left's time runs out last
        at += int(rng.uniform(1, 40 if side == 0 else 60) * S_NS)
    sink.close()
    return costs


class _NotifyReader:
    """A datagram socket standing in for systemd's $NOTIFY_SOCKET: counts READY=1 and WATCHDOG=1."""

    def __init__(self, path: str):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.sock.settimeout(0.5)
        self.ready = 0
        self.pings = 0
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="notify-reader", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            try:
                msg = self.sock.recv(4096).decode(errors="replace")
            except TimeoutError:
                continue
            except OSError:
                return
            for line in msg.splitlines():
                if line == "READY=1":
                    self.ready += 1
                elif line == "WATCHDOG=1":
                    self.pings += 1

    def close(self) -> None:
        self._stop = True
        self._thread.join(2)
        self.sock.close()


class _StateFolder:
    """The state folder: on a fresh loop-mounted ext4 image when we may (root, the tools), so the
    sectors the daemon writes can be counted at the block device; else a plain temporary folder."""

    def __init__(self, base: str):
        self.base = base
        self.path = os.path.join(base, "state")
        self.dev: str | None = None
        self.mounted = False
        self.why = ""
        tools = [t for t in ("mkfs.ext4", "losetup", "mount", "umount") if shutil.which(t) is None]
        if os.geteuid() != 0:
            self.why = "not root: the state folder is a plain folder, no block device to read"
        elif tools:
            self.why = f"missing {' '.join(tools)} (apt-get install e2fsprogs mount)"
        else:
            try:
                self._mount()
            except (OSError, subprocess.CalledProcessError) as exc:
                err = getattr(exc, "stderr", None) or ""
                self.why = f"loop mount failed: {exc} {err}".strip()
                self.close()
        os.makedirs(self.path, exist_ok=True)

    def _mount(self) -> None:
        image = os.path.join(self.base, "sd.img")
        with open(image, "wb") as f:
            f.truncate(IMAGE_MIB * 1024 * 1024)
        run = dict(check=True, capture_output=True, text=True, timeout=60)
        subprocess.run(["mkfs.ext4", "-q", "-F", image], **run)  # type: ignore[call-overload]
        self.dev = subprocess.run(["losetup", "-f", "--show", image],  # type: ignore[call-overload]
                                  **run).stdout.strip()
        os.makedirs(self.path)
        subprocess.run(["mount", "-o", "noatime", self.dev, self.path], **run)  # type: ignore[call-overload]
        self.mounted = True

    def sectors_written(self) -> int | None:
        if not self.mounted or self.dev is None:
            return None
        fields = Path(f"/sys/block/{os.path.basename(self.dev)}/stat").read_text().split()
        return int(fields[6])

    def close(self) -> None:
        if self.mounted:
            subprocess.run(["umount", self.path], capture_output=True, timeout=60)
            self.mounted = False
        if self.dev is not None:
            subprocess.run(["losetup", "-d", self.dev], capture_output=True, timeout=60)
            self.dev = None


@contextlib.contextmanager
def _environ(**values: str | None) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    for k, v in values.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def _bus_overhead(per_transfer_us: float) -> Iterator[None]:
    """build_daemon's simulated bus with a per-transfer overhead (gameclock run --sim-bus has none)."""
    from gameclock.sim import i2cbus

    plain = i2cbus.sim_buses

    def with_overhead(addresses: Any, khz: float | None, per_transfer_us_: float = 0.0) -> Any:
        return plain(addresses, khz, per_transfer_us)

    i2cbus.sim_buses = with_overhead  # type: ignore[assignment]
    try:
        yield
    finally:
        i2cbus.sim_buses = plain  # type: ignore[assignment]


def bench_device(run_s: float | None = None, presses: int | None = None, seed: int = 5) -> dict:
    run_s = float(os.environ.get(ENV_RUN_S, 60)) if run_s is None else run_s
    presses = int(os.environ.get(ENV_PRESSES, 2000)) if presses is None else presses
    with _niceness(unit_nice()) as nice:
        out = _bench_device(run_s, presses, seed)
        frame_ms = frame_times()
    return {**out, "frame_ms_median": round(statistics.median(frame_ms), 4),
            "frame_ms_p99": round(_percentile(frame_ms, 0.99), 4), "device_frames_timed": len(frame_ms),
            "device_nice": nice}


def frame_times(plays: int = FRAME_PLAYS) -> list[float]:
    """ms of each frame of the frames phase: the least of `plays` plays of the same game, each in a
    fresh process (its caches empty at the start, as the daemon's), frame by frame."""
    code = "import json; from bench.device import frame_costs; print(json.dumps(frame_costs()))"
    runs = []
    for _ in range(plays):
        proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                              timeout=600, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"the frames phase failed:\n{proc.stderr[-2000:]}")
        runs.append(json.loads(proc.stdout))
    if len({len(r) for r in runs}) != 1:
        raise RuntimeError(f"the same game drew {sorted(len(r) for r in runs)} frames")
    return [min(ns) / 1e6 for ns in zip(*runs, strict=True)]


@contextlib.contextmanager
def _niceness(nice: int) -> Iterator[int]:
    """Run at the unit's `Nice=` (Linux: per thread; the threads started inside inherit it, as the
    daemon's threads do under systemd), back to this thread's own after. Without the right to raise
    the priority (not root) the bench runs at the niceness it has: the one it yields."""
    before = os.getpriority(os.PRIO_PROCESS, 0)
    try:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    except OSError:
        nice = before
    try:
        yield nice
    finally:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, before)


def _bench_device(run_s: float, presses: int, seed: int) -> dict:
    from gameclock import app
    from gameclock.core.events import Press, Start
    from gameclock.inbox import Quit
    from gameclock.persist.fsio import FileSystem
    from gameclock.persist.journal import game_files, read_game
    from gameclock.persist.rebuild import fold
    from gameclock.rules.loader import load_presets

    rng = random.Random(seed)
    base = tempfile.mkdtemp(prefix="gameclock-bench-device-")
    pushed: list[tuple[int, tuple[str, str]]] = []  # (done_ns, captions) per frame on the bus
    switched: list[tuple[int, tuple[str, str]]] = []  # (done_ns, captions) per frame's flips on the bus
    pushed_lock = threading.Lock()

    def on_pushed(frame: Any, done_ns: int) -> None:
        with pushed_lock:
            pushed.append((done_ns, frame.captions))

    def on_switched(frame: Any, done_ns: int) -> None:
        with pushed_lock:
            switched.append((done_ns, frame.captions))

    folder = _StateFolder(base)
    device = folder.dev
    tap = _DurableTap()
    cost = _FrameCost()
    inbox = _DelayedEdges(random.Random(seed + 1))
    notifier = _NotifyReader(os.path.join(base, "notify.sock"))
    presets = load_presets()
    parts = thread = None
    try:
        with _environ(NOTIFY_SOCKET=notifier.path, WATCHDOG_USEC=str(WATCHDOG_USEC), WATCHDOG_PID=None), \
                tap.installed():
            with _bus_overhead(PER_TRANSFER_US):
                parts = app.build_daemon(inbox, presets, sim_pins=True, wiring=None,  # type: ignore[arg-type]
                                         display="oled", display_dir=None, preset=PRESET,
                                         state_dir=folder.path, dock=None, sim_bus_khz=BUS_KHZ)
            loop = parts.loop
            sink: Any = loop.display
            sink.on_pushed = on_pushed
            sink.on_switched = on_switched
            cost.install(loop, sink)
            thread = threading.Thread(target=loop.run, name="loop", daemon=True)
            thread.start()

            def press(side: int) -> None:
                pin = parts.pins[("left", "right")[side]]  # type: ignore[union-attr]
                pin.drive_low()
                time.sleep(HOLD_S)
                pin.drive_high()

            deadline = time.monotonic() + 10
            while not parts.notifier.is_ready and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.2)
            press(0)  # at ready, the left button starts the right clock
            running = 1
            time.sleep(rng.uniform(*GAP_S) - HOLD_S)
            first_press = len(inbox.stamps)
            for _ in range(presses):
                press(running)
                running = 1 - running
                time.sleep(rng.uniform(*GAP_S) - HOLD_S)
            phase1 = inbox.stamps[first_press:]
            time.sleep(0.1)
            sink.flush(10)
            loop.journal.writer.flush(10)

            # phase 2: nobody presses; phase 3: a press every 10 s. SD sectors over both.
            os.sync()
            sectors0, app0 = folder.sectors_written(), tap.app_bytes
            mark_bytes = sink.data_bytes + sink.command_bytes
            cpu0, wall0 = time.process_time(), time.monotonic()
            time.sleep(run_s)
            cpu1, wall1 = time.process_time(), time.monotonic()
            run_bytes = sink.data_bytes + sink.command_bytes - mark_bytes
            end = wall1 + run_s
            while time.monotonic() < end:
                press(running)
                running = 1 - running
                time.sleep(max(0.0, min(SD_PRESS_EVERY_S - HOLD_S, end - time.monotonic())))
            loop.journal.writer.flush(10)
            os.sync()
            sectors1, app1 = folder.sectors_written(), tap.app_bytes
            sd_wall = time.monotonic() - wall0

            inbox.put(Quit(time.monotonic_ns()))
            thread.join(10)
            zero_ns = loop.zero_ns + loop.journal.zero_ns
            frames_shown = sink.frames_shown
            parts.close()  # the journal written to the end and closed
            parts = None
        games = game_files(FileSystem(), os.path.join(folder.path, "games"))
        seq, path = games[-1]
        rec = read_game(Path(path).read_bytes(), seq, path)
        state, _ = fold(next(p for p in presets if p.id == PRESET), rec, "bench")
    finally:
        if parts is not None:
            inbox.put(Quit(time.monotonic_ns()))
            if thread is not None:
                thread.join(5)
            parts.close()
        inbox.close()
        notifier.close()
        folder.close()
        shutil.rmtree(base, ignore_errors=True)

    stamps = inbox.stamps
    # CL-1: the exact charge of each side from the stamps, and the journal's events against them
    exact = [0, 0]
    for (prev_at, _), (at, side) in itertools.pairwise(stamps):
        exact[side] += at - prev_at
    charge_error = max(abs(state.sides[s].used_ns - exact[s]) for s in (0, 1))
    events = [ev for ev in rec.log.events if isinstance(ev, (Start, Press))]
    late = sum(1 for ev, (at, _) in zip(events, stamps, strict=False) if ev.at_ns != at - zero_ns)
    # each start/press line's durable time against its own stamp (matched in order)
    durable_ms = [(when - at) / 1e6 for (at, _), (_, when) in zip(stamps, tap.durable, strict=False)]
    phase1_durable = durable_ms[first_press:first_press + len(phase1)]

    with pushed_lock:
        frames, flips = list(pushed), list(switched)

    def first_showing(events: list[tuple[int, tuple[str, str]]], at_ns: int, side: int) -> int | None:
        """When the first of `events` after `at_ns` showing the other side running happened."""
        return next((done_ns for done_ns, captions in events if done_ns >= at_ns
                     and "▶" in captions[1 - side] and "▶" not in captions[side]), None)

    latencies, whole, from_stamp = [], [], []
    for at_ns, side in phase1:
        frame_ns = first_showing(frames, at_ns, side)
        if frame_ns is None:
            continue
        flip_ns = first_showing(flips, at_ns, side)
        bus_ns = frame_ns if flip_ns is None else min(flip_ns, frame_ns)
        arrived = inbox.arrived.get(at_ns, at_ns)
        latencies.append((bus_ns - arrived) / 1e6)
        whole.append((frame_ns - arrived) / 1e6)
        from_stamp.append((bus_ns - at_ns) / 1e6)
    frame_ms = [ns / 1e6 for ns in cost.costs_ns]
    hours = sd_wall / 3600
    sd_mib = None if sectors0 is None or sectors1 is None else (sectors1 - sectors0) * 512 / 2**20 / hours
    return {
        **_spread("press_to_bus_ms", latencies),
        **_spread("press_to_frame_ms", whole),
        "press_to_bus_from_stamp_ms_p50": round(_percentile(from_stamp, 0.5), 3) if from_stamp else None,
        "press_to_bus_from_stamp_ms_p99": round(_percentile(from_stamp, 0.99), 3) if from_stamp else None,
        **_spread("press_to_durable_ms", phase1_durable),
        "frame_ms_daemon_median": round(statistics.median(frame_ms), 4) if frame_ms else None,
        "frame_ms_daemon_p99": round(_percentile(frame_ms, 0.99), 4) if frame_ms else None,
        "device_frames_costed": len(frame_ms),
        "device_charge_error_ns_max": charge_error,
        "device_charges": len(stamps) - 1,
        "device_late_edges": late,
        "device_presses_journaled": len(events),
        "cpu_percent_running": round(100 * (cpu1 - cpu0) / (wall1 - wall0), 3),
        "bus_bytes_per_running_s": round(run_bytes / (wall1 - wall0), 1),
        "sd_mib_per_hour": None if sd_mib is None else round(sd_mib, 2),
        "sd_app_kib_per_hour": round((app1 - app0) / 1024 / hours, 1),
        "sd_measured": (f"{device} ext4 {IMAGE_MIB} MiB, {sd_wall:.0f} s"
                        if sd_mib is not None else folder.why),
        "device_presses": len(phase1),
        "device_presses_on_bus": len(latencies),
        "device_presses_durable": len(durable_ms),
        "device_frames": frames_shown,
        "device_watchdog_pings": notifier.pings,
        "device_ready": notifier.ready,
        "device_run_s": round(wall1 - wall0, 2),
        "bus_khz_simulated": BUS_KHZ,
        "bus_per_transfer_us": PER_TRANSFER_US,
        "device_preset": PRESET,
    }

