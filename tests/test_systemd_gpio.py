"""`sudo make install` on Raspberry Pi OS 12 (bookworm, Python 3.11) and 13 (trixie, Python 3.13), 64-bit
(arm64: aarch64) and 32-bit (armhf: armv7l), and on the Pi Zero (armv6l): systemd/gpio-plan.sh chooses how
lgpio and spidev get into the venv from what the machine's apt has (issue 27: lgpio 0.2.2.0 has no wheel
for Python 3.13, so `pip install '.[pi]'` there compiles it and needs swig and liblgpio-dev). apt's answers
are faked: `apt-cache` and `dpkg-query` scripts first on PATH answer for the packages the case names. The
choice is run by bash as install.sh runs it (sourced, its function called), and through install.sh's dry
run; the bytecode step is run for real on a folder."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from aptfake import PI_OS, fake_apt

ROOT = Path(__file__).resolve().parents[1]
PLAN = ROOT / "systemd" / "gpio-plan.sh"
LIB = ROOT / "systemd" / "install-lib.sh"
INSTALL = ROOT / "systemd" / "install.sh"


def plan(tmp_path: Path, version: str, platform: str, available=(), installed=()) -> subprocess.CompletedProcess:
    """gpio_plan VERSION PLATFORM as install.sh calls it (after install-lib.sh: its `refuse`)."""
    script = (f"set -euo pipefail\nNAME=install.sh SRC={ROOT} PREFIX=/x PYTHON=python3 DRY=yes\n"
              f". {LIB}\n. {PLAN}\ngpio_plan {version} {platform}\n"
              'echo "packages=${GPIO_PACKAGES[*]}"\necho "venv=${GPIO_VENV_OPTS[*]:-}"\necho "extra=$GPIO_EXTRA"\n')
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30,
                          env=fake_apt(tmp_path, available, installed))


def chosen(r: subprocess.CompletedProcess) -> tuple[str, str, str]:
    assert r.returncode == 0, r.stderr
    got = dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)
    return got["packages"], got["venv"], got["extra"]


OWN_PACKAGES = ("python3-lgpio python3-spidev", "--system-site-packages", "")


@pytest.mark.parametrize("release,version", [("bookworm", "3.11"), ("trixie", "3.13")])
@pytest.mark.parametrize("arch,platform", [("arm64", "aarch64"), ("armhf", "armv7l"), ("armhf", "armv6l")])
def test_raspberry_pi_os_gets_its_own_lgpio_and_spidev(tmp_path, release, version, arch, platform):
    """Raspberry Pi OS 12 and 13, 64- and 32-bit, Pi Zero too: its python3-lgpio and python3-spidev,
    built for its /usr/bin/python3, installed by apt and seen by the venv; pip installs no extra (nothing
    to compile: no gcc, no python3-dev)."""
    assert chosen(plan(tmp_path, version, platform, available=PI_OS)) == OWN_PACKAGES


@pytest.mark.parametrize("version", ["3.11", "3.13"])
def test_what_is_installed_counts_without_a_candidate(tmp_path, version):
    """python3-lgpio installed already and the lists empty (no candidate): still the Pi's own packages."""
    assert chosen(plan(tmp_path, version, "aarch64", installed=("python3-lgpio", "python3-spidev"))) == OWN_PACKAGES


@pytest.mark.parametrize("version,platform", [("3.11", "aarch64"), ("3.13", "aarch64"), ("3.13", "armv7l")])
def test_without_python3_spidev_pip_builds_spidev_beside_the_systems_lgpio(tmp_path, version, platform):
    got = chosen(plan(tmp_path, version, platform, available=("python3-lgpio", "liblgpio-dev", "swig")))
    assert got == ("python3-lgpio gcc python3-dev", "--system-site-packages", "[pi]")


@pytest.mark.parametrize("version,platform", [("3.13", "aarch64"), ("3.13", "armv7l"), ("3.11", "armv6l")])
def test_without_python3_lgpio_pip_builds_lgpio_against_liblgpio_dev_with_swig(tmp_path, version, platform):
    """The issue's case: no wheel for this Python (or this Pi), but apt has the C library and swig: the
    [pi] extra is built (lgpio's setup runs swig and links liblgpio; spidev needs only gcc)."""
    got = chosen(plan(tmp_path, version, platform, available=("liblgpio-dev", "swig", "python3-spidev")))
    assert got == ("swig liblgpio-dev gcc python3-dev", "", "[pi]")


@pytest.mark.parametrize("version,platform", [("3.11", "aarch64"), ("3.11", "armv7l"), ("3.12", "x86_64")])
def test_elsewhere_up_to_python_3_12_pypis_lgpio_wheel(tmp_path, version, platform):
    """No apt route (a plain Debian): PyPI's lgpio wheels exist up to Python 3.12 for these machines."""
    got = chosen(plan(tmp_path, version, platform, available=("swig",)))  # swig alone builds nothing
    assert got == ("gcc python3-dev", "", "[pi]")


@pytest.mark.parametrize("version,platform", [("3.13", "aarch64"), ("3.13", "armv7l"), ("3.11", "armv6l")])
def test_no_way_is_refused_before_anything_is_installed(tmp_path, version, platform):
    r = plan(tmp_path, version, platform, available=("liblgpio-dev",))  # without swig it cannot be built
    assert r.returncode == 1 and "packages=" not in r.stdout
    assert r.stderr.startswith(f"install.sh: no way to install lgpio (the GPIO library) for Python {version} "
                               f"on {platform}:\n")
    assert "python3-lgpio" in r.stderr and "liblgpio-dev and swig" in r.stderr and "apt-get update" in r.stderr


def test_run_directly_it_prints_the_plan_for_the_python_given(tmp_path):
    r = subprocess.run(["bash", str(PLAN), sys.executable, "armv7l"], capture_output=True, text=True, timeout=30,
                       env=fake_apt(tmp_path, available=PI_OS))
    assert r.returncode == 0, r.stderr
    v = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert r.stdout.splitlines()[:4] == [f"python {v} on armv7l", "packages: python3-lgpio python3-spidev",
                                         "venv: --system-site-packages", "pip extra: (none)"]


# ------------------------------------------------------------------------------ through install.sh
def dry_run(tmp_path: Path, *args: str, available=()) -> str:
    r = subprocess.run(["bash", str(INSTALL), "--dry-run", "--prefix", str(tmp_path / "opt"), *args],
                       capture_output=True, text=True, timeout=60, env=fake_apt(tmp_path, available))
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_install_updates_the_lists_then_installs_what_the_plan_chose(tmp_path):
    out = dry_run(tmp_path, "--arch", "aarch64", available=PI_OS + ("python3", "python3-venv", "fonts-tlwg-loma-ttf"))
    # the lists once (Python's packages were missing: their install updated them), then the plan's packages
    assert out.count("$ apt-get update -qq") == 1
    assert out.index("apt-get install -y -qq python3 python3-venv fonts-tlwg-loma-ttf") \
        < out.index("apt-get install -y -qq python3-lgpio python3-spidev")
    assert "gcc" not in out and "swig" not in out
    assert "-m venv --system-site-packages" in out
    assert "gameclock-0.2.0-py3-none-any.whl[pi]" not in out  # nothing for pip to build


def test_install_refuses_before_it_installs_anything(tmp_path):
    r = subprocess.run(["bash", str(INSTALL), "--dry-run", "--prefix", str(tmp_path / "opt"), "--arch", "armv6l"],
                       capture_output=True, text=True, timeout=60, env=fake_apt(tmp_path))
    assert r.returncode == 1 and "no way to install lgpio" in r.stderr
    assert "-m venv" not in r.stdout and "apt-get install -y -qq python3-lgpio" not in r.stdout


def test_the_install_compiles_every_module_of_the_venv(tmp_path):
    """Issue 27: the service cannot write bytecode; without it each start compiles every module (about
    ten times the start-up). The install's last venv step compiles it all: seen in the dry run after
    pip's installs, and run for real (install-lib.sh's compile_venv) on a folder laid out as a venv."""
    out = dry_run(tmp_path, "--arch", "aarch64", available=PI_OS)
    prefix = tmp_path / "opt"
    command = f"$ {prefix}/.venv/bin/python -m compileall -q -j 0 {prefix}/.venv/lib"
    assert command in out
    assert out.rindex("pip install") < out.index(command) < out.index("systemctl restart gameclock.service")
    # for real: a module in the venv's site-packages gets its bytecode
    site = tmp_path / "real" / ".venv" / "lib" / "python3" / "site-packages" / "somepkg"
    site.mkdir(parents=True)
    (site / "__init__.py").write_text("X = 1\n")
    (tmp_path / "real" / ".venv" / "bin").mkdir()
    (tmp_path / "real" / ".venv" / "bin" / "python").symlink_to(sys.executable)
    script = f"set -euo pipefail\nNAME=install.sh SRC={ROOT} PREFIX={tmp_path / 'real'} PYTHON=python3 DRY=\n. {LIB}\ncompile_venv\n"
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                       env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    assert r.returncode == 0, r.stderr
    assert [p.name.split(".")[0] for p in (site / "__pycache__").glob("*.pyc")] == ["__init__"]
