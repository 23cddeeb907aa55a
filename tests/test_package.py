"""gameclock as a real package (issue 12): the wheel holds the product and nothing else, and a wheel
installed in a fresh venv works from any folder, with the presets and the wiring read as package data.

The wheel is built from a copy of the checkout (what install.sh does too; setuptools' build/ folder in the
checkout could carry stale files into it) offline: `pip wheel --no-deps --no-build-isolation --no-index`
with the dev venv's own setuptools. The fresh venv is made without pip and gets the wheel through the dev
venv's pip (`pip --python VENV/bin/python install --no-deps --no-index WHEEL`); its dependencies (gpiozero,
luma, pillow, pyserial) come from the dev venv's site-packages through a .pth file, so nothing is
downloaded and the gameclock it runs is the installed wheel's (checked), not the checkout's."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import gameclock

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "firmware" / "gameclock"
RULE_IDS = sorted(p.stem for p in (ROOT / "rules").glob("*.toml"))
# What a checkout holds besides its files: never copied into the build.
NOT_SOURCES = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__",
                                     ".pytest_cache", ".hypothesis", "sim-frames", "out")


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kwargs)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    top = tmp_path_factory.mktemp("wheel")
    src = top / "src"
    shutil.copytree(ROOT, src, symlinks=True, ignore=NOT_SOURCES)  # the links presets/ and hw/ stay links
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--no-build-isolation", "--no-index", "-w", str(top / "dist"), str(src)])
    wheels = sorted((top / "dist").glob("*.whl"))
    assert [w.name for w in wheels] == [f"gameclock-{gameclock.__version__}-py3-none-any.whl"]
    return wheels[0]


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; the dependencies seen from the dev venv."""
    v = tmp_path_factory.mktemp("venv") / "v"
    run([sys.executable, "-m", "venv", "--without-pip", str(v)])
    run([sys.executable, "-m", "pip", "--python", str(v / "bin" / "python"), "install", "--quiet",
         "--disable-pip-version-check", "--no-deps", "--no-index", str(wheel)])
    purelib = Path(run([str(v / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                       env=clean_env()).stdout.strip())
    (purelib / "zz-dev-venv-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return v


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without what would point gameclock at the checkout's files or another wiring."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "GAMECLOCK_RULES_DIR", "GAMECLOCK_WIRING", "VIRTUAL_ENV")}
    return {**env, **extra}  # GAMECLOCK_SITE_DIR stays: the suite's empty site folder (tests/conftest.py)


def gameclock_cmd(venv: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    """`VENV/bin/gameclock ARGS` from / (nothing of the checkout in the working folder)."""
    kwargs.setdefault("env", clean_env())
    return subprocess.run([str(venv / "bin" / "gameclock"), *args], capture_output=True, text=True,
                          timeout=120, cwd="/", **kwargs)


# ------------------------------------------------------------------------------------------- the wheel
def test_the_wheel_holds_the_product_and_nothing_else(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    dist_info = f"gameclock-{gameclock.__version__}.dist-info/"
    assert {n.split("/")[0] + "/" for n in names} == {"gameclock/", dist_info}  # no tests/, bench/, docs/
    assert not [n for n in names if re.search(r"(^|/)(tests?|bench|__pycache__)/", n)]
    # every module of the package, whatever subpackages it grows
    modules = {"gameclock/" + p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
               if "__pycache__" not in p.parts and p.parts[len(PACKAGE.parts)] not in ("presets", "hw")}
    assert modules <= set(names), sorted(modules - set(names))
    data = sorted(n for n in names if n.startswith("gameclock/") and not n.endswith(".py"))
    fonts = ["gameclock/fonts/Loma.ttf", "gameclock/fonts/Loma-Bold.ttf", "gameclock/fonts/LICENSE-Loma.txt"]
    desk = PACKAGE / "organiser" / "desk"
    desk_files = [f"gameclock/organiser/desk/{p.relative_to(desk).as_posix()}"
                  for sub in ("templates", "static") for p in (desk / sub).iterdir()]
    assert len(desk_files) > 10 and any(n.endswith("desk.js") for n in desk_files)
    assert data == sorted(["gameclock/py.typed", "gameclock/record.schema.json", "gameclock/hw/wiring.toml",
                           *(f"gameclock/presets/{i}.toml" for i in RULE_IDS), *fonts, *desk_files])
    assert dist_info + "licenses/LICENSE" in names


def test_the_wheel_has_the_files_as_they_are_in_the_repository(wheel: Path):
    z = zipfile.ZipFile(wheel)
    assert z.read("gameclock/hw/wiring.toml") == (ROOT / "hw" / "wiring.toml").read_bytes()
    for i in RULE_IDS:
        assert z.read(f"gameclock/presets/{i}.toml") == (ROOT / "rules" / f"{i}.toml").read_bytes(), i


def test_the_metadata_version_and_extras(wheel: Path):
    meta = zipfile.ZipFile(wheel).read(f"gameclock-{gameclock.__version__}.dist-info/METADATA").decode()
    assert re.search(r"^Version: (\S+)$", meta, re.M).group(1) == gameclock.__version__ == "0.2.0"
    assert "License-Expression: MIT" in meta
    requires = re.findall(r"^Requires-Dist: (.*)$", meta, re.M)
    pi = [r for r in requires if 'extra == "pi"' in r]
    assert any(r.startswith("lgpio") for r in pi) and any(r.startswith("spidev") for r in pi), pi


# ------------------------------------------------------------------------------- installed and run
def test_installed_gameclock_is_the_wheels(venv: Path):
    r = subprocess.run([str(venv / "bin" / "python"), "-c",
                        "import gameclock, gameclock.rules.loader as l, gameclock.device.wiring as w; "
                        "print(gameclock.__file__); print(l.RULES_DIR); print(w.DEFAULT_WIRING)"],
                       capture_output=True, text=True, timeout=60, cwd="/", env=clean_env())
    assert r.returncode == 0, r.stderr
    where = [Path(line) for line in r.stdout.split()]
    assert all(p.is_relative_to(venv) for p in where), where  # not the checkout
    assert where[1].name == "presets" and where[2].name == "wiring.toml"
    assert gameclock_cmd(venv, "--version").stdout.strip() == f"gameclock {gameclock.__version__}"


def test_installed_presets_lists_every_shipped_preset(venv: Path):
    r = gameclock_cmd(venv, "presets")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    ids = [line.split()[0] for line in r.stdout.splitlines()[1:]]
    assert ids == RULE_IDS
    listed = json.loads(gameclock_cmd(venv, "presets", "--json").stdout)
    assert all(Path(p["path"]).is_relative_to(venv) for p in listed)  # read from the installed package


def test_installed_sim_writes_png_frames_and_quits_at_the_end_of_its_input(venv: Path, tmp_path: Path):
    frames = tmp_path / "frames"
    # keys from stdin as if typed: knob one detent, push (start the preset at ready); then the input ends
    r = gameclock_cmd(venv, "sim", "--display", "png", str(frames), input="k\n")
    assert r.returncode == 0, r.stderr
    pngs = sorted(frames.glob("*.png"))
    assert len(pngs) >= 2 and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs), pngs
    assert "frames in" in r.stdout


def test_installed_site_files_add_replace_and_a_broken_one_is_skipped(venv: Path, tmp_path: Path):
    site = tmp_path / "etc-gameclock"
    (site / "rules").mkdir(parents=True)
    makruk = (ROOT / "rules" / "makruk-45.toml").read_text(encoding="utf-8")
    (site / "rules" / "makruk-45.toml").write_text(makruk.replace('name = "Makruk 45:00"', 'name = "Our Makruk"'),
                                                   encoding="utf-8")
    (site / "rules" / "club-45.toml").write_text(makruk.replace('id = "makruk-45"', 'id = "club-45"'),
                                                 encoding="utf-8")
    (site / "rules" / "broken.toml").write_text(makruk.replace('id = "makruk-45"', 'id = "broken"')
                                                .replace('event = "makruk"', 'event = "makrook"'), encoding="utf-8")
    r = gameclock_cmd(venv, "presets", "--json", env=clean_env(GAMECLOCK_SITE_DIR=str(site)))
    assert r.returncode == 0
    assert r.stderr.splitlines() == [f"gameclock presets: skipped {site}/rules/broken.toml: preset.event: "
                                     "unknown event 'makrook' (one of crossword, amath, khamkom, makruk, makhos, "
                                     "sudoku, custom) (did you mean 'makruk'?)"]
    listed = {p["id"]: p for p in json.loads(r.stdout)}
    assert sorted(listed) == sorted([*RULE_IDS, "club-45"])
    assert listed["makruk-45"]["name"] == "Our Makruk" and listed["makruk-45"]["path"] == str(site / "rules" / "makruk-45.toml")
