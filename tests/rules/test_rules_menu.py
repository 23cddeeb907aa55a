"""Issue 15: the preset menu's keys of a rule file -- `group`, `menu_name`, `menu_order` -- read strictly,
with their defaults."""
from __future__ import annotations

from pathlib import Path

import pytest
from test_rules_errors import render, write

from gameclock.rules.loader import GROUPS, MENU_NAME_MAX, RuleError, load_preset, load_presets


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def load(**preset: str):
    return load_preset(write(render(preset)))


def test_defaults_follow_the_event_and_the_name(in_tmp: Path) -> None:
    p = load()  # a crossword event named "Test"
    assert (p.group, p.menu_name, p.menu_order) == ("crossword", "Test", 500)
    long = load(name='"A name far too long for a menu line"')
    assert long.menu_name == "TEST"  # the short name when the name does not fit 16 characters
    assert load(event='"amath"').group == "crossword" and load(event='"khamkom"').group == "crossword"
    assert load(event='"custom"', rules="[]").group == "other"


def test_the_keys_are_read(in_tmp: Path) -> None:
    p = load(group='"other"', menu_name='"XW practice"', menu_order="7")
    assert (p.group, p.menu_name, p.menu_order) == ("other", "XW practice", 7)
    assert load(event='"custom"', rules="[]", group='"makruk"').group == "makruk"  # custom: any group


@pytest.mark.parametrize(("changes", "message"), [
    ({"group": '"chess"'}, "preset.group: unknown group 'chess'"),
    ({"group": '"makruk"'}, "preset.group: 'makruk': a crossword preset is listed in the 'crossword' group or in 'other'"),
    ({"menu_name": '"Crossword 22:00 (cut)"'}, "preset.menu_name: 'Crossword 22:00 (cut)' is 21 characters; 1 to 16"),
    ({"menu_name": '"  "'}, "preset.menu_name: must not be empty"),
    ({"menu_order": "0"}, "preset.menu_order"),
    ({"menu_order": "1000"}, "preset.menu_order"),
    ({"menu_order": '"10"'}, "preset.menu_order"),
    ({"menu_nam": '"x"'}, "preset.menu_nam: unknown key"),
])
def test_bad_values_are_one_line_errors(in_tmp: Path, changes: dict[str, str], message: str) -> None:
    with pytest.raises(RuleError) as err:
        load(**changes)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_every_shipped_preset_names_its_place() -> None:
    """The shipped files give all three keys: every group has presets, names fit, orders are distinct
    within a group (the menu's order is the files', not an accident of sorting)."""
    presets = load_presets()
    assert {p.group for p in presets} == set(GROUPS)
    for p in presets:
        assert 1 <= len(p.menu_name) <= MENU_NAME_MAX, p.id
        text = p.path.read_text(encoding="utf-8")
        assert "\ngroup = " in text and "\nmenu_name = " in text and "\nmenu_order = " in text, p.id
    for g in GROUPS:
        orders = [p.menu_order for p in presets if p.group == g]
        assert len(orders) == len(set(orders)), g
