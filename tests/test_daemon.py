"""`gameclock run` started by hand as systemd would: a real process with mock pins, $NOTIFY_SOCKET
bound by the test, $WATCHDOG_USEC set. It must say READY=1 and then WATCHDOG=1 again and again;
SIGTERM gives STOPPING=1 and exit 0; after `kill -9` a replacement starts cleanly (the stale lock
file and lgpio FIFO left behind do not stop it) and says READY=1 again. Every wait is bounded."""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import gameclock

GAMECLOCK = Path(sys.executable).with_name("gameclock")
WATCHDOG_USEC = 200_000  # pings every 100 ms
# The daemons are real processes with bounded waits on their start and stop: they run apart from the other
# wall-clock tests (tests/conftest.py), so a busy machine does not turn their bounds into failures.
pytestmark = pytest.mark.xdist_group("wallclock")
START_S = 15.0            # bounded wait for READY=1 (imports on a slow CI machine)


@pytest.fixture
def notify_socket():
    d = tempfile.mkdtemp(prefix="gcd-")  # AF_UNIX paths must stay under 108 bytes
    path = os.path.join(d, "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    yield sock, path
    sock.close()
    shutil.rmtree(d, ignore_errors=True)


class Daemon:
    def __init__(self, notify_path: str, state: Path, log: Path, *extra: str, watchdog: bool = True,
                 journal: bool = False):
        env = {k: v for k, v in os.environ.items()
               if k not in ("LG_WD", "STATE_DIRECTORY", "RUNTIME_DIRECTORY", "WATCHDOG_PID",
                            "WATCHDOG_USEC", "GPIOZERO_PIN_FACTORY", "JOURNAL_STREAM",
                            "GAMECLOCK_WIRING")}
        env["NOTIFY_SOCKET"] = notify_path
        if watchdog:
            env["WATCHDOG_USEC"] = str(WATCHDOG_USEC)
        self.log = log
        self._log_file = open(log, "wb")
        if journal:  # as systemd says stderr is the journal: JOURNAL_STREAM=<st_dev>:<st_ino>
            st = os.fstat(self._log_file.fileno())
            env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
        self.proc = subprocess.Popen(
            [str(GAMECLOCK), "run", "--sim-pins", "--display", "none", "--state-dir", str(state), *extra],
            env=env, stdin=subprocess.DEVNULL, stdout=self._log_file, stderr=subprocess.STDOUT)

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")

    def wait(self, timeout: float = 5.0) -> int:
        try:
            return self.proc.wait(timeout)
        finally:
            self._log_file.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.wait()


@pytest.fixture
def daemons():
    started: list[Daemon] = []
    yield started
    for d in started:  # never leave a daemon behind, whatever failed
        d.kill()


def receive(sock: socket.socket, want: str, timeout: float, daemon: Daemon | None = None) -> list[str]:
    """Datagrams (split into lines) until one line equals `want`; fails after `timeout` s."""
    deadline = time.monotonic() + timeout
    got: list[str] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            log = daemon.stderr() if daemon else ""
            pytest.fail(f"no {want!r} within {timeout} s; got {got}\n--- daemon output ---\n{log}")
        sock.settimeout(min(left, 0.2))
        try:
            lines = sock.recv(4096).decode().split("\n")
        except TimeoutError:
            if daemon is not None and daemon.proc.poll() is not None:
                pytest.fail(f"the daemon exited ({daemon.proc.returncode}) before {want!r}; "
                            f"got {got}\n--- daemon output ---\n{daemon.stderr()}")
            continue
        got.extend(lines)
        if want in lines:
            return got


def drain(sock: socket.socket) -> list[str]:
    sock.setblocking(False)
    out = []
    try:
        while True:
            out.extend(sock.recv(4096).decode().split("\n"))
    except BlockingIOError:
        return out
    finally:
        sock.setblocking(True)


def test_ready_then_watchdog_pings_then_sigterm_stops_cleanly(notify_socket, tmp_path, daemons):
    sock, path = notify_socket
    d = Daemon(path, tmp_path / "state", tmp_path / "run.log", "--preset", "amath")
    daemons.append(d)
    got = receive(sock, "READY=1", START_S, d)
    assert "WATCHDOG=1" not in got  # READY first (the first frame is drawn), then the pings
    assert "STATUS=running: amath" in got

    t0 = time.monotonic()
    pings = 0
    while pings < 5:
        receive(sock, "WATCHDOG=1", 2.0, d)
        pings += 1
    elapsed = time.monotonic() - t0
    # every WATCHDOG_USEC/2 = 100 ms: five pings take about 0.4-0.5 s (not a busy loop, not stuck)
    assert 0.3 < elapsed < 3.0, elapsed

    d.proc.send_signal(signal.SIGTERM)
    receive(sock, "STOPPING=1", 5.0, d)
    assert d.wait(5.0) == 0
    log = d.stderr()
    assert f"gameclock {gameclock.__version__}" in log and "preset amath" in log and "pins mock" in log, log
    assert "watchdog ping every 0.1 s" in log and "SIGTERM: stopping" in log and "stopped (" in log
    assert "Traceback" not in log
    assert (tmp_path / "state" / "gameclock.lock").read_text() == ""  # a clean stop empties it


def test_killed_daemon_is_replaced_cleanly(notify_socket, tmp_path, daemons):
    sock, path = notify_socket
    state = tmp_path / "state"
    first = Daemon(path, state, tmp_path / "first.log")
    daemons.append(first)
    receive(sock, "READY=1", START_S, first)
    receive(sock, "WATCHDOG=1", 2.0, first)
    assert (state / "gameclock.lock").read_text().strip() == str(first.proc.pid)

    # While it runs, a second daemon on the same state dir refuses to start (the flock).
    rival = Daemon(path, state, tmp_path / "rival.log")
    daemons.append(rival)
    assert rival.wait(START_S) == 1
    assert f"another gameclock run (pid {first.proc.pid}) holds" in rival.stderr()

    first.proc.send_signal(signal.SIGKILL)
    assert first.wait(5.0) == -signal.SIGKILL
    drain(sock)  # pings the killed daemon sent before it died
    # What a killed daemon leaves: its pid in the lock file, and (on a Pi) lgpio's FIFO in $LG_WD,
    # which lgpio never removes. Plant one as lgpio makes it (LG_WD defaults to the state dir).
    os.mkfifo(state / ".lgd-nfy0", 0o664)
    assert stat.S_ISFIFO((state / ".lgd-nfy0").lstat().st_mode)

    second = Daemon(path, state, tmp_path / "second.log")
    daemons.append(second)
    got = receive(sock, "READY=1", START_S, second)
    assert "STOPPING=1" not in got
    receive(sock, "WATCHDOG=1", 2.0, second)
    log = second.stderr()
    assert f"the previous daemon (pid {first.proc.pid}) did not stop cleanly" in log, log
    assert "removed stale lgpio FIFOs" in log and ".lgd-nfy0" in log
    assert not (state / ".lgd-nfy0").exists()
    assert (state / "gameclock.lock").read_text().strip() == str(second.proc.pid)

    second.proc.send_signal(signal.SIGTERM)
    receive(sock, "STOPPING=1", 5.0, second)
    assert second.wait(5.0) == 0


def test_without_watchdog_ready_only(notify_socket, tmp_path, daemons):
    sock, path = notify_socket
    d = Daemon(path, tmp_path / "state", tmp_path / "run.log", watchdog=False)
    daemons.append(d)
    receive(sock, "READY=1", START_S, d)
    time.sleep(0.5)
    assert "WATCHDOG=1" not in drain(sock)
    d.proc.send_signal(signal.SIGINT)  # Ctrl-C when run by hand: the same clean stop
    receive(sock, "STOPPING=1", 5.0, d)
    assert d.wait(5.0) == 0
    assert "watchdog off" in d.stderr()


def test_png_display_writes_the_first_frame(notify_socket, tmp_path, daemons):
    sock, path = notify_socket
    frames = tmp_path / "frames"
    d = Daemon(path, tmp_path / "state", tmp_path / "run.log", "--display", "png", str(frames))
    daemons.append(d)
    receive(sock, "READY=1", START_S, d)
    assert (frames / "frame-000001.png").is_file()  # READY=1 comes after the first frame
    d.proc.send_signal(signal.SIGTERM)
    assert d.wait(5.0) == 0


def test_missing_displays_do_not_stop_the_clock(notify_socket, tmp_path, daemons):
    """`--display oled` on a machine without /dev/i2c-1 (like a Pi whose displays are unplugged):
    the daemon still gets ready and pings; the log names each missing display."""
    sock, path = notify_socket
    d = Daemon(path, tmp_path / "state", tmp_path / "run.log", "--display", "oled")
    daemons.append(d)
    receive(sock, "READY=1", START_S, d)
    receive(sock, "WATCHDOG=1", 2.0, d)
    d.proc.send_signal(signal.SIGTERM)
    receive(sock, "STOPPING=1", 5.0, d)
    assert d.wait(5.0) == 0
    log = d.stderr()
    if not Path("/dev/i2c-1").exists():
        assert "left display" in log and "right display" in log and "missing" in log, log


def test_displays_on_a_simulated_bus_are_ready_with_the_clock(notify_socket, tmp_path, daemons):
    """`--sim-bus KHZ` (hidden; bench/startup.py): the OLED path on a simulated I2C bus. READY=1
    comes once the first frame is on that bus, and no display is missing."""
    sock, path = notify_socket
    d = Daemon(path, tmp_path / "state", tmp_path / "run.log", "--display", "oled", "--sim-bus", "400",
               "--preset", "makruk-45")
    daemons.append(d)
    got = receive(sock, "READY=1", START_S, d)
    assert "STATUS=running: makruk-45" in got
    d.proc.send_signal(signal.SIGTERM)
    assert d.wait(5.0) == 0
    assert "missing" not in d.stderr()


def test_bad_options_fail_at_once(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
    bad_wiring = tmp_path / "wiring.toml"
    bad_wiring.write_text("[players]\nleft = 2\n")
    for extra, message in ((["--display", "crt"], "--display takes"),
                           (["--preset", "no-such-preset"], "no preset 'no-such-preset'"),
                           (["--wiring", str(bad_wiring)], "wiring.toml: "),
                           (["--sim-bus", "400"], "--sim-bus needs --sim-pins and --display oled")):
        r = subprocess.run([str(GAMECLOCK), "run", "--sim-pins", "--state-dir", str(tmp_path), *extra],
                           env=env, capture_output=True, text=True, timeout=START_S)
        assert r.returncode == 1 and message in r.stderr, r.stderr


def test_journal_lines_carry_their_priority(notify_socket, tmp_path, daemons):
    """With stderr connected to the journal, each line starts with <N> (syslog priority) and has
    no time of its own (journald adds it)."""
    sock, path = notify_socket
    d = Daemon(path, tmp_path / "state", tmp_path / "run.log", journal=True)
    daemons.append(d)
    receive(sock, "READY=1", START_S, d)
    d.proc.send_signal(signal.SIGTERM)
    assert d.wait(5.0) == 0
    lines = d.stderr().splitlines()
    assert lines[0].startswith(f"<6>gameclock: gameclock {gameclock.__version__} (pid "), lines
    assert all(re.match(r"<[0-7]>", line) for line in lines), lines


ON_A_PI = "Raspberry Pi" in (Path("/proc/device-tree/model").read_text(errors="replace")
                             if Path("/proc/device-tree/model").exists() else "")


@pytest.mark.skipif(ON_A_PI, reason="real pins exist here")
@pytest.mark.parametrize("factory", [None, "native"])
def test_real_pins_off_a_pi_fail_in_one_clear_line(tmp_path, factory):
    """Without --sim-pins gpiozero picks the real factory ($GPIOZERO_PIN_FACTORY, else its own
    order); off a Pi that fails, and the daemon says so in one line (exit 1: systemd retries)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "GPIOZERO_PIN_FACTORY")}
    if factory:
        env["GPIOZERO_PIN_FACTORY"] = factory
    r = subprocess.run([str(GAMECLOCK), "run", "--display", "none", "--state-dir", str(tmp_path)],
                       env=env, capture_output=True, text=True, timeout=START_S)
    assert r.returncode == 1, r.stderr
    errors = [line for line in r.stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1 and "cannot start: " in errors[0] and "--sim-pins" in errors[0], r.stderr
    assert "Traceback" not in r.stderr


def test_build_daemon_refuses_png_without_a_folder(tmp_path):
    """In process: `--display png` needs a folder (the command line always gives one: `png DIR`);
    a caller that gives none gets a ValueError that says so, not Path(None)'s TypeError, and what
    was built is closed again."""
    import queue

    from gameclock import app
    from gameclock.rules.loader import load_presets

    with pytest.raises(ValueError, match="needs a folder"):
        app.build_daemon(queue.SimpleQueue(), load_presets(), sim_pins=True, wiring=None, display="png",
                         display_dir=None, preset=None, state_dir=tmp_path)


def test_the_daemon_switches_threads_every_millisecond(tmp_path):
    """issue 14: the display worker gets the interpreter within 1 ms of a press's frame (CPython's
    default switch interval is 5 ms): `gameclock run`'s parts set it."""
    import queue

    from gameclock import app
    from gameclock.rules.loader import load_presets

    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        parts = app.build_daemon(queue.SimpleQueue(), load_presets(), sim_pins=True, wiring=None,
                                 display="none", display_dir=None, preset=None, state_dir=tmp_path)
        parts.close()
        assert sys.getswitchinterval() == pytest.approx(0.001)
    finally:
        sys.setswitchinterval(before)
