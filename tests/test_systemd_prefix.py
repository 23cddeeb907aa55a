"""--prefix never deletes what the installers did not put there (issue 13 hole 8). Beyond issue 12's marker
(a non-empty folder without it is refused): on an update, a path the installer would make that is there
but not in the marker is someone else's and is refused, not taken over (an uninstall would then have
removed it); a symbolic link on the way to anything the installer makes or removes is refused (install -D
and rm follow it out of the prefix). Checked with both scripts' dry runs and with install-lib.sh's
functions run for real on temporary folders (they need no root), as tests/test_systemd_unit.py does."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "systemd" / "install.sh"
INSTALL_PC = ROOT / "systemd" / "install-pc.sh"
INSTALL_LIB = ROOT / "systemd" / "install-lib.sh"
MARKER = ".gameclock-install"
HEADER = "# Made by gameclock's installer (test)\n"


def dry_run(script: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(script), "--dry-run", *args], capture_output=True, text=True, timeout=60)


def lib(script: str, prefix: Path, dry: bool = False) -> subprocess.CompletedProcess:
    """`script` run by bash after sourcing install-lib.sh with PREFIX a temporary folder."""
    setup = (f"set -euo pipefail\nNAME=test.sh SRC={ROOT} PREFIX={prefix} PYTHON=python3 DRY={'yes' if dry else ''}\n"
             f". {INSTALL_LIB}\n")
    return subprocess.run(["bash", "-c", setup + script], capture_output=True, text=True, timeout=60)


def tree(folder: Path) -> dict[str, str]:
    """Every file below `folder` and its text (links shown as -> target), to compare before and after."""
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        out[rel] = f"-> {p.readlink()}" if p.is_symlink() else (p.read_text() if p.is_file() else "/")
    return out


@pytest.mark.parametrize("script", [INSTALL, INSTALL_PC])
def test_an_update_refuses_a_venv_the_installer_did_not_make(tmp_path, script):
    # issue 13 hole 8: the marker (an earlier install) lists only systemd/README.md; the .venv in the folder
    # is the organiser's own. Before, the update recorded `tree .venv` and an uninstall ran rm -rf on it.
    prefix = tmp_path / "opt"
    (prefix / ".venv" / "bin").mkdir(parents=True)
    (prefix / ".venv" / "bin" / "mine").write_text("the organiser's\n")
    (prefix / "systemd").mkdir()
    (prefix / "systemd" / "README.md").write_text("installed\n")
    (prefix / MARKER).write_text(HEADER + "dir systemd\nfile systemd/README.md\n")
    before = tree(prefix)
    r = dry_run(script, "--prefix", str(prefix))
    assert r.returncode == 1
    assert r.stderr.startswith(f"{script.name}: {prefix}/.venv is there but not listed in {prefix}/{MARKER}: it was "
                               "not made by this installer, so it is not replaced\n")
    assert "-m venv" not in r.stdout and "echo 'tree .venv'" not in r.stdout
    assert tree(prefix) == before


def test_an_update_refuses_a_file_the_installer_did_not_make_for_real(tmp_path):
    # issue 13 hole 8, run for real: systemd/README.md is someone's own file (not in the marker): refused,
    # kept as it was; the marker gains nothing, so an uninstall leaves it too
    prefix = tmp_path / "opt"
    (prefix / "systemd").mkdir(parents=True)
    (prefix / "systemd" / "README.md").write_text("my notes\n")
    (prefix / MARKER).write_text(HEADER + "dir systemd\nfile systemd/usb-gadget.sh\n")
    r = lib("claim_prefix\ninstall_file 0755 systemd/usb-gadget.sh\ninstall_file 0644 systemd/README.md\n", prefix)
    assert r.returncode == 1
    assert f"test.sh: {prefix}/systemd/README.md is there but not listed in {prefix}/{MARKER}" in r.stderr
    assert (prefix / "systemd" / "README.md").read_text() == "my notes\n"
    assert (prefix / MARKER).read_text() == HEADER + "dir systemd\nfile systemd/usb-gadget.sh\n"
    assert (prefix / "systemd" / "usb-gadget.sh").is_file()  # its own file was updated before the refusal
    r = lib("uninstall_prefix\n", prefix)
    assert r.returncode == 0, r.stderr
    assert tree(prefix) == {"systemd": "/", "systemd/README.md": "my notes\n"}


def test_a_reinstall_replaces_only_what_it_owns(tmp_path):
    # issue 13 hole 8: install, add a file of one's own next to the installer's, install again, uninstall:
    # the installer's files are replaced then removed; the other file and its folder stay
    prefix = tmp_path / "opt"
    make = "claim_prefix\ninstall_file 0755 systemd/usb-gadget.sh\ninstall_file 0644 systemd/README.md\n"
    assert lib(make, prefix).returncode == 0
    (prefix / "systemd" / "README.md").write_text("edited, to be replaced\n")
    (prefix / "systemd" / "site-notes.txt").write_text("kept\n")
    (prefix / "backup").mkdir()
    (prefix / "backup" / "results.db").write_text("kept\n")
    r = lib(make, prefix)
    assert r.returncode == 0, r.stderr
    assert (prefix / "systemd" / "README.md").read_text() == (ROOT / "systemd" / "README.md").read_text()
    assert lib("uninstall_prefix\n", prefix).returncode == 0
    assert tree(tmp_path) == {"opt": "/", "opt/backup": "/", "opt/backup/results.db": "kept\n",
                              "opt/systemd": "/", "opt/systemd/site-notes.txt": "kept\n"}


def test_a_link_inside_the_prefix_is_never_followed(tmp_path):
    # issue 13 hole 8: PREFIX/systemd -> a folder outside; install -D would write there and the uninstall's
    # rm -f PREFIX/systemd/README.md would delete the outside file. Both are refused; the outside is untouched.
    outside = tmp_path / "etc"
    outside.mkdir()
    (outside / "README.md").write_text("not the installer's\n")
    prefix = tmp_path / "opt"
    prefix.mkdir()
    (prefix / "systemd").symlink_to(outside)
    (prefix / MARKER).write_text(HEADER + "dir systemd\nfile systemd/README.md\n")
    r = lib("claim_prefix\ninstall_file 0644 systemd/README.md\n", prefix)
    assert r.returncode == 1
    assert f"test.sh: {prefix}/systemd is a symbolic link: the installer makes and removes only what is inside " \
           f"{prefix} itself" in r.stderr
    r = lib("uninstall_prefix\n", prefix)
    assert r.returncode == 1 and f"{prefix}/systemd is a symbolic link" in r.stderr
    assert tree(outside) == {"README.md": "not the installer's\n"}
    assert (prefix / MARKER).exists()  # nothing was removed, not even the marker


@pytest.mark.parametrize("script", [INSTALL, INSTALL_PC])
def test_a_prefix_that_is_a_link_is_refused(tmp_path, script):
    # issue 13 hole 8: --prefix naming a link to someone's folder; the real folder must be given
    target = tmp_path / "home"
    target.mkdir()
    (tmp_path / "link").symlink_to(target)
    r = dry_run(script, "--prefix", str(tmp_path / "link"))
    assert r.returncode == 1
    assert r.stderr == (f"{script.name}: {tmp_path}/link is a symbolic link: give the folder it points to with "
                        f"--prefix ({target})\n")


@pytest.mark.parametrize("script", [INSTALL, INSTALL_PC])
def test_a_non_empty_folder_without_the_marker_is_left_as_it_was(tmp_path, script):
    # issue 13 hole 8 as reported: --prefix on a folder with someone's files; refused, nothing touched,
    # and the uninstall removes nothing there either
    prefix = tmp_path / "mine"
    (prefix / "docs").mkdir(parents=True)
    (prefix / "docs" / "a.txt").write_text("a\n")
    (prefix / ".venv").mkdir()
    before = tree(prefix)
    r = dry_run(script, "--prefix", str(prefix))
    assert r.returncode == 1 and "is not empty and was not made by this installer" in r.stderr
    r = dry_run(script, "--uninstall", "--prefix", str(prefix))
    assert r.returncode == 0 and "nothing removed" in r.stdout and f"-- {prefix}/" not in r.stdout
    assert tree(prefix) == before
