"""Docking, the system side. On the Pi: systemd/usb-gadget.sh (the USB gadget through configfs) and
gameclock-gadget.service. On the organiser's PC: 90-gameclock-dock.rules (udev), the one receiver
gameclock-receive.service (every docked clock, issue 14), install-pc.sh and its sysusers.d file.

The units pass `systemd-analyze verify` with no output; every directive and every udev rule has its
comment; the udev rule passes the installed udev's own parser (`udevadm verify` from systemd 254 on,
before that `udevadm test` with only this rule loaded, in a private mount namespace) and, run through
a small model of udev's matching, makes sure the receiver runs for a clock and for nothing else. The USB ids
and strings are read from usb-gadget.sh, the rule and dock/ports.py and must agree, so the three
cannot drift apart. The gadget script runs for real on a fake /sys tree (twice: it is idempotent)
and makes the serial that device/identity.py makes; both install scripts are checked as dry runs,
refuse without root, and are shellcheck-clean."""
from __future__ import annotations

import fnmatch
import os
import re
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from test_systemd_unit import MARKER, WHEEL, as_nobody, directives, dry_run, need, verify

from gameclock.device.identity import clock_serial
from gameclock.organiser import ports

ROOT = Path(__file__).resolve().parents[1]
SYSTEMD = ROOT / "systemd"
GADGET_SH = SYSTEMD / "usb-gadget.sh"
GADGET_UNIT = SYSTEMD / "gameclock-gadget.service"
RECEIVE_UNIT = SYSTEMD / "gameclock-receive.service"
OLD_RECEIVE_UNIT = "gameclock-receive@.service"  # before issue 14: one instance per clock
RULES = SYSTEMD / "90-gameclock-dock.rules"
INSTALL = SYSTEMD / "install.sh"
INSTALL_PC = SYSTEMD / "install-pc.sh"
SYSUSERS_PC = SYSTEMD / "sysusers.d" / "gameclock-pc.conf"
VENV_GAMECLOCK = Path(sys.executable).with_name("gameclock")
INSTALLED_GAMECLOCK = "/opt/gameclock/.venv/bin/gameclock"
INSTALLED_GADGET_SH = "/opt/gameclock/systemd/usb-gadget.sh"
RECEIVE_CMD = "receive --port auto --db /var/lib/gameclock-pc/gameclock.db"


def settings(unit: Path) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for section, key, value in directives(unit.read_text()):
        out.setdefault((section, key), []).append(value)
    return out


def runnable_copy(unit: Path, installed: str, here: Path, tmp_path: Path) -> Path:
    """The unit with ExecStart's program pointed at the one in this checkout (verify checks that it
    exists and is executable); the only change: /opt/gameclock is made by the install scripts."""
    assert os.access(here, os.X_OK), here
    text = unit.read_text()
    assert text.count(f"ExecStart={installed}") == 1
    copy = tmp_path / unit.name  # verify wants the unit's own name
    copy.write_text(text.replace(f"ExecStart={installed}", f"ExecStart={here}"))
    return copy


def assert_verifies(path: Path) -> None:
    r = verify(path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def assert_every_directive_commented(path: Path) -> None:
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^[A-Za-z]+=", line):
            assert lines[i - 1].startswith("#"), f"{path.name}:{i + 1} has no comment above it: {line}"


# ------------------------------------------------------------------------ the values, three files
def gadget_values() -> dict[str, str]:
    """ID_VENDOR=..., MANUFACTURER="..." etc. as usb-gadget.sh sets them."""
    values = {}
    for m in re.finditer(r'^(ID_VENDOR|ID_PRODUCT|MANUFACTURER|PRODUCT)=("?)([^"\n]*)\2\s*$',
                         GADGET_SH.read_text(), re.M):
        values[m.group(1)] = m.group(3)
    assert set(values) == {"ID_VENDOR", "ID_PRODUCT", "MANUFACTURER", "PRODUCT"}, values
    return values


@dataclass
class Token:
    key: str
    attr: str | None
    op: str
    value: str


TOKEN = re.compile(r'(?P<key>[A-Z_]+)(?:\{(?P<attr>[^}]+)\})?(?P<op>==|!=|\+=|-=|:=|=)"(?P<value>[^"]*)"')
KEYS = {"ACTION", "SUBSYSTEM", "KERNEL", "ATTRS", "ENV", "GOTO", "LABEL", "SYMLINK", "OPTIONS",
        "GROUP", "MODE", "TAG"}


def parse_rules(text: str) -> list[tuple[int, list[Token]]]:
    """(line number, tokens) for every rule: `KEY{attr}OP"value"` joined by `, ` and nothing else
    (stricter than udev, which only warns about some slips and goes on)."""
    rules = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        assert not line.endswith("\\"), f"line {number}: no continuation lines"
        tokens, pos = [], 0
        while True:
            m = TOKEN.match(line, pos)
            assert m, f"line {number}, column {pos + 1}: not a udev key: {line[pos:]!r}"
            token = Token(m["key"], m["attr"], m["op"], m["value"])
            assert token.key in KEYS, f"line {number}: key {token.key} (the model below knows {KEYS})"
            tokens.append(token)
            pos = m.end()
            if pos == len(line):
                break
            assert line.startswith(", ", pos), f"line {number}, column {pos + 1}: expected ', '"
            pos += 2
        rules.append((number, tokens))
    return rules


RULE_LINES = parse_rules(RULES.read_text())


def clock_matches() -> list[dict[str, str]]:
    """The ATTRS of each rule that says a device is a clock (the lines setting GAMECLOCK_DOCK)."""
    out = []
    for _n, tokens in RULE_LINES:
        if any(t.key == "ENV" and t.attr == "GAMECLOCK_DOCK" and t.op == "=" for t in tokens):
            assert all(t.op == "==" for t in tokens if t.key == "ATTRS")
            out.append({t.attr: t.value for t in tokens if t.key == "ATTRS"})
    return out


def test_the_ids_and_strings_agree_in_the_gadget_the_udev_rule_and_ports_py():
    g = gadget_values()
    vid, pid = int(g["ID_VENDOR"], 16), int(g["ID_PRODUCT"], 16)
    assert (vid, pid) == ports.GADGET_IDS == (0x1D6B, 0x0104)
    assert (g["MANUFACTURER"], g["PRODUCT"]) == (ports.MANUFACTURER, ports.PRODUCT)
    matches = clock_matches()
    # The rule knows a clock by exactly the id pairs ports.py accepts (ours first), each with the
    # manufacturer string the gadget sets ...
    assert [(m["idVendor"], m["idProduct"]) for m in matches] == [
        (f"{v:04x}", f"{p:04x}") for v, p in ports.CLOCK_IDS]
    assert matches[0]["idVendor"] == g["ID_VENDOR"].removeprefix("0x")
    assert matches[0]["idProduct"] == g["ID_PRODUCT"].removeprefix("0x")
    assert all(set(m) == {"idVendor", "idProduct", "manufacturer"} for m in matches)
    assert {m["manufacturer"] for m in matches} == {g["MANUFACTURER"]}
    # ... and a port with the gadget's ids and strings is a clock to ports.py.
    port = type("Port", (), dict(vid=vid, pid=pid, manufacturer=g["MANUFACTURER"],
                                 product=g["PRODUCT"], serial_number="abc", device="/dev/ttyACM0",
                                 description=g["PRODUCT"]))()
    assert ports.find_clocks([port]) == [ports.FoundPort("/dev/ttyACM0", "abc", "gameclock dock",
                                                         vid, pid)]


def test_the_rule_wants_the_one_receiver_that_finds_every_clock():  # issue 14: no process per clock
    wants = [t.value for _n, tokens in RULE_LINES for t in tokens
             if t.key == "ENV" and t.attr == "SYSTEMD_WANTS"]
    assert wants == [RECEIVE_UNIT.name] == ["gameclock-receive.service"]
    s = settings(RECEIVE_UNIT)
    assert s[("Service", "ExecStart")] == [f"{INSTALLED_GAMECLOCK} {RECEIVE_CMD}"]  # --port auto: ports.py


# ------------------------------------------------------------------------------ the udev rule
def test_every_rule_has_its_comment():
    lines = RULES.read_text().splitlines()
    for number, tokens in RULE_LINES:
        if tokens[0].key == "LABEL":
            continue
        assert lines[number - 2].startswith("#"), f"line {number} has no comment above it"


@dataclass
class Parent:
    """A sysfs device above the tty, with its attributes (what ATTRS{} searches)."""

    attrs: dict[str, str]


@dataclass
class Event:
    kernel: str
    parents: list[Parent]  # nearest first: USB interface, USB device, hub, ...
    action: str = "add"
    subsystem: str = "tty"


@dataclass
class Outcome:
    env: dict[str, str] = field(default_factory=dict)
    symlinks: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    group: str | None = None
    mode: str | None = None
    options: list[str] = field(default_factory=list)


def run_rules(event: Event) -> Outcome:
    """A small model of udev applying these rules to one event: matches (==, != with globs), ATTRS
    searched up the parents with all of a rule's ATTRS on the same device, GOTO/LABEL, assignments
    with $attr{} (from the device the rule's ATTRS matched), $env{} and %k."""
    out = Outcome()
    labels = {tokens[0].value: i for i, (_n, tokens) in enumerate(RULE_LINES) if tokens[0].key == "LABEL"}
    i = 0
    while i < len(RULE_LINES):
        _number, tokens = RULE_LINES[i]
        i += 1
        attrs = [t for t in tokens if t.key == "ATTRS"]
        parent = None
        if attrs:
            parent = next((p for p in event.parents
                           if all(t.attr in p.attrs and fnmatch.fnmatchcase(p.attrs[t.attr], t.value)
                                  for t in attrs)), None)
            if parent is None:
                continue
        ok = True
        for t in tokens:
            if t.op not in ("==", "!=") or t.key == "ATTRS":
                continue
            have = {"ACTION": event.action, "SUBSYSTEM": event.subsystem, "KERNEL": event.kernel,
                    "ENV": out.env.get(t.attr or "", "")}[t.key]
            ok &= fnmatch.fnmatchcase(have, t.value) == (t.op == "==")
        if not ok:
            continue

        def subst(value: str, parent=parent) -> str:
            value = re.sub(r"\$attr\{(\w+)\}", lambda m: (parent.attrs if parent else {}).get(m[1], ""), value)
            value = re.sub(r"\$env\{(\w+)\}", lambda m: out.env.get(m[1], ""), value)
            return value.replace("%k", event.kernel)

        for t in tokens:
            if t.op in ("==", "!="):
                continue
            value = subst(t.value)
            if t.key == "GOTO":
                i = labels[value]
                break
            if t.key == "LABEL":
                continue
            if t.key == "ENV":
                old = out.env.get(t.attr, "")
                out.env[t.attr] = f"{old} {value}".strip() if t.op == "+=" and old else value
            elif t.key == "SYMLINK":
                out.symlinks = ([*out.symlinks] if t.op == "+=" else []) + value.split()
            elif t.key == "TAG":
                out.tags.append(value)
            elif t.key == "OPTIONS":
                out.options.append(value)
            elif t.key in ("GROUP", "MODE"):
                setattr(out, t.key.lower(), value)
            else:
                raise AssertionError(f"the model does not know {t.key}{t.op}")
    return out


ACM_IF = Parent({"interface": "CDC Abstract Control Model (ACM)", "bInterfaceClass": "02"})
ROOT_HUB = Parent({"idVendor": "1d6b", "idProduct": "0002", "manufacturer": "Linux 6.1.0-13-amd64 xhci-hcd",
                   "product": "xHCI Host Controller", "serial": "0000:00:14.0"})


def usb(vid: str, pid: str, manufacturer: str, product: str, serial: str | None = None) -> Parent:
    attrs = {"idVendor": vid, "idProduct": pid, "manufacturer": manufacturer, "product": product}
    if serial is not None:
        attrs["serial"] = serial
    return Parent(attrs)


def clock_event(kernel="ttyACM0", serial: str | None = "3a1b2c3d", action="add") -> Event:
    g = gadget_values()
    return Event(kernel, [ACM_IF, usb(g["ID_VENDOR"][2:], g["ID_PRODUCT"][2:], g["MANUFACTURER"],
                                      g["PRODUCT"], serial), ROOT_HUB], action=action)


def test_a_docked_clock_gets_its_receiver_its_name_and_its_permissions():
    out = run_rules(clock_event("ttyACM3"))
    assert out.env["SYSTEMD_WANTS"] == "gameclock-receive.service"
    assert "systemd" in out.tags
    assert out.symlinks == ["gameclock-3a1b2c3d"]
    assert (out.group, out.mode) == ("dialout", "0660")
    assert out.env["ID_MM_DEVICE_IGNORE"] == "1"  # ModemManager keeps away


def test_a_clock_without_a_serial_gets_no_symlink():
    """No `gameclock-` for two clocks to fight over; and the root hub's serial is never taken."""
    out = run_rules(clock_event(serial=None))
    assert out.symlinks == [] and out.env["SYSTEMD_WANTS"] == "gameclock-receive.service"


def test_a_stock_g_serial_clock_with_our_strings_is_a_clock():
    out = run_rules(Event("ttyACM1", [ACM_IF, usb("0525", "a4a7", "gameclock", "gameclock-dock"), ROOT_HUB]))
    assert out.env["SYSTEMD_WANTS"] == "gameclock-receive.service" and out.symlinks == []


@pytest.mark.parametrize("event", [
    # another libcomposite gadget with the Linux Foundation ids
    Event("ttyACM0", [ACM_IF, usb("1d6b", "0104", "Raspberry Pi", "Pi Zero gadget", "0001"), ROOT_HUB]),
    # a bare g_serial
    Event("ttyACM0", [ACM_IF, usb("0525", "a4a7", "Linux 6.1.21+ with 20980000.usb", "Gadget Serial v2.4"),
                      ROOT_HUB]),
    # a USB-UART adapter calling itself gameclock
    Event("ttyUSB0", [ACM_IF, usb("0403", "6001", "gameclock", "gameclock dock", "A50285BI"), ROOT_HUB]),
    # the strings on one device, the ids on another (all of a rule's ATTRS must be on one device)
    Event("ttyACM0", [Parent({"manufacturer": "gameclock"}), usb("1d6b", "0104", "someone", "x"), ROOT_HUB]),
    # a clock's port going away (the receiver lets go of it by itself)
    clock_event(action="remove"),
], ids=["other-gadget", "bare-g_serial", "uart-adapter", "split-attrs", "remove"])
def test_anything_else_is_left_alone(event):
    assert run_rules(event) == Outcome()


def test_a_non_tty_device_of_the_clock_is_left_alone():
    event = clock_event()
    event.subsystem = "usb"
    assert run_rules(event) == Outcome()


def udevadm_problems(rules: Path) -> list[str]:
    """What the installed udev's own parser says about `rules` (empty: nothing). `udevadm verify`
    (systemd >= 254); before it (Debian 12 has udev 252), `udevadm test` in a private mount
    namespace where the rules directories hold only this file and /dev, /run are empty tmpfs, so
    nothing on this machine is touched: its log names every line it refuses or drops."""
    udevadm = shutil.which("udevadm")
    if udevadm is None:
        pytest.fail("udevadm is missing: install Debian's udev package "
                    "(`make test` does: sudo apt-get install udev)")
    version = subprocess.run([udevadm, "--version"], capture_output=True, text=True, timeout=30)
    major = int(re.match(r"\d+", version.stdout.strip()).group())
    if major >= 254:
        r = subprocess.run([udevadm, "verify", "--resolve-names=never", str(rules)],
                           capture_output=True, text=True, timeout=60)
        return [] if r.returncode == 0 else (r.stdout + r.stderr).splitlines()
    ttys = sorted(Path("/sys/class/tty").iterdir()) if Path("/sys/class/tty").is_dir() else []
    assert ttys, "no /sys/class/tty device to run `udevadm test` on"
    script = (
        'set -e\n'
        'for d in /dev /run /etc/udev /usr/lib/udev/rules.d; do mount -t tmpfs tmpfs "$d"; done\n'
        'mkdir /etc/udev/rules.d\n'
        'cp "$1" /etc/udev/rules.d/\n'
        'exec "$2" test --action=add "$3"\n')
    unshare = [need("unshare"), "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        unshare[1:1] = ["--map-root-user"]
    r = subprocess.run([*unshare, "sh", "-c", script, "sh", str(rules), udevadm, str(ttys[0])],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, SYSTEMD_LOG_COLOR="0"))
    log = r.stdout + r.stderr
    assert r.returncode == 0, log
    assert f"Reading rules file: /etc/udev/rules.d/{rules.name}" in log, log  # it did read it
    return [line for line in log.splitlines()
            if rules.name in line and not line.startswith("Reading rules file")]


def test_udev_itself_accepts_the_rule():
    assert udevadm_problems(RULES) == []


def test_udev_would_catch_a_bad_rule(tmp_path):
    """The check above means something: a misspelt key and a GOTO to nowhere are reported."""
    bad = tmp_path / RULES.name
    bad.write_text(RULES.read_text().replace('GROUP="dialout"', 'GRUOP="dialout"')
                   .replace('GOTO="gameclock_dock_end"', 'GOTO="gameclock_dock_ned"', 1))
    problems = "\n".join(udevadm_problems(bad))
    assert "GRUOP" in problems and "gameclock_dock_ned" in problems, problems


# --------------------------------------------------------------------------------- the units
def test_gadget_unit_verify_prints_nothing(tmp_path):
    assert_verifies(runnable_copy(GADGET_UNIT, INSTALLED_GADGET_SH, GADGET_SH, tmp_path))


def test_receive_unit_verify_prints_nothing(tmp_path):
    assert_verifies(runnable_copy(RECEIVE_UNIT, INSTALLED_GAMECLOCK, VENV_GAMECLOCK, tmp_path))


def test_verify_would_catch_a_bad_receive_unit(tmp_path):
    copy = runnable_copy(RECEIVE_UNIT, INSTALLED_GAMECLOCK, VENV_GAMECLOCK, tmp_path)
    copy.write_text(copy.read_text().replace("DeviceAllow=char-ttyACM rw", "DeviceAllow=char-ttyACM rwx"))
    r = verify(copy)
    assert "Invalid device rights 'rwx'" in r.stdout + r.stderr


@pytest.mark.parametrize("unit", [GADGET_UNIT, RECEIVE_UNIT], ids=lambda p: p.name)
def test_every_directive_of_the_new_units_has_its_comment(unit):
    assert_every_directive_commented(unit)


def test_the_gadget_unit_runs_the_script_once_before_the_clock():
    s = settings(GADGET_UNIT)
    assert s[("Service", "Type")] == ["oneshot"] and s[("Service", "RemainAfterExit")] == ["yes"]
    assert s[("Service", "ExecStart")] == [INSTALLED_GADGET_SH]
    # install.sh puts the script there, executable, under the path it has in the checkout
    assert INSTALLED_GADGET_SH.removeprefix("/opt/gameclock/") == str(GADGET_SH.relative_to(ROOT))
    assert os.access(GADGET_SH, os.X_OK)
    assert f"install -D -m 0755 {GADGET_SH} {INSTALLED_GADGET_SH}\n" in dry_run("--arch", "aarch64")
    assert "gameclock.service" in " ".join(s[("Unit", "Before")]).split()
    assert "sys-kernel-config.mount" in " ".join(s[("Unit", "After")]).split()
    assert ("Unit", "Requires") not in s  # the clock must run without a dock too
    assert s[("Install", "WantedBy")] == ["multi-user.target"]


def test_the_receive_unit_serves_every_docked_clock():  # issue 14: one receiver, not one per clock
    s = settings(RECEIVE_UNIT)
    assert ("Unit", "BindsTo") not in s  # no port of its own: it outlives any one clock
    assert "%" not in RECEIVE_UNIT.read_text()  # not a template: no %i, %I
    assert "--port auto" in s[("Service", "ExecStart")][0]
    assert s[("Service", "Restart")] == ["on-failure"]  # status 3: no port can be served
    assert s[("Service", "User")] == ["gameclock-pc"] and s[("Service", "Group")] == ["gameclock-pc"]
    assert s[("Service", "SupplementaryGroups")] == ["dialout"]  # the rule's GROUP=
    assert s[("Service", "StateDirectory")] == ["gameclock-pc"]
    assert f"/var/lib/{s[('Service', 'StateDirectory')][0]}/gameclock.db" in s[("Service", "ExecStart")][0]
    # only the CDC ACM ports (a clock is /dev/ttyACMn: the rule's KERNEL, ports.py's scan)
    assert s[("Service", "DevicePolicy")] == ["closed"] and s[("Service", "DeviceAllow")] == ["char-ttyACM rw"]
    for key in ("PrivateDevices", "DynamicUser"):  # would hide the port / the group
        assert ("Service", key) not in s
    for key, value in (("ProtectSystem", "strict"), ("NoNewPrivileges", "yes"), ("PrivateNetwork", "yes")):
        assert s[("Service", key)] == [value]
    assert not any(section == "Install" for section, _key in s)  # udev starts it, nothing enables it


def test_the_receive_units_user_is_made_by_sysusers(tmp_path):
    sysusers = need("systemd-sysusers")
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\nann:x:1000:1000::/home/ann:/bin/bash\n")
    (etc / "group").write_text("root:x:0:\ndialout:x:20:ann\nann:x:1000:\n")
    for name in ("shadow", "gshadow"):
        (etc / name).write_text("")
        (etc / name).chmod(0o600)
    r = subprocess.run([sysusers, f"--root={tmp_path}", str(SYSUSERS_PC)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    user = next(line for line in (etc / "passwd").read_text().splitlines()
                if line.startswith("gameclock-pc:")).split(":")
    assert user[5:] == ["/var/lib/gameclock-pc", "/usr/sbin/nologin"] and int(user[2]) < 1000
    members = {g.split(":")[0]: g.split(":")[3].split(",") for g in (etc / "group").read_text().splitlines()}
    assert members["dialout"] == ["ann", "gameclock-pc"] and "gameclock-pc" in members


# ------------------------------------------------------------------------- usb-gadget.sh
def gadget(*args: str, root: Path | None = None) -> subprocess.CompletedProcess:
    cmd = ["bash", str(GADGET_SH), *args]
    if root is not None:
        cmd += ["--root", str(root)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def fake_pi(tmp_path: Path, serial: bytes | None = b"00000000abcdef12\0", udc: str | None = "20980000.usb",
            cpuinfo: str | None = None) -> Path:
    root = tmp_path / "root"
    if serial is not None:
        (root / "sys/firmware/devicetree/base").mkdir(parents=True)
        (root / "sys/firmware/devicetree/base/serial-number").write_bytes(serial)
    if cpuinfo is not None:
        (root / "proc").mkdir(parents=True)
        (root / "proc/cpuinfo").write_text(cpuinfo)
    (root / "sys/class/udc").mkdir(parents=True)
    if udc:
        (root / "sys/class/udc" / udc).mkdir()
    return root


def tree(path: Path) -> dict[str, str]:
    return {str(p.relative_to(path)): (f"-> {os.readlink(p)}" if p.is_symlink() else p.read_text())
            for p in sorted(path.rglob("*")) if p.is_symlink() or p.is_file()}


def test_the_gadget_is_built_in_configfs_and_bound(tmp_path):
    root = fake_pi(tmp_path)
    r = gadget(root=root)
    assert r.returncode == 0, r.stderr
    g = root / "sys/kernel/config/usb_gadget/gameclock"
    built = tree(g)
    values = gadget_values()
    assert built["idVendor"] == values["ID_VENDOR"] + "\n" == "0x1d6b\n"
    assert built["idProduct"] == values["ID_PRODUCT"] + "\n" == "0x0104\n"
    assert built["strings/0x409/manufacturer"] == "gameclock\n"
    assert built["strings/0x409/product"] == "gameclock dock\n"
    assert built["strings/0x409/serialnumber"] == "abcdef12\n"  # the Pi's serial, zeros dropped
    assert built["configs/c.1/acm.usb0"] == f"-> {g}/functions/acm.usb0"  # the ACM function ...
    assert (g / "functions/acm.usb0").is_dir()
    assert built["UDC"] == "20980000.usb\n"  # ... bound to the Pi's controller
    assert "gameclock gadget bound to 20980000.usb." in r.stdout

    again = gadget(root=root)  # idempotent: the same gadget, unbound and bound again on the way
    assert again.returncode == 0, again.stderr
    assert tree(g) == built
    assert f'echo \'\' > {g}/UDC' in again.stdout
    assert again.stdout.index(f"echo '' > {g}/UDC") < again.stdout.index(f"echo 0x1d6b > {g}/idVendor")


@pytest.mark.parametrize("serial, cpuinfo", [
    (b"00000000abcdef12\0", None),                      # a Pi's device tree (NUL-terminated)
    (b"100000003a1b2c3d\0", None),                      # a Pi 4: no leading zero to drop
    (b"0000000000000000\0", "Serial\t\t: 0000000012345678\n"),  # all zeros: /proc/cpuinfo's
    (None, "processor\t: 0\nHardware\t: BCM2835\nSerial\t\t: 00000000c0ffee42\nModel\t: Pi\n"),
    (None, "Serial : \nSerial\t: 00000000f00d\n"),        # the first Serial line with a value
    (b" 00ab/cd..ef--gh\xff\n", None),                   # odd bytes: the same safe form as identity.py
    (b"\0\0", None),                                     # nothing usable, no cpuinfo: the host name
    (None, None),
], ids=["devicetree", "no-zeros", "zeros-cpuinfo", "cpuinfo", "first-value", "odd", "empty", "hostname"])
def test_the_usb_serial_is_the_clocks_serial(tmp_path, serial, cpuinfo):
    """usb-gadget.sh makes the same serial as device/identity.py's clock_serial, so the USB
    iSerial (FoundPort.serial_number, /dev/gameclock-SERIAL) names the clock as its results do."""
    root = fake_pi(tmp_path, serial=serial, cpuinfo=cpuinfo)
    r = gadget("--dry-run", root=root)
    assert r.returncode == 0, r.stderr
    expected = clock_serial(root)
    assert f"serial {expected}\n" in r.stdout
    assert f"echo {expected} > " in r.stdout
    if serial is None and cpuinfo is None:
        assert expected == re.sub(r"[^A-Za-z0-9._-]+", "-", socket.gethostname()).strip("-._")[:64]


def test_the_gadget_dry_run_shows_every_step_without_root():
    with as_nobody(GADGET_SH, "--dry-run") as (cmd, cwd):  # as root: nobody runs it
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=cwd)
    assert r.returncode == 0, r.stderr
    g = "/sys/kernel/config/usb_gadget/gameclock"
    for step in ("(dry run: nothing is changed)", "$ modprobe libcomposite",
                 f"$ echo 0x1d6b > {g}/idVendor", f"$ echo 0x0104 > {g}/idProduct",
                 f"$ echo gameclock > {g}/strings/0x409/manufacturer",
                 f"$ echo gameclock\\ dock > {g}/strings/0x409/product",
                 f"$ mkdir -p {g}/functions/acm.usb0",
                 f"$ ln -s {g}/functions/acm.usb0 {g}/configs/c.1/", f"> {g}/UDC"):
        assert step in r.stdout, step
    assert f"serial {clock_serial('/')}\n" in r.stdout  # this machine's, as identity.py makes it


def test_the_gadget_script_refuses_without_root():
    with as_nobody(GADGET_SH) as (cmd, cwd):  # as root: nobody runs it
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=cwd)
    assert r.returncode == 1 and r.stdout == ""
    assert "must be run as root" in r.stderr and "--dry-run" in r.stderr


def test_the_gadget_script_says_what_is_missing(tmp_path):
    root = fake_pi(tmp_path, udc=None)
    r = gadget(root=root)
    assert r.returncode == 1 and "dtoverlay=dwc2" in r.stderr and "no USB device controller" in r.stderr
    (root / "sys/module/g_serial").mkdir(parents=True)
    r = gadget(root=root)
    assert r.returncode == 1 and "g_serial module holds the USB port" in r.stderr
    r = gadget("--dry-rnu")
    assert r.returncode == 2 and "unknown option '--dry-rnu'" in r.stderr


# ------------------------------------------------------------------------------ install scripts
@pytest.mark.parametrize("script", [GADGET_SH, INSTALL_PC], ids=lambda p: p.name)
def test_new_scripts_are_shellcheck_clean(script):
    # `make test` installs shellcheck (Makefile SYSTOOLS); without it this fails rather than skips.
    assert shutil.which("shellcheck"), "shellcheck is missing: sudo apt-get install shellcheck"
    # -x: follow what the script sources (install-pc.sh: systemd/install-lib.sh)
    r = subprocess.run(["shellcheck", "-x", str(script)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout


def install_pc_dry_run(*args: str) -> str:
    r = subprocess.run(["bash", str(INSTALL_PC), "--dry-run", *args], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_install_pc_dry_run():
    out = install_pc_dry_run()
    assert "(dry run: nothing is changed)" in out
    for step in ("/usr/bin/python3 -m venv /opt/gameclock/.venv",
                 "/opt/gameclock/.venv/bin/python -m pip wheel --quiet --disable-pip-version-check --no-deps -w ",
                 "pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ",
                 f"install -D -m 0644 {SYSTEMD}/README.md /opt/gameclock/systemd/README.md",  # the unit names it
                 f"install -D -m 0644 {SYSUSERS_PC} /etc/sysusers.d/gameclock-pc.conf",
                 "systemd-sysusers /etc/sysusers.d/gameclock-pc.conf",
                 # an older install's per-clock receivers go, the one receiver takes their ports
                 "systemctl stop gameclock-receive@*.service",
                 f"rm -f /etc/systemd/system/{OLD_RECEIVE_UNIT}",
                 f"install -D -m 0644 {RECEIVE_UNIT} /etc/systemd/system/gameclock-receive.service",
                 "systemctl daemon-reload",
                 "systemctl try-restart gameclock-receive.service",
                 f"install -D -m 0644 {RULES} /etc/udev/rules.d/90-gameclock-dock.rules",
                 "udevadm control --reload",
                 "udevadm trigger --action=add --subsystem-match=tty --sysname-match=ttyACM*"):
        assert step in out, step
    assert "[pi]" not in out and "systemctl enable" not in out  # no Pi extra; udev starts the units
    # the organiser's extra (the pairing engine, the sheets' QR codes: pyproject.toml), not the Pi's
    assert re.search(rf"pip install --quiet --disable-pip-version-check \S+/dist/{re.escape(WHEEL)}\[organiser\]\n", out)
    assert " -e " not in out and "usb-gadget.sh" not in out and "/etc/gameclock" not in out  # the Pi's only
    assert out.index("daemon-reload") < out.index("udevadm control --reload")  # unit known first
    assert out.index(f"rm -f /etc/systemd/system/{OLD_RECEIVE_UNIT}") < out.index("daemon-reload")


def test_install_pc_dry_run_with_a_prefix(tmp_path):
    prefix = tmp_path / "opt-gameclock"
    out = install_pc_dry_run("--prefix", str(prefix), "--no-trigger")
    assert f"sed s|/opt/gameclock|{prefix}|g {RECEIVE_UNIT} > /etc/systemd/system/gameclock-receive.service" in out
    assert f"{prefix}/.venv/bin/python -m pip install --quiet" in out and "udevadm trigger" not in out
    assert f"echo 'tree .venv' >> {prefix}/{MARKER}" in out
    assert not prefix.exists()  # a dry run changes nothing


def test_install_pc_refuses_a_prefix_it_did_not_make_and_uninstalls_only_its_own(tmp_path):
    prefix = tmp_path / "opt"
    prefix.mkdir()
    (prefix / "data.db").write_text("")
    r = subprocess.run(["bash", str(INSTALL_PC), "--dry-run", "--prefix", str(prefix)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1 and "install-pc.sh: " in r.stderr and "was not made by this installer" in r.stderr
    out = install_pc_dry_run("--uninstall", "--prefix", str(prefix))
    assert "rm -f /etc/udev/rules.d/90-gameclock-dock.rules" in out
    assert ("rm -f /etc/systemd/system/gameclock-receive.service /etc/systemd/system/gameclock-receive@.service"
            in out)
    assert "systemctl stop gameclock-receive.service gameclock-receive@*.service" in out
    assert f"no {prefix}/{MARKER}: nothing there was made by this installer, nothing removed" in out
    assert f"rm -rf -- {prefix}" not in out and (prefix / "data.db").exists()


def test_install_pc_refuses_without_root():
    with as_nobody(INSTALL_PC) as (cmd, cwd):  # as root: nobody runs it
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=cwd)
    assert r.returncode == 1 and r.stdout == ""
    assert "must be run as root" in r.stderr and "sudo make install-pc" in r.stderr
    r = subprocess.run(["bash", str(INSTALL_PC), "--dry-run", "--prefx", "/x"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "unknown option '--prefx'" in r.stderr


def test_make_install_pc_runs_the_script():
    r = subprocess.run(["make", "-n", "-C", str(ROOT), "install-pc"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert "systemd/install-pc.sh" in r.stdout and ".venv" not in r.stdout  # no dev venv as root


def test_make_test_installs_udevadm():
    """The udev check fails without udevadm: `make test` installs Debian's udev for it."""
    makefile = (ROOT / "Makefile").read_text()
    systools = re.search(r"^SYSTOOLS :=(.*)$", makefile, re.M).group(1).split()
    assert "udevadm:udev" in systools
