"""Suite-wide settings. tests/hardware/ needs a real Raspberry Pi with the clock wired as in
hw/wiring.toml: it is collected only with GAMECLOCK_HARDWARE=1, and the run's header says so either
way (nothing is skipped silently)."""
from __future__ import annotations

import os

HARDWARE = os.environ.get("GAMECLOCK_HARDWARE") == "1"

collect_ignore = [] if HARDWARE else ["hardware"]


def pytest_report_header(config):
    if HARDWARE:
        return "gameclock: GAMECLOCK_HARDWARE=1: running tests/hardware on this Pi"
    return "gameclock: tests/hardware not collected (needs a Pi: run with GAMECLOCK_HARDWARE=1)"
