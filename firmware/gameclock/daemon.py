"""`gameclock run`: the clock as a service (systemd/gameclock.service runs it at boot).

The process: log to stderr (journald under systemd), take the state directory's lock, give lgpio a
clean working directory, build the adapters (gameclock.app.build_daemon: the only place that knows
concrete classes), and run the event loop in the main thread until SIGTERM or SIGINT.

systemd (`Type=notify`, gameclock.device.notify): the loop sends READY=1 once the displays show its
first frame (the OLEDs' worker has put it on the bus, or found a display missing: the clock runs
without it) and WATCHDOG=1 every half `WatchdogSec=` from a loop timer, so a hung loop is restarted. On
SIGTERM: STOPPING=1, the pins are released, the displays keep their last frame, exit 0.

A daemon killed with SIGKILL leaves files behind; the next one starts cleanly:
- the lock (`STATE_DIR/gameclock.lock`) is an `fcntl.flock`, which dies with its process: the file
  stays, the lock does not. It holds the pid of a running daemon and is emptied on a clean stop,
  so a pid found in it at start means the previous daemon was killed or crashed (logged).
- lgpio (0.2.2: src/lgNotify.c, src/lgUtil.c; checked with its x86_64 wheel) chdir()s into `$LG_WD`
  (else the current directory) at `import lgpio` and creates its notify FIFO `.lgd-nfy<handle>`
  there; it never removes it, not even at a clean exit. If `$LG_WD` does not exist, `import lgpio`
  fails (FileNotFoundError: '.lgd-nfy-3'). It unlinks a same-named file before mkfifo, which fails
  on one it may not remove (another user's, in a sticky directory), and the handle number can
  differ between runs. So `$LG_WD` is set to a directory of ours (systemd's runtime directory,
  else the state directory), created, and our stale FIFOs there are removed while we hold the
  lock. Because lgpio changes the working directory, every path option is made absolute first.
"""
from __future__ import annotations

import argparse
import errno
import fcntl
import logging
import os
import queue
import signal
import stat
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import gameclock
from gameclock.device import notify

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gameclock.app import DaemonParts, Inbox
    from gameclock.rules.loader import Preset

log = logging.getLogger("gameclock")

LOCK_NAME = "gameclock.lock"
DOCK_DEFAULT = "/dev/ttyGS0"  # the USB gadget's serial port (systemd/usb-gadget.sh)
LG_FIFO_PREFIX = ".lgd-nfy"

RUN_HELP = """\
Under systemd (systemd/gameclock.service) the unit sets GPIOZERO_PIN_FACTORY=lgpio, LG_WD and the
state directory. By hand on this machine (no GPIO): gameclock run --sim-pins
Logs: journalctl -u gameclock -f
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = RUN_HELP
    parser.add_argument("--sim-pins", action="store_true",
                        help="gpiozero mock pins instead of the real pin factory (runs off a Pi)")
    parser.add_argument("--wiring", metavar="FILE", help="the wiring file (default: the built-in map)")
    parser.add_argument("--state-dir", metavar="DIR",
                        help="state folder (default: $STATE_DIRECTORY, else ~/.local/state/gameclock)")
    parser.add_argument("--display", nargs="+", metavar=("MODE", "DIR"),
                        help="'oled' (default), 'none' (default with --sim-pins), or 'png DIR'")
    parser.add_argument("--preset", metavar="ID", help="start this preset at ready (default: the menu)")
    parser.add_argument("--dock", metavar="PATH|none",
                        help="the serial port to the organiser's PC (default: $GAMECLOCK_DOCK, else "
                             "/dev/ttyGS0, the USB gadget; none with --sim-pins)")
    parser.add_argument("--keys", metavar="FILE", help=argparse.SUPPRESS)  # tests: with --sim-pins,
    # key bytes from FILE ('-': stdin) drive the mock pins as `gameclock sim` reads typed keys
    parser.add_argument("--sim-bus", metavar="KHZ", type=float, help=argparse.SUPPRESS)  # bench/startup.py:
    # with --sim-pins and --display oled, the displays on a simulated I2C bus (gameclock.sim.i2cbus)
    parser.add_argument("--log-level", default="INFO",
                        choices=("DEBUG", "INFO", "WARNING", "ERROR"), help="default INFO")


# ---------------------------------------------------------------------------------------- logging
class _JournalFormatter(logging.Formatter):
    """journald reads a leading `<N>` as the line's syslog priority (SyslogLevelPrefix=yes)."""

    PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3,
                logging.CRITICAL: 2}

    def format(self, record: logging.LogRecord) -> str:
        return f"<{self.PRIORITY.get(record.levelno, 6)}>" + super().format(record)


def _stderr_is_journal() -> bool:
    """systemd sets $JOURNAL_STREAM to the device:inode of the stream it connected."""
    want = os.environ.get("JOURNAL_STREAM", "")
    try:
        st = os.fstat(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return want == f"{st.st_dev}:{st.st_ino}"


def setup_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if _stderr_is_journal():  # journald adds the time and the unit
        handler.setFormatter(_JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # gpiozero's PinFactoryFallback etc. as one log line each
    warnings.formatwarning = lambda message, category, *_a, **_k: f"{category.__name__}: {message}"
    logging.captureWarnings(True)


# ------------------------------------------------------------------------------ files and folders
def state_dir(option: str | None) -> Path:
    if option:
        return Path(option).expanduser().absolute()
    from_systemd = os.environ.get("STATE_DIRECTORY")
    if from_systemd:  # may list several folders, ':'-separated: ours is the first
        return Path(from_systemd.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "gameclock"


class AlreadyRunning(Exception):
    pass


def _open_lock(path: Path) -> int:
    """The lock file, opened read-write (made if missing). Anything else in its place -- a FIFO, a device,
    a symbolic link, a folder: never one of ours -- is kept aside (gameclock.lock.bad-N) with a warning
    and a new lock file made: it must not keep the clock from starting (issue 24 B6: a FIFO there
    failed every start, `Illegal seek`). Opened without blocking and without following a link."""
    from gameclock.persist.fsio import FileSystem, keep_aside

    flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY
    for _ in range(3):
        try:
            fd = os.open(path, flags, 0o644)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.EISDIR):
                raise
            kind = "a symbolic link" if exc.errno == errno.ELOOP else "a folder"
        else:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                os.set_blocking(fd, True)
                return fd
            os.close(fd)
            kind = "a FIFO or a device"
        try:
            aside = keep_aside(FileSystem(), str(path))
        except FileNotFoundError:  # another start took it aside first
            continue
        log.warning("%s: not a regular file (%s): kept aside as %s, a new lock file made", path, kind,
                    os.path.basename(aside))
    raise OSError(errno.EEXIST, "no lock file can be made", str(path))


def take_lock(directory: Path) -> tuple[int, str]:
    """Lock `directory/gameclock.lock` (flock, non-blocking) and write our pid in it.
    Returns (fd, what the file held before: a killed daemon's pid, or "")."""
    path = directory / LOCK_NAME
    fd = _open_lock(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        held = _pid_text(os.pread(fd, 64, 0))
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise AlreadyRunning(f"another gameclock run (pid {held or '?'}) holds {path}") from None
        raise
    before = _pid_text(os.pread(fd, 64, 0))
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd, before


def _pid_text(raw: bytes) -> str:
    """What a lock file holds, for a log line: a pid, "" for nothing (or only zeros: a sparse file)."""
    from gameclock.logtext import printable

    return printable(raw.decode(errors="replace").strip().strip("\0").strip(), limit=20)


def release_lock(fd: int) -> None:
    """A clean stop: empty the lock file (so the next start knows) and let go of the lock."""
    try:
        os.ftruncate(fd, 0)
    finally:
        os.close(fd)


def prepare_lg_wd(default: Path) -> tuple[Path, list[str]]:
    """Point `$LG_WD` (lgpio's working directory) at a folder of ours, create it, and remove stale
    lgpio notify FIFOs in it. Call while holding the lock, before the pin factory loads lgpio."""
    wd = Path(os.environ.get("LG_WD") or os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
              or default).absolute()
    os.environ["LG_WD"] = str(wd)
    wd.mkdir(parents=True, exist_ok=True)
    removed = []
    for entry in wd.iterdir():
        if entry.name.startswith(LG_FIFO_PREFIX) and stat.S_ISFIFO(entry.lstat().st_mode):
            try:
                entry.unlink()
                removed.append(entry.name)
            except OSError as exc:
                log.warning("cannot remove stale lgpio FIFO %s: %s", entry, exc)
    return wd, removed


# -------------------------------------------------------------------------------------- the daemon
def _display(args: argparse.Namespace) -> tuple[str, str | None]:
    words = args.display or (["none"] if args.sim_pins else ["oled"])
    mode, *rest = words
    if mode == "png" and len(rest) == 1:
        return mode, str(Path(rest[0]).expanduser().absolute())
    if mode in ("none", "oled") and not rest:
        return mode, None
    raise ValueError(f"--display takes 'none', 'oled' or 'png DIR', not {' '.join(words)!r}")


def run(args: argparse.Namespace) -> int:
    setup_logging(args.log_level)
    try:
        display, display_dir = _display(args)
        wiring = str(Path(args.wiring).expanduser().absolute()) if args.wiring else None
        state = state_dir(args.state_dir)
        state.mkdir(parents=True, exist_ok=True)
        lock_fd, before = take_lock(state)
    except (ValueError, OSError, AlreadyRunning) as exc:
        log.error("cannot start: %s", exc)
        notify.status(f"failed: {exc}")
        return 1
    try:
        return _serve(args, state, before, display, display_dir, wiring)
    finally:
        release_lock(lock_fd)


def dock_port(args: argparse.Namespace) -> str | None:
    """The dock's serial port: --dock, $GAMECLOCK_DOCK, else the USB gadget's /dev/ttyGS0 (none with
    --sim-pins); "none" turns docking off."""
    port = args.dock or os.environ.get("GAMECLOCK_DOCK") or (None if args.sim_pins else DOCK_DEFAULT)
    return None if port in (None, "", "none") else port


def _drive_keys(args: argparse.Namespace, parts: DaemonParts, inbox: Inbox) -> Callable[[], None]:
    """`--keys FILE` (hidden; tests such as tests/test_crash.py): a thread reads key bytes from FILE
    and drives the mock pins with them, as `gameclock sim` does. Returns its stop function."""
    if not getattr(args, "keys", None):
        return lambda: None
    import threading

    from gameclock.inbox import Quit
    from gameclock.sim import keys as simkeys

    if not args.sim_pins:
        log.warning("--keys needs --sim-pins: ignored")
        return lambda: None
    fd = sys.stdin.fileno() if args.keys == "-" else os.open(args.keys, os.O_RDONLY)
    stop = threading.Event()
    driver = simkeys.PinDriver(parts.pins, lambda: inbox.put(Quit(time.monotonic_ns())))
    threading.Thread(target=simkeys.read_keys, args=(fd, driver, stop),
                     kwargs={"quit_at_eof": False}, name="keys", daemon=True).start()
    return stop.set


def _gpiozero_errors() -> tuple[type[Exception], ...]:
    """gpiozero's own error class, when gpiozero was imported (`build_daemon` imports it only after the
    first frame is on its way to the displays: issue 27's start-up); before that none can be raised."""
    exc = sys.modules.get("gpiozero.exc")
    return (exc.GPIOZeroError,) if exc is not None else ()


def _load_presets() -> Sequence[Preset]:
    """The presets (gameclock.rules.loader imported only now: build_daemon calls this while the
    displays are being cleared)."""
    from gameclock.rules.loader import load_presets
    return load_presets()


def _serve(args: argparse.Namespace, state: Path, before: str, display: str, display_dir: str | None,
           wiring: str | None) -> int:
    from gameclock import app
    from gameclock.inbox import Quit

    if before:
        log.warning("the previous daemon (pid %s) did not stop cleanly (killed or crashed)", before)
    lg_wd, removed = prepare_lg_wd(state)
    if removed:
        log.info("removed stale lgpio FIFOs in %s: %s", lg_wd, " ".join(sorted(removed)))

    # SimpleQueue: its put() is reentrant, so the signal handler below may call it even when the
    # signal lands while the loop (same thread) is inside a get() (queue.Queue could deadlock).
    inbox: Inbox = queue.SimpleQueue()

    def quit_(signum: int, _frame: FrameType | None) -> None:
        log.info("%s: stopping", signal.Signals(signum).name)
        inbox.put(Quit(time.monotonic_ns()))

    # Installed before the adapters exist, so an early SIGTERM still ends in a clean stop.
    previous = {s: signal.signal(s, quit_) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        try:
            sim_bus = getattr(args, "sim_bus", None)
            if sim_bus is not None and not (args.sim_pins and display == "oled"):
                raise ValueError("--sim-bus needs --sim-pins and --display oled")
            # the presets are read while the displays are being cleared (build_daemon's order)
            parts = app.build_daemon(inbox, _load_presets, sim_pins=args.sim_pins, wiring=wiring,
                                     display=display, display_dir=display_dir, preset=args.preset,
                                     state_dir=state, dock=dock_port(args), sim_bus_khz=sim_bus)
        except Exception as exc:
            gpio = _gpiozero_errors()
            if not isinstance(exc, (ValueError, ImportError, OSError, *gpio)):  # RuleError is a ValueError
                # anything else (a bug, a gpiozero error): with its traceback
                log.exception("cannot start: %s: %s", type(exc).__name__, exc)
                notify.status(f"failed: {type(exc).__name__}: {exc}")
                return 1
            # WiringError is a ValueError; gpiozero's BadPinFactory (no backend) an ImportError,
            # PinUnknownPi (not a Pi) a GPIOZeroError: expected, one line without a traceback.
            hint = ""
            if isinstance(exc, (ImportError, *gpio)) and not args.sim_pins:
                hint = (f" (GPIOZERO_PIN_FACTORY={os.environ.get('GPIOZERO_PIN_FACTORY', 'unset')};"
                        " on a Pi install lgpio: make install; off a Pi: --sim-pins)")
            log.error("cannot start: %s%s", exc if isinstance(exc, (ValueError, OSError)) else
                      f"{type(exc).__name__}: {exc}", hint)
            notify.status(f"failed: {exc}")
            return 1
        interval = parts.notifier.period_ns
        times = parts.edge_times
        log.info("gameclock %s (pid %d): preset %s, pins %s (%s), display %s%s, wiring %s, "
                 "state %s, lgpio dir %s, watchdog %s, dock %s", gameclock.__version__, os.getpid(),
                 args.preset or "none (menu)", times.backend,
                 times.note if times.exact else "NOT EXACT: " + times.note,
                 display, f" {display_dir}" if display_dir else "", parts.wiring_path,
                 state, lg_wd, f"ping every {interval / 1e9:g} s" if interval else "off",
                 dock_port(args) or "off")
        stop_keys = _drive_keys(args, parts, inbox)
        try:
            parts.loop.run()
        finally:
            stop_keys()
            notify.stopping()
            parts.close()
        log.info("stopped (%d watchdog pings)", parts.notifier.pings)
        return 0
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
