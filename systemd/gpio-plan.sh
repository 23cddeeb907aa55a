# shellcheck shell=bash
# How the Pi's installer (systemd/install.sh) gets lgpio, the GPIO library the clock's buttons need (its
# kernel edge stamps: CL-1), and spidev (displays on SPI) into the service's venv, chosen by what this
# machine's apt has (issue 27: Raspberry Pi OS on Debian 13 runs Python 3.13, and lgpio 0.2.2.0 has no
# wheel for it, so `pip install '.[pi]'` would compile lgpio and need swig and liblgpio-dev). In order:
#
#   1. python3-lgpio (Raspberry Pi OS's own package, built for its /usr/bin/python3): installed by apt,
#      the venv made with --system-site-packages so it sees it; spidev likewise from python3-spidev (or,
#      when apt has none, built by pip from the [pi] extra: gcc, python3-dev).
#   2. else liblgpio-dev and swig: pip builds lgpio (and spidev) from the [pi] extra against them
#      (gcc, python3-dev).
#   3. else PyPI's lgpio wheels (the [pi] extra; spidev built: gcc, python3-dev), which exist only up to
#      Python 3.12 and for aarch64, armv7l and x86_64 (not armv6l: the Pi Zero and Pi 1).
#   4. else it refuses, saying what is missing, before anything is installed.
#
# "apt has P": P is installed (dpkg-query), or apt-cache policy gives it a candidate (install.sh runs
# apt-get update first). Sourced by install.sh after install-lib.sh (for `refuse`); run directly it prints
# the plan for this machine (`bash systemd/gpio-plan.sh [PYTHON] [PLATFORM]`). tests/test_systemd_gpio.py
# runs it for bookworm (3.11) and trixie (3.13), arm64 and armhf, with apt's answers faked.

# apt_has PACKAGE: installed, or apt has a candidate for it
apt_has() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed' && return 0
  local candidate
  candidate=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | head -n 1)
  [ -n "$candidate" ] && [ "$candidate" != "(none)" ]
}

# python_facts PYTHON: "3.11 aarch64" (the interpreter's version and the machine its wheels are for:
# sysconfig's platform, which says armv7l for a 32-bit Raspberry Pi OS on a 64-bit kernel, where uname -m
# says aarch64)
python_facts() {
  "$1" -c 'import sys, sysconfig; print("%d.%d" % sys.version_info[:2], sysconfig.get_platform().split("-")[-1])'
}

# gpio_plan VERSION PLATFORM: sets GPIO_PACKAGES (Debian packages), GPIO_VENV_OPTS (options of
# `python -m venv`), GPIO_EXTRA ("" or "[pi]": the extra pip installs) and GPIO_WHY (a line for the log);
# refuses (install-lib.sh's `refuse`) when no way is left.
gpio_plan() {
  local version=$1 platform=$2 minor
  minor=${version#*.}
  GPIO_PACKAGES=()
  GPIO_VENV_OPTS=()
  GPIO_EXTRA="[pi]"
  if apt_has python3-lgpio; then
    GPIO_PACKAGES=(python3-lgpio)
    GPIO_VENV_OPTS=(--system-site-packages)
    if apt_has python3-spidev; then
      GPIO_PACKAGES+=(python3-spidev)
      GPIO_EXTRA=""
      GPIO_WHY="lgpio and spidev: Raspberry Pi OS's python3-lgpio and python3-spidev, seen by the venv"
    else
      GPIO_PACKAGES+=(gcc python3-dev)
      GPIO_WHY="lgpio: Raspberry Pi OS's python3-lgpio, seen by the venv; spidev: built by pip (no python3-spidev)"
    fi
  elif apt_has liblgpio-dev && apt_has swig; then
    GPIO_PACKAGES=(swig liblgpio-dev gcc python3-dev)
    GPIO_WHY="lgpio and spidev: built by pip against liblgpio-dev with swig (no python3-lgpio)"
  elif [ "${version%%.*}" = 3 ] && [ "$minor" -le 12 ] && case "$platform" in aarch64|armv7l|x86_64) true ;; *) false ;; esac; then
    GPIO_PACKAGES=(gcc python3-dev)
    GPIO_WHY="lgpio: PyPI's wheel for Python $version on $platform; spidev: built by pip (no python3-lgpio)"
  else
    refuse "no way to install lgpio (the GPIO library) for Python $version on $platform:" \
      "apt has neither python3-lgpio nor liblgpio-dev and swig, and lgpio has no wheel for this Python" \
      "(PyPI's go up to Python 3.12, for aarch64, armv7l and x86_64). On Raspberry Pi OS: sudo apt-get update," \
      "then install again; elsewhere add Raspberry Pi OS's apt archive, which has python3-lgpio."
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then  # run, not sourced: print the plan for this machine
  set -euo pipefail
  refuse() { printf 'gpio-plan.sh: %s\n' "$1" >&2; shift; printf '    %s\n' "$@" >&2; exit 1; }
  python=${1:-/usr/bin/python3}
  read -r version platform < <(python_facts "$python")
  platform=${2:-$platform}
  gpio_plan "$version" "$platform"
  echo "python $version on $platform"
  echo "packages: ${GPIO_PACKAGES[*]}"
  echo "venv: ${GPIO_VENV_OPTS[*]:-(its own packages only)}"
  echo "pip extra: ${GPIO_EXTRA:-(none)}"
  echo "why: $GPIO_WHY"
fi
