"""docs/arbiter.md, the arbiter's guide (issue 15): every link and picture it names exists, every
picture it shows is one `docs/arbiter/make_pictures.py` makes (and each one it makes is shown), and
the scripted sessions it quotes are the scripts' own -- the same steps between `#> begin` and
`#> end`, and the knob-action counts it gives are those steps counted the way
tests/test_arbiter_sessions.py counts them (its `correction`)."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest
from test_arbiter_sessions import ARBITER, correction, correction_lines

REPO = Path(__file__).resolve().parent.parent
GUIDE = REPO / "docs" / "arbiter.md"
TEXT = GUIDE.read_text(encoding="utf-8")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)\)")  # [text](target), "[0]" in a text too
SESSIONS = ("set-time.txt", "undo-press.txt", "take-back-extension.txt")


def _make_pictures():
    """docs/arbiter/make_pictures.py as a module (not run: its sessions take half a minute)."""
    name = "arbiter_make_pictures"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ARBITER / "make_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_link_and_picture_exists():
    targets = [t.split("#", 1)[0] for t in LINK.findall(TEXT) if not re.match(r"[a-z]+:", t)]
    assert targets, "the guide links nothing?"
    missing = [t for t in targets if t and not (GUIDE.parent / t).exists()]
    assert not missing


def test_the_pictures_shown_are_the_generators():
    shown = {Path(t).stem for t in LINK.findall(TEXT) if t.startswith("arbiter/img/") and t.endswith(".png")}
    made = {p.name for p in _make_pictures().PICTURES}
    assert shown == made
    for name in made:  # small enough for a web page
        assert (ARBITER / "img" / f"{name}.png").stat().st_size < 10_000


def test_the_generators_sessions_and_scripts_exist():
    mp = _make_pictures()
    for session in mp.SESSIONS.values():
        assert (ARBITER / session.script).is_file()
    for pic in mp.PICTURES:
        assert pic.session in mp.SESSIONS


@pytest.mark.parametrize("name", SESSIONS)
def test_the_quoted_action_count_is_the_scripts(name):
    acts = [v for k, v in correction(name) if k == "act"]
    row = next(ln for ln in TEXT.splitlines() if ln.startswith("|") and f"(arbiter/{name})" in ln)
    quoted = re.search(r"\*\*(\d+)\*\*", row)
    assert quoted is not None, row
    assert int(quoted.group(1)) == len(acts)


@pytest.mark.parametrize("name", SESSIONS)
def test_the_quoted_session_is_the_scripts(name):
    """The guide's code block after "`NAME` (preset ...):" holds the script's steps between the
    markers, line for line."""
    m = re.search(rf"^`{re.escape(name)}` \(preset [\w-]+\):\n\n```\n(.*?)```", TEXT, re.M | re.S)
    assert m is not None, f"{name} is not quoted"
    assert m.group(1).splitlines() == correction_lines(name)


@pytest.mark.parametrize("name", SESSIONS)
def test_the_replay_command_names_the_script_and_its_preset(name):
    preset = re.search(rf"^`{re.escape(name)}` \(preset ([\w-]+)\):", TEXT, re.M)
    assert preset is not None
    header = (ARBITER / name).read_text(encoding="utf-8")
    assert f"--preset {preset.group(1)} " in header  # the script's own "Run:" line
    assert re.search(rf"--preset {preset.group(1)} .*--script docs/arbiter/{re.escape(name)}", TEXT)


def test_readme_links_the_guide():
    assert "(docs/arbiter.md)" in (REPO / "README.md").read_text(encoding="utf-8")
