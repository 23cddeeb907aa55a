#!/usr/bin/env bash
# Install the organiser PC's side of docking (`sudo make install-pc` runs this): plug a clock in
# by USB and its results go into /var/lib/gameclock-pc/gameclock.db, with nothing to start by hand.
#
#   sudo systemd/install-pc.sh [--dry-run] [--prefix DIR] [--no-trigger] [--uninstall]
#
# Steps (each is safe to repeat, so re-running updates an installation):
#   1. Debian packages: python3-venv
#   2. PREFIX (default /opt/gameclock): made, or empty, or made by this installer (PREFIX/.gameclock-install
#      lists what it made there; only that is ever replaced or removed; anything else is refused)
#   3. the venv PREFIX/.venv with the wheel of this checkout built and installed, and the README
#      the unit names in PREFIX/systemd/
#   4. the system user gameclock-pc in the dialout group (systemd-sysusers)
#   5. the unit /etc/systemd/system/gameclock-receive.service: ONE receiver for every docked clock
#      (an older install's per-clock template gameclock-receive@.service and its instances are
#      stopped and removed; the receiver, if running, restarts on the new code)
#   6. the udev rule /etc/udev/rules.d/90-gameclock-dock.rules, udev reloaded, and clocks already
#      plugged in (ttyACM*) announced again so the receiver starts (not with --no-trigger)
# --dry-run prints the commands instead of running them (no root needed).
# --uninstall removes the udev rule, the unit and what PREFIX/.gameclock-install lists; the database
#   in /var/lib/gameclock-pc and the user stay.
set -euo pipefail

NAME=install-pc.sh
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=/opt/gameclock
DRY=""
TRIGGER=yes
UNINSTALL=""
PYTHON=/usr/bin/python3
UNIT_DIR=/etc/systemd/system
SYSUSERS_DIR=/etc/sysusers.d
RULES_DIR=/etc/udev/rules.d
UNIT=gameclock-receive.service
OLD_UNIT=gameclock-receive@.service   # before issue 14: one instance per clock
RULE=90-gameclock-dock.rules

usage() { sed -n '2,20s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY=yes ;;
    --no-trigger) TRIGGER=no ;;
    --uninstall) UNINSTALL=yes ;;
    --prefix) PREFIX=${2:?--prefix needs a directory}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install-pc.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

case "$PREFIX" in
  /?*) PREFIX=${PREFIX%/} ;;
  *) echo "install-pc.sh: --prefix must be an absolute directory other than /, not '$PREFIX'" >&2; exit 2 ;;
esac

if [ -z "$DRY" ] && [ "$(id -u)" -ne 0 ]; then
  echo "install-pc.sh: must be run as root (it installs a system user, a udev rule and a unit):" >&2
  echo "    sudo make install-pc      (or: $0 --dry-run to see the steps)" >&2
  exit 1
fi

# shellcheck source=install-lib.sh source-path=SCRIPTDIR
. "$SRC/systemd/install-lib.sh"
# install_unit SRC DEST: install a 0644 unit file, /opt/gameclock in it replaced by PREFIX
install_unit() {
  if [ "$PREFIX" = /opt/gameclock ]; then
    run install -D -m 0644 "$1" "$2"
  else
    printf '    $ sed s|/opt/gameclock|%s|g %s > %s\n' "$PREFIX" "$1" "$2"
    if [ -z "$DRY" ]; then
      mkdir -p "$(dirname "$2")"
      sed "s|/opt/gameclock|$PREFIX|g" "$1" > "$2"
      chmod 0644 "$2"
    fi
  fi
}

[ -n "$DRY" ] && echo "(dry run: nothing is changed)"

if [ -n "$UNINSTALL" ]; then
  step "udev rule and unit: $RULES_DIR/$RULE, $UNIT_DIR/$UNIT removed (the receiver stopped)"
  run rm -f "$RULES_DIR/$RULE"
  if [ -S /run/udev/control ] || [ -n "$DRY" ]; then run udevadm control --reload; fi
  if [ -d /run/systemd/system ] || [ -n "$DRY" ]; then
    run systemctl stop "$UNIT" 'gameclock-receive@*.service' || true
  fi
  run rm -f "$UNIT_DIR/$UNIT" "$UNIT_DIR/$OLD_UNIT"
  if [ -d /run/systemd/system ] || [ -n "$DRY" ]; then run systemctl daemon-reload; fi
  uninstall_prefix
  echo
  echo "gameclock dock receiver removed from $PREFIX. Kept: /var/lib/gameclock-pc (the results database),"
  echo "  the gameclock-pc user and $SYSUSERS_DIR/gameclock-pc.conf."
  exit 0
fi

# 1. Debian packages; 2. PREFIX; 3. the code (install-lib.sh, as systemd/install.sh does on the Pi)
install_packages "" python3 python3-venv
claim_prefix
install_venv "[organiser]"  # the pairing engine and the sheets' QR codes (pyproject.toml)
step "files: the README in $PREFIX/systemd (the unit names it)"
install_file 0644 systemd/README.md

# 4. the user ------------------------------------------------------------------------------------
step "user: gameclock-pc (system user) in group dialout"
run install -D -m 0644 "$SRC/systemd/sysusers.d/gameclock-pc.conf" "$SYSUSERS_DIR/gameclock-pc.conf"
if command -v systemd-sysusers >/dev/null 2>&1; then
  run systemd-sysusers "$SYSUSERS_DIR/gameclock-pc.conf"
else
  for g in gameclock-pc dialout; do
    getent group "$g" >/dev/null || run groupadd --system "$g"
  done
  id gameclock-pc >/dev/null 2>&1 || run useradd --system --gid gameclock-pc \
    --home-dir /var/lib/gameclock-pc --no-create-home --shell /usr/sbin/nologin gameclock-pc
  run usermod -a -G dialout gameclock-pc
fi

# 5. the unit ------------------------------------------------------------------------------------
if [ -e "$UNIT_DIR/$OLD_UNIT" ] || [ -n "$DRY" ]; then
  # An older install: one receiver per clock. Its instances let go of their ports first (the one
  # receiver takes them over when udev replays the clocks below), then the template goes.
  step "migration: the per-clock template $UNIT_DIR/$OLD_UNIT and its instances removed"
  if [ -d /run/systemd/system ] || [ -n "$DRY" ]; then
    run systemctl stop 'gameclock-receive@*.service' || true
  fi
  run rm -f "$UNIT_DIR/$OLD_UNIT"
fi
step "unit: $UNIT_DIR/$UNIT (ExecStart=$PREFIX/.venv/bin/gameclock receive --port auto ...)"
install_unit "$SRC/systemd/$UNIT" "$UNIT_DIR/$UNIT"
if [ -d /run/systemd/system ] || [ -n "$DRY" ]; then
  run systemctl daemon-reload
  # A receiver already running goes on with the new code (nothing if it is not running).
  run systemctl try-restart "$UNIT"
else
  echo "    systemd is not running here: the unit is read at the next boot"
fi

# 6. the udev rule -------------------------------------------------------------------------------
step "udev: $RULES_DIR/$RULE (a docked clock makes sure $UNIT runs)"
run install -D -m 0644 "$SRC/systemd/$RULE" "$RULES_DIR/$RULE"
if [ -S /run/udev/control ] || [ -n "$DRY" ]; then
  run udevadm control --reload
  if [ "$TRIGGER" = yes ]; then
    # Clocks plugged in before the rule existed: replay their "add" so the rule applies now.
    run udevadm trigger --action=add --subsystem-match=tty --sysname-match='ttyACM*'
  fi
else
  echo "    udev is not running here: the rule applies from the next boot"
fi

echo
if [ -n "$DRY" ]; then
  echo "dry run: these steps would install the gameclock dock receiver in $PREFIX."
else
  echo "gameclock dock receiver installed in $PREFIX: plug a clock in."
fi
echo "  receiver:  systemctl status $UNIT"
echo "  logs:      journalctl -u $UNIT -f"
echo "  results:   /var/lib/gameclock-pc/gameclock.db"
