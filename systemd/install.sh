#!/usr/bin/env bash
# Install gameclock as a service on a Raspberry Pi (`sudo make install` runs this).
#
#   sudo systemd/install.sh [--dry-run] [--prefix DIR] [--arch ARCH] [--no-start] [--uninstall]
#
# Steps (each is safe to repeat, so re-running updates an installation):
#   1. Debian packages: python3-venv, and lgpio and spidev as this machine's apt has them
#      (systemd/gpio-plan.sh: Raspberry Pi OS's python3-lgpio and python3-spidev, seen by the venv; else
#      liblgpio-dev and swig to build lgpio; else PyPI's lgpio wheel, up to Python 3.12; else it refuses)
#   2. PREFIX (default /opt/gameclock): made, or empty, or made by this installer (PREFIX/.gameclock-install
#      lists what it made there; only that is ever replaced or removed; anything else is refused)
#   3. the venv PREFIX/.venv with the wheel of this checkout built and installed (the [pi] extra when
#      pip installs lgpio and spidev), all of it compiled to bytecode (the service cannot write it, and
#      without it every start compiles every module: seconds on a Pi Zero), and PREFIX/systemd/ with
#      the USB gadget's script and the README
#   4. /etc/gameclock (README, rules/, examples/) and /etc/default/gameclock, each only when missing:
#      the organiser's rules/*.toml and wiring.toml there survive every reinstall
#   5. the system user gameclock in the gpio, i2c, spi and dialout groups (systemd-sysusers)
#   6. the unit /etc/systemd/system/gameclock.service, enabled and (re)started, and
#      gameclock-gadget.service (the USB gadget for docking: systemd/usb-gadget.sh), enabled and started
# --dry-run prints the commands instead of running them (no root needed).
# --arch overrides the machine Python's wheels are for (sysconfig: aarch64, armv7l, armv6l; to see what
#   the dry run does on another Pi).
# --no-start enables the unit without starting it (also automatic when systemd is not running,
#   e.g. when preparing an SD card image in a chroot).
# --uninstall stops and removes the units and what PREFIX/.gameclock-install lists; /etc/gameclock,
#   /etc/default/gameclock, /var/lib/gameclock and the user stay.
set -euo pipefail

NAME=install.sh
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=/opt/gameclock
ARCH=""
DRY=""
START=yes
UNINSTALL=""
# Debian's Python (the one python3-venv and python3-lgpio belong to), not whatever is first on PATH.
PYTHON=/usr/bin/python3
UNIT_DIR=/etc/systemd/system
SYSUSERS_DIR=/etc/sysusers.d

usage() { sed -n '2,28s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY=yes ;;
    --no-start) START=no ;;
    --uninstall) UNINSTALL=yes ;;
    --prefix) PREFIX=${2:?--prefix needs a directory}; shift ;;
    --arch) ARCH=${2:?--arch needs a value such as armv6l}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

case "$PREFIX" in
  /?*) PREFIX=${PREFIX%/} ;;
  *) echo "install.sh: --prefix must be an absolute directory other than /, not '$PREFIX'" >&2; exit 2 ;;
esac

if [ -z "$DRY" ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: must be run as root (it installs packages, a system user and a service):" >&2
  echo "    sudo make install      (or: $0 --dry-run to see the steps)" >&2
  exit 1
fi

# shellcheck source=install-lib.sh source-path=SCRIPTDIR
. "$SRC/systemd/install-lib.sh"
# shellcheck source=gpio-plan.sh source-path=SCRIPTDIR
. "$SRC/systemd/gpio-plan.sh"

[ -n "$DRY" ] && echo "(dry run: nothing is changed)"

UNITS=(gameclock.service gameclock-gadget.service)
if [ -n "$UNINSTALL" ]; then
  step "units: ${UNITS[*]} stopped, disabled and removed"
  if [ -d /run/systemd/system ] || [ -n "$DRY" ]; then
    run systemctl disable --now "${UNITS[@]}" || true
  fi
  for unit in "${UNITS[@]}"; do run rm -f "$UNIT_DIR/$unit"; done
  if [ -d /run/systemd/system ] || [ -n "$DRY" ]; then run systemctl daemon-reload; fi
  uninstall_prefix
  echo
  echo "gameclock removed from $PREFIX. Kept: $SITE_DIR (the organiser's files), /etc/default/gameclock,"
  echo "  /var/lib/gameclock (results, settings), the gameclock user and $SYSUSERS_DIR/gameclock.conf."
  exit 0
fi

# 1. Debian packages ------------------------------------------------------------------------------
# Python first (Raspberry Pi OS has it: this only updates apt's lists when it must), then lgpio and
# spidev as apt has them for this Python (gpio-plan.sh), from lists just updated.
install_packages "" python3 python3-venv fonts-tlwg-loma-ttf  # Loma: Thai players' names on the screens
if [ -z "$APT_UPDATED" ]; then
  step "apt: the package lists, to see what this machine's apt has (lgpio)"
  run apt-get update -qq
  APT_UPDATED=yes
fi
if [ -x "$PYTHON" ]; then
  read -r PY_VERSION PY_PLATFORM < <(python_facts "$PYTHON")
else  # a dry run on a machine without it: Raspberry Pi OS 12's
  PY_VERSION=3.11 PY_PLATFORM=$(uname -m)
fi
ARCH=${ARCH:-$PY_PLATFORM}
gpio_plan "$PY_VERSION" "$ARCH"
echo "    Python $PY_VERSION on $ARCH: $GPIO_WHY"
install_packages " (Python $PY_VERSION, $ARCH)" "${GPIO_PACKAGES[@]}"
venv_opts=("${GPIO_VENV_OPTS[@]}")
extra=$GPIO_EXTRA

# 2. PREFIX; 3. the code (install-lib.sh) --------------------------------------------------------
claim_prefix
install_venv "$extra" "${venv_opts[@]}"
step "files: the USB gadget's script and the README in $PREFIX/systemd (the units name them)"
install_file 0755 systemd/usb-gadget.sh
install_file 0644 systemd/README.md

# 4. the organiser's files -----------------------------------------------------------------------
install_site hw/wiring.toml hw/examples/lever-sh1106.toml hw/examples/spi-ssd1306.toml
step "environment: /etc/default/gameclock (read by the unit at each start; never overwritten)"
if [ -e /etc/default/gameclock ]; then
  echo "    already there, left as it is"
else
  run install -D -m 0644 "$SRC/systemd/etc/default/gameclock" /etc/default/gameclock
fi

# 5. the user ------------------------------------------------------------------------------------
step "user: gameclock (system user) in groups gpio i2c spi dialout"
run install -D -m 0644 "$SRC/systemd/sysusers.d/gameclock.conf" "$SYSUSERS_DIR/gameclock.conf"
if command -v systemd-sysusers >/dev/null 2>&1; then
  run systemd-sysusers "$SYSUSERS_DIR/gameclock.conf"
else
  for g in gameclock gpio i2c spi dialout; do
    getent group "$g" >/dev/null || run groupadd --system "$g"
  done
  id gameclock >/dev/null 2>&1 || run useradd --system --gid gameclock --home-dir /var/lib/gameclock \
    --no-create-home --shell /usr/sbin/nologin gameclock
  run usermod -a -G gpio,i2c,spi,dialout gameclock
fi

# 6. the units -----------------------------------------------------------------------------------
# install_unit NAME: systemd/NAME to UNIT_DIR, its /opt/gameclock paths following --prefix
install_unit() {
  if [ "$PREFIX" = /opt/gameclock ]; then
    run install -m 0644 "$SRC/systemd/$1" "$UNIT_DIR/$1"
  else
    printf '    $ sed s|/opt/gameclock|%s|g %s > %s\n' "$PREFIX" "$SRC/systemd/$1" "$UNIT_DIR/$1"
    if [ -z "$DRY" ]; then
      sed "s|/opt/gameclock|$PREFIX|g" "$SRC/systemd/$1" > "$UNIT_DIR/$1"
      chmod 0644 "$UNIT_DIR/$1"
    fi
  fi
}
step "unit: $UNIT_DIR/gameclock.service (ExecStart=$PREFIX/.venv/bin/gameclock run)"
install_unit gameclock.service
# The USB gadget (/dev/ttyGS0, the dock's serial line); needs dtoverlay=dwc2 (hw/README.md).
step "unit: $UNIT_DIR/gameclock-gadget.service (ExecStart=$PREFIX/systemd/usb-gadget.sh)"
install_unit gameclock-gadget.service
if [ -d /run/systemd/system ] || [ -n "$DRY" ]; then
  run systemctl daemon-reload
  run systemctl enable gameclock-gadget.service
  run systemctl enable gameclock.service
  if [ "$START" = yes ]; then
    # start, not restart: a gadget already bound stays bound (a re-bind looks like an unplug to
    # the PC). Without gadget mode (dtoverlay=dwc2 missing, a Pi 3) the clock still runs.
    if ! run systemctl start gameclock-gadget.service; then
      echo "    the USB gadget did not start (see: journalctl -u gameclock-gadget); the clock runs without the dock"
    fi
    # enable --now would leave an already running old version; restart picks up the new code.
    run systemctl restart gameclock.service
  fi
else
  echo "    systemd is not running here: enabling only (it starts at the next boot)"
  run systemctl enable gameclock-gadget.service
  run systemctl enable gameclock.service
  START=no
fi

echo
if [ -n "$DRY" ]; then
  echo "dry run: these steps would install gameclock in $PREFIX (machine $ARCH)."
else
  echo "gameclock installed in $PREFIX (machine $ARCH)."
fi
if [ "$START" = yes ]; then
  echo "  status: systemctl status gameclock"
else
  echo "  start:  sudo systemctl start gameclock   (enabled: starts at boot)"
fi
echo "  logs:   journalctl -u gameclock -f"
