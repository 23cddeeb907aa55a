"""apt's answers faked for the installer's tests (tests/test_systemd_gpio.py, tests/test_systemd_unit.py):
`apt-cache` and `dpkg-query` scripts first on PATH, answering for the packages a test names, so that what
systemd/gpio-plan.sh chooses does not depend on this machine's apt."""
from __future__ import annotations

import os
from pathlib import Path

# What Raspberry Pi OS's apt has (its own archive on top of Debian's): lgpio as a Python package, as a C
# library to build against, swig, spidev
PI_OS = ("python3-lgpio", "python3-spidev", "liblgpio-dev", "swig")


def fake_apt(tmp_path: Path, available=(), installed=()) -> dict[str, str]:
    """An environment whose `apt-cache policy P` gives P a candidate when P is in `available` and whose
    `dpkg-query -W` says P is installed when it is in `installed`; nothing else of apt's is faked."""
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "apt-cache").write_text(
        '#!/bin/sh\n[ "$1" = policy ] || exit 1\n'
        'case " $FAKE_APT " in *" $2 "*) c=1.0-1 ;; *) c="(none)" ;; esac\n'
        'printf "%s:\\n  Installed: (none)\\n  Candidate: %s\\n  Version table:\\n" "$2" "$c"\n')
    (bin_dir / "dpkg-query").write_text(
        '#!/bin/sh\nfor p; do :; done\n'
        'case " $FAKE_INSTALLED " in *" $p "*) printf "install ok installed" ;; *) echo "no packages found matching $p" >&2; exit 1 ;; esac\n')
    for tool in ("apt-cache", "dpkg-query"):
        (bin_dir / tool).chmod(0o755)
    return dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", FAKE_APT=" ".join(available),
                FAKE_INSTALLED=" ".join(installed))


