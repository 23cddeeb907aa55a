#!/usr/bin/env bash
# Make the Pi's USB port a serial gadget for docking at the organiser's PC
# (gameclock-gadget.service runs this at boot, before gameclock.service).
#
#   sudo systemd/usb-gadget.sh [--dry-run] [--root DIR]
#
# Through configfs and libcomposite it builds one USB device with one CDC ACM (serial) function:
#   ids      0x1d6b:0x0104  (Linux Foundation, Multifunction Composite Gadget)
#   strings  manufacturer "gameclock", product "gameclock dock", serial number = the Pi's serial
#            (as firmware/gameclock/device/identity.py clock_serial reads it: the device tree's
#            serial-number or /proc/cpuinfo's Serial, leading zeros dropped)
# The Pi gets /dev/ttyGS0 (the clock's end of the dock protocol), the PC a /dev/ttyACM* that
# `gameclock receive --port auto` and systemd/90-gameclock-dock.rules know by these ids AND strings
# (other gadgets share the Linux Foundation ids). Needs `dtoverlay=dwc2` (hw/README.md).
# Safe to repeat: an existing gadget is unbound, rewritten and bound again.
# --dry-run prints the steps instead of doing them (no root needed).
# --root DIR reads the serial under DIR and builds the gadget under DIR/sys/kernel/config,
#   without modprobe or mount (for tests: DIR is a plain directory tree).
set -euo pipefail

# The values other files check against (tests/test_systemd_dock.py reads them from here).
ID_VENDOR=0x1d6b
ID_PRODUCT=0x0104
MANUFACTURER="gameclock"
PRODUCT="gameclock dock"
NAME=gameclock   # the gadget's configfs directory
ROOT=""
DRY=""

usage() { sed -n '2,19s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY=yes ;;
    --root) ROOT=${2:?--root needs a directory}; ROOT=${ROOT%/}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "usb-gadget.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

if [ -z "$DRY" ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
  echo "usb-gadget.sh: must be run as root (it loads libcomposite and writes to configfs):" >&2
  echo "    sudo $0      (or: $0 --dry-run to see the steps)" >&2
  exit 1
fi

CONFIGFS=$ROOT/sys/kernel/config
G=$CONFIGFS/usb_gadget/$NAME
UDC_CLASS=$ROOT/sys/class/udc

# run CMD...: print it, then run it (or only print it with --dry-run)
run() {
  printf '    $ %s\n' "$*"
  if [ -z "$DRY" ]; then "$@"; fi
}
# put VALUE FILE: write one configfs attribute
put() {
  printf '    $ echo %q > %s\n' "$1" "$2"
  if [ -z "$DRY" ]; then printf '%s\n' "$1" > "$2"; fi
}

# The Pi's serial, exactly as identity.py's clock_serial makes it: each run of characters other
# than letters, digits, . _ - (NULs, spaces, newlines included) becomes one "-", "-._" go from
# both ends, at most 64 characters are kept, then leading zeros go (not from the host name).
safe() {
  LC_ALL=C tr -c 'A-Za-z0-9._-' ' ' | LC_ALL=C sed -E 's/ +/-/g; s/^[-._]+//; s/[-._]+$//' | cut -c1-64
}
pi_serial() {
  local s="" value
  if [ -r "$ROOT/sys/firmware/devicetree/base/serial-number" ]; then
    s=$(safe < "$ROOT/sys/firmware/devicetree/base/serial-number" | sed 's/^0*//')
  fi
  if [ -z "$s" ] && [ -r "$ROOT/proc/cpuinfo" ]; then
    # the first "Serial : ..." line whose value is not empty once made safe
    while IFS= read -r value; do
      s=$(printf '%s' "$value" | safe | sed 's/^0*//')
      [ -z "$s" ] || break
    done < <(LC_ALL=C sed -n 's/^[[:space:]]*Serial[[:space:]]*:\(.*\)$/\1/p' "$ROOT/proc/cpuinfo")
  fi
  if [ -z "$s" ]; then
    s=$(uname -n | safe)
  fi
  printf '%s\n' "${s:-clock}"
}

SERIAL=$(pi_serial)
[ -n "$DRY" ] && echo "(dry run: nothing is changed)"
printf '==> USB gadget %s: %s:%s, "%s" "%s", serial %s\n' "$G" "$ID_VENDOR" "$ID_PRODUCT" \
  "$MANUFACTURER" "$PRODUCT" "$SERIAL"

if [ -z "$ROOT" ]; then
  run modprobe libcomposite
  if ! mountpoint -q "$CONFIGFS"; then
    run mount -t configfs none "$CONFIGFS"
  fi
fi

# The stock g_serial (modules-load=dwc2,g_serial) holds the port: ours cannot bind beside it.
if [ -d "$ROOT/sys/module/g_serial" ]; then
  echo "usb-gadget.sh: the g_serial module holds the USB port. Remove g_serial from modules-load= in" >&2
  echo "    /boot/firmware/cmdline.txt (keep dwc2) and reboot, or: sudo modprobe -r g_serial" >&2
  exit 1
fi

# Unbind a gadget made before: its attributes cannot change while it is bound.
if [ -r "$G/UDC" ] && [ -n "$(tr -d '[:space:]' < "$G/UDC")" ]; then
  put "" "$G/UDC"
fi

run mkdir -p "$G"
put "$ID_VENDOR" "$G/idVendor"
put "$ID_PRODUCT" "$G/idProduct"
put 0x0100 "$G/bcdDevice"        # device release 1.00
put 0x0200 "$G/bcdUSB"           # USB 2.0
# Miscellaneous class with an Interface Association Descriptor (f_acm sends one), so Windows
# binds its own usbser driver to the ACM pair as well as Linux's cdc_acm does.
put 0xEF "$G/bDeviceClass"
put 0x02 "$G/bDeviceSubClass"
put 0x01 "$G/bDeviceProtocol"
run mkdir -p "$G/strings/0x409"  # US English strings
put "$MANUFACTURER" "$G/strings/0x409/manufacturer"
put "$PRODUCT" "$G/strings/0x409/product"
put "$SERIAL" "$G/strings/0x409/serialnumber"

run mkdir -p "$G/configs/c.1/strings/0x409"
put "CDC ACM" "$G/configs/c.1/strings/0x409/configuration"
put 250 "$G/configs/c.1/MaxPower"  # mA asked of the PC (the clock has its own supply at PWR IN)
run mkdir -p "$G/functions/acm.usb0"
if [ ! -L "$G/configs/c.1/acm.usb0" ]; then
  run ln -s "$G/functions/acm.usb0" "$G/configs/c.1/"
fi

# Bind to the USB device controller (dwc2's, e.g. 20980000.usb on a Zero, fe980000.usb on a Pi 4).
udc=""
if [ -d "$UDC_CLASS" ]; then
  udc=$(find "$UDC_CLASS" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | head -n 1)
fi
if [ -z "$udc" ]; then
  if [ -n "$DRY" ]; then
    udc="<the first of $UDC_CLASS>"
  else
    echo "usb-gadget.sh: no USB device controller in $UDC_CLASS: is dtoverlay=dwc2 in" >&2
    echo "    /boot/firmware/config.txt (hw/README.md) and is this a Pi with gadget mode" >&2
    echo "    (Zero, Zero W, Zero 2 W, 4; not a 3B/3B+)?" >&2
    exit 1
  fi
fi
put "$udc" "$G/UDC"

port=""
if [ -r "$G/functions/acm.usb0/port_num" ]; then
  port=/dev/ttyGS$(tr -d '[:space:]' < "$G/functions/acm.usb0/port_num")
fi
echo
if [ -n "$DRY" ]; then
  echo "dry run: these steps would bind the gameclock gadget to $udc."
else
  echo "gameclock gadget bound to $udc${port:+, serial line $port on this side}."
fi
