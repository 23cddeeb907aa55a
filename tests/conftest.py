"""Suite-wide settings. tests/hardware/ needs a real Raspberry Pi with the clock wired as in
hw/wiring.toml: it is collected only with GAMECLOCK_HARDWARE=1, and the run's header says so either
way (nothing is skipped silently).

The site folder (gameclock.sitedir: /etc/gameclock/rules, /etc/gameclock/wiring.toml) is an empty
folder of this run's own, set before any test module loads presets and inherited by every command a test
starts: a machine's own organiser files never change a test. A test that wants site files points
$GAMECLOCK_SITE_DIR at its own folder."""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile

HARDWARE = os.environ.get("GAMECLOCK_HARDWARE") == "1"

_EMPTY_SITE = tempfile.mkdtemp(prefix="gameclock-test-site-")
atexit.register(shutil.rmtree, _EMPTY_SITE, ignore_errors=True)
os.environ["GAMECLOCK_SITE_DIR"] = _EMPTY_SITE

collect_ignore = [] if HARDWARE else ["hardware"]


def pytest_report_header(config):
    if HARDWARE:
        return "gameclock: GAMECLOCK_HARDWARE=1: running tests/hardware on this Pi"
    return "gameclock: tests/hardware not collected (needs a Pi: run with GAMECLOCK_HARDWARE=1)"
