"""Where presets come from (issue 12): the shipped ones (package data, importlib.resources), or
$GAMECLOCK_RULES_DIR's instead, then the site folder's rules/*.toml (/etc/gameclock/rules; here a
folder of the test's own through $GAMECLOCK_SITE_DIR), each adding a preset or replacing the one of its id.
A broken site file is reported (a logged warning, and one stderr line from `gameclock presets` naming
the file and the key) and skipped; a broken shipped file is an error."""
from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gameclock import sitedir
from gameclock.rules import loader
from gameclock.rules.loader import RULES_DIR, RuleError, find_preset, load_presets, shipped_rules

REPO_RULES = Path(__file__).resolve().parents[2] / "rules"
SHIPPED = sorted(p.stem for p in REPO_RULES.glob("*.toml"))
BROKEN_LINE = "preset.event: unknown event 'makrook'"


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty site folder (its rules/ made) that the loader reads, as /etc/gameclock on a clock."""
    folder = tmp_path / "etc-gameclock"
    (folder / "rules").mkdir(parents=True)
    monkeypatch.setenv(sitedir.ENV_SITE_DIR, str(folder))
    monkeypatch.delenv(loader.ENV_RULES_DIR, raising=False)
    return folder


def shipped_text(preset_id: str) -> str:
    return (REPO_RULES / f"{preset_id}.toml").read_text(encoding="utf-8")


def write_site(site: Path, preset_id: str, text: str) -> Path:
    path = site / "rules" / f"{preset_id}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def broken(site: Path, preset_id: str = "broken") -> Path:
    text = shipped_text("makruk-45").replace('id = "makruk-45"', f'id = "{preset_id}"')
    return write_site(site, preset_id, text.replace('event = "makruk"', 'event = "makrook"'))


def test_the_site_folder_is_etc_gameclock_unless_the_environment_names_another(monkeypatch):
    monkeypatch.delenv(sitedir.ENV_SITE_DIR, raising=False)
    assert sitedir.SITE_DIR == Path("/etc/gameclock") and sitedir.site_dir() == sitedir.SITE_DIR
    assert loader.site_rules_dir() == Path("/etc/gameclock/rules")
    monkeypatch.setattr(sitedir, "SITE_DIR", Path("/elsewhere"))  # the constant is read at call time
    assert loader.site_rules_dir() == Path("/elsewhere/rules")
    monkeypatch.setenv(sitedir.ENV_SITE_DIR, "/srv/clock")
    assert loader.site_rules_dir() == Path("/srv/clock/rules")


def test_the_shipped_presets_are_package_data(site):
    folder = shipped_rules()
    assert sorted(t.name.removesuffix(".toml") for t in folder.iterdir() if t.name.endswith(".toml")) == SHIPPED
    assert RULES_DIR == Path(str(folder)) and RULES_DIR.resolve() == REPO_RULES.resolve()
    assert [p.id for p in load_presets()] == SHIPPED  # an empty site folder adds nothing


def test_site_files_add_presets_and_replace_the_shipped_one_of_their_id(site):
    write_site(site, "makruk-45", shipped_text("makruk-45").replace('name = "Makruk 45:00"', 'name = "Our Makruk"'))
    write_site(site, "club-45", shipped_text("makruk-45").replace('id = "makruk-45"', 'id = "club-45"'))
    presets = {p.id: p for p in load_presets()}
    assert sorted(presets) == sorted([*SHIPPED, "club-45"])
    assert presets["makruk-45"].name == "Our Makruk" and presets["makruk-45"].path == site / "rules" / "makruk-45.toml"
    assert presets["makruk-30"].path == RULES_DIR / "makruk-30.toml"  # the others stay the shipped ones
    assert find_preset("makruk-45").name == "Our Makruk" and find_preset("club-45").id == "club-45"
    assert find_preset("makruk-45", RULES_DIR).name == "Makruk 45:00"  # a folder given: that folder only
    assert [p.id for p in load_presets(RULES_DIR)] == SHIPPED


def test_a_broken_site_file_is_skipped_and_reported(site, caplog):
    path = broken(site)
    skipped: list[RuleError] = []
    with caplog.at_level(logging.WARNING, logger="gameclock.rules.loader"):
        presets = load_presets(skipped=skipped)
    assert [p.id for p in presets] == SHIPPED  # the shipped presets still load
    assert [str(e) for e in skipped] == [str(RuleError(path, "preset.event", skipped[0].problem))]
    assert skipped[0].key == "preset.event" and BROKEN_LINE.split(": ", 1)[1] in str(skipped[0])
    assert [r.getMessage() for r in caplog.records] == [f"skipped an organiser's rule file: {skipped[0]}"]
    assert load_presets() == presets  # without a list: logged only


def test_a_broken_site_file_of_a_shipped_id_leaves_the_shipped_preset(site, caplog):
    broken(site, "makruk-45")
    with caplog.at_level(logging.WARNING, logger="gameclock.rules.loader"):
        assert find_preset("makruk-45").path == RULES_DIR / "makruk-45.toml"
        assert {p.id: p for p in load_presets()}["makruk-45"].name == "Makruk 45:00"
    assert len(caplog.records) == 2 and all("makruk-45.toml: preset.event" in r.getMessage() for r in caplog.records)


def test_find_preset_of_a_broken_site_only_preset_says_why(site):
    path = broken(site)
    with pytest.raises(RuleError) as e:
        find_preset("broken")
    assert (e.value.file, e.value.key) == (str(path), "preset.event")  # not "no preset 'broken'"
    with pytest.raises(RuleError, match=r"no preset 'nope' \(known: .*broken.*\)"):
        find_preset("nope")


def test_a_broken_shipped_file_is_an_error(site, tmp_path, monkeypatch):
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "makruk-45.toml").write_text(shipped_text("makruk-45").replace('event = "makruk"', 'event = "x"'),
                                            encoding="utf-8")
    monkeypatch.setattr(loader, "shipped_rules", lambda: shipped)
    write_site(site, "makruk-45", shipped_text("makruk-45"))  # a good site file does not hide it
    with pytest.raises(RuleError, match=r"shipped/makruk-45.toml: preset.event: unknown event 'x'"):
        load_presets()


def test_rules_dir_env_replaces_the_shipped_presets_and_the_site_still_adds(site, tmp_path, monkeypatch):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "makruk-30.toml").write_text(shipped_text("makruk-30"), encoding="utf-8")
    write_site(site, "club-45", shipped_text("makruk-45").replace('id = "makruk-45"', 'id = "club-45"'))
    monkeypatch.setenv(loader.ENV_RULES_DIR, str(mine))
    assert loader.rules_dir() == mine
    assert [p.id for p in load_presets()] == ["club-45", "makruk-30"]
    with pytest.raises(RuleError, match="known: club-45, makruk-30"):
        find_preset("makruk-45")
    (mine / "bad.toml").write_text("[preset]\n", encoding="utf-8")  # that folder is strict, as the shipped one
    with pytest.raises(RuleError, match="bad.toml"):
        load_presets()


def presets_cli(*args: str, site: Path, cwd: Path | str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("GAMECLOCK_RULES_DIR", "PYTHONPATH")}
    env[sitedir.ENV_SITE_DIR] = str(site)
    return subprocess.run([sys.executable, "-m", "gameclock", "presets", *args], capture_output=True, text=True,
                          timeout=60, env=env, cwd=cwd)


def test_gameclock_presets_prints_one_line_per_skipped_file_and_lists_the_rest(site):
    path = broken(site)
    r = presets_cli(site=site, cwd="/")
    assert r.returncode == 0
    # from /, the file is named whole (display_path does not make /etc/... into etc/...)
    assert r.stderr.splitlines() == [f"gameclock presets: skipped {path}: {BROKEN_LINE} (one of crossword, amath, "
                                     "khamkom, makruk, makhos, sudoku, custom) (did you mean 'makruk'?)"]
    assert [line.split()[0] for line in r.stdout.splitlines()[1:]] == SHIPPED
    r = presets_cli("--json", site=site, cwd=site)  # below the working folder: relative, as before
    assert r.stderr.startswith("gameclock presets: skipped rules/broken.toml: preset.event: ")
    assert [p["id"] for p in json.loads(r.stdout)] == SHIPPED
    r = presets_cli("--dir", str(site / "rules"), site=site, cwd=site)  # a folder given: strict
    assert r.returncode == 1 and r.stderr.startswith("rules/broken.toml: preset.event: ")
