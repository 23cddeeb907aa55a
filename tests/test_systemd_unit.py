"""systemd/: the unit passes `systemd-analyze verify` with no output at all, says what issue 3 asks
(and every directive has its comment), the sysusers.d file makes the user, and install.sh (what
`sudo make install` runs) does its steps: checked as a dry run, its refusal without root, and
shellcheck when it is there."""
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

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "gameclock.service"
GADGET_UNIT = ROOT / "systemd" / "gameclock-gadget.service"
SYSUSERS = ROOT / "systemd" / "sysusers.d" / "gameclock.conf"
INSTALL = ROOT / "systemd" / "install.sh"
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
def dry_run(*args: str) -> str:
    r = subprocess.run(["bash", str(INSTALL), "--dry-run", *args], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_install_dry_run_on_a_pi_zero(tmp_path):
    prefix = tmp_path / "opt-gameclock"
    out = dry_run("--arch", "armv6l", "--prefix", str(prefix))
    assert "(dry run: nothing is changed)" in out
    assert "python3-lgpio" in out  # no lgpio wheel for armv6l: Raspberry Pi OS's package ...
    assert f"/usr/bin/python3 -m venv --system-site-packages {prefix}/.venv" in out  # ... seen by the venv
    assert f"pip install --quiet --disable-pip-version-check -e {prefix}\n" in out
    assert f"-m compileall -q {prefix}/firmware" in out  # the service cannot write __pycache__
    assert "systemd-sysusers /etc/sysusers.d/gameclock.conf" in out
    assert f"sed s|/opt/gameclock|{prefix}|g" in out  # the unit's paths follow --prefix
    # the USB gadget's unit too (its ExecStart is the script in the copied checkout)
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


def test_install_dry_run_elsewhere_uses_the_lgpio_wheel():
    out = dry_run("--arch", "aarch64")
    assert "python3-lgpio" not in out and "--system-site-packages" not in out
    assert "-e /opt/gameclock[pi]" in out
    assert f"install -m 0644 {UNIT} /etc/systemd/system/gameclock.service" in out
    assert f"install -m 0644 {GADGET_UNIT} /etc/systemd/system/gameclock-gadget.service" in out


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
