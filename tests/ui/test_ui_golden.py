"""Golden screens, checked through the decoded bus bytes: for every preset and state (see
make_goldens.py), both screens are rendered from views folded from real core events, pushed
through the diffing luma drivers onto a fake I2C bus (one display per address, the states one
after another, so most frames go out as diffs), decoded by the controller model, and compared
with the golden PNG. A difference fails and leaves the decoded and the golden picture side by side
in the test's tmp dir. Rewrite the goldens only after looking: tests/ui/make_goldens.py."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from luma.core.interface.serial import i2c
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "device"))

from fakebus import FakeBus  # noqa: E402
from golden_states import screen_states  # noqa: E402
from make_goldens import (  # noqa: E402
    FLAG,
    GOLDEN_DIR,
    LANGS,
    golden_image,
    golden_path,
    main,
    pair,
    split,
    state_image,
    state_path,
    states,
)
from ssd_model import MODELS  # noqa: E402

from gameclock.device.oled import DRIVERS, CountingSerial  # noqa: E402
from gameclock.rules.loader import load_presets  # noqa: E402

PRESETS = load_presets()


STATES = {lang: screen_states(lang, PRESETS) for lang in LANGS}
# issue 15's list of states a golden must show, each in both languages (the clock's own states are the
# per-preset goldens': test_every_state_is_covered_where_the_preset_has_it)
SCREEN_STATES = ["ready", "preset-menu", "game-menu", "confirm", "corrections", "time-edit", "pieces", "settings",
                 "result-entry", "result-review", "docked", "dock-error", "enroll"]


def test_there_is_one_golden_per_preset_and_state_and_language_and_no_other():
    want = sorted([golden_path(p.id, lang) for p in PRESETS for lang in LANGS]
                  + [state_path(name, lang) for lang in LANGS for name in SCREEN_STATES])
    assert sorted(GOLDEN_DIR.glob("**/*.png")) == want
    for lang in LANGS:
        assert [name for name, _ in STATES[lang]] == SCREEN_STATES


def _through_the_bus(driver, rows, golden, what, tmp_path):
    """Push `rows` ((name, left, right)) through the diffing driver onto a fake bus, one display per
    address, and compare what the panels show with the golden PNG's rows."""
    bus = FakeBus()
    models, devices = [], []
    for address in (0x3C, 0x3D):
        model = MODELS[driver](seed=address)
        bus.attach(address, model)
        dev = DRIVERS[driver](CountingSerial(i2c(bus=bus, address=address)))
        dev.initialize()
        models.append(model)
        devices.append(dev)
    for (name, left, right), want in zip(rows, split(golden, len(rows)), strict=True):
        for dev, img in zip(devices, (left, right), strict=True):
            dev.display(img)
        got = tuple(m.glass() for m in models)  # what the panels show (polarity included)
        if any(g.tobytes() != w.tobytes() for g, w in zip(got, want, strict=True)):
            out = tmp_path / f"{what}-{name}.png".replace(" ", "_").replace("/", "_")
            Image.merge("RGB", [pair(*got).convert("L"), pair(*want).convert("L"),
                                pair(*want).convert("L")]).save(out)
            pytest.fail(f"{what} {name} ({driver}): decoded screen differs from the golden "
                        f"(red = decoded only, cyan = golden only): {out}")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("state", SCREEN_STATES)
def test_golden_state_screens_through_the_bus(state, lang, tmp_path):
    rows = dict(STATES[lang])[state]
    golden = Image.open(state_path(state, lang))
    assert golden.size == state_image(rows).size, "rows changed: look, then regenerate"
    _through_the_bus("ssd1306", rows, golden, f"{lang} {state}", tmp_path)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.id)
def test_golden_screens_through_the_bus(preset, driver, lang, tmp_path):
    golden = Image.open(golden_path(preset.id, lang))
    rows = states(preset, PRESETS, lang)
    assert golden.size == golden_image(preset, PRESETS, lang).size, "states changed: look, then regenerate"
    _through_the_bus(driver, rows, golden, preset.id, tmp_path)


def test_every_state_is_covered_where_the_preset_has_it():
    by_id = {p.id: [name for name, _, _ in states(p, PRESETS)] for p in PRESETS}
    assert all("message" in names for names in by_id.values())
    for p in PRESETS:
        names = by_id[p.id]
        assert names[0] == "running" and names[1] == "low" and names[-1] == "menu"
        assert "paused" in names
        c = p.control_for()
        assert ("overtime" in names) == c.negative
    assert "flagged" in by_id["makruk-45"] and "flagged" in by_id["makhos-move"]
    assert "flagged" in by_id["sudoku-60"]  # the round's time running out
    assert "flagged" not in by_id["crossword"]  # negative time never flags
    assert "cut" in by_id["crossword-nocut"] and "extra" in by_id["makhos-move-2x5"]
    # MH-2 `call` (seed 004): MOVE NOW and the time below zero; never a flag
    assert "move-now" in by_id["makhos-stopwatch"] and "flagged" not in by_id["makhos-stopwatch"]
    assert "move-now" not in by_id["makhos-move"]
    # MR-6/MR-7 K+2R v K at 7/8 and at its limit; MH-6's count: both displays through the bus
    assert by_id["makruk-45"][-4:-1] == ["count-7", "count-limit", "count-paused"]
    assert by_id["makhos-move"][-2] == "count"


def test_count_rows_show_the_count_on_both_displays():
    from make_goldens import COUNT_STATES, RUN_VIEW_NS, _counted, _running  # noqa: E402

    from gameclock.core.clock import view
    from gameclock.ui import screens as scr

    # the counting side is named on both displays (issue 15); at the limit, the draw (MR-6: 8/8)
    want = {"count-7": "RIGHT COUNTS 7/8", "count-limit": "DRAW: COUNT 8/8", "count": "RIGHT COUNTS 5/16"}
    for preset_id, rows in COUNT_STATES.items():
        preset = next(p for p in PRESETS if p.id == preset_id)
        st, t_run, _ = _running(preset)
        assert t_run == RUN_VIEW_NS
        for name, fields, presses in rows:
            v = view(*_counted(st, t_run, fields, presses))
            for side in (0, 1):
                assert scr.headline(v, side)[0].startswith(want[name]), (preset_id, name, side)


def test_the_regeneration_helper_refuses_without_the_flag(monkeypatch, capsys):
    monkeypatch.delenv("GAMECLOCK_REGEN_GOLDENS", raising=False)
    before = {p: p.read_bytes() for p in GOLDEN_DIR.glob("**/*.png")}
    assert main([]) == 2
    assert FLAG in capsys.readouterr().err
    assert {p: p.read_bytes() for p in GOLDEN_DIR.glob("**/*.png")} == before
