"""Suite-wide settings. tests/hardware/ needs a real Raspberry Pi with the clock wired as in
hw/wiring.toml: it is collected only with GAMECLOCK_HARDWARE=1, and the run's header says so either
way (nothing is skipped silently).

The site folder (gameclock.sitedir: /etc/gameclock/rules, /etc/gameclock/wiring.toml) is an empty
folder of this run's own, set before any test module loads presets and inherited by every command a test
starts: a machine's own organiser files never change a test. A test that wants site files points
$GAMECLOCK_SITE_DIR at its own folder.

`make test` runs the suite on several pytest-xdist workers (`-n`, `--dist loadgroup`): each test must
pass alone and beside any other, so tests keep to their own tmp_path, ptys, sockets and tmux server.
Tests marked `xdist_group("wallclock")` never run beside one another: those that load every core
(the crash drill's four chains) and those whose assertions hold a wall-clock bound on real work (the
drill and the daemon in real time, the device bench's presses reaching the bus, the loop's and the
journal's "never waits" timings). `--dist loadgroup` sends the group to one worker; as it does not
on every pytest (pytest 9.2 with xdist 3.8 spreads the group like any test: pytest-xdist#1386), the
`_wallclock_alone` fixture also holds a lock shared by the session's workers for each such test (and
likewise for the group "browser", tests/browser/: one headless Chromium at a time).
Waiting for time to pass is done with the code's injected clocks wherever the code takes one
(Loop(clock=...), the dock endpoints' `now`, the crash drill's virtual time); what is left waits on
real processes."""
from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import tempfile

import pytest

HARDWARE = os.environ.get("GAMECLOCK_HARDWARE") == "1"

_EMPTY_SITE = tempfile.mkdtemp(prefix="gameclock-test-site-")
atexit.register(shutil.rmtree, _EMPTY_SITE, ignore_errors=True)
os.environ["GAMECLOCK_SITE_DIR"] = _EMPTY_SITE

collect_ignore = [] if HARDWARE else ["hardware"]


def pytest_report_header(config):
    if HARDWARE:
        return "gameclock: GAMECLOCK_HARDWARE=1: running tests/hardware on this Pi"
    return "gameclock: tests/hardware not collected (needs a Pi: run with GAMECLOCK_HARDWARE=1)"


WALLCLOCK = "wallclock"
# the groups whose tests run one at a time: "browser" is tests/browser/'s (one headless Chromium at a time)
ALONE = (WALLCLOCK, "browser")


def _group(mark) -> str | None:
    return mark.args[0] if mark.args else mark.kwargs.get("name")


@pytest.fixture(autouse=True)
def _wallclock_alone(request, tmp_path_factory):
    """Under pytest-xdist, a `xdist_group("wallclock")` test holds the session's wall-clock lock (a file
    in the directory above the workers' own temp directories) while it runs: one such test at a time.
    The same for the other groups of ALONE, each with its own lock."""
    group = next((g for m in request.node.iter_markers("xdist_group") if (g := _group(m)) in ALONE), None)
    if group is None or "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    path = tmp_path_factory.getbasetemp().parent / f"{group}.lock"
    with open(path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, even if the test fails
        yield
