"""Which wiring file (issue 12): --wiring, else $GAMECLOCK_WIRING, else the site folder's wiring.toml
(/etc/gameclock/wiring.toml; here a folder of the test's own through $GAMECLOCK_SITE_DIR), else the
shipped default, package data gameclock/hw/wiring.toml (in a checkout: the repository's hw/wiring.toml).
A broken site wiring stops the clock like any other wiring file: a clock must not run on pins it was
not wired to."""
from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from gameclock import sitedir
from gameclock.device.wiring import DEFAULT_WIRING, ENV_WIRING, WiringError, load_wiring, wiring_path

ROOT = Path(__file__).resolve().parents[2]
LEVER = ROOT / "hw" / "examples" / "lever-sh1106.toml"


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "etc-gameclock"
    folder.mkdir()
    monkeypatch.setenv(sitedir.ENV_SITE_DIR, str(folder))
    monkeypatch.delenv(ENV_WIRING, raising=False)
    return folder


def test_the_default_is_the_shipped_package_data(site):
    shipped = resources.files("gameclock") / "hw" / "wiring.toml"
    assert DEFAULT_WIRING == Path(str(shipped)).resolve() == ROOT / "hw" / "wiring.toml"
    assert wiring_path() == DEFAULT_WIRING  # no site wiring.toml


def test_the_site_wiring_replaces_the_default_and_env_and_option_still_win(site, tmp_path, monkeypatch):
    mine = site / "wiring.toml"
    mine.write_text(LEVER.read_text(encoding="utf-8"), encoding="utf-8")
    assert wiring_path() == mine and load_wiring().lever
    other = tmp_path / "other.toml"
    other.write_text(DEFAULT_WIRING.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setenv(ENV_WIRING, str(other))
    assert wiring_path() == other and not load_wiring().lever  # $GAMECLOCK_WIRING beats the site file
    monkeypatch.delenv(ENV_WIRING)
    assert wiring_path(DEFAULT_WIRING) == DEFAULT_WIRING and not load_wiring(DEFAULT_WIRING).lever  # --wiring


def test_a_broken_site_wiring_is_an_error_naming_it(site):
    (site / "wiring.toml").write_text(DEFAULT_WIRING.read_text(encoding="utf-8").replace("left = 17", "left = 2"),
                                      encoding="utf-8")
    with pytest.raises(WiringError) as e:
        load_wiring()
    assert e.value.file == str(site / "wiring.toml") and e.value.key == "players.left"


def test_a_site_folder_without_wiring_toml_is_the_default(site):
    (site / "rules").mkdir()
    assert wiring_path() == DEFAULT_WIRING
