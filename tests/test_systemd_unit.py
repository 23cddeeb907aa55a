"""systemd/: the unit passes `systemd-analyze verify` with no output at all, says what issue 3 asks
(and every directive has its comment), the sysusers.d file makes the user, and install.sh (what
`sudo make install` runs) does its steps: checked as a dry run, its refusal without root, and
shellcheck when it is there. What install.sh owns in its prefix (issue 12): the marker's list, its refusal
of a folder it did not make, its uninstall, and the site folder it never overwrites, run for real on
temporary folders through install-lib.sh's own functions (they need no root)."""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from aptfake import PI_OS, fake_apt

import gameclock
from gameclock import sitedir
from gameclock.device.wiring import ENV_WIRING
from gameclock.rules.loader import ENV_RULES_DIR

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "gameclock.service"
GADGET_UNIT = ROOT / "systemd" / "gameclock-gadget.service"
SYSUSERS = ROOT / "systemd" / "sysusers.d" / "gameclock.conf"
INSTALL = ROOT / "systemd" / "install.sh"
INSTALL_LIB = ROOT / "systemd" / "install-lib.sh"
GADGET_SH = ROOT / "systemd" / "usb-gadget.sh"
DEFAULTS = ROOT / "systemd" / "etc" / "default" / "gameclock"
WHEEL = f"gameclock-{gameclock.__version__}-py3-none-any.whl"
MARKER = ".gameclock-install"
VENV_GAMECLOCK = Path(sys.executable).with_name("gameclock")
INSTALLED_EXEC = "/opt/gameclock/.venv/bin/gameclock"


def need(tool: str) -> str:
    """A tool the suite requires (`make test` installs it: the Makefile's sysdeps). Missing is a
    failure, not a skip: a skipped unit check would pass a broken unit."""
    path = shutil.which(tool)
    if path is None:
        pytest.fail(f"{tool} is missing: install Debian's systemd package "
                    "(`make test` does: sudo apt-get install systemd)")
    return path


NOBODY = ("--reuid=65534", "--regid=65534", "--clear-groups")


def _world_traversable(path: Path) -> bool:
    """Every folder from / down to `path` lets others in (o+x): `nobody` can reach what is inside."""
    path = path.resolve()
    return all(p.stat().st_mode & stat.S_IXOTH for p in (path, *path.parents))


@contextlib.contextmanager
def as_nobody(script: Path, *args: str):
    """The command that runs `bash SCRIPT ARGS...` as an unprivileged user, and the folder to run it in.

    Not root: the script itself, as we are. Root: `setpriv` to nobody (65534) -- but nobody may not be
    able to reach the checkout (a clone inside a 0700 folder such as /root, or pytest's 0700
    tmp_path), so the script's folder (systemd/: the script and what it sources) is copied into a
    fresh folder that everyone can read, under the same relative path, and run from there. The script
    is the same bytes; only where it lies differs. Yields (argv, cwd)."""
    if os.geteuid() != 0:
        yield ["bash", str(script), *args], None
        return
    bases = [Path(tempfile.gettempdir()), Path("/tmp"), Path("/var/tmp"), Path("/dev/shm")]
    base = next((b for b in bases if b.is_dir() and _world_traversable(b)), None)
    if base is None:
        pytest.fail(f"no temporary folder that nobody can reach (tried {', '.join(map(str, bases))})")
    top = Path(tempfile.mkdtemp(prefix="gameclock-nobody-", dir=base))
    try:
        rel = script.resolve().relative_to(ROOT)
        src_dir = ROOT / rel.parent
        dest_dir = top / rel.parent
        shutil.copytree(src_dir, dest_dir)
        for folder, _, files in os.walk(top):  # readable whatever the umask
            os.chmod(folder, 0o755)
            for name in files:
                f = os.path.join(folder, name)
                os.chmod(f, 0o755 if os.stat(f).st_mode & stat.S_IXUSR else 0o644)
        assert _world_traversable(dest_dir), dest_dir
        yield [need("setpriv"), *NOBODY, "bash", str(top / rel), *args], str(top)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def verify(unit_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, SYSTEMD_LOG_COLOR="0", SYSTEMD_PAGER="")
    return subprocess.run([need("systemd-analyze"), "verify", str(unit_path)], env=env,
                          capture_output=True, text=True, timeout=60)


def directives(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) for every directive, in order."""
    out, section = [], None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.append((section, key.strip(), value.strip()))
    return out


def runnable_copy(tmp_path: Path) -> Path:
    """The unit with ExecStart pointed at an executable that exists here (this venv's gameclock),
    the one difference: /opt/gameclock is made by install.sh on the Pi."""
    assert VENV_GAMECLOCK.is_file(), VENV_GAMECLOCK
    text = UNIT.read_text()
    assert text.count(f"ExecStart={INSTALLED_EXEC} ") == 1
    copy = tmp_path / "gameclock.service"  # verify wants the unit's own name
    copy.write_text(text.replace(f"ExecStart={INSTALLED_EXEC} ", f"ExecStart={VENV_GAMECLOCK} "))
    return copy


def test_systemd_analyze_verify_prints_nothing(tmp_path):
    """`systemd-analyze verify` exits 0 on unknown keys and bad values (it only warns), so any
    output at all is a failure. It does not check that User=/SupplementaryGroups= exist (this
    machine has no gameclock user and it says nothing); it does check that ExecStart's binary
    exists, hence the copy whose only change is that path."""
    r = verify(runnable_copy(tmp_path))
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_verify_would_catch_a_bad_key(tmp_path):
    """The check above means something: the same command reports an unknown key (exit 0!)."""
    copy = runnable_copy(tmp_path)
    copy.write_text(copy.read_text().replace("Restart=always", "Restart=always\nRestartSecs=2s"))
    r = verify(copy)
    assert "RestartSecs" in r.stdout + r.stderr


@pytest.mark.skipif(Path(INSTALLED_EXEC).exists(), reason="gameclock is installed on this machine")
def test_the_unit_as_shipped_only_lacks_the_installed_binary():
    r = verify(UNIT)
    lines = [line for line in (r.stdout + r.stderr).splitlines() if line.strip()]
    assert lines and all(INSTALLED_EXEC in line and "not executable" in line for line in lines), lines


def test_the_unit_says_what_the_issue_asks():
    d = directives(UNIT.read_text())
    one = {}
    for section, key, value in d:
        one.setdefault((section, key), []).append(value)

    def get(key, section="Service"):
        values = one.get((section, key))
        assert values, f"[{section}] {key}= missing"
        return values

    assert get("Type") == ["notify"] and get("NotifyAccess") == ["main"]
    assert get("WatchdogSec") == ["10s"] and get("Restart") == ["always"] and get("RestartSec")
    assert get("User") == ["gameclock"] and get("Group") == ["gameclock"]
    assert set(" ".join(get("SupplementaryGroups")).split()) == {"gpio", "i2c", "spi", "dialout"}
    assert get("StateDirectory") == ["gameclock"] and get("RuntimeDirectory") == ["gameclock"]
    env = dict(v.split("=", 1) for v in get("Environment"))
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    # lgpio's FIFO dir, the working dir and the runtime dir are one and the same
    assert env["LG_WD"] == get("WorkingDirectory")[0] == "%t/" + get("RuntimeDirectory")[0]
    assert get("ExecStart") == [INSTALLED_EXEC + " run"]
    assert get("EnvironmentFile") == ["-/etc/default/gameclock"]  # optional: "-"
    for key, value in (("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
                       ("NoNewPrivileges", "yes")):
        assert get(key) == [value]
    # These would hide or close /dev/gpiochip*, /dev/i2c-*, /dev/spidev*:
    for key in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock"):
        assert ("Service", key) not in one, key
    assert get("WantedBy", "Install") == ["multi-user.target"]


def test_every_directive_has_its_comment():
    lines = UNIT.read_text().splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^[A-Za-z]+=", line):
            assert lines[i - 1].startswith("#"), f"line {i + 1} has no comment above it: {line}"


# ---------------------------------------------------------------------------------- the user
def test_sysusers_makes_the_user_and_joins_the_device_groups(tmp_path):
    """systemd-sysusers on a fake root that looks like a Pi (gpio and dialout exist, with pi in
    them); run twice, as install.sh is on every update: nothing changes the second time."""
    sysusers = need("systemd-sysusers")
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000::/home/pi:/bin/bash\n")
    (etc / "group").write_text("root:x:0:\ndialout:x:20:pi\ngpio:x:997:pi\npi:x:1000:\n")
    for name in ("shadow", "gshadow"):
        (etc / name).write_text("")
        (etc / name).chmod(0o600)

    def run():
        r = subprocess.run([sysusers, f"--root={tmp_path}", str(SYSUSERS)], capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        return (etc / "passwd").read_text(), (etc / "group").read_text()

    passwd, group = run()
    user = next(line for line in passwd.splitlines() if line.startswith("gameclock:")).split(":")
    assert user[5:] == ["/var/lib/gameclock", "/usr/sbin/nologin"]
    assert int(user[2]) < 1000  # a system user
    members = {g.split(":")[0]: set(g.split(":")[3].split(",")) for g in group.splitlines()}
    assert members["gpio"] == members["dialout"] == {"pi", "gameclock"}  # pi stays a member
    assert "gameclock" in members["i2c"] and "gameclock" in members["spi"]  # made when missing
    assert "gameclock" in members
    assert run() == (passwd, group)


# ------------------------------------------------------------------------------ install.sh
def dry_run(*args: str, apt: tuple[str, ...] = PI_OS) -> str:
    """install.sh's dry run on a machine whose apt has `apt` (tests/aptfake.py; default: Raspberry Pi OS's)."""
    with tempfile.TemporaryDirectory() as fake:
        r = subprocess.run(["bash", str(INSTALL), "--dry-run", *args], capture_output=True, text=True,
                           timeout=60, env=fake_apt(Path(fake), apt))
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_install_dry_run_on_a_pi_zero(tmp_path):
    prefix = tmp_path / "opt-gameclock"
    out = dry_run("--arch", "armv6l", "--prefix", str(prefix))
    assert "(dry run: nothing is changed)" in out
    assert "python3-lgpio python3-spidev" in out  # Raspberry Pi OS's packages (systemd/gpio-plan.sh) ...
    assert f"/usr/bin/python3 -m venv --system-site-packages {prefix}/.venv" in out  # ... seen by the venv
    # the prefix is made and marked; the venv is recorded in the marker before it is made
    assert f"mkdir -p {prefix}\n" in out
    assert out.index(f"echo 'dir .' >> {prefix}/{MARKER}") < out.index(f"echo 'tree .venv' >> {prefix}/{MARKER}") \
        < out.index("-m venv")
    # the wheel of the checkout, built from a copy by the venv's pip, installed without the [pi] extra
    assert f"tar -C {ROOT} --exclude=.git --exclude=.venv" in out
    build = re.search(r"\$ mktemp -d (\S+)\n", out).group(1)
    assert f"{prefix}/.venv/bin/python -m pip wheel --quiet --disable-pip-version-check --no-deps -w {build}/dist {build}/src" in out
    assert f"pip install --quiet --disable-pip-version-check {build}/dist/{WHEEL}\n" in out
    assert f"pip install --quiet --disable-pip-version-check --force-reinstall --no-deps {build}/dist/{WHEEL}\n" in out
    assert " -e " not in out  # no editable checkout
    # issue 27: then every module of the venv compiled (the service cannot write bytecode)
    assert out.index(f"--force-reinstall --no-deps {build}/dist/{WHEEL}\n") \
        < out.index(f"{prefix}/.venv/bin/python -m compileall -q -j 0 {prefix}/.venv/lib\n")
    # what the units name: the gadget's script and the README, recorded and installed under the prefix
    assert f"echo 'file systemd/usb-gadget.sh' >> {prefix}/{MARKER}" in out
    assert f"install -D -m 0755 {GADGET_SH} {prefix}/systemd/usb-gadget.sh" in out
    assert f"install -D -m 0644 {ROOT}/systemd/README.md {prefix}/systemd/README.md" in out
    assert "==> site folder: /etc/gameclock" in out and "==> environment: /etc/default/gameclock" in out
    assert "systemd-sysusers /etc/sysusers.d/gameclock.conf" in out
    assert f"sed s|/opt/gameclock|{prefix}|g" in out  # the unit's paths follow --prefix
    # the USB gadget's unit too (its ExecStart is the script installed under the prefix)
    assert (f"sed s|/opt/gameclock|{prefix}|g {GADGET_UNIT} > /etc/systemd/system/gameclock-gadget.service"
            in out)
    for step in ("systemctl daemon-reload", "systemctl enable gameclock.service",
                 "systemctl enable gameclock-gadget.service", "systemctl start gameclock-gadget.service",
                 "systemctl restart gameclock.service", "journalctl -u gameclock -f"):
        assert step in out
    # /dev/ttyGS0 is there before the clock (re)starts; a bound gadget is not re-bound (no restart)
    assert out.index("start gameclock-gadget.service") < out.index("restart gameclock.service")
    assert "restart gameclock-gadget" not in out
    assert not prefix.exists()  # a dry run changes nothing


def test_install_dry_run_elsewhere_uses_the_lgpio_and_spidev_wheels_of_the_pi_extra():
    out = dry_run("--arch", "aarch64", apt=())  # no python3-lgpio: PyPI's wheel (Python 3.11 here)
    assert "Debian packages: gcc python3-dev" in out and "--system-site-packages" not in out
    assert "spidev: built by pip" in out  # spidev is built from its source (gcc, python3-dev)
    assert f"/dist/{WHEEL}[pi]\n" in out and "/opt/gameclock/.venv/bin/python -m pip install" in out
    assert f"install -m 0644 {UNIT} /etc/systemd/system/gameclock.service" in out
    assert f"install -m 0644 {GADGET_UNIT} /etc/systemd/system/gameclock-gadget.service" in out
    assert f"install -D -m 0755 {GADGET_SH} /opt/gameclock/systemd/usb-gadget.sh" in out


def test_the_installers_version_is_the_packages():
    """install.sh reads the wheel's name from __init__.py with sed: the same version as the import."""
    assert f"==> wheel: gameclock {gameclock.__version__} built from {ROOT}" in dry_run("--prefix", "/x/y")


def test_install_refuses_a_non_empty_prefix_it_did_not_make(tmp_path):
    prefix = tmp_path / "theirs"
    prefix.mkdir()
    (prefix / "notes.txt").write_text("not the installer's\n")
    r = subprocess.run(["bash", str(INSTALL), "--dry-run", "--prefix", str(prefix)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1
    assert f"install.sh: {prefix} is not empty and was not made by this installer (no {prefix}/{MARKER})" in r.stderr
    assert "-m venv" not in r.stdout  # it stopped before the venv
    assert sorted(p.name for p in prefix.iterdir()) == ["notes.txt"]
    # gameclock 0.1's copy of the checkout: the same refusal, with the way out
    (prefix / ".venv").mkdir()
    (prefix / "pyproject.toml").write_text("")
    (prefix / "firmware" / "gameclock").mkdir(parents=True)
    r = subprocess.run(["bash", str(INSTALL), "--dry-run", "--prefix", str(prefix)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1 and "gameclock 0.1's copy of the checkout" in r.stderr
    assert f"sudo mv {prefix} {prefix}.old" in r.stderr
    (prefix / "plain-file").write_text("")
    r = subprocess.run(["bash", str(INSTALL), "--dry-run", "--prefix", str(prefix / "plain-file")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "is not a directory" in r.stderr


def test_install_takes_an_empty_prefix_and_updates_its_own(tmp_path):
    prefix = tmp_path / "empty"
    prefix.mkdir()
    out = dry_run("--prefix", str(prefix))
    assert "echo 'dir .'" not in out  # it did not make the folder: an uninstall leaves it
    assert f"echo 'tree .venv' >> {prefix}/{MARKER}" in out
    (prefix / MARKER).write_text("# made by the installer\ntree .venv\n")
    (prefix / ".venv").mkdir()
    out = dry_run("--prefix", str(prefix))
    assert "made by an earlier install: updated" in out
    assert "echo 'tree .venv'" not in out and f"echo 'file systemd/README.md' >> {prefix}/{MARKER}" in out


def test_uninstall_dry_run_removes_only_what_the_marker_lists(tmp_path):
    prefix = tmp_path / "opt"
    (prefix / "systemd").mkdir(parents=True)
    (prefix / MARKER).write_text("# header\ndir .\ntree .venv\ndir systemd\nfile systemd/usb-gadget.sh\n")
    (prefix / "systemd" / "mine.txt").write_text("")
    out = dry_run("--uninstall", "--prefix", str(prefix))
    assert "systemctl disable --now gameclock.service gameclock-gadget.service" in out
    assert "rm -f /etc/systemd/system/gameclock.service" in out
    removed = re.findall(r"^    \$ (rm -f|rm -rf|rmdir --ignore-fail-on-non-empty) -- (\S+)$", out, re.M)
    assert removed == [("rm -f", f"{prefix}/systemd/usb-gadget.sh"),  # deepest first
                       ("rmdir --ignore-fail-on-non-empty", f"{prefix}/systemd"),
                       ("rm -rf", f"{prefix}/.venv"), ("rm -f", f"{prefix}/{MARKER}"),
                       ("rmdir --ignore-fail-on-non-empty", str(prefix))]
    assert "/etc/gameclock" not in out.split("Kept:")[0]  # the organiser's files stay
    assert (prefix / "systemd" / "mine.txt").exists()


# ------------------------------------------------------- install-lib.sh's functions, run for real
def lib(script: str, prefix: Path, site: Path | None = None, dry: bool = False) -> subprocess.CompletedProcess:
    """`script` run by bash after sourcing install-lib.sh, PREFIX and SITE_DIR pointing at temp folders."""
    setup = (f"set -euo pipefail\nNAME=test.sh SRC={ROOT} PREFIX={prefix} PYTHON=python3 DRY={'yes' if dry else ''}\n"
             f". {INSTALL_LIB}\n" + (f"SITE_DIR={site}\n" if site else ""))
    return subprocess.run(["bash", "-c", setup + script], capture_output=True, text=True, timeout=60)


def test_the_marker_lists_what_was_made_and_uninstall_removes_only_that(tmp_path):
    prefix = tmp_path / "a" / "prefix"
    make = "claim_prefix\ninstall_file 0755 systemd/usb-gadget.sh\ninstall_file 0644 systemd/README.md\n"
    r = lib(make, prefix)
    assert r.returncode == 0, r.stderr
    entries = [line for line in (prefix / MARKER).read_text().splitlines() if not line.startswith("#")]
    assert entries == ["dir .", "dir systemd", "file systemd/usb-gadget.sh", "file systemd/README.md"]
    assert os.access(prefix / "systemd" / "usb-gadget.sh", os.X_OK)
    assert lib(make, prefix).returncode == 0  # again: an update
    assert [line for line in (prefix / MARKER).read_text().splitlines() if not line.startswith("#")] == entries
    (prefix / "systemd" / "mine.txt").write_text("someone else's")
    r = lib("uninstall_prefix\n", prefix)
    assert r.returncode == 0, r.stderr
    left = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert left == ["a", "a/prefix", "a/prefix/systemd", "a/prefix/systemd/mine.txt"]
    r = lib("claim_prefix\n", prefix)  # no marker any more, and not empty: refused
    assert r.returncode == 1 and "was not made by this installer" in r.stderr


def test_uninstall_refuses_a_marker_pointing_outside_the_prefix(tmp_path):
    prefix = tmp_path / "p"
    prefix.mkdir()
    (tmp_path / "precious").write_text("")
    for line in ("file ../precious", "tree /etc", "file a/../../precious", "wipe everything"):
        (prefix / MARKER).write_text(f"{line}\n")
        r = lib("uninstall_prefix\n", prefix)
        assert r.returncode == 1 and f"{prefix}/{MARKER}: " in r.stderr, line
        assert (tmp_path / "precious").exists() and (prefix / MARKER).exists()


def test_the_site_folder_is_made_once_and_never_overwritten(tmp_path):
    site = tmp_path / "etc-gameclock"
    examples = "install_site hw/wiring.toml hw/examples/lever-sh1106.toml\n"
    r = lib(examples, tmp_path / "prefix", site)
    assert r.returncode == 0, r.stderr
    assert sorted(str(p.relative_to(site)) for p in site.rglob("*")) == [
        "README.md", "examples", "examples/lever-sh1106.toml", "examples/wiring.toml", "rules"]
    assert (site / "examples" / "wiring.toml").read_bytes() == (ROOT / "hw" / "wiring.toml").read_bytes()
    # the organiser's changes, then an update
    (site / "README.md").write_text("ours\n")
    (site / "rules" / "club.toml").write_text("[preset]\n")
    (site / "wiring.toml").write_text("# ours\n")
    (site / "examples" / "wiring.toml").write_text("# ours too\n")
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    r = lib(examples, tmp_path / "prefix", site)
    assert r.returncode == 0, r.stderr
    assert "already there, left as they are" in r.stdout and "$ install" not in r.stdout
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before


def test_the_defaults_file_sets_nothing_and_names_real_variables():
    """/etc/default/gameclock as installed changes nothing (every line a comment) and its examples
    name the variables the code reads."""
    lines = DEFAULTS.read_text().splitlines()
    assert all(not line.strip() or line.startswith("#") for line in lines)
    named = set(re.findall(r"^#(GAMECLOCK_[A-Z_]+)=", "\n".join(lines), re.M))
    assert named == {ENV_WIRING, ENV_RULES_DIR, sitedir.ENV_SITE_DIR}


def test_install_refuses_without_root():
    with as_nobody(INSTALL) as (cmd, cwd):  # as root: become nobody for this one command
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=cwd)
    assert r.returncode == 1
    assert "must be run as root" in r.stderr and "sudo make install" in r.stderr
    assert r.stdout == ""  # nothing was done


def test_install_rejects_unknown_options():
    r = subprocess.run(["bash", str(INSTALL), "--dry-run", "--prefx", "/x"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "unknown option '--prefx'" in r.stderr


def test_make_install_runs_the_script():
    r = subprocess.run(["make", "-n", "-C", str(ROOT), "install"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert "systemd/install.sh" in r.stdout and ".venv" not in r.stdout  # no dev venv as root


def test_install_script_is_shellcheck_clean():
    # `make test` installs shellcheck (Makefile SYSTOOLS); without it this fails rather than skips.
    assert shutil.which("shellcheck"), "shellcheck is missing: sudo apt-get install shellcheck"
    # -x: also check systemd/install-lib.sh, which install.sh sources
    r = subprocess.run(["shellcheck", "-x", str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout
