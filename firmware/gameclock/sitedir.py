"""The site folder: the organiser's own files on a machine, kept apart from the installed package.

    /etc/gameclock/rules/*.toml   presets added to the shipped ones, or replacing the shipped preset
                                  of the same id (gameclock.rules.loader; a broken file is skipped)
    /etc/gameclock/wiring.toml    this clock's wiring instead of the shipped hw/wiring.toml
                                  (gameclock.device.wiring; $GAMECLOCK_WIRING and --wiring still win)

`sudo make install` (systemd/install.sh) creates the folder with a README when it is absent and never
writes into it again, so these files survive every reinstall. $GAMECLOCK_SITE_DIR names another folder
(the test suite points it at an empty one, so a machine's own /etc/gameclock never changes a test).
Only the standard library: this runs on the Pi.
"""
from __future__ import annotations

import os
from pathlib import Path

SITE_DIR = Path("/etc/gameclock")
ENV_SITE_DIR = "GAMECLOCK_SITE_DIR"


def site_dir() -> Path:
    """$GAMECLOCK_SITE_DIR if set (read at call time), else SITE_DIR (/etc/gameclock)."""
    override = os.environ.get(ENV_SITE_DIR)
    return Path(override) if override else SITE_DIR
